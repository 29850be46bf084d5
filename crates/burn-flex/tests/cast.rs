//! Dtype conversion between every pair of dtypes. Expected values follow
//! Rust's `as` (worked by hand) and IEEE round-to-nearest-even.

// Reference values are printed by Python in full precision.
#![allow(clippy::approx_constant, clippy::excessive_precision)]

use burn_backend::kernels::CreationKernels;
use burn_backend::{BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Shape, Slice, TensorData};
use half::{bf16, f16};

const DEV: FlexDevice = FlexDevice;
const BOOL: DType = DType::Bool(burn_std::BoolStore::Native);

fn tensor(data: TensorData) -> FlexTensor {
    if data.dtype.is_float() {
        Flex::float_from_data(data, &DEV)
    } else if data.dtype.is_int() {
        Flex::int_from_data(data, &DEV)
    } else {
        Flex::bool_from_data(data, &DEV)
    }
}

fn f32s(values: &[f32]) -> FlexTensor {
    tensor(TensorData::new(values.to_vec(), [values.len()]))
}

fn to<E: burn_std::Element>(t: FlexTensor, dtype: DType) -> Vec<E> {
    let out = Flex::cast(t, dtype);
    assert_eq!(out.dtype(), dtype);
    out.into_data().to_vec::<E>().unwrap()
}

#[test]
fn float_to_int_truncates_and_saturates() {
    let xs = [
        2.7,
        -2.7,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e10,
        -1e10,
        300.5,
        -0.9,
    ];
    assert_eq!(
        to::<i32>(f32s(&xs), DType::I32),
        vec![2, -2, 0, i32::MAX, i32::MIN, i32::MAX, i32::MIN, 300, 0]
    );
    assert_eq!(
        to::<u8>(f32s(&xs), DType::U8),
        vec![2, 0, 0, 255, 0, 255, 0, 255, 0]
    );
    assert_eq!(
        to::<i8>(f32s(&xs), DType::I8),
        vec![2, -2, 0, 127, -128, 127, -128, 127, 0]
    );
    assert_eq!(
        to::<i64>(f32s(&xs), DType::I64),
        vec![
            2,
            -2,
            0,
            i64::MAX,
            i64::MIN,
            10_000_000_000,
            -10_000_000_000,
            300,
            0
        ]
    );
    assert_eq!(
        to::<u64>(f32s(&xs), DType::U64),
        vec![2, 0, 0, u64::MAX, 0, 10_000_000_000, 0, 300, 0]
    );
    // Through the backend method, and from f64 and half dtypes.
    let out = Flex::float_into_int(f32s(&[-3.99, 3.99]), DType::I16).into_data();
    out.assert_eq(&TensorData::from([-3i16, 3]), true);
    let f64s = tensor(TensorData::from([2147483647.9f64, -2147483648.9, 1e300]));
    assert_eq!(
        to::<i32>(f64s, DType::I32),
        vec![i32::MAX, i32::MIN, i32::MAX]
    );
    let h = tensor(TensorData::from([
        f16::from_f32(-7.5),
        f16::INFINITY,
        f16::NAN,
    ]));
    assert_eq!(to::<i16>(h, DType::I16), vec![-7, i16::MAX, 0]);
    let b = tensor(TensorData::from([
        bf16::from_f32(1e20),
        bf16::from_f32(-129.0),
    ]));
    assert_eq!(to::<i8>(b, DType::I8), vec![127, -128]);
}

