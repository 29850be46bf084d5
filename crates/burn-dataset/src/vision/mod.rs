//! Vision datasets: labelled image folders and MNIST.
//!
//! Images are decoded in this crate to 8-bit pixels: PNG (`png` crate),
//! JPEG (`zune-jpeg`, baseline and progressive) and the Netpbm PGM/PPM
//! formats (`P2`, `P3`, `P5`, `P6`, parsed here). Other formats are
//! rejected with an error naming the file.

mod decode;
mod image_folder;
mod mnist;

pub use decode::{DecodedImage, decode_image};
pub use image_folder::{Annotation, ImageDatasetItem, ImageFolderDataset};
pub use mnist::{
    MNIST_MIRRORS, MnistDataset, MnistItem, MnistSplit, parse_idx_images, parse_idx_labels,
};
