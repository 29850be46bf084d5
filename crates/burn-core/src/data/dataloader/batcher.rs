//! The [`Batcher`] trait: from a list of items to one batch.

use burn_tensor::Device;

/// Turns the items of one batch into the batch itself (typically tensors on
/// `device`).
///
/// Called from worker threads when the loader has any, hence `Send + Sync`.
/// Closures `Fn(Vec<I>, &Device) -> O` are batchers.
pub trait Batcher<I, O>: Send + Sync {
    /// Builds the batch from `items` (in loader order) on `device`.
    fn batch(&self, items: Vec<I>, device: &Device) -> O;
}

impl<I, O, F> Batcher<I, O> for F
where
    F: Fn(Vec<I>, &Device) -> O + Send + Sync,
{
    fn batch(&self, items: Vec<I>, device: &Device) -> O {
        self(items, device)
    }
}
