//! The error of `from_slice`, `to_vec` and friends: a status, a byte offset
//! and a message.
use std::borrow::Cow;
use std::fmt;

use crate::error::Status;

/// A serde failure with its status and byte offset.
///
/// * Not-well-formed input, limits and invalid UTF-8: the library's status and
///   offset (as [`crate::Error`]).
/// * A value that does not fit the target type (serde's "invalid type",
///   "missing field", an unknown variant, an out-of-range integer):
///   [`Status::TypeMismatch`] at the offset of the head of the item being
///   read when it failed.
/// * Serializing something CBOR cannot say this way (a `serialize_map` that
///   got a key without a value, a user `Serialize` failing):
///   [`Status::InvalidArgument`] at the output offset; `to_writer` I/O
///   failures: [`Status::SinkFailed`].
///
/// One pointer wide (boxed), which keeps every `Result` of the hot paths small.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    status: Status,
    code: i32,
    offset: Option<usize>,
    /// The library's and this crate's own messages are static text, held
    /// without an allocation of their own (one box per error, not two);
    /// serde's `custom` messages are formatted.
    message: Cow<'static, str>,
}

impl Error {
    /// The kind of failure.
    pub fn status(&self) -> Status {
        self.0.status
    }

    /// The C status code (kept when `status()` is `Unknown`).
    pub fn code(&self) -> i32 {
        self.0.code
    }

    /// Byte offset of the problem (see the type's documentation).
    pub fn offset(&self) -> usize {
        self.0.offset.unwrap_or(0)
    }

    /// What went wrong, in English.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    pub(crate) fn new(
        status: Status,
        offset: usize,
        message: impl Into<Cow<'static, str>>,
    ) -> Error {
        Error(Box::new(Inner {
            status,
            code: status.code(),
            offset: Some(offset),
            message: message.into(),
        }))
    }

    /// A message without a position yet; the caller that knows one fills it in.
    fn unplaced(status: Status, message: String) -> Error {
        Error(Box::new(Inner {
            status,
            code: status.code(),
            offset: None,
            message: message.into(),
        }))
    }

    /// Gives an error raised without a position (serde's `custom`) the offset
    /// `offset`; placed errors keep theirs.
    pub(crate) fn at(mut self, offset: usize) -> Error {
        if self.0.offset.is_none() {
            self.0.offset = Some(offset);
        }
        self
    }

    /// The same error counted `by` bytes further into a stream (an item's
    /// error from the bytes of that item alone, placed in the whole input).
    pub(crate) fn shifted(mut self, by: usize) -> Error {
        if let Some(o) = self.0.offset.as_mut() {
            *o += by;
        }
        self
    }
}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Error {
        Error(Box::new(Inner {
            status: e.status,
            code: e.code,
            offset: Some(e.offset),
            message: Cow::Borrowed(e.message),
        }))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {} ({})", self.0.message, self.offset(), self.0.status.name())
    }
}

impl std::error::Error for Error {}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::unplaced(Status::TypeMismatch, msg.to_string())
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::unplaced(Status::InvalidArgument, msg.to_string())
    }
}
