//! The [`Module`] trait and the traversal hooks, [`ModuleVisitor`] and
//! [`ModuleMapper`].

use std::path::Path;
use std::vec::Vec;

use burn_tensor::{Bool, Device, Int, Tensor};

use super::param::reparameterization::{ApplyReparameterization, Materialize};
use super::quantize::{QuantizeWeights, Quantizer};
use super::training::{Trainability, Training, Validation};
use super::{Flag, Lora, ModulePath, Param, ParamGroup, Reparameterizer};
use crate::record::{self, ModuleRecord, RecordError};

/// The devices of a module's parameters, without duplicates.
pub type Devices = Vec<Device>;

/// A tree of parameters: layers, models, and the containers and constants
/// they are built from.
///
/// Derive it (`#[derive(Module, Debug)]`); the derive writes the five
/// methods that need to see fields (`visit`, `map`, `collect_devices`,
/// `to_device`, `fork`), and everything else here is built on `visit` and
/// `map`. A module declares no forward pass; its type is the same for
/// training and validation, and needs no backend type parameter.
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Module, Param};
/// use burn::tensor::{Device, Tensor};
///
/// #[derive(Module, Debug)]
/// struct Affine {
///     weight: Param<Tensor<2>>,
///     bias: Option<Param<Tensor<1>>>,
///     scale: f32, // a constant: carried along, never recorded
/// }
///
/// let device = Device::flex();
/// let affine = Affine {
///     weight: Param::from_tensor(Tensor::ones([3, 2], &device)),
///     bias: Some(Param::from_tensor(Tensor::zeros([2], &device))),
///     scale: 0.5,
/// };
/// assert_eq!(affine.num_params(), 8);
///
/// let record = affine.clone().into_record();
/// let paths: Vec<&str> = record.entries().iter().map(|e| e.path.as_str()).collect();
/// assert_eq!(paths, ["weight", "bias"]);
/// ```
pub trait Module: Clone + Send + core::fmt::Debug {
    /// Shows every parameter to `visitor`, announcing each field with
    /// `enter_module` / `exit_module` so the visitor can track paths.
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V);

    /// Rebuilds the module with every parameter passed through `mapper`,
    /// with the same path announcements as [`visit`](Module::visit).
    fn map<M: ModuleMapper>(self, mapper: &mut M) -> Self;

    /// Adds the devices of the parameters (and constant tensors) to
    /// `devices`, skipping those already there.
    fn collect_devices(&self, devices: Devices) -> Devices;

    /// Moves every parameter and constant tensor to `device`.
    ///
    /// A tracked float parameter keeps its autodiff context and the move is
    /// recorded, so the result is an intermediate of the graph, not a set of
    /// leaves to optimize: use [`fork`](Module::fork) for that. Lazy
    /// parameters move without being initialized.
    fn to_device(self, device: &Device) -> Self;

    /// Moves the module to `device` as a fresh set of leaves: like
    /// [`to_device`](Module::to_device), then each float parameter is cut
    /// from the graph and marked `require_grad` again if trainable.
    fn fork(self, device: &Device) -> Self;

    /// The distinct devices of the parameters and constant tensors.
    fn devices(&self) -> Devices {
        self.collect_devices(Devices::new())
    }

    /// The number of float parameter elements (int and bool parameters are
    /// state, not weights, and are not counted). Lazy parameters are
    /// counted from their shape, without being initialized.
    fn num_params(&self) -> usize {
        let mut counter = ParamCounter(0);
        self.visit(&mut counter);
        counter.0
    }

    /// Back to training: every float parameter gets an autodiff context
    /// (keeping one it has) and its trainability re-applied, so trainable
    /// ones are `require_grad` leaves; every flag returns to its configured
    /// value. Does not undo [`freeze`](Module::freeze) or
    /// [`no_grad`](Module::no_grad). Without the `autodiff` feature only the
    /// flags change.
    fn train(self) -> Self {
        self.map(&mut Training)
    }

    /// Folds every reparameterization (LoRA adapter) into its parameter:
    /// the stored value becomes [`Param::val`], cut from the graph, with
    /// the base's trainability (a LoRA base is frozen), and nothing stays
    /// attached. Other parameters and flags are unchanged; lazy parameters
    /// without a reparameterization stay lazy. `model.valid()` folds too.
    fn materialize(self) -> Self {
        self.map(&mut Materialize)
    }

    /// Attaches what `reparameterizer` decides to each float parameter
    /// (see [`Reparameterizer`]); [`apply_lora`](Module::apply_lora) is the
    /// common case.
    fn apply_reparameterization<R: Reparameterizer>(self, reparameterizer: R) -> Self {
        self.map(&mut ApplyReparameterization::new(reparameterizer))
    }

    /// Freezes every float parameter and attaches a trainable LoRA adapter
    /// to each 2-D one `lora` selects (see [`Lora`]): the model then
    /// computes with `W + scale·A·B` and trains only `A` and `B`.
    fn apply_lora(self, lora: Lora) -> Self {
        self.apply_reparameterization(lora)
    }

    /// Makes every float parameter not trainable, persistently (through
    /// `valid()` / `train()` round trips), leaving flags as they are.
    fn no_grad(self) -> Self {
        self.map(&mut Trainability::gradients(false))
    }

    /// Makes every float parameter not trainable and turns every flag off,
    /// both persistently: a frozen dropout stops dropping.
    fn freeze(self) -> Self {
        self.map(&mut Trainability::all(false, None))
    }

    /// Makes every float parameter trainable and turns every flag on.
    fn unfreeze(self) -> Self {
        self.map(&mut Trainability::all(true, None))
    }

    /// Quantizes the float parameters of the quantizer's group (all by
    /// default) with its calibration and scheme (see [`Quantizer`]). The
    /// quantized parameters are constants: they take no gradient.
    fn quantize_weights(self, quantizer: &mut Quantizer) -> Self {
        let group = quantizer.group.clone();
        self.quantize_weights_group(quantizer, group)
    }

    /// [`quantize_weights`](Module::quantize_weights) for the parameters of
    /// `group` (by id or path).
    fn quantize_weights_group(self, quantizer: &mut Quantizer, group: ParamGroup) -> Self {
        self.map(&mut QuantizeWeights {
            quantizer,
            group: &group,
            path: ModulePath::default(),
        })
    }

    /// [`freeze`](Module::freeze) for the parameters and flags of `group`
    /// (by id or path, e.g. [`ParamGroup::subtree`]`("encoder")`).
    fn freeze_group(self, group: &ParamGroup) -> Self {
        self.map(&mut Trainability::all(false, Some(group)))
    }

    /// [`unfreeze`](Module::unfreeze) for the parameters and flags of `group`.
    fn unfreeze_group(self, group: &ParamGroup) -> Self {
        self.map(&mut Trainability::all(true, Some(group)))
    }

    /// The module's parameters as a record: each float, int and bool
    /// parameter's path, id and data, in traversal order. Flags and
    /// constants are not recorded. Lazy parameters are initialized.
    fn into_record(self) -> ModuleRecord {
        let mut collector = record::Collector::default();
        self.visit(&mut collector);
        collector.into_record()
    }

    /// Loads `record` into the module (see [`try_load_record`](Module::try_load_record)).
    ///
    /// # Panics
    /// If the record does not fit the module.
    fn load_record(self, record: ModuleRecord) -> Self {
        self.try_load_record(record)
            .unwrap_or_else(|err| panic!("load_record: {err}"))
    }

    /// Loads `record` into the module: each parameter takes the tensor and
    /// the [`ParamId`](super::ParamId) recorded under its path, on the
    /// device the parameter is on, keeping its trainability. The record's
    /// options decide what is tolerated (missing or unused tensors, shape
    /// mismatches) and which dtype the parameter gets; see
    /// [`ModuleRecord`]. Lazy parameters are replaced without being
    /// initialized (unless the dtype policy needs their dtype).
    fn try_load_record(self, record: ModuleRecord) -> Result<Self, RecordError> {
        let mut loader = record::Loader::new(record);
        let module = self.map(&mut loader);
        loader.finish().map(|()| module)
    }

    /// Saves the parameters to the burnpack file at `path` (`.bpk` added
    /// when `path` has no extension), streaming: the file holds what
    /// [`into_record`](Module::into_record) would record (same paths, ids,
    /// order and bytes), but no record is built. Each parameter is read
    /// back to the host only when the writer reaches it and dropped before
    /// the next, so saving holds about one tensor of host memory at a time,
    /// where `into_record().save(path)` holds a copy of every parameter.
    ///
    /// The file is replaced only once the new one is complete, as with
    /// [`ModuleRecord::save`]; a failed read-back leaves `path` untouched.
    /// Lazy parameters are initialized.
    ///
    /// ```
    /// use burn_core as burn;
    /// use burn::module::{Module, Param};
    /// use burn::tensor::{Device, Tensor};
    ///
    /// #[derive(Module, Debug)]
    /// struct Scale {
    ///     weight: Param<Tensor<1>>,
    /// }
    ///
    /// let device = Device::flex();
    /// let model = Scale { weight: Param::from_tensor(Tensor::from_data([2.0, 3.0], &device)) };
    ///
    /// let dir = std::env::temp_dir().join(format!("burn-core-save-file-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// model.save_file(dir.join("scale"))?; // writes scale.bpk
    ///
    /// let fresh = Scale { weight: Param::from_tensor(Tensor::zeros([2], &device)) };
    /// let loaded = fresh.try_load_file(dir.join("scale"))?;
    /// assert_eq!(loaded.weight.val().into_data().to_vec::<f32>()?, [2.0, 3.0]);
    /// assert_eq!(loaded.weight.id, model.weight.id);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn save_file(&self, path: impl AsRef<Path>) -> Result<(), RecordError> {
        record::save_module(self, path.as_ref())
    }

    /// Loads the parameters saved at `path` (see
    /// [`try_load_file`](Module::try_load_file)).
    ///
    /// # Panics
    /// If the file cannot be read or does not fit the module.
    fn load_file(self, path: impl AsRef<Path>) -> Self {
        self.try_load_file(path)
            .unwrap_or_else(|err| panic!("load_file: {err}"))
    }

    /// Loads the parameters saved at `path` (`.bpk` added when `path` has
    /// no extension) with the default load options:
    /// [`ModuleRecord::load`] then [`try_load_record`](Module::try_load_record).
    /// Go through the record to load partially, without validation or with
    /// another dtype policy.
    fn try_load_file(self, path: impl AsRef<Path>) -> Result<Self, RecordError> {
        let record = ModuleRecord::load(path)?;
        self.try_load_record(record)
    }
}

