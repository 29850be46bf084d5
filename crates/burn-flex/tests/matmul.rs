//! matmul: float and int, batched and broadcast, strided operands.
//!
//! Exact cases are worked by hand (`reference/matmul.py` reproduces them);
//! everything else is checked against a naive f64 product computed here
//! from the same input values.

use burn_backend::{FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Shape, Slice, TensorData, Tolerance};

const DEV: FlexDevice = FlexDevice;

/// Deterministic values in [-1, 1) (xorshift), as f64.
fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

fn floats(values: Vec<f64>, shape: &[usize], dtype: DType) -> FlexTensor {
    Flex::float_from_data(
        TensorData::new(values, shape.to_vec()).convert_dtype(dtype),
        &DEV,
    )
}

fn ints(values: Vec<i64>, shape: &[usize], dtype: DType) -> FlexTensor {
    Flex::int_from_data(
        TensorData::new(values, shape.to_vec()).convert_dtype(dtype),
        &DEV,
    )
}

/// The values of `t` in logical order, as f64 (reads through any layout).
fn logical(t: &FlexTensor) -> Vec<f64> {
    let data = if t.dtype().is_float() {
        Flex::float_into_data(t.clone()).unwrap()
    } else {
        Flex::int_into_data(t.clone()).unwrap()
    };
    data.iter::<f64>().collect()
}

/// Naive broadcast batched matmul in f64 over the logical values of `a`,
/// `b`; also returns the largest `Σ|a·b|` of any output (the scale of its
/// rounding error).
fn reference_with_scale(a: &FlexTensor, b: &FlexTensor) -> (TensorData, f64) {
    let (sa, sb) = (a.shape(), b.shape());
    let (ra, rb) = (sa.num_dims(), sb.num_dims());
    let (m, k, n) = (sa.dims[ra - 2], sa.dims[ra - 1], sb.dims[rb - 1]);
    let ba = Shape::from(&sa.dims[..ra - 2]);
    let bb = Shape::from(&sb.dims[..rb - 2]);
    let batch = ba.broadcast(&bb).unwrap();
    let (va, vb) = (logical(a), logical(b));
    // Flat index of output batch `flat` in an operand's own batch dims
    // (right-aligned; size-1 dims broadcast).
    let source = |dims: &[usize], mut flat: usize| {
        let (mut idx, mut stride) = (0, 1);
        let off = batch.dims.len() - dims.len();
        for (d, &size) in batch.dims.iter().enumerate().rev() {
            let i = flat % size;
            flat /= size;
            if d >= off {
                let own = dims[d - off];
                idx += if own == 1 { 0 } else { i } * stride;
                stride *= own;
            }
        }
        idx
    };
    let nbatch = batch.num_elements();
    let mut out = vec![0f64; nbatch * m * n];
    let mut scale = 0f64;
    for t in 0..nbatch {
        let (ia, ib) = (source(&ba.dims, t), source(&bb.dims, t));
        for i in 0..m {
            for j in 0..n {
                let (mut s, mut abs) = (0f64, 0f64);
                for p in 0..k {
                    let prod = va[ia * m * k + i * k + p] * vb[ib * k * n + p * n + j];
                    s += prod;
                    abs += prod.abs();
                }
                out[t * m * n + i * n + j] = s;
                scale = scale.max(abs);
            }
        }
    }
    let mut dims = batch.dims.clone();
    dims.extend([m, n]);
    (TensorData::new(out, dims), scale)
}

fn reference(a: &FlexTensor, b: &FlexTensor) -> TensorData {
    reference_with_scale(a, b).0
}

fn float_result(t: FlexTensor) -> TensorData {
    Flex::float_into_data(t).unwrap()
}

