package cborfast

/*
#include "route.h"
*/
import "C"

import (
	"fmt"
	"io"
	"reflect"
)

// DupMapKeyMode says what Unmarshal does with a map key equal to an earlier
// one of the same map.
type DupMapKeyMode int

const (
	// DupMapKeyQuiet (the default): a Go map keeps the last value, a
	// struct field the first one (later keys naming it, a case variant or
	// a byte string name included, are passed over), as in fxamacker.
	DupMapKeyQuiet DupMapKeyMode = iota
	// DupMapKeyEnforcedAPF fails with ErrDuplicateKey at the second key:
	// keys equal as CBOR values (checked by the library, in linear time),
	// and, as fxamacker, keys naming a struct field already set, and keys
	// equal once decoded as Go values (map keys such as "a" and h'61' with
	// ByteStringToString, 1 and 1.0 into a float map).
	DupMapKeyEnforcedAPF
)

// IndefLengthMode says whether indefinite-length items are accepted.
type IndefLengthMode int

const (
	IndefLengthAllowed IndefLengthMode = iota
	IndefLengthForbidden
)

// UTF8Mode says whether text strings must be valid UTF-8.
type UTF8Mode int

const (
	// UTF8RejectInvalid fails with ErrInvalidUTF8 (the default, as in
	// fxamacker/cbor).
	UTF8RejectInvalid UTF8Mode = iota
	// UTF8DecodeInvalid accepts any bytes.
	UTF8DecodeInvalid
)

// ByteStringToStringMode says whether a byte string decodes into a Go string
// (fxamacker/cbor's values).
type ByteStringToStringMode int

const (
	// ByteStringToStringForbidden: a byte string into a string is an
	// *UnmarshalTypeError (the default).
	ByteStringToStringForbidden ByteStringToStringMode = iota
	// ByteStringToStringAllowed: the string gets the bytes as they are.
	ByteStringToStringAllowed
	// ByteStringToStringAllowedWithExpectedLaterEncoding: as Allowed, and a
	// byte string enclosed (at any depth) by tag 21, 22 or 23 (RFC 8949
	// section 3.4.5.2) becomes its base64url (unpadded), base64 (padded) or
	// base16 text, by the nearest such tag. In this mode tags 21-23 decode
	// into an `any` as their content, not as a Tag.
	ByteStringToStringAllowedWithExpectedLaterEncoding
)

// FieldNameByteStringMode says whether a byte string map key may name a
// struct field (fxamacker/cbor's values).
type FieldNameByteStringMode int

const (
	// FieldNameByteStringForbidden: a byte string key in a map decoded into
	// a struct is an *UnmarshalTypeError (its value is passed over; the
	// default).
	FieldNameByteStringForbidden FieldNameByteStringMode = iota
	// FieldNameByteStringAllowed: a byte string key matches fields as a
	// text key with the same bytes does.
	FieldNameByteStringAllowed
)

