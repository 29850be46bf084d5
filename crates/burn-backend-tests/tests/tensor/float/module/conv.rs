//! conv1d, conv2d and conv3d against PyTorch (tests/reference/module_ops.py,
//! data in `data/conv.rs`): stride, padding, dilation, groups (depthwise
//! too), with and without bias, and an input read through a transposed view.

use burn::tensor::module::{ConvOptions, conv1d, conv2d, conv3d};

use super::data::Conv;
use super::data::conv::*;
use super::support::*;
use crate::common::*;

fn options<const N: usize>(case: &Conv) -> ConvOptions<N> {
    ConvOptions::new(
        arr(case.stride),
        arr(case.padding),
        arr(case.dilation),
        case.groups,
    )
}

/// The weight (scale 1/8) and, when the case has one, the bias (scale 1/4).
fn weight_and_bias<const D: usize>(case: &Conv) -> (Tensor<D>, Option<Tensor<1>>) {
    let weight = ramp(case.weight, 0.125);
    let bias = case.bias.then(|| ramp(&[case.shape[1]], 0.25));
    (weight, bias)
}

#[track_caller]
fn check_conv1d(case: &Conv) {
    let (weight, bias) = weight_and_bias(case);
    let y = conv1d(input(case.x, case.transposed), weight, bias, options(case));
    assert_output(y, case.shape, case.output);
}

#[track_caller]
fn check_conv2d(case: &Conv) {
    let (weight, bias) = weight_and_bias(case);
    let y = conv2d(input(case.x, case.transposed), weight, bias, options(case));
    assert_output(y, case.shape, case.output);
}

#[track_caller]
fn check_conv3d(case: &Conv) {
    let (weight, bias) = weight_and_bias(case);
    let y = conv3d(input(case.x, case.transposed), weight, bias, options(case));
    assert_output(y, case.shape, case.output);
}

#[test]
fn conv1d_with_bias() {
    check_conv1d(&CONV1D_BIAS);
}

#[test]
fn conv1d_with_stride_padding_and_dilation() {
    check_conv1d(&CONV1D_STRIDE_PADDING_DILATION);
}

#[test]
fn conv1d_with_groups() {
    check_conv1d(&CONV1D_GROUPS);
}

#[test]
fn conv2d_with_padding_and_bias() {
    check_conv2d(&CONV2D_PADDING_BIAS);
}

#[test]
fn conv2d_with_stride_and_dilation() {
    check_conv2d(&CONV2D_STRIDE_DILATION);
}

#[test]
fn conv2d_with_groups_and_stride() {
    check_conv2d(&CONV2D_GROUPS_STRIDE);
}

#[test]
fn conv2d_depthwise() {
    check_conv2d(&CONV2D_DEPTHWISE);
}

#[test]
fn conv2d_of_a_transposed_input() {
    check_conv2d(&CONV2D_TRANSPOSED_INPUT);
}

#[test]
fn conv3d_with_padding_and_bias() {
    check_conv3d(&CONV3D_PADDING_BIAS);
}

#[test]
fn conv3d_with_stride_dilation_and_groups() {
    check_conv3d(&CONV3D_STRIDE_DILATION_GROUPS);
}
