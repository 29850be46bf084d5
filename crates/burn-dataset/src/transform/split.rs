use std::sync::Arc;

use super::SelectionDataset;
use crate::{Dataset, SeededRng};

/// Splits `dataset` at random into a training and a validation part.
///
/// The indices are shuffled with `seed`; the first
/// `round(len * valid_fraction)` go to validation, the rest to training.
/// Both parts keep the shuffled order and share the dataset. The same seed
/// always gives the same split.
///
/// # Panics
/// If `valid_fraction` is not within `0.0..=1.0`.
pub fn train_valid_split<D: Dataset<I>, I>(
    dataset: D,
    valid_fraction: f64,
    seed: u64,
) -> (SelectionDataset<D, I>, SelectionDataset<D, I>) {
    assert!(
        (0.0..=1.0).contains(&valid_fraction),
        "train_valid_split: valid_fraction must be within 0..=1, got {valid_fraction}"
    );
    let dataset = Arc::new(dataset);
    let mut indices = SeededRng::new(seed).permutation(dataset.len());
    let valid_len = (dataset.len() as f64 * valid_fraction).round() as usize;
    let train = indices.split_off(valid_len);
    let valid = indices;
    (
        SelectionDataset::from_indices_checked(dataset.clone(), train),
        SelectionDataset::from_indices_checked(dataset, valid),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    #[test]
    fn split_is_disjoint_complete_and_seeded() {
        let data = InMemDataset::new((0..20).collect::<Vec<u32>>());
        let (train, valid) = train_valid_split(data.clone(), 0.25, 11);
        assert_eq!((train.len(), valid.len()), (15, 5));
        let mut all: Vec<u32> = train
            .iter()
            .chain(valid.iter())
            .map(Result::unwrap)
            .collect();
        all.sort();
        assert_eq!(all, (0..20).collect::<Vec<_>>());
        let (train2, _) = train_valid_split(data, 0.25, 11);
        assert_eq!(train.indices, train2.indices);
    }

    #[test]
    #[should_panic(expected = "valid_fraction must be within 0..=1")]
    fn bad_fraction_panics() {
        let _ = train_valid_split(InMemDataset::new(vec![1]), 1.5, 0);
    }
}
