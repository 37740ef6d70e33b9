package cborfast

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

// anyLikeFx decodes in into `any` with both libraries, fails the test if
// either fails or the values differ, and returns ours.
func anyLikeFx(t *testing.T, in []byte, what string) any {
	t.Helper()
	var ours, peer any
	if err := Unmarshal(in, &ours); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := fx.Unmarshal(in, &peer); err != nil {
		t.Fatalf("%s: fxamacker: %v", what, err)
	}
	if !reflect.DeepEqual(ours, peer) {
		t.Fatalf("%s: decoded values differ from fxamacker", what)
	}
	return ours
}

// Byte strings decoded into an `any` share an arena and a slab of headers:
// each is its own value (capacity at its length, so an append copies), an
// empty one is non-nil, and Decode's types get the same.
func TestAnyByteStringsIndependent(t *testing.T) {
	// [h'0102', h'', h'030405', {1: h'06'}]
	in := unhex(t, "84 42 0102 40 43 030405 a1 01 41 06")
	var v any
	if err := Unmarshal(in, &v); err != nil {
		t.Fatal(err)
	}
	a := v.([]any)
	first, empty, third := a[0].([]byte), a[1].([]byte), a[2].([]byte)
	if !bytes.Equal(first, []byte{1, 2}) || !bytes.Equal(third, []byte{3, 4, 5}) {
		t.Fatalf("got %x %x", first, third)
	}
	if empty == nil || len(empty) != 0 {
		t.Fatalf("empty byte string: %#v, want []byte{}", empty)
	}
	if cap(first) != 2 || cap(third) != 3 {
		t.Fatalf("capacities %d %d, want 2 3", cap(first), cap(third))
	}
	grown := append(first, 0xff)
	grown[0] = 0xee
	if !bytes.Equal(first, []byte{1, 2}) || !bytes.Equal(third, []byte{3, 4, 5}) {
		t.Fatalf("an append wrote into a neighbour: %x %x", first, third)
	}
	if m := a[3].(map[any]any); !bytes.Equal(m[uint64(1)].([]byte), []byte{6}) {
		t.Fatalf("map value %#v", m[uint64(1)])
	}
	var p any
	if err := fx.Unmarshal(in, &p); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v, p) {
		t.Fatalf("differs from fxamacker: %#v vs %#v", v, p)
	}
	d, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if b := d.([]any)[1].([]byte); b == nil || len(b) != 0 {
		t.Fatalf("Decode: empty byte string %#v", b)
	}
	if b := d.([]any)[2].([]byte); !bytes.Equal(b, []byte{3, 4, 5}) || cap(b) != 3 {
		t.Fatalf("Decode: %x cap %d", b, cap(b))
	}
}

// Text map keys go through a cache once a value has had 64 of them; keys
// that land in one slot (or differ in one byte), repeated keys, long keys and
// keys across nested maps decode as fxamacker decodes them.
func TestAnyMapKeyCache(t *testing.T) {
	var recs []map[string]any
	for i := 0; i < 300; i++ {
		recs = append(recs, map[string]any{
			fmt.Sprintf("k%03d", i%97):       i,
			fmt.Sprintf("k%03d", (i+1)%97):   "v",
			"areaId":                         uint64(i),
			"areaIe":                         -i,
			"a":                              []byte{byte(i)},
			"a-key-longer-than-32-bytes-...": true,
			fmt.Sprintf("%d", 1000+i):        map[string]any{"areaId": i, "x": nil},
		})
	}
	in, err := fx.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	ours := anyLikeFx(t, in, "records")
	// Keys of 1..32 bytes that share their slot (length, first, middle and
	// last bytes: the hash) and differ in one other byte, taking turns:
	// the cache must tell every pair apart, whichever word holds the byte.
	var slotKeys []map[string]any
	for n := 1; n <= 32; n++ {
		for p := 0; p < n; p++ {
			if p == 0 || p == n>>1 || p == n-1 {
				continue
			}
			k := []byte(strings.Repeat("q", n))
			k[p] = 'x'
			slotKeys = append(slotKeys, map[string]any{strings.Repeat("q", n): n, string(k): p})
		}
	}
	for r := 0; r < 2; r++ {
		in, err := fx.Marshal(slotKeys)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range anyLikeFx(t, in, "slot-sharing keys").([]any) {
			if len(m.(map[any]any)) != 2 {
				t.Fatalf("slot-sharing keys merged: %v", m)
			}
		}
	}
	for i, r := range ours.([]any) {
		m := r.(map[any]any)
		if len(m) != 7 {
			t.Fatalf("record %d has %d keys, want 7", i, len(m))
		}
		if got := m[fmt.Sprintf("k%03d", i%97)]; got != uint64(i) {
			t.Fatalf("record %d: k%03d = %#v", i, i%97, got)
		}
	}
}

