package cborfast

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

// unhex decodes a hex string written with optional spaces.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func bigInt(s string) *big.Int {
	z, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("bad big integer " + s)
	}
	return z
}

// equal compares decoded values: floats by bits (so NaN payloads and -0
// count), big integers by value, byte slices by content, the rest by type
// and value. It recurses, which is fine for test data.
func equal(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case *big.Int:
		y, ok := b.(*big.Int)
		return ok && x.Cmp(y) == 0
	case []byte:
		y, ok := b.([]byte)
		return ok && y != nil && x != nil && string(x) == string(y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case Map:
		y, ok := b.(Map)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !equal(x[i].Key, y[i].Key) || !equal(x[i].Value, y[i].Value) {
				return false
			}
		}
		return true
	case Tag:
		y, ok := b.(Tag)
		return ok && x.Number == y.Number && equal(x.Content, y.Content)
	case nil, bool, uint64, int64, string, Simple, UndefinedType:
		return a == b
	}
	panic(fmt.Sprintf("equal: unexpected type %T", a))
}

// shortestWidth is the float width preferred serialization must pick for f,
// computed here independently of the library: the smallest IEEE format that
// holds f exactly (NaN payloads included).
func shortestWidth(f float64) int {
	if math.IsNaN(f) {
		mant := math.Float64bits(f) & (1<<52 - 1)
		switch {
		case mant&(1<<42-1) == 0:
			return 2
		case mant&(1<<29-1) == 0:
			return 4
		}
		return 8
	}
	if math.IsInf(f, 0) || f == 0 {
		return 2
	}
	if float64(float32(f)) != f {
		return 8
	}
	a := math.Abs(f)
	switch {
	case a > 65504:
		return 4
	case a >= 1.0/16384: // normal half: 11 significant bits
		frac, _ := math.Frexp(a)
		if k := frac * 2048; k == math.Trunc(k) {
			return 2
		}
	default: // subnormal half: a multiple of 2^-24
		if k := a * (1 << 24); k == math.Trunc(k) {
			return 2
		}
	}
	return 4
}

func TestShortestWidthHelper(t *testing.T) {
	for _, c := range []struct {
		f float64
		w int
	}{
		{1.0, 2}, {1.5, 2}, {65504, 2}, {65505, 4}, {100000, 4}, {1.1, 8},
		{5.960464477539063e-8, 2}, {0.00006103515625, 2}, {2.98e-8, 8},
		{3.4028234663852886e+38, 4}, {1e300, 8}, {-4.1, 8}, {math.Inf(-1), 2},
		{math.Float64frombits(0x7ff8000000000000), 2},
		{math.Float64frombits(0x7ff8000020000000), 4},
		{math.Float64frombits(0x7ff8000000000001), 8},
	} {
		if got := shortestWidth(c.f); got != c.w {
			t.Errorf("shortestWidth(%v) = %d, want %d", c.f, got, c.w)
		}
	}
}

// corpusDir is CBOR_FAST_CORPUS_DIR (set by ctest) or the shared folder next
// to the repository.
func corpusDir(t testing.TB) string {
	if d := os.Getenv("CBOR_FAST_CORPUS_DIR"); d != "" {
		return d
	}
	d := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("no corpus: set CBOR_FAST_CORPUS_DIR (%v)", err)
	}
	return d
}

func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir(t), name+".cbor"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkNoLeaks fails if C handles or buffers made by the package are still live.
func checkNoLeaks(t *testing.T, before int64) {
	t.Helper()
	if n := atomic.LoadInt64(&liveHandles); n != before {
		t.Errorf("live C handles: %d, want %d", n, before)
	}
}

// readAllItems reads every item of in with one Next call each (the reference
// the batched reads are compared with) and closes the reader.
func readAllItems(t *testing.T, in []byte) []Item {
	t.Helper()
	var items []Item
	r := NewReader(in)
	defer r.Close()
	for {
		it, err := r.Next()
		if err == io.EOF {
			return items
		}
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
}

// sameBothWaysAsFx checks that Marshal(v) writes fxamacker's bytes for v and
// that Unmarshal of them into a new value of v's type gives what
// fxamacker's gives.
func sameBothWaysAsFx(t *testing.T, v any) {
	t.Helper()
	got, err := Marshal(v)
	want, ferr := fx.Marshal(v)
	if err != nil || ferr != nil || !bytes.Equal(got, want) {
		t.Errorf("Marshal(%#v): %x, %v; fxamacker %x, %v", v, got, err, want, ferr)
		return
	}
	rt := reflect.TypeOf(v)
	ours, peer := reflect.New(rt), reflect.New(rt)
	err, ferr = Unmarshal(want, ours.Interface()), fx.Unmarshal(want, peer.Interface())
	if err != nil || ferr != nil || !reflect.DeepEqual(ours.Elem().Interface(), peer.Elem().Interface()) {
		t.Errorf("Unmarshal(%x) into %v: %#v, %v; fxamacker %#v, %v", want, rt, ours.Elem(), err, peer.Elem(), ferr)
	}
}
