//! Number vectors: the bulk and typed-array paths (`serde::bulk`,
//! `serde::typed_array`, `Reader::read_array`, `Writer::typed_array`)
//! against cbor_fast's element-by-element serde path and against serde_cbor
//! and ciborium on the same structs, side by side in one process.
//!
//!     cargo run --release --features serde --example bulk_bench [rounds]
//!
//! Each cell is the median over `rounds` (default 11) interleaved rounds of
//! about 20 ms of repetitions; every result is checked once before timing.
//! `bulk_bench once` runs each operation once, for callgrind:
//!
//!     valgrind --tool=callgrind --callgrind-out-file=cg.out bulk_bench once
//!     callgrind_annotate --inclusive=yes cg.out | grep 'bulk_bench::op_'
use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct PlainF {
    v: Vec<f64>,
}
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct BulkF {
    #[serde(with = "cbor_fast::serde::bulk")]
    v: Vec<f64>,
}
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct TypedF {
    #[serde(with = "cbor_fast::serde::typed_array")]
    v: Vec<f64>,
}
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct PlainU {
    v: Vec<u64>,
}
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct BulkU {
    #[serde(with = "cbor_fast::serde::bulk")]
    v: Vec<u64>,
}

macro_rules! op {
    ($name:ident($arg:ident: $t:ty) -> $r:ty $body:block) => {
        #[inline(never)]
        fn $name($arg: $t) -> $r $body
    };
}

op!(op_f_generic(d: &[u8]) -> PlainF { cbor_fast::serde::from_slice(d).unwrap() });
op!(op_f_bulk(d: &[u8]) -> BulkF { cbor_fast::serde::from_slice(d).unwrap() });
op!(op_f_reader(d: &[u8]) -> Vec<f64> {
    let mut r = cbor_fast::Reader::new(d).unwrap();
    r.next_item().unwrap(); // the map
    r.next_item().unwrap(); // "v"
    r.read_array::<f64>().unwrap()
});
op!(op_f_serde_cbor(d: &[u8]) -> PlainF { serde_cbor::from_slice(d).unwrap() });
op!(op_f_ciborium(d: &[u8]) -> PlainF { ciborium::from_reader(d).unwrap() });
op!(op_u_generic(d: &[u8]) -> PlainU { cbor_fast::serde::from_slice(d).unwrap() });
op!(op_u_bulk(d: &[u8]) -> BulkU { cbor_fast::serde::from_slice(d).unwrap() });
op!(op_u_serde_cbor(d: &[u8]) -> PlainU { serde_cbor::from_slice(d).unwrap() });
op!(op_u_ciborium(d: &[u8]) -> PlainU { ciborium::from_reader(d).unwrap() });
op!(op_t_typed(d: &[u8]) -> TypedF { cbor_fast::serde::from_slice(d).unwrap() });
op!(op_t_memcpy(v: &[f64]) -> Vec<f64> { v.to_vec() });
op!(op_e_generic(v: &PlainF) -> Vec<u8> { cbor_fast::serde::to_vec(v).unwrap() });
op!(op_e_typed(v: &TypedF) -> Vec<u8> { cbor_fast::serde::to_vec(v).unwrap() });
op!(op_e_writer(v: &[f64]) -> Vec<u8> {
    let mut w = cbor_fast::Writer::new().unwrap();
    w.typed_array(v).unwrap();
    w.finish().unwrap().to_vec()
});
op!(op_e_serde_cbor(v: &PlainF) -> Vec<u8> { serde_cbor::to_vec(v).unwrap() });
op!(op_e_ciborium(v: &PlainF) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(v, &mut out).unwrap();
    out
});

/// Median over `rounds` of the time per call, the entries interleaved.
fn table(title: &str, rounds: usize, entries: &mut [(&str, &mut dyn FnMut())]) {
    let reps: Vec<u32> = entries
        .iter_mut()
        .map(|(_, f)| {
            let t = Instant::now();
            f();
            let once = t.elapsed().max(Duration::from_micros(1));
            (Duration::from_millis(20).as_nanos() / once.as_nanos()).clamp(1, 10_000) as u32
        })
        .collect();
    let mut times = vec![Vec::new(); entries.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in entries.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..reps[i] {
                f();
            }
            times[i].push(t.elapsed().as_secs_f64() * 1e3 / f64::from(reps[i]));
        }
    }
    println!("\n{title}");
    let mut first = 0.0;
    for (i, (name, _)) in entries.iter().enumerate() {
        times[i].sort_by(f64::total_cmp);
        let m = times[i][times[i].len() / 2];
        if i == 0 {
            first = m;
        }
        println!("  {name:<40} {m:>9.3} ms  {:>6.2}x", m / first);
    }
}

