//! Learning rate schedules against PyTorch's `torch.optim.lr_scheduler`
//! (values printed by `tests/reference/lr_schedulers.py`), and against hand
//! derivations where PyTorch has no counterpart (Noam, composed).

// The reference values are pasted verbatim from the generator script.
#![allow(clippy::excessive_precision)]

use burn_optim::LrScheduler;
use burn_optim::lr_scheduler::{
    ComposedLrScheduler, ConstantLr, CosineAnnealingLrSchedulerConfig,
    ExponentialLrSchedulerConfig, LinearLrSchedulerConfig, NoamLrSchedulerConfig,
    OneCycleLrSchedulerConfig, PlateauMode, ReduceOnPlateauLrSchedulerConfig, Reduction,
    SequentialLrScheduler, StepLrSchedulerConfig,
};

// torch 2.15.0+cu132
const PLATEAU_METRICS: [f64; 12] = [1.0, 0.95, 0.96, 0.5, 0.5, 0.5, 0.5, 0.5, 0.2, 0.3, 0.3, 0.3];
const STEP: [f64; 10] = [0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025, 0.025, 0.0125];
const EXPONENTIAL: [f64; 6] = [
    0.1,
    0.09000000000000001,
    0.08100000000000002,
    0.07290000000000002,
    0.06561000000000002,
    0.05904900000000002,
];
const LINEAR: [f64; 7] = [
    0.010000000000000002,
    0.03250000000000001,
    0.055000000000000014,
    0.07750000000000003,
    0.10000000000000003,
    0.10000000000000003,
    0.10000000000000003,
];
const COSINE: [f64; 6] = [
    0.1,
    0.09140576474687263,
    0.06890576474687263,
    0.04109423525312736,
    0.018594235253127367,
    0.01,
];
const COSINE_RESTARTS: [f64; 12] = [
    0.1,
    0.07525000000000001,
    0.025750000000000012,
    0.1,
    0.09336825748732973,
    0.07525000000000001,
    0.0505,
    0.025750000000000012,
    0.007631742512670284,
    0.1,
    0.09831332840130888,
    0.09336825748732973,
];
const ONE_CYCLE: [f64; 10] = [
    0.040000000000000036,
    0.52,
    1.0,
    0.9504846320134737,
    0.8117456539497631,
    0.6112620219362893,
    0.38874197806371075,
    0.18825834605023697,
    0.049519367986526286,
    4e-06,
];
const ONE_CYCLE_CUSTOM: [f64; 12] = [
    0.04999999999999999,
    0.275,
    0.5,
    0.4849382320412806,
    0.44156959966896475,
    0.375125,
    0.2936186323723159,
    0.20688136762768417,
    0.12537500000000004,
    0.05893040033103527,
    0.015561767958719398,
    0.0005,
];
const PLATEAU: [f64; 12] = [
    1.0, 1.0, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.25, 0.125, 0.125,
];

fn check(mut scheduler: impl LrScheduler, expected: &[f64], what: &str) {
    for (i, want) in expected.iter().enumerate() {
        let got = scheduler.step();
        assert!(
            (got - want).abs() <= 1e-12 + 1e-9 * want.abs(),
            "{what}, step {i}: got {got}, expected {want}"
        );
    }
}

#[test]
fn step_matches_pytorch() {
    check(
        StepLrSchedulerConfig::new(0.1, 3, 0.5).init(),
        &STEP,
        "step",
    );
}

#[test]
fn exponential_matches_pytorch() {
    check(
        ExponentialLrSchedulerConfig::new(0.1, 0.9).init(),
        &EXPONENTIAL,
        "exponential",
    );
}

#[test]
fn linear_matches_pytorch() {
    // PyTorch's factors 0.1 → 1.0 of a base rate 0.1.
    check(
        LinearLrSchedulerConfig::new(0.01, 0.1, 4).init(),
        &LINEAR,
        "linear",
    );
}

#[test]
fn cosine_annealing_matches_pytorch() {
    let config = CosineAnnealingLrSchedulerConfig::new(0.1, 5).with_min_lr(0.01);
    check(config.init(), &COSINE, "cosine");
    // Without restarts the rate then stays at the minimum.
    let mut scheduler = config.init();
    let rates: Vec<f64> = (0..9).map(|_| scheduler.step()).collect();
    assert!(
        rates[5..].iter().all(|&lr| (lr - 0.01).abs() < 1e-15),
        "{rates:?}"
    );
}

#[test]
fn cosine_annealing_with_warm_restarts_matches_pytorch() {
    let config = CosineAnnealingLrSchedulerConfig::new(0.1, 3)
        .with_min_lr(0.001)
        .with_restarts(true)
        .with_cycle_multiplier(2);
    check(config.init(), &COSINE_RESTARTS, "cosine restarts");
}

#[test]
fn one_cycle_matches_pytorch() {
    check(
        OneCycleLrSchedulerConfig::new(1.0, 10).init(),
        &ONE_CYCLE,
        "one cycle",
    );
    let config = OneCycleLrSchedulerConfig::new(0.5, 12)
        .with_pct_start(0.25)
        .with_div_factor(10.0)
        .with_final_div_factor(100.0);
    check(config.init(), &ONE_CYCLE_CUSTOM, "one cycle, custom");
}

