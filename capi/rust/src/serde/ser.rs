//! `Serializer`: writes preferred serialization (RFC 8949 section 4.1)
//! straight into a `Vec<u8>`, byte for byte what the C writer
//! (`cbor_writer_*`, shortest floats) produces for the same items: shortest
//! heads, definite lengths, each float in the shortest of half, single and
//! double that keeps it exactly (NaN payloads included), integers beyond 64
//! bits as bignums (tags 2 and 3). The tests compare it with the C writer.
use serde::ser::{self, Serialize};

use super::error::Error;
use super::tag::{CIBORIUM_TAG_ENUM, CIBORIUM_UNTAGGED, TAG_ENUM, TAG_VARIANT, take_tag};
use crate::error::Status;

/// Serializes `value` into a new vector.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Point { x: i32, y: f64 }
/// let bytes = cbor_fast::serde::to_vec(&Point { x: -1, y: 0.5 }).unwrap();
/// assert_eq!(bytes, [0xa2, 0x61, b'x', 0x20, 0x61, b'y', 0xf9, 0x38, 0x00]);
/// ```
///
/// An error the value's own `Serialize` raises (`ser::Error::custom`) is
/// [`Status::InvalidArgument`] at the output offset where it surfaced.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(128);
    let mut ser = Serializer::<false>::over(&mut out, None, super::stack::Guard::at_value());
    value.serialize(&mut ser).map_err(|e| e.at(ser.pos()))?;
    Ok(out)
}

/// Bytes `to_writer` gathers before it hands them to the writer (the
/// threshold, checked after each item of a container: a piece is this much
/// plus at most the item that took it over, a string under this size or a
/// typed array whole). A string or byte string this long or longer goes to
/// the writer from the caller's memory, uncopied.
const WRITER_CHUNK: usize = 64 * 1024;

/// Serializes `value` into `writer` as it goes: the encoding is handed over
/// in pieces of 64 to 128 KiB (`write_all`, after the item that filled the
/// piece) and at the end, so memory stays bounded whatever the value's size
/// (strings of 64 KiB or more are written from the value itself; an RFC 8746
/// typed array, [`typed_array`](super::typed_array), is built whole and
/// handed over in one piece). The writer is not flushed (as `serde_json`'s
/// `to_writer`): flush a `BufWriter` or the like yourself, whose error
/// would otherwise be lost when it is dropped.
///
/// On an error, what was handed to the writer before it stays written (the
/// value's first 64 KiB pieces); a value refused within its first 64 KiB
/// writes nothing. A writer's failure is [`Status::SinkFailed`] at the
/// output offset of the piece it failed on.
pub fn to_writer<W: std::io::Write, T: Serialize + ?Sized>(
    mut writer: W,
    value: &T,
) -> Result<(), Error> {
    let mut out = Vec::with_capacity(4096);
    let mut ser =
        Serializer::<true>::over(&mut out, Some(&mut writer), super::stack::Guard::at_value());
    value.serialize(&mut ser).map_err(|e| e.at(ser.pos()))?;
    ser.flush()
}

/// A serde serializer appending to a `Vec<u8>`.
///
/// Errors are placed at the vector's length when they arose (a `Serialize`
/// impl's own `ser::Error::custom` at its length when the serializer got it
/// back; only one the top-level value returns without writing anything
/// through the serializer has no offset, 0).
///
/// `STREAM` is `to_writer`'s: `out` goes to a writer in pieces. It is a
/// parameter rather than a field tested at run time so that `to_vec` and a
/// `Serializer::new` over a vector pay nothing for it (the test after each
/// item of a container cost `to_vec` 18-34 % more instructions).
pub struct Serializer<'o, const STREAM: bool = false> {
    out: &'o mut Vec<u8>,
    /// The stack check of each level (`deeper`).
    guard: super::stack::Guard,
    /// `to_writer`'s writer (`STREAM`): `out` is written to it and emptied
    /// once it holds `WRITER_CHUNK` bytes (checked after each item of a
    /// container).
    sink: Option<&'o mut dyn std::io::Write>,
    /// Bytes handed to the sink so far (the output offset of `out[0]`).
    flushed: usize,
}

