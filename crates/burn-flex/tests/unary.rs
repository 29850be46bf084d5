//! Element-wise unary ops: float functions, integer ops, bool not.
//!
//! Transcendental reference values come from Python's `math` module, printed
//! by `reference/unary.py`; rounding, sign and integer cases are worked by hand.

// Reference values are printed by Python in full precision.
#![allow(clippy::approx_constant, clippy::excessive_precision)]

use burn_backend::kernels::UnaryKernels;
use burn_backend::{BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Shape, Slice, TensorData, Tolerance};

const DEV: FlexDevice = FlexDevice;

fn float(values: Vec<f64>, shape: &[usize], dtype: DType) -> FlexTensor {
    Flex::float_from_data(
        TensorData::new(values, shape.to_vec()).convert_dtype(dtype),
        &DEV,
    )
}

fn f32s(values: &[f32], shape: &[usize]) -> FlexTensor {
    Flex::float_from_data(TensorData::new(values.to_vec(), shape.to_vec()), &DEV)
}

fn int(values: Vec<i64>, dtype: DType) -> FlexTensor {
    let n = values.len();
    Flex::int_from_data(TensorData::new(values, [n]).convert_dtype(dtype), &DEV)
}

fn f32_vec(t: FlexTensor) -> Vec<f32> {
    t.into_data().to_vec::<f32>().unwrap()
}

/// Bit-exact comparison that also tells -0.0 from 0.0 and accepts NaN == NaN.
fn assert_bits(actual: &[f32], expected: &[f32]) {
    assert_eq!(actual.len(), expected.len());
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        let same = a.to_bits() == e.to_bits() || (a.is_nan() && e.is_nan());
        assert!(
            same,
            "index {i}: got {a:?}, expected {e:?} (all: {actual:?})"
        );
    }
}

type Op = fn(FlexTensor) -> FlexTensor;

/// (name, op, inputs, math-module reference) — see `reference/unary.py`.
#[rustfmt::skip]
fn table() -> Vec<(&'static str, Op, Vec<f64>, Vec<f64>)> {
    vec![
        ("exp", Flex::float_exp, vec![-3.0, -0.5, 0.0, 0.5, 1.0, 4.0], vec![0.049787068367863944, 0.6065306597126334, 1.0, 1.6487212707001282, 2.718281828459045, 54.598150033144236]),
        ("log", Flex::float_log, vec![0.1, 0.5, 1.0, 2.0, 10.0, 1000.0], vec![-2.3025850929940455, -0.6931471805599453, 0.0, 0.6931471805599453, 2.302585092994046, 6.907755278982137]),
        ("log1p", Flex::float_log1p, vec![-0.5, -1e-06, 0.0, 1e-06, 1.0, 100.0], vec![-0.6931471805599453, -1.0000005000003334e-06, 0.0, 9.999995000003334e-07, 0.6931471805599453, 4.61512051684126]),
        ("sqrt", Flex::float_sqrt, vec![0.0, 0.25, 1.0, 2.0, 9.0, 1000000.0], vec![0.0, 0.5, 1.0, 1.4142135623730951, 3.0, 1000.0]),
        ("sin", Flex::float_sin, vec![-3.0, -1.0, 0.0, 0.5, 1.5, 6.0], vec![-0.1411200080598672, -0.8414709848078965, 0.0, 0.479425538604203, 0.9974949866040544, -0.27941549819892586]),
        ("cos", Flex::float_cos, vec![-3.0, -1.0, 0.0, 0.5, 1.5, 6.0], vec![-0.9899924966004454, 0.5403023058681398, 1.0, 0.8775825618903728, 0.0707372016677029, 0.960170286650366]),
        ("tan", Flex::float_tan, vec![-1.2, -0.5, 0.0, 0.3, 1.0, 1.4], vec![-2.5721516221263188, -0.5463024898437905, 0.0, 0.30933624960962325, 1.5574077246549023, 5.797883715482887]),
        ("sinh", Flex::float_sinh, vec![-3.0, -0.5, 0.0, 0.5, 1.0, 4.0], vec![-10.017874927409903, -0.5210953054937474, 0.0, 0.5210953054937474, 1.1752011936438014, 27.28991719712775]),
        ("cosh", Flex::float_cosh, vec![-3.0, -0.5, 0.0, 0.5, 1.0, 4.0], vec![10.067661995777765, 1.1276259652063807, 1.0, 1.1276259652063807, 1.5430806348152437, 27.308232836016487]),
        ("tanh", Flex::float_tanh, vec![-5.0, -0.5, 0.0, 0.1, 1.0, 3.0], vec![-0.9999092042625951, -0.46211715726000974, 0.0, 0.09966799462495582, 0.7615941559557649, 0.9950547536867305]),
        ("asin", Flex::float_asin, vec![-1.0, -0.5, 0.0, 0.3, 0.9, 1.0], vec![-1.5707963267948966, -0.5235987755982989, 0.0, 0.3046926540153975, 1.1197695149986342, 1.5707963267948966]),
        ("acos", Flex::float_acos, vec![-1.0, -0.5, 0.0, 0.3, 0.9, 1.0], vec![3.141592653589793, 2.0943951023931957, 1.5707963267948966, 1.2661036727794992, 0.45102681179626236, 0.0]),
        ("atan", Flex::float_atan, vec![-10.0, -1.0, 0.0, 0.3, 1.0, 100.0], vec![-1.4711276743037347, -0.7853981633974483, 0.0, 0.2914567944778671, 0.7853981633974483, 1.5607966601082315]),
        ("asinh", Flex::float_asinh, vec![-10.0, -1.0, 0.0, 0.3, 1.0, 100.0], vec![-2.99822295029797, -0.881373587019543, 0.0, 0.29567304756342244, 0.881373587019543, 5.298342365610589]),
        ("acosh", Flex::float_acosh, vec![1.0, 1.5, 2.0, 3.0, 10.0, 100.0], vec![0.0, 0.9624236501192069, 1.3169578969248166, 1.762747174039086, 2.993222846126381, 5.298292365610484]),
        ("atanh", Flex::float_atanh, vec![-0.9, -0.5, 0.0, 0.3, 0.5, 0.99], vec![-1.4722194895832204, -0.5493061443340548, 0.0, 0.30951960420311175, 0.5493061443340548, 2.6466524123622457]),
        ("erf", Flex::float_erf, vec![-3.0, -1.0, -0.1, 0.0, 0.5, 2.0], vec![-0.9999779095030014, -0.8427007929497149, -0.1124629160182849, 0.0, 0.5204998778130465, 0.9953222650189527]),
    ]
}

