//! Methods of numeric tensors (float and int).
//!
//! Bodies only check shapes and forward to `crate::bridge::ops::numeric`;
//! checks that need more than a line live in the non-generic `*_impl`
//! helpers at the bottom of the file, compiled once here.

use burn_backend::check;
use burn_std::{Distribution, Element, Scalar, Shape};

use super::base::{check_rank, kind_of};
use crate::Tensor;
use crate::bridge::BridgeTensor;
use crate::bridge::ops::numeric as bridge;
use crate::tensor::{Bool, Int, Numeric, TensorCreationOptions};

impl<const D: usize, K: Numeric> Tensor<D, K> {
    /// A tensor of `shape` sampled from `distribution` (int tensors truncate
    /// the samples toward zero).
    ///
    /// # Panics
    /// If `shape` does not have rank `D`.
    pub fn random(
        shape: impl Into<Shape>,
        distribution: Distribution,
        options: impl Into<TensorCreationOptions>,
    ) -> Self {
        let shape = shape.into();
        check_rank::<D>("random", &shape);
        let options = options.into();
        Self::from_bridge(bridge::random(
            shape,
            distribution,
            kind_of::<K>(),
            &options.device,
            options.dtype,
        ))
    }

    // -------------------------------------------------------------- arithmetic

    /// `self + other` element-wise, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
    /// let row = Tensor::<2>::from_data([[10.0, 20.0]], &device);
    /// let y = x.add(row);
    /// assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![11.0, 22.0, 13.0, 24.0]);
    /// # }
    /// ```
    #[track_caller]
    #[allow(clippy::should_implement_trait)]
    pub fn add(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "add",
            self.primitive,
            other.primitive,
            bridge::add,
        ))
    }

    /// `self + other` for a scalar `other`.
    pub fn add_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::add_scalar(self.primitive, Scalar::from_elem(other)))
    }

    /// `self - other` element-wise, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "sub",
            self.primitive,
            other.primitive,
            bridge::sub,
        ))
    }

    /// `self - other` for a scalar `other`.
    pub fn sub_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::sub_scalar(self.primitive, Scalar::from_elem(other)))
    }

    /// `self * other` element-wise, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "mul",
            self.primitive,
            other.primitive,
            bridge::mul,
        ))
    }

    /// `self * other` for a scalar `other`.
    pub fn mul_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::mul_scalar(self.primitive, Scalar::from_elem(other)))
    }

    /// `self / other` element-wise, broadcasting. Int tensors floor-divide
    /// (round toward negative infinity), as Python's `//`.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together (or, for int tensors, on
    /// division by zero).
    #[track_caller]
    #[allow(clippy::should_implement_trait)]
    pub fn div(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "div",
            self.primitive,
            other.primitive,
            bridge::div,
        ))
    }

    /// `self / other` for a scalar `other` (floor division for int tensors).
    pub fn div_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::div_scalar(self.primitive, Scalar::from_elem(other)))
    }

    /// Remainder of `self / other` with the sign of the divisor (Python's
    /// `%`, PyTorch's `remainder`), broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Int, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<1, Int>::from_data([7, -7], &device);
    /// let y = Tensor::<1, Int>::from_data([3, 3], &device);
    /// assert_eq!(x.remainder(y).into_data().to_vec::<i64>().unwrap(), vec![1, 2]);
    /// # }
    /// ```
    #[track_caller]
    pub fn remainder(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "remainder",
            self.primitive,
            other.primitive,
            bridge::remainder,
        ))
    }

    /// Remainder of `self / other` for a scalar `other`, with the sign of the divisor.
    pub fn remainder_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::remainder_scalar(
            self.primitive,
            Scalar::from_elem(other),
        ))
    }

    /// `-self`.
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Self {
        Self::from_bridge(bridge::neg(self.primitive))
    }

    /// `|self|`.
    pub fn abs(self) -> Self {
        Self::from_bridge(bridge::abs(self.primitive))
    }

    /// -1, 0 or 1 by the sign of each element.
    pub fn sign(self) -> Self {
        Self::from_bridge(bridge::sign(self.primitive))
    }

    /// `self ^ other` element-wise with int exponents, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn powi(self, other: Tensor<D, Int>) -> Self {
        Self::from_bridge(broadcast_impl(
            "powi",
            self.primitive,
            other.primitive,
            bridge::powi,
        ))
    }

    /// `self ^ other` with an integer scalar exponent (a float `other` is
    /// truncated toward zero).
    pub fn powi_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::powi_scalar(
            self.primitive,
            Scalar::from_elem(other),
        ))
    }

    /// Element-wise maximum of two tensors, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn max_pair(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "max_pair",
            self.primitive,
            other.primitive,
            bridge::max_pair,
        ))
    }

    /// Element-wise minimum of two tensors, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn min_pair(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "min_pair",
            self.primitive,
            other.primitive,
            bridge::min_pair,
        ))
    }

    /// Clamps every element into `[min, max]`.
    pub fn clamp<E: Element>(self, min: E, max: E) -> Self {
        Self::from_bridge(bridge::clamp(
            self.primitive,
            Scalar::from_elem(min),
            Scalar::from_elem(max),
        ))
    }

    /// Raises elements below `min` to `min`.
    pub fn clamp_min<E: Element>(self, min: E) -> Self {
        Self::from_bridge(bridge::clamp_min(self.primitive, Scalar::from_elem(min)))
    }

    /// Lowers elements above `max` to `max`.
    pub fn clamp_max<E: Element>(self, max: E) -> Self {
        Self::from_bridge(bridge::clamp_max(self.primitive, Scalar::from_elem(max)))
    }

    // ------------------------------------------------------------- comparisons

    /// `self > other` element-wise, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn greater(self, other: Self) -> Tensor<D, Bool> {
        Tensor::from_bridge(broadcast_impl(
            "greater",
            self.primitive,
            other.primitive,
            bridge::greater,
        ))
    }

    /// `self >= other` element-wise, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn greater_equal(self, other: Self) -> Tensor<D, Bool> {
        Tensor::from_bridge(broadcast_impl(
            "greater_equal",
            self.primitive,
            other.primitive,
            bridge::greater_equal,
        ))
    }

    /// `self < other` element-wise, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn lower(self, other: Self) -> Tensor<D, Bool> {
        Tensor::from_bridge(broadcast_impl(
            "lower",
            self.primitive,
            other.primitive,
            bridge::lower,
        ))
    }

    /// `self <= other` element-wise, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn lower_equal(self, other: Self) -> Tensor<D, Bool> {
        Tensor::from_bridge(broadcast_impl(
            "lower_equal",
            self.primitive,
            other.primitive,
            bridge::lower_equal,
        ))
    }

    /// `self > other` for a scalar `other`.
    pub fn greater_elem<E: Element>(self, other: E) -> Tensor<D, Bool> {
        Tensor::from_bridge(bridge::greater_elem(
            self.primitive,
            Scalar::from_elem(other),
        ))
    }

    /// `self >= other` for a scalar `other`.
    pub fn greater_equal_elem<E: Element>(self, other: E) -> Tensor<D, Bool> {
        Tensor::from_bridge(bridge::greater_equal_elem(
            self.primitive,
            Scalar::from_elem(other),
        ))
    }

    /// `self < other` for a scalar `other`.
    pub fn lower_elem<E: Element>(self, other: E) -> Tensor<D, Bool> {
        Tensor::from_bridge(bridge::lower_elem(self.primitive, Scalar::from_elem(other)))
    }

    /// `self <= other` for a scalar `other`.
    pub fn lower_equal_elem<E: Element>(self, other: E) -> Tensor<D, Bool> {
        Tensor::from_bridge(bridge::lower_equal_elem(
            self.primitive,
            Scalar::from_elem(other),
        ))
    }

    // -------------------------------------------------------------- reductions

    /// Sum of all elements, as a tensor of shape `[1]`.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device);
    /// assert_eq!(x.clone().sum().into_data().to_vec::<f32>().unwrap(), vec![10.0]);
    /// // Along a dim, which is kept with size 1.
    /// let s = x.sum_dim(1);
    /// assert_eq!(s.dims(), [2, 1]);
    /// assert_eq!(s.into_data().to_vec::<f32>().unwrap(), vec![3.0, 7.0]);
    /// # }
    /// ```
    pub fn sum(self) -> Tensor<1, K> {
        Tensor::from_bridge(bridge::sum(self.primitive))
    }

    /// Sum along `dim`, which is kept with size 1.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn sum_dim(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("sum_dim", self.primitive, dim, bridge::sum_dim))
    }

    /// Mean of all elements, shape `[1]` (floor of the mean for int tensors).
    pub fn mean(self) -> Tensor<1, K> {
        Tensor::from_bridge(bridge::mean(self.primitive))
    }

    /// Mean along `dim`, which is kept with size 1 (floored for int tensors).
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn mean_dim(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("mean_dim", self.primitive, dim, bridge::mean_dim))
    }

    /// Product of all elements, shape `[1]`.
    pub fn prod(self) -> Tensor<1, K> {
        Tensor::from_bridge(bridge::prod(self.primitive))
    }

    /// Product along `dim`, which is kept with size 1.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn prod_dim(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("prod_dim", self.primitive, dim, bridge::prod_dim))
    }

    /// Largest element, shape `[1]` (NaN propagates for float tensors).
    pub fn max(self) -> Tensor<1, K> {
        Tensor::from_bridge(bridge::max(self.primitive))
    }

    /// Largest element along `dim`, which is kept with size 1.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn max_dim(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("max_dim", self.primitive, dim, bridge::max_dim))
    }

    /// Largest element along `dim` and its index (the first one on ties).
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn max_dim_with_indices(self, dim: usize) -> (Self, Tensor<D, Int>) {
        check::dim("max_dim_with_indices", dim, &self.shape());
        let (values, indices) = bridge::max_dim_with_indices(self.primitive, dim);
        (Self::from_bridge(values), Tensor::from_bridge(indices))
    }

    /// Smallest element, shape `[1]`.
    pub fn min(self) -> Tensor<1, K> {
        Tensor::from_bridge(bridge::min(self.primitive))
    }

    /// Smallest element along `dim`, which is kept with size 1.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn min_dim(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("min_dim", self.primitive, dim, bridge::min_dim))
    }

    /// Smallest element along `dim` and its index (the first one on ties).
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn min_dim_with_indices(self, dim: usize) -> (Self, Tensor<D, Int>) {
        check::dim("min_dim_with_indices", dim, &self.shape());
        let (values, indices) = bridge::min_dim_with_indices(self.primitive, dim);
        (Self::from_bridge(values), Tensor::from_bridge(indices))
    }

    /// Largest absolute value, shape `[1]`.
    pub fn max_abs(self) -> Tensor<1, K> {
        Tensor::from_bridge(bridge::max_abs(self.primitive))
    }

    /// Largest absolute value along `dim`, which is kept with size 1.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn max_abs_dim(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl(
            "max_abs_dim",
            self.primitive,
            dim,
            bridge::max_abs_dim,
        ))
    }

    /// Index of the largest element along `dim` (the first one on ties);
    /// `dim` is kept with size 1.
    ///
    /// # Panics
    /// If `dim >= D`.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<2>::from_data([[1.0, 5.0, 5.0], [7.0, 0.0, 2.0]], &device);
    /// let i = x.argmax(1);
    /// assert_eq!(i.into_data().to_vec::<i64>().unwrap(), vec![1, 0]);
    /// # }
    /// ```
    #[track_caller]
    pub fn argmax(self, dim: usize) -> Tensor<D, Int> {
        Tensor::from_bridge(dim_impl("argmax", self.primitive, dim, bridge::argmax))
    }

    /// Index of the smallest element along `dim` (the first one on ties);
    /// `dim` is kept with size 1.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn argmin(self, dim: usize) -> Tensor<D, Int> {
        Tensor::from_bridge(dim_impl("argmin", self.primitive, dim, bridge::argmin))
    }

    // -------------------------------------------------------------- cumulative

    /// Running sum along `dim`.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn cumsum(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("cumsum", self.primitive, dim, bridge::cumsum))
    }

    /// Running product along `dim`.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn cumprod(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("cumprod", self.primitive, dim, bridge::cumprod))
    }

    /// Running minimum along `dim`.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn cummin(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("cummin", self.primitive, dim, bridge::cummin))
    }

    /// Running maximum along `dim`.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn cummax(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("cummax", self.primitive, dim, bridge::cummax))
    }

    // -------------------------------------------------------------------- sort

    /// Sorts ascending along `dim` (stable; NaN last).
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn sort(self, dim: usize) -> Self {
        Self::from_bridge(sort_impl("sort", self.primitive, dim, false))
    }

    /// Sorts descending along `dim` (stable; NaN first).
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn sort_descending(self, dim: usize) -> Self {
        Self::from_bridge(sort_impl("sort_descending", self.primitive, dim, true))
    }

    /// Sorts ascending along `dim`, with the indices the values came from.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn sort_with_indices(self, dim: usize) -> (Self, Tensor<D, Int>) {
        let (values, indices) =
            sort_with_indices_impl("sort_with_indices", self.primitive, dim, false);
        (Self::from_bridge(values), Tensor::from_bridge(indices))
    }

    /// Sorts descending along `dim`, with the indices the values came from.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn sort_descending_with_indices(self, dim: usize) -> (Self, Tensor<D, Int>) {
        let (values, indices) =
            sort_with_indices_impl("sort_descending_with_indices", self.primitive, dim, true);
        (Self::from_bridge(values), Tensor::from_bridge(indices))
    }

    /// The indices that sort `dim` ascending.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn argsort(self, dim: usize) -> Tensor<D, Int> {
        Tensor::from_bridge(argsort_impl("argsort", self.primitive, dim, false))
    }

    /// The indices that sort `dim` descending.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn argsort_descending(self, dim: usize) -> Tensor<D, Int> {
        Tensor::from_bridge(argsort_impl(
            "argsort_descending",
            self.primitive,
            dim,
            true,
        ))
    }

    /// The `k` largest values along `dim`, in descending order.
    ///
    /// # Panics
    /// If `dim >= D` or `k` exceeds the size of `dim`.
    #[track_caller]
    pub fn topk(self, k: usize, dim: usize) -> Self {
        Self::from_bridge(topk_impl("topk", self.primitive, k, dim).0)
    }

    /// The `k` largest values along `dim`, in descending order, with their indices.
    ///
    /// # Panics
    /// If `dim >= D` or `k` exceeds the size of `dim`.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<1>::from_data([3.0, 9.0, 1.0, 7.0], &device);
    /// let (values, indices) = x.topk_with_indices(2, 0);
    /// assert_eq!(values.into_data().to_vec::<f32>().unwrap(), vec![9.0, 7.0]);
    /// assert_eq!(indices.into_data().to_vec::<i64>().unwrap(), vec![1, 3]);
    /// # }
    /// ```
    #[track_caller]
    pub fn topk_with_indices(self, k: usize, dim: usize) -> (Self, Tensor<D, Int>) {
        let (values, indices) = topk_impl("topk_with_indices", self.primitive, k, dim);
        (Self::from_bridge(values), Tensor::from_bridge(indices))
    }

    // --------------------------------------------------------------- triangles

    /// Keeps the elements on and below diagonal `diagonal` of the last two
    /// dims (0: the main diagonal, positive: above it) and zeros the rest.
    ///
    /// # Panics
    /// If `D < 2`.
    #[track_caller]
    pub fn tril(self, diagonal: i64) -> Self {
        Self::from_bridge(triangle_impl(
            "tril",
            self.primitive,
            diagonal,
            bridge::tril,
        ))
    }

    /// Keeps the elements on and above diagonal `diagonal` of the last two
    /// dims and zeros the rest.
    ///
    /// # Panics
    /// If `D < 2`.
    #[track_caller]
    pub fn triu(self, diagonal: i64) -> Self {
        Self::from_bridge(triangle_impl(
            "triu",
            self.primitive,
            diagonal,
            bridge::triu,
        ))
    }

    // ---------------------------------------------------------------- indexing

    /// Adds `values[i]` into `self` at the position along `dim` named by
    /// `indices[i]` (the other coordinates of `i` unchanged); repeated
    /// indices accumulate.
    ///
    /// # Panics
    /// If `dim >= D`, `indices` and `values` have different shapes, or
    /// `indices` is larger than `self` outside `dim`.
    #[track_caller]
    pub fn scatter(self, dim: usize, indices: Tensor<D, Int>, values: Self) -> Self {
        Self::from_bridge(scatter_impl(
            dim,
            self.primitive,
            indices.primitive,
            values.primitive,
        ))
    }

    /// Adds the slices of `values` along `dim` into the slices of `self`
    /// named by `indices` (repeated indices accumulate).
    ///
    /// # Panics
    /// If `dim >= D`, or `values` does not match `self` outside `dim`, or its
    /// size along `dim` is not the number of indices.
    #[track_caller]
    pub fn select_assign(self, dim: usize, indices: Tensor<1, Int>, values: Self) -> Self {
        Self::from_bridge(select_assign_impl(
            dim,
            self.primitive,
            indices.primitive,
            values.primitive,
        ))
    }
}

