//! Round trips of the shared corpus (twitter, citm_catalog, canada).
//!
//! The files were written by cbor2: shortest integer and length heads,
//! definite lengths, and every JSON fraction as a float64. So:
//! * a Document re-encoded as read reproduces each file byte for byte;
//! * `encode(decode(file))` (preferred serialization) differs from the file
//!   exactly where a float fits a shorter width: the item streams match token
//!   by token, float values match bit for bit, and the size difference is
//!   6 bytes per float now written as half and 4 per float written as single
//!   (canada: 966 bytes; citm has no floats and twitter's only float needs
//!   float64, so for those two the preferred bytes are the file itself);
//! * `decode(encode(v)) == v` and the preferred bytes are a fixed point; the
//!   Rust-side writer walk and the library's own preferred re-encoding of the
//!   document produce identical bytes.
mod common;

use cbor_fast::{Document, Reader, Token, decode, encode};

/// Data items per file, from the corpus README (each array, map, key, value
/// and scalar).
fn expected_items(name: &str) -> usize {
    match name {
        "twitter.cbor" => 27_259,
        "citm_catalog.cbor" => 63_647,
        "canada.cbor" => 167_187,
        other => panic!("unexpected corpus file {other}"),
    }
}

#[test]
fn documents_reencode_each_file_byte_for_byte() {
    for (name, data) in common::corpus_files() {
        let doc = Document::parse(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(doc.encoded_size(), data.len(), "{name}");
        assert_eq!(doc.node_count(), expected_items(&name), "{name}");
        assert!(doc.encode(false).unwrap() == data, "{name}: as-read re-encoding differs");
    }
}

#[test]
fn value_round_trip_differs_only_in_float_widths() {
    for (name, data) in common::corpus_files() {
        let value = decode(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        let preferred = encode(&value).unwrap();

        // Value identity, floats bit for bit.
        assert!(decode(&preferred).unwrap() == value, "{name}: decode(encode(v)) != v");
        // Preferred bytes are a fixed point, and both preferred paths agree.
        assert!(
            encode(&decode(&preferred).unwrap()).unwrap() == preferred,
            "{name}: not a fixed point"
        );
        let doc = Document::parse(&data).unwrap();
        assert!(doc.encode(true).unwrap() == preferred, "{name}: writer walk != library preferred");

        // Token by token: same stream except float widths.
        let (mut saved, mut floats, mut items) = (0usize, 0usize, 0usize);
        let mut a = Reader::new(&data).unwrap();
        let mut b = Reader::new(&preferred).unwrap();
        loop {
            let (x, y) = (a.next_item().unwrap(), b.next_item().unwrap());
            let (Some(x), Some(y)) = (x, y) else {
                assert!(x.is_none() && y.is_none(), "{name}: streams end at different items");
                break;
            };
            items += 1;
            assert_eq!(x.depth, y.depth, "{name} item {items}");
            match (x.token, y.token) {
                (Token::Float { value: v1, width: w1 }, Token::Float { value: v2, width: w2 }) => {
                    floats += 1;
                    assert_eq!(w1, 8, "{name}: the corpus stores float64");
                    assert_eq!(v1.to_bits(), v2.to_bits(), "{name} item {items}");
                    assert!(w2 <= w1);
                    saved += usize::from(w1 - w2);
                }
                (t1, t2) => {
                    assert_eq!(t1, t2, "{name} item {items}");
                    assert_eq!(x.head_size, y.head_size, "{name} item {items}");
                }
            }
        }
        assert_eq!(data.len() - preferred.len(), saved, "{name}");
        if saved == 0 {
            // No float got shorter (citm has none, twitter's one needs float64):
            // preferred serialization is then the file itself.
            assert!(
                preferred == data,
                "{name}: nothing to shorten, so the bytes must be identical"
            );
        }
        println!(
            "{name}: {items} reader items, {floats} floats, {saved} bytes saved by preferred widths"
        );
    }
}

#[test]
fn canada_has_floats_and_twitter_does_not_lose_text() {
    // Guards the assertions above against a corpus that exercises nothing.
    let files = common::corpus_files();
    let canada = &files.iter().find(|(n, _)| n == "canada.cbor").expect("canada.cbor").1;
    let floats = Reader::new(canada)
        .unwrap()
        .filter(|i| matches!(i.as_ref().unwrap().token, Token::Float { .. }))
        .count();
    assert!(floats > 100_000, "canada.cbor has {floats} floats");

    let twitter = &files.iter().find(|(n, _)| n == "twitter.cbor").expect("twitter.cbor").1;
    let v = decode(twitter).unwrap();
    let statuses = v.get("statuses").and_then(|s| s.as_array()).expect("statuses array");
    assert_eq!(statuses.len(), 100);
    assert!(statuses.iter().all(|s| s.get("text").and_then(|t| t.as_str()).is_some()));
}
