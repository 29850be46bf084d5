use std::error::Error;
use std::marker::PhantomData;

use crate::Dataset;

/// Turns an item of one type into an item of another.
///
/// Closures `Fn(&I) -> O` are mappers.
pub trait Mapper<I, O>: Send + Sync {
    /// The mapped item.
    fn map(&self, item: &I) -> O;
}

impl<I, O, F: Fn(&I) -> O + Send + Sync> Mapper<I, O> for F {
    fn map(&self, item: &I) -> O {
        self(item)
    }
}

/// Applies a [`Mapper`] to every item of a dataset, lazily (on each `get`).
pub struct MapperDataset<D, M, I> {
    dataset: D,
    mapper: M,
    input: PhantomData<fn(I)>,
}

impl<D, M, I> MapperDataset<D, M, I> {
    /// Maps the items of `dataset` through `mapper`.
    pub fn new(dataset: D, mapper: M) -> Self {
        Self {
            dataset,
            mapper,
            input: PhantomData,
        }
    }
}

/// An item that the inner dataset fails to produce is that error here.
impl<D, M, I, O, E> Dataset<O, E> for MapperDataset<D, M, I>
where
    D: Dataset<I, E>,
    M: Mapper<I, O>,
    E: Error + Send + Sync + 'static,
{
    fn get(&self, index: usize) -> Result<O, E> {
        self.dataset.get(index).map(|item| self.mapper.map(&item))
    }

    fn len(&self) -> usize {
        self.dataset.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    struct Describe;

    impl Mapper<i32, String> for Describe {
        fn map(&self, item: &i32) -> String {
            format!("#{item}")
        }
    }

    #[test]
    fn maps_with_a_struct_and_a_closure() {
        let described = MapperDataset::new(InMemDataset::new(vec![1, 2]), Describe);
        assert_eq!(
            described.iter().collect::<Result<Vec<_>, _>>().unwrap(),
            ["#1", "#2"]
        );
        let lengths = MapperDataset::new(described, |s: &String| s.len());
        assert_eq!(lengths.len(), 2);
        assert_eq!(lengths.get(1).unwrap(), 2);
    }
}
