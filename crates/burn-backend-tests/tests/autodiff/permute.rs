//! Backward of `permute`: dx = g permuted by the inverse permutation.
//! Reference values: tests/autodiff/reference/shape_ops.py ("permute").

use super::expect::*;
use crate::common::*;

fn input(device: &burn::tensor::Device) -> Tensor<3> {
    let values: Vec<FloatElem> = (0..24).map(|v| FloatElem::from_f64(f64::from(v))).collect();
    Tensor::<3>::from_data(TensorData::new(values, [2, 3, 4]), device)
}

#[test]
fn permute_gradient_matches_pytorch() {
    for device in devices() {
        let x = input(&device).require_grad();
        let y = x.clone().permute([2, 0, 1]);
        assert_eq!(y.dims(), [4, 2, 3]);
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    [1.0, 7.0, 13.0, 19.0],
                    [2.0, 8.0, 14.0, 20.0],
                    [3.0, 9.0, 15.0, 21.0],
                ],
                [
                    [4.0, 10.0, 16.0, 22.0],
                    [5.0, 11.0, 17.0, 23.0],
                    [6.0, 12.0, 18.0, 24.0],
                ],
            ],
        );
    }
}

#[test]
fn permute_with_negative_axes_matches_positive_axes() {
    // [-1, 0, 1] names the same permutation as [2, 0, 1].
    for device in devices() {
        let x = input(&device).require_grad();
        let grads = weighted_sum(x.clone().permute([-1, 0, 1])).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    [1.0, 7.0, 13.0, 19.0],
                    [2.0, 8.0, 14.0, 20.0],
                    [3.0, 9.0, 15.0, 21.0],
                ],
                [
                    [4.0, 10.0, 16.0, 22.0],
                    [5.0, 11.0, 17.0, 23.0],
                    [6.0, 12.0, 18.0, 24.0],
                ],
            ],
        );
    }
}
