//! [`ApplyResult`]: what loading tensors into a module did, tensor by tensor.

use std::fmt;

use burn_std::DType;

/// Why a tensor found for a parameter was not loaded into it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ApplyError {
    /// The tensor's shape (after the adapters) is not the parameter's.
    #[error("`{path}`: the source holds shape {found:?}, the module expects {expected:?}")]
    ShapeMismatch {
        /// The parameter's module path.
        path: String,
        /// The parameter's shape.
        expected: Vec<usize>,
        /// The tensor's shape.
        found: Vec<usize>,
    },
    /// The tensor is of another kind (float, int, bool) than the parameter.
    #[error(
        "`{path}`: the source holds {found:?} data, the module parameter is a {expected} tensor"
    )]
    DTypeMismatch {
        /// The parameter's module path.
        path: String,
        /// The parameter's kind: `"float"`, `"int"` or `"bool"`.
        expected: &'static str,
        /// The tensor's dtype.
        found: DType,
    },
    /// The parameter's device cannot hold the tensor's dtype (cast it with
    /// [`ModuleDTypeAdapter`](crate::ModuleDTypeAdapter) or
    /// [`FloatCastAdapter`](crate::FloatCastAdapter)).
    #[error("`{path}`: device {device} does not support {dtype:?}")]
    UnsupportedDType {
        /// The parameter's module path.
        path: String,
        /// The tensor's dtype.
        dtype: DType,
        /// The parameter's device.
        device: String,
    },
    /// Reading the tensor's data failed (the message names the file).
    #[error("`{path}`: {message}")]
    LoadError {
        /// The parameter's module path.
        path: String,
        /// What went wrong.
        message: String,
    },
}

impl ApplyError {
    /// The module path of the parameter concerned.
    pub fn path(&self) -> &str {
        match self {
            ApplyError::ShapeMismatch { path, .. }
            | ApplyError::DTypeMismatch { path, .. }
            | ApplyError::UnsupportedDType { path, .. }
            | ApplyError::LoadError { path, .. } => path,
        }
    }
}

/// What [`ModuleSnapshot::apply`](crate::ModuleSnapshot::apply) (and a
/// store's load) did with each tensor and parameter.
///
/// A parameter that was not applied keeps its value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ApplyResult {
    /// Module paths of the parameters that took a tensor, in traversal order.
    pub applied: Vec<String>,
    /// Module paths the filter left out, and source tensors that have no
    /// counterpart in Burn by design (see
    /// [`ModuleAdapter::is_ignored_source`](crate::ModuleAdapter::is_ignored_source)), sorted.
    pub skipped: Vec<String>,
    /// Parameters the source has no tensor for: `(module path, container
    /// path)`, e.g. `("fc.weight", "Struct:Model.Struct:Linear")`, in
    /// traversal order.
    pub missing: Vec<(String, String)>,
    /// Source tensors no parameter took, sorted.
    pub unused: Vec<String>,
    /// Tensors found for a parameter but refused, in traversal order.
    pub errors: Vec<ApplyError>,
}

impl ApplyResult {
    /// Whether no tensor was refused (missing and unused ones aside).
    pub fn is_success(&self) -> bool {
        self.errors.is_empty()
    }

    /// Whether every parameter took a tensor and every tensor was taken.
    pub fn is_complete(&self) -> bool {
        self.errors.is_empty() && self.missing.is_empty() && self.unused.is_empty()
    }
}

impl fmt::Display for ApplyResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} applied, {} skipped, {} missing, {} unused, {} refused",
            self.applied.len(),
            self.skipped.len(),
            self.missing.len(),
            self.unused.len(),
            self.errors.len()
        )?;
        for error in &self.errors {
            writeln!(f, "  refused: {error}")?;
        }
        for (path, containers) in &self.missing {
            writeln!(f, "  missing: `{path}` (in {containers})")?;
        }
        for path in &self.unused {
            writeln!(f, "  unused: `{path}`")?;
        }
        if !self.missing.is_empty() && !self.unused.is_empty() {
            writeln!(
                f,
                "  hint: a key remapping (`with_key_remapping`) renames source tensors to module paths"
            )?;
        }
        Ok(())
    }
}
