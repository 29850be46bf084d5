//! The learner end to end on a two-class problem: training, logs,
//! checkpoints, resuming, interrupting, early stopping, accumulation.

use std::sync::Arc;

use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
use burn::data::dataset::InMemDataset;
use burn::module::{Module, Param, ParamId};
use burn::record::ModuleRecord;
use burn::tensor::{Device, Int, Tensor, activation};
use burn_core as burn;
use burn_optim::lr_scheduler::StepLrSchedulerConfig;
use burn_optim::{AdamConfig, LrScheduler, LrSchedulerRecord, OptimizerRecord, SgdConfig};
use burn_train::checkpoint::{Checkpointer, FileCheckpointer};
use burn_train::metric::{AccuracyMetric, LearningRateMetric, LossMetric};
use burn_train::renderer::{MetricState, MetricsRenderer, TextRenderer, TrainingProgress};
use burn_train::{
    ClassificationOutput, Direction, LearnerBuilder, MetricEarlyStoppingStrategy, Split,
    StoppingCondition, TrainOutput, TrainStep, TrainingInterrupter, ValidStep,
};

/// Features, one-hot targets, targets.
type Batch = (Tensor<2>, Tensor<2>, Tensor<1, Int>);

/// Logistic regression on two features and two classes.
#[derive(Module, Debug)]
struct Classifier {
    weight: Param<Tensor<2>>,
    bias: Param<Tensor<1>>,
}

impl Classifier {
    /// Fixed values and ids, so two runs start from the same model and
    /// their optimizer records use the same keys.
    fn new(device: &Device) -> Self {
        Self {
            weight: Param::initialized(
                ParamId::from(1),
                Tensor::from_data([[0.1, -0.2], [0.05, 0.3]], device),
            ),
            bias: Param::initialized(ParamId::from(2), Tensor::zeros([2], device)),
        }
    }

    fn forward(&self, (x, onehot, targets): Batch) -> ClassificationOutput {
        // x: [batch, 2] -> logits: [batch, 2]
        let logits = x.matmul(self.weight.val()) + self.bias.val().unsqueeze();
        // Cross entropy: −mean over the batch of the target's log-probability.
        let loss = (activation::log_softmax(logits.clone(), 1) * onehot)
            .sum_dim(1)
            .mean()
            .neg();
        ClassificationOutput::new(loss, logits, targets)
    }
}

impl TrainStep<Batch, ClassificationOutput> for Classifier {
    fn step(&self, batch: Batch) -> TrainOutput<ClassificationOutput> {
        let output = self.forward(batch);
        TrainOutput::new(self, output.loss.backward(), output)
    }
}

impl ValidStep<Batch, ClassificationOutput> for Classifier {
    fn step(&self, batch: Batch) -> ClassificationOutput {
        self.forward(batch)
    }
}

/// 64 points of an 8×8 grid in [-1, 1]²; class 1 when x + y > 0.
fn points() -> Vec<([f32; 2], i64)> {
    (0..64)
        .map(|i| {
            let a = (i % 8) as f32 / 7.0 * 2.0 - 1.0;
            let b = (i / 8) as f32 / 7.0 * 2.0 - 1.0;
            ([a, b], i64::from(a + b > 0.0))
        })
        .collect()
}

