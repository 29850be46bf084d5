//! Backward of `activation::hard_sigmoid` (clamp(αx + β, 0, 1), the trait's
//! default composition): dx = α g inside the linear region, 0 where clamped.
//! Reference values: tests/autodiff/reference/activation.py ("hard_sigmoid").
//! The inputs avoid the two corners, where the derivative is undefined.

use super::expect::*;
use crate::common::*;

#[test]
fn hard_sigmoid_pytorch_parameters_match_pytorch() {
    // PyTorch's hardsigmoid: α = 1/6, β = 1/2.
    for device in devices() {
        let x = Tensor::<2>::from_data([[-4.0, -2.5, -1.0, 0.0], [0.5, 1.0, 2.5, 5.0]], &device)
            .require_grad();
        let y = activation::hard_sigmoid(x.clone(), 1.0 / 6.0, 0.5);
        assert_values(
            y.clone(),
            [
                [0.0, 0.08333333333333331, 0.33333333333333337, 0.5],
                [
                    0.5833333333333334,
                    0.6666666666666666,
                    0.9166666666666667,
                    1.0,
                ],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [0.0, 0.3333333333333333, 0.5, 0.6666666666666666],
                [0.8333333333333334, 1.0, 1.1666666666666667, 0.0],
            ],
        );
    }
}

#[test]
fn hard_sigmoid_other_parameters_match_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[-4.0, -2.0, -1.0, 0.0], [0.5, 1.0, 2.0, 3.0]], &device)
            .require_grad();
        let y = activation::hard_sigmoid(x.clone(), 0.2, 0.5);
        assert_values(
            y.clone(),
            [[0.0, 0.09999999999999998, 0.3, 0.5], [0.6, 0.7, 0.9, 1.0]],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [0.0, 0.4, 0.6000000000000001, 0.8],
                [1.0, 1.2000000000000002, 1.4000000000000001, 0.0],
            ],
        );
    }
}
