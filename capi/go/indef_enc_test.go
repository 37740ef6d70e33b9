package cborfast

import (
	"bytes"
	"errors"
	"testing"

	fx "github.com/fxamacker/cbor/v2"
)

// encStep is one call on an Encoder: start (one of "bytes", "text",
// "array", "map"), end, or a value to encode.
type encStep struct {
	start string
	end   bool
	value any
}

// indefEncoder is what this package's Encoder and fxamacker's have alike,
// so one runner drives both with the same steps.
type indefEncoder interface {
	Encode(v any) error
	StartIndefiniteByteString() error
	StartIndefiniteTextString() error
	StartIndefiniteArray() error
	StartIndefiniteMap() error
	EndIndefinite() error
}

func runSteps(enc indefEncoder, steps []encStep) error {
	for _, s := range steps {
		var err error
		switch {
		case s.end:
			err = enc.EndIndefinite()
		case s.start == "bytes":
			err = enc.StartIndefiniteByteString()
		case s.start == "text":
			err = enc.StartIndefiniteTextString()
		case s.start == "array":
			err = enc.StartIndefiniteArray()
		case s.start == "map":
			err = enc.StartIndefiniteMap()
		default:
			err = enc.Encode(s.value)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

var _ indefEncoder = (*Encoder)(nil)
var _ indefEncoder = (*fx.Encoder)(nil)

var (
	stArray = encStep{start: "array"}
	stMap   = encStep{start: "map"}
	stBytes = encStep{start: "bytes"}
	stText  = encStep{start: "text"}
	stEnd   = encStep{end: true}
)

func val(v any) encStep { return encStep{value: v} }

func TestEncoderIndefinite(t *testing.T) {
	byteStrings, _ := EncOptions{String: StringToByteString}.EncMode()
	fxByteStrings, _ := fx.EncOptions{String: fx.StringToByteString}.EncMode()
	for _, c := range []struct {
		name    string
		bytesSt bool // StringToByteString
		steps   []encStep
		want    string
	}{
		{"empty array", false, []encStep{stArray, stEnd}, "9f ff"},
		{"array", false, []encStep{stArray, val(1), val("a"), val([]int{2}), stEnd}, "9f 01 61 61 81 02 ff"},
		{"map", false, []encStep{stMap, val("a"), val(1), val(2), val(nil), stEnd}, "bf 61 61 01 02 f6 ff"},
		{"byte string in chunks", false, []encStep{stBytes, val([]byte{1}), val([]byte{2, 3}), val([]byte{}), stEnd}, "5f 41 01 42 0203 40 ff"},
		{"text string in chunks", false, []encStep{stText, val("ab"), val("c"), stEnd}, "7f 62 6162 61 63 ff"},
		{"empty text string", false, []encStep{stText, stEnd}, "7f ff"},
		{"array in a map counts as one value", false, []encStep{stMap, val("a"), stArray, val(1), stEnd, stEnd}, "bf 61 61 9f 01 ff ff"},
		{"indefinite string as a map key", false, []encStep{stMap, stText, val("k"), stEnd, val(0), stEnd}, "bf 7f 61 6b ff 00 ff"},
		{"items before and after", false, []encStep{val(1), stArray, stEnd, val(2)}, "01 9f ff 02"},
		{"StringToByteString: strings are byte string chunks", true, []encStep{stBytes, val("ab"), stEnd}, "5f 42 6162 ff"},
	} {
		var buf, pbuf bytes.Buffer
		enc, penc := NewEncoder(&buf), fx.NewEncoder(&pbuf)
		if c.bytesSt {
			enc, penc = byteStrings.NewEncoder(&buf), fxByteStrings.NewEncoder(&pbuf)
		}
		if err := runSteps(enc, c.steps); err != nil || !bytes.Equal(buf.Bytes(), unhex(t, c.want)) {
			t.Errorf("%s: %x (%v), want %s", c.name, buf.Bytes(), err, c.want)
		}
		if err := runSteps(penc, c.steps); err != nil || !bytes.Equal(pbuf.Bytes(), buf.Bytes()) {
			t.Errorf("%s: fxamacker writes %x (%v)", c.name, pbuf.Bytes(), err)
		}
	}
	// Refusals: the error, its offset (bytes written so far), nothing
	// written by the refused call, and fxamacker refusing too.
	forbid, _ := EncOptions{IndefLength: IndefLengthForbidden}.EncMode()
	fxForbid, _ := fx.EncOptions{IndefLength: fx.IndefLengthForbidden}.EncMode()
	for _, c := range []struct {
		name    string
		forbid  bool
		steps   []encStep
		failing encStep
		code    int
		off     int
	}{
		{"break with nothing open", false, nil, stEnd, CodeWriterNoContainer, 0},
		{"break after the array was closed", false, []encStep{stArray, stEnd}, stEnd, CodeWriterNoContainer, 2},
		{"map with a key and no value", false, []encStep{stMap, val("a")}, stEnd, CodeWriterOddMap, 3},
		{"text chunk in a byte string", false, []encStep{stBytes}, val("a"), CodeWriterBadChunk, 1},
		{"byte chunk in a text string", false, []encStep{stText, val("a")}, val([]byte{1}), CodeWriterBadChunk, 3},
		{"nil in a byte string", false, []encStep{stBytes}, val(nil), CodeWriterBadChunk, 1},
		{"integer in a text string", false, []encStep{stText}, val(1), CodeWriterBadChunk, 1},
		{"array in a byte string", false, []encStep{stBytes}, stArray, CodeWriterBadChunk, 1},
		{"indefinite text in a text string", false, []encStep{stText}, stText, CodeWriterBadChunk, 1},
		{"IndefLengthForbidden: array", true, nil, stArray, CodeIndefiniteLength, 0},
		{"IndefLengthForbidden: map after an item", true, []encStep{val(1)}, stMap, CodeIndefiniteLength, 1},
		{"IndefLengthForbidden: byte string", true, []encStep{val("ab")}, stBytes, CodeIndefiniteLength, 3},
		{"IndefLengthForbidden: text string", true, nil, stText, CodeIndefiniteLength, 0},
	} {
		var buf, pbuf bytes.Buffer
		enc, penc := NewEncoder(&buf), fx.NewEncoder(&pbuf)
		if c.forbid {
			enc, penc = forbid.NewEncoder(&buf), fxForbid.NewEncoder(&pbuf)
		}
		if err := runSteps(enc, c.steps); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		before := buf.Len()
		err := runSteps(enc, []encStep{c.failing})
		var e *Error
		if !errors.As(err, &e) || e.Code != c.code || e.Offset != c.off || buf.Len() != before {
			t.Errorf("%s: %v (%d bytes written, %d before)", c.name, err, buf.Len(), before)
		}
		if runSteps(penc, c.steps) != nil || runSteps(penc, []encStep{c.failing}) == nil {
			t.Errorf("%s: fxamacker does not refuse it", c.name)
		}
	}
	// The odd map stays open: the value, then the break.
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	if err := runSteps(enc, []encStep{stMap, val("a")}); err != nil {
		t.Fatal(err)
	}
	if err := enc.EndIndefinite(); err == nil {
		t.Fatal("odd map closed")
	}
	if err := runSteps(enc, []encStep{val(1), stEnd}); err != nil || !bytes.Equal(buf.Bytes(), unhex(t, "bf 61 61 01 ff")) {
		t.Errorf("after the odd-map refusal: %x %v", buf.Bytes(), err)
	}
}

type indefPoint struct {
	_ struct{} `cbor:",toindefarray"`
	X int
	S string
}

type indefHolder struct {
	P indefPoint `cbor:"p"`
}

type badMarshaler struct{ out []byte }

func (m badMarshaler) MarshalCBOR() ([]byte, error) { return m.out, nil }

func TestEncIndefLengthAndToIndefArray(t *testing.T) {
	allowed, err := EncOptions{ToIndefArrayStructTag: ToIndefArrayStructTagAllowed}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	fxAllowed, _ := fx.EncOptions{ToIndefArrayStructTag: fx.ToIndefArrayStructTagAllowed}.EncMode()
	runEncRows(t, allowed, fxAllowed, []encRow{
		{"toindefarray struct", indefPoint{X: 1, S: "b"}, nil, "9f 01 61 62 ff"},
		{"as a field", indefHolder{P: indefPoint{X: -1}}, nil, "a1 61 70 9f 20 60 ff"},
		{"in a slice", []indefPoint{{}, {X: 2}}, nil, "82 9f 00 60 ff 9f 02 60 ff"},
	})
	// The default, ToIndefArrayStructTagForbidden: an error in both.
	if _, err := Marshal(indefPoint{}); err == nil {
		t.Error("toindefarray encoded under ToIndefArrayStructTagForbidden")
	}
	if _, err := fx.Marshal(indefPoint{}); err == nil {
		t.Error("fxamacker encodes toindefarray under ToIndefArrayStructTagForbidden")
	}
	// Conflicting options are refused by both.
	if _, err := (EncOptions{IndefLength: IndefLengthForbidden, ToIndefArrayStructTag: ToIndefArrayStructTagAllowed}).EncMode(); err == nil {
		t.Error("ToIndefArrayStructTagAllowed with IndefLengthForbidden accepted")
	}
	if _, err := (fx.EncOptions{IndefLength: fx.IndefLengthForbidden, ToIndefArrayStructTag: fx.ToIndefArrayStructTagAllowed}).EncMode(); err == nil {
		t.Error("fxamacker accepts the conflict")
	}
	for _, o := range []EncOptions{{IndefLength: 2}, {ToIndefArrayStructTag: 2}, {IndefLength: -1}} {
		if _, err := o.EncMode(); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	// Decoding: a toindefarray struct reads indefinite and definite arrays
	// (as fxamacker's).
	for _, in := range []string{"9f 01 61 62 ff", "82 01 61 62"} {
		var p indefPoint
		var q indefPoint
		if err := Unmarshal(unhex(t, in), &p); err != nil || p.X != 1 || p.S != "b" {
			t.Errorf("%s: %+v %v", in, p, err)
		}
		if err := fx.Unmarshal(unhex(t, in), &q); err != nil || q != p {
			t.Errorf("%s: fxamacker %+v %v", in, q, err)
		}
	}

	// IndefLengthForbidden: MarshalCBOR and RawMessage outputs are read by
	// the library; an indefinite item fails at its offset in the output.
	forbid, _ := EncOptions{IndefLength: IndefLengthForbidden}.EncMode()
	fxForbid, _ := fx.EncOptions{IndefLength: fx.IndefLengthForbidden}.EncMode()
	for _, c := range []struct {
		name string
		v    any
		code int // 0: accepted, written as it is
		off  int
		want string
	}{
		{"definite raw array", RawMessage{0x82, 0x01, 0x02}, 0, 0, "82 01 02"},
		{"indefinite raw array", RawMessage{0x9f, 0xff}, CodeIndefiniteLength, 0, ""},
		{"indefinite raw string after two bytes", []any{1, RawMessage{0x5f, 0xff}}, CodeIndefiniteLength, 2, ""},
		{"indefinite map nested in a definite one", []any{badMarshaler{unhex(t, "a1 01 bf ff")}}, CodeIndefiniteLength, 3, ""},
		{"marshaler in a struct field", indefHolder2{M: badMarshaler{unhex(t, "7f ff")}}, CodeIndefiniteLength, 3, ""},
		{"malformed output", []any{RawMessage{0x18}}, CodeTruncated, 1, ""},
	} {
		b, err := forbid.Marshal(c.v)
		var e *Error
		if c.code == 0 {
			if err != nil || !bytes.Equal(b, unhex(t, c.want)) {
				t.Errorf("%s: %x %v", c.name, b, err)
			}
		} else if !errors.As(err, &e) || e.Code != c.code || e.Offset != c.off {
			t.Errorf("%s: %v, want code %d at %d", c.name, err, c.code, c.off)
		}
		if _, perr := fxForbid.Marshal(c.v); (perr == nil) != (c.code == 0) {
			t.Errorf("%s: fxamacker: %v", c.name, perr)
		}
		// IndefLengthAllowed (the default) writes them as they are.
		if c.code == CodeIndefiniteLength {
			if _, err := Marshal(c.v); err != nil {
				t.Errorf("%s, allowed: %v", c.name, err)
			}
		}
	}
	// The presets forbid indefinite lengths, as fxamacker's do.
	for _, c := range []struct {
		name  string
		ours  EncOptions
		peers fx.EncOptions
	}{
		{"CoreDet", CoreDetEncOptions(), fx.CoreDetEncOptions()},
		{"Canonical", CanonicalEncOptions(), fx.CanonicalEncOptions()},
		{"CTAP2", CTAP2EncOptions(), fx.CTAP2EncOptions()},
		{"PreferredUnsorted", PreferredUnsortedEncOptions(), fx.PreferredUnsortedEncOptions()},
	} {
		if (c.ours.IndefLength == IndefLengthForbidden) != (c.peers.IndefLength == fx.IndefLengthForbidden) {
			t.Errorf("%s: IndefLength %d, fxamacker %d", c.name, c.ours.IndefLength, c.peers.IndefLength)
		}
	}
}

type indefHolder2 struct {
	M badMarshaler `cbor:"m"`
}

// Under the default options too, a MarshalCBOR or RawMessage output must be
// exactly one well-formed item: written as it is, anything else would make
// the output say something else (as fxamacker, which refuses them all).
func TestMarshalerOutputIsOneWellFormedItem(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		code int // 0: accepted, written as it is
		off  int // in the output
		want string
	}{
		{"one item", map[string]any{"x": badMarshaler{unhex(t, "82 01 02")}}, 0, 0, "a1 61 78 82 01 02"},
		{"indefinite is fine by default", []any{RawMessage{0x9f, 0x01, 0xff}}, 0, 0, "81 9f 01 ff"},
		{"nil RawMessage is null", []any{RawMessage(nil)}, 0, 0, "81 f6"},
		{"cut array", map[string]any{"x": badMarshaler{unhex(t, "82 01")}}, CodeTruncated, 3, ""},
		{"empty output", []any{1, badMarshaler{[]byte{}}}, CodeTruncated, 2, ""},
		{"two items", []any{badMarshaler{unhex(t, "01 02")}}, CodeTrailingBytes, 2, ""},
		{"two raw items", []any{RawMessage{0x01, 0x02}}, CodeTrailingBytes, 2, ""},
		{"a lone break", []any{badMarshaler{[]byte{0xff}}}, CodeUnexpectedBreak, 1, ""},
		{"reserved additional info", []any{badMarshaler{[]byte{0x1c}}}, CodeReservedAI, 1, ""},
	} {
		b, err := Marshal(c.v)
		var e *Error
		if c.code == 0 {
			if err != nil || !bytes.Equal(b, unhex(t, c.want)) {
				t.Errorf("%s: %x %v", c.name, b, err)
			}
			if fb, ferr := fx.Marshal(c.v); ferr != nil || !bytes.Equal(fb, b) {
				t.Errorf("%s: fxamacker %x %v", c.name, fb, ferr)
			}
			continue
		}
		if !errors.As(err, &e) || e.Code != c.code || e.Offset != c.off {
			t.Errorf("%s: %x %v, want code %d at %d", c.name, b, err, c.code, c.off)
		}
		if _, ferr := fx.Marshal(c.v); ferr == nil {
			t.Errorf("%s: fxamacker accepts it", c.name)
		}
	}
}
