//! Reading metric inputs back to the host.
//!
//! Metrics compute on the host: a batch's scores are a few thousand numbers
//! at most, and reading them back once per metric costs far less than the
//! step that produced them, while keeping every metric backend-free and
//! easy to check by hand. Reads run on the event processor's thread, not
//! the training loop's.

use std::vec::Vec;

use burn_tensor::{Bool, Int, Tensor, TensorReadError};

/// A batch of scores `[batch, classes]`, row-major, with per-row targets.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HostScores {
    pub(crate) scores: Vec<f64>,
    pub(crate) classes: usize,
}

impl HostScores {
    /// Reads `scores` back.
    pub(crate) fn read(scores: &Tensor<2>) -> Result<Self, TensorReadError> {
        let [_, classes] = scores.dims();
        Ok(Self {
            scores: scores.try_to_data()?.iter::<f64>().collect(),
            classes,
        })
    }

    /// The number of rows.
    pub(crate) fn len(&self) -> usize {
        self.scores.len().checked_div(self.classes).unwrap_or(0)
    }

    /// The scores of row `i`.
    pub(crate) fn row(&self, i: usize) -> &[f64] {
        &self.scores[i * self.classes..(i + 1) * self.classes]
    }

    /// The highest-scoring class of row `i` (the first one on a tie).
    pub(crate) fn argmax(&self, i: usize) -> usize {
        let row = self.row(i);
        let mut best = 0;
        for (class, &score) in row.iter().enumerate() {
            if score > row[best] {
                best = class;
            }
        }
        best
    }
}

/// Reads class targets `[batch]` back, checking they match `scores`' rows.
///
/// # Panics
/// If the batch sizes differ: the output type pairs the wrong tensors, a
/// programming error.
pub(crate) fn read_targets(
    metric: &str,
    scores: &HostScores,
    targets: &Tensor<1, Int>,
) -> Result<Vec<i64>, TensorReadError> {
    let [len] = targets.dims();
    assert_eq!(
        scores.len(),
        len,
        "{metric}: outputs [{}, {}] and targets [{len}] disagree on the batch size",
        scores.len(),
        scores.classes
    );
    Ok(targets.try_to_data()?.iter::<i64>().collect())
}

/// Reads multi-hot targets `[batch, classes]` back, checking they match
/// `scores`' shape.
///
/// # Panics
/// If the shapes differ.
pub(crate) fn read_labels(
    metric: &str,
    scores: &HostScores,
    targets: &Tensor<2, Bool>,
) -> Result<Vec<bool>, TensorReadError> {
    let dims = targets.dims();
    assert_eq!(
        [scores.len(), scores.classes],
        dims,
        "{metric}: predictions and targets disagree on their shape"
    );
    Ok(targets.try_to_data()?.iter::<bool>().collect())
}
