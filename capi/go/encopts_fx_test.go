package cborfast

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"math/big"
	"testing"
	"time"

	fx "github.com/fxamacker/cbor/v2"
)

// Encoding options against fxamacker's same options, byte for byte: the
// rows a second hostile-input audit found differing (times outside
// 1678-2262, nil containers in an `any`, NaN and infinity under
// ShortestFloat16, a float32's signalling NaN, the NaNConvert values).
func TestEncOptionsAgainstFxamacker(t *testing.T) {
	type mode struct {
		name string
		ours EncOptions
		peer fx.EncOptions
	}
	f32 := func(bits uint32) float32 { return math.Float32frombits(bits) }
	f64 := func(bits uint64) float64 { return math.Float64frombits(bits) }
	rows := []struct {
		mode   mode
		values []any
	}{
		{mode{"TimeUnixMicro", EncOptions{Time: TimeUnixMicro}, fx.EncOptions{Time: fx.TimeUnixMicro}}, []any{
			time.Date(2300, 1, 1, 0, 0, 0, 5e8, time.UTC), time.Date(1600, 6, 1, 0, 0, 0, 25e7, time.UTC),
			time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC),
			time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Unix(6973113753, 701961860).UTC(),
			time.Date(2020, 1, 2, 3, 4, 5, 678901000, time.UTC)}},
		{mode{"TimeUnixDynamic", EncOptions{Time: TimeUnixDynamic}, fx.EncOptions{Time: fx.TimeUnixDynamic}}, []any{
			time.Date(2300, 1, 1, 0, 0, 0, 5e8, time.UTC), time.Date(1600, 6, 1, 0, 0, 0, 25e7, time.UTC),
			time.Unix(6973113753, 701961860).UTC(), time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)}},
		// (Maps sorted: Go's map order is random, in both libraries.)
		{mode{"NilContainerAsEmpty", EncOptions{NilContainers: NilContainerAsEmpty, Sort: SortCanonical},
			fx.EncOptions{NilContainers: fx.NilContainerAsEmpty, Sort: fx.SortCanonical}}, []any{
			map[string]any{"b": []byte(nil), "a": []any(nil)}, []any(nil), []byte(nil), []any{[]byte(nil)}}},
		{mode{"NilContainerAsNull", EncOptions{NilContainers: NilContainerAsNull, Sort: SortCanonical},
			fx.EncOptions{NilContainers: fx.NilContainerAsNull, Sort: fx.SortCanonical}}, []any{
			map[string]any{"b": []byte(nil), "a": []any(nil)}, []any(nil), []byte(nil)}},
	}
	specials := []any{math.Inf(1), math.Inf(-1), float32(math.Inf(1)), math.NaN(), float32(math.NaN()),
		f64(0x7ff4000000000000), f64(0xfff0000000000001), f64(0x7ff8000000000001), f64(0x7ff0000020000000),
		f32(0x7f800001), f32(0xff800400), f32(0x7fc00001), f32(0x7fa00000), 1.5, float32(0.1), 65504.0}
	for _, nan := range []struct {
		name string
		ours NaNConvertMode
		peer fx.NaNConvertMode
	}{{"7e00", NaNConvert7e00, fx.NaNConvert7e00}, {"None", NaNConvertNone, fx.NaNConvertNone},
		{"PreserveSignal", NaNConvertPreserveSignal, fx.NaNConvertPreserveSignal},
		{"Quiet", NaNConvertQuiet, fx.NaNConvertQuiet}} {
		for _, inf := range []struct {
			name string
			ours InfConvertMode
			peer fx.InfConvertMode
		}{{"Float16", InfConvertFloat16, fx.InfConvertFloat16}, {"None", InfConvertNone, fx.InfConvertNone}} {
			for _, sf := range []struct {
				name string
				ours ShortestFloatMode
				peer fx.ShortestFloatMode
			}{{"None", ShortestFloatNone, fx.ShortestFloatNone}, {"16", ShortestFloat16, fx.ShortestFloat16}} {
				rows = append(rows, struct {
					mode   mode
					values []any
				}{mode{"NaN" + nan.name + "/Inf" + inf.name + "/Shortest" + sf.name,
					EncOptions{NaNConvert: nan.ours, InfConvert: inf.ours, ShortestFloat: sf.ours},
					fx.EncOptions{NaNConvert: nan.peer, InfConvert: inf.peer, ShortestFloat: sf.peer}}, specials})
			}
		}
	}
	rows = append(rows, struct {
		mode   mode
		values []any
	}{mode{"CTAP2", CTAP2EncOptions(), fx.CTAP2EncOptions()}, specials})
	for _, row := range rows {
		em, err := row.mode.ours.EncMode()
		if err != nil {
			t.Fatalf("%s: %v", row.mode.name, err)
		}
		pm, err := row.mode.peer.EncMode()
		if err != nil {
			t.Fatalf("%s: fxamacker %v", row.mode.name, err)
		}
		for i, v := range row.values {
			got, err := em.Marshal(v)
			want, perr := pm.Marshal(v)
			if (err == nil) != (perr == nil) || !bytes.Equal(got, want) {
				t.Errorf("%s, value %d (%#v): %x %v, fxamacker %x %v", row.mode.name, i, v, got, err, want, perr)
			}
		}
	}
	// The modes have fxamacker's numbers (a converted value keeps its meaning).
	for _, c := range [][2]int{{int(NaNConvert7e00), int(fx.NaNConvert7e00)}, {int(NaNConvertNone), int(fx.NaNConvertNone)},
		{int(NaNConvertPreserveSignal), int(fx.NaNConvertPreserveSignal)}, {int(NaNConvertQuiet), int(fx.NaNConvertQuiet)},
		{int(NaNConvertReject), int(fx.NaNConvertReject)}, {int(InfConvertReject), int(fx.InfConvertReject)}} {
		if c[0] != c[1] {
			t.Errorf("mode value %d, fxamacker %d", c[0], c[1])
		}
	}
}

