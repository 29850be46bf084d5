//! Backend extensions (seed 004): the "Registering an operation" example
//! as printed there, then routing, autodiff merging and the panics of
//! `#[backend_extension]`. Without Burn's `fusion` feature (with it, Flex is
//! `Fusion<Flex>`, which the `Fusion` selector covers: `extension_fusion.rs`).
#![cfg(all(
    feature = "extension",
    feature = "flex",
    feature = "autodiff",
    not(feature = "fusion")
))]

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::tensor::{FloatTensor, IntTensor};
use burn::backend::{Autodiff, Dispatch, Flex, backend_extension};
use burn::tensor::{Checkpointing, Device, Int, Tensor};

#[test]
fn seed_004_registering_an_operation() {
    // The seed's code block, verbatim.
    use burn::{
        backend::{
            Autodiff, Dispatch, Flex, autodiff::checkpoint::strategy::CheckpointStrategy,
            backend_extension, tensor::FloatTensor,
        },
        tensor::{Device, Tensor},
    };

    #[backend_extension(Autodiff, Flex)]
    pub trait SquareBackend: burn::backend::Backend {
        fn square(input: FloatTensor<Self>) -> FloatTensor<Self> {
            Self::float_mul(input.clone(), input)
        }
    }

    impl SquareBackend for Flex {}

    // The default body composes differentiable primitives, so it also supplies the backward pass.
    impl<B: SquareBackend, C: CheckpointStrategy> SquareBackend for Autodiff<B, C> {}

    pub fn square<const D: usize>(input: Tensor<D>) -> Tensor<D> {
        Tensor::from_dispatch(Dispatch::square(input.into_dispatch()))
    }

    let device = Device::flex().autodiff();
    let input = Tensor::<1>::from_floats([2.0, 3.0], &device).require_grad();
    let gradients = square(input.clone()).sum().backward();
    let gradient = input.grad(&gradients).unwrap();
    assert_eq!(gradient.try_into_vec_as::<f32>().unwrap(), vec![4.0, 6.0]);
}

/// `a * alpha + b`, and a Flex kernel of its own for it (Flex's override
/// adds 1000, so a test can tell which implementation ran).
#[backend_extension(Flex, Autodiff)]
pub trait AxpyBackend: burn::backend::Backend {
    fn axpy(a: FloatTensor<Self>, b: FloatTensor<Self>, alpha: f32) -> FloatTensor<Self> {
        Self::float_add(Self::float_mul_scalar(a, alpha.into()), b)
    }

    /// Each row's argmax, and the row's values scaled: an int and a float
    /// output, int and float inputs.
    fn shift(x: FloatTensor<Self>, by: IntTensor<Self>) -> (FloatTensor<Self>, IntTensor<Self>) {
        let x_as_int = Self::float_into_int(x.clone(), by.dtype());
        (x, Self::int_add(x_as_int, by))
    }
}

impl AxpyBackend for Flex {
    fn axpy(a: FloatTensor<Self>, b: FloatTensor<Self>, alpha: f32) -> FloatTensor<Self> {
        let sum = Self::float_add(Self::float_mul_scalar(a, alpha.into()), b);
        Self::float_add_scalar(sum, 1000.0.into())
    }
}

impl<B: AxpyBackend, C: CheckpointStrategy> AxpyBackend for Autodiff<B, C> {}

fn axpy<const D: usize>(a: Tensor<D>, b: Tensor<D>, alpha: f32) -> Tensor<D> {
    Tensor::from_dispatch(Dispatch::axpy(a.into_dispatch(), b.into_dispatch(), alpha))
}

use burn::backend::{FloatTensorOps, TensorMetadata};

#[test]
fn plain_tensors_run_the_backend_implementation() {
    let device = Device::flex();
    let a = Tensor::<1>::from_floats([1.0, 2.0], &device);
    let b = Tensor::<1>::from_floats([10.0, 20.0], &device);
    let y = axpy(a, b, 3.0);
    assert_eq!(y.try_into_vec_as::<f32>().unwrap(), vec![1013.0, 1026.0]);

    let x = Tensor::<1>::from_floats([1.5, 2.5], &device);
    let by = Tensor::<1, Int>::from_ints([1, 2], &device);
    let (x, shifted) = Dispatch::shift(x.into_dispatch(), by.into_dispatch());
    assert_eq!(
        Tensor::<1>::from_dispatch(x)
            .try_into_vec_as::<f32>()
            .unwrap(),
        vec![1.5, 2.5]
    );
    let shifted = Tensor::<1, Int>::from_dispatch(shifted);
    assert_eq!(shifted.try_into_vec_as::<i64>().unwrap(), vec![2, 4]);
}

#[test]
fn autodiff_contexts_merge_and_plain_inputs_are_constants() {
    let device = Device::flex().autodiff();
    let a = Tensor::<1>::from_floats([1.0, 2.0], &device).require_grad();
    // `b` has no autodiff context: it enters as a constant.
    let b = Tensor::<1>::from_floats([10.0, 20.0], &Device::flex());
    let y = axpy(a.clone(), b, 3.0);
    // The Autodiff implementation (the default body) ran, not Flex's.
    assert_eq!(
        y.clone().try_into_vec_as::<f32>().unwrap(),
        vec![13.0, 26.0]
    );
    let grads = (y * y_weights(&device)).sum().backward();
    assert_eq!(
        a.grad(&grads).unwrap().try_into_vec_as::<f32>().unwrap(),
        vec![3.0 * 1.0, 3.0 * 2.0]
    );
}

fn y_weights(device: &Device) -> Tensor<1> {
    Tensor::from_floats([1.0, 2.0], device)
}

#[test]
#[should_panic(expected = "different checkpointing strategies")]
fn mixed_checkpointing_strategies_panic() {
    let none = Device::flex().autodiff();
    let balanced = Device::flex().autodiff_with_checkpointing(Checkpointing::Balanced);
    let a = Tensor::<1>::from_floats([1.0], &none).require_grad();
    let b = Tensor::<1>::from_floats([1.0], &balanced).require_grad();
    let _ = axpy(a, b, 1.0);
}

#[backend_extension(Flex)]
pub trait FlexOnly: burn::backend::Backend {
    fn twice(x: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::float_add(x.clone(), x)
    }
}

impl FlexOnly for Flex {}

#[test]
fn an_unlisted_backend_panics_naming_the_op_and_the_selectors() {
    let run = |device: Device| {
        std::panic::catch_unwind(move || {
            let x = Tensor::<1>::from_floats([1.0], &device);
            Tensor::<1>::from_dispatch(Dispatch::twice(x.into_dispatch()))
                .try_into_vec_as::<f32>()
                .unwrap()
        })
    };
    assert_eq!(run(Device::flex()).unwrap(), vec![2.0]);
    let message = *run(Device::flex().autodiff())
        .unwrap_err()
        .downcast::<String>()
        .unwrap();
    assert!(
        message.starts_with(
            "twice: this backend extension has no implementation for Autodiff (it lists Flex)"
        ),
        "{message}"
    );
}

#[test]
#[should_panic(expected = "from_dispatch: a I64 primitive cannot be a float tensor")]
fn from_dispatch_checks_the_kind() {
    let ints = Tensor::<1, Int>::from_ints([1, 2], &Device::flex());
    let primitive = ints.into_dispatch();
    assert_eq!(primitive.shape().num_dims(), 1);
    let _ = Tensor::<1>::from_dispatch(primitive);
}
