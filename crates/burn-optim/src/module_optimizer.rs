//! [`ModuleOptimizer`]: optimizers applied to a whole module.

use core::any::Any;
use std::boxed::Box;
use std::collections::HashMap;
use std::vec::Vec;

use burn_core::module::{Module, ModuleMapper, ModulePath, Param, ParamGroup, ParamId};
use burn_tensor::{Checkpointing, Device, Tensor};

use crate::optimizer::{DynOptimizer, ParamState};
use crate::{GradientClipping, GradientsParams, LearningRate, Optimizer};

/// One parameter group: which parameters, and how they are updated.
#[derive(Clone)]
struct Group {
    params: ParamGroup,
    optimizer: Box<dyn DynOptimizer>,
    clipping: Option<GradientClipping>,
}

/// Optimizes a module: walks its parameters, finds each one's gradient,
/// picks the optimizer of its group, keeps its state, and stores the
/// updated value.
///
/// Parameters belong to the first group added with
/// [`with_group`](Self::with_group) whose selection matches their id or
/// path, and otherwise to the default group made by [`new`](Self::new).
/// Groups may use different optimizers (Muon for matrices, AdamW for the
/// rest) and different clipping.
///
/// [`step`](Self::step) updates outside the autodiff graph: each value is
/// taken without its autodiff context, updated as a plain tensor, then
/// given its context back (with the checkpointing strategy it had) and
/// stored as a fresh `require_grad` leaf. Parameters that are not
/// trainable, or have no gradient, are left as they are.
///
/// State follows the parameter: it is moved to the parameter's device
/// when they differ, and it is keyed by [`ParamId`], so it survives module
/// moves and record loads. [`to_record`](Self::to_record) and
/// [`load_record`](Self::load_record) save and restore it.
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Module, Param, ParamGroup};
/// use burn::tensor::{Device, Tensor};
/// use burn_optim::{AdamWConfig, GradientsParams, MuonConfig};
///
/// #[derive(Module, Debug)]
/// struct Layer {
///     weight: Param<Tensor<2>>,
///     bias: Param<Tensor<1>>,
/// }
///
/// let device = Device::flex().autodiff();
/// let layer = Layer {
///     weight: Param::from_tensor(Tensor::ones([4, 3], &device)),
///     bias: Param::from_tensor(Tensor::zeros([3], &device)),
/// };
/// // Muon for the matrix, AdamW (the default group) for the bias.
/// let mut optimizer = AdamWConfig::new().init().with_group(
///     ParamGroup::subtree("weight"),
///     MuonConfig::new().build(),
///     None,
/// );
/// let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0, 4.0]], &device);
/// let loss = (x.matmul(layer.weight.val()) + layer.bias.val().unsqueeze()).sum();
/// let grads = GradientsParams::from_grads(loss.backward(), &layer);
/// let layer = optimizer.step(1e-2, layer, grads);
/// assert!(layer.weight.val().is_require_grad());
/// assert_eq!(optimizer.num_states(), 2);
/// ```
#[derive(Clone)]
pub struct ModuleOptimizer {
    default: Group,
    groups: Vec<Group>,
    states: HashMap<ParamId, ParamState>,
}

impl core::fmt::Debug for ModuleOptimizer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ModuleOptimizer")
            .field("groups", &(self.groups.len() + 1))
            .field("states", &self.states.len())
            .finish()
    }
}

impl ModuleOptimizer {
    /// Every parameter updated by `optimizer`, gradients not clipped.
    pub fn new(optimizer: impl Optimizer) -> Self {
        Self {
            default: Group {
                params: ParamGroup::all(),
                optimizer: Box::new(optimizer),
                clipping: None,
            },
            groups: Vec::new(),
            states: HashMap::new(),
        }
    }

    /// Clipping of the default group's gradients.
    pub fn with_grad_clipping(mut self, clipping: Option<GradientClipping>) -> Self {
        self.default.clipping = clipping;
        self
    }

    /// Adds a group: the parameters `params` selects (and no earlier group
    /// did) are updated by `optimizer`, their gradients clipped by
    /// `clipping`.
    pub fn with_group(
        mut self,
        params: ParamGroup,
        optimizer: impl Optimizer,
        clipping: Option<GradientClipping>,
    ) -> Self {
        self.groups.push(Group {
            params,
            optimizer: Box::new(optimizer),
            clipping,
        });
        self
    }

