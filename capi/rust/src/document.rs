//! Borrowed documents (`Document`, `Node`), `decode` into `Value`, and
//! `Sequence` over RFC 8742 CBOR sequences.
use std::marker::PhantomData;
use std::os::raw::{c_char, c_int, c_void};
use std::ptr::{self, NonNull};

use crate::error::{Error, Status};
use crate::ffi;
use crate::value::Value;

/// Nesting limit the library applies unless told otherwise.
pub const DEFAULT_MAX_DEPTH: u32 = 512;
/// Entries per array or map (pairs) the library allows unless told
/// otherwise: 2^24 (since 0.5; before, no limit). `u64::MAX` lifts it.
pub const DEFAULT_MAX_CONTAINER_ITEMS: u64 = ffi::CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS;
/// Data items of a document (or of a reader since its start) the library
/// allows unless told otherwise: 2^28 (for readers since 0.5). `u64::MAX` lifts it.
pub const DEFAULT_MAX_ITEMS: u64 = ffi::CBOR_FAST_DEFAULT_MAX_ITEMS;

/// Options for [`decode_with`], [`Document::parse_with`], [`Sequence::with_options`]
/// and [`Reader::with_options`](crate::Reader::with_options).
///
/// A plain struct with public fields, and a builder over them; a limit of
/// `0` selects its default, as in the C API, and `u64::MAX` lifts it:
///
/// ```
/// use cbor_fast::{DecodeOptions, Status, decode_with};
/// let opts = DecodeOptions::default().reject_duplicate_keys(true).max_string_length(1024);
/// // {"a": 1, "a": 2}: the second key, at offset 4, is refused.
/// let err = decode_with(&[0xa2, 0x61, b'a', 0x01, 0x61, b'a', 0x02], &opts).unwrap_err();
/// assert_eq!((err.status, err.offset), (Status::DuplicateKey, 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Most open containers and tags at once (`0` means the default, 512).
    /// Deeper input fails with [`Status::Depth`]; nothing recurses either way.
    pub max_depth: u32,
    /// Require exactly one item: bytes after it fail with
    /// [`Status::TrailingBytes`]. Ignored by sequences.
    pub exact: bool,
    /// Let the library reject invalid UTF-8 in text strings while decoding
    /// ([`Status::InvalidUtf8`] at the first bad byte). Independently of this,
    /// every `&str`/`String` this crate hands out is checked with
    /// `std::str::from_utf8`, so safety never rests on the C validator.
    pub validate_utf8: bool,
    /// Refuse a map key equal by value to an earlier key of the same map
    /// ([`Status::DuplicateKey`] at the second key's head). Off by default.
    pub reject_duplicate_keys: bool,
    /// Require RFC 8949 core deterministic encoding (section 4.2.1):
    /// [`Status::NotPreferred`], [`Status::IndefiniteLength`],
    /// [`Status::UnsortedKeys`] or [`Status::DuplicateKey`] at the offending
    /// head or key. Off by default.
    pub deterministic: bool,
    /// Most bytes in one string, chunk or joined indefinite string
    /// ([`Status::StringTooLong`]); 0: no limit (the default).
    pub max_string_length: u64,
    /// Most items of one array or pairs of one map
    /// ([`Status::ContainerTooLarge`] at its head); 0: the default
    /// [`DEFAULT_MAX_CONTAINER_ITEMS`] (2^24; before 0.5, no limit);
    /// `u64::MAX`: no limit.
    pub max_container_items: u64,
    /// Most data items (keys, values, tags, chunks) of one document, or for a
    /// reader since its start ([`Status::TooManyItems`]); 0: the default
    /// [`DEFAULT_MAX_ITEMS`] (2^28; for readers before 0.5, no limit);
    /// `u64::MAX`: no limit.
    pub max_items: u64,
    /// Most bytes the library may hold at once to decode a document (node
    /// array, joined strings, tables: [`Status::MemoryBudget`]); 0: the
    /// library's default budget (32 bytes per input byte plus 1 MiB);
    /// `u64::MAX`: no limit.
    /// Not a [`Reader`](crate::Reader) option: a reader builds no document.
    pub max_memory: u64,
}

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            exact: true,
            validate_utf8: true,
            reject_duplicate_keys: false,
            deterministic: false,
            max_string_length: 0,
            max_container_items: 0,
            max_items: 0,
            max_memory: 0,
        }
    }
}

impl DecodeOptions {
    /// The defaults (same as `Default`), to start a builder chain.
    pub fn new() -> DecodeOptions {
        DecodeOptions::default()
    }

    /// Sets [`max_depth`](DecodeOptions#structfield.max_depth).
    pub fn max_depth(mut self, depth: u32) -> DecodeOptions {
        self.max_depth = depth;
        self
    }

    /// Sets [`exact`](DecodeOptions#structfield.exact).
    pub fn exact(mut self, on: bool) -> DecodeOptions {
        self.exact = on;
        self
    }

