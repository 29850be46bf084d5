//! Generalised cosine windows: [`hann_window`], [`hamming_window`],
//! [`blackman_window`].
//!
//! Each is `w[k] = Σ_j (-1)^j · a_j · cos(2π·j·k / N)`, `k < size`, where
//! `N = size` for a periodic window (the first `size` points of a
//! symmetric window of `size + 1`: what an STFT wants, since the frames
//! then overlap-add to a constant) and `N = size − 1` for a symmetric one
//! (what `numpy.hanning` and filter design want). The flag means what
//! PyTorch's `periodic` argument means. Values are computed in f64 and
//! rounded once to the requested dtype.

use burn_tensor::{Tensor, TensorCreationOptions, TensorData};
use std::f64::consts::PI;
use std::vec::Vec;

/// Creates a 1D Hann window: `w[k] = 0.5 − 0.5·cos(2πk/N)`.
///
/// `N = size` if `periodic`, else `size − 1`. `size == 0` gives an empty
/// tensor and `size == 1` gives `[1.0]` whatever `periodic` says.
///
/// # Example
///
/// ```
/// use burn_tensor::{Device, TensorData, Tolerance};
///
/// let device = Device::flex();
/// let w = burn_signal::hann_window(4, true, &device);
/// w.into_data().assert_approx_eq::<f32>(
///     &TensorData::from([0.0f32, 0.5, 1.0, 0.5]),
///     Tolerance::default(),
/// );
/// ```
pub fn hann_window(
    size: usize,
    periodic: bool,
    options: impl Into<TensorCreationOptions>,
) -> Tensor<1> {
    cosine_window(&[0.5, 0.5], size, periodic, options.into())
}

/// Creates a 1D Hamming window: `w[k] = 0.54 − 0.46·cos(2πk/N)`.
///
/// `N` and the `size` 0 and 1 cases as for [`hann_window`].
///
/// # Example
///
/// ```
/// use burn_tensor::{Device, TensorData, Tolerance};
///
/// let device = Device::flex();
/// let w = burn_signal::hamming_window(3, false, &device);
/// w.into_data().assert_approx_eq::<f32>(
///     &TensorData::from([0.08f32, 1.0, 0.08]),
///     Tolerance::default(),
/// );
/// ```
pub fn hamming_window(
    size: usize,
    periodic: bool,
    options: impl Into<TensorCreationOptions>,
) -> Tensor<1> {
    cosine_window(&[0.54, 0.46], size, periodic, options.into())
}

/// Creates a 1D Blackman window:
/// `w[k] = 0.42 − 0.5·cos(2πk/N) + 0.08·cos(4πk/N)`.
///
/// `N` and the `size` 0 and 1 cases as for [`hann_window`].
///
/// # Example
///
/// ```
/// use burn_tensor::{Device, TensorData, Tolerance};
///
/// let device = Device::flex();
/// let w = burn_signal::blackman_window(3, false, &device);
/// w.into_data().assert_approx_eq::<f32>(
///     &TensorData::from([0.0f32, 1.0, 0.0]),
///     Tolerance::default(),
/// );
/// ```
pub fn blackman_window(
    size: usize,
    periodic: bool,
    options: impl Into<TensorCreationOptions>,
) -> Tensor<1> {
    cosine_window(&[0.42, 0.5, 0.08], size, periodic, options.into())
}

/// The values of a generalised cosine window in f64; non-generic so the
/// three public windows share one copy.
pub(crate) fn cosine_window_values(coeffs: &[f64], size: usize, periodic: bool) -> Vec<f64> {
    if size <= 1 {
        return std::vec![1.0; size];
    }
    let denom = if periodic { size } else { size - 1 } as f64;
    (0..size)
        .map(|k| {
            coeffs
                .iter()
                .enumerate()
                .map(|(j, &a)| {
                    let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
                    // Reduce j·k modulo the period before the angle is formed.
                    let phase = ((j * k) as f64) % denom;
                    sign * a * (2.0 * PI * phase / denom).cos()
                })
                .sum()
        })
        .collect()
}

fn cosine_window(
    coeffs: &[f64],
    size: usize,
    periodic: bool,
    options: TensorCreationOptions,
) -> Tensor<1> {
    let values = cosine_window_values(coeffs, size, periodic);
    Tensor::from_data(TensorData::new(values, [size]), options)
}
