//! [`Bytes`]: the owned, 64-byte-aligned buffer behind every tensor.
//!
//! 64 bytes covers a cache line and the widest SIMD registers, and, more
//! importantly here, every primitive element type. Because the start of the
//! buffer is always that aligned, reinterpreting it as `&[f32]`, `&[u64]`,
//! ... can never fail on alignment, only on length.
#![allow(unsafe_code)]

use alloc::alloc::{Layout, alloc, alloc_zeroed, dealloc, handle_alloc_error};
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};
use core::ptr::NonNull;

use bytemuck::Pod;
use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Owned, 64-byte-aligned, heap-allocated bytes.
///
/// Cloning copies the contents. An empty buffer allocates nothing.
pub struct Bytes {
    // Points to `len` initialised bytes allocated with `Self::layout(len)`,
    // or is a dangling pointer aligned to `ALIGN` when `len == 0`.
    ptr: NonNull<u8>,
    len: usize,
    // Tells the compiler we own the bytes (auto traits, variance).
    _owns: PhantomData<[u8]>,
}

#[repr(C, align(64))]
struct AlignMarker([u8; 64]);

// SAFETY: `Bytes` uniquely owns its allocation, like `Vec<u8>`; no interior
// mutability or shared ownership exists, so moving or sharing it across
// threads is as safe as for `Vec<u8>`.
unsafe impl Send for Bytes {}
// SAFETY: see `Send`; `&Bytes` only gives out `&[u8]`.
unsafe impl Sync for Bytes {}

impl Bytes {
    /// Alignment in bytes of the start of every buffer.
    pub const ALIGN: usize = 64;

    fn layout(len: usize) -> Layout {
        Layout::from_size_align(len, Self::ALIGN).expect("buffer size overflows isize")
    }

    fn dangling() -> NonNull<u8> {
        NonNull::<AlignMarker>::dangling().cast()
    }

    fn allocate(len: usize, zeroed: bool) -> Self {
        if len == 0 {
            return Self {
                ptr: Self::dangling(),
                len,
                _owns: PhantomData,
            };
        }
        let layout = Self::layout(len);
        // SAFETY: `layout` has a non-zero size (checked above).
        let raw = unsafe {
            if zeroed {
                alloc_zeroed(layout)
            } else {
                alloc(layout)
            }
        };
        let ptr = NonNull::new(raw).unwrap_or_else(|| handle_alloc_error(layout));
        Self {
            ptr,
            len,
            _owns: PhantomData,
        }
    }

    /// A buffer of `len` zero bytes.
    pub fn zeroed(len: usize) -> Self {
        Self::allocate(len, true)
    }

    /// Copy a byte slice into a new aligned buffer.
    pub fn from_slice(bytes: &[u8]) -> Self {
        let out = Self::allocate(bytes.len(), false);
        if !bytes.is_empty() {
            // SAFETY: `out` owns `bytes.len()` writable bytes that cannot
            // overlap the borrowed input; afterwards all are initialised.
            unsafe {
                core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.ptr.as_ptr(), bytes.len());
            }
        }
        out
    }

    /// Take the contents of a `Vec<u8>`.
    ///
    /// The data is copied because a `Vec<u8>` is only 1-byte aligned and
    /// cannot be deallocated with a different layout.
    pub fn from_vec(bytes: Vec<u8>) -> Self {
        Self::from_slice(&bytes)
    }

    /// Copy plain-old-data elements into a new aligned buffer.
    pub fn from_elems<E: Pod>(elems: Vec<E>) -> Self {
        Self::from_slice(bytemuck::cast_slice(&elems))
    }

    /// Number of bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes as a slice.
    pub fn as_slice(&self) -> &[u8] {
        self
    }

    /// View the buffer as a slice of `E`.
    ///
    /// # Panics
    /// If `E` is zero-sized, aligned to more than [`Bytes::ALIGN`], or the
    /// length is not a multiple of its size.
    pub fn as_slice_of<E: Pod>(&self) -> &[E] {
        check_elem::<E>(self.len);
        bytemuck::cast_slice(self)
    }

    /// Mutable counterpart of [`Bytes::as_slice_of`].
    ///
    /// # Panics
    /// Same conditions as [`Bytes::as_slice_of`].
    pub fn as_mut_slice_of<E: Pod>(&mut self) -> &mut [E] {
        check_elem::<E>(self.len);
        bytemuck::cast_slice_mut(self)
    }

    /// Copy the contents out as elements of `E`.
    ///
    /// # Panics
    /// Same conditions as [`Bytes::as_slice_of`].
    pub fn to_vec_of<E: Pod>(&self) -> Vec<E> {
        self.as_slice_of::<E>().to_vec()
    }
}

fn check_elem<E>(len: usize) {
    let size = core::mem::size_of::<E>();
    assert!(size > 0, "cannot view bytes as a zero-sized type");
    assert!(
        core::mem::align_of::<E>() <= Bytes::ALIGN,
        "element alignment exceeds Bytes::ALIGN"
    );
    assert!(
        len.is_multiple_of(size),
        "byte length {len} is not a multiple of the element size {size}"
    );
}

impl Drop for Bytes {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: non-empty buffers were allocated by `allocate` with
            // exactly this layout and are freed only here.
            unsafe { dealloc(self.ptr.as_ptr(), Self::layout(self.len)) };
        }
    }
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` is valid for `len` initialised bytes (or dangling and
        // aligned with `len == 0`), and the borrow is tied to `self`.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`; `&mut self` guarantees exclusive access.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Clone for Bytes {
    fn clone(&self) -> Self {
        Self::from_slice(self)
    }
}

impl Default for Bytes {
    fn default() -> Self {
        Self::zeroed(0)
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Bytes {}

impl fmt::Debug for Bytes {
    // Tensors can be gigabytes; printing a short prefix keeps panics and
    // logs readable.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 16;
        write!(
            f,
            "Bytes {{ len: {}, data: {:?}",
            self.len,
            &self[..self.len.min(SHOWN)]
        )?;
        if self.len > SHOWN {
            f.write_str("..")?;
        }
        f.write_str(" }")
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(bytes: Vec<u8>) -> Self {
        Self::from_vec(bytes)
    }
}

impl From<&[u8]> for Bytes {
    fn from(bytes: &[u8]) -> Self {
        Self::from_slice(bytes)
    }
}

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_bytes(BytesVisitor)
    }
}

struct BytesVisitor;

impl<'de> Visitor<'de> for BytesVisitor {
    type Value = Bytes;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a byte array")
    }

    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
        Ok(Bytes::from_slice(v))
    }

    // Self-describing text formats such as JSON encode bytes as a sequence.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Bytes, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(byte) = seq.next_element::<u8>()? {
            out.push(byte);
        }
        Ok(Bytes::from_vec(out))
    }
}
