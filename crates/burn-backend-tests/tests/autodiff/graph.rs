//! Graph semantics of the autodiff context: how gradients accumulate, what
//! backward consumes and refuses, how constants, detached and plain tensors
//! mix with tracked ones, and the context's flags. Expected values are
//! worked by hand in the comments.

use burn::backend::BackwardError;
use burn::tensor::{Checkpointing, Device};

use super::expect::*;
use crate::common::*;

/// `(is_autodiff, is_tracked, is_require_grad)`.
fn flags<const D: usize>(tensor: &Tensor<D>) -> (bool, bool, bool) {
    (
        tensor.is_autodiff(),
        tensor.is_tracked(),
        tensor.is_require_grad(),
    )
}

fn plain_device() -> Device {
    device().without_autodiff()
}

#[test]
fn a_tensor_used_twice_accumulates_both_gradients() {
    // y = x², z = y + 3y: dz/dx = 4 · 2x = 8x.
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, -2.0, 3.0], &device).require_grad();
        let y = x.clone() * x.clone();
        let z = y.clone() + y * 3.0;
        let grads = z.sum().backward();
        assert_grad(&x, &grads, [8.0, -16.0, 24.0]);
    }
}

#[test]
fn a_shared_subgraph_in_a_diamond_sums_both_paths() {
    // y = exp(x), z = sin(y) + y²: dz/dx = (cos(y) + 2y) · y, at x = 0, 1, -0.5.
    for device in devices() {
        let x = Tensor::<1>::from_data([0.0, 1.0, -0.5], &device).require_grad();
        let y = x.clone().exp();
        let z = y.clone().sin() + y.clone() * y;
        let grads = z.sum().backward();
        assert_grad(
            &x,
            &grads,
            [2.5403023058681398, 12.299762464906063, 1.2341030038446654],
        );
    }
}

#[test]
fn cloned_handles_share_one_leaf() {
    // 2x + 3x' with x' a clone of x: both handles read the same gradient, 5.
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, 2.0], &device).require_grad();
        let x2 = x.clone();
        assert!(x2.is_require_grad());
        let grads = (x.clone() * 2.0 + x2.clone() * 3.0).sum().backward();
        assert_grad(&x, &grads, [5.0, 5.0]);
        assert_grad(&x2, &grads, [5.0, 5.0]);
        assert_eq!(grads.len(), 1);
    }
}

#[test]
fn second_backward_through_consumed_steps_is_refused() {
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, 2.0], &device).require_grad();
        let y = x.clone().exp();
        let loss = y.clone().sum();
        loss.backward();
        // The consumed step nearest the root names the error.
        assert_eq!(
            loss.try_backward().unwrap_err(),
            BackwardError::Consumed { op: "sum".into() }
        );
        // A fresh op on top of the consumed `exp`: its own step is there,
        // but the path to `x` is gone.
        let other = (y * 2.0).sum();
        assert_eq!(
            other.try_backward().unwrap_err(),
            BackwardError::Consumed { op: "exp".into() }
        );
    }
}

#[test]
#[should_panic(expected = "the graph through `exp` was already consumed")]
fn backward_through_a_consumed_graph_panics_naming_the_op() {
    let x = Tensor::<1>::from_data([1.0, 2.0], &device()).require_grad();
    let y = x.exp();
    y.clone().sum().backward();
    let _ = (y * 2.0).sum().backward();
}

#[test]
fn a_leaf_reused_after_backward_gets_a_fresh_gradient() {
    // First pass: d/dx Σx² = 2x. Second, fresh pass: d/dx Σ3x = 3 (not 2x + 3).
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, -2.0, 3.0], &device).require_grad();
        let first = (x.clone() * x.clone()).sum().backward();
        assert_grad(&x, &first, [2.0, -4.0, 6.0]);
        let second = (x.clone() * 3.0).sum().backward();
        assert_grad(&x, &second, [3.0, 3.0, 3.0]);
        // The first pass's gradients are unaffected.
        assert_grad(&x, &first, [2.0, -4.0, 6.0]);
    }
}

#[test]
fn backward_on_a_plain_tensor_is_not_autodiff() {
    let x = Tensor::<1>::from_data([1.0, 2.0], &plain_device());
    assert_eq!(
        x.sum().try_backward().unwrap_err(),
        BackwardError::NotAutodiff
    );
}

