//! Grey-level morphology with flat structuring elements, on float, int and
//! bool images `[height, width, channels]` (OpenCV's layout and semantics).
//!
//! `erode(x)(p) = min { x(p + k - anchor) : k in kernel }`, `dilate` the
//! same with `max` (no reflection of the kernel, as in OpenCV; SciPy's
//! `grey_dilation` reflects it). Open, close, gradient, top-hat and
//! black-hat are compositions of the two.
//!
//! Every kernel is split into horizontal runs of set elements (a rectangle
//! is one run per row, ellipses and crosses too). One van Herk/Gil-Werman
//! pass per distinct run length gives the min/max over that run for every
//! position in three comparisons per pixel whatever the length; the rows
//! are then combined with one elementwise min/max per kernel row. A
//! rectangle is handled as the separable case: the horizontal pass, then a
//! vertical van Herk/Gil-Werman pass that runs along whole rows so it stays
//! cache-friendly and vectorises. Work is O(pixels × kernel rows) for any
//! shape and O(pixels) for rectangles.
//!
//! The image is first copied into a buffer with the border made up
//! according to [`BorderType`], so the passes have no edge cases.

use crate::base::{BorderType, Point, Size, border_index};
use crate::error::{VisionError, raise};
use burn_std::{DType, Scalar, TensorData};
use burn_tensor::{Bool, Device, Tensor, TensorKind};
use std::vec;
use std::vec::Vec;

/// The shape of a structuring element made by [`create_structuring_element`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelShape {
    /// Every element set.
    Rect,
    /// The anchor's row and column.
    Cross,
    /// The ellipse inscribed in the rectangle (OpenCV's construction).
    Ellipse,
}

/// A morphological operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MorphOp {
    /// Minimum over the kernel.
    Erode,
    /// Maximum over the kernel.
    Dilate,
    /// Erode, then dilate.
    Open,
    /// Dilate, then erode.
    Close,
    /// `dilate - erode`.
    Gradient,
    /// `image - open` ("white top-hat").
    TopHat,
    /// `close - image`.
    BlackHat,
}

/// Options of the morphology ops.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphOptions {
    /// The kernel element placed on the output pixel; `None` is the centre
    /// `(width / 2, height / 2)`.
    pub anchor: Option<Point>,
    /// How many times erosion/dilation is applied (0 returns the input).
    pub iterations: usize,
    /// How pixels outside the image are made up.
    pub border_type: BorderType,
    /// For [`BorderType::Constant`]: the value of each channel (one value
    /// is used for all). `None` picks the value that never wins.
    pub border_value: Option<Vec<Scalar>>,
}

impl Default for MorphOptions {
    fn default() -> Self {
        Self {
            anchor: None,
            iterations: 1,
            border_type: BorderType::Constant,
            border_value: None,
        }
    }
}

/// Builder of [`MorphOptions`], the shape of `derive_builder`'s (Burn's):
/// `MorphOptionsBuilder::default().iterations(2).build()`. A field not set
/// keeps its [`MorphOptions::default`] value.
#[derive(Clone, Debug, Default)]
pub struct MorphOptionsBuilder(MorphOptions);

impl MorphOptionsBuilder {
    /// Sets the anchor (`None`: the centre).
    pub fn anchor(&mut self, value: Option<Point>) -> &mut Self {
        self.0.anchor = value;
        self
    }
    /// Sets the number of iterations.
    pub fn iterations(&mut self, value: usize) -> &mut Self {
        self.0.iterations = value;
        self
    }
    /// Sets the border type.
    pub fn border_type(&mut self, value: BorderType) -> &mut Self {
        self.0.border_type = value;
        self
    }
    /// Sets the constant border value, per channel (`None`: the value that
    /// never wins).
    pub fn border_value(&mut self, value: Option<Vec<Scalar>>) -> &mut Self {
        self.0.border_value = value;
        self
    }
    /// The options. Never an `Err` here (every field has a default); the
    /// `Result` is the published signature.
    pub fn build(&self) -> Result<MorphOptions, MorphOptionsBuilderError> {
        Ok(self.0.clone())
    }
}

/// Why [`MorphOptionsBuilder::build`] failed (`derive_builder`'s variants;
/// this crate's builder does not fail).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MorphOptionsBuilderError {
    /// A required field was not set.
    #[error("`{0}` must be initialized")]
    UninitializedField(&'static str),
    /// A field's value was refused.
    #[error("{0}")]
    ValidationError(std::string::String),
}

