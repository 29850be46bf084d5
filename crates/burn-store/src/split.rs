//! [`SplitAdapter`]: one packed source tensor into the several parameters
//! Burn keeps separate (PyTorch's `nn.MultiheadAttention.in_proj_weight`
//! into query, key and value; an LSTM's four gate blocks).

use regex::Regex;

use crate::{StoreError, StoreTensor};

/// Splits tensors whose name a rule matches into equal parts along one
/// dimension, each renamed by a replacement template. A rule with one
/// template renames. The first rule matching a name applies; splitting a
/// tensor read from a file only narrows its view, so nothing is copied
/// until each part is applied.
///
/// Stores run it on the source tensors before key remapping
/// (`with_split`), so the parts are then matched and adapted like any
/// tensor (a split `Linear` weight is still transposed by
/// [`PyTorchToBurnAdapter`](crate::PyTorchToBurnAdapter)).
///
/// ```
/// use burn_store::{SplitAdapter, StoreTensor};
/// use burn_tensor::TensorData;
///
/// let packed = StoreTensor::from_data("attn.in_proj_bias", TensorData::new((0..6).map(|v| v as f32).collect(), [6]));
/// let parts = SplitAdapter::multihead_attention().split(vec![packed])?;
/// let names: Vec<&str> = parts.iter().map(|t| t.name()).collect();
/// assert_eq!(names, ["attn.query.bias", "attn.key.bias", "attn.value.bias"]);
/// assert_eq!(parts[1].to_data()?.to_vec::<f32>()?, [2.0, 3.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct SplitAdapter {
    rules: Vec<SplitRule>,
}

#[derive(Clone, Debug)]
struct SplitRule {
    pattern: Regex,
    dim: usize,
    names: Vec<String>,
}

