//! conv_transpose1d, conv_transpose2d and conv_transpose3d against PyTorch
//! (tests/reference/module_ops.py, data in `data/conv_transpose.rs`):
//! stride with output padding, padding, dilation, groups, with and without
//! bias.

use burn::tensor::module::{
    ConvTransposeOptions, conv_transpose1d, conv_transpose2d, conv_transpose3d,
};

use super::data::Conv;
use super::data::conv_transpose::*;
use super::support::*;
use crate::common::*;

fn options<const N: usize>(case: &Conv) -> ConvTransposeOptions<N> {
    ConvTransposeOptions::new(
        arr(case.stride),
        arr(case.padding),
        arr(case.padding_out),
        arr(case.dilation),
        case.groups,
    )
}

/// The weight `[in, out / groups, ..kernel]` (scale 1/8) and, when the case
/// has one, the bias of the output channels (scale 1/4).
fn weight_and_bias<const D: usize>(case: &Conv) -> (Tensor<D>, Option<Tensor<1>>) {
    let weight = ramp(case.weight, 0.125);
    let bias = case.bias.then(|| ramp(&[case.shape[1]], 0.25));
    (weight, bias)
}

#[track_caller]
fn check_1d(case: &Conv) {
    let (weight, bias) = weight_and_bias(case);
    let y = conv_transpose1d(input(case.x, case.transposed), weight, bias, options(case));
    assert_output(y, case.shape, case.output);
}

#[track_caller]
fn check_2d(case: &Conv) {
    let (weight, bias) = weight_and_bias(case);
    let y = conv_transpose2d(input(case.x, case.transposed), weight, bias, options(case));
    assert_output(y, case.shape, case.output);
}

#[track_caller]
fn check_3d(case: &Conv) {
    let (weight, bias) = weight_and_bias(case);
    let y = conv_transpose3d(input(case.x, case.transposed), weight, bias, options(case));
    assert_output(y, case.shape, case.output);
}

#[test]
fn conv_transpose1d_with_stride_padding_and_output_padding() {
    check_1d(&CONV_TRANSPOSE1D_STRIDE_PADDING_OUT);
}

#[test]
fn conv_transpose1d_with_groups_and_dilation() {
    check_1d(&CONV_TRANSPOSE1D_GROUPS_DILATION);
}

#[test]
fn conv_transpose2d_with_bias() {
    check_2d(&CONV_TRANSPOSE2D_BIAS);
}

#[test]
fn conv_transpose2d_with_stride_padding_and_output_padding() {
    check_2d(&CONV_TRANSPOSE2D_STRIDE_PADDING_OUT);
}

#[test]
fn conv_transpose2d_with_groups_and_dilation() {
    check_2d(&CONV_TRANSPOSE2D_GROUPS_DILATION);
}

#[test]
fn conv_transpose3d_with_stride_padding_and_output_padding() {
    check_3d(&CONV_TRANSPOSE3D_STRIDE_PADDING_OUT);
}

#[test]
fn conv_transpose3d_with_groups_and_dilation() {
    check_3d(&CONV_TRANSPOSE3D_GROUPS_DILATION);
}
