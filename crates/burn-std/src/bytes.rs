//! [`Bytes`]: the owned, 64-byte-aligned buffer behind every tensor.
//!
//! 64 bytes covers a cache line and the widest SIMD registers, and, more
//! importantly here, every primitive element type. Because the start of the
//! buffer is always that aligned, reinterpreting it as `&[f32]`, `&[u64]`,
//! ... can never fail on alignment, only on length.
//!
//! ## Recycling large buffers
//!
//! A fresh allocation of many megabytes is a new mapping from the OS: every
//! 4 KiB page faults on first touch and is zeroed by the kernel, and the
//! allocator zeroes it once more for [`Bytes::zeroed`]. A backend that
//! writes a 64 MiB output per op spends a fifth of an element-wise op
//! there. Smaller buffers are not spared either: glibc maps blocks past its
//! mmap threshold afresh and returns its heap's free top to the OS past its
//! trim threshold (128 KiB at start, both raised as it goes), so the
//! half-megabyte activations of a training step kept being faulted in again (a 784-512-512-10 MLP's forward and backward on the 2-core work
//! machine: 5.5 ms, against 3.7 ms with glibc's thresholds raised by
//! `GLIBC_TUNABLES`). Buffers made by [`Bytes::for_overwrite`] and
//! [`Bytes::zeroed_recycled`] (kernel outputs) are therefore handed, when
//! dropped, to a bounded cache (with `std`, from [`RECYCLE_MIN`] bytes up:
//! at most 64 buffers and 256 MiB), and the next such buffer of the same
//! size takes one back with its pages already mapped (`zeroed_recycled`
//! then clears it). Every other constructor allocates and frees exactly as
//! before, so memory accounting of data that is not a kernel output is
//! unchanged; [`Bytes::release_recycled`] empties the cache.
//!
//! ## When the allocator says no
//!
//! A buffer is sized from a shape a user chose, so a refused allocation is
//! an input error, not a reason to abort the process (what `Vec` and
//! `handle_alloc_error` do). [`Bytes::try_for_shape`] and
//! [`Bytes::try_copy_for_shape`] compute the size with
//! [`Shape::try_num_bytes`] and report either failure as a [`SizeError`]
//! naming the shape and dtype; the constructors that take a bare length
//! panic (catchably) instead of aborting.
#![allow(unsafe_code)]

use alloc::alloc::{Layout, alloc, alloc_zeroed, dealloc};
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ops::{Deref, DerefMut};
use core::ptr::NonNull;

use bytemuck::Pod;
use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{DType, Shape, SizeError};

/// How the bytes of a new buffer start out (see [`Bytes::try_for_shape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferInit {
    /// All zero, freshly allocated: [`Bytes::zeroed`].
    Zeroed,
    /// All zero, possibly a cleared recycled buffer: [`Bytes::zeroed_recycled`].
    ZeroedRecycled,
    /// Unspecified, for a caller that writes every byte: [`Bytes::for_overwrite`].
    Overwrite,
}

