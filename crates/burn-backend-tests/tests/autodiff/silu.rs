//! Backward of `activation::silu` (x σ(x), the trait's default composition):
//! d/dx = σ(x) (1 + x (1 - σ(x))).
//! Reference values: tests/autodiff/reference/activation.py ("silu").

use super::expect::*;
use crate::common::*;

#[test]
fn silu_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[-3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 4.0]], &device)
            .require_grad();
        let y = activation::silu(x.clone());
        assert_values(
            y.clone(),
            [
                [
                    -0.14227761953270035,
                    -0.2689414213699951,
                    -0.1887703343990727,
                    0.0,
                ],
                [
                    0.3112296656009273,
                    0.7310585786300049,
                    1.7615941559557646,
                    3.928055160151634,
                ],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    -0.08810410601516962,
                    0.1446589762570265,
                    0.7801164380920445,
                    2.0,
                ],
                [
                    3.6998059365132594,
                    5.566023071228921,
                    7.635489741494269,
                    8.421316919128582,
                ],
            ],
        );
    }
}
