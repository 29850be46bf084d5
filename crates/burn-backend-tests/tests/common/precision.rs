//! Tolerances for tests that run at every float dtype: the bounds a test
//! was written with hold for f32 (and f64); f16 and bf16 get theirs.

use burn::tensor::{DType, Element, Tolerance};

use crate::FloatElem;

/// The tolerance `f32` that a test was written with, for f32 and f64
/// results; for f16 and bf16, the dtype's default bounds applied norm-wise,
/// the absolute bound scaled by `scale` (the largest magnitude among the
/// values the result is computed from, at least 1). A half-precision input
/// is rounded to 11 or 8 significant bits before the op sees it, so the
/// error of each result follows the largest terms it sums, not its own size.
pub fn dtype_tolerance(f32: Tolerance, scale: f64) -> Tolerance {
    match <FloatElem as Element>::DTYPE {
        DType::F16 | DType::BF16 => {
            let (relative, absolute) = Tolerance::default().resolve::<FloatElem>();
            Tolerance::rel_abs(relative, absolute * scale.max(1.0))
        }
        _ => f32,
    }
}

/// The largest magnitude in `values` (for [`dtype_tolerance`]'s scale).
pub fn max_abs(values: &[f64]) -> f64 {
    values.iter().fold(0.0, |m, v| m.max(v.abs()))
}
