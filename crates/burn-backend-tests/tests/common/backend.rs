//! The backend under test, chosen by the crate's features: `router` (Flex
//! through the operation IR) when on, else the first in `Device::default()`
//! order (cuda, wgpu, flex), so a build
//! with more features than needed (clippy's) still tests one backend.
//!
//! Each executable builds its `device()` on [`plain_device`] and fixes its
//! precision; this file only says which hardware.

use burn::tensor::Device;

/// The device under test, without any autodiff context or settings.
pub fn plain_device() -> Device {
    // The router over Flex: the suites check the IR round trip.
    #[cfg(feature = "router")]
    return Device::router(&Device::flex());
    #[cfg(all(feature = "cuda", not(feature = "router")))]
    return Device::cuda(0);
    #[cfg(all(feature = "wgpu", not(any(feature = "cuda", feature = "router"))))]
    return Device::wgpu(Default::default());
    // Flex: the default device, so `BURN_DEVICE` can still pick it.
    #[cfg(not(any(feature = "wgpu", feature = "cuda", feature = "router")))]
    Device::default()
}