impl SplitAdapter {
    /// No rule.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a rule: a tensor whose name `pattern` matches is split along
    /// `dim` into as many equal parts as `names` has templates (`regex`
    /// replacement syntax applied to the whole name, e.g. `"${1}query.weight"`).
    pub fn with_rule<I, S>(
        mut self,
        pattern: &str,
        dim: usize,
        names: I,
    ) -> Result<Self, regex::Error>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.rules.push(SplitRule {
            pattern: Regex::new(pattern)?,
            dim,
            names: names.into_iter().map(Into::into).collect(),
        });
        Ok(self)
    }

    fn rule(self, pattern: &str, dim: usize, names: &[&str]) -> Self {
        self.with_rule(pattern, dim, names.iter().copied())
            .expect("the built-in split rules are valid")
    }

    /// Joins the rules of `other` after these.
    pub fn and(mut self, other: SplitAdapter) -> Self {
        self.rules.extend(other.rules);
        self
    }

    /// PyTorch's `nn.MultiheadAttention` into Burn's `MultiHeadAttention`:
    /// `in_proj_weight` `[3·d, d]` and `in_proj_bias` `[3·d]` into `query`,
    /// `key` and `value`; `q/k/v_proj_weight` (separate input sizes) renamed
    /// likewise; `out_proj` renamed `output`.
    pub fn multihead_attention() -> Self {
        let qkv = |leaf: &str| ["query", "key", "value"].map(|part| format!("${{1}}{part}.{leaf}"));
        let w = qkv("weight");
        let b = qkv("bias");
        Self::new()
            .rule(r"^(.*\.)?in_proj_weight$", 0, &[&w[0], &w[1], &w[2]])
            .rule(r"^(.*\.)?in_proj_bias$", 0, &[&b[0], &b[1], &b[2]])
            .rule(r"^(.*\.)?q_proj_weight$", 0, &["${1}query.weight"])
            .rule(r"^(.*\.)?k_proj_weight$", 0, &["${1}key.weight"])
            .rule(r"^(.*\.)?v_proj_weight$", 0, &["${1}value.weight"])
            .rule(r"^(.*\.)?out_proj\.(weight|bias)$", 0, &["${1}output.$2"])
    }

    /// A one-layer PyTorch `nn.LSTM` into Burn's `Lstm`: the `[4·h, …]`
    /// blocks of `weight_ih_l0`, `weight_hh_l0`, `bias_ih_l0`, `bias_hh_l0`
    /// (PyTorch's gate order: input, forget, cell, output) into each gate's
    /// `input_transform` and `hidden_transform`.
    pub fn lstm() -> Self {
        Self::lstm_direction("_l0", "")
    }

    /// A one-layer bidirectional PyTorch `nn.LSTM` into Burn's `BiLstm`: as
    /// [`lstm`](Self::lstm), the `_l0` blocks into `forward` and the
    /// `_l0_reverse` ones into `reverse`.
    pub fn bilstm() -> Self {
        Self::lstm_direction("_l0_reverse", "reverse.").and(Self::lstm_direction("_l0", "forward."))
    }

    fn lstm_direction(suffix: &str, into: &str) -> Self {
        let gates = ["input_gate", "forget_gate", "cell_gate", "output_gate"];
        let blocks = [
            ("weight_ih", "input_transform.weight"),
            ("weight_hh", "hidden_transform.weight"),
            ("bias_ih", "input_transform.bias"),
            ("bias_hh", "hidden_transform.bias"),
        ];
        blocks
            .iter()
            .fold(Self::new(), |adapter, (source, target)| {
                let names: Vec<String> = gates
                    .iter()
                    .map(|g| format!("${{1}}{into}{g}.{target}"))
                    .collect();
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                adapter.rule(&format!(r"^(.*\.)?{source}{suffix}$"), 0, &names)
            })
    }

    /// Whether there is no rule.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The tensors with every matching one replaced by its parts.
    pub fn split(&self, tensors: Vec<StoreTensor>) -> Result<Vec<StoreTensor>, StoreError> {
        let mut out = Vec::with_capacity(tensors.len());
        for tensor in tensors {
            let Some(rule) = self
                .rules
                .iter()
                .find(|r| r.pattern.is_match(tensor.name()))
            else {
                out.push(tensor);
                continue;
            };
            let parts = rule.names.len();
            let shape = tensor.shape();
            if parts == 0 || rule.dim >= shape.len() || !shape[rule.dim].is_multiple_of(parts) {
                return Err(StoreError::Split {
                    tensor: tensor.name().to_owned(),
                    shape: shape.to_vec(),
                    dim: rule.dim,
                    parts,
                });
            }
            let len = shape[rule.dim] / parts;
            for (i, template) in rule.names.iter().enumerate() {
                let name = rule
                    .pattern
                    .replace(tensor.name(), template.as_str())
                    .into_owned();
                let part = if parts == 1 {
                    tensor.clone()
                } else {
                    tensor.clone().narrow(rule.dim, i * len, len)
                };
                out.push(part.with_name(name));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_tensor::TensorData;

    #[test]
    fn lstm_blocks_go_to_their_gates() {
        let t = StoreTensor::from_data(
            "rnn.weight_ih_l0",
            TensorData::new((0..8).map(|v| v as f32).collect(), [8, 1]),
        );
        let parts = SplitAdapter::lstm().split(vec![t]).unwrap();
        let names: Vec<&str> = parts.iter().map(|t| t.name()).collect();
        assert_eq!(
            names,
            [
                "rnn.input_gate.input_transform.weight",
                "rnn.forget_gate.input_transform.weight",
                "rnn.cell_gate.input_transform.weight",
                "rnn.output_gate.input_transform.weight"
            ]
        );
        assert_eq!(
            parts[2].to_data().unwrap().to_vec::<f32>().unwrap(),
            [4.0, 5.0]
        );
    }

    #[test]
    fn bilstm_reverse_blocks_are_not_taken_for_forward_ones() {
        let t = |n: &str| StoreTensor::from_data(n, TensorData::new(vec![0.0f32; 4], [4]));
        let parts = SplitAdapter::bilstm()
            .split(vec![t("bias_hh_l0_reverse"), t("bias_hh_l0")])
            .unwrap();
        assert_eq!(parts[0].name(), "reverse.input_gate.hidden_transform.bias");
        assert_eq!(parts[4].name(), "forward.input_gate.hidden_transform.bias");
    }

    #[test]
    fn uneven_splits_are_errors() {
        let t = StoreTensor::from_data("in_proj_bias", TensorData::new(vec![0.0f32; 4], [4]));
        let err = SplitAdapter::multihead_attention()
            .split(vec![t])
            .unwrap_err();
        assert!(err.to_string().contains("3 equal parts"), "{err}");
    }
}
