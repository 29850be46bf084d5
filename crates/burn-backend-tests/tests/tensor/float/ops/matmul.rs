use crate::common::*;

#[test]
fn should_matmul_2d() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    let rhs = Tensor::<2>::from_data([[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]], &device);

    let output = lhs.matmul(rhs);

    let expected = TensorData::from([[58.0, 64.0], [139.0, 154.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_matmul_broadcast_batch() {
    let device = device();
    // [2, 2, 2] x [1, 2, 1] -> [2, 2, 1]
    let lhs = Tensor::<3>::from_data(
        [[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.0], [0.5, 2.0]]],
        &device,
    );
    let rhs = Tensor::<3>::from_data([[[1.0], [10.0]]], &device);

    let output = lhs.matmul(rhs);

    let expected = TensorData::from([[[21.0], [43.0]], [[-1.0], [20.5]]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_matmul_transposed_operands() {
    let device = device();
    let lhs = Tensor::<2>::from_data([[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]], &device).transpose();
    let rhs = Tensor::<2>::from_data([[7.0, 9.0, 11.0], [8.0, 10.0, 12.0]], &device).transpose();

    let output = lhs.matmul(rhs);

    let expected = TensorData::from([[58.0, 64.0], [139.0, 154.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
fn should_matmul_empty_inner_dim_to_zeros() {
    let lhs = empty_floats([2, 0]);
    let rhs = empty_floats([0, 3]);

    let output = lhs.matmul(rhs);

    let expected = TensorData::from([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

/// Sizes that are not multiples of any tile width, so blocked kernels hit
/// their edge cases. Small integer values keep every product exact.
#[test]
fn should_matmul_odd_sizes_against_naive_loop() {
    let (m, k, n) = (33, 17, 9);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| ((i * 5) % 7) as f32 - 3.0).collect();
    let mut c = vec![0.0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
        }
    }
    let device = device();
    let lhs = Tensor::<2>::from_data(TensorData::new(a, [m, k]), &device);
    let rhs = Tensor::<2>::from_data(TensorData::new(b, [k, n]), &device);

    let output = lhs.matmul(rhs);

    let expected = TensorData::new(c, [m, n]).convert::<FloatElem>();
    output
        .into_data()
        .assert_approx_eq::<FloatElem>(&expected, Tolerance::default());
}

#[test]
#[should_panic(expected = "matmul: inner dims differ")]
fn should_panic_when_inner_dims_differ() {
    let device = device();
    let _ = Tensor::<2>::ones([2, 3], &device).matmul(Tensor::<2>::ones([2, 3], &device));
}

#[test]
#[should_panic(expected = "matmul: batch dims")]
fn should_panic_when_batch_dims_do_not_broadcast() {
    let device = device();
    let _ = Tensor::<3>::ones([2, 2, 2], &device).matmul(Tensor::<3>::ones([3, 2, 2], &device));
}
