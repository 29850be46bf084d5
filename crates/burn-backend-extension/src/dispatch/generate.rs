//! Writing the routing bodies.
//!
//! A generated op is one `match` on its routing key (the first tensor
//! parameter, else the device), with one arm per enabled catalog entry:
//!
//! ```text
//! fn float_add(lhs: FloatTensor<Self>, rhs: FloatTensor<Self>) -> FloatTensor<Self> {
//!     match lhs {
//!         #[cfg(feature = "flex")]
//!         crate::DispatchTensor::Flex(__key) => {
//!             type B = crate::backends::Flex;
//!             let __device = __key.device();
//!             let lhs = __key.float();
//!             let rhs = crate::routing::operand::<B>("float_add", &__device, rhs).float();
//!             crate::DispatchTensor::Flex(crate::BackendTensor::Float(
//!                 <B as FloatTensorOps<B>>::float_add(lhs, rhs),
//!             ))
//!         }
//!         // … one arm per catalog entry …
//!         _ => unreachable!(), // only reached in builds with no backend
//!     }
//! }
//! ```
//!
//! Checking the other operands (same backend, same device, else a panic
//! naming both devices) is generic code in `burn-dispatch::routing`, written
//! and compiled once per backend instead of once per op and operand.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};
use syn::ImplItem;

use super::parse::{DispatchImpl, Item, Kind, Op, Output, Param};
use crate::catalog;

