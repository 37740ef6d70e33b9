package cborfast

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"testing"
)

// Strict checks and limits through Decode, Sequence and Reader, and
// NextBatch (cbor_reader_next_batch) against Next on the corpus. Every
// expected code and offset is read off the bytes in the comments.

// failsEverywhere checks that Decode, Sequence and (without MaxMemory) the
// Reader all fail with sentinel `want` at `offset`; the Reader hands out
// `before` items first.
func failsEverywhere(t *testing.T, name string, in []byte, o DecodeOptions, want *Error,
	offset, before int) {
	t.Helper()
	check := func(via string, err error) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, want) || e.Offset != offset {
			t.Errorf("%s via %s: %v, want %s at %d", name, via, err, want.Status, offset)
		}
	}
	_, err := o.Decode(in)
	check("Decode", err)
	q := o.NewSequence(in)
	_, err = q.Next()
	check("Sequence", err)
	q.Close()
	if o.MaxMemory != 0 {
		return
	}
	r := o.NewReader(in)
	defer r.Close()
	for k := 0; k < before; k++ {
		if _, err := r.Next(); err != nil {
			t.Fatalf("%s: reader item %d: %v", name, k, err)
		}
	}
	_, err = r.Next()
	check("Reader", err)
}

func TestStrictChecks(t *testing.T) {
	before := liveHandles
	dup := DecodeOptions{RejectDuplicateKeys: true}
	det := DecodeOptions{Deterministic: true}
	// {"a": 1, "a": 2}: a2 | 61 61 | 01 | 61 61 (second key, offset 4) | 02
	duplicate := unhex(t, "a2 6161 01 6161 02")
	failsEverywhere(t, "duplicate", duplicate, dup, ErrDuplicateKey, 4, 3)
	failsEverywhere(t, "duplicate, deterministic", duplicate, det, ErrDuplicateKey, 4, 3)
	// 1 and 18 01 are one key: a2 01 00 | 18 01 (offset 3) | 00
	failsEverywhere(t, "equal by value", unhex(t, "a2 01 00 1801 00"), dup, ErrDuplicateKey, 3, 3)
	// Off by default: both pairs kept.
	if v, err := Decode(duplicate); err != nil || len(v.(Map)) != 2 {
		t.Errorf("duplicate without the check: %v %v", v, err)
	}
	// {2: 0, 1: 0}: a2 | 02 | 00 | 01 (offset 3) | 00
	failsEverywhere(t, "unsorted", unhex(t, "a2 02 00 01 00"), det, ErrUnsortedKeys, 3, 3)
	// 5 in a two-byte head: 18 05 at 0
	failsEverywhere(t, "not preferred", unhex(t, "1805"), det, ErrNotPreferred, 0, 0)
	// 1.0 as a float64 (fits a half): fb at 0
	failsEverywhere(t, "wide float", unhex(t, "fb 3ff0000000000000"), det, ErrNotPreferred, 0, 0)
	// [_ 1]: 9f at 0
	failsEverywhere(t, "indefinite", unhex(t, "9f 01 ff"), det, ErrIndefiniteLength, 0, 0)
	if _, err := det.Decode(unhex(t, "a2 01 00 02 00")); err != nil {
		t.Errorf("sorted map: %v", err)
	}
	// The Reader setters.
	r := NewReader(duplicate)
	if err := r.SetRejectDuplicateKeys(true); err != nil {
		t.Fatal(err)
	}
	// The map, "a" and 1, then the error, in one NextBatch.
	n, err := r.NextBatch(make([]Item, 10))
	if n != 3 || !errors.Is(err, ErrDuplicateKey) || err.(*Error).Offset != 4 ||
		err.(*Error).Code != CodeDuplicateKey {
		t.Errorf("NextBatch to the duplicate: %d %v", n, err)
	}
	r.Close()
	r = NewReader(unhex(t, "1805"))
	if err := r.SetDeterministic(true); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrNotPreferred) {
		t.Errorf("SetDeterministic: %v", err)
	}
	r.Close()
	checkNoLeaks(t, before)
}

