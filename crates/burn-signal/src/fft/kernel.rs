//! The host FFT: one complex transform of any length `n`, planned once and
//! run on every lane of a batch.
//!
//! Three algorithms, chosen by the factors of `n`:
//!
//! - powers of two: iterative radix-2 (bit-reversal, then in-place stages);
//! - lengths whose prime factors are all at most [`MAX_RADIX`]: recursive
//!   mixed-radix Cooley–Tukey (decimation in time, out of place), with
//!   hand-written radix-2 and radix-4 butterflies and an O(p²) generic one
//!   for 3, 5, 7, …;
//! - anything with a larger prime factor: Bluestein's chirp-z, which turns
//!   the length-`n` DFT into a circular convolution of power-of-two length
//!   `m >= 2n - 1`, itself done with the radix-2 plan.
//!
//! Accuracy: every twiddle is computed directly in f64 from its integer
//! index (never by repeated multiplication, which drifts), and the
//! Bluestein chirp reduces `k²` modulo `2n` in integers before the angle is
//! formed, so f64 transforms reach f64 accuracy (errors ~1e-15 relative to
//! the signal's norm at n = 1000) and f32 ones carry only f32 rounding.
//!
//! The inverse is the forward transform conjugated on both sides
//! (`ifft(x) = conj(fft(conj(x))) / n`), so there is one code path.

use core::ops::{Add, Mul, Neg, Sub};
use std::f64::consts::PI;
use std::vec;
use std::vec::Vec;

/// Largest prime the mixed-radix path handles; larger prime factors go to
/// Bluestein. The generic butterfly costs O(p) per output point, so past
/// ~30 the three power-of-two FFTs of Bluestein are cheaper.
pub(crate) const MAX_RADIX: usize = 31;

/// The real scalar of a transform: `f32` or `f64`.
pub(crate) trait Real:
    Copy
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + Send
    + Sync
    + 'static
{
    fn from_f64(v: f64) -> Self;
}

impl Real for f32 {
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

impl Real for f64 {
    fn from_f64(v: f64) -> Self {
        v
    }
}

/// A complex number, `re + i·im`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Complex<T> {
    pub re: T,
    pub im: T,
}

impl<T: Real> Complex<T> {
    pub fn new(re: T, im: T) -> Self {
        Self { re, im }
    }

    pub fn conj(self) -> Self {
        Self::new(self.re, -self.im)
    }

    pub fn scale(self, s: T) -> Self {
        Self::new(self.re * s, self.im * s)
    }

    /// `exp(-i·angle)` for an angle given in f64, rounded once to `T`.
    fn expi_neg(angle: f64) -> Self {
        Self::new(T::from_f64(angle.cos()), T::from_f64(-angle.sin()))
    }
}

impl<T: Real> Add for Complex<T> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Self::new(self.re + o.re, self.im + o.im)
    }
}

impl<T: Real> Sub for Complex<T> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Self::new(self.re - o.re, self.im - o.im)
    }
}

impl<T: Real> Mul for Complex<T> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        Self::new(
            self.re * o.re - self.im * o.im,
            self.re * o.im + self.im * o.re,
        )
    }
}

/// `W_n^k = exp(-2πi·k/n)`, with `k` reduced so the angle stays in [0, 2π).
pub(crate) fn twiddle<T: Real>(k: usize, n: usize) -> Complex<T> {
    let k = k % n;
    // Quarter turns exactly: cos(π/2) in floats is 6e-17, not 0, and that
    // noise would show up as imaginary parts of spectra that are real.
    if (4 * k).is_multiple_of(n) {
        let (re, im) = [(1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0)][4 * k / n];
        return Complex::new(T::from_f64(re), T::from_f64(im));
    }
    Complex::expi_neg(2.0 * PI * (k as f64) / n as f64)
}

/// A planned forward transform of one length.
pub(crate) struct Plan<T> {
    n: usize,
    algo: Algo<T>,
}

enum Algo<T> {
    /// n = 1: the transform is the identity.
    Identity,
    Radix2 {
        /// Each stage's twiddles, contiguous: the stage of half-width `h`
        /// reads `W_{2h}^j = W_n^{j·n/2h}`, `j < h`, at `[h − 1, 2h − 1)`
        /// (`n − 1` entries in all; the last stage's are `W_n^k`, `k < n/2`).
        twiddles: Vec<Complex<T>>,
        /// Bit-reversed index of each position.
        rev: Vec<usize>,
    },
    Mixed {
        /// Radices in the order the recursion peels them, product `n`.
        factors: Vec<usize>,
        /// `W_n^k` for `k < n`.
        twiddles: Vec<Complex<T>>,
        /// Largest radix: the generic butterfly's scratch size.
        max_radix: usize,
    },
    Bluestein {
        /// `exp(-iπ·k²/n)` for `k < n`.
        chirp: Vec<Complex<T>>,
        /// Forward FFT (length m) of the conjugate chirp laid out circularly.
        kernel: Vec<Complex<T>>,
        inner: Box<Plan<T>>,
    },
}

