#![cfg(any(feature = "wgpu", feature = "cuda"))]
//! Reductions, scans and sort of the CubeCL backend, against values worked by
//! hand or by plain loops over the same data.

use std::cmp::Ordering;

use burn_backend::kernels::{ReduceKernels, SortKernels};
use burn_backend::{Backend, BoolTensorOps, FloatTensorOps, IntTensorOps};
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{DType, Shape, Slice, TensorData};

fn dev() -> CubeDevice {
    CubeDevice::default()
}

fn ft(values: Vec<f32>, shape: &[usize]) -> CubeTensor {
    CubeBackend::float_from_data(TensorData::new(values, Shape::from(shape.to_vec())), &dev())
}

fn it(values: Vec<i32>, shape: &[usize]) -> CubeTensor {
    CubeBackend::int_from_data(TensorData::new(values, Shape::from(shape.to_vec())), &dev())
}

fn shape_of(data: &TensorData) -> Vec<usize> {
    data.shape.dims.clone()
}

/// Values and shape of a float tensor.
fn fv(t: CubeTensor) -> (Vec<f32>, Vec<usize>) {
    let d = CubeBackend::float_into_data(t).unwrap();
    (d.to_vec::<f32>().unwrap(), shape_of(&d))
}

/// Values (as i64) and shape of an int tensor of any int dtype.
fn iv(t: CubeTensor) -> (Vec<i64>, Vec<usize>) {
    let d = CubeBackend::int_into_data(t).unwrap();
    let shape = shape_of(&d);
    let v = match d.dtype {
        DType::I64 => d.to_vec::<i64>().unwrap(),
        DType::I32 => d
            .to_vec::<i32>()
            .unwrap()
            .into_iter()
            .map(i64::from)
            .collect(),
        other => panic!("unexpected index dtype {other:?}"),
    };
    (v, shape)
}

/// Equality with a short message: the first differing element.
#[track_caller]
fn assert_same<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths differ");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        let lo = i.saturating_sub(3);
        let hi = (i + 4).min(got.len());
        panic!(
            "{what}: first difference at {i}: got {:?}, want {:?} (elements {lo}..{hi})",
            &got[lo..hi],
            &want[lo..hi]
        );
    }
}

#[track_caller]
fn assert_close(got: &[f32], want: &[f32], tol: f32) {
    assert_eq!(got.len(), want.len(), "lengths differ: {got:?} vs {want:?}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= tol * w.abs().max(1.0);
        assert!(ok, "element {i}: got {g}, want {w}");
    }
}

/// Pseudo-random values in `-range..range` (a fixed LCG).
fn noise(n: usize, range: i32, seed: u64) -> Vec<i32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % (2 * range as u64)) as i32 - range
        })
        .collect()
}

/// Row-major strides.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// The lines of row-major `data` of `shape` along `dim`, in row-major
/// order of the other dims, with the flat index of each element.
fn lines_of<T: Copy>(data: &[T], shape: &[usize], dim: usize) -> Vec<Vec<(usize, T)>> {
    let st = strides(shape);
    let n: usize = shape.iter().product();
    let len = shape[dim];
    let mut out = Vec::new();
    for flat in 0..n {
        if !(flat / st[dim]).is_multiple_of(len) {
            continue;
        }
        out.push(
            (0..len)
                .map(|k| (flat + k * st[dim], data[flat + k * st[dim]]))
                .collect(),
        );
    }
    out
}

fn host_fold(line: &[f32], op: &str) -> f32 {
    match op {
        "sum" => line.iter().map(|&x| x as f64).sum::<f64>() as f32,
        "prod" => line.iter().map(|&x| x as f64).product::<f64>() as f32,
        "max" => line.iter().fold(
            f32::NEG_INFINITY,
            |a, &b| if b.is_nan() || b > a { b } else { a },
        ),
        "min" => line.iter().fold(
            f32::INFINITY,
            |a, &b| if b.is_nan() || b < a { b } else { a },
        ),
        _ => unreachable!(),
    }
}

fn reduce_dim_op(t: CubeTensor, dim: usize, op: &str) -> CubeTensor {
    match op {
        "sum" => CubeBackend::float_sum_dim(t, dim),
        "prod" => CubeBackend::float_prod_dim(t, dim),
        "max" => CubeBackend::float_max_dim(t, dim),
        "min" => CubeBackend::float_min_dim(t, dim),
        _ => unreachable!(),
    }
}

/// Checks every reduction of `t` (whose values, row-major, are `data` of
/// `shape`) along every dim against the host.
fn check_all_dims(make: impl Fn() -> CubeTensor, data: &[f32], shape: &[usize], tol: f32) {
    for dim in 0..shape.len() {
        for op in ["sum", "prod", "max", "min"] {
            let want: Vec<f32> = lines_of(data, shape, dim)
                .iter()
                .map(|l| host_fold(&l.iter().map(|p| p.1).collect::<Vec<_>>(), op))
                .collect();
            let (got, got_shape) = fv(reduce_dim_op(make(), dim, op));
            let mut want_shape = shape.to_vec();
            want_shape[dim] = 1;
            assert_eq!(got_shape, want_shape, "{op} dim {dim}");
            assert_close(&got, &want, tol);
        }
    }
}

// ---------------------------------------------------------------- reduce_all

