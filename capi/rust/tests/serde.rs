//! serde (feature `serde`): exact bytes at the head boundaries, floats and
//! integers byte-identical to the C writer, borrowing without allocation,
//! tags, enums, errors with status and offset, deep and hostile input.
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;

use cbor_fast::serde::{Tagged, from_slice, from_slice_with, to_vec, to_writer};
use cbor_fast::{DecodeOptions, Reader, Status, Value, encode};
use common::{Rng, hex};
use serde::{Deserialize, Serialize};

// ---- a counting allocator (per thread: tests run in parallel) ----------------

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    /// Bytes asked for (allocations and the new sizes of reallocations).
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        let _ = BYTES.try_with(|c| c.set(c.get() + layout.size() as u64));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        let _ = BYTES.try_with(|c| c.set(c.get() + new_size as u64));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Rust heap bytes `f` asks for on this thread.
fn bytes_allocated<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = BYTES.with(Cell::get);
    let r = f();
    (r, BYTES.with(Cell::get) - before)
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Rust heap allocations (and reallocations) `f` makes on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = ALLOCATIONS.with(Cell::get);
    let r = f();
    (r, ALLOCATIONS.with(Cell::get) - before)
}

/// A byte string for serde (without the serde_bytes crate).
#[derive(Debug, PartialEq)]
struct Bytes(Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

fn err_of<T: for<'a> Deserialize<'a> + std::fmt::Debug>(data: &[u8]) -> (Status, usize) {
    let e = from_slice::<T>(data).unwrap_err();
    (e.status(), e.offset())
}

// ---- integers ---------------------------------------------------------------

#[test]
fn unsigned_heads_at_every_boundary() {
    let rows: &[(&str, u64, &str)] = &[
        ("0", 0, "00"),
        ("23: last in the initial byte", 23, "17"),
        ("24: first one-byte argument", 24, "1818"),
        ("255", 255, "18ff"),
        ("256: first two-byte argument", 256, "190100"),
        ("65535", 65535, "19ffff"),
        ("65536: first four-byte argument", 65536, "1a00010000"),
        ("2^32-1", u32::MAX as u64, "1affffffff"),
        ("2^32: first eight-byte argument", 1 << 32, "1b0000000100000000"),
        ("2^64-1", u64::MAX, "1bffffffffffffffff"),
    ];
    for (name, v, h) in rows {
        assert_eq!(to_vec(v).unwrap(), hex(h), "{name}");
        assert_eq!(from_slice::<u64>(&hex(h)).unwrap(), *v, "{name}");
    }
}

#[test]
fn negative_and_big_integers() {
    let rows: &[(&str, i128, &str)] = &[
        ("-1", -1, "20"),
        ("-24", -24, "37"),
        ("-25", -25, "3818"),
        ("-256", -256, "38ff"),
        ("-257", -257, "390100"),
        ("i64::MIN", i64::MIN as i128, "3b7fffffffffffffff"),
        ("-2^64: smallest plain negative", -(1i128 << 64), "3bffffffffffffffff"),
        ("-2^64-1: first negative bignum", -(1i128 << 64) - 1, "c349010000000000000000"),
        ("i128::MIN", i128::MIN, "c3507fffffffffffffffffffffffffffffff"),
        ("2^64: first positive bignum", 1i128 << 64, "c249010000000000000000"),
        ("i128::MAX", i128::MAX, "c2507fffffffffffffffffffffffffffffff"),
    ];
    for (name, v, h) in rows {
        assert_eq!(to_vec(v).unwrap(), hex(h), "{name}");
        assert_eq!(from_slice::<i128>(&hex(h)).unwrap(), *v, "{name}");
        // Byte for byte what the C writer makes of the same integer.
        assert_eq!(to_vec(v).unwrap(), encode(&Value::from(*v)).unwrap(), "{name}");
    }
    assert_eq!(to_vec(&u128::MAX).unwrap(), hex("c250ffffffffffffffffffffffffffffffff"));
    assert_eq!(
        from_slice::<u128>(&hex("c250ffffffffffffffffffffffffffffffff")).unwrap(),
        u128::MAX
    );
    // Leading zeros in a bignum's magnitude are allowed on input.
    assert_eq!(from_slice::<u64>(&hex("c243000005")).unwrap(), 5);
    // 17 significant bytes: beyond 128 bits, at the tag's offset.
    assert_eq!(
        err_of::<u128>(&hex("c2510100000000000000000000000000000000")),
        (Status::OutOfRange, 0)
    );
    // Out of the target's range: serde's invalid value, at the item.
    assert_eq!(err_of::<u8>(&hex("190100")), (Status::TypeMismatch, 0));
    assert_eq!(err_of::<i64>(&hex("3bffffffffffffffff")), (Status::TypeMismatch, 0));
    assert_eq!(from_slice::<i8>(&hex("387f")).unwrap(), -128);
}

#[test]
fn generated_integers_and_floats_match_the_c_writer() {
    let mut rng = Rng::new(15);
    let mut ints = Vec::new();
    let mut floats = Vec::new();
    for _ in 0..4000 {
        let shift = rng.below(64);
        ints.push((rng.next_u64() >> shift) as i64 * if rng.chance(50) { -1 } else { 1 });
        // Random bit patterns (NaNs with payloads, subnormals, infinities)
        // and values that fit half or single exactly.
        let f = match rng.below(4) {
            0 => f64::from_bits(rng.next_u64()),
            1 => f64::from(f32::from_bits(rng.next_u64() as u32)),
            2 => (rng.below(1 << 11) as f64) * 2f64.powi(rng.below(40) as i32 - 30),
            _ => f64::from_bits(rng.next_u64() & 0xfff0_0000_0000_0000 | rng.below(4) << 42),
        };
        floats.push(f);
    }
    for extra in [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        65504.0,
        65520.0,
        5.960464477539063e-8,
        1e300,
        f64::MIN_POSITIVE,
    ] {
        floats.push(extra);
    }
    let ours = to_vec(&ints).unwrap();
    let c = encode(&Value::Array(ints.iter().map(|&i| Value::from(i)).collect())).unwrap();
    assert!(ours == c, "integers differ from the C writer");
    assert_eq!(from_slice::<Vec<i64>>(&ours).unwrap(), ints);
    let ours = to_vec(&floats).unwrap();
    let c = encode(&Value::Array(floats.iter().map(|&f| Value::Float(f)).collect())).unwrap();
    assert!(ours == c, "floats differ from the C writer");
    let back: Vec<f64> = from_slice(&ours).unwrap();
    assert!(back.iter().zip(&floats).all(|(a, b)| a.to_bits() == b.to_bits()), "float bits");
    // f32 goes through the same shortest rule, payloads kept.
    let singles: Vec<f32> = (0..2000).map(|_| f32::from_bits(rng.next_u64() as u32)).collect();
    let c = encode(&Value::Array(singles.iter().map(|&f| Value::Float(f64::from(f))).collect()))
        .unwrap();
    let ours = to_vec(&singles).unwrap();
    // Hardware widening quiets signalling NaNs; compare the non-NaNs there.
    let finite: Vec<f32> = singles.iter().copied().filter(|f| !f.is_nan()).collect();
    let c_finite =
        encode(&Value::Array(finite.iter().map(|&f| Value::Float(f64::from(f))).collect()))
            .unwrap();
    assert_eq!(to_vec(&finite).unwrap(), c_finite);
    assert_eq!(ours.len(), c.len());
    // Read back bit for bit, signalling NaNs included (a half or single NaN
    // goes to serde as an f32 of its own bits; through `f64 as f32` the
    // hardware set the quiet bit).
    let back: Vec<f32> = from_slice(&ours).unwrap();
    for (a, b) in back.iter().zip(&singles) {
        assert_eq!(a.to_bits(), b.to_bits(), "f32 bits");
    }
    // (row, input, the f32's bits)
    let rows: &[(&str, &str, u32)] = &[
        ("signalling single NaN", "fa7f800001", 0x7f80_0001),
        ("negative signalling single NaN", "faff800001", 0xff80_0001),
        ("quiet single NaN, payload", "fa7fc00123", 0x7fc0_0123),
        ("signalling half NaN", "f97c01", 0x7f80_2000),
        ("negative quiet half NaN", "f9fe00", 0xffc0_0000),
        ("half infinity", "f97c00", 0x7f80_0000),
        ("single", "fa3fc00000", 0x3fc0_0000),
        ("double NaN: narrowed as serde narrows", "fb7ff8000000000000", 0x7fc0_0000),
        // Not NaNs: straight from the batch (the fast path), as serde narrows.
        ("half 1.5", "f93e00", 0x3fc0_0000),
        ("half negative zero", "f98000", 0x8000_0000),
        ("half smallest subnormal", "f90001", 0x3380_0000),
        ("single smallest subnormal", "fa00000001", 0x0000_0001),
        ("single largest", "fa7f7fffff", 0x7f7f_ffff),
        ("double 0.1: rounded to nearest", "fb3fb999999999999a", 0x3dcc_cccd),
        ("double infinity", "fbfff0000000000000", 0xff80_0000),
        ("double 1e300: past the largest single", "fb7e37e43c8800759c", 0x7f80_0000),
        ("an integer", "1903e8", 0x447a_0000),
    ];
    for (row, input, bits) in rows {
        assert_eq!(from_slice::<f32>(&hex(input)).unwrap().to_bits(), *bits, "{row}");
    }
    // An f64 target is unchanged: the widened value, signalling kept.
    assert_eq!(from_slice::<f64>(&hex("fa7f800001")).unwrap().to_bits(), 0x7ff0_0000_2000_0000);
}

#[test]
fn float_widths() {
    let rows: &[(&str, f64, &str)] = &[
        ("0.0", 0.0, "f90000"),
        ("-0.0", -0.0, "f98000"),
        ("1.5 half", 1.5, "f93e00"),
        ("65504 largest half", 65504.0, "f97bff"),
        ("65520 single", 65520.0, "fa477ff000"),
        ("smallest half subnormal", 5.960464477539063e-8, "f90001"),
        ("0.1 double", 0.1, "fb3fb999999999999a"),
        ("infinity", f64::INFINITY, "f97c00"),
        ("NaN", f64::NAN, "f97e00"),
    ];
    for (name, v, h) in rows {
        assert_eq!(to_vec(v).unwrap(), hex(h), "{name}");
        assert_eq!(from_slice::<f64>(&hex(h)).unwrap().to_bits(), v.to_bits(), "{name}");
    }
    // Integers read into floats (serde_cbor does the same).
    assert_eq!(from_slice::<f64>(&hex("182f")).unwrap(), 47.0);
}

/// The width rule at each boundary of half and single: the largest and
/// smallest normals and subnormals, the last fraction bit each width keeps
/// (bit 29 of the double is single's last, 28 only a double's), one step
/// past each range, and NaNs whose payload fits half, only single, or only
/// double. Every row also through a struct field and a tuple (the inlined
/// container paths) and against the C writer.
#[test]
fn float_width_boundaries() {
    let rows: &[(&str, u64, &str)] = &[
        ("largest half", 65504f64.to_bits(), "f97bff"),
        ("-largest half", (-65504f64).to_bits(), "f9fbff"),
        ("65505: single", 65505f64.to_bits(), "fa477fe100"),
        ("smallest half normal 2^-14", 0x3f10_0000_0000_0000, "f90400"),
        ("largest half subnormal", 0x3f0f_f800_0000_0000, "f903ff"),
        ("-smallest half subnormal", 0xbe70_0000_0000_0000, "f98001"),
        ("2^-25: below half, single", 0x3e60_0000_0000_0000, "fa33000000"),
        ("1.5 * 2^-24: between half subnormals", 0x3e78_0000_0000_0000, "fa33c00000"),
        ("1 + 2^-10: half's last fraction bit", 0x3ff0_0400_0000_0000, "f93c01"),
        ("1 + 2^-11: single", 0x3ff0_0200_0000_0000, "fa3f801000"),
        ("1 + 2^-23: single's last fraction bit", 0x3ff0_0000_2000_0000, "fa3f800001"),
        ("1 + 2^-24: double", 0x3ff0_0000_1000_0000, "fb3ff0000010000000"),
        ("largest single", 0x47ef_ffff_e000_0000, "fa7f7fffff"),
        ("2^128: above single", 0x47f0_0000_0000_0000, "fb47f0000000000000"),
        ("smallest single normal 2^-126", 0x3810_0000_0000_0000, "fa00800000"),
        ("largest single subnormal", 0x380f_ffff_c000_0000, "fa007fffff"),
        ("smallest single subnormal 2^-149", 0x36a0_0000_0000_0000, "fa00000001"),
        ("2^-150: double", 0x3690_0000_0000_0000, "fb3690000000000000"),
        ("-infinity", f64::NEG_INFINITY.to_bits(), "f9fc00"),
        ("-NaN", 0xfff8_0000_0000_0000, "f9fe00"),
        ("NaN, payload in half", 0x7ffc_0000_0000_0000, "f97f00"),
        ("signalling NaN, payload in half", 0x7ff0_0400_0000_0000, "f97c01"),
        ("NaN, payload in single", 0x7ff8_0000_2000_0000, "fa7fc00001"),
        ("signalling NaN, payload in double", 0x7ff0_0000_0000_0001, "fb7ff0000000000001"),
    ];
    #[derive(Serialize)]
    struct One {
        x: f64,
    }
    for &(name, bits, h) in rows {
        let v = f64::from_bits(bits);
        assert_eq!(to_vec(&v).unwrap(), hex(h), "{name}");
        assert_eq!(encode(&Value::Float(v)).unwrap(), hex(h), "{name}: C writer");
        let mut field = hex("a16178");
        field.extend(hex(h));
        assert_eq!(to_vec(&One { x: v }).unwrap(), field, "{name}: field");
        let mut pair = hex("8201");
        pair.extend(hex(h));
        assert_eq!(to_vec(&(1u8, v)).unwrap(), pair, "{name}: tuple");
        assert_eq!(from_slice::<f64>(&hex(h)).unwrap().to_bits(), bits, "{name}: read back");
    }
    // f32 arguments: the same widths (the largest single and its subnormals).
    assert_eq!(to_vec(&f32::MAX).unwrap(), hex("fa7f7fffff"));
    assert_eq!(to_vec(&f32::from_bits(1)).unwrap(), hex("fa00000001"));
    assert_eq!(to_vec(&f32::from_bits(0x3380_0000)).unwrap(), hex("f90001")); // 2^-24
    assert_eq!(to_vec(&-0.5f32).unwrap(), hex("f9b800"));
}

/// Exact binary16 -> binary64 (NaN payloads kept).
fn half_to_f64(h: u16) -> f64 {
    let negative = h & 0x8000 != 0;
    let exp = u64::from((h >> 10) & 0x1f);
    let mant = u64::from(h & 0x3ff);
    let bits = match exp {
        0x1f => 0x7ff << 52 | mant << 42,
        0 => (mant as f64 * 2f64.powi(-24)).to_bits(),
        _ => (exp + 1023 - 15) << 52 | mant << 42,
    };
    f64::from_bits(bits | u64::from(negative) << 63)
}

/// Every one of the 65,536 halves, widened to a double, is written back as
/// that half (NaNs with their payloads, subnormals, both zeros), as the C
/// writer writes it.
#[test]
fn every_half_is_written_as_itself() {
    let all: Vec<f64> = (0..=u16::MAX).map(half_to_f64).collect();
    let mut expected = hex("9a00010000");
    for h in 0..=u16::MAX {
        expected.push(0xf9);
        expected.extend(h.to_be_bytes());
    }
    let ours = to_vec(&all).unwrap();
    assert!(ours == expected, "halves");
    let c = encode(&Value::Array(all.iter().map(|&f| Value::Float(f)).collect())).unwrap();
    assert!(c == expected, "halves, C writer");
}

// ---- strings, containers, borrowing -----------------------------------------

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Borrowed<'a> {
    name: &'a str,
    #[serde(with = "borrowed_bytes")]
    raw: &'a [u8],
    id: u32,
    tags: [&'a str; 2],
    nick: Option<&'a str>,
}

mod borrowed_bytes {
    pub fn serialize<S: serde::Serializer>(v: &&[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'de [u8], D::Error> {
        serde::Deserialize::deserialize(d)
    }
}

#[test]
fn borrowed_fields_point_into_the_input_with_zero_allocations() {
    let v =
        Borrowed { name: "Zo\u{eb}", raw: &[0, 1, 2], id: 300, tags: ["a", "bc"], nick: Some("z") };
    let bytes = to_vec(&v).unwrap();
    assert_eq!(
        bytes,
        hex("a5 646e616d65 645a6fc3ab 63726177 43000102 626964 19012c 6474616773 82 6161 626263 \
             646e69636b 617a")
    );
    let (back, n) = allocations(|| from_slice::<Borrowed>(&bytes).unwrap());
    assert_eq!(back, v);
    assert_eq!(n, 0, "borrowed decoding allocated");
    let range = bytes.as_ptr_range();
    for s in [back.name, back.tags[0], back.tags[1], back.nick.unwrap()] {
        assert!(range.contains(&s.as_ptr()), "{s:?} is not a slice of the input");
    }
    assert!(range.contains(&back.raw.as_ptr()));
    // The owned form allocates one String per string field.
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Owned {
        name: String,
        id: u32,
    }
    let (_, n) = allocations(|| from_slice::<Owned>(&bytes).unwrap());
    assert_eq!(n, 1);
}

#[test]
fn indefinite_strings_go_to_owned_fields_only() {
    // (_ "ab", "c") and (_ h'01', h'02')
    let text = hex("7f 626162 6163 ff");
    assert_eq!(from_slice::<String>(&text).unwrap(), "abc");
    // (at the string's head: the break byte, 6, before)
    let e = from_slice::<&str>(&text).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::TypeMismatch, 0), "{e}");
    let bytes = hex("5f 4101 4102 ff");
    assert_eq!(
        from_slice::<serde_cbor::Value>(&bytes).unwrap(),
        serde_cbor::Value::Bytes(vec![1, 2])
    );
    assert_eq!(from_slice::<Vec<u8>>(&hex("82 01 02")).unwrap(), [1, 2]);
    // Indefinite arrays and maps.
    assert_eq!(from_slice::<Vec<u8>>(&hex("9f 01 02 ff")).unwrap(), [1, 2]);
    let m: BTreeMap<String, u8> = from_slice(&hex("bf 6161 01 ff")).unwrap();
    assert_eq!(m["a"], 1);
}