/// A structuring element `[height, width]` of the given shape.
///
/// `anchor` only matters for [`KernelShape::Cross`] (the cross passes
/// through it; default the centre).
///
/// # Panics
/// If the size is empty or the anchor lies outside it.
///
/// ```
/// use burn_tensor::Device;
/// use burn_vision::{KernelShape, Size, create_structuring_element};
///
/// let k = create_structuring_element(KernelShape::Cross, Size::new(3, 3), None, &Device::flex());
/// let v = k.into_data().to_vec::<bool>().unwrap();
/// assert_eq!(v, [false, true, false, true, true, true, false, true, false]);
/// ```
#[track_caller]
pub fn create_structuring_element(
    shape: KernelShape,
    ksize: Size,
    anchor: Option<Point>,
    device: &Device,
) -> Tensor<2, Bool> {
    let (w, h) = (ksize.width, ksize.height);
    if w == 0 || h == 0 {
        raise::<()>(Err(VisionError::EmptyKernel {
            op: "create_structuring_element",
            shape: vec![h, w],
        }));
    }
    let anchor = anchor.unwrap_or(Point::new(w / 2, h / 2));
    if anchor.x >= w || anchor.y >= h {
        raise::<()>(Err(VisionError::AnchorOutside {
            op: "create_structuring_element",
            x: anchor.x,
            y: anchor.y,
            shape: vec![h, w],
        }));
    }
    let mut k = vec![false; w * h];
    match shape {
        KernelShape::Rect => k.fill(true),
        KernelShape::Cross => {
            for y in 0..h {
                for x in 0..w {
                    k[y * w + x] = x == anchor.x || y == anchor.y;
                }
            }
        }
        KernelShape::Ellipse => {
            // OpenCV's getStructuringElement: row i spans the columns where
            // (dx / r)^2 + (dy / c)^2 <= 1, rounded to the nearest column.
            let r = (h / 2) as f64;
            let c = (w / 2) as f64;
            let inv_r2 = if r > 0.0 { 1.0 / (r * r) } else { 0.0 };
            for y in 0..h {
                let dy = y as f64 - r;
                let (j1, j2) = if dy.abs() <= r {
                    let dx = (c * (((r * r - dy * dy) * inv_r2).max(0.0)).sqrt()).round() as isize;
                    let j1 = (c as isize - dx).max(0) as usize;
                    let j2 = ((c as isize + dx + 1) as usize).min(w);
                    (j1, j2)
                } else {
                    (0, 0)
                };
                for x in j1..j2 {
                    k[y * w + x] = true;
                }
            }
        }
    }
    Tensor::from_data(TensorData::new(k, [h, w]), device)
}

/// Morphology on images `[height, width, channels]` of any kind (float,
/// int, bool); the output has the input's shape, kind and dtype.
pub trait Morphology {
    /// Erosion with the structuring element `kernel` (`[kh, kw]`, bool).
    fn erode(self, kernel: Tensor<2, Bool>, opts: MorphOptions) -> Self;
    /// Dilation with the structuring element `kernel` (`[kh, kw]`, bool).
    fn dilate(self, kernel: Tensor<2, Bool>, opts: MorphOptions) -> Self;
    /// Any [`MorphOp`], erosion and dilation included.
    fn morph(self, op: MorphOp, kernel: Tensor<2, Bool>, opts: MorphOptions) -> Self;
}

impl<K: TensorKind> Morphology for Tensor<3, K> {
    #[track_caller]
    fn erode(self, kernel: Tensor<2, Bool>, opts: MorphOptions) -> Self {
        self.morph(MorphOp::Erode, kernel, opts)
    }

    #[track_caller]
    fn dilate(self, kernel: Tensor<2, Bool>, opts: MorphOptions) -> Self {
        self.morph(MorphOp::Dilate, kernel, opts)
    }

    #[track_caller]
    fn morph(self, op: MorphOp, kernel: Tensor<2, Bool>, opts: MorphOptions) -> Self {
        raise(try_morph(self, op, kernel, opts))
    }
}

