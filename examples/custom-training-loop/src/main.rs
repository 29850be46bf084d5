//! `cargo run --release -p custom-training-loop`: the loop `SupervisedTraining`
//! runs, written out by hand: for each batch, forward, loss, backward,
//! gradients keyed by parameter, optimizer step; then validation on a
//! `valid()` snapshot. The data is the 8×8 UCI digits shipped with
//! `burn-dataset`, so it runs offline.

use burn::data::dataloader::DataLoaderBuilder;
use burn::data::dataset::{DigitsDataset, DigitsItem};
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;

// ANCHOR: batch
/// A batch: images flattened to `[batch, 64]`, digits `[batch]`.
#[derive(Clone, Debug)]
struct Batch {
    images: Tensor<2>,
    targets: Tensor<1, Int>,
}

fn batch(items: Vec<DigitsItem>, device: &Device) -> Batch {
    let n = items.len();
    // Pixels are 0..=16: scale to 0..=1.
    let pixels: Vec<f32> = items
        .iter()
        .flat_map(|item| item.image.iter().flatten().map(|p| p / 16.0))
        .collect();
    let labels: Vec<i64> = items.iter().map(|item| i64::from(item.label)).collect();
    Batch {
        images: Tensor::<1>::from_floats(pixels.as_slice(), device).reshape([n, 64]),
        targets: Tensor::<1, Int>::from_data(labels.as_slice(), device),
    }
}
// ANCHOR_END: batch

// ANCHOR: model
/// A two-layer perceptron.
#[derive(Module, Debug)]
struct Mlp {
    hidden: Linear,
    activation: Relu,
    output: Linear,
}

impl Mlp {
    fn new(device: &Device) -> Self {
        Self {
            hidden: LinearConfig::new(64, 128).init(device),
            activation: Relu::new(),
            output: LinearConfig::new(128, 10).init(device),
        }
    }

    /// `[batch, 64]` → logits `[batch, 10]`.
    fn forward(&self, images: Tensor<2>) -> Tensor<2> {
        self.output
            .forward(self.activation.forward(self.hidden.forward(images)))
    }
}
// ANCHOR_END: model

// ANCHOR: evaluate
/// Loss and number of correct predictions of a batch.
fn evaluate(model: &Mlp, batch: Batch) -> (Tensor<1>, usize) {
    let logits = model.forward(batch.images);
    let loss = CrossEntropyLossConfig::new()
        .init(&logits.device())
        .forward(logits.clone(), batch.targets.clone());
    let correct = logits
        .argmax(1)
        .flatten::<1>(0, 1)
        .equal(batch.targets)
        .int()
        .sum()
        .into_scalar::<i64>() as usize;
    (loss, correct)
}
// ANCHOR_END: evaluate

fn main() {
    // ANCHOR: setup
    let device = Device::default();
    device.seed(0);
    let train_device = device.clone().autodiff();
    let train = DataLoaderBuilder::new(batch)
        .batch_size(32)
        .shuffle(0)
        .set_device(train_device.clone())
        .build(DigitsDataset::train());
    let test = DataLoaderBuilder::new(batch)
        .batch_size(256)
        .set_device(device.clone())
        .build(DigitsDataset::test());
    println!(
        "Training an MLP on the 8x8 UCI digits shipped in the repository ({} train / {} test images)",
        train.num_items(),
        test.num_items()
    );

    let mut model = Mlp::new(&train_device).train();
    let mut optimizer = AdamConfig::new().init();
    let lr = 2e-3;
    // ANCHOR_END: setup

    // ANCHOR: loop
    for epoch in 1..=15 {
        let (mut loss_sum, mut correct, mut seen) = (0.0, 0, 0);
        for batch in train.iter() {
            // A batch is `Err` when the dataset fails to produce an item;
            // these are in memory, so they cannot.
            let batch = batch.expect("an in-memory batch loads");
            let n = batch.targets.dims()[0];
            let (loss, hits) = evaluate(&model, batch);
            // Gradients of the loss, keyed by parameter, then one update.
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optimizer.step(lr, model, grads);
            loss_sum += loss.into_scalar::<f32>() as f64 * n as f64;
            correct += hits;
            seen += n;
        }

        // Validation on a snapshot without autodiff: no graph is recorded.
        let snapshot = model.valid();
        let (mut valid_correct, mut valid_seen) = (0, 0);
        for batch in test.iter() {
            let batch = batch.expect("an in-memory batch loads");
            valid_seen += batch.targets.dims()[0];
            valid_correct += evaluate(&snapshot, batch).1;
        }
        println!(
            "epoch {epoch:2}: train loss {:.4}, train accuracy {:.2} %, test accuracy {:.2} %",
            loss_sum / seen as f64,
            100.0 * correct as f64 / seen as f64,
            100.0 * valid_correct as f64 / valid_seen as f64
        );
    }
    // ANCHOR_END: loop
}
