//! `Deserializer`: serde over the library's pull reader, read in batches
//! through `cbor_reader_next_batch` (the one batched C route every binding
//! uses): one FFI call per batch of up to `BATCH` items instead of one or
//! more per item.
//!
//! Strings are slices of the input: `&'a str` / `&'a [u8]` fields with
//! `#[serde(borrow)]` cost no allocation (indefinite-length strings, whose
//! chunks must be joined, can only go to owned `String`/`Vec<u8>` fields).
//! The library validates every text string as UTF-8, skipped ones included,
//! so an invalid string fails at its first bad byte wherever it is; the
//! strings handed to serde are checked again in Rust.
use std::cell::Cell;
use std::mem::MaybeUninit;
use std::ptr::{self, NonNull};

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::error::Error;
use super::tag::{CIBORIUM_TAG_ENUM, CIBORIUM_UNTAGGED, TAG_ENUM, TAG_VARIANT};
use crate::DecodeOptions;
use crate::error::Status;
use crate::ffi;

/// Most items fetched per `cbor_reader_next_batch` call (16 KiB on the
/// stack, left uninitialised). Batches measured faster than one
/// `cbor_reader_next` call per item: canada into typed structs 2.0-4.3 ms
/// batched against 5.6-6.2 ms item by item, in the same (loaded) run.
const BATCH: usize = 256;
/// The size a batch starts at, and goes back to when a value is skipped
/// (`deserialize_ignored_any`); each batch read whole without a skip doubles
/// the next, up to `BATCH`. Each call costs about 130 instructions however
/// many items it delivers, so long runs of wanted items want big batches;
/// but the items of a skipped container that a batch already holds were
/// delivered at about 42 instructions each, where `skip_rest` passes over
/// them for a few: skipping wants small ones. `serde_bench once`: canada
/// 14.38 M instructions at a fixed 64 -> 13.84 M, citm_catalog 9.62 M ->
/// 9.41 M, twitter (most fields skipped) 3.311 M -> 3.317 M; a fixed 256
/// gave canada 13.83 M, citm 9.41 M but twitter 3.49 M.
const SKIP_BATCH: usize = 64;

/// Deserializes one `T` from `data`: exactly one item, nothing after it.
///
/// Each thread keeps the library reader of its last `from_slice` (a few
/// hundred bytes, freed when the thread ends) and resets it for the next
/// call, which saves making one per call.
///
/// ```
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct User<'a> { #[serde(borrow)] name: &'a str, id: u64 }
/// let data = [0xa2, 0x64, b'n', b'a', b'm', b'e', 0x62, b'J', b'o', 0x62, b'i', b'd', 0x07];
/// let u: User = cbor_fast::serde::from_slice(&data).unwrap();
/// assert_eq!(u, User { name: "Jo", id: 7 });
/// assert!(std::ptr::eq(u.name.as_ptr(), &data[7])); // borrowed from the input
/// ```
pub fn from_slice<'a, T: de::Deserialize<'a>>(data: &'a [u8]) -> Result<T, Error> {
    // Built here, not moved out of `new` (the batch is 16 KiB).
    let mut de = Deserializer::over(Deserializer::open(data)?, data);
    let value = de.deserialize_one()?;
    de.end()?;
    Ok(value)
}

/// [`from_slice`] with the library's checks and limits: `max_depth` (0: 512;
/// deeper input is [`Status::Depth`], never a stack overflow),
/// `reject_duplicate_keys`, `deterministic`, `max_string_length`,
/// `max_container_items`, `max_items`. `exact == false` allows bytes after the
/// item; `validate_utf8` is ignored (text is always checked in Rust);
/// `max_memory` must be 0 or `u64::MAX` (no budget: nothing is built by the
/// library).
pub fn from_slice_with<'a, T: de::Deserialize<'a>>(
    data: &'a [u8],
    options: &DecodeOptions,
) -> Result<T, Error> {
    let raw = Deserializer::open(data)?;
    let mut de = Deserializer::over(raw, data);
    de.configure(options)?;
    let value = de.deserialize_one()?;
    if options.exact {
        de.end()?;
    }
    Ok(value)
}

/// A serde deserializer over a borrowed buffer.
///
/// Serde's data model is walked recursively (as by every serde format); the
/// reader's `max_depth` (512 unless raised) bounds that recursion: a
/// recursive target type 511 levels deep fits a 2 MiB thread (tested).
/// Each level (a sequence, map, enum, tag, newtype or `Option`) also
/// needs room on the thread's stack (Linux with glibc; 64 KiB plus what
/// the levels before took, see `super::stack`), else it is
/// [`Status::Depth`] at its head: a raised `max_depth`, a small thread or
/// a type with large levels stops there instead of overflowing the stack.
/// Skipping (`IgnoredAny`, unknown fields) is a loop, at any depth.
pub struct Deserializer<'a> {
    raw: NonNull<ffi::cbor_reader>,
    input: &'a [u8],
    /// `items[..len]` is the batch; `items[len]` is a sentinel of type NONE
    /// (one element more than a batch: there is always one), so that
    /// `buffered()` needs no bounds check and the fast paths one type test.
    /// Only `items[..=len]` is initialised (by the library and `seal`): a
    /// deserializer for a small message writes one element, not 4 KiB
    /// (setting and moving the whole array was two fifths of a 58-byte
    /// message's `from_slice`).
    items: [MaybeUninit<ffi::cbor_fast_item>; BATCH + 1],
    /// Next unread item in `items[..len]`.
    pos: usize,
    len: usize,
    /// Items asked for by the next `fill` (SKIP_BATCH..=BATCH).
    cap: usize,
    /// The offset of the head of the item read last (for positionless
    /// errors) is `items[pos - 1].offset`, found when an error needs it
    /// (`last_offset`), except while `pos == last_at`: then it is `last`
    /// (nothing read yet from this batch, or a value passed over whole).
    last: usize,
    last_at: usize,
    /// Joined chunks of an indefinite-length string.
    scratch: Vec<u8>,
    /// The second reader of the bulk fields (`serde::bulk`), made on first use.
    ahead: crate::typed::Scratch,
    /// The error of a `deserialize_one` call, returned by every later one.
    failed: Option<Error>,
    /// `raw` has the options `open` gives (no `configure`): on drop it goes
    /// to this thread's spare slot (`SPARE`) instead of being freed.
    reusable: bool,
    /// The stack check of each level (see `super::stack`).
    guard: super::stack::Guard,
    /// Input bytes the size hints of the open sequences and maps stand for
    /// (an element needs one byte, a pair two; see `hint`). A `Cell`:
    /// serde asks a hint through `&self`.
    held: Cell<u64>,
}

/// One reader per thread kept from a dropped deserializer (with `open`'s
/// options), so that the next `from_slice` resets it instead of making one:
/// making and freeing a reader (two allocator calls, the options set twice)
/// was about 400 of the 1,838 instructions of a 58-byte message's
/// `from_slice`, a `cbor_reader_reset` about 60. A nested `from_slice` (inside a
/// `Deserialize` impl) finds the slot empty and makes its own; a reader that
/// finds it full is freed. Freed when the thread ends.
struct Spare(Cell<Option<NonNull<ffi::cbor_reader>>>);

impl Drop for Spare {
    fn drop(&mut self) {
        if let Some(r) = self.0.take() {
            // SAFETY: the slot owns the handle, freed exactly once.
            unsafe { ffi::cbor_reader_free(r.as_ptr()) }
        }
    }
}

thread_local! {
    static SPARE: Spare = const { Spare(Cell::new(None)) };
}

// SAFETY: the reader handle has no thread affinity and is used through &mut.
unsafe impl Send for Deserializer<'_> {}

/// The items of a CBOR sequence in a slice, from
/// [`Deserializer::into_iter`].
pub struct SliceItems<'a, T> {
    de: Deserializer<'a>,
    done: bool,
    marker: std::marker::PhantomData<fn() -> T>,
}

impl<'a, T> SliceItems<'a, T> {
    /// The offset of the next item (after the last one returned).
    pub fn offset(&self) -> usize {
        self.de.read_to()
    }
}

