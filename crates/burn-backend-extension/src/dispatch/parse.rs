//! Reading the impl block: which fns get a generated body, and what each of
//! their parameters and outputs is.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{
    Attribute, FnArg, GenericArgument, ImplItem, ItemImpl, Pat, PathArguments, ReturnType,
    Signature, TraitItemFn, Type,
};

/// The tensor kind of a primitive alias (`FloatTensor<Self>`, …).
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    Float,
    Int,
    Bool,
    Quantized,
}

impl Kind {
    fn from_alias(alias: &str) -> Option<Self> {
        match alias {
            "FloatTensor" => Some(Self::Float),
            "IntTensor" => Some(Self::Int),
            "BoolTensor" => Some(Self::Bool),
            "QuantizedTensor" => Some(Self::Quantized),
            _ => None,
        }
    }

    /// The `BackendTensor` method taking the primitive out by value.
    pub fn take(self) -> &'static str {
        match self {
            Self::Float => "float",
            Self::Int => "int",
            Self::Bool => "bool",
            Self::Quantized => "quantized",
        }
    }

    /// The `BackendTensor` method borrowing the primitive.
    pub fn take_ref(self) -> &'static str {
        match self {
            Self::Float => "float_ref",
            Self::Int => "int_ref",
            Self::Bool => "bool_ref",
            Self::Quantized => "quantized_ref",
        }
    }

    /// The `BackendTensor` variant wrapping a primitive of this kind.
    pub fn variant(self) -> &'static str {
        match self {
            Self::Float => "Float",
            Self::Int => "Int",
            Self::Bool => "Bool",
            Self::Quantized => "Quantized",
        }
    }
}

/// How a parameter is routed.
pub(crate) enum Param {
    /// `FloatTensor<Self>` (by value) or `&FloatTensor<Self>`.
    Tensor { kind: Kind, by_ref: bool },
    /// `Vec<FloatTensor<Self>>`.
    TensorVec(Kind),
    /// `Option<FloatTensor<Self>>` (a conv bias): checked when present, never the key.
    TensorOption(Kind),
    /// `&Device<Self>`: the routing key of creation ops.
    Device,
    /// `#[extension_type] boxes: Boxes<Self>`: a struct or enum of tensors
    /// (`#[derive(ExtensionType)]`); only in `#[backend_extension]`.
    Extension,
    /// Anything not mentioning `Self` (`usize`, `Scalar`, `&[Slice]`, …): passed through.
    Plain,
}

/// How the backend's result is wrapped back.
pub(crate) enum Output {
    Tensor(Kind),
    Tuple(Vec<Kind>),
    Device,
    /// `Boxes<Self>`: a struct or enum of tensors (`#[derive(ExtensionType)]`);
    /// only in `#[backend_extension]`.
    Extension,
    /// Anything not mentioning `Self` (`bool`, `Result<TensorData, _>`, …): returned as is.
    Plain,
}

/// A bodiless fn of the block, classified.
pub(crate) struct Op {
    pub attrs: Vec<Attribute>,
    pub sig: Signature,
    pub params: Vec<(syn::Ident, Param)>,
    pub output: Output,
}

/// An item of the block after parsing.
// A few hundred per expansion, moved once: their size does not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Item {
    /// A bodiless fn: its body is generated.
    Generated(Op),
    /// A `#[backend_dispatch(skip)]` fn (attribute removed) or a non-fn item: kept as written.
    Kept(ImplItem),
}

/// The parsed block: the impl header (items emptied) and its items.
pub(crate) struct DispatchImpl {
    pub header: ItemImpl,
    /// The items that parsed; those with errors are left out.
    pub items: Vec<Item>,
    /// Every item's error. The impl is still generated without those items,
    /// so the other ops do not cascade into errors of their own.
    pub errors: Option<syn::Error>,
}

