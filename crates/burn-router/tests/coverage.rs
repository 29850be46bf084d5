//! Every method of the backend contract is recorded as IR by the router.
//!
//! The compiler already refuses a router that leaves a required method out.
//! A provided method (a composite with a default body) would silently fall
//! back to its default, which records its primitives instead of the method
//! itself and loses a backend's own override (Flex's fused softmax, say).
//! This test reads the ops traits of `burn-backend` and the router's ops
//! files and fails for any method of the traits the router does not
//! implement, unless it is listed below with the reason.

use std::collections::BTreeSet;

/// Trait methods the router deliberately leaves to their defaults.
const NOT_RECORDED: &[(&str, &str)] = &[
    // Autodiff hooks: the identity outside the autodiff decorator.
    ("float_detach", "autodiff hook"),
    ("float_set_require_grad", "autodiff hook"),
    ("float_is_require_grad", "autodiff hook"),
    // Batched reads: the default reads each tensor through the channel.
    ("tr_execute", "reads go through the channel"),
];

const TRAITS: &[(&str, &str)] = &[
    (
        "float.rs",
        include_str!("../../burn-backend/src/ops/float.rs"),
    ),
    ("int.rs", include_str!("../../burn-backend/src/ops/int.rs")),
    (
        "bool.rs",
        include_str!("../../burn-backend/src/ops/bool.rs"),
    ),
    (
        "module.rs",
        include_str!("../../burn-backend/src/ops/module.rs"),
    ),
    (
        "activation.rs",
        include_str!("../../burn-backend/src/ops/activation.rs"),
    ),
    (
        "transaction.rs",
        include_str!("../../burn-backend/src/ops/transaction.rs"),
    ),
];

const ROUTER: &[&str] = &[
    include_str!("../src/ops/float.rs"),
    include_str!("../src/ops/int.rs"),
    include_str!("../src/ops/bool.rs"),
    include_str!("../src/ops/module.rs"),
    include_str!("../src/ops/activation.rs"),
    include_str!("../src/ops/transaction.rs"),
];

/// The methods declared inside `pub trait … {` blocks: lines indented by
/// four spaces that start with `fn `.
fn trait_methods(source: &str) -> Vec<String> {
    let mut methods = Vec::new();
    let mut in_trait = false;
    for line in source.lines() {
        if line.starts_with("pub trait ") {
            in_trait = true;
        } else if line.starts_with('}') {
            in_trait = false;
        } else if in_trait && let Some(rest) = line.strip_prefix("    fn ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            methods.push(name);
        }
    }
    methods
}

/// The methods of the `impl … for BackendRouter<C>` blocks.
fn implemented(source: &str) -> BTreeSet<String> {
    let mut methods = BTreeSet::new();
    let mut in_impl = false;
    for line in source.lines() {
        if line.starts_with("impl<C: RunnerChannel>") {
            in_impl = true;
        } else if line.starts_with('}') {
            in_impl = false;
        } else if in_impl && let Some(rest) = line.strip_prefix("    fn ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            methods.insert(name);
        }
    }
    methods
}

#[test]
fn every_trait_method_is_recorded_by_the_router() {
    let implemented: BTreeSet<String> = ROUTER.iter().flat_map(|s| implemented(s)).collect();
    let skipped: BTreeSet<&str> = NOT_RECORDED.iter().map(|(name, _)| *name).collect();
    let mut missing = Vec::new();
    let mut total = 0;
    for (file, source) in TRAITS {
        let methods = trait_methods(source);
        assert!(
            !methods.is_empty(),
            "no trait methods found in {file}: the parser is stale"
        );
        for method in methods {
            total += 1;
            if !implemented.contains(&method) && !skipped.contains(method.as_str()) {
                missing.push(format!("{file}: {method}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the router does not record these trait methods (implement them in \
         crates/burn-router/src/ops, or list them in NOT_RECORDED with the reason):\n{}",
        missing.join("\n")
    );
    // The parser found the contract (about 290 methods today).
    assert!(total > 250, "only {total} trait methods found");
}

#[test]
fn the_exceptions_are_trait_methods() {
    let all: BTreeSet<String> = TRAITS.iter().flat_map(|(_, s)| trait_methods(s)).collect();
    for (name, _) in NOT_RECORDED {
        assert!(
            all.contains(*name),
            "{name} is listed in NOT_RECORDED but is not a trait method"
        );
    }
}
