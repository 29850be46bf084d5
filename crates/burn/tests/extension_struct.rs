//! Structs and enums of tensors through backend extensions (seed 004,
//! "Passing structs and enums of tensors"): `#[derive(ExtensionType)]`
//! values as inputs and outputs, routed by their first tensor, non-tensor
//! fields moved, enum inputs without a tensor deferring to the next input,
//! and float fields carrying gradients through Autodiff. On Flex, without
//! Burn's `fusion` feature (as `extension.rs`).
#![cfg(all(
    feature = "extension",
    feature = "flex",
    feature = "autodiff",
    not(feature = "fusion")
))]

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::tensor::{FloatTensor, IntTensor};
use burn::backend::{Autodiff, Dispatch, ExtensionType, Flex, backend_extension};
use burn::tensor::{Device, Int, Tensor};

// ANCHOR: types
/// Scored boxes: two float tensors and a count moved as it is.
#[derive(ExtensionType)]
pub struct Boxes<B: Backend> {
    pub coords: FloatTensor<B>,
    pub scores: FloatTensor<B>,
    pub count: usize,
}

/// A dense or sparse vector, or nothing.
#[derive(ExtensionType)]
pub enum Operand<B: Backend> {
    Dense(FloatTensor<B>),
    Sparse {
        values: FloatTensor<B>,
        indices: IntTensor<B>,
    },
    Empty,
}

// ANCHOR_END: types

/// A struct nesting another.
#[derive(ExtensionType)]
pub struct Detection<B: Backend> {
    #[extension_type]
    pub boxes: Boxes<B>,
    pub label: Option<IntTensor<B>>,
    pub name: String,
}

// ANCHOR: trait
#[backend_extension(Flex, Autodiff)]
pub trait Backend: burn::backend::Backend {
    /// Boxes from an image: its rows as coordinates, each row's sum as the
    /// score.
    fn detect(image: FloatTensor<Self>) -> Boxes<Self> {
        let rows = image.shape().dims[0];
        let scores = Self::float_sum_dim(image.clone(), 1);
        Boxes {
            coords: image,
            scores,
            count: rows,
        }
    }

    /// Scores scaled by `by`, coordinates unchanged, count kept.
    fn rescore(#[extension_type] boxes: Boxes<Self>, by: f32) -> Boxes<Self> {
        Boxes {
            scores: Self::float_mul_scalar(boxes.scores, by.into()),
            ..boxes
        }
    }

    /// The operand as a dense vector shaped as `fill`, `fill` where it has
    /// no value (an `Empty` operand is all `fill`).
    fn densify(#[extension_type] x: Operand<Self>, fill: FloatTensor<Self>) -> FloatTensor<Self> {
        match x {
            Operand::Dense(t) => t,
            Operand::Sparse { values, indices } => {
                Self::float_scatter_add(0, fill, indices, values)
            }
            Operand::Empty => fill,
        }
    }

    /// Sums a struct's scores with an operand's values (two struct inputs).
    fn total(
        #[extension_type] x: Operand<Self>,
        #[extension_type] boxes: Boxes<Self>,
    ) -> FloatTensor<Self> {
        let scores = Self::float_sum(boxes.scores);
        match x {
            Operand::Dense(t) => Self::float_add(Self::float_sum(t), scores),
            Operand::Sparse { values, .. } => Self::float_add(Self::float_sum(values), scores),
            Operand::Empty => scores,
        }
    }

    /// A nested struct through: the boxes' coordinates doubled.
    fn widen(#[extension_type] d: Detection<Self>) -> Detection<Self> {
        let boxes = d.boxes;
        Detection {
            boxes: Boxes {
                coords: Self::float_mul_scalar(boxes.coords, 2.0.into()),
                ..boxes
            },
            ..d
        }
    }
}

// ANCHOR_END: trait

/// Flex's own `detect`: scores are each row's sum plus 100, so a test
/// tells it ran.
impl Backend for Flex {
    fn detect(image: FloatTensor<Self>) -> Boxes<Self> {
        let rows = image.shape().dims[0];
        let sums = Self::float_sum_dim(image.clone(), 1);
        Boxes {
            coords: image,
            scores: Self::float_add_scalar(sums, 100.0.into()),
            count: rows,
        }
    }
}

impl<B: Backend, C: CheckpointStrategy> Backend for Autodiff<B, C> {}

use burn::backend::{FloatTensorOps, TensorMetadata};

fn boxes_of(b: Boxes<Dispatch>) -> (Tensor<2>, Tensor<2>, usize) {
    (
        Tensor::from_dispatch(b.coords),
        Tensor::from_dispatch(b.scores),
        b.count,
    )
}

fn boxes(coords: Tensor<2>, scores: Tensor<2>, count: usize) -> Boxes<Dispatch> {
    Boxes {
        coords: coords.into_dispatch(),
        scores: scores.into_dispatch(),
        count,
    }
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.try_into_vec_as::<f32>().unwrap()
}

#[test]
fn a_struct_output_runs_the_backend_implementation_and_moves_its_count() {
    let device = Device::flex();
    let image = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], &device);
    let (coords, scores, count) = boxes_of(Dispatch::detect(image.clone().into_dispatch()));
    assert_eq!(count, 3);
    assert_eq!(values(coords), values(image));
    assert_eq!(values(scores), vec![103.0, 107.0, 111.0]);
}