pub(crate) fn parse(attr: TokenStream, item: TokenStream) -> syn::Result<DispatchImpl> {
    if !attr.is_empty() {
        return Err(syn::Error::new_spanned(
            attr,
            "#[backend_dispatch] takes no arguments on an impl block; \
             `#[backend_dispatch(skip)]` goes on a fn inside it",
        ));
    }
    let mut header: ItemImpl = syn::parse2(item)?;
    if header.trait_.is_none() {
        return Err(syn::Error::new_spanned(
            &header.self_ty,
            "#[backend_dispatch] goes on an `impl XxxOps<Self> for Dispatch` block",
        ));
    }
    let mut items = Vec::new();
    let mut errors: Option<syn::Error> = None;
    for item in core::mem::take(&mut header.items) {
        match parse_item(item) {
            Ok(item) => items.push(item),
            // Keep going so every bad signature is reported at once.
            Err(e) => match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            },
        }
    }
    Ok(DispatchImpl {
        header,
        items,
        errors,
    })
}

fn parse_item(item: ImplItem) -> syn::Result<Item> {
    match item {
        // A fn with a body.
        ImplItem::Fn(mut f) => {
            if take_skip(&mut f.attrs)? {
                Ok(Item::Kept(ImplItem::Fn(f)))
            } else {
                // Requiring the marker keeps a hand-written body a visible decision.
                Err(syn::Error::new_spanned(
                    &f.sig.ident,
                    format!(
                        "`{}` has a body: mark it `#[backend_dispatch(skip)]` to keep a \
                         hand-written body, or remove the body to have it generated",
                        f.sig.ident
                    ),
                ))
            }
        }
        // syn gives `fn name(...) -> T;` in an impl as verbatim tokens (rustc's
        // parser accepts it too; only its later validation would reject it,
        // and by then the body has been generated). It has the shape of a
        // trait fn without a default.
        ImplItem::Verbatim(tokens) => {
            let mut f: TraitItemFn = syn::parse2(tokens)?;
            if take_skip(&mut f.attrs)? {
                return Err(syn::Error::new_spanned(
                    &f.sig.ident,
                    format!(
                        "`{}`: #[backend_dispatch(skip)] needs a hand-written body",
                        f.sig.ident
                    ),
                ));
            }
            Ok(Item::Generated(parse_op(f.attrs, f.sig)?))
        }
        other => Ok(Item::Kept(other)),
    }
}

/// Removes `#[backend_dispatch(skip)]` from `attrs`; whether it was there.
fn take_skip(attrs: &mut Vec<Attribute>) -> syn::Result<bool> {
    let mut skip = false;
    let mut result = Ok(());
    attrs.retain(|attr| {
        if !attr.path().is_ident("backend_dispatch") {
            return true;
        }
        match attr.parse_args::<syn::Ident>() {
            Ok(arg) if arg == "skip" => skip = true,
            _ => {
                result = Err(syn::Error::new_spanned(
                    attr,
                    "expected `#[backend_dispatch(skip)]`",
                ))
            }
        }
        false
    });
    result.map(|()| skip)
}

/// Which macro reads a signature: its name, and what its errors suggest
/// instead of a generated body.
#[derive(Clone, Copy)]
pub(crate) struct Reader {
    pub name: &'static str,
    pub instead: &'static str,
    /// Whether structs and enums of tensors (`#[extension_type]` inputs,
    /// `Name<Self>` outputs) are accepted.
    pub structs: bool,
}

/// `#[backend_dispatch]`'s.
pub(crate) const DISPATCH: Reader = Reader {
    name: "#[backend_dispatch]",
    instead: "hand-write the body with #[backend_dispatch(skip)]",
    structs: false,
};

fn parse_op(attrs: Vec<Attribute>, sig: Signature) -> syn::Result<Op> {
    parse_signature(DISPATCH, attrs, sig)
}

