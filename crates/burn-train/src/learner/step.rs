//! What a model implements to be trained by the learner: [`TrainStep`] and
//! [`ValidStep`], and the output types of the usual tasks.

use burn_core::module::Module;
use burn_optim::GradientsParams;
use burn_tensor::{Gradients, Int, Tensor};

use crate::metric::{Adaptor, ClassificationInput, LossInput};

/// The result of a training step: the gradients to apply and the output
/// the metrics read.
#[derive(Debug)]
pub struct TrainOutput<TO> {
    /// Gradients keyed by parameter.
    pub grads: GradientsParams,
    /// What the metrics read.
    pub item: TO,
}

impl<TO> TrainOutput<TO> {
    /// Keys the gradients of `module`'s parameters from a backward pass.
    pub fn new<M: Module>(module: &M, grads: Gradients, item: TO) -> Self {
        Self {
            grads: GradientsParams::from_grads(grads, module),
            item,
        }
    }
}

/// One training step: forward, loss, backward. The learner applies the
/// gradients with its optimizer.
pub trait TrainStep<TI, TO> {
    /// Runs the step on a batch.
    fn step(&self, item: TI) -> TrainOutput<TO>;
}

/// One validation step: forward and loss, no gradients. The learner calls it
/// on [`valid`](Module::valid) snapshots of the model.
pub trait ValidStep<VI, VO> {
    /// Runs the step on a batch.
    fn step(&self, item: VI) -> VO;
}

/// The output of a classification step.
#[derive(Clone, Debug)]
pub struct ClassificationOutput {
    /// The batch's loss.
    pub loss: Tensor<1>,
    /// Class scores, `[batch, classes]`.
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

impl Adaptor<LossInput> for ClassificationOutput {
    fn adapt(&self) -> LossInput {
        LossInput::new(self.loss.clone())
    }
}

impl Adaptor<ClassificationInput> for ClassificationOutput {
    fn adapt(&self) -> ClassificationInput {
        ClassificationInput::new(self.output.clone(), self.targets.clone())
    }
}

/// The output of a regression step.
#[derive(Clone, Debug)]
pub struct RegressionOutput {
    /// The batch's loss.
    pub loss: Tensor<1>,
    /// Predictions, `[batch, outputs]`.
    pub output: Tensor<2>,
    /// Targets, `[batch, outputs]`.
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

impl Adaptor<LossInput> for RegressionOutput {
    fn adapt(&self) -> LossInput {
        LossInput::new(self.loss.clone())
    }
}
