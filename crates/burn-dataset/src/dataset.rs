//! The `Dataset` trait and its iterator.

use std::sync::Arc;

/// An indexed, read-only collection of items.
///
/// `get` hands out owned items (cloned or computed), so a dataset can be
/// shared by reference between the worker threads of a data loader; hence
/// the `Send + Sync` bound.
pub trait Dataset<I>: Send + Sync {
    /// The item at `index`, or `None` when `index >= self.len()`.
    fn get(&self, index: usize) -> Option<I>;

    /// The number of items.
    fn len(&self) -> usize;

    /// Whether the dataset holds no item.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Iterates over the items in index order.
    fn iter(&self) -> DatasetIterator<'_, I>
    where
        Self: Sized,
    {
        DatasetIterator::new(self)
    }
}

/// An iterator over the items of a dataset, in index order.
pub struct DatasetIterator<'a, I> {
    dataset: &'a dyn Dataset<I>,
    current: usize,
}

impl<'a, I> DatasetIterator<'a, I> {
    /// Starts at index 0 of `dataset`.
    pub fn new<D: Dataset<I>>(dataset: &'a D) -> Self {
        Self {
            dataset,
            current: 0,
        }
    }
}

impl<I> Iterator for DatasetIterator<'_, I> {
    type Item = I;

    fn next(&mut self) -> Option<I> {
        let item = self.dataset.get(self.current)?;
        self.current += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.dataset.len().saturating_sub(self.current);
        (left, Some(left))
    }
}

// Shared and boxed datasets are datasets too, so wrappers can hold an
// `Arc<dyn Dataset<I>>` or borrow one.
impl<I, D: Dataset<I> + ?Sized> Dataset<I> for Arc<D> {
    fn get(&self, index: usize) -> Option<I> {
        (**self).get(index)
    }
    fn len(&self) -> usize {
        (**self).len()
    }
}

impl<I, D: Dataset<I> + ?Sized> Dataset<I> for Box<D> {
    fn get(&self, index: usize) -> Option<I> {
        (**self).get(index)
    }
    fn len(&self) -> usize {
        (**self).len()
    }
}

impl<I, D: Dataset<I> + ?Sized> Dataset<I> for &D {
    fn get(&self, index: usize) -> Option<I> {
        (**self).get(index)
    }
    fn len(&self) -> usize {
        (**self).len()
    }
}

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
        assert_eq!((shared.len(), shared.get(2)), (3, Some(30)));
        assert_eq!((boxed.len(), boxed.get(3)), (3, None));
        assert_eq!(borrowed.iter().collect::<Vec<_>>(), [10, 20, 30]);
        assert!(InMemDataset::<i32>::new(vec![]).is_empty());
    }

    #[test]
    fn iterator_reports_its_remaining_length() {
        let data = InMemDataset::new(vec!['x', 'y', 'z']);
        let mut iter = data.iter();
        iter.next();
        assert_eq!(iter.size_hint(), (2, Some(2)));
        assert_eq!(iter.collect::<String>(), "yz");
    }
}
