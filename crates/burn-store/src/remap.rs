//! [`KeyRemapper`]: ordered regex rename rules for tensor names, and
//! [`map_indices_contiguous`] for PyTorch `nn.Sequential` gaps.

use std::collections::{BTreeMap, BTreeSet};

use regex::Regex;

use crate::StoreTensor;

/// Renames tensors with regular-expression rules, applied in the order they
/// were added, each to the result of the previous one.
///
/// Replacements use `regex` syntax (`$1`, `${name}`).
///
/// ```
/// use burn_store::KeyRemapper;
///
/// let remapper = KeyRemapper::new()
///     .add_pattern(r"^model\.", "")?          // strip a prefix
///     .add_pattern(r"\.fc(\d+)\.", ".linear$1.")?; // fc1 -> linear1
/// assert_eq!(remapper.remap_name("model.head.fc2.weight"), "head.linear2.weight");
/// # Ok::<(), regex::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct KeyRemapper {
    patterns: Vec<(Regex, String)>,
}

impl KeyRemapper {
    /// No rule: names are kept.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends the rule `from` → `to`.
    pub fn add_pattern(
        mut self,
        from: impl AsRef<str>,
        to: impl Into<String>,
    ) -> Result<Self, regex::Error> {
        self.patterns.push((Regex::new(from.as_ref())?, to.into()));
        Ok(self)
    }

    /// The rules `(from, to)`, in order.
    pub fn from_patterns<S1, S2>(patterns: Vec<(S1, S2)>) -> Result<Self, regex::Error>
    where
        S1: AsRef<str>,
        S2: Into<String>,
    {
        Self::from_pattern_iter(patterns)
    }

    /// The rules `(from, to)`, in order.
    pub fn from_pattern_iter<I, S1, S2>(iter: I) -> Result<Self, regex::Error>
    where
        I: IntoIterator<Item = (S1, S2)>,
        S1: AsRef<str>,
        S2: Into<String>,
    {
        iter.into_iter()
            .try_fold(Self::new(), |remapper, (from, to)| {
                remapper.add_pattern(from, to)
            })
    }

    /// Rules already compiled.
    pub fn from_compiled_patterns(patterns: Vec<(Regex, String)>) -> Self {
        Self { patterns }
    }

    /// Whether there is no rule.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The rules, in order.
    pub fn to_regex_pairs(&self) -> Vec<(Regex, String)> {
        self.patterns.clone()
    }

    /// `name` passed through every rule.
    pub fn remap_name(&self, name: &str) -> String {
        self.patterns
            .iter()
            .fold(name.to_owned(), |name, (from, to)| {
                from.replace_all(&name, to.as_str()).into_owned()
            })
    }

    /// Renames every tensor; returns them with the `(old, new)` pairs of the
    /// names that changed. Two tensors may end with one name: the stores
    /// report that as [`StoreError::DuplicateName`](crate::StoreError::DuplicateName).
    pub fn remap(&self, tensors: Vec<StoreTensor>) -> (Vec<StoreTensor>, Vec<(String, String)>) {
        let mut renamed = Vec::new();
        let tensors = tensors
            .into_iter()
            .map(|mut tensor| {
                let new = self.remap_name(tensor.name());
                if new != tensor.name() {
                    renamed.push((tensor.name().to_owned(), new.clone()));
                    tensor.set_name(new);
                }
                tensor
            })
            .collect();
        (tensors, renamed)
    }
}

/// Renumbers the index segments of tensor names so that, under each
/// prefix, the indices in use become `0, 1, 2, …` in order.
///
/// A PyTorch `nn.Sequential(conv, relu, conv)` names its weights
/// `features.0.weight` and `features.2.weight` (the ReLU has none); the
/// matching Burn `Vec<Conv2d>` has paths `features.0` and `features.1`.
/// Returns the tensors and the `(old, new)` pairs of the names that changed.
///
/// ```
/// use burn_store::{StoreTensor, map_indices_contiguous};
/// use burn_tensor::TensorData;
///
/// let t = |name: &str| StoreTensor::from_data(name, TensorData::new(vec![0.0f32], [1]));
/// let (tensors, renamed) = map_indices_contiguous(vec![t("features.0.weight"), t("features.2.weight"), t("features.2.bias")]);
/// let names: Vec<&str> = tensors.iter().map(|t| t.name()).collect();
/// assert_eq!(names, ["features.0.weight", "features.1.weight", "features.1.bias"]);
/// assert_eq!(renamed.len(), 2);
/// ```
pub fn map_indices_contiguous(
    tensors: Vec<StoreTensor>,
) -> (Vec<StoreTensor>, Vec<(String, String)>) {
    map_indices_contiguous_except(tensors, |_| false)
}

