package cborfast

import (
	"bytes"
	"math"
	"math/big"
	"math/rand"
	"reflect"
	"testing"
	"time"

	fx "github.com/fxamacker/cbor/v2"
)

// Interop with github.com/fxamacker/cbor/v2 (the module proxy's current
// release, pinned in go.sum): the same values from the same bytes, and the
// same bytes from the same values under the same options.

var corpusSchemas = []struct {
	file string
	make func() any
}{
	{"twitter", func() any { return new(twitterDoc) }},
	{"canada", func() any { return new(canadaDoc) }},
	{"citm_catalog", func() any { return new(citmDoc) }},
}

// fxSorted is fxamacker in the mode whose output is defined byte for byte
// (core deterministic), ours the same.
var (
	fxSorted, _   = fx.EncOptions{Sort: fx.SortCoreDeterministic, ShortestFloat: fx.ShortestFloat16}.EncMode()
	oursSorted, _ = EncOptions{Sort: SortCoreDeterministic, ShortestFloat: ShortestFloat16}.EncMode()
)

func TestInteropCorpusStructs(t *testing.T) {
	for _, c := range corpusSchemas {
		in := readCorpus(t, c.file)
		ours, theirs := c.make(), c.make()
		if err := Unmarshal(in, ours); err != nil {
			t.Fatalf("%s: Unmarshal: %v", c.file, err)
		}
		if err := fx.Unmarshal(in, theirs); err != nil {
			t.Fatalf("%s: fx.Unmarshal: %v", c.file, err)
		}
		if !reflect.DeepEqual(ours, theirs) {
			t.Fatalf("%s: Unmarshal differs from fxamacker", c.file)
		}
		// Encode both ways: the same bytes in the sorted mode and in the
		// default one for structs without Go maps.
		a, err := oursSorted.Marshal(ours)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fxSorted.Marshal(theirs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: sorted Marshal differs from fxamacker (%d vs %d bytes)", c.file, len(a), len(b))
		}
		if c.file != "citm_catalog" {
			a, _ := Marshal(ours)
			b, _ := fx.Marshal(theirs)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s: default Marshal differs from fxamacker", c.file)
			}
		}
		// Each reads the other's output back to the same value.
		back, back2 := c.make(), c.make()
		if err := fx.Unmarshal(a, back); err != nil || !reflect.DeepEqual(back, ours) {
			t.Fatalf("%s: fxamacker reading ours: %v", c.file, err)
		}
		if err := Unmarshal(b, back2); err != nil || !reflect.DeepEqual(back2, theirs) {
			t.Fatalf("%s: ours reading fxamacker's: %v", c.file, err)
		}
	}
}

func TestInteropCorpusAny(t *testing.T) {
	for _, c := range corpusSchemas {
		in := readCorpus(t, c.file)
		var ours, theirs any
		if err := Unmarshal(in, &ours); err != nil {
			t.Fatal(err)
		}
		if err := fx.Unmarshal(in, &theirs); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ours, theirs) {
			t.Fatalf("%s: Unmarshal into any differs from fxamacker", c.file)
		}
		a, err := oursSorted.Marshal(ours)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := fxSorted.Marshal(theirs)
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: Marshal of any differs", c.file)
		}
	}
}

func TestInteropCOSE(t *testing.T) {
	recs := coseRecords(500, 1)
	a, err := Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := fx.Marshal(recs)
	if !bytes.Equal(a, b) {
		t.Fatal("Marshal of COSE records differs from fxamacker")
	}
	// The keys are integers: {1: kty, 2: kid, 3: alg, ...}
	var first map[int]any
	if err := Unmarshal(a[3:], &first); err == nil {
		t.Fatal("want trailing bytes")
	}
	var ours, theirs []coseKey
	if err := Unmarshal(b, &ours); err != nil {
		t.Fatal(err)
	}
	if err := fx.Unmarshal(a, &theirs); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ours, recs) || !reflect.DeepEqual(theirs, recs) {
		t.Fatal("COSE records differ after a round trip")
	}
}

