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
    /// before CPUs: CUDA, ROCm, WGPU, then Flex, then CubeCL's CPU runtime),
    /// unless the `BURN_DEVICE` environment variable names one.
    ///
    /// `BURN_DEVICE` accepts, case-insensitively, for the enabled features:
    /// `flex`; `cuda` or `cuda:N`; `rocm` or `rocm:N`; `cpu` (CubeCL's CPU
    /// runtime); `wgpu` (the default adapter), `wgpu:cpu`, `wgpu:discrete:N`,
    /// `wgpu:integrated:N`, `wgpu:virtual:N` (`:N` optional, 0 when left
    /// out), and the same forms with `vulkan`, `webgpu` or `metal` in place of
    /// `wgpu`.
    ///
    /// # Panics
    /// If no backend feature is enabled, or `BURN_DEVICE` is malformed or
    /// names a backend that is not enabled.
    pub fn default_device() -> Self {
        if let Ok(name) = std::env::var("BURN_DEVICE") {
            return Self::from_name(&name).unwrap_or_else(|reason| {
                panic!(
                    "BURN_DEVICE={name:?}: {reason} (enabled backends: {})",
                    Self::enabled_names().join(", ")
                )
            });
        }
        Self::new(DispatchDevice::default())
    }

    /// `device` reached through the operation IR: every operation on tensors
    /// created here is recorded as IR by the router and executed from that
    /// IR on `device`, in this process. The values are `device`'s; the
    /// round trip is what it adds, which makes it the test bench of the IR
    /// (the shared suites run on it with `cargo test-router`).
    #[cfg(feature = "router")]
    pub fn router(device: &Device) -> Self {
        Self::new(DispatchDevice::Router(
            burn_dispatch::devices::RouterDevice::new(device.dispatch().clone()),
        ))
    }

    /// A new graph-capture device: operations on tensors moved or created
    /// here are recorded, not executed, inside [`Device::capture_scope`].
    #[cfg(feature = "capture")]
    pub fn capture() -> Self {
        Self::new(DispatchDevice::Capture(burn_capture::CaptureDevice::new()))
    }

    /// Records the tensor code of `capture` on this capture device as a
    /// graph: the closure receives the [`CaptureScope`](burn_capture::CaptureScope)
    /// and returns what its `complete` gives, naming the graph's runtime
    /// inputs (tensors that entered with data) and outputs by
    /// [`Tensor::capture_id`](crate::Tensor::capture_id).
    ///
    /// Errors with [`CaptureError::InvalidDevice`](burn_capture::CaptureError)
    /// on a device that is not a capture device, `AlreadyActive` while
    /// another scope records on it, and the boundary errors of
    /// [`CaptureError`](burn_capture::CaptureError).
    #[cfg(feature = "capture")]
    pub fn capture_scope(
        &self,
        capture: impl FnOnce(burn_capture::CaptureScope) -> burn_capture::CompletedCaptureScope,
    ) -> Result<burn_capture::CapturedGraph, burn_capture::CaptureError> {
        match self.dispatch().plain() {
            DispatchDevice::Capture(device) => device.capture_scope(capture),
            #[allow(unreachable_patterns)]
            _ => Err(burn_capture::CaptureError::InvalidDevice),
        }
    }

    /// The Flex (pure-Rust CPU) device.
    #[cfg(feature = "flex")]
    pub fn flex() -> Self {
        Self::new(DispatchDevice::Flex(burn_dispatch::devices::FlexDevice))
    }

    /// The CUDA GPU of ordinal `index` (CubeCL backend, `cuda` feature):
    /// `Device::cuda(0)`, or [`DeviceIndex::Default`] for the first.
    ///
    /// Creating it does not touch the GPU; the CUDA driver and NVRTC are
    /// loaded when the first tensor is created there.
    #[cfg(feature = "cuda")]
    pub fn cuda(index: impl Into<DeviceIndex>) -> Self {
        Self::cube(burn_dispatch::devices::CubeDevice::Cuda(
            index.into().resolve(),
        ))
    }

    /// The ROCm (AMD) GPU of ordinal `index` (CubeCL backend, `rocm`
    /// feature), as [`Device::cuda`].
    #[cfg(feature = "rocm")]
    pub fn rocm(index: impl Into<DeviceIndex>) -> Self {
        Self::cube(burn_dispatch::devices::CubeDevice::Rocm(
            index.into().resolve(),
        ))
    }

    /// An adapter of the WGPU runtime (CubeCL backend, `wgpu` feature), on
    /// whichever graphics API the build selected: Vulkan, Metal, DirectX or
    /// WebGPU.
    ///
    /// `Device::wgpu(Default::default())` is the default adapter
    /// ([`DeviceKind::DefaultDevice`]: the most capable GPU, overridable
    /// with `CUBECL_WGPU_DEFAULT_DEVICE`); [`DeviceKind`] also names a
    /// discrete, integrated or virtual GPU by index, a CPU adapter, or an
    /// existing wgpu setup registered with CubeCL.
    #[cfg(feature = "wgpu")]
    pub fn wgpu(device_kind: DeviceKind) -> Self {
        Self::cube(burn_dispatch::devices::CubeDevice::Wgpu(
            device_kind.into_wgpu(),
        ))
    }

    /// A WGPU adapter, for code that wants Vulkan (`vulkan` feature).
    ///
    /// With CubeCL 0.10 the graphics API is chosen when building, not per
    /// device: the `vulkan` feature compiles the WGPU runtime's SPIR-V
    /// compiler and Vulkan backend, and this builds the same device as
    /// [`Device::wgpu`] (equal to it).
    #[cfg(feature = "vulkan")]
    pub fn vulkan(device_kind: DeviceKind) -> Self {
        Self::wgpu(device_kind)
    }

    /// A WGPU adapter, for code that wants WebGPU (`webgpu` feature).
    ///
    /// With CubeCL 0.10 the graphics API is chosen when building, not per
    /// device: this builds the same device as [`Device::wgpu`] (equal to it).
    #[cfg(feature = "webgpu")]
    pub fn webgpu(device_kind: DeviceKind) -> Self {
        Self::wgpu(device_kind)
    }

    /// A WGPU adapter, for code that wants Metal (`metal` feature).
    ///
    /// With CubeCL 0.10 the graphics API is chosen when building, not per
    /// device: the `metal` feature compiles the WGPU runtime's native MSL
    /// path, and this builds the same device as [`Device::wgpu`] (equal to it).
    #[cfg(feature = "metal")]
    pub fn metal(device_kind: DeviceKind) -> Self {
        Self::wgpu(device_kind)
    }

    /// The host CPU through CubeCL's MLIR/LLVM CPU runtime (`cpu` feature;
    /// its build downloads an LLVM bundle, so it needs a network while
    /// building). For a pure-Rust CPU backend, see `Device::flex()`.
    #[cfg(feature = "cpu")]
    pub fn cpu() -> Self {
        Self::cube(burn_dispatch::devices::CubeDevice::Cpu)
    }

    #[cfg(any(feature = "cuda", feature = "rocm", feature = "wgpu", feature = "cpu"))]
    fn cube(device: burn_dispatch::devices::CubeDevice) -> Self {
        Self::new(DispatchDevice::Cube(device))
    }

    /// Parses a `BURN_DEVICE` value (see [`Device::default_device`]).
    fn from_name(name: &str) -> Result<Self, std::string::String> {
        let lower = name.trim().to_ascii_lowercase();
        let mut parts = lower.split(':');
        let backend = parts.next().unwrap_or_default();
        let rest: Vec<&str> = parts.collect();
        let not_enabled = || format!("`{backend}` is not an enabled backend");
        match backend {
            "flex" => {
                no_argument(backend, &rest)?;
                #[cfg(feature = "flex")]
                return Ok(Self::flex());
                #[allow(unreachable_code)]
                Err(not_enabled())
            }
            "cuda" => {
                let index = ordinal(backend, &rest)?;
                #[cfg(feature = "cuda")]
                return Ok(Self::cuda(index));
                #[allow(unreachable_code)]
                {
                    let _ = index;
                    Err(not_enabled())
                }
            }
            "rocm" => {
                let index = ordinal(backend, &rest)?;
                #[cfg(feature = "rocm")]
                return Ok(Self::rocm(index));
                #[allow(unreachable_code)]
                {
                    let _ = index;
                    Err(not_enabled())
                }
            }
            "cpu" => {
                no_argument(backend, &rest)?;
                #[cfg(feature = "cpu")]
                return Ok(Self::cpu());
                #[allow(unreachable_code)]
                Err(not_enabled())
            }
            "wgpu" | "vulkan" | "webgpu" | "metal" => {
                let enabled = match backend {
                    "wgpu" => cfg!(feature = "wgpu"),
                    "vulkan" => cfg!(feature = "vulkan"),
                    "webgpu" => cfg!(feature = "webgpu"),
                    _ => cfg!(feature = "metal"),
                };
                let adapter = wgpu_adapter(backend, &rest)?;
                if !enabled {
                    return Err(not_enabled());
                }
                #[cfg(feature = "wgpu")]
                return Ok(Self::wgpu(adapter.into_kind()));
                #[allow(unreachable_code)]
                {
                    let _ = adapter;
                    Err(not_enabled())
                }
            }
            "router" => {
                if rest.is_empty() {
                    return Err("`router` needs the device it routes to, e.g. `router:flex`".into());
                }
                #[cfg(feature = "router")]
                return Self::from_name(&rest.join(":")).map(|inner| Self::router(&inner));
                #[allow(unreachable_code)]
                Err(not_enabled())
            }
            _ => Err(format!("unknown backend `{backend}`")),
        }
    }

    fn enabled_names() -> Vec<&'static str> {
        // One entry per backend feature, in `Device::default()`'s priority order.
        [
            ("cuda", cfg!(feature = "cuda")),
            ("rocm", cfg!(feature = "rocm")),
            ("wgpu", cfg!(feature = "wgpu")),
            ("vulkan", cfg!(feature = "vulkan")),
            ("webgpu", cfg!(feature = "webgpu")),
            ("metal", cfg!(feature = "metal")),
            ("flex", cfg!(feature = "flex")),
            ("cpu", cfg!(feature = "cpu")),
        ]
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

    /// Seeds the random generator of this device's backend, so that the
    /// random tensors created after it (`Tensor::random`, initializers)
    /// are the same on every run.
    ///
    /// The generator belongs to the backend, not to this one device: on
    /// Flex, seeding one device seeds every Flex device (there is one).
    pub fn seed(&self, seed: u64) {
        Dispatch::seed(self.dispatch(), seed);
    }

    /// Waits for queued work on the device to finish.
    pub fn sync(&self) {
        Dispatch::sync(self.dispatch()).expect("device sync failed");
    }

    /// Whether tensors here are buffers of this process's memory that
    /// [`Tensor::into_data`](crate::Tensor::into_data) hands over without a
    /// copy when nothing else shares them, and that
    /// [`Tensor::from_data`](crate::Tensor::from_data) takes as they are
    /// (Flex): data can then round-trip through a tensor for free. False on
    /// GPUs (a read is a transfer) and on router, remote and capture
    /// devices.
    pub fn hands_over_buffers(&self) -> bool {
        self.dispatch().hands_over_buffers()
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

/// `BURN_DEVICE` parsing: a backend that takes no argument.
fn no_argument(backend: &str, rest: &[&str]) -> Result<(), std::string::String> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(format!("`{backend}` takes no `:` argument"))
    }
}

