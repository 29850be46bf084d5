//! Burn dtypes as CubeCL storage types, and which ones a device can hold.

use burn_std::{BoolStore, DType};
use cubecl::features::TypeUsage;
use cubecl::ir::{ElemType, FloatKind, IntKind, StorageType, UIntKind};

use crate::client::{CubeClient, with_runtime};

/// How bool tensors are stored on every runtime: one `u32` per element
/// (WGSL cannot store smaller integers in a buffer; one layout everywhere
/// keeps one set of kernels).
pub const BOOL: DType = DType::Bool(BoolStore::U32);

/// The dtype of index outputs (argmax/argmin, sort and max-pool indices,
/// argwhere): the backend's default int dtype, so indices compare and
/// combine with the int tensors a program creates on the same device
/// (`logits.argmax(1).equal(labels)`). Flex answers I64, its own default.
pub const INDEX: DType = DType::I32;

/// The CubeCL element type that stores `dtype` (bool as `u32`).
pub fn elem_type(dtype: DType) -> ElemType {
    match dtype {
        DType::F64 => ElemType::Float(FloatKind::F64),
        DType::F32 => ElemType::Float(FloatKind::F32),
        DType::F16 => ElemType::Float(FloatKind::F16),
        DType::BF16 => ElemType::Float(FloatKind::BF16),
        DType::I64 => ElemType::Int(IntKind::I64),
        DType::I32 => ElemType::Int(IntKind::I32),
        DType::I16 => ElemType::Int(IntKind::I16),
        DType::I8 => ElemType::Int(IntKind::I8),
        DType::U64 => ElemType::UInt(UIntKind::U64),
        DType::U32 => ElemType::UInt(UIntKind::U32),
        DType::U16 => ElemType::UInt(UIntKind::U16),
        DType::U8 => ElemType::UInt(UIntKind::U8),
        DType::Bool(_) => ElemType::UInt(UIntKind::U32),
        // Packed values and scales, seen as words (the layout is padded
        // to whole words); no kernel computes on them as numbers.
        DType::QFloat(_) => ElemType::UInt(UIntKind::U32),
    }
}

/// The storage type of `dtype`, as kernels take it.
pub fn storage(dtype: DType) -> StorageType {
    StorageType::Scalar(elem_type(dtype))
}

/// The dtype a tensor of `dtype` has once stored on a CubeCL device: the same,
/// except that every bool store becomes [`BOOL`].
pub fn stored(dtype: DType) -> DType {
    if dtype.is_bool() { BOOL } else { dtype }
}

/// Whether the device behind `client` can store `dtype` in a buffer and
/// compute with it.
///
/// f64 is refused on WGPU even where the adapter registers it: WGSL's and
/// Vulkan's built-in exp, log and trigonometric functions take 16- and
/// 32-bit floats only, and lavapipe returned wrong f64 results for them.
pub fn supports(client: &CubeClient, dtype: DType) -> bool {
    // Quantized bytes are stored as they are; `dequantize` decodes them
    // through the host codec.
    if let DType::QFloat(scheme) = dtype {
        return matches!(scheme.store.packing_dim(), None | Some(0));
    }
    #[cfg(feature = "wgpu")]
    if dtype == DType::F64 && matches!(client, CubeClient::Wgpu(_)) {
        return false;
    }
    let ty = storage(dtype);
    with_runtime!(client, R, c => c
        .properties()
        .type_usage(ty)
        .is_superset(TypeUsage::Buffer | TypeUsage::Arithmetic))
}
