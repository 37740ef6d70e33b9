//! Property-style round trips over random values from a fixed-seed PRNG:
//! encode -> decode gives the value back (floats bit for bit, integers by
//! value), preferred bytes are a fixed point, documents re-encode them
//! exactly, readers walk them, sequences split them. Plus every half-float
//! bit pattern, random float64 bit patterns against an independent
//! shortest-width oracle, and nesting far beyond the default depth limit.
mod common;

use cbor_fast::{
    DecodeOptions, Document, Reader, Sequence, Status, Token, Value, decode, decode_with, encode,
};
use common::{Rng, drop_deep};

// ---- random values ------------------------------------------------------------

const INT_EDGES: [u64; 12] =
    [0, 1, 23, 24, 255, 256, 65_535, 65_536, u32::MAX as u64, 1 << 32, u64::MAX - 1, u64::MAX];

fn gen_u64(rng: &mut Rng) -> u64 {
    if rng.chance(40) {
        INT_EDGES[rng.below(INT_EDGES.len() as u64) as usize]
    } else {
        // Random bit length, so every head size shows up.
        rng.next_u64() >> rng.below(64)
    }
}

fn gen_char(rng: &mut Rng) -> char {
    let ranges: [(u32, u32); 5] =
        [(0x20, 0x7e), (0x00, 0x1f), (0x80, 0x7ff), (0x800, 0xffff), (0x10000, 0x10ffff)];
    let (lo, hi) = ranges[rng.below(ranges.len() as u64) as usize];
    loop {
        // Surrogates are not chars: draw again.
        if let Some(c) = char::from_u32(lo + rng.below(u64::from(hi - lo + 1)) as u32) {
            return c;
        }
    }
}

fn gen_len(rng: &mut Rng) -> usize {
    match rng.below(10) {
        0 => 23 + rng.below(3) as usize,   // around the 1-byte length limit
        1 => 250 + rng.below(10) as usize, // around 255/256
        _ => rng.below(12) as usize,
    }
}

fn gen_float(rng: &mut Rng) -> f64 {
    match rng.below(8) {
        0 => f64::from_bits(rng.next_u64()), // anything, NaNs with payloads included
        1 => {
            // NaN with a random payload, quiet or signalling, either sign.
            let payload = (rng.next_u64() & ((1 << 52) - 1)).max(1);
            f64::from_bits(0x7ff0_0000_0000_0000 | payload | (rng.next_u64() & (1 << 63)))
        }
        2 => half_to_f64(rng.next_u64() as u16), // exact in half, NaNs included
        3 => f64::from(f32::from_bits(rng.next_u64() as u32 & 0x7f7f_ffff)), // finite singles
        4 => [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, f64::MIN_POSITIVE, f64::MAX]
            [rng.below(7) as usize],
        5 => (rng.next_u64() >> rng.below(64)) as f64 * if rng.chance(50) { -1.0 } else { 1.0 },
        _ => (rng.next_u64() % 1_000_000) as f64 / 1000.0,
    }
}

fn gen_scalar(rng: &mut Rng) -> Value {
    match rng.below(14) {
        0 | 1 => Value::Unsigned(gen_u64(rng)),
        2 | 3 => Value::Negative(gen_u64(rng)),
        4 => {
            // Bignum: mostly beyond 64 bits; sometimes with leading zeros or
            // small enough to be a plain integer (equal by value after decode).
            let len =
                if rng.chance(25) { rng.below(9) as usize } else { 9 + rng.below(24) as usize };
            let mut magnitude = rng.bytes(len);
            if let Some(first) = magnitude.first_mut() {
                if rng.chance(80) {
                    *first |= 1;
                }
            }
            Value::BigNum { negative: rng.chance(50), magnitude }
        }
        5 | 6 => Value::Float(gen_float(rng)),
        7 => {
            let n = gen_len(rng);
            Value::Bytes(rng.bytes(n))
        }
        8 | 9 => Value::Text((0..gen_len(rng)).map(|_| gen_char(rng)).collect()),
        10 => {
            let s = rng.below(244) as u8; // 0..=19 and 32..=255
            Value::Simple(if s < 20 { s } else { s + 12 })
        }
        11 => Value::Bool(rng.chance(50)),
        12 => Value::Null,
        _ => Value::Undefined,
    }
}

/// A scalar that opens no level (bignums are tags 2/3: one level more).
fn gen_flat_scalar(rng: &mut Rng) -> Value {
    loop {
        let v = gen_scalar(rng);
        if !matches!(v, Value::BigNum { .. }) {
            return v;
        }
    }
}

fn gen_value(rng: &mut Rng, depth: u32) -> Value {
    if depth == 0 || rng.chance(45) {
        return gen_scalar(rng);
    }
    match rng.below(3) {
        0 => {
            let n = if rng.chance(10) { 24 } else { rng.below(6) as usize };
            Value::Array((0..n).map(|_| gen_value(rng, depth - 1)).collect())
        }
        1 => {
            let n = rng.below(5) as usize;
            Value::Map(
                (0..n).map(|_| (gen_value(rng, depth - 1), gen_value(rng, depth - 1))).collect(),
            )
        }
        _ => Value::Tag(gen_u64(rng), Box::new(gen_value(rng, depth - 1))),
    }
}

