//! The backend under test, chosen by the crate's features: with several on,
//! the first in `Device::default()` order (cuda, wgpu, flex), so a build
//! with more features than needed (clippy's) still tests one backend.
//!
//! Each executable builds its `device()` on [`plain_device`] and fixes its
//! precision; this file only says which hardware.

use burn::tensor::Device;

/// The device under test, without any autodiff context or settings.
pub fn plain_device() -> Device {
    #[cfg(feature = "cuda")]
    return Device::cuda(0);
    #[cfg(all(feature = "wgpu", not(feature = "cuda")))]
    return Device::wgpu(Default::default());
    // Flex: the default device, so `BURN_DEVICE` can still pick it.
    #[cfg(not(any(feature = "wgpu", feature = "cuda")))]
    Device::default()
}
