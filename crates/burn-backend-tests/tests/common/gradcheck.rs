//! A finite-difference gradient checker for the autodiff suite.
//!
//! # API
//!
//! ```ignore
//! use crate::common::gradcheck::{GradCheck, constant, gradcheck};
//!
//! // f(x, y) = x * y with y broadcast along rows: both gradients are checked.
//! gradcheck(
//!     &[
//!         TensorData::from([[0.3, -1.2], [0.7, 2.1]]),
//!         TensorData::from([[1.5, -0.4]]),
//!     ],
//!     |t: &[Tensor<2>]| t[0].clone() * t[1].clone(),
//! );
//! // Looser bounds and a wider step, for a function computed partly in f32:
//! GradCheck::new().step(1e-2).tolerance(1e-3, 1e-4).check(&inputs, f);
//! ```
//!
//! - `inputs`: the values of the differentiable inputs, any element type
//!   and any shapes of one rank `D`; they become `DType::F64` tensors, so
//!   the central differences are accurate to ~1e-9.
//! - `f: Fn(&[Tensor<D>]) -> Tensor<O>`: builds the output from the inputs,
//!   in the same order. It must stay in f64: make any constant it needs with
//!   [`constant`] (an f64 tensor without autodiff context, which mixes with
//!   either checkpointing mode). Inputs of a lower rank are written at rank
//!   `D` with leading 1s and reshaped inside `f`.
//!
//! The checker reduces the output to a scalar `L = sum(w * f(inputs))` with
//! fixed weights `w` that differ per element (so a derivative that is right
//! only for a uniform upstream gradient, or an op whose plain sum is
//! constant, like softmax, is still caught), then compares, for every
//! element `x_j` of every input, the analytic `dL/dx_j` from `backward` with
//! `(L(x_j + h) - L(x_j - h)) / 2h`, `h = 1e-6`. The analytic side runs twice,
//! on the autodiff device without checkpointing and with
//! `Checkpointing::Balanced`, so recomputed (retro-forward) values are
//! checked too. Values match when `|analytic - numeric| <= abs + rel *
//! |numeric|` (defaults `rel = 1e-5`, `abs = 1e-6`).
//!
//! The checker needs f64: on a device without it (`supports_dtype`, e.g.
//! most WebGPU adapters), [`GradCheck::check`] prints a notice and returns
//! without checking, and tests that make f64 tensors themselves return
//! early through [`f64_supported`].
//!
//! Since it computes in f64 whatever the executable's `FloatElem`, the
//! checks run once: they all live in `tests/autodiff/gradcheck.rs`, which
//! only the f32 executable (`tests/autodiff.rs`) registers, and the checker
//! refuses to run in another. (A finite-difference check *at* f16 or bf16
//! would be meaningless anyway: with 8 to 11 significant bits, the
//! difference quotient's rounding error exceeds any useful tolerance.)
//!
//! Pick inputs away from kinks and ties (relu at 0, max with equal values,
//! abs at 0, floor at integers), where the derivative is not the limit of
//! the difference quotient.
//!
//! For the reference-value tests (`tests/autodiff/<op>.rs`), two helpers
//! mirror PyTorch's `out.backward(upstream)` and `x.grad`:
//!
//! ```ignore
//! let grads = backward_with(x.clone().exp(), [[1.0, -2.0]]); // sum(upstream * out)
//! assert_grad(&x, &grads, [[2.718281828459045, -14.7781121978613]]);
//! assert!(y.grad(&grads).is_none()); // an untracked operand
//! ```

use burn::tensor::{Checkpointing, Device, Gradients};

use crate::common::*;

/// Whether the device under test has f64, which the checker computes in;
/// prints a skip notice naming `test` when it has not.
pub fn f64_supported(test: &str) -> bool {
    let supported = device().supports_dtype(DType::F64);
    if !supported {
        eprintln!("{test}: skipped, the device under test has no f64");
    }
    supported
}

/// An f64 tensor without autodiff context, for the constants of a checked
/// function (it mixes with tracked tensors of either checkpointing mode).
pub fn constant<const D: usize>(data: impl Into<TensorData>) -> Tensor<D> {
    let plain = device().without_autodiff();
    Tensor::from_data(data.into().convert::<f64>(), (&plain, DType::F64))
}

/// Checks the gradients of `f` at `inputs` with the default tolerance.
///
/// # Panics
/// If an input's gradient is missing, misshapen, or differs from the
/// central differences (the message names the input and the element).
#[track_caller]
pub fn gradcheck<const D: usize, const O: usize>(
    inputs: &[TensorData],
    f: impl Fn(&[Tensor<D>]) -> Tensor<O>,
) {
    GradCheck::new().check(inputs, f);
}

/// A gradient check with its tolerance.
#[derive(Clone, Copy, Debug)]
pub struct GradCheck {
    relative: f64,
    absolute: f64,
    step: f64,
}

impl Default for GradCheck {
    fn default() -> Self {
        Self::new()
    }
}

impl GradCheck {
    /// The default bounds `rel = 1e-5`, `abs = 1e-6` and step `h = 1e-6`.
    pub fn new() -> Self {
        Self {
            relative: 1e-5,
            absolute: 1e-6,
            step: 1e-6,
        }
    }

    /// Sets the relative and absolute bounds.
    pub fn tolerance(self, relative: f64, absolute: f64) -> Self {
        Self {
            relative,
            absolute,
            ..self
        }
    }

    /// Sets the step `h` of the central differences (wider for a function
    /// computed partly in lower precision).
    pub fn step(self, step: f64) -> Self {
        Self { step, ..self }
    }