// DecOptions are Unmarshal's options, named as fxamacker/cbor names them.
// The zero value gives fxamacker's defaults.
type DecOptions struct {
	DupMapKey DupMapKeyMode
	// MaxNestedLevels is the most nested arrays, maps and tags (default 32,
	// at most MaxNestedLevelsLimit, 65535, as fxamacker). Checked by the
	// library on every item, skipped ones included. Unlike fxamacker, every tag and every indefinite-length
	// string counts as a level (fxamacker counts neither the first tag of
	// a chain nor indefinite strings).
	MaxNestedLevels int
	// MaxArrayElements is the most items of one array (default 131072),
	// checked on every array, skipped and indefinite ones included: a
	// definite head declaring more fails with ErrContainerTooLarge at the
	// head, an indefinite array at the element past the limit.
	MaxArrayElements int
	// MaxMapPairs is the most pairs of one map (default 131072), likewise;
	// an indefinite map fails at the key of the pair past the limit.
	MaxMapPairs int
	IndefLength IndefLengthMode
	UTF8        UTF8Mode
	// MaxStringLength is the most bytes of one string (0: no limit).
	MaxStringLength uint64
	// MaxItems is the most data items of one top-level item (0:
	// DefaultMaxItems, 2^28; math.MaxUint64: no limit).
	MaxItems uint64
	// Deterministic requires RFC 8949 core deterministic encoding.
	Deterministic bool
	// MaxStreamBuffer is the most bytes a Decoder buffers (0:
	// DefaultMaxStreamBuffer, 64 MiB, the C stream's default max_buffer).
	// An item that cannot be completed within it fails with
	// ErrMemoryBudget at the item's offset; the input ending first is
	// io.ErrUnexpectedEOF as usual. An extension: fxamacker/cbor's Decoder
	// has no such bound.
	MaxStreamBuffer int
	// DefaultMapType is the map type a CBOR map decodes to inside an `any`
	// (nil: map[any]any), as fxamacker/cbor's; the map is decoded as that
	// type, so keys and values must fit it.
	DefaultMapType reflect.Type
	// DefaultByteStringType is the type a byte string decodes to inside an
	// `any` (nil: []byte): a string or []byte kind, as fxamacker/cbor's.
	DefaultByteStringType reflect.Type
	// ByteStringToString: whether a byte string decodes into a string.
	ByteStringToString ByteStringToStringMode
	// FieldNameByteString: whether a byte string key names struct fields.
	FieldNameByteString FieldNameByteStringMode
	// TagsMd: with TagsForbidden any tag in the input is an error (Code
	// CodeTypeMismatch at the tag's offset), found in the well-formedness
	// pass before anything is stored, as fxamacker's TagsMdError; a mode
	// with a TagSet (DecModeWithTags) cannot forbid tags.
	TagsMd TagsMode
	// BinaryUnmarshaler: by default a byte string decoded into a type whose
	// pointer implements encoding.BinaryUnmarshaler is given to
	// UnmarshalBinary (a copy of its content), as fxamacker; any other item
	// decodes into the type itself. BinaryUnmarshalerNone ignores the
	// interface. UnmarshalCBOR and time.Time come first.
	BinaryUnmarshaler BinaryUnmarshalerMode
}

// MaxNestedLevelsLimit is the largest DecOptions.MaxNestedLevels
// (fxamacker's). Decoding into `any` keeps its stack on the heap, but the
// typed decoders (recursive struct, slice and map types, DefaultMapType)
// recurse once per level: 65535 levels take up to 128 MiB of goroutine
// stack (a map type under DefaultMapType; 32 MiB for a struct or a slice),
// and about a million reach Go's 1 GB limit, a fatal error that recover()
// does not catch (a 4 MB input did that when any depth up to 2^32-1 was
// accepted).
const MaxNestedLevelsLimit = 65535

// DefaultMaxStreamBuffer is the Decoder's buffer bound when
// DecOptions.MaxStreamBuffer is 0.
const DefaultMaxStreamBuffer = 64 << 20

func (o DecOptions) maxArray() int {
	if o.MaxArrayElements <= 0 {
		return 131072
	}
	return o.MaxArrayElements
}

func (o DecOptions) maxMap() int {
	if o.MaxMapPairs <= 0 {
		return 131072
	}
	return o.MaxMapPairs
}

// DecMode is a validated set of DecOptions, safe for concurrent use.
type DecMode interface {
	Unmarshal(data []byte, v any) error
	UnmarshalFirst(data []byte, v any) (rest []byte, err error)
	NewDecoder(r io.Reader) *Decoder
	DecOptions() DecOptions
}

