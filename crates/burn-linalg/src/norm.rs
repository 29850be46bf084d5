//! Vector norms and cosine similarity: compositions of tensor ops, so they
//! run on the device and autodiff differentiates them unchanged.
//!
//! Reduced dims are kept with size 1 (`[2, 3]` normed over dim 1 gives
//! `[2, 1]`), as in Burn. The norms that need no root (`l0`, `l1`,
//! `max_abs`, `min_abs`) take any numeric kind, so int tensors work and
//! give int results; the others are float-only.

use burn_tensor::{AsIndex, ElementConversion, Numeric, Tensor};

/// Which vector norm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Norm {
    /// Number of non-zero entries (not a true norm; has no gradient).
    L0,
    /// Sum of absolute values.
    L1,
    /// Euclidean norm.
    L2,
    /// Largest absolute value.
    LInf,
    /// Smallest absolute value (not a norm).
    LNegInf,
    /// `(Σ|x|ᵖ)^(1/p)`.
    Lp(f64),
}

impl Norm {
    /// The exponent `p` (`±∞` for the max/min norms, 0 for L0).
    pub fn to_exponent(self) -> f64 {
        match self {
            Norm::L0 => 0.0,
            Norm::L1 => 1.0,
            Norm::L2 => 2.0,
            Norm::LInf => f64::INFINITY,
            Norm::LNegInf => f64::NEG_INFINITY,
            Norm::Lp(p) => p,
        }
    }
}

impl From<f64> for Norm {
    fn from(p: f64) -> Self {
        match p {
            0.0 => Norm::L0,
            1.0 => Norm::L1,
            2.0 => Norm::L2,
            f64::INFINITY => Norm::LInf,
            f64::NEG_INFINITY => Norm::LNegInf,
            p => Norm::Lp(p),
        }
    }
}

impl From<f32> for Norm {
    fn from(p: f32) -> Self {
        Norm::from(p as f64)
    }
}

impl From<i32> for Norm {
    /// `i32::MAX` stands for `LInf`, `i32::MIN` for `LNegInf`.
    fn from(p: i32) -> Self {
        match p {
            i32::MAX => Norm::LInf,
            i32::MIN => Norm::LNegInf,
            p => Norm::from(p as f64),
        }
    }
}

impl From<u32> for Norm {
    /// `u32::MAX` stands for `LInf`.
    fn from(p: u32) -> Self {
        match p {
            u32::MAX => Norm::LInf,
            p => Norm::from(p as f64),
        }
    }
}

#[track_caller]
pub(crate) fn resolve<const D: usize>(op: &str, dim: impl AsIndex) -> usize {
    let d = dim.as_index();
    let r = if d < 0 { d + D as isize } else { d };
    assert!(
        (0..D as isize).contains(&r),
        "{op}: dim {d} is out of range for a tensor of rank {D}"
    );
    r as usize
}

/// The vector norm of `x` along `dim` (negative counts from the end); the
/// dim is kept with size 1.
///
/// ```
/// use burn_tensor::{Device, Tensor};
/// use burn_linalg::{Norm, vector_norm};
///
/// let x = Tensor::<2>::from_floats([[3.0, 4.0], [-1.0, 0.0]], &Device::flex());
/// let n: Vec<f32> = vector_norm(x, Norm::L2, -1).into_data().to_vec().unwrap();
/// assert_eq!(n, vec![5.0, 1.0]);
/// ```
#[track_caller]
pub fn vector_norm<const D: usize>(
    x: Tensor<D>,
    norm: impl Into<Norm>,
    dim: impl AsIndex,
) -> Tensor<D> {
    let dim = resolve::<D>("vector_norm", dim);
    norm_impl(x, norm.into(), &[dim])
}

/// [`vector_norm`] over several dims at once (all kept with size 1). With
/// no dims nothing is reduced: the per-entry transform is applied
/// elementwise (`|x|`, or `x ≠ 0` for L0), as ONNX's `noop_with_empty_axes`.
#[track_caller]
pub fn vector_norm_dims<const D: usize, I: AsIndex>(
    x: Tensor<D>,
    norm: impl Into<Norm>,
    dims: &[I],
) -> Tensor<D> {
    let dims: Vec<usize> = dims
        .iter()
        .map(|&d| resolve::<D>("vector_norm_dims", d))
        .collect();
    norm_impl(x, norm.into(), &dims)
}

fn norm_impl<const D: usize>(x: Tensor<D>, norm: Norm, dims: &[usize]) -> Tensor<D> {
    let sum = |mut t: Tensor<D>| {
        for &d in dims {
            t = t.sum_dim(d);
        }
        t
    };
    match norm {
        Norm::L0 => {
            let dtype = x.dtype();
            sum(x.not_equal_elem(0.0).float().cast(dtype))
        }
        Norm::L1 => sum(x.abs()),
        Norm::L2 => {
            if dims.is_empty() {
                x.abs()
            } else {
                sum(x.clone() * x).sqrt()
            }
        }
        Norm::LInf => dims.iter().fold(x.abs(), |t, &d| t.max_dim(d)),
        Norm::LNegInf => dims.iter().fold(x.abs(), |t, &d| t.min_dim(d)),
        Norm::Lp(p) => {
            if dims.is_empty() {
                x.abs()
            } else {
                sum(x.abs().powf_scalar(p)).powf_scalar(1.0 / p)
            }
        }
    }
}

