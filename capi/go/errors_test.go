package cborfast

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// Malformed and refused inputs: the status and offset follow the rules of
// the library (truncation at the item's initial byte or at the end of input,
// everything else at the offending head or byte).
var decodeErrors = []struct {
	name   string
	hex    string
	opts   DecodeOptions
	status string
	code   int
	offset int
}{
	{"empty input", "", DecodeOptions{}, "truncated", 100, 0},
	{"truncated head", "19 01", DecodeOptions{}, "truncated", 100, 0},
	{"truncated string", "82 01 63 61 62", DecodeOptions{}, "truncated", 100, 2},
	{"array count past the input", "83 01 02", DecodeOptions{}, "truncated", 100, 0},
	{"open indefinite array", "9f 01 02", DecodeOptions{}, "truncated", 100, 3},
	{"tag without content", "c1", DecodeOptions{}, "truncated", 100, 1},
	{"reserved additional info", "82 01 1c", DecodeOptions{}, "reserved_additional_info", 101, 2},
	{"indefinite uint", "81 1f", DecodeOptions{}, "indefinite_not_allowed", 102, 1},
	{"two-byte simple below 32", "82 f4 f8 10", DecodeOptions{}, "bad_simple_value", 103, 2},
	{"chunk of another type", "5f 41 00 61 61 ff", DecodeOptions{}, "chunk_type_mismatch", 104, 3},
	{"nested indefinite chunk", "7f 7f ff ff", DecodeOptions{}, "nested_indefinite_chunk", 105, 1},
	{"break at top level", "ff", DecodeOptions{}, "unexpected_break", 106, 0},
	{"break in definite array", "82 01 ff", DecodeOptions{}, "unexpected_break", 106, 2},
	{"break where a map value is due", "bf 01 ff", DecodeOptions{}, "map_missing_value", 107, 2},
	{"trailing bytes", "01 02", DecodeOptions{}, "trailing_bytes", 201, 1},
	{"invalid UTF-8", "82 00 63 61 c3 28", DecodeOptions{ValidateUTF8: true}, "invalid_utf8", 200, 4},
	{"depth limit", "81 81 81 00", DecodeOptions{MaxDepth: 2}, "depth_exceeded", 300, 2},
	{"depth limit on a tag", "81 c1 81 00", DecodeOptions{MaxDepth: 2}, "depth_exceeded", 300, 2},
}

func TestDecodeErrors(t *testing.T) {
	before := liveHandles
	for _, c := range decodeErrors {
		t.Run(c.name, func(t *testing.T) {
			v, err := c.opts.Decode(unhex(t, c.hex))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode(%s) = %#v, %v; want an *Error", c.hex, v, err)
			}
			if e.Status != c.status || e.Code != c.code || e.Offset != c.offset {
				t.Errorf("Decode(%s): %s/%d at %d, want %s/%d at %d",
					c.hex, e.Status, e.Code, e.Offset, c.status, c.code, c.offset)
			}
			if v != nil {
				t.Errorf("value %#v with an error", v)
			}
			if got := IsMalformed(err); got != (c.code >= 100 && c.code < 200) {
				t.Errorf("IsMalformed = %v", got)
			}
		})
	}
	checkNoLeaks(t, before)
}

func TestInvalidUTF8AcceptedByDefault(t *testing.T) {
	v, err := Decode(unhex(t, "62 c3 28"))
	if err != nil || v != "\xc3(" {
		t.Fatalf("Decode = %q, %v; want the raw bytes", v, err)
	}
}

func TestErrorIsAndMessage(t *testing.T) {
	_, err := Decode(unhex(t, "83 01"))
	if !errors.Is(err, ErrTruncated) {
		t.Errorf("errors.Is(%v, ErrTruncated) = false", err)
	}
	if errors.Is(err, ErrDepth) || errors.Is(err, io.EOF) {
		t.Errorf("%v matches the wrong sentinel", err)
	}
	e := err.(*Error)
	if e.Message == "" || !strings.HasPrefix(e.Error(), "cborfast: ") ||
		!strings.Contains(e.Error(), "(truncated) at offset 0") {
		t.Errorf("Error() = %q, Message = %q", e.Error(), e.Message)
	}
	_, err = DecodeOptions{MaxDepth: 1}.Decode(unhex(t, "81 81 00"))
	if !errors.Is(err, ErrDepth) || err.(*Error).Depth != 1 || err.(*Error).Offset != 1 {
		t.Errorf("depth error = %#v", err)
	}
}

