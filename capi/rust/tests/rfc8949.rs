//! RFC 8949 Appendix A: every example, decoded to a Value, re-encoded in
//! preferred serialization, and re-encoded from a Document as read.
mod common;

use cbor_fast::{Document, Type, Value, decode, encode};
use common::{arr, hex, map, tag, to_hex};

struct Row {
    name: &'static str,
    /// The example's encoding.
    input: &'static str,
    value: Value,
    /// Preferred serialization of the value: the input itself except for the
    /// non-shortest floats and the indefinite lengths.
    preferred: &'static str,
}

fn row(name: &'static str, input: &'static str, value: Value) -> Row {
    Row { name, input, value, preferred: input }
}

fn row_p(name: &'static str, input: &'static str, value: Value, preferred: &'static str) -> Row {
    Row { name, input, value, preferred }
}

fn t(s: &str) -> Value {
    Value::from(s)
}

fn u(v: u64) -> Value {
    Value::Unsigned(v)
}

fn rows() -> Vec<Row> {
    let one_to_25: Vec<Value> = (1..=25).map(u).collect();
    vec![
        row("uint_0", "00", u(0)),
        row("uint_1", "01", u(1)),
        row("uint_10", "0a", u(10)),
        row("uint_23", "17", u(23)),
        row("uint_24", "1818", u(24)),
        row("uint_25", "1819", u(25)),
        row("uint_100", "1864", u(100)),
        row("uint_1000", "1903e8", u(1000)),
        row("uint_1000000", "1a000f4240", u(1_000_000)),
        row("uint_1000000000000", "1b000000e8d4a51000", u(1_000_000_000_000)),
        row("uint_max", "1bffffffffffffffff", u(u64::MAX)),
        row("bignum_2_64", "c249010000000000000000", Value::from(1u128 << 64)),
        row("nint_min", "3bffffffffffffffff", Value::from(-(1i128 << 64))),
        row("neg_bignum_2_64", "c349010000000000000000", Value::from(-(1i128 << 64) - 1)),
        row("nint_1", "20", Value::from(-1)),
        row("nint_10", "29", Value::from(-10)),
        row("nint_100", "3863", Value::from(-100)),
        row("nint_1000", "3903e7", Value::from(-1000)),
        row("half_zero", "f90000", Value::Float(0.0)),
        row("half_neg_zero", "f98000", Value::Float(-0.0)),
        row("half_one", "f93c00", Value::Float(1.0)),
        row("double_1_1", "fb3ff199999999999a", Value::Float(1.1)),
        row("half_1_5", "f93e00", Value::Float(1.5)),
        row("half_max", "f97bff", Value::Float(65504.0)),
        row("single_100000", "fa47c35000", Value::Float(100000.0)),
        row("single_max", "fa7f7fffff", Value::Float(3.4028234663852886e+38)),
        row("double_1e300", "fb7e37e43c8800759c", Value::Float(1.0e+300)),
        row("half_min_subnormal", "f90001", Value::Float(5.960464477539063e-8)),
        row("half_min_normal", "f90400", Value::Float(0.00006103515625)),
        row("half_neg_4", "f9c400", Value::Float(-4.0)),
        row("double_neg_4_1", "fbc010666666666666", Value::Float(-4.1)),
        row("half_infinity", "f97c00", Value::Float(f64::INFINITY)),
        row("half_nan", "f97e00", Value::Float(f64::NAN)),
        row("half_neg_infinity", "f9fc00", Value::Float(f64::NEG_INFINITY)),
        row_p("single_infinity", "fa7f800000", Value::Float(f64::INFINITY), "f97c00"),
        row_p("single_nan", "fa7fc00000", Value::Float(f64::NAN), "f97e00"),
        row_p("single_neg_infinity", "faff800000", Value::Float(f64::NEG_INFINITY), "f9fc00"),
        row_p("double_infinity", "fb7ff0000000000000", Value::Float(f64::INFINITY), "f97c00"),
        row_p("double_nan", "fb7ff8000000000000", Value::Float(f64::NAN), "f97e00"),
        row_p(
            "double_neg_infinity",
            "fbfff0000000000000",
            Value::Float(f64::NEG_INFINITY),
            "f9fc00",
        ),
        row("false", "f4", Value::Bool(false)),
        row("true", "f5", Value::Bool(true)),
        row("null", "f6", Value::Null),
        row("undefined", "f7", Value::Undefined),
        row("simple_16", "f0", Value::Simple(16)),
        row("simple_255", "f8ff", Value::Simple(255)),
        row(
            "tag0_date_string",
            "c074323031332d30332d32315432303a30343a30305a",
            tag(0, t("2013-03-21T20:04:00Z")),
        ),
        row("tag1_epoch_int", "c11a514b67b0", tag(1, u(1363896240))),
        row("tag1_epoch_float", "c1fb41d452d9ec200000", tag(1, Value::Float(1363896240.5))),
        row("tag23_base16", "d74401020304", tag(23, Value::Bytes(vec![1, 2, 3, 4]))),
        row("tag24_embedded", "d818456449455446", tag(24, Value::Bytes(hex("6449455446")))),
        row(
            "tag32_uri",
            "d82076687474703a2f2f7777772e6578616d706c652e636f6d",
            tag(32, t("http://www.example.com")),
        ),
        row("bytes_empty", "40", Value::Bytes(vec![])),
        row("bytes_4", "4401020304", Value::Bytes(vec![1, 2, 3, 4])),
        row("text_empty", "60", t("")),
        row("text_a", "6161", t("a")),
        row("text_ietf", "6449455446", t("IETF")),
        row("text_quote_backslash", "62225c", t("\"\\")),
        row("text_u00fc", "62c3bc", t("\u{00fc}")),
        row("text_u6c34", "63e6b0b4", t("\u{6c34}")),
        row("text_u10151", "64f0908591", t("\u{10151}")),
        row("array_empty", "80", arr(vec![])),
        row("array_123", "83010203", arr(vec![u(1), u(2), u(3)])),
        row(
            "array_nested",
            "8301820203820405",
            arr(vec![u(1), arr(vec![u(2), u(3)]), arr(vec![u(4), u(5)])]),
        ),
        row(
            "array_25",
            "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
            arr(one_to_25.clone()),
        ),
        row("map_empty", "a0", map(vec![])),
        row("map_int", "a201020304", map(vec![(u(1), u(2)), (u(3), u(4))])),
        row(
            "map_text_keys",
            "a26161016162820203",
            map(vec![(t("a"), u(1)), (t("b"), arr(vec![u(2), u(3)]))]),
        ),
        row("array_with_map", "826161a161626163", arr(vec![t("a"), map(vec![(t("b"), t("c"))])])),
        row(
            "map_5",
            "a56161614161626142616361436164614461656145",
            map(vec![
                (t("a"), t("A")),
                (t("b"), t("B")),
                (t("c"), t("C")),
                (t("d"), t("D")),
                (t("e"), t("E")),
            ]),
        ),
        row_p(
            "indef_bytes",
            "5f42010243030405ff",
            Value::Bytes(vec![1, 2, 3, 4, 5]),
            "450102030405",
        ),
        row_p("indef_text", "7f657374726561646d696e67ff", t("streaming"), "6973747265616d696e67"),
        row_p("indef_array_empty", "9fff", arr(vec![]), "80"),
        row_p(
            "indef_array_nested_indef",
            "9f018202039f0405ffff",
            arr(vec![u(1), arr(vec![u(2), u(3)]), arr(vec![u(4), u(5)])]),
            "8301820203820405",
        ),
        row_p(
            "indef_array_outer",
            "9f01820203820405ff",
            arr(vec![u(1), arr(vec![u(2), u(3)]), arr(vec![u(4), u(5)])]),
            "8301820203820405",
        ),
        row_p(
            "indef_array_last",
            "83018202039f0405ff",
            arr(vec![u(1), arr(vec![u(2), u(3)]), arr(vec![u(4), u(5)])]),
            "8301820203820405",
        ),
        row_p(
            "indef_array_middle",
            "83019f0203ff820405",
            arr(vec![u(1), arr(vec![u(2), u(3)]), arr(vec![u(4), u(5)])]),
            "8301820203820405",
        ),
        row_p(
            "indef_array_25",
            "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff",
            arr(one_to_25),
            "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
        ),
        row_p(
            "indef_map",
            "bf61610161629f0203ffff",
            map(vec![(t("a"), u(1)), (t("b"), arr(vec![u(2), u(3)]))]),
            "a26161016162820203",
        ),
        row_p(
            "indef_map_in_array",
            "826161bf61626163ff",
            arr(vec![t("a"), map(vec![(t("b"), t("c"))])]),
            "826161a161626163",
        ),
        row_p(
            "indef_map_fun",
            "bf6346756ef563416d7421ff",
            map(vec![(t("Fun"), Value::Bool(true)), (t("Amt"), Value::from(-2))]),
            "a26346756ef563416d7421",
        ),
    ]
}