#[test]
fn containers_and_structs() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct S {
        a: Vec<u16>,
        b: BTreeMap<u8, String>,
        c: (bool, Option<i8>),
        #[serde(skip_serializing_if = "Option::is_none")]
        d: Option<u8>,
        e: (),
    }
    let s = S { a: vec![1, 256], b: [(1, "x".into())].into(), c: (true, None), d: None, e: () };
    let bytes = to_vec(&s).unwrap();
    assert_eq!(bytes, hex("a4 6161 82 01 190100 6162 a1 01 6178 6163 82 f5 f6 6165 f6"));
    assert_eq!(from_slice::<S>(&bytes).unwrap(), s);
    // A struct may also come as an array of its fields (serde_cbor's packed form).
    let packed = hex("85 80 a0 82 f4 01 f6 f6");
    let p: S = from_slice(&packed).unwrap();
    assert_eq!((p.c, p.d), ((false, Some(1)), None));
    // Unknown fields are skipped, whatever they hold.
    let extra = hex("a5 6161 80 6178 9f d8 20 a1 01 82 02 03 ff 6162 a0 6163 82 f4 f6 6165 f6");
    assert_eq!(from_slice::<S>(&extra).unwrap().a, Vec::<u16>::new());
    // Maps of unknown length (an iterator) get a definite head.
    struct Lazy;
    impl Serialize for Lazy {
        fn serialize<Z: serde::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
            s.collect_map((0..30u8).map(|i| (i, i)))
        }
    }
    let bytes = to_vec(&Lazy).unwrap();
    assert_eq!(&bytes[..2], [0xb8, 30]);
    assert_eq!(from_slice::<BTreeMap<u8, u8>>(&bytes).unwrap().len(), 30);
    let mut out = Vec::new();
    to_writer(&mut out, &Lazy).unwrap();
    assert_eq!(out, bytes);
}

#[test]
fn string_heads_at_the_boundaries_match_the_c_writer() {
    for (name, len) in [
        ("0", 0usize),
        ("23", 23),
        ("24", 24),
        ("255", 255),
        ("256", 256),
        ("65535", 65535),
        ("65536", 65536),
    ] {
        let text = "x".repeat(len);
        let bytes = Bytes(vec![7; len]);
        let ours = to_vec(&(text.as_str(), &bytes)).unwrap();
        let c =
            encode(&Value::Array(vec![Value::from(text.as_str()), Value::Bytes(bytes.0.clone())]))
                .unwrap();
        assert!(ours == c, "length {name}");
        let head = match len {
            0..=23 => 1,
            24..=255 => 2,
            256..=65535 => 3,
            _ => 5,
        };
        assert_eq!(ours.len(), 1 + 2 * (head + len), "length {name}");
        let (t, b): (String, serde_cbor::Value) = from_slice(&ours).unwrap();
        assert_eq!((t.len(), b), (len, serde_cbor::Value::Bytes(bytes.0)), "length {name}");
    }
}

// ---- enums and tags ---------------------------------------------------------

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum E {
    Unit,
    New(u8),
    Tuple(u8, bool),
    Struct { x: i8 },
}

#[test]
fn enums_are_externally_tagged() {
    let rows = [
        (E::Unit, "64556e6974"),
        (E::New(7), "a1 634e6577 07"),
        (E::Tuple(1, true), "a1 655475706c65 82 01 f5"),
        (E::Struct { x: -1 }, "a1 66537472756374 a1 6178 20"),
    ];
    for (v, h) in rows {
        assert_eq!(to_vec(&v).unwrap(), hex(h), "{v:?}");
        assert_eq!(from_slice::<E>(&hex(h)).unwrap(), v);
        // serde_cbor and ciborium write and read the same bytes.
        assert_eq!(serde_cbor::to_vec(&v).unwrap(), hex(h), "serde_cbor {v:?}");
        let mut c = Vec::new();
        ciborium::into_writer(&v, &mut c).unwrap();
        assert_eq!(c, hex(h), "ciborium {v:?}");
    }
    assert_eq!(err_of::<E>(&hex("6458787878")), (Status::TypeMismatch, 0));
    // A map of two entries is not an enum.
    assert_eq!(err_of::<E>(&hex("a2 6155 f6 6156 f6")), (Status::TypeMismatch, 0));
}

#[test]
fn tags_through_tagged_and_transparently() {
    let t = Tagged::new(Some(1), 1_363_896_240u64);
    let bytes = to_vec(&t).unwrap();
    assert_eq!(bytes, hex("c1 1a514b67b0"));
    assert_eq!(from_slice::<Tagged<u64>>(&bytes).unwrap(), t);
    assert_eq!(from_slice::<u64>(&bytes).unwrap(), 1_363_896_240);
    assert_eq!(to_vec(&Tagged::new(None, 5u8)).unwrap(), hex("05"));
    // Nested tags, and tag numbers at the head boundaries.
    let nested = Tagged::new(Some(55799), Tagged::new(Some(24), 0u8));
    let bytes = to_vec(&nested).unwrap();
    assert_eq!(bytes, hex("d9d9f7 d818 00"));
    assert_eq!(from_slice::<Tagged<Tagged<u8>>>(&bytes).unwrap(), nested);
    let big = Tagged::new(Some(u64::MAX), "x".to_string());
    assert_eq!(to_vec(&big).unwrap(), hex("dbffffffffffffffff 6178"));
    // serde_cbor's Tagged writes and reads the same bytes.
    let sc = serde_cbor::tags::Tagged::new(Some(1), 1_363_896_240u64);
    assert_eq!(serde_cbor::to_vec(&sc).unwrap(), hex("c1 1a514b67b0"));
    // ciborium's Required tag reads ours.
    let c: ciborium::tag::Required<u64, 1> =
        ciborium::from_reader(&hex("c1 1a514b67b0")[..]).unwrap();
    assert_eq!(c.0, 1_363_896_240);
    // Tags inside a struct field are skipped over when not asked for.
    #[derive(Deserialize, Debug, PartialEq)]
    struct U {
        uri: String,
    }
    let u: U = from_slice(&hex("a1 63757269 d820 6161")).unwrap();
    assert_eq!(u.uri, "a");
}

// ---- errors -----------------------------------------------------------------