// null and undefined leave a time.Time as it was, as fxamacker does (it
// was set to the zero time); a pointer to one is set to nil.
func TestNullIntoATimeLeavesIt(t *testing.T) {
	for _, in := range []string{"f6", "f7"} {
		tm, ftm := time.Unix(5, 0), time.Unix(5, 0)
		if err := Unmarshal(unhex(t, in), &tm); err != nil || !tm.Equal(time.Unix(5, 0)) {
			t.Errorf("%s: %v %v", in, tm, err)
		}
		if err := fx.Unmarshal(unhex(t, in), &ftm); err != nil || !ftm.Equal(tm) {
			t.Errorf("%s: fxamacker %v %v", in, ftm, err)
		}
		p := &tm
		if err := Unmarshal(unhex(t, in), &p); err != nil || p != nil {
			t.Errorf("%s: pointer %v %v", in, p, err)
		}
	}
}

// Join after the end (or after Skip) has no item to join: invalid_state, as
// in the Rust binding (it joined the last string again).
func TestReaderJoinAfterEndOrSkip(t *testing.T) {
	r := NewReader(unhex(t, "62 c328"))
	defer r.Close()
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if b, err := r.Join(); err != nil || !bytes.Equal(b, []byte{0xc3, 0x28}) {
		t.Fatalf("join: %x %v", b, err)
	}
	if _, err := r.Next(); err == nil {
		t.Fatal("no end")
	}
	if b, err := r.Join(); err == nil {
		t.Fatalf("join after the end: %x", b)
	} else if e, ok := err.(*Error); !ok || e.Code != CodeInvalidState {
		t.Fatalf("join after the end: %v", err)
	}
	r2 := NewReader(unhex(t, "61 61 61 62"))
	defer r2.Close()
	if _, err := r2.Next(); err != nil {
		t.Fatal(err)
	}
	if err := r2.Skip(); err != nil {
		t.Fatal(err)
	}
	if _, err := r2.Join(); err == nil {
		t.Fatal("join after skip")
	}
}