    /// Sets [`validate_utf8`](DecodeOptions#structfield.validate_utf8).
    pub fn validate_utf8(mut self, on: bool) -> DecodeOptions {
        self.validate_utf8 = on;
        self
    }

    /// Sets [`reject_duplicate_keys`](DecodeOptions#structfield.reject_duplicate_keys).
    pub fn reject_duplicate_keys(mut self, on: bool) -> DecodeOptions {
        self.reject_duplicate_keys = on;
        self
    }

    /// Sets [`deterministic`](DecodeOptions#structfield.deterministic).
    pub fn deterministic(mut self, on: bool) -> DecodeOptions {
        self.deterministic = on;
        self
    }

    /// Sets [`max_string_length`](DecodeOptions#structfield.max_string_length).
    pub fn max_string_length(mut self, bytes: u64) -> DecodeOptions {
        self.max_string_length = bytes;
        self
    }

    /// Sets [`max_container_items`](DecodeOptions#structfield.max_container_items).
    pub fn max_container_items(mut self, entries: u64) -> DecodeOptions {
        self.max_container_items = entries;
        self
    }

    /// Sets [`max_items`](DecodeOptions#structfield.max_items).
    pub fn max_items(mut self, items: u64) -> DecodeOptions {
        self.max_items = items;
        self
    }

    /// Sets [`max_memory`](DecodeOptions#structfield.max_memory).
    pub fn max_memory(mut self, bytes: u64) -> DecodeOptions {
        self.max_memory = bytes;
        self
    }

    pub(crate) fn flags(&self) -> u32 {
        let mut f = ffi::CBOR_FAST_DECODE_NONE;
        if self.exact {
            f |= ffi::CBOR_FAST_DECODE_EXACT;
        }
        if self.validate_utf8 {
            f |= ffi::CBOR_FAST_DECODE_VALIDATE_UTF8;
        }
        if self.reject_duplicate_keys {
            f |= ffi::CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS;
        }
        if self.deterministic {
            f |= ffi::CBOR_FAST_DECODE_DETERMINISTIC;
        }
        f
    }

    pub(crate) fn to_c(self) -> ffi::cbor_fast_decode_options {
        ffi::cbor_fast_decode_options {
            max_depth: self.max_depth,
            max_string_length: self.max_string_length,
            max_container_items: self.max_container_items,
            max_items: self.max_items,
            max_memory: self.max_memory,
            ..ffi::cbor_fast_decode_options::INIT
        }
    }
}

/// Node kind in a [`Document`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Unsigned,
    Negative,
    Bytes,
    Text,
    Array,
    Map,
    Tag,
    Simple,
    Bool,
    Null,
    Undefined,
    Float,
}

impl Type {
    fn from_c(t: ffi::cbor_fast_type) -> Option<Type> {
        Some(match t {
            ffi::CBOR_FAST_TYPE_UINT => Type::Unsigned,
            ffi::CBOR_FAST_TYPE_NEGATIVE => Type::Negative,
            ffi::CBOR_FAST_TYPE_BYTES => Type::Bytes,
            ffi::CBOR_FAST_TYPE_TEXT => Type::Text,
            ffi::CBOR_FAST_TYPE_ARRAY => Type::Array,
            ffi::CBOR_FAST_TYPE_MAP => Type::Map,
            ffi::CBOR_FAST_TYPE_TAG => Type::Tag,
            ffi::CBOR_FAST_TYPE_SIMPLE => Type::Simple,
            ffi::CBOR_FAST_TYPE_BOOL => Type::Bool,
            ffi::CBOR_FAST_TYPE_NULL => Type::Null,
            ffi::CBOR_FAST_TYPE_UNDEFINED => Type::Undefined,
            ffi::CBOR_FAST_TYPE_FLOAT => Type::Float,
            _ => return None,
        })
    }
}

/// One CBOR data item decoded into the library's flat node array, borrowing
/// the input: definite strings are views into `'a`, nothing is copied but
/// indefinite-length strings (joined into the document).
///
/// Immutable and `Sync`: many threads may navigate one document at once.
///
/// ```
/// let data = [0xa2, 0x61, b'a', 0x01, 0x61, b'b', 0x82, 0x02, 0x63, b'x', b'y', b'z'];
/// let doc = cbor_fast::Document::parse(&data).unwrap();
/// let root = doc.root();
/// assert_eq!(root.get("a").and_then(|n| n.as_u64()), Some(1));
/// let b: Vec<_> = root.get("b").unwrap().iter().collect();
/// assert_eq!(b[1].as_str(), Some("xyz"));
/// // Zero copy: the text is the input's bytes.
/// assert!(std::ptr::eq(b[1].as_str().unwrap().as_ptr(), &data[9]));
/// ```
///
/// A node cannot outlive its document:
///
/// ```compile_fail,E0597
/// let data = [0x81, 0x01];
/// let node;
/// {
///     let doc = cbor_fast::Document::parse(&data).unwrap();
///     node = doc.root();
/// }
/// node.len();
/// ```
///
/// But a string taken from it can: it borrows the input, not the document.
///
/// ```
/// let data = vec![0x61, b'a'];
/// let s: &str;
/// {
///     let doc = cbor_fast::Document::parse(&data).unwrap();
///     s = doc.root().as_str().unwrap();
/// }
/// assert_eq!(s, "a");
/// ```
///
/// Not the input, though:
///
/// ```compile_fail,E0597
/// let s: &str;
/// {
///     let data = vec![0x61, b'a'];
///     let doc = cbor_fast::Document::parse(&data).unwrap();
///     s = doc.root().as_str().unwrap();
/// }
/// println!("{s}");
/// ```
pub struct Document<'a> {
    raw: NonNull<ffi::cbor_doc>,
    _input: PhantomData<&'a [u8]>,
}

