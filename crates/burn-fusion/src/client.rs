//! The lazy executor of one device: the queue, its flush, and the tensors
//! whose computation failed.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::any::Any;
use core::sync::atomic::{AtomicU64, Ordering};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, MutexGuard};

use burn_backend::{ExecutionError, TensorData};
use burn_ir::{OperationIr, TensorId, TensorIr, TensorStatus};
use burn_router::{RunnerClient, TensorInterpreter};
use burn_std::DType;

use crate::plan::{Plan, PlanCache, Step};
use crate::{FusionBackend, OptimizationBuilder};

/// Operations queued before the queue runs on its own: long enough to hold
/// the element-wise chains between two matmuls, short enough that memory is
/// not held back for long.
pub const QUEUE_LIMIT: usize = 64;

/// What a client has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FusionStatistics {
    /// Queues executed.
    pub flushes: u64,
    /// Plans searched (a queue of a new relative form).
    pub searches: u64,
    /// Plans reused from the cache.
    pub cache_hits: u64,
    /// Blocks executed fused.
    pub fused_blocks: u64,
    /// Operations executed inside fused blocks.
    pub fused_operations: u64,
    /// Operations executed on their own.
    pub single_operations: u64,
}

struct State<B: FusionBackend> {
    queue: Vec<OperationIr>,
    interpreter: TensorInterpreter<B>,
    builders: Vec<Box<dyn OptimizationBuilder<B>>>,
    cache: PlanCache<B>,
    /// Tensors whose computation failed, with why, until they are read or
    /// forgotten: a failure surfaces on the reads it affects, nowhere else.
    failed: BTreeMap<TensorId, String>,
    stats: FusionStatistics,
}

/// The fusing client of one device.
pub struct FusionClient<B: FusionBackend> {
    device: B::Device,
    state: Mutex<State<B>>,
    next_id: AtomicU64,
}

impl<B: FusionBackend> core::fmt::Debug for FusionClient<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "fusion<{}>", B::name(&self.device))
    }
}

static CLIENTS: Mutex<Vec<Arc<dyn Any + Send + Sync>>> = Mutex::new(Vec::new());

impl<B: FusionBackend> FusionClient<B> {
    /// The client of `device`, created on first use.
    pub fn of(device: &B::Device) -> Arc<Self> {
        let mut clients = CLIENTS.lock().unwrap_or_else(|e| e.into_inner());
        for client in clients.iter() {
            if let Ok(client) = client.clone().downcast::<Self>()
                && client.device == *device
            {
                return client;
            }
        }
        let client = Arc::new(Self {
            device: device.clone(),
            state: Mutex::new(State {
                queue: Vec::new(),
                interpreter: TensorInterpreter::new(device.clone()),
                builders: B::optimizations(device),
                cache: PlanCache::new(),
                failed: BTreeMap::new(),
                stats: FusionStatistics::default(),
            }),
            next_id: AtomicU64::new(0),
        });
        clients.push(client.clone());
        client
    }

    /// What the client has done so far.
    pub fn statistics(&self) -> FusionStatistics {
        let state = self.state();
        FusionStatistics {
            searches: state.cache.searches,
            cache_hits: state.cache.hits,
            ..state.stats
        }
    }

    /// How many tensors the device holds (queued work included once run).
    pub fn tensor_count(&self) -> usize {
        let mut state = self.state();
        self.flush(&mut state);
        state.interpreter.handles().len()
    }

    fn state(&self) -> MutexGuard<'_, State<B>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs every queued operation.
    fn flush(&self, state: &mut State<B>) {
        if state.queue.is_empty() {
            return;
        }
        B::execution_scope(&self.device, || self.flush_in_scope(state));
    }

    /// [`flush`](Self::flush) within the backend's execution scope.
    fn flush_in_scope(&self, state: &mut State<B>) {
        let ops = core::mem::take(&mut state.queue);
        state.stats.flushes += 1;
        #[cfg(feature = "tracing")]
        let _span = tracing::trace_span!("fusion.flush", ops = ops.len()).entered();
        let plan = if state.builders.is_empty() {
            Arc::new(Plan::singles(ops.len()))
        } else {
            let State {
                cache, builders, ..
            } = state;
            cache.plan(&ops, builders)
        };
        for step in &plan.steps {
            match step {
                Step::Single(index) => {
                    state.stats.single_operations += 1;
                    let op = &ops[*index];
                    guarded(state, core::slice::from_ref(op), |state| {
                        state
                            .interpreter
                            .execute(op.clone())
                            .map_err(|error| error.to_string())
                    });
                }
                Step::Fused {
                    start,
                    end,
                    builder,
                    optimization,
                } => {
                    let block = &ops[*start..*end];
                    let compute: Vec<&OperationIr> = block
                        .iter()
                        .filter(|op| !matches!(op, OperationIr::Drop(_)))
                        .collect();
                    state.stats.fused_blocks += 1;
                    state.stats.fused_operations += compute.len() as u64;
                    #[cfg(feature = "tracing")]
                    let _span = tracing::trace_span!(
                        "fusion.block",
                        builder = %builder,
                        ops = compute.len()
                    )
                    .entered();
                    let device = &self.device;
                    guarded(state, block, |state| {
                        optimization
                            .execute(&compute, state.interpreter.handles_mut(), device)
                            .map_err(|reason| format!("fused block ({builder}): {reason}"))?;
                        for op in block {
                            if let OperationIr::Drop(tensor) = op {
                                state.interpreter.handles_mut().remove(tensor.id);
                            }
                        }
                        Ok(())
                    });
                }
            }
        }
    }
}

