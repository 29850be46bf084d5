//! The model: a small convolutional network, and its training and
//! validation steps.

// ANCHOR: imports
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{
    AdaptiveAvgPool2d, AdaptiveAvgPool2dConfig, Conv2d, Conv2dConfig, Dropout, DropoutConfig,
    Linear, LinearConfig, MaxPool2d, MaxPool2dConfig, PaddingConfig2d, Relu,
};
use burn::prelude::*;
use burn::train::{ClassificationOutput, InferenceStep, TrainOutput, TrainStep};
// ANCHOR_END: imports

use crate::data::ImageBatch;

// ANCHOR: model
/// Two 3×3 convolutions, a 2×2 max pool, a pool to a fixed 4×4 grid (so the
/// same network reads 8×8 digits and 28×28 MNIST), and two linear layers.
#[derive(Module, Debug)]
pub struct Model {
    conv1: Conv2d,
    conv2: Conv2d,
    pool: MaxPool2d,
    grid: AdaptiveAvgPool2d,
    dropout: Dropout,
    linear1: Linear,
    linear2: Linear,
    activation: Relu,
}
// ANCHOR_END: model

// ANCHOR: config
/// The model's hyperparameters.
#[derive(Config, Debug)]
pub struct ModelConfig {
    /// Output classes.
    #[config(default = 10)]
    pub num_classes: usize,
    /// Channels of the first convolution (the second has twice as many).
    #[config(default = 16)]
    pub channels: usize,
    /// Width of the hidden linear layer.
    #[config(default = 128)]
    pub hidden_size: usize,
    /// Dropout before the last layer.
    #[config(default = 0.2)]
    pub dropout: f64,
}
// ANCHOR_END: config

// ANCHOR: init
impl ModelConfig {
    /// The model on `device`.
    pub fn init(&self, device: &Device) -> Model {
        let c = self.channels;
        Model {
            conv1: Conv2dConfig::new([1, c], [3, 3])
                .with_padding(PaddingConfig2d::Same)
                .init(device),
            conv2: Conv2dConfig::new([c, 2 * c], [3, 3])
                .with_padding(PaddingConfig2d::Same)
                .init(device),
            pool: MaxPool2dConfig::new([2, 2]).with_strides([2, 2]).init(),
            grid: AdaptiveAvgPool2dConfig::new([4, 4]).init(),
            dropout: DropoutConfig::new(self.dropout).init(),
            linear1: LinearConfig::new(2 * c * 16, self.hidden_size).init(device),
            linear2: LinearConfig::new(self.hidden_size, self.num_classes).init(device),
            activation: Relu::new(),
        }
    }
}
// ANCHOR_END: init

// ANCHOR: forward
impl Model {
    /// Class scores (logits) of a batch of images.
    pub fn forward(&self, images: Tensor<4>) -> Tensor<2> {
        // images: [batch, 1, side, side]
        let x = self.activation.forward(self.conv1.forward(images)); // [batch, c, side, side]
        let x = self.activation.forward(self.conv2.forward(x)); // [batch, 2c, side, side]
        let x = self.grid.forward(self.pool.forward(x)); // [batch, 2c, 4, 4]
        let x = x.flatten::<2>(1, 3); // [batch, 2c·16]
        let x = self.activation.forward(self.linear1.forward(x)); // [batch, hidden]
        self.linear2.forward(self.dropout.forward(x)) // [batch, classes]
    }

    /// Scores and cross-entropy loss of a batch.
    pub fn forward_classification(&self, batch: ImageBatch) -> ClassificationOutput {
        let targets = batch.targets;
        let output = self.forward(batch.images);
        let loss = CrossEntropyLossConfig::new()
            .init(&output.device())
            .forward(output.clone(), targets.clone());
        ClassificationOutput::new(loss, output, targets)
    }
}
// ANCHOR_END: forward

// ANCHOR: steps
impl TrainStep for Model {
    type Input = ImageBatch;
    type Output = ClassificationOutput;

    fn step(&self, batch: ImageBatch) -> TrainOutput<ClassificationOutput> {
        let item = self.forward_classification(batch);
        TrainOutput::new(self, item.loss.backward(), item)
    }
}

impl InferenceStep for Model {
    type Input = ImageBatch;
    type Output = ClassificationOutput;

    fn step(&self, batch: ImageBatch) -> ClassificationOutput {
        self.forward_classification(batch)
    }
}
// ANCHOR_END: steps