/// A chain `levels` deep of one-child arrays, maps and tags around a scalar,
/// and the byte offset where the head of level `at` (0-based) starts.
fn gen_chain(rng: &mut Rng, levels: usize, at: usize) -> (Value, usize) {
    let kinds: Vec<(u8, Value)> = (0..levels)
        .map(|_| match rng.below(3) {
            0 => (0, Value::Null),
            1 => (1, gen_flat_scalar(rng)), // map key
            _ => (2, Value::Unsigned(gen_u64(rng))),
        })
        .collect();
    let mut offset_of_at = 0;
    for (kind, extra) in &kinds[..at.min(levels)] {
        offset_of_at += match kind {
            0 => 1,
            1 => 1 + encode(extra).unwrap().len(),
            _ => encode(extra).unwrap().len(), // a tag head is as long as the uint head
        };
    }
    let mut v = gen_flat_scalar(rng);
    for (kind, extra) in kinds.into_iter().rev() {
        v = match kind {
            0 => Value::Array(vec![v]),
            1 => Value::Map(vec![(extra, v)]),
            _ => Value::Tag(extra.as_u64().unwrap(), Box::new(v)),
        };
    }
    (v, offset_of_at)
}

// ---- float helpers --------------------------------------------------------------

/// IEEE half to double (exact), written independently of the library.
fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let frac = u64::from(h & 0x3ff);
    match exp {
        0 => sign * frac as f64 * 2f64.powi(-24),
        0x1f if frac == 0 => sign * f64::INFINITY,
        0x1f => {
            // Keep the payload: the top 10 fraction bits of the double.
            f64::from_bits(
                if sign < 0.0 { 1 << 63 } else { 0 } | 0x7ff0_0000_0000_0000 | frac << 42,
            )
        }
        _ => sign * (1024 + frac) as f64 * 2f64.powi(i32::from(exp) - 25),
    }
}

/// Shortest width (2, 4 or 8) that holds `x` exactly, NaN payloads included.
fn shortest_width(x: f64) -> usize {
    let bits = x.to_bits();
    if x.is_nan() {
        let frac = bits & ((1 << 52) - 1);
        return if frac & ((1 << 42) - 1) == 0 {
            2
        } else if frac & ((1 << 29) - 1) == 0 {
            4
        } else {
            8
        };
    }
    if x == 0.0 || x.is_infinite() {
        return 2;
    }
    // x = m * 2^s with m odd.
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let (mut m, mut s) = if exp == 0 {
        (bits & ((1 << 52) - 1), -1074)
    } else {
        ((bits & ((1 << 52) - 1)) | (1 << 52), exp - 1075)
    };
    let tz = m.trailing_zeros();
    m >>= tz;
    s += tz as i32;
    let bit_len = 64 - m.leading_zeros();
    if bit_len <= 11 && s >= -24 && x.abs() <= 65504.0 {
        2
    } else if bit_len <= 24 && s >= -149 && x.abs() <= f64::from(f32::MAX) {
        4
    } else {
        8
    }
}

// ---- properties ----------------------------------------------------------------

fn check_round_trip(v: &Value, what: &str) {
    let bytes = encode(v).unwrap_or_else(|e| panic!("{what}: encode {v:?}: {e}"));
    let back = decode(&bytes).unwrap_or_else(|e| panic!("{what}: decode {v:?}: {e}"));
    assert!(back == *v, "{what}: {v:?} came back as {back:?}");
    assert_eq!(encode(&back).unwrap(), bytes, "{what}: preferred bytes not a fixed point");
    let doc = Document::parse(&bytes).unwrap();
    assert_eq!(doc.encoded_size(), bytes.len(), "{what}");
    assert_eq!(doc.encode(false).unwrap(), bytes, "{what}: document as read");
    assert_eq!(doc.encode(true).unwrap(), bytes, "{what}: document preferred");
    let mut rd = Reader::new(&bytes).unwrap();
    while rd.next_item().unwrap().is_some() {}
    rd.finish().unwrap();
    assert_eq!(rd.offset(), bytes.len(), "{what}");
}

#[test]
fn random_values_round_trip() {
    let mut rng = Rng::new(0x5eed_0001);
    let mut kinds = [0usize; 4]; // arrays, maps, tags, bignums beyond 64 bits
    for i in 0..3000 {
        let v = gen_value(&mut rng, 6);
        match &v {
            Value::Array(_) => kinds[0] += 1,
            Value::Map(_) => kinds[1] += 1,
            Value::Tag(..) => kinds[2] += 1,
            Value::BigNum { magnitude, .. }
                if magnitude.iter().skip_while(|&&b| b == 0).count() > 8 =>
            {
                kinds[3] += 1
            }
            _ => {}
        }
        check_round_trip(&v, &format!("value {i}"));
    }
    // The generator really produced every kind at the top level.
    assert!(kinds.iter().all(|&k| k > 50), "{kinds:?}");
}

