//! The Rust status list against the `cbor_fast_status` enum of
//! capi/include/cbor_fast.h, parsed from the header itself.
use cbor_fast::{Status, ffi};

/// `(name, value)` of every `CBOR_FAST_OK`/`END`/`NEED_MORE`/`ERR_*` enumerator.
fn header_statuses() -> Vec<(String, i32)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../include/cbor_fast.h");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // The enum runs from "CBOR_FAST_OK = 0" to the typedef's closing brace.
    let start = text.find("CBOR_FAST_OK = 0").expect("status enum in the header");
    let end = start + text[start..].find("} cbor_fast_status;").expect("end of the status enum");
    let mut out = Vec::new();
    for line in text[start..end].lines() {
        let line = line.trim();
        let Some(name) = line.split([' ', '=']).next().filter(|n| n.starts_with("CBOR_FAST_"))
        else {
            continue;
        };
        let value = line
            .split('=')
            .nth(1)
            .and_then(|v| v.trim().split([',', ' ']).next())
            .and_then(|v| v.parse::<i32>().ok())
            .unwrap_or_else(|| panic!("no value in {line:?}"));
        out.push((name.to_string(), value));
    }
    out
}

#[test]
fn every_header_status_has_a_variant_and_back() {
    let header = header_statuses();
    assert_eq!(header[0], ("CBOR_FAST_OK".to_string(), ffi::CBOR_FAST_OK));
    assert_eq!(header[1], ("CBOR_FAST_END".to_string(), ffi::CBOR_FAST_END));
    // Not an error either (streaming input; since 0.5): no Status variant.
    assert_eq!(header[2], ("CBOR_FAST_NEED_MORE".to_string(), ffi::CBOR_FAST_NEED_MORE));
    let errors: Vec<&(String, i32)> = header.iter().skip(3).collect();
    assert!(errors.iter().all(|(n, _)| n.starts_with("CBOR_FAST_ERR_")), "{errors:?}");
    for (name, code) in &errors {
        let s = Status::from_code(*code);
        assert_ne!(s, Status::Unknown, "{name} = {code} has no Status variant");
        assert_eq!(s.code(), *code, "{name}");
        assert_ne!(s.name(), "unknown", "{name}: the library has no name for it");
    }
    // The hand-written ffi constants: same names, same values, same order.
    let ffi_src = include_str!("../cbor-fast-sys/src/lib.rs");
    let declared: Vec<(String, i32)> = ffi_src
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub const "))
        .filter(|l| l.contains(": cbor_fast_status ="))
        .map(|l| {
            let (name, rest) = l.split_once(':').unwrap();
            let value = rest.split('=').nth(1).unwrap().trim().trim_end_matches(';');
            (name.trim().to_string(), value.parse().unwrap())
        })
        .collect();
    assert_eq!(declared, header, "cbor-fast-sys status constants and the header differ");
    let header_codes: Vec<i32> = errors.iter().map(|(_, c)| *c).collect();
    let rust_codes: Vec<i32> = Status::ALL.iter().map(|s| s.code()).collect();
    assert_eq!(rust_codes, header_codes, "Status::ALL and the header list differ");
}
