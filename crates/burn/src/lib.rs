//! # Burn
//!
//! A deep learning framework in Rust. Tensors carry their rank and kind in
//! the type and their backend in their [`Device`](tensor::Device), chosen at
//! run time, so code has no backend type parameter.
//!
//! No execution backend is enabled by default; pick one with a feature:
//!
//! ```toml
//! [dependencies]
//! burn = { path = "…/crates/burn", features = ["flex"] }
//! ```
//!
//! ```
//! # #[cfg(feature = "flex")] {
//! use burn::prelude::*;
//!
//! let device = Device::default();
//! let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
//! let y = (x.clone() * 2 + 1).exp().sum();
//! assert!(y.into_scalar::<f32>() > 0.0);
//! # }
//! ```
//!
//! ## Feature flags
//! - `std` (default): the standard library.
//! - `flex`: the Flex backend (pure-Rust CPU, multi-threaded), `Device::flex()`.
//! - `wgpu`: the CubeCL backend on the WGPU runtime, on whichever graphics
//!   API the platform offers (Vulkan, Metal, DirectX, WebGPU),
//!   `Device::wgpu(Default::default())`; the adapter type is
//!   `burn::tensor::WgpuDevice`.
//! - `vulkan`, `webgpu`, `metal` (each implies `wgpu`): add
//!   `Device::vulkan(..)`, `Device::webgpu(..)`, `Device::metal(..)`. With
//!   CubeCL 0.10 the graphics API is chosen when building, so these build
//!   the same device as `Device::wgpu(..)`; `vulkan` compiles kernels to
//!   SPIR-V, `metal` to MSL.
//! - `cuda`: the CubeCL backend on NVIDIA GPUs, `Device::cuda(0)` (needs the
//!   CUDA driver and NVRTC at run time, not at build time).
//! - `rocm`: the CubeCL backend on AMD GPUs, `Device::rocm(0)`.
//! - `cpu`: the CubeCL backend on CubeCL's MLIR/LLVM CPU runtime,
//!   `Device::cpu()`. Its build script downloads an LLVM bundle, so building
//!   with it needs a network; `flex` is the CPU backend that needs nothing.
//! - `optim` (default): optimizers, learning rate schedulers, gradient
//!   clipping and their records (implies `autodiff`).
//! - `train`: training and evaluation (`burn::train`), implies `optim`;
//!   `tui` adds its terminal dashboard, `metrics` the CPU, memory and GPU
//!   metrics.
//! - `store`: `burn::store` gains the snapshot tooling of `burn-store`
//!   (`ModuleSnapshot`, `BurnpackStore`, `SafetensorsStore`, filters, key
//!   remapping, adapters).
//! - `safetensors`: SafeTensors import and export (implies `store`; `store`
//!   already includes it, since burn-core needs std).
//! - `pytorch`: PyTorch `.pt` / `.pth` import, `PytorchStore` (implies `store`).
//! - `network`: dataset downloads over HTTPS (MNIST's files), with a
//!   progress line and checksums.
//! - `fusion`: kernel fusion where a backend supports it: on Flex,
//!   `Device::flex()` runs `Fusion<Flex>` (operations queue until a read;
//!   element-wise chains run in one pass). The CubeCL backends have no
//!   fused kernels yet.
//! - `signal`: `burn::signal` (burn-signal): FFTs of any length along any
//!   dim (`rfft`, `irfft`, `cfft`, `ifft`), `stft`/`istft` with
//!   `StftOptions`, and the Hann, Hamming and Blackman windows.
//! - `linalg`: `burn::linalg` (burn-linalg): norms, `det`, `lu`, `qr`,
//!   `cholesky`, `solve`, `svd`, `inverse`, `lstsq`, `eigh`, batched, in
//!   f32 and f64.
//! - `vision`: `burn::vision` (burn-vision): connected components,
//!   morphology, NMS, filters, colour conversion, 2D transforms (and
//!   `burn::data`, as `dataset`).
//! - `tracing`: trace-level spans (the `tracing` crate) for each operation
//!   dispatched (named by the op), the autodiff backward pass and each of
//!   its steps, and fusion's flushes and fused blocks. Opt-in: without the
//!   feature a subscriber sees none of them.
//! - `extension`: backend extensions, `#[backend_extension]` and
//!   `#[derive(ExtensionType)]` with the paths they name
//!   (`burn::backend::{Dispatch, Flex, Cube, Autodiff, Fusion, tensor}`,
//!   `Tensor::from_dispatch` / `into_dispatch`).
//! - `cubecl` (implies `extension`): `burn::cubecl`, for the `#[cube]`
//!   kernels of extensions, with a CubeCL runtime feature.
//! - `template` (implies `cubecl`): `burn::backend::template`, hand-written
//!   kernels as WGSL source (WGPU) or CUDA C++ (NVRTC on CUDA).
//! - `ir`, `router`, `capture`: the operation IR (`burn::ir`),
//!   `Device::router(&device)` and `Device::capture()`.
//! - `remote`, `remote-websocket`: devices of a remote tensor server
//!   (`burn::remote::RemoteHost`, `Device::remote_options`), over
//!   WebSocket; the Iroh transport the seeds name for `remote` is not built
//!   yet. `remote-server`: `burn::server::RemoteServer`, serving local
//!   devices (implies `remote`).
//!
//! Features Burn has that are accepted here so a Burn project's feature
//! list builds, and what they do on this design:
//!
//! - `dataset`: nothing more: `burn::data`, with `MnistDataset` and the
//!   image-folder datasets, is part of every `std` build.
//! - `simd`, `x86-v4`: nothing: Flex always builds its SIMD kernels (AVX2
//!   and AVX-512, matmul included) and picks them at run time from the
//!   CPU's features, so one binary is fast on every x86-64 machine.
//! - `rayon`: nothing: with `std`, Flex runs large kernels on its own
//!   worker threads (as many as the machine has, or `BURN_FLEX_THREADS`),
//!   not on rayon.
//! - `autotune`, `autotune-checks`: nothing yet: the CubeCL backend picks
//!   its kernels by shape rules and has no autotuner.
//!
//! `Device::default()` picks the first enabled backend, GPUs before CPUs
//! (CUDA, ROCm, WGPU, then Flex, then the CubeCL CPU runtime), unless the
//! `BURN_DEVICE` environment variable names one (`flex`, `wgpu`, `cuda:1`,
//! `wgpu:discrete:0`, …; see `Device::default_device`). Several backends can
//! be enabled at once and used side by side.
//!
//! The Quick start: a model is a struct of layers from `nn`, with no
//! backend type parameter.
//!
//! ```
//! # #[cfg(feature = "flex")] {
//! use burn::nn::{Linear, LinearConfig, Relu};
//! use burn::prelude::*;
//!
//! #[derive(Module, Debug)]
//! struct Mlp {
//!     hidden: Linear,
//!     activation: Relu,
//!     output: Linear,
//! }
//!
//! impl Mlp {
//!     fn new(device: &Device) -> Self {
//!         Self {
//!             hidden: LinearConfig::new(784, 128).init(device),
//!             activation: Relu::new(),
//!             output: LinearConfig::new(128, 10).init(device),
//!         }
//!     }
//!
//!     fn forward(&self, input: Tensor<2>) -> Tensor<2> {
//!         let x = self.activation.forward(self.hidden.forward(input));
//!         self.output.forward(x)
//!     }
//! }
//!
//! let device = Device::default();
//! let model = Mlp::new(&device);
//! let logits = model.forward(Tensor::zeros([32, 784], &device));
//! assert_eq!(logits.dims(), [32, 10]);
//! // 784×128 + 128 (hidden) and 128×10 + 10 (output).
//! assert_eq!(model.num_params(), 101_770);
//! # }
//! ```
//!
//! Models are structs that derive `Module`; their hyperparameters are
//! structs that derive `Config` (this example needs no backend):
//!
//! ```
//! # #[cfg(feature = "std")] {
//! use burn::module::Param;
//! use burn::prelude::*;
//!
//! #[derive(Config, Debug)]
//! struct AffineConfig {
//!     d_input: usize,
//!     d_output: usize,
//!     #[config(default = true)]
//!     bias: bool,
//! }
//!
//! #[derive(Module, Debug)]
//! struct Affine {
//!     weight: Param<Tensor<2>>,
//!     bias: Option<Param<Tensor<1>>>,
//! }
//!
//! let config = AffineConfig::new(784, 10);
//! assert!(config.bias);
//! let record = burn::store::ModuleRecord::new().allow_partial(true);
//! assert!(record.is_empty());
//! # }
//! ```
//!
//! ## Modules
//! - [`tensor`]: `Tensor`, `Device`, dtypes, activation functions.
//! - [`backend`]: the backend contract, for writing or extending backends.
//! - `ir` (`ir` feature): the operation IR, every operation as data.
//! - `capture` (`capture` feature): graph capture's scope, graph and
//!   errors; the device is `Device::capture()`.
//! - `module` (`std`): `Module` and its derive, `Param`, `ParamId`, `Flag`,
//!   visitors, mappers, parameter groups.
//! - `config` (`std`): `Config` and its derive.
//! - `store` (`std`): `ModuleRecord`, a module's weights as a burnpack file
//!   or bytes; with the `store` feature, the snapshot tooling and the
//!   burnpack, SafeTensors and (`pytorch`) PyTorch stores.
//! - `data` (`std`): datasets and their transforms (`data::dataset`), and
//!   batchers and data loaders (`data::dataloader`).
//! - `nn` (`std`): layers (`Linear`, `Embedding`, norms, …), activation
//!   modules, `nn::loss`, `Initializer`.
//! - `train` (`train`): `Learner`, `SupervisedTraining`, `EvaluatorBuilder`,
//!   metrics, checkpoints and renderers (the ratatui dashboard with `tui`).
//! - `optim`, `lr_scheduler`, `grad_clipping` (`optim`): optimizers and
//!   `ModuleOptimizer`, `GradientsParams`, learning rate schedulers,
//!   `GradientClipping`, `OptimizerRecord` / `LrSchedulerRecord`.
//! - [`prelude`]: what most programs import.