#[test]
fn int_to_int_wraps_like_as() {
    let i32s = || tensor(TensorData::from([300i32, -1, 65541, i32::MIN]));
    assert_eq!(to::<u8>(i32s(), DType::U8), vec![44, 255, 5, 0]);
    assert_eq!(to::<i8>(i32s(), DType::I8), vec![44, -1, 5, 0]);
    assert_eq!(to::<u16>(i32s(), DType::U16), vec![300, 65535, 5, 0]);
    assert_eq!(
        to::<i64>(i32s(), DType::I64),
        vec![300, -1, 65541, i32::MIN as i64]
    );
    assert_eq!(
        to::<u64>(i32s(), DType::U64),
        vec![300, u64::MAX, 65541, i32::MIN as u64]
    );
    // Same-size pairs reinterpret the bits.
    assert_eq!(
        to::<u32>(i32s(), DType::U32),
        vec![300, u32::MAX, 65541, 1 << 31]
    );
    let u64s = || tensor(TensorData::from([u64::MAX, 1 << 63, 255]));
    assert_eq!(to::<i64>(u64s(), DType::I64), vec![-1, i64::MIN, 255]);
    assert_eq!(to::<i8>(u64s(), DType::I8), vec![-1, 0, -1]);
    let u8s = tensor(TensorData::from([200u8, 127, 128]));
    assert_eq!(to::<i8>(u8s, DType::I8), vec![-56, 127, -128]);
    let i8s = tensor(TensorData::from([-1i8, -128]));
    assert_eq!(to::<u32>(i8s, DType::U32), vec![u32::MAX, 4294967168]);
    // Through the backend method.
    Flex::int_cast(tensor(TensorData::from([-2i16])), DType::U16)
        .into_data()
        .assert_eq(&TensorData::from([65534u16]), true);
}

#[test]
fn int_to_float_rounds_once() {
    // 2^24 + 1 ties between 2^24 and 2^24 + 2: even is 2^24.
    let out = to::<f32>(
        tensor(TensorData::from([16777217i32, 16777219, -16777217])),
        DType::F32,
    );
    assert_eq!(out, vec![16777216.0, 16777220.0, -16777216.0]);
    // 2^53 + 1 as f64.
    let out = to::<f64>(
        tensor(TensorData::from([(1i64 << 53) + 1, i64::MAX])),
        DType::F64,
    );
    assert_eq!(out, vec![9007199254740992.0, 9223372036854775808.0]);
    // i64 -> f32 directly: 2^60 + 2^36 + 1 is just above the f32 tie, so it
    // rounds up; via f64 it would become the tie first and round to even (down).
    let v = (1i64 << 60) + (1i64 << 36) + 1;
    let out = to::<f32>(tensor(TensorData::from([v])), DType::F32);
    assert_eq!(out, vec![((1u64 << 60) + (1u64 << 37)) as f32]);
    let out = to::<f32>(tensor(TensorData::from([u64::MAX])), DType::F32);
    assert_eq!(out, vec![18446744073709551616.0]);
    // f16 overflows past 65504 (threshold 65520).
    let out = to::<f16>(
        tensor(TensorData::from([65504i32, 65519, 65520, -70000, 2049])),
        DType::F16,
    );
    let expected = [
        65504.0f32,
        65504.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        2048.0,
    ]
    .map(f16::from_f32);
    assert_eq!(out, expected.to_vec());
    let out = to::<bf16>(tensor(TensorData::from([257u16, 259, 65535])), DType::BF16);
    assert_eq!(out, [256.0f32, 260.0, 65536.0].map(bf16::from_f32).to_vec());
    Flex::int_into_float(tensor(TensorData::from([-3i8])), DType::F64)
        .into_data()
        .assert_eq(&TensorData::from([-3.0f64]), true);
}

#[test]
fn float_to_half_rounds_to_nearest_even() {
    let ulp16 = 1.0 / 1024.0f32; // f16 ulp at 1
    let xs = [
        1.0 + ulp16 / 2.0,
        1.0 + 1.5 * ulp16,
        1.0 + ulp16 * 0.51,
        65520.0,
        1e-8,
        f32::NAN,
        -0.0,
    ];
    let out: Vec<f32> = to::<f16>(f32s(&xs), DType::F16)
        .iter()
        .map(|h| h.to_f32())
        .collect();
    assert_eq!(
        &out[..5],
        &[1.0, 1.0 + 2.0 * ulp16, 1.0 + ulp16, f32::INFINITY, 0.0]
    );
    assert!(out[5].is_nan());
    assert!(out[6] == 0.0 && out[6].is_sign_negative());
    let ulpb = 1.0 / 128.0f32; // bf16 ulp at 1
    let xs = [
        1.0 + ulpb / 2.0,
        1.0 + 1.5 * ulpb,
        -(1.0 + 1.5 * ulpb),
        3.0e38,
    ];
    let out: Vec<f32> = to::<bf16>(f32s(&xs), DType::BF16)
        .iter()
        .map(|h| h.to_f32())
        .collect();
    assert_eq!(
        out,
        vec![
            1.0,
            1.0 + 2.0 * ulpb,
            -(1.0 + 2.0 * ulpb),
            bf16::from_f32(3.0e38).to_f32()
        ]
    );
    assert!(out[3].is_finite());
}