/// Scratch space reused across the lanes of one batch.
#[derive(Default)]
pub(crate) struct Work<T> {
    buf: Vec<Complex<T>>,
    radix: Vec<Complex<T>>,
}

impl<T: Real> Plan<T> {
    /// Plans a transform of length `n` (`n >= 1`).
    pub fn new(n: usize) -> Self {
        assert!(n >= 1, "fft plan: length must be at least 1");
        let algo = if n == 1 {
            Algo::Identity
        } else if n.is_power_of_two() {
            Self::radix2(n)
        } else {
            match factorize(n) {
                Some(factors) => {
                    let max_radix = factors.iter().copied().max().unwrap_or(1);
                    Algo::Mixed {
                        factors,
                        twiddles: (0..n).map(|k| twiddle(k, n)).collect(),
                        max_radix,
                    }
                }
                None => Self::bluestein(n),
            }
        };
        Self { n, algo }
    }

    pub fn len(&self) -> usize {
        self.n
    }

    fn radix2(n: usize) -> Algo<T> {
        let bits = n.trailing_zeros();
        let rev = (0..n)
            .map(|i| i.reverse_bits() >> (usize::BITS - bits))
            .collect();
        let mut twiddles = Vec::with_capacity(n - 1);
        let mut half = 1;
        while half < n {
            let step = n / (2 * half);
            twiddles.extend((0..half).map(|j| twiddle(j * step, n)));
            half *= 2;
        }
        Algo::Radix2 { twiddles, rev }
    }

    fn bluestein(n: usize) -> Algo<T> {
        let m = (2 * n - 1).next_power_of_two();
        // k² mod 2n in integers: the chirp's angle π·k²/n is exact modulo 2π
        // only if k² is reduced before it becomes a float.
        let chirp: Vec<Complex<T>> = (0..n)
            .map(|k| {
                let k2 = ((k as u128 * k as u128) % (2 * n as u128)) as f64;
                Complex::expi_neg(PI * k2 / n as f64)
            })
            .collect();
        let inner = Box::new(Plan::new(m));
        let mut kernel = vec![Complex::default(); m];
        kernel[0] = chirp[0].conj();
        for k in 1..n {
            kernel[k] = chirp[k].conj();
            kernel[m - k] = chirp[k].conj();
        }
        let mut work = Work::default();
        inner.forward(&mut kernel, &mut work);
        Algo::Bluestein {
            chirp,
            kernel,
            inner,
        }
    }

    /// In-place forward DFT of `data` (`data.len() == self.len()`):
    /// `X[k] = Σ_j x[j]·exp(-2πi·jk/n)`.
    pub fn forward(&self, data: &mut [Complex<T>], work: &mut Work<T>) {
        debug_assert_eq!(data.len(), self.n);
        match &self.algo {
            Algo::Identity => {}
            Algo::Radix2 { twiddles, rev } => radix2_in_place(data, twiddles, rev),
            Algo::Mixed {
                factors,
                twiddles,
                max_radix,
            } => {
                work.buf.clear();
                work.buf.extend_from_slice(data);
                work.radix.resize(*max_radix, Complex::default());
                mixed(data, &work.buf, 0, 1, factors, twiddles, &mut work.radix);
            }
            Algo::Bluestein {
                chirp,
                kernel,
                inner,
            } => {
                let m = inner.len();
                // The inner plan is radix-2 and needs no work space, so the
                // padded sequence can live in `work.buf`.
                let mut a = core::mem::take(&mut work.buf);
                a.clear();
                a.extend(data.iter().zip(chirp).map(|(&x, &w)| x * w));
                a.resize(m, Complex::default());
                inner.forward(&mut a, work);
                for (x, &b) in a.iter_mut().zip(kernel) {
                    *x = (*x * b).conj();
                }
                // Inverse of length m through the conjugated forward transform.
                inner.forward(&mut a, work);
                let scale = T::from_f64(1.0 / m as f64);
                for (k, x) in data.iter_mut().enumerate() {
                    *x = a[k].conj().scale(scale) * chirp[k];
                }
                work.buf = a;
            }
        }
    }

    /// In-place inverse DFT, normalised by `1/n` (NumPy's "backward" norm).
    pub fn inverse(&self, data: &mut [Complex<T>], work: &mut Work<T>) {
        for x in data.iter_mut() {
            *x = x.conj();
        }
        self.forward(data, work);
        let scale = T::from_f64(1.0 / self.n as f64);
        for x in data.iter_mut() {
            *x = x.conj().scale(scale);
        }
    }
}

