//! Element-wise binary arithmetic with broadcasting, for float and int
//! dtypes, tensor-tensor and tensor-scalar.
//!
//! Expected values are worked by hand (Python's `//`, `%` and `**` give the
//! integer ones; `math.atan2`, printed by `reference/unary.py`, the atan2 ones).

// Reference values are printed by Python in full precision.
#![allow(clippy::approx_constant, clippy::excessive_precision)]

use burn_backend::kernels::BinaryKernels;
use burn_backend::{FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Scalar, Shape, Slice, TensorData, Tolerance};

const DEV: FlexDevice = FlexDevice;

const FLOAT_DTYPES: [DType; 4] = [DType::F64, DType::F32, DType::F16, DType::BF16];
const INT_DTYPES: [DType; 8] = [
    DType::I64,
    DType::I32,
    DType::I16,
    DType::I8,
    DType::U64,
    DType::U32,
    DType::U16,
    DType::U8,
];

fn float<const N: usize>(values: [f64; N], shape: &[usize], dtype: DType) -> FlexTensor {
    Flex::float_from_data(
        TensorData::new(values.to_vec(), shape.to_vec()).convert_dtype(dtype),
        &DEV,
    )
}

fn f32s(values: &[f32], shape: &[usize]) -> FlexTensor {
    Flex::float_from_data(TensorData::new(values.to_vec(), shape.to_vec()), &DEV)
}

fn int<const N: usize>(values: [i64; N], shape: &[usize], dtype: DType) -> FlexTensor {
    Flex::int_from_data(
        TensorData::new(values.to_vec(), shape.to_vec()).convert_dtype(dtype),
        &DEV,
    )
}

fn i32s(values: &[i32], shape: &[usize]) -> FlexTensor {
    Flex::int_from_data(TensorData::new(values.to_vec(), shape.to_vec()), &DEV)
}

fn as_i64(t: FlexTensor) -> Vec<i64> {
    t.into_data()
        .convert_dtype(DType::I64)
        .to_vec::<i64>()
        .unwrap()
}

fn f32_vec(t: FlexTensor) -> Vec<f32> {
    t.into_data().to_vec::<f32>().unwrap()
}

// ------------------------------------------------------------------ floats

