//! # burn-backend-extension: generated run-time routing for burn-dispatch
//!
//! `burn-dispatch` holds tensors and devices of several backends in enums
//! (`DispatchTensor`, `DispatchDevice`) and must route every op to the
//! backend behind its operands. Writing those `match`es by hand for some 270
//! ops, times every backend, is what this crate avoids: the set of backends
//! is data (the catalog, `catalog.rs`), and the macros below turn it into
//! code, so adding a backend to the catalog updates every op at once.
//!
//! ## Map
//!
//! - `catalog.rs`: the fixed list of dispatchable backends (Cube, Flex,
//!   NdArray, LibTorch, Remote, Router, Capture): variant name, `burn-dispatch` feature,
//!   backend type. Everything generated for an entry is wrapped in
//!   `#[cfg(feature = "…")]`, evaluated in `burn-dispatch`, so only enabled
//!   backends compile. It also documents where autodiff routing will go.
//! - `route.rs`: the function-like macros.
//! - `dispatch/`: `#[backend_dispatch]`, split into `parse.rs` (classifying
//!   signatures, reporting unsupported ones) and `generate.rs` (the `match`es).
//!
//! ## What it must not depend on
//!
//! Only `proc-macro2`, `syn` and `quote`. It never names backend crates as
//! dependencies: backend paths are emitted as tokens and resolved in
//! `burn-dispatch`, the only crate the generated code is meant for. Generated
//! code refers to `crate::DispatchDevice`, `crate::DispatchTensor`,
//! `crate::BackendTensor`, `crate::routing` and `burn_backend`.
//!
//! ## The macros
//!
//! - [`route_device!`]`(device, |B, d| body)`: `match` on a `DispatchDevice`
//!   (reference or value), with `d` bound to the backend's device and `B` a
//!   type alias of the backend inside `body`.
//! - [`route_tensor!`]`(tensor, |B, t| body)`: the same over a
//!   `DispatchTensor`, with `t` bound to its `BackendTensor<B>`.
//! - [`backend_name!`]`(device)`: the catalog name (`"Flex"`, …) as `&'static str`.
//! - [`dispatch_backend_impls!`]`()`: implements
//!   `crate::routing::DispatchBackend` (wrapping and unwrapping the enums) for
//!   every enabled backend.
//! - [`#[backend_dispatch]`](macro@backend_dispatch): on an
//!   `impl XxxOps<Self> for Dispatch` block, generates the routing body of
//!   every fn declared without one.
//!
//! With no backend enabled the enums are empty; every generated `match` ends
//! with an arm that keeps it compiling (and is unreachable otherwise).

use proc_macro::TokenStream;

mod catalog;
mod dispatch;
mod extension;
mod route;

/// Routes on a `DispatchDevice`: `route_device!(device, |B, d| body)`.
///
/// Expands to a `match` with one arm per enabled backend, in which `d` binds
/// the backend's device (by reference when `device` is a reference) and `B`
/// is a type alias of the backend (it may be unused; `_B` reads as such).
#[proc_macro]
pub fn route_device(input: TokenStream) -> TokenStream {
    let route = syn::parse_macro_input!(input as route::Route);
    route::route("DispatchDevice", route).into()
}

/// Routes on a `DispatchTensor`: `route_tensor!(tensor, |B, t| body)`.
///
/// As [`route_device!`], with `t` bound to the `BackendTensor<B>` (a
/// reference when `tensor` is one, moved out when it is a value).
#[proc_macro]
pub fn route_tensor(input: TokenStream) -> TokenStream {
    let route = syn::parse_macro_input!(input as route::Route);
    route::route("DispatchTensor", route).into()
}

/// The catalog name of a `DispatchDevice`'s backend: `backend_name!(device)`.
#[proc_macro]
pub fn backend_name(input: TokenStream) -> TokenStream {
    let device = syn::parse_macro_input!(input as syn::Expr);
    route::backend_name(device).into()
}

/// `impl crate::routing::DispatchBackend for <backend>` for every enabled
/// catalog entry; invoked once, in `burn-dispatch`.
#[proc_macro]
pub fn dispatch_backend_impls(input: TokenStream) -> TokenStream {
    if !input.is_empty() {
        return syn::Error::new(
            proc_macro2::Span::call_site(),
            "dispatch_backend_impls!() takes no input",
        )
        .to_compile_error()
        .into();
    }
    route::dispatch_backend_impls().into()
}