#[test]
fn errors_have_status_and_offset() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct P {
        id: u64,
        name: String,
    }
    // Not well formed: the reader's status and offset.
    // (An array of 2 with 1 byte left is cut short at its head: the library
    // checks that the remaining input can hold the items it announces.)
    assert_eq!(err_of::<Vec<u8>>(&hex("82 01")), (Status::Truncated, 0));
    assert_eq!(err_of::<(u8, Vec<u8>)>(&hex("82 01 43 00")), (Status::Truncated, 2));
    assert_eq!(err_of::<u64>(&hex("1c")), (Status::ReservedAdditionalInfo, 0));
    assert_eq!(err_of::<Vec<u8>>(&hex("82 01 ff")), (Status::UnexpectedBreak, 2));
    assert_eq!(err_of::<u64>(&hex("")), (Status::Truncated, 0));
    // Wrong type: the offending item's head.
    assert_eq!(err_of::<P>(&hex("a2 626964 6178 646e616d65 6161")), (Status::TypeMismatch, 4));
    // A missing field: reported at the last item read (the map's last value).
    let e = from_slice::<P>(&hex("a1 626964 01")).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::TypeMismatch, 4));
    assert!(e.message().contains("name"), "{e}");
    // Invalid UTF-8, even in a skipped field: the first bad byte.
    let data = hex("a3 626964 01 63787878 62 c328 646e616d65 6161");
    assert_eq!(err_of::<P>(&data), (Status::InvalidUtf8, 10));
    // Bytes after the item.
    assert_eq!(err_of::<u8>(&hex("01 02")), (Status::TrailingBytes, 1));
    // ... also when what follows is not well formed (the reader stops at it).
    assert_eq!(err_of::<Vec<u8>>(&hex("81 01 1c")), (Status::TrailingBytes, 2));
    assert_eq!(err_of::<String>(&hex("7f 6161 ff 5b")), (Status::TrailingBytes, 4));
    assert_eq!(
        from_slice_with::<u8>(&hex("01 02"), &DecodeOptions::new().exact(false)).unwrap(),
        1
    );
    // A fixed-size tuple given more items than it has.
    assert_eq!(err_of::<(u8, u8)>(&hex("83 01 02 03")), (Status::TypeMismatch, 3));
    // A visitor's error for a string of indefinite length: at its head (it
    // was at the break byte), as for one of definite length.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct B<'a> {
        #[serde(borrow)]
        s: &'a str,
    }
    let placed = |r: Result<B, cbor_fast::serde::Error>| {
        let e = r.unwrap_err();
        (e.status(), e.offset())
    };
    let indefinite = hex("a1 6173 7f 6168 6169 ff");
    assert_eq!(placed(from_slice(&indefinite)), (Status::TypeMismatch, 3));
    let number = hex("a1 6173 18 2a");
    assert_eq!(placed(from_slice(&number)), (Status::TypeMismatch, 3));
    let chunks = hex("5f 41 01 41 02 ff");
    let e = from_slice::<&[u8]>(&chunks).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::TypeMismatch, 0));
    // A bignum the target cannot hold: at the tag (it was at the byte
    // string), as the library's own range errors are.
    assert_eq!(err_of::<u64>(&hex("c2 49 010000000000000000")), (Status::TypeMismatch, 0));
    assert_eq!(
        err_of::<(u8, u64)>(&hex("82 00 c2 49 010000000000000000")),
        (Status::TypeMismatch, 2)
    );
    assert_eq!(err_of::<i64>(&hex("3b ffffffffffffffff")), (Status::TypeMismatch, 0));
    assert_eq!(from_slice::<u128>(&hex("c2 49 010000000000000000")).unwrap(), 1 << 64);
    // Into an enum too (its byte string was read as a variant's name: "unknown
    // variant" at 1).
    #[derive(Deserialize, Debug)]
    enum E {
        #[allow(dead_code)]
        A,
    }
    assert_eq!(err_of::<E>(&hex("c2 42 0100")), (Status::TypeMismatch, 0));
    assert_eq!(err_of::<Vec<E>>(&hex("81 d9d9f7 c3 41 00")), (Status::TypeMismatch, 4));
    // Display names message, offset and status.
    let e = from_slice::<(u8, Vec<u8>)>(&hex("82 01 43 00")).unwrap_err();
    assert!(e.to_string().ends_with("at byte 2 (truncated)"), "{e}");
    // Reader options apply.
    let dup = hex("a2 6161 01 6161 02");
    let opts = DecodeOptions::new().reject_duplicate_keys(true);
    let e = from_slice_with::<BTreeMap<String, u8>>(&dup, &opts).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::DuplicateKey, 4));
}

/// `(Vec<u64>, Vec<(f64, f64)>)` with `pad` integers first, so that the
/// deserializer's batches of items (64, then 128, then 256 per library call
/// while nothing is skipped: boundaries after items 64 and 192) end at every place
/// among the pairs: heads, numbers and END items read straight from the batch
/// or after a refill. `extra` gives pair `k` a third item (or takes its second
/// away with `short`); `indefinite` writes the pairs as indefinite arrays.
/// Returns the bytes and the offset of pair `k`'s head.
fn padded_pairs(pad: usize, pairs: usize, k: usize, shape: &str) -> (Vec<u8>, usize) {
    let mut out = vec![0x82];
    out.push(0x98);
    out.push(pad as u8);
    out.extend((0..pad).map(|i| (i % 24) as u8));
    out.push(0x98);
    out.push(pairs as u8);
    let mut at = 0;
    for i in 0..pairs {
        let x = (i as f64) + 0.5;
        let mut float = vec![0xfb];
        float.extend(x.to_be_bytes());
        let mut items: Vec<Vec<u8>> = vec![float, vec![(i % 24) as u8]];
        if i == k {
            at = out.len();
            match shape {
                "extra" => items.push(vec![0xf6]),
                "short" => {
                    items.pop();
                }
                _ => {}
            }
        }
        if shape == "indefinite" {
            out.push(0x9f);
            items.iter().for_each(|b| out.extend(b));
            out.push(0xff);
        } else {
            out.push(0x80 + items.len() as u8);
            items.iter().for_each(|b| out.extend(b));
        }
    }
    (out, at)
}

/// `{"a": 1, "z": [n items]}`: the field `z` is unknown to the target and
/// skipped; n moves the batch boundary through it. `last` replaces its last
/// item; `indefinite` writes it as an indefinite array. Returns the bytes and
/// the offset of the last item.
fn skipped_field(n: usize, last: &[u8], indefinite: bool) -> (Vec<u8>, usize) {
    let mut out = hex("a2 6161 01 617a");
    if indefinite {
        out.push(0x9f);
    } else {
        out.extend([0x98, n as u8]);
    }
    for i in 0..n - 1 {
        // Nested containers and text, so the skip crosses levels.
        match i % 3 {
            0 => out.extend([0x82, 0x01, 0x61, b'x']),
            1 => out.extend([0xa1, 0x61, b'k', 0x80]),
            _ => out.push((i % 24) as u8),
        }
    }
    let at = out.len();
    out.extend(last);
    if indefinite {
        out.push(0xff);
    }
    (out, at)
}

/// The structs of the skip tests below: field `a` known, the skipped one not;
/// `AB` also wants a `b` the input lacks.
#[derive(Deserialize, Debug, PartialEq)]
struct A {
    a: u8,
}
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct AB {
    a: u8,
    b: u8,
}

#[test]
fn skipped_values_across_batch_boundaries() {
    for n in 1..=140 {
        for indefinite in [false, true] {
            let tag = format!("n {n} indefinite {indefinite}");
            let (data, _) = skipped_field(n, &[0x07], indefinite);
            assert_eq!(from_slice::<A>(&data).unwrap(), A { a: 1 }, "{tag}");
            // A field missing after the skipped one: at its END (the item
            // read last), the break byte or, for a definite array, where it
            // ends.
            let end = data.len() - usize::from(indefinite);
            assert_eq!(err_of::<AB>(&data), (Status::TypeMismatch, end), "{tag}");
            // Errors inside the skipped value: the library's, at their byte.
            let (data, at) = skipped_field(n, &[0x1c], indefinite);
            assert_eq!(err_of::<A>(&data), (Status::ReservedAdditionalInfo, at), "{tag}");
            let (data, at) = skipped_field(n, &[0x81, 0x62, 0xc3, 0x28], indefinite);
            assert_eq!(err_of::<A>(&data), (Status::InvalidUtf8, at + 2), "{tag}");
            // The reader's checks apply inside the skipped value, wherever
            // the batch ends: a duplicate key, a non-shortest head.
            let (data, at) = skipped_field(n, &hex("a2 6178 01 6178 02"), indefinite);
            let dup = DecodeOptions::new().reject_duplicate_keys(true);
            let e = from_slice_with::<A>(&data, &dup).unwrap_err();
            assert_eq!((e.status(), e.offset()), (Status::DuplicateKey, at + 4), "{tag}");
            if !indefinite && n >= 24 {
                // (Deterministic refuses an indefinite array, and 98 nn
                // below 24, at the array's head.)
                let (data, at) = skipped_field(n, &hex("1801"), indefinite);
                let det = DecodeOptions::new().deterministic(true);
                let e = from_slice_with::<A>(&data, &det).unwrap_err();
                assert_eq!((e.status(), e.offset()), (Status::NotPreferred, at), "{tag}");
            }
            let (mut data, _) = skipped_field(n, &[0x07], indefinite);
            data.pop(); // the break, or the last item
            // Cut short: where the input ends, or at the head of an array
            // announcing more items than bytes are left.
            let at = if n == 1 && !indefinite { 6 } else { data.len() };
            assert_eq!(err_of::<A>(&data), (Status::Truncated, at), "{tag}");
        }
    }
}

/// Unknown fields holding each kind of scalar (passed over in place when the
/// batch holds them; indefinite strings and tags go through the general
/// skip), at every place of the batch: the known field after them is read,
/// a missing one fails at the map's end, a bad string at its byte.
#[test]
fn skipped_scalars_of_every_kind_at_every_batch_place() {
    let values = [
        "17",
        "3903e7",
        "43010203",
        "63616263",
        "5f4101ff",
        "7f6161ff",
        "f0",
        "f5",
        "f6",
        "f7",
        "f93c00",
        "fb3ff8000000000000",
        "c11a00000001",
        "1bffffffffffffffff",
    ];
    // A map of `pad` entries "z": value, then the entries in `last`.
    let map = |pad: usize, value: &[u8], last: &[&str]| {
        let n = pad + last.len();
        let mut out = if n < 24 { vec![0xa0 | n as u8] } else { vec![0xb8, n as u8] };
        for _ in 0..pad {
            out.extend(hex("617a"));
            out.extend(value);
        }
        for entry in last {
            out.extend(hex(entry));
        }
        out
    };
    for value in values {
        for pad in 1..=140 {
            let tag = format!("{value} pad {pad}");
            let data = map(pad, &hex(value), &["616101"]);
            assert_eq!(from_slice::<A>(&data).unwrap(), A { a: 1 }, "{tag}");
            // b missing: at the item read last, a's value.
            assert_eq!(err_of::<AB>(&data), (Status::TypeMismatch, data.len() - 1), "{tag}");
            // One more unknown field, with bad text (c3 28) before a.
            let bad = map(pad, &hex(value), &["617a 62c328", "616101"]);
            let at = bad.len() - 5;
            assert_eq!(err_of::<A>(&bad), (Status::InvalidUtf8, at), "{tag}");
        }
    }
}

/// A float or an integer, through `deserialize_any` (as canada's `Num`).
#[derive(Debug)]
struct AnyNum(f64);

impl<'de> Deserialize<'de> for AnyNum {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<AnyNum, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = AnyNum;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number")
            }
            fn visit_f64<E>(self, v: f64) -> Result<AnyNum, E> {
                Ok(AnyNum(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<AnyNum, E> {
                Ok(AnyNum(v as f64))
            }
        }
        d.deserialize_any(V)
    }
}

#[test]
fn items_across_batch_boundaries() {
    type T = (Vec<u64>, Vec<(f64, f64)>);
    for pad in (0..=70).chain(150..=200) {
        let want: T = (
            (0..pad).map(|i| (i % 24) as u64).collect(),
            (0..40).map(|i| ((i as f64) + 0.5, (i % 24) as f64)).collect(),
        );
        for shape in ["plain", "indefinite"] {
            let (data, _) = padded_pairs(pad, 40, usize::MAX, shape);
            assert_eq!(from_slice::<T>(&data).unwrap(), want, "pad {pad} {shape}");
            // Numbers through deserialize_any too.
            let any = from_slice::<(Vec<u64>, Vec<(AnyNum, AnyNum)>)>(&data).unwrap();
            assert_eq!(any.1.iter().map(|(a, b)| (a.0, b.0)).collect::<Vec<_>>(), want.1);
        }
        // A bad head after the pairs: the batch before it ends short, and
        // what is past its end (items of an earlier batch) is never read.
        let (mut data, _) = padded_pairs(pad, 40, usize::MAX, "plain");
        let at = data.len();
        data[3 + pad + 1] = 41;
        data.extend([0x82, 0x1c, 0x00]);
        assert_eq!(err_of::<T>(&data), (Status::ReservedAdditionalInfo, at + 1), "pad {pad}");
        for k in [0, 1, 7, 15, 16, 17, 39] {
            // A third item: TypeMismatch at it (pair head, 9-byte float, 1-byte int).
            let (data, at) = padded_pairs(pad, 40, k, "extra");
            let e = from_slice::<T>(&data).unwrap_err();
            assert_eq!(
                (e.status(), e.offset()),
                (Status::TypeMismatch, at + 11),
                "pad {pad} k {k}"
            );
            assert!(e.message().contains("more array items"), "{e}");
            // One item short: serde's invalid length, at the item read last
            // (the pair's float).
            let (data, at) = padded_pairs(pad, 40, k, "short");
            let e = from_slice::<T>(&data).unwrap_err();
            assert_eq!((e.status(), e.offset()), (Status::TypeMismatch, at + 1), "pad {pad} k {k}");
        }
    }
}

