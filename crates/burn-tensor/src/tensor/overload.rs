//! Arithmetic operators for numeric tensors: `+ - * / %` between two tensors
//! of the same rank and kind (broadcasting), with any [`Element`] scalar on
//! the right, with an `f32`, `f64`, `i32` or `i64` scalar on the left, and
//! unary `-`.
//!
//! Each forwards to the method of the same name (`add`, `add_scalar`, …), so
//! operators and methods check and compute the same way.
//!
//! A bare literal on the left (`1.0 - x`) could be any of the scalar types,
//! so Rust picks it only after inference; name the result's type when a
//! method is called on it directly (`let y: Tensor<1> = 1.0 - x;`).
//!
//! ```
//! # #[cfg(feature = "flex")] {
//! use burn_tensor::{Device, Tensor};
//!
//! let device = Device::flex();
//! let x = Tensor::<1>::from_data([1.0, 2.0], &device);
//! let y: Tensor<1> = 1.0 - x.clone() * 2 + x / 4.0;
//! assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![-0.75, -2.5]);
//! # }
//! ```

use core::ops::{Add, Div, Mul, Neg, Rem, Sub};

use burn_std::{Element, Scalar};

use crate::Tensor;
use crate::bridge::ops::numeric as bridge;
use crate::tensor::Numeric;

/// Tensor-tensor and tensor-scalar impls of one operator.
macro_rules! tensor_ops {
    ($($trait:ident :: $method:ident => $tensor_method:ident, $scalar_method:ident;)*) => {
        $(
            impl<const D: usize, K: Numeric> $trait<Tensor<D, K>> for Tensor<D, K> {
                type Output = Self;

                #[track_caller]
                fn $method(self, rhs: Self) -> Self {
                    Tensor::$tensor_method(self, rhs)
                }
            }

            impl<const D: usize, K: Numeric, E: Element> $trait<E> for Tensor<D, K> {
                type Output = Self;

                fn $method(self, rhs: E) -> Self {
                    Tensor::$scalar_method(self, rhs)
                }
            }
        )*
    };
}

tensor_ops! {
    Add::add => add, add_scalar;
    Sub::sub => sub, sub_scalar;
    Mul::mul => mul, mul_scalar;
    Div::div => div, div_scalar;
    Rem::rem => remainder, remainder_scalar;
}

impl<const D: usize, K: Numeric> Neg for Tensor<D, K> {
    type Output = Self;

    fn neg(self) -> Self {
        Tensor::neg(self)
    }
}

/// Scalar-on-the-left impls for one scalar type.
macro_rules! scalar_lhs_ops {
    ($($ty:ty),*) => {
        $(
            impl<const D: usize, K: Numeric> Add<Tensor<D, K>> for $ty {
                type Output = Tensor<D, K>;

                fn add(self, rhs: Tensor<D, K>) -> Tensor<D, K> {
                    rhs.add_scalar(self)
                }
            }

            impl<const D: usize, K: Numeric> Mul<Tensor<D, K>> for $ty {
                type Output = Tensor<D, K>;

                fn mul(self, rhs: Tensor<D, K>) -> Tensor<D, K> {
                    rhs.mul_scalar(self)
                }
            }

            impl<const D: usize, K: Numeric> Sub<Tensor<D, K>> for $ty {
                type Output = Tensor<D, K>;

                fn sub(self, rhs: Tensor<D, K>) -> Tensor<D, K> {
                    Tensor::from_bridge(bridge::scalar_sub(Scalar::from_elem(self), rhs.primitive))
                }
            }

            impl<const D: usize, K: Numeric> Div<Tensor<D, K>> for $ty {
                type Output = Tensor<D, K>;

                fn div(self, rhs: Tensor<D, K>) -> Tensor<D, K> {
                    Tensor::from_bridge(bridge::scalar_div(Scalar::from_elem(self), rhs.primitive))
                }
            }

            impl<const D: usize, K: Numeric> Rem<Tensor<D, K>> for $ty {
                type Output = Tensor<D, K>;

                fn rem(self, rhs: Tensor<D, K>) -> Tensor<D, K> {
                    Tensor::from_bridge(bridge::scalar_remainder(Scalar::from_elem(self), rhs.primitive))
                }
            }
        )*
    };
}

scalar_lhs_ops!(f32, f64, i32, i64);
