//! Schedules built from schedules: [`ComposedLrScheduler`] combines rates
//! step by step, [`SequentialLrScheduler`] runs one after another.

use std::boxed::Box;
use std::string::String;
use std::vec::Vec;

use burn_core::config::Config;

use super::{
    CosineAnnealingLrSchedulerConfig, ExponentialLrSchedulerConfig, LinearLrSchedulerConfig,
    LrScheduler, NoamLrSchedulerConfig, StepLrSchedulerConfig, read_step,
};
use crate::{LearningRate, LrSchedulerRecord, OptimError};

/// How a [`ComposedLrScheduler`] combines its children's rates (Burn's
/// name; [`Reduction`] is the same type).
#[derive(Config, Debug, Copy, PartialEq, Eq)]
pub enum SchedulerReduction {
    /// The product (a warm-up factor times a decay).
    Prod,
    /// The sum.
    Sum,
    /// The mean.
    Avg,
}

/// The name this crate used first for [`SchedulerReduction`].
pub type Reduction = SchedulerReduction;

/// One schedule of a [`ComposedLrSchedulerConfig`].
#[derive(Config, Debug)]
pub enum LrSchedulerConfig {
    /// A constant rate.
    Constant(LearningRate),
    /// [`LinearLrSchedulerConfig`].
    Linear(LinearLrSchedulerConfig),
    /// [`CosineAnnealingLrSchedulerConfig`].
    Cosine(CosineAnnealingLrSchedulerConfig),
    /// [`ExponentialLrSchedulerConfig`].
    Exponential(ExponentialLrSchedulerConfig),
    /// [`NoamLrSchedulerConfig`].
    Noam(NoamLrSchedulerConfig),
    /// [`StepLrSchedulerConfig`].
    Step(StepLrSchedulerConfig),
    /// A nested [`ComposedLrSchedulerConfig`].
    Composed(ComposedLrSchedulerConfig),
}

impl LrSchedulerConfig {
    fn build(&self) -> Result<Box<dyn LrScheduler>, String> {
        Ok(match self {
            Self::Constant(lr) => Box::new(*lr),
            Self::Linear(config) => Box::new(config.init()),
            Self::Cosine(config) => Box::new(config.init()),
            Self::Exponential(config) => Box::new(config.init()),
            Self::Noam(config) => Box::new(config.init()),
            Self::Step(config) => Box::new(config.init()),
            Self::Composed(config) => Box::new(config.init()?),
        })
    }
}

/// The configuration of a [`ComposedLrScheduler`] (Burn's): the schedules
/// in order and how their rates combine (the product by default).
///
/// ```
/// use burn_optim::LrScheduler;
/// use burn_optim::lr_scheduler::composed::ComposedLrSchedulerConfig;
/// use burn_optim::lr_scheduler::linear::LinearLrSchedulerConfig;
///
/// // A linear warm-up factor from 0.5 to 1 over 2 steps, times 0.1.
/// let mut lr = ComposedLrSchedulerConfig::new()
///     .linear(LinearLrSchedulerConfig::new(0.5, 1.0, 2))
///     .constant(0.1)
///     .init()
///     .unwrap();
/// let rates: Vec<f64> = (0..3).map(|_| lr.step()).collect();
/// assert!((rates[0] - 0.05).abs() < 1e-12 && (rates[2] - 0.1).abs() < 1e-12);
/// assert!(ComposedLrSchedulerConfig::new().init().is_err());
/// ```
#[derive(Config, Debug)]
pub struct ComposedLrSchedulerConfig {
    /// The schedules, stepped together.
    #[config(default = "Vec::new()")]
    pub schedulers: Vec<LrSchedulerConfig>,
    /// How their rates combine.
    #[config(default = "SchedulerReduction::Prod")]
    pub reduction: SchedulerReduction,
}

impl ComposedLrSchedulerConfig {
    /// The scheduler, or why it cannot be built: no schedule was added.
    pub fn init(&self) -> Result<ComposedLrScheduler, String> {
        if self.schedulers.is_empty() {
            return Err(
                "ComposedLrSchedulerConfig::init: no schedule to compose; add one \
                        with `constant`, `linear`, `cosine`, `exponential`, `noam`, `step` \
                        or `composed`"
                    .into(),
            );
        }
        let mut scheduler = ComposedLrScheduler::new(self.reduction);
        for config in &self.schedulers {
            scheduler.children.push(config.build()?);
        }
        Ok(scheduler)
    }

    fn push(mut self, config: LrSchedulerConfig) -> Self {
        self.schedulers.push(config);
        self
    }

    /// Adds a constant rate.
    pub fn constant(self, lr: LearningRate) -> Self {
        self.push(LrSchedulerConfig::Constant(lr))
    }

    /// Adds a linear schedule.
    pub fn linear(self, config: LinearLrSchedulerConfig) -> Self {
        self.push(LrSchedulerConfig::Linear(config))
    }

    /// Adds a cosine annealing schedule.
    pub fn cosine(self, config: CosineAnnealingLrSchedulerConfig) -> Self {
        self.push(LrSchedulerConfig::Cosine(config))
    }

    /// Adds an exponential schedule.
    pub fn exponential(self, config: ExponentialLrSchedulerConfig) -> Self {
        self.push(LrSchedulerConfig::Exponential(config))
    }

