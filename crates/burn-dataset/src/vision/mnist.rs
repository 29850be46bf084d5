//! MNIST: 70,000 28×28 handwritten digits in the IDX format, downloaded
//! once into a cache directory.

use std::io::Read;
use std::path::Path;

use crate::download::{cache_root, download_file};
use crate::{Dataset, DatasetError};

/// The mirrors tried in order; the original host no longer serves the files.
pub const MNIST_MIRRORS: [&str; 2] = [
    "https://ossci-datasets.s3.amazonaws.com/mnist/",
    "https://storage.googleapis.com/cvdf-datasets/mnist/",
];

/// Which half of MNIST.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MnistSplit {
    /// 60,000 training images.
    Train,
    /// 10,000 test images.
    Test,
}

impl MnistSplit {
    /// `(images file, its MD5, labels file, its MD5)`, as published.
    fn files(self) -> [(&'static str, &'static str); 2] {
        match self {
            Self::Train => [
                (
                    "train-images-idx3-ubyte.gz",
                    "f68b3c2dcbeaaa9fbdd348bbdeb94873",
                ),
                (
                    "train-labels-idx1-ubyte.gz",
                    "d53e105ee54ea40749a09fcbcd1e9432",
                ),
            ],
            Self::Test => [
                (
                    "t10k-images-idx3-ubyte.gz",
                    "9fb629c4189551a2d022fa330f9573f3",
                ),
                (
                    "t10k-labels-idx1-ubyte.gz",
                    "ec29112dd5afa0611ce80d1b7f02629c",
                ),
            ],
        }
    }
}

/// One MNIST digit.
#[derive(Clone, Debug, PartialEq)]
pub struct MnistItem {
    /// Row-major pixels, `0.0` (background) to `255.0` (ink).
    pub image: [[f32; 28]; 28],
    /// The digit, `0..=9`.
    pub label: u8,
}

/// The MNIST handwritten digits.
///
/// Pixels are kept as bytes (47 MB for the training half) and converted to
/// `f32` by `get`.
#[derive(Clone, Debug)]
pub struct MnistDataset {
    pixels: Vec<u8>,
    labels: Vec<u8>,
}

const SIDE: usize = 28;

impl MnistDataset {
    /// The training half, downloaded into `<cache>/mnist` on first use
    /// (see [`cache_root`](crate::download::cache_root)), as Burn's
    /// `MnistDataset::train()`.
    ///
    /// # Panics
    /// If the files are missing and cannot be downloaded (a build without
    /// the `network` feature cannot), or are corrupt; the message says
    /// where to put the files by hand. [`try_train`](Self::try_train)
    /// returns the error instead.
    pub fn train() -> Self {
        Self::try_train().unwrap_or_else(|err| panic!("MnistDataset::train: {err}"))
    }

    /// The test half, downloaded into `<cache>/mnist` on first use.
    ///
    /// # Panics
    /// As [`train`](Self::train); [`try_test`](Self::try_test) returns the
    /// error instead.
    pub fn test() -> Self {
        Self::try_test().unwrap_or_else(|err| panic!("MnistDataset::test: {err}"))
    }

    /// The training half, or why it could not be had.
    ///
    /// # Errors
    /// See [`new_in`](Self::new_in).
    pub fn try_train() -> Result<Self, DatasetError> {
        Self::new_in(cache_root().join("mnist"), MnistSplit::Train)
    }

    /// The test half, or why it could not be had.
    ///
    /// # Errors
    /// See [`new_in`](Self::new_in).
    pub fn try_test() -> Result<Self, DatasetError> {
        Self::new_in(cache_root().join("mnist"), MnistSplit::Test)
    }

    /// `split` from the gzip-compressed IDX files in `dir`, downloading
    /// those that are missing or fail their MD5 check. To work offline, put
    /// the four published `*-ubyte.gz` files in `dir`.
    ///
    /// # Errors
    /// [`DatasetError::Download`] when a file is missing and cannot be
    /// fetched; [`DatasetError::Malformed`] when a file is not valid IDX.
    pub fn new_in(dir: impl AsRef<Path>, split: MnistSplit) -> Result<Self, DatasetError> {
        let dir = dir.as_ref();
        let [images, labels] = split
            .files()
            .map(|(name, md5)| download_file(dir, name, &MNIST_MIRRORS, md5));
        Self::from_files(images?, labels?)
    }

    /// Reads an images file and a labels file in the IDX format, gzip
    /// compressed or not; no download, no checksum.
    ///
    /// # Errors
    /// [`DatasetError::Io`], or [`DatasetError::Malformed`] naming the file
    /// and what is wrong with it.
    pub fn from_files(
        images: impl AsRef<Path>,
        labels: impl AsRef<Path>,
    ) -> Result<Self, DatasetError> {
        let (images, labels) = (images.as_ref(), labels.as_ref());
        let image_bytes = read_maybe_gzip(images)?;
        let label_bytes = read_maybe_gzip(labels)?;
        Self::from_idx(&image_bytes, images, &label_bytes, labels)
    }

