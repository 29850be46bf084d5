//! avg_pool1d and avg_pool2d against PyTorch (tests/reference/module_ops.py,
//! data in `data/avg_pool.rs`): padding and `ceil_mode`, each with the
//! padding counted in the divisor (`count_include_pad`) and without, and an
//! input read through a transposed view.

use burn::tensor::module::{avg_pool1d, avg_pool2d};

use super::data::Pool;
use super::data::avg_pool::*;
use super::support::*;

#[track_caller]
fn check_1d(case: &Pool) {
    let x = input::<3>(case.x, case.transposed);
    let [k, s, p] = [case.kernel, case.stride, case.padding].map(|o| o[0]);
    let y = avg_pool1d(x, k, s, p, case.count_include_pad, case.ceil_mode);
    assert_output(y, case.shape, case.output);
}

#[track_caller]
fn check_2d(case: &Pool) {
    let x = input::<4>(case.x, case.transposed);
    let [k, s, p] = [case.kernel, case.stride, case.padding].map(arr::<2>);
    let y = avg_pool2d(x, k, s, p, case.count_include_pad, case.ceil_mode);
    assert_output(y, case.shape, case.output);
}

#[test]
fn avg_pool1d_with_padding_counted() {
    check_1d(&AVG_POOL1D_PADDING_INCLUDE_PAD);
}

#[test]
fn avg_pool1d_with_padding_not_counted() {
    check_1d(&AVG_POOL1D_PADDING_EXCLUDE_PAD);
}

#[test]
fn avg_pool1d_with_ceil_mode_padding_counted() {
    check_1d(&AVG_POOL1D_CEIL_INCLUDE_PAD);
}

#[test]
fn avg_pool1d_with_ceil_mode_padding_not_counted() {
    check_1d(&AVG_POOL1D_CEIL_EXCLUDE_PAD);
}

#[test]
fn avg_pool2d_with_padding_counted() {
    check_2d(&AVG_POOL2D_PADDING_INCLUDE_PAD);
}

#[test]
fn avg_pool2d_with_padding_not_counted() {
    check_2d(&AVG_POOL2D_PADDING_EXCLUDE_PAD);
}

#[test]
fn avg_pool2d_with_ceil_mode_padding_counted() {
    check_2d(&AVG_POOL2D_CEIL_INCLUDE_PAD);
}

#[test]
fn avg_pool2d_with_ceil_mode_padding_not_counted() {
    check_2d(&AVG_POOL2D_CEIL_EXCLUDE_PAD);
}

#[test]
fn avg_pool2d_of_a_transposed_input() {
    check_2d(&AVG_POOL2D_TRANSPOSED_INPUT);
}
