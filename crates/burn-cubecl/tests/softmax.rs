//! The fused softmax against values computed on the host in f64.
#![cfg(any(feature = "wgpu", feature = "cuda"))]

use burn_backend::{ActivationOps, FloatTensorOps};
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{Shape, TensorData};

fn upload(values: &[f32], shape: &[usize]) -> CubeTensor {
    CubeBackend::float_from_data(
        TensorData::new(values.to_vec(), Shape::from(shape.to_vec())),
        &CubeDevice::default(),
    )
}

fn read(t: CubeTensor) -> Vec<f32> {
    CubeBackend::float_into_data(t)
        .unwrap()
        .to_vec::<f32>()
        .unwrap()
}

/// Softmax of each row of `rows × len` values, in f64.
fn reference(values: &[f32], len: usize, log: bool) -> Vec<f32> {
    values
        .chunks(len)
        .flat_map(|row| {
            let max = row.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v as f64));
            let sum: f64 = row.iter().map(|&v| (v as f64 - max).exp()).sum();
            row.iter()
                .map(move |&v| {
                    let v = v as f64;
                    (if log {
                        v - max - sum.ln()
                    } else {
                        (v - max).exp() / sum
                    }) as f32
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

fn assert_close(got: &[f32], want: &[f32], tol: f32) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || (g - w).abs() <= tol * (1.0 + w.abs());
        assert!(ok, "element {i}: got {g}, want {w}");
    }
}

fn pseudo_random(n: usize, scale: f32) -> Vec<f32> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * scale
        })
        .collect()
}

#[test]
fn last_dim_short_and_long_rows() {
    // Rows held in registers: 3 of 5 (shorter than a cube), 2 of 3001
    // (scalar reads), 2 of 4108 (vectors of 4), 3 of 64. Rows streamed
    // twice (longer than 1024 units × 8 vectors): 1 of 40000 (vectors of 4:
    // groups of four loads per unit and a remainder), 2 of 33001 (scalar).
    for (rows, len) in [
        (3, 5),
        (2, 3001),
        (2, 4108),
        (3, 64),
        (1, 40000),
        (2, 33001),
    ] {
        let values = pseudo_random(rows * len, 20.0);
        for log in [false, true] {
            let t = upload(&values, &[rows, len]);
            let got = if log {
                CubeBackend::log_softmax(t, 1)
            } else {
                CubeBackend::softmax(t, 1)
            };
            assert_close(&read(got), &reference(&values, len, log), 2e-5);
        }
    }
}

#[test]
fn large_values_do_not_overflow() {
    // exp(1000) overflows f32: the max is subtracted first.
    let values = [1000.0f32, 1000.0 + 2f32.ln(), 999.0];
    let got = read(CubeBackend::softmax(upload(&values, &[1, 3]), 1));
    assert_close(&got, &reference(&values, 3, false), 1e-6);
}

#[test]
fn infinities_and_nan() {
    // A -inf element gets 0; a row with NaN is NaN; a row of -inf is NaN (0/0),
    // as PyTorch gives.
    let inf = f32::INFINITY;
    let values = [0.0f32, -inf, 0.0, f32::NAN, 1.0, 2.0, -inf, -inf, -inf];
    let got = read(CubeBackend::softmax(upload(&values, &[3, 3]), 1));
    assert_close(&got[..3], &[0.5, 0.0, 0.5], 1e-6);
    assert!(got[3..].iter().all(|v| v.is_nan()), "{got:?}");
}

#[test]
fn other_dims_and_permuted_input() {
    let (a, b, c) = (4, 3, 5);
    let values = pseudo_random(a * b * c, 6.0);
    // Softmax over dim 0 of a [4, 3, 5] tensor equals the last-dim softmax of
    // its [3, 5, 4] transpose, transposed back.
    let t = upload(&values, &[a, b, c]);
    let got = read(CubeBackend::softmax(t, 0));
    let mut moved = vec![0.0; values.len()];
    for i in 0..a {
        for j in 0..b {
            for k in 0..c {
                moved[(j * c + k) * a + i] = values[(i * b + j) * c + k];
            }
        }
    }
    let want_moved = reference(&moved, a, false);
    for i in 0..a {
        for j in 0..b {
            for k in 0..c {
                let g = got[(i * b + j) * c + k];
                let w = want_moved[(j * c + k) * a + i];
                assert!((g - w).abs() < 2e-6, "({i},{j},{k}): {g} vs {w}");
            }
        }
    }
    // A permuted (non-contiguous) input along its last dim.
    let t = CubeBackend::float_permute(upload(&values, &[a, b * c]), &[1, 0]);
    let got = read(CubeBackend::softmax(t, 1));
    let mut transposed = vec![0.0; values.len()];
    for i in 0..a {
        for j in 0..b * c {
            transposed[j * a + i] = values[i * b * c + j];
        }
    }
    assert_close(&got, &reference(&transposed, a, false), 2e-5);
}

#[test]
fn rows_of_a_sliced_input() {
    // Rows 1..3 of a [3, 4100] tensor: the data starts 4100 elements into
    // the buffer, a multiple of the vector size.
    let (rows, len) = (3, 4100);
    let values = pseudo_random(rows * len, 12.0);
    let t = CubeBackend::float_slice(
        upload(&values, &[rows, len]),
        &[burn_std::Slice::new(1, Some(3), 1), burn_std::Slice::full()],
    );
    for log in [false, true] {
        let got = if log {
            CubeBackend::log_softmax(t.clone(), 1)
        } else {
            CubeBackend::softmax(t.clone(), 1)
        };
        assert_close(&read(got), &reference(&values[len..], len, log), 2e-5);
    }
}
