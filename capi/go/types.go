package cborfast

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"time"
)

// SimpleValue is a simple value as Unmarshal gives it in an `any` (as
// fxamacker/cbor does); Decode gives Simple.
type SimpleValue uint8

// ByteString is a byte string used as a key of a map[any]any (a []byte is
// not a valid Go map key), as fxamacker/cbor does. Wherever it is (a field,
// an element, a map key) it is written as a byte string and read from one
// only (null and undefined make it empty; text is a type error).
type ByteString string

// RawMessage is a raw encoded CBOR value: Unmarshal stores a copy of the
// value's bytes, Marshal writes them as they are.
type RawMessage []byte

// MarshalCBOR returns m as it is (null for a nil m).
func (m RawMessage) MarshalCBOR() ([]byte, error) {
	if len(m) == 0 {
		return []byte{0xf6}, nil
	}
	return m, nil
}

// UnmarshalCBOR stores a copy of data.
func (m *RawMessage) UnmarshalCBOR(data []byte) error {
	if m == nil {
		return errors.New("cborfast: UnmarshalCBOR on a nil *RawMessage")
	}
	*m = append((*m)[:0], data...)
	return nil
}

// Marshaler is a type that writes its own CBOR (the same method as
// fxamacker/cbor's, so types written for it work here).
type Marshaler interface {
	MarshalCBOR() ([]byte, error)
}

// Unmarshaler is a type that reads its own CBOR; data is the encoded value,
// valid only during the call.
type Unmarshaler interface {
	UnmarshalCBOR(data []byte) error
}

// UnmarshalTypeError is a CBOR value that does not fit the Go type it is
// decoded into. Unmarshal skips the value, decodes the rest and returns the
// first such error.
type UnmarshalTypeError struct {
	CBORType string // "uint", "text", ...
	GoType   string
	Offset   int // offset of the value's head
	Reason   string
}

func (e *UnmarshalTypeError) Error() string {
	s := fmt.Sprintf("cborfast: cannot unmarshal %s into Go value of type %s at offset %d", e.CBORType, e.GoType, e.Offset)
	if e.Reason != "" {
		s += " (" + e.Reason + ")"
	}
	return s
}

// InvalidUnmarshalError is a bad argument to Unmarshal (not a non-nil pointer).
type InvalidUnmarshalError struct{ Type reflect.Type }

func (e *InvalidUnmarshalError) Error() string {
	if e.Type == nil {
		return "cborfast: Unmarshal(nil)"
	}
	if e.Type.Kind() != reflect.Pointer {
		return "cborfast: Unmarshal(non-pointer " + e.Type.String() + ")"
	}
	return "cborfast: Unmarshal(nil " + e.Type.String() + ")"
}

// hashableKey converts a decoded map key into a valid Go map key; off is
// the key's offset, for the error.
func hashableKey(k any, off int) (any, error) {
	if t := typeWord(k); t == strType || t == u64Type || t == i64Type {
		return k, nil // the usual keys, without the type switch
	}
	switch x := k.(type) {
	case string, uint64, int64, bool, float64, nil, SimpleValue:
		return k, nil
	case []byte:
		return ByteString(x), nil
	case Tag:
		c, err := hashableKey(x.Content, off)
		if err != nil {
			return nil, err
		}
		return Tag{Number: x.Number, Content: c}, nil
	case big.Int:
		// Not comparable (it holds a slice), so not a valid Go map key.
		return nil, &UnmarshalTypeError{CBORType: "bignum", GoType: "map key", Offset: off,
			Reason: "bignum map keys are not supported"}
	}
	// The value, not its type: a registered type comparable as a type may
	// hold a slice or a map in an interface field, which a Go map cannot
	// hash (a panic).
	if reflect.ValueOf(k).Comparable() {
		return k, nil
	}
	return nil, invalidKey(fmt.Sprintf("%T", k), off)
}

func invalidKey(cborType string, off int) error {
	return &UnmarshalTypeError{CBORType: cborType, GoType: "map key", Offset: off, Reason: "invalid map key type"}
}

// keyMayPanic reports whether a Go map key of type t may be unhashable at
// run time (an interface, or an array or struct holding one, may hold a
// slice or a map), so that each decoded key needs reflect's Comparable().
func keyMayPanic(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return keyMayPanic(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if keyMayPanic(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// maxEpoch is the largest epoch time (tag 1) decoded, in seconds either way.
const maxEpoch = 1 << 62

// timeFromContent is the time of a tag 0 (RFC 3339 text) or tag 1 (epoch
// seconds) content.
func timeFromContent(num uint64, c any) (time.Time, error) {
	if num == 0 {
		s, ok := c.(string)
		if !ok {
			return time.Time{}, errors.New("tag 0 content is not a text string")
		}
		return time.Parse(time.RFC3339Nano, s)
	}
	// At most 2^62 seconds (146 billion years) either way, integers as
	// floats: time.Unix() wraps far below that (-2^63 became the year
	// +292277026596).
	switch x := c.(type) {
	case uint64:
		if x > maxEpoch {
			return time.Time{}, errors.New("epoch time out of range")
		}
		return time.Unix(int64(x), 0), nil
	case int64:
		if x < -maxEpoch {
			return time.Time{}, errors.New("epoch time out of range")
		}
		return time.Unix(x, 0), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > maxEpoch {
			return time.Time{}, errors.New("epoch time out of range")
		}
		sec, frac := math.Modf(x)
		return time.Unix(int64(sec), int64(frac*1e9)), nil
	}
	return time.Time{}, errors.New("tag 1 content is not a number")
}
