//! Swish (`x · sigmoid(βx)`; SiLU at β = 1, close to GELU at β = 1.702) as
//! a backend extension on the CubeCL backend: one trait, a portable
//! `#[cube]` kernel for the forward pass and another for the derivative
//! (written once, compiled for whichever CubeCL runtime holds the tensor:
//! WGPU here), lazy registration under Fusion, a handwritten backward pass
//! for `Autodiff` that calls the derivative kernel, and the functions of
//! the tensor API users call.
//!
//! What it is for: the pattern, and a measure of what a kernel of one's own
//! wins. Fusion already merges the forward composition `x * sigmoid(x * β)`
//! into one kernel; the composed backward pass is several ops (sigmoid's
//! backward, two products, a sum of two gradients), where the derivative
//! kernel reads `x` and `dy` once and writes `dx` once.
//!
//! - [`SwishBackend`]: the trait; its default bodies compose primitives.
//! - `impl SwishBackend for Cube`: the kernels (f32; other dtypes compose).
//! - `impl SwishBackend for Autodiff<B, C>`: `dx = swish_backward(x, dy)`.
//! - [`swish`], [`swish_composed`]: the op through Dispatch, and the same
//!   function of the tensor API's primitives (the reference).
//! - [`check`]: values and gradients against the reference on a device.

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::{AutodiffTensor, Backward, Checkpointed, ParentGrads};
use burn::backend::tensor::FloatTensor;
use burn::backend::{Autodiff, Cube, CubeTensor, Dispatch, TensorMetadata, backend_extension};
use burn::tensor::{DType, Device, Distribution, Tensor, activation};

// ANCHOR: trait
/// The operations the extension adds. Under Fusion (the GPU runtimes' default)
/// each is recorded with its output's shape and dtype (those of `x`), and
/// Cube's kernel runs when a result is read.
#[backend_extension(Cube, Fusion, Autodiff)]
pub trait SwishBackend: burn::backend::Backend {
    /// `x · sigmoid(βx)`.
    #[fusion(dtype = x, shape = x)]
    fn swish(x: FloatTensor<Self>, beta: f32) -> FloatTensor<Self> {
        composed::swish::<Self>(x, beta)
    }

    /// The gradient of `swish` at `x` given the output's gradient `grad`:
    /// `grad · s · (1 + βx · (1 − s))`, `s = sigmoid(βx)`.
    #[fusion(dtype = x, shape = x)]
    fn swish_backward(
        x: FloatTensor<Self>,
        grad: FloatTensor<Self>,
        beta: f32,
    ) -> FloatTensor<Self> {
        composed::swish_backward::<Self>(x, grad, beta)
    }
}
// ANCHOR_END: trait

/// Both ops composed of primitives: the default bodies, and Cube's path for
/// dtypes other than f32.
mod composed {
    use super::*;

    pub fn swish<B: burn::backend::Backend>(x: FloatTensor<B>, beta: f32) -> FloatTensor<B> {
        let s = B::sigmoid(B::float_mul_scalar(x.clone(), beta.into()));
        B::float_mul(x, s)
    }

    // d/dx x·σ(βx) = σ(βx) + βx·σ(βx)(1 − σ(βx)) = s(1 + βx(1 − s)).
    pub fn swish_backward<B: burn::backend::Backend>(
        x: FloatTensor<B>,
        grad: FloatTensor<B>,
        beta: f32,
    ) -> FloatTensor<B> {
        let bx = B::float_mul_scalar(x, beta.into());
        let s = B::sigmoid(bx.clone());
        let one_minus_s = B::float_add_scalar(B::float_neg(s.clone()), 1.0.into());
        let inner = B::float_add_scalar(B::float_mul(bx, one_minus_s), 1.0.into());
        B::float_mul(grad, B::float_mul(s, inner))
    }
}

// ANCHOR: kernel
/// The kernels and their launches, beside CubeCL's prelude (whose `Tensor`
/// is the kernel's view of a buffer, not the tensor API's). One unit per
/// element; both inputs are contiguous, read from their offsets.
mod kernel {
    use burn::backend::{CubeLaunch, CubeTensor, launch_dims};
    use burn::cubecl;
    use cubecl::prelude::*;

    /// `output[i] = x · s`, `s = 1 / (1 + e^(−βx))`, `x = input[offset + i]`.
    #[cube(launch_unchecked)]
    fn swish_kernel(
        input: &Tensor<f32>,
        output: &mut Tensor<f32>,
        offset: usize,
        len: usize,
        beta: f32,
    ) {
        if ABSOLUTE_POS >= len {
            terminate!();
        }
        let x = input[offset + ABSOLUTE_POS];
        // e^(−βx) overflows to +inf for very negative βx: s is then 0, as it should be.
        let s = 1.0f32 / (1.0f32 + f32::exp(-(beta * x)));
        output[ABSOLUTE_POS] = x * s;
    }