#[test]
fn a_struct_input_is_routed_by_its_first_tensor() {
    let device = Device::flex();
    let coords = Tensor::<2>::from_floats([[0.0, 1.0]], &device);
    let scores = Tensor::<2>::from_floats([[2.0], [4.0]], &device);
    let out = Dispatch::rescore(boxes(coords.clone(), scores, 7), 0.5);
    let (c, s, count) = boxes_of(out);
    assert_eq!(
        (values(c), values(s), count),
        (values(coords), vec![1.0, 2.0], 7)
    );
}

#[test]
fn enum_variants_each_route_and_convert() {
    let device = Device::flex();
    let fill = || Tensor::<1>::from_floats([10.0, 10.0, 10.0, 10.0], &device).into_dispatch();
    let dense =
        Operand::Dense(Tensor::<1>::from_floats([1.0, 2.0, 3.0, 4.0], &device).into_dispatch());
    let got: Tensor<1> = Tensor::from_dispatch(Dispatch::densify(dense, fill()));
    assert_eq!(values(got), vec![1.0, 2.0, 3.0, 4.0]);

    let sparse = Operand::Sparse {
        values: Tensor::<1>::from_floats([5.0, 7.0], &device).into_dispatch(),
        indices: Tensor::<1, Int>::from_ints([3, 0], &device).into_dispatch(),
    };
    let got: Tensor<1> = Tensor::from_dispatch(Dispatch::densify(sparse, fill()));
    assert_eq!(values(got), vec![17.0, 10.0, 10.0, 15.0]);

    // `Empty` holds no tensor: `fill`, the next input, routes the op.
    let got: Tensor<1> = Tensor::from_dispatch(Dispatch::densify(Operand::Empty, fill()));
    assert_eq!(values(got), vec![10.0; 4]);
}

#[test]
fn several_struct_inputs_mix() {
    let device = Device::flex();
    let b = || {
        boxes(
            Tensor::<2>::from_floats([[0.0, 0.0]], &device),
            Tensor::<2>::from_floats([[1.5], [2.5]], &device),
            2,
        )
    };
    let dense = Operand::Dense(Tensor::<1>::from_floats([1.0, 2.0], &device).into_dispatch());
    let got: Tensor<1> = Tensor::from_dispatch(Dispatch::total(dense, b()));
    assert_eq!(values(got), vec![7.0]);
    // The first input holds nothing: the boxes route the op.
    let got: Tensor<1> = Tensor::from_dispatch(Dispatch::total(Operand::Empty, b()));
    assert_eq!(values(got), vec![4.0]);
}

#[test]
fn nested_structs_and_optional_tensors_convert_both_ways() {
    let device = Device::flex();
    let d = Detection {
        boxes: boxes(
            Tensor::<2>::from_floats([[1.0, -1.0]], &device),
            Tensor::<2>::from_floats([[0.25]], &device),
            1,
        ),
        label: Some(Tensor::<1, Int>::from_ints([4], &device).into_dispatch()),
        name: String::from("cat"),
    };
    let out = Dispatch::widen(d);
    assert_eq!(out.name, "cat");
    let label: Tensor<1, Int> = Tensor::from_dispatch(out.label.unwrap());
    assert_eq!(label.try_into_vec_as::<i64>().unwrap(), vec![4]);
    let (c, s, count) = boxes_of(out.boxes);
    assert_eq!(
        (values(c), values(s), count),
        (vec![2.0, -2.0], vec![0.25], 1)
    );
}

#[test]
fn float_fields_carry_gradients_through_autodiff() {
    let device = Device::flex().autodiff();
    let coords = Tensor::<2>::from_floats([[1.0, 2.0]], &device).require_grad();
    let scores = Tensor::<2>::from_floats([[3.0], [4.0]], &device).require_grad();
    let out = Dispatch::rescore(boxes(coords.clone(), scores.clone(), 2), 3.0);
    let (c, s, count) = boxes_of(out);
    assert_eq!(count, 2);
    let gradients = (c.sum() + s.sum() * 2.0).backward();
    assert_eq!(values(coords.grad(&gradients).unwrap()), vec![1.0, 1.0]);
    assert_eq!(values(scores.grad(&gradients).unwrap()), vec![6.0, 6.0]);

    // A struct output of a plain-tensor input, with a tracked input: the
    // default body on Autodiff, so the scores are the rows' sums.
    let image = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &device).require_grad();
    let (_, scores, _) = boxes_of(Dispatch::detect(image.clone().into_dispatch()));
    assert_eq!(values(scores.clone()), vec![3.0, 7.0]);
    let gradients = scores.sum().backward();
    assert_eq!(values(image.grad(&gradients).unwrap()), vec![1.0; 4]);
}

#[test]
#[should_panic(expected = "densify: no input holds a tensor")]
fn no_tensor_anywhere_panics_clearly() {
    #[backend_extension(Flex)]
    pub trait OnlyStructs: Backend {
        fn densify(#[extension_type] x: Operand<Self>) -> FloatTensor<Self>;
    }
    impl OnlyStructs for Flex {
        fn densify(_: Operand<Self>) -> FloatTensor<Self> {
            unreachable!("never routed")
        }
    }
    // The type annotation picks this trait's `densify`.
    let _: FloatTensor<Dispatch> = <Dispatch as OnlyStructs>::densify(Operand::Empty);
}

#[test]
fn metadata_of_the_routed_tensors_is_the_callers() {
    // The struct's tensors keep their device and dtype through the route.
    let device = Device::flex();
    let b = Dispatch::detect(Tensor::<2>::from_floats([[1.0]], &device).into_dispatch());
    assert_eq!(b.coords.shape().dims, vec![1, 1]);
    assert_eq!(b.scores.dtype(), burn::tensor::DType::F32);
}
