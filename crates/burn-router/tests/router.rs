//! The router's recording rules, seen through a channel that logs what it
//! forwards to an in-process Flex executor.

use std::any::Any;
use std::sync::{Arc, LazyLock, Mutex};

use burn_backend::{
    BoolTensorOps, ExecutionError, FloatTensorOps, IntTensorOps, Scalar, TensorData, TensorMetadata,
};
use burn_flex::{Flex, FlexDevice};
use burn_ir::{OperationIr, TensorId, TensorIr, TensorStatus};
use burn_router::{BackendRouter, DirectClient, RunnerChannel, RunnerClient};
use burn_std::DType;

/// A client that logs every operation, then hands it to a fresh executor.
#[derive(Debug)]
struct Logging {
    inner: Arc<DirectClient<Flex>>,
    log: Mutex<Vec<OperationIr>>,
}

impl RunnerClient for Logging {
    fn new_tensor_id(&self) -> TensorId {
        self.inner.new_tensor_id()
    }
    fn register_op(&self, op: OperationIr) {
        self.log.lock().unwrap().push(op.clone());
        self.inner.register_op(op)
    }
    fn register_tensor(&self, out: TensorIr, data: TensorData) {
        self.inner.register_tensor(out, data)
    }
    fn read_tensor(&self, tensor: TensorIr) -> Result<TensorData, ExecutionError> {
        self.inner.read_tensor(tensor)
    }
    fn sync(&self) -> Result<(), ExecutionError> {
        self.inner.sync()
    }
    fn seed(&self, seed: u64) {
        self.inner.seed(seed)
    }
    fn supports_dtype(&self, dtype: DType) -> bool {
        self.inner.supports_dtype(dtype)
    }
    fn default_float_dtype(&self) -> DType {
        self.inner.default_float_dtype()
    }
    fn default_int_dtype(&self) -> DType {
        self.inner.default_int_dtype()
    }
    fn bool_dtype(&self) -> DType {
        self.inner.bool_dtype()
    }
    fn index_dtype(&self) -> DType {
        self.inner.index_dtype()
    }
    fn device(&self) -> &dyn Any {
        self.inner.device()
    }
}

// One logging client for the whole test binary; tests lock `SERIAL` so each
// reads only its own log.
static CLIENT: LazyLock<Arc<Logging>> = LazyLock::new(|| {
    Arc::new(Logging {
        inner: DirectClient::<Flex>::of(&FlexDevice),
        log: Mutex::new(Vec::new()),
    })
});
static SERIAL: Mutex<()> = Mutex::new(());

#[derive(Clone, Copy, Default, Debug)]
struct LoggingChannel;

impl RunnerChannel for LoggingChannel {
    type Device = FlexDevice;
    fn client(_device: &FlexDevice) -> Arc<dyn RunnerClient> {
        CLIENT.clone()
    }
    fn name(_device: &FlexDevice) -> String {
        "logging".into()
    }
}

type R = BackendRouter<LoggingChannel>;

fn take_log() -> Vec<OperationIr> {
    std::mem::take(&mut *CLIENT.log.lock().unwrap())
}

fn floats(values: &[f32]) -> <R as burn_backend::BackendTypes>::FloatTensorPrimitive {
    R::float_from_data(
        TensorData::new(values.to_vec(), [values.len()]),
        &FlexDevice,
    )
}

fn read(t: <R as burn_backend::BackendTypes>::FloatTensorPrimitive) -> Vec<f32> {
    R::float_into_data(t).unwrap().to_vec().unwrap()
}

#[test]
fn the_last_use_of_a_tensor_is_read_write() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    take_log();
    let x = floats(&[1.0, 2.0, 3.0]);
    // `x` is still held: exp only reads it.
    let y = R::float_exp(x.clone());
    // The last handles of `x` and `y`: the executor may reuse either buffer.
    let z = R::float_add(x, y);
    let statuses: Vec<Vec<TensorStatus>> = take_log()
        .iter()
        .map(|op| op.tensors().inputs.iter().map(|t| t.status).collect())
        .collect();
    assert_eq!(
        statuses,
        [
            vec![TensorStatus::ReadOnly],
            vec![TensorStatus::ReadWrite, TensorStatus::ReadWrite]
        ]
    );
    let values = read(z);
    let expected: Vec<f32> = [1.0f32, 2.0, 3.0].iter().map(|v| v + v.exp()).collect();
    assert_eq!(values, expected);
}

#[test]
fn a_dropped_tensor_is_freed_and_a_consumed_one_is_not_freed_twice() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let before = CLIENT.inner.tensor_count();
    take_log();
    let x = floats(&[1.0, 2.0]);
    let y = R::float_neg(x.clone());
    drop(x);
    let log = take_log();
    // neg read x (still held), then dropping the last handle freed it.
    assert!(matches!(log[1], OperationIr::Drop(_)), "{log:?}");
    assert_eq!(CLIENT.inner.tensor_count(), before + 1);
    // Reading y consumes it: no drop follows, and nothing is left behind.
    assert_eq!(read(y), [-1.0, -2.0]);
    assert!(take_log().is_empty());
    assert_eq!(CLIENT.inner.tensor_count(), before);
}

#[test]
fn a_long_chain_leaves_nothing_behind() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let before = CLIENT.inner.tensor_count();
    for _ in 0..3 {
        let mut x = floats(&[0.5; 64]);
        for _ in 0..100 {
            let shifted = R::float_add_scalar(x.clone(), Scalar::Float(1.0));
            x = R::float_mul(x, R::float_recip(shifted));
        }
        let _ = read(x);
    }
    take_log();
    assert_eq!(CLIENT.inner.tensor_count(), before);
}

#[test]
fn argwhere_reads_the_mask_and_uploads_the_positions() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let x = R::float_from_data(
        TensorData::new(vec![0.0f32, 3.0, 0.0, 4.0, 5.0, 0.0], [2, 3]),
        &FlexDevice,
    );
    let mask = R::float_greater_elem(x, Scalar::Float(1.0));
    let positions = R::bool_argwhere(mask);
    assert_eq!(positions.shape().dims, [3, 2]);
    let data = R::int_into_data(positions).unwrap();
    assert_eq!(data.dtype, DType::I64);
    assert_eq!(data.to_vec::<i64>().unwrap(), [0, 1, 1, 0, 1, 1]);
}

#[test]
fn declared_shapes_and_dtypes_match_what_flex_produces() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // The executor checks every output against the IR; a wrong shape rule
    // on the recording side would panic here.
    let x = R::float_from_data(
        TensorData::new((0..24).map(|v| v as f32).collect(), [2, 3, 4]),
        &FlexDevice,
    );
    let (values, indices) = R::float_max_dim_with_indices(x.clone(), 2);
    assert_eq!(values.shape().dims, [2, 3, 1]);
    assert_eq!(indices.dtype(), DType::I64);
    let t = R::float_matmul(x.clone(), R::float_swap_dims(x.clone(), 1, 2));
    assert_eq!(t.shape().dims, [2, 3, 3]);
    let sum = R::int_sum(R::float_into_int(x, DType::I32));
    assert_eq!(
        R::int_into_data(sum).unwrap().to_vec::<i32>().unwrap(),
        [276]
    );
    let _ = (
        R::float_into_data(values),
        R::int_into_data(indices),
        R::float_into_data(t),
    );
}

#[test]
#[should_panic(expected = "cannot be broadcast")]
fn shape_errors_are_reported_while_recording() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let _ = R::float_add(floats(&[1.0, 2.0]), floats(&[1.0, 2.0, 3.0]));
}
