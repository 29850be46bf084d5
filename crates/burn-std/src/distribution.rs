//! Random distributions and the deterministic generator that samples them.
//!
//! The generator is implemented here rather than taken from a crate so that
//! its output is fixed forever: a seed (or a saved [`Rng::state`]) must
//! reproduce the same tensors on every platform and every release, which is
//! what makes training runs resumable bit for bit. Float math goes through
//! `libm` for the same reason, even when `std` is available.

use serde::{Deserialize, Serialize};

use crate::Element;

/// A distribution to fill tensors from.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub enum Distribution {
    /// Uniform on `[0, 1)`.
    #[default]
    Default,
    /// 1 with the given probability, otherwise 0.
    Bernoulli(f64),
    /// Uniform on `[low, high)`.
    Uniform(f64, f64),
    /// Gaussian with the given mean and standard deviation.
    Normal(f64, f64),
}

impl Distribution {
    /// Draw one value.
    ///
    /// Normal samples use Box-Muller and discard the second value instead of
    /// caching it, so the generator state alone determines what comes next.
    pub fn sample_f64(&self, rng: &mut Rng) -> f64 {
        match *self {
            Distribution::Default => rng.next_f64(),
            Distribution::Bernoulli(p) => {
                if rng.next_f64() < p {
                    1.0
                } else {
                    0.0
                }
            }
            Distribution::Uniform(low, high) => low + (high - low) * rng.next_f64(),
            Distribution::Normal(mean, std) => {
                // 1 - u lies in (0, 1], keeping ln away from zero.
                let u1 = 1.0 - rng.next_f64();
                let u2 = rng.next_f64();
                let radius = libm::sqrt(-2.0 * libm::log(u1));
                mean + std * radius * libm::cos(2.0 * core::f64::consts::PI * u2)
            }
        }
    }

    /// Draw one value converted to `E` (saturating, see [`Element::from_f64`]).
    pub fn sample<E: Element>(&self, rng: &mut Rng) -> E {
        E::from_f64(self.sample_f64(rng))
    }
}

/// Deterministic pseudo-random generator (xoshiro256++).
///
/// Not cryptographically secure. Serializable so that its state can be
/// checkpointed with a model.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rng {
    state: [u64; 4],
}

impl Rng {
    /// Seed by expanding `seed` with splitmix64, as the xoshiro authors
    /// recommend, so that similar seeds still give unrelated streams.
    pub fn seed_from_u64(seed: u64) -> Self {
        let mut x = seed;
        let mut state = [0u64; 4];
        for word in &mut state {
            *word = splitmix64(&mut x);
        }
        Self::from_state(state)
    }

    /// Resume from a state captured with [`Rng::state`].
    ///
    /// The all-zero state is a fixed point of xoshiro (it would output zeros
    /// forever); it is replaced by the state of `seed_from_u64(0)`.
    pub fn from_state(state: [u64; 4]) -> Self {
        if state == [0; 4] {
            return Self::seed_from_u64(0);
        }
        Self { state }
    }

    /// The full internal state; [`Rng::from_state`] continues from it.
    pub fn state(&self) -> [u64; 4] {
        self.state
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform float in `[0, 1)` with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
