//! Inference: the saved model loaded back, applied to images.

use std::path::Path;

use burn::data::dataloader::DataLoaderBuilder;
use burn::data::dataset::{Dataset, InMemDataset};
use burn::prelude::*;
use burn::store::RecordError;

use crate::data::{ImageBatcher, ImageItem};
use crate::model::{Model, ModelConfig};

// ANCHOR: load
/// The model saved at `path`, on `device`.
pub fn load(config: &ModelConfig, path: &Path, device: &Device) -> Result<Model, RecordError> {
    config.init(device).try_load_file(path)
}
// ANCHOR_END: load

// ANCHOR: evaluate
/// `(correct, total)` over `dataset`.
pub fn evaluate(
    model: &Model,
    dataset: &InMemDataset<ImageItem>,
    side: usize,
    device: &Device,
) -> (usize, usize) {
    let model = model.valid();
    let loader = DataLoaderBuilder::new(ImageBatcher::new(side))
        .batch_size(256)
        .set_device(device.clone().without_autodiff())
        .build(dataset.clone());
    let mut correct = 0;
    for batch in loader.iter() {
        // In-memory items cannot fail to load.
        let batch = batch.expect("an in-memory batch loads");
        let predicted = model.forward(batch.images).argmax(1).flatten::<1>(0, 1);
        correct += predicted
            .equal(batch.targets)
            .int()
            .sum()
            .into_scalar::<i64>() as usize;
    }
    (correct, dataset.len())
}
// ANCHOR_END: evaluate

// ANCHOR: classify
/// The predicted digit of one image.
pub fn classify(model: &Model, item: &ImageItem, side: usize, device: &Device) -> usize {
    let batch = burn::data::dataloader::batcher::Batcher::batch(
        &ImageBatcher::new(side),
        vec![item.clone()],
        &device.clone().without_autodiff(),
    );
    model
        .valid()
        .forward(batch.images)
        .argmax(1)
        .into_scalar::<i64>() as usize
}
// ANCHOR_END: classify

/// The image as text, darker characters for more ink.
pub fn ascii(item: &ImageItem, side: usize) -> String {
    let (min, max) = item
        .pixels
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &p| {
            (a.min(p), b.max(p))
        });
    let shades = [' ', '.', ':', 'o', '#'];
    let mut out = String::new();
    for row in item.pixels.chunks(side) {
        out.push_str("    ");
        for &p in row {
            let level = if max > min {
                (p - min) / (max - min)
            } else {
                0.0
            };
            let c = shades
                [((level * (shades.len() - 1) as f32).round() as usize).min(shades.len() - 1)];
            out.push(c);
            out.push(c);
        }
        out.push('\n');
    }
    out
}
