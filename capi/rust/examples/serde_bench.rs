//! serde benchmark: cbor_fast against serde_cbor, ciborium and minicbor (via
//! minicbor-serde) on the shared corpus mapped to typed structs (twitter
//! partial, citm_catalog, canada) and on one small message (a citm_catalog
//! `Price`, where the fixed cost of a call shows), side by side in one
//! process.
//!
//!     CBOR_FAST_CORPUS_DIR=../../../shared/corpus \
//!       cargo run --release --features serde --example serde_bench [rounds]
//!
//! Each cell is the median over `rounds` (default 15) rounds; a round times
//! every library once on the operation (about 10 ms of repetitions each), the
//! libraries interleaved so that load from other processes falls on all of
//! them alike. Every library's output is checked once before timing.
//!
//! The `from_reader` rows read the same bytes through `io::Read` (ciborium's
//! `from_reader` is its only way in, so its cells are the same as in the
//! `from_slice` rows; minicbor has no reader API).
//!
//! `serde_bench once` runs each operation exactly once and nothing else, for
//! instruction counts that do not depend on the machine's load:
//!
//!     valgrind --tool=callgrind --callgrind-out-file=cg.out serde_bench once
//!     callgrind_annotate --inclusive=yes cg.out | grep 'serde_bench::op_'
#[path = "../tests/common/corpus_types.rs"]
mod types;

use std::hint::black_box;
use std::time::{Duration, Instant};

use types::*;

fn corpus(name: &str) -> Vec<u8> {
    let dir = std::env::var("CBOR_FAST_CORPUS_DIR")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus").into());
    std::fs::read(format!("{dir}/{name}")).unwrap_or_else(|e| panic!("{dir}/{name}: {e}"))
}

/// One named, non-inlined function per library, operation and type, so that
/// callgrind reports each one's inclusive cost under its own name.
macro_rules! ops {
    ($($ty:ident $file:ident),*) => { paste_ops! { $($ty $file)* } };
}
macro_rules! paste_ops {
    ($($ty:ident $file:ident)*) => {$(
        mod $file {
            use super::*;
            #[inline(never)]
            pub fn op_de_cbor_fast(d: &[u8]) -> $ty { cbor_fast::serde::from_slice(d).unwrap() }
            #[inline(never)]
            pub fn op_de_serde_cbor(d: &[u8]) -> $ty { serde_cbor::from_slice(d).unwrap() }
            #[inline(never)]
            pub fn op_de_ciborium(d: &[u8]) -> $ty { ciborium::from_reader(d).unwrap() }
            #[inline(never)]
            pub fn op_de_minicbor(d: &[u8]) -> $ty { minicbor_serde::from_slice(d).unwrap() }
            #[inline(never)]
            pub fn op_en_cbor_fast(v: &$ty) -> Vec<u8> { cbor_fast::serde::to_vec(v).unwrap() }
            #[inline(never)]
            pub fn op_en_serde_cbor(v: &$ty) -> Vec<u8> { serde_cbor::to_vec(v).unwrap() }
            #[inline(never)]
            pub fn op_en_ciborium(v: &$ty) -> Vec<u8> {
                let mut out = Vec::with_capacity(128);
                ciborium::into_writer(v, &mut out).unwrap();
                out
            }
            #[inline(never)]
            pub fn op_en_minicbor(v: &$ty) -> Vec<u8> { minicbor_serde::to_vec(v).unwrap() }

            /// From an `io::Read` (the bytes as a slice reader): minicbor
            /// has no reader API.
            #[inline(never)]
            pub fn op_rd_cbor_fast(d: &[u8]) -> $ty { cbor_fast::serde::from_reader(d).unwrap() }
            #[inline(never)]
            pub fn op_rd_serde_cbor(d: &[u8]) -> $ty { serde_cbor::from_reader(d).unwrap() }

            pub fn rd_all() -> [fn(&[u8]) -> $ty; 3] {
                [op_rd_cbor_fast, op_rd_serde_cbor, op_de_ciborium]
            }

            pub fn de_all() -> [fn(&[u8]) -> $ty; 4] {
                [op_de_cbor_fast, op_de_serde_cbor, op_de_ciborium, op_de_minicbor]
            }
            pub fn en_all() -> [fn(&$ty) -> Vec<u8>; 4] {
                [op_en_cbor_fast, op_en_serde_cbor, op_en_ciborium, op_en_minicbor]
            }
        }
    )*};
}
ops!(Twitter twitter, Citm citm, Canada canada, Price small);

