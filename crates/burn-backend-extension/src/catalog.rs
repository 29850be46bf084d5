//! The fixed catalog of backends that `burn-dispatch` can route to.
//!
//! The decorators that are backends of their own at run time are entries
//! too: the router (`Router`, ops through the IR to an in-process executor)
//! and graph capture (`Capture`).
//!
//! This is the single list every macro of this crate reads: the variants of
//! `DispatchTensor` / `DispatchDevice`, the `burn-dispatch` cargo feature
//! that enables each, and the backend type behind it. Everything generated
//! for an entry sits behind `#[cfg(feature = "<feature>")]`, evaluated in
//! `burn-dispatch`, so only enabled backends are compiled and an entry whose
//! crate does not exist yet costs nothing.
//!
//! Adding a backend means: an entry here, a cargo feature and optional
//! dependency in `burn-dispatch`, and the two enum variants (in
//! `burn-dispatch/src/{tensor,device}.rs`, same name, same `cfg`). Every op
//! then routes to it; a missing enum variant is a compile error in the
//! generated arms, not a silent gap.
//!
//! # Autodiff
//!
//! Autodiff is not an entry: it arrives (in a later issue) as a run-time
//! context carried by `DispatchTensor` and supplied by devices, not as a
//! backend of its own. When it does, each entry gets a second arm under
//! `#[cfg(feature = "autodiff")]` that routes tracked tensors to
//! `burn_autodiff::Autodiff<entry.backend>`. Those arms are emitted by
//! [`arms`], the one place that turns entries into code, so the seam is a
//! change to that function (and to the routing of `#[backend_dispatch]`),
//! not to every op.

use proc_macro2::TokenStream;
use quote::quote;

/// One dispatchable backend.
pub(crate) struct Entry {
    /// The variant name in `DispatchTensor` and `DispatchDevice`.
    pub variant: &'static str,
    /// The cargo feature of `burn-dispatch` that compiles this backend in.
    pub feature: &'static str,
    /// The backend type, as a path resolvable from `burn-dispatch`.
    pub backend: &'static str,
}

/// The catalog, in priority order (GPUs before CPUs): `DispatchDevice::default`
/// follows the same order.
pub(crate) const CATALOG: &[Entry] = &[
    // CUDA, ROCm, WGPU and the CubeCL CPU runtime share this variant: within
    // the backend, the device picks the runtime. Fusion<Cube> with
    // burn-dispatch's `fusion` feature (the alias is chosen there).
    Entry {
        variant: "Cube",
        feature: "cube",
        backend: "crate::backends::Cube",
    },
    // Flex, or Fusion<Flex> with burn-dispatch's `fusion` feature (the
    // alias is chosen there).
    Entry {
        variant: "Flex",
        feature: "flex",
        backend: "crate::backends::Flex",
    },
    Entry {
        variant: "NdArray",
        feature: "ndarray",
        backend: "burn_ndarray::NdArray",
    },
    Entry {
        variant: "LibTorch",
        feature: "tch",
        backend: "burn_tch::LibTorch",
    },
    Entry {
        variant: "Remote",
        feature: "remote",
        backend: "burn_remote::RemoteBackend",
    },
    // The router over an in-process executor of any other device
    // (`Device::router`): every op goes through the IR and back.
    Entry {
        variant: "Router",
        feature: "router",
        backend: "crate::router::RouterBackend",
    },
    // Graph capture: records ops as IR, executes nothing.
    Entry {
        variant: "Capture",
        feature: "capture",
        backend: "burn_capture::CaptureBackend",
    },
];

impl Entry {
    /// The variant as an identifier.
    pub fn variant_ident(&self) -> syn::Ident {
        syn::Ident::new(self.variant, proc_macro2::Span::call_site())
    }

    /// The backend type as a path.
    pub fn backend_path(&self) -> syn::Path {
        syn::parse_str(self.backend).expect("catalog: backend is a valid path")
    }
}

/// One piece of code per catalog entry, each behind its feature's `cfg`.
///
/// `arm` receives the entry, its variant identifier and backend path.
pub(crate) fn arms(
    mut arm: impl FnMut(&Entry, &syn::Ident, &syn::Path) -> TokenStream,
) -> TokenStream {
    CATALOG
        .iter()
        .map(|entry| {
            let feature = entry.feature;
            let body = arm(entry, &entry.variant_ident(), &entry.backend_path());
            quote! { #[cfg(feature = #feature)] #body }
        })
        .collect()
}

/// The arm closing every generated `match`: unreachable while any backend is
/// enabled (all variants are matched), and the arm that makes the `match`
/// compile when none is (the enums are then empty, and matching a reference
/// to an empty enum needs an arm).
pub(crate) fn no_backend_arm() -> TokenStream {
    quote! {
        #[allow(unreachable_patterns)]
        _ => ::core::unreachable!("burn-dispatch: no backend is enabled"),
    }
}
