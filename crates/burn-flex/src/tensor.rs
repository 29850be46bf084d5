//! The Flex tensor: a shared buffer, a strided layout and a run-time dtype.
//!
//! Every buffer is sized and allocated here, through burn-std's checked
//! [`Bytes::try_for_shape`]: a shape whose byte count overflows, or whose
//! buffer the allocator refuses, panics with the [`SizeError`]
//! ("cannot allocate N bytes for shape [..] (f32)") instead of wrapping the
//! count or aborting the process. The tensor API catches that panic in its
//! `try_*` forms and names the op.

use alloc::sync::Arc;
use alloc::vec::Vec;

use burn_backend::TensorMetadata;
use burn_std::{BoolStore, BufferInit, Bytes, DType, Shape, SizeError, TensorData};
use bytemuck::Pod;

use crate::layout::{Layout, for_each_row};

/// A tensor of the Flex backend. Cloning is cheap: clones share the buffer.
///
/// Every kind (float, int, bool) uses this one type; bools are stored one
/// byte each (0 or 1) under `DType::Bool(BoolStore::Native)`.
#[derive(Clone, Debug)]
pub struct FlexTensor {
    // Why `Arc<Bytes>` and not `Arc<[E]>`: the dtype is a run-time value, so
    // the buffer is untyped; `Bytes` is 64-byte aligned, which makes a view
    // of it as any element slice valid.
    buffer: Arc<Bytes>,
    layout: Layout,
    dtype: DType,
}

/// The dtype bool tensors are stored with.
pub const BOOL: DType = DType::Bool(BoolStore::Native);

/// Panics with a size error. Cold and out of line: it is on every
/// allocation path and almost never taken.
#[cold]
#[inline(never)]
#[track_caller]
pub fn size_panic(err: SizeError) -> ! {
    panic!("{err}")
}

/// The buffer of a contiguous `shape` of `dtype`, or a panic naming both.
#[track_caller]
pub(crate) fn alloc(shape: &Shape, dtype: DType, init: BufferInit) -> Bytes {
    Bytes::try_for_shape(shape, dtype, init).unwrap_or_else(|err| size_panic(err))
}

/// `size_of::<E>()` must be the dtype's size: a kernel writing with the
/// wrong element type would fill part of the buffer, or past it.
#[track_caller]
fn check_elem_size<E>(dtype: DType) {
    assert_eq!(
        core::mem::size_of::<E>(),
        dtype.size(),
        "flex: a {}-byte element type for {dtype} storage",
        core::mem::size_of::<E>()
    );
}

impl FlexTensor {
    /// Wraps a buffer. Panics if the layout reaches outside it, so no later
    /// kernel can read out of bounds.
    pub fn new(buffer: Arc<Bytes>, layout: Layout, dtype: DType) -> Self {
        if let Some((_, end)) = layout.span() {
            // Quantized bytes (always contiguous) are values then scales,
            // not `size` bytes a value.
            let needed = match dtype {
                DType::QFloat(_) => layout.shape().try_num_bytes(dtype).ok(),
                _ => end.checked_mul(dtype.size()),
            };
            assert!(
                needed.is_some_and(|end| end <= buffer.len()),
                "flex: layout {layout:?} reaches past a buffer of {} bytes",
                buffer.len()
            );
        }
        Self {
            buffer,
            layout,
            dtype,
        }
    }

    /// A contiguous tensor that owns `values`.
    pub fn from_vec<E: Pod>(values: Vec<E>, shape: Shape, dtype: DType) -> Self {
        check_elem_size::<E>(dtype);
        assert_eq!(
            values.len(),
            shape.num_elements(),
            "flex: {} values for shape {shape}",
            values.len()
        );
        // `Bytes` needs its own 64-byte-aligned allocation: this copies.
        let bytes = Bytes::try_copy_for_shape(bytemuck::cast_slice(&values), &shape, dtype)
            .unwrap_or_else(|err| size_panic(err));
        Self::new(Arc::new(bytes), Layout::contiguous(shape), dtype)
    }

