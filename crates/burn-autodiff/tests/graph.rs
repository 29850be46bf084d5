//! The graph mechanics of `Autodiff<Flex, C>` directly on the backend
//! traits: gradients, consumed steps, reuse of leaves, strategies.

use burn_autodiff::{Autodiff, BalancedCheckpointing, NoCheckpointing};
use burn_backend::{AutodiffBackend, BackwardError, FloatTensorOps};
use burn_flex::{Flex, FlexDevice};
use burn_std::{Shape, TensorData};

type Ad = Autodiff<Flex, NoCheckpointing>;
type Balanced = Autodiff<Flex, BalancedCheckpointing>;

fn leaf<B: AutodiffBackend<Device = FlexDevice>>(values: &[f32]) -> burn_backend::FloatTensor<B> {
    let data = TensorData::new(values.to_vec(), Shape::from(vec![values.len()]));
    B::float_set_require_grad(B::float_from_data(data, &FlexDevice), true)
}

fn values<B: burn_backend::Backend>(tensor: burn_backend::FloatTensor<B>) -> Vec<f32> {
    B::float_into_data(tensor)
        .unwrap()
        .into_vec::<f32>()
        .unwrap()
}

#[test]
fn square_sum_gradient_is_two_x() {
    // d/dx sum(x * x) = 2x.
    let x = leaf::<Ad>(&[2.0, 3.0]);
    let y = Ad::float_sum(Ad::float_mul(x.clone(), x.clone()));
    let grads = Ad::backward(y).unwrap();
    assert_eq!(
        values::<Flex>(Ad::grad(&x, &grads).unwrap()),
        vec![4.0, 6.0]
    );
}

#[test]
fn second_backward_through_consumed_steps_is_refused() {
    let x = leaf::<Ad>(&[1.0, 2.0]);
    let y = Ad::float_sum(Ad::float_exp(x.clone()));
    Ad::backward(y.clone()).unwrap();
    match Ad::backward(y) {
        Err(BackwardError::Consumed { op }) => assert_eq!(op, "sum"),
        other => panic!("expected a consumed-graph error, got {other:?}"),
    }
    // The leaf itself is reusable in a fresh forward pass.
    let z = Ad::float_sum(Ad::float_mul_scalar(x.clone(), 3.0.into()));
    let grads = Ad::backward(z).unwrap();
    assert_eq!(
        values::<Flex>(Ad::grad(&x, &grads).unwrap()),
        vec![3.0, 3.0]
    );
}

#[test]
fn untracked_tensor_has_no_graph() {
    let data = TensorData::new(vec![1.0f32], Shape::from(vec![1]));
    let x = Ad::float_from_data(data, &FlexDevice);
    assert_eq!(Ad::backward(x).unwrap_err(), BackwardError::NotTracked);
}

#[test]
fn balanced_checkpointing_gives_the_same_gradients() {
    // A chain of memory-bound ops after a compute-bound one.
    fn run<B: AutodiffBackend<Device = FlexDevice>>() -> Vec<f32> {
        let x = leaf::<B>(&[0.1, -0.4, 0.7]);
        let m = B::float_matmul(
            B::float_reshape(x.clone(), Shape::from(vec![1, 3])),
            B::float_reshape(x.clone(), Shape::from(vec![3, 1])),
        );
        let mut h = B::float_add(B::float_reshape(m, Shape::from(vec![1])), x.clone());
        for _ in 0..4 {
            h = B::float_tanh(B::float_exp(B::float_mul_scalar(h, 0.5.into())));
        }
        let grads = B::backward(B::float_sum(h)).unwrap();
        values::<B::InnerBackend>(B::grad(&x, &grads).unwrap())
    }
    assert_eq!(run::<Ad>(), run::<Balanced>());
}

#[test]
fn dropping_a_long_unconsumed_chain_does_not_overflow_the_stack() {
    // 200k tracked ops, never consumed by backward: dropping the last tensor
    // must free the chain without one stack frame per node (test threads
    // have 2 MiB stacks).
    let mut x = leaf::<Ad>(&[1.0]);
    for _ in 0..200_000 {
        x = Ad::float_add_scalar(x, 1.0.into());
    }
    drop(x);
}