/// Classifies a bodiless (or default-bodied) fn's parameters and output;
/// every unsupported part is an error naming the fn.
pub(crate) fn parse_signature(
    reader: Reader,
    attrs: Vec<Attribute>,
    sig: Signature,
) -> syn::Result<Op> {
    let name = sig.ident.to_string();
    let Reader {
        name: macro_name,
        instead,
        structs,
    } = reader;
    let error = |tokens: &dyn ToTokens, what: &str| {
        syn::Error::new_spanned(tokens, format!("{macro_name} on `{name}`: {what}"))
    };
    if !sig.generics.params.is_empty() {
        return Err(error(
            &sig.generics,
            &format!("generic ops are not supported; {instead}"),
        ));
    }
    let mut params = Vec::new();
    for input in &sig.inputs {
        let FnArg::Typed(arg) = input else {
            return Err(error(
                input,
                "ops are associated functions; `self` is not supported",
            ));
        };
        let Pat::Ident(pat) = &*arg.pat else {
            return Err(error(&arg.pat, "parameters must be plain names"));
        };
        let marked = arg
            .attrs
            .iter()
            .any(|a| a.path().is_ident("extension_type"));
        if marked {
            if !structs {
                return Err(error(
                    arg,
                    "#[extension_type] belongs to #[backend_extension]",
                ));
            }
            if !mentions_self(arg.ty.to_token_stream()) {
                return Err(error(
                    &arg.ty,
                    "an #[extension_type] input is a struct or enum over `Self` (`Boxes<Self>`)",
                ));
            }
            params.push((pat.ident.clone(), Param::Extension));
            continue;
        }
        let param = classify_param(&arg.ty).ok_or_else(|| {
            error(
                &arg.ty,
                &format!(
                    "unsupported parameter type; supported: FloatTensor/IntTensor/BoolTensor/QuantizedTensor<Self> \
                     (by value, by reference, in a Vec or in an Option), &Device<Self>, and types \
                     not mentioning `Self`; {instead}"
                ),
            )
        })?;
        params.push((pat.ident.clone(), param));
    }
    let tensors = params.iter().any(|(_, p)| {
        matches!(
            p,
            Param::Tensor { .. } | Param::TensorVec(_) | Param::Extension
        )
    });
    let optional = params
        .iter()
        .any(|(_, p)| matches!(p, Param::TensorOption(_)));
    let devices = params.iter().any(|(_, p)| matches!(p, Param::Device));
    if (tensors || optional) && devices {
        // Whether the device must match the tensors (an input) or may differ
        // (a destination, as in `to_device`) depends on the op.
        return Err(error(
            &sig.inputs,
            &format!(
                "a tensor and a device parameter together need op-specific routing; {instead}"
            ),
        ));
    }
    if !tensors && !devices {
        // An `Option` may be `None`, so it cannot be the routing key.
        return Err(error(
            &sig.ident,
            &format!("no tensor (outside an Option) or device parameter to route by; {instead}"),
        ));
    }
    let output = match &sig.output {
        ReturnType::Default => Output::Plain,
        ReturnType::Type(_, ty) => classify_output(ty, structs).ok_or_else(|| {
            error(
                ty,
                if structs {
                    "unsupported return type; supported: FloatTensor/IntTensor/BoolTensor/QuantizedTensor<Self>, \
                     tuples of them, Device<Self>, a struct or enum `Name<Self>` deriving ExtensionType, \
                     and types not mentioning `Self`"
                } else {
                    "unsupported return type; supported: FloatTensor/IntTensor/BoolTensor/QuantizedTensor<Self>, \
                     tuples of them, Device<Self>, and types not mentioning `Self`"
                },
            )
        })?,
    };
    // The marks are read; the generated fns do without them.
    let mut sig = sig;
    for input in sig.inputs.iter_mut() {
        if let FnArg::Typed(arg) = input {
            arg.attrs.retain(|a| !a.path().is_ident("extension_type"));
        }
    }
    Ok(Op {
        attrs,
        sig,
        params,
        output,
    })
}

