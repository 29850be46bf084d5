//! Optimizer and scheduler records: keys, burnpack round trips, loading
//! with no device, and a training run saved mid-way and resumed that ends
//! bit-identical to an uninterrupted one.

extern crate burn_core as burn;

mod common;

use std::path::PathBuf;

use burn::module::{Module, Param};
use burn::record::ModuleRecord;
use burn::tensor::{Device, Scalar, Tensor, TensorData};
use burn_optim::lr_scheduler::{
    ComposedLrScheduler, CosineAnnealingLrSchedulerConfig, LinearLrSchedulerConfig, Reduction,
    SequentialLrScheduler,
};
use burn_optim::{
    AdamConfig, AdamWConfig, GradientsParams, LrScheduler, LrSchedulerRecord, ModuleOptimizer,
    OptimizerRecord, SgdConfig,
};
use common::{Linear, device, momentum, values};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("burn-optim-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn model(device: &Device, scale: f32) -> Linear {
    Linear {
        weight: Param::from_tensor(Tensor::from_data(
            [
                [0.3 * scale, -0.2 * scale],
                [0.1 * scale, 0.4 * scale],
                [-0.5 * scale, 0.2 * scale],
            ],
            device,
        )),
        bias: Param::from_tensor(Tensor::from_data([0.05 * scale, -0.1 * scale], device)),
    }
}

/// Mean squared error of the model on a fixed batch.
fn loss(model: &Linear, device: &Device) -> Tensor<1> {
    let x = Tensor::<2>::from_data(
        [
            [1.0, 2.0, -1.0],
            [0.5, -0.3, 0.8],
            [-1.2, 0.7, 0.1],
            [0.0, 1.5, -0.4],
        ],
        device,
    );
    let y = Tensor::<2>::from_data([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5], [1.0, 1.0]], device);
    (model.forward(x) - y).square().mean()
}

fn train_step(
    model: Linear,
    optimizer: &mut ModuleOptimizer,
    scheduler: &mut impl LrScheduler,
    device: &Device,
) -> Linear {
    let grads = GradientsParams::from_grads(loss(&model, device).backward(), &model);
    optimizer.step(scheduler.step(), model, grads)
}

fn scheduler() -> SequentialLrScheduler {
    // A linear warm-up, then a cosine decay times a constant factor.
    SequentialLrScheduler::new(LinearLrSchedulerConfig::new(0.01, 0.1, 3).init()).then_at(
        3,
        ComposedLrScheduler::new(Reduction::Prod)
            .with(CosineAnnealingLrSchedulerConfig::new(0.1, 10).init())
            .with(0.5),
    )
}

fn optimizer() -> ModuleOptimizer {
    AdamWConfig::new().with_weight_decay(0.05).init()
}

