package cborfast

/*
#include "walk.h"
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"sort"
	"sync"
	"unsafe"
)

// EncodeOptions are the limits for Encode. The zero value gives the defaults.
type EncodeOptions struct {
	// MaxDepth is the most containers and tags that may be open at once;
	// 0 means DefaultEncodeMaxDepth. It also stops a slice that contains
	// itself. Encoding never recurses.
	MaxDepth int
}

// DefaultEncodeMaxDepth is the depth limit of Encode when none is given.
const DefaultEncodeMaxDepth = 100000

// Encode writes v as CBOR in preferred serialization (see the package
// documentation for the types it takes).
func Encode(v any) ([]byte, error) { return EncodeOptions{}.Encode(v) }

// endMark on the work stack closes the innermost container.
type endMark struct{}

// Encode writes v as CBOR with these options.
func (o EncodeOptions) Encode(v any) ([]byte, error) {
	maxDepth := o.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultEncodeMaxDepth
	}
	e := encoder{tape: getTape()}
	defer putTape(e.tape)
	if s := C.cbor_writer_new(nil, &e.w); s != C.CBOR_FAST_OK {
		return nil, statusError(s)
	}
	track(1)
	defer func() {
		track(-1)
		C.cbor_writer_free(e.w)
	}()

	// Work stack, popped from the end: container children are pushed in
	// reverse after an endMark; a tag's content is followed by a tagDone.
	stack := []any{v}
	depth := 0
	var keys []string
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := x.(type) {
		case nil:
			e.op(C.CF_OP_NULL, 0)
		case bool:
			if t {
				e.op(C.CF_OP_BOOL, 1)
			} else {
				e.op(C.CF_OP_BOOL, 0)
			}
		case int:
			e.int(int64(t))
		case int8:
			e.int(int64(t))
		case int16:
			e.int(int64(t))
		case int32:
			e.int(int64(t))
		case int64:
			e.int(t)
		case uint:
			e.op(C.CF_OP_UINT, uint64(t))
		case uint8:
			e.op(C.CF_OP_UINT, uint64(t))
		case uint16:
			e.op(C.CF_OP_UINT, uint64(t))
		case uint32:
			e.op(C.CF_OP_UINT, uint64(t))
		case uint64:
			e.op(C.CF_OP_UINT, t)
		case float64:
			e.op(C.CF_OP_FLOAT, math.Float64bits(t))
		case float32:
			e.op(C.CF_OP_FLOAT, math.Float64bits(float64(t)))
		case string:
			if len(t) > directString {
				if err := e.flush(); err != nil {
					return nil, err
				}
				// The bytes are Go memory without pointers, used only during
				// the call: allowed by the cgo rules.
				s := C.cbor_writer_text(e.w, (*C.char)(stringPtr(t)), C.size_t(len(t)))
				if s != C.CBOR_FAST_OK {
					return nil, writerError(e.w, s)
				}
				break
			}
			e.op(C.CF_OP_TEXT, uint64(len(t)))
			e.tape = append(e.tape, t...)
		case []byte:
			if len(t) > directString {
				if err := e.flush(); err != nil {
					return nil, err
				}
				s := C.cbor_writer_bytes(e.w, goPtr(t), C.size_t(len(t)))
				if s != C.CBOR_FAST_OK {
					return nil, writerError(e.w, s)
				}
				break
			}
			e.op(C.CF_OP_BYTES, uint64(len(t)))
			e.tape = append(e.tape, t...)
		case *big.Int:
			if t == nil {
				e.op(C.CF_OP_NULL, 0)
				break
			}
			e.bignum(t)
		case big.Int:
			e.bignum(&t)
		case Simple:
			e.op(C.CF_OP_SIMPLE, uint64(t))
		case UndefinedType:
			e.op(C.CF_OP_UNDEFINED, 0)
		case endMark:
			depth--
			e.op(C.CF_OP_END, 0)
		case tagDone:
			depth--
		case Tag:
			if depth++; depth > maxDepth {
				return nil, e.depthError(maxDepth)
			}
			e.op(C.CF_OP_TAG, t.Number)
			// A tag has no end call; tagDone brings the depth back down.
			stack = append(stack, tagDone{}, t.Content)
		case []any:
			if depth++; depth > maxDepth {
				return nil, e.depthError(maxDepth)
			}
			e.op(C.CF_OP_ARRAY, uint64(len(t)))
			stack = append(stack, endMark{})
			for i := len(t) - 1; i >= 0; i-- {
				stack = append(stack, t[i])
			}
		case Map:
			if depth++; depth > maxDepth {
				return nil, e.depthError(maxDepth)
			}
			e.op(C.CF_OP_MAP, uint64(len(t)))
			stack = append(stack, endMark{})
			for i := len(t) - 1; i >= 0; i-- {
				stack = append(stack, t[i].Value, t[i].Key)
			}
		case map[string]any:
			if depth++; depth > maxDepth {
				return nil, e.depthError(maxDepth)
			}
			e.op(C.CF_OP_MAP, uint64(len(t)))
			keys = keys[:0]
			for k := range t {
				keys = append(keys, k)
			}
			// Deterministic order: by encoded key, i.e. shorter text first.
			sort.Slice(keys, func(i, j int) bool {
				if len(keys[i]) != len(keys[j]) {
					return len(keys[i]) < len(keys[j])
				}
				return keys[i] < keys[j]
			})
			stack = append(stack, endMark{})
			for i := len(keys) - 1; i >= 0; i-- {
				stack = append(stack, t[keys[i]], keys[i])
			}
		default:
			return nil, &UnsupportedTypeError{Type: fmt.Sprintf("%T", x)}
		}
		if len(e.tape) >= flushAt {
			if err := e.flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := e.flush(); err != nil {
		return nil, err
	}
	var data *C.uint8_t
	var size C.size_t
	if s := C.cbor_writer_finish(e.w, &data, &size); s != C.CBOR_FAST_OK {
		return nil, writerError(e.w, s)
	}
	out := make([]byte, int(size))
	copy(out, unsafe.Slice((*byte)(unsafe.Pointer(data)), int(size)))
	return out, nil
}

// tagDone on the work stack marks the end of a tag's content.
type tagDone struct{}

const (
	// flushAt is the tape size that triggers a call into C.
	flushAt = 32 << 10
	// Strings longer than directString go to the writer in their own call
	// instead of being copied onto the tape.
	directString = 4 << 10
)

// encoder batches writer calls on a tape (see walk.h): cgo calls cost about
// 100 ns and an allocation each in Go 1.19, more than writing a small item.
type encoder struct {
	w    *C.cbor_writer
	tape []byte
}

func (e *encoder) op(op byte, arg uint64) {
	e.tape = append(e.tape, op)
	e.tape = binary.LittleEndian.AppendUint64(e.tape, arg)
}

func (e *encoder) int(v int64) {
	if v >= 0 {
		e.op(C.CF_OP_UINT, uint64(v))
	} else {
		e.op(C.CF_OP_NEGATIVE, uint64(-1-v))
	}
}

func (e *encoder) bignum(z *big.Int) {
	if z.Sign() >= 0 {
		m := z.Bytes()
		e.op(C.CF_OP_BIGNUM, uint64(len(m)))
		e.tape = append(e.tape, m...)
		return
	}
	// The negative value -1 - m: m = -z - 1.
	m := new(big.Int).Neg(z)
	b := m.Sub(m, bigOne).Bytes()
	e.op(C.CF_OP_BIGNUM_NEG, uint64(len(b)))
	e.tape = append(e.tape, b...)
}

// flush runs the tape in one call; the tape is Go memory without pointers,
// only read during the call.
func (e *encoder) flush() error {
	if len(e.tape) == 0 {
		return nil
	}
	var failed C.size_t
	s := C.cf_write_tape(e.w, (*C.uint8_t)(goPtr(e.tape)), C.size_t(len(e.tape)), &failed)
	e.tape = e.tape[:0]
	if s != C.CBOR_FAST_OK {
		return writerError(e.w, s)
	}
	return nil
}

func (e *encoder) depthError(max int) error {
	if err := e.flush(); err != nil {
		return err
	}
	err := statusError(C.CBOR_FAST_ERR_DEPTH)
	err.Offset = int(C.cbor_writer_size(e.w))
	err.Depth = max + 1
	return err
}

var tapes = sync.Pool{New: func() any { b := make([]byte, 0, flushAt+directString+64); return &b }}

func getTape() []byte { return (*tapes.Get().(*[]byte))[:0] }

func putTape(b []byte) {
	if cap(b) <= 2*flushAt+directString {
		tapes.Put(&b)
	}
}

func writerError(w *C.cbor_writer, s C.cbor_fast_status) *Error {
	e := statusError(s)
	e.Offset = int(C.cbor_writer_size(w))
	return e
}

// stringPtr is the address of s's bytes (nil for "").
func stringPtr(s string) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return *(*unsafe.Pointer)(unsafe.Pointer(&s))
}
