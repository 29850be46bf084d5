//! The operation vocabulary: the element-wise, comparison, logic, reduction
//! and scan ops as data.
//!
//! Many trait methods differ only in which arithmetic they apply:
//! `float_add`, `int_add` and `float_add_scalar` are all [`BinaryOp::Add`].
//! Naming those ops as values, once, lets every consumer treat a family
//! with one piece of code: a backend's kernels (Flex, CubeCL) take the op
//! as an argument, the IR records it, the router's interpreter maps it back
//! onto the trait method, and fusion reads it to decide what to fuse.
//!
//! Every consumer matches these enums exhaustively (no `_ =>` arm), so a new
//! variant fails to compile wherever it is not handled yet. The enums are
//! split by the dtypes they apply to, so no kernel ever receives an op it
//! cannot compute: [`BinaryOp`] is valid for every numeric dtype,
//! [`FloatBinaryOp`] only for floats, [`BitwiseOp`] only for integers.
//!
//! Each enum has `ALL` (every variant, in declaration order, for tests that
//! must cover the family) and `name()`, the name used in error messages.

use core::cmp::Ordering;

use serde::{Deserialize, Serialize};

/// Defines a vocabulary enum with its `ALL` list and `name()` table from one
/// list, so the three cannot drift apart.
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $text:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [Self] = &[$(Self::$variant,)*];

            /// The op's name in error messages.
            pub const fn name(self) -> &'static str {
                match self {
                    $( Self::$variant => $text, )*
                }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

vocabulary! {
    /// Element-wise arithmetic of two numeric tensors, or of a tensor and a
    /// scalar (float and int dtypes alike).
    BinaryOp {
        /// `lhs + rhs`.
        Add => "add",
        /// `lhs - rhs`.
        Sub => "sub",
        /// `lhs * rhs`.
        Mul => "mul",
        /// `lhs / rhs`; integer division rounds toward negative infinity.
        Div => "div",
        /// Remainder with the sign of the divisor (Python's `%`).
        Rem => "remainder",
        /// `lhs ^ rhs`.
        Pow => "pow",
        /// The larger operand (NaN propagates for floats).
        Max => "max_pair",
        /// The smaller operand (NaN propagates for floats).
        Min => "min_pair",
    }
}

vocabulary! {
    /// Element-wise binary ops defined for float dtypes only.
    FloatBinaryOp {
        /// Four-quadrant arctangent of `lhs / rhs`.
        Atan2 => "atan2",
    }
}

vocabulary! {
    /// Element-wise bitwise ops of integer tensors.
    BitwiseOp {
        /// `lhs & rhs`.
        And => "bitwise_and",
        /// `lhs | rhs`.
        Or => "bitwise_or",
        /// `lhs ^ rhs`.
        Xor => "bitwise_xor",
        /// `lhs << rhs` (zero when the shift is negative or at least the width).
        Shl => "bitwise_left_shift",
        /// `lhs >> rhs`, arithmetic for signed dtypes.
        Shr => "bitwise_right_shift",
    }
}

vocabulary! {
    /// Element-wise comparisons of numeric tensors; the result is a bool tensor.
    CmpOp {
        /// `lhs == rhs`.
        Eq => "equal",
        /// `lhs != rhs`.
        Ne => "not_equal",
        /// `lhs > rhs`.
        Gt => "greater",
        /// `lhs >= rhs`.
        Ge => "greater_equal",
        /// `lhs < rhs`.
        Lt => "lower",
        /// `lhs <= rhs`.
        Le => "lower_equal",
    }
}

vocabulary! {
    /// Element-wise logic of two bool tensors.
    BoolOp {
        /// Both true.
        And => "bool_and",
        /// Either true.
        Or => "bool_or",
        /// Exactly one true.
        Xor => "bool_xor",
        /// Both the same.
        Eq => "bool_equal",
    }
}

vocabulary! {
    /// Element-wise functions of float tensors.
    FloatUnaryOp {
        /// `-x`.
        Neg => "float_neg",
        /// `1 / x`.
        Recip => "float_recip",
        /// `|x|`.
        Abs => "float_abs",
        /// `e^x`.
        Exp => "float_exp",
        /// Natural logarithm.
        Log => "float_log",
        /// `ln(1 + x)`.
        Log1p => "float_log1p",
        /// Square root.
        Sqrt => "float_sqrt",
        /// Sine.
        Sin => "float_sin",
        /// Cosine.
        Cos => "float_cos",
        /// Tangent.
        Tan => "float_tan",
        /// Hyperbolic sine.
        Sinh => "float_sinh",
        /// Hyperbolic cosine.
        Cosh => "float_cosh",
        /// Hyperbolic tangent.
        Tanh => "float_tanh",
        /// Inverse sine.
        Asin => "float_asin",
        /// Inverse cosine.
        Acos => "float_acos",
        /// Inverse tangent.
        Atan => "float_atan",
        /// Inverse hyperbolic sine.
        Asinh => "float_asinh",
        /// Inverse hyperbolic cosine.
        Acosh => "float_acosh",
        /// Inverse hyperbolic tangent.
        Atanh => "float_atanh",
        /// The error function.
        Erf => "float_erf",
        /// Round half to even.
        Round => "float_round",
        /// Round down.
        Floor => "float_floor",
        /// Round up.
        Ceil => "float_ceil",
        /// Round toward zero.
        Trunc => "float_trunc",
        /// -1, 0 or 1 by sign (NaN stays NaN).
        Sign => "float_sign",
    }
}

