//! `InMemDataset`: items in a `Vec`, from a vector, a CSV file or JSON lines.

use std::io::{BufRead, BufReader};
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::{Dataset, DatasetError};

/// A dataset whose items all live in memory.
///
/// `get` clones the item; wrap large items in an `Arc` to make that cheap.
#[derive(Clone, Debug)]
pub struct InMemDataset<I> {
    items: Vec<I>,
}

impl<I> InMemDataset<I> {
    /// A dataset over `items`, in their order.
    pub fn new(items: Vec<I>) -> Self {
        Self { items }
    }

    /// The items, in order.
    pub fn items(&self) -> &[I] {
        &self.items
    }

    /// Gives the items back.
    pub fn into_items(self) -> Vec<I> {
        self.items
    }
}

impl<I: Clone> InMemDataset<I> {
    /// Copies every item of `dataset` into memory (useful to freeze a chain
    /// of lazy transforms).
    ///
    /// # Panics
    /// If an item cannot be produced; [`try_from_dataset`](Self::try_from_dataset)
    /// returns the error instead.
    pub fn from_dataset<E>(dataset: &impl Dataset<I, E>) -> Self
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        Self::try_from_dataset(dataset)
            .unwrap_or_else(|err| panic!("InMemDataset::from_dataset: {err}"))
    }

    /// Copies every item of `dataset` into memory, stopping at the first
    /// item that cannot be produced.
    pub fn try_from_dataset<E>(dataset: &impl Dataset<I, E>) -> Result<Self, E>
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        dataset.iter().collect::<Result<_, _>>().map(Self::new)
    }
}

impl<I: DeserializeOwned> InMemDataset<I> {
    /// Reads a JSON-lines file: one JSON value per line, each deserialized
    /// into an item. Blank lines are skipped.
    ///
    /// # Errors
    /// [`DatasetError::Io`] if the file cannot be read;
    /// [`DatasetError::Json`] naming the 1-based line of the first value
    /// that is not valid JSON for `I`.
    pub fn from_json_rows(path: impl AsRef<Path>) -> Result<Self, DatasetError> {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| DatasetError::io(path, e))?;
        Self::from_json_rows_reader(BufReader::new(file), path)
    }

    /// Like [`from_json_rows`](Self::from_json_rows), from any reader;
    /// `origin` is the name errors give for it.
    pub fn from_json_rows_reader(
        reader: impl BufRead,
        origin: impl AsRef<Path>,
    ) -> Result<Self, DatasetError> {
        let origin = origin.as_ref();
        let mut items = Vec::new();
        for (number, line) in reader.lines().enumerate() {
            let line = line.map_err(|e| DatasetError::io(origin, e))?;
            if line.trim().is_empty() {
                continue;
            }
            let item = serde_json::from_str(&line).map_err(|source| DatasetError::Json {
                path: origin.to_path_buf(),
                line: number + 1,
                source,
            })?;
            items.push(item);
        }
        Ok(Self::new(items))
    }

    /// Reads a CSV file, deserializing each record into an item (by header
    /// name when the builder reads headers, by position otherwise).
    ///
    /// ```
    /// use burn_dataset::{csv, Dataset, InMemDataset};
    ///
    /// #[derive(serde::Deserialize, Clone, Debug, PartialEq)]
    /// struct Row { name: String, value: f32 }
    ///
    /// let text = "name,value\na,1.5\nb,-2\n";
    /// let dataset: InMemDataset<Row> =
    ///     InMemDataset::from_csv_reader(text.as_bytes(), "inline.csv", &csv::ReaderBuilder::new())?;
    /// assert_eq!(dataset.get(1)?, Row { name: "b".into(), value: -2.0 });
    /// # Ok::<(), burn_dataset::DatasetError>(())
    /// ```
    ///
    /// # Errors
    /// [`DatasetError::Io`] if the file cannot be opened;
    /// [`DatasetError::Csv`] naming the line of the first record that is
    /// malformed (e.g. a wrong number of fields) or does not fit `I`.
    pub fn from_csv(
        path: impl AsRef<Path>,
        builder: &csv::ReaderBuilder,
    ) -> Result<Self, DatasetError> {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| DatasetError::io(path, e))?;
        Self::from_csv_reader(file, path, builder)
    }

    /// Like [`from_csv`](Self::from_csv), from any reader; `origin` is the
    /// name errors give for it.
    pub fn from_csv_reader(
        reader: impl std::io::Read,
        origin: impl AsRef<Path>,
        builder: &csv::ReaderBuilder,
    ) -> Result<Self, DatasetError> {
        let origin = origin.as_ref();
        let mut reader = builder.from_reader(reader);
        let mut items = Vec::new();
        for record in reader.deserialize() {
            items.push(record.map_err(|e| csv_error(origin, e))?);
        }
        Ok(Self::new(items))
    }
}