/// [`map_indices_contiguous`], leaving alone the index segments whose prefix
/// (the name up to the index, without the dot) `keep` accepts.
pub fn map_indices_contiguous_except(
    tensors: Vec<StoreTensor>,
    keep: impl Fn(&str) -> bool,
) -> (Vec<StoreTensor>, Vec<(String, String)>) {
    // Every index in use under each prefix (of original names).
    let mut indices: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for tensor in &tensors {
        for_each_index(tensor.name(), |prefix, index| {
            indices.entry(prefix.to_owned()).or_default().insert(index);
        });
    }
    let rank: BTreeMap<&str, BTreeMap<usize, usize>> = indices
        .iter()
        .filter(|(prefix, _)| !keep(prefix))
        .map(|(prefix, set)| {
            let ranks = set
                .iter()
                .enumerate()
                .map(|(rank, &index)| (index, rank))
                .collect();
            (prefix.as_str(), ranks)
        })
        .collect();

    let mut renamed = Vec::new();
    let tensors = tensors
        .into_iter()
        .map(|mut tensor| {
            let name = tensor.name().to_owned();
            let segments: Vec<&str> = name.split('.').collect();
            let mut out = Vec::with_capacity(segments.len());
            for (i, segment) in segments.iter().enumerate() {
                let prefix_len = segments[..i].iter().map(|s| s.len() + 1).sum::<usize>();
                let prefix = &name[..prefix_len.saturating_sub(1)];
                let new = segment
                    .parse::<usize>()
                    .ok()
                    .filter(|_| i > 0)
                    .and_then(|index| rank.get(prefix)?.get(&index).copied());
                match new {
                    Some(rank) => out.push(rank.to_string()),
                    None => out.push((*segment).to_owned()),
                }
            }
            let new = out.join(".");
            if new != name {
                renamed.push((name, new.clone()));
                tensor.set_name(new);
            }
            tensor
        })
        .collect();
    (tensors, renamed)
}

/// Calls `f(prefix, index)` for every segment after the first that is a
/// decimal number, with the name up to it.
fn for_each_index(name: &str, mut f: impl FnMut(&str, usize)) {
    let mut start = 0;
    for (i, segment) in name.split('.').enumerate() {
        if i > 0
            && let Ok(index) = segment.parse::<usize>()
        {
            f(&name[..start - 1], index);
        }
        start += segment.len() + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_tensor::TensorData;

    fn names(tensors: &[StoreTensor]) -> Vec<&str> {
        tensors.iter().map(|t| t.name()).collect()
    }

    #[test]
    fn rules_apply_in_order() {
        let r = KeyRemapper::new()
            .add_pattern("^a\\.", "b.")
            .unwrap()
            .add_pattern("^b\\.", "c.")
            .unwrap();
        assert_eq!(r.remap_name("a.w"), "c.w");
    }

    #[test]
    fn nested_indices_are_renumbered_per_prefix() {
        let t = |n: &str| StoreTensor::from_data(n, TensorData::new(vec![0u8], [1]));
        let input = vec![t("b.1.c.3.w"), t("b.1.c.5.w"), t("b.4.c.3.w"), t("x.7")];
        let (out, _) = map_indices_contiguous(input.clone());
        assert_eq!(names(&out), ["b.0.c.0.w", "b.0.c.1.w", "b.1.c.0.w", "x.0"]);
        let (out, _) = map_indices_contiguous_except(input, |p| p == "b");
        assert_eq!(names(&out), ["b.1.c.0.w", "b.1.c.1.w", "b.4.c.0.w", "x.0"]);
    }
}
