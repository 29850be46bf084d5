use std::marker::PhantomData;
use std::num::NonZeroUsize;

use crate::{Dataset, DatasetError};

/// Windows of consecutive items of a dataset.
pub trait Window<I> {
    /// The items `current..current + size`, or `Ok(None)` when the window
    /// runs past the end; an item that cannot be produced is the error.
    fn window(&self, current: usize, size: NonZeroUsize) -> Result<Option<Vec<I>>, DatasetError>;
}

impl<I, D: Dataset<I> + ?Sized> Window<I> for D {
    fn window(&self, current: usize, size: NonZeroUsize) -> Result<Option<Vec<I>>, DatasetError> {
        match current.checked_add(size.get()) {
            Some(end) if end <= self.len() => self.get_many((current..end).collect()).map(Some),
            _ => Ok(None),
        }
    }
}

/// Every window of `size` consecutive items: item `i` is the items
/// `i..i + size` of the inner dataset, so windows overlap and there are
/// `len - size + 1` of them (none if the inner dataset is shorter).
pub struct WindowsDataset<D, I> {
    /// The size of the windows.
    pub size: NonZeroUsize,
    dataset: D,
    input: PhantomData<fn() -> I>,
}

impl<D: Dataset<I>, I> WindowsDataset<D, I> {
    /// The windows of `size` items of `dataset`.
    ///
    /// # Panics
    /// If `size` is zero.
    pub fn new(dataset: D, size: usize) -> Self {
        let size = NonZeroUsize::new(size)
            .expect("WindowsDataset: the window size must be positive, got 0");
        Self {
            dataset,
            size,
            input: PhantomData,
        }
    }
}

impl<D: Dataset<I>, I: Send + Sync> Dataset<Vec<I>> for WindowsDataset<D, I> {
    fn get(&self, index: usize) -> Result<Vec<I>, DatasetError> {
        crate::check_index("WindowsDataset::get", index, self.len());
        let window = self.dataset.window(index, self.size)?;
        Ok(window.expect("a window below len() fits in the dataset"))
    }

    fn len(&self) -> usize {
        (self.dataset.len() + 1).saturating_sub(self.size.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    #[test]
    fn windows_slide_by_one() {
        let data = InMemDataset::new(vec![1, 2, 3, 4]);
        let windows = WindowsDataset::new(data, 3);
        assert_eq!(windows.len(), 2);
        assert_eq!(
            windows.iter().map(Result::unwrap).collect::<Vec<_>>(),
            [vec![1, 2, 3], vec![2, 3, 4]]
        );
    }

    #[test]
    fn window_longer_than_data_is_empty() {
        let data = InMemDataset::new(vec![1, 2]);
        assert!(WindowsDataset::new(&data, 3).is_empty());
        let two = NonZeroUsize::new(2).unwrap();
        assert_eq!(data.window(1, two).unwrap(), None);
        assert_eq!(data.window(0, two).unwrap(), Some(vec![1, 2]));
    }

    #[test]
    #[should_panic(expected = "window size must be positive")]
    fn zero_size_panics() {
        let _ = WindowsDataset::new(InMemDataset::new(vec![1]), 0);
    }
}