func TestLimits(t *testing.T) {
	before := liveHandles
	// A 10-byte text: 6a at 0
	ten := append(unhex(t, "6a"), "0123456789"...)
	failsEverywhere(t, "string", ten, DecodeOptions{MaxStringLength: 9}, ErrStringTooLong, 0, 0)
	if v, err := (DecodeOptions{MaxStringLength: 10}).Decode(ten); err != nil || v != "0123456789" {
		t.Errorf("10 bytes at limit 10: %v %v", v, err)
	}
	// (_ "01234" "56789"): 7f | 65 at 1 | 65 at 7 (the total crosses 9) | ff
	joined := append(append(append(unhex(t, "7f 65"), "01234"...), 0x65), "56789\xff"...)
	failsEverywhere(t, "joined", joined, DecodeOptions{MaxStringLength: 9}, ErrStringTooLong, 7, 2)
	// [1, 2, 3]: 83 at 0, items at 1, 2, 3 (the fourth data item at 3)
	three := unhex(t, "83 01 02 03")
	failsEverywhere(t, "container", three, DecodeOptions{MaxContainerItems: 2},
		ErrContainerTooLarge, 0, 0)
	failsEverywhere(t, "items", three, DecodeOptions{MaxItems: 3}, ErrTooManyItems, 3, 3)
	if _, err := (DecodeOptions{MaxItems: 4, MaxContainerItems: 3}).Decode(three); err != nil {
		t.Errorf("at the limits: %v", err)
	}
	// A sequence, as a Reader, counts the items of each top-level item
	// (since 0.5; before, from its start): 01 | 83 01 02 03, the second
	// item's fourth data item (03) at 4.
	q := DecodeOptions{MaxItems: 3}.NewSequence(append([]byte{1}, three...))
	if v, err := q.Next(); err != nil || v != uint64(1) {
		t.Errorf("first item: %v %v", v, err)
	}
	if _, err := q.Next(); !errors.Is(err, ErrTooManyItems) || err.(*Error).Offset != 4 {
		t.Errorf("second item: %v", err)
	}
	q.Close()
	// An array of 100000 uints 1: 9a 00 01 86 a0, then 100000 bytes 01.
	many := append(unhex(t, "9a 000186a0"), bytes.Repeat([]byte{1}, 100000)...)
	budget := DecodeOptions{MaxMemory: 65536}
	for via, err := range map[string]error{
		"Decode":   func() error { _, err := budget.Decode(many); return err }(),
		"Sequence": func() error { q := budget.NewSequence(many); defer q.Close(); _, err := q.Next(); return err }(),
	} {
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeMemoryBudget || e.Offset >= len(many) {
			t.Errorf("max memory via %s: %v", via, err)
		}
	}
	if _, err := (DecodeOptions{MaxMemory: 64 << 20}).Decode(many); err != nil {
		t.Errorf("max memory 64 MiB: %v", err)
	}
	r := budget.NewReader(many)
	if _, err := r.Next(); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Reader with MaxMemory: %v", err)
	}
	r.Close()
	// math.MaxUint64 is no budget (lifted), which a reader keeps; the other
	// options apply: MaxDepth 1 refuses [[1]] at its second head.
	var de *Error
	r = (DecodeOptions{MaxMemory: math.MaxUint64, MaxDepth: 1}).NewReader([]byte{0x81, 0x81, 0x01})
	if _, err := r.Next(); err != nil {
		t.Errorf("Reader with MaxMemory lifted: %v", err)
	}
	if _, err := r.Next(); !errors.As(err, &de) || de.Code != CodeDepth || de.Offset != 1 {
		t.Errorf("Reader with MaxMemory lifted, MaxDepth 1: %v", err)
	}
	r.Close()
	// The Reader setters.
	r = NewReader(three)
	if err := r.SetMaxContainerItems(2); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrContainerTooLarge) {
		t.Errorf("SetMaxContainerItems: %v", err)
	}
	r.Close()
	r = NewReader(three)
	if err := r.SetMaxItems(3); err != nil {
		t.Fatal(err)
	}
	if n, err := r.NextBatch(make([]Item, 8)); n != 3 || !errors.Is(err, ErrTooManyItems) ||
		err.(*Error).Offset != 3 {
		t.Errorf("SetMaxItems: %d %v", n, err)
	}
	r.Close()
	r = NewReader(ten)
	if err := r.SetMaxStringLength(9); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrStringTooLong) {
		t.Errorf("SetMaxStringLength: %v", err)
	}
	r.Close()
	checkNoLeaks(t, before)
}