#[test]
#[should_panic(expected = "not an autodiff tensor")]
fn backward_on_a_plain_tensor_panics_clearly() {
    let x = Tensor::<1>::from_data([1.0, 2.0], &plain_device());
    let _ = x.sum().backward();
}

#[test]
fn backward_on_an_autodiff_constant_is_not_tracked() {
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, 2.0], &device);
        assert_eq!(
            (x * 2.0).sum().try_backward().unwrap_err(),
            BackwardError::NotTracked
        );
    }
}

#[test]
#[should_panic(expected = "require_grad: the tensor has no autodiff context")]
fn require_grad_without_autodiff_context_panics() {
    let _ = Tensor::<1>::from_data([1.0, 2.0], &plain_device()).require_grad();
}

#[test]
fn require_grad_after_autodiff_works_on_a_plain_tensor() {
    let x = Tensor::<1>::from_data([1.0, 2.0], &plain_device())
        .autodiff()
        .require_grad();
    let grads = (x.clone() * 4.0).sum().backward();
    assert_grad(&x, &grads, [4.0, 4.0]);
}

#[test]
fn detach_cuts_the_gradient() {
    // Σ detach(x) · x: the detached factor is a constant, so dx = x (not 2x).
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, -2.0, 3.0], &device).require_grad();
        let detached = x.clone().detach();
        assert_eq!(flags(&detached), (true, false, false));
        let grads = (detached.clone() * x.clone()).sum().backward();
        assert_grad(&x, &grads, [1.0, -2.0, 3.0]);
        assert_no_grad(&detached, &grads);
        // A loss built only from the detached tensor has nothing to differentiate.
        assert_eq!(
            detached.sum().try_backward().unwrap_err(),
            BackwardError::NotTracked
        );
    }
}

#[test]
fn detaching_an_intermediate_stops_its_branch_only() {
    // z = detach(x²) · x + x: dz/dx = x² + 1.
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, -2.0, 3.0], &device).require_grad();
        let square = (x.clone() * x.clone()).detach();
        let grads = (square * x.clone() + x.clone()).sum().backward();
        assert_grad(&x, &grads, [2.0, 5.0, 10.0]);
    }
}

#[test]
fn autodiff_flags_truth_table() {
    let plain = Tensor::<1>::from_data([1.0, 2.0], &plain_device());
    assert_eq!(flags(&plain), (false, false, false), "plain");

    let constant = Tensor::<1>::from_data([1.0, 2.0], &device());
    assert_eq!(flags(&constant), (true, false, false), "autodiff constant");
    assert_eq!(
        flags(&plain.clone().autodiff()),
        (true, false, false),
        "autodiff()"
    );

    let leaf = constant.clone().require_grad();
    assert_eq!(flags(&leaf), (true, true, true), "leaf");

    let result = leaf.clone() * 2.0;
    assert_eq!(
        flags(&result),
        (true, true, false),
        "result of an op on a leaf"
    );
    assert_eq!(
        flags(&(constant.clone() * 2.0)),
        (true, false, false),
        "op on constants"
    );
    assert_eq!(
        flags(&result.clone().detach()),
        (true, false, false),
        "detached"
    );
    assert_eq!(
        flags(&leaf.clone().set_require_grad(false)),
        (true, false, false),
        "set_require_grad(false)"
    );
    assert_eq!(
        flags(&leaf.clone().without_autodiff()),
        (false, false, false),
        "without_autodiff"
    );

    let grads = result.sum().backward();
    let grad = leaf.grad(&grads).unwrap();
    assert_eq!(flags(&grad), (false, false, false), "gradient");

    // Only float tensors carry the context.
    assert!(!leaf.clone().argmax(0).is_autodiff(), "int result");
    assert!(!leaf.greater_elem(1.5).is_autodiff(), "bool result");
}

#[test]
fn require_grad_on_an_op_result_makes_a_fresh_leaf() {
    // y = 2x marked as a leaf is cut from x: d/dy Σ3y = 3, and x gets nothing.
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, 2.0], &device).require_grad();
        let y = (x.clone() * 2.0).require_grad();
        assert_eq!(flags(&y), (true, true, true));
        let grads = (y.clone() * 3.0).sum().backward();
        assert_grad(&y, &grads, [3.0, 3.0]);
        assert_no_grad(&x, &grads);
    }
}