/// Owned, 64-byte-aligned, heap-allocated bytes.
///
/// Cloning copies the contents. An empty buffer allocates nothing.
pub struct Bytes {
    // Points to `len` initialised bytes allocated with `Self::layout(len)`,
    // or is a dangling pointer aligned to `ALIGN` when `len == 0`.
    ptr: NonNull<u8>,
    len: usize,
    // Made by `for_overwrite`: goes to the recycling cache when dropped.
    recycle: bool,
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
        Self::try_layout(len).expect("buffer size overflows isize")
    }

    fn try_layout(len: usize) -> Option<Layout> {
        Layout::from_size_align(len, Self::ALIGN).ok()
    }

    fn dangling() -> NonNull<u8> {
        NonNull::<AlignMarker>::dangling().cast()
    }

    /// Panics (never aborts) when the allocator refuses: see the
    /// [module docs](self).
    #[track_caller]
    fn allocate(len: usize, zeroed: bool) -> Self {
        Self::try_allocate(len, zeroed)
            .unwrap_or_else(|| panic!("cannot allocate a buffer of {len} bytes"))
    }

    /// `None` when `len` exceeds what a layout can describe or the allocator
    /// refuses.
    fn try_allocate(len: usize, zeroed: bool) -> Option<Self> {
        if len == 0 {
            return Some(Self {
                ptr: Self::dangling(),
                len,
                recycle: false,
                _owns: PhantomData,
            });
        }
        let layout = Self::try_layout(len)?;
        // SAFETY: `layout` has a non-zero size (checked above).
        let raw = unsafe {
            if zeroed {
                alloc_zeroed(layout)
            } else {
                alloc(layout)
            }
        };
        Some(Self {
            ptr: NonNull::new(raw)?,
            len,
            recycle: false,
            _owns: PhantomData,
        })
    }

    /// A buffer for a dense tensor of `shape` and `dtype`, started as `init`
    /// says, or a [`SizeError`] when the byte count overflows or the
    /// allocator refuses. The one fallible path from a shape to memory.
    ///
    /// ```
    /// use burn_std::{BufferInit, Bytes, DType, Shape, SizeError};
    ///
    /// let ok = Bytes::try_for_shape(&Shape::new([2, 3]), DType::F32, BufferInit::Zeroed).unwrap();
    /// assert_eq!(ok.len(), 24);
    /// // 2^44 bytes: more than this machine's memory, refused without aborting.
    /// let err = Bytes::try_for_shape(&Shape::new([1 << 20, 1 << 22]), DType::F32, BufferInit::Zeroed);
    /// assert!(matches!(err, Err(SizeError::Alloc { bytes, .. }) if bytes == 1 << 44));
    /// ```
    pub fn try_for_shape(shape: &Shape, dtype: DType, init: BufferInit) -> Result<Self, SizeError> {
        let len = shape.try_num_bytes(dtype)?;
        let bytes = match init {
            BufferInit::Zeroed => Self::try_allocate(len, true),
            BufferInit::ZeroedRecycled => Self::try_recycled(len, Some(0)),
            BufferInit::Overwrite => {
                Self::try_recycled(len, cfg!(debug_assertions).then_some(0xFF))
            }
        };
        bytes.ok_or_else(|| SizeError::Alloc {
            bytes: len,
            shape: shape.clone(),
            dtype,
        })
    }

    /// A copy of `bytes`, the data of a tensor of `shape` and `dtype` (named
    /// in the error when the allocator refuses).
    pub fn try_copy_for_shape(
        bytes: &[u8],
        shape: &Shape,
        dtype: DType,
    ) -> Result<Self, SizeError> {
        let out = Self::try_allocate(bytes.len(), false).ok_or_else(|| SizeError::Alloc {
            bytes: bytes.len(),
            shape: shape.clone(),
            dtype,
        })?;
        Ok(out.filled_from(bytes))
    }

    /// A buffer of `len` zero bytes.
    pub fn zeroed(len: usize) -> Self {
        Self::allocate(len, true)
    }

    /// A buffer of `len` initialised bytes of unspecified value, for a
    /// caller that overwrites all of them (a kernel writing its output).
    ///
    /// The bytes are zeros, or the stale contents of a recycled buffer of
    /// the same length (see the [module docs](self)); in debug builds a
    /// recycled buffer is filled with `0xFF` first, so a kernel that skips
    /// an element shows NaNs or -1s in tests instead of plausible values.
    /// The buffer is recycled again when dropped.
    pub fn for_overwrite(len: usize) -> Self {
        Self::recycled(len, cfg!(debug_assertions).then_some(0xFF))
    }

    /// A buffer of `len` zero bytes for a kernel output: a recycled buffer
    /// of the same length, cleared, or a fresh zeroed one (see the
    /// [module docs](self)). It is recycled again when dropped.
    pub fn zeroed_recycled(len: usize) -> Self {
        Self::recycled(len, Some(0))
    }

    /// A recycled buffer of `len` bytes filled with `refill` (else left as
    /// it was), or a fresh zeroed one; recycled when dropped.
    #[track_caller]
    fn recycled(len: usize, refill: Option<u8>) -> Self {
        Self::try_recycled(len, refill)
            .unwrap_or_else(|| panic!("cannot allocate a buffer of {len} bytes"))
    }

    fn try_recycled(len: usize, refill: Option<u8>) -> Option<Self> {
        let mut out = match recycler::take(len) {
            Some(ptr) => {
                let mut out = Self {
                    ptr,
                    len,
                    recycle: false,
                    _owns: PhantomData,
                };
                if let Some(byte) = refill {
                    out.fill(byte);
                }
                out
            }
            None => Self::try_allocate(len, true)?,
        };
        out.recycle = len >= RECYCLE_MIN;
        Some(out)
    }

    /// Frees every buffer the recycling cache holds (see the
    /// [module docs](self)); returns how many bytes it held.
    pub fn release_recycled() -> usize {
        recycler::release()
    }

    /// Copy a byte slice into a new aligned buffer.
    pub fn from_slice(bytes: &[u8]) -> Self {
        Self::allocate(bytes.len(), false).filled_from(bytes)
    }

    /// `self`, freshly allocated with `bytes.len()` uninitialised bytes,
    /// with `bytes` copied in.
    fn filled_from(self, bytes: &[u8]) -> Self {
        let out = self;
        debug_assert_eq!(out.len, bytes.len());
        if !bytes.is_empty() {
            // SAFETY: `out` owns `bytes.len()` writable bytes that cannot
            // overlap the borrowed input; afterwards all are initialised.
            unsafe {
                core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.ptr.as_ptr(), bytes.len());
            }
        }
        out
    }

    /// A buffer of `len` bytes written by `fill`, for a caller that writes
    /// every byte anyway (a copy out of a mapped file). Unlike
    /// [`zeroed`](Self::zeroed), no byte is written and, for a large
    /// buffer, no page is touched before `fill` runs, so `fill` may first
    /// advise the kernel about the pages (huge pages) and then write them
    /// from several threads, each faulting in its own share.
    ///
    /// # Safety
    /// `fill` must initialise all `len` bytes before it returns. (If it
    /// panics instead, the buffer is freed without being read.)
    pub unsafe fn from_uninit_fill(len: usize, fill: impl FnOnce(&mut [MaybeUninit<u8>])) -> Self {
        let out = Self::allocate(len, false);
        // SAFETY: `allocate` gave `len` writable bytes at `ptr` (a dangling,
        // aligned pointer when `len == 0`, valid for an empty slice) that
        // nothing else refers to; as `MaybeUninit` they need no
        // initialisation. The slice ends with this call, before `out` is
        // returned, and the caller's contract makes every byte initialised.
        let bytes = unsafe {
            core::slice::from_raw_parts_mut(out.ptr.as_ptr().cast::<MaybeUninit<u8>>(), len)
        };
        fill(bytes);
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
        if self.len > 0 && !(self.recycle && recycler::put(self.ptr, self.len)) {
            // SAFETY: non-empty buffers were allocated by `allocate` with
            // exactly this layout and are freed only here (or by the
            // recycler, which then owns them).
            unsafe { dealloc(self.ptr.as_ptr(), Self::layout(self.len)) };
        }
    }
}