fn classify_param(ty: &Type) -> Option<Param> {
    if let Type::Reference(r) = ty
        && r.mutability.is_none()
    {
        if let Some(kind) = tensor_kind(&r.elem) {
            return Some(Param::Tensor { kind, by_ref: true });
        }
        if alias_of_self(&r.elem) == Some("Device") {
            return Some(Param::Device);
        }
    }
    if let Some(kind) = tensor_kind(ty) {
        return Some(Param::Tensor {
            kind,
            by_ref: false,
        });
    }
    if let Some(elem) = single_generic(ty, "Vec")
        && let Some(kind) = tensor_kind(elem)
    {
        return Some(Param::TensorVec(kind));
    }
    if let Some(elem) = single_generic(ty, "Option")
        && let Some(kind) = tensor_kind(elem)
    {
        return Some(Param::TensorOption(kind));
    }
    // Anything else holding `Self` (e.g. `TransactionPrimitive<Self>`) would
    // need unwrapping the generator does not know.
    (!mentions_self(ty.to_token_stream())).then_some(Param::Plain)
}

fn classify_output(ty: &Type, structs: bool) -> Option<Output> {
    if let Some(kind) = tensor_kind(ty) {
        return Some(Output::Tensor(kind));
    }
    if alias_of_self(ty) == Some("Device") {
        return Some(Output::Device);
    }
    if let Type::Tuple(tuple) = ty
        && !tuple.elems.is_empty()
        && let Some(kinds) = tuple.elems.iter().map(tensor_kind).collect()
    {
        return Some(Output::Tuple(kinds));
    }
    if !mentions_self(ty.to_token_stream()) {
        return Some(Output::Plain);
    }
    // `Name<Self>` (any path): a derived ExtensionType, checked by its trait bounds.
    (structs && single_generic_of_self(ty)).then_some(Output::Extension)
}

/// `FloatTensor<Self>` → `Float`, etc.
fn tensor_kind(ty: &Type) -> Option<Kind> {
    tensor_kind_of(ty, "Self")
}

/// `FloatTensor<B>` → `Float`, etc., for the type parameter named `param`.
pub(crate) fn tensor_kind_of(ty: &Type, param: &str) -> Option<Kind> {
    alias_of(ty, param).and_then(Kind::from_alias)
}

fn alias_of_self(ty: &Type) -> Option<&'static str> {
    alias_of(ty, "Self")
}

/// `Alias<param>` → `"Alias"` (the last path segment, so
/// `burn_backend::FloatTensor<Self>` works too).
fn alias_of(ty: &Type, param: &str) -> Option<&'static str> {
    const ALIASES: [&str; 5] = [
        "FloatTensor",
        "IntTensor",
        "BoolTensor",
        "QuantizedTensor",
        "Device",
    ];
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let alias = ALIASES.into_iter().find(|a| last.ident == a)?;
    let arg = single_generic(ty, alias)?;
    matches!(arg, Type::Path(p) if p.qself.is_none() && p.path.is_ident(param)).then_some(alias)
}

/// `Name<Self>`, whatever the name.
fn single_generic_of_self(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    single_generic(ty, &last.ident.to_string()).is_some_and(
        |arg| matches!(arg, Type::Path(p) if p.qself.is_none() && p.path.is_ident("Self")),
    )
}

/// `Name<T>` → `T`.
pub(crate) fn single_generic<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.iter().collect::<Vec<_>>()[..] {
        [GenericArgument::Type(t)] => Some(t),
        _ => None,
    }
}

fn mentions_self(tokens: TokenStream) -> bool {
    mentions(tokens, "Self")
}

/// Whether `tokens` hold the identifier `name`, at any depth.
pub(crate) fn mentions(tokens: TokenStream, name: &str) -> bool {
    tokens.into_iter().any(|tt| match tt {
        TokenTree::Ident(ident) => ident == name,
        TokenTree::Group(group) => mentions(group.stream(), name),
        _ => false,
    })
}
