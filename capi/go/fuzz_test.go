package cborfast

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	fx "github.com/fxamacker/cbor/v2"
)

// Coverage-guided fuzz targets (Go's native fuzzing). `go test` runs their
// seeds as ordinary tests; the ctest go.fuzz_* rows run each for a bounded
// time (`go test -run '^$' -fuzz '^FuzzX$' -fuzztime 20s`). What each input
// must satisfy:
//   - no panic, whatever the target type;
//   - an error that names an offset names one inside the input;
//   - into `any`: accepted exactly when fxamacker (the module's interop peer,
//     default options on both sides) accepts it, with the same value; and
//     what is accepted encodes, decodes back and encodes to the same bytes;
//   - into typed targets (structs with every tag option, typed slices and
//     maps): accepted exactly when fxamacker accepts it into the same type,
//     with a DeepEqual result;
//   - NewDecoder over the input arriving a few bytes at a time gives the same
//     values, and the same error, as UnmarshalFirst over the whole input.

// fuzzSeeds adds the shared vectors' inputs, pieces of the corpus and a few
// typed records to f's seed corpus.
func fuzzSeeds(f *testing.F) {
	f.Helper()
	var appendix []struct {
		Hex string `json:"hex"`
	}
	sharedVectorsF(f, "appendix_a.json", &appendix)
	for _, r := range appendix {
		f.Add(unhex(f, r.Hex))
	}
	var malformed []struct {
		Hex string `json:"hex"`
	}
	sharedVectorsF(f, "malformed.json", &malformed)
	for _, r := range malformed {
		f.Add(unhex(f, r.Hex))
	}
	if dir := os.Getenv("CBOR_FAST_CORPUS_DIR"); dir != "" {
		for _, name := range []string{"twitter", "citm_catalog", "canada"} {
			b, err := os.ReadFile(filepath.Join(dir, name+".cbor"))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b[:512]) // a prefix: truncated, but a realistic start
		}
	}
	for _, v := range []any{
		fuzzRecord{A: 1, B: "two", C: []byte{3}, D: []int{4, -5}, E: map[int]string{6: "six"},
			F: &fuzzPair{X: 7, Y: "eight"}, G: time.Unix(9, 0).UTC(), H: big.NewInt(-10), I: 1.5,
			J: RawMessage{0x0b}},
		fuzzCOSE{Alg: -7, Kid: []byte("k"), IV: []byte{1, 2}},
	} {
		b, err := Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// sharedVectorsF reads tests/vectors/NAME into out (hex strings only are used).
func sharedVectorsF(f *testing.F, name string, out any) {
	f.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", "vectors", name))
	if err != nil {
		f.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		f.Fatalf("%s: %v", name, err)
	}
}

// deepEqualAny is reflect.DeepEqual but for floats, compared by bits (any
// NaN equals any other), big integers, compared by value, and times, by
// instant and location name.
func deepEqualAny(a, b any) bool {
	return deepEqualValue(reflect.ValueOf(a), reflect.ValueOf(b))
}

var (
	bigIntValueType = reflect.TypeOf(big.Int{})
	timeValueType   = reflect.TypeOf(time.Time{})
)

func deepEqualValue(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		// NaNs alike: fxamacker widens a float32 NaN with Go's conversion,
		// which sets the quiet bit; the library keeps the payload as it is.
		x, y := a.Float(), b.Float()
		return math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Type().Elem() == bigIntValueType {
			return a.Interface().(*big.Int).Cmp(b.Interface().(*big.Int)) == 0
		}
		return deepEqualValue(a.Elem(), b.Elem())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		// fxamacker's own types for tags, simple values and byte strings
		// (also inside a typed target's `any`, a map[string]any field) are
		// compared as this package's.
		return deepEqualValue(reflect.ValueOf(fromFx(a.Elem().Interface())),
			reflect.ValueOf(fromFx(b.Elem().Interface())))
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !deepEqualValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		// Pairs under NaN keys (isNaNKey), which no lookup finds: each of a's
		// matches one of b's, key and value, in any order.
		var nanA, nanB [][2]reflect.Value
		for it := a.MapRange(); it.Next(); {
			if isNaNKey(it.Key()) {
				nanA = append(nanA, [2]reflect.Value{it.Key(), it.Value()})
				continue
			}
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !deepEqualValue(it.Value(), bv) {
				return false
			}
		}
		for it := b.MapRange(); it.Next(); {
			if isNaNKey(it.Key()) {
				nanB = append(nanB, [2]reflect.Value{it.Key(), it.Value()})
			}
		}
		if len(nanA) != len(nanB) {
			return false
		}
		for _, x := range nanA {
			found := false
			for j, y := range nanB {
				if y[0].IsValid() && deepEqualValue(x[0], y[0]) && deepEqualValue(x[1], y[1]) {
					nanB[j], found = [2]reflect.Value{}, true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case reflect.Struct:
		if a.Type() == timeValueType {
			x, y := a.Interface().(time.Time), b.Interface().(time.Time)
			return x.Equal(y) && x.Location().String() == y.Location().String()
		}
		if a.Type() == bigIntValueType {
			x, y := a.Interface().(big.Int), b.Interface().(big.Int)
			return x.Cmp(&y) == 0
		}
		for i := 0; i < a.NumField(); i++ {
			if !deepEqualValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	}
	panic("deepEqualAny: unexpected kind " + a.Kind().String())
}

type fuzzPair struct {
	_ struct{} `cbor:",toarray"`
	X int
	Y string
}

type fuzzRecord struct {
	A int            `cbor:"a"`
	B string         `cbor:"b,omitempty"`
	C []byte         `cbor:"c"`
	D []int          `cbor:"d"`
	E map[int]string `cbor:"e"`
	F *fuzzPair      `cbor:"f"`
	G time.Time      `cbor:"g"`
	H *big.Int       `cbor:"h"`
	I float64        `cbor:"i"`
	J RawMessage     `cbor:"j"`
	K []string       `cbor:"k"`
	L map[string]any `cbor:"l"`
	M uint8          `cbor:"m"`
	N int16          `cbor:"n"`
	O float32        `cbor:"o"`
	P bool           `cbor:"p"`
	Q [2]byte        `cbor:"q"`
	R *fuzzRecord    `cbor:"r"`
	S int            `cbor:"-"`
}

type fuzzCOSE struct {
	Alg int    `cbor:"1,keyasint,omitempty"`
	Kid []byte `cbor:"4,keyasint,omitempty"`
	IV  []byte `cbor:"5,keyasint,omitempty"`
}

// knownDivergence: the errors where the binding refuses, on purpose, what
// fxamacker accepts (README.md, "Differences from fxamacker/cbor"):
//   - an epoch time (tag 1, or a number into time.Time) beyond 2^62 seconds
//     either way, NaN or an infinity: fxamacker gives a wrapped time for the
//     first and the zero time for the others;
//   - into a big.Int, anything but an integer or a bignum (tag 2 or 3):
//     fxamacker takes the content of any other tag and a map as an empty
//     struct;
//   - a simple value (other than false, true, null, undefined) into a Go
//     number or a big.Int: fxamacker gives its number;
//   - invalid UTF-8 is refused in every text string, those of unknown
//     struct fields and other values passed over included;
//   - depth: every tag and indefinite-length string is a level here;
//   - number slices also take RFC 8746 typed arrays (tags 64 to 87).
func knownDivergence(data []byte, target any, err error) bool {
	if err == nil {
		switch target.(type) {
		case *[]float64:
			return bytes.Contains(data, []byte{0xd8}) // a typed array's tag, maybe
		}
		return false
	}
	if errors.Is(err, ErrDepth) || errors.Is(err, ErrInvalidUTF8) {
		return true
	}
	var te *UnmarshalTypeError
	if !errors.As(err, &te) {
		return false
	}
	if te.Reason == "epoch time out of range" || te.CBORType == "simple value" {
		return true
	}
	return te.GoType == "big.Int" &&
		(te.CBORType == "tag" || te.CBORType == "simple value" || te.CBORType == "map")
}

// fromFx is a value fxamacker decoded into `any`, with its own types for
// tags and simple values turned into this package's.
func fromFx(v any) any {
	switch x := v.(type) {
	case fx.Tag:
		return Tag{Number: x.Number, Content: fromFx(x.Content)}
	case fx.SimpleValue:
		return SimpleValue(x)
	case fx.ByteString:
		return ByteString(x)
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = fromFx(x[i])
		}
		return out
	case map[any]any:
		out := make(map[any]any, len(x))
		for k, e := range x {
			out[fromFx(k)] = fromFx(e)
		}
		return out
	}
	return v
}

// isNaNKey: whether a map key is unequal to itself, so that no lookup finds
// it: a NaN, or a key holding one (a Tag over a NaN, an array key with a NaN
// element).
func isNaNKey(k reflect.Value) bool {
	x := k.Interface()
	return x != x
}

// errorOffset is the offset an error of this package names, if any.
func errorOffset(err error) (int, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Offset, true
	}
	var te *UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Offset, true
	}
	return 0, false
}

func checkOffset(t *testing.T, what string, data []byte, err error) {
	t.Helper()
	if off, ok := errorOffset(err); ok && (off < 0 || off > len(data)) {
		t.Fatalf("%s: offset %d outside the %d-byte input: %v", what, off, len(data), err)
	}
}

func FuzzUnmarshalAny(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var ours, theirs any
		err := Unmarshal(data, &ours)
		checkOffset(t, "Unmarshal", data, err)
		fxErr := fx.Unmarshal(data, &theirs)
		if (err == nil) != (fxErr == nil) && !knownDivergence(data, &ours, err) {
			t.Fatalf("Unmarshal(%x) into any: ours %v, fxamacker %v", data, err, fxErr)
		}
		if err != nil {
			return
		}
		if !deepEqualAny(ours, fromFx(theirs)) {
			t.Fatalf("Unmarshal(%x) into any: %#v, fxamacker %#v", data, ours, theirs)
		}
		// Sorted, so that Go maps give one encoding.
		a, err := oursSorted.Marshal(ours)
		if errors.Is(err, errEqualKeys) {
			// Distinct Go keys that encode alike (a time.Time and its
			// epoch integer, untagged by default: a2 c1 30 30 30 30):
			// the sorted mode refuses the map (fxamacker writes both).
			return
		}
		if err != nil {
			t.Fatalf("Marshal of %#v (from %x): %v", ours, data, err)
		}
		var again any
		if err := Unmarshal(a, &again); err != nil {
			t.Fatalf("Unmarshal(Marshal(%x)) = %x: %v", data, a, err)
		}
		b, err := oursSorted.Marshal(again)
		if err != nil || !bytes.Equal(a, b) {
			t.Fatalf("Marshal not stable: %x then %x (%v), from %x", a, b, err, data)
		}
	})
}

