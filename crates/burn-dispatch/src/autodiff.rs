//! The autodiff context through dispatch.
//!
//! A float `DispatchTensor` carries an autodiff context when it is the
//! `Autodiff` variant, and a `DispatchDevice` when it is the `Autodiff`
//! variant; the context holds the checkpointing strategy. The code generated
//! by `#[backend_dispatch]` asks this module whether an op's operands carry
//! a context ([`tensor_mode`], [`device_mode`], [`merge`]) and, if so, runs
//! the op on `burn_autodiff::Autodiff<Dispatch, C>` after converting the
//! operands ([`float_in`], [`device_in`], …) and wraps the results back
//! ([`float_out`], [`device_out`]). The value inside an autodiff tensor is
//! always a plain `DispatchTensor`, so `Autodiff<Dispatch, C>` computes on
//! whichever backend holds it: one autodiff instantiation serves the whole
//! catalog.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::vec::Vec;

use burn_autodiff::Gradients;

/// The autodiff backend and its strategies, as the generated routes name
/// them, and what a backend extension's handwritten backward pass uses.
pub use burn_autodiff::{
    Autodiff, AutodiffTensor, Backward, BalancedCheckpointing, CheckpointStrategy, Checkpointed,
    Checkpointing, NoCheckpointing, NodeGuard, ParentGrads, Prepared,
};
use burn_backend::{AutodiffBackend, BackwardError};

use crate::{Dispatch, DispatchDevice, DispatchTensor};

/// The strategy of `tensor`'s autodiff context, if it carries one.
pub fn tensor_mode(tensor: &DispatchTensor) -> Option<Checkpointing> {
    match tensor {
        DispatchTensor::Autodiff(tensor) => Some(tensor.checkpointing()),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// The strategy of `device`'s autodiff context, if it carries one.
pub fn device_mode(device: &DispatchDevice) -> Option<Checkpointing> {
    device.checkpointing()
}

/// Folds one operand's context into the op's.
///
/// # Panics
/// If two operands carry different checkpointing strategies.
#[track_caller]
pub fn merge(op: &str, acc: &mut Option<Checkpointing>, mode: Option<Checkpointing>) {
    match (*acc, mode) {
        (_, None) => {}
        (None, Some(mode)) => *acc = Some(mode),
        (Some(a), Some(b)) if a == b => {}
        (Some(a), Some(b)) => panic!(
            "{op}: autodiff operands use different checkpointing strategies ({a:?} and {b:?})"
        ),
    }
}

/// A float operand as an autodiff tensor: its own, or a constant.
pub fn float_in(tensor: DispatchTensor, mode: Checkpointing) -> AutodiffTensor<Dispatch> {
    match tensor {
        DispatchTensor::Autodiff(tensor) => *tensor,
        plain => AutodiffTensor::constant(plain, mode),
    }
}

/// A borrowed float operand as an autodiff tensor.
pub fn float_in_ref(
    tensor: &DispatchTensor,
    mode: Checkpointing,
) -> Cow<'_, AutodiffTensor<Dispatch>> {
    match tensor {
        DispatchTensor::Autodiff(tensor) => Cow::Borrowed(tensor),
        plain => Cow::Owned(AutodiffTensor::constant(plain.clone(), mode)),
    }
}

/// Float operands as autodiff tensors.
pub fn floats_in(
    tensors: Vec<DispatchTensor>,
    mode: Checkpointing,
) -> Vec<AutodiffTensor<Dispatch>> {
    tensors.into_iter().map(|t| float_in(t, mode)).collect()
}

/// The device without its autodiff context (`Autodiff<Dispatch, C>` runs on plain devices).
pub fn device_in(device: &DispatchDevice) -> &DispatchDevice {
    device.plain()
}

/// A float result: an autodiff tensor.
pub fn float_out(tensor: AutodiffTensor<Dispatch>) -> DispatchTensor {
    DispatchTensor::Autodiff(Box::new(tensor))
}

/// A device result of an autodiff op: the device with the context.
pub fn device_out(device: DispatchDevice, mode: Checkpointing) -> DispatchDevice {
    device.autodiff(mode)
}

/// `tensor` with an autodiff context of strategy `mode` (a constant if it
/// had none; unchanged if it had one).
pub fn enable(tensor: DispatchTensor, mode: Checkpointing) -> DispatchTensor {
    match tensor {
        DispatchTensor::Autodiff(_) => tensor,
        plain => float_out(AutodiffTensor::constant(plain, mode)),
    }
}

/// `tensor`'s value without any autodiff context.
pub fn disable(tensor: DispatchTensor) -> DispatchTensor {
    match tensor {
        DispatchTensor::Autodiff(tensor) => tensor.into_primitive(),
        plain => plain,
    }
}

/// Whether `tensor` is part of a graph (a gradient can flow to or through it).
pub fn is_tracked(tensor: &DispatchTensor) -> bool {
    match tensor {
        DispatchTensor::Autodiff(tensor) => tensor.is_tracked(),
        #[allow(unreachable_patterns)]
        _ => false,
    }
}

/// The gradients of one backward pass through dispatch.
pub type DispatchGradients = Gradients<Dispatch>;

impl AutodiffBackend for Dispatch {
    type InnerBackend = Dispatch;
    type Gradients = DispatchGradients;

    fn backward(tensor: DispatchTensor) -> Result<DispatchGradients, BackwardError> {
        match tensor {
            DispatchTensor::Autodiff(tensor) => {
                burn_autodiff::Autodiff::<Dispatch>::backward(*tensor)
            }
            #[allow(unreachable_patterns)]
            _ => Err(BackwardError::NotAutodiff),
        }
    }

    fn grad(tensor: &DispatchTensor, grads: &DispatchGradients) -> Option<DispatchTensor> {
        match tensor {
            DispatchTensor::Autodiff(tensor) => grads.get(tensor),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    fn grad_remove(
        tensor: &DispatchTensor,
        grads: &mut DispatchGradients,
    ) -> Option<DispatchTensor> {
        match tensor {
            DispatchTensor::Autodiff(tensor) => grads.remove(tensor),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    fn grad_replace(tensor: &DispatchTensor, grads: &mut DispatchGradients, grad: DispatchTensor) {
        if let DispatchTensor::Autodiff(tensor) = tensor {
            grads.replace(tensor, disable(grad));
        }
    }

    fn inner(tensor: DispatchTensor) -> DispatchTensor {
        disable(tensor)
    }

    fn from_inner(tensor: DispatchTensor) -> DispatchTensor {
        enable(tensor, Checkpointing::None)
    }
}
