//! The `Fusion` selector: `impl Trait for Fusion<B>`, each op recorded
//! lazily (`burn_fusion::register_custom`) with its outputs' shapes and
//! dtypes computed from its inputs' at the call, and `B`'s implementation
//! run at the next flush, as the op's code.
//!
//! Each op says how its outputs are described:
//!
//! - `#[fusion(dtype = x, shape = x)]`: one tensor output; a bare operand
//!   copies that input's dtype or shape, a call `f(a, b)` receives the
//!   named inputs' shapes (or dtypes) borrowed and returns an owned one;
//! - `#[fusion(meta = f)]`: `f` receives every tensor input's
//!   `TensorSpec`, borrowed, in order, and returns the output's spec (a
//!   tuple of specs for a tuple of outputs);
//! - `#[fusion(default)]`: no registration, the trait's default body runs
//!   on `Fusion<B>` (its primitives are recorded and fused as any other).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, Token};

use crate::dispatch::parse::{Kind, Op, Output, Param};

/// How an op's outputs are described.
pub(crate) enum Registration {
    Default,
    Fields { dtype: Field, shape: Field },
    Meta(syn::Path),
}

/// A `dtype = ..` or `shape = ..` value.
pub(crate) enum Field {
    Operand(Ident),
    Call(syn::Path, Vec<Ident>),
}

impl Parse for Field {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let path: syn::Path = input.parse()?;
        if input.peek(syn::token::Paren) {
            let content;
            syn::parenthesized!(content in input);
            let args = content.parse_terminated(Ident::parse, Token![,])?;
            return Ok(Field::Call(path, args.into_iter().collect()));
        }
        match path.get_ident() {
            Some(ident) => Ok(Field::Operand(ident.clone())),
            None => Err(syn::Error::new_spanned(
                path,
                "expected an input's name or a call `helper(input, ..)`",
            )),
        }
    }
}

impl Parse for Registration {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let first: Ident = input.parse()?;
        if first == "default" {
            if !input.is_empty() {
                return Err(input.error("#[fusion(default)] takes nothing else"));
            }
            return Ok(Registration::Default);
        }
        input.parse::<Token![=]>()?;
        if first == "meta" {
            let path: syn::Path = input.parse()?;
            if !input.is_empty() {
                return Err(input.error("#[fusion(meta = ..)] takes nothing else"));
            }
            return Ok(Registration::Meta(path));
        }
        let (mut dtype, mut shape) = (None, None);
        let mut key = first;
        loop {
            let slot = match key.to_string().as_str() {
                "dtype" => &mut dtype,
                "shape" => &mut shape,
                _ => {
                    return Err(syn::Error::new_spanned(
                        key,
                        "expected `dtype = ..`, `shape = ..`, `meta = ..` or `default`",
                    ));
                }
            };
            if slot.is_some() {
                return Err(syn::Error::new_spanned(key, "given twice"));
            }
            *slot = Some(input.parse::<Field>()?);
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
            key = input.parse()?;
            input.parse::<Token![=]>()?;
        }
        match (dtype, shape) {
            (Some(dtype), Some(shape)) => Ok(Registration::Fields { dtype, shape }),
            _ => Err(input.error("#[fusion(..)] needs both `dtype = ..` and `shape = ..`")),
        }
    }
}