/// The kind-generic norms: the entries' transform, then a reduction.
#[derive(Clone, Copy)]
enum KindNorm {
    L0,
    L1,
    MaxAbs,
    MinAbs,
}

fn kind_norm_impl<const D: usize, K: Numeric>(
    x: Tensor<D, K>,
    norm: KindNorm,
    dims: &[usize],
) -> Tensor<D, K> {
    let t = match norm {
        // 1 where x ≠ 0, in x's own kind and dtype (no gradient: L0 has none).
        KindNorm::L0 => x.zeros_like().mask_fill(x.not_equal_elem(0), 1),
        _ => x.abs(),
    };
    dims.iter().fold(t, |t, &d| match norm {
        KindNorm::L0 | KindNorm::L1 => t.sum_dim(d),
        KindNorm::MaxAbs => t.max_dim(d),
        KindNorm::MinAbs => t.min_dim(d),
    })
}

macro_rules! kind_norm {
    ($name:ident, $dims:ident, $norm:expr, $what:literal) => {
        #[doc = concat!("The ", $what, " of `x` along `dim`, kept with size 1; float or int.")]
        #[track_caller]
        pub fn $name<const D: usize, K>(x: Tensor<D, K>, dim: impl AsIndex) -> Tensor<D, K>
        where
            K: Numeric,
        {
            let dim = resolve::<D>(stringify!($name), dim);
            kind_norm_impl(x, $norm, &[dim])
        }

        #[doc = concat!("The ", $what, " of `x` over `dims`, kept with size 1 (none: elementwise); float or int.")]
        #[track_caller]
        pub fn $dims<const D: usize, K, I: AsIndex>(x: Tensor<D, K>, dims: &[I]) -> Tensor<D, K>
        where
            K: Numeric,
        {
            let dims: Vec<usize> = dims
                .iter()
                .map(|&d| resolve::<D>(stringify!($dims), d))
                .collect();
            kind_norm_impl(x, $norm, &dims)
        }
    };
}

kind_norm!(
    l0_norm,
    l0_norm_dims,
    KindNorm::L0,
    "count of non-zero entries"
);
kind_norm!(
    l1_norm,
    l1_norm_dims,
    KindNorm::L1,
    "L1 norm (sum of absolute values)"
);
kind_norm!(
    max_abs_norm,
    max_abs_norm_dims,
    KindNorm::MaxAbs,
    "largest absolute value"
);
kind_norm!(
    min_abs_norm,
    min_abs_norm_dims,
    KindNorm::MinAbs,
    "smallest absolute value"
);

macro_rules! named_norm {
    ($name:ident, $dims:ident, $norm:expr, $what:literal) => {
        #[doc = concat!("The ", $what, " of `x` along `dim`, kept with size 1.")]
        #[track_caller]
        pub fn $name<const D: usize>(x: Tensor<D>, dim: impl AsIndex) -> Tensor<D> {
            vector_norm(x, $norm, dim)
        }

        #[doc = concat!("The ", $what, " of `x` over `dims`, kept with size 1 (none: elementwise).")]
        #[track_caller]
        pub fn $dims<const D: usize, I: AsIndex>(x: Tensor<D>, dims: &[I]) -> Tensor<D> {
            vector_norm_dims(x, $norm, dims)
        }
    };
}

named_norm!(l2_norm, l2_norm_dims, Norm::L2, "L2 (Euclidean) norm");

/// The Lp norm `(Σ|x|ᵖ)^(1/p)` of `x` along `dim`, kept with size 1.
#[track_caller]
pub fn lp_norm<const D: usize>(x: Tensor<D>, p: f64, dim: impl AsIndex) -> Tensor<D> {
    vector_norm(x, Norm::Lp(p), dim)
}

/// The Lp norm of `x` over `dims`, kept with size 1.
#[track_caller]
pub fn lp_norm_dims<const D: usize, I: AsIndex>(x: Tensor<D>, p: f64, dims: &[I]) -> Tensor<D> {
    vector_norm_dims(x, Norm::Lp(p), dims)
}

/// `x / max(‖x‖, eps)` with the norm taken along `dim`.
#[track_caller]
pub fn vector_normalize<const D: usize, E: ElementConversion>(
    x: Tensor<D>,
    norm: impl Into<Norm>,
    dim: impl AsIndex,
    eps: E,
) -> Tensor<D> {
    let eps: f64 = eps.elem();
    let n = vector_norm(x.clone(), norm, dim).clamp_min(eps);
    x / n
}

/// `x1·x2 / max(‖x1‖·‖x2‖, eps)` along `dim` (kept with size 1); other
/// dims broadcast. `eps` defaults to the dtype's smallest positive normal.
#[track_caller]
pub fn cosine_similarity<const D: usize>(
    x1: Tensor<D>,
    x2: Tensor<D>,
    dim: impl AsIndex,
    eps: Option<f64>,
) -> Tensor<D> {
    let dim = resolve::<D>("cosine_similarity", dim);
    let eps = eps.unwrap_or(match x1.dtype() {
        burn_tensor::DType::F64 => f64::MIN_POSITIVE,
        _ => f32::MIN_POSITIVE as f64,
    });
    let dot = (x1.clone() * x2.clone()).sum_dim(dim);
    let n1 = norm_impl(x1, Norm::L2, &[dim]);
    let n2 = norm_impl(x2, Norm::L2, &[dim]);
    dot / (n1 * n2).clamp_min(eps)
}
