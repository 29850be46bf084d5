//! The data: MNIST when it can be had, otherwise the 8×8 digits shipped in
//! the repository, and the batcher that turns images into tensors.

use burn::data::dataloader::batcher::Batcher;
use burn::data::dataset::vision::MnistDataset;
use burn::data::dataset::{Dataset, DigitsDataset, InMemDataset};
use burn::prelude::*;

// ANCHOR: item
/// A grayscale image and its digit, from either source.
#[derive(Clone, Debug)]
pub struct ImageItem {
    /// Row-major pixels, already normalized (zero mean, unit variance over
    /// the source's training images, roughly).
    pub pixels: Vec<f32>,
    /// The digit.
    pub label: u8,
}
// ANCHOR_END: item

/// Which data set a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// MNIST, 28×28 (60,000 training and 10,000 test images), downloaded
    /// once into the cache.
    Mnist,
    /// The UCI 8×8 digits shipped with `burn-dataset` (1,438 training and
    /// 359 test images of a fixed seeded split).
    Digits,
}

impl Source {
    /// The side of the square images.
    pub fn side(self) -> usize {
        match self {
            Source::Mnist => 28,
            Source::Digits => 8,
        }
    }

    /// A plain description for the run's first lines.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Mnist => "MNIST (28x28 handwritten digits, 60,000 train / 10,000 test)",
            Source::Digits => {
                "the UCI 8x8 handwritten digits shipped in crates/burn-dataset/data \
                 (1,438 train / 359 test images, a fixed seeded split)"
            }
        }
    }
}

// ANCHOR: images
/// The training and test images of a source.
pub struct Images {
    /// Which source they come from.
    pub source: Source,
    /// Training images.
    pub train: InMemDataset<ImageItem>,
    /// Test images (also used for validation after each epoch).
    pub test: InMemDataset<ImageItem>,
}
// ANCHOR_END: images

/// MNIST's pixel mean and standard deviation (of the 0..1 values).
const MNIST_MEAN: f32 = 0.1307;
const MNIST_STD: f32 = 0.3081;
/// The 8×8 digits' pixel mean and standard deviation (of the 0..1 values).
const DIGITS_MEAN: f32 = 0.305;
const DIGITS_STD: f32 = 0.376;

fn collect<I>(
    dataset: &impl Dataset<I>,
    convert: impl Fn(I) -> ImageItem,
) -> Result<InMemDataset<ImageItem>, String> {
    let items = dataset
        .iter()
        .map(|item| item.map(&convert))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok(InMemDataset::new(items))
}

// ANCHOR: mnist
/// MNIST, or the reason it cannot be read or downloaded.
pub fn mnist() -> Result<Images, String> {
    // `train()` / `test()` panic when the files cannot be had; the `try_`
    // forms return the reason, which `main` prints before falling back.
    let train = MnistDataset::try_train().map_err(|e| e.to_string())?;
    let test = MnistDataset::try_test().map_err(|e| e.to_string())?;
    let convert = |item: burn::data::dataset::vision::MnistItem| ImageItem {
        pixels: item
            .image
            .iter()
            .flatten()
            .map(|&p| (p / 255.0 - MNIST_MEAN) / MNIST_STD)
            .collect(),
        label: item.label,
    };
    Ok(Images {
        source: Source::Mnist,
        train: collect(&train, convert)?,
        test: collect(&test, convert)?,
    })
}
// ANCHOR_END: mnist

// ANCHOR: digits
/// The shipped 8×8 digits.
pub fn digits() -> Images {
    let convert = |item: burn::data::dataset::DigitsItem| ImageItem {
        pixels: item
            .image
            .iter()
            .flatten()
            .map(|&p| (p / 16.0 - DIGITS_MEAN) / DIGITS_STD)
            .collect(),
        label: item.label,
    };
    Images {
        source: Source::Digits,
        train: collect(&DigitsDataset::train(), convert).expect("the digits ship in memory"),
        test: collect(&DigitsDataset::test(), convert).expect("the digits ship in memory"),
    }
}
// ANCHOR_END: digits

// ANCHOR: batch
/// A batch: images `[batch, 1, side, side]` and their digits `[batch]`.
#[derive(Clone, Debug)]
pub struct ImageBatch {
    /// The images.
    pub images: Tensor<4>,
    /// The digits.
    pub targets: Tensor<1, Int>,
}
// ANCHOR_END: batch

// ANCHOR: batcher
/// Stacks the items of a batch into tensors on the loader's device.
#[derive(Clone, Debug)]
pub struct ImageBatcher {
    side: usize,
}

impl ImageBatcher {
    /// A batcher for `side`×`side` images.
    pub fn new(side: usize) -> Self {
        Self { side }
    }
}

impl Batcher<ImageItem, ImageBatch> for ImageBatcher {
    fn batch(&self, items: Vec<ImageItem>, device: &Device) -> ImageBatch {
        let n = items.len();
        let pixels: Vec<f32> = items
            .iter()
            .flat_map(|item| item.pixels.iter().copied())
            .collect();
        let labels: Vec<i64> = items.iter().map(|item| i64::from(item.label)).collect();
        ImageBatch {
            images: Tensor::<1>::from_floats(pixels.as_slice(), device)
                .reshape([n, 1, self.side, self.side]),
            targets: Tensor::<1, Int>::from_data(labels.as_slice(), device),
        }
    }
}
// ANCHOR_END: batcher
