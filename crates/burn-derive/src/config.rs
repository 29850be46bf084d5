//! `#[derive(Config)]`.
//!
//! Serde cannot be derived from inside another derive, so the struct (or
//! enum) gets two private mirrors inside a `const _: () = { … };` block: one
//! of references, serialized in place of `&self`, and one of owned values
//! that serde deserializes and the generated code moves into `Self`. The
//! owned mirror holds each defaulted field as an `Option`, so a JSON file
//! that leaves it out loads with the default (configs gain fields over time;
//! old files keep loading).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Expr, Fields, Lit, Type};

use crate::fields::{self, Field};

pub(crate) fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "Config cannot be derived for a generic type",
        ));
    }
    let name = &input.ident;
    let (clone, serde_impls, builders) = match &input.data {
        Data::Struct(data) => {
            let Fields::Named(_) = &data.fields else {
                return Err(syn::Error::new_spanned(
                    name,
                    "Config needs named fields (or an enum)",
                ));
            };
            let fields = fields::collect(&data.fields);
            let defaults = fields
                .iter()
                .map(default_of)
                .collect::<syn::Result<Vec<_>>>()?;
            (
                clone_struct(&data.fields, &fields),
                serde_struct(name, &data.fields, &fields, &defaults),
                builders(name, &fields, &defaults),
            )
        }
        Data::Enum(data) if data.variants.is_empty() => {
            return Err(syn::Error::new_spanned(
                name,
                "Config cannot be derived for an enum without variants",
            ));
        }
        Data::Enum(data) => {
            let variants: Vec<(syn::Ident, Fields, Vec<Field>)> = data
                .variants
                .iter()
                .map(|v| {
                    (
                        v.ident.clone(),
                        v.fields.clone(),
                        fields::collect(&v.fields),
                    )
                })
                .collect();
            for (_, _, fields) in &variants {
                for field in fields {
                    if field.attrs.iter().any(|a| a.path().is_ident("config")) {
                        return Err(syn::Error::new_spanned(
                            &field.ty,
                            "#[config(..)] applies to struct fields only",
                        ));
                    }
                }
            }
            (
                clone_enum(&variants),
                serde_enum(name, &variants),
                TokenStream::new(),
            )
        }
        Data::Union(data) => {
            return Err(syn::Error::new_spanned(
                data.union_token,
                "Config cannot be derived for a union",
            ));
        }
    };

    Ok(quote! {
        #builders

        impl ::core::clone::Clone for #name {
            fn clone(&self) -> Self {
                #clone
            }
        }

        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&burn::config::Config::to_json(self))
            }
        }

        impl burn::config::Config for #name {}

        #serde_impls
    })
}

/// What a field gets when `new` does not take it.
enum FieldDefault {
    /// Taken by `new`.
    Required,
    /// `Option<T>` without an explicit default: `None`.
    None,
    /// `#[config(default = …)]`.
    Expr(Expr),
}

fn default_of(field: &Field) -> syn::Result<FieldDefault> {
    let mut default = None;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("config")) {
        attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident("default") {
                return Err(meta
                    .error("unknown config attribute: the only one is `#[config(default = …)]`"));
            }
            let expr: Expr = meta.value()?.parse()?;
            default = Some(default_expr(expr, &field.ty)?);
            Ok(())
        })?;
    }
    Ok(match default {
        Some(expr) => FieldDefault::Expr(expr),
        None if is_option(&field.ty) => FieldDefault::None,
        None => FieldDefault::Required,
    })
}

