package cborfast

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	fx "github.com/fxamacker/cbor/v2"
)

// Decoding where the binding differed from fxamacker/cbor until the fuzz
// targets (fuzz_test.go) found it: toarray structs, the content types of
// tags 0 to 3, tag numbers before a time.Time, bignums into Go numbers. Each
// row decodes into a fresh value (or `start`), checks the exact result or
// type error, and that fxamacker accepts or refuses the same input and, when
// it accepts, gives the same value.
func TestFxCompatDecoding(t *testing.T) {
	type pair = fuzzPair
	type uteWant struct {
		cborType, goType string
		offset           int
		reason           string
	}
	rows := []struct {
		name  string
		hex   string
		start func() any // the target, a pointer
		want  any        // *target after decoding
		err   *uteWant   // nil: no error
	}{
		// toarray: only an array of exactly the struct's field count.
		{"toarray/exact", "82 01 61 61", func() any { return new(pair) }, pair{X: 1, Y: "a"}, nil},
		{"toarray/indefinite_exact", "9f 01 61 61 ff", func() any { return new(pair) }, pair{X: 1, Y: "a"}, nil},
		{"toarray/map", "a1 61 58 01", func() any { return new(pair) }, pair{},
			&uteWant{"map", "cborfast.fuzzPair", 0, "map into a toarray struct"}},
		{"toarray/empty_map", "a0", func() any { return new(pair) }, pair{},
			&uteWant{"map", "cborfast.fuzzPair", 0, "map into a toarray struct"}},
		{"toarray/short", "81 01", func() any { return &pair{X: 5, Y: "z"} }, pair{X: 5, Y: "z"},
			&uteWant{"array", "cborfast.fuzzPair", 0, "array of a different length than the toarray struct's fields"}},
		{"toarray/long", "83 01 61 61 02", func() any { return new(pair) }, pair{},
			&uteWant{"array", "cborfast.fuzzPair", 0, "array of a different length than the toarray struct's fields"}},
		{"toarray/indefinite_short", "9f 01 ff", func() any { return &pair{X: 5, Y: "z"} }, pair{X: 5, Y: "z"},
			&uteWant{"array", "cborfast.fuzzPair", 0, "array of a different length than the toarray struct's fields"}},
		{"toarray/indefinite_long", "9f 01 61 61 02 ff", func() any { return &pair{X: 5, Y: "z"} }, pair{X: 5, Y: "z"},
			&uteWant{"array", "cborfast.fuzzPair", 0, "array of a different length than the toarray struct's fields"}},
		{"toarray/error_then_next_element", "82 a0 82 01 60", func() any { return new([]pair) },
			[]pair{{}, {X: 1, Y: ""}}, &uteWant{"map", "cborfast.fuzzPair", 1, "map into a toarray struct"}},
		// Tags 0 to 3 over content of another type, whatever the target.
		{"tag0/int_into_int", "c0 01", func() any { return new(int) }, 0,
			&uteWant{"unsigned integer", "int", 1, "tag 0 content is not a text string"}},
		{"tag1/text_into_string", "c1 61 61", func() any { return new(string) }, "",
			&uteWant{"text string", "string", 1, "tag 1 content is not a number"}},
		{"tag2/int_into_any", "c2 30", func() any { return new(any) }, nil,
			&uteWant{"tag", "big.Int", 0, "bignum content is not a byte string"}},
		{"tag3/array_into_slice", "c3 80", func() any { return new([]int) }, []int(nil),
			&uteWant{"array", "[]int", 1, "bignum content is not a byte string"}},
		// Into a Tag the same (it took them as they came; fxamacker refuses
		// this package's Tag type whatever the content, TestTagTarget has
		// the good rows).
		{"tag2/text_into_tag", "c2 61 61", func() any { return new(Tag) }, Tag{},
			&uteWant{"text string", "cborfast.Tag", 1, "bignum content is not a byte string"}},
		{"tag2/int_into_tag", "c2 01", func() any { return new(Tag) }, Tag{},
			&uteWant{"unsigned integer", "cborfast.Tag", 1, "bignum content is not a byte string"}},
		{"tag1/text_into_tag", "c1 61 61", func() any { return new(Tag) }, Tag{},
			&uteWant{"text string", "cborfast.Tag", 1, "tag 1 content is not a number"}},
		{"tag0/int_into_tag", "c0 1a 51 4b 67 b0", func() any { return new(Tag) }, Tag{},
			&uteWant{"unsigned integer", "cborfast.Tag", 1, "tag 0 content is not a text string"}},
		{"tag1/tag_into_tag", "c1 c1 1a 51 4b 67 b0", func() any { return new(Tag) }, Tag{},
			&uteWant{"tag", "cborfast.Tag", 1, "tag 1 content is not a number"}},
		// A time.Time passes over tag numbers other than 0 and 1.
		{"time/tag9_int", "c9 30", func() any { return new(time.Time) }, time.Unix(-17, 0), nil},
		{"time/tag9_tag1_int", "c9 c1 1a 51 4b 67 b0", func() any { return new(time.Time) }, time.Unix(1363896240, 0), nil},
		{"time/tag9_tag2_int", "c9 c2 01", func() any { return new(time.Time) }, time.Time{},
			&uteWant{"unsigned integer", "time.Time", 2, "bignum content is not a byte string"}},
		// Bignums into Go numbers: the integer, if it fits.
		{"bignum/into_int", "c2 42 01 00", func() any { return new(int) }, 256, nil},
		{"bignum/into_float64", "c2 42 01 00", func() any { return new(float64) }, 256.0, nil},
		{"bignum/indefinite_into_uint16", "c2 5f 41 01 41 00 ff", func() any { return new(uint16) }, uint16(256), nil},
		{"bignum/negative_into_int8", "c3 41 05", func() any { return new(int8) }, int8(-6), nil},
		{"bignum/into_pointer", "c2 41 07", func() any { return new(*int) }, func() *int { n := 7; return &n }(), nil},
		{"bignum/min_int64", "c3 48 7f ff ff ff ff ff ff ff", func() any { return new(int64) }, int64(math.MinInt64), nil},
		{"bignum/max_uint64", "c2 48 ff ff ff ff ff ff ff ff", func() any { return new(uint64) }, uint64(math.MaxUint64), nil},
		{"bignum/past_min_int64", "c3 48 80 00 00 00 00 00 00 00", func() any { return new(int64) }, int64(0),
			&uteWant{"byte string", "int64", 1, "-9223372036854775809 overflows int64"}},
		{"bignum/past_max_uint64", "c2 49 01 00 00 00 00 00 00 00 00", func() any { return new(uint64) }, uint64(0),
			&uteWant{"byte string", "uint64", 1, "18446744073709551616 overflows uint64"}},
		{"bignum/negative_into_uint", "c3 41 05", func() any { return new(uint) }, uint(0),
			&uteWant{"negative integer", "uint", 1, "negative into unsigned"}},
		{"bignum/into_int8_overflow", "c2 42 01 00", func() any { return new(int8) }, int8(0),
			&uteWant{"unsigned integer", "int8", 1, "256 overflows int8"}},
		{"bignum/into_bytes", "c2 42 01 00", func() any { return new([]byte) }, []byte{1, 0}, nil},
		{"bignum/into_string", "c2 41 01", func() any { return new(string) }, "",
			&uteWant{"unsigned integer", "string", 1, ""}},
		// A negative integer below -2^63 (major type 1, argument >= 2^63):
		// only a big.Int or `any` (a big.Int) takes it; every Go number
		// refuses it (a float took it, found by FuzzUnmarshalTyped).
		{"negint/past_min_int64_into_float64", "3b 80 00 00 00 00 00 00 00", func() any { return new(float64) }, 0.0,
			&uteWant{"negative integer", "float64", 0, "-9223372036854775809 overflows Go's int64"}},
		{"negint/min_into_float32", "3b ff ff ff ff ff ff ff ff", func() any { return new(float32) }, float32(0),
			&uteWant{"negative integer", "float32", 0, "-18446744073709551616 overflows Go's int64"}},
		{"negint/into_float64_pointer", "3b 80 00 00 00 00 00 00 00", func() any { return new(*float64) },
			func() *float64 { f := 0.0; return &f }(),
			&uteWant{"negative integer", "float64", 0, "-9223372036854775809 overflows Go's int64"}},
		{"negint/in_float64_slice", "84 30 3b 92 30 30 30 30 30 30 30 30 30", func() any { return new([]float64) },
			[]float64{-17, 0, -17, -17},
			&uteWant{"negative integer", "float64", 2, "-10533972511944618033 overflows Go's int64"}},
		{"negint/min_int64_into_float64", "3b 7f ff ff ff ff ff ff ff", func() any { return new(float64) },
			-9223372036854775808.0, nil},
		// -1 - n is rounded once, as float64(int64) (found by
		// FuzzUnmarshalTyped: -1 - float64(n) rounded twice, ...731e+16).
		{"negint/into_float64_rounded_once", "3b 01 30 30 30 30 30 30 37", func() any { return new(float64) },
			-8.562137644506733e+16, nil},
		{"negint/into_float32_rounded_once", "3b 01 30 30 30 30 30 30 37", func() any { return new(float32) },
			float32(-8.562137644506733e+16), nil},
		// A finite float beyond float32's range: refused (it was made +Inf).
		{"float/1e300_into_float32", "fb 7e 37 e4 3c 88 00 75 9c", func() any { return new(float32) }, float32(0),
			&uteWant{"float", "float32", 0, "1E+300 overflows float32"}},
		{"float/-1e300_in_float32_slice", "82 01 fb fe 37 e4 3c 88 00 75 9c", func() any { return new([]float32) },
			[]float32{1, 0}, &uteWant{"float", "float32", 2, "-1E+300 overflows float32"}},
		{"float/max_float32_into_float32", "fa 7f 7f ff ff", func() any { return new(float32) }, float32(math.MaxFloat32), nil},
		{"float/infinity_into_float32", "f9 7c 00", func() any { return new(float32) }, float32(math.Inf(1)), nil},
		{"float/2^128_into_float32", "fb 47 f0 00 00 00 00 00 00", func() any { return new(float32) }, float32(0),
			&uteWant{"float", "float32", 0, "3.402823669209385E+38 overflows float32"}},
		{"negint/2^54_into_float64", "3b 00 3f ff ff ff ff ff ff", func() any { return new(float64) },
			-18014398509481984.0, nil},
		{"bignum/negative_into_float64_rounded_once", "c3 48 01 30 30 30 30 30 30 37", func() any { return new(float64) },
			-8.562137644506733e+16, nil},
		{"negint/past_min_int64_into_int64", "3b 80 00 00 00 00 00 00 00", func() any { return new(int64) }, int64(0),
			&uteWant{"negative integer", "int64", 0, "-9223372036854775809 overflows Go's int64"}},
		{"negint/past_min_int64_into_uint64", "3b 80 00 00 00 00 00 00 00", func() any { return new(uint64) }, uint64(0),
			&uteWant{"negative integer", "uint64", 0, "negative into unsigned"}},
		// Overflow reasons name the number and the Go type, as fxamacker's.
		{"overflow/uint_into_int8", "19 01 2c", func() any { return new(int8) }, int8(0),
			&uteWant{"unsigned integer", "int8", 0, "300 overflows int8"}},
		{"overflow/negint_into_int8", "38 80", func() any { return new(int8) }, int8(0),
			&uteWant{"negative integer", "int8", 0, "-129 overflows int8"}},
		{"overflow/int8_min", "38 7f", func() any { return new(int8) }, int8(-128), nil},
		{"overflow/uint_into_uint16", "1a 00 01 11 70", func() any { return new(uint16) }, uint16(0),
			&uteWant{"unsigned integer", "uint16", 0, "70000 overflows uint16"}},
		{"overflow/max_uint64_into_int", "1b ff ff ff ff ff ff ff ff", func() any { return new(int) }, 0,
			&uteWant{"unsigned integer", "int", 0, "18446744073709551615 overflows int"}},
		{"overflow/min_negint_into_int32", "3b ff ff ff ff ff ff ff ff", func() any { return new(int32) }, int32(0),
			&uteWant{"negative integer", "int32", 0, "-18446744073709551616 overflows Go's int64"}},
		{"negint/past_min_int64_into_any", "3b 80 00 00 00 00 00 00 00", func() any { return new(any) },
			any(*new(big.Int).Sub(big.NewInt(math.MinInt64), big.NewInt(1))), nil},
		{"negint/min_into_big_int_pointer", "3b ff ff ff ff ff ff ff ff", func() any { return new(*big.Int) },
			new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 64)), nil},
		// A shorter array into a Go array: the rest zero (this panicked in
		// reflect's SetZero, found by FuzzUnmarshalTyped).
		{"array/shorter_into_int_array", "81 07", func() any { return &[3]int{1, 2, 3} }, [3]int{7, 0, 0}, nil},
		{"array/empty_into_byte_array", "80", func() any { return &[2]byte{1, 2} }, [2]byte{}, nil},
		{"array/shorter_into_pointer_array", "81 f6", func() any { n := 5; return &[2]*int{&n, &n} },
			[2]*int{nil, nil}, nil},
		{"array/shorter_into_string_array", "9f 61 61 ff", func() any { return &[2]string{"x", "y"} },
			[2]string{"a", ""}, nil},
		// A tagged map key into a string key: the tag number passed over,
		// as for a value (this refused it, found by FuzzUnmarshalTyped).
		{"map_key/tagged_text_into_map_string_any", "a2 d1 61 61 01 61 62 02", func() any { return new(map[string]any) },
			map[string]any{"a": uint64(1), "b": uint64(2)}, nil},
		{"map_key/tag0_text_into_map_string_string", "a1 c0 61 61 61 78", func() any { return new(map[string]string) },
			map[string]string{"a": "x"}, nil},
		{"map_key/tag1_text_into_map_string_any", "a2 c1 61 61 01 61 62 02", func() any { return new(map[string]any) },
			map[string]any{"b": uint64(2)}, &uteWant{"text string", "string", 2, "tag 1 content is not a number"}},
		{"map_key/tagged_array_into_map_string_any", "a2 d1 80 01 61 62 02", func() any { return new(map[string]any) },
			map[string]any{"b": uint64(2)}, &uteWant{"array", "string", 2, ""}},
		// Tags 0-3 at the start of a RawMessage are checked, as for any
		// target (this took the bytes, found by FuzzUnmarshalTyped).
		{"raw/tag1_bytes", "c1 41 30", func() any { return new(RawMessage) }, RawMessage(nil),
			&uteWant{"byte string", "cborfast.RawMessage", 1, "tag 1 content is not a number"}},
		{"raw/tag9_tag0_int", "c9 c0 01", func() any { return new(RawMessage) }, RawMessage(nil),
			&uteWant{"unsigned integer", "cborfast.RawMessage", 2, "tag 0 content is not a text string"}},
		{"raw/tag1_int", "c1 01", func() any { return new(RawMessage) }, RawMessage{0xc1, 0x01}, nil},
		{"raw/nested_tag1_bytes", "81 c1 41 30", func() any { return new(RawMessage) }, RawMessage{0x81, 0xc1, 0x41, 0x30}, nil},
		// null and undefined keys: the empty string, as into a string value.
		{"map_key/null_into_map_string_any", "a1 f6 01", func() any { return new(map[string]any) },
			map[string]any{"": uint64(1)}, nil},
		{"map_key/undefined_into_map_string_string", "a1 f7 61 78", func() any { return new(map[string]string) },
			map[string]string{"": "x"}, nil},
		{"map_key/int_into_map_string_any", "a2 01 02 61 62 03", func() any { return new(map[string]any) },
			map[string]any{"b": uint64(3)}, &uteWant{"unsigned integer", "string", 1, ""}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			data := unhex(t, r.hex)
			v := r.start()
			err := Unmarshal(data, v)
			if r.err == nil {
				if err != nil {
					t.Fatalf("Unmarshal: %v", err)
				}
			} else {
				var te *UnmarshalTypeError
				if !errors.As(err, &te) {
					t.Fatalf("Unmarshal: %v, want an *UnmarshalTypeError", err)
				}
				got := uteWant{te.CBORType, te.GoType, te.Offset, te.Reason}
				if got != *r.err {
					t.Fatalf("type error %+v, want %+v", got, *r.err)
				}
			}
			got := reflect.ValueOf(v).Elem().Interface()
			if !deepEqualAny(got, r.want) {
				t.Fatalf("value %#v, want %#v", got, r.want)
			}
			theirs := r.start()
			fxErr := fx.Unmarshal(data, theirs)
			if (fxErr == nil) != (r.err == nil) {
				t.Fatalf("fxamacker: %v", fxErr)
			}
			// A number's overflow is told in fxamacker's words.
			if r.err != nil && strings.Contains(r.err.reason, " overflows ") &&
				!strings.Contains(fxErr.Error(), "("+r.err.reason+")") {
				t.Fatalf("fxamacker's reason differs: %v", fxErr)
			}
			if fxErr == nil && !deepEqualAny(reflect.ValueOf(theirs).Elem().Interface(), r.want) {
				t.Fatalf("fxamacker: %#v", reflect.ValueOf(theirs).Elem().Interface())
			}
		})
	}
	// A bignum fills a big.Int as before; into `any`, a big.Int value.
	var z big.Int
	if err := Unmarshal(unhex(t, "c2 49 01 00 00 00 00 00 00 00 00"), &z); err != nil || z.String() != "18446744073709551616" {
		t.Fatalf("big.Int: %v %v", z.String(), err)
	}
}