// SAFETY: the header allows reading one cbor_doc from many threads at once, and
// the only mutation (free) needs ownership. The borrowed input is a &[u8].
unsafe impl Send for Document<'_> {}
unsafe impl Sync for Document<'_> {}

impl<'a> Document<'a> {
    /// Decodes exactly one item (no trailing bytes), UTF-8 checked, default depth.
    pub fn parse(data: &'a [u8]) -> Result<Document<'a>, Error> {
        Document::parse_with(data, &DecodeOptions::default())
    }

    pub fn parse_with(data: &'a [u8], options: &DecodeOptions) -> Result<Document<'a>, Error> {
        let c_options = options.to_c();
        let mut raw = ptr::null_mut();
        let mut err = ffi::cbor_fast_error::INIT;
        // SAFETY: data/len come from a slice that outlives the document ('a);
        // out pointers are valid. No COPY_STRINGS: views point into `data`.
        let code = unsafe {
            ffi::cbor_decode(
                data.as_ptr() as *const c_void,
                data.len(),
                options.flags(),
                &c_options,
                &mut raw,
                &mut err,
            )
        };
        if code == ffi::CBOR_FAST_END {
            // No item at all: input ends where one is due.
            return Err(Error::new(Status::Truncated, data.len()));
        }
        if code != ffi::CBOR_FAST_OK {
            return Err(Error::from_c(code, &err));
        }
        match NonNull::new(raw) {
            Some(raw) => Ok(Document { raw, _input: PhantomData }),
            None => Err(Error::new(Status::Internal, 0)),
        }
    }

    /// Takes ownership of a handle returned by the library.
    ///
    /// # Safety
    /// `raw` must be a live document whose views point into memory valid for 'a.
    unsafe fn from_raw(raw: NonNull<ffi::cbor_doc>) -> Document<'a> {
        Document { raw, _input: PhantomData }
    }

    pub(crate) fn as_ptr(&self) -> *const ffi::cbor_doc {
        self.raw.as_ptr()
    }

    /// The root item.
    pub fn root(&self) -> Node<'_, 'a> {
        // SAFETY: live document; a decoded document always has a root.
        let p = unsafe { ffi::cbor_doc_root(self.raw.as_ptr()) };
        Node {
            raw: NonNull::new(p as *mut ffi::cbor_node).expect("document without root"),
            _doc: PhantomData,
        }
    }

    /// Bytes of input the item occupied.
    pub fn encoded_size(&self) -> usize {
        // SAFETY: live document.
        unsafe { ffi::cbor_doc_encoded_size(self.raw.as_ptr()) }
    }

    /// Number of nodes (every item, key, value, tag and tag content).
    pub fn node_count(&self) -> usize {
        // SAFETY: live document.
        unsafe { ffi::cbor_doc_node_count(self.raw.as_ptr()) }
    }

    /// An owned copy of the whole item.
    pub fn to_value(&self) -> Result<Value, Error> {
        self.root().to_value()
    }

    /// Re-encodes the item: as read (`preferred == false`: float widths and
    /// indefinite lengths kept) or in preferred serialization.
    pub fn encode(&self, preferred: bool) -> Result<Vec<u8>, Error> {
        let mut w = crate::Writer::new()?;
        w.document(self, preferred)?;
        Ok(w.finish()?.to_vec())
    }
}

impl Drop for Document<'_> {
    fn drop(&mut self) {
        // SAFETY: owned handle, freed exactly once.
        unsafe { ffi::cbor_doc_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Document")
            .field("encoded_size", &self.encoded_size())
            .field("node_count", &self.node_count())
            .finish()
    }
}

/// A node of a [`Document`] over input `'a`, valid while the document is
/// borrowed (`'d`). Definite-length strings it returns ([`Node::as_str`],
/// [`Node::as_bytes`]) are slices of the input and live as long as the input
/// (`'a`), not the document; the joined content of an indefinite-length
/// string lives in the document ([`Node::joined_str`], [`Node::joined_bytes`]).
#[derive(Clone, Copy)]
pub struct Node<'d, 'a> {
    raw: NonNull<ffi::cbor_node>,
    _doc: PhantomData<(&'d ffi::cbor_doc, &'a [u8])>,
}

// SAFETY: a node is a read-only position in an immutable document (see Document).
unsafe impl Send for Node<'_, '_> {}
unsafe impl Sync for Node<'_, '_> {}

impl<'d, 'a> Node<'d, 'a> {
    fn wrap(p: *const ffi::cbor_node) -> Option<Node<'d, 'a>> {
        NonNull::new(p as *mut ffi::cbor_node).map(|raw| Node { raw, _doc: PhantomData })
    }

