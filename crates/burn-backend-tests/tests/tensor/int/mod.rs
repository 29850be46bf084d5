//! int tensor tests.

mod ops;
