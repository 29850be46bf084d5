//! `ModuleOptimizer` on whole modules: updates outside the graph with the
//! autodiff context restored, parameter groups, gradient clipping,
//! gradient accumulation.

extern crate burn_core as burn;

mod common;

use burn::module::{Param, ParamGroup};
use burn::tensor::{Checkpointing, Device, Tensor};
use burn_optim::{
    AdamConfig, GradientClipping, GradientClippingConfig, GradientsAccumulator, GradientsParams,
    ModuleOptimizer, SgdConfig,
};
use common::{Linear, device, momentum, values};

fn linear(device: &Device) -> Linear {
    Linear {
        weight: Param::from_tensor(Tensor::from_data([[1.0, -2.0], [0.5, 3.0]], device)),
        bias: Param::from_tensor(Tensor::from_data([0.25, -0.5], device)),
    }
}

/// `loss = sum(x·W + b)` for `x = [[1, 2]]`: `∂W = xᵀ·1 = [[1, 1], [2, 2]]`,
/// `∂b = [1, 1]`.
fn loss(model: &Linear, device: &Device) -> Tensor<1> {
    let x = Tensor::<2>::from_data([[1.0, 2.0]], device);
    model.forward(x).sum()
}

#[test]
fn step_updates_outside_the_graph_and_restores_leaves_and_checkpointing() {
    let device = device().autodiff_with_checkpointing(Checkpointing::Balanced);
    let model = linear(&device);
    let grads = GradientsParams::from_grads(loss(&model, &device).backward(), &model);
    assert_eq!(grads.len(), 2);

    let mut optimizer = SgdConfig::new().init();
    let model = optimizer.step(0.5, model, grads);

    // W - 0.5·∂W and b - 0.5·∂b.
    assert_eq!(values(model.weight.val()), [0.5, -2.5, -0.5, 2.0]);
    assert_eq!(values(model.bias.val()), [-0.25, -1.0]);
    let (weight, bias) = (model.weight.val(), model.bias.val());
    assert!(weight.is_autodiff() && weight.is_require_grad());
    assert!(bias.is_autodiff() && bias.is_require_grad());
    assert_eq!(
        weight.device().checkpointing(),
        Some(Checkpointing::Balanced)
    );
    assert_eq!(bias.device().checkpointing(), Some(Checkpointing::Balanced));

    // The updated parameters are fresh leaves: a second pass finds them.
    let grads = GradientsParams::from_grads(loss(&model, &device).backward(), &model);
    let model = optimizer.step(0.5, model, grads);
    assert_eq!(values(model.weight.val()), [0.0, -3.0, -1.5, 1.0]);
}

#[test]
fn parameters_without_gradient_or_not_trainable_are_left_alone() {
    let device = device().autodiff();
    let model = linear(&device);
    let model = Linear {
        bias: model.bias.set_require_grad(false),
        ..model
    };
    let grads = GradientsParams::from_grads(loss(&model, &device).backward(), &model);
    assert_eq!(grads.len(), 1, "a frozen bias has no gradient");

    let mut optimizer = AdamConfig::new().init();
    let bias_id = model.bias.id;
    let weight_id = model.weight.id;
    // A gradient registered for the frozen bias is ignored too.
    let mut grads = grads;
    grads.register(bias_id, Tensor::<1>::ones([2], &device));
    let model = optimizer.step(0.1, model, grads);
    assert_eq!(values(model.bias.val()), [0.25, -0.5]);
    assert!(!model.bias.val().is_require_grad());
    assert!(optimizer.has_state(weight_id) && !optimizer.has_state(bias_id));
}