    fn ptr(&self) -> *const ffi::cbor_node {
        self.raw.as_ptr()
    }

    // SAFETY note for every method below: `self.raw` is a node of a document
    // that is borrowed for 'd, hence alive; every out pointer is a local.

    /// The node's kind.
    pub fn kind(&self) -> Type {
        let t = unsafe { ffi::cbor_node_type(self.ptr()) };
        Type::from_c(t).expect("library returned an unknown node type")
    }

    /// Byte offset of the node's head in the input.
    pub fn offset(&self) -> usize {
        unsafe { ffi::cbor_node_offset(self.ptr()) }
    }

    /// Encoded with indefinite length (string, array or map).
    pub fn is_indefinite(&self) -> bool {
        unsafe { ffi::cbor_node_is_indefinite(self.ptr()) != 0 }
    }

    /// Unsigned integer.
    pub fn as_u64(&self) -> Option<u64> {
        let mut v = 0u64;
        (unsafe { ffi::cbor_node_get_uint64(self.ptr(), &mut v) } == ffi::CBOR_FAST_OK).then_some(v)
    }

    /// Unsigned or negative integer within `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        let mut v = 0i64;
        (unsafe { ffi::cbor_node_get_int64(self.ptr(), &mut v) } == ffi::CBOR_FAST_OK).then_some(v)
    }

    /// Any 64-bit integer as `(negative, raw)`: `raw` or `-1 - raw`.
    pub fn as_int_raw(&self) -> Option<(bool, u64)> {
        let mut raw = 0u64;
        let mut neg: c_int = 0;
        (unsafe { ffi::cbor_node_get_int_raw(self.ptr(), &mut raw, &mut neg) } == ffi::CBOR_FAST_OK)
            .then_some((neg != 0, raw))
    }

    /// A 64-bit integer or a bignum (tag 2/3 over a byte string), as a
    /// canonical [`Value`] (`Unsigned`, `Negative` or `BigNum`).
    pub fn as_integer(&self) -> Option<Value> {
        let mut raw = 0u64;
        let mut mag: *const u8 = ptr::null();
        let mut size = 0usize;
        let mut neg: c_int = 0;
        let c = unsafe {
            ffi::cbor_node_get_bignum(self.ptr(), &mut raw, &mut mag, &mut size, &mut neg)
        };
        if c != ffi::CBOR_FAST_OK {
            return None;
        }
        if mag.is_null() {
            // A 64-bit value, or an empty magnitude (zero) whose view is NULL.
            return Some(Value::integer(neg != 0, raw));
        }
        // SAFETY: the view holds `size` bytes, alive as long as the document.
        let m = unsafe { std::slice::from_raw_parts(mag, size) };
        Some(Value::bignum(neg != 0, m))
    }

    /// Float of any width, widened exactly.
    pub fn as_f64(&self) -> Option<f64> {
        let mut v = 0f64;
        (unsafe { ffi::cbor_node_get_double(self.ptr(), &mut v) } == ffi::CBOR_FAST_OK).then_some(v)
    }

    /// Float width on the wire: 2, 4 or 8 (0 for other nodes).
    pub fn float_width(&self) -> u32 {
        unsafe { ffi::cbor_node_float_width(self.ptr()) }
    }

    pub fn as_bool(&self) -> Option<bool> {
        let mut v: c_int = 0;
        (unsafe { ffi::cbor_node_get_bool(self.ptr(), &mut v) } == ffi::CBOR_FAST_OK)
            .then_some(v != 0)
    }

    /// Simple value number (also for false/true/null/undefined).
    pub fn as_simple(&self) -> Option<u8> {
        let mut v = 0u8;
        (unsafe { ffi::cbor_node_get_simple(self.ptr(), &mut v) } == ffi::CBOR_FAST_OK).then_some(v)
    }

