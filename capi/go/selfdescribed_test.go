package cborfast

import (
	"fmt"
	"math/big"
	"reflect"
	"testing"
	"time"

	fx "github.com/fxamacker/cbor/v2"
)

// Self-described CBOR (tag 55799) where a value starts says only "this is
// CBOR": fxamacker passes over it before looking at the value, into every
// type and inside arrays and maps of an `any`; as another tag's content it
// stays. It was kept as a Tag in an `any` below the top, made 55799(null)
// into *int a pointer to 0, stayed in a RawMessage and was a type error
// into a big.Int.
func TestSelfDescribedAgainstFxamacker(t *testing.T) {
	type rec struct {
		P *int       `cbor:"p"`
		R RawMessage `cbor:"r"`
		B big.Int    `cbor:"b"`
		T time.Time  `cbor:"t"`
		S []int      `cbor:"s"`
	}
	rows := []struct {
		name string
		data string
		into func() any
		peer func() any
	}{
		{"any top", "d9d9f7 820102", func() any { return new(any) }, func() any { return new(any) }},
		{"any element", "82 d9d9f7 01 d9d9f7 d9d9f7 02", func() any { return new(any) }, func() any { return new(any) }},
		{"any map key and value", "a1 d9d9f7 01 d9d9f7 f6", func() any { return new(any) }, func() any { return new(any) }},
		{"any inside another tag", "c6 d9d9f7 01", func() any { return new(any) }, func() any { return new(any) }},
		{"null into *int", "d9d9f7 f6", func() any { v := 5; p := &v; return &p }, func() any { v := 5; p := &v; return &p }},
		{"int into *int", "d9d9f7 07", func() any { return new(*int) }, func() any { return new(*int) }},
		{"RawMessage", "d9d9f7 820102", func() any { return new(RawMessage) }, func() any { return new(fx.RawMessage) }},
		{"big.Int", "d9d9f7 c24101", func() any { return new(big.Int) }, func() any { return new(big.Int) }},
		{"time", "d9d9f7 c11a5f5e1000", func() any { return new(time.Time) }, func() any { return new(time.Time) }},
		{"struct fields", "a5 6170 d9d9f7 f6 6172 d9d9f7 01 6162 d9d9f7 03 6174 d9d9f7 00 6173 d9d9f7 81 d9d9f7 09",
			func() any { return new(rec) }, func() any { return new(rec) }},
	}
	for _, r := range rows {
		data := unhex(t, r.data)
		ours, peer := r.into(), r.peer()
		err := Unmarshal(data, ours)
		ferr := fx.Unmarshal(data, peer)
		if (err == nil) != (ferr == nil) {
			t.Errorf("%s: %v; fxamacker %v", r.name, err, ferr)
			continue
		}
		a, b := reflect.ValueOf(ours).Elem().Interface(), reflect.ValueOf(peer).Elem().Interface()
		same := reflect.DeepEqual(a, b)
		if reflect.TypeOf(a) != reflect.TypeOf(b) { // RawMessage and fxamacker's
			same = fmt.Sprintf("%x", a) == fmt.Sprintf("%x", b)
		}
		if !same {
			t.Errorf("%s: %#v; fxamacker %#v", r.name, a, b)
		}
	}
	// exact values
	var v any
	if err := Unmarshal(unhex(t, "82 d9d9f7 01 c6 d9d9f7 02"), &v); err != nil ||
		!reflect.DeepEqual(v, []any{uint64(1), Tag{Number: 6, Content: Tag{Number: 55799, Content: uint64(2)}}}) {
		t.Errorf("%#v, %v", v, err)
	}
	var p *int
	if err := Unmarshal(unhex(t, "d9d9f7 f6"), &p); err != nil || p != nil {
		t.Errorf("55799(null) into *int: %v, %v", p, err)
	}
	var raw RawMessage
	if err := Unmarshal(unhex(t, "d9d9f7 820102"), &raw); err != nil || fmt.Sprintf("%x", []byte(raw)) != "820102" {
		t.Errorf("RawMessage %x, %v", []byte(raw), err)
	}
}

// SimpleValue as a typed target and field, as fxamacker's: any simple value,
// false, true, null and undefined (20 to 23) decode into it, numbers do not;
// it is written as a simple value wherever it is (a field was a number).
func TestSimpleValueTypedAgainstFxamacker(t *testing.T) {
	for _, h := range []string{"e0", "f3", "f4", "f5", "f6", "f7", "f820", "f8ff", "01", "f93c00", "40", "c6 f5", "d9d9f7 f5"} {
		var ours SimpleValue
		var peer fx.SimpleValue
		err := Unmarshal(unhex(t, h), &ours)
		ferr := fx.Unmarshal(unhex(t, h), &peer)
		if (err == nil) != (ferr == nil) || uint8(ours) != uint8(peer) {
			t.Errorf("%s: %d, %v; fxamacker %d, %v", h, ours, err, peer, ferr)
		}
	}
	type rec struct {
		S SimpleValue `cbor:"s"`
	}
	type frec struct {
		S fx.SimpleValue `cbor:"s"`
	}
	for _, v := range []uint8{0, 19, 20, 22, 23, 32, 255} {
		got, err := Marshal(rec{S: SimpleValue(v)})
		want, ferr := fx.Marshal(frec{S: fx.SimpleValue(v)})
		if err != nil || ferr != nil || fmt.Sprintf("%x", got) != fmt.Sprintf("%x", want) {
			t.Errorf("field %d: %x, %v; fxamacker %x, %v", v, got, err, want, ferr)
		}
		var back rec
		if err := Unmarshal(got, &back); err != nil || back.S != SimpleValue(v) {
			t.Errorf("field %d back: %d, %v", v, back.S, err)
		}
	}
}