#[test]
fn float_arithmetic_broadcasts() {
    let a = || f32s(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
    let row = || f32s(&[10.0, 20.0, 30.0], &[3]);
    let col = || f32s(&[2.0, 4.0], &[2, 1]);
    Flex::float_add(a(), row()).into_data().assert_eq(
        &TensorData::from([[11.0f32, 22.0, 33.0], [14.0, 25.0, 36.0]]),
        true,
    );
    Flex::float_sub(row(), a()).into_data().assert_eq(
        &TensorData::from([[9.0f32, 18.0, 27.0], [6.0, 15.0, 24.0]]),
        true,
    );
    Flex::float_mul(a(), col()).into_data().assert_eq(
        &TensorData::from([[2.0f32, 4.0, 6.0], [16.0, 20.0, 24.0]]),
        true,
    );
    Flex::float_div(a(), col()).into_data().assert_eq(
        &TensorData::from([[0.5f32, 1.0, 1.5], [1.0, 1.25, 1.5]]),
        true,
    );
    // [2, 1] op [3] broadcasts both ways to [2, 3].
    Flex::float_add(col(), row()).into_data().assert_eq(
        &TensorData::from([[12.0f32, 22.0, 32.0], [14.0, 24.0, 34.0]]),
        true,
    );
}

#[test]
fn float_arithmetic_every_float_dtype() {
    for dtype in FLOAT_DTYPES {
        let a = || float([1.5, -2.0, 0.25, 8.0], &[2, 2], dtype);
        let b = || float([0.5, 4.0, -1.0, 2.0], &[2, 2], dtype);
        let check = |t: FlexTensor, expected: [f64; 4]| {
            assert_eq!(t.dtype(), dtype);
            t.into_data()
                .assert_eq(&TensorData::new(expected.to_vec(), [2, 2]), false);
        };
        check(Flex::float_add(a(), b()), [2.0, 2.0, -0.75, 10.0]);
        check(Flex::float_sub(a(), b()), [1.0, -6.0, 1.25, 6.0]);
        check(Flex::float_mul(a(), b()), [0.75, -8.0, -0.25, 16.0]);
        check(Flex::float_div(a(), b()), [3.0, -0.5, -0.25, 4.0]);
        check(
            Flex::float_powf(a(), float([2.0, 3.0, 0.5, -1.0], &[2, 2], dtype)),
            [2.25, -8.0, 0.5, 0.125],
        );
        check(Flex::float_max_pair(a(), b()), [1.5, 4.0, 0.25, 8.0]);
        check(Flex::float_min_pair(a(), b()), [0.5, -2.0, -1.0, 2.0]);
        check(Flex::float_remainder(a(), b()), [0.0, 2.0, -0.75, 0.0]);
    }
}

#[test]
fn half_dtypes_round_to_nearest_even() {
    // f16 has 11 significant bits: 2049 is a tie between 2048 and 2050, 2051
    // rounds up to 2052, and 65520 is the overflow threshold.
    let out = Flex::float_add(
        float([2048.0, 2048.0, 65504.0], &[3], DType::F16),
        float([1.0, 3.0, 16.0], &[3], DType::F16),
    );
    out.into_data().assert_eq(
        &TensorData::from([2048.0f32, 2052.0, f32::INFINITY]).convert_dtype(DType::F16),
        true,
    );
    // bf16 has 8: 257 ties to 256, 259 rounds to 260.
    let out = Flex::float_add(
        float([256.0, 256.0], &[2], DType::BF16),
        float([1.0, 3.0], &[2], DType::BF16),
    );
    out.into_data().assert_eq(
        &TensorData::from([256.0f32, 260.0]).convert_dtype(DType::BF16),
        true,
    );
}

#[test]
fn float_remainder_takes_divisor_sign() {
    let a = || f32s(&[5.5, -5.5, 5.5, -5.5, 4.0, 1.0, f32::INFINITY], &[7]);
    let b = || f32s(&[2.0, 2.0, -2.0, -2.0, 2.0, 0.0, 3.0], &[7]);
    let out = f32_vec(Flex::float_remainder(a(), b()));
    assert_eq!(&out[..5], &[1.5, 0.5, -0.5, -1.5, 0.0]);
    assert!(out[5].is_nan() && out[6].is_nan(), "{out:?}");
    let out = f32_vec(Flex::float_remainder_scalar(
        f32s(&[-1.0, 7.25, -7.25], &[3]),
        Scalar::Float(-3.0),
    ));
    assert_eq!(out, vec![-1.0, -1.75, -1.25]);
}

#[test]
fn float_pow_special_cases() {
    let x = || f32s(&[-2.0, -0.5, 0.0, 3.0], &[4]);
    assert_eq!(
        f32_vec(Flex::float_powf_scalar(x(), Scalar::Float(2.0))),
        vec![4.0, 0.25, 0.0, 9.0]
    );
    assert_eq!(
        f32_vec(Flex::float_powf_scalar(x(), Scalar::Int(1))),
        vec![-2.0, -0.5, 0.0, 3.0]
    );
    assert_eq!(
        f32_vec(Flex::float_powf_scalar(x(), Scalar::Float(3.0))),
        vec![-8.0, -0.125, 0.0, 27.0]
    );
    assert_eq!(
        f32_vec(Flex::float_powi_scalar(x(), Scalar::Int(-1)))[1..],
        [-2.0, f32::INFINITY, 1.0 / 3.0]
    );
    let out = f32_vec(Flex::float_powf_scalar(x(), Scalar::Float(0.5)));
    assert!(out[0].is_nan() && out[1].is_nan());
    assert_eq!(out[2], 0.0);
    assert!((out[3] - 3.0f32.sqrt()).abs() < 1e-6);
    // x^0 is 1 even for NaN and 0.
    let out = f32_vec(Flex::float_powf_scalar(
        f32s(&[f32::NAN, 0.0], &[2]),
        Scalar::Float(0.0),
    ));
    assert_eq!(out, vec![1.0, 1.0]);
}

#[test]
fn atan2_quadrants() {
    let y = f32s(&[1.0, 1.0, -1.0, -1.0, 0.0, 2.0], &[6]);
    let x = f32s(&[1.0, -1.0, -1.0, 1.0, -1.0, 0.0], &[6]);
    let expected = TensorData::from([
        0.7853981633974483f64,
        2.356194490192345,
        -2.356194490192345,
        -0.7853981633974483,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
    ]);
    Flex::float_atan2(y, x)
        .into_data()
        .assert_approx_eq::<f32>(&expected, Tolerance::default());
}

#[test]
fn max_min_propagate_nan() {
    let nan = f32::NAN;
    let a = || f32s(&[1.0, nan, 3.0, nan, -0.5], &[5]);
    let b = || f32s(&[2.0, 1.0, nan, nan, -1.5], &[5]);
    let max = f32_vec(Flex::float_max_pair(a(), b()));
    let min = f32_vec(Flex::float_min_pair(a(), b()));
    for (out, finite) in [(max, [2.0, -0.5]), (min, [1.0, -1.5])] {
        assert_eq!(out[0], finite[0]);
        assert!(
            out[1].is_nan() && out[2].is_nan() && out[3].is_nan(),
            "{out:?}"
        );
        assert_eq!(out[4], finite[1]);
    }
}

#[test]
fn clamp_keeps_nan_and_bounds() {
    let x = || f32s(&[-5.0, 0.5, 7.0, f32::NAN], &[4]);
    let out = f32_vec(Flex::float_clamp(
        x(),
        Scalar::Float(-1.0),
        Scalar::Float(2.0),
    ));
    assert_eq!(&out[..3], &[-1.0, 0.5, 2.0]);
    assert!(out[3].is_nan());
    let out = f32_vec(Flex::float_clamp_min(x(), Scalar::Int(0)));
    assert_eq!(&out[..3], &[0.0, 0.5, 7.0]);
    assert!(out[3].is_nan());
}

#[test]
fn float_scalar_ops() {
    let x = || f32s(&[1.0, -2.0, 4.0], &[3]);
    assert_eq!(
        f32_vec(Flex::float_add_scalar(x(), Scalar::Float(0.5))),
        vec![1.5, -1.5, 4.5]
    );
    assert_eq!(
        f32_vec(Flex::float_sub_scalar(x(), Scalar::Int(1))),
        vec![0.0, -3.0, 3.0]
    );
    assert_eq!(
        f32_vec(Flex::float_mul_scalar(x(), Scalar::UInt(3))),
        vec![3.0, -6.0, 12.0]
    );
    assert_eq!(
        f32_vec(Flex::float_div_scalar(x(), Scalar::Float(-4.0))),
        vec![-0.25, 0.5, -1.0]
    );
    assert_eq!(
        f32_vec(Flex::float_div_scalar(x(), Scalar::Float(0.0))),
        vec![f32::INFINITY, f32::NEG_INFINITY, f32::INFINITY]
    );
    let out = Flex::float_mul_scalar(float([1.0, 3.0], &[2], DType::BF16), Scalar::Float(0.5));
    assert_eq!(out.dtype(), DType::BF16);
    out.into_data().assert_eq(
        &TensorData::from([half::bf16::from_f32(0.5), half::bf16::from_f32(1.5)]),
        true,
    );
}

// ---------------------------------------------------------------- integers

#[test]
fn int_arithmetic_every_int_dtype() {
    for dtype in INT_DTYPES {
        let a = || int([7, 12, 0, 9], &[2, 2], dtype);
        let b = || int([2, 5, 3, 9], &[2, 2], dtype);
        let check = |t: FlexTensor, expected: Vec<i64>| {
            assert_eq!(t.dtype(), dtype);
            assert_eq!(as_i64(t), expected, "{dtype}");
        };
        check(Flex::int_add(a(), b()), vec![9, 17, 3, 18]);
        check(
            Flex::int_sub(a(), int([2, 5, 0, 1], &[2, 2], dtype)),
            vec![5, 7, 0, 8],
        );
        check(Flex::int_mul(a(), b()), vec![14, 60, 0, 81]);
        check(Flex::int_div(a(), b()), vec![3, 2, 0, 1]);
        check(Flex::int_remainder(a(), b()), vec![1, 2, 0, 0]);
        check(
            Flex::int_powi(a(), int([2, 1, 0, 2], &[2, 2], dtype)),
            vec![49, 12, 1, 81],
        );
        check(Flex::int_max_pair(a(), b()), vec![7, 12, 3, 9]);
        check(Flex::int_min_pair(a(), b()), vec![2, 5, 0, 9]);
    }
}

#[test]
fn int_add_sub_mul_wrap() {
    Flex::int_add(
        int([127, -128], &[2], DType::I8),
        int([1, -1], &[2], DType::I8),
    )
    .into_data()
    .assert_eq(&TensorData::from([-128i8, 127]), true);
    Flex::int_sub(int([0, 5], &[2], DType::U8), int([1, 10], &[2], DType::U8))
        .into_data()
        .assert_eq(&TensorData::from([255u8, 251]), true);
    Flex::int_mul(
        int([300, -300], &[2], DType::I16),
        int([300, 300], &[2], DType::I16),
    )
    .into_data()
    .assert_eq(
        &TensorData::from([(90000i32 as i16), (-90000i32 as i16)]),
        true,
    );
    let big = Flex::int_from_data(TensorData::from([u64::MAX, 1u64 << 63]), &DEV);
    Flex::int_add(big.clone(), big)
        .into_data()
        .assert_eq(&TensorData::from([u64::MAX - 1, 0]), true);
}

#[test]
fn int_div_floors_and_rem_takes_divisor_sign() {
    // Python: [7 // 2, -7 // 2, 7 // -2, -7 // -2, 6 // -3, -1 // 5] and the same with %.
    let a = || i32s(&[7, -7, 7, -7, 6, -1], &[6]);
    let b = || i32s(&[2, 2, -2, -2, -3, 5], &[6]);
    assert_eq!(as_i64(Flex::int_div(a(), b())), vec![3, -4, -4, 3, -2, -1]);
    assert_eq!(
        as_i64(Flex::int_remainder(a(), b())),
        vec![1, 1, -1, -1, 0, 4]
    );
    assert_eq!(
        as_i64(Flex::int_div_scalar(a(), Scalar::Int(-3))),
        vec![-3, 2, -3, 2, -2, 0]
    );
    assert_eq!(
        as_i64(Flex::int_remainder_scalar(a(), Scalar::Int(-3))),
        vec![-2, -1, -2, -1, 0, -1]
    );
    // MIN / -1 wraps instead of trapping.
    let out = Flex::int_div(int([-128], &[1], DType::I8), int([-1], &[1], DType::I8)).into_data();
    out.assert_eq(&TensorData::from([-128i8]), true);
    let out =
        Flex::int_remainder(int([-128], &[1], DType::I8), int([-1], &[1], DType::I8)).into_data();
    out.assert_eq(&TensorData::from([0i8]), true);
}

#[test]
fn int_mean_uses_floor_division() {
    // int_mean is the composite sum / n: floor(-7 / 2) = -4.
    let out = Flex::int_div_scalar(i32s(&[-7, 7], &[2]), Scalar::Int(2));
    assert_eq!(as_i64(out), vec![-4, 3]);
}

#[test]
#[should_panic(expected = "div: integer division by zero")]
fn int_div_by_zero_panics() {
    Flex::int_div(i32s(&[1, 2], &[2]), i32s(&[1, 0], &[2]));
}

#[test]
#[should_panic(expected = "remainder: integer division by zero")]
fn int_rem_by_zero_panics() {
    Flex::int_remainder(int([1, 2], &[2], DType::U16), int([0, 1], &[2], DType::U16));
}

#[test]
#[should_panic(expected = "div: integer division by zero")]
fn int_div_scalar_by_zero_panics() {
    // Float(0.4) converts to the int 0.
    Flex::int_div_scalar(i32s(&[1], &[1]), Scalar::Float(0.4));
}

#[test]
#[should_panic(expected = "div: integer division by zero")]
fn int_div_by_zero_panics_in_parallel_path() {
    let n = 100_000;
    let mut divisors = vec![3i32; n];
    divisors[n - 7] = 0;
    Flex::int_div(i32s(&vec![1; n], &[n]), i32s(&divisors, &[n]));
}

#[test]
fn int_pow_rules() {
    let base = || i32s(&[2, 3, -2, 1, -1, -1, 0, 5, 0], &[9]);
    let exp = i32s(&[10, 3, 3, -2, -3, -2, 0, -1, 5], &[9]);
    assert_eq!(
        as_i64(Flex::int_powi(base(), exp)),
        vec![1024, 27, -8, 1, -1, 1, 1, 0, 0]
    );
    // Wrapping: 2^7 in i8, 3^6 = 729 = 2 * 256 + 217 in u8.
    assert_eq!(
        as_i64(Flex::int_powi(
            int([2], &[1], DType::I8),
            int([7], &[1], DType::I8)
        )),
        vec![-128]
    );
    assert_eq!(
        as_i64(Flex::int_powi(
            int([3], &[1], DType::U8),
            int([6], &[1], DType::U8)
        )),
        vec![217]
    );
    // Large exponents terminate and wrap: 3^(2^40) mod 2^64 is odd; 2^100 is 0.
    let out = Flex::int_powi(
        int([2, -1], &[2], DType::I64),
        int([100, 1 << 40], &[2], DType::I64),
    );
    assert_eq!(as_i64(out), vec![0, 1]);
}

#[test]
fn int_max_min_and_clamp() {
    let a = || i32s(&[-5, 3, 10], &[3]);
    assert_eq!(
        as_i64(Flex::int_max_pair(a(), i32s(&[0], &[1]))),
        vec![0, 3, 10]
    );
    assert_eq!(
        as_i64(Flex::int_min_pair(a(), i32s(&[0], &[1]))),
        vec![-5, 0, 0]
    );
    assert_eq!(
        as_i64(Flex::int_clamp(a(), Scalar::Int(-1), Scalar::Int(4))),
        vec![-1, 3, 4]
    );
    // A bound outside the dtype's range saturates into it.
    assert_eq!(
        as_i64(Flex::int_clamp_min(
            int([0, 200], &[2], DType::U8),
            Scalar::Int(-10)
        )),
        vec![0, 200]
    );
}

#[test]
fn int_scalar_converts_to_dtype() {
    // 2.7 -> 2 (truncation), 1000 -> 255 (saturation) for u8.
    assert_eq!(
        as_i64(Flex::int_add_scalar(
            i32s(&[1, -1], &[2]),
            Scalar::Float(2.7)
        )),
        vec![3, 1]
    );
    assert_eq!(
        as_i64(Flex::int_add_scalar(
            int([0, 1], &[2], DType::U8),
            Scalar::Int(1000)
        )),
        vec![255, 0]
    );
    assert_eq!(
        as_i64(Flex::int_mul_scalar(
            int([3, -4], &[2], DType::I64),
            Scalar::UInt(5)
        )),
        vec![15, -20]
    );
    assert_eq!(
        as_i64(Flex::int_sub_scalar(
            int([3, 4], &[2], DType::U16),
            Scalar::Int(5)
        )),
        vec![65534, 65535]
    );
}

#[test]
fn bitwise_ops() {
    let a = || i32s(&[0b1100, -1, 0, 0x7fff_ffff], &[4]);
    let b = || i32s(&[0b1010, 0x0f, -1, 1], &[4]);
    assert_eq!(
        as_i64(Flex::bitwise_and(a(), b())),
        vec![0b1000, 0x0f, 0, 1]
    );
    assert_eq!(
        as_i64(Flex::bitwise_or(a(), b())),
        vec![0b1110, -1, -1, 0x7fff_ffff]
    );
    assert_eq!(
        as_i64(Flex::bitwise_xor(a(), b())),
        vec![0b0110, -16, -1, 0x7fff_fffe]
    );
    assert_eq!(
        as_i64(Flex::bitwise_and_scalar(a(), Scalar::Int(6))),
        vec![4, 6, 0, 6]
    );
    assert_eq!(
        as_i64(Flex::bitwise_or_scalar(a(), Scalar::Int(1))),
        vec![0b1101, -1, 1, 0x7fff_ffff]
    );
    assert_eq!(
        as_i64(Flex::bitwise_xor_scalar(a(), Scalar::Int(-1))),
        vec![!0b1100, 0, -1, i32::MIN as i64]
    );
    for dtype in INT_DTYPES {
        let out = Flex::bitwise_xor(int([5, 6], &[2], dtype), int([3, 3], &[2], dtype));
        assert_eq!(out.dtype(), dtype);
        assert_eq!(as_i64(out), vec![6, 5], "{dtype}");
    }
}

#[test]
fn shifts_saturate_past_width() {
    let a = || i32s(&[1, 1, -8, -8, 5, 3, -1], &[7]);
    let s = || i32s(&[3, 40, 1, 40, -1, 31, 32], &[7]);
    assert_eq!(
        as_i64(Flex::bitwise_left_shift(a(), s())),
        vec![8, 0, -16, 0, 0, i32::MIN as i64, 0]
    );
    assert_eq!(
        as_i64(Flex::bitwise_right_shift(a(), s())),
        vec![0, 0, -4, -1, 0, 0, -1]
    );
    let u = || int([0x80, 0xff, 1], &[3], DType::U8);
    let us = || int([1, 8, 7], &[3], DType::U8);
    assert_eq!(
        as_i64(Flex::bitwise_left_shift(u(), us())),
        vec![0, 0, 0x80]
    );
    assert_eq!(
        as_i64(Flex::bitwise_right_shift(u(), us())),
        vec![0x40, 0, 0]
    );
    let big = || int([i64::MIN, 1], &[2], DType::I64);
    assert_eq!(
        as_i64(Flex::bitwise_right_shift(
            big(),
            int([63, 63], &[2], DType::I64)
        )),
        vec![-1, 0]
    );
    assert_eq!(
        as_i64(Flex::bitwise_left_shift(
            big(),
            int([0, 63], &[2], DType::I64)
        )),
        vec![i64::MIN, i64::MIN]
    );
}

// ---------------------------------------------------------- layouts, paths

#[test]
fn non_contiguous_operands() {
    let base = || f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], &[2, 3]);
    // permuted [[0, 3], [1, 4], [2, 5]] + flipped permuted [[2, 5], [1, 4], [0, 3]].
    let p = Flex::float_permute(base(), &[1, 0]);
    let f = Flex::float_flip(Flex::float_permute(base(), &[1, 0]), &[0]);
    Flex::float_add(p, f).into_data().assert_eq(
        &TensorData::from([[2.0f32, 8.0], [2.0, 8.0], [2.0, 8.0]]),
        true,
    );
    // Stepped slice [[0, 2], [3, 5]] minus expanded column [[1], [2]].
    let s = Flex::float_slice(base(), &[Slice::full(), Slice::new(0, None, 2)]);
    let e = Flex::float_expand(f32s(&[1.0, 2.0], &[2, 1]), Shape::new([2, 2]));
    Flex::float_sub(s, e)
        .into_data()
        .assert_eq(&TensorData::from([[-1.0f32, 1.0], [1.0, 3.0]]), true);
    // Negative step on the lhs, int dtype, broadcast rhs.
    let ints = Flex::int_slice(i32s(&[1, 2, 3, 4, 5], &[5]), &[Slice::new(0, None, -2)]);
    assert_eq!(
        as_i64(Flex::int_mul(ints, i32s(&[10], &[1]))),
        vec![50, 30, 10]
    );
}

