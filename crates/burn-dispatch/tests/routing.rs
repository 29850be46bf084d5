//! Routing through `Dispatch` to the Flex backend.
#![cfg(feature = "flex")]

use burn_backend::{
    ActivationOps, BoolTensorOps, DType, FloatTensorOps, IntTensorOps, Scalar, Shape, TensorData,
    TensorMetadata, TransactionOps, TransactionPrimitive,
};
use burn_dispatch::{BackendTensor, Dispatch, DispatchDevice, DispatchTensor};
use burn_flex::FlexDevice;

fn device() -> DispatchDevice {
    DispatchDevice::Flex(FlexDevice)
}

fn floats(tensor: DispatchTensor) -> Vec<f32> {
    Dispatch::float_into_data(tensor).unwrap().to_vec().unwrap()
}

fn ints(tensor: DispatchTensor) -> Vec<i64> {
    Dispatch::int_into_data(tensor).unwrap().to_vec().unwrap()
}

fn bools(tensor: DispatchTensor) -> Vec<bool> {
    Dispatch::bool_into_data(tensor).unwrap().to_vec().unwrap()
}

// A GPU runtime comes first in `DispatchDevice::default()`.
#[cfg(not(any(feature = "cuda", feature = "rocm", feature = "wgpu")))]
#[test]
fn default_device_is_flex() {
    use burn_backend::Backend;
    assert_eq!(DispatchDevice::default(), device());
    assert_eq!(device().backend_name(), "Flex");
    assert_eq!(Dispatch::name(&device()), "flex");
    assert_eq!(device().to_string(), "Flex(FlexDevice)");
}

#[test]
fn float_op_routes_to_the_backend() {
    let a = Dispatch::float_from_data(TensorData::from([1.0f32, 2.0, 3.0]), &device());
    let b = Dispatch::float_from_data(TensorData::from([10.0f32, 20.0, 30.0]), &device());
    assert!(matches!(a, DispatchTensor::Flex(BackendTensor::Float(_))));
    let sum = Dispatch::float_add(a, b);
    assert!(matches!(sum, DispatchTensor::Flex(BackendTensor::Float(_))));
    assert_eq!(sum.dtype(), DType::F32);
    assert_eq!(sum.shape(), Shape::new([3]));
    assert_eq!(floats(sum), vec![11.0, 22.0, 33.0]);
}

#[test]
fn float_composites_route_too() {
    let x = Dispatch::float_from_data(TensorData::from([[1.0f32, 2.0], [3.0, 4.0]]), &device());
    assert_eq!(floats(Dispatch::float_mean(x.clone())), vec![2.5]);
    assert_eq!(
        floats(Dispatch::float_tril(x.clone(), 0)),
        vec![1.0, 0.0, 3.0, 4.0]
    );
    let soft = floats(Dispatch::softmax(x, 1));
    assert!((soft[0] + soft[1] - 1.0).abs() < 1e-6);
}

#[test]
fn reference_and_plain_outputs() {
    let x = Dispatch::float_from_data(TensorData::from([1.0f32]), &device());
    assert_eq!(Dispatch::float_device(&x), device());
    assert!(!Dispatch::float_is_require_grad(&x));
}

#[test]
fn int_op_routes_to_the_backend() {
    let a = Dispatch::int_from_data(TensorData::from([1i64, 2, 3]), &device());
    let sum = Dispatch::int_add_scalar(a, Scalar::Int(5));
    assert!(matches!(sum, DispatchTensor::Flex(BackendTensor::Int(_))));
    assert_eq!(ints(sum), vec![6, 7, 8]);
}

#[test]
fn bool_op_and_kind_conversion() {
    let a = Dispatch::bool_from_data(TensorData::from([true, false, true]), &device());
    let b = Dispatch::bool_from_data(TensorData::from([true, true, false]), &device());
    let and = Dispatch::bool_and(a, b);
    assert!(matches!(and, DispatchTensor::Flex(BackendTensor::Bool(_))));
    assert_eq!(bools(and.clone()), vec![true, false, false]);
    let as_int = Dispatch::bool_into_int(and, DType::I64);
    assert!(matches!(
        as_int,
        DispatchTensor::Flex(BackendTensor::Int(_))
    ));
    assert_eq!(ints(as_int), vec![1, 0, 0]);
}

