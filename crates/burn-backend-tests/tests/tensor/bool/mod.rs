//! bool tensor tests.

mod ops;