#[test]
fn shared_lhs_is_not_overwritten() {
    let a = f32s(&[1.0, 2.0], &[2]);
    let kept = a.clone();
    let out = Flex::float_add(a, f32s(&[10.0, 20.0], &[2]));
    assert_eq!(f32_vec(out), vec![11.0, 22.0]);
    assert_eq!(f32_vec(kept), vec![1.0, 2.0]);
    let a = i32s(&[3], &[1]);
    let kept = a.clone();
    assert_eq!(as_i64(Flex::int_add_scalar(a, Scalar::Int(1))), vec![4]);
    assert_eq!(as_i64(kept), vec![3]);
}

#[test]
fn large_broadcast_matches_loop() {
    let (rows, cols) = (257, 1000);
    let a: Vec<f32> = (0..rows * cols).map(|i| (i % 97) as f32 * 0.5).collect();
    let b: Vec<f32> = (0..cols).map(|j| j as f32).collect();
    let out = f32_vec(Flex::float_mul(
        f32s(&a, &[rows, cols]),
        f32s(&b, &[1, cols]),
    ));
    for i in (0..rows * cols).step_by(997) {
        assert_eq!(out[i], a[i] * b[i % cols], "index {i}");
    }
    // Column broadcast on the lhs with a transposed rhs (strided path, big).
    let col: Vec<f32> = (0..rows).map(|r| r as f32).collect();
    let rhs = Flex::float_permute(f32s(&a, &[cols, rows]), &[1, 0]);
    let out = f32_vec(Flex::float_sub(f32s(&col, &[rows, 1]), rhs));
    for (r, c) in [(0, 0), (3, 999), (256, 500), (100, 1)] {
        assert_eq!(out[r * cols + c], col[r] - a[c * rows + r], "at ({r}, {c})");
    }
}