// SAFETY: `sink` is the only field that is neither Send nor Sync, and a
// serializer without STREAM never has one (`new` and `to_vec` pass None;
// only `to_writer` makes a STREAM serializer, and keeps it to itself). So
// `Serializer::new`'s type stays Send and Sync, as before the sink came.
unsafe impl Send for Serializer<'_, false> {}
unsafe impl Sync for Serializer<'_, false> {}

impl<'o> Serializer<'o> {
    pub fn new(out: &'o mut Vec<u8>) -> Serializer<'o> {
        Serializer::over(out, None, super::stack::Guard::new())
    }
}

impl<'o, const STREAM: bool> Serializer<'o, STREAM> {
    #[inline(always)]
    fn over(
        out: &'o mut Vec<u8>,
        sink: Option<&'o mut dyn std::io::Write>,
        guard: super::stack::Guard,
    ) -> Serializer<'o, STREAM> {
        // What the Send and Sync impls of the STREAM-less form rely on.
        debug_assert!(STREAM || sink.is_none());
        Serializer { out, guard, sink, flushed: 0 }
    }

    /// The output offset: what the sink got, then what `out` holds.
    #[inline]
    fn pos(&self) -> usize {
        self.flushed + self.out.len()
    }

    /// Hands `out` to the sink (if any) and empties it.
    #[cold]
    fn flush(&mut self) -> Result<(), Error> {
        let Some(sink) = self.sink.as_mut() else { return Ok(()) };
        if let Err(e) = sink.write_all(self.out) {
            return Err(Error::new(Status::SinkFailed, self.flushed, e.to_string()));
        }
        self.flushed += self.out.len();
        self.out.clear();
        Ok(())
    }

    /// After an item of a container: the piece goes out once it is full.
    #[inline(always)]
    fn maybe_flush(&mut self) -> Result<(), Error> {
        if STREAM && self.out.len() >= WRITER_CHUNK { self.flush() } else { Ok(()) }
    }

    /// A string of `WRITER_CHUNK` bytes or more (`STREAM` only): its head,
    /// then its bytes straight from `data`, not through `out`.
    #[cold]
    fn write_through(&mut self, major: u8, data: &[u8]) -> Result<(), Error> {
        write_head(self.out, major, data.len() as u64);
        self.flush()?;
        if let Some(sink) = self.sink.as_mut() {
            if let Err(e) = sink.write_all(data) {
                return Err(Error::new(Status::SinkFailed, self.flushed, e.to_string()));
            }
        }
        self.flushed += data.len();
        Ok(())
    }

    /// Before a sequence's, map's, struct's or enum variant's items, a
    /// newtype's value and an `Option`'s `Some`: serde recurses once per
    /// level of the value, so a value nested deep enough (a 10,000-deep
    /// tree from an 8 MiB thread) overflowed the stack, an abort. A compare
    /// of the stack pointer, and where the stack grew a check that it has
    /// room (see `super::stack`), else `Status::Depth` at that head.
    /// Tuples are not checked (canada's coordinate pairs: +12 %
    /// instructions): a type can only recurse through a struct, an enum, a
    /// newtype, a collection or an `Option`
    /// (`#[serde(transparent)] struct L(Option<Box<L>>)` has no other
    /// level: it overflowed the stack, an abort).
    #[inline(always)]
    fn deeper(&mut self) -> Result<(), Error> {
        if self.guard.deeper() {
            return Ok(());
        }
        Err(Error::new(Status::Depth, self.pos(), "nested too deep for this thread's stack"))
    }

