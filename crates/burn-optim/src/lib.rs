//! # burn-optim: optimizers, learning rate schedulers, and their records
//!
//! Training a module is a loop of forward, backward and update. This crate
//! owns the update:
//!
//! 1. run the model and call `loss.backward()`;
//! 2. key the gradients by parameter with [`GradientsParams::from_grads`];
//! 3. call [`ModuleOptimizer::step`]`(lr, model, grads)` for the updated
//!    model, with the learning rate from an [`LrScheduler`].
//!
//! An [`Optimizer`] is the update rule for one tensor and its optional
//! per-parameter state ([`RecordState`]: tensors and scalars, no backend
//! type). A [`ModuleOptimizer`] applies optimizers to a whole module:
//! traversal, parameter groups with their own optimizer and
//! [`GradientClipping`], gradient lookup by [`ParamId`](burn_core::module::ParamId),
//! moving state to its parameter's device, and updating outside the
//! autodiff graph. [`GradientsAccumulator`] sums gradients over several
//! passes.
//!
//! Optimizer state is saved as an [`OptimizerRecord`] (keyed per parameter
//! as `"{param_id}.{field}"`, plus a `__rank` scalar) and scheduler state
//! as an [`LrSchedulerRecord`] (scalars); both are burnpack containers
//! (`save` / `load`, `into_bytes` / `from_bytes`).
//!
//! ## What it must not depend on
//!
//! No backend crate: tensors are reached through `burn-tensor`, modules
//! through `burn-core`, files through `burn-pack`. No dataset, layer or
//! training loop.
//!
//! ## Example
//!
//! ```
//! use burn_core as burn; // what the derives name
//! use burn::module::{Module, Param};
//! use burn::tensor::{Device, Tensor};
//! use burn_optim::{GradientsParams, LrScheduler, SgdConfig, lr_scheduler::StepLrSchedulerConfig};
//! use burn_optim::momentum::MomentumConfig;
//!
//! #[derive(Module, Debug)]
//! struct Line {
//!     slope: Param<Tensor<1>>,
//! }
//!
//! let device = Device::flex().autodiff();
//! let mut model = Line { slope: Param::from_tensor(Tensor::from_data([0.0], &device)) };
//! let momentum = MomentumConfig { momentum: 0.5, dampening: 0.0, nesterov: false };
//! let mut optimizer = SgdConfig::new().with_momentum(Some(momentum)).init();
//! let mut scheduler = StepLrSchedulerConfig::new(0.1, 10, 0.5).init();
//!
//! for _ in 0..50 {
//!     // loss = (3 - slope)², minimised at slope = 3
//!     let loss = (model.slope.val().neg().add_scalar(3.0)).square().sum();
//!     let grads = GradientsParams::from_grads(loss.backward(), &model);
//!     model = optimizer.step(scheduler.step(), model, grads);
//! }
//! let slope = model.slope.val().into_scalar::<f32>();
//! assert!((slope - 3.0).abs() < 1e-2, "{slope}");
//! ```
//!
//! ## Map
//! - `optimizer.rs`: [`Optimizer`], [`LearningRate`], the erased form
//!   groups hold.
//! - `state.rs`: [`RecordState`], [`StateFields`], [`record_state!`].
//! - `module_optimizer.rs`: [`ModuleOptimizer`] and its step.
//! - `grads.rs`: [`GradientsParams`]. `accumulator.rs`: [`GradientsAccumulator`].
//! - [`grad_clipping`]: [`GradientClipping`] and [`GradientClippingConfig`].
//! - [`momentum`]: [`MomentumConfig`](momentum::MomentumConfig) and the
//!   momentum transform; [`decay`]: [`WeightDecayConfig`](decay::WeightDecayConfig).
//!   The optimizer configs take them as Burn's do:
//!   `SgdConfig::new().with_momentum(Some(MomentumConfig::new()))`.
//! - `record.rs`: [`OptimizerRecord`], [`LrSchedulerRecord`] and burnpack I/O.
//! - `optimizers/`: one file per optimizer family.
//! - [`lr_scheduler`]: the [`LrScheduler`] trait and one file per schedule.
//! - `error.rs`: [`OptimError`].

extern crate burn_core as burn;

mod accumulator;
pub mod decay;
mod error;
pub mod grad_clipping;
mod grads;
mod module_optimizer;
pub mod momentum;
mod optimizer;
mod optimizers;
mod record;
mod state;

pub mod lr_scheduler;

pub use accumulator::GradientsAccumulator;
pub use error::OptimError;
pub use grad_clipping::{GradientClipping, GradientClippingConfig};
pub use grads::GradientsParams;
pub use lr_scheduler::LrScheduler;
pub use module_optimizer::ModuleOptimizer;
pub use optimizer::{LearningRate, MAX_RANK, Optimizer};
pub use optimizers::*;
pub use record::{LrSchedulerRecord, OptimizerRecord};
pub use state::{RecordState, StateFields, join_key};

#[doc(hidden)]
pub mod __private {
    pub use burn_tensor::Device;
}
