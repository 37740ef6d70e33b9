//! Bulk number arrays and RFC 8746 typed arrays: Reader::read_array,
//! Node::read_array, TypedArray, Writer::typed_array, and the serde field
//! attributes `serde::bulk` / `serde::typed_array` (feature `serde`).
//! Exact bytes, values, statuses and offsets, with boundary rows.
mod common;

use cbor_fast::serde::{from_slice, from_slice_with, to_vec};
use cbor_fast::{DecodeOptions, Document, Reader, Status, Token, TypedElement, Writer};
use common::hex;
use serde::{Deserialize, Serialize};

const LITTLE: bool = cfg!(target_endian = "little");

// ---- Reader::read_array ---------------------------------------------------------

#[test]
fn reader_reads_u64_i64_f64_arrays() {
    let rows: &[(&str, &str, Vec<u64>)] = &[
        ("empty", "80", vec![]),
        ("empty indefinite", "9fff", vec![]),
        (
            "every head width",
            "85 00 1818 190100 1a00010000 1b0000000100000000",
            vec![0, 24, 256, 65536, 1 << 32],
        ),
        ("2^64-1", "811bffffffffffffffff", vec![u64::MAX]),
        ("tag 41 in front", "d829820102", vec![1, 2]),
        ("indefinite", "9f0102ff", vec![1, 2]),
        ("typed uint16 LE", "d84544010000ff", vec![1, 0xff00]),
        ("typed uint32 BE", "d8424400000102", vec![0x102]),
    ];
    for (name, data, want) in rows {
        let data = hex(data);
        let got = Reader::new(&data).unwrap().read_array::<u64>().unwrap();
        assert_eq!(&got, want, "{name}");
    }
    let data = hex("823b7fffffffffffffff1b7fffffffffffffff");
    assert_eq!(Reader::new(&data).unwrap().read_array::<i64>().unwrap(), [i64::MIN, i64::MAX]);
    let data = hex("84f93c00fa3fc00000fb3ff8000000000000 20");
    assert_eq!(Reader::new(&data).unwrap().read_array::<f64>().unwrap(), [1.0, 1.5, 1.5, -1.0]);
    // half NaN, the smallest half subnormal
    let data = hex("82f97e00f90001");
    let got = Reader::new(&data).unwrap().read_array::<f64>().unwrap();
    assert!(got[0].is_nan());
    assert_eq!(got[1], 2f64.powi(-24));
}

#[test]
fn reader_errors_have_status_and_offset() {
    let rows: &[(&str, &str, Status, usize)] = &[
        ("not an array", "61", Status::TypeMismatch, 0),
        ("text element", "83016161", Status::TypeMismatch, 2),
        ("negative into u64", "9f0120ff", Status::OutOfRange, 2),
        ("float into u64", "8201f93c00", Status::TypeMismatch, 2),
        ("definite truncated", "8301", Status::Truncated, 0),
        ("indefinite truncated", "9f01", Status::Truncated, 2),
        ("typed odd length", "d84643010203", Status::TypeMismatch, 2),
        ("nothing left", "", Status::Truncated, 0),
    ];
    for (name, data, status, offset) in rows {
        let data = hex(data);
        let e = Reader::new(&data).unwrap().read_array::<u64>().unwrap_err();
        assert_eq!((e.status, e.offset), (*status, *offset), "{name}");
    }
    let data = hex("82011b8000000000000000");
    let e = Reader::new(&data).unwrap().read_array::<i64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::OutOfRange, 2), "2^63 into i64");
    let data = hex("823bffffffffffffffff01");
    let e = Reader::new(&data).unwrap().read_array::<i64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::OutOfRange, 1), "-2^64 into i64");
    let data = hex("811b0020000000000001");
    let e = Reader::new(&data).unwrap().read_array::<f64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::OutOfRange, 1), "2^53+1 into f64");
}

