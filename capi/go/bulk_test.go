package cborfast

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"reflect"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

var littleHost = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// uintsArray is the definite array [0, step, 2*step, ...] of n integers.
func uintsArray(n int, step uint64) ([]byte, []uint64) {
	v := make([]uint64, n)
	for i := range v {
		v[i] = uint64(i) * step
	}
	b, err := Marshal(v)
	if err != nil {
		panic(err)
	}
	return b, v
}

func TestUnmarshalBulkSlices(t *testing.T) {
	// Long enough for the bulk route (16 elements and more), all head widths.
	data := unhex(t, "90 00 01 17 1818 18ff 190100 19ffff 1a00010000 1affffffff 1b0000000100000000 1bffffffffffffffff 00 00 00 00 00")
	var u []uint64
	if err := Unmarshal(data, &u); err != nil {
		t.Fatal(err)
	}
	want := []uint64{0, 1, 23, 24, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, math.MaxUint64, 0, 0, 0, 0, 0}
	if !reflect.DeepEqual(u, want) {
		t.Fatalf("got %v", u)
	}
	// -2^63 and 2^63-1 into []int64, and []int
	data = unhex(t, "90 3b7fffffffffffffff 1b7fffffffffffffff 20 00 00 00 00 00 00 00 00 00 00 00 00 00")
	var i64 []int64
	if err := Unmarshal(data, &i64); err != nil || i64[0] != math.MinInt64 || i64[1] != math.MaxInt64 || i64[2] != -1 || len(i64) != 16 {
		t.Fatalf("got %v, %v", i64, err)
	}
	var ints []int
	if err := Unmarshal(data, &ints); err != nil || ints[0] != math.MinInt64 || len(ints) != 16 {
		t.Fatalf("[]int: %v, %v", ints, err)
	}
	// floats of every width, integers, NaN and the smallest half subnormal
	data = unhex(t, "90 f93c00 fa3fc00000 fb3ff8000000000000 f97e00 f90001 20 1b0020000000000000 00 00 00 00 00 00 00 00 00")
	var f []float64
	if err := Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f[0] != 1 || f[1] != 1.5 || f[2] != 1.5 || !math.IsNaN(f[3]) || f[4] != math.Ldexp(1, -24) || f[5] != -1 || f[6] != 1<<53 || len(f) != 16 {
		t.Fatalf("got %v", f)
	}
	// 65536 elements, then the same into a slice with room (reused, as fxamacker does)
	data, v := uintsArray(65536, 1000)
	var big []uint64
	if err := Unmarshal(data, &big); err != nil || !reflect.DeepEqual(big, v) {
		t.Fatalf("65536: %v", err)
	}
	room := make([]uint64, 70000)
	if err := Unmarshal(data, &room); err != nil || len(room) != 65536 || cap(room) != 70000 || room[65535] != 65535000 {
		t.Fatalf("reuse: len %d cap %d %v", len(room), cap(room), err)
	}
}

func TestUnmarshalTypedArrays(t *testing.T) {
	rows := []struct {
		name, hex string
		want      any
	}{
		{"uint8", "d840 43 0102ff", []uint64{1, 2, 255}},
		{"uint16 BE", "d841 44 ff000001", []uint64{0xff00, 1}},
		{"uint16 LE", "d845 44 ff000001", []uint64{0xff, 0x100}},
		{"uint32 BE", "d842 44 0000000a", []uint64{10}},
		{"uint64 LE", "d847 48 0000000001000000", []uint64{1 << 32}},
		{"uint64 BE 2^64-1", "d843 48 ffffffffffffffff", []uint64{math.MaxUint64}},
		{"sint8", "d848 42 ff80", []int64{-1, -128}},
		{"sint16 LE", "d84d 42 feff", []int64{-2}},
		{"sint64 BE", "d84b 48 8000000000000000", []int64{math.MinInt64}},
		{"float16 LE", "d854 44 003c00c0", []float64{1, -2}},
		{"float32 BE", "d851 44 3fc00000", []float64{1.5}},
		{"float64 LE", "d856 48 000000000000f83f", []float64{1.5}},
		{"empty", "d856 40", []float64{}},
	}
	for _, r := range rows {
		data := unhex(t, r.hex)
		p := reflect.New(reflect.TypeOf(r.want))
		if err := Unmarshal(data, p.Interface()); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if got := p.Elem().Interface(); !reflect.DeepEqual(got, r.want) {
			t.Fatalf("%s: got %#v want %#v", r.name, got, r.want)
		}
	}
	// Explicit helpers: exactly one item.
	if v, err := DecodeUint64Array(unhex(t, "d845 44 01000002")); err != nil || !reflect.DeepEqual(v, []uint64{1, 0x200}) {
		t.Fatalf("DecodeUint64Array: %v %v", v, err)
	}
	if v, err := DecodeFloat64Array(unhex(t, "9f 01 f93e00 ff")); err != nil || !reflect.DeepEqual(v, []float64{1, 1.5}) {
		t.Fatalf("DecodeFloat64Array indefinite: %v %v", v, err)
	}
	if v, err := DecodeInt64Array(unhex(t, "80")); err != nil || v == nil || len(v) != 0 {
		t.Fatalf("DecodeInt64Array empty: %v %v", v, err)
	}
}

