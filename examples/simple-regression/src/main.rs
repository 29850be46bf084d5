//! `cargo run --release -p simple-regression`: fits a small MLP to
//! `y = 3·x₀ − 2·x₁ + x₂·x₃ + 0.5 + noise` with the Learner, then prints a
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
use burn::train::{LearnerBuilder, RegressionOutput, TrainOutput, TrainStep, ValidStep};

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

impl TrainStep<Batch, RegressionOutput> for Regressor {
    fn step(&self, batch: Batch) -> TrainOutput<RegressionOutput> {
        let output = self.forward_regression(batch);
        TrainOutput::new(self, output.loss.backward(), output)
    }
}

impl ValidStep<Batch, RegressionOutput> for Regressor {
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

    let learner = LearnerBuilder::new(&artifacts)
        .metric_train_numeric(LossMetric::new())
        .metric_valid_numeric(LossMetric::new())
        .with_file_checkpointer(1)
        .devices(vec![device.clone()])
        .num_epochs(30)
        .build(Regressor::new(&device), AdamConfig::new().init(), 5e-3);
    let result = learner
        .fit(
            loader(samples(4000, 1), Some(2)),
            loader(samples(500, 3), None),
        )
        .unwrap_or_else(|error| panic!("training failed: {error}"));
    print!("{}", result.summary());

    let model = result.model.valid();
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
    let valid = result.history.series(burn::train::Split::Valid, "Loss");
    let last = valid.last().map_or(f64::NAN, |&(_, loss)| loss);
    println!("Final validation MSE: {last:.4} (the noise alone gives about 0.0025)");
    println!("Logs and checkpoints: {}", artifacts.display());
}