#[test]
fn reader_goes_on_after_the_array_and_after_a_refusal() {
    // [[1, 2], [3, 4] (indefinite), "x"]
    let data = hex("83 820102 9f0304ff 6178");
    let mut r = Reader::new(&data).unwrap();
    assert_eq!(r.next_item().unwrap().unwrap().token, Token::Array(Some(3)));
    assert_eq!(r.read_array::<u64>().unwrap(), [1, 2]);
    assert_eq!(r.read_array::<u64>().unwrap(), [3, 4]);
    // not an array: refused, nothing read, the reader goes on
    assert_eq!(r.read_array::<u64>().unwrap_err().status, Status::TypeMismatch);
    assert_eq!(r.next_item().unwrap().unwrap().token, Token::Text("x"));
    assert_eq!(r.next_item().unwrap().unwrap().token, Token::End { brk: false });
    // a bad element is sticky
    let data = hex("82016161 00");
    let mut r = Reader::new(&data).unwrap();
    assert_eq!(r.read_array::<u64>().unwrap_err().offset, 2);
    assert_eq!(r.next_item().unwrap_err().offset, 2);
}

#[test]
fn large_and_length_bomb() {
    let n = 65536usize;
    let mut w = Writer::new().unwrap();
    w.array(n as u64).unwrap();
    for i in 0..n as u64 {
        w.uint(i * 3).unwrap();
    }
    w.end().unwrap();
    let data = w.finish().unwrap().to_vec();
    let got = Reader::new(&data).unwrap().read_array::<u64>().unwrap();
    assert_eq!(got.len(), n);
    assert_eq!(got[n - 1], (n as u64 - 1) * 3);
    // indefinite, 65536 elements: read again with more room until it fits
    let mut data = vec![0x9f];
    data.extend(std::iter::repeat_n(0x01, n));
    data.push(0xff);
    assert_eq!(Reader::new(&data).unwrap().read_array::<i64>().unwrap(), vec![1; n]);
    // 2^60 elements promised over 9 bytes: over the default container limit
    // (2^24, since 0.5), nothing big allocated
    let data = hex("9b1000000000000000");
    let e = Reader::new(&data).unwrap().read_array::<f64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::ContainerTooLarge, 0));
}

// ---- Node::read_array, TypedArray ----------------------------------------------------

#[test]
fn node_reads_arrays() {
    let data = hex("a2 6161 83010203 6162 d85648000000000000f83f");
    let doc = Document::parse(&data).unwrap();
    let root = doc.root();
    assert_eq!(root.get("a").unwrap().read_array::<u64>().unwrap(), [1, 2, 3]);
    assert_eq!(root.get("b").unwrap().read_array::<f64>().unwrap(), [1.5]);
    let e = root.get("b").unwrap().read_array::<u64>().unwrap_err();
    assert_eq!(e.status, Status::TypeMismatch);
    let e = root.read_array::<u64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::TypeMismatch, 0));
    let data = hex("83 01 20 03");
    let e = Document::parse(&data).unwrap().root().read_array::<u64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::OutOfRange, 2));
    let typed = hex("d84544010002ff");
    let t = Document::parse(&typed).unwrap();
    let a = t.root().read_typed_array().unwrap();
    assert_eq!((a.element(), a.tag(), a.len(), a.data_offset()), (TypedElement::Uint16, 69, 2, 3));
    assert_eq!(a.to_vec::<u64>().unwrap(), [1, 0xff02]);
}