#[test]
fn appendix_a_has_every_example() {
    // 81 examples in the RFC's table (each float encoding counted), the same
    // rows as tests/conformance/appendix_a_test.cpp.
    let rows = rows();
    assert_eq!(rows.len(), 81);
    let names: std::collections::HashSet<_> = rows.iter().map(|r| r.name).collect();
    assert_eq!(names.len(), rows.len(), "duplicate row names");
}

#[test]
fn decode_gives_the_examples_values() {
    for r in rows() {
        let got = decode(&hex(r.input)).unwrap_or_else(|e| panic!("{}: {e}", r.name));
        assert_eq!(got, r.value, "{}", r.name);
    }
}

#[test]
fn encode_gives_preferred_serialization() {
    for r in rows() {
        let bytes = encode(&r.value).unwrap_or_else(|e| panic!("{}: {e}", r.name));
        assert_eq!(to_hex(&bytes), r.preferred, "{}", r.name);
        // Preferred bytes are a fixed point of decode + encode.
        assert_eq!(encode(&decode(&bytes).unwrap()).unwrap(), bytes, "{}", r.name);
    }
}

#[test]
fn document_reencodes_the_input_as_read() {
    // Without the preferred flag a document keeps float widths, indefinite
    // lengths and string chunks: every example comes back byte for byte.
    for r in rows() {
        let input = hex(r.input);
        let doc = Document::parse(&input).unwrap_or_else(|e| panic!("{}: {e}", r.name));
        assert_eq!(doc.encoded_size(), input.len(), "{}", r.name);
        assert_eq!(to_hex(&doc.encode(false).unwrap()), r.input, "{}", r.name);
        assert_eq!(to_hex(&doc.encode(true).unwrap()), r.preferred, "{}", r.name);
        assert_eq!(doc.to_value().unwrap(), r.value, "{}", r.name);
    }
}

