//! `Status` and `Error`: the C status codes and where a failure happened.
use std::ffi::CStr;
use std::fmt;
use std::os::raw::c_char;

use crate::ffi;

/// Why a call failed: one variant per C `CBOR_FAST_ERR_*` code.
///
/// `CBOR_FAST_OK` and `CBOR_FAST_END` are not errors and have no variant (the
/// Rust API says "nothing more" with `None`). A code unknown to this crate
/// (from a newer library) is `Unknown`; [`Error::code`] keeps the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    InvalidArgument,
    InvalidState,
    BufferTooSmall,
    WriterUnclosed,
    WriterCount,
    WriterNoContainer,
    WriterBadChunk,
    WriterOddMap,
    SinkFailed,
    TypeMismatch,
    OutOfRange,
    /// A stream's read callback failed (since 0.5).
    SourceFailed,
    Truncated,
    ReservedAdditionalInfo,
    IndefiniteNotAllowed,
    BadSimple,
    ChunkType,
    NestedChunk,
    UnexpectedBreak,
    MapMissingValue,
    InvalidUtf8,
    TrailingBytes,
    /// A head or float longer than needed (deterministic encoding).
    NotPreferred,
    /// An indefinite-length item (deterministic encoding).
    IndefiniteLength,
    /// Map keys out of bytewise order (deterministic encoding).
    UnsortedKeys,
    /// A map key equal to an earlier key of the same map.
    DuplicateKey,
    /// JSON or diagnostic-notation text that breaks its grammar (since 0.4).
    SyntaxError,
    Depth,
    OutOfMemory,
    TooManyItems,
    /// An array or map with more entries than allowed.
    ContainerTooLarge,
    /// A string, chunk or joined string longer than allowed.
    StringTooLong,
    /// Decoding would hold more memory than the budget.
    MemoryBudget,
    Internal,
    Unknown,
}