/// The radices of `n` (4s first, then 2, then odd primes), or `None` if a
/// prime factor exceeds [`MAX_RADIX`].
fn factorize(mut n: usize) -> Option<Vec<usize>> {
    let mut factors = Vec::new();
    while n.is_multiple_of(4) {
        factors.push(4);
        n /= 4;
    }
    if n.is_multiple_of(2) {
        factors.push(2);
        n /= 2;
    }
    let mut p = 3;
    while n > 1 {
        if p > MAX_RADIX {
            return None;
        }
        while n.is_multiple_of(p) {
            factors.push(p);
            n /= p;
        }
        p += 2;
    }
    Some(factors)
}

/// Lengths from which a radix-2 transform splits over two threads.
const PARALLEL_LEN: usize = 1 << 15;

fn radix2_in_place<T: Real>(data: &mut [Complex<T>], twiddles: &[Complex<T>], rev: &[usize]) {
    let n = data.len();
    for (i, &j) in rev.iter().enumerate() {
        if i < j {
            data.swap(i, j);
        }
    }
    let two_threads =
        n >= PARALLEL_LEN && std::thread::available_parallelism().is_ok_and(|p| p.get() >= 2);
    if !two_threads {
        stages(data, twiddles, n / 2);
        return;
    }
    // Every stage but the last stays inside one half: each half runs them
    // all on its own thread (and in its own cache). The last stage pairs
    // the halves; its butterflies split in two ranges of `j`.
    let (first, second) = data.split_at_mut(n / 2);
    std::thread::scope(|s| {
        s.spawn(|| stages(first, twiddles, n / 4));
        stages(second, twiddles, n / 4);
    });
    let quarter = n / 4;
    let last = &twiddles[n / 2 - 1..n - 1];
    let (lo, hi) = data.split_at_mut(n / 2);
    let (lo_a, lo_b) = lo.split_at_mut(quarter);
    let (hi_a, hi_b) = hi.split_at_mut(quarter);
    std::thread::scope(|s| {
        s.spawn(|| butterfly_pairs(lo_a, hi_a, &last[..quarter]));
        butterfly_pairs(lo_b, hi_b, &last[quarter..]);
    });
}

/// The stages of half-widths `1, 2, …, max_half` over `data`, a whole
/// number of blocks of `2·max_half` (`twiddles`: the per-stage table of
/// [`Algo::Radix2`]).
fn stages<T: Real>(data: &mut [Complex<T>], twiddles: &[Complex<T>], max_half: usize) {
    let mut half = 1;
    if max_half >= 2 {
        // The first two stages' twiddles are 1 and −i: one pass over groups
        // of four, without multiplications (the same values, rounded the
        // same way, as the two stages).
        for g in data.chunks_exact_mut(4) {
            let (a0, a1) = (g[0] + g[1], g[0] - g[1]);
            let (a2, a3) = (g[2] + g[3], g[2] - g[3]);
            let t = Complex::new(a3.im, -a3.re);
            g[0] = a0 + a2;
            g[2] = a0 - a2;
            g[1] = a1 + t;
            g[3] = a1 - t;
        }
        half = 4;
    }
    while half <= max_half {
        let stage = &twiddles[half - 1..2 * half - 1];
        for block in data.chunks_exact_mut(2 * half) {
            let (lo, hi) = block.split_at_mut(half);
            butterfly_pairs(lo, hi, stage);
        }
        half *= 2;
    }
}

/// `(a, b) ← (a + w·b, a − w·b)` with `w = twiddles[j]` for pair `j`.
fn butterfly_pairs<T: Real>(lo: &mut [Complex<T>], hi: &mut [Complex<T>], twiddles: &[Complex<T>]) {
    for ((a, b), &w) in lo.iter_mut().zip(hi.iter_mut()).zip(twiddles) {
        let t = *b * w;
        *b = *a - t;
        *a = *a + t;
    }
}