type decMode struct {
	opts  DecOptions
	copts C.cf_reader_opts
	// frameOpts: copts without the validity checks (UTF-8, duplicate
	// keys, deterministic encoding), for the Decoder's boundary finder: an
	// item that is well-formed but invalid is then found whole, its error
	// comes from decoding it, and the Decoder goes on after it (as
	// fxamacker's).
	frameOpts C.cf_reader_opts
	// framePlain: frameOpts' limits, for the Decoder's Go scan of small
	// items (plainItemEnd)
	framePlain plainLimits
	lim        *limits
	maxStream  int       // the Decoder's buffer bound
	tags       tagLookup // registered types (DecModeWithTags), or nil
}

// DecMode checks the options and returns a mode; on an error the mode is
// nil (an untyped nil interface, so that dm == nil holds).
func (o DecOptions) DecMode() (DecMode, error) {
	dm, err := o.decMode()
	if err != nil {
		return nil, err
	}
	return dm, nil
}

func (o DecOptions) decMode() (*decMode, error) {
	depth := o.MaxNestedLevels
	if depth == 0 {
		depth = 32
	}
	if depth < 1 || depth > MaxNestedLevelsLimit {
		return nil, fmt.Errorf("cborfast: invalid MaxNestedLevels %d", o.MaxNestedLevels)
	}
	if o.MaxArrayElements < 0 || o.MaxMapPairs < 0 {
		return nil, fmt.Errorf("cborfast: negative container limit")
	}
	if o.DefaultMapType != nil && o.DefaultMapType.Kind() != reflect.Map {
		return nil, fmt.Errorf("cborfast: DefaultMapType %v is not a map type", o.DefaultMapType)
	}
	if t := o.DefaultByteStringType; t != nil && t.Kind() != reflect.String &&
		(t.Kind() != reflect.Slice || t.Elem() != reflect.TypeFor[byte]()) {
		return nil, fmt.Errorf("cborfast: DefaultByteStringType %v is not of kind string or []uint8", t)
	}
	if o.MaxStreamBuffer < 0 {
		return nil, fmt.Errorf("cborfast: negative MaxStreamBuffer %d", o.MaxStreamBuffer)
	}
	if o.DupMapKey > DupMapKeyEnforcedAPF || o.DupMapKey < 0 || o.IndefLength > IndefLengthForbidden || o.IndefLength < 0 ||
		o.UTF8 > UTF8DecodeInvalid || o.UTF8 < 0 {
		return nil, fmt.Errorf("cborfast: invalid DecOptions mode")
	}
	if o.ByteStringToString < 0 || o.ByteStringToString > ByteStringToStringAllowedWithExpectedLaterEncoding {
		return nil, fmt.Errorf("cborfast: invalid ByteStringToString %d", o.ByteStringToString)
	}
	if o.FieldNameByteString < 0 || o.FieldNameByteString > FieldNameByteStringAllowed {
		return nil, fmt.Errorf("cborfast: invalid FieldNameByteString %d", o.FieldNameByteString)
	}
	if o.BinaryUnmarshaler < 0 || o.BinaryUnmarshaler > BinaryUnmarshalerNone {
		return nil, fmt.Errorf("cborfast: invalid BinaryUnmarshaler %d", o.BinaryUnmarshaler)
	}
	if o.TagsMd < TagsAllowed || o.TagsMd > TagsForbidden {
		return nil, fmt.Errorf("cborfast: invalid TagsMd %d", o.TagsMd)
	}
	dm := &decMode{opts: o, maxStream: o.MaxStreamBuffer}
	if dm.maxStream == 0 {
		dm.maxStream = DefaultMaxStreamBuffer
	}
	dm.copts = defaultReaderOpts
	dm.copts.max_depth = C.uint64_t(depth)
	if o.UTF8 == UTF8RejectInvalid {
		dm.copts.validate_utf8 = 1
	}
	if o.DupMapKey == DupMapKeyEnforcedAPF {
		dm.copts.reject_duplicate_keys = 1
	}
	if o.Deterministic {
		dm.copts.deterministic = 1
	}
	if o.MaxStringLength != 0 {
		dm.copts.max_string_length = C.uint64_t(o.MaxStringLength)
	}
	if o.MaxItems != 0 {
		dm.copts.max_items = C.uint64_t(o.MaxItems)
	}
	// The library's one container limit is the larger of the two, checked
	// on every item; the smaller one is checked on every item as the
	// batches arrive (tokens.limitSmaller), skipped values included.
	dm.copts.max_container_items = C.uint64_t(max(o.maxArray(), o.maxMap()))
	dm.frameOpts = dm.copts
	dm.frameOpts.validate_utf8, dm.frameOpts.reject_duplicate_keys, dm.frameOpts.deterministic = 0, 0, 0
	dm.framePlain = plainLimits{uint64(dm.frameOpts.max_depth), uint64(dm.frameOpts.max_string_length),
		uint64(dm.frameOpts.max_container_items), uint64(dm.frameOpts.max_items)}
	dm.lim = &limits{maxArray: uint64(o.maxArray()), maxMap: uint64(o.maxMap()),
		defMap: o.DefaultMapType, defBytes: o.DefaultByteStringType,
		later:  o.ByteStringToString == ByteStringToStringAllowedWithExpectedLaterEncoding,
		dupAPF: o.DupMapKey == DupMapKeyEnforcedAPF}
	return dm, nil
}

