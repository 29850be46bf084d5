//! Backward of `triu` (the trait's default, a `mask_fill`): dx = g on and
//! above the diagonal, zero below.
//! Reference values: tests/autodiff/reference/indexing.py ("triu").

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
        let grads = weighted_sum(x.clone().triu(diagonal)).backward();
        assert_grad(&x, &grads, expected);
    }
}

#[test]
fn triu_main_diagonal_matches_pytorch() {
    check(
        0,
        [
            [1.0, 2.0, 3.0, 4.0],
            [0.0, 6.0, 7.0, 8.0],
            [0.0, 0.0, 11.0, 12.0],
        ],
    );
}

#[test]
fn triu_above_diagonal_matches_pytorch() {
    check(
        1,
        [
            [0.0, 2.0, 3.0, 4.0],
            [0.0, 0.0, 7.0, 8.0],
            [0.0, 0.0, 0.0, 12.0],
        ],
    );
}

#[test]
fn triu_below_diagonal_matches_pytorch() {
    check(
        -1,
        [
            [1.0, 2.0, 3.0, 4.0],
            [5.0, 6.0, 7.0, 8.0],
            [0.0, 10.0, 11.0, 12.0],
        ],
    );
}