#[test]
fn options_reach_the_reader_as_cbor_decode_applies_them() {
    // Each row: from_slice_with stops where a document decode with the same
    // options stops (cbor_reader_configure gives the reader those options).
    let nested = hex("81 81 81 00");
    for (name, opts, want) in [
        ("depth over the limit", DecodeOptions::new().max_depth(2), Some((Status::Depth, 2))),
        ("depth at the limit", DecodeOptions::new().max_depth(3), None),
        ("strings: 0 is no limit", DecodeOptions::new().max_string_length(0), None),
        (
            "items over the limit",
            DecodeOptions::new().max_items(3),
            Some((Status::TooManyItems, 3)),
        ),
        ("items at the limit", DecodeOptions::new().max_items(4), None),
        ("entries: 0 is the default", DecodeOptions::new().max_container_items(0), None),
    ] {
        let got = from_slice_with::<Vec<Vec<Vec<u8>>>>(&nested, &opts);
        let doc = cbor_fast::decode_with(&nested, &opts);
        match want {
            None => {
                assert_eq!(got.unwrap(), vec![vec![vec![0]]], "{name}");
                assert!(doc.is_ok(), "{name}");
            }
            Some(w) => {
                let e = got.unwrap_err();
                assert_eq!((e.status(), e.offset()), w, "{name}");
                let d = doc.unwrap_err();
                assert_eq!((d.status, d.offset), w, "{name}");
            }
        }
    }
    // 0 is the default: 512 levels pass with max_depth 0, 513 do not.
    let mut deep = vec![0x81u8; 513];
    deep.push(0x00);
    let zero = DecodeOptions::new().max_depth(0);
    let e = from_slice_with::<serde::de::IgnoredAny>(&deep, &zero).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Depth, 512));
    assert!(from_slice_with::<serde::de::IgnoredAny>(&deep[1..], &zero).is_ok());
    // Deterministic encoding: a non-shortest head is refused at its offset.
    let det = DecodeOptions::new().deterministic(true);
    let e = from_slice_with::<u8>(&hex("18 01"), &det).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::NotPreferred, 0));
    // A memory budget has no reader meaning: refused, however large; lifted
    // (u64::MAX, no budget) it is accepted and the other options apply.
    for budget in [1, u64::MAX - 1] {
        let opts = DecodeOptions::new().max_memory(budget);
        let e = from_slice_with::<u8>(&hex("01"), &opts).unwrap_err();
        assert_eq!((e.status(), e.offset()), (Status::InvalidArgument, 0), "{budget}");
        let e = Reader::with_options(&hex("01"), &opts).err().unwrap();
        assert_eq!((e.status, e.offset), (Status::InvalidArgument, 0), "{budget}");
    }
    let lifted = DecodeOptions::new().max_memory(u64::MAX).max_depth(1);
    assert_eq!(from_slice_with::<u8>(&hex("01"), &lifted).unwrap(), 1);
    let nested = hex("81 81 01");
    let e = from_slice_with::<Vec<Vec<u8>>>(&nested, &lifted).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Depth, 1));
    let mut r = Reader::with_options(&nested, &lifted).unwrap();
    assert!(r.next_item().unwrap().is_some());
    let e = r.next_item().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::Depth, 1));
}

#[test]
fn length_bombs_fail_without_allocating_their_claim() {
    // An array, a map, a byte string and a text string claiming 2^64-1
    // entries or bytes, then (almost) nothing: refused at the head, since the
    // input cannot hold what it announces (counts over the default container
    // limit, 2^24, are refused for that first).
    let big = Status::ContainerTooLarge;
    for (name, h, status, at) in [
        ("array", "9b ffffffffffffffff", big, 0),
        ("map", "bb ffffffffffffffff", big, 0),
        ("bytes", "5b ffffffffffffffff", Status::Truncated, 0),
        ("text", "7b ffffffffffffffff", Status::Truncated, 0),
        ("array of 2^32 arrays", "9a ffffffff 80 80", big, 0),
        ("array of 2^24 - 1 arrays", "9a 00ffffff 80 80", Status::Truncated, 0),
        ("nested claim", "82 00 9b ffffffffffffffff 00", big, 2),
    ] {
        let data = hex(h);
        let (r, n) = allocations(|| from_slice::<serde::de::IgnoredAny>(&data));
        let e = r.unwrap_err();
        assert_eq!((e.status(), e.offset()), (status, at), "{name}: {e}");
        assert!(n < 8, "{name}: {n} allocations");
    }
    let data = hex("9b ffffffffffffffff 01 02");
    let (r, n) = allocations(|| from_slice::<Vec<u64>>(&data));
    assert_eq!(r.map_err(|e| (e.status(), e.offset())), Err((big, 0)));
    assert!(n < 8, "{n} allocations");
    let lifted = DecodeOptions::new().max_container_items(u64::MAX);
    let (r, n) = allocations(|| from_slice_with::<Vec<u64>>(&data, &lifted));
    assert_eq!(r.map_err(|e| (e.status(), e.offset())), Err((Status::Truncated, 0)));
    assert!(n < 8, "{n} allocations");
    // Indefinite lengths have no claim; they end where the input does.
    let e = from_slice::<Vec<u64>>(&hex("9f 01 02")).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Truncated, 3));
    let e = from_slice::<BTreeMap<u8, u8>>(&hex("bf 01 02 03")).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Truncated, 4));
}

/// Nested containers whose counts each fit the bytes left: serde reserves
/// by the size hint before reading anything, and with the count as the
/// hint (4096 at most) every level of a recursive type reserved up to
/// 1 MiB over a few bytes of input (`struct N(Vec<N>)`: 48 MiB from 5.6 KB).
/// Hints now come from the bytes left besides those the enclosing hints
/// stand for.
#[test]
fn nested_counts_do_not_reserve_per_level() {
    #[derive(Deserialize, Debug)]
    struct N(#[allow(dead_code)] Vec<N>);
    #[derive(Deserialize, Debug)]
    struct B {
        #[allow(dead_code)]
        kids: Vec<B>,
        #[allow(dead_code)]
        pad: [[u64; 32]; 2],
    }
    #[derive(Deserialize, Debug)]
    struct M(#[allow(dead_code)] std::collections::HashMap<String, M>);
    // 500 levels of a 4096-entry array head (map: 4096 pairs, key "a"),
    // then zeros enough for each count: a type error at the innermost level.
    let arrays = [hex(&"99 1000 ".repeat(500)), vec![0; 4200]].concat();
    let maps = [hex(&"b9 1000 61 61 ".repeat(500)), vec![0; 8300]].concat();
    let (r, n) = bytes_allocated(|| from_slice::<N>(&arrays));
    assert!(r.is_err());
    assert!(n < 4 << 20, "Vec<N>: {n} bytes for {} bytes of input", arrays.len());
    let (r, n) = bytes_allocated(|| from_slice::<B>(&[hex("82"), arrays.clone()].concat()));
    assert!(r.is_err());
    assert!(n < 4 << 20, "B: {n} bytes");
    let (r, n) = bytes_allocated(|| from_slice::<M>(&maps));
    assert!(r.is_err());
    assert!(n < 4 << 20, "HashMap<String, M>: {n} bytes for {} bytes of input", maps.len());
    // Honest data keeps its hints: [[7 x 1000], [8, 8, 8]] asks for the
    // outer vector, the 4000 bytes of the first inner one at once and the
    // 12 of the second (a hint of 16 would regrow it: 64, 128, ... bytes).
    let mut honest = vec![0x82];
    honest.extend(to_vec(&vec![7u32; 1000]).unwrap());
    honest.extend(to_vec(&vec![8u32; 3]).unwrap());
    let (r, n) = bytes_allocated(|| from_slice::<Vec<Vec<u32>>>(&honest));
    assert_eq!(r.unwrap(), vec![vec![7; 1000], vec![8; 3]]);
    assert_eq!(n, 2 * 24 + 4000 + 12);
}

/// `depth` nested one-item arrays around a 0.
fn nested(depth: usize) -> Vec<u8> {
    let mut v = vec![0x81; depth];
    v.push(0);
    v
}

#[test]
fn deep_input_is_a_depth_error_or_skipped_without_recursion() {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let data = nested(100_000);
            // Default limit 512: the 513th head.
            assert_eq!(err_of::<serde::de::IgnoredAny>(&data), (Status::Depth, 512));
            assert_eq!(err_of::<Vec<Vec<u8>>>(&data), (Status::TypeMismatch, 2));
            // At the default limit a recursive type (serde_cbor's Value) is
            // read with serde's recursion, within the 2 MiB stack.
            let v: serde_cbor::Value = from_slice(&nested(511)).unwrap();
            assert!(matches!(v, serde_cbor::Value::Array(ref a) if a.len() == 1));
            // Raised: skipping is a loop, whatever the depth.
            let opts = DecodeOptions::new().max_depth(200_000);
            from_slice_with::<serde::de::IgnoredAny>(&data, &opts).unwrap();
            #[derive(Deserialize)]
            struct Skips {}
            let mut m = vec![0xa1, 0x61, b'k'];
            m.extend_from_slice(&data);
            from_slice_with::<Skips>(&m, &opts).unwrap();
        })
        .unwrap()
        .join()
        .unwrap();
}

/// A recursive target: `{"kids": [...]}` per level.
#[derive(Deserialize, Debug)]
struct Tree {
    kids: Vec<Tree>,
}

/// `levels` nested trees, 7 bytes a level: the map's head at 0 (mod 7), the
/// kids array's at 6; the innermost kids empty.
fn deep_trees(levels: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(levels * 7);
    for _ in 1..levels {
        v.extend_from_slice(&[0xa1, 0x64, b'k', b'i', b'd', b's', 0x81]);
    }
    v.extend_from_slice(&[0xa1, 0x64, b'k', b'i', b'd', b's', 0x80]);
    v
}

#[test]
fn recursive_targets_stop_before_the_stack_ends() {
    // With max_depth raised, serde's recursion went as deep as the input:
    // a recursive type overflowed the thread's stack (an abort). Each level
    // now needs 64 KiB of the stack left: Depth at a level's head.
    let data = deep_trees(200_000);
    let lifted = DecodeOptions::new().max_depth(u32::MAX);
    for stack in [256usize << 10, 2 << 20] {
        let data = data.clone();
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let e = from_slice_with::<Tree>(&data, &lifted).unwrap_err();
                assert_eq!(e.status(), Status::Depth, "{stack}: {e}");
                let at = e.offset();
                // the map's or the kids array's head, not in the first levels
                assert!(at >= 7 * 20, "{stack}: {at}");
                match at % 7 {
                    0 => assert_eq!(data[at], 0xa1),
                    6 => assert_eq!(data[at], 0x81),
                    _ => panic!("{stack}: not a level's head: {at}"),
                }
                // serde_cbor's Value goes through the same sequences and maps
                let e = from_slice_with::<serde_cbor::Value>(&data, &lifted).unwrap_err();
                assert_eq!(e.status(), Status::Depth, "{stack}: {e}");
                // shallow ones are untouched (a debug build's level of Tree
                // takes about 3 KiB of stack: 65 fit in the 256 KiB thread)
                let t: Tree = from_slice_with(&deep_trees(30), &lifted).unwrap();
                assert_eq!(t.kids.len(), 1);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}

/// Recurses through `Option` and a newtype alone: each level takes no input.
#[derive(Debug, Deserialize)]
struct Spin(Option<Box<Spin>>);

/// Recurses through a newtype alone (no value of it can be made; serde can
/// still be asked to read one).
#[derive(Debug, Deserialize)]
struct Loop(#[allow(dead_code)] Box<Loop>);

#[derive(Debug, Deserialize, PartialEq)]
struct Id(u64);

/// Recurses through an untagged `Tagged` (its content is the same item).
#[derive(Debug, Deserialize)]
#[serde(transparent)]
struct SpinTagged(#[allow(dead_code)] Box<Tagged<SpinTagged>>);

/// The same through ciborium's `Captured`.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
struct SpinCaptured(#[allow(dead_code)] Box<ciborium::tag::Captured<SpinCaptured>>);

#[test]
fn types_recursing_without_input_stop_at_depth() {
    // On anything but null these recursed until the thread's stack
    // overflowed (an abort). A level that takes no input now checks the
    // stack every 8 repeats: Depth at the item they all stand on.
    for stack in [256usize << 10, 2 << 20] {
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let e = from_slice::<Spin>(&[0x05]).unwrap_err();
                assert_eq!((e.status(), e.offset()), (Status::Depth, 0), "{stack}: {e}");
                // the second element, the uint at offset 2
                let e = from_slice::<Vec<Spin>>(&[0x82, 0xf6, 0x05]).unwrap_err();
                assert_eq!((e.status(), e.offset()), (Status::Depth, 2), "{stack}: {e}");
                let e = from_slice::<Loop>(&[0x05]).unwrap_err();
                assert_eq!((e.status(), e.offset()), (Status::Depth, 0), "{stack}: {e}");
                let e = from_slice::<SpinTagged>(&[0x05]).unwrap_err();
                assert_eq!((e.status(), e.offset()), (Status::Depth, 0), "{stack}: {e}");
                let e = from_slice::<SpinCaptured>(&[0x05]).unwrap_err();
                assert_eq!((e.status(), e.offset()), (Status::Depth, 0), "{stack}: {e}");
                // behind a tag, the tagged item is where they stand
                let e = from_slice::<SpinTagged>(&[0xc6, 0x05]).unwrap_err();
                assert_eq!((e.status(), e.offset()), (Status::Depth, 1), "{stack}: {e}");
                // inside a map's value: the text at offset 2
                let e = from_slice::<BTreeMap<u8, Loop>>(&[0xa1, 0x01, 0x61, b'x']).unwrap_err();
                assert_eq!((e.status(), e.offset()), (Status::Depth, 2), "{stack}: {e}");
                // null ends them
                let s: Spin = from_slice(&[0xf6]).unwrap();
                assert!(s.0.is_none());
                let v: Vec<Spin> = from_slice(&[0x82, 0xf6, 0xf6]).unwrap();
                assert_eq!(v.len(), 2);
                // 17 Options on one item (two stack checks, with room)
                // read as before
                type O2<T> = Option<Option<T>>;
                type O8<T> = O2<O2<O2<O2<T>>>>;
                let d: Option<O8<O8<Id>>> = from_slice(&[0x05]).unwrap();
                assert_eq!(
                    format!("{d:?}"),
                    format!("{}Id(5){}", "Some(".repeat(17), ")".repeat(17))
                );
                let ids: Vec<Option<Id>> = from_slice(&[0x83, 0x01, 0xf6, 0x03]).unwrap();
                assert_eq!(ids, vec![Some(Id(1)), None, Some(Id(3))]);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}

/// A recursive type whose levels hold arrays of numbers: large frames.
#[derive(Debug, Deserialize)]
struct Wide {
    #[allow(dead_code)]
    a: [[u64; 32]; 4],
    n: Vec<Wide>,
}

/// `levels` nested `Wide`s, 143 bytes a level: the map's head at 0 (mod
/// 143), the `n` array's at 142; the innermost `n` empty.
fn deep_wides(levels: usize) -> Vec<u8> {
    let mut level = vec![0xa2, 0x61, b'a', 0x84];
    for _ in 0..4 {
        level.extend_from_slice(&[0x98, 0x20]);
        level.extend_from_slice(&[0u8; 32]);
    }
    level.extend_from_slice(&[0x61, b'n', 0x81]);
    assert_eq!(level.len(), 143);
    let mut v = level.repeat(levels);
    *v.last_mut().unwrap() = 0x80;
    v
}

#[test]
fn recursive_targets_with_large_frames_stop_before_the_stack_ends() {
    // A check every 8 levels let levels of more than 8 KiB (a debug build's
    // `Wide`) use up the 64 KiB margin between two checks: an abort at 80
    // levels on a 2 MiB thread. The stack's own descent now checks too.
    let data = deep_wides(300);
    for stack in [256usize << 10, 2 << 20] {
        let data = data.clone();
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let e = from_slice::<Wide>(&data).unwrap_err();
                assert_eq!(e.status(), Status::Depth, "{stack}: {e}");
                // at a container head of some level: the map (0 mod 143),
                // `a` (3), its four arrays (4, 38, 72, 106) or `n` (142)
                let at = e.offset();
                let head = match at % 143 {
                    0 => 0xa2,
                    3 => 0x84,
                    4 | 38 | 72 | 106 => 0x98,
                    142 => 0x81,
                    _ => panic!("{stack}: not a level's head: {at}"),
                };
                assert_eq!(data[at], head, "{stack}: {at}");
                assert!(at >= 143, "{stack}: {at}");
                // a few levels read
                let w: Wide = from_slice(&deep_wides(3)).unwrap();
                assert_eq!((w.n.len(), w.n[0].n.len(), w.n[0].n[0].n.len()), (1, 1, 0));
            })
            .unwrap()
            .join()
            .unwrap();
    }
}

/// A recursive type whose levels are larger than the 64 KiB the stack
/// check keeps in reserve: nine 8 KiB arrays inline, and serde's visitor
/// keeps more copies (about 300 KiB a level in a release build, more than
/// a MiB in a debug build).
#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct BigFrame {
    next: Option<Box<BigFrame>>,
    a: [[u64; 32]; 32],
    b: [[u64; 32]; 32],
    c: [[u64; 32]; 32],
    d: [[u64; 32]; 32],
    e: [[u64; 32]; 32],
    f: [[u64; 32]; 32],
    g: [[u64; 32]; 32],
    h: [[u64; 32]; 32],
    i: [[u64; 32]; 32],
}

#[test]
fn recursive_targets_with_levels_beyond_the_margin_stop_before_the_stack_ends() {
    // The check came every few levels (the first at depth 8) and wanted 64
    // KiB left: a level larger than that, or a first eight levels larger
    // than the stack, overflowed it (600 levels on an 8 MiB thread with
    // default options, an abort in a release build too). The check now
    // also wants twice the stack the levels before it took.
    // 600 maps `{"next": ...}`, six bytes a level, the innermost null.
    let mut data = hex("a1 646e657874").repeat(600);
    data.push(0xf6);
    for stack in [4usize << 20, 16 << 20] {
        let data = data.clone();
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let e = from_slice::<BigFrame>(&data).unwrap_err();
                assert_eq!(e.status(), Status::Depth, "{stack}: {e}");
                // at a level's map head (0 mod 6), a few levels in
                let at = e.offset();
                assert!(at % 6 == 0 && data[at] == 0xa1, "{stack}: {at}");
                assert!(at < 600 && (stack == 4 << 20 || at > 0), "{stack}: {at}");
            })
            .unwrap()
            .join()
            .unwrap();
    }
}

