//! Int tensor ops, one file per op.

mod add_sub_mul;
mod arange;
mod argmax;
mod bitwise;
mod cast;
mod clamp;
mod cumsum;
mod div_remainder;
mod gather;
mod matmul;
mod sort;
mod sum;
