package cborfast

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	fx "github.com/fxamacker/cbor/v2"
)

// Marshal and Unmarshal on their own: tags, errors with offsets, hostile
// input, streaming, and the Go encoder against the library's C writer.

func TestStructTags(t *testing.T) {
	type inner struct {
		N int `cbor:"n"`
	}
	type tagged struct {
		inner        // promoted: "n"
		Name  string `cbor:"name"`
		Skip  string `cbor:"-"`
		Empty string `cbor:"empty,omitempty"`
		Int   int    `cbor:"-7,keyasint"`
		JSON  int    `json:"j"`
		Plain bool
	}
	v := tagged{inner: inner{N: 5}, Name: "x", Skip: "never", Int: 24, JSON: 1, Plain: true}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	// {"n": 5, "name": "x", -7: 24, "j": 1, "Plain": true}
	want := unhex(t, "a5 616e 05 646e616d65 6178 26 1818 616a 01 65506c61696e f5")
	if !bytes.Equal(got, want) {
		t.Fatalf("Marshal = %x, want %x", got, want)
	}
	var back tagged
	if err := Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	v.Skip = ""
	if !reflect.DeepEqual(back, v) {
		t.Errorf("round trip %+v", back)
	}
	// Case-insensitive match after the exact one, as fxamacker does.
	if err := Unmarshal(unhex(t, "a1 644e414d45 6179"), &back); err != nil || back.Name != "y" {
		t.Errorf("NAME: %+v %v", back, err)
	}
	// toarray
	p := pairArr{A: -1, B: "b"}
	got, _ = Marshal(p)
	if !bytes.Equal(got, unhex(t, "82 20 6162")) {
		t.Errorf("toarray: %x", got)
	}
	var pb pairArr
	if err := Unmarshal(got, &pb); err != nil || pb != p {
		t.Errorf("toarray back: %+v %v", pb, err)
	}
	// Typed slices and maps of other key types; pointers.
	type shapes struct {
		Strs []string         `cbor:"s"`
		M    map[int]string   `cbor:"m"`
		U    map[uint8][]byte `cbor:"u"`
		P    *[]float32       `cbor:"p"`
		Nil  *int             `cbor:"nil"`
	}
	f := []float32{1.5}
	sv := shapes{Strs: []string{"a"}, M: map[int]string{-1: "neg"}, U: map[uint8][]byte{255: {1}}, P: &f}
	got, err = Marshal(sv)
	if err != nil {
		t.Fatal(err)
	}
	want = unhex(t, "a5 6173 81 6161 616d a1 20 636e6567 6175 a1 18ff 4101 6170 81 fa3fc00000 636e696c f6")
	if !bytes.Equal(got, want) {
		t.Fatalf("shapes = %x", got)
	}
	var sb shapes
	if err := Unmarshal(got, &sb); err != nil || !reflect.DeepEqual(sb, sv) {
		t.Errorf("shapes back: %+v %v", sb, err)
	}
	// A []byte field is a copy, not a view of the input.
	in := unhex(t, "a1 6175 a1 01 43 010203")
	if err := Unmarshal(in, &sb); err != nil {
		t.Fatal(err)
	}
	in[len(in)-1] = 9
	if !bytes.Equal(sb.U[1], []byte{1, 2, 3}) {
		t.Errorf("[]byte field changed with the input: %x", sb.U[1])
	}
}

