//! `Device`: where tensors live, chosen at run time, and its default dtypes.

use std::sync::Mutex;
use std::vec::Vec;

use burn_backend::Backend;
use burn_dispatch::{Dispatch, DispatchDevice};
use burn_std::DType;

burn_std::obfuscate! {
    /// A device of any enabled backend: `Device::flex()`, `Device::default()`, ….
    ///
    /// Cheap to clone. Its backend is hidden: code that takes a `Device`
    /// works with every backend.
    pub struct Device(DispatchDevice); size = 24, align = 8, clone
}

impl Device {
    pub(crate) fn from_dispatch(device: DispatchDevice) -> Self {
        Self::new(device)
    }

    pub(crate) fn dispatch(&self) -> &DispatchDevice {
        self.get()
    }

    /// The default device: the first enabled backend in priority order (GPUs
    /// before CPUs), unless the `BURN_DEVICE` environment variable names one
    /// (`flex`, …).
    ///
    /// # Panics
    /// If no backend feature is enabled, or `BURN_DEVICE` names a backend
    /// that is not enabled.
    pub fn default_device() -> Self {
        if let Ok(name) = std::env::var("BURN_DEVICE") {
            return Self::from_name(&name).unwrap_or_else(|| {
                panic!(
                    "BURN_DEVICE={name:?} does not name an enabled backend (enabled: {})",
                    Self::enabled_names().join(", ")
                )
            });
        }
        Self::new(DispatchDevice::default())
    }

    /// The Flex (pure-Rust CPU) device.
    #[cfg(feature = "flex")]
    pub fn flex() -> Self {
        Self::new(DispatchDevice::Flex(burn_dispatch::devices::FlexDevice))
    }

    fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            #[cfg(feature = "flex")]
            "flex" => Some(Self::flex()),
            _ => None,
        }
    }

    fn enabled_names() -> Vec<&'static str> {
        // One entry per backend feature, in `Device::default()`'s priority order.
        [("flex", cfg!(feature = "flex"))]
            .into_iter()
            .filter_map(|(name, enabled)| enabled.then_some(name))
            .collect()
    }

    /// Sets this device's default dtypes. Only before the first tensor is
    /// created on it (creation locks the defaults in).
    pub fn configure(&mut self, config: impl Into<DeviceConfig>) -> Result<(), DeviceError> {
        let config = config.into();
        let mut registry = SETTINGS.lock().unwrap_or_else(|e| e.into_inner());
        if registry.iter().any(|(d, _)| d == self.dispatch()) {
            return Err(DeviceError::AlreadyInitialized {
                device: self.to_string(),
            });
        }
        let defaults = DeviceSettings::backend_defaults(self.dispatch());
        let settings = DeviceSettings {
            float_dtype: config.float_dtype.unwrap_or(defaults.float_dtype),
            int_dtype: config.int_dtype.unwrap_or(defaults.int_dtype),
        };
        for (dtype, ok) in [
            (settings.float_dtype, settings.float_dtype.is_float()),
            (settings.int_dtype, settings.int_dtype.is_int()),
        ] {
            if !ok || !Dispatch::supports_dtype(self.dispatch(), dtype) {
                return Err(DeviceError::UnsupportedDType {
                    device: self.to_string(),
                    dtype,
                });
            }
        }
        registry.push((self.dispatch().clone(), settings));
        Ok(())
    }

    /// The device's default dtypes, locking them in if not yet configured.
    pub fn settings(&self) -> DeviceSettings {
        let mut registry = SETTINGS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, settings)) = registry.iter().find(|(d, _)| d == self.dispatch()) {
            return *settings;
        }
        let settings = DeviceSettings::backend_defaults(self.dispatch());
        registry.push((self.dispatch().clone(), settings));
        settings
    }

    /// Seeds the random generator of this device's backend.
    pub fn seed(&self, seed: u64) {
        Dispatch::seed(self.dispatch(), seed);
    }

    /// Waits for queued work on the device to finish.
    pub fn sync(&self) {
        Dispatch::sync(self.dispatch()).expect("device sync failed");
    }

    /// Whether the device's backend supports `dtype`.
    pub fn supports_dtype(&self, dtype: DType) -> bool {
        Dispatch::supports_dtype(self.dispatch(), dtype)
    }
}

impl Default for Device {
    fn default() -> Self {
        Self::default_device()
    }
}

impl PartialEq for Device {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for Device {}

impl core::hash::Hash for Device {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.get().hash(state)
    }
}

impl core::fmt::Debug for Device {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(self.get(), f)
    }
}

impl core::fmt::Display for Device {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Display::fmt(self.get(), f)
    }
}

/// Per-device defaults, settled at the first tensor creation.
static SETTINGS: Mutex<Vec<(DispatchDevice, DeviceSettings)>> = Mutex::new(Vec::new());

/// The dtypes a device gives tensors created without an explicit dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceSettings {
    /// Default float dtype.
    pub float_dtype: DType,
    /// Default int dtype.
    pub int_dtype: DType,
}

impl DeviceSettings {
    fn backend_defaults(device: &DispatchDevice) -> Self {
        Self {
            float_dtype: Dispatch::default_float_dtype(device),
            int_dtype: Dispatch::default_int_dtype(device),
        }
    }
}

/// Partial settings for [`Device::configure`]; unset fields keep the backend's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceConfig {
    /// Default float dtype.
    pub float_dtype: Option<DType>,
    /// Default int dtype.
    pub int_dtype: Option<DType>,
}

impl DeviceConfig {
    /// Sets the default float dtype.
    pub fn float_dtype(mut self, dtype: DType) -> Self {
        self.float_dtype = Some(dtype);
        self
    }

    /// Sets the default int dtype.
    pub fn int_dtype(mut self, dtype: DType) -> Self {
        self.int_dtype = Some(dtype);
        self
    }
}

impl From<DType> for DeviceConfig {
    /// A float dtype sets the float default, an int dtype the int default.
    fn from(dtype: DType) -> Self {
        if dtype.is_int() {
            Self::default().int_dtype(dtype)
        } else {
            Self::default().float_dtype(dtype)
        }
    }
}

/// Why a device could not be configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceError {
    /// Settings were already fixed by an earlier `configure` or tensor creation.
    AlreadyInitialized {
        /// The device.
        device: std::string::String,
    },
    /// The backend does not support the dtype, or it has the wrong kind.
    UnsupportedDType {
        /// The device.
        device: std::string::String,
        /// The rejected dtype.
        dtype: DType,
    },
}

impl core::fmt::Display for DeviceError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::AlreadyInitialized { device } => write!(
                f,
                "device {device} is already initialized: configure it before creating its first tensor"
            ),
            Self::UnsupportedDType { device, dtype } => {
                write!(f, "device {device} cannot use {dtype} as that default")
            }
        }
    }
}

impl std::error::Error for DeviceError {}
