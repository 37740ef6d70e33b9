// Package compare benchmarks the cborfast binding against
// github.com/fxamacker/cbor/v2 (Debian's golang-github-fxamacker-cbor-dev) on
// the corpus, in one test binary. It is a separate module so the binding's
// own module keeps no requirements. Run by hand:
//
//	cd capi/go/compare && GOFLAGS=-mod=mod GOPROXY=off \
//	  PKG_CONFIG_PATH=<build>/plain/pkgconfig go test -bench . -benchmem
package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"libcbor_fast/cborfast"
)

var files = []string{"twitter", "citm_catalog", "canada"}

func corpus(tb testing.TB, name string) []byte {
	dir := os.Getenv("CBOR_FAST_CORPUS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "corpus")
	}
	b, err := os.ReadFile(filepath.Join(dir, name+".cbor"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// fxamacker with the same output rules as cborfast.Encode: shortest floats.
var fxEnc, _ = cbor.EncOptions{ShortestFloat: cbor.ShortestFloat16}.EncMode()

// Both libraries agree on what they read and write.
func TestSameBytes(t *testing.T) {
	for _, name := range files {
		in := corpus(t, name)
		v, err := cborfast.Decode(in)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := cborfast.Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		var fv any
		if err := cbor.Unmarshal(in, &fv); err != nil {
			t.Fatal(err)
		}
		theirs, err := fxEnc.Marshal(fv)
		if err != nil {
			t.Fatal(err)
		}
		// fxamacker decodes maps into Go maps, whose order is random: only
		// the lengths can be compared.
		if len(ours) != len(theirs) {
			t.Errorf("%s: cborfast wrote %d bytes, fxamacker %d", name, len(ours), len(theirs))
		}
		if name == "twitter" && !bytes.Equal(ours, in) {
			t.Errorf("%s: cborfast output differs from the input", name)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, name := range files {
		in := corpus(b, name)
		b.Run("cborfast/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := cborfast.Decode(in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("fxamacker/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var v any
				if err := cbor.Unmarshal(in, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, name := range files {
		in := corpus(b, name)
		ours, err := cborfast.Decode(in)
		if err != nil {
			b.Fatal(err)
		}
		var theirs any
		if err := cbor.Unmarshal(in, &theirs); err != nil {
			b.Fatal(err)
		}
		b.Run("cborfast/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := cborfast.Encode(ours); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("fxamacker/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := fxEnc.Marshal(theirs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Validation only: fxamacker's Valid against the binding's Reader walk.
func BenchmarkWellFormed(b *testing.B) {
	for _, name := range files {
		in := corpus(b, name)
		b.Run("cborfast-reader/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for i := 0; i < b.N; i++ {
				r := cborfast.NewReader(in)
				for {
					if err := r.Skip(); err != nil {
						break
					}
				}
				if err := r.Finish(); err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
		})
		b.Run("fxamacker/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for i := 0; i < b.N; i++ {
				if err := cbor.Valid(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