// strg is a value behind a non-empty interface (fmt.Stringer).
type strg struct{ N int }

func (s *strg) String() string { return "strg" }

// A null or undefined into a non-empty interface that holds a pointer makes
// the interface nil, as fxamacker does (it was handed to the struct behind
// the pointer, which left itself as it was: the old value came back with no
// error). Anything else still decodes into what the pointer points at.
func TestNullIntoANonEmptyInterface(t *testing.T) {
	type holder struct {
		A fmt.Stringer `cbor:"A"`
	}
	for _, hexIn := range []string{"f6", "f7"} {
		var x, fxX fmt.Stringer = &strg{1}, &strg{1}
		if err := Unmarshal(unhex(t, hexIn), &x); err != nil || x != nil {
			t.Errorf("%s into fmt.Stringer: %v, %v; want nil, nil", hexIn, x, err)
		}
		if err := fx.Unmarshal(unhex(t, hexIn), &fxX); err != nil || fxX != nil {
			t.Errorf("fxamacker %s: %v, %v", hexIn, fxX, err)
		}
		in := unhex(t, "a1 61 41 "+hexIn)
		v, fxV := holder{&strg{1}}, holder{&strg{1}}
		if err := Unmarshal(in, &v); err != nil || v.A != nil {
			t.Errorf("%s into a field: %v, %v; want nil, nil", hexIn, v.A, err)
		}
		if err := fx.Unmarshal(in, &fxV); err != nil || fxV.A != nil {
			t.Errorf("fxamacker %s into a field: %v, %v", hexIn, fxV.A, err)
		}
	}
	// {"N": 7} goes into the struct the interface points at.
	s := &strg{1}
	var x fmt.Stringer = s
	if err := Unmarshal(unhex(t, "a1 61 4e 07"), &x); err != nil || x != fmt.Stringer(s) || s.N != 7 {
		t.Errorf("a map into fmt.Stringer holding &strg: %v, %+v, %v", x, s, err)
	}
}

