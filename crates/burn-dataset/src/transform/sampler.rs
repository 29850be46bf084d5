use std::marker::PhantomData;
use std::sync::Mutex;

use crate::{Dataset, DatasetError, SeededRng};

/// A dataset of a chosen size whose items are drawn at random from another
/// dataset, each time one is asked for.
///
/// Useful to make an "epoch" of fixed length out of a dataset of any size,
/// or to oversample a small one. With replacement every `get` draws any
/// item; without replacement the draws go through a shuffled deck of all
/// indices, reshuffled when it runs out, so every item comes once per pass.
///
/// The draws depend on the order of calls, not on the index asked for.
pub struct SamplerDataset<D, I> {
    dataset: D,
    size: usize,
    state: Mutex<SamplerState>,
    input: PhantomData<fn() -> I>,
}

struct SamplerState {
    rng: SeededRng,
    // Without replacement: the indices left in the current pass.
    deck: Option<Vec<usize>>,
}

impl<D: Dataset<I>, I> SamplerDataset<D, I> {
    /// `size` draws with replacement, from an unseeded generator.
    pub fn new(dataset: D, size: usize) -> Self {
        Self::with_seed(dataset, size, true, SeededRng::from_entropy().next_u64())
    }

    /// `size` draws with replacement, from an unseeded generator.
    pub fn new_with_replacement(dataset: D, size: usize) -> Self {
        Self::new(dataset, size)
    }

    /// `size` draws without replacement, from an unseeded generator.
    pub fn new_without_replacement(dataset: D, size: usize) -> Self {
        Self::with_seed(dataset, size, false, SeededRng::from_entropy().next_u64())
    }

    /// `size` draws, with or without replacement, from a generator seeded
    /// by `seed`.
    pub fn with_seed(dataset: D, size: usize, replacement: bool, seed: u64) -> Self {
        Self {
            dataset,
            size,
            state: Mutex::new(SamplerState {
                rng: SeededRng::new(seed),
                deck: (!replacement).then(Vec::new),
            }),
            input: PhantomData,
        }
    }

    fn draw(&self) -> usize {
        let len = self.dataset.len();
        assert!(
            len > 0,
            "SamplerDataset::get: the sampled dataset is empty, there is nothing to draw"
        );
        // A panic elsewhere cannot leave the state half-updated: each
        // operation below completes or does nothing.
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let SamplerState { rng, deck } = &mut *state;
        match deck {
            None => rng.below(len),
            Some(deck) => {
                if deck.is_empty() {
                    *deck = rng.permutation(len);
                }
                deck.pop().expect("the deck was just refilled")
            }
        }
    }
}

impl<D: Dataset<I>, I> Dataset<I> for SamplerDataset<D, I> {
    /// # Panics
    /// If `index >= len()`, or the sampled dataset is empty.
    fn get(&self, index: usize) -> Result<I, DatasetError> {
        crate::check_index("SamplerDataset::get", index, self.size);
        self.dataset.get(self.draw())
    }

    fn len(&self) -> usize {
        self.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemDataset;

    #[test]
    fn without_replacement_visits_each_item_once_per_pass() {
        let data = InMemDataset::new((0..10).collect::<Vec<u8>>());
        let sampler = SamplerDataset::with_seed(data, 25, false, 4);
        let draws: Vec<u8> = sampler.iter().map(Result::unwrap).collect();
        assert_eq!(draws.len(), 25);
        for pass in draws.chunks(10).take(2) {
            let mut sorted = pass.to_vec();
            sorted.sort();
            assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        }
    }

    #[test]
    fn with_replacement_is_seeded_and_repeats() {
        let data = InMemDataset::new((0..4).collect::<Vec<u8>>());
        let a: Vec<u8> = SamplerDataset::with_seed(&data, 40, true, 1)
            .iter()
            .map(Result::unwrap)
            .collect();
        let b: Vec<u8> = SamplerDataset::with_seed(&data, 40, true, 1)
            .iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(a, b);
        // 40 draws from 4 items must repeat; every value must be valid.
        assert!(a.iter().all(|&x| x < 4));
        let mut rng = SeededRng::new(1);
        let expected: Vec<u8> = (0..40).map(|_| rng.below(4) as u8).collect();
        assert_eq!(a, expected);
    }

    #[test]
    #[should_panic(expected = "the sampled dataset is empty")]
    fn an_empty_source_cannot_be_sampled() {
        let data = InMemDataset::<u8>::new(vec![]);
        let sampler = SamplerDataset::new(data, 3);
        assert_eq!(sampler.len(), 3);
        let _ = sampler.get(0);
    }
}