func TestUnmarshalErrors(t *testing.T) {
	type rec struct {
		A uint8  `cbor:"a"`
		B string `cbor:"b"`
	}
	for _, c := range []struct {
		name, hex string
		code      int // *Error code, or 0 for an UnmarshalTypeError
		offset    int
	}{
		{"empty", "", CodeTruncated, 0},
		{"truncated map (at its head)", "a2 6161 01", CodeTruncated, 0},
		{"truncated string (at its head)", "a1 6162 65 6162", CodeTruncated, 3},
		{"trailing bytes", "a0 00", CodeTrailingBytes, 1},
		{"reserved ai", "a1 6161 1c", CodeReservedAI, 3},
		{"invalid UTF-8 (rejected by default; at the content)", "a1 6162 62 c328", CodeInvalidUTF8, 4},
		{"uint8 overflow 256", "a1 6161 190100", 0, 3},
		{"negative into uint8", "a1 6161 20", 0, 3},
		{"text into uint8", "a1 6161 6178", 0, 3},
		{"bytes into string", "a2 6162 4178 6161 01", 0, 3},
	} {
		var r rec
		err := Unmarshal(unhex(t, c.hex), &r)
		var e *Error
		var te *UnmarshalTypeError
		switch {
		case c.code != 0 && errors.As(err, &e):
			if e.Code != c.code || e.Offset != c.offset {
				t.Errorf("%s: %v (code %d offset %d), want code %d at %d", c.name, err, e.Code, e.Offset, c.code, c.offset)
			}
		case c.code == 0 && errors.As(err, &te):
			if te.Offset != c.offset {
				t.Errorf("%s: %v, want offset %d", c.name, err, c.offset)
			}
		default:
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// A type error does not stop the rest: b is still decoded.
	var r rec
	err := Unmarshal(unhex(t, "a2 6161 6178 6162 6179"), &r)
	var te *UnmarshalTypeError
	if !errors.As(err, &te) || r.B != "y" {
		t.Errorf("after a type error: %+v %v", r, err)
	}
	var x int
	if err := Unmarshal([]byte{0}, x); err == nil {
		t.Error("Unmarshal into a non-pointer")
	}
	// Options: duplicate keys, indefinite lengths, per-type limits, UTF-8.
	dup, _ := DecOptions{DupMapKey: DupMapKeyEnforcedAPF}.DecMode()
	var m map[string]int
	if err := dup.Unmarshal(unhex(t, "a2 6161 01 6161 02"), &m); !errors.As(err, new(*Error)) ||
		err.(*Error).Code != CodeDuplicateKey || err.(*Error).Offset != 4 {
		t.Errorf("duplicate key: %v", err)
	}
	if err := Unmarshal(unhex(t, "a2 6161 01 6161 02"), &m); err != nil || m["a"] != 2 {
		t.Errorf("duplicate key, quiet: %v %v", m, err)
	}
	noIndef, _ := DecOptions{IndefLength: IndefLengthForbidden}.DecMode()
	var xs []int
	if err := noIndef.Unmarshal(unhex(t, "82 01 9f ff"), &xs); err == nil || err.(*Error).Code != CodeIndefiniteLength ||
		err.(*Error).Offset != 2 {
		t.Errorf("indefinite forbidden: %v", err)
	}
	small, _ := DecOptions{MaxArrayElements: 16, MaxMapPairs: 17}.DecMode()
	arr16 := append(unhex(t, "90"), make([]byte, 16)...) // 16 items: at the limit
	arr17 := append(unhex(t, "91"), make([]byte, 17)...)
	if err := small.Unmarshal(arr16, &xs); err != nil {
		t.Errorf("16 items at the limit: %v", err)
	}
	var v any
	for _, into := range []any{&xs, &v} {
		if err := small.Unmarshal(arr17, into); err == nil || err.(*Error).Code != CodeContainerTooLarge ||
			err.(*Error).Offset != 0 {
			t.Errorf("17 items over 16 into %T: %v", into, err)
		}
	}
	loose, _ := DecOptions{UTF8: UTF8DecodeInvalid}.DecMode()
	var s string
	if err := loose.Unmarshal(unhex(t, "62 c328"), &s); err != nil || s != "\xc3(" {
		t.Errorf("UTF8DecodeInvalid: %q %v", s, err)
	}
	for _, n := range []int{-1, MaxNestedLevelsLimit + 1, 1 << 31} {
		if _, err := (DecOptions{MaxNestedLevels: n}).DecMode(); err == nil ||
			err.Error() != fmt.Sprintf("cborfast: invalid MaxNestedLevels %d", n) {
			t.Errorf("MaxNestedLevels %d: %v", n, err)
		}
	}
}

// A mode refused by its options is a nil interface, as fxamacker's: a
// caller's dm == nil test holds (before, a nil *decMode inside a non-nil
// interface panicked at its first use).
func TestRefusedModesAreNil(t *testing.T) {
	dm, err := DecOptions{MaxNestedLevels: MaxNestedLevelsLimit + 1}.DecMode()
	if err == nil || dm != nil {
		t.Errorf("DecMode: %#v, %v; want nil and an error", dm, err)
	}
	em, err := EncOptions{Sort: SortBytewiseLexical + 1}.EncMode()
	if err == nil || em != nil {
		t.Errorf("EncMode: %#v, %v; want nil and an error", em, err)
	}
	dm, err = DecOptions{MaxNestedLevels: -1}.DecModeWithTags(NewTagSet())
	if err == nil || dm != nil {
		t.Errorf("DecModeWithTags: %#v, %v; want nil and an error", dm, err)
	}
	em, err = EncOptions{Sort: -1}.EncModeWithTags(NewTagSet())
	if err == nil || em != nil {
		t.Errorf("EncModeWithTags: %#v, %v; want nil and an error", em, err)
	}
}

// 65,535 nested arrays: an error at the default depth, and with the limit
// raised to its maximum a value built without recursion on the input's
// depth; one level more is ErrDepth at its head.
func TestDeepInput(t *testing.T) {
	const depth = MaxNestedLevelsLimit
	in := append(bytes.Repeat([]byte{0x81}, depth), 0x00)
	var v any
	err := Unmarshal(in, &v)
	if e, ok := err.(*Error); !ok || e.Code != CodeDepth || e.Offset != 32 {
		t.Fatalf("default depth 32: %v", err)
	}
	deep, err := DecOptions{MaxNestedLevels: depth}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	over := append(bytes.Repeat([]byte{0x81}, depth+1), 0x00)
	if err := deep.Unmarshal(over, &v); err == nil || err.(*Error).Code != CodeDepth || err.(*Error).Offset != depth {
		t.Fatalf("depth %d + 1: %v", depth, err)
	}
	if err := deep.Unmarshal(in, &v); err != nil {
		t.Fatal(err)
	}
	n := 0
	for x := v; ; n++ {
		a, ok := x.([]any)
		if !ok {
			if x != uint64(0) {
				t.Fatalf("innermost %#v", x)
			}
			break
		}
		x = a[0]
	}
	if n != depth {
		t.Fatalf("depth %d", n)
	}
	// Decode too, and Marshal and Encode back (the depth limit is 65535).
	if out, err := Marshal(v); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("Marshal of the deep value: %v", err)
	}
	if dv, err := (DecodeOptions{MaxDepth: depth}).Decode(in); err != nil {
		t.Fatal(err)
	} else if out, err := Encode(dv); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("Encode of the deep value: %v", err)
	}
	// Recursive struct and slice types, each level a recursive call of the
	// typed decoders, at the deepest MaxNestedLevels allows.
	type node struct {
		Next *node `cbor:"n"`
	}
	nested := append(bytes.Repeat(unhex(t, "a1 616e"), depth), 0xf6)
	var root node
	if err := deep.Unmarshal(nested, &root); err != nil {
		t.Fatal(err)
	}
	type list []list
	var l list
	if err := deep.Unmarshal(append(bytes.Repeat([]byte{0x81}, depth-1), 0x80), &l); err != nil {
		t.Fatal(err)
	}
}