// errU's UnmarshalCBOR always fails.
type errU struct{ seen bool }

var errErrU = errors.New("errU: refused")

func (e *errU) UnmarshalCBOR([]byte) error {
	e.seen = true
	return errErrU
}

// A type error inside an `any` (a map key Go cannot hash, tag 1 over a map)
// and an error of an Unmarshaler are kept as type errors are: the first one
// is returned and decoding goes on after the value, as fxamacker does (both
// ended the whole Unmarshal: the fields after them stayed unset). The `any`
// itself stays as it was (fxamacker stores the rest of its value: README).
func TestDecodingGoesOnAfterAnAnyOrUnmarshalerError(t *testing.T) {
	type withAny struct {
		A int    `cbor:"a"`
		I any    `cbor:"i"`
		B string `cbor:"b"`
	}
	for _, row := range []struct{ name, hex string }{
		{"unhashable_key", "a3 61 61 41 00 61 69 a1 81 01 02 61 62 61 7a"},
		{"tag1_over_map", "a3 61 61 41 00 61 69 c1 a0 61 62 61 7a"},
		{"unhashable_key_indefinite", "a3 61 61 41 00 61 69 bf 81 01 02 ff 61 62 61 7a"},
		{"unhashable_key_deep", "a3 61 61 41 00 61 69 82 a1 01 a1 81 01 02 80 61 62 61 7a"},
	} {
		var ours, theirs withAny
		err, fxErr := Unmarshal(unhex(t, row.hex), &ours), fx.Unmarshal(unhex(t, row.hex), &theirs)
		var te *UnmarshalTypeError
		var fte *fx.UnmarshalTypeError
		if !errors.As(err, &te) || !errors.As(fxErr, &fte) || te.Offset != 3 || fte.GoType != "int" {
			t.Errorf("%s: %v / fxamacker %v; want the type error of a at offset 3", row.name, err, fxErr)
		}
		if ours.B != "z" || theirs.B != "z" || ours.I != nil {
			t.Errorf("%s: %+v / fxamacker %+v; want b set and i left nil", row.name, ours, theirs)
		}
	}
	// In a []any: the element stays nil, the next is read.
	var list []any
	err := Unmarshal(unhex(t, "83 01 a1 81 01 02 03"), &list)
	var te *UnmarshalTypeError
	if !errors.As(err, &te) || te.Offset != 3 || !reflect.DeepEqual(list, []any{uint64(1), nil, uint64(3)}) {
		t.Errorf("[]any: %v, %v; want [1 <nil> 3] and the key's type error at 3", list, err)
	}

	type withU struct {
		B int  `cbor:"b"`
		A errU `cbor:"a"`
		C int  `cbor:"c"`
	}
	for _, row := range []struct {
		name, hex string
		first     func(error) bool
	}{
		{"unmarshaler_error_first", "a2 61 61 01 61 63 02", func(e error) bool { return e == errErrU }},
		{"type_error_before_it", "a3 61 62 60 61 61 01 61 63 05", func(e error) bool {
			var te *UnmarshalTypeError
			return errors.As(e, &te) && te.Offset == 3
		}},
	} {
		var ours, theirs withU
		err, fxErr := Unmarshal(unhex(t, row.hex), &ours), fx.Unmarshal(unhex(t, row.hex), &theirs)
		if !row.first(err) || (err == errErrU) != (fxErr == errErrU) {
			t.Errorf("%s: %v / fxamacker %v", row.name, err, fxErr)
		}
		if ours.C == 0 || ours.C != theirs.C || !ours.A.seen {
			t.Errorf("%s: %+v / fxamacker %+v; want c set after a", row.name, ours, theirs)
		}
	}
	// A named empty interface at the top level goes through the same
	// decoder as a field: the tag's content ends the input there.
	type myAny interface{}
	var named myAny = "untouched"
	if err := Unmarshal(unhex(t, "c2 30"), &named); !errors.As(err, &te) || te.Offset != 0 {
		t.Errorf("c2 30 into a named any: %v, want the bignum's type error at 0", err)
	}
	if err := Unmarshal(unhex(t, "c2 30 01"), &named); err == nil {
		t.Errorf("c2 30 01 into a named any: no error for the trailing byte")
	}
	var us, fus []errU
	err, fxErr := Unmarshal(unhex(t, "83 01 60 02"), &us), fx.Unmarshal(unhex(t, "83 01 60 02"), &fus)
	if err != errErrU || fxErr != errErrU || len(us) != 3 || len(fus) != 3 {
		t.Errorf("[]errU: %d elements, %v / fxamacker %d, %v", len(us), err, len(fus), fxErr)
	}
}

