//! Reading several tensors back in one go.

use alloc::vec::Vec;

use burn_std::TensorData;

use crate::{Backend, BoolTensor, ExecutionError, FloatTensor, IntTensor};

/// Tensors to read back together.
pub struct TransactionPrimitive<B: Backend> {
    /// Float tensors, read in order.
    pub read_floats: Vec<FloatTensor<B>>,
    /// Int tensors, read in order.
    pub read_ints: Vec<IntTensor<B>>,
    /// Bool tensors, read in order.
    pub read_bools: Vec<BoolTensor<B>>,
}

impl<B: Backend> Default for TransactionPrimitive<B> {
    fn default() -> Self {
        Self {
            read_floats: Vec::new(),
            read_ints: Vec::new(),
            read_bools: Vec::new(),
        }
    }
}

/// The data read by a transaction, in the order the tensors were given.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct TransactionPrimitiveData {
    /// Float tensors' data.
    pub read_floats: Vec<TensorData>,
    /// Int tensors' data.
    pub read_ints: Vec<TensorData>,
    /// Bool tensors' data.
    pub read_bools: Vec<TensorData>,
}

/// Batched reads. A GPU backend overrides this to wait on the device once
/// instead of once per tensor.
pub trait TransactionOps<B: Backend> {
    /// Reads every tensor of the transaction.
    fn tr_execute(
        transaction: TransactionPrimitive<B>,
    ) -> Result<TransactionPrimitiveData, ExecutionError> {
        Ok(TransactionPrimitiveData {
            read_floats: transaction
                .read_floats
                .into_iter()
                .map(B::float_into_data)
                .collect::<Result<_, _>>()?,
            read_ints: transaction
                .read_ints
                .into_iter()
                .map(B::int_into_data)
                .collect::<Result<_, _>>()?,
            read_bools: transaction
                .read_bools
                .into_iter()
                .map(B::bool_into_data)
                .collect::<Result<_, _>>()?,
        })
    }
}
