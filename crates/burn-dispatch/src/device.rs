//! The device of the Dispatch backend: which backend, and which of its devices.

use burn_backend::{DeviceId, DeviceOps};

/// A device of any enabled backend.
///
/// With no backend feature enabled the enum has no variants: such a build can
/// still define models, but no tensor can be created (`Device::default()` in
/// the tensor API panics with a message saying so).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DispatchDevice {
    /// The Flex CPU backend.
    #[cfg(feature = "flex")]
    Flex(burn_flex::FlexDevice),
}

impl Default for DispatchDevice {
    /// The first enabled backend in priority order (GPUs before CPUs).
    fn default() -> Self {
        #[allow(unreachable_code)]
        {
            #[cfg(feature = "flex")]
            return Self::Flex(burn_flex::FlexDevice);
            panic!(
                "Device::default(): no backend is enabled; enable a backend feature such as `flex` or `wgpu`"
            )
        }
    }
}

impl DeviceOps for DispatchDevice {
    fn id(&self) -> DeviceId {
        route!(self, |_B, d| d.id())
    }
}

impl core::fmt::Display for DispatchDevice {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        route!(self, |_B, d| write!(f, "{}({:?})", self.backend_name(), d))
    }
}

impl DispatchDevice {
    /// The catalog name of the backend holding this device, e.g. `"Flex"`.
    pub fn backend_name(&self) -> &'static str {
        burn_backend_extension::backend_name!(self)
    }
}

pub(crate) use burn_backend_extension::route_device as route;