    /// One update of `module` with learning rate `lr`; gradients are taken
    /// from `grads` as they are used (those of other modules stay there).
    ///
    /// # Panics
    /// If a parameter's state was made by another group's optimizer, or a
    /// loaded record holds a state that does not fit its parameter (its
    /// rank, or the optimizer's fields).
    pub fn step<M: Module>(
        &mut self,
        lr: LearningRate,
        module: M,
        mut grads: GradientsParams,
    ) -> M {
        let mut mapper = StepMapper {
            optimizer: self,
            lr,
            grads: &mut grads,
            path: ModulePath::default(),
        };
        module.map(&mut mapper)
    }

    /// Whether parameter `id` has state.
    pub fn has_state(&self, id: ParamId) -> bool {
        self.states.contains_key(&id)
    }

    /// How many parameters have state.
    pub fn num_states(&self) -> usize {
        self.states.len()
    }

    /// Drops all state (momentum, moments, step counts), as for a fresh
    /// optimizer.
    pub fn reset(&mut self) {
        self.states.clear();
    }

    pub(crate) fn states(&self) -> &HashMap<ParamId, ParamState> {
        &self.states
    }

    pub(crate) fn set_states(&mut self, states: HashMap<ParamId, ParamState>) {
        self.states = states;
    }

    fn group_of(&self, id: &ParamId, path: &str) -> &Group {
        self.groups
            .iter()
            .find(|group| group.params.matches(id, path))
            .unwrap_or(&self.default)
    }

    /// The body of a step for one parameter, rank erased so it is compiled
    /// once rather than for every rank.
    fn update_erased(
        &mut self,
        id: ParamId,
        path: &str,
        lr: LearningRate,
        (rank, value, grad): (usize, Box<dyn Any>, Box<dyn Any>),
        device: &Device,
    ) -> Box<dyn Any> {
        let state = self.states.remove(&id);
        let group = self.group_of(&id, path);
        let (value, state) = group
            .optimizer
            .step_any(rank, lr, value, grad, state, device)
            .unwrap_or_else(|err| {
                panic!("optimizer step: the recorded state of parameter `{path}` ({id}): {err}")
            });
        if let Some(state) = state {
            self.states.insert(id, state);
        }
        value
    }

    fn update<const D: usize>(
        &mut self,
        id: ParamId,
        path: &str,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
    ) -> Tensor<D> {
        outside_graph(tensor, |value| {
            let device = value.device();
            let mut grad = grad.without_autodiff();
            if grad.device() != device {
                grad = grad.to_device(&device);
            }
            if let Some(clipping) = self.group_of(&id, path).clipping {
                grad = clipping.clip(grad);
            }
            let tensors: (usize, Box<dyn Any>, Box<dyn Any>) = (D, Box::new(value), Box::new(grad));
            let updated = self.update_erased(id, path, lr, tensors, &device);
            *updated
                .downcast::<Tensor<D>>()
                .expect("an optimizer returns a tensor of its input's rank")
        })
    }
}

/// Applies `update` to `tensor`'s value as a plain tensor (no graph is
/// recorded), then gives the result the autodiff context `tensor` had,
/// with the same checkpointing strategy. The caller stores it through
/// `Param::map`, which makes it a fresh `require_grad` leaf.
pub(crate) fn outside_graph<const D: usize>(
    tensor: Tensor<D>,
    update: impl FnOnce(Tensor<D>) -> Tensor<D>,
) -> Tensor<D> {
    let context: Option<Checkpointing> = tensor.is_autodiff().then(|| {
        tensor
            .device()
            .checkpointing()
            .unwrap_or(Checkpointing::None)
    });
    let updated = update(tensor.without_autodiff());
    match context {
        Some(checkpointing) => updated.autodiff_with_checkpointing(checkpointing),
        None => updated,
    }
}

struct StepMapper<'a> {
    optimizer: &'a mut ModuleOptimizer,
    lr: LearningRate,
    grads: &'a mut GradientsParams,
    path: ModulePath,
}

impl ModuleMapper for StepMapper<'_> {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        if !param.is_require_grad() {
            return param;
        }
        let Some(grad) = self.grads.remove::<D>(param.id) else {
            return param;
        };
        let id = param.id;
        let path = self.path.to_string();
        // `Param::map` re-applies the trainability: the updated value is
        // stored as a fresh `require_grad` leaf when it has a context.
        param.map(|tensor| self.optimizer.update(id, &path, self.lr, tensor, grad))
    }
}
