package cborfast

/*
#include "route.h"
*/
import "C"

import (
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"unsafe"
)

// Bulk number arrays and RFC 8746 typed arrays, through the library's bulk
// readers (cbor_reader_read_*_array) and typed-array writer. The element
// rules (any head width, any float width, range checks, tags 64..87) are the
// library's.

// bulkKind is the library routine for a slice element type: 0 uint64, 1
// int64, 2 float64; -1 for the others (only the predeclared types, so a
// named type with its own UnmarshalCBOR keeps it). narrow: a smaller type
// (uint16, uint32, int8 .. int32, float32), filled from RFC 8746 typed
// arrays only, through a 64-bit copy and a range check.
func bulkKind(et reflect.Type) (kind int, narrow bool) {
	switch et {
	case reflect.TypeFor[uint64]():
		return 0, false
	case reflect.TypeFor[int64]():
		return 1, false
	case reflect.TypeFor[float64]():
		return 2, false
	case reflect.TypeFor[uint]():
		return 0, et.Size() != 8
	case reflect.TypeFor[int]():
		return 1, et.Size() != 8
	case reflect.TypeFor[uint16](), reflect.TypeFor[uint32]():
		return 0, true
	case reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32]():
		return 1, true
	case reflect.TypeFor[float32]():
		return 2, true
	}
	return -1, false
}

// narrowInto converts n 64-bit elements at src (kind as bulkKind) into the
// elements of type et at dst; false at the first that does not fit.
func narrowInto(et reflect.Type, kind int, src, dst unsafe.Pointer, n int) int {
	bits := uint(et.Size() * 8)
	for i := 0; i < n; i++ {
		q := unsafe.Add(dst, uintptr(i)*et.Size())
		switch kind {
		case 0:
			v := *(*uint64)(unsafe.Add(src, i*8))
			if bits < 64 && v>>bits != 0 {
				return i
			}
			switch bits {
			case 16:
				*(*uint16)(q) = uint16(v)
			case 32:
				*(*uint32)(q) = uint32(v)
			}
		case 1:
			v := *(*int64)(unsafe.Add(src, i*8))
			if lim := int64(1) << (bits - 1); v < -lim || v >= lim {
				return i
			}
			switch bits {
			case 8:
				*(*int8)(q) = int8(v)
			case 16:
				*(*int16)(q) = int16(v)
			case 32:
				*(*int32)(q) = int32(v)
			}
		default:
			v := *(*float64)(unsafe.Add(src, i*8))
			f := float32(v)
			if float64(f) != v && v == v {
				return i // a double typed array with values no float32 holds
			}
			*(*float32)(q) = f
		}
	}
	return -1
}

// bulkMinLen: shorter definite arrays are read element by element (the
// extra cgo calls of the bulk route cost more than they save there).
const bulkMinLen = 16

// bulkRead runs one bulk read over data (a pooled second reader): the
// status, the element count (or the count needed), the end offset in data,
// and the reader's error when it is sticky.
func bulkRead(data []byte, kind int, out unsafe.Pointer, capacity int) (s C.cbor_fast_status, count, end int, ce C.cbor_fast_error, sticky bool) {
	var c *creader
	if v := creaders.Get(); v != nil {
		c = v.(*creader)
	} else {
		var err error
		if c, err = newCReader(); err != nil {
			return C.CBOR_FAST_ERR_OUT_OF_MEMORY, 0, 0, ce, false
		}
	}
	// The defaults: the main reader checks the limits where it passes over.
	if c.opts != nil {
		if s = C.cf_reader_prepare(c.r, nil, 0, &defaultReaderOpts); s != C.CBOR_FAST_OK {
			return s, 0, 0, ce, false
		}
		c.opts = nil
	}
	var p unsafe.Pointer
	if len(data) > 0 {
		p = unsafe.Pointer(&data[0])
	}
	ce.struct_size = C.sizeof_cbor_fast_error
	var n, e C.size_t
	var st C.int
	s = C.cf_bulk_read(c.h, p, C.size_t(len(data)), C.int(kind), out, C.size_t(capacity), &n, &e, &ce, &st)
	runtime.KeepAlive(data)
	creaders.Put(c)
	return s, int(n), int(e), ce, st != 0
}

