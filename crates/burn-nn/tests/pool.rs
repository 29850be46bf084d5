//! Pooling and interpolation layers: each forward pass against values worked
//! by hand on a 4x4 ramp, the configs' defaults and JSON round trip, padding
//! resolution, and the scale-factor sizes of the interpolation layers. The
//! kernels themselves are checked against PyTorch in burn-backend-tests
//! (`tests/autodiff/module_ops.rs`).

mod common;

use burn_core::config::Config;
use burn_core::module::Module;
use burn_core::tensor::Tensor;
use burn_nn::*;
use common::*;

/// `[1, 1, 4, 4]` holding 0, 1, …, 15 row by row.
fn ramp() -> Tensor<4> {
    let values: Vec<f32> = (0..16).map(|v| v as f32).collect();
    tensor(&values, [1, 1, 4, 4], &device())
}

#[test]
fn max_pool2d_takes_window_maxima() {
    // 2x2 windows, stride 2: the bottom-right element of each.
    let pool = MaxPool2dConfig::new([2, 2]).with_strides([2, 2]).init();
    assert_close(pool.forward(ramp()), &[5.0, 7.0, 13.0, 15.0], "max_pool2d");
    // `Same` padding keeps 4x4; a padded border never wins.
    let pool = MaxPool2dConfig::new([3, 3])
        .with_padding(PaddingConfig2d::Same)
        .init();
    let y = pool.forward(ramp());
    assert_eq!(y.dims(), [1, 1, 4, 4]);
    assert_close(
        y,
        &[
            5., 6., 7., 7., 9., 10., 11., 11., 13., 14., 15., 15., 13., 14., 15., 15.,
        ],
        "max_pool2d same",
    );
}

#[test]
fn avg_pool2d_counts_padding_as_configured() {
    // Corner window of a 2x2 kernel with padding 1 covers only element 0.
    let config = AvgPool2dConfig::new([2, 2])
        .with_strides([2, 2])
        .with_padding(PaddingConfig2d::Explicit(1, 1));
    let y = config.init().forward(ramp());
    assert_eq!(y.dims(), [1, 1, 3, 3]);
    // Including the padding: (0 + 0 + 0 + 0) / 4 and (1 + 2) / 4 at the top.
    let with_pad = values(y);
    assert_eq!(&with_pad[..3], &[0.0, 0.75, 0.75]);
    let y = config.with_count_include_pad(false).init().forward(ramp());
    // Without it: 0 / 1 and (1 + 2) / 2.
    assert_eq!(&values(y)[..3], &[0.0, 1.5, 3.0]);
}

#[test]
fn one_d_pools_run_along_the_length() {
    let x = tensor(&[1.0, 5.0, 2.0, 4.0, 3.0, 0.0], [1, 1, 6], &device());
    let max = MaxPool1dConfig::new(2).with_stride(2).init();
    assert_close(max.forward(x.clone()), &[5.0, 4.0, 3.0], "max_pool1d");
    let avg = AvgPool1dConfig::new(3).with_stride(3).init();
    assert_close(
        avg.forward(x.clone()),
        &[8.0 / 3.0, 7.0 / 3.0],
        "avg_pool1d",
    );
    let adaptive = AdaptiveAvgPool1dConfig::new(2).init();
    assert_close(
        adaptive.forward(x),
        &[8.0 / 3.0, 7.0 / 3.0],
        "adaptive_avg_pool1d",
    );
}

#[test]
fn adaptive_avg_pool2d_averages_cells() {
    let pool = AdaptiveAvgPool2dConfig::new([1, 2]).init();
    // Left half: mean of columns 0-1, right half: columns 2-3.
    assert_close(pool.forward(ramp()), &[6.5, 8.5], "adaptive_avg_pool2d");
}

#[test]
fn interpolate_layers_follow_size_or_scale() {
    let up = Interpolate2dConfig::new()
        .with_scale_factor(Some([2.0, 0.5]))
        .init();
    let y = up.forward(ramp());
    assert_eq!(y.dims(), [1, 1, 8, 2]);
    // Nearest: rows repeat, every other column.
    assert_close(
        y,
        &[
            0., 2., 0., 2., 4., 6., 4., 6., 8., 10., 8., 10., 12., 14., 12., 14.,
        ],
        "nearest 2x0.5",
    );
    let linear = Interpolate2dConfig::new()
        .with_output_size(Some([1, 7]))
        .with_mode(InterpolateMode::Linear)
        .with_align_corners(true)
        .init();
    // Aligned corners on a 4-wide row: steps of 0.5 from 0 to 3 (row 0 of 4
    // rows aligned to a single row is row 0).
    assert_close(
        linear.forward(ramp()),
        &[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0],
        "bilinear aligned",
    );
    let x = tensor(&[0.0, 2.0, 4.0], [1, 1, 3], &device());
    let one_d = Interpolate1dConfig::new()
        .with_output_size(Some(5))
        .with_mode(InterpolateMode::Linear)
        .with_align_corners(true)
        .init();
    assert_close(one_d.forward(x), &[0.0, 1.0, 2.0, 3.0, 4.0], "linear 1d");
}

#[test]
#[should_panic(expected = "set output_size or scale_factor")]
fn interpolate_needs_a_size() {
    let _ = Interpolate2dConfig::new().init();
}

#[test]
#[should_panic(expected = "MaxPool2d: `Same` padding needs stride 1")]
fn same_padding_needs_stride_one() {
    let pool = MaxPool2dConfig::new([3, 3])
        .with_strides([2, 2])
        .with_padding(PaddingConfig2d::Same)
        .init();
    let _ = pool.forward(ramp());
}

#[test]
fn configs_default_and_round_trip() {
    let config = MaxPool2dConfig::new([3, 3]);
    assert_eq!(config.strides, [1, 1]);
    assert_eq!(config.padding, PaddingConfig2d::Valid);
    assert_eq!(config.dilation, [1, 1]);
    assert!(!config.ceil_mode);
    let config = AvgPool2dConfig::new([2, 2]).with_padding(PaddingConfig2d::Explicit(1, 0));
    assert!(config.count_include_pad);
    let back = AvgPool2dConfig::from_json(&config.to_json()).unwrap();
    assert_eq!(back.padding, PaddingConfig2d::Explicit(1, 0));
    let config = Interpolate2dConfig::new().with_mode(InterpolateMode::Cubic);
    let back = Interpolate2dConfig::from_json(&config.to_json()).unwrap();
    assert_eq!(back.mode, InterpolateMode::Cubic);
    // Pooling layers hold no parameters.
    assert_eq!(MaxPool2dConfig::new([2, 2]).init().num_params(), 0);
}

#[test]
fn pooling_layers_pass_gradients() {
    let x = leaf(&(0..16).map(|v| v as f32).collect::<Vec<_>>(), [1, 1, 4, 4]);
    let pool = MaxPool2dConfig::new([2, 2]).with_strides([2, 2]).init();
    let grads = pool.forward(x.clone()).sum().backward();
    // d/dx of the sum of window maxima: 1 at each window's maximum.
    assert_close(
        x.grad(&grads).unwrap(),
        &[
            0., 0., 0., 0., 0., 1., 0., 1., 0., 0., 0., 0., 0., 1., 0., 1.,
        ],
        "max_pool2d dx",
    );
}