    /// A contiguous tensor of `shape` whose elements are written by `fill`,
    /// which receives the whole output slice (zero-initialised; a recycled
    /// buffer for large outputs, see [`Bytes::zeroed_recycled`]).
    pub fn build<E: Pod>(shape: Shape, dtype: DType, fill: impl FnOnce(&mut [E])) -> Self {
        check_elem_size::<E>(dtype);
        let mut bytes = alloc(&shape, dtype, BufferInit::ZeroedRecycled);
        fill(bytes.as_mut_slice_of::<E>());
        Self::new(Arc::new(bytes), Layout::contiguous(shape), dtype)
    }

    /// Like [`build`](Self::build), for a `fill` that writes every element:
    /// the slice it receives holds unspecified values (a recycled buffer of
    /// an earlier output, see [`Bytes::for_overwrite`]), which saves zeroing
    /// the buffer and, for large outputs, faulting in fresh pages.
    pub fn build_overwrite<E: Pod>(
        shape: Shape,
        dtype: DType,
        fill: impl FnOnce(&mut [E]),
    ) -> Self {
        check_elem_size::<E>(dtype);
        let mut bytes = alloc(&shape, dtype, BufferInit::Overwrite);
        fill(bytes.as_mut_slice_of::<E>());
        Self::new(Arc::new(bytes), Layout::contiguous(shape), dtype)
    }

    /// Imports data, converting bool storage to the native one-byte form.
    pub fn from_data(data: TensorData) -> Self {
        let data = match data.dtype {
            DType::Bool(store) if store != BoolStore::Native => data.convert_dtype(BOOL),
            _ => data,
        };
        let TensorData {
            bytes,
            shape,
            dtype,
        } = data;
        Self::new(Arc::new(bytes), Layout::contiguous(shape), dtype)
    }

