package cborfast

/*
#include "walk.h"
*/
import "C"

import (
	"math"
	"math/big"
	"runtime"
	"unsafe"
)

// DecodeOptions are the limits and checks for Decode, NewSequence and
// NewReader. The zero value gives the library's defaults: no strict checks
// and no limits but MaxDepth 512. Each failure is an *Error whose Code names
// it (see the Err sentinels), at the offset the library reports.
type DecodeOptions struct {
	// MaxDepth is the most containers and tags that may be open at once;
	// 0 means 512. Decoding never recurses, so large values are safe.
	MaxDepth int
	// ValidateUTF8 rejects text strings that are not valid UTF-8.
	ValidateUTF8 bool
	// RejectDuplicateKeys rejects a map key equal by value to an earlier key
	// of the same map (ErrDuplicateKey at the second key's head).
	RejectDuplicateKeys bool
	// Deterministic requires RFC 8949 core deterministic encoding (section
	// 4.2.1): ErrNotPreferred (a head or float longer than needed),
	// ErrIndefiniteLength, ErrUnsortedKeys (keys not in bytewise order of
	// their encodings) or ErrDuplicateKey (an equal key).
	Deterministic bool
	// MaxStringLength is the most bytes in one string, chunk or joined
	// indefinite string (ErrStringTooLong); 0 means no limit.
	MaxStringLength uint64
	// MaxContainerItems is the most items of one array or pairs of one map
	// (ErrContainerTooLarge); 0 means no limit.
	MaxContainerItems uint64
	// MaxItems is the most data items (keys, values, tags, chunks) of one
	// item, or for a Reader since its start (ErrTooManyItems); 0 means no
	// limit.
	MaxItems uint64
	// MaxMemory is the most bytes the library may hold at once to decode one
	// item (its document, tables and stacks; ErrMemoryBudget); 0 means no
	// limit. A Reader builds no document: NewReader rejects it.
	MaxMemory uint64
}

func (o DecodeOptions) flags() C.uint32_t {
	var f C.uint32_t
	if o.ValidateUTF8 {
		f |= C.CBOR_FAST_DECODE_VALIDATE_UTF8
	}
	if o.RejectDuplicateKeys {
		f |= C.CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS
	}
	if o.Deterministic {
		f |= C.CBOR_FAST_DECODE_DETERMINISTIC
	}
	return f
}

// cOptions is the C struct for cbor_decode and cbor_seq_new.
func (o DecodeOptions) cOptions() C.cbor_fast_decode_options {
	return C.cbor_fast_decode_options{
		struct_size:         C.sizeof_cbor_fast_decode_options,
		max_depth:           o.maxDepth(),
		max_string_length:   C.uint64_t(o.MaxStringLength),
		max_container_items: C.uint64_t(o.MaxContainerItems),
		max_items:           C.uint64_t(o.MaxItems),
		max_memory:          C.uint64_t(o.MaxMemory),
	}
}

func (o DecodeOptions) maxDepth() C.uint32_t {
	if o.MaxDepth <= 0 {
		return 0
	}
	if uint64(o.MaxDepth) > math.MaxUint32 {
		return math.MaxUint32
	}
	return C.uint32_t(o.MaxDepth)
}

// Decode decodes the one CBOR data item in data with default options.
// Bytes after the item are an error (status "trailing_bytes"); use Sequence
// for several items. Empty input is "truncated" at offset 0.
func Decode(data []byte) (any, error) { return DecodeOptions{}.Decode(data) }

// Decode decodes the one CBOR data item in data with these options.
func (o DecodeOptions) Decode(data []byte) (any, error) {
	if len(data) == 0 {
		return nil, &Error{Status: ErrTruncated.Status, Code: CodeTruncated, Message: ErrTruncated.Message}
	}
	var w *C.cf_walk
	ce := C.cbor_fast_error{struct_size: C.sizeof_cbor_fast_error}
	opts := o.cOptions()
	// The document copies its strings (COPY_STRINGS), so C keeps no pointer
	// into data after this call, as the cgo rules require.
	s := C.cf_decode(goPtr(data), C.size_t(len(data)),
		o.flags()|C.CBOR_FAST_DECODE_EXACT|C.CBOR_FAST_DECODE_COPY_STRINGS,
		&opts, &w, &ce)
	runtime.KeepAlive(data)
	if s != C.CBOR_FAST_OK {
		return nil, fromC(s, &ce)
	}
	track(1)
	defer freeWalk(w)
	return build(w)
}

