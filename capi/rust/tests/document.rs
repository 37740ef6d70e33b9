//! Borrowed documents and node navigation, sequences of documents, and the
//! writer's checks.
mod common;

use cbor_fast::{
    DecodeOptions, Document, FloatWidth, Sequence, Status, Type, Value, Writer, decode, encode,
};
use common::{hex, to_hex};

/// {"id": 7, "neg": -3, "big": -2^64, "f": 1.5, "name": "Zoë", "raw": h'00ff',
///  "list": [true, null, undefined, simple(99)], 10: "ten", -1: "minus one",
///  "ind": (_ "ab", "c"), "t": 32("u")}
fn sample() -> Vec<u8> {
    hex(concat!(
        "ab",
        "62 6964 07",
        "63 6e6567 22",
        "63 626967 3b ffffffffffffffff",
        "61 66 f9 3e00",
        "64 6e616d65 64 5a6fc3ab",
        "63 726177 42 00ff",
        "64 6c697374 84 f5 f6 f7 f8 63",
        "0a 63 74656e",
        "20 69 6d696e7573206f6e65",
        "63 696e64 7f 62 6162 61 63 ff",
        "61 74 d8 20 61 75",
    ))
}

#[test]
fn scalar_getters_by_key() {
    let data = sample();
    let doc = Document::parse(&data).unwrap();
    let root = doc.root();
    assert_eq!(root.kind(), Type::Map);
    assert_eq!(root.len(), 11);
    assert_eq!(doc.encoded_size(), data.len());

    let id = root.get("id").unwrap();
    assert_eq!(
        (id.kind(), id.as_u64(), id.as_i64(), id.offset()),
        (Type::Unsigned, Some(7), Some(7), 4)
    );
    let neg = root.get("neg").unwrap();
    assert_eq!((neg.as_u64(), neg.as_i64(), neg.as_int_raw()), (None, Some(-3), Some((true, 2))));
    let big = root.get("big").unwrap();
    assert_eq!((big.as_i64(), big.as_int_raw()), (None, Some((true, u64::MAX))));
    assert_eq!(big.as_integer(), Some(Value::from(-(1i128 << 64))));
    let f = root.get("f").unwrap();
    assert_eq!(
        (f.kind(), f.as_f64(), f.float_width(), f.as_u64()),
        (Type::Float, Some(1.5), 2, None)
    );
    assert_eq!(root.get("name").unwrap().as_str(), Some("Zo\u{eb}"));
    assert_eq!(root.get("raw").unwrap().as_bytes(), Some(&[0u8, 0xff][..]));
    // Type mismatches are None, never a panic.
    assert_eq!(root.get("raw").unwrap().as_str(), None);
    assert_eq!(root.get("name").unwrap().as_bytes(), None);
    assert_eq!(root.get("id").unwrap().as_f64(), None);
    assert!(root.get("missing").is_none());
    assert!(root.get("id").unwrap().get("x").is_none());
    // Integer keys.
    assert_eq!(root.get_int(10).and_then(|n| n.as_str()), Some("ten"));
    assert_eq!(root.get_int(-1).and_then(|n| n.as_str()), Some("minus one"));
    assert!(root.get_int(11).is_none());
}

#[test]
fn containers_iterate_in_order() {
    let data = sample();
    let doc = Document::parse(&data).unwrap();
    let root = doc.root();
    let list = root.get("list").unwrap();
    let kinds: Vec<Type> = list.iter().map(|n| n.kind()).collect();
    assert_eq!(kinds, [Type::Bool, Type::Null, Type::Undefined, Type::Simple]);
    assert_eq!(list.at(0).unwrap().as_bool(), Some(true));
    assert_eq!(list.at(3).unwrap().as_simple(), Some(99));
    assert_eq!(list.at(1).unwrap().as_simple(), Some(22));
    assert!(list.at(4).is_none());

    let keys: Vec<String> = root
        .entries()
        .map(|(k, _)| match k.kind() {
            Type::Text => k.as_str().unwrap().to_owned(),
            _ => k.as_i64().unwrap().to_string(),
        })
        .collect();
    assert_eq!(keys, ["id", "neg", "big", "f", "name", "raw", "list", "10", "-1", "ind", "t"]);
    // iter() on a map alternates keys and values.
    assert_eq!(root.iter().count(), 22);
    assert_eq!(root.get("id").unwrap().iter().count(), 0);
    assert_eq!(list.entries().count(), 0);

    let (tag, content) = root.get("t").unwrap().as_tag().unwrap();
    assert_eq!((tag, content.as_str()), (32, Some("u")));
    assert_eq!(root.get("t").unwrap().iter().next().unwrap().as_str(), Some("u"));
}