#[test]
fn a_node_typed_array_over_an_indefinite_byte_string_lives_only_as_long_as_the_document() {
    // 72(sint8) over (_ h'0102', h'03'): the chunks are joined in the document.
    let data = hex("d8 48 5f 42 0102 41 03 ff");
    let doc = Document::parse(&data).unwrap();
    // The input-lifetime view refuses it, at the byte string (as Reader's).
    let e = doc.root().read_typed_array().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::TypeMismatch, 2));
    let mut r = Reader::new(&data).unwrap();
    let e = r.read_typed_array().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::TypeMismatch, 2));
    // The document-lifetime view reads it.
    let a = doc.root().joined_typed_array().unwrap();
    assert_eq!((a.element(), a.tag(), a.len()), (TypedElement::Sint8, 72, 3));
    assert_eq!(a.bytes(), [1, 2, 3]);
    assert!(!data.as_ptr_range().contains(&a.bytes().as_ptr()), "joined, not in the input");
    assert_eq!(a.to_vec::<i64>().unwrap(), [1, 2, 3]);
    // A definite one: both views, the same bytes, in the input.
    let data = hex("d8 48 43 010203");
    let doc = Document::parse(&data).unwrap();
    let a = doc.root().read_typed_array().unwrap();
    assert_eq!(a.bytes().as_ptr(), data[3..].as_ptr());
    let b = doc.root().joined_typed_array().unwrap();
    assert_eq!(b.bytes().as_ptr(), data[3..].as_ptr());
    // Not a typed array: the node's offset.
    let data = hex("d8 48 01");
    let doc = Document::parse(&data).unwrap();
    let e = doc.root().joined_typed_array().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::TypeMismatch, 0));
}

#[test]
fn typed_array_views_and_conversions() {
    let rows: &[(&str, TypedElement, u64, bool, usize)] = &[
        ("d840430102ff", TypedElement::Uint8, 64, false, 3),
        ("d844420100", TypedElement::Uint8Clamped, 68, false, 2),
        ("d84842ff80", TypedElement::Sint8, 72, false, 2),
        ("d84144ff000001", TypedElement::Uint16, 65, false, 2),
        ("d84d42feff", TypedElement::Sint16, 77, true, 1),
        ("d846440a000000", TypedElement::Uint32, 70, true, 1),
        ("d84348ffffffffffffffff", TypedElement::Uint64, 67, false, 1),
        ("d84f480000000000000080", TypedElement::Sint64, 79, true, 1),
        ("d85444003c00c0", TypedElement::Float16, 84, true, 2),
        ("d851443fc00000", TypedElement::Float32, 81, false, 1),
        ("d85648000000000000f83f", TypedElement::Float64, 86, true, 1),
        ("d85640", TypedElement::Float64, 86, true, 0),
    ];
    for (data, element, tag, little, len) in rows {
        let bytes = hex(data);
        let a = Reader::new(&bytes).unwrap().read_typed_array().unwrap();
        assert_eq!(
            (a.element(), a.tag(), a.little_endian(), a.len()),
            (*element, *tag, *little, *len),
            "{data}"
        );
        assert_eq!(a.bytes(), &bytes[3..], "{data}: a view of the input");
        assert!(std::ptr::eq(a.bytes().as_ptr(), bytes[3..].as_ptr()) || *len == 0);
    }
    let a = |s: &str| hex(s);
    let d = a("d84842ff80");
    assert_eq!(
        Reader::new(&d).unwrap().read_typed_array().unwrap().to_vec::<i64>().unwrap(),
        [-1, -128]
    );
    let d = a("d85444003c00c0");
    assert_eq!(
        Reader::new(&d).unwrap().read_typed_array().unwrap().to_vec::<f64>().unwrap(),
        [1.0, -2.0]
    );
    // range: sint8 -1 into u64 fails at the element's byte
    let d = a("d84842 01ff");
    let e = Reader::new(&d).unwrap().read_typed_array().unwrap().to_vec::<u64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::OutOfRange, 4));
    // uint64 2^64-1 into i64
    let d = a("d84348ffffffffffffffff");
    let e = Reader::new(&d).unwrap().read_typed_array().unwrap().to_vec::<i64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::OutOfRange, 3));
    // floats into integers
    let d = a("d85648000000000000f83f");
    let e = Reader::new(&d).unwrap().read_typed_array().unwrap().to_vec::<u64>().unwrap_err();
    assert_eq!(e.status, Status::TypeMismatch);
    // not a typed array: nothing read; the reserved tag 76; bad content is sticky
    let d = a("820102");
    assert_eq!(
        Reader::new(&d).unwrap().read_typed_array().unwrap_err().status,
        Status::TypeMismatch
    );
    let d = a("d84c420102");
    assert_eq!(
        Reader::new(&d).unwrap().read_typed_array().unwrap_err().status,
        Status::TypeMismatch
    );
    let d = a("d84643010203");
    let mut r = Reader::new(&d).unwrap();
    let e = r.read_typed_array().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::TypeMismatch, 2));
    assert_eq!(r.next_item().unwrap_err().offset, 2);
}