fn loader(device: &Device, shuffle: Option<u64>) -> Arc<dyn DataLoader<Batch>> {
    let mut builder = DataLoaderBuilder::new(|items: Vec<([f32; 2], i64)>, device: &Device| {
        let n = items.len();
        let x: Vec<f32> = items.iter().flat_map(|(p, _)| p.iter().copied()).collect();
        let onehot: Vec<f32> = items
            .iter()
            .flat_map(|&(_, t)| [f32::from(t == 0), f32::from(t == 1)])
            .collect();
        let targets: Vec<i64> = items.iter().map(|&(_, t)| t).collect();
        (
            Tensor::<1>::from_floats(x.as_slice(), device).reshape([n, 2]),
            Tensor::<1>::from_floats(onehot.as_slice(), device).reshape([n, 2]),
            Tensor::<1, Int>::from_data(targets.as_slice(), device),
        )
    })
    .batch_size(8)
    .set_device(device.clone());
    if let Some(seed) = shuffle {
        builder = builder.shuffle(seed);
    }
    builder.build(InMemDataset::new(points()))
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("burn-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn values(model: &Classifier) -> Vec<f32> {
    let mut out = model.weight.val().into_data().to_vec::<f32>().unwrap();
    out.extend(model.bias.val().into_data().to_vec::<f32>().unwrap());
    out
}

/// A renderer that records what it is given and can pull an interrupter.
#[derive(Default)]
struct Recorder {
    train_updates: usize,
    valid_updates: usize,
    progress: Vec<(Split, TrainingProgress)>,
    epochs: Vec<(Split, usize)>,
    stop_at: Option<(usize, usize)>,
    interrupter: Option<TrainingInterrupter>,
    ended: Arc<std::sync::atomic::AtomicBool>,
}

impl MetricsRenderer for Recorder {
    fn update_train(&mut self, _state: MetricState) {
        self.train_updates += 1;
    }

    fn update_valid(&mut self, _state: MetricState) {
        self.valid_updates += 1;
    }

    fn render_train(&mut self, item: TrainingProgress) {
        self.progress.push((Split::Train, item));
        if self.stop_at == Some((item.epoch, item.iteration)) {
            self.interrupter.as_ref().unwrap().stop();
        }
    }

    fn render_valid(&mut self, item: TrainingProgress) {
        self.progress.push((Split::Valid, item));
    }

    fn on_epoch_end(
        &mut self,
        split: Split,
        epoch: usize,
        _summary: &burn_train::renderer::EpochSummary,
    ) {
        self.epochs.push((split, epoch));
    }

    fn on_train_end(&mut self) {
        self.ended.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn fit_learns_logs_and_keeps_the_last_checkpoints() {
    let device = Device::flex();
    let dir = temp_dir("fit");
    let ended = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let recorder = Recorder {
        ended: ended.clone(),
        ..Recorder::default()
    };
    let learner = LearnerBuilder::new(&dir)
        .metric_train_numeric(LossMetric::new())
        .metric_train_numeric(AccuracyMetric::new())
        .metric_train_numeric(LearningRateMetric::new())
        .metric_valid_numeric(LossMetric::new())
        .metric_valid_numeric(AccuracyMetric::new())
        .with_file_checkpointer(2)
        .devices(vec![device.clone()])
        .num_epochs(5)
        .renderer(recorder)
        .build(Classifier::new(&device), SgdConfig::new().init(), 0.5);
    let result = learner
        .fit(loader(&device, Some(3)), loader(&device, None))
        .unwrap();

    assert!(ended.load(std::sync::atomic::Ordering::SeqCst));
    assert_eq!(result.last_epoch, 5);
    assert!(!result.interrupted && !result.stopped_early);
    let loss = result.history.series(Split::Valid, "Loss");
    assert_eq!(loss.len(), 5);
    assert!(
        loss[4].1 < loss[0].1,
        "validation loss did not decrease: {loss:?}"
    );
    let accuracy = result.history.series(Split::Valid, "Accuracy");
    assert!(accuracy[4].1 > 85.0, "{accuracy:?}");
    assert_eq!(
        result.history.series(Split::Train, "Learning Rate")[0].1,
        0.5
    );
    assert_eq!(result.train_times.len(), 5);
    assert!(result.train_times.iter().all(|&(_, _, items)| items == 64));

    // Logs: one line per batch (64 items / 8), one line per epoch and metric.
    let log = std::fs::read_to_string(dir.join("train/epoch-3/Loss.log")).unwrap();
    assert_eq!(log.lines().count(), 8);
    let epochs = std::fs::read_to_string(dir.join("valid/epochs.log")).unwrap();
    assert_eq!(epochs.lines().count(), 10);
    assert!(epochs.lines().last().unwrap().starts_with("5\tAccuracy\t"));

    // Only the two most recent epochs are kept, and they load.
    let ckpt = dir.join("checkpoint");
    for epoch in 1..=3 {
        assert!(
            !ckpt.join(format!("model-{epoch}.bpk")).exists(),
            "epoch {epoch} kept"
        );
    }
    for name in ["model", "optim", "scheduler"] {
        assert!(ckpt.join(format!("{name}-5.bpk")).is_file(), "{name}-5");
    }
    let record = ModuleRecord::load(ckpt.join("model-5.bpk")).unwrap();
    let loaded = Classifier::new(&device).load_record(record);
    assert_eq!(values(&loaded), values(&result.model));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Adam with a step schedule and a shuffled loader: resuming from epoch 2
/// must reach exactly the state of an uninterrupted run.
#[test]
fn resume_continues_at_the_next_epoch_with_optimizer_and_scheduler_state() {
    let device = Device::flex();
    let scheduler = || StepLrSchedulerConfig::new(0.05, 5, 0.5).init();
    let run = |dir: &std::path::Path, epochs: usize, resume: Option<usize>| {
        let mut builder = LearnerBuilder::new(dir)
            .metric_train_numeric(LossMetric::new())
            .metric_valid_numeric(LossMetric::new())
            .with_file_checkpointer(10)
            .num_epochs(epochs)
            .renderer(TextRenderer::new());
        if let Some(epoch) = resume {
            builder = builder.checkpoint(epoch);
        }
        builder
            .build(
                Classifier::new(&device),
                AdamConfig::new().init(),
                scheduler(),
            )
            .fit(
                loader(&device.clone().autodiff(), Some(11)),
                loader(&device, None),
            )
            .unwrap()
    };

    let straight_dir = temp_dir("resume-straight");
    let straight = run(&straight_dir, 4, None);

    let split_dir = temp_dir("resume-split");
    let first = run(&split_dir, 2, None);
    assert_eq!(first.last_epoch, 2);
    let resumed = run(&split_dir, 4, Some(2));
    assert_eq!(
        resumed.train_times.first().map(|t| t.0),
        Some(3),
        "resumed at the wrong epoch"
    );
    assert_eq!(resumed.last_epoch, 4);

    assert_eq!(values(&resumed.model), values(&straight.model));
    let ckpt = |dir: &std::path::Path| FileCheckpointer::new(dir.join("checkpoint"), "optim");
    let optim_a: OptimizerRecord = ckpt(&straight_dir).restore(4).unwrap();
    let optim_b: OptimizerRecord = ckpt(&split_dir).restore(4).unwrap();
    assert_eq!(optim_a, optim_b);
    let sched = |dir: &std::path::Path| FileCheckpointer::new(dir.join("checkpoint"), "scheduler");
    let sched_a: LrSchedulerRecord = sched(&straight_dir).restore(4).unwrap();
    let sched_b: LrSchedulerRecord = sched(&split_dir).restore(4).unwrap();
    assert_eq!(sched_a, sched_b);
    // 4 epochs of 8 batches: the scheduler stepped 32 times.
    let mut restored = scheduler();
    restored.apply_record(&sched_b).unwrap();
    assert_eq!(
        restored.to_record().get("step").map(|s| s.elem::<u64>()),
        Some(32)
    );
    // The resumed run's history holds the first run's epochs too.
    assert_eq!(
        resumed.history.series(Split::Valid, "Loss"),
        straight.history.series(Split::Valid, "Loss")
    );

    std::fs::remove_dir_all(&straight_dir).unwrap();
    std::fs::remove_dir_all(&split_dir).unwrap();
}

#[test]
fn interrupting_stops_after_the_batch_and_keeps_finished_checkpoints() {
    let device = Device::flex();
    let dir = temp_dir("interrupt");
    let builder = LearnerBuilder::new(&dir)
        .metric_train_numeric(LossMetric::new())
        .with_file_checkpointer(5)
        .num_epochs(10);
    let recorder = Recorder {
        stop_at: Some((2, 3)),
        interrupter: Some(builder.interrupter()),
        ..Recorder::default()
    };
    let result = builder
        .renderer(recorder)
        .build(Classifier::new(&device), SgdConfig::new().init(), 0.5)
        .fit(
            loader(&device.clone().autodiff(), None),
            loader(&device, None),
        )
        .unwrap();

    assert!(result.interrupted);
    assert_eq!(result.last_epoch, 1);
    let ckpt = dir.join("checkpoint");
    assert!(ckpt.join("model-1.bpk").is_file());
    assert!(
        !ckpt.join("model-2.bpk").exists(),
        "a partial epoch was checkpointed"
    );
    // The finished epoch's checkpoint is whole and loads.
    let record = ModuleRecord::load(ckpt.join("model-1.bpk")).unwrap();
    Classifier::new(&device).try_load_record(record).unwrap();
    // Epoch 2 stopped after its third batch: 3 items logged there.
    let log = std::fs::read_to_string(dir.join("train/epoch-2/Loss.log")).unwrap();
    assert_eq!(log.lines().count(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn early_stopping_ends_when_the_metric_stops_improving() {
    let device = Device::flex();
    let dir = temp_dir("early");
    // A learning rate of 0 never improves the loss: the first epoch stays
    // the best, and training stops two epochs later.
    let result = LearnerBuilder::new(&dir)
        .metric_valid_numeric(LossMetric::new())
        .early_stopping(MetricEarlyStoppingStrategy::new(
            &LossMetric::new(),
            Direction::Lowest,
            Split::Valid,
            StoppingCondition::NoImprovementSince { n_epochs: 2 },
        ))
        .num_epochs(10)
        .renderer(TextRenderer::new())
        .build(Classifier::new(&device), SgdConfig::new().init(), 0.0)
        .fit(
            loader(&device.clone().autodiff(), None),
            loader(&device, None),
        )
        .unwrap();
    assert!(result.stopped_early);
    assert_eq!(result.last_epoch, 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gradient_accumulation_steps_once_per_group_of_batches() {
    let device = Device::flex();
    let dir = temp_dir("accumulate");
    let scheduler = StepLrSchedulerConfig::new(0.1, 100, 0.5).init();
    let result = LearnerBuilder::new(&dir)
        .with_file_checkpointer(1)
        .grads_accumulation(3)
        .num_epochs(1)
        .renderer(TextRenderer::new())
        .build(Classifier::new(&device), SgdConfig::new().init(), scheduler)
        .fit(
            loader(&device.clone().autodiff(), None),
            loader(&device, None),
        )
        .unwrap();
    assert_eq!(result.last_epoch, 1);
    // 8 batches in groups of 3: steps after batches 3 and 6, and one for the
    // 2 left at the end of the epoch.
    let record: LrSchedulerRecord = FileCheckpointer::new(dir.join("checkpoint"), "scheduler")
        .restore(1)
        .unwrap();
    assert_eq!(record.get("step").map(|s| s.elem::<u64>()), Some(3));
    std::fs::remove_dir_all(&dir).unwrap();
}
