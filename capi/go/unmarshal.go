package cborfast

/*
#include "route.h"
*/
import "C"

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/hex"
	"math"
	"math/big"
	"math/bits"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Unmarshal decodes the one CBOR data item in data into the value v points
// to, with the default DecOptions, the way fxamacker/cbor's Unmarshal does:
// struct fields by their `cbor` tags (see field), typed slices, arrays, maps
// of any key type, pointers (allocated as needed), `any` (given the types
// fxamacker gives: uint64, int64, big.Int, []byte, string, []any,
// map[any]any, float64, bool, nil, Tag, SimpleValue, time.Time for tags 0
// and 1), time.Time, big.Int, RawMessage and Unmarshaler. A []byte is a
// copy, a string field one new string (short ones share 16 KiB chunks, see
// the package documentation); nothing refers to data afterwards.
//
// Values come from the library's reader in batches (cbor_reader_next_batch);
// well-formedness, limits and strict checks are the library's, and their
// failures are *Error with the byte offset. A value that does not fit its Go
// type is skipped and reported as an *UnmarshalTypeError after the rest is
// decoded.
func Unmarshal(data []byte, v any) error { return defaultDecMode.Unmarshal(data, v) }

type decFn func(d *decState, it *citem, p unsafe.Pointer) error

// typeDec is the cached decoding plan of one Go type; fn is set once the plan
// is built (recursive types refer to their own typeDec).
type typeDec struct {
	fn    decFn
	inner decFn // fn without the registered-tag check (registrable types)
	t     reflect.Type
}

var (
	decCache    sync.Map // reflect.Type -> *typeDec
	decBuildMu  sync.Mutex
	decBuilding = map[reflect.Type]*typeDec{}
)

func decoderFor(t reflect.Type) *typeDec {
	if v, ok := decCache.Load(t); ok {
		return v.(*typeDec)
	}
	decBuildMu.Lock()
	defer decBuildMu.Unlock()
	return decoderLocked(t)
}

func decoderLocked(t reflect.Type) *typeDec {
	if v, ok := decCache.Load(t); ok {
		return v.(*typeDec)
	}
	if td, ok := decBuilding[t]; ok {
		return td
	}
	td := &typeDec{t: t}
	decBuilding[t] = td
	td.inner = buildDec(t, td)
	td.fn = td.inner
	if registrable(t) {
		td.fn = withDecTags(t, td.inner)
	}
	delete(decBuilding, t)
	decCache.Store(t, td)
	return td
}

type decState struct {
	t    tokens
	dm   *decMode
	err  error // first UnmarshalTypeError
	nerr int   // type errors so far (a map pair with one is not stored)
	// later: the tags 21-23 around the value being decoded, innermost last
	// (ByteStringToStringAllowedWithExpectedLaterEncoding only).
	later []uint64
}

// laterText is the text of b in the encoding tag 21 (base64url, no
// padding), 22 (base64) or 23 (base16) expects (RFC 8949 section 3.4.5.2).
func laterText(tag uint64, b []byte) string {
	switch tag {
	case 21:
		return base64.RawURLEncoding.EncodeToString(b)
	case 22:
		return base64.StdEncoding.EncodeToString(b)
	}
	return hex.EncodeToString(b)
}

// byteString is a byte string item (joined if indefinite) as a Go string,
// for ByteStringToStringAllowed and ..WithExpectedLaterEncoding.
func (d *decState) byteString(it *citem) (string, error) {
	b, err := d.t.content(it)
	if err != nil {
		return "", err
	}
	if n := len(d.later); n > 0 {
		return laterText(d.later[n-1], b), nil
	}
	if isIndef(it) {
		return string(b), nil
	}
	return d.t.box.str(b), nil
}

var (
	unmarshalerType = reflect.TypeFor[Unmarshaler]()
	binUnmarshaler  = reflect.TypeFor[encoding.BinaryUnmarshaler]()
	timeType        = reflect.TypeFor[time.Time]()
	bigIntType      = reflect.TypeFor[big.Int]()
	tagType         = reflect.TypeFor[Tag]()
	stringType      = reflect.TypeFor[string]()
	byteStringType  = reflect.TypeFor[ByteString]()
	simpleValueType = reflect.TypeFor[SimpleValue]()
	int64Type       = reflect.TypeFor[int64]()
	float64Type     = reflect.TypeFor[float64]()
)

var cborTypeNames = [...]string{"none", "unsigned integer", "negative integer", "byte string",
	"text string", "array", "map", "tag", "simple value", "bool", "null", "undefined", "float", "break"}

// pointerCycle reports whether the chain of pointer types from t (a pointer)
// comes back to a type on it (type P *P), where it never reaches a value.
func pointerCycle(t reflect.Type) bool {
	slow, fast := t, t
	for {
		for range 2 {
			fast = fast.Elem()
			if fast.Kind() != reflect.Pointer {
				return false
			}
		}
		slow = slow.Elem()
		if slow == fast {
			return true
		}
	}
}

// mismatch records a type error for the value at it and skips the value.
func (d *decState) mismatch(it *citem, t reflect.Type, reason string) error {
	d.typeError(it, t, reason)
	_, err := d.t.skipRest(it)
	return err
}

// keepError records err as a type error is recorded (the first one is
// returned at the end).
func (d *decState) keepError(err error) {
	d.nerr++
	if d.err == nil {
		d.err = err
	}
}

// anyValue builds into `any` the value whose head is `first` (nil: the next
// item), at depth `depth`. A type error inside it (a map key Go cannot hash,
// a tag's content) is kept as type errors are and what is left of the value
// passed over (tokens.skipPartial): ok false, for the caller to store
// nothing, and decoding goes on after the value, as fxamacker's does.
func (d *decState) anyValue(first *citem, depth C.uint32_t) (v any, ok bool, err error) {
	v, _, err = buildAny(&d.t, first, flavorAny, d.dm.lim)
	if err == nil {
		return v, true, nil
	}
	te, isType := err.(*UnmarshalTypeError)
	if !isType {
		return nil, false, err
	}
	d.keepError(te)
	return nil, false, d.t.skipPartial(depth)
}

// typeError records a type error at `it` (the first one is returned at the
// end) for a value already read or passed over.
func (d *decState) typeError(it *citem, t reflect.Type, reason string) {
	d.nerr++
	if d.err == nil {
		d.err = &UnmarshalTypeError{CBORType: cborTypeNames[it._type], GoType: t.String(),
			Offset: int(it.offset), Reason: reason}
	}
}

// bignumInto decodes the bignum whose byte string content is c into a
// target other than a big.Int, a slice or an array, as fxamacker does: as the
// integer it is when that fits a uint64 (tag 2) or an int64 (tag 3), for the
// target's own decoder to take (or refuse); else a type error.
func (d *decState) bignumInto(num uint64, c *citem, p unsafe.Pointer, td *typeDec) error {
	head := *c // c may not outlive the next call
	head.flags = 0
	b, err := d.t.content(c)
	if err != nil {
		return err
	}
	z := new(big.Int).SetBytes(b)
	if !z.IsUint64() || (num == 3 && z.Uint64() > math.MaxInt64) {
		if d.err != nil {
			d.nerr++ // only the first error is returned: no reason to build
			return nil
		}
		if num == 3 {
			z.Neg(z).Sub(z, bigOne)
		}
		d.typeError(&head, td.t, overflows(bignumText(z), td.t))
		return nil
	}
	head._type = C.CBOR_FAST_TYPE_UINT
	if num == 3 {
		head._type = C.CBOR_FAST_TYPE_NEGATIVE
	}
	head.value = C.uint64_t(z.Uint64())
	return td.fn(d, &head, p)
}

