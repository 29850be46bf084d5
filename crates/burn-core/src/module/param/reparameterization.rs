//! Reparameterizations: a float parameter whose effective value is computed
//! from its stored base and a small module of its own (LoRA's factors).
//!
//! [`Param::val`] materializes the effective value, [`Param::base`] reads
//! the stored one. The attached module's parameters are parameters of the
//! model: traversals visit them under `"<param>.<NAME>"`
//! (`"weight.lora.a"`), so records, optimizers, devices and freezing reach
//! them with no code of their own. `valid()` and `materialize()` fold the
//! reparameterization into the value and drop it.
//!
//! `Param<T>` cannot grow a type parameter for what is attached, so the
//! attached module is stored type-erased ([`DynReparameterization`]). The
//! visitors and mappers it must be traversed with have const-generic hooks
//! (not object safe); [`ErasedVisitor`] and [`ErasedMapper`] carry each
//! parameter across as `Any` with its rank, and [`Typed`] restores the
//! static call. Users only see [`Reparameterization`] and [`Reparameterizer`].

use core::any::Any;
use core::fmt;
use std::boxed::Box;
use std::string::{String, ToString};
use std::vec::Vec;

use burn_tensor::{Bool, Device, Int, Tensor};

use super::{Flag, Param};
use crate::module::{Devices, Module, ModuleMapper, ModuleVisitor};

/// A module that computes a parameter's effective value from its base:
/// `apply(base)`. Implement it (with `#[derive(Module)]` for the state) and
/// attach it with a [`Reparameterizer`].
pub trait Reparameterization: Module + Sync + 'static {
    /// The path segment of the attached module's parameters
    /// (`"lora"`: `weight.lora.a`).
    const NAME: &'static str;

    /// The effective value of a parameter whose stored value is `base`.
    fn apply<const D: usize>(&self, base: Tensor<D>) -> Tensor<D>;
}

/// Decides, parameter by parameter, what to attach:
/// [`Module::apply_reparameterization`] calls it on every float parameter
/// with its path.
pub trait Reparameterizer {
    /// What is attached.
    type Reparam: Reparameterization;

    /// The parameter to keep (possibly changed, e.g. frozen) and what to
    /// attach to it, if anything.
    fn reparameterize<const D: usize>(
        &mut self,
        path: &str,
        param: Param<Tensor<D>>,
    ) -> (Param<Tensor<D>>, Option<Self::Reparam>);
}

/// The type-erased form of a [`Reparameterization`] attached to a
/// `Param<T>` (only `T = Tensor<D>` is ever built).
pub(crate) trait DynReparameterization<T>: Send + Sync {
    fn name(&self) -> &'static str;
    fn apply(&self, base: T) -> T;
    fn visit(&self, visitor: &mut dyn ErasedVisitor);
    fn map(self: Box<Self>, mapper: &mut dyn ErasedMapper) -> Box<dyn DynReparameterization<T>>;
    fn to_device(self: Box<Self>, device: &Device) -> Box<dyn DynReparameterization<T>>;
    fn fork(self: Box<Self>, device: &Device) -> Box<dyn DynReparameterization<T>>;
    fn collect_devices(&self, devices: Devices) -> Devices;
    fn as_any(&self) -> &dyn Any;
    fn clone_box(&self) -> Box<dyn DynReparameterization<T>>;
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// A reparameterization of a rank-`D` parameter.
struct Attached<R, const D: usize>(R);

pub(crate) fn attach<R: Reparameterization, const D: usize>(
    reparameterization: R,
) -> Box<dyn DynReparameterization<Tensor<D>>> {
    Box::new(Attached::<R, D>(reparameterization))
}

impl<R: Reparameterization, const D: usize> DynReparameterization<Tensor<D>> for Attached<R, D> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn apply(&self, base: Tensor<D>) -> Tensor<D> {
        self.0.apply(base)
    }

    fn visit(&self, visitor: &mut dyn ErasedVisitor) {
        self.0.visit(&mut Erased(visitor));
    }