#[test]
fn integer_rows_through_node_getters() {
    /// hex, as_u64, as_i64, as_int_raw
    type Case = (&'static str, Option<u64>, Option<i64>, Option<(bool, u64)>);
    let cases: [Case; 6] = [
        ("1bffffffffffffffff", Some(u64::MAX), None, Some((false, u64::MAX))),
        ("3bffffffffffffffff", None, None, Some((true, u64::MAX))),
        ("3903e7", None, Some(-1000), Some((true, 999))),
        (
            "1b000000e8d4a51000",
            Some(1_000_000_000_000),
            Some(1_000_000_000_000),
            Some((false, 1_000_000_000_000)),
        ),
        ("c249010000000000000000", None, None, None),
        ("f93c00", None, None, None),
    ];
    for (h, as_u64, as_i64, raw) in cases {
        let input = hex(h);
        let doc = Document::parse(&input).unwrap();
        let root = doc.root();
        assert_eq!(root.as_u64(), as_u64, "{h}");
        assert_eq!(root.as_i64(), as_i64, "{h}");
        assert_eq!(root.as_int_raw(), raw, "{h}");
    }
    // Bignums through cbor_node_get_bignum: magnitude view into the input.
    let input = hex("c349010000000000000000");
    let doc = Document::parse(&input).unwrap();
    assert_eq!(doc.root().kind(), Type::Tag);
    assert_eq!(doc.root().as_integer(), Some(Value::from(-(1i128 << 64) - 1)));
    assert_eq!(doc.root().as_tag().map(|(n, c)| (n, c.as_bytes())), Some((3, Some(&input[2..]))));
}

#[test]
fn float_rows_keep_their_wire_width_in_documents() {
    for (h, width) in
        [("f93e00", 2), ("fa47c35000", 4), ("fb3ff199999999999a", 8), ("fa7fc00000", 4)]
    {
        let input = hex(h);
        let doc = Document::parse(&input).unwrap();
        assert_eq!(doc.root().float_width(), width, "{h}");
        assert_eq!(doc.root().kind(), Type::Float);
    }
    let nan = hex("fa7fc00000");
    let doc = Document::parse(&nan).unwrap();
    assert_eq!(doc.root().as_f64().map(f64::to_bits), Some(0x7ff8_0000_0000_0000));
}
