//! `Reader`: the zero-copy pull reader.
use std::ptr::{self, NonNull};

use crate::error::{Error, Status};
use crate::ffi;
use crate::typed::{Number, Scratch, TypedArray, read_on, reader_error};

/// What an [`Item`] is. Strings borrow the reader's input (`'a`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Token<'a> {
    Unsigned(u64),
    /// The integer `-1 - n`.
    Negative(u64),
    /// A definite byte string, or one chunk of an indefinite one.
    Bytes(&'a [u8]),
    /// A definite text string, or one chunk of an indefinite one; UTF-8
    /// checked by `std::str::from_utf8`.
    Text(&'a str),
    /// Start of an indefinite byte string: chunks follow one level deeper,
    /// then [`Token::End`].
    BytesIndefinite,
    /// Start of an indefinite text string (as above).
    TextIndefinite,
    /// Start of an array of `Some(count)` items or indefinite (`None`); the
    /// items follow one level deeper, then [`Token::End`].
    Array(Option<u64>),
    /// Start of a map of `Some(pairs)` pairs or indefinite (`None`).
    Map(Option<u64>),
    /// Tag number; exactly one content item follows (no `End`).
    Tag(u64),
    Simple(u8),
    Bool(bool),
    Null,
    Undefined,
    /// A float widened to `f64`, and its width on the wire (2, 4 or 8).
    Float {
        value: f64,
        width: u8,
    },
    /// End of an array, map or indefinite string; `brk` when a break byte
    /// (0xff) ended it, i.e. for indefinite lengths.
    End {
        brk: bool,
    },
}

/// One item from a [`Reader`], with its position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Item<'a> {
    pub token: Token<'a>,
    /// Byte offset of the item's head (for a definite `End`: the position
    /// after the container's last child).
    pub offset: usize,
    /// Enclosing containers and tags; top level is 0. An `End` has its
    /// container's depth.
    pub depth: u32,
    /// Bytes of the head: 1, 2, 3, 5 or 9 (0 for a definite `End`).
    pub head_size: u32,
}

/// A pull reader over a borrowed buffer holding a CBOR sequence (zero or more
/// items), yielding [`Item`]s in encoding order without building anything.
///
/// Strings are slices of the input, never copies, with the input's lifetime
/// `'a`: items may outlive the reader but not the buffer. Text strings are
/// checked with `std::str::from_utf8` in Rust (the library's
/// `CBOR_FAST_OPT_VALIDATE_UTF8` stays off, so `&str` soundness never depends
/// on the C validator); an invalid one fails with [`Status::InvalidUtf8`] at the
/// offset of its first invalid byte, the offset the library itself reports.
///
/// Errors are sticky: after the first one every call returns it again; as an
/// `Iterator` the reader yields it once and then ends.
///
/// ```
/// use cbor_fast::{Reader, Token};
/// let data = [0x82, 0x01, 0x63, b'a', b'b', b'c'];
/// let tokens: Vec<Token> = Reader::new(&data).unwrap().map(|i| i.unwrap().token).collect();
/// assert_eq!(tokens, [Token::Array(Some(2)), Token::Unsigned(1), Token::Text("abc"),
///                     Token::End { brk: false }]);
/// ```
///
/// An item cannot outlive the input buffer:
///
/// ```compile_fail,E0597
/// let item;
/// {
///     let data = vec![0x61, b'a'];
///     let mut reader = cbor_fast::Reader::new(&data).unwrap();
///     item = reader.next().unwrap().unwrap();
/// }
/// println!("{:?}", item.token);
/// ```
///
/// Nor can the reader:
///
/// ```compile_fail,E0597
/// let mut reader;
/// {
///     let data = vec![0x01];
///     reader = cbor_fast::Reader::new(&data).unwrap();
/// }
/// reader.next();
/// ```
///
/// Items do outlive the reader (they borrow the input, not the reader):
///
/// ```
/// let data = vec![0x61, b'a'];
/// let item = {
///     let mut reader = cbor_fast::Reader::new(&data).unwrap();
///     reader.next().unwrap().unwrap()
/// };
/// assert_eq!(item.token, cbor_fast::Token::Text("a"));
/// ```
pub struct Reader<'a> {
    raw: NonNull<ffi::cbor_reader>,
    input: &'a [u8],
    /// The last item the C reader returned (cbor_reader_join needs it).
    last: ffi::cbor_fast_item,
    /// Sticky error, including the Rust-side UTF-8 check.
    error: Option<Error>,
    /// The iterator has handed out the sticky error.
    reported: bool,
    /// The second reader of `read_array` (made on first use).
    scratch: Scratch,
}

