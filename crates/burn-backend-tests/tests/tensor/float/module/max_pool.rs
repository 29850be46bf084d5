//! max_pool1d and max_pool2d against PyTorch (tests/reference/module_ops.py,
//! data in `data/max_pool.rs`): values and the indices of the maxima, with
//! padding, stride, dilation, `ceil_mode`, and an input read through a
//! transposed view. The inputs have no ties within a plane, so the indices
//! are unique.

use burn::tensor::module::{
    max_pool1d, max_pool1d_with_indices, max_pool2d, max_pool2d_with_indices,
};

use super::data::Pool;
use super::data::max_pool::*;
use super::support::*;

/// Both forms of the op: the values alone, and the values with indices.
#[track_caller]
fn check_1d(case: &Pool) {
    let x = input::<3>(case.x, case.transposed);
    let [k, s, p, d] = [case.kernel, case.stride, case.padding, case.dilation].map(|o| o[0]);
    let y = max_pool1d(x.clone(), k, s, p, d, case.ceil_mode);
    assert_output(y, case.shape, case.output);
    let (y, indices) = max_pool1d_with_indices(x, k, s, p, d, case.ceil_mode);
    assert_output(y, case.shape, case.output);
    assert_indices(indices, case.shape, case.indices);
}

#[track_caller]
fn check_2d(case: &Pool) {
    let x = input::<4>(case.x, case.transposed);
    let [k, s, p, d] = [case.kernel, case.stride, case.padding, case.dilation].map(arr::<2>);
    let y = max_pool2d(x.clone(), k, s, p, d, case.ceil_mode);
    assert_output(y, case.shape, case.output);
    let (y, indices) = max_pool2d_with_indices(x, k, s, p, d, case.ceil_mode);
    assert_output(y, case.shape, case.output);
    assert_indices(indices, case.shape, case.indices);
}

#[test]
fn max_pool1d_with_padding() {
    check_1d(&MAX_POOL1D_PADDING);
}

#[test]
fn max_pool1d_with_ceil_mode() {
    check_1d(&MAX_POOL1D_CEIL);
}

#[test]
fn max_pool1d_with_dilation_ceil_mode_and_padding() {
    check_1d(&MAX_POOL1D_DILATION_CEIL_PADDING);
}

#[test]
fn max_pool2d_with_padding() {
    check_2d(&MAX_POOL2D_PADDING);
}

#[test]
fn max_pool2d_with_stride_and_dilation() {
    check_2d(&MAX_POOL2D_STRIDE_DILATION);
}

#[test]
fn max_pool2d_with_ceil_mode_and_padding() {
    check_2d(&MAX_POOL2D_CEIL_PADDING);
}

#[test]
fn max_pool2d_of_a_transposed_input() {
    check_2d(&MAX_POOL2D_TRANSPOSED_INPUT);
}
