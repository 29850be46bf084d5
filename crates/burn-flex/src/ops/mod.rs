//! Flex kernels, one file per op family. Every function takes owned
//! tensors and returns a new one; the `backend` module maps the trait
//! methods of every kind onto these.

pub mod binary;
pub mod conv;
pub mod creation;
pub mod elem;
pub mod index;
pub mod interpolate;
pub mod matmul;
pub mod pool;
pub mod reduce;
pub mod shape;
pub mod softmax;
pub mod sort;
pub mod unary;
