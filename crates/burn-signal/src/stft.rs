//! Short-time Fourier transform and its inverse: [`stft`], [`istft`],
//! configured by [`StftOptions`] (PyTorch's conventions and defaults).
//!
//! Frames are `n_fft` samples `hop_length` apart; with `center` the signal is
//! first reflect-padded by `n_fft / 2` on each side, so frame `t` is centred
//! on sample `t·hop_length`. The window (length `win_length`, default
//! rectangular) is zero-padded on both sides to `n_fft`. The spectrum is laid
//! out `[batch, n_frames, n_freqs, 2]`, the last dim holding `(re, im)`, as in
//! Burn's published `stft`.
//!
//! [`istft`] overlap-adds the windowed inverse frames and divides by the sum
//! of squared windows (the least-squares inverse), so `istft(stft(x))`
//! returns `x` whenever that sum is non-zero over the output: pass
//! `length = Some(x_len)` and every sample comes back, including the tail
//! when the length is not a multiple of the hop (without `length` the output
//! stops at the last full hop, as PyTorch's does). A sample no frame
//! reaches is an error, not a silent zero.
//!
//! Like the FFTs, both run on the host and are not tracked by autodiff.

use crate::fft::kernel::{Complex, Plan, Real, Work};
use burn_std::{DType, TensorData};
use burn_tensor::{Device, Tensor};
use std::vec;
use std::vec::Vec;

/// Configuration shared by [`stft`] and [`istft`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StftOptions {
    /// Samples per frame, and the FFT length (`>= 1`).
    pub n_fft: usize,
    /// Samples between successive frames (`>= 1`).
    pub hop_length: usize,
    /// Window length (`<= n_fft`); the window is centred in the frame and
    /// zero-padded to `n_fft`. `None` means `n_fft`.
    pub win_length: Option<usize>,
    /// Reflect-pad the signal by `n_fft / 2` on both sides before framing.
    pub center: bool,
    /// Keep the `n_fft/2 + 1` non-redundant bins (real input); otherwise all
    /// `n_fft`.
    pub onesided: bool,
}

impl StftOptions {
    /// PyTorch's defaults for an FFT size: `hop_length = n_fft / 4` (at
    /// least 1), `win_length = n_fft`, `center = true`, `onesided = true`.
    pub fn new(n_fft: usize) -> Self {
        Self {
            n_fft,
            hop_length: (n_fft / 4).max(1),
            win_length: None,
            center: true,
            onesided: true,
        }
    }

    fn win_length(&self) -> usize {
        self.win_length.unwrap_or(self.n_fft)
    }

    fn n_freqs(&self) -> usize {
        if self.onesided {
            self.n_fft / 2 + 1
        } else {
            self.n_fft
        }
    }

    #[track_caller]
    fn check(&self, op: &str) {
        let win = self.win_length();
        assert!(
            self.n_fft >= 1 && self.hop_length >= 1 && (1..=self.n_fft).contains(&win),
            "{op}: need n_fft >= 1, hop_length >= 1 and 1 <= win_length <= n_fft, got {self:?}"
        );
    }
}

/// Computes the short-time Fourier transform of a batch of real signals.
///
/// # Arguments
///
/// * `signal` - `[batch, length]`.
/// * `window` - `[win_length]` analysis window; `None` is rectangular.
/// * `options` - Frame size, hop, window length, centring, one-sidedness.
///
/// # Returns
///
/// `[batch, n_frames, n_freqs, 2]` with `(re, im)` last, where
/// `n_frames = 1 + (padded_length − n_fft) / hop_length` and `n_freqs` is
/// `n_fft/2 + 1` (one-sided) or `n_fft`.
///
/// # Panics
///
/// If the options are inconsistent, the window's length is not
/// `win_length`, the signal is empty, shorter than one frame, or (with
/// `center`) not longer than `n_fft / 2` (reflect padding needs it).
///
/// # Example
///
/// ```
/// use burn_tensor::{Device, Tensor};
/// use burn_signal::{hann_window, stft, StftOptions};
///
/// let device = Device::flex();
/// let x = Tensor::<2>::ones([1, 100], &device);
/// let spec = stft(x, Some(hann_window(16, true, &device)), StftOptions::new(16));
/// assert_eq!(spec.dims(), [1, 26, 9, 2]); // 1 + 100 / 4 frames, 16/2 + 1 bins
/// ```
#[track_caller]
pub fn stft(signal: Tensor<2>, window: Option<Tensor<1>>, options: StftOptions) -> Tensor<4> {
    refuse_tracked("stft", &signal, window.as_ref());
    let device = signal.device();
    let data = stft_impl(signal.into_data(), window.map(Tensor::into_data), options);
    from_host(data, &device)
}

