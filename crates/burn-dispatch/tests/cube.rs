//! Routing through `Dispatch` to the CubeCL backend on its WGPU runtime
//! (Mesa's lavapipe where the machine has no GPU), and transfers between
//! it and Flex.
#![cfg(feature = "wgpu")]

use burn_backend::{
    Backend, DType, FloatTensorOps, IntTensorOps, Shape, TensorData, TensorMetadata,
};
use burn_dispatch::devices::{CubeDevice, WgpuDevice};
use burn_dispatch::{BackendTensor, Dispatch, DispatchDevice, DispatchTensor};

fn device() -> DispatchDevice {
    DispatchDevice::Cube(CubeDevice::Wgpu(WgpuDevice::DefaultDevice))
}

fn floats(tensor: DispatchTensor) -> Vec<f32> {
    Dispatch::float_into_data(tensor).unwrap().to_vec().unwrap()
}

#[cfg(not(any(feature = "cuda", feature = "rocm")))]
#[test]
fn default_device_is_the_wgpu_adapter() {
    // GPUs before CPUs: the WGPU runtime wins over Flex when both are on.
    assert_eq!(DispatchDevice::default(), device());
}

#[test]
fn the_device_names_the_backend_and_runtime() {
    assert_eq!(device().backend_name(), "Cube");
    assert_eq!(Dispatch::name(&device()), "cubecl<wgpu>");
    assert_eq!(device().to_string(), "Cube(Wgpu(DefaultDevice))");
    assert_ne!(
        device(),
        DispatchDevice::Cube(CubeDevice::Wgpu(WgpuDevice::DiscreteGpu(0)))
    );
}

#[test]
fn ops_route_to_the_cube_backend() {
    let a = Dispatch::float_from_data(TensorData::from([1.0f32, 2.0, 3.0]), &device());
    let b = Dispatch::float_from_data(TensorData::from([10.0f32, 20.0, 30.0]), &device());
    assert!(matches!(a, DispatchTensor::Cube(BackendTensor::Float(_))));
    assert_eq!(a.device(), device());
    let sum = Dispatch::float_add(a, b);
    assert!(matches!(sum, DispatchTensor::Cube(BackendTensor::Float(_))));
    assert_eq!(sum.dtype(), DType::F32);
    assert_eq!(sum.shape(), Shape::new([3]));
    assert_eq!(floats(sum), vec![11.0, 22.0, 33.0]);
}

#[test]
fn the_default_int_dtype_is_i32() {
    assert_eq!(Dispatch::default_int_dtype(&device()), DType::I32);
    assert!(Dispatch::supports_dtype(&device(), DType::F32));
    assert!(Dispatch::supports_dtype(&device(), DType::I32));
    let x = Dispatch::int_from_data(TensorData::from([4i32, -5]), &device());
    assert!(matches!(x, DispatchTensor::Cube(BackendTensor::Int(_))));
    let data = Dispatch::int_into_data(x).unwrap();
    assert_eq!(data.to_vec::<i32>().unwrap(), vec![4, -5]);
}

#[cfg(feature = "flex")]
#[test]
fn tensors_move_between_flex_and_cube() {
    let flex = DispatchDevice::Flex(burn_flex::FlexDevice);
    let x = Dispatch::float_from_data(TensorData::from([[1.5f32, -2.0], [0.25, 4.0]]), &flex);
    let on_gpu = Dispatch::float_to_device(x, &device());
    assert!(matches!(
        on_gpu,
        DispatchTensor::Cube(BackendTensor::Float(_))
    ));
    let doubled = Dispatch::float_add(on_gpu.clone(), on_gpu);
    let back = Dispatch::float_to_device(doubled, &flex);
    assert!(matches!(
        back,
        DispatchTensor::Flex(BackendTensor::Float(_))
    ));
    assert_eq!(floats(back), vec![3.0, -4.0, 0.5, 8.0]);
}

#[cfg(feature = "flex")]
#[test]
#[should_panic(expected = "float_add")]
fn operands_on_different_backends_are_an_error() {
    let flex = DispatchDevice::Flex(burn_flex::FlexDevice);
    let a = Dispatch::float_from_data(TensorData::from([1.0f32]), &flex);
    let b = Dispatch::float_from_data(TensorData::from([1.0f32]), &device());
    Dispatch::float_add(a, b);
}
