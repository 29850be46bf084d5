//! Supervised training end to end on a two-class problem: learning, logs,
//! checkpoints, resuming, interrupting, early stopping, accumulation,
//! several devices, evaluation.

mod common;

use burn::module::Module;
use burn::record::ModuleRecord;
use burn::tensor::Device;
use burn_core as burn;
use burn_optim::lr_scheduler::StepLrSchedulerConfig;
use burn_optim::{AdamConfig, LrScheduler, LrSchedulerRecord, OptimizerRecord, SgdConfig};
use burn_train::checkpoint::{Checkpointer, FileCheckpointer, KeepLastNCheckpoints};
use burn_train::logger::InMemoryMetricLogger;
use burn_train::metric::store::{Aggregate, Direction, Split};
use burn_train::metric::{AccuracyMetric, LearningRateMetric, LossMetric};
use burn_train::renderer::CliMetricsRenderer;
use burn_train::{
    EvaluatorBuilder, ExecutionStrategy, Learner, MetricEarlyStoppingStrategy, MultiDeviceOptim,
    StoppingCondition, SupervisedTraining, TrainingError, TrainingStrategy,
};
use common::*;

fn quiet() -> Box<CliMetricsRenderer> {
    Box::new(CliMetricsRenderer::new())
}

#[test]
fn a_run_learns_logs_renders_and_keeps_the_last_checkpoints() {
    let device = Device::flex();
    let dir = temp_dir("launch");
    let (recorder, seen) = Recorder::new();
    let result = SupervisedTraining::new(&dir, loader(Some(3)), loader(None))
        .metrics((LossMetric::new(), AccuracyMetric::new()))
        .metric_train_numeric(LearningRateMetric::new())
        .with_default_checkpointers()
        .with_checkpointing_strategy(KeepLastNCheckpoints::new(2))
        .num_epochs(5)
        .renderer(Box::new(recorder))
        .with_application_logger(None)
        .launch(Learner::new(
            Classifier::new(&device),
            SgdConfig::new().init(),
            0.5,
        ));
    assert!(result.error.is_none(), "{:?}", result.error);
    assert!(result.interrupted.is_none());

    let loss = epoch_values(&dir, "valid", "Loss");
    assert_eq!(loss.len(), 5);
    assert!(
        loss[4] < loss[0],
        "validation loss did not decrease: {loss:?}"
    );
    let accuracy = epoch_values(&dir, "valid", "Accuracy");
    assert!(accuracy[4] > 85.0, "{accuracy:?}");
    assert_eq!(epoch_values(&dir, "train", "Learning Rate")[0], 0.5);
    // One line per batch (64 items / 8), then the epoch value.
    let log = std::fs::read_to_string(dir.join("train/epoch-3/Loss.log")).unwrap();
    assert_eq!(log.lines().count(), 9);

    // The renderer saw the run in order.
    let seen = seen.lock().unwrap();
    assert!(seen.ended);
    assert_eq!(seen.registered, ["Loss", "Accuracy", "Learning Rate"]);
    assert_eq!(seen.epochs, [1, 2, 3, 4, 5]);
    assert_eq!(
        &seen.calls[..5],
        [
            "start",
            "start_split train",
            "end_split train",
            "start_split valid",
            "end_split valid"
        ]
    );
    assert_eq!(&seen.calls[seen.calls.len() - 2..], ["end", "on_train_end"]);
    // Three training metrics per batch (8 batches, 5 epochs), plus each
    // one's epoch value.
    assert_eq!(seen.train_updates, 5 * (8 * 3 + 3));
    assert_eq!(seen.valid_updates, 5 * (8 * 2 + 2));
    let train_progress: Vec<usize> = seen
        .progress
        .iter()
        .filter(|(split, _)| split == "train")
        .take(8)
        .map(|(_, items)| *items)
        .collect();
    assert_eq!(train_progress, [8, 16, 24, 32, 40, 48, 56, 64]);

    // Only the two most recent epochs are kept, and they hold the model.
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
fn resuming_continues_with_the_optimizer_and_scheduler_state() {
    let device = Device::flex();
    let scheduler = || StepLrSchedulerConfig::new(0.05, 5, 0.5).init();
    let run = |dir: &std::path::Path, epochs: usize, resume: Option<usize>| {
        let mut training = SupervisedTraining::new(dir, loader(Some(11)), loader(None))
            .metric_train_numeric(LossMetric::new())
            .metric_valid_numeric(LossMetric::new())
            .with_default_checkpointers()
            .with_checkpointing_strategy(KeepLastNCheckpoints::new(10))
            .num_epochs(epochs)
            .renderer(quiet())
            .with_application_logger(None);
        if let Some(epoch) = resume {
            training = training.checkpoint(epoch);
        }
        let learner = Learner::new(
            Classifier::new(&device),
            AdamConfig::new().init(),
            scheduler(),
        );
        let result = training.launch(learner);
        assert!(result.error.is_none(), "{:?}", result.error);
        result
    };

    let straight_dir = temp_dir("resume-straight");
    let straight = run(&straight_dir, 4, None);
    let split_dir = temp_dir("resume-split");
    run(&split_dir, 2, None);
    assert!(!split_dir.join("train/epoch-3").exists());
    let resumed = run(&split_dir, 4, Some(2));

    assert_eq!(values(&resumed.model), values(&straight.model));
    let ckpt = |dir: &std::path::Path, name| FileCheckpointer::new(dir.join("checkpoint"), name);
    let optim_a: OptimizerRecord = ckpt(&straight_dir, "optim").restore(4).unwrap();
    let optim_b: OptimizerRecord = ckpt(&split_dir, "optim").restore(4).unwrap();
    assert_eq!(optim_a, optim_b);
    let sched_b: LrSchedulerRecord = ckpt(&split_dir, "scheduler").restore(4).unwrap();
    // 4 epochs of 8 batches: the scheduler stepped 32 times.
    let mut restored = scheduler();
    restored.apply_record(&sched_b).unwrap();
    assert_eq!(
        restored.to_record().get("step").map(|s| s.elem::<u64>()),
        Some(32)
    );
    // The resumed run's logs continue the first run's.
    assert_eq!(
        epoch_values(&split_dir, "valid", "Loss"),
        epoch_values(&straight_dir, "valid", "Loss")
    );
    std::fs::remove_dir_all(&straight_dir).unwrap();
    std::fs::remove_dir_all(&split_dir).unwrap();
}

#[test]
fn resuming_without_a_checkpoint_is_an_error_not_a_panic() {
    let device = Device::flex();
    let dir = temp_dir("resume-missing");
    let model = Classifier::new(&device);
    let before = values(&model);
    let result = SupervisedTraining::new(&dir, loader(None), loader(None))
        .with_default_checkpointers()
        .checkpoint(7)
        .renderer(quiet())
        .with_application_logger(None)
        .launch(Learner::new(model, SgdConfig::new().init(), 0.5));
    let error = result.error.expect("resuming from nothing fails");
    assert!(matches!(*error, TrainingError::Checkpoint(_)), "{error}");
    assert!(error.to_string().contains("model-7.bpk"), "{error}");
    assert_eq!(
        values(&result.model),
        before,
        "the model is returned untouched"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn interrupting_stops_after_the_batch_and_keeps_finished_checkpoints() {
    use burn::data::dataloader::DataLoaderBuilder;
    use burn::data::dataset::InMemDataset;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let device = Device::flex();
    let dir = temp_dir("interrupt");
    let interrupter = burn_train::Interrupter::new();
    // The batcher runs on the training thread: stopping while it makes the
    // 11th batch (the 3rd of epoch 2) lets exactly that batch finish.
    let made = AtomicUsize::new(0);
    let stopper = interrupter.clone();
    let inner = loader(None);
    let batches: Vec<_> = inner
        .iter()
        .map(|batch| batch.expect("in-memory batches load"))
        .collect();
    let train = DataLoaderBuilder::new(move |index: Vec<usize>, _device: &Device| {
        if made.fetch_add(1, Ordering::SeqCst) + 1 == 11 {
            stopper.stop(Some("enough"));
        }
        batches[index[0]].clone()
    })
    .batch_size(1)
    .build(InMemDataset::new((0..8).collect::<Vec<usize>>()));
    let result = SupervisedTraining::new(&dir, train, loader(None))
        .metric_train_numeric(LossMetric::new())
        .with_default_checkpointers()
        .with_checkpointing_strategy(KeepLastNCheckpoints::new(5))
        .num_epochs(10)
        .with_interrupter(interrupter)
        .renderer(quiet())
        .with_application_logger(None)
        .launch(Learner::new(
            Classifier::new(&device),
            SgdConfig::new().init(),
            0.5,
        ));

    let interruption = result.interrupted.expect("interrupted");
    assert_eq!(interruption.reason.as_deref(), Some("enough"));
    assert!(result.error.is_none());
    let ckpt = dir.join("checkpoint");
    assert!(ckpt.join("model-1.bpk").is_file());
    assert!(
        !ckpt.join("model-2.bpk").exists(),
        "a partial epoch was checkpointed"
    );
    let record = ModuleRecord::load(ckpt.join("model-1.bpk")).unwrap();
    Classifier::new(&device).try_load_record(record).unwrap();
    // Epoch 2 stopped after its third batch; its epoch value was logged.
    let log = std::fs::read_to_string(dir.join("train/epoch-2/Loss.log")).unwrap();
    assert_eq!(log.lines().count(), 3 + 1);
    assert!(
        !dir.join("valid/epoch-2").exists(),
        "validation ran after the stop"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stop asked by the renderer (the dashboard's `q`) comes from the
/// processor's thread, which may be a batch or two behind the loop.
#[test]
fn a_renderer_can_stop_the_run() {
    let device = Device::flex();
    let dir = temp_dir("interrupt-renderer");
    let training = SupervisedTraining::new(&dir, loader(None), loader(None))
        .with_metric_logger(InMemoryMetricLogger::new())
        .num_epochs(10)
        .with_application_logger(None);
    let (mut recorder, seen) = Recorder::new();
    recorder.stop_after_batches = Some((11, training.interrupter()));
    let result = training.renderer(Box::new(recorder)).launch(Learner::new(
        Classifier::new(&device),
        SgdConfig::new().init(),
        0.5,
    ));
    assert!(result.interrupted.is_some());
    let seen = seen.lock().unwrap();
    let trained = seen
        .progress
        .iter()
        .filter(|(split, _)| split == "train")
        .count();
    assert!((11..=13).contains(&trained), "{trained} training batches");
    assert_eq!(seen.epochs, [1]);
}

#[test]
fn early_stopping_ends_when_the_metric_stops_improving() {
    let device = Device::flex();
    let dir = temp_dir("early");
    let (recorder, seen) = Recorder::new();
    // A learning rate of 0 never improves the loss: the first epoch stays
    // the best, and training stops two epochs later.
    let result = SupervisedTraining::new(&dir, loader(None), loader(None))
        .metric_valid_numeric(LossMetric::new())
        .early_stopping(MetricEarlyStoppingStrategy::new(
            &LossMetric::new(),
            Aggregate::Mean,
            Direction::Lowest,
            Split::Valid,
            StoppingCondition::NoImprovementSince { n_epochs: 2 },
        ))
        .with_metric_logger(InMemoryMetricLogger::new())
        .num_epochs(10)
        .renderer(Box::new(recorder))
        .with_application_logger(None)
        .launch(Learner::new(
            Classifier::new(&device),
            SgdConfig::new().init(),
            0.0,
        ));
    assert!(result.error.is_none() && result.interrupted.is_none());
    assert_eq!(seen.lock().unwrap().epochs, [1, 2, 3]);
    // The in-memory logger replaced the files.
    assert!(!dir.join("valid").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gradient_accumulation_steps_once_per_group_of_batches() {
    let device = Device::flex();
    let dir = temp_dir("accumulate");
    let scheduler = StepLrSchedulerConfig::new(0.1, 100, 0.5).init();
    let result = SupervisedTraining::new(&dir, loader(None), loader(None))
        .with_default_checkpointers()
        .with_checkpointing_strategy(KeepLastNCheckpoints::new(1))
        .grads_accumulation(3)
        .renderer(quiet())
        .with_application_logger(None)
        .launch(Learner::new(
            Classifier::new(&device),
            SgdConfig::new().init(),
            scheduler,
        ));
    assert!(result.error.is_none());
    drop(result);
    // 8 batches in groups of 3: steps after batches 3 and 6, and one for the
    // 2 left at the end of the epoch.
    let record: LrSchedulerRecord = FileCheckpointer::new(dir.join("checkpoint"), "scheduler")
        .restore(1)
        .unwrap();
    assert_eq!(record.get("step").map(|s| s.elem::<u64>()), Some(3));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two devices, each a batch of 8 per step: one update on the mean of their
/// gradients equals one on the batch of 16 they make together.
#[test]
fn two_devices_update_as_one_device_on_the_joined_batches() {
    use burn::data::dataloader::DataLoaderBuilder;
    use burn::data::dataset::InMemDataset;
    let device = Device::flex();
    let two = ExecutionStrategy::multi(
        vec![Device::flex(), Device::flex()],
        MultiDeviceOptim::OptimMainDevice,
    );
    let multi = SupervisedTraining::new(temp_dir("multi"), loader(None), loader(None))
        .with_training_strategy(TrainingStrategy::Default(two))
        .with_metric_logger(InMemoryMetricLogger::new())
        .metric_train_numeric(LossMetric::new())
        .renderer(quiet())
        .with_application_logger(None)
        .launch(Learner::new(
            Classifier::new(&device),
            SgdConfig::new().init(),
            0.5,
        ));
    assert!(multi.error.is_none(), "{:?}", multi.error);

    // The shards are items 0..32 and 32..64; step k joins batch k of each.
    let points = common::points();
    let joined: Vec<_> = (0..4)
        .flat_map(|k| {
            let first = points[8 * k..8 * k + 8].iter();
            let second = points[32 + 8 * k..32 + 8 * k + 8].iter();
            first.chain(second).copied().collect::<Vec<_>>()
        })
        .collect();
    let batcher = |items: Vec<([f32; 2], i64)>, device: &Device| {
        let n = items.len();
        let x: Vec<f32> = items.iter().flat_map(|(p, _)| p.iter().copied()).collect();
        let onehot: Vec<f32> = items
            .iter()
            .flat_map(|&(_, t)| [f32::from(t == 0), f32::from(t == 1)])
            .collect();
        let targets: Vec<i64> = items.iter().map(|&(_, t)| t).collect();
        (
            burn::tensor::Tensor::<1>::from_floats(x.as_slice(), device).reshape([n, 2]),
            burn::tensor::Tensor::<1>::from_floats(onehot.as_slice(), device).reshape([n, 2]),
            burn::tensor::Tensor::<1, burn::tensor::Int>::from_data(targets.as_slice(), device),
        )
    };
    let joined_loader = DataLoaderBuilder::new(batcher)
        .batch_size(16)
        .build(InMemDataset::new(joined));
    let single = SupervisedTraining::new(temp_dir("single"), joined_loader, loader(None))
        .with_metric_logger(InMemoryMetricLogger::new())
        .renderer(quiet())
        .with_application_logger(None)
        .launch(Learner::new(
            Classifier::new(&device),
            SgdConfig::new().init(),
            0.5,
        ));
    for (a, b) in values(&multi.model).iter().zip(values(&single.model)) {
        assert!(
            (a - b).abs() < 1e-6,
            "{:?} vs {:?}",
            values(&multi.model),
            values(&single.model)
        );
    }
}

#[test]
fn an_evaluator_reports_each_test_set() {
    let device = Device::flex();
    let dir = temp_dir("evaluate");
    let trained = SupervisedTraining::new(&dir, loader(Some(1)), loader(None))
        .num_epochs(4)
        .renderer(quiet())
        .with_application_logger(None)
        .launch(Learner::new(
            Classifier::new(&device),
            SgdConfig::new().init(),
            0.5,
        ));
    let (recorder, seen) = Recorder::new();
    let result = EvaluatorBuilder::new(&dir)
        .metrics((AccuracyMetric::new(), LossMetric::new()))
        .renderer(Box::new(recorder))
        .with_application_logger(None)
        .build(trained.model)
        .eval_all([("grid", loader(None)), ("again", loader(None))]);
    assert!(result.error.is_none() && result.interrupted.is_none());
    let seen = seen.lock().unwrap();
    assert_eq!(
        seen.calls.first().map(String::as_str),
        Some("start_global_progress 2")
    );
    assert!(seen.calls.iter().any(|c| c == "start_test again"));
    // Two metrics per batch and their final values, for each set.
    assert_eq!(seen.test_updates, 2 * (8 * 2 + 2));
    let log = std::fs::read_to_string(dir.join("test/grid/Accuracy.log")).unwrap();
    let accuracy: f64 = log
        .lines()
        .last()
        .unwrap()
        .strip_suffix(",final")
        .unwrap()
        .parse()
        .unwrap();
    assert!(accuracy > 85.0, "{accuracy}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A metric that cannot read its input, as on a failing device.
#[derive(Clone)]
struct Unreadable;

impl burn_train::metric::Metric for Unreadable {
    type Input = ();

    fn name(&self) -> burn_train::metric::MetricName {
        std::sync::Arc::new("Unreadable".into())
    }

    fn update(
        &mut self,
        _item: &(),
        _metadata: &burn_train::metric::MetricMetadata,
    ) -> Result<burn_train::metric::SerializedEntry, burn_tensor::TensorReadError> {
        Err(burn_tensor::TensorReadError::InvalidShape {
            expected: 1,
            actual: 0,
        })
    }

    fn compute(
        &mut self,
    ) -> Result<burn_train::metric::SerializedEntry, burn_tensor::TensorReadError> {
        Ok(burn_train::metric::SerializedEntry::not_available(None))
    }

    fn clear(&mut self) {}
}

#[test]
fn a_failing_metric_stops_the_run_with_its_error() {
    let device = Device::flex();
    let result = SupervisedTraining::new(temp_dir("metric-error"), loader(None), loader(None))
        .metric_train(Unreadable)
        .with_metric_logger(InMemoryMetricLogger::new())
        .num_epochs(3)
        .renderer(quiet())
        .with_application_logger(None)
        .launch(Learner::new(
            Classifier::new(&device),
            SgdConfig::new().init(),
            0.5,
        ));
    let error = result.error.expect("the metric's failure ends the run");
    match &*error {
        TrainingError::EventProcessor(error) => {
            let text = error.to_string();
            assert!(text.contains("train/Unreadable"), "{text}");
        }
        other => panic!("unexpected error: {other}"),
    }
}

/// A dataset that fails on one item: the run stops with its error, which
/// `LearningResult::error` carries as `TrainingError::Dataset`.
#[test]
fn a_batch_that_fails_to_load_stops_the_run_with_the_dataset_error() {
    use burn::data::dataset::{Dataset, DatasetError};

    struct FailsAt(usize);
    impl Dataset<([f32; 2], i64)> for FailsAt {
        fn get(&self, index: usize) -> Result<([f32; 2], i64), DatasetError> {
            if index == self.0 {
                return Err(DatasetError::Io {
                    path: "points.bin".into(),
                    source: std::io::Error::other("disk gone"),
                });
            }
            Ok(points()[index])
        }
        fn len(&self) -> usize {
            points().len()
        }
    }

    let device = Device::flex();
    let dir = temp_dir("dataset-error");
    let result = SupervisedTraining::new(&dir, loader_over(FailsAt(20), None), loader(None))
        .metric_train_numeric(LossMetric::new())
        .num_epochs(3)
        .renderer(quiet())
        .with_application_logger(None)
        .launch(Learner::new(
            Classifier::new(&device),
            SgdConfig::new().init(),
            0.5,
        ));
    let error = result.error.expect("the run reports the dataset's error");
    assert!(
        matches!(*error, TrainingError::Dataset(DatasetError::Io { .. })),
        "{error}"
    );
    assert!(error.to_string().contains("disk gone"), "{error}");
    // The third batch (items 16..24) failed in epoch 1: nothing after it ran.
    assert!(!dir.join("train/epoch-2").exists());
}
