//! `DigitsDataset`: the 8×8 UCI handwritten digits, shipped in the crate.
//!
//! 1,797 images (about 180 per digit) compressed to 58 KB and compiled into
//! the binary with `include_bytes!`, so a program can train on real
//! handwriting with no network and no file to find. See
//! `data/README.md` for the origin and licences (data CC BY 4.0, file from
//! scikit-learn under BSD-3).

use std::io::Read;
use std::path::Path;

use crate::{Dataset, DatasetError, SeededRng};

const DIGITS_CSV_GZ: &[u8] = include_bytes!("../data/digits.csv.gz");
const ORIGIN: &str = "burn-dataset/data/digits.csv.gz";

/// One 8×8 handwritten digit.
#[derive(Clone, Debug, PartialEq)]
pub struct DigitsItem {
    /// Row-major pixels, each an integer in `0.0..=16.0` (the number of
    /// "on" pixels of the 4×4 block it summarizes).
    pub image: [[f32; 8]; 8],
    /// The digit, `0..=9`.
    pub label: u8,
}

/// The 8×8 UCI optical handwritten digits.
///
/// ```
/// use burn_dataset::{Dataset, DigitsDataset};
///
/// let train = DigitsDataset::train();
/// let test = DigitsDataset::test();
/// assert_eq!(train.len() + test.len(), 1797);
/// let item = test.get(0).unwrap();
/// assert!(item.label <= 9 && item.image.iter().flatten().all(|&p| p <= 16.0));
/// ```
#[derive(Clone, Debug)]
pub struct DigitsDataset {
    items: Vec<DigitsItem>,
}

impl DigitsDataset {
    /// The seed of the split behind [`train`](Self::train) and [`test`](Self::test).
    pub const SPLIT_SEED: u64 = 1998;
    /// The fraction of the images [`test`](Self::test) holds.
    pub const TEST_FRACTION: f64 = 0.2;

    /// All 1,797 images, in the file's order.
    pub fn all() -> Self {
        // The file is part of the crate and checked by the tests, so a
        // failure here is a broken build, not a user error.
        Self::from_csv_gz(DIGITS_CSV_GZ, ORIGIN)
            .unwrap_or_else(|e| panic!("the shipped digits file is corrupt: {e}"))
    }

    /// The training part (1,438 images) of the fixed split: see
    /// [`split`](Self::split) with [`SPLIT_SEED`](Self::SPLIT_SEED) and
    /// [`TEST_FRACTION`](Self::TEST_FRACTION).
    pub fn train() -> Self {
        Self::all().split(Self::TEST_FRACTION, Self::SPLIT_SEED).0
    }

    /// The test part (359 images) of the fixed split; disjoint from
    /// [`train`](Self::train).
    pub fn test() -> Self {
        Self::all().split(Self::TEST_FRACTION, Self::SPLIT_SEED).1
    }

    /// Splits the images at random into `(train, test)`: the indices are
    /// shuffled by a [`SeededRng`] seeded with `seed`, the first
    /// `round(len * test_fraction)` go to the test part.
    ///
    /// # Panics
    /// If `test_fraction` is not within `0.0..=1.0`.
    pub fn split(self, test_fraction: f64, seed: u64) -> (Self, Self) {
        assert!(
            (0.0..=1.0).contains(&test_fraction),
            "DigitsDataset::split: test_fraction must be within 0..=1, got {test_fraction}"
        );
        let order = SeededRng::new(seed).permutation(self.items.len());
        let test_len = (self.items.len() as f64 * test_fraction).round() as usize;
        let mut slots: Vec<Option<DigitsItem>> = self.items.into_iter().map(Some).collect();
        let mut take = |indices: &[usize]| -> Vec<DigitsItem> {
            indices.iter().filter_map(|&i| slots[i].take()).collect()
        };
        let test = take(&order[..test_len]);
        let train = take(&order[test_len..]);
        (Self { items: train }, Self { items: test })
    }

    /// Parses gzip-compressed CSV in the shipped file's layout: per line,
    /// 64 pixels in `0..=16` then a label in `0..=9`. `origin` names the
    /// data in errors.
    ///
    /// # Errors
    /// [`DatasetError::Malformed`] for a bad gzip stream, or naming the line
    /// and column of a wrong field count or an out-of-range value.
    pub fn from_csv_gz(bytes: &[u8], origin: impl AsRef<Path>) -> Result<Self, DatasetError> {
        let origin = origin.as_ref();
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut text)
            .map_err(|e| DatasetError::malformed(origin, format!("not valid gzip text: {e}")))?;
        let mut items = Vec::new();
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |reason: String| {
                DatasetError::malformed(origin, format!("line {}: {reason}", number + 1))
            };
            let fields: Vec<&str> = line.split(',').collect();
            if fields.len() != 65 {
                return Err(bad(format!(
                    "expected 65 fields (64 pixels and a label), found {}",
                    fields.len()
                )));
            }
            let mut values = [0u8; 65];
            for (column, (field, value)) in fields.iter().zip(&mut values).enumerate() {
                let max = if column == 64 { 9 } else { 16 };
                *value = field
                    .trim()
                    .parse::<u8>()
                    .ok()
                    .filter(|&v| v <= max)
                    .ok_or_else(|| {
                        bad(format!(
                            "column {}: {field:?} is not an integer in 0..={max}",
                            column + 1
                        ))
                    })?;
            }
            let mut image = [[0.0f32; 8]; 8];
            for (pixel, &value) in image.iter_mut().flatten().zip(&values[..64]) {
                *pixel = f32::from(value);
            }
            items.push(DigitsItem {
                image,
                label: values[64],
            });
        }
        Ok(Self { items })
    }
}

