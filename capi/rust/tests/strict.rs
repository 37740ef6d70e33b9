//! Strict checks (duplicate keys, deterministic encoding) and the decode
//! limits through every entry point (decode, Document, Sequence, Reader), and
//! the batched C reader call against one call per item.
//!
//! Expected statuses and offsets are read off the bytes in the comments.
mod common;

use cbor_fast::{DecodeOptions, Document, Reader, Sequence, Status, Value, decode_with, ffi};
use common::hex;

/// Every entry point that takes DecodeOptions fails with (status, offset).
/// The Reader gets the same options (without max_memory) and must hand out
/// `reader_items_before` items first.
fn fails_everywhere(
    data: &[u8],
    opts: DecodeOptions,
    status: Status,
    offset: usize,
    reader_items_before: usize,
) {
    let e = decode_with(data, &opts).unwrap_err();
    assert_eq!((e.status, e.offset), (status, offset), "decode_with");
    let e = Document::parse_with(data, &opts).unwrap_err();
    assert_eq!((e.status, e.offset), (status, offset), "Document::parse_with");
    let mut seq = Sequence::with_options(data, &opts).unwrap();
    let e = seq.next().unwrap().unwrap_err();
    assert_eq!((e.status, e.offset), (status, offset), "Sequence");
    if opts.max_memory == 0 {
        let mut r = Reader::with_options(data, &opts).unwrap();
        for k in 0..reader_items_before {
            assert!(r.next_item().unwrap().is_some(), "reader item {k}");
        }
        let e = r.next_item().unwrap_err();
        assert_eq!((e.status, e.offset), (status, offset), "Reader");
    }
}

// {"a": 1, "a": 2}: a2 | 61 61 | 01 | 61 61 (second key, offset 4) | 02
const DUPLICATE: &str = "a2 6161 01 6161 02";

#[test]
fn duplicate_key_is_refused_at_the_second_key() {
    let data = hex(DUPLICATE);
    // Off by default: both pairs are kept.
    assert_eq!(
        decode_with(&data, &DecodeOptions::new()).unwrap().as_map().map(|m| m.len()),
        Some(2)
    );
    let opts = DecodeOptions::new().reject_duplicate_keys(true);
    fails_everywhere(&data, opts, Status::DuplicateKey, 4, 3);
    // Equal by value: 1 and 18 01. a2 01 00 | 18 01 (offset 3) | 00
    fails_everywhere(&hex("a2 01 00 1801 00"), opts, Status::DuplicateKey, 3, 3);
    // Distinct keys pass.
    assert!(decode_with(&hex("a2 6161 01 6162 02"), &opts).is_ok());
    // Through the reader setter too.
    let mut r = Reader::new(&data).unwrap();
    r.set_reject_duplicate_keys(true).unwrap();
    let e = r.by_ref().filter_map(Result::err).next().unwrap();
    assert_eq!((e.status, e.offset, e.code), (Status::DuplicateKey, 4, 205));
}

#[test]
fn deterministic_violations() {
    let opts = DecodeOptions::new().deterministic(true);
    // {2: 0, 1: 0}: a2 | 02 | 00 | 01 (offset 3) | 00
    fails_everywhere(&hex("a2 02 00 01 00"), opts, Status::UnsortedKeys, 3, 3);
    // 5 in a two-byte head: 18 05 at 0
    fails_everywhere(&hex("1805"), opts, Status::NotPreferred, 0, 0);
    // [_ 1]: 9f at 0
    fails_everywhere(&hex("9f 01 ff"), opts, Status::IndefiniteLength, 0, 0);
    // 1.0 as a float64 (fits a half): fb at 0
    fails_everywhere(&hex("fb 3ff0000000000000"), opts, Status::NotPreferred, 0, 0);
    // Equal keys under deterministic: duplicate_key at the second (offset 4).
    fails_everywhere(&hex(DUPLICATE), opts, Status::DuplicateKey, 4, 3);
    // Sorted and shortest passes; not checked without the option.
    assert!(decode_with(&hex("a2 01 00 02 00"), &opts).is_ok());
    assert!(decode_with(&hex("a2 02 00 01 00"), &DecodeOptions::new()).is_ok());
}

#[test]
fn max_string_length() {
    // A 10-byte text: 6a at 0
    let mut ten = hex("6a");
    ten.extend_from_slice(b"0123456789");
    fails_everywhere(&ten, DecodeOptions::new().max_string_length(9), Status::StringTooLong, 0, 0);
    assert_eq!(
        decode_with(&ten, &DecodeOptions::new().max_string_length(10)).unwrap(),
        Value::Text("0123456789".into())
    );
    // (_ "01234" "56789"): 7f | 65 at 1 | 65 at 7, where the total crosses 9 | ff
    let mut joined = hex("7f 65");
    joined.extend_from_slice(b"01234");
    joined.extend_from_slice(&hex("65"));
    joined.extend_from_slice(b"56789");
    joined.extend_from_slice(&hex("ff"));
    let opts = DecodeOptions::new().max_string_length(9);
    // The reader hands out the start and the first chunk first.
    fails_everywhere(&joined, opts, Status::StringTooLong, 7, 2);
}