/// `levels` user frames of about 1 KiB each, then `f` at the bottom.
fn deep_user_frames<R>(levels: usize, f: &mut dyn FnMut() -> R) -> R {
    let pad = std::hint::black_box([0u8; 1024]);
    if levels == 0 {
        return f();
    }
    let r = deep_user_frames(levels - 1, f);
    std::hint::black_box(&pad);
    r
}

#[test]
fn a_deserializer_made_far_above_its_use_measures_from_the_value() {
    // Made at the top of a 4 MiB thread and used 1.5 MiB or more deeper (a
    // caller's own recursion): the first check took that for the value's
    // first level and wanted twice that left, Depth at offset 0 for a
    // two-level value. Each value now starts the measure afresh.
    std::thread::Builder::new()
        .stack_size(4 << 20)
        .spawn(|| {
            let data = hex("82 81 01 80");
            let mut de = cbor_fast::serde::Deserializer::new(&data).unwrap();
            let got: (Vec<u8>, Vec<u8>) =
                deep_user_frames(1500, &mut || de.deserialize_one().unwrap());
            assert_eq!(got, (vec![1], vec![]));
            // Likewise through serde's traits alone, reading and writing.
            let mut de = cbor_fast::serde::Deserializer::new(&data).unwrap();
            let got: (Vec<u8>, Vec<u8>) =
                deep_user_frames(1500, &mut || serde::Deserialize::deserialize(&mut de).unwrap());
            assert_eq!(got, (vec![1], vec![]));
            let mut out = Vec::new();
            let mut ser = cbor_fast::serde::Serializer::new(&mut out);
            deep_user_frames(1500, &mut || {
                (vec![1u8], Vec::<u8>::new()).serialize(&mut ser).unwrap()
            });
            assert_eq!(out, data);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_deserializer_used_again_from_deeper_measures_from_the_new_value() {
    // Through serde's traits a value has no start the guard sees: used once
    // at a thread's top and again 2.5 MiB deeper, the second value's first
    // check measured from the first value's last check and refused it
    // (Depth at its first level; a helper's probe). A check at a shallower
    // item than the last one's no longer measures. The serializer, which
    // sees no depths, measures only within a value `to_vec` starts.
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            // Two 40-level trees, {"kids": [...]} 7 bytes a level.
            let mut data = deep_trees(40);
            data.extend_from_slice(&deep_trees(40));
            let mut de = cbor_fast::serde::Deserializer::new(&data).unwrap();
            let first = Tree::deserialize(&mut de).unwrap();
            let second = deep_user_frames(2500, &mut || Tree::deserialize(&mut de).unwrap());
            assert_eq!((first.kids.len(), second.kids.len()), (1, 1));
            let mut out = Vec::new();
            with_deep_stree(40, |t| {
                let mut ser = cbor_fast::serde::Serializer::new(&mut out);
                t.serialize(&mut ser).unwrap();
                deep_user_frames(2500, &mut || t.serialize(&mut ser).unwrap());
            });
            assert_eq!(out, data);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[derive(Serialize)]
struct STree {
    kids: Vec<STree>,
}

/// A `levels`-deep chain of `STree`s, taken apart without recursion (its
/// drop glue would recurse as deep).
fn with_deep_stree<R>(levels: usize, f: impl FnOnce(&STree) -> R) -> R {
    let mut t = STree { kids: Vec::new() };
    for _ in 1..levels {
        t = STree { kids: vec![t] };
    }
    let r = f(&t);
    let mut next = std::mem::take(&mut t.kids);
    while let Some(mut k) = next.pop() {
        next.append(&mut k.kids);
    }
    r
}

#[test]
fn serializing_deep_values_stops_before_the_stack_ends() {
    // serde's Serialize recurses once per level: a 10,000-deep tree on an
    // 8 MiB thread aborted with a stack overflow. Now Depth at a level's
    // head, where nothing of it is written: the map's (0 mod 7) or the
    // kids array's (6 mod 7).
    for stack in [256usize << 10, 2 << 20] {
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let e = with_deep_stree(100_000, |t| to_vec(t).unwrap_err());
                assert_eq!(e.status(), Status::Depth, "{stack}: {e}");
                let at = e.offset();
                assert!(at >= 7 * 8 && (at % 7 == 0 || at % 7 == 6), "{stack}: {at}");
                // shallow trees are written whole
                let b = with_deep_stree(3, |t| to_vec(t).unwrap());
                assert_eq!(b, hex("a1 646b696473 81 a1 646b696473 81 a1 646b696473 80"));
            })
            .unwrap()
            .join()
            .unwrap();
    }
}

/// A type that recurses through an `Option` alone: no newtype head is left.
#[derive(Serialize)]
#[serde(transparent)]
struct OptionChain(Option<Box<OptionChain>>);

#[test]
fn serializing_a_deep_transparent_option_chain_stops_before_the_stack_ends() {
    // Each level is serialize_some, which checked nothing: 100,000 levels
    // on a 256 KiB thread aborted with a stack overflow. Now Depth, with
    // nothing written (an Option's Some has no head of its own).
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(|| {
            let mut v = OptionChain(None);
            for _ in 0..100_000 {
                v = OptionChain(Some(Box::new(v)));
            }
            let r = to_vec(&v);
            // taken apart without recursion (its drop glue would recurse)
            let mut next = v.0.take();
            while let Some(mut b) = next {
                next = b.0.take();
            }
            let e = r.unwrap_err();
            assert_eq!((e.status(), e.offset()), (Status::Depth, 0), "{e}");
            let small = OptionChain(Some(Box::new(OptionChain(None))));
            assert_eq!(to_vec(&small).unwrap(), hex("f6"));
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn deserialize_one_after_an_error_returns_that_error() {
    // [[1, "x"], 3] then 5: the text fails a Vec<Vec<u8>>. Later calls
    // went on inside the array: "unexpected end of container" (Internal),
    // then Ok(3), an inner element, as if it were the next item.
    let data = hex("82 82 01 6178 03 05");
    let mut de =
        cbor_fast::serde::Deserializer::with_options(&data, &DecodeOptions::new().exact(false))
            .unwrap();
    let e = de.deserialize_one::<Vec<Vec<u8>>>().unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::TypeMismatch, 3), "{e}");
    for _ in 0..3 {
        assert_eq!(de.deserialize_one::<u8>().unwrap_err(), e);
    }
    // Without the error the same reader reads both items.
    let mut de =
        cbor_fast::serde::Deserializer::with_options(&data, &DecodeOptions::new().exact(false))
            .unwrap();
    assert_eq!(de.deserialize_one::<(Vec<u8>, u8)>().unwrap_err().status(), Status::TypeMismatch);
    let good = hex("82 82 01 02 03 05");
    let mut de =
        cbor_fast::serde::Deserializer::with_options(&good, &DecodeOptions::new().exact(false))
            .unwrap();
    assert_eq!(de.deserialize_one::<(Vec<u8>, u8)>().unwrap(), (vec![1, 2], 3));
    assert_eq!(de.deserialize_one::<u8>().unwrap(), 5);
}

#[test]
fn a_deserializer_moved_to_a_smaller_stack_checks_again() {
    // Two trees in a sequence: the first, 400 levels, read on this thread
    // (a debug build's level takes about 2 KiB), the second, 4000 levels
    // (more than a 512 KiB stack holds in a release build too), by the same
    // deserializer on a 512 KiB thread. When the depth to check next only
    // grew, the second read was never checked and overflowed that stack.
    // (A thread of 192 KiB overflowed in a debug build before the first
    // head: the moved deserializer and the frames down to it.)
    let mut data = deep_trees(400);
    data.extend_from_slice(&deep_trees(4000));
    let lifted = DecodeOptions::new().max_depth(u32::MAX).exact(false);
    let mut de = cbor_fast::serde::Deserializer::with_options(&data, &lifted).unwrap();
    let first: Tree = de.deserialize_one().unwrap();
    assert_eq!(first.kids.len(), 1);
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(512 << 10)
            .spawn_scoped(s, move || {
                let e = de.deserialize_one::<Tree>().unwrap_err();
                assert_eq!(e.status(), Status::Depth, "{e}");
                // a head of the second tree, past its first 8 levels
                let at = e.offset() - 400 * 7;
                assert!(at >= 7 * 8 && (at % 7 == 0 || at % 7 == 6), "{}", e.offset());
            })
            .unwrap()
            .join()
            .unwrap();
    });
}

#[test]
fn default_container_limit_through_serde() {
    // An array head (9b) counting 2^24 + 1: refused at its head under the
    // default limit; lifted, only the missing entries are reported.
    let mut over = vec![0x9b];
    over.extend_from_slice(&(cbor_fast::DEFAULT_MAX_CONTAINER_ITEMS + 1).to_be_bytes());
    let e = from_slice::<Vec<u8>>(&over).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::ContainerTooLarge, 0));
    let lifted = DecodeOptions::new().max_container_items(u64::MAX);
    let e = from_slice_with::<Vec<u8>>(&over, &lifted).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Truncated, 0));
    let mut at = vec![0x9b];
    at.extend_from_slice(&cbor_fast::DEFAULT_MAX_CONTAINER_ITEMS.to_be_bytes());
    let e = from_slice::<Vec<u8>>(&at).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Truncated, 0));
}

// ---- found by tests/differential.rs ------------------------------------------

