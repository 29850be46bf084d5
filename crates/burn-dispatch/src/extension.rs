//! What the code `#[backend_extension]` generates in other crates names:
//! the dispatch types, the operand checks, the autodiff route and the
//! backend types an extension is implemented for. Reached by users through
//! the facade (`burn::backend::…`, `extension` feature); the generated code
//! goes through `burn::backend::extension`.
//!
//! Structs and enums of tensors (`#[derive(ExtensionType)]`) cross the
//! routing through two traits: [`ExtensionType::visit`] finds the routing
//! tensor and the autodiff contexts, [`ExtensionMap::map`] rebuilds the
//! value over the chosen backend (and back), one [`TensorMap`] per
//! direction written once here.

#[cfg(feature = "autodiff")]
pub use crate::autodiff;
pub use crate::backends;
pub use crate::routing;
pub use crate::{BackendTensor, Dispatch, DispatchDevice, DispatchTensor};

use burn_backend::{Backend, BoolTensor, Device, FloatTensor, IntTensor, QuantizedTensor};

use crate::routing::DispatchBackend;

pub use burn_backend::TensorMetadata;
/// The raw CubeCL backend, which an extension implements (`Cube`
/// selector); with the `fusion` feature dispatch holds it under
/// [`Fusion`].
#[cfg(feature = "cube")]
pub use burn_cubecl::CubeBackend as Cube;
/// Hand-written kernels (WGSL on WGPU, CUDA C++ on CUDA) for extensions on
/// the CubeCL backend (`template` feature).
#[cfg(all(feature = "template", feature = "cube"))]
pub use burn_cubecl::template;
/// What a Cube kernel of an extension is launched with: the tensor, its
/// device's client, the runtime-generic launch, and CubeCL itself.
#[cfg(feature = "cube")]
pub use burn_cubecl::{CubeClient, CubeLaunch, CubeTensor, cubecl, launch_dims};
/// The raw Flex backend, which an extension implements (`Flex` selector);
/// with the `fusion` feature dispatch holds it under [`Fusion`].
#[cfg(feature = "flex")]
pub use burn_flex::{Flex, FlexTensor};
/// The Fusion decorator that holds Flex and Cube with the `fusion` feature,
/// what it needs of the backend it decorates, and the recording of
/// extension ops on it (for the `Fusion` selector).
#[cfg(feature = "fusion")]
pub use burn_fusion::{Fusion, FusionBackend, TensorSpec, custom as fusion};
/// A backend tensor of any kind, as a recorded extension op's code takes
/// and returns them.
#[cfg(feature = "fusion")]
pub use burn_ir::Handle;

/// The panic of an extension op called on a backend it does not list.
#[cold]
#[track_caller]
pub fn unlisted(op: &str, listed: &str, tensor: &DispatchTensor) -> ! {
    let backend = holder(tensor);
    panic!(
        "{op}: this backend extension has no implementation for {backend} \
         (it lists {listed}); the tensor is on {}",
        tensor.device()
    )
}

/// As [`unlisted`], for an op routed by its device.
#[cold]
#[track_caller]
pub fn unlisted_device(op: &str, listed: &str, device: &DispatchDevice) -> ! {
    let backend = if device.is_autodiff() {
        "Autodiff"
    } else {
        device.backend_name()
    };
    panic!(
        "{op}: this backend extension has no implementation for {backend} \
         (it lists {listed}); the device is {device}"
    )
}

/// The backend that routes `tensor`: `"Autodiff"` for a tensor with an
/// autodiff context, else its device's backend.
fn holder(tensor: &DispatchTensor) -> &'static str {
    #[cfg(feature = "autodiff")]
    if let DispatchTensor::Autodiff(_) = tensor {
        return "Autodiff";
    }
    tensor.device().backend_name()
}

