package cborfast

import (
	"bytes"
	"errors"
	"net/netip"
	"net/url"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

// binVal implements encoding.BinaryMarshaler on the value and
// BinaryUnmarshaler on the pointer; its exported field shows which way a
// value went (the struct's own map, or the bytes).
type binVal struct{ N uint8 }

func (v binVal) MarshalBinary() ([]byte, error) {
	if v.N == 0 {
		return nil, nil
	}
	if v.N == 255 {
		return nil, errors.New("binVal: 255")
	}
	return []byte{'b', v.N}, nil
}

func (v *binVal) UnmarshalBinary(b []byte) error {
	if len(b) == 0 {
		v.N = 0
		return nil
	}
	if len(b) != 2 || b[0] != 'b' {
		return errors.New("binVal: bad bytes")
	}
	v.N = b[1]
	return nil
}

// Types implementing encoding.BinaryMarshaler are written as the byte
// string MarshalBinary gives, and a byte string decoded into one goes to
// UnmarshalBinary, as fxamacker (netip.Addr was written as a0, an empty map
// of its unexported fields, and came back as the zero address).
func TestBinaryMarshalerAgainstFxamacker(t *testing.T) {
	addr := netip.MustParseAddr("192.168.1.1")
	u, _ := url.Parse("https://example.com/a?b=c")
	type withFields struct {
		A netip.Addr   `cbor:"a"`
		P netip.Prefix `cbor:"p"`
		U *url.URL     `cbor:"u"`
		V binVal       `cbor:"v"`
		E binVal       `cbor:"e,omitempty"` // MarshalBinary empty: omitted
		L []binVal     `cbor:"l"`
	}
	values := []any{
		addr, netip.MustParseAddr("::1"), netip.Addr{}, netip.MustParsePrefix("10.0.0.0/8"), u,
		binVal{N: 7}, &binVal{N: 9}, binVal{},
		withFields{A: addr, P: netip.MustParsePrefix("fe80::/10"), U: u, V: binVal{N: 1}, L: []binVal{{N: 2}, {N: 3}}},
		map[netip.Addr]int{addr: 1},
	}
	for _, v := range values {
		sameBothWaysAsFx(t, v)
	}
	if b, _ := Marshal(addr); !bytes.Equal(b, unhex(t, "44 c0a80101")) {
		t.Errorf("netip.Addr: %x", b)
	}

	// Other items decode into the type itself; a bad byte string is
	// UnmarshalBinary's error, as it is (fxamacker returns it too).
	var v binVal
	if err := Unmarshal(unhex(t, "a1 614e 05"), &v); err != nil || v.N != 5 {
		t.Errorf("map into binVal: %+v, %v", v, err)
	}
	err := Unmarshal(unhex(t, "42 7a01"), &v)
	ferr := fx.Unmarshal(unhex(t, "42 7a01"), &v)
	if err == nil || ferr == nil || err.Error() != "binVal: bad bytes" || err.Error() != ferr.Error() {
		t.Errorf("bad bytes: %v; fxamacker %v", err, ferr)
	}
	// MarshalBinary's error is Marshal's.
	if _, err := Marshal(binVal{N: 255}); err == nil || err.Error() != "binVal: 255" {
		t.Errorf("MarshalBinary error: %v", err)
	}
	// An indefinite byte string is joined first.
	if err := Unmarshal(unhex(t, "5f 4162 4109 ff"), &v); err != nil || v.N != 9 {
		t.Errorf("indefinite bytes: %+v, %v", v, err)
	}
	// The input is copied before UnmarshalBinary sees it.
	data := unhex(t, "44 0a000001")
	var a netip.Addr
	if err := Unmarshal(data, &a); err != nil || a != netip.MustParseAddr("10.0.0.1") {
		t.Fatalf("%v, %v", a, err)
	}

	// The None modes: the type as if it had no such method.
	em, _ := EncOptions{BinaryMarshaler: BinaryMarshalerNone}.EncMode()
	fem, _ := fx.EncOptions{BinaryMarshaler: fx.BinaryMarshalerNone}.EncMode()
	for _, v := range []any{binVal{N: 7}, withFields{V: binVal{N: 1}}} {
		got, err := em.Marshal(v)
		want, ferr := fem.Marshal(v)
		if err != nil || ferr != nil || !bytes.Equal(got, want) {
			t.Errorf("BinaryMarshalerNone %#v: %x, %v; fxamacker %x, %v", v, got, err, want, ferr)
		}
	}
	dm, _ := DecOptions{BinaryUnmarshaler: BinaryUnmarshalerNone}.DecMode()
	fdm, _ := fx.DecOptions{BinaryUnmarshaler: fx.BinaryUnmarshalerNone}.DecMode()
	var ov, pv binVal
	err, ferr = dm.Unmarshal(unhex(t, "42 6207"), &ov), fdm.Unmarshal(unhex(t, "42 6207"), &pv)
	var te *UnmarshalTypeError
	if !errors.As(err, &te) || ferr == nil || ov.N != 0 {
		t.Errorf("BinaryUnmarshalerNone: %+v, %v; fxamacker %v", ov, err, ferr)
	}
	if _, err := (EncOptions{BinaryMarshaler: 2}).EncMode(); err == nil {
		t.Error("BinaryMarshaler 2 accepted")
	}
	if _, err := (DecOptions{BinaryUnmarshaler: -1}).DecMode(); err == nil {
		t.Error("BinaryUnmarshaler -1 accepted")
	}
}

// bSl is a byte slice with its own binary form (the bytes reversed).
type bSl []byte

func (b *bSl) UnmarshalBinary(data []byte) error {
	*b = make(bSl, len(data))
	for i, c := range data {
		(*b)[len(data)-1-i] = c
	}
	return nil
}

// Tags in front of the byte string are passed over before UnmarshalBinary
// (fxamacker's default); they made a netip.Addr a type error and a byte
// slice type take the bytes as they were, without its UnmarshalBinary.
func TestBinaryUnmarshalerUnderTags(t *testing.T) {
	for _, h := range []string{"4401020304", "d8204401020304", "d54401020304", "d9d9f74401020304",
		"c24401020304", "c34401020304", "d820d8214401020304", "c04401020304", "c1 6161"} {
		var a, fa netip.Addr
		err, ferr := Unmarshal(unhex(t, h), &a), fx.Unmarshal(unhex(t, h), &fa)
		if (err == nil) != (ferr == nil) || a != fa {
			t.Errorf("%s into netip.Addr: %v, %v; fxamacker %v, %v", h, a, err, fa, ferr)
		}
		var b, fb bSl
		err, ferr = Unmarshal(unhex(t, h), &b), fx.Unmarshal(unhex(t, h), &fb)
		if (err == nil) != (ferr == nil) || !bytes.Equal(b, fb) {
			t.Errorf("%s into bSl: %x, %v; fxamacker %x, %v", h, []byte(b), err, []byte(fb), ferr)
		}
	}
	var a netip.Addr
	if err := Unmarshal(unhex(t, "d8204401020304"), &a); err != nil || a != netip.MustParseAddr("1.2.3.4") {
		t.Errorf("%v, %v", a, err)
	}
}
