//! Malformed and invalid input: each row gives the status and byte offset,
//! checked through decode(), Document::parse, Sequence and Reader (with the
//! number of items the reader delivers before the error, and stickiness).
//! Offsets follow the library's rules (RFC 8949 Appendix F cases mostly).
mod common;

use cbor_fast::{DecodeOptions, Document, Reader, Sequence, Status, Value, decode};
use common::hex;

struct Row {
    name: &'static str,
    input: Vec<u8>,
    status: Status,
    offset: usize,
    /// Items the Reader yields before the error.
    before: usize,
}

fn row(name: &'static str, h: &str, status: Status, offset: usize, before: usize) -> Row {
    Row { name, input: hex(h), status, offset, before }
}

fn rows() -> Vec<Row> {
    use Status::*;
    let mut deep_arrays = vec![0x81u8; 513];
    deep_arrays.push(0x00);
    let mut deep_tags = vec![0xc1u8; 513];
    deep_tags.push(0x00);
    vec![
        // A head cut short, or a definite string longer than the bytes left:
        // at the item's initial byte.
        row("uint8_no_arg", "18", Truncated, 0, 0),
        row("uint64_7_of_8", "1b 01 02 03 04 05 06 07", Truncated, 0, 0),
        row("half_1_of_2", "f9 00", Truncated, 0, 0),
        row("text_1_of_0", "61", Truncated, 0, 0),
        row("bytes_4g_of_1", "5a ff ff ff ff 00", Truncated, 0, 0),
        row("string_in_array", "82 01 43 00", Truncated, 2, 2),
        // Definite containers whose count cannot fit the bytes left: at the
        // head, at once.
        row("array_2_of_1", "82 00", Truncated, 0, 0),
        row("array_nested_9", "81 81 81 81 81 81 81 81 81", Truncated, 8, 8),
        row("map_key_without_value", "a1 00", Truncated, 0, 0),
        // Input ends where an item is due: at the input size.
        row("tag_alone", "c0", Truncated, 1, 1),
        row("indef_bytes_open", "5f 41 00", Truncated, 3, 2),
        row("indef_array_open", "9f 01 02", Truncated, 3, 3),
        row("indef_map_open", "bf 01 02 01 02", Truncated, 5, 5),
        // Reserved additional information 28..30.
        row("reserved_mt0_28", "1c", ReservedAdditionalInfo, 0, 0),
        row("reserved_mt2_29", "5d", ReservedAdditionalInfo, 0, 0),
        row("reserved_mt7_30", "fe", ReservedAdditionalInfo, 0, 0),
        row("reserved_in_array", "81 9e", ReservedAdditionalInfo, 1, 1),
        // Two-byte simple values below 32.
        row("simple_0", "f8 00", BadSimple, 0, 0),
        row("simple_31", "f8 1f", BadSimple, 0, 0),
        row("simple_24_after_32", "82 f8 20 f8 18", BadSimple, 3, 2),
        // Indefinite-string chunks of another type, or indefinite themselves.
        row("bytes_uint_chunk", "5f 00 ff", ChunkType, 1, 1),
        row("text_bytes_chunk", "7f 41 00 ff", ChunkType, 1, 1),
        row("bytes_second_chunk_text", "5f 41 00 61 00 ff", ChunkType, 3, 2),
        row("nested_chunk", "5f 5f 41 00 ff ff", NestedChunk, 1, 1),
        // Breaks where none may stand.
        row("break_alone", "ff", UnexpectedBreak, 0, 0),
        row("break_in_definite_array", "81 ff", UnexpectedBreak, 1, 1),
        row("break_in_definite_in_indefinite", "9f 81 ff", UnexpectedBreak, 2, 2),
        row("break_as_map_value", "bf 00 ff", MapMissingValue, 2, 2),
        // Indefinite length on major types 0, 1, 6.
        row("indefinite_uint", "1f", IndefiniteNotAllowed, 0, 0),
        row("indefinite_nint", "3f", IndefiniteNotAllowed, 0, 0),
        row("indefinite_tag", "df", IndefiniteNotAllowed, 0, 0),
        row("indefinite_uint_in_array", "81 1f", IndefiniteNotAllowed, 1, 1),
        // Invalid UTF-8: at the first byte of the first bad sequence.
        row("utf8_bad_continuation", "62 c3 28", InvalidUtf8, 1, 0),
        row("utf8_lone_continuation", "63 61 80 61", InvalidUtf8, 2, 0),
        row("utf8_surrogate_in_array", "82 61 61 62 ed a0", InvalidUtf8, 4, 2),
        row("utf8_overlong_in_chunk", "7f 61 61 62 c0 80 ff", InvalidUtf8, 4, 2),
        row("utf8_above_10ffff", "64 f4 90 80 80", InvalidUtf8, 1, 0),
        // Nesting deeper than 512 (arrays and tags both count): at the head
        // that tries to open level 513.
        Row {
            name: "depth_513_arrays",
            input: deep_arrays,
            status: Depth,
            offset: 512,
            before: 512,
        },
        Row { name: "depth_513_tags", input: deep_tags, status: Depth, offset: 512, before: 512 },
    ]
}

#[test]
fn decode_and_document_report_status_and_offset() {
    for r in rows() {
        let e = decode(&r.input).expect_err(r.name);
        assert_eq!((e.status, e.offset), (r.status, r.offset), "{} decode", r.name);
        assert_eq!(e.code, r.status.code(), "{}", r.name);
        assert!(!e.message.is_empty(), "{}", r.name);
        let e = Document::parse(&r.input).expect_err(r.name);
        assert_eq!((e.status, e.offset), (r.status, r.offset), "{} document", r.name);
    }
}

