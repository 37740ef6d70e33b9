//! Interop both ways with serde_cbor, ciborium and minicbor (through
//! minicbor-serde, and minicbor's own decoder) on the corpus mapped to typed
//! structs and on generated values.
mod common;
#[path = "common/corpus_types.rs"]
mod types;

use std::collections::BTreeMap;

use cbor_fast::serde::{Tagged, from_slice, to_vec};
use cbor_fast::{Value, decode};
use common::Rng;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use types::*;

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(common::corpus_dir().join(name)).unwrap()
}

fn ciborium_vec<T: Serialize>(v: &T) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(v, &mut out).unwrap();
    out
}

/// Every library reads the file into the same value; ours writes the bytes
/// serde_cbor and ciborium write; each reads what the others wrote.
fn both_ways<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(name: &str) -> T {
    let data = corpus(name);
    let ours: T = from_slice(&data).unwrap();
    assert!(ours == serde_cbor::from_slice::<T>(&data).unwrap(), "{name}: serde_cbor");
    assert!(ours == ciborium::from_reader::<T, _>(&data[..]).unwrap(), "{name}: ciborium");
    assert!(ours == minicbor_serde::from_slice::<T>(&data).unwrap(), "{name}: minicbor");

    let bytes = to_vec(&ours).unwrap();
    assert!(bytes == serde_cbor::to_vec(&ours).unwrap(), "{name}: serde_cbor bytes");
    assert!(bytes == ciborium_vec(&ours), "{name}: ciborium bytes");
    assert!(serde_cbor::from_slice::<T>(&bytes).unwrap() == ours, "{name}: serde_cbor reads ours");
    assert!(ciborium::from_reader::<T, _>(&bytes[..]).unwrap() == ours, "{name}: ciborium reads");
    assert!(minicbor_serde::from_slice::<T>(&bytes).unwrap() == ours, "{name}: minicbor reads");
    // minicbor writes every float as float64: ours reads that too.
    let mc = minicbor_serde::to_vec(&ours).unwrap();
    assert!(from_slice::<T>(&mc).unwrap() == ours, "{name}: ours reads minicbor");
    // And minicbor's own (non-serde) decoder walks our bytes to the end.
    let mut d = minicbor::Decoder::new(&bytes);
    d.skip().unwrap();
    assert_eq!(d.position(), bytes.len(), "{name}: minicbor::Decoder");
    ours
}

#[test]
fn twitter_partial_schema() {
    let t: Twitter = both_ways("twitter.cbor");
    assert_eq!(t.statuses.len(), 100);
    assert_eq!(t.search_metadata.count, 100);
    assert_eq!(t.statuses[0].id, 505_874_924_095_815_681);
    // The borrowed variant reads the same data without copying a string.
    let data = corpus("twitter.cbor");
    let r: TwitterRef = from_slice(&data).unwrap();
    assert_eq!(r.statuses.len(), 100);
    let range = data.as_ptr_range();
    for (s, o) in r.statuses.iter().zip(&t.statuses) {
        assert_eq!(s.text, o.text);
        assert_eq!(s.user.screen_name, o.user.screen_name);
        assert!(range.contains(&s.text.as_ptr()) && range.contains(&s.user.name.as_ptr()));
    }
    assert!(serde_cbor::from_slice::<TwitterRef>(&data).unwrap() == r);
    assert_eq!(to_vec(&r).unwrap(), to_vec(&t).unwrap());
}

#[test]
fn citm_full_schema() {
    let c: Citm = both_ways("citm_catalog.cbor");
    assert_eq!(c.performances.len(), 243);
    assert_eq!(c.events.len(), 184);
    // The typed value holds the whole file: the same data model as decode().
    let file = decode(&corpus("citm_catalog.cbor")).unwrap();
    let Value::Map(pairs) = &file else { panic!("citm is a map") };
    assert_eq!(pairs.len(), 11);
}