    fn raw_bytes(&self) -> Option<&'d [u8]> {
        let mut data: *const u8 = ptr::null();
        let mut size = 0usize;
        if unsafe { ffi::cbor_node_get_bytes(self.ptr(), &mut data, &mut size) }
            != ffi::CBOR_FAST_OK
        {
            return None;
        }
        // SAFETY: `size` bytes at `data`: in the input, or (joined chunks)
        // in the document, alive while both are borrowed.
        Some(unsafe { slice_or_empty(data, size) })
    }

    fn raw_text(&self) -> Option<&'d [u8]> {
        let mut data: *const c_char = ptr::null();
        let mut size = 0usize;
        if unsafe { ffi::cbor_node_get_text(self.ptr(), &mut data, &mut size) } != ffi::CBOR_FAST_OK
        {
            return None;
        }
        // SAFETY: as in raw_bytes.
        Some(unsafe { slice_or_empty(data as *const u8, size) })
    }

    /// Content of a definite-length byte string: a slice of the input, with
    /// the input's lifetime. `None` for other nodes and for indefinite-length
    /// strings (see [`Node::joined_bytes`]).
    pub fn as_bytes(&self) -> Option<&'a [u8]> {
        if self.is_indefinite() {
            return None;
        }
        // SAFETY: a definite string's view points into the input, which lives
        // for 'a (the document never copies it: no COPY_STRINGS flag).
        self.raw_bytes().map(|b| unsafe { extend(b) })
    }

    /// Raw bytes of a definite-length text string (a slice of the input), not
    /// UTF-8 checked. `None` as for [`Node::as_bytes`].
    pub fn as_text_bytes(&self) -> Option<&'a [u8]> {
        if self.is_indefinite() {
            return None;
        }
        // SAFETY: as in as_bytes.
        self.raw_text().map(|b| unsafe { extend(b) })
    }

    /// A definite-length text string, checked with `std::str::from_utf8`: a
    /// slice of the input with the input's lifetime (`None` for another type,
    /// invalid UTF-8, or an indefinite-length string, whose chunks are joined
    /// in the document: see [`Node::joined_str`]).
    pub fn as_str(&self) -> Option<&'a str> {
        std::str::from_utf8(self.as_text_bytes()?).ok()
    }

    /// Any byte string, indefinite ones joined: valid while the document is.
    pub fn joined_bytes(&self) -> Option<&'d [u8]> {
        self.raw_bytes()
    }

    /// Any text string, indefinite ones joined, UTF-8 checked: valid while
    /// the document is.
    pub fn joined_str(&self) -> Option<&'d str> {
        std::str::from_utf8(self.raw_text()?).ok()
    }

    /// Tag number and content.
    pub fn as_tag(&self) -> Option<(u64, Node<'d, 'a>)> {
        let mut t = 0u64;
        if unsafe { ffi::cbor_node_get_tag(self.ptr(), &mut t) } != ffi::CBOR_FAST_OK {
            return None;
        }
        Node::wrap(unsafe { ffi::cbor_node_tag_content(self.ptr()) }).map(|c| (t, c))
    }

    /// This node, an array of numbers (a tag 41 in front allowed) or an RFC
    /// 8746 typed array, as a `Vec` in one library call (see
    /// [`crate::Number`]): [`Status::TypeMismatch`] for another node or at
    /// the first element of another type, [`Status::OutOfRange`] at the first
    /// element that does not fit, with its offset.
    ///
    /// ```
    /// let doc = cbor_fast::Document::parse(&[0x82, 0xf9, 0x3c, 0x00, 0x20]).unwrap();
    /// assert_eq!(doc.root().read_array::<f64>().unwrap(), [1.0, -1.0]);
    /// ```
    pub fn read_array<T: crate::Number>(&self) -> Result<Vec<T>, Error> {
        let mut count = 0usize;
        let mut e = ffi::cbor_fast_error::INIT;
        // SAFETY: live node (see above); capacity 0 with NULL out.
        let code = unsafe { T::read_node(self.ptr(), ptr::null_mut(), 0, &mut count, &mut e) };
        if code == ffi::CBOR_FAST_OK {
            return Ok(Vec::new());
        }
        if code != ffi::CBOR_FAST_ERR_BUFFER_TOO_SMALL {
            return Err(Error::from_c(code, &e));
        }
        let mut v: Vec<T> = Vec::with_capacity(count);
        // SAFETY: `v` has room for `count` elements.
        let code = unsafe { T::read_node(self.ptr(), v.as_mut_ptr(), count, &mut count, &mut e) };
        if code != ffi::CBOR_FAST_OK {
            return Err(Error::from_c(code, &e));
        }
        // SAFETY: the library wrote `count` elements (at most the capacity).
        unsafe { v.set_len(count.min(v.capacity())) };
        Ok(v)
    }

    /// This node as an RFC 8746 typed array (a view of the input), or
    /// [`Status::TypeMismatch`]: for any other node, and at the byte
    /// string's offset for a tag over an indefinite byte string (its chunks
    /// are joined in the document, not the input: [`Node::joined_typed_array`]
    /// reads it), as [`crate::Reader::read_typed_array`] refuses one.
    pub fn read_typed_array(&self) -> Result<crate::TypedArray<'a>, Error> {
        if let Some((_, content)) = self.as_tag() {
            if content.is_indefinite() {
                return Err(Error::from_code(ffi::CBOR_FAST_ERR_TYPE_MISMATCH, content.offset()));
            }
        }
        // SAFETY: a definite byte string's bytes are in the input (as
        // `as_bytes`), which lives for 'a.
        unsafe { self.typed_array_view() }
    }

    /// This node as an RFC 8746 typed array, a tag over an indefinite byte
    /// string included (its chunks joined): valid while the document is, as
    /// [`Node::joined_bytes`].
    ///
    /// ```compile_fail
    /// // The view cannot outlive the document.
    /// let data = [0xd8, 0x40, 0x5f, 0x41, 0x01, 0x41, 0x02, 0xff];
    /// let a = {
    ///     let doc = cbor_fast::Document::parse(&data).unwrap();
    ///     doc.root().joined_typed_array().unwrap()
    /// };
    /// assert_eq!(a.len(), 2);
    /// ```
    pub fn joined_typed_array(&self) -> Result<crate::TypedArray<'d>, Error> {
        // SAFETY: the bytes are in the input or the document, which both
        // outlive the document's borrow 'd.
        unsafe { self.typed_array_view() }
    }

    /// cbor_node_read_typed_array's view.
    ///
    /// # Safety
    /// The bytes it views must live for 'v: the input's lifetime only for a
    /// definite byte string (an indefinite one's are joined in the document).
    unsafe fn typed_array_view<'v>(&self) -> Result<crate::TypedArray<'v>, Error> {
        let mut raw = ffi::cbor_fast_typed_array::INIT;
        // SAFETY: live node, valid out struct with struct_size set.
        let code = unsafe { ffi::cbor_node_read_typed_array(self.ptr(), &mut raw) };
        if code != ffi::CBOR_FAST_OK {
            return Err(Error::from_code(code, self.offset()));
        }
        crate::TypedArray::from_raw(raw, self.offset())
    }

    /// Array: items; map: pairs; 0 otherwise.
    pub fn len(&self) -> usize {
        unsafe { ffi::cbor_node_size(self.ptr()) }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Array item `index` (O(1) for arrays of scalars, else a walk).
    pub fn at(&self, index: usize) -> Option<Node<'d, 'a>> {
        Node::wrap(unsafe { ffi::cbor_node_array_get(self.ptr(), index) })
    }

    /// Map: the value of the first pair whose key is the text `key`.
    pub fn get(&self, key: &str) -> Option<Node<'d, 'a>> {
        Node::wrap(unsafe {
            ffi::cbor_node_map_find(self.ptr(), key.as_ptr() as *const c_char, key.len())
        })
    }

    /// Map: the value of the first pair whose key is the integer `key`.
    pub fn get_int(&self, key: i64) -> Option<Node<'d, 'a>> {
        Node::wrap(unsafe { ffi::cbor_node_map_find_int(self.ptr(), key) })
    }

    /// Children in order: array items, map keys and values alternating, or a
    /// tag's content. Empty for scalars.
    pub fn iter(&self) -> Children<'d, 'a> {
        Children { next: Node::wrap(unsafe { ffi::cbor_node_child(self.ptr()) }) }
    }

    /// Map pairs in order (empty for other nodes).
    pub fn entries(&self) -> Entries<'d, 'a> {
        let children = if self.kind() == Type::Map { self.iter() } else { Children { next: None } };
        Entries { children }
    }

    /// An owned copy of this item and everything below it (explicit stack).
    pub fn to_value(&self) -> Result<Value, Error> {
        node_to_value(*self)
    }
}

