//! Differential, mutation-based fuzzing of the serde `Deserializer` and
//! `Serializer` against serde_cbor and ciborium (stable Rust, no fuzzing
//! toolchain): a fixed-seed PRNG mutates seed inputs (RFC 8949 appendix A and
//! the malformed table, prefixes of the corpus files, encodings of typed
//! records), and every input must
//!
//! 1. not crash, and fail (if it fails) at an offset within the input;
//! 2. decode into `ciborium::Value` and `serde_cbor::Value` as the peers
//!    decode it themselves: both accept with the same value, or both refuse;
//! 3. decode into typed targets as the peers do (when the peers agree with
//!    each other: where they do not, either answer is defensible);
//! 4. when accepted into a `ciborium::Value`, encode (ours) to bytes that
//!    decode back to the same value, and to ciborium's own bytes.
//!
//! `known_refusal` and `known_acceptance` list the deliberate differences
//! and the peers' own defects (README.md, "Differences from serde_cbor and
//! ciborium"); any other difference fails with the input in hex. Iterations:
//! `CBOR_FAST_DIFF_ITERS` (default `DEFAULT_ITERS`, 13-15 s in a debug build
//! on a loaded 2-core machine); `CBOR_FAST_DIFF_SEED` changes the PRNG seed
//! for long local runs, e.g.
//!
//! ```text
//! CBOR_FAST_DIFF_ITERS=3000000 CBOR_FAST_DIFF_SEED=11 cargo test --release \
//!     --features serde --test differential -- --nocapture
//! ```
mod common;

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::BuildHasherDefault;

use cbor_fast::serde::{from_slice, to_vec};
use cbor_fast::{Reader, Status, Token};
use common::{Rng, corpus_files, hex, to_hex};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

const DEFAULT_ITERS: u64 = 60_000;

// ---------------------------------------------------------------------------
// A common form for the three decoders' values.

/// A decoded value with tags taken off and bignums (tags 2 and 3 over a byte
/// string of at most 128 significant bits) turned into integers, as this
/// crate's deserializer delivers them; floats compared by bits, every NaN
/// equal.
#[derive(Debug)]
enum N {
    /// Sign (true: negative, the value is -1 - magnitude) and magnitude.
    Int(bool, u128),
    /// A bignum beyond 128 bits (only the peers give these).
    BigBeyond128,
    /// A tag 2 or 3 over something other than a byte string (only the peers).
    BadBignum,
    /// A `serde_cbor::Value` map whose keys differ only by tags (see
    /// `to_n`): equal to any map.
    KeysJoined,
    Float(u64),
    Bytes(Vec<u8>),
    Text(String),
    Bool(bool),
    Null,
    Array(Vec<N>),
    Map(Vec<(N, N)>),
}