#[test]
fn transcendental_f32_match_math_module() {
    for (name, op, xs, ys) in table() {
        let out = op(float(xs, &[2, 3], DType::F32)).into_data();
        assert_eq!(out.dtype, DType::F32, "{name}");
        // About 8 ulp relative: a naive log(1 + x) for log1p(1e-6) fails this.
        out.assert_approx_eq::<f32>(&TensorData::new(ys, [2, 3]), Tolerance::rel_abs(1e-6, 1e-9));
    }
}

#[test]
fn transcendental_f64_match_math_module() {
    for (_, op, xs, ys) in table() {
        let out = op(float(xs, &[6], DType::F64)).into_data();
        assert_eq!(out.dtype, DType::F64);
        out.assert_approx_eq::<f64>(&TensorData::new(ys, [6]), Tolerance::rel_abs(1e-13, 1e-15));
    }
}

#[test]
fn transcendental_half_dtypes_round_once() {
    for dtype in [DType::F16, DType::BF16] {
        for (name, op, xs, ys) in table() {
            if dtype == DType::F16 && xs.iter().any(|x| x.abs() > 65504.0) {
                continue; // not representable in f16 (sqrt(1e6))
            }
            let out = op(float(xs, &[6], dtype)).into_data();
            assert_eq!(out.dtype, dtype, "{name}");
            // Inputs are rounded to the dtype first, so compare loosely.
            let tol = if dtype == DType::F16 {
                Tolerance::rel_abs(4e-3, 2e-3)
            } else {
                Tolerance::rel_abs(3e-2, 1e-2)
            };
            out.assert_approx_eq::<f32>(&TensorData::new(ys, [6]), tol);
        }
    }
}

