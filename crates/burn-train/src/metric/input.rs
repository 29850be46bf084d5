//! The inputs of the built-in metrics, and their host-side forms.
//!
//! Metrics compute on the host: a batch's scores are a few thousand numbers
//! at most, and reading them back once per metric costs far less than the
//! step that produced them, while keeping every metric backend-free and
//! easy to check by hand.

use std::vec::Vec;

use burn_tensor::{Int, Tensor};

/// The input of [`LossMetric`](super::LossMetric): the batch's loss.
#[derive(Clone, Debug)]
pub struct LossInput {
    /// The loss, one value (a mean over the batch).
    pub loss: Tensor<1>,
}

impl LossInput {
    /// Wraps a loss tensor.
    pub fn new(loss: Tensor<1>) -> Self {
        Self { loss }
    }
}

/// The input of the classification metrics: class scores and targets.
#[derive(Clone, Debug)]
pub struct ClassificationInput {
    /// Scores, `[batch, classes]`: logits or probabilities (a single
    /// column is the probability of the positive class of a binary task).
    pub outputs: Tensor<2>,
    /// The target class of each sample, `[batch]`.
    pub targets: Tensor<1, Int>,
}

impl ClassificationInput {
    /// Wraps scores and targets.
    pub fn new(outputs: Tensor<2>, targets: Tensor<1, Int>) -> Self {
        Self { outputs, targets }
    }

    /// The scores and targets on the host.
    ///
    /// # Panics
    /// If the batch sizes of `outputs` and `targets` differ.
    pub fn to_host(&self) -> HostScores {
        let [batch, classes] = self.outputs.dims();
        let [targets_len] = self.targets.dims();
        assert_eq!(
            batch,
            targets_len,
            "ClassificationInput: outputs {:?} and targets {:?} disagree on the batch size",
            [batch, classes],
            [targets_len]
        );
        HostScores {
            scores: self.outputs.to_data().iter::<f64>().collect(),
            classes,
            targets: self.targets.to_data().iter::<i64>().collect(),
        }
    }
}

/// A batch of scores and targets as host vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct HostScores {
    /// Row-major scores, `[batch, classes]`.
    pub scores: Vec<f64>,
    /// Columns per row.
    pub classes: usize,
    /// The target class of each row.
    pub targets: Vec<i64>,
}

impl HostScores {
    /// The number of samples.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The scores of sample `i`.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.scores[i * self.classes..(i + 1) * self.classes]
    }

    /// The highest-scoring class of sample `i` (the first one on a tie).
    pub fn argmax(&self, i: usize) -> usize {
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
