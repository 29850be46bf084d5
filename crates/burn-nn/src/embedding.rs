//! [`Embedding`]: a lookup table from token ids to vectors.

use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Int, Tensor};

use crate::Initializer;

/// Configuration of an [`Embedding`].
#[derive(Config, Debug)]
pub struct EmbeddingConfig {
    /// Number of rows (the vocabulary size).
    pub n_embedding: usize,
    /// Size of each vector.
    pub d_model: usize,
    /// How the table is drawn (standard Gaussian, as PyTorch).
    #[config(default = "Initializer::Normal { mean: 0.0, std: 1.0 }")]
    pub initializer: Initializer,
}

/// A table of `n_embedding` learned vectors of size `d_model`; the forward
/// pass picks the rows named by its input.
///
/// Parameter: `weight` `[n_embedding, d_model]`.
#[derive(Module, Debug)]
pub struct Embedding {
    /// The table.
    pub weight: Param<Tensor<2>>,
}

impl EmbeddingConfig {
    /// Builds the table on `device` (drawn at first use).
    pub fn init(&self, device: &Device) -> Embedding {
        let weight = self
            .initializer
            .init([self.n_embedding, self.d_model], device);
        Embedding { weight }
    }
}

impl Embedding {
    /// The rows of `input`'s ids: `[batch, seq]` → `[batch, seq, d_model]`.
    ///
    /// # Panics
    /// If an id is not below `n_embedding`.
    pub fn forward(&self, input: Tensor<2, Int>) -> Tensor<3> {
        let [batch, seq] = input.dims();
        let weight = self.weight.val();
        let d_model = weight.dims()[1];
        weight
            .select(0, input.reshape([batch * seq]))
            .reshape([batch, seq, d_model])
    }
}