#[rustfmt::skip]
const ERF_GRID: [f64; 65] = [-0.9999999845827421, -0.999999957486056, -0.9999998862727434, -0.9999997048598075, -0.9999992569016276, -0.9999981847185726, -0.9999956972205363, -0.9999901032653747, -0.9999779095030014, -0.9999521451602562, -0.9998993780778803, -0.9997946242638588, -0.999593047982555, -0.9992170617821089, -0.9985372834133188, -0.9973459706405177, -0.9953222650189527, -0.9919900576701199, -0.9866716712191824, -0.9784437332399837, -0.9661051464753108, -0.9481700727820903, -0.9229001282564582, -0.8883882317017078, -0.8427007929497149, -0.7840750610598597, -0.7111556336535151, -0.623240882188418, -0.5204998778130465, -0.4041169094348223, -0.2763263901682369, -0.1403162048013338, 0.0, 0.1403162048013338, 0.2763263901682369, 0.4041169094348223, 0.5204998778130465, 0.623240882188418, 0.7111556336535151, 0.7840750610598597, 0.8427007929497149, 0.8883882317017078, 0.9229001282564582, 0.9481700727820903, 0.9661051464753108, 0.9784437332399837, 0.9866716712191824, 0.9919900576701199, 0.9953222650189527, 0.9973459706405177, 0.9985372834133188, 0.9992170617821089, 0.999593047982555, 0.9997946242638588, 0.9998993780778803, 0.9999521451602562, 0.9999779095030014, 0.9999901032653747, 0.9999956972205363, 0.9999981847185726, 0.9999992569016276, 0.9999997048598075, 0.9999998862727434, 0.999999957486056, 0.9999999845827421];

#[test]
fn erf_accuracy_on_a_grid() {
    // x = -4 + k/8 is exact in both f32 and f64.
    let xs: Vec<f64> = (0..65).map(|k| -4.0 + k as f64 / 8.0).collect();
    let expected = TensorData::new(ERF_GRID.to_vec(), [65]);
    let f64_out = Flex::float_erf(float(xs.clone(), &[65], DType::F64)).into_data();
    f64_out.assert_approx_eq::<f64>(&expected, Tolerance::rel_abs(0.0, 1e-15));
    let f32_out = Flex::float_erf(float(xs, &[65], DType::F32)).into_data();
    f32_out.assert_approx_eq::<f32>(&expected, Tolerance::rel_abs(0.0, 1e-7));
}

#[test]
fn erf_limits_and_nan() {
    let out = f32_vec(Flex::float_erf(f32s(
        &[f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -0.0, 10.0],
        &[5],
    )));
    assert_bits(&out, &[1.0, -1.0, f32::NAN, -0.0, 1.0]);
}

#[test]
fn round_is_half_to_even() {
    let xs = [
        -2.5,
        -1.5,
        -0.5,
        0.5,
        1.5,
        2.5,
        3.5,
        2.4999,
        -0.4,
        1e9 + 0.5,
        8388609.0,
        f32::INFINITY,
        f32::NAN,
    ];
    let out = f32_vec(Flex::float_round(f32s(&xs, &[13])));
    // 1e9 + 0.5 is not representable in f32 (it is 1e9 already).
    assert_bits(
        &out,
        &[
            -2.0,
            -2.0,
            -0.0,
            0.0,
            2.0,
            2.0,
            4.0,
            2.0,
            -0.0,
            1e9,
            8388609.0,
            f32::INFINITY,
            f32::NAN,
        ],
    );
}

#[test]
fn round_f64_half_to_even_beyond_f32_precision() {
    let xs = vec![
        4503599627370495.5,
        0.5 + f64::EPSILON,
        -1234567.5,
        1234568.5,
    ];
    let out = Flex::float_round(float(xs, &[4], DType::F64)).into_data();
    out.assert_eq(
        &TensorData::from([4503599627370496.0f64, 1.0, -1234568.0, 1234568.0]),
        true,
    );
}

#[test]
fn floor_ceil_trunc() {
    const NAN: f32 = f32::NAN;
    const INF: f32 = f32::INFINITY;
    #[rustfmt::skip]
    let xs = [-2.5, -1.0, -0.7, -0.5, -0.0, 0.3, 0.7, 1.0, 2.7, 1e20, -16777217.0, -INF, NAN];
    let t = || f32s(&xs, &[13]);
    #[rustfmt::skip]
    assert_bits(
        &f32_vec(Flex::float_floor(t())),
        &[-3.0, -1.0, -1.0, -1.0, -0.0, 0.0, 0.0, 1.0, 2.0, 1e20, -16777217.0, -INF, NAN],
    );
    // ceil of (-1, 0) is -0.0, as in IEEE (and PyTorch).
    #[rustfmt::skip]
    assert_bits(
        &f32_vec(Flex::float_ceil(t())),
        &[-2.0, -1.0, -0.0, -0.0, -0.0, 1.0, 1.0, 1.0, 3.0, 1e20, -16777217.0, -INF, NAN],
    );
    #[rustfmt::skip]
    assert_bits(
        &f32_vec(Flex::float_trunc(t())),
        &[-2.0, -1.0, -0.0, -0.0, -0.0, 0.0, 0.0, 1.0, 2.0, 1e20, -16777217.0, -INF, NAN],
    );
}