/// A negative bignum below i128::MIN fails at its tag, as one beyond 128 bits
/// does; it said offset 0 whatever its place (`84 18ff c3 50 7fff..` from the
/// fuzzer: `OutOfRange` at 0, now at 3).
#[test]
fn bignum_below_i128_min_fails_at_its_tag() {
    // -1 - 2^127: one below i128::MIN.
    let below = "c3 50 80000000000000000000000000000000";
    assert_eq!(err_of::<i128>(&hex(below)), (Status::OutOfRange, 0));
    let data = hex(&format!("83 00 f6 {below}"));
    assert_eq!(err_of::<(u8, (), i128)>(&data), (Status::OutOfRange, 3));
    let e = from_slice::<ciborium::Value>(&data).unwrap_err();
    assert_eq!(
        (e.status(), e.offset(), e.message()),
        (Status::OutOfRange, 3, "integer below i128::MIN")
    );
    let e = from_slice::<serde_cbor::Value>(&hex(&format!("a1 00 {below}"))).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::OutOfRange, 2));
    // i128::MIN itself is fine, wherever it is.
    let min = hex("82 f6 c3 50 7fffffffffffffffffffffffffffffff");
    assert_eq!(from_slice::<((), i128)>(&min).unwrap(), ((), i128::MIN));
}

/// `ciborium::Value::Tag` (and ciborium's `tag::Captured`/`Required`) is
/// written as a tag, byte for byte as ciborium writes it; it was a map
/// `{"@@TAGGED@@": [tag, content]}`, so a `ciborium::Value` holding an
/// integer beyond 64 bits (a bignum tag) did not survive `to_vec` and back.
fn ciborium_bytes<T: Serialize>(v: &T) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(v, &mut out).unwrap();
    out
}

#[test]
fn ciborium_tags_are_written_as_tags() {
    use ciborium::Value as C;
    let uri = C::Tag(32, Box::new(C::Text("x".into())));
    assert_eq!(to_vec(&uri).unwrap(), hex("d820 6178"));
    assert_eq!(to_vec(&uri).unwrap(), ciborium_bytes(&uri));
    let nested = C::Array(vec![C::Tag(55799, Box::new(C::Tag(1, Box::new(C::Integer(0.into())))))]);
    assert_eq!(to_vec(&nested).unwrap(), hex("81 d9d9f7 c1 00"));
    assert_eq!(to_vec(&nested).unwrap(), ciborium_bytes(&nested));
    // 2^64 decodes into a ciborium::Value as ciborium makes it (a bignum
    // tag) and goes back to the same bytes.
    let data = hex("c2 49 010000000000000000");
    let v: C = from_slice(&data).unwrap();
    assert_eq!(v, C::Tag(2, Box::new(C::Bytes(vec![1, 0, 0, 0, 0, 0, 0, 0, 0]))));
    assert_eq!(to_vec(&v).unwrap(), data);
    assert_eq!(from_slice::<u128>(&to_vec(&v).unwrap()).unwrap(), 1u128 << 64);
    // Captured: with a tag, the tag and content; without, the content alone.
    let some = ciborium::tag::Captured(Some(1), 5u8);
    assert_eq!(to_vec(&some).unwrap(), hex("c1 05"));
    assert_eq!(to_vec(&some).unwrap(), ciborium_bytes(&some));
    let none = ciborium::tag::Captured(None, 5u8);
    assert_eq!(to_vec(&none).unwrap(), hex("05"));
    assert_eq!(to_vec(&none).unwrap(), ciborium_bytes(&none));
    let required = ciborium::tag::Required::<u64, 1>(1_363_896_240);
    assert_eq!(to_vec(&required).unwrap(), hex("c1 1a514b67b0"));
    // serde_cbor's tags reach only serde_cbor's serializer: ours writes the
    // content (README, "Differences from serde_cbor and ciborium").
    let sc = serde_cbor::Value::Tag(1, Box::new(serde_cbor::Value::Integer(5)));
    assert_eq!(to_vec(&sc).unwrap(), hex("05"));
}

// ---- the reader each thread keeps between calls ------------------------------

/// A byte string holding an encoded `A`, decoded by a `from_slice` inside
/// this type's `Deserialize` (while the outer one holds its reader).
#[derive(Debug, PartialEq)]
struct Nested(A);

impl<'de> Deserialize<'de> for Nested {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Nested, D::Error> {
        let b: &[u8] = serde::Deserialize::deserialize(d)?;
        from_slice::<A>(b).map(Nested).map_err(serde::de::Error::custom)
    }
}

/// `from_slice` resets the reader a dropped deserializer left on this thread:
/// no error, option or position goes from one call to the next, the library's
/// UTF-8 check stays on, and `from_slice_with`'s options never reach a later
/// `from_slice`.
#[test]
fn the_kept_reader_carries_nothing_between_calls() {
    let dup = hex("a2 6161 01 6161 02");
    let strict = DecodeOptions::new().reject_duplicate_keys(true);
    let deep = hex("81 81 81 01");
    let shallow = DecodeOptions::new().max_depth(2);
    for round in 0..3 {
        // A sticky error, then good input.
        assert_eq!(err_of::<A>(&hex("a1 6161")), (Status::Truncated, 3), "{round}");
        assert_eq!(from_slice::<A>(&hex("a1 6161 01")).unwrap(), A { a: 1 }, "{round}");
        // Bad text in a skipped field, on a kept reader: the library's check.
        assert_eq!(err_of::<A>(&hex("a2 617a 62c328 6161 01")), (Status::InvalidUtf8, 4));
        // Options of from_slice_with apply there only.
        let e = from_slice_with::<BTreeMap<String, u8>>(&dup, &strict).unwrap_err();
        assert_eq!((e.status(), e.offset()), (Status::DuplicateKey, 4), "{round}");
        let last: BTreeMap<String, u8> = from_slice(&dup).unwrap();
        assert_eq!(last, BTreeMap::from([("a".to_string(), 2)]), "{round}");
        let e = from_slice_with::<Vec<Vec<Vec<u8>>>>(&deep, &shallow).unwrap_err();
        assert_eq!((e.status(), e.offset()), (Status::Depth, 2), "{round}");
        assert_eq!(from_slice::<Vec<Vec<Vec<u8>>>>(&deep).unwrap(), vec![vec![vec![1]]]);
        // Trailing bytes after a kept reader's last item.
        assert_eq!(err_of::<u8>(&hex("01 02")), (Status::TrailingBytes, 1), "{round}");
    }
}

/// A `from_slice` inside a `Deserialize` impl gets a reader of its own while
/// the outer call holds one; both go on reading their own input.
#[test]
fn nested_from_slice_calls_read_their_own_input() {
    let inner = |a: u8| {
        let mut b = hex("a1 6161");
        b.push(a);
        let mut s = vec![0x40 | b.len() as u8];
        s.extend(b);
        s
    };
    let mut data = vec![0x83];
    for a in [1, 2, 3] {
        data.extend(inner(a));
    }
    let want = vec![Nested(A { a: 1 }), Nested(A { a: 2 }), Nested(A { a: 3 })];
    for _ in 0..3 {
        assert_eq!(from_slice::<Vec<Nested>>(&data).unwrap(), want);
    }
    // An inner error becomes the outer one's (serde's custom error, at the
    // outer item read last), and the next call reads as before.
    let mut bad = vec![0x81];
    bad.extend([0x43, 0xa1, 0x61, b'a']); // the inner map is cut short
    let e = from_slice::<Vec<Nested>>(&bad).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::TypeMismatch, 1));
    assert!(e.message().contains("unexpected end of input at byte 3 (truncated)"), "{e}");
    assert_eq!(from_slice::<Vec<Nested>>(&data).unwrap(), want);
    // Other threads keep readers of their own.
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let data = data.clone();
            std::thread::spawn(move || {
                (0..50).all(|_| from_slice::<Vec<Nested>>(&data).unwrap().len() == 3)
            })
        })
        .collect();
    assert!(threads.into_iter().all(|t| t.join().unwrap()));
}

#[test]
fn a_foreign_serializer_that_panics_leaves_nothing_for_a_later_to_vec() {
    // serde_cbor over a writer that panics: typed_array's and Tagged's
    // serialize panic inside the foreign serializer's newtype struct.
    struct PanicW;
    impl std::io::Write for PanicW {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            panic!("the writer fails")
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // Newtype structs with this crate's private names, which any type may use.
    struct Named(&'static str);
    impl Serialize for Named {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(self.0, &1u8)
        }
    }
    let v: Vec<u64> = vec![0x4141_4141_4141_4141; 512];
    let typed = std::panic::catch_unwind(|| {
        let mut ser = serde_cbor::Serializer::new(serde_cbor::ser::IoWrite::new(PanicW));
        let _ = cbor_fast::serde::typed_array::serialize(&v, &mut ser);
    });
    drop(v);
    let tagged = std::panic::catch_unwind(|| {
        let mut ser = serde_cbor::Serializer::new(serde_cbor::ser::IoWrite::new(PanicW));
        let _ = Tagged::new(Some(1234), 5u8).serialize(&mut ser);
    });
    assert!(typed.is_err() && tagged.is_err());
    // The value alone: the freed Vec's address and the tag 1234 were left
    // set, and these wrote 4101 bytes copied from the freed Vec and d904d2 01.
    assert_eq!(to_vec(&Named("@@CBOR_FAST_TYPED@@")).unwrap(), [0x01]);
    assert_eq!(to_vec(&Named("@@CBOR_FAST_TAG@@")).unwrap(), [0x01]);
}

#[test]
fn a_bulk_vec_that_no_visitor_took_is_not_handed_to_a_later_one() {
    use serde::de::{IntoDeserializer, Visitor};
    // A type that reads a newtype struct of the bulk field's name with a
    // visitor of its own, which ignores the Vec the deserializer hands over.
    struct Odd;
    impl<'de> Deserialize<'de> for Odd {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Odd, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Odd;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("anything")
                }
                fn visit_unit<E: serde::de::Error>(self) -> Result<Odd, E> {
                    Ok(Odd)
                }
            }
            d.deserialize_newtype_struct("@@CBOR_FAST_BULK_U64@@", V)
        }
    }
    let _: Odd = from_slice(&hex("83 01 02 03")).unwrap();
    // Then the bulk field's visitor, given a unit by another deserializer:
    // an error, not [1, 2, 3] left over from the call above.
    let unit: serde::de::value::UnitDeserializer<serde::de::value::Error> = ().into_deserializer();
    let got: Result<Vec<u64>, _> = cbor_fast::serde::bulk::deserialize(unit);
    assert!(got.is_err(), "{got:?}");
}