func FuzzUnmarshalTyped(f *testing.F) {
	fuzzSeeds(f)
	targets := []func() any{
		func() any { return new(fuzzRecord) },
		func() any { return new(fuzzCOSE) },
		func() any { return new(fuzzPair) },
		func() any { return new([]string) },
		func() any { return new(map[int]string) },
		func() any { return new([]float64) },
		func() any { return new(map[string][]byte) },
		func() any { return new(*big.Int) },
		func() any { return new(time.Time) },
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, mk := range targets {
			ours, theirs := mk(), mk()
			err := Unmarshal(data, ours)
			checkOffset(t, "Unmarshal", data, err)
			// Malformed input, a limit or trailing bytes: found before
			// anything is stored (untouched_test.go).
			var e *Error
			if errors.As(err, &e) && !invalidOnly(e.Code) && !reflect.DeepEqual(ours, mk()) {
				t.Fatalf("Unmarshal(%x) into %T: %v, and the target changed: %#v", data, ours, err, ours)
			}
			fxErr := fx.Unmarshal(data, theirs)
			if (err == nil) != (fxErr == nil) && !knownDivergence(data, ours, err) {
				t.Fatalf("Unmarshal(%x) into %T: ours %v, fxamacker %v", data, ours, err, fxErr)
			}
			if err == nil && fxErr == nil && !deepEqualAny(ours, theirs) {
				t.Fatalf("Unmarshal(%x) into %T: %#v, fxamacker %#v", data, ours, ours, theirs)
			}
		}
	})
}

