//! `Writer`: the library's push writer into a buffer it owns.
use std::os::raw::{c_char, c_int, c_void};
use std::ptr::{self, NonNull};

use crate::document::Document;
use crate::error::{Error, Status};
use crate::ffi;
use crate::value::Value;

/// Float width on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FloatWidth {
    /// The shortest width that keeps the value exactly (preferred serialization).
    #[default]
    Shortest,
    Half,
    Single,
    Double,
}

impl FloatWidth {
    fn to_c(self) -> ffi::cbor_fast_float_width {
        match self {
            FloatWidth::Shortest => ffi::CBOR_FAST_FLOAT_SHORTEST,
            FloatWidth::Half => ffi::CBOR_FAST_FLOAT_HALF,
            FloatWidth::Single => ffi::CBOR_FAST_FLOAT_SINGLE,
            FloatWidth::Double => ffi::CBOR_FAST_FLOAT_DOUBLE,
        }
    }
}

/// A push writer (preferred serialization: shortest integer and length heads)
/// into a growable buffer owned by the library handle.
///
/// Every call checks the structure (definite counts, map pairs, chunks); the
/// first error is sticky. An `Error` from a writer has `offset` = bytes written
/// so far.
///
/// ```
/// let mut w = cbor_fast::Writer::new().unwrap();
/// w.array(2).unwrap();
/// w.uint(1).unwrap();
/// w.text("a").unwrap();
/// w.end().unwrap();
/// assert_eq!(w.finish().unwrap(), &[0x82, 0x01, 0x61, b'a']);
/// ```
pub struct Writer {
    raw: NonNull<ffi::cbor_writer>,
}

// SAFETY: the handle owns its buffer and stack and has no thread affinity; it
// is only ever used through &mut self (or &self for a size read), so moving it
// to another thread is fine. Not Sync: no shared use is needed.
unsafe impl Send for Writer {}

impl Writer {
    /// A writer with an empty growable buffer (malloc'd by the library).
    pub fn new() -> Result<Writer, Error> {
        let mut raw = ptr::null_mut();
        // SAFETY: `raw` is a valid out pointer; NULL allocator = malloc.
        let code = unsafe { ffi::cbor_writer_new(ptr::null(), &mut raw) };
        match NonNull::new(raw) {
            Some(raw) if code == ffi::CBOR_FAST_OK => Ok(Writer { raw }),
            _ => {
                Err(Error::from_code(if code == 0 { ffi::CBOR_FAST_ERR_INTERNAL } else { code }, 0))
            }
        }
    }

    pub(crate) fn as_ptr(&mut self) -> *mut ffi::cbor_writer {
        self.raw.as_ptr()
    }

