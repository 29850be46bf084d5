//! Operations used by neural-network modules.

use burn_std::Shape;

use crate::{Backend, FloatTensor, IntTensor, TensorMetadata};

/// Operations that modules (layers) build on.
///
/// Convolution, pooling, interpolation and attention join this trait with
/// the layers that need them; embedding is here from the start because it is
/// a pure composition of indexing primitives.
pub trait ModuleOps<B: Backend> {
    /// Looks up rows of `weights` (`[n_embeddings, d_model]`) for each index of
    /// `indices` (`[batch, seq]`), giving `[batch, seq, d_model]`.
    fn embedding(weights: FloatTensor<B>, indices: IntTensor<B>) -> FloatTensor<B> {
        let [batch, seq] = dims2("embedding", &indices.shape());
        let d_model = weights.shape().dims[1];
        let flat = B::int_reshape(indices, Shape::new([batch * seq]));
        let rows = B::float_select(weights, 0, flat);
        B::float_reshape(rows, Shape::new([batch, seq, d_model]))
    }

    /// The gradient of [`embedding`](ModuleOps::embedding) with respect to the
    /// weights: each output row's gradient is added into the row it came from.
    fn embedding_backward(
        weights: FloatTensor<B>,
        output_grad: FloatTensor<B>,
        indices: IntTensor<B>,
    ) -> FloatTensor<B> {
        let [batch, seq] = dims2("embedding_backward", &indices.shape());
        let [n, d_model] = dims2("embedding_backward", &weights.shape());
        let device = B::float_device(&weights);
        let zeros = B::float_zeros(Shape::new([n, d_model]), &device, weights.dtype());
        let flat = B::int_reshape(indices, Shape::new([batch * seq]));
        let grad = B::float_reshape(output_grad, Shape::new([batch * seq, d_model]));
        B::float_select_add(zeros, 0, flat, grad)
    }
}

#[track_caller]
fn dims2(op: &str, shape: &Shape) -> [usize; 2] {
    match shape.dims[..] {
        [a, b] => [a, b],
        _ => panic!("{op}: expected 2 dims, got shape {shape}"),
    }
}