/// Buffers from this many bytes up are recycled (64 KiB: smaller ones come
/// from the allocator's bins, which stay mapped).
pub const RECYCLE_MIN: usize = 1 << 16;

/// The cache of freed [`Bytes::for_overwrite`] buffers. Only buffers of at
/// least [`RECYCLE_MIN`] bytes reach it, so the lock is taken once per
/// megabyte-sized allocation, never on the small-tensor path.
#[cfg(feature = "std")]
mod recycler {
    use alloc::vec::Vec;
    use core::ptr::NonNull;
    use std::sync::{Mutex, MutexGuard};

    use super::{Bytes, RECYCLE_MIN, dealloc};

    /// Most buffers held.
    pub(super) const MAX_BUFFERS: usize = 64;
    /// Most bytes held.
    const MAX_BYTES: usize = 256 << 20;

    /// A freed buffer: `len` initialised bytes allocated with
    /// `Bytes::layout(len)`, owned by the cache.
    struct Free {
        ptr: NonNull<u8>,
        len: usize,
    }

    // SAFETY: a `Free` uniquely owns its allocation, as `Bytes` does.
    unsafe impl Send for Free {}

    /// Oldest first.
    static CACHE: Mutex<Vec<Free>> = Mutex::new(Vec::new());

    fn cache() -> MutexGuard<'static, Vec<Free>> {
        // The list stays consistent even if a holder panicked.
        CACHE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The most recently freed buffer of exactly `len` bytes, if any.
    pub(super) fn take(len: usize) -> Option<NonNull<u8>> {
        if len < RECYCLE_MIN {
            return None;
        }
        let mut cache = cache();
        let pos = cache.iter().rposition(|f| f.len == len)?;
        Some(cache.remove(pos).ptr)
    }

    /// Keeps a buffer of `len` bytes at `ptr` for reuse; `false` if it is too
    /// large to keep (the caller then frees it). Evicts the oldest buffers
    /// past the bounds.
    pub(super) fn put(ptr: NonNull<u8>, len: usize) -> bool {
        if !(RECYCLE_MIN..=MAX_BYTES).contains(&len) {
            return false;
        }
        cache().push(Free { ptr, len });
        loop {
            // One eviction per lock, freed outside it.
            let evicted = {
                let mut cache = cache();
                let held: usize = cache.iter().map(|f| f.len).sum();
                if cache.len() > MAX_BUFFERS || held > MAX_BYTES {
                    Some(cache.remove(0))
                } else {
                    None
                }
            };
            match evicted {
                Some(f) => free(f),
                None => return true,
            }
        }
    }