/// The validation side of a module, as Burn's `AutodiffModule`: every
/// [`Module`] is one (a blanket implementation), so `model.valid()` works
/// wherever this trait is in scope (it is in `burn::prelude`). With one
/// tensor type for every backend, the validation module has the same type
/// as the training one: [`valid`](AutodiffModule::valid) returns `Self`.
pub trait AutodiffModule: Module {
    /// A validation snapshot: every float parameter without autodiff
    /// context (so no graph is recorded, and checkpointing strategies are
    /// dropped) and every flag off (dropout does not drop). Trainability
    /// settings are kept, so [`train`](Module::train) on the snapshot
    /// restores them. Reparameterizations (LoRA adapters) are folded into
    /// the values, so the snapshot computes with plain weights;
    /// [`train`](Module::train) does not bring them back. Keep the
    /// training module and validate with its snapshot; lazy parameters are
    /// initialized.
    fn valid(&self) -> Self {
        self.clone().map(&mut Validation)
    }

    /// Back from a [`valid`](AutodiffModule::valid) snapshot to a module
    /// that records gradients: [`Module::train`] (trainable float
    /// parameters become `require_grad` leaves again, flags return to
    /// their configured values).
    fn from_inner(module: Self) -> Self {
        module.train()
    }
}

impl<M: Module> AutodiffModule for M {}