#[test]
fn parameter_groups_use_their_own_optimizer_and_clipping() {
    let device = device();
    let model = linear(&device);
    let grad_w = Tensor::<2>::from_data([[3.0, 4.0], [0.0, 0.0]], &device);
    let grad_b = Tensor::<1>::from_data([3.0, -4.0], &device);
    let (weight_id, bias_id) = (model.weight.id, model.bias.id);
    let grads = || {
        let mut grads = GradientsParams::new();
        grads.register(weight_id, grad_w.clone());
        grads.register(bias_id, grad_b.clone());
        grads
    };

    // The bias (by path) gets SGD clipped to norm 1; the weight, the
    // default group, Adam unclipped.
    let mut optimizer = AdamConfig::new().init().with_group(
        ParamGroup::subtree("bias"),
        SgdConfig::new().build(),
        Some(GradientClipping::Norm(1.0)),
    );
    let updated = optimizer.step(1.0, model.clone(), grads());

    // SGD, lr 1, gradient [3, -4] scaled to norm 1 (coefficient 1/(5+1e-6)).
    let coefficient = 1.0 / (5.0 + 1e-6);
    let expected_b = [0.25 - 3.0 * coefficient, -0.5 + 4.0 * coefficient];
    let b = values(updated.bias.val());
    for (got, want) in b.iter().zip(expected_b) {
        assert!((*got as f64 - want).abs() < 1e-6, "{b:?} vs {expected_b:?}");
    }
    // Adam's first step is lr·g/(|g| + ε): about 1 where the gradient is
    // non-zero, 0 where it is zero.
    let w = values(updated.weight.val());
    for (got, want) in w.iter().zip([0.0, -3.0, 0.5, 3.0]) {
        assert!((got - want).abs() < 1e-6, "{w:?}");
    }

    // The same groups selected by id instead of path.
    let mut by_id = AdamConfig::new().init().with_group(
        ParamGroup::from_ids([model.bias.id]),
        SgdConfig::new().build(),
        Some(GradientClipping::Norm(1.0)),
    );
    let again = by_id.step(1.0, model, grads());
    assert_eq!(values(again.bias.val()), b);
}

#[test]
fn clipping_by_value_and_by_norm() {
    let device = device();
    let grad = || Tensor::<1>::from_data([3.0, -4.0, 0.25], &device);

    let by_value = GradientClipping::Value(0.5).clip(grad());
    assert_eq!(values(by_value), [0.5, -0.5, 0.25]);

    // Norm √(9 + 16 + 1/16) ≈ 5.00625 > 2: scaled by 2 / (norm + 1e-6).
    let norm = (25.0625f64).sqrt();
    let by_norm = values(GradientClipping::Norm(2.0).clip(grad()));
    for (got, g) in by_norm.iter().zip([3.0, -4.0, 0.25]) {
        let want = g * 2.0 / (norm + 1e-6);
        assert!((*got as f64 - want).abs() < 1e-6, "{by_norm:?}");
    }
    // Below the bound: unchanged (the coefficient is capped at 1).
    assert_eq!(
        values(GradientClipping::Norm(10.0).clip(grad())),
        [3.0, -4.0, 0.25]
    );

    // Through an optimizer config: SGD lr 1 from zero gives minus the clipped gradient.
    let param = Param::from_tensor(Tensor::<1>::zeros([3], &device));
    let mut grads = GradientsParams::new();
    grads.register(param.id, grad());
    let mut optimizer = SgdConfig::new()
        .with_gradient_clipping(Some(GradientClippingConfig::Value(1.0)))
        .init();
    let param = optimizer.step(1.0, param, grads);
    assert_eq!(values(param.val()), [-1.0, 1.0, -0.25]);
}