// A struct with every kind of field the binding handles, filled at random.
type kitchen struct {
	_       struct{}           `cbor:",omitempty"`
	B       bool               `cbor:"b"`
	I8      int8               `cbor:"i8"`
	I16     int16              `cbor:"i16"`
	I32     int32              `cbor:"i32"`
	I64     int64              `cbor:"i64"`
	U8      uint8              `cbor:"u8"`
	U16     uint16             `cbor:"u16"`
	U32     uint32             `cbor:"u32"`
	U64     uint64             `cbor:"u64"`
	F32     float32            `cbor:"f32"`
	F64     float64            `cbor:"f64"`
	S       string             `cbor:"s"`
	Bytes   []byte             `cbor:"bytes"`
	Arr     [3]byte            `cbor:"arr"`
	Strs    []string           `cbor:"strs"`
	IntMap  map[int]string     `cbor:"intmap"`
	StrMap  map[string]float64 `cbor:"strmap"`
	Ptr     *int               `cbor:"ptr"`
	Omit    string             `cbor:"omit,omitempty"`
	Skip    int                `cbor:"-"`
	Nested  *kitchen           `cbor:"nested,omitempty"`
	Pair    pairArr            `cbor:"pair"`
	When    time.Time          `cbor:"when"`
	Big     *big.Int           `cbor:"big"`
	Any     any                `cbor:"any"`
	KeyInt  int                `cbor:"7,keyasint"`
	unexp   int
	Untaged int
}

type pairArr struct {
	_ struct{} `cbor:",toarray"`
	A int
	B string
}

func randKitchen(r *rand.Rand, depth int) *kitchen {
	k := &kitchen{
		B: r.Intn(2) == 0, I8: int8(r.Int()), I16: int16(r.Int()), I32: int32(r.Int()),
		I64: r.Int63() - r.Int63(), U8: uint8(r.Int()), U16: uint16(r.Int()), U32: r.Uint32(),
		U64: r.Uint64() >> uint(r.Intn(64)), F32: float32(r.NormFloat64()), F64: r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20)),
		S: string(randBytes(r, r.Intn(30))), Bytes: randBytes(r, r.Intn(300)),
		Strs:   []string{"a", string(make([]byte, 24)), "ü"},
		IntMap: map[int]string{-1: "neg", 0: "zero", 23: "x", 24: "y", 255: "z", 256: "w"},
		StrMap: map[string]float64{"half": 0.5, "one": 1, "": math.Inf(1), "longer key name": 1e300},
		When:   time.Unix(r.Int63n(1<<33), 0),
		Big:    new(big.Int).Lsh(big.NewInt(r.Int63()), uint(r.Intn(100))),
		Any:    []any{uint64(1), "two", map[any]any{"three": 3.5}},
		KeyInt: r.Intn(1000), Untaged: r.Intn(10),
		unexp: 1 + r.Intn(9), // never encoded: an unexported field
	}
	for i := range k.S {
		if k.S[i] >= 0x80 { // text must be valid UTF-8
			k.S = k.S[:i]
			break
		}
	}
	k.Arr = [3]byte{byte(r.Int()), 2, 3}
	if r.Intn(2) == 0 {
		n := r.Intn(100)
		k.Ptr = &n
	}
	if r.Intn(3) == 0 {
		k.Omit = "present"
	}
	if depth > 0 && r.Intn(2) == 0 {
		k.Nested = randKitchen(r, depth-1)
	}
	k.Pair.A, k.Pair.B = r.Intn(50)-25, "pair"
	if r.Intn(2) == 0 {
		k.Big.Neg(k.Big)
	}
	return k
}

