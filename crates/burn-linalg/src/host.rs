//! The tensor ↔ host boundary: shape checks, reading a tensor as f64,
//! building a result on the input's device and dtype.

use crate::LinalgError;
use burn_tensor::{DType, Device, Shape, Tensor, TensorData, TensorKind};

/// Where and how results are built: the input's device and dtype.
#[derive(Clone)]
pub(crate) struct Place {
    pub device: Device,
    pub dtype: DType,
}

impl Place {
    pub fn of<const D: usize>(t: &Tensor<D>) -> Self {
        Self {
            device: t.device(),
            dtype: t.dtype(),
        }
    }

    /// A constant tensor of `shape` holding `values`.
    pub fn build<const D: usize>(&self, values: Vec<f64>, shape: &[usize]) -> Tensor<D> {
        debug_assert_eq!(values.len(), shape.iter().product::<usize>());
        Tensor::from_data(
            TensorData::new(values, shape.to_vec()),
            (&self.device, self.dtype),
        )
    }
}

/// The values of `t` as f64, row-major (every float dtype converts exactly
/// into f64).
pub(crate) fn read<const D: usize>(t: &Tensor<D>) -> Vec<f64> {
    t.clone()
        .detach()
        .into_data()
        .convert::<f64>()
        .into_vec::<f64>()
        .expect("f64 data after convert")
}

pub(crate) fn reshape<const D: usize, const D2: usize, K: TensorKind>(
    t: Tensor<D, K>,
    shape: &[usize],
) -> Tensor<D2, K> {
    t.reshape(Shape::from(shape.to_vec()))
}

/// A batch of matrices `[..batch, m, n]`, after the common checks.
pub(crate) struct Dims {
    pub shape: Vec<usize>,
    pub batch: usize,
    pub m: usize,
    pub n: usize,
}

pub(crate) fn matrices<const D: usize>(
    op: &'static str,
    t: &Tensor<D>,
    square: bool,
) -> Result<Dims, LinalgError> {
    let shape = t.shape().dims.clone();
    let dtype = t.dtype();
    if !dtype.is_float() {
        return Err(LinalgError::NotFloat { op, dtype, shape });
    }
    if D < 2 {
        return Err(LinalgError::RankTooLow { op, min: 2, shape });
    }
    let (m, n) = (shape[D - 2], shape[D - 1]);
    if square && m != n {
        return Err(LinalgError::NotSquare { op, shape });
    }
    let batch = shape[..D - 2].iter().product();
    Ok(Dims { shape, batch, m, n })
}

/// Checks a const-generic rank parameter against the value the input rank
/// fixes (`rule` is how, as `"D - 1"`).
pub(crate) fn rank_param(
    op: &'static str,
    param: &'static str,
    rule: &'static str,
    expected: usize,
    got: usize,
) -> Result<(), LinalgError> {
    if expected == got {
        Ok(())
    } else {
        Err(LinalgError::RankParam {
            op,
            param,
            rule,
            expected,
            got,
        })
    }
}

/// `shape` with its last two dims replaced by `rows, cols`.
pub(crate) fn with_matrix(shape: &[usize], rows: usize, cols: usize) -> Vec<usize> {
    let mut s = shape[..shape.len() - 2].to_vec();
    s.extend([rows, cols]);
    s
}

/// Concatenates per-matrix outputs.
pub(crate) fn concat(parts: impl IntoIterator<Item = Vec<f64>>) -> Vec<f64> {
    parts.into_iter().flatten().collect()
}
