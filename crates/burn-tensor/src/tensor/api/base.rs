//! Methods every tensor kind has.

use core::marker::PhantomData;
use std::vec::Vec;

use burn_backend::check;
use burn_std::{DType, Element, Scalar, Shape, Slice, TensorData};

use crate::Device;
use crate::bridge::BridgeTensor;
use crate::bridge::ops::{self, Kind};
use crate::tensor::error::{TensorError, TensorErrorCause, guard};
use crate::tensor::slice::{self as args, AsIndex, BroadcastArgs, ReshapeArgs, SliceArg};
use crate::tensor::{Bool, Float, Int, KindTag, TensorKind};

/// An n-dimensional array of rank `D` and kind `K` (`Float` by default, `Int`
/// or `Bool`), on any device of any enabled backend.
///
/// The backend and the dtype are run-time properties (`device()`,
/// `dtype()`); the rank and kind are in the type. Clones are cheap handles
/// to the same data; ops take `self` so a backend can reuse a uniquely owned
/// buffer.
#[derive(Clone)]
pub struct Tensor<const D: usize, K: TensorKind = Float> {
    pub(crate) primitive: BridgeTensor,
    kind: PhantomData<K>,
}

/// Where and as what dtype to create a tensor: `&device` or `(&device, dtype)`.
#[derive(Clone, Debug)]
pub struct TensorCreationOptions {
    /// The device.
    pub device: Device,
    /// The dtype; `None` takes the device's default for the kind.
    pub dtype: Option<DType>,
}

impl From<&Device> for TensorCreationOptions {
    fn from(device: &Device) -> Self {
        Self {
            device: device.clone(),
            dtype: None,
        }
    }
}

impl From<(&Device, DType)> for TensorCreationOptions {
    fn from((device, dtype): (&Device, DType)) -> Self {
        Self {
            device: device.clone(),
            dtype: Some(dtype),
        }
    }
}

pub(crate) fn kind_of<K: TensorKind>() -> Kind {
    match K::TAG {
        KindTag::Float => Kind::Float,
        KindTag::Int => Kind::Int,
        KindTag::Bool => Kind::Bool,
    }
}

impl<const D: usize, K: TensorKind> Tensor<D, K> {
    /// Wraps a bridge primitive whose rank and kind the caller has checked.
    pub(crate) fn from_bridge(primitive: BridgeTensor) -> Self {
        debug_assert_eq!(primitive.shape().num_dims(), D);
        Self {
            primitive,
            kind: PhantomData,
        }
    }

    // ------------------------------------------------------------- creation

    /// A tensor holding `data`, converted to the dtype of `options` (or the
    /// device's default for this kind).
    ///
    /// # Panics
    /// If the data's rank is not `D`, the dtype asked for is not of this
    /// kind, or the data's bytes do not match its shape and dtype (see
    /// [`try_from_data`](Self::try_from_data)).
    #[track_caller]
    pub fn from_data(
        data: impl Into<TensorData>,
        options: impl Into<TensorCreationOptions>,
    ) -> Self {
        Self::try_from_data(data, options).unwrap_or_else(|err| err.raise())
    }

    /// [`from_data`](Self::from_data), with every failure an `Err` (see
    /// [`TensorError`](crate::TensorError)).
    pub fn try_from_data(
        data: impl Into<TensorData>,
        options: impl Into<TensorCreationOptions>,
    ) -> Result<Self, TensorError> {
        from_data_impl(data.into(), D, kind_of::<K>(), options.into()).map(Self::from_bridge)
    }

    /// A tensor of `shape` whose contents are unspecified.
    ///
    /// # Panics
    /// If `shape` does not have rank `D`, or the dtype asked for is not of this kind.
    #[track_caller]
    pub fn empty(shape: impl Into<Shape>, options: impl Into<TensorCreationOptions>) -> Self {
        let fill = Fill::Empty;
        create_impl(
            "empty",
            fill,
            shape.into(),
            D,
            kind_of::<K>(),
            options.into(),
        )
        .map(Self::from_bridge)
        .unwrap_or_else(|err| err.raise())
    }

    /// A tensor of `shape` filled with zeros (`false` for bool tensors).
    ///
    /// # Panics
    /// If `shape` does not have rank `D`, the dtype asked for is not of this
    /// kind, or the tensor is too large (see [`try_zeros`](Self::try_zeros)).
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{DType, Device, Int, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<2>::zeros([2, 3], &device);
    /// assert_eq!(x.dims(), [2, 3]);
    /// let y = Tensor::<1, Int>::zeros([4], (&device, DType::I32));
    /// assert_eq!(y.dtype(), DType::I32);
    /// # }
    /// ```
    #[track_caller]
    pub fn zeros(shape: impl Into<Shape>, options: impl Into<TensorCreationOptions>) -> Self {
        Self::try_zeros(shape, options).unwrap_or_else(|err| err.raise())
    }

    /// [`zeros`](Self::zeros), with every failure an `Err`: a wrong rank or
    /// dtype kind, an element or byte count that overflows, an allocation
    /// the backend cannot make (reported by the first read instead on a lazy
    /// backend such as Fusion: see the crate docs).
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// // 4 TiB: refused, not a process abort.
    /// let err = Tensor::<2>::try_zeros([1 << 20, 1 << 20], &Device::flex())
    ///     .and_then(Tensor::try_into_data)
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("cannot allocate 4398046511104 bytes"));
    /// # }
    /// ```
    pub fn try_zeros(
        shape: impl Into<Shape>,
        options: impl Into<TensorCreationOptions>,
    ) -> Result<Self, TensorError> {
        create_impl(
            "zeros",
            Fill::Zeros,
            shape.into(),
            D,
            kind_of::<K>(),
            options.into(),
        )
        .map(Self::from_bridge)
    }

    /// A tensor of `shape` filled with ones (`true` for bool tensors).
    ///
    /// # Panics
    /// As [`zeros`](Self::zeros); see [`try_ones`](Self::try_ones).
    #[track_caller]
    pub fn ones(shape: impl Into<Shape>, options: impl Into<TensorCreationOptions>) -> Self {
        Self::try_ones(shape, options).unwrap_or_else(|err| err.raise())
    }

    /// [`ones`](Self::ones), with every failure an `Err` (as [`try_zeros`](Self::try_zeros)).
    pub fn try_ones(
        shape: impl Into<Shape>,
        options: impl Into<TensorCreationOptions>,
    ) -> Result<Self, TensorError> {
        create_impl(
            "ones",
            Fill::Ones,
            shape.into(),
            D,
            kind_of::<K>(),
            options.into(),
        )
        .map(Self::from_bridge)
    }

