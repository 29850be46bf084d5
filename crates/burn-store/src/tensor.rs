//! [`StoreTensor`]: a named tensor on its way between a store and a module,
//! with its bytes left where they are until someone reads them.
//!
//! A tensor read from a file is a *view*: a buffer (a memory-mapped file, a
//! byte buffer, a burnpack entry), a byte offset and a stride per dimension,
//! checked against the buffer when the view is made. Transposing a view or
//! taking a slice of its first dimension only changes the numbers, so the
//! adapters that turn PyTorch's layouts into Burn's (a `Linear` weight
//! transposed, a packed `in_proj_weight` split in three) cost nothing until
//! the data is read, and then cost exactly one copy, straight from the map
//! into the buffer the tensor will own.
//!
//! Everything else (a dtype cast, a module parameter to be read back from
//! its device) is a *lazy* tensor: a closure producing the data, composed
//! with the next transform. Reading a tensor is the only step that can fail
//! on data, so every error names the tensor.

use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use burn_std::{BoolStore, Bytes, DType, Shape};
use burn_tensor::TensorData;

use crate::{StoreError, copy};

type Producer = dyn Fn() -> Result<TensorData, StoreError> + Send + Sync;

/// A named tensor a store read or a module gave, not yet materialized.
///
/// Cloning is cheap: clones share the underlying bytes or producer. The
/// shape and dtype are known without reading anything; [`to_data`](Self::to_data)
/// reads (and, for a lazy tensor, computes) the values.
///
/// ```
/// use burn_store::StoreTensor;
/// use burn_tensor::TensorData;
///
/// let tensor = StoreTensor::from_data("fc.weight", TensorData::new(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]));
/// let transposed = tensor.transpose();
/// assert_eq!(transposed.shape(), [3, 2]);
/// assert_eq!(transposed.to_data()?.to_vec::<f32>()?, [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct StoreTensor {
    name: String,
    dtype: DType,
    shape: Vec<usize>,
    param_id: Option<u64>,
    data: Data,
}

#[derive(Clone)]
enum Data {
    /// Elements in a buffer, addressed by offset and strides.
    View(View),
    /// A producer, run on every read.
    Lazy(Arc<Producer>),
}

/// Where the bytes of a view live.
pub(crate) struct Buffer {
    /// The file the bytes come from, or `<memory>`; named in errors.
    origin: String,
    bytes: BufferBytes,
}

pub(crate) enum BufferBytes {
    /// A mapped file, and the file: tensors are read from the file with
    /// `pread` where that is faster (see `copy.rs`), headers through the
    /// map. (Elsewhere than Unix the file is only kept open.)
    #[cfg_attr(not(unix), allow(dead_code))]
    Mapped(memmap2::Mmap, std::fs::File),
    Owned(Bytes),
    Static(&'static [u8]),
    /// One entry of a burnpack reader (its own slice of the pack).
    Pack(burn_pack::Tensor),
}

impl Buffer {
    pub(crate) fn new(origin: impl Into<String>, bytes: BufferBytes) -> Self {
        Self {
            origin: origin.into(),
            bytes,
        }
    }

    /// Memory-maps the file at `path`, read-only.
    ///
    /// Like every memory-mapping reader, this needs the file not to be
    /// truncated or rewritten while a tensor of it is alive; the stores of
    /// this crate never write a file in place (they write a scratch file and
    /// rename it).
    #[allow(unsafe_code)]
    pub(crate) fn map_file(path: &Path) -> Result<Self, StoreError> {
        let file = std::fs::File::open(path).map_err(|e| StoreError::io("open", path, e))?;
        let len = file
            .metadata()
            .map_err(|e| StoreError::io("inspect", path, e))?
            .len();
        let origin = path.display().to_string();
        if len == 0 {
            // Mapping an empty file fails on some platforms; nothing to map.
            return Ok(Self::new(origin, BufferBytes::Static(&[])));
        }
        // SAFETY: the mapping is read-only and only handed out as shared
        // slices. Its soundness also needs the file to stay unchanged while
        // mapped, the documented contract above.
        let map =
            unsafe { memmap2::Mmap::map(&file) }.map_err(|e| StoreError::io("map", path, e))?;
        Ok(Self::new(origin, BufferBytes::Mapped(map, file)))
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        match &self.bytes {
            BufferBytes::Mapped(map, _) => map,
            BufferBytes::Owned(bytes) => bytes,
            BufferBytes::Static(bytes) => bytes,
            BufferBytes::Pack(tensor) => tensor.bytes().unwrap_or(&[]),
        }
    }

