//! Morphology against the NumPy/SciPy definitions in
//! `reference/morphology.json`: float, int and bool images, every kernel
//! shape, every border type, anchors, iterations, composites; plus the
//! structuring elements and bad input.

mod common;

use burn_std::Scalar;
use burn_tensor::{Bool, Int, Tensor};
use burn_vision::{
    BorderType, KernelShape, MorphOp, MorphOptions, MorphOptionsBuilder, Morphology, Point, Size,
    create_structuring_element,
};
use common::*;
use serde_json::Value;

fn op(name: &str) -> MorphOp {
    match name {
        "erode" => MorphOp::Erode,
        "dilate" => MorphOp::Dilate,
        "open" => MorphOp::Open,
        "close" => MorphOp::Close,
        "gradient" => MorphOp::Gradient,
        "tophat" => MorphOp::TopHat,
        "blackhat" => MorphOp::BlackHat,
        other => panic!("{other}"),
    }
}

fn border(name: &str) -> BorderType {
    match name {
        "constant" => BorderType::Constant,
        "replicate" => BorderType::Replicate,
        "reflect" => BorderType::Reflect,
        "reflect101" => BorderType::Reflect101,
        "wrap" => BorderType::Wrap,
        other => panic!("{other}"),
    }
}

fn kernel_tensor(k: &Value) -> Tensor<2, Bool> {
    let size = dims(&k["size"]); // [width, height]
    bool_tensor::<2>(ints(&k["mask"]), &[size[1], size[0]])
}

#[test]
fn structuring_elements_match_opencv_construction() {
    let r = reference("morphology");
    for (name, k) in r["kernels"].as_object().unwrap() {
        let size = dims(&k["size"]);
        let shape = match k["shape"].as_str().unwrap() {
            "rect" => KernelShape::Rect,
            "cross" => KernelShape::Cross,
            _ => KernelShape::Ellipse,
        };
        let got = create_structuring_element(shape, Size::new(size[0], size[1]), None, &device());
        assert_eq!(got.dims(), [size[1], size[0]], "{name}");
        assert_eq!(host_bools(got), ints(&k["mask"]), "{name}");
    }
}

#[test]
fn all_cases_match_reference() {
    let r = reference("morphology");
    let shape = dims(&r["shape"]);
    let mut checked = 0;
    for case in r["cases"].as_array().unwrap() {
        let kind = case["kind"].as_str().unwrap();
        let image = &r["images"][kind];
        let c = image["channels"].as_u64().unwrap() as usize;
        let dims3 = [shape[0], shape[1], c];
        let kernel = kernel_tensor(&r["kernels"][case["kernel"].as_str().unwrap()]);
        let opts = MorphOptions {
            anchor: case["anchor"].as_array().map(|a| {
                Point::new(
                    a[0].as_u64().unwrap() as usize,
                    a[1].as_u64().unwrap() as usize,
                )
            }),
            iterations: case["iterations"].as_u64().unwrap() as usize,
            border_type: border(case["border"].as_str().unwrap()),
            border_value: case["value"].as_f64().map(|v| vec![Scalar::Float(v)]),
        };
        let op = op(case["op"].as_str().unwrap());
        let expected = floats(&case["output"]);
        let label = format!(
            "{kind} {} {} {} anchor {} it {}",
            case["op"], case["kernel"], case["border"], case["anchor"], case["iterations"]
        );
        let got: Vec<f64> = match kind {
            "float" => host_floats(
                float_tensor::<3>(floats(&image["values"]), &dims3).morph(op, kernel, opts),
            ),
            "int" => {
                let img: Tensor<3, Int> = int_tensor(
                    floats(&image["values"]).iter().map(|&v| v as i64).collect(),
                    &dims3,
                );
                host_ints(img.morph(op, kernel, opts))
                    .into_iter()
                    .map(|v| v as f64)
                    .collect()
            }
            _ => {
                let img: Tensor<3, Bool> = bool_tensor(
                    floats(&image["values"]).iter().map(|&v| v as i64).collect(),
                    &dims3,
                );
                host_bools(img.morph(op, kernel, opts))
                    .into_iter()
                    .map(|v| v as f64)
                    .collect()
            }
        };
        let err = abs_err(&got, &expected);
        assert!(
            err <= 1e-6,
            "{label}: error {err}\n got {got:?}\nwant {expected:?}"
        );
        checked += 1;
    }
    assert!(checked > 100);
}

#[test]
fn erode_and_dilate_are_morph() {
    let img = float_tensor::<3>((0..30).map(|v| ((v * 7) % 11) as f64).collect(), &[5, 6, 1]);
    let k = create_structuring_element(KernelShape::Ellipse, Size::new(3, 3), None, &device());
    let a = host_floats(img.clone().erode(k.clone(), MorphOptions::default()));
    let b = host_floats(
        img.clone()
            .morph(MorphOp::Erode, k.clone(), MorphOptions::default()),
    );
    assert_eq!(a, b);
    let opts = MorphOptionsBuilder::default()
        .iterations(0)
        .build()
        .unwrap();
    assert_eq!(host_floats(img.clone().dilate(k, opts)), host_floats(img));
}

#[test]
fn per_channel_border_value() {
    let img = float_tensor::<3>(vec![5.0; 2 * 2 * 2], &[2, 2, 2]);
    let k = create_structuring_element(KernelShape::Rect, Size::new(3, 3), None, &device());
    let opts = MorphOptionsBuilder::default()
        .border_value(Some(vec![Scalar::Float(1.0), Scalar::Float(9.0)]))
        .build()
        .unwrap();
    let out = host_floats(img.erode(k, opts));
    assert_eq!(out, vec![1.0, 5.0, 1.0, 5.0, 1.0, 5.0, 1.0, 5.0]);
}

#[test]
fn empty_image_passes_through() {
    let img = Tensor::<3>::empty([0, 4, 1], &device());
    let k = create_structuring_element(KernelShape::Rect, Size::new(3, 3), None, &device());
    assert_eq!(img.erode(k, MorphOptions::default()).dims(), [0, 4, 1]);
}

#[test]
fn bad_input_panics_with_op_and_shape() {
    let img = || Tensor::<3>::zeros([4, 4, 1], &device());
    let msg = panic_message(|| {
        let k = Tensor::<2, Bool>::from_data([[false, false]], &device());
        let _ = img().erode(k, MorphOptions::default());
    });
    assert!(msg.contains("erode") && msg.contains("[1, 2]"), "{msg}");
    let msg = panic_message(|| {
        let k = create_structuring_element(KernelShape::Rect, Size::new(3, 3), None, &device());
        let opts = MorphOptionsBuilder::default()
            .anchor(Some(Point::new(3, 0)))
            .build()
            .unwrap();
        let _ = img().dilate(k, opts);
    });
    assert!(msg.contains("dilate") && msg.contains("[3, 3]"), "{msg}");
    let msg = panic_message(|| {
        let k = create_structuring_element(KernelShape::Rect, Size::new(3, 3), None, &device());
        let opts = MorphOptionsBuilder::default()
            .border_value(Some(vec![Scalar::Float(0.0); 3]))
            .build()
            .unwrap();
        let _ = img().erode(k, opts);
    });
    assert!(msg.contains("[4, 4, 1]"), "{msg}");
    let msg = panic_message(|| {
        let _ = create_structuring_element(KernelShape::Rect, Size::new(0, 3), None, &device());
    });
    assert!(msg.contains("create_structuring_element"), "{msg}");
}
