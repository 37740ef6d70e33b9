package cborfast

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	fx "github.com/fxamacker/cbor/v2"
)

// randReader returns between 1 and max bytes per Read, sizes from a fixed seed.
type randReader struct {
	r   io.Reader
	rng *rand.Rand
	max int
}

func (r *randReader) Read(p []byte) (int, error) {
	n := 1 + r.rng.Intn(r.max)
	if n < len(p) {
		p = p[:n]
	}
	return r.r.Read(p)
}

// chunkReader returns exactly n bytes per Read (fewer at the end).
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	k := min(r.n, len(p), len(r.data))
	copy(p, r.data[:k])
	r.data = r.data[k:]
	return k, nil
}

func corpusSequence(t testing.TB) (stream []byte, docs [][]byte) {
	for _, c := range corpusSchemas {
		d := readCorpus(t, c.file)
		docs = append(docs, d)
		stream = append(stream, d...)
	}
	return stream, docs
}

var streamReaders = []struct {
	name string
	wrap func([]byte) io.Reader
}{
	{"one_byte", func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
	{"half", func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
	{"data_err", func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
	{"random_1_to_9000", func(b []byte) io.Reader {
		return &randReader{bytes.NewReader(b), rand.New(rand.NewSource(7)), 9000}
	}},
	{"chunk_4k", func(b []byte) io.Reader { return &chunkReader{b, 4096} }},
	{"whole", func(b []byte) io.Reader { return bytes.NewReader(b) }},
}

// The three corpus documents as one sequence, through every reader: each
// item equals Unmarshal of its document (into `any` and into its struct),
// NumBytesRead is the end of each, then io.EOF (twice).
func TestDecoderCorpusSequence(t *testing.T) {
	before := liveHandles
	stream, docs := corpusSequence(t)
	for _, rd := range streamReaders {
		t.Run(rd.name, func(t *testing.T) {
			for _, typed := range []bool{false, true} {
				dec := NewDecoder(rd.wrap(stream))
				end := 0
				for i, doc := range docs {
					var got, want any
					if typed {
						got, want = corpusSchemas[i].make(), corpusSchemas[i].make()
					} else {
						got, want = new(any), new(any)
					}
					if err := Unmarshal(doc, want); err != nil {
						t.Fatal(err)
					}
					if err := dec.Decode(got); err != nil {
						t.Fatalf("typed=%v item %d: %v", typed, i, err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("typed=%v item %d (%s) differs from Unmarshal", typed, i, corpusSchemas[i].file)
					}
					end += len(doc)
					if dec.NumBytesRead() != end {
						t.Fatalf("item %d: NumBytesRead %d, want %d", i, dec.NumBytesRead(), end)
					}
				}
				for k := 0; k < 2; k++ {
					var v any
					if err := dec.Decode(&v); err != io.EOF {
						t.Fatalf("after the last item: %v, want io.EOF", err)
					}
				}
			}
		})
	}
	checkNoLeaks(t, before)
}

// Two items in one read, and items whose boundary falls inside a read.
func TestDecoderBackToBack(t *testing.T) {
	in := unhex(t, "01 6161 820203 a1616b f5")
	want := []any{uint64(1), "a", []any{uint64(2), uint64(3)}, map[any]any{"k": true}}
	ends := []int{1, 3, 6, 10}
	for _, rd := range streamReaders {
		dec := NewDecoder(rd.wrap(in))
		for i, w := range want {
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s item %d: %v", rd.name, i, err)
			}
			if !reflect.DeepEqual(v, w) || dec.NumBytesRead() != ends[i] {
				t.Fatalf("%s item %d: %#v at %d, want %#v at %d", rd.name, i, v, dec.NumBytesRead(), w, ends[i])
			}
		}
		var v any
		if err := dec.Decode(&v); err != io.EOF {
			t.Fatalf("%s: %v, want io.EOF", rd.name, err)
		}
	}
	// Buffered: what was read and not decoded.
	dec := NewDecoder(bytes.NewReader(in))
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(dec.Buffered())
	if !bytes.Equal(rest, in[1:]) {
		t.Fatalf("Buffered %x, want %x", rest, in[1:])
	}
}

// The input ends inside the second item: the first decodes, the second is
// io.ErrUnexpectedEOF (sticky) at NumBytesRead 3, its start, and v is left
// as it was. Rows: cut after the head, inside a nested array, before the
// last byte of a string.
func TestDecoderTruncatedInside(t *testing.T) {
	for _, row := range []struct {
		name string
		hex  string
	}{
		{"cut_after_head", "6161 82"},
		{"cut_in_nested", "6161 82018202"},
		{"cut_in_string", "6161 6568656c6c"},
		{"cut_in_head", "6161 1a0001"},
	} {
		in := unhex(t, row.hex)
		for _, rd := range streamReaders {
			dec := NewDecoder(rd.wrap(in))
			var s string
			if err := dec.Decode(&s); err != nil || s != "a" {
				t.Fatalf("%s/%s first: %q %v", row.name, rd.name, s, err)
			}
			v := any("untouched")
			for k := 0; k < 2; k++ {
				if err := dec.Decode(&v); err != io.ErrUnexpectedEOF {
					t.Fatalf("%s/%s: %v, want io.ErrUnexpectedEOF", row.name, rd.name, err)
				}
			}
			if v != "untouched" || dec.NumBytesRead() != 2 {
				t.Fatalf("%s/%s: v %#v, NumBytesRead %d, want untouched at 2", row.name, rd.name, v, dec.NumBytesRead())
			}
		}
	}
}

// Errors inside an item carry stream offsets: malformed (reserved additional
// information), invalid UTF-8 (checked by the decoding pass, not the
// boundary finder), and a type error, which is not sticky.
func TestDecoderErrorOffsets(t *testing.T) {
	for _, rd := range streamReaders {
		// 3 good bytes, then [1, 0x1c] at offset 3: the bad head at 5.
		dec := NewDecoder(rd.wrap(unhex(t, "6161 01 82 01 1c")))
		var v any
		_ = dec.Decode(&v)
		_ = dec.Decode(&v)
		err := dec.Decode(&v)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeReservedAI || e.Offset != 5 || e.ItemOffset != 3 {
			t.Fatalf("%s: %v, want reserved_ai at 5 in the item at 3", rd.name, err)
		}
		if err2 := dec.Decode(&v); err2 != err {
			t.Fatalf("%s: not sticky: %v", rd.name, err2)
		}
		// Invalid UTF-8 in the text at offset 4 (inside the array at 3):
		// reported at the bad byte, 5.
		dec = NewDecoder(rd.wrap(unhex(t, "6161 01 81 62c328")))
		_ = dec.Decode(&v)
		_ = dec.Decode(&v)
		err = dec.Decode(&v)
		if !errors.As(err, &e) || e.Code != CodeInvalidUTF8 || e.Offset != 5 || e.ItemOffset != 3 {
			t.Fatalf("%s: %v, want invalid_utf8 at 5", rd.name, err)
		}
		// A text string at offset 2 decoded into an int: a type error at
		// 2, then the next item decodes.
		dec = NewDecoder(rd.wrap(unhex(t, "01 01 6178 07")))
		var n int
		_ = dec.Decode(&n)
		_ = dec.Decode(&n)
		err = dec.Decode(&n)
		var te *UnmarshalTypeError
		if !errors.As(err, &te) || te.Offset != 2 {
			t.Fatalf("%s: %v, want a type error at 2", rd.name, err)
		}
		if err := dec.Decode(&n); err != nil || n != 7 {
			t.Fatalf("%s: after the type error: %d %v", rd.name, n, err)
		}
	}
}

// MaxStreamBuffer: an item of exactly the limit decodes, one byte more is
// ErrMemoryBudget at the item's offset (after the items before it decoded),
// and the input ending before the limit is still io.ErrUnexpectedEOF.
func TestDecoderBufferLimit(t *testing.T) {
	dm, err := DecOptions{MaxStreamBuffer: 64}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	str := func(n int) []byte { // a byte string item of n bytes in all (n in 25..279)
		return append([]byte{0x58, byte(n - 2)}, bytes.Repeat([]byte{'x'}, n-2)...)
	}
	prefix := unhex(t, "01 6161") // 3 bytes
	for _, rd := range streamReaders {
		for _, row := range []struct {
			name string
			size int
			ok   bool
		}{{"item_of_limit", 64, true}, {"item_one_over", 65, false}, {"item_far_over", 200, false}} {
			in := append(append(append([]byte{}, prefix...), str(row.size)...), 0x02)
			dec := dm.NewDecoder(rd.wrap(in))
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			err := dec.Decode(&v)
			if row.ok {
				if b, _ := v.([]byte); err != nil || len(b) != row.size-2 {
					t.Fatalf("%s/%s: %v", row.name, rd.name, err)
				}
				if err := dec.Decode(&v); err != nil || v != uint64(2) {
					t.Fatalf("%s/%s after: %v %v", row.name, rd.name, v, err)
				}
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeMemoryBudget || e.Offset != 3 || e.ItemOffset != 3 {
				t.Fatalf("%s/%s: %v, want memory_budget at 3", row.name, rd.name, err)
			}
			if !errors.Is(err, ErrMemoryBudget) {
				t.Fatalf("not ErrMemoryBudget: %v", err)
			}
		}
		// Over the limit by its head, but the input ends first.
		dec := dm.NewDecoder(rd.wrap(append(append([]byte{}, prefix...), str(200)[:40]...)))
		var v any
		_ = dec.Decode(&v)
		_ = dec.Decode(&v)
		if err := dec.Decode(&v); err != io.ErrUnexpectedEOF {
			t.Fatalf("%s: %v, want io.ErrUnexpectedEOF", rd.name, err)
		}
	}
	if _, err := (DecOptions{MaxStreamBuffer: -1}).DecMode(); err == nil {
		t.Fatal("negative MaxStreamBuffer accepted")
	}
	if got := (DecOptions{}).MaxStreamBuffer; got != 0 {
		t.Fatal(got)
	}
}

// zeroReader is an endless run of zero bytes.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// A 9-byte head declaring a 2^32-byte string: then EOF is
// io.ErrUnexpectedEOF with the memory used bounded by what arrived (not 4
// GiB, not the 64 MiB bound); an endless input behind it stops at the bound
// with ErrMemoryBudget at offset 0.
func TestDecoderLengthBomb(t *testing.T) {
	head := unhex(t, "5b 00000001 00000000")
	for _, rd := range streamReaders {
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		dec := NewDecoder(rd.wrap(head))
		var v any
		if err := dec.Decode(&v); err != io.ErrUnexpectedEOF {
			t.Fatalf("%s: %v, want io.ErrUnexpectedEOF", rd.name, err)
		}
		runtime.ReadMemStats(&ms1)
		if d := ms1.TotalAlloc - ms0.TotalAlloc; d > 1<<20 {
			t.Fatalf("%s: %d bytes allocated for a 9-byte input", rd.name, d)
		}
	}
	dm, _ := DecOptions{MaxStreamBuffer: 1 << 20}.DecMode()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	dec := dm.NewDecoder(io.MultiReader(bytes.NewReader(head), zeroReader{}))
	var v any
	err := dec.Decode(&v)
	runtime.ReadMemStats(&ms1)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeMemoryBudget || e.Offset != 0 {
		t.Fatalf("%v, want memory_budget at 0", err)
	}
	if d := ms1.TotalAlloc - ms0.TotalAlloc; d > 3<<20 {
		t.Fatalf("%d bytes allocated under a 1 MiB bound", d)
	}
}

// An item cut short in a stream: the error comes from Unmarshal's passes
// over the bytes at hand, its first pass included, so nothing is built of
// it. The decoding pass alone built it: a recursive slice type reserved room
// for the bytes left at each level (a helper measured 97 MiB for 1 MB, 1.65
// GB with 200 levels allowed), and 536-byte elements were built once per
// zero byte (12.6 MB here with 131071 per level; 2 GB for a larger count).
// The recursive row stays as the same property's row.
func TestDecoderItemCutShortBuildsNothing(t *testing.T) {
	type nest []nest
	type big struct {
		Kids []big
		Pad  [64]uint64
	}
	cut := append(unhex(t, strings.Repeat("9a0001ffff", 30)), make([]byte, 1<<20)...)
	dm, err := DecOptions{MaxNestedLevels: 1000}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		name string
		into func(dec *Decoder) error
	}{
		{"recursive slices", func(dec *Decoder) error { var v nest; return dec.Decode(&v) }},
		{"structs of 536 bytes", func(dec *Decoder) error { var v []big; return dec.Decode(&v) }},
	}
	for _, r := range rows {
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		err := r.into(dm.NewDecoder(bytes.NewReader(cut)))
		runtime.ReadMemStats(&ms1)
		if err != io.ErrUnexpectedEOF {
			t.Errorf("%s: %v, want io.ErrUnexpectedEOF", r.name, err)
		}
		// The stream's buffer holds the input (it grows by doubling).
		if d := ms1.TotalAlloc - ms0.TotalAlloc; d > 8<<20 {
			t.Errorf("%s: %d bytes allocated for %d bytes of input", r.name, d, len(cut))
		}
	}
	// As Unmarshal: the first pass's truncation before the decoding pass's
	// invalid UTF-8 (a text string of ff fe, then the input ends), and a
	// malformed head before the cut still wins.
	bad := unhex(t, "82 62 fffe")
	var want, got []string
	uerr := Unmarshal(bad, &want)
	derr := NewDecoder(bytes.NewReader(bad)).Decode(&got)
	var ue, de *Error
	if !errors.As(uerr, &ue) || ue.Code != CodeTruncated || ue.Offset != 4 || derr != io.ErrUnexpectedEOF {
		t.Errorf("Decoder %v, Unmarshal %v: want io.ErrUnexpectedEOF and truncated at 4", derr, uerr)
	}
	derr = NewDecoder(bytes.NewReader(unhex(t, "83 01 1c"))).Decode(&got)
	if !errors.As(derr, &de) || de.Code != CodeReservedAI || de.Offset != 2 {
		t.Errorf("Decoder %v: want reserved_additional_info at 2", derr)
	}
}

// A reader that never makes progress and one that fails: their errors.
func TestDecoderReaderErrors(t *testing.T) {
	dec := NewDecoder(iotest.ErrReader(errors.New("boom")))
	var v any
	if err := dec.Decode(&v); err == nil || err.Error() != "boom" {
		t.Fatalf("%v", err)
	}
	dec = NewDecoder(strings.NewReader(""))
	if err := dec.Decode(&v); err != io.EOF {
		t.Fatalf("empty: %v", err)
	}
	dec = NewDecoder(emptyReader{})
	if err := dec.Decode(&v); err != io.ErrNoProgress {
		t.Fatalf("no progress: %v", err)
	}
	if err := NewDecoder(strings.NewReader("\x01")).Decode(v); err == nil {
		t.Fatal("non-pointer accepted")
	}
}

// bytesThenError returns its bytes together with an error, in one read.
type bytesThenError struct {
	data []byte
	err  error
	done bool
}

func (r *bytesThenError) Read(p []byte) (int, error) {
	if r.done {
		return 0, r.err
	}
	r.done = true
	return copy(p, r.data), r.err
}

// Bytes that come with a read error are decoded first (as io.Reader asks of
// its callers, and as fxamacker does); the error comes after them, sticky.
func TestDecoderBytesBeforeReadError(t *testing.T) {
	boom := errors.New("boom")
	for _, row := range []struct {
		name  string
		data  string
		items []any
		last  string // the error after the items
	}{
		{"two whole items", "\x01\x02", []any{uint64(1), uint64(2)}, "boom"},
		{"an item and a cut one", "\x01\x82\x01", []any{uint64(1)}, "boom"},
		{"no bytes", "", nil, "boom"},
	} {
		dec := NewDecoder(&bytesThenError{data: []byte(row.data), err: boom})
		for i, want := range row.items {
			var v any
			if err := dec.Decode(&v); err != nil || v != want {
				t.Fatalf("%s: item %d: %v, %v", row.name, i, v, err)
			}
		}
		var v any
		for k := 0; k < 2; k++ {
			if err := dec.Decode(&v); err != boom {
				t.Fatalf("%s: after the items (call %d): %v", row.name, k, err)
			}
		}
		// fxamacker gives the same items, then the error.
		fdec := fx.NewDecoder(&bytesThenError{data: []byte(row.data), err: boom})
		for i, want := range row.items {
			var v any
			if err := fdec.Decode(&v); err != nil || v != want {
				t.Fatalf("%s: fxamacker item %d: %v, %v", row.name, i, v, err)
			}
		}
		if err := fdec.Decode(&v); err != boom {
			t.Fatalf("%s: fxamacker after the items: %v", row.name, err)
		}
	}
}

type emptyReader struct{}

func (emptyReader) Read(p []byte) (int, error) { return 0, nil }

// The Decoder over random reads gives, item by item, what UnmarshalFirst
// gives over the whole input (values, type errors, *Error codes and stream
// offsets; a truncated last item is io.ErrUnexpectedEOF), on sequences cut
// at every kind of place and with random bytes changed.
func TestDecoderMatchesUnmarshalFirst(t *testing.T) {
	before := liveHandles
	var seq []byte
	for _, v := range []any{uint64(1), "text", []any{uint64(1), []any{"x", 2.5}, map[any]any{"k": []byte{1, 2}}},
		map[any]any{uint64(1): map[any]any{"a": nil}}, -7, bytes.Repeat([]byte{7}, 300), true} {
		b, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		seq = append(seq, b...)
	}
	seq = append(seq, unhex(t, "5f 41 01 41 02 ff 9f 01 bf 61 61 02 ff ff c1 1a 00 01 00 00")...)
	rng := rand.New(rand.NewSource(11))
	for n := 0; n < 400; n++ {
		in := append([]byte{}, seq...)
		switch n % 3 {
		case 0:
			in = in[:rng.Intn(len(in)+1)]
		case 1:
			in[rng.Intn(len(in))] = byte(rng.Intn(256))
		default:
			in[rng.Intn(len(in))] = byte(rng.Intn(256))
			in = in[:rng.Intn(len(in)+1)]
		}
		dec := NewDecoder(&randReader{bytes.NewReader(in), rand.New(rand.NewSource(int64(n))), 1 + n%40})
		rest := in
		for k := 0; ; k++ {
			var want, got any
			var werr error
			advanced := true
			if len(rest) == 0 {
				werr = io.EOF
			} else {
				var r []byte
				r, werr = UnmarshalFirst(rest, &want)
				var e *Error
				if errors.As(werr, &e) {
					if e.Code == CodeTruncated {
						werr = io.ErrUnexpectedEOF
					} else {
						c := *e
						c.Offset += len(in) - len(rest)
						c.ItemOffset += len(in) - len(rest)
						werr = &c
					}
				} else if te, ok := werr.(*UnmarshalTypeError); ok {
					c := *te
					c.Offset += len(in) - len(rest)
					werr = &c
				}
				if r != nil {
					rest = r
				} else {
					advanced = false
				}
			}
			gerr := dec.Decode(&got)
			if !reflect.DeepEqual(gerr, werr) {
				t.Fatalf("input %d %x item %d (rest %x): Decoder %v, UnmarshalFirst %v %#v", n, in, k, rest, gerr, werr, want)
			}
			if werr == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("input %d item %d: %#v, want %#v", n, k, got, want)
			}
			if werr != nil {
				// A type error decoding into `any` (tag 0/1 content) comes
				// without the rest; the Decoder goes on after the item.
				if _, ok := werr.(*UnmarshalTypeError); !ok || !advanced {
					break
				}
			}
		}
	}
	checkNoLeaks(t, before)
}

// UnmarshalFirst's rest starts right after the item when what follows is
// truncated or malformed (the batch stops before it), for `any` and typed
// targets, and after a bulk-read number array.
func TestUnmarshalFirstRestBeforeBadItem(t *testing.T) {
	for _, row := range []struct {
		name, hex string
		into      func() any
		rest      string
	}{
		{"truncated_string_next", "26 59012c 0707", func() any { return new(any) }, "59012c0707"},
		{"truncated_string_next_typed", "26 59012c 0707", func() any { return new(int) }, "59012c0707"},
		{"malformed_next", "820102 1c", func() any { return new(any) }, "1c"},
		{"malformed_next_typed", "820102 1c", func() any { return new([]int) }, "1c"},
		{"truncated_head_next", "a16161f5 1a0001", func() any { return new(map[string]bool) }, "1a0001"},
		{"bulk_array_then_truncated", "90 000102030405060708090a0b0c0d0e0f 5a01", func() any { return new([]uint64) }, "5a01"},
	} {
		rest, err := UnmarshalFirst(unhex(t, row.hex), row.into())
		if err != nil || !bytes.Equal(rest, unhex(t, row.rest)) {
			t.Fatalf("%s: rest %x %v, want %s", row.name, rest, err, row.rest)
		}
	}
}

// The mode's checks and limits apply to each item as in Unmarshal: MaxItems
// counts per item (a long stream of small items passes), a larger item fails
// at its offset; duplicate keys and IndefLengthForbidden are the decoding
// pass's, with stream offsets.
func TestDecoderModeChecksPerItem(t *testing.T) {
	dm, err := DecOptions{MaxItems: 5, DupMapKey: DupMapKeyEnforcedAPF, IndefLength: IndefLengthForbidden}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	var in []byte
	for i := 0; i < 1000; i++ {
		in = append(in, 0x82, 0x01, 0x02) // 3 data items each: 3000 in all
	}
	good := len(in)
	for _, rd := range streamReaders {
		for _, row := range []struct {
			name   string
			tail   string
			code   int
			offset int
		}{
			{"too_many_items", "85 01 02 03 04 05", CodeTooManyItems, good + 5},
			{"duplicate_key", "a2 01 01 01 02", CodeDuplicateKey, good + 3},
			{"indefinite", "9f ff", CodeIndefiniteLength, good},
		} {
			dec := dm.NewDecoder(rd.wrap(append(append([]byte{}, in...), unhex(t, row.tail)...)))
			for i := 0; i < 1000; i++ {
				var v []int
				if err := dec.Decode(&v); err != nil || len(v) != 2 {
					t.Fatalf("%s/%s item %d: %v %v", rd.name, row.name, i, v, err)
				}
			}
			var v any
			err := dec.Decode(&v)
			var e *Error
			if !errors.As(err, &e) || e.Code != row.code || e.Offset != row.offset || e.ItemOffset != good {
				t.Fatalf("%s/%s: %v (item %d), want code %d at %d", rd.name, row.name, err, e.ItemOffset, row.code, row.offset)
			}
		}
	}
}

// Decoders in several goroutines at once share the pool of boundary finders.
func TestDecoderConcurrent(t *testing.T) {
	before := liveHandles
	stream, docs := corpusSequence(t)
	want := make([]any, len(docs))
	for i, d := range docs {
		if err := Unmarshal(d, &want[i]); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func(g int) {
			dec := NewDecoder(&randReader{bytes.NewReader(stream), rand.New(rand.NewSource(int64(g))), 1 + 3000*g})
			for i := range docs {
				var v any
				if err := dec.Decode(&v); err != nil {
					errs <- err
					return
				}
				if !reflect.DeepEqual(v, want[i]) {
					errs <- errors.New("item differs")
					return
				}
			}
			var v any
			errs <- func() error {
				if err := dec.Decode(&v); err != io.EOF {
					return errors.New("no io.EOF at the end")
				}
				return nil
			}()
		}(g)
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	checkNoLeaks(t, before)
}

// lyingReader returns a count outside what io.Reader allows.
type lyingReader struct{ n int }

func (r lyingReader) Read(p []byte) (int, error) { return r.n, nil }

// A Reader that breaks io.Reader's contract (a negative count, or more than
// it was given) is an error, not a slice-bounds panic.
func TestDecoderInvalidReadCount(t *testing.T) {
	for _, n := range []int{-1, 1 << 30} {
		var v any
		dec := NewDecoder(lyingReader{n})
		for k := 0; k < 2; k++ {
			if err := dec.Decode(&v); err != errInvalidRead {
				t.Fatalf("count %d, call %d: %v", n, k, err)
			}
		}
	}
}

// An item that is well-formed but invalid (bad UTF-8, a duplicate key under
// DupMapKeyEnforcedAPF, an indefinite length under IndefLengthForbidden) is
// an error for that item, and the Decoder goes on with the next one, as
// fxamacker's does; it stayed on the error for good. A malformed item still
// stops the stream.
func TestDecoderGoesOnAfterAnInvalidItem(t *testing.T) {
	rows := []struct {
		name  string
		dec   DecOptions
		peer  fx.DecOptions
		data  string
		code  int
		off   int
		after uint64
	}{
		{"invalid utf-8", DecOptions{}, fx.DecOptions{}, "01 62 61ff 05", CodeInvalidUTF8, 3, 5},
		{"duplicate key", DecOptions{DupMapKey: DupMapKeyEnforcedAPF}, fx.DecOptions{DupMapKey: fx.DupMapKeyEnforcedAPF},
			"01 a2 0101 0102 05", CodeDuplicateKey, 4, 5},
		{"indefinite length", DecOptions{IndefLength: IndefLengthForbidden}, fx.DecOptions{IndefLength: fx.IndefLengthForbidden},
			"01 9f01ff 05", CodeIndefiniteLength, 1, 5},
	}
	for _, r := range rows {
		dm, _ := r.dec.DecMode()
		fdm, _ := r.peer.DecMode()
		data := unhex(t, r.data)
		d := dm.NewDecoder(iotest.OneByteReader(bytes.NewReader(data)))
		fd := fdm.NewDecoder(bytes.NewReader(data))
		var v, fv any
		if err := d.Decode(&v); err != nil || v != uint64(1) {
			t.Fatalf("%s: first %v, %v", r.name, v, err)
		}
		_ = fd.Decode(&fv)
		err := d.Decode(&v)
		ferr := fd.Decode(&fv)
		var e *Error
		if !errors.As(err, &e) || e.Code != r.code || e.Offset != r.off || ferr == nil {
			t.Errorf("%s: %v; want code %d at %d (fxamacker %v)", r.name, err, r.code, r.off, ferr)
		}
		v, fv = nil, nil
		err, ferr = d.Decode(&v), fd.Decode(&fv)
		if err != nil || v != r.after || ferr != nil || fv != r.after {
			t.Errorf("%s: after: %v, %v; fxamacker %v, %v", r.name, v, err, fv, ferr)
		}
		if err := d.Decode(&v); err != io.EOF {
			t.Errorf("%s: end: %v", r.name, err)
		}
	}
	// malformed: the stream stops there
	d := NewDecoder(bytes.NewReader(unhex(t, "01 ff 05")))
	var v any
	_ = d.Decode(&v)
	first := d.Decode(&v)
	if first == nil || d.Decode(&v) != first {
		t.Errorf("malformed: %v, then not the same error", first)
	}
}

// copyOf returns a copy of *p (go vet reports a plain copy of a handle).
func copyOf[T any](p *T) *T {
	c := new(T)
	*c = *p
	return c
}

// A copy of a Reader or Sequence shares nothing it could free: its calls are
// refused and its Close does nothing. A copy's Close freed the C reader, and
// then the original's Close freed it again (a double free, SIGABRT); a
// Sequence copy gave the pooled C reader back twice, so that two later
// Sequences shared it.
func TestCopiedHandlesAreRefused(t *testing.T) {
	before := liveHandles
	data := []byte{0x01, 0x82, 0x02, 0x03}
	r := NewReader(data)
	c := copyOf(r)
	if _, err := c.Next(); err != ErrInvalidArgument {
		t.Fatalf("copy's Next: %v, want ErrInvalidArgument", err)
	}
	if _, err := c.NextBatch(make([]Item, 2)); err != ErrInvalidArgument {
		t.Fatalf("copy's NextBatch: %v, want ErrInvalidArgument", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Next(); err != ErrClosed {
		t.Fatalf("copy's Next after its Close: %v, want ErrClosed", err)
	}
	if it, err := r.Next(); err != nil || it.Type != TypeUint || it.Value != 1 {
		t.Fatalf("original after the copy's Close: %+v, %v", it, err)
	}
	r.Close()
	if _, err := r.Next(); err != ErrClosed {
		t.Fatalf("original after its Close: %v, want ErrClosed", err)
	}

	q := NewSequence(data)
	qc := copyOf(q)
	if _, err := qc.Next(); err != ErrInvalidArgument {
		t.Fatalf("Sequence copy's Next: %v, want ErrInvalidArgument", err)
	}
	qc.Close()
	if v, err := q.Next(); err != nil || v != uint64(1) {
		t.Fatalf("Sequence after the copy's Close: %v, %v", v, err)
	}
	q.Close()
	// Two Sequences after it: each has a C reader of its own.
	a, b := NewSequence([]byte{0x0a, 0x0b}), NewSequence([]byte{0x14, 0x15})
	for i, want := range [][2]uint64{{10, 20}, {11, 21}} {
		va, ea := a.Next()
		vb, eb := b.Next()
		if ea != nil || eb != nil || va != want[0] || vb != want[1] {
			t.Fatalf("item %d: %v %v, %v %v; want %v", i, va, ea, vb, eb, want)
		}
	}
	a.Close()
	b.Close()
	checkNoLeaks(t, before)

	// A Decoder's or Encoder's copy shares the buffer or the writer: refused.
	dec := NewDecoder(bytes.NewReader([]byte{0x01, 0x02}))
	var v any
	if err := copyOf(dec).Decode(&v); err != ErrInvalidArgument {
		t.Fatalf("Decoder copy: %v, want ErrInvalidArgument", err)
	}
	if err := dec.Decode(&v); err != nil || v != uint64(1) {
		t.Fatalf("Decoder after its copy was refused: %v, %v", v, err)
	}
	var out bytes.Buffer
	enc := NewEncoder(&out)
	if err := copyOf(enc).Encode(1); err != ErrInvalidArgument {
		t.Fatalf("Encoder copy: %v, want ErrInvalidArgument", err)
	}
	if err := enc.Encode(2); err != nil || hex.EncodeToString(out.Bytes()) != "02" {
		t.Fatalf("Encoder after its copy was refused: %x, %v", out.Bytes(), err)
	}
}

// The zero values of the handles refuse every call (they were nil
// dereferences for the Decoder and the Encoder).
func TestZeroHandles(t *testing.T) {
	var r Reader
	if _, err := r.Next(); err != ErrInvalidArgument {
		t.Fatalf("zero Reader: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != ErrClosed {
		t.Fatalf("zero Reader after Close: %v", err)
	}
	var q Sequence
	if _, err := q.Next(); err != ErrInvalidArgument {
		t.Fatalf("zero Sequence: %v", err)
	}
	var dec Decoder
	var v any
	if err := dec.Decode(&v); err != ErrInvalidArgument {
		t.Fatalf("zero Decoder: %v", err)
	}
	var enc Encoder
	if err := enc.Encode(1); err != ErrInvalidArgument {
		t.Fatalf("zero Encoder: %v", err)
	}
	if err := enc.StartIndefiniteArray(); err != ErrInvalidArgument {
		t.Fatalf("zero Encoder: %v", err)
	}
	if err := enc.EndIndefinite(); err != ErrInvalidArgument {
		t.Fatalf("zero Encoder: %v", err)
	}
}

// gateReader and gateWriter block their first call until released, so that
// a second call on the same Decoder or Encoder runs while the first does.
type gateReader struct {
	entered, release chan struct{}
	r                io.Reader
}

func (g *gateReader) Read(p []byte) (int, error) {
	if g.entered != nil {
		close(g.entered)
		g.entered = nil
		<-g.release
	}
	return g.r.Read(p)
}

type gateWriter struct {
	entered, release chan struct{}
	bytes.Buffer
}

func (g *gateWriter) Write(p []byte) (int, error) {
	if g.entered != nil {
		close(g.entered)
		g.entered = nil
		<-g.release
	}
	return g.Buffer.Write(p)
}

// A Decoder or Encoder used by a second goroutine while a call runs returns
// ErrConcurrentUse to it; the running call is not disturbed. Two Decode calls
// at once ended the process ("runtime.Pinner: object already unpinned").
func TestDecoderAndEncoderRefuseConcurrentCalls(t *testing.T) {
	gr := &gateReader{entered: make(chan struct{}), release: make(chan struct{}), r: bytes.NewReader([]byte{0x18, 0x2a, 0x07})}
	dec := NewDecoder(gr)
	entered := gr.entered
	done := make(chan error, 1)
	var first any
	go func() { done <- dec.Decode(&first) }()
	<-entered
	var second any
	if err := dec.Decode(&second); err != ErrConcurrentUse {
		t.Fatalf("second Decode: %v, want ErrConcurrentUse", err)
	}
	close(gr.release)
	if err := <-done; err != nil || first != uint64(42) {
		t.Fatalf("first Decode: %v, %v", first, err)
	}
	if err := dec.Decode(&second); err != nil || second != uint64(7) {
		t.Fatalf("next Decode: %v, %v", second, err)
	}

	gw := &gateWriter{entered: make(chan struct{}), release: make(chan struct{})}
	enc := NewEncoder(gw)
	entered = gw.entered
	go func() { done <- enc.Encode(42) }()
	<-entered
	for _, call := range []func() error{func() error { return enc.Encode(1) },
		enc.StartIndefiniteArray, enc.EndIndefinite} {
		if err := call(); err != ErrConcurrentUse {
			t.Fatalf("call during Encode: %v, want ErrConcurrentUse", err)
		}
	}
	close(gw.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(7); err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(gw.Bytes()); got != "182a07" {
		t.Fatalf("encoded %s, want 182a07", got)
	}
}

// The Decoder finds a small item that is all there in Go when it stays
// strictly within the mode's limits, and leaves the rest to the library:
// either side of each limit it decodes and fails as UnmarshalFirst does
// (value, error code and offset).
func TestDecoderPlainScanAtTheLimits(t *testing.T) {
	nest := func(n int) []byte { return append(bytes.Repeat([]byte{0x81}, n), 0x00) }
	str := func(n int) []byte {
		return append([]byte{0x59, byte(n >> 8), byte(n)}, bytes.Repeat([]byte{'a'}, n)...)
	}
	arr := func(n int) []byte { return append([]byte{0x99, byte(n >> 8), byte(n)}, make([]byte, n)...) }
	rows := []struct {
		name string
		opts DecOptions
		in   []byte
	}{
		{"3 levels, limit 4", DecOptions{MaxNestedLevels: 4}, nest(3)},
		{"4 levels, limit 4", DecOptions{MaxNestedLevels: 4}, nest(4)},
		{"5 levels, limit 4", DecOptions{MaxNestedLevels: 4}, nest(5)},
		{"tags 4 deep, limit 4", DecOptions{MaxNestedLevels: 4}, []byte{0xc6, 0xc6, 0xc6, 0xc6, 0x00}},
		{"tags 5 deep, limit 4", DecOptions{MaxNestedLevels: 4}, []byte{0xc6, 0xc6, 0xc6, 0xc6, 0xc6, 0x00}},
		{"string 99, limit 100", DecOptions{MaxStringLength: 100}, str(99)},
		{"string 100, limit 100", DecOptions{MaxStringLength: 100}, str(100)},
		{"string 101, limit 100", DecOptions{MaxStringLength: 100}, str(101)},
		{"array 16, limit 16", DecOptions{MaxArrayElements: 16, MaxMapPairs: 16}, arr(16)},
		{"array 17, limit 16", DecOptions{MaxArrayElements: 16, MaxMapPairs: 16}, arr(17)},
		{"9 items, limit 10", DecOptions{MaxItems: 10}, arr(8)},
		{"10 items, limit 10", DecOptions{MaxItems: 10}, arr(9)},
		{"11 items, limit 10", DecOptions{MaxItems: 10}, arr(10)},
		{"64 KiB string (the library's)", DecOptions{}, str(65535)},
	}
	for _, r := range rows {
		dm, err := r.opts.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		in := append(append([]byte{}, r.in...), 0x01) // and an item after it
		var want any
		_, werr := dm.UnmarshalFirst(in, &want)
		var got any
		gerr := dm.NewDecoder(bytes.NewReader(in)).Decode(&got)
		if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Decoder %v, %v; UnmarshalFirst %v, %v", r.name, got, gerr, want, werr)
			continue
		}
		if werr != nil && werr.Error() != gerr.Error() {
			// (the message holds the error's kind, code and offset)
			t.Errorf("%s: Decoder %v; UnmarshalFirst %v", r.name, gerr, werr)
		}
	}
}

// flakyReader fails every third Read (with no bytes, or after handing over
// one byte when withBytes), else reads one byte: a connection whose read
// deadline passes now and then.
type flakyReader struct {
	r         io.Reader
	calls     int
	withBytes bool
}

var errFlaky = errors.New("flaky: deadline passed")

func (f *flakyReader) Read(p []byte) (int, error) {
	f.calls++
	if f.calls%3 == 0 {
		if f.withBytes && len(p) > 0 {
			n, _ := f.r.Read(p[:1])
			return n, errFlaky
		}
		return 0, errFlaky
	}
	return f.r.Read(p[:1])
}

// A Reader's error is handed over and not kept: the next Decode reads again
// from where the bytes so far end, as fxamacker's Decoder does (it was
// returned by every later Decode, so a net.Conn whose read deadline passed
// could not go on). Each Decode's value and error is compared with
// fxamacker's over the same reader.
func TestDecoderGoesOnAfterAReadError(t *testing.T) {
	data := unhex(t, "01 82 02 03 04 63 61 62 63 a1 01 f5")
	readers := map[string]func() io.Reader{
		"timeout": func() io.Reader { return iotest.TimeoutReader(iotest.OneByteReader(bytes.NewReader(data))) },
		"flaky":   func() io.Reader { return &flakyReader{r: bytes.NewReader(data)} },
		"flaky_with_bytes": func() io.Reader {
			return &flakyReader{r: bytes.NewReader(data), withBytes: true}
		},
	}
	for name, mk := range readers {
		type step struct {
			v   any
			err string
		}
		run := func(decode func(*any) error) []step {
			var got []step
			for i := 0; i < 40; i++ {
				var v any
				err := decode(&v)
				s := step{v: v}
				if err != nil {
					s.err = err.Error()
				}
				got = append(got, s)
				if err == io.EOF {
					break
				}
			}
			return got
		}
		ours := NewDecoder(mk())
		got := run(func(v *any) error { return ours.Decode(v) })
		theirs := fx.NewDecoder(mk())
		want := run(func(v *any) error { return theirs.Decode(v) })
		// An error that came with bytes is returned once those bytes are
		// used up (io.Reader's advice); fxamacker drops some of those, so
		// there only the values are compared.
		valuesOf := func(steps []step) []any {
			var vs []any
			for _, s := range steps {
				if s.err == "" {
					vs = append(vs, s.v)
				}
			}
			return vs
		}
		if name != "flaky_with_bytes" && !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got  %v\n want %v (fxamacker)", name, got, want)
		}
		if vs := valuesOf(got); !reflect.DeepEqual(vs, valuesOf(want)) || len(vs) != 5 ||
			got[len(got)-1].err != io.EOF.Error() {
			t.Errorf("%s: values %v, last %v; want fxamacker's 5 (%v), then EOF", name, vs,
				got[len(got)-1], valuesOf(want))
		}
	}
}

// errLibPtr's UnmarshalCBOR fails with this package's own *Error (it
// decodes bytes that are cut short).
type errLibPtr struct{ X int }

func (e *errLibPtr) UnmarshalCBOR([]byte) error {
	var x any
	return Unmarshal([]byte{0x82, 0x01}, &x)
}

// A Decoder takes an Unmarshaler's error, even an *Error of this package's,
// as the item's and reads the next item after it, as fxamacker does (the
// *Error looked like a malformed stream: it came back from every later
// Decode, its offset moved by the item's).
func TestDecoderGoesOnAfterAnUnmarshalersError(t *testing.T) {
	in := unhex(t, "a1 6178 01 05 06")
	var wantErr error
	{
		var x any
		wantErr = Unmarshal([]byte{0x82, 0x01}, &x)
	}
	type row struct {
		v   any
		err string
	}
	run := func(decode func(any) error) (got []row) {
		var a errLibPtr
		err := decode(&a)
		got = append(got, row{nil, fmt.Sprint(err)})
		for i := 0; i < 3; i++ {
			var v any
			err := decode(&v)
			got = append(got, row{v, fmt.Sprint(err)})
		}
		return got
	}
	ours := NewDecoder(bytes.NewReader(in))
	got := run(ours.Decode)
	theirs := fx.NewDecoder(bytes.NewReader(in))
	want := run(theirs.Decode)
	if !reflect.DeepEqual(got, want) || got[0].err != wantErr.Error() ||
		got[1].v != uint64(5) || got[2].v != uint64(6) || got[3].err != "EOF" {
		t.Errorf("got  %v\nwant %v (fxamacker), first error %v", got, want, wantErr)
	}
}