    /// An RFC 8746 typed array of `count` elements of `size` bytes at
    /// `addr` (a slice `typed_array::serialize` holds borrowed for this
    /// call), written by the library's writer straight into the output.
    fn typed_array(
        &mut self,
        addr: usize,
        count: usize,
        size: usize,
        element: u32,
    ) -> Result<(), Error> {
        let at = self.out.len();
        let bytes = count.checked_mul(size).and_then(|n| n.checked_add(11));
        let Some(room) = bytes else {
            return Err(Error::new(Status::InvalidArgument, self.pos(), "typed array too large"));
        };
        self.out.reserve(room);
        let spare = self.out.spare_capacity_mut();
        let mut w = std::ptr::null_mut();
        // SAFETY: the spare capacity is writable for spare.len() bytes and
        // outlives the writer, which is freed below.
        let code = unsafe {
            crate::ffi::cbor_writer_new_buffer(
                spare.as_mut_ptr().cast(),
                spare.len(),
                std::ptr::null(),
                &mut w,
            )
        };
        if code != crate::ffi::CBOR_FAST_OK || w.is_null() {
            return Err(crate::Error::from_code(code, self.flushed + at).into());
        }
        let little = i32::from(cfg!(target_endian = "little"));
        // SAFETY: live writer; `addr` holds count elements of `size` bytes.
        let code = unsafe {
            crate::ffi::cbor_writer_write_typed_array(
                w,
                element,
                little,
                addr as *const std::ffi::c_void,
                count,
            )
        };
        // SAFETY: live writer, freed exactly once.
        let written = unsafe { crate::ffi::cbor_writer_size(w) };
        unsafe { crate::ffi::cbor_writer_free(w) };
        if code != crate::ffi::CBOR_FAST_OK || written > room {
            return Err(crate::Error::from_code(code, self.flushed + at).into());
        }
        // SAFETY: the writer initialised `written` bytes of the spare capacity.
        unsafe { self.out.set_len(at + written) };
        Ok(())
    }

    #[inline]
    fn head(&mut self, major: u8, v: u64) {
        write_head(self.out, major, v);
    }

    #[inline]
    fn text(&mut self, s: &str) {
        write_string(self.out, 3, s.as_bytes());
    }

    #[inline]
    fn uint(&mut self, v: u64) {
        self.head(0, v);
    }

    #[inline]
    fn int(&mut self, v: i64) {
        if v < 0 { self.head(1, !(v as u64)) } else { self.head(0, v as u64) }
    }

    fn bignum(&mut self, negative: bool, magnitude: u128) {
        if let Ok(small) = u64::try_from(magnitude) {
            return self.head(u8::from(negative), small);
        }
        let be = magnitude.to_be_bytes();
        let start = be.iter().position(|&b| b != 0).unwrap_or(be.len());
        self.head(6, if negative { 3 } else { 2 });
        self.head(2, (be.len() - start) as u64);
        self.out.extend_from_slice(&be[start..]);
    }
}

/// Appends the shortest head of major type `major` with argument `v`.
#[inline]
pub(crate) fn write_head(out: &mut Vec<u8>, major: u8, v: u64) {
    out.reserve(9);
    // SAFETY: 9 bytes are reserved past the length; head_at writes at most 9.
    unsafe {
        let n = head_at(out.as_mut_ptr().add(out.len()), major, v);
        out.set_len(out.len() + n);
    }
}

/// Writes the head at `p` and returns its size (1, 2, 3, 5 or 9).
///
/// # Safety
/// `p` must be valid for writing 9 bytes.
#[inline(always)]
unsafe fn head_at(p: *mut u8, major: u8, v: u64) -> usize {
    let m = major << 5;
    // SAFETY (all writes): within the 9 bytes the caller guarantees.
    unsafe {
        if v < 24 {
            *p = m | v as u8;
            1
        } else if v <= 0xff {
            *p = m | 24;
            *p.add(1) = v as u8;
            2
        } else if v <= 0xffff {
            *p = m | 25;
            std::ptr::copy_nonoverlapping((v as u16).to_be_bytes().as_ptr(), p.add(1), 2);
            3
        } else if v <= 0xffff_ffff {
            *p = m | 26;
            std::ptr::copy_nonoverlapping((v as u32).to_be_bytes().as_ptr(), p.add(1), 4);
            5
        } else {
            *p = m | 27;
            std::ptr::copy_nonoverlapping(v.to_be_bytes().as_ptr(), p.add(1), 8);
            9
        }
    }
}

