//! Backward of `tril` (the trait's default, a `mask_fill`): dx = g on and
//! below the diagonal, zero above.
//! Reference values: tests/autodiff/reference/indexing.py ("tril").

use super::expect::*;
use crate::common::*;

const X: [[f64; 4]; 3] = [
    [0.5, -1.0, 2.0, 3.5],
    [4.0, -5.5, 6.0, 7.0],
    [-8.0, 9.0, 10.5, -11.0],
];

fn check(diagonal: i64, expected: [[f64; 4]; 3]) {
    for device in devices() {
        let x = Tensor::<2>::from_data(X, &device).require_grad();
        let grads = weighted_sum(x.clone().tril(diagonal)).backward();
        assert_grad(&x, &grads, expected);
    }
}

#[test]
fn tril_main_diagonal_matches_pytorch() {
    check(
        0,
        [
            [1.0, 0.0, 0.0, 0.0],
            [5.0, 6.0, 0.0, 0.0],
            [9.0, 10.0, 11.0, 0.0],
        ],
    );
}

#[test]
fn tril_below_diagonal_matches_pytorch() {
    check(
        -1,
        [
            [0.0, 0.0, 0.0, 0.0],
            [5.0, 0.0, 0.0, 0.0],
            [9.0, 10.0, 0.0, 0.0],
        ],
    );
}

#[test]
fn tril_above_diagonal_matches_pytorch() {
    check(
        1,
        [
            [1.0, 2.0, 0.0, 0.0],
            [5.0, 6.0, 7.0, 0.0],
            [9.0, 10.0, 11.0, 12.0],
        ],
    );
}

#[test]
fn tril_batched_matches_pytorch() {
    for device in devices() {
        let x = Tensor::<3>::from_data(
            [
                [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
                [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]],
            ],
            &device,
        )
        .require_grad();
        let grads = weighted_sum(x.clone().tril(0)).backward();
        assert_grad(
            &x,
            &grads,
            [
                [[1.0, 0.0, 0.0], [4.0, 5.0, 0.0]],
                [[7.0, 0.0, 0.0], [10.0, 11.0, 0.0]],
            ],
        );
    }
}