// SAFETY: the handle has no thread affinity; all use goes through &mut self
// (or &self for plain reads of its position). The input is a shared &[u8].
unsafe impl Send for Reader<'_> {}

impl<'a> Reader<'a> {
    /// A reader over `data` (max depth 512).
    pub fn new(data: &'a [u8]) -> Result<Reader<'a>, Error> {
        let mut raw = ptr::null_mut();
        // SAFETY: the slice outlives the handle ('a is tied to the Reader);
        // valid out pointer; NULL allocator = malloc.
        let code = unsafe {
            ffi::cbor_reader_new(data.as_ptr().cast(), data.len(), ptr::null(), &mut raw)
        };
        match NonNull::new(raw) {
            Some(raw) if code == ffi::CBOR_FAST_OK => Ok(Reader {
                raw,
                input: data,
                last: ffi::cbor_fast_item::INIT,
                error: None,
                reported: false,
                scratch: Scratch::new(),
            }),
            _ => {
                Err(Error::from_code(if code == 0 { ffi::CBOR_FAST_ERR_INTERNAL } else { code }, 0))
            }
        }
    }

    /// Restarts on new input (same options), clearing any error.
    pub fn reset(&mut self, data: &'a [u8]) -> Result<(), Error> {
        // SAFETY: live handle; the new slice outlives the reader like the old.
        let code =
            unsafe { ffi::cbor_reader_reset(self.raw.as_ptr(), data.as_ptr().cast(), data.len()) };
        crate::error::check(code, 0)?;
        self.input = data;
        self.last = ffi::cbor_fast_item::INIT;
        self.error = None;
        self.reported = false;
        Ok(())
    }

    /// A reader over `data` with the checks and limits of `options`:
    /// `max_depth` (0: 512), `reject_duplicate_keys`, `deterministic`,
    /// `max_string_length`, `max_container_items` and `max_items` (0: the
    /// default, as in [`DecodeOptions`](crate::DecodeOptions); `max_items` counts the items of each
    /// top-level item). `exact` and
    /// `validate_utf8` do not apply (text is always checked in Rust, see
    /// above); a `max_memory` other than 0 and `u64::MAX` (no budget) is
    /// [`Status::InvalidArgument`], since a reader builds no document to bound.
    ///
    /// ```
    /// use cbor_fast::{DecodeOptions, Reader, Status};
    /// // [1, 2, 3] with at most 2 entries per array: refused at its head.
    /// let mut r = Reader::with_options(&[0x83, 1, 2, 3], &DecodeOptions::new().max_container_items(2))
    ///     .unwrap();
    /// let err = r.next_item().unwrap_err();
    /// assert_eq!((err.status, err.offset), (Status::ContainerTooLarge, 0));
    /// ```
    pub fn with_options(
        data: &'a [u8],
        options: &crate::DecodeOptions,
    ) -> Result<Reader<'a>, Error> {
        if options.max_memory != 0 && options.max_memory != u64::MAX {
            return Err(Error::new(Status::InvalidArgument, 0));
        }
        let mut r = Reader::new(data)?;
        if options.max_depth != 0 {
            r.set_max_depth(options.max_depth)?;
        }
        r.set_reject_duplicate_keys(options.reject_duplicate_keys)?;
        r.set_deterministic(options.deterministic)?;
        if options.max_string_length != 0 {
            r.set_max_string_length(options.max_string_length)?;
        }
        if options.max_container_items != 0 {
            r.set_max_container_items(options.max_container_items)?;
        }
        if options.max_items != 0 {
            r.set_max_items(options.max_items)?;
        }
        Ok(r)
    }