#[test]
fn canada_full_schema() {
    let c: Canada = both_ways("canada.cbor");
    assert_eq!(c.features.len(), 1);
    let rings = &c.features[0].geometry.coordinates;
    assert_eq!(rings.len(), 480);
    assert_eq!(rings.iter().map(Vec::len).sum::<usize>(), 55_563);
    assert_eq!(rings[0][0].0.0, -65.61361699999998);
}

/// A record touching most of serde's data model.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Record {
    id: u64,
    delta: i64,
    small: i8,
    big: u128,
    neg_big: i128,
    ratio: f64,
    single: f32,
    name: String,
    flags: Vec<bool>,
    scores: BTreeMap<u32, i32>,
    nested: Option<Box<Record>>,
    shape: Shape,
    pair: (u8, String),
    unit: (),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Shape {
    Empty,
    Circle(f64),
    Rect(u16, u16),
    Poly { sides: u8, name: Option<String> },
}

/// `wide`: integers beyond 64 bits (bignums), which serde_cbor cannot write.
fn record(rng: &mut Rng, depth: u32, wide: bool) -> Record {
    let text_len = rng.below(40) as usize;
    let name: String = (0..text_len)
        .map(|_| char::from_u32(rng.below(0x800) as u32 + 0x20).unwrap_or('?'))
        .collect();
    let shape = match rng.below(4) {
        0 => Shape::Empty,
        1 => Shape::Circle(rng.below(1000) as f64 / 8.0),
        2 => Shape::Rect(rng.below(70_000) as u16, 24),
        _ => Shape::Poly { sides: rng.below(256) as u8, name: rng.chance(50).then(|| "p".into()) },
    };
    Record {
        id: rng.next_u64() >> rng.below(64),
        delta: (rng.next_u64() >> rng.below(64)) as i64,
        small: rng.next_u64() as i8,
        big: if wide {
            (u128::from(rng.next_u64()) << rng.below(64)) | u128::from(rng.next_u64())
        } else {
            u128::from(rng.next_u64())
        },
        neg_big: -((i128::from(rng.next_u64() as u32) << rng.below(if wide { 90 } else { 32 }))
            + 1),
        ratio: f64::from_bits(rng.next_u64() & 0x7fef_ffff_ffff_ffff)
            * if rng.chance(50) { 1.0 } else { -1.0 },
        single: rng.below(1 << 20) as f32 / 1024.0,
        name,
        flags: (0..rng.below(5)).map(|_| rng.chance(50)).collect(),
        scores: (0..rng.below(6)).map(|_| (rng.below(300) as u32, rng.next_u64() as i32)).collect(),
        nested: (depth < 3 && rng.chance(40)).then(|| Box::new(record(rng, depth + 1, wide))),
        shape,
        pair: (rng.below(256) as u8, "x".repeat(rng.below(30) as usize)),
        unit: (),
    }
}

#[test]
fn generated_records_both_ways() {
    let mut rng = Rng::new(0x15);
    let records: Vec<Record> = (0..400).map(|_| record(&mut rng, 0, false)).collect();
    let ours = to_vec(&records).unwrap();
    assert!(ours == serde_cbor::to_vec(&records).unwrap(), "serde_cbor writes other bytes");
    assert!(ours == ciborium_vec(&records), "ciborium writes other bytes");
    assert_eq!(from_slice::<Vec<Record>>(&ours).unwrap(), records);
    assert_eq!(serde_cbor::from_slice::<Vec<Record>>(&ours).unwrap(), records);
    assert_eq!(ciborium::from_reader::<Vec<Record>, _>(&ours[..]).unwrap(), records);
    let mc = minicbor_serde::to_vec(&records).unwrap();
    assert_eq!(from_slice::<Vec<Record>>(&mc).unwrap(), records);
    // Our bytes are valid for the core library too, as one document.
    assert!(matches!(decode(&ours).unwrap(), Value::Array(ref a) if a.len() == 400));
    // Bignums (tags 2 and 3): ciborium writes and reads them like ours.
    let wide: Vec<Record> = (0..200).map(|_| record(&mut rng, 0, true)).collect();
    let ours_wide = to_vec(&wide).unwrap();
    assert!(ours_wide == ciborium_vec(&wide), "ciborium writes other bignum bytes");
    assert_eq!(from_slice::<Vec<Record>>(&ours_wide).unwrap(), wide);
    assert_eq!(ciborium::from_reader::<Vec<Record>, _>(&ours_wide[..]).unwrap(), wide);
    // One record at a time as well (small documents).
    for r in &records[..50] {
        let b = to_vec(r).unwrap();
        assert_eq!(from_slice::<Record>(&serde_cbor::to_vec(r).unwrap()).unwrap(), *r);
        assert_eq!(serde_cbor::from_slice::<Record>(&b).unwrap(), *r);
    }
}

