use std::sync::Arc;

use super::SelectionDataset;
use crate::{Dataset, DatasetError, SeededRng};

/// Every item of a dataset in a random order fixed at construction.
///
/// A thin wrapper over a [`SelectionDataset`] of all indices.
pub struct ShuffledDataset<D, I> {
    selection: SelectionDataset<D, I>,
}

impl<D: Dataset<I>, I> ShuffledDataset<D, I> {
    /// Shuffles with the next draws of `rng`.
    pub fn new(dataset: D, rng: &mut SeededRng) -> Self {
        Self {
            selection: SelectionDataset::new_shuffled(Arc::new(dataset), rng),
        }
    }

    /// Shuffles with a generator seeded by `seed`: the same seed gives the
    /// same order, on any machine.
    pub fn with_seed(dataset: D, seed: u64) -> Self {
        Self::new(dataset, &mut SeededRng::new(seed))
    }

    /// Item `i` of the shuffled dataset is item `indices()[i]` of the original.
    pub fn indices(&self) -> &[usize] {
        &self.selection.indices
    }
}

impl<D: Dataset<I>, I> Dataset<I> for ShuffledDataset<D, I> {
    fn get(&self, index: usize) -> Result<I, DatasetError> {
        crate::check_index("ShuffledDataset::get", index, self.selection.len());
        self.selection.get(index)
    }

    fn len(&self) -> usize {
        self.selection.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    #[test]
    fn same_seed_same_order_other_seed_other_order() {
        let items: Vec<u16> = (0..64).collect();
        let a: Vec<u16> = ShuffledDataset::with_seed(InMemDataset::new(items.clone()), 9)
            .iter()
            .map(Result::unwrap)
            .collect();
        let b: Vec<u16> = ShuffledDataset::with_seed(InMemDataset::new(items.clone()), 9)
            .iter()
            .map(Result::unwrap)
            .collect();
        let c: Vec<u16> = ShuffledDataset::with_seed(InMemDataset::new(items.clone()), 10)
            .iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, items);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, items);
    }

    #[test]
    fn three_items_follow_fisher_yates_by_hand() {
        // Fisher–Yates from the back: swap(2, below(3)), then swap(1, below(2)).
        let mut rng = SeededRng::new(3);
        let j2 = rng.below(3);
        let j1 = rng.below(2);
        let mut expected = ['a', 'b', 'c'];
        expected.swap(2, j2);
        expected.swap(1, j1);
        let shuffled = ShuffledDataset::with_seed(InMemDataset::new(vec!['a', 'b', 'c']), 3);
        assert_eq!(
            shuffled.iter().map(Result::unwrap).collect::<Vec<_>>(),
            expected
        );
    }
}