mod borrowed {
    use super::*;
    #[inline(never)]
    pub fn op_de_cbor_fast(d: &[u8]) -> TwitterRef<'_> {
        cbor_fast::serde::from_slice(d).unwrap()
    }
    #[inline(never)]
    pub fn op_de_serde_cbor(d: &[u8]) -> TwitterRef<'_> {
        serde_cbor::from_slice(d).unwrap()
    }
    #[inline(never)]
    pub fn op_de_minicbor(d: &[u8]) -> TwitterRef<'_> {
        minicbor_serde::from_slice(d).unwrap()
    }
}

const LIBS: [&str; 4] = ["cbor_fast", "serde_cbor", "ciborium", "minicbor"];

/// Medians of the per-call time of each closure, over `rounds` interleaved rounds.
fn medians(rounds: usize, fs: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    let reps: Vec<u32> = fs
        .iter_mut()
        .map(|f| {
            let t = Instant::now();
            f();
            let once = t.elapsed().max(Duration::from_micros(1));
            (Duration::from_millis(10).as_nanos() / once.as_nanos()).clamp(1, 10_000) as u32
        })
        .collect();
    let mut times = vec![Vec::with_capacity(rounds); fs.len()];
    for _ in 0..rounds {
        for (i, f) in fs.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..reps[i] {
                f();
            }
            times[i].push(t.elapsed() / reps[i]);
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2]
        })
        .collect()
}

/// Milliseconds, with more places below 0.1 ms (the small message).
fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1e3;
    if ms >= 0.1 { format!("{ms:.3}") } else { format!("{ms:.6}") }
}

fn row(label: &str, t: &[Option<Duration>]) {
    let ours = t[0].unwrap();
    let mut line = format!("| {label} | {} |", ms(ours));
    for d in &t[1..] {
        line += &match d {
            Some(d) => {
                format!(" {} ({:.2}x) |", ms(*d), d.as_secs_f64() / ours.as_secs_f64())
            }
            None => " n/a |".to_string(),
        };
    }
    println!("{line}");
}

/// Checks every library's result once, then times them.
fn bench<T: PartialEq + std::fmt::Debug>(
    name: &str,
    data: &[u8],
    rounds: usize,
    de: [fn(&[u8]) -> T; 4],
    en: [fn(&T) -> Vec<u8>; 4],
) {
    let values: Vec<T> = de.iter().map(|f| f(data)).collect();
    assert!(values.iter().all(|v| *v == values[0]), "{name}: decoders disagree");
    let ours = &values[0];
    let bytes: Vec<Vec<u8>> = en.iter().map(|f| f(ours)).collect();
    // serde_cbor and ciborium write the same bytes; minicbor writes float64s.
    assert_eq!(bytes[0], bytes[1], "{name}: serde_cbor bytes differ");
    assert_eq!(bytes[0], bytes[2], "{name}: ciborium bytes differ");
    assert!(de[0](&bytes[3]) == *ours, "{name}: minicbor's bytes read back");

    let mut fs: Vec<Box<dyn FnMut()>> = de
        .iter()
        .map(|&f| Box::new(move || drop(black_box(f(black_box(data))))) as Box<dyn FnMut()>)
        .collect();
    let mut refs: Vec<&mut dyn FnMut()> =
        fs.iter_mut().map(|f| &mut **f as &mut dyn FnMut()).collect();
    let t = medians(rounds, &mut refs);
    row(&format!("from_slice {name}"), &t.into_iter().map(Some).collect::<Vec<_>>());

    let mut fs: Vec<Box<dyn FnMut() + '_>> = en
        .iter()
        .map(|&f| Box::new(move || drop(black_box(f(black_box(ours))))) as Box<dyn FnMut()>)
        .collect();
    let mut refs: Vec<&mut dyn FnMut()> =
        fs.iter_mut().map(|f| &mut **f as &mut dyn FnMut()).collect();
    let t = medians(rounds, &mut refs);
    row(&format!("to_vec {name}"), &t.into_iter().map(Some).collect::<Vec<_>>());
}

