//! L-BFGS against `torch.optim.LBFGS` (no line search): three steps of at
//! most five iterations on a small least-squares problem with a quartic
//! penalty. Values printed by `tests/reference/lbfgs.py`.

// The reference values are pasted verbatim from the generator script.
#![allow(clippy::excessive_precision)]

extern crate burn_core as burn;

mod common;

use burn::module::Param;
use burn::tensor::{Device, Tensor, Tolerance};
use burn_optim::{GradientsParams, LbfgsConfig};
use common::{Weights, assert_close, device};

// torch 2.15.0+cu132
const LOSSES: [f64; 3] = [8.84744930267334, 3.6795382499694824, 3.669412136077881];
const WEIGHTS: [[[f32; 3]; 2]; 3] = [
    [
        [2.83247501e-01, 5.47080100e-01, -5.87263107e-01],
        [3.41591299e-01, -1.14964060e-01, -3.12373526e-02],
    ],
    [
        [2.92277277e-01, 5.80644727e-01, -6.26132548e-01],
        [3.38361025e-01, -1.22525841e-01, -2.47470010e-02],
    ],
    [
        [2.92560339e-01, 5.81660271e-01, -6.27329469e-01],
        [3.38267386e-01, -1.22765623e-01, -2.45968066e-02],
    ],
];
// n_iter 15, func_evals 15

/// `loss(W) = sum((X·W - Y)²) + 0.1·sum(W⁴)` and its gradients.
fn closure(device: &Device) -> impl FnMut(&Weights) -> (f64, GradientsParams) + '_ {
    move |model: &Weights| {
        let x = Tensor::<2>::from_data([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.3], [0.2, 0.8]], device);
        let y = Tensor::<2>::from_data(
            [
                [1.0, 0.0, -1.0],
                [0.5, 0.5, 0.0],
                [0.0, -1.0, 1.0],
                [1.0, 1.0, 1.0],
            ],
            device,
        );
        let w = model.weight.val();
        let loss =
            (x.matmul(w.clone()) - y).square().sum() + w.square().square().sum().mul_scalar(0.1);
        let grads = GradientsParams::from_grads(loss.backward(), model);
        (loss.into_scalar::<f64>(), grads)
    }
}

#[test]
fn lbfgs_matches_pytorch() {
    let device = device().autodiff();
    let mut model = Weights::new([[0.1, -0.2, 0.3], [0.4, 0.0, -0.1]], &device);
    let mut lbfgs = LbfgsConfig::new()
        .with_max_iter(5)
        .with_history_size(3)
        .init();
    for (k, (expected, expected_loss)) in WEIGHTS.iter().zip(LOSSES).enumerate() {
        let (updated, loss) = lbfgs.step(0.5, model, closure(&device));
        model = updated;
        assert!(
            (loss - expected_loss).abs() < 1e-4 * expected_loss.abs(),
            "step {k}: loss {loss} vs {expected_loss}"
        );
        assert_close(
            model.weight.val(),
            *expected,
            Tolerance::rel_abs(1e-4, 1e-5),
            &format!("L-BFGS step {k}"),
        );
        assert!(model.weight.val().is_require_grad());
    }
    assert_eq!((lbfgs.num_iterations(), lbfgs.num_evaluations()), (15, 15));
}

#[test]
fn lbfgs_state_round_trips_through_a_record() {
    let device = device().autodiff();
    let start = Weights::new([[0.1, -0.2, 0.3], [0.4, 0.0, -0.1]], &device);
    let config = LbfgsConfig::new().with_max_iter(2).with_history_size(3);

    let mut straight = config.init();
    let (model, _) = straight.step(0.5, start, closure(&device));
    let record = straight.to_record();
    assert!(record.tensors.contains_key("lbfgs.direction"));
    let bytes = record.into_bytes().unwrap();
    let record = burn_optim::OptimizerRecord::from_bytes(bytes).unwrap();
    let mut resumed = config.init().load_record(record, &device).unwrap();
    let mut fresh = config.init();

    let weights = |m: &Weights| m.weight.val().into_data().to_vec::<f32>().unwrap();
    let (a, _) = straight.step(
        0.5,
        Weights {
            weight: Param::initialized(model.weight.id, model.weight.val()),
        },
        closure(&device),
    );
    let (b, _) = resumed.step(
        0.5,
        Weights {
            weight: Param::initialized(model.weight.id, model.weight.val()),
        },
        closure(&device),
    );
    let (c, _) = fresh.step(0.5, model, closure(&device));
    assert_eq!(weights(&a), weights(&b));
    assert_ne!(weights(&a), weights(&c), "the history changes the step");
}
