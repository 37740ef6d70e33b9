package cborfast

import (
	"io"
	"testing"
)

// Benchmarks over the corpus, run by hand (not by ctest):
//
//	go test -run '^$' -bench . -benchmem
//
// compare/ runs the same against github.com/fxamacker/cbor/v2.

var benchFiles = []string{"twitter", "citm_catalog", "canada"}

func BenchmarkDecode(b *testing.B) {
	for _, name := range benchFiles {
		in := readCorpus(b, name)
		// Check the output once before timing.
		if v, err := Decode(in); err != nil || countItems(v) < 1000 {
			b.Fatalf("%s: %v", name, err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Decode(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, name := range benchFiles {
		in := readCorpus(b, name)
		v, err := Decode(in)
		if err != nil {
			b.Fatal(err)
		}
		if out, err := Encode(v); err != nil || len(out) != len(in)-floatSavings(v) {
			b.Fatalf("%s: %v", name, err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Encode(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReader walks every item with the zero-copy Reader (one cgo call
// per item).
func BenchmarkReader(b *testing.B) {
	for _, name := range benchFiles {
		in := readCorpus(b, name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r := NewReader(in)
				n := 0
				for {
					it, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n += len(it.Data)
				}
				r.Close()
			}
		})
	}
}

// BenchmarkReaderBatch walks every item with NextBatch (256 items a call).
func BenchmarkReaderBatch(b *testing.B) {
	items := make([]Item, 256)
	for _, name := range benchFiles {
		in := readCorpus(b, name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r := NewReader(in)
				n := 0
				for {
					k, err := r.NextBatch(items)
					for _, it := range items[:k] {
						n += len(it.Data)
					}
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				r.Close()
			}
		})
	}
}

// BenchmarkCgoCall is the floor of every call into the library.
func BenchmarkCgoCall(b *testing.B) {
	r := NewReader(nil)
	defer r.Close()
	for i := 0; i < b.N; i++ {
		r.Depth()
	}
}
