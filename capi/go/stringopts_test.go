package cborfast

import (
	"bytes"
	"errors"
	"math/big"
	"reflect"
	"testing"
	"time"

	fx "github.com/fxamacker/cbor/v2"
)

// decRow is one decoding case compared with fxamacker under the same
// options: the value ours gives, and either no error (typeErrAt -1) or an
// *UnmarshalTypeError at typeErrAt for CBORType typeErrCBOR (fxamacker then
// gives its own *UnmarshalTypeError, without an offset, and the same value).
type decRow struct {
	name        string
	in          string
	into        func() any
	want        any
	typeErrAt   int
	typeErrCBOR string
}

func runDecRows(t *testing.T, ours DecMode, peer fx.DecMode, rows []decRow) {
	t.Helper()
	for _, r := range rows {
		in := unhex(t, r.in)
		v := r.into()
		err := ours.Unmarshal(in, v)
		got := reflect.ValueOf(v).Elem().Interface()
		if r.typeErrAt < 0 {
			if err != nil {
				t.Errorf("%s: %v", r.name, err)
				continue
			}
		} else {
			var te *UnmarshalTypeError
			if !errors.As(err, &te) || te.Offset != r.typeErrAt || te.CBORType != r.typeErrCBOR {
				t.Errorf("%s: want a type error for %s at %d, got %v", r.name, r.typeErrCBOR, r.typeErrAt, err)
				continue
			}
		}
		if !reflect.DeepEqual(got, r.want) {
			t.Errorf("%s: got %#v, want %#v", r.name, got, r.want)
		}
		pv := r.into()
		perr := peer.Unmarshal(in, pv)
		var pte *fx.UnmarshalTypeError
		if (r.typeErrAt < 0) != (perr == nil) || (r.typeErrAt >= 0 && !errors.As(perr, &pte)) {
			t.Errorf("%s: fxamacker's error: %v", r.name, perr)
		}
		if p := fxNorm(reflect.ValueOf(pv).Elem().Interface()); !reflect.DeepEqual(p, got) {
			t.Errorf("%s: fxamacker gives %#v, ours %#v", r.name, p, got)
		}
	}
}

// fxNorm turns fxamacker's Tag values (at any depth in []any) into ours.
func fxNorm(v any) any {
	switch x := v.(type) {
	case fx.Tag:
		return Tag{Number: x.Number, Content: fxNorm(x.Content)}
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = fxNorm(x[i])
		}
		return out
	}
	return v
}

type bsName string

type bsStruct struct {
	S string `cbor:"s"`
	N bsName `cbor:"n"`
	A any    `cbor:"a"`
}

type fieldStruct struct {
	A  int `cbor:"a"`
	Bc int
	K  int `cbor:"7,keyasint"`
}