/// Inverts [`stft`] by windowed overlap-add.
///
/// # Arguments
///
/// * `stft_matrix` - `[batch, n_frames, n_freqs, 2]`, as [`stft`] returns.
/// * `window` - The forward transform's window; `None` is rectangular.
/// * `length` - Output length. Pass the original signal's length to get
///   every sample back; `None` stops at the last full hop (PyTorch's
///   default), which drops the tail when the length was not a multiple of
///   the hop.
/// * `options` - The forward transform's options.
///
/// # Returns
///
/// `[batch, length]`.
///
/// # Panics
///
/// If the shapes do not match the options, or an output sample is reached
/// by no frame or only by zeros of the window (the sum of squared windows
/// is zero there, so nothing can be recovered).
///
/// # Example
///
/// ```
/// use burn_tensor::{DType, Device, Tensor, TensorData};
/// use burn_signal::{hann_window, istft, stft, StftOptions};
///
/// let device = Device::flex();
/// let samples: Vec<f64> = (0..1001).map(|i| (0.05 * i as f64).sin()).collect();
/// let x = Tensor::<2>::from_data(TensorData::new(samples, [1, 1001]), (&device, DType::F64));
/// let window = hann_window(64, true, (&device, DType::F64));
/// let options = StftOptions::new(64); // hop 16: 1001 is not a multiple
/// let spec = stft(x.clone(), Some(window.clone()), options);
/// let back = istft(spec, Some(window), Some(1001), options);
/// let err: f64 = (back - x).abs().max().into_scalar();
/// assert!(err < 1e-12);
/// ```
pub fn istft(
    stft_matrix: Tensor<4>,
    window: Option<Tensor<1>>,
    length: Option<usize>,
    options: StftOptions,
) -> Tensor<2> {
    refuse_tracked("istft", &stft_matrix, window.as_ref());
    let device = stft_matrix.device();
    let data = istft_impl(
        stft_matrix.into_data(),
        window.map(Tensor::into_data),
        length,
        options,
    );
    from_host(data, &device)
}

/// Panics if an input is part of an autodiff graph (see
/// [`SignalError::Tracked`](crate::SignalError::Tracked)).
#[track_caller]
fn refuse_tracked<const D: usize>(op: &'static str, input: &Tensor<D>, window: Option<&Tensor<1>>) {
    if input.is_tracked() || window.is_some_and(Tensor::is_tracked) {
        panic!(
            "{}",
            crate::SignalError::Tracked {
                op,
                shape: input.shape().dims
            }
        );
    }
}

fn from_host<const D: usize>(data: TensorData, device: &Device) -> Tensor<D> {
    let dtype = data.dtype;
    Tensor::from_data(data, (device, dtype))
}

/// The window laid out over a whole frame: `win_length` values centred in
/// `n_fft`, zeros around (ones when no window is given).
#[track_caller]
fn frame_window(op: &str, window: Option<&TensorData>, options: &StftOptions) -> Vec<f64> {
    let win = options.win_length();
    let values = match window {
        Some(w) => {
            assert!(
                w.shape.dims == [win],
                "{op}: window of shape {:?} does not match win_length {win}",
                w.shape.dims
            );
            w.convert::<f64>().into_vec::<f64>().expect("f64 data")
        }
        None => vec![1.0; win],
    };
    let left = (options.n_fft - win) / 2;
    let mut full = vec![0.0; options.n_fft];
    full[left..left + win].copy_from_slice(&values);
    full
}

