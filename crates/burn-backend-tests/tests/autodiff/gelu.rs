//! Backward of `activation::gelu` (exact erf form, the trait's default
//! composition): d/dx = Φ(x) + x φ(x).
//! Reference values: tests/autodiff/reference/activation.py ("gelu").

use super::expect::*;
use crate::common::*;

#[test]
fn gelu_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[-3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 4.0]], &device)
            .require_grad();
        let y = activation::gelu(x.clone());
        assert_values(
            y.clone(),
            [
                [
                    -0.00404969409489031,
                    -0.15865525393145702,
                    -0.15426876936299344,
                    0.0,
                ],
                [
                    0.34573123063700656,
                    0.841344746068543,
                    1.9544997361036416,
                    3.9998733150326675,
                ],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    -0.01194564720418392,
                    -0.1666309411753727,
                    0.39751462603151133,
                    2.0,
                ],
                [
                    4.337475623280814,
                    6.499892823526118,
                    7.596622607547379,
                    8.004029197289812,
                ],
            ],
        );
    }
}