/// Generates the routing bodies of an `impl XxxOps<Self> for Dispatch` block.
///
/// Declare each op without a body; the generated body picks the backend
/// from the first tensor parameter (or the first element of a `Vec` of
/// tensors), else from the `&Device<Self>` parameter, and calls
/// `<B as XxxOps<B>>::op` with:
///
/// | parameter | passed as |
/// |---|---|
/// | `FloatTensor<Self>` / `IntTensor<Self>` / `BoolTensor<Self>` | the backend primitive (`.float()`, `.int()`, `.bool()`) |
/// | `&FloatTensor<Self>` … | a reference to it (`.float_ref()` …) |
/// | `Vec<FloatTensor<Self>>` … | a `Vec` of primitives |
/// | `Option<FloatTensor<Self>>` … (a conv bias) | an `Option` of the primitive, checked when `Some`; never the routing key |
/// | `&Device<Self>` | the backend's device (creation ops) |
/// | anything not mentioning `Self` | unchanged |
///
/// Every tensor operand other than the key must be held by the same backend
/// on the same device, else the op panics with
/// `"{op}: operands are on different devices: {a} and {b}"`. Results of type
/// `FloatTensor<Self>` (etc.), tuples of those and `Device<Self>` are wrapped
/// back into the key's variant; other results are returned as they are.
///
/// A fn written with a body must carry `#[backend_dispatch(skip)]` (removed
/// by the macro); that is how ops with their own routing (`*_to_device`,
/// transactions) are written. Signatures the macro cannot route (a
/// `TransactionPrimitive<Self>`, a tensor next to a device, no routing key)
/// are compile errors naming the fn.
///
/// ```ignore
/// #[backend_dispatch]
/// impl FloatTensorOps<Self> for Dispatch {
///     fn float_add(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self>;
///
///     #[backend_dispatch(skip)]
///     fn float_to_device(tensor: FloatTensor<Self>, device: &Device<Self>) -> FloatTensor<Self> {
///         crate::routing::to_device("float_to_device", tensor, device)
///     }
/// }
/// ```
#[proc_macro_attribute]
pub fn backend_dispatch(attr: TokenStream, item: TokenStream) -> TokenStream {
    dispatch::expand(attr.into(), item.into()).into()
}

/// Implements a user's backend trait for `burn::backend::Dispatch`, routing
/// each op to the backend that holds its operands.
///
/// ```ignore
/// #[backend_extension(Autodiff, Flex, Cube: cfg(feature = "wgpu"))]
/// pub trait SquareBackend: burn::backend::Backend {
///     fn square(input: FloatTensor<Self>) -> FloatTensor<Self> {
///         Self::float_mul(input.clone(), input)
///     }
/// }
/// ```
///
/// Selectors: `Flex` and `Cube` (the backend types dispatch holds, so with
/// Burn's `fusion` feature `Fusion<Flex>` and `Fusion<Cube>`), each
/// optionally with a condition on the calling crate's features
/// (`Cube: cfg(feature = "wgpu")`), and `Autodiff` (an operand with an
/// autodiff context runs the op on `Autodiff<Dispatch, C>`, plain float
/// operands as constants; operands with different checkpointing strategies
/// panic), and `Fusion` (`impl Trait for Fusion<B>`, each op recorded
/// lazily, described by `#[fusion(dtype = .., shape = ..)]`,
/// `#[fusion(meta = ..)]` or `#[fusion(default)]`; generated when Burn has
/// its `fusion` feature). Each listed backend needs an implementation of
/// the trait.
/// Calling an op on a backend the list leaves out panics, naming the op,
/// the backend and the list. Parameters and results are classified as for
/// `#[backend_dispatch]` (tensor primitives of `Self` by value, by
/// reference, in a `Vec` or an `Option`, `&Device<Self>`, and types not
/// mentioning `Self`); anything else is a compile error naming the fn.
#[proc_macro_attribute]
pub fn backend_extension(attr: TokenStream, item: TokenStream) -> TokenStream {
    extension::expand(attr.into(), item.into()).into()
}

/// A struct or enum of tensor primitives that backend extension ops take
/// (`#[extension_type] boxes: Boxes<Self>`) and return (`-> Boxes<Self>`).
///
/// ```ignore
/// #[derive(ExtensionType)]
/// pub struct Boxes<B: Backend> {
///     pub coords: FloatTensor<B>,
///     pub scores: FloatTensor<B>,
///     pub count: usize, // moved as it is
/// }
/// ```
///
/// The type takes one type parameter, its backend. Fields that are
/// `FloatTensor<B>`, `IntTensor<B>`, `BoolTensor<B>` or
/// `QuantizedTensor<B>` (or an `Option` or `Vec` of one) are the tensors
/// routed, checked and converted; a field marked `#[extension_type]` is a
/// nested type deriving this; any other field must not name `B` and is
/// moved unchanged. `#[extension_type(fusion)]` on the type is accepted
/// (the seeds' marker for types a Fusion implementation handles; struct
/// and enum ops are not registered lazily yet, so they take
/// `#[fusion(default)]`).
#[proc_macro_derive(ExtensionType, attributes(extension_type))]
pub fn derive_extension_type(item: TokenStream) -> TokenStream {
    extension::derive::expand(item.into()).into()
}