/// Reads a module's parameters (see [`Module::visit`]).
///
/// Every hook does nothing by default; implement those you need.
/// `enter_module(name, container_type)` is called before each field,
/// element or variant is traversed, with its path segment (a field name, an
/// index, a variant name) and a description of what holds it
/// (`"Struct:Linear"`, `"Vec"`, `"Enum:Block"`, …); `exit_module` after.
/// [`ModulePath`](super::ModulePath) turns these calls into paths.
pub trait ModuleVisitor {
    /// Called before traversing the field, element or variant `name`.
    fn enter_module(&mut self, _name: &str, _container_type: &str) {}
    /// Called after traversing the field, element or variant `name`.
    fn exit_module(&mut self, _name: &str, _container_type: &str) {}
    /// A float tensor parameter.
    fn visit_float<const D: usize>(&mut self, _param: &Param<Tensor<D>>) {}
    /// An int tensor parameter.
    fn visit_int<const D: usize>(&mut self, _param: &Param<Tensor<D, Int>>) {}
    /// A bool tensor parameter.
    fn visit_bool<const D: usize>(&mut self, _param: &Param<Tensor<D, Bool>>) {}
    /// A control flag.
    fn visit_flag(&mut self, _param: &Param<Flag>) {}
}

/// Transforms a module's parameters (see [`Module::map`]).
///
/// Every hook returns its parameter unchanged by default; the path hooks
/// are those of [`ModuleVisitor`].
pub trait ModuleMapper {
    /// Whether a float parameter with a reparameterization attached (a
    /// LoRA adapter) reaches [`map_float`](Self::map_float) folded: its
    /// effective value stored, nothing attached, as `valid()` and
    /// [`Module::materialize`] want. By default (`false`) `map_float`
    /// receives the stored base and the attached module's parameters are
    /// mapped after it, under the attachment's name (`weight.lora.a`).
    fn folds_reparameterizations(&self) -> bool {
        false
    }
    /// Called before traversing the field, element or variant `name`.
    fn enter_module(&mut self, _name: &str, _container_type: &str) {}
    /// Called after traversing the field, element or variant `name`.
    fn exit_module(&mut self, _name: &str, _container_type: &str) {}
    /// A float tensor parameter.
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param
    }
    /// An int tensor parameter.
    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        param
    }
    /// A bool tensor parameter.
    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        param
    }
    /// A control flag.
    fn map_flag(&mut self, param: Param<Flag>) -> Param<Flag> {
        param
    }
}

struct ParamCounter(usize);

impl ModuleVisitor for ParamCounter {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0 += param.shape().num_elements();
    }
}