    fn map(
        self: Box<Self>,
        mapper: &mut dyn ErasedMapper,
    ) -> Box<dyn DynReparameterization<Tensor<D>>> {
        Box::new(Self(self.0.map(&mut Erased(mapper))))
    }

    fn to_device(self: Box<Self>, device: &Device) -> Box<dyn DynReparameterization<Tensor<D>>> {
        Box::new(Self(self.0.to_device(device)))
    }

    fn fork(self: Box<Self>, device: &Device) -> Box<dyn DynReparameterization<Tensor<D>>> {
        Box::new(Self(self.0.fork(device)))
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        self.0.collect_devices(devices)
    }

    fn as_any(&self) -> &dyn Any {
        &self.0
    }

    fn clone_box(&self) -> Box<dyn DynReparameterization<Tensor<D>>> {
        Box::new(Self(self.0.clone()))
    }

    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

/// Runs `$body` with `$d` a const equal to `$rank` (the ranks a parameter
/// of an attached module may have).
macro_rules! with_rank {
    ($rank:expr, $d:ident => $body:expr) => {
        match $rank {
            1 => {
                const $d: usize = 1;
                $body
            }
            2 => {
                const $d: usize = 2;
                $body
            }
            3 => {
                const $d: usize = 3;
                $body
            }
            4 => {
                const $d: usize = 4;
                $body
            }
            5 => {
                const $d: usize = 5;
                $body
            }
            6 => {
                const $d: usize = 6;
                $body
            }
            7 => {
                const $d: usize = 7;
                $body
            }
            8 => {
                const $d: usize = 8;
                $body
            }
            rank => panic!(
                "a reparameterization's parameters have rank 1 to 8, this one has rank {rank}"
            ),
        }
    };
}

/// A [`ModuleVisitor`] behind a trait object.
pub(crate) trait ErasedVisitor {
    fn enter_module(&mut self, name: &str, container_type: &str);
    fn exit_module(&mut self, name: &str, container_type: &str);
    fn visit_float(&mut self, rank: usize, param: &dyn Any);
    fn visit_int(&mut self, rank: usize, param: &dyn Any);
    fn visit_bool(&mut self, rank: usize, param: &dyn Any);
    fn visit_flag(&mut self, param: &Param<Flag>);
}

/// A [`ModuleMapper`] behind a trait object.
pub(crate) trait ErasedMapper {
    fn enter_module(&mut self, name: &str, container_type: &str);
    fn exit_module(&mut self, name: &str, container_type: &str);
    fn map_float(&mut self, rank: usize, param: Box<dyn Any>) -> Box<dyn Any>;
    fn map_int(&mut self, rank: usize, param: Box<dyn Any>) -> Box<dyn Any>;
    fn map_bool(&mut self, rank: usize, param: Box<dyn Any>) -> Box<dyn Any>;
    fn map_flag(&mut self, param: Param<Flag>) -> Param<Flag>;
}

/// A concrete visitor or mapper, seen through the erased traits.
pub(crate) struct Typed<'a, V>(pub(crate) &'a mut V);

/// An erased visitor or mapper, seen as a concrete one.
struct Erased<'a, E: ?Sized>(&'a mut E);

const MISMATCH: &str = "an erased parameter has the type its rank names";

impl<V: ModuleVisitor> ErasedVisitor for Typed<'_, V> {
    fn enter_module(&mut self, name: &str, container_type: &str) {
        self.0.enter_module(name, container_type);
    }
    fn exit_module(&mut self, name: &str, container_type: &str) {
        self.0.exit_module(name, container_type);
    }
    fn visit_float(&mut self, rank: usize, param: &dyn Any) {
        with_rank!(rank, D => self.0.visit_float::<D>(param.downcast_ref().expect(MISMATCH)))
    }
    fn visit_int(&mut self, rank: usize, param: &dyn Any) {
        with_rank!(rank, D => self.0.visit_int::<D>(param.downcast_ref().expect(MISMATCH)))
    }
    fn visit_bool(&mut self, rank: usize, param: &dyn Any) {
        with_rank!(rank, D => self.0.visit_bool::<D>(param.downcast_ref().expect(MISMATCH)))
    }
    fn visit_flag(&mut self, param: &Param<Flag>) {
        self.0.visit_flag(param);
    }
}

