//! [`Flag`]: module-owned control state, as `Param<Flag>`.

use core::fmt;

use burn_tensor::Device;

use super::{Param, ParamId, Parameter};
use crate::module::{Devices, Module, ModuleMapper, ModuleVisitor};

/// A boolean a module owns to steer its own behaviour, such as whether a
/// dropout layer drops (it does while training, not in a `valid()`
/// snapshot).
///
/// Held as `Param<Flag>` so that it has an id and a path like a tensor
/// parameter, and the module transitions reach it: `valid()` turns it off,
/// `train()` restores the configured value, `freeze()` / `unfreeze()`
/// configure it along with the gradients. It has no device and is never
/// recorded.
///
/// `param.val()` is the current value; the parameter's trainability is the
/// value it is configured to have while training.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Flag(bool);

impl Flag {
    /// A flag with the given value.
    pub const fn new(enabled: bool) -> Self {
        Self(enabled)
    }

    /// The value.
    pub const fn is_enabled(&self) -> bool {
        self.0
    }
}

impl fmt::Display for Flag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 { "enabled" } else { "disabled" })
    }
}

impl Parameter for Flag {
    fn with_trainability(self, _trainable: bool) -> Self {
        self
    }
}

impl Param<Flag> {
    /// A flag with a fresh id, currently `enabled` and configured so.
    pub fn from_bool(enabled: bool) -> Self {
        Self::raw(ParamId::new(), Flag::new(enabled), enabled)
    }

    /// The current value.
    pub fn is_enabled(&self) -> bool {
        self.val().is_enabled()
    }

    /// The value the flag is configured to have while training, which
    /// `train()` restores (the same as [`is_require_grad`](Param::is_require_grad)).
    pub fn is_configured_enabled(&self) -> bool {
        self.require_grad
    }

    /// The flag set and configured to `enabled`, keeping its id.
    pub fn with_value(self, enabled: bool) -> Self {
        Self::raw(self.id, Flag::new(enabled), enabled)
    }

    /// The flag with its current value set and its configuration kept:
    /// what `valid()` (off) and `train()` (back to the configuration) do.
    pub(crate) fn with_current(self, enabled: bool) -> Self {
        Self::raw(self.id, Flag::new(enabled), self.require_grad)
    }
}

impl Module for Param<Flag> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        visitor.visit_flag(self);
    }

    fn map<M: ModuleMapper>(self, mapper: &mut M) -> Self {
        mapper.map_flag(self)
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        devices
    }

    fn to_device(self, _device: &Device) -> Self {
        self
    }

    fn fork(self, _device: &Device) -> Self {
        self
    }
}
