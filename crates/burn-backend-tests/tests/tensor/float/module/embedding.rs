//! embedding against PyTorch's `F.embedding` (tests/reference/module_ops.py,
//! data in `data/embedding.rs`): repeated and out-of-order indices over a
//! batch of two.

use burn::tensor::module::embedding;

use super::data::embedding::*;
use super::support::*;
use crate::common::*;

#[test]
fn embedding_picks_the_rows_of_the_indices() {
    let case = &EMBEDDING;
    let weights = ramp::<2>(&case.weights, 1.0);
    let indices = TensorData::new(case.indices.to_vec(), case.indices_shape);
    let indices = Tensor::<2, Int>::from_data(indices.convert::<IntElem>(), &device());
    assert_output(embedding(weights, indices), case.shape, case.output);
}
