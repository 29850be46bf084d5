//! float tensor tests.

mod module;
mod ops;
