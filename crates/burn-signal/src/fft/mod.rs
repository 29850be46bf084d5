//! One-dimensional FFTs along any dim of a float tensor, batched over the
//! others: [`rfft`], [`irfft`], [`cfft`], [`ifft`].
//!
//! Complex values travel as two tensors of the same shape, `(re, im)`, as in
//! Burn's published `burn::signal` (no complex dtype is needed).
//!
//! The transforms run on the host: the input is read back, every lane along
//! `dim` is transformed with one [`kernel::Plan`], and the output is built on
//! the input's device in the input's dtype. f64 input is computed in f64;
//! every other float dtype in f32. This is backend-independent and exact to
//! the dtype, but it is not recorded by autodiff (gradients do not flow
//! through these functions) and it costs a device→host→device round trip.
//!
//! Normalisation is NumPy's default ("backward"): forward transforms are
//! unscaled, inverse transforms divide by `n`.

pub(crate) mod kernel;

use crate::SignalError;
use burn_std::{DType, TensorData};
use burn_tensor::{AsIndex, Device, Tensor};
use kernel::{Complex, Plan, Real, Work, twiddle};
use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex};
use std::vec;
use std::vec::Vec;

/// Plans and twiddle tables of recent lengths. Building one costs a sine
/// and cosine per entry (they are computed from exact integer indices, for
/// f64 accuracy), which for a long transform takes longer than the
/// transform itself; a signal processed in frames or batches of calls asks
/// for the same lengths again.
static TABLES: Mutex<Vec<Table>> = Mutex::new(Vec::new());

/// A kept table: its type, its length, the table.
type Table = (TypeId, usize, Arc<dyn Any + Send + Sync>);

/// How many tables are kept; the oldest goes first.
const TABLES_KEPT: usize = 16;

/// The table of type `V` for length `n`, built by `make` if not kept.
fn cached<V: Any + Send + Sync>(n: usize, make: impl FnOnce() -> V) -> Arc<V> {
    let key = TypeId::of::<V>();
    let found = {
        let tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
        tables
            .iter()
            .find(|(k, len, _)| *k == key && *len == n)
            .map(|(_, _, table)| table.clone())
    };
    if let Some(table) = found.and_then(|t| t.downcast::<V>().ok()) {
        return table;
    }
    // Built outside the lock: a long plan does not hold up other lengths.
    let table = Arc::new(make());
    let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if tables.len() >= TABLES_KEPT {
        tables.remove(0);
    }
    tables.push((key, n, table.clone()));
    table
}

/// `W_n^k` for `k ≤ n/2`: the packed real transforms' recombination.
struct HalfTwiddles<T>(Vec<Complex<T>>);

/// Computes the one-dimensional DFT of a real signal along `dim`, keeping the
/// `n/2 + 1` non-redundant frequencies (Hermitian symmetry gives the rest).
///
/// `X[k] = Σ_j x[j]·exp(-2πi·jk/n)`, `k = 0..=n/2`.
///
/// # Arguments
///
/// * `signal` - The real signal.
/// * `dim` - The dim to transform; negative values count from the end.
/// * `n` - The FFT length: the signal is zero-padded or truncated to `n`
///   along `dim`. `None` takes the signal's length. Any length works
///   (powers of two, mixed radices, large primes).
///
/// # Returns
///
/// `(re, im)`, each with `n/2 + 1` entries along `dim` and the input's other
/// dims, dtype and device.
///
/// # Panics
///
/// If the tensor is empty, `n == Some(0)`, or `dim` is out of range; the
/// message names `rfft` and the shape.
///
/// # Example
///
/// ```
/// use burn_tensor::{Device, Tensor};
///
/// let device = Device::flex();
/// let signal = Tensor::<1>::from_floats([1.0, 2.0, 3.0, 4.0, 5.0], &device);
/// let (re, im) = burn_signal::rfft(signal, 0, None);
/// assert_eq!(re.dims(), [3]);
/// assert_eq!(im.dims(), [3]);
/// let dc: f32 = re.slice([0..1]).into_scalar();
/// assert!((dc - 15.0).abs() < 1e-5);
/// ```
#[track_caller]
pub fn rfft<const D: usize>(
    signal: Tensor<D>,
    dim: impl AsIndex,
    n: Option<usize>,
) -> (Tensor<D>, Tensor<D>) {
    try_rfft(signal, dim, n).unwrap_or_else(|err| panic!("{err}"))
}

