//! Linear and median filters on image batches `[batch, channels, height, width]`,
//! and the blur augmentations built on them.
//!
//! [`filter2d`] (Burn's signature, a [`PadMode`] border) and
//! [`filter2d_with`] (OpenCV's: anchor, border value, all five
//! [`BorderType`]s) are tensor-op compositions: the border is made up with
//! `select` by host-computed index maps, then one depthwise `conv2d`, so they
//! run on the input's device and autodiff records them. [`median`] runs on
//! the host. [`BoxBlur`] and [`MedianBlur`] apply them with a probability.

use crate::base::{BorderType, Point, Size, border_index};
use crate::error::{VisionError, raise};
use crate::host::int_tensor;
use burn_core as burn; // the `Config` derive names `burn::config`
use burn_core::config::Config;
use burn_std::{Rng, TensorData};
use burn_tensor::module::{ConvOptions, conv2d};
use burn_tensor::ops::PadMode;
use burn_tensor::{Bool, Device, Numeric, Tensor};
use std::sync::Mutex;
use std::vec::Vec;

/// The image with `top`/`bottom` rows and `left`/`right` columns of border
/// made up as `border` says (`value` for [`BorderType::Constant`]).
pub(crate) fn pad_border(
    x: Tensor<4>,
    [top, bottom, left, right]: [usize; 4],
    border: BorderType,
    value: f64,
) -> Tensor<4> {
    let [_, _, h, w] = x.dims();
    let device = x.device();
    let map = |n: usize, before: usize, after: usize| -> Vec<Option<usize>> {
        (0..n + before + after)
            .map(|i| border_index(i as isize - before as isize, n, border))
            .collect()
    };
    let rows = map(h, top, bottom);
    let cols = map(w, left, right);
    let index = |m: &[Option<usize>]| {
        int_tensor(
            m.iter().map(|v| v.unwrap_or(0) as i64).collect(),
            [m.len()],
            &device,
        )
    };
    let out = x.select(2, index(&rows)).select(3, index(&cols));
    if border != BorderType::Constant || (top + bottom + left + right) == 0 {
        return out;
    }
    let (hp, wp) = (rows.len(), cols.len());
    let mut mask = Vec::with_capacity(hp * wp);
    for r in &rows {
        for c in &cols {
            mask.push(r.is_none() || c.is_none());
        }
    }
    let mask = Tensor::<4, Bool>::from_data(TensorData::new(mask, [1, 1, hp, wp]), &device);
    out.mask_fill(mask, value)
}

/// The [`BorderType`] (and constant) a [`PadMode`] stands for.
fn border_of(mode: PadMode) -> (BorderType, f64) {
    match mode {
        PadMode::Constant(v) => (BorderType::Constant, v as f64),
        // The edge pixel is not repeated: `dcb|abcd`.
        PadMode::Reflect => (BorderType::Reflect101, 0.0),
        PadMode::Edge => (BorderType::Replicate, 0.0),
    }
}

/// Correlates every channel of `images` (`[batch, channels, height, width]`)
/// with the same `kernel` (`[kh, kw]`, depthwise), with the border made up
/// as `border` says. The output has the input's shape; the kernel's element
/// `(kh / 2, kw / 2)` sits on the output pixel (for an even size the extra
/// row or column of padding goes to the bottom/right), which is
/// `scipy.ndimage.correlate`'s placement. [`PadMode::Reflect`] is SciPy's
/// `mirror`, [`PadMode::Edge`] its `nearest`.
///
/// # Panics
/// If the kernel is empty.
#[track_caller]
pub fn filter2d(images: Tensor<4>, kernel: Tensor<2>, border: PadMode) -> Tensor<4> {
    let (border, value) = border_of(border);
    raise(try_filter2d_with(images, kernel, None, border, value))
}

/// [`filter2d`], with bad input an `Err` instead of a panic.
pub fn try_filter2d(
    images: Tensor<4>,
    kernel: Tensor<2>,
    border: PadMode,
) -> Result<Tensor<4>, VisionError> {
    let (border, value) = border_of(border);
    try_filter2d_with(images, kernel, None, border, value)
}

/// OpenCV's `filter2D`: correlates every channel of `image`
/// (`[batch, channels, height, width]`) with `kernel` (`[kh, kw]`),
/// `out(x, y) = Σ kernel(i, j) · image(x + j − ax, y + i − ay)`.
///
/// `anchor` defaults to `(kw / 2, kh / 2)`; `border_value` is used by
/// [`BorderType::Constant`]. The output has the input's shape.
///
/// # Panics
/// If the kernel is empty or the anchor lies outside it.
#[track_caller]
pub fn filter2d_with(
    image: Tensor<4>,
    kernel: Tensor<2>,
    anchor: Option<Point>,
    border: BorderType,
    border_value: f64,
) -> Tensor<4> {
    raise(try_filter2d_with(
        image,
        kernel,
        anchor,
        border,
        border_value,
    ))
}

