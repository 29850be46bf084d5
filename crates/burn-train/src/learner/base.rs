//! [`Learner`]: the model, optimizer and scheduler being trained;
//! [`Interrupter`]: asking a run to stop; [`LearningCheckpointer`]: saving
//! and restoring a learner.

use std::boxed::Box;
use std::marker::PhantomData;
use std::string::String;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use burn_core::data::dataset::DatasetError;
use burn_core::record::ModuleRecord;
use burn_optim::{
    GradientsParams, LearningRate, LrScheduler, LrSchedulerRecord, ModuleOptimizer, OptimizerRecord,
};
use burn_tensor::Device;

use super::{LearnerModel, TrainOutput, TrainStep, TrainingError};
use crate::checkpoint::{
    AsyncCheckpointer, Checkpointer, CheckpointingAction, CheckpointingStrategy,
};
use crate::metric::store::EventStoreClient;

/// What training updates: a model, the optimizer that updates it and the
/// scheduler that gives each update its learning rate.
///
/// A [`SupervisedTraining`](crate::SupervisedTraining) run takes a learner
/// and trains it; a custom [`SupervisedLearningStrategy`](crate::SupervisedLearningStrategy)
/// drives one step by step with [`train_step`](Self::train_step),
/// [`lr_step`](Self::lr_step) and [`optimizer_step`](Self::optimizer_step).
pub struct Learner<M: LearnerModel> {
    pub(crate) model: M,
    pub(crate) optim: ModuleOptimizer,
    pub(crate) lr_scheduler: Box<dyn LrScheduler>,
    lr: LearningRate,
}

impl<M: LearnerModel> core::fmt::Debug for Learner<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Learner")
            .field("lr", &self.lr)
            .finish_non_exhaustive()
    }
}

impl<M: LearnerModel> Learner<M> {
    /// A learner of `model`, updated by `optim` with learning rates from
    /// `lr_scheduler` (a plain `f64` is a constant rate).
    ///
    /// Burn 0.23 takes `impl Into<ModuleLrScheduler>` (a scheduler per
    /// parameter group); this workspace has one scheduler per run, and every
    /// schedule and `f64` that converts there is accepted here.
    pub fn new(model: M, optim: ModuleOptimizer, lr_scheduler: impl LrScheduler + 'static) -> Self {
        Self {
            model,
            optim,
            lr_scheduler: Box::new(lr_scheduler),
            lr: 0.0,
        }
    }

    /// Moves the model to `device` as fresh leaves (see
    /// [`Module::fork`](burn_core::module::Module::fork)), in training mode:
    /// on an autodiff device, its trainable parameters are then tracked.
    pub fn fork(&mut self, device: &Device) {
        self.model = self.model.clone().fork(device).train();
    }

    /// The model (a cheap clone of its parameter handles).
    pub fn model(&self) -> M {
        self.model.clone()
    }

    /// The learning rate of the last [`lr_step`](Self::lr_step) (0 before
    /// the first).
    pub fn lr_current(&self) -> LearningRate {
        self.lr
    }

    /// Advances the scheduler: the next update uses its new rate.
    pub fn lr_step(&mut self) {
        self.lr = self.lr_scheduler.step();
    }

    /// A training step of the model on `item` (forward and backward).
    pub fn train_step(
        &self,
        item: <M as TrainStep>::Input,
    ) -> TrainOutput<<M as TrainStep>::Output> {
        TrainStep::step(&self.model, item)
    }

    /// Updates the model with `grads` at the current learning rate, through
    /// [`TrainStep::optimize`].
    pub fn optimizer_step(&mut self, grads: GradientsParams) {
        self.model = self.model.clone().optimize(&mut self.optim, self.lr, grads);
    }

    /// Loads the model's parameters from `record`.
    ///
    /// # Panics
    /// If the record does not fit the model (see [`Module::load_record`]).
    pub fn load_model(&mut self, record: ModuleRecord) {
        self.model = self.model.clone().load_record(record);
    }

