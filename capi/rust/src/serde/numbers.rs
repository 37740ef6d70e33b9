//! Field attributes for number vectors: `#[serde(with = "cbor_fast::serde::bulk")]`
//! and `#[serde(with = "cbor_fast::serde::typed_array")]` on `Vec<u64>`,
//! `Vec<i64>` and `Vec<f64>` fields.
//!
//! serde hands a plain `Vec<f64>` field to the format element by element,
//! and a format cannot tell it apart from any other sequence; these modules
//! name the field's element type to the deserializer (a private newtype
//! name), so this crate's [`Deserializer`](super::Deserializer) reads the
//! whole array with the library's bulk reader (`cbor_reader_read_*_array`)
//! and hands the `Vec` over as it is. Every other format sees an ordinary
//! sequence, so the same struct still works with serde_json, ciborium and
//! the rest.
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::{Number, TypedNumber};

pub(crate) const BULK_U64: &str = "@@CBOR_FAST_BULK_U64@@";
pub(crate) const BULK_I64: &str = "@@CBOR_FAST_BULK_I64@@";
pub(crate) const BULK_F64: &str = "@@CBOR_FAST_BULK_F64@@";
pub(crate) const TYPED: &str = "@@CBOR_FAST_TYPED@@";

thread_local! {
    /// The `Vec` this crate's deserializer read for the visitor it calls next.
    static READ: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    /// The slice `typed_array::serialize` asks this crate's serializer to
    /// write: (address, element count, bytes per element, CBOR_FAST_TYPED_* element).
    static WRITE: Cell<Option<(usize, usize, usize, u32)>> = const { Cell::new(None) };
}

/// An element type of the bulk readers that serde can also handle
/// element by element: `u64`, `i64`, `f64`.
pub trait BulkElement: Number + Serialize + for<'de> Deserialize<'de> {
    #[doc(hidden)]
    const NAME: &'static str;
}
impl BulkElement for u64 {
    const NAME: &'static str = BULK_U64;
}
impl BulkElement for i64 {
    const NAME: &'static str = BULK_I64;
}
impl BulkElement for f64 {
    const NAME: &'static str = BULK_F64;
}

/// Called by this crate's deserializer right before `visit_unit`.
pub(crate) fn hand_over<T: 'static>(v: Vec<T>) {
    READ.with(|r| *r.borrow_mut() = Some(Box::new(v)));
}

/// Drops the `Vec` of `hand_over` if the visitor did not take it.
pub(crate) fn drop_handed() {
    let _ = READ.try_with(|r| r.borrow_mut().take());
}

/// The slice a `typed_array::serialize` call in progress asked for.
pub(crate) fn take_typed() -> Option<(usize, usize, usize, u32)> {
    WRITE.with(|w| w.take())
}

struct BulkVisitor<T>(PhantomData<T>);

impl<'de, T: BulkElement> Visitor<'de> for BulkVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of numbers")
    }

    /// This crate's deserializer: the `Vec` it read in one call.
    fn visit_unit<E: de::Error>(self) -> Result<Vec<T>, E> {
        match READ.with(|r| r.borrow_mut().take()).map(|b| b.downcast::<Vec<T>>()) {
            Some(Ok(v)) => Ok(*v),
            _ => Err(E::invalid_type(de::Unexpected::Unit, &self)),
        }
    }

    /// Any other format: the sequence, element by element.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        Vec::<T>::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(x) = seq.next_element()? {
            v.push(x);
        }
        Ok(v)
    }
}

fn deserialize_vec<'de, D: Deserializer<'de>, T: BulkElement>(d: D) -> Result<Vec<T>, D::Error> {
    d.deserialize_newtype_struct(T::NAME, BulkVisitor::<T>(PhantomData))
}

/// `#[serde(with = "cbor_fast::serde::bulk")]` on a `Vec<u64>`, `Vec<i64>` or
/// `Vec<f64>` field: written as a plain array (as without the attribute);
/// read in one library call from a plain array (any head or float width per
/// element; a tag 41 in front allowed) or an RFC 8746 typed array. An
/// element of another type is [`Status::TypeMismatch`](crate::Status), one
/// that does not fit [`Status::OutOfRange`](crate::Status), both at the
/// element's offset.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Series {
///     #[serde(with = "cbor_fast::serde::bulk")]
///     t: Vec<u64>,
///     #[serde(with = "cbor_fast::serde::bulk")]
///     v: Vec<f64>,
/// }
/// let s = Series { t: vec![1, 1 << 40], v: vec![0.5, -2.0] };
/// let bytes = cbor_fast::serde::to_vec(&s).unwrap();
/// assert_eq!(bytes[..3], [0xa2, 0x61, b't']);
/// assert_eq!(cbor_fast::serde::from_slice::<Series>(&bytes).unwrap(), s);
/// ```
pub mod bulk {
    use super::*;

    pub fn serialize<S: Serializer, T: Serialize>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: BulkElement>(
        d: D,
    ) -> Result<Vec<T>, D::Error> {
        deserialize_vec(d)
    }
}

/// `#[serde(with = "cbor_fast::serde::typed_array")]` on a `Vec<u64>`,
/// `Vec<i64>` or `Vec<f64>` field: written by this crate's serializer as an
/// RFC 8746 typed array in the host's byte order (tags 71, 79, 86 on
/// little-endian hosts; the elements' bytes copied at once), by other
/// serializers as a plain array; read as [`bulk`] reads.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Samples {
///     #[serde(with = "cbor_fast::serde::typed_array")]
///     v: Vec<f64>,
/// }
/// let s = Samples { v: vec![1.5] };
/// let bytes = cbor_fast::serde::to_vec(&s).unwrap();
/// # if cfg!(target_endian = "little") {
/// assert_eq!(bytes, [0xa1, 0x61, b'v', 0xd8, 0x56, 0x48, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f]);
/// # }
/// assert_eq!(cbor_fast::serde::from_slice::<Samples>(&bytes).unwrap(), s);
/// ```
pub mod typed_array {
    use super::*;

    /// The plain array other serializers get.
    struct Plain<'v, T>(&'v [T]);
    impl<T: Serialize> Serialize for Plain<'_, T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.0)
        }
    }

    pub fn serialize<S: Serializer, T: Serialize + TypedNumber>(
        v: &[T],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let size = std::mem::size_of::<T>();
        WRITE.with(|w| w.set(Some((v.as_ptr() as usize, v.len(), size, T::ELEMENT))));
        // Cleared however the call ends: a serializer that panicked left the
        // address of `v`, and a later newtype of this name copied from it.
        let _clear = crate::serde::OnDrop(|| {
            let _ = WRITE.try_with(|w| w.set(None));
        });
        s.serialize_newtype_struct(TYPED, &Plain(v))
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: BulkElement>(
        d: D,
    ) -> Result<Vec<T>, D::Error> {
        deserialize_vec(d)
    }
}