#[test]
fn rounding_every_float_dtype() {
    for dtype in [DType::F64, DType::F32, DType::F16, DType::BF16] {
        let xs = vec![-2.5, -1.75, -0.25, 0.5, 1.5, 2.75];
        let check = |op: Op, expected: [f64; 6]| {
            let out = op(float(xs.clone(), &[2, 3], dtype)).into_data();
            assert_eq!(out.dtype, dtype);
            out.assert_eq(&TensorData::new(expected.to_vec(), [2, 3]), false);
        };
        check(Flex::float_round, [-2.0, -2.0, 0.0, 0.0, 2.0, 3.0]);
        check(Flex::float_floor, [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0]);
        check(Flex::float_ceil, [-2.0, -1.0, 0.0, 1.0, 2.0, 3.0]);
        check(Flex::float_trunc, [-2.0, -1.0, 0.0, 0.0, 1.0, 2.0]);
        check(Flex::float_sign, [-1.0, -1.0, -1.0, 1.0, 1.0, 1.0]);
        check(Flex::float_abs, [2.5, 1.75, 0.25, 0.5, 1.5, 2.75]);
        check(Flex::float_neg, [2.5, 1.75, 0.25, -0.5, -1.5, -2.75]);
    }
}

#[test]
fn sign_keeps_nan_and_zero() {
    let out = f32_vec(Flex::float_sign(f32s(
        &[-3.0, 0.0, -0.0, 1e-30, f32::NAN, f32::NEG_INFINITY],
        &[6],
    )));
    assert_eq!(out[0], -1.0);
    assert_eq!(out[1], 0.0);
    assert_eq!(out[2], 0.0);
    assert_eq!(out[3], 1.0);
    assert!(out[4].is_nan());
    assert_eq!(out[5], -1.0);
}

#[test]
fn neg_abs_recip_special_values() {
    let xs = [0.0, -0.0, 2.0, -4.0, f32::INFINITY, f32::NAN];
    assert_bits(
        &f32_vec(Flex::float_neg(f32s(&xs, &[6]))),
        &[-0.0, 0.0, -2.0, 4.0, f32::NEG_INFINITY, f32::NAN],
    );
    assert_bits(
        &f32_vec(Flex::float_abs(f32s(&xs, &[6]))),
        &[0.0, 0.0, 2.0, 4.0, f32::INFINITY, f32::NAN],
    );
    assert_bits(
        &f32_vec(Flex::float_recip(f32s(&xs, &[6]))),
        &[f32::INFINITY, f32::NEG_INFINITY, 0.5, -0.25, 0.0, f32::NAN],
    );
}

#[test]
fn out_of_domain_gives_nan_or_inf() {
    let out = f32_vec(Flex::float_log(f32s(&[-1.0, 0.0], &[2])));
    assert!(out[0].is_nan());
    assert_eq!(out[1], f32::NEG_INFINITY);
    assert!(f32_vec(Flex::float_sqrt(f32s(&[-1.0], &[1])))[0].is_nan());
    assert!(f32_vec(Flex::float_acosh(f32s(&[0.5], &[1])))[0].is_nan());
    assert_eq!(
        f32_vec(Flex::float_atanh(f32s(&[1.0], &[1])))[0],
        f32::INFINITY
    );
    assert_eq!(
        f32_vec(Flex::float_log1p(f32s(&[-1.0], &[1])))[0],
        f32::NEG_INFINITY
    );
    assert_eq!(
        f32_vec(Flex::float_exp(f32s(&[100.0, -200.0], &[2]))),
        vec![f32::INFINITY, 0.0]
    );
}

// ----------------------------------------------------------- layouts, paths