/// Appends a head of major type `major` (2 or 3) and `data`, with one
/// capacity check.
#[inline]
fn write_string(out: &mut Vec<u8>, major: u8, data: &[u8]) {
    let len = data.len();
    out.reserve(len + 9);
    // SAFETY: len + 9 bytes are reserved past the length: at most 9 for the
    // head, then `len` for the content.
    unsafe {
        let at = out.as_mut_ptr().add(out.len());
        let n = head_at(at, major, len as u64);
        std::ptr::copy_nonoverlapping(data.as_ptr(), at.add(n), len);
        out.set_len(out.len() + n + len);
    }
}

/// Whether binary64 bits `d` fit the binary format with `EXP` exponent and
/// `MANT` fraction bits exactly (widening back gives `d`, NaN payload and sign
/// included); if so, the narrow bits. The same bit tests as the C writer's
/// `narrows_exactly` (src/internal/float16.hpp).
#[inline]
fn narrows_exactly<const EXP: u32, const MANT: u32>(d: u64) -> Option<u64> {
    let bias: i32 = (1 << (EXP - 1)) - 1;
    let exp_ones: u64 = (1u64 << EXP) - 1;
    let drop = 52 - MANT;
    let dropped = (1u64 << drop) - 1;
    let sign = (d >> 63) << (EXP + MANT);
    let exp = ((d >> 52) & 0x7ff) as i32;
    let mant = d & ((1u64 << 52) - 1);
    let e = exp - 1023;
    if e >= 1 - bias && e <= bias {
        if mant & dropped != 0 {
            return None;
        }
        return Some(sign | (((e + bias) as u64) << MANT) | (mant >> drop));
    }
    if exp == 0x7ff {
        if mant & dropped != 0 {
            return None;
        }
        return Some(sign | (exp_ones << MANT) | (mant >> drop));
    }
    if exp == 0 {
        return if mant != 0 { None } else { Some(sign) };
    }
    if e > bias {
        return None;
    }
    let shift = drop + (1 - bias - e) as u32;
    if shift > 52 {
        return None;
    }
    let sig = mant | (1u64 << 52);
    if sig & ((1u64 << shift) - 1) != 0 {
        return None;
    }
    Some(sign | (sig >> shift))
}

/// Appends `v` in the shortest float width that keeps it exactly.
///
/// A double with any of its low 29 fraction bits set fits no narrower
/// width: that test alone decides the common case (canada's coordinates),
/// inline; the rest goes to `write_narrow`, out of line.
#[inline(always)]
pub(crate) fn write_float(out: &mut Vec<u8>, v: f64) {
    let bits = v.to_bits();
    if bits & 0x1fff_ffff != 0 {
        write_double(out, bits);
    } else {
        write_narrow(out, bits);
    }
}