// bulkSlice is the fast path of sliceDec for []uint64, []int64, []float64
// (and []uint, []int where 64 bits): a definite array of at least bulkMinLen
// numbers or an RFC 8746 typed array, read by the library in one call (two
// for a typed array: its count first) on a second reader, then passed over
// on the main one. handled false: nothing consumed, the element-by-element
// path decodes it (and reports whatever does not fit as it always has).
func (d *decState) bulkSlice(it *citem, t reflect.Type, kind int, narrow bool, p unsafe.Pointer) (handled bool, err error) {
	head := *it
	off := int(head.offset)
	if off > len(d.t.data) {
		return false, nil
	}
	rest := d.t.data[off:]
	sh := (*sliceHeader)(p)
	n := -1
	if head._type == C.CBOR_FAST_TYPE_ARRAY {
		if isIndef(&head) || head.value < bulkMinLen || head.value > C.uint64_t(len(rest)) {
			return false, nil // a claimed length over the bytes left fails as truncated there
		}
		n = int(head.value)
	} else {
		s, count, _, _, _ := bulkRead(rest, kind, nil, 0)
		switch s {
		case C.CBOR_FAST_OK:
			n = 0
		case C.CBOR_FAST_ERR_BUFFER_TOO_SMALL:
			n = count
		default:
			return false, nil
		}
	}
	reuse := sh.data != nil && sh.cap >= n // fxamacker: reuse the elements that are there
	data := sh.data
	if !reuse {
		data = reflect.MakeSlice(t, n, n).UnsafePointer()
	}
	target := data
	if narrow {
		wide := make([]uint64, max(n, 1))
		data = unsafe.Pointer(&wide[0])
	}
	s, count, _, ce, sticky := bulkRead(rest, kind, data, n)
	if s != C.CBOR_FAST_OK || count != n {
		if sticky && head._type == C.CBOR_FAST_TYPE_TAG && (s == C.CBOR_FAST_ERR_OUT_OF_RANGE || s == C.CBOR_FAST_ERR_TYPE_MISMATCH) {
			// An element of a typed array that does not fit: a type error
			// at that element, the value skipped (as for any other mismatch).
			d.nerr++
			if d.err == nil {
				d.err = &UnmarshalTypeError{CBORType: "typed array (tag " + strconv.FormatUint(uint64(head.value), 10) + ")",
					GoType: t.String(), Offset: off + int(ce.offset), Reason: C.GoString(C.cbor_status_name(s))}
			}
			_, err := d.t.skipRest(&head)
			return true, err
		}
		return false, nil
	}
	if kind == 2 && head._type == C.CBOR_FAST_TYPE_ARRAY && n > 0 && belowInt64(unsafe.Slice((*float64)(data), n)) {
		// The library takes a negative integer below -2^63 that a double
		// holds exactly; a float element refuses it, as fxamacker. Only
		// the element-by-element path tells it from a float of that value.
		return false, nil
	}
	if narrow {
		if bad := narrowInto(t.Elem(), kind, data, target, n); bad >= 0 {
			if head._type == C.CBOR_FAST_TYPE_ARRAY {
				// the element-by-element path reports it at its offset
				return false, nil
			}
			// A typed array's element that does not fit: a type error at
			// that element (its content is the byte string right after
			// the tag, fixed-width elements).
			at := off
			if j := d.t.i; j < len(d.t.batch) && n > 0 {
				if bs := &d.t.batch[j]; bs._type == C.CBOR_FAST_TYPE_BYTES && !isIndef(bs) {
					at = int(bs.offset) + int(bs.head_size) + bad*(int(bs.size)/n)
				}
			}
			d.nerr++
			if d.err == nil {
				d.err = &UnmarshalTypeError{CBORType: "typed array (tag " + strconv.FormatUint(uint64(head.value), 10) + ")",
					GoType: t.String(), Offset: at, Reason: "overflow"}
			}
			return true, d.t.passOver(&head)
		}
	}
	if reuse {
		sh.len = n
	} else {
		*sh = sliceHeader{data: target, len: n, cap: n}
	}
	return true, d.t.passOver(&head)
}

// belowInt64 is whether any of v is below -2^63 (from a float item, or from
// an integer that a float element refuses).
func belowInt64(v []float64) bool {
	for _, f := range v {
		if f < -0x1p63 {
			return true
		}
	}
	return false
}

// passOver consumes the rest of the value whose head (an array or a tag,
// well-formed numbers as a bulk read found) was just read: what the batch
// holds of it, then, if the batch ended inside it, the library skips the
// rest on the main reader, whose checks and limits apply.
func (t *tokens) passOver(head *citem) error {
	depth := head.depth
	array := head._type == C.CBOR_FAST_TYPE_ARRAY
	for t.i < len(t.batch) {
		x := &t.batch[t.i]
		if x.depth > depth {
			t.i++
			continue
		}
		if array && x._type == C.CBOR_FAST_TYPE_END && x.depth == depth {
			t.i++
		}
		return nil
	}
	if t.sticky != nil {
		return t.sticky // the batch was cut where the error is due
	}
	if s := C.cf_skip_out_to(t.c.h, C.uint32_t(depth)); s != C.CBOR_FAST_OK {
		ce := C.cbor_fast_error{struct_size: C.sizeof_cbor_fast_error}
		C.cbor_reader_error(t.c.r, &ce)
		t.sticky = fromC(s, &ce)
		return t.sticky
	}
	// The batch is behind the reader now: none of it is the value's last item.
	t.batch, t.i = nil, 0
	return nil
}

