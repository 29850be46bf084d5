//! The backward kernels of pooling and interpolation are linear in the
//! output gradient, and `Autodiff` differentiates them too: the derivative
//! of `sum(w * backward(x, g))` with respect to `g` is the forward op applied
//! to `w` (the adjoint of the adjoint). Worked by hand on a 4x4 plane
//! holding `w = 0, 1, …, 15` row by row.

use burn_autodiff::{Autodiff, NoCheckpointing};
use burn_backend::{
    AutodiffBackend, FloatTensor, FloatTensorOps, InterpolateMode, InterpolateOptions, ModuleOps,
};
use burn_flex::{Flex, FlexDevice};
use burn_std::{Shape, TensorData};

type Ad = Autodiff<Flex, NoCheckpointing>;

fn plane(values: &[f32], side: usize) -> FloatTensor<Ad> {
    let data = TensorData::new(values.to_vec(), Shape::from(vec![1, 1, side, side]));
    Ad::float_from_data(data, &FlexDevice)
}

fn ramp16() -> Vec<f32> {
    (0..16).map(|v| v as f32).collect()
}

/// `d/dg sum(w * y)` where `y` was computed from the tracked `g`.
fn grad_of_weighted(g: &FloatTensor<Ad>, y: FloatTensor<Ad>, w: &[f32], side: usize) -> Vec<f32> {
    let loss = Ad::float_sum(Ad::float_mul(y, plane(w, side)));
    let grads = Ad::backward(loss).unwrap();
    let grad = Ad::grad(g, &grads).expect("the gradient input is tracked");
    Flex::float_into_data(grad)
        .unwrap()
        .into_vec::<f32>()
        .unwrap()
}

#[test]
fn avg_pool2d_backward_is_differentiable() {
    let x = plane(&[0.0; 16], 4);
    let g = Ad::float_set_require_grad(plane(&[1.0, 2.0, 3.0, 4.0], 2), true);
    let y = Ad::avg_pool2d_backward(x, g.clone(), [2, 2], [2, 2], [0, 0], true, false);
    // d/dg = avg_pool2d(w): window means of the ramp.
    assert_eq!(
        grad_of_weighted(&g, y, &ramp16(), 4),
        [2.5, 4.5, 10.5, 12.5]
    );
}

#[test]
fn adaptive_avg_pool2d_backward_is_differentiable() {
    let x = plane(&[0.0; 16], 4);
    let g = Ad::float_set_require_grad(plane(&[1.0, 2.0, 3.0, 4.0], 2), true);
    let y = Ad::adaptive_avg_pool2d_backward(x, g.clone());
    assert_eq!(
        grad_of_weighted(&g, y, &ramp16(), 4),
        [2.5, 4.5, 10.5, 12.5]
    );
}

#[test]
fn max_pool2d_backward_is_differentiable() {
    let x = plane(&ramp16(), 4);
    let (_, indices) =
        Ad::max_pool2d_with_indices(x.clone(), [2, 2], [2, 2], [0, 0], [1, 1], false);
    let g = Ad::float_set_require_grad(plane(&[1.0, 2.0, 3.0, 4.0], 2), true);
    let y = Ad::max_pool2d_with_indices_backward(
        x,
        [2, 2],
        [2, 2],
        [0, 0],
        [1, 1],
        false,
        g.clone(),
        indices,
    );
    // d/dg = w at the argmax of each window (5, 7, 13, 15).
    assert_eq!(
        grad_of_weighted(&g, y, &ramp16(), 4),
        [5.0, 7.0, 13.0, 15.0]
    );
}

#[test]
fn interpolate_backward_is_differentiable() {
    let options = InterpolateOptions::new(InterpolateMode::Nearest);
    let x = plane(&[0.0; 4], 2);
    let g = Ad::float_set_require_grad(plane(&ramp16(), 4), true);
    let y = Ad::interpolate_backward(x, g.clone(), [4, 4], options);
    // d/dg = interpolate(w): each of the 2x2 weights repeated over a 2x2 block.
    let want = [
        0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 2.0, 2.0, 3.0, 3.0,
    ];
    assert_eq!(grad_of_weighted(&g, y, &[0.0, 1.0, 2.0, 3.0], 2), want);
}