#[test]
fn resumed_training_is_bit_identical() {
    let device = device().autodiff();
    let dir = temp_dir("resume");
    let (total, split) = (12, 5);

    let mut straight = model(&device, 1.0);
    let (mut opt, mut lr) = (optimizer(), scheduler());
    for _ in 0..total {
        straight = train_step(straight, &mut opt, &mut lr, &device);
    }

    let mut first = model(&device, 1.0);
    let (mut opt, mut lr) = (optimizer(), scheduler());
    for _ in 0..split {
        first = train_step(first, &mut opt, &mut lr, &device);
    }
    first.clone().into_record().save(dir.join("model")).unwrap();
    opt.to_record().save(dir.join("optimizer")).unwrap();
    lr.to_record().save(dir.join("scheduler")).unwrap();
    drop((first, opt, lr));

    // Fresh objects: other initial values, no state; all loaded from files.
    let mut resumed =
        model(&device, -3.0).load_record(ModuleRecord::load(dir.join("model")).unwrap());
    let mut opt = optimizer().load_record(OptimizerRecord::load(dir.join("optimizer")).unwrap());
    let mut lr = scheduler().load_record(LrSchedulerRecord::load(dir.join("scheduler")).unwrap());
    for _ in split..total {
        resumed = train_step(resumed, &mut opt, &mut lr, &device);
    }

    let bits = |t: Tensor<2>| values(t).into_iter().map(f32::to_bits).collect::<Vec<_>>();
    let bits1 = |t: Tensor<1>| values(t).into_iter().map(f32::to_bits).collect::<Vec<_>>();
    assert_eq!(bits(resumed.weight.val()), bits(straight.weight.val()));
    assert_eq!(bits1(resumed.bias.val()), bits1(straight.bias.val()));
    // The run did move the parameters (the comparison is not of two
    // untouched models).
    assert_ne!(
        values(straight.weight.val()),
        values(model(&device, 1.0).weight.val())
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn resuming_without_the_optimizer_state_differs() {
    // The counterpart of the test above: dropping the optimizer state must
    // change the result, or the resume test proves nothing about it.
    let device = device().autodiff();
    let mut straight = model(&device, 1.0);
    let (mut opt, mut lr) = (optimizer(), scheduler());
    for _ in 0..8 {
        straight = train_step(straight, &mut opt, &mut lr, &device);
    }
    let mut restarted = model(&device, 1.0);
    let (mut opt, mut lr) = (optimizer(), scheduler());
    for step in 0..8 {
        if step == 4 {
            opt = optimizer();
        }
        restarted = train_step(restarted, &mut opt, &mut lr, &device);
    }
    assert_ne!(
        values(restarted.weight.val()),
        values(straight.weight.val())
    );
}

#[test]
fn records_are_keyed_per_parameter_with_a_rank() {
    let device = device();
    let linear = model(&device, 1.0);
    let (w, b) = (linear.weight.id, linear.bias.id);
    let mut grads = GradientsParams::new();
    grads.register(w, Tensor::<2>::ones([3, 2], &device));
    grads.register(b, Tensor::<1>::ones([2], &device));
    let mut optimizer = AdamConfig::new().init();
    let _ = optimizer.step(0.1, linear, grads);

    let record = optimizer.to_record();
    let mut tensor_keys: Vec<&str> = record.tensors.keys().map(String::as_str).collect();
    tensor_keys.sort();
    let mut expected = vec![
        format!("{w}.moment_1"),
        format!("{w}.moment_2"),
        format!("{b}.moment_1"),
        format!("{b}.moment_2"),
    ];
    expected.sort();
    assert_eq!(tensor_keys, expected);
    assert_eq!(record.scalars[&format!("{w}.__rank")], Scalar::UInt(2));
    assert_eq!(record.scalars[&format!("{b}.__rank")], Scalar::UInt(1));
    assert_eq!(record.scalars[&format!("{w}.time")], Scalar::UInt(1));
    // moment_1 = (1 - β₁)·g = 0.1.
    let m1 = &record.tensors[&format!("{w}.moment_1")];
    assert_eq!(m1.shape, burn::tensor::Shape::new([3, 2]));
    m1.assert_approx_eq::<f32>(
        &TensorData::from([[0.1f32; 2]; 3]),
        burn::tensor::Tolerance::absolute(1e-7),
    );

    // Burnpack round trips, with the parameter id on each tensor.
    let bytes = record.clone().into_bytes().unwrap();
    let reader = burn_pack::Reader::from_bytes(bytes.clone()).unwrap();
    assert_eq!(
        reader.get(&format!("{w}.moment_1")).unwrap().param_id,
        Some(w.val())
    );
    assert_eq!(OptimizerRecord::from_bytes(bytes).unwrap(), record);

    let dir = temp_dir("keys");
    record.clone().save(dir.join("adam")).unwrap();
    assert!(dir.join("adam.bpk").exists());
    assert_eq!(OptimizerRecord::load(dir.join("adam")).unwrap(), record);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn only_parameters_with_state_are_recorded_each_with_its_rank() {
    // Plain SGD keeps no state; SGD with momentum keeps one tensor and
    // records the parameter's rank beside it.
    let device = device();
    let param = Param::from_tensor(Tensor::<3>::ones([1, 2, 2], &device));
    let mut grads = GradientsParams::new();
    grads.register(param.id, Tensor::<3>::ones([1, 2, 2], &device));
    let mut plain = SgdConfig::new().init();
    let param = plain.step(0.1, param, grads);
    assert!(plain.to_record().tensors.is_empty() && plain.to_record().scalars.is_empty());

    let mut grads = GradientsParams::new();
    grads.register(param.id, Tensor::<3>::ones([1, 2, 2], &device));
    let mut momentum = SgdConfig::new().with_momentum(momentum(0.9)).init();
    let _ = momentum.step(0.1, param.clone(), grads);
    let record = momentum.to_record();
    assert_eq!(
        record.scalars[&format!("{}.__rank", param.id)],
        Scalar::UInt(3)
    );
}

#[test]
fn a_loaded_state_continues_like_the_original() {
    let device = device();
    let param = Param::from_tensor(Tensor::<1>::from_data([1.0, -1.0], &device));
    let id = param.id;
    let grads = || {
        let mut grads = GradientsParams::new();
        grads.register(id, Tensor::<1>::from_data([0.5, 2.0], &device));
        grads
    };
    let mut original = SgdConfig::new().with_momentum(momentum(0.9)).init();
    let param = original.step(0.1, param, grads());
    let record = OptimizerRecord::from_bytes(original.to_record().into_bytes().unwrap()).unwrap();

    let mut loaded = SgdConfig::new()
        .with_momentum(momentum(0.9))
        .init()
        .load_record(record);
    assert!(loaded.has_state(id));
    let a = original.step(0.1, param.clone(), grads());
    let b = loaded.step(0.1, param, grads());
    assert_eq!(values(a.val()), values(b.val()));
    // With momentum the second step differs from a fresh optimizer's.
    let fresh = SgdConfig::new()
        .with_momentum(momentum(0.9))
        .init()
        .step(0.1, b.clone(), grads());
    assert_ne!(
        values(fresh.val()),
        values(loaded.step(0.1, b, grads()).val())
    );
}

#[test]
#[should_panic(expected = "rank 2")]
fn a_state_of_another_rank_is_refused() {
    let device = device();
    let matrix = Param::from_tensor(Tensor::<2>::ones([2, 1], &device));
    let mut grads = GradientsParams::new();
    grads.register(matrix.id, Tensor::<2>::ones([2, 1], &device));
    let mut optimizer = SgdConfig::new().with_momentum(momentum(0.9)).init();
    let matrix = optimizer.step(0.1, matrix, grads);
    let record = optimizer.to_record();

    // The same id on a vector: the record says rank 2.
    let vector = Param::initialized(matrix.id, Tensor::<1>::ones([2], &device));
    let mut grads = GradientsParams::new();
    grads.register(vector.id, Tensor::<1>::ones([2], &device));
    let mut loaded = SgdConfig::new()
        .with_momentum(momentum(0.9))
        .init()
        .load_record(record);
    let _ = loaded.step(0.1, vector, grads);
}

#[test]
fn bad_keys_are_reported() {
    let mut record = OptimizerRecord::default();
    record
        .scalars
        .insert("not-an-id.time".into(), Scalar::UInt(1));
    let err = SgdConfig::new().init().try_load_record(record).unwrap_err();
    assert!(err.to_string().contains("not-an-id.time"), "{err}");

    let mut record = OptimizerRecord::default();
    record
        .scalars
        .insert("00000000000000ab.time".into(), Scalar::UInt(1));
    let err = SgdConfig::new().init().try_load_record(record).unwrap_err();
    assert!(err.to_string().contains("__rank"), "{err}");
}

#[test]
fn scheduler_records_nest_children_and_round_trip() {
    let mut lr = scheduler();
    for _ in 0..5 {
        lr.step();
    }
    let record = lr.to_record();
    // The sequence's own counter, the warm-up's, and the composed
    // schedule's cosine child under "1.0.".
    assert_eq!(record.get("step").unwrap().to_u64(), 5);
    assert_eq!(record.get("0.step").unwrap().to_u64(), 3);
    assert_eq!(record.get("1.0.step").unwrap().to_u64(), 2);
    assert_eq!(record.record(1).record(0).get("step").unwrap().to_u64(), 2);

    let bytes = record.clone().into_bytes().unwrap();
    assert_eq!(LrSchedulerRecord::from_bytes(bytes).unwrap(), record);
    let dir = temp_dir("sched");
    record.clone().save(dir.join("lr")).unwrap();
    assert_eq!(LrSchedulerRecord::load(dir.join("lr.bpk")).unwrap(), record);
    std::fs::remove_dir_all(dir).unwrap();

    let mut resumed = scheduler().load_record(record);
    for _ in 0..4 {
        assert_eq!(resumed.step().to_bits(), lr.step().to_bits());
    }
}

#[test]
fn every_optimizer_state_survives_a_record_round_trip() {
    use burn_optim::{AdaGradConfig, AdanConfig, LionConfig, MuonConfig, RmsPropConfig};
    type Make = fn() -> ModuleOptimizer;
    let optimizers: Vec<(&str, Make)> = vec![
        ("sgd", || {
            SgdConfig::new()
                .with_momentum(Some(
                    burn_optim::momentum::MomentumConfig::new()
                        .with_dampening(0.0)
                        .with_nesterov(true),
                ))
                .init()
        }),
        ("adam", || AdamConfig::new().init()),
        ("adamw", || AdamWConfig::new().init()),
        ("adagrad", || AdaGradConfig::new().with_lr_decay(0.1).init()),
        ("rmsprop", || {
            RmsPropConfig::new()
                .with_centered(true)
                .with_momentum(0.5)
                .init()
        }),
        ("rmsprop-plain", || RmsPropConfig::new().init()),
        ("lion", || LionConfig::new().init()),
        ("adan", || AdanConfig::new().init()),
        ("muon", || MuonConfig::new().init()),
    ];
    let device = device();
    for (name, make) in optimizers {
        let param = Param::from_tensor(Tensor::<2>::from_data([[1.0, -1.0], [0.5, 2.0]], &device));
        let id = param.id;
        let grads = |k: f32| {
            let mut grads = GradientsParams::new();
            grads.register(
                id,
                Tensor::<2>::from_data([[0.5 * k, 2.0 * k], [-k, 0.25 * k]], &device),
            );
            grads
        };
        let mut original = make();
        let param = original.step(0.1, param, grads(1.0));
        let param = original.step(0.1, param, grads(-2.0));
        let bytes = original.to_record().into_bytes().unwrap();
        let mut loaded = make().load_record(OptimizerRecord::from_bytes(bytes).unwrap());
        let a = original.step(0.1, param.clone(), grads(0.05));
        let b = loaded.step(0.1, param.clone(), grads(0.05));
        let c = make().step(0.1, param, grads(0.05));
        let bits = |t: Tensor<2>| values(t).into_iter().map(f32::to_bits).collect::<Vec<_>>();
        assert_eq!(bits(a.val()), bits(b.val()), "{name}: loaded state differs");
        assert_ne!(
            bits(a.val()),
            bits(c.val()),
            "{name}: the state has no effect"
        );
    }
}