impl<'a, T: de::Deserialize<'a>> Iterator for SliceItems<'a, T> {
    type Item = Result<T, Error>;

    fn next(&mut self) -> Option<Result<T, Error>> {
        if self.done || self.de.read_to() == self.de.input.len() {
            self.done = true;
            return None;
        }
        let value = self.de.deserialize_one();
        self.done = value.is_err();
        Some(value)
    }
}

/// The fields of an item the deserializer uses, copied out of the batch.
#[derive(Clone, Copy)]
struct It {
    ty: ffi::cbor_fast_type,
    flags: u32,
    depth: u32,
    offset: usize,
    head: u32,
    value: u64,
    float: f64,
    data: *const u8,
    size: usize,
}

impl It {
    #[inline]
    fn indefinite(&self) -> bool {
        self.flags & ffi::CBOR_FAST_ITEM_INDEFINITE != 0
    }
}

impl<'a> Deserializer<'a> {
    /// A deserializer over `data` (default limits, max depth 512).
    pub fn new(data: &'a [u8]) -> Result<Deserializer<'a>, Error> {
        Ok(Deserializer::over(Deserializer::open(data)?, data))
    }

    /// A reader over `data` for a deserializer, with the library's default
    /// limits and its UTF-8 check on: this thread's spare one if there is
    /// one (see `SPARE`), reset over `data`, else a new one.
    fn open(data: &'a [u8]) -> Result<NonNull<ffi::cbor_reader>, Error> {
        // None also while the thread's locals are being destroyed.
        if let Some(r) = SPARE.try_with(|s| s.0.take()).ok().flatten() {
            // SAFETY: a live handle the slot owned, now owned here; the
            // slice outlives its use ('a is tied to the Deserializer). A
            // reset keeps the options and clears any error.
            let code =
                unsafe { ffi::cbor_reader_reset(r.as_ptr(), data.as_ptr().cast(), data.len()) };
            if code == ffi::CBOR_FAST_OK {
                return Ok(r);
            }
            // SAFETY: owned handle, not used again.
            unsafe { ffi::cbor_reader_free(r.as_ptr()) };
            return Err(crate::Error::from_code(code, 0).into());
        }
        let mut raw = ptr::null_mut();
        // SAFETY: the slice outlives the handle ('a is tied to the
        // Deserializer); valid out pointer; NULL allocator = malloc.
        let code = unsafe {
            ffi::cbor_reader_new(data.as_ptr().cast(), data.len(), ptr::null(), &mut raw)
        };
        if let Some(r) = NonNull::new(raw) {
            // The library checks every text string, skipped ones included
            // (SIMD; errors at the first bad byte); see `view_str`.
            // SAFETY: live handle.
            let set =
                unsafe { ffi::cbor_reader_set(r.as_ptr(), ffi::CBOR_FAST_OPT_VALIDATE_UTF8, 1) };
            if set != ffi::CBOR_FAST_OK {
                // SAFETY: the handle was just made and is not used again.
                unsafe { ffi::cbor_reader_free(r.as_ptr()) };
                return Err(crate::Error::from_code(set, 0).into());
            }
        }
        match NonNull::new(raw) {
            Some(raw) if code == ffi::CBOR_FAST_OK => Ok(raw),
            _ => Err(crate::Error::from_code(
                if code == 0 { ffi::CBOR_FAST_ERR_INTERNAL } else { code },
                0,
            )
            .into()),
        }
    }

    /// The deserializer owning `raw` (from `open`), built in its caller's
    /// frame: inline, and the batch left uninitialised but for its sentinel.
    #[inline(always)]
    fn over(raw: NonNull<ffi::cbor_reader>, input: &'a [u8]) -> Deserializer<'a> {
        let mut de = Deserializer {
            raw,
            input,
            items: [const { MaybeUninit::uninit() }; BATCH + 1],
            pos: 0,
            len: 0,
            cap: SKIP_BATCH,
            last: 0,
            last_at: 0,
            scratch: Vec::new(),
            ahead: crate::typed::Scratch::new(),
            failed: None,
            reusable: true,
            guard: super::stack::Guard::new(),
            held: Cell::new(0),
        };
        de.seal();
        de
    }

    /// A deserializer with the options [`from_slice_with`] describes.
    pub fn with_options(
        data: &'a [u8],
        options: &DecodeOptions,
    ) -> Result<Deserializer<'a>, Error> {
        let mut de = Deserializer::new(data)?;
        de.configure(options)?;
        Ok(de)
    }

    /// A deserializer over the first bytes of an item whose rest has not
    /// come yet (the stream's, see `StreamDeserializer`): its reader is
    /// streaming, so it reads what is there and stops with `NEED_MORE`
    /// (code 2) where the bytes run out, instead of refusing a container's
    /// head whose count the bytes at hand cannot hold (`Truncated`).
    pub(crate) fn partial(
        data: &'a [u8],
        options: Option<&DecodeOptions>,
    ) -> Result<Deserializer<'a>, Error> {
        let mut de = Deserializer::new(data)?;
        if let Some(o) = options {
            de.configure(o)?;
        }
        de.reusable = false;
        // SAFETY: live handle.
        let code =
            unsafe { ffi::cbor_reader_set(de.raw.as_ptr(), ffi::CBOR_FAST_OPT_STREAMING, 1) };
        crate::error::check(code, 0).map_err(Error::from)?;
        Ok(de)
    }

    /// The options of [`from_slice_with`] on a new deserializer's reader.
    fn configure(&mut self, options: &DecodeOptions) -> Result<(), Error> {
        // Other options than `open`'s: the reader is freed, not kept.
        self.reusable = false;
        // u64::MAX is no budget (a lifted limit), which holds here.
        if options.max_memory != 0 && options.max_memory != u64::MAX {
            return Err(Error::new(Status::InvalidArgument, 0, "max_memory applies to documents"));
        }
        // The reader gets the limits and checks cbor_decode() applies for
        // the same options, in one call (0 in a limit is its default). Text
        // stays checked by the library too (see `open`); `exact` is this
        // deserializer's own check at the end, not the reader's.
        let flags =
            (options.flags() & !ffi::CBOR_FAST_DECODE_EXACT) | ffi::CBOR_FAST_DECODE_VALIDATE_UTF8;
        let c = options.to_c();
        // SAFETY: live handle; `c` outlives the call, which only reads it.
        let code = unsafe { ffi::cbor_reader_configure(self.raw.as_ptr(), flags, &c) };
        crate::error::check(code, 0).map_err(Error::from)?;
        // The bulk fields' second reader gets the same limits.
        self.ahead.configure(flags, &c).map_err(Error::from)
    }