/// [`Morphology::morph`], with bad input an `Err` instead of a panic.
pub fn try_morph<K: TensorKind>(
    image: Tensor<3, K>,
    op: MorphOp,
    kernel: Tensor<2, Bool>,
    opts: MorphOptions,
) -> Result<Tensor<3, K>, VisionError> {
    let dims = image.dims();
    let [kh, kw] = kernel.dims();
    let name = op_name(op);
    let kmask = crate::host::bool_bytes(kernel.into_data());
    if kmask.iter().all(|&v| v == 0) {
        return Err(VisionError::EmptyKernel {
            op: name,
            shape: vec![kh, kw],
        });
    }
    let anchor = opts.anchor.unwrap_or(Point::new(kw / 2, kh / 2));
    if anchor.x >= kw || anchor.y >= kh {
        return Err(VisionError::AnchorOutside {
            op: name,
            x: anchor.x,
            y: anchor.y,
            shape: vec![kh, kw],
        });
    }
    let channels = dims[2];
    if let Some(v) = &opts.border_value
        && v.len() != 1
        && v.len() != channels
    {
        return Err(VisionError::BadArgument {
            op: name,
            message: std::format!(
                "border_value has {} values for an image of shape {dims:?} ({channels} channels)",
                v.len()
            ),
        });
    }
    let device = image.device();
    let dtype = image.dtype();
    let data = image.into_data();
    let spec = Spec {
        kernel: Kernel::new(&kmask, kh, kw),
        anchor,
        dims,
        opts: &opts,
    };
    let out = match dtype {
        DType::F64 => run::<f64>(data, op, &spec),
        DType::I64 | DType::U64 | DType::U32 => run::<i64>(data, op, &spec),
        DType::I32 | DType::I16 | DType::I8 | DType::U16 => run::<i32>(data, op, &spec),
        DType::U8 => run::<u8>(data, op, &spec),
        DType::Bool(_) => {
            let v = crate::host::bool_bytes(data);
            let r = morph_host::<u8>(v, op, &spec);
            TensorData::new(r.into_iter().map(|b| b != 0).collect::<Vec<bool>>(), dims)
        }
        _ => run::<f32>(data, op, &spec),
    };
    Ok(Tensor::from_data(
        out.convert_dtype(dtype),
        (&device, dtype),
    ))
}

fn op_name(op: MorphOp) -> &'static str {
    match op {
        MorphOp::Erode => "erode",
        MorphOp::Dilate => "dilate",
        MorphOp::Open => "morph(Open)",
        MorphOp::Close => "morph(Close)",
        MorphOp::Gradient => "morph(Gradient)",
        MorphOp::TopHat => "morph(TopHat)",
        MorphOp::BlackHat => "morph(BlackHat)",
    }
}

fn run<P: Pixel + burn_std::Element>(data: TensorData, op: MorphOp, spec: &Spec) -> TensorData {
    let v = data.convert::<P>().into_vec::<P>().unwrap();
    TensorData::new(morph_host::<P>(v, op, spec), spec.dims)
}

/// A pixel type of the host passes.
pub(crate) trait Pixel: Copy + PartialOrd + Send + Sync + 'static {
    const LOWEST: Self;
    const HIGHEST: Self;
    fn from_scalar(s: Scalar) -> Self;
    /// `a - b`, for the differences of the composite ops (`a >= b` there).
    fn diff(a: Self, b: Self) -> Self;
    #[inline(always)]
    fn min2(a: Self, b: Self) -> Self {
        if b < a { b } else { a }
    }
    #[inline(always)]
    fn max2(a: Self, b: Self) -> Self {
        if a < b { b } else { a }
    }
}

macro_rules! pixel_int {
    ($t:ty) => {
        impl Pixel for $t {
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            fn from_scalar(s: Scalar) -> Self {
                s.elem::<$t>()
            }
            #[inline(always)]
            fn diff(a: Self, b: Self) -> Self {
                a.wrapping_sub(b)
            }
        }
    };
}
pixel_int!(u8);
pixel_int!(i32);
pixel_int!(i64);

macro_rules! pixel_float {
    ($t:ty) => {
        impl Pixel for $t {
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;
            fn from_scalar(s: Scalar) -> Self {
                s.elem::<$t>()
            }
            #[inline(always)]
            fn diff(a: Self, b: Self) -> Self {
                a - b
            }
        }
    };
}
pixel_float!(f32);
pixel_float!(f64);