/// `from_reader` over an `io::Read` (ciborium's only reading API; minicbor
/// has none), checked equal to `from_slice` first.
fn bench_reader<T: PartialEq + std::fmt::Debug>(
    name: &str,
    data: &[u8],
    rounds: usize,
    rd: [fn(&[u8]) -> T; 3],
    de: fn(&[u8]) -> T,
) {
    let want = de(data);
    assert!(rd.iter().all(|f| f(data) == want), "{name}: from_reader disagrees");
    let mut fs: Vec<Box<dyn FnMut()>> = rd
        .iter()
        .map(|&f| Box::new(move || drop(black_box(f(black_box(data))))) as Box<dyn FnMut()>)
        .collect();
    let mut refs: Vec<&mut dyn FnMut()> =
        fs.iter_mut().map(|f| &mut **f as &mut dyn FnMut()).collect();
    let t = medians(rounds, &mut refs);
    row(&format!("from_reader {name}"), &[Some(t[0]), Some(t[1]), Some(t[2]), None]);
}

fn bench_borrowed(data: &[u8], rounds: usize) {
    let ours = borrowed::op_de_cbor_fast(data);
    assert!(ours == borrowed::op_de_serde_cbor(data), "borrowed: serde_cbor disagrees");
    assert!(ours == borrowed::op_de_minicbor(data), "borrowed: minicbor disagrees");
    let mut a = || drop(black_box(borrowed::op_de_cbor_fast(black_box(data))));
    let mut b = || drop(black_box(borrowed::op_de_serde_cbor(black_box(data))));
    let mut c = || drop(black_box(borrowed::op_de_minicbor(black_box(data))));
    let t = medians(rounds, &mut [&mut a, &mut b, &mut c]);
    // ciborium reads from io::Read and cannot lend &str: no borrowed variant.
    row("from_slice twitter, borrowed &str", &[Some(t[0]), Some(t[1]), None, Some(t[2])]);
}

/// A small message: one citm_catalog `Price` (three integer fields, 58
/// bytes), where each call's fixed cost (setup, the first batch) shows.
fn small_message() -> Vec<u8> {
    let p =
        Price { amount: 90250, audience_sub_category_id: 337100890, seat_category_id: 338937295 };
    serde_cbor::to_vec(&p).unwrap()
}

fn main() {
    let twitter = corpus("twitter.cbor");
    let small_data = small_message();
    let citm_data = corpus("citm_catalog.cbor");
    let canada_data = corpus("canada.cbor");
    if std::env::args().nth(1).as_deref() == Some("once") {
        let (t, c, k) = (twitter::de_all(), citm::de_all(), canada::de_all());
        let s = small::de_all();
        for i in 0..4 {
            let tv = t[i](&twitter);
            twitter::en_all()[i](&tv);
            let cv = c[i](&citm_data);
            citm::en_all()[i](&cv);
            let kv = k[i](&canada_data);
            canada::en_all()[i](&kv);
        }
        borrowed::op_de_cbor_fast(&twitter);
        borrowed::op_de_serde_cbor(&twitter);
        borrowed::op_de_minicbor(&twitter);
        for i in 0..2 {
            twitter::rd_all()[i](&twitter);
            citm::rd_all()[i](&citm_data);
            canada::rd_all()[i](&canada_data);
        }
        // Last: the library's symbols are bound by now (lazy binding would
        // count in a first call).
        for (i, de) in s.iter().enumerate() {
            let sv = de(&small_data);
            small::en_all()[i](&sv);
        }
        println!("ran each of {LIBS:?} once per operation");
        return;
    }
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(15);
    println!("median of {rounds} interleaved rounds, ms per document (peer time, peer/cbor_fast)");
    println!();
    println!(
        "| operation | cbor_fast | serde_cbor 0.11.2 | ciborium 0.2.2 | minicbor-serde 0.7.2 |"
    );
    println!("|---|---|---|---|---|");
    bench("twitter (partial)", &twitter, rounds, twitter::de_all(), twitter::en_all());
    bench_borrowed(&twitter, rounds);
    bench("citm_catalog", &citm_data, rounds, citm::de_all(), citm::en_all());
    bench("canada", &canada_data, rounds, canada::de_all(), canada::en_all());
    bench("small struct", &small_data, rounds, small::de_all(), small::en_all());
    bench_reader(
        "twitter (partial)",
        &twitter,
        rounds,
        twitter::rd_all(),
        twitter::op_de_cbor_fast,
    );
    bench_reader("citm_catalog", &citm_data, rounds, citm::rd_all(), citm::op_de_cbor_fast);
    bench_reader("canada", &canada_data, rounds, canada::rd_all(), canada::op_de_cbor_fast);
    bench_reader("small struct", &small_data, rounds, small::rd_all(), small::op_de_cbor_fast);
}