// bulkDecode reads data, exactly one array of numbers or typed array, with
// the library's bulk reader: a probe tells a definite array's count (nothing
// read), then one read fills the result; an indefinite array is read into
// room for one element per input byte, then trimmed.
func bulkDecode[T uint64 | int64 | float64](data []byte, kind int) ([]T, error) {
	s, count, end, ce, sticky := bulkRead(data, kind, nil, 0)
	var out []T
	switch {
	case s == C.CBOR_FAST_OK:
		out = []T{}
	case s == C.CBOR_FAST_ERR_BUFFER_TOO_SMALL:
		capacity := count
		if sticky {
			capacity = len(data) // indefinite
		}
		out = make([]T, capacity)
		s, count, end, ce, sticky = bulkRead(data, kind, unsafe.Pointer(&out[0]), capacity)
		out = out[:min(count, capacity):min(count, capacity)]
	}
	switch {
	case s == C.CBOR_FAST_OK && end != len(data):
		return nil, trailingBytes(end)
	case s == C.CBOR_FAST_OK:
		return out, nil
	case s == C.CBOR_FAST_END:
		return nil, truncatedAt(0)
	case sticky:
		return nil, fromC(s, &ce)
	}
	return nil, statusError(s) // nothing read: at offset 0, the item
}

// DecodeUint64Array decodes data, exactly one array of unsigned integers
// (any head width; a tag 41 in front allowed) or an RFC 8746 typed array, in
// one library call. Errors are *Error with the status and the byte offset:
// "type_mismatch" at the first element of another type (or at 0 when the
// item is no such array), "out_of_range" at the first element that does not
// fit, "truncated", "trailing_bytes".
func DecodeUint64Array(data []byte) ([]uint64, error) { return bulkDecode[uint64](data, 0) }

// DecodeInt64Array is DecodeUint64Array for integers from -2^63 to 2^63-1.
func DecodeInt64Array(data []byte) ([]int64, error) { return bulkDecode[int64](data, 1) }

// DecodeFloat64Array is DecodeUint64Array for floats of any width (typed
// float16..float128, float128 rounded to nearest) and integers a float64
// holds exactly.
func DecodeFloat64Array(data []byte) ([]float64, error) { return bulkDecode[float64](data, 2) }

// TypedNumber is an element type of RFC 8746 typed arrays.
type TypedNumber interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64 | ~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}

// typedElement is the library's CBOR_FAST_TYPED_* for an element kind; 0
// when the kind has none.
func typedElement(k reflect.Kind, size uintptr) uint32 {
	switch k {
	case reflect.Uint8:
		return C.CBOR_FAST_TYPED_UINT8
	case reflect.Uint16:
		return C.CBOR_FAST_TYPED_UINT16
	case reflect.Uint32:
		return C.CBOR_FAST_TYPED_UINT32
	case reflect.Uint64:
		return C.CBOR_FAST_TYPED_UINT64
	case reflect.Int8:
		return C.CBOR_FAST_TYPED_SINT8
	case reflect.Int16:
		return C.CBOR_FAST_TYPED_SINT16
	case reflect.Int32:
		return C.CBOR_FAST_TYPED_SINT32
	case reflect.Int64:
		return C.CBOR_FAST_TYPED_SINT64
	case reflect.Float32:
		return C.CBOR_FAST_TYPED_FLOAT32
	case reflect.Float64:
		return C.CBOR_FAST_TYPED_FLOAT64
	case reflect.Uint:
		if size == 8 {
			return C.CBOR_FAST_TYPED_UINT64
		}
	case reflect.Int:
		if size == 8 {
			return C.CBOR_FAST_TYPED_SINT64
		}
	}
	return 0
}

// appendTyped appends count elements of size bytes at p as an RFC 8746
// typed array in the host's byte order, written by the library.
func appendTyped(b []byte, element uint32, p unsafe.Pointer, count int, size uintptr) ([]byte, error) {
	need := count*int(size) + 11
	start := len(b)
	b = slices.Grow(b, need)[:start+need]
	var written C.size_t
	s := C.cf_write_typed(unsafe.Pointer(&b[start]), C.size_t(need), C.uint32_t(element),
		C.int(C.cbor_host_is_little_endian()), p, C.size_t(count), &written)
	runtime.KeepAlive(p)
	if s != C.CBOR_FAST_OK {
		return b[:start], statusError(s)
	}
	return b[:start+int(written)], nil
}

// AppendTypedArray appends v to dst as an RFC 8746 typed array: the tag for
// the element type in this host's byte order (little endian on amd64 and
// arm64: tags 64, 69-72, 77-79, 85, 86), then a byte string of the elements
// as they lie in memory, written by the library at memcpy speed.
func AppendTypedArray[T TypedNumber](dst []byte, v []T) ([]byte, error) {
	var zero T
	et := reflect.TypeOf(zero)
	var p unsafe.Pointer
	if len(v) > 0 {
		p = unsafe.Pointer(&v[0])
	}
	return appendTyped(dst, typedElement(et.Kind(), et.Size()), p, len(v), et.Size())
}
