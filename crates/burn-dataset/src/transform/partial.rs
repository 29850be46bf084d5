use std::marker::PhantomData;
use std::sync::Arc;

use crate::Dataset;

/// The items `start..end` of a dataset, re-indexed from 0.
pub struct PartialDataset<D, I> {
    dataset: D,
    start: usize,
    end: usize,
    input: PhantomData<fn() -> I>,
}

impl<D: Dataset<I>, I> PartialDataset<D, I> {
    /// The items `start..end` of `dataset`; `end` is clamped to its length
    /// and an empty range (`start >= end`) gives an empty dataset.
    pub fn new(dataset: D, start: usize, end: usize) -> Self {
        let end = end.min(dataset.len());
        let start = start.min(end);
        Self {
            dataset,
            start,
            end,
            input: PhantomData,
        }
    }

    /// Cuts `dataset` into `parts` consecutive pieces of nearly equal size
    /// (the first `len % parts` pieces hold one item more).
    ///
    /// # Panics
    /// If `parts` is zero.
    pub fn split(dataset: D, parts: usize) -> Vec<PartialDataset<Arc<D>, I>> {
        assert!(
            parts > 0,
            "PartialDataset::split: the number of parts must be positive"
        );
        let len = dataset.len();
        let dataset = Arc::new(dataset);
        let (base, extra) = (len / parts, len % parts);
        let mut start = 0;
        (0..parts)
            .map(|part| {
                let size = base + usize::from(part < extra);
                let piece = PartialDataset::new(dataset.clone(), start, start + size);
                start += size;
                piece
            })
            .collect()
    }
}

impl<D: Dataset<I>, I> Dataset<I> for PartialDataset<D, I> {
    fn get(&self, index: usize) -> Option<I> {
        if index >= self.len() {
            return None;
        }
        self.dataset.get(self.start + index)
    }

    fn len(&self) -> usize {
        self.end - self.start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    #[test]
    fn range_is_reindexed_and_clamped() {
        let data = InMemDataset::new((0..10).collect::<Vec<i32>>());
        let middle = PartialDataset::new(&data, 3, 6);
        assert_eq!(middle.iter().collect::<Vec<_>>(), [3, 4, 5]);
        assert_eq!(middle.get(3), None);
        let tail = PartialDataset::new(&data, 8, 100);
        assert_eq!(tail.iter().collect::<Vec<_>>(), [8, 9]);
        let empty = PartialDataset::new(&data, 7, 2);
        assert!(empty.is_empty());
    }

    #[test]
    fn split_covers_everything_once() {
        let data = InMemDataset::new((0..10).collect::<Vec<i32>>());
        let parts = PartialDataset::split(data, 3);
        let sizes: Vec<usize> = parts.iter().map(|p| p.len()).collect();
        assert_eq!(sizes, [4, 3, 3]);
        let joined: Vec<i32> = parts.iter().flat_map(|p| p.iter()).collect();
        assert_eq!(joined, (0..10).collect::<Vec<_>>());
    }
}