// Arrays whose leading floats and unsigned integers are read straight into
// them: runs that end with another type, cross the library's batches of
// items, fill the capacity given (over 65,536 elements), or come in
// indefinite-length arrays, decode into `any` as fxamacker decodes them.
func TestAnyArrayScalarRuns(t *testing.T) {
	big := make([]any, 70000)
	for i := range big {
		big[i] = float64(i) + 0.5
		if i%3 == 0 {
			big[i] = uint64(i)
		}
	}
	mixed := []any{1.5, uint64(2), uint64(300), 2.5, int64(-3), 4.5, "x", uint64(1 << 40)}
	var runs []any
	for n := 0; n < 700; n += 7 {
		a := make([]any, n)
		for i := range a {
			a[i] = float64(i)
		}
		runs = append(runs, a, []any{uint64(n), nil, 1.25})
	}
	indef := []byte{0x9f, 0xfb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0x18, 0x2a, 0x9f, 0x01, 0xff, 0xff} // [_ 1.5, 42, [_ 1]]
	vals := []any{big, mixed, runs, []any{[]any{1.5, 2.5}, map[any]any{"k": []any{uint64(1), 2.0}}}}
	for i, v := range vals {
		in, err := fx.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if ours := anyLikeFx(t, in, fmt.Sprintf("value %d", i)); !reflect.DeepEqual(ours, v) {
			t.Fatalf("value %d: decoded value differs from the source", i)
		}
		d, err := Decode(in)
		if err != nil || !reflect.DeepEqual(d, v) && i != 3 {
			t.Fatalf("value %d: Decode differs (%v)", i, err)
		}
	}
	anyLikeFx(t, indef, "indefinite")
}

// Empty arrays decoded into an `any` (and by Decode) share one boxed
// []any{} header: each is non-nil with length and capacity 0, as
// fxamacker's, an append to one leaves the others empty, and 600 of them
// allocate as often as 6 (no slab slot each).
func TestAnyEmptyArraysShared(t *testing.T) {
	// [[], [1, []], {"a": []}, []]
	in := unhex(t, "84 80 82 01 80 a1 61 61 80 80")
	v := anyLikeFx(t, in, "empty arrays")
	a := v.([]any)
	empties := []any{a[0], a[1].([]any)[1], a[2].(map[any]any)["a"], a[3]}
	for i, e := range empties {
		s, ok := e.([]any)
		if !ok || s == nil || len(s) != 0 || cap(s) != 0 {
			t.Fatalf("empty array %d: %#v", i, e)
		}
	}
	if one := a[1].([]any); len(one) != 2 || one[0] != uint64(1) {
		t.Fatalf("[1, []]: %#v", one)
	}
	grown := append(empties[0].([]any), "x")
	if len(grown) != 1 || len(empties[3].([]any)) != 0 || len(a[0].([]any)) != 0 {
		t.Fatalf("an append changed another empty array: %v %v", empties[3], a[0])
	}
	d, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := d.([]any)[3].([]any); !ok || s == nil || len(s) != 0 {
		t.Fatalf("Decode: %#v", d)
	}
	doc := func(n int) []byte { // [[], [], ...]
		return append(appendHead(nil, 0x80, uint64(n)), bytes.Repeat([]byte{0x80}, n)...)
	}
	small, big := doc(6), doc(600)
	allocs := func(in []byte) float64 {
		return testing.AllocsPerRun(50, func() {
			var v any
			if err := Unmarshal(in, &v); err != nil {
				t.Fatal(err)
			}
		})
	}
	if s, b := allocs(small), allocs(big); s != b {
		t.Errorf("6 empty arrays: %.0f allocations, 600: %.0f", s, b)
	}
}

// Short byte and text strings decoded into `any` are copied into the arena
// behind their headers, and the interface points at the header: that must
// keep the arena chunk alive on its own. Values kept only as interfaces (the
// decoded array dropped), and bytes kept only as a []byte copied out, must
// survive collections while freed 16 KiB chunks are reused and overwritten.
func TestAnyStringsOutliveTheirArray(t *testing.T) {
	const n = 3000 // about 60 bytes of arena each: a dozen chunks
	var enc []byte
	enc = append(enc, 0x99, n>>8, n&0xff) // array(n)
	want := make([]string, n)
	for i := range want {
		want[i] = fmt.Sprintf("value %04d %s", i, strings.Repeat("x", i%23))
		if i%2 == 0 {
			enc = append(enc, 0x58, byte(len(want[i]))) // byte string
		} else {
			enc = append(enc, 0x78, byte(len(want[i]))) // text string
		}
		enc = append(enc, want[i]...)
	}
	kept := make([]any, n)
	var lone []byte
	func() {
		var v any
		if err := Unmarshal(enc, &v); err != nil {
			t.Fatal(err)
		}
		copy(kept, v.([]any))
		lone = v.([]any)[n-2].([]byte)
		kept[n-2] = nil
	}()
	var junk [][]byte
	for round := 0; round < 4; round++ {
		runtime.GC()
		for j := 0; j < 64; j++ {
			b := make([]byte, 16<<10)
			for k := range b {
				b[k] = 0xaa
			}
			junk = append(junk, b)
		}
		junk = junk[:0]
	}
	for i, v := range kept {
		var got string
		switch x := v.(type) {
		case []byte:
			got = string(x)
			if cap(x) != len(x) {
				t.Fatalf("%d: cap %d, len %d", i, cap(x), len(x))
			}
		case string:
			got = x
		case nil:
			got = string(lone)
		}
		if got != want[i] {
			t.Fatalf("%d: %q, want %q", i, got, want[i])
		}
	}
}

