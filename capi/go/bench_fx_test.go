package cborfast

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	fx "github.com/fxamacker/cbor/v2"
)

// Side-by-side benchmarks against fxamacker/cbor in one process:
//
//	go test -run '^$' -bench 'Fx' -benchmem          # testing.B, one line each
//	CBOR_FAST_GO_BENCH=5 go test -run TestBenchTable -v   # medians of 5 runs, a table
//
// Each case checks its output once before timing.

type benchCase struct {
	name  string
	input []byte
	make  func() any // a new value to decode into
	value any        // a decoded value to encode
	// the input decoded into an `any` by each library, to encode
	anyOurs, anyPeer any
}

func benchCases(tb testing.TB) []benchCase {
	var cases []benchCase
	for _, c := range corpusSchemas {
		in := readCorpus(tb, c.file)
		v := c.make()
		if err := Unmarshal(in, v); err != nil {
			tb.Fatal(err)
		}
		cases = append(cases, benchCase{name: c.file, input: in, make: c.make, value: v})
	}
	recs := coseRecords(20000, 3)
	in, err := Marshal(recs)
	if err != nil {
		tb.Fatal(err)
	}
	cases = append(cases, benchCase{name: "cose_20k", input: in, make: func() any { return new([]coseKey) }, value: &recs})
	// One small message (29 bytes): what a call costs besides the data.
	small := smallMessage{ID: 42, Name: "widget", Val: 3.25}
	if in, err = Marshal(small); err != nil {
		tb.Fatal(err)
	}
	cases = append(cases, benchCase{name: "small", input: in, make: func() any { return new(smallMessage) }, value: &small})
	for i := range cases {
		c := &cases[i]
		if err := Unmarshal(c.input, &c.anyOurs); err != nil {
			tb.Fatal(err)
		}
		if err := fx.Unmarshal(c.input, &c.anyPeer); err != nil {
			tb.Fatal(err)
		}
	}
	return cases
}

// smallMessage is the "small" case: one message of three fields.
type smallMessage struct {
	ID   int     `cbor:"id"`
	Name string  `cbor:"name"`
	Val  float64 `cbor:"val"`
}

type benchOp struct {
	name       string
	ours, peer func(c *benchCase) func(b *testing.B)
}

var benchOps = []benchOp{
	{"Unmarshal struct",
		func(c *benchCase) func(b *testing.B) {
			return func(b *testing.B) {
				b.SetBytes(int64(len(c.input)))
				for i := 0; i < b.N; i++ {
					if err := Unmarshal(c.input, c.make()); err != nil {
						b.Fatal(err)
					}
				}
			}
		},
		func(c *benchCase) func(b *testing.B) {
			return func(b *testing.B) {
				b.SetBytes(int64(len(c.input)))
				for i := 0; i < b.N; i++ {
					if err := fx.Unmarshal(c.input, c.make()); err != nil {
						b.Fatal(err)
					}
				}
			}
		}},
	{"Marshal struct",
		func(c *benchCase) func(b *testing.B) {
			return func(b *testing.B) {
				b.SetBytes(int64(len(c.input)))
				for i := 0; i < b.N; i++ {
					if _, err := Marshal(c.value); err != nil {
						b.Fatal(err)
					}
				}
			}
		},
		func(c *benchCase) func(b *testing.B) {
			return func(b *testing.B) {
				b.SetBytes(int64(len(c.input)))
				for i := 0; i < b.N; i++ {
					if _, err := fx.Marshal(c.value); err != nil {
						b.Fatal(err)
					}
				}
			}
		}},
	{"Unmarshal any",
		func(c *benchCase) func(b *testing.B) {
			return func(b *testing.B) {
				b.SetBytes(int64(len(c.input)))
				for i := 0; i < b.N; i++ {
					var v any
					if err := Unmarshal(c.input, &v); err != nil {
						b.Fatal(err)
					}
				}
			}
		},
		func(c *benchCase) func(b *testing.B) {
			return func(b *testing.B) {
				b.SetBytes(int64(len(c.input)))
				for i := 0; i < b.N; i++ {
					var v any
					if err := fx.Unmarshal(c.input, &v); err != nil {
						b.Fatal(err)
					}
				}
			}
		}},
	{"Marshal any",
		func(c *benchCase) func(b *testing.B) { return marshalBench(c.anyOurs, Marshal) },
		func(c *benchCase) func(b *testing.B) { return marshalBench(c.anyPeer, fx.Marshal) }},
	{"Marshal any CoreDet",
		func(c *benchCase) func(b *testing.B) { return marshalBench(c.anyOurs, oursCoreDet.Marshal) },
		func(c *benchCase) func(b *testing.B) { return marshalBench(c.anyPeer, fxCoreDet.Marshal) }},
}

