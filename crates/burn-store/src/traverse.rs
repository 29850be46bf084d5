//! The two module traversals: [`Collector`] (a visitor: the module's
//! parameters as lazy [`StoreTensor`]s) and [`Applier`] (a mapper: tensors
//! into parameters, by path).
//!
//! The per-parameter work is generic over rank and kind only where a
//! `Tensor<D, K>` is built or read; every check lives in non-generic
//! methods, compiled once.

use std::any::Any;
use std::collections::{HashMap, HashSet};

use burn_core::module::{ModuleMapper, ModuleVisitor, Param, ParamId, Parameter};
use burn_std::DType;
use burn_tensor::{Bool, Device, Int, Tensor, TensorKind};

use crate::{
    ApplyError, ApplyResult, ModuleAdapter, ModuleContext, PathFilter, StoreError, StoreTensor,
};

/// The path and containers of the current position, skipping enum variant
/// names when asked (PyTorch has no such level).
#[derive(Default)]
struct Position {
    path: Vec<String>,
    containers: Vec<String>,
    /// Whether each `enter` pushed a path segment.
    pushed: Vec<bool>,
    skip_enum_variants: bool,
}

impl Position {
    fn new(skip_enum_variants: bool) -> Self {
        Self {
            skip_enum_variants,
            ..Self::default()
        }
    }

    fn enter(&mut self, name: &str, container: &str) {
        self.containers.push(container.to_owned());
        // A variant is entered with its enum as container (`"Enum:Block"`);
        // the fields of a struct variant with `"Enum:Block::Variant"`.
        let is_variant = container.starts_with("Enum:") && !container.contains("::");
        let push = !(self.skip_enum_variants && is_variant);
        if push {
            self.path.push(name.to_owned());
        }
        self.pushed.push(push);
    }

    fn exit(&mut self) {
        self.containers.pop();
        if self.pushed.pop() == Some(true) {
            self.path.pop();
        }
    }

    fn path(&self) -> String {
        self.path.join(".")
    }

    fn container_path(&self) -> String {
        self.containers.join(".")
    }

    fn context(&self) -> ModuleContext<'_> {
        ModuleContext::new(&self.containers)
    }
}

/// Collects a module's tensor parameters as lazy tensors: each one is read
/// back from its device only when a writer asks for its data.
pub struct Collector {
    position: Position,
    filter: Option<PathFilter>,
    adapter: Option<Box<dyn ModuleAdapter>>,
    tensors: Vec<StoreTensor>,
}

impl Collector {
    /// A collector keeping the parameters `filter` passes, each passed
    /// through `adapter`.
    pub fn new(
        filter: Option<PathFilter>,
        adapter: Option<Box<dyn ModuleAdapter>>,
        skip_enum_variants: bool,
    ) -> Self {
        Self {
            position: Position::new(skip_enum_variants),
            filter,
            adapter,
            tensors: Vec::new(),
        }
    }

    /// The tensors, in traversal order.
    pub fn into_tensors(self) -> Vec<StoreTensor> {
        self.tensors
    }

    fn add<const D: usize, K: TensorKind + 'static>(&mut self, param: &Param<Tensor<D, K>>)
    where
        Tensor<D, K>: Parameter,
    {
        let path = self.position.path();
        if let Some(filter) = &self.filter
            && !filter.matches_with_container(&path, &self.position.container_path())
        {
            return;
        }
        // `base` initializes a lazy parameter: its dtype is whatever its
        // initializer produces, and the file needs it before any data.
        let tensor = param.base();
        let (dtype, shape) = (tensor.dtype(), tensor.shape().dims);
        let name = path.clone();
        let lazy = StoreTensor::lazy(path, dtype, shape, move || {
            tensor
                .clone()
                .try_into_data()
                .map_err(|e| StoreError::Readback {
                    tensor: name.clone(),
                    message: e.to_string(),
                })
        })
        .with_param_id(Some(param.id.val()));
        self.push(lazy);
    }

    fn push(&mut self, tensor: StoreTensor) {
        let tensor = match &self.adapter {
            Some(adapter) => adapter.adapt(tensor, self.position.context()),
            None => tensor,
        };
        self.tensors.push(tensor);
    }
}

impl ModuleVisitor for Collector {
    fn enter_module(&mut self, name: &str, container_type: &str) {
        self.position.enter(name, container_type);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.position.exit();
    }

    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.add(param);
    }

    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.add(param);
    }

    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.add(param);
    }
}

/// The kind of a tensor parameter.
#[derive(Clone, Copy)]
enum Kind {
    Float,
    Int,
    Bool,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Float => "float",
            Kind::Int => "int",
            Kind::Bool => "bool",
        }
    }

    fn accepts(self, dtype: DType) -> bool {
        match self {
            Kind::Float => dtype.is_float(),
            Kind::Int => dtype.is_int(),
            Kind::Bool => dtype.is_bool(),
        }
    }
}