    /// A tensor of `shape` filled with `value`, converted to the tensor's dtype
    /// (for bool tensors, any non-zero value is `true`).
    ///
    /// # Panics
    /// As [`zeros`](Self::zeros); see [`try_full`](Self::try_full).
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Bool, Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<2>::full([2, 2], 1.5, &device);
    /// assert_eq!(x.into_data().to_vec::<f32>().unwrap(), vec![1.5; 4]);
    /// let m = Tensor::<1, Bool>::full([3], true, &device);
    /// assert_eq!(m.into_data().to_vec::<bool>().unwrap(), vec![true; 3]);
    /// # }
    /// ```
    #[track_caller]
    pub fn full<E: Element>(
        shape: impl Into<Shape>,
        value: E,
        options: impl Into<TensorCreationOptions>,
    ) -> Self {
        Self::try_full(shape, value, options).unwrap_or_else(|err| err.raise())
    }

    /// [`full`](Self::full), with every failure an `Err` (as [`try_zeros`](Self::try_zeros)).
    pub fn try_full<E: Element>(
        shape: impl Into<Shape>,
        value: E,
        options: impl Into<TensorCreationOptions>,
    ) -> Result<Self, TensorError> {
        let fill = Fill::Value(Scalar::from_elem(value));
        create_impl(
            "full",
            fill,
            shape.into(),
            D,
            kind_of::<K>(),
            options.into(),
        )
        .map(Self::from_bridge)
    }

    /// Zeros with the shape, dtype and device of `self`.
    pub fn zeros_like(&self) -> Self {
        Self::from_bridge(like_impl(&self.primitive, Scalar::Int(0)))
    }

    /// Ones with the shape, dtype and device of `self`.
    pub fn ones_like(&self) -> Self {
        Self::from_bridge(like_impl(&self.primitive, Scalar::Int(1)))
    }

    /// `value` everywhere, with the shape, dtype and device of `self`.
    pub fn full_like<E: Element>(&self, value: E) -> Self {
        Self::from_bridge(like_impl(&self.primitive, Scalar::from_elem(value)))
    }

    // ------------------------------------------------------------------ data

    /// Reads the tensor back.
    ///
    /// # Panics
    /// If the backend fails to read (see [`try_into_data`](Self::try_into_data)).
    #[track_caller]
    pub fn into_data(self) -> TensorData {
        self.try_into_data().unwrap_or_else(|err| err.raise())
    }

    /// Reads the tensor back, reporting a failure as an error: the device
    /// failed ([`TensorErrorCause::Execution`](crate::TensorErrorCause::Execution)),
    /// or the host copy could not be allocated.
    pub fn try_into_data(self) -> Result<TensorData, TensorError> {
        into_data_impl(self.primitive)
    }

    /// Reads a copy of the tensor back.
    pub fn to_data(&self) -> TensorData {
        self.clone().into_data()
    }

    /// Reads a copy of the tensor back, reporting a backend failure as an error.
    pub fn try_to_data(&self) -> Result<TensorData, TensorError> {
        self.clone().try_into_data()
    }

    /// Reads the tensor back as a row-major `Vec<E>`, converting each element
    /// to `E` (bools become 0/1, non-zero numbers `true`).
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let x = Tensor::<1>::from_data([1.0, 2.5], &Device::flex());
    /// assert_eq!(x.try_into_vec_as::<f64>().unwrap(), vec![1.0, 2.5]);
    /// # }
    /// ```
    pub fn try_into_vec_as<E: Element>(self) -> Result<Vec<E>, TensorError> {
        self.try_into_data().map(|data| data.iter::<E>().collect())
    }

    /// The single element of the tensor, converted to `E`.
    ///
    /// # Panics
    /// If the tensor does not hold exactly one element, or the backend fails to read.
    pub fn into_scalar<E: Element>(self) -> E {
        into_scalar_impl(self.primitive).elem()
    }

    /// The single element of the tensor, converted to `E`, or why it could
    /// not be read: the tensor does not hold exactly one element, or the
    /// backend failed.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor, TensorReadError};
    ///
    /// let device = Device::flex();
    /// assert_eq!(Tensor::<1>::from_data([2.5], &device).try_into_scalar::<f64>(), Ok(2.5));
    /// let two = Tensor::<1>::from_data([1.0, 2.0], &device);
    /// assert_eq!(
    ///     two.try_into_scalar::<f32>(),
    ///     Err(TensorReadError::InvalidShape { expected: 1, actual: 2 })
    /// );
    /// # }
    /// ```
    pub fn try_into_scalar<E: Element>(self) -> Result<E, crate::TensorReadError> {
        try_into_scalar_impl(self.primitive).map(|scalar| scalar.elem())
    }

    /// Converts to `dtype`, which must be of the tensor's kind (a float tensor
    /// to a float dtype, an int tensor to an int dtype); bool tensors are
    /// returned unchanged.
    ///
    /// # Panics
    /// If `dtype` is not of the tensor's kind.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{DType, Device, Tensor};
    ///
    /// let x = Tensor::<1>::from_data([1.0, 2.0], &Device::flex()).cast(DType::F64);
    /// assert_eq!(x.dtype(), DType::F64);
    /// # }
    /// ```
    pub fn cast(self, dtype: DType) -> Self {
        Self::from_bridge(cast_impl(self.primitive, dtype))
    }