#[test]
fn reduce_on_plateau_matches_pytorch() {
    let mut scheduler = ReduceOnPlateauLrSchedulerConfig::new(1.0)
        .with_factor(0.5)
        .with_patience(1)
        .with_cooldown(1)
        .with_threshold(0.1)
        .init();
    for (i, (metric, want)) in PLATEAU_METRICS.iter().zip(PLATEAU).enumerate() {
        scheduler.report(*metric);
        assert_eq!(scheduler.step(), want, "report {i}");
    }
}

#[test]
fn reduce_on_plateau_in_max_mode_and_its_record() {
    let mut scheduler = ReduceOnPlateauLrSchedulerConfig::new(1.0)
        .with_mode(PlateauMode::Max)
        .with_patience(0)
        .with_min_lr(0.05)
        .init();
    scheduler.report(0.5); // best
    scheduler.report(0.6); // better
    assert_eq!(scheduler.lr(), 1.0);
    scheduler.report(0.6); // no better: patience 0 reduces at once
    assert!((scheduler.lr() - 0.1).abs() < 1e-15);
    scheduler.report(0.4);
    assert_eq!(scheduler.lr(), 0.05, "held at min_lr");

    let record = scheduler.to_record();
    let mut restored = ReduceOnPlateauLrSchedulerConfig::new(1.0)
        .with_mode(PlateauMode::Max)
        .with_patience(0)
        .init()
        .load_record(record);
    assert_eq!(restored.step(), 0.05);
}

#[test]
fn noam_by_hand() {
    // init 2, warm-up 4, d_model 16: lr(i) = 2/4 · min(s^-½, s/8), s = i + 1.
    let mut scheduler = NoamLrSchedulerConfig::new(2.0)
        .with_warmup_steps(4)
        .with_model_size(16)
        .init();
    let expected = [
        0.5 / 8.0,
        0.5 * 2.0 / 8.0,
        0.5 * 3.0 / 8.0,
        0.5 * 4.0 / 8.0, // s = w: both branches equal ½
        0.5 / 5f64.sqrt(),
        0.5 / 6f64.sqrt(),
    ];
    for (i, want) in expected.iter().enumerate() {
        let got = scheduler.step();
        assert!((got - want).abs() < 1e-15, "step {i}: {got} vs {want}");
    }
}

#[test]
fn constant_and_composed_by_hand() {
    check(ConstantLr(0.3), &[0.3, 0.3, 0.3], "constant");
    // Linear 0 → 1 over 2 steps times exponential 0.5·0.5^i; summed with 0.1.
    let product = || {
        ComposedLrScheduler::new(Reduction::Prod)
            .with(LinearLrSchedulerConfig::new(0.0, 1.0, 2).init())
            .with(ExponentialLrSchedulerConfig::new(0.5, 0.5).init())
    };
    check(product(), &[0.0, 0.125, 0.125, 0.0625], "product");
    let sum = ComposedLrScheduler::new(Reduction::Sum)
        .with(product())
        .with(0.1);
    check(sum, &[0.1, 0.225, 0.225, 0.1625], "sum");
    let avg = ComposedLrScheduler::new(Reduction::Avg)
        .with(0.2)
        .with(ConstantLr(0.4));
    check(avg, &[0.3, 0.3], "average");
}

#[test]
fn sequential_runs_children_from_their_own_start() {
    let scheduler = SequentialLrScheduler::new(LinearLrSchedulerConfig::new(0.0, 0.3, 3).init())
        .then_at(3, StepLrSchedulerConfig::new(1.0, 2, 0.1).init())
        .then_at(6, 0.01);
    check(
        scheduler,
        &[0.0, 0.1, 0.2, 1.0, 1.0, 0.1, 0.01, 0.01],
        "sequential",
    );
}

/// The config builds the same schedule as the scheduler built by hand, and
/// survives a JSON round trip (nested configs included).
#[test]
fn a_composed_config_is_the_composed_schedule() {
    use burn_core::config::Config;
    use burn_optim::lr_scheduler::composed::{ComposedLrSchedulerConfig, SchedulerReduction};

    let inner = ComposedLrSchedulerConfig::new()
        .linear(LinearLrSchedulerConfig::new(0.0, 1.0, 2))
        .exponential(ExponentialLrSchedulerConfig::new(0.5, 0.5));
    let config = ComposedLrSchedulerConfig::new()
        .with_reduction(SchedulerReduction::Sum)
        .composed(inner)
        .constant(0.1);
    let restored = ComposedLrSchedulerConfig::from_json(&config.to_json()).unwrap();
    for config in [config, restored] {
        check(
            config.init().unwrap(),
            &[0.1, 0.225, 0.225, 0.1625],
            "composed config",
        );
    }
    let error = ComposedLrSchedulerConfig::new().init().unwrap_err();
    assert!(error.contains("no schedule to compose"), "{error}");
}
