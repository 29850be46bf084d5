//! `#[derive(ExtensionType)]`: a struct or enum of tensor primitives that
//! backend extension ops take and return.
//!
//! For `Boxes<B: Backend> { coords: FloatTensor<B>, count: usize }` it
//! emits two impls, both through the facade's `__dispatch::extension`:
//!
//! - `ExtensionType<B>`: `visit` calls the visitor on each tensor field in
//!   order (a nested `#[extension_type]` field visits its own);
//! - `ExtensionMap<B, __To>` with `Output = Boxes<__To>`: `map` rebuilds
//!   the value with each tensor field mapped (`map.float(..)`, …), each
//!   nested field mapped through its own impl, the others moved.
//!
//! `__To` gets the bounds `B` has, so an extension trait as the bound
//! (`Boxes<B: MyBackend>`) holds for every backend the value is mapped to:
//! those the trait is implemented for. Fields may also be `Option`s or
//! `Vec`s of tensor primitives. A field whose type names `B` any other way
//! is an error naming it.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, GenericParam, Ident, Type, WherePredicate};

use crate::dispatch::parse::{Kind, mentions, single_generic, tensor_kind_of};

fn root() -> TokenStream {
    quote! { ::burn::backend::__dispatch::extension }
}

pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(input).and_then(|input| derive(&input)) {
        Ok(tokens) => tokens,
        Err(error) => error.to_compile_error(),
    }
}

/// What a field holds.
enum Field {
    Tensor(Kind),
    Option(Kind),
    Vec(Kind),
    /// `#[extension_type]`: a nested struct or enum of tensors.
    Nested,
    /// Moved as it is.
    Plain,
}

fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    check_own_attrs(&input.attrs)?;
    let backend = backend_param(input)?;
    let name = &input.ident;
    let root = root();
    let to = Ident::new("__To", Span::call_site());

    let (visit, map) = match &input.data {
        Data::Struct(data) => {
            let (pattern, fields) = bind(&data.fields, &backend)?;
            let visit = visit_fields(&fields);
            let rebuilt = rebuild(quote! { #name }, &data.fields, &fields, &to);
            (
                quote! { let #name #pattern = self; #visit },
                quote! { let #name #pattern = self; #rebuilt },
            )
        }
        Data::Enum(data) => {
            let mut visits = Vec::new();
            let mut maps = Vec::new();
            for variant in &data.variants {
                check_own_attrs(&variant.attrs)?;
                let ident = &variant.ident;
                let (pattern, fields) = bind(&variant.fields, &backend)?;
                let visit = visit_fields(&fields);
                let rebuilt = rebuild(quote! { #name::#ident }, &variant.fields, &fields, &to);
                visits.push(quote! { #name::#ident #pattern => { #visit } });
                maps.push(quote! { #name::#ident #pattern => { #rebuilt } });
            }
            (
                quote! {
                    #[allow(unused_variables)]
                    match self { #(#visits)* }
                },
                quote! {
                    #[allow(unused_variables)]
                    match self { #(#maps)* }
                },
            )
        }
        Data::Union(data) => {
            return Err(syn::Error::new_spanned(
                data.union_token,
                "#[derive(ExtensionType)] takes a struct or an enum",
            ));
        }
    };

    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    // The map's generics: the type's, plus `__To` bounded as `B` is.
    let bounds = bounds_of(input, &backend);
    let mut map_generics = input.generics.clone();
    map_generics
        .params
        .push(syn::parse_quote! { #to: ::burn::backend::Backend #(+ #bounds)* });
    let (map_impl_generics, _, _) = map_generics.split_for_impl();
    let output_generics = input.generics.params.iter().map(|param| match param {
        GenericParam::Type(t) if t.ident == backend => quote! { #to },
        GenericParam::Type(t) => {
            let ident = &t.ident;
            quote! { #ident }
        }
        GenericParam::Lifetime(l) => {
            let lifetime = &l.lifetime;
            quote! { #lifetime }
        }
        GenericParam::Const(c) => {
            let ident = &c.ident;
            quote! { #ident }
        }
    });
    Ok(quote! {
        impl #impl_generics #root::ExtensionType<#backend> for #name #ty_generics #where_clause {
            #[allow(unused_variables)]
            fn visit<'__a>(
                &'__a self,
                __visitor: &mut dyn ::core::ops::FnMut(#root::TensorRef<'__a, #backend>),
            ) {
                #visit
            }
        }

        impl #map_impl_generics #root::ExtensionMap<#backend, #to> for #name #ty_generics #where_clause {
            type Output = #name<#(#output_generics),*>;

            #[allow(unused_variables)]
            fn map(
                self,
                __map: &mut dyn #root::TensorMap<#backend, #to>,
            ) -> Self::Output {
                #map
            }
        }
    })
}

/// `#[extension_type(fusion)]` is accepted on the type (the marker the seeds
/// give types a Fusion implementation handles); anything else is refused.
fn check_own_attrs(attrs: &[syn::Attribute]) -> syn::Result<()> {
    for attr in attrs.iter().filter(|a| a.path().is_ident("extension_type")) {
        let arg: Ident = attr.parse_args().map_err(|_| {
            syn::Error::new_spanned(attr, "expected `#[extension_type(fusion)]` on the type")
        })?;
        if arg != "fusion" {
            return Err(syn::Error::new_spanned(
                arg,
                "expected `#[extension_type(fusion)]` on the type",
            ));
        }
    }
    Ok(())
}

/// The type's backend parameter: its only type parameter.
fn backend_param(input: &DeriveInput) -> syn::Result<Ident> {
    let types: Vec<&Ident> = input.generics.type_params().map(|t| &t.ident).collect();
    match types[..] {
        [backend] => Ok(backend.clone()),
        _ => Err(syn::Error::new_spanned(
            &input.generics,
            format!(
                "#[derive(ExtensionType)] on `{}`: the type takes exactly one type parameter, \
                 its backend (`{}<B: Backend>`)",
                input.ident, input.ident
            ),
        )),
    }
}

/// The bounds on the backend parameter, inline and in the where clause.
fn bounds_of(input: &DeriveInput, backend: &Ident) -> Vec<syn::TypeParamBound> {
    let mut bounds: Vec<syn::TypeParamBound> = input
        .generics
        .type_params()
        .filter(|t| t.ident == *backend)
        .flat_map(|t| t.bounds.iter().cloned())
        .collect();
    if let Some(where_clause) = &input.generics.where_clause {
        for predicate in &where_clause.predicates {
            if let WherePredicate::Type(p) = predicate
                && matches!(&p.bounded_ty, Type::Path(path) if path.path.is_ident(backend))
            {
                bounds.extend(p.bounds.iter().cloned());
            }
        }
    }
    bounds
}

/// The pattern binding every field (`{ a: __f0, .. }` or `(__f0, ..)`) and
/// each binding's name and classification.
fn bind(fields: &Fields, backend: &Ident) -> syn::Result<(TokenStream, Vec<(Ident, Field)>)> {
    let mut bound = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        let binding = format_ident!("__f{i}");
        let label = match &field.ident {
            Some(ident) => ident.to_string(),
            None => i.to_string(),
        };
        bound.push((binding, classify(field, &label, backend)?));
    }
    let names = bound.iter().map(|(b, _)| b);
    let pattern = match fields {
        Fields::Named(named) => {
            let idents = named.named.iter().map(|f| f.ident.as_ref().expect("named"));
            quote! { { #(#idents: #names),* } }
        }
        Fields::Unnamed(_) => quote! { ( #(#names),* ) },
        Fields::Unit => TokenStream::new(),
    };
    Ok((pattern, bound))
}

fn classify(field: &syn::Field, label: &str, backend: &Ident) -> syn::Result<Field> {
    let mut nested = false;
    for attr in field
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("extension_type"))
    {
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            return Err(syn::Error::new_spanned(
                attr,
                format!("field `{label}`: a nested type is marked `#[extension_type]`, bare"),
            ));
        }
        nested = true;
    }
    if nested {
        return Ok(Field::Nested);
    }
    let ty = &field.ty;
    if let Some(kind) = tensor_kind(ty, backend) {
        return Ok(Field::Tensor(kind));
    }
    if let Some(kind) = single_generic(ty, "Option").and_then(|t| tensor_kind(t, backend)) {
        return Ok(Field::Option(kind));
    }
    if let Some(kind) = single_generic(ty, "Vec").and_then(|t| tensor_kind(t, backend)) {
        return Ok(Field::Vec(kind));
    }
    if mentions(quote! { #ty }, &backend.to_string()) {
        return Err(syn::Error::new_spanned(
            ty,
            format!(
                "#[derive(ExtensionType)]: field `{label}` names `{backend}` but is not a tensor \
                 primitive (FloatTensor/IntTensor/BoolTensor/QuantizedTensor<{backend}>, or an \
                 Option or Vec of one); mark a nested ExtensionType `#[extension_type]`"
            ),
        ));
    }
    Ok(Field::Plain)
}

fn tensor_kind(ty: &Type, backend: &Ident) -> Option<Kind> {
    tensor_kind_of(ty, &backend.to_string())
}

fn tensor_ref(kind: Kind, value: TokenStream) -> TokenStream {
    let root = root();
    let variant = Ident::new(kind.variant(), Span::call_site());
    quote! { __visitor(#root::TensorRef::#variant(#value)) }
}

fn visit_fields(fields: &[(Ident, Field)]) -> TokenStream {
    let root = root();
    fields
        .iter()
        .map(|(binding, field)| match field {
            Field::Tensor(kind) => {
                let call = tensor_ref(*kind, quote! { #binding });
                quote! { #call; }
            }
            Field::Option(kind) => {
                let call = tensor_ref(*kind, quote! { __t });
                quote! { if let ::core::option::Option::Some(__t) = #binding { #call; } }
            }
            Field::Vec(kind) => {
                let call = tensor_ref(*kind, quote! { __t });
                quote! { for __t in #binding.iter() { #call; } }
            }
            Field::Nested => quote! { #root::ExtensionType::visit(#binding, __visitor); },
            Field::Plain => TokenStream::new(),
        })
        .collect()
}

/// The value rebuilt over `__To` from the bindings.
fn rebuild(
    path: TokenStream,
    shape: &Fields,
    fields: &[(Ident, Field)],
    to: &Ident,
) -> TokenStream {
    let root = root();
    let values = fields.iter().map(|(binding, field)| {
        let take = |kind: &Kind| Ident::new(kind.take(), Span::call_site());
        match field {
            Field::Tensor(kind) => {
                let take = take(kind);
                quote! { __map.#take(#binding) }
            }
            Field::Option(kind) => {
                let take = take(kind);
                quote! { #binding.map(|__t| __map.#take(__t)) }
            }
            Field::Vec(kind) => {
                let take = take(kind);
                quote! {
                    ::core::iter::Iterator::collect(
                        ::core::iter::Iterator::map(
                            ::core::iter::IntoIterator::into_iter(#binding),
                            |__t| __map.#take(__t),
                        ),
                    )
                }
            }
            Field::Nested => quote! { #root::ExtensionMap::<_, #to>::map(#binding, __map) },
            Field::Plain => quote! { #binding },
        }
    });
    match shape {
        Fields::Named(named) => {
            let idents = named.named.iter().map(|f| f.ident.as_ref().expect("named"));
            quote! { #path { #(#idents: #values),* } }
        }
        Fields::Unnamed(_) => quote! { #path ( #(#values),* ) },
        Fields::Unit => quote! { #path },
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    fn expand(item: proc_macro2::TokenStream) -> String {
        super::expand(item).to_string().split_whitespace().collect()
    }

    #[test]
    fn struct_fields_are_visited_and_mapped_by_kind() {
        let out = expand(quote! {
            pub struct Boxes<B: Backend> {
                pub coords: FloatTensor<B>,
                pub labels: Option<IntTensor<B>>,
                pub count: usize,
            }
        });
        assert!(!out.contains("compile_error"), "{out}");
        assert!(
            out.contains(
                "impl<B:Backend>::burn::backend::__dispatch::extension::ExtensionType<B>forBoxes<B>"
            ),
            "{out}"
        );
        // `__To` is bounded as `B` is.
        assert!(
            out.contains("__To:::burn::backend::Backend+Backend"),
            "{out}"
        );
        assert!(out.contains("typeOutput=Boxes<__To>;"), "{out}");
        assert!(out.contains("TensorRef::Float(__f0)"), "{out}");
        assert!(out.contains("coords:__map.float(__f0)"), "{out}");
        assert!(
            out.contains("labels:__f1.map(|__t|__map.int(__t))"),
            "{out}"
        );
        assert!(out.contains("count:__f2"), "{out}");
    }

    #[test]
    fn enum_variants_and_nested_types() {
        let out = expand(quote! {
            #[extension_type(fusion)]
            pub enum Operand<B: Backend> {
                Dense(FloatTensor<B>),
                Sparse { values: FloatTensor<B>, indices: IntTensor<B> },
                Wrapped(#[extension_type] Inner<B>),
                Empty,
            }
        });
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("Operand::Empty=>{}"), "{out}");
        assert!(out.contains("Operand::Empty=>{Operand::Empty}"), "{out}");
        assert!(
            out.contains("Operand::Sparse{values:__map.float(__f0),indices:__map.int(__f1)}"),
            "{out}"
        );
        assert!(
            out.contains("ExtensionType::visit(__f0,__visitor)"),
            "{out}"
        );
        assert!(
            out.contains("ExtensionMap::<_,__To>::map(__f0,__map)"),
            "{out}"
        );
    }

    #[test]
    fn misuse_is_an_error_naming_the_field_or_type() {
        for (item, says) in [
            (
                quote! { struct S<B: Backend> { t: Vec<Vec<FloatTensor<B>>> } },
                "field`t`names`B`butisnotatensorprimitive",
            ),
            (
                quote! { struct S<B: Backend, C> { t: FloatTensor<B>, c: C } },
                "takesexactlyonetypeparameter",
            ),
            (
                quote! { #[extension_type(lazy)] struct S<B: Backend> { t: FloatTensor<B> } },
                "expected`#[extension_type(fusion)]`",
            ),
            (
                quote! { union U<B: Backend> { t: u32 } },
                "takesastructoranenum",
            ),
        ] {
            let out = expand(item);
            assert!(out.contains("compile_error"), "{out}");
            assert!(out.contains(says), "{says}: {out}");
        }
    }
}
