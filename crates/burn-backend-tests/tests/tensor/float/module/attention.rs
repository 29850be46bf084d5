//! attention against PyTorch's `F.scaled_dot_product_attention`
//! (tests/reference/module_ops.py, data in `data/attention.rs`): more keys
//! than queries, a boolean mask broadcast over heads, `is_causal` with more
//! keys than queries (top-left aligned), and an explicit scale.

use burn::tensor::module::{AttentionOptions, attention};

use super::data::Attention;
use super::data::attention::*;
use super::support::*;

#[track_caller]
fn check(case: &Attention) {
    let (q, k, v) = (ramp(&case.q, 0.5), ramp(&case.k, 0.25), ramp(&case.v, 1.0));
    let mask = case.masked.then(|| attention_mask(case.q[2], case.k[2]));
    let options = AttentionOptions {
        scale: case.scale,
        is_causal: case.causal,
    };
    assert_output(attention(q, k, v, mask, options), case.shape, case.output);
}

#[test]
fn attention_with_more_keys_than_queries() {
    check(&ATTENTION);
}

#[test]
fn attention_with_a_mask() {
    check(&ATTENTION_MASK);
}

#[test]
fn attention_causal() {
    check(&ATTENTION_CAUSAL);
}

#[test]
fn attention_with_a_scale() {
    check(&ATTENTION_SCALE);
}