/// Runs `f` in f64 for f64 data and in f32 otherwise, converting back to
/// `dtype` at the end.
fn in_precision(
    dtype: DType,
    f64_path: impl FnOnce() -> TensorData,
    f32_path: impl FnOnce() -> TensorData,
) -> TensorData {
    if dtype == DType::F64 {
        f64_path()
    } else {
        f32_path().convert_dtype(dtype)
    }
}

fn host<T: burn_std::Element>(data: &TensorData) -> Vec<T> {
    data.convert::<T>().into_vec::<T>().expect("converted data")
}

#[track_caller]
fn stft_impl(signal: TensorData, window: Option<TensorData>, options: StftOptions) -> TensorData {
    options.check("stft");
    let shape = signal.shape.dims.clone();
    let dtype = signal.dtype;
    assert!(
        dtype.is_float(),
        "stft: expected a float signal, got {dtype:?} of shape {shape:?}"
    );
    let (batch, len) = (shape[0], shape[1]);
    assert!(
        batch > 0 && len > 0,
        "stft: cannot transform an empty signal of shape {shape:?}"
    );
    let n_fft = options.n_fft;
    let pad = if options.center { n_fft / 2 } else { 0 };
    assert!(
        !options.center || pad < len,
        "stft: reflect padding by n_fft / 2 = {pad} needs a longer signal than shape {shape:?}"
    );
    let padded = len + 2 * pad;
    assert!(
        padded >= n_fft,
        "stft: a signal of shape {shape:?} is shorter than one frame of n_fft = {n_fft}"
    );
    let n_frames = 1 + (padded - n_fft) / options.hop_length;
    let window = frame_window("stft", window.as_ref(), &options);
    let geometry = Geometry {
        batch,
        len,
        pad,
        n_frames,
        n_freqs: options.n_freqs(),
    };
    let out_shape = vec![batch, n_frames, geometry.n_freqs, 2];
    in_precision(
        dtype,
        || {
            let x = host::<f64>(&signal);
            TensorData::new(
                stft_host(&x, &window, &options, &geometry),
                out_shape.clone(),
            )
        },
        || {
            let x = host::<f32>(&signal);
            TensorData::new(
                stft_host(&x, &window, &options, &geometry),
                out_shape.clone(),
            )
        },
    )
}

struct Geometry {
    batch: usize,
    /// Signal length (before padding) for stft, output length for istft.
    len: usize,
    pad: usize,
    n_frames: usize,
    n_freqs: usize,
}

/// `x: [batch, len]` → `[batch, n_frames, n_freqs, 2]`.
fn stft_host<T: Real>(x: &[T], window: &[f64], o: &StftOptions, g: &Geometry) -> Vec<T> {
    let n_fft = o.n_fft;
    let window: Vec<T> = window.iter().map(|&w| T::from_f64(w)).collect();
    let plan = Plan::<T>::new(n_fft);
    let mut work = Work::default();
    let mut frame = vec![Complex::<T>::default(); n_fft];
    let mut out = Vec::with_capacity(g.batch * g.n_frames * g.n_freqs * 2);
    // Padded index p maps to a signal index by reflection about both ends
    // (no edge repeat, as PyTorch's "reflect"); pad < len makes one
    // reflection enough.
    let source = |p: usize| -> usize {
        let i = p as isize - g.pad as isize;
        let last = g.len as isize - 1;
        let r = if i < 0 {
            -i
        } else if i > last {
            2 * last - i
        } else {
            i
        };
        r as usize
    };
    for b in 0..g.batch {
        let row = &x[b * g.len..(b + 1) * g.len];
        for t in 0..g.n_frames {
            let start = t * o.hop_length;
            for (j, slot) in frame.iter_mut().enumerate() {
                *slot = Complex::new(row[source(start + j)] * window[j], T::default());
            }
            plan.forward(&mut frame, &mut work);
            for c in &frame[..g.n_freqs] {
                out.push(c.re);
                out.push(c.im);
            }
        }
    }
    out
}

