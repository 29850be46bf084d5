//! interpolate against PyTorch's `F.interpolate` (tests/reference/module_ops.py,
//! data in `data/interpolate.rs`): nearest, bilinear and bicubic, each up
//! and down in size, the last two with `align_corners` off and on, and an
//! input read through a transposed view.

use burn::tensor::module::{InterpolateMode, InterpolateOptions, interpolate};

use super::data::Interpolate;
use super::data::interpolate::*;
use super::support::*;

#[track_caller]
fn check(case: &Interpolate) {
    let mode = match case.mode {
        "nearest" => InterpolateMode::Nearest,
        "bilinear" => InterpolateMode::Bilinear,
        "bicubic" => InterpolateMode::Bicubic,
        other => panic!("unknown interpolation mode {other:?}"),
    };
    let options = InterpolateOptions::new(mode).with_align_corners(case.align_corners);
    let y = interpolate(input(case.x, case.transposed), case.size, options);
    assert_output(y, case.shape, case.output);
}

#[test]
fn interpolate_nearest_up() {
    check(&INTERPOLATE_NEAREST_UP);
}

#[test]
fn interpolate_nearest_down() {
    check(&INTERPOLATE_NEAREST_DOWN);
}

#[test]
fn interpolate_bilinear_up() {
    check(&INTERPOLATE_BILINEAR_UP);
}

#[test]
fn interpolate_bilinear_down() {
    check(&INTERPOLATE_BILINEAR_DOWN);
}

#[test]
fn interpolate_bilinear_align_corners_up() {
    check(&INTERPOLATE_BILINEAR_ALIGN_CORNERS_UP);
}

#[test]
fn interpolate_bilinear_align_corners_down() {
    check(&INTERPOLATE_BILINEAR_ALIGN_CORNERS_DOWN);
}

#[test]
fn interpolate_bilinear_of_a_transposed_input() {
    check(&INTERPOLATE_BILINEAR_TRANSPOSED_INPUT);
}

#[test]
fn interpolate_bicubic_up() {
    check(&INTERPOLATE_BICUBIC_UP);
}

#[test]
fn interpolate_bicubic_down() {
    check(&INTERPOLATE_BICUBIC_DOWN);
}

#[test]
fn interpolate_bicubic_align_corners_up() {
    check(&INTERPOLATE_BICUBIC_ALIGN_CORNERS_UP);
}

#[test]
fn interpolate_bicubic_align_corners_down() {
    check(&INTERPOLATE_BICUBIC_ALIGN_CORNERS_DOWN);
}