/// Checks `matmul(a, b)` against the f64 reference. Allowed error: the
/// output rounding (relative, in the output dtype) plus `4·√k` unit
/// roundoffs of the accumulator (f32 for f16/bf16) times the largest
/// `Σ|a·b|`: far below the error of a dropped or misplaced term.
fn check_float(a: FlexTensor, b: FlexTensor) {
    let dtype = a.dtype();
    let (expected, scale) = reference_with_scale(&a, &b);
    let k = a.shape().dims[a.shape().num_dims() - 1] as f64;
    let actual = float_result(Flex::float_matmul(a, b));
    assert_eq!(actual.dtype, dtype);
    let (out_unit, acc_unit) = match dtype {
        DType::F64 => (2f64.powi(-53), 2f64.powi(-53)),
        DType::F32 => (2f64.powi(-24), 2f64.powi(-24)),
        DType::F16 => (2f64.powi(-11), 2f64.powi(-24)),
        _ => (2f64.powi(-8), 2f64.powi(-24)),
    };
    let tol = Tolerance::rel_abs(out_unit, 4.0 * (k.sqrt() + 1.0) * acc_unit * scale + 1e-300);
    actual.assert_approx_eq::<f64>(&expected, tol);
}

fn random(shape: &[usize], dtype: DType, seed: u64) -> FlexTensor {
    floats(values(shape.iter().product(), seed), shape, dtype)
}

#[test]
fn hand_worked_f32_2x3_by_3x2() {
    let a = floats(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3], DType::F32);
    let b = floats(vec![7.0, 8.0, 9.0, 10.0, 11.0, 12.0], &[3, 2], DType::F32);
    let out = float_result(Flex::float_matmul(a, b));
    // [1 2 3]·[7 9 11]ᵀ = 58, [1 2 3]·[8 10 12]ᵀ = 64, [4 5 6]·… = 139, 154
    out.assert_eq(
        &TensorData::new(vec![58.0f32, 64.0, 139.0, 154.0], [2, 2]),
        true,
    );
}

#[test]
fn hand_worked_ints_every_int_dtype() {
    // [[1, -2], [3, 4]] · [[5, 6, -1], [7, 0, 2]] = [[-9, 6, -5], [43, 18, 5]]
    // (unsigned dtypes use [[1, 2], [3, 4]] · [[5, 6, 1], [7, 0, 2]] = [[19, 6, 5], [43, 18, 11]])
    for dtype in [DType::I64, DType::I32, DType::I16, DType::I8] {
        let a = ints(vec![1, -2, 3, 4], &[2, 2], dtype);
        let b = ints(vec![5, 6, -1, 7, 0, 2], &[2, 3], dtype);
        let out = Flex::int_into_data(Flex::int_matmul(a, b)).unwrap();
        out.assert_eq(
            &TensorData::new(vec![-9i64, 6, -5, 43, 18, 5], [2, 3]).convert_dtype(dtype),
            true,
        );
    }
    for dtype in [DType::U64, DType::U32, DType::U16, DType::U8] {
        let a = ints(vec![1, 2, 3, 4], &[2, 2], dtype);
        let b = ints(vec![5, 6, 1, 7, 0, 2], &[2, 3], dtype);
        let out = Flex::int_into_data(Flex::int_matmul(a, b)).unwrap();
        out.assert_eq(
            &TensorData::new(vec![19i64, 6, 5, 43, 18, 11], [2, 3]).convert_dtype(dtype),
            true,
        );
    }
}

#[test]
fn int_arithmetic_wraps() {
    // u8: 16·16 + 1·1 = 257 ≡ 1 (mod 256); i8: 100·2 + 100·1 = 300 ≡ 44 (mod 256).
    let a = ints(vec![16, 1], &[1, 2], DType::U8);
    let b = ints(vec![16, 1], &[2, 1], DType::U8);
    Flex::int_into_data(Flex::int_matmul(a, b))
        .unwrap()
        .assert_eq(&TensorData::new(vec![1u8], [1, 1]), true);
    let a = ints(vec![100, 100], &[1, 2], DType::I8);
    let b = ints(vec![2, 1], &[2, 1], DType::I8);
    Flex::int_into_data(Flex::int_matmul(a, b))
        .unwrap()
        .assert_eq(&TensorData::new(vec![44i8], [1, 1]), true);
}