#[test]
fn non_contiguous_inputs() {
    // [[0, 1, 2], [3, 4, 5]] permuted to [[0, 3], [1, 4], [2, 5]].
    let base = || f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], &[2, 3]);
    let permuted = Flex::float_neg(Flex::float_permute(base(), &[1, 0]));
    permuted.into_data().assert_eq(
        &TensorData::from([[-0.0f32, -3.0], [-1.0, -4.0], [-2.0, -5.0]]),
        true,
    );

    let flipped = Flex::float_abs(Flex::float_neg(Flex::float_flip(base(), &[1])));
    flipped.into_data().assert_eq(
        &TensorData::from([[2.0f32, 1.0, 0.0], [5.0, 4.0, 3.0]]),
        true,
    );

    let stepped = Flex::float_slice(base(), &[Slice::full(), Slice::new(0, None, 2)]);
    let out = Flex::float_sqrt(stepped).into_data();
    let expected = TensorData::from([[0.0f32, 2.0f32.sqrt()], [3.0f32.sqrt(), 5.0f32.sqrt()]]);
    out.assert_approx_eq::<f32>(&expected, Tolerance::default());

    let expanded = Flex::float_expand(f32s(&[1.0, -2.0], &[2, 1]), Shape::new([2, 3]));
    Flex::float_neg(expanded)
        .into_data()
        .assert_eq(&TensorData::from([[-1.0f32; 3], [2.0; 3]]), true);
}

#[test]
fn shared_buffer_is_not_overwritten() {
    let a = f32s(&[1.0, 2.0, 3.0], &[3]);
    let kept = a.clone();
    let out = Flex::float_neg(a);
    out.into_data()
        .assert_eq(&TensorData::from([-1.0f32, -2.0, -3.0]), true);
    kept.into_data()
        .assert_eq(&TensorData::from([1.0f32, 2.0, 3.0]), true);
}

#[test]
fn large_tensors_match_elementwise_results() {
    // Above the parallel threshold, both on the in-place and on the strided path.
    let n = 300 * 401;
    let xs: Vec<f32> = (0..n).map(|i| (i as f32 - 60_000.0) / 7_000.0).collect();
    let out = f32_vec(Flex::float_tanh(f32s(&xs, &[300, 401])));
    for (i, (&x, &y)) in xs.iter().zip(&out).enumerate() {
        assert!((y - x.tanh()).abs() <= 1e-6, "index {i}: tanh({x}) = {y}");
    }
    let permuted = Flex::float_permute(f32s(&xs, &[300, 401]), &[1, 0]);
    let out = f32_vec(Flex::float_floor(permuted));
    for c in [0usize, 17, 400] {
        for r in [0usize, 151, 299] {
            assert_eq!(out[c * 300 + r], xs[r * 401 + c].floor(), "at ({c}, {r})");
        }
    }
}

#[test]
fn empty_tensors() {
    let out = Flex::float_exp(float(vec![], &[2, 0, 3], DType::F32));
    assert_eq!(out.shape(), Shape::new([2, 0, 3]));
    assert_eq!(out.into_data().num_elements(), 0);
    let out = Flex::int_neg(int(vec![], DType::I16));
    assert_eq!(out.dtype(), DType::I16);
    assert_eq!(out.shape(), Shape::new([0]));
}

// ------------------------------------------------------------------- ints

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

#[test]
fn int_ops_every_dtype() {
    for dtype in INT_DTYPES {
        let values = if dtype.is_signed() {
            vec![-7, 0, 5, -1]
        } else {
            vec![7, 0, 5, 1]
        };
        let t = || int(values.clone(), dtype);
        let read = |t: FlexTensor| {
            assert_eq!(t.dtype(), dtype);
            t.into_data()
                .convert_dtype(DType::I64)
                .to_vec::<i64>()
                .unwrap()
        };
        assert_eq!(
            read(Flex::int_abs(t())),
            values.iter().map(|v| v.abs()).collect::<Vec<_>>(),
            "{dtype}"
        );
        assert_eq!(
            read(Flex::int_sign(t())),
            values.iter().map(|v| v.signum()).collect::<Vec<_>>(),
            "{dtype}"
        );
        if dtype.is_signed() {
            assert_eq!(read(Flex::int_neg(t())), vec![7, 0, -5, 1], "{dtype}");
            assert_eq!(read(Flex::bitwise_not(t())), vec![6, -1, -6, 0], "{dtype}");
        }
    }
}

