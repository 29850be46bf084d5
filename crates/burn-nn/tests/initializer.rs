//! Initializers: values, bounds and moments worked out by hand from each
//! scheme's formula, orthogonality, laziness, and reproducibility from the
//! device seed.

mod common;

use std::sync::Mutex;

use burn_core::config::Config;
use burn_core::tensor::Tensor;
use burn_nn::Initializer;
use common::*;

/// The device generator is global to the process: tests that draw take
/// this lock so their draws do not interleave.
static RNG: Mutex<()> = Mutex::new(());

fn draw(
    init: &Initializer,
    shape: [usize; 2],
    fan_in: Option<usize>,
    fan_out: Option<usize>,
) -> Vec<f32> {
    values(
        init.init_with::<2, _>(shape, fan_in, fan_out, &device())
            .val(),
    )
}

fn mean_std(v: &[f32]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().map(|&x| x as f64).sum::<f64>() / n;
    let var = v.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt())
}

#[test]
fn constant_schemes_fill_exactly() {
    assert_eq!(draw(&Initializer::Zeros, [2, 3], None, None), [0.0; 6]);
    assert_eq!(draw(&Initializer::Ones, [2, 3], None, None), [1.0; 6]);
    let constant = Initializer::Constant { value: -2.5 };
    assert_eq!(draw(&constant, [3, 1], None, None), [-2.5; 3]);
}

#[test]
fn uniform_and_normal_have_their_moments() {
    let _rng = RNG.lock().unwrap_or_else(|e| e.into_inner());
    let v = draw(
        &Initializer::Uniform {
            min: -1.0,
            max: 3.0,
        },
        [200, 100],
        None,
        None,
    );
    assert!(v.iter().all(|&x| (-1.0..3.0).contains(&x)));
    // Uniform on [-1, 3): mean 1, std 4/√12 ≈ 1.1547.
    let (mean, std) = mean_std(&v);
    assert!(
        (mean - 1.0).abs() < 0.03 && (std - 1.1547).abs() < 0.03,
        "{mean} {std}"
    );

    let v = draw(
        &Initializer::Normal {
            mean: 2.0,
            std: 0.5,
        },
        [200, 100],
        None,
        None,
    );
    let (mean, std) = mean_std(&v);
    assert!(
        (mean - 2.0).abs() < 0.02 && (std - 0.5).abs() < 0.02,
        "{mean} {std}"
    );
}

#[test]
fn kaiming_uses_the_fan_in_or_out() {
    let _rng = RNG.lock().unwrap_or_else(|e| e.into_inner());
    // Uniform bound gain·√(3/fan): fan_in 48, gain 2 → 0.5.
    let uniform = Initializer::KaimingUniform {
        gain: 2.0,
        fan_out_only: false,
    };
    let v = draw(&uniform, [48, 300], Some(48), Some(300));
    let max = v.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    assert!(max <= 0.5 && max > 0.49, "max |w| {max}");
    // fan_out_only: fan 300 → bound 2·√(3/300) = 0.2.
    let uniform = Initializer::KaimingUniform {
        gain: 2.0,
        fan_out_only: true,
    };
    let v = draw(&uniform, [48, 300], Some(48), Some(300));
    let max = v.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    assert!(max <= 0.2 && max > 0.195, "max |w| {max}");
    // Normal std gain/√fan: √2/√50 = 0.2.
    let normal = Initializer::KaimingNormal {
        gain: 2f64.sqrt(),
        fan_out_only: false,
    };
    let (mean, std) = mean_std(&draw(&normal, [50, 400], Some(50), Some(400)));
    assert!(
        mean.abs() < 0.01 && (std - 0.2).abs() < 0.01,
        "{mean} {std}"
    );
}