    // -------------------------------------------------------------- metadata

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.primitive.shape()
    }

    /// The dims as an array.
    pub fn dims(&self) -> [usize; D] {
        let shape = self.shape();
        core::array::from_fn(|i| shape.dims[i])
    }

    /// The run-time dtype.
    pub fn dtype(&self) -> DType {
        self.primitive.dtype()
    }

    /// The device holding the tensor.
    pub fn device(&self) -> Device {
        self.primitive.device()
    }

    /// The number of dims, `D`.
    pub fn rank(&self) -> usize {
        D
    }

    /// The number of elements.
    pub fn num_elements(&self) -> usize {
        self.shape().num_elements()
    }

    /// Moves the tensor to `device` (a no-op if it is already there).
    ///
    /// # Panics
    /// If the copy cannot be made (see [`try_to_device`](Self::try_to_device)).
    #[track_caller]
    pub fn to_device(self, device: &Device) -> Self {
        self.try_to_device(device).unwrap_or_else(|err| err.raise())
    }

    /// [`to_device`](Self::to_device), with a failure of either device (a
    /// refused allocation, a failed read) an `Err`.
    pub fn try_to_device(self, device: &Device) -> Result<Self, TensorError> {
        to_device_impl(self.primitive, device).map(Self::from_bridge)
    }

    /// Reads the tensor back from a future, for async code (a browser's
    /// event loop cannot block on a GPU read). Every backend of this
    /// workspace reads synchronously, so the read happens when the future
    /// is first polled and the future is then ready; awaiting it never
    /// yields to the executor.
    pub fn into_data_async(
        self,
    ) -> impl Future<Output = Result<TensorData, burn_backend::ExecutionError>> + Send {
        let primitive = self.primitive;
        async move { ops::into_data(primitive) }
    }

    /// [`into_data_async`](Self::into_data_async) of a copy (a cheap handle).
    pub fn to_data_async(
        &self,
    ) -> impl Future<Output = Result<TensorData, burn_backend::ExecutionError>> + Send {
        self.clone().into_data_async()
    }

    // ------------------------------------------------------------ shape ops

    /// The same elements under a new shape of rank `D2`: a [`Shape`] or
    /// `[usize; D2]` taken exactly, or a signed array where one `-1` is
    /// inferred and `0` keeps the input's size at that position.
    ///
    /// # Panics
    /// If the element counts differ, the target is not of rank `D2`, or more
    /// than one dim is `-1`.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Int, Tensor};
    ///
    /// let x = Tensor::<1, Int>::arange(0..12, &Device::flex());
    /// let y = x.reshape([3, -1]);
    /// assert_eq!(y.dims(), [3, 4]);
    /// let z = y.reshape([0, 2, -1]);
    /// assert_eq!(z.dims(), [3, 2, 2]);
    /// # }
    /// ```
    #[track_caller]
    pub fn reshape<const D2: usize, S: ReshapeArgs<D2>>(self, shape: S) -> Tensor<D2, K> {
        self.try_reshape(shape).unwrap_or_else(|err| err.raise())
    }

    /// [`reshape`](Self::reshape), with every failure an `Err`: a bad target
    /// (element counts differ, overflow, several `-1`), or a copy the
    /// backend cannot allocate (a strided input is copied first).
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let x = Tensor::<1>::zeros([4], &Device::flex());
    /// let err = x.try_reshape([1usize << 40, 1 << 40]).unwrap_err();
    /// assert_eq!(err.op, "reshape");
    /// assert!(err.to_string().contains("[1099511627776, 1099511627776]"));
    /// # }
    /// ```
    pub fn try_reshape<const D2: usize, S: ReshapeArgs<D2>>(
        self,
        shape: S,
    ) -> Result<Tensor<D2, K>, TensorError> {
        reshape_impl(self.primitive, shape.into_reshape_spec(), D2).map(Tensor::from_bridge)
    }

    /// Reorders the dims: output dim `i` is input dim `axes[i]` (negative
    /// values count from the end).
    ///
    /// # Panics
    /// If `axes` is not a permutation of the dims.
    pub fn permute<I: AsIndex>(self, axes: [I; D]) -> Self {
        let axes: [isize; D] = axes.map(AsIndex::as_index);
        Self::from_bridge(permute_impl(self.primitive, &axes))
    }

    /// Swaps two dims (negative values count from the end).
    ///
    /// # Panics
    /// If a dim is out of range.
    pub fn swap_dims<I1: AsIndex, I2: AsIndex>(self, dim1: I1, dim2: I2) -> Self {
        Self::from_bridge(swap_dims_impl(
            self.primitive,
            dim1.as_index(),
            dim2.as_index(),
        ))
    }

    /// Swaps the last two dims (a rank-1 tensor is returned unchanged).
    pub fn transpose(self) -> Self {
        if D < 2 {
            return self;
        }
        Self::from_bridge(ops::swap_dims(self.primitive, D - 2, D - 1))
    }

    /// Reverses the order of elements along each of `axes` (negative values
    /// count from the end).
    ///
    /// # Panics
    /// If an axis is out of range or repeated.
    pub fn flip<I: AsIndex, const N: usize>(self, axes: [I; N]) -> Self {
        let axes: [isize; N] = axes.map(AsIndex::as_index);
        Self::from_bridge(flip_impl(self.primitive, &axes))
    }

    /// Broadcasts to `shape` of rank `D2 >= D` without copying: size-1 dims
    /// grow, new dims are added in front; `-1` keeps a dim's size.
    ///
    /// # Panics
    /// If a dim other than a size-1 dim would change, or `D2 < D`.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let x = Tensor::<2>::from_data([[1.0], [2.0]], &Device::flex());
    /// let y = x.expand([2, -1, 3]);
    /// assert_eq!(y.dims(), [2, 2, 3]);
    /// # }
    /// ```
    pub fn expand<const D2: usize, S: BroadcastArgs<D, D2>>(self, shape: S) -> Tensor<D2, K> {
        Tensor::from_bridge(expand_impl(
            self.primitive,
            &shape.into_broadcast_dims(),
            D2,
        ))
    }

    /// Adds `D2 - D` leading dims of size 1.
    ///
    /// # Panics
    /// If `D2 < D`.
    pub fn unsqueeze<const D2: usize>(self) -> Tensor<D2, K> {
        Tensor::from_bridge(unsqueeze_impl(self.primitive, D2))
    }

    /// Inserts a dim of size 1 at `dim` (`0..=D`); `D2` must be `D + 1`.
    ///
    /// # Panics
    /// If `dim > D` or `D2 != D + 1`.
    pub fn unsqueeze_dim<const D2: usize>(self, dim: usize) -> Tensor<D2, K> {
        Tensor::from_bridge(unsqueeze_dim_impl(self.primitive, dim, D2))
    }

    /// Inserts dims of size 1 at the positions `dims` of the output (negative
    /// values count from the end of the output); `D2` must be `D + dims.len()`.
    ///
    /// # Panics
    /// If `D2 != D + dims.len()`, or a position is out of range or repeated.
    pub fn unsqueeze_dims<const D2: usize>(self, dims: &[impl AsIndex]) -> Tensor<D2, K> {
        let dims: Vec<isize> = dims.iter().map(|d| d.as_index()).collect();
        Tensor::from_bridge(unsqueeze_dims_impl(self.primitive, &dims, D2))
    }

    /// Removes `dim`, which must have size 1; `D2` must be `D - 1`.
    ///
    /// # Panics
    /// If `dim` is out of range, its size is not 1, or `D2 != D - 1`.
    pub fn squeeze_dim<const D2: usize>(self, dim: usize) -> Tensor<D2, K> {
        Tensor::from_bridge(squeeze_dim_impl(self.primitive, dim, D2))
    }

    /// Removes every dim of size 1 (a tensor of only size-1 dims becomes `[1]`).
    ///
    /// # Panics
    /// If the resulting rank is not `D2`.
    pub fn squeeze<const D2: usize>(self) -> Tensor<D2, K> {
        Tensor::from_bridge(squeeze_impl(self.primitive, D2))
    }

    /// Merges dims `start_dim..=end_dim` into one; `D2` must be
    /// `D - (end_dim - start_dim)`.
    ///
    /// # Panics
    /// If `start_dim > end_dim`, `end_dim >= D`, or `D2` is not the resulting rank.
    pub fn flatten<const D2: usize>(self, start_dim: usize, end_dim: usize) -> Tensor<D2, K> {
        Tensor::from_bridge(flatten_impl(self.primitive, start_dim, end_dim, D2))
    }

    /// The sub-tensor selected by `ranges`: one entry per leading dim
    /// (trailing dims are taken whole), given as ranges, indices (the dim is
    /// kept with size 1), [`Slice`]s or the [`s!`](crate::s) macro. Negative
    /// bounds count from the end; steps may be negative.
    ///
    /// # Panics
    /// If there are more entries than dims, a bound is out of range, or a step is 0.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Int, Tensor, s};
    ///
    /// let x = Tensor::<1, Int>::arange(0..12, &Device::flex()).reshape([3, 4]);
    /// let y = x.clone().slice([0..2, 1..3]);
    /// assert_eq!(y.into_data().to_vec::<i64>().unwrap(), vec![1, 2, 5, 6]);
    /// let z = x.slice(s![-1, ..;-2]);
    /// assert_eq!(z.into_data().to_vec::<i64>().unwrap(), vec![11, 9]);
    /// # }
    /// ```
    pub fn slice<S: SliceArg<D>>(self, ranges: S) -> Self {
        Self::from_bridge(slice_impl(self.primitive, &ranges.into_slices()))
    }

    /// Writes `values` into the region selected by `ranges` (as in [`slice`](Self::slice)).
    ///
    /// # Panics
    /// If the ranges are invalid or `values` does not have the region's shape.
    pub fn slice_assign<S: SliceArg<D>>(self, ranges: S, values: Self) -> Self {
        Self::from_bridge(slice_assign_impl(
            self.primitive,
            &ranges.into_slices(),
            values.primitive,
        ))
    }

    /// Fills the region selected by `ranges` (as in [`slice`](Self::slice)) with `value`.
    ///
    /// # Panics
    /// If the ranges are invalid.
    pub fn slice_fill<S: SliceArg<D>, E: Element>(self, ranges: S, value: E) -> Self {
        let value = Scalar::from_elem(value);
        Self::from_bridge(slice_fill_impl(
            self.primitive,
            &ranges.into_slices(),
            value,
        ))
    }

    /// Slices one dim, `dim` (negative counts from the end), keeping the
    /// others whole: `x.slice_dim(1, 2..4)` is `x.slice([.., 2..4])`. The
    /// slice is any range, an index or a [`Slice`](burn_std::Slice) (with
    /// a step), with [`slice`](Self::slice)'s rules.
    ///
    /// # Panics
    /// If `dim` is out of range, or the slice is (as for `slice`).
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Int, Tensor};
    ///
    /// let x = Tensor::<1, Int>::arange(0..12, &Device::flex()).reshape([3, 4]);
    /// let y = x.clone().slice_dim(1, 1..3);
    /// assert_eq!(y.into_data().to_vec::<i64>().unwrap(), vec![1, 2, 5, 6, 9, 10]);
    /// assert_eq!(x.slice_dim(-2, 2).dims(), [1, 4]);
    /// # }
    /// ```
    pub fn slice_dim(self, dim: impl AsIndex, slice: impl Into<burn_std::Slice>) -> Self {
        let dim = crate::tensor::slice::wrap_dim("slice_dim", dim.as_index(), D);
        Self::from_bridge(slice_dim_impl(self.primitive, dim, slice.into()))
    }

    /// `length` elements of `dim` starting at `start`.
    ///
    /// # Panics
    /// If `dim` is out of range or `start + length` exceeds its size.
    pub fn narrow(self, dim: usize, start: usize, length: usize) -> Self {
        Self::from_bridge(narrow_impl(self.primitive, dim, start, length))
    }

    /// Splits `dim` into at most `chunks` pieces of `ceil(size / chunks)`
    /// elements (the last may be smaller; fewer pieces when the size is small).
    ///
    /// # Panics
    /// If `dim` is out of range or `chunks` is 0.
    pub fn chunk(self, chunks: usize, dim: usize) -> Vec<Self> {
        chunk_impl(self.primitive, chunks, dim)
            .into_iter()
            .map(Self::from_bridge)
            .collect()
    }

    /// Splits `dim` into pieces of `split_size` elements (the last may be smaller).
    ///
    /// # Panics
    /// If `dim` is out of range or `split_size` is 0 while the dim is not empty.
    pub fn split(self, split_size: usize, dim: usize) -> Vec<Self> {
        split_impl(self.primitive, split_size, dim)
            .into_iter()
            .map(Self::from_bridge)
            .collect()
    }

    /// Splits `dim` into pieces of the given sizes, which must sum to its size.
    ///
    /// # Panics
    /// If `dim` is out of range or the sizes do not sum to its size.
    pub fn split_with_sizes(self, split_sizes: Vec<usize>, dim: usize) -> Vec<Self> {
        split_with_sizes_impl(self.primitive, &split_sizes, dim)
            .into_iter()
            .map(Self::from_bridge)
            .collect()
    }

    /// Concatenates along `dim`; the other dims must match.
    ///
    /// # Panics
    /// If `tensors` is empty, `dim` is out of range, or the shapes differ outside `dim`.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let a = Tensor::<2>::ones([1, 2], &device);
    /// let b = Tensor::<2>::zeros([2, 2], &device);
    /// assert_eq!(Tensor::cat(vec![a, b], 0).dims(), [3, 2]);
    /// # }
    /// ```
    #[track_caller]
    pub fn cat(tensors: Vec<Self>, dim: usize) -> Self {
        Self::try_cat(tensors, dim).unwrap_or_else(|err| err.raise())
    }

    /// [`cat`](Self::cat), with every failure an `Err`: no tensors, shapes
    /// that differ outside `dim`, a `dim` out of range, a result too large
    /// to address or allocate.
    pub fn try_cat(tensors: Vec<Self>, dim: usize) -> Result<Self, TensorError> {
        let primitives = tensors.into_iter().map(|t| t.primitive).collect();
        cat_impl(primitives, dim).map(Self::from_bridge)
    }

    /// Stacks tensors of one shape along a new dim `dim` (`0..=D`); `D2`
    /// must be `D + 1`.
    ///
    /// # Panics
    /// If `tensors` is empty, the shapes differ, `dim > D`, or `D2 != D + 1`.
    pub fn stack<const D2: usize>(tensors: Vec<Self>, dim: usize) -> Tensor<D2, K> {
        Tensor::from_bridge(stack_impl(
            tensors.into_iter().map(|t| t.primitive).collect(),
            dim,
            D2,
        ))
    }

    /// Repeats the whole tensor `times` along `dim`.
    ///
    /// # Panics
    /// If `dim` is out of range.
    pub fn repeat_dim(self, dim: usize, times: usize) -> Self {
        Self::from_bridge(repeat_dim_impl(self.primitive, dim, times))
    }

    /// Repeats along each dim: dim `i` is repeated `sizes[i]` times.
    ///
    /// # Panics
    /// If `sizes` has more entries than the tensor has dims.
    pub fn repeat(self, sizes: &[usize]) -> Self {
        Self::from_bridge(repeat_impl(self.primitive, sizes))
    }

    // -------------------------------------------------------------- indexing

    /// Picks the slices of `dim` named by `indices`, in order (repeats allowed).
    ///
    /// # Panics
    /// If `dim` is out of range (out-of-range indices are the backend's to report).
    pub fn select(self, dim: usize, indices: Tensor<1, Int>) -> Self {
        Self::from_bridge(select_impl(self.primitive, dim, indices.primitive))
    }

    /// `out[…i…] = self[…indices[…i…]…]` along `dim`; the output has the
    /// shape of `indices`.
    ///
    /// # Panics
    /// If `dim` is out of range or `indices` exceeds `self` outside `dim`.
    pub fn gather(self, dim: usize, indices: Tensor<D, Int>) -> Self {
        Self::from_bridge(gather_impl(self.primitive, dim, indices.primitive))
    }

    /// `value` where `mask` is true, `self` elsewhere (all three broadcast).
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    pub fn mask_where(self, mask: Tensor<D, Bool>, value: Self) -> Self {
        Self::from_bridge(mask_where_impl(
            self.primitive,
            mask.primitive,
            value.primitive,
        ))
    }

    /// `value` where `mask` is true, `self` elsewhere (the mask broadcasts).
    ///
    /// # Panics
    /// If the mask cannot be broadcast to the tensor's shape.
    ///
    /// ```
    /// # #[cfg(feature = "flex")] {
    /// use burn_tensor::{Bool, Device, Tensor};
    ///
    /// let device = Device::flex();
    /// let x = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device);
    /// let mask = Tensor::<1, Bool>::from_data([true, false, true], &device);
    /// let y = x.mask_fill(mask, 0.0);
    /// assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![0.0, 2.0, 0.0]);
    /// # }
    /// ```
    pub fn mask_fill<E: Element>(self, mask: Tensor<D, Bool>, value: E) -> Self {
        Self::from_bridge(mask_fill_impl(
            self.primitive,
            mask.primitive,
            Scalar::from_elem(value),
        ))
    }

    // ----------------------------------------------------------- comparison

    /// `self == other` element-wise (broadcasting).
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    pub fn equal(self, other: Self) -> Tensor<D, Bool> {
        Tensor::from_bridge(compare_impl("equal", self.primitive, other.primitive, true))
    }

    /// `self != other` element-wise (broadcasting).
    ///
    /// # Panics
    /// If the shapes cannot be broadcast together.
    pub fn not_equal(self, other: Self) -> Tensor<D, Bool> {
        Tensor::from_bridge(compare_impl(
            "not_equal",
            self.primitive,
            other.primitive,
            false,
        ))
    }

    /// `self == value` element-wise (for bool tensors, `value` is `true` when non-zero).
    pub fn equal_elem<E: Element>(self, value: E) -> Tensor<D, Bool> {
        Tensor::from_bridge(ops::equal_elem(self.primitive, Scalar::from_elem(value)))
    }

    /// `self != value` element-wise (for bool tensors, `value` is `true` when non-zero).
    pub fn not_equal_elem<E: Element>(self, value: E) -> Tensor<D, Bool> {
        Tensor::from_bridge(ops::not_equal_elem(
            self.primitive,
            Scalar::from_elem(value),
        ))
    }
}