#[test]
fn sequence_reports_the_error_once_then_ends() {
    for r in rows() {
        let mut seq = Sequence::new(&r.input).unwrap();
        let e = seq.next().expect(r.name).expect_err(r.name);
        assert_eq!((e.status, e.offset), (r.status, r.offset), "{} sequence", r.name);
        assert!(seq.next().is_none(), "{}: a sequence ends after its error", r.name);
    }
}

#[test]
fn reader_delivers_earlier_items_then_a_sticky_error() {
    for r in rows() {
        let mut rd = Reader::new(&r.input).unwrap();
        let mut delivered = 0;
        let e = loop {
            match rd.next_item() {
                Ok(Some(_)) => delivered += 1,
                Ok(None) => panic!("{}: no error", r.name),
                Err(e) => break e,
            }
        };
        assert_eq!(delivered, r.before, "{} items before the error", r.name);
        assert_eq!((e.status, e.offset), (r.status, r.offset), "{} reader", r.name);
        // Sticky through every entry point.
        for _ in 0..2 {
            assert_eq!(rd.next_item(), Err(e), "{}", r.name);
        }
        assert_eq!(rd.skip_item(), Err(e), "{}", r.name);
        assert_eq!(rd.skip_to_end(), Err(e), "{}", r.name);
        assert_eq!(rd.finish(), Err(e), "{}", r.name);
        // As an iterator: the error once, then the end.
        let mut it = Reader::new(&r.input).unwrap();
        let results: Vec<_> = it.by_ref().collect();
        assert_eq!(results.len(), r.before + 1, "{}", r.name);
        assert_eq!(results.last().unwrap().as_ref().unwrap_err(), &e, "{}", r.name);
        assert!(it.next().is_none());
    }
}

#[test]
fn status_groups_match_the_library_blocks() {
    for r in rows() {
        let malformed = !matches!(r.status, Status::InvalidUtf8 | Status::Depth);
        assert_eq!(r.status.is_malformed(), malformed, "{}", r.name);
    }
}

#[test]
fn empty_input_and_trailing_bytes() {
    // No item at all: input ends where one is due.
    let e = decode(&[]).unwrap_err();
    assert_eq!((e.status, e.offset), (Status::Truncated, 0));
    assert!(Sequence::new(&[]).unwrap().next().is_none());
    assert_eq!(Reader::new(&[]).unwrap().next_item(), Ok(None));

    // decode() wants exactly one item; the reader and sequences do not.
    let two = hex("01 02");
    let e = decode(&two).unwrap_err();
    assert_eq!((e.status, e.offset), (Status::TrailingBytes, 1));
    let opts = DecodeOptions { exact: false, ..DecodeOptions::default() };
    let doc = Document::parse_with(&two, &opts).unwrap();
    assert_eq!(doc.encoded_size(), 1);
    assert_eq!(doc.to_value().unwrap(), Value::Unsigned(1));
    let items: Vec<Value> = Sequence::new(&two).unwrap().map(Result::unwrap).collect();
    assert_eq!(items, vec![Value::Unsigned(1), Value::Unsigned(2)]);
    // finish() says what is left.
    let mut rd = Reader::new(&two).unwrap();
    rd.next_item().unwrap();
    assert_eq!(rd.finish().unwrap_err().status, Status::TrailingBytes);
}

#[test]
fn sequence_errors_have_absolute_offsets() {
    // The bad item is the second one; offsets count from the buffer start.
    for (h, status, offset) in [
        ("01 81", Status::Truncated, 1),
        ("00 ff", Status::UnexpectedBreak, 1),
        ("61 61 62 c3 28", Status::InvalidUtf8, 3),
        ("80 9f 01", Status::Truncated, 3),
    ] {
        let input = hex(h);
        let mut seq = Sequence::new(&input).unwrap();
        assert!(seq.next().unwrap().is_ok(), "{h}");
        let e = seq.next().unwrap().unwrap_err();
        assert_eq!((e.status, e.offset), (status, offset), "{h}");
        assert!(seq.next().is_none());
    }
}

#[test]
fn depth_limit_is_configurable() {
    let mut input = vec![0x81u8; 10];
    input.push(0x00);
    let opts = DecodeOptions { max_depth: 10, ..DecodeOptions::default() };
    assert!(cbor_fast::decode_with(&input, &opts).is_ok());
    let opts = DecodeOptions { max_depth: 9, ..DecodeOptions::default() };
    let e = cbor_fast::decode_with(&input, &opts).unwrap_err();
    assert_eq!((e.status, e.offset), (Status::Depth, 9));

    let mut rd = Reader::new(&input).unwrap();
    rd.set_max_depth(9).unwrap();
    let e = rd.by_ref().find_map(Result::err).unwrap();
    assert_eq!((e.status, e.offset), (Status::Depth, 9));
}

#[test]
fn without_library_utf8_checks_rust_still_rejects_bad_text() {
    // validate_utf8 off: the library accepts the document, but no &str or
    // String is ever made from invalid bytes.
    let input = hex("82 61 61 62 c3 28");
    let opts = DecodeOptions { validate_utf8: false, ..DecodeOptions::default() };
    let doc = Document::parse_with(&input, &opts).unwrap();
    let bad = doc.root().at(1).unwrap();
    assert_eq!(bad.as_text_bytes(), Some(&input[4..]));
    assert_eq!(bad.as_str(), None);
    let e = doc.to_value().unwrap_err();
    // Reported at the text's head (the document does not expose the bad byte).
    assert_eq!((e.status, e.offset), (Status::InvalidUtf8, 3));
}
