//! Decoding real files: the same 16×16 picture as PNG (palette), JPEG
//! (baseline, 3 components), PPM and PGM, written by other tools.

#![cfg(feature = "vision")]

use std::path::{Path, PathBuf};

use burn_dataset::Dataset;
use burn_dataset::vision::{Annotation, DecodedImage, ImageFolderDataset, decode_image};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/python-logo")
        .join(name)
}

fn decode(name: &str) -> DecodedImage {
    let path = data(name);
    decode_image(&std::fs::read(&path).unwrap(), &path).unwrap()
}

/// The RGB samples of an image with 3 or 4 channels.
fn rgb(image: &DecodedImage) -> Vec<u8> {
    image
        .pixels
        .chunks_exact(image.channels)
        .flat_map(|pixel| pixel[..3].to_vec())
        .collect()
}

#[test]
fn all_formats_have_the_size_the_headers_state() {
    for name in ["python.jpg", "python.png", "python.ppm", "python.pgm"] {
        let image = decode(name);
        assert_eq!((image.width, image.height), (16, 16), "{name}");
        assert_eq!(image.pixels.len(), 16 * 16 * image.channels, "{name}");
    }
    assert_eq!(decode("python.ppm").channels, 3);
    assert_eq!(decode("python.pgm").channels, 1);
    assert_eq!(decode("python.jpg").channels, 3);
}

#[test]
fn png_is_lossless_and_jpeg_close_to_the_ppm() {
    let reference = rgb(&decode("python.ppm"));
    assert_eq!(rgb(&decode("python.png")), reference);
    // JPEG is lossy: allow a small mean error per sample (in 0..=255).
    let jpeg = rgb(&decode("python.jpg"));
    let mean_error = jpeg
        .iter()
        .zip(&reference)
        .map(|(&a, &b)| f64::from(a.abs_diff(b)))
        .sum::<f64>()
        / reference.len() as f64;
    assert!(mean_error < 12.0, "mean absolute error {mean_error}");
}

#[test]
fn an_image_folder_of_mixed_formats() {
    let root = std::env::temp_dir().join(format!("burn-dataset-logos-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (class, file) in [
        ("color", "python.jpg"),
        ("color", "python.png"),
        ("gray", "python.pgm"),
    ] {
        std::fs::create_dir_all(root.join(class)).unwrap();
        std::fs::copy(data(file), root.join(class).join(file)).unwrap();
    }
    let dataset = ImageFolderDataset::new_classification(&root).unwrap();
    assert_eq!(dataset.class_names(), ["color", "gray"]);
    let labels: Vec<Annotation> = dataset
        .iter()
        .map(|item| item.unwrap().annotation)
        .collect();
    assert_eq!(
        labels,
        [
            Annotation::Label(0),
            Annotation::Label(0),
            Annotation::Label(1)
        ]
    );
    let gray = dataset.get(2).unwrap();
    assert_eq!(gray.image, decode("python.pgm"));
    assert!(gray.image_path.ends_with("gray/python.pgm"));
    std::fs::remove_dir_all(&root).unwrap();
}