impl Dataset<DigitsItem> for DigitsDataset {
    fn get(&self, index: usize) -> Result<DigitsItem, DatasetError> {
        crate::check_index("DigitsDataset::get", index, self.items.len());
        Ok(self.items[index].clone())
    }

    fn len(&self) -> usize {
        self.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(text: &str) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(text.as_bytes()).unwrap();
        encoder.finish().unwrap()
    }

    // The reference values below are printed by data/reference.py.
    #[test]
    fn shipped_file_matches_the_python_reference() {
        let all = DigitsDataset::all();
        assert_eq!(all.len(), 1797);
        let mut counts = [0usize; 10];
        for item in all.iter().map(Result::unwrap) {
            counts[item.label as usize] += 1;
        }
        assert_eq!(counts, [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]);
        let first = all.get(0).unwrap();
        assert_eq!(first.label, 0);
        assert_eq!(first.image[0], [0.0, 0.0, 5.0, 13.0, 9.0, 1.0, 0.0, 0.0]);
        assert_eq!(first.image[7], [0.0, 0.0, 6.0, 13.0, 10.0, 0.0, 0.0, 0.0]);
        let last = all.get(1796).unwrap();
        assert_eq!(last.label, 8);
        assert_eq!(last.image.iter().flatten().sum::<f32>(), 392.0);
    }

    #[test]
    fn fixed_split_is_disjoint_and_complete() {
        let (train, test) = (DigitsDataset::train(), DigitsDataset::test());
        assert_eq!((train.len(), test.len()), (1438, 359));
        // Same split every time.
        assert_eq!(DigitsDataset::test().items, test.items);
        // Every image lands in exactly one part: compare multisets of
        // (label, pixels) encoded as strings.
        let key = |item: &DigitsItem| format!("{}{:?}", item.label, item.image);
        let mut joined: Vec<String> = train.items.iter().chain(&test.items).map(key).collect();
        let mut all: Vec<String> = DigitsDataset::all().items.iter().map(key).collect();
        joined.sort();
        all.sort();
        assert_eq!(joined, all);
        // The test part holds every digit.
        for digit in 0..10 {
            assert!(test.iter().any(|item| item.unwrap().label == digit));
        }
    }

    #[test]
    fn split_follows_the_seeded_permutation() {
        let data = gzip(
            &(0..10)
                .map(|d| format!("{}{d}\n", "0,".repeat(64)))
                .collect::<String>(),
        );
        let digits = DigitsDataset::from_csv_gz(&data, "ten.csv.gz").unwrap();
        let (train, test) = digits.split(0.3, 5);
        let order = SeededRng::new(5).permutation(10);
        let labels = |d: &DigitsDataset| {
            d.iter()
                .map(|i| i.unwrap().label as usize)
                .collect::<Vec<_>>()
        };
        assert_eq!(labels(&test), order[..3]);
        assert_eq!(labels(&train), order[3..]);
    }

    #[test]
    fn malformed_rows_are_reported_with_line_and_column() {
        let good = format!("{}3", "1,".repeat(64));
        let short = "1,2,3";
        let error = DigitsDataset::from_csv_gz(&gzip(&format!("{good}\n{short}\n")), "d.gz")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("d.gz: line 2: expected 65 fields"),
            "{error}"
        );

        let bright = format!("{}17,{}3", "0,".repeat(10), "0,".repeat(53));
        let error = DigitsDataset::from_csv_gz(&gzip(&bright), "d.gz")
            .unwrap_err()
            .to_string();
        assert!(error.contains("line 1: column 11: \"17\""), "{error}");

        let bad_label = format!("{}10", "0,".repeat(64));
        let error = DigitsDataset::from_csv_gz(&gzip(&bad_label), "d.gz")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("column 65") && error.contains("0..=9"),
            "{error}"
        );

        let error = DigitsDataset::from_csv_gz(b"plain text", "d.gz")
            .unwrap_err()
            .to_string();
        assert!(error.contains("not valid gzip"), "{error}");
    }
}
