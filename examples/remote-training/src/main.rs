//! `cargo run --release -p remote-training -- [ws://HOST:PORT]`: trains a
//! two-layer perceptron on the 8×8 digits shipped with `burn-dataset` on a
//! remote device, then runs the same epochs on the local device and prints
//! both times.
//!
//! With a URL it trains on that server (start one with
//! `cargo run --release -p server`); without, it starts a server of Flex in
//! this process on a free loopback port, so it runs on its own. The model,
//! optimizer and loop are the ones of any local training: only the device
//! differs.

use std::time::{Duration, Instant};

use burn::data::dataloader::DataLoaderBuilder;
use burn::data::dataset::{DigitsDataset, DigitsItem};
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;
use burn::remote::RemoteHost;
use burn::server::{RemoteServer, WebSocketTransport};

/// Images flattened to `[batch, 64]`, digits `[batch]`.
#[derive(Clone, Debug)]
struct Batch {
    images: Tensor<2>,
    targets: Tensor<1, Int>,
}

fn batch(items: Vec<DigitsItem>, device: &Device) -> Batch {
    let n = items.len();
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

/// Trains `epochs` epochs on `device`; returns the last epoch's mean loss
/// and the time of the training steps.
fn train(device: &Device, epochs: usize) -> (f64, Duration) {
    device.seed(0);
    let train_device = device.clone().autodiff();
    let loader = DataLoaderBuilder::new(batch)
        .batch_size(32)
        .shuffle(0)
        .set_device(train_device.clone())
        .build(DigitsDataset::train());
    let mut model = Mlp::new(&train_device).train();
    let mut optimizer = AdamConfig::new().init();
    let loss_fn = CrossEntropyLossConfig::new().init(&train_device);
    let mut elapsed = Duration::ZERO;
    let mut last = 0.0;
    for epoch in 1..=epochs {
        let (mut sum, mut seen) = (0.0, 0);
        for batch in loader.iter() {
            let batch = batch.expect("an in-memory batch loads");
            let n = batch.targets.dims()[0];
            let start = Instant::now();
            let loss = loss_fn.forward(model.forward(batch.images), batch.targets);
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optimizer.step(2e-3, model, grads);
            // The read ends the step: it waits for the device.
            sum += loss.into_scalar::<f32>() as f64 * n as f64;
            elapsed += start.elapsed();
            seen += n;
        }
        last = sum / seen as f64;
        println!("  epoch {epoch}: loss {last:.4}");
    }
    (last, elapsed)
}

fn main() {
    let url = std::env::args().nth(1);
    // Without a URL, a server of Flex in this process.
    let _server;
    let url = match url {
        Some(url) => url,
        None => {
            let server = RemoteServer::new(vec![Device::flex()])
                .spawn(WebSocketTransport::new(0).expect("a free loopback port"));
            let url = server.url();
            _server = server;
            url
        }
    };
    let host = RemoteHost::websocket(url.clone());
    let remote = Device::remote_options(&host)
        .device_index(0)
        .init()
        .unwrap_or_else(|error| panic!("{error}"));
    let epochs = 3;
    println!("training on {remote} at {url}");
    let (remote_loss, remote_time) = train(&remote, epochs);
    println!("training on the local device {}", Device::flex());
    let (local_loss, local_time) = train(&Device::flex(), epochs);
    println!(
        "steps took {:.2} s remote, {:.2} s local (ratio {:.2}); final loss {remote_loss:.4} remote, {local_loss:.4} local",
        remote_time.as_secs_f64(),
        local_time.as_secs_f64(),
        remote_time.as_secs_f64() / local_time.as_secs_f64()
    );
}