impl std::fmt::Debug for Node<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node").field("kind", &self.kind()).field("offset", &self.offset()).finish()
    }
}

impl<'d, 'a> IntoIterator for Node<'d, 'a> {
    type Item = Node<'d, 'a>;
    type IntoIter = Children<'d, 'a>;
    fn into_iter(self) -> Children<'d, 'a> {
        self.iter()
    }
}

/// Children of a node (see [`Node::iter`]).
#[derive(Clone, Debug)]
pub struct Children<'d, 'a> {
    next: Option<Node<'d, 'a>>,
}

impl<'d, 'a> Iterator for Children<'d, 'a> {
    type Item = Node<'d, 'a>;
    fn next(&mut self) -> Option<Node<'d, 'a>> {
        let cur = self.next?;
        // SAFETY: `cur` is a live node of the borrowed document.
        self.next = Node::wrap(unsafe { ffi::cbor_node_next(cur.ptr()) });
        Some(cur)
    }
}

/// Key/value pairs of a map node.
#[derive(Clone, Debug)]
pub struct Entries<'d, 'a> {
    children: Children<'d, 'a>,
}

impl<'d, 'a> Iterator for Entries<'d, 'a> {
    type Item = (Node<'d, 'a>, Node<'d, 'a>);
    fn next(&mut self) -> Option<(Node<'d, 'a>, Node<'d, 'a>)> {
        let k = self.children.next()?;
        let v = self.children.next()?;
        Some((k, v))
    }
}

