//! Decode/encode throughput over the shared corpus, by hand:
//!
//!     CBOR_FAST_LIB_DIR=<dir of libcbor_fast.so> cargo run --release --example bench [corpus dir]
//!
//! For each file: the raw C reader loop through `ffi` (the floor: what a C
//! caller pays), the same loop with `cbor_reader_next_batch`, the safe `Reader` walk (same loop plus token building and
//! `from_utf8` on every text), `Document::parse`, `decode` to an owned
//! `Value`, `encode` of that value, and the document re-encoded as read.
//! Throughput is input file bytes per second (median of several rounds).
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use cbor_fast::{Document, Reader, Token, decode, encode, ffi};

/// Median seconds per call of `f`, over rounds of at least ~100 ms.
fn time<F: FnMut()>(mut f: F) -> f64 {
    f(); // warm up
    let mut per_call = Vec::new();
    for _ in 0..7 {
        let start = Instant::now();
        let mut n = 0u32;
        while start.elapsed() < Duration::from_millis(100) {
            f();
            n += 1;
        }
        per_call.push(start.elapsed().as_secs_f64() / f64::from(n));
    }
    per_call.sort_by(|a, b| a.partial_cmp(b).unwrap());
    per_call[per_call.len() / 2]
}

/// Every item through cbor_reader_next; the sum of depths and string sizes
/// stands for work a caller does with each item.
fn c_walk(data: &[u8]) -> usize {
    let mut sum = 0;
    // SAFETY: the buffer outlives the handle, which is freed before returning.
    unsafe {
        let mut r = std::ptr::null_mut();
        assert_eq!(
            ffi::cbor_reader_new(data.as_ptr().cast(), data.len(), std::ptr::null(), &mut r),
            0
        );
        let mut it = ffi::cbor_fast_item::INIT;
        while ffi::cbor_reader_next(r, &mut it) == ffi::CBOR_FAST_OK {
            sum += it.depth as usize + it.size;
        }
        ffi::cbor_reader_free(r);
    }
    sum
}

/// The same through cbor_reader_next_batch, 256 items per call: what a
/// batch saves over one call per item when the call itself is cheap.
fn c_walk_batch(data: &[u8]) -> usize {
    let mut sum = 0;
    let mut items = [ffi::cbor_fast_item::INIT; 256];
    // SAFETY: as c_walk; the batch array holds `items.len()` elements.
    unsafe {
        let mut r = std::ptr::null_mut();
        assert_eq!(
            ffi::cbor_reader_new(data.as_ptr().cast(), data.len(), std::ptr::null(), &mut r),
            0
        );
        let mut n = 0usize;
        while ffi::cbor_reader_next_batch(r, items.as_mut_ptr(), items.len(), &mut n)
            == ffi::CBOR_FAST_OK
        {
            for it in &items[..n] {
                sum += it.depth as usize + it.size;
            }
        }
        ffi::cbor_reader_free(r);
    }
    sum
}

/// The same through the safe Reader. (Consuming fields, not black_box(item):
/// forcing whole items through memory would measure store-forwarding stalls
/// of the benchmark itself.)
fn rust_walk(data: &[u8]) -> usize {
    let mut sum = 0;
    for item in Reader::new(data).unwrap() {
        let item = item.unwrap();
        sum += item.depth as usize
            + match item.token {
                Token::Text(s) => s.len(),
                Token::Bytes(b) => b.len(),
                _ => 0,
            };
    }
    sum
}

fn main() {
    let dir = std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("CBOR_FAST_CORPUS_DIR").map(PathBuf::from).unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        })
    });
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cbor"))
        .collect();
    files.sort();
    let (major, minor, patch) = cbor_fast::library_version();
    println!(
        "libcbor_fast {major}.{minor}.{patch}; MB/s of input (1 MB = 10^6 bytes), median of 7 rounds"
    );
    println!(
        "{:<18} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "file", "C walk", "C batch", "Reader", "Document", "decode", "encode", "doc enc"
    );
    for path in files {
        let data = std::fs::read(&path).unwrap();
        let mb = data.len() as f64 / 1e6;
        let value = decode(&data).unwrap();
        let doc = Document::parse(&data).unwrap();
        assert_eq!(c_walk(&data), rust_walk(&data));
        assert_eq!(c_walk(&data), c_walk_batch(&data));

        let c = time(|| {
            black_box(c_walk(black_box(&data)));
        });
        let c_batch = time(|| {
            black_box(c_walk_batch(black_box(&data)));
        });
        let reader = time(|| {
            black_box(rust_walk(black_box(&data)));
        });
        let parse = time(|| {
            black_box(Document::parse(black_box(&data)).unwrap());
        });
        let dec = time(|| {
            black_box(decode(black_box(&data)).unwrap());
        });
        let enc = time(|| {
            black_box(encode(black_box(&value)).unwrap());
        });
        let doc_enc = time(|| {
            black_box(doc.encode(false).unwrap());
        });
        println!(
            "{:<18} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>9.0}",
            path.file_name().unwrap().to_string_lossy(),
            mb / c,
            mb / c_batch,
            mb / reader,
            mb / parse,
            mb / dec,
            mb / enc,
            mb / doc_enc
        );
    }
}
