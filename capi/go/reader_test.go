package cborfast

import (
	"errors"
	"io"
	"testing"
	"unsafe"
)

// {"a": [1, -100, 1.0], "b": (_ h'0102', h'03')}
const readerInput = "a2 6161 83 01 3863 f93c00 6162 5f 420102 4103 ff"

func TestReaderItems(t *testing.T) {
	before := liveHandles
	in := unhex(t, readerInput)
	r := NewReader(in)
	defer r.Close()
	type want struct {
		typ        Type
		depth      int
		offset     int
		head       int
		value      uint64
		indef, brk bool
		data       [2]int // Data = in[data[0]:data[1]] when data[1] > 0
	}
	for i, w := range []want{
		{typ: TypeMap, depth: 0, offset: 0, head: 1, value: 2},
		{typ: TypeText, depth: 1, offset: 1, head: 1, value: 1, data: [2]int{2, 3}},
		{typ: TypeArray, depth: 1, offset: 3, head: 1, value: 3},
		{typ: TypeUint, depth: 2, offset: 4, head: 1, value: 1},
		{typ: TypeNegative, depth: 2, offset: 5, head: 2, value: 99},
		{typ: TypeFloat, depth: 2, offset: 7, head: 3, value: 0x3c00},
		{typ: TypeEnd, depth: 1, offset: 10, head: 0},
		{typ: TypeText, depth: 1, offset: 10, head: 1, value: 1, data: [2]int{11, 12}},
		{typ: TypeBytes, depth: 1, offset: 12, head: 1, indef: true},
		{typ: TypeBytes, depth: 2, offset: 13, head: 1, value: 2, data: [2]int{14, 16}},
		{typ: TypeBytes, depth: 2, offset: 16, head: 1, value: 1, data: [2]int{17, 18}},
		{typ: TypeEnd, depth: 1, offset: 18, head: 1, indef: true, brk: true},
		{typ: TypeEnd, depth: 0, offset: 19, head: 0},
	} {
		it, err := r.Next()
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		if it.Type != w.typ || it.Depth != w.depth || it.Offset != w.offset || it.HeadSize != w.head ||
			it.Value != w.value || it.Indefinite != w.indef || it.Break != w.brk {
			t.Errorf("item %d = %+v, want %+v", i, it, w)
		}
		if w.data[1] > 0 {
			// Zero copy: Data is exactly in[a:b], the caller's own memory.
			a, b := w.data[0], w.data[1]
			if len(it.Data) != b-a || cap(it.Data) != b-a ||
				uintptr(unsafe.Pointer(&it.Data[0]))-uintptr(unsafe.Pointer(&in[0])) != uintptr(a) {
				t.Errorf("item %d: Data %p len %d cap %d, want &in[%d] (%p) len %d",
					i, it.Data, len(it.Data), cap(it.Data), a, &in[a], b-a)
			}
		} else if it.Data != nil {
			t.Errorf("item %d: Data %v, want nil", i, it.Data)
		}
		if it.Type == TypeFloat && (it.Float != 1.0 || it.FloatWidth != 2) {
			t.Errorf("float item: %v width %d", it.Float, it.FloatWidth)
		}
		if it.Type == TypeNegative {
			if n, ok := it.Int(); !ok || n != -100 {
				t.Errorf("Int() = %d, %v", n, ok)
			}
		}
	}
	for i := 0; i < 2; i++ {
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("after the last item: %v, want io.EOF", err)
		}
	}
	if err := r.Finish(); err != nil {
		t.Errorf("Finish: %v", err)
	}
	if r.Offset() != len(in) || r.Depth() != 0 {
		t.Errorf("Offset %d Depth %d", r.Offset(), r.Depth())
	}
	r.Close()
	checkNoLeaks(t, before)
}

func TestReaderJoinAndSkip(t *testing.T) {
	in := unhex(t, readerInput)
	r := NewReader(in)
	defer r.Close()
	next := func(want Type) Item {
		t.Helper()
		it, err := r.Next()
		if err != nil || it.Type != want {
			t.Fatalf("Next = %v %v, want %v", it.Type, err, want)
		}
		return it
	}
	next(TypeMap)
	next(TypeText)
	if b, err := r.Join(); err != nil || string(b) != "a" || &b[0] != &in[2] {
		t.Errorf("Join of a definite string = %q, %v (want a view of the input)", b, err)
	}
	if err := r.Skip(); err != nil { // the whole array
		t.Fatal(err)
	}
	next(TypeText)
	next(TypeBytes)
	b, err := r.Join()
	if err != nil || string(b) != "\x01\x02\x03" {
		t.Fatalf("Join = %x, %v", b, err)
	}
	if _, err := r.Join(); !errors.Is(err, ErrInvalidState) {
		t.Errorf("second Join: %v, want invalid_state", err)
	}
	if err := r.Skip(); !errors.Is(err, ErrInvalidState) {
		t.Errorf("Skip at the end of the map: %v, want invalid_state", err)
	}
	next(TypeEnd)
	if err := r.Skip(); err != io.EOF {
		t.Errorf("Skip at the end: %v, want io.EOF", err)
	}

	r2 := NewReader(in)
	defer r2.Close()
	if it, _ := r2.Next(); it.Type != TypeMap {
		t.Fatal(it)
	}
	if err := r2.SkipToEnd(); err != nil || r2.Offset() != len(in) || r2.Depth() != 0 {
		t.Errorf("SkipToEnd: %v at %d depth %d", err, r2.Offset(), r2.Depth())
	}
	if err := r2.SkipToEnd(); !errors.Is(err, ErrInvalidState) {
		t.Errorf("SkipToEnd at the top level: %v", err)
	}
}