// ---- Writer::typed_array ------------------------------------------------------------

#[test]
fn writer_writes_typed_arrays_in_host_order() {
    if !LITTLE {
        return; // the rows are the little-endian tags
    }
    let mut w = Writer::new().unwrap();
    w.array(11).unwrap();
    w.typed_array(&[1u8, 255]).unwrap();
    w.typed_array(&[-1i8]).unwrap();
    w.typed_array(&[1u16]).unwrap();
    w.typed_array(&[-2i16]).unwrap();
    w.typed_array(&[10u32]).unwrap();
    w.typed_array(&[-2i32]).unwrap();
    w.typed_array(&[u64::MAX]).unwrap();
    w.typed_array(&[i64::MIN]).unwrap();
    w.typed_array(&[1.5f32]).unwrap();
    w.typed_array(&[1.5f64]).unwrap();
    w.typed_array::<f64>(&[]).unwrap();
    w.end().unwrap();
    let want = "8b d8404201ff d84841ff d845420100 d84d42feff d846440a000000 d84e44feffffff \
                d84748ffffffffffffffff d84f480000000000000080 d855440000c03f \
                d85648000000000000f83f d85640";
    assert_eq!(w.finish().unwrap(), hex(&want.replace(['\n', ' '], "")));
    // 65536 doubles: a 5-byte byte-string head, read back exactly
    let v: Vec<f64> = (0..65536).map(|i| i as f64 * 0.25).collect();
    let mut w = Writer::new().unwrap();
    w.typed_array(&v).unwrap();
    let out = w.finish().unwrap().to_vec();
    assert_eq!(out.len(), 7 + 8 * 65536);
    assert_eq!(out[..7], hex("d8565a00080000"));
    assert_eq!(Reader::new(&out).unwrap().read_array::<f64>().unwrap(), v);
}

// ---- serde ---------------------------------------------------------------------------

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Series {
    name: String,
    #[serde(with = "cbor_fast::serde::bulk")]
    t: Vec<u64>,
    #[serde(with = "cbor_fast::serde::bulk")]
    d: Vec<i64>,
    #[serde(with = "cbor_fast::serde::typed_array")]
    v: Vec<f64>,
    tail: u8,
}

#[test]
fn serde_fields_exact_bytes_and_round_trip() {
    let s = Series {
        name: "s".into(),
        t: vec![1, 1 << 32],
        d: vec![-1, i64::MIN],
        v: vec![1.5],
        tail: 7,
    };
    let bytes = to_vec(&s).unwrap();
    let mut want = String::from(
        "a5 646e616d65 6173 6174 82011b0000000100000000 6164 82203b7fffffffffffffff 6176",
    );
    want.push_str(if LITTLE { "d85648000000000000f83f" } else { "d85248 3ff8000000000000" });
    want.push_str("647461696c 07");
    assert_eq!(bytes, hex(&want));
    assert_eq!(from_slice::<Series>(&bytes).unwrap(), s);
    // the same fields read from typed arrays and from plain arrays of other widths
    let other = hex(
        "a5 646e616d65 6173 6174 d84544 01000002 6164 9f20ff 6176 82f93e00fa3fc00000 647461696c 07",
    );
    let got: Series = from_slice(&other).unwrap();
    assert_eq!((got.t, got.d, got.v, got.tail), (vec![1, 0x200], vec![-1], vec![1.5, 1.5], 7));
    // other formats see plain sequences: serde_cbor and ciborium read what we wrote as arrays
    let plain = serde_cbor::to_vec(&s).unwrap();
    assert_eq!(from_slice::<Series>(&plain).unwrap(), s);
    let back: Series = serde_cbor::from_slice(&plain).unwrap();
    assert_eq!(back, s);
}