    pub(super) fn release() -> usize {
        let all = core::mem::take(&mut *cache());
        let held = all.iter().map(|f| f.len).sum();
        all.into_iter().for_each(free);
        held
    }

    fn free(f: Free) {
        // SAFETY: the cache owned this allocation, made with this layout.
        unsafe { dealloc(f.ptr.as_ptr(), Bytes::layout(f.len)) };
    }
}

/// Without `std` there is no lock to guard a shared cache: nothing is kept.
#[cfg(not(feature = "std"))]
mod recycler {
    use core::ptr::NonNull;

    #[allow(dead_code)]
    pub(super) const MAX_BUFFERS: usize = 0;

    pub(super) fn take(_len: usize) -> Option<NonNull<u8>> {
        None
    }

    pub(super) fn put(_ptr: NonNull<u8>, _len: usize) -> bool {
        false
    }

    pub(super) fn release() -> usize {
        0
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

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn from_uninit_fill_keeps_what_fill_wrote() {
        for len in [0, 3, 1 << 20] {
            // SAFETY: the closure writes every byte.
            let bytes = unsafe {
                Bytes::from_uninit_fill(len, |out| {
                    for (i, b) in out.iter_mut().enumerate() {
                        b.write(i as u8);
                    }
                })
            };
            assert_eq!(bytes.len(), len);
            assert_eq!(bytes.as_ptr() as usize % Bytes::ALIGN, 0);
            assert!(bytes.iter().enumerate().all(|(i, &b)| b == i as u8));
        }
    }

    /// One test for the whole recycler: it is process-wide state, and test
    /// functions run in parallel. The sizes are used by no other test.
    #[test]
    fn for_overwrite_recycles_only_its_own_large_buffers() {
        const LEN: usize = RECYCLE_MIN + 3 * 64;

        // A dropped `for_overwrite` buffer comes back for the same length,
        // with its bytes initialised (0xFF in debug, the old ones otherwise).
        let mut first = Bytes::for_overwrite(LEN);
        first.fill(7);
        let ptr = first.as_ptr();
        drop(first);
        let again = Bytes::for_overwrite(LEN);
        assert_eq!(again.as_ptr(), ptr, "the freed buffer is reused");
        let expected = if cfg!(debug_assertions) { 0xFF } else { 7 };
        assert!(again.iter().all(|&b| b == expected));
        // Another length does not take it.
        drop(again);
        let other = Bytes::for_overwrite(LEN + 64);
        assert_ne!(other.as_ptr(), ptr);
        assert!(other.iter().all(|&b| b == 0), "a fresh buffer is zeroed");
        drop(other);

        // `zeroed` neither takes from the cache nor gives back to it.
        let zeroed = Bytes::zeroed(LEN);
        assert!(zeroed.iter().all(|&b| b == 0));
        drop(zeroed);

        // `zeroed_recycled` takes a dirty buffer back cleared, and gives it
        // back when dropped.
        let mut dirty = Bytes::for_overwrite(LEN);
        dirty.fill(9);
        let dirty_ptr = dirty.as_ptr();
        drop(dirty);
        let clean = Bytes::zeroed_recycled(LEN);
        assert_eq!(clean.as_ptr(), dirty_ptr, "the freed buffer is reused");
        assert!(clean.iter().all(|&b| b == 0), "and cleared");
        drop(clean);
        assert_eq!(
            Bytes::for_overwrite(LEN).as_ptr(),
            dirty_ptr,
            "and kept again"
        );

        // Small buffers are not kept; releasing frees what is held.
        drop(Bytes::for_overwrite(RECYCLE_MIN - 64));
        let held = Bytes::release_recycled();
        assert!(held >= 2 * LEN + 64, "released {held} bytes");
        assert_eq!(Bytes::release_recycled(), 0);
        let fresh = Bytes::for_overwrite(LEN);
        assert!(fresh.iter().all(|&b| b == 0), "nothing left to recycle");

        // The cache keeps at most `MAX_BUFFERS` buffers, evicting the oldest.
        drop(fresh);
        let max = recycler::MAX_BUFFERS;
        let many: Vec<Bytes> = (0..max + 2).map(|_| Bytes::for_overwrite(LEN)).collect();
        let ptrs: Vec<*const u8> = many.iter().map(|b| b.as_ptr()).collect();
        drop(many);
        let kept: Vec<Bytes> = (0..max).map(|_| Bytes::for_overwrite(LEN)).collect();
        for b in &kept {
            assert!(ptrs[2..].contains(&b.as_ptr()), "the newest {max} are kept");
        }
        drop(kept);
        Bytes::release_recycled();
    }
}
