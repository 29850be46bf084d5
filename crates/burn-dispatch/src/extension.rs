//! What the code `#[backend_extension]` generates in other crates names:
//! the dispatch types, the operand checks, the autodiff route and the
//! backend types an extension is implemented for. Reached by users through
//! the facade (`burn::backend::…`, `extension` feature); the generated code
//! goes through `burn::backend::extension`.

#[cfg(feature = "autodiff")]
pub use crate::autodiff;
pub use crate::backends;
pub use crate::routing;
pub use crate::{BackendTensor, Dispatch, DispatchDevice, DispatchTensor};

pub use burn_backend::TensorMetadata;
/// The raw CubeCL backend, which an extension implements (`Cube`
/// selector); with the `fusion` feature dispatch holds it under
/// [`Fusion`].
#[cfg(feature = "cube")]
pub use burn_cubecl::CubeBackend as Cube;
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
