//! [`ModuleAdapter`]s: per-tensor transforms keyed on the module a tensor
//! belongs to, run while saving (module → file) or loading (file → module).
//!
//! - [`PyTorchToBurnAdapter`] / [`BurnToPyTorchAdapter`]: `nn.Linear`'s
//!   `[d_output, d_input]` weight against Burn's `[d_input, d_output]`, and
//!   the norms' `weight` / `bias` against Burn's `gamma` / `beta`.
//! - [`HalfPrecisionAdapter`], [`FloatCastAdapter`], [`ModuleDTypeAdapter`]:
//!   dtype casts (f32 ⇄ f16 per module type; to one dtype; to the dtype the
//!   module parameter has).
//! - [`ChainAdapter`] (or [`ModuleAdapter::chain`]): one after the other.
//!
//! Adapters compose transforms onto the tensor without reading it (see
//! [`StoreTensor`]); the data is read once, when it is applied or written.
//! Packed tensors that become several (PyTorch's `in_proj_weight`) are
//! handled before matching, by [`SplitAdapter`](crate::SplitAdapter).

use std::collections::BTreeSet;

use burn_std::DType;

use crate::StoreTensor;

/// Container names as `#[derive(Module)]` reports them.
mod names {
    pub const LINEAR: &str = "Struct:Linear";
    pub const BATCH_NORM: &str = "Struct:BatchNorm";
    pub const LAYER_NORM: &str = "Struct:LayerNorm";
    pub const GROUP_NORM: &str = "Struct:GroupNorm";
    pub const INSTANCE_NORM: &str = "Struct:InstanceNorm";
    pub const RMS_NORM: &str = "Struct:RmsNorm";
    pub const EMBEDDING: &str = "Struct:Embedding";
    pub const CONVS: [&str; 6] = [
        "Struct:Conv1d",
        "Struct:Conv2d",
        "Struct:Conv3d",
        "Struct:ConvTranspose1d",
        "Struct:ConvTranspose2d",
        "Struct:ConvTranspose3d",
    ];
}

/// Where in a module a tensor is: the containers around it and, when
/// loading, what the parameter it is going into expects.
#[derive(Clone, Copy)]
pub struct ModuleContext<'a> {
    container_stack: &'a [String],
    target: Option<Target<'a>>,
}

#[derive(Clone, Copy)]
struct Target<'a> {
    shape: &'a [usize],
    dtype: &'a dyn Fn() -> DType,
}

impl<'a> ModuleContext<'a> {
    /// The context of a tensor inside `container_stack`, outermost first
    /// (`["Struct:Model", "Vec", "Struct:Linear"]`).
    pub fn new(container_stack: &'a [String]) -> Self {
        Self {
            container_stack,
            target: None,
        }
    }

    /// The context of a tensor going into a parameter of `shape`, whose
    /// dtype `dtype()` gives (asked only by adapters that need it: it
    /// initializes a lazy parameter).
    pub fn with_target(self, shape: &'a [usize], dtype: &'a dyn Fn() -> DType) -> Self {
        Self {
            target: Some(Target { shape, dtype }),
            ..self
        }
    }

    /// The containers, outermost first.
    pub fn container_stack(&self) -> &'a [String] {
        self.container_stack
    }

    /// The innermost module type (`"Struct:Linear"`), skipping `Vec`, arrays
    /// and other wrappers.
    pub fn module_type(&self) -> Option<&'a str> {
        self.container_stack
            .iter()
            .rev()
            .find(|c| c.starts_with("Struct:") || c.starts_with("Enum:"))
            .map(String::as_str)
    }

    /// The shape of the parameter being loaded (`None` when saving).
    pub fn target_shape(&self) -> Option<&'a [usize]> {
        self.target.map(|t| t.shape)
    }

    /// The dtype of the parameter being loaded (`None` when saving). For a
    /// lazily initialized parameter this runs its initializer.
    pub fn target_dtype(&self) -> Option<DType> {
        self.target.map(|t| (t.dtype)())
    }
}

