//! Bulk number arrays and RFC 8746 typed arrays over the library's bulk
//! readers (`cbor_reader_read_*_array`, `cbor_node_read_*_array`), its
//! typed-array reader and writer. The element rules (any head width, any
//! float width, range checks, tag 41, tags 64..87) are the library's.
use std::marker::PhantomData;
use std::ptr::{self, NonNull};

use crate::error::{Error, Status};
use crate::ffi;

mod sealed {
    pub trait Sealed {}
}

/// An element type the bulk readers fill: `u64`, `i64` or `f64`.
///
/// * `u64`: unsigned integers (a negative one is [`Status::OutOfRange`]);
/// * `i64`: integers from -2^63 to 2^63-1;
/// * `f64`: floats of any width and integers a double holds exactly.
///
/// Anything else in the array is [`Status::TypeMismatch`] at its offset.
pub trait Number: Copy + Default + sealed::Sealed + 'static {
    #[doc(hidden)]
    /// # Safety
    /// A live reader; `out` valid for `capacity` elements (or NULL with 0).
    unsafe fn read(
        r: *mut ffi::cbor_reader,
        out: *mut Self,
        capacity: usize,
        count: &mut usize,
    ) -> i32;
    #[doc(hidden)]
    /// # Safety
    /// A live node; `out` as above.
    unsafe fn read_node(
        n: *const ffi::cbor_node,
        out: *mut Self,
        capacity: usize,
        count: &mut usize,
        error: &mut ffi::cbor_fast_error,
    ) -> i32;
    #[doc(hidden)]
    /// # Safety
    /// `a` a typed array whose data is alive; `out` as above.
    unsafe fn copy(
        a: &ffi::cbor_fast_typed_array,
        out: *mut Self,
        capacity: usize,
        bad: &mut usize,
    ) -> i32;
}

macro_rules! number {
    ($t:ty, $read:ident, $node:ident, $copy:ident) => {
        impl sealed::Sealed for $t {}
        impl Number for $t {
            unsafe fn read(
                r: *mut ffi::cbor_reader,
                out: *mut $t,
                capacity: usize,
                count: &mut usize,
            ) -> i32 {
                // SAFETY: the caller's promise.
                unsafe { ffi::$read(r, out, capacity, count) }
            }
            unsafe fn read_node(
                n: *const ffi::cbor_node,
                out: *mut $t,
                capacity: usize,
                count: &mut usize,
                error: &mut ffi::cbor_fast_error,
            ) -> i32 {
                // SAFETY: the caller's promise.
                unsafe { ffi::$node(n, out, capacity, count, error) }
            }
            unsafe fn copy(
                a: &ffi::cbor_fast_typed_array,
                out: *mut $t,
                capacity: usize,
                bad: &mut usize,
            ) -> i32 {
                // SAFETY: the caller's promise.
                unsafe { ffi::$copy(a, out, capacity, bad) }
            }
        }
    };
}
number!(
    u64,
    cbor_reader_read_uint64_array,
    cbor_node_read_uint64_array,
    cbor_typed_array_copy_uint64
);
number!(i64, cbor_reader_read_int64_array, cbor_node_read_int64_array, cbor_typed_array_copy_int64);
number!(
    f64,
    cbor_reader_read_double_array,
    cbor_node_read_double_array,
    cbor_typed_array_copy_double
);

/// The error of a failed reader call: the sticky error if that is what
/// failed, else `code` at `fallback`; offsets moved by `base` (a reader
/// that starts `base` bytes into the input).
pub(crate) fn reader_error(
    r: *mut ffi::cbor_reader,
    code: i32,
    fallback: usize,
    base: usize,
) -> Error {
    let mut e = ffi::cbor_fast_error::INIT;
    // SAFETY: live handle, valid out pointer.
    let sticky = unsafe { ffi::cbor_reader_error(r, &mut e) };
    let mut err =
        if sticky == code { Error::from_c(code, &e) } else { Error::from_code(code, fallback) };
    err.offset += base;
    err
}

/// A second reader, made on first use and kept, for reading an array ahead
/// of (or instead of) the main reader.
pub(crate) struct Scratch {
    raw: Option<NonNull<ffi::cbor_reader>>,
    /// The main reader's options, given to the scratch reader too: with its
    /// defaults it refused what the main reader was told to allow (a raised
    /// `max_container_items`: `ContainerTooLarge` at a probe the main reader
    /// would have passed).
    configured: Option<(u32, ffi::cbor_fast_decode_options)>,
    sets: Vec<(ffi::cbor_fast_option, u64)>,
}

// SAFETY: the scratch handle is used only through &mut self; no thread affinity.
unsafe impl Send for Scratch {}

impl Scratch {
    pub(crate) const fn new() -> Scratch {
        Scratch { raw: None, configured: None, sets: Vec::new() }
    }

