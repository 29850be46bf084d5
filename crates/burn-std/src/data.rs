//! [`TensorData`]: a tensor's values on the host, independent of any backend.
//!
//! This is the exchange format between backends, files and user code, so it
//! stores raw bytes plus a runtime [`DType`] rather than being generic: one
//! type can then carry any element kind through serialization and dynamic
//! dispatch.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use bytemuck::Pod;
use half::{bf16, f16};
use serde::{Deserialize, Serialize};

use crate::quantization::{self, Calibration, QParams, QuantError, QuantScheme};
use crate::{
    BoolStore, Bytes, DType, DataError, Distribution, Element, Rng, Scalar, Shape, Tolerance,
};

/// Dense row-major tensor values with their shape and dtype.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TensorData {
    /// Elements in row-major order, in the in-memory layout of `dtype`.
    pub bytes: Bytes,
    /// Dimensions of the tensor.
    pub shape: Shape,
    /// Element type of `bytes`.
    pub dtype: DType,
}

/// Most mismatches printed by the assertion helpers.
const MAX_REPORTED: usize = 10;

impl TensorData {
    /// Build from row-major values.
    ///
    /// # Panics
    /// If `values.len()` differs from the number of elements of `shape`.
    pub fn new<E: Element, S: Into<Shape>>(values: Vec<E>, shape: S) -> Self {
        let shape = shape.into();
        assert_eq!(
            shape.num_elements(),
            values.len(),
            "TensorData::new: shape {} has {} elements but {} values were given",
            shape,
            shape.num_elements(),
            values.len()
        );
        Self {
            bytes: E::vec_into_bytes(values),
            shape,
            dtype: E::DTYPE,
        }
    }

    /// Wrap raw bytes already in the layout of `dtype`.
    pub fn from_bytes<S: Into<Shape>>(
        bytes: Bytes,
        shape: S,
        dtype: DType,
    ) -> Result<Self, DataError> {
        let shape = shape.into();
        let expected_bytes = shape.try_num_bytes(dtype)?;
        if bytes.len() != expected_bytes {
            return Err(DataError::LengthMismatch {
                shape,
                expected_bytes,
                found_bytes: bytes.len(),
            });
        }
        Ok(Self {
            bytes,
            shape,
            dtype,
        })
    }

    /// All zeros. Every supported element type encodes zero as zero bytes,
    /// so no per-element work is needed.
    ///
    /// # Panics
    /// If the shape is too large to allocate (see [`TensorData::try_zeros`]).
    #[track_caller]
    pub fn zeros<E: Element>(shape: impl Into<Shape>) -> Self {
        Self::try_zeros(shape.into(), E::DTYPE)
            .unwrap_or_else(|err| panic!("TensorData::zeros: {err}"))
    }

    /// All zeros of `dtype`, or why the buffer cannot exist (element or
    /// byte count overflow, allocation refused).
    pub fn try_zeros(shape: Shape, dtype: DType) -> Result<Self, crate::SizeError> {
        let bytes = Bytes::try_for_shape(&shape, dtype, crate::BufferInit::Zeroed)?;
        Ok(Self {
            bytes,
            shape,
            dtype,
        })
    }

    /// Every element set to `value`.
    pub fn full<E: Element>(shape: impl Into<Shape>, value: E) -> Self {
        let shape = shape.into();
        let values = alloc::vec![value; shape.num_elements()];
        Self::new(values, shape)
    }

    /// Values drawn from `distribution` and converted to `E`.
    pub fn random<E: Element>(
        shape: impl Into<Shape>,
        distribution: Distribution,
        rng: &mut Rng,
    ) -> Self {
        let shape = shape.into();
        let values = (0..shape.num_elements())
            .map(|_| distribution.sample::<E>(rng))
            .collect();
        Self::new(values, shape)
    }