// RFC 3339 text has four-digit years and offsets under a day: Go's layouts
// write the others as they are ("10000-01-01T00:00:00Z", "+24:00"), which
// fxamacker refuses (UnsupportedValueError) and so does Marshal now (it
// wrote them). TimeRFC3339NanoUTC writes UTC, as fxamacker's.
func TestRFC3339LimitsAgainstFxamacker(t *testing.T) {
	zone := func(secs int) *time.Location { return time.FixedZone("", secs) }
	times := []struct {
		name string
		t    time.Time
		ok   bool
	}{
		{"year 0", time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"year 9999", time.Date(9999, 12, 31, 23, 59, 59, 5e8, time.UTC), true},
		{"year 10000", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{"year -1", time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{"offset +23:59", time.Date(2020, 1, 1, 0, 0, 0, 0, zone(23*3600+59*60)), true},
		{"offset -23:59", time.Date(2020, 1, 1, 0, 0, 0, 0, zone(-(23*3600 + 59*60))), true},
		{"offset +24:00", time.Date(2020, 1, 1, 0, 0, 0, 0, zone(24*3600)), false},
		{"offset -100:00", time.Date(2020, 1, 1, 0, 0, 0, 0, zone(-100*3600)), false},
		{"offset +05:30", time.Date(2020, 1, 1, 0, 0, 0, 123, zone(5*3600+30*60)), true},
	}
	modes := []struct {
		name string
		ours TimeMode
		peer fx.TimeMode
	}{
		{"TimeRFC3339", TimeRFC3339, fx.TimeRFC3339},
		{"TimeRFC3339Nano", TimeRFC3339Nano, fx.TimeRFC3339Nano},
		{"TimeRFC3339NanoUTC", TimeRFC3339NanoUTC, fx.TimeRFC3339NanoUTC},
	}
	for _, m := range modes {
		em, err := EncOptions{Time: m.ours, TimeTag: EncTagRequired}.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		fm, _ := fx.EncOptions{Time: m.peer, TimeTag: fx.EncTagRequired}.EncMode()
		for _, r := range times {
			// the offsets' limits apply to the local text only: in UTC every
			// offset of a year in range is fine
			want := r.ok || (m.ours == TimeRFC3339NanoUTC && r.t.UTC().Year() >= 0 && r.t.UTC().Year() <= 9999)
			got, err := em.Marshal(r.t)
			peer, perr := fm.Marshal(r.t)
			if (err == nil) != want || (perr == nil) != want {
				t.Errorf("%s %s: ours %x, %v; fxamacker %x, %v; want ok %v", m.name, r.name, got, err, peer, perr, want)
				continue
			}
			if err != nil {
				var uv *UnsupportedValueError
				if !errors.As(err, &uv) {
					t.Errorf("%s %s: %T %v, want *UnsupportedValueError", m.name, r.name, err, err)
				}
			} else if !bytes.Equal(got, peer) {
				t.Errorf("%s %s: ours %x, fxamacker %x", m.name, r.name, got, peer)
			}
		}
	}
}

// TagsMd: CTAP2EncOptions writes no tag, as fxamacker's (which sets
// TagsForbidden): a big.Int beyond 64 bits and a Tag are errors in both, a
// small big.Int is an integer; the conflicting options are refused when the
// mode is made. (The preset had written c2 49 01 00.. for 2^64.)
func TestTagsForbiddenAgainstFxamacker(t *testing.T) {
	ours, err := CTAP2EncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	peer, err := fx.CTAP2EncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	big64 := new(big.Int).Lsh(big.NewInt(1), 64)
	rows := []struct {
		name      string
		ours, fxv any
		want      string // "" for an error in both
	}{
		{"2^64 as a big.Int", big64, big64, ""},
		{"-2^64 - 1 as a big.Int", new(big.Int).Neg(new(big.Int).Add(big64, big.NewInt(1))),
			new(big.Int).Neg(new(big.Int).Add(big64, big.NewInt(1))), ""},
		{"5 as a big.Int", big.NewInt(5), big.NewInt(5), "05"},
		{"-2^64 as a big.Int (a negative integer head)", new(big.Int).Neg(big64), new(big.Int).Neg(big64),
			"3bffffffffffffffff"},
		{"a tag", Tag{Number: 1, Content: 2}, fx.Tag{Number: 1, Content: 2}, ""},
		{"a tag in a slice", []any{Tag{Number: 1, Content: 2}}, []any{fx.Tag{Number: 1, Content: 2}}, ""},
	}
	for _, r := range rows {
		got, gerr := ours.Marshal(r.ours)
		want, werr := peer.Marshal(r.fxv)
		if (gerr == nil) != (werr == nil) {
			t.Errorf("%s: ours %x, %v; fxamacker %x, %v", r.name, got, gerr, want, werr)
			continue
		}
		if r.want == "" {
			if gerr == nil {
				t.Errorf("%s: wrote %x, want an error", r.name, got)
			}
			continue
		}
		if hex.EncodeToString(got) != r.want || !bytes.Equal(got, want) {
			t.Errorf("%s: ours %x, fxamacker %x, want %s", r.name, got, want, r.want)
		}
	}
	for _, o := range []EncOptions{
		{TagsMd: TagsForbidden, TimeTag: EncTagRequired},
		{TagsMd: TagsForbidden, BigIntConvert: BigIntConvertNone},
		{TagsMd: TagsForbidden + 1},
	} {
		if _, err := o.EncMode(); err == nil {
			t.Errorf("%+v: a mode was made", o)
		}
	}
	if _, err := (EncOptions{TagsMd: TagsForbidden}).EncModeWithTags(NewTagSet()); err == nil {
		t.Error("EncModeWithTags with TagsForbidden: a mode was made")
	}
}

// A Tag field is written as the tag, as in an any and as fxamacker writes
// its cbor.Tag; it had been written as a map of Number and Content.
func TestTagFieldIsATag(t *testing.T) {
	type S struct{ T Tag }
	type P struct{ T fx.Tag }
	got, err := Marshal(S{T: Tag{Number: 5, Content: uint64(1)}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := fx.Marshal(P{T: fx.Tag{Number: 5, Content: uint64(1)}})
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(got) != "a16154c501" || !bytes.Equal(got, want) {
		t.Fatalf("ours %x, fxamacker %x, want a16154c501", got, want)
	}
	var back S
	if err := Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if back.T.Number != 5 || back.T.Content != uint64(1) {
		t.Fatalf("back %+v", back)
	}
}

// Tags 0 to 3 over a self-described tag (55799) or, with
// ByteStringToStringAllowedWithExpectedLaterEncoding, over tags 21 to 23:
// refused into a time.Time and into an any, as fxamacker refuses them (and
// as tags 0 to 3 over other content are). Both had been passed over as where
// a value starts, so 1(55799(1)) was a time.
func TestTagsZeroToThreeOverTransparentTags(t *testing.T) {
	text := "74323031332d30332d32315432303a30343a30305a" // "2013-03-21T20:04:00Z"
	rows := []struct {
		name  string
		in    string
		later bool
	}{
		{"1(55799(1))", "c1d9d9f701", false},
		{"0(55799(text))", "c0d9d9f7" + text, false},
		{"1(21(0)), later", "c1d81500", true},
		{"1(23(1363896240)), later", "c1d8171a514b67b0", true},
		{"0(22(text)), later", "c0d816" + text, true},
		{"2(21(h'01')), later", "c2d8154101", true},
	}
	for _, r := range rows {
		in, _ := hex.DecodeString(r.in)
		o, f := DecOptions{}, fx.DecOptions{}
		if r.later {
			o.ByteStringToString = ByteStringToStringAllowedWithExpectedLaterEncoding
			f.ByteStringToString = fx.ByteStringToStringAllowedWithExpectedLaterEncoding
		}
		om, err := o.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		fm, err := f.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		var a, fa any
		var tm, ftm time.Time
		if err, ferr := om.Unmarshal(in, &a), fm.Unmarshal(in, &fa); err == nil || ferr == nil {
			t.Errorf("%s into any: ours %v, %v; fxamacker %v, %v (want errors)", r.name, a, err, fa, ferr)
		}
		if err, ferr := om.Unmarshal(in, &tm), fm.Unmarshal(in, &ftm); err == nil || ferr == nil {
			t.Errorf("%s into time.Time: ours %v, %v; fxamacker %v, %v (want errors)", r.name, tm, err, ftm, ferr)
		}
		if !tm.IsZero() {
			t.Errorf("%s: the time was set to %v", r.name, tm)
		}
	}
	// Where a value starts they are still passed over: 55799(1(1)), and
	// 21(h'01') with the option.
	var tm time.Time
	if err := Unmarshal([]byte{0xd9, 0xd9, 0xf7, 0xc1, 0x01}, &tm); err != nil || tm.Unix() != 1 {
		t.Errorf("55799(1(1)): %v, %v", tm, err)
	}
}

// No input at all is io.EOF and input that ends inside an item
// io.ErrUnexpectedEOF (errors.Is), as fxamacker returns them; both stay
// ErrTruncated *Errors with their offsets.
func TestEmptyAndTruncatedInputAreTheIOErrors(t *testing.T) {
	rows := []struct {
		name       string
		in         []byte
		first      bool
		eof, unexp bool
	}{
		{"Unmarshal(nil)", nil, false, true, false},
		{"UnmarshalFirst(empty)", []byte{}, true, true, false},
		{"Unmarshal(82 01)", []byte{0x82, 0x01}, false, false, true},
		{"Unmarshal(19 01)", []byte{0x19, 0x01}, false, false, true},
	}
	for _, r := range rows {
		var v, fv any
		var err, ferr error
		if r.first {
			_, err = UnmarshalFirst(r.in, &v)
			_, ferr = fx.UnmarshalFirst(r.in, &fv)
		} else {
			err, ferr = Unmarshal(r.in, &v), fx.Unmarshal(r.in, &fv)
		}
		if errors.Is(err, io.EOF) != r.eof || errors.Is(err, io.ErrUnexpectedEOF) != r.unexp ||
			!errors.Is(err, ErrTruncated) {
			t.Errorf("%s: %v (EOF %v, unexpected EOF %v)", r.name, err, errors.Is(err, io.EOF),
				errors.Is(err, io.ErrUnexpectedEOF))
		}
		if errors.Is(ferr, io.EOF) != r.eof || errors.Is(ferr, io.ErrUnexpectedEOF) != r.unexp {
			t.Errorf("%s: fxamacker %v", r.name, ferr)
		}
	}
	if errors.Is(ErrTrailingBytes, io.EOF) || errors.Is(ErrTrailingBytes, io.ErrUnexpectedEOF) {
		t.Error("another error is an EOF")
	}
}

// DecOptions.TagsMd: with TagsForbidden any tag fails, at its offset, before
// anything is stored, into any target type, as fxamacker's TagsMdError; input
// without tags decodes as with TagsAllowed. (The option did not exist on
// the decoding side.)
func TestDecTagsForbiddenAgainstFxamacker(t *testing.T) {
	ours, err := DecOptions{TagsMd: TagsForbidden}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	peer, err := fx.DecOptions{TagsMd: fx.TagsForbidden}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	type S struct {
		A int       `cbor:"a"`
		B time.Time `cbor:"b"`
	}
	rows := []struct {
		name string
		in   string
		at   int // the tag's offset; -1: no error
	}{
		{"a tag at the top", "c1 1a 5f5e1000", 0},
		{"a bignum", "c2 49 010000000000000000", 0},
		{"a tag in an array, after an item", "82 01 d8 20 61 78", 2},
		{"a self-described marker", "d9d9f7 01", 0},
		{"a tag as a map value", "a1 6161 c0 74 323031332d30332d32315432303a30343a30305a", 3},
		{"no tag", "83 01 a1 6161 02 f6", -1},
	}
	for _, r := range rows {
		in := unhex(t, r.in)
		for _, target := range []func() any{
			func() any { return new(any) },
			func() any { return new([]any) },
			func() any { return new(S) },
			func() any { return new(time.Time) },
			func() any { return new(big.Int) },
		} {
			v, pv := target(), target()
			gerr := ours.Unmarshal(in, v)
			werr := peer.Unmarshal(in, pv)
			if r.at < 0 {
				if (gerr == nil) != (werr == nil) {
					t.Errorf("%s into %T: ours %v, fxamacker %v", r.name, v, gerr, werr)
				}
				continue
			}
			var te *fx.TagsMdError
			if !errors.As(werr, &te) {
				t.Errorf("%s into %T: fxamacker gave %v", r.name, v, werr)
			}
			e, ok := gerr.(*Error)
			if !ok || e.Code != CodeTypeMismatch || e.Offset != r.at {
				t.Errorf("%s into %T: %v, want type_mismatch at %d", r.name, v, gerr, r.at)
				continue
			}
			if s, ok := v.(*S); ok && s.A != 0 {
				t.Errorf("%s: stored %+v before the error", r.name, *s)
			}
		}
	}
	// The stream's Decoder likewise, and the next item is not read past it.
	dec := ours.NewDecoder(bytes.NewReader(unhex(t, "01 c1 00 02")))
	var n any
	if err := dec.Decode(&n); err != nil || n != uint64(1) {
		t.Fatalf("first item: %v, %v", n, err)
	}
	if err := dec.Decode(&n); err == nil || err.(*Error).Code != CodeTypeMismatch || err.(*Error).Offset != 1 {
		t.Errorf("the tag through a Decoder: %v", err)
	}
	if _, err := (DecOptions{TagsMd: TagsForbidden + 1}).DecMode(); err == nil {
		t.Error("TagsMd out of range: a mode was made")
	}
	if _, err := (DecOptions{TagsMd: TagsForbidden}).DecModeWithTags(NewTagSet()); err == nil {
		t.Error("DecModeWithTags with TagsForbidden: a mode was made")
	}
}