/// A transform of tensors between a module's layout and a file's.
pub trait ModuleAdapter: Send + Sync {
    /// Adapts `tensor`, named by its module path, found in the context
    /// `ctx`. May rename it (the next adapter of a chain sees the new name),
    /// change its layout or dtype; should compose rather than read (see
    /// [`StoreTensor::map_data`]).
    fn adapt(&self, tensor: StoreTensor, ctx: ModuleContext<'_>) -> StoreTensor;

    /// Another name to look for when loading a parameter called
    /// `param_name` of a module of type `module_type` finds no tensor under
    /// its own name (`"gamma"` of a `"Struct:BatchNorm"` → `"weight"`).
    fn get_alternative_param_name(&self, _param_name: &str, _module_type: &str) -> Option<String> {
        None
    }

    /// Whether a source tensor called `param_name` inside a module of type
    /// `module_type` has no counterpart in Burn by design (PyTorch's
    /// `BatchNorm.num_batches_tracked`): loading then lists it as skipped,
    /// not unused.
    fn is_ignored_source(&self, _param_name: &str, _module_type: &str) -> bool {
        false
    }

    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn ModuleAdapter>;

    /// `self`, then `next`.
    fn chain<A>(self, next: A) -> ChainAdapter
    where
        Self: Sized + 'static,
        A: ModuleAdapter + 'static,
    {
        ChainAdapter::new(self, next)
    }
}

impl Clone for Box<dyn ModuleAdapter> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Two adapters, one after the other.
#[derive(Clone)]
pub struct ChainAdapter {
    first: Box<dyn ModuleAdapter>,
    second: Box<dyn ModuleAdapter>,
}

impl ChainAdapter {
    /// `first`, then `second`.
    pub fn new(first: impl ModuleAdapter + 'static, second: impl ModuleAdapter + 'static) -> Self {
        Self {
            first: Box::new(first),
            second: Box::new(second),
        }
    }
}

impl ModuleAdapter for ChainAdapter {
    fn adapt(&self, tensor: StoreTensor, ctx: ModuleContext<'_>) -> StoreTensor {
        self.second.adapt(self.first.adapt(tensor, ctx), ctx)
    }

    /// The first adapter's alternative, or the second's.
    fn get_alternative_param_name(&self, param_name: &str, module_type: &str) -> Option<String> {
        self.first
            .get_alternative_param_name(param_name, module_type)
            .or_else(|| {
                self.second
                    .get_alternative_param_name(param_name, module_type)
            })
    }

    fn is_ignored_source(&self, param_name: &str, module_type: &str) -> bool {
        self.first.is_ignored_source(param_name, module_type)
            || self.second.is_ignored_source(param_name, module_type)
    }

    fn clone_box(&self) -> Box<dyn ModuleAdapter> {
        Box::new(self.clone())
    }
}

/// Changes nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct IdentityAdapter;

impl ModuleAdapter for IdentityAdapter {
    fn adapt(&self, tensor: StoreTensor, _ctx: ModuleContext<'_>) -> StoreTensor {
        tensor
    }

