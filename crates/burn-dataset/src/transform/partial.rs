use std::error::Error;
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

impl<D, I> PartialDataset<D, I> {
    /// The items `start..end` of `dataset`; `end` is clamped to its length
    /// and an empty range (`start >= end`) gives an empty dataset.
    pub fn new(dataset: D, start: usize, end: usize) -> Self {
        Self {
            dataset,
            start,
            end,
            input: PhantomData,
        }
    }

    /// The range actually covered once `end` is clamped to `inner_len`.
    fn range(&self, inner_len: usize) -> (usize, usize) {
        let end = self.end.min(inner_len);
        (self.start.min(end), end)
    }
}

impl<D: Dataset<I>, I> PartialDataset<D, I> {
    /// Cuts `dataset` into `parts` consecutive pieces of nearly equal size
    /// (the first `len % parts` one item larger), sharing it through an `Arc`.
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

impl<D, I, E> Dataset<I, E> for PartialDataset<D, I>
where
    D: Dataset<I, E>,
    I: Send + Sync,
    E: Error + Send + Sync + 'static,
{
    fn get(&self, index: usize) -> Result<I, E> {
        let (start, end) = self.range(self.dataset.len());
        crate::check_index("PartialDataset::get", index, end - start);
        self.dataset.get(start + index)
    }

    fn len(&self) -> usize {
        let (start, end) = self.range(self.dataset.len());
        end - start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    fn items<D: Dataset<i32>>(dataset: &D) -> Vec<i32> {
        dataset.iter().map(Result::unwrap).collect()
    }

    #[test]
    #[should_panic(
        expected = "PartialDataset::get: index 3 is out of range for a dataset of 3 items"
    )]
    fn an_index_past_the_range_panics() {
        let data = InMemDataset::new((0..10).collect::<Vec<i32>>());
        let _ = PartialDataset::new(&data, 3, 6).get(3);
    }

    #[test]
    fn range_is_reindexed_and_clamped() {
        let data = InMemDataset::new((0..10).collect::<Vec<i32>>());
        let middle = PartialDataset::new(&data, 3, 6);
        assert_eq!(items(&middle), [3, 4, 5]);
        let tail = PartialDataset::new(&data, 8, 100);
        assert_eq!(items(&tail), [8, 9]);
        let empty = PartialDataset::new(&data, 7, 2);
        assert!(empty.is_empty());
    }

    #[test]
    fn split_covers_everything_once() {
        let data = InMemDataset::new((0..10).collect::<Vec<i32>>());
        let parts = PartialDataset::split(data, 3);
        let sizes: Vec<usize> = parts.iter().map(|p| p.len()).collect();
        assert_eq!(sizes, [4, 3, 3]);
        let joined: Vec<i32> = parts.iter().flat_map(items).collect();
        assert_eq!(joined, (0..10).collect::<Vec<_>>());
    }
}
