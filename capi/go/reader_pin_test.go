package cborfast

import (
	"bytes"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
)

// The Reader reads the caller's slice itself (pinned), not a copy: a byte
// changed after NewReader is what Next parses, strings and joined definite
// strings are the caller's memory, and the only C object is the reader.
func TestReaderPinsInput(t *testing.T) {
	before := atomic.LoadInt64(&liveHandles)
	in := unhex(t, "01 43 616263 5f 42 6465 ff")
	r := NewReader(in)
	if n := atomic.LoadInt64(&liveHandles); n != before+1 {
		t.Fatalf("NewReader holds %d C objects, want 1 (the reader; no copy of the input)", n-before)
	}
	in[0] = 0x17 // read after NewReader: no copy was made
	it, err := r.Next()
	if err != nil || it.Type != TypeUint || it.Value != 23 {
		t.Fatalf("first item %+v %v, want the changed byte (23)", it, err)
	}
	if it, err = r.Next(); err != nil || &it.Data[0] != &in[2] {
		t.Fatalf("byte string not in the caller's slice: %v", err)
	}
	j, err := r.Join()
	if err != nil || &j[0] != &in[2] || string(j) != "abc" {
		t.Fatalf("Join of a definite string: %q %v", j, err)
	}
	if it, err = r.Next(); err != nil || !it.Indefinite {
		t.Fatalf("indefinite string: %+v %v", it, err)
	}
	if j, err = r.Join(); err != nil || string(j) != "de" {
		t.Fatalf("Join of an indefinite string: %q %v", j, err)
	}
	r.Close()
	checkNoLeaks(t, before)
	// A Reader over the middle of a larger slice, then closed twice.
	big := unhex(t, "ff ff 62 6869 ff")
	r = NewReader(big[2:5])
	if it, err := r.Next(); err != nil || string(it.Data) != "hi" || &it.Data[0] != &big[3] {
		t.Fatalf("sub-slice: %+v %v", it, err)
	}
	r.Close()
	r.Close()
	checkNoLeaks(t, before)
}

// Opening a Reader allocates the same on 1 KiB and 1 MiB: a few Go
// allocations, none sized by the input (a C copy, which the Go counters do
// not see, is what TestReaderPinsInput rules out; BenchmarkReaderOpen shows
// the time).
func TestReaderOpenDoesNotCopy(t *testing.T) {
	for _, n := range []int{1 << 10, 1 << 20} {
		in := bytes.Repeat([]byte{0x00}, n)
		allocs := testing.AllocsPerRun(100, func() {
			r := NewReader(in)
			if _, err := r.Next(); err != nil {
				t.Fatal(err)
			}
			r.Close()
		})
		if allocs > 4 {
			t.Errorf("%d bytes: %.0f allocations per open", n, allocs)
		}
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		for i := 0; i < 10; i++ {
			NewReader(in).Close()
		}
		runtime.ReadMemStats(&ms1)
		if grown := ms1.TotalAlloc - ms0.TotalAlloc; grown > 10*1024 {
			t.Errorf("%d bytes: 10 opens allocated %d bytes", n, grown)
		}
	}
}

// BenchmarkReaderOpen: NewReader, one item, Close, on 1 KiB and 1 MiB.
func BenchmarkReaderOpen(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
	}{{"1KiB", 1 << 10}, {"1MiB", 1 << 20}} {
		in := bytes.Repeat([]byte{0x00}, c.n)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r := NewReader(in)
				if _, err := r.Next(); err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
		})
	}
}

// Reading an input in batches allocates nothing per batch: Unmarshal into
// `any` of an array of 20,000 small integers (40 batches) allocates as
// often as one of 500 (one batch; the values are boxed from static tables,
// the array is one allocation, its header a slab slot). The batch call's
// count was a local moved to the heap: 39 more allocations.
func TestBatchesDoNotAllocate(t *testing.T) {
	if underASan {
		t.Skip("-asan instruments Go's allocations: counts differ")
	}
	doc := func(n int) []byte {
		b := appendHead(nil, 0x80, uint64(n))
		for i := 0; i < n; i++ {
			b = append(b, byte(i%24))
		}
		return b
	}
	small, big := doc(500), doc(20000)
	for _, in := range [][]byte{small, big} {
		var v any
		if err := Unmarshal(in, &v); err != nil {
			t.Fatal(err)
		}
		a, ok := v.([]any)
		if !ok || len(a) != len(in)-3 {
			t.Fatalf("decoded %T of %d items", v, len(a))
		}
		for i, x := range a {
			if x != uint64(i%24) {
				t.Fatalf("item %d: %v", i, x)
			}
		}
	}
	allocs := func(in []byte) float64 {
		return testing.AllocsPerRun(20, func() {
			var v any
			if err := Unmarshal(in, &v); err != nil {
				t.Fatal(err)
			}
		})
	}
	// (A collection during the runs may empty the reader pool: a new
	// reader is a few allocations, shared out over the runs.)
	if s, b := allocs(small), allocs(big); b > s+2 {
		t.Errorf("500 items: %.0f allocations, 20,000 items: %.0f", s, b)
	}
}

// Values built into `any` one element at a time (a []any, a struct's `any`
// fields) share one frame stack, kept between them: each made its stack
// afresh, so 4,000 elements nested 30 deep took 47 MB into []any against
// 5.3 MB into one `any`. Bytes allocated into []any must stay within 1.5
// times those into `any` (the slice's own header and growth aside).
func TestNestedAnyElementsShareTheirFrames(t *testing.T) {
	if underASan || underRace {
		t.Skip("-asan and -race change what allocates")
	}
	elem := append(bytes.Repeat([]byte{0x81}, 29), 0x01)
	in := appendHead(nil, 0x80, 4000)
	for i := 0; i < 4000; i++ {
		in = append(in, elem...)
	}
	allocated := func(v any) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		if err := Unmarshal(in, v); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	var one any
	var each []any
	allocated(&one) // warm the pools
	whole, elements := allocated(&one), allocated(&each)
	if len(each) != 4000 || !reflect.DeepEqual(each[3999], one.([]any)[3999]) {
		t.Fatalf("decoded %d elements", len(each))
	}
	if float64(elements) > 1.5*float64(whole) {
		t.Errorf("into []any %d bytes, into any %d: more than 1.5 times", elements, whole)
	}
}
