//! `#[derive(Module)]`.
//!
//! Generates the five methods of `burn::module::Module` that need to see the
//! fields (`visit`, `map`, `collect_devices`, `to_device`, `fork`) and
//! `Clone`. Each destructures `self`, handles every field through the field
//! type's own `Module` impl, and rebuilds the value; `visit` and `map`
//! announce each field to the visitor/mapper with `enter_module` /
//! `exit_module`, which is how module paths are built.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use crate::fields::{self, Field};

/// A struct body or one enum variant.
struct Body {
    /// `Self` or `Self::Variant`.
    path: TokenStream,
    kind: Fields,
    fields: Vec<Field>,
    /// Per field: carried as a constant (`#[module(skip)]`).
    skip: Vec<bool>,
    /// For a variant: its name, the path segment its fields live under.
    variant: Option<String>,
}

impl Body {
    fn new(path: TokenStream, kind: &Fields, variant: Option<String>) -> syn::Result<Self> {
        let fields = fields::collect(kind);
        let skip = fields
            .iter()
            .map(|f| is_skipped(&f.attrs))
            .collect::<syn::Result<Vec<_>>>()?;
        Ok(Self {
            path,
            kind: kind.clone(),
            fields,
            skip,
            variant,
        })
    }

    /// A pattern binding every field, skipped ones to `_` when `bind_skipped` is false.
    fn pattern(&self, bind_skipped: bool) -> TokenStream {
        let parts: Vec<TokenStream> = self
            .fields
            .iter()
            .zip(&self.skip)
            .map(|(f, &skip)| {
                let b = &f.binding;
                if skip && !bind_skipped {
                    quote!(_)
                } else {
                    quote!(#b)
                }
            })
            .collect();
        fields::shape(&self.path, &self.kind, &self.fields, &parts)
    }

    /// The value rebuilt from the bindings.
    fn construct(&self) -> TokenStream {
        self.pattern(true)
    }

    /// `step(field)` for every traversed field, each inside the
    /// `enter_module` / `exit_module` calls of `hook` (`visitor` or `mapper`)
    /// that give it its path.
    fn traverse(
        &self,
        hook: &TokenStream,
        container: &str,
        step: impl Fn(&Field) -> TokenStream,
    ) -> TokenStream {
        let traversed: Vec<&Field> = self
            .fields
            .iter()
            .zip(&self.skip)
            .filter(|(_, skip)| !**skip)
            .map(|(f, _)| f)
            .collect();
        let wrap = |segment: &str, container: &str, inner: TokenStream| {
            quote! {
                #hook.enter_module(#segment, #container);
                #inner
                #hook.exit_module(#segment, #container);
            }
        };
        match &self.variant {
            None => traversed
                .iter()
                .map(|f| wrap(&f.segment, container, step(f)))
                .collect(),
            Some(_) if traversed.is_empty() => quote! {},
            // `Self::Conv(conv)`: the variant is the only segment, as a
            // newtype field adds nothing a reader would recognise.
            Some(variant) if matches!(self.kind, Fields::Unnamed(_)) && self.fields.len() == 1 => {
                wrap(variant, container, step(traversed[0]))
            }
            Some(variant) => {
                let inner_container = format!("{container}::{variant}");
                let inner: TokenStream = traversed
                    .iter()
                    .map(|f| wrap(&f.segment, &inner_container, step(f)))
                    .collect();
                wrap(variant, container, inner)
            }
        }
    }
}

/// Whether the field carries `#[module(skip)]`.
fn is_skipped(attrs: &[syn::Attribute]) -> syn::Result<bool> {
    let mut skip = false;
    for attr in attrs.iter().filter(|a| a.path().is_ident("module")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                skip = true;
                Ok(())
            } else {
                Err(meta.error("unknown module attribute: the only one is `#[module(skip)]`"))
            }
        })?;
    }
    Ok(skip)
}

