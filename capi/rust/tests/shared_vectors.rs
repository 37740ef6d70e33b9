//! The shared test vectors (tests/vectors/*.json) through the public API:
//! decode() of every RFC 8949 Appendix A row (its JSON value where the file
//! gives one, encode() back to the same bytes where the row is preferred), the
//! code and offset of every not-well-formed row, every strict row with its
//! checks on, and every item-budget row through one Reader and one Sequence. Status names in the files are the C enumerators; their numbers
//! come from cbor_fast.h itself. The crate has no dependencies, so the JSON is
//! read by the small parser below (enough for these files: it rejects the rest).
mod common;

use std::collections::HashMap;
use std::path::PathBuf;

use cbor_fast::{DecodeOptions, Reader, Sequence, Value, decode_with, encode};
use common::{hex, to_hex};

#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    /// The number's text, so integers up to 2^64 - 1 and down to -2^64 stay exact.
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.at < self.s.len() && b" \t\r\n".contains(&self.s[self.at]) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) {
        self.ws();
        assert_eq!(self.s.get(self.at), Some(&c), "JSON: '{}' expected at {}", c as char, self.at);
        self.at += 1;
    }

    fn hex4(&mut self) -> u32 {
        let t = std::str::from_utf8(&self.s[self.at..self.at + 4]).unwrap();
        self.at += 4;
        u32::from_str_radix(t, 16).expect("JSON: bad \\u escape")
    }

    fn string(&mut self) -> String {
        self.eat(b'"');
        let mut out = Vec::new();
        loop {
            let c = self.s[self.at];
            self.at += 1;
            match c {
                b'"' => return String::from_utf8(out).expect("JSON: invalid UTF-8"),
                b'\\' => {
                    let e = self.s[self.at];
                    self.at += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let mut cp = self.hex4();
                            if (0xd800..0xdc00).contains(&cp) {
                                assert_eq!(
                                    &self.s[self.at..self.at + 2],
                                    b"\\u",
                                    "JSON: lone surrogate"
                                );
                                self.at += 2;
                                cp = 0x10000 + ((cp - 0xd800) << 10) + (self.hex4() - 0xdc00);
                            }
                            char::from_u32(cp).expect("JSON: bad code point")
                        }
                        _ => panic!("JSON: bad escape at {}", self.at),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                _ => out.push(c),
            }
        }
    }

    fn value(&mut self) -> Json {
        self.ws();
        match self.s[self.at] {
            b'{' => {
                self.at += 1;
                let mut members = Vec::new();
                self.ws();
                if self.s[self.at] == b'}' {
                    self.at += 1;
                    return Json::Obj(members);
                }
                loop {
                    let k = self.string();
                    self.eat(b':');
                    members.push((k, self.value()));
                    self.ws();
                    self.at += 1;
                    match self.s[self.at - 1] {
                        b',' => continue,
                        b'}' => return Json::Obj(members),
                        c => panic!("JSON: '{}' in an object at {}", c as char, self.at),
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s[self.at] == b']' {
                    self.at += 1;
                    return Json::Arr(items);
                }
                loop {
                    items.push(self.value());
                    self.ws();
                    self.at += 1;
                    match self.s[self.at - 1] {
                        b',' => continue,
                        b']' => return Json::Arr(items),
                        c => panic!("JSON: '{}' in an array at {}", c as char, self.at),
                    }
                }
            }
            b'"' => Json::Str(self.string()),
            b't' if self.s[self.at..].starts_with(b"true") => {
                self.at += 4;
                Json::Bool(true)
            }
            b'f' if self.s[self.at..].starts_with(b"false") => {
                self.at += 5;
                Json::Bool(false)
            }
            b'n' if self.s[self.at..].starts_with(b"null") => {
                self.at += 4;
                Json::Null
            }
            _ => {
                let start = self.at;
                while self.at < self.s.len() && b"+-.0123456789eE".contains(&self.s[self.at]) {
                    self.at += 1;
                }
                assert!(self.at > start, "JSON: unexpected byte at {start}");
                Json::Num(String::from_utf8(self.s[start..self.at].to_vec()).unwrap())
            }
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("..")
}

/// The rows of tests/vectors/<name> as field maps.
fn rows(name: &str) -> Vec<HashMap<String, Json>> {
    let text = std::fs::read(root().join("tests").join("vectors").join(name)).expect(name);
    let mut p = Parser { s: &text, at: 0 };
    let Json::Arr(items) = p.value() else { panic!("{name}: not an array") };
    p.ws();
    assert_eq!(p.at, text.len(), "{name}: bytes after the array");
    items
        .into_iter()
        .map(|r| match r {
            Json::Obj(members) => members.into_iter().collect(),
            other => panic!("{name}: row {other:?} is not an object"),
        })
        .collect()
}

fn text<'a>(row: &'a HashMap<String, Json>, key: &str) -> &'a str {
    match row.get(key) {
        Some(Json::Str(s)) => s,
        other => panic!("field {key}: {other:?}"),
    }
}

fn number(row: &HashMap<String, Json>, key: &str) -> usize {
    match row.get(key) {
        Some(Json::Num(s)) => s.parse().expect(key),
        other => panic!("field {key}: {other:?}"),
    }
}

/// CBOR_FAST_* enumerator -> value, from cbor_fast.h.
fn header_codes() -> HashMap<String, i32> {
    let h =
        std::fs::read_to_string(root().join("capi").join("include").join("cbor_fast.h")).unwrap();
    let mut codes = HashMap::new();
    for line in h.lines() {
        let line = line.trim_start();
        if let Some((name, rest)) = line.split_once(" = ") {
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if name.starts_with("CBOR_FAST_") && !digits.is_empty() {
                codes.insert(name.to_string(), digits.parse().unwrap());
            }
        }
    }
    assert_eq!(codes.get("CBOR_FAST_ERR_TRUNCATED"), Some(&100));
    codes
}

/// True when the decoded value is the JSON value: integers exactly, floats
/// bit for bit (-0.0 is not 0.0, 1.0 is not 1), text-keyed maps in order.
fn same(v: &Value, j: &Json) -> bool {
    match (v, j) {
        (Value::Null, Json::Null) => true,
        (Value::Bool(a), Json::Bool(b)) => a == b,
        (Value::Text(a), Json::Str(b)) => a == b,
        (Value::Float(f), Json::Num(s)) if s.contains(['.', 'e', 'E']) => {
            f.to_bits() == s.parse::<f64>().unwrap().to_bits()
        }
        (Value::Unsigned(n), Json::Num(s)) => s.parse::<u64>().ok() == Some(*n),
        (Value::Negative(n), Json::Num(s)) => {
            // -1 - n = s, so n = |s| - 1.
            s.strip_prefix('-').and_then(|m| m.parse::<u128>().ok()) == Some(*n as u128 + 1)
        }
        (Value::Array(a), Json::Arr(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Map(a), Json::Obj(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((k, x), (kj, y))| same(k, &Json::Str(kj.clone())) && same(x, y))
        }
        _ => false,
    }
}

fn options(checks: &[&str]) -> DecodeOptions {
    let mut o = DecodeOptions::default().validate_utf8(false);
    for c in checks {
        o = match *c {
            "utf8" => o.validate_utf8(true),
            "duplicate_keys" => o.reject_duplicate_keys(true),
            "deterministic" => o.deterministic(true),
            other => panic!("unknown check {other}"),
        };
    }
    o
}

#[test]
fn appendix_a() {
    let rows = rows("appendix_a.json");
    assert!(rows.len() >= 80);
    for r in &rows {
        let name = text(r, "name");
        let h = text(r, "hex");
        let v = decode_with(&hex(h), &options(&["utf8"])).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(want) = r.get("decoded") {
            assert!(same(&v, want), "{name}: decoded {v:?}, want {want:?}");
        }
        if r.get("roundtrip") == Some(&Json::Bool(true)) {
            assert_eq!(to_hex(&encode(&v).unwrap()), h, "{name}: encode(decode(hex))");
        }
    }
}

#[test]
fn malformed() {
    let codes = header_codes();
    let rows = rows("malformed.json");
    assert!(rows.len() >= 90);
    for r in &rows {
        let name = text(r, "name");
        let e = decode_with(&hex(text(r, "hex")), &options(&[])).expect_err(name);
        assert_eq!((e.code, e.offset), (codes[text(r, "status")], number(r, "offset")), "{name}");
    }
}

#[test]
fn strict() {
    let codes = header_codes();
    let rows = rows("strict.json");
    assert!(rows.len() >= 100);
    for r in &rows {
        let name = text(r, "name");
        let input = hex(text(r, "hex"));
        let Some(Json::Arr(checks)) = r.get("checks") else { panic!("{name}: checks") };
        let checks: Vec<&str> = checks
            .iter()
            .map(|c| match c {
                Json::Str(s) => s.as_str(),
                other => panic!("{name}: check {other:?}"),
            })
            .collect();
        let got = decode_with(&input, &options(&checks));
        match text(r, "status") {
            "CBOR_FAST_OK" => assert!(got.is_ok(), "{name}: {got:?}"),
            status => {
                let e = got.expect_err(name);
                assert_eq!((e.code, e.offset), (codes[status], number(r, "offset")), "{name}");
            }
        }
        // Without the checks every row is well-formed; a Value::Text must be
        // valid UTF-8 whatever the options, so the utf8 rows fail in Rust anyway.
        if !checks.contains(&"utf8") {
            assert!(decode_with(&input, &options(&[])).is_ok(), "{name} without checks");
        }
    }
}

/// max_items bounds each top-level item: one reader (item by item) and one
/// sequence (value by value) over the whole input stop at the same head.
#[test]
fn item_budget() {
    let codes = header_codes();
    let rows = rows("item_budget.json");
    assert!(rows.len() >= 15);
    for r in &rows {
        let name = text(r, "name");
        let data = hex(text(r, "hex"));
        let options = DecodeOptions::new().max_items(number(r, "max_items") as u64);
        let mut reader = Reader::with_options(&data, &options).expect(name);
        let by_reader = loop {
            match reader.next_item() {
                Ok(Some(_)) => continue,
                Ok(None) => break None,
                Err(e) => break Some((e.code, e.offset)),
            }
        };
        let by_sequence = Sequence::with_options(&data, &options)
            .expect(name)
            .find_map(|v| v.err())
            .map(|e| (e.code, e.offset));
        let want = match text(r, "status") {
            "CBOR_FAST_OK" => None,
            status => Some((codes[status], number(r, "offset"))),
        };
        assert_eq!(by_reader, want, "{name} by Reader");
        assert_eq!(by_sequence, want, "{name} by Sequence");
    }
}