impl PartialEq for N {
    fn eq(&self, other: &N) -> bool {
        use N::*;
        match (self, other) {
            (KeysJoined, Map(_) | KeysJoined) | (Map(_), KeysJoined) => true,
            (Int(a, b), Int(c, d)) => a == c && b == d,
            (BigBeyond128, BigBeyond128) | (BadBignum, BadBignum) | (Null, Null) => true,
            (Float(a), Float(b)) => a == b,
            (Bytes(a), Bytes(b)) => a == b,
            (Text(a), Text(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (Array(a), Array(b)) => a == b,
            (Map(a), Map(b)) => a == b,
            _ => false,
        }
    }
}

fn float(f: f64) -> N {
    N::Float(if f.is_nan() { f64::NAN.to_bits() } else { f.to_bits() })
}

fn bignum(negative: bool, content: N) -> N {
    match content {
        N::Bytes(b) => {
            let start = b.iter().position(|&x| x != 0).unwrap_or(b.len());
            let m = &b[start..];
            if m.len() > 16 {
                return N::BigBeyond128;
            }
            let magnitude = m.iter().fold(0u128, |acc, &x| (acc << 8) | u128::from(x));
            if negative && magnitude > i128::MAX as u128 {
                // Below i128::MIN: no Rust integer holds it.
                return N::BigBeyond128;
            }
            N::Int(negative, magnitude)
        }
        _ => N::BadBignum,
    }
}

fn int(i: i128) -> N {
    if i < 0 { N::Int(true, (-1 - i) as u128) } else { N::Int(false, i as u128) }
}

/// A peer's value, one kind at a time: both peers' value types go through
/// the one conversion to `N` (`to_n`).
enum View<'v, V> {
    Int(i128),
    Bytes(&'v [u8]),
    Float(f64),
    Text(&'v str),
    Bool(bool),
    Null,
    Tag(u64, &'v V),
    Array(&'v [V]),
    Map(Vec<(&'v V, &'v V)>),
}

trait PeerValue: Sized {
    /// The map keeps no input order (serde_cbor's BTreeMap), so keys that
    /// only a tag told apart cannot be matched up (see `to_n`).
    const ORDER_LOST: bool;
    fn view(&self) -> View<'_, Self>;
}

impl PeerValue for ciborium::Value {
    const ORDER_LOST: bool = false;
    fn view(&self) -> View<'_, Self> {
        use ciborium::Value as V;
        match self {
            V::Integer(i) => View::Int(i128::from(*i)),
            V::Bytes(b) => View::Bytes(b),
            V::Float(f) => View::Float(*f),
            V::Text(s) => View::Text(s),
            V::Bool(b) => View::Bool(*b),
            V::Null => View::Null,
            V::Tag(t, c) => View::Tag(*t, c),
            V::Array(a) => View::Array(a),
            V::Map(m) => View::Map(m.iter().map(|(k, x)| (k, x)).collect()),
            _ => panic!("unknown ciborium::Value variant {self:?}"),
        }
    }
}

impl PeerValue for serde_cbor::Value {
    const ORDER_LOST: bool = true;
    fn view(&self) -> View<'_, Self> {
        use serde_cbor::Value as V;
        match self {
            V::Integer(i) => View::Int(*i),
            V::Bytes(b) => View::Bytes(b),
            V::Float(f) => View::Float(*f),
            V::Text(s) => View::Text(s),
            V::Bool(b) => View::Bool(*b),
            V::Null => View::Null,
            V::Tag(t, c) => View::Tag(*t, c),
            V::Array(a) => View::Array(a),
            V::Map(m) => View::Map(m.iter().collect()),
            _ => panic!("unknown serde_cbor::Value variant {self:?}"),
        }
    }
}

fn to_n<V: PeerValue>(v: &V) -> N {
    match v.view() {
        View::Int(i) => int(i),
        View::Bytes(b) => N::Bytes(b.to_vec()),
        View::Float(f) => float(f),
        View::Text(s) => N::Text(s.to_owned()),
        View::Bool(b) => N::Bool(b),
        View::Null => N::Null,
        View::Tag(t @ (2 | 3), c) if matches!(c.view(), View::Bytes(_)) => bignum(t == 3, to_n(c)),
        View::Tag(2 | 3, _) => N::BadBignum,
        View::Tag(_, c) => to_n(c),
        View::Array(a) => N::Array(a.iter().map(to_n).collect()),
        View::Map(m) => {
            let mut pairs: Vec<(N, N)> = m.into_iter().map(|(k, x)| (to_n(k), to_n(x))).collect();
            if !V::ORDER_LOST {
                return N::Map(pairs);
            }
            // Without their tags the keys may sort otherwise: one order.
            pairs.sort_by_cached_key(|(k, _)| format!("{k:?}"));
            // Keys told apart only by a tag (`245` and `1(245)`) are one key
            // here; which value stays depends on the input order, which the
            // BTreeMap lost.
            if pairs.iter().enumerate().any(|(i, (k, _))| pairs[..i].iter().any(|(j, _)| j == k)) {
                return N::KeysJoined;
            }
            // A key holding such a map has no reliable order either (its
            // Debug text differs from the map ours gives).
            if pairs.iter().any(|(k, _)| has_joined(k)) {
                return N::KeysJoined;
            }
            N::Map(pairs)
        }
    }
}

fn has_joined(n: &N) -> bool {
    match n {
        N::KeysJoined => true,
        N::Array(a) => a.iter().any(has_joined),
        N::Map(m) => m.iter().any(|(k, x)| has_joined(k) || has_joined(x)),
        _ => false,
    }
}

fn ciborium_has_tag(v: &ciborium::Value) -> bool {
    use ciborium::Value as V;
    match v {
        V::Tag(..) => true,
        V::Array(a) => a.iter().any(ciborium_has_tag),
        V::Map(m) => m.iter().any(|(k, x)| ciborium_has_tag(k) || ciborium_has_tag(x)),
        _ => false,
    }
}

fn ciborium_has_nan(v: &ciborium::Value) -> bool {
    use ciborium::Value as V;
    match v {
        V::Float(f) => f.is_nan(),
        V::Tag(_, c) => ciborium_has_nan(c),
        V::Array(a) => a.iter().any(ciborium_has_nan),
        V::Map(m) => m.iter().any(|(k, x)| ciborium_has_nan(k) || ciborium_has_nan(x)),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// The peers, each reading exactly one item (ciborium's `from_reader` leaves
// what follows unread: bytes left over count as a refusal, as ours and
// serde_cbor's `from_slice` refuse them).

fn ciborium_one<T: DeserializeOwned>(data: &[u8]) -> Result<T, String> {
    let mut rest = data;
    let v = ciborium::from_reader::<T, _>(&mut rest).map_err(|e| format!("{e:?}"))?;
    if rest.is_empty() { Ok(v) } else { Err(format!("{} bytes after the item", rest.len())) }
}

fn serde_cbor_one<'a, T: Deserialize<'a>>(data: &'a [u8]) -> Result<T, String> {
    serde_cbor::from_slice::<T>(data).map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------
// Deliberate differences.

/// The refusals of ours that are deliberate (README.md, "Differences from
/// serde_cbor and ciborium"), told by the error and the input bytes at its
/// offset (a peer's value may have lost the item: a later duplicate key
/// replaces it in a `serde_cbor::Value` map):
///   - tag 2 or 3 over anything but a byte string: ours refuses it (RFC 8949
///     section 3.4.3: their content is a byte string), at the content; the
///     peers give a tag;
///   - a bignum beyond 128 bits (or below i128::MIN): no Rust integer holds
///     it, ours refuses with `OutOfRange` at the tag; the peers give a tag;
///   - a positive bignum above u64::MAX into `serde_cbor::Value`: ours hands
///     it over as a `u128`, which `serde_cbor::Value` does not take (its
///     `Integer` is an i128 filled from i64/u64/i128 visits only), a type
///     error at the tag; serde_cbor itself keeps the tag.
///
/// And the peers' own defects, input RFC 8949 calls not well-formed that a
/// peer accepts:
///   - an indefinite-length chunk inside an indefinite-length string
///     (section 3.2.3; ciborium joins it: `5f 5f 41 00 ff ff` is `h'00'`);
///   - a two-byte simple value below 32 (section 3.3; ciborium reads `f8 17`
///     as `undefined`);
///   - a character split between chunks of an indefinite-length text string
///     (section 3.2.3: each chunk is valid UTF-8; serde_cbor checks only the
///     joined text: `7f 65 73747265d8 64 88696e67 ff` is "stre\u{608}ing").
///     Told by the input's first text that is not UTF-8 being such a chunk
///     (`split_text_chunk`).
fn known_refusal(err: &cbor_fast::serde::Error, data: &[u8]) -> bool {
    // A tag 2 or 3 head at the offset, or ending there (the error names
    // the content).
    let at = err.offset();
    let near = bignum_tag(&data[at..]).is_some()
        || (1..=9).any(|n| at >= n && bignum_tag(&data[at - n..]) == Some(n));
    match err.status() {
        Status::NestedChunk | Status::BadSimple => true,
        Status::InvalidUtf8 => split_text_chunk(data),
        Status::TypeMismatch => {
            near && (err.message().contains("bignum") || err.message().contains("as u128"))
        }
        Status::OutOfRange => near,
        _ => false,
    }
}

/// Whether the input's first text that is not UTF-8, in document order, is a
/// chunk of an indefinite-length text string (read by ours, items in order,
/// with a stack of the open containers: true for an indefinite text string).
fn split_text_chunk(data: &[u8]) -> bool {
    let Ok(mut r) = Reader::new(data) else { return false };
    let mut open: Vec<bool> = Vec::new();
    loop {
        match r.next_item() {
            Ok(Some(item)) => match item.token {
                Token::TextIndefinite => open.push(true),
                Token::BytesIndefinite | Token::Array(_) | Token::Map(_) => open.push(false),
                Token::End { .. } => {
                    open.pop();
                }
                _ => {}
            },
            Ok(None) => return false,
            Err(e) => return e.status == Status::InvalidUtf8 && open.last() == Some(&true),
        }
    }
}

/// The head size of a tag 2 or 3 head at the start of `d`, if there is one.
fn bignum_tag(d: &[u8]) -> Option<usize> {
    tag_head(d).and_then(|(tag, n)| matches!(tag, 2 | 3).then_some(n))
}

/// The number and head size of a tag head at the start of `d`.
fn tag_head(d: &[u8]) -> Option<(u64, usize)> {
    let (&first, rest) = d.split_first()?;
    if first >> 5 != 6 {
        return None;
    }
    let n = match first & 0x1f {
        ai @ 0..=23 => return Some((u64::from(ai), 1)),
        24 => 1,
        25 => 2,
        26 => 4,
        27 => 8,
        _ => return None,
    };
    let arg = rest.get(..n)?.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    Some((arg, 1 + n))
}

/// A peer's refusal ours does not share: its recursion limit (serde_cbor 128
/// levels, ciborium 256; ours 512).
fn peer_limit(e: &str) -> bool {
    e.contains("RecursionLimitExceeded") || e.contains("recursion limit exceeded")
}

/// The typed reads where ours accepts, on purpose, what both peers refuse
/// (`serde` module documentation, "Reading accepts more"), told by each
/// peer's error (where only one peer refuses, the peers disagree and the
/// input is not compared: `undefined` for `None`, which ciborium takes too):
///   - an integer for a float (serde_cbor takes it too, ciborium refuses);
///   - `[]` for `()` and unit structs (minicbor-serde writes `()` so);
///   - a tag in front of a typed value (ours passes over it; serde_cbor with
///     its `tags` feature hands it over as a newtype struct, ciborium to
///     containers and structs as an enum, to scalars it passes over it),
///     told by a tag head byte in the input;
///   - an unsigned integer for an enum: the variant index (serde_cbor's
///     packed form);
///   - an array for a struct: its fields in order (serde_cbor's packed
///     form; ciborium refuses);
///   - a byte string for a `String`: handed to serde's visitor as bytes
///     (as serde_cbor does), which takes valid UTF-8; ciborium refuses;
///   - text for `&[u8]` (and its owned twin): handed to the visitor as text
///     (as serde_cbor does), which takes it; ciborium refuses;
///   - a `char` from an indefinite-length text string (ciborium takes only a
///     definite one of at most 4 bytes);
///   - an enum's map of one entry with a longer head than `a1` (serde_cbor
///     looks for the byte `a1` only), told by such a head in the input;
///   - recursion limits (`peer_limit`).
fn known_acceptance(peer_error: &str, data: &[u8]) -> bool {
    peer_limit(peer_error)
        || peer_error.contains("invalid type: map, expected variant identifier")
            && data.iter().any(|b| (0xb8..=0xbb).contains(b))
        || peer_error.contains("invalid type: integer")
            && (peer_error.contains("expected enum")
                || peer_error.contains("expected str or bytes"))
        || peer_error.contains("expected float")
        || peer_error.contains("invalid type: sequence, expected unit")
        || peer_error.contains("invalid type: sequence, expected map")
        || peer_error.contains("invalid type: bytes, expected string")
        || peer_error.contains("invalid type: string, expected char")
        || peer_error.contains("invalid type: string, expected bytes")
        || (peer_error.contains("invalid type: newtype struct")
            || peer_error.contains("invalid type: enum, expected"))
            && data.iter().any(|b| (0xc0..=0xdb).contains(b))
}

// ---------------------------------------------------------------------------
// Typed targets.

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Inner {
    x: i8,
    tags: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Shape {
    Unit,
    New(u16),
    Pair(i32, bool),
    Rect { w: f32, h: f64 },
}

/// A byte string (serde's `serialize_bytes`), owned; reads as `&[u8]` does.
#[derive(Debug, PartialEq, Clone)]
struct Bytes(Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bytes, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a byte string")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            /// As serde's `&[u8]` takes text (`RecordRef` is `Record`'s twin).
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Bytes, E> {
                Ok(Bytes(v.as_bytes().to_vec()))
            }
        }
        d.deserialize_bytes(V)
    }
}

type FixedMap = HashMap<String, i64, BuildHasherDefault<std::collections::hash_map::DefaultHasher>>;

/// Every kind of field, owned (ciborium reads only owned types).
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Record {
    a: u8,
    b: i16,
    c: u32,
    d: i64,
    e: u64,
    f: f32,
    g: f64,
    h: bool,
    s: String,
    r: String,
    y: Bytes,
    v: Vec<u32>,
    o: Option<i32>,
    m: FixedMap,
    n: Inner,
    k: Vec<Shape>,
    big: i128,
    ch: char,
}

/// `Record` with borrowed text and bytes (ours and serde_cbor).
#[derive(Deserialize, Debug, PartialEq)]
struct RecordRef<'a> {
    a: u8,
    b: i16,
    c: u32,
    d: i64,
    e: u64,
    f: f32,
    g: f64,
    h: bool,
    s: String,
    #[serde(borrow)]
    r: &'a str,
    y: &'a [u8],
    v: Vec<u32>,
    o: Option<i32>,
    m: FixedMap,
    n: Inner,
    k: Vec<Shape>,
    big: i128,
    ch: char,
}

fn sample_records() -> Vec<Record> {
    let mut m = FixedMap::default();
    m.insert("one".into(), 1);
    m.insert("minus".into(), -1_000_000_000_000);
    vec![
        Record {
            a: 255,
            b: -300,
            c: 70_000,
            d: i64::MIN,
            e: u64::MAX,
            f: 1.5,
            g: -0.1,
            h: true,
            s: "héllo".into(),
            r: "ref".into(),
            y: Bytes(vec![0, 1, 0xff]),
            v: vec![0, 24, 256, 65_536, u32::MAX],
            o: Some(-24),
            m,
            n: Inner { x: -128, tags: vec!["a".into(), "€".into()] },
            k: vec![
                Shape::Unit,
                Shape::New(500),
                Shape::Pair(-1, false),
                Shape::Rect { w: f32::INFINITY, h: 65504.0 },
            ],
            big: i128::MIN + 1,
            ch: 'ß',
        },
        Record {
            a: 0,
            b: 0,
            c: 0,
            d: 0,
            e: 0,
            f: f32::NAN,
            g: 1e300,
            h: false,
            s: String::new(),
            r: String::new(),
            y: Bytes(Vec::new()),
            v: Vec::new(),
            o: None,
            m: FixedMap::default(),
            n: Inner { x: 0, tags: Vec::new() },
            k: Vec::new(),
            big: u64::MAX as i128 + 1,
            ch: 'a',
        },
    ]
}

/// Values compared as equal when `==` says so or their Debug forms match
/// (NaN fields are never `==`; the maps' hasher is fixed, so the same
/// decoding gives the same Debug form).
fn same<T: PartialEq + Debug>(a: &T, b: &T) -> bool {
    a == b || format!("{a:?}") == format!("{b:?}")
}

/// Ours against the two peers on one owned target.
fn typed_owned<T>(data: &[u8], what: &str)
where
    T: DeserializeOwned + PartialEq + Debug,
{
    let ours = from_slice::<T>(data);
    check_offset(data, &ours, what);
    let sc = serde_cbor_one::<T>(data);
    let cb = ciborium_one::<T>(data);
    let peers_agree = match (&sc, &cb) {
        (Ok(a), Ok(b)) => same(a, b),
        (Err(_), Err(_)) => true,
        _ => false,
    };
    if !peers_agree {
        return;
    }
    match (&ours, &sc) {
        (Ok(a), Ok(b)) if same(a, b) => {}
        (Err(_), Err(_)) => {}
        (Ok(_), Err(a))
            if known_acceptance(a, data)
                && cb.as_ref().is_err_and(|b| known_acceptance(b, data)) => {}
        _ => panic!(
            "{what} from {}: ours {ours:?}, serde_cbor {sc:?}, ciborium {cb:?}",
            to_hex(data)
        ),
    }
}

/// Ours against serde_cbor on the borrowing target, when ciborium's verdict
/// on the owned twin agrees with serde_cbor's (a second opinion).
fn typed_borrowed(data: &[u8]) {
    let ours = from_slice::<RecordRef>(data);
    check_offset(data, &ours, "RecordRef");
    let sc = serde_cbor_one::<RecordRef>(data);
    let cb = ciborium_one::<Record>(data);
    if sc.is_ok() != cb.is_ok() {
        return;
    }
    match (&ours, &sc) {
        (Ok(a), Ok(b)) if same(a, b) => {}
        (Err(_), Err(_)) => {}
        (Ok(_), Err(a))
            if known_acceptance(a, data)
                && cb.as_ref().is_err_and(|b| known_acceptance(b, data)) => {}
        _ => panic!("RecordRef from {}: ours {ours:?}, serde_cbor {sc:?}", to_hex(data)),
    }
}

// ---------------------------------------------------------------------------
// The checks on one input.

fn check_offset<T: Debug>(data: &[u8], r: &Result<T, cbor_fast::serde::Error>, what: &str) {
    if let Err(e) = r {
        assert!(
            e.offset() <= data.len(),
            "{what} from {}: error offset {} beyond the input ({} bytes): {e}",
            to_hex(data),
            e.offset(),
            data.len()
        );
    }
}

/// Ours into `ciborium::Value` against ciborium; what ours accepts must
/// encode and decode back. Returns whether ours accepted.
fn check_ciborium_value(data: &[u8]) -> bool {
    let ours = from_slice::<ciborium::Value>(data);
    check_offset(data, &ours, "ciborium::Value");
    let theirs = ciborium_one::<ciborium::Value>(data);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            let (na, nb) = (to_n(a), to_n(b));
            assert!(na == nb, "ciborium::Value from {}: ours {a:?}, ciborium {b:?}", to_hex(data));
        }
        (Err(_), Err(_)) => {}
        (Err(e), Ok(_)) if known_refusal(e, data) => {}
        (Ok(_), Err(e)) if peer_limit(e) => {}
        _ => panic!("ciborium::Value from {}: ours {ours:?}, ciborium {theirs:?}", to_hex(data)),
    }
    let Ok(v) = ours else { return false };
    // 4. Ours encodes it; ours reads that back to the same value; ciborium
    // writes the same bytes for it.
    let bytes =
        to_vec(&v).unwrap_or_else(|e| panic!("to_vec of {v:?} (from {}): {e}", to_hex(data)));
    let back = from_slice::<ciborium::Value>(&bytes).unwrap_or_else(|e| {
        panic!("from_slice(to_vec) {} (from {}): {e}", to_hex(&bytes), to_hex(data))
    });
    assert!(
        to_n(&back) == to_n(&v) && ciborium_has_tag(&back) == ciborium_has_tag(&v),
        "round trip of {} through {}: {v:?} then {back:?}",
        to_hex(data),
        to_hex(&bytes)
    );
    let mut theirs = Vec::new();
    ciborium::into_writer(&v, &mut theirs).unwrap();
    if bytes != theirs {
        // NaN payloads may be written differently; then the values must agree.
        let other = ciborium_one::<ciborium::Value>(&bytes).map(|x| to_n(&x));
        assert!(
            ciborium_has_nan(&v) && other == Ok(to_n(&v)),
            "to_vec of {v:?} (from {}): ours {}, ciborium {}",
            to_hex(data),
            to_hex(&bytes),
            to_hex(&theirs)
        );
    }
    true
}

/// `from_slice::<serde_cbor::Value>`, or `None` where serde_cbor's `Value`
/// panics (a peer defect): its `Ord`, comparing map keys, serializes arrays
/// and maps and panics ("self is serializable") on an `Integer` beyond
/// CBOR's 64-bit range, which its own `visit_i128` builds from negative
/// bignums below -2^64 (ours and ciborium's deserializer visit those as
/// `i128`; serde_cbor's deserializer keeps the tag). Told by a tag 3 head
/// in the input.
fn ours_serde_cbor_value(
    data: &[u8],
) -> Option<Result<serde_cbor::Value, cbor_fast::serde::Error>> {
    // Those panics are expected: not printed (every other panic is).
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_value = info.location().is_some_and(|l| l.file().contains("serde_cbor"));
            let msg = info.payload().downcast_ref::<String>().map_or("", String::as_str);
            if !(in_value && msg.contains("is serializable")) {
                default(info);
            }
        }));
    });
    let r = std::panic::catch_unwind(|| from_slice::<serde_cbor::Value>(data));
    match r {
        Ok(v) => Some(v),
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| p.downcast_ref::<&str>().copied())
                .unwrap_or("");
            let tag3 = (0..data.len()).any(|i| matches!(tag_head(&data[i..]), Some((3, _))));
            assert!(
                msg.contains("is serializable") && tag3,
                "from_slice::<serde_cbor::Value>({}) panicked: {msg}",
                to_hex(data)
            );
            None
        }
    }
}

