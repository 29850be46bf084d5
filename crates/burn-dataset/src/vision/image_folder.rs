//! `ImageFolderDataset`: images sorted into one folder per class.

use std::path::{Path, PathBuf};

use super::decode::{DecodedImage, decode_image};
use crate::{Dataset, DatasetError};

/// What an image is labelled with.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Annotation {
    /// The index of its class in [`ImageFolderDataset::class_names`].
    Label(usize),
}

/// One decoded image and its annotation.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageDatasetItem {
    /// The decoded pixels.
    pub image: DecodedImage,
    /// Its class.
    pub annotation: Annotation,
    /// The file it was read from.
    pub image_path: PathBuf,
}

/// A classification dataset laid out as `root/<class>/<image>`.
///
/// ```text
/// root/
///   cat/  a.png  b.jpg
///   dog/  c.pgm
/// ```
///
/// Classes are the sub-folders of `root` in name order (`cat` is label 0,
/// `dog` label 1); images are the files with a known extension (`png`,
/// `jpg`, `jpeg`, `pgm`, `ppm`, `pnm`, any case) in each, in name order.
/// Files are listed when the dataset is built and decoded on each `get`.
#[derive(Clone, Debug)]
pub struct ImageFolderDataset {
    classes: Vec<String>,
    files: Vec<(PathBuf, usize)>,
}

const EXTENSIONS: [&str; 6] = ["png", "jpg", "jpeg", "pgm", "ppm", "pnm"];

impl ImageFolderDataset {
    /// Lists the classes and images under `root`.
    ///
    /// # Errors
    /// [`DatasetError::Io`] if `root` or a class folder cannot be read;
    /// [`DatasetError::Malformed`] if `root` has no class folder or the
    /// class folders hold no image.
    pub fn new_classification(root: impl AsRef<Path>) -> Result<Self, DatasetError> {
        let root = root.as_ref();
        let mut class_dirs = Vec::new();
        for entry in read_dir_sorted(root)? {
            if entry.is_dir() {
                class_dirs.push(entry);
            }
        }
        if class_dirs.is_empty() {
            return Err(DatasetError::malformed(
                root,
                "no class folder: expected one sub-folder of images per class",
            ));
        }
        let mut classes = Vec::new();
        let mut files = Vec::new();
        for (label, dir) in class_dirs.iter().enumerate() {
            classes.push(
                dir.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            );
            for file in read_dir_sorted(dir)? {
                let known = file
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
                if known && file.is_file() {
                    files.push((file, label));
                }
            }
        }
        if files.is_empty() {
            return Err(DatasetError::malformed(
                root,
                format!(
                    "the class folders hold no image (looked for {})",
                    EXTENSIONS.join(", ")
                ),
            ));
        }
        Ok(Self { classes, files })
    }

    /// The class names; label `i` is `class_names()[i]`.
    pub fn class_names(&self) -> &[String] {
        &self.classes
    }
}

impl Dataset<ImageDatasetItem> for ImageFolderDataset {
    /// Reads and decodes the image; an unreadable or corrupt file is the
    /// error (naming the file).
    fn get(&self, index: usize) -> Result<ImageDatasetItem, DatasetError> {
        crate::check_index("ImageFolderDataset::get", index, self.files.len());
        let (path, label) = &self.files[index];
        let bytes = std::fs::read(path).map_err(|e| DatasetError::io(path, e))?;
        Ok(ImageDatasetItem {
            image: decode_image(&bytes, path)?,
            annotation: Annotation::Label(*label),
            image_path: path.clone(),
        })
    }

    fn len(&self) -> usize {
        self.files.len()
    }
}

fn read_dir_sorted(dir: &Path) -> Result<Vec<PathBuf>, DatasetError> {
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| DatasetError::io(dir, e))? {
        paths.push(entry.map_err(|e| DatasetError::io(dir, e))?.path());
    }
    paths.sort();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::super::decode::tests::png_bytes;
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("burn-dataset-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn classes_in_name_order_and_images_decoded() {
        let root = temp_dir("folder");
        std::fs::create_dir_all(root.join("dog")).unwrap();
        std::fs::create_dir_all(root.join("cat")).unwrap();
        std::fs::write(root.join("dog/b.pgm"), b"P5 1 1 255 \x09").unwrap();
        std::fs::write(
            root.join("cat/a.PNG"),
            png_bytes(1, 1, png::ColorType::Rgb, &[7, 8, 9]),
        )
        .unwrap();
        std::fs::write(root.join("cat/notes.txt"), b"not an image").unwrap();
        std::fs::write(root.join("README"), b"ignored").unwrap();

        let dataset = ImageFolderDataset::new_classification(&root).unwrap();
        assert_eq!(dataset.class_names(), ["cat", "dog"]);
        assert_eq!(dataset.len(), 2);
        let cat = dataset.get(0).unwrap();
        assert_eq!(cat.annotation, Annotation::Label(0));
        assert_eq!(cat.image.pixels, [7, 8, 9]);
        let dog = dataset.get(1).unwrap();
        assert_eq!(dog.annotation, Annotation::Label(1));
        assert_eq!(
            (dog.image.channels, dog.image.pixels.as_slice()),
            (1, &[9u8][..])
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn layout_errors_are_clear() {
        let missing =
            ImageFolderDataset::new_classification("/nonexistent/burn-images").unwrap_err();
        assert!(matches!(missing, DatasetError::Io { .. }), "{missing}");

        let root = temp_dir("flat");
        std::fs::write(root.join("a.png"), b"").unwrap();
        let flat = ImageFolderDataset::new_classification(&root)
            .unwrap_err()
            .to_string();
        assert!(flat.contains("no class folder"), "{flat}");

        std::fs::create_dir_all(root.join("empty")).unwrap();
        let empty = ImageFolderDataset::new_classification(&root)
            .unwrap_err()
            .to_string();
        assert!(empty.contains("hold no image"), "{empty}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_corrupt_image_is_an_error_from_get() {
        let root = temp_dir("corrupt");
        std::fs::create_dir_all(root.join("x")).unwrap();
        std::fs::write(root.join("x/bad.png"), b"\x89PNG broken").unwrap();
        let dataset = ImageFolderDataset::new_classification(&root).unwrap();
        let error = dataset.get(0).unwrap_err().to_string();
        assert!(error.contains("bad.png: PNG:"), "{error}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