#[test]
fn int_matches_reference_on_larger_strided_inputs() {
    // Values in [-8, 8): exact in every path; rhs read transposed.
    let (m, k, n) = (37, 70, 45);
    let small = |n: usize, seed: u64| {
        values(n, seed)
            .iter()
            .map(|v| (v * 8.0).floor() as i64)
            .collect::<Vec<_>>()
    };
    for dtype in [DType::I32, DType::I64] {
        let a = ints(small(m * k, 1), &[m, k], dtype);
        let bt = ints(small(n * k, 2), &[n, k], dtype);
        let b = Flex::int_permute(bt, &[1, 0]);
        let expected = reference(&a, &b).convert_dtype(dtype);
        Flex::int_into_data(Flex::int_matmul(a, b))
            .unwrap()
            .assert_eq(&expected, true);
    }
}

#[test]
fn odd_sizes_match_reference() {
    // Direct path, blocked path with edge tiles, several K blocks (k > 256),
    // and a size that runs on several threads.
    for &(m, k, n) in &[
        (1, 1, 1),
        (7, 13, 5),
        (65, 129, 33),
        (40, 300, 50),
        (131, 520, 97),
        (300, 257, 301),
    ] {
        for dtype in [DType::F32, DType::F64] {
            check_float(random(&[m, k], dtype, 3), random(&[k, n], dtype, 4));
        }
    }
}

#[test]
fn every_float_dtype() {
    for dtype in [DType::F64, DType::F32, DType::F16, DType::BF16] {
        check_float(random(&[3, 9], dtype, 5), random(&[9, 4], dtype, 6));
        check_float(
            random(&[2, 70, 90], dtype, 7),
            random(&[2, 90, 60], dtype, 8),
        );
    }
}

#[test]
fn half_precision_accumulates_in_f32_and_rounds_once() {
    // 1 + 2048·2⁻¹² = 1.5: every partial sum 1 + j·2⁻¹² lies below f16's
    // spacing 2⁻¹⁰ above 1, so accumulating in f16 would stay at 1.0.
    let k = 2049;
    let mut a = vec![2f64.powi(-12); k];
    a[0] = 1.0;
    for dtype in [DType::F16, DType::BF16] {
        let lhs = floats(a.clone(), &[1, k], dtype);
        let rhs = floats(vec![1.0; k], &[k, 1], dtype);
        let out = float_result(Flex::float_matmul(lhs.clone(), rhs.clone()));
        out.assert_eq(
            &TensorData::new(vec![1.5f64], [1, 1]).convert_dtype(dtype),
            true,
        );
        // The same through the blocked path (rows and columns above the direct limit).
        let lhs = Flex::float_expand(lhs, Shape::from([8, k]));
        let rhs = Flex::float_expand(rhs, Shape::from([k, 24]));
        let out = float_result(Flex::float_matmul(lhs, rhs));
        out.assert_eq(
            &TensorData::new(vec![1.5f64; 8 * 24], [8, 24]).convert_dtype(dtype),
            true,
        );
    }
}

#[test]
fn zero_inner_dim_gives_zeros() {
    for dtype in [DType::F32, DType::F16] {
        let out = float_result(Flex::float_matmul(
            random(&[3, 0], dtype, 1),
            random(&[0, 4], dtype, 2),
        ));
        out.assert_eq(
            &TensorData::new(vec![0f32; 12], [3, 4]).convert_dtype(dtype),
            true,
        );
    }
    let out = Flex::int_into_data(Flex::int_matmul(
        ints(vec![], &[2, 2, 0], DType::I32),
        ints(vec![], &[0, 3], DType::I32),
    ))
    .unwrap();
    out.assert_eq(&TensorData::new(vec![0i32; 12], [2, 2, 3]), true);
}

