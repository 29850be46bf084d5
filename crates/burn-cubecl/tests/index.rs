#![cfg(any(feature = "wgpu", feature = "cuda"))]
//! Indexed ops of the CubeCL backend (gather, scatter_add, select, select_add,
//! mask_where, mask_fill, argwhere), against values worked by hand.

use burn_backend::{Backend, BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{DType, Scalar, Shape, Slice, TensorData, f16};

fn dev() -> CubeDevice {
    CubeDevice::default()
}

fn floats<const N: usize, const M: usize>(rows: [[f32; M]; N]) -> CubeTensor {
    CubeBackend::float_from_data(TensorData::from(rows), &dev())
}

fn ints<const N: usize, const M: usize>(rows: [[i32; M]; N]) -> CubeTensor {
    CubeBackend::int_from_data(TensorData::from(rows), &dev())
}

fn ints1(values: &[i32]) -> CubeTensor {
    CubeBackend::int_from_data(TensorData::new(values.to_vec(), [values.len()]), &dev())
}

fn bools<const N: usize, const M: usize>(rows: [[bool; M]; N]) -> CubeTensor {
    CubeBackend::bool_from_data(TensorData::from(rows), &dev())
}

fn f(t: CubeTensor) -> Vec<f32> {
    CubeBackend::float_into_data(t)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()
}

fn i(t: CubeTensor) -> Vec<i32> {
    CubeBackend::int_into_data(t)
        .unwrap()
        .to_vec::<i32>()
        .unwrap()
}

fn b(t: CubeTensor) -> Vec<bool> {
    CubeBackend::bool_into_data(t)
        .unwrap()
        .to_vec::<bool>()
        .unwrap()
}

fn dims(t: &CubeTensor) -> Vec<usize> {
    t.dims().to_vec()
}

#[track_caller]
fn assert_close(actual: &[f32], expected: &[f32]) {
    assert_eq!(actual.len(), expected.len(), "{actual:?} vs {expected:?}");
    for (a, e) in actual.iter().zip(expected) {
        let ok = (a.is_nan() && e.is_nan()) || a == e || (a - e).abs() <= 1e-5 * e.abs().max(1.0);
        assert!(ok, "{actual:?} vs {expected:?}");
    }
}

fn full_range() -> Slice {
    Slice::new(0, None, 1)
}

// ------------------------------------------------------------------ gather

#[test]
fn gather_along_dim1_and_dim0() {
    let t = floats([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]);
    let idx = ints([[2, 2, 0, 1], [1, 0, 0, 2]]);
    let out = CubeBackend::float_gather(1, t, idx);
    assert_eq!(dims(&out), [2, 4]);
    assert_close(&f(out), &[2.0, 2.0, 0.0, 1.0, 4.0, 3.0, 3.0, 5.0]);

    // Indices smaller than the tensor outside dim.
    let t = floats([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]);
    let out = CubeBackend::float_gather(0, t, ints([[2, 0]]));
    assert_eq!(dims(&out), [1, 2]);
    assert_close(&f(out), &[6.0, 1.0]);
}

#[test]
fn gather_transposed_input_and_indices() {
    // transposed: [[0, 3], [1, 4], [2, 5]]
    let t = CubeBackend::float_permute(floats([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), &[1, 0]);
    // transposed: [[1, 0], [0, 0], [1, 1]]
    let idx = CubeBackend::int_permute(ints([[1, 0, 1], [0, 0, 1]]), &[1, 0]);
    let out = CubeBackend::float_gather(1, t, idx);
    assert_close(&f(out), &[3.0, 0.0, 1.0, 1.0, 5.0, 5.0]);
}

#[test]
fn gather_sliced_input_keeps_nan_and_ints_and_bools() {
    // Column slice 1..3 of [[0, 1, 2], [3, NaN, 5]] (an offset view).
    let t = floats([[0.0, 1.0, 2.0], [3.0, f32::NAN, 5.0]]);
    let t = CubeBackend::float_slice(t, &[full_range(), Slice::new(1, Some(3), 1)]);
    let out = CubeBackend::float_gather(1, t, ints([[1, 0], [0, 0]]));
    assert_close(&f(out), &[2.0, 1.0, f32::NAN, f32::NAN]);

    let t = ints([[10, -20, 30], [-40, 50, -60]]);
    let out = CubeBackend::int_gather(0, t, ints([[1, 0, 1]]));
    assert_eq!(i(out), [-40, -20, -60]);

    let t = bools([[true, false, true], [false, true, false]]);
    let out = CubeBackend::bool_gather(1, t, ints([[1, 1], [1, 0]]));
    assert_eq!(b(out), [false, false, true, false]);
}

#[test]
fn gather_out_of_range_indices_give_zero() {
    let t = floats([[1.0, 2.0], [3.0, 4.0]]);
    let out = CubeBackend::float_gather(1, t, ints([[2, 1], [-1, 0]]));
    assert_close(&f(out), &[0.0, 2.0, 0.0, 3.0]);
}

#[test]
fn gather_i64_indices_when_supported() {
    if !CubeBackend::supports_dtype(&dev(), DType::I64) {
        eprintln!("i64 not supported on this device: skipped");
        return;
    }
    let t = floats([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]);
    let idx = CubeBackend::int_from_data(TensorData::from([[2i64, 0], [1, 1]]), &dev());
    assert_close(
        &f(CubeBackend::float_gather(1, t.clone(), idx)),
        &[2.0, 0.0, 4.0, 4.0],
    );
    // 2^32 + 1 must not wrap to index 1.
    let idx =
        CubeBackend::int_from_data(TensorData::from([[(1i64 << 32) + 1, 1], [-1, 0]]), &dev());
    assert_close(
        &f(CubeBackend::float_gather(1, t.clone(), idx)),
        &[0.0, 1.0, 0.0, 3.0],
    );
    let idx = CubeBackend::int_from_data(TensorData::from([(1i64 << 32) + 1, 0]), &dev());
    let out = CubeBackend::float_select_add(t, 1, idx, floats([[10.0, 20.0], [30.0, 40.0]]));
    assert_close(&f(out), &[20.0, 1.0, 2.0, 43.0, 4.0, 5.0]);
}

#[test]
fn gather_large_matches_host_reference() {
    let (rows, cols, k) = (37usize, 53usize, 29usize);
    let data: Vec<f32> = (0..rows * cols).map(|x| x as f32 * 0.5 - 7.0).collect();
    let mut seed = 12345u32;
    let mut next = |m: usize| {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        ((seed >> 8) as usize % m) as i32
    };
    let idx: Vec<i32> = (0..rows * k).map(|_| next(cols)).collect();
    let t = CubeBackend::float_from_data(TensorData::new(data.clone(), [rows, cols]), &dev());
    let it = CubeBackend::int_from_data(TensorData::new(idx.clone(), [rows, k]), &dev());
    let out = f(CubeBackend::float_gather(1, t, it));
    let expected: Vec<f32> = (0..rows * k)
        .map(|p| data[(p / k) * cols + idx[p] as usize])
        .collect();
    assert_eq!(out, expected);
}

// ------------------------------------------------------------- scatter_add

#[test]
fn scatter_add_accumulates_duplicates() {
    let t = floats([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]);
    let idx = ints([[2, 0], [1, 1]]);
    let v = floats([[5.0, 6.0], [7.0, 8.0]]);
    let out = CubeBackend::float_scatter_add(1, t, idx, v);
    assert_close(&f(out), &[7.0, 1.0, 6.0, 0.0, 15.0, 0.0]);

    let t = CubeBackend::float_zeros(Shape::new([3, 2]), &dev(), DType::F32);
    let out = CubeBackend::float_scatter_add(
        0,
        t,
        ints([[0, 2], [0, 1]]),
        floats([[1.0, 2.0], [3.0, 4.0]]),
    );
    assert_close(&f(out), &[4.0, 0.0, 0.0, 4.0, 0.0, 2.0]);
}

#[test]
fn scatter_add_transposed_tensor_larger_value_and_nan() {
    // transposed: [[1, 3], [2, 4]]
    let t = CubeBackend::float_permute(floats([[1.0, 2.0], [3.0, 4.0]]), &[1, 0]);
    let out = CubeBackend::float_scatter_add(1, t, ints([[1], [0]]), floats([[10.0], [20.0]]));
    assert_close(&f(out), &[1.0, 13.0, 22.0, 4.0]);

    // value [2, 3] is larger than indices [2, 2]: its last column is unused.
    let t = floats([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]);
    let out = CubeBackend::float_scatter_add(
        1,
        t,
        ints([[0, 0], [2, 1]]),
        floats([[1.0, 2.0, 100.0], [f32::NAN, 4.0, 100.0]]),
    );
    assert_close(&f(out), &[3.0, 0.0, 0.0, 0.0, 4.0, f32::NAN]);

    // Indices smaller than the tensor outside dim leave other rows alone.
    let t = floats([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]);
    let out = CubeBackend::float_scatter_add(1, t, ints([[1, 1]]), floats([[0.5, 0.25]]));
    assert_close(&f(out), &[1.0, 2.75, 3.0, 4.0, 5.0, 6.0]);
}

#[test]
fn scatter_add_ints_wrap_and_out_of_range_is_skipped() {
    let t = ints([[i32::MAX, 0, 5]]);
    let out = CubeBackend::int_scatter_add(1, t, ints([[0, 2, 3, -1]]), ints([[1, 7, 1000, 1000]]));
    assert_eq!(i(out), [i32::MIN, 0, 12]);
}

#[test]
fn scatter_add_large_matches_host_reference() {
    let (rows, cols, k) = (41usize, 23usize, 67usize);
    let mut seed = 777u32;
    let mut next = |m: usize| {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as usize % m
    };
    let base: Vec<i32> = (0..rows * cols).map(|x| x as i32 - 100).collect();
    let idx: Vec<i32> = (0..k * cols).map(|_| next(rows) as i32).collect();
    let val: Vec<i32> = (0..k * cols).map(|_| next(1000) as i32 - 500).collect();
    let mut expected = base.clone();
    for p in 0..k * cols {
        let c = p % cols;
        expected[idx[p] as usize * cols + c] += val[p];
    }
    let out = CubeBackend::int_scatter_add(
        0,
        CubeBackend::int_from_data(TensorData::new(base, [rows, cols]), &dev()),
        CubeBackend::int_from_data(TensorData::new(idx, [k, cols]), &dev()),
        CubeBackend::int_from_data(TensorData::new(val, [k, cols]), &dev()),
    );
    assert_eq!(i(out), expected);
}

#[test]
fn scatter_add_f16_accumulates_in_f32() {
    if !CubeBackend::supports_dtype(&dev(), DType::F16) {
        eprintln!("f16 not supported on this device: skipped");
        return;
    }
    // f16 steps by 2 at 2048: adding 1 twice in f16 stays at 2048, adding
    // in f32 and rounding once gives 2050 (as Flex).
    let h = |x: f32| f16::from_f32(x);
    let t = CubeBackend::float_from_data(TensorData::from([[h(2048.0), h(0.0)]]), &dev());
    let v = CubeBackend::float_from_data(TensorData::from([[h(1.0), h(1.0), h(0.5)]]), &dev());
    let out = CubeBackend::float_scatter_add(1, t, ints([[0, 0, 1]]), v);
    let out = CubeBackend::float_into_data(out)
        .unwrap()
        .to_vec::<f16>()
        .unwrap();
    assert_eq!(out, [h(2050.0), h(0.5)]);
}

/// Row-major position of `coords` in `dims`.
fn linear(coords: &[usize], dims: &[usize]) -> usize {
    coords.iter().zip(dims).fold(0, |acc, (&c, &d)| acc * d + c)
}

/// The coordinates of row-major position `p` in `dims`.
fn coords(mut p: usize, dims: &[usize]) -> Vec<usize> {
    let mut c = vec![0; dims.len()];
    for d in (0..dims.len()).rev() {
        c[d] = p % dims[d];
        p /= dims[d];
    }
    c
}

#[test]
fn rank3_permuted_ops_match_host_reference() {
    // base [4, 3, 5] permuted to [5, 4, 3] (axes 2, 0, 1); every op along dim 1.
    let base_dims = [4usize, 3, 5];
    let base: Vec<f32> = (0..60).map(|x| x as f32 - 30.0).collect();
    let t = CubeBackend::float_permute(
        CubeBackend::float_from_data(TensorData::new(base.clone(), base_dims), &dev()),
        &[2, 0, 1],
    );
    let tdims = [5usize, 4, 3];
    let at = |c: &[usize]| base[linear(&[c[1], c[2], c[0]], &base_dims)];

    // gather along dim 1 with indices [5, 6, 2].
    let idims = [5usize, 6, 2];
    let idx: Vec<i32> = (0..60i32).map(|x| (x * 7 + 3) % 4).collect();
    let it = CubeBackend::int_from_data(TensorData::new(idx.clone(), idims), &dev());
    let out = f(CubeBackend::float_gather(1, t.clone(), it.clone()));
    let expected: Vec<f32> = (0..60)
        .map(|p| {
            let mut c = coords(p, &idims);
            c[1] = idx[p] as usize;
            at(&c)
        })
        .collect();
    assert_eq!(out, expected);

    // scatter_add of a [5, 6, 2] value into the permuted tensor.
    let val: Vec<f32> = (0..60).map(|x| (x % 9) as f32 * 0.5).collect();
    let vt = CubeBackend::float_from_data(TensorData::new(val.clone(), idims), &dev());
    let out = f(CubeBackend::float_scatter_add(1, t.clone(), it, vt));
    let mut expected: Vec<f32> = (0..60).map(|p| at(&coords(p, &tdims))).collect();
    for p in 0..60 {
        let mut c = coords(p, &idims);
        c[1] = idx[p] as usize;
        expected[linear(&c, &tdims)] += val[p];
    }
    assert_eq!(out, expected);

    // select along dim 1 then select_add back.
    let sel = [3i32, 0, 3];
    let out = CubeBackend::float_select(t.clone(), 1, ints1(&sel));
    assert_eq!(dims(&out), [5, 3, 3]);
    let expected: Vec<f32> = (0..45)
        .map(|p| {
            let mut c = coords(p, &[5, 3, 3]);
            c[1] = sel[c[1]] as usize;
            at(&c)
        })
        .collect();
    assert_eq!(f(out.clone()), expected);
    let added = f(CubeBackend::float_select_add(t, 1, ints1(&sel), out));
    let mut expected: Vec<f32> = (0..60).map(|p| at(&coords(p, &tdims))).collect();
    for p in 0..45 {
        let c = coords(p, &[5, 3, 3]);
        let mut target = c.clone();
        target[1] = sel[c[1]] as usize;
        let mut source = c.clone();
        source[1] = sel[c[1]] as usize;
        expected[linear(&target, &tdims)] += at(&source);
    }
    assert_eq!(added, expected);
}

// ------------------------------------------------------------------ select

#[test]
fn select_rows_with_repeats_and_columns_of_transposed() {
    let t = floats([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]);
    let out = CubeBackend::float_select(t.clone(), 0, ints1(&[2, 0, 2]));
    assert_eq!(dims(&out), [3, 2]);
    assert_close(&f(out), &[4.0, 5.0, 0.0, 1.0, 4.0, 5.0]);

    // transposed: [[0, 2, 4], [1, 3, 5]]
    let tt = CubeBackend::float_permute(t, &[1, 0]);
    let out = CubeBackend::float_select(tt, 1, ints1(&[1, 2]));
    assert_close(&f(out), &[2.0, 4.0, 3.0, 5.0]);
}

#[test]
fn select_with_strided_indices_empty_and_out_of_range() {
    let t = ints([[1, 2, 3], [4, 5, 6]]);
    // Every other element of [2, 9, 0, 9, 1]: [2, 0, 1].
    let idx = CubeBackend::int_slice(ints1(&[2, 9, 0, 9, 1]), &[Slice::new(0, None, 2)]);
    let out = CubeBackend::int_select(t.clone(), 1, idx);
    assert_eq!(i(out), [3, 1, 2, 6, 4, 5]);

    let out = CubeBackend::int_select(t.clone(), 1, ints1(&[]));
    assert_eq!(dims(&out), [2, 0]);
    assert!(i(out).is_empty());

    let out = CubeBackend::int_select(t, 0, ints1(&[1, 2, -1]));
    assert_eq!(i(out), [4, 5, 6, 0, 0, 0, 0, 0, 0]);

    let bt = bools([[true, false], [false, false]]);
    let out = CubeBackend::bool_select(bt, 1, ints1(&[1, 0, 0]));
    assert_eq!(b(out), [false, true, true, false, false, false]);
}

// -------------------------------------------------------------- select_add

#[test]
fn select_add_duplicates_and_dims() {
    let t = floats([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]);
    let v = floats([[10.0, 20.0], [30.0, 40.0], [0.5, f32::NAN]]);
    let out = CubeBackend::float_select_add(t.clone(), 0, ints1(&[2, 0, 2]), v);
    assert_close(&f(out), &[31.0, 41.0, 2.0, 2.0, 13.5, f32::NAN]);

    // Along dim 1, with a transposed value: value^T = [[1, 2, 3], [4, 5, 6]]^T.
    let v = CubeBackend::float_permute(floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), &[1, 0]);
    let out = CubeBackend::float_select_add(t, 1, ints1(&[1, 1]), v);
    // rows: [1, 1+1+4], [2, 2+2+5], [3, 3+3+6]
    assert_close(&f(out), &[1.0, 6.0, 2.0, 9.0, 3.0, 12.0]);
}

#[test]
fn select_add_ints_skip_out_of_range() {
    let t = ints([[1, 2, 3]]);
    let out = CubeBackend::int_select_add(t, 1, ints1(&[0, 5, 0, -2]), ints([[10, 20, 30, 40]]));
    assert_eq!(i(out), [41, 2, 3]);
}

#[test]
fn select_add_embedding_like_matches_host_reference() {
    let (vocab, width, n) = (19usize, 7usize, 50usize);
    let mut seed = 4242u32;
    let mut next = |m: usize| {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as usize % m
    };
    let idx: Vec<i32> = (0..n).map(|_| next(vocab) as i32).collect();
    let val: Vec<f32> = (0..n * width).map(|_| next(64) as f32 * 0.25).collect();
    let mut expected = vec![1.0f32; vocab * width];
    for (j, &k) in idx.iter().enumerate() {
        for c in 0..width {
            expected[k as usize * width + c] += val[j * width + c];
        }
    }
    let out = CubeBackend::float_select_add(
        CubeBackend::float_ones(Shape::new([vocab, width]), &dev(), DType::F32),
        0,
        ints1(&idx),
        CubeBackend::float_from_data(TensorData::new(val, [n, width]), &dev()),
    );
    assert_eq!(f(out), expected);
}

// -------------------------------------------------------------- mask_where

#[test]
fn mask_where_plain_broadcast_and_transposed() {
    let t = floats([[1.0, 2.0], [3.0, 4.0]]);
    let m = bools([[true, false], [false, true]]);
    let v = floats([[10.0, f32::NAN], [30.0, f32::NAN]]);
    assert_close(
        &f(CubeBackend::float_mask_where(t, m, v)),
        &[10.0, 2.0, 3.0, f32::NAN],
    );

    let t = floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let m = bools([[true, false, true]]);
    let v = floats([[-1.0], [-2.0]]);
    assert_close(
        &f(CubeBackend::float_mask_where(t, m, v)),
        &[-1.0, 2.0, -1.0, -2.0, 5.0, -2.0],
    );

    let t = CubeBackend::float_permute(floats([[1.0, 2.0], [3.0, 4.0]]), &[1, 0]);
    let m = CubeBackend::bool_permute(bools([[true, true], [false, false]]), &[1, 0]);
    let v = CubeBackend::float_zeros(Shape::new([2, 2]), &dev(), DType::F32);
    assert_close(
        &f(CubeBackend::float_mask_where(t, m, v)),
        &[0.0, 3.0, 0.0, 4.0],
    );
}

#[test]
fn mask_where_broadcasts_tensor_and_lower_ranks() {
    // tensor [1, 3], mask [2, 1], value of rank 1 [3]: output [2, 3].
    let t = floats([[1.0, 2.0, 3.0]]);
    let m = bools([[true], [false]]);
    let v = CubeBackend::float_from_data(TensorData::from([7.0f32, 8.0, 9.0]), &dev());
    let out = CubeBackend::float_mask_where(t, m, v);
    assert_eq!(dims(&out), [2, 3]);
    assert_close(&f(out), &[7.0, 8.0, 9.0, 1.0, 2.0, 3.0]);
}

#[test]
fn mask_where_ints_and_bools() {
    let t = ints([[1, -2], [-3, 4]]);
    let m = bools([[false, true], [true, false]]);
    let v = ints([[0, 0], [i32::MIN, 0]]);
    assert_eq!(i(CubeBackend::int_mask_where(t, m, v)), [1, 0, i32::MIN, 4]);

    let t = CubeBackend::bool_from_data(TensorData::from([true, false, true]), &dev());
    let m = CubeBackend::bool_from_data(TensorData::from([false, true, true]), &dev());
    let v = CubeBackend::bool_from_data(TensorData::from([false, true, false]), &dev());
    assert_eq!(
        b(CubeBackend::bool_mask_where(t, m, v)),
        [true, true, false]
    );
}

#[test]
fn mask_where_contiguous_vectorised_path() {
    // 64 contiguous elements with matching shapes: the vectorised walk.
    let n = 64;
    let t: Vec<f32> = (0..n).map(|x| x as f32).collect();
    let v: Vec<f32> = (0..n).map(|x| -(x as f32)).collect();
    let m: Vec<bool> = (0..n).map(|x| x % 3 == 0).collect();
    let out = CubeBackend::float_mask_where(
        CubeBackend::float_from_data(TensorData::new(t.clone(), [n]), &dev()),
        CubeBackend::bool_from_data(TensorData::new(m.clone(), [n]), &dev()),
        CubeBackend::float_from_data(TensorData::new(v.clone(), [n]), &dev()),
    );
    let expected: Vec<f32> = (0..n).map(|x| if m[x] { v[x] } else { t[x] }).collect();
    assert_eq!(f(out), expected);
}

// --------------------------------------------------------------- mask_fill

#[test]
fn mask_fill_plain_broadcast_infinity_and_nan() {
    let t = floats([[1.0, 2.0], [3.0, 4.0]]);
    let m = bools([[false, true], [true, false]]);
    assert_close(
        &f(CubeBackend::float_mask_fill(
            t.clone(),
            m.clone(),
            Scalar::Float(-9.5),
        )),
        &[1.0, -9.5, -9.5, 4.0],
    );
    assert_close(
        &f(CubeBackend::float_mask_fill(t, m, Scalar::Float(f64::NAN))),
        &[1.0, f32::NAN, f32::NAN, 4.0],
    );

    let t = floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let m = bools([[true, true, false]]);
    let inf = f32::NEG_INFINITY;
    assert_close(
        &f(CubeBackend::float_mask_fill(
            t,
            m,
            Scalar::Float(f64::NEG_INFINITY),
        )),
        &[inf, inf, 3.0, inf, inf, 6.0],
    );
}

#[test]
fn mask_fill_strided_input_and_lower_rank_mask() {
    let t =
        CubeBackend::float_from_data(TensorData::from([1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]), &dev());
    let t = CubeBackend::float_slice(t, &[Slice::new(1, None, 2)]);
    let m = CubeBackend::bool_from_data(TensorData::from([true, false, true]), &dev());
    assert_close(
        &f(CubeBackend::float_mask_fill(t, m, Scalar::Float(0.0))),
        &[0.0, 4.0, 0.0],
    );

    // A rank-1 mask broadcast over the rows of a rank-2 tensor.
    let t = ints([[1, 2], [3, 4]]);
    let m = CubeBackend::bool_from_data(TensorData::from([false, true]), &dev());
    assert_eq!(
        i(CubeBackend::int_mask_fill(t, m, Scalar::Int(-7))),
        [1, -7, 3, -7]
    );
}

#[test]
fn mask_fill_ints_saturate_and_bools() {
    let t = ints([[1, -2], [-3, 4]]);
    let m = bools([[false, true], [true, false]]);
    assert_eq!(
        i(CubeBackend::int_mask_fill(
            t.clone(),
            m.clone(),
            Scalar::Int(1 << 40)
        )),
        [1, i32::MAX, i32::MAX, 4]
    );
    assert_eq!(
        i(CubeBackend::int_mask_fill(t, m, Scalar::Float(-2.7))),
        [1, -2, -2, 4]
    );

    let t = CubeBackend::bool_from_data(TensorData::from([true, false, false]), &dev());
    let m = CubeBackend::bool_from_data(TensorData::from([false, true, false]), &dev());
    assert_eq!(
        b(CubeBackend::bool_mask_where(
            t.clone(),
            m.clone(),
            t.clone()
        )),
        [true, false, false]
    );
    let filled = CubeBackend::int_mask_fill(
        CubeBackend::bool_into_int(t, DType::I32),
        m,
        Scalar::Bool(true),
    );
    assert_eq!(i(filled), [1, 1, 0]);
}

#[test]
fn mask_fill_f16_when_supported() {
    if !CubeBackend::supports_dtype(&dev(), DType::F16) {
        eprintln!("f16 not supported on this device: skipped");
        return;
    }
    let t = CubeBackend::float_from_data(
        TensorData::from([f16::from_f32(1.0), f16::from_f32(2.0)]),
        &dev(),
    );
    let m = CubeBackend::bool_from_data(TensorData::from([true, false]), &dev());
    let out = CubeBackend::float_mask_fill(t, m, Scalar::Float(0.5));
    let out = CubeBackend::float_into_data(out)
        .unwrap()
        .to_vec::<f16>()
        .unwrap();
    assert_eq!(out, [f16::from_f32(0.5), f16::from_f32(2.0)]);
}

// ---------------------------------------------------------------- argwhere

#[test]
fn argwhere_row_major_transposed_and_empty() {
    let t = bools([[false, true, true], [true, false, false]]);
    let out = CubeBackend::bool_argwhere(t.clone());
    assert_eq!(dims(&out), [3, 2]);
    assert_eq!(out.dtype(), DType::I32);
    assert_eq!(i(out), [0, 1, 0, 2, 1, 0]);

    let out = CubeBackend::bool_argwhere(CubeBackend::bool_permute(t, &[1, 0]));
    assert_eq!(i(out), [0, 1, 1, 0, 2, 0]);

    let none = CubeBackend::bool_full(Shape::new([2, 2, 2]), false, &dev());
    let out = CubeBackend::bool_argwhere(none);
    assert_eq!(dims(&out), [0, 3]);
    assert!(i(out).is_empty());

    let m = CubeBackend::bool_from_data(
        TensorData::new(
            vec![false, false, false, true, true, false, false, true],
            [2, 2, 2],
        ),
        &dev(),
    );
    assert_eq!(
        i(CubeBackend::bool_argwhere(m)),
        [0, 1, 1, 1, 0, 0, 1, 1, 1]
    );
}

// ------------------------------------------------------------------ panics

#[test]
#[should_panic(expected = "gather: tensor")]
fn gather_rank_mismatch_panics() {
    let t = floats([[1.0, 2.0]]);
    let _ = CubeBackend::float_gather(0, t, ints1(&[0]));
}

#[test]
#[should_panic(expected = "gather: indices [3, 2] exceed tensor [2, 2] at dim 0")]
fn gather_indices_exceeding_tensor_panic() {
    let t = floats([[1.0, 2.0], [3.0, 4.0]]);
    let _ = CubeBackend::float_gather(1, t, ints([[0, 0], [0, 0], [0, 0]]));
}

#[test]
#[should_panic(expected = "gather: expected an integer dtype, got f32")]
fn gather_float_indices_panic() {
    let t = floats([[1.0, 2.0]]);
    let _ = CubeBackend::float_gather(1, t.clone(), t);
}

#[test]
#[should_panic(expected = "scatter_add: indices [2, 2] must not exceed value [2, 1]")]
fn scatter_add_small_value_panics() {
    let t = floats([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]);
    let _ = CubeBackend::float_scatter_add(1, t, ints([[0, 0], [0, 0]]), floats([[1.0], [1.0]]));
}

#[test]
#[should_panic(expected = "scatter_add: operands have different dtypes")]
fn scatter_add_dtype_mismatch_panics() {
    let t = floats([[0.0, 0.0]]);
    let _ = CubeBackend::float_scatter_add(1, t, ints([[0]]), ints([[1]]));
}

#[test]
#[should_panic(expected = "select: dim 2 is out of range")]
fn select_dim_out_of_range_panics() {
    let _ = CubeBackend::float_select(floats([[1.0, 2.0]]), 2, ints1(&[0]));
}

#[test]
#[should_panic(expected = "select: indices must be 1-D, got shape [1, 1]")]
fn select_two_dim_indices_panic() {
    let _ = CubeBackend::float_select(floats([[1.0, 2.0]]), 1, ints([[0]]));
}

#[test]
#[should_panic(expected = "select_add: value [2, 2] must match tensor [2, 3] outside dim 1")]
fn select_add_value_mismatch_panics() {
    let t = floats([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]);
    let _ = CubeBackend::float_select_add(t, 1, ints1(&[0]), floats([[1.0, 2.0], [3.0, 4.0]]));
}

#[test]
#[should_panic(
    expected = "mask_where: tensor [2, 2], mask [3, 2] and value [2, 2] cannot be broadcast together"
)]
fn mask_where_bad_broadcast_panics() {
    let t = floats([[1.0, 2.0], [3.0, 4.0]]);
    let m = CubeBackend::bool_full(Shape::new([3, 2]), true, &dev());
    let _ = CubeBackend::float_mask_where(t.clone(), m, t);
}

#[test]
#[should_panic(expected = "mask_where: expected a bool mask, got i32")]
fn mask_where_int_mask_panics() {
    let t = floats([[1.0, 2.0]]);
    let _ = CubeBackend::float_mask_where(t.clone(), ints([[1, 0]]), t);
}

#[test]
#[should_panic(expected = "mask_fill: mask [3, 2] cannot be broadcast to tensor [1, 2]")]
fn mask_fill_growing_mask_panics() {
    let t = floats([[1.0, 2.0]]);
    let m = CubeBackend::bool_full(Shape::new([3, 2]), true, &dev());
    let _ = CubeBackend::float_mask_fill(t, m, Scalar::Float(0.0));
}

#[test]
#[should_panic(expected = "argwhere: expected a bool tensor, got f32")]
fn argwhere_of_floats_panics() {
    let _ = CubeBackend::bool_argwhere(floats([[1.0]]));
}

#[test]
#[should_panic(expected = "scatter_add: expected a numeric dtype, got bool(u32)")]
fn scatter_add_of_bools_panics() {
    let t = bools([[true, false]]);
    let _ = CubeBackend::float_scatter_add(1, t.clone(), ints([[0]]), t);
}
