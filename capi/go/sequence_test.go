package cborfast

import (
	"errors"
	"io"
	"math/big"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestSequence(t *testing.T) {
	before := liveHandles
	in := unhex(t, "01 6161 82 f5 f6 a0")
	q := NewSequence(in)
	for i, want := range []any{uint64(1), "a", []any{true, nil}, Map{}} {
		v, err := q.Next()
		if err != nil || !equal(v, want) {
			t.Fatalf("item %d = %#v, %v; want %#v", i, v, err, want)
		}
	}
	for i := 0; i < 2; i++ {
		if v, err := q.Next(); err != io.EOF || v != nil {
			t.Fatalf("after the last item: %v, %v", v, err)
		}
	}
	q.Close()
	if _, err := q.Next(); err != ErrClosed {
		t.Errorf("after Close: %v", err)
	}
	q.Close()

	q = NewSequence(nil)
	if _, err := q.Next(); err != io.EOF {
		t.Errorf("empty sequence: %v", err)
	}
	q.Close()
	checkNoLeaks(t, before)
}

func TestSequenceErrors(t *testing.T) {
	before := liveHandles
	// The second item is a truncated array: the offset is absolute.
	q := NewSequence(unhex(t, "00 82 01"))
	if v, err := q.Next(); err != nil || v != uint64(0) {
		t.Fatal(v, err)
	}
	for i := 0; i < 2; i++ { // sticky
		_, err := q.Next()
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeTruncated || e.Offset != 1 || e.ItemOffset != 1 {
			t.Fatalf("Next #%d: %#v", i, err)
		}
	}
	q.Close()

	q = DecodeOptions{MaxDepth: 1, ValidateUTF8: true}.NewSequence(unhex(t, "81 00 81 81 00"))
	if v, err := q.Next(); err != nil || !equal(v, []any{uint64(0)}) {
		t.Fatal(v, err)
	}
	if _, err := q.Next(); !errors.Is(err, ErrDepth) || err.(*Error).Offset != 3 {
		t.Errorf("depth: %v", err)
	}
	q.Close()

	q = DecodeOptions{ValidateUTF8: true}.NewSequence(unhex(t, "6161 62 c328"))
	q.Next()
	if _, err := q.Next(); !errors.Is(err, ErrInvalidUTF8) || err.(*Error).Offset != 3 {
		t.Errorf("UTF-8: %v", err)
	}
	q.Close()
	checkNoLeaks(t, before)
}

func TestSequenceValuesOutliveClose(t *testing.T) {
	in := unhex(t, "43 616263 63 646566")
	q := NewSequence(in)
	a, _ := q.Next()
	b, _ := q.Next()
	q.Close()
	in[1], in[5] = 'x', 'x' // values are copies, not views of the input
	if !equal(a, []byte("abc")) || b != "def" {
		t.Errorf("values after Close: %#v %#v", a, b)
	}
}

// A Reader or Sequence that is never closed is freed by its finalizer.
func TestFinalizersFreeHandles(t *testing.T) {
	before := atomic.LoadInt64(&liveHandles)
	func() {
		r := NewReader([]byte{0x01})
		q := NewSequence([]byte{0x01})
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		if _, err := q.Next(); err != nil {
			t.Fatal(err)
		}
	}()
	if atomic.LoadInt64(&liveHandles) != before+2 { // the Reader (its input is pinned, not copied), the Sequence
		t.Fatalf("live handles %d, want %d", atomic.LoadInt64(&liveHandles), before+2)
	}
	deadline := time.Now().Add(5 * time.Second)
	for atomic.LoadInt64(&liveHandles) != before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	checkNoLeaks(t, before)
}

// A zero Sequence (not made by NewSequence) answers ErrInvalidArgument, as
// a zero Reader does, instead of dereferencing nil; Close on it is fine.
func TestZeroSequence(t *testing.T) {
	var q Sequence
	for i := 0; i < 2; i++ {
		if v, err := q.Next(); v != nil || err != ErrInvalidArgument {
			t.Fatalf("call %d: %v, %v", i, v, err)
		}
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Next(); err != ErrClosed {
		t.Fatalf("after Close: %v", err)
	}
}

// A Tag target takes any tag with its content, but not tags 0 to 3 over
// content of another type (those are refused for every target).
func TestTagTarget(t *testing.T) {
	for _, row := range []struct {
		name, hex string
		want      Tag
	}{
		{"bignum", "c2 41 01", Tag{Number: 2, Content: []byte{1}}},
		{"epoch time", "c1 1a 51 4b 67 b0", Tag{Number: 1, Content: uint64(1363896240)}},
		{"date text", "c0 61 61", Tag{Number: 0, Content: "a"}},
		{"uri", "d8 20 61 61", Tag{Number: 32, Content: "a"}},
		{"nested", "d8 20 c2 41 01", Tag{Number: 32, Content: *new(big.Int).SetInt64(1)}},
	} {
		var got Tag
		if err := Unmarshal(unhex(t, row.hex), &got); err != nil || !reflect.DeepEqual(got, row.want) {
			t.Errorf("%s: %#v %v", row.name, got, err)
		}
	}
}
