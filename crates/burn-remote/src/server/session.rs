//! One session: the interpreter of one connection, and the checks that keep
//! a hostile or buggy client from hurting anyone but itself.
//!
//! Two kinds of failure, told apart on purpose:
//!
//! - A **protocol violation** (an id that was never created, an id created
//!   twice, data whose byte count disagrees with its shape, a limit
//!   exceeded): no router sends it, so the sender is buggy or hostile. The
//!   session ends with [`SessionError`] and its tensors are freed.
//! - An **execution failure** of a well-formed operation (the backend
//!   rejects an out-of-range index, say, by panicking as a direct call
//!   would): the client must hear of it at its next read, as with a local
//!   backend, and its session must go on, because the other tensors are
//!   fine. The outputs of the failed operation are marked failed with the
//!   reason; an operation reading a failed tensor fails the same way
//!   without running; a read of one answers the reason.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use std::panic::{AssertUnwindSafe, catch_unwind};

use burn_backend::Backend;
use burn_ir::{OperationIr, TensorId, TensorIr, TensorStatus};
use burn_router::TensorInterpreter;
use burn_std::{DType, Shape, TensorData};

use crate::server::ServerSettings;
use crate::wire::{Request, ServerMessage};

/// A protocol violation: the session must end.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{op}: {reason}")]
pub struct SessionError {
    /// The operation or message at fault.
    pub op: String,
    /// What was wrong.
    pub reason: String,
}

fn violation(op: impl Into<String>, reason: impl Into<String>) -> SessionError {
    SessionError {
        op: op.into(),
        reason: reason.into(),
    }
}

/// The state of one session.
pub struct Session<B: Backend> {
    interpreter: TensorInterpreter<B>,
    /// Tensors whose creating operation failed, with the reason.
    failed: BTreeMap<TensorId, String>,
    /// Bytes of the tensors held, as declared by their creators (checked
    /// against what the backend produced by the interpreter).
    live_bytes: u64,
    sizes: BTreeMap<TensorId, u64>,
    max_bytes: u64,
    max_tensors: usize,
}

impl<B: Backend> Session<B> {
    /// A session on `device`.
    pub fn new(device: B::Device, settings: &ServerSettings) -> Self {
        Self {
            interpreter: TensorInterpreter::new(device),
            failed: BTreeMap::new(),
            live_bytes: 0,
            sizes: BTreeMap::new(),
            max_bytes: settings.max_session_bytes,
            max_tensors: settings.max_session_tensors,
        }
    }

    /// Bytes of the tensors the session holds.
    pub fn live_bytes(&self) -> u64 {
        self.live_bytes
    }

    /// Runs one request; a read or sync gives the answer to send.
    pub fn handle(&mut self, request: Request) -> Result<Option<ServerMessage>, SessionError> {
        match request {
            Request::Op(op) => self.op(op).map(|()| None),
            Request::Tensor { out, data } => self.tensor(out, data).map(|()| None),
            Request::Read { request, tensor } => {
                let result = self.read(&tensor)?;
                Ok(Some(ServerMessage::Data { request, result }))
            }
            Request::Sync { request } => {
                let device = self.interpreter.device().clone();
                let result =
                    guarded(|| B::sync(&device)).and_then(|r| r.map_err(|error| error.to_string()));
                Ok(Some(ServerMessage::Synced { request, result }))
            }
            Request::Seed(seed) => {
                let device = self.interpreter.device().clone();
                // A backend that cannot seed reports it as a panic; seeding is
                // not worth a session.
                let _ignored = guarded(|| B::seed(&device, seed));
                Ok(None)
            }
        }
    }

    fn tensor(&mut self, out: TensorIr, data: TensorData) -> Result<(), SessionError> {
        let op = "from_data";
        let bytes = self.check_output(op, &out)?;
        let expected = bytes_of(&data.shape, data.dtype).map_err(|reason| violation(op, reason))?;
        if data.bytes.len() as u64 != expected {
            return Err(violation(
                op,
                format!(
                    "{} bytes given for shape {} of {} ({expected} bytes)",
                    data.bytes.len(),
                    data.shape,
                    data.dtype
                ),
            ));
        }
        if data.shape != out.shape || data.dtype != out.dtype {
            return Err(violation(
                op,
                format!(
                    "data of shape {} and dtype {} declared as {} {}",
                    data.shape, data.dtype, out.shape, out.dtype
                ),
            ));
        }
        let id = out.id;
        match guarded(|| self.interpreter.register_tensor(&out, data)) {
            Ok(Ok(())) => self.track(id, bytes),
            Ok(Err(error)) => self.fail(&[id], error.to_string()),
            Err(panic) => self.fail(&[id], format!("{op}: {panic}")),
        }
        Ok(())
    }