func (dm *decMode) DecOptions() DecOptions { return dm.opts }

func (dm *decMode) Unmarshal(data []byte, v any) error {
	_, err := dm.unmarshal(data, v, false, false)
	return err
}

func (dm *decMode) UnmarshalFirst(data []byte, v any) ([]byte, error) {
	return dm.unmarshal(data, v, true, false)
}

var defaultDecMode, _ = DecOptions{}.decMode()

// UnmarshalFirst decodes the first item of data into v and returns the bytes
// after it.
func UnmarshalFirst(data []byte, v any) ([]byte, error) {
	return defaultDecMode.UnmarshalFirst(data, v)
}

// SortMode is the order of map keys on output (fxamacker/cbor's values).
type SortMode int

const (
	// SortNone writes Go maps in iteration order.
	SortNone SortMode = 0
	// SortLengthFirst: shorter encoded keys first, then bytewise (RFC 7049
	// canonical).
	SortLengthFirst SortMode = 1
	// SortBytewiseLexical: bytewise order of the encoded keys (RFC 8949
	// core deterministic, CTAP2).
	SortBytewiseLexical SortMode = 2

	SortCanonical         = SortLengthFirst
	SortCTAP2             = SortBytewiseLexical
	SortCoreDeterministic = SortBytewiseLexical
)

// ShortestFloatMode selects float widths.
type ShortestFloatMode int

const (
	// ShortestFloatNone writes float64 as 8 bytes and float32 as 4.
	ShortestFloatNone ShortestFloatMode = iota
	// ShortestFloat16 writes the shortest of 2, 4 and 8 bytes that keeps
	// the value exactly (preferred serialization).
	ShortestFloat16
)

// NaNConvertMode is how NaN is written.
type NaNConvertMode int

// The values are fxamacker's (a mode converted from its options keeps its
// meaning). ShortestFloat does not apply to NaN or to infinities.
const (
	// NaNConvert7e00 writes every NaN as the half 0xf97e00 (the default).
	NaNConvert7e00 NaNConvertMode = iota
	// NaNConvertNone writes NaN in the width of its Go type, bits unchanged
	// (a float32's own bits, signalling NaNs included).
	NaNConvertNone
	// NaNConvertPreserveSignal writes NaN in the shortest width that keeps
	// its sign, quiet bit and payload.
	NaNConvertPreserveSignal
	// NaNConvertQuiet sets the quiet bit, then as NaNConvertPreserveSignal.
	NaNConvertQuiet
	// NaNConvertReject fails on NaN.
	NaNConvertReject
)