    pub(crate) fn origin(&self) -> &str {
        &self.origin
    }

    /// Where `copy` reads the bytes from: the file itself where there is
    /// one (Unix), else the bytes in memory.
    fn source(&self) -> copy::Source<'_> {
        match &self.bytes {
            #[cfg(unix)]
            BufferBytes::Mapped(map, file) => copy::Source::File { file, map },
            _ => copy::Source::Memory(self.as_slice()),
        }
    }

    /// Tells the kernel that the pages of `range` of a mapped file were
    /// copied out and are not needed again soon, so that loading a large
    /// file keeps about one tensor of it resident rather than all of it.
    /// The pages are read from the file again if touched later.
    #[allow(unsafe_code)]
    fn release(&self, range: Range<usize>) {
        #[cfg(unix)]
        if let BufferBytes::Mapped(map, _) = &self.bytes {
            // Only whole pages inside the range: a page shared with the
            // next tensor would be faulted in again at once.
            const PAGE: usize = 4096;
            let start = range.start.next_multiple_of(PAGE);
            let end = range.end / PAGE * PAGE;
            if end > start {
                // SAFETY: the mapping is a shared, read-only mapping of a
                // file: dropping its pages discards nothing (they are
                // clean), and a later read faults the same bytes back in
                // from the file, so no slice ever observes other contents.
                // This is the case `MADV_DONTNEED`'s documented hazard
                // (private or anonymous memory reading back as zeros) does
                // not cover.
                let _ = unsafe {
                    map.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        start,
                        end - start,
                    )
                };
            }
        }
        #[cfg(not(unix))]
        let _ = range;
    }
}

/// Elements of a [`Buffer`]: `offset` bytes in, `strides[i]` elements apart
/// along dimension `i`. Checked to stay inside the buffer when made.
#[derive(Clone)]
struct View {
    buffer: Arc<Buffer>,
    offset: usize,
    strides: Vec<usize>,
}

impl StoreTensor {
    /// A tensor holding `data` (already in memory).
    pub fn from_data(name: impl Into<String>, data: TensorData) -> Self {
        let dtype = data.dtype;
        let shape = data.shape.dims.to_vec();
        let strides = contiguous_strides(&shape);
        let buffer = Buffer::new("<memory>", BufferBytes::Owned(data.bytes));
        Self {
            name: name.into(),
            dtype,
            shape,
            param_id: None,
            data: Data::View(View {
                buffer: Arc::new(buffer),
                offset: 0,
                strides,
            }),
        }
    }

    /// A tensor whose data `produce` makes on each read. It must return data
    /// of `dtype` and `shape` (checked on read).
    pub fn lazy<F>(name: impl Into<String>, dtype: DType, shape: Vec<usize>, produce: F) -> Self
    where
        F: Fn() -> Result<TensorData, StoreError> + Send + Sync + 'static,
    {
        Self {
            name: name.into(),
            dtype,
            shape,
            param_id: None,
            data: Data::Lazy(Arc::new(produce)),
        }
    }

    /// A view of `buffer` starting at byte `offset`, checked to read only
    /// bytes of `bounds` (the tensor's storage: a view reaching past it
    /// would read another tensor's bytes).
    pub(crate) fn view(
        name: String,
        dtype: DType,
        shape: Vec<usize>,
        buffer: Arc<Buffer>,
        bounds: Range<usize>,
        offset: usize,
        strides: Vec<usize>,
    ) -> Result<Self, StoreError> {
        let available = buffer.as_slice().len().min(bounds.end);
        let needed = view_end(offset, &shape, &strides, dtype.size());
        let inside = offset >= bounds.start && needed.is_some_and(|end| end <= available as u64);
        if !inside {
            return Err(StoreError::OutOfBounds {
                file: buffer.origin().to_owned(),
                tensor: name,
                needed: needed.unwrap_or(u64::MAX),
                available: available as u64,
            });
        }
        Ok(Self {
            name,
            dtype,
            shape,
            param_id: None,
            data: Data::View(View {
                buffer,
                offset,
                strides,
            }),
        })
    }

