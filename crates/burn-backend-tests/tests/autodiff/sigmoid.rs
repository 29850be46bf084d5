//! Backward of `activation::sigmoid`: d/dx σ(x) = σ(x) (1 - σ(x)).
//! Reference values: tests/autodiff/reference/activation.py ("sigmoid" blocks).

use super::expect::*;
use crate::common::*;

#[test]
fn sigmoid_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[-3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 4.0]], &device)
            .require_grad();
        let y = activation::sigmoid(x.clone());
        assert_values(
            y.clone(),
            [
                [
                    0.04742587317756678,
                    0.2689414213699951,
                    0.3775406687981454,
                    0.5,
                ],
                [
                    0.6224593312018546,
                    0.7310585786300049,
                    0.8807970779778823,
                    0.9820137900379085,
                ],
            ],
        );
        let grads = weighted_sum(y).backward();
        // At x = 0: σ'(0) = 1/4, times the weight 4.
        assert_grad(
            &x,
            &grads,
            [
                [
                    0.04517665973091214,
                    0.3932238664829637,
                    0.7050111366047835,
                    1.0,
                ],
                [
                    1.1750185610079724,
                    1.179671599448891,
                    0.7349550978245463,
                    0.14130164970632886,
                ],
            ],
        );
    }
}

#[test]
fn sigmoid_gradient_is_finite_at_large_inputs() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[-40.0, -20.0, 0.0, 20.0, 40.0]], &device).require_grad();
        let grads = weighted_sum(activation::sigmoid(x.clone())).backward();
        assert_grad(
            &x,
            &grads,
            [[
                4.248354255291589e-18,
                4.122307227883699e-09,
                0.75,
                8.244614751677581e-09,
                0.0,
            ]],
        );
    }
}