#[test]
fn creation_op_routes_by_device() {
    let zeros = Dispatch::float_zeros(Shape::new([2, 2]), &device(), DType::F32);
    assert!(matches!(
        zeros,
        DispatchTensor::Flex(BackendTensor::Float(_))
    ));
    assert_eq!(floats(zeros), vec![0.0; 4]);
    let range = Dispatch::int_arange(0..4, &device(), DType::I64);
    assert_eq!(ints(range), vec![0, 1, 2, 3]);
}

#[test]
fn tuple_output_wraps_each_element() {
    let x = Dispatch::float_from_data(TensorData::from([3.0f32, 1.0, 2.0]), &device());
    let (values, indices) = Dispatch::float_sort_with_indices(x, 0, false);
    assert!(matches!(
        values,
        DispatchTensor::Flex(BackendTensor::Float(_))
    ));
    assert!(matches!(
        indices,
        DispatchTensor::Flex(BackendTensor::Int(_))
    ));
    assert_eq!(floats(values), vec![1.0, 2.0, 3.0]);
    assert_eq!(ints(indices), vec![1, 2, 0]);
}

#[test]
fn tuple_output_of_a_composite() {
    let x = Dispatch::float_from_data(TensorData::from([[3.0f32, 1.0, 5.0]]), &device());
    let (values, indices) = Dispatch::float_max_dim_with_indices(x, 1);
    assert!(matches!(
        values,
        DispatchTensor::Flex(BackendTensor::Float(_))
    ));
    assert!(matches!(
        indices,
        DispatchTensor::Flex(BackendTensor::Int(_))
    ));
    assert_eq!(floats(values), vec![5.0]);
    assert_eq!(ints(indices), vec![2]);
}

#[test]
fn vec_operand_routes_by_its_first_element() {
    let a = Dispatch::float_from_data(TensorData::from([1.0f32, 2.0]), &device());
    let b = Dispatch::float_from_data(TensorData::from([3.0f32]), &device());
    let cat = Dispatch::float_cat(vec![a, b], 0);
    assert_eq!(floats(cat), vec![1.0, 2.0, 3.0]);
}

#[test]
#[should_panic(expected = "float_cat: needs at least one tensor")]
fn empty_vec_operand_panics_with_the_op() {
    Dispatch::float_cat(Vec::new(), 0);
}

#[test]
#[should_panic(expected = "expected a float tensor, got int")]
fn wrong_kind_operand_panics() {
    let a = Dispatch::float_from_data(TensorData::from([1.0f32]), &device());
    let b = Dispatch::int_from_data(TensorData::from([1i64]), &device());
    Dispatch::float_add(a, b);
}

#[test]
fn to_device_keeps_backend_and_kind() {
    let x = Dispatch::int_from_data(TensorData::from([4i64, 5]), &device());
    let moved = Dispatch::int_to_device(x, &device());
    assert!(matches!(moved, DispatchTensor::Flex(BackendTensor::Int(_))));
    assert_eq!(moved.device(), device());
    assert_eq!(ints(moved), vec![4, 5]);
    let flags = Dispatch::bool_from_data(TensorData::from([true]), &device());
    assert_eq!(
        bools(Dispatch::bool_to_device(flags, &device())),
        vec![true]
    );
}

#[test]
fn transaction_reads_every_kind() {
    let transaction = TransactionPrimitive::<Dispatch> {
        read_floats: vec![Dispatch::float_from_data(
            TensorData::from([1.5f32]),
            &device(),
        )],
        read_ints: vec![Dispatch::int_from_data(TensorData::from([7i64]), &device())],
        read_bools: vec![Dispatch::bool_from_data(
            TensorData::from([false]),
            &device(),
        )],
    };
    let data = Dispatch::tr_execute(transaction).unwrap();
    assert_eq!(data.read_floats[0].to_vec::<f32>().unwrap(), vec![1.5]);
    assert_eq!(data.read_ints[0].to_vec::<i64>().unwrap(), vec![7]);
    assert_eq!(data.read_bools[0].to_vec::<bool>().unwrap(), vec![false]);
    let empty = Dispatch::tr_execute(TransactionPrimitive::default()).unwrap();
    assert!(empty.read_floats.is_empty());
}
