package cborfast

import (
	"bytes"
	"errors"
	"io"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

// An `any` target is built with no first pass and stopped at its first type
// error (a map key Go cannot hash, a bignum over something else than bytes):
// that error hid malformed input, limits, forbidden tags and trailing bytes
// after it, which fxamacker (and every other target here) reports instead.
// A helper's probe found these rows; each gave the type error before.
func TestAnyTargetReportsMalformedInputBeforeATypeError(t *testing.T) {
	noTags, err := DecOptions{TagsMd: TagsForbidden}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	fxNoTags, err := fx.DecOptions{TagsMd: fx.TagsForbidden}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	def, _ := DecOptions{}.DecMode()
	fxDef, _ := fx.DecOptions{}.DecMode()
	rows := []struct {
		name   string
		in     string
		noTags bool
		code   int // 0: an *UnmarshalTypeError
		at     int
	}{
		{"a tag after an array key", "82 a1 80 01 c1 00", true, CodeTypeMismatch, 4},
		{"truncated after an array key", "82 a1 80 01", false, CodeTruncated, 0},
		{"a stray break after an array key", "82 a1 80 01 ff", false, CodeUnexpectedBreak, 4},
		{"a reserved byte after an array key", "82 a1 80 01 1c", false, CodeReservedAI, 4},
		{"an array past the limit after an array key", "82 a1 80 01 9b 0000000100000000", false, CodeContainerTooLarge, 4},
		{"a byte after a bignum over a map", "c2 e4 21", false, CodeTrailingBytes, 2},
		{"a byte after tag 1 over text", "c1 61 61 00", false, CodeTrailingBytes, 3},
		{"only the type error", "a2 80 01 61 61 02", false, 0, 1},
	}
	for _, r := range rows {
		in := unhex(t, r.in)
		dm, peer := def, fxDef
		if r.noTags {
			dm, peer = noTags, fxNoTags
		}
		var v any = "untouched"
		var pv any
		werr := peer.Unmarshal(in, &pv)
		got := []error{dm.Unmarshal(in, &v)}
		if r.code != CodeTrailingBytes {
			// (A Decoder reads a sequence: the byte after is the next item.)
			got = append(got, dm.NewDecoder(bytes.NewReader(in)).Decode(&v))
		}
		for _, got := range got {
			if r.code == 0 {
				var te *UnmarshalTypeError
				if !errors.As(got, &te) || te.Offset != r.at {
					t.Errorf("%s: %T %v, want an UnmarshalTypeError at %d", r.name, got, got, r.at)
				}
				continue
			}
			// (The Decoder reads a stream: a truncated item is an unexpected EOF.)
			if r.code == CodeTruncated && errors.Is(got, io.ErrUnexpectedEOF) {
				continue
			}
			e, ok := got.(*Error)
			if !ok || e.Code != r.code || e.Offset != r.at {
				t.Errorf("%s: %T %v, want code %d at %d", r.name, got, got, r.code, r.at)
			}
		}
		if v != "untouched" {
			t.Errorf("%s: stored %v", r.name, v)
		}
		if werr == nil {
			t.Errorf("%s: fxamacker accepted it", r.name)
		}
	}
	// The pass runs only after a failure: a good value is built in one.
	var v any
	if err := Unmarshal(unhex(t, "a2 6161 01 6162 82 02 03"), &v); err != nil {
		t.Fatal(err)
	}
	if m := v.(map[any]any); m["a"] != uint64(1) || len(m["b"].([]any)) != 2 {
		t.Errorf("decoded %v", v)
	}
}