#[test]
fn empty_rows_columns_and_batches() {
    let cases: [(&[usize], &[usize], &[usize]); 3] = [
        (&[0, 5], &[5, 3], &[0, 3]),
        (&[4, 5], &[5, 0], &[4, 0]),
        (&[0, 2, 5], &[1, 5, 3], &[0, 2, 3]),
    ];
    for (sa, sb, so) in cases {
        let out = float_result(Flex::float_matmul(
            random(sa, DType::F32, 1),
            random(sb, DType::F32, 2),
        ));
        assert_eq!(out.shape, Shape::from(so.to_vec()));
        assert_eq!(out.num_elements(), 0);
    }
}

#[test]
fn transposed_operands() {
    // Aᵀ and Bᵀ stored row-major and permuted back: packing reads both
    // column-major; small sizes exercise the direct path's dot form.
    for &(m, k, n) in &[(5, 7, 6), (70, 90, 110), (260, 300, 130)] {
        for dtype in [DType::F32, DType::F64] {
            let at = Flex::float_permute(random(&[k, m], dtype, 11), &[1, 0]);
            let bt = Flex::float_permute(random(&[n, k], dtype, 12), &[1, 0]);
            check_float(at.clone(), random(&[k, n], dtype, 13));
            check_float(random(&[m, k], dtype, 14), bt.clone());
            check_float(at, bt);
        }
    }
}

#[test]
fn sliced_and_flipped_operands() {
    let dtype = DType::F32;
    // Every other row and column of a larger tensor, and a reversed one.
    let a = Flex::float_slice(
        random(&[2 * 33, 3 * 40], dtype, 21),
        &[Slice::new(0, None, 2), Slice::new(1, None, 3)],
    );
    let b = Flex::float_flip(random(&[40, 29], dtype, 22), &[0, 1]);
    assert_eq!(a.shape(), Shape::from([33, 40]));
    check_float(a.clone(), b.clone());
    // Negative steps on a batch and on columns.
    let c = Flex::float_slice(
        random(&[3, 40, 50], dtype, 23),
        &[
            Slice::new(0, None, -1),
            Slice::full(),
            Slice::new(0, None, -2),
        ],
    );
    check_float(Flex::float_expand(a, Shape::from([3, 33, 40])), c);
}

#[test]
fn expanded_batch_shares_one_matrix() {
    // The rhs batch is a stride-0 broadcast of one matrix; the lhs batch
    // is a stride-0 broadcast too, in the other operand.
    for dtype in [DType::F32, DType::F64, DType::BF16] {
        let a = random(&[6, 20, 30], dtype, 31);
        let b = Flex::float_expand(random(&[30, 25], dtype, 32), Shape::from([6, 30, 25]));
        check_float(a, b);
        let a = Flex::float_expand(random(&[1, 64, 48], dtype, 33), Shape::from([5, 64, 48]));
        check_float(a, random(&[5, 48, 40], dtype, 34));
    }
}

#[test]
fn broadcast_batch_dims() {
    // [2, 1, m, k] x [3, k, n] -> [2, 3, m, n], small and blocked sizes.
    for &(m, k, n) in &[(3, 4, 5), (40, 50, 60)] {
        let a = random(&[2, 1, m, k], DType::F32, 41);
        let b = random(&[3, k, n], DType::F32, 42);
        let out = Flex::float_matmul(a.clone(), b.clone());
        assert_eq!(out.shape(), Shape::from([2, 3, m, n]));
        check_float(a, b);
    }
    // Hand-worked: lhs [2, 1, 1, 2] against rhs [2, 2, 1].
    // a0 = [1, 2], a1 = [3, 4]; b0 = [1, 1]ᵀ, b1 = [1, -1]ᵀ
    // -> [[3, -1], [7, -1]]
    let a = floats(vec![1.0, 2.0, 3.0, 4.0], &[2, 1, 1, 2], DType::F32);
    let b = floats(vec![1.0, 1.0, 1.0, -1.0], &[2, 2, 1], DType::F32);
    let out = float_result(Flex::float_matmul(a, b));
    out.assert_eq(
        &TensorData::new(vec![3.0f32, -1.0, 7.0, -1.0], [2, 2, 1, 1]),
        true,
    );
}