    /// Number of elements.
    pub fn num_elements(&self) -> usize {
        self.shape.num_elements()
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    fn check_dtype<E: Element>(&self) -> Result<(), DataError> {
        if self.dtype == E::DTYPE {
            Ok(())
        } else {
            Err(DataError::TypeMismatch {
                expected: E::DTYPE,
                found: self.dtype,
            })
        }
    }

    /// Borrow the values; `E` must be exactly the stored dtype.
    pub fn as_slice<E: Element + Pod>(&self) -> Result<&[E], DataError> {
        self.check_dtype::<E>()?;
        Ok(self.bytes.as_slice_of())
    }

    /// Borrow the values mutably; `E` must be exactly the stored dtype.
    pub fn as_mut_slice<E: Element + Pod>(&mut self) -> Result<&mut [E], DataError> {
        self.check_dtype::<E>()?;
        Ok(self.bytes.as_mut_slice_of())
    }

    /// Copy the values out; `E` must be exactly the stored dtype.
    pub fn to_vec<E: Element>(&self) -> Result<Vec<E>, DataError> {
        self.check_dtype::<E>()?;
        Ok(E::read_slice(&self.bytes).into_owned())
    }

    /// Consuming form of [`TensorData::to_vec`].
    pub fn into_vec<E: Element>(self) -> Result<Vec<E>, DataError> {
        self.to_vec()
    }

    /// The values as a `Vec<E>`; `E` must be exactly the stored dtype
    /// (Burn's name for [`into_vec`](Self::into_vec)). Convert first
    /// ([`convert`](Self::convert)) to read another type.
    ///
    /// ```
    /// use burn_std::{DataError, DType, TensorData};
    ///
    /// let data = TensorData::from([1.0f32, 2.0]);
    /// assert_eq!(data.clone().try_into_vec::<f32>().unwrap(), [1.0, 2.0]);
    /// assert!(matches!(
    ///     data.try_into_vec::<i64>(),
    ///     Err(DataError::TypeMismatch { expected: DType::I64, found: DType::F32 })
    /// ));
    /// ```
    pub fn try_into_vec<E: Element>(self) -> Result<Vec<E>, DataError> {
        self.to_vec()
    }

    /// Borrowing form of [`try_into_vec`](Self::try_into_vec).
    pub fn try_to_vec<E: Element>(&self) -> Result<Vec<E>, DataError> {
        self.to_vec()
    }

    /// Every value as a [`Scalar`], whatever the stored dtype.
    pub fn scalars(&self) -> Box<dyn Iterator<Item = Scalar> + '_> {
        macro_rules! read {
            ($ty:ty) => {
                Box::new(
                    self.bytes
                        .as_slice_of::<$ty>()
                        .iter()
                        .map(|&v| Scalar::from(v)),
                )
            };
        }
        match self.dtype {
            DType::F64 => read!(f64),
            DType::F32 => read!(f32),
            DType::F16 => read!(f16),
            DType::BF16 => read!(bf16),
            DType::I64 => read!(i64),
            DType::I32 => read!(i32),
            DType::I16 => read!(i16),
            DType::I8 => read!(i8),
            DType::U64 => read!(u64),
            DType::U32 => read!(u32),
            DType::U16 => read!(u16),
            DType::U8 => read!(u8),
            DType::Bool(BoolStore::Native | BoolStore::U8) => {
                Box::new(self.bytes.iter().map(|&b| Scalar::Bool(b != 0)))
            }
            DType::Bool(BoolStore::U32) => Box::new(
                self.bytes
                    .as_slice_of::<u32>()
                    .iter()
                    .map(|&v| Scalar::Bool(v != 0)),
            ),
            DType::QFloat(_) => {
                let values = self
                    .dequantize()
                    .unwrap_or_else(|err| panic!("TensorData: {err}"));
                Box::new(
                    values
                        .into_vec::<f32>()
                        .unwrap_or_default()
                        .into_iter()
                        .map(Scalar::from),
                )
            }
        }
    }

    /// Quantized data from its bytes (packed values, then scales, as
    /// [`codec`](crate::quantization::codec) lays them out), checked
    /// against the length the scheme and shape take.
    pub fn from_quantized_bytes(
        bytes: Bytes,
        shape: impl Into<Shape>,
        scheme: QuantScheme,
    ) -> Result<Self, DataError> {
        Self::from_bytes(bytes, shape, DType::QFloat(scheme))
    }

    /// Float values quantized with `scheme`, scales picked per block by
    /// `calibration` (dynamic quantization on the host).
    pub fn quantize(
        &self,
        scheme: &QuantScheme,
        calibration: Calibration,
    ) -> Result<TensorData, QuantError> {
        let values = self.float_values_f32()?;
        let params = quantization::compute_scales(&values, &self.shape, scheme, calibration)?;
        self.quantize_with(scheme, &params)
    }

    /// Float values quantized with `scheme` and the given scales.
    pub fn quantize_with(
        &self,
        scheme: &QuantScheme,
        params: &QParams<Vec<f32>>,
    ) -> Result<TensorData, QuantError> {
        let values = self.float_values_f32()?;
        let bytes = quantization::quantize_values(&values, &self.shape, scheme, params)?;
        Ok(self.with_bytes(Bytes::from_vec(bytes), DType::QFloat(*scheme)))
    }