    fn op(&mut self, op: OperationIr) -> Result<(), SessionError> {
        if let OperationIr::Drop(tensor) = &op {
            // An unknown id frees nothing and is no threat; the router drops
            // ids whose creation it abandoned (a shape check that panicked
            // on the client after the id was taken).
            let id = tensor.id;
            self.failed.remove(&id);
            self.interpreter.handles_mut().remove(id);
            self.untrack(id);
            return Ok(());
        }
        let (inputs, outputs) = {
            let tensors = op.tensors();
            let inputs: alloc::vec::Vec<(TensorId, TensorStatus)> =
                tensors.inputs.iter().map(|t| (t.id, t.status)).collect();
            let mut outputs = alloc::vec::Vec::with_capacity(tensors.outputs.len());
            for out in tensors.outputs.iter() {
                let bytes = self
                    .check_output("", out)
                    .map_err(|e| violation(op_name(&op), e.reason))?;
                outputs.push((out.id, bytes));
            }
            (inputs, outputs)
        };
        let mut declared: u64 = 0;
        for (_, bytes) in &outputs {
            declared = declared.saturating_add(*bytes);
        }
        if self.live_bytes.saturating_add(declared) > self.max_bytes {
            return Err(violation(
                op_name(&op),
                format!(
                    "the session would hold {} bytes, over its limit of {} bytes",
                    self.live_bytes.saturating_add(declared),
                    self.max_bytes
                ),
            ));
        }
        // An input whose creator failed: the failure propagates.
        let mut cause = None;
        for (id, _) in &inputs {
            if let Some(reason) = self.failed.get(id) {
                cause.get_or_insert_with(|| reason.clone());
            } else if !self.interpreter.handles().contains(*id) {
                return Err(violation(
                    op_name(&op),
                    format!("no tensor {id} is registered"),
                ));
            }
        }
        let output_ids: alloc::vec::Vec<TensorId> = outputs.iter().map(|(id, _)| *id).collect();
        if let Some(reason) = cause {
            self.consume(&inputs);
            self.fail(&output_ids, reason);
            return Ok(());
        }
        // Kept for the message of a panic: the op itself moves into the
        // interpreter, and formatting it up front would cost every op.
        let family = family(&op);
        let result = guarded(|| self.interpreter.execute(op));
        self.consume(&inputs);
        match result {
            Ok(Ok(())) => {
                for (id, bytes) in outputs {
                    self.track(id, bytes);
                }
            }
            Ok(Err(error)) => self.fail(&output_ids, error.to_string()),
            Err(panic) => self.fail(&output_ids, format!("{family} op: {panic}")),
        }
        Ok(())
    }

    fn read(&mut self, tensor: &TensorIr) -> Result<Result<TensorData, String>, SessionError> {
        let id = tensor.id;
        if let Some(reason) = self.failed.get(&id).cloned() {
            if tensor.status == TensorStatus::ReadWrite {
                self.failed.remove(&id);
            }
            return Ok(Err(reason));
        }
        if !self.interpreter.handles().contains(id) {
            return Err(violation("read", format!("no tensor {id} is registered")));
        }
        let result = guarded(|| self.interpreter.read(tensor));
        if !self.interpreter.handles().contains(id) {
            self.untrack(id);
        }
        Ok(match result {
            Ok(Ok(data)) => Ok(data),
            Ok(Err(error)) => Err(error.to_string()),
            Err(panic) => Err(format!("read: {panic}")),
        })
    }

    /// The bytes of a new tensor, after checking its id is fresh and the
    /// session's limits.
    fn check_output(&self, op: &str, out: &TensorIr) -> Result<u64, SessionError> {
        if self.interpreter.handles().contains(out.id) || self.failed.contains_key(&out.id) {
            return Err(violation(
                op,
                format!("tensor {} already exists (ids are never reused)", out.id),
            ));
        }
        if self.sizes.len() + self.failed.len() >= self.max_tensors {
            return Err(violation(
                op,
                format!("the session holds {} tensors, its limit", self.max_tensors),
            ));
        }
        bytes_of(&out.shape, out.dtype).map_err(|reason| violation(op, format!("output: {reason}")))
    }

    fn consume(&mut self, inputs: &[(TensorId, TensorStatus)]) {
        for (id, status) in inputs {
            if *status == TensorStatus::ReadWrite {
                self.failed.remove(id);
                if !self.interpreter.handles().contains(*id) {
                    self.untrack(*id);
                }
            }
        }
    }

    fn track(&mut self, id: TensorId, bytes: u64) {
        self.sizes.insert(id, bytes);
        self.live_bytes = self.live_bytes.saturating_add(bytes);
    }

    fn untrack(&mut self, id: TensorId) {
        if let Some(bytes) = self.sizes.remove(&id) {
            self.live_bytes -= bytes;
        }
    }

    fn fail(&mut self, ids: &[TensorId], reason: String) {
        for id in ids {
            // A multi-output op may have registered some outputs before failing.
            if self.interpreter.handles_mut().remove(*id).is_some() {
                self.untrack(*id);
            }
            self.failed.insert(*id, reason.clone());
        }
    }
}

/// Bytes of a tensor: its elements times their size, or for a quantized
/// tensor the length of its packed values and scales; an error when the
/// count overflows or the scheme does not fit the shape.
fn bytes_of(shape: &Shape, dtype: DType) -> Result<u64, String> {
    shape
        .try_num_bytes(dtype)
        .map(|bytes| bytes as u64)
        .map_err(|error| error.to_string())
}

/// Runs `f`, turning a panic (how backends reject bad operands) into its
/// message.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        if let Some(text) = payload.downcast_ref::<&str>() {
            (*text).to_string()
        } else if let Some(text) = payload.downcast_ref::<String>() {
            text.clone()
        } else {
            String::from("the backend panicked")
        }
    })
}

/// The family of an operation, for the message of a backend panic (which
/// names the operation itself).
fn family(op: &OperationIr) -> &'static str {
    match op {
        OperationIr::Init(_) => "init",
        OperationIr::Base(..) => "base",
        OperationIr::Numeric(..) => "numeric",
        OperationIr::Float(_) => "float",
        OperationIr::Int(_) => "int",
        OperationIr::Bool(_) => "bool",
        OperationIr::Module(_) => "module",
        OperationIr::Activation(_) => "activation",
        OperationIr::Quantized(op) => match *op {},
        OperationIr::Drop(_) => "drop",
        OperationIr::Custom(_) => "custom",
    }
}

/// The operation as its messages name it: the start of its debug form
/// (`Numeric(Float, Binary { op: Add`), enough to tell which op it was.
fn op_name(op: &OperationIr) -> String {
    let mut text = format!("{op:?}");
    if text.len() > 60 {
        let mut end = 60;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}
