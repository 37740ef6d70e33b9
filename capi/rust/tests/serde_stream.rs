//! serde over input in parts (feature `serde`): `from_reader`,
//! `StreamDeserializer` (a CBOR sequence from an `io::Read`) and
//! `Deserializer::into_iter` (a sequence in a slice). Values equal
//! `from_slice`'s whatever the read sizes; statuses and stream offsets;
//! hostile input in bounded memory and stack.
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::{self, Read};

use cbor_fast::serde::{
    Deserializer, StreamDeserializer, from_reader, from_reader_with, from_slice,
};
use cbor_fast::{DecodeOptions, Status};
use common::{Rng, corpus_files, hex};
use serde::de::IgnoredAny;
use serde_cbor::Value;

// ---- the largest single allocation, per thread --------------------------------

struct Peak;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = LARGEST.try_with(|c| c.set(c.get().max(layout.size())));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = LARGEST.try_with(|c| c.set(c.get().max(new_size)));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Peak = Peak;

// ---- readers --------------------------------------------------------------------

/// Hands out `data` in reads of the sizes `sizes` gives (at least 1 byte).
struct Chunks<F: FnMut() -> usize> {
    data: Vec<u8>,
    at: usize,
    sizes: F,
}

impl<F: FnMut() -> usize> Read for Chunks<F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (self.sizes)().max(1).min(buf.len()).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn one_byte_reads(data: Vec<u8>) -> Chunks<impl FnMut() -> usize> {
    Chunks { data, at: 0, sizes: || 1 }
}

fn random_reads(data: Vec<u8>, seed: u64, most: u64) -> Chunks<impl FnMut() -> usize> {
    let mut rng = Rng::new(seed);
    Chunks { data, at: 0, sizes: move || 1 + rng.below(most) as usize }
}

/// `data`, then a read error; every other call is `Interrupted` (retried).
struct FailsAfter {
    data: Vec<u8>,
    at: usize,
    interrupt: bool,
}

