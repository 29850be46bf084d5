//! Activation functions, written once over the float primitives.
//!
//! Each has a default; a backend overrides one only with a measured reason
//! (a fused kernel, say).

use burn_std::Scalar;

use crate::{Backend, FloatTensor};

const SQRT_2: f64 = core::f64::consts::SQRT_2;
/// `1 / sqrt(2 * pi)`
const INV_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

/// Activation functions and their derivatives.
pub trait ActivationOps<B: Backend> {
    /// `max(x, 0)`.
    fn relu(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let mask = B::float_lower_equal_elem(tensor.clone(), Scalar::Float(0.0));
        B::float_mask_fill(tensor, mask, Scalar::Float(0.0))
    }
    /// `grad` where `output > 0`, else 0.
    fn relu_backward(output: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B> {
        let mask = B::float_lower_equal_elem(output, Scalar::Float(0.0));
        B::float_mask_fill(grad, mask, Scalar::Float(0.0))
    }
    /// `x` for positive `x`, `slope * x` otherwise.
    fn leaky_relu(tensor: FloatTensor<B>, slope: Scalar) -> FloatTensor<B> {
        let mask = B::float_lower_elem(tensor.clone(), Scalar::Float(0.0));
        let scaled = B::float_mul_scalar(tensor.clone(), slope);
        B::float_mask_where(tensor, mask, scaled)
    }
    /// `x * Φ(x)` with the exact (erf) Gaussian CDF, as PyTorch's default.
    fn gelu(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let cdf = B::float_erf(B::float_div_scalar(tensor.clone(), Scalar::Float(SQRT_2)));
        let cdf = B::float_mul_scalar(
            B::float_add_scalar(cdf, Scalar::Float(1.0)),
            Scalar::Float(0.5),
        );
        B::float_mul(tensor, cdf)
    }
    /// `d/dx gelu(x) = Φ(x) + x φ(x)`, times `grad`.
    fn gelu_backward(x: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B> {
        let cdf = B::float_erf(B::float_div_scalar(x.clone(), Scalar::Float(SQRT_2)));
        let cdf = B::float_mul_scalar(
            B::float_add_scalar(cdf, Scalar::Float(1.0)),
            Scalar::Float(0.5),
        );
        let x2 = B::float_mul(x.clone(), x.clone());
        let pdf = B::float_mul_scalar(
            B::float_exp(B::float_mul_scalar(x2, Scalar::Float(-0.5))),
            Scalar::Float(INV_SQRT_2PI),
        );
        B::float_mul(B::float_add(cdf, B::float_mul(x, pdf)), grad)
    }
    /// `1 / (1 + e^-x)`, computed as `exp(-log(1 + e^-x))` so large |x| neither overflows nor loses the tail.
    fn sigmoid(tensor: FloatTensor<B>) -> FloatTensor<B> {
        B::float_exp(B::float_neg(softplus_neg::<B>(tensor)))
    }
    /// `d/dx sigmoid = s (1 - s)`, times `grad`, from the forward output `s`.
    fn sigmoid_backward(output: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B> {
        let one_minus = B::float_add_scalar(B::float_neg(output.clone()), Scalar::Float(1.0));
        B::float_mul(B::float_mul(output, one_minus), grad)
    }
    /// `clamp(alpha * x + beta, 0, 1)`.
    fn hard_sigmoid(tensor: FloatTensor<B>, alpha: Scalar, beta: Scalar) -> FloatTensor<B> {
        let lin = B::float_add_scalar(B::float_mul_scalar(tensor, alpha), beta);
        B::float_clamp(lin, Scalar::Float(0.0), Scalar::Float(1.0))
    }
    /// `log(sigmoid(x)) = -softplus(-x)`, stable for large |x|.
    fn log_sigmoid(tensor: FloatTensor<B>) -> FloatTensor<B> {
        B::float_neg(softplus_neg::<B>(tensor))
    }
    /// `d/dx log_sigmoid = 1 - sigmoid(x) = sigmoid(-x)`, times `grad`.
    fn log_sigmoid_backward(x: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B> {
        B::float_mul(B::sigmoid(B::float_neg(x)), grad)
    }
    /// `x * sigmoid(x)`.
    fn silu(tensor: FloatTensor<B>) -> FloatTensor<B> {
        B::float_mul(tensor.clone(), B::sigmoid(tensor))
    }
    /// `exp(x - max) / sum(exp(x - max))` along `dim`; subtracting the max keeps exp finite.
    fn softmax(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B> {
        let shifted = B::float_sub(tensor.clone(), B::float_max_dim(tensor, dim));
        let exp = B::float_exp(shifted);
        B::float_div(exp.clone(), B::float_sum_dim(exp, dim))
    }
    /// `x - max - log(sum(exp(x - max)))` along `dim`.
    fn log_softmax(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B> {
        let shifted = B::float_sub(tensor.clone(), B::float_max_dim(tensor, dim));
        let lse = B::float_log(B::float_sum_dim(B::float_exp(shifted.clone()), dim));
        B::float_sub(shifted, lse)
    }
}

/// `softplus(-x) = log(1 + e^-x)`, evaluated as `max(-x, 0) + log1p(e^-|x|)` so
/// neither branch overflows.
fn softplus_neg<B: Backend>(x: FloatTensor<B>) -> FloatTensor<B> {
    let neg = B::float_neg(x.clone());
    let pos_part = B::float_clamp_min(neg, Scalar::Float(0.0));
    let tail = B::float_log1p(B::float_exp(B::float_neg(B::float_abs(x))));
    B::float_add(pos_part, tail)
}