    /// A row-major view of `buffer` from the start of `bounds`, checked to
    /// stay inside them.
    pub(crate) fn contiguous(
        name: String,
        dtype: DType,
        shape: Vec<usize>,
        buffer: Arc<Buffer>,
        bounds: Range<usize>,
    ) -> Result<Self, StoreError> {
        let strides = contiguous_strides(&shape);
        let offset = bounds.start;
        Self::view(name, dtype, shape, buffer, bounds, offset, strides)
    }

    /// The name: the key in the store, or the module path.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the tensor.
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// The tensor renamed.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The dimensions, outermost first.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The parameter id the source recorded (burnpack files do; SafeTensors
    /// and PyTorch files do not).
    pub fn param_id(&self) -> Option<u64> {
        self.param_id
    }

    /// The tensor with a parameter id.
    pub fn with_param_id(mut self, id: Option<u64>) -> Self {
        self.param_id = id;
        self
    }

    /// The number of elements, sized by burn-std's checked
    /// [`Shape::try_num_elements`] (the one place a shape becomes a size).
    ///
    /// # Panics
    /// If the count exceeds `isize::MAX`, naming the tensor: no buffer can
    /// hold such a tensor, and a wrapped count would pass every later
    /// length check.
    #[track_caller]
    pub fn num_elements(&self) -> usize {
        Shape::from(self.shape.as_slice())
            .try_num_elements()
            .unwrap_or_else(|err| panic!("tensor `{}`: {err}", self.name))
    }

    /// The length of the data in bytes ([`Shape::try_num_bytes`]).
    ///
    /// # Panics
    /// If the element or byte count exceeds `isize::MAX`, naming the tensor.
    #[track_caller]
    pub fn byte_len(&self) -> usize {
        Shape::from(self.shape.as_slice())
            .try_num_bytes(self.dtype)
            .unwrap_or_else(|err| panic!("tensor `{}`: {err}", self.name))
    }

    /// Reads the data: one copy out of the buffer for a view (transposes and
    /// slices included), the producer's result for a lazy tensor.
    pub fn to_data(&self) -> Result<TensorData, StoreError> {
        let data = match &self.data {
            Data::View(view) => view.read(&self.shape, self.dtype)?,
            Data::Lazy(produce) => produce()?,
        };
        if data.dtype != self.dtype || data.shape.dims != self.shape.as_slice() {
            return Err(StoreError::Transform {
                tensor: self.name.clone(),
                message: format!(
                    "expected {:?} data of shape {:?}, the source produced {:?} of shape {:?}",
                    self.dtype, self.shape, data.dtype, data.shape.dims
                ),
            });
        }
        Ok(data)
    }

    /// Reads the data, consuming the tensor (see [`to_data`](Self::to_data)).
    pub fn into_data(self) -> Result<TensorData, StoreError> {
        self.to_data()
    }

    /// Reads the data over `target`'s bytes, when the tensor is a view of a
    /// buffer ([`is_view`](Self::is_view)) and `target` holds the same
    /// dtype and shape: the copy lands in memory the caller already holds
    /// (a parameter's own buffer, its pages resident) instead of a fresh
    /// allocation. Returns whether it did; `false` leaves `target` as it was
    /// ([`to_data`](Self::to_data) reads such a tensor).
    ///
    /// On an error, `target` holds part of the data.
    pub fn read_over(&self, target: &mut TensorData) -> Result<bool, StoreError> {
        let Data::View(view) = &self.data else {
            return Ok(false);
        };
        let len = self.num_elements() * self.dtype.size();
        if target.dtype != self.dtype
            || target.shape.dims != self.shape.as_slice()
            || target.bytes.len() != len
        {
            return Ok(false);
        }
        view.read_into(&self.shape, self.dtype, &mut target.bytes[..])?;
        Ok(true)
    }

