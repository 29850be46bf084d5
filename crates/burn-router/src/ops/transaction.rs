//! `TransactionOps` of the router: the trait's reads, one through the
//! channel per tensor (each read waits only for the work it depends on).

use burn_backend::TransactionOps;

use crate::{BackendRouter, RunnerChannel};

impl<C: RunnerChannel> TransactionOps<Self> for BackendRouter<C> {}