impl Read for FailsAfter {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        if self.at == self.data.len() {
            return Err(io::Error::other("the line went down"));
        }
        let n = buf.len().min(self.data.len() - self.at).min(2);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// `head`, then zero bytes for ever.
struct Endless {
    head: Vec<u8>,
    at: usize,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at < self.head.len() {
            let n = buf.len().min(self.head.len() - self.at);
            buf[..n].copy_from_slice(&self.head[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        buf.fill(0);
        Ok(buf.len())
    }
}

fn status_at<T: std::fmt::Debug>(r: Result<T, cbor_fast::serde::Error>) -> (Status, usize) {
    let e = r.unwrap_err();
    (e.status(), e.offset())
}

// ---- values ---------------------------------------------------------------------

#[test]
fn from_reader_gives_from_slice_values_on_the_corpus() {
    for (i, (name, data)) in corpus_files().into_iter().enumerate() {
        let want: Value = from_slice(&data).unwrap();
        let got: Value = from_reader(&data[..]).unwrap();
        assert_eq!(got, want, "{name}, one read");
        let got: Value = from_reader(random_reads(data.clone(), i as u64, 200)).unwrap();
        assert_eq!(got, want, "{name}, reads of 1 to 200 bytes");
    }
    // One byte at a time: the smallest file (about 600 KB of reads).
    let (name, data) = corpus_files().into_iter().min_by_key(|(_, d)| d.len()).unwrap();
    let want: Value = from_slice(&data).unwrap();
    let got: Value = from_reader(one_byte_reads(data)).unwrap();
    assert_eq!(got, want, "{name}, one byte per read");
}

#[test]
fn a_sequence_in_parts_gives_each_item_and_its_offset() {
    // The corpus files and small items between them, as one sequence.
    let small = [hex("00"), hex("6161"), hex("f93c00"), hex("9f01ff"), hex("a0")];
    let mut parts: Vec<Vec<u8>> = Vec::new();
    for (i, (_, data)) in corpus_files().into_iter().enumerate() {
        parts.push(small[i % small.len()].clone());
        parts.push(data);
    }
    parts.extend(small.iter().cloned());
    let stream: Vec<u8> = parts.concat();
    for (row, most) in
        [("reads of 1..7", 7), ("reads of 1..4096", 4096), ("reads of 1..65536", 65536)]
    {
        let mut items = StreamDeserializer::<_, Value>::new(random_reads(stream.clone(), 9, most));
        let mut end = 0;
        for (k, part) in parts.iter().enumerate() {
            let want: Value = from_slice(part).unwrap();
            assert_eq!(items.next().unwrap().unwrap(), want, "{row}: item {k}");
            end += part.len();
            assert_eq!(items.offset(), end, "{row}: after item {k}");
        }
        assert!(items.next().is_none(), "{row}: the end");
        assert!(items.next().is_none(), "{row}: the end again");
    }
}

#[test]
fn typed_items_pass_over_a_value_that_does_not_fit() {
    // 1, "two", 3, [4], 5: a u32 each, the text and the array refused at
    // their offsets and passed over.
    let data = hex("01 63 74776f 03 81 04 05");
    for (row, got) in [
        ("one read", StreamDeserializer::<_, u32>::new(&data[..]).collect::<Vec<_>>()),
        (
            "one byte per read",
            StreamDeserializer::<_, u32>::new(one_byte_reads(data.clone())).collect(),
        ),
    ] {
        let got: Vec<Result<u32, (Status, usize)>> =
            got.into_iter().map(|r| r.map_err(|e| (e.status(), e.offset()))).collect();
        assert_eq!(
            got,
            [Ok(1), Err((Status::TypeMismatch, 1)), Ok(3), Err((Status::TypeMismatch, 6)), Ok(5)],
            "{row}"
        );
    }
}

// ---- errors -----------------------------------------------------------------------

#[test]
fn from_reader_boundaries() {
    // Empty input: no item.
    assert_eq!(status_at(from_reader::<u8, _>(&[][..])), (Status::Truncated, 0));
    assert_eq!(StreamDeserializer::<_, u8>::new(&[][..]).next().map(|r| r.is_ok()), None);
    // One item, then a byte more: refused at that byte, in one read or many.
    let two = hex("01 02");
    assert_eq!(status_at(from_reader::<u8, _>(&two[..])), (Status::TrailingBytes, 1));
    assert_eq!(
        status_at(from_reader::<u8, _>(one_byte_reads(two.clone()))),
        (Status::TrailingBytes, 1)
    );
    // exact == false: the first item alone.
    let loose = DecodeOptions::default().exact(false);
    assert_eq!(from_reader_with::<u8, _>(&two[..], &loose).unwrap(), 1);
    // The input ends inside an item: from_slice's status and offset.
    for cut in ["82 01", "82", "19 01", "62 61", "5f 41 00", "a1 01", "d8 20"] {
        let bytes = hex(cut);
        let want = status_at(from_slice::<Value>(&bytes));
        assert_eq!(want.0, Status::Truncated, "{cut}");
        assert_eq!(status_at(from_reader::<Value, _>(&bytes[..])), want, "{cut}, one read");
        assert_eq!(
            status_at(from_reader::<Value, _>(one_byte_reads(bytes))),
            want,
            "{cut}, one byte per read"
        );
    }
}

#[test]
fn a_malformed_item_ends_the_sequence_at_its_stream_offset() {
    // 1, then [1, break] (a break in a definite array, at offset 3), then 2.
    let data = hex("01 82 01 ff 02");
    for reads in [1, 2, 4096] {
        let mut items = StreamDeserializer::<_, Value>::new(random_reads(data.clone(), 3, reads));
        assert_eq!(items.next().unwrap().unwrap(), Value::Integer(1), "reads of {reads}");
        assert_eq!(
            status_at(items.next().unwrap()),
            (Status::UnexpectedBreak, 3),
            "reads of {reads}"
        );
        assert!(items.next().is_none(), "reads of {reads}: the error ends it");
    }
}

#[test]
fn the_earlier_of_a_type_error_and_a_bad_byte_is_reported() {
    // ("x", break): the text does not fit the u8 (offset 1) before the
    // break in a definite array (offset 3): from_slice says TypeMismatch at
    // 1, and so does the stream, at 1 + the 2 bytes before the item.
    let item = hex("82 61 78 ff");
    assert_eq!(status_at(from_slice::<(u8, u8)>(&item)), (Status::TypeMismatch, 1));
    let mut data = hex("00 00");
    data.extend_from_slice(&item);
    let mut items = StreamDeserializer::<_, (u8, u8)>::new(&data[..]);
    assert_eq!(status_at(items.next().unwrap()), (Status::TypeMismatch, 0));
    assert_eq!(status_at(items.next().unwrap()), (Status::TypeMismatch, 1));
    assert_eq!(status_at(items.next().unwrap()), (Status::TypeMismatch, 3));
    assert!(items.next().is_none());
    // Without the type error the finder's own: the break at 2 + 3.
    let mut items = StreamDeserializer::<_, Value>::new(&data[..]);
    items.next().unwrap().unwrap();
    items.next().unwrap().unwrap();
    assert_eq!(status_at(items.next().unwrap()), (Status::UnexpectedBreak, 5));
}

#[test]
fn the_error_does_not_depend_on_how_the_reads_cut_the_input() {
    // {"a": 3(map), "b": <reserved byte 1c>, ...} in a map announcing 20
    // pairs: the bignum tag over a map is a type error at 4 (its content)
    // before the bad byte at 9. Read in small pieces, the bytes at hand when
    // the finder refused the 1c could not hold 20 pairs (the 60 bytes
    // could): decoding them
    // stopped with Truncated at the head, and the finder's
    // ReservedAdditionalInfo at 9 came out instead.
    let mut item = hex("b4 6161 c3 a1 00 00 6162 1c");
    item.resize(60, 0);
    let want = (Status::TypeMismatch, 4);
    assert_eq!(status_at(from_slice::<BTreeMap<String, i128>>(&item)), want);
    let mut whole = StreamDeserializer::<_, BTreeMap<String, i128>>::new(&item[..]);
    assert_eq!(status_at(whole.next().unwrap()), want);
    let mut pieces =
        StreamDeserializer::<_, BTreeMap<String, i128>>::new(one_byte_reads(item.clone()));
    assert_eq!(status_at(pieces.next().unwrap()), want);
    assert!(pieces.next().is_none());
    for seed in 0..20 {
        let mut items = StreamDeserializer::<_, BTreeMap<String, i128>>::new(random_reads(
            item.clone(),
            seed,
            7,
        ));
        assert_eq!(status_at(items.next().unwrap()), want, "seed {seed}");
    }
    // Without the type error (a target that takes anything), the bad byte,
    // however the input is cut.
    let mut items = StreamDeserializer::<_, IgnoredAny>::new(one_byte_reads(item.clone()));
    assert_eq!(status_at(items.next().unwrap()), (Status::ReservedAdditionalInfo, 9));
    let mut items = StreamDeserializer::<_, IgnoredAny>::new(&item[..]);
    assert_eq!(status_at(items.next().unwrap()), (Status::ReservedAdditionalInfo, 9));
}

#[test]
fn read_errors_and_interrupted_reads() {
    // Interrupted is retried; the error after the data ends the sequence at
    // the offset reached, inside the third item.
    let r = FailsAfter { data: hex("01 02 83 01"), at: 0, interrupt: false };
    let mut items = StreamDeserializer::<_, Value>::new(r);
    assert_eq!(items.next().unwrap().unwrap(), Value::Integer(1));
    assert_eq!(items.next().unwrap().unwrap(), Value::Integer(2));
    let e = items.next().unwrap().unwrap_err();
    assert_eq!((e.status(), e.offset()), (Status::SourceFailed, 4));
    assert!(e.message().contains("the line went down"), "{}", e.message());
    assert!(items.next().is_none());
}

#[test]
fn options_apply_to_each_item_with_stream_offsets() {
    // 0, then {"a": 1, "a": 2}: the second key at 1 + 4.
    let data = hex("00 a2 6161 01 6161 02");
    let strict = DecodeOptions::default().reject_duplicate_keys(true);
    let mut items = StreamDeserializer::<_, Value>::with_options(&data[..], &strict);
    assert_eq!(items.next().unwrap().unwrap(), Value::Integer(0));
    assert_eq!(status_at(items.next().unwrap()), (Status::DuplicateKey, 5));
    assert!(items.next().is_none());
    // Without the option both keys are read (the later value wins in a map).
    assert_eq!(StreamDeserializer::<_, Value>::new(&data[..]).count(), 2);
    // A raised depth reaches the finder and the decoder alike.
    let mut deep = vec![0x81u8; 600];
    deep.push(0x00);
    assert_eq!(status_at(from_reader::<IgnoredAny, _>(&deep[..])), (Status::Depth, 512));
    let raised = DecodeOptions::default().max_depth(1000);
    from_reader_with::<IgnoredAny, _>(&deep[..], &raised).unwrap();
}

// ---- hostile input --------------------------------------------------------------

#[test]
fn nesting_100k_deep_is_a_depth_error_on_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            for (open, name) in [(0x81u8, "arrays"), (0xa1, "maps"), (0xc1, "tags")] {
                let mut data = vec![open; 100_000];
                data.push(0x00);
                let want = status_at(from_slice::<IgnoredAny>(&data));
                assert_eq!(want, (Status::Depth, 512), "{name}");
                let got =
                    status_at(from_reader::<IgnoredAny, _>(random_reads(data.clone(), 5, 300)));
                assert_eq!(got, want, "{name}, in parts");
                // After 7 bytes of other items, at 7 + 512.
                let mut seq = hex("00 01 02 03 04 05 06");
                seq.extend_from_slice(&data);
                let got = StreamDeserializer::<_, IgnoredAny>::new(&seq[..]).nth(7).unwrap();
                assert_eq!(status_at(got), (Status::Depth, 519), "{name}, in a sequence");
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn claimed_lengths_cost_memory_only_as_bytes_arrive() {
    // A byte string claiming 2^63 - 1 bytes, then the input ends: truncated,
    // as from_slice says, after reading 9 bytes.
    let bomb = hex("5b 7fffffffffffffff");
    let want = status_at(from_slice::<IgnoredAny>(&bomb));
    assert_eq!(want.0, Status::Truncated);
    LARGEST.with(|c| c.set(0));
    assert_eq!(status_at(from_reader::<IgnoredAny, _>(&bomb[..])), want);
    let largest = LARGEST.with(|c| c.get());
    assert!(largest < 64 << 10, "largest allocation {largest} bytes");
    // The same head followed by zeros for ever: the buffer stops at its
    // bound with MemoryBudget at the item's offset (after one other item),
    // and no allocation is ever larger than the bound.
    for bound in [1 << 10, 1 << 20] {
        LARGEST.with(|c| c.set(0));
        let r = Endless { head: hex("00 5b 7fffffffffffffff"), at: 0 };
        let mut items = StreamDeserializer::<_, IgnoredAny>::new(r).max_buffer(bound);
        items.next().unwrap().unwrap();
        assert_eq!(status_at(items.next().unwrap()), (Status::MemoryBudget, 1), "bound {bound}");
        assert!(items.next().is_none());
        let largest = LARGEST.with(|c| c.get());
        assert!(largest <= bound, "bound {bound}: largest allocation {largest} bytes");
    }
    // An array claiming 2^32 items in 5 bytes: the finder waits for them,
    // the input ends: truncated, nothing sized by the count.
    let arr = hex("9a ffffffff 00");
    LARGEST.with(|c| c.set(0));
    let got = status_at(from_reader::<Vec<u8>, _>(&arr[..]));
    assert_eq!(got, status_at(from_slice::<Vec<u8>>(&arr)));
    assert!(LARGEST.with(|c| c.get()) < 64 << 10);
}

#[test]
fn an_item_larger_than_the_buffer_is_refused_and_smaller_ones_pass() {
    // 1, a 2048-byte string, 2: with a 1 KiB bound the string is refused at
    // its offset 1 and ends the sequence; with 4 KiB all three pass.
    let mut data = hex("01 59 0800");
    data.extend(std::iter::repeat_n(0x41u8, 2048));
    data.push(0x02);
    let mut items = StreamDeserializer::<_, Value>::new(&data[..]).max_buffer(1024);
    assert_eq!(items.next().unwrap().unwrap(), Value::Integer(1));
    assert_eq!(status_at(items.next().unwrap()), (Status::MemoryBudget, 1));
    assert!(items.next().is_none());
    drop(items);
    let items: Vec<Value> = StreamDeserializer::<_, Value>::new(one_byte_reads(data))
        .max_buffer(4096)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[1], Value::Bytes(vec![0x41; 2048]));
}

// ---- a sequence in a slice ----------------------------------------------------------

#[test]
fn slice_items_borrow_and_end_at_the_first_error() {
    let data = hex("63 6f6e65 63 74776f 65 7468726565");
    let mut items = Deserializer::new(&data).unwrap().into_iter::<&str>();
    let first = items.next().unwrap().unwrap();
    assert_eq!(first, "one");
    assert!(std::ptr::eq(first.as_ptr(), &data[1]), "borrowed from the input");
    assert_eq!(items.offset(), 4);
    let rest: Vec<&str> = items.by_ref().collect::<Result<_, _>>().unwrap();
    assert_eq!(rest, ["two", "three"]);
    assert_eq!(items.offset(), data.len());
    assert!(items.next().is_none());
    // Empty input: no items.
    assert!(Deserializer::new(&[]).unwrap().into_iter::<Value>().next().is_none());
    // A type error and a cut item: each the first error, then the end.
    for (row, bytes, want) in [
        ("type error", "01 61 78 03", (Status::TypeMismatch, 1)),
        // from_slice places a cut container at its head.
        ("cut item", "01 82 01", (Status::Truncated, 1)),
        ("bad byte", "01 1c", (Status::ReservedAdditionalInfo, 1)),
    ] {
        let bytes = hex(bytes);
        let mut items = Deserializer::new(&bytes).unwrap().into_iter::<u8>();
        assert_eq!(items.next().unwrap().unwrap(), 1, "{row}");
        assert_eq!(status_at(items.next().unwrap()), want, "{row}");
        assert!(items.next().is_none(), "{row}");
    }
}
