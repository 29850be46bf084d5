//! Metric-learning losses on pairs and triplets of embeddings.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Int, Tensor};

use super::Reduction;

/// Configuration of a [`CosineEmbeddingLoss`].
#[derive(Config, Debug)]
pub struct CosineEmbeddingLossConfig {
    /// For dissimilar pairs, cosine similarities below `margin` cost nothing.
    #[config(default = 0.0)]
    pub margin: f32,
    /// How per-pair losses are reduced.
    #[config(default = "Reduction::Mean")]
    pub reduction: Reduction,
}

/// Pulls pairs labelled `1` together and pushes pairs labelled `-1` apart,
/// by cosine similarity (PyTorch's `CosineEmbeddingLoss`): `1 − cos` for
/// `y = 1`, `max(0, cos − margin)` for `y = −1`.
#[derive(Module, Debug)]
pub struct CosineEmbeddingLoss {
    /// Margin for dissimilar pairs.
    pub margin: f32,
    /// How per-pair losses are reduced.
    #[module(skip)]
    pub reduction: Reduction,
}

impl CosineEmbeddingLossConfig {
    /// Builds the loss.
    pub fn init(&self) -> CosineEmbeddingLoss {
        CosineEmbeddingLoss {
            margin: self.margin,
            reduction: self.reduction,
        }
    }
}

/// PyTorch's guard against zero vectors in the cosine.
const COSINE_EPS: f64 = 1e-12;

impl CosineEmbeddingLoss {
    /// The reduced loss of `x1`, `x2` `[batch, dim]` and `targets` `[batch]`
    /// (1 or −1); shape `[1]`.
    pub fn forward(&self, x1: Tensor<2>, x2: Tensor<2>, targets: Tensor<1, Int>) -> Tensor<1> {
        self.reduction
            .apply(self.forward_no_reduction(x1, x2, targets))
    }

    /// The per-pair loss, `[batch]`.
    ///
    /// # Panics
    /// If the shapes do not match.
    pub fn forward_no_reduction(
        &self,
        x1: Tensor<2>,
        x2: Tensor<2>,
        targets: Tensor<1, Int>,
    ) -> Tensor<1> {
        assert_eq!(
            x1.shape(),
            x2.shape(),
            "CosineEmbeddingLoss::forward: inputs {} and {} differ",
            x1.shape(),
            x2.shape()
        );
        let [batch, _] = x1.dims();
        assert_eq!(
            targets.dims()[0],
            batch,
            "CosineEmbeddingLoss::forward: {} targets for {batch} pairs",
            targets.dims()[0]
        );
        let dot = (x1.clone() * x2.clone()).sum_dim(1);
        let n1 = x1.square().sum_dim(1) + COSINE_EPS;
        let n2 = x2.square().sum_dim(1) + COSINE_EPS;
        let cos = (dot / (n1 * n2).sqrt()).reshape([batch]);
        let similar = cos.clone().neg() + 1.0;
        let dissimilar = (cos - self.margin as f64).clamp_min(0.0);
        let positive = targets.clone().equal_elem(1);
        let negative = targets.equal_elem(-1);
        let zeros = similar.zeros_like();
        zeros
            .mask_where(positive, similar)
            .mask_where(negative, dissimilar)
    }
}

/// Configuration of a [`TripletMarginLoss`].
#[derive(Config, Debug)]
pub struct TripletMarginLossConfig {
    /// How much closer the positive must be than the negative.
    #[config(default = 1.0)]
    pub margin: f32,
    /// The norm of the distance.
    #[config(default = 2.0)]
    pub p: f32,
    /// Added to each difference before the norm, so its gradient is finite.
    #[config(default = 1e-6)]
    pub eps: f32,
    /// Use the distance positive–negative when it is smaller than
    /// anchor–negative (Balntas et al.).
    #[config(default = false)]
    pub swap: bool,
    /// How per-triplet losses are reduced.
    #[config(default = "Reduction::Mean")]
    pub reduction: Reduction,
}

/// `max(d(a, p) − d(a, n) + margin, 0)` with `d` the p-norm distance
/// (PyTorch's `TripletMarginLoss`).
#[derive(Module, Debug)]
pub struct TripletMarginLoss {
    /// Margin.
    pub margin: f32,
    /// Norm.
    pub p: f32,
    /// Added to differences.
    pub eps: f32,
    /// Distance swap.
    pub swap: bool,
    /// How per-triplet losses are reduced.
    #[module(skip)]
    pub reduction: Reduction,
}

impl TripletMarginLossConfig {
    /// Builds the loss.
    ///
    /// # Panics
    /// If `p` is not positive.
    pub fn init(&self) -> TripletMarginLoss {
        assert!(
            self.p > 0.0,
            "TripletMarginLossConfig::init: p must be positive, got {}",
            self.p
        );
        TripletMarginLoss {
            margin: self.margin,
            p: self.p,
            eps: self.eps,
            swap: self.swap,
            reduction: self.reduction,
        }
    }
}

impl TripletMarginLoss {
    /// The reduced loss of `anchor`, `positive`, `negative` `[batch, dim]`;
    /// shape `[1]`.
    pub fn forward(
        &self,
        anchor: Tensor<2>,
        positive: Tensor<2>,
        negative: Tensor<2>,
    ) -> Tensor<1> {
        self.reduction
            .apply(self.forward_no_reduction(anchor, positive, negative))
    }

    /// The per-triplet loss, `[batch]`.
    ///
    /// # Panics
    /// If the shapes differ.
    pub fn forward_no_reduction(
        &self,
        anchor: Tensor<2>,
        positive: Tensor<2>,
        negative: Tensor<2>,
    ) -> Tensor<1> {
        for (name, other) in [("positive", &positive), ("negative", &negative)] {
            assert_eq!(
                anchor.shape(),
                other.shape(),
                "TripletMarginLoss::forward: anchor {} and {name} {} differ",
                anchor.shape(),
                other.shape()
            );
        }
        let [batch, _] = anchor.dims();
        let d_ap = self.distance(anchor.clone(), positive.clone());
        let mut d_an = self.distance(anchor, negative.clone());
        if self.swap {
            d_an = d_an.min_pair(self.distance(positive, negative));
        }
        (d_ap - d_an + self.margin as f64)
            .clamp_min(0.0)
            .reshape([batch])
    }

    // ‖a − b + eps‖_p per row: [batch, dim] -> [batch, 1]
    fn distance(&self, a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        let p = self.p as f64;
        let diff = (a - b + self.eps as f64).abs();
        if p == 2.0 {
            diff.square().sum_dim(1).sqrt()
        } else if p == 1.0 {
            diff.sum_dim(1)
        } else {
            diff.powf_scalar(p).sum_dim(1).powf_scalar(1.0 / p)
        }
    }
}