    /// What `cbor_reader_configure` gave the main reader.
    pub(crate) fn configure(
        &mut self,
        flags: u32,
        options: &ffi::cbor_fast_decode_options,
    ) -> Result<(), Error> {
        self.configured = Some((flags, *options));
        self.sets.clear();
        match self.raw {
            Some(r) => Self::apply(r.as_ptr(), self.configured.as_ref(), &self.sets),
            None => Ok(()),
        }
    }

    /// What `cbor_reader_set` gave the main reader.
    pub(crate) fn set(&mut self, option: ffi::cbor_fast_option, value: u64) -> Result<(), Error> {
        self.sets.retain(|&(o, _)| o != option);
        self.sets.push((option, value));
        match self.raw {
            Some(r) => Self::apply(r.as_ptr(), None, &[(option, value)]),
            None => Ok(()),
        }
    }

    fn apply(
        r: *mut ffi::cbor_reader,
        configured: Option<&(u32, ffi::cbor_fast_decode_options)>,
        sets: &[(ffi::cbor_fast_option, u64)],
    ) -> Result<(), Error> {
        if let Some((flags, options)) = configured {
            // SAFETY: live handle; `options` outlives the call, which only reads it.
            let code = unsafe { ffi::cbor_reader_configure(r, *flags, options) };
            crate::error::check(code, 0)?;
        }
        for &(option, value) in sets {
            // SAFETY: live handle.
            let code = unsafe { ffi::cbor_reader_set(r, option, value) };
            crate::error::check(code, 0)?;
        }
        Ok(())
    }

