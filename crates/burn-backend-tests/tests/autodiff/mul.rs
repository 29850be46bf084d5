//! Backward of `mul`: d/dx (x * y) = y, d/dy = x, summed over broadcast dims.

use crate::common::*;

#[test]
fn mul_broadcast_gradients_match_pytorch() {
    // The contributor book's PyTorch case:
    // x = [[1, 2], [3, 4]], y = [5, 6]; (x * y).sum().backward()
    // x.grad = [[5, 6], [5, 6]], y.grad = [4, 6].
    let device = device();
    let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device).require_grad();
    let y = Tensor::<2>::from_data([[5.0, 6.0]], &device).require_grad();
    let output = x.clone() * y.clone();
    output.to_data().assert_eq(
        &TensorData::from([[5.0, 12.0], [15.0, 24.0]]).convert::<FloatElem>(),
        false,
    );
    let grads = output.sum().backward();
    x.grad(&grads).unwrap().into_data().assert_eq(
        &TensorData::from([[5.0, 6.0], [5.0, 6.0]]).convert::<FloatElem>(),
        false,
    );
    y.grad(&grads).unwrap().into_data().assert_eq(
        &TensorData::from([[4.0, 6.0]]).convert::<FloatElem>(),
        false,
    );
}

#[test]
fn untracked_operand_gets_no_gradient() {
    let device = device();
    let x = Tensor::<1>::from_data([1.0, 2.0], &device).require_grad();
    let y = Tensor::<1>::from_data([3.0, 4.0], &device);
    let grads = (x.clone() * y.clone()).sum().backward();
    x.grad(&grads)
        .unwrap()
        .into_data()
        .assert_eq(&TensorData::from([3.0, 4.0]).convert::<FloatElem>(), false);
    assert!(y.grad(&grads).is_none());
}
