package cborfast

/*
#include "route.h"
*/
import "C"

import (
	"math"
	"runtime"
	"sync"
	"unsafe"
)

// The one route for values: every decoding entry point (Decode, Unmarshal,
// Sequence, Decoder) reads items through cbor_reader_next_batch, batchItems
// per cgo call, into a C buffer that Go reads in place.
//
// The input stays Go memory: it is pinned (runtime.Pinner) for as long as the
// C reader holds it, which the cgo rules allow, so nothing is copied and the
// data pointers in the items point into the caller's slice. Unmarshal copies
// an input of up to copyMax bytes into the pooled reader's C memory instead
// (tokens.begin): the items then point into the copy, and tokens.bytes maps
// them back onto the caller's slice through base.

// batchItems is the capacity of one batch (64 bytes an item: 32 KiB of C
// memory per pooled reader).
const batchItems = 512

type citem = C.cbor_fast_item

// creader is a C reader with its batch buffer, pooled between calls.
type creader struct {
	r     *C.cbor_reader
	h     C.uintptr_t
	items *citem
	opts  *C.cf_reader_opts // the options last set (nil: the library defaults)
	// n: the item count a batch call writes (a local whose address goes to
	// C is moved to the heap: an allocation per batch).
	n C.size_t
	// Unmarshal's start (begin): what cf_begin reports, the check
	// reader with the options last set on it, and the copy of a small
	// input; made on first use, all C memory.
	begun   *C.cf_begun
	chk     *C.cbor_reader
	chkOpts *C.cf_reader_opts
	copy    unsafe.Pointer // copyMax bytes
}

// copyMax: inputs up to this size are copied into the pooled reader's own
// C memory instead of being pinned for the call (a pin and an unpin, and
// pointing the reader away from the input before the unpin, cost more than
// the copy).
const copyMax = 2048

func newCReader() (*creader, error) {
	c := &creader{}
	if s := C.cbor_reader_new(nil, 0, nil, &c.r); s != C.CBOR_FAST_OK {
		return nil, statusError(s)
	}
	c.items = C.cf_items_new(batchItems)
	if c.items == nil {
		C.cbor_reader_free(c.r)
		return nil, statusError(C.CBOR_FAST_ERR_OUT_OF_MEMORY)
	}
	c.h = C.uintptr_t(uintptr(unsafe.Pointer(c.r)))
	// A pooled reader the pool drops is freed by the collector.
	runtime.SetFinalizer(c, (*creader).free)
	return c, nil
}

func (c *creader) free() {
	C.cbor_reader_free(c.r)
	C.cbor_reader_free(c.chk)
	C.free(unsafe.Pointer(c.items))
	C.free(unsafe.Pointer(c.begun))
	C.free(c.copy)
	c.r, c.items, c.chk, c.begun, c.copy = nil, nil, nil, nil, nil
}

// forBegin makes what begin needs besides the reader (once per reader).
func (c *creader) forBegin() C.cbor_fast_status {
	if c.begun != nil {
		return C.CBOR_FAST_OK
	}
	if s := C.cbor_reader_new(nil, 0, nil, &c.chk); s != C.CBOR_FAST_OK {
		return s
	}
	c.copy = C.malloc(copyMax)
	c.begun = C.cf_begun_new(c.items, batchItems)
	if c.copy == nil || c.begun == nil {
		C.cbor_reader_free(c.chk)
		C.free(c.copy)
		C.free(unsafe.Pointer(c.begun))
		c.chk, c.copy, c.begun = nil, nil, nil
		return C.CBOR_FAST_ERR_OUT_OF_MEMORY
	}
	return C.CBOR_FAST_OK
}

var creaders sync.Pool

// tokens is the item stream of one input: the current batch and the
// position in it.
type tokens struct {
	c    *creader
	pin  runtime.Pinner
	data []byte
	base uintptr // address of what the reader reads: data[0], or its copy
	// copied: the reader reads the creader's copy of data (begin), not data
	// (pinned) itself.
	copied bool
	batch  []citem
	i      int
	sticky error
	box    boxer // slabs for the values built into `any`
	// frames: buildAny's stack, kept between values (cleared).
	frames []frame
	// noIndef: IndefLengthForbidden, checked on every item as batches
	// arrive (the reader has no such option of its own).
	noIndef bool
	// noTags: DecOptions.TagsMd is TagsForbidden, checked likewise.
	noTags bool
	// small: when MaxArrayElements and MaxMapPairs differ the library
	// applies the larger to both kinds; the smaller one (small, for
	// smallKind containers) is checked here on every item as batches
	// arrive, skipped values and indefinite containers included (0: none).
	small     uint64
	smallKind C.cbor_fast_type
	counting  []indefCount // open indefinite smallKind containers
	// held: input bytes the open arrays, slices and maps of this decode
	// reserved room for (an element needs one byte, a pair two). A new one
	// reserves from the bytes left besides these (roomAfter): nested counts
	// that each fit the rest of the input reserved it once per level (511
	// levels over 64 KiB of zeros: 511 MB).
	held uint64
}

