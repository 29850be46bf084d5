#![cfg(any(feature = "wgpu", feature = "cuda"))]
//! Module ops of the CubeCL backend: pooling, interpolation and 3-d
//! convolutions, against hand-worked values, naive CPU references written
//! here (scatter formulations, independent of the kernels' gathers), and
//! gradients checked by linearity (`∂/∂x_i Σ f(x)·g = f(e_i)·g` for linear
//! ops) or finite differences (max pooling).

use burn_backend::{
    Backend, ConvOptions, ConvTransposeOptions, FloatTensorOps, IntTensorOps, InterpolateMode,
    InterpolateOptions, ModuleOps, TensorMetadata,
};
use burn_cubecl::ops::conv::{
    ConvAlgorithm, conv_transpose3d_with, conv3d_weight_backward_with, conv3d_with,
};
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{DType, Shape, TensorData};

type T = CubeTensor;

fn dev() -> CubeDevice {
    CubeDevice::default()
}

fn t(values: Vec<f32>, shape: &[usize]) -> T {
    CubeBackend::float_from_data(TensorData::new(values, shape.to_vec()), &dev())
}

fn v(x: T) -> Vec<f32> {
    CubeBackend::float_into_data(x)
        .unwrap()
        .convert::<f32>()
        .to_vec::<f32>()
        .unwrap()
}

fn ints(x: T) -> Vec<i64> {
    CubeBackend::int_into_data(x)
        .unwrap()
        .convert::<i64>()
        .to_vec::<i64>()
        .unwrap()
}

fn ramp(n: usize) -> Vec<f32> {
    (0..n).map(|i| i as f32).collect()
}