impl<M: ModuleMapper> ErasedMapper for Typed<'_, M> {
    fn enter_module(&mut self, name: &str, container_type: &str) {
        self.0.enter_module(name, container_type);
    }
    fn exit_module(&mut self, name: &str, container_type: &str) {
        self.0.exit_module(name, container_type);
    }
    fn map_float(&mut self, rank: usize, param: Box<dyn Any>) -> Box<dyn Any> {
        with_rank!(rank, D => Box::new(self.0.map_float::<D>(*param.downcast().expect(MISMATCH))))
    }
    fn map_int(&mut self, rank: usize, param: Box<dyn Any>) -> Box<dyn Any> {
        with_rank!(rank, D => Box::new(self.0.map_int::<D>(*param.downcast().expect(MISMATCH))))
    }
    fn map_bool(&mut self, rank: usize, param: Box<dyn Any>) -> Box<dyn Any> {
        with_rank!(rank, D => Box::new(self.0.map_bool::<D>(*param.downcast().expect(MISMATCH))))
    }
    fn map_flag(&mut self, param: Param<Flag>) -> Param<Flag> {
        self.0.map_flag(param)
    }
}

impl ModuleVisitor for Erased<'_, dyn ErasedVisitor + '_> {
    fn enter_module(&mut self, name: &str, container_type: &str) {
        self.0.enter_module(name, container_type);
    }
    fn exit_module(&mut self, name: &str, container_type: &str) {
        self.0.exit_module(name, container_type);
    }
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0.visit_float(D, param);
    }
    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.0.visit_int(D, param);
    }
    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.0.visit_bool(D, param);
    }
    fn visit_flag(&mut self, param: &Param<Flag>) {
        self.0.visit_flag(param);
    }
}

impl ModuleMapper for Erased<'_, dyn ErasedMapper + '_> {
    fn enter_module(&mut self, name: &str, container_type: &str) {
        self.0.enter_module(name, container_type);
    }
    fn exit_module(&mut self, name: &str, container_type: &str) {
        self.0.exit_module(name, container_type);
    }
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        *self
            .0
            .map_float(D, Box::new(param))
            .downcast()
            .expect(MISMATCH)
    }
    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        *self
            .0
            .map_int(D, Box::new(param))
            .downcast()
            .expect(MISMATCH)
    }
    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        *self
            .0
            .map_bool(D, Box::new(param))
            .downcast()
            .expect(MISMATCH)
    }
    fn map_flag(&mut self, param: Param<Flag>) -> Param<Flag> {
        self.0.map_flag(param)
    }
}

/// What [`Module::apply_reparameterization`] maps the module with: the
/// reparameterizer, asked about every float parameter with its path.
pub(crate) struct ApplyReparameterization<R> {
    reparameterizer: R,
    path: Vec<String>,
}

impl<R> ApplyReparameterization<R> {
    pub(crate) fn new(reparameterizer: R) -> Self {
        Self {
            reparameterizer,
            path: Vec::new(),
        }
    }
}

impl<R: Reparameterizer> ModuleMapper for ApplyReparameterization<R> {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.push(name.to_string());
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.pop();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let path = self.path.join(".");
        match self.reparameterizer.reparameterize(&path, param) {
            (base, Some(reparameterization)) => base.with_reparameterization(reparameterization),
            (base, None) => base,
        }
    }
}

/// `materialize()`: folds every reparameterization, changes nothing else.
pub(crate) struct Materialize;

impl ModuleMapper for Materialize {
    fn folds_reparameterizations(&self) -> bool {
        true
    }
}
