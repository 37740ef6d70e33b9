package cborfast

/*
#include "route.h"
*/
import "C"

import (
	"math/big"
	"sort"
	"unsafe"
)

// cWriterEncode writes v (Decode's types, plus map[string]any sorted as
// Encode sorts it) with the library's C writer, one cgo call per item. It is
// the reference the tests hold the Go encoder to, byte for byte; no public
// entry point uses it.
func cWriterEncode(v any) ([]byte, error) {
	var w *C.cbor_writer
	if s := C.cbor_writer_new(nil, &w); s != C.CBOR_FAST_OK {
		return nil, statusError(s)
	}
	defer C.cbor_writer_free(w)
	if err := cWrite(w, v, 0); err != nil {
		return nil, err
	}
	var data *C.uint8_t
	var size C.size_t
	if s := C.cbor_writer_finish(w, &data, &size); s != C.CBOR_FAST_OK {
		return nil, statusError(s)
	}
	return C.GoBytes(unsafe.Pointer(data), C.int(size)), nil
}

func cCheck(s C.cbor_fast_status) error {
	if s != C.CBOR_FAST_OK {
		return statusError(s)
	}
	return nil
}

func cWrite(w *C.cbor_writer, v any, depth int) error {
	if depth > 10000 {
		return statusError(C.CBOR_FAST_ERR_DEPTH)
	}
	switch x := v.(type) {
	case nil:
		return cCheck(C.cbor_writer_null(w))
	case bool:
		b := C.int(0)
		if x {
			b = 1
		}
		return cCheck(C.cbor_writer_bool(w, b))
	case uint64:
		return cCheck(C.cbor_writer_uint(w, C.uint64_t(x)))
	case int64:
		return cCheck(C.cbor_writer_int(w, C.int64_t(x)))
	case int:
		return cCheck(C.cbor_writer_int(w, C.int64_t(x)))
	case float64:
		return cCheck(C.cbor_writer_float(w, C.double(x), C.CBOR_FAST_FLOAT_SHORTEST))
	case string:
		return cCheck(C.cbor_writer_text(w, (*C.char)(stringPtr(x)), C.size_t(len(x))))
	case []byte:
		return cCheck(C.cbor_writer_bytes(w, goPtr(x), C.size_t(len(x))))
	case *big.Int:
		if x.IsInt64() {
			return cCheck(C.cbor_writer_int(w, C.int64_t(x.Int64())))
		}
		if x.IsUint64() {
			return cCheck(C.cbor_writer_uint(w, C.uint64_t(x.Uint64())))
		}
		neg := C.int(0)
		m := new(big.Int).Set(x)
		if x.Sign() < 0 {
			neg = 1
			m.Neg(m).Sub(m, bigOne)
		}
		b := m.Bytes()
		return cCheck(C.cbor_writer_bignum(w, (*C.uint8_t)(goPtr(b)), C.size_t(len(b)), neg))
	case Simple:
		return cCheck(C.cbor_writer_simple(w, C.uint8_t(x)))
	case UndefinedType:
		return cCheck(C.cbor_writer_undefined(w))
	case Tag:
		if err := cCheck(C.cbor_writer_tag(w, C.uint64_t(x.Number))); err != nil {
			return err
		}
		return cWrite(w, x.Content, depth+1)
	case []any:
		if err := cCheck(C.cbor_writer_array(w, C.uint64_t(len(x)))); err != nil {
			return err
		}
		for _, y := range x {
			if err := cWrite(w, y, depth+1); err != nil {
				return err
			}
		}
		return cCheck(C.cbor_writer_end(w))
	case Map:
		if err := cCheck(C.cbor_writer_map(w, C.uint64_t(len(x)))); err != nil {
			return err
		}
		for _, p := range x {
			if err := cWrite(w, p.Key, depth+1); err != nil {
				return err
			}
			if err := cWrite(w, p.Value, depth+1); err != nil {
				return err
			}
		}
		return cCheck(C.cbor_writer_end(w))
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if len(keys[i]) != len(keys[j]) {
				return len(keys[i]) < len(keys[j])
			}
			return keys[i] < keys[j]
		})
		if err := cCheck(C.cbor_writer_map(w, C.uint64_t(len(x)))); err != nil {
			return err
		}
		for _, k := range keys {
			if err := cWrite(w, k, depth+1); err != nil {
				return err
			}
			if err := cWrite(w, x[k], depth+1); err != nil {
				return err
			}
		}
		return cCheck(C.cbor_writer_end(w))
	}
	return &UnsupportedTypeError{Type: "cWriterEncode"}
}

// stringPtr is the address of s's bytes (nil for "").
func stringPtr(s string) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(unsafe.StringData(s))
}