/// [`filter2d_with`], with bad input an `Err` instead of a panic.
pub fn try_filter2d_with(
    image: Tensor<4>,
    kernel: Tensor<2>,
    anchor: Option<Point>,
    border: BorderType,
    border_value: f64,
) -> Result<Tensor<4>, VisionError> {
    let [kh, kw] = kernel.dims();
    if kh == 0 || kw == 0 {
        return Err(VisionError::EmptyKernel {
            op: "filter2d",
            shape: std::vec![kh, kw],
        });
    }
    let a = anchor.unwrap_or(Point::new(kw / 2, kh / 2));
    if a.x >= kw || a.y >= kh {
        return Err(VisionError::AnchorOutside {
            op: "filter2d",
            x: a.x,
            y: a.y,
            shape: std::vec![kh, kw],
        });
    }
    let [b, c, h, w] = image.dims();
    if b * c * h * w == 0 {
        return Ok(image);
    }
    let padded = pad_border(
        image,
        [a.y, kh - 1 - a.y, a.x, kw - 1 - a.x],
        border,
        border_value,
    );
    // Depthwise: one copy of the kernel per channel, groups = channels.
    let weight = kernel
        .cast(padded.dtype())
        .reshape([1, 1, kh, kw])
        .repeat_dim(0, c);
    let options = ConvOptions::new([1, 1], [0, 0], [1, 1], c);
    Ok(conv2d(padded, weight, None, options))
}

/// The mean over a `ksize` window around each pixel (a normalised box
/// filter), with `border` made up as [`filter2d_with`] does (constant 0).
#[track_caller]
pub fn box_blur(image: Tensor<4>, ksize: Size, border: BorderType) -> Tensor<4> {
    let device = image.device();
    let n = ksize.width * ksize.height;
    let kernel = Tensor::<2>::full([ksize.height, ksize.width], 1.0 / n.max(1) as f64, &device);
    filter2d_with(image, kernel, None, border, 0.0)
}

/// The median over a `size × size` window around each pixel, per channel,
/// for float or int images `[batch, channels, height, width]` (output of
/// the input's kind and dtype). The border repeats the edge pixels
/// ([`PadMode::Edge`]; `scipy.ndimage.median_filter(mode="nearest")`).
/// Runs on the host.
///
/// # Panics
/// If `size` is even or 0 (the median of an even window is ambiguous).
#[track_caller]
pub fn median<K: Numeric>(images: Tensor<4, K>, size: usize) -> Tensor<4, K> {
    let dims = images.dims();
    if size == 0 || size.is_multiple_of(2) {
        raise::<()>(Err(VisionError::BadArgument {
            op: "median",
            message: std::format!("size must be odd, got {size} for an image of shape {dims:?}"),
        }));
    }
    let device = images.device();
    let dtype = images.dtype();
    let data = images.into_data();
    // Exact for every int dtype: ints are ranked as i64, floats as f64.
    let out = if dtype.is_float() {
        let x = data.convert::<f64>().into_vec::<f64>().unwrap();
        TensorData::new(median_planes(&x, dims, size, f64::total_cmp), dims)
    } else {
        let x = data.convert::<i64>().into_vec::<i64>().unwrap();
        TensorData::new(median_planes(&x, dims, size, i64::cmp), dims)
    };
    Tensor::from_data(out.convert_dtype(dtype), (&device, dtype))
}

/// The median filter of every `[h, w]` plane of `x` (`dims` = `[b, c, h, w]`),
/// replicate border.
fn median_planes<T: Copy>(
    x: &[T],
    [b, c, h, w]: [usize; 4],
    size: usize,
    cmp: fn(&T, &T) -> std::cmp::Ordering,
) -> Vec<T> {
    let r = (size / 2) as isize;
    let mut out = Vec::with_capacity(x.len());
    let mut window = Vec::with_capacity(size * size);
    for plane in x.chunks_exact(h * w).take(b * c) {
        for y in 0..h {
            for xx in 0..w {
                window.clear();
                for dy in -r..=r {
                    let sy = (y as isize + dy).clamp(0, h as isize - 1) as usize;
                    for dx in -r..=r {
                        let sx = (xx as isize + dx).clamp(0, w as isize - 1) as usize;
                        window.push(plane[sy * w + sx]);
                    }
                }
                let mid = window.len() / 2;
                let (_, m, _) = window.select_nth_unstable_by(mid, cmp);
                out.push(*m);
            }
        }
    }
    out
}

/// A generator seeded from the process's hash randomness, so that unseeded
/// augmentations differ between runs (and between instances).
fn fresh_rng() -> Rng {
    use std::hash::{BuildHasher, RandomState};
    Rng::seed_from_u64(RandomState::new().hash_one(0u64))
}

