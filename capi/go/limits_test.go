package cborfast

import (
	"bytes"
	"errors"
	"math/big"
	"reflect"
	"runtime"
	"strings"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

// limArray is an array of n zeros (indefinite: 9f ... ff).
func limArray(n int, indef bool) []byte {
	var b []byte
	if indef {
		b = append(b, 0x9f)
	} else {
		b = appendHead(b, 0x80, uint64(n))
	}
	b = append(b, make([]byte, n)...)
	if indef {
		b = append(b, 0xff)
	}
	return b
}

// limMap is a map of n pairs i: 0 (indefinite: bf ... ff), and the offset
// of the key of pair `at` (0-based) from the map's head.
func limMap(n int, indef bool, at int) ([]byte, int) {
	var b []byte
	if indef {
		b = append(b, 0xbf)
	} else {
		b = appendHead(b, 0xa0, uint64(n))
	}
	off := -1
	for i := 0; i < n; i++ {
		if i == at {
			off = len(b)
		}
		b = append(appendHead(b, 0x00, uint64(i)), 0)
	}
	if indef {
		b = append(b, 0xff)
	}
	return b, off
}

type limStruct struct {
	A string `cbor:"a"`
}

// limCase: in decoded into into fails with code at off (code 0: no *Error;
// typeErr: an *UnmarshalTypeError then), and fxamacker fails too (fxErr is
// its error type, or nil for none).
type limCase struct {
	name    string
	in      []byte
	into    func() any
	code    int
	off     int
	typeErr bool
	fxErr   func(error) bool
}

func isFxArrayLimit(err error) bool { var e *fx.MaxArrayElementsError; return errors.As(err, &e) }
func isFxMapLimit(err error) bool   { var e *fx.MaxMapPairsError; return errors.As(err, &e) }
func isFxDepth(err error) bool      { var e *fx.MaxNestedLevelError; return errors.As(err, &e) }
func isFxTypeErr(err error) bool    { var e *fx.UnmarshalTypeError; return errors.As(err, &e) }

func runLimCases(t *testing.T, ours DecMode, peer fx.DecMode, cases []limCase) {
	t.Helper()
	for _, c := range cases {
		err := ours.Unmarshal(c.in, c.into())
		var e *Error
		switch {
		case c.code != 0:
			if !errors.As(err, &e) || e.Code != c.code || e.Offset != c.off {
				t.Errorf("%s: %v, want code %d at %d", c.name, err, c.code, c.off)
			}
		case c.typeErr:
			var te *UnmarshalTypeError
			if !errors.As(err, &te) {
				t.Errorf("%s: %v, want a type error", c.name, err)
			}
		default:
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		}
		perr := peer.Unmarshal(c.in, c.into())
		if c.fxErr == nil && perr != nil || c.fxErr != nil && !c.fxErr(perr) {
			t.Errorf("%s: fxamacker: %v", c.name, perr)
		}
	}
}

func TestDefaultLimits(t *testing.T) {
	const max = 131072
	dm, _ := DecOptions{}.DecMode()
	pm, _ := fx.DecOptions{}.DecMode()
	if o := dm.DecOptions(); o.MaxArrayElements != 0 || o.MaxNestedLevels != 0 {
		t.Fatal("zero options are not the defaults")
	}
	anyT := func() any { return new(any) }
	ints := func() any { return new([]int) }
	one := func() any { return new([1]int) }
	mapT := func() any { return new(map[int]int) }
	st := func() any { return new(limStruct) }
	field := func(key string, v []byte) []byte { // {key: v}
		return append(append([]byte{0xa1, 0x61}, key...), v...)
	}
	var cases []limCase
	for _, indef := range []bool{false, true} {
		kind := "definite"
		if indef {
			kind = "indefinite"
		}
		at, over := limArray(max, indef), limArray(max+1, indef)
		overAt := 0
		if indef {
			overAt = 1 + max // the element past the limit
		}
		for _, into := range []struct {
			name string
			f    func() any
		}{{"any", anyT}, {"[]int", ints}, {"[1]int (the rest skipped)", one}} {
			cases = append(cases,
				limCase{kind + " array of 131072 into " + into.name, at, into.f, 0, 0, false, nil},
				limCase{kind + " array of 131073 into " + into.name, over, into.f, CodeContainerTooLarge, overAt, false, isFxArrayLimit})
		}
		cases = append(cases,
			limCase{kind + " array of 131072, unknown field", field("z", at), st, 0, 0, false, nil},
			limCase{kind + " array of 131073, unknown field", field("z", over), st, CodeContainerTooLarge, 3 + overAt, false, isFxArrayLimit},
			limCase{kind + " array of 131072, a value of the wrong type", field("a", at), st, 0, 0, true, isFxTypeErr},
			limCase{kind + " array of 131073, a value of the wrong type", field("a", over), st, CodeContainerTooLarge, 3 + overAt, false, isFxArrayLimit},
			limCase{kind + " array of 131073 inside an unknown field", field("z", append([]byte{0x81}, over...)), st,
				CodeContainerTooLarge, 4 + overAt, false, isFxArrayLimit})
		mAt, _ := limMap(max, indef, -1)
		mOver, keyOff := limMap(max+1, indef, max)
		mOverAt := 0
		if indef {
			mOverAt = keyOff // the key of the pair past the limit
		}
		for _, into := range []struct {
			name string
			f    func() any
		}{{"any", anyT}, {"map[int]int", mapT}} {
			cases = append(cases,
				limCase{kind + " map of 131072 pairs into " + into.name, mAt, into.f, 0, 0, false, nil},
				limCase{kind + " map of 131073 pairs into " + into.name, mOver, into.f, CodeContainerTooLarge, mOverAt, false, isFxMapLimit})
		}
		cases = append(cases,
			limCase{kind + " map of 131072 pairs into a struct (keys unknown)", mAt, st, 0, 0, false, nil},
			limCase{kind + " map of 131073 pairs into a struct (keys unknown)", mOver, st, CodeContainerTooLarge, mOverAt, false, isFxMapLimit},
			limCase{kind + " map of 131073 pairs, unknown field", field("z", mOver), st, CodeContainerTooLarge, 3 + mOverAt, false, isFxMapLimit})
	}
	// Depth: 32 levels pass, the 33rd fails at its head.
	nest := func(n int, head ...byte) []byte {
		var b []byte
		for i := 0; i < n; i++ {
			b = append(b, head...)
		}
		return append(b, 0)
	}
	indefNest := func(n int) []byte {
		b := bytes.Repeat([]byte{0x9f}, n)
		return append(b, bytes.Repeat([]byte{0xff}, n)...)
	}
	cases = append(cases,
		limCase{"32 nested arrays into any", nest(32, 0x81), anyT, 0, 0, false, nil},
		limCase{"33 nested arrays into any", nest(33, 0x81), anyT, CodeDepth, 32, false, isFxDepth},
		limCase{"33 nested arrays into []any", nest(33, 0x81), func() any { return new([]any) }, CodeDepth, 32, false, isFxDepth},
		limCase{"100000 nested arrays into any", nest(100000, 0x81), anyT, CodeDepth, 32, false, isFxDepth},
		limCase{"100000 nested maps into any", nest(100000, 0xa1, 0x00), anyT, CodeDepth, 64, false, isFxDepth},
		limCase{"32 nested maps into any", nest(32, 0xa1, 0x00), anyT, 0, 0, false, nil},
		limCase{"33 nested maps into any", nest(33, 0xa1, 0x00), anyT, CodeDepth, 64, false, isFxDepth},
		limCase{"32 nested indefinite arrays", indefNest(32), anyT, 0, 0, false, nil},
		limCase{"33 nested indefinite arrays", indefNest(33), anyT, CodeDepth, 32, false, isFxDepth},
		limCase{"struct + 31 arrays in an unknown field", field("z", nest(31, 0x81)), st, 0, 0, false, nil},
		limCase{"struct + 32 arrays in an unknown field", field("z", nest(32, 0x81)), st, CodeDepth, 3 + 31, false, isFxDepth},
		limCase{"struct + 32 arrays in a field of the wrong type", field("a", nest(32, 0x81)), st, CodeDepth, 3 + 31, false, isFxDepth},
		// Known difference: here every tag and indefinite string is a
		// level; fxamacker counts neither a chain's first tag nor
		// indefinite strings.
		limCase{"32 arrays + a tag: 33 levels here, 32 in fxamacker", append(bytes.Repeat([]byte{0x81}, 32), 0xc1, 0x00), anyT,
			CodeDepth, 32, false, nil},
		limCase{"32 arrays + an indefinite string: 33 levels here", append(bytes.Repeat([]byte{0x81}, 32), 0x5f, 0x41, 0x00, 0xff), anyT,
			CodeDepth, 32, false, nil},
	)
	runLimCases(t, dm, pm, cases)
}

// With MaxArrayElements and MaxMapPairs apart, the smaller is checked on
// every item too (the library checks the larger).
func TestSplitContainerLimits(t *testing.T) {
	arrays16, _ := DecOptions{MaxArrayElements: 16}.DecMode()
	fxArrays16, _ := fx.DecOptions{MaxArrayElements: 16}.DecMode()
	maps16, _ := DecOptions{MaxMapPairs: 16}.DecMode()
	fxMaps16, _ := fx.DecOptions{MaxMapPairs: 16}.DecMode()
	anyT := func() any { return new(any) }
	ints := func() any { return new([]int) }
	st := func() any { return new(limStruct) }
	unknown := func(v []byte) []byte { return append([]byte{0xa1, 0x61, 0x7a}, v...) }
	m17, key17 := limMap(17, true, 16)
	m17d, _ := limMap(17, false, -1)
	m16, _ := limMap(16, true, -1)
	m20, _ := limMap(20, false, -1)
	runLimCases(t, arrays16, fxArrays16, []limCase{
		{"indefinite array of 16 into []int", limArray(16, true), ints, 0, 0, false, nil},
		{"indefinite array of 17 into []int", limArray(17, true), ints, CodeContainerTooLarge, 17, false, isFxArrayLimit},
		{"indefinite array of 17 into any", limArray(17, true), anyT, CodeContainerTooLarge, 17, false, isFxArrayLimit},
		{"definite array of 17, unknown field", unknown(limArray(17, false)), st, CodeContainerTooLarge, 3, false, isFxArrayLimit},
		{"indefinite array of 17, unknown field", unknown(limArray(17, true)), st, CodeContainerTooLarge, 20, false, isFxArrayLimit},
		{"indefinite array of 17 inside an indefinite array", append(append([]byte{0x9f}, limArray(17, true)...), 0xff), anyT,
			CodeContainerTooLarge, 18, false, isFxArrayLimit},
		{"indefinite array of 16 holding arrays of 16", append(append([]byte{0x9f}, bytes.Repeat(limArray(16, false), 16)...), 0xff), anyT,
			0, 0, false, nil},
		{"maps keep 131072: 20 pairs", m20, anyT, 0, 0, false, nil},
		{"a map's 20 pairs are not array elements (indefinite)", append(append([]byte{0x9f}, m20...), 0xff), anyT, 0, 0, false, nil},
	})
	runLimCases(t, maps16, fxMaps16, []limCase{
		{"indefinite map of 16 pairs", m16, anyT, 0, 0, false, nil},
		{"indefinite map of 17 pairs: the 17th key", m17, anyT, CodeContainerTooLarge, key17, false, isFxMapLimit},
		{"indefinite map of 17 pairs into map[int]int", m17, func() any { return new(map[int]int) }, CodeContainerTooLarge, key17, false, isFxMapLimit},
		{"definite map of 17 pairs, unknown field", unknown(m17d), st, CodeContainerTooLarge, 3, false, isFxMapLimit},
		{"indefinite map of 17 pairs, unknown field", unknown(m17), st, CodeContainerTooLarge, 3 + key17, false, isFxMapLimit},
		{"arrays keep 131072: 20 elements, indefinite", limArray(20, true), ints, 0, 0, false, nil},
	})
}

// Indefinite arrays into slices: the capacity they start with is small, so
// many short ones cannot make the input's size in memory many thousand times
// (9f + 9fff x 10,000 + ff, 20 KB, held 78 MB as [][]int64 and about 10 GB
// as slices of 1 KiB structs); a definite one claiming more than the input
// holds starts with what the bytes left allow, at most 1 MiB of elements.
func TestIndefiniteArraysStartSmall(t *testing.T) {
	type big struct{ A [128]int64 }
	many := func(inner string, n int) []byte {
		return unhex(t, "9f"+strings.Repeat(inner, n)+"ff")
	}
	alloc := func(f func() error) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if err := f(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	rows := []struct {
		name  string
		data  []byte
		into  func(data []byte) error
		limit uint64
	}{
		{"empty ones into [][]int64", many("9fff", 10000),
			func(b []byte) error { var v [][]int64; return Unmarshal(b, &v) }, 2 << 20},
		{"empty ones into [][]big", many("9fff", 10000),
			func(b []byte) error { var v [][]big; return Unmarshal(b, &v) }, 2 << 20},
		{"one-element ones into [][]int64", many("9f01ff", 10000),
			func(b []byte) error { var v [][]int64; return Unmarshal(b, &v) }, 2 << 20},
		// 1 KiB elements from one byte each: the elements' own size, no more
		{"one-element ones into [][]big", many("9fa0ff", 1000),
			func(b []byte) error { var v [][]big; return Unmarshal(b, &v) }, 4 << 20},
	}
	for _, r := range rows {
		if got := alloc(func() error { return r.into(r.data) }); got > r.limit {
			t.Errorf("%s: %d bytes allocated for %d bytes of input (limit %d)",
				r.name, got, len(r.data), r.limit)
		}
	}
	// Values as before: empty ones are empty, not nil (as fxamacker).
	var v [][]int64
	if err := Unmarshal(unhex(t, "9f 9fff 9f0102ff 80 ff"), &v); err != nil ||
		!reflect.DeepEqual(v, [][]int64{{}, {1, 2}, {}}) || v[0] == nil {
		t.Fatalf("%#v, %v", v, err)
	}
	var fv [][]int64
	if err := fx.Unmarshal(unhex(t, "9f 9fff 9f0102ff 80 ff"), &fv); err != nil || !reflect.DeepEqual(v, fv) {
		t.Fatalf("fxamacker %#v, %v", fv, err)
	}
	// A definite array claiming 2^20 elements of 1 KiB with 1 MiB left:
	// truncated, after 1 MiB of elements at most (it was 1 GiB).
	claim := append(unhex(t, "9a00100000"), make([]byte, 1<<20-1)...)
	var bb []big
	got := alloc(func() error {
		err := Unmarshal(claim, &bb)
		if err == nil {
			return errors.New("no error")
		}
		return nil
	})
	if got > 64<<20 {
		t.Errorf("claimed array: %d bytes allocated", got)
	}
}

// A small message decoded and kept keeps a little memory, not whole slabs
// and arena chunks sized for large documents: 20,000 kept results of
// a1616101 into an `any` held 320 MB (16 KiB each) before.
func TestSmallResultsKeepLittle(t *testing.T) {
	if underASan {
		t.Skip("-asan instruments Go's allocations: counts differ")
	}
	type rec struct {
		ID  string `cbor:"id"`
		Tag []byte `cbor:"t"`
	}
	rows := []struct {
		name   string
		data   string
		decode func([]byte) (any, error)
	}{
		{"map into any", "a1616101", func(b []byte) (any, error) { var v any; err := Unmarshal(b, &v); return v, err }},
		{"array into any", "8101", func(b []byte) (any, error) { var v any; err := Unmarshal(b, &v); return v, err }},
		{"uint into any", "1903e8", func(b []byte) (any, error) { var v any; err := Unmarshal(b, &v); return v, err }},
		{"struct of strings", "a2626964616161744101",
			func(b []byte) (any, error) { var v rec; err := Unmarshal(b, &v); return &v, err }},
	}
	const n = 2000
	for _, r := range rows {
		data := unhex(t, r.data)
		kept := make([]any, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range kept {
			v, err := r.decode(data)
			if err != nil {
				t.Fatal(err)
			}
			kept[i] = v
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
		if per > 512 {
			t.Errorf("%s: %d bytes kept per result", r.name, per)
		}
		runtime.KeepAlive(kept)
	}
}

// selfPtr is a pointer type that points to itself: no value at its end.
type selfPtr *selfPtr

// selfPtrA and selfPtrB point to each other.
type (
	selfPtrA *selfPtrB
	selfPtrB *selfPtrA
)

// holdsSelfPtr has one in a field.
type holdsSelfPtr struct {
	N int     `cbor:"1,keyasint"`
	P selfPtr `cbor:"2,keyasint"`
}

func TestPointerTypeToItself(t *testing.T) {
	// Anything but null allocated pointer after pointer without reading
	// input until the goroutine's stack overflowed (a fatal error, not a
	// panic). Now a type error at the item, as for any other mismatch.
	typeErr := func(t *testing.T, err error, cborType string, off int) {
		t.Helper()
		var te *UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Fatalf("got %v, want an *UnmarshalTypeError", err)
		}
		if te.CBORType != cborType || te.Offset != off {
			t.Fatalf("got %q at %d, want %q at %d (%v)", te.CBORType, te.Offset, cborType, off, err)
		}
	}
	var p selfPtr
	typeErr(t, Unmarshal([]byte{0x05}, &p), "unsigned integer", 0)
	if p != nil {
		t.Fatalf("set to %v", p)
	}
	var a selfPtrA
	typeErr(t, Unmarshal([]byte{0x82, 0x01, 0x02}, &a), "array", 0)
	// in a field: the error is at the field's value; the other field is set
	var h holdsSelfPtr
	typeErr(t, Unmarshal([]byte{0xa2, 0x01, 0x07, 0x02, 0x63, 'a', 'b', 'c'}, &h), "text string", 4)
	if h.N != 7 || h.P != nil {
		t.Fatalf("got %+v", h)
	}
	// null and undefined set it to nil, as for any pointer
	p = new(selfPtr)
	if err := Unmarshal([]byte{0xf6}, &p); err != nil || p != nil {
		t.Fatalf("null: %v %v", err, p)
	}
	var b selfPtrB
	if err := Unmarshal([]byte{0xf7}, &b); err != nil || b != nil {
		t.Fatalf("undefined: %v %v", err, b)
	}
	// ordinary pointer chains are not cycles
	for _, ty := range []reflect.Type{reflect.TypeFor[*int](), reflect.TypeFor[**int](),
		reflect.TypeFor[***holdsSelfPtr]()} {
		if pointerCycle(ty) {
			t.Fatalf("%v: a cycle", ty)
		}
	}
	for _, ty := range []reflect.Type{reflect.TypeFor[selfPtr](), reflect.TypeFor[*selfPtr](),
		reflect.TypeFor[selfPtrA](), reflect.TypeFor[**selfPtrB]()} {
		if !pointerCycle(ty) {
			t.Fatalf("%v: not a cycle", ty)
		}
	}
	var pp **int
	if err := Unmarshal([]byte{0x05}, &pp); err != nil || **pp != 5 {
		t.Fatalf("**int: %v", err)
	}
}

// cycNode is a struct whose pointer field can point back to it.
type cycNode struct {
	Next *cycNode
	N    int
}

func TestEncodeDepthLimitIsBounded(t *testing.T) {
	// Any MaxNestedLevels was accepted: a value that contains itself, with
	// the limit in the millions, recursed until the goroutine's stack
	// reached Go's 1 GB limit (a fatal error, not a panic).
	for _, n := range []int{MaxEncodeDepthLimit + 1, 10_000_000} {
		if em, err := (EncOptions{MaxNestedLevels: n}).EncMode(); err == nil || em != nil ||
			!strings.Contains(err.Error(), "invalid MaxNestedLevels") {
			t.Fatalf("MaxNestedLevels %d: %v %v", n, em, err)
		}
		if _, err := (EncodeOptions{MaxDepth: n}).Encode(1); err == nil ||
			!strings.Contains(err.Error(), "invalid MaxDepth") {
			t.Fatalf("MaxDepth %d: %v", n, err)
		}
	}
	// At the limit, the cycles stop with depth_exceeded.
	em, err := EncOptions{MaxNestedLevels: MaxEncodeDepthLimit}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	self := []any{nil}
	self[0] = self
	n := &cycNode{N: 1}
	n.Next = n
	m := map[string]any{}
	m["m"] = m
	for name, v := range map[string]any{"slice": self, "struct": n, "map": m} {
		_, err := em.Marshal(v)
		if err == nil || !strings.Contains(err.Error(), "depth_exceeded") {
			t.Fatalf("%s: %v", name, err)
		}
		_, err = EncodeOptions{MaxDepth: MaxEncodeDepthLimit}.Encode(v)
		if err == nil || !strings.Contains(err.Error(), "depth_exceeded") {
			t.Fatalf("Encode, %s: %v", name, err)
		}
	}
}

func TestShortArrayIntoHugeGoArray(t *testing.T) {
	// The elements after the CBOR array's were zeroed one by one (12 ns
	// each): 80 into a [1 << 50]struct{} did not end.
	var huge [1 << 50]struct{}
	if err := Unmarshal([]byte{0x80}, &huge); err != nil {
		t.Fatal(err)
	}
	// The rest of a real array is cleared in one go: [1, 2] into 1 << 20
	// ints that were all 7, and into pointers (the collector's barriers).
	big := new([1 << 20]int)
	for i := range big {
		big[i] = 7
	}
	if err := Unmarshal([]byte{0x82, 0x01, 0x02}, big); err != nil {
		t.Fatal(err)
	}
	if big[0] != 1 || big[1] != 2 || big[2] != 0 || big[len(big)-1] != 0 {
		t.Fatalf("got %d %d %d %d", big[0], big[1], big[2], big[len(big)-1])
	}
	x := 5
	ptrs := [4]*int{&x, &x, &x, &x}
	if err := Unmarshal([]byte{0x81, 0x03}, &ptrs); err != nil {
		t.Fatal(err)
	}
	if *ptrs[0] != 3 || ptrs[1] != nil || ptrs[3] != nil {
		t.Fatalf("got %v", ptrs)
	}
}

func TestMapGetWithUncomparableValuesInKeys(t *testing.T) {
	// An array or struct type is comparable; the interface values inside
	// may not be: Get panicked comparing them.
	type K struct{ X any }
	m := Map{{Key: [1]any{[]int{1}}, Value: 1}, {Key: K{X: []byte{1}}, Value: 2}, {Key: K{X: 3}, Value: 3},
		{Key: Tag{Number: 1, Content: [1]any{map[int]int{}}}, Value: 4}}
	for _, k := range []any{[1]any{[]int{1}}, K{X: []byte{1}}, Tag{Number: 1, Content: [1]any{map[int]int{}}}} {
		if v, ok := m.Get(k); ok {
			t.Fatalf("%v: found %v", k, v)
		}
	}
	if v, ok := m.Get(K{X: 3}); !ok || v != 3 {
		t.Fatalf("K{3}: %v %v", v, ok)
	}
}

// bignumBytes is tag 2 over a byte string of n bytes 0xff (a 4-byte length).
func bignumBytes(n int) []byte {
	b := []byte{0xc2, 0x5a, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
	return append(b, bytes.Repeat([]byte{0xff}, n)...)
}

func TestHugeBignumIntoIntSaysItsSize(t *testing.T) {
	// The reason held the bignum in decimal: 1.4 s to make for 1 MiB, a
	// 2.5 MB message, and it was made for every one of them, after the
	// first error too (64 of 64 KiB into []int64: 1.1 s). The error is at
	// the bignum's byte string, as for any bignum that does not fit.
	var n int64
	err := Unmarshal(bignumBytes(1<<20), &n)
	var te *UnmarshalTypeError
	if !errors.As(err, &te) || te.Offset != 1 || te.Reason != "a 8388608-bit integer overflows int64" {
		t.Fatalf("got %v", err)
	}
	many := []byte{0x98, 0x40}
	for i := 0; i < 64; i++ {
		many = append(many, bignumBytes(1<<16)...)
	}
	var ns []int64
	err = Unmarshal(many, &ns)
	if !errors.As(err, &te) || te.Offset != 3 || te.Reason != "a 524288-bit integer overflows int64" {
		t.Fatalf("got %v", err)
	}
	// Up to 256 bits the number itself, as fxamacker gives it.
	neg := []byte{0xc3, 0x49, 0x01, 0, 0, 0, 0, 0, 0, 0, 0}
	if err := Unmarshal(neg, &n); !errors.As(err, &te) || te.Reason != "-18446744073709551617 overflows int64" {
		t.Fatalf("got %v", err)
	}
	b256 := append([]byte{0xc2, 0x58, 0x20}, bytes.Repeat([]byte{0xff}, 32)...)
	want := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)).String() + " overflows int64"
	if err := Unmarshal(b256, &n); !errors.As(err, &te) || te.Reason != want {
		t.Fatalf("got %v", err)
	}
	b257 := append([]byte{0xc2, 0x58, 0x21, 0x01}, bytes.Repeat([]byte{0}, 32)...)
	if err := Unmarshal(b257, &n); !errors.As(err, &te) || te.Reason != "a 257-bit integer overflows int64" {
		t.Fatalf("got %v", err)
	}
	// tag 3: -1 - n, negative
	n257 := append([]byte{0xc3, 0x58, 0x21, 0x01}, bytes.Repeat([]byte{0}, 32)...)
	if err := Unmarshal(n257, &n); !errors.As(err, &te) || te.Reason != "a 257-bit negative integer overflows int64" {
		t.Fatalf("got %v", err)
	}
}

// Nested containers whose counts each fit the bytes left: each level of a
// value built into `any` (no first pass) reserved room for the whole rest
// of the input (Decode: 511 levels of 99 ffff over 64 KiB of zeros
// allocated 511 MB; maps in Unmarshal 1.3 GB). A level now reserves from
// what the open ones around it left. The typed rows were bounded before
// too (their targets check the whole item before building anything) and
// stay here as the same property's rows. Every route reports the input
// truncated where the zeros end.
func TestNestedCountsDoNotReserveTheInputPerLevel(t *testing.T) {
	type nest []nest
	type mnest map[string]mnest
	zeros := func(n int) string { return strings.Repeat("00", n) }
	lifted := DecOptions{MaxNestedLevels: 65535, MaxArrayElements: 2147483647, MaxMapPairs: 2147483647}
	dm, err := lifted.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		name  string
		data  []byte
		into  func(data []byte) error
		limit uint64
	}{
		{"Decode arrays", unhex(t, strings.Repeat("99ffff", 511)+zeros(65535)),
			func(b []byte) error { _, err := Decode(b); return err }, 16 << 20},
		{"Unmarshal any maps", unhex(t, strings.Repeat("b97fff00", 511)+zeros(65535)),
			func(b []byte) error { var v any; return dm.Unmarshal(b, &v) }, 32 << 20},
		{"Unmarshal recursive slices", unhex(t, strings.Repeat("99ffff", 511)+zeros(65535)),
			func(b []byte) error { var v nest; return dm.Unmarshal(b, &v) }, 32 << 20},
		{"Unmarshal recursive string maps", unhex(t, strings.Repeat("b97fff6100", 511)+zeros(65535)),
			func(b []byte) error { var v mnest; return dm.Unmarshal(b, &v) }, 32 << 20},
	}
	for _, r := range rows {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := r.into(r.data)
		runtime.ReadMemStats(&after)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeTruncated {
			t.Errorf("%s: %v, want truncated", r.name, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > r.limit {
			t.Errorf("%s: %d bytes allocated for %d bytes of input (limit %d)",
				r.name, got, len(r.data), r.limit)
		}
	}
	// Honest nesting that ends with the input decodes as before.
	var v any
	if err := Unmarshal(unhex(t, "82 82 01 02 a1 61 61 82 03 04"), &v); err != nil ||
		!reflect.DeepEqual(v, []any{[]any{uint64(1), uint64(2)}, map[any]any{"a": []any{uint64(3), uint64(4)}}}) {
		t.Fatalf("%#v, %v", v, err)
	}
}

// A batch call that fails after a full batch: the items of the batch before
// are not handed out again (their END items closed the open containers of
// this truncated input, which then decoded without an error).
func TestTruncatedAfterAFullBatch(t *testing.T) {
	// [ [510 zeros], <missing> ]: the inner array fills the first batch
	in := append([]byte{0x82, 0x99, 0x01, 0xfe}, bytes.Repeat([]byte{0}, 510)...)
	var v any
	err := Unmarshal(in, &v)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeTruncated || e.Offset != len(in) {
		t.Fatalf("any: %v (%T)", err, v)
	}
	var s [][]int
	if err := Unmarshal(in, &s); !errors.As(err, &e) || e.Code != CodeTruncated || e.Offset != len(in) {
		t.Fatalf("[][]int: %v", err)
	}
	// and with invalid UTF-8 after it, through UnmarshalFirst and a Decoder
	bad := append(append([]byte{}, in...), 0x62, 0x68, 0xa6)
	var first []any
	if _, err := UnmarshalFirst(bad, &first); err == nil {
		t.Fatalf("UnmarshalFirst: no error, %d items", len(first))
	}
	if err := NewDecoder(bytes.NewReader(bad)).Decode(&v); err == nil {
		t.Fatal("Decoder: no error")
	}
}
