package cborfast

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

type namedBytes []byte

// DefaultMapType and DefaultByteStringType: inside an `any` (at the top,
// nested in maps and arrays, as map keys, indefinite strings) the values are
// of the chosen types, and equal fxamacker's with the same options.
func TestDecodeDefaultTypes(t *testing.T) {
	for _, row := range []struct {
		name string
		opts DecOptions
		fxo  fx.DecOptions
		hex  string
		want any
	}{
		{"map_string_any_nested", DecOptions{DefaultMapType: reflect.TypeFor[map[string]any]()},
			fx.DecOptions{DefaultMapType: reflect.TypeFor[map[string]any]()},
			"a2 6161 a1 6162 01 6163 81 a1 6164 41 01",
			map[string]any{"a": map[string]any{"b": uint64(1)}, "c": []any{map[string]any{"d": []byte{1}}}}},
		{"map_string_int", DecOptions{DefaultMapType: reflect.TypeFor[map[string]int]()},
			fx.DecOptions{DefaultMapType: reflect.TypeFor[map[string]int]()},
			"82 a1 6161 01 a0", []any{map[string]int{"a": 1}, map[string]int{}}},
		{"bytes_as_string", DecOptions{DefaultByteStringType: reflect.TypeFor[string]()},
			fx.DecOptions{DefaultByteStringType: reflect.TypeFor[string]()},
			"83 42 6869 5f 41 68 41 69 ff a1 41 01 40", []any{"hi", "hi", map[any]any{"\x01": ""}}},
		{"bytes_as_named_slice", DecOptions{DefaultByteStringType: reflect.TypeFor[namedBytes]()},
			fx.DecOptions{DefaultByteStringType: reflect.TypeFor[namedBytes]()},
			"82 42 0102 40", []any{namedBytes{1, 2}, namedBytes{}}},
		{"both", DecOptions{DefaultMapType: reflect.TypeFor[map[string]any](), DefaultByteStringType: reflect.TypeFor[string]()},
			fx.DecOptions{DefaultMapType: reflect.TypeFor[map[string]any](), DefaultByteStringType: reflect.TypeFor[string]()},
			"a1 6178 81 42 6869", map[string]any{"x": []any{"hi"}}},
	} {
		dm, err := row.opts.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		fdm, err := row.fxo.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		in := unhex(t, row.hex)
		var got, fgot any
		if err := dm.Unmarshal(in, &got); err != nil {
			t.Fatalf("%s: %v", row.name, err)
		}
		if err := fdm.Unmarshal(in, &fgot); err != nil {
			t.Fatalf("%s: fxamacker: %v", row.name, err)
		}
		if !reflect.DeepEqual(got, row.want) || !reflect.DeepEqual(fgot, row.want) {
			t.Fatalf("%s: ours %#v, fxamacker %#v, want %#v", row.name, got, fgot, row.want)
		}
		// The Decoder and a struct field of type any decode the same way.
		var dv any
		if err := dm.NewDecoder(bytes.NewReader(in)).Decode(&dv); err != nil || !reflect.DeepEqual(dv, row.want) {
			t.Fatalf("%s: Decoder %#v %v", row.name, dv, err)
		}
		var s struct {
			A any `cbor:"a"`
		}
		if err := dm.Unmarshal(append([]byte{0xa1, 0x61, 'a'}, in...), &s); err != nil || !reflect.DeepEqual(s.A, row.want) {
			t.Fatalf("%s: field %#v %v", row.name, s.A, err)
		}
	}
	// A key that does not fit the map type: a type error at that key (the
	// 2 at offset 5, in the map at 1), as fxamacker gives one.
	dm, _ := DecOptions{DefaultMapType: reflect.TypeFor[map[string]any]()}.DecMode()
	fdm, _ := fx.DecOptions{DefaultMapType: reflect.TypeFor[map[string]any]()}.DecMode()
	in := unhex(t, "81 a2 6161 01 02 03")
	var v, fv any
	err := dm.Unmarshal(in, &v)
	var te *UnmarshalTypeError
	if !errors.As(err, &te) || te.Offset != 5 {
		t.Fatalf("key mismatch: %v, want a type error at 5", err)
	}
	var fte *fx.UnmarshalTypeError
	if ferr := fdm.Unmarshal(in, &fv); !errors.As(ferr, &fte) {
		t.Fatalf("fxamacker: %v", ferr)
	}
	for _, o := range []DecOptions{
		{DefaultMapType: reflect.TypeFor[[]any]()},
		{DefaultByteStringType: reflect.TypeFor[int]()},
		{DefaultByteStringType: reflect.TypeFor[[]uint16]()},
		{DefaultByteStringType: reflect.TypeFor[[4]byte]()},
	} {
		if _, err := o.DecMode(); err == nil {
			t.Fatalf("%+v accepted", o)
		}
	}
}
