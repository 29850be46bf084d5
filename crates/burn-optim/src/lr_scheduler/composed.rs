//! Schedules built from schedules: [`ComposedLrScheduler`] combines rates
//! step by step, [`SequentialLrScheduler`] runs one after another.

use std::boxed::Box;
use std::vec::Vec;

use super::{LrScheduler, read_step};
use crate::{LearningRate, LrSchedulerRecord, OptimError};

/// How a [`ComposedLrScheduler`] combines its children's rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// The product (a warm-up factor times a decay).
    Prod,
    /// The sum.
    Sum,
    /// The mean.
    Avg,
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