    /// `output[i] = dy · s · (1 + βx · (1 − s))`, the same `s`, from one read
    /// of `x` and one of `dy`.
    #[cube(launch_unchecked)]
    fn swish_backward_kernel(
        input: &Tensor<f32>,
        grad: &Tensor<f32>,
        output: &mut Tensor<f32>,
        input_offset: usize,
        grad_offset: usize,
        len: usize,
        beta: f32,
    ) {
        if ABSOLUTE_POS >= len {
            terminate!();
        }
        let bx = beta * input[input_offset + ABSOLUTE_POS];
        let s = 1.0f32 / (1.0f32 + f32::exp(-bx));
        let dy = grad[grad_offset + ABSOLUTE_POS];
        output[ABSOLUTE_POS] = dy * s * (1.0f32 + bx * (1.0f32 - s));
    }

    /// The launch of `swish_kernel`, written once for every CubeCL runtime.
    pub struct Swish<'a> {
        pub input: &'a CubeTensor,
        pub output: &'a CubeTensor,
        pub beta: f32,
    }

    impl CubeLaunch for Swish<'_> {
        type Output = ();

        fn launch<R: cubecl::Runtime>(self, client: &ComputeClient<R>) {
            let len = self.output.num_elements();
            let (count, dim) = launch_dims(client, len);
            // SAFETY: `output` holds `len` elements; units at or past `len`
            // stop, the others read `input` at `offset + i`, inside its
            // buffer (contiguous, of the output's shape).
            unsafe {
                swish_kernel::launch_unchecked::<R>(
                    client,
                    count,
                    dim,
                    self.input.as_tensor_arg(),
                    self.output.as_tensor_arg(),
                    self.input.offset(),
                    len,
                    self.beta,
                );
            }
        }
    }

    /// The launch of `swish_backward_kernel`.
    pub struct SwishBackward<'a> {
        pub input: &'a CubeTensor,
        pub grad: &'a CubeTensor,
        pub output: &'a CubeTensor,
        pub beta: f32,
    }

    impl CubeLaunch for SwishBackward<'_> {
        type Output = ();

        fn launch<R: cubecl::Runtime>(self, client: &ComputeClient<R>) {
            let len = self.output.num_elements();
            let (count, dim) = launch_dims(client, len);
            // SAFETY: as for `Swish`; `grad` is contiguous of the same shape.
            unsafe {
                swish_backward_kernel::launch_unchecked::<R>(
                    client,
                    count,
                    dim,
                    self.input.as_tensor_arg(),
                    self.grad.as_tensor_arg(),
                    self.output.as_tensor_arg(),
                    self.input.offset(),
                    self.grad.offset(),
                    len,
                    self.beta,
                );
            }
        }
    }
}
// ANCHOR_END: kernel

// ANCHOR: cube
/// Cube: one kernel per op for f32; other dtypes compose primitives, as the
/// default bodies do.
impl SwishBackend for Cube {
    fn swish(x: CubeTensor, beta: f32) -> CubeTensor {
        if x.dtype() != DType::F32 {
            return composed::swish::<Self>(x, beta);
        }
        let x = x.into_contiguous();
        let output = x.empty_like(x.shape(), DType::F32);
        x.client().launch(kernel::Swish {
            input: &x,
            output: &output,
            beta,
        });
        output
    }

    fn swish_backward(x: CubeTensor, grad: CubeTensor, beta: f32) -> CubeTensor {
        assert_eq!(x.shape(), grad.shape(), "swish_backward: shapes differ");
        if (x.dtype(), grad.dtype()) != (DType::F32, DType::F32) {
            return composed::swish_backward::<Self>(x, grad, beta);
        }
        let (x, grad) = (x.into_contiguous(), grad.into_contiguous());
        let output = x.empty_like(x.shape(), DType::F32);
        x.client().launch(kernel::SwishBackward {
            input: &x,
            grad: &grad,
            output: &output,
            beta,
        });
        output
    }
}
// ANCHOR_END: cube

// ANCHOR: autodiff
/// The backward step of `swish`: it keeps `x` (checkpointed) and β, and
/// turns the output's gradient into the input's with the inner backend's
/// `swish_backward` (the derivative kernel when the values are on Cube).
struct SwishStep;

impl<B: SwishBackend> Backward<B, 1> for SwishStep {
    type State = (Checkpointed<B>, f32);

    fn backward(
        self,
        grad: FloatTensor<B>,
        (x, beta): (Checkpointed<B>, f32),
        grads: &mut ParentGrads<'_, B, 1>,
    ) {
        grads.register(0, B::swish_backward(x.value(), grad, beta));
    }
}

impl<B: SwishBackend, C: CheckpointStrategy> SwishBackend for Autodiff<B, C> {
    fn swish(x: AutodiffTensor<B>, beta: f32) -> AutodiffTensor<B> {
        let step = SwishStep.prepare::<C>([x.node()]);
        if !step.is_tracked() {
            return AutodiffTensor::constant(B::swish(x.into_primitive(), beta), C::MODE);
        }
        // The derivative needs `x`: keep it rather than recompute it.
        let step = step.compute_bound();
        let state = (step.checkpoint(&x), beta);
        step.finish(state, B::swish(x.into_primitive(), beta))
    }
    // `swish_backward` keeps its default body: on autodiff tensors it is
    // differentiable (composed of differentiable primitives), so a second
    // derivative works too.
}
// ANCHOR_END: autodiff

