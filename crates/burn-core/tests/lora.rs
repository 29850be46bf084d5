//! LoRA and reparameterized parameters: what is attached, what `val()`
//! computes, how traversals, records, `valid()`, `materialize()` and
//! devices treat the adapter, and `consume` / `from_mapped_value`.

use burn_core as burn;

use burn::module::{AutodiffModule, Lora, LoraAdapter, Module, Param, ParamGroup};
use burn::tensor::{Device, Tensor, TensorData, Tolerance};

#[derive(Module, Debug)]
struct Layer {
    weight: Param<Tensor<2>>,
    bias: Param<Tensor<1>>,
}

/// A parameter in the device's default float dtype.
fn param<const D: usize>(data: impl Into<TensorData>, device: &Device) -> Param<Tensor<D>> {
    Param::from_tensor(Tensor::from_data(data, device))
}

fn layer(device: &Device) -> Layer {
    Layer {
        weight: param([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device),
        bias: param([0.5, -0.5, 1.0], device),
    }
}

/// A weight `[2, 3]` with a hand-made adapter: `a` `[2, 1]`, `b` `[1, 3]`.
fn adapted(device: &Device) -> Layer {
    let model = layer(device);
    let adapter = LoraAdapter {
        a: param([[1.0], [2.0]], device),
        b: param([[0.5, 0.0, -1.0]], device),
        scale: 2.0,
    };
    Layer {
        weight: model
            .weight
            .set_require_grad(false)
            .with_reparameterization(adapter),
        bias: model.bias,
    }
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().to_vec::<f32>().unwrap()
}

/// base + 2·a·b by hand: a·b = [[0.5, 0, -1], [1, 0, -2]].
const EFFECTIVE: [f32; 6] = [2.0, 2.0, 1.0, 6.0, 5.0, 2.0];

#[test]
fn val_computes_the_effective_weight_and_base_the_stored_one() {
    let device = Device::flex();
    let model = adapted(&device);
    assert_eq!(values(model.weight.val()), EFFECTIVE);
    assert_eq!(values(model.weight.base()), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(model.weight.adapter().unwrap().scale, 2.0);
    assert!(model.bias.adapter().is_none());
}

#[test]
fn apply_lora_freezes_everything_and_adapts_the_selected_matrices() {
    let device = Device::flex().autodiff();
    let model = layer(&device).apply_lora(Lora::new(2, 8.0));
    let adapter = model.weight.adapter().expect("a 2-D weight is adapted");
    assert_eq!(
        (adapter.a.dims(), adapter.b.dims(), adapter.scale),
        ([2, 2], [2, 3], 4.0)
    );
    assert!(values(adapter.b.val()).iter().all(|&v| v == 0.0));
    // B is zero: nothing changes until the adapter trains.
    assert_eq!(values(model.weight.val()), values(model.weight.base()));
    assert!(!model.weight.is_require_grad() && !model.bias.is_require_grad());
    assert!(adapter.a.is_require_grad() && adapter.b.is_require_grad());
    assert_eq!(model.num_params(), 6 + 3 + 4 + 6);

    // A group that selects nothing freezes without adapting.
    let none =
        layer(&device).apply_lora(Lora::new(1, 1.0).set_param_group(ParamGroup::subtree("other")));
    assert!(none.weight.adapter().is_none() && !none.weight.is_require_grad());
}

#[test]
#[should_panic(expected = "Lora::new: the rank must be above zero")]
fn a_zero_rank_is_refused() {
    let _ = Lora::new(0, 1.0);
}

#[test]
fn gradients_reach_the_adapter_and_not_the_frozen_base() {
    let device = Device::flex().autodiff();
    let model = adapted(&device).train();
    let adapter = model.weight.adapter().unwrap();
    let x = Tensor::<2>::from_data([[1.0, -1.0]], &device);
    let loss = x.matmul(model.weight.val()).sum();
    let grads = loss.backward();
    // d loss / d a = 2 · xᵀ · 1 · bᵀ = 2·[1, -1]ᵀ·(0.5 + 0 - 1) = [[-1], [1]].
    assert_eq!(values(adapter.a.val().grad(&grads).unwrap()), [-1.0, 1.0]);
    // d loss / d b = 2 · aᵀ · xᵀ · 1 = 2·(1·1 + 2·(-1)) = [-2, -2, -2].
    assert_eq!(
        values(adapter.b.val().grad(&grads).unwrap()),
        [-2.0, -2.0, -2.0]
    );
    assert!(model.weight.base().grad(&grads).is_none());
}

#[test]
fn records_hold_the_base_and_the_adapter_under_its_name() {
    let device = Device::flex();
    let model = adapted(&device);
    let record = model.clone().into_record();
    let paths: Vec<&str> = record.entries().iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["weight", "weight.lora.a", "weight.lora.b", "bias"]);

    // A fresh LoRA model takes the trained adapter back.
    let fresh = layer(&device).apply_lora(Lora::new(1, 2.0));
    let loaded = fresh.load_record(record);
    assert_eq!(values(loaded.weight.val()), EFFECTIVE);
}

#[test]
fn valid_and_materialize_fold_the_adapter_into_the_weight() {
    let device = Device::flex().autodiff();
    let model = adapted(&device).train();
    for folded in [model.valid(), model.clone().materialize()] {
        assert!(folded.weight.adapter().is_none());
        assert_eq!(values(folded.weight.val()), EFFECTIVE);
        assert!(!folded.weight.is_require_grad(), "the base's trainability");
        assert_eq!(folded.num_params(), 9);
        let paths: Vec<String> = folded
            .into_record()
            .entries()
            .iter()
            .map(|e| e.path.clone())
            .collect();
        assert_eq!(paths, ["weight", "bias"]);
    }
    // The training model keeps its adapter.
    assert!(model.weight.adapter().is_some());
}

#[test]
fn moves_and_forks_carry_the_adapter() {
    let device = Device::flex().autodiff();
    let model = adapted(&device).train();
    let moved = model.clone().to_device(&Device::flex());
    let forked = model.fork(&Device::flex().autodiff());
    for model in [moved, forked] {
        assert!(model.weight.adapter().is_some());
        TensorData::from(EFFECTIVE).assert_approx_eq::<f32>(
            &model.weight.val().flatten::<1>(0, 1).into_data(),
            Tolerance::default(),
        );
        assert_eq!(model.devices().len(), 1);
    }
}

#[test]
fn consume_and_from_mapped_value_keep_id_trainability_and_adapter() {
    let device = Device::flex().autodiff();
    let weight = adapted(&device).weight;
    let id = weight.id;
    let (id_out, base, mapper) = weight.consume();
    assert_eq!(id_out, id);
    assert!(!mapper.is_require_grad());
    assert_eq!(values(base.clone()), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let rebuilt = Param::from_mapped_value(id_out, base.mul_scalar(0.0), mapper);
    assert_eq!(rebuilt.id, id);
    assert!(!rebuilt.is_require_grad());
    // The adapter's 2·a·b alone remains.
    assert_eq!(values(rebuilt.val()), [1.0, 0.0, -2.0, 2.0, 0.0, -4.0]);

    // A plain trainable parameter comes back a trainable leaf.
    let plain = Param::from_tensor(Tensor::<1>::from_data([3.0], &device));
    let (id, value, mapper) = plain.consume();
    let back = Param::from_mapped_value(id, value, mapper);
    assert!(back.is_require_grad() && back.val().is_require_grad());
}