/// Loads tensors into the parameters whose module path they are named by.
pub struct Applier {
    tensors: HashMap<String, StoreTensor>,
    position: Position,
    filter: Option<PathFilter>,
    adapter: Option<Box<dyn ModuleAdapter>>,
    consumed: HashSet<String>,
    /// The module type of each module visited, by path: tells whether a
    /// leftover source tensor is one its module's format ignores.
    modules: HashMap<String, String>,
    result: ApplyResult,
    /// The parameters [`Stash`] took out of the module, by traversal index
    /// (`None` where it left the parameter in place), and the index of the
    /// next parameter.
    stash: Vec<Option<Box<dyn Any>>>,
    next: usize,
}

impl Applier {
    /// An applier of `tensors` (a later tensor of a name replaces an
    /// earlier one), for the parameters `filter` passes, each tensor passed
    /// through `adapter` first.
    pub fn new<T: Into<StoreTensor>>(
        tensors: impl IntoIterator<Item = T>,
        filter: Option<PathFilter>,
        adapter: Option<Box<dyn ModuleAdapter>>,
        skip_enum_variants: bool,
    ) -> Self {
        let tensors = tensors
            .into_iter()
            .map(|t| {
                let t: StoreTensor = t.into();
                (t.name().to_owned(), t)
            })
            .collect();
        Self {
            tensors,
            position: Position::new(skip_enum_variants),
            filter,
            adapter,
            consumed: HashSet::new(),
            modules: HashMap::new(),
            result: ApplyResult::default(),
            stash: Vec::new(),
            next: 0,
        }
    }

    /// Loads into the parameters `stash` holds (see [`Stash`]) in place of
    /// the stand-ins the mapped module has at their positions.
    pub fn with_stash(mut self, stash: Stash) -> Self {
        self.stash = stash.params;
        self
    }

    /// What was applied, skipped, missing, unused and refused.
    pub fn into_result(mut self) -> ApplyResult {
        let mut unused = Vec::new();
        for name in self.tensors.keys().filter(|n| !self.consumed.contains(*n)) {
            let (prefix, leaf) = name.rsplit_once('.').unwrap_or(("", name));
            let ignored = match (&self.adapter, self.modules.get(prefix)) {
                (Some(adapter), Some(module)) => adapter.is_ignored_source(leaf, module),
                _ => false,
            };
            if ignored {
                self.result.skipped.push(name.clone());
            } else {
                unused.push(name.clone());
            }
        }
        unused.sort();
        self.result.unused = unused;
        self.result.skipped.sort();
        self.result
    }

    fn load<const D: usize, K: TensorKind + 'static>(
        &mut self,
        param: Param<Tensor<D, K>>,
        kind: Kind,
    ) -> Param<Tensor<D, K>>
    where
        Tensor<D, K>: Parameter,
    {
        let index = self.next;
        self.next += 1;
        let param = match self.stash.get_mut(index).and_then(Option::take) {
            // The stashed original replaces its stand-in (dropped here).
            Some(original) => *original
                .downcast::<Param<Tensor<D, K>>>()
                .expect("the stash was taken by the same traversal"),
            None => param,
        };
        let shape = param.shape().dims;
        let device = param.device();
        let found = self.take(kind, &shape, &|| param.dtype(), &device);
        let Some((tensor, source_id)) = found else {
            return param;
        };
        let path = tensor.name().to_owned();
        let dtype = tensor.dtype();
        let (id, require_grad) = (param.id, param.is_require_grad());
        let new_id = source_id.map_or(id, ParamId::from);
        // A parameter that holds its values in a buffer of this process
        // (Flex) is overwritten in place, as PyTorch's `load_state_dict`
        // copies into its parameters: no fresh allocation, whose pages the
        // kernel would clear before the copy. A lazy parameter has no buffer
        // yet (reading it would run its initializer), and one shared with a
        // clone the user holds hands over a copy, so that clone keeps its
        // values.
        if tensor.is_view()
            && param.is_initialized()
            && device.hands_over_buffers()
            && param.dtype() == dtype
        {
            let mut data = param.into_value().into_data();
            let read = tensor.read_over(&mut data);
            let value = Tensor::<D, K>::from_data(data, (&device, dtype));
            return match read {
                Ok(read) => {
                    debug_assert!(read, "a view over data of its dtype and shape");
                    self.result.applied.push(path);
                    Param::initialized(new_id, value).set_require_grad(require_grad)
                }
                Err(error) => {
                    self.result.errors.push(ApplyError::LoadError {
                        path,
                        message: format!(
                            "{error} (the parameter's values were partly overwritten)"
                        ),
                    });
                    Param::initialized(id, value).set_require_grad(require_grad)
                }
            };
        }
        match tensor.to_data() {
            Ok(data) => {
                self.result.applied.push(path);
                let tensor = Tensor::<D, K>::from_data(data, (&device, dtype));
                Param::initialized(new_id, tensor).set_require_grad(require_grad)
            }
            Err(error) => {
                self.result.errors.push(ApplyError::LoadError {
                    path,
                    message: error.to_string(),
                });
                param
            }
        }
    }

    /// The tensor for the parameter at the current position (named by that
    /// position), checked against what it expects, with the source's
    /// parameter id; `None` to keep the parameter (skipped, missing, or
    /// refused: recorded in the result).
    fn take(
        &mut self,
        kind: Kind,
        shape: &[usize],
        dtype: &dyn Fn() -> DType,
        device: &Device,
    ) -> Option<(StoreTensor, Option<u64>)> {
        let path = self.position.path();
        let containers = self.position.container_path();
        let (prefix, leaf) = path.rsplit_once('.').unwrap_or(("", path.as_str()));
        let module_type = self.position.context().module_type();
        if let Some(module) = module_type {
            self.modules.insert(prefix.to_owned(), module.to_owned());
        }

        let alternative = match (&self.adapter, module_type) {
            (Some(adapter), Some(module)) => {
                adapter.get_alternative_param_name(leaf, module).map(|alt| {
                    if prefix.is_empty() {
                        alt
                    } else {
                        format!("{prefix}.{alt}")
                    }
                })
            }
            _ => None,
        };
        let source = if self.tensors.contains_key(&path) {
            Some(path.clone())
        } else {
            alternative.filter(|alt| self.tensors.contains_key(alt))
        };

        if let Some(filter) = &self.filter
            && !filter.matches_with_container(&path, &containers)
        {
            // Left out on purpose: neither missing nor, if present, unused.
            if let Some(source) = source {
                self.consumed.insert(source);
            }
            self.result.skipped.push(path);
            return None;
        }
        let Some(source) = source else {
            self.result.missing.push((path, containers));
            return None;
        };
        self.consumed.insert(source.clone());
        let tensor = self.tensors[&source].clone().with_name(path.clone());
        let tensor = match &self.adapter {
            Some(adapter) => {
                adapter.adapt(tensor, self.position.context().with_target(shape, dtype))
            }
            None => tensor,
        };

        let found = tensor.dtype();
        if !kind.accepts(found) {
            self.result.errors.push(ApplyError::DTypeMismatch {
                path,
                expected: kind.name(),
                found,
            });
            return None;
        }
        if tensor.shape() != shape {
            self.result.errors.push(ApplyError::ShapeMismatch {
                path,
                expected: shape.to_vec(),
                found: tensor.shape().to_vec(),
            });
            return None;
        }
        if !device.supports_dtype(found) {
            self.result.errors.push(ApplyError::UnsupportedDType {
                path,
                dtype: found,
                device: device.to_string(),
            });
            return None;
        }
        let source_id = tensor.param_id();
        Some((tensor.with_name(path), source_id))
    }
}

