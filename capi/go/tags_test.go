package cborfast

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	fx "github.com/fxamacker/cbor/v2"
)

type tagPoint struct {
	X int `cbor:"x"`
	Y int `cbor:"y"`
}

type tagName string

type tagBlob []byte

type tagHolder struct {
	P tagPoint `cbor:"p"`
	N tagName  `cbor:"n"`
	A any      `cbor:"a"`
}

// The same registrations in both libraries: tagPoint 1000 (required both
// ways), tagName 1001(1002(...)) (nested, required), tagBlob 1003
// (optional on decoding).
func tagModes(t *testing.T) (EncMode, DecMode, fx.EncMode, fx.DecMode) {
	t.Helper()
	ours, peer := NewTagSet(), fx.NewTagSet()
	req := TagOptions{EncTag: EncTagRequired, DecTag: DecTagRequired}
	opt := TagOptions{EncTag: EncTagRequired, DecTag: DecTagOptional}
	fxReq := fx.TagOptions{EncTag: fx.EncTagRequired, DecTag: fx.DecTagRequired}
	fxOpt := fx.TagOptions{EncTag: fx.EncTagRequired, DecTag: fx.DecTagOptional}
	for _, err := range []error{
		ours.Add(req, reflect.TypeFor[tagPoint](), 1000),
		ours.Add(req, reflect.TypeFor[*tagName](), 1001, 1002), // a pointer registers its element
		ours.Add(opt, reflect.TypeFor[tagBlob](), 1003),
		peer.Add(fxReq, reflect.TypeFor[tagPoint](), 1000),
		peer.Add(fxReq, reflect.TypeFor[tagName](), 1001, 1002),
		peer.Add(fxOpt, reflect.TypeFor[tagBlob](), 1003),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	em, err := EncOptions{}.EncModeWithTags(ours)
	if err != nil {
		t.Fatal(err)
	}
	dm, err := DecOptions{}.DecModeWithTags(ours)
	if err != nil {
		t.Fatal(err)
	}
	fem, err := fx.EncOptions{}.EncModeWithTags(peer)
	if err != nil {
		t.Fatal(err)
	}
	fdm, err := fx.DecOptions{}.DecModeWithTags(peer)
	if err != nil {
		t.Fatal(err)
	}
	return em, dm, fem, fdm
}

// Registered types: the bytes both libraries write (asserted), each decoding
// the other's into the type and into `any` (the registered type comes back,
// at the top and nested in arrays and struct fields).
func TestTagSetInterop(t *testing.T) {
	em, dm, fem, fdm := tagModes(t)
	for _, row := range []struct {
		name string
		v    any
		hex  string
	}{
		{"struct", tagPoint{1, 2}, "d903e8 a2 6178 01 6179 02"},
		{"named_string_nested_tags", tagName("hi"), "d903e9 d903ea 62 6869"},
		{"named_bytes", tagBlob{1, 2}, "d903eb 42 0102"},
		{"in_array", []any{tagPoint{3, 4}, tagName(""), uint64(5)},
			"83 d903e8 a2 6178 03 6179 04 d903e9 d903ea 60 05"},
		{"in_struct", tagHolder{P: tagPoint{5, 6}, N: "n", A: tagBlob{9}},
			"a3 6170 d903e8 a2 6178 05 6179 06 616e d903e9 d903ea 616e 6161 d903eb 41 09"},
	} {
		want := unhex(t, row.hex)
		got, err := em.Marshal(row.v)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: ours wrote %x %v, want %x", row.name, got, err, want)
		}
		if fb, err := fem.Marshal(row.v); err != nil || !bytes.Equal(fb, want) {
			t.Fatalf("%s: fxamacker wrote %x %v, want %x", row.name, fb, err, want)
		}
		// Into the value's own type.
		typ := reflect.TypeOf(row.v)
		ov, fv := reflect.New(typ), reflect.New(typ)
		if err := dm.Unmarshal(want, ov.Interface()); err != nil {
			t.Fatalf("%s: ours: %v", row.name, err)
		}
		if err := fdm.Unmarshal(got, fv.Interface()); err != nil {
			t.Fatalf("%s: fxamacker: %v", row.name, err)
		}
		if !reflect.DeepEqual(ov.Elem().Interface(), row.v) || !reflect.DeepEqual(fv.Elem().Interface(), row.v) {
			t.Fatalf("%s: typed: ours %#v, fxamacker %#v, want %#v", row.name, ov.Elem(), fv.Elem(), row.v)
		}
		// Into `any`: the registered types come back as themselves.
		var oa, fa any
		if err := dm.Unmarshal(want, &oa); err != nil {
			t.Fatalf("%s: ours any: %v", row.name, err)
		}
		if err := fdm.Unmarshal(want, &fa); err != nil {
			t.Fatalf("%s: fxamacker any: %v", row.name, err)
		}
		if !reflect.DeepEqual(oa, fa) {
			t.Fatalf("%s: into any: ours %#v, fxamacker %#v", row.name, oa, fa)
		}
	}
	// A registered type at the top of `any`: its own type.
	var a any
	if err := dm.Unmarshal(unhex(t, "d903e8 a2 6178 01 6179 02"), &a); err != nil || a != (tagPoint{1, 2}) {
		t.Fatalf("any: %#v %v", a, err)
	}
	// Tags no registration names stay Tag values (nested: Tag in Tag).
	if err := dm.Unmarshal(unhex(t, "d903ed d903ee 01"), &a); err != nil ||
		!reflect.DeepEqual(a, Tag{1005, Tag{1006, uint64(1)}}) {
		t.Fatalf("unregistered: %#v %v", a, err)
	}
	// The innermost tags a type is registered for name it, under the tags
	// in front of them, which stay Tags (only a whole chain did: Tag{10,
	// Tag{1000, [1 2]}}), as fxamacker decodes them; content the type
	// cannot take is an error in both.
	for _, row := range []struct {
		hex   string
		outer []uint64 // the Tags around the tagPoint; nil: an error
	}{
		{"d80a d903e8 a2 6178 01 6179 02", []uint64{10}},
		{"d903e8 d903e8 a2 6178 01 6179 02", []uint64{1000}},
		{"d903e9 d903e8 a2 6178 01 6179 02", []uint64{1001}},
		{"d80a d80b d903e8 a2 6178 01 6179 02", []uint64{10, 11}},
		{"d903e9 d903e8 01", nil},
		{"d80a d903e8 01", nil},
	} {
		var ours, theirs any
		err, fxErr := dm.Unmarshal(unhex(t, row.hex), &ours), fdm.Unmarshal(unhex(t, row.hex), &theirs)
		if row.outer == nil {
			if err == nil || fxErr == nil {
				t.Errorf("%s: %v / fxamacker %v; want errors", row.hex, err, fxErr)
			}
			continue
		}
		if err != nil || fxErr != nil {
			t.Errorf("%s: %v / fxamacker %v", row.hex, err, fxErr)
			continue
		}
		o, f := ours, theirs
		for _, n := range row.outer {
			ot, ok1 := o.(Tag)
			ft, ok2 := f.(fx.Tag)
			if !ok1 || !ok2 || ot.Number != n || ft.Number != n {
				t.Errorf("%s: %#v / fxamacker %#v; want tag %d outside", row.hex, ours, theirs, n)
				break
			}
			o, f = ot.Content, ft.Content
		}
		if o != (tagPoint{1, 2}) || f != (tagPoint{1, 2}) {
			t.Errorf("%s: content %#v / fxamacker %#v; want the tagPoint", row.hex, o, f)
		}
	}
	// A registered tag whose content its type cannot take gives no value
	// (it was stored as far as it was filled, tagPoint{0, 0}), as fxamacker.
	{
		var ours, theirs []any
		err, fxErr := dm.Unmarshal(unhex(t, "83 f6 d903e8 417e 07"), &ours), fdm.Unmarshal(unhex(t, "83 f6 d903e8 417e 07"), &theirs)
		if err == nil || fxErr == nil || !reflect.DeepEqual(ours, []any{nil, nil, uint64(7)}) ||
			!reflect.DeepEqual(theirs, ours) {
			t.Errorf("[]any: %#v %v / fxamacker %#v %v", ours, err, theirs, fxErr)
		}
		var m, fm map[string]any
		in := unhex(t, "a2 6161 d903e8 417e 6162 07")
		err, fxErr = dm.Unmarshal(in, &m), fdm.Unmarshal(in, &fm)
		if err == nil || fxErr == nil || !reflect.DeepEqual(m, map[string]any{"b": uint64(7)}) ||
			!reflect.DeepEqual(fm, m) {
			t.Errorf("map[string]any: %#v %v / fxamacker %#v %v", m, err, fm, fxErr)
		}
		var v any = "untouched"
		var te *UnmarshalTypeError
		if err := dm.Unmarshal(unhex(t, "d903e8 417e"), &v); !errors.As(err, &te) || v != "untouched" {
			t.Errorf("any: %#v %v; want it untouched and a type error", v, err)
		}
	}
	// Without the mode the tags are written not and passed over on reading.
	if b, _ := Marshal(tagPoint{1, 2}); !bytes.Equal(b, unhex(t, "a2 6178 01 6179 02")) {
		t.Fatalf("plain Marshal: %x", b)
	}
	var p tagPoint
	if err := Unmarshal(unhex(t, "d903e9 a2 6178 01 6179 02"), &p); err != nil || p != (tagPoint{1, 2}) {
		t.Fatalf("plain Unmarshal: %v %v", p, err)
	}
}