/// Tensors, devices and dtypes.
pub mod tensor {
    pub use burn_tensor::*;
}

/// `burn::Tensor`, as `burn::tensor::Tensor`.
pub use burn_tensor::Tensor;

/// Serde, re-exported so that user code can derive its traits through
/// `burn::serde` (as `#[derive(Config)]` needs them) without its own
/// dependency.
pub use serde;

/// The run-time configuration read from `burn.toml` (see
/// [`BurnConfig`]): parsed and handed out, but no subsystem of this
/// workspace acts on it yet (no fusion or remote backend, no autodiff
/// logging).
#[cfg(feature = "std")]
pub use burn_std::config::{BurnConfig, config as runtime_config};

/// `burn::empty!(MyType)`: `Module` for a constant type (see the macro).
#[cfg(feature = "std")]
pub use burn_core::empty;

/// The items it is given when Burn has its `fusion` feature, nothing
/// otherwise: the `impl Trait for Fusion<B>` that `#[backend_extension]`
/// generates for its `Fusion` selector, so that the selector names the
/// backends of the build whatever the features of the crate using it.
#[cfg(all(feature = "extension", feature = "fusion"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_fusion {
    ($($item:item)*) => { $($item)* };
}

/// See the other definition: Burn has no `fusion` feature here.
#[cfg(all(feature = "extension", not(feature = "fusion")))]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_fusion {
    ($($item:item)*) => {};
}

