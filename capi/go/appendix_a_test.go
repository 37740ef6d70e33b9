package cborfast

import (
	"bytes"
	"math"
	"testing"
)

// RFC 8949 Appendix A: every example, decoded to the expected Go value and
// encoded again. reenc is the preferred serialization Encode must produce
// when it differs from the example (non-preferred floats, indefinite lengths).
var appendixA = []struct {
	hex   string
	want  any
	reenc string
}{
	{"00", uint64(0), ""},
	{"01", uint64(1), ""},
	{"0a", uint64(10), ""},
	{"17", uint64(23), ""},
	{"1818", uint64(24), ""},
	{"1819", uint64(25), ""},
	{"1864", uint64(100), ""},
	{"1903e8", uint64(1000), ""},
	{"1a000f4240", uint64(1000000), ""},
	{"1b000000e8d4a51000", uint64(1000000000000), ""},
	{"1bffffffffffffffff", uint64(18446744073709551615), ""},
	{"c249010000000000000000", bigInt("18446744073709551616"), ""},
	{"3bffffffffffffffff", bigInt("-18446744073709551616"), ""},
	{"c349010000000000000000", bigInt("-18446744073709551617"), ""},
	{"20", int64(-1), ""},
	{"29", int64(-10), ""},
	{"3863", int64(-100), ""},
	{"3903e7", int64(-1000), ""},
	{"f90000", 0.0, ""},
	{"f98000", math.Copysign(0, -1), ""},
	{"f93c00", 1.0, ""},
	{"fb3ff199999999999a", 1.1, ""},
	{"f93e00", 1.5, ""},
	{"f97bff", 65504.0, ""},
	{"fa47c35000", 100000.0, ""},
	{"fa7f7fffff", 3.4028234663852886e+38, ""},
	{"fb7e37e43c8800759c", 1.0e+300, ""},
	{"f90001", 5.960464477539063e-8, ""},
	{"f90400", 0.00006103515625, ""},
	{"f9c400", -4.0, ""},
	{"fbc010666666666666", -4.1, ""},
	{"f97c00", math.Inf(1), ""},
	{"f97e00", math.Float64frombits(0x7ff8000000000000), ""},
	{"f9fc00", math.Inf(-1), ""},
	{"fa7f800000", math.Inf(1), "f97c00"},
	{"fa7fc00000", math.Float64frombits(0x7ff8000000000000), "f97e00"},
	{"faff800000", math.Inf(-1), "f9fc00"},
	{"fb7ff0000000000000", math.Inf(1), "f97c00"},
	{"fb7ff8000000000000", math.Float64frombits(0x7ff8000000000000), "f97e00"},
	{"fbfff0000000000000", math.Inf(-1), "f9fc00"},
	{"f4", false, ""},
	{"f5", true, ""},
	{"f6", nil, ""},
	{"f7", Undefined, ""},
	{"f0", Simple(16), ""},
	{"f8ff", Simple(255), ""},
	{"c074323031332d30332d32315432303a30343a30305a", Tag{0, "2013-03-21T20:04:00Z"}, ""},
	{"c11a514b67b0", Tag{1, uint64(1363896240)}, ""},
	{"c1fb41d452d9ec200000", Tag{1, 1363896240.5}, ""},
	{"d74401020304", Tag{23, []byte{1, 2, 3, 4}}, ""},
	{"d818456449455446", Tag{24, []byte("dIETF")}, ""},
	{"d82076687474703a2f2f7777772e6578616d706c652e636f6d", Tag{32, "http://www.example.com"}, ""},
	{"40", []byte{}, ""},
	{"4401020304", []byte{1, 2, 3, 4}, ""},
	{"60", "", ""},
	{"6161", "a", ""},
	{"6449455446", "IETF", ""},
	{"62225c", "\"\\", ""},
	{"62c3bc", "\u00fc", ""},
	{"63e6b0b4", "\u6c34", ""},
	{"64f0908591", "\U00010151", ""},
	{"80", []any{}, ""},
	{"83010203", []any{uint64(1), uint64(2), uint64(3)}, ""},
	{"8301820203820405", []any{uint64(1), []any{uint64(2), uint64(3)}, []any{uint64(4), uint64(5)}}, ""},
	{"98190102030405060708090a0b0c0d0e0f101112131415161718181819", oneTo25(), ""},
	{"a0", Map{}, ""},
	{"a201020304", Map{{uint64(1), uint64(2)}, {uint64(3), uint64(4)}}, ""},
	{"a26161016162820203", Map{{"a", uint64(1)}, {"b", []any{uint64(2), uint64(3)}}}, ""},
	{"826161a161626163", []any{"a", Map{{"b", "c"}}}, ""},
	{"a56161614161626142616361436164614461656145",
		Map{{"a", "A"}, {"b", "B"}, {"c", "C"}, {"d", "D"}, {"e", "E"}}, ""},
	{"5f42010243030405ff", []byte{1, 2, 3, 4, 5}, "450102030405"},
	{"7f657374726561646d696e67ff", "streaming", "6973747265616d696e67"},
	{"9fff", []any{}, "80"},
	{"9f018202039f0405ffff", []any{uint64(1), []any{uint64(2), uint64(3)}, []any{uint64(4), uint64(5)}},
		"8301820203820405"},
	{"9f01820203820405ff", []any{uint64(1), []any{uint64(2), uint64(3)}, []any{uint64(4), uint64(5)}},
		"8301820203820405"},
	{"83018202039f0405ff", []any{uint64(1), []any{uint64(2), uint64(3)}, []any{uint64(4), uint64(5)}},
		"8301820203820405"},
	{"83019f0203ff820405", []any{uint64(1), []any{uint64(2), uint64(3)}, []any{uint64(4), uint64(5)}},
		"8301820203820405"},
	{"9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", oneTo25(),
		"98190102030405060708090a0b0c0d0e0f101112131415161718181819"},
	{"bf61610161629f0203ffff", Map{{"a", uint64(1)}, {"b", []any{uint64(2), uint64(3)}}},
		"a26161016162820203"},
	{"826161bf61626163ff", []any{"a", Map{{"b", "c"}}}, "826161a161626163"},
	{"bf6346756ef563416d7421ff", Map{{"Fun", true}, {"Amt", int64(-2)}}, "a26346756ef563416d7421"},
}

func oneTo25() []any {
	v := make([]any, 25)
	for i := range v {
		v[i] = uint64(i + 1)
	}
	return v
}

func TestAppendixA(t *testing.T) {
	before := liveHandles
	for _, c := range appendixA {
		in := unhex(t, c.hex)
		got, err := Decode(in)
		if err != nil {
			t.Errorf("Decode(%s): %v", c.hex, err)
			continue
		}
		if !equal(got, c.want) {
			t.Errorf("Decode(%s) = %#v, want %#v", c.hex, got, c.want)
		}
		want := in
		if c.reenc != "" {
			want = unhex(t, c.reenc)
		}
		// From the decoded value and from the table's own Go value.
		for _, v := range []any{got, c.want} {
			out, err := Encode(v)
			if err != nil {
				t.Errorf("Encode(%#v): %v", v, err)
			} else if !bytes.Equal(out, want) {
				t.Errorf("Encode(%#v) = %x, want %x", v, out, want)
			}
		}
	}
	checkNoLeaks(t, before)
}
