//! Backward of `swap_dims` (the trait's default, a `permute`): dx = g with
//! the same two dims swapped back.
//! Reference values: tests/autodiff/reference/shape_ops.py ("swap_dims").

use super::expect::*;
use crate::common::*;

fn input(device: &burn::tensor::Device) -> Tensor<3> {
    let values: Vec<FloatElem> = (0..24).map(|v| FloatElem::from_f64(f64::from(v))).collect();
    Tensor::<3>::from_data(TensorData::new(values, [2, 3, 4]), device)
}

#[test]
fn swap_dims_gradient_matches_pytorch() {
    for device in devices() {
        let x = input(&device).require_grad();
        let y = x.clone().swap_dims(0, 2);
        assert_eq!(y.dims(), [4, 3, 2]);
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    [1.0, 7.0, 13.0, 19.0],
                    [3.0, 9.0, 15.0, 21.0],
                    [5.0, 11.0, 17.0, 23.0],
                ],
                [
                    [2.0, 8.0, 14.0, 20.0],
                    [4.0, 10.0, 16.0, 22.0],
                    [6.0, 12.0, 18.0, 24.0],
                ],
            ],
        );
    }
}

#[test]
fn swap_dims_with_negative_dim_matches_pytorch() {
    for device in devices() {
        let x = input(&device).require_grad();
        let grads = weighted_sum(x.clone().swap_dims(-1, 1)).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    [1.0, 4.0, 7.0, 10.0],
                    [2.0, 5.0, 8.0, 11.0],
                    [3.0, 6.0, 9.0, 12.0],
                ],
                [
                    [13.0, 16.0, 19.0, 22.0],
                    [14.0, 17.0, 20.0, 23.0],
                    [15.0, 18.0, 21.0, 24.0],
                ],
            ],
        );
    }
}

#[test]
fn transpose_twice_passes_the_gradient_through() {
    // transpose(transpose(x)) = x: dx = the weights themselves (by hand).
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device).require_grad();
        let grads = weighted_sum(x.clone().transpose().transpose()).backward();
        assert_grad(&x, &grads, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    }
}
