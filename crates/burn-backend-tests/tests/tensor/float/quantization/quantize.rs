//! quantize, quantize_dynamic, dequantize and quantized data.

use super::*;
use burn::tensor::quantization::{
    Calibration, QuantScheme, QuantStore, QuantValue, ScaleDtype, compute_q_params, compute_range,
};

fn values() -> TensorData {
    TensorData::from([[-1.8, -0.5, 0.0, 0.25], [0.75, 1.0, 1.5, 2.0]])
}

#[test]
fn dynamic_quantization_round_trips_within_half_a_step() {
    for scheme in [q8_tensor(), q8_block4(), q4_block4()] {
        let q = quantized::<2>(values(), &scheme);
        assert_eq!(q.dtype(), DType::QFloat(scheme));
        assert_eq!(q.dims(), [2, 4]);
        q.dequantize()
            .into_data()
            .assert_approx_eq::<FloatElem>(&values(), step_tolerance(&scheme, 2.0));
    }
}

#[test]
fn explicit_scales_give_the_same_tensor_as_dynamic_quantization() {
    let device = device();
    let scheme = q8_block4();
    let x = Tensor::<2>::from_data(values(), &device);
    let range = compute_range(&scheme, &x, &Calibration::MinMax);
    range
        .max
        .clone()
        .into_data()
        .assert_approx_eq::<FloatElem>(&TensorData::from([0.25, 2.0]), Tolerance::default());
    let params = compute_q_params(&scheme, range);
    let explicit = x.clone().quantize(&scheme, params).into_data();
    let dynamic = x.quantize_dynamic(&scheme).into_data();
    assert_eq!(explicit.bytes, dynamic.bytes);
}

#[test]
fn quantized_data_round_trips_bit_exactly() {
    let device = device();
    let data = quantized::<2>(values(), &q4_block4()).into_data();
    assert!(data.dtype.is_quantized());
    let again = Tensor::<2>::from_data(data.clone(), &device).into_data();
    assert_eq!(again, data);
    // The data dequantizes on the host to the same floats.
    data.dequantize()
        .unwrap()
        .assert_approx_eq::<FloatElem>(&values(), step_tolerance(&q4_block4(), 2.0));
}

#[test]
fn two_level_fp8_and_fp4_schemes_round_trip() {
    let fp8 = QuantScheme::default()
        .with_value(QuantValue::E4M3)
        .with_store(QuantStore::Native)
        .per_tensor(ScaleDtype::F32);
    let fp4 = QuantScheme::default()
        .with_value(QuantValue::E2M1)
        .with_store(QuantStore::PackedNative(0))
        .per_block([4], ScaleDtype::UE4M3)
        .per_tensor(ScaleDtype::F32);
    // E4M3 keeps 3 mantissa bits (relative error 2^-4), E2M1 one (2^-2),
    // each of the block's largest value at most.
    for (scheme, relative) in [(fp8, 1.0 / 16.0), (fp4, 1.0 / 4.0)] {
        quantized::<2>(values(), &scheme)
            .dequantize()
            .into_data()
            .assert_approx_eq::<FloatElem>(&values(), Tolerance::absolute(2.0 * relative));
    }
}

#[test]
#[should_panic(expected = "does not divide shape [2, 6]")]
fn a_block_that_does_not_tile_the_shape_panics_naming_the_shapes() {
    let x = Tensor::<2>::from_data([[1.0; 6]; 2], &device());
    let _ = x.quantize_dynamic(&q8_block4());
}

#[test]
fn dequantizing_a_float_tensor_returns_it() {
    let x = Tensor::<2>::from_data(values(), &device());
    let y = x.clone().dequantize();
    y.into_data().assert_eq(&x.into_data(), true);
}
