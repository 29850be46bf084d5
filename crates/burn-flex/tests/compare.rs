//! Comparisons (tensor-tensor and tensor-scalar) giving bool tensors, and
//! logic between bool tensors. Expected values are worked by hand.

use burn_backend::CmpOp;
use burn_backend::kernels::BinaryKernels;
use burn_backend::{BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Scalar, Shape, Slice, TensorData};

const DEV: FlexDevice = FlexDevice;
const BOOL: DType = DType::Bool(burn_std::BoolStore::Native);
const OPS: [CmpOp; 6] = [
    CmpOp::Eq,
    CmpOp::Ne,
    CmpOp::Gt,
    CmpOp::Ge,
    CmpOp::Lt,
    CmpOp::Le,
];

fn float(values: Vec<f64>, shape: &[usize], dtype: DType) -> FlexTensor {
    Flex::float_from_data(
        TensorData::new(values, shape.to_vec()).convert_dtype(dtype),
        &DEV,
    )
}

fn int(values: Vec<i64>, shape: &[usize], dtype: DType) -> FlexTensor {
    Flex::int_from_data(
        TensorData::new(values, shape.to_vec()).convert_dtype(dtype),
        &DEV,
    )
}

fn bools(values: &[bool], shape: &[usize]) -> FlexTensor {
    Flex::bool_from_data(TensorData::new(values.to_vec(), shape.to_vec()), &DEV)
}

fn read(t: FlexTensor) -> Vec<bool> {
    assert_eq!(t.dtype(), BOOL);
    t.into_data().to_vec::<bool>().unwrap()
}

/// `[eq, ne, gt, ge, lt, le]` as 0/1 strings per element, for compact tables.
fn table(mut run: impl FnMut(CmpOp) -> FlexTensor) -> [String; 6] {
    OPS.map(|op| {
        read(run(op))
            .iter()
            .map(|&b| if b { '1' } else { '0' })
            .collect()
    })
}

#[test]
fn float_compare_with_nan_every_dtype() {
    for dtype in [DType::F64, DType::F32, DType::F16, DType::BF16] {
        let a = || float(vec![1.0, 2.0, 3.0, f64::NAN, f64::NAN, -0.0], &[6], dtype);
        let b = || float(vec![2.0, 2.0, 2.0, 1.0, f64::NAN, 0.0], &[6], dtype);
        let got = table(|op| Flex::compare(op, a(), b()));
        // NaN is unordered: only `ne` holds; -0 == 0.
        assert_eq!(
            got,
            ["010001", "101110", "001000", "011001", "100000", "110001"].map(String::from),
            "{dtype}"
        );
    }
}

#[test]
fn float_compare_through_backend_methods() {
    let a = || float(vec![1.0, 5.0], &[2], DType::F32);
    let b = || float(vec![3.0, 5.0], &[2], DType::F32);
    assert_eq!(read(Flex::float_equal(a(), b())), vec![false, true]);
    assert_eq!(read(Flex::float_not_equal(a(), b())), vec![true, false]);
    assert_eq!(read(Flex::float_greater(a(), b())), vec![false, false]);
    assert_eq!(read(Flex::float_greater_equal(a(), b())), vec![false, true]);
    assert_eq!(read(Flex::float_lower(a(), b())), vec![true, false]);
    assert_eq!(read(Flex::float_lower_equal(a(), b())), vec![true, true]);
    let nan = Flex::float_is_nan(float(vec![f64::NAN, 1.0], &[2], DType::F32));
    assert_eq!(read(nan), vec![true, false]);
}

#[test]
fn int_compare_every_dtype_with_broadcast() {
    for dtype in [
        DType::I64,
        DType::I32,
        DType::I16,
        DType::I8,
        DType::U64,
        DType::U32,
        DType::U16,
        DType::U8,
    ] {
        let a = || int(vec![1, 2, 3, 4, 5, 6], &[2, 3], dtype);
        let b = || int(vec![2, 2, 7], &[3], dtype);
        let got = table(|op| Flex::compare(op, a(), b()));
        assert_eq!(
            got,
            ["010000", "101111", "000110", "010110", "101001", "111001"].map(String::from),
            "{dtype}"
        );
    }
}