// Tag errors with their offsets, and fxamacker's answer to the same input:
// a required tag missing is a type error (the value passed over), a different
// tag a WrongTagError at the first tag's head.
func TestTagSetErrors(t *testing.T) {
	_, dm, _, fdm := tagModes(t)
	for _, row := range []struct {
		name   string
		hex    string
		into   func() any
		wrong  bool // WrongTagError, else UnmarshalTypeError
		offset int
		got    []uint64
	}{
		{"missing_at_top", "a2 6178 01 6179 02", func() any { return new(tagPoint) }, false, 0, nil},
		{"missing_second_element", "82 d903e8 a0 a0", func() any { return new([]tagPoint) }, false, 5, nil},
		{"other_tag_at_top", "d903e9 a0", func() any { return new(tagPoint) }, true, 0, []uint64{1001}},
		{"other_tag_second_element", "82 d903e8 a0 d903e9 a0", func() any { return new([]tagPoint) }, true, 5, []uint64{1001}},
		{"nested_tags_cut_short", "d903e9 62 6869", func() any { return new(tagName) }, true, 0, []uint64{1001}},
		{"nested_tags_one_more", "d903e9 d903ea d903eb 62 6869", func() any { return new(tagName) }, true, 0, []uint64{1001, 1002, 1003}},
		{"optional_but_different", "a1 6170 d903eb a0", func() any {
			return new(struct {
				P tagPoint `cbor:"p"`
			})
		}, true, 3, []uint64{1003}},
		{"optional_tag_wrong_on_blob", "d903e8 42 0102", func() any { return new(tagBlob) }, true, 0, []uint64{1000}},
	} {
		in := unhex(t, row.hex)
		err := dm.Unmarshal(in, row.into())
		ferr := fdm.Unmarshal(in, row.into())
		if row.wrong {
			var e *WrongTagError
			var fe *fx.WrongTagError
			if !errors.As(err, &e) || e.Offset != row.offset || !reflect.DeepEqual(e.TagNum, row.got) {
				t.Fatalf("%s: ours %v, want WrongTagError %v at %d", row.name, err, row.got, row.offset)
			}
			if !errors.As(ferr, &fe) || !reflect.DeepEqual(fe.TagNum, e.TagNum) ||
				!reflect.DeepEqual(fe.RegisteredTagNum, e.RegisteredTagNum) || fe.RegisteredType != e.RegisteredType {
				t.Fatalf("%s: fxamacker %v, ours %v", row.name, ferr, err)
			}
			continue
		}
		var e *UnmarshalTypeError
		var fe *fx.UnmarshalTypeError
		if !errors.As(err, &e) || e.Offset != row.offset {
			t.Fatalf("%s: ours %v, want a type error at %d", row.name, err, row.offset)
		}
		if !errors.As(ferr, &fe) {
			t.Fatalf("%s: fxamacker %v", row.name, ferr)
		}
	}
	// DecTagOptional: untagged content decodes.
	var b tagBlob
	if err := dm.Unmarshal(unhex(t, "42 0102"), &b); err != nil || !bytes.Equal(b, []byte{1, 2}) {
		t.Fatalf("optional untagged: %x %v", b, err)
	}
}