    /// Quantized values read back as `f32` (data that is not quantized is
    /// refused).
    pub fn dequantize(&self) -> Result<TensorData, QuantError> {
        let DType::QFloat(scheme) = self.dtype else {
            return Err(QuantError::NotQuantizable {
                expected: "quantized",
                found: self.dtype,
            });
        };
        let values = quantization::dequantize_values(&self.bytes, &self.shape, &scheme)?;
        Ok(TensorData::new(values, self.shape.clone()))
    }

    fn float_values_f32(&self) -> Result<alloc::borrow::Cow<'_, [f32]>, QuantError> {
        match self.dtype {
            DType::F32 => Ok(alloc::borrow::Cow::Borrowed(
                self.bytes.as_slice_of::<f32>(),
            )),
            dtype if dtype.is_float() => {
                Ok(alloc::borrow::Cow::Owned(self.iter::<f32>().collect()))
            }
            found => Err(QuantError::NotQuantizable {
                expected: "float",
                found,
            }),
        }
    }

    /// Every value converted to `E`, whatever the stored dtype.
    pub fn iter<E: Element>(&self) -> impl Iterator<Item = E> + '_ {
        self.scalars().map(Scalar::elem::<E>)
    }

    /// A copy with values converted to `E`.
    pub fn convert<E: Element>(&self) -> TensorData {
        if self.dtype == E::DTYPE {
            return self.clone();
        }
        TensorData::new(self.iter::<E>().collect(), self.shape.clone())
    }

    /// A copy with values converted to `dtype`; booleans become 0/1 and
    /// non-zero values become `true`.
    pub fn convert_dtype(&self, dtype: DType) -> TensorData {
        match dtype {
            _ if dtype == self.dtype => self.clone(),
            DType::F64 => self.convert::<f64>(),
            DType::F32 => self.convert::<f32>(),
            DType::F16 => self.convert::<f16>(),
            DType::BF16 => self.convert::<bf16>(),
            DType::I64 => self.convert::<i64>(),
            DType::I32 => self.convert::<i32>(),
            DType::I16 => self.convert::<i16>(),
            DType::I8 => self.convert::<i8>(),
            DType::U64 => self.convert::<u64>(),
            DType::U32 => self.convert::<u32>(),
            DType::U16 => self.convert::<u16>(),
            DType::U8 => self.convert::<u8>(),
            DType::Bool(BoolStore::Native) => self.convert::<bool>(),
            DType::Bool(BoolStore::U8) => {
                let values: Vec<u8> = self.iter::<bool>().map(u8::from).collect();
                self.with_bytes(Bytes::from_vec(values), dtype)
            }
            DType::Bool(BoolStore::U32) => {
                let values: Vec<u32> = self.iter::<bool>().map(u32::from).collect();
                self.with_bytes(Bytes::from_elems(values), dtype)
            }
            DType::QFloat(scheme) => {
                let float = if self.dtype.is_quantized() {
                    self.dequantize()
                        .unwrap_or_else(|err| panic!("convert_dtype: {err}"))
                } else {
                    self.convert::<f32>()
                };
                float
                    .quantize(&scheme, Calibration::MinMax)
                    .unwrap_or_else(|err| panic!("convert_dtype to {dtype}: {err}"))
            }
        }
    }

    fn with_bytes(&self, bytes: Bytes, dtype: DType) -> TensorData {
        TensorData {
            bytes,
            shape: self.shape.clone(),
            dtype,
        }
    }

    /// Assert that both tensors hold the same values.
    ///
    /// With `strict` the dtypes must match too; otherwise values are
    /// compared numerically across dtypes (as `f64` if either side is a
    /// float, exactly otherwise). NaN equals NaN so that tensors containing
    /// NaN can be compared with themselves.
    ///
    /// # Panics
    /// On any difference, listing the shapes and the first mismatches.
    #[track_caller]
    pub fn assert_eq(&self, other: &Self, strict: bool) {
        if strict {
            assert!(
                self.dtype == other.dtype,
                "tensors differ in dtype: {} vs {}",
                self.dtype,
                other.dtype
            );
        }
        self.assert_same_shape(other);
        let mismatches = self
            .scalars()
            .zip(other.scalars())
            .enumerate()
            .filter(|&(_, (a, b))| !scalars_equal(a, b));
        report(self, other, mismatches, "equal");
    }

    /// Assert that both tensors are close once converted to `F`.
    ///
    /// See [`Tolerance`] for the rule and per-type defaults; two NaNs and
    /// two same-sign infinities count as equal.
    ///
    /// # Panics
    /// On a shape mismatch or any value outside the tolerance.
    #[track_caller]
    pub fn assert_approx_eq<F: Element>(&self, other: &Self, tolerance: Tolerance) {
        self.assert_same_shape(other);
        let mismatches = self
            .iter::<F>()
            .zip(other.iter::<F>())
            .enumerate()
            .filter(|&(_, (a, b))| !tolerance.approx_eq::<F>(a.to_f64(), b.to_f64()))
            .map(|(i, (a, b))| (i, (Scalar::from_elem(a), Scalar::from_elem(b))));
        report(self, other, mismatches, "approximately equal");
    }

    #[track_caller]
    fn assert_same_shape(&self, other: &Self) {
        assert!(
            self.shape == other.shape,
            "tensors differ in shape: {} vs {}",
            self.shape,
            other.shape
        );
    }

    fn element_strings(&self) -> Vec<String> {
        // Debug keeps the decimal point on whole floats ("1.0", not "1"),
        // which makes the dtype visible in printed tensors.
        self.scalars()
            .map(|s| match (s, self.dtype) {
                (Scalar::Float(v), DType::F32) => format!("{:?}", v as f32),
                (Scalar::Float(v), DType::F16) => format!("{:?}", f16::from_f64(v)),
                (Scalar::Float(v), DType::BF16) => format!("{:?}", bf16::from_f64(v)),
                (s, _) => format!("{s}"),
            })
            .collect()
    }
}

