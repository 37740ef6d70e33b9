//! serde benchmark: cbor_fast against serde_cbor, ciborium and minicbor (via
//! minicbor-serde) on the shared corpus mapped to typed structs (twitter
//! partial, citm_catalog, canada), side by side in one process.
//!
//!     CBOR_FAST_CORPUS_DIR=../../../shared/corpus \
//!       cargo run --release --features serde --example serde_bench [rounds]
//!
//! Each cell is the median of `rounds` (default 15) timed repetitions, each
//! repetition running the operation enough times to last about 20 ms. Every
//! library's output is checked against cbor_fast's once before timing.
#[path = "../tests/common/corpus_types.rs"]
mod types;

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::{Serialize, de::DeserializeOwned};
use types::*;

fn corpus(name: &str) -> Vec<u8> {
    let dir = std::env::var("CBOR_FAST_CORPUS_DIR")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus").into());
    std::fs::read(format!("{dir}/{name}")).unwrap_or_else(|e| panic!("{dir}/{name}: {e}"))
}

/// Median time of one call of `f`, over `rounds` repetitions.
fn median(rounds: usize, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    f();
    let once = start.elapsed().max(Duration::from_micros(1));
    let reps = (Duration::from_millis(20).as_nanos() / once.as_nanos()).clamp(1, 10_000) as u32;
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed() / reps
        })
        .collect();
    times.sort();
    times[rounds / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn row(label: &str, ours: Duration, peers: [Duration; 3]) {
    println!(
        "| {label} | {:.3} | {:.3} ({:.2}x) | {:.3} ({:.2}x) | {:.3} ({:.2}x) |",
        ms(ours),
        ms(peers[0]),
        peers[0].as_secs_f64() / ours.as_secs_f64(),
        ms(peers[1]),
        peers[1].as_secs_f64() / ours.as_secs_f64(),
        ms(peers[2]),
        peers[2].as_secs_f64() / ours.as_secs_f64(),
    );
}

fn bench_owned<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(
    name: &str,
    data: &[u8],
    rounds: usize,
) {
    // Check once: every library decodes the same value, and encodes it to
    // bytes that decode back to it.
    let ours: T = cbor_fast::serde::from_slice(data).unwrap();
    let a: T = serde_cbor::from_slice(data).unwrap();
    let b: T = ciborium::from_reader(data).unwrap();
    let c: T = minicbor_serde::from_slice(data).unwrap();
    assert!(ours == a && ours == b && ours == c, "{name}: decoders disagree");
    let enc = cbor_fast::serde::to_vec(&ours).unwrap();
    assert_eq!(enc, serde_cbor::to_vec(&ours).unwrap(), "{name}: serde_cbor bytes differ");
    for bytes in [
        serde_cbor::to_vec(&ours).unwrap(),
        {
            let mut v = Vec::new();
            ciborium::into_writer(&ours, &mut v).unwrap();
            v
        },
        minicbor_serde::to_vec(&ours).unwrap(),
    ] {
        assert!(cbor_fast::serde::from_slice::<T>(&bytes).unwrap() == ours, "{name}");
    }

    let d_ours = median(rounds, || {
        black_box(cbor_fast::serde::from_slice::<T>(black_box(data)).unwrap());
    });
    let d_sc = median(rounds, || {
        black_box(serde_cbor::from_slice::<T>(black_box(data)).unwrap());
    });
    let d_ci = median(rounds, || {
        black_box(ciborium::from_reader::<T, _>(black_box(data)).unwrap());
    });
    let d_mc = median(rounds, || {
        black_box(minicbor_serde::from_slice::<T>(black_box(data)).unwrap());
    });
    row(&format!("from_slice {name}"), d_ours, [d_sc, d_ci, d_mc]);

    let e_ours = median(rounds, || {
        black_box(cbor_fast::serde::to_vec(black_box(&ours)).unwrap());
    });
    let e_sc = median(rounds, || {
        black_box(serde_cbor::to_vec(black_box(&ours)).unwrap());
    });
    let e_ci = median(rounds, || {
        let mut v = Vec::with_capacity(128);
        ciborium::into_writer(black_box(&ours), &mut v).unwrap();
        black_box(v);
    });
    let e_mc = median(rounds, || {
        black_box(minicbor_serde::to_vec(black_box(&ours)).unwrap());
    });
    row(&format!("to_vec {name}"), e_ours, [e_sc, e_ci, e_mc]);
}

fn bench_borrowed(data: &[u8], rounds: usize) {
    let ours: TwitterRef = cbor_fast::serde::from_slice(data).unwrap();
    let a: TwitterRef = serde_cbor::from_slice(data).unwrap();
    let c: TwitterRef = minicbor_serde::from_slice(data).unwrap();
    assert!(ours == a && ours == c, "borrowed twitter: decoders disagree");
    let d_ours = median(rounds, || {
        black_box(cbor_fast::serde::from_slice::<TwitterRef>(black_box(data)).unwrap());
    });
    let d_sc = median(rounds, || {
        black_box(serde_cbor::from_slice::<TwitterRef>(black_box(data)).unwrap());
    });
    let d_mc = median(rounds, || {
        black_box(minicbor_serde::from_slice::<TwitterRef>(black_box(data)).unwrap());
    });
    // ciborium reads from io::Read and cannot lend &str: no borrowed variant.
    println!(
        "| from_slice twitter, borrowed &str | {:.3} | {:.3} ({:.2}x) | n/a | {:.3} ({:.2}x) |",
        ms(d_ours),
        ms(d_sc),
        d_sc.as_secs_f64() / d_ours.as_secs_f64(),
        ms(d_mc),
        d_mc.as_secs_f64() / d_ours.as_secs_f64(),
    );
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(15);
    println!("median of {rounds} rounds, ms per document (peer time and peer/cbor_fast ratio)");
    println!();
    println!("| operation | cbor_fast | serde_cbor 0.11.2 | ciborium 0.2.2 | minicbor-serde 0.7.2 (minicbor 2) |");
    println!("|---|---|---|---|---|");
    let twitter = corpus("twitter.cbor");
    let citm = corpus("citm_catalog.cbor");
    let canada = corpus("canada.cbor");
    bench_owned::<Twitter>("twitter (partial)", &twitter, rounds);
    bench_borrowed(&twitter, rounds);
    bench_owned::<Citm>("citm_catalog", &citm, rounds);
    bench_owned::<Canada>("canada", &canada, rounds);
}