/// A slice of the input seen through a shorter borrow, given back its real
/// lifetime.
///
/// # Safety
/// `b` must lie in memory that lives for `'a` (the document's input).
unsafe fn extend<'a>(b: &[u8]) -> &'a [u8] {
    // SAFETY: the caller's promise.
    unsafe { std::slice::from_raw_parts(b.as_ptr(), b.len()) }
}

/// # Safety
/// `data` must point to `size` readable bytes (or `size` must be 0).
unsafe fn slice_or_empty<'x>(data: *const u8, size: usize) -> &'x [u8] {
    if size == 0 || data.is_null() {
        &[]
    } else {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts(data, size) }
    }
}

/// Builds a `Value` from a node with an explicit stack (no recursion).
fn node_to_value(root: Node<'_, '_>) -> Result<Value, Error> {
    /// A container being filled, and the child node it is at.
    enum Partial {
        Array(Vec<Value>),
        Map(Vec<(Value, Value)>, Option<Value>),
        Tag(u64),
    }
    struct Frame<'d, 'a> {
        partial: Partial,
        child: Node<'d, 'a>,
    }
    fn close(p: Partial) -> Value {
        match p {
            Partial::Array(items) => Value::Array(items),
            Partial::Map(pairs, _) => Value::Map(pairs),
            Partial::Tag(_) => unreachable!("a tag always has content"),
        }
    }

    let mut stack: Vec<Frame<'_, '_>> = Vec::new();
    let mut cur = root;
    loop {
        // Turn `cur` into a finished value, or open a frame and descend.
        let mut value = match cur.kind() {
            Type::Unsigned | Type::Negative => {
                let (neg, raw) = cur.as_int_raw().ok_or_else(|| internal(cur))?;
                Value::integer(neg, raw)
            }
            Type::Float => Value::Float(cur.as_f64().ok_or_else(|| internal(cur))?),
            Type::Bytes => Value::Bytes(cur.joined_bytes().ok_or_else(|| internal(cur))?.to_vec()),
            Type::Text => {
                let bytes = cur.raw_text().ok_or_else(|| internal(cur))?;
                match std::str::from_utf8(bytes) {
                    Ok(s) => Value::Text(s.to_owned()),
                    Err(_) => return Err(Error::new(Status::InvalidUtf8, cur.offset())),
                }
            }
            Type::Bool => Value::Bool(cur.as_bool().ok_or_else(|| internal(cur))?),
            Type::Null => Value::Null,
            Type::Undefined => Value::Undefined,
            Type::Simple => Value::Simple(cur.as_simple().ok_or_else(|| internal(cur))?),
            Type::Tag => {
                // Tags 2 and 3 over a byte string are integers (canonical form).
                if let Some(v) = cur.as_integer() {
                    v
                } else {
                    let (t, content) = cur.as_tag().ok_or_else(|| internal(cur))?;
                    stack.push(Frame { partial: Partial::Tag(t), child: content });
                    cur = content;
                    continue;
                }
            }
            kind @ (Type::Array | Type::Map) => {
                let n = cur.len();
                let partial = if kind == Type::Array {
                    Partial::Array(Vec::with_capacity(n))
                } else {
                    Partial::Map(Vec::with_capacity(n), None)
                };
                match cur.iter().next() {
                    Some(first) => {
                        stack.push(Frame { partial, child: first });
                        cur = first;
                        continue;
                    }
                    None => close(partial),
                }
            }
        };
        // Hand the value to its parent until one has a next child.
        loop {
            let Some(frame) = stack.last_mut() else { return Ok(value) };
            match &mut frame.partial {
                Partial::Tag(t) => {
                    let t = *t;
                    stack.pop();
                    value = Value::Tag(t, Box::new(value));
                    continue;
                }
                Partial::Array(items) => items.push(value),
                Partial::Map(pairs, key) => match key.take() {
                    None => *key = Some(value),
                    Some(k) => pairs.push((k, value)),
                },
            }
            // SAFETY: the child is a live node of the same document.
            if let Some(next) = Node::wrap(unsafe { ffi::cbor_node_next(frame.child.ptr()) }) {
                frame.child = next;
                cur = next;
                break;
            }
            let done = stack.pop().expect("frame present");
            value = close(done.partial);
        }
    }
}

fn internal(n: Node<'_, '_>) -> Error {
    Error::new(Status::Internal, n.offset())
}

/// Decodes exactly one CBOR item into an owned [`Value`].
///
/// Text must be valid UTF-8; tags 2 and 3 over byte strings become integers
/// (`Unsigned`/`Negative` when they fit 64 bits, else `BigNum` without leading
/// zeros); nesting is limited to 512 levels. Built from the library's document
/// with an explicit stack: deep input gives [`Status::Depth`], never a stack
/// overflow.
///
/// ```
/// use cbor_fast::{decode, Status, Value};
/// assert_eq!(decode(&[0x83, 0x01, 0x02, 0x03]).unwrap(),
///            Value::Array(vec![1.into(), 2.into(), 3.into()]));
/// // An indefinite array missing its break: input ends where an item is due.
/// let err = decode(&[0x9f, 0x01]).unwrap_err();
/// assert_eq!((err.status, err.offset), (Status::Truncated, 2));
/// ```
pub fn decode(data: &[u8]) -> Result<Value, Error> {
    decode_with(data, &DecodeOptions::default())
}

