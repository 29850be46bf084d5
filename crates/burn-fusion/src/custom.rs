//! Backend extension ops under [`Fusion`](crate::Fusion): recorded lazily
//! as a [`CustomOpIr`](burn_ir::CustomOpIr), run on the inner backend at
//! the next flush, never fused with their neighbours (no builder accepts
//! them). What `#[backend_extension]` generates for the `Fusion` selector
//! calls [`register_custom`].

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec::Vec;

use burn_backend::{BoolTensor, FloatTensor, IntTensor, QuantizedTensor};
use burn_ir::{CustomFn, Handle};
use burn_router::RouterTensor;
use burn_std::{DType, Shape};

use crate::FusionBackend;

/// The shape and dtype of a tensor an extension op reads or creates, as
/// `#[fusion(meta = ..)]` callbacks receive and return them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSpec {
    /// The shape.
    pub shape: Shape,
    /// The dtype.
    pub dtype: DType,
}

impl TensorSpec {
    /// A spec of `shape` and `dtype`.
    pub fn new(shape: impl Into<Shape>, dtype: DType) -> Self {
        Self {
            shape: shape.into(),
            dtype,
        }
    }
}

/// Records the extension op `id` on the Fusion device of `inputs`: tensors
/// of the `outputs` specs are returned at once, and `run` computes them on
/// `B` (from the inputs' handles, in order) when the queue is flushed.
///
/// # Panics
/// If `inputs` is empty or on several devices.
#[track_caller]
pub fn register_custom<B, F>(
    id: &str,
    inputs: Vec<RouterTensor>,
    outputs: Vec<TensorSpec>,
    run: F,
) -> Vec<RouterTensor>
where
    B: FusionBackend,
    F: Fn(Vec<Handle<B>>) -> Vec<Handle<B>> + Send + Sync + 'static,
{
    let run: CustomFn<B> = Box::new(run);
    let outputs = outputs.into_iter().map(|s| (s.shape, s.dtype)).collect();
    burn_router::record_custom(id, inputs, outputs, Arc::new(run))
}

/// The accessors of the input handles of a recorded op's code, one per
/// kind: the tensor of a handle of that kind (another kind, or a missing
/// handle, is a bug of the generated code: it panics naming the op `id`).
macro_rules! accessors {
    ($($name:ident: $variant:ident => $ty:ident),* $(,)?) => {$(
        #[doc = concat!("The ", stringify!($name), " tensor of an input handle of `id`.")]
        #[track_caller]
        pub fn $name<B: FusionBackend>(id: &str, handle: Option<Handle<B>>) -> $ty<B> {
            match handle {
                Some(Handle::$variant(t)) => t,
                other => wrong(id, stringify!($name), other.is_some()),
            }
        }
    )*};
}

accessors! {
    float: Float => FloatTensor,
    int: Int => IntTensor,
    bool: Bool => BoolTensor,
    quantized: Quantized => QuantizedTensor,
}

#[cold]
#[track_caller]
fn wrong(id: &str, kind: &str, present: bool) -> ! {
    if present {
        panic!("{id}: an input is not the {kind} tensor the op was recorded with")
    }
    panic!("{id}: fewer inputs than the op was recorded with")
}
