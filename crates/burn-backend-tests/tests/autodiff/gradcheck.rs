//! Every differentiable op against central differences (`common/gradcheck.rs`):
//! the float ops with a recorded derivative (burn-autodiff `ops/float.rs`)
//! and the composites that inherit theirs from default bodies (narrow,
//! swap_dims, clamp, powi, max_pair, tril, topk, the activations, embedding),
//! then the module ops (convolutions, unfold, pooling, interpolation and
//! attention).
//!
//! `tests/autodiff.rs` alone runs this module: the checker computes in f64
//! whatever the executable's `FloatElem`, so the other precisions would
//! repeat the same computation.
//!
//! Inputs sit away from kinks and ties (no element of `relu` at 0, no equal
//! maxima, no `round` at a half), inside each op's domain, and binary ops
//! are also checked with both operands broadcast (`[2, 1]` with `[1, 3]`).

use burn::tensor::module::{
    AttentionOptions, ConvOptions, ConvTransposeOptions, InterpolateMode, InterpolateOptions,
    UnfoldOptions, adaptive_avg_pool2d, attention, avg_pool2d, conv_transpose2d, conv2d, conv3d,
    interpolate, max_pool2d, unfold4d,
};

use crate::common::gradcheck::{GradCheck, constant, f64_supported, gradcheck};
use crate::common::*;

/// A `[2, 3]` input with both signs and no two values within 0.1.
fn mixed() -> TensorData {
    TensorData::from([[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]])
}

/// A `[2, 3]` input of positive values.
fn positive() -> TensorData {
    TensorData::from([[0.4, 1.3, 2.2], [0.85, 3.1, 1.75]])
}

/// A `[2, 3]` input inside (-1, 1).
fn unit() -> TensorData {
    TensorData::from([[0.25, -0.6, 0.45], [-0.15, 0.8, -0.35]])
}

/// Checks `op` on same-shape operands and on operands broadcast both ways.
/// Central differences need `lhs op rhs` smooth at every pairing of the
/// values used (no ties for max_pair, no integer quotient for remainder).
fn check_binary(lhs: [[f64; 3]; 2], rhs: [[f64; 3]; 2], op: fn(Tensor<2>, Tensor<2>) -> Tensor<2>) {
    let f = |t: &[Tensor<2>]| op(t[0].clone(), t[1].clone());
    gradcheck(&[TensorData::from(lhs), TensorData::from(rhs)], f);
    // [2, 1] with [1, 3] and [1, 3] with [2, 1], from the values of each
    // side (so each stays in its domain): a gradient is summed over the
    // dim its operand was broadcast along.
    let column = |m: [[f64; 3]; 2]| TensorData::from([[m[0][0]], [m[1][1]]]);
    gradcheck(&[column(lhs), TensorData::from([rhs[1]])], f);
    gradcheck(&[TensorData::from([lhs[0]]), column(rhs)], f);
}

fn check_unary(input: TensorData, op: impl Fn(Tensor<2>) -> Tensor<2>) {
    gradcheck(&[input], |t: &[Tensor<2>]| op(t[0].clone()));
}

// ------------------------------------------------------------ arithmetic

#[test]
fn add() {
    check_binary(
        [[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]],
        [[0.5, 0.9, -1.4], [2.2, -0.3, 0.6]],
        |l, r| l + r,
    );
}

#[test]
fn sub() {
    check_binary(
        [[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]],
        [[0.5, 0.9, -1.4], [2.2, -0.3, 0.6]],
        |l, r| l - r,
    );
}

#[test]
fn mul() {
    check_binary(
        [[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]],
        [[0.5, 0.9, -1.4], [2.2, -0.3, 0.6]],
        |l, r| l * r,
    );
}

#[test]
fn div() {
    check_binary(
        [[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]],
        [[0.5, 0.9, -1.4], [2.2, -0.7, 0.6]],
        |l, r| l / r,
    );
}