// roomAfter is rem less the bytes the open containers reserved room for
// (0 when they reserved all of it).
func roomAfter(rem, held uint64) uint64 {
	if rem > held {
		return rem - held
	}
	return 0
}

// indefCount is an indefinite container whose entries are counted.
type indefCount struct {
	depth C.uint32_t // its head's depth (its entries are one deeper)
	n     uint64     // items so far (a map's keys and values)
}

// acquire takes a pooled reader for t, or makes one.
func (t *tokens) acquire() error {
	if v := creaders.Get(); v != nil {
		t.c = v.(*creader)
	} else {
		c, err := newCReader()
		if err != nil {
			return err
		}
		t.c = c
	}
	track(1) // a reader in use (pooled ones are not counted)
	return nil
}

// open starts reading data with the given reader options (nil: defaults).
func (t *tokens) open(data []byte, opts *C.cf_reader_opts) error {
	if err := t.acquire(); err != nil {
		return err
	}
	t.data = data
	t.copied = false
	t.box.sized(len(data))
	var p unsafe.Pointer
	if len(data) > 0 {
		p = unsafe.Pointer(&data[0])
		t.pin.Pin(p)
		t.base = uintptr(p)
	}
	set := opts
	if opts == t.c.opts {
		set = nil // already set on this reader
	} else if opts == nil {
		set = &defaultReaderOpts
	}
	s := C.cf_reader_prepare(t.c.r, p, C.size_t(len(data)), set)
	if s != C.CBOR_FAST_OK {
		t.c.opts = nil
		t.close()
		return statusError(s)
	}
	t.c.opts = opts
	t.batch, t.i, t.sticky = nil, 0, nil
	t.counting = t.counting[:0]
	return nil
}

// begin is open, Unmarshal's first pass when check is not nil (as
// wellFormed: the first item with the check options, then nothing after it
// unless wantRest) and the first batch, in one cgo call; the pass runs on a
// reader of its own, so neither reader's options change from call to call.
// An input of up to copyMax bytes is copied rather than pinned. Not for
// modes with this side's own checks (IndefLengthForbidden, TagsForbidden,
// the smaller container limit): their pass reads batches. Close t after it
// whatever it returns.
func (t *tokens) begin(data []byte, opts, check *C.cf_reader_opts, wantRest bool) error {
	if err := t.acquire(); err != nil {
		return err
	}
	c := t.c
	if s := c.forBegin(); s != C.CBOR_FAST_OK {
		return statusError(s)
	}
	if opts != c.opts {
		set := opts
		if set == nil {
			set = &defaultReaderOpts
		}
		c.opts = nil
		if s := C.cf_reader_prepare(c.r, nil, 0, set); s != C.CBOR_FAST_OK {
			return statusError(s)
		}
		c.opts = opts
	}
	var chk C.uintptr_t
	if check != nil {
		if check != c.chkOpts {
			c.chkOpts = nil
			if s := C.cf_reader_prepare(c.chk, nil, 0, check); s != C.CBOR_FAST_OK {
				return statusError(s)
			}
			c.chkOpts = check
		}
		chk = C.uintptr_t(uintptr(unsafe.Pointer(c.chk)))
	}
	t.data = data
	t.box.sized(len(data))
	t.batch, t.i, t.sticky = nil, 0, nil
	t.counting = t.counting[:0]
	var p unsafe.Pointer
	if t.copied = len(data) <= copyMax; t.copied {
		p = c.copy
		copy(unsafe.Slice((*byte)(p), len(data)), data)
	} else {
		p = unsafe.Pointer(&data[0])
		t.pin.Pin(p)
	}
	t.base = uintptr(p)
	s := C.cf_begin(c.h, chk, C.uintptr_t(uintptr(unsafe.Pointer(c.begun))), C.uintptr_t(t.base), C.size_t(len(data)))
	b := c.begun
	if check != nil {
		switch b.check {
		case C.CBOR_FAST_OK:
			if !wantRest && int(b.end) != len(data) {
				return trailingBytes(int(b.end))
			}
		case C.CBOR_FAST_END:
			return truncatedAt(len(data))
		default:
			if b.err.code == C.CBOR_FAST_OK {
				return statusError(b.check)
			}
			return fromC(b.check, &b.err)
		}
	}
	t.batchArrived(s, int(b.count))
	return nil
}

