package cborfast

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"reflect"
	"sync"
	"testing"
)

// countItems counts data items as the corpus README does: every array, map,
// key, value and scalar (a tag and its content count once each).
func countItems(v any) int {
	n := 0
	stack := []any{v}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		switch t := x.(type) {
		case []any:
			stack = append(stack, t...)
		case Map:
			for _, p := range t {
				stack = append(stack, p.Key, p.Value)
			}
		case Tag:
			stack = append(stack, t.Content)
		}
	}
	return n
}

// floatSavings is how many bytes preferred serialization saves on the
// float64 items of v (all corpus floats are float64 on the wire).
func floatSavings(v any) int {
	saved := 0
	stack := []any{v}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := x.(type) {
		case float64:
			saved += 8 - shortestWidth(t)
		case []any:
			stack = append(stack, t...)
		case Map:
			for _, p := range t {
				stack = append(stack, p.Key, p.Value)
			}
		case Tag:
			stack = append(stack, t.Content)
		}
	}
	return saved
}

func TestCorpusRoundTrip(t *testing.T) {
	before := liveHandles
	for _, c := range []struct {
		name  string
		items int
	}{
		{"twitter", 27259}, {"citm_catalog", 63647}, {"canada", 167187},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := readCorpus(t, c.name)
			v, err := Decode(in)
			if err != nil {
				t.Fatal(err)
			}
			if n := countItems(v); n != c.items {
				t.Errorf("%d data items, want %d", n, c.items)
			}
			out, err := Encode(v)
			if err != nil {
				t.Fatal(err)
			}
			// Integers and lengths are already shortest in the corpus; only
			// float64 items may shrink.
			saved := floatSavings(v)
			if len(out) != len(in)-saved {
				t.Errorf("re-encoded %d bytes, want %d - %d", len(out), len(in), saved)
			}
			if saved == 0 && !bytes.Equal(out, in) {
				t.Errorf("re-encoding without floats to shrink differs from the input")
			}
			v2, err := Decode(out)
			if err != nil {
				t.Fatal(err)
			}
			if !equal(v2, v) {
				t.Errorf("Decode(Encode(Decode(x))) differs from Decode(x)")
			}
		})
	}
	checkNoLeaks(t, before)
}

func TestDeepNesting(t *testing.T) {
	before := liveHandles
	const depth = 10000
	for _, c := range []struct {
		name string
		open []byte
		wrap func(any) any
	}{
		{"arrays", []byte{0x81}, func(v any) any { return []any{v} }},
		{"maps", []byte{0xa1, 0x00}, func(v any) any { return Map{{uint64(0), v}} }},
		{"tags", []byte{0xd8, 0x64}, func(v any) any { return Tag{100, v} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := append(bytes.Repeat(c.open, depth), 0x17)
			v, err := DecodeOptions{MaxDepth: depth}.Decode(in)
			if err != nil {
				t.Fatal(err)
			}
			want := any(uint64(23))
			for i := 0; i < depth; i++ {
				want = c.wrap(want)
			}
			if !equal(v, want) {
				t.Fatal("decoded value differs")
			}
			out, err := Encode(v)
			if err != nil || !bytes.Equal(out, in) {
				t.Fatalf("Encode: %v (equal %v)", err, bytes.Equal(out, in))
			}
			// One level more than allowed, and the library's default of 512.
			_, err = DecodeOptions{MaxDepth: depth - 1}.Decode(in)
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeDepth || e.Offset != (depth-1)*len(c.open) {
				t.Errorf("MaxDepth %d: %v", depth-1, err)
			}
			_, err = Decode(in)
			if !errors.As(err, &e) || e.Code != CodeDepth || e.Offset != 512*len(c.open) {
				t.Errorf("default depth: %v", err)
			}
			_, err = EncodeOptions{MaxDepth: depth - 1}.Encode(v)
			if !errors.As(err, &e) || e.Code != CodeDepth {
				t.Errorf("EncodeOptions.MaxDepth %d: %v", depth-1, err)
			}
		})
	}
	checkNoLeaks(t, before)
}

// Integer boundaries: where the head grows a size, both signs, and the edges
// of uint64/int64 with the bignums just past them.
func TestIntegerBoundaries(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		hex  string
	}{
		{"23", uint64(23), "17"}, {"24", uint64(24), "1818"},
		{"255", uint64(255), "18ff"}, {"256", uint64(256), "190100"},
		{"65535", uint64(65535), "19ffff"}, {"65536", uint64(65536), "1a00010000"},
		{"2^32-1", uint64(1<<32 - 1), "1affffffff"}, {"2^32", uint64(1 << 32), "1b0000000100000000"},
		{"2^64-1", uint64(math.MaxUint64), "1bffffffffffffffff"},
		{"2^64", bigInt("18446744073709551616"), "c249010000000000000000"},
		{"-24", int64(-24), "37"}, {"-25", int64(-25), "3818"},
		{"-256", int64(-256), "38ff"}, {"-257", int64(-257), "390100"},
		{"-2^32", int64(-1 << 32), "3affffffff"}, {"-2^32-1", int64(-1<<32 - 1), "3b0000000100000000"},
		{"-2^63", int64(math.MinInt64), "3b7fffffffffffffff"},
		{"-2^63-1", bigInt("-9223372036854775809"), "3b8000000000000000"},
		{"-2^64", bigInt("-18446744073709551616"), "3bffffffffffffffff"},
		{"-2^64-1", bigInt("-18446744073709551617"), "c349010000000000000000"},
	} {
		out, err := Encode(c.v)
		want := unhex(t, c.hex)
		if err != nil || !bytes.Equal(out, want) {
			t.Errorf("%s: Encode = %x, %v; want %x", c.name, out, err, want)
		}
		got, err := Decode(want)
		if err != nil || !equal(got, c.v) {
			t.Errorf("%s: Decode = %#v, %v; want %#v", c.name, got, err, c.v)
		}
	}
}