    /// Deserializes the next item as a `T` (positionless errors get the
    /// offset of the item being read). An error leaves that item part read:
    /// every later call returns the same error (they went on inside it, and
    /// gave its inner items as if they were items of their own).
    pub fn deserialize_one<T: de::Deserialize<'a>>(&mut self) -> Result<T, Error> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        self.guard.rebase();
        let r = T::deserialize(&mut *self).map_err(|e| e.at(self.last_offset()));
        if let Err(e) = &r {
            self.failed = Some(e.clone());
        }
        r
    }

    /// Checks that the input holds nothing after the items read
    /// ([`Status::TrailingBytes`] at the first extra byte).
    pub fn end(&mut self) -> Result<(), Error> {
        let at = self.read_to();
        if at < self.input.len() {
            return Err(Error::new(Status::TrailingBytes, at, "bytes after the item"));
        }
        Ok(())
    }

    /// The offset after the items read: the next buffered item's, or where
    /// the last one delivered ends (the reader itself may stand further on,
    /// past a bad head it could not deliver).
    fn read_to(&self) -> usize {
        if self.pos < self.len {
            return self.at(self.pos).offset;
        }
        match self.len {
            0 => self.offset(),
            n => item_end(self.at(n - 1)),
        }
    }

    /// The items of the input, a CBOR sequence (RFC 8742), each as a `T`
    /// (strings may borrow from the input): an iterator that ends at the
    /// end of the input. The first error ends it (returned once, then
    /// `None`), whatever its kind, since an item left half read leaves no
    /// next item to go on with. Empty input is an empty sequence.
    ///
    /// ```
    /// use cbor_fast::serde::Deserializer;
    /// // Two items: ["a", 1] and ["b", 2].
    /// let data = [0x82, 0x61, b'a', 0x01, 0x82, 0x61, b'b', 0x02];
    /// let items: Vec<(&str, u8)> = Deserializer::new(&data)
    ///     .unwrap()
    ///     .into_iter()
    ///     .collect::<Result<_, _>>()
    ///     .unwrap();
    /// assert_eq!(items, [("a", 1), ("b", 2)]);
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn into_iter<T: de::Deserialize<'a>>(self) -> SliceItems<'a, T> {
        SliceItems { de: self, done: false, marker: std::marker::PhantomData }
    }

    fn offset(&self) -> usize {
        // SAFETY: live handle.
        unsafe { ffi::cbor_reader_offset(self.raw.as_ptr()) }
    }

    /// Refills the batch. Only called when it is used up.
    #[cold]
    fn fill(&mut self) -> Result<(), Error> {
        // The batch is about to be overwritten: keep what last_offset says.
        self.last = self.last_offset();
        self.last_at = self.pos;
        let mut count = 0usize;
        // SAFETY: live handle; `items` has room for BATCH items and its
        // first is initialised (the sentinel or an item the library wrote),
        // with struct_size; the library only writes whole items; valid out
        // pointer. MaybeUninit<T> has T's layout.
        let code = unsafe {
            ffi::cbor_reader_next_batch(
                self.raw.as_ptr(),
                self.items.as_mut_ptr().cast(),
                self.cap,
                &mut count,
            )
        };
        if code == ffi::CBOR_FAST_OK && count > 0 && count <= self.cap {
            self.cap = (self.cap * 2).min(BATCH);
            self.pos = 0;
            self.last_at = 0;
            self.len = count;
            self.seal();
            return Ok(());
        }
        // The call may have written items past the old batch's end.
        self.seal();
        if code == ffi::CBOR_FAST_END {
            // The top level ended where an item is due.
            let at = self.input.len();
            return Err(Error::new(Status::Truncated, at, "input ends where an item is due"));
        }
        let mut e = ffi::cbor_fast_error::INIT;
        // SAFETY: live handle, valid out pointer.
        let sticky = unsafe { ffi::cbor_reader_error(self.raw.as_ptr(), &mut e) };
        let err = if sticky == code && code != ffi::CBOR_FAST_OK {
            crate::Error::from_c(code, &e)
        } else {
            crate::Error::from_code(
                if code == ffi::CBOR_FAST_OK { ffi::CBOR_FAST_ERR_INTERNAL } else { code },
                self.offset(),
            )
        };
        Err(err.into())
    }

    /// The offset of the head of the item read last (see `last`).
    fn last_offset(&self) -> usize {
        match self.pos.checked_sub(1) {
            Some(i) if self.pos != self.last_at && i <= self.len => self.at(i).offset,
            _ => self.last,
        }
    }

    /// Makes `items[len]` the sentinel, an item of type NONE (see `buffered`)
    /// with struct_size (for `fill` when it is `items[0]`).
    #[inline]
    fn seal(&mut self) {
        if let Some(x) = self.items.get_mut(self.len) {
            x.write(ffi::cbor_fast_item::INIT);
        }
    }

    /// `items[i]` for `i <= len` (the batch and its sentinel).
    #[inline(always)]
    fn at(&self, i: usize) -> &ffi::cbor_fast_item {
        assert!(i <= self.len);
        // SAFETY: len <= BATCH (a count the library returned, checked, or
        // 0), so i is in bounds; items[..len] were written by the library
        // and items[len] by `seal`, after every change of len.
        unsafe { self.items.get_unchecked(i).assume_init_ref() }
    }

    /// The next unread item of the batch for the fast paths, which match on
    /// its type: the sentinel (type NONE) when the batch is used up, which
    /// takes the slow path, `next`. Always `Some` (the fast paths are
    /// written as `if let`).
    #[inline(always)]
    fn buffered(&self) -> Option<&ffi::cbor_fast_item> {
        // pos only passes an item the batch holds (pos < len), and len is a
        // count the library returned (checked <= BATCH) or 0.
        debug_assert!(self.pos <= self.len && self.len <= BATCH);
        // SAFETY: pos <= len <= BATCH < items.len() (above); an unchecked
        // index saves a compare and branch per item (canada: 5 % of
        // from_slice's instructions).
        // items[..len] were written by the library, items[len] by `seal`.
        Some(unsafe { self.items.get_unchecked(self.pos).assume_init_ref() })
    }

    #[inline]
    fn next(&mut self) -> Result<It, Error> {
        if self.pos == self.len {
            self.fill()?;
        }
        let it = *self.at(self.pos);
        self.pos += 1;
        Ok(It {
            ty: it.type_,
            flags: it.flags,
            depth: it.depth,
            offset: it.offset,
            head: it.head_size,
            value: it.value,
            float: it.float_value,
            data: it.data,
            size: it.size,
        })
    }

    /// The type of the next item, without consuming it.
    #[inline]
    fn peek(&mut self) -> Result<(ffi::cbor_fast_type, u32, u64), Error> {
        if self.pos == self.len {
            self.fill()?;
        }
        let it = self.at(self.pos);
        Ok((it.type_, it.flags, it.value))
    }

    /// `Status::Depth` at `offset` when the thread's stack has no room for
    /// one more level of serde's recursion (see `super::stack`): before a
    /// sequence's, map's, enum's or tag's content, and before an `Option`
    /// that is not null or a newtype recurses on the item just peeked at
    /// (serde goes a level deeper without reading anything: a type that
    /// recurses through them alone, `struct A(Option<Box<A>>)`, would go on
    /// until the stack overflows). A compare, unless the stack grew.
    #[inline(always)]
    fn deeper(&mut self, offset: usize, depth: u32) -> Result<(), Error> {
        if self.guard.deeper_at(depth) {
            Ok(())
        } else {
            Err(Error::new(Status::Depth, offset, "nested too deep for this thread's stack"))
        }
    }

    /// The size hint of a definite container with `left` entries still to
    /// read, each `unit` bytes at least (1 for an array item, 2 for a map
    /// pair), asked before its first entry is read; `held` (the
    /// container's) receives the bytes it stands for, added to `self.held`
    /// until the container is dropped (`give_back`). serde reserves by the
    /// hint (up to 1 MiB a container) before reading anything: with the
    /// count alone as the hint (4096 at most)
    /// every level of a recursive type reserved that much over a few bytes
    /// of input (`struct N(Vec<N>)`: 48 MiB from 5.6 KB, 2 GB with a raised
    /// depth). Counts up to 16 are hinted as they are; larger ones only from
    /// the bytes left besides what the hints of the containers around them
    /// stand for. Asked again, the hint it gave.
    #[inline]
    fn hint(&self, left: u64, unit: u64, held: &Cell<u64>) -> usize {
        if left <= 16 {
            return left as usize;
        }
        if held.get() != 0 {
            return (held.get() / unit) as usize;
        }
        self.hint_large(left, unit, held)
    }

    #[inline(never)]
    fn hint_large(&self, left: u64, unit: u64, held: &Cell<u64>) -> usize {
        // From the next unread item's offset (the first entry's head) or,
        // past the batch, the reader's: bytes left after it, at most.
        let at = if self.pos < self.len { self.at(self.pos).offset } else { self.offset() };
        let rest = self.input.len().saturating_sub(at) as u64;
        let h = left.min(4096).min(rest.saturating_sub(self.held.get()) / unit);
        held.set(h * unit);
        self.held.set(self.held.get() + h * unit);
        h as usize
    }

    /// Takes back from `self.held` what a dropped sequence's or map's hint
    /// stood for (`hint`).
    #[inline]
    fn give_back(&self, held: &Cell<u64>) {
        let h = held.get();
        if h != 0 {
            self.held.set(self.held.get() - h);
        }
    }

    /// `deeper` at the item `peek` returned.
    #[inline(always)]
    fn no_input_level(&mut self) -> Result<(), Error> {
        let (offset, depth) = (self.at(self.pos).offset, self.at(self.pos).depth);
        self.deeper(offset, depth)
    }

    /// The input bytes of a definite string item (bounds-checked: a bad view
    /// is an error, not undefined behaviour).
    #[inline]
    fn view(&self, it: &It) -> Result<&'a [u8], Error> {
        self.view_raw(it.data, it.size, it.offset)
    }

    #[inline]
    fn view_raw(&self, data: *const u8, size: usize, offset: usize) -> Result<&'a [u8], Error> {
        let input: &'a [u8] = self.input;
        if size == 0 {
            return Ok(&[]);
        }
        let start = (data as usize).wrapping_sub(input.as_ptr() as usize);
        match start.checked_add(size).and_then(|end| input.get(start..end)) {
            Some(s) => Ok(s),
            None => Err(Error::new(Status::Internal, offset, "string view outside the input")),
        }
    }

    #[inline]
    fn view_str(&self, it: &It) -> Result<&'a str, Error> {
        self.view_str_raw(it.data, it.size, it.offset, it.head)
    }

    /// A definite text string as `&str`. The library has validated it
    /// already; Rust checks again so that soundness never rests on C code:
    /// an ASCII test (word at a time) for the common case, `utf8::is_utf8`
    /// for the rest.
    #[inline(always)]
    fn view_str_raw(
        &self,
        data: *const u8,
        size: usize,
        offset: usize,
        head: u32,
    ) -> Result<&'a str, Error> {
        let input: &'a [u8] = self.input;
        let start = (data as usize).wrapping_sub(input.as_ptr() as usize);
        if size <= 16 && start <= input.len() && size <= input.len() - start {
            // SAFETY: start + size <= input.len(), just checked (indexing
            // would repeat the checks).
            let bytes = unsafe { input.get_unchecked(start..start + size) };
            if is_ascii(bytes) {
                // SAFETY: ASCII is UTF-8 (just checked, in Rust).
                return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
            }
        }
        self.view_str_slow(data, size, offset, head)
    }

    /// `view_str_raw` past its short ASCII case: the ASCII prefix 16 bytes
    /// at a time, then the UTF-8 check (`utf8::is_utf8`) on the rest only (a
    /// byte below 0x80 ends a character, so the rest is checked on its own).
    #[inline(never)]
    fn view_str_slow(
        &self,
        data: *const u8,
        size: usize,
        offset: usize,
        head: u32,
    ) -> Result<&'a str, Error> {
        let bytes = self.view_raw(data, size, offset)?;
        let from = ascii_prefix(bytes);
        if from == bytes.len() {
            // SAFETY: ASCII is UTF-8 (just checked, in Rust).
            return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
        }
        Self::utf8_after(bytes, from, offset + head as usize)
    }

    /// `bytes` as `&str`, its first `from` bytes known to be ASCII (out of
    /// line: the ASCII case above stays small). A failure goes back to
    /// `from_utf8` for its offset (`at` is where `bytes` starts).
    #[inline(never)]
    fn utf8_after(bytes: &'a [u8], from: usize, at: usize) -> Result<&'a str, Error> {
        let rest = &bytes[from..];
        if !super::utf8::is_utf8(rest) {
            if let Err(e) = std::str::from_utf8(rest) {
                let at = at + from + e.valid_up_to();
                return Err(Error::new(Status::InvalidUtf8, at, "invalid UTF-8 in a text string"));
            }
        }
        // SAFETY: bytes[..from] is ASCII and bytes[from..] UTF-8 (both just
        // checked, in Rust), split before an ASCII byte.
        Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
    }

    /// The chunks of an indefinite string (its start item just read) joined
    /// into `scratch`, up to and including its END.
    fn join(&mut self, start: &It) -> Result<(), Error> {
        self.scratch.clear();
        loop {
            let chunk = self.next()?;
            if chunk.ty == ffi::CBOR_FAST_TYPE_END {
                break;
            }
            let bytes = if start.ty == ffi::CBOR_FAST_TYPE_TEXT {
                self.view_str(&chunk)?.as_bytes()
            } else {
                self.view(&chunk)?
            };
            self.scratch.extend_from_slice(bytes);
        }
        Ok(())
    }

    /// Consumes the END item of the container whose children were read:
    /// straight from the batch when it is there, else through `close_slow`.
    #[inline]
    fn close(&mut self, what: &'static str) -> Result<(), Error> {
        if let Some(it) = self.buffered() {
            if it.type_ == ffi::CBOR_FAST_TYPE_END {
                self.pos += 1;
                return Ok(());
            }
        }
        self.close_slow(what)
    }

    /// `close` when the batch is used up or the next item is no END.
    #[cold]
    #[inline(never)]
    fn close_slow(&mut self, what: &'static str) -> Result<(), Error> {
        let it = self.next()?;
        if it.ty == ffi::CBOR_FAST_TYPE_END {
            return Ok(());
        }
        Err(Error::new(Status::TypeMismatch, it.offset, format!("more {what} than expected")))
    }

    /// Passes over the next complete item (tags, containers and all; the
    /// library has checked its text). Iterative: no recursion on the input's
    /// depth.
    fn skip(&mut self) -> Result<(), Error> {
        let mut it = self.next()?;
        while it.ty == ffi::CBOR_FAST_TYPE_TAG {
            it = self.next()?;
        }
        let opens =
            matches!(it.ty, ffi::CBOR_FAST_TYPE_ARRAY | ffi::CBOR_FAST_TYPE_MAP) || it.indefinite();
        if !opens {
            return Ok(());
        }
        let depth = it.depth;
        let container = it.ty != ffi::CBOR_FAST_TYPE_BYTES && it.ty != ffi::CBOR_FAST_TYPE_TEXT;
        self.cap = SKIP_BATCH;
        loop {
            // What the batch holds of the value.
            while self.pos < self.len {
                let x = *self.at(self.pos);
                self.pos += 1;
                if x.type_ == ffi::CBOR_FAST_TYPE_END && x.depth == depth {
                    return Ok(());
                }
            }
            if container {
                return self.skip_rest(depth, it.indefinite());
            }
            self.fill()?;
        }
    }

    /// The batch ended inside a container being skipped (its head at
    /// `depth`): the library passes over the rest, END included, without
    /// delivering the items (the same checks and errors, fewer instructions
    /// than batching them). Its END stays the item read last: a definite
    /// container's END is where the reader now stands, a break the byte
    /// before.
    #[cold]
    fn skip_rest(&mut self, depth: u32, indefinite: bool) -> Result<(), Error> {
        let raw = self.raw.as_ptr();
        // SAFETY (all calls): live handle.
        while unsafe { ffi::cbor_reader_depth(raw) } > depth {
            let code = unsafe { ffi::cbor_reader_skip_to_end(raw) };
            if code != ffi::CBOR_FAST_OK {
                let at = self.offset();
                return Err(crate::typed::reader_error(raw, code, at, 0).into());
            }
        }
        // The batch is used up: empty it, so that `end` and the next read
        // go on from the reader's position.
        self.pos = 0;
        self.len = 0;
        self.seal();
        self.last = self.offset() - usize::from(indefinite);
        self.last_at = 0;
        Ok(())
    }

    /// A `serde::bulk` field: the next item, an array of numbers or a typed
    /// array, read in one library call on the second reader; then the main
    /// reader passes over it. `None` (nothing consumed) when the item is no
    /// such array, for the element-by-element path to report or accept.
    fn bulk<T: crate::Number>(&mut self) -> Result<Option<Vec<T>>, Error> {
        if self.pos == self.len {
            self.fill()?;
        }
        let head = *self.at(self.pos);
        let input: &'a [u8] = self.input;
        let rest = input.get(head.offset..).unwrap_or(&[]);
        let r = self.ahead.over(rest)?;
        match crate::typed::read_ahead::<T>(r, rest, head.offset) {
            Ok((v, _)) => {
                self.pass_over(&head)?;
                Ok(Some(v))
            }
            Err(e) => {
                let mut ce = ffi::cbor_fast_error::INIT;
                // SAFETY: live handle, valid out pointer.
                let sticky = unsafe { ffi::cbor_reader_error(r, &mut ce) } != ffi::CBOR_FAST_OK;
                if sticky || e.status != Status::TypeMismatch { Err(e.into()) } else { Ok(None) }
            }
        }
    }

    /// Consumes the value whose head is `items[pos]` (an array or a tag over
    /// numbers, known well-formed): what the batch holds of it, then, if the
    /// batch ended inside it, the library skips the rest.
    fn pass_over(&mut self, head: &ffi::cbor_fast_item) -> Result<(), Error> {
        let depth = head.depth;
        let array = head.type_ == ffi::CBOR_FAST_TYPE_ARRAY;
        self.pos += 1;
        while self.pos < self.len {
            let x = self.at(self.pos);
            if x.depth > depth {
                self.pos += 1;
                continue;
            }
            if array && x.type_ == ffi::CBOR_FAST_TYPE_END && x.depth == depth {
                self.pos += 1;
            }
            // The value's head stays the item read last.
            self.last = head.offset;
            self.last_at = self.pos;
            return Ok(());
        }
        self.last = head.offset;
        self.last_at = self.pos;
        // The batch ended inside the value: an array (or the tag around one)
        // still open, or a tag whose content is still to come. A tag closes
        // with its content, so the reader is back at `depth` when done.
        // SAFETY (both calls): live handle.
        while unsafe { ffi::cbor_reader_depth(self.raw.as_ptr()) } > depth {
            let code = unsafe { ffi::cbor_reader_skip_to_end(self.raw.as_ptr()) };
            if code != ffi::CBOR_FAST_OK {
                let at = self.offset();
                return Err(crate::typed::reader_error(self.raw.as_ptr(), code, at, 0).into());
            }
        }
        // The batch is used up (its last element was inside the value):
        // empty it, as `skip_rest` does, so that `end` and the next read go
        // on from the reader's position, after the value. (Kept, `end` took
        // the end of that element for the end of the input read, and a
        // top-level bulk array longer than the batch was TrailingBytes.)
        self.pos = 0;
        self.len = 0;
        self.seal();
        self.last_at = 0;
        Ok(())
    }

    /// The magnitude of a bignum whose tag (2 or 3) was just read.
    fn bignum(&mut self, tag: &It) -> Result<(bool, Option<u128>), Error> {
        let content = self.next()?;
        if content.ty != ffi::CBOR_FAST_TYPE_BYTES {
            return Err(Error::new(
                Status::TypeMismatch,
                content.offset,
                "a bignum tag (2 or 3) needs a byte string",
            ));
        }
        let negative = tag.value == 3;
        let fold = |bytes: &[u8]| -> Option<u128> {
            let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
            let m = &bytes[start..];
            (m.len() <= 16).then(|| m.iter().fold(0u128, |acc, &b| (acc << 8) | u128::from(b)))
        };
        let magnitude = if content.indefinite() {
            self.join(&content)?;
            fold(&self.scratch)
        } else {
            fold(self.view(&content)?)
        };
        Ok((negative, magnitude))
    }

    /// Visits an integer (tags 2/3 already resolved to a magnitude; `at`:
    /// the offset of its head, or of the tag).
    fn visit_int<V: Visitor<'a>>(
        negative: bool,
        magnitude: u128,
        at: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if !negative {
            return match u64::try_from(magnitude) {
                Ok(v) => visitor.visit_u64(v),
                Err(_) => visitor.visit_u128(magnitude),
            };
        }
        // -1 - magnitude
        if magnitude <= i64::MAX as u128 {
            visitor.visit_i64(-1 - magnitude as i64)
        } else if magnitude <= i128::MAX as u128 {
            visitor.visit_i128(-1 - magnitude as i128)
        } else {
            Err(Error::new(Status::OutOfRange, at, "integer below i128::MIN"))
        }
    }

    fn unsupported(it: &It, what: &str) -> Error {
        Error::new(Status::TypeMismatch, it.offset, format!("{what} has no serde equivalent"))
    }

    /// The item `it` (already read) given to `visitor`.
    fn any_from<V: Visitor<'a>>(&mut self, mut it: It, visitor: V) -> Result<V::Value, Error> {
        loop {
            return match it.ty {
                ffi::CBOR_FAST_TYPE_UINT => visitor.visit_u64(it.value),
                ffi::CBOR_FAST_TYPE_NEGATIVE => {
                    Self::visit_int(true, u128::from(it.value), it.offset, visitor)
                }
                ffi::CBOR_FAST_TYPE_TEXT => {
                    if it.indefinite() {
                        self.join(&it)?;
                        // Checked chunk by chunk in join.
                        let s = std::str::from_utf8(&self.scratch).map_err(|_| {
                            Error::new(Status::InvalidUtf8, it.offset, "invalid UTF-8")
                        })?;
                        // (a visitor's error at the string's head, not
                        // at its last chunk or break)
                        visitor.visit_str(s).map_err(|e: Error| e.at(it.offset))
                    } else {
                        visitor.visit_borrowed_str(self.view_str(&it)?)
                    }
                }
                ffi::CBOR_FAST_TYPE_BYTES => {
                    if it.indefinite() {
                        self.join(&it)?;
                        visitor.visit_bytes(&self.scratch).map_err(|e: Error| e.at(it.offset))
                    } else {
                        visitor.visit_borrowed_bytes(self.view(&it)?)
                    }
                }
                ffi::CBOR_FAST_TYPE_ARRAY => {
                    self.deeper(it.offset, it.depth)?;
                    let left = (!it.indefinite()).then_some(it.value);
                    let v = visitor.visit_seq(Seq { de: self, left, held: Cell::new(0) })?;
                    self.close("array items")?;
                    Ok(v)
                }
                ffi::CBOR_FAST_TYPE_MAP => {
                    self.deeper(it.offset, it.depth)?;
                    let left = (!it.indefinite()).then_some(it.value);
                    let v = visitor.visit_map(Map { de: self, left, held: Cell::new(0) })?;
                    self.close("map entries")?;
                    Ok(v)
                }
                ffi::CBOR_FAST_TYPE_TAG => {
                    if it.value == 2 || it.value == 3 {
                        let (negative, magnitude) = self.bignum(&it)?;
                        match magnitude {
                            // (a visitor's range error at the tag, as the
                            // library's own are)
                            Some(m) => Self::visit_int(negative, m, it.offset, visitor)
                                .map_err(|e| e.at(it.offset)),
                            None => Err(Error::new(
                                Status::OutOfRange,
                                it.offset,
                                "bignum beyond 128 bits",
                            )),
                        }
                    } else {
                        // Transparent, as in serde_cbor: the content.
                        it = self.next()?;
                        continue;
                    }
                }
                ffi::CBOR_FAST_TYPE_BOOL => visitor.visit_bool(it.value == 21),
                ffi::CBOR_FAST_TYPE_NULL | ffi::CBOR_FAST_TYPE_UNDEFINED => visitor.visit_unit(),
                ffi::CBOR_FAST_TYPE_FLOAT => visitor.visit_f64(it.float),
                ffi::CBOR_FAST_TYPE_SIMPLE => Err(Self::unsupported(&it, "a simple value")),
                _ => Err(Error::new(Status::Internal, it.offset, "unexpected end of container")),
            };
        }
    }
}