#[test]
fn a_wrong_length_from_serialize_is_an_error_not_bad_bytes() {
    // A Serialize impl that declares `declared` items and writes `given`.
    struct Seq(usize, usize);
    impl Serialize for Seq {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut q = s.serialize_seq(Some(self.0))?;
            for i in 0..self.1 {
                q.serialize_element(&(i as u8))?;
            }
            q.end()
        }
    }
    struct Map(usize, usize, bool);
    impl Serialize for Map {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(self.0))?;
            for i in 0..self.1 {
                m.serialize_entry(&(i as u8), &(i as u8))?;
            }
            if self.2 {
                m.serialize_key(&9u8)?;
            }
            m.end()
        }
    }
    struct Struct(usize, usize);
    impl Serialize for Struct {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut m = s.serialize_struct("S", self.0)?;
            for name in ["a", "b", "c"].iter().take(self.1) {
                m.serialize_field(name, &1u8)?;
            }
            m.end()
        }
    }
    struct Variant(usize, usize);
    impl Serialize for Variant {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeTupleVariant;
            let mut m = s.serialize_tuple_variant("E", 0, "V", self.0)?;
            for _ in 0..self.1 {
                m.serialize_field(&1u8)?;
            }
            m.end()
        }
    }
    let fewer = "fewer items than the length the container was given";
    let more = "more items than the length the container was given";
    // (row, result, what the right lengths write / the error at the output offset)
    type Row<'a> =
        (&'a str, Result<Vec<u8>, cbor_fast::serde::Error>, Result<&'a str, (usize, &'a str)>);
    let rows: Vec<Row> = vec![
        ("seq 2 of 2", to_vec(&Seq(2, 2)), Ok("82 00 01")),
        ("seq 0 of 0", to_vec(&Seq(0, 0)), Ok("80")),
        ("seq 2 of 3", to_vec(&Seq(3, 2)), Err((3, fewer))),
        ("seq 2 of 1", to_vec(&Seq(1, 2)), Err((3, more))),
        ("seq 0 of 1", to_vec(&Seq(1, 0)), Err((1, fewer))),
        // Lengths of 2^63 and more: the count left alone would read as wrapped.
        ("seq 0 of 2^64-1", to_vec(&Seq(usize::MAX, 0)), Err((9, fewer))),
        ("seq 2 of 2^63", to_vec(&Seq(1 << 63, 2)), Err((11, fewer))),
        ("map 1 of 2^63+1", to_vec(&Map((1 << 63) + 1, 1, false)), Err((11, fewer))),
        ("map 1 of 1", to_vec(&Map(1, 1, false)), Ok("a1 00 00")),
        ("map 2 of 1", to_vec(&Map(1, 2, false)), Err((5, more))),
        ("map 1 of 2", to_vec(&Map(2, 1, false)), Err((3, fewer))),
        ("map key without value", to_vec(&Map(1, 0, true)), Err((2, "map key without a value"))),
        ("map 1 and a key, of 1", to_vec(&Map(1, 1, true)), Err((4, more))),
        ("struct 2 of 2", to_vec(&Struct(2, 2)), Ok("a2 6161 01 6162 01")),
        ("struct 1 of 3", to_vec(&Struct(3, 1)), Err((4, fewer))),
        ("struct 3 of 2", to_vec(&Struct(2, 3)), Err((10, more))),
        ("tuple variant 2 of 2", to_vec(&Variant(2, 2)), Ok("a1 6156 82 01 01")),
        ("tuple variant 1 of 2", to_vec(&Variant(2, 1)), Err((5, fewer))),
    ];
    for (row, got, want) in rows {
        match want {
            Ok(bytes) => assert_eq!(got.unwrap(), hex(bytes), "{row}"),
            Err((at, message)) => {
                let e = got.unwrap_err();
                assert_eq!(
                    (e.status(), e.offset(), e.message()),
                    (Status::InvalidArgument, at, message),
                    "{row}"
                );
            }
        }
    }
    // to_writer writes nothing when the value is refused.
    let mut out = Vec::new();
    assert!(to_writer(&mut out, &Seq(3, 2)).is_err());
    assert!(out.is_empty());
}

// ---- ciborium's tag types -----------------------------------------------------

/// ciborium reads `bytes` as a `T` equal to `want`.
fn ciborium_reads<T>(bytes: &[u8], want: &T)
where
    T: for<'a> Deserialize<'a> + PartialEq + std::fmt::Debug,
{
    let got: T = ciborium::from_reader(bytes).unwrap();
    assert_eq!(&got, want, "ciborium reading {}", common::to_hex(bytes));
}

/// `ciborium::tag::{Required, Accepted, Captured}` go through `to_vec` and
/// `from_slice` and back, byte for byte as ciborium writes them, and each
/// side reads the other's bytes (they were unreadable: the deserializer did
/// not know ciborium's `@@TAG@@` enum and took the content for a variant
/// name).
#[test]
fn ciborium_tag_types_round_trip() {
    use ciborium::tag::{Accepted, Captured, Required};
    fn both<T>(v: T, h: &str)
    where
        T: Serialize + for<'a> Deserialize<'a> + PartialEq + std::fmt::Debug,
    {
        let bytes = to_vec(&v).unwrap();
        assert_eq!(bytes, hex(h), "{v:?}");
        assert_eq!(ciborium_bytes(&v), bytes, "ciborium writing {v:?}");
        assert_eq!(from_slice::<T>(&bytes).unwrap(), v, "{h}");
        ciborium_reads(&bytes, &v);
    }
    both(Required::<String, 32>("x".into()), "d820 6178");
    both(Required::<u64, 1>(1_363_896_240), "c1 1a514b67b0");
    both(Required::<u8, { u64::MAX }>(0), "dbffffffffffffffff 00");
    both(Accepted::<String, 32>("x".into()), "d820 6178");
    both(Captured(Some(32), "x".to_string()), "d820 6178");
    both(Captured(None, "x".to_string()), "6178");
    both(Captured(Some(24), vec![1u8, 2]), "d818 82 01 02");
    both(Captured(Some(0), Captured(None, 0u8)), "c0 00");
    // Nested tags: one per level.
    both(Captured(Some(55799), Captured(Some(1), 0u8)), "d9d9f7 c1 00");
    both(Required::<Required<u8, 1>, 55799>(Required(0)), "d9d9f7 c1 00");
    both(Required::<Captured<Accepted<u8, 2>>, 6>(Captured(Some(7), Accepted(1))), "c6 c7 c2 01");
    // Inside containers and structs.
    both(vec![Captured(Some(1), 5u8), Captured(None, 6)], "82 c1 05 06");
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Doc {
        uri: Required<String, 32>,
        at: Captured<u64>,
    }
    both(
        Doc { uri: Required("x".into()), at: Captured(None, 1) },
        "a2 63757269 d820 6178 626174 01",
    );
    // Reading what the writer did not write: an untagged item for
    // Accepted, a deeper tag than asked for is the content's (transparent
    // under a String), a tag under a Captured without one.
    assert_eq!(from_slice::<Accepted<u8, 1>>(&hex("05")).unwrap(), Accepted(5));
    ciborium_reads(&hex("05"), &Accepted::<u8, 1>(5));
    let v = from_slice::<Captured<String>>(&hex("d820 d821 6178")).unwrap();
    assert_eq!(v, Captured(Some(32), "x".to_string()));
    assert_eq!(
        from_slice::<Captured<Captured<u8>>>(&hex("c1 00")).unwrap(),
        Captured(Some(1), Captured(None, 0))
    );
    ciborium_reads(&hex("c1 00"), &Captured(Some(1), Captured(None, 0u8)));
    // Indefinite-length content.
    let v = from_slice::<Captured<String>>(&hex("d820 7f 6178 6179 ff")).unwrap();
    assert_eq!(v, Captured(Some(32), "xy".to_string()));
}

/// `Required` refuses an item without its tag or with another, `Accepted`
/// one with another tag, as ciborium does ("required tag not found");
/// `TypeMismatch` at the tag (at the item when it has none). An error in
/// the content keeps the content's offset.
#[test]
fn ciborium_required_tags_are_checked() {
    use ciborium::tag::{Accepted, Captured, Required};
    fn refused<T>(h: &str, want: (Status, usize, &str))
    where
        T: for<'a> Deserialize<'a> + std::fmt::Debug,
    {
        let data = hex(h);
        let e = from_slice::<T>(&data).unwrap_err();
        assert_eq!((e.status(), e.offset(), e.message()), want, "{h}");
        assert!(ciborium::from_reader::<T, _>(&data[..]).is_err(), "ciborium took {h}");
    }
    let missing = (Status::TypeMismatch, 0, "required tag not found");
    refused::<Required<String, 32>>("6178", missing);
    refused::<Required<String, 32>>("d821 6178", missing);
    refused::<Accepted<String, 32>>("d821 6178", missing);
    refused::<Required<u8, 1>>("c2 00", missing);
    let at2 = (Status::TypeMismatch, 2, "required tag not found");
    refused::<(u8, Required<String, 32>)>("82 00 6178", at2);
    refused::<(u8, Required<String, 32>)>("82 00 d821 6178", at2);
    refused::<(u8, Accepted<String, 32>)>("82 00 d821 6178", at2);
    // The inner tag of two is wrong: at the inner tag.
    refused::<Required<Required<u8, 1>, 55799>>(
        "d9d9f7 d818 00",
        (Status::TypeMismatch, 3, "required tag not found"),
    );
    // One tag for two: the outer takes it, the inner finds none (at its
    // item).
    refused::<Required<Required<u8, 1>, 55799>>(
        "c1 00",
        (Status::TypeMismatch, 1, "required tag not found"),
    );
    // Content of the wrong type: at the content.
    refused::<(u8, Required<u8, 32>)>(
        "82 00 d820 6178",
        (Status::TypeMismatch, 4, "invalid type: string \"x\", expected u8"),
    );
    refused::<Captured<u8>>(
        "d820 6178",
        (Status::TypeMismatch, 2, "invalid type: string \"x\", expected u8"),
    );
    // Not well-formed or cut: the library's error.
    let e = from_slice::<Captured<u8>>(&hex("d820")).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Truncated, 2));
    let e = from_slice::<Required<u8, 32>>(&hex("d820 1c")).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::ReservedAdditionalInfo, 2));
}
#[derive(Serialize, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum OneUnit {
    U,
    V(u8),
}

/// A unit variant's name as an indefinite-length text string or a byte
/// string (definite or not) reads as serde_cbor reads it, and as the same
/// forms read as map keys; they were `TypeMismatch` at 0.
#[test]
fn unit_variant_names_in_every_string_form() {
    for h in ["6155", "7f 6155 ff", "7f 60 6155 60 ff", "4155", "5f 4155 ff", "5f 40 4155 ff"] {
        assert_eq!(from_slice::<OneUnit>(&hex(h)).unwrap(), OneUnit::U, "{h}");
        assert_eq!(
            serde_cbor::from_slice::<OneUnit>(&hex(h)).unwrap(),
            OneUnit::U,
            "serde_cbor {h}"
        );
        // ciborium takes only the definite text.
        let c = ciborium::from_reader::<OneUnit, _>(&hex(h)[..]);
        assert_eq!(c.is_ok(), h == "6155", "ciborium {h}");
        // A tag in front, inside an array.
        let tagged = hex(&format!("82 01 c1 {h}"));
        assert_eq!(from_slice::<(u8, OneUnit)>(&tagged).unwrap(), (1, OneUnit::U), "{h}");
    }
    assert_eq!(from_slice::<E>(&hex("7f 62556e 626974 ff")).unwrap(), E::Unit);
    assert_eq!(from_slice::<E>(&hex("44 556e6974")).unwrap(), E::Unit);
    // Map keys read the same forms.
    let m: BTreeMap<OneUnit, u8> = from_slice(&hex("a1 7f 6155 ff 01")).unwrap();
    assert_eq!(m.into_iter().collect::<Vec<_>>(), [(OneUnit::U, 1)]);
    let m: BTreeMap<OneUnit, u8> = from_slice(&hex("a1 4155 01")).unwrap();
    assert_eq!(m.into_iter().collect::<Vec<_>>(), [(OneUnit::U, 1)]);
    // An unknown name: TypeMismatch at the string's head.
    let unknown = "unknown variant `X`, expected `U` or `V`";
    for (h, at) in [("82 00 7f 6158 ff", 2), ("82 00 4158", 2), ("82 00 5f 4158 ff", 2)] {
        let e = from_slice::<(u8, OneUnit)>(&hex(h)).unwrap_err();
        assert_eq!(
            (e.status(), e.offset(), e.message()),
            (Status::TypeMismatch, at, unknown),
            "{h}"
        );
    }
    // Bytes that are not UTF-8 name no variant.
    let e = from_slice::<OneUnit>(&hex("41ff")).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::TypeMismatch, 0));
    // A bare name is a unit variant only.
    let e = from_slice::<(u8, OneUnit)>(&hex("82 00 4156")).unwrap_err();
    assert_eq!(
        (e.status(), e.offset(), e.message()),
        (Status::TypeMismatch, 2, "invalid type: unit variant, expected newtype variant")
    );
    let e = from_slice::<(u8, OneUnit)>(&hex("82 00 7f 6156 ff")).unwrap_err();
    assert_eq!(
        (e.status(), e.offset(), e.message()),
        (Status::TypeMismatch, 2, "invalid type: unit variant, expected newtype variant")
    );
    // Bad UTF-8 in a chunk: the library's error at the byte.
    let e = from_slice::<OneUnit>(&hex("7f 6155 61ff ff")).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::InvalidUtf8, 4));
}
/// A map's keys and values must alternate, a key first, and its length
/// counts entries: `serialize_map(Some(1))` with two keys wrote `a1 01 02`,
/// `serialize_map(None)` with key, key, value, value `a2 01 02 03 04`.
#[test]
fn map_keys_and_values_alternate() {
    use serde::ser::SerializeMap;
    /// `Some(k)`: `serialize_key(k)`, `None`: `serialize_value` of the
    /// next value (10, 11, ...).
    struct Calls(Option<usize>, &'static [Option<u8>]);
    impl Serialize for Calls {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut m = s.serialize_map(self.0)?;
            let mut value = 10u8;
            for call in self.1 {
                match call {
                    Some(k) => m.serialize_key(k)?,
                    None => {
                        m.serialize_value(&value)?;
                        value += 1;
                    }
                }
            }
            m.end()
        }
    }
    const K1: Option<u8> = Some(1);
    const K2: Option<u8> = Some(2);
    const V: Option<u8> = None;
    let key_twice = "map key without a value";
    let no_key = "map value without a key";
    let more = "more items than the length the container was given";
    let fewer = "fewer items than the length the container was given";
    // (map length, calls, the bytes / the error's offset and message)
    type Row = (Option<usize>, &'static [Option<u8>], Result<&'static str, (usize, &'static str)>);
    let rows: [Row; 14] = [
        (Some(1), &[K1, V], Ok("a1 01 0a")),
        (None, &[K1, V], Ok("bf 01 0a ff")),
        (Some(2), &[K1, V, K2, V], Ok("a2 01 0a 02 0b")),
        (None, &[K1, V, K2, V], Ok("bf 01 0a 02 0b ff")),
        (None, &[], Ok("bf ff")),
        (Some(1), &[K1, K2], Err((2, key_twice))),
        (None, &[K1, K2, V, V], Err((2, key_twice))),
        (Some(2), &[K1, V, K2, K1], Err((4, key_twice))),
        (Some(1), &[V], Err((1, no_key))),
        (None, &[V, K1], Err((1, no_key))),
        (None, &[K1, V, V], Err((3, no_key))),
        (Some(1), &[K1], Err((2, key_twice))),
        (None, &[K1, V, K2], Err((4, key_twice))),
        (Some(1), &[K1, V, K2, V], Err((5, more))),
    ];
    for (len, calls, want) in rows {
        let got = to_vec(&Calls(len, calls));
        let row = format!("{len:?} {calls:?}");
        match want {
            Ok(h) => assert_eq!(got.unwrap(), hex(h), "{row}"),
            Err((at, message)) => {
                let e = got.unwrap_err();
                assert_eq!(
                    (e.status(), e.offset(), e.message()),
                    (Status::InvalidArgument, at, message),
                    "{row}"
                );
            }
        }
    }
    let e = to_vec(&Calls(Some(2), &[K1, V])).unwrap_err();
    assert_eq!((e.status(), e.offset(), e.message()), (Status::InvalidArgument, 3, fewer));
}
/// A value whose `Serialize` fails with `ser::Error::custom`.
struct Fails;

impl Serialize for Fails {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("no"))
    }
}