/// [`decode`] with explicit options.
pub fn decode_with(data: &[u8], options: &DecodeOptions) -> Result<Value, Error> {
    Document::parse_with(data, options)?.to_value()
}

/// Iterator over the items of a CBOR sequence (RFC 8742) in a borrowed buffer.
///
/// Yields each item as a [`Value`] (or, with [`Sequence::next_document`], as a
/// zero-copy [`Document`]). After an error it yields that error once, then
/// `None`.
///
/// ```
/// let data = [0x01, 0x61, b'a', 0xf6];
/// let items: Result<Vec<_>, _> = cbor_fast::Sequence::new(&data).unwrap().collect();
/// assert_eq!(items.unwrap(), vec![1.into(), "a".into(), cbor_fast::Value::Null]);
/// ```
pub struct Sequence<'a> {
    raw: NonNull<ffi::cbor_seq>,
    input: &'a [u8],
    flags: u32,
    done: bool,
}

// SAFETY: the handle has no thread affinity and is only used through &mut self.
unsafe impl Send for Sequence<'_> {}

impl<'a> Sequence<'a> {
    pub fn new(data: &'a [u8]) -> Result<Sequence<'a>, Error> {
        Sequence::with_options(data, &DecodeOptions::default())
    }

    /// `options.exact` is ignored (a sequence has many items).
    pub fn with_options(data: &'a [u8], options: &DecodeOptions) -> Result<Sequence<'a>, Error> {
        let c_options = options.to_c();
        let mut raw = ptr::null_mut();
        // SAFETY: the slice outlives the handle ('a); valid out pointer.
        let code = unsafe {
            ffi::cbor_seq_new(data.as_ptr() as *const c_void, data.len(), &c_options, &mut raw)
        };
        match NonNull::new(raw) {
            Some(raw) if code == ffi::CBOR_FAST_OK => Ok(Sequence {
                raw,
                input: data,
                flags: options.flags() & !ffi::CBOR_FAST_DECODE_EXACT,
                done: false,
            }),
            _ => {
                Err(Error::from_code(if code == 0 { ffi::CBOR_FAST_ERR_INTERNAL } else { code }, 0))
            }
        }
    }

    fn fail(&mut self, code: i32) -> Error {
        self.done = true;
        let mut e = ffi::cbor_fast_error::INIT;
        // SAFETY: live handle, valid out pointer.
        let sticky = unsafe { ffi::cbor_seq_error(self.raw.as_ptr(), &mut e) };
        if sticky == code { Error::from_c(code, &e) } else { Error::from_code(code, 0) }
    }

    /// The next item as a zero-copy document over the same input.
    pub fn next_document(&mut self) -> Option<Result<Document<'a>, Error>> {
        if self.done {
            return None;
        }
        let mut raw = ptr::null_mut();
        // SAFETY: live handle, valid out pointer.
        let code = unsafe { ffi::cbor_seq_next_doc(self.raw.as_ptr(), self.flags, &mut raw) };
        if code == ffi::CBOR_FAST_END {
            self.done = true;
            return None;
        }
        if code != ffi::CBOR_FAST_OK {
            return Some(Err(self.fail(code)));
        }
        // SAFETY: a fresh document whose views point into the input ('a).
        NonNull::new(raw).map(|raw| Ok(unsafe { Document::from_raw(raw) }))
    }

    /// The next item's encoded bytes (checked for well-formedness, and UTF-8
    /// when the options ask for it), without building anything.
    pub fn next_raw(&mut self) -> Option<Result<&'a [u8], Error>> {
        if self.done {
            return None;
        }
        let (mut offset, mut length) = (0usize, 0usize);
        // SAFETY: live handle, valid out pointers.
        let code =
            unsafe { ffi::cbor_seq_next(self.raw.as_ptr(), self.flags, &mut offset, &mut length) };
        if code == ffi::CBOR_FAST_END {
            self.done = true;
            return None;
        }
        if code != ffi::CBOR_FAST_OK {
            return Some(Err(self.fail(code)));
        }
        let input: &'a [u8] = self.input;
        Some(input.get(offset..offset + length).ok_or_else(|| Error::new(Status::Internal, offset)))
    }
}

impl Iterator for Sequence<'_> {
    type Item = Result<Value, Error>;
    fn next(&mut self) -> Option<Result<Value, Error>> {
        Some(self.next_document()?.and_then(|doc| doc.to_value()))
    }
}

impl Drop for Sequence<'_> {
    fn drop(&mut self) {
        // SAFETY: owned handle, freed exactly once.
        unsafe { ffi::cbor_seq_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Sequence<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sequence").field("done", &self.done).finish()
    }
}
