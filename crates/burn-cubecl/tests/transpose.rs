#![cfg(any(feature = "wgpu", feature = "cuda"))]
//! Contiguous copies of views whose last two dims are swapped go through
//! the tiled transpose kernel: values against the transpose done on the
//! host, for shapes that leave partial 32×32 tiles on both sides, batches,
//! a view that starts inside its buffer, half and int dtypes.

use burn_backend::{FloatTensorOps, IntTensorOps, TensorMetadata};
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{DType, Shape, Slice, TensorData};

/// `[batch, rows, cols]` row-major values → the same with the last two
/// dims swapped.
fn host_transpose(v: &[f32], batch: usize, rows: usize, cols: usize) -> Vec<f32> {
    let mut out = vec![0.0; v.len()];
    for b in 0..batch {
        for r in 0..rows {
            for c in 0..cols {
                out[b * rows * cols + c * rows + r] = v[b * rows * cols + r * cols + c];
            }
        }
    }
    out
}

fn ramp(n: usize) -> Vec<f32> {
    // Small integers: exact in f16 and i32 alike.
    (0..n).map(|i| (i % 1021) as f32 - 500.0).collect()
}

/// Swaps the last two dims of `t` and makes the result contiguous (a
/// reshape to the swapped shape needs contiguous data).
fn swapped_copy(t: CubeTensor) -> CubeTensor {
    let rank = t.shape().num_dims();
    let swapped = CubeBackend::float_swap_dims(t, rank - 2, rank - 1);
    let shape = swapped.shape();
    CubeBackend::float_reshape(swapped, Shape::from(shape.dims.as_slice().to_vec()))
}

fn check_float(dtype: DType, batch: usize, rows: usize, cols: usize) {
    let device = CubeDevice::default();
    let values = ramp(batch * rows * cols);
    let t = CubeBackend::float_from_data(
        TensorData::new(values.clone(), [batch, rows, cols]),
        &device,
    );
    let t = CubeBackend::float_cast(t, dtype);
    let out = swapped_copy(t);
    assert_eq!(out.shape().dims.as_slice(), &[batch, cols, rows]);
    let got = CubeBackend::float_into_data(CubeBackend::float_cast(out, DType::F32))
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(
        got,
        host_transpose(&values, batch, rows, cols),
        "{dtype} [{batch}, {rows}, {cols}]"
    );
}

#[test]
fn f32_partial_tiles_on_both_sides() {
    check_float(DType::F32, 1, 33, 70);
    check_float(DType::F32, 3, 65, 31);
    check_float(DType::F32, 2, 2, 100);
}

#[test]
fn f16_batched() {
    check_float(DType::F16, 4, 40, 96);
}

#[test]
fn int_tensor() {
    let device = CubeDevice::default();
    let (rows, cols) = (37, 45);
    let values: Vec<i32> = (0..(rows * cols) as i32).collect();
    let t = CubeBackend::int_from_data(TensorData::new(values.clone(), [rows, cols]), &device);
    let swapped = CubeBackend::int_swap_dims(t, 0, 1);
    let out = CubeBackend::int_reshape(swapped, Shape::new([cols, rows]));
    let got = CubeBackend::int_into_data(out)
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let floats: Vec<f32> = values.iter().map(|&v| v as f32).collect();
    let expected: Vec<i32> = host_transpose(&floats, 1, rows, cols)
        .into_iter()
        .map(|v| v as i32)
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn view_starting_inside_its_buffer() {
    // The second of two [40, 50] planes: the view's offset is 2000.
    let device = CubeDevice::default();
    let values = ramp(2 * 40 * 50);
    let t = CubeBackend::float_from_data(TensorData::new(values.clone(), [2, 40, 50]), &device);
    let full = Slice::new(0, None, 1);
    let second = CubeBackend::float_slice(t, &[Slice::new(1, Some(2), 1), full, full]);
    let got = CubeBackend::float_into_data(swapped_copy(second))
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(got, host_transpose(&values[2000..], 1, 40, 50));
}
