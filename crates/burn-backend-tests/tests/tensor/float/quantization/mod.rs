//! Quantized float tensors: float values in, float values out.
//!
//! As the contributor book describes, every test states its inputs and
//! expected outputs as floats; the values are chosen so that quantizing
//! them loses little, and the tolerance is the scheme's quantization error
//! (half a step of the block's scale, carried through the op). The tests
//! check that each op is invariant to quantization up to that error, on
//! every backend of the suite.

mod ops;
mod quantize;

use crate::common::*;
use burn::tensor::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};

/// 8-bit symmetric values, one f32 scale per tensor, a byte a value.
pub fn q8_tensor() -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q8S)
        .with_store(QuantStore::Native)
        .per_tensor(ScaleDtype::F32)
}

/// 8-bit values packed four to a u32, one f32 scale per block of 4.
pub fn q8_block4() -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q8S)
        .with_store(QuantStore::PackedU32(0))
        .per_block([4], ScaleDtype::F32)
}

/// 4-bit values packed eight to a u32, one f16 scale per block of 4.
pub fn q4_block4() -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q4S)
        .with_store(QuantStore::PackedU32(0))
        .per_block([4], ScaleDtype::F16)
}

/// Half a quantization step of `scheme` for values of magnitude up to
/// `max_abs`, with the rounding of the executable's float dtype on top.
pub fn step_tolerance(scheme: &QuantScheme, max_abs: f32) -> Tolerance {
    let step = max_abs as f64 / scheme.value.max_magnitude() as f64;
    let (relative, absolute) = match <FloatElem as Element>::DTYPE {
        DType::F16 | DType::BF16 => Tolerance::default().resolve::<FloatElem>(),
        _ => (0.0, 0.0),
    };
    Tolerance::rel_abs(
        relative,
        step / 2.0 * 1.001 + 1e-6 + absolute * (max_abs as f64).max(1.0),
    )
}

/// `values` quantized dynamically with `scheme` on the test device.
pub fn quantized<const D: usize>(values: TensorData, scheme: &QuantScheme) -> Tensor<D> {
    Tensor::<D>::from_data(values, &device()).quantize_dynamic(scheme)
}