    /// Exports as contiguous data, without copying when the buffer is
    /// uniquely owned and already laid out row-major from its start.
    pub fn into_data(self) -> TensorData {
        let shape = self.layout.shape().clone();
        let dtype = self.dtype;
        let n_bytes = shape
            .try_num_bytes(dtype)
            .unwrap_or_else(|err| size_panic(err));
        if let Some(range) = self.layout.contiguous_range() {
            // A contiguous view may start past the buffer's beginning (a
            // slice of leading rows) or be empty: copy just its bytes.
            // (An empty view's offset may point anywhere, even past the end.)
            let start = if n_bytes == 0 {
                0
            } else {
                range.start * self.dtype.size()
            };
            let bytes = match Arc::try_unwrap(self.buffer) {
                Ok(bytes) if start == 0 && bytes.len() == n_bytes => bytes,
                Ok(bytes) => copy_for(&bytes[start..start + n_bytes], &shape, dtype),
                Err(buffer) => copy_for(&buffer[start..start + n_bytes], &shape, dtype),
            };
            return TensorData {
                bytes,
                shape,
                dtype,
            };
        }
        // `to_contiguous` gives a row-major layout, which the branch above takes.
        self.to_contiguous().into_data()
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The logical shape.
    pub fn shape_ref(&self) -> &Shape {
        self.layout.shape()
    }

    /// The same buffer under another layout (a view). Panics if the layout
    /// reaches outside the buffer.
    pub fn with_layout(&self, layout: Layout) -> Self {
        Self::new(self.buffer.clone(), layout, self.dtype)
    }

    /// The same buffer and layout, relabelled with another dtype of the same
    /// element size (e.g. bool bytes seen as u8).
    pub fn relabel(mut self, dtype: DType) -> Self {
        assert_eq!(
            dtype.size(),
            self.dtype.size(),
            "flex: cannot relabel {} as {dtype}",
            self.dtype
        );
        self.dtype = dtype;
        self
    }

    /// The whole buffer as elements of `E` (index it with layout offsets).
    ///
    /// Panics if `E`'s size differs from the dtype's: a kernel reading with
    /// the wrong type is a bug, never a silent reinterpretation.
    pub fn storage<E: Pod>(&self) -> &[E] {
        assert_eq!(
            core::mem::size_of::<E>(),
            self.dtype.size(),
            "flex: reading {} storage with a {}-byte element type",
            self.dtype,
            core::mem::size_of::<E>()
        );
        self.buffer.as_slice_of::<E>()
    }

    /// The bytes of a quantized tensor (packed values, then scales; always
    /// contiguous from the buffer's start).
    pub fn quantized_bytes(&self) -> &[u8] {
        assert!(
            self.dtype.is_quantized(),
            "flex: quantized_bytes of a {} tensor",
            self.dtype
        );
        let n = self
            .layout
            .shape()
            .try_num_bytes(self.dtype)
            .unwrap_or_else(|err| size_panic(err));
        &self.buffer.as_slice()[..n]
    }

    /// The elements in logical order, when the layout is contiguous.
    pub fn contiguous_slice<E: Pod>(&self) -> Option<&[E]> {
        let range = self.layout.contiguous_range()?;
        if range.is_empty() {
            // An empty view's offset may lie past the end of its buffer.
            return Some(&[]);
        }
        Some(&self.storage::<E>()[range])
    }

    /// The buffer as a mutable contiguous slice, if this handle is its only
    /// owner and its layout is row-major from the start: lets an op write its
    /// output into its input's memory.
    pub fn unique_contiguous_mut<E: Pod>(&mut self) -> Option<&mut [E]> {
        let n = self.layout.num_elements();
        if self.layout.contiguous_range() != Some(0..n) {
            return None;
        }
        assert_eq!(core::mem::size_of::<E>(), self.dtype.size());
        let bytes = Arc::get_mut(&mut self.buffer)?;
        Some(&mut bytes.as_mut_slice_of::<E>()[..n])
    }

    /// The elements in logical order, copied into a vector.
    pub fn to_vec<E: Pod>(&self) -> Vec<E> {
        if let Some(slice) = self.contiguous_slice::<E>() {
            return slice.to_vec();
        }
        let mut out = Vec::new();
        if out.try_reserve_exact(self.layout.num_elements()).is_err() {
            size_panic(SizeError::Alloc {
                bytes: self.layout.num_elements() * core::mem::size_of::<E>(),
                shape: self.shape_ref().clone(),
                dtype: self.dtype,
            });
        }
        self.for_each_strided::<E>(|value| out.push(value));
        out
    }

    /// Calls `f` on every element in logical order, walking the strides.
    fn for_each_strided<E: Pod>(&self, mut f: impl FnMut(E)) {
        let storage = self.storage::<E>();
        let (dims, strides) = self.layout.simplified();
        let (n, s) = (*dims.last().unwrap(), *strides.last().unwrap());
        for_each_row(
            &dims,
            [&strides],
            [self.layout.offset() as isize],
            |[start]| {
                for i in 0..n as isize {
                    f(storage[(start + i * s) as usize]);
                }
            },
        );
    }

    /// A row-major copy (or this tensor, if it already is row-major).
    pub fn to_contiguous(&self) -> Self {
        if self.layout.is_contiguous() {
            return self.clone();
        }
        let size = self.dtype.size();
        match size {
            1 => self.copied::<u8>(),
            2 => self.copied::<u16>(),
            4 => self.copied::<u32>(),
            8 => self.copied::<u64>(),
            _ => unreachable!("flex: no dtype has {size}-byte elements"),
        }
    }

    /// A row-major copy written straight into its new buffer.
    fn copied<E: Pod>(&self) -> Self {
        Self::build_overwrite::<E>(self.shape_ref().clone(), self.dtype, |out| {
            let mut out = out.iter_mut();
            self.for_each_strided::<E>(|value| *out.next().expect("one slot per element") = value);
        })
    }
}

/// A copy of a tensor's bytes into a buffer of its own.
fn copy_for(bytes: &[u8], shape: &Shape, dtype: DType) -> Bytes {
    Bytes::try_copy_for_shape(bytes, shape, dtype).unwrap_or_else(|err| size_panic(err))
}

impl TensorMetadata for FlexTensor {
    fn dtype(&self) -> DType {
        self.dtype
    }

    fn shape(&self) -> Shape {
        self.layout.shape().clone()
    }

    fn rank(&self) -> usize {
        self.layout.shape().num_dims()
    }
}