    /// The 2-D tensor transposed. Free for a view (the strides swap); a lazy
    /// tensor transposes when read.
    ///
    /// # Panics
    /// If the tensor is not 2-D.
    pub fn transpose(self) -> Self {
        assert_eq!(
            self.shape.len(),
            2,
            "StoreTensor::transpose: `{}` has shape {:?}, not 2-D",
            self.name,
            self.shape
        );
        let shape = vec![self.shape[1], self.shape[0]];
        match self.data {
            Data::View(mut view) => {
                view.strides.swap(0, 1);
                Self {
                    shape,
                    data: Data::View(view),
                    ..self
                }
            }
            Data::Lazy(_) => {
                let dtype = self.dtype;
                self.map_data(dtype, shape, |data| {
                    let tensor = StoreTensor::from_data(String::new(), data);
                    tensor.transpose().to_data()
                })
            }
        }
    }

    /// `len` entries of dimension `dim` from `start`. Free for a view.
    ///
    /// # Panics
    /// If `dim` is not a dimension or the range exceeds it.
    pub fn narrow(self, dim: usize, start: usize, len: usize) -> Self {
        assert!(
            dim < self.shape.len() && start + len <= self.shape[dim],
            "StoreTensor::narrow: `{}` of shape {:?} has no range {start}..{} along dimension {dim}",
            self.name,
            self.shape,
            start + len
        );
        let mut shape = self.shape.clone();
        shape[dim] = len;
        match self.data {
            Data::View(mut view) => {
                if len > 0 {
                    // In bounds: the whole view was checked, and this one
                    // addresses a subset of its elements.
                    view.offset += start * view.strides[dim] * self.dtype.size();
                }
                Self {
                    shape,
                    data: Data::View(view),
                    ..self
                }
            }
            Data::Lazy(_) => {
                let dtype = self.dtype;
                self.map_data(dtype, shape, move |data| {
                    StoreTensor::from_data(String::new(), data)
                        .narrow(dim, start, len)
                        .to_data()
                })
            }
        }
    }

    /// The tensor cast to `dtype` when read (nothing to do if it has it).
    pub fn cast(self, dtype: DType) -> Self {
        if dtype == self.dtype {
            return self;
        }
        let shape = self.shape.clone();
        self.map_data(dtype, shape, move |data| Ok(data.convert_dtype(dtype)))
    }

    /// The tensor with `f` applied to its data when read; `f` must return
    /// data of `dtype` and `shape` (checked on read). This is how a custom
    /// adapter composes a transform without reading anything now.
    pub fn map_data<F>(self, dtype: DType, shape: Vec<usize>, f: F) -> Self
    where
        F: Fn(TensorData) -> Result<TensorData, StoreError> + Send + Sync + 'static,
    {
        let source = self.clone();
        Self {
            dtype,
            shape,
            data: Data::Lazy(Arc::new(move || f(source.to_data()?))),
            ..self
        }
    }

    /// Whether the data is read straight from a buffer (a file or bytes),
    /// rather than computed.
    pub fn is_view(&self) -> bool {
        matches!(self.data, Data::View(_))
    }
}

impl fmt::Debug for StoreTensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = match &self.data {
            Data::View(view) => view.buffer.origin(),
            Data::Lazy(_) => "lazy",
        };
        f.debug_struct("StoreTensor")
            .field("name", &self.name)
            .field("dtype", &self.dtype)
            .field("shape", &self.shape)
            .field("param_id", &self.param_id)
            .field("source", &source)
            .finish()
    }
}

impl From<burn_pack::Tensor> for StoreTensor {
    /// A view of a burnpack entry (read, for a file-backed pack, only when
    /// the data is). A deferred entry is read once, now.
    fn from(tensor: burn_pack::Tensor) -> Self {
        let name = tensor.name.clone();
        let dtype = tensor.dtype;
        let shape = tensor.shape.dims.to_vec();
        let param_id = tensor.param_id;
        let strides = contiguous_strides(&shape);
        let bytes = if tensor.bytes().is_some() {
            BufferBytes::Pack(tensor)
        } else {
            match tensor.into_bytes() {
                Ok(bytes) => BufferBytes::Owned(bytes),
                Err(e) => {
                    let message = e.to_string();
                    let name2 = name.clone();
                    return StoreTensor::lazy(name, dtype, shape, move || {
                        Err(StoreError::Transform {
                            tensor: name2.clone(),
                            message: message.clone(),
                        })
                    })
                    .with_param_id(param_id);
                }
            }
        };
        let buffer = Arc::new(Buffer::new("<burnpack>", bytes));
        Self {
            name,
            dtype,
            shape,
            param_id,
            data: Data::View(View {
                buffer,
                offset: 0,
                strides,
            }),
        }
    }
}