func TestTagSetAdd(t *testing.T) {
	ts := NewTagSet()
	req := TagOptions{EncTag: EncTagRequired, DecTag: DecTagRequired}
	for _, row := range []struct {
		name string
		opts TagOptions
		typ  reflect.Type
		num  uint64
	}{
		{"nil_type", req, nil, 1000},
		{"unnamed", req, reflect.TypeFor[[]byte](), 1000},
		{"predeclared", req, reflect.TypeFor[string](), 1000},
		{"interface", req, reflect.TypeFor[error](), 1000},
		{"time", req, reflect.TypeFor[time.Time](), 1000},
		{"tag_0", req, reflect.TypeFor[tagPoint](), 0},
		{"tag_1", req, reflect.TypeFor[tagPoint](), 1},
		{"tag_2", req, reflect.TypeFor[tagPoint](), 2},
		{"tag_3", req, reflect.TypeFor[tagPoint](), 3},
		{"tag_55799", req, reflect.TypeFor[tagPoint](), 55799},
		{"ignored_and_none", TagOptions{}, reflect.TypeFor[tagPoint](), 1000},
		{"bad_mode", TagOptions{DecTag: 3}, reflect.TypeFor[tagPoint](), 1000},
	} {
		if err := ts.Add(row.opts, row.typ, row.num); err == nil {
			t.Fatalf("%s: accepted", row.name)
		}
	}
	if err := ts.Add(req, reflect.TypeFor[tagPoint](), 1000, 4); err != nil {
		t.Fatal(err)
	}
	if err := ts.Add(req, reflect.TypeFor[tagPoint](), 1001); err == nil {
		t.Fatal("type registered twice")
	}
	if err := ts.Add(req, reflect.TypeFor[tagName](), 1000, 4); err == nil {
		t.Fatal("tag numbers registered twice")
	}
	if err := ts.Add(req, reflect.TypeFor[tagName](), 1000); err != nil {
		t.Fatal("a prefix of registered numbers is other numbers:", err)
	}
	// Frozen and shared modes: Remove applies to the shared one only.
	em, _ := EncOptions{}.EncModeWithTags(ts)
	sem, _ := EncOptions{}.EncModeWithSharedTags(ts)
	dm, _ := DecOptions{}.DecModeWithTags(ts)
	sdm, _ := DecOptions{}.DecModeWithSharedTags(ts)
	ts.Remove(reflect.TypeFor[*tagPoint]())
	ts.Remove(nil)
	p := tagPoint{1, 2}
	if b, _ := em.Marshal(p); !bytes.Equal(b, unhex(t, "d903e8 c4 a2 6178 01 6179 02")) {
		t.Fatalf("frozen: %x", b)
	}
	if b, _ := sem.Marshal(p); !bytes.Equal(b, unhex(t, "a2 6178 01 6179 02")) {
		t.Fatalf("shared after Remove: %x", b)
	}
	plain := unhex(t, "a2 6178 01 6179 02")
	var q tagPoint
	if err := dm.Unmarshal(plain, &q); err == nil {
		t.Fatal("frozen: a missing required tag accepted")
	}
	if err := sdm.Unmarshal(plain, &q); err != nil || q != p {
		t.Fatalf("shared after Remove: %v %v", q, err)
	}
	if _, err := (DecOptions{}).DecModeWithTags(nil); err == nil {
		t.Fatal("nil TagSet accepted")
	}
}

