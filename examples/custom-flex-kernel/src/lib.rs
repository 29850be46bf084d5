//! Mish (`x * tanh(softplus(x))`) as a backend extension: one trait, its
//! own Flex kernel (one pass over memory, where the tensor API's
//! `activation::mish` composes five primitives, each a pass), a
//! handwritten backward pass for `Autodiff`, and a function of the tensor
//! API that reaches it through `Dispatch`.

use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::{AutodiffTensor, Backward, Checkpointed, ParentGrads};
use burn::backend::tensor::FloatTensor;
use burn::backend::{
    ActivationOps, Autodiff, Dispatch, Flex, FlexTensor, FloatTensorOps, TensorMetadata,
    backend_extension,
};
use burn::tensor::{DType, Tensor};

// ANCHOR: trait
/// The operations the extension adds. The default bodies compose
/// primitives: any backend that implements the trait with them gets a
/// correct (unfused) version. With Burn's `fusion` feature, Flex runs
/// under the Fusion decorator: each op is then recorded with its output's
/// shape and dtype (the input's) and Flex's kernel runs at the next read.
#[backend_extension(Autodiff, Flex, Fusion)]
pub trait MishBackend: burn::backend::Backend {
    /// `x * tanh(ln(1 + e^x))`.
    #[fusion(dtype = x, shape = x)]
    fn mish(x: FloatTensor<Self>) -> FloatTensor<Self> {
        let softplus = Self::float_log1p(Self::float_exp(x.clone()));
        Self::float_mul(x, Self::float_tanh(softplus))
    }

    /// Mish's derivative: `t + x * (1 - t^2) * sigmoid(x)`, with
    /// `t = tanh(ln(1 + e^x))`.
    #[fusion(dtype = x, shape = x)]
    fn mish_derivative(x: FloatTensor<Self>) -> FloatTensor<Self> {
        let t = Self::float_tanh(Self::float_log1p(Self::float_exp(x.clone())));
        let one_minus_t2 = Self::float_add_scalar(
            Self::float_neg(Self::float_mul(t.clone(), t.clone())),
            1.0.into(),
        );
        let slope = Self::float_mul(Self::float_mul(x.clone(), one_minus_t2), Self::sigmoid(x));
        Self::float_add(t, slope)
    }
}
// ANCHOR_END: trait

// ANCHOR: flex
/// Flex: each op in one pass over an f32 buffer; other dtypes compose
/// primitives, as the default bodies do.
impl MishBackend for Flex {
    fn mish(x: FlexTensor) -> FlexTensor {
        match map_f32(x, mish_f32) {
            Ok(y) => y,
            Err(x) => {
                let softplus = Self::float_log1p(Self::float_exp(x.clone()));
                Self::float_mul(x, Self::float_tanh(softplus))
            }
        }
    }

    fn mish_derivative(x: FlexTensor) -> FlexTensor {
        match map_f32(x, mish_derivative_f32) {
            Ok(y) => y,
            Err(x) => {
                let t = Self::float_tanh(Self::float_log1p(Self::float_exp(x.clone())));
                let t2 = Self::float_mul(t.clone(), t.clone());
                let one_minus_t2 = Self::float_add_scalar(Self::float_neg(t2), 1.0.into());
                let slope =
                    Self::float_mul(Self::float_mul(x.clone(), one_minus_t2), Self::sigmoid(x));
                Self::float_add(t, slope)
            }
        }
    }
}

/// `tanh(ln(1 + e^v))` with one exponential: with `n = e^v`,
/// `(1 + n)^2 = 1 + n(n + 2)`, so the tanh is `p / (p + 2)`, `p = n(n + 2)`.
/// Past `v = 20` it is 1 in f32 (and `p` would overflow).
fn tanh_softplus(v: f32) -> (f32, f32) {
    if v > 20.0 {
        return (1.0, 1.0);
    }
    let n = v.exp();
    let p = n * (n + 2.0);
    (p / (p + 2.0), n / (1.0 + n))
}

fn mish_f32(v: f32) -> f32 {
    v * tanh_softplus(v).0
}

/// `t + v (1 - t^2) sigmoid(v)`; the sigmoid comes from the same `e^v`.
fn mish_derivative_f32(v: f32) -> f32 {
    let (t, s) = tanh_softplus(v);
    t + v * (1.0 - t * t) * s
}