/// [`rfft`], with bad input an `Err` instead of a panic.
pub fn try_rfft<const D: usize>(
    signal: Tensor<D>,
    dim: impl AsIndex,
    n: Option<usize>,
) -> Result<(Tensor<D>, Tensor<D>), SignalError> {
    let shape = signal.shape().dims;
    let tracked = signal.is_tracked();
    let checked = check(
        Op::Rfft,
        &shape,
        None,
        signal.dtype(),
        tracked,
        dim.as_index(),
        n,
    )?;
    let device = signal.device();
    let (re, im) = transform_impl(checked, signal.into_data(), None);
    Ok((from_host(re, &device), from_host(im, &device)))
}

/// Reconstructs a real signal of length `n` from its `n/2 + 1` non-redundant
/// frequencies along `dim` (the inverse of [`rfft`]).
///
/// `x[j] = (1/n)·Σ_k X[k]·exp(2πi·jk/n)` over the full spectrum, whose
/// upper half is the conjugate mirror of the given one. As in NumPy, the
/// imaginary parts of the DC term (and of the Nyquist term for even `n`)
/// do not contribute.
///
/// # Arguments
///
/// * `spectrum_re`, `spectrum_im` - The half spectrum; same shape.
/// * `dim` - The frequency dim; negative values count from the end.
/// * `n` - The output length; the half spectrum is truncated or
///   zero-padded to `n/2 + 1` bins. `None` takes `2·(bins − 1)`, which is
///   right for even-length signals: pass `n` for odd ones.
///
/// # Panics
///
/// If the shapes differ, the spectrum is empty, the resolved `n` is 0, or
/// `dim` is out of range; the message names `irfft` and the shapes.
///
/// # Example
///
/// ```
/// use burn_tensor::{Device, Tensor};
///
/// let device = Device::flex();
/// let x = Tensor::<1>::from_floats([1.0, -2.0, 0.5, 4.0, 3.0], &device);
/// let (re, im) = burn_signal::rfft(x.clone(), 0, None);
/// let back = burn_signal::irfft(re, im, 0, Some(5));
/// back.into_data().assert_approx_eq::<f32>(&x.into_data(), burn_tensor::Tolerance::default());
/// ```
#[track_caller]
pub fn irfft<const D: usize>(
    spectrum_re: Tensor<D>,
    spectrum_im: Tensor<D>,
    dim: impl AsIndex,
    n: Option<usize>,
) -> Tensor<D> {
    try_irfft(spectrum_re, spectrum_im, dim, n).unwrap_or_else(|err| panic!("{err}"))
}

/// [`irfft`], with bad input an `Err` instead of a panic.
pub fn try_irfft<const D: usize>(
    spectrum_re: Tensor<D>,
    spectrum_im: Tensor<D>,
    dim: impl AsIndex,
    n: Option<usize>,
) -> Result<Tensor<D>, SignalError> {
    let (shape, im_shape) = (spectrum_re.shape().dims, spectrum_im.shape().dims);
    let dtype = spectrum_re.dtype();
    let tracked = spectrum_re.is_tracked() || spectrum_im.is_tracked();
    let checked = check(
        Op::Irfft,
        &shape,
        Some(&im_shape),
        dtype,
        tracked,
        dim.as_index(),
        n,
    )?;
    let device = spectrum_re.device();
    let (re, _) = transform_impl(
        checked,
        spectrum_re.into_data(),
        Some(spectrum_im.into_data()),
    );
    Ok(from_host(re, &device))
}