func TestBulkErrorsHaveStatusAndOffset(t *testing.T) {
	rows := []struct {
		name, hex string
		decode    func([]byte) error
		status    string
		offset    int
	}{
		{"text element", "83 01 6161 02", func(b []byte) error { _, e := DecodeUint64Array(b); return e }, "type_mismatch", 2},
		{"negative into uint64", "9f 01 20 ff", func(b []byte) error { _, e := DecodeUint64Array(b); return e }, "out_of_range", 2},
		{"2^63 into int64", "82 01 1b8000000000000000", func(b []byte) error { _, e := DecodeInt64Array(b); return e }, "out_of_range", 2},
		{"-2^64 into int64", "82 3bffffffffffffffff 01", func(b []byte) error { _, e := DecodeInt64Array(b); return e }, "out_of_range", 1},
		{"2^53+1 into float64", "81 1b0020000000000001", func(b []byte) error { _, e := DecodeFloat64Array(b); return e }, "out_of_range", 1},
		{"not an array", "61 61", func(b []byte) error { _, e := DecodeUint64Array(b); return e }, "type_mismatch", 0},
		{"truncated", "83 01", func(b []byte) error { _, e := DecodeUint64Array(b); return e }, "truncated", 0},
		{"typed odd length", "d846 43 010203", func(b []byte) error { _, e := DecodeUint64Array(b); return e }, "type_mismatch", 2},
		{"trailing bytes", "82 01 02 00", func(b []byte) error { _, e := DecodeUint64Array(b); return e }, "trailing_bytes", 3},
		{"empty input", "", func(b []byte) error { _, e := DecodeUint64Array(b); return e }, "truncated", 0},
		{"typed floats into uint64", "d856 48 000000000000f83f", func(b []byte) error { _, e := DecodeUint64Array(b); return e }, "type_mismatch", 0},
	}
	for _, r := range rows {
		err := r.decode(unhex(t, r.hex))
		var e *Error
		if !errors.As(err, &e) || e.Status != r.status || e.Offset != r.offset {
			t.Fatalf("%s: got %v, want %s at %d", r.name, err, r.status, r.offset)
		}
	}
	// Unmarshal: a bad element of a long array is the element-by-element
	// path's UnmarshalTypeError at that element, as before the bulk route.
	data, _ := uintsArray(20, 1)
	data[5] = 0x20 // element 4: -1
	var u []uint64
	var te *UnmarshalTypeError
	if err := Unmarshal(data, &u); !errors.As(err, &te) || te.Offset != 5 || te.GoType != "uint64" {
		t.Fatalf("negative element: %v", err)
	}
	// a typed array element out of range: at the element's first byte
	var i64 []int64
	if err := Unmarshal(unhex(t, "d843 50 0000000000000001 ffffffffffffffff"), &i64); !errors.As(err, &te) || te.Offset != 11 || te.Reason != "out_of_range" {
		t.Fatalf("typed out of range: %v", err)
	}
	// a float typed array into []uint64: a type error at the tag
	if err := Unmarshal(unhex(t, "d856 48 000000000000f83f"), &u); !errors.As(err, &te) || te.Offset != 0 || te.Reason != "type_mismatch" {
		t.Fatalf("typed floats into []uint64: %v", err)
	}
	// truncated inside a long array: the library's status at its offset
	data, _ = uintsArray(20, 1)
	var e *Error
	if err := Unmarshal(data[:10], &u); !errors.As(err, &e) || e.Status != "truncated" {
		t.Fatalf("truncated: %v", err)
	}
	// a length bomb: 2^60 elements promised over 9 bytes allocates nothing
	// big: over MaxArrayElements (fxamacker's limit), and with a larger limit
	// over the bytes left (read element by element: truncated)
	if err := Unmarshal(unhex(t, "9b1000000000000000"), &u); !errors.As(err, &e) || e.Status != "container_too_large" || e.Offset != 0 {
		t.Fatalf("length bomb: %v", err)
	}
	dm, _ := DecOptions{MaxArrayElements: 1 << 30}.DecMode()
	if err := dm.Unmarshal(unhex(t, "9a40000000 01"), &u); !errors.As(err, &e) || e.Status != "truncated" {
		t.Fatalf("length bomb under a large limit: %v", err)
	}
}

