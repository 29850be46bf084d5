//! Transactions: hand-written, because a transaction holds tensors of every
//! kind and possibly of several backends (see [`crate::routing::tr_execute`]).

use burn_backend::{
    ExecutionError, TransactionOps, TransactionPrimitive, TransactionPrimitiveData,
};
use burn_backend_extension::backend_dispatch;

use crate::Dispatch;

#[backend_dispatch]
impl TransactionOps<Self> for Dispatch {
    #[backend_dispatch(skip)]
    fn tr_execute(
        transaction: TransactionPrimitive<Self>,
    ) -> Result<TransactionPrimitiveData, ExecutionError> {
        crate::routing::tr_execute(transaction)
    }
}
