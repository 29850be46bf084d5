//! # Burn
//!
//! A deep learning framework in Rust. Tensors carry their rank and kind in
//! the type and their backend in their [`Device`](tensor::Device), chosen at
//! run time, so code has no backend type parameter.
//!
//! No execution backend is enabled by default; pick one with a feature:
//!
//! ```toml
//! [dependencies]
//! burn = { path = "…/crates/burn", features = ["flex"] }
//! ```
//!
//! ```
//! # #[cfg(feature = "flex")] {
//! use burn::prelude::*;
//!
//! let device = Device::default();
//! let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
//! let y = (x.clone() * 2 + 1).exp().sum();
//! assert!(y.into_scalar::<f32>() > 0.0);
//! # }
//! ```
//!
//! ## Feature flags
//! - `std` (default): the standard library.
//! - `flex`: the Flex backend (pure-Rust CPU, multi-threaded), `Device::flex()`.
//!
//! Features for the other backends (`wgpu`, `cuda`, …), `autodiff`, `optim`
//! and the rest arrive with the crates that implement them.
//!
//! ## Modules
//! - [`tensor`]: `Tensor`, `Device`, dtypes, activation functions.
//! - [`backend`]: the backend contract, for writing or extending backends.
//! - [`prelude`]: what most programs import.

/// Tensors, devices and dtypes.
pub mod tensor {
    pub use burn_tensor::*;
}

/// The backend contract (`Backend` and the ops traits).
pub mod backend {
    pub use burn_backend::*;
}

/// The types most programs use.
pub mod prelude {
    pub use burn_tensor::{
        Bool, DType, Device, DeviceConfig, Distribution, ElementConversion, Float, Int, Shape,
        Tensor, TensorData, Tolerance, s,
    };
}