#[test]
fn int_and_bool_results_of_autodiff_tensors_work() {
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], &device).require_grad();
        x.clone()
            .argmax(1)
            .into_data()
            .assert_eq(&TensorData::from([[1], [2]]).convert::<IntElem>(), false);
        let other = Tensor::<2>::from_data([[2.0, 2.0, 2.0], [5.0, 5.0, 5.0]], &device);
        let greater = x.clone().greater(other);
        greater.to_data().assert_eq(
            &TensorData::from([[false, true, true], [false, false, true]]),
            false,
        );
        // The mask drives a differentiable op: dx = w where x > other, 0 elsewhere.
        let kept = x.clone().mask_fill(greater.bool_not(), 0.0);
        let grads = weighted_sum(kept).backward();
        assert_grad(&x, &grads, [[0.0, 2.0, 3.0], [0.0, 0.0, 6.0]]);
    }
}

#[test]
fn a_plain_tensor_mixes_with_an_autodiff_one_as_a_constant() {
    // z = p · x + x · p (plain on either side): dz/dx = 2p; p gets nothing.
    for device in devices() {
        let x = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device).require_grad();
        let p = Tensor::<1>::from_data([4.0, 5.0, 6.0], &plain_device());
        let left = p.clone() * x.clone();
        let right = x.clone() * p.clone();
        assert!(left.is_tracked() && right.is_tracked());
        let grads = (left + right).sum().backward();
        assert_grad(&x, &grads, [8.0, 10.0, 12.0]);
        assert!(!p.is_autodiff());
        assert_no_grad(&p, &grads);
    }
}

#[test]
#[should_panic(expected = "different checkpointing strategies")]
fn mixing_checkpointing_strategies_panics() {
    let balanced = device().autodiff_with_checkpointing(Checkpointing::Balanced);
    let a = Tensor::<1>::from_data([1.0], &device()).require_grad();
    let b = Tensor::<1>::from_data([2.0], &balanced).require_grad();
    let _ = a + b;
}

#[test]
fn device_equality_ignores_the_autodiff_context() {
    let autodiff = device();
    let balanced = device().autodiff_with_checkpointing(Checkpointing::Balanced);
    let plain = plain_device();
    assert_eq!(autodiff, plain);
    assert_eq!(autodiff, balanced);
    // The suites run on the default device, except through the router and
    // on a remote device, which are asked for by name.
    if !cfg!(any(feature = "router", feature = "remote")) {
        assert_eq!(Device::default(), autodiff);
    }
    assert!(autodiff.is_autodiff() && balanced.is_autodiff() && !plain.is_autodiff());
    assert_eq!(autodiff.checkpointing(), Some(Checkpointing::None));
    assert_eq!(balanced.checkpointing(), Some(Checkpointing::Balanced));
    assert_eq!(plain.checkpointing(), None);
    let x = Tensor::<1>::from_data([1.0], &autodiff);
    assert_eq!(x.device(), plain);
}

#[test]
fn gradients_hold_only_the_leaves_reached() {
    for device in devices() {
        let a = Tensor::<1>::from_data([1.0, 2.0], &device).require_grad();
        let b = Tensor::<1>::from_data([3.0, 4.0], &device).require_grad();
        let unused = Tensor::<1>::from_data([5.0, 6.0], &device).require_grad();
        let product = a.clone() * b.clone();
        let mut grads = product.clone().sum().backward();
        assert_eq!(grads.len(), 2);
        assert_no_grad(&unused, &grads);
        // An intermediate is not a leaf: its gradient is not kept.
        assert!(product.grad(&grads).is_none());
        assert_grad(&a, &grads, [3.0, 4.0]);
        assert_grad(&b, &grads, [1.0, 2.0]);

        let taken = a.grad_remove(&mut grads).unwrap();
        assert_values(taken, [3.0, 4.0]);
        assert!(a.grad(&grads).is_none());
        assert_eq!(grads.len(), 1);

        a.grad_replace(&mut grads, Tensor::from_data([9.0, 9.0], &plain_device()));
        assert_grad(&a, &grads, [9.0, 9.0]);
        assert_eq!(grads.len(), 2);
    }
}

#[test]
fn backward_from_a_non_scalar_seeds_with_ones() {
    // y = 3x of shape [2, 2]: seeded with ones, dx = 3 everywhere.
    for device in devices() {
        let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device).require_grad();
        let grads = (x.clone() * 3.0).backward();
        assert_grad(&x, &grads, [[3.0, 3.0], [3.0, 3.0]]);
    }
}
