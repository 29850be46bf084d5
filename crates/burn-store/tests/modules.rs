//! PyTorch layers loaded into Burn's, through the adapters: `nn.Linear`
//! transposed, norms renamed, BatchNorm running statistics, packed
//! `MultiheadAttention` and `LSTM` weights split. Each layer's forward pass
//! is compared with the output PyTorch recorded (`tests/data/generate.py`).

mod common;

use burn::module::{AutodiffModule, Module};
use burn_core as burn;
use burn_nn::{
    BatchNorm, BatchNormConfig, Conv2d, Conv2dConfig, Embedding, EmbeddingConfig, LayerNorm,
    LayerNormConfig, Linear, LinearConfig, Lstm, LstmConfig, MhaInput, MultiHeadAttention,
    MultiHeadAttentionConfig, PaddingConfig2d,
};
use burn_store::{
    BurnToPyTorchAdapter, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore,
    SafetensorsStore, SplitAdapter,
};
use burn_tensor::{Device, Tensor, TensorData, Tolerance};
use common::{data, expected};

#[derive(Module, Debug)]
struct Layers {
    linear: Linear,
    conv: Conv2d,
    bn: BatchNorm,
    ln: LayerNorm,
    emb: Embedding,
    attn: MultiHeadAttention,
    lstm: Lstm,
}

fn layers(device: &Device) -> Layers {
    Layers {
        linear: LinearConfig::new(4, 3).init(device),
        conv: Conv2dConfig::new([2, 3], [3, 3])
            .with_padding(PaddingConfig2d::Explicit(1, 1))
            .init(device),
        bn: BatchNormConfig::new(3).init(device),
        ln: LayerNormConfig::new(4).init(device),
        emb: EmbeddingConfig::new(5, 4).init(device),
        attn: MultiHeadAttentionConfig::new(8, 2)
            .with_dropout(0.0)
            .init(device),
        lstm: LstmConfig::new(3, 4, true).init(device),
    }
}

fn splits() -> SplitAdapter {
    SplitAdapter::multihead_attention().and(SplitAdapter::lstm())
}

/// `expected.json`'s tensor `spec` as data.
fn tensor_data(spec: &serde_json::Value) -> TensorData {
    let shape: Vec<usize> = spec["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    let values: Vec<f32> = spec["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    TensorData::new(values, shape)
}

fn io<const D: usize, const E: usize>(name: &str, device: &Device) -> (Tensor<D>, TensorData) {
    let case = &expected()["modules.outputs"][name];
    let input = Tensor::from_data(tensor_data(&case["input"]), device);
    (input, tensor_data(&case["output"]))
}

/// Every layer's forward pass equals PyTorch's.
fn check_forward(model: &Layers, device: &Device) {
    let model = model.valid(); // BatchNorm on running statistics, as PyTorch's eval()
    let tol = Tolerance::absolute(1e-5);

    let (x, want) = io::<2, 2>("linear", device);
    model
        .linear
        .forward(x)
        .into_data()
        .assert_approx_eq::<f32>(&want, tol);

    let (x, want) = io::<4, 4>("conv_bn", device);
    model
        .bn
        .forward(model.conv.forward(x))
        .into_data()
        .assert_approx_eq::<f32>(&want, tol);

    let (x, want) = io::<2, 2>("ln", device);
    model
        .ln
        .forward(x)
        .into_data()
        .assert_approx_eq::<f32>(&want, tol);

    let (x, want) = io::<3, 3>("attn", device);
    let out = model.attn.forward(MhaInput::self_attn(x)).context;
    out.into_data().assert_approx_eq::<f32>(&want, tol);

    let (x, want) = io::<3, 3>("lstm", device);
    model
        .lstm
        .forward(x, None)
        .0
        .into_data()
        .assert_approx_eq::<f32>(&want, tol);
}

#[test]
fn pytorch_layers_load_and_compute_as_in_pytorch() {
    let device = Device::flex();
    let mut model = layers(&device);
    let mut store = PytorchStore::from_file(data("modules.pt"))
        .with_split(splits())
        .strict(true);
    let result = model
        .load_from(&mut store)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        result.unused.is_empty() && result.missing.is_empty(),
        "{result}"
    );
    assert_eq!(result.skipped, ["bn.num_batches_tracked"]);
    assert!(result.applied.contains(&"bn.running_var".to_string()));
    assert!(
        result
            .applied
            .contains(&"lstm.cell_gate.hidden_transform.bias".to_string())
    );
    check_forward(&model, &device);
}

#[test]
fn safetensors_from_pytorch_with_the_adapter() {
    let device = Device::flex();
    let mut model = layers(&device);
    let mut store = SafetensorsStore::from_file(data("modules.safetensors"))
        .with_from_adapter(PyTorchToBurnAdapter)
        .with_split(splits())
        .strict(true);
    let result = model
        .load_from(&mut store)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(result.is_complete(), "{result}");
    check_forward(&model, &device);
}

#[test]
fn export_in_pytorchs_layout_round_trips() {
    let device = Device::flex();
    let mut model = layers(&device);
    PytorchStore::from_file(data("modules.pt"))
        .with_split(splits())
        .load_from_module(&mut model);

    // Only the layers that map one to one (the packed ones are PyTorch's
    // business): the file then holds exactly PyTorch's names and layouts.
    let mut store = SafetensorsStore::from_bytes(None)
        .with_to_adapter(BurnToPyTorchAdapter)
        .with_regex(r"^(linear|conv|bn|ln|emb)\.");
    model.save_into(&mut store).unwrap();
    let mut saved = SafetensorsStore::from_bytes(Some(store.get_bytes().unwrap()));
    let mut keys = saved.keys().unwrap();
    keys.sort();
    assert_eq!(
        keys,
        [
            "bn.bias",
            "bn.running_mean",
            "bn.running_var",
            "bn.weight",
            "conv.bias",
            "conv.weight",
            "emb.weight",
            "linear.bias",
            "linear.weight",
            "ln.bias",
            "ln.weight"
        ]
    );
    assert_eq!(
        saved.get_tensor("linear.weight").unwrap().unwrap().shape(),
        [3, 4]
    );
    let source = &expected()["modules.pt"]["linear.weight"];
    let want = tensor_data(source);
    saved
        .get_tensor("linear.weight")
        .unwrap()
        .unwrap()
        .to_data()
        .unwrap()
        .assert_eq(&want, true);
}

trait LoadQuietly {
    fn load_from_module(self, model: &mut Layers);
}

impl LoadQuietly for PytorchStore {
    fn load_from_module(mut self, model: &mut Layers) {
        model.load_from(&mut self).unwrap_or_else(|e| panic!("{e}"));
    }
}
