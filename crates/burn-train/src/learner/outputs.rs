//! The outputs of the usual tasks, each adapted to the metrics that fit
//! it: [`ClassificationOutput`], [`MultiLabelClassificationOutput`],
//! [`RegressionOutput`], [`SequenceOutput`].

use burn_tensor::{Bool, ExecutionError, Int, Tensor};

use crate::metric::{
    AccuracyInput, Adaptor, ConfusionStatsInput, ItemLazy, LossInput, PerplexityInput,
    TopKAccuracyInput,
};

/// Class targets `[batch]` as multi-hot rows `[batch, classes]` (one
/// column for a binary task: the target is class 1).
fn one_hot(targets: &Tensor<1, Int>, classes: usize) -> Tensor<2, Bool> {
    let [batch] = targets.dims();
    let targets = targets.clone().unsqueeze_dim::<2>(1);
    if classes == 1 {
        return targets.equal_elem(1);
    }
    let columns = Tensor::<1, Int>::arange(0..classes as i64, &targets.device())
        .unsqueeze_dim::<2>(0)
        .repeat_dim(0, batch);
    targets.repeat_dim(1, classes).equal(columns)
}

/// The output of a classification step.
///
/// Metrics: loss, accuracy, top-k accuracy, perplexity, and through
/// [`ConfusionStatsInput`] precision, recall, F-score and AUROC.
#[derive(Clone, Debug)]
pub struct ClassificationOutput {
    /// The batch's loss.
    pub loss: Tensor<1>,
    /// Class scores (logits or probabilities), `[batch, classes]`.
    pub output: Tensor<2>,
    /// Target classes, `[batch]`.
    pub targets: Tensor<1, Int>,
}

impl ClassificationOutput {
    /// Bundles a loss, scores and targets.
    pub fn new(loss: Tensor<1>, output: Tensor<2>, targets: Tensor<1, Int>) -> Self {
        Self {
            loss,
            output,
            targets,
        }
    }
}

impl ItemLazy for ClassificationOutput {
    fn sync(self) -> Result<Self, ExecutionError> {
        Ok(Self {
            loss: self.loss.without_autodiff(),
            output: self.output.without_autodiff(),
            targets: self.targets,
        })
    }
}

impl Adaptor<LossInput> for ClassificationOutput {
    fn adapt(&self) -> LossInput {
        LossInput::new(self.loss.clone())
    }
}

impl Adaptor<AccuracyInput> for ClassificationOutput {
    fn adapt(&self) -> AccuracyInput {
        AccuracyInput::new(self.output.clone(), self.targets.clone())
    }
}

impl Adaptor<TopKAccuracyInput> for ClassificationOutput {
    fn adapt(&self) -> TopKAccuracyInput {
        TopKAccuracyInput::new(self.output.clone(), self.targets.clone())
    }
}

impl Adaptor<PerplexityInput> for ClassificationOutput {
    fn adapt(&self) -> PerplexityInput {
        PerplexityInput::new(self.output.clone(), self.targets.clone())
    }
}

impl Adaptor<ConfusionStatsInput> for ClassificationOutput {
    fn adapt(&self) -> ConfusionStatsInput {
        let [_, classes] = self.output.dims();
        ConfusionStatsInput::new(self.output.clone(), one_hot(&self.targets, classes))
    }
}

/// The output of a multi-label classification step.
///
/// Metrics: loss, and through [`ConfusionStatsInput`] precision, recall,
/// F-score and AUROC.
#[derive(Clone, Debug)]
pub struct MultiLabelClassificationOutput {
    /// The batch's loss.
    pub loss: Tensor<1>,
    /// Label scores, `[batch, labels]`.
    pub output: Tensor<2>,
    /// Targets, 1 for a present label, `[batch, labels]`.
    pub targets: Tensor<2, Int>,
}

impl MultiLabelClassificationOutput {
    /// Bundles a loss, scores and targets.
    pub fn new(loss: Tensor<1>, output: Tensor<2>, targets: Tensor<2, Int>) -> Self {
        Self {
            loss,
            output,
            targets,
        }
    }
}