impl ModuleMapper for Applier {
    fn enter_module(&mut self, name: &str, container_type: &str) {
        self.position.enter(name, container_type);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.position.exit();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        self.load(param, Kind::Float)
    }

    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        self.load(param, Kind::Int)
    }

    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        self.load(param, Kind::Bool)
    }
}

/// Takes the resident parameters of a device that hands over its buffers
/// (Flex) out of a module, leaving stand-ins, so that a load can overwrite
/// them in place: [`ModuleSnapshot::apply`](crate::ModuleSnapshot::apply)
/// maps a clone of the module (it holds it by `&mut`), whose parameters
/// share their buffers with the original; with the original replaced by
/// the stand-ins first, the stashed parameters hold the only handles (bar
/// clones a user holds, whose buffers a load then leaves alone).
///
/// A stand-in is a lazy parameter of the same id, shape and device whose
/// initializer panics naming it: it is read only if the load itself
/// panicked between taking the stash and putting the parameters back.
#[derive(Default)]
pub struct Stash {
    position: Position,
    params: Vec<Option<Box<dyn Any>>>,
}

impl Stash {
    /// A stash for a module whose paths skip enum variants or not (as the
    /// load's).
    pub fn new(skip_enum_variants: bool) -> Self {
        Self {
            position: Position::new(skip_enum_variants),
            params: Vec::new(),
        }
    }

    /// Whether any parameter was taken.
    pub fn is_empty(&self) -> bool {
        self.params.iter().all(Option::is_none)
    }

    fn take<const D: usize, K: TensorKind + 'static>(
        &mut self,
        param: Param<Tensor<D, K>>,
    ) -> Param<Tensor<D, K>>
    where
        Tensor<D, K>: Parameter,
    {
        if !param.is_initialized() || !param.device().hands_over_buffers() {
            self.params.push(None);
            return param;
        }
        let path = self.position.path();
        let stand_in = Param::uninitialized(
            param.id,
            move |_, _| {
                panic!("parameter `{path}`: its value was lost to a panic while a store loaded it")
            },
            param.device(),
            param.is_require_grad(),
            param.shape(),
        );
        self.params.push(Some(Box::new(param)));
        stand_in
    }
}

impl ModuleMapper for Stash {
    fn enter_module(&mut self, name: &str, container_type: &str) {
        self.position.enter(name, container_type);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.position.exit();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        self.take(param)
    }

    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        self.take(param)
    }

    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        self.take(param)
    }
}