/// An error a `Serialize` impl raises is `InvalidArgument` at the output
/// offset where it surfaced (it was at 0 whatever came before).
#[test]
fn custom_serialize_errors_are_at_the_output_offset() {
    let at = |r: Result<Vec<u8>, cbor_fast::serde::Error>| {
        let e = r.unwrap_err();
        (e.status(), e.offset(), e.message().to_string())
    };
    let no = |n: usize| (Status::InvalidArgument, n, "no".to_string());
    // 81 82 01 written, then the failure.
    assert_eq!(at(to_vec(&vec![(1u8, Fails)])), no(3));
    assert_eq!(at(to_vec(&Fails)), no(0));
    assert_eq!(at(to_vec(&Some(Fails))), no(0));
    assert_eq!(at(to_vec(&("abc", Some(Fails)))), no(5));
    #[derive(Serialize)]
    struct S {
        a: u8,
        b: Fails,
    }
    assert_eq!(at(to_vec(&S { a: 1, b: Fails })), no(6));
    #[derive(Serialize)]
    enum V {
        N(Fails),
    }
    assert_eq!(at(to_vec(&[V::N(Fails)])), no(4));
    let mut m = BTreeMap::new();
    m.insert(1u8, Fails);
    assert_eq!(at(to_vec(&m)), no(2));
    assert_eq!(at(to_vec(&Tagged::new(Some(32), Fails))), no(2));
    assert_eq!(at(to_vec(&ciborium::tag::Captured(Some(32), Fails))), no(2));
    // to_writer says the same and writes nothing.
    let mut out = Vec::new();
    let e = to_writer(&mut out, &vec![(1u8, Fails)]).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::InvalidArgument, 3));
    assert!(out.is_empty());
    // The Serializer over a vector holding bytes already: the vector's length.
    let mut out = vec![0xff; 4];
    let e =
        vec![(1u8, Fails)].serialize(&mut cbor_fast::serde::Serializer::new(&mut out)).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::InvalidArgument, 7));
    // A tag number that is no unsigned integer: at the tag's place (it
    // was at 0).
    struct BadTag;
    impl Serialize for BadTag {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeTupleVariant;
            let mut v = s.serialize_tuple_variant("@@TAG@@", 0, "@@TAGGED@@", 2)?;
            v.serialize_field("x")?;
            v.serialize_field(&0u8)?;
            v.end()
        }
    }
    let e = to_vec(&(1u8, BadTag)).unwrap_err();
    assert_eq!(
        (e.status(), e.offset(), e.message()),
        (Status::InvalidArgument, 2, "a tag number must be an unsigned integer")
    );
}
/// `Tagged` with another serializer writes its value alone, and another
/// deserializer reads the item into `value` (`tag: None`), so the value
/// goes there and back; it wrote `{"@@TAGGED@@": [tag, value]}`, which no
/// deserializer read back. serde_cbor's and minicbor-serde's serializers
/// stand for other formats here (no serde_json among the dev-dependencies).
#[test]
fn tagged_with_other_formats_is_its_value() {
    let t = Tagged::new(Some(32), "x".to_string());
    let sc = serde_cbor::to_vec(&t).unwrap();
    assert_eq!(sc, hex("6178"));
    assert_eq!(
        serde_cbor::from_slice::<Tagged<String>>(&sc).unwrap(),
        Tagged::new(None, "x".into())
    );
    let c = ciborium_bytes(&t);
    assert_eq!(c, hex("6178"));
    let back: Tagged<String> = ciborium::from_reader(&c[..]).unwrap();
    assert_eq!(back, Tagged::new(None, "x".to_string()));
    let m = minicbor_serde::to_vec(&t).unwrap();
    assert_eq!(m, hex("6178"));
    let back: Tagged<String> = minicbor_serde::from_slice(&m).unwrap();
    assert_eq!(back, Tagged::new(None, "x".to_string()));
    // Nested, in a container.
    let n = vec![Tagged::new(Some(1), Tagged::new(Some(2), 3u8))];
    assert_eq!(serde_cbor::to_vec(&n).unwrap(), hex("81 03"));
    // Ours still writes the tags, also after another format was used.
    assert_eq!(to_vec(&n).unwrap(), hex("81 c1 c2 03"));
    assert_eq!(to_vec(&t).unwrap(), hex("d820 6178"));
}

/// Negative integers, booleans and null inside sequences come straight from
/// the batch (as unsigned integers and floats did): the same values and,
/// for a value out of the target's range, the same error at the element.
#[test]
fn negatives_booleans_and_nulls_in_sequences() {
    // [-1, -24, -25, i64::MIN, 0]
    let ints = hex("85 20 37 3818 3b7fffffffffffffff 00");
    assert_eq!(from_slice::<Vec<i64>>(&ints).unwrap(), [-1, -24, -25, i64::MIN, 0]);
    // -2^63 - 1 does not fit an i64: through i128 into i128, refused into i64
    let past = hex("823b800000000000000020");
    assert_eq!(from_slice::<Vec<i128>>(&past).unwrap(), [-(1i128 << 63) - 1, -1]);
    assert_eq!(err_of::<Vec<i64>>(&past), (Status::TypeMismatch, 1));
    // into i32: -2^31 fits, -2^31 - 1 is refused at its offset (5)
    assert_eq!(from_slice::<Vec<i32>>(&hex("81 3a7fffffff")).unwrap(), [i32::MIN]);
    assert_eq!(err_of::<Vec<i32>>(&hex("82203a80000000")), (Status::TypeMismatch, 2));
    // a negative into a u32 at offset 2
    assert_eq!(err_of::<Vec<u32>>(&hex("830120 02")), (Status::TypeMismatch, 2));
    // booleans, and a boolean where an integer is due
    assert_eq!(from_slice::<Vec<bool>>(&hex("83f5f4f5")).unwrap(), [true, false, true]);
    assert_eq!(err_of::<Vec<u8>>(&hex("8201f5")), (Status::TypeMismatch, 2));
    // null and undefined are None; an Option of a negative
    assert_eq!(
        from_slice::<Vec<Option<i64>>>(&hex("84f620f701")).unwrap(),
        [None, Some(-1), None, Some(1)]
    );
}

// ---- to_writer: pieces of about 64 KiB, big strings uncopied ------------------

/// A writer that keeps what it got and the address and size of each call.
#[derive(Default)]
struct Pieces {
    all: Vec<u8>,
    calls: Vec<(usize, usize)>,
    /// Fail the call that would take the total past this many bytes.
    fail_past: Option<usize>,
}

impl std::io::Write for Pieces {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.fail_past.is_some_and(|n| self.all.len() + buf.len() > n) {
            return Err(std::io::Error::other("the disk is full"));
        }
        self.calls.push((buf.as_ptr() as usize, buf.len()));
        self.all.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[derive(Serialize)]
struct Row {
    id: u64,
    name: String,
    score: f64,
}

fn rows(n: u64) -> Vec<Row> {
    (0..n).map(|i| Row { id: i, name: format!("row {i}"), score: i as f64 / 4.0 }).collect()
}

#[test]
fn to_writer_hands_over_pieces_of_64_kib_and_keeps_its_memory_bounded() {
    let v = rows(100_000);
    let whole = to_vec(&v).unwrap();
    // cbor2.dumps(v, canonical=True) of the same dicts is as long.
    assert_eq!(whole.len(), 3_342_129);
    // The writer's own memory reserved first: what is counted is to_writer's.
    let mut w = Pieces {
        all: Vec::with_capacity(whole.len()),
        calls: Vec::with_capacity(100),
        ..Pieces::default()
    };
    let ((), asked) = bytes_allocated(|| to_writer(&mut w, &v).unwrap());
    assert_eq!(w.all, whole);
    // Every piece but the last is 64 KiB plus at most the part of one row
    // (a row is 28-33 bytes here) that took it over.
    let (last, full) = w.calls.split_last().unwrap();
    assert_eq!(full.len(), whole.len() / 65_536);
    assert!(full.iter().all(|&(_, n)| (65_536..65_536 + 40).contains(&n)), "{full:?}");
    assert_eq!(full.iter().map(|c| c.1).sum::<usize>() + last.1, whole.len());
    // The buffer grows from 4 KiB to at most 128 KiB: 252 KiB asked in all,
    // where to_vec asks for more than the output (3.2 MiB).
    assert!(asked < 300_000, "{asked}");
    let (_, asked_vec) = bytes_allocated(|| to_vec(&v).unwrap());
    assert!(asked_vec > whole.len() as u64, "{asked_vec}");
}

#[test]
fn to_writer_writes_a_big_string_from_the_value_itself() {
    #[derive(Serialize)]
    struct Blob<'a> {
        before: &'a str,
        data: Bytes,
        text: String,
        after: u8,
    }
    for (name, len) in
        [("65535: copied", 65_535usize), ("65536: through", 65_536), ("1 MiB", 1 << 20)]
    {
        let blob =
            Blob {
                before: "x", data: Bytes(vec![0xab; len]), text: "é".repeat(len / 2), after: 7
            };
        let whole = to_vec(&blob).unwrap();
        let mut w = Pieces::default();
        to_writer(&mut w, &blob).unwrap();
        assert_eq!(w.all, whole, "{name}");
        let data = blob.data.0.as_ptr() as usize;
        let text = blob.text.as_ptr() as usize;
        if len < 65_536 {
            // Each string is copied; each took the piece over 64 KiB.
            assert!(w.calls.iter().all(|&(p, _)| p != data && p != text), "{name}");
            let sizes: Vec<_> = w.calls.iter().map(|c| c.1).collect();
            assert_eq!(sizes, [1 + 7 + 2 + 5 + 3 + len, 5 + 3 + len - 1, 7], "{name}");
        } else {
            // The head before each string, then the string from the value:
            // "a4 66 'before' 61 'x' 64 'data' 5a|59 <len>", data, "64 'text' 7a|59 <len>",
            // text, "65 'after' 07".
            let head = 5;
            let calls: Vec<_> = w.calls.iter().map(|&(p, n)| (p == data || p == text, n)).collect();
            assert_eq!(
                calls,
                [
                    (false, 1 + 7 + 2 + 5 + head),
                    (true, len),
                    (false, 5 + head),
                    (true, len),
                    (false, 7)
                ],
                "{name}"
            );
        }
    }
}

#[test]
fn to_writer_errors_count_the_bytes_handed_over() {
    // A writer that fails: SinkFailed at the offset of the piece it refused.
    let v = rows(10_000);
    let whole = to_vec(&v).unwrap();
    let mut w = Pieces { fail_past: Some(100_000), ..Pieces::default() };
    let e = to_writer(&mut w, &v).unwrap_err();
    let first = w.calls[0].1;
    assert_eq!(w.calls.len(), 1);
    assert_eq!((e.status(), e.offset()), (Status::SinkFailed, first));
    assert_eq!(w.all, whole[..first]);
    assert!(e.message().contains("the disk is full"), "{}", e.message());
    // A big string the writer refuses: at the string's first byte.
    let mut w = Pieces { fail_past: Some(10), ..Pieces::default() };
    let e = to_writer(&mut w, &Bytes(vec![1; 70_000])).unwrap_err();
    assert_eq!((e.status(), e.offset(), w.all.len()), (Status::SinkFailed, 5, 5));
    // A value refused after two pieces: its offset in the whole output, and
    // the two pieces stay written.
    struct FailsAt(u64);
    impl Serialize for FailsAt {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{Error as _, SerializeSeq};
            let mut seq = s.serialize_seq(None)?;
            for i in 0..self.0 {
                seq.serialize_element(&i)?;
            }
            Err(S::Error::custom("no more"))
        }
    }
    // 1 + 24 + 2 * 232 + 3 * 65,280 + 5 * 6,000: 226,329 bytes, then the error.
    let n = 24 + 232 + 65_280 + 6_000;
    let mut w = Pieces::default();
    let e = to_writer(&mut w, &FailsAt(n)).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::InvalidArgument, 226_329));
    assert_eq!(w.calls.len(), 3);
    assert!(w.all.len() > 3 * 65_536 && w.all.len() <= 226_329, "{}", w.all.len());
    assert_eq!(w.all[..5], [0x9f, 0x00, 0x01, 0x02, 0x03]);
}

#[test]
fn a_library_error_is_one_allocation() {
    // The error and the deserializer's copy of it (returned again by later
    // calls): a box each. The message is the library's static text (it was
    // copied into a String per error, and again per copy: 4 allocations).
    let warm: Result<u8, _> = from_slice(&[0x00]);
    assert!(warm.is_ok()); // the thread's spare reader is made
    let (r, n) = allocations(|| from_slice::<u8>(&[0x1c]));
    let e = r.unwrap_err();
    assert_eq!((e.status(), e.offset(), n), (Status::ReservedAdditionalInfo, 0, 2));
    // A message serde formats is a String: one more for each copy.
    let (r, n) = allocations(|| from_slice::<u8>(&[0x61, b'a']));
    assert_eq!((r.unwrap_err().status(), n), (Status::TypeMismatch, 4));
}

#[test]
fn the_serializer_is_send_and_sync() {
    // As before to_writer's streaming form came (its writer is not Send).
    fn both<T: Send + Sync>() {}
    both::<cbor_fast::serde::Serializer<'static>>();
    both::<cbor_fast::serde::Compound<'static, 'static>>();
}