#[test]
fn int_compare_extremes() {
    let a = || int(vec![i64::MIN, i64::MAX, -1], &[3], DType::I64);
    let b = || int(vec![i64::MAX, i64::MIN, 0], &[3], DType::I64);
    assert_eq!(
        read(Flex::compare(CmpOp::Lt, a(), b())),
        vec![true, false, true]
    );
    let u = Flex::int_from_data(TensorData::from([u64::MAX, 0]), &DEV);
    let v = Flex::int_from_data(TensorData::from([1u64 << 63, 1]), &DEV);
    assert_eq!(read(Flex::int_greater(u, v)), vec![true, false]);
}

#[test]
fn bool_tensors_compare_as_zero_and_one() {
    let a = || bools(&[false, false, true, true], &[4]);
    let b = || bools(&[false, true, false, true], &[4]);
    let got = table(|op| Flex::compare(op, a(), b()));
    assert_eq!(
        got,
        ["1001", "0110", "0010", "1011", "0100", "1101"].map(String::from)
    );
}

#[test]
fn float_compare_scalar() {
    let a = || float(vec![-1.0, 0.5, 2.0, f64::NAN], &[2, 2], DType::F32);
    let got = table(|op| Flex::compare_scalar(op, a(), Scalar::Float(0.5)));
    assert_eq!(
        got,
        ["0100", "1011", "0010", "0110", "1000", "1100"].map(String::from)
    );
    // A NaN scalar: all false except ne.
    let got = table(|op| Flex::compare_scalar(op, a(), Scalar::Float(f64::NAN)));
    assert_eq!(
        got,
        ["0000", "1111", "0000", "0000", "0000", "0000"].map(String::from)
    );
    assert_eq!(
        read(Flex::float_greater_elem(a(), Scalar::Int(0))),
        vec![false, true, true, false]
    );
    assert_eq!(
        read(Flex::float_lower_equal_elem(a(), Scalar::Int(-1))),
        vec![true, false, false, false]
    );
}

#[test]
fn float_compare_scalar_converts_to_the_dtype() {
    // 0.1 is not representable: the f16 tensor holds f16(0.1), the scalar
    // is rounded to f16 too, so they are equal (as in PyTorch).
    let t = float(vec![0.1], &[1], DType::F16);
    assert_eq!(
        read(Flex::float_equal_elem(t, Scalar::Float(0.1))),
        vec![true]
    );
    let t = float(vec![0.1], &[1], DType::F32);
    assert_eq!(
        read(Flex::float_equal_elem(t, Scalar::Float(0.1))),
        vec![true]
    );
    let t = float(vec![0.1], &[1], DType::F32);
    assert_eq!(
        read(Flex::float_greater_elem(t, Scalar::Float(0.1 - 1e-12))),
        vec![false]
    );
}

#[test]
fn int_compare_scalar_fractional_is_exact() {
    let a = || int(vec![1, 2, 3, -3], &[4], DType::I32);
    // Against 2.5: never equal; > and >= agree; < and <= agree.
    let got = table(|op| Flex::compare_scalar(op, a(), Scalar::Float(2.5)));
    assert_eq!(
        got,
        ["0000", "1111", "0010", "0010", "1101", "1101"].map(String::from)
    );
    // Against -2.5: floor is -3.
    let got = table(|op| Flex::compare_scalar(op, a(), Scalar::Float(-2.5)));
    assert_eq!(
        got,
        ["0000", "1111", "1110", "1110", "0001", "0001"].map(String::from)
    );
    // Against 2.0 (integral float): exact comparisons.
    let got = table(|op| Flex::compare_scalar(op, a(), Scalar::Float(2.0)));
    assert_eq!(
        got,
        ["0100", "1011", "0010", "0110", "1001", "1101"].map(String::from)
    );
}