// Tag 1 epoch times are read within ±2^62 seconds, integers as floats:
// time.Unix() wraps far below the int64 range (-2^63 seconds came back as
// the year +292277026596). At the bound they decode, one past it is an
// *UnmarshalTypeError at the tag, into time.Time and into any alike.
func TestEpochTimeRange(t *testing.T) {
	cases := []struct {
		name, hex string
		sec       int64 // the time, when ok
		ok        bool
	}{
		{"uint 2^62", "c1 1b 4000000000000000", 1 << 62, true},
		{"uint 2^62 + 1", "c1 1b 4000000000000001", 0, false},
		{"uint 2^64 - 1", "c1 1b ffffffffffffffff", 0, false},
		{"negative -2^62", "c1 3b 3fffffffffffffff", -1 << 62, true},
		{"negative -2^62 - 1", "c1 3b 4000000000000000", 0, false},
		{"negative -2^63", "c1 3b 7fffffffffffffff", 0, false},
		{"float 2^62", "c1 fb 43d0000000000000", 1 << 62, true},
		{"float -2^62", "c1 fb c3d0000000000000", -1 << 62, true},
		{"float past 2^62", "c1 fb 43d0000000000001", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := append([]byte{0x81}, unhex(t, c.hex)...) // the tag at offset 1
			var tm []time.Time
			errT := Unmarshal(in, &tm)
			var a any
			errA := Unmarshal(in, &a)
			if c.ok {
				if errT != nil || errA != nil {
					t.Fatalf("%v / %v", errT, errA)
				}
				want := time.Unix(c.sec, 0)
				if !tm[0].Equal(want) || !a.([]any)[0].(time.Time).Equal(want) || tm[0].Unix() != c.sec {
					t.Fatalf("got %v / %v, want %v", tm[0], a, want)
				}
				return
			}
			for _, err := range []error{errT, errA} {
				var te *UnmarshalTypeError
				if !errors.As(err, &te) || te.CBORType != "tag" || te.GoType != "time.Time" || te.Offset != 1 ||
					te.Reason != "epoch time out of range" {
					t.Fatalf("got %v", err)
				}
			}
		})
	}
}

// Self-described CBOR (55799) in front of a registered type's tags is not
// one of them: passed over, as fxamacker does (it was a WrongTagError
// naming [55799 1003]).
func TestTagSetAfterSelfDescribed(t *testing.T) {
	_, dm, _, fdm := tagModes(t)
	for _, h := range []string{"d9d9f7 d903eb 4101", "d9d9f7 4101", "d9d9f7 d9d9f7 d903eb 4101"} {
		var ours, peer tagBlob
		err, ferr := dm.Unmarshal(unhex(t, h), &ours), fdm.Unmarshal(unhex(t, h), &peer)
		if err != nil || ferr != nil || !bytes.Equal(ours, peer) || !bytes.Equal(ours, []byte{1}) {
			t.Errorf("%s: %x, %v; fxamacker %x, %v", h, []byte(ours), err, []byte(peer), ferr)
		}
	}
}