#[test]
fn definite_strings_are_zero_copy_and_indefinite_ones_joined() {
    let data = sample();
    let doc = Document::parse(&data).unwrap();
    let name = doc.root().get("name").unwrap();
    let at = name.offset() + 1;
    assert!(std::ptr::eq(name.as_str().unwrap().as_ptr(), data[at..].as_ptr()));
    let ind = doc.root().get("ind").unwrap();
    assert!(ind.is_indefinite());
    // Joined into the document's memory, not the input: only joined_str
    // (the document's lifetime) gives it; as_str (the input's) does not.
    assert_eq!(ind.as_str(), None);
    assert_eq!(ind.joined_str(), Some("abc"));
    let p = ind.joined_str().unwrap().as_ptr() as usize;
    let input = data.as_ptr() as usize..data.as_ptr() as usize + data.len();
    assert!(!input.contains(&p));
    assert_eq!(name.joined_str(), name.as_str());
}

#[test]
fn strings_outlive_the_document_they_came_from() {
    let data = sample();
    let (name, bytes) = {
        let doc = Document::parse(&data).unwrap();
        let root = doc.root();
        (root.get("name").unwrap().as_str().unwrap(), root.get("raw").unwrap().as_bytes())
    };
    // The document is gone; the slices are the input's.
    assert_eq!(name, "Zo\u{eb}");
    assert!(data.as_ptr_range().contains(&name.as_ptr()));
    assert!(bytes.is_some());
}

#[test]
fn to_value_matches_decode() {
    let data = sample();
    let doc = Document::parse(&data).unwrap();
    let v = decode(&data).unwrap();
    assert_eq!(doc.to_value().unwrap(), v);
    assert_eq!(v.get("name").and_then(Value::as_str), Some("Zo\u{eb}"));
    assert_eq!(v.get("big").and_then(Value::as_i128), Some(-(1i128 << 64)));
    assert_eq!(v.get("ind").and_then(Value::as_str), Some("abc"));
    assert_eq!(
        doc.root().get("list").unwrap().to_value().unwrap().index(3),
        Some(&Value::Simple(99))
    );
    // 1 root + 11 keys + 11 values + 4 list items + 1 tag content
    // (indefinite-string chunks are not nodes).
    assert_eq!(doc.node_count(), 28);
    // As read: the document reproduces the input, indefinite string included.
    assert_eq!(doc.encode(false).unwrap(), data);
}

#[test]
fn documents_are_shared_across_threads() {
    let data = sample();
    let doc = Document::parse(&data).unwrap();
    let root = doc.root();
    let sums: Vec<i64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    (0..1000)
                        .map(|_| {
                            root.get("id").unwrap().as_i64().unwrap()
                                + root.get("neg").unwrap().as_i64().unwrap()
                        })
                        .sum::<i64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(sums, vec![4000; 4]);
}

#[test]
fn sequences_yield_zero_copy_documents() {
    let data = hex("63 616263 a1 61 6b 02 f6");
    let mut seq = Sequence::new(&data).unwrap();
    let first = seq.next_document().unwrap().unwrap();
    let s = first.root().as_str().unwrap();
    assert!(std::ptr::eq(s.as_ptr(), data[1..].as_ptr()));
    // Node offsets count from the start of the whole buffer.
    let second = seq.next_document().unwrap().unwrap();
    assert_eq!(second.root().offset(), 4);
    assert_eq!(second.root().get("k").unwrap().offset(), 7);
    assert_eq!(seq.next().unwrap().unwrap(), Value::Null);
    assert!(seq.next().is_none());
    assert!(seq.next_document().is_none());
    // Documents outlive the sequence handle (they borrow the input only).
    drop(seq);
    assert_eq!(first.root().as_str(), Some("abc"));
}

#[test]
fn sequence_item_after_a_top_level_tag() {
    // Regression: the library's cbor_seq_next_doc answered INVALID_STATE for
    // the item after a tagged top-level item (the reader still counted the tag
    // level as open). cbor_seq_next was not affected.
    let data = hex("c1 00 01 c2 49 010000000000000000 f6");
    let items: Vec<Value> = Sequence::new(&data).unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(
        items,
        vec![
            Value::Tag(1, Box::new(Value::Unsigned(0))),
            Value::Unsigned(1),
            Value::from(1u128 << 64),
            Value::Null
        ]
    );
    let mut seq = Sequence::new(&data).unwrap();
    let raws: Vec<String> =
        std::iter::from_fn(|| seq.next_raw()).map(|r| to_hex(r.unwrap())).collect();
    assert_eq!(raws, ["c100", "01", "c249010000000000000000", "f6"]);
}

