//! Tensor parameters: `Param<Tensor<D, K>>` for the three kinds, and their
//! `Module` impls (each hands itself to the visitor or mapper hook of its kind).

use burn_tensor::{Bool, DType, Device, Float, Int, Shape, Tensor, TensorData, TensorKind};

use super::reparameterization::{self, Reparameterization, Typed};
use super::{Param, ParamId, Parameter};
use crate::module::LoraAdapter;
use crate::module::{Devices, Module, ModuleMapper, ModuleVisitor};

impl<const D: usize> Parameter for Tensor<D, Float> {
    fn with_trainability(self, trainable: bool) -> Self {
        if !self.is_autodiff() {
            return self;
        }
        match (trainable, self.is_require_grad()) {
            // Already the leaf it should be: marking it again would make a
            // new leaf, and gradients found through the old handle would
            // stop reaching the parameter.
            (true, true) => self,
            // A constant, or an intermediate cut from the graph it came from.
            (true, false) => self.detach().require_grad(),
            (false, _) if self.is_tracked() => self.detach(),
            (false, _) => self,
        }
    }
}

/// Int and bool tensors carry no gradient.
impl<const D: usize> Parameter for Tensor<D, Int> {
    fn with_trainability(self, _trainable: bool) -> Self {
        self
    }
}

impl<const D: usize> Parameter for Tensor<D, Bool> {
    fn with_trainability(self, _trainable: bool) -> Self {
        self
    }
}

impl<const D: usize, K: TensorKind> Param<Tensor<D, K>>
where
    Tensor<D, K>: Parameter,
{
    /// A trainable parameter holding `tensor`, with a fresh id (a
    /// `require_grad` leaf if it is a float tensor with an autodiff context).
    pub fn from_tensor(tensor: Tensor<D, K>) -> Self {
        Self::initialized(ParamId::new(), tensor)
    }

    /// A trainable parameter holding `data` on `device`, in the data's dtype.
    ///
    /// # Panics
    /// If the data's rank is not `D` or its dtype is not of kind `K`.
    pub fn from_data(data: impl Into<TensorData>, device: &Device) -> Self {
        let data = data.into();
        let dtype = data.dtype;
        Self::from_tensor(Tensor::from_data(data, (device, dtype)))
    }

    /// The device the parameter is (or, lazy, will be) on.
    pub fn device(&self) -> Device {
        match (self.peek(), self.pending()) {
            (Some(tensor), _) => tensor.device(),
            (None, Some(lazy)) => lazy.device.clone(),
            (None, None) => unreachable!("a parameter is either ready or pending"),
        }
    }

    /// The shape the parameter has (or, lazy, will have).
    pub fn shape(&self) -> Shape {
        match (self.peek(), self.pending()) {
            (Some(tensor), _) => tensor.shape(),
            (None, Some(lazy)) => lazy.shape.clone(),
            (None, None) => unreachable!("a parameter is either ready or pending"),
        }
    }

    /// The dtype of the value (initializes a lazy parameter: the dtype is
    /// whatever its initializer produces).
    pub fn dtype(&self) -> DType {
        match self.peek() {
            Some(tensor) => tensor.dtype(),
            None => self.base().dtype(),
        }
    }

    /// Moves the parameter to `device`, keeping a pending initializer
    /// pending when no clone shares it. The moved tensor is stored as it
    /// comes: a moved leaf is an intermediate of the graph.
    pub(crate) fn move_to(self, device: &Device) -> Self {
        match self.try_move_pending(device) {
            Ok(moved) => moved,
            Err(param) => param.map_raw(|tensor| tensor.to_device(device)),
        }
    }
}

/// Adds `device` to `devices` unless an equal one is there.
pub(crate) fn push_unique(mut devices: Devices, device: Device) -> Devices {
    if !devices.contains(&device) {
        devices.push(device);
    }
    devices
}

impl<const D: usize> Param<Tensor<D>> {
    /// The parameter with `reparameterization` attached: [`val`](Param::val)
    /// becomes `reparameterization.apply(base)`, and its parameters are
    /// traversed under `"<this param>.<R::NAME>"`. Replaces what was attached.
    pub fn with_reparameterization<R: Reparameterization>(self, reparameterization: R) -> Self {
        self.with_dyn_reparameterization(Some(reparameterization::attach::<R, D>(
            reparameterization,
        )))
    }