fn main() {
    let floats: Vec<f64> = (0..100_000).map(|i| f64::from(i) * 0.37 + 0.001).collect();
    let u32s: Vec<u64> = (0..100_000u64).map(|i| 100_000 + i * 40_000).collect();
    let big: Vec<f64> = (0..1_000_000).map(|i| f64::from(i) * 0.25 + 0.001).collect();
    let fdata = cbor_fast::serde::to_vec(&PlainF { v: floats.clone() }).unwrap();
    let udata = cbor_fast::serde::to_vec(&PlainU { v: u32s.clone() }).unwrap();
    let tdata = cbor_fast::serde::to_vec(&TypedF { v: big.clone() }).unwrap();
    let plain_big = PlainF { v: big.clone() };
    let typed_big = TypedF { v: big.clone() };

    // Every result once, before timing.
    assert_eq!(op_f_generic(&fdata).v, floats);
    assert_eq!(op_f_bulk(&fdata).v, floats);
    assert_eq!(op_f_reader(&fdata), floats);
    assert_eq!(op_f_serde_cbor(&fdata).v, floats);
    assert_eq!(op_f_ciborium(&fdata).v, floats);
    assert_eq!(op_u_generic(&udata).v, u32s);
    assert_eq!(op_u_bulk(&udata).v, u32s);
    assert_eq!(op_u_serde_cbor(&udata).v, u32s);
    assert_eq!(op_u_ciborium(&udata).v, u32s);
    assert_eq!(op_t_typed(&tdata).v, big);
    assert_eq!(tdata.len(), 3 + 7 + 8 * big.len());
    let e_typed = op_e_typed(&typed_big);
    assert_eq!(e_typed, tdata);
    assert_eq!(op_e_writer(&big)[..], tdata[3..]);
    let plain = op_e_generic(&plain_big);
    assert_eq!(op_e_serde_cbor(&plain_big).len(), 3 + 5 + 9 * big.len()); // doubles throughout
    assert_eq!(cbor_fast::serde::from_slice::<PlainF>(&plain).unwrap().v, big);
    assert_eq!(cbor_fast::serde::from_slice::<PlainF>(&op_e_ciborium(&plain_big)).unwrap().v, big);

    if std::env::args().nth(1).as_deref() == Some("once") {
        black_box(op_f_generic(&fdata));
        black_box(op_f_bulk(&fdata));
        black_box(op_f_reader(&fdata));
        black_box(op_f_serde_cbor(&fdata));
        black_box(op_f_ciborium(&fdata));
        black_box(op_u_generic(&udata));
        black_box(op_u_bulk(&udata));
        black_box(op_u_serde_cbor(&udata));
        black_box(op_u_ciborium(&udata));
        black_box(op_t_typed(&tdata));
        black_box(op_t_memcpy(&big));
        black_box(op_e_generic(&plain_big));
        black_box(op_e_typed(&typed_big));
        black_box(op_e_writer(&big));
        black_box(op_e_serde_cbor(&plain_big));
        black_box(op_e_ciborium(&plain_big));
        println!("ran each operation once");
        return;
    }
    let rounds = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(11);
    table(
        "decode {v: 100k float64} (plain array of doubles)",
        rounds,
        &mut [
            ("cbor_fast serde::bulk", &mut || drop(black_box(op_f_bulk(black_box(&fdata))))),
            ("cbor_fast Reader::read_array", &mut || {
                drop(black_box(op_f_reader(black_box(&fdata))))
            }),
            ("cbor_fast serde, element by element", &mut || {
                drop(black_box(op_f_generic(black_box(&fdata))))
            }),
            ("serde_cbor", &mut || drop(black_box(op_f_serde_cbor(black_box(&fdata))))),
            ("ciborium", &mut || drop(black_box(op_f_ciborium(black_box(&fdata))))),
        ],
    );
    table(
        "decode {v: 100k uint32 values} into Vec<u64>",
        rounds,
        &mut [
            ("cbor_fast serde::bulk", &mut || drop(black_box(op_u_bulk(black_box(&udata))))),
            ("cbor_fast serde, element by element", &mut || {
                drop(black_box(op_u_generic(black_box(&udata))))
            }),
            ("serde_cbor", &mut || drop(black_box(op_u_serde_cbor(black_box(&udata))))),
            ("ciborium", &mut || drop(black_box(op_u_ciborium(black_box(&udata))))),
        ],
    );
    table(
        "decode {v: 1M float64 typed array} (8 MB)",
        rounds,
        &mut [
            ("cbor_fast serde::typed_array", &mut || {
                drop(black_box(op_t_typed(black_box(&tdata))))
            }),
            ("memcpy of the 8 MB (Vec::to_vec)", &mut || {
                drop(black_box(op_t_memcpy(black_box(&big))))
            }),
        ],
    );
    table(
        "encode {v: 1M float64}",
        rounds,
        &mut [
            ("cbor_fast serde::typed_array", &mut || {
                drop(black_box(op_e_typed(black_box(&typed_big))))
            }),
            ("cbor_fast Writer::typed_array", &mut || {
                drop(black_box(op_e_writer(black_box(&big))))
            }),
            ("cbor_fast serde, plain array", &mut || {
                drop(black_box(op_e_generic(black_box(&plain_big))))
            }),
            ("serde_cbor, plain array", &mut || {
                drop(black_box(op_e_serde_cbor(black_box(&plain_big))))
            }),
            ("ciborium, plain array", &mut || {
                drop(black_box(op_e_ciborium(black_box(&plain_big))))
            }),
        ],
    );
}