#[test]
fn float_to_float_all_pairs() {
    let f64s = || tensor(TensorData::from([0.1f64, -2.5, 1e40, 1e-320]));
    assert_eq!(
        to::<f32>(f64s(), DType::F32),
        vec![0.1f32, -2.5, f32::INFINITY, 0.0]
    );
    assert_eq!(
        to::<f16>(f64s(), DType::F16),
        [0.1, -2.5, f64::INFINITY, 0.0].map(f16::from_f64).to_vec()
    );
    // f64 -> f16 rounds once: this value is a hair above an f16 tie but
    // rounds to the tie in f32, so f64 -> f32 -> f16 would round down to even.
    let v = 1.0 + 1.0 / 2048.0 + 1e-12;
    assert_eq!(
        to::<f16>(tensor(TensorData::from([v])), DType::F16),
        vec![f16::from_f32(1.0 + 1.0 / 1024.0)]
    );
    let h = || {
        tensor(TensorData::from([
            f16::from_f32(0.333),
            f16::MAX,
            f16::MIN_POSITIVE_SUBNORMAL,
        ]))
    };
    assert_eq!(
        to::<f64>(h(), DType::F64),
        vec![f16::from_f32(0.333).to_f64(), 65504.0, 2f64.powi(-24)]
    );
    // f16 -> bf16: bf16 has fewer mantissa bits but a wider range.
    assert_eq!(
        to::<bf16>(h(), DType::BF16),
        vec![
            bf16::from_f32(f16::from_f32(0.333).to_f32()),
            bf16::from_f32(65504.0),
            bf16::from_f32(2f32.powi(-24))
        ]
    );
    let b = tensor(TensorData::from([
        bf16::from_f32(1e20),
        bf16::from_f32(1.0),
    ]));
    assert_eq!(to::<f16>(b, DType::F16), vec![f16::INFINITY, f16::ONE]);
    Flex::float_cast(f32s(&[1.5]), DType::F64)
        .into_data()
        .assert_eq(&TensorData::from([1.5f64]), true);
}

#[test]
fn anything_to_bool_is_nonzero() {
    let out = Flex::cast(f32s(&[0.0, -0.0, f32::NAN, 1e-40, -3.0]), BOOL).into_data();
    out.assert_eq(&TensorData::from([false, false, true, true, true]), true);
    for dtype in DType::ALL {
        let t = tensor(TensorData::from([0i64, 2, 0, 1]).convert_dtype(dtype));
        let out = Flex::cast(t, BOOL).into_data();
        assert_eq!(out.dtype, BOOL, "{dtype}");
        out.assert_eq(&TensorData::from([false, true, false, true]), true);
    }
    // 256 wraps to 0 in u8 but is not zero: bool looks at the source value.
    let out = Flex::cast(tensor(TensorData::from([256i32, -256])), BOOL).into_data();
    out.assert_eq(&TensorData::from([true, true]), true);
}

#[test]
fn bool_to_every_numeric_dtype() {
    for dtype in DType::ALL {
        let t = tensor(TensorData::from([[true, false], [false, true]]));
        let out = Flex::cast(t, dtype).into_data();
        assert_eq!(out.dtype, dtype);
        out.assert_eq(
            &TensorData::from([[1i64, 0], [0, 1]]).convert_dtype(dtype),
            true,
        );
    }
    let out = Flex::bool_into_float(tensor(TensorData::from([true])), DType::BF16).into_data();
    out.assert_eq(&TensorData::from([bf16::ONE]), true);
    let out = Flex::bool_into_int(tensor(TensorData::from([true, false])), DType::I64).into_data();
    out.assert_eq(&TensorData::from([1i64, 0]), true);
}