/// A string literal is Rust code (`"Initializer::Zeros"`, Burn's convention,
/// which lets a default name a path), except on a `String` field.
fn default_expr(expr: Expr, ty: &Type) -> syn::Result<Expr> {
    if let Expr::Lit(lit) = &expr
        && let Lit::Str(text) = &lit.lit
    {
        if last_segment_is(ty, "String") {
            return Ok(syn::parse_quote!(::std::string::String::from(#text)));
        }
        return text.parse();
    }
    Ok(expr)
}

fn is_option(ty: &Type) -> bool {
    last_segment_is(ty, "Option")
}

fn last_segment_is(ty: &Type, name: &str) -> bool {
    match ty {
        Type::Path(path) if path.qself.is_none() => path
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == name),
        _ => false,
    }
}

/// `new` over the required fields and `with_*` for the others.
fn builders(name: &syn::Ident, fields: &[Field], defaults: &[FieldDefault]) -> TokenStream {
    let mut args = Vec::new();
    let mut inits = Vec::new();
    let mut setters = Vec::new();
    for (field, default) in fields.iter().zip(defaults) {
        let name = field.name.as_ref().expect("named field");
        let ty = &field.ty;
        match default {
            FieldDefault::Required => {
                args.push(quote! { #name: #ty });
                inits.push(quote! { #name });
            }
            FieldDefault::None => inits.push(quote! { #name: ::core::option::Option::None }),
            FieldDefault::Expr(expr) => inits.push(quote! { #name: #expr }),
        }
        if !matches!(default, FieldDefault::Required) {
            let with = format_ident!("with_{}", syn::ext::IdentExt::unraw(name));
            let doc = format!("Sets `{}`.", field.segment);
            setters.push(quote! {
                #[doc = #doc]
                pub fn #with(mut self, #name: #ty) -> Self {
                    self.#name = #name;
                    self
                }
            });
        }
    }
    quote! {
        #[allow(clippy::new_without_default, clippy::too_many_arguments)]
        impl #name {
            /// The config with its required fields; the others take their defaults.
            pub fn new(#(#args),*) -> Self {
                Self { #(#inits),* }
            }

            #(#setters)*
        }
    }
}

fn clone_struct(kind: &Fields, fields: &[Field]) -> TokenStream {
    let pattern = bindings(quote!(Self), kind, fields);
    let cloned: Vec<TokenStream> = fields
        .iter()
        .map(|f| {
            let b = &f.binding;
            quote! { ::core::clone::Clone::clone(#b) }
        })
        .collect();
    let rebuilt = fields::shape(&quote!(Self), kind, fields, &cloned);
    quote! { let #pattern = self; #rebuilt }
}

fn clone_enum(variants: &[(syn::Ident, Fields, Vec<Field>)]) -> TokenStream {
    let arms = variants.iter().map(|(ident, kind, fields)| {
        let path = quote!(Self::#ident);
        let pattern = bindings(path.clone(), kind, fields);
        let cloned: Vec<TokenStream> = fields
            .iter()
            .map(|f| {
                let b = &f.binding;
                quote! { ::core::clone::Clone::clone(#b) }
            })
            .collect();
        let rebuilt = fields::shape(&path, kind, fields, &cloned);
        quote! { #pattern => #rebuilt, }
    });
    quote! { match self { #(#arms)* } }
}

fn bindings(path: TokenStream, kind: &Fields, fields: &[Field]) -> TokenStream {
    let parts: Vec<TokenStream> = fields
        .iter()
        .map(|f| {
            let b = &f.binding;
            quote!(#b)
        })
        .collect();
    fields::shape(&path, kind, fields, &parts)
}

fn serde_struct(
    name: &syn::Ident,
    kind: &Fields,
    fields: &[Field],
    defaults: &[FieldDefault],
) -> TokenStream {
    let names: Vec<&syn::Ident> = fields.iter().map(|f| f.name.as_ref().unwrap()).collect();
    let tys: Vec<&Type> = fields.iter().map(|f| &f.ty).collect();
    let owned_fields = fields.iter().zip(defaults).map(|(f, d)| {
        let (name, ty) = (f.name.as_ref().unwrap(), &f.ty);
        match d {
            FieldDefault::Required => quote! { #name: #ty },
            FieldDefault::None => quote! { #[serde(default)] #name: #ty },
            // `present` wraps whatever is there, `null` included, so an
            // `Option` field set to `None` does not read back as its default.
            FieldDefault::Expr(_) => quote! {
                #[serde(default, deserialize_with = "burn::config::__private::present")]
                #name: ::core::option::Option<#ty>
            },
        }
    });
    let from_owned = fields.iter().zip(defaults).map(|(f, d)| {
        let name = f.name.as_ref().unwrap();
        match d {
            FieldDefault::Expr(expr) => quote! { #name: mirror.#name.unwrap_or_else(|| #expr) },
            _ => quote! { #name: mirror.#name },
        }
    });
    let pattern = bindings(quote!(Self), kind, fields);
    let bound: Vec<&syn::Ident> = fields.iter().map(|f| &f.binding).collect();
    serde_impls(
        name,
        quote! {
            struct Ref<'a> {
                #(#names: &'a #tys,)*
                #[serde(skip)]
                __lifetime: ::core::marker::PhantomData<&'a ()>,
            }
        },
        quote! { struct Owned { #(#owned_fields),* } },
        quote! {
            let #pattern = self;
            Ref { #(#names: #bound,)* __lifetime: ::core::marker::PhantomData }
        },
        quote! { Self { #(#from_owned),* } },
    )
}

fn serde_enum(name: &syn::Ident, variants: &[(syn::Ident, Fields, Vec<Field>)]) -> TokenStream {
    let decl = |lifetime: bool| {
        let vs = variants.iter().map(|(ident, kind, fields)| {
            let tys = fields.iter().map(|f| {
                let ty = &f.ty;
                if lifetime {
                    quote!(&'a #ty)
                } else {
                    quote!(#ty)
                }
            });
            match kind {
                Fields::Named(_) => {
                    let names = fields.iter().map(|f| f.name.as_ref().unwrap());
                    quote! { #ident { #(#names: #tys),* } }
                }
                Fields::Unnamed(_) => quote! { #ident(#(#tys),*) },
                Fields::Unit => quote! { #ident },
            }
        });
        quote! { #(#vs,)* }
    };
    let convert = |from: TokenStream, to: TokenStream| {
        let arms = variants.iter().map(|(ident, kind, fields)| {
            let source = bindings(quote!(#from::#ident), kind, fields);
            let target = bindings(quote!(#to::#ident), kind, fields);
            quote! { #source => #target, }
        });
        quote! { #(#arms)* }
    };
    let (ref_decl, owned_decl) = (decl(true), decl(false));
    let to_ref = convert(quote!(Self), quote!(Ref));
    let from_owned = convert(quote!(Owned), quote!(Self));
    serde_impls(
        name,
        quote! {
            enum Ref<'a> {
                #ref_decl
                #[serde(skip)]
                __Lifetime(::core::marker::PhantomData<&'a ()>),
            }
        },
        quote! { enum Owned { #owned_decl } },
        quote! { match self { #to_ref } },
        quote! { match mirror { #from_owned } },
    )
}

/// The mirrors and the serde impls that go through them. `to_ref` reads
/// `self` into a `Ref`; `from_owned` turns `mirror: Owned` into `Self`.
fn serde_impls(
    name: &syn::Ident,
    ref_decl: TokenStream,
    owned_decl: TokenStream,
    to_ref: TokenStream,
    from_owned: TokenStream,
) -> TokenStream {
    let name_str = name.to_string();
    quote! {
        const _: () = {
            use burn::config::__private::serde;

            #[derive(serde::Serialize)]
            #[serde(crate = "burn::config::__private::serde", rename = #name_str)]
            #ref_decl

            #[derive(serde::Deserialize)]
            #[serde(crate = "burn::config::__private::serde", rename = #name_str)]
            #owned_decl

            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(
                    &self,
                    serializer: S,
                ) -> ::core::result::Result<S::Ok, S::Error> {
                    let mirror: Ref<'_> = { #to_ref };
                    serde::Serialize::serialize(&mirror, serializer)
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(
                    deserializer: D,
                ) -> ::core::result::Result<Self, D::Error> {
                    let mirror = <Owned as serde::Deserialize>::deserialize(deserializer)?;
                    ::core::result::Result::Ok(#from_owned)
                }
            }
        };
    }
}