    /// Builds the dataset from uncompressed IDX bytes; the paths name them
    /// in errors.
    ///
    /// # Errors
    /// [`DatasetError::Malformed`] if either is not valid IDX, the images
    /// are not 28×28, a label is above 9, or the counts differ.
    pub fn from_idx(
        images: &[u8],
        images_origin: impl AsRef<Path>,
        labels: &[u8],
        labels_origin: impl AsRef<Path>,
    ) -> Result<Self, DatasetError> {
        let images_origin = images_origin.as_ref();
        let (count, rows, cols, pixels) = parse_idx_images(images, images_origin)?;
        if (rows, cols) != (SIDE, SIDE) {
            return Err(DatasetError::malformed(
                images_origin,
                format!("MNIST images are 28x28, these are {rows}x{cols}"),
            ));
        }
        let labels_origin = labels_origin.as_ref();
        let labels = parse_idx_labels(labels, labels_origin)?;
        if labels.len() != count {
            return Err(DatasetError::malformed(
                labels_origin,
                format!("{} labels for {count} images", labels.len()),
            ));
        }
        if let Some(position) = labels.iter().position(|&l| l > 9) {
            return Err(DatasetError::malformed(
                labels_origin,
                format!("label {position} is {}, not a digit", labels[position]),
            ));
        }
        Ok(Self { pixels, labels })
    }
}

impl Dataset<MnistItem> for MnistDataset {
    fn get(&self, index: usize) -> Result<MnistItem, DatasetError> {
        crate::check_index("MnistDataset::get", index, self.labels.len());
        let label = self.labels[index];
        let start = index * SIDE * SIDE;
        let pixels = &self.pixels[start..start + SIDE * SIDE];
        let mut image = [[0.0f32; SIDE]; SIDE];
        for (pixel, &byte) in image.iter_mut().flatten().zip(pixels) {
            *pixel = f32::from(byte);
        }
        Ok(MnistItem { image, label })
    }

    fn len(&self) -> usize {
        self.labels.len()
    }
}

fn read_maybe_gzip(path: &Path) -> Result<Vec<u8>, DatasetError> {
    let bytes = std::fs::read(path).map_err(|e| DatasetError::io(path, e))?;
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes.as_slice())
        .read_to_end(&mut out)
        .map_err(|e| DatasetError::malformed(path, format!("corrupt gzip data: {e}")))?;
    Ok(out)
}

/// Parses the header of an IDX file of unsigned bytes with `ndim`
/// dimensions and returns the dimensions and the data.
///
/// Layout: two zero bytes, the type code `0x08` (unsigned byte), the number
/// of dimensions, each dimension as a big-endian `u32`, then the data.
fn parse_idx<'a>(
    bytes: &'a [u8],
    ndim: usize,
    origin: &Path,
) -> Result<(Vec<usize>, &'a [u8]), DatasetError> {
    let bad = |reason: String| DatasetError::malformed(origin, format!("IDX: {reason}"));
    let header = bytes
        .get(..4)
        .ok_or_else(|| bad(format!("{} bytes is too short for a header", bytes.len())))?;
    if header[..2] != [0, 0] {
        return Err(bad(format!(
            "magic number starts {:02x} {:02x}, expected 00 00 (is the file still compressed?)",
            header[0], header[1]
        )));
    }
    if header[2] != 0x08 {
        return Err(bad(format!(
            "element type {:#04x}, expected 0x08 (unsigned bytes)",
            header[2]
        )));
    }
    if usize::from(header[3]) != ndim {
        return Err(bad(format!("{} dimensions, expected {ndim}", header[3])));
    }
    let data_start = 4 + 4 * ndim;
    let dims_bytes = bytes.get(4..data_start).ok_or_else(|| {
        bad(format!(
            "the header needs {data_start} bytes, the file has {}",
            bytes.len()
        ))
    })?;
    let dims: Vec<usize> = dims_bytes
        .chunks_exact(4)
        .map(|d| u32::from_be_bytes([d[0], d[1], d[2], d[3]]) as usize)
        .collect();
    let expected = dims
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| bad(format!("dimensions {dims:?} overflow")))?;
    let data = &bytes[data_start..];
    if data.len() != expected {
        return Err(bad(format!(
            "dimensions {dims:?} need {expected} bytes of data, the file has {}",
            data.len()
        )));
    }
    Ok((dims, data))
}

/// Parses an uncompressed IDX images file (magic `0x00000803`):
/// `(count, rows, cols, pixels)` with `count * rows * cols` pixel bytes.
///
/// # Errors
/// [`DatasetError::Malformed`] naming `origin` and the problem (wrong
/// magic, type or rank, or a data length that does not match).
pub fn parse_idx_images(
    bytes: &[u8],
    origin: impl AsRef<Path>,
) -> Result<(usize, usize, usize, Vec<u8>), DatasetError> {
    let (dims, data) = parse_idx(bytes, 3, origin.as_ref())?;
    Ok((dims[0], dims[1], dims[2], data.to_vec()))
}