/// Appends binary64 `bits` as a float64 item.
#[inline(always)]
fn write_double(out: &mut Vec<u8>, bits: u64) {
    let b = bits.to_be_bytes();
    out.extend_from_slice(&[0xfb, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
}

/// `write_float` for doubles whose low 29 fraction bits are clear: half or
/// single when one keeps the value exactly, else double.
#[inline(never)]
fn write_narrow(out: &mut Vec<u8>, bits: u64) {
    if let Some(h) = narrows_exactly::<5, 10>(bits) {
        let b = (h as u16).to_be_bytes();
        out.extend_from_slice(&[0xf9, b[0], b[1]]);
        return;
    }
    if let Some(s) = narrows_exactly::<8, 23>(bits) {
        let b = (s as u32).to_be_bytes();
        out.extend_from_slice(&[0xfa, b[0], b[1], b[2], b[3]]);
        return;
    }
    write_double(out, bits);
}

/// Exact widening of binary32 bits (a signalling NaN keeps its payload,
/// which a hardware conversion may quiet).
fn single_to_double(f: u32) -> f64 {
    let sign = u64::from(f >> 31) << 63;
    let exp = (f >> 23) & 0xff;
    let mut mant = u64::from(f & 0x7f_ffff);
    let bits = if exp == 0xff {
        sign | (0x7ffu64 << 52) | (mant << 29)
    } else if exp != 0 {
        sign | (u64::from(exp + 1023 - 127) << 52) | (mant << 29)
    } else if mant == 0 {
        sign
    } else {
        let mut e: i64 = -126;
        while mant & 0x80_0000 == 0 {
            mant <<= 1;
            e -= 1;
        }
        mant &= 0x7f_ffff;
        sign | (((e + 1023) as u64) << 52) | (mant << 29)
    };
    f64::from_bits(bits)
}

/// The integer methods of a serde `Serializer`: each widens its argument
/// (`From`, lossless) to the i64 or u64 that `int` or `uint` writes.
macro_rules! integer_arms {
    ($($name:ident($t:ty) => $write:ident),* $(,)?) => {
        $(
            #[inline]
            fn $name(self, v: $t) -> Result<(), Error> {
                self.$write(v.into());
                Ok(())
            }
        )*
    };
}

impl<'s, 'o, const S: bool> ser::Serializer for &'s mut Serializer<'o, S> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'s, 'o, S>;
    type SerializeTuple = Compound<'s, 'o, S>;
    type SerializeTupleStruct = Compound<'s, 'o, S>;
    type SerializeTupleVariant = Compound<'s, 'o, S>;
    type SerializeMap = Compound<'s, 'o, S>;
    type SerializeStruct = Compound<'s, 'o, S>;
    type SerializeStructVariant = Compound<'s, 'o, S>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.push(if v { 0xf5 } else { 0xf4 });
        Ok(())
    }
    integer_arms! {
        serialize_i8(i8) => int, serialize_i16(i16) => int, serialize_i32(i32) => int,
        serialize_i64(i64) => int, serialize_u8(u8) => uint, serialize_u16(u16) => uint,
        serialize_u32(u32) => uint, serialize_u64(u64) => uint,
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        if v < 0 {
            self.bignum(true, !(v as u128));
        } else {
            self.bignum(false, v as u128);
        }
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.bignum(false, v);
        Ok(())
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        write_float(self.out, single_to_double(v.to_bits()));
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        write_float(self.out, v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        let mut buf = [0u8; 4];
        self.text(v.encode_utf8(&mut buf));
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        if S && v.len() >= WRITER_CHUNK {
            return self.write_through(3, v.as_bytes());
        }
        self.text(v);
        Ok(())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        if S && v.len() >= WRITER_CHUNK {
            return self.write_through(2, v);
        }
        write_string(self.out, 2, v);
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.out.push(0xf6);
        Ok(())
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.deeper()?;
        value.serialize(&mut *self).map_err(|e| placed(e, self.pos()))
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push(0xf6);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.out.push(0xf6);
        Ok(())
    }
    /// Externally tagged, as serde_cbor and ciborium: the variant name.
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.text(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if name == super::numbers::TYPED {
            if let Some((addr, count, size, element)) = super::numbers::take_typed() {
                return self.typed_array(addr, count, size, element);
            }
        }
        self.deeper()?;
        if name == TAG_ENUM {
            // `Tagged` with a tag: its head, then the value.
            if let Some(tag) = take_tag() {
                self.head(6, tag);
            }
        }
        value.serialize(&mut *self).map_err(|e| placed(e, self.pos()))
    }
    /// `{variant: value}`; ciborium's untagged `Captured(None, value)`: the
    /// value alone.
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.deeper()?;
        if name != CIBORIUM_TAG_ENUM || variant != CIBORIUM_UNTAGGED {
            self.out.push(0xa1);
            self.text(variant);
        }
        value.serialize(&mut *self).map_err(|e| placed(e, self.pos()))
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'s, 'o, S>, Error> {
        self.deeper()?;
        Ok(match len {
            Some(n) => {
                self.head(4, n as u64);
                Compound::new(self, Kind::Counted, n as u64)
            }
            None => {
                // Of unknown length: indefinite, as serde_cbor and ciborium
                // write it (a definite head put in at the end moved the
                // bytes after it, once per level of nesting).
                self.out.push(0x9f);
                Compound::new(self, Kind::Indefinite, 0)
            }
        })
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'s, 'o, S>, Error> {
        self.head(4, len as u64);
        Ok(Compound::new(self, Kind::Counted, len as u64))
    }
    #[inline]
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'o, S>, Error> {
        self.deeper()?;
        self.head(4, len as u64);
        Ok(Compound::new(self, Kind::Counted, len as u64))
    }
    /// `{variant: [fields...]}`; for ciborium's tags (`ciborium::Value::Tag`,
    /// `ciborium::tag::*`): the tag head, then the value.
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'o, S>, Error> {
        self.deeper()?;
        if name == CIBORIUM_TAG_ENUM && variant == TAG_VARIANT && len == 2 {
            return Ok(Compound::new(self, Kind::Tag { fields: 0 }, 0));
        }
        self.out.push(0xa1);
        self.text(variant);
        self.head(4, len as u64);
        Ok(Compound::new(self, Kind::Counted, len as u64))
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'s, 'o, S>, Error> {
        self.deeper()?;
        Ok(match len {
            Some(n) => {
                self.head(5, n as u64);
                Compound::new(self, Kind::Map { indefinite: false, key: false }, n as u64)
            }
            None => {
                self.out.push(0xbf);
                Compound::new(self, Kind::Map { indefinite: true, key: false }, 0)
            }
        })
    }
    /// A map keyed by the field names (serde_cbor's and ciborium's default);
    /// `len` already leaves out `skip_serializing_if` fields (serde derive).
    #[inline]
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'o, S>, Error> {
        self.deeper()?;
        self.head(5, len as u64);
        // One per field (a key and its value).
        Ok(Compound::new(self, Kind::Counted, len as u64))
    }
    /// `{variant: {fields...}}`.
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'s, 'o, S>, Error> {
        self.deeper()?;
        self.out.push(0xa1);
        self.text(variant);
        self.head(5, len as u64);
        // One per field (a key and its value).
        Ok(Compound::new(self, Kind::Counted, len as u64))
    }
}