    /// Loads the optimizer's state from `record`; the state moves to each
    /// parameter's device on the next step.
    ///
    /// # Panics
    /// If the record does not fit the optimizer.
    pub fn load_optim(&mut self, record: OptimizerRecord) {
        self.optim = self.optim.clone().load_record(record);
    }

    /// Loads the scheduler's state from `record`.
    ///
    /// # Panics
    /// If the record lacks a value the scheduler needs.
    pub fn load_scheduler(&mut self, record: LrSchedulerRecord) {
        if let Err(error) = self.lr_scheduler.apply_record(&record) {
            panic!("Learner::load_scheduler: {error}");
        }
    }
}

/// Saves a learner's model, optimizer and scheduler as a strategy says, and
/// restores them to resume.
pub struct LearningCheckpointer<M: LearnerModel> {
    model: AsyncCheckpointer<ModuleRecord>,
    optim: AsyncCheckpointer<OptimizerRecord>,
    lr_scheduler: AsyncCheckpointer<LrSchedulerRecord>,
    strategy: Box<dyn CheckpointingStrategy>,
    _model: PhantomData<fn() -> M>,
}

impl<M: LearnerModel> LearningCheckpointer<M> {
    /// Checkpoints the three states with their checkpointers, when
    /// `strategy` says.
    pub fn new(
        model: AsyncCheckpointer<ModuleRecord>,
        optim: AsyncCheckpointer<OptimizerRecord>,
        lr_scheduler: AsyncCheckpointer<LrSchedulerRecord>,
        strategy: Box<dyn CheckpointingStrategy>,
    ) -> Self {
        Self {
            model,
            optim,
            lr_scheduler,
            strategy,
            _model: PhantomData,
        }
    }

    /// Applies the strategy's actions after `epoch`.
    ///
    /// # Errors
    /// When a checkpoint cannot be deleted or queued (a failed write of a
    /// queued one is reported through the checkpointers' interrupter).
    pub fn checkpoint(
        &mut self,
        learner: &Learner<M>,
        epoch: usize,
        store: &EventStoreClient,
    ) -> Result<(), TrainingError> {
        for action in self.strategy.checkpointing(epoch, store) {
            match action {
                CheckpointingAction::Delete(old) => {
                    self.model.delete(old)?;
                    self.optim.delete(old)?;
                    self.lr_scheduler.delete(old)?;
                }
                CheckpointingAction::Save => {
                    self.model
                        .save(epoch, learner.model.clone().into_record())?;
                    self.optim.save(epoch, learner.optim.to_record())?;
                    self.lr_scheduler
                        .save(epoch, learner.lr_scheduler.to_record())?;
                }
            }
        }
        Ok(())
    }

    /// `learner` with the states of `epoch`'s checkpoint.
    ///
    /// # Panics
    /// If the checkpoint is missing or does not fit; see
    /// [`try_load_checkpoint`](Self::try_load_checkpoint).
    pub fn load_checkpoint(&self, learner: Learner<M>, epoch: usize) -> Learner<M> {
        self.try_load_checkpoint(learner, epoch)
            .unwrap_or_else(|error| panic!("resuming from epoch {epoch}: {error}"))
    }

    /// `learner` with the states of `epoch`'s checkpoint.
    ///
    /// # Errors
    /// When a checkpoint is missing, unreadable, or does not fit the model,
    /// optimizer or scheduler.
    pub fn try_load_checkpoint(
        &self,
        mut learner: Learner<M>,
        epoch: usize,
    ) -> Result<Learner<M>, TrainingError> {
        use crate::checkpoint::CheckpointerError;
        let record = self.model.restore(epoch)?;
        learner.model = learner
            .model
            .try_load_record(record)
            .map_err(CheckpointerError::Record)?;
        let record = self.optim.restore(epoch)?;
        learner.optim = learner
            .optim
            .try_load_record(record)
            .map_err(CheckpointerError::Optim)?;
        let record = self.lr_scheduler.restore(epoch)?;
        learner
            .lr_scheduler
            .apply_record(&record)
            .map_err(CheckpointerError::Optim)?;
        Ok(learner)
    }
}

