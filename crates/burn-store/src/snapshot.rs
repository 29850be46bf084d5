//! [`ModuleSnapshot`] (what every module can do with a store) and
//! [`ModuleStore`] (what a store is).

use std::collections::BTreeMap;

use burn_core::module::Module;

use crate::traverse::{Applier, Collector, Stash};
use crate::{ApplyResult, ModuleAdapter, PathFilter, StoreTensor};

/// A module's tensors as a snapshot: collected lazily, applied by path.
/// Implemented for every [`Module`].
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Module, Param};
/// use burn_store::{ModuleSnapshot, PathFilter};
/// use burn_tensor::{Device, Tensor};
///
/// #[derive(Module, Debug)]
/// struct Affine {
///     weight: Param<Tensor<2>>,
///     bias: Param<Tensor<1>>,
/// }
///
/// let device = Device::flex();
/// let source = Affine {
///     weight: Param::from_tensor(Tensor::ones([2, 2], &device)),
///     bias: Param::from_tensor(Tensor::from_data([0.5, -0.5], &device)),
/// };
/// let tensors = source.collect(None, None, false); // nothing read yet
/// assert_eq!(tensors[1].name(), "bias");
///
/// let mut target = Affine {
///     weight: Param::from_tensor(Tensor::zeros([2, 2], &device)),
///     bias: Param::from_tensor(Tensor::zeros([2], &device)),
/// };
/// let result = target.apply(tensors, Some(PathFilter::new().with_full_path("bias")), None, false);
/// assert_eq!(result.applied, ["bias"]);
/// assert_eq!(result.skipped, ["weight"]);
/// assert_eq!(target.bias.val().into_data().to_vec::<f32>()?, [0.5, -0.5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ModuleSnapshot: Module {
    /// The tensor parameters `filter` passes, named by module path, each
    /// passed through `adapter`, in traversal order. Nothing is read: each
    /// tensor is read back from its device when its data is asked for.
    /// With `skip_enum_variants`, paths leave out enum variant names.
    fn collect(
        &self,
        filter: Option<PathFilter>,
        adapter: Option<Box<dyn ModuleAdapter>>,
        skip_enum_variants: bool,
    ) -> Vec<StoreTensor> {
        let mut collector = Collector::new(filter, adapter, skip_enum_variants);
        self.visit(&mut collector);
        collector.into_tensors()
    }

    /// Loads `tensors` into the parameters (those `filter` passes) named by
    /// their module paths, each passed through `adapter` first, and reports
    /// what happened. A parameter that takes no tensor keeps its value; one
    /// that does keeps its trainability, and takes the source's parameter
    /// id when the source has one (burnpack) and the tensor's dtype.
    ///
    /// The module is rebuilt from a clone (parameter clones are handles):
    /// a module whose parameters are still lazy, as a freshly built one's
    /// are, is never initialized, so loading holds the new parameters and
    /// one tensor being read. A resident parameter on a device whose
    /// tensors are buffers of this process (Flex) is overwritten in place,
    /// as PyTorch's `load_state_dict` copies into its parameters: no fresh
    /// allocation (whose pages the kernel would clear first) and no second
    /// copy held, unless a clone of its tensor is alive elsewhere, which
    /// then keeps its values. On a GPU, an initialized module's old
    /// parameters are released when the load completes.
    fn apply<T: Into<StoreTensor>>(
        &mut self,
        tensors: impl IntoIterator<Item = T>,
        filter: Option<PathFilter>,
        adapter: Option<Box<dyn ModuleAdapter>>,
        skip_enum_variants: bool,
    ) -> ApplyResult
    where
        Self: Sized,
    {
        let mut applier = Applier::new(tensors, filter, adapter, skip_enum_variants);
        let mut stash = Stash::new(skip_enum_variants);
        let hollow = self.clone().map(&mut stash);
        if !stash.is_empty() {
            // The old module's handles go; the stash holds the only ones.
            *self = hollow;
            applier = applier.with_stash(stash);
        }
        let module = self.clone();
        *self = module.map(&mut applier);
        applier.into_result()
    }

    /// Saves the module into `store`.
    fn save_into<P: ModuleStore>(&self, store: &mut P) -> Result<(), P::Error> {
        store.collect_from(self)
    }

    /// Loads the module from `store`, with the store's options.
    fn load_from<P: ModuleStore>(&mut self, store: &mut P) -> Result<ApplyResult, P::Error>
    where
        Self: Sized,
    {
        store.apply_to(self)
    }
}

impl<M: Module> ModuleSnapshot for M {}

/// A place tensors are saved to and loaded from: a file or a buffer in some
/// format, with options (filter, key remapping, adapters, strictness).
pub trait ModuleStore {
    /// Why saving or loading failed.
    type Error: core::fmt::Debug + core::fmt::Display;

    /// Writes `module`'s tensors.
    fn collect_from<M: ModuleSnapshot>(&mut self, module: &M) -> Result<(), Self::Error>;

    /// Loads the store's tensors into `module`.
    fn apply_to<M: ModuleSnapshot>(&mut self, module: &mut M) -> Result<ApplyResult, Self::Error>;

    /// The tensor stored under `name` (after key remapping), unread.
    fn get_tensor(&mut self, name: &str) -> Result<Option<&StoreTensor>, Self::Error>;

    /// Every stored tensor by name (after key remapping), unread.
    fn get_all_tensors(&mut self) -> Result<&BTreeMap<String, StoreTensor>, Self::Error>;

    /// The names of the stored tensors (after key remapping), sorted.
    fn keys(&mut self) -> Result<Vec<String>, Self::Error>;
}
