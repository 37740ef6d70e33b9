package cborfast

/*
#include "route.h"
*/
import "C"

import (
	"io"
	"math"
	"runtime"
	"unsafe"
)

// Type is the kind of a Reader item (cbor_fast_type).
type Type uint8

// Item kinds.
const (
	TypeNone      = Type(C.CBOR_FAST_TYPE_NONE)
	TypeUint      = Type(C.CBOR_FAST_TYPE_UINT)
	TypeNegative  = Type(C.CBOR_FAST_TYPE_NEGATIVE)
	TypeBytes     = Type(C.CBOR_FAST_TYPE_BYTES)
	TypeText      = Type(C.CBOR_FAST_TYPE_TEXT)
	TypeArray     = Type(C.CBOR_FAST_TYPE_ARRAY)
	TypeMap       = Type(C.CBOR_FAST_TYPE_MAP)
	TypeTag       = Type(C.CBOR_FAST_TYPE_TAG)
	TypeSimple    = Type(C.CBOR_FAST_TYPE_SIMPLE)
	TypeBool      = Type(C.CBOR_FAST_TYPE_BOOL)
	TypeNull      = Type(C.CBOR_FAST_TYPE_NULL)
	TypeUndefined = Type(C.CBOR_FAST_TYPE_UNDEFINED)
	TypeFloat     = Type(C.CBOR_FAST_TYPE_FLOAT)
	TypeEnd       = Type(C.CBOR_FAST_TYPE_END)
)

var typeNames = [...]string{"none", "uint", "negative", "bytes", "text", "array", "map", "tag",
	"simple", "bool", "null", "undefined", "float", "end"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "unknown"
}

// Item is one item from Reader.Next (see cbor_fast_item in cbor_fast.h):
// arrays, maps and indefinite strings are followed by their children and
// then an item of TypeEnd; a tag is followed by its one content item.
type Item struct {
	Type       Type
	Indefinite bool // string, array or map of indefinite length
	Break      bool // TypeEnd that consumed a break byte
	Depth      int  // enclosing containers and tags; 0 at the top level
	Offset     int  // offset of the item's head in the input
	HeadSize   int  // 1, 2, 3, 5 or 9 (0 for the end of a definite container)
	// Value is: TypeUint the value; TypeNegative n, the integer being -1 - n;
	// definite TypeBytes/TypeText the length; TypeArray the item count;
	// TypeMap the pair count (0 if indefinite); TypeTag the tag number;
	// TypeSimple/TypeBool/TypeNull/TypeUndefined the simple value; TypeFloat
	// the raw wire bits.
	Value      uint64
	Float      float64 // TypeFloat: the value, widened exactly
	FloatWidth int     // TypeFloat: 2, 4 or 8
	// Data is the content of a definite TypeBytes/TypeText item: a sub-slice
	// of the input given to NewReader, not a copy (its capacity ends with it).
	Data []byte
}

// Int returns a TypeUint or TypeNegative item's value if it fits an int64.
func (it *Item) Int() (int64, bool) {
	switch it.Type {
	case TypeUint:
		return int64(it.Value), it.Value <= math.MaxInt64
	case TypeNegative:
		return -1 - int64(it.Value), it.Value <= math.MaxInt64
	}
	return 0, false
}

// Reader is a pull parser over a CBOR sequence in a []byte, the binding of
// cbor_reader. Each call to Next returns one item; definite strings are
// sub-slices of the caller's input, so reading allocates nothing per item.
//
// The C reader keeps pointers into its input between calls, which the cgo
// rules allow for Go memory while it is pinned: NewReader pins the caller's
// slice (runtime.Pinner) until Close, so nothing is copied and the strings
// the C side reports are the caller's memory already (opening costs the same
// for 1 KiB and 1 GiB). The caller must not modify data while reading, or
// what the reader parses changes under it. Close unpins the input and frees
// the C reader (a forgotten Reader is closed by its finalizer, which also
// unpins). A Reader must not be used from two goroutines at once. A copy of
// a Reader (`c := *r`, which go vet reports) refuses every call with
// ErrInvalidArgument, as the zero Reader does, and its Close frees nothing.
type Reader struct {
	_ noCopy
	// The address of the Reader NewReader made (an integer: a pointer to
	// itself would keep a forgotten Reader from its finalizer). A copy,
	// elsewhere, held the same C handle: its Close freed it, then the
	// original's (a double free), or the original's finalizer freed it
	// under the copy.
	self  uintptr
	r     *C.cbor_reader
	h     C.uintptr_t       // r as an integer, for the hot calls (see walk.h)
	pin   runtime.Pinner    // holds data pinned until Close
	base  uintptr           // address of data[0] (0 if empty)
	data  []byte            // the caller's input, which Data fields slice
	item  C.cbor_fast_item  // the last item read (cbor_reader_join needs it)
	batch *C.cbor_fast_item // NextBatch's buffer in C memory, made on first use
	err   error             // creation failure or ErrClosed
}