#[test]
fn xavier_uses_both_fans() {
    let _rng = RNG.lock().unwrap_or_else(|e| e.into_inner());
    // Uniform bound gain·√(6/(fan_in + fan_out)): √(6/600) = 0.1.
    let v = draw(
        &Initializer::XavierUniform { gain: 1.0 },
        [200, 400],
        Some(200),
        Some(400),
    );
    let max = v.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    assert!(max <= 0.1 && max > 0.099, "max |w| {max}");
    // Normal std gain·√(2/(fan_in + fan_out)): 3·√(2/800) = 0.15.
    let v = draw(
        &Initializer::XavierNormal { gain: 3.0 },
        [200, 600],
        Some(200),
        Some(600),
    );
    let (mean, std) = mean_std(&v);
    assert!(
        mean.abs() < 0.01 && (std - 0.15).abs() < 0.005,
        "{mean} {std}"
    );
}

#[test]
#[should_panic(expected = "needs fan_in")]
fn kaiming_without_a_fan_panics_on_first_read() {
    let init = Initializer::KaimingNormal {
        gain: 1.0,
        fan_out_only: false,
    };
    let param = init.init::<2, _>([2, 2], &device());
    param.val();
}

#[test]
fn orthogonal_rows_or_columns_are_orthonormal() {
    let _rng = RNG.lock().unwrap_or_else(|e| e.into_inner());
    for (rows, cols) in [(6, 4), (4, 6), (5, 5)] {
        let gain = 1.5;
        let w: Tensor<2> = Initializer::Orthogonal { gain }
            .init([rows, cols], &device())
            .val();
        // WᵀW = gain²·I for tall matrices, WWᵀ = gain²·I for wide ones.
        let gram = if rows >= cols {
            w.clone().transpose().matmul(w)
        } else {
            w.clone().matmul(w.transpose())
        };
        let k = rows.min(cols);
        let expected: Vec<f32> = (0..k * k)
            .map(|i| {
                if i / k == i % k {
                    (gain * gain) as f32
                } else {
                    0.0
                }
            })
            .collect();
        assert_close(gram, &expected, &format!("gram of {rows}x{cols}"));
    }
    // Rank 3 is read as [dims[0], the rest]: [2, 3, 2] → 2 × 6 rows orthonormal.
    let w: Tensor<3> = Initializer::Orthogonal { gain: 1.0 }
        .init([2, 3, 2], &device())
        .val();
    let w = w.reshape([2, 6]);
    assert_close(
        w.clone().matmul(w.transpose()),
        &[1.0, 0.0, 0.0, 1.0],
        "rank 3",
    );
}

#[test]
fn every_scheme_is_reproducible_from_the_seed_and_lazy() {
    let _rng = RNG.lock().unwrap_or_else(|e| e.into_inner());
    let schemes = [
        Initializer::Uniform { min: 0.0, max: 1.0 },
        Initializer::Normal {
            mean: 0.0,
            std: 1.0,
        },
        Initializer::KaimingUniform {
            gain: 1.0,
            fan_out_only: false,
        },
        Initializer::KaimingNormal {
            gain: 1.0,
            fan_out_only: true,
        },
        Initializer::XavierUniform { gain: 1.0 },
        Initializer::XavierNormal { gain: 1.0 },
        Initializer::Orthogonal { gain: 1.0 },
    ];
    let device = device();
    for scheme in &schemes {
        let sample = |seed: u64| {
            device.seed(seed);
            let param = scheme.init_with::<2, _>([4, 5], Some(4), Some(5), &device);
            assert!(!param.is_initialized());
            // Nothing was drawn yet: the generator is read at the first use.
            values(param.val())
        };
        let first = sample(42);
        assert_eq!(first, sample(42), "{scheme:?}");
        assert_ne!(first, sample(43), "{scheme:?}");
    }
}

#[test]
fn initializer_survives_json() {
    let init = Initializer::KaimingUniform {
        gain: 0.5,
        fan_out_only: true,
    };
    assert_eq!(Initializer::from_json(&init.to_json()).unwrap(), init);
}
