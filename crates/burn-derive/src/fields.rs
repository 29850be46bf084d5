//! Field bindings shared by the derives: every generated method destructures
//! `self` (or an enum variant) into local bindings and rebuilds it, so the
//! same code serves named, tuple and unit shapes.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::ext::IdentExt;
use syn::{Attribute, Fields, Ident};

/// One field of a struct or enum variant.
pub(crate) struct Field {
    /// The field's name, for named fields.
    pub name: Option<Ident>,
    /// The local variable the generated code binds it to.
    pub binding: Ident,
    /// Its segment in a module path: the name (raw prefix dropped) or the index.
    pub segment: String,
    pub ty: syn::Type,
    pub attrs: Vec<Attribute>,
}

/// The fields of `fields`, in declaration order.
pub(crate) fn collect(fields: &Fields) -> Vec<Field> {
    fields
        .iter()
        .enumerate()
        .map(|(i, field)| match &field.ident {
            Some(ident) => Field {
                name: Some(ident.clone()),
                // Prefixed so a field called `device` or `visitor` cannot
                // shadow the generated method's own parameters.
                binding: format_ident!("__field_{}", ident.unraw()),
                segment: ident.unraw().to_string(),
                ty: field.ty.clone(),
                attrs: field.attrs.clone(),
            },
            None => Field {
                name: None,
                binding: format_ident!("__field{}", i),
                segment: i.to_string(),
                ty: field.ty.clone(),
                attrs: field.attrs.clone(),
            },
        })
        .collect()
}

/// `path { a: p0, b: p1 }`, `path(p0, p1)` or `path`: a pattern when the
/// parts are bindings (or `_`), a constructor when they are expressions.
pub(crate) fn shape(
    path: &TokenStream,
    kind: &Fields,
    fields: &[Field],
    parts: &[TokenStream],
) -> TokenStream {
    match kind {
        Fields::Named(_) => {
            let names = fields.iter().map(|f| f.name.as_ref());
            quote! { #path { #(#names: #parts),* } }
        }
        Fields::Unnamed(_) => quote! { #path(#(#parts),*) },
        Fields::Unit => quote! { #path },
    }
}