// ------------------------------------------------------- non-generic helpers

/// Checks that the operands broadcast, then applies `op`.
#[track_caller]
pub(crate) fn broadcast_impl(
    name: &str,
    lhs: BridgeTensor,
    rhs: BridgeTensor,
    op: fn(BridgeTensor, BridgeTensor) -> BridgeTensor,
) -> BridgeTensor {
    check::broadcast(name, &lhs.shape(), &rhs.shape());
    op(lhs, rhs)
}

/// Checks that `dim` is in range, then applies `op`.
#[track_caller]
pub(crate) fn dim_impl(
    name: &str,
    t: BridgeTensor,
    dim: usize,
    op: fn(BridgeTensor, usize) -> BridgeTensor,
) -> BridgeTensor {
    check::dim(name, dim, &t.shape());
    op(t, dim)
}

#[track_caller]
fn sort_impl(name: &str, t: BridgeTensor, dim: usize, descending: bool) -> BridgeTensor {
    check::dim(name, dim, &t.shape());
    bridge::sort(t, dim, descending)
}

#[track_caller]
fn sort_with_indices_impl(
    name: &str,
    t: BridgeTensor,
    dim: usize,
    descending: bool,
) -> (BridgeTensor, BridgeTensor) {
    check::dim(name, dim, &t.shape());
    bridge::sort_with_indices(t, dim, descending)
}

