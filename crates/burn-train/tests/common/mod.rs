//! A two-class problem shared by the integration tests.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use burn::data::dataloader::{DataLoader, DataLoaderBuilder, Progress};
use burn::data::dataset::{Dataset, InMemDataset};
use burn::module::{Module, Param, ParamId};
use burn::tensor::{Device, Int, Tensor, activation};
use burn_core as burn;
use burn_train::logger::{EvaluationProgressLogger, TrainingProgressLogger};
use burn_train::metric::MetricDefinition;
use burn_train::renderer::{
    EvaluationName, MetricState, MetricsRenderer, MetricsRendererEvaluation,
    MetricsRendererTraining,
};
use burn_train::{ClassificationOutput, InferenceStep, Interrupter, TrainOutput, TrainStep};

/// Features, one-hot targets, targets.
pub type Batch = (Tensor<2>, Tensor<2>, Tensor<1, Int>);

/// Logistic regression on two features and two classes.
#[derive(Module, Debug)]
pub struct Classifier {
    pub weight: Param<Tensor<2>>,
    pub bias: Param<Tensor<1>>,
}

impl Classifier {
    /// Fixed values and ids, so two runs start from the same model and
    /// their optimizer records use the same keys.
    pub fn new(device: &Device) -> Self {
        Self {
            weight: Param::initialized(
                ParamId::from(1),
                Tensor::from_data([[0.1, -0.2], [0.05, 0.3]], device),
            ),
            bias: Param::initialized(ParamId::from(2), Tensor::zeros([2], device)),
        }
    }