#[test]
fn sequence_options_apply_to_every_item() {
    let data = hex("81 81 00 81 00");
    let opts = DecodeOptions { max_depth: 1, ..DecodeOptions::default() };
    let mut seq = Sequence::with_options(&data, &opts).unwrap();
    let e = seq.next().unwrap().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::Depth, 1));
    assert!(seq.next().is_none());
}

#[test]
fn writer_builds_what_it_is_told() {
    let mut w = Writer::new().unwrap();
    w.map_indefinite().unwrap();
    w.text("a").unwrap();
    w.text_indefinite().unwrap();
    w.text("x").unwrap();
    w.text("y").unwrap();
    w.end().unwrap();
    w.int(-500).unwrap();
    w.float_width(1.5, FloatWidth::Double).unwrap();
    w.bytes_indefinite().unwrap();
    w.end().unwrap();
    w.null().unwrap();
    w.end().unwrap();
    // {_ "a": (_ "x", "y"), -500: 1.5 (as float64), (_ ): null}
    assert_eq!(to_hex(w.finish().unwrap()), "bf61617f61786179ff3901f3fb3ff80000000000005ffff6ff");
    w.reset().unwrap();
    assert!(w.is_empty());
    w.float_width(65536.0, FloatWidth::Half).unwrap(); // rounds to infinity in half
    w.float_width(1.0 / 3.0, FloatWidth::Single).unwrap();
    w.bignum(false, &[0, 0, 1, 0]).unwrap(); // leading zeros dropped: 256
    w.negative(u64::MAX).unwrap();
    assert_eq!(to_hex(w.finish().unwrap()), "f97c00fa3eaaaaab1901003bffffffffffffffff");
}

#[test]
fn writer_errors_name_the_mistake_and_the_position() {
    let mut w = Writer::new().unwrap();
    w.array(1).unwrap();
    w.uint(1).unwrap();
    let e = w.uint(2).unwrap_err();
    assert_eq!((e.status, e.offset), (Status::WriterCount, 2));
    // Sticky until reset.
    assert_eq!(w.null().unwrap_err().status, Status::WriterCount);
    w.reset().unwrap();

    w.array(2).unwrap();
    assert_eq!(w.finish().unwrap_err().status, Status::WriterUnclosed);
    w.reset().unwrap();
    assert_eq!(w.end().unwrap_err().status, Status::WriterNoContainer);
    w.reset().unwrap();
    w.map_indefinite().unwrap();
    w.uint(1).unwrap();
    assert_eq!(w.end().unwrap_err().status, Status::WriterOddMap);
    w.reset().unwrap();
    w.bytes_indefinite().unwrap();
    assert_eq!(w.text("no").unwrap_err().status, Status::WriterBadChunk);
    w.reset().unwrap();
    // Simple values 24..=31 are refused without poisoning the writer.
    assert_eq!(w.simple(24).unwrap_err().status, Status::InvalidArgument);
    w.simple(32).unwrap();
    assert_eq!(w.finish().unwrap(), [0xf8, 0x20]);

    assert_eq!(encode(&Value::Simple(31)).unwrap_err().status, Status::InvalidArgument);
}

#[test]
fn encode_normalises_integers_given_as_tags_and_bignums() {
    let cases: [(Value, &str); 6] = [
        (Value::Tag(2, Box::new(Value::Bytes(vec![1]))), "01"),
        (Value::Tag(3, Box::new(Value::Bytes(vec![]))), "20"),
        (Value::BigNum { negative: false, magnitude: vec![0, 0, 0xff] }, "18ff"),
        (Value::BigNum { negative: true, magnitude: vec![0xff; 8] }, "3bffffffffffffffff"),
        (
            Value::BigNum { negative: false, magnitude: [&[0u8, 1][..], &[0; 8]].concat() },
            "c249010000000000000000",
        ),
        // Tag 2 over something else is just a tag.
        (Value::Tag(2, Box::new(Value::from("x"))), "c26178"),
    ];
    for (v, h) in cases {
        assert_eq!(to_hex(&encode(&v).unwrap()), h, "{v:?}");
        assert_eq!(decode(&hex(h)).unwrap(), v, "{h}");
    }
}