// InfConvertMode is how infinities are written.
type InfConvertMode int

const (
	// InfConvertFloat16 writes them as halves (the default).
	InfConvertFloat16 InfConvertMode = iota
	// InfConvertNone writes them in the width of their Go type.
	InfConvertNone
	InfConvertReject
)

// BigIntConvertMode: BigIntConvertShortest writes a big.Int that fits 64
// bits as a plain integer (the default); BigIntConvertNone always as a bignum.
type BigIntConvertMode int

const (
	BigIntConvertShortest BigIntConvertMode = iota
	BigIntConvertNone
)

// TimeMode is how time.Time is written.
type TimeMode int

const (
	// TimeUnix: integer seconds (the default).
	TimeUnix TimeMode = iota
	// TimeUnixMicro: float seconds, rounded to microseconds.
	TimeUnixMicro
	// TimeUnixDynamic: integer seconds, or float when there is a fraction.
	TimeUnixDynamic
	// TimeRFC3339: RFC 3339 text, seconds.
	TimeRFC3339
	// TimeRFC3339Nano: RFC 3339 text with the fraction.
	TimeRFC3339Nano
	// TimeRFC3339NanoUTC: RFC 3339 text with the fraction, in UTC ("Z").
	TimeRFC3339NanoUTC
)

// EncTagMode: EncTagRequired writes tag 1 (numbers) or 0 (text) before a time.
type EncTagMode int

const (
	EncTagNone EncTagMode = iota
	EncTagRequired
)

// NilContainersMode: nil slices and maps as null (the default) or empty.
type NilContainersMode int

const (
	NilContainerAsNull NilContainersMode = iota
	NilContainerAsEmpty
)

// StringMode is the CBOR type of Go strings (fxamacker/cbor's values).
type StringMode int

const (
	// StringToTextString writes strings as text strings (the default).
	StringToTextString StringMode = iota
	// StringToByteString writes strings (map keys and RFC 3339 times
	// included, but not a Tag 0's content) as byte strings.
	StringToByteString
)

// FieldNameMode is the CBOR type of struct field names (fxamacker/cbor's
// values); keyasint keys stay integers.
type FieldNameMode int

const (
	// FieldNameToTextString writes field names as text strings (the
	// default).
	FieldNameToTextString FieldNameMode = iota
	// FieldNameToByteString writes them as byte strings.
	FieldNameToByteString
)

// ToIndefArrayStructTagMode says whether structs with the `toindefarray`
// option (on a blank `_ struct{}` field) may be encoded (fxamacker/cbor's
// values).
type ToIndefArrayStructTagMode int

const (
	// ToIndefArrayStructTagForbidden: encoding such a struct is an error
	// (the default, as fxamacker).
	ToIndefArrayStructTagForbidden ToIndefArrayStructTagMode = iota
	// ToIndefArrayStructTagAllowed: such a struct is written as an
	// indefinite-length array of its fields (0x9f ... 0xff).
	ToIndefArrayStructTagAllowed
)