fn check_serde_cbor_value(data: &[u8]) {
    let Some(ours) = ours_serde_cbor_value(data) else { return };
    check_offset(data, &ours, "serde_cbor::Value");
    let theirs = serde_cbor_one::<serde_cbor::Value>(data);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            let (na, nb) = (to_n(a), to_n(b));
            assert!(
                na == nb,
                "serde_cbor::Value from {}: ours {a:?}, serde_cbor {b:?}",
                to_hex(data)
            );
        }
        (Err(_), Err(_)) => {}
        (Err(e), Ok(_)) if known_refusal(e, data) => {}
        (Ok(_), Err(e)) if peer_limit(e) => {}
        _ => {
            panic!("serde_cbor::Value from {}: ours {ours:?}, serde_cbor {theirs:?}", to_hex(data))
        }
    }
}

fn check(data: &[u8]) -> bool {
    let accepted = check_ciborium_value(data);
    check_serde_cbor_value(data);
    typed_owned::<Record>(data, "Record");
    typed_borrowed(data);
    typed_owned::<Vec<Shape>>(data, "Vec<Shape>");
    typed_owned::<Shape>(data, "Shape");
    typed_owned::<FixedMap>(data, "HashMap<String, i64>");
    typed_owned::<Option<Vec<u32>>>(data, "Option<Vec<u32>>");
    typed_owned::<(u8, i128, f32, String)>(data, "(u8, i128, f32, String)");
    typed_owned::<Inner>(data, "Inner");
    typed_owned::<u128>(data, "u128");
    typed_owned::<i64>(data, "i64");
    typed_owned::<f64>(data, "f64");
    typed_owned::<char>(data, "char");
    typed_owned::<()>(data, "()");
    accepted
}

