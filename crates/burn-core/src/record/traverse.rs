//! The two traversals behind records: [`Collector`] (a visitor, for
//! `into_record`) and [`Loader`] (a mapper, for `load_record`).
//!
//! The per-parameter work is generic over rank and kind only where it must
//! build a `Tensor<D, K>`; the checks live in non-generic functions so they
//! compile once.

use std::collections::{HashMap, HashSet};
use std::string::{String, ToString};
use std::vec::Vec;

use burn_tensor::{Bool, DType, Int, Shape, Tensor, TensorData, TensorKind};

use super::{DTypePolicy, ModuleRecord, RecordEntry, RecordError};
use crate::module::{ModuleMapper, ModulePath, ModuleVisitor, Param, ParamId, Parameter};

/// Records every tensor parameter under its path.
#[derive(Default)]
pub(crate) struct Collector {
    path: ModulePath,
    seen: HashSet<String>,
    record: ModuleRecord,
}

impl Collector {
    pub(crate) fn into_record(self) -> ModuleRecord {
        self.record
    }

    fn add(&mut self, id: ParamId, data: TensorData) {
        let path = self.path.to_string();
        // Derived modules give every parameter its own path; a clash comes
        // from a hand-written `Module` impl and would silently drop weights.
        assert!(
            self.seen.insert(path.clone()),
            "into_record: two parameters share the path `{path}`"
        );
        self.record.push_new(RecordEntry { path, id, data });
    }
}

impl ModuleVisitor for Collector {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }

    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.add(param.id, param.base().into_data());
    }

    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.add(param.id, param.base().into_data());
    }

    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.add(param.id, param.base().into_data());
    }
}

/// Replaces every tensor parameter with the record's tensor at its path,
/// noting what does not fit; [`finish`](Loader::finish) reports it.
pub(crate) struct Loader {
    /// Entries not yet claimed, with their position in the record.
    entries: HashMap<String, (usize, RecordEntry)>,
    path: ModulePath,
    missing: Vec<String>,
    /// The first hard error; once set, the traversal leaves parameters alone.
    error: Option<RecordError>,
    allow_partial: bool,
    validate: bool,
    policy: DTypePolicy,
}

/// The kind of a tensor parameter.
#[derive(Clone, Copy)]
enum Kind {
    Float,
    Int,
    Bool,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Float => "float",
            Kind::Int => "int",
            Kind::Bool => "bool",
        }
    }

    fn accepts(self, dtype: DType) -> bool {
        match self {
            Kind::Float => dtype.is_float() || dtype.is_quantized(),
            Kind::Int => dtype.is_int(),
            Kind::Bool => dtype.is_bool(),
        }
    }
}

/// What a parameter expects of its entry.
struct Expected<'a> {
    kind: Kind,
    rank: usize,
    shape: Shape,
    /// The parameter's dtype, asked for only under `CastToModule` (it
    /// initializes a lazy parameter).
    dtype: &'a dyn Fn() -> DType,
    device: burn_tensor::Device,
}

impl Loader {
    pub(crate) fn new(record: ModuleRecord) -> Self {
        let (allow_partial, validate, policy) = (
            record.is_partial_allowed(),
            record.is_validated(),
            record.dtype_policy(),
        );
        let entries = record
            .into_entries()
            .into_iter()
            .enumerate()
            .map(|(i, entry)| (entry.path.clone(), (i, entry)))
            .collect();
        Self {
            entries,
            path: ModulePath::default(),
            missing: Vec::new(),
            error: None,
            allow_partial,
            validate,
            policy,
        }
    }

    /// The first error met, else the missing parameters, else the unused
    /// entries (the last two only when the record is strict).
    pub(crate) fn finish(self) -> Result<(), RecordError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        if !self.missing.is_empty() {
            return Err(RecordError::MissingTensors {
                paths: self.missing,
            });
        }
        if self.validate && !self.allow_partial && !self.entries.is_empty() {
            let mut unused: Vec<(usize, String)> = self
                .entries
                .into_values()
                .map(|(i, entry)| (i, entry.path))
                .collect();
            unused.sort();
            return Err(RecordError::UnusedTensors {
                paths: unused.into_iter().map(|(_, path)| path).collect(),
            });
        }
        Ok(())
    }

    fn load<const D: usize, K: TensorKind>(
        &mut self,
        param: Param<Tensor<D, K>>,
        kind: Kind,
    ) -> Param<Tensor<D, K>>
    where
        Tensor<D, K>: Parameter,
    {
        let expected = Expected {
            kind,
            rank: D,
            shape: param.shape(),
            dtype: &|| param.dtype(),
            device: param.device(),
        };
        let Some((id, data, dtype)) = self.take(expected) else {
            return param;
        };
        let tensor = Tensor::<D, K>::from_data(data, (&param.device(), dtype));
        Param::ready(id, tensor, param.is_require_grad())
    }

    /// Claims the entry at the current path and checks it against
    /// `expected`: the id, data and dtype to load, or `None` to keep the
    /// parameter (missing entry, or an error was noted).
    fn take(&mut self, expected: Expected<'_>) -> Option<(ParamId, TensorData, DType)> {
        if self.error.is_some() {
            return None;
        }
        let path = self.path.to_string();
        let Some((_, entry)) = self.entries.remove(&path) else {
            if self.validate && !self.allow_partial {
                self.missing.push(path);
            }
            return None;
        };
        match self.check(&path, &entry.data, &expected) {
            Ok(dtype) => Some((entry.id, entry.data, dtype)),
            Err(error) => {
                self.error = Some(error);
                None
            }
        }
    }

    fn check(
        &self,
        path: &str,
        data: &TensorData,
        expected: &Expected<'_>,
    ) -> Result<DType, RecordError> {
        let found = data.dtype;
        if !expected.kind.accepts(found) {
            return Err(RecordError::KindMismatch {
                path: path.to_string(),
                expected: expected.kind.name(),
                found,
            });
        }
        if data.shape.rank() != expected.rank {
            return Err(RecordError::RankMismatch {
                path: path.to_string(),
                expected: expected.rank,
                found: data.shape.rank(),
            });
        }
        if self.validate && data.shape != expected.shape {
            return Err(RecordError::ShapeMismatch {
                path: path.to_string(),
                expected: expected.shape.clone(),
                found: data.shape.clone(),
            });
        }
        let dtype = match self.policy {
            DTypePolicy::FromRecord => found,
            DTypePolicy::CastToModule => (expected.dtype)(),
        };
        if !expected.device.supports_dtype(dtype) {
            return Err(RecordError::UnsupportedDType {
                path: path.to_string(),
                dtype,
                device: expected.device.to_string(),
            });
        }
        Ok(dtype)
    }
}

impl ModuleMapper for Loader {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        self.load(param, Kind::Float)
    }

    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        self.load(param, Kind::Int)
    }

    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        self.load(param, Kind::Bool)
    }
}
