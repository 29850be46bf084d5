//! Affine resampling of image batches with bilinear interpolation.
//!
//! The sampling grid depends only on the image size and the matrix, so it
//! is computed on the host; the interpolation itself is tensor ops (four
//! `select`s of the flattened image and a weighted sum), so it runs on the
//! image's device and autodiff records it.

use crate::host::int_tensor;
use burn_std::TensorData;
use burn_tensor::Tensor;
use burn_tensor::ops::GridSamplePaddingMode;
use std::vec::Vec;

/// A 2D affine map in the normalised coordinates of `grid_sample` with
/// `align_corners = true` (`-1` and `1` are the centres of the first and
/// last pixels): the output pixel at `p` samples the input at `A·(p, 1)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform2D {
    // Row-major 2×3: [[a, b, tx], [c, d, ty]].
    transform: [[f32; 3]; 2],
    padding: GridSamplePaddingMode,
}

impl Transform2D {
    /// The map with matrix `transform` (2×3, rows `[a, b, tx]`, `[c, d, ty]`).
    pub fn from_matrix(transform: [[f32; 3]; 2]) -> Self {
        Self {
            transform,
            padding: GridSamplePaddingMode::Border,
        }
    }

    /// The identity.
    pub fn identity() -> Self {
        Self::from_matrix([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    }

    /// Rotation by `theta` radians about `(cx, cy)`.
    pub fn rotation(theta: f32, cx: f32, cy: f32) -> Self {
        let (s, c) = theta.sin_cos();
        Self::from_matrix([[c, -s, cx - c * cx + s * cy], [s, c, cy - s * cx - c * cy]])
    }

    /// Scaling by `sx`, `sy` about `(cx, cy)`.
    pub fn scale(sx: f32, sy: f32, cx: f32, cy: f32) -> Self {
        Self::from_matrix([[sx, 0.0, cx - sx * cx], [0.0, sy, cy - sy * cy]])
    }

    /// Translation by `(tx, ty)`.
    pub fn translation(tx: f32, ty: f32) -> Self {
        Self::from_matrix([[1.0, 0.0, tx], [0.0, 1.0, ty]])
    }

    /// Shear `x += shx·y`, `y += shy·x` about `(cx, cy)`.
    pub fn shear(shx: f32, shy: f32, cx: f32, cy: f32) -> Self {
        Self::from_matrix([[1.0, shx, -shx * cy], [shy, 1.0, -shy * cx]])
    }

    /// `transforms` applied in order: the first maps the output coordinates
    /// first (`composed([a, b])` samples at `b(a(p))`).
    pub fn composed<I: IntoIterator<Item = Self>>(transforms: I) -> Self {
        let mut m = Self::identity().transform;
        for t in transforms {
            // m := t ∘ m (as 3×3 with a last row [0, 0, 1]).
            let a = t.transform;
            let mut r = [[0.0f32; 3]; 2];
            for (i, row) in r.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    *v = a[i][0] * m[0][j] + a[i][1] * m[1][j] + if j == 2 { a[i][2] } else { 0.0 };
                }
            }
            m = r;
        }
        Self::from_matrix(m)
    }

    /// Sets what samples outside the image read (default here
    /// [`GridSamplePaddingMode::Border`]; `Zeros` and `Reflection` are
    /// PyTorch's `grid_sample` modes of the same names).
    pub fn with_padding_mode(mut self, padding_mode: GridSamplePaddingMode) -> Self {
        self.padding = padding_mode;
        self
    }

    /// The 2×3 matrix.
    pub fn matrix(&self) -> [[f32; 3]; 2] {
        self.transform
    }

    /// Resamples `img` (`[batch, channels, height, width]`) through the map,
    /// bilinearly; the output has the input's shape. Equals PyTorch's
    /// `grid_sample(img, affine_grid(A, size, align_corners=True),
    /// "bilinear", padding_mode, align_corners=True)`.
    pub fn transform(self, img: Tensor<4>) -> Tensor<4> {
        let [b, c, h, w] = img.dims();
        if b * c * h * w == 0 {
            return img;
        }
        let device = img.device();
        let n = h * w;
        let m = self.transform;
        let norm = |i: usize, len: usize| {
            if len > 1 {
                -1.0 + 2.0 * i as f64 / (len - 1) as f64
            } else {
                0.0
            }
        };
        let unnorm = |v: f64, len: usize| (v + 1.0) / 2.0 * (len as f64 - 1.0);
        let mut idx = [
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        ];
        let mut wts = [
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        ];
        for y in 0..h {
            for x in 0..w {
                let (xn, yn) = (norm(x, w), norm(y, h));
                let xs = m[0][0] as f64 * xn + m[0][1] as f64 * yn + m[0][2] as f64;
                let ys = m[1][0] as f64 * xn + m[1][1] as f64 * yn + m[1][2] as f64;
                let (mut px, mut py) = (unnorm(xs, w), unnorm(ys, h));
                match self.padding {
                    GridSamplePaddingMode::Zeros => {}
                    GridSamplePaddingMode::Border => {
                        px = px.clamp(0.0, (w - 1) as f64);
                        py = py.clamp(0.0, (h - 1) as f64);
                    }
                    GridSamplePaddingMode::Reflection => {
                        px = reflect(px, w);
                        py = reflect(py, h);
                    }
                }
                let (x0, y0) = (px.floor(), py.floor());
                let (fx, fy) = (px - x0, py - y0);
                let corners = [
                    (x0, y0, (1.0 - fx) * (1.0 - fy)),
                    (x0 + 1.0, y0, fx * (1.0 - fy)),
                    (x0, y0 + 1.0, (1.0 - fx) * fy),
                    (x0 + 1.0, y0 + 1.0, fx * fy),
                ];
                for (k, &(cx, cy, wt)) in corners.iter().enumerate() {
                    let inside =
                        cx >= 0.0 && cy >= 0.0 && cx <= (w - 1) as f64 && cy <= (h - 1) as f64;
                    // An outside corner reads pixel 0 with weight 0 (zeros padding).
                    let (i, wt) = if inside {
                        ((cy as usize * w + cx as usize) as i64, wt)
                    } else {
                        (0, 0.0)
                    };
                    idx[k].push(i);
                    wts[k].push(wt);
                }
            }
        }
        let dtype = img.dtype();
        let flat: Tensor<2> = img.reshape([b * c, n]);
        let mut out: Option<Tensor<2>> = None;
        for k in 0..4 {
            let i = int_tensor(std::mem::take(&mut idx[k]), [n], &device);
            let wt = Tensor::<2>::from_data(
                TensorData::new(std::mem::take(&mut wts[k]), [1, n]).convert_dtype(dtype),
                (&device, dtype),
            );
            let term = flat.clone().select(1, i) * wt;
            out = Some(match out {
                None => term,
                Some(acc) => acc + term,
            });
        }
        out.unwrap().reshape([b, c, h, w])
    }
}

/// `v` reflected about the centres of the first and last of `len` pixels
/// until it lies in `[0, len - 1]` (PyTorch's `reflection` padding with
/// `align_corners = true`).
fn reflect(v: f64, len: usize) -> f64 {
    let span = (len - 1) as f64;
    if span == 0.0 {
        return 0.0;
    }
    let m = v.abs() % (2.0 * span);
    if m > span { 2.0 * span - m } else { m }
}
