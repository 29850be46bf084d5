//! Loads the digits CNN that `pytorch/train.py` trained in PyTorch into the
//! same network written with Burn's layers, from the `torch.save` file and
//! from the SafeTensors file, and checks that it predicts what PyTorch
//! predicted on the 20 test images the script saved with its logits.

use std::path::{Path, PathBuf};

use burn::module::{AutodiffModule, Module};
use burn::nn::{
    BatchNorm, BatchNormConfig, Conv2d, Conv2dConfig, Linear, LinearConfig, MaxPool2d,
    MaxPool2dConfig, PaddingConfig2d, Relu,
};
use burn::prelude::*;
use burn::store::{
    BurnToPyTorchAdapter, ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore,
};

/// The network of `pytorch/train.py`, field for field: the PyTorch names
/// (`conv1.weight`, `bn1.running_var`, `fc1.bias`, …) are the Burn paths.
#[derive(Module, Debug)]
struct Net {
    conv1: Conv2d,
    bn1: BatchNorm,
    conv2: Conv2d,
    bn2: BatchNorm,
    pool: MaxPool2d,
    fc1: Linear,
    fc2: Linear,
    relu: Relu,
}

impl Net {
    fn new(device: &Device) -> Self {
        let conv = |channels| {
            Conv2dConfig::new(channels, [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1))
                .init(device)
        };
        Self {
            conv1: conv([1, 8]),
            bn1: BatchNormConfig::new(8).init(device),
            conv2: conv([8, 16]),
            bn2: BatchNormConfig::new(16).init(device),
            pool: MaxPool2dConfig::new([2, 2]).with_strides([2, 2]).init(),
            fc1: LinearConfig::new(16 * 4 * 4, 32).init(device),
            fc2: LinearConfig::new(32, 10).init(device),
            relu: Relu::new(),
        }
    }

    // x: [batch, 1, 8, 8] -> logits [batch, 10]
    fn forward(&self, x: Tensor<4>) -> Tensor<2> {
        let x = self.relu.forward(self.bn1.forward(self.conv1.forward(x)));
        let x = self.relu.forward(self.bn2.forward(self.conv2.forward(x)));
        let x = self.pool.forward(x); // [batch, 16, 4, 4]
        let x = self.relu.forward(self.fc1.forward(x.flatten::<2>(1, 3)));
        self.fc2.forward(x)
    }
}

struct Expected {
    images: Vec<f32>,
    labels: Vec<i64>,
    logits: Vec<f32>,
    predictions: Vec<i64>,
}

fn expected(dir: &Path) -> Expected {
    let text = std::fs::read_to_string(dir.join("expected.json")).expect("weights/expected.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let flat = |key: &str| -> Vec<f64> {
        let mut out = Vec::new();
        let mut stack = vec![&json[key]];
        while let Some(v) = stack.pop() {
            match v {
                serde_json::Value::Array(items) => stack.extend(items.iter().rev()),
                other => out.push(other.as_f64().expect("a number")),
            }
        }
        out
    };
    Expected {
        images: flat("images").iter().map(|&p| p as f32 / 16.0).collect(),
        labels: flat("labels").iter().map(|&v| v as i64).collect(),
        logits: flat("logits").iter().map(|&v| v as f32).collect(),
        predictions: flat("predictions").iter().map(|&v| v as i64).collect(),
    }
}

fn check(name: &str, model: &Net, expected: &Expected, device: &Device) {
    let n = expected.labels.len();
    let images = Tensor::<4>::from_data(
        TensorData::new(expected.images.clone(), [n, 1, 8, 8]),
        device,
    );
    let logits = model.valid().forward(images);
    let predictions: Vec<i64> = logits
        .clone()
        .argmax(1)
        .into_data()
        .convert::<i64>()
        .to_vec()
        .unwrap();
    let diff = logits
        .into_data()
        .to_vec::<f32>()
        .unwrap()
        .iter()
        .zip(&expected.logits)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    println!("{name}:");
    println!("  labels      {:?}", expected.labels);
    println!("  burn        {predictions:?}");
    println!("  pytorch     {:?}", expected.predictions);
    println!("  largest logit difference from PyTorch: {diff:.2e}");
    assert_eq!(
        predictions, expected.predictions,
        "{name}: predictions differ from PyTorch's"
    );
    assert!(
        diff < 1e-4,
        "{name}: logits differ from PyTorch's by {diff}"
    );
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("weights");
    let device = Device::default();
    let expected = expected(&dir);

    // torch.save's file: PyTorchToBurnAdapter is the default (Linear weights
    // transposed, BatchNorm weight/bias as gamma/beta); strict: every tensor
    // must land (num_batches_tracked is skipped, having no Burn counterpart).
    let mut model = Net::new(&device);
    let mut store = PytorchStore::from_file(dir.join("digits_cnn.pt")).strict(true);
    let result = model
        .load_from(&mut store)
        .expect("the .pt file fits the network");
    println!("digits_cnn.pt: {result}");
    check("digits_cnn.pt", &model, &expected, &device);

    // The SafeTensors file PyTorch wrote: the same adapter, asked for.
    let mut model = Net::new(&device);
    let mut store = SafetensorsStore::from_file(dir.join("digits_cnn.safetensors"))
        .with_from_adapter(PyTorchToBurnAdapter)
        .strict(true);
    model
        .load_from(&mut store)
        .expect("the .safetensors file fits the network");
    check("digits_cnn.safetensors", &model, &expected, &device);

    println!(
        "both files predict as PyTorch does on all {} images",
        expected.labels.len()
    );

    // And back: exported in PyTorch's layout and names, for
    // `pytorch/check_export.py` to load with `load_state_dict`.
    let export = std::env::temp_dir().join("digits_cnn_export.safetensors");
    let mut store = SafetensorsStore::from_file(&export).with_to_adapter(BurnToPyTorchAdapter);
    model.save_into(&mut store).expect("export");
    println!("exported for PyTorch: {}", export.display());
}