// EncOptions are Marshal's options, named as fxamacker/cbor names them; the
// zero value gives fxamacker's defaults.
type EncOptions struct {
	Sort          SortMode
	ShortestFloat ShortestFloatMode
	NaNConvert    NaNConvertMode
	InfConvert    InfConvertMode
	BigIntConvert BigIntConvertMode
	Time          TimeMode
	TimeTag       EncTagMode
	NilContainers NilContainersMode
	// MaxNestedLevels bounds nesting on output (0: DefaultEncodeMaxDepth, at
	// most MaxEncodeDepthLimit); it also stops a value that contains itself.
	MaxNestedLevels int
	// TypedArrays writes []uint16, []uint32, []uint64, []int8 .. []int64,
	// []float32 and []float64 (and []uint, []int where 64 bits; element
	// types without their own MarshalCBOR) as RFC 8746 typed arrays in the
	// host's byte order, at memcpy speed: little endian on amd64 and arm64,
	// so the output is the same on those. Off (the default, as fxamacker):
	// arrays of numbers. []byte stays a byte string either way.
	TypedArrays bool
	// String: the CBOR type of Go strings.
	String StringMode
	// FieldName: the CBOR type of struct field names.
	FieldName FieldNameMode
	// IndefLength: with IndefLengthForbidden, Encoder.StartIndefinite*
	// fail, and so does a MarshalCBOR (or RawMessage) whose output holds
	// an indefinite-length item: that output is then read by the library
	// (well-formedness too) before it is written. *Error with
	// CodeIndefiniteLength and the offset in the output.
	IndefLength IndefLengthMode
	// ToIndefArrayStructTag: whether `toindefarray` structs may be encoded
	// (Allowed conflicts with IndefLengthForbidden).
	ToIndefArrayStructTag ToIndefArrayStructTagMode
	// TagsMd: with TagsForbidden no tag is written: a Tag, or a big.Int
	// beyond 64 bits, is an error, and a mode with TimeTag EncTagRequired,
	// BigIntConvertNone or registered tags is refused (fxamacker's values
	// and rules; CTAP2EncOptions sets it, CTAP2 has no tags).
	TagsMd TagsMode
	// BinaryMarshaler: how a type implementing encoding.BinaryMarshaler
	// (netip.Addr, url.URL, most UUID types) is written: by default the
	// output of MarshalBinary as a byte string, as fxamacker; with
	// BinaryMarshalerNone as the type itself. MarshalCBOR and the types
	// the package knows (time.Time, big.Int) come first.
	BinaryMarshaler BinaryMarshalerMode
}

// TagsMode: see EncOptions.TagsMd and DecOptions.TagsMd (fxamacker's
// values).
type TagsMode int

const (
	// TagsAllowed allows tags (the default).
	TagsAllowed TagsMode = iota
	// TagsForbidden writes no tag.
	TagsForbidden
)

// BinaryMarshalerMode: see EncOptions.BinaryMarshaler (fxamacker's values).
type BinaryMarshalerMode int

const (
	// BinaryMarshalerByteString writes MarshalBinary's output as a byte string.
	BinaryMarshalerByteString BinaryMarshalerMode = iota
	// BinaryMarshalerNone ignores encoding.BinaryMarshaler.
	BinaryMarshalerNone
)

// BinaryUnmarshalerMode: see DecOptions.BinaryUnmarshaler (fxamacker's values).
type BinaryUnmarshalerMode int

const (
	// BinaryUnmarshalerByteString gives a byte string's content to UnmarshalBinary.
	BinaryUnmarshalerByteString BinaryUnmarshalerMode = iota
	// BinaryUnmarshalerNone ignores encoding.BinaryUnmarshaler.
	BinaryUnmarshalerNone
)

// CoreDetEncOptions are RFC 8949 section 4.2.1 core deterministic encoding
// (indefinite lengths forbidden, as in fxamacker's; likewise Canonical and
// CTAP2).
func CoreDetEncOptions() EncOptions {
	return EncOptions{Sort: SortCoreDeterministic, ShortestFloat: ShortestFloat16,
		NaNConvert: NaNConvert7e00, InfConvert: InfConvertFloat16, IndefLength: IndefLengthForbidden}
}

// PreferredUnsortedEncOptions are RFC 8949 preferred serialization with maps
// in Go's order.
func PreferredUnsortedEncOptions() EncOptions {
	return EncOptions{Sort: SortNone, ShortestFloat: ShortestFloat16,
		NaNConvert: NaNConvert7e00, InfConvert: InfConvertFloat16}
}

// CanonicalEncOptions are RFC 7049 canonical CBOR (length-first key order).
func CanonicalEncOptions() EncOptions {
	return EncOptions{Sort: SortCanonical, ShortestFloat: ShortestFloat16,
		NaNConvert: NaNConvert7e00, InfConvert: InfConvertFloat16, IndefLength: IndefLengthForbidden}
}

