//! The training API of Burn 0.23 through the facade, used the way a
//! program uses it: a tiny model with both steps, a `SupervisedTraining`
//! run of one epoch with metrics, checkpoints and a renderer of its own, a
//! custom learning strategy, and an evaluator. Every name of the training
//! paradigm appears here, so renaming one breaks this build.
#![cfg(all(feature = "train", feature = "flex"))]

use std::sync::{Arc, Mutex};

use burn::data::dataloader::{DataLoader, DataLoaderBuilder, Progress};
use burn::data::dataset::InMemDataset;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, LinearConfig};
use burn::optim::{AdamConfig, SgdConfig};
use burn::prelude::*;
use burn::tensor::TensorReadError;
use burn::train::checkpoint::{
    ComposedCheckpointingStrategy, KeepLastNCheckpoints, MetricCheckpointingStrategy,
};
use burn::train::logger::{EvaluationProgressLogger, InMemoryMetricLogger, TrainingProgressLogger};
use burn::train::metric::state::{FormatOptions, NumericMetricState};
use burn::train::metric::store::{Aggregate, Direction, Split};
use burn::train::metric::{
    AccuracyInput, AccuracyMetric, Adaptor, ItemLazy, LossInput, LossMetric, Metric,
    MetricAttributes, MetricDefinition, MetricMetadata, MetricName, Numeric, NumericAttributes,
    NumericEntry, PerplexityMetric, SerializedEntry,
};
use burn::train::renderer::{
    CliMetricsRenderer, EvaluationName, MetricState, MetricsRenderer, MetricsRendererEvaluation,
    MetricsRendererTraining,
};
use burn::train::{
    ClassificationOutput, EvaluatorBuilder, EventProcessorTraining, ExecutionStrategy,
    InferenceStep, Interrupter, Learner, LearnerEvent, LearnerModel, LearnerSummary,
    LearningResult, MetricEarlyStoppingStrategy, RegressionOutput, StoppingCondition,
    SupervisedLearningStrategy, SupervisedTraining, SupervisedTrainingEventProcessor, TrainLoader,
    TrainOutput, TrainStep, TrainingComponents, TrainingItem, TrainingStrategy, ValidLoader,
};

// ---------------------------------------------------------------- the model

#[derive(Clone, Debug)]
struct Batch {
    inputs: Tensor<2>,
    targets: Tensor<1, Int>,
}

fn batcher(items: Vec<([f32; 2], i64)>, device: &Device) -> Batch {
    let n = items.len();
    let inputs: Vec<f32> = items.iter().flat_map(|(x, _)| *x).collect();
    let targets: Vec<i64> = items.iter().map(|(_, t)| *t).collect();
    Batch {
        inputs: Tensor::<1>::from_floats(inputs.as_slice(), device).reshape([n, 2]),
        targets: Tensor::<1, Int>::from_data(targets.as_slice(), device),
    }
}

/// Class 1 when x0 > x1: 16 points, batches of 4.
fn loader() -> Arc<dyn DataLoader<Batch>> {
    let items: Vec<([f32; 2], i64)> = (0..16)
        .map(|i| {
            let (a, b) = ((i % 4) as f32, (i / 4) as f32);
            ([a, b], i64::from(a > b))
        })
        .collect();
    DataLoaderBuilder::new(batcher)
        .batch_size(4)
        .build(InMemDataset::new(items))
}

#[derive(Module, Debug)]
struct Tiny {
    linear: Linear,
}

impl Tiny {
    fn new(device: &Device) -> Self {
        Self {
            linear: LinearConfig::new(2, 2).init(device),
        }
    }

    fn forward(&self, batch: Batch) -> ClassificationOutput {
        let output = self.linear.forward(batch.inputs); // [batch, 2]
        let loss = CrossEntropyLossConfig::new()
            .init(&output.device())
            .forward(output.clone(), batch.targets.clone());
        ClassificationOutput::new(loss, output, batch.targets)
    }
}

impl TrainStep for Tiny {
    type Input = Batch;
    type Output = ClassificationOutput;

    fn step(&self, batch: Batch) -> TrainOutput<ClassificationOutput> {
        let item = self.forward(batch);
        TrainOutput::new(self, item.loss.backward(), item)
    }
}

impl InferenceStep for Tiny {
    type Input = Batch;
    type Output = ClassificationOutput;

