//! [`ParamGroup`]: a selection of a module's parameters, by id or by path.

use std::collections::BTreeSet;
use std::string::String;
use std::vec::Vec;

use burn_tensor::{Bool, Int, Tensor};

use super::{Flag, Module, ModuleVisitor, Param, ParamId};

/// A set of parameters (tensors and flags), selected by [`ParamId`] or by
/// module path. Used to freeze or unfreeze part of a module.
///
/// A group is a union of selectors; a parameter belongs to it when any
/// selector matches its id or its path.
///
/// ```
/// use burn_core::module::{ParamGroup, ParamId};
///
/// let id = ParamId::new();
/// let group = ParamGroup::subtree("encoder").union(ParamGroup::from_ids([id]));
/// assert!(group.matches(&ParamId::new(), "encoder.layers.0.weight"));
/// assert!(group.matches(&id, "decoder.bias"));
/// assert!(!group.matches(&ParamId::new(), "encoder_norm.weight"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamGroup {
    selectors: Vec<Selector>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Selector {
    All,
    Ids(BTreeSet<ParamId>),
    /// A path and everything below it.
    Subtree(String),
}

impl ParamGroup {
    /// Every parameter.
    pub fn all() -> Self {
        Self {
            selectors: vec![Selector::All],
        }
    }

    /// The parameters with these ids.
    pub fn from_ids(ids: impl IntoIterator<Item = ParamId>) -> Self {
        Self {
            selectors: vec![Selector::Ids(ids.into_iter().collect())],
        }
    }

    /// The parameters of `module` (tensors and flags), by id: the group
    /// still names them after the module is moved, loaded or nested in
    /// another one.
    pub fn ids_from_module<M: Module>(module: &M) -> Self {
        let mut collector = IdCollector::default();
        module.visit(&mut collector);
        Self::from_ids(collector.0)
    }

    /// The parameter at `path` and every parameter below it: `"encoder"`
    /// selects `"encoder.layers.0.weight"`, not `"encoder_norm.weight"`.
    /// The empty path selects everything.
    pub fn subtree(path: impl Into<String>) -> Self {
        Self {
            selectors: vec![Selector::Subtree(path.into())],
        }
    }

    /// The parameters of either group.
    pub fn union(mut self, other: Self) -> Self {
        self.selectors.extend(other.selectors);
        self
    }

    /// Whether the parameter with `id` at `path` belongs to the group.
    pub fn matches(&self, id: &ParamId, path: &str) -> bool {
        self.selectors.iter().any(|selector| match selector {
            Selector::All => true,
            Selector::Ids(ids) => ids.contains(id),
            Selector::Subtree(root) => {
                root.is_empty()
                    || path
                        .strip_prefix(root.as_str())
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            }
        })
    }
}

#[derive(Default)]
struct IdCollector(Vec<ParamId>);

impl ModuleVisitor for IdCollector {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0.push(param.id);
    }

    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.0.push(param.id);
    }

    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.0.push(param.id);
    }

    fn visit_flag(&mut self, param: &Param<Flag>) {
        self.0.push(param.id);
    }
}
