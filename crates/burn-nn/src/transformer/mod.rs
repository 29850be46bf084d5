//! Transformer encoder and decoder stacks (Vaswani et al.), with post-norm
//! (the original, `norm_first = false`) or pre-norm residual blocks.

mod decoder;
mod encoder;

pub use decoder::{
    TransformerDecoder, TransformerDecoderConfig, TransformerDecoderInput, TransformerDecoderLayer,
};
pub use encoder::{
    TransformerEncoder, TransformerEncoderConfig, TransformerEncoderInput, TransformerEncoderLayer,
};

use burn::tensor::Tensor;

use crate::{Dropout, LayerNorm};

/// One residual sub-block: `norm(x + dropout(f(x)))` post-norm, or
/// `x + dropout(f(norm(x)))` pre-norm.
fn residual(
    x: Tensor<3>,
    norm: &LayerNorm,
    dropout: &Dropout,
    norm_first: bool,
    f: impl FnOnce(Tensor<3>) -> Tensor<3>,
) -> Tensor<3> {
    if norm_first {
        let y = f(norm.forward(x.clone()));
        x + dropout.forward(y)
    } else {
        let y = f(x.clone());
        norm.forward(x + dropout.forward(y))
    }
}
