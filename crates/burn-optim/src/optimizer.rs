//! [`Optimizer`]: the update rule for one tensor, and its type erasure.
//!
//! An optimizer is written once, generic over the tensor's rank. A
//! [`ModuleOptimizer`](crate::ModuleOptimizer) holds several of them (one
//! per parameter group) behind `dyn`, so the erased form lives here: each
//! rank from 1 to [`MAX_RANK`] is matched at run time and the generic
//! `step` is called with the rank as a constant.

use core::any::Any;
use std::boxed::Box;

use burn_tensor::{Device, Tensor};

use crate::{OptimError, RecordState, StateFields};

/// A learning rate.
pub type LearningRate = f64;

/// The highest parameter rank the erased optimizers handle.
pub const MAX_RANK: usize = 8;

/// Updates one tensor from its gradient and its optional state.
///
/// `step` is called outside the autodiff graph, with the parameter's value
/// and gradient as plain tensors on the same device, and `state` as the
/// previous call returned it (`None` on the first step). It returns the new
/// value and the state to keep.
pub trait Optimizer: Clone + Send + Sync + 'static {
    /// The per-parameter state of a rank-`D` parameter.
    type State<const D: usize>: Clone + RecordState + Send + 'static;

    /// One update of `tensor` with learning rate `lr`.
    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<Self::State<D>>,
    ) -> (Tensor<D>, Option<Self::State<D>>);
}

/// A per-parameter state whose type is known only to the optimizer that
/// made it.
pub(crate) trait AnyState: Send {
    fn save(&self, name: &str, fields: &mut StateFields);
    fn moved(self: Box<Self>, device: &Device) -> Box<dyn AnyState>;
    fn clone_box(&self) -> Box<dyn AnyState>;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<T: RecordState + Clone + Send + 'static> AnyState for T {
    fn save(&self, name: &str, fields: &mut StateFields) {
        self.save_fields(name, fields);
    }

    fn moved(self: Box<Self>, device: &Device) -> Box<dyn AnyState> {
        Box::new((*self).to_device(device))
    }

    fn clone_box(&self) -> Box<dyn AnyState> {
        Box::new(self.clone())
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// What a parameter's state is between steps.
pub(crate) enum ParamState {
    /// Made by a step: the optimizer's own type, on `device`.
    Live {
        state: Box<dyn AnyState>,
        rank: usize,
        device: Device,
    },
    /// Loaded from a record: rebuilt, on the parameter's device, by the next
    /// step that reaches the parameter (which knows the rank and the type).
    Recorded { rank: usize, fields: StateFields },
}

impl Clone for ParamState {
    fn clone(&self) -> Self {
        match self {
            Self::Live {
                state,
                rank,
                device,
            } => Self::Live {
                state: state.clone_box(),
                rank: *rank,
                device: device.clone(),
            },
            Self::Recorded { rank, fields } => Self::Recorded {
                rank: *rank,
                fields: fields.clone(),
            },
        }
    }
}

/// An [`Optimizer`] behind `dyn`: tensors travel as `Box<dyn Any>` holding
/// a `Tensor<D>` whose rank is passed beside it.
pub(crate) trait DynOptimizer: Send + Sync {
    fn step_any(
        &self,
        rank: usize,
        lr: LearningRate,
        tensor: Box<dyn Any>,
        grad: Box<dyn Any>,
        state: Option<ParamState>,
        device: &Device,
    ) -> Result<(Box<dyn Any>, Option<ParamState>), OptimError>;

    fn clone_box(&self) -> Box<dyn DynOptimizer>;
}

impl Clone for Box<dyn DynOptimizer> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl<O: Optimizer> DynOptimizer for O {
    fn step_any(
        &self,
        rank: usize,
        lr: LearningRate,
        tensor: Box<dyn Any>,
        grad: Box<dyn Any>,
        state: Option<ParamState>,
        device: &Device,
    ) -> Result<(Box<dyn Any>, Option<ParamState>), OptimError> {
        macro_rules! by_rank {
            ($($d:literal)*) => {
                match rank {
                    $($d => step_rank::<O, $d>(self, lr, tensor, grad, state, device),)*
                    _ => panic!(
                        "optimizer step: parameters of rank {rank} are not supported \
                         (at most {MAX_RANK})"
                    ),
                }
            };
        }
        by_rank!(1 2 3 4 5 6 7 8)
    }

    fn clone_box(&self) -> Box<dyn DynOptimizer> {
        Box::new(self.clone())
    }
}

fn step_rank<O: Optimizer, const D: usize>(
    optimizer: &O,
    lr: LearningRate,
    tensor: Box<dyn Any>,
    grad: Box<dyn Any>,
    state: Option<ParamState>,
    device: &Device,
) -> Result<(Box<dyn Any>, Option<ParamState>), OptimError> {
    let tensor = *tensor
        .downcast::<Tensor<D>>()
        .expect("the rank passed beside a tensor is its own");
    let grad = *grad
        .downcast::<Tensor<D>>()
        .expect("the rank passed beside a gradient is its own");
    let state = match state {
        None => None,
        Some(ParamState::Live {
            state,
            device: state_device,
            ..
        }) => {
            let state = if &state_device == device {
                state
            } else {
                state.moved(device)
            };
            let state = state
                .into_any()
                .downcast::<O::State<D>>()
                .unwrap_or_else(|_| {
                    panic!(
                        "optimizer step: the parameter's state was made by another optimizer \
                     (did it move to another parameter group?)"
                    )
                });
            Some(*state)
        }
        Some(ParamState::Recorded { rank, mut fields }) => {
            if rank != D {
                return Err(OptimError::RankMismatch {
                    key: "__rank".into(),
                    expected: D,
                    found: rank,
                });
            }
            Some(O::State::<D>::load_fields("", &mut fields, device)?)
        }
    };
    let (tensor, state) = optimizer.step(lr, tensor, grad, state);
    let state = state.map(|state| ParamState::Live {
        state: Box::new(state),
        rank: D,
        device: device.clone(),
    });
    Ok((Box::new(tensor), state))
}