impl ItemLazy for MultiLabelClassificationOutput {
    fn sync(self) -> Result<Self, ExecutionError> {
        Ok(Self {
            loss: self.loss.without_autodiff(),
            output: self.output.without_autodiff(),
            targets: self.targets,
        })
    }
}

impl Adaptor<LossInput> for MultiLabelClassificationOutput {
    fn adapt(&self) -> LossInput {
        LossInput::new(self.loss.clone())
    }
}

impl Adaptor<ConfusionStatsInput> for MultiLabelClassificationOutput {
    fn adapt(&self) -> ConfusionStatsInput {
        ConfusionStatsInput::new(self.output.clone(), self.targets.clone().not_equal_elem(0))
    }
}

/// The output of a regression step. Metrics: loss.
#[derive(Clone, Debug)]
pub struct RegressionOutput {
    /// The batch's loss.
    pub loss: Tensor<1>,
    /// Predictions, `[batch, targets]`.
    pub output: Tensor<2>,
    /// Targets, `[batch, targets]`.
    pub targets: Tensor<2>,
}

impl RegressionOutput {
    /// Bundles a loss, predictions and targets.
    pub fn new(loss: Tensor<1>, output: Tensor<2>, targets: Tensor<2>) -> Self {
        Self {
            loss,
            output,
            targets,
        }
    }
}

impl ItemLazy for RegressionOutput {
    fn sync(self) -> Result<Self, ExecutionError> {
        Ok(Self {
            loss: self.loss.without_autodiff(),
            output: self.output.without_autodiff(),
            targets: self.targets.without_autodiff(),
        })
    }
}

impl Adaptor<LossInput> for RegressionOutput {
    fn adapt(&self) -> LossInput {
        LossInput::new(self.loss.clone())
    }
}

/// The output of a sequence prediction step (a language model).
///
/// Metrics: loss, and per token accuracy, top-k accuracy and perplexity.
#[derive(Clone, Debug)]
pub struct SequenceOutput {
    /// The batch's loss.
    pub loss: Tensor<1>,
    /// Logits, `[batch, seq, vocab]`.
    pub logits: Tensor<3>,
    /// Predicted tokens, `[batch, seq]`; the argmax of the logits if `None`.
    pub predictions: Option<Tensor<2, Int>>,
    /// Target tokens, `[batch, seq]`.
    pub targets: Tensor<2, Int>,
}

impl SequenceOutput {
    /// Bundles a loss, logits, optional predictions and targets.
    pub fn new(
        loss: Tensor<1>,
        logits: Tensor<3>,
        predictions: Option<Tensor<2, Int>>,
        targets: Tensor<2, Int>,
    ) -> Self {
        Self {
            loss,
            logits,
            predictions,
            targets,
        }
    }

    /// Logits `[batch·seq, vocab]`.
    fn flat_logits(&self) -> Tensor<2> {
        let [batch, seq, vocab] = self.logits.dims();
        self.logits.clone().reshape([batch * seq, vocab])
    }

    /// Targets `[batch·seq]`.
    fn flat_targets(&self) -> Tensor<1, Int> {
        let [batch, seq] = self.targets.dims();
        self.targets.clone().reshape([batch * seq])
    }
}

impl ItemLazy for SequenceOutput {
    fn sync(self) -> Result<Self, ExecutionError> {
        Ok(Self {
            loss: self.loss.without_autodiff(),
            logits: self.logits.without_autodiff(),
            predictions: self.predictions,
            targets: self.targets,
        })
    }
}

impl Adaptor<LossInput> for SequenceOutput {
    fn adapt(&self) -> LossInput {
        LossInput::new(self.loss.clone())
    }
}

impl Adaptor<AccuracyInput> for SequenceOutput {
    fn adapt(&self) -> AccuracyInput {
        AccuracyInput::new(self.flat_logits(), self.flat_targets())
    }
}

impl Adaptor<TopKAccuracyInput> for SequenceOutput {
    fn adapt(&self) -> TopKAccuracyInput {
        TopKAccuracyInput::new(self.flat_logits(), self.flat_targets())
    }
}

impl Adaptor<PerplexityInput> for SequenceOutput {
    fn adapt(&self) -> PerplexityInput {
        PerplexityInput::new(self.flat_logits(), self.flat_targets())
    }
}