    /// The scratch reader, reset over `data` (which must outlive its use).
    pub(crate) fn over(&mut self, data: &[u8]) -> Result<*mut ffi::cbor_reader, Error> {
        if let Some(r) = self.raw {
            // SAFETY: live handle; the caller keeps `data` alive while using it.
            let code =
                unsafe { ffi::cbor_reader_reset(r.as_ptr(), data.as_ptr().cast(), data.len()) };
            crate::error::check(code, 0)?;
            return Ok(r.as_ptr());
        }
        let mut raw = ptr::null_mut();
        // SAFETY: valid out pointer; NULL allocator = malloc.
        let code = unsafe {
            ffi::cbor_reader_new(data.as_ptr().cast(), data.len(), ptr::null(), &mut raw)
        };
        match NonNull::new(raw) {
            Some(r) if code == ffi::CBOR_FAST_OK => {
                self.raw = Some(r);
                Self::apply(r.as_ptr(), self.configured.as_ref(), &self.sets)?;
                Ok(r.as_ptr())
            }
            _ => {
                Err(Error::from_code(if code == 0 { ffi::CBOR_FAST_ERR_INTERNAL } else { code }, 0))
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(r) = self.raw {
            // SAFETY: owned handle, freed exactly once.
            unsafe { ffi::cbor_reader_free(r.as_ptr()) }
        }
    }
}

/// Reads the array at the start of `data` (a definite or indefinite array of
/// numbers, or a typed array) on the scratch reader `r` into a new `Vec`:
/// a definite array reserves its declared count once (which the library
/// checks against the bytes left); an indefinite one is read again with
/// twice the room until it fits (the room never exceeds the input's bytes).
/// Returns the elements and the array's end offset in `data`; errors are at
/// offsets in the whole input (`base` is where `data` starts).
pub(crate) fn read_ahead<T: Number>(
    r: *mut ffi::cbor_reader,
    data: &[u8],
    base: usize,
) -> Result<(Vec<T>, usize), Error> {
    let mut count = 0usize;
    // SAFETY: live reader over `data`; capacity 0 with NULL out.
    let code = unsafe { T::read(r, ptr::null_mut(), 0, &mut count) };
    if code == ffi::CBOR_FAST_OK {
        // SAFETY: live handle.
        return Ok((Vec::new(), unsafe { ffi::cbor_reader_offset(r) }));
    }
    if code != ffi::CBOR_FAST_ERR_BUFFER_TOO_SMALL {
        return Err(reader_error(r, code, 0, base));
    }
    let mut e = ffi::cbor_fast_error::INIT;
    // SAFETY: live handle, valid out pointer.
    let indefinite = unsafe { ffi::cbor_reader_error(r, &mut e) } != ffi::CBOR_FAST_OK;
    let mut capacity = if indefinite { data.len().min(1024) } else { count };
    loop {
        if indefinite {
            // SAFETY: live handle; `data` outlives this call.
            let rc = unsafe { ffi::cbor_reader_reset(r, data.as_ptr().cast(), data.len()) };
            crate::error::check(rc, base)?;
        }
        let mut v: Vec<T> = Vec::with_capacity(capacity);
        // SAFETY: `v` has room for `capacity` elements; the library writes at
        // most that many and reports how many in `count`.
        let code = unsafe { T::read(r, v.as_mut_ptr(), capacity, &mut count) };
        if code == ffi::CBOR_FAST_OK {
            // SAFETY: the library initialised `count` <= capacity elements.
            unsafe { v.set_len(count.min(capacity)) };
            // SAFETY: live handle.
            return Ok((v, unsafe { ffi::cbor_reader_offset(r) }));
        }
        if !(indefinite && code == ffi::CBOR_FAST_ERR_BUFFER_TOO_SMALL && capacity < data.len()) {
            return Err(reader_error(r, code, 0, base));
        }
        capacity = (capacity * 2).min(data.len());
    }
}

/// Reads a bulk array on a reader that stands before it and cannot be
/// restarted (`main`, over `input`, at `offset`): a definite array or typed
/// array is read on `main` itself in one call, after a probe on the scratch
/// reader has told its count; an indefinite one is read on the scratch
/// reader and `main` passes over it.
pub(crate) fn read_on<T: Number>(
    main: *mut ffi::cbor_reader,
    scratch: &mut Scratch,
    input: &[u8],
    offset: usize,
) -> Result<Vec<T>, Error> {
    let rest = input.get(offset..).unwrap_or(&[]);
    let probe = scratch.over(rest)?;
    let mut count = 0usize;
    // SAFETY: live scratch reader over `rest`; capacity 0 with NULL out.
    let code = unsafe { T::read(probe, ptr::null_mut(), 0, &mut count) };
    if code == ffi::CBOR_FAST_END {
        return Err(Error::new(Status::Truncated, offset));
    }
    let mut e = ffi::cbor_fast_error::INIT;
    // SAFETY: live handle, valid out pointer.
    let sticky = unsafe { ffi::cbor_reader_error(probe, &mut e) } != ffi::CBOR_FAST_OK;
    if code == ffi::CBOR_FAST_ERR_BUFFER_TOO_SMALL && sticky {
        // Indefinite: read ahead, then step over it on the main reader.
        let (v, _) = read_ahead::<T>(probe, rest, offset)?;
        // SAFETY: live handle.
        let code = unsafe { ffi::cbor_reader_skip(main) };
        if code != ffi::CBOR_FAST_OK {
            return Err(reader_error(main, code, offset, 0));
        }
        return Ok(v);
    }
    // Definite, empty, or an error: the main reader does the same, for real.
    let capacity = if code == ffi::CBOR_FAST_ERR_BUFFER_TOO_SMALL { count } else { 0 };
    let mut v: Vec<T> = Vec::with_capacity(capacity);
    // SAFETY: `v` has room for `capacity` elements.
    let code = unsafe { T::read(main, v.as_mut_ptr(), capacity, &mut count) };
    if code != ffi::CBOR_FAST_OK {
        return Err(reader_error(main, code, offset, 0));
    }
    // SAFETY: the library initialised `count` <= capacity elements.
    unsafe { v.set_len(count.min(capacity)) };
    Ok(v)
}

/// Element types of RFC 8746 typed arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TypedElement {
    Uint8,
    Uint8Clamped,
    Uint16,
    Uint32,
    Uint64,
    Sint8,
    Sint16,
    Sint32,
    Sint64,
    Float16,
    Float32,
    Float64,
    Float128,
}

impl TypedElement {
    fn from_c(e: u32) -> Option<TypedElement> {
        use TypedElement::*;
        Some(match e {
            ffi::CBOR_FAST_TYPED_UINT8 => Uint8,
            ffi::CBOR_FAST_TYPED_UINT8_CLAMPED => Uint8Clamped,
            ffi::CBOR_FAST_TYPED_UINT16 => Uint16,
            ffi::CBOR_FAST_TYPED_UINT32 => Uint32,
            ffi::CBOR_FAST_TYPED_UINT64 => Uint64,
            ffi::CBOR_FAST_TYPED_SINT8 => Sint8,
            ffi::CBOR_FAST_TYPED_SINT16 => Sint16,
            ffi::CBOR_FAST_TYPED_SINT32 => Sint32,
            ffi::CBOR_FAST_TYPED_SINT64 => Sint64,
            ffi::CBOR_FAST_TYPED_FLOAT16 => Float16,
            ffi::CBOR_FAST_TYPED_FLOAT32 => Float32,
            ffi::CBOR_FAST_TYPED_FLOAT64 => Float64,
            ffi::CBOR_FAST_TYPED_FLOAT128 => Float128,
            _ => return None,
        })
    }
}

/// An RFC 8746 typed array read from the input (tag 64..87 over a byte
/// string): the elements are a view of the input (`'a`), in the byte order
/// the tag says; [`TypedArray::to_vec`] converts them.
#[derive(Clone, Copy)]
pub struct TypedArray<'a> {
    raw: ffi::cbor_fast_typed_array,
    element: TypedElement,
    _input: PhantomData<&'a [u8]>,
}