func FuzzDecoderPieces(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// The whole input at once: items until the first error or the end.
		var want []any
		var wantErr error
		rest := data
		for len(rest) > 0 {
			var v any
			r, err := UnmarshalFirst(rest, &v)
			if err != nil {
				wantErr = err
				break
			}
			want = append(want, v)
			rest = r
		}
		for _, n := range []int{1, 3, 7, len(data) + 1} {
			dec := NewDecoder(&chunkReader{data, n})
			for i := 0; ; i++ {
				var v any
				err := dec.Decode(&v)
				if err == io.EOF {
					if i != len(want) || wantErr != nil {
						t.Fatalf("%x in %d-byte reads: EOF after %d items, want %d then %v", data, n, i, len(want), wantErr)
					}
					break
				}
				if err != nil {
					if i != len(want) || wantErr == nil {
						t.Fatalf("%x in %d-byte reads: item %d: %v; whole input: %d items, then %v", data, n, i, err, len(want), wantErr)
					}
					break
				}
				if i >= len(want) || !deepEqualAny(v, want[i]) {
					t.Fatalf("%x in %d-byte reads: item %d is %#v", data, n, i, v)
				}
			}
		}
	})
}

var dupCheck, _ = DecOptions{DupMapKey: DupMapKeyEnforcedAPF, MaxNestedLevels: MaxNestedLevelsLimit}.DecMode()

