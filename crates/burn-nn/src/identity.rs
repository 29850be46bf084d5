//! [`Identity`]: a placeholder layer.

use burn::module::Module;
use burn::tensor::Tensor;

/// Returns its input unchanged: a stand-in where a layer is optional (a
/// residual branch without projection, an ablated block).
#[derive(Module, Debug, Default)]
pub struct Identity;

impl Identity {
    /// The layer.
    pub fn new() -> Self {
        Self
    }

    /// `input`, unchanged.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        input
    }
}
