//! float tensor tests.

mod ops;
