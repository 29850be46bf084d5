//! Backend extensions under Fusion (`Fusion` selector): each op is
//! recorded lazily with its outputs' shapes and dtypes, runs once on the
//! inner backend at the next read, and a wrong output shape is an error
//! naming the op.
#![cfg(all(feature = "extension", feature = "flex", feature = "fusion"))]

use std::sync::atomic::{AtomicUsize, Ordering};

use burn::backend::tensor::{FloatTensor, IntTensor};
use burn::backend::{Dispatch, Flex, FloatTensorOps, TensorSpec, backend_extension};
use burn::tensor::{DType, Device, Int, Shape, Tensor};

/// How many times Flex's `stack` ran.
static STACKS: AtomicUsize = AtomicUsize::new(0);

fn stacked(a: &Shape, b: &Shape) -> Shape {
    Shape::new([a.dims[0] + b.dims[0], a.dims[1]])
}

fn split_specs(x: &TensorSpec) -> (TensorSpec, TensorSpec) {
    (x.clone(), TensorSpec::new(x.shape.clone(), DType::I64))
}

#[backend_extension(Flex, Fusion)]
pub trait RowsBackend: burn::backend::Backend {
    /// `a` over `b`.
    #[fusion(dtype = a, shape = stacked(a, b))]
    fn stack(a: FloatTensor<Self>, b: FloatTensor<Self>) -> FloatTensor<Self>;

    /// `x * by`.
    #[fusion(dtype = x, shape = x)]
    fn scale(x: FloatTensor<Self>, by: f32) -> FloatTensor<Self>;

    /// `x` doubled, and `x` as integers.
    #[fusion(meta = split_specs)]
    fn split(x: FloatTensor<Self>) -> (FloatTensor<Self>, IntTensor<Self>);

    /// Composed of primitives, which Fusion records as any others.
    #[fusion(default)]
    fn twice(x: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::float_add(x.clone(), x)
    }

    /// Declares `x`'s shape, returns a flattened one: a bug of the
    /// extension, caught when the op runs.
    #[fusion(dtype = x, shape = x)]
    fn flattened(x: FloatTensor<Self>) -> FloatTensor<Self>;
}

impl RowsBackend for Flex {
    fn stack(a: FloatTensor<Self>, b: FloatTensor<Self>) -> FloatTensor<Self> {
        STACKS.fetch_add(1, Ordering::SeqCst);
        Self::float_cat(vec![a, b], 0)
    }

    fn scale(x: FloatTensor<Self>, by: f32) -> FloatTensor<Self> {
        Self::float_mul_scalar(x, by.into())
    }

    fn split(x: FloatTensor<Self>) -> (FloatTensor<Self>, IntTensor<Self>) {
        let ints = Self::float_into_int(x.clone(), DType::I64);
        (Self::float_add(x.clone(), x), ints)
    }

    fn flattened(x: FloatTensor<Self>) -> FloatTensor<Self> {
        use burn::backend::TensorMetadata;
        let n = x.shape().num_elements();
        Self::float_reshape(x, Shape::new([n]))
    }
}

fn floats<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.try_into_vec_as::<f32>().unwrap()
}

#[test]
fn an_op_stays_lazy_until_a_read_then_runs_once() {
    let device = Device::flex();
    let a = Tensor::<2>::from_floats([[1.0, 2.0]], &device);
    let b = Tensor::<2>::from_floats([[3.0, 4.0], [5.0, 6.0]], &device);
    let before = STACKS.load(Ordering::SeqCst);
    let y = Tensor::<2>::from_dispatch(Dispatch::stack(a.into_dispatch(), b.into_dispatch()));
    // Shape known at once, nothing run yet.
    assert_eq!(y.dims(), [3, 2]);
    assert_eq!(STACKS.load(Ordering::SeqCst), before);
    let z = y.clone() * 10.0;
    assert_eq!(floats(y), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(STACKS.load(Ordering::SeqCst), before + 1);
    assert_eq!(floats(z), vec![10.0, 20.0, 30.0, 40.0, 50.0, 60.0]);
    assert_eq!(STACKS.load(Ordering::SeqCst), before + 1);
}

#[test]
fn plain_arguments_tuples_and_default_bodies() {
    let device = Device::flex();
    let x = Tensor::<1>::from_floats([1.5, -2.0], &device);
    let scaled = Tensor::<1>::from_dispatch(Dispatch::scale(x.clone().into_dispatch(), 4.0));
    assert_eq!(floats(scaled), vec![6.0, -8.0]);

    let (doubled, ints) = Dispatch::split(x.clone().into_dispatch());
    let ints = Tensor::<1, Int>::from_dispatch(ints);
    assert_eq!(ints.try_into_vec_as::<i64>().unwrap(), vec![1, -2]);
    assert_eq!(floats(Tensor::<1>::from_dispatch(doubled)), vec![3.0, -4.0]);

    let twice = Tensor::<1>::from_dispatch(Dispatch::twice(x.into_dispatch()));
    assert_eq!(floats(twice), vec![3.0, -4.0]);
}

#[test]
fn an_output_unlike_its_declaration_is_an_error_naming_the_op() {
    let device = Device::flex();
    let x = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &device);
    let y = Tensor::<2>::from_dispatch(Dispatch::flattened(x.into_dispatch()));
    let error = y.try_into_vec_as::<f32>().unwrap_err().to_string();
    assert!(error.contains("RowsBackend::flattened"), "{error}");
}