#[test]
fn int_compare_scalar_out_of_range_is_not_saturated() {
    let a = || int(vec![0, 200, 255], &[3], DType::U8);
    // -1 is below every u8: with saturation to 0, `0 > -1` would be false.
    let got = table(|op| Flex::compare_scalar(op, a(), Scalar::Int(-1)));
    assert_eq!(
        got,
        ["000", "111", "111", "111", "000", "000"].map(String::from)
    );
    // 256 is above every u8: with saturation to 255, `255 == 256` would be true.
    let got = table(|op| Flex::compare_scalar(op, a(), Scalar::Int(256)));
    assert_eq!(
        got,
        ["000", "111", "000", "000", "111", "111"].map(String::from)
    );
    let got = table(|op| {
        Flex::compare_scalar(
            op,
            int(vec![-128, 127], &[2], DType::I8),
            Scalar::Float(1e30),
        )
    });
    assert_eq!(got, ["00", "11", "00", "00", "11", "11"].map(String::from));
    let got = table(|op| {
        Flex::compare_scalar(
            op,
            int(vec![-128, 127], &[2], DType::I8),
            Scalar::Float(f64::NAN),
        )
    });
    assert_eq!(got, ["00", "11", "00", "00", "00", "00"].map(String::from));
    // u64 beyond i64::MAX and i64 against a u64 scalar.
    let big = Flex::int_from_data(TensorData::from([u64::MAX, 5]), &DEV);
    assert_eq!(
        read(Flex::int_equal_elem(big, Scalar::UInt(u64::MAX))),
        vec![true, false]
    );
    let neg = int(vec![-1, i64::MAX], &[2], DType::I64);
    assert_eq!(
        read(Flex::int_lower_elem(neg, Scalar::UInt(u64::MAX))),
        vec![true, true]
    );
}

#[test]
fn int_compare_scalar_large_i64_is_exact() {
    // 2^62 + 1 is not representable in f64: a float round trip would say equal.
    let v = (1i64 << 62) + 1;
    let t = || int(vec![v, v - 1], &[2], DType::I64);
    assert_eq!(
        read(Flex::int_equal_elem(t(), Scalar::Int(v))),
        vec![true, false]
    );
    assert_eq!(
        read(Flex::int_greater_equal_elem(t(), Scalar::Int(v))),
        vec![true, false]
    );
    assert_eq!(
        read(Flex::int_not_equal_elem(t(), Scalar::Int(1i64 << 62))),
        vec![true, false]
    );
}

#[test]
fn bool_compare_scalar() {
    let a = || bools(&[false, true], &[2]);
    assert_eq!(
        read(Flex::compare_scalar(CmpOp::Eq, a(), Scalar::Bool(true))),
        vec![false, true]
    );
    assert_eq!(
        read(Flex::compare_scalar(CmpOp::Lt, a(), Scalar::Int(1))),
        vec![true, false]
    );
    assert_eq!(
        read(Flex::compare_scalar(CmpOp::Ge, a(), Scalar::Float(0.5))),
        vec![false, true]
    );
}

