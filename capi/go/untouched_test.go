package cborfast

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

type keepPair struct {
	A int
	B string
}

// countingU counts its UnmarshalCBOR calls.
type countingU struct{ calls *int }

func (c *countingU) UnmarshalCBOR([]byte) error { *c.calls++; return nil }

// Malformed input, a limit passed and trailing bytes leave the target as it
// was, as fxamacker (and encoding/json): Unmarshal finds them before it
// stores anything. Each row: the input, a target with values in it, the
// error's code and offset; the target after must equal a fresh copy of the
// one before, and fxamacker must refuse the input too.
func TestUnmarshalErrorsLeaveTheTargetAsItWas(t *testing.T) {
	rows := []struct {
		name   string
		hex    string
		mode   DecMode // nil: the default
		target func() any
		code   int
		offset int
	}{
		{"struct/truncated_after_first_field", "a2 61 41 01 61 42",
			nil, func() any { return &keepPair{A: 9, B: "keep"} }, CodeTruncated, 6},
		{"struct/reserved_additional_info_later", "a2 61 41 01 61 42 1c",
			nil, func() any { return &keepPair{A: 9, B: "keep"} }, CodeReservedAI, 6},
		{"struct/trailing_byte", "a1 61 41 01 ff",
			nil, func() any { return &keepPair{A: 9, B: "keep"} }, CodeTrailingBytes, 4},
		{"map/truncated_second_pair", "a2 61 78 01 61 79",
			nil, func() any { m := map[string]int{"old": 1}; return &m }, CodeTruncated, 6},
		{"slice/truncated_third_element", "83 05 06",
			nil, func() any { s := []int{1, 2, 3}; return &s }, CodeTruncated, 0},
		{"slice_of_16/truncated_bulk", "90 0000000000000000000000000000 00",
			nil, func() any { s := []uint64{7}; return &s }, CodeTruncated, 0},
		{"any/trailing_byte", "01 02",
			nil, func() any { var v any = "keep"; return &v }, CodeTrailingBytes, 1},
		{"any/truncated", "82 01",
			nil, func() any { var v any = "keep"; return &v }, CodeTruncated, 0},
		{"pointer/truncated_later", "a2 61 41 01 61 42 62 c3",
			nil, func() any { p := &keepPair{A: 9, B: "keep"}; return &p }, CodeTruncated, 6},
		{"struct/depth_limit_later", "a2 61 41 01 61 42 81 81 81 81 60",
			mustDecMode(t, DecOptions{MaxNestedLevels: 4}),
			func() any { return &keepPair{A: 9, B: "keep"} }, CodeDepth, 9},
		// The checks this side makes (IndefLengthForbidden, the smaller
		// of two container limits) come first too.
		{"struct/indefinite_forbidden_later", "a2 61 41 01 61 42 7f 60 ff",
			mustDecMode(t, DecOptions{IndefLength: IndefLengthForbidden}),
			func() any { return &keepPair{A: 9, B: "keep"} }, CodeIndefiniteLength, 6},
		{"map/array_limit_later", "a2 61 78 01 61 79 91 0000000000000000000000000000000000",
			mustDecMode(t, DecOptions{MaxArrayElements: 16, MaxMapPairs: 1000}),
			func() any { m := map[string]any{"old": 1}; return &m }, CodeContainerTooLarge, 6},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			data := unhex(t, row.hex)
			mode := row.mode
			if mode == nil {
				mode = mustDecMode(t, DecOptions{})
			}
			v, before := row.target(), row.target()
			err := mode.Unmarshal(data, v)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want a *Error", err)
			}
			if e.Code != row.code || e.Offset != row.offset {
				t.Errorf("err = %d at %d, want %d at %d", e.Code, e.Offset, row.code, row.offset)
			}
			if !reflect.DeepEqual(v, before) {
				t.Errorf("target changed: %#v, was %#v", reflect.ValueOf(v).Elem().Interface(),
					reflect.ValueOf(before).Elem().Interface())
			}
			if row.mode == nil {
				if fx.Unmarshal(data, row.target()) == nil {
					t.Errorf("fxamacker accepts it")
				}
			}
			if row.code == CodeTrailingBytes {
				return // to a Decoder the byte after is the next item
			}
			// The streaming Decoder: the same error (a stream that ends
			// inside the item is io.ErrUnexpectedEOF), the target as it was.
			v = row.target()
			err = mode.NewDecoder(bytes.NewReader(data)).Decode(v)
			if row.code == CodeTruncated {
				if err != io.ErrUnexpectedEOF {
					t.Errorf("Decoder: err = %v, want io.ErrUnexpectedEOF", err)
				}
			} else if !errors.As(err, &e) || e.Code != row.code || e.Offset != row.offset {
				t.Errorf("Decoder: err = %v, want code %d at %d", err, row.code, row.offset)
			}
			if !reflect.DeepEqual(v, before) {
				t.Errorf("Decoder: target changed: %#v, was %#v", reflect.ValueOf(v).Elem().Interface(),
					reflect.ValueOf(before).Elem().Interface())
			}
		})
	}
	// Invalid UTF-8 is the decoding pass's error, as in fxamacker (whose
	// well-formedness check does not look inside strings): the fields
	// before it are set, the same as fxamacker sets them.
	bad := unhex(t, "a2 61 41 01 61 42 62 c3 28")
	ours, theirs := keepPair{A: 9, B: "keep"}, keepPair{A: 9, B: "keep"}
	err := Unmarshal(bad, &ours)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInvalidUTF8 || fx.Unmarshal(bad, &theirs) == nil || ours != theirs {
		t.Errorf("invalid UTF-8: %+v, %v; fxamacker %+v", ours, err, theirs)
	}
	// No user method runs on an input that turns out malformed.
	calls := 0
	var x struct {
		A countingU
		B int
	}
	x.A.calls = &calls
	if err := Unmarshal(unhex(t, "a2 61 41 01 61 42"), &x); err == nil {
		t.Fatal("truncated input accepted")
	}
	if calls != 0 {
		t.Errorf("UnmarshalCBOR ran %d times on truncated input", calls)
	}
	// UnmarshalFirst: what follows the first item is not an error, and the
	// item is checked before it is stored.
	p := keepPair{A: 9, B: "keep"}
	var rest []byte
	rest, err = UnmarshalFirst(unhex(t, "a2 61 41 01 61 42 62 63 64 ff"), &p)
	if err != nil || p != (keepPair{A: 1, B: "cd"}) || !bytes.Equal(rest, []byte{0xff}) {
		t.Errorf("UnmarshalFirst = %+v, rest %x, %v", p, rest, err)
	}
	p = keepPair{A: 9, B: "keep"}
	if _, err := UnmarshalFirst(unhex(t, "a2 61 41 01 61 42 62 63"), &p); err == nil || p.A != 9 {
		t.Errorf("UnmarshalFirst of a truncated item: %+v, %v", p, err)
	}
}