/// `f` of every element of an f32 tensor, as a new contiguous tensor, on
/// every core; the tensor back (`Err`) for another dtype.
fn map_f32(x: FlexTensor, f: fn(f32) -> f32) -> Result<FlexTensor, FlexTensor> {
    if x.dtype() != DType::F32 {
        return Err(x);
    }
    let x = x.to_contiguous();
    let src = x.contiguous_slice::<f32>().expect("made contiguous above");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Chunks of at least 64K elements: a thread costs more than a small one.
    let chunk = src.len().div_ceil(threads).max(1 << 16);
    Ok(FlexTensor::build_overwrite(
        x.shape(),
        DType::F32,
        |out: &mut [f32]| {
            std::thread::scope(|scope| {
                for (out, src) in out.chunks_mut(chunk).zip(src.chunks(chunk)) {
                    scope.spawn(move || {
                        for (o, &v) in out.iter_mut().zip(src) {
                            *o = f(v);
                        }
                    });
                }
            });
        },
    ))
}
// ANCHOR_END: flex

// ANCHOR: autodiff
/// The backward step of `mish`: it keeps `x` (checkpointed), and turns the
/// output's gradient `g` into `g * mish'(x)`, with the inner backend's
/// `mish_derivative` (Flex's kernel when the values are on Flex).
struct MishStep;

impl<B: MishBackend> Backward<B, 1> for MishStep {
    type State = Checkpointed<B>;

    fn backward(self, grad: FloatTensor<B>, x: Checkpointed<B>, grads: &mut ParentGrads<'_, B, 1>) {
        let derivative = B::mish_derivative(x.value());
        grads.register(0, B::float_mul(grad, derivative));
    }
}

impl<B: MishBackend, C: CheckpointStrategy> MishBackend for Autodiff<B, C> {
    fn mish(x: AutodiffTensor<B>) -> AutodiffTensor<B> {
        let step = MishStep.prepare::<C>([x.node()]);
        if !step.is_tracked() {
            return AutodiffTensor::constant(B::mish(x.into_primitive()), C::MODE);
        }
        // The derivative needs `x`: keep it rather than recompute it.
        let step = step.compute_bound();
        let state = step.checkpoint(&x);
        step.finish(state, B::mish(x.into_primitive()))
    }
    // `mish_derivative` keeps its default body: on autodiff tensors it is
    // differentiable too (composed of differentiable primitives).
}
// ANCHOR_END: autodiff

// ANCHOR: api
/// Mish of any tensor, on any device whose backend the extension lists
/// (Flex, with or without an autodiff context).
pub fn mish<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    Tensor::from_dispatch(Dispatch::mish(x.into_dispatch()))
}
// ANCHOR_END: api

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::{Device, Distribution, Tolerance};

    /// Mish composed of the tensor API's primitives: the reference.
    fn composed<const D: usize>(x: Tensor<D>) -> Tensor<D> {
        burn::tensor::activation::mish(x)
    }

    #[test]
    fn the_kernel_matches_the_composition() {
        let device = Device::flex();
        let x = Tensor::<2>::random([33, 17], Distribution::Uniform(-6.0, 6.0), &device);
        // A transposed view: the kernel reads it through `to_contiguous`.
        let x = x.transpose();
        mish(x.clone())
            .into_data()
            .assert_approx_eq::<f32>(&composed(x).into_data(), Tolerance::permissive());
        // Hand-worked: mish(0) = 0, mish(1) = tanh(ln(1 + e)) = 0.865098.
        let y = mish(Tensor::<1>::from_floats([0.0, 1.0], &device));
        let want = [0.0, 0.865_098_4];
        y.into_data().assert_approx_eq::<f32>(
            &Tensor::<1>::from_floats(want, &device).into_data(),
            Tolerance::default(),
        );
    }

    #[test]
    fn the_handwritten_gradient_matches_the_composed_one() {
        let device = Device::flex().autodiff();
        let values =
            Tensor::<1>::random([257], Distribution::Uniform(-5.0, 5.0), &device).into_data();
        let x = Tensor::<1>::from_data(values.clone(), &device).require_grad();
        let weights = Tensor::<1>::random([257], Distribution::Default, &device);
        let grads = (mish(x.clone()) * weights.clone()).sum().backward();
        let ours = x.grad(&grads).unwrap();
        let x2 = Tensor::<1>::from_data(values, &device).require_grad();
        let grads = (composed(x2.clone()) * weights).sum().backward();
        let reference = x2.grad(&grads).unwrap();
        ours.into_data()
            .assert_approx_eq::<f32>(&reference.into_data(), Tolerance::permissive());
    }

    #[test]
    fn other_dtypes_compose_primitives() {
        let device = Device::flex();
        let x = Tensor::<1>::from_data([-1.0f64, 0.5, 3.0], (&device, DType::F64));
        let y = mish(x.clone());
        assert_eq!(y.dtype(), DType::F64);
        y.into_data()
            .assert_approx_eq::<f64>(&composed(x).into_data(), Tolerance::default());
    }
}
