use std::marker::PhantomData;

use crate::Dataset;

/// Consecutive runs of items, for sequence models.
pub trait Window<I> {
    /// Items `start..start + size`, or `None` if the run passes the end.
    fn window(&self, start: usize, size: usize) -> Option<Vec<I>>;
}

impl<I, D: Dataset<I> + ?Sized> Window<I> for D {
    fn window(&self, start: usize, size: usize) -> Option<Vec<I>> {
        let end = start.checked_add(size)?;
        if end > self.len() {
            return None;
        }
        (start..end).map(|index| self.get(index)).collect()
    }
}

/// Every window of `size` consecutive items: item `i` is
/// `inner[i..i + size]`, and there are `len - size + 1` of them.
pub struct WindowsDataset<D, I> {
    dataset: D,
    size: usize,
    input: PhantomData<fn() -> I>,
}

impl<D: Dataset<I>, I> WindowsDataset<D, I> {
    /// The windows of `size` items over `dataset`.
    ///
    /// # Panics
    /// If `size` is zero.
    pub fn new(dataset: D, size: usize) -> Self {
        assert!(size > 0, "WindowsDataset: the window size must be positive");
        Self {
            dataset,
            size,
            input: PhantomData,
        }
    }
}

impl<D: Dataset<I>, I: Send + Sync> Dataset<Vec<I>> for WindowsDataset<D, I> {
    fn get(&self, index: usize) -> Option<Vec<I>> {
        self.dataset.window(index, self.size)
    }

    fn len(&self) -> usize {
        (self.dataset.len() + 1).saturating_sub(self.size)
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
            windows.iter().collect::<Vec<_>>(),
            [vec![1, 2, 3], vec![2, 3, 4]]
        );
        assert_eq!(windows.get(2), None);
    }

    #[test]
    fn window_longer_than_data_is_empty() {
        let data = InMemDataset::new(vec![1, 2]);
        assert!(WindowsDataset::new(&data, 3).is_empty());
        assert_eq!(data.window(1, 2), None);
        assert_eq!(data.window(0, 2), Some(vec![1, 2]));
    }

    #[test]
    #[should_panic(expected = "window size must be positive")]
    fn zero_size_panics() {
        let _ = WindowsDataset::new(InMemDataset::new(vec![1]), 0);
    }
}