// builtinTagMismatch is why the content c of a tag 0 to 3 does not have the
// type RFC 8949 gives that tag ("" when it does, and for other tags):
// whatever the target type, fxamacker refuses such a tag.
func builtinTagMismatch(num uint64, c *citem) string {
	switch num {
	case 0:
		if c._type != C.CBOR_FAST_TYPE_TEXT {
			return "tag 0 content is not a text string"
		}
	case 1:
		if c._type != C.CBOR_FAST_TYPE_UINT && c._type != C.CBOR_FAST_TYPE_NEGATIVE &&
			c._type != C.CBOR_FAST_TYPE_FLOAT {
			return "tag 1 content is not a number"
		}
	case 2, 3:
		if c._type != C.CBOR_FAST_TYPE_BYTES {
			return "bignum content is not a byte string"
		}
	}
	return ""
}

// other handles what a typed decoder does not: a tag before the content
// (the tag number is not checked, as fxamacker does for unregistered tags),
// null and undefined (which leave the value unchanged, or nil it for
// pointers, slices, maps and interfaces), and mismatches.
// selfDescribedTag marks data as CBOR (RFC 8949 section 3.4.6) and says
// nothing of the value.
const selfDescribedTag = 55799

// skipSelfDescribed passes over the self-described CBOR tags at the start of
// a value, as fxamacker does before it looks at the value (so 55799(null)
// into a pointer is nil, and an Unmarshaler gets the content). The decoders
// that take a tag as it is call it first; the others pass over any tag
// they do not know (other).
func (d *decState) skipSelfDescribed(it *citem) (*citem, error) {
	for it._type == C.CBOR_FAST_TYPE_TAG && it.value == selfDescribedTag {
		c, err := d.t.next()
		if err != nil {
			return nil, err
		}
		it = c
	}
	return it, nil
}

// underTags passes over the tags in front of a value, each checked against
// its content as fxamacker checks tags 0-3 (a bignum's too, into a t that is
// not a byte slice or array, unless bignums), and returns the item under
// them; done with the decoder's result when one did not fit t. stop keeps
// the tag numbers it accepts in front (the time's 0 and 1), or is nil.
func (d *decState) underTags(it *citem, t reflect.Type, bignums bool, stop func(uint64) bool) (_ *citem, done bool, err error) {
	for it._type == C.CBOR_FAST_TYPE_TAG && (stop == nil || !stop(uint64(it.value))) {
		num := uint64(it.value) // it may not outlive the next call
		c, err := d.t.next()
		if err != nil {
			return nil, true, err
		}
		if r := builtinTagMismatch(num, c); r != "" {
			return nil, true, d.mismatch(c, t, r)
		}
		if !bignums && (num == 2 || num == 3) && t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return nil, true, d.mismatch(c, t, "a bignum into a type that is not a byte slice")
		}
		it = c
	}
	return it, false, nil
}

func (d *decState) other(it *citem, p unsafe.Pointer, td *typeDec) error {
	switch it._type {
	case C.CBOR_FAST_TYPE_TAG:
		num := uint64(it.value) // it may not outlive the next call
		c, err := d.t.next()
		if err != nil {
			return err
		}
		if r := builtinTagMismatch(num, c); r != "" {
			return d.mismatch(c, td.t, r)
		}
		if (num == 2 || num == 3) && td.t.Kind() != reflect.Slice && td.t.Kind() != reflect.Array {
			return d.bignumInto(num, c, p, td)
		}
		if d.dm.lim.later && num >= 21 && num <= 23 {
			d.later = append(d.later, num)
			err = td.fn(d, c, p)
			d.later = d.later[:len(d.later)-1]
			return err
		}
		return td.fn(d, c, p)
	case C.CBOR_FAST_TYPE_NULL, C.CBOR_FAST_TYPE_UNDEFINED:
		switch td.t.Kind() {
		case reflect.Pointer, reflect.Map:
			*(*unsafe.Pointer)(p) = nil
		case reflect.Slice:
			*(*sliceHeader)(p) = sliceHeader{}
		case reflect.Interface:
			reflect.NewAt(td.t, p).Elem().SetZero()
		}
		return nil
	}
	return d.mismatch(it, td.t, "")
}

type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

// lenHeader is the part a string and a slice share: a field's length read
// through it stays inside a string's 16 bytes (through sliceHeader, a string
// that ends its allocation made -race and -d=checkptr fail with "converted
// pointer straddles multiple allocations").
type lenHeader struct {
	data unsafe.Pointer
	len  int
}

func isIndef(it *citem) bool { return it.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0 }

// preallocation bound: a claimed length buys at most this many bytes before
// the items are actually there (length bombs allocate nothing big).
const maxPrealloc = 1 << 20

func buildDec(t reflect.Type, td *typeDec) decFn {
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(unmarshalerType) {
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			it, err := d.skipSelfDescribed(it)
			if err != nil {
				return err
			}
			start := int(it.offset)
			// As fxamacker: tags 0-3 at the start of the value must hold
			// the content RFC 8949 gives them, also for a RawMessage or
			// an Unmarshaler (nested ones are the Unmarshaler's to check).
			it, done, err := d.underTags(it, t, true, nil)
			if done {
				return err
			}
			end, err := d.t.skipRest(it)
			if err != nil {
				return err
			}
			u := reflect.NewAt(t, p).Interface().(Unmarshaler)
			// Its error is kept as a type error is (the first one is
			// returned) and decoding goes on after the value, as fxamacker
			// does: the fields after it are set.
			if err := u.UnmarshalCBOR(d.t.data[start:end:end]); err != nil {
				d.keepError(err)
			}
			return nil
		}
	}
	if t != timeType && t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		reflect.PointerTo(t).Implements(binUnmarshaler) {
		// A byte string's content goes to UnmarshalBinary (a copy: the
		// input is the caller's); any other item, and every item under
		// BinaryUnmarshalerNone, to the type's own decoder.
		alt := &typeDec{t: t}
		alt.fn = buildDecOf(t, alt)
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			if d.dm.opts.BinaryUnmarshaler == BinaryUnmarshalerNone {
				return alt.fn(d, it, p)
			}
			// Tags in front are passed over, as fxamacker's default
			// (DecTagIgnored) does for this target, with tags 0-3 checked
			// against their content; the byte string under them goes to
			// UnmarshalBinary, anything else to the type's own decoder.
			it, done, err := d.underTags(it, t, false, nil)
			if done {
				return err
			}
			if it._type != C.CBOR_FAST_TYPE_BYTES {
				return alt.fn(d, it, p)
			}
			var b []byte
			if isIndef(it) {
				var err error
				if b, err = d.t.joinString(nil); err != nil {
					return err
				}
			} else {
				b = bytes.Clone(d.t.bytes(it))
			}
			// its error as it is, as fxamacker returns it
			return reflect.NewAt(t, p).Interface().(encoding.BinaryUnmarshaler).UnmarshalBinary(b)
		}
	}
	return buildDecOf(t, td)
}