    /// Writes `data` as an RFC 8746 typed array: the tag for the element type
    /// in this host's byte order (little endian on x86-64 and AArch64: tags
    /// 64, 69, 70, 71, 72, 77, 78, 79, 85, 86), then a byte string of the
    /// elements as they lie in memory (one copy, at memcpy speed).
    ///
    /// ```
    /// let mut w = cbor_fast::Writer::new().unwrap();
    /// w.typed_array(&[1.5f64]).unwrap();
    /// # if cfg!(target_endian = "little") {
    /// assert_eq!(w.finish().unwrap(), [0xd8, 0x56, 0x48, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f]);
    /// # }
    /// ```
    pub fn typed_array<T: crate::TypedNumber>(&mut self, data: &[T]) -> Result<(), Error> {
        let little = i32::from(cfg!(target_endian = "little"));
        // SAFETY: live handle; `data` holds data.len() elements of T, whose
        // size the element type names.
        let code = unsafe {
            ffi::cbor_writer_write_typed_array(
                self.raw.as_ptr(),
                T::ELEMENT,
                little,
                data.as_ptr().cast(),
                data.len(),
            )
        };
        self.check(code)
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        // SAFETY: the handle is live.
        unsafe { ffi::cbor_writer_size(self.raw.as_ptr()) }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn check(&mut self, code: i32) -> Result<(), Error> {
        if code == ffi::CBOR_FAST_OK { Ok(()) } else { Err(Error::from_code(code, self.len())) }
    }

    pub fn uint(&mut self, v: u64) -> Result<(), Error> {
        // SAFETY (this and the following item calls): live handle, and every
        // pointer/size pair comes from a Rust slice.
        let c = unsafe { ffi::cbor_writer_uint(self.as_ptr(), v) };
        self.check(c)
    }

    pub fn int(&mut self, v: i64) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_int(self.as_ptr(), v) };
        self.check(c)
    }

    /// The integer `-1 - n` (`n = u64::MAX` gives -2^64).
    pub fn negative(&mut self, n: u64) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_negative(self.as_ptr(), n) };
        self.check(c)
    }

    /// Integer of any size: the big-endian `magnitude`, or `-1 - magnitude`.
    /// Written as a plain integer when it fits 64 bits, else as tag 2/3.
    pub fn bignum(&mut self, negative: bool, magnitude: &[u8]) -> Result<(), Error> {
        let c = unsafe {
            ffi::cbor_writer_bignum(
                self.as_ptr(),
                magnitude.as_ptr(),
                magnitude.len(),
                c_int::from(negative),
            )
        };
        self.check(c)
    }

    /// Byte string (or a chunk of an open indefinite byte string).
    pub fn bytes(&mut self, data: &[u8]) -> Result<(), Error> {
        let c = unsafe {
            ffi::cbor_writer_bytes(self.as_ptr(), data.as_ptr() as *const c_void, data.len())
        };
        self.check(c)
    }

    /// Text string (or a chunk of an open indefinite text string).
    pub fn text(&mut self, s: &str) -> Result<(), Error> {
        let c =
            unsafe { ffi::cbor_writer_text(self.as_ptr(), s.as_ptr() as *const c_char, s.len()) };
        self.check(c)
    }

    /// Tag number; the next item is its content.
    pub fn tag(&mut self, tag: u64) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_tag(self.as_ptr(), tag) };
        self.check(c)
    }

    pub fn bool(&mut self, v: bool) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_bool(self.as_ptr(), c_int::from(v)) };
        self.check(c)
    }

    pub fn null(&mut self) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_null(self.as_ptr()) };
        self.check(c)
    }

    pub fn undefined(&mut self) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_undefined(self.as_ptr()) };
        self.check(c)
    }

    /// Simple value; 24..=31 fail with `InvalidArgument` (not sticky).
    pub fn simple(&mut self, v: u8) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_simple(self.as_ptr(), v) };
        self.check(c)
    }

    /// Float in the shortest exact width.
    pub fn float(&mut self, v: f64) -> Result<(), Error> {
        self.float_width(v, FloatWidth::Shortest)
    }

    /// Float in a forced width (rounded to nearest even) or the shortest.
    pub fn float_width(&mut self, v: f64, width: FloatWidth) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_float(self.as_ptr(), v, width.to_c()) };
        self.check(c)
    }

    /// Array of `count` items; close with [`Writer::end`].
    pub fn array(&mut self, count: u64) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_array(self.as_ptr(), count) };
        self.check(c)
    }

    pub fn array_indefinite(&mut self) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_array_indefinite(self.as_ptr()) };
        self.check(c)
    }

    /// Map of `pairs` key/value pairs; close with [`Writer::end`].
    pub fn map(&mut self, pairs: u64) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_map(self.as_ptr(), pairs) };
        self.check(c)
    }

    pub fn map_indefinite(&mut self) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_map_indefinite(self.as_ptr()) };
        self.check(c)
    }

    pub fn bytes_indefinite(&mut self) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_bytes_indefinite(self.as_ptr()) };
        self.check(c)
    }

    pub fn text_indefinite(&mut self) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_text_indefinite(self.as_ptr()) };
        self.check(c)
    }

    /// Closes the innermost container or indefinite string.
    pub fn end(&mut self) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_end(self.as_ptr()) };
        self.check(c)
    }

    /// Writes a whole [`Value`] (preferred serialization), without recursion.
    pub fn value(&mut self, value: &Value) -> Result<(), Error> {
        /// An open container: the children not yet written.
        enum Frame<'v> {
            Array(std::slice::Iter<'v, Value>),
            /// Pairs left, and the value of the pair whose key was just written.
            Map(std::slice::Iter<'v, (Value, Value)>, Option<&'v Value>),
        }
        let mut stack: Vec<Frame<'_>> = Vec::new();
        let mut next = Some(value);
        while let Some(v) = next.take() {
            match v {
                Value::Unsigned(u) => self.uint(*u)?,
                Value::Negative(n) => self.negative(*n)?,
                Value::BigNum { negative, magnitude } => self.bignum(*negative, magnitude)?,
                Value::Float(f) => self.float(*f)?,
                Value::Bytes(b) => self.bytes(b)?,
                Value::Text(s) => self.text(s)?,
                Value::Simple(s) => self.simple(*s)?,
                Value::Bool(b) => self.bool(*b)?,
                Value::Null => self.null()?,
                Value::Undefined => self.undefined()?,
                // Tags 2 and 3 over bytes are integers: preferred serialization
                // writes the ones that fit 64 bits as plain integers (RFC 8949
                // section 3.4.3), exactly like BigNum.
                Value::Tag(t @ (2 | 3), content) if matches!(**content, Value::Bytes(_)) => {
                    let Value::Bytes(m) = &**content else { unreachable!() };
                    self.bignum(*t == 3, m)?
                }
                Value::Tag(t, content) => {
                    self.tag(*t)?;
                    next = Some(content);
                    continue;
                }
                Value::Array(items) => {
                    self.array(items.len() as u64)?;
                    stack.push(Frame::Array(items.iter()));
                }
                Value::Map(pairs) => {
                    self.map(pairs.len() as u64)?;
                    stack.push(Frame::Map(pairs.iter(), None));
                }
            }
            // The next item to write: the next child of the innermost open
            // container, closing the finished ones on the way out.
            while next.is_none() {
                let Some(frame) = stack.last_mut() else { break };
                next = match frame {
                    Frame::Array(items) => items.next(),
                    Frame::Map(pairs, pending) => match pending.take() {
                        Some(v) => Some(v),
                        None => pairs.next().map(|(k, v)| {
                            *pending = Some(v);
                            k
                        }),
                    },
                };
                if next.is_none() {
                    stack.pop();
                    self.end()?;
                }
            }
        }
        Ok(())
    }

    /// Writes a decoded document's item: as read (float widths, indefinite
    /// lengths kept) or, with `preferred`, in preferred serialization.
    pub fn document(&mut self, doc: &Document<'_>, preferred: bool) -> Result<(), Error> {
        let flags =
            if preferred { ffi::CBOR_FAST_ENCODE_PREFERRED } else { ffi::CBOR_FAST_ENCODE_NONE };
        // SAFETY: both handles are live; the document is only read.
        let c = unsafe { ffi::cbor_encode(doc.as_ptr(), flags, self.as_ptr()) };
        self.check(c)
    }

    /// Checks that everything is closed and returns the output, which stays
    /// valid until the writer is reset or dropped (the borrow says so).
    pub fn finish(&mut self) -> Result<&[u8], Error> {
        let mut data: *const u8 = ptr::null();
        let mut size = 0usize;
        // SAFETY: live handle, valid out pointers.
        let c = unsafe { ffi::cbor_writer_finish(self.as_ptr(), &mut data, &mut size) };
        self.check(c)?;
        if size == 0 {
            return Ok(&[]);
        }
        if data.is_null() {
            return Err(Error::new(Status::Internal, size));
        }
        // SAFETY: the library's buffer holds `size` bytes and lives until the
        // next reset/free, both of which need `&mut self` or `self`.
        Ok(unsafe { std::slice::from_raw_parts(data, size) })
    }

    /// Empties the writer for new output and clears a sticky error.
    pub fn reset(&mut self) -> Result<(), Error> {
        let c = unsafe { ffi::cbor_writer_reset(self.as_ptr()) };
        self.check(c)
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        // SAFETY: the handle came from cbor_writer_new and is freed once.
        unsafe { ffi::cbor_writer_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer").field("len", &self.len()).finish()
    }
}

/// Encodes `value` in preferred serialization: shortest integer and length
/// heads, floats in the shortest width that keeps them exactly, definite
/// lengths, bignums as plain integers when they fit 64 bits. Uses an explicit
/// stack (any depth).
///
/// ```
/// use cbor_fast::{encode, Value};
/// let v = Value::Array(vec![Value::from(1), Value::from(1.5), Value::from("a")]);
/// assert_eq!(encode(&v).unwrap(), [0x83, 0x01, 0xf9, 0x3e, 0x00, 0x61, b'a']);
/// ```
pub fn encode(value: &Value) -> Result<Vec<u8>, Error> {
    let mut w = Writer::new()?;
    w.value(value)?;
    Ok(w.finish()?.to_vec())
}
