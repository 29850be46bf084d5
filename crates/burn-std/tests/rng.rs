use burn_std::{Distribution, Rng};

fn moments(distribution: Distribution, seed: u64) -> (f64, f64) {
    let mut rng = Rng::seed_from_u64(seed);
    let n = 100_000;
    let samples: Vec<f64> = (0..n).map(|_| distribution.sample_f64(&mut rng)).collect();
    let mean = samples.iter().sum::<f64>() / n as f64;
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
    (mean, var)
}

#[test]
fn same_seed_same_stream() {
    let mut a = Rng::seed_from_u64(42);
    let mut b = Rng::seed_from_u64(42);
    let mut c = Rng::seed_from_u64(43);
    let xs: Vec<u64> = (0..100).map(|_| a.next_u64()).collect();
    let ys: Vec<u64> = (0..100).map(|_| b.next_u64()).collect();
    let zs: Vec<u64> = (0..100).map(|_| c.next_u64()).collect();
    assert_eq!(xs, ys);
    assert_ne!(xs, zs);
}

#[test]
fn known_answer_pins_the_algorithm() {
    // Reference values of xoshiro256++ from the state [1, 2, 3, 4]; any
    // change here breaks reproducibility of saved experiments.
    let mut rng = Rng::from_state([1, 2, 3, 4]);
    let out: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
    assert_eq!(out, vec![41943041, 58720359, 3588806011781223]);
}

#[test]
fn state_resume_is_bit_identical() {
    let mut rng = Rng::seed_from_u64(7);
    for _ in 0..13 {
        rng.next_u64();
    }
    let saved = rng.state();
    let json = serde_json::to_string(&rng).unwrap();
    let expected: Vec<f64> = (0..50)
        .map(|_| Distribution::Normal(1.0, 2.0).sample_f64(&mut rng))
        .collect();
    let mut resumed = Rng::from_state(saved);
    let mut from_json: Rng = serde_json::from_str(&json).unwrap();
    for &value in &expected {
        assert_eq!(
            Distribution::Normal(1.0, 2.0)
                .sample_f64(&mut resumed)
                .to_bits(),
            value.to_bits()
        );
        assert_eq!(
            Distribution::Normal(1.0, 2.0)
                .sample_f64(&mut from_json)
                .to_bits(),
            value.to_bits()
        );
    }
    assert_eq!(resumed, rng);
}

#[test]
fn zero_state_is_replaced() {
    let mut rng = Rng::from_state([0; 4]);
    assert_ne!(rng.state(), [0; 4]);
    assert_ne!(rng.next_u64(), 0);
}

#[test]
fn unit_floats_in_range() {
    let mut rng = Rng::seed_from_u64(1);
    for _ in 0..10_000 {
        let x = rng.next_f64();
        assert!((0.0..1.0).contains(&x));
    }
}

#[test]
fn distribution_moments() {
    let (mean, var) = moments(Distribution::Default, 1);
    assert!(
        (mean - 0.5).abs() < 0.01 && (var - 1.0 / 12.0).abs() < 0.005,
        "{mean} {var}"
    );

    let (mean, var) = moments(Distribution::Uniform(-2.0, 4.0), 2);
    assert!(
        (mean - 1.0).abs() < 0.05 && (var - 3.0).abs() < 0.1,
        "{mean} {var}"
    );

    let (mean, var) = moments(Distribution::Normal(3.0, 2.0), 3);
    assert!(
        (mean - 3.0).abs() < 0.05 && (var - 4.0).abs() < 0.15,
        "{mean} {var}"
    );

    let (mean, var) = moments(Distribution::Bernoulli(0.3), 4);
    assert!(
        (mean - 0.3).abs() < 0.01 && (var - 0.21).abs() < 0.01,
        "{mean} {var}"
    );
}

#[test]
fn normal_samples_are_finite_and_symmetric() {
    let mut rng = Rng::seed_from_u64(9);
    let samples: Vec<f64> = (0..100_000)
        .map(|_| Distribution::Normal(0.0, 1.0).sample_f64(&mut rng))
        .collect();
    assert!(samples.iter().all(|x| x.is_finite()));
    let within_one = samples.iter().filter(|x| x.abs() < 1.0).count() as f64 / 1e5;
    assert!((within_one - 0.6827).abs() < 0.01, "{within_one}");
}

#[test]
fn sample_converts_and_serde() {
    let mut rng = Rng::seed_from_u64(5);
    let v: u8 = Distribution::Uniform(10.0, 20.0).sample(&mut rng);
    assert!((10..20).contains(&v));
    assert_eq!(Distribution::default(), Distribution::Default);
    let json = serde_json::to_string(&Distribution::Normal(0.0, 1.0)).unwrap();
    assert_eq!(json, "{\"Normal\":[0.0,1.0]}");
}