func TestInteropGenerated(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	modes := []struct {
		name   string
		ours   EncOptions
		theirs fx.EncOptions
	}{
		{"core deterministic", EncOptions{Sort: SortCoreDeterministic, ShortestFloat: ShortestFloat16},
			fx.EncOptions{Sort: fx.SortCoreDeterministic, ShortestFloat: fx.ShortestFloat16}},
		{"length first", EncOptions{Sort: SortLengthFirst}, fx.EncOptions{Sort: fx.SortLengthFirst}},
		{"CTAP2", CTAP2EncOptions(), fx.CTAP2EncOptions()},
		{"canonical", CanonicalEncOptions(), fx.CanonicalEncOptions()},
		{"core det preset", CoreDetEncOptions(), fx.CoreDetEncOptions()},
	}
	for _, m := range modes {
		om, err := m.ours.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		tm, err := m.theirs.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 200; i++ {
			k := randKitchen(r, 2)
			if m.name == "CTAP2" {
				for n := k; n != nil; n = n.Nested {
					n.Big = big.NewInt(int64(i)) // CTAP2 forbids tags: no bignum
				}
			}
			a, err := om.Marshal(k)
			if err != nil {
				t.Fatal(err)
			}
			b, err := tm.Marshal(k)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Fatalf("%s #%d: Marshal differs from fxamacker:\n ours %x\n fx   %x", m.name, i, a, b)
			}
			var x, y kitchen
			if err := Unmarshal(b, &x); err != nil {
				t.Fatal(err)
			}
			if err := fx.Unmarshal(a, &y); err != nil {
				t.Fatal(err)
			}
			k.Skip, y.Skip = 0, 0
			if !reflect.DeepEqual(&x, &y) {
				t.Fatalf("%s #%d: Unmarshal differs from fxamacker:\n ours %+v\n fx   %+v", m.name, i, x, y)
			}
		}
	}
}

// Times and bignums: the tag options, with the exact bytes.
func TestTagOptions(t *testing.T) {
	when := time.Date(2013, 3, 21, 20, 4, 0, 500_000_000, time.UTC)
	for _, c := range []struct {
		name string
		opts EncOptions
		hex  string
	}{
		{"unix", EncOptions{Time: TimeUnix}, "1a514b67b0"},
		{"unix tagged", EncOptions{Time: TimeUnix, TimeTag: EncTagRequired}, "c11a514b67b0"},
		{"unix micro", EncOptions{Time: TimeUnixMicro}, "fb41d452d9ec200000"},
		{"unix dynamic", EncOptions{Time: TimeUnixDynamic, TimeTag: EncTagRequired}, "c1fb41d452d9ec200000"},
		{"rfc3339", EncOptions{Time: TimeRFC3339, TimeTag: EncTagRequired}, "c074323031332d30332d32315432303a30343a30305a"},
		{"rfc3339 nano", EncOptions{Time: TimeRFC3339Nano, TimeTag: EncTagRequired}, "c076323031332d30332d32315432303a30343a30302e355a"},
	} {
		em, _ := c.opts.EncMode()
		got, err := em.Marshal(when)
		if err != nil || !bytes.Equal(got, unhex(t, c.hex)) {
			t.Errorf("%s: %x %v, want %s", c.name, got, err, c.hex)
		}
		fem, _ := fx.EncOptions{Time: fx.TimeMode(c.opts.Time), TimeTag: fx.EncTagMode(c.opts.TimeTag)}.EncMode()
		if theirs, _ := fem.Marshal(when); !bytes.Equal(got, theirs) {
			t.Errorf("%s: fxamacker writes %x", c.name, theirs)
		}
		var back time.Time
		if err := Unmarshal(got, &back); err != nil {
			t.Errorf("%s: Unmarshal: %v", c.name, err)
		}
	}
	// Tag 0 and 1 into any give time.Time, as in fxamacker.
	var v any
	if err := Unmarshal(unhex(t, "c11a514b67b0"), &v); err != nil || !v.(time.Time).Equal(time.Unix(1363896240, 0)) {
		t.Errorf("tag 1 into any: %v %v", v, err)
	}
	if err := Unmarshal(unhex(t, "c074323031332d30332d32315432303a30343a30305a"), &v); err != nil ||
		!v.(time.Time).Equal(time.Unix(1363896240, 0)) {
		t.Errorf("tag 0 into any: %v %v", v, err)
	}
	// Bignums around the 64-bit boundaries.
	for _, c := range []struct{ dec, hex string }{
		{"18446744073709551615", "1bffffffffffffffff"},      // 2^64-1: a plain uint
		{"18446744073709551616", "c249010000000000000000"},  // 2^64: tag 2
		{"-18446744073709551616", "3bffffffffffffffff"},     // -2^64: a plain negative
		{"-18446744073709551617", "c349010000000000000000"}, // -2^64-1: tag 3
		{"0", "00"},
	} {
		z := bigInt(c.dec)
		got, err := Marshal(z)
		if err != nil || !bytes.Equal(got, unhex(t, c.hex)) {
			t.Errorf("Marshal(%s) = %x %v, want %s", c.dec, got, err, c.hex)
		}
		theirs, _ := fx.Marshal(z)
		if !bytes.Equal(got, theirs) {
			t.Errorf("Marshal(%s): fxamacker writes %x", c.dec, theirs)
		}
		var back big.Int
		if err := Unmarshal(got, &back); err != nil || back.Cmp(z) != 0 {
			t.Errorf("Unmarshal(%s) = %v %v", c.hex, &back, err)
		}
		var a, b any
		if err := Unmarshal(got, &a); err != nil {
			t.Fatal(err)
		}
		fx.Unmarshal(got, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s into any: %#v, fxamacker %#v", c.hex, a, b)
		}
	}
	em, _ := EncOptions{BigIntConvert: BigIntConvertNone}.EncMode()
	if got, _ := em.Marshal(big.NewInt(1)); !bytes.Equal(got, unhex(t, "c24101")) {
		t.Errorf("BigIntConvertNone: %x", got)
	}
	// An unregistered tag into any: Tag with the content.
	var tagged any
	if err := Unmarshal(unhex(t, "d8 20 63 61 62 63"), &tagged); err != nil ||
		!reflect.DeepEqual(tagged, Tag{Number: 32, Content: "abc"}) {
		t.Errorf("tag 32: %#v %v", tagged, err)
	}
}

