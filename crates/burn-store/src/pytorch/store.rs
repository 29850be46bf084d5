//! [`PytorchStore`]: loading `torch.save` files into modules.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use crate::options::{StoreOptions, store_builders};
use crate::tensor::Buffer;
use crate::{
    ApplyResult, ModuleAdapter, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, StoreError,
    StoreTensor,
};

/// Loads `torch.save` files (`.pt`, `.pth`; zip or legacy format) into
/// modules.
///
/// Defaults suited to PyTorch: [`PyTorchToBurnAdapter`] runs first (an
/// adapter given with `with_from_adapter` runs after it), module paths skip
/// enum variant names, and index gaps of `nn.Sequential` are closed
/// (`features.0`, `features.2` → `features.0`, `features.1`). Tensors are
/// views of the memory-mapped file, copied out one at a time as applied.
///
/// Saving is not supported: export with a
/// [`SafetensorsStore`](crate::SafetensorsStore) and
/// [`BurnToPyTorchAdapter`](crate::BurnToPyTorchAdapter), which PyTorch
/// reads with `safetensors.torch.load_file`.
///
/// ```no_run
/// use burn_store::{ModuleSnapshot, PytorchStore};
/// # use burn_core as burn;
/// # #[derive(burn::module::Module, Debug)] struct Net { fc: burn_nn::Linear }
/// # let mut model = Net { fc: burn_nn::LinearConfig::new(2, 2).init(&burn_tensor::Device::flex()) };
///
/// let mut store = PytorchStore::from_file("checkpoint.pt")
///     .with_top_level_key("model_state_dict")
///     .with_key_remapping(r"^backbone\.", "encoder.")
///     .allow_partial(true);
/// let result = model.load_from(&mut store)?;
/// println!("{result}");
/// # Ok::<(), burn_store::StoreError>(())
/// ```
pub struct PytorchStore {
    path: PathBuf,
    top_level_key: Option<String>,
    options: StoreOptions,
    cache: Option<BTreeMap<String, StoreTensor>>,
}

impl PytorchStore {
    /// A store reading the file at `path`.
    pub fn from_file(path: impl Into<PathBuf>) -> Self {
        let options = StoreOptions {
            skip_enum_variants: true,
            map_indices_contiguous: true,
            ..StoreOptions::default()
        };
        Self {
            path: path.into(),
            top_level_key: None,
            options,
            cache: None,
        }
    }

    /// Reads the tensors under this top-level key of the saved dict (a
    /// checkpoint's `"state_dict"`, `"model_state_dict"`, …).
    pub fn with_top_level_key(mut self, key: impl Into<String>) -> Self {
        self.top_level_key = Some(key.into());
        self.cache = None;
        self
    }

    store_builders!();

    fn origin(&self) -> String {
        self.path.display().to_string()
    }

    fn load_cache(&mut self) -> Result<&BTreeMap<String, StoreTensor>, StoreError> {
        if self.cache.is_none() {
            let buffer = Arc::new(Buffer::map_file(&self.path)?);
            let tensors = super::read(buffer, self.top_level_key.as_deref())?;
            self.cache = Some(self.options.prepare_source(tensors, &self.origin())?);
        }
        Ok(self.cache.as_ref().expect("filled above"))
    }
}

impl ModuleStore for PytorchStore {
    type Error = StoreError;

    fn collect_from<M: ModuleSnapshot>(&mut self, _module: &M) -> Result<(), Self::Error> {
        Err(StoreError::Unsupported(
            "PytorchStore only loads: export with SafetensorsStore and BurnToPyTorchAdapter",
        ))
    }

    fn apply_to<M: ModuleSnapshot>(&mut self, module: &mut M) -> Result<ApplyResult, Self::Error> {
        self.load_cache()?;
        let adapter: Box<dyn ModuleAdapter> = match self.options.from_adapter.clone() {
            Some(user) => Box::new(crate::ChainAdapter::new(
                PyTorchToBurnAdapter,
                BoxedAdapter(user),
            )),
            None => Box::new(PyTorchToBurnAdapter),
        };
        let tensors = self.cache.as_ref().expect("loaded above");
        self.options
            .apply_with(module, tensors, &self.origin(), Some(adapter))
    }

    fn get_tensor(&mut self, name: &str) -> Result<Option<&StoreTensor>, Self::Error> {
        Ok(self.load_cache()?.get(name))
    }

    fn get_all_tensors(&mut self) -> Result<&BTreeMap<String, StoreTensor>, Self::Error> {
        self.load_cache()
    }

    fn keys(&mut self) -> Result<Vec<String>, Self::Error> {
        Ok(self.load_cache()?.keys().cloned().collect())
    }
}

/// A boxed adapter as an adapter (to chain one given at run time).
#[derive(Clone)]
struct BoxedAdapter(Box<dyn ModuleAdapter>);

impl ModuleAdapter for BoxedAdapter {
    fn adapt(&self, tensor: StoreTensor, ctx: crate::ModuleContext<'_>) -> StoreTensor {
        self.0.adapt(tensor, ctx)
    }

    fn get_alternative_param_name(&self, param_name: &str, module_type: &str) -> Option<String> {
        self.0.get_alternative_param_name(param_name, module_type)
    }

    fn is_ignored_source(&self, param_name: &str, module_type: &str) -> bool {
        self.0.is_ignored_source(param_name, module_type)
    }

    fn clone_box(&self) -> Box<dyn ModuleAdapter> {
        Box::new(self.clone())
    }
}
