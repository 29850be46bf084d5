//! [`Reduction`]: how per-element losses become one value.

use burn::config::Config;
use burn::tensor::Tensor;

/// How a loss reduces its per-element values.
#[derive(Config, Debug, PartialEq, Copy)]
pub enum Reduction {
    /// The mean over every element.
    Mean,
    /// The sum over every element.
    Sum,
    /// The sum divided by the batch size (dim 0): the mathematically right
    /// mean of a per-sample divergence such as [`KLDivLoss`](super::KLDivLoss).
    BatchMean,
    /// The loss's own default: [`Mean`](Self::Mean) everywhere here.
    Auto,
}

impl Reduction {
    /// `loss` reduced to shape `[1]`.
    pub(crate) fn apply<const D: usize>(self, loss: Tensor<D>) -> Tensor<1> {
        match self {
            Self::Mean | Self::Auto => loss.mean(),
            Self::Sum => loss.sum(),
            Self::BatchMean => {
                let batch = loss.dims()[0].max(1);
                loss.sum() / batch as f64
            }
        }
    }
}