    /// Adds a Noam schedule.
    pub fn noam(self, config: NoamLrSchedulerConfig) -> Self {
        self.push(LrSchedulerConfig::Noam(config))
    }

    /// Adds a step schedule.
    pub fn step(self, config: StepLrSchedulerConfig) -> Self {
        self.push(LrSchedulerConfig::Step(config))
    }

    /// Adds a composed schedule.
    pub fn composed(self, config: ComposedLrSchedulerConfig) -> Self {
        self.push(LrSchedulerConfig::Composed(config))
    }
}

/// Steps every child at each step and combines their rates. Each child's
/// record is nested under its index.
///
/// ```
/// use burn_optim::LrScheduler;
/// use burn_optim::lr_scheduler::{ComposedLrScheduler, LinearLrSchedulerConfig, Reduction};
///
/// // A linear warm-up factor times a constant 0.1.
/// let mut lr = ComposedLrScheduler::new(Reduction::Prod)
///     .with(LinearLrSchedulerConfig::new(0.5, 1.0, 2).init())
///     .with(0.1);
/// let rates: Vec<f64> = (0..3).map(|_| lr.step()).collect();
/// assert!((rates[0] - 0.05).abs() < 1e-12 && (rates[2] - 0.1).abs() < 1e-12);
/// ```
pub struct ComposedLrScheduler {
    reduction: Reduction,
    children: Vec<Box<dyn LrScheduler>>,
}

impl ComposedLrScheduler {
    /// No children yet.
    pub fn new(reduction: Reduction) -> Self {
        Self {
            reduction,
            children: Vec::new(),
        }
    }

    /// Adds a child.
    pub fn with(mut self, child: impl LrScheduler + 'static) -> Self {
        self.children.push(Box::new(child));
        self
    }

    /// Adds a child (Burn's name for [`with`](Self::with)).
    pub fn with_custom_scheduler<S: LrScheduler + 'static>(self, scheduler: S) -> Self {
        self.with(scheduler)
    }
}

impl core::fmt::Debug for ComposedLrScheduler {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ComposedLrScheduler")
            .field("reduction", &self.reduction)
            .field("children", &self.children.len())
            .finish()
    }
}

impl LrScheduler for ComposedLrScheduler {
    /// # Panics
    /// Without children.
    fn step(&mut self) -> LearningRate {
        assert!(!self.children.is_empty(), "composed schedule: no children");
        let rates = self.children.iter_mut().map(|child| child.step());
        match self.reduction {
            Reduction::Prod => rates.product(),
            Reduction::Sum => rates.sum(),
            Reduction::Avg => rates.sum::<f64>() / self.children.len() as f64,
        }
    }

    fn to_record(&self) -> LrSchedulerRecord {
        self.children
            .iter()
            .enumerate()
            .fold(LrSchedulerRecord::new(), |record, (i, child)| {
                record.with_record(i, &child.to_record())
            })
    }

    fn apply_record(&mut self, record: &LrSchedulerRecord) -> Result<(), OptimError> {
        for (i, child) in self.children.iter_mut().enumerate() {
            child.apply_record(&record.record(i))?;
        }
        Ok(())
    }
}

/// Runs its children one after another: child `k` gives the rates of
/// steps `milestones[k-1]..milestones[k]`, starting from its own step 0
/// (PyTorch's `SequentialLR`, with each child starting fresh).
pub struct SequentialLrScheduler {
    children: Vec<Box<dyn LrScheduler>>,
    milestones: Vec<usize>,
    step: usize,
}

impl SequentialLrScheduler {
    /// Starts with `first`.
    pub fn new(first: impl LrScheduler + 'static) -> Self {
        Self {
            children: vec![Box::new(first)],
            milestones: Vec::new(),
            step: 0,
        }
    }

    /// Switches to `next` at step `milestone`.
    ///
    /// # Panics
    /// If `milestone` is not after the previous one.
    pub fn then_at(mut self, milestone: usize, next: impl LrScheduler + 'static) -> Self {
        assert!(
            self.milestones.last().is_none_or(|&last| milestone > last) && milestone > 0,
            "sequential schedule: milestones must increase"
        );
        self.milestones.push(milestone);
        self.children.push(Box::new(next));
        self
    }
}

impl core::fmt::Debug for SequentialLrScheduler {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SequentialLrScheduler")
            .field("milestones", &self.milestones)
            .field("step", &self.step)
            .finish()
    }
}

impl LrScheduler for SequentialLrScheduler {
    fn step(&mut self) -> LearningRate {
        let active = self
            .milestones
            .iter()
            .take_while(|&&milestone| self.step >= milestone)
            .count();
        self.step += 1;
        self.children[active].step()
    }

    fn to_record(&self) -> LrSchedulerRecord {
        self.children.iter().enumerate().fold(
            LrSchedulerRecord::new().with_scalar("step", self.step as u64),
            |record, (i, child)| record.with_record(i, &child.to_record()),
        )
    }

    fn apply_record(&mut self, record: &LrSchedulerRecord) -> Result<(), OptimError> {
        self.step = read_step(record)?;
        for (i, child) in self.children.iter_mut().enumerate() {
            child.apply_record(&record.record(i))?;
        }
        Ok(())
    }
}
