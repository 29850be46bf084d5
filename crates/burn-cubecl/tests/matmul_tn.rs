//! Large f16/bf16 products on CUDA take the column-major right-hand side
//! route (`ops::matmul`'s `tensor_core_tn`): checked against the f64 product
//! of the same half-precision inputs on sampled rows, including the last
//! rows and columns of shapes that are not multiples of the 128×128 cube
//! or the 64-deep stage, a batched product with a broadcast right-hand
//! side, and a right-hand side that is already a transposed view.
#![cfg(feature = "cuda")]

use burn_backend::{FloatTensorOps, TensorMetadata};
use burn_cubecl::{CubeBackend, CubeDevice, CubeTensor};
use burn_std::{DType, TensorData};

mod common;
use common::values;

fn upload(v: &[f32], shape: &[usize], dtype: DType, device: &CubeDevice) -> (CubeTensor, Vec<f64>) {
    let t = CubeBackend::float_from_data(TensorData::new(v.to_vec(), shape.to_vec()), device);
    let t = CubeBackend::float_cast(t, dtype);
    // The values the kernel sees, rounded to the half type.
    let rounded = CubeBackend::float_into_data(CubeBackend::float_cast(t.clone(), DType::F32))
        .unwrap()
        .to_vec::<f32>()
        .unwrap()
        .into_iter()
        .map(f64::from)
        .collect();
    (t, rounded)
}

/// Worst error of sampled rows of batch `b` against the f64 product,
/// relative to `Σ |a|·|b|` of each output.
/// The right-hand side is shared by every batch.
fn worst(got: &[f32], a: &[f64], bm: &[f64], b: usize, (m, k, n): (usize, usize, usize)) -> f64 {
    let rows = [0, 1, 63, 64, 127, 128, m / 2 + 3, m - 2, m - 1];
    let mut worst = 0f64;
    for &i in &rows {
        for j in 0..n {
            let (mut exact, mut scale) = (0f64, 0f64);
            for p in 0..k {
                let t = a[b * m * k + i * k + p] * bm[p * n + j];
                exact += t;
                scale += t.abs();
            }
            let g = got[b * m * n + i * n + j] as f64;
            worst = worst.max((g - exact).abs() / scale.max(1e-30));
        }
    }
    worst
}

fn check(dtype: DType, batch: usize, m: usize, k: usize, n: usize, transposed_rhs: bool) {
    let device = CubeDevice::default();
    let lhs_shape: Vec<usize> = if batch > 1 {
        vec![batch, m, k]
    } else {
        vec![m, k]
    };
    let (lhs, a) = upload(&values(batch * m * k, 7), &lhs_shape, dtype, &device);
    let (rhs, bm) = if transposed_rhs {
        // Stored n×k, seen k×n: already column-major.
        let (t, stored) = upload(&values(n * k, 11), &[n, k], dtype, &device);
        let mut kn = vec![0f64; k * n];
        for j in 0..n {
            for p in 0..k {
                kn[p * n + j] = stored[j * k + p];
            }
        }
        (CubeBackend::float_swap_dims(t, 0, 1), kn)
    } else if batch > 1 {
        upload(&values(k * n, 11), &[1, k, n], dtype, &device)
    } else {
        upload(&values(k * n, 11), &[k, n], dtype, &device)
    };
    let out = CubeBackend::float_matmul(lhs, rhs);
    let expected: Vec<usize> = if batch > 1 {
        vec![batch, m, n]
    } else {
        vec![m, n]
    };
    assert_eq!(out.shape().dims.as_slice(), expected.as_slice());
    let got = CubeBackend::float_into_data(CubeBackend::float_cast(out, DType::F32))
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    for b in 0..batch {
        let err = worst(&got, &a, &bm, b, (m, k, n));
        // f32 accumulation, one rounding to the half type at the end
        // (2⁻⁸ for bf16, 2⁻¹¹ for f16, relative to the output's scale).
        let bound = if dtype == DType::BF16 { 8e-3 } else { 1e-3 };
        assert!(
            err < bound,
            "{dtype} [{batch}] {m}×{k}×{n} batch {b}: error {err:e}"
        );
    }
}

#[test]
fn f16_product_with_ragged_edges() {
    // n = 2064 is not a multiple of 128, k = 2080 not of 64.
    check(DType::F16, 1, 2048, 2080, 2064, false);
}

#[test]
fn bf16_product_with_ragged_rows() {
    // m = 2100 is not a multiple of 128.
    check(DType::BF16, 1, 2100, 2048, 2048, false);
}

#[test]
fn batched_product_with_broadcast_rhs() {
    check(DType::F16, 2, 1024, 2048, 2048, false);
}

#[test]
fn rhs_already_column_major() {
    check(DType::F16, 1, 2048, 2048, 2048, true);
}

/// The blueprint the route forces is accepted on this device: were it
/// refused, `float_matmul` would quietly take cubek's own choice and the
/// tests above would not exercise the route.
#[test]
fn the_forced_blueprint_is_accepted() {
    use burn_cubecl::ops::matmul::{matmul_with, tn_blueprint};
    use cubek::matmul::definition::{MatmulGlobalElems, MatmulProblem};
    use cubek::matmul::launch::Strategy;
    use cubek::matmul::routines::BlueprintStrategy;
    use cubek::std::MatrixLayout;

    let device = CubeDevice::default();
    let n = 2048;
    let (lhs, _) = upload(&values(n * n, 3), &[n, n], DType::F16, &device);
    let (rhs, _) = upload(&values(n * n, 5), &[n, n], DType::F16, &device);
    let rhs = CubeBackend::float_swap_dims(rhs, 0, 1);
    let ty = burn_cubecl::dtype::storage(DType::F16);
    let problem = MatmulProblem::from_parameters(
        n,
        n,
        n,
        Vec::<usize>::new().into(),
        Vec::<usize>::new().into(),
        MatrixLayout::RowMajor,
        MatrixLayout::ColMajor,
        MatrixLayout::RowMajor,
        None,
        None,
        MatmulGlobalElems {
            lhs: ty,
            rhs: ty,
            out: ty,
        },
        cubecl::ir::AddressType::U32,
    );
    let out = lhs.empty_like(burn_std::Shape::new([n, n]), DType::F16);
    let strategy = Strategy::DoubleTmaMma(BlueprintStrategy::Forced(tn_blueprint(&problem)));
    matmul_with(&strategy, &lhs, &rhs, &out).expect("the TN blueprint runs on this device");
}