// The same for the other values built into `any`: the values of a
// map[string]any, the keys of a map[any]T and a Tag's content. The pair (or
// the Tag) is not stored, the first error is returned and the fields after
// it are set, as fxamacker does.
func TestDecodingGoesOnAfterAnErrorInAMapOrTag(t *testing.T) {
	type withMap struct {
		M map[string]any `cbor:"m"`
		C int            `cbor:"c"`
	}
	type withKeys struct {
		M map[any]int `cbor:"m"`
		C int         `cbor:"c"`
	}
	type withTag struct {
		T Tag `cbor:"t"`
		C int `cbor:"c"`
	}
	for _, row := range []struct {
		name, hex string
		ours, fx  any // fresh targets
		check     func(ours, fx any) bool
	}{
		{"map_string_any_value", "a2 616d a2 6161 a18101 02 6162 03 6163 07", new(withMap), new(withMap),
			func(o, f any) bool {
				a, b := o.(*withMap), f.(*withMap)
				return a.C == 7 && b.C == 7 && reflect.DeepEqual(a.M, map[string]any{"b": uint64(3)}) &&
					len(b.M) == 1 && b.M["b"] == uint64(3)
			}},
		{"map_any_key", "a2 616d a2 8101 01 6162 03 6163 07", new(withKeys), new(withKeys),
			func(o, f any) bool {
				a, b := o.(*withKeys), f.(*withKeys)
				return a.C == 7 && b.C == 7 && reflect.DeepEqual(a.M, map[any]int{"b": 3}) &&
					reflect.DeepEqual(b.M, map[any]int{"b": 3})
			}},
		{"map_any_key_holding_a_bad_key", "a2 616d a2 a18101 02 01 6162 03 6163 07", new(withKeys), new(withKeys),
			func(o, f any) bool {
				a, b := o.(*withKeys), f.(*withKeys)
				return a.C == 7 && b.C == 7 && reflect.DeepEqual(a.M, map[any]int{"b": 3})
			}},
		{"tag_content", "a2 6174 d903e8 a1 8101 02 6163 07", new(withTag), new(withTag),
			func(o, f any) bool {
				a, b := o.(*withTag), f.(*withTag)
				return a.C == 7 && b.C == 7 && a.T.Number == 0
			}},
	} {
		err, fxErr := Unmarshal(unhex(t, row.hex), row.ours), fx.Unmarshal(unhex(t, row.hex), row.fx)
		var te *UnmarshalTypeError
		if !errors.As(err, &te) || fxErr == nil {
			t.Errorf("%s: %v / fxamacker %v; want type errors", row.name, err, fxErr)
		}
		if !row.check(row.ours, row.fx) {
			t.Errorf("%s: %+v / fxamacker %+v", row.name, row.ours, row.fx)
		}
	}
}