    fn step(&self, batch: Batch) -> ClassificationOutput {
        self.forward(batch)
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("burn-api-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

// ---------------------------------------------- a metric and a renderer

/// A metric of one's own: the mean of the first output column.
#[derive(Clone, Default)]
struct FirstColumn {
    state: NumericMetricState,
}

struct FirstColumnInput(Tensor<2>);

impl Adaptor<FirstColumnInput> for ClassificationOutput {
    fn adapt(&self) -> FirstColumnInput {
        FirstColumnInput(self.output.clone())
    }
}

impl Metric for FirstColumn {
    type Input = FirstColumnInput;

    fn name(&self) -> MetricName {
        Arc::new("First Column".into())
    }

    fn attributes(&self) -> MetricAttributes {
        NumericAttributes {
            unit: None,
            higher_is_better: true,
        }
        .into()
    }

    fn update(
        &mut self,
        item: &FirstColumnInput,
        _metadata: &MetricMetadata,
    ) -> Result<SerializedEntry, TensorReadError> {
        let [batch, _] = item.0.dims();
        let mean = item
            .0
            .clone()
            .narrow(1, 0, 1)
            .mean()
            .try_into_scalar::<f64>()?;
        self.state.update(mean, batch);
        Ok(self
            .state
            .compute_update(FormatOptions::new(self.name()).precision(3)))
    }

    fn compute(&mut self) -> Result<SerializedEntry, TensorReadError> {
        Ok(self
            .state
            .compute_final(FormatOptions::new(self.name()).precision(3)))
    }

    fn clear(&mut self) {
        self.state.reset();
    }
}

impl Numeric for FirstColumn {
    fn value(&self) -> Option<NumericEntry> {
        Some(self.state.current_value())
    }

    fn running_value(&self) -> Option<NumericEntry> {
        Some(self.state.running_value())
    }

    fn final_value(&self) -> NumericEntry {
        self.state.final_value()
    }
}

#[derive(Default, Debug)]
struct Seen {
    definitions: Vec<MetricDefinition>,
    train: usize,
    valid: usize,
    test: Vec<String>,
    splits: Vec<String>,
}

/// A renderer of one's own, counting what it is shown.
#[derive(Default)]
struct Counter(Arc<Mutex<Seen>>);

impl MetricsRendererTraining for Counter {
    fn update_train(&mut self, _state: MetricState) {
        self.0.lock().unwrap().train += 1;
    }

    fn update_valid(&mut self, _state: MetricState) {
        self.0.lock().unwrap().valid += 1;
    }
}

impl MetricsRendererEvaluation for Counter {
    fn update_test(&mut self, name: EvaluationName, _state: MetricState) {
        self.0.lock().unwrap().test.push(name.as_str().to_string());
    }
}

impl TrainingProgressLogger for Counter {
    fn start(&mut self, _: usize, _: usize, _: Option<usize>, _: Option<&str>) {}
    fn update_epoch(&mut self, _epoch: usize) {}
    fn start_split(&mut self, split: &str, _progress: &Progress) {
        self.0.lock().unwrap().splits.push(split.to_string());
    }
    fn update_split(&mut self, _progress: &Progress) {}
    fn end_split(&mut self, _progress: &Progress) {}
    fn end(&mut self) {}
    fn log_event_training(&mut self, _event: String) {}
}

impl EvaluationProgressLogger for Counter {
    fn start_global_progress(&mut self, _total_tests: usize) {}
    fn start_test(&mut self, name: &str, _progress: &Progress) {
        self.0.lock().unwrap().splits.push(format!("test/{name}"));
    }
    fn update_test_progress(&mut self, _progress: &Progress) {}
    fn end_test(&mut self, _progress: &Progress) {}
    fn end_global_progress(&mut self) {}
    fn log_event_evaluation(&mut self, _event: String) {}
}

impl MetricsRenderer for Counter {
    fn manual_close(&mut self) {}

    fn register_metric(&mut self, definition: MetricDefinition) {
        self.0.lock().unwrap().definitions.push(definition);
    }
}

// ------------------------------------------------------------------ tests

#[test]
fn supervised_training_runs_an_epoch_and_checkpoints() {
    let device = Device::flex();
    let dir = temp_dir("supervised");
    let seen = Arc::new(Mutex::new(Seen::default()));
    let checkpointing = ComposedCheckpointingStrategy::builder()
        .add(KeepLastNCheckpoints::new(1))
        .add(MetricCheckpointingStrategy::new(
            &LossMetric::new(),
            Aggregate::Mean,
            Direction::Lowest,
            Split::Valid,
        ))
        .build();
    let training = SupervisedTraining::new(&dir, loader(), loader())
        .metrics((AccuracyMetric::new(), LossMetric::new()))
        .metric_train_numeric(FirstColumn::default())
        .metric_valid_numeric(PerplexityMetric::new())
        .with_default_checkpointers()
        .with_checkpointing_strategy(checkpointing)
        .early_stopping(MetricEarlyStoppingStrategy::new(
            &LossMetric::new(),
            Aggregate::Mean,
            Direction::Lowest,
            Split::Valid,
            StoppingCondition::NoImprovementSince { n_epochs: 3 },
        ))
        .with_training_strategy(ExecutionStrategy::single(device.clone()).into())
        .num_epochs(1)
        .summary()
        .renderer(Box::new(Counter(seen.clone())))
        .with_application_logger(None);
    let interrupter: Interrupter = training.interrupter();
    let result: LearningResult<Tiny> = training.launch(Learner::new(
        Tiny::new(&device),
        AdamConfig::new().init(),
        1e-2,
    ));

    assert!(result.error.is_none(), "{:?}", result.error);
    assert!(result.interrupted.is_none() && !interrupter.should_stop());
    {
        let seen = seen.lock().unwrap();
        let names: Vec<&str> = seen.definitions.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["Accuracy", "Loss", "First Column", "Perplexity"]);
        assert!(matches!(
            seen.definitions[1].attributes,
            MetricAttributes::Numeric(_)
        ));
        // 4 batches: 3 training metrics each plus their epoch values; 3
        // validation metrics likewise.
        assert_eq!((seen.train, seen.valid), (4 * 3 + 3, 4 * 3 + 3));
        assert_eq!(seen.splits, ["train", "valid"]);
    }
    assert!(dir.join("checkpoint/model-1.bpk").is_file());
    assert!(dir.join("valid/epoch-1/Perplexity.log").is_file());
    let summary = LearnerSummary::new(&dir, &["Loss", "Accuracy"]).unwrap();
    assert_eq!(summary.epochs, 1);
    assert_eq!(summary.metrics.valid.len(), 2);

    // The trained model evaluates on named test sets, on the same renderer.
    let evaluation = EvaluatorBuilder::new(&dir)
        .metrics((AccuracyMetric::new(), LossMetric::new()))
        .renderer(result.renderer)
        .with_application_logger(None)
        .build(result.model)
        .eval_all([("first", loader()), ("second", loader())]);
    assert!(evaluation.error.is_none(), "{:?}", evaluation.error);
    let seen = seen.lock().unwrap();
    assert_eq!(&seen.splits[2..], ["test/first", "test/second"]);
    // 4 batches and the final values, 2 metrics, 2 sets.
    assert_eq!(seen.test.len(), 2 * 2 * (4 + 1));
    assert!(seen.test.iter().any(|name| name == "second"));
    assert!(dir.join("test/second/Accuracy.log").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A custom learning strategy: one optimizer step per epoch, on the summed
/// gradients of the epoch's batches; no validation.
struct OneStepPerEpoch;

impl<M: LearnerModel> SupervisedLearningStrategy<M> for OneStepPerEpoch {
    fn fit(
        &self,
        components: TrainingComponents<M>,
        mut learner: Learner<M>,
        train: TrainLoader<M>,
        _valid: ValidLoader<M>,
        starting_epoch: usize,
    ) -> (M, SupervisedTrainingEventProcessor<M>) {
        let device = Device::flex().autodiff();
        let train = train.to_device(&device);
        learner.fork(&device);
        let mut processor = components.event_processor;
        for epoch in starting_epoch..=components.num_epochs {
            let mut batches = train.iter();
            let progress = batches.progress();
            let start = LearnerEvent::StartSplit {
                epoch_number: epoch,
                progress,
            };
            processor.process_train(start).unwrap();
            let mut accumulator = burn::optim::GradientsAccumulator::new();
            while let Some(batch) = batches.next() {
                let output = learner.train_step(batch.unwrap());
                accumulator.accumulate(&learner.model(), output.grads);
                let item = TrainingItem::new(output.item, batches.progress(), None, None);
                processor
                    .process_train(LearnerEvent::ProcessedItem(item))
                    .unwrap();
            }
            learner.lr_step();
            learner.optimizer_step(accumulator.grads());
            let end = LearnerEvent::EndSplit {
                epoch,
                progress: batches.progress(),
            };
            processor.process_train(end).unwrap();
            processor
                .process_train(LearnerEvent::EndEpoch(epoch))
                .unwrap();
        }
        (learner.model(), processor)
    }
}

#[test]
fn a_custom_strategy_trains_through_supervised_training() {
    let device = Device::flex();
    let model = Tiny::new(&device);
    let before = model.linear.weight.val().into_data();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let result = SupervisedTraining::new(temp_dir("custom"), loader(), loader())
        .metric_train_numeric(LossMetric::new())
        .with_training_strategy(TrainingStrategy::Custom(Arc::new(OneStepPerEpoch)))
        .with_metric_logger(InMemoryMetricLogger::new())
        .num_epochs(2)
        .renderer(Box::new(Counter(seen.clone())))
        .with_application_logger(None)
        .launch(Learner::new(model, SgdConfig::new().init(), 0.1));
    assert!(result.error.is_none(), "{:?}", result.error);
    assert_ne!(
        result.model.linear.weight.val().into_data(),
        before,
        "no update"
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.splits, ["train", "train"]);
    assert_eq!(seen.train, 2 * (4 + 1));
    assert_eq!(seen.valid, 0);
}

/// An output of one's own: lazy, and adapted to the loss metric.
struct LossOnly {
    loss: Tensor<1>,
}

impl ItemLazy for LossOnly {
    fn sync(self) -> Result<Self, burn::tensor::ExecutionError> {
        Ok(Self {
            loss: self.loss.without_autodiff(),
        })
    }
}

impl Adaptor<LossInput> for LossOnly {
    fn adapt(&self) -> LossInput {
        LossInput::new(self.loss.clone())
    }
}

/// Outputs are `ItemLazy` and adapt to the metrics they feed.
#[test]
fn outputs_are_lazy_items_that_adapt_to_metric_inputs() {
    let own = LossOnly {
        loss: Tensor::from_data([0.25], &Device::flex().autodiff()),
    };
    let input: LossInput = own.sync().unwrap().adapt();
    let mut metric = LossMetric::new();
    let meta = MetricMetadata {
        progress: Progress::new(1, 1),
        iteration: Some(1),
        lr: Some(1e-3),
    };
    metric.update(&input, &meta).unwrap();
    assert_eq!(metric.value().map(|v| v.current()), Some(0.25));

    let device = Device::flex().autodiff();
    let output = Tensor::<2>::from_data([[1.0], [3.0]], &device).require_grad();
    let targets = Tensor::<2>::from_data([[1.0], [2.0]], &device);
    let loss = (output.clone() - targets.clone()).square().mean();
    let regression = RegressionOutput::new(loss, output, targets).sync().unwrap();
    assert!(!regression.output.is_autodiff(), "sync leaves the graph");
    let loss: LossInput = regression.adapt();
    assert_eq!(loss.tensor.into_scalar::<f32>(), 0.5);

    let classification = ClassificationOutput::new(
        Tensor::from_data([0.0], &device),
        Tensor::from_data([[0.0, 1.0]], &device),
        Tensor::from_data([1], &device),
    );
    let _: AccuracyInput = classification.adapt();
}

/// The system metrics (feature `metrics`) run anywhere; the GPU metric says
/// "N/A" on a machine without an NVIDIA driver.
#[cfg(feature = "metrics")]
#[test]
fn system_metrics_measure_the_machine() {
    use burn::train::metric::{CpuMemory, CpuUse, CudaMetric};
    let meta = MetricMetadata {
        progress: Progress::new(1, 1),
        iteration: Some(1),
        lr: None,
    };
    let mut memory = CpuMemory::new();
    let entry = memory.update(&(), &meta).unwrap();
    if std::path::Path::new("/proc/meminfo").exists() {
        assert!(memory.value().unwrap().current() > 0.0, "{entry:?}");
    }
    let mut cpu = CpuUse::new();
    cpu.update(&(), &meta).unwrap();
    let mut cuda = CudaMetric::new();
    let entry = cuda.update(&(), &meta).unwrap();
    // Shown with `--nocapture`: the GPUs' line, or N/A.
    println!("{}: {}", cuda.name(), entry.formatted);
    if cuda.is_available() {
        assert!(entry.formatted.contains("GPU #0"), "{entry:?}");
    } else {
        assert!(entry.is_not_available(), "{entry:?}");
    }
}

/// The dashboard is a renderer (feature `tui`); it takes the terminal only
/// when it first draws.
#[cfg(feature = "tui")]
#[test]
fn the_dashboard_is_a_metrics_renderer() {
    use burn::train::renderer::tui::TuiMetricsRendererWrapper;
    let renderer: Box<dyn MetricsRenderer> =
        Box::new(TuiMetricsRendererWrapper::new(Interrupter::new(), None).persistent());
    drop(renderer);
}

/// The text renderer is what a run uses off a terminal.
#[test]
fn the_text_renderer_is_a_metrics_renderer() {
    let mut renderer: Box<dyn MetricsRenderer> = Box::new(CliMetricsRenderer::new());
    renderer.start(1, 1, None, Some("api"));
    renderer.end();
}