/// Computes the one-dimensional DFT of a complex signal along `dim`.
///
/// `X[k] = Σ_j x[j]·exp(-2πi·jk/n)`, `k = 0..n`.
///
/// # Arguments
///
/// * `re`, `im` - The signal's real and imaginary parts; same shape.
/// * `dim` - The dim to transform; negative values count from the end.
/// * `n` - The FFT length (zero-pad or truncate); `None` keeps the length.
///
/// # Returns
///
/// `(re, im)` with `n` entries along `dim`.
///
/// # Panics
///
/// If the shapes differ, the tensors are empty, `n == Some(0)`, or `dim` is
/// out of range; the message names `cfft` and the shapes.
///
/// # Example
///
/// ```
/// use burn_tensor::{Device, Tensor};
///
/// let device = Device::flex();
/// let re = Tensor::<2>::from_floats([[1.0, 0.0, 0.0], [1.0, 1.0, 1.0]], &device);
/// let im = re.zeros_like();
/// let (fr, _fi) = burn_signal::cfft(re, im, 1, None);
/// // An impulse has a flat spectrum; a constant is a single DC spike.
/// fr.into_data().assert_approx_eq::<f32>(
///     &burn_tensor::TensorData::from([[1.0f32, 1.0, 1.0], [3.0, 0.0, 0.0]]),
///     burn_tensor::Tolerance::default(),
/// );
/// ```
#[track_caller]
pub fn cfft<const D: usize>(
    re: Tensor<D>,
    im: Tensor<D>,
    dim: impl AsIndex,
    n: Option<usize>,
) -> (Tensor<D>, Tensor<D>) {
    try_cfft(re, im, dim, n).unwrap_or_else(|err| panic!("{err}"))
}

/// [`cfft`], with bad input an `Err` instead of a panic.
pub fn try_cfft<const D: usize>(
    re: Tensor<D>,
    im: Tensor<D>,
    dim: impl AsIndex,
    n: Option<usize>,
) -> Result<(Tensor<D>, Tensor<D>), SignalError> {
    complex_transform(Op::Cfft, re, im, dim.as_index(), n)
}

/// Computes the one-dimensional inverse DFT of a complex spectrum along
/// `dim`, normalised by `1/n`: `x[j] = (1/n)·Σ_k X[k]·exp(2πi·jk/n)`.
///
/// Arguments, returns and panics as for [`cfft`] (messages name `ifft`);
/// `ifft(cfft(x)) == x` up to rounding.
///
/// # Example
///
/// ```
/// use burn_tensor::{Device, Tensor, Tolerance};
///
/// let device = Device::flex();
/// let re = Tensor::<1>::from_floats([0.5, 1.0, -3.0, 2.0, 7.0, 1.5, 0.0], &device);
/// let im = Tensor::<1>::from_floats([1.0, 0.0, 2.0, -1.0, 0.0, 0.5, 4.0], &device);
/// let (fr, fi) = burn_signal::cfft(re.clone(), im.clone(), 0, None);
/// let (br, bi) = burn_signal::ifft(fr, fi, 0, None);
/// br.into_data().assert_approx_eq::<f32>(&re.into_data(), Tolerance::default());
/// bi.into_data().assert_approx_eq::<f32>(&im.into_data(), Tolerance::default());
/// ```
#[track_caller]
pub fn ifft<const D: usize>(
    re: Tensor<D>,
    im: Tensor<D>,
    dim: impl AsIndex,
    n: Option<usize>,
) -> (Tensor<D>, Tensor<D>) {
    try_ifft(re, im, dim, n).unwrap_or_else(|err| panic!("{err}"))
}

/// [`ifft`], with bad input an `Err` instead of a panic.
pub fn try_ifft<const D: usize>(
    re: Tensor<D>,
    im: Tensor<D>,
    dim: impl AsIndex,
    n: Option<usize>,
) -> Result<(Tensor<D>, Tensor<D>), SignalError> {
    complex_transform(Op::Ifft, re, im, dim.as_index(), n)
}