func mustDecMode(t *testing.T, o DecOptions) DecMode {
	t.Helper()
	m, err := o.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// markerList writes null through its own MarshalCBOR.
type markerList []int

func (markerList) MarshalCBOR() ([]byte, error) { return []byte{0xf6}, nil }

type withMarker struct {
	L markerList `cbor:"l,omitempty"`
	P *int       `cbor:"p,omitempty"`
}

// byteWithMethod is a uint8 kind with a MarshalCBOR of its own.
type byteWithMethod uint8

func (byteWithMethod) MarshalCBOR() ([]byte, error) { return []byte{0x61, 0x62}, nil }

// Where the binding wrote or read other values than fxamacker (the third
// audit): each row's bytes are checked exactly and against fxamacker.
func TestFxCompatMarshalerAndNumberEdges(t *testing.T) {
	same := func(t *testing.T, name string, v any, want string) {
		t.Helper()
		got, err := Marshal(v)
		if err != nil || !bytes.Equal(got, unhex(t, want)) {
			t.Errorf("%s: Marshal = %x, %v; want %s", name, got, err, want)
		}
		ref, err := fx.Marshal(v)
		if err != nil || !bytes.Equal(ref, got) {
			t.Errorf("%s: fxamacker = %x, %v", name, ref, err)
		}
	}
	// omitempty never leaves out a Marshaler's value (its output is not
	// known before it runs); a nil pointer is still empty.
	same(t, "omitempty/marshaler_nil_slice", withMarker{}, "a1 61 6c f6")
	// Elements of a uint8 kind make a byte string, method or not.
	same(t, "slice_of_uint8_kind_marshaler", []byteWithMethod{1, 2}, "42 0102")
	same(t, "array_of_uint8_kind_marshaler", [2]byteWithMethod{1, 2}, "42 0102")
	same(t, "struct_field_slice_of_uint8_kind", struct {
		B []byteWithMethod `cbor:"b"`
	}{[]byteWithMethod{3}}, "a1 61 62 41 03")

	// []float64: an integer below -2^63 is refused at every length, as for
	// a float64 scalar (the bulk path of 16 and more took it).
	for _, n := range []int{1, 15, 16, 40} {
		data := appendHead(nil, 0x80, uint64(n))
		for i := 0; i < n-1; i++ {
			data = append(data, 0x20)
		}
		data = append(data, unhex(t, "3b ffffffffffffffff")...)
		at := len(data) - 9 // the last element's
		var got []float64
		err := Unmarshal(data, &got)
		var te *UnmarshalTypeError
		if !errors.As(err, &te) || te.Offset != at {
			t.Errorf("%d elements: err = %v, want a type error at %d", n, err, at)
		}
		var ref []float64
		if fx.Unmarshal(data, &ref) == nil {
			t.Errorf("%d elements: fxamacker accepts it", n)
		}
		var f32 []float32
		if err := Unmarshal(data, &f32); !errors.As(err, &te) || te.Offset != at {
			t.Errorf("%d elements into []float32: err = %v", n, err)
		}
	}
	// -2^63 itself, and a float below it, still read (bulk path: 17 items).
	data := appendHead(nil, 0x80, 17)
	data = append(data, unhex(t, "3b 7fffffffffffffff fb c3f0000000000000")...)
	for i := 0; i < 15; i++ {
		data = append(data, 0x01)
	}
	var fl []float64
	if err := Unmarshal(data, &fl); err != nil || fl[0] != -0x1p63 || fl[1] != -0x1p64 || fl[16] != 1 {
		t.Errorf("[-2^63, -2^64 as a float, ...] = %v, %v", fl[:2], err)
	}
	var ref []float64
	if err := fx.Unmarshal(data, &ref); err != nil || !reflect.DeepEqual(ref, fl) {
		t.Errorf("fxamacker: %v, %v", ref[:2], err)
	}

	// uintptr is not a decoding target (nor an encoding one), as fxamacker.
	var u uintptr
	var te *UnmarshalTypeError
	if err := Unmarshal([]byte{0x01}, &u); !errors.As(err, &te) || u != 0 {
		t.Errorf("uintptr: %v, %d", err, u)
	}
	// null and undefined into a chan, func or complex: no error, the value
	// left as it is (fxamacker); anything else is a type error.
	ch := make(chan int)
	fn := func() {}
	c := complex(1, 2)
	for _, b := range []byte{0xf6, 0xf7} {
		if err := Unmarshal([]byte{b}, &ch); err != nil || ch == nil {
			t.Errorf("%x into chan: %v", b, err)
		}
		if err := Unmarshal([]byte{b}, &fn); err != nil || fn == nil {
			t.Errorf("%x into func: %v", b, err)
		}
		if err := Unmarshal([]byte{b}, &c); err != nil || c != complex(1, 2) {
			t.Errorf("%x into complex: %v", b, err)
		}
	}
	if err := Unmarshal([]byte{0x01}, &ch); !errors.As(err, &te) {
		t.Errorf("1 into chan: %v", err)
	}
}