vocabulary! {
    /// Element-wise functions of integer tensors (wrapping on overflow).
    IntUnaryOp {
        /// `-x`.
        Neg => "int_neg",
        /// `|x|`.
        Abs => "int_abs",
        /// -1, 0 or 1 by sign.
        Sign => "int_sign",
        /// `!x`, every bit flipped.
        BitNot => "bitwise_not",
    }
}

vocabulary! {
    /// Reductions of a whole tensor or along one dim.
    ReduceOp {
        /// The sum.
        Sum => "sum",
        /// The product.
        Prod => "prod",
        /// The largest element (NaN propagates).
        Max => "max",
        /// The smallest element (NaN propagates).
        Min => "min",
    }
}

vocabulary! {
    /// Reductions that return the position of the element along a dim.
    ArgReduceOp {
        /// The index of the largest element (the first one on ties).
        ArgMax => "argmax",
        /// The index of the smallest element (the first one on ties).
        ArgMin => "argmin",
    }
}

vocabulary! {
    /// Running (cumulative) ops along one dim.
    CumOp {
        /// Running sum.
        Sum => "cumsum",
        /// Running product.
        Prod => "cumprod",
        /// Running maximum.
        Max => "cummax",
        /// Running minimum.
        Min => "cummin",
    }
}

impl CmpOp {
    /// Whether `lhs op rhs` holds when `lhs` compares to `rhs` as `ordering`
    /// (`None`: unordered, a NaN on either side, where only `Ne` holds).
    pub fn holds(self, ordering: Option<Ordering>) -> bool {
        use Ordering::{Equal, Greater, Less};
        match self {
            CmpOp::Eq => ordering == Some(Equal),
            CmpOp::Ne => ordering != Some(Equal),
            CmpOp::Gt => ordering == Some(Greater),
            CmpOp::Ge => matches!(ordering, Some(Greater | Equal)),
            CmpOp::Lt => ordering == Some(Less),
            CmpOp::Le => matches!(ordering, Some(Less | Equal)),
        }
    }
}

impl ReduceOp {
    /// The name of the reduction along one dim in error messages (`sum_dim`, …).
    pub const fn dim_name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum_dim",
            ReduceOp::Prod => "prod_dim",
            ReduceOp::Max => "max_dim",
            ReduceOp::Min => "min_dim",
        }
    }

    /// The reduction of no elements: 0 for a sum, 1 for a product; `None`
    /// for max and min, which have no value there (reducing nothing is an
    /// error).
    pub const fn of_empty(self) -> Option<i64> {
        match self {
            ReduceOp::Sum => Some(0),
            ReduceOp::Prod => Some(1),
            ReduceOp::Max | ReduceOp::Min => None,
        }
    }
}

impl CumOp {
    /// The reduction this scan accumulates with.
    pub const fn reduction(self) -> ReduceOp {
        match self {
            CumOp::Sum => ReduceOp::Sum,
            CumOp::Prod => ReduceOp::Prod,
            CumOp::Max => ReduceOp::Max,
            CumOp::Min => ReduceOp::Min,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_within_each_family() {
        fn distinct(names: &[&str]) {
            for (i, a) in names.iter().enumerate() {
                assert!(!names[i + 1..].contains(a), "{a} is used twice");
            }
        }
        distinct(
            &BinaryOp::ALL
                .iter()
                .map(|op| op.name())
                .collect::<alloc::vec::Vec<_>>(),
        );
        distinct(
            &FloatUnaryOp::ALL
                .iter()
                .map(|op| op.name())
                .collect::<alloc::vec::Vec<_>>(),
        );
        distinct(
            &CmpOp::ALL
                .iter()
                .map(|op| op.name())
                .collect::<alloc::vec::Vec<_>>(),
        );
    }

    #[test]
    fn all_lists_every_variant_in_order() {
        // `ALL` is generated from the same list as the enum, so its order is
        // the declaration order; the discriminants confirm it.
        for (i, op) in FloatUnaryOp::ALL.iter().enumerate() {
            assert_eq!(*op as usize, i);
        }
        assert_eq!(BinaryOp::ALL.len(), 8);
        assert_eq!(CumOp::Max.reduction(), ReduceOp::Max);
        for op in ReduceOp::ALL {
            assert_eq!(op.dim_name(), alloc::format!("{}_dim", op.name()));
        }
    }

    #[test]
    fn holds_agrees_with_the_comparison_operators() {
        fn direct(op: CmpOp, a: f64, b: f64) -> bool {
            match op {
                CmpOp::Eq => a == b,
                CmpOp::Ne => a != b,
                CmpOp::Gt => a > b,
                CmpOp::Ge => a >= b,
                CmpOp::Lt => a < b,
                CmpOp::Le => a <= b,
            }
        }
        for &op in CmpOp::ALL {
            for (a, b) in [(1.0, 2.0), (2.0, 2.0), (3.0, 2.0), (1.0, f64::NAN)] {
                assert_eq!(
                    op.holds(a.partial_cmp(&b)),
                    direct(op, a, b),
                    "{a} {op} {b}"
                );
            }
        }
    }
}