// The bulk route passes over the array on the main reader wherever its
// batch (512 items) ends: inside the array, just before its END, or after.
func TestBulkAtEveryBatchBoundary(t *testing.T) {
	type S struct {
		Pre  []uint8 `cbor:"pre"`
		V    []uint64
		F    []float64
		Post string `cbor:"post"`
	}
	for _, n := range []int{0, 15, 16, 17, 500, 509, 510, 511, 512, 513, 1022, 1023, 1024, 1025, 3000} {
		for _, pre := range []int{0, 1, 2, 7} {
			s := S{Pre: make([]uint8, pre), V: make([]uint64, n), F: make([]float64, n), Post: "end"}
			for i := range s.V {
				s.V[i] = uint64(i) * 77
				s.F[i] = float64(i) / 4
			}
			for _, typed := range []bool{false, true} {
				em, _ := EncOptions{TypedArrays: typed}.EncMode()
				// Pre as an array of small ints, so that its items shift the batch
				data, err := em.Marshal(map[string]any{"pre": make([]uint16, pre*37), "V": s.V, "F": s.F, "post": "end"})
				if err != nil {
					t.Fatal(err)
				}
				var got struct {
					Pre  []uint16 `cbor:"pre"`
					V    []uint64
					F    []float64
					Post string `cbor:"post"`
				}
				if err := Unmarshal(data, &got); err != nil {
					t.Fatalf("n %d pre %d typed %v: %v", n, pre, typed, err)
				}
				if len(got.V) != n || len(got.F) != n || got.Post != "end" || len(got.Pre) != pre*37 ||
					(n > 0 && (got.V[n-1] != uint64(n-1)*77 || got.F[n-1] != float64(n-1)/4)) {
					t.Fatalf("n %d pre %d typed %v: got %d %d %q", n, pre, typed, len(got.V), len(got.F), got.Post)
				}
			}
		}
	}
}

func TestMarshalTypedArrays(t *testing.T) {
	if !littleHost {
		t.Skip("the rows are the little-endian tags")
	}
	em, err := EncOptions{TypedArrays: true}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		v   any
		hex string
	}{
		{[]uint16{1}, "d845 42 0100"},
		{[]uint32{10}, "d846 44 0a000000"},
		{[]uint64{math.MaxUint64}, "d847 48 ffffffffffffffff"},
		{[]uint{1}, "d847 48 0100000000000000"},
		{[]int8{-1}, "d848 41 ff"},
		{[]int16{-2}, "d84d 42 feff"},
		{[]int32{-2}, "d84e 44 feffffff"},
		{[]int64{math.MinInt64}, "d84f 48 0000000000000080"},
		{[]int{-1}, "d84f 48 ffffffffffffffff"},
		{[]float32{1.5}, "d855 44 0000c03f"},
		{[]float64{1.5}, "d856 48 000000000000f83f"},
		{[]float64{}, "d856 40"},
		{[]byte{1, 2}, "42 0102"},                                      // bytes stay bytes
		{[]float64(nil), "f6"},                                         // nil: fxamacker's null
		{[]string{"a"}, "81 6161"},                                     // not numbers: an array
		{[2]float64{1, 2}, "82 fb3ff0000000000000 fb4000000000000000"}, // Go arrays stay arrays
	}
	for _, r := range rows {
		got, err := em.Marshal(r.v)
		if err != nil {
			t.Fatalf("%T: %v", r.v, err)
		}
		if want := unhex(t, r.hex); !bytes.Equal(got, want) {
			t.Fatalf("%T: got %x want %x", r.v, got, want)
		}
	}
	// Off by default: the same as fxamacker.
	def, _ := Marshal([]float64{1.5, 2})
	fxb, _ := fx.Marshal([]float64{1.5, 2})
	if !bytes.Equal(def, fxb) {
		t.Fatalf("default %x, fxamacker %x", def, fxb)
	}
	// 65536 doubles: a 5-byte byte-string head, the elements as they are, and back
	v := make([]float64, 65536)
	for i := range v {
		v[i] = float64(i) * 0.25
	}
	out, err := em.Marshal(v)
	if err != nil || len(out) != 7+8*65536 || hex.EncodeToString(out[:7]) != "d8565a00080000" {
		t.Fatalf("65536: %d bytes %x %v", len(out), out[:7], err)
	}
	var back []float64
	if err := Unmarshal(out, &back); err != nil || !reflect.DeepEqual(back, v) {
		t.Fatalf("round trip: %v", err)
	}
	// AppendTypedArray: the same bytes, after what dst holds
	app, err := AppendTypedArray([]byte{0x82}, []int16{-2})
	if err != nil || hex.EncodeToString(app) != "82d84d42feff" {
		t.Fatalf("AppendTypedArray: %x %v", app, err)
	}
	type Celsius float32
	app, err = AppendTypedArray(nil, []Celsius{1.5})
	if err != nil || hex.EncodeToString(app) != "d855440000c03f" {
		t.Fatalf("AppendTypedArray of a named type: %x %v", app, err)
	}
}