#[test]
fn remainder() {
    // l / r stays away from integers, where the remainder jumps.
    check_binary(
        [[2.3, -1.2, 4.75], [1.6, -3.45, 2.1]],
        [[0.7, 0.9, -1.4], [2.2, -0.8, 0.65]],
        |l, r| l % r,
    );
}

#[test]
fn powf() {
    // Positive bases: d/dr reads ln(l).
    check_binary(
        [[0.4, 1.3, 2.2], [0.85, 3.1, 1.75]],
        [[0.5, 2.0, -1.4], [1.3, -0.3, 2.6]],
        |l, r| l.powf(r),
    );
}

#[test]
fn atan2() {
    // Every quadrant, away from the origin and the branch cut (y = 0, x < 0).
    check_binary(
        [[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]],
        [[0.5, 0.9, -1.4], [-2.2, -0.3, 0.6]],
        |y, x| y.atan2(x),
    );
}

#[test]
fn max_pair() {
    // No element equals its partner, in either layout.
    check_binary(
        [[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]],
        [[0.5, 0.9, -1.4], [2.2, -0.3, 0.6]],
        |l, r| l.max_pair(r),
    );
}

#[test]
fn min_pair() {
    check_binary(
        [[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]],
        [[0.5, 0.9, -1.4], [2.2, -0.3, 0.6]],
        |l, r| l.min_pair(r),
    );
}

#[test]
fn scalar_ops() {
    check_unary(mixed(), |x| x + 1.5);
    check_unary(mixed(), |x| x - 0.25);
    check_unary(mixed(), |x| x * -2.5);
    check_unary(mixed(), |x| x / 4.0);
    check_unary(mixed(), |x| x % 0.65);
    check_unary(mixed(), |x| x.powf_scalar(3.0));
    check_unary(positive(), |x| x.powf_scalar(-0.5));
    check_unary(mixed(), |x| x.powi_scalar(3));
}

#[test]
fn scalar_on_the_left() {
    check_unary(mixed(), |x| 2.0 - x);
    check_unary(mixed(), |x| 3.0 / x);
    // 5 / x stays away from integers.
    check_unary(
        TensorData::from([[0.7, 1.3, -2.2], [0.9, 3.1, -1.7]]),
        |x| 5.0 % x,
    );
}

#[test]
fn powi() {
    // Negative bases with integer exponents are in the domain.
    let exponents = [[2i64, 3, -1], [0, 1, 4]];
    gradcheck(&[mixed()], |t: &[Tensor<2>]| {
        let r = Tensor::<2, Int>::from_data(exponents, &t[0].device());
        t[0].clone().powi(r)
    });
}

#[test]
fn matmul() {
    gradcheck(
        &[
            positive(),
            TensorData::from([[0.5, -1.1], [0.3, 0.8], [-0.7, 1.9]]),
        ],
        |t: &[Tensor<2>]| t[0].clone().matmul(t[1].clone()),
    );
}

#[test]
fn matmul_batched_and_broadcast() {
    let lhs = TensorData::from([
        [[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]],
        [[0.5, 0.9, -1.4], [2.2, -0.3, 0.6]],
    ]);
    let rhs = TensorData::from([
        [[0.5, -1.1], [0.3, 0.8], [-0.7, 1.9]],
        [[1.2, 0.4], [-0.6, 0.1], [0.9, -0.2]],
    ]);
    let f = |t: &[Tensor<3>]| t[0].clone().matmul(t[1].clone());
    gradcheck(&[lhs.clone(), rhs.clone()], f);
    // A batch of 1 against a batch of 2, on either side.
    let single_lhs = TensorData::from([[[0.3, -1.2, 0.75], [1.6, -0.45, 2.1]]]);
    let single_rhs = TensorData::from([[[0.5, -1.1], [0.3, 0.8], [-0.7, 1.9]]]);
    gradcheck(&[single_lhs, rhs], f);
    gradcheck(&[lhs, single_rhs], f);
}

// ---------------------------------------------------------------- clamps

#[test]
fn clamps() {
    // No element at a bound.
    check_unary(mixed(), |x| x.clamp_min(0.5));
    check_unary(mixed(), |x| x.clamp_max(0.5));
    check_unary(mixed(), |x| x.clamp(-0.5, 1.0));
}

