//! Methods of float tensors.

use burn_backend::check;
use burn_std::{Element, Scalar, TensorData};

use super::numeric::{broadcast_impl, dim_impl};
use crate::Tensor;
use crate::bridge::BridgeTensor;
use crate::bridge::ops::float as bridge;
use crate::tensor::{Bool, Float, Int, TensorCreationOptions};

/// `rtol` of [`Tensor::is_close`] when none is given (PyTorch's default).
const DEFAULT_RTOL: f64 = 1e-5;
/// `atol` of [`Tensor::is_close`] when none is given (PyTorch's default).
const DEFAULT_ATOL: f64 = 1e-8;

/// Defines element-wise float methods that forward to the bridge function of
/// the same name.
macro_rules! unary_methods {
    ($($(#[$doc:meta])* $name:ident;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(self) -> Self {
                Self::from_bridge(bridge::$name(self.primitive))
            }
        )*
    };
}

impl<const D: usize> Tensor<D, Float> {
    /// A float tensor from `data` (any element type; converted to the dtype of
    /// `options`, or the device's default float dtype).
    ///
    /// # Panics
    /// If the data's rank is not `D`.
    pub fn from_floats(
        data: impl Into<TensorData>,
        options: impl Into<TensorCreationOptions>,
    ) -> Self {
        Self::from_data(data, options)
    }

    /// Matrix product over the last two dims; batch dims broadcast.
    ///
    /// # Panics
    /// If the inner dims differ, the batch dims cannot broadcast, or the
    /// result is too large (see [`try_matmul`](Self::try_matmul)).
    #[track_caller]
    pub fn matmul(self, rhs: Self) -> Self {
        self.try_matmul(rhs).unwrap_or_else(|err| err.raise())
    }

    /// [`matmul`](Self::matmul), with every failure an `Err` (see
    /// [`TensorError`](crate::TensorError)).
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let a = Tensor::<2>::zeros([2, 3], &device);
    /// let err = a.clone().try_matmul(a).unwrap_err();
    /// assert_eq!(err.to_string(), "matmul: inner dims differ: lhs [2, 3] has 3 columns, rhs [2, 3] has 2 rows");
    /// # }
    /// ```
    pub fn try_matmul(self, rhs: Self) -> Result<Self, crate::TensorError> {
        super::base::matmul_impl(self.primitive, rhs.primitive, bridge::matmul)
            .map(Self::from_bridge)
    }

    unary_methods! {
        /// `e^x` element-wise.
        exp;
        /// Natural logarithm element-wise.
        log;
        /// `ln(1 + x)` element-wise, accurate near zero.
        log1p;
        /// Square root element-wise.
        sqrt;
        /// Sine element-wise.
        sin;
        /// Cosine element-wise.
        cos;
        /// Tangent element-wise.
        tan;
        /// Hyperbolic sine element-wise.
        sinh;
        /// Hyperbolic cosine element-wise.
        cosh;
        /// Hyperbolic tangent element-wise.
        tanh;
        /// Inverse sine element-wise.
        asin;
        /// Inverse cosine element-wise.
        acos;
        /// Inverse tangent element-wise.
        atan;
        /// Inverse hyperbolic sine element-wise.
        asinh;
        /// Inverse hyperbolic cosine element-wise.
        acosh;
        /// Inverse hyperbolic tangent element-wise.
        atanh;
        /// The error function element-wise.
        erf;
        /// `1 / x` element-wise.
        recip;
        /// Rounds to the nearest integer, half to even (`2.5 -> 2`), as PyTorch.
        round;
        /// Rounds down element-wise.
        floor;
        /// Rounds up element-wise.
        ceil;
        /// Rounds toward zero element-wise.
        trunc;
        /// `x * x` element-wise.
        square;
    }