// NewReader creates a Reader over data (zero or more items). A failure to
// create it (out of memory) is returned by the first call.
func NewReader(data []byte) *Reader {
	r := &Reader{data: data}
	r.self = uintptr(unsafe.Pointer(r))
	r.item.struct_size = C.sizeof_cbor_fast_item
	var p unsafe.Pointer
	if len(data) > 0 {
		p = unsafe.Pointer(&data[0])
		r.pin.Pin(p)
		r.base = uintptr(p)
	}
	if s := C.cbor_reader_new(p, C.size_t(len(data)), nil, &r.r); s != C.CBOR_FAST_OK {
		r.pin.Unpin()
		r.base = 0
		r.err = statusError(s)
		return r
	}
	r.h = C.uintptr_t(uintptr(unsafe.Pointer(r.r)))
	track(1)
	runtime.SetFinalizer(r, (*Reader).Close)
	return r
}

// NewReader creates a Reader over data with these options' checks and limits
// (MaxMemory must be 0 or math.MaxUint64, no budget: a reader builds no
// document; ValidateUTF8 applies to
// the reader as SetValidateUTF8). An option the library refuses is returned
// by the first call, as a creation failure is.
func (o DecodeOptions) NewReader(data []byte) *Reader {
	r := NewReader(data)
	if r.err != nil {
		return r
	}
	if o.MaxMemory != 0 && o.MaxMemory != math.MaxUint64 {
		r.Close()
		r.err = ErrInvalidArgument
		return r
	}
	for _, opt := range []struct {
		opt C.cbor_fast_option
		v   uint64
		set bool
	}{
		{C.CBOR_FAST_OPT_MAX_DEPTH, uint64(o.maxDepth()), o.MaxDepth > 0},
		{C.CBOR_FAST_OPT_VALIDATE_UTF8, 1, o.ValidateUTF8},
		{C.CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 1, o.RejectDuplicateKeys},
		{C.CBOR_FAST_OPT_DETERMINISTIC, 1, o.Deterministic},
		{C.CBOR_FAST_OPT_MAX_STRING_LENGTH, o.MaxStringLength, o.MaxStringLength != 0},
		{C.CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, o.MaxContainerItems, o.MaxContainerItems != 0},
		{C.CBOR_FAST_OPT_MAX_ITEMS, o.MaxItems, o.MaxItems != 0},
	} {
		if !opt.set {
			continue
		}
		if err := r.set(opt.opt, opt.v); err != nil {
			r.Close()
			r.err = err
			return r
		}
	}
	return r
}

// SetRejectDuplicateKeys makes the reader reject a map key equal by value to
// an earlier key of the same map (ErrDuplicateKey at the second key's head).
func (r *Reader) SetRejectDuplicateKeys(on bool) error {
	return r.set(C.CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, boolValue(on))
}

// SetDeterministic makes the reader require RFC 8949 core deterministic
// encoding (ErrNotPreferred, ErrIndefiniteLength, ErrUnsortedKeys,
// ErrDuplicateKey).
func (r *Reader) SetDeterministic(on bool) error {
	return r.set(C.CBOR_FAST_OPT_DETERMINISTIC, boolValue(on))
}

// SetMaxStringLength limits strings, chunks and joined strings to n bytes
// (ErrStringTooLong at the string's head).
func (r *Reader) SetMaxStringLength(n uint64) error {
	return r.set(C.CBOR_FAST_OPT_MAX_STRING_LENGTH, n)
}

// SetMaxContainerItems limits arrays to n items and maps to n pairs
// (ErrContainerTooLarge at the container's head; default
// DefaultMaxContainerItems, math.MaxUint64: no limit).
func (r *Reader) SetMaxContainerItems(n uint64) error {
	return r.set(C.CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, n)
}

