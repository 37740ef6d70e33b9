// Package cborfast binds libcbor_fast, a CBOR (RFC 8949) library written in
// C++, through its C API (cbor_fast.h) with cgo.
//
// It offers four levels:
//
//   - Marshal and Unmarshal map Go types (structs with `cbor:` tags, typed
//     slices and maps, pointers, time.Time, big.Int, RawMessage, Marshaler
//     and Unmarshaler) the way fxamacker/cbor does, with EncOptions and
//     DecOptions under the same names; Encoder and Decoder stream a CBOR
//     sequence through an io.Writer or io.Reader.
//   - Decode and Encode convert between CBOR bytes and plain Go values.
//   - Sequence iterates over the items of an RFC 8742 CBOR sequence.
//   - Reader is a pull parser whose byte and text strings are sub-slices of
//     the caller's input (no copy per string).
//
// # Decode's values
//
// Decode produces, and Encode accepts, these types:
//
//	CBOR                      Decode gives                  Encode also takes
//	unsigned integer          uint64                        every Go integer type
//	negative integer          int64; *big.Int below -2^63
//	bignum (tag 2/3, bytes)   *big.Int                      big.Int (fitting ones become plain ints)
//	byte string               []byte (a copy)
//	text string               string (UTF-8 checked only on request)
//	array                     []any                         typed slices and arrays
//	map                       Map (pairs in input order)    Go maps (keys sorted)
//	other tags                Tag
//	float (any width)         float64                       float32
//	false, true               bool
//	null                      nil                           nil *big.Int
//	undefined                 Undefined
//	other simple values       Simple
//
// Encode takes every type Marshal takes as well (structs by their tags).
// A nil []byte, slice, Map or Go map is written as an empty string, array or
// map (Marshal writes null, as fxamacker does, unless NilContainerAsEmpty).
//
// Maps decode to Map, an ordered list of pairs, rather than map[any]any: CBOR
// map keys may be byte strings, arrays or maps, which cannot be Go map keys,
// and the order of pairs is kept. Duplicate keys are kept as they are.
// (Unmarshal into an `any` gives fxamacker's map[any]any instead.)
//
// Encode writes preferred serialization (RFC 8949 section 4.1): shortest
// integer and length heads, floats in the shortest width that keeps the value
// exactly (NaN payloads included), bignums only when the value does not fit
// 64 bits. A Map is written in its own order; Go maps are written with their
// keys sorted as RFC 8949 section 4.2.3 sorts encoded keys (shorter first,
// then bytewise), so the output is deterministic (two keys that encode alike,
// such as int(1) and uint(1) in a map[any]any, are an UnsupportedValueError).
//
// Decoding into `any` (Decode, Sequence, Unmarshal) never recurses: the depth
// is limited by the options only. Typed decoding recurses along the Go type,
// so at most MaxNestedLevels deep; encoding stops at MaxDepth.
//
// # One route from C, memory and the cgo pointer rules
//
// Every decoding entry point reads items through cbor_reader_next_batch, up
// to 512 items per cgo call, into a pooled C buffer that Go reads in place.
// The C reader keeps a pointer to the input between calls, which cgo allows
// only for pinned memory: the input is pinned (runtime.Pinner) for the
// duration of the call (of a Sequence: until Close) and never copied.
// Values returned to Go are Go memory of their own: strings and []byte are
// copies, never views of the input. To save allocations, short strings and
// byte strings are copied into shared 16 KiB chunks (a []byte's capacity ends
// with it, so appending to it copies), short strings and byte strings
// decoded into an `any` are boxed with their header in the same chunk, and
// numbers, long strings and small arrays from shared slabs; a value that is
// kept keeps its chunk alive. Text map keys decoded into an `any`
// equal to an earlier key of the same value may share its string.
//
// A Decoder first finds where the next item of its stream ends, with a
// streaming reader over its buffer (pinned while Decode runs), then decodes
// the complete item by the same route.
//
// Encoding runs in Go, without cgo: it appends to one buffer through cached
// per-type plans, and its output is tested byte for byte against the
// library's C writer. A Reader pins its input until Close (no copy; its
// strings are views of the input). Reader.Next is one cgo call per item;
// Reader.NextBatch reads up to 256 items per call.
//
// Handles (Sequence, Reader) must be closed with Close; a finalizer frees a
// forgotten one, but only when the garbage collector gets to it. A handle must
// not be used from two goroutines at once; Decode, Encode, Marshal and
// Unmarshal are safe for concurrent use.
package cborfast