impl Status {
    /// Every status this crate knows (all but `Unknown`), in code order: one
    /// for each `CBOR_FAST_ERR_*` enumerator of `cbor_fast.h` (a test parses
    /// the header to keep the two lists equal).
    pub const ALL: &'static [Status] = &[
        Status::InvalidArgument,
        Status::InvalidState,
        Status::BufferTooSmall,
        Status::WriterUnclosed,
        Status::WriterCount,
        Status::WriterNoContainer,
        Status::WriterBadChunk,
        Status::WriterOddMap,
        Status::SinkFailed,
        Status::TypeMismatch,
        Status::OutOfRange,
        Status::SourceFailed,
        Status::Truncated,
        Status::ReservedAdditionalInfo,
        Status::IndefiniteNotAllowed,
        Status::BadSimple,
        Status::ChunkType,
        Status::NestedChunk,
        Status::UnexpectedBreak,
        Status::MapMissingValue,
        Status::InvalidUtf8,
        Status::TrailingBytes,
        Status::NotPreferred,
        Status::IndefiniteLength,
        Status::UnsortedKeys,
        Status::DuplicateKey,
        Status::SyntaxError,
        Status::Depth,
        Status::OutOfMemory,
        Status::TooManyItems,
        Status::ContainerTooLarge,
        Status::StringTooLong,
        Status::MemoryBudget,
        Status::Internal,
    ];

    /// The status for a C code (`Unknown` for codes this crate does not know,
    /// including OK and END, which are not failures).
    pub fn from_code(code: i32) -> Status {
        match code {
            ffi::CBOR_FAST_ERR_INVALID_ARGUMENT => Status::InvalidArgument,
            ffi::CBOR_FAST_ERR_INVALID_STATE => Status::InvalidState,
            ffi::CBOR_FAST_ERR_BUFFER_TOO_SMALL => Status::BufferTooSmall,
            ffi::CBOR_FAST_ERR_WRITER_UNCLOSED => Status::WriterUnclosed,
            ffi::CBOR_FAST_ERR_WRITER_COUNT => Status::WriterCount,
            ffi::CBOR_FAST_ERR_WRITER_NO_CONTAINER => Status::WriterNoContainer,
            ffi::CBOR_FAST_ERR_WRITER_BAD_CHUNK => Status::WriterBadChunk,
            ffi::CBOR_FAST_ERR_WRITER_ODD_MAP => Status::WriterOddMap,
            ffi::CBOR_FAST_ERR_SINK_FAILED => Status::SinkFailed,
            ffi::CBOR_FAST_ERR_TYPE_MISMATCH => Status::TypeMismatch,
            ffi::CBOR_FAST_ERR_OUT_OF_RANGE => Status::OutOfRange,
            ffi::CBOR_FAST_ERR_SOURCE_FAILED => Status::SourceFailed,
            ffi::CBOR_FAST_ERR_TRUNCATED => Status::Truncated,
            ffi::CBOR_FAST_ERR_RESERVED_AI => Status::ReservedAdditionalInfo,
            ffi::CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED => Status::IndefiniteNotAllowed,
            ffi::CBOR_FAST_ERR_BAD_SIMPLE => Status::BadSimple,
            ffi::CBOR_FAST_ERR_CHUNK_TYPE => Status::ChunkType,
            ffi::CBOR_FAST_ERR_NESTED_CHUNK => Status::NestedChunk,
            ffi::CBOR_FAST_ERR_UNEXPECTED_BREAK => Status::UnexpectedBreak,
            ffi::CBOR_FAST_ERR_MAP_MISSING_VALUE => Status::MapMissingValue,
            ffi::CBOR_FAST_ERR_INVALID_UTF8 => Status::InvalidUtf8,
            ffi::CBOR_FAST_ERR_TRAILING_BYTES => Status::TrailingBytes,
            ffi::CBOR_FAST_ERR_NOT_PREFERRED => Status::NotPreferred,
            ffi::CBOR_FAST_ERR_INDEFINITE_LENGTH => Status::IndefiniteLength,
            ffi::CBOR_FAST_ERR_UNSORTED_KEYS => Status::UnsortedKeys,
            ffi::CBOR_FAST_ERR_DUPLICATE_KEY => Status::DuplicateKey,
            ffi::CBOR_FAST_ERR_SYNTAX_ERROR => Status::SyntaxError,
            ffi::CBOR_FAST_ERR_DEPTH => Status::Depth,
            ffi::CBOR_FAST_ERR_OUT_OF_MEMORY => Status::OutOfMemory,
            ffi::CBOR_FAST_ERR_TOO_MANY_ITEMS => Status::TooManyItems,
            ffi::CBOR_FAST_ERR_CONTAINER_TOO_LARGE => Status::ContainerTooLarge,
            ffi::CBOR_FAST_ERR_STRING_TOO_LONG => Status::StringTooLong,
            ffi::CBOR_FAST_ERR_MEMORY_BUDGET => Status::MemoryBudget,
            ffi::CBOR_FAST_ERR_INTERNAL => Status::Internal,
            _ => Status::Unknown,
        }
    }

    /// The C code (`-1` for `Unknown`, which has no single code).
    pub fn code(self) -> i32 {
        match self {
            Status::InvalidArgument => ffi::CBOR_FAST_ERR_INVALID_ARGUMENT,
            Status::InvalidState => ffi::CBOR_FAST_ERR_INVALID_STATE,
            Status::BufferTooSmall => ffi::CBOR_FAST_ERR_BUFFER_TOO_SMALL,
            Status::WriterUnclosed => ffi::CBOR_FAST_ERR_WRITER_UNCLOSED,
            Status::WriterCount => ffi::CBOR_FAST_ERR_WRITER_COUNT,
            Status::WriterNoContainer => ffi::CBOR_FAST_ERR_WRITER_NO_CONTAINER,
            Status::WriterBadChunk => ffi::CBOR_FAST_ERR_WRITER_BAD_CHUNK,
            Status::WriterOddMap => ffi::CBOR_FAST_ERR_WRITER_ODD_MAP,
            Status::SinkFailed => ffi::CBOR_FAST_ERR_SINK_FAILED,
            Status::TypeMismatch => ffi::CBOR_FAST_ERR_TYPE_MISMATCH,
            Status::OutOfRange => ffi::CBOR_FAST_ERR_OUT_OF_RANGE,
            Status::SourceFailed => ffi::CBOR_FAST_ERR_SOURCE_FAILED,
            Status::Truncated => ffi::CBOR_FAST_ERR_TRUNCATED,
            Status::ReservedAdditionalInfo => ffi::CBOR_FAST_ERR_RESERVED_AI,
            Status::IndefiniteNotAllowed => ffi::CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED,
            Status::BadSimple => ffi::CBOR_FAST_ERR_BAD_SIMPLE,
            Status::ChunkType => ffi::CBOR_FAST_ERR_CHUNK_TYPE,
            Status::NestedChunk => ffi::CBOR_FAST_ERR_NESTED_CHUNK,
            Status::UnexpectedBreak => ffi::CBOR_FAST_ERR_UNEXPECTED_BREAK,
            Status::MapMissingValue => ffi::CBOR_FAST_ERR_MAP_MISSING_VALUE,
            Status::InvalidUtf8 => ffi::CBOR_FAST_ERR_INVALID_UTF8,
            Status::TrailingBytes => ffi::CBOR_FAST_ERR_TRAILING_BYTES,
            Status::NotPreferred => ffi::CBOR_FAST_ERR_NOT_PREFERRED,
            Status::IndefiniteLength => ffi::CBOR_FAST_ERR_INDEFINITE_LENGTH,
            Status::UnsortedKeys => ffi::CBOR_FAST_ERR_UNSORTED_KEYS,
            Status::DuplicateKey => ffi::CBOR_FAST_ERR_DUPLICATE_KEY,
            Status::SyntaxError => ffi::CBOR_FAST_ERR_SYNTAX_ERROR,
            Status::Depth => ffi::CBOR_FAST_ERR_DEPTH,
            Status::OutOfMemory => ffi::CBOR_FAST_ERR_OUT_OF_MEMORY,
            Status::TooManyItems => ffi::CBOR_FAST_ERR_TOO_MANY_ITEMS,
            Status::ContainerTooLarge => ffi::CBOR_FAST_ERR_CONTAINER_TOO_LARGE,
            Status::StringTooLong => ffi::CBOR_FAST_ERR_STRING_TOO_LONG,
            Status::MemoryBudget => ffi::CBOR_FAST_ERR_MEMORY_BUDGET,
            Status::Internal => ffi::CBOR_FAST_ERR_INTERNAL,
            Status::Unknown => -1,
        }
    }

    /// True for the not-well-formed block (codes 100-199, RFC 8949 Appendix F).
    pub fn is_malformed(self) -> bool {
        (100..200).contains(&self.code())
    }

    /// The library's short name for the status ("truncated").
    pub fn name(self) -> &'static str {
        // SAFETY: cbor_status_name accepts any value and returns static text.
        unsafe { static_str(ffi::cbor_status_name(self.code())) }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failure: what went wrong and where.
