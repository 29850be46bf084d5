//! [`Quantizer`]: post-training quantization of a module's weights.

use burn_tensor::Tensor;
use burn_tensor::quantization::{
    Calibration, QuantScheme, check_scheme, compute_q_params, compute_range,
};

use super::{ModuleMapper, ModulePath, Param, ParamGroup};

/// How a module's float parameters are quantized: the calibration that
/// picks each block's scale, the scheme, and which parameters (all by
/// default).
///
/// ```
/// # #[cfg(feature = "flex")] {
/// use burn_core::module::{Module, Param, Quantizer};
/// use burn_tensor::quantization::{Calibration, QuantScheme, QuantValue, ScaleDtype};
/// use burn_tensor::{Device, Tensor};
///
/// #[derive(burn_core::module::Module, Debug, Clone)]
/// struct Dense {
///     weight: Param<Tensor<2>>,
/// }
///
/// let device = Device::flex();
/// let dense = Dense { weight: Param::from_tensor(Tensor::ones([64, 32], &device)) };
/// let scheme = QuantScheme::default()
///     .with_value(QuantValue::Q8S)
///     .per_block([32], ScaleDtype::F32);
/// let mut quantizer = Quantizer::new(Calibration::MinMax, scheme);
/// let dense = dense.quantize_weights(&mut quantizer);
/// assert!(dense.weight.val().dtype().is_quantized());
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Quantizer {
    /// How each block's scale is chosen.
    pub calibration: Calibration,
    /// The scheme the weights are quantized with.
    pub scheme: QuantScheme,
    /// The parameters quantized by [`Module::quantize_weights`](super::Module::quantize_weights).
    pub group: ParamGroup,
}

impl Quantizer {
    /// A quantizer of every float parameter.
    pub fn new(calibration: Calibration, scheme: QuantScheme) -> Self {
        Self {
            calibration,
            scheme,
            group: ParamGroup::all(),
        }
    }

    /// Restricts [`Module::quantize_weights`](super::Module::quantize_weights)
    /// to `group`.
    pub fn set_param_group(&mut self, group: ParamGroup) {
        self.group = group;
    }

    /// `tensor` quantized with the calibration and scheme.
    pub fn quantize<const D: usize>(&self, tensor: Tensor<D>) -> Tensor<D> {
        let range = compute_range(&self.scheme, &tensor, &self.calibration);
        tensor.quantize(&self.scheme, compute_q_params(&self.scheme, range))
    }
}

/// The mapper of `quantize_weights`: each selected float parameter whose
/// shape the scheme's blocks tile becomes a quantized constant (no
/// gradient: quantization is post-training). Parameters the blocks cannot
/// tile (a bias of 10 values under blocks of 32) and those already
/// quantized are left as they are.
pub(crate) struct QuantizeWeights<'a> {
    pub quantizer: &'a Quantizer,
    pub group: &'a ParamGroup,
    pub path: ModulePath,
}

impl ModuleMapper for QuantizeWeights<'_> {
    fn folds_reparameterizations(&self) -> bool {
        true
    }

    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        if !self.group.matches(&param.id, &self.path.to_string()) {
            return param;
        }
        let (id, value, _mapper) = param.consume();
        let tiles = check_scheme(&self.quantizer.scheme, &value.shape()).is_ok();
        if !tiles || value.dtype().is_quantized() {
            return Param::raw(id, value, false);
        }
        Param::raw(id, self.quantizer.quantize(value), false)
    }
}
