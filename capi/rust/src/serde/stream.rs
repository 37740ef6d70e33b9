//! Typed values from an `io::Read`: [`from_reader`] for one item and
//! [`StreamDeserializer`] for the items of a CBOR sequence (RFC 8742) as
//! they arrive, from a file, a pipe or a socket, in bounded memory.
//!
//! Each item is found whole first (the library's streaming reader passes
//! over it as the bytes come, never reading from the start again), then
//! decoded from its bytes by the same deserializer as [`from_slice`]: the
//! values, statuses and limits are [`from_slice`]'s, and offsets count from
//! the start of the stream.
//!
//! ```no_run
//! use cbor_fast::serde::StreamDeserializer;
//!
//! #[derive(serde::Deserialize)]
//! struct Msg { id: u64 }
//!
//! fn serve(socket: std::net::TcpStream) -> Result<(), cbor_fast::serde::Error> {
//!     for msg in StreamDeserializer::<_, Msg>::new(socket) {
//!         let msg = msg?; // an Err has a Status and the offset from the stream's start
//!         println!("message {}", msg.id);
//!     }
//!     Ok(())
//! }
//! ```
use std::io::{self, Read};
use std::marker::PhantomData;
use std::ptr::{self, NonNull};

use serde::de::DeserializeOwned;

use super::de::{Deserializer, from_slice, from_slice_with};
use super::error::Error;
use crate::DecodeOptions;
use crate::error::Status;
use crate::ffi;

/// The most bytes a [`StreamDeserializer`] holds at once unless told
/// otherwise ([`StreamDeserializer::max_buffer`]): an item that needs more
/// is a [`Status::MemoryBudget`] error at its offset. The same default as
/// the C API's `cbor_stream_new`.
pub const DEFAULT_MAX_BUFFER: usize = 64 << 20;

/// The least a read asks for. The buffer grows by at most its own size per
/// read, so a length claimed in a head (a 2^63-byte string) costs memory
/// only as its bytes arrive.
const MIN_READ: usize = 8 << 10;

/// Reads exactly one item from `reader` as a `T`, then requires the end of
/// the input: bytes after the item are [`Status::TrailingBytes`] at the
/// first of them (as [`from_slice`]). Reads the whole input first (at most
/// [`DEFAULT_MAX_BUFFER`] bytes, else [`Status::MemoryBudget`] at 0), then
/// decodes it as [`from_slice`] does; for one item of a longer stream, or a
/// connection that stays open, use a [`StreamDeserializer`].
///
/// ```
/// let bytes: &[u8] = &[0x82, 0x01, 0x63, b'a', b'b', b'c'];
/// let v: (u8, String) = cbor_fast::serde::from_reader(bytes).unwrap();
/// assert_eq!(v, (1, "abc".to_string()));
/// ```
///
/// An empty input is [`Status::Truncated`] at offset 0; a read error
/// [`Status::SourceFailed`] at the offset reached.
pub fn from_reader<T: DeserializeOwned, R: Read>(reader: R) -> Result<T, Error> {
    // The whole input is read first (it must be, to check its end), then
    // decoded once as from_slice decodes it: finding the item's end on the
    // way (StreamDeserializer) cost 2.5x from_slice's instructions on canada.
    from_slice(&read_all(reader)?)
}

/// The whole input, at most DEFAULT_MAX_BUFFER bytes (more is
/// MemoryBudget at offset 0, as an item over a StreamDeserializer's bound).
fn read_all<R: Read>(reader: R) -> Result<Vec<u8>, Error> {
    let mut all = Vec::new();
    let limit = DEFAULT_MAX_BUFFER as u64 + 1;
    if let Err(e) = reader.take(limit).read_to_end(&mut all) {
        return Err(Error::new(
            Status::SourceFailed,
            all.len(),
            format!("reading the input failed: {e}"),
        ));
    }
    if all.len() > DEFAULT_MAX_BUFFER {
        return Err(Error::new(Status::MemoryBudget, 0, "the input does not fit the buffer"));
    }
    Ok(all)
}