/// `BURN_DEVICE` parsing: the optional `:N` ordinal of a GPU (0 by default).
fn ordinal(backend: &str, rest: &[&str]) -> Result<usize, std::string::String> {
    match rest {
        [] => Ok(0),
        [index] => index
            .parse()
            .map_err(|_| format!("`{index}` is not a device index (expected `{backend}:N`)")),
        _ => Err(format!("expected `{backend}` or `{backend}:N`")),
    }
}

/// A WGPU adapter named in `BURN_DEVICE`, parsed whether or not the `wgpu`
/// feature is on (so a malformed value is reported as such).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WgpuAdapter {
    Default,
    Cpu,
    Discrete(usize),
    Integrated(usize),
    Virtual(usize),
}

impl WgpuAdapter {
    #[cfg(feature = "wgpu")]
    fn into_kind(self) -> DeviceKind {
        match self {
            Self::Default => DeviceKind::DefaultDevice,
            Self::Cpu => DeviceKind::Cpu,
            Self::Discrete(index) => DeviceKind::DiscreteGpu(index),
            Self::Integrated(index) => DeviceKind::IntegratedGpu(index),
            Self::Virtual(index) => DeviceKind::VirtualGpu(index),
        }
    }
}

/// `BURN_DEVICE` parsing: `wgpu`, `wgpu:default`, `wgpu:cpu`,
/// `wgpu:discrete[:N]`, `wgpu:integrated[:N]`, `wgpu:virtual[:N]`.
fn wgpu_adapter(backend: &str, rest: &[&str]) -> Result<WgpuAdapter, std::string::String> {
    let usage = || {
        format!(
            "expected `{backend}`, `{backend}:default`, `{backend}:cpu`, `{backend}:discrete:N`, \
             `{backend}:integrated:N` or `{backend}:virtual:N`"
        )
    };
    let Some((kind, tail)) = rest.split_first() else {
        return Ok(WgpuAdapter::Default);
    };
    let index = || -> Result<usize, std::string::String> {
        match tail {
            [] => Ok(0),
            [index] => index
                .parse()
                .map_err(|_| format!("`{index}` is not a device index; {}", usage())),
            _ => Err(usage()),
        }
    };
    match *kind {
        "default" if tail.is_empty() => Ok(WgpuAdapter::Default),
        "cpu" if tail.is_empty() => Ok(WgpuAdapter::Cpu),
        "discrete" => Ok(WgpuAdapter::Discrete(index()?)),
        "integrated" => Ok(WgpuAdapter::Integrated(index()?)),
        "virtual" => Ok(WgpuAdapter::Virtual(index()?)),
        _ => Err(usage()),
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

/// Which device of a backend whose devices are numbered (CUDA, ROCm):
/// `Device::cuda(1)` takes any integer, or `DeviceIndex::Default` for the
/// backend's first device.
#[derive(Clone, Copy, Debug, Default, Hash, PartialEq, Eq)]
pub enum DeviceIndex {
    /// The device of this ordinal.
    Specified(usize),
    /// The backend's default device (ordinal 0).
    #[default]
    Default,
}

impl DeviceIndex {
    /// [`DeviceIndex::Specified`] from any unsigned index.
    pub fn new(index: impl Into<usize>) -> Self {
        Self::Specified(index.into())
    }

    /// The ordinal: `Default` is 0.
    pub fn resolve(self) -> usize {
        match self {
            Self::Specified(index) => index,
            Self::Default => 0,
        }
    }
}

impl From<usize> for DeviceIndex {
    fn from(index: usize) -> Self {
        Self::Specified(index)
    }
}

impl From<u32> for DeviceIndex {
    fn from(index: u32) -> Self {
        Self::Specified(index as usize)
    }
}

impl From<u64> for DeviceIndex {
    fn from(index: u64) -> Self {
        Self::Specified(
            usize::try_from(index).expect("DeviceIndex: the index does not fit a usize"),
        )
    }
}

impl From<i32> for DeviceIndex {
    /// # Panics
    /// If `index` is negative.
    fn from(index: i32) -> Self {
        Self::from(i64::from(index))
    }
}

impl From<i64> for DeviceIndex {
    /// # Panics
    /// If `index` is negative.
    fn from(index: i64) -> Self {
        let index = usize::try_from(index)
            .unwrap_or_else(|_| panic!("DeviceIndex: a device index is not negative, got {index}"));
        Self::Specified(index)
    }
}

/// Which adapter of a graphics API (`Device::wgpu`, `Device::vulkan`,
/// `Device::metal`, `Device::webgpu`). Named in the framework's own terms,
/// so the caller needs no CubeCL type; it maps one to one onto CubeCL's
/// WGPU device.
#[derive(Clone, Debug, Default, Hash, PartialEq, Eq)]
pub enum DeviceKind {
    /// The discrete GPU of this index, among the discrete GPUs found.
    DiscreteGpu(usize),
    /// The integrated GPU of this index, among the integrated GPUs found.
    IntegratedGpu(usize),
    /// The virtual GPU of this index, among the virtual GPUs found.
    VirtualGpu(usize),
    /// A CPU adapter (a software rasterizer such as lavapipe).
    Cpu,
    /// The most capable adapter of the graphics API, unless the
    /// `CUBECL_WGPU_DEFAULT_DEVICE` environment variable names another
    /// (spelled as a variant: `IntegratedGpu(1)`, `Cpu`).
    #[default]
    DefaultDevice,
    /// A wgpu setup of the application's (egui, bevy) already registered
    /// with CubeCL under this id.
    Existing(u32),
}

impl DeviceKind {
    #[cfg(feature = "wgpu")]
    fn into_wgpu(self) -> crate::WgpuDevice {
        use crate::WgpuDevice;
        match self {
            Self::DiscreteGpu(index) => WgpuDevice::DiscreteGpu(index),
            Self::IntegratedGpu(index) => WgpuDevice::IntegratedGpu(index),
            Self::VirtualGpu(index) => WgpuDevice::VirtualGpu(index),
            Self::Cpu => WgpuDevice::Cpu,
            Self::DefaultDevice => WgpuDevice::DefaultDevice,
            Self::Existing(id) => WgpuDevice::Existing(id),
        }
    }
}

/// A kind of device to list with [`Device::enumerate`]: one variant per
/// enabled backend (each exists with its feature). Variants combine with
/// `|` into a [`DeviceFilter`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceType {
    /// The CubeCL CPU runtime (`cpu` feature).
    #[cfg(feature = "cpu")]
    Cpu,
    /// Every CUDA GPU (`cuda` feature).
    #[cfg(feature = "cuda")]
    Cuda,
    /// Every ROCm GPU (`rocm` feature).
    #[cfg(feature = "rocm")]
    Rocm,
    /// Every adapter of the WGPU runtime (`wgpu` feature).
    #[cfg(feature = "wgpu")]
    Wgpu,
    /// The WGPU adapters, for code that asks for Metal (`metal` feature;
    /// with CubeCL 0.10 the graphics API is fixed when building, so this
    /// lists what [`DeviceType::Wgpu`] lists).
    #[cfg(feature = "metal")]
    Metal,
    /// As [`DeviceType::Metal`], for Vulkan (`vulkan` feature).
    #[cfg(feature = "vulkan")]
    Vulkan,
    /// As [`DeviceType::Metal`], for WebGPU (`webgpu` feature).
    #[cfg(feature = "webgpu")]
    WebGpu,
    /// The Flex CPU backend: one device (`flex` feature).
    #[cfg(feature = "flex")]
    Flex,
}

/// A set of [`DeviceType`]s for [`Device::enumerate`]: one type, a `Vec`,
/// or types joined with `|` (`DeviceType::Cuda | DeviceType::Flex`).
#[derive(Clone, Debug, Default)]
pub struct DeviceFilter(Vec<DeviceType>);

impl DeviceFilter {
    /// An empty filter (lists nothing).
    pub fn new() -> Self {
        Self::default()
    }

    /// The filter with `device_type` added.
    pub fn with(mut self, device_type: DeviceType) -> Self {
        self.0.push(device_type);
        self
    }
}

impl From<DeviceType> for DeviceFilter {
    fn from(device_type: DeviceType) -> Self {
        Self(vec![device_type])
    }
}

impl From<Vec<DeviceType>> for DeviceFilter {
    fn from(device_types: Vec<DeviceType>) -> Self {
        Self(device_types)
    }
}

impl IntoIterator for DeviceFilter {
    type Item = DeviceType;
    type IntoIter = std::vec::IntoIter<DeviceType>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl core::ops::BitOr for DeviceType {
    type Output = DeviceFilter;

    fn bitor(self, other: Self) -> DeviceFilter {
        DeviceFilter(vec![self, other])
    }
}

impl core::ops::BitOr<DeviceType> for DeviceFilter {
    type Output = DeviceFilter;

    fn bitor(self, other: DeviceType) -> DeviceFilter {
        self.with(other)
    }
}

/// The devices [`Device::enumerate`] found; dereferences to `[Device]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Devices(Vec<Device>);

impl Devices {
    /// Every device with autodiff enabled.
    #[cfg(feature = "autodiff")]
    #[must_use]
    pub fn autodiff(self) -> Self {
        self.0.into_iter().map(Device::autodiff).collect()
    }

    /// Every device without autodiff.
    #[cfg(feature = "autodiff")]
    #[must_use]
    pub fn without_autodiff(self) -> Self {
        self.0.into_iter().map(Device::without_autodiff).collect()
    }

    /// [`Device::configure`] on every device, stopping at the first error
    /// (the devices before it keep their settings).
    pub fn configure(&mut self, config: impl Into<DeviceConfig>) -> Result<(), DeviceError> {
        let config = config.into();
        self.0
            .iter_mut()
            .try_for_each(|device| device.configure(config))
    }

    /// The devices as a `Vec`.
    pub fn into_vec(self) -> Vec<Device> {
        self.0
    }
}

impl FromIterator<Device> for Devices {
    fn from_iter<T: IntoIterator<Item = Device>>(devices: T) -> Self {
        Self(devices.into_iter().collect())
    }
}

impl IntoIterator for Devices {
    type Item = Device;
    type IntoIter = std::vec::IntoIter<Device>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl core::ops::Deref for Devices {
    type Target = [Device];

    fn deref(&self) -> &[Device] {
        &self.0
    }
}

impl Device {
    /// Every device of the types in `filter` that this machine has, in the
    /// filter's order: `Device::enumerate(DeviceType::Flex)`,
    /// `Device::enumerate(DeviceType::Cuda | DeviceType::Flex)`.
    ///
    /// Flex lists its one device. The CubeCL runtimes list what CubeCL
    /// finds, which starts the runtime's first device; a runtime whose
    /// driver cannot be loaded lists nothing.
    pub fn enumerate(filter: impl Into<DeviceFilter>) -> Devices {
        #[allow(unused_mut)]
        let mut devices = Vec::new();
        #[allow(unreachable_code, unused_variables, clippy::never_loop)]
        for device_type in filter.into() {
            match device_type {
                #[cfg(feature = "flex")]
                DeviceType::Flex => devices.push(Self::flex()),
                #[cfg(feature = "cuda")]
                DeviceType::Cuda => devices.extend(Self::enumerate_cube(Self::cuda(0))),
                #[cfg(feature = "rocm")]
                DeviceType::Rocm => devices.extend(Self::enumerate_cube(Self::rocm(0))),
                #[cfg(feature = "wgpu")]
                DeviceType::Wgpu => {
                    devices.extend(Self::enumerate_cube(Self::wgpu(DeviceKind::DefaultDevice)))
                }
                #[cfg(feature = "metal")]
                DeviceType::Metal => {
                    devices.extend(Self::enumerate_cube(Self::wgpu(DeviceKind::DefaultDevice)))
                }
                #[cfg(feature = "vulkan")]
                DeviceType::Vulkan => {
                    devices.extend(Self::enumerate_cube(Self::wgpu(DeviceKind::DefaultDevice)))
                }
                #[cfg(feature = "webgpu")]
                DeviceType::WebGpu => {
                    devices.extend(Self::enumerate_cube(Self::wgpu(DeviceKind::DefaultDevice)))
                }
                #[cfg(feature = "cpu")]
                DeviceType::Cpu => devices.push(Self::cpu()),
            }
        }
        Devices(devices)
    }

    #[cfg(any(feature = "cuda", feature = "rocm", feature = "wgpu"))]
    fn enumerate_cube(probe: Self) -> Vec<Self> {
        let DispatchDevice::Cube(probe) = probe.dispatch() else {
            unreachable!("the probe is a CubeCL device")
        };
        burn_dispatch::devices::CubeDevice::enumerate(probe)
            .into_iter()
            .map(Self::cube)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wgpu_adapters_parse() {
        let parse = |rest: &[&str]| wgpu_adapter("wgpu", rest);
        assert_eq!(parse(&[]), Ok(WgpuAdapter::Default));
        assert_eq!(parse(&["default"]), Ok(WgpuAdapter::Default));
        assert_eq!(parse(&["cpu"]), Ok(WgpuAdapter::Cpu));
        assert_eq!(parse(&["discrete"]), Ok(WgpuAdapter::Discrete(0)));
        assert_eq!(parse(&["discrete", "2"]), Ok(WgpuAdapter::Discrete(2)));
        assert_eq!(parse(&["integrated", "1"]), Ok(WgpuAdapter::Integrated(1)));
        assert_eq!(parse(&["virtual", "3"]), Ok(WgpuAdapter::Virtual(3)));
        for bad in [
            &["gpu"][..],
            &["cpu", "1"],
            &["discrete", "x"],
            &["discrete", "1", "2"],
        ] {
            let err = parse(bad).unwrap_err();
            assert!(err.contains("wgpu:discrete:N"), "{bad:?}: {err}");
        }
    }

    #[test]
    fn ordinals_parse() {
        assert_eq!(ordinal("cuda", &[]), Ok(0));
        assert_eq!(ordinal("cuda", &["3"]), Ok(3));
        let err = ordinal("cuda", &["-1"]).unwrap_err();
        assert!(err.contains("`-1` is not a device index"), "{err}");
        assert!(ordinal("cuda", &["1", "2"]).is_err());
    }

    #[test]
    fn burn_device_names() {
        let err = |name: &str| Device::from_name(name).map(|_| ()).unwrap_err();
        assert!(err("tpu").contains("unknown backend `tpu`"));
        assert!(err("cuda:x").contains("`x` is not a device index"));
        assert!(err("flex:0").contains("takes no `:` argument"));
        assert!(err("wgpu:gpu").contains("expected `wgpu`"));
        #[cfg(feature = "flex")]
        assert_eq!(Device::from_name(" FLEX ").unwrap(), Device::flex());
        #[cfg(not(feature = "flex"))]
        assert!(err("flex").contains("not an enabled backend"));
        #[cfg(feature = "wgpu")]
        {
            let wgpu = |name: &str| Device::from_name(name).unwrap();
            assert_eq!(wgpu("wgpu"), Device::wgpu(Default::default()));
            assert_eq!(
                wgpu("wgpu:discrete:1"),
                Device::wgpu(DeviceKind::DiscreteGpu(1))
            );
            assert_eq!(wgpu("WGPU:CPU"), Device::wgpu(DeviceKind::Cpu));
        }
        #[cfg(not(feature = "wgpu"))]
        assert!(err("wgpu").contains("not an enabled backend"));
        #[cfg(not(feature = "vulkan"))]
        assert!(err("vulkan:integrated:0").contains("`vulkan` is not an enabled backend"));
        #[cfg(feature = "cuda")]
        assert_eq!(Device::from_name("cuda:1").unwrap(), Device::cuda(1));
        #[cfg(not(feature = "cuda"))]
        assert!(err("cuda:1").contains("not an enabled backend"));
    }

    #[test]
    fn enabled_names_follow_the_features() {
        let names = Device::enabled_names();
        assert_eq!(names.contains(&"flex"), cfg!(feature = "flex"));
        assert_eq!(names.contains(&"wgpu"), cfg!(feature = "wgpu"));
        assert_eq!(names.contains(&"cuda"), cfg!(feature = "cuda"));
    }
}