// Bignums that are not in preferred form still decode to *big.Int.
func TestDecodeBignumForms(t *testing.T) {
	for _, c := range []struct {
		hex  string
		want any
	}{
		{"c2 40", new(big.Int)},                   // empty magnitude
		{"c2 43 000001", big.NewInt(1)},           // leading zeros
		{"c3 41 00", big.NewInt(-1)},              // -1 - 0
		{"c2 5f 41 01 41 00 ff", big.NewInt(256)}, // indefinite magnitude
		{"c2 61 31", Tag{2, "1"}},                 // not over bytes: a plain tag
	} {
		got, err := Decode(unhex(t, c.hex))
		if err != nil || !equal(got, c.want) {
			t.Errorf("Decode(%s) = %#v, %v; want %#v", c.hex, got, err, c.want)
		}
	}
}

func TestEncodeGoTypes(t *testing.T) {
	for _, c := range []struct {
		v   any
		hex string
	}{
		{int(-1), "20"}, {int8(-128), "387f"}, {int16(300), "19012c"}, {int32(-70000), "3a0001116f"},
		{int64(math.MinInt64), "3b7fffffffffffffff"}, {uint(7), "07"}, {uint8(255), "18ff"},
		{uint16(65535), "19ffff"}, {uint32(1 << 31), "1a80000000"},
		{float32(0.1), "fa3dcccccd"}, {float32(-2.5), "f9c100"}, {float64(0.1), "fb3fb999999999999a"},
		{big.NewInt(-1), "20"}, {bigInt("-18446744073709551616"), "3bffffffffffffffff"},
		{bigInt("18446744073709551615"), "1bffffffffffffffff"}, {new(big.Int), "00"},
		{*bigInt("18446744073709551616"), "c249010000000000000000"},
		{(*big.Int)(nil), "f6"}, {[]byte(nil), "40"}, {[]any(nil), "80"}, {Map(nil), "a0"},
		{map[string]any{"b": 1, "a": 2, "aa": 3, "": nil}, "a4 60 f6 61 61 02 61 62 01 62 61 61 03"},
		{map[string]any{}, "a0"}, {Simple(0), "e0"}, {Simple(20), "f4"}, {Simple(32), "f820"},
		{Tag{2, "not bytes"}, "c2 69 6e6f74206279746573"}, {Tag{1 << 40, nil}, "db 0000010000000000 f6"},
		{Map{{[]byte{1}, []any{}}, {Map{}, Undefined}}, "a2 4101 80 a0 f7"},
		{string(make([]byte, 5000)), "79 1388" + string(bytes.Repeat([]byte("00"), 5000))},
	} {
		out, err := Encode(c.v)
		if want := unhex(t, c.hex); err != nil || !bytes.Equal(out, want) {
			t.Errorf("Encode(%#v) = %x, %v; want %x", c.v, out, err, want)
		}
	}
}

func TestMapGet(t *testing.T) {
	m := Map{{"a", uint64(1)}, {[]byte("a"), uint64(2)}, {uint64(3), "three"}, {[]any{}, "x"}, {"a", "dup"},
		{Tag{1, []any{}}, "tag over an array"}, {Tag{1, "t"}, "tag"}, {bigInt("18446744073709551616"), "big"},
		{nil, "null"}}
	for _, c := range []struct {
		key  any
		want any
		ok   bool
	}{
		{"a", uint64(1), true}, {[]byte("a"), uint64(2), true}, {uint64(3), "three", true},
		{int64(3), nil, false}, {[]any{}, nil, false}, {"b", nil, false},
		{Tag{1, []any{}}, nil, false}, {Tag{1, "t"}, "tag", true}, {Tag{2, "t"}, nil, false},
		{bigInt("18446744073709551616"), "big", true}, {nil, "null", true}, {Map{}, nil, false},
	} {
		got, ok := m.Get(c.key)
		if ok != c.ok || !equal(got, c.want) {
			t.Errorf("Get(%#v) = %#v, %v", c.key, got, ok)
		}
	}
}

