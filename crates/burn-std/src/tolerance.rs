//! Tolerances for approximate tensor comparison.

use serde::{Deserialize, Serialize};

use crate::{DType, Element};

/// How far two values may differ and still count as equal.
///
/// Values `a` (actual) and `b` (expected) match when
/// `|a - b| <= absolute + relative * |b|`. A bound left as `None` takes the
/// default of the element type the comparison runs in, because a bound that
/// suits `f64` is meaningless for `f16`:
///
/// | type  | relative | absolute |
/// |-------|----------|----------|
/// | f64   | 1e-8     | 1e-8     |
/// | f32   | 1e-5     | 1e-5     |
/// | f16   | 1e-2     | 1e-2     |
/// | bf16  | 2e-2     | 2e-2     |
/// | ints, bool | 0   | 0        |
/// `Tolerance::default()` leaves both bounds to the per-type defaults.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Tolerance {
    /// Allowed difference relative to the magnitude of the expected value.
    pub relative: Option<f64>,
    /// Allowed difference independent of magnitude.
    pub absolute: Option<f64>,
}

impl Tolerance {
    /// Only an absolute bound; the relative bound is zero.
    pub fn absolute(absolute: f64) -> Self {
        Self {
            relative: Some(0.0),
            absolute: Some(absolute),
        }
    }

    /// Only a relative bound; the absolute bound is zero, so values near
    /// zero must match closely.
    pub fn relative(relative: f64) -> Self {
        Self {
            relative: Some(relative),
            absolute: Some(0.0),
        }
    }

    /// Both bounds given explicitly.
    pub fn rel_abs(relative: f64, absolute: f64) -> Self {
        Self {
            relative: Some(relative),
            absolute: Some(absolute),
        }
    }

    /// Loose bounds (1e-2 each) for results of long or low-precision chains.
    pub fn permissive() -> Self {
        Self::rel_abs(1e-2, 1e-2)
    }

    /// Both bounds zero: values must be equal once converted, with the NaN
    /// and infinity rules of approximate comparison still applying.
    pub fn strict() -> Self {
        Self::rel_abs(0.0, 0.0)
    }

    /// The `(relative, absolute)` bounds for comparisons in type `F`.
    pub fn resolve<F: Element>(&self) -> (f64, f64) {
        let (rel, abs) = match F::DTYPE {
            DType::F64 => (1e-8, 1e-8),
            DType::F32 => (1e-5, 1e-5),
            DType::F16 => (1e-2, 1e-2),
            DType::BF16 => (2e-2, 2e-2),
            _ => (0.0, 0.0),
        };
        (self.relative.unwrap_or(rel), self.absolute.unwrap_or(abs))
    }

    /// Whether `actual` matches `expected` under the bounds for `F`.
    ///
    /// Two NaNs match, as do two infinities of the same sign.
    pub fn approx_eq<F: Element>(&self, actual: f64, expected: f64) -> bool {
        if actual.is_nan() || expected.is_nan() {
            return actual.is_nan() && expected.is_nan();
        }
        if actual.is_infinite() || expected.is_infinite() {
            return actual == expected;
        }
        let (rel, abs) = self.resolve::<F>();
        libm::fabs(actual - expected) <= abs + rel * libm::fabs(expected)
    }
}
