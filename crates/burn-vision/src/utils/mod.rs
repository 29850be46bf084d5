//! Image utilities: writing tensors as PNG files.

mod save;

pub use save::{
    BatchDisplayOpts, ColorDisplayOpts, ImageDimOrder, TensorDisplayOptions, save_tensor_as_image,
};
