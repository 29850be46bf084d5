//! What the Flex fusion tests share: the fused backend, serial access to
//! its statistics, tensors from values, reads, seeded values.
#![allow(dead_code)]

use burn_backend::{Backend, FloatTensor, TensorData};
use burn_flex::{Flex, FlexDevice};
use burn_fusion::{Fusion, FusionStatistics, statistics};
use burn_std::{DType, Shape};

/// Flex under the Fusion decorator.
pub type F = Fusion<Flex>;

static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The statistics are per device: tests that count blocks run one at a time.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn stats() -> FusionStatistics {
    statistics::<Flex>(&FlexDevice)
}

pub fn tensor<B: Backend<Device = FlexDevice>>(
    values: &[f32],
    shape: &[usize],
    dtype: DType,
) -> FloatTensor<B> {
    let data = TensorData::new(values.to_vec(), Shape::from(shape.to_vec())).convert_dtype(dtype);
    B::float_from_data(data, &FlexDevice)
}

pub fn read<B: Backend>(t: FloatTensor<B>) -> TensorData {
    B::float_into_data(t).unwrap()
}

/// `n` values in [-2, 2), a multiplicative hash of the index and `seed`.
pub fn values(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|i| ((i as u32).wrapping_mul(2654435761) ^ seed) % 1000)
        .map(|v| v as f32 / 250.0 - 2.0)
        .collect()
}

/// A xorshift generator for the random programs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