    fn clone_box(&self) -> Box<dyn ModuleAdapter> {
        Box::new(*self)
    }
}

fn is_norm(module_type: &str) -> bool {
    matches!(
        module_type,
        names::BATCH_NORM
            | names::LAYER_NORM
            | names::GROUP_NORM
            | names::INSTANCE_NORM
            | names::RMS_NORM
    )
}

/// The last segment of a name: the parameter's own name.
fn leaf(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

fn rename_leaf(tensor: StoreTensor, new_leaf: &str) -> StoreTensor {
    let name = tensor.name();
    let new = match name.rfind('.') {
        Some(dot) => format!("{}.{new_leaf}", &name[..dot]),
        None => new_leaf.to_owned(),
    };
    tensor.with_name(new)
}

/// Loads PyTorch weights into Burn's layouts:
///
/// - `nn.Linear.weight` `[d_output, d_input]` is transposed to Burn's
///   `[d_input, d_output]` (free for a tensor read from a file: the view's
///   strides swap, and the one copy made when it is applied transposes).
///   Burn's `LinearLayout::Col` keeps PyTorch's layout; load such layers
///   without this adapter.
/// - `BatchNorm`, `LayerNorm`, `GroupNorm`, `InstanceNorm`, `RmsNorm`: Burn's
///   `gamma` / `beta` are found under PyTorch's `weight` / `bias`;
///   `running_mean` and `running_var` share their names.
/// - `BatchNorm.num_batches_tracked` has no Burn counterpart and is listed
///   as skipped.
///
/// [`PytorchStore`](crate::PytorchStore) applies it by default; give it to a
/// [`SafetensorsStore`](crate::SafetensorsStore) for files exported from
/// PyTorch.
#[derive(Clone, Copy, Debug, Default)]
pub struct PyTorchToBurnAdapter;

impl ModuleAdapter for PyTorchToBurnAdapter {
    fn adapt(&self, tensor: StoreTensor, ctx: ModuleContext<'_>) -> StoreTensor {
        match ctx.module_type() {
            Some(names::LINEAR) if leaf(tensor.name()) == "weight" && tensor.shape().len() == 2 => {
                tensor.transpose()
            }
            _ => tensor,
        }
    }

    fn get_alternative_param_name(&self, param_name: &str, module_type: &str) -> Option<String> {
        if !is_norm(module_type) {
            return None;
        }
        match param_name {
            "gamma" => Some("weight".into()),
            "beta" => Some("bias".into()),
            _ => None,
        }
    }

    fn is_ignored_source(&self, param_name: &str, module_type: &str) -> bool {
        module_type == names::BATCH_NORM && param_name == "num_batches_tracked"
    }

    fn clone_box(&self) -> Box<dyn ModuleAdapter> {
        Box::new(*self)
    }
}

/// Saves Burn modules in PyTorch's layouts and names, so that
/// `model.load_state_dict(...)` takes the file: `Linear` weights
/// transposed to `[d_output, d_input]`, the norms' `gamma` / `beta` named
/// `weight` / `bias`. The inverse of [`PyTorchToBurnAdapter`].
#[derive(Clone, Copy, Debug, Default)]
pub struct BurnToPyTorchAdapter;

impl ModuleAdapter for BurnToPyTorchAdapter {
    fn adapt(&self, tensor: StoreTensor, ctx: ModuleContext<'_>) -> StoreTensor {
        match ctx.module_type() {
            Some(names::LINEAR) if leaf(tensor.name()) == "weight" && tensor.shape().len() == 2 => {
                tensor.transpose()
            }
            Some(module) if is_norm(module) => match leaf(tensor.name()) {
                "gamma" => rename_leaf(tensor, "weight"),
                "beta" => rename_leaf(tensor, "bias"),
                _ => tensor,
            },
            _ => tensor,
        }
    }

    fn clone_box(&self) -> Box<dyn ModuleAdapter> {
        Box::new(*self)
    }
}

/// Stores float weights in half precision: f32 tensors become f16, and f16
/// tensors become f32, so one adapter serves saving (`with_to_adapter`) and
/// loading (`with_from_adapter`). Other dtypes pass through.
///
/// Only tensors of the listed module types are cast: by default `Linear`,
/// `Embedding`, the convolutions and the norms except `BatchNorm`, whose
/// running variance can underflow in f16.
///
/// ```
/// use burn_store::HalfPrecisionAdapter;
///
/// let adapter = HalfPrecisionAdapter::new().without_module("LayerNorm").with_module("MyLayer");
/// assert!(adapter.converts("Struct:MyLayer") && !adapter.converts("Struct:LayerNorm"));
/// ```
#[derive(Clone, Debug)]
pub struct HalfPrecisionAdapter {
    modules: BTreeSet<String>,
}

impl Default for HalfPrecisionAdapter {
    fn default() -> Self {
        Self::new()
    }
}

impl HalfPrecisionAdapter {
    /// The default module types (see the type's docs).
    pub fn new() -> Self {
        let mut modules: BTreeSet<String> = [
            names::LINEAR,
            names::EMBEDDING,
            names::LAYER_NORM,
            names::GROUP_NORM,
            names::INSTANCE_NORM,
            names::RMS_NORM,
        ]
        .into_iter()
        .map(String::from)
        .collect();
        modules.extend(names::CONVS.iter().map(|s| s.to_string()));
        Self { modules }
    }

    /// Also converts tensors of modules of type `module_type` (`"MyLayer"`
    /// or `"Struct:MyLayer"`).
    pub fn with_module(mut self, module_type: impl AsRef<str>) -> Self {
        self.modules.insert(qualified(module_type.as_ref()));
        self
    }

    /// Leaves tensors of modules of type `module_type` as they are.
    pub fn without_module(mut self, module_type: impl AsRef<str>) -> Self {
        self.modules.remove(&qualified(module_type.as_ref()));
        self
    }

    /// Whether tensors of `module_type` (`"Struct:Linear"`) are converted.
    pub fn converts(&self, module_type: &str) -> bool {
        self.modules.contains(module_type)
    }
}

fn qualified(module_type: &str) -> String {
    if module_type.starts_with("Struct:") || module_type.starts_with("Enum:") {
        module_type.to_owned()
    } else {
        format!("Struct:{module_type}")
    }
}

impl ModuleAdapter for HalfPrecisionAdapter {
    fn adapt(&self, tensor: StoreTensor, ctx: ModuleContext<'_>) -> StoreTensor {
        if !ctx.module_type().is_some_and(|m| self.converts(m)) {
            return tensor;
        }
        match tensor.dtype() {
            DType::F32 => tensor.cast(DType::F16),
            DType::F16 => tensor.cast(DType::F32),
            _ => tensor,
        }
    }

    fn clone_box(&self) -> Box<dyn ModuleAdapter> {
        Box::new(self.clone())
    }
}

/// Casts every float tensor to one dtype (ints and bools pass through).
#[derive(Clone, Copy, Debug)]
pub struct FloatCastAdapter {
    target: DType,
}

impl FloatCastAdapter {
    /// Casts float tensors to `target`.
    ///
    /// # Panics
    /// If `target` is not a float dtype.
    pub fn to(target: DType) -> Self {
        assert!(
            target.is_float(),
            "FloatCastAdapter::to: {target:?} is not a float dtype"
        );
        Self { target }
    }
}

impl ModuleAdapter for FloatCastAdapter {
    fn adapt(&self, tensor: StoreTensor, _ctx: ModuleContext<'_>) -> StoreTensor {
        if tensor.dtype().is_float() {
            tensor.cast(self.target)
        } else {
            tensor
        }
    }

    fn clone_box(&self) -> Box<dyn ModuleAdapter> {
        Box::new(*self)
    }
}

/// When loading, casts each tensor to the dtype of the parameter it goes
/// into, within its kind (a float tensor to the float parameter's dtype,
/// an int tensor to the int parameter's): an f16 or f64 checkpoint loads
/// into an f32 module as f32. Without it a parameter takes the file's
/// dtype. Asking a lazily initialized parameter for its dtype runs its
/// initializer, one tensor at a time. Does nothing when saving.
#[derive(Clone, Copy, Debug, Default)]
pub struct ModuleDTypeAdapter;

impl ModuleAdapter for ModuleDTypeAdapter {
    fn adapt(&self, tensor: StoreTensor, ctx: ModuleContext<'_>) -> StoreTensor {
        let Some(target) = ctx.target_dtype() else {
            return tensor;
        };
        let source = tensor.dtype();
        let same_kind = (source.is_float() && target.is_float())
            || (source.is_int() && target.is_int())
            || (source.is_bool() && target.is_bool());
        if same_kind {
            tensor.cast(target)
        } else {
            tensor
        }
    }

    fn clone_box(&self) -> Box<dyn ModuleAdapter> {
        Box::new(*self)
    }
}
