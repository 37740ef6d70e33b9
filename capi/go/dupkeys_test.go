package cborfast

import (
	"errors"
	"reflect"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

// dupRow: in decoded into into (prefilled by fill) fails with ErrDuplicateKey
// at off (-1: no error, the value is want), and fxamacker gives its
// DupMapKeyError (or no error and the same value).
type dupRow struct {
	name string
	in   string
	into func() any
	off  int
	want any
}

func runDupRows(t *testing.T, ours DecMode, peer fx.DecMode, rows []dupRow) {
	t.Helper()
	for _, r := range rows {
		in := unhex(t, r.in)
		v := r.into()
		err := ours.Unmarshal(in, v)
		if r.off >= 0 {
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeDuplicateKey || e.Offset != r.off || !errors.Is(err, ErrDuplicateKey) {
				t.Errorf("%s: %v, want a duplicate key at %d", r.name, err, r.off)
			}
		} else if err != nil {
			t.Errorf("%s: %v", r.name, err)
		} else if got := reflect.ValueOf(v).Elem().Interface(); !reflect.DeepEqual(got, r.want) {
			t.Errorf("%s: got %#v, want %#v", r.name, got, r.want)
		}
		pv := r.into()
		perr := peer.Unmarshal(in, pv)
		var de *fx.DupMapKeyError
		if r.off >= 0 && !errors.As(perr, &de) {
			t.Errorf("%s: fxamacker: %v", r.name, perr)
		}
		if r.off < 0 {
			if perr != nil {
				t.Errorf("%s: fxamacker: %v", r.name, perr)
			} else if got := reflect.ValueOf(pv).Elem().Interface(); !reflect.DeepEqual(got, r.want) {
				t.Errorf("%s: fxamacker gives %#v", r.name, got)
			}
		}
	}
}

func TestDuplicateKeysByGoValue(t *testing.T) {
	st := func() any { return new(fieldStruct) }
	strMap := func() any { return new(map[string]int) }
	prefilled := func() any { m := map[string]int{"a": 0}; return &m }
	t.Run("EnforcedAPF", func(t *testing.T) {
		dm, _ := DecOptions{DupMapKey: DupMapKeyEnforcedAPF}.DecMode()
		pm, _ := fx.DecOptions{DupMapKey: fx.DupMapKeyEnforcedAPF}.DecMode()
		runDupRows(t, dm, pm, []dupRow{
			{"the same field by a case variant", "a2 61 61 01 61 41 02", st, 4, nil},
			{"the same field by a case variant, longer name", "a2 62 6263 01 62 4243 02", st, 5, nil},
			{"the same field, the same key (found by the library)", "a2 61 61 01 61 61 02", st, 4, nil},
			{"the same keyasint field (library)", "a2 07 01 07 02", st, 3, nil},
			{"different fields", "a3 61 61 01 62 6263 02 07 03", st, -1, fieldStruct{A: 1, Bc: 2, K: 3}},
			{"unknown keys that differ in case are not duplicates", "a2 61 7a 01 61 5a 02", st, -1, fieldStruct{}},
			{"float64 map: 1 and 1.0", "a2 01 01 f9 3c00 02", func() any { return new(map[float64]int) }, 3, nil},
			{"float64 map: 1.0 as half and as double", "a2 f9 3c00 01 fb 3ff0000000000000 02", func() any { return new(map[float64]int) }, 5, nil},
			{"int map: 1 and 1 in two bytes (library)", "a2 01 01 18 01 02", func() any { return new(map[int]int) }, 3, nil},
			{"prefilled map: its key set once is not a duplicate", "a1 61 61 01", prefilled, -1, map[string]int{"a": 1}},
			{"prefilled map: set twice is", "a2 61 61 01 61 61 02", prefilled, 4, nil},
		})
	})
	t.Run("EnforcedAPF, byte strings as strings", func(t *testing.T) {
		dm, _ := DecOptions{DupMapKey: DupMapKeyEnforcedAPF, ByteStringToString: ByteStringToStringAllowed,
			FieldNameByteString: FieldNameByteStringAllowed}.DecMode()
		pm, _ := fx.DecOptions{DupMapKey: fx.DupMapKeyEnforcedAPF, ByteStringToString: fx.ByteStringToStringAllowed,
			FieldNameByteString: fx.FieldNameByteStringAllowed}.DecMode()
		runDupRows(t, dm, pm, []dupRow{
			{"field named by text, then bytes", "a2 61 61 01 41 61 02", st, 4, nil},
			{"field named by bytes, then a case variant", "a2 41 61 01 61 41 02", st, 4, nil},
			{"unknown name as text, then bytes", "a2 61 7a 01 41 7a 02", st, 4, nil},
			{"map[string]int: text key, then bytes", "a2 61 61 01 41 61 02", strMap, 4, nil},
			{"map[string]any: text key, then bytes", "a2 61 61 01 41 61 02", func() any { return new(map[string]any) }, 4, nil},
			{"map[string]string: bytes key, then text", "a2 41 61 61 78 61 61 61 79", func() any { return new(map[string]string) }, 5, nil},
			{"prefilled map: text sets it, then bytes", "a2 61 61 01 41 61 02", prefilled, 4, nil},
			{"map[string]int: distinct keys", "a2 61 61 01 41 62 02", strMap, -1, map[string]int{"a": 1, "b": 2}},
		})
	})
	t.Run("EnforcedAPF, expected later encoding into any", func(t *testing.T) {
		dm, _ := DecOptions{DupMapKey: DupMapKeyEnforcedAPF, ByteStringToString: ByteStringToStringAllowedWithExpectedLaterEncoding}.DecMode()
		pm, _ := fx.DecOptions{DupMapKey: fx.DupMapKeyEnforcedAPF, ByteStringToString: fx.ByteStringToStringAllowedWithExpectedLaterEncoding}.DecMode()
		runDupRows(t, dm, pm, []dupRow{
			{"map[any]any: 21(\"a\") then \"a\"", "a2 d5 61 61 01 61 61 02", func() any { return new(any) }, 5, nil},
			{"map[any]any nested: 21(\"a\") then \"a\"", "81 a2 d5 61 61 01 61 61 02", func() any { return new(any) }, 6, nil},
			{"map[any]any: distinct", "a2 d5 61 61 01 61 62 02", func() any { return new(any) }, -1, map[any]any{"a": uint64(1), "b": uint64(2)}},
		})
	})
	t.Run("Quiet", func(t *testing.T) {
		dm, _ := DecOptions{ByteStringToString: ByteStringToStringAllowed, FieldNameByteString: FieldNameByteStringAllowed}.DecMode()
		pm, _ := fx.DecOptions{ByteStringToString: fx.ByteStringToStringAllowed, FieldNameByteString: fx.FieldNameByteStringAllowed}.DecMode()
		runDupRows(t, dm, pm, []dupRow{
			{"struct: the first value of a field stays", "a2 61 61 01 61 61 02", st, -1, fieldStruct{A: 1}},
			{"struct: a case variant after it is passed over", "a3 61 61 01 61 41 02 62 6263 03", st, -1, fieldStruct{A: 1, Bc: 3}},
			{"struct: a byte string name after it is passed over", "a2 61 61 01 41 61 02", st, -1, fieldStruct{A: 1}},
			{"struct: keyasint twice", "a2 07 01 07 02", st, -1, fieldStruct{K: 1}},
			{"map: the last value stays", "a2 61 61 01 41 61 02", strMap, -1, map[string]int{"a": 2}},
		})
	})
}

// A struct of more than 64 fields tracks its fields in a slice.
type wideStruct struct {
	F00, F01, F02, F03, F04, F05, F06, F07, F08, F09 int
	F10, F11, F12, F13, F14, F15, F16, F17, F18, F19 int
	F20, F21, F22, F23, F24, F25, F26, F27, F28, F29 int
	F30, F31, F32, F33, F34, F35, F36, F37, F38, F39 int
	F40, F41, F42, F43, F44, F45, F46, F47, F48, F49 int
	F50, F51, F52, F53, F54, F55, F56, F57, F58, F59 int
	F60, F61, F62, F63, F64, F65, F66, F67, F68, F69 int
}

func TestDuplicateKeysWideStruct(t *testing.T) {
	dm, _ := DecOptions{DupMapKey: DupMapKeyEnforcedAPF}.DecMode()
	pm, _ := fx.DecOptions{DupMapKey: fx.DupMapKeyEnforcedAPF}.DecMode()
	into := func() any { return new(wideStruct) }
	runDupRows(t, dm, pm, []dupRow{
		{"field 69 by a case variant", "a2 63 463639 01 63 663639 02", into, 6, nil},
		{"field 0 and field 69", "a2 63 463030 01 63 463639 02", into, -1, wideStruct{F00: 1, F69: 2}},
	})
	quiet, _ := DecOptions{}.DecMode()
	var w wideStruct
	if err := quiet.Unmarshal(unhex(t, "a2 63 463639 01 63 663639 02"), &w); err != nil || w.F69 != 1 {
		t.Errorf("quiet, wide: %d %v", w.F69, err)
	}
}