// buildDecOf builds the decoder of t from its kind (the package's own types
// first), ignoring the interfaces buildDec looks for.
func buildDecOf(t reflect.Type, td *typeDec) decFn {
	switch t {
	case simpleValueType:
		// Any simple value, false, true, null and undefined included
		// (20 to 23), as fxamacker's SimpleValue; not numbers.
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			it, err := d.skipSelfDescribed(it)
			if err != nil {
				return err
			}
			switch it._type { // other tags too are type errors, as fxamacker's
			case C.CBOR_FAST_TYPE_SIMPLE, C.CBOR_FAST_TYPE_BOOL:
				*(*SimpleValue)(p) = SimpleValue(it.value)
			case C.CBOR_FAST_TYPE_NULL:
				*(*SimpleValue)(p) = 22
			case C.CBOR_FAST_TYPE_UNDEFINED:
				*(*SimpleValue)(p) = 23
			default:
				return d.mismatch(it, t, "")
			}
			return nil
		}
	case timeType:
		return decTime
	case bigIntType:
		return decBigInt
	case byteStringType:
		// A byte string only, as fxamacker's ByteString (it is written as
		// one); null and undefined make it empty.
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			switch it._type {
			case C.CBOR_FAST_TYPE_BYTES:
				b, err := d.t.content(it)
				if err != nil {
					return err
				}
				*(*string)(p) = string(b)
				return nil
			case C.CBOR_FAST_TYPE_NULL, C.CBOR_FAST_TYPE_UNDEFINED:
				*(*string)(p) = ""
				return nil
			case C.CBOR_FAST_TYPE_TEXT:
				return d.mismatch(it, t, "text string into a ByteString")
			}
			return d.other(it, p, td)
		}
	case tagType:
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			if it._type != C.CBOR_FAST_TYPE_TAG {
				return d.other(it, p, td)
			}
			num, depth := uint64(it.value), it.depth // (it may not outlive the next read)
			// Tags 0 to 3 over content of another type are refused here as
			// for every other target (the README's rule; a Tag took them).
			if end, err := d.t.atEnd(); err != nil {
				return err
			} else if !end {
				if r := builtinTagMismatch(num, &d.t.batch[d.t.i]); r != "" {
					c, err := d.t.next()
					if err != nil {
						return err
					}
					return d.mismatch(c, t, r)
				}
			}
			c, ok, err := d.anyValue(nil, depth+1) // the content, one level in
			if ok {
				*(*Tag)(p) = Tag{Number: num, Content: c}
			}
			return err
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			if it._type == C.CBOR_FAST_TYPE_BOOL {
				*(*bool)(p) = it.value == 21
				return nil
			}
			return d.other(it, p, td)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intDec(t, td)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return uintDec(t, td) // (uintptr: unsupported, as fxamacker and Marshal)
	case reflect.Float32, reflect.Float64:
		is32 := t.Kind() == reflect.Float32
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			var f float64
			switch it._type {
			case C.CBOR_FAST_TYPE_FLOAT:
				f = float64(it.float_value)
			case C.CBOR_FAST_TYPE_UINT:
				f = float64(uint64(it.value))
			case C.CBOR_FAST_TYPE_NEGATIVE:
				if uint64(it.value) > math.MaxInt64 {
					// As fxamacker: below -2^63 only a big.Int (or
					// `any`) takes it, a float refuses it.
					return d.mismatch(it, t, negativeOverflow(uint64(it.value)))
				}
				// -1 - n as an int64, converted once (as fxamacker's
				// float64(int64)): -1 - float64(n) rounded twice.
				f = float64(-1 - int64(it.value))
			default:
				return d.other(it, p, td)
			}
			if is32 {
				// As reflect's OverflowFloat (and fxamacker): a finite
				// value beyond float32's range is refused, not made an
				// infinity; infinities and NaN pass.
				if a := math.Abs(f); a > math.MaxFloat32 && a <= math.MaxFloat64 {
					return d.mismatch(it, t, strconv.FormatFloat(f, 'E', -1, 64)+" overflows "+t.String())
				}
				*(*float32)(p) = float32(f)
			} else {
				*(*float64)(p) = f
			}
			return nil
		}
	case reflect.String:
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			if it._type != C.CBOR_FAST_TYPE_TEXT {
				if it._type == C.CBOR_FAST_TYPE_BYTES && d.dm.opts.ByteStringToString != ByteStringToStringForbidden {
					s, err := d.byteString(it)
					*(*string)(p) = s
					return err
				}
				return d.other(it, p, td)
			}
			if !isIndef(it) {
				*(*string)(p) = d.t.box.str(d.t.bytes(it))
				return nil
			}
			b, err := d.t.joinString(nil)
			if err != nil {
				return err
			}
			*(*string)(p) = string(b)
			return nil
		}
	case reflect.Slice:
		return sliceDec(t, td)
	case reflect.Array:
		return arrayDec(t, td)
	case reflect.Map:
		return mapDec(t, td)
	case reflect.Pointer:
		if pointerCycle(t) {
			// type P *P: no value at the end of the chain. Anything but
			// null would allocate pointer after pointer without reading
			// input until the goroutine's stack overflowed (fxamacker
			// loops forever building its plan): a type error instead.
			return func(d *decState, it *citem, p unsafe.Pointer) error {
				if it._type == C.CBOR_FAST_TYPE_NULL || it._type == C.CBOR_FAST_TYPE_UNDEFINED {
					*(*unsafe.Pointer)(p) = nil
					return nil
				}
				return d.mismatch(it, t, "the pointer type points to itself")
			}
		}
		elem := decoderLocked(t.Elem())
		et := t.Elem()
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			if it._type == C.CBOR_FAST_TYPE_TAG {
				var err error
				if it, err = d.skipSelfDescribed(it); err != nil {
					return err
				}
			}
			if it._type == C.CBOR_FAST_TYPE_NULL || it._type == C.CBOR_FAST_TYPE_UNDEFINED {
				*(*unsafe.Pointer)(p) = nil
				return nil
			}
			q := *(*unsafe.Pointer)(p)
			if q == nil {
				q = reflect.New(et).UnsafePointer()
				*(*unsafe.Pointer)(p) = q
			}
			return elem.fn(d, it, q)
		}
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return func(d *decState, it *citem, p unsafe.Pointer) error {
				// A value Go cannot hold leaves the `any` as it was.
				v, ok, err := d.anyValue(it, it.depth)
				if ok {
					*(*any)(p) = v
				}
				return err
			}
		}
		return func(d *decState, it *citem, p unsafe.Pointer) error {
			it, err := d.skipSelfDescribed(it)
			if err != nil {
				return err
			}
			iv := reflect.NewAt(t, p).Elem()
			// null and undefined make the interface nil, whatever it holds
			// (as fxamacker and encoding/json; handed to the pointer it held,
			// they left a struct's value as it was).
			if it._type == C.CBOR_FAST_TYPE_NULL || it._type == C.CBOR_FAST_TYPE_UNDEFINED {
				iv.SetZero()
				return nil
			}
			if iv.IsNil() || iv.Elem().Kind() != reflect.Pointer || iv.Elem().IsNil() {
				return d.mismatch(it, t, "non-empty interface without a pointer to decode into")
			}
			inner := iv.Elem()
			return decoderFor(inner.Type().Elem()).fn(d, it, inner.UnsafePointer())
		}
	case reflect.Struct:
		return structDec(t, td)
	}
	return func(d *decState, it *citem, p unsafe.Pointer) error {
		if it._type == C.CBOR_FAST_TYPE_NULL || it._type == C.CBOR_FAST_TYPE_UNDEFINED {
			return nil // as fxamacker: the value is left as it is
		}
		return d.mismatch(it, t, "unsupported Go type")
	}
}

// overflows is a type error's reason for a number too large for t, in
// fxamacker's words ("300 overflows int8").
func overflows(number string, t reflect.Type) string {
	return number + " overflows " + t.String()
}