/// [`from_reader`] with [`from_slice_with`]'s options (limits and checks);
/// with `exact == false` the item is found as it arrives (as a
/// [`StreamDeserializer`] finds it) and nothing is read after it but what
/// the last read brought (dropped with the reader's buffer).
pub fn from_reader_with<T: DeserializeOwned, R: Read>(
    reader: R,
    options: &DecodeOptions,
) -> Result<T, Error> {
    if options.exact {
        return from_slice_with(&read_all(reader)?, options);
    }
    StreamDeserializer::<R, T>::with_options(reader, options).first()
}

/// The items of a CBOR sequence read from `R`, each deserialized as a `T`:
/// an iterator of `Result<T, Error>` that ends at the end of the input
/// between two items.
///
/// ```
/// use cbor_fast::Status;
/// use cbor_fast::serde::StreamDeserializer;
/// // A sequence of three items: 1, "two", 3.
/// let bytes: &[u8] = &[0x01, 0x63, b't', b'w', b'o', 0x03];
/// let mut items = StreamDeserializer::<_, u32>::new(bytes);
/// assert_eq!(items.next().unwrap().unwrap(), 1);
/// assert_eq!(items.offset(), 1);
/// // "two" is not a u32: an error at its offset, and the item is passed over.
/// let err = items.next().unwrap().unwrap_err();
/// assert_eq!((err.status(), err.offset()), (Status::TypeMismatch, 1));
/// assert_eq!(items.next().unwrap().unwrap(), 3);
/// assert!(items.next().is_none());
/// ```
///
/// * Memory: the bytes of the item being read (and what one read brings
///   after it), at most [`max_buffer`](Self::max_buffer) bytes; earlier
///   items' bytes are dropped.
/// * Errors carry offsets from the start of the stream. A value that does
///   not fit `T` ([`Status::TypeMismatch`] and other errors of decoding a
///   complete item) consumes that item, and the next call goes on with the
///   next one. Input that is not well-formed, the input ending inside an
///   item ([`Status::Truncated`]), an item larger than the buffer may hold
///   ([`Status::MemoryBudget`]) and read errors ([`Status::SourceFailed`])
///   end the sequence: the error is returned once, then `None`.
/// * A reader that returns no bytes without reaching its end
///   (`ErrorKind::WouldBlock`, or `Interrupted`, which is retried) is not
///   supported: use a blocking reader.
pub struct StreamDeserializer<R, T> {
    reader: R,
    /// The library reader that finds where each item ends (streaming on),
    /// made on first use; restarted at each item.
    finder: Option<NonNull<ffi::cbor_reader>>,
    options: Option<DecodeOptions>,
    /// The bytes read and kept are `buf[..end]` (the rest is room for the
    /// next read, initialised once); `buf[off..end]` are not decoded yet.
    buf: Vec<u8>,
    off: usize,
    end: usize,
    /// The stream offset of `buf[0]`.
    base: usize,
    eof: bool,
    failed: bool,
    max_buffer: usize,
    marker: PhantomData<fn() -> T>,
}

// SAFETY: the finder handle has no thread affinity, is owned by this value
// alone and used through &mut.
unsafe impl<R: Send, T> Send for StreamDeserializer<R, T> {}

impl<R, T> Drop for StreamDeserializer<R, T> {
    fn drop(&mut self) {
        if let Some(f) = self.finder.take() {
            // SAFETY: owned handle, freed once.
            unsafe { ffi::cbor_reader_free(f.as_ptr()) }
        }
    }
}

impl<R: Read, T: DeserializeOwned> StreamDeserializer<R, T> {
    /// Items with [`from_slice`]'s defaults (max depth 512, UTF-8 checked).
    pub fn new(reader: R) -> StreamDeserializer<R, T> {
        StreamDeserializer {
            reader,
            finder: None,
            options: None,
            buf: Vec::new(),
            off: 0,
            end: 0,
            base: 0,
            eof: false,
            failed: false,
            max_buffer: DEFAULT_MAX_BUFFER,
            marker: PhantomData,
        }
    }

    /// Items with [`from_slice_with`]'s options (each item is decoded on its
    /// own, so `exact` does not apply; `max_items` counts per item).
    pub fn with_options(reader: R, options: &DecodeOptions) -> StreamDeserializer<R, T> {
        let mut s = StreamDeserializer::new(reader);
        s.options = Some(DecodeOptions { exact: true, ..*options });
        s
    }