// SAFETY: a read-only view of the input.
unsafe impl Send for TypedArray<'_> {}
unsafe impl Sync for TypedArray<'_> {}

impl<'a> TypedArray<'a> {
    pub(crate) fn from_raw(
        raw: ffi::cbor_fast_typed_array,
        at: usize,
    ) -> Result<TypedArray<'a>, Error> {
        match TypedElement::from_c(raw.element) {
            Some(element) => Ok(TypedArray { raw, element, _input: PhantomData }),
            None => Err(Error::new(Status::Internal, at)),
        }
    }

    pub fn element(&self) -> TypedElement {
        self.element
    }
    /// The tag number (64..87).
    pub fn tag(&self) -> u64 {
        self.raw.tag
    }
    /// Bytes per element: 1, 2, 4, 8 or 16.
    pub fn element_size(&self) -> usize {
        self.raw.element_size as usize
    }
    /// Whether the elements are little endian (single bytes: false).
    pub fn little_endian(&self) -> bool {
        self.raw.little_endian != 0
    }
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.raw.count
    }
    pub fn is_empty(&self) -> bool {
        self.raw.count == 0
    }
    /// Offset of the tag's head in the input.
    pub fn offset(&self) -> usize {
        self.raw.offset
    }
    /// Offset of the first element's first byte in the input.
    pub fn data_offset(&self) -> usize {
        self.raw.data_offset
    }
    /// The elements' bytes, a slice of the input.
    pub fn bytes(&self) -> &'a [u8] {
        if self.raw.count == 0 {
            return &[];
        }
        // SAFETY: the library's view of count * element_size bytes, which
        // live for 'a: the input's, or the document's joined copy
        // (`Node::joined_typed_array`, where 'a is the document's borrow).
        unsafe { std::slice::from_raw_parts(self.raw.data, self.raw.count * self.element_size()) }
    }

    /// Every element converted into `T` (host byte order): integers
    /// range-checked ([`Status::OutOfRange`]), floats only into `f64`
    /// (float128 rounded to nearest; else [`Status::TypeMismatch`]). The
    /// error is at the failing element's first byte.
    pub fn to_vec<T: Number>(&self) -> Result<Vec<T>, Error> {
        let n = self.raw.count;
        let mut v: Vec<T> = Vec::with_capacity(n);
        let mut bad = 0usize;
        // SAFETY: `v` has room for n elements; the data is alive ('a).
        let code = unsafe { T::copy(&self.raw, v.as_mut_ptr(), n, &mut bad) };
        if code != ffi::CBOR_FAST_OK {
            let at = if code == ffi::CBOR_FAST_ERR_OUT_OF_RANGE {
                self.raw.data_offset + bad * self.element_size()
            } else {
                self.raw.offset
            };
            return Err(Error::from_code(code, at));
        }
        // SAFETY: all n elements were written.
        unsafe { v.set_len(n) };
        Ok(v)
    }
}

impl std::fmt::Debug for TypedArray<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedArray")
            .field("tag", &self.raw.tag)
            .field("element", &self.element)
            .field("len", &self.raw.count)
            .field("offset", &self.raw.offset)
            .finish()
    }
}

/// A Rust element type that [`crate::Writer::typed_array`] writes as an RFC
/// 8746 typed array: `u8`, `u16`, `u32`, `u64`, `i8`, `i16`, `i32`, `i64`,
/// `f32`, `f64`.
pub trait TypedNumber: Copy + sealed::Sealed + 'static {
    #[doc(hidden)]
    const ELEMENT: u32;
}

macro_rules! typed_number {
    ($($t:ty => $e:ident),*) => {$(
        impl TypedNumber for $t {
            const ELEMENT: u32 = ffi::$e;
        }
    )*};
}
impl sealed::Sealed for u8 {}
impl sealed::Sealed for u16 {}
impl sealed::Sealed for u32 {}
impl sealed::Sealed for i8 {}
impl sealed::Sealed for i16 {}
impl sealed::Sealed for i32 {}
impl sealed::Sealed for f32 {}
typed_number!(u8 => CBOR_FAST_TYPED_UINT8, u16 => CBOR_FAST_TYPED_UINT16,
              u32 => CBOR_FAST_TYPED_UINT32, u64 => CBOR_FAST_TYPED_UINT64,
              i8 => CBOR_FAST_TYPED_SINT8, i16 => CBOR_FAST_TYPED_SINT16,
              i32 => CBOR_FAST_TYPED_SINT32, i64 => CBOR_FAST_TYPED_SINT64,
              f32 => CBOR_FAST_TYPED_FLOAT32, f64 => CBOR_FAST_TYPED_FLOAT64);
