//! Modules: the [`Module`] trait and its derive, parameters ([`Param`],
//! [`ParamId`], [`Flag`]), the traversal hooks ([`ModuleVisitor`],
//! [`ModuleMapper`], [`ModulePath`]) and parameter groups ([`ParamGroup`]).
//!
//! ## Map
//! - `base.rs`: [`Module`], [`ModuleVisitor`], [`ModuleMapper`], [`Devices`].
//! - `param/`: [`Param<T>`](Param) and lazy initialization, tensor
//!   parameters of each kind, [`Flag`], [`ParamId`].
//! - `containers.rs`: `Module` for `Option`, `Vec`, arrays, `Box`, tuples
//!   and constants (numbers, strings, constant tensors, [`Ignored`]).
//! - `training.rs`: the mappers behind `valid`, `train`, `no_grad`,
//!   `freeze` / `unfreeze` and their group variants.
//! - `path.rs`: [`ModulePath`]. `group.rs`: [`ParamGroup`].
//! - `param/reparameterization.rs`: [`Reparameterization`] and
//!   [`Reparameterizer`], what a parameter's effective value is computed
//!   with; `lora.rs`: [`Lora`] and [`LoraAdapter`], the one this crate
//!   ships (`model.apply_lora(Lora::new(rank, alpha))`).

mod base;
mod containers;
mod group;
mod lora;
mod param;
mod path;
mod quantize;
mod training;

pub use base::{AutodiffModule, Devices, Module, ModuleMapper, ModuleVisitor};
pub use containers::Ignored;
pub use group::ParamGroup;
pub use lora::{Lora, LoraAdapter};
pub use param::{
    Flag, Param, ParamId, ParamMapper, Parameter, Reparameterization, Reparameterizer,
};
pub use path::ModulePath;
pub use quantize::Quantizer;

/// `#[derive(Module)]`: see the [`Module`](trait@Module) trait and the
/// `burn-derive` crate.
pub use burn_derive::Module;
