//! # burn-derive: the derive macros of `burn::module` and `burn::config`
//!
//! Two derives, both expanded into code that names the facade's paths
//! (`burn::module::…`, `burn::config::…`, `burn::tensor::Device`). Inside
//! `burn-core` and in crates that depend on it without the facade, bring the
//! name into scope with `extern crate burn_core as burn;` (or `use burn_core
//! as burn;` at the crate root).
//!
//! - [`Module`](derive@Module): parameter traversal (`visit`, `map`), device
//!   moves (`to_device`, `fork`, `collect_devices`) and `Clone`, for structs
//!   (named, tuple, unit, generic) and enums. Every other method of the
//!   `Module` trait (records, `valid`, `train`, `freeze`, …) is a default
//!   built on these, so the generated code stays small: a model edit
//!   recompiles five short functions, not a record type and its codecs.
//! - [`Config`](derive@Config): `new` over the required fields, `with_*`
//!   builders for the defaulted ones, `Clone`, `Display` (pretty JSON) and
//!   serde through a private mirror type, plus `burn::config::Config`.
//!
//! ## What it must not depend on
//!
//! Only `proc-macro2`, `syn` and `quote`: the crates the generated code uses
//! are reached through `burn::…` paths at the expansion site, so this crate
//! compiles before, and independently of, everything it generates code for.
//!
//! ## Example
//!
//! The derives are exercised where their trait lives; see `burn-core`'s
//! crate docs and its `tests/derive_module.rs` and `tests/config.rs`.
//!
//! ## Map
//! - `module.rs`: `#[derive(Module)]`, with the `#[module(skip)]` field attribute.
//! - `config.rs`: `#[derive(Config)]`, with the `#[config(default = …)]` field attribute.
//! - `fields.rs`: field bindings and patterns shared by both.

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

mod config;
mod fields;
mod module;

/// Derives `burn::module::Module` (and `Clone`) for a struct or an enum.
///
/// Every field must itself be a module: a `Param<Tensor<D, K>>`, a
/// `Param<Flag>`, another derived module, a `Vec`, `Option`, `Box` or array
/// of modules, or a constant (numbers, `bool`, `String`, `Tensor`,
/// `PhantomData`, `Ignored<T>`). Constants are carried through every
/// transformation and never recorded. A field of any other type is carried
/// as a constant with `#[module(skip)]` (it must be `Clone + Send + Debug`).
///
/// Paths: a named field adds its name, a tuple field its index, an enum
/// variant its name (`Self::Conv(..)` → `"Conv"`), so the parameter `weight`
/// of the first element of `layers: Vec<Linear>` is `"layers.0.weight"`.
///
/// Generic modules write their own bounds (`struct Residual<M: Module>`);
/// the derive adds none.
#[proc_macro_derive(Module, attributes(module))]
pub fn derive_module(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    module::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives `burn::config::Config` for a struct with named fields, or for an
/// enum.
///
/// For a struct: fields marked `#[config(default = …)]` and `Option` fields
/// (default `None`) are left out of `new`, which takes the others in
/// declaration order, and each gets a `with_<field>` builder. A default is
/// any Rust expression; a string literal is read as Rust code
/// (`default = "Initializer::Zeros"`), except on a field of type `String`,
/// where it is the string itself. Loading JSON fills absent defaulted and
/// `Option` fields with their defaults; required fields must be present.
///
/// For both: `Clone`, `Display` (pretty JSON), serde's `Serialize` and
/// `Deserialize`, and the `Config` trait (`save`, `load`, …).
#[proc_macro_derive(Config, attributes(config))]
pub fn derive_config(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    config::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