var (
	oursCoreDet = mustMode(CoreDetEncOptions().EncMode())
	fxCoreDet   = mustMode(fx.CoreDetEncOptions().EncMode())
)

func mustMode[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

// marshalBench: encode v (the input decoded into an `any`) with marshal.
func marshalBench(v any, marshal func(any) ([]byte, error)) func(b *testing.B) {
	return func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// checkBenchCase: both libraries give the same value and bytes before timing.
func checkBenchCase(tb testing.TB, c *benchCase) {
	ours, peer := c.make(), c.make()
	if err := Unmarshal(c.input, ours); err != nil {
		tb.Fatal(err)
	}
	if err := fx.Unmarshal(c.input, peer); err != nil {
		tb.Fatal(err)
	}
	if !reflect.DeepEqual(ours, peer) {
		tb.Fatalf("%s: decoded values differ", c.name)
	}
	var a, b any
	Unmarshal(c.input, &a)
	fx.Unmarshal(c.input, &b)
	if !reflect.DeepEqual(a, b) {
		tb.Fatalf("%s: decoded any values differ", c.name)
	}
	x, _ := Marshal(c.value)
	y, _ := fx.Marshal(c.value)
	if len(x) != len(y) {
		tb.Fatalf("%s: encoded sizes differ: %d vs %d", c.name, len(x), len(y))
	}
	// The decoded `any`s: the same size unsorted (Go's map order), the
	// same bytes sorted.
	x, err := Marshal(c.anyOurs)
	y, err2 := fx.Marshal(c.anyPeer)
	if err != nil || err2 != nil || len(x) != len(y) {
		tb.Fatalf("%s: Marshal of any: %d bytes, %v; fxamacker %d, %v", c.name, len(x), err, len(y), err2)
	}
	x, err = oursCoreDet.Marshal(c.anyOurs)
	y, err2 = fxCoreDet.Marshal(c.anyPeer)
	if err != nil || err2 != nil || !bytes.Equal(x, y) {
		tb.Fatalf("%s: CoreDet Marshal of any differs: %d bytes, %v; fxamacker %d, %v", c.name, len(x), err, len(y), err2)
	}
}

func BenchmarkFx(b *testing.B) {
	cases := benchCases(b)
	for i := range cases {
		c := &cases[i]
		checkBenchCase(b, c)
		for _, op := range benchOps {
			b.Run(op.name+"/"+c.name+"/cborfast", op.ours(c))
			b.Run(op.name+"/"+c.name+"/fxamacker", op.peer(c))
		}
	}
}

// cpuTime is the process's user and system CPU time: the benchmarked
// goroutine's and the collector's threads' (on a loaded machine, waiting
// for a core counts in the wall time, not here).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// gcCPU is the runtime's estimate of the CPU time its collector has taken
// (mark assists, the background and idle mark workers, pauses; brought up
// to date at the end of each cycle), for the collector's share of cpuTime.
func gcCPU() time.Duration {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	return time.Duration(s[0].Value.Float64() * 1e9)
}

// benchCPU runs f as testing.Benchmark does and also returns the CPU time
// per operation of its last (reported) run, and the collector's estimated
// share of it.
func benchCPU(f func(b *testing.B)) (testing.BenchmarkResult, float64, float64) {
	var cpu, gc time.Duration
	var n int
	r := testing.Benchmark(func(b *testing.B) {
		c0, g0 := cpuTime(), gcCPU()
		f(b)
		cpu, gc, n = cpuTime()-c0, gcCPU()-g0, b.N
	})
	return r, float64(cpu) / float64(n), float64(gc) / float64(n)
}

// TestBenchTable prints medians of CBOR_FAST_GO_BENCH interleaved runs of
// each pair and their ratio (a Markdown table for BENCHMARKS.md): wall
// time per operation as testing.B reports it, and the process's CPU time
// per operation (collector threads included), which the load of other
// processes moves less, with the runtime's estimate of the collector's
// part of it (/cpu/classes/gc/total). CBOR_FAST_GO_BENCH_ONLY=<regexp> keeps the rows
// whose "operation/data" matches (e.g. "Marshal struct/twitter").
func TestBenchTable(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("CBOR_FAST_GO_BENCH"))
	if runs <= 0 {
		t.Skip("set CBOR_FAST_GO_BENCH=<runs> to run the benchmark table")
	}
	var only *regexp.Regexp
	if re := os.Getenv("CBOR_FAST_GO_BENCH_ONLY"); re != "" {
		only = regexp.MustCompile(re)
	}
	cases := benchCases(t)
	median := func(xs []float64) float64 {
		sort.Float64s(xs)
		return xs[len(xs)/2]
	}
	fmt.Printf("| operation | data | cborfast ns/op | fxamacker ns/op | speedup | cborfast CPU ns/op | fxamacker CPU ns/op | CPU speedup | cborfast, fxamacker GC CPU ns/op | cborfast allocs, B | fxamacker allocs, B |\n" +
		"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for i := range cases {
		c := &cases[i]
		checkBenchCase(t, c)
		for _, op := range benchOps {
			if only != nil && !only.MatchString(op.name+"/"+c.name) {
				continue
			}
			var o, p, oc, pc, og, pg []float64
			var ro, rp testing.BenchmarkResult
			for r := 0; r < runs; r++ {
				var co, cp, gco, gcp float64
				ro, co, gco = benchCPU(op.ours(c))
				rp, cp, gcp = benchCPU(op.peer(c))
				o = append(o, float64(ro.NsPerOp()))
				p = append(p, float64(rp.NsPerOp()))
				oc, pc = append(oc, co), append(pc, cp)
				og, pg = append(og, gco), append(pg, gcp)
			}
			mo, mp, mco, mcp := median(o), median(p), median(oc), median(pc)
			fmt.Printf("| %s | %s | %.0f | %.0f | %.2fx | %.0f | %.0f | %.2fx | %.0f, %.0f | %d, %d | %d, %d |\n", op.name, c.name,
				mo, mp, mp/mo, mco, mcp, mcp/mco, median(og), median(pg),
				ro.AllocsPerOp(), ro.AllocedBytesPerOp(), rp.AllocsPerOp(), rp.AllocedBytesPerOp())
		}
	}
}

// TestCallgrind runs one operation n times inside callgrindOps, for
// instruction counts that the shared machine's load does not move:
//
//	CBOR_FAST_GO_CALLGRIND=<op index>:<case>:<ours|fx>:<n> valgrind --tool=callgrind \
//	  --separate-threads=yes --toggle-collect='*callgrindOps*' ./cborfast.test -test.run TestCallgrind
//
// The goroutine stays on its thread, so that thread's file counts its
// instructions alone: in one file for all threads, other threads' work in
// the same window (the runtime's) is counted too, and the totals moved by
// a third and more between runs (2026-12-05). Take the largest file's
// summary; GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 as before.
func TestCallgrind(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	spec := os.Getenv("CBOR_FAST_GO_CALLGRIND")
	if spec == "" {
		t.Skip("set CBOR_FAST_GO_CALLGRIND=<op>:<case>:<ours|fx>:<n>")
	}
	var op, n int
	var name, lib string
	if _, err := fmt.Sscanf(strings.ReplaceAll(spec, ":", " "), "%d %s %s %d", &op, &name, &lib, &n); err != nil {
		t.Fatal(err)
	}
	for _, c := range benchCases(t) {
		if c.name == name {
			callgrindOps(benchOps[op], &c, lib == "ours", n)
			return
		}
	}
	t.Fatalf("no case %q", name)
}

//go:noinline
func callgrindOps(op benchOp, c *benchCase, ours bool, n int) {
	f := op.peer(c)
	if ours {
		f = op.ours(c)
	}
	f(&testing.B{N: n})
}