// CTAP2EncOptions are the CTAP2 canonical form (bytewise key order, floats
// as they are).
func CTAP2EncOptions() EncOptions {
	return EncOptions{Sort: SortCTAP2, ShortestFloat: ShortestFloatNone,
		NaNConvert: NaNConvertNone, InfConvert: InfConvertNone, IndefLength: IndefLengthForbidden,
		TagsMd: TagsForbidden}
}

// EncMode is a validated set of EncOptions, safe for concurrent use.
type EncMode interface {
	Marshal(v any) ([]byte, error)
	NewEncoder(w io.Writer) *Encoder
	EncOptions() EncOptions
}

type encMode struct {
	opts     EncOptions
	maxDepth int
	classic  bool      // Encode's rules: nil containers empty, Map in order, Simple/Undefined
	tags     tagLookup // registered types (EncModeWithTags), or nil
}

// EncMode checks the options and returns a mode; on an error the mode is
// nil (an untyped nil interface, so that em == nil holds).
func (o EncOptions) EncMode() (EncMode, error) {
	em, err := o.encMode()
	if err != nil {
		return nil, err
	}
	return em, nil
}

func (o EncOptions) encMode() (*encMode, error) {
	if o.Sort > SortBytewiseLexical || o.Sort < 0 || o.ShortestFloat > ShortestFloat16 ||
		o.NaNConvert > NaNConvertReject || o.InfConvert > InfConvertReject ||
		o.BigIntConvert > BigIntConvertNone || o.Time > TimeRFC3339NanoUTC ||
		o.TimeTag > EncTagRequired || o.NilContainers > NilContainerAsEmpty || o.MaxNestedLevels < 0 ||
		o.String < 0 || o.String > StringToByteString || o.FieldName < 0 || o.FieldName > FieldNameToByteString ||
		o.IndefLength < 0 || o.IndefLength > IndefLengthForbidden ||
		o.ToIndefArrayStructTag < 0 || o.ToIndefArrayStructTag > ToIndefArrayStructTagAllowed ||
		o.BinaryMarshaler < 0 || o.BinaryMarshaler > BinaryMarshalerNone ||
		o.TagsMd < 0 || o.TagsMd > TagsForbidden {
		return nil, fmt.Errorf("cborfast: invalid EncOptions")
	}
	if o.MaxNestedLevels > MaxEncodeDepthLimit {
		return nil, fmt.Errorf("cborfast: invalid MaxNestedLevels %d (at most %d)", o.MaxNestedLevels, MaxEncodeDepthLimit)
	}
	if o.IndefLength == IndefLengthForbidden && o.ToIndefArrayStructTag == ToIndefArrayStructTagAllowed {
		return nil, fmt.Errorf("cborfast: ToIndefArrayStructTagAllowed conflicts with IndefLengthForbidden")
	}
	if o.TagsMd == TagsForbidden && o.TimeTag == EncTagRequired {
		return nil, fmt.Errorf("cborfast: TimeTag EncTagRequired conflicts with TagsForbidden")
	}
	if o.TagsMd == TagsForbidden && o.BigIntConvert == BigIntConvertNone {
		return nil, fmt.Errorf("cborfast: BigIntConvertNone conflicts with TagsForbidden")
	}
	em := &encMode{opts: o, maxDepth: o.MaxNestedLevels}
	if em.maxDepth == 0 {
		em.maxDepth = DefaultEncodeMaxDepth
	}
	return em, nil
}

func (em *encMode) EncOptions() EncOptions { return em.opts }

var defaultEncMode, _ = EncOptions{}.encMode()

// Marshal encodes v with the default EncOptions (fxamacker/cbor's
// defaults).
func Marshal(v any) ([]byte, error) { return defaultEncMode.Marshal(v) }
