use std::marker::PhantomData;

use crate::Dataset;

/// Several datasets of the same item type, one after another.
pub struct ComposedDataset<D, I> {
    datasets: Vec<D>,
    input: PhantomData<fn() -> I>,
}

impl<D: Dataset<I>, I> ComposedDataset<D, I> {
    /// The items of `datasets[0]`, then those of `datasets[1]`, and so on.
    pub fn new(datasets: Vec<D>) -> Self {
        Self {
            datasets,
            input: PhantomData,
        }
    }
}

impl<D: Dataset<I>, I> Dataset<I> for ComposedDataset<D, I> {
    fn get(&self, mut index: usize) -> Option<I> {
        for dataset in &self.datasets {
            let len = dataset.len();
            if index < len {
                return dataset.get(index);
            }
            index -= len;
        }
        None
    }

    fn len(&self) -> usize {
        self.datasets.iter().map(|d| d.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    #[test]
    fn concatenates_in_order_skipping_empty_parts() {
        let composed = ComposedDataset::new(vec![
            InMemDataset::new(vec![1, 2]),
            InMemDataset::new(vec![]),
            InMemDataset::new(vec![3]),
        ]);
        assert_eq!(composed.len(), 3);
        assert_eq!(composed.iter().collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(composed.get(3), None);
    }
}
