//! Training transitions on the autodiff context: `require_grad` leaves,
//! gradients found through parameters, `valid` / `train`, `no_grad`,
//! `freeze` / `unfreeze` (whole and by group), `fork`, and records moving
//! between plain and autodiff modules.

#![cfg(feature = "autodiff")]

extern crate burn_core as burn;

mod common;

use burn::module::{AutodiffModule, Flag, Module, Param, ParamGroup, ParamId};
use burn::tensor::{Device, Tensor};
use common::{Linear, device, values};

fn autodiff() -> Device {
    device().autodiff()
}

/// Control state, like a dropout layer's.
#[derive(Module, Debug)]
struct Dropout {
    training: Param<Flag>,
}

impl Dropout {
    fn new() -> Self {
        Self {
            training: Param::from_bool(true),
        }
    }
}

#[derive(Module, Debug)]
struct Encoder {
    linear: Linear,
    dropout: Dropout,
}

#[derive(Module, Debug)]
struct Model {
    encoder: Encoder,
    decoder: Linear,
}

impl Model {
    fn on(device: &Device) -> Self {
        Self {
            encoder: Encoder {
                linear: Linear::filled_on(device, 2, 3, true, 1.0),
                dropout: Dropout::new(),
            },
            decoder: Linear::filled_on(device, 3, 1, false, 0.5),
        }
    }

    fn forward(&self, input: Tensor<2>) -> Tensor<2> {
        self.decoder.forward(self.encoder.linear.forward(input))
    }
}

fn is_leaf(param: &Param<Tensor<2>>) -> bool {
    let tensor = param.val();
    tensor.is_autodiff() && tensor.is_require_grad()
}

#[test]
fn trainable_parameters_on_an_autodiff_device_are_leaves() {
    let param = Param::from_tensor(Tensor::<2>::ones([2, 2], &autodiff()));
    assert!(param.is_require_grad());
    assert!(is_leaf(&param));

    let plain = Param::from_tensor(Tensor::<2>::ones([2, 2], &device()));
    assert!(
        plain.is_require_grad(),
        "trainable, though there is no graph to join"
    );
    assert!(!plain.val().is_autodiff());
}

#[test]
fn gradients_are_found_through_the_parameters() {
    let model = Model::on(&autodiff());
    let input = Tensor::<2>::from_data([[1.0, 2.0]], &autodiff());
    let grads = model.forward(input).sum().backward();

    // y = (x W1 + b1) W2 with x = [1, 2], W2 = 0.5 everywhere:
    // dy/dW1[i][j] = x[i] * W2[j] = [[0.5; 3], [1.0; 3]], dy/db1 = W2 = [0.5; 3],
    // dy/dW2[j] = (x W1 + b1)[j] = 1 + 2 - 1 = 2.
    let grad = |param: &Param<Tensor<2>>| {
        param
            .val()
            .grad(&grads)
            .expect("a gradient for the parameter")
            .into_data()
            .to_vec::<f32>()
            .unwrap()
    };
    assert_eq!(
        grad(&model.encoder.linear.weight),
        vec![0.5, 0.5, 0.5, 1.0, 1.0, 1.0]
    );
    assert_eq!(grad(&model.decoder.weight), vec![2.0, 2.0, 2.0]);
    let bias = model.encoder.linear.bias.as_ref().unwrap().val();
    assert_eq!(
        bias.grad(&grads)
            .unwrap()
            .into_data()
            .to_vec::<f32>()
            .unwrap(),
        vec![0.5, 0.5, 0.5]
    );
}

#[test]
fn valid_makes_a_plain_snapshot_and_train_restores_the_training_module() {
    let model = Model::on(&autodiff());
    let valid = model.valid();

    assert!(!valid.encoder.linear.weight.val().is_autodiff());
    assert!(!valid.encoder.dropout.training.is_enabled());
    assert!(
        valid.encoder.linear.weight.is_require_grad(),
        "setting kept"
    );
    assert!(valid.encoder.dropout.training.is_configured_enabled());
    assert_eq!(
        valid.encoder.linear.weight.id,
        model.encoder.linear.weight.id
    );
    assert_eq!(values(&valid.decoder.weight), vec![0.5; 3]);

    // The training module itself is untouched.
    assert!(is_leaf(&model.encoder.linear.weight));
    assert!(model.encoder.dropout.training.is_enabled());

    let trained = valid.train();
    assert!(is_leaf(&trained.encoder.linear.weight));
    assert!(is_leaf(&trained.decoder.weight));
    assert!(trained.encoder.dropout.training.is_enabled());
}

#[test]
fn train_gives_a_plain_module_an_autodiff_context() {
    let model = Model::on(&device());
    assert!(!model.decoder.weight.val().is_autodiff());
    let trained = model.train();
    assert!(is_leaf(&trained.decoder.weight));

    let input = Tensor::<2>::from_data([[1.0, 2.0]], &device());
    let grads = trained.forward(input).sum().backward();
    assert!(trained.decoder.weight.val().grad(&grads).is_some());
}