/// Panics unless `shape` has rank `D`.
#[track_caller]
pub(crate) fn check_rank<const D: usize>(op: &str, shape: &Shape) {
    check_rank_impl(op, D, shape)
}

/// Panics unless `shape` has rank `rank`.
#[track_caller]
pub(crate) fn check_rank_impl(op: &str, rank: usize, shape: &Shape) {
    try_check_rank(rank, shape).unwrap_or_else(|msg| panic!("{op}: {msg}"))
}

/// [`check_rank_impl`] as a `Result` (the message without the op name).
fn try_check_rank(rank: usize, shape: &Shape) -> Result<(), String> {
    if shape.num_dims() != rank {
        return Err(format!("expected a shape of rank {rank}, got {shape}"));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Non-generic bodies of the methods above: compiled once, here.

/// What a creation op fills the tensor with.
enum Fill {
    Empty,
    Zeros,
    Ones,
    Value(Scalar),
}

/// An error unless an explicitly asked dtype belongs to `kind`.
fn check_creation_dtype(kind: Kind, dtype: Option<DType>) -> Result<(), String> {
    let Some(dtype) = dtype else { return Ok(()) };
    let ok = match kind {
        Kind::Float => dtype.is_float() || dtype.is_quantized(),
        Kind::Int => dtype.is_int(),
        Kind::Bool => dtype.is_bool(),
    };
    if !ok {
        return Err(format!("dtype {dtype} is not a {} dtype", kind_label(kind)));
    }
    Ok(())
}

fn kind_label(kind: Kind) -> &'static str {
    match kind {
        Kind::Float => "float",
        Kind::Int => "int",
        Kind::Bool => "bool",
    }
}

fn from_data_impl(
    data: TensorData,
    rank: usize,
    kind: Kind,
    options: TensorCreationOptions,
) -> Result<BridgeTensor, TensorError> {
    let device = options.device;
    let fail = |cause: TensorErrorCause, data: &TensorData| {
        TensorError::new("from_data", cause)
            .with_shapes(vec![data.shape.clone()])
            .with_dtype(data.dtype)
            .with_device(device.clone())
    };
    let checks =
        try_check_rank(rank, &data.shape).and_then(|()| check_creation_dtype(kind, options.dtype));
    if let Err(msg) = checks {
        return Err(fail(TensorErrorCause::Invalid(msg), &data));
    }
    // The fields are public: the bytes may not match the shape, and a
    // backend trusting the shape would read past them.
    match data.shape.try_num_bytes(data.dtype) {
        Ok(n) if n == data.bytes.len() => {}
        Ok(expected_bytes) => {
            let cause = burn_std::DataError::LengthMismatch {
                shape: data.shape.clone(),
                expected_bytes,
                found_bytes: data.bytes.len(),
            };
            return Err(fail(cause.into(), &data));
        }
        Err(err) => return Err(fail(err.into(), &data)),
    }
    let (shape, data_dtype) = (data.shape.clone(), data.dtype);
    guard(|| ops::from_data(data, kind, &device, options.dtype)).map_err(|cause| {
        TensorError::new("from_data", cause)
            .with_shapes(vec![shape])
            .with_dtype(data_dtype)
            .with_device(device.clone())
    })
}

fn create_impl(
    op: &'static str,
    fill: Fill,
    shape: Shape,
    rank: usize,
    kind: Kind,
    options: TensorCreationOptions,
) -> Result<BridgeTensor, TensorError> {
    let device = &options.device;
    let dtype = ops::creation_dtype(kind, device, options.dtype);
    let fail = |cause: TensorErrorCause, shape: &Shape| {
        TensorError::new(op, cause)
            .with_shapes(vec![shape.clone()])
            .with_dtype(dtype)
            .with_device(device.clone())
    };
    let checks =
        try_check_rank(rank, &shape).and_then(|()| check_creation_dtype(kind, options.dtype));
    if let Err(msg) = checks {
        return Err(fail(TensorErrorCause::Invalid(msg), &shape));
    }
    // Sized here, before any backend sees the shape: an overflow is then the
    // same error on every backend.
    if let Err(err) = shape.try_num_bytes(dtype) {
        return Err(fail(err.into(), &shape));
    }
    let requested = options.dtype;
    let result = guard(|| match fill {
        Fill::Empty => ops::empty(shape.clone(), kind, device, requested),
        Fill::Zeros => ops::zeros(shape.clone(), kind, device, requested),
        Fill::Ones => ops::ones(shape.clone(), kind, device, requested),
        Fill::Value(value) => ops::full(shape.clone(), value, kind, device, requested),
    });
    result.map_err(|cause| fail(cause, &shape))
}

fn into_data_impl(t: BridgeTensor) -> Result<TensorData, TensorError> {
    let (shape, dtype, device) = (t.shape(), t.dtype(), t.device());
    let fail = |cause: TensorErrorCause| {
        TensorError::new("into_data", cause)
            .with_shapes(vec![shape.clone()])
            .with_dtype(dtype)
            .with_device(device.clone())
    };
    match guard(|| ops::into_data(t)) {
        Ok(Ok(data)) => Ok(data),
        Ok(Err(err)) => Err(fail(TensorErrorCause::Execution(err))),
        Err(cause) => Err(fail(cause)),
    }
}

fn to_device_impl(t: BridgeTensor, device: &Device) -> Result<BridgeTensor, TensorError> {
    let (shape, dtype) = (t.shape(), t.dtype());
    guard(|| ops::to_device(t, device)).map_err(|cause| {
        TensorError::new("to_device", cause)
            .with_shapes(vec![shape])
            .with_dtype(dtype)
            .with_device(device.clone())
    })
}

fn like_impl(like: &BridgeTensor, value: Scalar) -> BridgeTensor {
    ops::full_like(like, like.shape(), value)
}

#[track_caller]
fn into_scalar_impl(t: BridgeTensor) -> Scalar {
    let shape = t.shape();
    if shape.num_elements() != 1 {
        panic!(
            "into_scalar: expected a tensor of exactly one element, got shape {shape} ({} elements)",
            shape.num_elements()
        );
    }
    let data = ops::into_data(t).unwrap_or_else(|err| panic!("into_scalar: {err}"));
    data.scalars().next().expect("one element")
}

fn try_into_scalar_impl(t: BridgeTensor) -> Result<Scalar, crate::TensorReadError> {
    let actual = t.shape().num_elements();
    if actual != 1 {
        return Err(crate::TensorReadError::InvalidShape {
            expected: 1,
            actual,
        });
    }
    let data = ops::into_data(t)?;
    Ok(data.scalars().next().expect("one element"))
}

#[track_caller]
fn cast_impl(t: BridgeTensor, dtype: DType) -> BridgeTensor {
    match t.kind_name() {
        "float" => check::float_dtype("cast", dtype),
        "int" => check::int_dtype("cast", dtype),
        _ => return t,
    }
    ops::cast(t, dtype)
}

#[track_caller]
fn reshape_impl(
    t: BridgeTensor,
    spec: args::ReshapeSpec,
    rank: usize,
) -> Result<BridgeTensor, TensorError> {
    let from = t.shape();
    let (dtype, device) = (t.dtype(), t.device());
    let fail = |cause: TensorErrorCause, shapes: Vec<Shape>| {
        TensorError::new("reshape", cause)
            .with_shapes(shapes)
            .with_dtype(dtype)
            .with_device(device.clone())
    };
    let shape = args::try_resolve_reshape(&from, spec)
        .map_err(|msg| fail(TensorErrorCause::Invalid(msg), vec![from.clone()]))?;
    let checks = try_check_rank(rank, &shape)
        .map_err(TensorErrorCause::Invalid)
        .and_then(|()| check::try_reshape(&from, &shape).map_err(TensorErrorCause::from));
    if let Err(cause) = checks {
        return Err(fail(cause, vec![from, shape]));
    }
    if shape == from {
        // Same shape, same tensor: no operation for the backend, the graph
        // or a recorder to see (layers reshape to what they already have).
        return Ok(t);
    }
    guard(|| ops::reshape(t, shape.clone())).map_err(|cause| fail(cause, vec![from, shape]))
}

/// Resolves signed dims against `rank`, panicking on repeats.
#[track_caller]
fn wrap_unique_dims(op: &str, dims: &[isize], rank: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(dims.len());
    for &d in dims {
        let d = args::wrap_dim(op, d, rank);
        if out.contains(&d) {
            panic!("{op}: dim {d} appears more than once in {dims:?}");
        }
        out.push(d);
    }
    out
}

#[track_caller]
fn permute_impl(t: BridgeTensor, axes: &[isize]) -> BridgeTensor {
    let shape = t.shape();
    let rank = shape.num_dims();
    let axes: Vec<usize> = axes
        .iter()
        .map(|&a| {
            let r = if a < 0 { a + rank as isize } else { a };
            if r < 0 { usize::MAX } else { r as usize }
        })
        .collect();
    check::permute("permute", &shape, &axes);
    ops::permute(t, &axes)
}

#[track_caller]
fn swap_dims_impl(t: BridgeTensor, dim1: isize, dim2: isize) -> BridgeTensor {
    let rank = t.shape().num_dims();
    let d1 = args::wrap_dim("swap_dims", dim1, rank);
    let d2 = args::wrap_dim("swap_dims", dim2, rank);
    if d1 == d2 {
        return t;
    }
    ops::swap_dims(t, d1, d2)
}

#[track_caller]
fn flip_impl(t: BridgeTensor, axes: &[isize]) -> BridgeTensor {
    let axes = wrap_unique_dims("flip", axes, t.shape().num_dims());
    if axes.is_empty() {
        return t;
    }
    ops::flip(t, &axes)
}

#[track_caller]
fn expand_impl(t: BridgeTensor, dims: &[i64], rank: usize) -> BridgeTensor {
    let from = t.shape();
    let to = args::resolve_expand("expand", &from, dims);
    check_rank_impl("expand", rank, &to);
    check::expand("expand", &from, &to);
    if from == to {
        return t;
    }
    ops::expand(t, to)
}

#[track_caller]
fn unsqueeze_impl(t: BridgeTensor, rank: usize) -> BridgeTensor {
    let from = t.shape();
    if rank < from.num_dims() {
        panic!("unsqueeze: cannot unsqueeze shape {from} to the lower rank {rank}");
    }
    let mut dims = std::vec![1; rank - from.num_dims()];
    dims.extend_from_slice(&from.dims);
    ops::reshape(t, Shape::from(dims))
}

#[track_caller]
fn unsqueeze_dim_impl(t: BridgeTensor, dim: usize, rank: usize) -> BridgeTensor {
    let from = t.shape();
    let d = from.num_dims();
    if rank != d + 1 {
        panic!(
            "unsqueeze_dim: the output rank must be {} for shape {from}, got {rank}",
            d + 1
        );
    }
    if dim > d {
        panic!(
            "unsqueeze_dim: dim {dim} is out of range for inserting into shape {from} (0..={d})"
        );
    }
    let mut dims = from.dims.clone();
    dims.insert(dim, 1);
    ops::reshape(t, Shape::from(dims))
}

#[track_caller]
fn unsqueeze_dims_impl(t: BridgeTensor, dims: &[isize], rank: usize) -> BridgeTensor {
    let from = t.shape();
    if rank != from.num_dims() + dims.len() {
        panic!(
            "unsqueeze_dims: inserting {} dims into shape {from} gives rank {}, not {rank}",
            dims.len(),
            from.num_dims() + dims.len()
        );
    }
    let new = wrap_unique_dims("unsqueeze_dims", dims, rank);
    let mut old = from.dims.iter();
    let out: Vec<usize> = (0..rank)
        .map(|i| {
            if new.contains(&i) {
                1
            } else {
                *old.next().expect("rank checked")
            }
        })
        .collect();
    ops::reshape(t, Shape::from(out))
}

#[track_caller]
fn squeeze_dim_impl(t: BridgeTensor, dim: usize, rank: usize) -> BridgeTensor {
    let from = t.shape();
    check::dim("squeeze_dim", dim, &from);
    if rank + 1 != from.num_dims() {
        panic!(
            "squeeze_dim: the output rank must be {} for shape {from}, got {rank}",
            from.num_dims() - 1
        );
    }
    if from.dims[dim] != 1 {
        panic!(
            "squeeze_dim: dim {dim} of shape {from} has size {}, not 1",
            from.dims[dim]
        );
    }
    let mut dims = from.dims.clone();
    dims.remove(dim);
    ops::reshape(t, Shape::from(dims))
}

#[track_caller]
fn squeeze_impl(t: BridgeTensor, rank: usize) -> BridgeTensor {
    let from = t.shape();
    let mut dims: Vec<usize> = from.dims.iter().copied().filter(|&d| d != 1).collect();
    if dims.is_empty() && rank == 1 {
        dims.push(1);
    }
    if dims.len() != rank {
        panic!(
            "squeeze: removing the size-1 dims of shape {from} leaves rank {}, not {rank}",
            dims.len()
        );
    }
    ops::reshape(t, Shape::from(dims))
}

#[track_caller]
fn flatten_impl(t: BridgeTensor, start: usize, end: usize, rank: usize) -> BridgeTensor {
    let from = t.shape();
    if start > end {
        panic!("flatten: start_dim {start} is after end_dim {end}");
    }
    check::dim("flatten", end, &from);
    let out_rank = from.num_dims() - (end - start);
    if rank != out_rank {
        panic!(
            "flatten: flattening dims {start}..={end} of shape {from} gives rank {out_rank}, not {rank}"
        );
    }
    let mut dims = from.dims[..start].to_vec();
    dims.push(from.dims[start..=end].iter().product());
    dims.extend_from_slice(&from.dims[end + 1..]);
    ops::reshape(t, Shape::from(dims))
}

/// Validates `slices` against `shape` and normalises them (non-negative bounds, one per dim).
#[track_caller]
fn resolve_slices(op: &str, shape: &Shape, slices: &[Slice]) -> (Vec<Slice>, Shape) {
    let ranges = check::slices(op, shape, slices);
    let out = check::sliced_shape(&ranges);
    let slices = ranges
        .iter()
        .map(|&(start, end, step)| Slice::new(start as isize, Some(end as isize), step))
        .collect();
    (slices, out)
}

#[track_caller]
fn slice_impl(t: BridgeTensor, slices: &[Slice]) -> BridgeTensor {
    let (slices, _) = resolve_slices("slice", &t.shape(), slices);
    ops::slice(t, &slices)
}

#[track_caller]
fn slice_dim_impl(t: BridgeTensor, dim: usize, slice: burn_std::Slice) -> BridgeTensor {
    let mut slices = vec![burn_std::Slice::full(); dim + 1];
    slices[dim] = slice;
    slice_impl(t, &slices)
}

#[track_caller]
fn slice_assign_impl(t: BridgeTensor, slices: &[Slice], values: BridgeTensor) -> BridgeTensor {
    let (slices, region) = resolve_slices("slice_assign", &t.shape(), slices);
    let vshape = values.shape();
    if vshape != region {
        panic!(
            "slice_assign: values of shape {vshape} do not match the selected region of shape {region}"
        );
    }
    ops::slice_assign(t, &slices, values)
}

#[track_caller]
fn slice_fill_impl(t: BridgeTensor, slices: &[Slice], value: Scalar) -> BridgeTensor {
    let (slices, region) = resolve_slices("slice_fill", &t.shape(), slices);
    if region.num_elements() == 0 {
        return t;
    }
    let values = ops::full_like(&t, region, value);
    ops::slice_assign(t, &slices, values)
}

#[track_caller]
fn narrow_impl(t: BridgeTensor, dim: usize, start: usize, length: usize) -> BridgeTensor {
    let shape = t.shape();
    check::dim("narrow", dim, &shape);
    if start
        .checked_add(length)
        .is_none_or(|end| end > shape.dims[dim])
    {
        panic!(
            "narrow: start {start} + length {length} exceeds the size {} of dim {dim} of shape {shape}",
            shape.dims[dim]
        );
    }
    ops::narrow(t, dim, start, length)
}

/// Pieces of `dim` of the given sizes, in order.
fn split_pieces(t: BridgeTensor, sizes: &[usize], dim: usize) -> Vec<BridgeTensor> {
    if sizes.len() == 1 {
        return std::vec![t];
    }
    let mut start = 0;
    sizes
        .iter()
        .map(|&len| {
            let piece = ops::narrow(t.clone(), dim, start, len);
            start += len;
            piece
        })
        .collect()
}

#[track_caller]
fn chunk_impl(t: BridgeTensor, chunks: usize, dim: usize) -> Vec<BridgeTensor> {
    let shape = t.shape();
    check::dim("chunk", dim, &shape);
    if chunks == 0 {
        panic!("chunk: the number of chunks must be positive");
    }
    let size = shape.dims[dim];
    let piece = size.div_ceil(chunks).max(1);
    split_impl(t, piece, dim)
}

#[track_caller]
fn split_impl(t: BridgeTensor, split_size: usize, dim: usize) -> Vec<BridgeTensor> {
    let shape = t.shape();
    check::dim("split", dim, &shape);
    let size = shape.dims[dim];
    if size == 0 {
        return std::vec![t];
    }
    if split_size == 0 {
        panic!("split: split_size must be positive for dim {dim} of shape {shape}");
    }
    let sizes: Vec<usize> = (0..size)
        .step_by(split_size)
        .map(|start| split_size.min(size - start))
        .collect();
    split_pieces(t, &sizes, dim)
}

#[track_caller]
fn split_with_sizes_impl(t: BridgeTensor, sizes: &[usize], dim: usize) -> Vec<BridgeTensor> {
    let shape = t.shape();
    check::dim("split_with_sizes", dim, &shape);
    let total: usize = sizes.iter().sum();
    if total != shape.dims[dim] {
        panic!(
            "split_with_sizes: sizes {sizes:?} sum to {total}, but dim {dim} of shape {shape} has size {}",
            shape.dims[dim]
        );
    }
    split_pieces(t, sizes, dim)
}

#[track_caller]
/// The body of float and int `try_matmul`; `run` is the bridge function of
/// the kind.
pub(crate) fn matmul_impl(
    lhs: BridgeTensor,
    rhs: BridgeTensor,
    run: fn(BridgeTensor, BridgeTensor) -> BridgeTensor,
) -> Result<BridgeTensor, TensorError> {
    let shapes = vec![lhs.shape(), rhs.shape()];
    let (dtype, device) = (lhs.dtype(), lhs.device());
    let fail = |cause: TensorErrorCause, shapes: Vec<Shape>| {
        TensorError::new("matmul", cause)
            .with_shapes(shapes)
            .with_dtype(dtype)
            .with_device(device.clone())
    };
    if let Err(err) = check::try_matmul(&shapes[0], &shapes[1]) {
        return Err(fail(err.into(), shapes));
    }
    guard(|| run(lhs, rhs)).map_err(|cause| fail(cause, shapes))
}

fn cat_impl(tensors: Vec<BridgeTensor>, dim: usize) -> Result<BridgeTensor, TensorError> {
    let shapes: Vec<Shape> = tensors.iter().map(BridgeTensor::shape).collect();
    let first = tensors.first().map(|t| (t.dtype(), t.device()));
    let fail = |cause: TensorErrorCause, shapes: Vec<Shape>| {
        let err = TensorError::new("cat", cause).with_shapes(shapes);
        match &first {
            Some((dtype, device)) => err.with_dtype(*dtype).with_device(device.clone()),
            None => err,
        }
    };
    if let Err(err) = check::try_cat(&shapes, dim) {
        return Err(fail(err.into(), shapes));
    }
    if tensors.len() == 1 {
        return Ok(tensors.into_iter().next().expect("one tensor"));
    }
    // Kind and dtype mismatches are checked (and panicked on) by the bridge.
    guard(|| ops::cat(tensors, dim)).map_err(|cause| fail(cause, shapes))
}

#[track_caller]
fn stack_impl(tensors: Vec<BridgeTensor>, dim: usize, rank: usize) -> BridgeTensor {
    let Some(first) = tensors.first().map(BridgeTensor::shape) else {
        panic!("stack: needs at least one tensor");
    };
    if rank != first.num_dims() + 1 {
        panic!(
            "stack: the output rank must be {} for tensors of shape {first}, got {rank}",
            first.num_dims() + 1
        );
    }
    if dim > first.num_dims() {
        panic!(
            "stack: dim {dim} is out of range for stacking tensors of shape {first} (0..={})",
            first.num_dims()
        );
    }
    for t in &tensors {
        let shape = t.shape();
        if shape != first {
            panic!("stack: all tensors must have the same shape, got {first} and {shape}");
        }
    }
    let unsqueezed = tensors
        .into_iter()
        .map(|t| unsqueeze_dim_impl(t, dim, rank))
        .collect();
    cat_impl(unsqueezed, dim).unwrap_or_else(|err| err.raise())
}

#[track_caller]
fn repeat_dim_impl(t: BridgeTensor, dim: usize, times: usize) -> BridgeTensor {
    check::dim("repeat_dim", dim, &t.shape());
    if times == 1 {
        return t;
    }
    ops::repeat_dim(t, dim, times)
}

#[track_caller]
fn repeat_impl(t: BridgeTensor, sizes: &[usize]) -> BridgeTensor {
    let shape = t.shape();
    if sizes.len() > shape.num_dims() {
        panic!(
            "repeat: {} repeat counts given for a tensor of shape {shape}",
            sizes.len()
        );
    }
    sizes
        .iter()
        .enumerate()
        .fold(t, |t, (dim, &times)| repeat_dim_impl(t, dim, times))
}

#[track_caller]
fn select_impl(t: BridgeTensor, dim: usize, indices: BridgeTensor) -> BridgeTensor {
    check::dim("select", dim, &t.shape());
    ops::select(t, dim, indices)
}

#[track_caller]
fn gather_impl(t: BridgeTensor, dim: usize, indices: BridgeTensor) -> BridgeTensor {
    check::gather("gather", dim, &t.shape(), &indices.shape());
    ops::gather(dim, t, indices)
}

#[track_caller]
fn mask_where_impl(t: BridgeTensor, mask: BridgeTensor, value: BridgeTensor) -> BridgeTensor {
    let out = check::broadcast("mask_where", &t.shape(), &mask.shape());
    check::broadcast("mask_where", &out, &value.shape());
    ops::mask_where(t, mask, value)
}

#[track_caller]
fn mask_fill_impl(t: BridgeTensor, mask: BridgeTensor, value: Scalar) -> BridgeTensor {
    let (shape, mshape) = (t.shape(), mask.shape());
    if check::broadcast("mask_fill", &shape, &mshape) != shape {
        panic!(
            "mask_fill: mask of shape {mshape} cannot be broadcast to the tensor's shape {shape}"
        );
    }
    ops::mask_fill(t, mask, value)
}

#[track_caller]
fn compare_impl(op: &str, lhs: BridgeTensor, rhs: BridgeTensor, equal: bool) -> BridgeTensor {
    check::broadcast(op, &lhs.shape(), &rhs.shape());
    if equal {
        ops::equal(lhs, rhs)
    } else {
        ops::not_equal(lhs, rhs)
    }
}
