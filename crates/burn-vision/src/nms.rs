//! Greedy non-maximum suppression.
//!
//! The semantics are torchvision's `ops.nms`: boxes are visited by
//! descending score (ties by ascending index: a stable sort), each box not
//! yet suppressed is kept and suppresses every later box whose IoU with it
//! is strictly greater than the threshold. IoU is computed with torchvision's
//! formula in the boxes' precision (f64 boxes in f64, every other float
//! dtype in f32), so the kept set is the same bit for bit.
//!
//! Speed: the boxes are gathered once, in score order, into separate
//! coordinate and area arrays; each kept box then updates a `dead` byte
//! mask over all later candidates in a branch-free loop that the compiler
//! vectorises (an AVX2 copy of the loop is picked at run time where the CPU
//! has it). When a quarter of the candidates are dead the arrays are
//! compacted, so heavy suppression shrinks the work that follows.

use crate::host::int_tensor;
use burn_std::DType;
use burn_tensor::{Int, Tensor};
use std::vec::Vec;

/// Options of [`nms`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NmsOptions {
    /// A box is suppressed when its IoU with a kept box is `> iou_threshold`.
    pub iou_threshold: f32,
    /// Boxes with `score <= score_threshold` are dropped before suppression.
    pub score_threshold: f32,
    /// At most this many boxes are kept; 0 keeps all.
    pub max_output_boxes: usize,
}

impl Default for NmsOptions {
    fn default() -> Self {
        Self {
            iou_threshold: 0.5,
            score_threshold: 0.0,
            max_output_boxes: 0,
        }
    }
}

/// Non-maximum suppression on a tensor of boxes.
pub trait Nms {
    /// See [`nms`].
    fn nms(self, scores: Tensor<1>, options: NmsOptions) -> Tensor<1, Int>;
}

impl Nms for Tensor<2> {
    fn nms(self, scores: Tensor<1>, options: NmsOptions) -> Tensor<1, Int> {
        nms(self, scores, options)
    }
}

/// Greedy non-maximum suppression (torchvision's `ops.nms`, plus a score
/// threshold and an output cap).
///
/// * `boxes` - `[n, 4]`, corners `x1, y1, x2, y2` with `x1 <= x2`, `y1 <= y2`.
/// * `scores` - `[n]`.
///
/// Returns the indices of the kept boxes, by descending score, as `[k]` in
/// the device's int dtype.
///
/// # Panics
/// If `boxes` is not `[n, 4]` or `scores` is not `[n]`.
///
/// ```
/// use burn_tensor::{Device, Tensor};
/// use burn_vision::{Nms, NmsOptions};
///
/// let device = Device::flex();
/// let boxes = Tensor::<2>::from_floats(
///     [[0.0, 0.0, 10.0, 10.0], [1.0, 1.0, 11.0, 11.0], [20.0, 20.0, 30.0, 30.0]],
///     &device,
/// );
/// let scores = Tensor::<1>::from_floats([0.9, 0.8, 0.7], &device);
/// let kept = boxes.nms(scores, NmsOptions::default());
/// assert_eq!(kept.into_data().to_vec::<i64>().unwrap(), vec![0, 2]);
/// ```
#[track_caller]
pub fn nms(boxes: Tensor<2>, scores: Tensor<1>, options: NmsOptions) -> Tensor<1, Int> {
    let [n, four] = boxes.dims();
    let [m] = scores.dims();
    if four != 4 || m != n {
        panic!(
            "nms: expected boxes [n, 4] and scores [n], got boxes {:?} and scores {:?}",
            boxes.dims(),
            scores.dims()
        );
    }
    let device = boxes.device();
    let kept = if boxes.dtype() == DType::F64 {
        let b = boxes
            .into_data()
            .convert::<f64>()
            .into_vec::<f64>()
            .unwrap();
        let s = scores
            .into_data()
            .convert::<f64>()
            .into_vec::<f64>()
            .unwrap();
        nms_host(&b, &s, options)
    } else {
        let b = boxes
            .into_data()
            .convert::<f32>()
            .into_vec::<f32>()
            .unwrap();
        let s = scores
            .into_data()
            .convert::<f32>()
            .into_vec::<f32>()
            .unwrap();
        nms_host(&b, &s, options)
    };
    let k = kept.len();
    int_tensor(kept.into_iter().map(|i| i as i64).collect(), [k], &device)
}

/// The float types NMS runs in.
pub(crate) trait NmsFloat: Copy + PartialOrd + Send + Sync + 'static {
    const ZERO: Self;
    fn from_f32(v: f32) -> Self;
    fn total_cmp(&self, other: &Self) -> core::cmp::Ordering;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn add(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
}

macro_rules! nms_float {
    ($t:ty) => {
        impl NmsFloat for $t {
            const ZERO: Self = 0.0;
            #[inline(always)]
            fn from_f32(v: f32) -> Self {
                v as $t
            }
            #[inline(always)]
            fn total_cmp(&self, other: &Self) -> core::cmp::Ordering {
                <$t>::total_cmp(self, other)
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self - o
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self * o
            }
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self + o
            }
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                self / o
            }
        }
    };
}
nms_float!(f32);
nms_float!(f64);