func freeWalk(w *C.cf_walk) {
	track(-1)
	C.cf_walk_free(w)
}

// frame is a container being filled while building values.
type frame struct {
	kind   uint8 // C.CBOR_FAST_TYPE_ARRAY, _MAP or _TAG
	need   int   // children still expected (a map counts keys and values)
	tag    uint64
	array  []any
	m      Map
	key    any
	hasKey bool
}

// build turns the walker's pre-order records into Go values with an explicit
// stack, batch by batch, so depth costs heap, not goroutine stack.
func build(w *C.cf_walk) (any, error) {
	var stack []frame
	var root any
	for {
		var n C.size_t
		if s := C.cf_walk_fill(w, &n); s != C.CBOR_FAST_OK {
			return nil, statusError(s)
		}
		if n == 0 {
			return root, nil
		}
		recs := unsafe.Slice(w.recs, int(n))
		for i := range recs {
			r := &recs[i]
			var v any
			switch r.kind {
			case C.CBOR_FAST_TYPE_UINT:
				v = uint64(r.value)
			case C.CBOR_FAST_TYPE_NEGATIVE:
				v = negative(uint64(r.value))
			case C.CBOR_FAST_TYPE_BYTES:
				b := make([]byte, int(r.value))
				copy(b, cView(r.data, r.value))
				v = b
			case C.CBOR_FAST_TYPE_TEXT:
				v = string(cView(r.data, r.value))
			case C.CBOR_FAST_TYPE_ARRAY:
				if r.value == 0 {
					v = []any{}
					break
				}
				stack = append(stack, frame{kind: C.CBOR_FAST_TYPE_ARRAY, need: int(r.value),
					array: make([]any, 0, int(r.value))})
				continue
			case C.CBOR_FAST_TYPE_MAP:
				if r.value == 0 {
					v = Map{}
					break
				}
				stack = append(stack, frame{kind: C.CBOR_FAST_TYPE_MAP, need: 2 * int(r.value),
					m: make(Map, 0, int(r.value))})
				continue
			case C.CBOR_FAST_TYPE_TAG:
				if r.bignum != 0 {
					z := new(big.Int).SetBytes(cView(r.data, r.value))
					if r.negative != 0 {
						z.Neg(z).Sub(z, bigOne)
					}
					v = z
					break
				}
				stack = append(stack, frame{kind: C.CBOR_FAST_TYPE_TAG, need: 1, tag: uint64(r.value)})
				continue
			case C.CBOR_FAST_TYPE_SIMPLE:
				v = Simple(r.value)
			case C.CBOR_FAST_TYPE_BOOL:
				v = r.value != 0
			case C.CBOR_FAST_TYPE_NULL:
				v = nil
			case C.CBOR_FAST_TYPE_UNDEFINED:
				v = Undefined
			case C.CBOR_FAST_TYPE_FLOAT:
				v = math.Float64frombits(uint64(r.value))
			default:
				return nil, statusError(C.CBOR_FAST_ERR_INTERNAL)
			}
			// Hand v to the innermost open container; a container that is
			// complete becomes the value for the one around it.
			for {
				if len(stack) == 0 {
					root = v
					break
				}
				f := &stack[len(stack)-1]
				switch f.kind {
				case C.CBOR_FAST_TYPE_ARRAY:
					f.array = append(f.array, v)
				case C.CBOR_FAST_TYPE_MAP:
					if f.hasKey {
						f.m = append(f.m, Pair{f.key, v})
						f.key, f.hasKey = nil, false
					} else {
						f.key, f.hasKey = v, true
					}
				default:
					f.key = v
				}
				f.need--
				if f.need > 0 {
					break
				}
				switch f.kind {
				case C.CBOR_FAST_TYPE_ARRAY:
					v = f.array
				case C.CBOR_FAST_TYPE_MAP:
					v = f.m
				default:
					v = Tag{Number: f.tag, Content: f.key}
				}
				stack[len(stack)-1] = frame{}
				stack = stack[:len(stack)-1]
			}
		}
	}
}

var bigOne = big.NewInt(1)

// negative is the integer -1 - n: an int64 when it fits, else a *big.Int.
func negative(n uint64) any {
	if n <= math.MaxInt64 {
		return -1 - int64(n)
	}
	z := new(big.Int).SetUint64(n)
	return z.Neg(z).Sub(z, bigOne)
}

// cView is a Go view of C memory (valid until the walker is freed).
func cView(p *C.uint8_t, n C.uint64_t) []byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
}