#[test]
fn global_norm_clipping_scales_all_gradients_together() {
    let device = device();
    let model = linear(&device);
    let mut grads = GradientsParams::new();
    grads.register(
        model.weight.id,
        Tensor::<2>::from_data([[3.0, 0.0], [0.0, 0.0]], &device),
    );
    grads.register(model.bias.id, Tensor::<1>::from_data([0.0, 4.0], &device));
    // The norm over both tensors is 5; each tensor alone is below 5.
    grads.clip_global_norm(&model, 2.5);
    let coefficient = 2.5 / (5.0 + 1e-6);
    let w = values(grads.get::<2>(model.weight.id).unwrap());
    let b = values(grads.get::<1>(model.bias.id).unwrap());
    assert!((w[0] as f64 - 3.0 * coefficient).abs() < 1e-6, "{w:?}");
    assert!((b[1] as f64 - 4.0 * coefficient).abs() < 1e-6, "{b:?}");
}

#[test]
fn accumulated_gradients_are_summed_and_reset() {
    let device = device().autodiff();
    let model = linear(&device);
    let mut accumulator = GradientsAccumulator::new();
    for _ in 0..3 {
        let grads = GradientsParams::from_grads(loss(&model, &device).backward(), &model);
        accumulator.accumulate(&model, grads);
    }
    assert_eq!(accumulator.count(), 3);
    let grads = accumulator.grads();
    assert_eq!(accumulator.count(), 0);
    assert_eq!(
        values(grads.get::<2>(model.weight.id).unwrap()),
        [3.0, 3.0, 6.0, 6.0]
    );
    assert_eq!(values(grads.get::<1>(model.bias.id).unwrap()), [3.0, 3.0]);
    assert!(accumulator.grads().is_empty());

    // A step on the sum is a step with three times the gradient.
    let mut optimizer = SgdConfig::new().init();
    let model = optimizer.step(0.5, model, grads);
    assert_eq!(values(model.weight.val()), [-0.5, -3.5, -2.5, 0.0]);
}

#[test]
fn accumulation_ignores_gradients_of_other_modules() {
    let device = device();
    let model = linear(&device);
    let other = Param::from_tensor(Tensor::<1>::ones([2], &device));
    let mut grads = GradientsParams::new();
    grads.register(other.id, Tensor::<1>::ones([2], &device));
    grads.register(model.bias.id, Tensor::<1>::ones([2], &device));
    let mut accumulator = GradientsAccumulator::new();
    accumulator.accumulate(&model, grads);
    let summed = accumulator.grads();
    assert_eq!(summed.len(), 1);
    assert!(summed.contains(model.bias.id) && !summed.contains(other.id));
}

#[test]
fn gradients_from_a_sub_module_leave_the_rest() {
    let device = device().autodiff();
    let first = linear(&device);
    let second = linear(&device);
    let x = Tensor::<2>::from_data([[1.0, 2.0]], &device);
    let loss = second.forward(first.forward(x)).sum();
    let mut grads = loss.backward();
    let first_grads = GradientsParams::from_module(&mut grads, &first);
    let second_grads = GradientsParams::from_module(&mut grads, &second);
    assert_eq!((first_grads.len(), second_grads.len()), (2, 2));
    assert!(first_grads.contains(first.weight.id) && !first_grads.contains(second.weight.id));
}

#[test]
fn module_optimizer_reset_drops_state() {
    let device = device();
    let param = Param::from_tensor(Tensor::<1>::zeros([2], &device));
    let id = param.id;
    let mut grads = GradientsParams::new();
    grads.register(id, Tensor::<1>::ones([2], &device));
    let mut optimizer: ModuleOptimizer = SgdConfig::new().with_momentum(momentum(0.9)).init();
    let _ = optimizer.step(1.0, param, grads);
    assert_eq!(optimizer.num_states(), 1);
    optimizer.reset();
    assert!(!optimizer.has_state(id));
}

#[test]
fn optimizers_gradients_and_records_can_cross_threads() {
    fn send<T: Send>() {}
    send::<ModuleOptimizer>();
    send::<GradientsParams>();
    send::<GradientsAccumulator>();
    send::<burn_optim::OptimizerRecord>();
    send::<burn_optim::LrSchedulerRecord>();
    send::<burn_optim::Lbfgs>();
    send::<Box<dyn burn_optim::LrScheduler>>();
}