impl View {
    /// Copies the elements out, row-major, into a fresh buffer.
    fn read(&self, shape: &[usize], dtype: DType) -> Result<TensorData, StoreError> {
        let elem = dtype.size();
        let count: usize = shape.iter().product();
        let src = self.buffer.source();
        let copied = if count == 0 {
            Ok(Bytes::zeroed(0))
        } else if is_contiguous(shape, &self.strides) {
            copy::contiguous(&src, self.offset, count * elem)
        } else {
            copy::strided(&src, self.offset, shape, &self.strides, elem)
        };
        let mut bytes = copied.map_err(|e| StoreError::io("read", self.buffer.origin(), e))?;
        self.finish(shape, dtype, &mut bytes);
        Ok(TensorData::from_bytes(bytes, shape.to_vec(), dtype)
            .expect("the buffer was sized from the shape and dtype"))
    }

    /// Copies the elements out, row-major, over `out` (which holds exactly
    /// `shape` of `dtype`). On an error `out` holds part of the data.
    fn read_into(&self, shape: &[usize], dtype: DType, out: &mut [u8]) -> Result<(), StoreError> {
        let elem = dtype.size();
        let count: usize = shape.iter().product();
        debug_assert_eq!(out.len(), count * elem);
        let src = self.buffer.source();
        let copied = if count == 0 {
            Ok(())
        } else if is_contiguous(shape, &self.strides) {
            copy::contiguous_into(&src, self.offset, copy::as_uninit(out))
        } else {
            copy::strided_into(
                &src,
                self.offset,
                shape,
                &self.strides,
                elem,
                copy::as_uninit(out),
            )
        };
        copied.map_err(|e| StoreError::io("read", self.buffer.origin(), e))?;
        self.finish(shape, dtype, out);
        Ok(())
    }

    /// After a copy of the view into `bytes`: the span read is released
    /// (see [`Buffer::release`]), and bools normalized.
    fn finish(&self, shape: &[usize], dtype: DType, bytes: &mut [u8]) {
        let elem = dtype.size();
        if !shape.contains(&0) {
            // The whole span the view touched (for a strided view, a range
            // that covers it).
            let end = view_end(self.offset, shape, &self.strides, elem).unwrap_or(0) as usize;
            self.buffer.release(self.offset..end);
        }
        if matches!(dtype, DType::Bool(BoolStore::Native | BoolStore::U8)) {
            // A file may hold any byte in a bool; only 0 and 1 are bools.
            for b in bytes.iter_mut() {
                *b = u8::from(*b != 0);
            }
        }
    }
}

/// Row-major strides, in elements.
pub(crate) fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; shape.len()];
    let mut acc = 1usize;
    for (stride, &dim) in strides.iter_mut().zip(shape).rev() {
        *stride = acc;
        acc = acc.saturating_mul(dim);
    }
    strides
}

/// Whether the view addresses one row-major run (dimensions of size one
/// may have any stride).
fn is_contiguous(shape: &[usize], strides: &[usize]) -> bool {
    let mut expected = 1usize;
    for (&dim, &stride) in shape.iter().zip(strides).rev() {
        if dim != 1 && stride != expected {
            return false;
        }
        expected *= dim;
    }
    true
}

