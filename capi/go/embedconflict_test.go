package cborfast

import (
	"bytes"
	"errors"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

type ecTA struct{ X int }
type ecTB struct {
	X int `cbor:"X"`
}
type ecTC struct {
	ecTA
	ecTB
}
type ecW1 struct{ ecTA }
type ecW2 struct{ ecTA }
type ecWW struct {
	ecW1
	ecW2
	Z int
}
type ecTwoTagged struct {
	ecTB
	Y struct {
		X int `cbor:"X"`
	} `cbor:"-"`
	ecTB2
}
type ecTB2 struct {
	X int `cbor:"X"`
}
type ecArr struct {
	_ struct{} `cbor:",toarray"`
	ecTA
	ecTB
	W int
}

// Name conflicts between promoted fields follow encoding/json (and
// fxamacker): at equal depth the field named by its tag wins, else all are
// dropped; a struct type embedded twice at one depth conflicts with itself.
// cborfast dropped the tagged field (X silently gone, and a toarray struct
// one element short) and took the first of a type embedded twice.
func TestEmbeddedConflictsAgainstFxamacker(t *testing.T) {
	values := []any{
		ecTC{ecTA{1}, ecTB{2}},
		ecWW{ecW1{ecTA{1}}, ecW2{ecTA{2}}, 3},
		ecTwoTagged{ecTB: ecTB{1}, ecTB2: ecTB2{2}},
		ecArr{ecTA: ecTA{4}, ecTB: ecTB{5}, W: 6},
	}
	for _, v := range values {
		sameBothWaysAsFx(t, v)
	}
	if got, _ := Marshal(ecTC{ecTA{1}, ecTB{2}}); !bytes.Equal(got, unhex(t, "a1 6158 02")) {
		t.Errorf("tagged wins: %x", got)
	}
	if got, _ := Marshal(ecWW{ecW1{ecTA{1}}, ecW2{ecTA{2}}, 3}); !bytes.Equal(got, unhex(t, "a1 615a 03")) {
		t.Errorf("twice embedded: %x", got)
	}
	var c ecTC
	if err := Unmarshal(unhex(t, "a1 6158 07"), &c); err != nil || c.ecTB.X != 7 || c.ecTA.X != 0 {
		t.Errorf("%+v, %v", c, err)
	}
}

type ecEArr struct {
	_    struct{} `cbor:",toarray"`
	P, Q int
}
type ecPromoted struct {
	ecEArr
	Z int
}
type ecNotArray struct {
	_ struct{} `cbor:",toarrayx"`
	A int
}
type ecFieldOpt struct {
	A int `cbor:"a,toarray"`
}
type ecTAo struct {
	_ struct{} `cbor:",toarray"`
	A int      `cbor:",omitempty"`
}
type ecHoldsTAo struct {
	T ecTAo `cbor:"t,omitempty"`
}

// toarray as fxamacker reads it: the exact option on the cbor tag of the
// `_` field reflect finds (an embedded struct's too); not a substring, not
// another field's option. A toarray struct under omitempty
// is empty only without fields.
func TestToArrayOptionAgainstFxamacker(t *testing.T) {
	for _, v := range []any{ecPromoted{ecEArr{P: 1, Q: 2}, 3}, ecNotArray{A: 1},
		ecFieldOpt{A: 1}, ecHoldsTAo{}} {
		sameBothWaysAsFx(t, v)
	}
	if got, _ := Marshal(ecPromoted{ecEArr{P: 1, Q: 2}, 3}); !bytes.Equal(got, unhex(t, "83 01 02 03")) {
		t.Errorf("promoted toarray: %x", got)
	}
	if got, _ := Marshal(ecHoldsTAo{}); !bytes.Equal(got, unhex(t, "a1 6174 81 00")) {
		t.Errorf("omitempty toarray: %x", got)
	}
}

// A keyasint field whose name is not an integer: the struct is refused
// both ways, as fxamacker refuses it (it was written with a text key).
func TestKeyAsIntNameNotAnInteger(t *testing.T) {
	type bad struct {
		X int `cbor:"x,keyasint"`
	}
	_, err := Marshal(bad{X: 1})
	_, ferr := fx.Marshal(bad{X: 1})
	if err == nil || ferr == nil {
		t.Errorf("Marshal: %v; fxamacker %v", err, ferr)
	}
	var v bad
	err = Unmarshal(unhex(t, "a1 6178 01"), &v)
	ferr = fx.Unmarshal(unhex(t, "a1 6178 01"), &v)
	if err == nil || ferr == nil || v.X != 0 {
		t.Errorf("Unmarshal: %v; fxamacker %v", err, ferr)
	}
}

// uintptr is an address, not data: Marshal refuses it, and Unmarshal, as
// fxamacker (it was written as an unsigned integer, and read).
func TestUintptrIsRefused(t *testing.T) {
	for _, v := range []any{uintptr(5), struct{ P uintptr }{5}, []uintptr{1}} {
		_, err := Marshal(v)
		_, ferr := fx.Marshal(v)
		var ue *UnsupportedTypeError
		if !errors.As(err, &ue) || ferr == nil {
			t.Errorf("%T: %v; fxamacker %v", v, err, ferr)
		}
	}
	var p uintptr
	var te *UnmarshalTypeError
	if err := Unmarshal(unhex(t, "05"), &p); !errors.As(err, &te) || p != 0 ||
		fx.Unmarshal(unhex(t, "05"), &p) == nil {
		t.Errorf("%v, %v", p, err)
	}
}
