use std::marker::PhantomData;
use std::sync::Arc;

use crate::{Dataset, DatasetError, SeededRng};

/// The items of a dataset at chosen indices, in the order given.
///
/// An index may appear more than once. The wrapped dataset is held in an
/// `Arc`, so several selections (a train and a validation split, say) can
/// share it.
pub struct SelectionDataset<D, I> {
    /// The dataset selected from.
    pub wrapped: Arc<D>,
    /// Item `i` of the selection is item `indices[i]` of `wrapped`.
    pub indices: Vec<usize>,
    input: PhantomData<fn() -> I>,
}

impl<D: Dataset<I>, I> SelectionDataset<D, I> {
    /// Selects `indices` of `dataset`.
    ///
    /// # Panics
    /// If an index is not below `dataset.len()` (the message names it).
    pub fn from_indices_checked(dataset: impl Into<Arc<D>>, indices: Vec<usize>) -> Self {
        let wrapped = dataset.into();
        let len = wrapped.len();
        if let Some(bad) = indices.iter().find(|&&i| i >= len) {
            panic!("SelectionDataset: index {bad} is out of range for a dataset of {len} items");
        }
        Self {
            wrapped,
            indices,
            input: PhantomData,
        }
    }

    /// Every item of `dataset`, in its order.
    pub fn new_select_all(dataset: impl Into<Arc<D>>) -> Self {
        let wrapped = dataset.into();
        let indices = (0..wrapped.len()).collect();
        Self {
            wrapped,
            indices,
            input: PhantomData,
        }
    }

    /// Every item of `dataset`, in an order drawn from `rng`.
    pub fn new_shuffled(dataset: impl Into<Arc<D>>, rng: &mut SeededRng) -> Self {
        let mut selection = Self::new_select_all(dataset);
        rng.shuffle(&mut selection.indices);
        selection
    }

    /// Reorders the current selection with `rng`.
    pub fn shuffle(&mut self, rng: &mut SeededRng) {
        rng.shuffle(&mut self.indices);
    }
}

impl<D: Dataset<I>, I> Dataset<I> for SelectionDataset<D, I> {
    fn get(&self, index: usize) -> Result<I, DatasetError> {
        crate::check_index("SelectionDataset::get", index, self.indices.len());
        self.wrapped.get(self.indices[index])
    }

    fn len(&self) -> usize {
        self.indices.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    #[test]
    fn selects_in_the_given_order_with_repeats() {
        let data = InMemDataset::new(vec!['a', 'b', 'c']);
        let selection = SelectionDataset::from_indices_checked(data, vec![2, 0, 2]);
        assert_eq!(
            selection.iter().map(Result::unwrap).collect::<String>(),
            "cac"
        );
    }

    #[test]
    #[should_panic(expected = "index 3 is out of range for a dataset of 3 items")]
    fn out_of_range_index_panics() {
        let data = InMemDataset::new(vec!['a', 'b', 'c']);
        let _ = SelectionDataset::from_indices_checked(data, vec![0, 3]);
    }

    #[test]
    fn shuffled_selection_is_a_seeded_permutation() {
        let data = Arc::new(InMemDataset::new((0..50).collect::<Vec<u32>>()));
        let a = SelectionDataset::<InMemDataset<u32>, u32>::new_shuffled(
            data.clone(),
            &mut SeededRng::new(5),
        );
        let b = SelectionDataset::<InMemDataset<u32>, u32>::new_shuffled(
            data.clone(),
            &mut SeededRng::new(5),
        );
        assert_eq!(a.indices, b.indices);
        // The items follow the permutation drawn by the same generator.
        assert_eq!(a.indices, SeededRng::new(5).permutation(50));
        let items: Vec<u32> = a.iter().map(Result::unwrap).collect();
        assert_eq!(
            items,
            a.indices.iter().map(|&i| i as u32).collect::<Vec<_>>()
        );
    }
}
