//! Quantization of float tensors: the scheme types (re-exported from
//! `burn_std::quantization`), calibration, and quantization parameters as
//! tensors.
//!
//! ```
//! # #[cfg(feature = "flex")] {
//! use burn_tensor::quantization::{
//!     Calibration, QuantScheme, QuantStore, QuantValue, ScaleDtype, compute_q_params,
//!     compute_range,
//! };
//! use burn_tensor::{Device, Tensor, Tolerance};
//!
//! let device = Device::flex();
//! let x = Tensor::<2>::from_floats([[-1.0, 0.5, 0.25, 2.0], [4.0, -3.0, 1.0, 0.0]], &device);
//! let scheme = QuantScheme::default()
//!     .with_value(QuantValue::Q8S)
//!     .with_store(QuantStore::Native)
//!     .per_block([4], ScaleDtype::F32);
//! let range = compute_range(&scheme, &x, &Calibration::MinMax);
//! let q = x.clone().quantize(&scheme, compute_q_params(&scheme, range));
//! assert!(q.dtype().is_quantized());
//! // Within half a step of each row's scale (max |x| / 127).
//! q.dequantize()
//!     .into_data()
//!     .assert_approx_eq::<f32>(&x.into_data(), Tolerance::absolute(4.0 / 127.0 / 2.0 + 1e-6));
//! # }
//! ```

pub use burn_std::quantization::*;

use burn_std::Shape;

use crate::Tensor;
use crate::bridge::BridgeTensor;
use crate::bridge::ops::{self as bridge, numeric};

/// The scales of a quantization, as tensors: one per block (or one), and
/// for a two-level scheme the per-tensor scale (shape `[1]`) they are
/// relative to.
pub type QuantizationParameters = QParams<Tensor<1>>;

/// The range of values each block (or the whole tensor) spans, one entry
/// per block in row-major order of the block grid.
#[derive(Clone, Debug)]
pub struct CalibrationRange {
    /// Smallest value of each block (for [`Calibration::AbsMean`]: minus
    /// the mean magnitude).
    pub min: Tensor<1>,
    /// Largest value of each block (for [`Calibration::AbsMean`]: the mean
    /// magnitude).
    pub max: Tensor<1>,
}

/// `t` as `[blocks, values per block]`: the block dims moved innermost.
fn by_block(t: BridgeTensor, scheme: &QuantScheme) -> BridgeTensor {
    let shape = t.shape();
    let Some(block) = scheme.block_size() else {
        return bridge::reshape(t, Shape::new([1, shape.num_elements()]));
    };
    let dims = &shape.dims;
    let extents = block.as_slice();
    let lead = dims.len() - extents.len();
    // [lead.., g1, b1, g2, b2, ..] → [lead.., g1, g2, .., b1, b2, ..]
    let mut split = dims[..lead].to_vec();
    for (d, &b) in dims[lead..].iter().zip(extents) {
        split.push(d / b as usize);
        split.push(b as usize);
    }
    let mut axes: Vec<usize> = (0..lead).collect();
    axes.extend((0..extents.len()).map(|i| lead + 2 * i));
    axes.extend((0..extents.len()).map(|i| lead + 2 * i + 1));
    let t = bridge::permute(bridge::reshape(t, Shape::from(split)), &axes);
    let per_block = block.num_elements();
    bridge::reshape(t, Shape::new([shape.num_elements() / per_block, per_block]))
}

/// The range each block of `tensor` spans under `calibration`.
///
/// # Panics
/// If the scheme's block does not tile the tensor's shape.
#[track_caller]
pub fn compute_range<const D: usize>(
    scheme: &QuantScheme,
    tensor: &Tensor<D>,
    calibration: &Calibration,
) -> CalibrationRange {
    if let Err(err) = check_scheme(scheme, &tensor.shape()) {
        panic!("compute_range: {err}");
    }
    // In f32, whatever the tensor's dtype, so the scales are those the host
    // codec computes for the same values (f16/bf16/f32 widen exactly).
    let values = bridge::cast(tensor.primitive.clone(), burn_std::DType::F32);
    let blocks = by_block(values, scheme);
    let flat = |t: BridgeTensor| {
        let n = t.shape().num_elements();
        Tensor::<1>::from_bridge(bridge::reshape(t, Shape::new([n])))
    };
    match calibration {
        Calibration::MinMax => CalibrationRange {
            min: flat(numeric::min_dim(blocks.clone(), 1)),
            max: flat(numeric::max_dim(blocks, 1)),
        },
        Calibration::AbsMean => {
            let mean = flat(numeric::mean_dim(numeric::abs(blocks), 1));
            CalibrationRange {
                min: mean.clone().neg(),
                max: mean,
            }
        }
    }
}

/// The scales that map each block's range onto the scheme's values
/// (`max(|min|, |max|) / largest value`), relative to a per-tensor scale
/// for a two-level scheme.
pub fn compute_q_params(scheme: &QuantScheme, range: CalibrationRange) -> QuantizationParameters {
    let magnitude = range.min.abs().max_pair(range.max.abs());
    let scales = magnitude.div_scalar(scheme.value.max_magnitude());
    if scheme.num_levels() == 1 {
        return QParams {
            scales,
            global: None,
        };
    }
    // As the host codec: narrow block types take the spread below their
    // largest value, wide ones below 1.
    let headroom = match scheme.scale_dtype() {
        ScaleDtype::UE4M3 | ScaleDtype::F16 => scheme.scale_dtype().max_representable(),
        ScaleDtype::F32 | ScaleDtype::BF16 | ScaleDtype::UE8M0 => 1.0,
    };
    let largest = scales.clone().max();
    // An all-zero tensor keeps a global scale of 1.
    let global = largest
        .clone()
        .div_scalar(headroom)
        .mask_fill(largest.equal_elem(0.0), 1.0);
    QParams {
        scales: scales.div(global.clone()),
        global: Some(global),
    }
}

impl<const D: usize> Tensor<D> {
    /// The tensor quantized with `scheme` and the given scales (see
    /// [`compute_q_params`]).
    ///
    /// # Panics
    /// If the scheme's block does not tile the shape, the backend cannot
    /// hold the scheme, or the scales do not match the block grid.
    #[track_caller]
    pub fn quantize(self, scheme: &QuantScheme, qparams: QuantizationParameters) -> Tensor<D> {
        Self::from_bridge(bridge::float::quantize(
            self.primitive,
            scheme,
            qparams.scales.primitive,
            qparams.global.map(|g| g.primitive),
        ))
    }

    /// The tensor quantized with `scheme`, each block's scale fitted to its
    /// largest magnitude (min-max calibration).
    ///
    /// # Panics
    /// If the scheme's block does not tile the shape or the backend cannot
    /// hold the scheme.
    #[track_caller]
    pub fn quantize_dynamic(self, scheme: &QuantScheme) -> Tensor<D> {
        Self::from_bridge(bridge::float::quantize_dynamic(self.primitive, scheme))
    }

    /// The float values of a quantized tensor (as `f32`); a float tensor
    /// is returned as it is.
    pub fn dequantize(self) -> Tensor<D> {
        Self::from_bridge(bridge::float::dequantize(self.primitive))
    }
}