/// `max`/`min` as torchvision's `std::max`/`std::min` (and as one `maxps`).
#[inline(always)]
fn fmax<F: NmsFloat>(a: F, b: F) -> F {
    if a < b { b } else { a }
}
#[inline(always)]
fn fmin<F: NmsFloat>(a: F, b: F) -> F {
    if b < a { b } else { a }
}

/// Candidates in score order, one array per field.
struct Candidates<F> {
    x1: Vec<F>,
    y1: Vec<F>,
    x2: Vec<F>,
    y2: Vec<F>,
    area: Vec<F>,
    index: Vec<u32>,
    dead: Vec<u8>,
}

pub(crate) fn nms_host<F: NmsFloat>(boxes: &[F], scores: &[F], options: NmsOptions) -> Vec<usize> {
    let threshold = F::from_f32(options.score_threshold);
    let mut order: Vec<u32> = (0..scores.len() as u32)
        .filter(|&i| scores[i as usize] > threshold)
        .collect();
    // Stable: equal scores keep ascending index, as torchvision on CPU.
    order.sort_by(|&a, &b| scores[b as usize].total_cmp(&scores[a as usize]));
    let n = order.len();
    let mut c = Candidates {
        x1: Vec::with_capacity(n),
        y1: Vec::with_capacity(n),
        x2: Vec::with_capacity(n),
        y2: Vec::with_capacity(n),
        area: Vec::with_capacity(n),
        index: order,
        dead: vec![0; n],
    };
    for &i in &c.index {
        let b = &boxes[4 * i as usize..4 * i as usize + 4];
        c.x1.push(b[0]);
        c.y1.push(b[1]);
        c.x2.push(b[2]);
        c.y2.push(b[3]);
        c.area.push(b[2].sub(b[0]).mul(b[3].sub(b[1])));
    }
    let cap = if options.max_output_boxes == 0 {
        usize::MAX
    } else {
        options.max_output_boxes
    };
    let iou = F::from_f32(options.iou_threshold);
    let mut kept = Vec::new();
    let mut head = 0;
    let mut dead_count = 0usize;
    while head < c.index.len() && kept.len() < cap {
        if c.dead[head] != 0 {
            head += 1;
            continue;
        }
        kept.push(c.index[head] as usize);
        let rest = head + 1;
        dead_count += suppress(&mut c, head, rest, iou);
        head = rest;
        // Compact once a quarter of what is left is dead.
        let left = c.index.len() - head;
        if dead_count * 4 > left && left > 64 {
            compact(&mut c, head);
            head = 0;
            dead_count = 0;
        }
    }
    kept
}

/// Marks the candidates `rest..` that `head` suppresses; returns how many
/// were newly marked.
fn suppress<F: NmsFloat>(c: &mut Candidates<F>, head: usize, rest: usize, iou: F) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above), the only
            // requirement of the `target_feature` function.
            return unsafe { suppress_avx2(c, head, rest, iou) };
        }
    }
    suppress_generic(c, head, rest, iou)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn suppress_avx2<F: NmsFloat>(c: &mut Candidates<F>, head: usize, rest: usize, iou: F) -> usize {
    suppress_generic(c, head, rest, iou)
}

#[inline(always)]
fn suppress_generic<F: NmsFloat>(c: &mut Candidates<F>, head: usize, rest: usize, iou: F) -> usize {
    let (ix1, iy1, ix2, iy2, iarea) =
        (c.x1[head], c.y1[head], c.x2[head], c.y2[head], c.area[head]);
    let n = c.index.len();
    let (x1, y1, x2, y2, area) = (
        &c.x1[rest..n],
        &c.y1[rest..n],
        &c.x2[rest..n],
        &c.y2[rest..n],
        &c.area[rest..n],
    );
    let dead = &mut c.dead[rest..n];
    let mut newly = 0usize;
    for j in 0..dead.len() {
        let xx1 = fmax(ix1, x1[j]);
        let yy1 = fmax(iy1, y1[j]);
        let xx2 = fmin(ix2, x2[j]);
        let yy2 = fmin(iy2, y2[j]);
        let w = fmax(F::ZERO, xx2.sub(xx1));
        let h = fmax(F::ZERO, yy2.sub(yy1));
        let inter = w.mul(h);
        let ovr = inter.div(iarea.add(area[j]).sub(inter));
        let hit = (ovr > iou) as u8;
        newly += (hit & !dead[j]) as usize;
        dead[j] |= hit;
    }
    newly
}

/// Drops the dead candidates and those before `from`.
fn compact<F: NmsFloat>(c: &mut Candidates<F>, from: usize) {
    let mut w = 0;
    for r in from..c.index.len() {
        if c.dead[r] == 0 {
            c.x1[w] = c.x1[r];
            c.y1[w] = c.y1[r];
            c.x2[w] = c.x2[r];
            c.y2[w] = c.y2[r];
            c.area[w] = c.area[r];
            c.index[w] = c.index[r];
            c.dead[w] = 0;
            w += 1;
        }
    }
    c.x1.truncate(w);
    c.y1.truncate(w);
    c.x2.truncate(w);
    c.y2.truncate(w);
    c.area.truncate(w);
    c.index.truncate(w);
    c.dead.truncate(w);
}