// batchArrived takes a batch call's status and item count: the batch, or
// the error that comes where its next item would.
func (t *tokens) batchArrived(s C.cbor_fast_status, n int) {
	if s != C.CBOR_FAST_OK {
		if s == C.CBOR_FAST_END {
			// The end of the input where an item is due.
			t.sticky = truncatedAt(len(t.data))
		} else {
			ce := C.cbor_fast_error{struct_size: C.sizeof_cbor_fast_error}
			C.cbor_reader_error(t.c.r, &ce)
			t.sticky = fromC(s, &ce)
		}
		// nothing of the batch before: it was read (refill handed its
		// items out again as if new, and their ENDs closed the open
		// containers of a truncated input)
		t.batch, t.i = nil, 0
		return
	}
	t.batch = unsafe.Slice(t.c.items, n)
	t.i = 0
	t.checkBatch()
}

// wellFormed is Unmarshal's first pass, fxamacker's well-formedness check:
// it passes over the first item with the mode's structural limits (check:
// the mode's frameOpts; UTF-8 and the strict checks belong to the decoding
// pass, as in fxamacker) and with IndefLengthForbidden or a smaller
// container limit this side's checks too (through the batches), and unless
// wantRest checks that nothing follows it; then starts the reader over at
// the input's first byte with the mode's own options (decode).
func (t *tokens) wellFormed(check, decode *C.cf_reader_opts, wantRest bool) error {
	// From the first byte: a batch left by a decode that stopped is dropped.
	t.batch, t.i, t.sticky = nil, 0, nil
	t.counting = t.counting[:0]
	// What the reader reads: data (pinned) or its copy.
	p := t.readerInput()
	var end int
	if t.noIndef || t.noTags || t.small != 0 {
		if s := C.cf_reader_prepare(t.c.r, p, C.size_t(len(t.data)), check); s != C.CBOR_FAST_OK {
			return statusError(s)
		}
		it, err := t.next()
		if err == nil {
			end, err = t.skipRest(it)
		}
		if s := C.cf_reader_prepare(t.c.r, p, C.size_t(len(t.data)), decode); s != C.CBOR_FAST_OK && err == nil {
			err = statusError(s)
		}
		if err != nil {
			return err
		}
	} else {
		var e C.size_t
		ce := C.cbor_fast_error{struct_size: C.sizeof_cbor_fast_error}
		switch s := C.cf_well_formed(t.c.h, p, C.size_t(len(t.data)), check, decode, &e, &ce); s {
		case C.CBOR_FAST_OK:
			end = int(e)
		case C.CBOR_FAST_END:
			return truncatedAt(len(t.data))
		default:
			if ce.code == C.CBOR_FAST_OK {
				return statusError(s)
			}
			return fromC(s, &ce)
		}
	}
	if !wantRest && end != len(t.data) {
		return trailingBytes(end)
	}
	t.batch, t.i, t.sticky = nil, 0, nil
	t.counting = t.counting[:0]
	return nil
}

// limitSmaller sets the smaller per-kind container limit of a mode (nil or
// equal limits: none).
func (t *tokens) limitSmaller(l *limits) {
	t.small = 0
	if l == nil || l.maxArray == l.maxMap {
		return
	}
	if l.maxArray < l.maxMap {
		t.small, t.smallKind = l.maxArray, C.CBOR_FAST_TYPE_ARRAY
	} else {
		t.small, t.smallKind = l.maxMap, C.CBOR_FAST_TYPE_MAP
	}
}

// readerInput is what the reader reads: data[0] (pinned) or its copy in
// the creader's memory (nil for empty data).
func (t *tokens) readerInput() unsafe.Pointer {
	switch {
	case t.copied:
		return t.c.copy
	case len(t.data) > 0:
		return unsafe.Pointer(&t.data[0])
	}
	return nil
}

// close returns the reader to the pool and unpins the input.
func (t *tokens) close() {
	if t.c != nil {
		if !t.copied {
			// Point the reader away from the input before unpinning it
			// (a copy is the creader's own memory).
			C.cbor_reader_reset(t.c.r, nil, 0)
		}
		creaders.Put(t.c)
		t.c = nil
		track(-1)
	}
	if !t.copied {
		t.pin.Unpin()
	}
	t.copied = false
	t.data, t.batch = nil, nil
	t.box = boxer{}
}