#[test]
fn reduce_all_small_by_hand() {
    let x = || ft(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
    assert_eq!(fv(CubeBackend::float_sum(x())), (vec![21.0], vec![1]));
    assert_eq!(fv(CubeBackend::float_prod(x())), (vec![720.0], vec![1]));
    assert_eq!(fv(CubeBackend::float_max(x())), (vec![6.0], vec![1]));
    assert_eq!(fv(CubeBackend::float_min(x())), (vec![1.0], vec![1]));
    // Transposed and sliced views.
    assert_eq!(
        fv(CubeBackend::float_sum(CubeBackend::float_permute(
            x(),
            &[1, 0]
        )))
        .0,
        vec![21.0]
    );
    let sliced = CubeBackend::float_slice(x(), &[Slice::new(0, None, 1), Slice::new(1, None, 1)]);
    assert_eq!(fv(CubeBackend::float_sum(sliced)).0, vec![16.0]);
    // mean is a trait default over sum.
    assert_eq!(fv(CubeBackend::float_mean(x())).0, vec![3.5]);
    // NaN propagates through max/min and sum.
    let n = || ft(vec![1.0, f32::NAN, 3.0], &[3]);
    assert!(fv(CubeBackend::float_max(n())).0[0].is_nan());
    assert!(fv(CubeBackend::float_min(n())).0[0].is_nan());
    assert!(fv(CubeBackend::float_sum(n())).0[0].is_nan());
    // -inf everywhere: the identity of max does not leak.
    let m = ft(vec![f32::NEG_INFINITY; 3], &[3]);
    assert_eq!(fv(CubeBackend::float_max(m)).0, vec![f32::NEG_INFINITY]);
}

#[test]
fn reduce_all_empty() {
    let e = || ft(vec![], &[0, 3]);
    assert_eq!(fv(CubeBackend::float_sum(e())), (vec![0.0], vec![1]));
    assert_eq!(fv(CubeBackend::float_prod(e())), (vec![1.0], vec![1]));
}

#[test]
#[should_panic(expected = "max: cannot reduce an empty tensor")]
fn reduce_all_max_of_empty_panics() {
    let _ = CubeBackend::float_max(ft(vec![], &[0, 3]));
}

#[test]
fn reduce_all_large_two_passes() {
    // Not a multiple of any vector size; exact in f32 (small integers).
    let n = 1_000_003;
    let ints = noise(n, 4, 7);
    let data: Vec<f32> = ints.iter().map(|&v| v as f32).collect();
    let exact: i64 = ints.iter().map(|&v| v as i64).sum();
    let x = || ft(data.clone(), &[n]);
    assert_eq!(fv(CubeBackend::float_sum(x())).0, vec![exact as f32]);
    assert_eq!(fv(CubeBackend::float_max(x())).0, vec![3.0]);
    assert_eq!(fv(CubeBackend::float_min(x())).0, vec![-4.0]);
    // A view starting at an odd offset.
    let s = CubeBackend::float_slice(x(), &[Slice::new(1, Some(n as isize - 2), 1)]);
    let want: i64 = ints[1..n - 2].iter().map(|&v| v as i64).sum();
    assert_eq!(fv(CubeBackend::float_sum(s)).0, vec![want as f32]);
    // One NaN far in.
    let mut with_nan = data.clone();
    with_nan[777_777] = f32::NAN;
    assert!(fv(CubeBackend::float_max(ft(with_nan.clone(), &[n]))).0[0].is_nan());
    assert!(fv(CubeBackend::float_min(ft(with_nan, &[n]))).0[0].is_nan());
    // Sum of ones over a 2-d tensor of 4 Mi elements.
    let ones = CubeBackend::float_full(
        Shape::new([2048, 2048]),
        burn_std::Scalar::Float(1.0),
        &dev(),
        DType::F32,
    );
    assert_eq!(fv(CubeBackend::float_sum(ones)).0, vec![4_194_304.0]);
}

#[test]
fn reduce_all_ints() {
    let x = it(vec![i32::MAX, 1], &[2]);
    assert_eq!(
        iv(CubeBackend::int_sum(x)).0,
        vec![i32::MIN as i64],
        "sum wraps"
    );
    let y = || it(vec![-3, 7, 2, -8], &[2, 2]);
    assert_eq!(iv(CubeBackend::int_sum(y())), (vec![-2], vec![1]));
    assert_eq!(iv(CubeBackend::int_prod(y())).0, vec![336]);
    assert_eq!(iv(CubeBackend::int_max(y())).0, vec![7]);
    assert_eq!(iv(CubeBackend::int_min(y())).0, vec![-8]);
    assert_eq!(iv(CubeBackend::int_mean(y())).0, vec![-1], "floor of -0.5");
    let z = it(vec![i32::MIN, i32::MIN], &[2]);
    assert_eq!(iv(CubeBackend::int_max(z)).0, vec![i32::MIN as i64]);
}

// ---------------------------------------------------------------- reduce_dim

#[test]
fn reduce_dim_by_hand() {
    let x = || ft(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
    assert_eq!(
        fv(CubeBackend::float_sum_dim(x(), 0)),
        (vec![5.0, 7.0, 9.0], vec![1, 3])
    );
    assert_eq!(
        fv(CubeBackend::float_sum_dim(x(), 1)),
        (vec![6.0, 15.0], vec![2, 1])
    );
    assert_eq!(fv(CubeBackend::float_prod_dim(x(), 1)).0, vec![6.0, 120.0]);
    assert_eq!(
        fv(CubeBackend::float_max_dim(x(), 0)).0,
        vec![4.0, 5.0, 6.0]
    );
    assert_eq!(fv(CubeBackend::float_min_dim(x(), 1)).0, vec![1.0, 4.0]);
    assert_eq!(fv(CubeBackend::float_mean_dim(x(), 1)).0, vec![2.0, 5.0]);
    let n = ft(vec![1.0, f32::NAN, 3.0, 4.0], &[2, 2]);
    let (m, _) = fv(CubeBackend::float_max_dim(n, 1));
    assert!(m[0].is_nan() && m[1] == 4.0, "{m:?}");
    let inf = ft(
        vec![
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
            f32::INFINITY,
            f32::INFINITY,
        ],
        &[2, 2],
    );
    assert_eq!(
        fv(CubeBackend::float_max_dim(inf.clone(), 1)).0,
        vec![f32::NEG_INFINITY, f32::INFINITY]
    );
    assert_eq!(
        fv(CubeBackend::float_min_dim(inf, 1)).0,
        vec![f32::NEG_INFINITY, f32::INFINITY]
    );
    // A dim of size 0: sum 0, prod 1; no outputs at all: empty.
    let e = || ft(vec![], &[2, 0]);
    assert_eq!(
        fv(CubeBackend::float_sum_dim(e(), 1)),
        (vec![0.0, 0.0], vec![2, 1])
    );
    assert_eq!(fv(CubeBackend::float_prod_dim(e(), 1)).0, vec![1.0, 1.0]);
    assert_eq!(fv(CubeBackend::float_sum_dim(e(), 0)), (vec![], vec![1, 0]));
}

#[test]
#[should_panic(expected = "max_dim: cannot reduce dim 1 of size 0")]
fn reduce_dim_max_of_empty_dim_panics() {
    let _ = CubeBackend::float_max_dim(ft(vec![], &[2, 0]), 1);
}

#[test]
#[should_panic(expected = "sum_dim: dim 2 is out of range")]
fn reduce_dim_out_of_range_panics() {
    let _ = CubeBackend::float_sum_dim(ft(vec![1.0; 4], &[2, 2]), 2);
}

#[test]
fn reduce_dim_3d_every_dim_and_views() {
    let shape = [3, 4, 5];
    let data: Vec<f32> = noise(60, 5, 1)
        .into_iter()
        .map(|v| v as f32 * 0.5)
        .collect();
    check_all_dims(|| ft(data.clone(), &shape), &data, &shape, 1e-6);

    // A permuted view: values of the permuted tensor, row-major.
    let perm = [2, 0, 1];
    let pshape = [5, 3, 4];
    let st = strides(&shape);
    let mut pdata = Vec::new();
    for a in 0..5 {
        for b in 0..3 {
            for c in 0..4 {
                pdata.push(data[b * st[0] + c * st[1] + a * st[2]]);
            }
        }
    }
    check_all_dims(
        || CubeBackend::float_permute(ft(data.clone(), &shape), &perm),
        &pdata,
        &pshape,
        1e-6,
    );

    // A sliced view with steps: [0..3, 1..4 step 2, 0..5 step 2].
    let sshape = [3, 2, 3];
    let mut sdata = Vec::new();
    for a in 0..3 {
        for b in [1, 3] {
            for c in [0, 2, 4] {
                sdata.push(data[a * st[0] + b * st[1] + c * st[2]]);
            }
        }
    }
    check_all_dims(
        || {
            CubeBackend::float_slice(
                ft(data.clone(), &shape),
                &[
                    Slice::new(0, None, 1),
                    Slice::new(1, None, 2),
                    Slice::new(0, None, 2),
                ],
            )
        },
        &sdata,
        &sshape,
        1e-6,
    );
}

#[test]
fn reduce_dim_long_rows() {
    // Rows longer than a cube: the cube-per-line path, vectorized or not.
    let (rows, cols) = (3, 5000);
    let ints = noise(rows * cols, 8, 2);
    let data: Vec<f32> = ints.iter().map(|&v| v as f32).collect();
    let x = || ft(data.clone(), &[rows, cols]);
    let want: Vec<f32> = (0..rows)
        .map(|r| ints[r * cols..(r + 1) * cols].iter().sum::<i32>() as f32)
        .collect();
    assert_eq!(
        fv(CubeBackend::float_sum_dim(x(), 1)),
        (want, vec![rows, 1])
    );
    let want_max: Vec<f32> = (0..rows)
        .map(|r| *ints[r * cols..(r + 1) * cols].iter().max().unwrap() as f32)
        .collect();
    assert_eq!(fv(CubeBackend::float_max_dim(x(), 1)).0, want_max);
    // Views starting at odd offsets, of odd and even lengths.
    for (start, end) in [(1usize, 4999usize), (1, 5000), (2, 4998)] {
        let s = CubeBackend::float_slice(
            x(),
            &[
                Slice::new(0, None, 1),
                Slice::new(start as isize, Some(end as isize), 1),
            ],
        );
        let want: Vec<f32> = (0..rows)
            .map(|r| ints[r * cols + start..r * cols + end].iter().sum::<i32>() as f32)
            .collect();
        assert_eq!(
            fv(CubeBackend::float_sum_dim(s, 1)).0,
            want,
            "slice {start}..{end}"
        );
    }
    // NaN and -inf in long rows.
    let mut special = data.clone();
    special[cols + 4321] = f32::NAN;
    special[2 * cols + 17] = f32::NEG_INFINITY;
    let (mx, _) = fv(CubeBackend::float_max_dim(
        ft(special.clone(), &[rows, cols]),
        1,
    ));
    assert!(
        mx[1].is_nan() && mx[0] == want_max[0] && mx[2] == want_max[2],
        "{mx:?}"
    );
    let (mn, _) = fv(CubeBackend::float_min_dim(ft(special, &[rows, cols]), 1));
    assert!(mn[1].is_nan() && mn[2] == f32::NEG_INFINITY, "{mn:?}");
    // Float sum of fractions, against an f64 host sum.
    let frac: Vec<f32> = (0..rows * cols)
        .map(|i| ((i % 97) as f32) * 0.013 - 0.5)
        .collect();
    let want: Vec<f32> = (0..rows)
        .map(|r| host_fold(&frac[r * cols..(r + 1) * cols], "sum"))
        .collect();
    assert_close(
        &fv(CubeBackend::float_sum_dim(ft(frac, &[rows, cols]), 1)).0,
        &want,
        1e-5,
    );
}

#[test]
fn reduce_dim_long_strided_dim() {
    // Few outputs along a long strided dim: lines cut into chunks.
    let (rows, cols) = (5000, 3);
    let ints = noise(rows * cols, 8, 3);
    let data: Vec<f32> = ints.iter().map(|&v| v as f32).collect();
    let x = || ft(data.clone(), &[rows, cols]);
    let want: Vec<f32> = (0..cols)
        .map(|c| (0..rows).map(|r| ints[r * cols + c]).sum::<i32>() as f32)
        .collect();
    assert_eq!(
        fv(CubeBackend::float_sum_dim(x(), 0)),
        (want, vec![1, cols])
    );
    let want_min: Vec<f32> = (0..cols)
        .map(|c| (0..rows).map(|r| ints[r * cols + c]).min().unwrap() as f32)
        .collect();
    assert_eq!(fv(CubeBackend::float_min_dim(x(), 0)).0, want_min);
    let mut with_nan = data.clone();
    with_nan[4000 * cols + 1] = f32::NAN;
    let (m, _) = fv(CubeBackend::float_max_dim(ft(with_nan, &[rows, cols]), 0));
    assert!(!m[0].is_nan() && m[1].is_nan() && !m[2].is_nan(), "{m:?}");
    // The transposed tensor reduced along its last dim (stride 3).
    let t = CubeBackend::float_permute(x(), &[1, 0]);
    let want: Vec<f32> = (0..cols)
        .map(|c| (0..rows).map(|r| ints[r * cols + c]).sum::<i32>() as f32)
        .collect();
    assert_eq!(fv(CubeBackend::float_sum_dim(t, 1)), (want, vec![cols, 1]));
}

#[test]
fn reduce_dim_ints() {
    let x = || it(vec![i32::MAX, 1, -5, 2, 3, -7], &[2, 3]);
    assert_eq!(
        iv(CubeBackend::int_sum_dim(x(), 1)).0,
        vec![i32::MAX as i64 - 4, -2]
    );
    assert_eq!(
        iv(CubeBackend::int_sum_dim(x(), 0)).0,
        vec![i32::MAX as i64 + 2 - (1i64 << 32), 4, -12]
    );
    assert_eq!(
        iv(CubeBackend::int_max_dim(x(), 1)).0,
        vec![i32::MAX as i64, 3]
    );
    assert_eq!(iv(CubeBackend::int_min_dim(x(), 0)).0, vec![2, 1, -7]);
    assert_eq!(
        iv(CubeBackend::int_prod_dim(x(), 0)).0,
        vec![(i32::MAX as i64 * 2) as i32 as i64, 3, 35]
    );
    // Long int rows (cube path).
    let ints = noise(2 * 3000, 100, 4);
    let want: Vec<i64> = (0..2)
        .map(|r| {
            ints[r * 3000..(r + 1) * 3000]
                .iter()
                .map(|&v| v as i64)
                .sum()
        })
        .collect();
    assert_eq!(
        iv(CubeBackend::int_sum_dim(it(ints.clone(), &[2, 3000]), 1)).0,
        want
    );
    let want: Vec<i64> = (0..2)
        .map(|r| *ints[r * 3000..(r + 1) * 3000].iter().min().unwrap() as i64)
        .collect();
    assert_eq!(
        iv(CubeBackend::int_min_dim(it(ints, &[2, 3000]), 1)).0,
        want
    );
}

// ----------------------------------------------------------------- arg_reduce

#[test]
fn argmax_argmin_by_hand() {
    let x = || ft(vec![2.0, 9.0, 9.0, -1.0, -1.0], &[5]);
    assert_eq!(iv(CubeBackend::float_argmax(x(), 0)), (vec![1], vec![1]));
    assert_eq!(iv(CubeBackend::float_argmin(x(), 0)), (vec![3], vec![1]));
    // NaN wins both ways, the first one.
    let n = || ft(vec![1.0, f32::NAN, 5.0, f32::NAN], &[4]);
    assert_eq!(iv(CubeBackend::float_argmax(n(), 0)).0, vec![1]);
    assert_eq!(iv(CubeBackend::float_argmin(n(), 0)).0, vec![1]);
    // -0.0 equals 0.0: the first.
    let z = ft(vec![-1.0, 0.0, -0.0], &[3]);
    assert_eq!(iv(CubeBackend::float_argmax(z, 0)).0, vec![1]);
    // Columns and a transposed view.
    let m = || ft(vec![1.0, 5.0, -2.0, 7.0, 0.0, 7.5], &[2, 3]);
    assert_eq!(
        iv(CubeBackend::float_argmax(m(), 1)),
        (vec![1, 2], vec![2, 1])
    );
    assert_eq!(
        iv(CubeBackend::float_argmin(m(), 0)),
        (vec![0, 1, 0], vec![1, 3])
    );
    let t = CubeBackend::float_permute(m(), &[1, 0]);
    assert_eq!(iv(CubeBackend::float_argmax(t, 0)).0, vec![1, 2]);
    let i = || it(vec![3, 9, 9, 1, -4, -8, 0, -8], &[2, 4]);
    assert_eq!(iv(CubeBackend::int_argmax(i(), 1)).0, vec![1, 2]);
    assert_eq!(iv(CubeBackend::int_argmin(i(), 1)).0, vec![3, 1]);
}

#[test]
#[should_panic(expected = "argmax: dim 2 is out of range")]
fn argmax_out_of_range_panics() {
    let _ = CubeBackend::float_argmax(ft(vec![1.0; 4], &[2, 2]), 2);
}

#[test]
#[should_panic(expected = "argmin: cannot reduce dim 0 of size 0")]
fn argmin_of_empty_dim_panics() {
    let _ = CubeBackend::float_argmin(ft(vec![], &[0, 2]), 0);
}

/// Host argmax/argmin: first extreme, first NaN wins.
fn host_arg(line: &[f32], max: bool) -> i64 {
    let mut best = line[0];
    let mut bi = 0;
    for (i, &v) in line.iter().enumerate().skip(1) {
        let take = !best.is_nan() && (v.is_nan() || if max { v > best } else { v < best });
        if take {
            best = v;
            bi = i;
        }
    }
    bi as i64
}

#[test]
fn arg_reduce_3d_every_dim_and_long_lines() {
    let shape = [3, 4, 5];
    let data: Vec<f32> = noise(60, 3, 9).into_iter().map(|v| v as f32).collect();
    let perm_shape = [5, 3, 4];
    let st = strides(&shape);
    let mut pdata = Vec::new();
    for a in 0..5 {
        for b in 0..3 {
            for c in 0..4 {
                pdata.push(data[b * st[0] + c * st[1] + a * st[2]]);
            }
        }
    }
    for max in [true, false] {
        for dim in 0..3 {
            let want: Vec<i64> = lines_of(&data, &shape, dim)
                .iter()
                .map(|l| host_arg(&l.iter().map(|p| p.1).collect::<Vec<_>>(), max))
                .collect();
            let x = ft(data.clone(), &shape);
            let got = if max {
                CubeBackend::float_argmax(x, dim)
            } else {
                CubeBackend::float_argmin(x, dim)
            };
            assert_eq!(iv(got).0, want, "max {max} dim {dim}");
            let want: Vec<i64> = lines_of(&pdata, &perm_shape, dim)
                .iter()
                .map(|l| host_arg(&l.iter().map(|p| p.1).collect::<Vec<_>>(), max))
                .collect();
            let x = CubeBackend::float_permute(ft(data.clone(), &shape), &[2, 0, 1]);
            let got = if max {
                CubeBackend::float_argmax(x, dim)
            } else {
                CubeBackend::float_argmin(x, dim)
            };
            assert_eq!(iv(got).0, want, "permuted, max {max} dim {dim}");
        }
    }
    // Long rows: the extreme at 4321, repeated at 4500; a NaN row.
    let cols = 5000;
    let mut long: Vec<f32> = noise(3 * cols, 50, 11)
        .into_iter()
        .map(|v| v as f32)
        .collect();
    long[4321] = 100.0;
    long[4500] = 100.0;
    long[cols + 17] = -100.0;
    long[cols + 18] = -100.0;
    long[2 * cols + 3000] = f32::NAN;
    long[2 * cols + 4000] = f32::NAN;
    let x = || ft(long.clone(), &[3, cols]);
    assert_eq!(iv(CubeBackend::float_argmax(x(), 1)).0[0], 4321);
    assert_eq!(iv(CubeBackend::float_argmin(x(), 1)).0[1], 17);
    assert_eq!(iv(CubeBackend::float_argmax(x(), 1)).0[2], 3000);
    assert_eq!(iv(CubeBackend::float_argmin(x(), 1)).0[2], 3000);
    for max in [true, false] {
        let want: Vec<i64> = (0..3)
            .map(|r| host_arg(&long[r * cols..(r + 1) * cols], max))
            .collect();
        let got = if max {
            CubeBackend::float_argmax(x(), 1)
        } else {
            CubeBackend::float_argmin(x(), 1)
        };
        assert_eq!(iv(got).0, want);
        // The same along dim 0 of the transpose.
        let t = CubeBackend::float_permute(x(), &[1, 0]);
        let got = if max {
            CubeBackend::float_argmax(t, 0)
        } else {
            CubeBackend::float_argmin(t, 0)
        };
        assert_eq!(iv(got).0, want);
    }
}

#[test]
fn arg_reduce_long_strided_dim_in_chunks() {
    // Few lines along a long strided dim: chunks, then a pass over the
    // chunks' bests; ties and NaNs across chunk boundaries.
    let (rows, cols) = (5000, 3);
    let mut data: Vec<f32> = noise(rows * cols, 50, 13)
        .into_iter()
        .map(|v| v as f32)
        .collect();
    data[100 * cols] = 99.0;
    data[4000 * cols] = 99.0;
    data[4500 * cols + 1] = f32::NAN;
    data[4600 * cols + 1] = f32::NAN;
    data[10 * cols + 2] = -99.0;
    data[11 * cols + 2] = -99.0;
    data[3000 * cols + 2] = -99.0;
    let x = || ft(data.clone(), &[rows, cols]);
    let column = |c: usize| (0..rows).map(|r| data[r * cols + c]).collect::<Vec<_>>();
    for max in [true, false] {
        let want: Vec<i64> = (0..cols).map(|c| host_arg(&column(c), max)).collect();
        let got = if max {
            CubeBackend::float_argmax(x(), 0)
        } else {
            CubeBackend::float_argmin(x(), 0)
        };
        assert_eq!(iv(got), (want, vec![1, cols]), "max {max}");
    }
    assert_eq!(
        iv(CubeBackend::float_argmax(x(), 0)).0,
        vec![100, 4500, host_arg(&column(2), true)]
    );
    assert_eq!(iv(CubeBackend::float_argmin(x(), 0)).0[2], 10);
    // Ints.
    let ints = noise(rows * cols, 1000, 14);
    let k = it(ints.clone(), &[rows, cols]);
    let want: Vec<i64> = (0..cols)
        .map(|c| {
            let col: Vec<i32> = (0..rows).map(|r| ints[r * cols + c]).collect();
            let m = *col.iter().max().unwrap();
            col.iter().position(|&v| v == m).unwrap() as i64
        })
        .collect();
    assert_eq!(iv(CubeBackend::int_argmax(k, 0)).0, want);
}

// ---------------------------------------------------------------- cumulative

#[test]
fn cumulative_by_hand() {
    let x = || ft(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]);
    assert_eq!(
        fv(CubeBackend::float_cumsum(x(), 1)),
        (vec![1.0, 3.0, 6.0, 4.0, 9.0, 15.0], vec![2, 3])
    );
    assert_eq!(
        fv(CubeBackend::float_cumsum(x(), 0)).0,
        vec![1.0, 2.0, 3.0, 5.0, 7.0, 9.0]
    );
    assert_eq!(
        fv(CubeBackend::float_cumprod(x(), 1)).0,
        vec![1.0, 2.0, 6.0, 4.0, 20.0, 120.0]
    );
    let y = || ft(vec![3.0, 1.0, f32::NAN, 5.0, -2.0, 4.0, 0.0, 7.0], &[2, 4]);
    let (m, _) = fv(CubeBackend::float_cummax(y(), 1));
    assert_eq!(&m[..2], &[3.0, 3.0]);
    assert!(m[2].is_nan() && m[3].is_nan(), "{m:?}");
    assert_eq!(&m[4..], &[-2.0, 4.0, 4.0, 7.0]);
    let (m, _) = fv(CubeBackend::float_cummin(y(), 1));
    assert_eq!(&m[..2], &[3.0, 1.0]);
    assert!(m[2].is_nan() && m[3].is_nan(), "{m:?}");
    assert_eq!(&m[4..], &[-2.0, -2.0, -2.0, -2.0]);
    // The first element is kept as is (-0.0 stays -0.0).
    let z = fv(CubeBackend::float_cumsum(ft(vec![-0.0, 1.0], &[2]), 0)).0;
    assert!(
        z[0] == 0.0 && z[0].is_sign_negative() && z[1] == 1.0,
        "{z:?}"
    );
    // A transposed view.
    let t = CubeBackend::float_permute(x(), &[1, 0]);
    assert_eq!(
        fv(CubeBackend::float_cumsum(t, 1)),
        (vec![1.0, 5.0, 2.0, 7.0, 3.0, 9.0], vec![3, 2])
    );
    // Ints wrap.
    let i = it(vec![i32::MAX, 1, 2, -3, 4, 5], &[2, 3]);
    assert_eq!(
        iv(CubeBackend::int_cumsum(i.clone(), 1)).0,
        vec![
            i32::MAX as i64,
            i32::MIN as i64,
            i32::MIN as i64 + 2,
            -3,
            1,
            6
        ]
    );
    assert_eq!(
        iv(CubeBackend::int_cummax(i.clone(), 0)).0,
        vec![i32::MAX as i64, 1, 2, i32::MAX as i64, 4, 5]
    );
    assert_eq!(
        iv(CubeBackend::int_cumprod(i, 0)).0,
        vec![
            i32::MAX as i64,
            1,
            2,
            (i32::MAX as i64 * -3) as i32 as i64,
            4,
            10
        ]
    );
}

fn host_scan(line: &[f32], op: &str) -> Vec<f32> {
    let mut acc = line[0];
    let mut out = vec![acc];
    for &x in &line[1..] {
        acc = match op {
            "sum" => acc + x,
            "prod" => acc * x,
            "max" => {
                if x.is_nan() || x > acc {
                    x
                } else {
                    acc
                }
            }
            "min" => {
                if x.is_nan() || x < acc {
                    x
                } else {
                    acc
                }
            }
            _ => unreachable!(),
        };
        out.push(acc);
    }
    out
}

fn scan_op(t: CubeTensor, dim: usize, op: &str) -> CubeTensor {
    match op {
        "sum" => CubeBackend::float_cumsum(t, dim),
        "prod" => CubeBackend::float_cumprod(t, dim),
        "max" => CubeBackend::float_cummax(t, dim),
        "min" => CubeBackend::float_cummin(t, dim),
        _ => unreachable!(),
    }
}

/// The host scan of row-major `data` of `shape` along `dim`, row-major.
fn host_scan_all(data: &[f32], shape: &[usize], dim: usize, op: &str) -> Vec<f32> {
    let mut out = vec![0.0; data.len()];
    for line in lines_of(data, shape, dim) {
        let vals: Vec<f32> = line.iter().map(|p| p.1).collect();
        for (p, v) in line.iter().zip(host_scan(&vals, op)) {
            out[p.0] = v;
        }
    }
    out
}

#[test]
fn cumulative_3d_and_long_lines() {
    let shape = [3, 4, 5];
    let data: Vec<f32> = noise(60, 4, 5)
        .into_iter()
        .map(|v| v as f32 * 0.5)
        .collect();
    for dim in 0..3 {
        for op in ["sum", "prod", "max", "min"] {
            let want = host_scan_all(&data, &shape, dim, op);
            let (got, s) = fv(scan_op(ft(data.clone(), &shape), dim, op));
            assert_eq!(s, shape.to_vec());
            assert_close(&got, &want, 1e-5);
        }
    }
    // Long lines (one cube per line), along the last dim and a strided dim.
    let (rows, cols) = (3, 5000);
    let ints = noise(rows * cols, 5, 6);
    let data: Vec<f32> = ints.iter().map(|&v| v as f32).collect();
    for op in ["sum", "max", "min"] {
        let want = host_scan_all(&data, &[rows, cols], 1, op);
        assert_eq!(
            fv(scan_op(ft(data.clone(), &[rows, cols]), 1, op)).0,
            want,
            "{op}"
        );
        // The transpose scanned along dim 0: the same lines.
        let t = CubeBackend::float_permute(ft(data.clone(), &[rows, cols]), &[1, 0]);
        let (got, s) = fv(scan_op(t, 0, op));
        assert_eq!(s, vec![cols, rows]);
        let mut want_t = vec![0.0; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                want_t[c * rows + r] = want[r * cols + c];
            }
        }
        assert_eq!(got, want_t, "{op} transposed");
    }
    let mut with_nan = data.clone();
    with_nan[cols + 2500] = f32::NAN;
    let (got, _) = fv(CubeBackend::float_cummax(ft(with_nan, &[rows, cols]), 1));
    assert!(!got[cols + 2499].is_nan());
    assert!(got[cols + 2500..2 * cols].iter().all(|v| v.is_nan()));
    assert!(!got[2 * cols].is_nan());
    // Long int lines.
    let want: Vec<i64> = {
        let mut acc = 0i64;
        ints[..cols]
            .iter()
            .map(|&v| {
                acc += v as i64;
                acc
            })
            .collect()
    };
    let (got, _) = iv(CubeBackend::int_cumsum(
        it(ints[..cols].to_vec(), &[cols]),
        0,
    ));
    assert_eq!(got, want);
}

