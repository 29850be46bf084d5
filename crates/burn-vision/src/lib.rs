//! # burn-vision: vision operations on Burn tensors
//!
//! Image-processing ops on `burn_tensor` tensors, with the names of Burn's
//! published `burn::vision` (operation names follow OpenCV). There is no
//! backend generic: the traits are implemented on `Tensor<D, K>` itself.
//!
//! | op | input | where it runs |
//! |---|---|---|
//! | [`ConnectedComponents`] (`connected_components`, `_with_stats`), [`connected_components_batch`] | bool `[h, w]` / `[b, h, w]` | host: SAUF two-pass union-find |
//! | [`Morphology`] (`erode`, `dilate`, `morph` with [`MorphOp`]: open, close, gradient, top-hat, black-hat), [`create_structuring_element`] | float, int or bool `[h, w, c]` | host: van Herk/Gil-Werman runs |
//! | [`nms`] / [`Nms`] | boxes `[n, 4]`, scores `[n]` | host: sorted SoA, vectorised suppression |
//! | [`filter2d`] ([`PadMode`] border), [`filter2d_with`] (anchor, [`BorderType`]), [`box_blur`] | float `[b, c, h, w]` | tensor ops (`select` padding + depthwise `conv2d`) |
//! | [`median`] | float or int `[b, c, h, w]` | host |
//! | augmentations [`BoxBlur`], [`MedianBlur`] (from [`BoxBlurConfig`], [`MedianBlurConfig`]) | `[b, c, h, w]` | the two above, applied with a probability |
//! | [`ColorConversion`] (`rgb2gray`, `gray2rgb`, `rgb2hsv`, `hsv2rgb`) | float `[b, 3 or 1, h, w]` | tensor ops |
//! | [`Transform2D`] (rotation, scale, shear, translation, composition) | float `[b, c, h, w]` | host grid, tensor-op bilinear sampling |
//! | [`utils::save_tensor_as_image`] | float, several layouts | host, PNG via `png` |
//!
//! Conventions, each checked against a reference in the tests:
//!
//! - **Labels** are numbered 1..n by the raster position of each
//!   component's first pixel, background 0: exactly `scipy.ndimage.label`'s
//!   and `skimage.measure.label`'s numbering. Stats are indexed by label
//!   (row 0, the background, is zeros); `centroid` is an addition.
//! - **Morphology** is OpenCV's: the kernel is not reflected for dilation,
//!   the anchor defaults to the centre, a constant border without a value
//!   never wins. [`BorderType::Wrap`] is supported too.
//! - **Filters**: [`filter2d`] is `scipy.ndimage.correlate` (kernel centre
//!   `(kh / 2, kw / 2)`, not flipped); [`PadMode::Reflect`] is SciPy's
//!   `mirror`, [`PadMode::Edge`] its `nearest`. [`median`] repeats the edge
//!   (`median_filter(mode="nearest")`).
//! - **NMS** is torchvision's: stable descending score order, a box is
//!   suppressed when IoU `>` the threshold (equal is kept), and the kept
//!   indices are torchvision's exactly (same IoU arithmetic). Scores
//!   `<= score_threshold` are dropped first.
//!
//! ## What it must not depend on
//!
//! No backend crate and no image-codec stack beyond `png`. Host algorithms
//! read the tensor back, compute there and build the result on the same
//! device; they are not recorded by autodiff. The tensor-op compositions run
//! on any device and are differentiable.
//!
//! ## Errors
//!
//! Bad input is a programmer error and panics with a message naming the op
//! and the shape (wrong channel count, empty kernel, anchor outside the
//! kernel, even median window). [`try_morph`], [`try_filter2d`] and
//! [`try_filter2d_with`] return
//! the same cases as a [`VisionError`]; [`utils::save_tensor_as_image`]
//! returns a `Result` for bad layouts and I/O. Nothing is printed.
//!
//! ## Example
//!
//! ```
//! use burn_tensor::{Bool, Device, Tensor};
//! use burn_vision::{ConnectedComponents, ConnectedStatsOptions, Connectivity};
//!
//! let device = Device::flex();
//! let img = Tensor::<2, Bool>::from_data(
//!     [[true, false, true], [true, false, false], [false, false, true]],
//!     &device,
//! );
//! let (labels, stats) =
//!     img.connected_components_with_stats(Connectivity::Four, ConnectedStatsOptions::all());
//! let labels = labels.into_data().convert::<i64>().into_vec::<i64>().unwrap();
//! assert_eq!(labels, [1, 0, 2, 1, 0, 0, 0, 0, 3]);
//! let area = stats.area.into_data().convert::<i64>().into_vec::<i64>().unwrap();
//! assert_eq!(area, [0, 2, 1, 1]);
//! ```
//!
//! ## Relation to Burn's published `burn-vision`
//!
//! Every item of `burn-vision 0.23.0-pre.1`'s tensor-level API is here under
//! its published name and signature, over `Tensor<D, K>` instead of
//! `Tensor<B, D, K>`. Not built: the backend extension traits
//! (`VisionBackend`, `BoolVisionOps`, `IntVisionOps`, `FloatVisionOps`,
//! `QVisionOps`), as there is no backend generic to extend, and
//! `loss::GramMatrixLoss` with its `Vgg19`, which needs pretrained weights.
//! Additions: [`MorphOp`] / [`try_morph`] (open, close, gradient, top-hat,
//! black-hat), [`nms`] as a function, [`connected_components_batch`], the
//! `centroid` stat, [`filter2d_with`], [`box_blur`],
//! [`Transform2D::from_matrix`] / [`Transform2D::matrix`], the `try_` forms.
//! [`PadMode`] and [`GridSamplePaddingMode`] are `burn_tensor::ops`'s,
//! re-exported here.
//!
//! ## Modules
//!
//! - `connected_components`: the labeller and its stats.
//! - `morphology`: structuring elements, erosion/dilation and composites.
//! - `nms`: non-maximum suppression.
//! - `filter`: `filter2d`, box and median blur and their augmentations;
//!   `color`: colour spaces;
//!   `transform`: `Transform2D`; [`utils`]: PNG output.
//! - `base`: [`Point`], [`Size`], [`BorderType`]; `error`: [`VisionError`].
#![warn(missing_docs)]

mod base;
mod color;
mod connected_components;
mod error;
mod filter;
mod host;
mod morphology;
mod nms;
mod transform;

pub mod utils;

pub use base::{BorderType, Point, Size};
pub use color::ColorConversion;
pub use connected_components::{
    ConnectedComponents, ConnectedStats, ConnectedStatsOptions, Connectivity,
    connected_components_batch,
};
pub use error::VisionError;
pub use filter::{
    BoxBlur, BoxBlurConfig, MedianBlur, MedianBlurConfig, box_blur, filter2d, filter2d_with,
    median, try_filter2d, try_filter2d_with,
};
pub use morphology::{
    KernelShape, MorphOp, MorphOptions, MorphOptionsBuilder, MorphOptionsBuilderError, Morphology,
    create_structuring_element, try_morph,
};
pub use nms::{Nms, NmsOptions, nms};
pub use transform::Transform2D;

pub use burn_tensor::ops::{GridSamplePaddingMode, PadMode};
