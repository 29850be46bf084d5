//! Creation: full, arange and random sampling.
//!
//! Random tests share the backend's global stream counter, and tests in one
//! binary run on parallel threads, so every test that draws random numbers
//! holds `RNG_LOCK` for its whole body.

use std::sync::{Mutex, MutexGuard};

use burn_backend::kernels::CreationKernels;
use burn_backend::{Backend, BoolTensorOps, FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_flex::{Flex, FlexDevice, FlexTensor};
use burn_std::{DType, Distribution, Scalar, Shape, TensorData};

const DEV: FlexDevice = FlexDevice;
const BOOL: DType = DType::Bool(burn_std::BoolStore::Native);
const FLOAT_DTYPES: [DType; 4] = [DType::F64, DType::F32, DType::F16, DType::BF16];
const INT_DTYPES: [DType; 8] = [
    DType::I64,
    DType::I32,
    DType::I16,
    DType::I8,
    DType::U64,
    DType::U32,
    DType::U16,
    DType::U8,
];

static RNG_LOCK: Mutex<()> = Mutex::new(());

fn rng_lock() -> MutexGuard<'static, ()> {
    // A failed test poisons the lock; the others should still run.
    RNG_LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn as_f64(t: FlexTensor) -> Vec<f64> {
    t.into_data().iter::<f64>().collect()
}

fn mean_std(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}

// ------------------------------------------------------------------- full

#[test]
fn full_every_dtype() {
    for dtype in DType::ALL {
        let t = Flex::full(Shape::new([2, 3]), Scalar::Float(3.0), &DEV, dtype);
        assert_eq!(t.dtype(), dtype);
        assert_eq!(t.shape(), Shape::new([2, 3]));
        let expected = TensorData::new(vec![3.0f64; 6], [2, 3]).convert_dtype(dtype);
        t.into_data().assert_eq(&expected, true);
    }
}

#[test]
fn full_converts_the_scalar_like_element_conversion() {
    let read =
        |value: Scalar, dtype: DType| as_f64(Flex::full(Shape::new([1]), value, &DEV, dtype))[0];
    assert_eq!(read(Scalar::Float(2.7), DType::I32), 2.0); // truncation
    assert_eq!(read(Scalar::Float(-2.7), DType::I8), -2.0);
    assert_eq!(read(Scalar::Int(-5), DType::U8), 0.0); // saturation
    assert_eq!(read(Scalar::Int(300), DType::U8), 255.0);
    assert_eq!(read(Scalar::UInt(u64::MAX), DType::I16), i16::MAX as f64);
    assert_eq!(read(Scalar::Float(f64::NAN), DType::I64), 0.0);
    assert_eq!(read(Scalar::Bool(true), DType::F16), 1.0);
    assert_eq!(
        read(Scalar::Float(0.1), DType::F16),
        half::f16::from_f64(0.1).to_f64()
    );
    assert_eq!(read(Scalar::Float(1e10), DType::F16), f64::INFINITY);
    assert_eq!(read(Scalar::Float(0.0), BOOL), 0.0);
    assert_eq!(read(Scalar::Float(-0.5), BOOL), 1.0);
    assert_eq!(read(Scalar::Int(0), BOOL), 0.0);
}

#[test]
fn full_through_backend_methods() {
    Flex::float_zeros(Shape::new([2, 2]), &DEV, DType::F32)
        .into_data()
        .assert_eq(&TensorData::from([[0.0f32; 2]; 2]), true);
    Flex::int_ones(Shape::new([3]), &DEV, DType::U16)
        .into_data()
        .assert_eq(&TensorData::from([1u16; 3]), true);
    Flex::bool_full(Shape::new([2]), true, &DEV)
        .into_data()
        .assert_eq(&TensorData::from([true, true]), true);
    Flex::float_full(Shape::new([1, 1]), Scalar::Int(-7), &DEV, DType::BF16)
        .into_data()
        .assert_eq(&TensorData::from([[half::bf16::from_f32(-7.0)]]), true);
}

#[test]
fn full_large_and_empty() {
    let n = 100_003;
    let t = Flex::full(Shape::new([n]), Scalar::Float(-1.5), &DEV, DType::F64);
    assert!(
        t.into_data()
            .to_vec::<f64>()
            .unwrap()
            .iter()
            .all(|&v| v == -1.5)
    );
    let t = Flex::full(Shape::new([n]), Scalar::Int(0), &DEV, DType::I32);
    assert!(
        t.into_data()
            .to_vec::<i32>()
            .unwrap()
            .iter()
            .all(|&v| v == 0)
    );
    let t = Flex::full(Shape::new([4, 0]), Scalar::Float(1.0), &DEV, DType::F32);
    assert_eq!(t.shape(), Shape::new([4, 0]));
    assert_eq!(t.into_data().num_elements(), 0);
}

// ----------------------------------------------------------------- arange

#[test]
fn arange_every_int_dtype() {
    for dtype in INT_DTYPES {
        let t = Flex::int_arange(2..7, &DEV, dtype);
        assert_eq!(t.dtype(), dtype);
        t.into_data().assert_eq(
            &TensorData::from([2i64, 3, 4, 5, 6]).convert_dtype(dtype),
            true,
        );
        if dtype.is_signed() {
            let t = Flex::int_arange(-3..1, &DEV, dtype);
            assert_eq!(as_f64(t), vec![-3.0, -2.0, -1.0, 0.0], "{dtype}");
        }
    }
}

#[test]
fn arange_every_float_dtype() {
    for dtype in FLOAT_DTYPES {
        let t = Flex::arange(-2..3, &DEV, dtype);
        assert_eq!(t.dtype(), dtype);
        assert_eq!(as_f64(t), vec![-2.0, -1.0, 0.0, 1.0, 2.0], "{dtype}");
        let t = Flex::float_arange(0..4, &DEV, dtype);
        assert_eq!(as_f64(t), vec![0.0, 1.0, 2.0, 3.0], "{dtype}");
    }
    // Beyond 2048, f16 rounds to even: 2049 -> 2048, 2051 -> 2052.
    let t = Flex::arange(2048..2052, &DEV, DType::F16);
    assert_eq!(as_f64(t), vec![2048.0, 2048.0, 2050.0, 2052.0]);
}

#[test]
#[allow(clippy::reversed_empty_ranges)] // an inverted range is one of the cases
fn arange_edge_ranges() {
    assert_eq!(
        Flex::int_arange(5..5, &DEV, DType::I64).shape(),
        Shape::new([0])
    );
    assert_eq!(
        Flex::int_arange(5..3, &DEV, DType::I64).shape(),
        Shape::new([0])
    );
    // The full extent of a small dtype.
    let t = Flex::int_arange(-128..128, &DEV, DType::I8)
        .into_data()
        .to_vec::<i8>()
        .unwrap();
    assert_eq!((t[0], t[255], t.len()), (-128, 127, 256));
    let t = Flex::int_arange(i64::MAX - 2..i64::MAX, &DEV, DType::I64).into_data();
    t.assert_eq(&TensorData::from([i64::MAX - 2, i64::MAX - 1]), true);
    let t = Flex::int_arange_step(1..10, 4, &DEV, DType::I32).into_data();
    t.assert_eq(&TensorData::from([1i32, 5, 9]), true);
}

#[test]
fn arange_large_is_consecutive() {
    let n = 100_000;
    let values = Flex::int_arange(-10..n - 10, &DEV, DType::I64)
        .into_data()
        .to_vec::<i64>()
        .unwrap();
    assert_eq!(values.len(), n as usize);
    assert!(values.iter().enumerate().all(|(k, &v)| v == k as i64 - 10));
    let values = Flex::arange(0..n, &DEV, DType::F32)
        .into_data()
        .to_vec::<f32>()
        .unwrap();
    assert!(values.iter().enumerate().all(|(k, &v)| v == k as f32));
}

#[test]
#[should_panic(expected = "arange: range 0..300 does not fit in u8")]
fn arange_out_of_dtype_range_panics() {
    Flex::int_arange(0..300, &DEV, DType::U8);
}

#[test]
#[should_panic(expected = "arange: range -1..3 does not fit in u32")]
fn arange_negative_unsigned_panics() {
    Flex::int_arange(-1..3, &DEV, DType::U32);
}

#[test]
#[should_panic(expected = "arange: expected an integer dtype, got bool")]
fn arange_bool_panics() {
    Flex::arange(0..3, &DEV, BOOL);
}

// ----------------------------------------------------------------- random

#[test]
fn random_same_seed_same_values() {
    let _guard = rng_lock();
    let shape = Shape::new([50_000]); // several chunks, parallel
    let draw = |seed: u64| {
        Flex::seed(&DEV, seed);
        let a = Flex::float_random(
            shape.clone(),
            Distribution::Normal(0.0, 1.0),
            &DEV,
            DType::F32,
        );
        let b = Flex::int_random(
            shape.clone(),
            Distribution::Uniform(0.0, 100.0),
            &DEV,
            DType::I32,
        );
        (a.into_data(), b.into_data())
    };
    let (a1, b1) = draw(42);
    let (a2, b2) = draw(42);
    a1.assert_eq(&a2, true);
    b1.assert_eq(&b2, true);
    let (a3, _) = draw(43);
    assert_ne!(a1.to_vec::<f32>().unwrap(), a3.to_vec::<f32>().unwrap());
    // Two draws in a row differ, and so do the chunks within one draw.
    assert_ne!(
        a1.to_vec::<f32>().unwrap(),
        b1.convert::<f32>().to_vec::<f32>().unwrap()
    );
    let v = a1.to_vec::<f32>().unwrap();
    assert_ne!(v[..8192], v[8192..16384]);
}

#[test]
fn random_default_is_unit_interval_every_float_dtype() {
    let _guard = rng_lock();
    for dtype in FLOAT_DTYPES {
        let values = as_f64(Flex::float_random(
            Shape::new([100_000]),
            Distribution::Default,
            &DEV,
            dtype,
        ));
        // bf16 has 8 bits: about 0.2% of raw samples would round up to 1.0.
        assert!(
            values.iter().all(|&v| (0.0..1.0).contains(&v)),
            "{dtype}: value outside [0, 1)"
        );
        let (mean, std) = mean_std(&values);
        assert!((mean - 0.5).abs() < 0.01, "{dtype}: mean {mean}");
        assert!(
            (std - (1.0f64 / 12.0).sqrt()).abs() < 0.01,
            "{dtype}: std {std}"
        );
    }
}

#[test]
fn random_uniform_bounds_and_moments() {
    let _guard = rng_lock();
    let values = as_f64(Flex::float_random(
        Shape::new([400, 250]),
        Distribution::Uniform(-2.0, 3.0),
        &DEV,
        DType::F32,
    ));
    assert!(values.iter().all(|&v| (-2.0..3.0).contains(&v)));
    let (mean, std) = mean_std(&values);
    assert!((mean - 0.5).abs() < 0.03, "mean {mean}");
    assert!((std - 5.0 / 12f64.sqrt()).abs() < 0.03, "std {std}");
    // Each fifth of the interval gets about a fifth of the samples.
    for k in 0..5 {
        let lo = -2.0 + k as f64;
        let frac = values.iter().filter(|&&v| v >= lo && v < lo + 1.0).count() as f64
            / values.len() as f64;
        assert!((frac - 0.2).abs() < 0.01, "bin {k}: {frac}");
    }
    // A narrow interval in bf16 still stays half-open.
    let values = as_f64(Flex::float_random(
        Shape::new([10_000]),
        Distribution::Uniform(1.0, 1.01),
        &DEV,
        DType::BF16,
    ));
    assert!(values.iter().all(|&v| (1.0..1.01).contains(&v)));
}

#[test]
fn random_normal_moments() {
    let _guard = rng_lock();
    for dtype in [DType::F64, DType::F32, DType::BF16] {
        let values = as_f64(Flex::float_random(
            Shape::new([100_000]),
            Distribution::Normal(2.0, 3.0),
            &DEV,
            dtype,
        ));
        let (mean, std) = mean_std(&values);
        assert!((mean - 2.0).abs() < 0.05, "{dtype}: mean {mean}");
        assert!((std - 3.0).abs() < 0.05, "{dtype}: std {std}");
        // About 68.3% within one standard deviation.
        let within = values.iter().filter(|&&v| (v - 2.0).abs() < 3.0).count() as f64 / 1e5;
        assert!(
            (within - 0.6827).abs() < 0.01,
            "{dtype}: {within} within 1 std"
        );
    }
}

#[test]
fn random_bernoulli_frequency() {
    let _guard = rng_lock();
    for dtype in [DType::F32, DType::I64, DType::U8] {
        let values = as_f64(Flex::random(
            Shape::new([100_000]),
            Distribution::Bernoulli(0.3),
            &DEV,
            dtype,
        ));
        assert!(values.iter().all(|&v| v == 0.0 || v == 1.0), "{dtype}");
        let freq = values.iter().sum::<f64>() / 1e5;
        assert!((freq - 0.3).abs() < 0.01, "{dtype}: frequency {freq}");
    }
    let values = Flex::random(
        Shape::new([100_000]),
        Distribution::Bernoulli(0.75),
        &DEV,
        BOOL,
    )
    .into_data();
    assert_eq!(values.dtype, BOOL);
    let freq = values.iter::<bool>().filter(|&b| b).count() as f64 / 1e5;
    assert!((freq - 0.75).abs() < 0.01, "bool frequency {freq}");
    let ones = as_f64(Flex::random(
        Shape::new([1000]),
        Distribution::Bernoulli(1.0),
        &DEV,
        DType::F32,
    ));
    assert!(ones.iter().all(|&v| v == 1.0));
}

#[test]
fn random_int_truncates_toward_zero() {
    let _guard = rng_lock();
    let values = as_f64(Flex::int_random(
        Shape::new([100_000]),
        Distribution::Uniform(0.0, 10.0),
        &DEV,
        DType::I32,
    ));
    assert!(
        values
            .iter()
            .all(|&v| (0.0..10.0).contains(&v) && v.fract() == 0.0)
    );
    for k in 0..10 {
        let frac = values.iter().filter(|&&v| v == k as f64).count() as f64 / 1e5;
        assert!((frac - 0.1).abs() < 0.01, "value {k}: {frac}");
    }
    // (-1, 1) truncates to 0 except exactly -1 (never drawn in practice).
    let values = as_f64(Flex::int_random(
        Shape::new([1000]),
        Distribution::Uniform(-1.0, 1.0),
        &DEV,
        DType::I8,
    ));
    assert!(values.iter().all(|&v| v == 0.0));
    // Saturation into u8: Normal(1000, 1) is all 255.
    let values = as_f64(Flex::int_random(
        Shape::new([100]),
        Distribution::Normal(1000.0, 1.0),
        &DEV,
        DType::U8,
    ));
    assert!(values.iter().all(|&v| v == 255.0));
}

#[test]
fn random_every_int_dtype_and_empty() {
    let _guard = rng_lock();
    for dtype in INT_DTYPES {
        let t = Flex::int_random(
            Shape::new([3, 4]),
            Distribution::Uniform(0.0, 5.0),
            &DEV,
            dtype,
        );
        assert_eq!(t.dtype(), dtype);
        assert!(
            as_f64(t).iter().all(|&v| (0.0..5.0).contains(&v)),
            "{dtype}"
        );
    }
    let t = Flex::float_random(Shape::new([0, 5]), Distribution::Default, &DEV, DType::F32);
    assert_eq!(t.shape(), Shape::new([0, 5]));
}

#[test]
#[should_panic(expected = "random: Uniform needs low <= high, got low 3 and high 1")]
fn random_inverted_uniform_panics() {
    Flex::float_random(
        Shape::new([2]),
        Distribution::Uniform(3.0, 1.0),
        &DEV,
        DType::F32,
    );
}

#[test]
#[should_panic(expected = "random: Bernoulli probability must lie in [0, 1], got 1.5")]
fn random_bad_bernoulli_panics() {
    Flex::float_random(
        Shape::new([2]),
        Distribution::Bernoulli(1.5),
        &DEV,
        DType::F32,
    );
}
