//! The mappers behind the training transitions of [`Module`](super::Module):
//! `valid`, `train`, `no_grad`, `freeze` / `unfreeze` and their group variants.
//!
//! Trainability lives on each parameter (`Param::is_require_grad`), not on
//! the module, so the transitions compose: `valid()` changes what tensors
//! carry and leaves the setting alone, and `train()` re-applies the setting,
//! which is why a frozen parameter stays frozen across the round trip.

use burn_tensor::Tensor;

use super::{Flag, ModuleMapper, ModulePath, Param, ParamGroup};

/// `valid()`: float values lose their autodiff context (and with it any
/// checkpointing strategy); flags are turned off. Trainability settings
/// are kept for `train()`.
pub(crate) struct Validation;

impl ModuleMapper for Validation {
    fn folds_reparameterizations(&self) -> bool {
        true
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param.map_raw(|tensor| tensor.without_autodiff())
    }

    fn map_flag(&mut self, param: Param<Flag>) -> Param<Flag> {
        param.with_current(false)
    }
}

/// `train()`: float values get an autodiff context (kept if they have one)
/// and their trainability re-applied; flags return to their configuration.
pub(crate) struct Training;

impl ModuleMapper for Training {
    #[cfg(feature = "autodiff")]
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        // A pending initializer runs later on the autodiff form of its device.
        let device = param.device().autodiff();
        match param.try_move_pending(&device) {
            Ok(moved) => moved,
            Err(param) => param.map(|tensor| tensor.autodiff()),
        }
    }

    fn map_flag(&mut self, param: Param<Flag>) -> Param<Flag> {
        let configured = param.is_require_grad();
        param.with_current(configured)
    }
}

/// `no_grad`, `freeze`, `unfreeze` and the group variants: set the
/// trainability of the selected float parameters and, unless `no_grad`,
/// the value and configuration of the selected flags.
pub(crate) struct Trainability<'a> {
    trainable: bool,
    flags: bool,
    group: Option<&'a ParamGroup>,
    path: ModulePath,
}

impl<'a> Trainability<'a> {
    /// Gradients only (`no_grad`).
    pub(crate) fn gradients(trainable: bool) -> Self {
        Self {
            trainable,
            flags: false,
            group: None,
            path: ModulePath::default(),
        }
    }

    /// Gradients and flags (`freeze` / `unfreeze`), of `group` if given.
    pub(crate) fn all(trainable: bool, group: Option<&'a ParamGroup>) -> Self {
        Self {
            trainable,
            flags: true,
            group,
            path: ModulePath::default(),
        }
    }

    fn selects(&self, id: &super::ParamId) -> bool {
        self.group
            .is_none_or(|group| group.matches(id, &self.path.to_string()))
    }
}

impl ModuleMapper for Trainability<'_> {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        if self.selects(&param.id) {
            param.set_require_grad(self.trainable)
        } else {
            param
        }
    }

    fn map_flag(&mut self, param: Param<Flag>) -> Param<Flag> {
        if self.flags && self.selects(&param.id) {
            param.with_value(self.trainable)
        } else {
            param
        }
    }
}