// Length bombs: a head claiming more than the input holds allocates nothing
// big and fails where the input ends.
func TestLengthBomb(t *testing.T) {
	huge, _ := DecOptions{MaxArrayElements: math.MaxInt32, MaxMapPairs: math.MaxInt32}.DecMode()
	for _, c := range []struct {
		name string
		hex  string
		code int
		off  int
	}{
		{"array of 2^31-1 items (truncated at its head)", "9a 7fffffff 00", CodeTruncated, 0},
		{"map of 2^31-1 pairs (truncated at its head)", "ba 7fffffff 00 00", CodeTruncated, 0},
		{"byte string of 2^32-1 bytes", "5a ffffffff 00", CodeTruncated, 0},
		{"array of 2^64-1 items", "9b ffffffffffffffff", CodeContainerTooLarge, 0},
	} {
		in := unhex(t, c.hex)
		for _, into := range []func() any{
			func() any { return new(any) },
			func() any { return new([]coseKey) },
			func() any { return new(map[int][]byte) },
			func() any { return new([]byte) },
		} {
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			err := huge.Unmarshal(in, into())
			runtime.ReadMemStats(&ms1)
			e, ok := err.(*Error)
			if !ok || e.Code != c.code || e.Offset != c.off {
				var te *UnmarshalTypeError
				if !errors.As(err, &te) {
					t.Errorf("%s into %T: %v, want code %d at %d", c.name, into(), err, c.code, c.off)
				}
			}
			if grew := ms1.TotalAlloc - ms0.TotalAlloc; grew > 1<<20 {
				t.Errorf("%s into %T: allocated %d bytes", c.name, into(), grew)
			}
		}
	}
}