fn scalars_equal(a: Scalar, b: Scalar) -> bool {
    match (a.to_i128_exact(), b.to_i128_exact()) {
        (Some(a), Some(b)) => a == b,
        _ => {
            let (a, b) = (a.to_f64(), b.to_f64());
            a == b || (a.is_nan() && b.is_nan())
        }
    }
}

#[track_caller]
fn report(
    lhs: &TensorData,
    rhs: &TensorData,
    mismatches: impl Iterator<Item = (usize, (Scalar, Scalar))>,
    relation: &str,
) {
    let mut message = String::new();
    let mut count = 0usize;
    for (index, (a, b)) in mismatches {
        if count < MAX_REPORTED {
            message.push_str(&format!("\n  index {index}: {a} != {b}"));
        }
        count += 1;
    }
    if count > 0 {
        if count > MAX_REPORTED {
            message.push_str(&format!("\n  ... and {} more", count - MAX_REPORTED));
        }
        panic!(
            "tensors are not {relation} ({count} mismatches; shapes {} ({}) vs {} ({})):{message}",
            lhs.shape, lhs.dtype, rhs.shape, rhs.dtype
        );
    }
}

impl fmt::Display for TensorData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn nested(f: &mut fmt::Formatter<'_>, items: &[String], dims: &[usize]) -> fmt::Result {
            let Some((&outer, inner)) = dims.split_first() else {
                return f.write_str(&items[0]);
            };
            let stride: usize = inner.iter().product();
            f.write_str("[")?;
            for i in 0..outer {
                if i > 0 {
                    f.write_str(", ")?;
                }
                nested(f, &items[i * stride..(i + 1) * stride], inner)?;
            }
            f.write_str("]")
        }
        nested(f, &self.element_strings(), &self.shape.dims)
    }
}

impl<E: Element, const A: usize> From<[E; A]> for TensorData {
    fn from(values: [E; A]) -> Self {
        Self::new(values.to_vec(), [A])
    }
}

impl<E: Element, const A: usize, const B: usize> From<[[E; B]; A]> for TensorData {
    fn from(values: [[E; B]; A]) -> Self {
        Self::new(values.into_iter().flatten().collect(), [A, B])
    }
}

impl<E: Element, const A: usize, const B: usize, const C: usize> From<[[[E; C]; B]; A]>
    for TensorData
{
    fn from(values: [[[E; C]; B]; A]) -> Self {
        let flat = values.into_iter().flatten().flatten().collect();
        Self::new(flat, [A, B, C])
    }
}

impl<E: Element, const A: usize, const B: usize, const C: usize, const D: usize>
    From<[[[[E; D]; C]; B]; A]> for TensorData
{
    fn from(values: [[[[E; D]; C]; B]; A]) -> Self {
        let flat = values.into_iter().flatten().flatten().flatten().collect();
        Self::new(flat, [A, B, C, D])
    }
}

impl<E: Element> From<&[E]> for TensorData {
    fn from(values: &[E]) -> Self {
        Self::new(values.to_vec(), [values.len()])
    }
}

impl<E: Element> From<Vec<E>> for TensorData {
    fn from(values: Vec<E>) -> Self {
        let len = values.len();
        Self::new(values, [len])
    }
}