func TestTypedArraysIntoSmallerTypes(t *testing.T) {
	em, _ := EncOptions{TypedArrays: true}.EncMode()
	for _, v := range []any{[]uint16{0, 65535}, []uint32{1 << 31}, []int8{-128, 127}, []int16{-2},
		[]int32{math.MinInt32}, []float32{1.5, float32(math.Inf(-1))}} {
		data, err := em.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		p := reflect.New(reflect.TypeOf(v))
		if err := Unmarshal(data, p.Interface()); err != nil || !reflect.DeepEqual(p.Elem().Interface(), v) {
			t.Fatalf("%T: %v %v", v, p.Elem().Interface(), err)
		}
	}
	// uint32 typed array [1, 65536] into []uint16: overflow, at the second
	// element (content from offset 3)
	var u16 []uint16
	var te *UnmarshalTypeError
	if err := Unmarshal(unhex(t, "d846 48 01000000 00000100"), &u16); !errors.As(err, &te) || te.Offset != 7 || te.Reason != "overflow" {
		t.Fatalf("overflow: %v", err)
	}
	// a plain array into []uint16: element by element, as before
	if err := Unmarshal(unhex(t, "82 01 190100"), &u16); err != nil || !reflect.DeepEqual(u16, []uint16{1, 256}) {
		t.Fatalf("plain: %v %v", u16, err)
	}
}

func TestBulkKeepsNamedElementTypes(t *testing.T) {
	// A named element type goes element by element (its methods apply).
	type ID uint64
	data, want := uintsArray(20, 3)
	var ids []ID
	if err := Unmarshal(data, &ids); err != nil || len(ids) != 20 || uint64(ids[19]) != want[19] {
		t.Fatalf("%v %v", ids, err)
	}
}

// An element that does not fit a narrow slice is a type error at that
// element's offset, as the README says (it was the tag's, offset 0), for a
// typed array; a plain array's goes the element-by-element way, which
// gives the same.
func TestNarrowSliceElementOffsets(t *testing.T) {
	rows := []struct {
		name string
		data string
		into func([]byte) error
		off  int
	}{
		// tag 64 (uint8), 4 bytes from offset 3: 01 02 03 ff; 0xff is at 6
		{"uint8 typed array into []int8", "d840 44 010203ff", func(b []byte) error { var v []int8; return Unmarshal(b, &v) }, 6},
		// tag 70 (uint32 little endian), 2 elements, the second 2^31: at 2+1+4
		{"uint32le typed array into []int32", "d846 48 01000000 00000080", func(b []byte) error { var v []int32; return Unmarshal(b, &v) }, 7},
		// a plain array of 16 numbers, the last 300, into []int8: at 16
		{"plain array into []int8", "90 000102030405060708090a0b0c0d0e 19012c", func(b []byte) error { var v []int8; return Unmarshal(b, &v) }, 16},
	}
	for _, r := range rows {
		err := r.into(unhex(t, r.data))
		var te *UnmarshalTypeError
		if !errors.As(err, &te) || te.Offset != r.off {
			t.Errorf("%s: %v; want a type error at %d", r.name, err, r.off)
		}
	}
}