#[test]
fn no_grad_is_persistent_and_leaves_flags_alone() {
    let model = Model::on(&autodiff()).no_grad();
    assert!(!model.decoder.weight.is_require_grad());
    assert!(!model.decoder.weight.val().is_require_grad());
    assert!(
        model.decoder.weight.val().is_autodiff(),
        "still on the autodiff device"
    );
    assert!(model.encoder.dropout.training.is_enabled());

    let trained = model.valid().train();
    assert!(!trained.decoder.weight.val().is_require_grad());
    assert!(trained.encoder.dropout.training.is_enabled());
}

#[test]
fn freeze_and_unfreeze_set_gradients_and_flags() {
    let frozen = Model::on(&autodiff()).freeze();
    assert!(!frozen.encoder.linear.weight.val().is_require_grad());
    assert!(!frozen.encoder.dropout.training.is_enabled());

    // Freezing survives a validation round trip.
    let trained = frozen.valid().train();
    assert!(!trained.encoder.linear.weight.is_require_grad());
    assert!(!trained.encoder.linear.weight.val().is_require_grad());
    assert!(!trained.encoder.dropout.training.is_enabled());

    let unfrozen = trained.unfreeze();
    assert!(is_leaf(&unfrozen.encoder.linear.weight));
    assert!(unfrozen.encoder.dropout.training.is_enabled());
}

#[test]
fn freeze_group_targets_a_subtree() {
    let model = Model::on(&autodiff()).freeze_group(&ParamGroup::subtree("encoder"));
    assert!(!model.encoder.linear.weight.val().is_require_grad());
    assert!(
        !model
            .encoder
            .linear
            .bias
            .as_ref()
            .unwrap()
            .val()
            .is_require_grad()
    );
    assert!(!model.encoder.dropout.training.is_enabled());
    assert!(is_leaf(&model.decoder.weight));

    // Gradients reach only the trainable part.
    let input = Tensor::<2>::from_data([[1.0, 2.0]], &autodiff());
    let grads = model.forward(input).sum().backward();
    assert!(model.decoder.weight.val().grad(&grads).is_some());
    assert!(model.encoder.linear.weight.val().grad(&grads).is_none());

    let model = model.unfreeze_group(&ParamGroup::subtree("encoder.linear"));
    assert!(is_leaf(&model.encoder.linear.weight));
    assert!(
        !model.encoder.dropout.training.is_enabled(),
        "outside the group"
    );
}

#[test]
fn freeze_group_by_ids_follows_the_parameters() {
    let model = Model::on(&autodiff());
    let decoder = ParamGroup::ids_from_module(&model.decoder);
    let model = model.freeze_group(&decoder);
    assert!(!model.decoder.weight.val().is_require_grad());
    assert!(is_leaf(&model.encoder.linear.weight));
}

#[test]
fn fork_makes_independent_leaves_with_the_same_ids() {
    let model = Model::on(&autodiff());
    let forked = model.clone().fork(&autodiff());
    assert_eq!(forked.decoder.weight.id, model.decoder.weight.id);
    assert!(is_leaf(&forked.decoder.weight));

    let input = Tensor::<2>::from_data([[1.0, 2.0]], &autodiff());
    let grads = forked.forward(input).sum().backward();
    assert!(forked.decoder.weight.val().grad(&grads).is_some());
    assert!(
        model.decoder.weight.val().grad(&grads).is_none(),
        "the original's leaves are not in the fork's graph"
    );
}

#[test]
fn lazy_parameters_initialize_as_leaves_and_follow_train() {
    let lazy = |device: Device| {
        Param::uninitialized(
            ParamId::new(),
            |device, _| Tensor::<2>::zeros([2, 2], device),
            device,
            true,
            [2, 2],
        )
    };
    assert!(is_leaf(&lazy(autodiff())));

    let trained = lazy(device()).train();
    assert!(!trained.is_initialized(), "train() does not initialize");
    assert!(is_leaf(&trained));

    let frozen = lazy(autodiff()).set_require_grad(false);
    assert!(!frozen.is_initialized());
    assert!(!frozen.val().is_require_grad());
}

#[test]
fn a_record_saved_from_a_plain_module_loads_into_a_training_one() {
    let saved = Model::on(&device()).into_record();
    let training = Model::on(&autodiff()).load_record(saved.clone());
    assert!(is_leaf(&training.encoder.linear.weight));
    assert_eq!(values(&training.decoder.weight), vec![0.5; 3]);

    // And a training module's record loads into a plain one, which stays plain.
    let plain = Model::on(&device()).load_record(training.into_record());
    assert!(!plain.decoder.weight.val().is_autodiff());

    // A frozen parameter stays frozen when loaded into.
    let frozen = Model::on(&autodiff()).freeze().load_record(saved);
    assert!(!frozen.decoder.weight.val().is_require_grad());
}

#[test]
fn a_module_may_mix_autodiff_and_plain_parameters() {
    let model = Model {
        encoder: Encoder {
            linear: Linear::filled_on(&device(), 2, 3, true, 1.0),
            dropout: Dropout::new(),
        },
        decoder: Linear::filled_on(&autodiff(), 3, 1, false, 0.5),
    };
    assert_eq!(
        model.devices(),
        vec![device()],
        "device equality ignores autodiff"
    );
    assert!(!model.encoder.linear.weight.val().is_autodiff());
    assert!(is_leaf(&model.decoder.weight));

    let valid = model.valid();
    assert!(!valid.decoder.weight.val().is_autodiff());
    let trained = valid.train();
    assert!(is_leaf(&trained.encoder.linear.weight));
}