pub(crate) fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    let (bodies, container, is_enum) = match &input.data {
        Data::Struct(data) => (
            vec![Body::new(quote!(Self), &data.fields, None)?],
            format!("Struct:{name}"),
            false,
        ),
        Data::Enum(data) => {
            if data.variants.is_empty() {
                return Err(syn::Error::new_spanned(
                    name,
                    "Module cannot be derived for an enum without variants",
                ));
            }
            let bodies = data
                .variants
                .iter()
                .map(|v| {
                    let ident = &v.ident;
                    Body::new(quote!(Self::#ident), &v.fields, Some(ident.to_string()))
                })
                .collect::<syn::Result<Vec<_>>>()?;
            (bodies, format!("Enum:{name}"), true)
        }
        Data::Union(data) => {
            return Err(syn::Error::new_spanned(
                data.union_token,
                "Module cannot be derived for a union",
            ));
        }
    };

    // One arm (or `let`) per body: destructure, run the statements, produce.
    let by_ref = |stmts: &dyn Fn(&Body) -> TokenStream, result: TokenStream| {
        dispatch(&bodies, is_enum, false, |body| {
            let s = stmts(body);
            quote! { #s #result }
        })
    };
    let by_value = |stmts: &dyn Fn(&Body) -> TokenStream| {
        dispatch(&bodies, is_enum, true, |body| {
            let s = stmts(body);
            let rebuilt = body.construct();
            quote! { #s #rebuilt }
        })
    };

    let visitor = quote!(visitor);
    let mapper = quote!(mapper);
    let visit = by_ref(
        &|body| {
            body.traverse(&visitor, &container, |f| {
                let b = &f.binding;
                quote! { burn::module::Module::visit(#b, visitor); }
            })
        },
        quote! {},
    );
    let collect_devices = by_ref(
        &|body| {
            per_field(body, |b| {
                quote! { let devices = burn::module::Module::collect_devices(#b, devices); }
            })
        },
        quote! { devices },
    );
    let map = by_value(&|body| {
        body.traverse(&mapper, &container, |f| {
            let b = &f.binding;
            quote! { let #b = burn::module::Module::map(#b, mapper); }
        })
    });
    let to_device = by_value(&|body| {
        per_field(body, |b| {
            quote! { let #b = burn::module::Module::to_device(#b, device); }
        })
    });
    let fork = by_value(&|body| {
        per_field(body, |b| {
            quote! { let #b = burn::module::Module::fork(#b, device); }
        })
    });
    let clone = dispatch(&bodies, is_enum, true, |body| {
        let parts: Vec<TokenStream> = body
            .fields
            .iter()
            .map(|f| {
                let b = &f.binding;
                quote! { ::core::clone::Clone::clone(#b) }
            })
            .collect();
        fields::shape(&body.path, &body.kind, &body.fields, &parts)
    });

    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        // Modules without parameters (activations, unit variants) leave
        // `visitor`, `device`, … unused. The method generics are named
        // `__V` / `__M` so they cannot clash with the module's own.
        #[allow(unused_variables, clippy::let_and_return, clippy::redundant_clone)]
        impl #impl_generics burn::module::Module for #name #ty_generics #where_clause {
            fn visit<__V: burn::module::ModuleVisitor>(&self, visitor: &mut __V) {
                #visit
            }

            fn map<__M: burn::module::ModuleMapper>(self, mapper: &mut __M) -> Self {
                #map
            }

            fn collect_devices(&self, devices: burn::module::Devices) -> burn::module::Devices {
                #collect_devices
            }

            fn to_device(self, device: &burn::tensor::Device) -> Self {
                #to_device
            }

            fn fork(self, device: &burn::tensor::Device) -> Self {
                #fork
            }
        }

        impl #impl_generics ::core::clone::Clone for #name #ty_generics #where_clause {
            fn clone(&self) -> Self {
                #clone
            }
        }
    })
}

/// `step(binding)` for every field that is not skipped, with no path hooks.
fn per_field(body: &Body, step: impl Fn(&syn::Ident) -> TokenStream) -> TokenStream {
    body.fields
        .iter()
        .zip(&body.skip)
        .filter(|(_, skip)| !**skip)
        .map(|(f, _)| step(&f.binding))
        .collect()
}

/// For a struct, `let <pattern> = self; <code>`; for an enum, a `match` with
/// one arm per variant. Skipped fields are bound only when `bind_skipped`
/// (to be moved back or cloned); readers bind them to `_`.
fn dispatch(
    bodies: &[Body],
    is_enum: bool,
    bind_skipped: bool,
    code: impl Fn(&Body) -> TokenStream,
) -> TokenStream {
    if is_enum {
        let arms = bodies.iter().map(|body| {
            let pattern = body.pattern(bind_skipped);
            let code = code(body);
            quote! { #pattern => { #code } }
        });
        quote! { match self { #(#arms)* } }
    } else {
        let body = &bodies[0];
        let pattern = body.pattern(bind_skipped);
        let code = code(body);
        quote! { let #pattern = self; #code }
    }
}
