use std::error::Error;

use crate::Dataset;

/// Several datasets of the same item type, one after another.
pub struct ComposedDataset<D> {
    datasets: Vec<D>,
}

impl<D> ComposedDataset<D> {
    /// The items of `datasets[0]`, then those of `datasets[1]`, and so on.
    pub fn new(datasets: Vec<D>) -> Self {
        Self { datasets }
    }
}

impl<D, I, E> Dataset<I, E> for ComposedDataset<D>
where
    D: Dataset<I, E>,
    E: Error + Send + Sync + 'static,
{
    fn get(&self, index: usize) -> Result<I, E> {
        let mut local = index;
        for dataset in &self.datasets {
            let len = dataset.len();
            if local < len {
                return dataset.get(local);
            }
            local -= len;
        }
        crate::check_index("ComposedDataset::get", index, self.len());
        unreachable!("the index was checked against the total length")
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
        assert_eq!(
            composed.iter().collect::<Result<Vec<_>, _>>().unwrap(),
            [1, 2, 3]
        );
    }

    #[test]
    #[should_panic(
        expected = "ComposedDataset::get: index 3 is out of range for a dataset of 3 items"
    )]
    fn an_index_past_the_end_panics() {
        let composed = ComposedDataset::new(vec![InMemDataset::new(vec![1, 2, 3])]);
        let _ = composed.get(3);
    }
}