// Maps decoded into `any` take runs of scalar pairs in a loop of their own
// (mapScalars): pairs of every scalar kind, runs broken by containers, tags
// and indefinite strings and resumed after them, pairs across the batches
// of 512 items, repeated keys (the last wins), negative keys beyond the
// static table and integers beyond int64, decoded as fxamacker decodes them;
// the options that look at each pair still apply.
func TestAnyMapScalarPairs(t *testing.T) {
	h := func(s string) []byte { return unhex(t, s) }
	var big []byte
	big = append(big, 0xb9, 0x03, 0x20) // map(800)
	for i := 0; i < 800; i++ {
		switch i % 5 {
		case 0: // uint key, byte string value
			big = append(big, 0x19, byte(i>>8), byte(i), 0x43, 1, 2, byte(i))
		case 1: // text key, text value
			big = append(big, 0x64, 'k', byte('0'+i/100), byte('0'+i/10%10), byte('0'+i%10), 0x61, 'v')
		case 2: // negative key past the table, float value
			big = append(big, 0x39, byte((i+300)>>8), byte(i+300), 0xf9, 0x3c, 0x00)
		case 3: // small negative key, an array value
			big = append(big, 0x38, byte(i%256), 0x82, 0x01, 0xf5)
		case 4: // uint key, negative value past the table, then null
			big = append(big, 0x1a, 0, 1, byte(i>>8), byte(i), 0x39, 0x12, 0x34)
		}
	}
	inputs := [][]byte{
		big,
		// {1: 2, "a": h'', -1: -1000, 2: 1.5, 3: true, 4: null, 5: false}
		h("a7 01 02 61 61 40 20 39 03 e7 02 fb 3ff8000000000000 03 f5 04 f6 05 f4"),
		// a container, a tag and an indefinite string break the run
		h("a6 01 81 02 02 c1 1a 514b67b0 03 5f 41 01 ff 04 7f 61 61 ff 05 61 62 06 1b ffffffffffffffff"),
		// repeated keys: the last value stays
		h("a4 01 02 01 03 61 6b 01 61 6b 02"),
		// an integer below -2^63 as a value (a big.Int), an indefinite map
		h("bf 01 3b 8000000000000000 02 61 6b 18 2a f5 ff"),
		// nested maps of scalars inside arrays and maps
		h("82 a2 01 02 03 a1 04 05 a1 61 6b a2 20 21 22 23"),
	}
	for i, in := range inputs {
		anyLikeFx(t, in, fmt.Sprintf("input %d", i))
	}
	// Options that look at each pair: duplicate keys as Go values, byte
	// strings as another type.
	dupIn := h("a3 01 41 01 02 41 02 01 41 03")
	dm, _ := DecOptions{DupMapKey: DupMapKeyEnforcedAPF}.DecMode()
	var v any
	if err := dm.Unmarshal(dupIn, &v); !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("DupMapKeyEnforcedAPF: %v", err)
	}
	var e *Error
	if !errors.As(dupIn2err(dm, dupIn), &e) || e.Offset != 7 {
		t.Fatalf("DupMapKeyEnforcedAPF: offset %+v, want 7", e)
	}
	sm, _ := DecOptions{DefaultByteStringType: reflect.TypeFor[string](), ByteStringToString: ByteStringToStringAllowed}.DecMode()
	v = nil
	if err := sm.Unmarshal(h("a2 01 41 61 02 42 62 63"), &v); err != nil {
		t.Fatal(err)
	}
	if want := map[any]any{uint64(1): "a", uint64(2): "bc"}; !reflect.DeepEqual(v, want) {
		t.Fatalf("DefaultByteStringType: %#v", v)
	}
}

func dupIn2err(dm DecMode, in []byte) error {
	var v any
	return dm.Unmarshal(in, &v)
}
