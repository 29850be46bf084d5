//! filter2d, box and median blur and their augmentations, colour
//! conversion, affine transforms and PNG saving, against SciPy /
//! scikit-image / torch (`reference/filters.json`).

mod common;

use burn_tensor::Tensor;
use burn_vision::utils::BatchDisplayOpts;
use burn_vision::utils::{
    ColorDisplayOpts, ImageDimOrder, TensorDisplayOptions, save_tensor_as_image,
};
use burn_vision::{
    BorderType, BoxBlurConfig, ColorConversion, GridSamplePaddingMode, MedianBlurConfig, PadMode,
    Size, Transform2D, box_blur, filter2d, filter2d_with, median,
};
use common::*;

fn image() -> Tensor<4> {
    let r = reference("filters");
    float_tensor::<4>(floats(&r["image"]), &dims(&r["shape"]))
}

#[test]
fn filter2d_equals_scipy_correlate_for_every_border() {
    let r = reference("filters");
    let kernel = float_tensor::<2>(floats(&r["kernel"]), &dims(&r["kernel_shape"]));
    for (name, border) in [
        ("constant", BorderType::Constant),
        ("replicate", BorderType::Replicate),
        ("reflect", BorderType::Reflect),
        ("reflect101", BorderType::Reflect101),
        ("wrap", BorderType::Wrap),
    ] {
        let got = host_floats(filter2d_with(image(), kernel.clone(), None, border, 0.0));
        let err = abs_err(&got, &floats(&r["correlate"][name]));
        assert!(err < 1e-4, "{name}: {err}");
    }
}

#[test]
fn filter2d_equals_scipy_correlate_for_every_pad_mode() {
    let r = reference("filters");
    let kernel = float_tensor::<2>(floats(&r["kernel"]), &dims(&r["kernel_shape"]));
    for (name, mode) in [
        ("constant_0.25", PadMode::Constant(0.25)),
        ("reflect", PadMode::Reflect),
        ("edge", PadMode::Edge),
    ] {
        let got = host_floats(filter2d(image(), kernel.clone(), mode));
        let err = abs_err(&got, &floats(&r["filter2d_padmode"][name]));
        assert!(err < 1e-4, "{name}: {err}");
    }
}

#[test]
fn box_and_median_blur_equal_scipy() {
    let r = reference("filters");
    let got = host_floats(box_blur(image(), Size::new(5, 3), BorderType::Reflect101));
    assert!(abs_err(&got, &floats(&r["box3x5_reflect101"])) < 1e-5);
    for k in [3usize, 5] {
        let got = host_floats(median(image(), k));
        assert_eq!(got.len(), 2 * 2 * 7 * 8);
        assert!(
            abs_err(&got, &floats(&r["median_nearest"][k.to_string()])) < 1e-6,
            "k {k}"
        );
    }
}

#[test]
fn median_of_int_images_equals_scipy() {
    let r = reference("filters");
    let img = int_tensor::<4>(ints(&r["int_image"]), &[2, 2, 7, 8]);
    let dtype = img.dtype();
    let out = median(img, 3);
    assert_eq!(out.dtype(), dtype);
    assert_eq!(host_ints(out), ints(&r["median_int3_nearest"]));
}

#[test]
fn blur_augmentations_follow_their_probability() {
    let r = reference("filters");
    let box3 = floats(&r["box3_mirror"]);
    let med3 = floats(&r["median_nearest"]["3"]);
    let always = BoxBlurConfig::new().init(&device()).with_seed(1);
    for _ in 0..3 {
        assert!(abs_err(&host_floats(always.forward(image())), &box3) < 1e-5);
    }
    let never = BoxBlurConfig::new()
        .with_probability(0.0)
        .init(&device())
        .with_seed(1);
    for _ in 0..3 {
        assert_eq!(host_floats(never.forward(image())), host_floats(image()));
    }
    assert!(abs_err(&host_floats(never.apply(image())), &box3) < 1e-5);

    let always = MedianBlurConfig::new().init().with_seed(2);
    assert!(abs_err(&host_floats(always.forward(image())), &med3) < 1e-6);
    let never = MedianBlurConfig::new().with_probability(0.0).init();
    assert_eq!(host_floats(never.forward(image())), host_floats(image()));
    let int_img = || int_tensor::<4>(ints(&r["int_image"]), &[2, 2, 7, 8]);
    assert_eq!(
        host_ints(always.forward(int_img())),
        ints(&r["median_int3_nearest"])
    );
    assert_eq!(host_ints(never.forward(int_img())), ints(&r["int_image"]));

    // Probability 1/2 with a seed: both outcomes occur, and the same seed
    // repeats the same sequence.
    let seq = |seed| {
        let blur = MedianBlurConfig::new()
            .with_probability(0.5)
            .init()
            .with_seed(seed);
        (0..16)
            .map(|_| host_floats(blur.forward(image())) != host_floats(image()))
            .collect::<Vec<_>>()
    };
    let a = seq(7);
    assert!(a.contains(&true) && a.contains(&false), "{a:?}");
    assert_eq!(a, seq(7));

    // to_device keeps the blur working.
    let mut moved = BoxBlurConfig::new().with_kernel_size(3).init(&device());
    moved.to_device(&device());
    assert!(abs_err(&host_floats(moved.apply(image())), &box3) < 1e-5);
}