// randValue makes a random value in the shapes Decode returns.
func randValue(r *rand.Rand, depth int) any {
	k := r.Intn(16)
	if depth > 4 && k >= 12 {
		k = r.Intn(12)
	}
	switch k {
	case 0:
		return r.Uint64() >> uint(r.Intn(64))
	case 1:
		return r.Uint64()
	case 2:
		return -1 - int64(r.Uint64()>>uint(1+r.Intn(63)))
	case 3:
		z := new(big.Int).Lsh(big.NewInt(1), uint(64+r.Intn(100)))
		z.Add(z, new(big.Int).SetUint64(r.Uint64()))
		if r.Intn(2) == 0 {
			z.Neg(z)
		}
		return z
	case 4:
		switch r.Intn(5) {
		case 0:
			return math.Float64frombits(r.Uint64())
		case 1:
			return float64(float32(r.NormFloat64()))
		case 2:
			return float64(r.Intn(4096)) / float64(int(1)<<uint(r.Intn(30)))
		case 3:
			return []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 65504, 5.960464477539063e-8}[r.Intn(7)]
		}
		return r.NormFloat64() * 1e10
	case 5:
		b := make([]byte, r.Intn(40))
		r.Read(b)
		return b
	case 6:
		b := make([]byte, r.Intn(40))
		r.Read(b)
		return string(b) // not always valid UTF-8: Decode does not check by default
	case 7:
		return []any{nil, true, false, Undefined}[r.Intn(4)]
	case 8:
		s := r.Intn(236)
		if s >= 20 {
			s += 12 // skip 20..31: false/true/null/undefined and the reserved 24..31
		}
		return Simple(s)
	case 9:
		return "short"
	case 10, 11:
		return uint64(r.Intn(24))
	case 12, 13:
		a := make([]any, r.Intn(6))
		for i := range a {
			a[i] = randValue(r, depth+1)
		}
		return a
	case 14:
		m := make(Map, r.Intn(5))
		for i := range m {
			m[i] = Pair{randValue(r, depth+1), randValue(r, depth+1)}
		}
		return m
	}
	n := r.Uint64() >> uint(r.Intn(64))
	if n == 2 || n == 3 {
		n = 4 // tags 2 and 3 over bytes would decode as bignums
	}
	return Tag{n, randValue(r, depth+1)}
}

func TestPropertyRoundTrip(t *testing.T) {
	before := liveHandles
	r := rand.New(rand.NewSource(8949))
	for i := 0; i < 4000; i++ {
		v := randValue(r, 0)
		out, err := Encode(v)
		if err != nil {
			t.Fatalf("#%d Encode(%#v): %v", i, v, err)
		}
		got, err := Decode(out)
		if err != nil {
			t.Fatalf("#%d Decode(%x): %v", i, out, err)
		}
		if !equal(got, v) {
			t.Fatalf("#%d round trip: %#v -> %x -> %#v", i, v, out, got)
		}
		again, err := Encode(got)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("#%d re-encoding differs: %x vs %x", i, again, out)
		}
		if f, ok := v.(float64); ok && len(out) != 1+shortestWidth(f) {
			t.Fatalf("#%d float %v (%#x) encoded as %x, want width %d", i, f,
				math.Float64bits(f), out, shortestWidth(f))
		}
	}
	checkNoLeaks(t, before)
}

// Goroutines that meet a struct type for the first time at once build and
// share its plans (and a mode's), which go.test_race checks.
func TestConcurrentFirstUseOfStructPlans(t *testing.T) {
	type inner struct {
		Name string   `cbor:"1,keyasint"`
		Tags []string `cbor:"2,keyasint,omitempty"`
	}
	type record struct {
		ID    uint64           `cbor:"id"`
		Items []inner          `cbor:"items"`
		Attrs map[string]int64 `cbor:"attrs"`
		Raw   []byte           `cbor:"raw,omitempty"`
		Next  *record          `cbor:"next,omitempty"`
	}
	em, err := EncOptions{Sort: SortCoreDeterministic}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	dm, err := DecOptions{DupMapKey: DupMapKeyEnforcedAPF}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				in := record{ID: uint64(g*1000 + i), Items: []inner{{Name: "a", Tags: []string{"x"}}, {Name: "b"}},
					Attrs: map[string]int64{"k": int64(i), "j": -1}, Next: &record{ID: 7}}
				var b []byte
				var err error
				if g%2 == 0 {
					b, err = em.Marshal(in)
				} else {
					b, err = Marshal(in)
				}
				var out record
				if err == nil {
					if g%2 == 0 {
						err = dm.Unmarshal(b, &out)
					} else {
						err = Unmarshal(b, &out)
					}
				}
				if err == nil && !reflect.DeepEqual(in, out) {
					err = fmt.Errorf("round trip differs: %+v", out)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestConcurrentDecodeEncode(t *testing.T) {
	in := unhex(t, "a26161016162820203")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				v, err := Decode(in)
				if err == nil {
					var out []byte
					out, err = Encode(v)
					if err == nil && !bytes.Equal(out, in) {
						err = errors.New("round trip differs")
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