/// A tensor primitive of backend `B`, of any kind, borrowed: what
/// [`ExtensionType::visit`] yields.
pub enum TensorRef<'a, B: Backend> {
    Float(&'a FloatTensor<B>),
    Int(&'a IntTensor<B>),
    Bool(&'a BoolTensor<B>),
    Quantized(&'a QuantizedTensor<B>),
}

/// Turns the tensor primitives of backend `From` into those of `To`, kind by
/// kind: what [`ExtensionMap::map`] applies to every tensor field.
pub trait TensorMap<From: Backend, To: Backend> {
    fn float(&mut self, tensor: FloatTensor<From>) -> FloatTensor<To>;
    fn int(&mut self, tensor: IntTensor<From>) -> IntTensor<To>;
    fn bool(&mut self, tensor: BoolTensor<From>) -> BoolTensor<To>;
    fn quantized(&mut self, tensor: QuantizedTensor<From>) -> QuantizedTensor<To>;
}

/// A struct or enum holding tensor primitives of backend `B`, which a
/// backend extension takes or returns (`#[derive(ExtensionType)]`).
pub trait ExtensionType<B: Backend> {
    /// Calls `visitor` on every tensor the value holds, in field order
    /// (nested `#[extension_type]` fields included).
    fn visit<'a>(&'a self, visitor: &mut dyn FnMut(TensorRef<'a, B>));
}

/// The same type over backend `To`: the value with every tensor field
/// mapped and every other field moved as it is (`#[derive(ExtensionType)]`).
pub trait ExtensionMap<B: Backend, To: Backend>: ExtensionType<B> + Sized {
    /// `Self` with `B` replaced by `To`.
    type Output;
    fn map(self, map: &mut dyn TensorMap<B, To>) -> Self::Output;
}

/// The first tensor `value` holds, if any: what routes an op whose earlier
/// inputs hold none.
pub fn first_tensor<T: ExtensionType<Dispatch>>(value: &T) -> Option<&DispatchTensor> {
    let mut first = None;
    value.visit(&mut |tensor| {
        if first.is_none() {
            first = Some(match tensor {
                TensorRef::Float(t) | TensorRef::Int(t) | TensorRef::Bool(t) => t,
                TensorRef::Quantized(t) => t,
            });
        }
    });
    first
}

/// The device routing an op with struct or enum inputs: that of the first
/// tensor among its inputs, in order.
///
/// # Panics
/// If no input holds a tensor (every struct input on a variant without one).
#[track_caller]
pub fn route(op: &str, candidates: &[Option<&DispatchTensor>]) -> DispatchDevice {
    match candidates.iter().flatten().next() {
        Some(tensor) => tensor.device(),
        None => panic!(
            "{op}: no input holds a tensor (each struct or enum input is on a variant without \
             one), so the backend to run on cannot be resolved"
        ),
    }
}

/// Takes each tensor of a dispatch value out for backend `B`, checked
/// against the routing device as any other operand.
struct Unwrap<'a, B: DispatchBackend> {
    op: &'a str,
    device: &'a Device<B>,
}

impl<B: DispatchBackend> TensorMap<Dispatch, B> for Unwrap<'_, B> {
    fn float(&mut self, tensor: DispatchTensor) -> FloatTensor<B> {
        routing::operand::<B>(self.op, self.device, tensor).float()
    }
    fn int(&mut self, tensor: DispatchTensor) -> IntTensor<B> {
        routing::operand::<B>(self.op, self.device, tensor).int()
    }
    fn bool(&mut self, tensor: DispatchTensor) -> BoolTensor<B> {
        routing::operand::<B>(self.op, self.device, tensor).bool()
    }
    fn quantized(&mut self, tensor: DispatchTensor) -> QuantizedTensor<B> {
        routing::operand::<B>(self.op, self.device, tensor).quantized()
    }
}

/// A struct or enum input of `op` on backend `B`.
#[track_caller]
pub fn unwrap_all<B: DispatchBackend, T: ExtensionMap<Dispatch, B>>(
    op: &str,
    device: &Device<B>,
    value: T,
) -> T::Output {
    value.map(&mut Unwrap { op, device })
}

/// Wraps each tensor of a backend `B` value into dispatch's.
struct Wrap;

impl<B: DispatchBackend> TensorMap<B, Dispatch> for Wrap {
    fn float(&mut self, tensor: FloatTensor<B>) -> DispatchTensor {
        B::wrap_tensor(BackendTensor::Float(tensor))
    }
    fn int(&mut self, tensor: IntTensor<B>) -> DispatchTensor {
        B::wrap_tensor(BackendTensor::Int(tensor))
    }
    fn bool(&mut self, tensor: BoolTensor<B>) -> DispatchTensor {
        B::wrap_tensor(BackendTensor::Bool(tensor))
    }
    fn quantized(&mut self, tensor: QuantizedTensor<B>) -> DispatchTensor {
        B::wrap_tensor(BackendTensor::Quantized(tensor))
    }
}

/// A struct or enum result of backend `B`, as dispatch values.
pub fn wrap_all<B: DispatchBackend, T: ExtensionMap<B, Dispatch>>(value: T) -> T::Output {
    value.map(&mut Wrap)
}

/// Struct and enum operands through the autodiff route: their float fields
/// carry the context (and the gradient); the other fields do not.
#[cfg(feature = "autodiff")]
pub mod autodiff_fields {
    use core::marker::PhantomData;

    use super::*;
    use crate::autodiff::{
        Autodiff, AutodiffTensor, CheckpointStrategy, Checkpointing, float_in, float_out, merge,
        tensor_mode,
    };

    /// Folds the contexts of `value`'s float tensors into the op's.
    #[track_caller]
    pub fn modes<T: ExtensionType<Dispatch>>(op: &str, acc: &mut Option<Checkpointing>, value: &T) {
        value.visit(&mut |tensor| {
            if let TensorRef::Float(t) = tensor {
                merge(op, acc, tensor_mode(t));
            }
        });
    }

    struct Enter<C> {
        mode: Checkpointing,
        strategy: PhantomData<C>,
    }

    impl<C: CheckpointStrategy> TensorMap<Dispatch, Autodiff<Dispatch, C>> for Enter<C> {
        fn float(&mut self, tensor: DispatchTensor) -> AutodiffTensor<Dispatch> {
            float_in(tensor, self.mode)
        }
        fn int(&mut self, tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
        fn bool(&mut self, tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
        fn quantized(&mut self, tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
    }

    /// A struct or enum operand on `Autodiff<Dispatch, C>`: float fields
    /// as autodiff tensors (plain ones as constants).
    pub fn enter<C: CheckpointStrategy, T: ExtensionMap<Dispatch, Autodiff<Dispatch, C>>>(
        value: T,
        mode: Checkpointing,
    ) -> T::Output {
        value.map(&mut Enter::<C> {
            mode,
            strategy: PhantomData,
        })
    }

    struct Leave;

    impl<C: CheckpointStrategy> TensorMap<Autodiff<Dispatch, C>, Dispatch> for Leave {
        fn float(&mut self, tensor: AutodiffTensor<Dispatch>) -> DispatchTensor {
            float_out(tensor)
        }
        fn int(&mut self, tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
        fn bool(&mut self, tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
        fn quantized(&mut self, tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
    }

    /// A struct or enum result of `Autodiff<Dispatch, C>`, float fields
    /// keeping their autodiff context.
    pub fn leave<C: CheckpointStrategy, T: ExtensionMap<Autodiff<Dispatch, C>, Dispatch>>(
        value: T,
    ) -> T::Output {
        value.map(&mut Leave)
    }
}
