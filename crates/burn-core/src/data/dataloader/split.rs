use std::sync::Arc;

use super::DataLoader;

/// Cuts `loader` into `parts` loaders over consecutive ranges of its items
/// (nearly equal sizes, the first `num_items % parts` one item larger),
/// e.g. to give each device its own share.
///
/// # Panics
/// If `parts` is zero.
pub fn split_dataloader<O>(
    loader: &Arc<dyn DataLoader<O>>,
    parts: usize,
) -> Vec<Arc<dyn DataLoader<O>>> {
    assert!(
        parts > 0,
        "split_dataloader: the number of parts must be positive"
    );
    let total = loader.num_items();
    let (base, extra) = (total / parts, total % parts);
    let mut start = 0;
    (0..parts)
        .map(|part| {
            let end = start + base + usize::from(part < extra);
            let slice = loader.slice(start, end);
            start = end;
            slice
        })
        .collect()
}