// ---------------------------------------------------------------------------
// Seeds and mutations.

/// The "hex" strings of a vectors file (tests/vectors/*.json).
fn hex_rows(name: &str) -> Vec<Vec<u8>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors/");
    let text = std::fs::read_to_string(format!("{path}{name}")).unwrap();
    let mut out = Vec::new();
    for piece in text.split("\"hex\": \"").skip(1) {
        let h = &piece[..piece.find('"').unwrap()];
        out.push(hex(h));
    }
    assert!(out.len() > 20, "{name}: {} rows", out.len());
    out
}

fn seeds() -> Vec<Vec<u8>> {
    let mut s = hex_rows("appendix_a.json");
    s.extend(hex_rows("malformed.json"));
    for (_, data) in corpus_files() {
        for n in [16, 64, 256, 1024] {
            s.push(data[..n.min(data.len())].to_vec());
        }
    }
    // Around the three depth limits (serde_cbor 128, ciborium 256, ours
    // 512): nested arrays, tags and maps.
    for d in [127, 128, 129, 255, 256, 257, 511, 512, 513] {
        for unit in [&[0x81u8][..], &[0xc1], &[0xa1, 0x00], &[0x9f]] {
            let mut s1: Vec<u8> = unit.repeat(d);
            s1.push(0x00);
            if unit == [0x9f] {
                s1.extend(std::iter::repeat_n(0xff, d));
            }
            s.push(s1);
        }
    }
    // Map keys serde_cbor::Value's Ord panics comparing (see
    // `ours_serde_cbor_value`): [-1 - 2^64] and [0]; and i128::MIN beside 0.
    s.push(hex("a2 81c349010000000000000000 00 8100 00"));
    s.push(hex("a2 c3507fffffffffffffffffffffffffffffff 00 00 00"));
    // Keys that only a tag tells apart (16 and 1(16)) inside a map that is
    // part of a key: that key's order among its siblings is not comparable
    // (found with CBOR_FAST_DIFF_SEED=18).
    s.push(hex("a2 81a21001c11002 00 82a1f40001 00"));
    // A character split between the chunks of an indefinite text string:
    // the peers read "stre\u{608}ing", ours refuses (`known_refusal`).
    s.push(hex("7f 65 73747265d8 64 88696e67 ff"));
    for r in sample_records() {
        s.push(to_vec(&r).unwrap());
        s.push(to_vec(&r.k).unwrap());
        s.push(to_vec(&r.m).unwrap());
        s.push(to_vec(&r.n).unwrap());
        s.push(to_vec(&(r.a, r.big, r.f, &r.s)).unwrap());
    }
    s
}