/// `true` with probability `p` (a draw in `[0, 1)` below `p`).
fn draw(rng: &Mutex<Rng>, p: f32) -> bool {
    let mut rng = rng.lock().unwrap_or_else(|e| e.into_inner());
    rng.next_f64() < p as f64
}

#[track_caller]
fn check_kernel_size(op: &'static str, kernel_size: usize) {
    if kernel_size < 3 || kernel_size.is_multiple_of(2) {
        raise::<()>(Err(VisionError::BadArgument {
            op,
            message: std::format!("kernel_size must be odd and at least 3, got {kernel_size}"),
        }));
    }
}

/// Configuration of a [`BoxBlur`] augmentation.
#[derive(Config, Debug)]
pub struct BoxBlurConfig {
    /// The side of the square kernel, in pixels (odd, at least 3).
    #[config(default = 3)]
    pub kernel_size: usize,
    /// Probability that a call to [`BoxBlur::forward`] blurs.
    #[config(default = 1.0)]
    pub probability: f32,
}

impl BoxBlurConfig {
    /// The [`BoxBlur`], its kernel on `device`.
    ///
    /// # Panics
    /// If `kernel_size` is even or below 3.
    #[track_caller]
    pub fn init(&self, device: &Device) -> BoxBlur {
        check_kernel_size("BoxBlurConfig::init", self.kernel_size);
        let k = self.kernel_size;
        BoxBlur {
            kernel: Tensor::full([k, k], 1.0 / (k * k) as f64, device),
            probability: self.probability,
            rng: Mutex::new(fresh_rng()),
        }
    }
}

/// Blurs an image batch with a normalised square box filter (border
/// [`PadMode::Reflect`]), each [`forward`](Self::forward) call with the
/// configured probability. Made by [`BoxBlurConfig::init`].
#[derive(Debug)]
pub struct BoxBlur {
    // [k, k], every element 1 / k².
    kernel: Tensor<2>,
    probability: f32,
    rng: Mutex<Rng>,
}

impl BoxBlur {
    /// Draws the apply/skip decisions from `seed` (reproducible) instead of
    /// a per-instance random seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.rng = Mutex::new(Rng::seed_from_u64(seed));
        self
    }

    /// Moves the kernel to `device`.
    pub fn to_device(&mut self, device: &Device) {
        self.kernel = self.kernel.clone().to_device(device);
    }

    /// Blurs `images` (`[batch, channels, height, width]`) unconditionally.
    pub fn apply(&self, images: Tensor<4>) -> Tensor<4> {
        filter2d(images, self.kernel.clone(), PadMode::Reflect)
    }

    /// Blurs `images` with the configured probability, else returns them
    /// unchanged. One draw per call: the whole batch is blurred or not.
    pub fn forward(&self, images: Tensor<4>) -> Tensor<4> {
        if draw(&self.rng, self.probability) {
            self.apply(images)
        } else {
            images
        }
    }
}

/// Configuration of a [`MedianBlur`] augmentation.
#[derive(Config, Debug)]
pub struct MedianBlurConfig {
    /// The side of the square window, in pixels (odd, at least 3).
    #[config(default = 3)]
    pub kernel_size: usize,
    /// Probability that a call to [`MedianBlur::forward`] blurs.
    #[config(default = 1.0)]
    pub probability: f32,
}

impl MedianBlurConfig {
    /// The [`MedianBlur`].
    ///
    /// # Panics
    /// If `kernel_size` is even or below 3.
    #[track_caller]
    pub fn init(&self) -> MedianBlur {
        check_kernel_size("MedianBlurConfig::init", self.kernel_size);
        MedianBlur {
            kernel_size: self.kernel_size,
            probability: self.probability,
            rng: Mutex::new(fresh_rng()),
        }
    }
}

/// Filters an image batch with a square [`median`], each
/// [`forward`](Self::forward) call with the configured probability. Made by
/// [`MedianBlurConfig::init`].
#[derive(Debug)]
pub struct MedianBlur {
    kernel_size: usize,
    probability: f32,
    rng: Mutex<Rng>,
}

impl MedianBlur {
    /// Draws the apply/skip decisions from `seed` (reproducible) instead of
    /// a per-instance random seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.rng = Mutex::new(Rng::seed_from_u64(seed));
        self
    }

    /// Median-filters `images` (float or int `[batch, channels, height,
    /// width]`) unconditionally.
    pub fn apply<K: Numeric>(&self, images: Tensor<4, K>) -> Tensor<4, K> {
        median(images, self.kernel_size)
    }

    /// Median-filters `images` with the configured probability, else
    /// returns them unchanged. One draw per call.
    pub fn forward<K: Numeric>(&self, images: Tensor<4, K>) -> Tensor<4, K> {
        if draw(&self.rng, self.probability) {
            self.apply(images)
        } else {
            images
        }
    }
}