#[test]
fn compare_non_contiguous_and_large() {
    let n = 200 * 300;
    let values: Vec<f64> = (0..n).map(|i| (i % 101) as f64).collect();
    let t = || float(values.clone(), &[200, 300], DType::F32);
    // Transposed against itself flipped: compare element-wise with the loop.
    let lhs = Flex::float_permute(t(), &[1, 0]);
    let rhs = Flex::float_flip(Flex::float_permute(t(), &[1, 0]), &[1]);
    let out = read(Flex::compare(CmpOp::Gt, lhs, rhs));
    for (c, r) in [(0usize, 0usize), (299, 199), (150, 3), (7, 100)] {
        let (x, y) = (values[r * 300 + c], values[(199 - r) * 300 + c]);
        assert_eq!(out[c * 200 + r], x > y, "at ({c}, {r})");
    }
    let stepped = Flex::int_slice(
        int((0..10).collect(), &[10], DType::I16),
        &[Slice::new(1, None, 3)],
    );
    assert_eq!(
        read(Flex::int_greater_elem(stepped, Scalar::Int(4))),
        vec![false, false, true]
    );
    // Scalar compare above the parallel threshold.
    let out = read(Flex::float_lower_elem(t(), Scalar::Float(50.0)));
    assert_eq!(
        out.iter().filter(|&&b| b).count(),
        values.iter().filter(|&&v| v < 50.0).count()
    );
}

#[test]
fn compare_empty() {
    let out = Flex::compare(
        CmpOp::Eq,
        float(vec![], &[0, 2], DType::F32),
        float(vec![1.0, 2.0], &[2], DType::F32),
    );
    assert_eq!(out.shape(), Shape::new([0, 2]));
    assert_eq!(out.dtype(), BOOL);
}

// ---------------------------------------------------------------- bool ops

#[test]
fn bool_logic_with_broadcast() {
    let a = || bools(&[false, true], &[2, 1]);
    let b = || bools(&[false, true, true], &[3]);
    let check = |t: FlexTensor, expected: [[bool; 3]; 2]| {
        t.into_data().assert_eq(&TensorData::from(expected), true);
    };
    check(
        Flex::bool_and(a(), b()),
        [[false, false, false], [false, true, true]],
    );
    check(
        Flex::bool_or(a(), b()),
        [[false, true, true], [true, true, true]],
    );
    check(
        Flex::bool_xor(a(), b()),
        [[false, true, true], [true, false, false]],
    );
    check(
        Flex::bool_equal(a(), b()),
        [[true, false, false], [false, true, true]],
    );
    check(
        Flex::bool_not_equal(a(), b()),
        [[false, true, true], [true, false, false]],
    );
}

#[test]
fn bool_logic_non_contiguous() {
    let t = bools(&[true, false, false, true, true, false], &[2, 3]);
    let p = Flex::bool_permute(t.clone(), &[1, 0]); // [[t, t], [f, t], [f, f]]
    let f = Flex::bool_flip(Flex::bool_permute(t, &[1, 0]), &[0]); // [[f, f], [f, t], [t, t]]
    Flex::bool_and(p.clone(), f.clone()).into_data().assert_eq(
        &TensorData::from([[false, false], [false, true], [false, false]]),
        true,
    );
    Flex::bool_xor(p, f).into_data().assert_eq(
        &TensorData::from([[true, true], [false, false], [true, true]]),
        true,
    );
}

#[test]
fn bool_any_all_composites() {
    // The composites route through compare_scalar on the int sum.
    assert_eq!(
        read(Flex::bool_any(bools(&[false, true], &[2]))),
        vec![true]
    );
    assert_eq!(
        read(Flex::bool_all(bools(&[false, true], &[2]))),
        vec![false]
    );
}

#[test]
#[should_panic(expected = "greater: operands have different dtypes i32 and i64")]
fn compare_dtype_mismatch_panics() {
    Flex::int_greater(
        int(vec![1], &[1], DType::I32),
        int(vec![1], &[1], DType::I64),
    );
}

#[test]
#[should_panic(expected = "equal: shapes [3] and [2] cannot be broadcast together")]
fn compare_shape_mismatch_panics() {
    Flex::float_equal(
        float(vec![1.0; 3], &[3], DType::F32),
        float(vec![1.0; 2], &[2], DType::F32),
    );
}

#[test]
#[should_panic(expected = "bool_and: expected bool operands, got bool and f32")]
fn bool_logic_on_float_panics() {
    Flex::bool_and(bools(&[true], &[1]), float(vec![1.0], &[1], DType::F32));
}
