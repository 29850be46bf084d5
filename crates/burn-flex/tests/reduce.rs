//! Reductions: sum, prod, max, min (whole tensor and along a dim), argmax /
//! argmin, and the trait's composites built on them (mean, any, all, …).
//!
//! Fixed expected values are worked by hand; `reference/reduce.py`
//! reproduces them. Larger cases compare against a naive f64 reference
//! written here, independent of the kernels.
// Case tables pair inputs with the op and reference function they check.
#![allow(clippy::type_complexity)]

use burn_backend::kernels::ReduceKernels;
use burn_backend::{BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Shape, Slice, TensorData, Tolerance};

const DEV: FlexDevice = FlexDevice;

const FLOATS: [DType; 4] = [DType::F64, DType::F32, DType::F16, DType::BF16];
const INTS: [DType; 8] = [
    DType::I64,
    DType::I32,
    DType::I16,
    DType::I8,
    DType::U64,
    DType::U32,
    DType::U16,
    DType::U8,
];

fn float(values: Vec<f32>, shape: &[usize]) -> FlexTensor {
    Flex::float_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

fn float64(values: Vec<f64>, shape: &[usize]) -> FlexTensor {
    Flex::float_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

fn int(values: Vec<i64>, shape: &[usize]) -> FlexTensor {
    Flex::int_from_data(TensorData::new(values, shape.to_vec()), &DEV)
}

/// `values` (small integers) as a tensor of any numeric dtype.
fn of_dtype(values: &[i64], shape: &[usize], dtype: DType) -> FlexTensor {
    let data = TensorData::new(values.to_vec(), shape.to_vec()).convert_dtype(dtype);
    assert_eq!(data.dtype, dtype);
    if dtype.is_float() {
        Flex::float_from_data(data, &DEV)
    } else {
        Flex::int_from_data(data, &DEV)
    }
}

fn read(t: FlexTensor) -> TensorData {
    let dtype = t.dtype();
    if dtype.is_float() {
        Flex::float_into_data(t).unwrap()
    } else if dtype.is_int() {
        Flex::int_into_data(t).unwrap()
    } else {
        Flex::bool_into_data(t).unwrap()
    }
}

fn expect_f32(t: FlexTensor, values: Vec<f32>, shape: &[usize]) {
    read(t).assert_approx_eq::<f32>(
        &TensorData::new(values, shape.to_vec()),
        Tolerance::default(),
    );
}

fn expect_i64(t: FlexTensor, values: Vec<i64>, shape: &[usize]) {
    let data = read(t);
    assert_eq!(data.dtype, DType::I64, "indices must be I64");
    data.assert_eq(&TensorData::new(values, shape.to_vec()), true);
}

/// Deterministic pseudo-random values in [0, 1).
fn random_f64(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

/// Naive reduction of a row-major f64 array along `dim` (independent of
/// the kernels under test).
fn naive_dim(
    values: &[f64],
    shape: &[usize],
    dim: usize,
    init: f64,
    op: fn(f64, f64) -> f64,
) -> Vec<f64> {
    let outer: usize = shape[..dim].iter().product();
    let len = shape[dim];
    let inner: usize = shape[dim + 1..].iter().product();
    let mut out = vec![init; outer * inner];
    for o in 0..outer {
        for r in 0..len {
            for i in 0..inner {
                let acc = &mut out[o * inner + i];
                *acc = op(*acc, values[(o * len + r) * inner + i]);
            }
        }
    }
    out
}

fn out_shape(shape: &[usize], dim: usize) -> Vec<usize> {
    let mut s = shape.to_vec();
    s[dim] = 1;
    s
}

// ------------------------------------------------------------- whole tensor

#[test]
fn sum_prod_max_min_all_f32() {
    let t = || float(vec![1.0, -2.0, 3.5, 4.0, 0.5, -6.0], &[2, 3]);
    expect_f32(Flex::float_sum(t()), vec![1.0], &[1]);
    expect_f32(Flex::float_prod(t()), vec![84.0], &[1]);
    expect_f32(Flex::float_max(t()), vec![4.0], &[1]);
    expect_f32(Flex::float_min(t()), vec![-6.0], &[1]);
}

#[test]
fn whole_tensor_reductions_every_dtype() {
    // [[3, 1, 4], [1, 5, 2]]: sum 16, prod 120, max 5, min 1.
    let values = [3, 1, 4, 1, 5, 2];
    for dtype in FLOATS.into_iter().chain(INTS) {
        let t = || of_dtype(&values, &[2, 3], dtype);
        let (sum, prod, max, min) = if dtype.is_float() {
            (
                Flex::float_sum(t()),
                Flex::float_prod(t()),
                Flex::float_max(t()),
                Flex::float_min(t()),
            )
        } else {
            (
                Flex::int_sum(t()),
                Flex::int_prod(t()),
                Flex::int_max(t()),
                Flex::int_min(t()),
            )
        };
        for (got, want) in [(sum, 16), (prod, 120), (max, 5), (min, 1)] {
            let data = read(got);
            assert_eq!(data.dtype, dtype, "result keeps the dtype");
            data.assert_eq(&TensorData::new(vec![want], [1]).convert_dtype(dtype), true);
        }
    }
}

#[test]
fn int_sum_and_prod_wrap() {
    let t = TensorData::new(vec![100i8, 100, 100], [3]);
    read(Flex::int_sum(Flex::int_from_data(t, &DEV)))
        .assert_eq(&TensorData::new(vec![44i8], [1]), true);
    let t = TensorData::new(vec![200u8, 100], [2]);
    read(Flex::int_sum(Flex::int_from_data(t, &DEV)))
        .assert_eq(&TensorData::new(vec![44u8], [1]), true);
    let t = TensorData::new(vec![65536i32, 65536, 3], [3]);
    read(Flex::int_prod(Flex::int_from_data(t, &DEV)))
        .assert_eq(&TensorData::new(vec![0i32], [1]), true);
    let t = TensorData::new(vec![i64::MAX, 1], [2]);
    read(Flex::int_sum(Flex::int_from_data(t, &DEV)))
        .assert_eq(&TensorData::new(vec![i64::MIN], [1]), true);
    // Wrapping also on the dim path: [[127, 1], [127, 2]] summed over dim 0.
    let t = TensorData::new(vec![127i8, 1, 127, 2], [2, 2]);
    read(Flex::int_sum_dim(Flex::int_from_data(t, &DEV), 0))
        .assert_eq(&TensorData::new(vec![-2i8, 3], [1, 2]), true);
}

#[test]
fn max_min_propagate_nan() {
    let t = || float(vec![1.0, f32::NAN, 3.0, -1.0], &[4]);
    expect_f32(Flex::float_max(t()), vec![f32::NAN], &[1]);
    expect_f32(Flex::float_min(t()), vec![f32::NAN], &[1]);
    // NaN first and last too (a naive `if x > acc` would drop it).
    expect_f32(
        Flex::float_max(float(vec![f32::NAN, 1.0, 2.0], &[3])),
        vec![f32::NAN],
        &[1],
    );
    expect_f32(
        Flex::float_min(float(vec![1.0, 2.0, f32::NAN], &[3])),
        vec![f32::NAN],
        &[1],
    );
    // Only the row holding a NaN becomes NaN, on both dims.
    let t = || float(vec![1.0, 5.0, 2.0, f32::NAN, 0.0, 7.0], &[2, 3]);
    expect_f32(Flex::float_max_dim(t(), 1), vec![5.0, f32::NAN], &[2, 1]);
    expect_f32(
        Flex::float_min_dim(t(), 0),
        vec![f32::NAN, 0.0, 2.0],
        &[1, 3],
    );
    expect_f32(
        Flex::float_sum_dim(t(), 0),
        vec![f32::NAN, 5.0, 9.0],
        &[1, 3],
    );
}

#[test]
fn infinities_in_max_min() {
    let t = || float(vec![f32::NEG_INFINITY, -1.0, f32::INFINITY], &[3]);
    expect_f32(Flex::float_max(t()), vec![f32::INFINITY], &[1]);
    expect_f32(Flex::float_min(t()), vec![f32::NEG_INFINITY], &[1]);
    // All -inf: the max is -inf (the identity must not leak a finite value).
    expect_f32(
        Flex::float_max(float(vec![f32::NEG_INFINITY; 2], &[2])),
        vec![f32::NEG_INFINITY],
        &[1],
    );
}

#[test]
fn empty_sum_is_zero_and_prod_is_one() {
    for dtype in FLOATS.into_iter().chain(INTS) {
        let t = || of_dtype(&[], &[0, 3], dtype);
        let (sum, prod) = if dtype.is_float() {
            (Flex::float_sum(t()), Flex::float_prod(t()))
        } else {
            (Flex::int_sum(t()), Flex::int_prod(t()))
        };
        read(sum).assert_eq(&TensorData::new(vec![0i64], [1]).convert_dtype(dtype), true);
        read(prod).assert_eq(&TensorData::new(vec![1i64], [1]).convert_dtype(dtype), true);
    }
    // Reducing an empty dim gives identities of the kept shape.
    expect_f32(
        Flex::float_sum_dim(float(vec![], &[2, 0]), 1),
        vec![0.0, 0.0],
        &[2, 1],
    );
    expect_f32(
        Flex::float_prod_dim(float(vec![], &[0, 3]), 0),
        vec![1.0; 3],
        &[1, 3],
    );
    // Reducing a non-empty dim of an empty tensor gives an empty tensor.
    let t = Flex::float_max_dim(float(vec![], &[0, 3]), 1);
    assert_eq!(t.shape(), Shape::new([0, 1]));
    assert_eq!(read(t).num_elements(), 0);
}

#[test]
#[should_panic(expected = "max: cannot reduce an empty tensor of shape [0, 3]")]
fn max_of_empty_panics() {
    Flex::float_max(float(vec![], &[0, 3]));
}

#[test]
#[should_panic(expected = "min_dim: cannot reduce dim 0 of size 0")]
fn min_dim_of_empty_dim_panics() {
    Flex::int_min_dim(int(vec![], &[0, 2]), 0);
}

#[test]
#[should_panic(expected = "sum_dim: dim 2 is out of range for a tensor of shape [2, 3]")]
fn sum_dim_out_of_range_panics() {
    Flex::float_sum_dim(float(vec![0.0; 6], &[2, 3]), 2);
}

#[test]
#[should_panic(expected = "sum: expected a numeric dtype, got bool")]
fn sum_of_bool_tensor_panics() {
    let t = Flex::bool_from_data(TensorData::new(vec![true, false], [2]), &DEV);
    Flex::reduce_all(burn_backend::ReduceOp::Sum, t);
}

// ---------------------------------------------------------------- along dims

#[test]
fn sum_prod_max_min_dim_every_axis_3d() {
    let shape = [2, 3, 4];
    let values: Vec<f64> = (0..24).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
    let t = || float64(values.clone(), &shape);
    for dim in 0..3 {
        let os = out_shape(&shape, dim);
        let cases: [(FlexTensor, f64, fn(f64, f64) -> f64); 4] = [
            (Flex::float_sum_dim(t(), dim), 0.0, |a, b| a + b),
            (Flex::float_prod_dim(t(), dim), 1.0, |a, b| a * b),
            (Flex::float_max_dim(t(), dim), f64::NEG_INFINITY, f64::max),
            (Flex::float_min_dim(t(), dim), f64::INFINITY, f64::min),
        ];
        for (got, init, op) in cases {
            let want = naive_dim(&values, &shape, dim, init, op);
            read(got).assert_eq(&TensorData::new(want, os.clone()), true);
        }
    }
}

#[test]
fn reductions_along_dims_every_dtype() {
    // [[3, 1, 4], [1, 5, 2]] along dim 0 and dim 1.
    let values = [3, 1, 4, 1, 5, 2];
    for dtype in FLOATS.into_iter().chain(INTS) {
        let t = || of_dtype(&values, &[2, 3], dtype);
        let ops: [(fn(FlexTensor, usize) -> FlexTensor, [i64; 3], [i64; 2]); 4] =
            if dtype.is_float() {
                [
                    (Flex::float_sum_dim, [4, 6, 6], [8, 8]),
                    (Flex::float_prod_dim, [3, 5, 8], [12, 10]),
                    (Flex::float_max_dim, [3, 5, 4], [4, 5]),
                    (Flex::float_min_dim, [1, 1, 2], [1, 1]),
                ]
            } else {
                [
                    (Flex::int_sum_dim, [4, 6, 6], [8, 8]),
                    (Flex::int_prod_dim, [3, 5, 8], [12, 10]),
                    (Flex::int_max_dim, [3, 5, 4], [4, 5]),
                    (Flex::int_min_dim, [1, 1, 2], [1, 1]),
                ]
            };
        for (op, dim0, dim1) in ops {
            let got0 = read(op(t(), 0));
            assert_eq!(got0.dtype, dtype);
            got0.assert_eq(
                &TensorData::new(dim0.to_vec(), [1, 3]).convert_dtype(dtype),
                true,
            );
            read(op(t(), 1)).assert_eq(
                &TensorData::new(dim1.to_vec(), [2, 1]).convert_dtype(dtype),
                true,
            );
        }
    }
}

#[test]
fn int_extremes_max_min() {
    let t = || {
        Flex::int_from_data(
            TensorData::new(vec![0u64, u64::MAX, 7, u64::MAX - 1], [2, 2]),
            &DEV,
        )
    };
    read(Flex::int_max(t())).assert_eq(&TensorData::new(vec![u64::MAX], [1]), true);
    read(Flex::int_min_dim(t(), 0))
        .assert_eq(&TensorData::new(vec![0u64, u64::MAX - 1], [1, 2]), true);
    let t = || Flex::int_from_data(TensorData::new(vec![i64::MIN, -1, i64::MAX, 0], [4]), &DEV);
    read(Flex::int_max(t())).assert_eq(&TensorData::new(vec![i64::MAX], [1]), true);
    read(Flex::int_min(t())).assert_eq(&TensorData::new(vec![i64::MIN], [1]), true);
}

#[test]
fn half_precision_sums_accumulate_in_f32() {
    // 3000 ones: an f16 accumulator stalls at 2048 (2048 + 1 rounds back to
    // 2048); accumulating in f32 gives 3000, which f16 represents exactly.
    let ones = TensorData::new(vec![half::f16::ONE; 3000], [3000]);
    read(Flex::float_sum(Flex::float_from_data(ones, &DEV))).assert_eq(
        &TensorData::new(vec![half::f16::from_f32(3000.0)], [1]),
        true,
    );
    // Same along a dim, through the row-accumulate path (dim 0).
    let ones = TensorData::new(vec![half::f16::ONE; 3000 * 2], [3000, 2]);
    read(Flex::float_sum_dim(Flex::float_from_data(ones, &DEV), 0)).assert_eq(
        &TensorData::new(vec![half::f16::from_f32(3000.0); 2], [1, 2]),
        true,
    );
    // bf16 stalls at 256 with a bf16 accumulator; 300 is representable.
    let ones = TensorData::new(vec![half::bf16::ONE; 300], [1, 300]);
    read(Flex::float_sum_dim(Flex::float_from_data(ones, &DEV), 1)).assert_eq(
        &TensorData::new(vec![half::bf16::from_f32(300.0)], [1, 1]),
        true,
    );
}

// -------------------------------------------------------- strided layouts

/// Logical values of the 3-D test input and its shape.
fn cube() -> (Vec<f64>, [usize; 3]) {
    (
        (0..60).map(|i| ((i * 13) % 17) as f64 - 8.0).collect(),
        [3, 4, 5],
    )
}

/// A float tensor reordered by `axes` and the logical values it holds.
fn permuted(axes: [usize; 3]) -> (FlexTensor, Vec<f64>, Vec<usize>) {
    let (values, shape) = cube();
    let t = Flex::float_permute(float64(values.clone(), &shape), &axes);
    let out_shape: Vec<usize> = axes.iter().map(|&a| shape[a]).collect();
    let mut logical = vec![0.0; 60];
    let src_strides = [20, 5, 1];
    for (k, slot) in logical.iter_mut().enumerate() {
        let idx = [
            k / (out_shape[1] * out_shape[2]),
            (k / out_shape[2]) % out_shape[1],
            k % out_shape[2],
        ];
        let src: usize = (0..3).map(|d| idx[d] * src_strides[axes[d]]).sum();
        *slot = values[src];
    }
    (t, logical, out_shape)
}

#[test]
fn reductions_of_permuted_inputs() {
    for axes in [[2, 1, 0], [1, 2, 0], [0, 2, 1], [2, 0, 1]] {
        for dim in 0..3 {
            let (t, logical, shape) = permuted(axes);
            let want = naive_dim(&logical, &shape, dim, 0.0, |a, b| a + b);
            read(Flex::float_sum_dim(t.clone(), dim))
                .assert_eq(&TensorData::new(want, out_shape(&shape, dim)), true);
            let want = naive_dim(&logical, &shape, dim, f64::NEG_INFINITY, f64::max);
            read(Flex::float_max_dim(t.clone(), dim))
                .assert_eq(&TensorData::new(want, out_shape(&shape, dim)), true);
            let total: f64 = logical.iter().sum();
            read(Flex::float_sum(t)).assert_eq(&TensorData::new(vec![total], [1]), true);
        }
    }
}

#[test]
fn reductions_of_stepped_and_flipped_slices() {
    // x[i, j] = 10 i + j on [4, 6]; take rows 3, 1 (step -2) and columns 0, 2, 4.
    let values: Vec<f32> = (0..24).map(|k| (10 * (k / 6) + k % 6) as f32).collect();
    let t = Flex::float_slice(
        float(values, &[4, 6]),
        &[Slice::new(0, None, -2), Slice::new(0, None, 2)],
    );
    assert_eq!(t.shape(), Shape::new([2, 3]));
    // Logical [[30, 32, 34], [10, 12, 14]].
    expect_f32(
        Flex::float_sum_dim(t.clone(), 0),
        vec![40.0, 44.0, 48.0],
        &[1, 3],
    );
    expect_f32(Flex::float_sum_dim(t.clone(), 1), vec![96.0, 36.0], &[2, 1]);
    expect_f32(Flex::float_min_dim(t.clone(), 1), vec![30.0, 10.0], &[2, 1]);
    expect_f32(Flex::float_sum(t.clone()), vec![132.0], &[1]);
    expect_i64(Flex::float_argmax(t.clone(), 0), vec![0, 0, 0], &[1, 3]);
    expect_i64(Flex::float_argmin(t, 1), vec![0, 0], &[2, 1]);
    // A flip is a negative stride.
    let t = Flex::float_flip(float(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]), &[0, 1]);
    expect_f32(Flex::float_sum_dim(t.clone(), 1), vec![15.0, 6.0], &[2, 1]);
    expect_i64(Flex::float_argmax(t.clone(), 1), vec![0, 0], &[2, 1]);
    expect_f32(Flex::float_prod(t), vec![720.0], &[1]);
}

#[test]
fn reductions_of_expanded_inputs() {
    // [1, 3] expanded to [4, 3]: every row is [1, 2, 3].
    let t = Flex::float_expand(float(vec![1.0, 2.0, 3.0], &[1, 3]), Shape::new([4, 3]));
    expect_f32(
        Flex::float_sum_dim(t.clone(), 0),
        vec![4.0, 8.0, 12.0],
        &[1, 3],
    );
    expect_f32(Flex::float_sum_dim(t.clone(), 1), vec![6.0; 4], &[4, 1]);
    expect_f32(Flex::float_sum(t.clone()), vec![24.0], &[1]);
    expect_f32(
        Flex::float_prod_dim(t.clone(), 0),
        vec![1.0, 16.0, 81.0],
        &[1, 3],
    );
    expect_i64(Flex::float_argmax(t.clone(), 0), vec![0, 0, 0], &[1, 3]);
    // [3, 1] expanded to [3, 5]: a stride-0 inner dim.
    let t = Flex::int_expand(int(vec![1, -2, 3], &[3, 1]), Shape::new([3, 5]));
    read(Flex::int_sum_dim(t.clone(), 1))
        .assert_eq(&TensorData::new(vec![5i64, -10, 15], [3, 1]), true);
    read(Flex::int_sum(t.clone())).assert_eq(&TensorData::new(vec![10i64], [1]), true);
    read(Flex::int_max_dim(t, 0)).assert_eq(&TensorData::new(vec![3i64; 5], [1, 5]), true);
}

// --------------------------------------------------- large, accurate, stable

fn big_f32(rows: usize, cols: usize, seed: u64) -> (Vec<f32>, FlexTensor) {
    let values: Vec<f32> = random_f64(rows * cols, seed)
        .into_iter()
        .map(|v| v as f32)
        .collect();
    let t = float(values.clone(), &[rows, cols]);
    (values, t)
}

#[test]
fn f32_sum_of_4096x4096_is_accurate() {
    let (values, t) = big_f32(4096, 4096, 7);
    let exact: f64 = values.iter().map(|&v| v as f64).sum();
    let got = read(Flex::float_sum(t.clone())).to_vec::<f32>().unwrap()[0] as f64;
    // A sequential f32 sum is off by ~1e-2 relative here; blocked pairwise
    // summation stays within a few ulps of the magnitude.
    assert!(
        (got - exact).abs() <= 1e-6 * exact,
        "sum {got} vs exact {exact}"
    );

    // Row sums (last dim) and column sums (dim 0) against f64.
    let rows: Vec<f64> = values
        .chunks(4096)
        .map(|r| r.iter().map(|&v| v as f64).sum())
        .collect();
    read(Flex::float_sum_dim(t.clone(), 1))
        .assert_approx_eq::<f64>(&TensorData::new(rows, [4096, 1]), Tolerance::relative(1e-6));
    let mut cols = vec![0f64; 4096];
    for r in values.chunks(4096) {
        for (c, &v) in cols.iter_mut().zip(r) {
            *c += v as f64;
        }
    }
    read(Flex::float_sum_dim(t, 0))
        .assert_approx_eq::<f64>(&TensorData::new(cols, [1, 4096]), Tolerance::relative(1e-6));
}

#[test]
fn large_reductions_match_naive_on_every_dim() {
    // Exercises the parallel paths and the pairwise row blocks (dims longer
    // than one block) for every op.
    let shape = [37, 300, 29];
    let values: Vec<f64> = random_f64(37 * 300 * 29, 3)
        .into_iter()
        .map(|v| v * 2.0 - 1.0)
        .collect();
    let t = || float64(values.clone(), &shape);
    for dim in 0..3 {
        let os = out_shape(&shape, dim);
        let sum = naive_dim(&values, &shape, dim, 0.0, |a, b| a + b);
        read(Flex::float_sum_dim(t(), dim))
            .assert_approx_eq::<f64>(&TensorData::new(sum, os.clone()), Tolerance::default());
        let max = naive_dim(&values, &shape, dim, f64::NEG_INFINITY, f64::max);
        read(Flex::float_max_dim(t(), dim)).assert_eq(&TensorData::new(max, os.clone()), true);
        let min = naive_dim(&values, &shape, dim, f64::INFINITY, f64::min);
        read(Flex::float_min_dim(t(), dim)).assert_eq(&TensorData::new(min, os.clone()), true);
        let prod = naive_dim(&values, &shape, dim, 1.0, |a, b| a * b);
        read(Flex::float_prod_dim(t(), dim))
            .assert_approx_eq::<f64>(&TensorData::new(prod, os), Tolerance::rel_abs(1e-9, 1e-300));
    }
    // Ints: exact, including on a transposed (strided) view.
    let ints: Vec<i64> = values.iter().map(|v| (v * 1000.0) as i64).collect();
    let it = Flex::int_permute(int(ints.clone(), &shape), &[2, 0, 1]);
    let tshape = [29, 37, 300];
    let mut logical = vec![0i64; ints.len()];
    for (k, slot) in logical.iter_mut().enumerate() {
        let (c, a, b) = (k / (37 * 300), (k / 300) % 37, k % 300);
        *slot = ints[(a * 300 + b) * 29 + c];
    }
    let as_f64: Vec<f64> = logical.iter().map(|&v| v as f64).collect();
    for dim in 0..3 {
        let want: Vec<i64> = naive_dim(&as_f64, &tshape, dim, 0.0, |a, b| a + b)
            .into_iter()
            .map(|v| v as i64)
            .collect();
        read(Flex::int_sum_dim(it.clone(), dim))
            .assert_eq(&TensorData::new(want, out_shape(&tshape, dim)), true);
    }
}

#[test]
#[cfg(feature = "threads")]
fn results_do_not_depend_on_the_thread_count() {
    let (_, t) = big_f32(1024, 1536, 11);
    let run = |threads: usize| {
        burn_flex::threads::with_threads(threads, || {
            let bits = |t: FlexTensor| {
                read(t)
                    .to_vec::<f32>()
                    .unwrap()
                    .iter()
                    .map(|v| v.to_bits())
                    .collect::<Vec<_>>()
            };
            (
                bits(Flex::float_sum(t.clone())),
                bits(Flex::float_sum_dim(t.clone(), 0)),
                bits(Flex::float_sum_dim(t.clone(), 1)),
                bits(Flex::float_sum(Flex::float_permute(t.clone(), &[1, 0]))),
                bits(Flex::float_prod_dim(t.clone(), 0)),
            )
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
    assert_eq!(one, run(8));
}

// ------------------------------------------------------------ argmax/argmin

#[test]
fn argmax_argmin_first_index_on_ties() {
    // [[1, 3, 3, 0], [2, 2, 0, 0]]
    let t = || float(vec![1.0, 3.0, 3.0, 0.0, 2.0, 2.0, 0.0, 0.0], &[2, 4]);
    expect_i64(Flex::float_argmax(t(), 1), vec![1, 0], &[2, 1]);
    expect_i64(Flex::float_argmin(t(), 1), vec![3, 2], &[2, 1]);
    expect_i64(Flex::float_argmax(t(), 0), vec![1, 0, 0, 0], &[1, 4]);
    expect_i64(Flex::float_argmin(t(), 0), vec![0, 1, 1, 0], &[1, 4]);
}

#[test]
fn argmax_argmin_every_dtype() {
    // [[3, 1, 4], [1, 5, 4]]
    let values = [3, 1, 4, 1, 5, 4];
    for dtype in FLOATS.into_iter().chain(INTS) {
        let t = || of_dtype(&values, &[2, 3], dtype);
        let (amax1, amin1, amax0, amin0) = if dtype.is_float() {
            (
                Flex::float_argmax(t(), 1),
                Flex::float_argmin(t(), 1),
                Flex::float_argmax(t(), 0),
                Flex::float_argmin(t(), 0),
            )
        } else {
            (
                Flex::int_argmax(t(), 1),
                Flex::int_argmin(t(), 1),
                Flex::int_argmax(t(), 0),
                Flex::int_argmin(t(), 0),
            )
        };
        expect_i64(amax1, vec![2, 1], &[2, 1]);
        expect_i64(amin1, vec![1, 0], &[2, 1]);
        expect_i64(amax0, vec![0, 1, 0], &[1, 3]);
        expect_i64(amin0, vec![1, 0, 0], &[1, 3]);
    }
    // Unsigned values above i64::MAX compare as unsigned.
    let t = Flex::int_from_data(TensorData::new(vec![1u64, u64::MAX, 5], [3]), &DEV);
    expect_i64(Flex::int_argmax(t, 0), vec![1], &[1]);
}

#[test]
fn argmax_argmin_return_first_nan() {
    let t = || float(vec![1.0, f32::NAN, 5.0, f32::NAN, -3.0], &[5]);
    expect_i64(Flex::float_argmax(t(), 0), vec![1], &[1]);
    expect_i64(Flex::float_argmin(t(), 0), vec![1], &[1]);
    // Along dim 0 (row-wise path): column 1 has NaN at rows 2 and 3.
    let t = || {
        float(
            vec![
                0.0,
                1.0,
                9.0,
                5.0,
                2.0,
                3.0,
                1.0,
                f32::NAN,
                -1.0,
                0.0,
                f32::NAN,
                7.0,
            ],
            &[4, 3],
        )
    };
    expect_i64(Flex::float_argmax(t(), 0), vec![1, 2, 0], &[1, 3]);
    expect_i64(Flex::float_argmin(t(), 0), vec![0, 2, 2], &[1, 3]);
    // A NaN at index 0 wins too.
    let t = Flex::float_from_data(
        TensorData::new(vec![half::f16::NAN, half::f16::MAX], [2]),
        &DEV,
    );
    expect_i64(Flex::float_argmax(t, 0), vec![0], &[1]);
}

/// Rows of 1000 values (15 full steps of the 64-lane fold and a tail): row
/// `r` holds `mark` at `at[r]` and again 70 further on, where it fits. The
/// positions cover every lane of the first step, a later step and the tail.
fn marked_rows(mark: f32, dtype: DType) -> (FlexTensor, Vec<i64>) {
    const LEN: usize = 1000;
    let at: Vec<usize> = (0..64).chain([64 * 7 + 13, 960, 999]).collect();
    let mut values: Vec<f32> = random_f64(at.len() * LEN, 7)
        .into_iter()
        .map(|v| v as f32)
        .collect();
    for (row, &p) in values.chunks_exact_mut(LEN).zip(&at) {
        row[p] = mark;
        if p + 70 < LEN {
            row[p + 70] = mark;
        }
    }
    let data = TensorData::new(values, [at.len(), LEN]).convert_dtype(dtype);
    let t = Flex::float_from_data(data, &DEV);
    (t, at.iter().map(|&p| p as i64).collect())
}

#[test]
fn nan_in_any_lane_of_a_long_row() {
    for dtype in [DType::F32, DType::F64, DType::F16] {
        let (t, at) = marked_rows(f32::NAN, dtype);
        let rows = at.len();
        let nan = vec![f32::NAN; rows];
        expect_f32(Flex::float_max_dim(t.clone(), 1), nan.clone(), &[rows, 1]);
        expect_f32(Flex::float_min_dim(t.clone(), 1), nan, &[rows, 1]);
        expect_i64(Flex::float_argmax(t.clone(), 1), at.clone(), &[rows, 1]);
        expect_i64(Flex::float_argmin(t, 1), at, &[rows, 1]);
    }
}

#[test]
fn extreme_in_any_lane_of_a_long_row() {
    for dtype in [DType::F32, DType::F64, DType::F16] {
        let (t, at) = marked_rows(2.0, dtype);
        let rows = at.len();
        expect_f32(
            Flex::float_max_dim(t.clone(), 1),
            vec![2.0; rows],
            &[rows, 1],
        );
        expect_i64(Flex::float_argmax(t, 1), at, &[rows, 1]);
        let (t, at) = marked_rows(-1.0, dtype);
        expect_f32(
            Flex::float_min_dim(t.clone(), 1),
            vec![-1.0; rows],
            &[rows, 1],
        );
        expect_i64(Flex::float_argmin(t, 1), at, &[rows, 1]);
    }
}

#[test]
fn argmax_large_strided_matches_naive() {
    let (values, t) = big_f32(200, 300, 5);
    let tt = Flex::float_permute(t.clone(), &[1, 0]); // [300, 200]
    let mut want0 = vec![0i64; 300];
    for (c, w) in want0.iter_mut().enumerate() {
        let col: Vec<f32> = (0..200).map(|r| values[r * 300 + c]).collect();
        *w = (0..200).fold(0, |b, r| if col[r] > col[b] { r } else { b }) as i64;
    }
    // argmax over dim 1 of the transpose is argmax over dim 0 of the original.
    expect_i64(Flex::float_argmax(tt.clone(), 1), want0.clone(), &[300, 1]);
    expect_i64(Flex::float_argmax(t.clone(), 0), want0, &[1, 300]);
    let mut want1 = vec![0i64; 200];
    for (r, w) in want1.iter_mut().enumerate() {
        let row = &values[r * 300..(r + 1) * 300];
        *w = (0..300).fold(0, |b, c| if row[c] < row[b] { c } else { b }) as i64;
    }
    expect_i64(Flex::float_argmin(tt, 0), want1.clone(), &[1, 200]);
    expect_i64(Flex::float_argmin(t, 1), want1, &[200, 1]);
}

#[test]
#[should_panic(expected = "argmax: cannot reduce dim 1 of size 0")]
fn argmax_of_empty_dim_panics() {
    Flex::float_argmax(float(vec![], &[3, 0]), 1);
}

#[test]
#[should_panic(expected = "argmin: dim 1 is out of range")]
fn argmin_dim_out_of_range_panics() {
    Flex::int_argmin(int(vec![1, 2], &[2]), 1);
}

// ---------------------------------------------------------------- composites

#[test]
fn mean_composites() {
    let t = || float(vec![1.0, 2.0, 3.0, 4.0, 5.0, 9.0], &[2, 3]);
    expect_f32(Flex::float_mean(t()), vec![4.0], &[1]);
    expect_f32(Flex::float_mean_dim(t(), 0), vec![2.5, 3.5, 6.0], &[1, 3]);
    expect_f32(Flex::float_mean_dim(t(), 1), vec![2.0, 6.0], &[2, 1]);
    // int_mean floor-divides: sum -7 over 2 elements is -4, not -3.
    read(Flex::int_mean(int(vec![-3, -4], &[2])))
        .assert_eq(&TensorData::new(vec![-4i64], [1]), true);
    read(Flex::int_mean_dim(
        int(vec![1, 2, -1, -2, 7, 0], &[3, 2]),
        1,
    ))
    .assert_eq(&TensorData::new(vec![1i64, -2, 3], [3, 1]), true);
}

#[test]
fn max_min_dim_with_indices_composites() {
    let t = || float(vec![1.0, 7.0, 7.0, -2.0, 0.0, -2.0], &[2, 3]);
    let (v, i) = Flex::float_max_dim_with_indices(t(), 1);
    expect_f32(v, vec![7.0, 0.0], &[2, 1]);
    expect_i64(i, vec![1, 1], &[2, 1]);
    let (v, i) = Flex::float_min_dim_with_indices(t(), 0);
    expect_f32(v, vec![-2.0, 0.0, -2.0], &[1, 3]);
    expect_i64(i, vec![1, 1, 1], &[1, 3]);
    let (v, i) = Flex::int_max_dim_with_indices(int(vec![4, 9, 9, 1], &[4]), 0);
    read(v).assert_eq(&TensorData::new(vec![9i64], [1]), true);
    expect_i64(i, vec![1], &[1]);
}

#[test]
fn any_all_composites() {
    let t = || float(vec![0.0, 1.5, 0.0, 0.0, 0.0, -2.0], &[2, 3]);
    let b = |t: FlexTensor| read(t).to_vec::<bool>().unwrap();
    assert_eq!(b(Flex::float_any(t())), vec![true]);
    assert_eq!(b(Flex::float_all(t())), vec![false]);
    assert_eq!(b(Flex::float_any_dim(t(), 0)), vec![false, true, true]);
    assert_eq!(b(Flex::float_all_dim(t(), 1)), vec![false, false]);
    assert_eq!(b(Flex::float_any(float(vec![0.0; 4], &[4]))), vec![false]);
    // NaN is not zero.
    assert_eq!(
        b(Flex::float_all(float(vec![f32::NAN, 1.0], &[2]))),
        vec![true]
    );
    assert_eq!(
        b(Flex::int_all_dim(int(vec![1, 0, 3, 4], &[2, 2]), 0)),
        vec![true, false]
    );
    assert_eq!(b(Flex::int_any(int(vec![0, 0, 5], &[3]))), vec![true]);
    let bools =
        || Flex::bool_from_data(TensorData::new(vec![true, false, true, true], [2, 2]), &DEV);
    assert_eq!(b(Flex::bool_any(bools())), vec![true]);
    assert_eq!(b(Flex::bool_all(bools())), vec![false]);
    assert_eq!(b(Flex::bool_all_dim(bools(), 0)), vec![true, false]);
    assert_eq!(b(Flex::bool_any_dim(bools(), 1)), vec![true, true]);
    // Empty: any is false, all is true.
    let empty = || Flex::bool_from_data(TensorData::new(Vec::<bool>::new(), [0]), &DEV);
    assert_eq!(b(Flex::bool_any(empty())), vec![false]);
    assert_eq!(b(Flex::bool_all(empty())), vec![true]);
}
