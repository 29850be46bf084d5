//! Connected components against scipy.ndimage.label / skimage regionprops
//! (`reference/labels.json`): exact labels (same numbering), stats, batches,
//! empty images.

mod common;

use burn_tensor::{Bool, Tensor};
use burn_vision::{
    ConnectedComponents, ConnectedStatsOptions, Connectivity, connected_components_batch,
};
use common::*;
use serde_json::Value;

fn connectivity(case: &Value) -> Connectivity {
    match case["connectivity"].as_str().unwrap() {
        "four" => Connectivity::Four,
        _ => Connectivity::Eight,
    }
}

#[test]
fn labels_equal_scipy() {
    for case in reference("labels").as_array().unwrap() {
        let shape = dims(&case["shape"]);
        let img = bool_tensor::<2>(ints(&case["image"]), &shape);
        let labels = img.connected_components(connectivity(case));
        assert_eq!(labels.dims().to_vec(), shape);
        assert_eq!(
            host_ints(labels),
            ints(&case["labels"]),
            "{} {}",
            case["name"],
            case["connectivity"]
        );
    }
}

#[test]
fn stats_equal_regionprops() {
    for case in reference("labels").as_array().unwrap() {
        let name = format!("{} {}", case["name"], case["connectivity"]);
        let shape = dims(&case["shape"]);
        let img = bool_tensor::<2>(ints(&case["image"]), &shape);
        let (labels, stats) =
            img.connected_components_with_stats(connectivity(case), ConnectedStatsOptions::all());
        assert_eq!(host_ints(labels), ints(&case["labels"]), "{name}");
        let n = case["n"].as_i64().unwrap();
        assert_eq!(host_ints(stats.max_label), vec![n], "{name}");
        let area = host_ints(stats.area);
        let (left, top) = (host_ints(stats.left), host_ints(stats.top));
        let (right, bottom) = (host_ints(stats.right), host_ints(stats.bottom));
        let centroid = host_floats(stats.centroid);
        assert_eq!(area.len() as i64, n + 1, "{name}");
        assert_eq!(
            (area[0], left[0], top[0], right[0], bottom[0]),
            (0, 0, 0, 0, 0)
        );
        for (l, bbox) in case["bbox"].as_array().unwrap().iter().enumerate() {
            let l = l + 1;
            let b = ints(bbox); // min_row, min_col, max_row + 1, max_col + 1
            assert_eq!(
                area[l],
                case["area"][l - 1].as_i64().unwrap(),
                "{name} area"
            );
            assert_eq!(
                [top[l], left[l], bottom[l] + 1, right[l] + 1],
                [b[0], b[1], b[2], b[3]],
                "{name} bbox of {l}"
            );
            let c = floats(&case["centroid"][l - 1]);
            assert!(
                abs_err(&centroid[2 * l..2 * l + 2], &c) < 1e-4,
                "{name} centroid"
            );
        }
    }
}

#[test]
fn stats_without_bounds_keep_area() {
    let case = &reference("labels")[2];
    let shape = dims(&case["shape"]);
    let img = bool_tensor::<2>(ints(&case["image"]), &shape);
    let (_, stats) =
        img.connected_components_with_stats(connectivity(case), ConnectedStatsOptions::none());
    let area = host_ints(stats.area);
    assert_eq!(area[1..].to_vec(), ints(&case["area"]));
    assert!(host_ints(stats.left).iter().all(|&v| v == 0));
}

#[test]
fn batch_labels_each_image() {
    let cases = reference("labels");
    // The three 12×15 / 13×11 random images differ in shape; use the two
    // 12×15 ones at both connectivities.
    for conn in ["four", "eight"] {
        let picked: Vec<&Value> = cases
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["connectivity"] == conn && dims(&c["shape"]) == [12, 15])
            .collect();
        assert_eq!(picked.len(), 2);
        let values: Vec<i64> = picked.iter().flat_map(|c| ints(&c["image"])).collect();
        let batch = bool_tensor::<3>(values, &[2, 12, 15]);
        let labels = connected_components_batch(batch, connectivity(picked[0]));
        let expected: Vec<i64> = picked.iter().flat_map(|c| ints(&c["labels"])).collect();
        assert_eq!(host_ints(labels), expected, "{conn}");
    }
}

#[test]
fn empty_image() {
    let img = Tensor::<2, Bool>::empty([0, 5], &device());
    let (labels, stats) =
        img.connected_components_with_stats(Connectivity::Eight, ConnectedStatsOptions::all());
    assert_eq!(labels.dims(), [0, 5]);
    assert_eq!(host_ints(stats.max_label), vec![0]);
    assert_eq!(host_ints(stats.area), vec![0]);
}

#[test]
fn large_snake_merges_many_labels() {
    // A comb: every tooth opens a label and the spine merges them all.
    let (h, w) = (40, 61);
    let mut v = vec![0i64; h * w];
    for y in 0..h {
        for x in 0..w {
            if x % 2 == 0 || y == h - 1 {
                v[y * w + x] = 1;
            }
        }
    }
    let img = bool_tensor::<2>(v.clone(), &[h, w]);
    let labels = host_ints(img.connected_components(Connectivity::Four));
    for (l, m) in labels.iter().zip(&v) {
        assert_eq!(*l, *m);
    }
}