// TestNextBatchEqualsNextOnCorpus: the same items, offsets and string views.
func TestNextBatchEqualsNextOnCorpus(t *testing.T) {
	before := liveHandles
	for _, name := range []string{"twitter", "citm_catalog", "canada"} {
		in := readCorpus(t, name)
		want := readAllItems(t, in)
		for _, size := range []int{7, 256, 1000} {
			got := make([]Item, 0, len(want))
			buf := make([]Item, size)
			r := NewReader(in)
			for {
				n, err := r.NextBatch(buf)
				got = append(got, buf[:n]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			r.Close()
			if len(got) != len(want) {
				t.Fatalf("%s batch %d: %d items, want %d", name, size, len(got), len(want))
			}
			for i := range got {
				g, w := got[i], want[i]
				if g.Type != w.Type || g.Offset != w.Offset || g.Depth != w.Depth ||
					g.Value != w.Value || g.HeadSize != w.HeadSize || g.Indefinite != w.Indefinite ||
					g.Break != w.Break || g.FloatWidth != w.FloatWidth || g.Float != w.Float ||
					len(g.Data) != len(w.Data) || (len(g.Data) > 0 && &g.Data[0] != &w.Data[0]) {
					t.Fatalf("%s batch %d item %d: %+v, want %+v", name, size, i, g, w)
				}
			}
		}
	}
	checkNoLeaks(t, before)
}

// countHead is prefix then a 9-byte array (major 4) or map (5) head counting n.
func countHead(prefix []byte, major byte, n uint64) []byte {
	return binary.BigEndian.AppendUint64(append(append([]byte{}, prefix...), major<<5|27), n)
}

// The default container limit (since 0.5) on Decode, NewSequence and
// NewReader: a head alone, so a count the limit lets through is truncated
// (its entries are missing) and one it refuses is container_too_large, both
// at the head.
func TestDefaultContainerLimit(t *testing.T) {
	if DefaultMaxContainerItems != 1<<24 || DefaultMaxItems != 1<<28 {
		t.Fatalf("defaults %d %d", DefaultMaxContainerItems, DefaultMaxItems)
	}
	n := DefaultMaxContainerItems
	pair := []byte{0x82, 0x00}
	for _, row := range []struct {
		name   string
		in     []byte
		o      DecodeOptions
		want   *Error
		offset int
		before int
	}{
		{"array_at_default_passes_the_limit", countHead(nil, 4, n), DecodeOptions{}, ErrTruncated, 0, 0},
		{"array_one_over_default", countHead(nil, 4, n+1), DecodeOptions{}, ErrContainerTooLarge, 0, 0},
		{"map_at_default_passes_the_limit", countHead(nil, 5, n), DecodeOptions{}, ErrTruncated, 0, 0},
		{"map_one_over_default", countHead(nil, 5, n+1), DecodeOptions{}, ErrContainerTooLarge, 0, 0},
		{"nested_one_over_default", countHead(pair, 4, n+1), DecodeOptions{}, ErrContainerTooLarge, 2, 2},
		{"array_one_over_default.lifted_to_max", countHead(nil, 4, n+1),
			DecodeOptions{MaxContainerItems: math.MaxUint64}, ErrTruncated, 0, 0},
		{"map_one_over_default.lifted_by_one", countHead(nil, 5, n+1),
			DecodeOptions{MaxContainerItems: n + 1}, ErrTruncated, 0, 0},
	} {
		failsEverywhere(t, row.name, row.in, row.o, row.want, row.offset, row.before)
	}
	// The setter lifts it on a Reader too.
	r := DecodeOptions{}.NewReader(countHead(nil, 4, n+1))
	defer r.Close()
	if err := r.SetMaxContainerItems(math.MaxUint64); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrTruncated) || err.(*Error).Offset != 0 {
		t.Errorf("lifted reader: %v", err)
	}
}