    /// The most bytes held at once (0: [`DEFAULT_MAX_BUFFER`]).
    pub fn max_buffer(mut self, bytes: usize) -> StreamDeserializer<R, T> {
        self.max_buffer = if bytes == 0 { DEFAULT_MAX_BUFFER } else { bytes };
        self
    }

    /// The stream offset of the next item (after the last one returned).
    pub fn offset(&self) -> usize {
        self.base + self.off
    }

    /// The bytes read from the reader and not decoded yet.
    pub fn buffered(&self) -> &[u8] {
        &self.buf[self.off..self.end]
    }

    /// The next item as a `T`; `None` at the end of the input between items
    /// and after an error that ends the sequence (see the type).
    pub fn next_value(&mut self) -> Option<Result<T, Error>> {
        if self.failed {
            return None;
        }
        match self.frame() {
            Ok(None) => None,
            Ok(Some(n)) => {
                let at = self.offset();
                let value = self.decode(n).map_err(|e| e.shifted(at));
                self.off += n;
                Some(value)
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }

    /// The first item, for `from_reader`: an empty input is truncated.
    fn first(&mut self) -> Result<T, Error> {
        match self.next_value() {
            Some(v) => v,
            None => Err(Error::new(Status::Truncated, 0, "input ends where an item is due")),
        }
    }

    /// Decodes the complete item `buf[off..off + n]` (offsets from its start).
    fn decode(&self, n: usize) -> Result<T, Error> {
        let item = &self.buf[self.off..self.off + n];
        match &self.options {
            None => from_slice(item),
            Some(o) => from_slice_with(item, o),
        }
    }

    /// The library reader that finds item ends: the options' limits and
    /// checks (those `decode` applies), streaming on (off for good once the
    /// input has ended).
    fn finder(&mut self) -> Result<NonNull<ffi::cbor_reader>, Error> {
        if let Some(f) = self.finder {
            return Ok(f);
        }
        let mut raw = ptr::null_mut();
        // SAFETY: valid out pointer; no data (size 0); NULL allocator = malloc.
        let code = unsafe { ffi::cbor_reader_new(ptr::null(), 0, ptr::null(), &mut raw) };
        let Some(f) = NonNull::new(raw) else {
            let code = if code == ffi::CBOR_FAST_OK { ffi::CBOR_FAST_ERR_INTERNAL } else { code };
            return Err(crate::Error::from_code(code, self.offset()).into());
        };
        self.finder = Some(f);
        let o = self.options.unwrap_or_default();
        let flags =
            (o.flags() & !ffi::CBOR_FAST_DECODE_EXACT) | ffi::CBOR_FAST_DECODE_VALIDATE_UTF8;
        let c = o.to_c();
        // SAFETY: live handle; `c` outlives the call, which only reads it.
        let mut code = unsafe { ffi::cbor_reader_configure(f.as_ptr(), flags, &c) };
        if code == ffi::CBOR_FAST_OK {
            // SAFETY: live handle.
            code = unsafe { ffi::cbor_reader_set(f.as_ptr(), ffi::CBOR_FAST_OPT_STREAMING, 1) };
        }
        crate::error::check(code, self.offset())?;
        Ok(f)
    }

    /// Reads until the next item is complete in `buf[off..]` and returns its
    /// length; `None` at the end of the input between items. An error here
    /// ends the sequence.
    fn frame(&mut self) -> Result<Option<usize>, Error> {
        if self.off == self.end && self.eof {
            return Ok(None);
        }
        let f = self.finder()?.as_ptr();
        let rest = &self.buf[self.off..self.end];
        // SAFETY: live handle; the bytes stay where they are until the next
        // feed or reset (buf changes only in read_more, followed by a feed).
        let mut code = unsafe { ffi::cbor_reader_reset(f, rest.as_ptr().cast(), rest.len()) };
        if code != ffi::CBOR_FAST_OK {
            return Err(crate::Error::from_code(code, self.offset()).into());
        }
        loop {
            // SAFETY: live handle over buf[off..].
            code = unsafe { ffi::cbor_reader_skip(f) };
            match code {
                // SAFETY: live handle.
                ffi::CBOR_FAST_OK => return Ok(Some(unsafe { ffi::cbor_reader_offset(f) })),
                ffi::CBOR_FAST_END => return Ok(None),
                ffi::CBOR_FAST_NEED_MORE if self.eof => {
                    // No more input: the finder says whether an item was cut
                    // short (truncated) or none began (the end).
                    // SAFETY: live handle.
                    code = unsafe { ffi::cbor_reader_set(f, ffi::CBOR_FAST_OPT_STREAMING, 0) };
                    crate::error::check(code, self.offset())?;
                }
                ffi::CBOR_FAST_NEED_MORE => {
                    // SAFETY: live handle.
                    let wanted = unsafe { ffi::cbor_reader_needed(f) };
                    self.read_more(wanted)?;
                    // The item's bytes, perhaps moved and grown: the stream
                    // from the item's start (offset 0 for the finder).
                    let rest = &self.buf[self.off..self.end];
                    // SAFETY: live handle; the bytes stay until the next change.
                    code = unsafe { ffi::cbor_reader_feed(f, rest.as_ptr().cast(), rest.len(), 0) };
                    crate::error::check(code, self.offset())?;
                }
                _ => return Err(self.refused(f, code)),
            }
        }
    }

    /// The error for an item the finder refused: decoding its bytes at hand
    /// finds the error `from_slice` gives for them when that comes first (a
    /// type error before a bad byte further on); else the finder's. The
    /// bytes at hand may end inside the item: they are decoded by a
    /// streaming reader, which stops where they end (not at a container's
    /// head whose count they cannot hold, as `from_slice` would), so that
    /// the error does not depend on how the reads cut the input.
    fn refused(&mut self, f: *mut ffi::cbor_reader, code: i32) -> Error {
        let mut e = ffi::cbor_fast_error::INIT;
        // SAFETY: live handle, valid out pointer.
        let sticky = unsafe { ffi::cbor_reader_error(f, &mut e) };
        let found: Error = if sticky == code {
            crate::Error::from_c(code, &e).into()
        } else {
            // SAFETY: live handle.
            crate::Error::from_code(code, unsafe { ffi::cbor_reader_offset(f) }).into()
        };
        let at = self.offset();
        let rest = &self.buf[self.off..self.end];
        let decoded = Deserializer::partial(rest, self.options.as_ref())
            .and_then(|mut de| de.deserialize_one::<T>().map(drop));
        match decoded {
            Err(d)
                if d.status() != Status::Truncated
                    && d.code() != ffi::CBOR_FAST_NEED_MORE
                    && d.offset() <= found.offset() =>
            {
                d.shifted(at)
            }
            _ => found.shifted(at),
        }
    }

    /// Reads more input: at least one byte unless the input has ended
    /// (then `eof`). Drops the bytes before the item being read (the finder
    /// restarts at each item, so nothing before it is needed).
    fn read_more(&mut self, wanted: usize) -> Result<(), Error> {
        if self.off > 0 {
            self.buf.copy_within(self.off..self.end, 0);
            self.base += self.off;
            self.end -= self.off;
            self.off = 0;
        }
        let len = self.end;
        if len >= self.max_buffer {
            return Err(Error::new(
                Status::MemoryBudget,
                self.base,
                "the item does not fit the stream's buffer",
            ));
        }
        // As much as the item wants, but never more than doubles the buffer.
        let want = wanted.max(MIN_READ).min(len.max(MIN_READ)).min(self.max_buffer - len);
        if self.buf.len() < len + want {
            // Exactly: the buffer stays within max_buffer (the wants double,
            // so the growth is geometric all the same).
            self.buf.reserve_exact(len + want - self.buf.len());
            self.buf.resize(len + want, 0);
        }
        loop {
            match self.reader.read(&mut self.buf[len..]) {
                Ok(n) => {
                    self.end = len + n.min(self.buf.len() - len);
                    if n == 0 {
                        self.eof = true;
                    }
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(Error::new(
                        Status::SourceFailed,
                        self.base + len,
                        format!("reading the input failed: {e}"),
                    ));
                }
            }
        }
    }
}

impl<R: Read, T: DeserializeOwned> Iterator for StreamDeserializer<R, T> {
    type Item = Result<T, Error>;

    fn next(&mut self) -> Option<Result<T, Error>> {
        self.next_value()
    }
}