// ----------------------------------------------------------------------- sort

/// Host stable sort of a line: NaN largest, -0.0 == 0.0.
fn host_sort(line: &[f32], descending: bool) -> (Vec<f32>, Vec<i64>) {
    let key = |a: f32, b: f32| -> Ordering {
        match (a.is_nan(), b.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => a.partial_cmp(&b).unwrap(),
        }
    };
    let mut idx: Vec<usize> = (0..line.len()).collect();
    idx.sort_by(|&i, &j| {
        let o = key(line[i], line[j]);
        if descending { o.reverse() } else { o }
    });
    (
        idx.iter().map(|&i| line[i]).collect(),
        idx.iter().map(|&i| i as i64).collect(),
    )
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Sorts `make()` (row-major `data` of `shape`) along every dim both ways
/// and checks values (bit for bit) and indices against the host.
fn check_sort(make: impl Fn() -> CubeTensor, data: &[f32], shape: &[usize]) {
    for dim in 0..shape.len() {
        for descending in [false, true] {
            let mut want_v = vec![0.0; data.len()];
            let mut want_i = vec![0i64; data.len()];
            for line in lines_of(data, shape, dim) {
                let vals: Vec<f32> = line.iter().map(|p| p.1).collect();
                let (v, i) = host_sort(&vals, descending);
                for (k, p) in line.iter().enumerate() {
                    want_v[p.0] = v[k];
                    want_i[p.0] = i[k];
                }
            }
            let (values, indices) = CubeBackend::float_sort_with_indices(make(), dim, descending);
            let (got_v, s) = fv(values);
            assert_eq!(s, shape.to_vec());
            let (got_i, s) = iv(indices);
            assert_eq!(s, shape.to_vec());
            let what = format!("dim {dim} descending {descending}");
            assert_same(&got_i, &want_i, &format!("indices, {what}"));
            assert_same(&bits(&got_v), &bits(&want_v), &format!("values, {what}"));
        }
    }
}

#[test]
fn sort_by_hand() {
    let x = || ft(vec![2.0, 1.0, 2.0, 0.0, 1.0], &[5]);
    let (v, i) = CubeBackend::float_sort_with_indices(x(), 0, false);
    assert_eq!(fv(v).0, vec![0.0, 1.0, 1.0, 2.0, 2.0]);
    assert_eq!(iv(i).0, vec![3, 1, 4, 0, 2]);
    let (v, i) = CubeBackend::float_sort_with_indices(x(), 0, true);
    assert_eq!(fv(v).0, vec![2.0, 2.0, 1.0, 1.0, 0.0]);
    assert_eq!(iv(i).0, vec![0, 2, 1, 4, 3]);
    // NaN last ascending, first descending, in order; zeros of both signs
    // are equal and keep their order and sign.
    let n = || ft(vec![1.0, f32::NAN, -0.0, 0.0, -1.0, f32::NAN, -0.0], &[7]);
    let (v, i) = CubeBackend::float_sort_with_indices(n(), 0, false);
    assert_eq!(iv(i).0, vec![4, 2, 3, 6, 0, 1, 5]);
    assert_eq!(
        bits(&fv(v).0),
        bits(&[-1.0, -0.0, 0.0, -0.0, 1.0, f32::NAN, f32::NAN])
    );
    let (_, i) = CubeBackend::float_sort_with_indices(n(), 0, true);
    assert_eq!(iv(i).0, vec![1, 5, 0, 2, 3, 6, 4]);
    // Along dim 0, and ints.
    let m = ft(vec![3.0, -1.0, 1.0, 5.0, 2.0, 0.0], &[3, 2]);
    let (v, i) = CubeBackend::float_sort_with_indices(m, 0, false);
    assert_eq!(fv(v).0, vec![1.0, -1.0, 2.0, 0.0, 3.0, 5.0]);
    assert_eq!(iv(i).0, vec![1, 0, 2, 2, 0, 1]);
    let k = it(vec![2, 1, 1, 1, 2, 0], &[3, 2]);
    let (v, i) = CubeBackend::int_sort_with_indices(k, 0, false);
    assert_eq!(iv(v).0, vec![1, 0, 2, 1, 2, 1]);
    assert_eq!(iv(i).0, vec![1, 2, 0, 0, 2, 1]);
    let k = it(vec![5, -1, 3, 3, 0, 9, -7, 2], &[2, 4]);
    let (v, i) = CubeBackend::int_sort_with_indices(k, 1, true);
    assert_eq!(iv(v).0, vec![5, 3, 3, -1, 9, 2, 0, -7]);
    assert_eq!(iv(i).0, vec![0, 2, 3, 1, 1, 3, 0, 2]);
    // Empty.
    let (v, i) = CubeBackend::float_sort_with_indices(ft(vec![], &[0, 3]), 1, false);
    assert_eq!(fv(v).1, vec![0, 3]);
    assert_eq!(iv(i).1, vec![0, 3]);
}

#[test]
#[should_panic(expected = "sort: dim 2 is out of range")]
fn sort_out_of_range_panics() {
    let _ = CubeBackend::float_sort_with_indices(ft(vec![1.0; 4], &[2, 2]), 2, false);
}

#[test]
fn sort_3d_every_dim_and_views() {
    let shape = [3, 4, 5];
    let mut data: Vec<f32> = noise(60, 3, 21).into_iter().map(|v| v as f32).collect();
    data[7] = f32::NAN;
    data[20] = -0.0;
    data[33] = f32::NAN;
    check_sort(|| ft(data.clone(), &shape), &data, &shape);
    let st = strides(&shape);
    let mut pdata = Vec::new();
    for a in 0..5 {
        for b in 0..3 {
            for c in 0..4 {
                pdata.push(data[b * st[0] + c * st[1] + a * st[2]]);
            }
        }
    }
    check_sort(
        || CubeBackend::float_permute(ft(data.clone(), &shape), &[2, 0, 1]),
        &pdata,
        &[5, 3, 4],
    );
}

#[test]
fn sort_long_lines_merge() {
    // Lines longer than a chunk sorted in shared memory: merged runs, along
    // the last dim and along dim 0, with many ties and a few NaNs.
    let len = 5000;
    let mut data: Vec<f32> = noise(2 * len, 17, 31)
        .into_iter()
        .map(|v| v as f32)
        .collect();
    data[123] = f32::NAN;
    data[len + 4999] = f32::NAN;
    data[len + 10] = f32::NAN;
    check_sort(|| ft(data.clone(), &[2, len]), &data, &[2, len]);
    let mut t = vec![0.0; 2 * len];
    for r in 0..2 {
        for c in 0..len {
            t[c * 2 + r] = data[r * len + c];
        }
    }
    check_sort(|| ft(t.clone(), &[len, 2]), &t, &[len, 2]);
    // Ints, a 1-d line of 3000.
    let ints = noise(3000, 40, 41);
    let k = it(ints.clone(), &[3000]);
    let (v, i) = CubeBackend::int_sort_with_indices(k, 0, true);
    let mut idx: Vec<usize> = (0..3000).collect();
    idx.sort_by(|&a, &b| ints[b].cmp(&ints[a]));
    assert_eq!(
        iv(v).0,
        idx.iter().map(|&j| ints[j] as i64).collect::<Vec<_>>()
    );
    assert_eq!(iv(i).0, idx.iter().map(|&j| j as i64).collect::<Vec<_>>());
}

#[test]
fn sort_bools() {
    // Bools (stored as u32 words) sort false first, stably; no ops trait
    // sorts bools, so the kernel is called directly.
    let b = CubeBackend::bool_from_data(
        TensorData::new(vec![true, false, true, false, false], Shape::new([5])),
        &dev(),
    );
    let (v, i) = CubeBackend::sort_with_indices(b.clone(), 0, false);
    let v = CubeBackend::bool_into_data(v)
        .unwrap()
        .to_vec::<bool>()
        .unwrap();
    assert_eq!(v, vec![false, false, false, true, true]);
    assert_eq!(iv(i).0, vec![1, 3, 4, 0, 2]);
    let (_, i) = CubeBackend::sort_with_indices(b, 0, true);
    assert_eq!(iv(i).0, vec![0, 2, 1, 3, 4]);
}

#[test]
#[should_panic(expected = "sum: expected a numeric dtype")]
fn sum_of_bools_panics() {
    let b =
        CubeBackend::bool_from_data(TensorData::new(vec![true, false], Shape::new([2])), &dev());
    let _ = CubeBackend::reduce_all(burn_backend::ReduceOp::Sum, b);
}

// --------------------------------------------------------------------- dtypes

#[test]
fn other_dtypes_when_supported() {
    let d = dev();
    if CubeBackend::supports_dtype(&d, DType::I64) {
        let x = || {
            CubeBackend::int_from_data(
                TensorData::new(vec![i64::MAX, 1, -5, 2, 3, -7], Shape::new([2, 3])),
                &d,
            )
        };
        assert_eq!(
            iv(CubeBackend::int_sum_dim(x(), 0)).0,
            vec![i64::MIN + 1, 4, -12]
        );
        assert_eq!(iv(CubeBackend::int_sum(x())).0, vec![i64::MAX - 6]);
        assert_eq!(iv(CubeBackend::int_max_dim(x(), 1)).0, vec![i64::MAX, 3]);
        assert_eq!(iv(CubeBackend::int_argmin(x(), 1)).0, vec![2, 2]);
        assert_eq!(
            iv(CubeBackend::int_cumsum(x(), 1)).0,
            vec![i64::MAX, i64::MIN, i64::MIN.wrapping_sub(5), 2, 5, -2]
        );
        let (v, i) = CubeBackend::int_sort_with_indices(x(), 1, false);
        assert_eq!(iv(v).0, vec![-5, 1, i64::MAX, -7, 2, 3]);
        assert_eq!(iv(i).0, vec![2, 1, 0, 2, 0, 1]);
    }
    for dtype in [DType::F16, DType::BF16, DType::F64] {
        if !CubeBackend::supports_dtype(&d, dtype) {
            continue;
        }
        let x = || {
            CubeBackend::float_cast(
                ft(vec![1.0, 2.0, 3.0, 4.0, 5.0, 8.0, 1.0, 1.0], &[2, 4]),
                dtype,
            )
        };
        let back = |t: CubeTensor| fv(CubeBackend::float_cast(t, DType::F32)).0;
        assert_eq!(
            back(CubeBackend::float_sum_dim(x(), 1)),
            vec![10.0, 15.0],
            "{dtype:?}"
        );
        assert_eq!(
            back(CubeBackend::float_cumsum(x(), 1)),
            vec![1.0, 3.0, 6.0, 10.0, 5.0, 13.0, 14.0, 15.0],
            "{dtype:?}"
        );
        assert_eq!(
            back(CubeBackend::float_max_dim(x(), 0)),
            vec![5.0, 8.0, 3.0, 4.0]
        );
        assert_eq!(iv(CubeBackend::float_argmax(x(), 1)).0, vec![3, 1]);
        let (v, i) = CubeBackend::float_sort_with_indices(x(), 1, true);
        assert_eq!(back(v), vec![4.0, 3.0, 2.0, 1.0, 8.0, 5.0, 1.0, 1.0]);
        assert_eq!(iv(i).0, vec![3, 2, 1, 0, 1, 0, 2, 3]);
    }
}
