//! Backward of `activation::log_softmax` (the trait's default composition):
//! d/dx_i = g_i - softmax(x)_i sum_j g_j along the dim.
//! Reference values: tests/autodiff/reference/activation.py ("log_softmax" blocks).

use super::expect::*;
use crate::common::*;

const X: [[f64; 4]; 2] = [[-3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 4.0]];

#[test]
fn log_softmax_last_dim_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let y = activation::log_softmax(x.clone(), 1);
        assert_values(
            y.clone(),
            [
                [
                    -3.705173162318934,
                    -1.7051731623189341,
                    -1.2051731623189341,
                    -0.705173162318934,
                ],
                [
                    -3.695007198573594,
                    -3.195007198573594,
                    -2.195007198573594,
                    -0.19500719857359397,
                ],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    0.7540404209424757,
                    0.18259087227458437,
                    0.0035989135545412276,
                    -0.9402302067716014,
                ],
                [
                    4.353970855280343,
                    4.934878007608489,
                    4.104698242990064,
                    -13.393547105878898,
                ],
            ],
        );
    }
}

#[test]
fn log_softmax_dim0_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let grads = weighted_sum(activation::log_softmax(x.clone(), 0)).backward();
        assert_grad(
            &x,
            &grads,
            [
                [
                    0.8241266154918621,
                    1.0463766238230598,
                    2.2414181997875646,
                    3.7841654804549014,
                ],
                [
                    -0.8241266154918618,
                    -1.0463766238230585,
                    -2.2414181997875655,
                    -3.7841654804549014,
                ],
            ],
        );
    }
}