    fn set(&mut self, option: ffi::cbor_fast_option, value: u64) -> Result<(), Error> {
        // SAFETY: live handle.
        let code = unsafe { ffi::cbor_reader_set(self.raw.as_ptr(), option, value) };
        crate::error::check(code, self.offset())?;
        // `read_array`'s second reader gets the same options.
        self.scratch.set(option, value)
    }

    /// Refuse a map key equal by value to an earlier key of the same map
    /// ([`Status::DuplicateKey`] at the second key's head).
    pub fn set_reject_duplicate_keys(&mut self, on: bool) -> Result<(), Error> {
        self.set(ffi::CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, u64::from(on))
    }

    /// Require RFC 8949 core deterministic encoding ([`Status::NotPreferred`],
    /// [`Status::IndefiniteLength`], [`Status::UnsortedKeys`],
    /// [`Status::DuplicateKey`]).
    pub fn set_deterministic(&mut self, on: bool) -> Result<(), Error> {
        self.set(ffi::CBOR_FAST_OPT_DETERMINISTIC, u64::from(on))
    }

    /// Longest string, chunk or joined string in bytes (default, and 0:
    /// unlimited): more is [`Status::StringTooLong`] at the string's head.
    pub fn set_max_string_length(&mut self, bytes: u64) -> Result<(), Error> {
        self.set(ffi::CBOR_FAST_OPT_MAX_STRING_LENGTH, bytes)
    }

    /// Most items of one array or pairs of one map (default, and 0:
    /// [`DEFAULT_MAX_CONTAINER_ITEMS`](crate::DEFAULT_MAX_CONTAINER_ITEMS),
    /// 2^24; `u64::MAX`: no limit): more is [`Status::ContainerTooLarge`] at
    /// the container's head.
    pub fn set_max_container_items(&mut self, entries: u64) -> Result<(), Error> {
        self.set(ffi::CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, entries)
    }

    /// Most data items of one top-level item (default, and 0:
    /// [`DEFAULT_MAX_ITEMS`](crate::DEFAULT_MAX_ITEMS), 2^28; `u64::MAX`: no
    /// limit): the next one of that item is [`Status::TooManyItems`]. A
    /// reader over a long sequence never runs out between items.
    pub fn set_max_items(&mut self, items: u64) -> Result<(), Error> {
        self.set(ffi::CBOR_FAST_OPT_MAX_ITEMS, items)
    }

    /// Most open containers and tags at once (default, and 0: 512; 1 allows
    /// containers of scalars); deeper input fails with [`Status::Depth`].
    pub fn set_max_depth(&mut self, depth: u32) -> Result<(), Error> {
        // SAFETY: live handle.
        let code = unsafe {
            ffi::cbor_reader_set(self.raw.as_ptr(), ffi::CBOR_FAST_OPT_MAX_DEPTH, u64::from(depth))
        };
        crate::error::check(code, self.offset())
    }