// ANCHOR: api
/// Swish of any tensor on a device whose backend the extension lists (the
/// CubeCL backend, with or without an autodiff context).
pub fn swish<const D: usize>(x: Tensor<D>, beta: f32) -> Tensor<D> {
    Tensor::from_dispatch(Dispatch::swish(x.into_dispatch(), beta))
}
// ANCHOR_END: api

/// Swish composed of the tensor API's primitives: the reference, fused by
/// Fusion into one kernel forward, differentiated op by op backward.
pub fn swish_composed<const D: usize>(x: Tensor<D>, beta: f32) -> Tensor<D> {
    x.clone() * activation::sigmoid(x * beta)
}

/// What [`check`] measured: the largest absolute differences from the
/// composed reference.
#[derive(Clone, Copy, Debug)]
pub struct Check {
    /// Of the forward values.
    pub forward: f32,
    /// Of the input's gradient.
    pub gradient: f32,
}

/// Why [`check`] failed.
#[derive(Debug)]
pub enum CheckError {
    /// A value outside `|got − want| ≤ ATOL + RTOL·|want|`.
    Mismatch {
        what: &'static str,
        index: usize,
        got: f32,
        want: f32,
    },
    /// A result could not be read back from the device.
    Read { what: &'static str, reason: String },
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Mismatch {
                what,
                index,
                got,
                want,
            } => write!(f, "{what}: element {index} is {got}, the reference {want}"),
            Self::Read { what, reason } => write!(f, "{what}: reading back failed: {reason}"),
        }
    }
}

impl std::error::Error for CheckError {}

/// f32 kernels and the composition round `exp` and the products differently.
const ATOL: f32 = 1e-5;
const RTOL: f32 = 1e-4;

/// Checks the extension on `device` (a CubeCL device, e.g.
/// `Device::wgpu(Default::default())`): hand-worked values, the forward pass
/// on a transposed view against [`swish_composed`], and, on
/// `device.autodiff()`, the handwritten gradient against the composed op's.
///
/// # Errors
/// The first value out of tolerance, or a failed read.
pub fn check(device: &Device) -> Result<Check, CheckError> {
    // Worked by hand: swish(x) = x / (1 + e^(−x)) at β = 1.
    let x = Tensor::<1>::from_floats([0.0, 1.0, -2.0], device);
    compare(
        "swish at 0, 1, −2",
        read("swish", swish(x, 1.0))?,
        &[0.0, 0.731_058_6, -0.238_405_84],
    )?;

    let beta = 1.702;
    // A transposed view, with an odd element count: made contiguous, and
    // the last cube only partly used.
    let x = Tensor::<2>::random([67, 61], Distribution::Uniform(-8.0, 8.0), device).transpose();
    let forward = compare(
        "swish forward",
        read("swish", swish(x.clone(), beta))?,
        &read("composed swish", swish_composed(x.clone(), beta))?,
    )?;

    let autodiff = device.clone().autodiff();
    let values = x.into_data();
    let weights = Tensor::<2>::random([61, 67], Distribution::Default, &autodiff);
    let ours = Tensor::<2>::from_data(values.clone(), &autodiff).require_grad();
    let grads = (swish(ours.clone(), beta) * weights.clone())
        .sum()
        .backward();
    let ours = ours.grad(&grads).expect("swish's input is tracked");
    let reference = Tensor::<2>::from_data(values, &autodiff).require_grad();
    let grads = (swish_composed(reference.clone(), beta) * weights)
        .sum()
        .backward();
    let reference = reference.grad(&grads).expect("the input is tracked");
    let gradient = compare(
        "swish gradient",
        read("gradient", ours)?,
        &read("composed gradient", reference)?,
    )?;
    Ok(Check { forward, gradient })
}

fn read<const D: usize>(what: &'static str, x: Tensor<D>) -> Result<Vec<f32>, CheckError> {
    x.try_into_vec_as::<f32>().map_err(|err| CheckError::Read {
        what,
        reason: err.to_string(),
    })
}

/// The largest `|got − want|`, or the first element out of tolerance.
fn compare(what: &'static str, got: Vec<f32>, want: &[f32]) -> Result<f32, CheckError> {
    assert_eq!(got.len(), want.len(), "{what}: lengths differ");
    let mut max = 0.0f32;
    for (index, (&got, &want)) in got.iter().zip(want).enumerate() {
        let diff = (got - want).abs();
        if diff.is_nan() || diff > ATOL + RTOL * want.abs() {
            return Err(CheckError::Mismatch {
                what,
                index,
                got,
                want,
            });
        }
        max = max.max(diff);
    }
    Ok(max)
}