/// CubeCL, for the `#[cube]` kernels of backend extensions on the CubeCL
/// backend (`cubecl` feature, with a CubeCL runtime): `use burn::cubecl;`
/// puts it in scope for `#[cube]`.
#[cfg(all(
    feature = "cubecl",
    any(feature = "wgpu", feature = "cuda", feature = "rocm", feature = "cpu")
))]
pub use burn_tensor::__dispatch::extension::cubecl;

/// The backend contract (`Backend` and the ops traits).
pub mod backend {
    pub use burn_backend::*;
    /// The operation IR (`ir` feature).
    #[cfg(feature = "ir")]
    pub use burn_ir as ir;

    /// Derives what a struct or enum of tensor primitives needs to be an
    /// input or output of a backend extension op (`extension` feature).
    #[cfg(feature = "extension")]
    pub use burn_backend_extension::ExtensionType;
    /// Implements a backend trait of yours for [`Dispatch`], routing each
    /// op to the backend holding its operands (`extension` feature; see the
    /// Burn Book's Backend Extension chapter).
    #[cfg(feature = "extension")]
    pub use burn_backend_extension::backend_extension;
    #[cfg(feature = "extension")]
    #[doc(hidden)]
    pub use burn_tensor::__dispatch;
    /// The backend every tensor's primitive belongs to: an enum over the
    /// enabled backends, routing each op at run time.
    #[cfg(feature = "extension")]
    pub use burn_tensor::__dispatch::Dispatch;
    /// The autodiff decorator: `Autodiff<Dispatch, C>` runs the ops of
    /// tensors that carry an autodiff context.
    #[cfg(all(feature = "extension", feature = "autodiff"))]
    pub use burn_tensor::__dispatch::autodiff::Autodiff;
    /// Hand-written kernels in the runtime's own language, launched on the
    /// CubeCL backend's buffers: `KernelSource`, `SourceTemplate`,
    /// `SourceArgs`, `launch_source` (`template` feature).
    #[cfg(all(
        feature = "template",
        any(feature = "wgpu", feature = "cuda", feature = "rocm", feature = "cpu")
    ))]
    pub use burn_tensor::__dispatch::extension::template;
    /// The CubeCL backend (CUDA, ROCm, WGPU and CubeCL's CPU runtime).
    #[cfg(all(
        feature = "extension",
        any(feature = "wgpu", feature = "cuda", feature = "rocm", feature = "cpu")
    ))]
    pub use burn_tensor::__dispatch::extension::{
        Cube, CubeClient, CubeLaunch, CubeTensor, launch_dims,
    };
    /// The Flex CPU backend, and its tensor (a buffer of host memory with
    /// a layout), which a Flex kernel of an extension reads and builds.
    #[cfg(all(feature = "extension", feature = "flex"))]
    pub use burn_tensor::__dispatch::extension::{Flex, FlexTensor};
    /// The Fusion decorator, which holds Flex and Cube with `fusion`; what
    /// it needs of the backend it decorates; the shape and dtype of an
    /// extension op's tensor, as `#[fusion(meta = ..)]` callbacks see them.
    #[cfg(all(feature = "extension", feature = "fusion"))]
    pub use burn_tensor::__dispatch::extension::{Fusion, FusionBackend, TensorSpec};

    /// The autodiff decorator: its tensor, and what a handwritten backward
    /// pass is written with (see `burn-autodiff`'s crate docs), and its
    /// checkpointing strategies.
    #[cfg(all(feature = "extension", feature = "autodiff"))]
    pub mod autodiff {
        pub use burn_tensor::__dispatch::autodiff::{
            AutodiffTensor, Backward, Checkpointed, Checkpointing, NodeGuard, ParentGrads, Prepared,
        };

        /// Which forward values a backward step keeps.
        pub mod checkpoint {
            /// The strategies: `CheckpointStrategy` and its implementations.
            pub mod strategy {
                pub use burn_tensor::__dispatch::autodiff::{
                    BalancedCheckpointing, CheckpointStrategy, NoCheckpointing,
                };
            }
        }
    }

    /// The primitive types of a backend's tensors.
    pub mod tensor {
        pub use burn_backend::{BoolTensor, FloatTensor, IntTensor, QuantizedTensor};
    }
}