    /// Reads the next item, an array of numbers (any head and float width per
    /// element; a tag 41 in front allowed) or an RFC 8746 typed array, into a
    /// `Vec` through the library's bulk reader: one call for a definite array
    /// (reserved once from its count, which the library checks against the
    /// bytes left), no per-element item. See [`Number`] for what each `T`
    /// accepts.
    ///
    /// Errors: [`Status::TypeMismatch`] when the next item is no such array
    /// (nothing read; the reader can go on) or, sticky, at the first element
    /// of another type; [`Status::OutOfRange`] at the first element that does
    /// not fit `T`; [`Status::Truncated`] at the end of the input; the
    /// reader's own errors (malformed input, limits) with their offsets.
    ///
    /// ```
    /// use cbor_fast::{Reader, Status};
    /// // [1, 2^32, 2^64-1] in three head widths
    /// let data = [0x83, 0x01, 0x1b, 0, 0, 0, 1, 0, 0, 0, 0, 0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
    /// let mut r = Reader::new(&data).unwrap();
    /// assert_eq!(r.read_array::<u64>().unwrap(), [1, 1 << 32, u64::MAX]);
    /// // the same into i64: 2^64-1 does not fit, at its offset
    /// let err = Reader::new(&data).unwrap().read_array::<i64>().unwrap_err();
    /// assert_eq!((err.status, err.offset), (Status::OutOfRange, 11));
    /// ```
    pub fn read_array<T: Number>(&mut self) -> Result<Vec<T>, Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        // `join` joins the item `next_item` returned last, and only right
        // after it.
        self.last = ffi::cbor_fast_item::INIT;
        let offset = self.offset();
        let r = read_on::<T>(self.raw.as_ptr(), &mut self.scratch, self.input, offset);
        if let Err(e) = r {
            self.keep_if_sticky(e);
        }
        r
    }

    /// Reads the next item as an RFC 8746 typed array (tag 64..87 over a
    /// definite byte string whose length is a multiple of the element size),
    /// a view of the input. [`Status::TypeMismatch`]: no such tag (nothing
    /// read), or, sticky, bad content at the byte string's offset.
    ///
    /// ```
    /// use cbor_fast::{Reader, TypedElement};
    /// // tag 86 (float64, little endian) over 8 bytes: [1.5]
    /// let data = [0xd8, 0x56, 0x48, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f];
    /// let a = Reader::new(&data).unwrap().read_typed_array().unwrap();
    /// assert_eq!((a.element(), a.len(), a.data_offset()), (TypedElement::Float64, 1, 3));
    /// assert_eq!(a.to_vec::<f64>().unwrap(), [1.5]);
    /// ```
    pub fn read_typed_array(&mut self) -> Result<TypedArray<'a>, Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.last = ffi::cbor_fast_item::INIT;
        let offset = self.offset();
        let mut raw = ffi::cbor_fast_typed_array::INIT;
        // SAFETY: live handle, valid out struct with struct_size set.
        let code = unsafe { ffi::cbor_reader_read_typed_array(self.raw.as_ptr(), &mut raw) };
        if code == ffi::CBOR_FAST_END {
            return Err(Error::new(Status::Truncated, offset));
        }
        if code != ffi::CBOR_FAST_OK {
            let e = reader_error(self.raw.as_ptr(), code, offset, 0);
            self.keep_if_sticky(e);
            return Err(e);
        }
        TypedArray::from_raw(raw, offset)
    }

    /// Keeps `e` as the sticky error when the library's reader has one.
    fn keep_if_sticky(&mut self, e: Error) {
        let mut ce = ffi::cbor_fast_error::INIT;
        // SAFETY: live handle, valid out pointer.
        if unsafe { ffi::cbor_reader_error(self.raw.as_ptr(), &mut ce) } != ffi::CBOR_FAST_OK {
            self.error = Some(e);
        }
    }

    /// Offset of the next byte to read.
    pub fn offset(&self) -> usize {
        // SAFETY: live handle.
        unsafe { ffi::cbor_reader_offset(self.raw.as_ptr()) }
    }

    /// Current nesting depth.
    pub fn depth(&self) -> u32 {
        // SAFETY: live handle.
        unsafe { ffi::cbor_reader_depth(self.raw.as_ptr()) }
    }

    /// The input this reader was made over.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// An Error for a failed call: the reader's sticky error when that is what
    /// failed (kept), otherwise a usage error at the current offset.
    fn fail(&mut self, code: i32) -> Error {
        let mut e = ffi::cbor_fast_error::INIT;
        // SAFETY: live handle, valid out pointer.
        let sticky = unsafe { ffi::cbor_reader_error(self.raw.as_ptr(), &mut e) };
        if sticky == code {
            let err = Error::from_c(code, &e);
            self.error = Some(err);
            err
        } else {
            Error::from_code(code, self.offset())
        }
    }

    /// The slice `[start, start + size)` of the input where the library's
    /// view points (bounds-checked, so a bad view is an error, not UB).
    fn view(
        &self,
        data: *const u8,
        size: usize,
        fallback: usize,
    ) -> Result<(usize, &'a [u8]), Error> {
        let input: &'a [u8] = self.input;
        let start = if size == 0 || data.is_null() {
            fallback.min(input.len())
        } else {
            (data as usize).wrapping_sub(input.as_ptr() as usize)
        };
        match start.checked_add(size).and_then(|end| input.get(start..end)) {
            Some(s) => Ok((start, s)),
            None => Err(Error::new(Status::Internal, fallback)),
        }
    }

    /// The next item; `Ok(None)` at the end of the input at top level.
    #[inline]
    pub fn next_item(&mut self) -> Result<Option<Item<'a>>, Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        // Straight into `last`, which join() needs: the library writes the
        // item only on success, so a failed call leaves the previous one.
        // SAFETY: live handle, valid item with struct_size set.
        let code = unsafe { ffi::cbor_reader_next(self.raw.as_ptr(), &mut self.last) };
        if code == ffi::CBOR_FAST_END {
            return Ok(None);
        }
        if code != ffi::CBOR_FAST_OK {
            return Err(self.fail(code));
        }
        let it = &self.last;
        let indefinite = it.flags & ffi::CBOR_FAST_ITEM_INDEFINITE != 0;
        let content_start = it.offset + it.head_size as usize;
        let token = match it.type_ {
            ffi::CBOR_FAST_TYPE_UINT => Token::Unsigned(it.value),
            ffi::CBOR_FAST_TYPE_NEGATIVE => Token::Negative(it.value),
            ffi::CBOR_FAST_TYPE_BYTES if indefinite => Token::BytesIndefinite,
            ffi::CBOR_FAST_TYPE_TEXT if indefinite => Token::TextIndefinite,
            ffi::CBOR_FAST_TYPE_BYTES => {
                Token::Bytes(self.view(it.data, it.size, content_start)?.1)
            }
            ffi::CBOR_FAST_TYPE_TEXT => {
                let (start, bytes) = self.view(it.data, it.size, content_start)?;
                match std::str::from_utf8(bytes) {
                    Ok(s) => Token::Text(s),
                    Err(e) => {
                        let err = Error::new(Status::InvalidUtf8, start + e.valid_up_to());
                        self.error = Some(err);
                        return Err(err);
                    }
                }
            }
            ffi::CBOR_FAST_TYPE_ARRAY => Token::Array((!indefinite).then_some(it.value)),
            ffi::CBOR_FAST_TYPE_MAP => Token::Map((!indefinite).then_some(it.value)),
            ffi::CBOR_FAST_TYPE_TAG => Token::Tag(it.value),
            ffi::CBOR_FAST_TYPE_SIMPLE => Token::Simple(it.value as u8),
            ffi::CBOR_FAST_TYPE_BOOL => Token::Bool(it.value == 21),
            ffi::CBOR_FAST_TYPE_NULL => Token::Null,
            ffi::CBOR_FAST_TYPE_UNDEFINED => Token::Undefined,
            ffi::CBOR_FAST_TYPE_FLOAT => {
                Token::Float { value: it.float_value, width: it.float_width as u8 }
            }
            ffi::CBOR_FAST_TYPE_END => {
                Token::End { brk: it.flags & ffi::CBOR_FAST_ITEM_BREAK != 0 }
            }
            _ => return Err(Error::new(Status::Internal, it.offset)),
        };
        let (offset, depth, head_size) = (it.offset, it.depth, it.head_size);
        Ok(Some(Item { token, offset, depth, head_size }))
    }

    /// Passes over the next complete item. `Ok(false)` at the end of input;
    /// `InvalidState` (not sticky) when the next thing is the enclosing
    /// container's `End`. (Not named `skip`: `Iterator::skip` would win.)
    pub fn skip_item(&mut self) -> Result<bool, Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        // `join` joins the item `next_item` returned last, and only right
        // after it.
        self.last = ffi::cbor_fast_item::INIT;
        // SAFETY: live handle.
        match unsafe { ffi::cbor_reader_skip(self.raw.as_ptr()) } {
            ffi::CBOR_FAST_OK => Ok(true),
            ffi::CBOR_FAST_END => Ok(false),
            code => Err(self.fail(code)),
        }
    }

    /// Passes over the rest of the innermost open container, tag or
    /// indefinite string, including its `End`.
    pub fn skip_to_end(&mut self) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        // `join` joins the item `next_item` returned last, and only right
        // after it.
        self.last = ffi::cbor_fast_item::INIT;
        // SAFETY: live handle.
        match unsafe { ffi::cbor_reader_skip_to_end(self.raw.as_ptr()) } {
            ffi::CBOR_FAST_OK => Ok(()),
            code => Err(self.fail(code)),
        }
    }

    /// The whole content of the string item just read: its view for a
    /// definite string, or (right after `BytesIndefinite`/`TextIndefinite`)
    /// the chunks joined, consuming them and the `End`. The joined bytes live
    /// in the reader, hence the borrow of `self`.
    pub fn join(&mut self) -> Result<&[u8], Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut data: *const u8 = ptr::null();
        let mut size = 0usize;
        let last = self.last;
        // SAFETY: live handle; `last` is the item the reader last returned.
        let code = unsafe { ffi::cbor_reader_join(self.raw.as_ptr(), &last, &mut data, &mut size) };
        if code != ffi::CBOR_FAST_OK {
            return Err(self.fail(code));
        }
        // A second join of the same item is a usage error, as in C.
        self.last = ffi::cbor_fast_item::INIT;
        if size == 0 {
            return Ok(&[]);
        }
        // SAFETY: `size` bytes at `data`, in the input or the reader's join
        // buffer; the latter lives until the next join/reset/drop, all of
        // which need `&mut self`, which the returned borrow prevents.
        Ok(unsafe { std::slice::from_raw_parts(data, size) })
    }

    /// [`Reader::join`] for text, checked with `std::str::from_utf8` (an
    /// error reports the offset of the string's head).
    pub fn join_str(&mut self) -> Result<&str, Error> {
        let offset = self.last.offset;
        let bytes = self.join()?;
        std::str::from_utf8(bytes).map_err(|_| Error::new(Status::InvalidUtf8, offset))
    }

    /// Final check: everything consumed at top level.
    pub fn finish(&mut self) -> Result<(), Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        // SAFETY: live handle.
        match unsafe { ffi::cbor_reader_finish(self.raw.as_ptr()) } {
            ffi::CBOR_FAST_OK => Ok(()),
            code => Err(self.fail(code)),
        }
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<Item<'a>, Error>;
    #[inline]
    fn next(&mut self) -> Option<Result<Item<'a>, Error>> {
        match self.next_item() {
            Ok(Some(item)) => Some(Ok(item)),
            Ok(None) => None,
            Err(_) if self.reported => None,
            Err(e) => {
                self.reported = true;
                Some(Err(e))
            }
        }
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        // SAFETY: owned handle, freed exactly once.
        unsafe { ffi::cbor_reader_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for Reader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("offset", &self.offset())
            .field("depth", &self.depth())
            .field("error", &self.error)
            .finish()
    }
}