#[test]
fn serde_bulk_errors_have_status_and_offset() {
    #[derive(Deserialize, Debug)]
    struct One {
        #[serde(with = "cbor_fast::serde::bulk")]
        #[allow(dead_code)]
        x: Vec<u64>,
    }
    let rows: &[(&str, &str, Status, usize)] = &[
        ("negative element", "a1 6178 820120", Status::OutOfRange, 5),
        ("text element", "a1 6178 82016161", Status::TypeMismatch, 5),
        ("typed floats", "a1 6178 d85640", Status::TypeMismatch, 3),
        ("truncated", "a1 6178 8301", Status::Truncated, 3),
        ("not an array", "a1 6178 6161", Status::TypeMismatch, 3),
    ];
    for (name, data, status, offset) in rows {
        let e = from_slice::<One>(&hex(data)).unwrap_err();
        assert_eq!((e.status(), e.offset()), (*status, *offset), "{name}: {e}");
    }
    // null is no array: the element-by-element path says so
    let e = from_slice::<One>(&hex("a1 6178 f6")).unwrap_err();
    assert_eq!(e.status(), Status::TypeMismatch);
}

#[test]
fn serde_missing_field_after_bulk_is_at_the_bulk_head() {
    // A struct's last field read in one library call (bulk), then a field
    // missing: serde's error is reported at the item read last, the bulk
    // array's head, wherever the batch ends inside or after the array.
    #[derive(Serialize)]
    struct Two {
        pre: Vec<u8>,
        #[serde(with = "cbor_fast::serde::bulk")]
        v: Vec<u64>,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Three {
        pre: Vec<u8>,
        #[serde(with = "cbor_fast::serde::bulk")]
        v: Vec<u64>,
        post: String,
    }
    for n in 0..140usize {
        for pre in [0usize, 1, 30, 61] {
            let two = Two { pre: vec![1; pre], v: (0..n as u64).collect() };
            let bytes = to_vec(&two).unwrap();
            // a2, "pre", the pre array (head 1 or 2 bytes), "v", then v's head.
            let at = 1 + 4 + (if pre < 24 { 1 } else { 2 }) + pre + 2;
            let e = from_slice::<Three>(&bytes).unwrap_err();
            assert_eq!((e.status(), e.offset()), (Status::TypeMismatch, at), "n {n} pre {pre}");
            assert!(e.message().contains("post"), "{e}");
        }
    }
}

#[test]
fn serde_bulk_at_every_batch_boundary() {
    // A vector of n elements between two fields: the batch (64 items) ends
    // everywhere inside it, and before and after its END.
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct S {
        pre: Vec<u8>,
        #[serde(with = "cbor_fast::serde::bulk")]
        v: Vec<u64>,
        post: String,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct T {
        pre: Vec<u8>,
        #[serde(with = "cbor_fast::serde::typed_array")]
        v: Vec<u64>,
        post: String,
    }
    for n in 0..140usize {
        for pre in [0usize, 1, 30, 61] {
            let s = S {
                pre: vec![1; pre],
                v: (0..n as u64).map(|i| i * 1000).collect(),
                post: "end".into(),
            };
            let bytes = to_vec(&s).unwrap();
            assert_eq!(from_slice::<S>(&bytes).unwrap(), s, "n {n} pre {pre}");
            let t = T { pre: vec![1; pre], v: s.v.clone(), post: "end".into() };
            let bytes = to_vec(&t).unwrap();
            assert_eq!(from_slice::<T>(&bytes).unwrap(), t, "typed: n {n} pre {pre}");
        }
    }
    // a tag 41 in front, and an indefinite array, across the boundary too
    for n in [0usize, 1, 62, 63, 64, 65, 200] {
        let mut bytes = hex("a3 63707265 80 6176 d829 9f");
        bytes.extend(std::iter::repeat_n(0x05, n));
        bytes.extend(hex("ff 64706f7374 63656e64"));
        let s: S = from_slice(&bytes).unwrap();
        assert_eq!((s.v.len(), s.post.as_str()), (n, "end"), "n {n}");
    }
}

#[test]
fn serde_bulk_at_the_top_level_at_every_batch_boundary() {
    // A bulk vector that is the whole input: the batch (64 items, growing
    // to 256) ends inside it for n >= 64, and `end` must find the input's
    // end after the array, not after the last element the batch held (it
    // said TrailingBytes inside the array before 0.5).
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct W(#[serde(with = "cbor_fast::serde::bulk")] Vec<u64>);
    for n in [0usize, 1, 62, 63, 64, 65, 66, 127, 128, 255, 256, 257, 1000] {
        let w = W((0..n as u64).map(|i| i * 7).collect());
        let bytes = to_vec(&w).unwrap();
        assert_eq!(from_slice::<W>(&bytes).unwrap(), w, "n {n}");
        assert_eq!(from_slice::<Option<W>>(&bytes).unwrap(), Some(w), "Option, n {n}");
        // A tag 41 in front, an indefinite array.
        let mut tagged = hex("d829 9f");
        tagged.extend(std::iter::repeat_n(0x05, n));
        tagged.push(0xff);
        assert_eq!(from_slice::<W>(&tagged).unwrap(), W(vec![5; n]), "tag 41, n {n}");
        // One byte after the array: refused at that byte.
        let mut extra = bytes.clone();
        extra.push(0x00);
        let e = from_slice::<W>(&extra).unwrap_err();
        assert_eq!((e.status(), e.offset()), (Status::TrailingBytes, bytes.len()), "extra, n {n}");
    }
}

#[test]
fn bulk_reads_keep_the_readers_limits() {
    // An array counting 2^24 + 1 (one over the default max_container_items)
    // with three elements. With the limit raised, the bulk paths said
    // ContainerTooLarge, as their second reader kept the default limits,
    // where the element-by-element path says Truncated at the head.
    let mut data = hex("9b 0000000001000001");
    data.extend_from_slice(&[1, 2, 3]);
    #[derive(Deserialize, Debug)]
    struct W(#[serde(with = "cbor_fast::serde::bulk")] Vec<u64>);
    let lifted = DecodeOptions::new().max_container_items(u64::MAX);
    let e = from_slice_with::<W>(&data, &lifted).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Truncated, 0), "bulk: {e}");
    let e = from_slice_with::<Vec<u64>>(&data, &lifted).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Truncated, 0), "plain: {e}");
    // The same behind tag 41 (the probe reads past the tag on its own).
    let mut tagged = hex("d829");
    tagged.extend_from_slice(&data);
    let e = from_slice_with::<W>(&tagged, &lifted).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::Truncated, 2), "bulk, tag 41: {e}");
    let e = Reader::with_options(&tagged, &lifted).unwrap().read_array::<u64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::Truncated, 2), "read_array, tag 41: {e}");
    let e = Reader::with_options(&data, &lifted).unwrap().read_array::<u64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::Truncated, 0), "read_array: {e}");
    // Under the default limit all three refuse the head.
    let e = from_slice::<W>(&data).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::ContainerTooLarge, 0), "bulk: {e}");
    let e = Reader::new(&data).unwrap().read_array::<u64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::ContainerTooLarge, 0), "read_array: {e}");
    // A lowered limit holds on every path, and a raised one reads whole arrays.
    let small = DecodeOptions::new().max_container_items(2);
    let three = hex("83 01 02 03");
    let e = from_slice_with::<W>(&three, &small).unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::ContainerTooLarge, 0), "bulk: {e}");
    let e = Reader::with_options(&three, &small).unwrap().read_array::<u64>().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::ContainerTooLarge, 0), "read_array: {e}");
    assert_eq!(from_slice_with::<W>(&three, &lifted).unwrap().0, [1, 2, 3]);
    let mut r = Reader::with_options(&three, &lifted).unwrap();
    assert_eq!(r.read_array::<u64>().unwrap(), [1, 2, 3]);
}
