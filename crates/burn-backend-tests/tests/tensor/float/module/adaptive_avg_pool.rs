//! adaptive_avg_pool1d and adaptive_avg_pool2d against PyTorch
//! (tests/reference/module_ops.py, data in `data/adaptive_avg_pool.rs`):
//! output sizes that do not divide the input, smaller and larger than it.

use burn::tensor::module::{adaptive_avg_pool1d, adaptive_avg_pool2d};

use super::data::Adaptive;
use super::data::adaptive_avg_pool::*;
use super::support::*;

#[track_caller]
fn check_1d(case: &Adaptive) {
    let y = adaptive_avg_pool1d(input(case.x, false), case.size[0]);
    assert_output(y, case.shape, case.output);
}

#[track_caller]
fn check_2d(case: &Adaptive) {
    let y = adaptive_avg_pool2d(input(case.x, false), arr(case.size));
    assert_output(y, case.shape, case.output);
}

#[test]
fn adaptive_avg_pool1d_to_a_smaller_size() {
    check_1d(&ADAPTIVE_AVG_POOL1D_DOWN);
}

#[test]
fn adaptive_avg_pool1d_to_a_larger_size() {
    check_1d(&ADAPTIVE_AVG_POOL1D_UP);
}

#[test]
fn adaptive_avg_pool2d_to_a_smaller_size() {
    check_2d(&ADAPTIVE_AVG_POOL2D_DOWN);
}

#[test]
fn adaptive_avg_pool2d_larger_on_one_axis_smaller_on_the_other() {
    check_2d(&ADAPTIVE_AVG_POOL2D_MIXED);
}