/// A structuring element as horizontal runs: `(row, start column, length)`.
struct Kernel {
    h: usize,
    w: usize,
    runs: Vec<(usize, usize, usize)>,
    rect: bool,
}

impl Kernel {
    fn new(mask: &[u8], h: usize, w: usize) -> Self {
        let mut runs = Vec::new();
        for y in 0..h {
            let row = &mask[y * w..(y + 1) * w];
            let mut x = 0;
            while x < w {
                if row[x] != 0 {
                    let start = x;
                    while x < w && row[x] != 0 {
                        x += 1;
                    }
                    runs.push((y, start, x - start));
                } else {
                    x += 1;
                }
            }
        }
        let rect = mask.iter().all(|&v| v != 0);
        Self { h, w, runs, rect }
    }
}

struct Spec<'a> {
    kernel: Kernel,
    anchor: Point,
    dims: [usize; 3],
    opts: &'a MorphOptions,
}

#[derive(Clone, Copy, PartialEq)]
enum Extreme {
    Min,
    Max,
}

/// The whole op on an interleaved `[h, w, c]` buffer.
fn morph_host<P: Pixel>(image: Vec<P>, op: MorphOp, spec: &Spec) -> Vec<P> {
    let [h, w, c] = spec.dims;
    if h == 0 || w == 0 || c == 0 {
        return image;
    }
    let mut planes: Vec<Vec<P>> = (0..c)
        .map(|ch| image.iter().skip(ch).step_by(c).copied().collect())
        .collect();
    for (ch, plane) in planes.iter_mut().enumerate() {
        let border = |e: Extreme| -> P {
            match &spec.opts.border_value {
                Some(v) => P::from_scalar(if v.len() == 1 { v[0] } else { v[ch] }),
                None => match e {
                    Extreme::Min => P::HIGHEST,
                    Extreme::Max => P::LOWEST,
                },
            }
        };
        let erode = |x: &[P]| repeat(x, spec, Extreme::Min, border(Extreme::Min), h, w);
        let dilate = |x: &[P]| repeat(x, spec, Extreme::Max, border(Extreme::Max), h, w);
        let diff = |a: &[P], b: &[P]| a.iter().zip(b).map(|(&a, &b)| P::diff(a, b)).collect();
        *plane = match op {
            MorphOp::Erode => erode(plane),
            MorphOp::Dilate => dilate(plane),
            MorphOp::Open => dilate(&erode(plane)),
            MorphOp::Close => erode(&dilate(plane)),
            MorphOp::Gradient => diff(&dilate(plane), &erode(plane)),
            MorphOp::TopHat => diff(plane, &dilate(&erode(plane))),
            MorphOp::BlackHat => diff(&erode(&dilate(plane)), plane),
        };
    }
    let mut out = image;
    for (ch, plane) in planes.iter().enumerate() {
        for (i, &v) in plane.iter().enumerate() {
            out[i * c + ch] = v;
        }
    }
    out
}

fn repeat<P: Pixel>(x: &[P], spec: &Spec, e: Extreme, bval: P, h: usize, w: usize) -> Vec<P> {
    let mut cur = x.to_vec();
    for _ in 0..spec.opts.iterations {
        cur = once(&cur, spec, e, bval, h, w);
    }
    cur
}