/// One past the last byte a view reads, `None` on overflow; the offset for
/// an empty view (which reads nothing but must not point past the buffer).
fn view_end(offset: usize, shape: &[usize], strides: &[usize], elem: usize) -> Option<u64> {
    if shape.len() != strides.len() {
        return None;
    }
    if shape.contains(&0) {
        return Some(offset as u64);
    }
    let mut last = 0u64;
    for (&dim, &stride) in shape.iter().zip(strides) {
        let span = (dim as u64 - 1).checked_mul(stride as u64)?;
        last = last.checked_add(span)?;
    }
    let elems = last.checked_add(1)?;
    elems.checked_mul(elem as u64)?.checked_add(offset as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: usize, cols: usize) -> StoreTensor {
        let values: Vec<f32> = (0..rows * cols).map(|v| v as f32).collect();
        StoreTensor::from_data("t", TensorData::new(values, [rows, cols]))
    }

    #[test]
    fn transpose_and_narrow_compose_on_views() {
        let t = grid(70, 45).transpose(); // [45, 70], strides [1, 45]
        assert!(t.is_view());
        let data = t.clone().to_data().unwrap().to_vec::<f32>().unwrap();
        for c in 0..45 {
            for r in 0..70 {
                assert_eq!(data[c * 70 + r], (r * 45 + c) as f32);
            }
        }
        let part = t.narrow(0, 10, 5).narrow(1, 3, 2); // rows 10..15, cols 3..5
        let data = part.to_data().unwrap().to_vec::<f32>().unwrap();
        let expected: Vec<f32> = (10..15)
            .flat_map(|c| (3..5).map(move |r| (r * 45 + c) as f32))
            .collect();
        assert_eq!(data, expected);
    }

    #[test]
    fn sizes_are_checked_not_wrapped() {
        let lazy = |shape: Vec<usize>| {
            StoreTensor::lazy("w", DType::F32, shape, || {
                unreachable!("sizes read no data")
            })
        };
        let t = lazy(vec![3, 0, 1 << 62]);
        assert_eq!((t.num_elements(), t.byte_len()), (0, 0));
        assert_eq!(lazy(vec![2, 3]).byte_len(), 24);
        // 2^62 elements fit; their 2^64 bytes wrapped to 0 before.
        let msg = std::panic::catch_unwind(|| lazy(vec![1 << 31, 1 << 31]).byte_len())
            .unwrap_err()
            .downcast::<String>()
            .unwrap();
        assert!(
            msg.starts_with("tensor `w`: shape [2147483648, 2147483648] (f32) needs more bytes"),
            "{msg}"
        );
        let msg = std::panic::catch_unwind(|| lazy(vec![1 << 40, 1 << 40]).num_elements())
            .unwrap_err()
            .downcast::<String>()
            .unwrap();
        assert!(msg.contains("has more elements than fit in isize"), "{msg}");
    }

    #[test]
    fn lazy_transforms_compose() {
        let t = grid(3, 2).cast(DType::F64).transpose().narrow(0, 1, 1);
        assert!(!t.is_view());
        assert_eq!(t.dtype(), DType::F64);
        assert_eq!(
            t.to_data().unwrap().to_vec::<f64>().unwrap(),
            [1.0, 3.0, 5.0]
        );
    }

    #[test]
    fn views_outside_the_buffer_are_refused() {
        let buffer = Arc::new(Buffer::new("f", BufferBytes::Static(&[0; 16])));
        let view = |offset, bounds, strides| {
            StoreTensor::view(
                "v".into(),
                DType::F32,
                vec![2, 2],
                buffer.clone(),
                bounds,
                offset,
                strides,
            )
        };
        assert!(view(0, 0..16, vec![2, 1]).is_ok());
        let err = view(4, 0..16, vec![2, 1]);
        assert!(matches!(
            err,
            Err(StoreError::OutOfBounds {
                needed: 20,
                available: 16,
                ..
            })
        ));
        // Inside the buffer, but past the tensor's own storage.
        assert!(view(0, 0..12, vec![2, 1]).is_err());
        assert!(view(0, 4..16, vec![2, 1]).is_err());
        assert!(view(0, 0..16, vec![usize::MAX, 1]).is_err());
    }

    #[test]
    fn bool_bytes_are_normalized() {
        let buffer = Arc::new(Buffer::new("f", BufferBytes::Static(&[0, 7, 1, 255])));
        let t = StoreTensor::contiguous(
            "b".into(),
            DType::Bool(BoolStore::Native),
            vec![4],
            buffer,
            0..4,
        )
        .unwrap();
        assert_eq!(
            t.to_data().unwrap().to_vec::<bool>().unwrap(),
            [false, true, true, true]
        );
    }
}
