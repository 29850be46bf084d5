//! Bool tensor ops, one file per op.

mod any_all;
mod argwhere;
mod cat;
mod into_int_float;
mod logic;
mod mask;
