//! Connected-component labelling of bool images.
//!
//! Two raster passes over the host image (Wu, Otoo and Suzuki's SAUF):
//!
//! 1. Scan: each foreground pixel looks at its already-visited neighbours
//!    (left; and above-left, above, above-right for 8-connectivity) through
//!    a decision tree that reads as few of them as possible, and takes a
//!    neighbour's provisional label, unites two labels, or opens a new one.
//!    The union-find keeps the smallest label of a set as its root
//!    (`parent[i] <= i`), so a set's root is the label of its first pixel
//!    in raster order.
//! 2. Flatten and relabel: one pass over the parent array maps each root to
//!    the next free final label (1, 2, …) in increasing order, then one pass
//!    over the image writes the final labels (and gathers the stats).
//!
//! The image is copied into a buffer with one background row above and one
//! background column on each side, so the scan has no edge cases.
//!
//! Because roots are first pixels and they are numbered in increasing
//! order, components are numbered by the raster position of their first
//! pixel: the convention of `scipy.ndimage.label` and
//! `skimage.measure.label`, so the labels equal theirs exactly.

use crate::host::bool_bytes;
use burn_std::{Bytes, DType, TensorData};
use burn_tensor::{Bool, Device, Int, Tensor};
use std::vec;
use std::vec::Vec;

/// Which neighbours touch a pixel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Connectivity {
    /// Edge neighbours only (up, down, left, right).
    Four,
    /// Edge and corner neighbours.
    #[default]
    Eight,
}

/// Which statistics [`ConnectedComponents::connected_components_with_stats`]
/// gathers. Area and `max_label` are always computed (they cost nothing
/// extra); bounds and centroids only when `bounds_enabled`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConnectedStatsOptions {
    /// Gather bounding boxes and centroids.
    pub bounds_enabled: bool,
    /// Report the largest label. Always reported here; kept for API parity.
    pub max_label_enabled: bool,
    /// Compact the labels to `1..=n`. Labels are always compact here; kept
    /// for API parity (GPU labellers leave gaps without it).
    pub compact_labels: bool,
}

impl ConnectedStatsOptions {
    /// Only the labels, areas and `max_label`.
    pub fn none() -> Self {
        Self {
            bounds_enabled: false,
            max_label_enabled: false,
            compact_labels: false,
        }
    }

    /// Every statistic.
    pub fn all() -> Self {
        Self {
            bounds_enabled: true,
            max_label_enabled: true,
            compact_labels: true,
        }
    }
}

impl Default for ConnectedStatsOptions {
    fn default() -> Self {
        Self::all()
    }
}

/// Per-label statistics. Every tensor is indexed by label and has
/// `max_label + 1` rows; row 0 is the background and is all zeros.
/// Bounds are inclusive pixel coordinates.
#[derive(Clone)]
pub struct ConnectedStats {
    /// Number of pixels of each label.
    pub area: Tensor<1, Int>,
    /// Leftmost column (zeros unless `bounds_enabled`).
    pub left: Tensor<1, Int>,
    /// Topmost row (zeros unless `bounds_enabled`).
    pub top: Tensor<1, Int>,
    /// Rightmost column (zeros unless `bounds_enabled`).
    pub right: Tensor<1, Int>,
    /// Bottom row (zeros unless `bounds_enabled`).
    pub bottom: Tensor<1, Int>,
    /// Mean `(x, y)` of each label's pixels, `[max_label + 1, 2]` (zeros
    /// unless `bounds_enabled`). Not in Burn 0.23; OpenCV's `centroids`.
    pub centroid: Tensor<2>,
    /// `[1]`: the number of components, which is also the largest label.
    pub max_label: Tensor<1, Int>,
}

/// Connected-component labelling of a bool image `[height, width]`.
pub trait ConnectedComponents {
    /// Labels each foreground (`true`) pixel with its component, `1..=n`
    /// in raster order of the components' first pixels; background is 0.
    /// The labels are `[height, width]` in the device's int dtype.
    fn connected_components(self, connectivity: Connectivity) -> Tensor<2, Int>;