/// Deterministic values in [-1, 1), distinct with high probability.
fn noise(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

#[track_caller]
fn close(got: &[f32], want: &[f32], tol: f32) {
    assert_eq!(got.len(), want.len(), "lengths differ: {got:?} vs {want:?}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || (g - w).abs() <= tol * (1.0 + w.abs());
        assert!(
            ok,
            "element {i}: got {g}, want {w}\n got {got:?}\nwant {want:?}"
        );
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// The input gradient of `Σ f(x)·g` for a linear `f`: `grad[i] = f(e_i)·g`,
/// every basis vector `e_i` one batch entry of a single call (`shape` has a
/// batch of 1).
fn linear_grad(shape: &[usize], g: &[f32], f: impl Fn(T) -> T) -> Vec<f32> {
    assert_eq!(shape[0], 1);
    let n = numel(shape);
    let mut basis = vec![0.0; n * n];
    for i in 0..n {
        basis[i * n + i] = 1.0;
    }
    let mut batched = shape.to_vec();
    batched[0] = n;
    let out = v(f(t(basis, &batched)));
    assert_eq!(out.len(), n * g.len());
    out.chunks(g.len()).map(|y| dot(y, g)).collect()
}

/// Distinct values `0.1·k` in a shuffled order (no near ties, so finite
/// differences never flip an argmax).
fn shuffled(n: usize, seed: u64) -> Vec<f32> {
    let keys = noise(n, seed);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
    let mut out = vec![0.0; n];
    for (rank, &i) in order.iter().enumerate() {
        out[i] = rank as f32 * 0.1;
    }
    out
}

/// `values` of NCHW `shape` stored as NHWC and permuted back: a
/// non-contiguous view with the same logical values.
fn permuted4(values: &[f32], shape: [usize; 4]) -> T {
    let [n, c, h, w] = shape;
    let mut nhwc = vec![0.0; values.len()];
    for b in 0..n {
        for ch in 0..c {
            for y in 0..h {
                for x in 0..w {
                    nhwc[((b * h + y) * w + x) * c + ch] = values[((b * c + ch) * h + y) * w + x];
                }
            }
        }
    }
    let tensor = t(nhwc, &[n, h, w, c]);
    CubeBackend::float_permute(tensor, &[0, 3, 1, 2])
}

/// The same for NCDHW values stored as NDHWC.
fn permuted5(values: &[f32], shape: [usize; 5]) -> T {
    let [n, c, d, h, w] = shape;
    let sp = d * h * w;
    let mut last = vec![0.0; values.len()];
    for b in 0..n {
        for ch in 0..c {
            for p in 0..sp {
                last[(b * sp + p) * c + ch] = values[(b * c + ch) * sp + p];
            }
        }
    }
    let tensor = t(last, &[n, d, h, w, c]);
    CubeBackend::float_permute(tensor, &[0, 4, 1, 2, 3])
}

fn supports(dtype: DType) -> bool {
    CubeBackend::supports_dtype(&dev(), dtype)
}

// ------------------------------------------------------------ max pooling

fn max_pool(
    x: T,
    k: [usize; 2],
    s: [usize; 2],
    p: [usize; 2],
    d: [usize; 2],
    ceil: bool,
) -> (T, T) {
    CubeBackend::max_pool2d_with_indices(x, k, s, p, d, ceil)
}

/// Max pooling on the CPU, first maximum in tap order, NaN wins.
#[allow(clippy::too_many_arguments)]
fn max_pool_ref(
    x: &[f32],
    [n, c, h, w]: [usize; 4],
    [oh, ow]: [usize; 2],
    k: [usize; 2],
    s: [usize; 2],
    p: [usize; 2],
    d: [usize; 2],
) -> (Vec<f32>, Vec<i64>) {
    let mut vals = Vec::new();
    let mut idx = Vec::new();
    for plane in 0..n * c {
        let xp = &x[plane * h * w..][..h * w];
        for i in 0..oh {
            for j in 0..ow {
                let mut best: Option<(usize, f32)> = None;
                for a in 0..k[0] {
                    let hi = (i * s[0] + a * d[0]) as isize - p[0] as isize;
                    if hi < 0 || hi >= h as isize {
                        continue;
                    }
                    for b in 0..k[1] {
                        let wi = (j * s[1] + b * d[1]) as isize - p[1] as isize;
                        if wi < 0 || wi >= w as isize {
                            continue;
                        }
                        let at = hi as usize * w + wi as usize;
                        let val = xp[at];
                        let better = match best {
                            None => true,
                            Some((_, m)) => val > m || (val.is_nan() && !m.is_nan()),
                        };
                        if better {
                            best = Some((at, val));
                        }
                    }
                }
                let (at, val) = best.unwrap_or((0, xp[0]));
                vals.push(val);
                idx.push(at as i64);
            }
        }
    }
    (vals, idx)
}

#[test]
fn max_pool2d_basic_values_indices_and_dtype() {
    let (y, idx) = max_pool(
        t(ramp(16), &[1, 1, 4, 4]),
        [2, 2],
        [2, 2],
        [0, 0],
        [1, 1],
        false,
    );
    // Indices are the backend's default int dtype.
    assert_eq!(idx.dtype(), burn_cubecl::dtype::INDEX);
    assert_eq!(y.shape(), Shape::new([1, 1, 2, 2]));
    assert_eq!(v(y), vec![5.0, 7.0, 13.0, 15.0]);
    assert_eq!(ints(idx), vec![5, 7, 13, 15]);
}

#[test]
fn max_pool2d_padding_never_wins_and_nan_propagates() {
    let x = t(vec![-3.0, -1.0, -2.0, -4.0], &[1, 1, 2, 2]);
    let (y, idx) = max_pool(x, [3, 3], [1, 1], [1, 1], [1, 1], false);
    assert_eq!(v(y), vec![-1.0; 4]);
    assert_eq!(ints(idx), vec![1; 4]);
    let x = t(vec![1.0, f32::NAN, 3.0, 2.0], &[1, 1, 2, 2]);
    let (y, idx) = max_pool(x, [2, 2], [1, 1], [0, 0], [1, 1], false);
    assert!(v(y)[0].is_nan());
    assert_eq!(ints(idx), vec![1]);
    // NaN after a larger value still wins; a later number does not beat it.
    let x = t(vec![5.0, f32::NAN, 9.0, 2.0], &[1, 1, 1, 4]);
    let (y, idx) = max_pool(x, [1, 4], [1, 1], [0, 0], [1, 1], false);
    assert!(v(y)[0].is_nan());
    assert_eq!(ints(idx), vec![1]);
}

#[test]
fn max_pool2d_ceil_mode_dilation_and_empty_window() {
    // value == flat index: out (i, j) = x[min(2i+1, 4)][min(2j+1, 4)].
    let (y, idx) = max_pool(
        t(ramp(25), &[1, 1, 5, 5]),
        [2, 2],
        [2, 2],
        [0, 0],
        [1, 1],
        true,
    );
    let want = [6, 8, 9, 16, 18, 19, 21, 23, 24];
    assert_eq!(v(y), want.iter().map(|&i| i as f32).collect::<Vec<_>>());
    assert_eq!(
        ints(idx),
        want.iter().map(|&i| i as i64).collect::<Vec<_>>()
    );
    // Dilation 2: taps (i, i+2) x (j, j+2), max at (i+2, j+2).
    let (y, idx) = max_pool(
        t(ramp(25), &[1, 1, 5, 5]),
        [2, 2],
        [1, 1],
        [0, 0],
        [2, 2],
        false,
    );
    let want = [12, 13, 14, 17, 18, 19, 22, 23, 24];
    assert_eq!(v(y), want.iter().map(|&i| i as f32).collect::<Vec<_>>());
    assert_eq!(
        ints(idx),
        want.iter().map(|&i| i as i64).collect::<Vec<_>>()
    );
    // Taps at -1 and 1 of a 1x1 input: no real tap, the plane's first element.
    let (y, idx) = max_pool(
        t(vec![5.0], &[1, 1, 1, 1]),
        [2, 2],
        [1, 1],
        [1, 1],
        [2, 2],
        false,
    );
    assert_eq!(v(y), vec![5.0]);
    assert_eq!(ints(idx), vec![0]);
}

#[test]
fn max_pool2d_matches_reference_on_permuted_input() {
    let shape = [2, 3, 7, 6];
    let x = noise(numel(&shape), 7);
    let cases = [
        ([3, 2], [2, 1], [1, 1], [1, 2], false),
        ([3, 3], [2, 2], [1, 0], [1, 1], true),
        ([2, 3], [3, 2], [1, 1], [2, 1], true),
    ];
    for (k, s, p, d, ceil) in cases {
        let (y, idx) = max_pool(permuted4(&x, shape), k, s, p, d, ceil);
        let [_, _, oh, ow] = y.shape().dims[..] else {
            panic!()
        };
        let (want, want_idx) = max_pool_ref(&x, shape, [oh, ow], k, s, p, d);
        assert_eq!(v(y), want);
        assert_eq!(ints(idx), want_idx);
    }
}

#[test]
fn max_pool2d_backward_hand_cases() {
    // Overlapping 3x3 windows all pick (1, 2): its gradient is 1+2+3+4.
    let mut x = vec![0.0; 16];
    x[6] = 10.0;
    let x = t(x, &[1, 1, 4, 4]);
    let (_, idx) = max_pool(x.clone(), [3, 3], [1, 1], [0, 0], [1, 1], false);
    let g = t(vec![1.0, 2.0, 3.0, 4.0], &[1, 1, 2, 2]);
    let dx = CubeBackend::max_pool2d_with_indices_backward(
        x,
        [3, 3],
        [1, 1],
        [0, 0],
        [1, 1],
        false,
        g,
        idx,
    );
    let mut want = vec![0.0; 16];
    want[6] = 10.0;
    assert_eq!(v(dx), want);

    // Two planes of two batches, with int32 indices given by hand.
    let x = t(vec![0.0; 2 * 2 * 4], &[2, 2, 2, 2]);
    let idx = CubeBackend::int_from_data(
        TensorData::new(vec![3i32, 0, 1, 1, 2, 2, 0, 3], [2, 2, 1, 2]),
        &dev(),
    );
    let g = t(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], &[2, 2, 1, 2]);
    let dx = CubeBackend::max_pool2d_with_indices_backward(
        x,
        [1, 2],
        [1, 2],
        [0, 0],
        [1, 1],
        false,
        g,
        idx,
    );
    #[rustfmt::skip]
    let want = vec![
        2.0, 0.0, 0.0, 1.0,
        0.0, 7.0, 0.0, 0.0,
        0.0, 0.0, 11.0, 0.0,
        7.0, 0.0, 0.0, 8.0,
    ];
    assert_eq!(v(dx), want);
}

#[test]
fn max_pool2d_backward_matches_finite_differences() {
    let shape = [1, 2, 6, 5];
    let n = numel(&shape);
    let x = shuffled(n, 3);
    let cases = [
        ([3, 3], [2, 2], [1, 1], [1, 1], true),
        ([2, 2], [1, 2], [0, 1], [2, 1], false),
    ];
    for (k, s, p, d, ceil) in cases {
        let (y, idx) = max_pool(t(x.clone(), &shape), k, s, p, d, ceil);
        let out_shape = y.shape();
        let g = noise(out_shape.num_elements(), 11);
        // A permuted gradient exercises the strided reads.
        let [on, oc, oh, ow] = out_shape.dims[..] else {
            panic!()
        };
        let gt = permuted4(&g, [on, oc, oh, ow]);
        let dx = v(CubeBackend::max_pool2d_with_indices_backward(
            t(x.clone(), &shape),
            k,
            s,
            p,
            d,
            ceil,
            gt,
            idx,
        ));
        let loss = |x: &[f32]| -> f64 {
            let (y, _) = max_pool(t(x.to_vec(), &shape), k, s, p, d, ceil);
            v(y).iter()
                .zip(&g)
                .map(|(a, b)| (*a as f64) * (*b as f64))
                .sum()
        };
        let eps = 1e-3f32;
        for i in 0..n {
            let mut hi = x.clone();
            hi[i] += eps;
            let mut lo = x.clone();
            lo[i] -= eps;
            let fd = ((loss(&hi) - loss(&lo)) / (2.0 * eps as f64)) as f32;
            assert!(
                (fd - dx[i]).abs() < 1e-2,
                "input {i}: fd {fd}, backward {}",
                dx[i]
            );
        }
    }
}

#[test]
#[should_panic(expected = "max_pool2d_with_indices_backward: indices")]
fn max_pool2d_backward_rejects_mismatched_indices() {
    let x = t(vec![0.0; 16], &[1, 1, 4, 4]);
    let (_, idx) = max_pool(x.clone(), [2, 2], [2, 2], [0, 0], [1, 1], false);
    let g = t(vec![0.0; 2], &[1, 1, 1, 2]);
    let _ = CubeBackend::max_pool2d_with_indices_backward(
        x,
        [2, 2],
        [2, 2],
        [0, 0],
        [1, 1],
        false,
        g,
        idx,
    );
}

#[test]
#[should_panic(expected = "at most half the kernel size")]
fn max_pool2d_rejects_large_padding() {
    let _ = max_pool(
        t(vec![0.0; 16], &[1, 1, 4, 4]),
        [2, 2],
        [1, 1],
        [2, 2],
        [1, 1],
        false,
    );
}

// ------------------------------------------------------------ avg pooling

fn avg(x: T, k: [usize; 2], s: [usize; 2], p: [usize; 2], include: bool, ceil: bool) -> T {
    CubeBackend::avg_pool2d(x, k, s, p, include, ceil)
}

#[test]
fn avg_pool2d_hand_cases() {
    let y = avg(
        t(ramp(16), &[1, 1, 4, 4]),
        [2, 2],
        [2, 2],
        [0, 0],
        true,
        false,
    );
    assert_eq!(v(y), vec![2.5, 4.5, 10.5, 12.5]);
    // Ones with padding 1: corners see 1 real element of 4, edges 2 of 4.
    let ones = || t(vec![1.0; 9], &[1, 1, 3, 3]);
    let y = avg(ones(), [2, 2], [1, 1], [1, 1], true, false);
    #[rustfmt::skip]
    let want = vec![
        0.25, 0.5, 0.5, 0.25,
        0.5, 1.0, 1.0, 0.5,
        0.5, 1.0, 1.0, 0.5,
        0.25, 0.5, 0.5, 0.25,
    ];
    assert_eq!(v(y), want);
    assert_eq!(
        v(avg(ones(), [2, 2], [1, 1], [1, 1], false, false)),
        vec![1.0; 16]
    );
    // ceil_mode: windows [0,3) [2,5) [4,6) (the last clipped to the input).
    let y = avg(
        t(ramp(6), &[1, 1, 1, 6]),
        [1, 3],
        [1, 2],
        [0, 0],
        true,
        true,
    );
    assert_eq!(v(y), vec![1.0, 3.0, 4.5]);
    // ceil_mode + padding 1 on a length of 5: padded windows [0,3) [2,5) [4,7).
    let x = || t(ramp(5), &[1, 1, 1, 5]);
    close(
        &v(avg(x(), [1, 3], [1, 2], [0, 1], true, true)),
        &[1.0 / 3.0, 2.0, 7.0 / 3.0],
        1e-6,
    );
    close(
        &v(avg(x(), [1, 3], [1, 2], [0, 1], false, true)),
        &[0.5, 2.0, 3.5],
        1e-6,
    );
}

#[test]
fn avg_pool2d_permuted_input_and_backward_by_linearity() {
    let shape = [2, 2, 5, 6];
    let x = noise(numel(&shape), 5);
    let cases = [
        ([3, 2], [2, 2], [1, 1], true, true),
        ([3, 2], [2, 2], [1, 1], false, true),
        ([2, 3], [1, 3], [0, 1], true, false),
        ([3, 3], [3, 2], [1, 0], false, false),
    ];
    for (k, s, p, include, ceil) in cases {
        let want = v(avg(t(x.clone(), &shape), k, s, p, include, ceil));
        close(
            &v(avg(permuted4(&x, shape), k, s, p, include, ceil)),
            &want,
            1e-6,
        );
        // Backward on one plane-pair: ∂/∂x Σ avg(x)·g, from basis vectors.
        let small = [1, 2, 5, 6];
        let y = avg(t(vec![0.0; numel(&small)], &small), k, s, p, include, ceil);
        let out_shape = y.shape();
        let g = noise(out_shape.num_elements(), 9);
        let [on, oc, oh, ow] = out_shape.dims[..] else {
            panic!()
        };
        let dx = CubeBackend::avg_pool2d_backward(
            t(vec![0.0; numel(&small)], &small),
            permuted4(&g, [on, oc, oh, ow]),
            k,
            s,
            p,
            include,
            ceil,
        );
        let want = linear_grad(&small, &g, |x| avg(x, k, s, p, include, ceil));
        close(&v(dx), &want, 1e-5);
    }
}

#[test]
#[should_panic(expected = "avg_pool2d_backward: output gradient")]
fn avg_pool2d_backward_rejects_wrong_gradient_shape() {
    let x = t(vec![0.0; 16], &[1, 1, 4, 4]);
    let g = t(vec![0.0; 9], &[1, 1, 3, 3]);
    let _ = CubeBackend::avg_pool2d_backward(x, g, [2, 2], [2, 2], [0, 0], true, false);
}

#[test]
#[should_panic(expected = "avg_pool2d: expected a float dtype")]
fn avg_pool2d_rejects_int_input() {
    let x = CubeBackend::int_from_data(TensorData::new(vec![1i32; 16], [1, 1, 4, 4]), &dev());
    let _ = avg(x, [2, 2], [2, 2], [0, 0], true, false);
}

// --------------------------------------------------- adaptive avg pooling

#[test]
fn adaptive_avg_pool2d_hand_cases_and_backward() {
    let y = CubeBackend::adaptive_avg_pool2d(t(ramp(5), &[1, 1, 1, 5]), [1, 3]);
    assert_eq!(v(y), vec![0.5, 2.0, 3.5]);
    let y = CubeBackend::adaptive_avg_pool2d(t(ramp(16), &[1, 1, 4, 4]), [2, 2]);
    assert_eq!(v(y), vec![2.5, 4.5, 10.5, 12.5]);
    // Upsampling repeats cells: 2 -> 3 averages [0,1) [0,2) [1,2).
    let y = CubeBackend::adaptive_avg_pool2d(t(vec![2.0, 4.0], &[1, 1, 1, 2]), [1, 3]);
    assert_eq!(v(y), vec![2.0, 3.0, 4.0]);

    let shape = [2, 3, 5, 7];
    let x = noise(numel(&shape), 13);
    for out in [[3, 3], [2, 4], [7, 9], [5, 7]] {
        let want = v(CubeBackend::adaptive_avg_pool2d(t(x.clone(), &shape), out));
        close(
            &v(CubeBackend::adaptive_avg_pool2d(permuted4(&x, shape), out)),
            &want,
            1e-6,
        );
        let small = [1, 1, 5, 7];
        let g = noise(out[0] * out[1], 17);
        let dx = CubeBackend::adaptive_avg_pool2d_backward(
            t(vec![0.0; numel(&small)], &small),
            permuted4(&g, [1, 1, out[0], out[1]]),
        );
        let want = linear_grad(&small, &g, |x| CubeBackend::adaptive_avg_pool2d(x, out));
        close(&v(dx), &want, 1e-5);
    }
}

// ---------------------------------------------------------- interpolation

fn interp(x: T, size: [usize; 2], mode: InterpolateMode, align: bool) -> T {
    CubeBackend::interpolate(
        x,
        size,
        InterpolateOptions::new(mode).with_align_corners(align),
    )
}

#[test]
fn interpolate_hand_cases() {
    use InterpolateMode::*;
    let x = || t(vec![1.0, 2.0, 3.0, 4.0], &[1, 1, 2, 2]);
    #[rustfmt::skip]
    let want = vec![
        1.0, 1.0, 2.0, 2.0,
        1.0, 1.0, 2.0, 2.0,
        3.0, 3.0, 4.0, 4.0,
        3.0, 3.0, 4.0, 4.0,
    ];
    assert_eq!(v(interp(x(), [4, 4], Nearest, false)), want);
    // 3 -> 2: floor(o * 1.5) = 0, 1.
    assert_eq!(
        v(interp(
            t(vec![7.0, 8.0, 9.0], &[1, 1, 1, 3]),
            [1, 2],
            Nearest,
            false
        )),
        vec![7.0, 8.0]
    );
    // 2 -> 4 with corners aligned: src = o / 3.
    close(
        &v(interp(
            t(vec![0.0, 3.0], &[1, 1, 1, 2]),
            [1, 4],
            Bilinear,
            true,
        )),
        &[0.0, 1.0, 2.0, 3.0],
        1e-6,
    );
    // Edges aligned: src = -0.25 (clamped to 0), 0.25, 0.75, 1.25 (last pixel).
    close(
        &v(interp(
            t(vec![0.0, 4.0], &[1, 1, 1, 2]),
            [1, 4],
            Bilinear,
            false,
        )),
        &[0.0, 1.0, 3.0, 4.0],
        1e-6,
    );
    // Bicubic (a = -0.75), corners aligned, 4 -> 7: src = o / 2.
    let y = v(interp(
        t(vec![0.0, 0.0, 1.0, 0.0], &[1, 1, 1, 4]),
        [1, 7],
        Bicubic,
        true,
    ));
    close(&y, &[0.0, -0.09375, 0.0, 0.59375, 1.0, 0.59375, 0.0], 1e-6);
    // Same size with corners aligned is the identity.
    let y = v(interp(x(), [2, 2], Bicubic, true));
    close(&y, &[1.0, 2.0, 3.0, 4.0], 1e-6);
}

#[test]
fn interpolate_permuted_input_and_backward_by_linearity() {
    let shape = [2, 2, 3, 5];
    let x = noise(numel(&shape), 21);
    let small = [1, 1, 3, 5];
    for mode in [
        InterpolateMode::Nearest,
        InterpolateMode::Bilinear,
        InterpolateMode::Bicubic,
    ] {
        for align in [false, true] {
            for size in [[4, 2], [7, 11], [1, 1], [3, 5], [6, 10]] {
                let want = v(interp(t(x.clone(), &shape), size, mode, align));
                close(
                    &v(interp(permuted4(&x, shape), size, mode, align)),
                    &want,
                    1e-6,
                );
                let g = noise(size[0] * size[1], 23);
                let options = InterpolateOptions::new(mode).with_align_corners(align);
                let dx = CubeBackend::interpolate_backward(
                    t(vec![0.0; numel(&small)], &small),
                    permuted4(&g, [1, 1, size[0], size[1]]),
                    size,
                    options,
                );
                let want = linear_grad(&small, &g, |x| interp(x, size, mode, align));
                close(&v(dx), &want, 1e-5);
            }
        }
    }
}

#[test]
#[should_panic(expected = "interpolate: input spatial size")]
fn interpolate_rejects_empty_output() {
    let _ = interp(
        t(vec![1.0; 4], &[1, 1, 2, 2]),
        [0, 2],
        InterpolateMode::Bilinear,
        false,
    );
}

// ------------------------------------------------------------ convolution

struct Geo {
    stride: [usize; 3],
    padding: [usize; 3],
    dilation: [usize; 3],
    groups: usize,
}

fn out_len(i: usize, k: usize, s: usize, p: usize, d: usize) -> usize {
    (i + 2 * p - d * (k - 1) - 1) / s + 1
}

/// Conv3d on the CPU, scattering each product into its output.
fn conv_ref(
    x: &[f32],
    xs: [usize; 5],
    w: &[f32],
    ws: [usize; 5],
    bias: Option<&[f32]>,
    g: &Geo,
) -> (Vec<f32>, [usize; 5]) {
    let [b, c, id, ih, iw] = xs;
    let [o, cg, kd, kh, kw] = ws;
    let og = o / g.groups;
    let od = out_len(id, kd, g.stride[0], g.padding[0], g.dilation[0]);
    let oh = out_len(ih, kh, g.stride[1], g.padding[1], g.dilation[1]);
    let ow = out_len(iw, kw, g.stride[2], g.padding[2], g.dilation[2]);
    let os = [b, o, od, oh, ow];
    let mut out = vec![0.0f32; numel(&os)];
    for bi in 0..b {
        for oc in 0..o {
            let grp = oc / og;
            for z in 0..od {
                for y in 0..oh {
                    for xx in 0..ow {
                        let mut acc = bias.map_or(0.0, |bv| bv[oc]);
                        for ci in 0..cg {
                            let ch = grp * cg + ci;
                            for a in 0..kd {
                                for e in 0..kh {
                                    for f in 0..kw {
                                        let pz = (z * g.stride[0] + a * g.dilation[0]) as isize
                                            - g.padding[0] as isize;
                                        let py = (y * g.stride[1] + e * g.dilation[1]) as isize
                                            - g.padding[1] as isize;
                                        let px = (xx * g.stride[2] + f * g.dilation[2]) as isize
                                            - g.padding[2] as isize;
                                        if pz < 0
                                            || py < 0
                                            || px < 0
                                            || pz >= id as isize
                                            || py >= ih as isize
                                            || px >= iw as isize
                                        {
                                            continue;
                                        }
                                        let xv = x[(((bi * c + ch) * id + pz as usize) * ih
                                            + py as usize)
                                            * iw
                                            + px as usize];
                                        let wv = w[(((oc * cg + ci) * kd + a) * kh + e) * kw + f];
                                        acc += xv * wv;
                                    }
                                }
                            }
                        }
                        out[(((bi * o + oc) * od + z) * oh + y) * ow + xx] = acc;
                    }
                }
            }
        }
    }
    (out, os)
}

/// Transposed conv3d on the CPU: each input element scattered through the
/// kernel (the adjoint of `conv_ref`), output cropped by the padding.
fn conv_transpose_ref(
    x: &[f32],
    xs: [usize; 5],
    w: &[f32],
    ws: [usize; 5],
    bias: Option<&[f32]>,
    g: &Geo,
    padding_out: [usize; 3],
) -> (Vec<f32>, [usize; 5]) {
    let [b, c, id, ih, iw] = xs;
    let [_, og, kd, kh, kw] = ws;
    let cg = c / g.groups;
    let o = og * g.groups;
    let size = |d: usize, i: usize, k: usize| {
        (i - 1) * g.stride[d] + g.dilation[d] * (k - 1) + padding_out[d] + 1 - 2 * g.padding[d]
    };
    let (od, oh, ow) = (size(0, id, kd), size(1, ih, kh), size(2, iw, kw));
    let os = [b, o, od, oh, ow];
    let mut out = vec![0.0f32; numel(&os)];
    for bi in 0..b {
        for ch in 0..c {
            let grp = ch / cg;
            for z in 0..id {
                for y in 0..ih {
                    for xx in 0..iw {
                        let xv = x[(((bi * c + ch) * id + z) * ih + y) * iw + xx];
                        for oc in 0..og {
                            for a in 0..kd {
                                for e in 0..kh {
                                    for f in 0..kw {
                                        let pz = (z * g.stride[0] + a * g.dilation[0]) as isize
                                            - g.padding[0] as isize;
                                        let py = (y * g.stride[1] + e * g.dilation[1]) as isize
                                            - g.padding[1] as isize;
                                        let px = (xx * g.stride[2] + f * g.dilation[2]) as isize
                                            - g.padding[2] as isize;
                                        if pz < 0
                                            || py < 0
                                            || px < 0
                                            || pz >= od as isize
                                            || py >= oh as isize
                                            || px >= ow as isize
                                        {
                                            continue;
                                        }
                                        let wv = w[(((ch * og + oc) * kd + a) * kh + e) * kw + f];
                                        let at = (((bi * o + grp * og + oc) * od + pz as usize)
                                            * oh
                                            + py as usize)
                                            * ow
                                            + px as usize;
                                        out[at] += xv * wv;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    if let Some(bv) = bias {
        let sp = od * oh * ow;
        for (i, v) in out.iter_mut().enumerate() {
            *v += bv[(i / sp) % o];
        }
    }
    (out, os)
}

fn conv_opts(g: &Geo) -> ConvOptions<3> {
    ConvOptions::new(g.stride, g.padding, g.dilation, g.groups)
}

#[test]
fn conv3d_hand_cases() {
    let x = || t((1..=9).map(|i| i as f32).collect(), &[1, 1, 1, 3, 3]);
    let ones = || t(vec![1.0; 4], &[1, 1, 1, 2, 2]);
    let y = CubeBackend::conv3d(
        x(),
        ones(),
        None,
        ConvOptions::new([1, 1, 1], [0, 0, 0], [1, 1, 1], 1),
    );
    assert_eq!(v(y), vec![12.0, 16.0, 24.0, 28.0]);
    let y = CubeBackend::conv3d(
        x(),
        ones(),
        Some(t(vec![1.0], &[1])),
        ConvOptions::default(),
    );
    assert_eq!(v(y), vec![13.0, 17.0, 25.0, 29.0]);
    // Padding 1, stride 2: windows at padded (0,0) (0,2) (2,0) (2,2).
    let y = CubeBackend::conv3d(
        x(),
        ones(),
        None,
        ConvOptions::new([1, 2, 2], [0, 1, 1], [1, 1, 1], 1),
    );
    assert_eq!(v(y), vec![1.0, 5.0, 11.0, 28.0]);
    // Dilation 2: the four corners.
    let y = CubeBackend::conv3d(
        x(),
        ones(),
        None,
        ConvOptions::new([1, 1, 1], [0, 0, 0], [1, 2, 2], 1),
    );
    assert_eq!(v(y), vec![20.0]);
    // Depth: a 2x2x2 cube of ones over 1..8.
    let y = CubeBackend::conv3d(
        t((1..=8).map(|i| i as f32).collect(), &[1, 1, 2, 2, 2]),
        t(vec![1.0; 8], &[1, 1, 2, 2, 2]),
        None,
        ConvOptions::default(),
    );
    assert_eq!(v(y), vec![36.0]);
    // Groups: 2 channels, 4 outputs (2 per group).
    let y = CubeBackend::conv3d(
        t(vec![1.0, 2.0, 3.0, 4.0], &[1, 2, 1, 1, 2]),
        t(vec![1.0, 2.0, 3.0, 4.0], &[4, 1, 1, 1, 1]),
        Some(t(vec![0.0, 0.5, 0.0, 0.5], &[4])),
        ConvOptions::new([1, 1, 1], [0, 0, 0], [1, 1, 1], 2),
    );
    assert_eq!(v(y), vec![1.0, 2.0, 2.5, 4.5, 9.0, 12.0, 12.5, 16.5]);
}

fn conv_cases() -> Vec<([usize; 5], [usize; 5], Geo)> {
    vec![
        (
            [2, 4, 3, 5, 4],
            [6, 2, 2, 3, 2],
            Geo {
                stride: [1, 2, 1],
                padding: [1, 1, 0],
                dilation: [1, 1, 2],
                groups: 2,
            },
        ),
        (
            [1, 3, 4, 4, 5],
            [2, 3, 3, 2, 2],
            Geo {
                stride: [2, 1, 2],
                padding: [1, 0, 1],
                dilation: [1, 2, 1],
                groups: 1,
            },
        ),
        (
            [2, 4, 2, 3, 3],
            [4, 1, 1, 3, 3],
            Geo {
                stride: [1, 1, 1],
                padding: [0, 1, 1],
                dilation: [1, 1, 1],
                groups: 4,
            },
        ),
    ]
}

#[test]
fn conv3d_matches_reference_with_groups_and_permuted_input() {
    for (xs, ws, g) in conv_cases() {
        let x = noise(numel(&xs), 31);
        let w = noise(numel(&ws), 37);
        let bias = noise(ws[0], 41);
        let (want, os) = conv_ref(&x, xs, &w, ws, Some(&bias), &g);
        let y = CubeBackend::conv3d(
            permuted5(&x, xs),
            t(w.clone(), &ws),
            Some(t(bias.clone(), &[ws[0]])),
            conv_opts(&g),
        );
        assert_eq!(y.shape(), Shape::from(os.to_vec()));
        close(&v(y), &want, 1e-5);
        // A permuted weight, no bias.
        let (want, _) = conv_ref(&x, xs, &w, ws, None, &g);
        let y = CubeBackend::conv3d(t(x.clone(), &xs), permuted5(&w, ws), None, conv_opts(&g));
        close(&v(y), &want, 1e-5);
    }
}

#[test]
fn conv3d_weight_backward_hand_case_and_linearity() {
    let x = t((1..=9).map(|i| i as f32).collect(), &[1, 1, 1, 3, 3]);
    let g = t(vec![1.0; 4], &[1, 1, 1, 2, 2]);
    let dw = CubeBackend::conv3d_weight_backward(
        x,
        g,
        Shape::new([1, 1, 1, 2, 2]),
        ConvOptions::default(),
    );
    assert_eq!(v(dw), vec![12.0, 16.0, 24.0, 28.0]);

    for (xs, ws, geo) in conv_cases() {
        let x = noise(numel(&xs), 43);
        let w0 = vec![0.0; numel(&ws)];
        let (_, os) = conv_ref(&x, xs, &w0, ws, None, &geo);
        let g = noise(numel(&os), 47);
        let dw = CubeBackend::conv3d_weight_backward(
            permuted5(&x, xs),
            permuted5(&g, os),
            Shape::from(ws.to_vec()),
            conv_opts(&geo),
        );
        assert_eq!(dw.shape(), Shape::from(ws.to_vec()));
        // ∂/∂w Σ conv(x, w)·g, one weight basis vector at a time (CPU).
        let want: Vec<f32> = (0..numel(&ws))
            .map(|i| {
                let mut e = vec![0.0; numel(&ws)];
                e[i] = 1.0;
                dot(&conv_ref(&x, xs, &e, ws, None, &geo).0, &g)
            })
            .collect();
        close(&v(dw), &want, 1e-4);
    }
}

/// Both algorithms, and the column-matrix one a batch at a time (several
/// chunks, concatenated forward and summed for the weight gradient), agree
/// with the CPU references.
#[test]
fn conv3d_algorithms_and_batch_chunks_match_reference() {
    let algorithms = [
        ConvAlgorithm::Direct,
        ConvAlgorithm::Gemm { batches: 1 },
        ConvAlgorithm::Gemm { batches: 2 },
    ];
    for (xs, ws, geo) in conv_cases() {
        let x = noise(numel(&xs), 53);
        let w = noise(numel(&ws), 59);
        let bias = noise(ws[0], 61);
        let (want, os) = conv_ref(&x, xs, &w, ws, Some(&bias), &geo);
        let g = noise(numel(&os), 67);
        let want_dw: Vec<f32> = (0..numel(&ws))
            .map(|i| {
                let mut e = vec![0.0; numel(&ws)];
                e[i] = 1.0;
                dot(&conv_ref(&x, xs, &e, ws, None, &geo).0, &g)
            })
            .collect();
        for algorithm in algorithms {
            let y = conv3d_with(
                algorithm,
                permuted5(&x, xs),
                t(w.clone(), &ws),
                Some(t(bias.clone(), &[ws[0]])),
                conv_opts(&geo),
                Shape::from(os.to_vec()),
            );
            assert_eq!(y.shape(), Shape::from(os.to_vec()), "{algorithm:?}");
            close(&v(y), &want, 1e-5);
            let dw = conv3d_weight_backward_with(
                algorithm,
                t(x.clone(), &xs),
                permuted5(&g, os),
                Shape::from(ws.to_vec()),
                conv_opts(&geo),
            );
            close(&v(dw), &want_dw, 1e-4);
        }
    }
}

#[test]
fn conv_transpose3d_hand_cases() {
    let x = || t(vec![1.0, 2.0, 3.0, 4.0], &[1, 1, 1, 2, 2]);
    let ones = || t(vec![1.0; 4], &[1, 1, 1, 2, 2]);
    let y = CubeBackend::conv_transpose3d(x(), ones(), None, ConvTransposeOptions::default());
    assert_eq!(v(y), vec![1.0, 3.0, 2.0, 4.0, 10.0, 6.0, 3.0, 7.0, 4.0]);
    let opts =
        |s, p, po| ConvTransposeOptions::new([1, s, s], [0, p, p], [0, po, po], [1, 1, 1], 1);
    let y = CubeBackend::conv_transpose3d(x(), ones(), None, opts(2, 0, 0));
    #[rustfmt::skip]
    let blocks = vec![
        1.0, 1.0, 2.0, 2.0,
        1.0, 1.0, 2.0, 2.0,
        3.0, 3.0, 4.0, 4.0,
        3.0, 3.0, 4.0, 4.0,
    ];
    assert_eq!(v(y), blocks);
    // padding_out 1 adds a last row and column nothing reaches (bias only).
    let y = CubeBackend::conv_transpose3d(x(), ones(), Some(t(vec![0.5], &[1])), opts(2, 0, 1));
    assert_eq!(y.shape(), Shape::new([1, 1, 1, 5, 5]));
    let y = v(y);
    for r in 0..5 {
        for c in 0..5 {
            let want = if r < 4 && c < 4 {
                blocks[r * 4 + c] + 0.5
            } else {
                0.5
            };
            assert_eq!(y[r * 5 + c], want, "({r}, {c})");
        }
    }
    // Padding 1 crops one element from each side.
    let y = CubeBackend::conv_transpose3d(x(), ones(), None, opts(2, 1, 0));
    assert_eq!(v(y), vec![1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn conv_transpose3d_matches_reference_and_is_the_adjoint_of_conv3d() {
    let cases = [
        (
            [1, 4, 2, 3, 3],
            [4, 3, 2, 2, 3],
            Geo {
                stride: [2, 1, 2],
                padding: [1, 0, 1],
                dilation: [1, 2, 1],
                groups: 2,
            },
            [1, 0, 1],
        ),
        (
            [2, 2, 3, 2, 4],
            [2, 2, 1, 3, 2],
            Geo {
                stride: [1, 3, 2],
                padding: [0, 1, 0],
                dilation: [2, 1, 2],
                groups: 1,
            },
            [0, 2, 0],
        ),
        (
            [1, 3, 2, 4, 3],
            [3, 1, 2, 2, 2],
            Geo {
                stride: [1, 1, 1],
                padding: [0, 0, 0],
                dilation: [1, 1, 1],
                groups: 3,
            },
            [0, 0, 0],
        ),
    ];
    for (xs, ws, geo, po) in cases {
        let x = noise(numel(&xs), 53);
        let w = noise(numel(&ws), 59);
        let o = ws[1] * geo.groups;
        let bias = noise(o, 61);
        let (want, os) = conv_transpose_ref(&x, xs, &w, ws, Some(&bias), &geo, po);
        let opts = ConvTransposeOptions::new(geo.stride, geo.padding, po, geo.dilation, geo.groups);
        let y = CubeBackend::conv_transpose3d(
            permuted5(&x, xs),
            permuted5(&w, ws),
            Some(t(bias.clone(), &[o])),
            opts,
        );
        assert_eq!(y.shape(), Shape::from(os.to_vec()));
        close(&v(y), &want, 1e-5);
        // Both algorithms, the column-matrix one also a batch at a time.
        for algorithm in [
            ConvAlgorithm::Direct,
            ConvAlgorithm::Gemm { batches: 1 },
            ConvAlgorithm::Gemm { batches: 2 },
        ] {
            let y = conv_transpose3d_with(
                algorithm,
                permuted5(&x, xs),
                t(w.clone(), &ws),
                Some(t(bias.clone(), &[o])),
                opts,
                Shape::from(os.to_vec()),
            );
            assert_eq!(y.shape(), Shape::from(os.to_vec()), "{algorithm:?}");
            close(&v(y), &want, 1e-5);
        }
        // <conv3d(z, w), x> = <z, conv_transpose3d(x, w)> for z of the
        // transposed output's shape (the conv maps it back to x's shape).
        let z = noise(numel(&os), 67);
        let conv = v(CubeBackend::conv3d(
            t(z.clone(), &os),
            t(w.clone(), &ws),
            None,
            conv_opts(&geo),
        ));
        let convt = v(CubeBackend::conv_transpose3d(
            t(x.clone(), &xs),
            t(w.clone(), &ws),
            None,
            opts,
        ));
        let (lhs, rhs) = (dot(&conv, &x), dot(&z, &convt));
        assert!(
            (lhs - rhs).abs() < 1e-3 * (1.0 + lhs.abs()),
            "{lhs} vs {rhs}"
        );
    }
}

#[test]
#[should_panic(expected = "conv3d: weight")]
fn conv3d_rejects_channel_mismatch() {
    let _ = CubeBackend::conv3d(
        t(vec![0.0; 8], &[1, 2, 1, 2, 2]),
        t(vec![0.0; 3], &[1, 3, 1, 1, 1]),
        None,
        ConvOptions::default(),
    );
}

#[test]
#[should_panic(expected = "conv3d_weight_backward: output gradient")]
fn conv3d_weight_backward_rejects_large_gradient() {
    let _ = CubeBackend::conv3d_weight_backward(
        t(vec![0.0; 9], &[1, 1, 1, 3, 3]),
        t(vec![0.0; 9], &[1, 1, 1, 3, 3]),
        Shape::new([1, 1, 1, 2, 2]),
        ConvOptions::default(),
    );
}

#[test]
#[should_panic(expected = "conv_transpose3d: operands have different dtypes")]
fn conv_transpose3d_rejects_mixed_dtypes() {
    let x = t(vec![0.0; 4], &[1, 1, 1, 2, 2]);
    let w = CubeBackend::int_from_data(TensorData::new(vec![0i32; 4], [1, 1, 1, 2, 2]), &dev());
    let _ = CubeBackend::conv_transpose3d(x, w, None, ConvTransposeOptions::default());
}

// ----------------------------------------------------------------- dtypes

#[test]
fn f16_inputs_accumulate_and_round_once() {
    if !supports(DType::F16) {
        eprintln!("f16 is not supported on this device: skipped");
        return;
    }
    let half = |x: T| CubeBackend::float_cast(x, DType::F16);
    let shape = [1, 2, 5, 6];
    let x = noise(numel(&shape), 71);
    let (y, idx) = max_pool(
        half(t(x.clone(), &shape)),
        [3, 3],
        [2, 2],
        [1, 1],
        [1, 1],
        true,
    );
    assert_eq!(y.dtype(), DType::F16);
    let (_, want_idx) = max_pool(t(x.clone(), &shape), [3, 3], [2, 2], [1, 1], [1, 1], true);
    assert_eq!(ints(idx), ints(want_idx));
    let want = v(avg(
        t(x.clone(), &shape),
        [2, 3],
        [1, 2],
        [1, 1],
        false,
        false,
    ));
    close(
        &v(avg(
            half(t(x.clone(), &shape)),
            [2, 3],
            [1, 2],
            [1, 1],
            false,
            false,
        )),
        &want,
        2e-3,
    );
    let want = v(interp(
        t(x.clone(), &shape),
        [7, 4],
        InterpolateMode::Bicubic,
        false,
    ));
    close(
        &v(interp(
            half(t(x.clone(), &shape)),
            [7, 4],
            InterpolateMode::Bicubic,
            false,
        )),
        &want,
        5e-3,
    );
    let (xs, ws, geo) = conv_cases().remove(0);
    let xv = noise(numel(&xs), 73);
    let wv = noise(numel(&ws), 79);
    let want = v(CubeBackend::conv3d(
        t(xv.clone(), &xs),
        t(wv.clone(), &ws),
        None,
        conv_opts(&geo),
    ));
    let y = CubeBackend::conv3d(half(t(xv, &xs)), half(t(wv, &ws)), None, conv_opts(&geo));
    assert_eq!(y.dtype(), DType::F16);
    close(&v(y), &want, 1e-2);
}

#[test]
fn max_pool2d_backward_takes_int64_indices() {
    if !supports(DType::I64) {
        eprintln!("i64 is not supported on this device: skipped");
        return;
    }
    let x = t(vec![0.0; 4], &[1, 1, 2, 2]);
    let idx = CubeBackend::int_from_data(TensorData::new(vec![3i64, 3], [1, 1, 1, 2]), &dev());
    let g = t(vec![1.5, 2.0], &[1, 1, 1, 2]);
    let dx = CubeBackend::max_pool2d_with_indices_backward(
        x,
        [1, 1],
        [1, 1],
        [0, 0],
        [1, 1],
        false,
        g,
        idx,
    );
    assert_eq!(v(dx), vec![0.0, 0.0, 0.0, 3.5]);
}

#[test]
fn f64_inputs_compute_in_f64() {
    if !supports(DType::F64) {
        eprintln!("f64 is not supported on this device: skipped");
        return;
    }
    let d64 = |vals: Vec<f64>, shape: &[usize]| {
        CubeBackend::float_from_data(TensorData::new(vals, shape.to_vec()), &dev())
    };
    let r = |x: T| {
        CubeBackend::float_into_data(x)
            .unwrap()
            .to_vec::<f64>()
            .unwrap()
    };
    // Offsets of 1e-9 on 0.3 are lost in f32, kept in f64.
    let vals: Vec<f64> = (0..16).map(|i| 0.3 + i as f64 * 1e-9).collect();
    let y = r(avg(
        d64(vals.clone(), &[1, 1, 4, 4]),
        [2, 2],
        [2, 2],
        [0, 0],
        true,
        false,
    ));
    let want = [0.3 + 2.5e-9, 0.3 + 4.5e-9, 0.3 + 10.5e-9, 0.3 + 12.5e-9];
    for (g, w) in y.iter().zip(want) {
        assert!((g - w).abs() < 1e-14, "{y:?}");
    }
    let (y, _) = max_pool(
        d64(vals.clone(), &[1, 1, 4, 4]),
        [2, 2],
        [2, 2],
        [0, 0],
        [1, 1],
        false,
    );
    assert_eq!(r(y), vec![vals[5], vals[7], vals[13], vals[15]]);
    let w = d64(vec![1.0; 4], &[1, 1, 1, 2, 2]);
    let y = r(CubeBackend::conv3d(
        d64(vals[..9].to_vec(), &[1, 1, 1, 3, 3]),
        w,
        None,
        ConvOptions::default(),
    ));
    let want = [1.2 + 8e-9, 1.2 + 12e-9, 1.2 + 20e-9, 1.2 + 24e-9];
    for (g, w) in y.iter().zip(want) {
        assert!((g - w).abs() < 1e-14, "{y:?}");
    }
    let y = r(interp(
        d64(vec![0.0, 1e-9], &[1, 1, 1, 2]),
        [1, 4],
        InterpolateMode::Bilinear,
        true,
    ));
    for (g, w) in y.iter().zip([0.0, 1e-9 / 3.0, 2e-9 / 3.0, 1e-9]) {
        assert!((g - w).abs() < 1e-20, "{y:?}");
    }
}
