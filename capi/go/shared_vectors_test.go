package cborfast

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The shared test vectors (tests/vectors/*.json) through the public API:
// Decode of every RFC 8949 Appendix A row (its JSON value where the file
// gives one, Encode back to the same bytes where the row is preferred), the
// code and offset of every not-well-formed row, and every strict row with its
// checks on. Status names in the files are the C enumerators; their numbers
// come from cbor_fast.h itself.

func sharedVectors(t *testing.T, name string, out any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "tests", "vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber() // integers up to 2^64 - 1 and down to -2^64, exactly
	if err := d.Decode(out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func headerCodes(t *testing.T) map[string]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "include", "cbor_fast.h"))
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	for _, m := range regexp.MustCompile(`\b(CBOR_FAST_\w+) = (\d+)`).FindAllStringSubmatch(string(data), -1) {
		n, _ := strconv.Atoi(m[2])
		codes[m[1]] = n
	}
	if codes["CBOR_FAST_ERR_TRUNCATED"] != 100 {
		t.Fatalf("cbor_fast.h: CBOR_FAST_ERR_TRUNCATED not found as 100")
	}
	return codes
}

// canonical is a strictly comparable text for a decoded value or a JSON value:
// integers in decimal, floats by their bits (so -0.0 differs from 0.0 and 1
// from 1.0), maps with their keys sorted.
func canonical(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case uint64:
		return "i" + strconv.FormatUint(x, 10)
	case int64:
		return "i" + strconv.FormatInt(x, 10)
	case *big.Int:
		return "i" + x.String()
	case float64:
		return fmt.Sprintf("f%016x", math.Float64bits(x))
	case json.Number:
		s := x.String()
		if strings.ContainsAny(s, ".eE") {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return "bad number " + s
			}
			return canonical(f)
		}
		return "i" + s
	case string:
		return strconv.Quote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = canonical(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case Map:
		parts := make([]string, len(x))
		for i, p := range x {
			parts[i] = canonical(p.Key) + ":" + canonical(p.Value)
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ",") + "}"
	case map[string]any:
		parts := make([]string, 0, len(x))
		for k, e := range x {
			parts = append(parts, strconv.Quote(k)+":"+canonical(e))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("%T(%v)", v, v)
}

func TestSharedAppendixA(t *testing.T) {
	var rows []struct {
		Name      string
		Hex       string
		Diag      string
		Roundtrip bool
		Decoded   json.RawMessage // absent when JSON cannot hold the value
	}
	sharedVectors(t, "appendix_a.json", &rows)
	if len(rows) < 80 {
		t.Fatalf("appendix_a.json: %d rows", len(rows))
	}
	for _, r := range rows {
		t.Run(r.Name, func(t *testing.T) {
			in, _ := hex.DecodeString(r.Hex)
			v, err := DecodeOptions{ValidateUTF8: true}.Decode(in)
			if err != nil {
				t.Fatalf("Decode(%s): %v", r.Hex, err)
			}
			if len(r.Decoded) != 0 {
				var want any
				d := json.NewDecoder(bytes.NewReader(r.Decoded))
				d.UseNumber()
				if err := d.Decode(&want); err != nil {
					t.Fatal(err)
				}
				if got, want := canonical(v), canonical(want); got != want {
					t.Errorf("Decode(%s) = %s, want %s", r.Hex, got, want)
				}
			}
			if r.Roundtrip {
				out, err := Encode(v)
				if err != nil || hex.EncodeToString(out) != r.Hex {
					t.Errorf("Encode(Decode(%s)) = %x, %v", r.Hex, out, err)
				}
			}
		})
	}
}

type sharedError struct {
	Name   string
	Hex    string
	Checks []string
	Status string
	Offset int
}

func checkSharedError(t *testing.T, codes map[string]int, r sharedError, err error) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("%s: got %v, want an *Error %s", r.Hex, err, r.Status)
	}
	if want, ok := codes[r.Status]; !ok || e.Code != want || e.Offset != r.Offset {
		t.Errorf("%s: got code %d offset %d, want %s (%d) offset %d", r.Hex, e.Code, e.Offset,
			r.Status, want, r.Offset)
	}
}

func TestSharedMalformed(t *testing.T) {
	codes := headerCodes(t)
	var rows []sharedError
	sharedVectors(t, "malformed.json", &rows)
	if len(rows) < 90 {
		t.Fatalf("malformed.json: %d rows", len(rows))
	}
	for _, r := range rows {
		t.Run(r.Name, func(t *testing.T) {
			in, _ := hex.DecodeString(r.Hex)
			_, err := Decode(in)
			checkSharedError(t, codes, r, err)
		})
	}
}

func TestSharedStrict(t *testing.T) {
	codes := headerCodes(t)
	var rows []sharedError
	sharedVectors(t, "strict.json", &rows)
	if len(rows) < 100 {
		t.Fatalf("strict.json: %d rows", len(rows))
	}
	for _, r := range rows {
		t.Run(r.Name, func(t *testing.T) {
			in, _ := hex.DecodeString(r.Hex)
			var o DecodeOptions
			for _, c := range r.Checks {
				switch c {
				case "utf8":
					o.ValidateUTF8 = true
				case "duplicate_keys":
					o.RejectDuplicateKeys = true
				case "deterministic":
					o.Deterministic = true
				default:
					t.Fatalf("unknown check %q", c)
				}
			}
			_, err := o.Decode(in)
			if r.Status == "CBOR_FAST_OK" {
				if err != nil {
					t.Errorf("%s: %v", r.Hex, err)
				}
			} else {
				checkSharedError(t, codes, r, err)
			}
			if _, err := Decode(in); err != nil {
				t.Errorf("%s without checks: %v", r.Hex, err)
			}
		})
	}
}

// max_items bounds each top-level item of a sequence: one Reader (item by
// item, and by Skip) and one Sequence over the whole input stop at the same
// head.
func TestSharedItemBudget(t *testing.T) {
	codes := headerCodes(t)
	var rows []struct {
		Name     string
		Hex      string
		MaxItems uint64 `json:"max_items"`
		Status   string
		Offset   int
	}
	sharedVectors(t, "item_budget.json", &rows)
	if len(rows) < 15 {
		t.Fatalf("item_budget.json: %d rows", len(rows))
	}
	for _, r := range rows {
		t.Run(r.Name, func(t *testing.T) {
			in, _ := hex.DecodeString(r.Hex)
			want := sharedError{Name: r.Name, Hex: r.Hex, Status: r.Status, Offset: r.Offset}
			check := func(how string, err error) {
				t.Helper()
				if r.Status == "CBOR_FAST_OK" {
					if err != io.EOF {
						t.Errorf("%s: got %v, want io.EOF", how, err)
					}
					return
				}
				checkSharedError(t, codes, want, err)
			}
			for _, skip := range []bool{false, true} {
				rd := NewReader(in)
				if err := rd.SetMaxItems(r.MaxItems); err != nil {
					t.Fatal(err)
				}
				var err error
				for err == nil {
					if skip {
						err = rd.Skip()
					} else {
						_, err = rd.Next()
					}
				}
				rd.Close()
				check(map[bool]string{false: "Reader.Next", true: "Reader.Skip"}[skip], err)
			}
			seq := DecodeOptions{MaxItems: r.MaxItems}.NewSequence(in)
			var err error
			for err == nil {
				_, err = seq.Next()
			}
			seq.Close()
			check("Sequence", err)
		})
	}
}