#[test]
fn int_neg_and_not_wrap_for_unsigned() {
    let out = Flex::int_neg(int(vec![0, 1, 255], DType::U8)).into_data();
    out.assert_eq(&TensorData::from([0u8, 255, 1]), true);
    let out = Flex::int_neg(int(vec![1, 0], DType::U64)).into_data();
    out.assert_eq(&TensorData::from([u64::MAX, 0]), true);
    let out = Flex::bitwise_not(int(vec![0, 0x0f, 0xffff], DType::U16)).into_data();
    out.assert_eq(&TensorData::from([0xffffu16, 0xfff0, 0]), true);
}

#[test]
fn int_neg_abs_wrap_at_min() {
    let out = Flex::int_neg(int(vec![-128, 127], DType::I8)).into_data();
    out.assert_eq(&TensorData::from([-128i8, -127]), true);
    let out = Flex::int_abs(int(vec![i64::MIN, -3], DType::I64)).into_data();
    out.assert_eq(&TensorData::from([i64::MIN, 3]), true);
    let out = Flex::int_abs(int(vec![-32768, -1], DType::I16)).into_data();
    out.assert_eq(&TensorData::from([-32768i16, 1]), true);
}

#[test]
fn int_unary_non_contiguous() {
    let t = Flex::int_from_data(TensorData::new(vec![1i32, -2, 3, -4, 5, -6], [2, 3]), &DEV);
    let flipped = Flex::int_flip(Flex::int_permute(t, &[1, 0]), &[0]);
    // permuted: [[1, -4], [-2, 5], [3, -6]]; flipped rows: [[3, -6], [-2, 5], [1, -4]].
    Flex::int_abs(flipped)
        .into_data()
        .assert_eq(&TensorData::from([[3i32, 6], [2, 5], [1, 4]]), true);
}

#[test]
fn bool_not_values_and_views() {
    let t = Flex::bool_from_data(
        TensorData::from([[true, false, true], [false, false, true]]),
        &DEV,
    );
    let out = Flex::bool_not(t.clone()).into_data();
    assert_eq!(out.dtype, DType::Bool(burn_std::BoolStore::Native));
    out.assert_eq(
        &TensorData::from([[false, true, false], [true, true, false]]),
        true,
    );
    let permuted = Flex::bool_not(Flex::bool_permute(t, &[1, 0])).into_data();
    permuted.assert_eq(
        &TensorData::from([[false, true], [true, true], [false, false]]),
        true,
    );
}

#[test]
#[should_panic(expected = "float_exp: expected a float dtype, got i32")]
fn float_op_on_int_panics() {
    Flex::float_unary(burn_backend::FloatUnaryOp::Exp, int(vec![1], DType::I32));
}

#[test]
#[should_panic(expected = "int_abs: expected an integer dtype, got f32")]
fn int_op_on_float_panics() {
    Flex::int_unary(burn_backend::IntUnaryOp::Abs, f32s(&[1.0], &[1]));
}

#[test]
#[should_panic(expected = "bool_not: expected a bool dtype, got u8")]
fn bool_not_on_int_panics() {
    Flex::bool_not(int(vec![1], DType::U8));
}

/// Timing of a small element-wise chain on 4096x4096 f32 (run with
/// `cargo test --release --test unary -- --ignored --nocapture`).
#[test]
#[ignore]
fn timing_exp_tanh_chain() {
    use burn_std::Scalar;
    use std::time::Instant;
    let n = 4096 * 4096;
    let xs: Vec<f32> = (0..n)
        .map(|i| ((i % 1000) as f32 - 500.0) / 250.0)
        .collect();
    let x = f32s(&xs, &[4096, 4096]);
    for _ in 0..2 {
        let start = Instant::now();
        let a = Flex::float_mul_scalar(x.clone(), Scalar::Float(2.0));
        let t_mul = start.elapsed();
        let b = Flex::float_add_scalar(a, Scalar::Float(1.0));
        let t_add = start.elapsed();
        let c = Flex::float_exp(b);
        let t_exp = start.elapsed();
        let d = Flex::float_tanh(c);
        let t_all = start.elapsed();
        println!(
            "mul {:?} (new buffer), add {:?} (in place), exp {:?}, tanh {:?}; total {:?}",
            t_mul,
            t_add - t_mul,
            t_exp - t_add,
            t_all - t_exp,
            t_all
        );
        drop(d);
    }
}