func TestByteStringToString(t *testing.T) {
	str := func() any { return new(string) }
	modes := func(ours ByteStringToStringMode, peer fx.ByteStringToStringMode, defBytes reflect.Type) (DecMode, fx.DecMode) {
		dm, err := DecOptions{ByteStringToString: ours, DefaultByteStringType: defBytes}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		pm, err := fx.DecOptions{ByteStringToString: peer, DefaultByteStringType: defBytes}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		return dm, pm
	}
	t.Run("Forbidden", func(t *testing.T) {
		dm, pm := modes(ByteStringToStringForbidden, fx.ByteStringToStringForbidden, nil)
		if dm.DecOptions().ByteStringToString != ByteStringToStringForbidden {
			t.Fatal("not the default")
		}
		runDecRows(t, dm, pm, []decRow{
			{"bytes into string", "43 616263", str, "", 0, "byte string"},
			{"indefinite bytes into string", "5f 41 61 ff", str, "", 0, "byte string"},
			{"text into string", "63 616263", str, "abc", -1, ""},
			{"bytes as a map[string]int key", "a2 41 61 01 61 62 02", func() any { return new(map[string]int) },
				map[string]int{"b": 2}, 1, "byte string"},
			{"bytes as a map[string]string value", "a1 61 61 41 62", func() any { return new(map[string]string) },
				map[string]string{}, 3, "byte string"},
			{"bytes into a struct field, then a text one", "a2 61 73 42 6869 61 6e 62 6869", func() any { return new(bsStruct) },
				bsStruct{N: "hi"}, 3, "byte string"},
		})
	})
	t.Run("Allowed", func(t *testing.T) {
		dm, pm := modes(ByteStringToStringAllowed, fx.ByteStringToStringAllowed, nil)
		runDecRows(t, dm, pm, []decRow{
			{"bytes into string", "43 616263", str, "abc", -1, ""},
			{"empty bytes", "40", str, "", -1, ""},
			{"indefinite bytes (two chunks)", "5f 41 61 42 6263 ff", str, "abc", -1, ""},
			{"bytes that are not UTF-8", "42 fbff", str, "\xfb\xff", -1, ""},
			{"into a named string type", "42 6869", func() any { return new(bsName) }, bsName("hi"), -1, ""},
			{"map[string]int key", "a2 41 61 01 61 62 02", func() any { return new(map[string]int) },
				map[string]int{"a": 1, "b": 2}, -1, ""},
			{"map[string]string value", "a1 61 61 41 62", func() any { return new(map[string]string) },
				map[string]string{"a": "b"}, -1, ""},
			{"map[bsName]int key", "a1 41 61 01", func() any { return new(map[bsName]int) },
				map[bsName]int{"a": 1}, -1, ""},
			{"struct fields", "a2 61 73 42 6869 61 6e 5f 41 6f ff", func() any { return new(bsStruct) },
				bsStruct{S: "hi", N: "o"}, -1, ""},
			{"[]string", "82 41 61 61 62", func() any { return new([]string) }, []string{"a", "b"}, -1, ""},
			{"tag 21 is not special in this mode", "d5 42 fbff", str, "\xfb\xff", -1, ""},
			{"any keeps []byte", "42 fbff", func() any { return new(any) }, []byte{0xfb, 0xff}, -1, ""},
			{"any keeps tag 21 as a Tag", "d5 42 fbff", func() any { return new(any) },
				Tag{Number: 21, Content: []byte{0xfb, 0xff}}, -1, ""},
			{"int into string is still a type error", "01", str, "", 0, "unsigned integer"},
		})
	})
	t.Run("AllowedWithExpectedLaterEncoding", func(t *testing.T) {
		dm, pm := modes(ByteStringToStringAllowedWithExpectedLaterEncoding, fx.ByteStringToStringAllowedWithExpectedLaterEncoding, nil)
		runDecRows(t, dm, pm, []decRow{
			{"untagged: the bytes", "42 fbff", str, "\xfb\xff", -1, ""},
			{"tag 21: base64url without padding", "d5 42 fbff", str, "-_8", -1, ""},
			{"tag 22: base64 with padding", "d6 42 fbff", str, "+/8=", -1, ""},
			{"tag 23: base16", "d7 42 fbff", str, "fbff", -1, ""},
			{"tag 21, 3 bytes (no padding needed)", "d5 43 fbffbf", str, "-_-_", -1, ""},
			{"tag 22, indefinite bytes", "d6 5f 41 fb 41 ff ff", str, "+/8=", -1, ""},
			{"tag 21, empty bytes", "d5 40", str, "", -1, ""},
			{"the nearest tag wins: 23(22(h'fbff'))", "d7 d6 42 fbff", str, "+/8=", -1, ""},
			{"enclosing an array: 23([h'0102', h'ff'])", "d7 82 42 0102 41 ff", func() any { return new([]string) },
				[]string{"0102", "ff"}, -1, ""},
			{"enclosing a struct, inner tag for one field", "d6 a2 61 73 42 fbff 61 6e d7 41 ff", func() any { return new(bsStruct) },
				bsStruct{S: "+/8=", N: "ff"}, -1, ""},
			{"text inside the tag stays as it is", "d7 62 6869", str, "hi", -1, ""},
			{"into []byte: the bytes", "d5 42 fbff", func() any { return new([]byte) }, []byte{0xfb, 0xff}, -1, ""},
			{"map key under tag 23", "d7 a1 41 ab 01", func() any { return new(map[string]int) }, map[string]int{"ab": 1}, -1, ""},
			{"into any: the tag gives way to its content", "d5 42 fbff", func() any { return new(any) }, []byte{0xfb, 0xff}, -1, ""},
			{"into any: array under tag 22", "d6 82 01 41 ff", func() any { return new(any) }, []any{uint64(1), []byte{0xff}}, -1, ""},
			{"other tags into any stay tags", "d8 18 41 ff", func() any { return new(any) }, Tag{Number: 24, Content: []byte{0xff}}, -1, ""},
		})
	})
	t.Run("AllowedWithExpectedLaterEncoding, DefaultByteStringType string", func(t *testing.T) {
		dm, pm := modes(ByteStringToStringAllowedWithExpectedLaterEncoding, fx.ByteStringToStringAllowedWithExpectedLaterEncoding,
			reflect.TypeFor[string]())
		runDecRows(t, dm, pm, []decRow{
			{"any: tag 21", "d5 42 fbff", func() any { return new(any) }, "-_8", -1, ""},
			{"any: untagged", "42 fbff", func() any { return new(any) }, "\xfb\xff", -1, ""},
			{"any: 23([h'01', 22(h'fbff')])", "d7 82 41 01 d6 42 fbff", func() any { return new(any) }, []any{"01", "+/8="}, -1, ""},
			{"any: indefinite bytes under tag 23", "d7 5f 41 01 41 02 ff", func() any { return new(any) }, "0102", -1, ""},
			{"struct field of type any under the struct's tag", "d6 a1 61 61 42 fbff", func() any { return new(bsStruct) },
				bsStruct{A: "+/8="}, -1, ""},
		})
	})
	if _, err := (DecOptions{ByteStringToString: 3}).DecMode(); err == nil {
		t.Error("ByteStringToString 3 accepted")
	}
	if _, err := (DecOptions{ByteStringToString: -1}).DecMode(); err == nil {
		t.Error("ByteStringToString -1 accepted")
	}
}