/*
#include <stdlib.h>
#include "cbor_fast.h"
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"reflect"
	"sync/atomic"
	"unsafe"
)

// Map is a decoded CBOR map: its pairs in input order. Encode writes it in the
// same order.
type Map []Pair

// Pair is one key/value pair of a Map.
type Pair struct {
	Key   any
	Value any
}

// Get returns the value of the first pair whose key equals key. Keys of the
// types Decode produces compare by value: []byte by content, *big.Int with
// Cmp, Tag by number and content; arrays and maps (and NaN) never match.
func (m Map) Get(key any) (any, bool) {
	for _, p := range m {
		if keyEqual(p.Key, key) {
			return p.Value, true
		}
	}
	return nil, false
}

func keyEqual(a, b any) bool {
	switch x := a.(type) {
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case *big.Int:
		y, ok := b.(*big.Int)
		return ok && x != nil && y != nil && x.Cmp(y) == 0
	case Tag:
		y, ok := b.(Tag)
		return ok && x.Number == y.Number && keyEqual(x.Content, y.Content)
	case []any, Map, map[string]any:
		return false
	}
	if a == nil || b == nil {
		return a == b
	}
	// == on interfaces panics for uncomparable dynamic types, and on arrays
	// and structs that hold an interface whose value is one ([1]any{[]int{}}:
	// the type is comparable, the value is not).
	t := reflect.TypeOf(a)
	if t != reflect.TypeOf(b) || !t.Comparable() {
		return false
	}
	if k := t.Kind(); (k == reflect.Array || k == reflect.Struct) &&
		(!reflect.ValueOf(a).Comparable() || !reflect.ValueOf(b).Comparable()) {
		return false
	}
	return a == b
}

// Tag is a tagged data item (RFC 8949 section 3.4) other than a bignum.
type Tag struct {
	Number  uint64
	Content any
}

// Simple is a simple value (major type 7) other than false, true, null and
// undefined. Values 24 to 31 are not well-formed and Encode rejects them.
type Simple uint8

// UndefinedType is the type of Undefined.
type UndefinedType struct{}

// Undefined is the CBOR undefined value (simple value 23).
var Undefined = UndefinedType{}

func (UndefinedType) String() string { return "undefined" }

// Error is a failure reported by libcbor_fast.
type Error struct {
	Status     string // status name, e.g. "truncated"
	Code       int    // cbor_fast_status value, e.g. 100
	Offset     int    // byte offset where the problem was found (for Encode: bytes written so far)
	ItemOffset int    // offset of the top-level item containing it (decoding only)
	Depth      int    // nesting depth at that point (decoding only)
	Message    string // English description from the library
	empty      bool   // Unmarshal of no bytes at all (errors.Is(err, io.EOF))
}

func (e *Error) Error() string {
	return fmt.Sprintf("cborfast: %s (%s) at offset %d", e.Message, e.Status, e.Offset)
}

// Is reports whether target is an *Error with the same Code, so that
// errors.Is(err, ErrTruncated) matches a truncation at any offset. As
// fxamacker's errors, a truncation is also io.ErrUnexpectedEOF, and
// Unmarshal of no bytes at all io.EOF.
func (e *Error) Is(target error) bool {
	switch target {
	case io.EOF:
		return e.empty
	case io.ErrUnexpectedEOF:
		return e.Code == CodeTruncated && !e.empty
	}
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Status codes of cbor_fast.h, for comparing with Error.Code.
const (
	CodeInvalidArgument      = int(C.CBOR_FAST_ERR_INVALID_ARGUMENT)
	CodeInvalidState         = int(C.CBOR_FAST_ERR_INVALID_STATE)
	CodeWriterCount          = int(C.CBOR_FAST_ERR_WRITER_COUNT)
	CodeWriterNoContainer    = int(C.CBOR_FAST_ERR_WRITER_NO_CONTAINER)
	CodeWriterBadChunk       = int(C.CBOR_FAST_ERR_WRITER_BAD_CHUNK)
	CodeWriterOddMap         = int(C.CBOR_FAST_ERR_WRITER_ODD_MAP)
	CodeTypeMismatch         = int(C.CBOR_FAST_ERR_TYPE_MISMATCH)
	CodeTruncated            = int(C.CBOR_FAST_ERR_TRUNCATED)
	CodeReservedAI           = int(C.CBOR_FAST_ERR_RESERVED_AI)
	CodeIndefiniteNotAllowed = int(C.CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED)
	CodeBadSimple            = int(C.CBOR_FAST_ERR_BAD_SIMPLE)
	CodeChunkType            = int(C.CBOR_FAST_ERR_CHUNK_TYPE)
	CodeNestedChunk          = int(C.CBOR_FAST_ERR_NESTED_CHUNK)
	CodeUnexpectedBreak      = int(C.CBOR_FAST_ERR_UNEXPECTED_BREAK)
	CodeMapMissingValue      = int(C.CBOR_FAST_ERR_MAP_MISSING_VALUE)
	CodeInvalidUTF8          = int(C.CBOR_FAST_ERR_INVALID_UTF8)
	CodeTrailingBytes        = int(C.CBOR_FAST_ERR_TRAILING_BYTES)
	CodeNotPreferred         = int(C.CBOR_FAST_ERR_NOT_PREFERRED)
	CodeIndefiniteLength     = int(C.CBOR_FAST_ERR_INDEFINITE_LENGTH)
	CodeUnsortedKeys         = int(C.CBOR_FAST_ERR_UNSORTED_KEYS)
	CodeDuplicateKey         = int(C.CBOR_FAST_ERR_DUPLICATE_KEY)
	CodeSyntaxError          = int(C.CBOR_FAST_ERR_SYNTAX_ERROR)
	CodeDepth                = int(C.CBOR_FAST_ERR_DEPTH)
	CodeOutOfMemory          = int(C.CBOR_FAST_ERR_OUT_OF_MEMORY)
	CodeTooManyItems         = int(C.CBOR_FAST_ERR_TOO_MANY_ITEMS)
	CodeContainerTooLarge    = int(C.CBOR_FAST_ERR_CONTAINER_TOO_LARGE)
	CodeStringTooLong        = int(C.CBOR_FAST_ERR_STRING_TOO_LONG)
	CodeMemoryBudget         = int(C.CBOR_FAST_ERR_MEMORY_BUDGET)
)

// StatusInfo is one status of the library (cbor_fast_status).
type StatusInfo struct {
	Enum string // enumerator in cbor_fast.h, e.g. "CBOR_FAST_ERR_TRUNCATED"
	Name string // cbor_status_name, e.g. "truncated"
	Code int
}

var statusEnums = []struct {
	enum string
	code C.cbor_fast_status
}{
	{"CBOR_FAST_OK", C.CBOR_FAST_OK},
	{"CBOR_FAST_END", C.CBOR_FAST_END},
	{"CBOR_FAST_NEED_MORE", C.CBOR_FAST_NEED_MORE},
	{"CBOR_FAST_ERR_INVALID_ARGUMENT", C.CBOR_FAST_ERR_INVALID_ARGUMENT},
	{"CBOR_FAST_ERR_INVALID_STATE", C.CBOR_FAST_ERR_INVALID_STATE},
	{"CBOR_FAST_ERR_BUFFER_TOO_SMALL", C.CBOR_FAST_ERR_BUFFER_TOO_SMALL},
	{"CBOR_FAST_ERR_WRITER_UNCLOSED", C.CBOR_FAST_ERR_WRITER_UNCLOSED},
	{"CBOR_FAST_ERR_WRITER_COUNT", C.CBOR_FAST_ERR_WRITER_COUNT},
	{"CBOR_FAST_ERR_WRITER_NO_CONTAINER", C.CBOR_FAST_ERR_WRITER_NO_CONTAINER},
	{"CBOR_FAST_ERR_WRITER_BAD_CHUNK", C.CBOR_FAST_ERR_WRITER_BAD_CHUNK},
	{"CBOR_FAST_ERR_WRITER_ODD_MAP", C.CBOR_FAST_ERR_WRITER_ODD_MAP},
	{"CBOR_FAST_ERR_SINK_FAILED", C.CBOR_FAST_ERR_SINK_FAILED},
	{"CBOR_FAST_ERR_TYPE_MISMATCH", C.CBOR_FAST_ERR_TYPE_MISMATCH},
	{"CBOR_FAST_ERR_OUT_OF_RANGE", C.CBOR_FAST_ERR_OUT_OF_RANGE},
	{"CBOR_FAST_ERR_SOURCE_FAILED", C.CBOR_FAST_ERR_SOURCE_FAILED},
	{"CBOR_FAST_ERR_TRUNCATED", C.CBOR_FAST_ERR_TRUNCATED},
	{"CBOR_FAST_ERR_RESERVED_AI", C.CBOR_FAST_ERR_RESERVED_AI},
	{"CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED", C.CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED},
	{"CBOR_FAST_ERR_BAD_SIMPLE", C.CBOR_FAST_ERR_BAD_SIMPLE},
	{"CBOR_FAST_ERR_CHUNK_TYPE", C.CBOR_FAST_ERR_CHUNK_TYPE},
	{"CBOR_FAST_ERR_NESTED_CHUNK", C.CBOR_FAST_ERR_NESTED_CHUNK},
	{"CBOR_FAST_ERR_UNEXPECTED_BREAK", C.CBOR_FAST_ERR_UNEXPECTED_BREAK},
	{"CBOR_FAST_ERR_MAP_MISSING_VALUE", C.CBOR_FAST_ERR_MAP_MISSING_VALUE},
	{"CBOR_FAST_ERR_INVALID_UTF8", C.CBOR_FAST_ERR_INVALID_UTF8},
	{"CBOR_FAST_ERR_TRAILING_BYTES", C.CBOR_FAST_ERR_TRAILING_BYTES},
	{"CBOR_FAST_ERR_NOT_PREFERRED", C.CBOR_FAST_ERR_NOT_PREFERRED},
	{"CBOR_FAST_ERR_INDEFINITE_LENGTH", C.CBOR_FAST_ERR_INDEFINITE_LENGTH},
	{"CBOR_FAST_ERR_UNSORTED_KEYS", C.CBOR_FAST_ERR_UNSORTED_KEYS},
	{"CBOR_FAST_ERR_DUPLICATE_KEY", C.CBOR_FAST_ERR_DUPLICATE_KEY},
	{"CBOR_FAST_ERR_SYNTAX_ERROR", C.CBOR_FAST_ERR_SYNTAX_ERROR},
	{"CBOR_FAST_ERR_DEPTH", C.CBOR_FAST_ERR_DEPTH},
	{"CBOR_FAST_ERR_OUT_OF_MEMORY", C.CBOR_FAST_ERR_OUT_OF_MEMORY},
	{"CBOR_FAST_ERR_TOO_MANY_ITEMS", C.CBOR_FAST_ERR_TOO_MANY_ITEMS},
	{"CBOR_FAST_ERR_CONTAINER_TOO_LARGE", C.CBOR_FAST_ERR_CONTAINER_TOO_LARGE},
	{"CBOR_FAST_ERR_STRING_TOO_LONG", C.CBOR_FAST_ERR_STRING_TOO_LONG},
	{"CBOR_FAST_ERR_MEMORY_BUDGET", C.CBOR_FAST_ERR_MEMORY_BUDGET},
	{"CBOR_FAST_ERR_INTERNAL", C.CBOR_FAST_ERR_INTERNAL},
}

// Statuses lists every status the library defines, with its name.
func Statuses() []StatusInfo {
	out := make([]StatusInfo, len(statusEnums))
	for i, s := range statusEnums {
		out[i] = StatusInfo{Enum: s.enum, Name: C.GoString(C.cbor_status_name(s.code)), Code: int(s.code)}
	}
	return out
}

// Sentinels for errors.Is; only Code is compared.
var (
	ErrInvalidArgument = statusError(C.CBOR_FAST_ERR_INVALID_ARGUMENT)
	ErrInvalidState    = statusError(C.CBOR_FAST_ERR_INVALID_STATE)
	ErrTruncated       = statusError(C.CBOR_FAST_ERR_TRUNCATED)
	ErrInvalidUTF8     = statusError(C.CBOR_FAST_ERR_INVALID_UTF8)
	ErrTrailingBytes   = statusError(C.CBOR_FAST_ERR_TRAILING_BYTES)
	ErrDepth           = statusError(C.CBOR_FAST_ERR_DEPTH)
	ErrOutOfMemory     = statusError(C.CBOR_FAST_ERR_OUT_OF_MEMORY)

	// Strict checks (DecodeOptions.RejectDuplicateKeys, .Deterministic).
	ErrNotPreferred     = statusError(C.CBOR_FAST_ERR_NOT_PREFERRED)
	ErrIndefiniteLength = statusError(C.CBOR_FAST_ERR_INDEFINITE_LENGTH)
	ErrUnsortedKeys     = statusError(C.CBOR_FAST_ERR_UNSORTED_KEYS)
	ErrDuplicateKey     = statusError(C.CBOR_FAST_ERR_DUPLICATE_KEY)

	// Limits (DecodeOptions.MaxItems, .MaxContainerItems, .MaxStringLength,
	// .MaxMemory).
	ErrTooManyItems      = statusError(C.CBOR_FAST_ERR_TOO_MANY_ITEMS)
	ErrContainerTooLarge = statusError(C.CBOR_FAST_ERR_CONTAINER_TOO_LARGE)
	ErrStringTooLong     = statusError(C.CBOR_FAST_ERR_STRING_TOO_LONG)
	ErrMemoryBudget      = statusError(C.CBOR_FAST_ERR_MEMORY_BUDGET)
)

// ErrClosed is returned by a Reader or Sequence used after Close.
var ErrClosed = errors.New("cborfast: handle is closed")

// ErrConcurrentUse is returned by a Decoder or Encoder called while another
// call on it runs, in another goroutine or further up this one (neither is
// safe for concurrent use, nor re-entrant; two
// Decode calls at once on one Decoder ended the process with a fatal
// runtime error, unpinning its buffer twice).
var ErrConcurrentUse = errors.New("cborfast: Decoder or Encoder used by two goroutines at once")

// IsMalformed reports whether err is an *Error for input that is not
// well-formed (RFC 8949 Appendix F; codes 100-199).
func IsMalformed(err error) bool {
	var e *Error
	return errors.As(err, &e) && C.cbor_status_is_malformed(C.cbor_fast_status(e.Code)) != 0
}

const (
	statusDepth           = C.CBOR_FAST_ERR_DEPTH
	statusInvalidArgument = C.CBOR_FAST_ERR_INVALID_ARGUMENT
)

func statusError(s C.cbor_fast_status) *Error {
	return &Error{
		Status:  C.GoString(C.cbor_status_name(s)),
		Code:    int(s),
		Message: C.GoString(C.cbor_status_string(s)),
	}
}

// fromC converts a filled cbor_fast_error.
func fromC(s C.cbor_fast_status, ce *C.cbor_fast_error) *Error {
	e := statusError(s)
	if ce != nil && ce.code == s {
		e.Offset = int(ce.offset)
		e.ItemOffset = int(ce.item_offset)
		e.Depth = int(ce.depth)
	}
	return e
}

// Version is the runtime version of libcbor_fast, "major.minor.patch".
func Version() string { return C.GoString(C.cbor_fast_version_string()) }

// liveHandles counts C handles and buffers this package holds, so the tests
// can check that every path frees what it made.
var liveHandles int64

func track(n int64) { atomic.AddInt64(&liveHandles, n) }

// cFree frees C memory this package allocated and counted with track(1).
func cFree(p unsafe.Pointer) {
	if p != nil {
		track(-1)
		C.free(p)
	}
}

// goPtr is the address of data's first byte for a call that does not keep it
// (nil for empty data).
func goPtr(data []byte) unsafe.Pointer {
	if len(data) == 0 {
		return nil
	}
	return unsafe.Pointer(&data[0])
}

// noCopy makes go vet (copylocks) report a copy of the struct that holds it:
// the handles a copy must not share (Reader, Sequence, Decoder, Encoder).
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