#[track_caller]
fn istft_impl(
    spectrum: TensorData,
    window: Option<TensorData>,
    length: Option<usize>,
    options: StftOptions,
) -> TensorData {
    options.check("istft");
    let shape = spectrum.shape.dims.clone();
    let dtype = spectrum.dtype;
    assert!(
        dtype.is_float(),
        "istft: expected a float spectrum, got {dtype:?} of shape {shape:?}"
    );
    let (batch, n_frames, n_freqs) = (shape[0], shape[1], shape[2]);
    assert!(
        shape[3] == 2 && n_freqs == options.n_freqs(),
        "istft: a spectrum of shape {shape:?} does not match [batch, frames, {}, 2] for {options:?}",
        options.n_freqs()
    );
    assert!(
        batch > 0 && n_frames > 0,
        "istft: cannot invert an empty spectrum of shape {shape:?}"
    );
    let n_fft = options.n_fft;
    let pad = if options.center { n_fft / 2 } else { 0 };
    let ola_len = n_fft + options.hop_length * (n_frames - 1);
    let len = length.unwrap_or(ola_len - 2 * pad);
    assert!(
        len > 0,
        "istft: output length is 0 for a spectrum of shape {shape:?}"
    );
    let window = frame_window("istft", window.as_ref(), &options);
    let geometry = Geometry {
        batch,
        len,
        pad,
        n_frames,
        n_freqs,
    };
    let out_shape = vec![batch, len];
    in_precision(
        dtype,
        || {
            let s = host::<f64>(&spectrum);
            TensorData::new(
                istft_host(&s, &window, &options, &geometry),
                out_shape.clone(),
            )
        },
        || {
            let s = host::<f32>(&spectrum);
            TensorData::new(
                istft_host(&s, &window, &options, &geometry),
                out_shape.clone(),
            )
        },
    )
}

/// `[batch, n_frames, n_freqs, 2]` → `[batch, len]`: overlap-add of the
/// windowed inverse frames divided by `Σ_t w²[p − t·hop]`.
#[track_caller]
fn istft_host<T: Real>(s: &[T], window: &[f64], o: &StftOptions, g: &Geometry) -> Vec<T> {
    let n_fft = o.n_fft;
    let hop = o.hop_length;
    let ola_len = n_fft + hop * (g.n_frames - 1);
    // The window envelope, accumulated in f64: it is shared by the batch
    // and its smallest values decide whether a sample is recoverable.
    let mut envelope = vec![0.0f64; ola_len];
    for t in 0..g.n_frames {
        for (j, &w) in window.iter().enumerate() {
            envelope[t * hop + j] += w * w;
        }
    }
    for i in 0..g.len {
        let p = g.pad + i;
        let env = envelope.get(p).copied().unwrap_or(0.0);
        assert!(
            env > 1e-11,
            "istft: output sample {i} of {} is reached by no non-zero window value \
             (n_frames {}, {o:?}); it cannot be recovered",
            g.len,
            g.n_frames
        );
    }
    let plan = Plan::<T>::new(n_fft);
    let mut work = Work::default();
    let mut frame = vec![Complex::<T>::default(); n_fft];
    let tw: Vec<T> = window.iter().map(|&w| T::from_f64(w)).collect();
    let mut out = Vec::with_capacity(g.batch * g.len);
    let mut ola = vec![T::default(); ola_len];
    for b in 0..g.batch {
        ola.fill(T::default());
        for t in 0..g.n_frames {
            let base = ((b * g.n_frames) + t) * g.n_freqs * 2;
            for (k, slot) in frame[..g.n_freqs].iter_mut().enumerate() {
                *slot = Complex::new(s[base + 2 * k], s[base + 2 * k + 1]);
            }
            if o.onesided {
                for k in 1..n_fft.div_ceil(2) {
                    frame[n_fft - k] = frame[k].conj();
                }
            }
            plan.inverse(&mut frame, &mut work);
            for (j, c) in frame.iter().enumerate() {
                ola[t * hop + j] = ola[t * hop + j] + c.re * tw[j];
            }
        }
        for i in 0..g.len {
            let p = g.pad + i;
            out.push(ola[p] * T::from_f64(1.0 / envelope[p]));
        }
    }
    out
}
