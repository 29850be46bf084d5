//! Connected components of a 4096×4096 binary image and NMS of 20,000
//! boxes on Flex, median of 10 runs, on the inputs written by
//! `vision_bench.py` (which also times SciPy, scikit-image and torchvision
//! on them and then runs this):
//!
//! ```text
//! ~/torch/bin/python crates/burn-vision/examples/vision_bench.py
//! ```
//!
//! Run alone: `cargo run --release -p burn-vision --example vision_bench -- PATH`.

use burn_tensor::{Bool, Device, Tensor, TensorData};
use burn_vision::{ConnectedComponents, Connectivity, Nms, NmsOptions};
use std::time::Instant;

const RUNS: usize = 10;

fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[RUNS / 2 - 1] + times[RUNS / 2]) / 2.0
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/vision_bench_inputs.bin".into());
    let bytes = std::fs::read(&path).expect("inputs: run vision_bench.py first");
    let (h, w) = (u32_at(&bytes, 0), u32_at(&bytes, 4));
    let img: Vec<bool> = bytes[8..8 + h * w].iter().map(|&v| v != 0).collect();
    let at = 8 + h * w;
    let n = u32_at(&bytes, at);
    let boxes = f32s(&bytes[at + 4..at + 4 + 16 * n]);
    let scores = f32s(&bytes[at + 4 + 16 * n..at + 4 + 20 * n]);

    let device = Device::flex();
    let image = Tensor::<2, Bool>::from_data(TensorData::new(img, [h, w]), &device);
    let labels = image.clone().connected_components(Connectivity::Eight);
    let n8: i64 = labels.max().into_scalar();
    let labels = image.clone().connected_components(Connectivity::Four);
    let n4: i64 = labels.max().into_scalar();
    println!("burn-vision components: 8-conn {n8}, 4-conn {n4}");
    for (name, conn) in [
        ("8-conn", Connectivity::Eight),
        ("4-conn", Connectivity::Four),
    ] {
        let ms = median_ms(|| {
            let labels = image.clone().connected_components(conn);
            // Wait for the result: read one value back.
            let _: i64 = labels.slice([0..1, 0..1]).into_scalar();
        });
        println!("burn-vision connected_components {name} {ms:8.1} ms");
    }

    let boxes = Tensor::<2>::from_data(TensorData::new(boxes, [n, 4]), &device);
    let scores = Tensor::<1>::from_data(TensorData::new(scores, [n]), &device);
    let options = NmsOptions {
        iou_threshold: 0.5,
        score_threshold: -1.0,
        max_output_boxes: 0,
    };
    let kept = boxes.clone().nms(scores.clone(), options);
    let kept = kept.into_data().convert::<i64>().into_vec::<i64>().unwrap();
    let same = match std::fs::read(format!("{path}.keep")) {
        Ok(b) => {
            let tv: Vec<i64> = b
                .chunks_exact(8)
                .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
                .collect();
            if tv == kept {
                "same as torchvision"
            } else {
                "DIFFERS from torchvision"
            }
        }
        Err(_) => "no torchvision result to compare",
    };
    println!("burn-vision nms kept {} ({same})", kept.len());
    let ms = median_ms(|| {
        let kept = boxes.clone().nms(scores.clone(), options);
        let _ = kept.dims();
    });
    println!("burn-vision nms (iou 0.5)        {ms:8.1} ms");
}