    /// [`connected_components`](Self::connected_components) and the
    /// components' [`ConnectedStats`].
    fn connected_components_with_stats(
        self,
        connectivity: Connectivity,
        options: ConnectedStatsOptions,
    ) -> (Tensor<2, Int>, ConnectedStats);
}

impl ConnectedComponents for Tensor<2, Bool> {
    fn connected_components(self, connectivity: Connectivity) -> Tensor<2, Int> {
        let device = self.device();
        let [h, w] = self.dims();
        let img = bool_bytes(self.into_data());
        let labeller = Labeller::scan(&img, h, w, connectivity);
        labels_tensor(&labeller, h, w, &device, None)
    }

    fn connected_components_with_stats(
        self,
        connectivity: Connectivity,
        options: ConnectedStatsOptions,
    ) -> (Tensor<2, Int>, ConnectedStats) {
        let device = self.device();
        let [h, w] = self.dims();
        let img = bool_bytes(self.into_data());
        let labeller = Labeller::scan(&img, h, w, connectivity);
        let mut stats = Stats::new(labeller.count as usize, options.bounds_enabled);
        let labels = labels_tensor(&labeller, h, w, &device, Some(&mut stats));
        (labels, stats.into_tensors(&device))
    }
}

/// Labels a batch of bool images `[batch, height, width]`, each on its own
/// (labels restart at 1 in every image).
pub fn connected_components_batch(
    images: Tensor<3, Bool>,
    connectivity: Connectivity,
) -> Tensor<3, Int> {
    let device = images.device();
    let [b, h, w] = images.dims();
    let img = bool_bytes(images.into_data());
    let plane = h * w;
    let dtype = device.settings().int_dtype;
    let mut out: Vec<i64> = Vec::with_capacity(b * plane);
    for i in 0..b {
        let labeller = Labeller::scan(&img[i * plane..(i + 1) * plane], h, w, connectivity);
        let mut labels = vec![0i64; plane];
        labeller.write(&mut labels, None);
        out.extend(labels);
    }
    let data = TensorData::new(out, [b, h, w]).convert_dtype(dtype);
    Tensor::from_data(data, (&device, dtype))
}

/// Output element of the label image.
trait LabelElem: Copy + Default {
    fn from_label(label: u32) -> Self;
}

impl LabelElem for i32 {
    #[inline(always)]
    fn from_label(label: u32) -> Self {
        label as i32
    }
}

impl LabelElem for i64 {
    #[inline(always)]
    fn from_label(label: u32) -> Self {
        label as i64
    }
}

fn labels_tensor(
    labeller: &Labeller,
    h: usize,
    w: usize,
    device: &Device,
    stats: Option<&mut Stats>,
) -> Tensor<2, Int> {
    let dtype = device.settings().int_dtype;
    // Written straight into a recycled tensor buffer: a fresh 16M-label
    // output costs more in page faults and one more copy than the scan.
    let data = match dtype {
        DType::I32 => {
            let mut bytes = Bytes::for_overwrite(h * w * 4);
            labeller.write(bytes.as_mut_slice_of::<i32>(), stats);
            TensorData::from_bytes(bytes, [h, w], dtype).unwrap()
        }
        DType::I64 => {
            let mut bytes = Bytes::for_overwrite(h * w * 8);
            labeller.write(bytes.as_mut_slice_of::<i64>(), stats);
            TensorData::from_bytes(bytes, [h, w], dtype).unwrap()
        }
        other => {
            let mut out = vec![0i64; h * w];
            labeller.write(&mut out, stats);
            TensorData::new(out, [h, w]).convert_dtype(other)
        }
    };
    Tensor::from_data(data, (device, dtype))
}

/// The provisional labels of one image and the flattened label table.
struct Labeller {
    h: usize,
    w: usize,
    /// Provisional labels on the padded grid `(h + 1) × (w + 2)`.
    provisional: Bytes,
    /// Provisional label → final label, after flattening.
    table: Vec<u32>,
    /// Number of components.
    count: u32,
}