    /// Four-quadrant arctangent of `self / other`, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn atan2(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "atan2",
            self.primitive,
            other.primitive,
            bridge::atan2,
        ))
    }

    /// `self ^ other` element-wise, broadcasting.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn powf(self, other: Self) -> Self {
        Self::from_bridge(broadcast_impl(
            "powf",
            self.primitive,
            other.primitive,
            bridge::powf,
        ))
    }

    /// `self ^ other` for a scalar exponent.
    pub fn powf_scalar<E: Element>(self, other: E) -> Self {
        Self::from_bridge(bridge::powf_scalar(
            self.primitive,
            Scalar::from_elem(other),
        ))
    }

    /// Unbiased variance along `dim` (divides by `n - 1`); `dim` is kept with size 1.
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
    /// let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0, 4.0]], &device);
    /// // mean 2.5, squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, 5 / 3
    /// let v = x.var(1).into_data().to_vec::<f32>().unwrap();
    /// assert!((v[0] - 5.0 / 3.0).abs() < 1e-6);
    /// # }
    /// ```
    #[track_caller]
    pub fn var(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("var", self.primitive, dim, var_unbiased))
    }

    /// Biased (population) variance along `dim` (divides by `n`).
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn var_bias(self, dim: usize) -> Self {
        Self::from_bridge(dim_impl("var_bias", self.primitive, dim, var_biased))
    }

    /// Unbiased variance and mean along `dim`, both keeping `dim` with size 1.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn var_mean(self, dim: usize) -> (Self, Self) {
        let (var, mean) = var_mean_impl("var_mean", self.primitive, dim, 1);
        (Self::from_bridge(var), Self::from_bridge(mean))
    }

    /// Biased variance and mean along `dim`, both keeping `dim` with size 1.
    ///
    /// # Panics
    /// If `dim >= D`.
    #[track_caller]
    pub fn var_mean_bias(self, dim: usize) -> (Self, Self) {
        let (var, mean) = var_mean_impl("var_mean_bias", self.primitive, dim, 0);
        (Self::from_bridge(var), Self::from_bridge(mean))
    }

    /// Whether each element is NaN.
    pub fn is_nan(self) -> Tensor<D, Bool> {
        Tensor::from_bridge(bridge::is_nan(self.primitive))
    }

    /// Whether each element is `+inf` or `-inf`.
    pub fn is_inf(self) -> Tensor<D, Bool> {
        Tensor::from_bridge(bridge::is_inf(self.primitive))
    }

    /// Whether any element is NaN, as a tensor of shape `[1]`.
    pub fn contains_nan(self) -> Tensor<1, Bool> {
        Tensor::from_bridge(bridge::contains_nan(self.primitive))
    }

    /// Whether each element is within `atol + rtol * |other|` of `other`
    /// (equal infinities count as close; NaN is never close). `None` takes
    /// PyTorch's defaults, `rtol = 1e-5` and `atol = 1e-8`.
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    #[track_caller]
    pub fn is_close(self, other: Self, rtol: Option<f64>, atol: Option<f64>) -> Tensor<D, Bool> {
        Tensor::from_bridge(is_close_impl(self.primitive, other.primitive, rtol, atol))
    }

    /// Whether every element is close to `other` (see [`is_close`](Self::is_close)).
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
    /// let x = Tensor::<1>::from_data([1.0, 2.0], &device);
    /// let y = Tensor::<1>::from_data([1.0, 2.000001], &device);
    /// assert!(x.clone().all_close(y, None, None));
    /// assert!(!x.clone().all_close(x + 0.1, None, None));
    /// # }
    /// ```
    #[track_caller]
    pub fn all_close(self, other: Self, rtol: Option<f64>, atol: Option<f64>) -> bool {
        all_close_impl(self.primitive, other.primitive, rtol, atol)
    }

    /// Converts to an int tensor of the device's default int dtype,
    /// truncating toward zero.
    pub fn int(self) -> Tensor<D, Int> {
        Tensor::from_bridge(bridge::into_int(self.primitive))
    }
}

/// Builds without the `autodiff` feature: no tensor carries an autodiff
/// context, so these are identities and `false`s (the same names exist with
/// the feature, in `autodiff.rs`).
#[cfg(not(feature = "autodiff"))]
impl<const D: usize> Tensor<D> {
    /// The same tensor (there is no graph to cut from in this build).
    pub fn detach(self) -> Self {
        Self::from_bridge(bridge::detach(self.primitive))
    }

    /// Marks the tensor as a leaf whose gradient is wanted.
    ///
    /// # Panics
    /// Always: this build has no autodiff (enable the `autodiff` feature).
    pub fn require_grad(self) -> Self {
        self.set_require_grad(true)
    }

    /// Sets whether the tensor's gradient is wanted.
    ///
    /// # Panics
    /// If `require_grad` is true: this build has no autodiff (enable the `autodiff` feature).
    pub fn set_require_grad(self, require_grad: bool) -> Self {
        assert!(
            !require_grad,
            "require_grad: this build has no autodiff; enable the `autodiff` feature"
        );
        Self::from_bridge(bridge::set_require_grad(self.primitive, false))
    }

    /// Always `false` in this build.
    pub fn is_require_grad(&self) -> bool {
        bridge::is_require_grad(&self.primitive)
    }

    /// Always `false` in this build.
    pub fn is_tracked(&self) -> bool {
        false
    }

    /// The same tensor (it carries no autodiff context in this build).
    pub fn without_autodiff(self) -> Self {
        self
    }
}

#[cfg(not(feature = "autodiff"))]
impl<const D: usize, K: crate::TensorKind> Tensor<D, K> {
    /// Always `false` in this build.
    pub fn is_autodiff(&self) -> bool {
        false
    }
}

// ------------------------------------------------------- non-generic helpers

fn var_unbiased(t: BridgeTensor, dim: usize) -> BridgeTensor {
    bridge::var(t, dim, 1)
}

fn var_biased(t: BridgeTensor, dim: usize) -> BridgeTensor {
    bridge::var(t, dim, 0)
}

#[track_caller]
fn var_mean_impl(
    name: &str,
    t: BridgeTensor,
    dim: usize,
    correction: usize,
) -> (BridgeTensor, BridgeTensor) {
    check::dim(name, dim, &t.shape());
    bridge::var_mean(t, dim, correction)
}

#[track_caller]
fn is_close_impl(
    lhs: BridgeTensor,
    rhs: BridgeTensor,
    rtol: Option<f64>,
    atol: Option<f64>,
) -> BridgeTensor {
    check::broadcast("is_close", &lhs.shape(), &rhs.shape());
    bridge::is_close(
        lhs,
        rhs,
        rtol.unwrap_or(DEFAULT_RTOL),
        atol.unwrap_or(DEFAULT_ATOL),
    )
}

#[track_caller]
fn all_close_impl(
    lhs: BridgeTensor,
    rhs: BridgeTensor,
    rtol: Option<f64>,
    atol: Option<f64>,
) -> bool {
    check::broadcast("all_close", &lhs.shape(), &rhs.shape());
    bridge::all_close(
        lhs,
        rhs,
        rtol.unwrap_or(DEFAULT_RTOL),
        atol.unwrap_or(DEFAULT_ATOL),
    )
}