    /// Checks the gradients of `f` at `inputs` (see the module docs).
    ///
    /// # Panics
    /// As [`gradcheck`].
    #[track_caller]
    pub fn check<const D: usize, const O: usize>(
        &self,
        inputs: &[TensorData],
        f: impl Fn(&[Tensor<D>]) -> Tensor<O>,
    ) {
        assert!(!inputs.is_empty(), "gradcheck: no inputs");
        assert_eq!(
            <FloatElem as Element>::DTYPE,
            DType::F32,
            "gradcheck: the checks belong in tests/autodiff/gradcheck.rs, which only the f32 \
             executable runs (the checker computes in f64 whatever FloatElem is)"
        );
        if !f64_supported("gradcheck") {
            return;
        }
        let inputs: Vec<TensorData> = inputs.iter().map(|d| d.convert::<f64>()).collect();
        let plain = device().without_autodiff();
        let make = |data: &TensorData, on: &Device| -> Tensor<D> {
            Tensor::from_data(data.clone(), (on, DType::F64))
        };

        // The output's shape fixes the weights of the scalar L.
        let probe = f(&inputs.iter().map(|d| make(d, &plain)).collect::<Vec<_>>());
        assert_eq!(
            probe.dtype(),
            DType::F64,
            "gradcheck: f must compute in f64 (make constants with `constant`)"
        );
        let weights = weights::<O>(probe.dims());
        let loss = |out: Tensor<O>| (out * weights.clone()).sum();
        let eval = |values: &[TensorData]| -> f64 {
            let tensors: Vec<Tensor<D>> = values.iter().map(|d| make(d, &plain)).collect();
            loss(f(&tensors)).into_scalar::<f64>()
        };

        // Central differences, one element at a time.
        let numeric: Vec<Vec<f64>> = (0..inputs.len())
            .map(|i| {
                let base = inputs[i].to_vec::<f64>().unwrap();
                (0..base.len())
                    .map(|j| {
                        let mut shifted = inputs.clone();
                        let mut at = |delta: f64| {
                            let mut values = base.clone();
                            values[j] += delta;
                            shifted[i] = TensorData::new(values, inputs[i].shape.clone());
                            eval(&shifted)
                        };
                        (at(self.step) - at(-self.step)) / (2.0 * self.step)
                    })
                    .collect()
            })
            .collect();

        for mode in [Checkpointing::None, Checkpointing::Balanced] {
            let on = device().autodiff_with_checkpointing(mode);
            assert_eq!(on.checkpointing(), Some(mode));
            let tracked: Vec<Tensor<D>> =
                inputs.iter().map(|d| make(d, &on).require_grad()).collect();
            let grads = loss(f(&tracked)).backward();
            for (i, (input, expected)) in tracked.iter().zip(&numeric).enumerate() {
                let grad = input
                    .grad(&grads)
                    .unwrap_or_else(|| panic!("gradcheck ({mode:?}): input {i} got no gradient"));
                assert_eq!(
                    grad.shape(),
                    input.shape(),
                    "gradcheck ({mode:?}): gradient of input {i} has the wrong shape"
                );
                assert_eq!(
                    grad.dtype(),
                    DType::F64,
                    "gradcheck ({mode:?}): gradient of input {i} has the wrong dtype"
                );
                let analytic = grad.into_data().to_vec::<f64>().unwrap();
                for (j, (a, n)) in analytic.iter().zip(expected).enumerate() {
                    assert!(
                        (a - n).abs() <= self.absolute + self.relative * n.abs(),
                        "gradcheck ({mode:?}): input {i} element {j}: analytic {a} vs \
                         numeric {n}\n  analytic: {analytic:?}\n  numeric:  {expected:?}"
                    );
                }
            }
        }
    }
}

/// Weights of the scalar `L = sum(w * f)`: both signs, magnitudes in
/// [0.5, 1.5], varying from element to element (period 39).
fn weights<const O: usize>(dims: [usize; O]) -> Tensor<O> {
    let n: usize = dims.iter().product();
    let values: Vec<f64> = (0..n)
        .map(|k| {
            let magnitude = 0.5 + ((k * 7 + 3) % 13) as f64 / 12.0;
            if k % 3 == 1 { -magnitude } else { magnitude }
        })
        .collect();
    constant(TensorData::new(values, dims))
}

/// Runs backward from `sum(upstream * output)`, so each output element's
/// gradient is its `upstream` value (PyTorch's `output.backward(upstream)`).
/// `upstream` takes the output's dtype and is not tracked.
#[track_caller]
pub fn backward_with<const D: usize>(
    output: Tensor<D>,
    upstream: impl Into<TensorData>,
) -> Gradients {
    let upstream = Tensor::from_data(upstream.into(), (&output.device(), output.dtype()));
    (output * upstream).sum().backward()
}

/// Asserts that `tensor`'s gradient in `grads` has `tensor`'s dtype and
/// matches `expected` (recorded reference values) within the default
/// tolerance of that dtype.
///
/// # Panics
/// If the gradient is missing or differs.
#[track_caller]
pub fn assert_grad<const D: usize>(
    tensor: &Tensor<D>,
    grads: &Gradients,
    expected: impl Into<TensorData>,
) {
    let grad = tensor.grad(grads).expect("the tensor has no gradient");
    assert_eq!(
        grad.dtype(),
        tensor.dtype(),
        "the gradient has the wrong dtype"
    );
    let expected = expected.into();
    let actual = grad.into_data();
    match tensor.dtype() {
        DType::F64 => {
            actual.assert_approx_eq::<f64>(&expected.convert::<f64>(), Tolerance::default())
        }
        _ => actual
            .assert_approx_eq::<FloatElem>(&expected.convert::<FloatElem>(), Tolerance::default()),
    }
}