#[test]
fn every_pair_of_dtypes_round_trips_small_values() {
    // 0, 1, 5 and 100 are exact in every numeric dtype.
    for src in DType::ALL {
        for dst in DType::ALL {
            let values = if src.is_bool() || dst.is_bool() {
                vec![0i64, 1, 1, 0]
            } else {
                vec![0, 1, 5, 100]
            };
            let t = tensor(TensorData::new(values.clone(), [2, 2]).convert_dtype(src));
            let out = Flex::cast(t, dst).into_data();
            assert_eq!(out.dtype, dst, "{src} -> {dst}");
            out.assert_eq(&TensorData::new(values, [2, 2]).convert_dtype(dst), true);
        }
    }
}

#[test]
fn same_dtype_is_identity() {
    let t = f32s(&[1.5, f32::NAN]);
    let out = Flex::cast(t, DType::F32).into_data();
    assert_eq!(out.dtype, DType::F32);
    let v = out.to_vec::<f32>().unwrap();
    assert_eq!(v[0], 1.5);
    assert!(v[1].is_nan());
}

#[test]
fn cast_non_contiguous_inputs() {
    let base = tensor(TensorData::new(
        (0..6).map(|v| v as f32 - 2.5).collect::<Vec<_>>(),
        [2, 3],
    ));
    // [[-2.5, -1.5, -0.5], [0.5, 1.5, 2.5]] transposed.
    let p = Flex::float_permute(base.clone(), &[1, 0]);
    Flex::cast(p, DType::I32)
        .into_data()
        .assert_eq(&TensorData::from([[-2i32, 0], [-1, 1], [0, 2]]), true);
    let f = Flex::float_flip(base.clone(), &[0, 1]);
    Flex::cast(f, DType::F16).into_data().assert_eq(
        &TensorData::from([[2.5f32, 1.5, 0.5], [-0.5, -1.5, -2.5]]).convert_dtype(DType::F16),
        true,
    );
    // A stepped int slice relabelled to the same-size unsigned type keeps its view.
    let ints = tensor(TensorData::from([-1i32, 2, -3, 4, -5]));
    let s = Flex::int_slice(ints, &[Slice::new(0, None, 2)]);
    Flex::cast(s, DType::U32).into_data().assert_eq(
        &TensorData::from([u32::MAX, u32::MAX - 2, u32::MAX - 4]),
        true,
    );
    let e = Flex::bool_expand(
        tensor(TensorData::from([[true], [false]])),
        Shape::new([2, 3]),
    );
    Flex::cast(e, DType::U8)
        .into_data()
        .assert_eq(&TensorData::from([[1u8; 3], [0; 3]]), true);
}

#[test]
fn cast_keeps_shared_input_intact() {
    // Same element size (f32 -> i32) reuses a uniquely owned buffer; a shared one must survive.
    let t = f32s(&[1.5, -2.5]);
    let kept = t.clone();
    assert_eq!(to::<i32>(t, DType::I32), vec![1, -2]);
    kept.into_data()
        .assert_eq(&TensorData::from([1.5f32, -2.5]), true);
}

#[test]
fn cast_large_matches_scalar_conversion() {
    let n = 70_001;
    let xs: Vec<f32> = (0..n).map(|i| (i as f32 - 35_000.0) * 1.37).collect();
    let out = to::<f16>(f32s(&xs), DType::F16);
    assert!(
        xs.iter()
            .zip(&out)
            .all(|(&x, &h)| h.to_bits() == f16::from_f32(x).to_bits())
    );
    let out = to::<i16>(f32s(&xs), DType::I16);
    assert!(xs.iter().zip(&out).all(|(&x, &v)| v == x as i16));
}

#[test]
fn cast_empty() {
    let t = tensor(TensorData::new(Vec::<f32>::new(), [0, 4]));
    let out = Flex::cast(t, DType::U64);
    assert_eq!(out.shape(), Shape::new([0, 4]));
    assert_eq!(out.dtype(), DType::U64);
}

#[test]
#[should_panic(expected = "float_into_int: expected an integer dtype, got f16")]
fn float_into_int_rejects_float_target() {
    Flex::float_into_int(f32s(&[1.0]), DType::F16);
}