/// A 9-byte array (major 4) or map (5) head counting `n`, after `prefix`.
fn count_head(prefix: &str, major: u8, n: u64) -> Vec<u8> {
    let mut out = hex(prefix);
    out.push(major << 5 | 27);
    out.extend_from_slice(&n.to_be_bytes());
    out
}

/// `#define NAME VALUEu` of cbor_fast.h, parsed from the header.
fn header_define(name: &str) -> u64 {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../include/cbor_fast.h");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let key = format!("#define {name} ");
    let line = text.lines().find(|l| l.starts_with(&key)).unwrap_or_else(|| panic!("{name}"));
    line[key.len()..].trim().trim_end_matches('u').parse().unwrap()
}

#[test]
fn default_container_and_item_limits() {
    use cbor_fast::{DEFAULT_MAX_CONTAINER_ITEMS, DEFAULT_MAX_ITEMS};
    assert_eq!(DEFAULT_MAX_CONTAINER_ITEMS, 1 << 24);
    assert_eq!(DEFAULT_MAX_ITEMS, 1 << 28);
    assert_eq!(header_define("CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS"), DEFAULT_MAX_CONTAINER_ITEMS);
    assert_eq!(header_define("CBOR_FAST_DEFAULT_MAX_ITEMS"), DEFAULT_MAX_ITEMS);
    let n = DEFAULT_MAX_CONTAINER_ITEMS;
    let default = DecodeOptions::new();
    // (name, input, options, status, offset). A head alone: a count the
    // limit lets through is truncated (its entries are missing), one it
    // refuses is container_too_large, both at the head.
    let rows = [
        ("array_at_default_passes_the_limit", count_head("", 4, n), default, Status::Truncated, 0),
        ("array_one_over_default", count_head("", 4, n + 1), default, Status::ContainerTooLarge, 0),
        ("map_at_default_passes_the_limit", count_head("", 5, n), default, Status::Truncated, 0),
        ("map_one_over_default", count_head("", 5, n + 1), default, Status::ContainerTooLarge, 0),
        (
            "nested_one_over_default",
            count_head("82 00", 4, n + 1),
            default,
            Status::ContainerTooLarge,
            2,
        ),
        (
            "array_one_over_default.lifted_to_max",
            count_head("", 4, n + 1),
            DecodeOptions::new().max_container_items(u64::MAX),
            Status::Truncated,
            0,
        ),
        (
            "map_one_over_default.lifted_by_one",
            count_head("", 5, n + 1),
            DecodeOptions::new().max_container_items(n + 1),
            Status::Truncated,
            0,
        ),
    ];
    for (name, data, opts, status, offset) in rows {
        let items_before = usize::from(offset != 0) * 2; // 82 and 00 come out first
        eprintln!("row {name}");
        fails_everywhere(&data, opts, status, offset, items_before);
    }
    // The setter lifts it on a reader too.
    let over = count_head("", 4, n + 1);
    let mut r = Reader::new(&over).unwrap();
    r.set_max_container_items(u64::MAX).unwrap();
    let e = r.next_item().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::Truncated, 0));
}

#[test]
fn max_container_items_and_max_items() {
    // [1, 2, 3]: 83 at 0, items at 1, 2, 3
    let three = hex("83 01 02 03");
    fails_everywhere(
        &three,
        DecodeOptions::new().max_container_items(2),
        Status::ContainerTooLarge,
        0,
        0,
    );
    assert!(decode_with(&three, &DecodeOptions::new().max_container_items(3)).is_ok());
    // Four data items; the fourth (03) is at 3.
    fails_everywhere(&three, DecodeOptions::new().max_items(3), Status::TooManyItems, 3, 3);
    assert!(decode_with(&three, &DecodeOptions::new().max_items(4)).is_ok());
    // Per item in a sequence: 01 | 83 01 02 03 (its fourth item at 4).
    let mut seq_data = hex("01");
    seq_data.extend_from_slice(&three);
    let mut seq = Sequence::with_options(&seq_data, &DecodeOptions::new().max_items(3)).unwrap();
    assert_eq!(seq.next().unwrap().unwrap(), Value::Unsigned(1));
    let e = seq.next().unwrap().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::TooManyItems, 4));
}

