package cborfast

// Number slices: the bulk route (Unmarshal into []float64/[]uint64, RFC 8746
// typed arrays, EncOptions.TypedArrays) against the element-by-element route
// it replaces (the same decoder on a named element type, which keeps that
// route) and fxamacker/cbor, in one test binary:
//
//	go test -run '^$' -bench BulkSlices -benchmem -count 5 .
//	CBOR_FAST_GO_BULK_CALLGRIND=<case>/<entry>:<n> valgrind --tool=callgrind \
//	  --toggle-collect='*bulkCallgrindOps*' ./cborfast.test -test.run TestBulkCallgrind
//
// Every entry's result is checked once against the first entry's before
// timing.

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

type namedF64 float64
type namedU64 uint64

type bulkEntry struct {
	name string
	run  func() any
}

type bulkCase struct {
	name    string
	entries []bulkEntry
}

func bulkBenchCases(tb testing.TB) []bulkCase {
	floats := make([]float64, 100000)
	u32 := make([]uint64, 100000)
	for i := range floats {
		floats[i] = float64(i)*0.37 + 0.001
		u32[i] = 100000 + uint64(i)*40000
	}
	big := make([]float64, 1000000)
	for i := range big {
		big[i] = float64(i)*0.25 + 0.001
	}
	fdata, _ := fx.Marshal(floats) // doubles throughout (fxamacker's default)
	udata, _ := Marshal(u32)
	typedMode, _ := EncOptions{TypedArrays: true}.EncMode()
	tdata, _ := typedMode.Marshal(big)
	plainBig, _ := fx.Marshal(big)
	fxLarge, _ := fx.DecOptions{MaxArrayElements: 1 << 24}.DecMode() // 1M elements: over the 131072 default
	return []bulkCase{
		{"decode_100k_float64", []bulkEntry{
			{"cborfast_bulk", func() any { var v []float64; must(tb, Unmarshal(fdata, &v)); return v }},
			{"cborfast_element_by_element", func() any { var v []namedF64; must(tb, Unmarshal(fdata, &v)); return v }},
			{"fxamacker", func() any { var v []float64; must(tb, fx.Unmarshal(fdata, &v)); return v }},
		}},
		{"decode_100k_uint32_into_uint64", []bulkEntry{
			{"cborfast_bulk", func() any { var v []uint64; must(tb, Unmarshal(udata, &v)); return v }},
			{"cborfast_element_by_element", func() any { var v []namedU64; must(tb, Unmarshal(udata, &v)); return v }},
			{"fxamacker", func() any { var v []uint64; must(tb, fx.Unmarshal(udata, &v)); return v }},
		}},
		{"decode_1M_float64_typed", []bulkEntry{
			{"cborfast_unmarshal_typed", func() any { var v []float64; must(tb, Unmarshal(tdata, &v)); return v }},
			{"cborfast_DecodeFloat64Array", func() any { v, err := DecodeFloat64Array(tdata); must(tb, err); return v }},
			{"copy_of_the_8MB", func() any { v := make([]float64, len(big)); copy(v, big); return v }},
			{"fxamacker_plain_array", func() any { var v []float64; must(tb, fxLarge.Unmarshal(plainBig, &v)); return v }},
		}},
		{"encode_1M_float64", []bulkEntry{
			{"cborfast_TypedArrays", func() any { b, err := typedMode.Marshal(big); must(tb, err); return b }},
			{"cborfast_plain_array", func() any { b, err := Marshal(big); must(tb, err); return b }},
			{"fxamacker_plain_array", func() any { b, err := fx.Marshal(big); must(tb, err); return b }},
		}},
	}
}

func must(tb testing.TB, err error) {
	if err != nil {
		tb.Fatal(err)
	}
}

// normalize turns the named-element slices into plain ones (outside the timing).
func normalize(v any) any {
	switch x := v.(type) {
	case []namedF64:
		return toF64(x)
	case []namedU64:
		return toU64(x)
	}
	return v
}

func toF64(v []namedF64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func toU64(v []namedU64) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		out[i] = uint64(x)
	}
	return out
}

// checkBulkCase: decoders agree with the first entry; encoders' output
// decodes to the same slice.
func checkBulkCase(tb testing.TB, c bulkCase) {
	first := normalize(c.entries[0].run())
	for _, e := range c.entries[1:] {
		got := normalize(e.run())
		if b, ok := got.([]byte); ok {
			large, _ := DecOptions{MaxArrayElements: 1 << 24}.DecMode()
			var back []float64
			must(tb, large.Unmarshal(b, &back))
			var want []float64
			must(tb, large.Unmarshal(first.([]byte), &want))
			if !reflect.DeepEqual(back, want) {
				tb.Fatalf("%s/%s: decodes to other values", c.name, e.name)
			}
			continue
		}
		if !reflect.DeepEqual(got, first) {
			tb.Fatalf("%s/%s: differs from %s", c.name, e.name, c.entries[0].name)
		}
	}
}

func BenchmarkBulkSlices(b *testing.B) {
	for _, c := range bulkBenchCases(b) {
		checkBulkCase(b, c)
		for _, e := range c.entries {
			b.Run(c.name+"/"+e.name, func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					e.run()
				}
			})
		}
	}
}

//go:noinline
func bulkCallgrindOps(run func() any, n int) {
	for i := 0; i < n; i++ {
		run()
	}
}

// TestBulkCallgrind runs one entry n times inside bulkCallgrindOps.
func TestBulkCallgrind(t *testing.T) {
	spec := os.Getenv("CBOR_FAST_GO_BULK_CALLGRIND")
	if spec == "" {
		t.Skip("set CBOR_FAST_GO_BULK_CALLGRIND=<case>/<entry>:<n>")
	}
	var n int
	name, count, _ := strings.Cut(spec, ":")
	if _, err := fmt.Sscanf(count, "%d", &n); err != nil {
		t.Fatal(err)
	}
	for _, c := range bulkBenchCases(t) {
		for _, e := range c.entries {
			if c.name+"/"+e.name == name {
				e.run()
				bulkCallgrindOps(e.run, n)
				return
			}
		}
	}
	t.Fatalf("no entry %q", name)
}