// hasDuplicateKeys: whether b holds a map with two equal keys. Distinct Go
// keys can encode alike (an int64 and a time.Time, written untagged by
// default): fxamacker's sorted modes write both. Any depth fxamacker
// encodes (tags count as levels here: 33 tags deep hid a duplicate).
func hasDuplicateKeys(b []byte) bool {
	var v any
	return errors.Is(dupCheck.Unmarshal(b, &v), ErrDuplicateKey)
}

// FuzzMarshal: values fxamacker decodes (into `any` and into the typed
// targets) must encode to fxamacker's bytes in the core deterministic mode,
// and fail where fxamacker fails.
func FuzzMarshal(f *testing.F) {
	fuzzSeeds(f)
	targets := []func() any{
		func() any { return new(any) },
		func() any { return new(fuzzRecord) },
		func() any { return new(fuzzCOSE) },
		func() any { return new(map[int]string) },
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, mk := range targets {
			v := mk()
			if fx.Unmarshal(data, v) != nil {
				continue
			}
			want, fxErr := fxSorted.Marshal(v)
			var mine any = v
			if p, ok := v.(*any); ok {
				converted := fromFx(*p)
				mine = &converted
			}
			got, err := oursSorted.Marshal(mine)
			if errors.Is(err, errEqualKeys) && fxErr == nil && hasDuplicateKeys(want) {
				// Distinct Go keys that encode alike: refused here,
				// written twice by fxamacker.
				continue
			}
			if (err == nil) != (fxErr == nil) {
				t.Fatalf("Marshal of %#v (from %x): ours %v, fxamacker %v", v, data, err, fxErr)
			}
			if err == nil && !bytes.Equal(got, want) {
				t.Fatalf("Marshal of %#v (from %x): %x, fxamacker %x", v, data, got, want)
			}
		}
	})
}

// TestDeepEqualAnyFxTypesInTypedTargets: a typed target's `any` holds
// fxamacker's Tag where ours holds this package's (found by
// FuzzUnmarshalTyped: a2 61 4c a2 61 30 30 61 30 d6 30 09 f5 into a struct
// with a map[string]any field).
func TestDeepEqualAnyFxTypesInTypedTargets(t *testing.T) {
	type rec struct{ L map[string]any }
	rows := []struct {
		name string
		a, b rec
		want bool
	}{
		{"tag", rec{map[string]any{"0": Tag{22, int64(-17)}}}, rec{map[string]any{"0": fx.Tag{Number: 22, Content: int64(-17)}}}, true},
		{"tag number differs", rec{map[string]any{"0": Tag{22, int64(-17)}}}, rec{map[string]any{"0": fx.Tag{Number: 23, Content: int64(-17)}}}, false},
		{"simple value", rec{map[string]any{"0": SimpleValue(16)}}, rec{map[string]any{"0": fx.SimpleValue(16)}}, true},
		{"tag in an array", rec{map[string]any{"0": []any{Tag{1, "x"}}}}, rec{map[string]any{"0": []any{fx.Tag{Number: 1, Content: "x"}}}}, true},
		{"tag against its content", rec{map[string]any{"0": Tag{22, int64(-17)}}}, rec{map[string]any{"0": int64(-17)}}, false},
	}
	for _, r := range rows {
		if got := deepEqualAny(r.a, r.b); got != r.want {
			t.Errorf("%s: deepEqualAny = %v, want %v", r.name, got, r.want)
		}
	}
}

