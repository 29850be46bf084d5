//! # burn-signal: FFTs and spectral windows on Burn tensors
//!
//! One-dimensional discrete Fourier transforms along any dim of a float
//! tensor, batched over the other dims, and the cosine windows that go with
//! them. The names and signatures follow Burn's published `burn::signal`:
//! a complex tensor is a pair `(re, im)` of float tensors of one shape, `dim`
//! accepts negative values, and `n` zero-pads or truncates.
//!
//! | function | input | output along `dim` |
//! |---|---|---|
//! | [`rfft`] | real, length `L` | `n/2 + 1` bins, `(re, im)` |
//! | [`irfft`] | half spectrum `(re, im)` | real, length `n` (default `2·(bins − 1)`) |
//! | [`cfft`] | complex `(re, im)` | `n` bins, `(re, im)` |
//! | [`ifft`] | complex `(re, im)` | `n` samples, `(re, im)`, scaled by `1/n` |
//! | [`hann_window`], [`hamming_window`], [`blackman_window`] | `size`, `periodic` | `[size]` |
//! | [`stft`] | `[batch, length]` | `[batch, n_frames, n_freqs, 2]` |
//! | [`istft`] | `[batch, n_frames, n_freqs, 2]` | `[batch, length]` |
//!
//! ## Beyond Burn 0.23
//!
//! - **Any length.** Burn 0.23 accepts only powers of two. Here powers of two
//!   run an iterative radix-2 FFT, lengths whose prime factors are at most
//!   31 a mixed-radix one, and the rest (large primes such as 1,000,003)
//!   Bluestein's chirp-z over a power-of-two convolution.
//! - **f64 at f64 accuracy.** f64 tensors are transformed in f64 with
//!   twiddles computed from exact integer indices (error ~1e-15 of the
//!   signal's scale, checked against NumPy); other float dtypes in f32.
//! - **istft keeps the tail.** Given the original `length`, [`istft`]
//!   recovers every sample, also when the length is not a multiple of the
//!   hop; a sample that no window reaches is reported, never zero-filled.
//!
//! ## What it must not depend on
//!
//! No backend crate: the functions read the tensor back to the host,
//! transform there and build the result on the same device and dtype, so
//! they work on every backend unchanged. The price is a device round trip
//! and no autodiff: gradients cannot flow through a host transform, so a
//! tracked input (one that requires a gradient, or is computed from one) is
//! refused rather than silently cut from the graph; `detach()` it to
//! transform its values. Native kernels (Flex, CubeCL) registered as backend
//! extensions are the way to lift both limits without changing this API.
//!
//! ## Errors
//!
//! Bad input is a programmer error and panics with a message that names the
//! function and the shape: an empty tensor, `n = Some(0)`, a `dim` out of
//! range, real and imaginary parts of different shapes, a non-float tensor.
//! Each FFT has a `try_` form (`try_rfft`, …) that returns the same cases as
//! a [`SignalError`] instead, checked from the shapes before any data is
//! read. `stft` and `istft` panic only.
//!
//! ## Example
//!
//! ```
//! use burn_tensor::{DType, Device, Tensor};
//!
//! let device = Device::flex();
//! // Two signals of 97 samples (a prime length), batched along dim 0, in f64.
//! let t: Vec<f64> = (0..2 * 97).map(|i| (0.3 * i as f64).sin()).collect();
//! let x = Tensor::<2>::from_data(burn_tensor::TensorData::new(t, [2, 97]), (&device, DType::F64));
//!
//! let (re, im) = burn_signal::rfft(x.clone(), -1, None);
//! assert_eq!(re.dims(), [2, 49]);
//!
//! let back = burn_signal::irfft(re, im, -1, Some(97));
//! let err: f64 = (back - x).abs().max().into_scalar();
//! assert!(err < 1e-13);
//! ```
//!
//! ## Modules
//!
//! - `fft`: the four transforms and, in `fft::kernel`, the host FFT
//!   (radix-2, mixed radix, Bluestein).
//! - `stft`: [`stft`] and [`istft`] with [`StftOptions`] (frames of
//!   `rfft`/`irfft` on the host, overlap-add with window-envelope division).
//! - `window`: the generalised cosine windows.

mod error;
mod fft;
mod stft;
mod window;

pub use error::SignalError;
pub use fft::{cfft, ifft, irfft, rfft, try_cfft, try_ifft, try_irfft, try_rfft};
pub use stft::{StftOptions, istft, stft};
pub use window::{blackman_window, hamming_window, hann_window};
