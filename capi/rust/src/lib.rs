//! Safe Rust bindings to libcbor_fast, a CBOR (RFC 8949) library, over its
//! stable C ABI (`cbor_fast.h`). Standard library only.
//!
//! * [`Value`], [`decode`], [`encode`]: owned values; preferred serialization.
//! * [`Sequence`]: the items of a CBOR sequence (RFC 8742).
//! * [`Reader`]: zero-copy pull reader; strings are slices of the input.
//! * [`Document`] / [`Node`]: zero-copy random access to one decoded item.
//! * [`Writer`]: push writer for hand-made encodings (indefinite lengths,
//!   forced float widths, RFC 8746 typed arrays from `&[T]`).
//! * Bulk arrays: [`Reader::read_array`] / [`Node::read_array`] read a whole
//!   array of numbers (or an RFC 8746 typed array) into a `Vec<u64>`,
//!   `Vec<i64>` or `Vec<f64>` in one library call; [`TypedArray`] is a typed
//!   array's zero-copy view.
//! * [`ffi`]: the raw C declarations, for what the safe layer leaves out
//!   (allocator hooks, sink writers, mutable documents).
//!
//! Every handle is freed by `Drop`. Handles are `Send`; [`Document`] and
//! [`Node`] are also `Sync` (the C library allows concurrent reads of one
//! document). No function here recurses over the data: decoding, encoding and
//! `==` use explicit stacks.
//!
//! ```
//! use cbor_fast::{decode, encode, Value};
//! let v = Value::Map(vec![("n".into(), Value::from(-(1i128 << 64)))]);
//! let bytes = encode(&v).unwrap();
//! assert_eq!(bytes, [0xa1, 0x61, b'n', 0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
//! assert_eq!(decode(&bytes).unwrap(), v);
//! ```

/// The raw C declarations (the `cbor-fast-sys` crate).
pub use cbor_fast_sys as ffi;

mod document;
mod error;
mod reader;
mod typed;
mod value;
mod writer;

#[cfg(feature = "serde")]
pub mod serde;

pub use document::{
    Children, DEFAULT_MAX_CONTAINER_ITEMS, DEFAULT_MAX_DEPTH, DEFAULT_MAX_ITEMS, DecodeOptions,
    Document, Entries, Node, Sequence, Type, decode, decode_with,
};
pub use error::{Error, Status};
pub use reader::{Item, Reader, Token};
pub use typed::{Number, TypedArray, TypedElement, TypedNumber};
pub use value::Value;
pub use writer::{FloatWidth, Writer, encode};

/// Runtime library version as `(major, minor, patch)`.
pub fn library_version() -> (u32, u32, u32) {
    // SAFETY: no arguments, no state.
    let v = unsafe { ffi::cbor_fast_version() };
    (v / 10000, v / 100 % 100, v % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_send_and_documents_sync() {
        fn send<T: Send>() {}
        fn sync<T: Sync>() {}
        send::<Reader<'static>>();
        send::<Writer>();
        send::<Sequence<'static>>();
        send::<Document<'static>>();
        sync::<Document<'static>>();
        send::<Node<'static, 'static>>();
        sync::<Node<'static, 'static>>();
        send::<Error>();
        sync::<Error>();
        send::<Value>();
        sync::<Value>();
    }

    #[test]
    fn runtime_version_is_the_header_version() {
        // Cargo.toml tracks the library version.
        let (major, minor, patch) = library_version();
        let expected: Vec<u32> =
            env!("CARGO_PKG_VERSION").split('.').map(|p| p.parse().unwrap()).collect();
        assert_eq!(vec![major, minor, patch], expected);
        // SAFETY: static string, no arguments.
        let s = unsafe { error::static_str(ffi::cbor_fast_version_string()) };
        assert_eq!(s, env!("CARGO_PKG_VERSION"));
    }
}
