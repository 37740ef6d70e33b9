//! CBOR tags through serde: [`Tagged`], the same shape as serde_cbor's
//! `tags::Tagged` (an optional tag number and the value).
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

/// The newtype struct name by which [`Tagged`] tells this crate's serializer
/// and deserializer that a tag is meant. Any other format sees an ordinary
/// newtype struct: serializers write the value alone (the tag number goes
/// to this crate's serializer only, through `PENDING`), deserializers read
/// the item into `value` (`tag: None`), so the value goes there and back.
pub(crate) const TAG_ENUM: &str = "@@CBOR_FAST_TAG@@";
/// ciborium's tag enum (`ciborium::Value::Tag` and `ciborium::tag::*`):
/// variant `TAG_VARIANT`, a tag number and the content, or the newtype
/// variant `CIBORIUM_UNTAGGED` (`Captured(None, v)`), the content alone.
/// The serializer writes a tag head and the content, or the content; the
/// deserializer reads them as ciborium's does.
pub(crate) const CIBORIUM_TAG_ENUM: &str = "@@TAG@@";
pub(crate) const TAG_VARIANT: &str = "@@TAGGED@@";
pub(crate) const CIBORIUM_UNTAGGED: &str = "@@UNTAGGED@@";

thread_local! {
    /// The tag number a `Tagged::serialize` in progress hands this crate's
    /// serializer (set right before its `serialize_newtype_struct(TAG_ENUM)`).
    static PENDING: Cell<Option<u64>> = const { Cell::new(None) };
}

/// The tag number for the `TAG_ENUM` newtype struct being serialized.
pub(crate) fn take_tag() -> Option<u64> {
    PENDING.with(Cell::take)
}

/// A value with an optional CBOR tag (RFC 8949 section 3.4).
///
/// * Serializing `Tagged { tag: Some(t), value }` writes the tag head `t`, then
///   `value`; with `tag: None` only `value`. Any other serializer (serde_cbor's
///   and ciborium's included) gets `value` alone, as with serde_cbor's
///   `Tagged`.
/// * Deserializing reads the tag of the next item if it has one (`Some(t)`,
///   then the content into `value`), else `None` and the item itself. Nested
///   tags nest: `Tagged<Tagged<T>>` reads two. Any other deserializer reads
///   the item into `value`, with `tag: None`.
/// * Everywhere else tags are transparent, as in serde_cbor and ciborium
///   (but in ciborium's `tag::{Captured, Required, Accepted}`, read as
///   ciborium reads them): a `String` field reads the text inside
///   `32("...")`. Tags 2 and 3 (bignums) are read as integers by
///   `u128`/`i128` and the smaller integer types.
///
/// ```
/// use cbor_fast::serde::{from_slice, to_vec, Tagged};
/// let uri = Tagged::new(Some(32), "https://x".to_string());
/// let bytes = to_vec(&uri).unwrap();
/// assert_eq!(&bytes[..3], [0xd8, 0x20, 0x69]);
/// assert_eq!(from_slice::<Tagged<String>>(&bytes).unwrap(), uri);
/// // An untagged item reads as `tag: None`; a tagged one as plain content.
/// assert_eq!(from_slice::<Tagged<u8>>(&[0x05]).unwrap(), Tagged::new(None, 5));
/// assert_eq!(from_slice::<String>(&bytes).unwrap(), "https://x");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Tagged<T> {
    pub tag: Option<u64>,
    pub value: T,
}

impl<T> Tagged<T> {
    pub fn new(tag: Option<u64>, value: T) -> Tagged<T> {
        Tagged { tag, value }
    }
}

impl<T: Serialize> Serialize for Tagged<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.tag {
            None => self.value.serialize(s),
            Some(tag) => {
                PENDING.with(|p| p.set(Some(tag)));
                // Cleared however the call ends (a serializer that panicked
                // left the tag for a later newtype of this name).
                let _clear = super::OnDrop(|| {
                    let _ = PENDING.try_with(|p| p.set(None));
                });
                s.serialize_newtype_struct(TAG_ENUM, &self.value)
            }
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Tagged<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tagged<T>, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Tagged<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tagged or untagged item")
            }
            /// This crate's deserializer: (Option<tag>, content).
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tagged<T>, A::Error> {
                let tag: Option<u64> =
                    seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let value: T =
                    seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
                Ok(Tagged { tag, value })
            }
            /// Any other format: no tags, the item itself.
            fn visit_newtype_struct<D: Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Tagged<T>, D::Error> {
                Ok(Tagged { tag: None, value: T::deserialize(d)? })
            }
        }
        d.deserialize_newtype_struct(TAG_ENUM, V(PhantomData))
    }
}
