//! The `Dataset` trait and its iterator.

use std::error::Error;
use std::sync::Arc;

use crate::DatasetError;

/// An indexed, read-only collection of items.
///
/// `get` hands out owned items (cloned or computed), so a dataset can be
/// shared by reference between the worker threads of a data loader; hence
/// the `Send + Sync` bound.
///
/// # Errors and panics
///
/// `get` returns `Err` when an item that exists cannot be produced: a file
/// behind it cannot be read, a row does not decode. An index at or past
/// [`len`](Self::len) is a programming error, as for slices: `get` panics
/// with a message naming the index and the length. `E` is the error type,
/// [`DatasetError`] unless a dataset chooses its own.
///
/// ```
/// use burn_dataset::{Dataset, DatasetError, InMemDataset};
///
/// // A dataset of its own: the squares of 0..len.
/// struct Squares(usize);
///
/// impl Dataset<usize> for Squares {
///     fn get(&self, index: usize) -> Result<usize, DatasetError> {
///         burn_dataset::check_index("Squares", index, self.0);
///         Ok(index * index)
///     }
///     fn len(&self) -> usize {
///         self.0
///     }
/// }
///
/// let squares = Squares(4);
/// assert_eq!(squares.get(3)?, 9);
/// assert_eq!(squares.iter().collect::<Result<Vec<_>, _>>()?, [0, 1, 4, 9]);
/// assert_eq!(squares.get_many(vec![2, 1])?, [4, 1]);
/// # Ok::<(), DatasetError>(())
/// ```
pub trait Dataset<I, E = DatasetError>: Send + Sync
where
    E: Error + Send + Sync + 'static,
{
    /// The item at `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    fn get(&self, index: usize) -> Result<I, E>;

    /// The items at `indexes`, in that order; stops at the first error.
    ///
    /// # Panics
    /// If an index is `>= self.len()`.
    fn get_many(&self, indexes: Vec<usize>) -> Result<Vec<I>, E> {
        let len = self.len();
        indexes
            .into_iter()
            .map(|index| {
                check_index("Dataset::get_many", index, len);
                self.get(index)
            })
            .collect()
    }

    /// The number of items.
    fn len(&self) -> usize;

    /// Whether the dataset holds no item.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Iterates over the items in index order, each as a `Result`.
    fn iter(&self) -> DatasetIterator<'_, I, E>
    where
        Self: Sized,
    {
        DatasetIterator::new(self)
    }
}

/// Panics unless `index < len`, naming `operation`, the index and the
/// length: the bounds check every [`Dataset::get`] makes.
#[track_caller]
pub fn check_index(operation: &str, index: usize, len: usize) {
    assert!(
        index < len,
        "{operation}: index {index} is out of range for a dataset of {len} items"
    );
}

/// An iterator over the items of a dataset, in index order. It yields
/// `len()` results (the length is read when the iteration starts).
pub struct DatasetIterator<'a, I, E = DatasetError>
where
    E: Error + Send + Sync + 'static,
{
    dataset: &'a dyn Dataset<I, E>,
    current: usize,
    len: usize,
}

impl<'a, I, E> DatasetIterator<'a, I, E>
where
    E: Error + Send + Sync + 'static,
{
    /// Starts at index 0 of `dataset`.
    pub fn new<D: Dataset<I, E>>(dataset: &'a D) -> Self {
        Self {
            dataset,
            current: 0,
            len: dataset.len(),
        }
    }
}

impl<I, E> Iterator for DatasetIterator<'_, I, E>
where
    E: Error + Send + Sync + 'static,
{
    type Item = Result<I, E>;

    fn next(&mut self) -> Option<Result<I, E>> {
        if self.current >= self.len {
            return None;
        }
        let item = self.dataset.get(self.current);
        self.current += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.len - self.current;
        (left, Some(left))
    }
}

impl<I, E> ExactSizeIterator for DatasetIterator<'_, I, E> where E: Error + Send + Sync + 'static {}

// Shared, boxed and borrowed datasets are datasets too, so wrappers can
// hold an `Arc<dyn Dataset<I>>` or borrow one.
macro_rules! delegate {
    ($($wrapper:ty),+) => {$(
        impl<I, E, D> Dataset<I, E> for $wrapper
        where
            D: Dataset<I, E> + ?Sized,
            E: Error + Send + Sync + 'static,
        {
            fn get(&self, index: usize) -> Result<I, E> {
                (**self).get(index)
            }
            fn get_many(&self, indexes: Vec<usize>) -> Result<Vec<I>, E> {
                (**self).get_many(indexes)
            }
            fn len(&self) -> usize {
                (**self).len()
            }
        }
    )+};
}

delegate!(Arc<D>, Box<D>, &D);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    #[test]
    fn shared_boxed_and_borrowed_datasets_delegate() {
        let data = InMemDataset::new(vec![10, 20, 30]);
        let shared: Arc<dyn Dataset<i32>> = Arc::new(data.clone());
        let boxed: Box<dyn Dataset<i32>> = Box::new(data.clone());
        let borrowed = &data;
        assert_eq!((shared.len(), shared.get(2).unwrap()), (3, 30));
        assert_eq!(boxed.get_many(vec![2, 0]).unwrap(), [30, 10]);
        assert_eq!(
            borrowed.iter().collect::<Result<Vec<_>, _>>().unwrap(),
            [10, 20, 30]
        );
        assert!(InMemDataset::<i32>::new(vec![]).is_empty());
    }

    #[test]
    #[should_panic(expected = "index 3 is out of range for a dataset of 3 items")]
    fn an_index_past_the_end_panics_with_both_numbers() {
        let _ = InMemDataset::new(vec![1, 2, 3]).get(3);
    }

    #[test]
    fn iterator_reports_its_remaining_length() {
        let data = InMemDataset::new(vec!['x', 'y', 'z']);
        let mut iter = data.iter();
        iter.next();
        assert_eq!(iter.len(), 2);
        assert_eq!(iter.map(Result::unwrap).collect::<String>(), "yz");
    }

    /// An item that fails is reported where it is, and iteration goes on.
    #[test]
    fn a_failing_item_is_an_error_in_the_iteration() {
        struct Flaky;
        impl Dataset<u8> for Flaky {
            fn get(&self, index: usize) -> Result<u8, DatasetError> {
                check_index("Flaky", index, 3);
                if index == 1 {
                    Err(DatasetError::new(std::io::Error::other("disk on fire")))
                } else {
                    Ok(index as u8)
                }
            }
            fn len(&self) -> usize {
                3
            }
        }
        let results: Vec<_> = Flaky.iter().collect();
        assert_eq!(results.len(), 3);
        assert_eq!(results[0].as_ref().unwrap(), &0);
        assert_eq!(results[1].as_ref().unwrap_err().to_string(), "disk on fire");
        assert!(Flaky.get_many(vec![0, 1, 2]).is_err());
    }
}