/// `bytes.is_ascii()`, with fewer steps for the short strings that field
/// names and most keys are: up to 16 bytes in one or two (overlapping) loads
/// instead of a word loop with a byte-by-byte tail (citm_catalog: about 50
/// instructions per key through `is_ascii`).
#[inline]
fn is_ascii(b: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let n = b.len();
    match n {
        0 => true,
        1..=3 => (b[0] | b[n / 2] | b[n - 1]) < 0x80,
        4..=7 => {
            let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]);
            (lo | hi) & 0x8080_8080 == 0
        }
        8..=16 => {
            // Exactly 8 bytes each: the HIGH fallback is never taken.
            let word = |w: &[u8]| <[u8; 8]>::try_from(w).map_or(HIGH, u64::from_le_bytes);
            (word(&b[..8]) | word(&b[n - 8..])) & HIGH == 0
        }
        _ => b.is_ascii(),
    }
}

/// The length of an all-ASCII prefix of `b`: all of `b` when it is ASCII,
/// else a multiple of 16 bytes that ends at or before the first non-ASCII
/// byte (two words per step, no byte loop).
#[inline]
fn ascii_prefix(b: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = b.chunks_exact(16);
    let mut n = 0;
    for c in &mut chunks {
        let (lo, hi) = c.split_at(8);
        // Exactly 8 bytes each: the HIGH fallback is never taken.
        let word = |w: &[u8]| <[u8; 8]>::try_from(w).map_or(HIGH, u64::from_le_bytes);
        if (word(lo) | word(hi)) & HIGH != 0 {
            return n;
        }
        n += 16;
    }
    if is_ascii(chunks.remainder()) { b.len() } else { n }
}

