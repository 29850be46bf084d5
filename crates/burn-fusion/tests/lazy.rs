//! The lazy executor over Flex: operations wait for a read, run in order, free what they consume, and a failure surfaces only
//! on the reads that depend on it.

use burn_backend::{Backend, FloatTensorOps, IntTensorOps, Scalar, TensorData};
use burn_flex::{Flex, FlexDevice};
use burn_fusion::{Fusion, FusionClient, statistics};

type F = Fusion<Flex>;

/// The tests share the device's client: one at a time, so counts are theirs.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn floats(values: &[f32]) -> <F as burn_backend::BackendTypes>::FloatTensorPrimitive {
    F::float_from_data(
        TensorData::new(values.to_vec(), [values.len()]),
        &FlexDevice,
    )
}

#[test]
fn operations_wait_for_a_read() {
    let _serial = serial();
    let before = statistics::<Flex>(&FlexDevice);
    let x = floats(&[1.0, 2.0, 3.0]);
    let y = F::float_mul_scalar(
        F::float_add_scalar(x, Scalar::Float(1.0)),
        Scalar::Float(2.0),
    );
    let data = F::float_into_data(y).unwrap();
    assert_eq!(data.to_vec::<f32>().unwrap(), [4.0, 6.0, 8.0]);
    let after = statistics::<Flex>(&FlexDevice);
    assert!(after.flushes > before.flushes);
    let executed = |s: burn_fusion::FusionStatistics| s.single_operations + s.fused_operations;
    assert!(executed(after) >= executed(before) + 2);
}

#[test]
fn a_failure_surfaces_on_the_reads_that_depend_on_it_only() {
    let _serial = serial();
    let device = FlexDevice;
    let zero = F::int_from_data(TensorData::new(vec![0i64, 1], [2]), &device);
    let ten = F::int_from_data(TensorData::new(vec![10i64, 10], [2]), &device);
    // Integer division by zero panics in Flex; lazily, it surfaces at the read.
    let bad = F::int_div(ten.clone(), zero);
    let worse = F::int_add_scalar(bad.clone(), Scalar::Int(1));
    let fine = F::int_mul_scalar(ten, Scalar::Int(3));
    let error = F::int_into_data(worse).unwrap_err();
    assert!(error.to_string().contains("division by zero"), "{error}");
    let error = F::int_into_data(bad).unwrap_err();
    assert!(error.to_string().contains("division by zero"), "{error}");
    assert_eq!(
        F::int_into_data(fine).unwrap().to_vec::<i64>().unwrap(),
        [30, 30]
    );
}

#[test]
fn nothing_is_left_behind() {
    let _serial = serial();
    let client = FusionClient::<Flex>::of(&FlexDevice);
    let before = client.tensor_count();
    for _ in 0..3 {
        let mut x = floats(&[0.5; 64]);
        for _ in 0..200 {
            let shifted = F::float_add_scalar(x.clone(), Scalar::Float(1.0));
            x = F::float_mul(x, F::float_recip(shifted));
        }
        let _ = F::float_into_data(x).unwrap();
    }
    assert_eq!(client.tensor_count(), before);
}

#[test]
fn seeding_runs_what_was_queued_first() {
    let _serial = serial();
    let device = FlexDevice;
    F::seed(&device, 7);
    let a = F::float_random(
        burn_std::Shape::new([4]),
        burn_std::Distribution::Default,
        &device,
        burn_std::DType::F32,
    );
    F::seed(&device, 7);
    let b = F::float_random(
        burn_std::Shape::new([4]),
        burn_std::Distribution::Default,
        &device,
        burn_std::DType::F32,
    );
    // Both drew right after the same seed: the first was run before the
    // second seeding, not after it.
    assert_eq!(
        F::float_into_data(a).unwrap(),
        F::float_into_data(b).unwrap()
    );
}