/// A stop asked for with [`Interrupter::stop`] (not an error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interruption {
    /// The reason given, if any.
    pub reason: Option<String>,
}

/// A handle that stops a running training or evaluation, shared between
/// the run and whoever may stop it (the dashboard's `q`, a signal handler,
/// another thread, a failing checkpointer).
///
/// The run checks it after each batch: the pass in progress ends after the
/// batch, and the run returns the model as it is. The interrupted epoch is
/// not checkpointed (its state is not at an epoch boundary); the
/// checkpoints of the finished epochs are whole files. A stop is either a
/// request ([`stop`](Self::stop)) or an error ([`fail`](Self::fail)); an
/// error takes precedence.
#[derive(Clone, Debug, Default)]
pub struct Interrupter {
    state: Arc<AtomicBool>,
    message: Arc<Mutex<Option<String>>>,
    error: Arc<Mutex<Option<Arc<TrainingError>>>>,
}

impl Interrupter {
    /// A handle that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the run to stop, for `reason` if given.
    pub fn stop(&self, reason: Option<&str>) {
        if let Some(reason) = reason
            && let Ok(mut message) = self.message.lock()
        {
            *message = Some(reason.to_string());
        }
        self.state.store(true, Ordering::SeqCst);
    }

    /// Stops the run because of `error`. The first error is kept as the
    /// cause; later ones, usually its consequences, are only printed.
    pub fn fail(&self, error: impl Into<TrainingError>) {
        let error = error.into();
        if let Ok(mut slot) = self.error.lock() {
            match &*slot {
                None => *slot = Some(Arc::new(error)),
                Some(_) => eprintln!("burn-train: after an earlier error: {error}"),
            }
        }
        self.state.store(true, Ordering::SeqCst);
    }

    /// [`fail`](Self::fail)s with `result`'s error, if it is one.
    pub fn fail_on_error<E: Into<TrainingError>>(&self, result: Result<(), E>) {
        if let Err(error) = result {
            self.fail(error);
        }
    }

    /// A batch as a data loader's iterator yields it: `Some(batch)` when it
    /// loaded; `None` at the end of the split, or when the dataset failed to
    /// produce one of its items, in which case the run
    /// [`fail`](Self::fail)s with that error. For the loops of training
    /// strategies: `while let Some(batch) = interrupter.batch(it.next())`.
    pub fn batch<T>(&self, read: Option<Result<T, DatasetError>>) -> Option<T> {
        match read? {
            Ok(batch) => Some(batch),
            Err(error) => {
                self.fail(error);
                None
            }
        }
    }

    /// Forgets any stop, its reason and its error (to run again with the
    /// same handle).
    pub fn reset(&self) {
        self.state.store(false, Ordering::SeqCst);
        if let Ok(mut message) = self.message.lock() {
            message.take();
        }
        if let Ok(mut error) = self.error.lock() {
            error.take();
        }
    }

    /// Whether the run should stop ([`stop`](Self::stop) or
    /// [`fail`](Self::fail) was called).
    pub fn should_stop(&self) -> bool {
        self.state.load(Ordering::SeqCst)
    }

    /// The stop, if the run was stopped without an error.
    pub fn interruption(&self) -> Option<Interruption> {
        (self.should_stop() && self.error().is_none()).then(|| Interruption {
            reason: self.get_message(),
        })
    }

    /// The error the run stopped on, if [`fail`](Self::fail) was called.
    pub fn error(&self) -> Option<Arc<TrainingError>> {
        self.error.lock().ok().and_then(|error| error.clone())
    }

    /// The reason given to [`stop`](Self::stop), if any.
    pub fn get_message(&self) -> Option<String> {
        self.message.lock().ok().and_then(|message| message.clone())
    }
}
