//! Writing a tensor (an image or a batch of images) as an 8-bit RGB PNG.

use crate::error::VisionError;
use burn_tensor::Tensor;
use std::ffi::OsStr;
use std::path::Path;
use std::string::ToString;
use std::vec;

/// How [`save_tensor_as_image`] reads and draws a tensor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TensorDisplayOptions {
    /// What the dims are.
    pub dim_order: ImageDimOrder,
    /// How values become colours.
    pub color_opts: ColorDisplayOpts,
    /// How a batch is drawn; `None` is [`BatchDisplayOpts::Aggregated`].
    pub batch_opts: Option<BatchDisplayOpts>,
    /// Width of the written image (nearest-neighbour scaling).
    pub width_out: usize,
    /// Height of the written image.
    pub height_out: usize,
}

/// The meaning of an image tensor's dims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageDimOrder {
    /// `[height, width]`.
    Hw,
    /// `[channels, height, width]`.
    Chw,
    /// `[height, width, channels]`.
    Hwc,
    /// `[batch, height, width]`.
    Nhw,
    /// `[batch, channels, height, width]`.
    Nchw,
    /// `[batch, height, width, channels]`.
    Nhwc,
}

/// How values become colours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ColorDisplayOpts {
    /// Channels 0, 1, 2 are red, green, blue in `[0, 1]` (one channel is
    /// grey); values are clamped.
    Rgb,
    /// Channel 0, scaled from its minimum to its maximum, blends `min` into
    /// `max` (colours in `[0, 1]`).
    Monochrome {
        /// Colour of the smallest value.
        min: [f32; 3],
        /// Colour of the largest value.
        max: [f32; 3],
    },
}

/// How a batch is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchDisplayOpts {
    /// One `width_out × height_out` tile per image, stacked top to bottom:
    /// the file is `width_out × (batch · height_out)`.
    Tiled,
    /// All images in one `width_out × height_out` picture, each pixel the
    /// mean of the images' colours there.
    Aggregated,
}

/// Writes `tensor` as an 8-bit RGB PNG file at `path`, creating its parent
/// directories. Each image is scaled to `width_out × height_out`
/// (nearest neighbour).
///
/// # Errors
/// The boxed error is a [`VisionError`]: [`VisionError::BadShape`] when the
/// rank does not match `opts.dim_order` or the image is empty,
/// [`VisionError::Io`] or [`VisionError::Png`] when writing fails. Nothing
/// is printed.
pub fn save_tensor_as_image<const D: usize, P: AsRef<OsStr>>(
    tensor: Tensor<D>,
    opts: TensorDisplayOptions,
    path: P,
) -> Result<(), Box<dyn std::error::Error>> {
    Ok(save(tensor, opts, Path::new(path.as_ref()))?)
}

fn save<const D: usize>(
    tensor: Tensor<D>,
    opts: TensorDisplayOptions,
    path: &Path,
) -> Result<(), VisionError> {
    const OP: &str = "save_tensor_as_image";
    let dims = tensor.dims().to_vec();
    let bad = |expected| VisionError::BadShape {
        op: OP,
        expected,
        shape: dims.clone(),
    };
    // Normalise to [n, c, h, w] as (layout, sizes).
    use ImageDimOrder::*;
    let (rank, expected) = match opts.dim_order {
        Hw => (2, "[height, width]"),
        Chw => (3, "[channels, height, width]"),
        Hwc => (3, "[height, width, channels]"),
        Nhw => (3, "[batch, height, width]"),
        Nchw => (4, "[batch, channels, height, width]"),
        Nhwc => (4, "[batch, height, width, channels]"),
    };
    if D != rank || dims.contains(&0) || opts.width_out == 0 || opts.height_out == 0 {
        return Err(bad(expected));
    }
    let (n, c, h, w, channels_last) = match opts.dim_order {
        Hw => (1, 1, dims[0], dims[1], false),
        Chw => (1, dims[0], dims[1], dims[2], false),
        Hwc => (1, dims[2], dims[0], dims[1], true),
        Nhw => (dims[0], 1, dims[1], dims[2], false),
        Nchw => (dims[0], dims[1], dims[2], dims[3], false),
        Nhwc => (dims[0], dims[3], dims[1], dims[2], true),
    };
    let v = tensor
        .into_data()
        .convert::<f32>()
        .into_vec::<f32>()
        .unwrap();
    let at = |b: usize, ch: usize, y: usize, x: usize| {
        if channels_last {
            v[((b * h + y) * w + x) * c + ch]
        } else {
            v[((b * c + ch) * h + y) * w + x]
        }
    };
    let (lo, hi) = v
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    // Colours in [0, 1] (not yet clamped).
    let pixel = |b: usize, y: usize, x: usize| -> [f32; 3] {
        match opts.color_opts {
            ColorDisplayOpts::Rgb => {
                let ch = |k: usize| at(b, k.min(c - 1), y, x);
                if c >= 3 {
                    [ch(0), ch(1), ch(2)]
                } else {
                    [ch(0); 3]
                }
            }
            ColorDisplayOpts::Monochrome { min, max } => {
                let t = if hi > lo {
                    (at(b, 0, y, x) - lo) / (hi - lo)
                } else {
                    0.0
                };
                [0, 1, 2].map(|k| min[k] + t * (max[k] - min[k]))
            }
        }
    };
    let to_u8 = |rgb: [f32; 3]| rgb.map(|u| (u.clamp(0.0, 1.0) * 255.0).round() as u8);
    let (ow, oh) = (opts.width_out, opts.height_out);
    let tiled = opts.batch_opts == Some(BatchDisplayOpts::Tiled);
    let file_h = if tiled { n * oh } else { oh };
    let mut buf = vec![0u8; ow * file_h * 3];
    for oy in 0..oh {
        let sy = oy * h / oh;
        for ox in 0..ow {
            let sx = ox * w / ow;
            if tiled {
                for b in 0..n {
                    let at = ((b * oh + oy) * ow + ox) * 3;
                    buf[at..at + 3].copy_from_slice(&to_u8(pixel(b, sy, sx)));
                }
            } else {
                let mut sum = [0.0f32; 3];
                for b in 0..n {
                    let p = pixel(b, sy, sx);
                    (0..3).for_each(|k| sum[k] += p[k]);
                }
                let at = (oy * ow + ox) * 3;
                buf[at..at + 3].copy_from_slice(&to_u8(sum.map(|v| v / n as f32)));
            }
        }
    }
    let shown = path.display().to_string();
    let io_err = |source| VisionError::Io {
        op: OP,
        path: shown.clone(),
        source,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_err)?;
    }
    let file = std::fs::File::create(path).map_err(io_err)?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), ow as u32, file_h as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let png_err = |source| VisionError::Png {
        op: OP,
        path: shown.clone(),
        source,
    };
    let mut writer = encoder.write_header().map_err(png_err)?;
    writer.write_image_data(&buf).map_err(png_err)?;
    writer.finish().map_err(png_err)?;
    Ok(())
}
