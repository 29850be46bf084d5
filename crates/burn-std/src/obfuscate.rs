//! The [`obfuscate!`](macro@crate::obfuscate) macro: hide a concrete type behind
//! a fixed-size, non-generic wrapper.
//!
//! Backends want to store their own state (device handles, caches) inside
//! framework types without the framework naming those types or growing a
//! generic parameter, and without a heap allocation per value. The wrapper
//! stores the value inline in suitably sized and aligned raw storage; its
//! fields are private, so the inner type appears only in the constructor and
//! accessors, never in the type itself.

/// Define a struct that stores one value of a hidden type inline.
///
/// ```text
/// obfuscate! {
///     #[attributes]
///     VIS struct NAME(INNER); size = BYTES, align = ALIGN [, clone]
/// }
/// ```
///
/// * `size` and `align` must be integer literals (the alignment goes into
///   `#[repr(align(..))]`, which only accepts literals). A compile-time
///   assertion rejects an `INNER` that is larger or more aligned.
/// * The generated `new`, `get`, `get_mut` and `into_inner` are `pub(crate)`
///   in the crate that expands the macro: the wrapper can be public while its
///   contents stay private to that crate.
/// * `Drop` drops the inner value exactly once.
/// * With the trailing `clone` flag, `Clone` is implemented by cloning the
///   inner value (which then must be `Clone`). It is opt-in because copying
///   the raw storage would duplicate owned resources.
/// * `Send`, `Sync` and the other auto traits follow `INNER`'s.
/// * The expansion contains `unsafe` blocks (marked `#[allow(unsafe_code)]`),
///   so it cannot be used in a crate that *forbids* `unsafe_code`.
///
/// # Example
/// ```
/// use std::sync::Arc;
///
/// burn_std::obfuscate! {
///     /// Opaque handle to a backend cache.
///     pub struct Handle(Arc<Vec<u32>>); size = 16, align = 8, clone
/// }
///
/// let handle = Handle::new(Arc::new(vec![1, 2, 3]));
/// let copy = handle.clone();
/// assert_eq!(copy.get().len(), 3);
/// assert_eq!(Arc::strong_count(handle.get()), 2);
/// drop(copy);
/// assert_eq!(Arc::strong_count(&handle.into_inner()), 1);
/// ```
///
/// An inner type that does not fit is rejected at compile time:
/// ```compile_fail
/// burn_std::obfuscate! {
///     struct TooSmall([u64; 4]); size = 16, align = 8
/// }
/// ```
///
/// and a wrapper of a non-`Send` type is not `Send`:
/// ```compile_fail
/// burn_std::obfuscate! {
///     struct Local(std::rc::Rc<u8>); size = 8, align = 8
/// }
/// fn send<T: Send>(_: T) {}
/// send(Local::new(std::rc::Rc::new(1)));
/// ```
#[macro_export]
macro_rules! obfuscate {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident($inner:ty); size = $size:literal, align = $align:literal, clone
    ) => {
        $crate::obfuscate! {
            $(#[$meta])*
            $vis struct $name($inner); size = $size, align = $align
        }

        impl ::core::clone::Clone for $name {
            fn clone(&self) -> Self {
                Self::new(::core::clone::Clone::clone(self.get()))
            }
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident($inner:ty); size = $size:literal, align = $align:literal
    ) => {
        $(#[$meta])*
        #[repr(C, align($align))]
        $vis struct $name {
            // First field of a `repr(C)` struct: offset 0, so it inherits the
            // struct's alignment.
            storage: [::core::mem::MaybeUninit<u8>; $size],
            // Makes auto traits and drop check follow the hidden type.
            _inner: ::core::marker::PhantomData<$inner>,
        }

        const _: () = ::core::assert!(
            ::core::mem::size_of::<$inner>() <= $size
                && ::core::mem::align_of::<$inner>() <= $align,
            "obfuscate!: inner type does not fit the declared size/align"
        );

        #[allow(unsafe_code, dead_code)]
        impl $name {
            /// Store `value` inline.
            #[allow(dead_code)]
            pub(crate) fn new(value: $inner) -> Self {
                let mut this = Self {
                    storage: [::core::mem::MaybeUninit::uninit(); $size],
                    _inner: ::core::marker::PhantomData,
                };
                // SAFETY: `storage` sits at offset 0 of a struct aligned to
                // `$align` and is `$size` bytes long; the const assertion
                // above guarantees both suffice for the inner type. It is
                // uninitialised, so nothing is overwritten without a drop.
                unsafe { this.storage.as_mut_ptr().cast::<$inner>().write(value) };
                this
            }

            /// Borrow the stored value.
            #[allow(dead_code)]
            pub(crate) fn get(&self) -> &$inner {
                // SAFETY: `new` initialised the storage with a valid, suitably
                // aligned value that lives until drop or `into_inner`.
                unsafe { &*self.storage.as_ptr().cast::<$inner>() }
            }

            /// Mutably borrow the stored value.
            #[allow(dead_code)]
            pub(crate) fn get_mut(&mut self) -> &mut $inner {
                // SAFETY: as in `get`; `&mut self` makes the borrow unique.
                unsafe { &mut *self.storage.as_mut_ptr().cast::<$inner>() }
            }

            /// Move the stored value out.
            #[allow(dead_code)]
            pub(crate) fn into_inner(self) -> $inner {
                let this = ::core::mem::ManuallyDrop::new(self);
                // SAFETY: the storage holds a valid value (see `get`).
                // `ManuallyDrop` stops our `Drop` from running, so the value
                // is moved out exactly once and never dropped twice.
                unsafe { this.storage.as_ptr().cast::<$inner>().read() }
            }
        }

        #[allow(unsafe_code)]
        impl ::core::ops::Drop for $name {
            fn drop(&mut self) {
                // SAFETY: the storage holds a valid value (see `get`), and
                // `drop` runs at most once and never after `into_inner`.
                unsafe {
                    ::core::ptr::drop_in_place(self.storage.as_mut_ptr().cast::<$inner>())
                };
            }
        }
    };
}