pub(crate) fn generate(block: DispatchImpl) -> TokenStream {
    let DispatchImpl {
        mut header,
        items,
        errors,
    } = block;
    let (_, trait_path, _) = header.trait_.as_ref().expect("checked by parse");
    let target = Target::dispatch(trait_path.to_token_stream());
    header.items = items
        .into_iter()
        .map(|item| match item {
            Item::Kept(item) => item,
            Item::Generated(op) => ImplItem::Verbatim(generate_op(&op, &target)),
        })
        .collect();
    let errors = errors.map(|e| e.to_compile_error());
    quote! { #header #errors }
}

/// What a generated body routes to, and through which paths.
pub(crate) struct Target {
    /// The path of burn-dispatch's items: `crate` inside burn-dispatch; the
    /// facade's re-export for an extension in a user's crate.
    pub root: TokenStream,
    /// The trait whose fns are called on the chosen backend, `Self` → `B`.
    pub backend_trait: TokenStream,
    /// The same trait with `Self` → `__A` (the autodiff backend).
    pub autodiff_trait: TokenStream,
    /// The backends routed to, in order.
    pub backends: Vec<TargetBackend>,
    /// The `cfg` attribute of the autodiff route (empty: always), or `None`
    /// for no route.
    pub autodiff: Option<TokenStream>,
    /// `None` for burn-dispatch (every variant has an arm); for an
    /// extension, the selectors it lists, named in the panic of the arm
    /// that catches the other backends.
    pub listed: Option<String>,
}

/// One backend of a [`Target`].
pub(crate) struct TargetBackend {
    /// The attribute gating its arm (`#[cfg(...)]`), or nothing.
    pub cfg: TokenStream,
    /// Its `DispatchTensor` / `DispatchDevice` variant.
    pub variant: Ident,
    /// Its type.
    pub path: TokenStream,
}

impl Target {
    /// The whole catalog, for `#[backend_dispatch]` in burn-dispatch; the
    /// calls go through `trait_path` (`FloatTensorOps<Self>` as written in
    /// the impl, so they resolve through the same import).
    fn dispatch(trait_path: TokenStream) -> Self {
        let backends = catalog::CATALOG
            .iter()
            .map(|entry| {
                let feature = entry.feature;
                let path = entry.backend_path();
                TargetBackend {
                    cfg: quote! { #[cfg(feature = #feature)] },
                    variant: entry.variant_ident(),
                    path: quote! { #path },
                }
            })
            .collect();
        Self {
            root: quote! { crate },
            backend_trait: replace_self(trait_path.clone(), "B"),
            autodiff_trait: replace_self(trait_path, "__A"),
            backends,
            autodiff: Some(quote! { #[cfg(feature = "autodiff")] }),
            listed: None,
        }
    }

    /// One arm per backend, each under its `cfg`.
    fn arms(&self, mut arm: impl FnMut(&Ident, &TokenStream) -> TokenStream) -> TokenStream {
        self.backends
            .iter()
            .map(|b| {
                let cfg = &b.cfg;
                let body = arm(&b.variant, &b.path);
                quote! { #cfg #body }
            })
            .collect()
    }

    /// burn-dispatch's trace-level span of an op (its `tracing` feature);
    /// extensions get none (their crate has no such feature).
    fn span(&self, op_name: &str) -> TokenStream {
        if self.listed.is_some() {
            return TokenStream::new();
        }
        quote! {
            #[cfg(feature = "tracing")]
            let __span = ::tracing::trace_span!(#op_name).entered();
        }
    }

    /// The arm closing the `match` on a key of `kind`.
    fn fallback(&self, op_name: &str, key: KeyKind) -> TokenStream {
        let root = &self.root;
        let Some(listed) = &self.listed else {
            return catalog::no_backend_arm();
        };
        let call = match key {
            KeyKind::Tensor => {
                quote! { #root::extension::unlisted(#op_name, #listed, &__other) }
            }
            KeyKind::TensorRef => {
                quote! { #root::extension::unlisted(#op_name, #listed, __other) }
            }
            KeyKind::Device => {
                quote! { #root::extension::unlisted_device(#op_name, #listed, __other) }
            }
        };
        quote! {
            #[allow(unreachable_patterns)]
            __other => #call,
        }
    }
}

/// What the routing `match` is over.
#[derive(Clone, Copy)]
enum KeyKind {
    /// A `DispatchTensor` by value.
    Tensor,
    /// A `&DispatchTensor`.
    TensorRef,
    /// A `&DispatchDevice`.
    Device,
}

pub(crate) fn generate_op(op: &Op, target: &Target) -> TokenStream {
    let Target {
        root,
        backend_trait,
        ..
    } = target;
    let Op {
        attrs,
        sig,
        params,
        output,
    } = op;
    let name = &sig.ident;
    let op_name = name.to_string();
    let args = params.iter().map(|(param, _)| param);
    let call = quote! { <B as #backend_trait>::#name(#(#args),*) };

    if params.iter().any(|(_, p)| matches!(p, Param::Extension)) {
        return struct_routed(op, target, &call);
    }

    // The key: parse guarantees a tensor (or Vec of tensors) or a device exists.
    let key = params
        .iter()
        .position(|(_, p)| matches!(p, Param::Tensor { .. } | Param::TensorVec(_)))
        .or_else(|| params.iter().position(|(_, p)| matches!(p, Param::Device)))
        .expect("checked by parse");
    let (key_name, key_param) = &params[key];

    // Every other tensor operand, unwrapped against the key's backend and device.
    let operands: Vec<TokenStream> = params
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != key)
        .filter_map(|(_, (param, kind))| operand(root, &op_name, param, kind))
        .collect();
    // The key's device is only read when there is something to compare it to
    // (or, for a Vec key, its other elements).
    let needs_device = !operands.is_empty() || matches!(key_param, Param::TensorVec(_));
    let device = needs_device.then(|| quote! { let __device = __key.device(); });

    let (scrutinee, arms, key_kind) = match key_param {
        Param::Tensor { kind, by_ref } => {
            let take = method(if *by_ref {
                kind.take_ref()
            } else {
                kind.take()
            });
            let arms = target.arms(|variant, path| {
                let output = wrap(root, output, variant, &call);
                quote! {
                    #root::DispatchTensor::#variant(__key) => {
                        type B = #path;
                        #device
                        let #key_name = __key.#take();
                        #(#operands)*
                        #output
                    }
                }
            });
            let kind = if *by_ref {
                KeyKind::TensorRef
            } else {
                KeyKind::Tensor
            };
            (key_name.to_token_stream(), arms, kind)
        }
        Param::TensorVec(kind) => {
            // Routed by the first element; every element (the first included,
            // which is cheap) then goes through the operand check.
            let take = method(kind.take());
            let arms = target.arms(|variant, path| {
                let output = wrap(root, output, variant, &call);
                quote! {
                    #root::DispatchTensor::#variant(__key) => {
                        type B = #path;
                        #device
                        let #key_name = #root::routing::operands::<B, _>(
                            #op_name, &__device, #key_name, #root::BackendTensor::#take,
                        );
                        #(#operands)*
                        #output
                    }
                }
            });
            (
                quote! { #root::routing::first(#op_name, &#key_name) },
                arms,
                KeyKind::TensorRef,
            )
        }
        Param::Device => {
            let arms = target.arms(|variant, path| {
                let output = wrap(root, output, variant, &call);
                quote! {
                    #root::DispatchDevice::#variant(#key_name) => {
                        type B = #path;
                        #output
                    }
                }
            });
            (key_name.to_token_stream(), arms, KeyKind::Device)
        }
        Param::TensorOption(_) | Param::Plain | Param::Extension => {
            unreachable!("an optional, plain or struct parameter is never the key")
        }
    };
    let fallback = target.fallback(&op_name, key_kind);
    let autodiff = autodiff_route(op, target);
    let span = target.span(&op_name);
    quote! {
        #(#attrs)*
        #sig {
            #span
            #autodiff
            match #scrutinee {
                #arms
                #fallback
            }
        }
    }
}

/// An op with struct or enum inputs (`#[extension_type]`): routed by the
/// device of the first tensor across its inputs in order (a struct on a
/// variant holding none defers to the next input), every tensor operand,
/// the first included, then checked against that device.
fn struct_routed(op: &Op, target: &Target, call: &TokenStream) -> TokenStream {
    let root = &target.root;
    let Op {
        attrs,
        sig,
        params,
        output,
    } = op;
    let op_name = sig.ident.to_string();
    let candidates = params.iter().filter_map(|(name, param)| match param {
        Param::Tensor { by_ref: false, .. } => {
            Some(quote! { ::core::option::Option::Some(&#name) })
        }
        Param::Tensor { by_ref: true, .. } => Some(quote! { ::core::option::Option::Some(#name) }),
        Param::TensorVec(_) => Some(quote! { #name.first() }),
        Param::TensorOption(_) => Some(quote! { #name.as_ref() }),
        Param::Extension => Some(quote! { #root::extension::first_tensor(&#name) }),
        Param::Device | Param::Plain => None,
    });
    let operands: Vec<TokenStream> = params
        .iter()
        .filter_map(|(param, kind)| operand(root, &op_name, param, kind))
        .collect();
    let arms = target.arms(|variant, path| {
        let output = wrap(root, output, variant, call);
        quote! {
            #root::DispatchDevice::#variant(__device) => {
                type B = #path;
                let __device = ::core::clone::Clone::clone(__device);
                #(#operands)*
                #output
            }
        }
    });
    let fallback = target.fallback(&op_name, KeyKind::Device);
    let autodiff = autodiff_route(op, target);
    quote! {
        #(#attrs)*
        #sig {
            #autodiff
            let __route = #root::extension::route(#op_name, &[#(#candidates),*]);
            match &__route {
                #arms
                #fallback
            }
        }
    }
}

/// The statement unwrapping a non-key parameter, if it is a tensor operand.
fn operand(root: &TokenStream, op_name: &str, param: &Ident, kind: &Param) -> Option<TokenStream> {
    Some(match kind {
        Param::Tensor {
            kind,
            by_ref: false,
        } => {
            let take = method(kind.take());
            quote! {
                let #param = #root::routing::operand::<B>(#op_name, &__device, #param).#take();
            }
        }
        Param::Tensor { kind, by_ref: true } => {
            let take = method(kind.take_ref());
            quote! {
                let #param = #root::routing::operand_ref::<B>(#op_name, &__device, #param).#take();
            }
        }
        Param::TensorVec(kind) => {
            let take = method(kind.take());
            quote! {
                let #param = #root::routing::operands::<B, _>(
                    #op_name, &__device, #param, #root::BackendTensor::#take,
                );
            }
        }
        Param::TensorOption(kind) => {
            let take = method(kind.take());
            quote! {
                let #param = #param.map(|__tensor| {
                    #root::routing::operand::<B>(#op_name, &__device, __tensor).#take()
                });
            }
        }
        Param::Extension => quote! {
            let #param = #root::extension::unwrap_all::<B, _>(#op_name, &__device, #param);
        },
        // Parse rejects a device next to tensors; plain values pass through.
        Param::Device | Param::Plain => return None,
    })
}

/// The backend's result, wrapped back into the dispatch types of `variant`.
fn wrap(root: &TokenStream, output: &Output, variant: &Ident, call: &TokenStream) -> TokenStream {
    let tensor = |kind: &Kind, value: TokenStream| {
        let kind = method(kind.variant());
        quote! { #root::DispatchTensor::#variant(#root::BackendTensor::#kind(#value)) }
    };
    match output {
        Output::Tensor(kind) => tensor(kind, call.clone()),
        Output::Tuple(kinds) => {
            let names: Vec<Ident> = (0..kinds.len())
                .map(|i| format_ident!("__out{i}"))
                .collect();
            let wrapped = kinds
                .iter()
                .zip(&names)
                .map(|(kind, name)| tensor(kind, name.to_token_stream()));
            quote! {
                let (#(#names),*) = #call;
                (#(#wrapped),*)
            }
        }
        Output::Device => quote! { #root::DispatchDevice::#variant(#call) },
        Output::Extension => quote! { #root::extension::wrap_all::<B, _>(#call) },
        Output::Plain => call.clone(),
    }
}

fn method(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// Every `Self` in `tokens` replaced by `name`.
fn replace_self(tokens: TokenStream, name: &str) -> TokenStream {
    tokens
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Ident(ident) if ident == "Self" => {
                TokenTree::Ident(Ident::new(name, ident.span()))
            }
            TokenTree::Group(group) => {
                let mut new =
                    proc_macro2::Group::new(group.delimiter(), replace_self(group.stream(), name));
                new.set_span(group.span());
                TokenTree::Group(new)
            }
            other => other,
        })
        .collect()
}

/// The autodiff route of an op, placed before the backend `match`.
///
/// When any float operand or the device carries an autodiff context (with
/// one checkpointing strategy; mixed strategies panic), the op runs on
/// `burn_autodiff::Autodiff<Dispatch, C>` for that strategy `C`: plain float
/// operands enter as constants, devices and int/bool operands as they are,
/// and float results come back as autodiff tensors. Ops with neither a float
/// operand nor a device get no route (ints and bools carry no graph).
/// Everything is behind `#[cfg(feature = "autodiff")]`, evaluated in
/// burn-dispatch.
fn autodiff_route(op: &Op, target: &Target) -> TokenStream {
    let Some(cfg) = &target.autodiff else {
        return TokenStream::new();
    };
    let Target {
        root,
        autodiff_trait,
        ..
    } = target;
    let Op {
        sig,
        params,
        output,
        ..
    } = op;
    let op_name = sig.ident.to_string();
    let mut modes = Vec::new();
    let mut inputs = Vec::new();
    for (name, param) in params {
        match param {
            Param::Tensor {
                kind: Kind::Float,
                by_ref,
            } => {
                let borrowed = if *by_ref {
                    quote! { #name }
                } else {
                    quote! { &#name }
                };
                modes.push(quote! {
                    #root::autodiff::merge(#op_name, &mut __mode, #root::autodiff::tensor_mode(#borrowed));
                });
                inputs.push(if *by_ref {
                    let owned = format_ident!("__{}_autodiff", name);
                    quote! {
                        let #owned = #root::autodiff::float_in_ref(#name, __mode);
                        let #name = &*#owned;
                    }
                } else {
                    quote! { let #name = #root::autodiff::float_in(#name, __mode); }
                });
            }
            Param::TensorVec(Kind::Float) => {
                modes.push(quote! {
                    for __tensor in #name.iter() {
                        #root::autodiff::merge(#op_name, &mut __mode, #root::autodiff::tensor_mode(__tensor));
                    }
                });
                inputs.push(quote! { let #name = #root::autodiff::floats_in(#name, __mode); });
            }
            Param::TensorOption(Kind::Float) => {
                modes.push(quote! {
                    if let ::core::option::Option::Some(__tensor) = #name.as_ref() {
                        #root::autodiff::merge(#op_name, &mut __mode, #root::autodiff::tensor_mode(__tensor));
                    }
                });
                inputs.push(quote! {
                    let #name = #name.map(|__tensor| #root::autodiff::float_in(__tensor, __mode));
                });
            }
            Param::Device => {
                modes.push(quote! {
                    #root::autodiff::merge(#op_name, &mut __mode, #root::autodiff::device_mode(#name));
                });
                inputs.push(quote! { let #name = #root::autodiff::device_in(#name); });
            }
            Param::Extension => {
                modes.push(quote! {
                    #root::extension::autodiff_fields::modes(#op_name, &mut __mode, &#name);
                });
                inputs.push(quote! {
                    let #name = #root::extension::autodiff_fields::enter::<__C, _>(#name, __mode);
                });
            }
            _ => {}
        }
    }
    if modes.is_empty() {
        return TokenStream::new();
    }
    let name = &sig.ident;
    let args = params.iter().map(|(param, _)| param);
    let call = quote! { <__A as #autodiff_trait>::#name(#(#args),*) };
    let wrap_one = |kind: &Kind, value: TokenStream| match kind {
        Kind::Float => quote! { #root::autodiff::float_out(#value) },
        // Quantized tensors carry no gradient: never wrapped.
        Kind::Int | Kind::Bool | Kind::Quantized => value,
    };
    let result = match output {
        Output::Tensor(kind) => wrap_one(kind, call),
        Output::Tuple(kinds) => {
            let names: Vec<Ident> = (0..kinds.len())
                .map(|i| format_ident!("__out{i}"))
                .collect();
            let wrapped = kinds
                .iter()
                .zip(&names)
                .map(|(kind, name)| wrap_one(kind, name.to_token_stream()));
            quote! {{
                let (#(#names),*) = #call;
                (#(#wrapped),*)
            }}
        }
        Output::Device => quote! { #root::autodiff::device_out(#call, __mode) },
        Output::Extension => quote! { #root::extension::autodiff_fields::leave::<__C, _>(#call) },
        Output::Plain => call,
    };
    let body = quote! {
        type __A = #root::autodiff::Autodiff<#root::Dispatch, __C>;
        #(#inputs)*
        #result
    };
    quote! {
        #cfg
        {
            let mut __mode = ::core::option::Option::None;
            #(#modes)*
            if let ::core::option::Option::Some(__mode) = __mode {
                return match __mode {
                    #root::autodiff::Checkpointing::None => {
                        type __C = #root::autodiff::NoCheckpointing;
                        #body
                    }
                    #root::autodiff::Checkpointing::Balanced => {
                        type __C = #root::autodiff::BalancedCheckpointing;
                        #body
                    }
                };
            }
        }
    }
}