// ----------------------------------------------------------------- unary

#[test]
fn sign_and_magnitude() {
    check_unary(mixed(), |x| -x);
    check_unary(mixed(), |x| x.recip());
    check_unary(mixed(), |x| x.abs());
    check_unary(mixed(), |x| x.square());
}

#[test]
fn exponentials_and_logarithms() {
    check_unary(mixed(), |x| x.exp());
    check_unary(positive(), |x| x.log());
    check_unary(
        TensorData::from([[0.3, -0.6, 0.75], [1.6, -0.45, 2.1]]),
        |x| x.log1p(),
    );
    check_unary(positive(), |x| x.sqrt());
}

#[test]
fn trigonometric() {
    check_unary(mixed(), |x| x.sin());
    check_unary(mixed(), |x| x.cos());
    // Away from ±π/2.
    check_unary(unit(), |x| x.tan());
    check_unary(unit(), |x| x.asin());
    check_unary(unit(), |x| x.acos());
    check_unary(mixed(), |x| x.atan());
}

#[test]
fn hyperbolic() {
    check_unary(mixed(), |x| x.sinh());
    check_unary(mixed(), |x| x.cosh());
    check_unary(mixed(), |x| x.tanh());
    check_unary(mixed(), |x| x.asinh());
    check_unary(
        TensorData::from([[1.4, 1.3, 2.2], [1.85, 3.1, 1.75]]),
        |x| x.acosh(),
    );
    check_unary(unit(), |x| x.atanh());
}

#[test]
fn erf() {
    check_unary(mixed(), |x| x.erf());
}

#[test]
fn piecewise_constant_ops_have_zero_gradient() {
    // Away from integers and halves, where these functions jump.
    let input = TensorData::from([[0.3, -1.2, 0.8], [1.6, -0.45, 2.1]]);
    check_unary(input.clone(), |x| x.round());
    check_unary(input.clone(), |x| x.floor());
    check_unary(input.clone(), |x| x.ceil());
    check_unary(input.clone(), |x| x.trunc());
    check_unary(input, |x| x.sign() * 2.0);
}

// ----------------------------------------------------------------- shape

#[test]
fn reshape_permute_flip() {
    check_unary(mixed(), |x| x.reshape([3, 2]));
    check_unary(mixed(), |x| x.swap_dims(0, 1));
    check_unary(mixed(), |x| x.transpose());
    check_unary(mixed(), |x| x.flip([1]));
    gradcheck(
        &[TensorData::from([
            [[0.3, -1.2], [0.75, 1.6]],
            [[-0.45, 2.1], [0.5, 0.9]],
        ])],
        |t: &[Tensor<3>]| t[0].clone().permute([2, 0, 1]),
    );
}

#[test]
fn expand() {
    gradcheck(&[TensorData::from([[0.3], [-1.2]])], |t: &[Tensor<2>]| {
        t[0].clone().expand([2, 3])
    });
    gradcheck(
        &[TensorData::from([[0.3, -1.2, 0.75]])],
        |t: &[Tensor<2>]| t[0].clone().expand([2, 2, 3]),
    );
}

#[test]
fn slice_and_narrow() {
    check_unary(mixed(), |x| x.slice([0..2, 1..3]));
    check_unary(mixed(), |x| x.slice(s![.., 0..3;2]));
    check_unary(mixed(), |x| x.narrow(1, 1, 2));
}

#[test]
fn slice_assign() {
    gradcheck(
        &[mixed(), TensorData::from([[0.5, 0.9]])],
        |t: &[Tensor<2>]| t[0].clone().slice_assign([1..2, 0..2], t[1].clone()),
    );
}

