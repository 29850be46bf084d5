//! `cargo run --release -p simple-regression`: fits a small MLP to
//! `y = 3·x₀ − 2·x₁ + x₂·x₃ + 0.5 + noise` with `SupervisedTraining`, then prints a
//! few predictions beside their targets.
//!
//! The data is generated from a fixed seed, so the example needs no
//! download and every run sees the same points.

use std::sync::Arc;

use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
use burn::data::dataset::{InMemDataset, SeededRng};
use burn::nn::loss::{MseLoss, Reduction};
use burn::nn::{Linear, LinearConfig, Relu};
use burn::optim::AdamConfig;
use burn::prelude::*;
use burn::train::metric::LossMetric;
use burn::train::{
    EvaluatorBuilder, InferenceStep, Learner, RegressionOutput, SupervisedTraining, TrainOutput,
    TrainStep,
};

const FEATURES: usize = 4;

/// One sample: features and target.
#[derive(Clone, Debug)]
struct Sample {
    x: [f32; FEATURES],
    y: f32,
}

/// The function to learn, with Gaussian-ish noise of standard deviation
/// about 0.05 (the mean of 12 uniforms, centred and scaled).
fn samples(n: usize, seed: u64) -> Vec<Sample> {
    let mut rng = SeededRng::new(seed);
    let mut uniform = move || (rng.next_u64() >> 11) as f32 / (1u64 << 53) as f32;
    (0..n)
        .map(|_| {
            let x = [0; FEATURES].map(|_| uniform() * 2.0 - 1.0);
            let noise = ((0..12).map(|_| uniform()).sum::<f32>() - 6.0) * 0.05;
            let y = 3.0 * x[0] - 2.0 * x[1] + x[2] * x[3] + 0.5 + noise;
            Sample { x, y }
        })
        .collect()
}

/// Features `[batch, 4]` and targets `[batch, 1]`.
type Batch = (Tensor<2>, Tensor<2>);

fn loader(samples: Vec<Sample>, shuffle: Option<u64>) -> Arc<dyn DataLoader<Batch>> {
    let mut builder = DataLoaderBuilder::new(|items: Vec<Sample>, device: &Device| {
        let n = items.len();
        let x: Vec<f32> = items.iter().flat_map(|s| s.x).collect();
        let y: Vec<f32> = items.iter().map(|s| s.y).collect();
        (
            Tensor::<1>::from_floats(x.as_slice(), device).reshape([n, FEATURES]),
            Tensor::<1>::from_floats(y.as_slice(), device).reshape([n, 1]),
        )
    })
    .batch_size(64);
    if let Some(seed) = shuffle {
        builder = builder.shuffle(seed);
    }
    builder.build(InMemDataset::new(samples))
}

/// A two-layer perceptron.
#[derive(Module, Debug)]
struct Regressor {
    hidden: Linear,
    activation: Relu,
    output: Linear,
}

impl Regressor {
    fn new(device: &Device) -> Self {
        Self {
            hidden: LinearConfig::new(FEATURES, 64).init(device),
            activation: Relu::new(),
            output: LinearConfig::new(64, 1).init(device),
        }
    }

    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        // x: [batch, 4] -> [batch, 64] -> [batch, 1]
        self.output
            .forward(self.activation.forward(self.hidden.forward(x)))
    }

    fn forward_regression(&self, (x, y): Batch) -> RegressionOutput {
        let output = self.forward(x);
        let loss = MseLoss::new().forward(output.clone(), y.clone(), Reduction::Mean);
        RegressionOutput::new(loss, output, y)
    }
}

impl TrainStep for Regressor {
    type Input = Batch;
    type Output = RegressionOutput;

    fn step(&self, batch: Batch) -> TrainOutput<RegressionOutput> {
        let output = self.forward_regression(batch);
        TrainOutput::new(self, output.loss.backward(), output)
    }
}

impl InferenceStep for Regressor {
    type Input = Batch;
    type Output = RegressionOutput;

    fn step(&self, batch: Batch) -> RegressionOutput {
        self.forward_regression(batch)
    }
}

fn main() {
    let device = Device::default();
    device.seed(7);
    let artifacts = std::env::temp_dir().join("burn-simple-regression");
    let _ = std::fs::remove_dir_all(&artifacts);
    println!(
        "Fitting y = 3·x0 − 2·x1 + x2·x3 + 0.5 (+ noise of std 0.05) on 4,000 synthetic samples"
    );

    let valid = samples(500, 3);
    let result = SupervisedTraining::new(
        &artifacts,
        loader(samples(4000, 1), Some(2)),
        loader(valid.clone(), None),
    )
    .metric_train_numeric(LossMetric::new())
    .metric_valid_numeric(LossMetric::new())
    .with_default_checkpointers()
    .num_epochs(30)
    .summary()
    .launch(Learner::new(
        Regressor::new(&device),
        AdamConfig::new().init(),
        5e-3,
    ));
    if let Some(error) = result.error {
        panic!("training failed: {error}");
    }

    // ANCHOR: evaluate
    // The trained model on 500 samples it has never seen, on the same screen.
    let evaluation = EvaluatorBuilder::new(&artifacts)
        .metric_numeric(LossMetric::new())
        .renderer(result.renderer)
        .build(result.model.clone())
        .eval("unseen", loader(samples(500, 5), None));
    // ANCHOR_END: evaluate
    if let Some(error) = evaluation.error {
        panic!("evaluation failed: {error}");
    }

    let model = result.model;
    let test = samples(5, 4);
    println!("Predictions on new points:");
    for sample in &test {
        let x = Tensor::<1>::from_floats(sample.x.as_slice(), &device).reshape([1, FEATURES]);
        let predicted = model.forward(x).into_scalar::<f32>();
        println!(
            "  x = {:+.2?}  target {:+.3}  predicted {predicted:+.3}",
            sample.x, sample.y
        );
    }
    // The trained model's mean squared error over the validation samples.
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for batch in loader(valid, None).iter() {
        let (xs, ys) = batch.expect("the in-memory validation samples are always readable");
        x.push(xs);
        y.push(ys);
    }
    let error = model.forward(Tensor::cat(x, 0)) - Tensor::cat(y, 0);
    let mse = error.square().mean().into_scalar::<f32>();
    println!("Final validation MSE: {mse:.4} (the noise alone gives about 0.0025)");
    println!("Logs and checkpoints: {}", artifacts.display());
}
