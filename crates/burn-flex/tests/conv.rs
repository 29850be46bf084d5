//! Flex's im2col convolutions beyond the shared suite (which checks values
//! and gradients against PyTorch in `burn-backend-tests`): bit-identical
//! results for any thread count, strided (permuted) operands, f16/bf16
//! against f32, a hand-worked case, and the implicit GEMM's edges against
//! the definition summed in f64.

use burn_backend::{ConvOptions, ConvTransposeOptions, FloatTensorOps, ModuleOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Shape, TensorData, Tolerance};

/// Deterministic values in [-1, 1) (xorshift).
fn random(shape: &[usize], dtype: DType, seed: u64) -> FlexTensor {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let values: Vec<f64> = (0..shape.iter().product::<usize>())
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect();
    let data = TensorData::new(values, shape.to_vec()).convert_dtype(dtype);
    Flex::float_from_data(data, &FlexDevice)
}

fn data(t: FlexTensor) -> TensorData {
    Flex::float_into_data(t).unwrap()
}

#[test]
fn hand_worked_conv2d_and_its_transpose() {
    // x = [[1, 2, 3], [4, 5, 6], [7, 8, 9]], w = [[1, 0], [0, -1]]:
    // each output is x[i][j] - x[i+1][j+1] = -4.
    let x = Flex::float_from_data(
        TensorData::new((1..=9).map(|v| v as f32).collect(), [1, 1, 3, 3]),
        &FlexDevice,
    );
    let w = Flex::float_from_data(
        TensorData::new(vec![1.0f32, 0.0, 0.0, -1.0], [1, 1, 2, 2]),
        &FlexDevice,
    );
    let b = Flex::float_from_data(TensorData::new(vec![0.5f32], [1]), &FlexDevice);
    let y = Flex::conv2d(x, w.clone(), Some(b), ConvOptions::default());
    data(y).assert_eq(&TensorData::new(vec![-3.5f32; 4], [1, 1, 2, 2]), true);
    // The transpose scatters each input through the kernel: a 1 at (0, 0)
    // gives the kernel itself, placed at (0, 0) of a 2×2 output.
    let one = Flex::float_from_data(TensorData::new(vec![1.0f32], [1, 1, 1, 1]), &FlexDevice);
    let t = Flex::conv_transpose2d(one, w, None, ConvTransposeOptions::default());
    data(t).assert_eq(
        &TensorData::new(vec![1.0f32, 0.0, 0.0, -1.0], [1, 1, 2, 2]),
        true,
    );
}

#[test]
fn permuted_operands_give_the_contiguous_result() {
    let options = ConvOptions::new([2, 1], [1, 1], [1, 2], 2);
    let x = random(&[2, 4, 7, 6], DType::F32, 1);
    let w = random(&[6, 2, 3, 2], DType::F32, 2);
    let expected = data(Flex::conv2d(x.clone(), w.clone(), None, options));
    // The same values behind a transposed layout.
    let xt = Flex::float_swap_dims(Flex::float_swap_dims(x, 2, 3).to_contiguous(), 2, 3);
    assert_eq!(xt.shape(), Shape::new([2, 4, 7, 6]));
    data(Flex::conv2d(xt, w, None, options)).assert_eq(&expected, true);
}

#[test]
fn half_precision_follows_f32() {
    let options = ConvOptions::new([1, 1], [1, 1], [1, 1], 1);
    let run = |dtype| {
        let x = random(&[2, 3, 5, 5], dtype, 3);
        let w = random(&[4, 3, 3, 3], dtype, 4);
        let b = random(&[4], dtype, 5);
        let y = Flex::conv2d(x, w, Some(b), options);
        assert_eq!(y.dtype(), dtype);
        data(y).convert::<f32>()
    };
    let reference = run(DType::F32);
    for dtype in [DType::F16, DType::BF16] {
        // Inputs rounded to 8 (bf16) or 11 (f16) bits, sums of 27 products.
        run(dtype).assert_approx_eq::<f32>(&reference, Tolerance::rel_abs(5e-2, 8e-2));
    }
}

#[cfg(feature = "threads")]
#[test]
fn results_do_not_depend_on_the_thread_count() {
    let run = |threads: usize| {
        burn_flex::threads::with_threads(threads, || {
            // Large enough for the packed GEMM and for two column blocks;
            // batch 3 splits over workers (or not, for 5 threads).
            let options = ConvOptions::new([1, 1, 1], [0, 1, 1], [1, 1, 1], 1);
            let x = random(&[3, 16, 1, 24, 24], DType::F32, 6);
            let w = random(&[32, 16, 1, 3, 3], DType::F32, 7);
            let y = Flex::conv3d(x.clone(), w.clone(), None, options);
            let g = random(&y.shape().dims, DType::F32, 8);
            let dw = Flex::conv3d_weight_backward(x, g.clone(), w.shape(), options);
            let t_options = ConvTransposeOptions::new([1, 1, 1], [0, 1, 1], [0; 3], [1; 3], 1);
            let dx = Flex::conv_transpose3d(g, w, None, t_options);
            (data(y), data(dw), data(dx))
        })
    };
    let (y1, dw1, dx1) = run(1);
    for threads in [2, 3, 5] {
        let (y, dw, dx) = run(threads);
        y.assert_eq(&y1, true);
        dw.assert_eq(&dw1, true);
        dx.assert_eq(&dx1, true);
    }
}

