package cborfast

import (
	"bytes"
	"reflect"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

type embInner struct {
	X int    `cbor:"x"`
	S string `cbor:"s,omitempty"`
}

type embOuter struct {
	*embInner
	Z int `cbor:"z"`
}

type EmbOuterExported struct {
	*EmbInner
	Z int `cbor:"z"`
}

type EmbInner struct {
	X int    `cbor:"x"`
	S string `cbor:"s,omitempty"`
}

type embDeep struct {
	*EmbOuterExported
	W int `cbor:"w"`
}

type embArray struct {
	_ struct{} `cbor:",toarray"`
	*EmbInner
	Z int
}

// Fields of embedded pointers to structs are promoted as Go and fxamacker
// promote them: written while the pointer is set (left out while it is
// nil), and decoding them allocates the struct. Before, the pointer was an
// ordinary field named after its type ("EmbInner": {...}) and its fields
// were dropped on decoding.
func TestEmbeddedPointerStructs(t *testing.T) {
	rows := []struct {
		name string
		v    any    // encoded, and the value decoding the bytes gives
		want string // the bytes
	}{
		{"set", &EmbOuterExported{&EmbInner{X: 1, S: "a"}, 2}, "a3 6178 01 6173 6161 617a 02"},
		{"set, omitempty field empty", &EmbOuterExported{&EmbInner{X: 1}, 2}, "a2 6178 01 617a 02"},
		{"nil: its fields left out", &EmbOuterExported{nil, 2}, "a1 617a 02"},
		{"two levels", &embDeep{&EmbOuterExported{&EmbInner{X: 5}, 6}, 7}, "a3 6178 05 617a 06 6177 07"},
		{"two levels, inner nil", &embDeep{&EmbOuterExported{nil, 6}, 7}, "a2 617a 06 6177 07"},
		{"two levels, outer nil", &embDeep{nil, 7}, "a1 6177 07"},
		{"unexported embedded type", &embOuter{&embInner{X: 3}, 4}, "a2 6178 03 617a 04"},
		{"toarray", &embArray{EmbInner: &EmbInner{X: 1, S: "b"}, Z: 2}, "83 01 6162 02"},
	}
	for _, row := range rows {
		got, err := Marshal(row.v)
		if err != nil || !bytes.Equal(got, unhex(t, row.want)) {
			t.Errorf("%s: Marshal %x %v", row.name, got, err)
		}
		back := reflect.New(reflect.TypeOf(row.v).Elem())
		if err := Unmarshal(unhex(t, row.want), back.Interface()); err != nil || !reflect.DeepEqual(back.Interface(), row.v) {
			t.Errorf("%s: Unmarshal %+v %v", row.name, back.Elem().Interface(), err)
		}
		if row.name == "unexported embedded type" {
			continue // fxamacker refuses to set an unexported embedded pointer
		}
		fgot, err := fx.Marshal(row.v)
		if err != nil || !bytes.Equal(fgot, got) {
			t.Errorf("%s: fxamacker Marshal %x %v", row.name, fgot, err)
		}
		fback := reflect.New(reflect.TypeOf(row.v).Elem())
		if err := fx.Unmarshal(unhex(t, row.want), fback.Interface()); err != nil || !reflect.DeepEqual(fback.Interface(), back.Interface()) {
			t.Errorf("%s: fxamacker Unmarshal %+v %v", row.name, fback.Elem().Interface(), err)
		}
	}
	// A nil embedded pointer in a toarray struct holds null in its fields'
	// places (fxamacker too).
	got, err := Marshal(embArray{Z: 2})
	fgot, ferr := fx.Marshal(embArray{Z: 2})
	if err != nil || ferr != nil || !bytes.Equal(got, fgot) {
		t.Errorf("toarray, nil: %x %v; fxamacker %x %v", got, err, fgot, ferr)
	}
	// Decoding allocates only for keys that reach through the pointer.
	var o EmbOuterExported
	if err := Unmarshal(unhex(t, "a1 617a 09"), &o); err != nil || o.EmbInner != nil || o.Z != 9 {
		t.Errorf("no inner key: %+v %v", o, err)
	}
}