// bignumText is z in decimal (as fxamacker gives it) up to 256 bits; longer
// ones by their size: the decimal text of a 1 MiB bignum took 1.4 s to make
// (more than linearly longer for longer ones), and was a 2.5 MB message.
func bignumText(z *big.Int) string {
	if z.BitLen() <= 256 {
		return z.String()
	}
	if z.Sign() < 0 {
		return "a " + strconv.Itoa(z.BitLen()) + "-bit negative integer"
	}
	return "a " + strconv.Itoa(z.BitLen()) + "-bit integer"
}

// negativeOverflow is the reason for -1-n below -2^63 (n > MaxInt64) into
// any Go number, as fxamacker gives it ("-9223372036854775809 overflows Go's
// int64").
func negativeOverflow(n uint64) string {
	z := new(big.Int).SetUint64(n)
	return z.Neg(z).Sub(z, bigOne).String() + " overflows Go's int64"
}

func intDec(t reflect.Type, td *typeDec) decFn {
	bits := uint(t.Bits())
	maxV := uint64(1)<<(bits-1) - 1
	kind := t.Kind()
	return func(d *decState, it *citem, p unsafe.Pointer) error {
		var v int64
		switch it._type {
		case C.CBOR_FAST_TYPE_UINT:
			if uint64(it.value) > maxV {
				return d.mismatch(it, t, overflows(strconv.FormatUint(uint64(it.value), 10), t))
			}
			v = int64(it.value)
		case C.CBOR_FAST_TYPE_NEGATIVE:
			if uint64(it.value) > math.MaxInt64 {
				return d.mismatch(it, t, negativeOverflow(uint64(it.value)))
			}
			if uint64(it.value) > maxV {
				return d.mismatch(it, t, overflows(strconv.FormatInt(-1-int64(it.value), 10), t))
			}
			v = -1 - int64(it.value)
		default:
			return d.other(it, p, td)
		}
		switch kind {
		case reflect.Int:
			*(*int)(p) = int(v)
		case reflect.Int64:
			*(*int64)(p) = v
		case reflect.Int32:
			*(*int32)(p) = int32(v)
		case reflect.Int16:
			*(*int16)(p) = int16(v)
		default:
			*(*int8)(p) = int8(v)
		}
		return nil
	}
}

func uintDec(t reflect.Type, td *typeDec) decFn {
	bits := uint(t.Bits())
	maxV := uint64(math.MaxUint64)
	if bits < 64 {
		maxV = uint64(1)<<bits - 1
	}
	kind := t.Kind()
	return func(d *decState, it *citem, p unsafe.Pointer) error {
		if it._type != C.CBOR_FAST_TYPE_UINT {
			if it._type == C.CBOR_FAST_TYPE_NEGATIVE {
				return d.mismatch(it, t, "negative into unsigned")
			}
			return d.other(it, p, td)
		}
		v := uint64(it.value)
		if v > maxV {
			return d.mismatch(it, t, overflows(strconv.FormatUint(v, 10), t))
		}
		switch kind {
		case reflect.Uint, reflect.Uintptr:
			*(*uint)(p) = uint(v)
		case reflect.Uint64:
			*(*uint64)(p) = v
		case reflect.Uint32:
			*(*uint32)(p) = uint32(v)
		case reflect.Uint16:
			*(*uint16)(p) = uint16(v)
		default:
			*(*uint8)(p) = uint8(v)
		}
		return nil
	}
}

func sliceDec(t reflect.Type, td *typeDec) decFn {
	et := t.Elem()
	esize := et.Size()
	isBytes := et.Kind() == reflect.Uint8
	elem := decoderLocked(et)
	bulk, narrow := bulkKind(et)
	arrays := newSliceArrays(t)
	return func(d *decState, it *citem, p unsafe.Pointer) error {
		// []uint64, []int64, []float64: long arrays and RFC 8746 typed
		// arrays through the library's bulk reader (see bulkSlice); the
		// smaller number types: typed arrays only.
		if bulk >= 0 && (it._type == C.CBOR_FAST_TYPE_ARRAY && !narrow && !isIndef(it) && uint64(it.value) >= bulkMinLen ||
			it._type == C.CBOR_FAST_TYPE_TAG && it.value >= 64 && it.value <= 87) {
			if it._type == C.CBOR_FAST_TYPE_ARRAY {
			}
			if handled, err := d.bulkSlice(it, t, bulk, narrow, p); handled || err != nil {
				return err
			}
		}
		if isBytes && it._type == C.CBOR_FAST_TYPE_BYTES {
			var b []byte
			if isIndef(it) {
				var err error
				if b, err = d.t.joinString([]byte{}); err != nil {
					return err
				}
			} else if it.size == 0 {
				b = []byte{}
			} else {
				b = d.t.box.bytes(d.t.bytes(it))
			}
			*(*sliceHeader)(p) = *(*sliceHeader)(unsafe.Pointer(&b))
			return nil
		}
		if it._type != C.CBOR_FAST_TYPE_ARRAY {
			return d.other(it, p, td)
		}
		indef := isIndef(it)
		n := int(it.value)
		if indef {
			n = -1
		}
		sh := (*sliceHeader)(p)
		if n >= 0 && sh.cap >= n && sh.data != nil {
			sh.len = n // fxamacker: reuse the elements that are there
		} else {
			c := sliceStart(n, d.t.remaining(it), esize)
			if n < 0 && d.t.i < len(d.t.batch) && d.t.batch[d.t.i]._type == C.CBOR_FAST_TYPE_END {
				c = 0 // 9f ff: an empty slice that holds nothing
			}
			*sh = sliceHeader{data: arrays.new(c), len: 0, cap: c}
		}
		// Every array ends with an END item (definite ones too).
		for i := 0; ; i++ {
			// d.t.next() by hand: it is over the inlining budget.
			var e *citem
			var err error
			if j := d.t.i; j < len(d.t.batch) {
				d.t.i = j + 1
				e = &d.t.batch[j]
			} else if e, err = d.t.refill(); err != nil {
				return err
			}
			if e._type == C.CBOR_FAST_TYPE_END {
				sh.len = i
				return nil
			}
			if i >= sh.cap {
				grow(t, sh)
			}
			if i >= sh.len {
				sh.len = i + 1
			}
			if err := elem.fn(d, e, unsafe.Add(sh.data, uintptr(i)*esize)); err != nil {
				return err
			}
		}
	}
}

// sliceStart is the capacity a slice decoded from an array of n elements
// (-1: indefinite) starts with, when rem bytes of input are left after its
// head; it doubles as elements come (grow). A claimed length is believed up
// to the bytes left (each element takes one at least; MaxArrayElements
// bounds it too) and up to 1 MiB of elements or 8 bytes per byte left,
// whichever is more (the corpus' arrays start whole: a cose_20k array of
// 20,000 records of 150 bytes grown from 1 MiB cost 4 % more): a length
// bomb, or an array cut short, allocates no more than that before it fails. An indefinite array starts with
// room for 4 elements (at most 256 bytes of them): it started with 1024, so
// 20 KB of empty or one-element indefinite arrays of large elements held
// gigabytes.
func sliceStart(n int, rem uint64, esize uintptr) int {
	if n < 0 {
		return int(min(rem, 4, max(1, 256/uint64(max(esize, 1)))))
	}
	c := min(uint64(n), rem)
	// (a multiply, not a division, on the common path)
	limit := max(1<<20, 8*rem)
	if hi, lo := bits.Mul64(c, uint64(esize)); hi != 0 || lo > limit {
		c = max(16, limit/uint64(esize))
	}
	return int(c)
}