/// Decimation-in-time step: `out` (length `p·m`) receives the DFT of the
/// subsequence `input[offset + j·stride]`, `j < p·m`, where
/// `stride · out.len() == n` (so `W_{p·m} = W_n^stride`).
///
/// Segment `q` of `out` first receives the length-`m` DFT of the
/// subsequence starting at `j = q` with step `p`; the butterfly then
/// combines them: `X[u + q1·m] = Σ_q2 W^{q2·(u + q1·m)} · S_q2[u]`.
fn mixed<T: Real>(
    out: &mut [Complex<T>],
    input: &[Complex<T>],
    offset: usize,
    stride: usize,
    factors: &[usize],
    tw: &[Complex<T>],
    scratch: &mut [Complex<T>],
) {
    let p = factors[0];
    let m = out.len() / p;
    if m == 1 {
        for (j, o) in out.iter_mut().enumerate() {
            *o = input[offset + j * stride];
        }
    } else {
        for (q, segment) in out.chunks_exact_mut(m).enumerate() {
            mixed(
                segment,
                input,
                offset + q * stride,
                stride * p,
                &factors[1..],
                tw,
                scratch,
            );
        }
    }
    match p {
        2 => butterfly2(out, stride, m, tw),
        4 => butterfly4(out, stride, m, tw),
        _ => butterfly_generic(out, stride, p, m, tw, scratch),
    }
}

fn butterfly2<T: Real>(out: &mut [Complex<T>], stride: usize, m: usize, tw: &[Complex<T>]) {
    let (lo, hi) = out.split_at_mut(m);
    for (u, (a, b)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        let t = *b * tw[u * stride];
        *b = *a - t;
        *a = *a + t;
    }
}

fn butterfly4<T: Real>(out: &mut [Complex<T>], stride: usize, m: usize, tw: &[Complex<T>]) {
    for u in 0..m {
        let a0 = out[u];
        let s0 = out[u + m] * tw[u * stride];
        let s1 = out[u + 2 * m] * tw[2 * u * stride];
        let s2 = out[u + 3 * m] * tw[3 * u * stride];
        let s5 = a0 - s1;
        let a1 = a0 + s1;
        let s3 = s0 + s2;
        let s4 = s0 - s2;
        out[u] = a1 + s3;
        out[u + 2 * m] = a1 - s3;
        // s5 ∓ i·s4
        out[u + m] = Complex::new(s5.re + s4.im, s5.im - s4.re);
        out[u + 3 * m] = Complex::new(s5.re - s4.im, s5.im + s4.re);
    }
}

fn butterfly_generic<T: Real>(
    out: &mut [Complex<T>],
    stride: usize,
    p: usize,
    m: usize,
    tw: &[Complex<T>],
    scratch: &mut [Complex<T>],
) {
    let n = tw.len();
    for u in 0..m {
        for q in 0..p {
            scratch[q] = out[u + q * m];
        }
        for q1 in 0..p {
            let k = u + q1 * m;
            let step = (stride * k) % n;
            let mut idx = 0;
            let mut acc = scratch[0];
            for &s in &scratch[1..p] {
                idx += step;
                if idx >= n {
                    idx -= n;
                }
                acc = acc + s * tw[idx];
            }
            out[k] = acc;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The O(n²) definition, summed in f64 with exact index reduction.
    fn naive(x: &[Complex<f64>]) -> Vec<Complex<f64>> {
        let n = x.len();
        (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .fold(Complex::default(), |acc, (j, &v)| {
                        acc + v * twiddle(j * k, n)
                    })
            })
            .collect()
    }

    fn signal(n: usize) -> Vec<Complex<f64>> {
        (0..n)
            .map(|j| {
                let t = j as f64;
                Complex::new((0.37 * t).sin() + 0.1 * t.cos(), (0.11 * t * t).cos())
            })
            .collect()
    }

    #[test]
    fn every_algorithm_matches_the_definition() {
        // 1 identity, 2..1024 radix-2, 6/12/60/360 mixed, 37/97/194 Bluestein.
        for n in [
            1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 31, 37, 60, 97, 194, 360, 1024,
        ] {
            let x = signal(n);
            let expected = naive(&x);
            let plan = Plan::<f64>::new(n);
            let mut got = x.clone();
            plan.forward(&mut got, &mut Work::default());
            let norm: f64 = expected.iter().map(|c| c.re.abs() + c.im.abs()).sum();
            let err: f64 = got
                .iter()
                .zip(&expected)
                .map(|(a, b)| (a.re - b.re).abs() + (a.im - b.im).abs())
                .sum();
            assert!(err <= 1e-13 * norm.max(1.0), "n = {n}: error {err}");
            plan.inverse(&mut got, &mut Work::default());
            for (a, b) in got.iter().zip(&x) {
                assert!((a.re - b.re).abs() < 1e-12 && (a.im - b.im).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn factorize_routes_large_primes_to_bluestein() {
        assert_eq!(factorize(12), Some(vec![4, 3]));
        assert_eq!(factorize(1000), Some(vec![4, 2, 5, 5, 5]));
        assert_eq!(factorize(31 * 2), Some(vec![2, 31]));
        assert_eq!(factorize(37), None);
        assert_eq!(factorize(1_000_003), None);
    }
}