/// Offset just past `it` (for a container or an indefinite string: past its
/// head; a definite container's END sits after its last child, a break is
/// one byte).
fn item_end(it: &ffi::cbor_fast_item) -> usize {
    let indefinite = it.flags & ffi::CBOR_FAST_ITEM_INDEFINITE != 0;
    match it.type_ {
        ffi::CBOR_FAST_TYPE_END if it.flags & ffi::CBOR_FAST_ITEM_BREAK != 0 => it.offset + 1,
        ffi::CBOR_FAST_TYPE_END => it.offset,
        ffi::CBOR_FAST_TYPE_BYTES | ffi::CBOR_FAST_TYPE_TEXT if !indefinite => {
            it.offset + it.head_size as usize + it.size
        }
        _ => it.offset + it.head_size as usize,
    }
}

impl Drop for Deserializer<'_> {
    fn drop(&mut self) {
        let raw = self.raw;
        let kept = self.reusable
            && SPARE
                .try_with(|s| match s.0.get() {
                    None => {
                        s.0.set(Some(raw));
                        true
                    }
                    Some(_) => false,
                })
                .unwrap_or(false);
        if !kept {
            // SAFETY: owned handle, freed exactly once.
            unsafe { ffi::cbor_reader_free(raw.as_ptr()) }
        }
    }
}