#[test]
fn cat_stack_and_split() {
    gradcheck(
        &[
            mixed(),
            TensorData::from([[0.5], [0.9]]),
            TensorData::from([[-1.4, 2.2], [-0.3, 0.6]]),
        ],
        |t: &[Tensor<2>]| Tensor::cat(t.to_vec(), 1),
    );
    gradcheck(&[mixed(), positive()], |t: &[Tensor<2>]| {
        Tensor::<2>::stack::<3>(t.to_vec(), 1)
    });
    check_unary(mixed(), |x| {
        let parts = x.chunk(3, 1);
        parts[2].clone() * 2.0 - parts[0].clone()
    });
}

#[test]
fn repeat() {
    check_unary(mixed(), |x| x.repeat_dim(0, 3));
    check_unary(mixed(), |x| x.repeat(&[2, 2]));
}

#[test]
fn to_device_and_cast() {
    check_unary(mixed(), |x| {
        let device = x.device();
        x.to_device(&device) * 3.0
    });
    check_unary(mixed(), |x| x.cast(DType::F64).exp());
    // Through f32 the function is only f32-accurate: a wide step and loose
    // bounds still show the gradient reaching the f64 input, in f64.
    GradCheck::new()
        .step(1e-2)
        .tolerance(1e-3, 1e-4)
        .check(&[mixed()], |t: &[Tensor<2>]| {
            t[0].clone()
                .cast(DType::F32)
                .mul_scalar(1.5)
                .cast(DType::F64)
        });
}

// -------------------------------------------------------------- indexing

#[test]
fn gather() {
    // Index 0 of row 0 is read twice: its gradient sums both reads.
    let indices = [[0i64, 2, 0], [1, 1, 2]];
    check_unary(mixed(), move |x| {
        let indices = Tensor::<2, Int>::from_data(indices, &x.device());
        x.gather(1, indices)
    });
}

#[test]
fn scatter() {
    // Two values land on (0, 1): both get the output's gradient there.
    gradcheck(
        &[mixed(), TensorData::from([[0.5, 0.9], [-1.4, 2.2]])],
        |t: &[Tensor<2>]| {
            let indices = Tensor::<2, Int>::from_data([[1i64, 1], [0, 2]], &t[0].device());
            t[0].clone().scatter(1, indices, t[1].clone())
        },
    );
}

#[test]
fn select_and_select_assign() {
    check_unary(mixed(), |x| {
        let indices = Tensor::<1, Int>::from_data([2i64, 0, 2, 1], &x.device());
        x.select(1, indices)
    });
    gradcheck(
        &[
            mixed(),
            TensorData::from([[0.5, 0.9, -1.4], [2.2, -0.3, 0.6], [1.1, -0.8, 0.2]]),
        ],
        |t: &[Tensor<2>]| {
            let indices = Tensor::<1, Int>::from_data([1i64, 0, 1], &t[0].device());
            t[0].clone().select_assign(0, indices, t[1].clone())
        },
    );
}

#[test]
fn embedding() {
    // The backend's `embedding` (by default a row select and a reshape),
    // with repeated indices so the gradient rows accumulate.
    let weights = TensorData::from([
        [0.3, -1.2, 0.75],
        [1.6, -0.45, 2.1],
        [0.5, 0.9, -1.4],
        [2.2, -0.3, 0.6],
    ]);
    gradcheck(&[weights], |t: &[Tensor<2>]| {
        let indices = Tensor::<2, Int>::from_data([[3i64, 0, 3], [1, 1, 2]], &t[0].device());
        burn::tensor::module::embedding(t[0].clone(), indices)
    });
}

#[test]
fn masks() {
    let mask = [[true, false, true], [false, false, true]];
    gradcheck(&[mixed(), positive()], move |t: &[Tensor<2>]| {
        let mask = Tensor::<2, Bool>::from_data(mask, &t[0].device());
        t[0].clone().mask_where(mask, t[1].clone())
    });
    // A broadcast value row.
    gradcheck(
        &[mixed(), TensorData::from([[0.5, 0.9, -1.4]])],
        move |t: &[Tensor<2>]| {
            let mask = Tensor::<2, Bool>::from_data(mask, &t[0].device());
            t[0].clone().mask_where(mask, t[1].clone())
        },
    );
    check_unary(mixed(), move |x| {
        let mask = Tensor::<2, Bool>::from_data(mask, &x.device());
        x.mask_fill(mask, 4.0)
    });
}

