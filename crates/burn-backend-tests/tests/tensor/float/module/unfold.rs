//! unfold4d against PyTorch's `F.unfold` (tests/reference/module_ops.py,
//! data in `data/unfold.rs`): a plain 2×2 kernel, then stride, padding and
//! dilation together.

use burn::tensor::module::{UnfoldOptions, unfold4d};

use super::data::Unfold;
use super::data::unfold::*;
use super::support::*;

#[track_caller]
fn check(case: &Unfold) {
    let options = UnfoldOptions::new(case.stride, case.padding, case.dilation);
    let y = unfold4d(input(case.x, false), case.kernel, options);
    assert_output(y, case.shape, case.output);
}

#[test]
fn unfold4d_with_a_2x2_kernel() {
    check(&UNFOLD_KERNEL_2X2);
}

#[test]
fn unfold4d_with_stride_padding_and_dilation() {
    check(&UNFOLD_STRIDE_PADDING_DILATION);
}