/// Parses an uncompressed IDX labels file (magic `0x00000801`).
///
/// # Errors
/// As [`parse_idx_images`].
pub fn parse_idx_labels(bytes: &[u8], origin: impl AsRef<Path>) -> Result<Vec<u8>, DatasetError> {
    let (_, data) = parse_idx(bytes, 1, origin.as_ref())?;
    Ok(data.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// An IDX file written byte by byte from the format description.
    fn idx(dims: &[u32], data: &[u8]) -> Vec<u8> {
        let mut bytes = vec![0, 0, 0x08, dims.len() as u8];
        for d in dims {
            bytes.extend_from_slice(&d.to_be_bytes());
        }
        bytes.extend_from_slice(data);
        bytes
    }

    fn two_images() -> (Vec<u8>, Vec<u8>) {
        let mut pixels = vec![0u8; 2 * 784];
        pixels[0] = 255; // image 0, row 0, col 0
        pixels[784 + 28 + 3] = 17; // image 1, row 1, col 3
        (idx(&[2, 28, 28], &pixels), idx(&[2], &[7, 2]))
    }

    #[test]
    fn parses_images_and_labels() {
        let (images, labels) = two_images();
        let mnist = MnistDataset::from_idx(&images, "img", &labels, "lbl").unwrap();
        assert_eq!(mnist.len(), 2);
        let first = mnist.get(0).unwrap();
        assert_eq!(
            (first.label, first.image[0][0], first.image[0][1]),
            (7, 255.0, 0.0)
        );
        let second = mnist.get(1).unwrap();
        assert_eq!((second.label, second.image[1][3]), (2, 17.0));
        assert_eq!(second.image.iter().flatten().sum::<f32>(), 17.0);
    }

    #[test]
    fn header_fields_are_big_endian() {
        // 0x00000102 = 258 images of 1x1.
        let data: Vec<u8> = (0..258).map(|i| i as u8).collect();
        let bytes = [&[0, 0, 8, 3, 0, 0, 1, 2, 0, 0, 0, 1, 0, 0, 0, 1][..], &data].concat();
        let (count, rows, cols, pixels) = parse_idx_images(&bytes, "x").unwrap();
        assert_eq!((count, rows, cols), (258, 1, 1));
        assert_eq!(pixels[257], 1);
    }

    #[test]
    fn malformed_idx_is_reported() {
        let check = |bytes: &[u8], needle: &str| {
            let error = parse_idx_images(bytes, "images.idx")
                .unwrap_err()
                .to_string();
            assert!(
                error.contains("images.idx: IDX: ") && error.contains(needle),
                "{error}"
            );
        };
        check(&[0, 0], "too short");
        check(&[0x1f, 0x8b, 8, 0], "still compressed");
        check(&[0, 0, 0x0d, 3], "element type 0x0d");
        check(&idx(&[2], &[1, 2]), "1 dimensions, expected 3");
        check(&[0, 0, 8, 3, 0, 0, 0, 1], "the header needs 16 bytes");
        check(
            &idx(&[2, 2, 2], &[0; 7]),
            "need 8 bytes of data, the file has 7",
        );
        check(&idx(&[1, 1, 1], &[0; 2]), "the file has 2");
    }

    #[test]
    fn mismatches_between_files_are_reported() {
        let (images, _) = two_images();
        let error = MnistDataset::from_idx(&images, "i", &idx(&[3], &[1, 2, 3]), "l")
            .unwrap_err()
            .to_string();
        assert!(error.contains("l: 3 labels for 2 images"), "{error}");
        let error = MnistDataset::from_idx(&images, "i", &idx(&[2], &[1, 12]), "l")
            .unwrap_err()
            .to_string();
        assert!(error.contains("label 1 is 12"), "{error}");
        let small = idx(&[1, 8, 8], &[0; 64]);
        let error = MnistDataset::from_idx(&small, "i", &idx(&[1], &[1]), "l")
            .unwrap_err()
            .to_string();
        assert!(error.contains("28x28, these are 8x8"), "{error}");
    }

    #[test]
    fn reads_gzip_files_from_a_cache_directory_without_network() {
        let dir = std::env::temp_dir().join(format!("burn-dataset-mnist-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (images, labels) = two_images();
        let gzip = |bytes: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        };
        std::fs::write(dir.join("i.gz"), gzip(&images)).unwrap();
        std::fs::write(dir.join("l"), &labels).unwrap();
        let mnist = MnistDataset::from_files(dir.join("i.gz"), dir.join("l")).unwrap();
        assert_eq!(mnist.get(1).unwrap().label, 2);

        // Files whose digests do not match the published ones are not
        // trusted: with no mirror reachable the error says where to put them.
        std::fs::write(dir.join("t10k-images-idx3-ubyte.gz"), gzip(&images)).unwrap();
        let error = download_file(
            &dir,
            "t10k-images-idx3-ubyte.gz",
            &[],
            "9fb629c4189551a2d022fa330f9573f3",
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("place the file at"), "{error}");

        let mut corrupt = gzip(&images);
        corrupt.truncate(corrupt.len() / 2);
        std::fs::write(dir.join("bad.gz"), corrupt).unwrap();
        let error = MnistDataset::from_files(dir.join("bad.gz"), dir.join("l"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("bad.gz: corrupt gzip data"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