macro_rules! forward_to_any {
    // Numbers straight from the batch; the rest out of line (`any_slow`),
    // which keeps these small and mostly free of stack work.
    (numbers: $($name:ident)*) => {$(
        #[inline]
        fn $name<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
            if let Some(it) = self.buffered() {
                let ty = it.type_;
                if ty == ffi::CBOR_FAST_TYPE_FLOAT {
                    let float = it.float_value;
                    self.pos += 1;
                    return visitor.visit_f64(float);
                }
                if ty == ffi::CBOR_FAST_TYPE_UINT {
                    let value = it.value;
                    self.pos += 1;
                    return visitor.visit_u64(value);
                }
            }
            self.any_slow(visitor)
        }
    )*};
    // Definite text too (strings, keys and field names).
    (text: $($name:ident)*) => {$(
        #[inline]
        fn $name<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
            if let Some(it) = self.buffered() {
                if it.type_ == ffi::CBOR_FAST_TYPE_TEXT
                    && it.flags & ffi::CBOR_FAST_ITEM_INDEFINITE == 0
                {
                    let (data, size, offset, head) = (it.data, it.size, it.offset, it.head_size);
                    self.pos += 1;
                    let s = self.view_str_raw(data, size, offset, head)?;
                    return visitor.visit_borrowed_str(s);
                }
            }
            self.any_slow(visitor)
        }
    )*};
}

impl<'a> Deserializer<'a> {
    /// A definite array straight from the batch (the common case of
    /// sequences and tuples); anything else through `any_from`.
    #[inline]
    fn seq_from_batch<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        if let Some(it) = self.buffered() {
            if it.type_ == ffi::CBOR_FAST_TYPE_ARRAY
                && it.flags & ffi::CBOR_FAST_ITEM_INDEFINITE == 0
            {
                let (left, offset, depth) = (it.value, it.offset, it.depth);
                self.deeper(offset, depth)?;
                self.pos += 1;
                let v =
                    visitor.visit_seq(Seq { de: self, left: Some(left), held: Cell::new(0) })?;
                self.close("array items")?;
                return Ok(v);
            }
        }
        let it = self.next()?;
        self.any_from(it, visitor)
    }

    /// A definite map straight from the batch (structs, maps); anything
    /// else through `any_from`.
    #[inline]
    fn map_from_batch<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        if let Some(it) = self.buffered() {
            if it.type_ == ffi::CBOR_FAST_TYPE_MAP && it.flags & ffi::CBOR_FAST_ITEM_INDEFINITE == 0
            {
                let (left, offset, depth) = (it.value, it.offset, it.depth);
                self.deeper(offset, depth)?;
                self.pos += 1;
                let v =
                    visitor.visit_map(Map { de: self, left: Some(left), held: Cell::new(0) })?;
                self.close("map entries")?;
                return Ok(v);
            }
        }
        let it = self.next()?;
        self.any_from(it, visitor)
    }
    /// `deserialize_f32` past its fast path: a half or single NaN goes to
    /// the visitor as an `f32` of its own bits (through `f64`, the item's
    /// widened value, serde's `as f32` set a signalling NaN's quiet bit: fa
    /// 7f800001 read back as 7fc00001); anything else as `deserialize_f64`.
    /// Every other value is exact either way.
    #[inline(never)]
    fn f32_slow<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        if self.peek()?.0 == ffi::CBOR_FAST_TYPE_FLOAT {
            let it = self.at(self.pos);
            if it.float_width <= 4 && it.float_value.is_nan() {
                let raw = it.value;
                let bits = if it.float_width == 4 {
                    raw as u32
                } else {
                    // Half: sign, all-ones exponent, the 10 payload bits on top.
                    ((raw as u32 & 0x8000) << 16) | 0x7f80_0000 | ((raw as u32 & 0x03ff) << 13)
                };
                self.pos += 1;
                return visitor.visit_f32(f32::from_bits(bits));
            }
        }
        de::Deserializer::deserialize_f64(self, visitor)
    }

    /// `deserialize_any` past its fast paths: definite text from the batch,
    /// else the next item through `any_from`.
    #[inline(never)]
    fn any_slow<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        if let Some(it) = self.buffered() {
            match it.type_ {
                ffi::CBOR_FAST_TYPE_TEXT if it.flags & ffi::CBOR_FAST_ITEM_INDEFINITE == 0 => {
                    let (data, size, offset, head) = (it.data, it.size, it.offset, it.head_size);
                    self.pos += 1;
                    let s = self.view_str_raw(data, size, offset, head)?;
                    return visitor.visit_borrowed_str(s);
                }
                ffi::CBOR_FAST_TYPE_FLOAT => {
                    let float = it.float_value;
                    self.pos += 1;
                    return visitor.visit_f64(float);
                }
                ffi::CBOR_FAST_TYPE_UINT => {
                    let value = it.value;
                    self.pos += 1;
                    return visitor.visit_u64(value);
                }
                // -1 - value fits an i64 (larger ones go through visit_int)
                ffi::CBOR_FAST_TYPE_NEGATIVE if it.value <= i64::MAX as u64 => {
                    let value = it.value;
                    self.pos += 1;
                    return visitor.visit_i64(-1 - value as i64);
                }
                ffi::CBOR_FAST_TYPE_BOOL => {
                    let value = it.value == 21;
                    self.pos += 1;
                    return visitor.visit_bool(value);
                }
                _ => {}
            }
        }
        let it = self.next()?;
        self.any_from(it, visitor)
    }

    /// ciborium's `"@@TAG@@"` enum (see `deserialize_enum`). An error the
    /// content raises keeps its own offset; one raised after it (by the
    /// tag type's `Deserialize`: `Required` without its tag or with
    /// another) is placed at the tag, or at the item when it has none.
    fn ciborium_tag<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let (ty, _, value) = self.peek()?;
        let (start, depth) = (self.at(self.pos).offset, self.at(self.pos).depth);
        self.deeper(start, depth)?;
        let tag = if ty == ffi::CBOR_FAST_TYPE_TAG {
            self.next()?;
            Some(value)
        } else {
            // No tag: the content is this same item, one level deeper.
            None
        };
        let v =
            visitor.visit_enum(CiboriumTag { de: self, tag, stage: 0 }).map_err(|e| e.at(start))?;
        // The tagged item is the item read last: an error the tag type
        // raises when it gets its value (`Required` with another tag) is
        // placed at its head.
        self.last = start;
        self.last_at = self.pos;
        Ok(v)
    }

    fn bulk_field<T: crate::Number, V: Visitor<'a>>(
        &mut self,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.bulk::<T>()? {
            Some(v) => {
                super::numbers::hand_over(v);
                // A visitor that is not the bulk one (or panics) leaves the
                // `Vec` for no later call.
                let _clear = super::OnDrop(super::numbers::drop_handed);
                visitor.visit_unit()
            }
            None => visitor.visit_newtype_struct(self),
        }
    }
}