func TestEncodeErrors(t *testing.T) {
	before := liveHandles
	// Simple values 24..31 are not well-formed; the writer refuses them
	// after the items before them were written.
	_, err := Encode([]any{uint64(1), Simple(24)})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInvalidArgument || e.Offset != 2 {
		t.Errorf("Encode(Simple(24)) error = %#v, want invalid_argument at 2", err)
	}
	for _, v := range []any{make(chan int), func() {}, complex(1, 2), []chan int{nil}, map[string]func(){"f": nil}} {
		_, err := Encode(v)
		var u *UnsupportedTypeError
		if !errors.As(err, &u) {
			t.Errorf("Encode(%T) error = %v, want UnsupportedTypeError", v, err)
		}
	}
	_, err = Encode([]any{[]any{"x", make(chan int)}})
	if err == nil || err.Error() != "cborfast: cannot encode a value of type chan int" {
		t.Errorf("nested unsupported value: %v", err)
	}
	// A slice that contains itself stops at the depth limit.
	loop := []any{nil}
	loop[0] = loop
	_, err = EncodeOptions{MaxDepth: 50}.Encode(loop)
	if !errors.As(err, &e) || e.Code != CodeDepth || e.Offset != 50 || e.Depth != 51 {
		t.Errorf("self-containing slice: %#v", err)
	}
	checkNoLeaks(t, before)
}

// Keys a Go map cannot hash (a slice or map, itself or inside an interface
// of an array, struct or registered type) are an *UnmarshalTypeError at the
// key's offset, never a panic of the map assignment; keys it can hash of the
// same Go types decode.
func TestUnhashableMapKeys(t *testing.T) {
	type holder struct{ X any }
	ts := NewTagSet()
	if err := ts.Add(TagOptions{EncTag: EncTagRequired, DecTag: DecTagRequired}, reflect.TypeFor[holder](), 1000); err != nil {
		t.Fatal(err)
	}
	tagged, err := DecOptions{}.DecModeWithTags(ts)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := DecOptions{}.DecMode()
	cases := []struct {
		name   string
		dm     DecMode
		hex    string
		target func() any
		cbor   string // "": decodes
		off    int
		want   any
	}{
		{"array key into map[any]any", plain, "a1 81 01 02", func() any { return new(map[any]any) }, "[]interface {}", 1, nil},
		{"map key of an inner map[any]any", plain, "a1 00 a1 a0 02", func() any { return new(map[any]any) }, "map[interface {}]interface {}", 3, nil},
		{"tag over an array as a key", plain, "a1 c6 81 01 02", func() any { return new(map[any]any) }, "[]interface {}", 1, nil},
		{"array key in an any", plain, "81 a1 81 01 02", func() any { return new(any) }, "[]interface {}", 2, nil},
		{"bignum key", plain, "a1 c2 41 01 02", func() any { return new(map[any]any) }, "bignum", 1, nil},
		{"registered struct holding an array", tagged, "a1 d9 03e8 a1 61 58 81 01 02", func() any { return new(map[any]any) }, "cborfast.holder", 1, nil},
		{"registered struct holding a number", tagged, "a1 d9 03e8 a1 61 58 01 02", func() any { return new(map[any]any) }, "",
			0, map[any]any{holder{X: uint64(1)}: uint64(2)}},
		{"[1]any key holding an array", plain, "a1 81 81 01 02", func() any { return new(map[[1]any]int) }, "array", 1, nil},
		{"[1]any key holding a number", plain, "a1 81 01 02", func() any { return new(map[[1]any]int) }, "",
			0, map[[1]any]int{{uint64(1)}: 2}},
		{"struct{A any} key holding an array", plain, "a1 00 a1 a1 61 41 81 01 02", func() any { return new(map[int]map[struct{ A any }]int) }, "map", 3, nil},
		{"struct{A any} key holding a text", plain, "a1 a1 61 41 61 78 02", func() any { return new(map[struct{ A any }]int) }, "",
			0, map[struct{ A any }]int{{A: "x"}: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := c.target()
			err := c.dm.Unmarshal(unhex(t, c.hex), v)
			if c.cbor == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := reflect.ValueOf(v).Elem().Interface(); !reflect.DeepEqual(got, c.want) {
					t.Fatalf("got %#v, want %#v", got, c.want)
				}
				return
			}
			var te *UnmarshalTypeError
			if !errors.As(err, &te) || te.CBORType != c.cbor || te.GoType != "map key" || te.Offset != c.off ||
				te.Reason != "invalid map key type" && te.Reason != "bignum map keys are not supported" {
				t.Fatalf("got %v (%#v), want %s at %d", err, te, c.cbor, c.off)
			}
		})
	}
}
