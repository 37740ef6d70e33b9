package cborfast

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	fx "github.com/fxamacker/cbor/v2"
)

// zeroer is zero by its own IsZero (its field is not what decides).
type zeroer struct{ N int }

func (z zeroer) IsZero() bool { return z.N == 42 }

// ptrZeroer has IsZero on the pointer only.
type ptrZeroer struct{ N int }

func (z *ptrZeroer) IsZero() bool { return z.N < 0 }

// omitzero (Go 1.24 encoding/json's rule, fxamacker's) leaves a field out
// when it is zero: its type's IsZero() where it has one, else the zero
// value; it was ignored. omitempty never leaves out a time.Time, as
// fxamacker (it left out the zero time, which fxamacker writes as null).
func TestOmitZeroAgainstFxamacker(t *testing.T) {
	type inner struct{ A, B int }
	type all struct {
		I    int            `cbor:"i,omitzero"`
		F    float64        `cbor:"f,omitzero"`
		S    string         `cbor:"s,omitzero"`
		Sl   []int          `cbor:"sl,omitzero"` // nil is zero, an empty slice is not
		M    map[string]int `cbor:"m,omitzero"`
		St   inner          `cbor:"st,omitzero"`
		Arr  [2]int         `cbor:"arr,omitzero"`
		T    time.Time      `cbor:"t,omitzero"`
		TE   time.Time      `cbor:"te,omitempty"`
		Z    zeroer         `cbor:"z,omitzero"`
		PZ   ptrZeroer      `cbor:"pz,omitzero"`
		P    *ptrZeroer     `cbor:"p,omitzero"`
		A    netip.Addr     `cbor:"a,omitzero"`
		Any  any            `cbor:"any,omitzero"`
		Both []int          `cbor:"both,omitempty,omitzero"` // empty or nil: out
		K    int            `cbor:"1,keyasint,omitzero"`
	}
	rows := []struct {
		name string
		v    all
	}{
		{"all zero", all{}},
		{"zeroers say zero", all{Z: zeroer{N: 42}, PZ: ptrZeroer{N: -1}, P: &ptrZeroer{N: -5}}},
		{"zero value but not IsZero", all{Z: zeroer{N: 0}, PZ: ptrZeroer{N: 0}, P: &ptrZeroer{N: 0}}},
		{"negative zero float is not zero", all{F: negZero()}},
		{"empty slice and map are not zero", all{Sl: []int{}, M: map[string]int{}, Both: []int{}}},
		{"set", all{I: 1, F: 1.5, S: "x", Sl: []int{1}, M: map[string]int{"a": 1}, St: inner{B: 1},
			Arr: [2]int{0, 1}, T: time.Unix(1, 0).UTC(), TE: time.Unix(2, 0).UTC(),
			A: netip.MustParseAddr("10.0.0.1"), Any: 0, Both: []int{3}, K: 7}},
	}
	for _, r := range rows {
		got, err := Marshal(r.v)
		want, ferr := fx.Marshal(r.v)
		if err != nil || ferr != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %x, %v; fxamacker %x, %v", r.name, got, err, want, ferr)
		}
	}
	// exactly: all zero keeps the time under omitempty (null) and the two
	// zeroers whose IsZero says no ({"N": 0} each)
	if got, _ := Marshal(all{}); !bytes.Equal(got, unhex(t, "a3 627465 f6 617a a1614e00 62707a a1614e00")) {
		t.Errorf("all zero: %x", got)
	}
	// the same fields through an embedded pointer (the hops' wrapper)
	type outer struct {
		*all
		X int `cbor:"x"`
	}
	for _, v := range []outer{{X: 1}, {all: &all{}, X: 2}, {all: &all{I: 3, Both: []int{}}, X: 3}} {
		got, err := Marshal(v)
		want, ferr := fx.Marshal(v)
		if err != nil || ferr != nil || !bytes.Equal(got, want) {
			t.Errorf("embedded %+v: %x, %v; fxamacker %x, %v", v, got, err, want, ferr)
		}
	}
}

func negZero() float64 { z := 0.0; return -z }