#[test]
fn tags_both_ways() {
    // serde_cbor's Tagged and ours agree on bytes and read each other.
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let tag = rng.next_u64() >> rng.below(64);
        let value = "t".repeat(rng.below(3) as usize);
        let ours = to_vec(&Tagged::new(Some(tag), value.clone())).unwrap();
        let theirs =
            serde_cbor::to_vec(&serde_cbor::tags::Tagged::new(Some(tag), value.clone())).unwrap();
        assert_eq!(ours, theirs, "tag {tag}");
        let back: serde_cbor::tags::Tagged<String> = serde_cbor::from_slice(&ours).unwrap();
        assert_eq!((back.tag, back.value.as_str()), (Some(tag), value.as_str()));
        let back: Tagged<String> = from_slice(&theirs).unwrap();
        assert_eq!((back.tag, back.value), (Some(tag), value));
    }
    // ciborium's Captured tag reads ours and writes what we read.
    let ours = to_vec(&Tagged::new(Some(32), "http://a".to_string())).unwrap();
    let c: ciborium::tag::Captured<String> = ciborium::from_reader(&ours[..]).unwrap();
    assert_eq!((c.0, c.1.as_str()), (Some(32), "http://a"));
    let back: Tagged<String> = from_slice(&ciborium_vec(&c)).unwrap();
    assert_eq!(back, Tagged::new(Some(32), "http://a".to_string()));
    // A bignum from ciborium (u128) and from minicbor-serde.
    let big = u128::MAX - 5;
    assert_eq!(from_slice::<u128>(&ciborium_vec(&big)).unwrap(), big);
    assert_eq!(ciborium::from_reader::<u128, _>(&to_vec(&big).unwrap()[..]).unwrap(), big);
}

#[test]
fn errors_agree_with_peers_on_what_is_wrong() {
    // Truncated input is refused by everyone; ours names the offset.
    let data = to_vec(&vec!["abc"; 3]).unwrap();
    let cut = &data[..data.len() - 1];
    let e = from_slice::<Vec<String>>(cut).unwrap_err();
    assert_eq!((e.status(), e.offset()), (cbor_fast::Status::Truncated, 9));
    assert!(serde_cbor::from_slice::<Vec<String>>(cut).is_err());
    assert!(ciborium::from_reader::<Vec<String>, _>(cut).is_err());
    assert!(minicbor_serde::from_slice::<Vec<String>>(cut).is_err());
}

#[test]
fn mutated_input_fails_cleanly_with_an_offset_inside_it() {
    // Flip, cut and splice bytes of real encodings: every outcome is a value
    // or an error whose offset lies within the input, never a panic.
    let mut rng = Rng::new(0xbad);
    let records: Vec<Record> = (0..20).map(|_| record(&mut rng, 0, false)).collect();
    let good = to_vec(&records).unwrap();
    for round in 0..3000 {
        let mut data = good.clone();
        match round % 3 {
            0 => {
                let flips = 1 + rng.below(4);
                for _ in 0..flips {
                    let i = rng.below(data.len() as u64) as usize;
                    data[i] ^= 1 << rng.below(8);
                }
            }
            1 => data.truncate(rng.below(data.len() as u64) as usize),
            _ => {
                let i = rng.below(data.len() as u64) as usize;
                let n = 1 + rng.below(12) as usize;
                let junk = rng.bytes(n);
                data.splice(i..i, junk);
            }
        }
        for result in [
            from_slice::<Vec<Record>>(&data).map(|_| ()),
            from_slice::<serde::de::IgnoredAny>(&data).map(|_| ()),
        ] {
            if let Err(e) = result {
                assert!(e.offset() <= data.len(), "round {round}: {e}");
            }
        }
        // The serde route (reader batches) and the document route agree on
        // what is wrong and where.
        let serde_side =
            from_slice::<serde::de::IgnoredAny>(&data).map_err(|e| (e.status(), e.offset()));
        let doc_side = decode(&data).map_err(|e| (e.status, e.offset));
        assert_eq!(serde_side.map(|_| ()), doc_side.map(|_| ()), "round {round}");
    }
}

