//! Random sampling: moments of each distribution and seed determinism.
//!
//! The device's generator is shared by every test of the executable, so the
//! tests hold `SEED_LOCK` while they sample: a draw of another test between
//! a seed and its draws would break the reproducibility tests.

use std::sync::Mutex;

use crate::common::*;

static SEED_LOCK: Mutex<()> = Mutex::new(());

const N: usize = 100_000;

fn moments(tensor: Tensor<1>) -> (f64, f64, f64, f64) {
    let values: Vec<f64> = tensor.into_data().iter::<f64>().collect();
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (mean, var, min, max)
}

#[test]
fn should_sample_default_uniform_unit_interval() {
    let _guard = SEED_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tensor = Tensor::<1>::random([N], Distribution::Default, &device());

    let (mean, var, min, max) = moments(tensor);

    // Standard error of the mean: sqrt(1/12 / N) ~ 9e-4.
    assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
    assert!((var - 1.0 / 12.0).abs() < 0.005, "variance {var}");
    assert!(min >= 0.0 && max < 1.0, "range [{min}, {max}]");
}

#[test]
fn should_sample_uniform_range() {
    let _guard = SEED_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tensor = Tensor::<1>::random([N], Distribution::Uniform(-2.0, 4.0), &device());

    let (mean, var, min, max) = moments(tensor);

    assert!((mean - 1.0).abs() < 0.05, "mean {mean}");
    assert!((var - 3.0).abs() < 0.1, "variance {var}");
    assert!(min >= -2.0 && max < 4.0, "range [{min}, {max}]");
}

#[test]
fn should_sample_normal_moments() {
    let _guard = SEED_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tensor = Tensor::<1>::random([N], Distribution::Normal(3.0, 2.0), &device());

    let (mean, var, _, _) = moments(tensor);

    // Standard error of the mean: 2 / sqrt(N) ~ 6e-3.
    assert!((mean - 3.0).abs() < 0.05, "mean {mean}");
    assert!((var - 4.0).abs() < 0.15, "variance {var}");
}

#[test]
fn should_sample_bernoulli_zeros_and_ones() {
    let _guard = SEED_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tensor = Tensor::<1>::random([N], Distribution::Bernoulli(0.3), &device());

    let data = tensor.into_data();
    let values: Vec<f64> = data.iter::<f64>().collect();
    assert!(values.iter().all(|&v| v == 0.0 || v == 1.0));
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    assert!((mean - 0.3).abs() < 0.01, "mean {mean}");
}

#[test]
fn should_sample_int_tensor_in_range() {
    let _guard = SEED_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let tensor = Tensor::<1, Int>::random([N], Distribution::Uniform(0.0, 5.0), &device());

    let values: Vec<i64> = tensor.into_data().iter::<i64>().collect();
    assert!(values.iter().all(|&v| (0..5).contains(&v)));
    for k in 0..5 {
        let count = values.iter().filter(|&&v| v == k).count();
        assert!((count as f64 / N as f64 - 0.2).abs() < 0.01, "{k}: {count}");
    }
}

#[test]
fn should_reproduce_samples_with_same_seed() {
    let _guard = SEED_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let device = device();

    device.seed(42);
    let first = Tensor::<2>::random([8, 16], Distribution::Normal(0.0, 1.0), &device);
    let first_uniform = Tensor::<1>::random([32], Distribution::Default, &device);
    device.seed(42);
    let second = Tensor::<2>::random([8, 16], Distribution::Normal(0.0, 1.0), &device);
    let second_uniform = Tensor::<1>::random([32], Distribution::Default, &device);
    device.seed(43);
    let other = Tensor::<2>::random([8, 16], Distribution::Normal(0.0, 1.0), &device);

    first.to_data().assert_eq(&second.into_data(), true);
    first_uniform
        .into_data()
        .assert_eq(&second_uniform.into_data(), true);
    let same = first
        .into_data()
        .iter::<f64>()
        .zip(other.into_data().iter::<f64>())
        .filter(|(a, b)| a == b)
        .count();
    assert!(
        same < 4,
        "seeds 42 and 43 gave {same} equal samples out of 128"
    );
}

#[test]
fn should_advance_generator_between_draws() {
    let _guard = SEED_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let device = device();

    device.seed(7);
    let a = Tensor::<1>::random([64], Distribution::Default, &device);
    let b = Tensor::<1>::random([64], Distribution::Default, &device);

    let same = a
        .into_data()
        .iter::<f64>()
        .zip(b.into_data().iter::<f64>())
        .filter(|(x, y)| x == y)
        .count();
    assert!(same < 2, "two consecutive draws share {same} of 64 values");
}