    pub fn forward(&self, (x, onehot, targets): Batch) -> ClassificationOutput {
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

impl TrainStep for Classifier {
    type Input = Batch;
    type Output = ClassificationOutput;

    fn step(&self, batch: Batch) -> TrainOutput<ClassificationOutput> {
        let output = self.forward(batch);
        TrainOutput::new(self, output.loss.backward(), output)
    }
}

impl InferenceStep for Classifier {
    type Input = Batch;
    type Output = ClassificationOutput;

    fn step(&self, batch: Batch) -> ClassificationOutput {
        self.forward(batch)
    }
}

/// 64 points of an 8×8 grid in [-1, 1]²; class 1 when x + y > 0.
pub fn points() -> Vec<([f32; 2], i64)> {
    (0..64)
        .map(|i| {
            let a = (i % 8) as f32 / 7.0 * 2.0 - 1.0;
            let b = (i / 8) as f32 / 7.0 * 2.0 - 1.0;
            ([a, b], i64::from(a + b > 0.0))
        })
        .collect()
}

/// Batches of 8 of [`points`], shuffled with `shuffle` if given.
pub fn loader(shuffle: Option<u64>) -> Arc<dyn DataLoader<Batch>> {
    loader_over(InMemDataset::new(points()), shuffle)
}

/// [`loader`]'s batches over any dataset of points.
pub fn loader_over<D>(dataset: D, shuffle: Option<u64>) -> Arc<dyn DataLoader<Batch>>
where
    D: Dataset<([f32; 2], i64)> + 'static,
{
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
    .set_device(Device::flex());
    if let Some(seed) = shuffle {
        builder = builder.shuffle(seed);
    }
    builder.build(dataset)
}

pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("burn-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub fn values(model: &Classifier) -> Vec<f32> {
    let mut out = model.weight.val().into_data().to_vec::<f32>().unwrap();
    out.extend(model.bias.val().into_data().to_vec::<f32>().unwrap());
    out
}

/// The epoch values a metric logged for `split`, epoch by epoch (the
/// `final` line of each epoch's file).
pub fn epoch_values(dir: &std::path::Path, split: &str, metric: &str) -> Vec<f64> {
    let mut values = Vec::new();
    for epoch in 1.. {
        let path = dir.join(format!("{split}/epoch-{epoch}/{metric}.log"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            break;
        };
        let last = text.lines().last().unwrap_or_default();
        let value = last
            .strip_suffix(",final")
            .unwrap_or_else(|| panic!("{}: no final line: {last:?}", path.display()));
        values.push(value.parse().unwrap());
    }
    values
}

/// What a [`Recorder`] saw.
#[derive(Debug, Default)]
pub struct Seen {
    pub registered: Vec<String>,
    pub train_updates: usize,
    pub valid_updates: usize,
    pub test_updates: usize,
    /// `(split, items processed)` of each progress update.
    pub progress: Vec<(String, usize)>,
    pub epochs: Vec<usize>,
    pub calls: Vec<String>,
    pub ended: bool,
}

/// A renderer of one's own: records what it is given, and can stop the run
/// after a number of training batches.
#[derive(Default)]
pub struct Recorder {
    pub seen: Arc<Mutex<Seen>>,
    pub stop_after_batches: Option<(usize, Interrupter)>,
    split: String,
    batches: usize,
}

impl Recorder {
    pub fn new() -> (Self, Arc<Mutex<Seen>>) {
        let recorder = Self::default();
        let seen = recorder.seen.clone();
        (recorder, seen)
    }

    fn call(&self, name: &str) {
        self.seen.lock().unwrap().calls.push(name.to_string());
    }
}

impl MetricsRendererTraining for Recorder {
    fn update_train(&mut self, _state: MetricState) {
        self.seen.lock().unwrap().train_updates += 1;
    }

    fn update_valid(&mut self, _state: MetricState) {
        self.seen.lock().unwrap().valid_updates += 1;
    }

    fn on_train_end(
        &mut self,
        _summary: Option<burn_train::LearnerSummary>,
    ) -> Result<(), Box<dyn std::error::Error>> {
        self.seen.lock().unwrap().ended = true;
        self.call("on_train_end");
        Ok(())
    }
}

impl MetricsRendererEvaluation for Recorder {
    fn update_test(&mut self, _name: EvaluationName, _state: MetricState) {
        self.seen.lock().unwrap().test_updates += 1;
    }
}

impl TrainingProgressLogger for Recorder {
    fn start(
        &mut self,
        _total: usize,
        _starting: usize,
        _items: Option<usize>,
        _label: Option<&str>,
    ) {
        self.call("start");
    }

    fn update_epoch(&mut self, epoch: usize) {
        self.seen.lock().unwrap().epochs.push(epoch);
    }

    fn start_split(&mut self, split: &str, _progress: &Progress) {
        self.split = split.to_string();
        self.call(&format!("start_split {split}"));
    }

    fn update_split(&mut self, progress: &Progress) {
        self.seen
            .lock()
            .unwrap()
            .progress
            .push((self.split.clone(), progress.items_processed));
        if self.split == "train" {
            self.batches += 1;
            if let Some((after, interrupter)) = &self.stop_after_batches
                && self.batches == *after
            {
                interrupter.stop(Some("enough"));
            }
        }
    }

    fn end_split(&mut self, _progress: &Progress) {
        self.call(&format!("end_split {}", self.split));
    }

    fn end(&mut self) {
        self.call("end");
    }

    fn log_event_training(&mut self, _event: String) {}
}

impl EvaluationProgressLogger for Recorder {
    fn start_global_progress(&mut self, total_tests: usize) {
        self.call(&format!("start_global_progress {total_tests}"));
    }

    fn start_test(&mut self, name: &str, _progress: &Progress) {
        self.split = format!("test/{name}");
        self.call(&format!("start_test {name}"));
    }

    fn update_test_progress(&mut self, progress: &Progress) {
        self.seen
            .lock()
            .unwrap()
            .progress
            .push((self.split.clone(), progress.items_processed));
    }

    fn end_test(&mut self, _progress: &Progress) {
        self.call("end_test");
    }

    fn end_global_progress(&mut self) {
        self.call("end_global_progress");
    }

    fn log_event_evaluation(&mut self, _event: String) {}
}

impl MetricsRenderer for Recorder {
    fn manual_close(&mut self) {}

    fn register_metric(&mut self, definition: MetricDefinition) {
        self.seen
            .lock()
            .unwrap()
            .registered
            .push(definition.name.to_string());
    }
}