/// A struct with a `#[serde(flatten)]` map: serde gives its map no length.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Flat {
    a: u32,
    #[serde(flatten)]
    rest: BTreeMap<String, i64>,
}

/// A sequence serde gives no length (as from an iterator without an exact
/// size).
struct Unsized(u32);
impl Serialize for Unsized {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(None)?;
        for i in 0..self.0 {
            seq.serialize_element(&i)?;
        }
        seq.end()
    }
}

#[test]
fn containers_of_unknown_length_are_indefinite_as_the_peers_write_them() {
    // They were written with a definite head put in at the end, which moved
    // the bytes after it once per level: other bytes than the peers'.
    let flat = Flat { a: 43, rest: [("x".to_string(), -2), ("y".to_string(), 300)].into() };
    let bytes = to_vec(&flat).unwrap();
    assert_eq!(bytes, common::hex("bf 6161 182b 6178 21 6179 19012c ff"));
    assert_eq!(bytes, serde_cbor::to_vec(&flat).unwrap(), "serde_cbor");
    assert_eq!(bytes, ciborium_vec(&flat), "ciborium");
    assert_eq!(from_slice::<Flat>(&bytes).unwrap(), flat);
    // An empty one, and one of 30 items (past the one-byte count).
    assert_eq!(to_vec(&Unsized(0)).unwrap(), common::hex("9f ff"));
    let thirty = to_vec(&Unsized(30)).unwrap();
    assert_eq!(
        (thirty[0], thirty[1], thirty[24], thirty[25], thirty.len()),
        (0x9f, 0, 0x17, 0x18, 38)
    );
    assert_eq!(thirty, serde_cbor::to_vec(&Unsized(30)).unwrap(), "serde_cbor");
    assert_eq!(thirty, ciborium_vec(&Unsized(30)), "ciborium");
    assert_eq!(from_slice::<Vec<u32>>(&thirty).unwrap(), (0..30).collect::<Vec<_>>());
    // Nested 1000 deep around 1 MiB: each level adds its two bytes.
    struct Nest(u32, std::rc::Rc<Vec<u8>>);
    impl Serialize for Nest {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = s.serialize_seq(None)?;
            if self.0 == 0 {
                seq.serialize_element(serde_bytes_like(&self.1))?;
            } else {
                seq.serialize_element(&Nest(self.0 - 1, self.1.clone()))?;
            }
            seq.end()
        }
    }
    let payload = std::rc::Rc::new(vec![7u8; 1 << 20]);
    let nested = to_vec(&Nest(999, payload)).unwrap();
    assert_eq!(nested.len(), 1000 * 2 + 5 + (1 << 20));
    assert!(nested[..1000].iter().all(|&b| b == 0x9f));
    assert_eq!(&nested[1000..1005], common::hex("5a 00100000"));
    assert!(nested[nested.len() - 1000..].iter().all(|&b| b == 0xff));
}

/// `&[u8]` as a CBOR byte string (serde's own impl writes an array).
fn serde_bytes_like(b: &[u8]) -> &Bytes {
    // SAFETY: `Bytes` is a transparent wrapper of `[u8]`.
    unsafe { &*(b as *const [u8] as *const Bytes) }
}

#[repr(transparent)]
struct Bytes([u8]);
impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}