///
/// `offset` is the byte offset in the input for decoding errors (the rules are
/// the library's: the offending head, the first invalid UTF-8 byte, or the
/// input size when input ends where an item is due). For writer errors it is
/// the number of bytes written so far; for usage errors with no position, 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    /// The kind of failure.
    pub status: Status,
    /// The C status code (kept even when `status` is `Unknown`).
    pub code: i32,
    /// Byte offset of the problem (see above).
    pub offset: usize,
    /// Static English description from the library.
    pub message: &'static str,
}

impl Error {
    /// An error for a C status code at `offset`, with the library's message.
    pub(crate) fn from_code(code: i32, offset: usize) -> Error {
        // SAFETY: cbor_status_string accepts any value and returns static text.
        let message = unsafe { static_str(ffi::cbor_status_string(code)) };
        Error { status: Status::from_code(code), code, offset, message }
    }

    /// An error from a filled `cbor_fast_error` (falls back to `code` when the
    /// struct was left untouched).
    pub(crate) fn from_c(code: i32, e: &ffi::cbor_fast_error) -> Error {
        if e.code != code || e.message.is_null() {
            return Error::from_code(code, e.offset);
        }
        // SAFETY: the header promises `message` is static text, never freed.
        let message = unsafe { static_str(e.message) };
        Error { status: Status::from_code(code), code, offset: e.offset, message }
    }

    /// Same as `from_code` for a Rust-side status.
    pub(crate) fn new(status: Status, offset: usize) -> Error {
        Error::from_code(status.code(), offset)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {} ({})", self.message, self.offset, self.status.name())
    }
}

impl std::error::Error for Error {}

/// Turns a C status into `Ok(())` (OK) or an `Error` at `offset`. END is not
/// expected where this is used and counts as a failure of kind `Unknown`.
pub(crate) fn check(code: i32, offset: usize) -> Result<(), Error> {
    if code == ffi::CBOR_FAST_OK { Ok(()) } else { Err(Error::from_code(code, offset)) }
}

/// Text the library keeps for the life of the process (status strings); the
/// library is linked, never unloaded, so `'static` is right. Non-UTF-8 text
/// (never produced) becomes "".
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string that lives forever.
pub(crate) unsafe fn static_str(p: *const c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: the caller's promise.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_round_trips_through_its_code() {
        // Status::ALL is checked against the header (tests/status_header.rs).
        for &s in Status::ALL {
            assert_eq!(Status::from_code(s.code()), s);
            // The library knows every code this crate declares.
            assert_ne!(s.name(), "unknown", "{s:?}");
            // SAFETY: any value is accepted.
            let malformed = unsafe { ffi::cbor_status_is_malformed(s.code()) } != 0;
            assert_eq!(s.is_malformed(), malformed, "{s:?}");
        }
        assert_eq!(Status::from_code(0), Status::Unknown);
        assert_eq!(Status::from_code(1), Status::Unknown);
        assert_eq!(Status::from_code(12345), Status::Unknown);
    }

    #[test]
    fn display_names_message_offset_and_status() {
        let e = Error::new(Status::Truncated, 7);
        assert_eq!(e.code, 100);
        assert!(!e.message.is_empty());
        assert_eq!(e.to_string(), format!("{} at byte 7 (truncated)", e.message));
    }
}