#[test]
fn triangles() {
    let square = TensorData::from([[0.3, -1.2, 0.75], [1.6, -0.45, 2.1], [0.5, 0.9, -1.4]]);
    check_unary(square.clone(), |x| x.tril(0));
    check_unary(square.clone(), |x| x.triu(1));
    check_unary(square, |x| x.tril(-1));
}

// ------------------------------------------------------------ reductions

#[test]
fn sums_and_means() {
    gradcheck(&[mixed()], |t: &[Tensor<2>]| t[0].clone().sum());
    check_unary(mixed(), |x| x.sum_dim(0));
    check_unary(mixed(), |x| x.sum_dim(1));
    gradcheck(&[mixed()], |t: &[Tensor<2>]| t[0].clone().mean());
    check_unary(mixed(), |x| x.mean_dim(1));
    check_unary(mixed(), |x| x.var(1));
    check_unary(mixed(), |x| x.var_bias(0));
}

#[test]
fn products() {
    gradcheck(&[mixed()], |t: &[Tensor<2>]| t[0].clone().prod());
    check_unary(mixed(), |x| x.prod_dim(1));
    // One zero in row 0, two in row 1: the product is smooth there and its
    // gradient is the product of the others.
    let zeros = TensorData::from([[0.3, 0.0, 0.75], [0.0, -0.45, 0.0]]);
    gradcheck(std::slice::from_ref(&zeros), |t: &[Tensor<2>]| {
        t[0].clone().prod()
    });
    check_unary(zeros, |x| x.prod_dim(1));
}

#[test]
fn extremes() {
    gradcheck(&[mixed()], |t: &[Tensor<2>]| t[0].clone().max());
    gradcheck(&[mixed()], |t: &[Tensor<2>]| t[0].clone().min());
    gradcheck(&[mixed()], |t: &[Tensor<2>]| t[0].clone().max_abs());
    check_unary(mixed(), |x| x.max_dim(0));
    check_unary(mixed(), |x| x.min_dim(1));
    check_unary(mixed(), |x| x.max_dim_with_indices(1).0);
    check_unary(mixed(), |x| x.min_dim_with_indices(0).0);
    check_unary(mixed(), |x| x.max_abs_dim(1));
}

#[test]
fn cumulative() {
    check_unary(mixed(), |x| x.cumsum(1));
    check_unary(mixed(), |x| x.cumprod(1));
    check_unary(
        TensorData::from([[0.3, 0.0, 0.75], [1.6, -0.45, 0.0]]),
        |x| x.cumprod(1),
    );
    check_unary(mixed(), |x| x.cummax(1));
    check_unary(mixed(), |x| x.cummin(0));
}

#[test]
fn sorting() {
    check_unary(mixed(), |x| x.sort(1));
    check_unary(mixed(), |x| x.sort_descending(0));
    check_unary(mixed(), |x| x.sort_with_indices(1).0);
    check_unary(mixed(), |x| x.topk(2, 1));
}

// ----------------------------------------------------------- activations

#[test]
fn activations() {
    check_unary(mixed(), activation::relu);
    check_unary(mixed(), |x| activation::leaky_relu(x, 0.1));
    check_unary(mixed(), activation::gelu);
    check_unary(mixed(), activation::sigmoid);
    check_unary(mixed(), activation::silu);
    check_unary(mixed(), activation::log_sigmoid);
    check_unary(mixed(), activation::tanh);
    check_unary(mixed(), activation::mish);
    check_unary(mixed(), |x| activation::softplus(x, 2.0));
    // Two elements past the clamp (|x| > 3 with alpha = 1/6, beta = 0.5).
    check_unary(
        TensorData::from([[0.3, -3.6, 0.75], [4.2, -0.45, 2.1]]),
        |x| activation::hard_sigmoid(x, 1.0 / 6.0, 0.5),
    );
}