func TestFieldNameByteString(t *testing.T) {
	into := func() any { return new(fieldStruct) }
	dm, _ := DecOptions{}.DecMode()
	pm, _ := fx.DecOptions{}.DecMode()
	if dm.DecOptions().FieldNameByteString != FieldNameByteStringForbidden {
		t.Fatal("not the default")
	}
	runDecRows(t, dm, pm, []decRow{
		{"byte string key: a type error, value passed over", "a2 41 61 01 62 4263 02", into, fieldStruct{Bc: 2}, 1, "byte string"},
		{"indefinite byte string key", "a1 5f 41 61 ff 01", into, fieldStruct{}, 1, "byte string"},
		{"float key", "a2 f9 3c00 01 61 61 05", into, fieldStruct{A: 5}, 1, "float"},
		{"array key", "a1 81 00 01", into, fieldStruct{}, 1, "array"},
		{"integer key past int64", "a2 1b ffffffffffffffff 01 07 09", into, fieldStruct{K: 9}, 1, "unsigned integer"},
		{"negative key past int64", "a1 3b ffffffffffffffff 01", into, fieldStruct{}, 1, "negative integer"},
		{"integer key of no field", "a1 08 01", into, fieldStruct{}, -1, ""},
	})
	dm, err := DecOptions{FieldNameByteString: FieldNameByteStringAllowed}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	pm, _ = fx.DecOptions{FieldNameByteString: fx.FieldNameByteStringAllowed}.DecMode()
	runDecRows(t, dm, pm, []decRow{
		{"byte string key names a field", "a2 41 61 01 42 4263 02", into, fieldStruct{A: 1, Bc: 2}, -1, ""},
		{"case-insensitive fallback", "a2 41 41 01 42 6263 02", into, fieldStruct{A: 1, Bc: 2}, -1, ""},
		{"indefinite byte string key", "a1 5f 41 61 ff 01", into, fieldStruct{A: 1}, -1, ""},
		{"byte string key of no field", "a1 41 7a 01", into, fieldStruct{}, -1, ""},
		{"byte string \"7\" does not name a keyasint field", "a1 41 37 01", into, fieldStruct{}, -1, ""},
		{"float key is still a type error", "a1 f9 3c00 01", into, fieldStruct{}, 1, "float"},
	})
	if _, err := (DecOptions{FieldNameByteString: 2}).DecMode(); err == nil {
		t.Error("FieldNameByteString 2 accepted")
	}
}

// encRow is one encoding case: the exact bytes, which fxamacker writes too
// with the same options (peer is fxamacker's value when the types differ).
type encRow struct {
	name  string
	value any
	peer  any
	want  string
}