    /// The attached reparameterization, if it is an `R`.
    pub fn reparameterization<R: Reparameterization>(&self) -> Option<&R> {
        self.reparameterization.as_ref()?.as_any().downcast_ref()
    }

    /// The attached LoRA adapter, if any.
    pub fn adapter(&self) -> Option<&LoraAdapter> {
        self.reparameterization()
    }

    /// The parameter with its reparameterization folded into the stored
    /// value (`val()`, cut from the graph, with the base's trainability),
    /// and nothing attached. Unchanged when nothing is attached.
    pub(crate) fn fold_reparameterization(self) -> Self {
        if self.reparameterization.is_none() {
            return self;
        }
        let value = self.val().detach();
        let (base, _) = self.split_reparameterization();
        let require_grad = base.require_grad;
        Param::ready(base.id, value, require_grad)
    }
}

impl<const D: usize> Module for Param<Tensor<D, Float>> {
    /// The stored base is shown to `visit_float` (without what is
    /// attached), then the attached module's parameters, under its name.
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        let Some(reparameterization) = &self.reparameterization else {
            return visitor.visit_float(self);
        };
        visitor.visit_float(&self.without_reparameterization());
        let name = reparameterization.name();
        visitor.enter_module(name, "Reparameterization");
        reparameterization.visit(&mut Typed(visitor));
        visitor.exit_module(name, "Reparameterization");
    }

    /// The base goes through `map_float` and the attached module's
    /// parameters through the mapper in turn, unless the mapper folds
    /// reparameterizations ([`ModuleMapper::folds_reparameterizations`]):
    /// then `map_float` receives the folded value.
    fn map<M: ModuleMapper>(self, mapper: &mut M) -> Self {
        if mapper.folds_reparameterizations() {
            return mapper.map_float(self.fold_reparameterization());
        }
        let (base, reparameterization) = self.split_reparameterization();
        let Some(reparameterization) = reparameterization else {
            return mapper.map_float(base);
        };
        let base = mapper.map_float(base);
        let name = reparameterization.name();
        mapper.enter_module(name, "Reparameterization");
        let reparameterization = reparameterization.map(&mut Typed(mapper));
        mapper.exit_module(name, "Reparameterization");
        base.with_dyn_reparameterization(Some(reparameterization))
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        let devices = push_unique(devices, self.device());
        match &self.reparameterization {
            Some(reparameterization) => reparameterization.collect_devices(devices),
            None => devices,
        }
    }

    fn to_device(self, device: &Device) -> Self {
        let (base, reparameterization) = self.split_reparameterization();
        base.move_to(device)
            .with_dyn_reparameterization(reparameterization.map(|r| r.to_device(device)))
    }

    /// Moved, then cut from the graph and made a leaf again if trainable,
    /// so the copy is optimized independently of the original.
    fn fork(self, device: &Device) -> Self {
        let (base, reparameterization) = self.split_reparameterization();
        let reparameterization = reparameterization.map(|r| r.fork(device));
        let moved = base.move_to(device);
        if moved.pending().is_some() {
            // Its initializer will make a leaf on the new device.
            return moved.with_dyn_reparameterization(reparameterization);
        }
        let require_grad = moved.require_grad;
        let (id, tensor, _) = moved.consume();
        Param::ready(id, tensor.detach(), require_grad)
            .with_dyn_reparameterization(reparameterization)
    }
}

impl<const D: usize> Module for Param<Tensor<D, Int>> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        visitor.visit_int(self);
    }

    fn map<M: ModuleMapper>(self, mapper: &mut M) -> Self {
        mapper.map_int(self)
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        push_unique(devices, self.device())
    }

    fn to_device(self, device: &Device) -> Self {
        self.move_to(device)
    }

    // Int and bool tensors never carry gradients, so there is no graph to cut.
    fn fork(self, device: &Device) -> Self {
        self.move_to(device)
    }
}

impl<const D: usize> Module for Param<Tensor<D, Bool>> {
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V) {
        visitor.visit_bool(self);
    }

    fn map<M: ModuleMapper>(self, mapper: &mut M) -> Self {
        mapper.map_bool(self)
    }

    fn collect_devices(&self, devices: Devices) -> Devices {
        push_unique(devices, self.device())
    }

    fn to_device(self, device: &Device) -> Self {
        self.move_to(device)
    }

    fn fork(self, device: &Device) -> Self {
        self.move_to(device)
    }
}