#[track_caller]
fn argsort_impl(name: &str, t: BridgeTensor, dim: usize, descending: bool) -> BridgeTensor {
    check::dim(name, dim, &t.shape());
    bridge::argsort(t, dim, descending)
}

#[track_caller]
fn topk_impl(name: &str, t: BridgeTensor, k: usize, dim: usize) -> (BridgeTensor, BridgeTensor) {
    let shape = t.shape();
    check::dim(name, dim, &shape);
    let size = shape.dims[dim];
    if k > size {
        panic!("{name}: k = {k} is larger than dim {dim} (size {size}) of shape {shape}");
    }
    bridge::topk_with_indices(t, k, dim)
}

#[track_caller]
fn triangle_impl(
    name: &str,
    t: BridgeTensor,
    diagonal: i64,
    op: fn(BridgeTensor, i64) -> BridgeTensor,
) -> BridgeTensor {
    let shape = t.shape();
    if shape.num_dims() < 2 {
        panic!("{name}: needs a tensor of at least 2 dims, got shape {shape}");
    }
    op(t, diagonal)
}

#[track_caller]
fn scatter_impl(
    dim: usize,
    t: BridgeTensor,
    indices: BridgeTensor,
    values: BridgeTensor,
) -> BridgeTensor {
    let (shape, ishape, vshape) = (t.shape(), indices.shape(), values.shape());
    check::gather("scatter", dim, &shape, &ishape);
    if ishape != vshape {
        panic!("scatter: indices {ishape} and values {vshape} must have the same shape");
    }
    bridge::scatter_add(dim, t, indices, values)
}

#[track_caller]
fn select_assign_impl(
    dim: usize,
    t: BridgeTensor,
    indices: BridgeTensor,
    values: BridgeTensor,
) -> BridgeTensor {
    let (shape, vshape) = (t.shape(), values.shape());
    check::dim("select_assign", dim, &shape);
    let n = indices.shape().num_elements();
    let mut expected = shape.clone();
    expected.dims[dim] = n;
    if vshape != expected {
        panic!(
            "select_assign: values {vshape} must match tensor {shape} outside dim {dim} and hold {n} slices along it (expected {expected})"
        );
    }
    bridge::select_add(t, dim, indices, values)
}