// next returns the next item; it stays valid until the next call that
// refills the batch, so callers copy what they need from a head before
// reading its children.
func (t *tokens) next() (*citem, error) {
	if t.i < len(t.batch) {
		it := &t.batch[t.i]
		t.i++
		return it, nil
	}
	return t.refill()
}

func (t *tokens) refill() (*citem, error) {
	if t.sticky != nil {
		return nil, t.sticky
	}
	s := C.cf_reader_next_batch(t.c.h, t.c.items, batchItems, &t.c.n)
	t.batchArrived(s, int(t.c.n))
	if len(t.batch) == 0 {
		return nil, t.sticky
	}
	t.i = 1
	return &t.batch[0], nil
}

// checkBatch cuts the batch before a forbidden indefinite-length item or
// tag or one past the smaller container limit, whose error then comes where
// that item would.
func (t *tokens) checkBatch() {
	if !t.noIndef && !t.noTags && t.small == 0 {
		return
	}
	for i := range t.batch {
		it := &t.batch[i]
		if t.noTags && it._type == C.CBOR_FAST_TYPE_TAG {
			t.sticky = &Error{Status: statusError(C.CBOR_FAST_ERR_TYPE_MISMATCH).Status, Code: CodeTypeMismatch,
				Message: "a tag, which DecOptions.TagsMd forbids", Offset: int(it.offset), Depth: int(it.depth)}
			t.batch = t.batch[:i]
			return
		}
		if t.noIndef && it.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0 && it._type != C.CBOR_FAST_TYPE_END {
			t.sticky = &Error{Status: ErrIndefiniteLength.Status, Code: CodeIndefiniteLength,
				Message: "an indefinite-length item, which DecOptions.IndefLength forbids", Offset: int(it.offset)}
			t.batch = t.batch[:i]
			return
		}
		if t.small != 0 && !t.countItem(it) {
			t.sticky = &Error{Status: ErrContainerTooLarge.Status, Code: CodeContainerTooLarge,
				Message: ErrContainerTooLarge.Message, Offset: int(it.offset), Depth: int(it.depth)}
			t.batch = t.batch[:i]
			return
		}
	}
}

// countItem applies the smaller container limit to one item: a definite
// head of that kind declaring more, or an entry taking an indefinite one
// past it (a map's: the key of the pair past it), as the library does.
func (t *tokens) countItem(it *citem) bool {
	if n := len(t.counting); n > 0 {
		top := &t.counting[n-1]
		if it._type == C.CBOR_FAST_TYPE_END {
			if it.depth == top.depth {
				t.counting = t.counting[:n-1]
			}
			return true
		}
		if it.depth == top.depth+1 {
			top.n++
			max := t.small
			if t.smallKind == C.CBOR_FAST_TYPE_MAP {
				max *= 2
			}
			if top.n > max {
				return false
			}
		}
	}
	if it._type == t.smallKind {
		if it.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0 {
			t.counting = append(t.counting, indefCount{depth: it.depth})
		} else if uint64(it.value) > t.small {
			return false
		}
	}
	return true
}

// atEnd reports whether the input has no item after the ones read (a
// sequence's end): it may read a batch ahead.
func (t *tokens) atEnd() (bool, error) {
	if t.i < len(t.batch) {
		return false, nil
	}
	if t.sticky != nil {
		return false, t.sticky
	}
	s := C.cf_reader_next_batch(t.c.h, t.c.items, batchItems, &t.c.n)
	switch s {
	case C.CBOR_FAST_OK:
		t.batch = unsafe.Slice(t.c.items, int(t.c.n))
		t.i = 0
		t.checkBatch()
		if len(t.batch) == 0 {
			return false, t.sticky
		}
		return false, nil
	case C.CBOR_FAST_END:
		return true, nil
	}
	ce := C.cbor_fast_error{struct_size: C.sizeof_cbor_fast_error}
	C.cbor_reader_error(t.c.r, &ce)
	t.sticky = fromC(s, &ce)
	return false, t.sticky
}

// bytes is the content of a definite string item, a view of the input.
func (t *tokens) bytes(it *citem) []byte {
	if it.size == 0 {
		return nil
	}
	off := uintptr(unsafe.Pointer(it.data)) - t.base
	return t.data[off : off+uintptr(it.size) : off+uintptr(it.size)]
}

