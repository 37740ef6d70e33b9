package cborfast

import (
	"io"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

// The corpus documents as one sequence, decoded into their structs (and into
// `any`): Decoder over a reader returning 4 KiB per Read against Unmarshal
// of each whole document, ours and fxamacker's in the same run:
//
//	go test -run '^$' -bench DecoderCorpus -benchmem
func BenchmarkDecoderCorpus(b *testing.B) {
	stream, docs := corpusSequence(b)
	makeAny := func(int) any { return new(any) }
	makeTyped := func(i int) any { return corpusSchemas[i].make() }
	type newDec func(r io.Reader) interface{ Decode(any) error }
	for _, kind := range []struct {
		name string
		make func(int) any
	}{{"struct", makeTyped}, {"any", makeAny}} {
		for _, lib := range []struct {
			name      string
			dec       newDec
			unmarshal func([]byte, any) error
		}{
			{"ours", func(r io.Reader) interface{ Decode(any) error } { return NewDecoder(r) }, Unmarshal},
			{"fx", func(r io.Reader) interface{ Decode(any) error } { return fx.NewDecoder(r) }, fx.Unmarshal},
		} {
			b.Run(kind.name+"/"+lib.name+"/decoder_4k", func(b *testing.B) {
				b.SetBytes(int64(len(stream)))
				for i := 0; i < b.N; i++ {
					dec := lib.dec(&chunkReader{stream, 4096})
					for j := range docs {
						if err := dec.Decode(kind.make(j)); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
			b.Run(kind.name+"/"+lib.name+"/unmarshal_whole", func(b *testing.B) {
				b.SetBytes(int64(len(stream)))
				for i := 0; i < b.N; i++ {
					for j, d := range docs {
						if err := lib.unmarshal(d, kind.make(j)); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