#[test]
fn thin_shapes_vector_products() {
    // One row (vector · matrix) with row- and column-major rhs; one column.
    for dtype in [DType::F32, DType::F64] {
        check_float(random(&[1, 700], dtype, 51), random(&[700, 300], dtype, 52));
        let wt = Flex::float_permute(random(&[300, 700], dtype, 53), &[1, 0]);
        check_float(random(&[1, 700], dtype, 54), wt);
        check_float(random(&[300, 700], dtype, 55), random(&[700, 1], dtype, 56));
        check_float(random(&[2, 500], dtype, 57), random(&[500, 2], dtype, 58));
    }
}

#[test]
fn non_finite_values_propagate() {
    // Row 0 of A holds inf: row 0 of C is ±inf, or NaN where it meets a 0.
    // Padding of edge tiles must not leak NaN into other rows.
    for &(m, k, n) in &[(3, 2, 2), (13, 40, 37)] {
        let mut va = values(m * k, 61);
        va[0] = f64::INFINITY;
        let mut vb = values(k * n, 62);
        vb[1] = 0.0;
        for dtype in [DType::F32, DType::F64] {
            let (a, b) = (
                floats(va.clone(), &[m, k], dtype),
                floats(vb.clone(), &[k, n], dtype),
            );
            let out: Vec<f64> = float_result(Flex::float_matmul(a.clone(), b.clone()))
                .iter::<f64>()
                .collect();
            assert!(out[1].is_nan(), "inf·0 must give NaN, got {}", out[1]);
            assert!(out[0].is_infinite());
            assert!(out[n..].iter().all(|v| v.is_finite()));
            check_float(a, b);
        }
    }
}

#[test]
fn repeated_runs_are_bit_identical() {
    let (a, b) = (
        random(&[300, 500], DType::F32, 71),
        random(&[500, 400], DType::F32, 72),
    );
    let first = float_result(Flex::float_matmul(a.clone(), b.clone()));
    for _ in 0..3 {
        float_result(Flex::float_matmul(a.clone(), b.clone())).assert_eq(&first, true);
    }
    // The same matrix inside a batch (one matrix per task) gives the same bits
    // as alone (split across threads).
    let batch_a = Flex::float_expand(
        Flex::float_reshape(a, Shape::from([1, 300, 500])),
        Shape::from([8, 300, 500]),
    );
    let batched = float_result(Flex::float_matmul(batch_a, b));
    let bits: Vec<u32> = batched.iter::<f32>().map(f32::to_bits).collect();
    let one: Vec<u32> = first.iter::<f32>().map(f32::to_bits).collect();
    for chunk in bits.chunks(one.len()) {
        assert!(
            chunk == one.as_slice(),
            "batched result differs from the single product"
        );
    }
}

