//! `Value` at depths far beyond the default limit: decode, compare, clone,
//! print, encode and drop in a thread with a 2 MiB stack, none recursing.
use cbor_fast::{DecodeOptions, Status, Value, decode, decode_with, encode};

const DEPTH: usize = 100_000;

fn in_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(2 << 20).spawn(f).unwrap().join().unwrap();
}

/// `DEPTH` levels of `kind` (0x81 array, 0xa1 map with key 0, 0xc6 tag 6)
/// around a 1.
fn deep(kind: u8) -> Vec<u8> {
    let mut v = Vec::new();
    for _ in 0..DEPTH {
        v.push(kind);
        if kind == 0xa1 {
            v.push(0x00);
        }
    }
    v.push(0x01);
    v
}

#[test]
fn hundred_thousand_levels_in_a_two_mib_stack() {
    in_small_stack(|| {
        // 100k levels hold more than the default memory budget (32 bytes per
        // input byte): lifted with the depth limit.
        let opts = DecodeOptions::new().max_depth(DEPTH as u32 + 1).max_memory(u64::MAX);
        for kind in [0x81u8, 0xa1, 0xc6] {
            let data = deep(kind);
            // The default limit refuses it at the 513th head.
            let e = decode(&data).unwrap_err();
            assert_eq!(e.status, Status::Depth, "{kind:#x}");
            let v = decode_with(&data, &opts).unwrap();
            assert_eq!(encode(&v).unwrap(), data, "{kind:#x}");
            let copy = v.clone();
            assert_eq!(copy, v);
            let text = format!("{v:?}");
            let (open, inner) = match kind {
                0x81 => ("Array([", "Unsigned(1)"),
                0xa1 => ("Map([(Unsigned(0), ", "Unsigned(1)"),
                _ => ("Tag(6, ", "Unsigned(1)"),
            };
            assert!(text.starts_with(&open.repeat(3)), "{kind:#x}: {}", &text[..60]);
            assert_eq!(text.matches(open).count(), DEPTH, "{kind:#x}");
            assert!(text.contains(inner));
            drop(copy);
            drop(v);
        }
        // A deep value built by hand drops and prints the same way.
        let mut v = Value::Null;
        for i in 0..DEPTH {
            v = if i % 2 == 0 { Value::Array(vec![v]) } else { Value::Tag(1, Box::new(v)) };
        }
        assert_eq!(
            format!("{v:?}").len(),
            DEPTH / 2 * ("Array([".len() + "])".len() + "Tag(1, ".len() + ")".len()) + 4
        );
        drop(v);
    });
}

#[test]
fn debug_matches_the_derived_format() {
    let v = Value::Map(vec![
        (Value::from("a"), Value::Array(vec![1.into(), Value::Null, Value::Float(1.5)])),
        (Value::Negative(0), Value::Tag(32, Box::new(Value::from("u")))),
        (Value::Bytes(vec![1, 2]), Value::Array(vec![])),
        (Value::Simple(16), Value::BigNum { negative: true, magnitude: vec![1, 0] }),
        (Value::Bool(true), Value::Map(vec![])),
    ]);
    assert_eq!(
        format!("{v:?}"),
        "Map([(Text(\"a\"), Array([Unsigned(1), Null, Float(1.5)])), \
         (Negative(0), Tag(32, Text(\"u\"))), (Bytes([1, 2]), Array([])), \
         (Simple(16), BigNum { negative: true, magnitude: [1, 0] }), (Bool(true), Map([]))])"
    );
    assert_eq!(
        format!("{:#?}", Value::Array(vec![1.into(), Value::Undefined])),
        "Array([\n    Unsigned(1),\n    Undefined,\n])"
    );
    let c = v.clone();
    assert_eq!(format!("{c:?}"), format!("{v:?}"));
}
