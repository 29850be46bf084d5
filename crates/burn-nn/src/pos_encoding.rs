//! [`PositionalEncoding`]: fixed sinusoids added to token embeddings.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};

/// Configuration of a [`PositionalEncoding`].
#[derive(Config, Debug)]
pub struct PositionalEncodingConfig {
    /// Size of each embedding (even).
    pub d_model: usize,
    /// The longest sequence the table covers.
    #[config(default = 5000)]
    pub max_sequence_size: usize,
    /// The longest wavelength, `10000` in "Attention is all you need".
    #[config(default = 10000)]
    pub max_timescale: usize,
}

/// Adds the sinusoidal position code of Vaswani et al.: for position `p`
/// and `i < d_model / 2`, feature `2i` gets `sin(p / T^(2i / d_model))`
/// and `2i + 1` gets the cosine of the same angle (`T` the max timescale).
///
/// The table is a constant tensor: not a parameter, not recorded.
#[derive(Module, Debug)]
pub struct PositionalEncoding {
    /// `[1, max_sequence_size, d_model]`.
    pub sinusoids: Tensor<3>,
}

impl PositionalEncodingConfig {
    /// Builds the table on `device`.
    ///
    /// # Panics
    /// If `d_model` is odd.
    pub fn init(&self, device: &Device) -> PositionalEncoding {
        let sinusoids =
            generate_sinusoids(self.max_sequence_size, self.d_model, self.max_timescale);
        PositionalEncoding {
            sinusoids: Tensor::<2>::from_data(sinusoids, device).unsqueeze::<3>(),
        }
    }
}

impl PositionalEncoding {
    /// `input + code`, for `input` `[batch, seq, d_model]`.
    ///
    /// # Panics
    /// If `seq` exceeds the table or `d_model` differs.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let [_, seq, d_model] = input.dims();
        let [_, max, d_table] = self.sinusoids.dims();
        assert!(
            seq <= max && d_model == d_table,
            "PositionalEncoding::forward: input {} does not fit the table [{max}, {d_table}]",
            input.shape()
        );
        let code = self
            .sinusoids
            .clone()
            .slice([0..1, 0..seq, 0..d_model])
            .to_device(&input.device());
        input + code
    }
}

/// The `[length, d_model]` table of sines and cosines, computed in f64.
///
/// # Panics
/// If `d_model` is odd.
pub fn generate_sinusoids(length: usize, d_model: usize, max_timescale: usize) -> TensorData {
    assert!(
        d_model.is_multiple_of(2),
        "generate_sinusoids: d_model must be even, got {d_model}"
    );
    let mut table = Vec::with_capacity(length * d_model);
    for position in 0..length {
        for i in (0..d_model).step_by(2) {
            let angle = position as f64 / (max_timescale as f64).powf(i as f64 / d_model as f64);
            table.push(angle.sin() as f32);
            table.push(angle.cos() as f32);
        }
    }
    TensorData::new(table, [length, d_model])
}