fn csv_error(path: &Path, error: csv::Error) -> DatasetError {
    let line = error.position().map(|p| p.line());
    let message = match error.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("the record has {len} fields, but the first record has {expected_len}"),
        csv::ErrorKind::Deserialize { err, .. } => match err.field() {
            Some(field) => format!("field {}: {}", field + 1, err.kind()),
            None => err.kind().to_string(),
        },
        csv::ErrorKind::Io(io) => io.to_string(),
        _ => error.to_string(),
    };
    DatasetError::Csv {
        path: path.to_path_buf(),
        line,
        message,
    }
}

impl<I: Clone + Send + Sync> Dataset<I> for InMemDataset<I> {
    fn get(&self, index: usize) -> Result<I, DatasetError> {
        crate::check_index("InMemDataset::get", index, self.items.len());
        Ok(self.items[index].clone())
    }

    fn len(&self) -> usize {
        self.items.len()
    }
}

impl<I> From<Vec<I>> for InMemDataset<I> {
    fn from(items: Vec<I>) -> Self {
        Self::new(items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Clone, Debug, PartialEq)]
    struct Row {
        name: String,
        count: u32,
    }

    #[test]
    fn vector_round_trip() {
        let dataset = InMemDataset::new(vec!["a", "b"]);
        assert_eq!(dataset.len(), 2);
        assert_eq!(dataset.get(0).unwrap(), "a");
        assert_eq!(
            dataset.iter().collect::<Result<Vec<_>, _>>().unwrap(),
            ["a", "b"]
        );
        let copy = InMemDataset::from_dataset(&dataset);
        assert_eq!(copy.items(), dataset.items());
    }

    #[test]
    fn csv_by_header_with_quotes() {
        let text = "count,name\n3,\"x, y\"\n4,\"say \"\"hi\"\"\"\n";
        let dataset: InMemDataset<Row> =
            InMemDataset::from_csv_reader(text.as_bytes(), "t.csv", &csv::ReaderBuilder::new())
                .unwrap();
        assert_eq!(
            dataset.items(),
            [
                Row {
                    name: "x, y".into(),
                    count: 3
                },
                Row {
                    name: "say \"hi\"".into(),
                    count: 4
                }
            ]
        );
    }

    #[test]
    fn csv_wrong_field_count_names_the_line() {
        let text = "name,count\na,1\nb,2,extra\n";
        let error = InMemDataset::<Row>::from_csv_reader(
            text.as_bytes(),
            "t.csv",
            &csv::ReaderBuilder::new(),
        )
        .unwrap_err();
        let message = error.to_string();
        assert!(
            matches!(error, DatasetError::Csv { line: Some(3), .. }),
            "{message}"
        );
        assert!(message.contains("t.csv: CSV line 3"), "{message}");
        assert!(message.contains("3 fields"), "{message}");
    }

    #[test]
    fn csv_bad_value_names_line_and_field() {
        let text = "name,count\na,1\nb,lots\n";
        let error = InMemDataset::<Row>::from_csv_reader(
            text.as_bytes(),
            "t.csv",
            &csv::ReaderBuilder::new(),
        )
        .unwrap_err();
        let message = error.to_string();
        assert!(message.contains("line 3"), "{message}");
        assert!(message.contains("field 2"), "{message}");
    }

    #[test]
    fn csv_missing_file_is_an_io_error() {
        let error = InMemDataset::<Row>::from_csv(
            "/nonexistent/burn-dataset/none.csv",
            &csv::ReaderBuilder::new(),
        )
        .unwrap_err();
        assert!(matches!(error, DatasetError::Io { .. }));
        assert!(error.to_string().contains("none.csv"));
    }

    #[test]
    fn json_rows_skip_blank_lines() {
        let text = "{\"name\":\"a\",\"count\":1}\n\n{\"name\":\"b\",\"count\":2}\n";
        let dataset: InMemDataset<Row> =
            InMemDataset::from_json_rows_reader(text.as_bytes(), "t.jsonl").unwrap();
        assert_eq!(dataset.len(), 2);
        assert_eq!(dataset.get(1).unwrap().name, "b");
    }

    #[test]
    fn json_rows_error_names_the_line() {
        let text = "{\"name\":\"a\",\"count\":1}\n{\"name\":\"b\"}\n";
        let error =
            InMemDataset::<Row>::from_json_rows_reader(text.as_bytes(), "t.jsonl").unwrap_err();
        let message = error.to_string();
        assert!(matches!(error, DatasetError::Json { line: 2, .. }));
        assert!(message.contains("t.jsonl: JSON line 2"), "{message}");
        assert!(message.contains("count"), "{message}");
    }

    #[test]
    fn json_rows_from_a_file() {
        let path =
            std::env::temp_dir().join(format!("burn-dataset-rows-{}.jsonl", std::process::id()));
        std::fs::write(&path, "{\"name\":\"z\",\"count\":9}\n").unwrap();
        let dataset: InMemDataset<Row> = InMemDataset::from_json_rows(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            dataset.get(0).unwrap(),
            Row {
                name: "z".into(),
                count: 9
            }
        );
    }
}
