//! Backward of `max_pair` / `min_pair` (`Tensor::max_pair`, `min_pair`): the
//! gradient goes to the larger (smaller) operand, split in half on ties, as
//! PyTorch's `torch.maximum` / `torch.minimum` do.
//!
//! Worked by hand: l = [1, 2, 3], r = [3, 2, 1], upstream g = [1, 1, 1].
//! max: d/dl = [0, 1/2, 1], d/dr = [1, 1/2, 0]; min: the mirror image.

use crate::common::gradcheck::assert_grad;
use crate::common::*;

#[test]
fn max_pair_splits_ties() {
    let device = device();
    let l = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device).require_grad();
    let r = Tensor::<1>::from_data([3.0, 2.0, 1.0], &device).require_grad();
    let grads = l.clone().max_pair(r.clone()).sum().backward();
    assert_grad(&l, &grads, [0.0, 0.5, 1.0]);
    assert_grad(&r, &grads, [1.0, 0.5, 0.0]);
}

#[test]
fn min_pair_splits_ties() {
    let device = device();
    let l = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device).require_grad();
    let r = Tensor::<1>::from_data([3.0, 2.0, 1.0], &device).require_grad();
    let grads = l.clone().min_pair(r.clone()).sum().backward();
    assert_grad(&l, &grads, [1.0, 0.5, 0.0]);
    assert_grad(&r, &grads, [0.0, 0.5, 1.0]);
}

#[test]
fn max_pair_broadcast_reduces_the_gradient() {
    // l [2, 1] against r [1, 2]: max = [[3, 5], [4, 5]] for l = [[1], [4]], r = [[3, 5]];
    // d/dl = [[0], [1]] (4 > 3 only), d/dr = [[1, 1]] + [[0, 1]] = [[1, 2]].
    let device = device();
    let l = Tensor::<2>::from_data([[1.0], [4.0]], &device).require_grad();
    let r = Tensor::<2>::from_data([[3.0, 5.0]], &device).require_grad();
    let grads = l.clone().max_pair(r.clone()).sum().backward();
    assert_grad(&l, &grads, [[0.0], [1.0]]);
    assert_grad(&r, &grads, [[1.0, 2.0]]);
}
