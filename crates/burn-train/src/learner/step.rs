//! What a model implements to be trained: [`TrainStep`] and
//! [`InferenceStep`], what a step returns ([`TrainOutput`]), what a run
//! returns ([`LearningResult`]), and [`LearnerModel`], the one bound that
//! gathers them.

use std::boxed::Box;
use std::sync::Arc;

use burn_core::module::Module;
use burn_optim::{GradientsParams, LearningRate, ModuleOptimizer};
use burn_tensor::Gradients;

use super::{Interruption, TrainingError};
use crate::metric::ItemLazy;
use crate::renderer::MetricsRenderer;

/// The result of a training step: the gradients to apply and the output the
/// metrics read.
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

/// One training step of a model: forward, loss, backward.
///
/// The training loop applies the returned gradients with its optimizer
/// through [`optimize`](TrainStep::optimize), which a model may override to
/// do something around the update (clip its weights, say).
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Module, Param};
/// use burn::tensor::{Device, Tensor};
/// use burn_train::{RegressionOutput, TrainOutput, TrainStep};
///
/// #[derive(Module, Debug)]
/// struct Line {
///     w: Param<Tensor<1>>,
/// }
///
/// impl TrainStep for Line {
///     type Input = (Tensor<2>, Tensor<2>);
///     type Output = RegressionOutput;
///
///     fn step(&self, (x, y): Self::Input) -> TrainOutput<RegressionOutput> {
///         let output = x * self.w.val().unsqueeze();
///         let loss = (output.clone() - y.clone()).square().mean();
///         TrainOutput::new(self, loss.backward(), RegressionOutput::new(loss, output, y))
///     }
/// }
///
/// let device = Device::flex().autodiff();
/// let line = Line { w: Param::from_tensor(Tensor::zeros([1], &device)) };
/// let x = Tensor::<2>::from_data([[1.0], [2.0]], &device);
/// let out = line.step((x.clone(), x * 2.0));
/// assert_eq!(out.grads.len(), 1);
/// ```
pub trait TrainStep {
    /// A training batch.
    type Input: Send + 'static;
    /// What a training step returns for the metrics.
    type Output: ItemLazy + 'static;

    /// Runs the step on a batch.
    fn step(&self, item: Self::Input) -> TrainOutput<Self::Output>;

    /// Applies `grads` with learning rate `lr` and returns the updated
    /// model.
    ///
    /// Burn 0.23 passes a per-parameter-group `ModuleLearningRate` here;
    /// this workspace's optimizers take one rate per step, so this is that
    /// rate.
    fn optimize(self, optim: &mut ModuleOptimizer, lr: LearningRate, grads: GradientsParams) -> Self
    where
        Self: Module + Sized,
    {
        optim.step(lr, self, grads)
    }
}

/// One inference step of a model (validation, evaluation): forward and
/// loss, no gradients. The training loop calls it on a
/// [`valid`](burn_core::module::AutodiffModule::valid) snapshot of the model.
pub trait InferenceStep {
    /// A validation or test batch.
    type Input: Send + 'static;
    /// What an inference step returns for the metrics.
    type Output: ItemLazy + 'static;

    /// Runs the step on a batch.
    fn step(&self, item: Self::Input) -> Self::Output;
}

/// A model a [`Learner`](crate::Learner) can train: a [`Module`] with both
/// steps.
///
/// Burn 0.23 also asks for `Display` (its module derive provides one); this
/// workspace's derive does not, so the bound is left out and any model with
/// the two steps qualifies.
pub trait LearnerModel: TrainStep + InferenceStep + Module + 'static {}

impl<T> LearnerModel for T where T: TrainStep + InferenceStep + Module + 'static {}

/// What a training run returns.
pub struct LearningResult<M> {
    /// The trained model, as a [`valid`](burn_core::module::AutodiffModule::valid) snapshot: call
    /// [`train`](Module::train) on it before training it further.
    pub model: M,
    /// The renderer, to show an evaluation that follows on the same screen.
    pub renderer: Box<dyn MetricsRenderer>,
    /// The stop that ended training early, if
    /// [`Interrupter::stop`](crate::Interrupter::stop) was called and no
    /// error happened.
    pub interrupted: Option<Interruption>,
    /// The error that ended training early, if there was one.
    pub error: Option<Arc<TrainingError>>,
}

impl<M> core::fmt::Debug for LearningResult<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LearningResult")
            .field("interrupted", &self.interrupted)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}
