//! Colour conversions of float image batches `[batch, 3, height, width]`
//! with values in `[0, 1]`, as tensor ops (they run on the input's device
//! and autodiff records them).

use crate::error::{VisionError, raise};
use burn_tensor::Tensor;

/// Colour-space conversions of image batches `[batch, channels, height, width]`.
pub trait ColorConversion {
    /// Luma `0.2989 R + 0.587 G + 0.114 B` (ITU-R 601, torchvision's
    /// `rgb_to_grayscale`): `[batch, 3, h, w]` to `[batch, 1, h, w]`.
    fn rgb2gray(self) -> Tensor<4>;
    /// The grey channel copied to red, green and blue: `[batch, 1, h, w]`
    /// to `[batch, 3, h, w]` (scikit-image's `gray2rgb`).
    fn gray2rgb(self) -> Tensor<4>;
    /// RGB to HSV, every channel in `[0, 1]` (hue as a fraction of a turn),
    /// scikit-image's `rgb2hsv`: hue and saturation are 0 where the colour
    /// is grey.
    fn rgb2hsv(self) -> Tensor<4>;
    /// HSV (as [`rgb2hsv`](Self::rgb2hsv) makes it) to RGB.
    fn hsv2rgb(self) -> Tensor<4>;
}

#[track_caller]
fn channels(op: &'static str, x: Tensor<4>) -> [Tensor<4>; 3] {
    check_channels(op, &x, 3, "[batch, 3, height, width]");
    let [b, _, h, w] = x.dims();
    let s = |i: usize| x.clone().slice([0..b, i..i + 1, 0..h, 0..w]);
    [s(0), s(1), s(2)]
}

#[track_caller]
fn check_channels(op: &'static str, x: &Tensor<4>, c: usize, expected: &'static str) {
    let dims = x.dims();
    if dims[1] != c {
        raise::<()>(Err(VisionError::BadShape {
            op,
            expected,
            shape: dims.to_vec(),
        }));
    }
}

impl ColorConversion for Tensor<4> {
    #[track_caller]
    fn rgb2gray(self) -> Tensor<4> {
        let [r, g, b] = channels("rgb2gray", self);
        r.mul_scalar(0.2989) + g.mul_scalar(0.587) + b.mul_scalar(0.114)
    }

    #[track_caller]
    fn gray2rgb(self) -> Tensor<4> {
        check_channels("gray2rgb", &self, 1, "[batch, 1, height, width]");
        self.repeat_dim(1, 3)
    }

    #[track_caller]
    fn rgb2hsv(self) -> Tensor<4> {
        let [r, g, b] = channels("rgb2hsv", self);
        let v = r.clone().max_pair(g.clone()).max_pair(b.clone());
        let min = r.clone().min_pair(g.clone()).min_pair(b.clone());
        let delta = v.clone() - min;
        let grey = delta.clone().equal_elem(0.0);
        // Division by a zero delta is masked away below.
        let safe = delta.clone().mask_fill(grey.clone(), 1.0);
        let s = (delta / v.clone().mask_fill(v.clone().equal_elem(0.0), 1.0))
            .mask_fill(grey.clone(), 0.0);
        // skimage's precedence on ties: blue over green over red.
        let mut h = (g.clone() - b.clone()) / safe.clone();
        let hg = (b.clone() - r.clone()) / safe.clone() + 2.0;
        h = h.mask_where(g.clone().equal(v.clone()), hg);
        let hb = (r - g) / safe + 4.0;
        h = h.mask_where(b.equal(v.clone()), hb);
        let h = h / 6.0;
        let h = (h.clone() - h.floor()).mask_fill(grey, 0.0);
        Tensor::cat(std::vec![h, s, v], 1)
    }

    #[track_caller]
    fn hsv2rgb(self) -> Tensor<4> {
        let [h, s, v] = channels("hsv2rgb", self);
        let h6 = h * 6.0;
        let sector = h6.clone().floor();
        let f = h6 - sector.clone();
        let p = v.clone() * (s.clone().neg() + 1.0);
        let q = v.clone() * ((s.clone() * f.clone()).neg() + 1.0);
        let t = v.clone() * ((s * (f.neg() + 1.0)).neg() + 1.0);
        // sector mod 6, then pick (r, g, b) per sector.
        let sector = sector.clone() - (sector / 6.0).floor() * 6.0;
        let table = [
            [&v, &t, &p],
            [&q, &v, &p],
            [&p, &v, &t],
            [&p, &q, &v],
            [&t, &p, &v],
            [&v, &p, &q],
        ];
        let mut out: [Tensor<4>; 3] = [v.clone(), p.clone(), q.clone()];
        for (ch, o) in out.iter_mut().enumerate() {
            let mut acc = table[0][ch].clone();
            for (k, row) in table.iter().enumerate().skip(1) {
                acc = acc.mask_where(sector.clone().equal_elem(k as f64), row[ch].clone());
            }
            *o = acc;
        }
        let [r, g, b] = out;
        Tensor::cat(std::vec![r, g, b], 1)
    }
}