#[test]
fn max_memory() {
    // An array of 100000 uints 1: 9a 00 01 86 a0, then 100000 bytes 01.
    let mut data = hex("9a 00 01 86 a0");
    data.resize(5 + 100_000, 0x01);
    let opts = DecodeOptions::new().max_memory(65536);
    let e = decode_with(&data, &opts).unwrap_err();
    assert_eq!((e.status, e.code), (Status::MemoryBudget, 305));
    assert!(e.offset < data.len());
    let e = Document::parse_with(&data, &opts).unwrap_err();
    assert_eq!(e.status, Status::MemoryBudget);
    let e = Sequence::with_options(&data, &opts).unwrap().next().unwrap().unwrap_err();
    assert_eq!(e.status, Status::MemoryBudget);
    assert!(decode_with(&data, &DecodeOptions::new().max_memory(64 << 20)).is_ok());
    // Not a reader option.
    let e = Reader::with_options(&data, &opts).unwrap_err();
    assert_eq!(e.status, Status::InvalidArgument);
}

/// Every item of `data` through cbor_reader_next, and through
/// cbor_reader_next_batch with `capacity` items per call.
fn walk(data: &[u8], capacity: usize) -> Vec<ffi::cbor_fast_item> {
    let mut out = Vec::new();
    // SAFETY: the buffer outlives the handle, freed before returning; the
    // batch array holds `capacity` elements.
    unsafe {
        let mut r = std::ptr::null_mut();
        assert_eq!(
            ffi::cbor_reader_new(data.as_ptr().cast(), data.len(), std::ptr::null(), &mut r),
            0
        );
        if capacity == 0 {
            let mut it = ffi::cbor_fast_item::INIT;
            while ffi::cbor_reader_next(r, &mut it) == ffi::CBOR_FAST_OK {
                out.push(it);
            }
        } else {
            let mut items = vec![ffi::cbor_fast_item::INIT; capacity];
            let mut n = 0usize;
            loop {
                let s = ffi::cbor_reader_next_batch(r, items.as_mut_ptr(), capacity, &mut n);
                if s != ffi::CBOR_FAST_OK {
                    assert_eq!((s, n), (ffi::CBOR_FAST_END, 0));
                    break;
                }
                assert!(n >= 1 && n <= capacity);
                out.extend_from_slice(&items[..n]);
            }
        }
        ffi::cbor_reader_free(r);
    }
    out
}

fn key(it: &ffi::cbor_fast_item) -> (u32, u32, u32, usize, u32, u32, u64, u64, usize, usize) {
    (
        it.type_,
        it.flags,
        it.depth,
        it.offset,
        it.head_size,
        it.float_width,
        it.value,
        it.float_value.to_bits(),
        it.data as usize,
        it.size,
    )
}

#[test]
fn batch_iteration_equals_single_items_on_the_corpus() {
    for (name, data) in common::corpus_files() {
        let single: Vec<_> = walk(&data, 0).iter().map(key).collect();
        assert!(single.len() > 1000, "{name}");
        for capacity in [1, 7, 256] {
            let batched: Vec<_> = walk(&data, capacity).iter().map(key).collect();
            assert!(batched == single, "{name}: batches of {capacity} differ");
        }
        // The safe Reader yields the same offsets and depths.
        let reader: Vec<(usize, u32)> =
            Reader::new(&data).unwrap().map(|i| i.map(|i| (i.offset, i.depth)).unwrap()).collect();
        let expected: Vec<(usize, u32)> = single.iter().map(|k| (k.3, k.2)).collect();
        assert!(reader == expected, "{name}: Reader differs");
    }
}

#[test]
fn batch_stops_before_an_error_and_reports_it_next() {
    // 83 01 02 then 1c (reserved additional information) at 3.
    let data = hex("83 01 02 1c");
    // SAFETY: as in walk().
    unsafe {
        let mut r = std::ptr::null_mut();
        assert_eq!(
            ffi::cbor_reader_new(data.as_ptr().cast(), data.len(), std::ptr::null(), &mut r),
            0
        );
        let mut items = [ffi::cbor_fast_item::INIT; 8];
        let mut n = 99usize;
        assert_eq!(ffi::cbor_reader_next_batch(r, items.as_mut_ptr(), 8, &mut n), 0);
        assert_eq!(n, 3);
        assert_eq!(
            ffi::cbor_reader_next_batch(r, items.as_mut_ptr(), 8, &mut n),
            ffi::CBOR_FAST_ERR_RESERVED_AI
        );
        assert_eq!(n, 0);
        let mut e = ffi::cbor_fast_error::INIT;
        ffi::cbor_reader_error(r, &mut e);
        assert_eq!(e.offset, 3);
        ffi::cbor_reader_free(r);
    }
}