enum Kind {
    /// The head with the count is written.
    Counted,
    /// A sequence of unknown length: an indefinite-length array, its
    /// break byte written on `end`.
    Indefinite,
    /// A map: `indefinite` when its length was not given (else its head
    /// with the count is written); `key`: a key was written, its value is
    /// due. `left` counts entries (one per key).
    Map { indefinite: bool, key: bool },
    /// ciborium's tag (`@@TAG@@`): `fields` of (tag, value) written.
    Tag { fields: u8 },
}

/// Array, map, struct and tag bodies.
pub struct Compound<'s, 'o, const S: bool = false> {
    ser: &'s mut Serializer<'o, S>,
    kind: Kind,
    /// Items (fields, or keys and values) still due in a counted container:
    /// one less per item, wrapping below 0 when there are more; counted
    /// down from 0 in one of unknown length. One decrement for all kinds,
    /// no branch per item.
    left: u64,
    /// The length a counted container was given (`left` at its start): the
    /// items that came are `given - left`, wrapping (fewer than 2^64).
    given: u64,
}

impl<'s, 'o, const S: bool> Compound<'s, 'o, S> {
    #[inline(always)]
    fn new(ser: &'s mut Serializer<'o, S>, kind: Kind, left: u64) -> Compound<'s, 'o, S> {
        Compound { ser, kind, left, given: left }
    }
}

