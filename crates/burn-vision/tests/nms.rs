//! NMS against torchvision.ops.nms (`reference/nms.json`) and worked cases.

mod common;

use burn_tensor::{Int, Tensor};
use burn_vision::{Nms, NmsOptions, nms};
use common::*;

fn run(boxes: Vec<f64>, scores: Vec<f64>, options: NmsOptions) -> Vec<i64> {
    let n = scores.len();
    let boxes = float_tensor::<2>(boxes, &[n, 4]);
    let scores = float_tensor::<1>(scores, &[n]);
    let kept: Tensor<1, Int> = boxes.nms(scores, options);
    host_ints(kept)
}

#[test]
fn equals_torchvision() {
    for (i, case) in reference("nms").as_array().unwrap().iter().enumerate() {
        let options = NmsOptions {
            iou_threshold: case["iou_threshold"].as_f64().unwrap() as f32,
            // torchvision has no score threshold; -1 keeps every score in [0, 1).
            score_threshold: -1.0,
            max_output_boxes: 0,
        };
        let kept = run(floats(&case["boxes"]), floats(&case["scores"]), options);
        assert_eq!(kept, ints(&case["keep"]), "case {i}");
    }
}

fn worked_boxes() -> (Vec<f64>, Vec<f64>) {
    let boxes = vec![
        0.0, 0.0, 100.0, 100.0, //
        0.0, 1.0, 100.0, 100.0, //
        0.0, 101.0, 200.0, 200.0, //
        0.0, 100.0, 200.0, 200.0, //
        0.0, 170.0, 300.0, 300.0,
    ];
    (boxes, vec![0.1, 0.2, 0.4, 0.3, 0.5])
}

#[test]
fn worked_case() {
    // Box 4 (0.5) keeps; box 2 (0.4) overlaps it by 30·200 / (130·300 +
    // 99·200 − 6000) ≈ 0.11, kept; box 3 overlaps box 2 with IoU 0.99, gone;
    // box 1 (0.2) is far from both, kept; box 0 overlaps box 1 with 0.99.
    let (b, s) = worked_boxes();
    let opts = NmsOptions {
        iou_threshold: 0.5,
        score_threshold: 0.0,
        max_output_boxes: 0,
    };
    assert_eq!(run(b.clone(), s.clone(), opts), vec![4, 2, 1]);
    let opts = NmsOptions {
        score_threshold: 0.3,
        ..opts
    };
    // 0.3 itself is dropped (score must be > threshold).
    assert_eq!(run(b.clone(), s.clone(), opts), vec![4, 2]);
    let opts = NmsOptions {
        iou_threshold: 0.5,
        score_threshold: 0.0,
        max_output_boxes: 2,
    };
    assert_eq!(run(b, s, opts), vec![4, 2]);
}

#[test]
fn iou_equal_to_threshold_is_kept() {
    // Two 2×1 boxes sharing half: IoU = 1 / 3 exactly in f64, and as f32
    // rounding of the same expression on both sides.
    let boxes = vec![0.0, 0.0, 2.0, 1.0, 1.0, 0.0, 3.0, 1.0];
    let opts = |t: f32| NmsOptions {
        iou_threshold: t,
        score_threshold: 0.0,
        max_output_boxes: 0,
    };
    // IoU 0.333… > 0.3: suppressed.
    assert_eq!(run(boxes.clone(), vec![0.9, 0.8], opts(0.3)), vec![0]);
    // Identical boxes: IoU exactly 1, not > 1.0, so both stay.
    let same = vec![0.0, 0.0, 2.0, 1.0, 0.0, 0.0, 2.0, 1.0];
    assert_eq!(run(same, vec![0.9, 0.8], opts(1.0)), vec![0, 1]);
}

#[test]
fn ties_keep_lower_index_first() {
    let boxes = vec![0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 5.0, 5.0, 6.0, 6.0];
    let kept = run(boxes, vec![0.5, 0.5, 0.5], NmsOptions::default());
    assert_eq!(kept, vec![0, 2]);
}

#[test]
fn empty_input() {
    let kept = nms(
        Tensor::<2>::empty([0, 4], &device()),
        Tensor::<1>::empty([0], &device()),
        NmsOptions::default(),
    );
    assert_eq!(kept.dims(), [0]);
}

#[test]
fn bad_shapes_panic_with_op_and_shape() {
    let msg = panic_message(|| {
        let _ = nms(
            Tensor::<2>::zeros([3, 5], &device()),
            Tensor::<1>::zeros([3], &device()),
            NmsOptions::default(),
        );
    });
    assert!(msg.contains("nms") && msg.contains("[3, 5]"), "{msg}");
}