/// The op's fn of `impl Trait for Fusion<__B>`; `None` for
/// `#[fusion(default)]`.
pub(crate) fn generate(
    op: &Op,
    trait_name: &Ident,
    root: &TokenStream,
    registration: Registration,
    span: Span,
) -> syn::Result<Option<TokenStream>> {
    let Op {
        sig,
        params,
        output,
        ..
    } = op;
    let name = &sig.ident;
    let error = |what: String| syn::Error::new(span, format!("#[fusion] on `{name}`: {what}"));
    if matches!(registration, Registration::Default) {
        return Ok(None);
    }
    let id = format!("{trait_name}::{name}");
    // Tensors by value are the op's inputs; plain values are captured.
    let mut tensors = Vec::new();
    for (param, kind) in params {
        match kind {
            Param::Tensor {
                kind,
                by_ref: false,
            } => tensors.push((param, *kind)),
            Param::Plain => {}
            _ => {
                return Err(error(format!(
                    "`{param}`: a registered op takes tensors by value and values not \
                     mentioning `Self` (struct and enum inputs are not registered lazily \
                     yet); use #[fusion(default)] or implement the trait for Fusion<B> by hand"
                )));
            }
        }
    }
    let kinds: Vec<Kind> = match output {
        Output::Tensor(kind) => vec![*kind],
        Output::Tuple(kinds) => kinds.clone(),
        Output::Device | Output::Plain => {
            return Err(error(String::from(
                "a registered op returns a tensor or a tuple of tensors",
            )));
        }
        Output::Extension => {
            return Err(error(String::from(
                "a struct or enum result is not registered lazily yet; use #[fusion(default)] \
                 or implement the trait for Fusion<B> by hand",
            )));
        }
    };
    let is_tensor = |ident: &Ident| tensors.iter().any(|(p, _)| *p == ident);
    let metadata = |ident: &Ident, what: &str| -> syn::Result<TokenStream> {
        if !is_tensor(ident) {
            return Err(error(format!("`{ident}` is not a tensor input")));
        }
        let what = Ident::new(what, Span::call_site());
        Ok(quote! { #root::extension::TensorMetadata::#what(&#ident) })
    };
    let field = |field: &Field, what: &str| -> syn::Result<TokenStream> {
        match field {
            Field::Operand(ident) => metadata(ident, what),
            Field::Call(path, args) => {
                let args = args
                    .iter()
                    .map(|a| metadata(a, what).map(|m| quote! { &#m }))
                    .collect::<syn::Result<Vec<_>>>()?;
                Ok(quote! { #path(#(#args),*) })
            }
        }
    };
    let specs = match &registration {
        Registration::Default => unreachable!("returned above"),
        Registration::Fields { dtype, shape } => {
            if kinds.len() != 1 {
                return Err(error(String::from(
                    "`dtype`/`shape` describe one tensor output; describe a tuple with \
                     #[fusion(meta = ..)]",
                )));
            }
            let (dtype, shape) = (field(dtype, "dtype")?, field(shape, "shape")?);
            quote! {
                ::std::vec![#root::extension::TensorSpec { shape: #shape, dtype: #dtype }]
            }
        }
        Registration::Meta(path) => {
            let inputs = tensors.iter().map(|(p, _)| {
                quote! {
                    &#root::extension::TensorSpec {
                        shape: #root::extension::TensorMetadata::shape(&#p),
                        dtype: #root::extension::TensorMetadata::dtype(&#p),
                    }
                }
            });
            let call = quote! { #path(#(#inputs),*) };
            match output {
                Output::Tensor(_) => quote! { ::std::vec![#call] },
                _ => {
                    let names: Vec<Ident> = (0..kinds.len())
                        .map(|i| format_ident!("__spec{i}"))
                        .collect();
                    quote! {{
                        let (#(#names),*) = #call;
                        ::std::vec![#(#names),*]
                    }}
                }
            }
        }
    };

    let inputs = tensors.iter().map(|(p, _)| p);
    let unpack = tensors.iter().map(|(p, kind)| {
        let take = Ident::new(kind.take(), Span::call_site());
        quote! { let #p = #root::extension::fusion::#take::<__B>(#id, __handles.next()); }
    });
    let captured = params
        .iter()
        .filter(|(_, kind)| matches!(kind, Param::Plain))
        .map(|(p, _)| quote! { let #p = ::core::clone::Clone::clone(&#p); });
    let args = params.iter().map(|(p, _)| p);
    let outs: Vec<Ident> = (0..kinds.len())
        .map(|i| format_ident!("__out{i}"))
        .collect();
    let handles = kinds.iter().zip(&outs).map(|(kind, out)| {
        let variant = Ident::new(kind.variant(), Span::call_site());
        quote! { #root::extension::Handle::#variant(#out) }
    });
    let bind = match output {
        Output::Tensor(_) => quote! { let __out0 = __result; },
        _ => quote! { let (#(#outs),*) = __result; },
    };
    let taken = outs.iter().map(|_| {
        quote! { __created.next().expect("the outputs were created with the op") }
    });
    let result = match output {
        Output::Tensor(_) => quote! { #(#taken)* },
        _ => quote! { (#(#taken),*) },
    };
    Ok(Some(quote! {
        #sig {
            let __specs: ::std::vec::Vec<#root::extension::TensorSpec> = #specs;
            let __created = #root::extension::fusion::register_custom::<__B, _>(
                #id,
                ::std::vec![#(#inputs),*],
                __specs,
                move |__handles: ::std::vec::Vec<#root::extension::Handle<__B>>| {
                    let mut __handles = __handles.into_iter();
                    #(#unpack)*
                    #(#captured)*
                    let __result = <__B as #trait_name>::#name(#(#args),*);
                    #bind
                    ::std::vec![#(#handles),*]
                },
            );
            let mut __created = __created.into_iter();
            #result
        }
    }))
}