// The Go encoder writes what the library's C writer writes, byte for byte.
func TestEncodeEqualsCWriter(t *testing.T) {
	check := func(name string, v any) {
		t.Helper()
		ours, err := Encode(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ref, err := cWriterEncode(v)
		if err != nil {
			t.Fatalf("%s: C writer: %v", name, err)
		}
		if !bytes.Equal(ours, ref) {
			t.Fatalf("%s: Encode %x, C writer %x", name, ours, ref)
		}
	}
	for _, name := range benchFiles {
		v, err := Decode(readCorpus(t, name))
		if err != nil {
			t.Fatal(err)
		}
		check(name, v)
	}
	for _, c := range []struct {
		name string
		v    any
	}{
		{"23", uint64(23)}, {"24", uint64(24)}, {"255", uint64(255)}, {"256", uint64(256)},
		{"65535", uint64(65535)}, {"65536", uint64(65536)}, {"2^32-1", uint64(1<<32 - 1)},
		{"2^32", uint64(1 << 32)}, {"2^64-1", uint64(math.MaxUint64)}, {"-24", int64(-24)},
		{"-25", int64(-25)}, {"-2^63", int64(math.MinInt64)}, {"2^64", bigInt("18446744073709551616")},
		{"-2^64-1", bigInt("-18446744073709551617")}, {"text 23", string(make([]byte, 23))},
		{"text 24", string(make([]byte, 24))}, {"bytes 256", make([]byte, 256)},
		{"half", 1.5}, {"single", 100000.5}, {"double", 1.1}, {"-0", math.Copysign(0, -1)},
		{"NaN payload", math.NaN()}, {"map", map[string]any{"bb": 1, "a": 2, "ccc": []any{}}},
		{"tag", Tag{Number: 24, Content: []byte{0}}}, {"simple", Simple(255)}, {"undefined", Undefined},
	} {
		check(c.name, c.v)
	}
	r := rand.New(rand.NewSource(11))
	for i := 0; i < 300; i++ {
		check("random #"+strconv.Itoa(i), randValue(r, 4))
	}
}

// The Go status list is the enum of cbor_fast.h.
func TestStatusListMatchesHeader(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "include", "cbor_fast.h"))
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)typedef enum cbor_fast_status \{(.*?)\} cbor_fast_status;`).FindSubmatch(src)
	if body == nil {
		t.Fatal("no cbor_fast_status enum in the header")
	}
	header := map[string]int{}
	for _, m := range regexp.MustCompile(`(CBOR_FAST_\w+)\s*=\s*(\d+)`).FindAllSubmatch(body[1], -1) {
		n, _ := strconv.Atoi(string(m[2]))
		header[string(m[1])] = n
	}
	if len(header) < 30 {
		t.Fatalf("parsed %d statuses", len(header))
	}
	ours := map[string]int{}
	for _, s := range Statuses() {
		ours[s.Enum] = s.Code
		if s.Name == "" || s.Name == "unknown" {
			t.Errorf("%s has no name", s.Enum)
		}
	}
	for name, code := range header {
		if got, ok := ours[name]; !ok || got != code {
			t.Errorf("%s = %d in the header, %d (present %v) in Go", name, code, got, ok)
		}
	}
	for name := range ours {
		if _, ok := header[name]; !ok {
			t.Errorf("%s is not in the header", name)
		}
	}
}

func TestStreaming(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	recs := coseRecords(50, 5)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Encode("end"); err != nil {
		t.Fatal(err)
	}
	stream := buf.Bytes()
	// One byte per Read: every item is split across reads.
	dec := NewDecoder(iotest.OneByteReader(bytes.NewReader(stream)))
	for i := range recs {
		var k coseKey
		if err := dec.Decode(&k); err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		if !reflect.DeepEqual(k, recs[i]) {
			t.Fatalf("item %d differs", i)
		}
	}
	var s string
	if err := dec.Decode(&s); err != nil || s != "end" {
		t.Fatalf("last: %q %v", s, err)
	}
	if err := dec.Decode(&s); err != io.EOF {
		t.Fatalf("after the last: %v", err)
	}
	// Cut inside the last item: io.ErrUnexpectedEOF.
	dec = NewDecoder(bytes.NewReader(stream[:len(stream)-2]))
	var err error
	for err == nil {
		var v any
		err = dec.Decode(&v)
	}
	if err != io.ErrUnexpectedEOF {
		t.Fatalf("cut stream: %v", err)
	}
	// A malformed item: the error's offset counts from the stream's start.
	bad := append(append([]byte{}, stream[:len(stream)-4]...), 0x1c)
	dec = NewDecoder(bytes.NewReader(bad))
	for err = nil; err == nil; {
		var v any
		err = dec.Decode(&v)
	}
	if e, ok := err.(*Error); !ok || e.Code != CodeReservedAI || e.Offset != len(bad)-1 {
		t.Fatalf("malformed item: %v, want reserved_ai at %d", err, len(bad)-1)
	}
}

// Small slices of pointer-free elements get their arrays as unscanned
// words: each element type decodes exactly, with the capacity of its
// length (an append copies, never writing into a neighbour), and survives
// a collection.
func TestSmallPlainSlices(t *testing.T) {
	type pt struct {
		X int16
		Y float32
		Z bool
	}
	type rec struct {
		A []int
		C []int32
		D [][2]float64
		E []pt
		F []struct{}
		G []*int // pointers: not plain
	}
	seven := 7
	in := []rec{
		{A: []int{1, -2}, C: []int32{3, 4, 5}, D: [][2]float64{{1.5, -2.5}}, E: []pt{{1, 2.5, true}, {-3, 0, false}},
			F: []struct{}{{}, {}, {}}, G: []*int{&seven}},
		{A: []int{9}, C: []int32{math.MaxInt32, math.MinInt32, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}},
	}
	b, err := Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out []rec
	if err := Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("got %+v, want %+v", out, in)
	}
	if cap(out[0].A) != 2 || cap(out[0].C) != 3 || cap(out[0].E) != 2 || cap(out[1].C) != 16 {
		t.Fatalf("capacities %d %d %d %d, want 2 3 2 16", cap(out[0].A), cap(out[0].C), cap(out[0].E), cap(out[1].C))
	}
	a := append(out[0].A, 100)
	a[0] = 50
	if out[0].A[0] != 1 || out[0].C[0] != 3 || len(a) != 3 {
		t.Fatalf("append wrote into the decoded slices: %v %v", out[0].A, out[0].C)
	}
}

// The struct encoder writes keys, heads, short strings and booleans by
// stores into spare capacity (no append each): every head width, string
// lengths around the 1-byte, 2-byte and 32-byte limits, keys of 32 and
// more bytes, and a buffer that grows between fields, byte for byte as
// fxamacker writes them (default, byte-string and sorted modes), and back.
func TestStructFieldWidths(t *testing.T) {
	type rec struct {
		S    string `cbor:"s"`
		I    int    `cbor:"i"`
		I64  int64  `cbor:"i64"`
		U    uint64 `cbor:"u"`
		B    bool   `cbor:"b"`
		K31  string `cbor:"a_key_of_thirty_one_bytes_xxxxx"`  // 32 encoded bytes
		K32  int    `cbor:"a_key_of_thirty_two_bytes_xxxxxx"` // 34: the long path
		K100 bool   `cbor:"k_100_bytes_long_key_1234567890123456789012345678901234567890123456789012345678901234567890123456"`
		KI   string `cbor:"-7,keyasint"`
	}
	var ints []int64
	for _, u := range []uint64{0, 1, 23, 24, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, math.MaxInt64} {
		ints = append(ints, int64(u), -1-int64(u))
	}
	strs := []string{""}
	long := strings.Repeat("0123456789abcdef", 20)
	for _, n := range []int{1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 255, 256, 300} {
		strs = append(strs, long[:n])
	}
	var recs []rec
	for i, v := range ints {
		for j, s := range strs {
			recs = append(recs, rec{S: s, I: int(v), I64: -v, U: uint64(v), B: (i+j)%2 == 0, K31: strs[(i+j)%len(strs)],
				K32: int(v) >> 3, K100: i%3 == 0, KI: s})
		}
	}
	recs = append(recs, rec{U: math.MaxUint64, I64: math.MinInt64, I: math.MinInt})
	modes := []struct {
		name string
		ours EncOptions
		fx   fx.EncOptions
	}{
		{"default", EncOptions{}, fx.EncOptions{}},
		{"byte strings", EncOptions{String: StringToByteString, FieldName: FieldNameToByteString},
			fx.EncOptions{String: fx.StringToByteString, FieldName: fx.FieldNameToByteString}},
		{"length first", EncOptions{Sort: SortLengthFirst}, fx.EncOptions{Sort: fx.SortLengthFirst}},
	}
	for _, m := range modes {
		om, err := m.ours.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		fm, err := m.fx.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []any{recs, recs[0], &recs[len(recs)-1]} {
			a, err := om.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			b, err := fm.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				i := 0
				for i < len(a) && i < len(b) && a[i] == b[i] {
					i++
				}
				t.Fatalf("%s %T: Marshal differs from fxamacker at byte %d of %d/%d", m.name, v, i, len(a), len(b))
			}
		}
		if m.name == "default" {
			a, _ := om.Marshal(recs)
			var back []rec
			if err := Unmarshal(a, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, recs) {
				t.Fatal("Unmarshal of the records differs")
			}
		}
	}
	// One record by hand: {"s": "abc", "i": 24, "i64": -24, "u": 256, "b": true, ...}.
	a, err := Marshal(rec{S: "abc", I: 24, I64: -25, U: 256, B: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "a9" + "6173" + "63616263" + "6169" + "1818" + "63693634" + "3818" + "6175" + "190100" + "6162" + "f5"
	if got := hex.EncodeToString(a); !strings.HasPrefix(got, want) {
		t.Fatalf("got %s, want a prefix %s", got, want)
	}
}

// Marshal of a pointer allocates its result only (the pointer reaches its
// encoder through the encoder state, not a local that escapes), and
// pointers inside interface values, nested, encode as fxamacker's do.
func TestMarshalPointerAllocs(t *testing.T) {
	if underASan {
		t.Skip("-asan instruments Go's allocations: counts differ")
	}
	type inner struct {
		N int
		P *int
	}
	type outer struct {
		A any
		B []any
		C *inner
	}
	seven := 7
	in := &inner{N: 1, P: &seven}
	v := &outer{A: &inner{N: 2, P: &seven}, B: []any{in, &in, &seven, (*int)(nil), map[string]any{"x": in}}, C: in}
	a, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	b, err := fx.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("Marshal %x, fxamacker %x", a, b)
	}
	rec := &inner{N: 300, P: &seven}
	if n := testing.AllocsPerRun(100, func() { Marshal(rec) }); n != 1 {
		t.Fatalf("Marshal of a pointer: %v allocations, want 1", n)
	}
}

// A string or slice field with omitempty whose header ends its allocation:
// the length was read through a 24-byte slice header, past a string's 16
// bytes (go test -race and -d=checkptr: "converted pointer straddles
// multiple allocations"; go.test_cgocheck2 builds with checkptr).
func TestOmitEmptyLengthAtTheEndOfAnAllocation(t *testing.T) {
	type lastString struct {
		A int
		B string `cbor:"b,omitempty"`
	}
	type onlyString struct {
		B string `cbor:"b,omitempty"`
	}
	type lastBytes struct {
		A int
		B []byte `cbor:"b,omitempty"`
	}
	rows := []struct {
		name string
		v    any
		want string
	}{
		{"last string empty", &lastString{A: 1}, "a1614101"},
		{"last string set", &lastString{A: 1, B: "x"}, "a2614101616261 78"},
		{"only string empty", &onlyString{}, "a0"},
		{"only string set", &onlyString{B: "yz"}, "a161626279 7a"},
		{"last bytes empty", &lastBytes{A: 2}, "a1614102"},
		{"last bytes set", &lastBytes{A: 2, B: []byte{7}}, "a2614102616241 07"},
	}
	for _, r := range rows {
		for i := 0; i < 100; i++ { // fresh allocations in several size classes' slots
			got, err := Marshal(r.v)
			want := strings.ReplaceAll(r.want, " ", "")
			if err != nil || hex.EncodeToString(got) != want {
				t.Fatalf("%s: %x, %v; want %s", r.name, got, err, want)
			}
			fxGot, _ := fx.Marshal(r.v)
			if !bytes.Equal(got, fxGot) {
				t.Fatalf("%s: %x, fxamacker %x", r.name, got, fxGot)
			}
			switch v := r.v.(type) {
			case *lastString:
				r.v = &lastString{A: v.A, B: strings.Clone(v.B)}
			case *onlyString:
				r.v = &onlyString{B: strings.Clone(v.B)}
			case *lastBytes:
				r.v = &lastBytes{A: v.A, B: bytes.Clone(v.B)}
			}
		}
	}
}

// A sorting mode refuses a Go map two of whose keys encode to the same
// bytes: the map would hold a duplicate key in an order that changes from
// run to run (fxamacker writes both). Without sorting both are written, as
// fxamacker writes them.
func TestSortedMapsRefuseEqualKeys(t *testing.T) {
	coreDet, err := CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	lengthFirst, err := EncOptions{Sort: SortLengthFirst, ShortestFloat: ShortestFloat16}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	unsorted, err := EncOptions{ShortestFloat: ShortestFloat16}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		name string
		v    any
		// the sorted modes' bytes; "" when they refuse the map
		sorted string
	}{
		{"int(1) and uint(1)", map[any]any{int(1): "a", uint(1): "b"}, ""},
		{"float32 and float64 1.5", map[any]any{float32(1.5): "a", 1.5: "b"}, ""},
		{"two NaNs", map[float64]string{math.NaN(): "a", math.NaN(): "b"}, ""},
		{"equal keys nested in a value", map[string]any{"k": map[any]int{int8(-1): 1, int64(-1): 2}}, ""},
		{"int(1) and uint(2)", map[any]any{int(1): "a", uint(2): "b"}, "a2016161026162"},
		{"1 and 1.0", map[any]any{1: "a", 1.0: "b"}, "a2016161f93c006162"},
	}
	for _, r := range rows {
		for _, m := range []struct {
			name string
			em   EncMode
		}{{"core deterministic", coreDet}, {"length first", lengthFirst}} {
			got, err := m.em.Marshal(r.v)
			if r.sorted == "" {
				var uv *UnsupportedValueError
				if !errors.As(err, &uv) || err != errEqualKeys {
					t.Errorf("%s, %s: got %x, %v; want errEqualKeys", r.name, m.name, got, err)
				}
				continue
			}
			if err != nil || hex.EncodeToString(got) != r.sorted {
				t.Errorf("%s, %s: got %x, %v; want %s", r.name, m.name, got, err, r.sorted)
			}
		}
		// Encode sorts length-first too.
		got, err := Encode(r.v)
		if r.sorted == "" && err != errEqualKeys || r.sorted != "" && (err != nil || hex.EncodeToString(got) != r.sorted) {
			t.Errorf("%s, Encode: got %x, %v; want %q", r.name, got, err, r.sorted)
		}
		// Unsorted: every pair written.
		got, err = unsorted.Marshal(r.v)
		if err != nil || len(got) < 2 {
			t.Errorf("%s, unsorted: %x, %v", r.name, got, err)
		}
	}
}

// Sorted modes write Go maps keys first: each value is encoded once, in key
// order (nested maps were moved once per sorted map around them: 16,000
// levels around 1.3 MB took 2.2 s). Rows by hand, both orders.
func TestSortedNestedMaps(t *testing.T) {
	inner := map[any]any{uint(1000): "x", "a": -1}
	v := map[string]any{"bb": map[any]any{"a": inner, uint(1000): []any{inner}}, "c": 2}
	coreDet, err := CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	lengthFirst, err := EncOptions{Sort: SortLengthFirst}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	// inner: bytewise 1000 (19 03e8) before "a" (61 61); length-first "a" first.
	innerBytewise := "a2" + "1903e8" + "6178" + "6161" + "20"
	innerLength := "a2" + "6161" + "20" + "1903e8" + "6178"
	for _, row := range []struct {
		name  string
		em    EncMode
		inner string
		mid   func(in string) string
	}{
		{"core deterministic", coreDet, innerBytewise,
			func(in string) string { return "a2" + "1903e8" + "81" + in + "6161" + in }},
		{"length first", lengthFirst, innerLength,
			func(in string) string { return "a2" + "6161" + in + "1903e8" + "81" + in }},
	} {
		got, err := row.em.Marshal(v)
		// {"c": 2, "bb": ...}: the shorter text key first in both orders.
		want := "a2" + "6163" + "02" + "626262" + row.mid(row.inner)
		if err != nil || hex.EncodeToString(got) != want {
			t.Errorf("%s: %x, %v\nwant %s", row.name, got, err, want)
		}
	}
}

// A sorted map[any]any whose key is a pointer to a struct holding a sorted
// map of its own: the key is encoded apart (its map's scratch would
// otherwise go where the outer map's keys are being written).
type keyHolder struct {
	M map[any]any `cbor:"m"`
}

func TestSortedMapKeyHoldingAMap(t *testing.T) {
	coreDet, err := CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	k := &keyHolder{M: map[any]any{"b": 1, "a": 2}}
	v := map[any]any{"z": true, k: map[string]any{"y": 1, "x": 2}}
	got, err := coreDet.Marshal(v)
	// bytewise: "z" (61 7a) before the struct key (a1 ...);
	// {"m": {"a": 2, "b": 1}} -> {"x": 2, "y": 1}
	want := "a2" + "617a" + "f5" + "a1" + "616d" + "a2" + "6161" + "02" + "6162" + "01" +
		"a2" + "6178" + "02" + "6179" + "01"
	if err != nil || hex.EncodeToString(got) != want {
		t.Errorf("got %x, %v\nwant %s", got, err, want)
	}
}

// Sorted typed maps (through reflection) keep their keys and spans in the
// pooled scratch as map[any]any does (they made two slices per map): nested,
// inside and around the other map paths, and under a pointer key whose
// struct holds a sorted map of its own (encoded apart).
type typedKeyHolder struct {
	M map[int]string `cbor:"m"`
}

func TestSortedTypedMapsInTheScratch(t *testing.T) {
	coreDet, err := CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	k1 := &typedKeyHolder{M: map[int]string{2: "b", -1: "a"}}
	k2 := &typedKeyHolder{M: map[int]string{1: "c"}}
	for _, row := range []struct {
		name string
		v    any
		want string
	}{
		// 10 (0a) before -2 (21); inside, 1 (01) before 300 (19 012c).
		{"nested typed maps", map[int]map[uint16]string{10: {300: "x", 1: "y"}, -2: {}},
			"a2" + "0a" + "a2" + "01" + "6179" + "19012c" + "6178" + "21" + "a0"},
		{"typed and map[any]any values of a map[string]any",
			map[string]any{"b": map[int]bool{3: true, 1: false}, "a": map[any]any{"y": 1, "x": 2}},
			"a2" + "6161" + "a2" + "6178" + "02" + "6179" + "01" + "6162" + "a2" + "01" + "f4" + "03" + "f5"},
		// {"m": {1: "c"}} (a1 616d a1 ...) before {"m": {2: "b", -1: "a"}} (a1 616d a2 ...).
		{"pointer keys holding typed maps", map[*typedKeyHolder]int{k1: 7, k2: 8},
			"a2" + "a1616d" + "a1" + "01" + "6163" + "08" + "a1616d" + "a2" + "02" + "6162" + "20" + "6161" + "07"},
	} {
		// Each row on a warm pooled state too, whose scratch has room (on a
		// cold one a key's bytes and the scratch are apart anyway).
		warm := map[any]any{}
		for i := 0; i < 1000; i++ {
			warm[i] = i
		}
		for pass := 0; pass < 3; pass++ {
			if _, err := coreDet.Marshal(warm); err != nil {
				t.Fatal(err)
			}
			got, err := coreDet.Marshal(row.v)
			if err != nil || hex.EncodeToString(got) != row.want {
				t.Errorf("%s, pass %d: %x, %v\nwant %s", row.name, pass, got, err, row.want)
			}
		}
	}
	// A sorted map[int]string allocates no more than an unsorted one (the
	// output, and reflection's key and value): 7 against 4 before, with a
	// keys' buffer, their spans and a values' slice per map. (Not under
	// -race, whose pool drops states at random: a new one grows its scratch;
	// nor -asan, which counts Go's allocations its own way.)
	m := map[int]string{1: "a", 2: "b", 3: "c", -1: "d", 100: "e"}
	sorted := testing.AllocsPerRun(100, func() { _, _ = coreDet.Marshal(m) })
	unsorted := testing.AllocsPerRun(100, func() { _, _ = Marshal(m) })
	if sorted > unsorted && !underRace && !underASan {
		t.Errorf("sorted map[int]string: %v allocations, unsorted %v", sorted, unsorted)
	}
}

// mapDeleter's MarshalCBOR removes every other key of its map.
type mapDeleter struct {
	self string
	ma   map[any]any
	ms   map[string]any
	mt   map[string]mapDeleter
}

func (d mapDeleter) MarshalCBOR() ([]byte, error) {
	for k := range d.ma {
		if k != d.self {
			delete(d.ma, k)
		}
	}
	for k := range d.ms {
		if k != d.self {
			delete(d.ms, k)
		}
	}
	for k := range d.mt {
		if k != d.self {
			delete(d.mt, k)
		}
	}
	return []byte{0x00}, nil
}

// A map whose size changes while it is written (a value's MarshalCBOR
// removes the other entry) is refused: its head already said two pairs
// (it wrote a map of one pair under a head of two, not well-formed).
func TestMapChangedWhileEncoded(t *testing.T) {
	for _, row := range []struct {
		name string
		make func() any
	}{
		{"map[any]any", func() any {
			m := map[any]any{}
			m["a"], m["b"] = mapDeleter{self: "a", ma: m}, mapDeleter{self: "b", ma: m}
			return m
		}},
		{"map[string]any", func() any {
			m := map[string]any{}
			m["a"], m["b"] = mapDeleter{self: "a", ms: m}, mapDeleter{self: "b", ms: m}
			return m
		}},
		{"map[string]mapDeleter (reflection)", func() any {
			m := map[string]mapDeleter{}
			m["a"], m["b"] = mapDeleter{self: "a", mt: m}, mapDeleter{self: "b", mt: m}
			return m
		}},
		{"map[string]any in a []any", func() any {
			m := map[string]any{}
			m["a"], m["b"] = mapDeleter{self: "a", ms: m}, mapDeleter{self: "b", ms: m}
			return []any{m}
		}},
	} {
		got, err := Marshal(row.make())
		if err != errMapChanged {
			t.Errorf("%s: got %x, %v; want errMapChanged", row.name, got, err)
		}
	}
}

// shrinkingKey's MarshalCBOR empties shrinking but for its own key: a
// sorted map of scalar keys and values (sortedPairs) whose size changes
// while it is written is refused as the other paths refuse it.
type shrinkingKey int

var shrinking map[shrinkingKey]int

func (k shrinkingKey) MarshalCBOR() ([]byte, error) {
	for o := range shrinking {
		if o != k {
			delete(shrinking, o)
		}
	}
	return []byte{byte(k)}, nil
}

func TestSortedPairsMapChangedWhileEncoded(t *testing.T) {
	coreDet, err := CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	shrinking = map[shrinkingKey]int{1: 10, 2: 20, 3: 30}
	if got, err := coreDet.Marshal(shrinking); err != errMapChanged {
		t.Errorf("got %x, %v; want errMapChanged", got, err)
	}
	// Unchanged, the same MarshalCBOR keys sort as their bytes: 01 02 03.
	shrinking = nil
	got, err := coreDet.Marshal(map[shrinkingKey]int{3: 30, 1: 10, 2: 20})
	if want := "a3" + "01" + "0a" + "02" + "14" + "03" + "181e"; err != nil || hex.EncodeToString(got) != want {
		t.Errorf("got %x, %v; want %s", got, err, want)
	}
}

// A sorted Marshal that fails inside a nested map leaves its scratch in the
// pooled state; the next Marshal starts clean.
func TestSortedMarshalAfterAFailure(t *testing.T) {
	coreDet, err := CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	bad := map[any]any{"k": 1, "j": map[any]any{int(1): "a", uint(1): "b"}, "i": 2}
	good := map[any]any{"b": map[string]any{"d": 4, "c": 3}, "a": 1}
	want := "a2" + "6161" + "01" + "6162" + "a2" + "6163" + "03" + "6164" + "04"
	for i := 0; i < 3; i++ {
		if _, err := coreDet.Marshal(bad); err != errEqualKeys {
			t.Fatalf("bad: %v; want errEqualKeys", err)
		}
		got, err := coreDet.Marshal(good)
		if err != nil || hex.EncodeToString(got) != want {
			t.Fatalf("good after bad #%d: %x, %v\nwant %s", i, got, err, want)
		}
	}
}

// Unmarshal copies inputs of up to copyMax bytes into the pooled reader's
// own memory (larger ones are pinned): the same values, errors and offsets
// on both sides of the boundary, and nothing decoded refers to the copy
// (the next call overwrites it).
func TestUnmarshalCopyBoundary(t *testing.T) {
	for _, size := range []int{copyMax - 1, copyMax, copyMax + 1} {
		// a byte string of size bytes in all: head 59 + 2 length bytes
		n := size - 3
		in := append([]byte{0x59, byte(n >> 8), byte(n)}, bytes.Repeat([]byte{0xab}, n)...)
		var b []byte
		if err := Unmarshal(in, &b); err != nil || len(b) != n || b[0] != 0xab {
			t.Fatalf("size %d: %d bytes, %v", size, len(b), err)
		}
		var a any
		if err := Unmarshal(in, &a); err != nil || !bytes.Equal(a.([]byte), in[3:]) {
			t.Fatalf("size %d: any %v", size, err)
		}
		// another input of the same size overwrites a copy: b and a stay
		other := append([]byte{0x59, byte(n >> 8), byte(n)}, bytes.Repeat([]byte{0xcd}, n)...)
		var c []byte
		if err := Unmarshal(other, &c); err != nil || c[0] != 0xcd {
			t.Fatalf("size %d: other: %v", size, err)
		}
		if b[n-1] != 0xab || a.([]byte)[n-1] != 0xab {
			t.Fatalf("size %d: a decoded value changed with the next call", size)
		}
		// cut short: truncated, at the string's head (the library checks
		// a declared length against the bytes left)
		var e *Error
		if err := Unmarshal(in[:size-1], &b); !errors.As(err, &e) || e.Code != CodeTruncated || e.Offset != 0 {
			t.Errorf("size %d cut short: %v", size, err)
		}
		// a byte after it: trailing at size
		if err := Unmarshal(append(in[:size:size], 0x00), &b); !errors.As(err, &e) || e.Code != CodeTrailingBytes || e.Offset != size {
			t.Errorf("size %d with a trailing byte: %v", size, err)
		}
		// a text string of the same size with invalid UTF-8 at its end, into
		// a string: the decoding pass's error, at the string's head
		txt := append([]byte{0x79, byte(n >> 8), byte(n)}, bytes.Repeat([]byte{'a'}, n)...)
		txt[size-1] = 0xff
		var s string
		if err := Unmarshal(txt, &s); !errors.As(err, &e) || e.Code != CodeInvalidUTF8 || e.ItemOffset != 0 {
			t.Errorf("size %d invalid UTF-8: %v", size, err)
		}
	}
}

// Marshal of a struct or array by value reads it where the interface points
// when it is not pointer-sized (no copy); pointer-sized ones (which may be
// the interface's data word itself) are copied as before. Rows either side.
func TestMarshalStructsByValue(t *testing.T) {
	n := 7
	type empty struct{}
	type onePtr struct {
		P *int `cbor:"p"`
	}
	type oneInt struct {
		X int64 `cbor:"x"`
	}
	type two struct {
		X int64  `cbor:"x"`
		S string `cbor:"s"`
	}
	type withMap struct {
		M map[string]int `cbor:"m"`
	}
	rows := []struct {
		name string
		v    any
		hex  string
	}{
		{"size 0", empty{}, "a0"},
		{"one pointer (pointer-sized)", onePtr{&n}, "a1617007"},
		{"one nil pointer", onePtr{}, "a16170f6"},
		{"one int64 (pointer-sized, no pointer)", oneInt{-2}, "a1617821"},
		{"int64 and string", two{1, "a"}, "a261780161736161"},
		{"one map (pointer-sized)", withMap{map[string]int{"k": 1}}, "a1616da1616b01"},
		{"[1]*int (pointer-sized)", [1]*int{&n}, "8107"},
		{"[2]int", [2]int{1, 2}, "820102"},
		{"[0]int", [0]int{}, "80"},
	}
	for _, r := range rows {
		got, err := Marshal(r.v)
		if err != nil || hex.EncodeToString(got) != r.hex {
			t.Errorf("%s: %x, %v; want %s", r.name, got, err, r.hex)
		}
		// and inside an []any, through the same path
		got, err = Marshal([]any{r.v})
		if err != nil || hex.EncodeToString(got) != "81"+r.hex {
			t.Errorf("%s in an []any: %x, %v", r.name, got, err)
		}
	}
}

// A struct by value whose pointer-receiver MarshalCBOR writes to it (a
// counter, a lock) is copied first, as before: the interface's value may be
// read-only data (a constant composite literal: the write faulted), and is
// the caller's otherwise.
type countingMarshaler struct {
	A, B int64
	n    int
}

func (c *countingMarshaler) MarshalCBOR() ([]byte, error) {
	c.n++
	return Marshal(c.n)
}

type lockedMarshaler struct {
	mu sync.Mutex
	A  int64
}

func (l *lockedMarshaler) MarshalCBOR() ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return Marshal(l.A)
}

type holdsCounting struct {
	C countingMarshaler `cbor:"c"`
}

func TestMarshalByValueWithPointerMethods(t *testing.T) {
	var v any = countingMarshaler{A: 1, B: 2}
	for i := 0; i < 2; i++ {
		got, err := Marshal(v)
		if err != nil || hex.EncodeToString(got) != "01" {
			t.Fatalf("counting, call %d: %x, %v (want 01: a fresh copy each time)", i, got, err)
		}
	}
	if got, err := Marshal(lockedMarshaler{A: 5}); err != nil || hex.EncodeToString(got) != "05" {
		t.Fatalf("locked: %x, %v", got, err)
	}
	if got, err := Marshal(holdsCounting{}); err != nil || hex.EncodeToString(got) != "a1616301" {
		t.Fatalf("a field's method: %x, %v", got, err)
	}
	if got, err := Marshal([2]countingMarshaler{}); err != nil || hex.EncodeToString(got) != "820101" {
		t.Fatalf("an array's elements: %x, %v", got, err)
	}
}

// omitzero's IsZero with a pointer receiver is called through a pointer to
// the value too: such a struct by value is copied first.
type lockedZero struct {
	mu sync.Mutex
	N  int
}

func (z *lockedZero) IsZero() bool {
	z.mu.Lock()
	defer z.mu.Unlock()
	return z.N == 0
}

type holdsLockedZero struct {
	A int        `cbor:"a"`
	F lockedZero `cbor:"f,omitzero"`
}

func TestMarshalByValueWithPointerIsZero(t *testing.T) {
	got, err := Marshal(holdsLockedZero{A: 1, F: lockedZero{N: 2}})
	if err != nil || hex.EncodeToString(got) != "a2616101616"+"6a1614e02" /* {"a": 1, "f": {"N": 2}} */ {
		t.Fatalf("%x, %v", got, err)
	}
	got, err = Marshal(holdsLockedZero{A: 1})
	if err != nil || hex.EncodeToString(got) != "a1616101" {
		t.Fatalf("zero F omitted: %x, %v", got, err)
	}
}