/// The definition of a grouped 3-d convolution, summed in f64: the oracle
/// for the implicit GEMM's panel packing.
fn conv3d_by_definition(
    x: &[f64],
    xs: [usize; 5],
    w: &[f64],
    ws: [usize; 5],
    bias: &[f64],
    o: &ConvOptions<3>,
) -> (Vec<f64>, [usize; 5]) {
    let [b, c, di, hi, wi] = xs;
    let [oc, cg, kd, kh, kw] = ws;
    let size = |i: usize, k: usize, d: usize| {
        (i + 2 * o.padding[d] - o.dilation[d] * (k - 1) - 1) / o.stride[d] + 1
    };
    let (od, oh, ow) = (size(di, kd, 0), size(hi, kh, 1), size(wi, kw, 2));
    let og = oc / o.groups;
    let mut out = vec![0.0; b * oc * od * oh * ow];
    let at = |v: usize, k: usize, d: usize| {
        (v * o.stride[d] + k * o.dilation[d]) as isize - o.padding[d] as isize
    };
    for n in 0..b {
        for q in 0..oc {
            let g = q / og;
            for (z, y, xx) in
                (0..od).flat_map(|z| (0..oh).flat_map(move |y| (0..ow).map(move |xx| (z, y, xx))))
            {
                let mut acc = bias[q];
                for cl in 0..cg {
                    let ci = g * cg + cl;
                    for (a, bb, e) in (0..kd)
                        .flat_map(|a| (0..kh).flat_map(move |bb| (0..kw).map(move |e| (a, bb, e))))
                    {
                        let (iz, iy, ix) = (at(z, a, 0), at(y, bb, 1), at(xx, e, 2));
                        if iz < 0
                            || iy < 0
                            || ix < 0
                            || iz >= di as isize
                            || iy >= hi as isize
                            || ix >= wi as isize
                        {
                            continue;
                        }
                        let xv = x[(((n * c + ci) * di + iz as usize) * hi + iy as usize) * wi
                            + ix as usize];
                        let wv = w[(((q * cg + cl) * kd + a) * kh + bb) * kw + e];
                        acc += xv * wv;
                    }
                }
                out[(((n * oc + q) * od + z) * oh + y) * ow + xx] = acc;
            }
        }
    }
    (out, [b, oc, od, oh, ow])
}

/// Shapes that take the implicit GEMM through its edges: more than one
/// `kc` block of rows (k = 40·9 = 360), several column blocks with a
/// partial last panel, strides, dilation and asymmetric padding, groups,
/// a 3-d window, and batch 1 (the column blocks then split over threads).
#[test]
fn implicit_gemm_matches_the_definition() {
    let cases: [([usize; 5], [usize; 5], ConvOptions<3>); 4] = [
        (
            [2, 40, 1, 23, 29],
            [24, 40, 1, 3, 3],
            ConvOptions::new([1, 2, 1], [0, 1, 2], [1, 1, 2], 1),
        ),
        (
            [1, 40, 1, 31, 37],
            [13, 40, 1, 3, 3],
            ConvOptions::new([1, 1, 1], [0, 1, 1], [1, 1, 1], 1),
        ),
        (
            [3, 12, 4, 9, 11],
            [18, 4, 2, 3, 3],
            ConvOptions::new([1, 1, 2], [1, 1, 1], [1, 2, 1], 3),
        ),
        (
            [2, 3, 1, 40, 45],
            [5, 3, 1, 5, 5],
            ConvOptions::new([1, 3, 2], [0, 2, 0], [1, 1, 1], 1),
        ),
    ];
    for (seed, (xs, ws, options)) in cases.into_iter().enumerate() {
        let x = random(&xs, DType::F32, 10 + seed as u64);
        let w = random(&ws, DType::F32, 20 + seed as u64);
        let b = random(&[ws[0]], DType::F32, 30 + seed as u64);
        let f64s = |t: &FlexTensor| {
            data(t.clone())
                .convert_dtype(DType::F64)
                .to_vec::<f64>()
                .unwrap()
        };
        let (want, shape) = conv3d_by_definition(&f64s(&x), xs, &f64s(&w), ws, &f64s(&b), &options);
        let expected = TensorData::new(want, shape.to_vec()).convert_dtype(DType::F32);
        for threads in [1, 2] {
            let got = burn_flex::threads::with_threads(threads, || {
                data(Flex::conv3d(x.clone(), w.clone(), Some(b.clone()), options))
            });
            got.assert_approx_eq::<f32>(&expected, Tolerance::absolute(1e-4));
        }
    }
}