// Float widths: ShortestFloat16 against fxamacker and the C writer.
func TestFloatWidths(t *testing.T) {
	short, _ := EncOptions{ShortestFloat: ShortestFloat16}.EncMode()
	fshort, _ := fx.EncOptions{ShortestFloat: fx.ShortestFloat16}.EncMode()
	for _, c := range []struct {
		f           float64
		none, short string
	}{
		{0, "fb0000000000000000", "f90000"},
		{1.5, "fb3ff8000000000000", "f93e00"},
		{65504, "fb40effc0000000000", "f97bff"},                 // largest half
		{65505, "fb40effc2000000000", "fa477fe100"},             // needs single
		{5.960464477539063e-08, "fb3e70000000000000", "f90001"}, // smallest half subnormal
		{1.0e300, "fb7e37e43c8800759c", "fb7e37e43c8800759c"},
		{math.Inf(-1), "f9fc00", "f9fc00"},
		{math.NaN(), "f97e00", "f97e00"},
	} {
		if got, _ := Marshal(c.f); !bytes.Equal(got, unhex(t, c.none)) {
			t.Errorf("Marshal(%v) = %x, want %s", c.f, got, c.none)
		}
		got, _ := short.Marshal(c.f)
		if !bytes.Equal(got, unhex(t, c.short)) {
			t.Errorf("shortest(%v) = %x, want %s", c.f, got, c.short)
		}
		if theirs, _ := fshort.Marshal(c.f); !bytes.Equal(got, theirs) {
			t.Errorf("shortest(%v): fxamacker %x", c.f, theirs)
		}
		// Go's math.NaN() has payload 1, which the C writer keeps (so does
		// Encode); Marshal's default NaNConvert7e00 writes the quiet NaN.
		ref, _ := cWriterEncode(c.f)
		if enc, _ := Encode(c.f); !bytes.Equal(enc, ref) {
			t.Errorf("Encode(%v) = %x, C writer %x", c.f, enc, ref)
		}
		if !math.IsNaN(c.f) && !bytes.Equal(got, ref) {
			t.Errorf("shortest(%v): C writer %x", c.f, ref)
		}
	}
	if got, _ := Marshal(float32(1.5)); !bytes.Equal(got, unhex(t, "fa3fc00000")) {
		t.Errorf("float32: %x", got)
	}
}