func TestReaderErrors(t *testing.T) {
	before := liveHandles
	// A truncated string inside an array: the error is at the string's head,
	// and it is sticky.
	r := NewReader(unhex(t, "82 01 63 6162"))
	r.Next()
	r.Next()
	for i := 0; i < 2; i++ {
		_, err := r.Next()
		var e *Error
		if !errors.As(err, &e) || e.Status != "truncated" || e.Offset != 2 || e.ItemOffset != 0 || e.Depth != 1 {
			t.Fatalf("Next #%d: %#v", i, err)
		}
	}
	r.Close()

	r = NewReader(unhex(t, "81 81 81 00"))
	if err := r.SetMaxDepth(2); err != nil {
		t.Fatal(err)
	}
	r.Next()
	r.Next()
	if _, err := r.Next(); !errors.Is(err, ErrDepth) || err.(*Error).Offset != 2 {
		t.Errorf("depth: %v", err)
	}
	if err := r.SetMaxDepth(-1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("SetMaxDepth(-1): %v", err)
	}
	r.Close()

	r = NewReader(unhex(t, "62 c328"))
	if err := r.SetValidateUTF8(true); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrInvalidUTF8) || err.(*Error).Offset != 1 {
		t.Errorf("UTF-8: %v", err)
	}
	r.Close()

	r = NewReader(unhex(t, "81"))
	r.Next()
	if err := r.Finish(); !errors.Is(err, ErrTruncated) {
		t.Errorf("Finish with an open array: %v", err)
	}
	r.Close()
	r.Close() // idempotent
	for _, err := range []error{
		func() error { _, err := r.Next(); return err }(),
		r.Skip(), r.SkipToEnd(), r.Finish(), r.SetValidateUTF8(false),
		func() error { _, err := r.Join(); return err }(),
	} {
		if err != ErrClosed {
			t.Errorf("after Close: %v, want ErrClosed", err)
		}
	}
	if r.Offset() != 0 || r.Depth() != 0 {
		t.Errorf("Offset/Depth after Close")
	}
	checkNoLeaks(t, before)
}

func TestReaderEmptyAndSequence(t *testing.T) {
	r := NewReader(nil)
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("empty input: %v", err)
	}
	r.Close()
	// Several top-level items and empty strings.
	in := unhex(t, "40 60 01")
	r = NewReader(in)
	defer r.Close()
	for i, want := range []Type{TypeBytes, TypeText, TypeUint} {
		it, err := r.Next()
		if err != nil || it.Type != want || it.Offset != i || len(it.Data) != 0 {
			t.Errorf("item %d: %+v %v", i, it, err)
		}
		if want != TypeUint && it.Data == nil {
			t.Errorf("item %d: empty string has nil Data", i)
		}
	}
}

func TestReaderDataIsCallersMemory(t *testing.T) {
	in := unhex(t, "43 616263")
	r := NewReader(in)
	defer r.Close()
	it, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	// Still valid after Close, and it aliases the input.
	in[1] = 'x'
	if string(it.Data) != "xbc" {
		t.Errorf("Data = %q, want the caller's bytes", it.Data)
	}
}

func TestReaderNextBatch(t *testing.T) {
	before := liveHandles
	in := unhex(t, readerInput)
	want := readAllItems(t, in)
	if len(want) != 13 {
		t.Fatalf("%d items", len(want))
	}
	for _, size := range []int{1, 5, 13, 14, 600} {
		r := NewReader(in)
		var got []Item
		buf := make([]Item, size)
		for {
			n, err := r.NextBatch(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil || n != size {
				t.Fatalf("size %d: n %d, %v", size, n, err)
			}
		}
		r.Close()
		if len(got) != len(want) {
			t.Fatalf("size %d: %d items, want %d", size, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Type != w.Type || g.Offset != w.Offset || g.Depth != w.Depth || g.Value != w.Value ||
				g.HeadSize != w.HeadSize || g.Indefinite != w.Indefinite || g.Break != w.Break ||
				len(g.Data) != len(w.Data) || (len(g.Data) > 0 && &g.Data[0] != &w.Data[0]) {
				t.Errorf("size %d item %d: %+v, want %+v", size, i, g, w)
			}
		}
	}
	// Join applies to the last item of a batch: here the indefinite string.
	r := NewReader(in)
	buf := make([]Item, 9)
	if n, err := r.NextBatch(buf); n != 9 || err != nil || buf[8].Type != TypeBytes || !buf[8].Indefinite {
		t.Fatalf("NextBatch: %d %v %+v", n, err, buf[8])
	}
	if b, err := r.Join(); err != nil || string(b) != "\x01\x02\x03" {
		t.Errorf("Join after NextBatch: %x %v", b, err)
	}
	r.Close()
	// An error after some items: the items come with it.
	r = NewReader(unhex(t, "01 02 ff"))
	n, err := r.NextBatch(make([]Item, 8))
	if n != 2 || !errors.Is(err, &Error{Code: CodeUnexpectedBreak}) || err.(*Error).Offset != 2 {
		t.Errorf("NextBatch with an error: %d, %v", n, err)
	}
	if n, err := r.NextBatch(make([]Item, 8)); n != 0 || err.(*Error).Code != CodeUnexpectedBreak {
		t.Errorf("sticky: %d, %v", n, err)
	}
	r.Close()
	if n, err := r.NextBatch(make([]Item, 8)); n != 0 || err != ErrClosed {
		t.Errorf("after Close: %d, %v", n, err)
	}
	checkNoLeaks(t, before)
}