// sliceArrays makes the backing arrays of a slice type: for up to 16
// elements through the array type of that length, one allocation where
// reflect.MakeSlice takes two (its slice header escapes).
type sliceArrays struct {
	t     reflect.Type
	small [17]atomic.Value // reflect.ArrayOf(c, elem) at c, built on first use
	// plain: the elements hold no pointers, so a small array is 8-byte
	// words the collector does not scan (reflect.New costs a pointer type
	// lookup in a sync.Map on each call: cose_20k's KeyOps).
	plain bool
	esize uintptr
}

func newSliceArrays(t reflect.Type) *sliceArrays {
	return &sliceArrays{t: t, plain: noPointers(t.Elem()) && t.Elem().Align() <= 8, esize: t.Elem().Size()}
}

// noPointers: values of t hold no pointers.
func noPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return noPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !noPointers(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// new is a zeroed array of c elements.
func (a *sliceArrays) new(c int) unsafe.Pointer {
	if c > 0 && c < len(a.small) {
		if a.plain {
			w := make([]uint64, (uintptr(c)*a.esize+7)/8)
			return unsafe.Pointer(unsafe.SliceData(w))
		}
		at, _ := a.small[c].Load().(reflect.Type)
		if at == nil {
			at = reflect.ArrayOf(c, a.t.Elem())
			a.small[c].Store(at)
		}
		return reflect.New(at).UnsafePointer()
	}
	return reflect.MakeSlice(a.t, c, c).UnsafePointer()
}

// grow doubles the capacity of the slice at sh (its elements are copied).
func grow(t reflect.Type, sh *sliceHeader) {
	c := 2 * sh.cap
	if c < 8 {
		c = 8
	}
	old := reflect.NewAt(t, unsafe.Pointer(sh)).Elem()
	nv := reflect.MakeSlice(t, sh.len, c)
	reflect.Copy(nv, old)
	*sh = sliceHeader{data: nv.UnsafePointer(), len: sh.len, cap: c}
}

func arrayDec(t reflect.Type, td *typeDec) decFn {
	et := t.Elem()
	esize := et.Size()
	n := t.Len()
	isBytes := et.Kind() == reflect.Uint8
	elem := decoderLocked(et)
	return func(d *decState, it *citem, p unsafe.Pointer) error {
		if isBytes && it._type == C.CBOR_FAST_TYPE_BYTES {
			b, err := d.t.content(it)
			if err != nil {
				return err
			}
			dst := unsafe.Slice((*byte)(p), n)
			clear(dst[copy(dst, b):])
			return nil
		}
		if it._type != C.CBOR_FAST_TYPE_ARRAY {
			return d.other(it, p, td)
		}
		i := 0
		for ; ; i++ {
			e, err := d.t.next()
			if err != nil {
				return err
			}
			if e._type == C.CBOR_FAST_TYPE_END {
				break
			}
			if i >= n {
				if _, err := d.t.skipRest(e); err != nil {
					return err
				}
				continue
			}
			if err := elem.fn(d, e, unsafe.Add(p, uintptr(i)*esize)); err != nil {
				return err
			}
		}
		// A shorter CBOR array leaves the rest of the Go array zero (as
		// fxamacker), in one typed clear (the collector's write barriers
		// kept). Element by element took 12 ns each: Unmarshal of `80`
		// into a [1 << 50]struct{} did not end (fxamacker's does not
		// either); elements of size 0 need nothing.
		if i < n && esize != 0 {
			reflect.NewAt(t, p).Elem().Slice(i, n).Clear()
		}
		return nil
	}
}

// textOf is the content of a TEXT item (joined if indefinite), or ok false.
func (d *decState) textOf(it *citem) ([]byte, bool, error) {
	if it._type != C.CBOR_FAST_TYPE_TEXT {
		return nil, false, nil
	}
	if !isIndef(it) {
		return d.t.bytes(it), true, nil
	}
	b, err := d.t.joinString(nil)
	return b, err == nil, err
}

var (
	mapStringStringType = reflect.TypeFor[map[string]string]()
	mapStringAnyType    = reflect.TypeFor[map[string]any]()
)

// mapStringDec decodes map[string]string and map[string]any without
// reflection per pair.
func mapStringDec(t reflect.Type, td *typeDec) decFn {
	isAny := t == mapStringAnyType
	return func(d *decState, it *citem, p unsafe.Pointer) error {
		if it._type != C.CBOR_FAST_TYPE_MAP {
			return d.other(it, p, td)
		}
		hint := 0
		if !isIndef(it) {
			hint = int(min(uint64(it.value), d.t.remaining(it)/2, 1<<12))
		}
		var ms map[string]string
		var ma map[string]any
		if isAny {
			if ma = *(*map[string]any)(p); ma == nil {
				ma = make(map[string]any, hint)
				*(*map[string]any)(p) = ma
			}
		} else if ms = *(*map[string]string)(p); ms == nil {
			ms = make(map[string]string, hint)
			*(*map[string]string)(p) = ms
		}
		// DupMapKeyEnforcedAPF: keys equal as Go strings (text and byte
		// string keys with ByteStringToString), as in mapDec.
		dupAPF := d.dm.opts.DupMapKey == DupMapKeyEnforcedAPF
		var before map[string]bool
		if dupAPF && len(ma)+len(ms) > 0 {
			before = make(map[string]bool, len(ma)+len(ms))
			for k := range ma {
				before[k] = true
			}
			for k := range ms {
				before[k] = true
			}
		}
		for {
			k, err := d.t.next()
			if err != nil {
				return err
			}
			if k._type == C.CBOR_FAST_TYPE_END {
				return nil
			}
			var koff, kdepth int // (k does not outlive a joined key)
			if dupAPF {
				koff, kdepth = int(k.offset), int(k.depth)
			}
			kb, ok, err := d.textOf(k)
			if err != nil {
				return err
			}
			if !ok && k._type == C.CBOR_FAST_TYPE_BYTES && d.dm.opts.ByteStringToString != ByteStringToStringForbidden {
				s, err := d.byteString(k)
				if err != nil {
					return err
				}
				kb, ok = []byte(s), true
			}
			var key string
			if ok {
				key = d.t.box.str(kb)
			} else {
				// Any other key decodes as the string decoder decodes a
				// value (as fxamacker): tag numbers passed over (tags 0-3
				// checked), null and undefined the empty string; a key that
				// does not fit drops its pair with a type error.
				nerr := d.nerr
				// (its own string: &key would move key to the heap for
				// every pair)
				ks := new(string)
				if err := td.elemString(d, k, ks); err != nil {
					return err
				}
				key = *ks
				if d.nerr != nerr {
					v, err := d.t.next()
					if err != nil {
						return err
					}
					if _, err := d.t.skipRest(v); err != nil {
						return err
					}
					continue
				}
			}
			if dupAPF {
				_, inA := ma[key]
				_, inS := ms[key]
				if inA || inS {
					if !before[key] {
						return dupKeyError(koff, kdepth)
					}
					delete(before, key)
				}
			}
			v, err := d.t.next()
			if err != nil {
				return err
			}
			if isAny {
				// A value Go cannot hold drops its pair.
				x, ok, err := d.anyValue(v, v.depth)
				if err != nil {
					return err
				}
				if ok {
					ma[key] = x
				}
				continue
			}
			vb, ok, err := d.textOf(v)
			if err != nil {
				return err
			}
			if !ok {
				s := new(string) // (as ks above)
				nerr := d.nerr
				if err := td.elemString(d, v, s); err != nil {
					return err
				}
				if d.nerr == nerr { // a value that does not fit drops its pair
					ms[key] = *s
				}
				continue
			}
			ms[key] = d.t.box.str(vb)
		}
	}
}

func (td *typeDec) elemString(d *decState, it *citem, s *string) error {
	return decoderFor(reflect.TypeFor[string]()).fn(d, it, unsafe.Pointer(s))
}

func mapDec(t reflect.Type, td *typeDec) decFn {
	if t == mapStringStringType || t == mapStringAnyType {
		return mapStringDec(t, td)
	}
	kt, vt := t.Key(), t.Elem()
	keyAny := kt.Kind() == reflect.Interface && kt.NumMethod() == 0
	keyCheck := !keyAny && keyMayPanic(kt) // e.g. [2]any, struct{ A any }
	kdec := decoderLocked(kt)
	vdec := decoderLocked(vt)
	return func(d *decState, it *citem, p unsafe.Pointer) error {
		if it._type != C.CBOR_FAST_TYPE_MAP {
			return d.other(it, p, td)
		}
		indef := isIndef(it)
		n := int(it.value)
		mv := reflect.NewAt(t, p).Elem()
		if mv.IsNil() {
			hint := 0
			if !indef {
				hint = int(min(uint64(n), d.t.remaining(it)/2, 1<<12))
			}
			mv.Set(reflect.MakeMapWithSize(t, hint))
		}
		kv := reflect.New(kt).Elem()
		vv := reflect.New(vt).Elem()
		kp, vp := kv.Addr().UnsafePointer(), vv.Addr().UnsafePointer()
		dupAPF := d.dm.opts.DupMapKey == DupMapKeyEnforcedAPF
		var before map[any]bool // keys the map had before (each may be set once)
		if dupAPF && mv.Len() > 0 {
			before = make(map[any]bool, mv.Len())
			for _, k := range mv.MapKeys() {
				before[k.Interface()] = true
			}
		}
		for {
			k, err := d.t.next()
			if err != nil {
				return err
			}
			if k._type == C.CBOR_FAST_TYPE_END {
				return nil
			}
			// (k does not outlive a joined key)
			koff, kdepth, ktype := int(k.offset), int(k.depth), k._type
			kv.SetZero()
			nerr := d.nerr
			if keyAny {
				// A key Go cannot hold or hash is kept as a type error and
				// drops its pair (below: d.nerr moved).
				x, ok, err := d.anyValue(k, C.uint32_t(kdepth))
				if err != nil {
					return err
				}
				if ok {
					if x, err = hashableKey(x, koff); err != nil {
						d.keepError(err)
					} else if x != nil {
						kv.Set(reflect.ValueOf(x))
					}
				}
			} else if err := kdec.fn(d, k, kp); err != nil {
				return err
			} else if keyCheck && !kv.Comparable() {
				// A slice or map in an interface of the key: SetMapIndex
				// would panic (hash of unhashable type).
				return invalidKey(cborTypeNames[ktype], koff)
			}
			v, err := d.t.next()
			if err != nil {
				return err
			}
			if d.nerr != nerr {
				// As fxamacker: a key that does not fit drops its pair.
				if _, err := d.t.skipRest(v); err != nil {
					return err
				}
				continue
			}
			vv.SetZero()
			if err := vdec.fn(d, v, vp); err != nil {
				return err
			}
			if d.nerr != nerr {
				continue // and so does a value that does not fit
			}
			if dupAPF {
				// As fxamacker: keys equal as Go values (a text and a byte
				// string key of a string map, 1 and 1.0 of a float one).
				n := mv.Len()
				mv.SetMapIndex(kv, vv)
				if mv.Len() == n {
					if ki := kv.Interface(); !before[ki] {
						return dupKeyError(koff, kdepth)
					} else {
						delete(before, ki)
					}
				}
				continue
			}
			mv.SetMapIndex(kv, vv)
		}
	}
}

// throughHopsDec gives the struct decoder's loops the fields behind
// embedded pointers (structInfo.paths) as ordinary fields at offset 0, whose
// decoder gets the struct's own address and follows the pointers,
// allocating the structs that are nil (as fxamacker does). The loops stay
// as they are for every other struct.
func throughHopsDec(si *structInfo, decs []*typeDec) ([]field, []*typeDec) {
	if si.paths == nil {
		return si.fields, decs
	}
	fields := append([]field(nil), si.fields...)
	decs = append([]*typeDec(nil), decs...)
	for i := range fields {
		path, offset := si.paths[i], si.fields[i].offset
		if path == nil {
			continue
		}
		inner := decs[i] // (its fn may still be in the making: read at each call)
		decs[i] = &typeDec{t: inner.t, fn: func(d *decState, it *citem, p unsafe.Pointer) error {
			return inner.fn(d, it, addrAlloc(p, path, offset))
		}}
		fields[i].offset, fields[i].prim = 0, primNone
	}
	return fields, decs
}

func structDec(t reflect.Type, td *typeDec) decFn {
	si := parseStruct(t)
	if si.err != nil {
		return func(d *decState, it *citem, p unsafe.Pointer) error { return si.err }
	}
	own := make([]*typeDec, len(si.fields))
	for i := range si.fields {
		own[i] = decoderLocked(si.fields[i].typ)
	}
	// Assigned once: a variable the closure captures and that is assigned
	// again is captured by reference (a load more per use: +3 % on twitter).
	fields, decs := throughHopsDec(si, own)
	type intKey struct {
		key int64
		idx int
	}
	var intKeys []intKey
	for i, f := range fields {
		if f.isInt {
			intKeys = append(intKeys, intKey{f.keyInt, i})
		}
	}
	return func(d *decState, it *citem, p unsafe.Pointer) error {
		switch it._type {
		case C.CBOR_FAST_TYPE_MAP:
			if si.toArray {
				return d.mismatch(it, t, "map into a toarray struct")
			}
		case C.CBOR_FAST_TYPE_ARRAY:
			if !si.toArray {
				return d.mismatch(it, t, "array into a struct without toarray")
			}
			// As fxamacker: an array of another length than the struct's
			// fields is a type error and sets no field.
			const reason = "array of a different length than the toarray struct's fields"
			if !isIndef(it) {
				if uint64(it.value) != uint64(len(fields)) {
					return d.mismatch(it, t, reason)
				}
				for i := range fields {
					e, err := d.t.next()
					if err != nil {
						return err
					}
					if err := decs[i].fn(d, e, unsafe.Add(p, fields[i].offset)); err != nil {
						return err
					}
				}
				_, err := d.t.next() // the array's END
				return err
			}
			// Indefinite: its length is known at its end, so the fields go
			// into a copy, kept only if the length was right.
			head := *it // `it` may not outlive the next call
			tmp := reflect.New(t)
			tp := tmp.UnsafePointer()
			for i := 0; ; i++ {
				e, err := d.t.next()
				if err != nil {
					return err
				}
				if e._type == C.CBOR_FAST_TYPE_END {
					if i != len(fields) {
						d.typeError(&head, t, reason)
						return nil
					}
					reflect.NewAt(t, p).Elem().Set(tmp.Elem())
					return nil
				}
				if i >= len(fields) {
					if _, err := d.t.skipRest(e); err != nil {
						return err
					}
					continue
				}
				if err := decs[i].fn(d, e, unsafe.Add(tp, fields[i].offset)); err != nil {
					return err
				}
			}
		default:
			return d.other(it, p, td)
		}
		guess := 0 // fields usually come in declaration order
		// Fields already given a value: a later key naming one again (the
		// same name, a case variant, a byte string) is a duplicate, as in
		// fxamacker: ErrDuplicateKey under DupMapKeyEnforcedAPF, else the
		// first value stays and the later one is passed over.
		var sk structKeys
		for {
			// d.t.next() by hand: it is over the inlining budget.
			var k *citem
			var err error
			if j := d.t.i; j < len(d.t.batch) {
				d.t.i = j + 1
				k = &d.t.batch[j]
			} else if k, err = d.t.refill(); err != nil {
				return err
			}
			idx := -1
			sk.joined = false
			switch k._type {
			case C.CBOR_FAST_TYPE_END:
				return nil
			case C.CBOR_FAST_TYPE_BYTES:
				if d.dm.opts.FieldNameByteString != FieldNameByteStringAllowed {
					// As fxamacker: a type error, the value passed over.
					if err := d.mismatch(k, stringType, "map key is of type byte string and cannot be used to match struct field name"); err != nil {
						return err
					}
					break
				}
				fallthrough
			case C.CBOR_FAST_TYPE_TEXT:
				var name []byte
				if isIndef(k) {
					sk.jOff, sk.jDepth, sk.joined = int(k.offset), int(k.depth), true
					if name, err = d.t.joinString(nil); err != nil {
						return err
					}
				} else {
					name = d.t.bytes(k)
				}
				if guess < len(fields) && !fields[guess].isInt && fields[guess].name == string(name) {
					idx = guess
				} else if j, ok := si.byName[string(name)]; ok {
					idx = j
				} else if idx = si.foldIndex(name); idx < 0 && d.dm.opts.DupMapKey == DupMapKeyEnforcedAPF &&
					d.dm.opts.FieldNameByteString == FieldNameByteStringAllowed {
					// Text and byte string keys of no field are equal
					// when their bytes are (the library compares them as
					// CBOR, where they differ).
					if sk.unmatchedTwice(name) {
						return sk.dupError(k)
					}
				}
			case C.CBOR_FAST_TYPE_UINT, C.CBOR_FAST_TYPE_NEGATIVE:
				if uint64(k.value) > math.MaxInt64 {
					if err := d.mismatch(k, int64Type, "overflows Go's int64"); err != nil {
						return err
					}
				} else {
					key := int64(k.value)
					if k._type == C.CBOR_FAST_TYPE_NEGATIVE {
						key = -1 - key
					}
					if guess < len(fields) && fields[guess].isInt && fields[guess].keyInt == key {
						idx = guess
					} else {
						for _, ik := range intKeys {
							if ik.key == key {
								idx = ik.idx
								break
							}
						}
					}
				}
			default:
				if err := d.mismatch(k, stringType, "map key is of type "+cborTypeNames[k._type]+" and cannot be used to match struct field name"); err != nil {
					return err
				}
			}
			if idx >= 0 && sk.seen(idx, len(fields)) { // (before the value is read: k is still valid)
				if d.dm.opts.DupMapKey == DupMapKeyEnforcedAPF {
					return sk.dupError(k)
				}
				idx = -1
			}
			var v *citem // (d.t.next() by hand)
			if j := d.t.i; j < len(d.t.batch) {
				d.t.i = j + 1
				v = &d.t.batch[j]
			} else if v, err = d.t.refill(); err != nil {
				return err
			}
			if idx < 0 {
				if _, err := d.t.skipRest(v); err != nil {
					return err
				}
				continue
			}
			guess = idx + 1
			q := unsafe.Add(p, fields[idx].offset)
			switch fields[idx].prim {
			case primString:
				if v._type == C.CBOR_FAST_TYPE_TEXT && !isIndef(v) {
					*(*string)(q) = d.t.box.str(d.t.bytes(v))
					continue
				}
			case primInt:
				if v._type == C.CBOR_FAST_TYPE_UINT && uint64(v.value) <= math.MaxInt {
					*(*int)(q) = int(v.value)
					continue
				}
			case primInt64:
				if v._type == C.CBOR_FAST_TYPE_UINT && uint64(v.value) <= math.MaxInt64 {
					*(*int64)(q) = int64(v.value)
					continue
				}
			case primUint64:
				if v._type == C.CBOR_FAST_TYPE_UINT {
					*(*uint64)(q) = uint64(v.value)
					continue
				}
			case primBool:
				if v._type == C.CBOR_FAST_TYPE_BOOL {
					*(*bool)(q) = v.value == 21
					continue
				}
			}
			if err := decs[idx].fn(d, v, q); err != nil {
				return err
			}
		}
	}
}

// structKeys is what a struct decoding remembers of the keys so far, for
// duplicates. It stays in memory (more fields than SSA keeps in registers):
// the key loop calls next() twice per pair, and every local live across a
// call is saved and reloaded around it.
type structKeys struct {
	found     uint64 // fields 0..63 given a value
	more      []bool // fields from 64 on, in structs that wide
	unmatched map[string]struct{}
	// the current key's position when it was joined (an indefinite
	// string: its item is overwritten by the chunks')
	joined       bool
	jOff, jDepth int
}

// seen marks field idx of n and reports whether it was marked before.
func (sk *structKeys) seen(idx, n int) bool {
	if idx < 64 {
		bit := uint64(1) << uint(idx)
		was := sk.found&bit != 0
		sk.found |= bit
		return was
	}
	if sk.more == nil {
		sk.more = make([]bool, n)
	}
	was := sk.more[idx]
	sk.more[idx] = true
	return was
}

// unmatchedTwice notes a name of no field and reports whether it came
// before (as text or as a byte string).
func (sk *structKeys) unmatchedTwice(name []byte) bool {
	if _, ok := sk.unmatched[string(name)]; ok {
		return true
	}
	if sk.unmatched == nil {
		sk.unmatched = map[string]struct{}{}
	}
	sk.unmatched[string(name)] = struct{}{}
	return false
}

// dupError is ErrDuplicateKey at the current key k (or where it was, if
// joined).
func (sk *structKeys) dupError(k *citem) error {
	if sk.joined {
		return dupKeyError(sk.jOff, sk.jDepth)
	}
	return dupKeyError(int(k.offset), int(k.depth))
}

// dupKeyError is ErrDuplicateKey at a key the Go value finds equal to an
// earlier one (DupMapKeyEnforcedAPF; the library finds keys equal as CBOR).
func dupKeyError(off, depth int) error {
	return &Error{Status: ErrDuplicateKey.Status, Code: CodeDuplicateKey, Message: ErrDuplicateKey.Message,
		Offset: off, Depth: depth}
}

func decTime(d *decState, it *citem, p unsafe.Pointer) error {
	// As fxamacker's default (DecTagIgnored): tag numbers other than 0 and 1
	// are passed over, and their content read as the time (a loop: one
	// iteration per tag, however many the input nests).
	it, done, err := d.underTags(it, timeType, true, func(n uint64) bool { return n == 0 || n == 1 })
	if done {
		return err
	}
	var c any
	num := uint64(1)
	switch it._type {
	case C.CBOR_FAST_TYPE_NULL, C.CBOR_FAST_TYPE_UNDEFINED:
		return nil // the time is left as it was (fxamacker's "not set")
	case C.CBOR_FAST_TYPE_TAG:
		num = uint64(it.value)
		off := int(it.offset)
		content, err := d.t.next()
		if err != nil {
			return err
		}
		if lim := d.dm.lim; content._type == C.CBOR_FAST_TYPE_TAG && (uint64(content.value) == selfDescribedTag ||
			(lim != nil && lim.later && content.value >= 21 && content.value <= 23)) {
			// Read from the top of buildAny, these tags would be passed
			// over as where a value starts; as a tag 0 or 1's content they
			// are a tag like any other, which no time is (as in an any).
			if _, err := d.t.skipRest(content); err != nil {
				return err
			}
			d.nerr++
			if d.err == nil {
				d.err = &UnmarshalTypeError{CBORType: "tag", GoType: "time.Time", Offset: off,
					Reason: "tag " + strconv.FormatUint(num, 10) + " content is tag " + strconv.FormatUint(uint64(content.value), 10)}
			}
			return nil
		}
		v, _, err := buildAny(&d.t, content, flavorAny, d.dm.lim)
		if err != nil {
			return err
		}
		tm, err := timeFromContent(num, v)
		if err != nil {
			d.nerr++
			if d.err == nil {
				d.err = &UnmarshalTypeError{CBORType: "tag", GoType: "time.Time", Offset: off, Reason: err.Error()}
			}
			return nil
		}
		*(*time.Time)(p) = tm
		return nil
	case C.CBOR_FAST_TYPE_TEXT:
		num = 0
		fallthrough
	case C.CBOR_FAST_TYPE_UINT, C.CBOR_FAST_TYPE_NEGATIVE, C.CBOR_FAST_TYPE_FLOAT:
		off := int(it.offset)
		v, _, err := buildAny(&d.t, it, flavorAny, d.dm.lim)
		if err != nil {
			return err
		}
		c = v
		tm, err := timeFromContent(num, c)
		if err != nil {
			d.nerr++
			if d.err == nil {
				d.err = &UnmarshalTypeError{CBORType: "value", GoType: "time.Time", Offset: off, Reason: err.Error()}
			}
			return nil
		}
		*(*time.Time)(p) = tm
		return nil
	}
	return d.mismatch(it, timeType, "")
}

func decBigInt(d *decState, it *citem, p unsafe.Pointer) error {
	it, err := d.skipSelfDescribed(it)
	if err != nil {
		return err
	}
	z := (*big.Int)(p)
	switch it._type {
	case C.CBOR_FAST_TYPE_UINT:
		z.SetUint64(uint64(it.value))
		return nil
	case C.CBOR_FAST_TYPE_NEGATIVE:
		z.SetUint64(uint64(it.value))
		z.Neg(z).Sub(z, bigOne)
		return nil
	case C.CBOR_FAST_TYPE_NULL, C.CBOR_FAST_TYPE_UNDEFINED:
		return nil
	case C.CBOR_FAST_TYPE_TAG:
		if it.value != 2 && it.value != 3 {
			return d.mismatch(it, bigIntType, "tag other than 2 or 3")
		}
		neg := it.value == 3
		c, err := d.t.next()
		if err != nil {
			return err
		}
		if c._type != C.CBOR_FAST_TYPE_BYTES {
			return d.mismatch(c, bigIntType, "bignum content is not a byte string")
		}
		b, err := d.t.content(c)
		if err != nil {
			return err
		}
		z.SetBytes(b)
		if neg {
			z.Neg(z).Sub(z, bigOne)
		}
		return nil
	}
	return d.mismatch(it, bigIntType, "")
}

// unmarshal is Unmarshal with a mode; with rest it returns the bytes after
// the first item instead of failing on them.
//
// Malformed input, a limit passed and (without rest) trailing bytes are
// found before anything is stored in v, which they leave as it was, as
// fxamacker (and encoding/json) do: an `any` target is built aside and
// stored last; any other is decoded after a first pass over the item
// (wellFormed). Type errors still leave the fields decoded so far, as
// fxamacker. checked: the caller made that pass already with frameOpts (the
// Decoder's boundary finder), which leaves only this side's checks.
func (dm *decMode) unmarshal(data []byte, v any, wantRest, checked bool) (rest []byte, err error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, &InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	if len(data) == 0 {
		// Nothing at all: also io.EOF (errors.Is), as fxamacker returns it.
		e := truncatedAt(0)
		e.empty = true
		return nil, e
	}
	et := rv.Type().Elem()
	td := decoderFor(et)
	d := decStates.Get().(*decState)
	defer func() {
		*d = decState{} // nothing of this call stays reachable from the pool
		decStates.Put(d)
	}()
	d.dm = dm
	d.t.noIndef = dm.opts.IndefLength == IndefLengthForbidden
	d.t.noTags = dm.opts.TagsMd == TagsForbidden
	d.t.limitSmaller(dm.lim)
	target := rv.UnsafePointer()
	var aside any
	if et == anyType {
		target = unsafe.Pointer(&aside)
	}
	if !d.t.noIndef && !d.t.noTags && d.t.small == 0 {
		// The first pass (not for an `any`, nor after the Decoder's
		// boundary finder checked what frameOpts asks), and the first
		// batch, in one call.
		var check *C.cf_reader_opts
		if et != anyType && !checked {
			check = &dm.frameOpts
		}
		err := d.t.begin(data, &dm.copts, check, wantRest)
		defer d.t.close()
		if err != nil {
			return nil, err
		}
	} else {
		if err := d.t.open(data, &dm.copts); err != nil {
			return nil, err
		}
		defer d.t.close()
		// This side's checks (IndefLengthForbidden, TagsForbidden, the
		// smaller limit) are not the boundary finder's: always a pass.
		if et != anyType {
			if err := d.t.wellFormed(&dm.frameOpts, &dm.copts, wantRest); err != nil {
				return nil, err
			}
		}
	}
	it, err := d.t.next()
	if err != nil {
		return nil, err
	}
	var ferr error
	if et == anyType {
		// Straight to buildAny: its first type error ends it (as an `any`
		// inside a value ends only itself, decoding going on after it).
		aside, _, ferr = buildAny(&d.t, it, flavorAny, dm.lim)
	} else {
		ferr = td.fn(d, it, target)
	}
	if err := ferr; err != nil {
		if et == anyType {
			// An `any` is built with no first pass, and stops at its first
			// error: malformed input, a limit, a forbidden tag or trailing
			// bytes after it come first, as for the other targets (a map
			// key Go cannot hash hid them). The pass runs only here.
			if werr := d.t.wellFormed(&dm.frameOpts, &dm.copts, wantRest); werr != nil {
				return nil, werr
			}
		}
		return nil, err
	}
	var end int
	if d.t.i < len(d.t.batch) {
		end = int(d.t.batch[d.t.i].offset)
	} else if d.t.i > 0 {
		// Past the last item the value took. Not the reader's offset: a
		// batch ends early before a truncated or malformed item, and the
		// reader has then moved past that item's head.
		end = itemEnd(&d.t.batch[d.t.i-1])
	} else {
		end = int(C.cbor_reader_offset(d.t.c.r))
	}
	if !wantRest && end != len(data) {
		return nil, trailingBytes(end)
	}
	if et == anyType {
		*(*any)(rv.UnsafePointer()) = aside
	}
	if wantRest {
		return data[end:], d.err
	}
	return nil, d.err
}

// decStates pools Unmarshal's state (its address goes to every decoding
// function: a new one each call was an allocation of 400 bytes and more).
var decStates = sync.Pool{New: func() any { return new(decState) }}

// truncatedAt is the error of input that ends where an item is due.
func truncatedAt(at int) *Error {
	return &Error{Status: ErrTruncated.Status, Code: CodeTruncated, Message: ErrTruncated.Message, Offset: at}
}

// trailingBytes is the error of bytes after the one item expected.
func trailingBytes(at int) *Error {
	return &Error{Status: ErrTrailingBytes.Status, Code: CodeTrailingBytes,
		Message: ErrTrailingBytes.Message, Offset: at}
}