/// The operation IR: every operation of the backend contract as
/// serializable data (`ir` feature).
#[cfg(feature = "ir")]
pub mod ir {
    pub use burn_ir::*;
}

/// Graph capture (`capture` feature): the scope a `Device::capture_scope`
/// closure receives, the graph it returns and its errors.
#[cfg(feature = "capture")]
pub mod capture {
    pub use burn_capture::{
        CaptureError, CaptureScope, CaptureTensor, CapturedGraph, CompletedCaptureScope,
        IntoCaptureOutputs, TensorId,
    };
}

/// Devices of a remote tensor server (`remote` feature): [`RemoteHost`](remote::RemoteHost)
/// and `Device::remote_options(&host).device_index(i).init()`.
#[cfg(feature = "remote")]
pub mod remote {
    pub use burn_tensor::remote::*;
}

/// The tensor server (`remote-server` feature): serve this machine's devices.
#[cfg(feature = "remote-server")]
pub mod server {
    pub use burn_tensor::server::*;
}

/// Modules: the `Module` trait and derive, parameters, traversal hooks.
#[cfg(feature = "std")]
pub mod module {
    pub use burn_core::module::*;
}

/// Configurations: the `Config` trait and derive.
#[cfg(feature = "std")]
pub mod config {
    pub use burn_core::config::*;
}