#[test]
fn empty_operands() {
    let out = Flex::float_add(
        float([], &[0, 3], DType::F32),
        float([1.0, 2.0, 3.0], &[3], DType::F32),
    );
    assert_eq!(out.shape(), Shape::new([0, 3]));
    let out = Flex::int_mul(int([], &[2, 0], DType::I32), int([5], &[1], DType::I32));
    assert_eq!(out.shape(), Shape::new([2, 0]));
    assert_eq!(out.into_data().num_elements(), 0);
}

// ------------------------------------------------------------------ errors

#[test]
#[should_panic(expected = "add: operands have different dtypes f32 and f64")]
fn dtype_mismatch_panics() {
    Flex::float_add(
        float([1.0], &[1], DType::F32),
        float([1.0], &[1], DType::F64),
    );
}

#[test]
#[should_panic(expected = "mul: shapes [2, 3] and [2] cannot be broadcast together")]
fn shape_mismatch_panics() {
    Flex::float_mul(
        float([0.0; 6], &[2, 3], DType::F32),
        float([1.0, 2.0], &[2], DType::F32),
    );
}

#[test]
#[should_panic(expected = "bitwise_and: expected an integer dtype, got f32")]
fn bitwise_on_float_panics() {
    Flex::bitwise(
        burn_backend::BitwiseOp::And,
        float([1.0], &[1], DType::F32),
        float([1.0], &[1], DType::F32),
    );
}

#[test]
#[should_panic(expected = "bitwise_left_shift: expected an integer dtype, got bf16")]
fn shift_on_float_panics() {
    Flex::bitwise_scalar(
        burn_backend::BitwiseOp::Shl,
        float([1.0], &[1], DType::BF16),
        Scalar::Int(1),
    );
}

#[test]
#[should_panic(expected = "atan2: expected a float dtype, got i32")]
fn atan2_on_int_panics() {
    Flex::float_binary(
        burn_backend::FloatBinaryOp::Atan2,
        i32s(&[1], &[1]),
        i32s(&[1], &[1]),
    );
}

#[test]
#[should_panic(expected = "add: expected a numeric dtype, got bool")]
fn arithmetic_on_bool_panics() {
    use burn_backend::BoolTensorOps;
    let t = || Flex::bool_from_data(TensorData::from([true]), &DEV);
    Flex::binary(burn_backend::BinaryOp::Add, t(), t());
}
