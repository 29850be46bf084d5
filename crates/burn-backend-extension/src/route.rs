//! The function-like macros: `route_device!`, `route_tensor!`,
//! `backend_name!` and `dispatch_backend_impls!`.
//!
//! Each expands to one `match` (or one impl) per catalog entry; see
//! [`crate::catalog::arms`].

use proc_macro2::TokenStream;
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{Expr, ExprClosure, Ident, Pat, Token};

use crate::catalog;

/// `expr, |B, binding| body`.
pub(crate) struct Route {
    scrutinee: Expr,
    backend: Ident,
    binding: Pat,
    body: Expr,
}

impl Parse for Route {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let scrutinee: Expr = input.parse()?;
        input.parse::<Token![,]>()?;
        // The closure is only syntax: it is never built, its parameters name
        // the backend type alias and the unwrapped value.
        let closure: ExprClosure = input.parse()?;
        input.parse::<Option<Token![,]>>()?;
        let shape_error = || {
            syn::Error::new_spanned(
                &closure,
                "expected `|B, binding| body`: a backend type name and a pattern",
            )
        };
        if closure.inputs.len() != 2 {
            return Err(shape_error());
        }
        let backend = match &closure.inputs[0] {
            Pat::Ident(p) if p.by_ref.is_none() && p.mutability.is_none() && p.subpat.is_none() => {
                p.ident.clone()
            }
            _ => return Err(shape_error()),
        };
        Ok(Self {
            scrutinee,
            backend,
            binding: closure.inputs[1].clone(),
            body: *closure.body,
        })
    }
}

/// The `match` over `enum_name` (`DispatchDevice` or `DispatchTensor`).
///
/// The scrutinee may be a reference or a value: the binding follows Rust's
/// default binding modes (a reference gives `&T`, a value moves `T` out).
pub(crate) fn route(enum_name: &str, route: Route) -> TokenStream {
    let Route {
        scrutinee,
        backend,
        binding,
        body,
    } = route;
    let enum_ident = Ident::new(enum_name, proc_macro2::Span::call_site());
    let arms = catalog::arms(|_, variant, path| {
        quote! {
            crate::#enum_ident::#variant(#binding) => {
                #[allow(dead_code)]
                type #backend = #path;
                #body
            }
        }
    });
    let fallback = catalog::no_backend_arm();
    quote! {
        match #scrutinee {
            #arms
            #fallback
        }
    }
}

/// `backend_name!(device)`: the catalog variant name of the device's backend.
pub(crate) fn backend_name(device: Expr) -> TokenStream {
    let arms = catalog::arms(|entry, variant, _| {
        let name = entry.variant;
        quote! { crate::DispatchDevice::#variant(..) => #name, }
    });
    let fallback = catalog::no_backend_arm();
    quote! {
        match #device {
            #arms
            #fallback
        }
    }
}

/// `crate::routing::DispatchBackend` for the backend of every enabled entry:
/// how its primitives and devices go in and out of the dispatch enums. The
/// generic helpers of `burn-dispatch` (operand checks, transfers) build on it,
/// which keeps the per-op generated code to a few lines.
pub(crate) fn dispatch_backend_impls() -> TokenStream {
    catalog::arms(|_, variant, path| {
        quote! {
            impl crate::routing::DispatchBackend for #path {
                fn wrap_tensor(tensor: crate::BackendTensor<Self>) -> crate::DispatchTensor {
                    crate::DispatchTensor::#variant(tensor)
                }
                fn unwrap_tensor(
                    tensor: crate::DispatchTensor,
                ) -> ::core::result::Result<crate::BackendTensor<Self>, crate::DispatchTensor> {
                    match tensor {
                        crate::DispatchTensor::#variant(t) => ::core::result::Result::Ok(t),
                        #[allow(unreachable_patterns)]
                        other => ::core::result::Result::Err(other),
                    }
                }
                fn unwrap_tensor_ref(
                    tensor: &crate::DispatchTensor,
                ) -> ::core::option::Option<&crate::BackendTensor<Self>> {
                    match tensor {
                        crate::DispatchTensor::#variant(t) => ::core::option::Option::Some(t),
                        #[allow(unreachable_patterns)]
                        _ => ::core::option::Option::None,
                    }
                }
                fn wrap_device(device: burn_backend::Device<Self>) -> crate::DispatchDevice {
                    crate::DispatchDevice::#variant(device)
                }
                fn unwrap_device(
                    device: &crate::DispatchDevice,
                ) -> ::core::option::Option<&burn_backend::Device<Self>> {
                    match device {
                        crate::DispatchDevice::#variant(d) => ::core::option::Option::Some(d),
                        #[allow(unreachable_patterns)]
                        _ => ::core::option::Option::None,
                    }
                }
            }
        }
    })
}
