//! Flex kernels, one file per op family, each implementing the kernel
//! trait of its family (`ShapeKernels` in `shape.rs`, …; see
//! `burn_backend::kernels`), from which burn-backend's adapters give Flex
//! the ops traits of every tensor kind. Every kernel takes owned tensors
//! and returns a new one.

pub mod binary;
pub mod conv;
pub mod creation;
pub mod elem;
pub mod index;
pub mod interpolate;
pub mod matmul;
pub mod pool;
pub mod qmatmul;
pub mod reduce;
pub mod shape;
pub mod softmax;
pub mod sort;
pub mod unary;
