//! The host quantization codec against NumPy (`quantization/generate.py`
//! wrote `quantization/reference.json`), and its error bounds and checks.

use burn_std::quantization::{
    Calibration, QuantError, QuantScheme, QuantStore, QuantValue, ScaleDtype, compute_scales,
    dequantize_values, quantize_values, quantized_data_len,
};
use burn_std::{Bytes, DType, Shape, TensorData};

fn value(name: &str) -> QuantValue {
    match name {
        "Q8F" => QuantValue::Q8F,
        "Q8S" => QuantValue::Q8S,
        "Q4F" => QuantValue::Q4F,
        "Q4S" => QuantValue::Q4S,
        "Q2F" => QuantValue::Q2F,
        "Q2S" => QuantValue::Q2S,
        "E4M3" => QuantValue::E4M3,
        "E5M2" => QuantValue::E5M2,
        "E2M1" => QuantValue::E2M1,
        other => panic!("unknown value {other}"),
    }
}

fn scale_dtype(name: &str) -> ScaleDtype {
    match name {
        "F32" => ScaleDtype::F32,
        "F16" => ScaleDtype::F16,
        "BF16" => ScaleDtype::BF16,
        "UE8M0" => ScaleDtype::UE8M0,
        "UE4M3" => ScaleDtype::UE4M3,
        other => panic!("unknown scale dtype {other}"),
    }
}