/// Saving and loading weights: `ModuleRecord` and its load options (always
/// with `std`); with the `store` feature, `burn-store`'s snapshots and
/// stores (`ModuleSnapshot`, `BurnpackStore`, `SafetensorsStore`,
/// `PytorchStore` with `pytorch`, `PathFilter`, `KeyRemapper`, adapters).
#[cfg(feature = "std")]
pub mod store {
    pub use burn_core::record::*;
    #[cfg(feature = "store")]
    pub use burn_store::*;
}

/// Data: `data::dataset` (the `Dataset` trait, in-memory sources, transforms,
/// image folders, MNIST, the 8x8 digits) and `data::dataloader` (`Batcher`,
/// `DataLoader`, `DataLoaderBuilder`).
#[cfg(feature = "std")]
pub mod data {
    pub use burn_core::data::*;
}

/// Neural network layers, activations, losses and initializers (`burn-nn`).
#[cfg(feature = "std")]
pub mod nn {
    pub use burn_nn::*;
}

/// Signal processing (`burn-signal`): FFTs, STFT, windows.
#[cfg(feature = "signal")]
pub mod signal {
    pub use burn_signal::*;
}

/// Linear algebra (`burn-linalg`): norms, decompositions, solvers.
#[cfg(feature = "linalg")]
pub mod linalg {
    pub use burn_linalg::*;
}

/// Vision operations (`burn-vision`): connected components, morphology,
/// NMS, filters, colour conversion, 2D transforms.
#[cfg(feature = "vision")]
pub mod vision {
    pub use burn_vision::*;
}

/// Optimizers: `ModuleOptimizer`, `GradientsParams`, `GradientsAccumulator`,
/// SGD, Adam, AdamW, AdaGrad, RMSProp, Lion, Adan, Muon, and their records.
#[cfg(feature = "optim")]
pub mod optim {
    pub use burn_optim::*;
}

/// Learning rate schedulers and the `LrScheduler` trait.
#[cfg(feature = "optim")]
pub mod lr_scheduler {
    pub use burn_optim::lr_scheduler::*;
}

/// Gradient clipping.
#[cfg(feature = "optim")]
pub mod grad_clipping {
    pub use burn_optim::grad_clipping::*;
}

/// Training: `Learner`, `SupervisedTraining`, evaluation, metrics,
/// checkpoints, renderers (`burn-train`).
#[cfg(feature = "train")]
pub mod train {
    pub use burn_train::*;
}

/// The types most programs use, and (as in Burn) the [`nn`] module.
pub mod prelude {
    pub use burn_tensor::{
        Bool, DType, Device, DeviceConfig, DeviceIndex, DeviceKind, Distribution,
        ElementConversion, Float, Int, Shape, SliceArg, Tensor, TensorData, Tolerance, s,
    };

    /// The traits and their derives.
    #[cfg(feature = "std")]
    pub use burn_core::{
        config::Config,
        module::{AutodiffModule, Module},
    };

    /// `nn::Linear`, `nn::conv::Conv2d`, … with only the prelude imported.
    #[cfg(feature = "std")]
    pub use crate::nn;
}