/// The root of `i`'s set (the set's smallest label).
#[inline(always)]
fn find(parent: &[u32], mut i: u32) -> u32 {
    while parent[i as usize] < i {
        i = parent[i as usize];
    }
    i
}

/// Points every node on `i`'s path at `root`.
#[inline(always)]
fn set_root(parent: &mut [u32], mut i: u32, root: u32) {
    while parent[i as usize] < i {
        let next = parent[i as usize];
        parent[i as usize] = root;
        i = next;
    }
    parent[i as usize] = root;
}

/// Unites the sets of `i` and `j`; returns the new root (the smaller one).
#[inline(always)]
fn merge(parent: &mut [u32], i: u32, j: u32) -> u32 {
    if i == j {
        return i;
    }
    let root = find(parent, i).min(find(parent, j));
    set_root(parent, i, root);
    set_root(parent, j, root);
    root
}

impl Labeller {
    fn scan(img: &[u8], h: usize, w: usize, connectivity: Connectivity) -> Self {
        let pw = w + 2;
        // Padded copy: row 0 and columns 0 and w + 1 are background.
        let mut padded_buf = Bytes::zeroed_recycled((h + 1) * pw);
        let padded = padded_buf.as_mut_slice_of::<u8>();
        for y in 0..h {
            padded[(y + 1) * pw + 1..(y + 1) * pw + 1 + w]
                .copy_from_slice(&img[y * w..(y + 1) * w]);
        }
        let mut lab_buf = Bytes::zeroed_recycled((h + 1) * pw * 4);
        let lab = lab_buf.as_mut_slice_of::<u32>();
        // parent[0] is the background; labels start at 1.
        let mut parent: Vec<u32> = Vec::with_capacity(1024);
        parent.push(0);
        match connectivity {
            Connectivity::Eight => scan8(padded, lab, &mut parent, h, w),
            Connectivity::Four => scan4(padded, lab, &mut parent, h, w),
        }
        // Flatten: parent[i] <= i, so parent[parent[i]] is already final.
        let mut count = 0u32;
        for i in 1..parent.len() {
            let p = parent[i];
            if (p as usize) < i {
                parent[i] = parent[p as usize];
            } else {
                count += 1;
                parent[i] = count;
            }
        }
        Self {
            h,
            w,
            provisional: lab_buf,
            table: parent,
            count,
        }
    }

    /// Writes the final labels into `out` (`h × w`), gathering `stats`.
    fn write<L: LabelElem>(&self, out: &mut [L], stats: Option<&mut Stats>) {
        let (h, w) = (self.h, self.w);
        let pw = w + 2;
        let table = &self.table[..];
        let provisional = self.provisional.as_slice_of::<u32>();
        match stats {
            None => {
                for y in 0..h {
                    let src = &provisional[(y + 1) * pw + 1..(y + 1) * pw + 1 + w];
                    let dst = &mut out[y * w..(y + 1) * w];
                    for (d, &s) in dst.iter_mut().zip(src) {
                        *d = L::from_label(table[s as usize]);
                    }
                }
            }
            Some(stats) => {
                for y in 0..h {
                    let src = &provisional[(y + 1) * pw + 1..(y + 1) * pw + 1 + w];
                    let dst = &mut out[y * w..(y + 1) * w];
                    for (x, (d, &s)) in dst.iter_mut().zip(src).enumerate() {
                        let l = table[s as usize];
                        *d = L::from_label(l);
                        if l != 0 {
                            stats.add(l as usize, x, y);
                        }
                    }
                }
            }
        }
    }
}

fn scan8(img: &[u8], lab: &mut [u32], parent: &mut Vec<u32>, h: usize, w: usize) {
    let pw = w + 2;
    for y in 1..=h {
        let row = y * pw;
        let up = row - pw;
        for x in 1..=w {
            let i = row + x;
            if img[i] == 0 {
                continue;
            }
            // Neighbours: a b c above, d to the left. If b is set it
            // touches a, c and d, so nothing else needs to be read.
            let label = if img[up + x] != 0 {
                lab[up + x]
            } else if img[up + x + 1] != 0 {
                let c = lab[up + x + 1];
                if img[up + x - 1] != 0 {
                    merge(parent, c, lab[up + x - 1])
                } else if img[i - 1] != 0 {
                    merge(parent, c, lab[i - 1])
                } else {
                    c
                }
            } else if img[up + x - 1] != 0 {
                lab[up + x - 1]
            } else if img[i - 1] != 0 {
                lab[i - 1]
            } else {
                let l = parent.len() as u32;
                parent.push(l);
                l
            };
            lab[i] = label;
        }
    }
}

