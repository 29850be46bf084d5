//! Backward of `activation::log_sigmoid`: d/dx log σ(x) = σ(-x), finite
//! for large |x|.
//! Reference values: tests/autodiff/reference/activation.py ("log_sigmoid" blocks).

use super::expect::*;
use crate::common::*;

#[test]
fn log_sigmoid_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[-3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 4.0]], &device)
            .require_grad();
        let y = activation::log_sigmoid(x.clone());
        assert_values(
            y.clone(),
            [
                [
                    -3.048587351573742,
                    -1.3132616875182228,
                    -0.9740769841801067,
                    -0.6931471805599453,
                ],
                [
                    -0.4740769841801067,
                    -0.31326168751822286,
                    -0.1269280110429725,
                    -0.018149927917809738,
                ],
            ],
        );
        let grads = weighted_sum(y).backward();
        // At x = 0: σ(0) = 1/2, times the weight 4.
        assert_grad(
            &x,
            &grads,
            [
                [
                    0.9525741268224333,
                    1.4621171572600098,
                    1.8673779936055634,
                    2.0,
                ],
                [
                    1.8877033439907274,
                    1.6136485282199706,
                    0.8344204541548228,
                    0.14388967969673244,
                ],
            ],
        );
    }
}

#[test]
fn log_sigmoid_gradient_is_finite_at_large_inputs() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[-40.0, -20.0, 0.0, 20.0, 40.0]], &device).require_grad();
        let y = activation::log_sigmoid(x.clone());
        assert_values(
            y.clone(),
            [[
                -40.0,
                -20.000000002061153,
                -0.6931471805599453,
                -2.061153620314381e-09,
                -4.248354255291589e-18,
            ]],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [[
                1.0,
                1.9999999958776928,
                1.5,
                8.244614472760813e-09,
                2.1241771276457944e-17,
            ]],
        );
    }
}