fn complex_transform<const D: usize>(
    op: Op,
    re: Tensor<D>,
    im: Tensor<D>,
    dim: isize,
    n: Option<usize>,
) -> Result<(Tensor<D>, Tensor<D>), SignalError> {
    let (shape, im_shape) = (re.shape().dims, im.shape().dims);
    let tracked = re.is_tracked() || im.is_tracked();
    let checked = check(op, &shape, Some(&im_shape), re.dtype(), tracked, dim, n)?;
    let device = re.device();
    let (re, im) = transform_impl(checked, re.into_data(), Some(im.into_data()));
    Ok((from_host(re, &device), from_host(im, &device)))
}

/// Host data leaves here already in the output dtype.
fn from_host<const D: usize>(data: TensorData, device: &Device) -> Tensor<D> {
    let dtype = data.dtype;
    Tensor::from_data(data, (device, dtype))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Rfft,
    Irfft,
    Cfft,
    Ifft,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Rfft => "rfft",
            Op::Irfft => "irfft",
            Op::Cfft => "cfft",
            Op::Ifft => "ifft",
        }
    }
}

/// Resolves a possibly negative `dim` against the rank of `shape`.
pub(crate) fn resolve_dim(
    op: &'static str,
    dim: isize,
    shape: &[usize],
) -> Result<usize, SignalError> {
    let rank = shape.len() as isize;
    let resolved = if dim < 0 { rank + dim } else { dim };
    if resolved < 0 || resolved >= rank {
        return Err(SignalError::DimOutOfRange {
            op,
            dim,
            shape: shape.to_vec(),
        });
    }
    Ok(resolved as usize)
}

/// A transform whose shapes, dim and length have been checked.
struct Checked {
    run: Run,
    out_shape: Vec<usize>,
    dtype: DType,
}

/// The shape checks and length rules of every transform, from metadata
/// only (no data is read before the input is known to be valid).
fn check(
    op: Op,
    shape: &[usize],
    im_shape: Option<&[usize]>,
    dtype: DType,
    tracked: bool,
    dim: isize,
    n: Option<usize>,
) -> Result<Checked, SignalError> {
    let name = op.name();
    if tracked {
        return Err(SignalError::Tracked {
            op: name,
            shape: shape.to_vec(),
        });
    }
    if let Some(im_shape) = im_shape
        && shape != im_shape
    {
        return Err(SignalError::PartsDiffer {
            op: name,
            re: shape.to_vec(),
            im: im_shape.to_vec(),
        });
    }
    let dim = resolve_dim(name, dim, shape)?;
    if shape.contains(&0) {
        return Err(SignalError::Empty {
            op: name,
            shape: shape.to_vec(),
        });
    }
    if n == Some(0) {
        return Err(SignalError::ZeroLength {
            op: name,
            shape: shape.to_vec(),
        });
    }
    if !dtype.is_float() {
        return Err(SignalError::NotFloat {
            op: name,
            dtype,
            shape: shape.to_vec(),
        });
    }
    let len = shape[dim];
    // (FFT length, output length along dim)
    let (n_fft, out_len) = match op {
        Op::Rfft => {
            let n = n.unwrap_or(len);
            (n, n / 2 + 1)
        }
        Op::Irfft => {
            let n = n.unwrap_or(2 * (len - 1));
            if n == 0 {
                return Err(SignalError::OneBin {
                    op: name,
                    dim,
                    shape: shape.to_vec(),
                });
            }
            (n, n)
        }
        Op::Cfft | Op::Ifft => {
            let n = n.unwrap_or(len);
            (n, n)
        }
    };
    let mut out_shape = shape.to_vec();
    out_shape[dim] = out_len;
    Ok(Checked {
        run: Run {
            op,
            lanes: Lanes::new(shape, dim),
            n_fft,
            out_len,
        },
        out_shape,
        dtype,
    })
}