// TestDeepEqualAnyNaNKeys: the fuzz targets' comparison of maps whose keys
// are not equal to themselves (found by FuzzDecoderPieces: a1 d7 f9 7f 30 30,
// the key 23(NaN), was reported unequal to itself).
func TestDeepEqualAnyNaNKeys(t *testing.T) {
	nan := math.NaN()
	rows := []struct {
		name string
		a, b map[any]any
		want bool
	}{
		{"NaN key, same value", map[any]any{nan: 1}, map[any]any{nan: 1}, true},
		{"tag over NaN as key", map[any]any{Tag{23, nan}: -17}, map[any]any{Tag{23, nan}: -17}, true},
		{"tag over NaN against bare NaN", map[any]any{Tag{23, nan}: 1}, map[any]any{nan: 1}, false},
		{"tag numbers differ", map[any]any{Tag{23, nan}: 1}, map[any]any{Tag{22, nan}: 1}, false},
		{"values under NaN differ", map[any]any{nan: 1}, map[any]any{nan: 2}, false},
		{"two NaN keys, either order", map[any]any{nan: 1, Tag{1, nan}: 2}, map[any]any{Tag{1, nan}: 2, nan: 1}, true},
		{"NaN key against an ordinary key", map[any]any{nan: 1}, map[any]any{0.0: 1}, false},
	}
	for _, r := range rows {
		if got := deepEqualAny(r.a, r.b); got != r.want {
			t.Errorf("%s: deepEqualAny = %v, want %v", r.name, got, r.want)
		}
	}
}

// FuzzPlainCheck: MarshalCBOR output that the Go-side check accepts
// (wellFormedPlain) is accepted by the library's check too; what it
// declines goes to the library, so the errors are the library's.
func FuzzPlainCheck(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if wellFormedPlain(data) {
			if err := checkMarshaledLib(data, 0, false); err != nil {
				t.Fatalf("%x: plain check accepts, the library: %v", data, err)
			}
		}
	})
}

// The plain check against the library's on generated items (well-formed,
// then cut, extended or with one byte changed), and named boundary rows.
func TestPlainCheckAgreesWithTheLibrary(t *testing.T) {
	rows := []struct {
		name  string
		hex   string
		plain bool
	}{
		{"uint in the initial byte", "17", true},
		{"uint 64 bits", "1bffffffffffffffff", true},
		{"cut argument", "1bffffffffffff", false},
		{"reserved 28", "1c", false},
		{"indefinite bytes", "5f41ff", false},
		{"break alone", "ff", false},
		{"simple in two bytes below 32", "f81f", false},
		{"simple 32 in two bytes", "f820", true},
		{"float16", "f93c00", true},
		{"text cut short", "6261", false},
		{"map of one pair", "a10102", true},
		{"map missing its value", "a101", false},
		{"trailing byte", "0000", false},
		{"empty", "", false},
		{"tag over a tag over an int", "c1c101", true},
		{"tag without content", "c1", false},
		{"32 nested arrays", strings.Repeat("81", 32) + "00", true},
		{"33 nested arrays (the library decides)", strings.Repeat("81", 33) + "00", false},
		{"array count over the bytes left", "9a0000000200", false},
		{"array count in four bytes", "9a0000000100", true},
		{"map count that doubles past the bytes", "bb7fffffffffffffff", false},
	}
	for _, r := range rows {
		m := unhex(t, r.hex)
		if got := wellFormedPlain(m); got != r.plain {
			t.Errorf("%s: wellFormedPlain(%s) = %v", r.name, r.hex, got)
		}
		if r.plain {
			if err := checkMarshaledLib(m, 0, false); err != nil {
				t.Errorf("%s: the library refuses %s: %v", r.name, r.hex, err)
			}
		}
	}
	rnd := rand.New(rand.NewSource(11))
	accepted, refused := 0, 0
	for i := 0; i < 20000; i++ {
		m, err := Marshal(randValue(rnd, 3))
		if err != nil {
			t.Fatal(err)
		}
		switch rnd.Intn(4) {
		case 1:
			m = m[:rnd.Intn(len(m)+1)]
		case 2:
			m = append(m, byte(rnd.Intn(256)))
		case 3:
			m[rnd.Intn(len(m))] = byte(rnd.Intn(256))
		}
		plain := wellFormedPlain(m)
		lib := checkMarshaledLib(m, 0, false)
		if plain && lib != nil {
			t.Fatalf("%x: plain check accepts, the library: %v", m, lib)
		}
		if plain {
			accepted++
		} else if lib != nil {
			refused++
		}
	}
	if accepted < 5000 || refused < 2000 {
		t.Fatalf("generator too narrow: %d accepted, %d refused", accepted, refused)
	}
}