impl<const S: bool> Compound<'_, '_, S> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.left = self.left.wrapping_sub(1);
        self.item(value)
    }

    /// Serializes `value` (an error it raises placed at the output offset).
    #[inline]
    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser).map_err(|e| placed(e, self.ser.pos()))?;
        self.ser.maybe_flush()
    }

    /// An error at the output offset.
    #[cold]
    fn refuse(&self, message: &'static str) -> Error {
        Error::new(Status::InvalidArgument, self.ser.pos(), message)
    }

    /// The check of a counted container's items at its end.
    fn counted(&self) -> Result<(), Error> {
        match self.left {
            0 => Ok(()),
            // The head said more or fewer items than came (a `Serialize`
            // that passed a wrong length): the bytes would not be the value.
            // More items when given - left wrapped past given (a length
            // of 2^63 or more with fewer items does not wrap).
            n if self.given.wrapping_sub(n) > self.given => {
                Err(self.refuse("more items than the length the container was given"))
            }
            _ => Err(self.refuse("fewer items than the length the container was given")),
        }
    }

    /// Nothing to do for a container whose head is written (inline, so
    /// that the check folds away where the kind is known); the rest out of
    /// line.
    #[inline(always)]
    fn finish(self) -> Result<(), Error> {
        if let (Kind::Counted, 0) = (&self.kind, self.left) { Ok(()) } else { self.finish_slow() }
    }

    #[inline(never)]
    fn finish_slow(self) -> Result<(), Error> {
        match self.kind {
            Kind::Counted | Kind::Map { indefinite: false, key: false } => self.counted(),
            Kind::Indefinite | Kind::Map { indefinite: true, key: false } => {
                self.ser.out.push(0xff);
                Ok(())
            }
            Kind::Map { indefinite, key: true } => {
                if !indefinite {
                    self.counted()?;
                }
                Err(self.refuse("map key without a value"))
            }
            Kind::Tag { fields: 2 } => Ok(()),
            Kind::Tag { .. } => Err(self.refuse("a tag needs a number and a value")),
        }
    }
}

/// Sequences, tuples and tuple structs: each element is one more array item.
macro_rules! element_impls {
    ($($tr:ident::$method:ident),* $(,)?) => {
        $(
            impl<const S: bool> ser::$tr for Compound<'_, '_, S> {
                type Ok = ();
                type Error = Error;
                #[inline]
                fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                    self.element(value)
                }
                #[inline]
                fn end(self) -> Result<(), Error> {
                    self.finish()
                }
            }
        )*
    };
}

element_impls!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
);

impl<const S: bool> ser::SerializeTupleVariant for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if let Kind::Tag { fields } = &mut self.kind {
            *fields += 1;
            return match *fields {
                1 => value
                    .serialize(TagNumber { out: self.ser.out })
                    .map_err(|e| placed(e, self.ser.pos())),
                2 => self.item(value),
                _ => Err(self.refuse("a tag has one value")),
            };
        }
        self.element(value)
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

impl<const S: bool> ser::SerializeMap for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    /// A key must come first or after a value; it counts an entry.
    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        if let Kind::Map { key: due, .. } = &mut self.kind {
            if *due {
                return Err(self.refuse("map key without a value"));
            }
            *due = true;
        }
        self.element(key)
    }
    /// A value must follow a key.
    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        if let Kind::Map { key: due, .. } = &mut self.kind {
            if !*due {
                return Err(self.refuse("map value without a key"));
            }
            *due = false;
        }
        self.item(value)
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

impl<const S: bool> Compound<'_, '_, S> {
    #[inline]
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        self.left = self.left.wrapping_sub(1);
        self.ser.text(key);
        self.item(value)
    }
}

impl<const S: bool> ser::SerializeStruct for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

impl<const S: bool> ser::SerializeStructVariant for Compound<'_, '_, S> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

/// The first field of a [`Tagged`](super::Tagged): only an unsigned integer,
/// written as a tag head.
struct TagNumber<'x> {
    out: &'x mut Vec<u8>,
}

/// Placed at the output offset by the tag's `serialize_field`.
fn not_a_tag<T>() -> Result<T, Error> {
    Err(ser::Error::custom("a tag number must be an unsigned integer"))
}

/// `e` placed at the end of `out` if it has no offset yet (an error a
/// `Serialize` impl raised with `ser::Error::custom`).
#[cold]
#[inline(never)]
fn placed(e: Error, at: usize) -> Error {
    e.at(at)
}

impl ser::Serializer for TagNumber<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        write_head(self.out, 6, v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_bool(self, _: bool) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_i8(self, _: i8) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_i16(self, _: i16) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_i32(self, _: i32) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_i64(self, _: i64) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_f32(self, _: f32) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_f64(self, _: f64) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_char(self, _: char) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_str(self, _: &str) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_none(self) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_unit(self) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        not_a_tag()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        not_a_tag()
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        not_a_tag()
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        not_a_tag()
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        not_a_tag()
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        not_a_tag()
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        not_a_tag()
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        not_a_tag()
    }
}