#[cfg(feature = "threads")]
#[test]
fn results_do_not_depend_on_thread_count() {
    let run = |threads: usize| {
        burn_flex::threads::with_threads(threads, || {
            let (a, b) = (
                random(&[257, 600], DType::F32, 81),
                random(&[600, 333], DType::F32, 82),
            );
            let bt = Flex::float_permute(random(&[333, 600], DType::F64, 83), &[1, 0]);
            let f32_out = float_result(Flex::float_matmul(a, b));
            let f64_out = float_result(Flex::float_matmul(random(&[3, 600], DType::F64, 84), bt));
            // Wide enough (1600 columns, 35 edge ones past the last full
            // panel of 32) for every thread count below to give each thread
            // its own column range; k = 300 takes two k blocks; the
            // transposed right-hand side takes the column-major packing.
            let wide = float_result(Flex::float_matmul(
                random(&[37, 300], DType::F32, 85),
                random(&[300, 1635], DType::F32, 86),
            ));
            let wide_t = Flex::float_permute(random(&[1600, 300], DType::F64, 87), &[1, 0]);
            let wide_t = float_result(Flex::float_matmul(
                random(&[50, 300], DType::F64, 88),
                wide_t,
            ));
            (f32_out, f64_out, wide, wide_t)
        })
    };
    let one = run(1);
    for threads in [2, 3] {
        let got = run(threads);
        got.0.assert_eq(&one.0, true);
        got.1.assert_eq(&one.1, true);
        got.2.assert_eq(&one.2, true);
        got.3.assert_eq(&one.3, true);
    }
    // Columns split across threads against the f64 definition.
    burn_flex::threads::with_threads(2, || {
        check_float(
            random(&[37, 300], DType::F32, 85),
            random(&[300, 1635], DType::F32, 86),
        );
        check_float(
            random(&[50, 300], DType::F64, 88),
            Flex::float_permute(random(&[1600, 300], DType::F64, 87), &[1, 0]),
        );
    });
}

/// Row-major f32 and f64 left operands are read in place by 6×64 and 6×32
/// kernels where the CPU has AVX-512 (the blocked path elsewhere): rows
/// past the last group of 6, columns past the last panel, three k blocks,
/// a left operand sliced out of a wider one at an offset, and every way
/// threads split the work (columns, rows, none), against the f64
/// definition and bit-identical for any thread count.
#[cfg(feature = "threads")]
#[test]
fn row_major_left_operand_read_in_place() {
    let cases = |threads: usize| {
        burn_flex::threads::with_threads(threads, || {
            let mut outs = Vec::new();
            for dtype in [DType::F32, DType::F64] {
                // Rows 3..48 and columns 5..1105 of a 50×1200 matrix: row
                // stride 1200, offset 3·1200 + 5, k = 1100 (three blocks).
                let a = Flex::float_slice(
                    random(&[50, 1200], dtype, 91),
                    &[Slice::new(3, Some(48), 1), Slice::new(5, Some(1105), 1)],
                );
                assert_eq!(a.shape(), Shape::from([45, 1100]));
                // f32: 4, 2 and 1 panels of 64; f64: 7, 3 and 2 of 32.
                for n in [200, 70, 64] {
                    let b = random(&[1100, n], dtype, 92 + n as u64);
                    check_float(a.clone(), b.clone());
                    outs.push(float_result(Flex::float_matmul(a.clone(), b)));
                }
            }
            outs
        })
    };
    let one = cases(1);
    for threads in [2, 3] {
        for (got, want) in cases(threads).iter().zip(&one) {
            got.assert_eq(want, true);
        }
    }
}

#[test]
#[should_panic(expected = "matmul: lhs dtype f32 and rhs dtype f64 differ")]
fn dtype_mismatch_panics() {
    Flex::float_matmul(
        random(&[2, 2], DType::F32, 1),
        random(&[2, 2], DType::F64, 2),
    );
}

#[test]
#[should_panic(expected = "inner dims differ")]
fn inner_dim_mismatch_panics() {
    Flex::float_matmul(
        random(&[2, 3], DType::F32, 1),
        random(&[4, 2], DType::F32, 2),
    );
}

#[test]
#[should_panic(expected = "cannot be broadcast together")]
fn incompatible_batch_dims_panic() {
    Flex::float_matmul(
        random(&[2, 3, 4], DType::F32, 1),
        random(&[3, 4, 5], DType::F32, 2),
    );
}

#[test]
#[should_panic(expected = "at least 2 dims")]
fn rank_one_operand_panics() {
    Flex::float_matmul(random(&[3], DType::F32, 1), random(&[3, 2], DType::F32, 2));
}