/// The lane loop in the compute precision, on host data. Non-generic over
/// the rank so one copy serves every `D`.
///
/// Returns `(re, im)`; for `irfft` the second is empty.
fn transform_impl(
    checked: Checked,
    re: TensorData,
    im: Option<TensorData>,
) -> (TensorData, TensorData) {
    let Checked {
        run,
        out_shape,
        dtype,
    } = checked;
    let im_shape = if run.op == Op::Irfft {
        vec![0]
    } else {
        out_shape.clone()
    };
    if dtype == DType::F64 {
        let re = re.convert::<f64>().into_vec::<f64>().expect("f64 data");
        let im = im.map(|im| im.convert::<f64>().into_vec::<f64>().expect("f64 data"));
        let (ore, oim) = run.execute(&re, im.as_deref());
        (
            TensorData::new(ore, out_shape),
            TensorData::new(oim, im_shape),
        )
    } else {
        let re = re.convert::<f32>().into_vec::<f32>().expect("f32 data");
        let im = im.map(|im| im.convert::<f32>().into_vec::<f32>().expect("f32 data"));
        let (ore, oim) = run.execute(&re, im.as_deref());
        let back = |v: Vec<f32>, s: Vec<usize>| TensorData::new(v, s).convert_dtype(dtype);
        (back(ore, out_shape), back(oim, im_shape))
    }
}

/// A row-major tensor seen as `outer × len × inner`: lane `(o, i)` is the
/// strided run `o·len·inner + j·inner + i`, `j < len`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lanes {
    pub outer: usize,
    pub len: usize,
    pub inner: usize,
}

impl Lanes {
    pub fn new(shape: &[usize], dim: usize) -> Self {
        Self {
            outer: shape[..dim].iter().product(),
            len: shape[dim],
            inner: shape[dim + 1..].iter().product(),
        }
    }
}

struct Run {
    op: Op,
    lanes: Lanes,
    n_fft: usize,
    out_len: usize,
}

impl Run {
    fn execute<T: Real>(&self, re: &[T], im: Option<&[T]>) -> (Vec<T>, Vec<T>) {
        let Lanes { outer, len, inner } = self.lanes;
        let (n, out_len) = (self.n_fft, self.out_len);
        if n.is_multiple_of(2) && matches!(self.op, Op::Rfft | Op::Irfft) {
            return self.execute_packed(re, im);
        }
        let total = outer * out_len * inner;
        let mut out_re = vec![T::default(); total];
        let mut out_im = if self.op == Op::Irfft {
            Vec::new()
        } else {
            vec![T::default(); total]
        };
        let plan = cached(n, || Plan::<T>::new(n));
        let mut work = Work::default();
        let mut buf = vec![Complex::<T>::default(); n];
        // How many input samples of a lane are read: truncation happens here,
        // zero padding is the buffer's reset.
        let take = match self.op {
            Op::Irfft => len.min(n / 2 + 1),
            _ => len.min(n),
        };
        for o in 0..outer {
            for i in 0..inner {
                let base_in = o * len * inner + i;
                buf.fill(Complex::default());
                for (j, slot) in buf[..take].iter_mut().enumerate() {
                    let idx = base_in + j * inner;
                    *slot = Complex::new(re[idx], im.map_or(T::default(), |im| im[idx]));
                }
                match self.op {
                    Op::Rfft | Op::Cfft => plan.forward(&mut buf, &mut work),
                    Op::Ifft => plan.inverse(&mut buf, &mut work),
                    Op::Irfft => {
                        // Mirror the half spectrum: X[n-k] = conj(X[k]) for
                        // 0 < k < n-k. Taking the real part afterwards drops
                        // the imaginary parts of DC and Nyquist, as NumPy does.
                        for k in 1..n.div_ceil(2) {
                            buf[n - k] = buf[k].conj();
                        }
                        plan.inverse(&mut buf, &mut work);
                    }
                }
                let base_out = o * out_len * inner + i;
                for (k, c) in buf[..out_len].iter().enumerate() {
                    let idx = base_out + k * inner;
                    out_re[idx] = c.re;
                    if self.op != Op::Irfft {
                        out_im[idx] = c.im;
                    }
                }
            }
        }
        (out_re, out_im)
    }