#[test]
fn prelu() {
    gradcheck(&[mixed()], |t: &[Tensor<2>]| {
        let alpha = constant::<1>([0.1, 0.2, 0.3]);
        activation::prelu(t[0].clone(), alpha)
    });
}

#[test]
fn softmax_family() {
    // A plain sum of a softmax is constant: the checker's weighted sum is not.
    check_unary(mixed(), |x| activation::softmax(x, 1));
    check_unary(mixed(), |x| activation::softmax(x, 0));
    check_unary(mixed(), |x| activation::log_softmax(x, 1));
    check_unary(mixed(), |x| activation::softmin(x, 1));
}

// ---------------------------------------------------------- compositions

#[test]
fn layer_of_a_network() {
    // softmax(x · w + b) with a broadcast bias, every parameter tracked.
    let x = mixed();
    let w = TensorData::from([[0.5, -1.1], [0.3, 0.8], [-0.7, 1.9]]);
    let b = TensorData::from([[0.1, -0.2]]);
    gradcheck(&[x, w, b], |t: &[Tensor<2>]| {
        let logits = t[0].clone().matmul(t[1].clone()) + t[2].clone();
        activation::log_softmax(activation::gelu(logits), 1)
    });
}

#[test]
fn random_two_layer_network() {
    // log_softmax(tanh(x · w1 + b1) · w2): smooth everywhere, so random
    // inputs need no care; every parameter and the input are tracked.
    if !f64_supported("random_two_layer_network") {
        return;
    }
    let plain = device().without_autodiff();
    let normal = |dims: [usize; 2]| {
        Tensor::<2>::random(dims, Distribution::Normal(0.0, 1.0), (&plain, DType::F64)).into_data()
    };
    let inputs = [
        normal([4, 5]),
        normal([5, 6]),
        normal([1, 6]),
        normal([6, 3]),
    ];
    gradcheck(&inputs, |t: &[Tensor<2>]| {
        let hidden = (t[0].clone().matmul(t[1].clone()) + t[2].clone()).tanh();
        activation::log_softmax(hidden.matmul(t[3].clone()), 1)
    });
}

#[test]
fn a_value_used_twice_accumulates() {
    check_unary(mixed(), |x| x.clone().sin() * x.clone().exp() + x);
}

#[test]
fn the_checker_catches_a_wrong_gradient() {
    // f(x) = detach(x) * x has derivative 2x; backward sees only x.
    if !f64_supported("the_checker_catches_a_wrong_gradient") {
        return;
    }
    let caught = std::panic::catch_unwind(|| check_unary(mixed(), |x| x.clone().detach() * x))
        .expect_err("the checker accepted a wrong gradient");
    let message = caught
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| caught.downcast_ref::<&str>().copied())
        .unwrap_or_default();
    assert!(message.contains("analytic"), "unexpected panic: {message}");
}

// ---------------------------------------------------------------- module ops
// Moved here from `conv.rs` and `module_ops.rs` (which check the same ops
// against PyTorch), so that every central-difference check sits in the one
// module that only `tests/autodiff.rs` runs.

/// Element `i` (row-major) is `(((i * 67) % 149) * 0.07 - 5) * scale`, the
/// `ramp` of `conv.rs` and `module_ops.rs`.
fn ramp_values(n: usize, scale: f64) -> Vec<f64> {
    (0..n)
        .map(|i| (((i * 67) % 149) as f64 * 0.07 - 5.0) * scale)
        .collect()
}

fn ramp_data<const D: usize>(shape: [usize; D], scale: f64) -> TensorData {
    TensorData::new(ramp_values(shape.iter().product(), scale), shape)
}

/// Inputs for `gradcheck`: x, the weight, and the bias written at rank `D`.
fn gradcheck_inputs(x: &[usize], weight: &[usize], channels: usize) -> [TensorData; 3] {
    let data = |shape: &[usize], scale: f64| {
        TensorData::new(ramp_values(shape.iter().product(), scale), shape.to_vec())
    };
    let mut bias_shape = vec![1; x.len()];
    bias_shape[x.len() - 1] = channels;
    [data(x, 0.3), data(weight, 0.2), data(&bias_shape, 0.5)]
}