// SetMaxItems limits the data items of each top-level item to n
// (ErrTooManyItems at the next one of that item; default DefaultMaxItems,
// math.MaxUint64: no limit). A Reader over a long sequence never runs out
// between items.
func (r *Reader) SetMaxItems(n uint64) error {
	return r.set(C.CBOR_FAST_OPT_MAX_ITEMS, n)
}

func boolValue(on bool) uint64 {
	if on {
		return 1
	}
	return 0
}

// SetMaxDepth sets the nesting limit (default 512); best before the first item.
func (r *Reader) SetMaxDepth(n int) error {
	if n < 0 || uint64(n) > math.MaxUint32 {
		return ErrInvalidArgument
	}
	return r.set(C.CBOR_FAST_OPT_MAX_DEPTH, uint64(n))
}

// SetValidateUTF8 makes the reader reject text strings that are not valid UTF-8.
func (r *Reader) SetValidateUTF8(on bool) error {
	v := uint64(0)
	if on {
		v = 1
	}
	return r.set(C.CBOR_FAST_OPT_VALIDATE_UTF8, v)
}

func (r *Reader) set(opt C.cbor_fast_option, v uint64) error {
	if err := r.usable(); err != nil {
		return err
	}
	s := C.cbor_reader_set(r.r, opt, C.uint64_t(v))
	runtime.KeepAlive(r)
	if s != C.CBOR_FAST_OK {
		return statusError(s)
	}
	return nil
}

// Next reads the next item. It returns io.EOF at the end of the input at the
// top level and an *Error for input that is not well-formed; errors are
// sticky.
func (r *Reader) Next() (Item, error) {
	if err := r.usable(); err != nil {
		return Item{}, err
	}
	s := C.cf_reader_next(r.h, &r.item)
	runtime.KeepAlive(r)
	if s != C.CBOR_FAST_OK {
		// No item was read: Join has none (the library leaves the last one
		// in place, and Join joined it again after the end).
		r.item._type = C.CBOR_FAST_TYPE_NONE
		return Item{}, r.status(s)
	}
	return r.convert(&r.item), nil
}

// NextBatch reads up to len(items) items in one call into the library, which
// is much cheaper per item than Next when items are small (a cgo call costs
// about 100 ns). It returns how many it stored, and the error that stopped it
// early (io.EOF at the end), if any; n > 0 with an error is possible. Join
// afterwards applies to the last item stored.
func (r *Reader) NextBatch(items []Item) (int, error) {
	if err := r.usable(); err != nil {
		return 0, err
	}
	done := 0
	for done < len(items) {
		want := len(items) - done
		if want > readerBatch {
			want = readerBatch
		}
		if r.batch == nil {
			r.batch = (*C.cbor_fast_item)(C.malloc(C.size_t(readerBatch) * C.sizeof_cbor_fast_item))
			track(1)
		}
		// Only the first element's struct_size is read; it sizes them all.
		r.batch.struct_size = C.sizeof_cbor_fast_item
		// One call: the items before an end or an error come with
		// CBOR_FAST_OK, and the next call (the loop goes on while items
		// are wanted) returns the end or the sticky error with none.
		var n C.size_t
		s := C.cf_reader_next_batch(r.h, r.batch, C.size_t(want), &n)
		runtime.KeepAlive(r)
		if s != C.CBOR_FAST_OK {
			return done, r.status(s)
		}
		batch := unsafe.Slice(r.batch, int(n))
		for i := range batch {
			items[done+i] = r.convert(&batch[i])
		}
		done += int(n)
		// Join needs the last item, with a struct_size (which the library
		// does not write into the elements).
		r.item = batch[n-1]
		r.item.struct_size = C.sizeof_cbor_fast_item
	}
	return done, nil
}

// readerBatch is the most items NextBatch reads per call.
const readerBatch = 256

func (r *Reader) convert(c *C.cbor_fast_item) Item {
	it := Item{
		Type:       Type(c._type),
		Indefinite: c.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0,
		Break:      c.flags&C.CBOR_FAST_ITEM_BREAK != 0,
		Depth:      int(c.depth),
		Offset:     int(c.offset),
		HeadSize:   int(c.head_size),
		Value:      uint64(c.value),
		Float:      float64(c.float_value),
		FloatWidth: int(c.float_width),
	}
	if c.data != nil {
		it.Data = r.slice(unsafe.Pointer(c.data), int(c.size))
	} else if (it.Type == TypeBytes || it.Type == TypeText) && !it.Indefinite {
		p := it.Offset + it.HeadSize
		it.Data = r.data[p:p:p]
	}
	return it
}