func runEncRows(t *testing.T, ours EncMode, theirs fx.EncMode, rows []encRow) {
	t.Helper()
	for _, r := range rows {
		want := unhex(t, r.want)
		got, err := ours.Marshal(r.value)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: got %x (%v), want %x", r.name, got, err, want)
		}
		pv := r.peer
		if pv == nil {
			pv = r.value
		}
		if pb, err := theirs.Marshal(pv); err != nil || !bytes.Equal(pb, want) {
			t.Errorf("%s: fxamacker writes %x (%v), want %x", r.name, pb, err, want)
		}
	}
}

type encNames struct {
	S  string `cbor:"s"`
	K  int    `cbor:"1,keyasint"`
	Bb []byte `cbor:"bb,omitempty"`
}

type encArray struct {
	_ struct{} `cbor:",toarray"`
	S string
	N bsName
}

func TestStringAndFieldNameModes(t *testing.T) {
	modes := func(s StringMode, f FieldNameMode, fs fx.StringMode, ff fx.FieldNameMode, sorted bool) (EncMode, fx.EncMode) {
		o := EncOptions{String: s, FieldName: f, Time: TimeRFC3339}
		po := fx.EncOptions{String: fs, FieldName: ff, Time: fx.TimeRFC3339}
		if sorted {
			o.Sort, po.Sort = SortCoreDeterministic, fx.SortCoreDeterministic
		}
		em, err := o.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		pm, err := po.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		return em, pm
	}
	when := time.Date(2000, 1, 2, 3, 4, 5, 0, time.UTC) // "2000-01-02T03:04:05Z", 20 bytes
	whenText := "74 323030302d30312d30325430333a30343a30355a"
	whenBytes := "54 323030302d30312d30325430333a30343a30355a"
	t.Run("defaults", func(t *testing.T) {
		em, pm := modes(StringToTextString, FieldNameToTextString, fx.StringToTextString, fx.FieldNameToTextString, false)
		if o := em.EncOptions(); o.String != StringToTextString || o.FieldName != FieldNameToTextString {
			t.Fatal("not the defaults")
		}
		runEncRows(t, em, pm, []encRow{
			{"string", "abc", nil, "63 616263"},
			{"struct", encNames{S: "x", K: 2}, nil, "a2 61 73 61 78 01 02"},
			{"time", when, nil, whenText},
		})
	})
	t.Run("StringToByteString", func(t *testing.T) {
		em, pm := modes(StringToByteString, FieldNameToTextString, fx.StringToByteString, fx.FieldNameToTextString, false)
		runEncRows(t, em, pm, []encRow{
			{"string", "abc", nil, "43 616263"},
			{"empty string", "", nil, "40"},
			{"24-byte string (one-byte length)", "abcdefghijklmnopqrstuvwx", nil, "58 18 6162636465666768696a6b6c6d6e6f707172737475767778"},
			{"named string type", bsName("n"), nil, "41 6e"},
			{"[]string", []string{"a", "b"}, nil, "82 41 61 41 62"},
			{"string in []any", []any{"a", 1}, nil, "82 41 61 01"},
			{"map[string]string", map[string]string{"k": "v"}, nil, "a1 41 6b 41 76"},
			{"map[string]any", map[string]any{"k": "v"}, nil, "a1 41 6b 41 76"},
			{"map[string]int", map[string]int{"k": 1}, nil, "a1 41 6b 01"},
			{"map[bsName]bsName", map[bsName]bsName{"k": "v"}, nil, "a1 41 6b 41 76"},
			{"struct: names stay text, values are bytes", encNames{S: "x", K: 2}, nil, "a2 61 73 41 78 01 02"},
			{"toarray struct", encArray{S: "a", N: "b"}, nil, "82 41 61 41 62"},
			{"pointer to string", func() *string { s := "p"; return &s }(), nil, "41 70"},
			{"RFC 3339 time follows the mode", when, nil, whenBytes},
			{"tag 0 content stays text", Tag{Number: 0, Content: "2000-01-02T03:04:05Z"},
				fx.Tag{Number: 0, Content: "2000-01-02T03:04:05Z"}, "c0 " + whenText},
			{"other tags' content follows the mode", Tag{Number: 32, Content: "u"}, fx.Tag{Number: 32, Content: "u"}, "d8 20 41 75"},
			{"tag 0 around an array of strings", Tag{Number: 0, Content: []any{"a"}}, fx.Tag{Number: 0, Content: []any{"a"}}, "c0 81 61 61"},
			{"[]byte unchanged", []byte{1}, nil, "41 01"},
		})
	})
	t.Run("FieldNameToByteString", func(t *testing.T) {
		em, pm := modes(StringToTextString, FieldNameToByteString, fx.StringToTextString, fx.FieldNameToByteString, false)
		runEncRows(t, em, pm, []encRow{
			{"struct: names are bytes, keyasint stays an integer", encNames{S: "x", K: 2}, nil, "a2 41 73 61 78 01 02"},
			{"omitempty field present", encNames{S: "x", K: 2, Bb: []byte{9}}, nil, "a3 41 73 61 78 01 02 42 6262 41 09"},
			{"map keys are not field names", map[string]int{"k": 1}, nil, "a1 61 6b 01"},
			{"toarray has no names", encArray{S: "a"}, nil, "82 61 61 60"},
		})
	})
	t.Run("both, sorted", func(t *testing.T) {
		em, pm := modes(StringToByteString, FieldNameToByteString, fx.StringToByteString, fx.FieldNameToByteString, true)
		runEncRows(t, em, pm, []encRow{
			{"struct in bytewise key order", encNames{S: "x", K: 2, Bb: []byte{9}}, nil, "a3 01 02 41 73 41 78 42 6262 41 09"},
			{"map keys sorted as byte strings", map[string]int{"bb": 1, "a": 2, "c": 3}, nil, "a3 41 61 02 41 63 03 42 6262 01"},
		})
	})
	for _, o := range []EncOptions{{String: 2}, {String: -1}, {FieldName: 2}} {
		if _, err := o.EncMode(); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// With the expected later encoding, tags 21-23 are built in: a TagSet
// registering one of them is refused, as fxamacker refuses it.
func TestExpectedLaterEncodingTagSet(t *testing.T) {
	ours, peer := NewTagSet(), fx.NewTagSet()
	if err := ours.Add(TagOptions{EncTag: EncTagRequired, DecTag: DecTagRequired}, reflect.TypeFor[bsStruct](), 22); err != nil {
		t.Fatal(err)
	}
	if err := peer.Add(fx.TagOptions{EncTag: fx.EncTagRequired, DecTag: fx.DecTagRequired}, reflect.TypeFor[bsStruct](), 22); err != nil {
		t.Fatal(err)
	}
	ele := DecOptions{ByteStringToString: ByteStringToStringAllowedWithExpectedLaterEncoding}
	fxEle := fx.DecOptions{ByteStringToString: fx.ByteStringToStringAllowedWithExpectedLaterEncoding}
	if _, err := ele.DecModeWithTags(ours); err == nil {
		t.Error("DecModeWithTags accepts tag 22")
	}
	if _, err := ele.DecModeWithSharedTags(ours); err == nil {
		t.Error("DecModeWithSharedTags accepts tag 22")
	}
	if _, err := fxEle.DecModeWithTags(peer); err == nil {
		t.Error("fxamacker accepts tag 22")
	}
	if _, err := (DecOptions{ByteStringToString: ByteStringToStringAllowed}).DecModeWithTags(ours); err != nil {
		t.Errorf("ByteStringToStringAllowed refuses tag 22: %v", err)
	}
}

// A bignum's content stays a byte string for the bignum whatever
// DefaultByteStringType says: big.Int(1) into `any` as in fxamacker (a
// string or named []byte type made it a type error).
func TestDefaultByteStringTypeKeepsBignums(t *testing.T) {
	type named []byte
	for _, bt := range []reflect.Type{reflect.TypeOf(""), reflect.TypeOf(named(nil)), reflect.TypeOf(ByteString(""))} {
		dm, err := DecOptions{DefaultByteStringType: bt}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		pm, err := fx.DecOptions{DefaultByteStringType: bt}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range []struct{ name, hex, want string }{
			{"tag 2", "c2 41 01", "1"},
			{"tag 3", "c3 41 01", "-2"},
			{"tag 2, indefinite", "c2 5f 41 01 41 00 ff", "256"},
			{"in an array", "82 c2 41 01 41 61", "1"},
		} {
			var v, w any
			if err := dm.Unmarshal(unhex(t, row.hex), &v); err != nil {
				t.Fatalf("%v %s: %v", bt, row.name, err)
			}
			if err := pm.Unmarshal(unhex(t, row.hex), &w); err != nil {
				t.Fatalf("%v %s: fxamacker %v", bt, row.name, err)
			}
			if !reflect.DeepEqual(v, w) {
				t.Errorf("%v %s: %#v, fxamacker %#v", bt, row.name, v, w)
			}
			z := v
			if a, ok := v.([]any); ok {
				z = a[0]
				// The byte string beside it still takes the option's type.
				if reflect.TypeOf(a[1]) != bt {
					t.Errorf("%v %s: %T beside the bignum", bt, row.name, a[1])
				}
			}
			if b, ok := z.(big.Int); !ok || b.String() != row.want {
				t.Errorf("%v %s: %#v", bt, row.name, z)
			}
		}
	}
}

// ByteString is a byte string both ways, wherever it is: a field, an
// element, a map key (it was read from text and written as text in typed
// positions), as fxamacker's.
func TestByteStringIsAByteStringBothWays(t *testing.T) {
	type holder struct {
		B ByteString            `cbor:"b"`
		M map[ByteString]int    `cbor:"m"`
		L []ByteString          `cbor:"l"`
		P *ByteString           `cbor:"p"`
		A map[string]ByteString `cbor:"a"`
	}
	bs := ByteString("z")
	v := holder{B: "a", M: map[ByteString]int{"k": 1}, L: []ByteString{"x", ""}, P: &bs, A: map[string]ByteString{"s": "y"}}
	want := "a5 61 62 41 61 61 6d a1 41 6b 01 61 6c 82 41 78 40 61 70 41 7a 61 61 a1 61 73 41 79"
	got, err := Marshal(v)
	if err != nil || !bytes.Equal(got, unhex(t, want)) {
		t.Fatalf("Marshal: %x %v", got, err)
	}
	// fxamacker's own ByteString in the same shape.
	type fxHolder struct {
		B fx.ByteString            `cbor:"b"`
		M map[fx.ByteString]int    `cbor:"m"`
		L []fx.ByteString          `cbor:"l"`
		P *fx.ByteString           `cbor:"p"`
		A map[string]fx.ByteString `cbor:"a"`
	}
	fbs := fx.ByteString("z")
	fv := fxHolder{B: "a", M: map[fx.ByteString]int{"k": 1}, L: []fx.ByteString{"x", ""}, P: &fbs, A: map[string]fx.ByteString{"s": "y"}}
	if fgot, err := fx.Marshal(fv); err != nil || !bytes.Equal(fgot, got) {
		t.Fatalf("fxamacker: %x %v", fgot, err)
	}
	var back holder
	var fback fxHolder
	if err := Unmarshal(got, &back); err != nil || !reflect.DeepEqual(back, v) {
		t.Fatalf("Unmarshal: %+v %v", back, err)
	}
	if err := fx.Unmarshal(got, &fback); err != nil || !reflect.DeepEqual(fback, fv) {
		t.Fatalf("fxamacker Unmarshal: %+v %v", fback, err)
	}
	for _, row := range []struct {
		name, hex string
		want      ByteString
		err       string // the type error's CBOR type, "" for none
	}{
		{"bytes", "41 61", "a", ""},
		{"indefinite bytes", "5f 41 61 41 62 ff", "ab", ""},
		{"null", "f6", "", ""},
		{"text", "61 61", "q", "text string"},
		{"integer", "01", "q", "unsigned integer"},
	} {
		b := ByteString("q")
		err := Unmarshal(unhex(t, row.hex), &b)
		var ute *UnmarshalTypeError
		if row.err == "" && (err != nil || b != row.want) {
			t.Errorf("%s: %q %v", row.name, b, err)
		}
		if row.err != "" && (!errors.As(err, &ute) || ute.CBORType != row.err || ute.GoType != "cborfast.ByteString" || b != row.want) {
			t.Errorf("%s: %q %v", row.name, b, err)
		}
		fb := fx.ByteString("q")
		ferr := fx.Unmarshal(unhex(t, row.hex), &fb)
		if (ferr == nil) != (err == nil) || (err == nil && string(fb) != string(b)) {
			t.Errorf("%s: fxamacker %q %v", row.name, fb, ferr)
		}
	}
}