#[test]
fn conv2d_gradients_match_central_differences() {
    let options = ConvOptions::new([2, 1], [1, 2], [1, 2], 2);
    GradCheck::new().check(
        &gradcheck_inputs(&[2, 4, 5, 4], &[4, 2, 2, 3], 4),
        |t: &[Tensor<4>]| {
            let bias = t[2].clone().reshape([4]);
            conv2d(t[0].clone(), t[1].clone(), Some(bias), options)
        },
    );
}

#[test]
fn conv_transpose2d_gradients_match_central_differences() {
    let options = ConvTransposeOptions::new([2, 3], [1, 0], [1, 2], [1, 1], 2);
    GradCheck::new().check(
        &gradcheck_inputs(&[1, 4, 3, 3], &[4, 3, 2, 3], 6),
        |t: &[Tensor<4>]| {
            let bias = t[2].clone().reshape([6]);
            conv_transpose2d(t[0].clone(), t[1].clone(), Some(bias), options)
        },
    );
}

#[test]
fn conv3d_gradients_match_central_differences() {
    let options = ConvOptions::new([1, 2, 1], [0, 1, 1], [2, 1, 1], 1);
    GradCheck::new().check(
        &gradcheck_inputs(&[1, 2, 4, 3, 3], &[2, 2, 2, 2, 2], 2),
        |t: &[Tensor<5>]| {
            let bias = t[2].clone().reshape([2]);
            conv3d(t[0].clone(), t[1].clone(), Some(bias), options)
        },
    );
}

#[test]
fn unfold4d_gradient_matches_central_differences() {
    let options = UnfoldOptions::new([1, 2], [1, 1], [2, 1]);
    GradCheck::new().check(
        &[TensorData::new(
            ramp_values(2 * 3 * 5 * 4, 0.3),
            [2, 3, 5, 4],
        )],
        |t: &[Tensor<4>]| {
            // Weighted so each column's gradient differs.
            let w = constant::<3>(TensorData::new(ramp_values(2 * 12 * 15, 1.0), [2, 12, 15]));
            unfold4d(t[0].clone(), [2, 2], options) * w
        },
    );
}

#[test]
fn pooling_gradients_match_central_differences() {
    let x = [ramp_data([1, 2, 6, 7], 1.0)];
    gradcheck(&x, |t: &[Tensor<4>]| {
        max_pool2d(t[0].clone(), [3, 2], [2, 1], [1, 1], [1, 2], true)
    });
    gradcheck(&x, |t: &[Tensor<4>]| {
        avg_pool2d(t[0].clone(), [3, 3], [2, 2], [1, 1], false, true)
    });
    gradcheck(&x, |t: &[Tensor<4>]| {
        adaptive_avg_pool2d(t[0].clone(), [4, 3])
    });
}

#[test]
fn interpolate_gradients_match_central_differences() {
    let x = [ramp_data([1, 2, 4, 5], 1.0)];
    for mode in [
        InterpolateMode::Nearest,
        InterpolateMode::Bilinear,
        InterpolateMode::Bicubic,
    ] {
        for align in [false, true] {
            let options = InterpolateOptions::new(mode).with_align_corners(align);
            gradcheck(&x, |t: &[Tensor<4>]| {
                interpolate(t[0].clone(), [7, 3], options)
            });
        }
    }
}

#[test]
fn attention_gradients_match_central_differences() {
    let inputs = [
        ramp_data([1, 2, 4, 3], 0.3),
        ramp_data([1, 2, 4, 3], 0.25),
        ramp_data([1, 2, 4, 3], 0.5),
    ];
    let options = AttentionOptions {
        scale: None,
        is_causal: true,
    };
    GradCheck::new()
        .tolerance(1e-5, 1e-6)
        .check(&inputs, |t: &[Tensor<4>]| {
            attention(t[0].clone(), t[1].clone(), t[2].clone(), None, options)
        });
}