#[test]
fn colour_conversions_equal_references() {
    let r = reference("filters");
    let rgb = float_tensor::<4>(floats(&r["rgb"]), &[2, 3, 5, 6]);
    let gray = rgb.clone().rgb2gray();
    assert_eq!(gray.dims(), [2, 1, 5, 6]);
    assert!(abs_err(&host_floats(gray), &floats(&r["gray"])) < 1e-5);
    let hsv = rgb.clone().rgb2hsv();
    assert!(abs_err(&host_floats(hsv.clone()), &floats(&r["hsv"])) < 1e-5);
    let back = hsv.hsv2rgb();
    assert!(abs_err(&host_floats(back), &floats(&r["rgb"])) < 1e-5);
    let grey = float_tensor::<4>(floats(&r["gray_in"]), &[2, 1, 5, 6]);
    let rgb = grey.gray2rgb();
    assert_eq!(rgb.dims(), [2, 3, 5, 6]);
    assert!(abs_err(&host_floats(rgb), &floats(&r["gray2rgb"])) < 1e-6);
}

#[test]
fn affine_transform_equals_torch_grid_sample() {
    let r = reference("filters");
    let t: Vec<Vec<f64>> = r["affine_theta"]
        .as_array()
        .unwrap()
        .iter()
        .map(floats)
        .collect();
    let m = [
        [t[0][0] as f32, t[0][1] as f32, t[0][2] as f32],
        [t[1][0] as f32, t[1][1] as f32, t[1][2] as f32],
    ];
    let got = host_floats(Transform2D::from_matrix(m).transform(image()));
    assert!(abs_err(&got, &floats(&r["affine_border"])) < 1e-5);
    let got = host_floats(
        Transform2D::from_matrix(m)
            .with_padding_mode(GridSamplePaddingMode::Zeros)
            .transform(image()),
    );
    assert!(abs_err(&got, &floats(&r["affine_zeros"])) < 1e-5);
    let got = host_floats(
        Transform2D::from_matrix(m)
            .with_padding_mode(GridSamplePaddingMode::Reflection)
            .transform(image()),
    );
    assert!(abs_err(&got, &floats(&r["affine_reflection"])) < 1e-5);
}

#[test]
fn transform_constructors_compose() {
    let id = host_floats(Transform2D::identity().transform(image()));
    assert!(abs_err(&id, &host_floats(image())) < 1e-6);
    // A full turn is the identity; two half turns too.
    let turn = Transform2D::rotation(std::f32::consts::TAU, 0.0, 0.0).transform(image());
    assert!(abs_err(&host_floats(turn), &id) < 1e-4);
    let half = Transform2D::rotation(std::f32::consts::PI, 0.0, 0.0);
    let twice = Transform2D::composed([half, half]).transform(image());
    assert!(abs_err(&host_floats(twice), &id) < 1e-4);
    // A half turn about the centre flips both axes exactly.
    let flipped = host_floats(half.transform(image()));
    let expected = host_floats(image().flip([2, 3]));
    assert!(abs_err(&flipped, &expected) < 1e-5);
    let m = Transform2D::composed([
        Transform2D::translation(0.5, 0.0),
        Transform2D::scale(2.0, 1.0, 0.0, 0.0),
    ])
    .matrix();
    assert_eq!(m, [[2.0, 0.0, 1.0], [0.0, 1.0, 0.0]]);
    assert_eq!(
        Transform2D::shear(0.5, 0.0, 0.0, 0.0).matrix(),
        [[1.0, 0.5, 0.0], [0.0, 1.0, 0.0]]
    );
}

#[test]
fn saves_png() {
    let dir = std::env::temp_dir().join(format!("burn-vision-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("batch.png");
    let opts = TensorDisplayOptions {
        dim_order: ImageDimOrder::Nchw,
        color_opts: ColorDisplayOpts::Rgb,
        batch_opts: None,
        width_out: 16,
        height_out: 7,
    };
    save_tensor_as_image(image(), opts, &path).unwrap();
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (16, 7));
    // Tiled: one 16 × 7 tile per image of the batch of 2, stacked.
    let tiled = dir.join("nested").join("tiled.png");
    let tiled_opts = TensorDisplayOptions {
        batch_opts: Some(BatchDisplayOpts::Tiled),
        ..opts
    };
    save_tensor_as_image(image(), tiled_opts, &tiled).unwrap();
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&tiled).unwrap(),
    ));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (16, 14));
    // Wrong rank for the dim order: an error, not a panic.
    let err = save_tensor_as_image(
        image(),
        TensorDisplayOptions {
            dim_order: ImageDimOrder::Hw,
            ..opts
        },
        &path,
    );
    assert!(err.unwrap_err().to_string().contains("[2, 2, 7, 8]"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_panics_with_op_and_shape() {
    let msg = panic_message(|| {
        let _ = Tensor::<4>::zeros([1, 2, 3, 3], &device()).rgb2hsv();
    });
    assert!(
        msg.contains("rgb2hsv") && msg.contains("[1, 2, 3, 3]"),
        "{msg}"
    );
    let msg = panic_message(|| {
        let _ = Tensor::<4>::zeros([1, 3, 3, 3], &device()).gray2rgb();
    });
    assert!(
        msg.contains("gray2rgb") && msg.contains("[1, 3, 3, 3]"),
        "{msg}"
    );
    let msg = panic_message(|| {
        let _ = median(Tensor::<4>::zeros([1, 1, 3, 3], &device()), 4);
    });
    assert!(
        msg.contains("median") && msg.contains("[1, 1, 3, 3]"),
        "{msg}"
    );
    let msg = panic_message(|| {
        let _ = MedianBlurConfig::new().with_kernel_size(4).init();
    });
    assert!(msg.contains("kernel_size") && msg.contains('4'), "{msg}");
    let msg = panic_message(|| {
        let k = Tensor::<2>::zeros([0, 3], &device());
        let _ = filter2d(
            Tensor::<4>::zeros([1, 1, 3, 3], &device()),
            k,
            PadMode::Edge,
        );
    });
    assert!(msg.contains("filter2d") && msg.contains("[0, 3]"), "{msg}");
}
