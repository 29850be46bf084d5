//! Backward of `activation::relu`: dx = g where x > 0, 0 elsewhere
//! (PyTorch's convention at the kink: relu'(0) = 0).
//! Reference values: tests/autodiff/reference/activation.py ("relu").

use super::expect::*;
use crate::common::*;

#[test]
fn relu_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[-3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 4.0]], &device)
            .require_grad();
        let y = activation::relu(x.clone());
        assert_values(y.clone(), [[0.0, 0.0, 0.0, 0.0], [0.5, 1.0, 2.0, 4.0]]);
        let grads = weighted_sum(y).backward();
        assert_grad(&x, &grads, [[0.0, 0.0, 0.0, 0.0], [5.0, 6.0, 7.0, 8.0]]);
    }
}