const INTERESTING: &[u8] = &[
    0x18, 0x19, 0x1a, 0x1b, 0x38, 0x39, 0x3a, 0x3b, 0x58, 0x59, 0x5a, 0x5b, 0x5f, 0x78, 0x79, 0x7a,
    0x7b, 0x7f, 0x98, 0x99, 0x9a, 0x9b, 0x9f, 0xb8, 0xb9, 0xba, 0xbb, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3,
    0xd8, 0xf4, 0xf5, 0xf6, 0xf7, 0xf9, 0xfa, 0xfb, 0xff, 0x00, 0x01, 0x17, 0x20, 0x40, 0x60, 0x80,
    0xa0, 0x61, 0x81, 0xa1,
];

fn pick(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

fn mutate(rng: &mut Rng, data: &mut Vec<u8>, other: &[u8]) {
    const MAX: usize = 4096;
    match rng.below(8) {
        // Flip bits of one byte.
        0 if !data.is_empty() => {
            let i = pick(rng, data.len());
            data[i] ^= 1 << rng.below(8);
        }
        // Replace a byte by an interesting one.
        1 if !data.is_empty() => {
            let i = pick(rng, data.len());
            data[i] = INTERESTING[pick(rng, INTERESTING.len())];
        }
        // Insert an interesting byte (or a random one).
        2 => {
            let i = pick(rng, data.len() + 1);
            let b = if rng.chance(80) {
                INTERESTING[pick(rng, INTERESTING.len())]
            } else {
                rng.next_u64() as u8
            };
            data.insert(i, b);
        }
        // Delete a range.
        3 if !data.is_empty() => {
            let i = pick(rng, data.len());
            let n = 1 + pick(rng, (data.len() - i).min(8));
            data.drain(i..i + n);
        }
        // Truncate.
        4 if !data.is_empty() => {
            let n = pick(rng, data.len());
            data.truncate(n);
        }
        // Duplicate a range in place.
        5 if !data.is_empty() && data.len() < MAX => {
            let i = pick(rng, data.len());
            let n = 1 + pick(rng, (data.len() - i).min(32));
            let piece = data[i..i + n].to_vec();
            let at = pick(rng, data.len() + 1);
            data.splice(at..at, piece);
        }
        // Splice: a prefix of this one, a piece of another.
        6 if !other.is_empty() => {
            let cut = pick(rng, data.len() + 1);
            let from = pick(rng, other.len());
            let n = 1 + pick(rng, (other.len() - from).min(64));
            data.truncate(cut);
            data.extend_from_slice(&other[from..from + n]);
        }
        // Overwrite with a random byte.
        _ if !data.is_empty() => {
            let i = pick(rng, data.len());
            data[i] = rng.next_u64() as u8;
        }
        _ => data.push(INTERESTING[pick(rng, INTERESTING.len())]),
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(s) if !s.is_empty() => s.parse().unwrap_or_else(|_| panic!("{name}={s:?}")),
        _ => default,
    }
}

/// `split_text_chunk`, the rule that excuses ours refusing what the peers
/// accept for a character split between chunks, by the first bad text.
#[test]
fn split_text_chunk_rows() {
    let rows: [(&str, &str, bool); 6] = [
        ("character split between chunks", "7f 65 73747265d8 64 88696e67 ff", true),
        ("bad chunk inside an array", "81 7f 61 ff ff", true),
        ("indefinite bytes, bad chunk", "5f 41 ff ff", false),
        ("indefinite text closed, then bad definite text", "82 7f 60 ff 62 c328", false),
        ("bad definite text, then indefinite text", "82 62 c328 7f 60 ff", false),
        ("all text valid", "7f 61 61 ff", false),
    ];
    for (name, input, want) in rows {
        assert_eq!(split_text_chunk(&hex(input)), want, "{name}: {input}");
    }
}

#[test]
fn seeds_agree_with_peers() {
    let seeds = seeds();
    let mut accepted = 0;
    for s in &seeds {
        accepted += usize::from(check(s));
    }
    // The appendix rows, corpus prefixes of 1 KiB or more, the records and
    // the nesting below 512 levels.
    assert!(accepted > 80, "{accepted} of {} seeds accepted", seeds.len());
}

#[test]
fn mutated_inputs_agree_with_peers() {
    let iters = env_u64("CBOR_FAST_DIFF_ITERS", DEFAULT_ITERS);
    let mut rng = Rng::new(env_u64("CBOR_FAST_DIFF_SEED", 0x5eed_cb0f));
    let seeds = seeds();
    // Inputs ours accepted join the pool (bounded), so mutations stack up
    // on well-formed structure.
    let mut pool: Vec<Vec<u8>> = seeds.clone();
    let mut accepted = 0u64;
    for _ in 0..iters {
        let mut data = pool[pick(&mut rng, pool.len())].clone();
        let other = &seeds[pick(&mut rng, seeds.len())];
        for _ in 0..1 + rng.below(4) {
            mutate(&mut rng, &mut data, other);
        }
        if check(&data) {
            accepted += 1;
            if pool.len() < 4 * seeds.len() {
                pool.push(data);
            } else {
                let i = seeds.len() + pick(&mut rng, pool.len() - seeds.len());
                pool[i] = data;
            }
        }
    }
    // The mutations keep a fair share well-formed (about a fifth).
    assert!(accepted * 20 > iters, "{accepted} of {iters} accepted");
    eprintln!("differential: {iters} inputs, {accepted} accepted by ours");
}