// end is the offset just past an item (for END: past the container).
func itemEnd(it *citem) int {
	e := int(it.offset) + int(it.head_size)
	if (it._type == C.CBOR_FAST_TYPE_BYTES || it._type == C.CBOR_FAST_TYPE_TEXT) &&
		it.flags&C.CBOR_FAST_ITEM_INDEFINITE == 0 {
		e += int(it.size)
	}
	return e
}

// skipRest consumes the rest of the value whose head is it: its children,
// a tag's content, an indefinite string's chunks; no recursion.
func (t *tokens) skipRest(it *citem) (end int, err error) {
	level := 0
	for {
		switch it._type {
		case C.CBOR_FAST_TYPE_ARRAY, C.CBOR_FAST_TYPE_MAP:
			level++
		case C.CBOR_FAST_TYPE_BYTES, C.CBOR_FAST_TYPE_TEXT:
			if it.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0 {
				level++
			}
		case C.CBOR_FAST_TYPE_END:
			level--
		}
		if level == 0 && it._type != C.CBOR_FAST_TYPE_TAG {
			return itemEnd(it), nil
		}
		if it, err = t.next(); err != nil {
			return 0, err
		}
	}
}

// skipPartial passes over what is left of a value whose head was at depth
// `depth` after a decoder stopped inside it (or right after it): the items
// deeper than the head, then the value's END if it is still to come (an END
// at the head's own depth can only be its: its parent's END is one level
// up, and its siblings are not ENDs). Anything else is left to be read.
func (t *tokens) skipPartial(depth C.uint32_t) error {
	// Nothing to read when the item read last ends the value: its END, or
	// a scalar or definite string at the head's depth (reading on would
	// take the next value's head, or fail at the end of the input).
	if t.i > 0 {
		last := &t.batch[t.i-1]
		if last.depth == depth && valueEnds(last) {
			return nil
		}
		// The input read to its end (a tag's content closed the value at
		// the top level): nothing can follow. A value cut short there is
		// the truncation the caller's next read reports.
		if t.i == len(t.batch) && itemEnd(last) >= len(t.data) {
			return nil
		}
	}
	for {
		it, err := t.next()
		if err != nil {
			return err
		}
		if it.depth > depth {
			continue
		}
		if it._type != C.CBOR_FAST_TYPE_END || it.depth != depth {
			t.i-- // not the value's: read it again
		}
		return nil
	}
}

// valueEnds: `it` is the last item of a value: an END, or an item that opens
// nothing (not an array, map, tag or indefinite string).
func valueEnds(it *citem) bool {
	switch it._type {
	case C.CBOR_FAST_TYPE_END:
		return true
	case C.CBOR_FAST_TYPE_ARRAY, C.CBOR_FAST_TYPE_MAP, C.CBOR_FAST_TYPE_TAG:
		return false
	case C.CBOR_FAST_TYPE_BYTES, C.CBOR_FAST_TYPE_TEXT:
		return it.flags&C.CBOR_FAST_ITEM_INDEFINITE == 0
	}
	return true
}

// content is the bytes of the string item `it` just read: a view for a
// definite string, its chunks joined (read up to its END) for an indefinite
// one.
func (t *tokens) content(it *citem) ([]byte, error) {
	if isIndef(it) {
		return t.joinString(nil)
	}
	return t.bytes(it), nil
}

// joinString appends the chunks of the indefinite string whose start item
// was just read, up to its END.
func (t *tokens) joinString(dst []byte) ([]byte, error) {
	for {
		it, err := t.next()
		if err != nil {
			return nil, err
		}
		if it._type == C.CBOR_FAST_TYPE_END {
			return dst, nil
		}
		dst = append(dst, t.bytes(it)...)
	}
}

// remaining is how many bytes follow a head: no container can have more
// items than that, so it bounds what a claimed length may preallocate.
func (t *tokens) remaining(it *citem) uint64 {
	return uint64(len(t.data) - int(it.offset) - int(it.head_size))
}

// defaultReaderOpts are the library's reader defaults (cbor_fast.h).
var defaultReaderOpts = C.cf_reader_opts{
	max_depth:           512,
	max_string_length:   math.MaxUint64,
	max_container_items: C.CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS,
	max_items:           C.CBOR_FAST_DEFAULT_MAX_ITEMS,
}

// Default limits of every decoding entry point (the library's, since 0.5):
// entries in one array or map, and data items of one item or of a Reader
// since its start. Set a limit to math.MaxUint64 to lift it.
const (
	DefaultMaxContainerItems uint64 = C.CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS
	DefaultMaxItems          uint64 = C.CBOR_FAST_DEFAULT_MAX_ITEMS
)