fn scheme_of(case: &serde_json::Value) -> QuantScheme {
    let store = match case["store"].as_str().unwrap() {
        "Native" => QuantStore::Native,
        "PackedU32" => QuantStore::PackedU32(0),
        "PackedNative" => QuantStore::PackedNative(0),
        other => panic!("unknown store {other}"),
    };
    let mut scheme = QuantScheme::default()
        .with_value(value(case["value"].as_str().unwrap()))
        .with_store(store);
    if let Some(block) = case["block"].as_array() {
        let block: Vec<u8> = block.iter().map(|b| b.as_u64().unwrap() as u8).collect();
        scheme = scheme.per_block(block, scale_dtype(case["block_dtype"].as_str().unwrap()));
    }
    if let Some(t) = case["tensor_dtype"].as_str() {
        scheme = scheme.per_tensor(scale_dtype(t));
    }
    scheme
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn every_scheme_matches_numpy_bit_for_bit() {
    let text = include_str!("quantization/reference.json");
    let reference: serde_json::Value = serde_json::from_str(text).unwrap();
    let cases = reference["cases"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let scheme = scheme_of(case);
        let shape = Shape::from(
            case["shape"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_u64().unwrap() as usize)
                .collect::<Vec<_>>(),
        );
        let input: Vec<f32> = case["input"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        let params = compute_scales(&input, &shape, &scheme, Calibration::MinMax).unwrap();
        let bytes = quantize_values(&input, &shape, &scheme, &params).unwrap();
        assert_eq!(
            bytes,
            hex(case["bytes"].as_str().unwrap()),
            "bytes of {scheme}"
        );
        assert_eq!(bytes.len(), quantized_data_len(&scheme, &shape).unwrap());
        let back = dequantize_values(&bytes, &shape, &scheme).unwrap();
        let expected: Vec<f32> = case["dequantized"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        assert_eq!(back, expected, "values of {scheme}");
    }
}

/// Largest error of a round trip, relative to each block's largest magnitude.
fn worst_relative_error(scheme: &QuantScheme, shape: &Shape, x: &[f32]) -> f32 {
    let data = TensorData::new(x.to_vec(), shape.clone());
    let q = data.quantize(scheme, Calibration::MinMax).unwrap();
    assert_eq!(q.dtype, DType::QFloat(*scheme));
    let back = q.dequantize().unwrap().into_vec::<f32>().unwrap();
    let amax = x.iter().fold(0f32, |m, v| m.max(v.abs()));
    x.iter()
        .zip(&back)
        .map(|(a, b)| (a - b).abs() / amax)
        .fold(0f32, f32::max)
}

#[test]
fn round_trips_stay_within_half_a_step() {
    let shape = Shape::new([8, 64]);
    let x: Vec<f32> = (0..512)
        .map(|i| ((i * 37 % 101) as f32 - 50.0) / 7.0)
        .collect();
    // (value, bound on |x - q(x)| / max|x| for per-tensor scales)
    let bounds = [
        (QuantValue::Q8S, 0.5 / 127.0),
        (QuantValue::Q8F, 0.5 / 127.0),
        (QuantValue::Q4S, 0.5 / 7.0),
        (QuantValue::Q4F, 0.5 / 7.0),
        (QuantValue::Q2S, 0.5),
        // Minifloats: half a unit in the last place (relative 2^-4, 2^-3,
        // 2^-2), or half the smallest subnormal step for tiny values.
        (QuantValue::E4M3, 1.0 / 16.0),
        (QuantValue::E5M2, 1.0 / 8.0),
        (QuantValue::E2M1, 1.0 / 4.0),
    ];
    for (value, bound) in bounds {
        for store in [QuantStore::Native, QuantStore::PackedU32(0)] {
            let scheme = QuantScheme::default()
                .with_value(value)
                .with_store(store)
                .per_tensor(ScaleDtype::F32);
            let err = worst_relative_error(&scheme, &shape, &x);
            assert!(err <= bound * 1.0001, "{scheme}: {err} > {bound}");
            let blocked = QuantScheme::default()
                .with_value(value)
                .with_store(store)
                .per_block([32], ScaleDtype::F32);
            let err = worst_relative_error(&blocked, &shape, &x);
            assert!(err <= bound * 1.0001, "{blocked}: {err} > {bound}");
        }
    }
}

#[test]
fn a_block_that_does_not_tile_the_shape_is_an_error_naming_both() {
    let scheme = QuantScheme::default().per_block([32], ScaleDtype::F32);
    let data = TensorData::new(vec![1.0f32; 40], [4, 10]);
    let err = data.quantize(&scheme, Calibration::MinMax).unwrap_err();
    assert!(matches!(err, QuantError::BlockMismatch { .. }));
    let text = err.to_string();
    assert!(text.contains("[32]") && text.contains("[4, 10]"), "{text}");
}

#[test]
fn packing_along_an_outer_dim_is_refused() {
    let scheme = QuantScheme::default().with_store(QuantStore::PackedU32(1));
    let data = TensorData::new(vec![1.0f32; 16], [4, 4]);
    let err = data.quantize(&scheme, Calibration::MinMax).unwrap_err();
    assert!(err.to_string().contains("innermost"), "{err}");
}

#[test]
fn quantized_bytes_of_the_wrong_length_are_refused() {
    let scheme = QuantScheme::default();
    let err = TensorData::from_quantized_bytes(Bytes::from_vec(vec![0u8; 7]), [4, 4], scheme)
        .unwrap_err();
    assert!(err.to_string().contains("bytes"), "{err}");
}

#[test]
fn zeros_and_nans_do_not_poison_the_scales() {
    let scheme = QuantScheme::default()
        .with_value(QuantValue::Q8S)
        .per_block([4], ScaleDtype::F32);
    let x = vec![0.0f32, 0.0, 0.0, 0.0, 1.0, f32::NAN, -1.0, 0.5];
    let data = TensorData::new(x, [2, 4]);
    let back = data
        .quantize(&scheme, Calibration::MinMax)
        .unwrap()
        .dequantize()
        .unwrap()
        .into_vec::<f32>()
        .unwrap();
    assert_eq!(&back[..4], &[0.0; 4]);
    assert_eq!(back[4], 1.0);
    assert_eq!(back[5], 0.0);
    assert_eq!(back[6], -1.0);
}

#[test]
fn abs_mean_calibration_gives_ternary_weights() {
    let scheme = QuantScheme::default()
        .with_value(QuantValue::Q2S)
        .with_store(QuantStore::PackedU32(0));
    let x = vec![0.1f32, -0.9, 0.4, -0.05, 1.2, 0.0, -0.3, 0.6];
    let data = TensorData::new(x.clone(), [8]);
    let q = data.quantize(&scheme, Calibration::AbsMean).unwrap();
    let back = q.dequantize().unwrap().into_vec::<f32>().unwrap();
    let gamma = x.iter().map(|v| v.abs()).sum::<f32>() / 8.0;
    for (a, b) in x.iter().zip(&back) {
        let expected = (a / gamma).round().clamp(-1.0, 1.0) * gamma;
        assert!(
            (b - expected).abs() <= 1e-6,
            "{a} -> {b}, expected {expected}"
        );
    }
}

#[test]
fn the_dtype_names_the_scheme() {
    let scheme = QuantScheme::default()
        .with_value(QuantValue::Q4S)
        .per_block([32], ScaleDtype::F16);
    assert_eq!(
        DType::QFloat(scheme).to_string(),
        "qfloat(q4s packed(u32, dim 0), per block [32] f16)"
    );
    let json = serde_json::to_string(&DType::QFloat(scheme)).unwrap();
    let back: DType = serde_json::from_str(&json).unwrap();
    assert_eq!(back, DType::QFloat(scheme));
}