/// Runs `run` for the operations `ops`, unless one of them reads a tensor
/// whose computation failed. A failure (an error or a panic of the backend)
/// is recorded on every tensor the operations create, so it surfaces on the
/// reads that depend on it; the inputs the operations consume are released
/// either way.
fn guarded<B: FusionBackend>(
    state: &mut State<B>,
    ops: &[OperationIr],
    run: impl FnOnce(&mut State<B>) -> Result<(), String>,
) {
    let inherited = ops.iter().find_map(|op| {
        op.tensors()
            .inputs
            .iter()
            .find_map(|t| state.failed.get(&t.id).map(|why| (t.id, why.clone())))
    });
    let failure = match inherited {
        Some((id, why)) => Some(format!(
            "it depends on {id}, whose computation failed: {why}"
        )),
        None => match catch_unwind(AssertUnwindSafe(|| run(state))) {
            Ok(Ok(())) => None,
            Ok(Err(why)) => Some(why),
            Err(panic) => Some(panic_message(&*panic)),
        },
    };
    let Some(why) = failure else {
        return;
    };
    for op in ops {
        let tensors = op.tensors();
        for input in &tensors.inputs {
            if input.status == TensorStatus::ReadWrite || matches!(op, OperationIr::Drop(_)) {
                state.interpreter.handles_mut().remove(input.id);
                state.failed.remove(&input.id);
            }
        }
        for output in tensors.outputs {
            state.interpreter.handles_mut().remove(output.id);
            state.failed.insert(output.id, why.clone());
        }
    }
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        String::from(*text)
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        String::from("the backend panicked")
    }
}

impl<B: FusionBackend> RunnerClient for FusionClient<B> {
    fn new_tensor_id(&self) -> TensorId {
        TensorId::new(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    fn register_op(&self, op: OperationIr) {
        let mut state = self.state();
        state.queue.push(op);
        if state.queue.len() >= QUEUE_LIMIT {
            self.flush(&mut state);
        }
    }

    fn register_tensor(&self, out: TensorIr, data: TensorData) {
        // A new id: nothing queued can refer to it yet, so no flush.
        let mut state = self.state();
        let registered = B::execution_scope(&self.device, || {
            state.interpreter.register_tensor(&out, data)
        });
        if let Err(error) = registered {
            state.failed.insert(out.id, error.to_string());
        }
    }

    fn read_tensor(&self, tensor: TensorIr) -> Result<TensorData, ExecutionError> {
        let mut state = self.state();
        self.flush(&mut state);
        if let Some(why) = state.failed.get(&tensor.id).cloned() {
            if tensor.status == TensorStatus::ReadWrite {
                state.failed.remove(&tensor.id);
            }
            return Err(ExecutionError::Failed {
                op: format!("reading {}", tensor.id),
                reason: why,
            });
        }
        B::execution_scope(&self.device, || state.interpreter.read(&tensor))
    }

    fn sync(&self) -> Result<(), ExecutionError> {
        let mut state = self.state();
        self.flush(&mut state);
        drop(state);
        B::execution_scope(&self.device, || B::sync(&self.device))
    }

    fn seed(&self, seed: u64) {
        // Random operations queued before the seed draw from the old state.
        let mut state = self.state();
        self.flush(&mut state);
        B::execution_scope(&self.device, || B::seed(&self.device, seed))
    }

    fn supports_dtype(&self, dtype: DType) -> bool {
        B::supports_dtype(&self.device, dtype)
    }

    fn default_float_dtype(&self) -> DType {
        B::default_float_dtype(&self.device)
    }

    fn default_int_dtype(&self) -> DType {
        B::default_int_dtype(&self.device)
    }

    fn bool_dtype(&self) -> DType {
        B::bool_dtype(&self.device)
    }

    fn index_dtype(&self) -> DType {
        B::index_dtype(&self.device)
    }

    fn device(&self) -> &dyn Any {
        &self.device
    }
}

/// The statistics of the fusion client of `device`.
pub fn statistics<B: FusionBackend>(device: &B::Device) -> FusionStatistics {
    FusionClient::<B>::of(device).statistics()
}
