//! serde support (feature `serde`): [`from_slice`], [`from_reader`], [`to_vec`],
//! [`to_writer`]; the items of a CBOR sequence with [`Deserializer::into_iter`]
//! (a slice) or [`StreamDeserializer`] (an `io::Read`).
//!
//! The wire format is serde_cbor's and ciborium's, so data moves between them
//! and this crate both ways:
//!
//! | Rust | CBOR |
//! |---|---|
//! | integers (`i8`..`i128`, `u8`..`u128`) | major types 0/1 in the shortest head; beyond 64 bits tags 2/3 (bignums) |
//! | `f32`, `f64` | the shortest float that keeps the value exactly (half, single, double) |
//! | `&str`, `String`, `char` | text string |
//! | `&[u8]`, `serde_bytes` | byte string (a plain `Vec<u8>` is an array of integers, as in serde) |
//! | `Option` | `null` or the value |
//! | `()`, unit struct | `null` |
//! | sequences, tuples | definite-length array (indefinite when serde gives no length) |
//! | maps, structs | definite-length map (struct fields keyed by name; indefinite when serde gives no length: `#[serde(flatten)]`) |
//! | enums | externally tagged: `"Variant"`, or `{"Variant": content}` |
//! | [`Tagged`] | tag head and content |
//! | `Vec<u64>`/`Vec<i64>`/`Vec<f64>` with [`typed_array`] | RFC 8746 typed array (tag 64..87 over the bytes) |
//!
//! Reading accepts more: indefinite lengths, half/single floats for `f64`,
//! integers for floats, a struct as an array of its fields, `undefined` as
//! `null`, and tags around anything (ignored unless asked for by `Tagged` or
//! ciborium's `tag::{Captured, Required, Accepted}`, which read as ciborium
//! reads them).
//! Errors carry a status and byte offset ([`Error`]).
//!
//! Number vectors: a `Vec<u64>`, `Vec<i64>` or `Vec<f64>` field with
//! `#[serde(with = "cbor_fast::serde::bulk")]` (or [`typed_array`]) is read by
//! this crate's deserializer in one library call, from a plain array or an
//! RFC 8746 typed array; fields without the attribute are read element by
//! element, as serde asks.
//!
//! The serializer writes bytes directly in Rust (preferred serialization,
//! byte-identical to the C writer); the deserializer reads the library's
//! items in batches (`cbor_reader_next_batch`).
mod de;
mod error;
mod numbers;
mod ser;
mod stack;
mod stream;
mod tag;
mod utf8;

/// Runs its closure when dropped: when the call it guards returns or
/// unwinds. The thread-locals that hand a value from a `Serialize` or
/// `Deserialize` impl to this crate's serializer or deserializer are cleared
/// through it, so that a serializer or visitor that panics leaves nothing for
/// a later, unrelated call (a slice's address, once freed, was copied from).
pub(crate) struct OnDrop<F: FnMut()>(pub(crate) F);

impl<F: FnMut()> Drop for OnDrop<F> {
    fn drop(&mut self) {
        (self.0)()
    }
}

pub use de::{Deserializer, SliceItems, from_slice, from_slice_with};
pub use error::Error;
pub use numbers::{BulkElement, bulk, typed_array};
pub use ser::{Compound, Serializer, to_vec, to_writer};
pub use stream::{DEFAULT_MAX_BUFFER, StreamDeserializer, from_reader, from_reader_with};
pub use tag::Tagged;
