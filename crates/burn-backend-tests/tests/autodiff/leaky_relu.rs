//! Backward of `activation::leaky_relu`: dx = g where x > 0, slope * g
//! elsewhere (PyTorch's convention at the kink: the slope at x = 0, the
//! same side as relu'(0) = 0).
//! Reference values: tests/autodiff/reference/activation.py ("leaky_relu").

use super::expect::*;
use crate::common::*;

#[test]
fn leaky_relu_gradient_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[-3.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 4.0]], &device)
            .require_grad();
        let y = activation::leaky_relu(x.clone(), 0.1);
        assert_values(
            y.clone(),
            [
                [-0.30000000000000004, -0.1, -0.05, 0.0],
                [0.5, 1.0, 2.0, 4.0],
            ],
        );
        let grads = weighted_sum(y).backward();
        assert_grad(
            &x,
            &grads,
            [[0.1, 0.2, 0.30000000000000004, 0.4], [5.0, 6.0, 7.0, 8.0]],
        );
    }
}