    /// Real transforms of even length `n` through one complex FFT of
    /// length `h = n/2` (half the work of transforming the real signal as a
    /// complex one).
    ///
    /// Forward: `z[j] = x[2j] + i·x[2j+1]`, `Z = FFT_h(z)`; the even and odd
    /// samples' spectra are `E[k] = (Z[k] + conj Z[h−k]) / 2` and
    /// `O[k] = (Z[k] − conj Z[h−k]) / 2i`, and `X[k] = E[k] + W_n^k·O[k]`.
    /// Inverse: the same relations solved for `E` and `O`, then
    /// `z = IFFT_h(E + i·O)` holds the even samples in `re`, the odd in `im`.
    fn execute_packed<T: Real>(&self, re: &[T], im: Option<&[T]>) -> (Vec<T>, Vec<T>) {
        let Lanes { outer, len, inner } = self.lanes;
        let (n, out_len) = (self.n_fft, self.out_len);
        let h = n / 2;
        let total = outer * out_len * inner;
        let mut out_re = vec![T::default(); total];
        let mut out_im = if self.op == Op::Rfft {
            vec![T::default(); total]
        } else {
            Vec::new()
        };
        let plan = cached(h, || Plan::<T>::new(h));
        let tw = cached(n, || HalfTwiddles((0..=h).map(|k| twiddle(k, n)).collect()));
        let tw = &tw.0;
        let half = T::from_f64(0.5);
        let mut work = Work::default();
        let mut z = vec![Complex::<T>::default(); h];
        let mut spec = vec![Complex::<T>::default(); h + 1];
        for o in 0..outer {
            for i in 0..inner {
                let base_in = o * len * inner + i;
                let base_out = o * out_len * inner + i;
                if self.op == Op::Rfft {
                    z.fill(Complex::default());
                    for j in 0..len.min(n) {
                        let v = re[base_in + j * inner];
                        if j % 2 == 0 {
                            z[j / 2].re = v;
                        } else {
                            z[j / 2].im = v;
                        }
                    }
                    plan.forward(&mut z, &mut work);
                    for (k, &w) in tw.iter().enumerate() {
                        let a = z[k % h];
                        let b = z[(h - k) % h].conj();
                        let e = (a + b).scale(half);
                        let d = (a - b).scale(half);
                        // O = d / i = (d.im, −d.re)
                        let x = e + w * Complex::new(d.im, -d.re);
                        let idx = base_out + k * inner;
                        out_re[idx] = x.re;
                        out_im[idx] = x.im;
                    }
                } else {
                    spec.fill(Complex::default());
                    let im = im.expect("irfft has an imaginary part");
                    for (k, slot) in spec.iter_mut().enumerate().take(len.min(h + 1)) {
                        let idx = base_in + k * inner;
                        *slot = Complex::new(re[idx], im[idx]);
                    }
                    // NumPy ignores the imaginary parts of DC and Nyquist.
                    spec[0].im = T::default();
                    spec[h].im = T::default();
                    for (k, slot) in z.iter_mut().enumerate() {
                        let a = spec[k];
                        let b = spec[h - k].conj();
                        let e = (a + b).scale(half);
                        let od = (a - b).scale(half) * tw[k].conj();
                        // E + i·O
                        *slot = Complex::new(e.re - od.im, e.im + od.re);
                    }
                    plan.inverse(&mut z, &mut work);
                    for (j, c) in z.iter().enumerate() {
                        out_re[base_out + 2 * j * inner] = c.re;
                        out_re[base_out + (2 * j + 1) * inner] = c.im;
                    }
                }
            }
        }
        (out_re, out_im)
    }
}