fn scan4(img: &[u8], lab: &mut [u32], parent: &mut Vec<u32>, h: usize, w: usize) {
    let pw = w + 2;
    for y in 1..=h {
        let row = y * pw;
        let up = row - pw;
        for x in 1..=w {
            let i = row + x;
            if img[i] == 0 {
                continue;
            }
            let label = match (img[up + x] != 0, img[i - 1] != 0) {
                (true, true) => merge(parent, lab[up + x], lab[i - 1]),
                (true, false) => lab[up + x],
                (false, true) => lab[i - 1],
                (false, false) => {
                    let l = parent.len() as u32;
                    parent.push(l);
                    l
                }
            };
            lab[i] = label;
        }
    }
}

/// Running statistics, indexed by final label.
struct Stats {
    bounds: bool,
    area: Vec<i64>,
    left: Vec<i64>,
    top: Vec<i64>,
    right: Vec<i64>,
    bottom: Vec<i64>,
    sum_x: Vec<f64>,
    sum_y: Vec<f64>,
}

impl Stats {
    fn new(count: usize, bounds: bool) -> Self {
        let n = count + 1;
        let m = if bounds { n } else { 0 };
        Self {
            bounds,
            area: vec![0; n],
            left: vec![i64::MAX; m],
            top: vec![i64::MAX; m],
            right: vec![-1; m],
            bottom: vec![-1; m],
            sum_x: vec![0.0; m],
            sum_y: vec![0.0; m],
        }
    }

    #[inline(always)]
    fn add(&mut self, l: usize, x: usize, y: usize) {
        self.area[l] += 1;
        if self.bounds {
            let (x, y) = (x as i64, y as i64);
            self.left[l] = self.left[l].min(x);
            self.right[l] = self.right[l].max(x);
            self.top[l] = self.top[l].min(y);
            self.bottom[l] = self.bottom[l].max(y);
            self.sum_x[l] += x as f64;
            self.sum_y[l] += y as f64;
        }
    }

    fn into_tensors(self, device: &Device) -> ConnectedStats {
        use crate::host::int_tensor;
        let n = self.area.len();
        let max_label = int_tensor(vec![n as i64 - 1], [1], device);
        let zeros = || int_tensor(vec![0; n], [n], device);
        if !self.bounds {
            return ConnectedStats {
                area: int_tensor(self.area, [n], device),
                left: zeros(),
                top: zeros(),
                right: zeros(),
                bottom: zeros(),
                centroid: Tensor::zeros([n, 2], device),
                max_label,
            };
        }
        let mut left = self.left;
        let mut top = self.top;
        let mut right = self.right;
        let mut bottom = self.bottom;
        // Row 0 (background) is not measured.
        left[0] = 0;
        top[0] = 0;
        right[0] = 0;
        bottom[0] = 0;
        let mut centroid = vec![0.0f64; 2 * n];
        for l in 1..n {
            let a = self.area[l] as f64;
            centroid[2 * l] = self.sum_x[l] / a;
            centroid[2 * l + 1] = self.sum_y[l] / a;
        }
        let float = device.settings().float_dtype;
        ConnectedStats {
            area: int_tensor(self.area, [n], device),
            left: int_tensor(left, [n], device),
            top: int_tensor(top, [n], device),
            right: int_tensor(right, [n], device),
            bottom: int_tensor(bottom, [n], device),
            centroid: Tensor::from_data(
                TensorData::new(centroid, [n, 2]).convert_dtype(float),
                (device, float),
            ),
            max_label,
        }
    }
}
