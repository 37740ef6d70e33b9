//! Helpers shared by the integration tests (each test file uses a subset).
#![allow(dead_code)]

use std::path::PathBuf;

use cbor_fast::Value;

/// Bytes from hex digits; spaces are ignored.
pub fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(digits.len() % 2 == 0, "odd hex string {s:?}");
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).expect("hex digit"))
        .collect()
}

pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn arr(items: Vec<Value>) -> Value {
    Value::Array(items)
}

pub fn map(pairs: Vec<(Value, Value)>) -> Value {
    Value::Map(pairs)
}

pub fn tag(t: u64, v: Value) -> Value {
    Value::Tag(t, Box::new(v))
}

/// The shared benchmark corpus: $CBOR_FAST_CORPUS_DIR (set by the ctest) or
/// ../../../shared/corpus from this crate, as in the repository layout.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("CBOR_FAST_CORPUS_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    }
}

/// Every *.cbor file of the corpus, sorted by name; fails if there are none.
pub fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir();
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus directory {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cbor"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .cbor files in {}", dir.display());
    files
}

/// Small deterministic PRNG (SplitMix64): fixed seeds, reproducible runs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, n) (n > 0; the tiny modulo bias does not matter here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// Takes a value of any depth apart without recursion, by hand (`Value`'s
/// own `Drop` does the same since 0.4; kept so the tests say so explicitly).
pub fn drop_deep(v: Value) {
    let mut pending = vec![v];
    while let Some(mut v) = pending.pop() {
        match &mut v {
            Value::Array(items) => pending.append(items),
            Value::Map(pairs) => {
                for (k, x) in pairs.drain(..) {
                    pending.push(k);
                    pending.push(x);
                }
            }
            Value::Tag(_, content) => pending.push(std::mem::replace(&mut **content, Value::Null)),
            _ => {}
        }
    }
}