impl<'a> de::Deserializer<'a> for &mut Deserializer<'a> {
    type Error = Error;

    forward_to_any! { numbers:
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f64
    }

    /// Any float but a NaN straight from the batch, as `deserialize_f64`
    /// (one type test and one NaN test; a NaN and width test first, then
    /// `deserialize_f64`, took `Vec<f32>` 100 instructions an element
    /// against serde_cbor's 57); the rest, NaNs with their bits kept, out of
    /// line (`f32_slow`).
    #[inline]
    fn deserialize_f32<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        if let Some(it) = self.buffered() {
            if it.type_ == ffi::CBOR_FAST_TYPE_FLOAT {
                let float = it.float_value;
                if !float.is_nan() {
                    self.pos += 1;
                    return visitor.visit_f64(float);
                }
            }
        }
        self.f32_slow(visitor)
    }

    forward_to_any! { text:
        deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_identifier
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        self.seq_from_batch(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        self.map_from_batch(visitor)
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        let (ty, _, _) = self.peek()?;
        if ty == ffi::CBOR_FAST_TYPE_NULL || ty == ffi::CBOR_FAST_TYPE_UNDEFINED {
            self.pos += 1; // peek left it in the batch
            visitor.visit_none()
        } else {
            self.no_input_level()?;
            visitor.visit_some(self)
        }
    }

    /// `null`, `undefined`, or `[]` (minicbor-serde's default for `()`).
    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        let it = self.next()?;
        if it.ty == ffi::CBOR_FAST_TYPE_ARRAY && !it.indefinite() && it.value == 0 {
            self.close("array items")?;
            return visitor.visit_unit();
        }
        self.any_from(it, visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match name {
            super::numbers::BULK_U64 => return self.bulk_field::<u64, V>(visitor),
            super::numbers::BULK_I64 => return self.bulk_field::<i64, V>(visitor),
            super::numbers::BULK_F64 => return self.bulk_field::<f64, V>(visitor),
            _ => {}
        }
        if name == TAG_ENUM {
            // Tagged<T>: (Some(tag), content) or (None, the item).
            let (ty, _, value) = self.peek()?;
            let (offset, depth) = (self.at(self.pos).offset, self.at(self.pos).depth);
            self.deeper(offset, depth)?;
            let tag = if ty == ffi::CBOR_FAST_TYPE_TAG {
                self.next()?;
                Some(value)
            } else {
                // No tag: the content is this same item, one level deeper.
                None
            };
            return visitor.visit_seq(TagSeq { de: self, tag, stage: 0 });
        }
        self.peek()?;
        self.no_input_level()?;
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.seq_from_batch(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.seq_from_batch(visitor)
    }

    /// A map keyed by field names (or, like serde_cbor's packed form, an
    /// array of the fields in order).
    #[inline]
    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.map_from_batch(visitor)
    }

    /// Externally tagged: `"Variant"` for a unit variant, `{"Variant": content}`
    /// otherwise (serde_cbor's and ciborium's form).
    ///
    /// A unit variant's name may also be an indefinite-length text string or
    /// a byte string (as serde_cbor reads it, and as map keys read).
    ///
    /// ciborium's tag types (`ciborium::tag::{Captured, Required,
    /// Accepted}`, the enum `"@@TAG@@"`) are read as ciborium reads them:
    /// variant `"@@TAGGED@@"` with (tag, content) when the item has a tag,
    /// else `"@@UNTAGGED@@"` with the item.
    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == CIBORIUM_TAG_ENUM {
            return self.ciborium_tag(visitor);
        }
        let mut it = self.next()?;
        while it.ty == ffi::CBOR_FAST_TYPE_TAG {
            if it.value == 2 || it.value == 3 {
                // A bignum is an integer (as for every other target), not
                // its byte string read as a variant's name.
                return Err(Error::new(
                    Status::TypeMismatch,
                    it.offset,
                    "a bignum (tag 2 or 3) is not an enum variant",
                ));
            }
            it = self.next()?;
        }
        match it.ty {
            ffi::CBOR_FAST_TYPE_TEXT if !it.indefinite() => {
                let s = self.view_str(&it)?;
                visitor.visit_enum(s.into_deserializer())
            }
            ffi::CBOR_FAST_TYPE_TEXT => {
                self.join(&it)?;
                // Checked chunk by chunk in join.
                let s = std::str::from_utf8(&self.scratch)
                    .map_err(|_| Error::new(Status::InvalidUtf8, it.offset, "invalid UTF-8"))?;
                // An unknown name: at the string's head, not its last chunk.
                visitor.visit_enum(s.into_deserializer()).map_err(|e: Error| e.at(it.offset))
            }
            ffi::CBOR_FAST_TYPE_BYTES => {
                let bytes = if it.indefinite() {
                    self.join(&it)?;
                    &self.scratch[..]
                } else {
                    self.view(&it)?
                };
                visitor.visit_enum(UnitName(bytes)).map_err(|e| e.at(it.offset))
            }
            ffi::CBOR_FAST_TYPE_UINT => {
                let v = u32::try_from(it.value).map_err(|_| {
                    Error::new(Status::OutOfRange, it.offset, "variant index out of range")
                })?;
                visitor.visit_enum(v.into_deserializer())
            }
            ffi::CBOR_FAST_TYPE_MAP if it.value == 1 && !it.indefinite() => {
                self.deeper(it.offset, it.depth)?;
                let v = visitor.visit_enum(Enum { de: self })?;
                self.close("map entries")?;
                Ok(v)
            }
            _ => Err(Error::new(
                Status::TypeMismatch,
                it.offset,
                "an enum is a variant name or a map of one entry",
            )),
        }
    }

    /// A number, simple value or definite string in the batch (most
    /// unknown fields) is passed over in place; the rest through `skip`.
    #[inline]
    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        if let Some(it) = self.buffered() {
            if matches!(
                it.type_,
                ffi::CBOR_FAST_TYPE_UINT..=ffi::CBOR_FAST_TYPE_TEXT
                    | ffi::CBOR_FAST_TYPE_SIMPLE..=ffi::CBOR_FAST_TYPE_FLOAT
            ) && it.flags & ffi::CBOR_FAST_ITEM_INDEFINITE == 0
            {
                self.pos += 1;
                self.cap = SKIP_BATCH;
                return visitor.visit_unit();
            }
        }
        self.skip()?;
        visitor.visit_unit()
    }
}

/// Array items: `left` for a definite array, `None` until END otherwise.
struct Seq<'d, 'a> {
    de: &'d mut Deserializer<'a>,
    left: Option<u64>,
    /// Bytes its size hint stands for (`Deserializer::hint`), in `de.held`
    /// until it is dropped.
    held: Cell<u64>,
}

impl Drop for Seq<'_, '_> {
    #[inline]
    fn drop(&mut self) {
        self.de.give_back(&self.held);
    }
}

impl<'a> de::SeqAccess<'a> for Seq<'_, 'a> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'a>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match &mut self.left {
            Some(0) => return Ok(None),
            Some(n) => *n -= 1,
            None => {
                if self.de.peek()?.0 == ffi::CBOR_FAST_TYPE_END {
                    return Ok(None);
                }
            }
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        // Capped: a hostile count must not become a huge reservation.
        self.left.map(|n| self.de.hint(n, 1, &self.held))
    }
}