// slice is the part of the caller's input at a pointer the C reader
// reported (a Go slice rather than the pointer, capacity ending with it).
func (r *Reader) slice(p unsafe.Pointer, n int) []byte {
	off := int(uintptr(p) - r.base)
	return r.data[off : off+n : off+n]
}

// Join returns the whole content of the string item just read. For a
// definite string that is the item's Data (no copy); for an indefinite one
// the chunks and the break are consumed and their joined content is returned
// as a new slice.
func (r *Reader) Join() ([]byte, error) {
	if err := r.usable(); err != nil {
		return nil, err
	}
	var data *C.uint8_t
	var size C.size_t
	s := C.cbor_reader_join(r.r, &r.item, &data, &size)
	runtime.KeepAlive(r)
	if s != C.CBOR_FAST_OK {
		return nil, r.status(s)
	}
	if size == 0 {
		return []byte{}, nil
	}
	p := uintptr(unsafe.Pointer(data))
	if base := r.base; base != 0 && p >= base && p < base+uintptr(len(r.data)) {
		return r.slice(unsafe.Pointer(data), int(size)), nil
	}
	// The reader's own join buffer (C memory, reused by the next join).
	out := make([]byte, int(size))
	copy(out, unsafe.Slice((*byte)(unsafe.Pointer(data)), int(size)))
	return out, nil
}

// Skip passes over the next complete item. It returns io.EOF when nothing is
// left, and an *Error with status "invalid_state" at the end of a container.
func (r *Reader) Skip() error {
	if err := r.usable(); err != nil {
		return err
	}
	s := C.cf_reader_skip(r.h)
	runtime.KeepAlive(r)
	r.item._type = C.CBOR_FAST_TYPE_NONE // the item read last is passed
	return r.status(s)
}

// SkipToEnd passes over the rest of the innermost open container, tag or
// indefinite string, including its end.
func (r *Reader) SkipToEnd() error {
	if err := r.usable(); err != nil {
		return err
	}
	s := C.cbor_reader_skip_to_end(r.r)
	runtime.KeepAlive(r)
	return r.status(s)
}

// Finish checks that the whole input was read and no container is open.
func (r *Reader) Finish() error {
	if err := r.usable(); err != nil {
		return err
	}
	s := C.cbor_reader_finish(r.r)
	runtime.KeepAlive(r)
	return r.status(s)
}

// Offset is the offset of the next byte to read.
func (r *Reader) Offset() int {
	if r.usable() != nil {
		return 0
	}
	n := int(C.cbor_reader_offset(r.r))
	runtime.KeepAlive(r)
	return n
}

// Depth is the current nesting depth.
func (r *Reader) Depth() int {
	if r.usable() != nil {
		return 0
	}
	n := int(C.cbor_reader_depth(r.r))
	runtime.KeepAlive(r)
	return n
}

// status converts a call's result: nil, io.EOF or an *Error with the
// reader's error position when it has one.
func (r *Reader) status(s C.cbor_fast_status) error {
	switch s {
	case C.CBOR_FAST_OK:
		return nil
	case C.CBOR_FAST_END:
		return io.EOF
	}
	ce := C.cbor_fast_error{struct_size: C.sizeof_cbor_fast_error}
	C.cbor_reader_error(r.r, &ce)
	runtime.KeepAlive(r)
	return fromC(s, &ce)
}

// usable: nil, or the error a call returns: the creation failure or
// ErrClosed, ErrInvalidArgument for the zero Reader and for a copy.
func (r *Reader) usable() error {
	if r.err == nil && r.self != uintptr(unsafe.Pointer(r)) {
		return ErrInvalidArgument
	}
	return r.err
}

// Close frees the C reader and unpins the input. Items already returned
// stay valid (they slice the caller's input). Later calls return ErrClosed.
// Close is idempotent and always returns nil.
func (r *Reader) Close() error {
	if r.self != uintptr(unsafe.Pointer(r)) {
		r.err = ErrClosed // the zero Reader or a copy: the handle is not its own
		return nil
	}
	if r.r != nil {
		C.cbor_reader_free(r.r) // no C pointer into data is left
		r.r, r.h = nil, 0
		track(-1)
	}
	r.pin.Unpin()
	r.base = 0
	cFree(unsafe.Pointer(r.batch))
	r.batch = nil
	r.err = ErrClosed
	runtime.SetFinalizer(r, nil)
	return nil
}