/// One erosion (`Min`) or dilation (`Max`) of a `h × w` plane.
fn once<P: Pixel>(x: &[P], spec: &Spec, e: Extreme, bval: P, h: usize, w: usize) -> Vec<P> {
    let k = &spec.kernel;
    let (ax, ay) = (spec.anchor.x, spec.anchor.y);
    // Padded plane: ay rows above, kh-1-ay below, ax columns left, kw-1-ax right.
    let (ph, pw) = (h + k.h - 1, w + k.w - 1);
    let border = spec.opts.border_type;
    let cols: Vec<Option<usize>> = (0..pw)
        .map(|i| border_index(i as isize - ax as isize, w, border))
        .collect();
    let mut pad = vec![bval; ph * pw];
    for py in 0..ph {
        if let Some(sy) = border_index(py as isize - ay as isize, h, border) {
            let src = &x[sy * w..(sy + 1) * w];
            let dst = &mut pad[py * pw..(py + 1) * pw];
            for (d, c) in dst.iter_mut().zip(&cols) {
                if let Some(sx) = c {
                    *d = src[*sx];
                }
            }
        }
    }
    let op = match e {
        Extreme::Min => P::min2,
        Extreme::Max => P::max2,
    };
    if k.rect {
        // Separable: rows of length kw, then columns of length kh.
        let horiz = runs_1d(&pad, ph, pw, k.w, op);
        let hw = pw - k.w + 1; // == w
        return vertical(&horiz, ph, hw, k.h, op);
    }
    // Per distinct run length: the min/max over every horizontal run.
    let mut lengths: Vec<usize> = k.runs.iter().map(|r| r.2).collect();
    lengths.sort_unstable();
    lengths.dedup();
    let passes: Vec<(usize, Vec<P>)> = lengths
        .iter()
        .map(|&len| (len, runs_1d(&pad, ph, pw, len, op)))
        .collect();
    let mut out = vec![bval; h * w];
    let mut first = true;
    for &(ky, kx, len) in &k.runs {
        let pass = &passes.iter().find(|p| p.0 == len).unwrap().1;
        let stride = pw - len + 1;
        for y in 0..h {
            let src = &pass[(y + ky) * stride + kx..(y + ky) * stride + kx + w];
            let dst = &mut out[y * w..(y + 1) * w];
            if first {
                dst.copy_from_slice(src);
            } else {
                for (d, &s) in dst.iter_mut().zip(src) {
                    *d = op(*d, s);
                }
            }
        }
        first = false;
    }
    out
}

/// Van Herk/Gil-Werman along rows: for each of the `rows` rows of `width`
/// values, the `op`-reduction of every window of `k`, `width - k + 1` per row.
///
/// Blocks of `k`: `g` accumulates left to right inside a block, `s` right to
/// left; the window starting at `i` is `op(s[i], g[i + k - 1])`.
fn runs_1d<P: Pixel>(x: &[P], rows: usize, width: usize, k: usize, op: fn(P, P) -> P) -> Vec<P> {
    let n_out = width - k + 1;
    let mut out = Vec::with_capacity(rows * n_out);
    if k == 1 {
        return x.to_vec();
    }
    let mut g = vec![x[0]; width];
    let mut s = vec![x[0]; width];
    for r in 0..rows {
        let row = &x[r * width..(r + 1) * width];
        for start in (0..width).step_by(k) {
            let end = (start + k).min(width);
            g[start] = row[start];
            for i in start + 1..end {
                g[i] = op(g[i - 1], row[i]);
            }
            s[end - 1] = row[end - 1];
            for i in (start..end - 1).rev() {
                s[i] = op(s[i + 1], row[i]);
            }
        }
        out.extend((0..n_out).map(|i| op(s[i], g[i + k - 1])));
    }
    out
}

/// Van Herk/Gil-Werman down the columns of a `rows × width` plane, done
/// row by row so each step is one elementwise op on contiguous rows.
fn vertical<P: Pixel>(x: &[P], rows: usize, width: usize, k: usize, op: fn(P, P) -> P) -> Vec<P> {
    let n_out = rows - k + 1;
    if k == 1 {
        return x.to_vec();
    }
    let row = |r: usize| &x[r * width..(r + 1) * width];
    let mut g = x.to_vec();
    let mut s = x.to_vec();
    for start in (0..rows).step_by(k) {
        let end = (start + k).min(rows);
        for r in start + 1..end {
            let (prev, cur) = g.split_at_mut(r * width);
            let prev = &prev[(r - 1) * width..];
            for ((c, &p), &v) in cur[..width].iter_mut().zip(prev).zip(row(r)) {
                *c = op(p, v);
            }
        }
        for r in (start..end - 1).rev() {
            let (cur, next) = s.split_at_mut((r + 1) * width);
            let cur = &mut cur[r * width..];
            for ((c, &nx), &v) in cur.iter_mut().zip(&next[..width]).zip(row(r)) {
                *c = op(nx, v);
            }
        }
    }
    let mut out = Vec::with_capacity(n_out * width);
    for r in 0..n_out {
        let a = &s[r * width..(r + 1) * width];
        let b = &g[(r + k - 1) * width..(r + k) * width];
        out.extend(a.iter().zip(b).map(|(&a, &b)| op(a, b)));
    }
    out
}