/// Map entries, as `Seq`.
struct Map<'d, 'a> {
    de: &'d mut Deserializer<'a>,
    left: Option<u64>,
    /// As `Seq::held`.
    held: Cell<u64>,
}

impl Drop for Map<'_, '_> {
    #[inline]
    fn drop(&mut self) {
        self.de.give_back(&self.held);
    }
}

impl<'a> de::MapAccess<'a> for Map<'_, 'a> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'a>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match &mut self.left {
            Some(0) => return Ok(None),
            Some(n) => *n -= 1,
            None => {
                if self.de.peek()?.0 == ffi::CBOR_FAST_TYPE_END {
                    return Ok(None);
                }
            }
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(&mut *self.de)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.left.map(|n| self.de.hint(n, 2, &self.held))
    }
}

/// `{"Variant": content}`: the key names the variant.
struct Enum<'d, 'a> {
    de: &'d mut Deserializer<'a>,
}

impl<'d, 'a> de::EnumAccess<'a> for Enum<'d, 'a> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'a>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let v = seed.deserialize(&mut *self.de)?;
        Ok((v, self))
    }
}

impl<'a> de::VariantAccess<'a> for Enum<'_, 'a> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        // {"Unit": null}, as some encoders write it.
        de::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_any(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'a>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
    }
}

/// A unit variant named by a byte string.
struct UnitName<'b>(&'b [u8]);

impl<'a> de::EnumAccess<'a> for UnitName<'_> {
    type Error = Error;
    type Variant = UnitOnly;

    fn variant_seed<V: DeserializeSeed<'a>>(self, seed: V) -> Result<(V::Value, UnitOnly), Error> {
        let v = seed.deserialize(de::value::BytesDeserializer::<Error>::new(self.0))?;
        Ok((v, UnitOnly))
    }
}

/// The variant of a bare name: a unit variant only.
struct UnitOnly;

impl<'a> de::VariantAccess<'a> for UnitOnly {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, _seed: T) -> Result<T::Value, Error> {
        Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"newtype variant"))
    }

    fn tuple_variant<V: Visitor<'a>>(self, _len: usize, _visitor: V) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"tuple variant"))
    }

    fn struct_variant<V: Visitor<'a>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"struct variant"))
    }
}

/// ciborium's `"@@TAG@@"` enum over the next item, its tag (if any) read:
/// variant `"@@TAGGED@@"`, a tuple of the tag number and the content, or
/// `"@@UNTAGGED@@"`, a newtype of the item (as ciborium's `TagAccess`).
struct CiboriumTag<'d, 'a> {
    de: &'d mut Deserializer<'a>,
    tag: Option<u64>,
    stage: u8,
}

/// A tag's content; its errors placed where it failed.
fn tag_content<'a, T: DeserializeSeed<'a>>(
    de: &mut Deserializer<'a>,
    seed: T,
) -> Result<T::Value, Error> {
    seed.deserialize(&mut *de).map_err(|e| e.at(de.last_offset()))
}

impl<'d, 'a> de::EnumAccess<'a> for CiboriumTag<'d, 'a> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'a>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let name = if self.tag.is_some() { TAG_VARIANT } else { CIBORIUM_UNTAGGED };
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(name))?;
        Ok((v, self))
    }
}

impl<'a> de::VariantAccess<'a> for CiboriumTag<'_, 'a> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Err(de::Error::custom("expected tag"))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, seed: T) -> Result<T::Value, Error> {
        tag_content(self.de, seed)
    }

    fn tuple_variant<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_seq(self)
    }

    fn struct_variant<V: Visitor<'a>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::custom("expected tag"))
    }
}

/// `"@@TAGGED@@"`'s fields: the tag number, then the content.
impl<'a> de::SeqAccess<'a> for CiboriumTag<'_, 'a> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.stage += 1;
        match (self.stage, self.tag) {
            (1, Some(t)) => seed.deserialize(t.into_deserializer()).map(Some),
            (1, None) => Err(de::Error::custom("expected tag")),
            (2, _) => tag_content(self.de, seed).map(Some),
            _ => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(2usize.saturating_sub(usize::from(self.stage)))
    }
}

/// `Tagged<T>` as a sequence: the tag number (an `Option<u64>`), then the item.
struct TagSeq<'d, 'a> {
    de: &'d mut Deserializer<'a>,
    tag: Option<u64>,
    stage: u8,
}

impl<'a> de::SeqAccess<'a> for TagSeq<'_, 'a> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'a>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.stage += 1;
        match self.stage {
            1 => seed.deserialize(OptionU64(self.tag)).map(Some),
            2 => seed.deserialize(&mut *self.de).map(Some),
            _ => Ok(None),
        }
    }
}

/// Hands an `Option<u64>` to a seed.
struct OptionU64(Option<u64>);

impl<'de> de::Deserializer<'de> for OptionU64 {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Some(t) => visitor.visit_some(t.into_deserializer()),
            None => visitor.visit_none(),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    /// `ascii_prefix` is the whole slice for ASCII, else a multiple of 16 at
    /// or before the first non-ASCII byte, for every length and place.
    #[test]
    fn ascii_prefix_stops_at_or_before_the_first_high_byte() {
        for n in 0..=70 {
            let clean: Vec<u8> = (0..n).map(|i| b' ' + (i % 95) as u8).collect();
            assert_eq!(super::ascii_prefix(&clean), n, "{n}");
            for at in 0..n {
                for high in [0x80u8, 0xe3, 0xff] {
                    let mut b = clean.clone();
                    b[at] = high;
                    let p = super::ascii_prefix(&b);
                    assert_eq!(p, at / 16 * 16, "{n} {at} {high:#x}");
                }
            }
        }
    }

    /// `view_str_slow` accepts what `from_utf8` accepts and fails where it
    /// fails (offset: the string's head plus `valid_up_to`), with one- to
    /// four-byte characters and bad bytes at every place of strings around
    /// the 16-byte steps.
    #[test]
    fn view_str_slow_agrees_with_from_utf8() {
        let pieces: [&[u8]; 8] = [
            b"a",
            "é".as_bytes(),
            "ア".as_bytes(),
            "😀".as_bytes(),
            b"\xff",
            b"\xe3\x81",
            b"\xed\xa0\x80",
            b"\xc0\xaf",
        ];
        let mut data = Vec::new();
        let mut cases = Vec::new();
        for n in [0usize, 15, 16, 17, 31, 32, 40] {
            for piece in pieces {
                for at in 0..=n {
                    let start = data.len();
                    data.extend(std::iter::repeat_n(b'x', at));
                    data.extend_from_slice(piece);
                    data.extend(std::iter::repeat_n(b'y', n - at));
                    cases.push((start, data.len() - start));
                }
            }
        }
        let de = super::Deserializer::new(&data).unwrap();
        for (start, len) in cases {
            let bytes = &data[start..start + len];
            let got = de.view_str_slow(bytes.as_ptr(), len, 100, 3);
            match std::str::from_utf8(bytes) {
                Ok(s) => assert_eq!(got.unwrap(), s),
                Err(e) => {
                    let e2 = got.unwrap_err();
                    assert_eq!(e2.status(), crate::Status::InvalidUtf8, "{bytes:?}");
                    assert_eq!(e2.offset(), 103 + e.valid_up_to(), "{bytes:?}");
                }
            }
        }
    }

    /// The short-string ASCII test agrees with `<[u8]>::is_ascii` for every
    /// length through the word loop, with one non-ASCII byte at each place.
    #[test]
    fn is_ascii_matches_std() {
        for n in 0..=40 {
            let clean: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(super::is_ascii(&clean), "{n}");
            for at in 0..n {
                for high in [0x80u8, 0xc3, 0xff] {
                    let mut b = clean.clone();
                    b[at] = high;
                    assert_eq!(super::is_ascii(&b), b.is_ascii(), "{n} {at}");
                    assert!(!super::is_ascii(&b), "{n} {at} {high:#x}");
                }
            }
        }
    }
}