#[test]
fn random_sequences_split_back_into_their_values() {
    let mut rng = Rng::new(0x5eed_0002);
    for round in 0..50 {
        let values: Vec<Value> = (0..rng.below(20)).map(|_| gen_value(&mut rng, 4)).collect();
        let encodings: Vec<Vec<u8>> = values.iter().map(|v| encode(v).unwrap()).collect();
        let joined = encodings.concat();
        let back: Vec<Value> = Sequence::new(&joined).unwrap().map(Result::unwrap).collect();
        assert!(back == values, "round {round}");
        let mut seq = Sequence::new(&joined).unwrap();
        let mut raws = Vec::new();
        while let Some(raw) = seq.next_raw() {
            raws.push(raw.unwrap().to_vec());
        }
        assert_eq!(raws, encodings, "round {round}");
    }
}

#[test]
fn every_half_float_is_kept_exactly() {
    for h in 0..=u16::MAX {
        let bytes = [0xf9, (h >> 8) as u8, h as u8];
        let v = decode(&bytes).unwrap();
        let Value::Float(x) = v else { panic!("{h:04x}: not a float") };
        assert_eq!(x.to_bits(), half_to_f64(h).to_bits(), "{h:04x}: widened differently");
        assert_eq!(encode(&v).unwrap(), bytes, "{h:04x}: not re-encoded as the same half");
    }
}

#[test]
fn random_floats_take_the_shortest_exact_width() {
    let mut rng = Rng::new(0x5eed_0003);
    let mut widths = [0usize; 9];
    for i in 0..20_000 {
        let x = gen_float(&mut rng);
        let bytes = encode(&Value::Float(x)).unwrap();
        let w = shortest_width(x);
        assert_eq!(bytes.len(), 1 + w, "float {i}: {x:e} ({:016x})", x.to_bits());
        widths[w] += 1;
        let Value::Float(y) = decode(&bytes).unwrap() else { panic!("not a float") };
        assert_eq!(y.to_bits(), x.to_bits(), "float {i}: {x:e} ({:016x})", x.to_bits());
    }
    assert!(widths[2] > 1000 && widths[4] > 1000 && widths[8] > 1000, "{widths:?}");
    // Signalling NaNs keep their bits too (no quieting on the way).
    for bits in [0x7ff0_0000_0000_0001u64, 0xfff4_0000_0000_0000, 0x7ff0_0400_0000_0000] {
        let v = Value::Float(f64::from_bits(bits));
        assert_eq!(decode(&encode(&v).unwrap()).unwrap(), v, "{bits:016x}");
    }
}

#[test]
fn nesting_up_to_the_limit_round_trips_and_one_more_fails() {
    let mut rng = Rng::new(0x5eed_0004);
    for round in 0..20 {
        let (v, _) = gen_chain(&mut rng, 512, 0);
        check_round_trip(&v, &format!("depth 512 chain {round}"));
        let (v, offset) = gen_chain(&mut rng, 513, 512);
        let bytes = encode(&v).unwrap();
        let e = decode(&bytes).unwrap_err();
        assert_eq!((e.status, e.offset), (Status::Depth, offset), "round {round}");
        let opts = DecodeOptions { max_depth: 513, ..DecodeOptions::default() };
        assert!(decode_with(&bytes, &opts).unwrap() == v, "round {round}");
    }
}

#[test]
fn hundred_thousand_levels_need_no_stack() {
    // A 256 KiB thread stack: any recursion per level would overflow it.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            const LEVELS: usize = 100_000;
            let mut v = Value::Unsigned(7);
            for i in 0..LEVELS {
                v = if i % 2 == 0 { Value::Array(vec![v]) } else { Value::Tag(6, Box::new(v)) };
            }
            let bytes = encode(&v).unwrap();
            assert_eq!(bytes.len(), LEVELS + 1);
            let e = decode(&bytes).unwrap_err();
            assert_eq!((e.status, e.offset), (Status::Depth, 512));
            // Lifting the depth limit, and the default memory budget it meets next.
            let opts = DecodeOptions {
                max_depth: LEVELS as u32,
                max_memory: u64::MAX,
                ..DecodeOptions::default()
            };
            let back = decode_with(&bytes, &opts).unwrap();
            assert!(back == v);
            let doc = Document::parse_with(&bytes, &opts).unwrap();
            assert_eq!(doc.node_count(), LEVELS + 1);
            let mut rd = Reader::new(&bytes).unwrap();
            rd.set_max_depth(LEVELS as u32).unwrap();
            let (mut items, mut max_depth) = (0usize, 0u32);
            for item in rd {
                let item = item.unwrap();
                items += 1;
                max_depth = max_depth.max(item.depth);
                if let Token::Unsigned(7) = item.token {
                    assert_eq!(item.offset, LEVELS);
                }
            }
            // Every level, the leaf, and an End per array (tags have none).
            assert_eq!(items, LEVELS + 1 + LEVELS / 2);
            assert_eq!(max_depth, LEVELS as u32);
            drop_deep(back);
            drop_deep(v);
        })
        .unwrap()
        .join()
        .unwrap();
}
