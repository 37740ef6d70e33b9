package cborfast

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Encoding runs in Go (no cgo): it appends preferred-serialization bytes to
// one buffer through per-type plans cached like the decoding ones. The tests
// check that its output equals the library's C writer (cbor_writer_*) byte
// for byte.

// EncodeOptions are the limits for Encode. The zero value gives the defaults.
type EncodeOptions struct {
	// MaxDepth is the most containers and tags that may be open at once;
	// 0 means DefaultEncodeMaxDepth, at most MaxEncodeDepthLimit. It also
	// stops a slice that contains itself.
	MaxDepth int
}

// DefaultEncodeMaxDepth is the depth limit of Encode when none is given.
const DefaultEncodeMaxDepth = 100000

// MaxEncodeDepthLimit is the largest EncodeOptions.MaxDepth and
// EncOptions.MaxNestedLevels. The encoder recurses once per level: a slice
// that contains itself took 368 bytes of goroutine stack a level, a struct
// whose pointer field points back to it about 1 KB for its two levels, and
// any limit was accepted, so a limit in the millions let such a value reach
// Go's 1 GB stack limit, a fatal error that recover() does not catch.
const MaxEncodeDepthLimit = 1 << 18

// Encode writes v as CBOR in preferred serialization: shortest heads and
// floats, a Map in its order, Go maps with their keys sorted length-first
// (RFC 8949 section 4.2.3; for text keys below 24 bytes the same as
// bytewise; two keys that encode alike are an UnsupportedValueError), nil
// slices and maps as empty ones. It takes Decode's types and every type
// Marshal takes.
func Encode(v any) ([]byte, error) { return EncodeOptions{}.Encode(v) }

var classicModes sync.Map // depth -> *encMode

// Encode writes v as CBOR with these options.
func (o EncodeOptions) Encode(v any) ([]byte, error) {
	d := o.MaxDepth
	if d <= 0 {
		d = DefaultEncodeMaxDepth
	}
	if d > MaxEncodeDepthLimit {
		return nil, fmt.Errorf("cborfast: invalid MaxDepth %d (at most %d)", o.MaxDepth, MaxEncodeDepthLimit)
	}
	var em *encMode
	if m, ok := classicModes.Load(d); ok {
		em = m.(*encMode)
	} else {
		em = &encMode{opts: EncOptions{Sort: SortLengthFirst, ShortestFloat: ShortestFloat16,
			NaNConvert: NaNConvertPreserveSignal, InfConvert: InfConvertFloat16, NilContainers: NilContainerAsEmpty},
			maxDepth: d, classic: true}
		classicModes.Store(d, em)
	}
	return em.Marshal(v)
}

// Marshal encodes v with this mode.
func (em *encMode) Marshal(v any) ([]byte, error) {
	// Encoding appends to a pooled (cache-warm) buffer; the result is one
	// copy of it (not zeroed first). Writing into a new buffer sized from
	// the last output instead measured slower: zeroing plus writing cold
	// memory costs more than one copy.
	e := getEncState(em)
	b, err := e.value(e.buf, v)
	var out []byte
	if err == nil {
		out = bytes.Clone(b)
	}
	e.buf = b[:0]
	putEncState(e)
	return out, err
}

type encState struct {
	buf   []byte
	em    *encMode
	depth int
	// str is the major type of Go strings (0x60, or 0x40 for
	// StringToByteString); a tag 0's content is text whatever the mode.
	str byte
	// fieldBytes: FieldNameToByteString.
	fieldBytes bool
	// word: the pointer value passes to its encoder (see value).
	word unsafe.Pointer
	// Scratch of the sorted map[any]any and map[string]any paths, kept
	// with the pooled state (no allocation per map): a map takes its part
	// above what the maps around it hold and gives it back when it is
	// written, so a map nested in a value uses the room above its
	// parent's.
	keys  []byte          // the keys' encodings
	spans []keySpan       // where each key is in keys, and its value's index
	vals  []any           // the values of map[any]any
	pairs []textPair[any] // the pairs of map[string]any
}

var encStates = sync.Pool{New: func() any { return &encState{buf: make([]byte, 0, 4096)} }}

func getEncState(em *encMode) *encState {
	e := encStates.Get().(*encState)
	e.em, e.depth, e.buf = em, 0, e.buf[:0]
	e.str, e.fieldBytes = 0x60, em.opts.FieldName == FieldNameToByteString
	if em.opts.String == StringToByteString {
		e.str = 0x40
	}
	return e
}

func putEncState(e *encState) {
	// A failed Marshal leaves its maps' scratch behind: drop the values it
	// refers to, and the scratch if it grew large.
	clear(e.vals)
	clear(e.pairs)
	e.keys, e.spans, e.vals, e.pairs = e.keys[:0], e.spans[:0], e.vals[:0], e.pairs[:0]
	if cap(e.buf) <= 64<<20 && cap(e.keys) <= 16<<20 && cap(e.spans)+cap(e.vals)+cap(e.pairs) <= 1<<20 {
		encStates.Put(e)
	}
}

// errMapChanged: a MarshalCBOR (or MarshalBinary) of a key or value added
// or removed entries of the map being written, whose head had given its
// size.
var errMapChanged = &UnsupportedValueError{Reason: "map changed size while it was encoded"}

// mapAnyAny writes a map[any]any, the type Unmarshal gives an `any` for a
// map, without reflection.
func (e *encState) mapAnyAny(b []byte, m map[any]any) (_ []byte, err error) {
	if m == nil {
		return e.nilContainer(b, 0xa0), nil
	}
	if err := e.enter(b); err != nil {
		return b, err
	}
	n := len(m)
	b = appendHead(b, 0xa0, uint64(n))
	if e.em.opts.Sort != SortNone && n > 1 {
		// Keys first (see keySpan), in the scratch.
		k0, s0, v0 := len(e.keys), len(e.spans), len(e.vals)
		i := 0
		for k, v := range m {
			if i == n {
				break
			}
			start := len(e.keys) - k0
			if err := e.appendKey(k); err != nil {
				return b, err
			}
			e.spans = append(e.spans, keySpan{start, len(e.keys) - k0, i})
			e.vals = append(e.vals, v)
			i++
		}
		if i != n {
			return b, errMapChanged
		}
		if err := e.sortKeys(e.keys[k0:], e.spans[s0:]); err != nil {
			return b, err
		}
		for j := 0; j < n; j++ {
			// Through e each time: a nested map may have grown the scratch.
			sp := e.spans[s0+j]
			b = append(b, e.keys[k0+sp.start:k0+sp.end]...)
			if b, err = e.value(b, e.vals[v0+sp.index]); err != nil {
				return b, err
			}
		}
		clear(e.vals[v0:])
		e.keys, e.spans, e.vals = e.keys[:k0], e.spans[:s0], e.vals[:v0]
		e.depth--
		return b, nil
	}
	i := 0
	for k, v := range m {
		if i == n {
			return b, errMapChanged
		}
		if b, err = e.value(b, k); err != nil {
			return b, err
		}
		if b, err = e.value(b, v); err != nil {
			return b, err
		}
		i++
	}
	if i != n {
		return b, errMapChanged
	}
	e.depth--
	return b, nil
}

// appendKey appends the encoding of a sorted map's key to e.keys. A key
// that could hold a sorted map of its own (a pointer to a struct, a Tag)
// is encoded apart first, since that map's scratch goes above e.keys.
func (e *encState) appendKey(k any) (err error) {
	switch k.(type) {
	case string, uint64, int64, int, float64, bool, nil, ByteString:
		e.keys, err = e.value(e.keys, k)
		return err
	}
	kb, err := e.value(nil, k)
	e.keys = append(e.keys, kb...)
	return err
}

// mapStringAny writes a map[string]any without reflection.
func (e *encState) mapStringAny(b []byte, m map[string]any) (_ []byte, err error) {
	if m == nil {
		return e.nilContainer(b, 0xa0), nil
	}
	if err := e.enter(b); err != nil {
		return b, err
	}
	n := len(m)
	b = appendHead(b, 0xa0, uint64(n))
	if e.em.opts.Sort != SortNone && n > 1 {
		// Text keys sort as strings (textKeyOrder), each with its value,
		// taken in the one pass over the map, in the scratch.
		p0 := len(e.pairs)
		for k, v := range m {
			e.pairs = append(e.pairs, textPair[any]{k, v})
		}
		slices.SortFunc(e.pairs[p0:], func(a, b textPair[any]) int { return textKeyOrder(a.k, b.k) })
		for j := 0; j < n; j++ {
			p := e.pairs[p0+j]
			b = append(appendHead(b, e.str, uint64(len(p.k))), p.k...)
			if b, err = e.value(b, p.v); err != nil {
				return b, err
			}
		}
		clear(e.pairs[p0:])
		e.pairs = e.pairs[:p0]
		e.depth--
		return b, nil
	}
	i := 0
	for k, v := range m {
		if i == n {
			return b, errMapChanged
		}
		b = append(appendHead(b, e.str, uint64(len(k))), k...)
		if b, err = e.value(b, v); err != nil {
			return b, err
		}
		i++
	}
	if i != n {
		return b, errMapChanged
	}
	e.depth--
	return b, nil
}

// UnsupportedTypeError is returned by Encode and Marshal for a Go value they
// cannot write (channels, functions, complex numbers, unsafe pointers).
type UnsupportedTypeError struct {
	Type string // the value's type, as fmt's %T prints it
}

func (e *UnsupportedTypeError) Error() string {
	return "cborfast: cannot encode a value of type " + e.Type
}

// UnsupportedValueError is a value Marshal refuses (a NaN or infinity under
// the Reject modes).
type UnsupportedValueError struct{ Reason string }

func (e *UnsupportedValueError) Error() string { return "cborfast: unsupported value: " + e.Reason }

func appendHead(b []byte, major byte, n uint64) []byte {
	switch {
	case n < 24:
		return append(b, major|byte(n))
	case n <= math.MaxUint8:
		return append(b, major|24, byte(n))
	case n <= math.MaxUint16:
		return append(b, major|25, byte(n>>8), byte(n))
	case n <= math.MaxUint32:
		return append(b, major|26, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
	return binary.BigEndian.AppendUint64(append(b, major|27), n)
}

func appendInt(b []byte, v int64) []byte {
	if v >= 0 {
		return appendHead(b, 0x00, uint64(v))
	}
	return appendHead(b, 0x20, uint64(-1-v))
}

// f32ToF16 is the half with exactly the value (or NaN payload) of a float32.
func f32ToF16(f uint32) (uint16, bool) {
	sign := uint16(f>>16) & 0x8000
	exp := int(f>>23) & 0xff
	mant := f & 0x7fffff
	switch {
	case exp == 0xff:
		if mant&0x1fff != 0 {
			return 0, false
		}
		return sign | 0x7c00 | uint16(mant>>13), true
	case exp == 0 && mant == 0:
		return sign, true
	case exp == 0:
		return 0, false
	}
	e := exp - 127
	switch {
	case e >= -14 && e <= 15:
		if mant&0x1fff != 0 {
			return 0, false
		}
		return sign | uint16(e+15)<<10 | uint16(mant>>13), true
	case e >= -24 && e < -14:
		fm := mant | 0x800000
		shift := uint(-(e + 1))
		if fm&(1<<shift-1) != 0 {
			return 0, false
		}
		return sign | uint16(fm>>shift), true
	}
	return 0, false
}

func (e *encState) float(b []byte, f float64, is32 bool) ([]byte, error) {
	bits := math.Float64bits(f)
	if bits>>52&0x7ff != 0x7ff { // finite
		if e.em.opts.ShortestFloat != ShortestFloatNone {
			return appendShortestFloat(b, f), nil
		}
		if !is32 {
			return binary.BigEndian.AppendUint64(append(b, 0xfb), bits), nil
		}
		return binary.BigEndian.AppendUint32(append(b, 0xfa), math.Float32bits(float32(f))), nil
	}
	return e.floatSpecial(b, f, is32)
}

// floatSpecial writes a NaN or an infinity per NaNConvert and InfConvert,
// as fxamacker does (ShortestFloat is not applied to them). A float32's
// NaN comes through float32NaN, which keeps its bits.
func (e *encState) floatSpecial(b []byte, f float64, is32 bool) ([]byte, error) {
	o := &e.em.opts
	bits := math.Float64bits(f)
	if math.IsNaN(f) {
		switch o.NaNConvert {
		case NaNConvert7e00:
			return append(b, 0xf9, 0x7e, 0x00), nil
		case NaNConvertReject:
			return b, &UnsupportedValueError{Reason: "NaN"}
		case NaNConvertNone:
			if is32 { // (only from float32NaN's callers' conversions)
				return binary.BigEndian.AppendUint32(append(b, 0xfa), math.Float32bits(float32(f))), nil
			}
			return binary.BigEndian.AppendUint64(append(b, 0xfb), bits), nil
		case NaNConvertQuiet:
			bits |= 1 << 51
		}
		return appendShortestFloat(b, math.Float64frombits(bits)), nil
	}
	switch o.InfConvert {
	case InfConvertFloat16:
		if f > 0 {
			return append(b, 0xf9, 0x7c, 0x00), nil
		}
		return append(b, 0xf9, 0xfc, 0x00), nil
	case InfConvertReject:
		return b, &UnsupportedValueError{Reason: "infinity"}
	}
	if is32 {
		return binary.BigEndian.AppendUint32(append(b, 0xfa), math.Float32bits(float32(f))), nil
	}
	return binary.BigEndian.AppendUint64(append(b, 0xfb), bits), nil
}

// float32v writes a float32: a NaN from its own 32 bits (converting it to
// float64 sets the quiet bit of a signalling NaN on amd64), the rest as
// float does.
func (e *encState) float32v(b []byte, x float32) ([]byte, error) {
	bits := math.Float32bits(x)
	if bits&0x7f800000 != 0x7f800000 || bits&0x7fffff == 0 { // not a NaN
		return e.float(b, float64(x), true)
	}
	switch e.em.opts.NaNConvert {
	case NaNConvertNone:
		return binary.BigEndian.AppendUint32(append(b, 0xfa), bits), nil
	case NaNConvertPreserveSignal, NaNConvertQuiet:
		if e.em.opts.NaNConvert == NaNConvertQuiet {
			bits |= 1 << 22
		}
		if h, ok := f32ToF16(bits); ok {
			return append(b, 0xf9, byte(h>>8), byte(h)), nil
		}
		return binary.BigEndian.AppendUint32(append(b, 0xfa), bits), nil
	}
	return e.floatSpecial(b, float64(x), true)
}

// appendShortestFloat writes the shortest width that keeps f exactly, NaN
// payloads included (as the C writer does).
func appendShortestFloat(b []byte, f float64) []byte {
	bits := math.Float64bits(f)
	var f32 uint32
	ok32 := false
	if math.IsNaN(f) {
		if bits&0x1fffffff == 0 {
			f32 = uint32(bits>>32)&0x80000000 | 0x7f800000 | uint32(bits>>29)&0x7fffff
			ok32 = true
		}
	} else if float64(float32(f)) == f {
		f32, ok32 = math.Float32bits(float32(f)), true
	}
	if !ok32 {
		return binary.BigEndian.AppendUint64(append(b, 0xfb), bits)
	}
	if h, ok := f32ToF16(f32); ok {
		return append(b, 0xf9, byte(h>>8), byte(h))
	}
	return binary.BigEndian.AppendUint32(append(b, 0xfa), f32)
}

// floats writes fs as e.float does, the room for them made once (float64
// slices and arrays: canada's coordinates).
func (e *encState) floats(b []byte, fs []float64) (_ []byte, err error) {
	if e.em.opts.ShortestFloat != ShortestFloatNone {
		for _, f := range fs {
			if b, err = e.float(b, f, false); err != nil {
				return b, err
			}
		}
		return b, nil
	}
	b = slices.Grow(b, 9*len(fs))
	for _, f := range fs {
		bits := math.Float64bits(f)
		if bits>>52&0x7ff == 0x7ff { // NaN, infinity: per NaNConvert, InfConvert
			if b, err = e.floatSpecial(b, f, false); err != nil {
				return b, err
			}
			continue
		}
		n := len(b)
		b = b[:n+9]
		b[n] = 0xfb
		binary.BigEndian.PutUint64(b[n+1:], bits)
	}
	return b, nil
}

func (e *encState) enter(b []byte) error {
	e.depth++
	if e.depth > e.em.maxDepth {
		err := statusError(statusDepth)
		err.Offset = len(b)
		err.Depth = e.em.maxDepth + 1
		return err
	}
	return nil
}

func (e *encState) nilContainer(b []byte, major byte) []byte {
	if e.em.opts.NilContainers == NilContainerAsEmpty {
		b = append(b, major)
	} else {
		b = append(b, 0xf6)
	}
	return b
}

// value writes a value of any type, with fast paths for the usual dynamic
// types.
func (e *encState) value(b []byte, v any) (_ []byte, err error) {
	switch x := v.(type) {
	case nil:
		b = append(b, 0xf6)
		return b, nil
	case string:
		b = append(appendHead(b, e.str, uint64(len(x))), x...)
		return b, nil
	case bool:
		if x {
			b = append(b, 0xf5)
		} else {
			b = append(b, 0xf4)
		}
		return b, nil
	case uint64:
		b = appendHead(b, 0x00, x)
		return b, nil
	case int64:
		b = appendInt(b, x)
		return b, nil
	case int:
		b = appendInt(b, int64(x))
		return b, nil
	case float64:
		return e.float(b, x, false)
	case []byte:
		if x == nil { // per NilContainers, as the typed paths (it was always null)
			return e.nilContainer(b, 0x40), nil
		}
		b = append(appendHead(b, 0x40, uint64(len(x))), x...)
		return b, nil
	case []any:
		if x == nil {
			return e.nilContainer(b, 0x80), nil
		}
		if err := e.enter(b); err != nil {
			return b, err
		}
		b = appendHead(b, 0x80, uint64(len(x)))
		for _, y := range x {
			if b, err = e.value(b, y); err != nil {
				return b, err
			}
		}
		e.depth--
		return b, nil
	case Map:
		if err := e.enter(b); err != nil {
			return b, err
		}
		b = appendHead(b, 0xa0, uint64(len(x)))
		for _, p := range x {
			if b, err = e.value(b, p.Key); err != nil {
				return b, err
			}
			if b, err = e.value(b, p.Value); err != nil {
				return b, err
			}
		}
		e.depth--
		return b, nil
	case Tag:
		if e.em.opts.TagsMd == TagsForbidden {
			return b, fmt.Errorf("cborfast: cannot encode a Tag when TagsMd is TagsForbidden")
		}
		if err := e.enter(b); err != nil {
			return b, err
		}
		b = appendHead(b, 0xc0, x.Number)
		str := e.str
		if x.Number == 0 {
			e.str = 0x60 // RFC 3339 text, as fxamacker writes it
		}
		b, err = e.value(b, x.Content)
		e.str = str
		if err != nil {
			return b, err
		}
		e.depth--
		return b, nil
	case Simple:
		return e.simple(b, uint8(x))
	case SimpleValue:
		return e.simple(b, uint8(x))
	case UndefinedType:
		b = append(b, 0xf7)
		return b, nil
	case *big.Int:
		if x == nil {
			b = append(b, 0xf6)
			return b, nil
		}
		return e.bigInt(b, x)
	case big.Int:
		return e.bigInt(b, &x)
	case ByteString:
		b = append(appendHead(b, 0x40, uint64(len(x))), x...)
		return b, nil
	case map[any]any:
		return e.mapAnyAny(b, x)
	case map[string]any:
		return e.mapStringAny(b, x)
	}
	rv := reflect.ValueOf(v)
	t := rv.Type()
	switch t.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			b = append(b, 0xf6)
			return b, nil
		}
		// A pointer's encoder reads the word it is given before anything
		// else: it is given e.word, as a local's address would escape (an
		// allocation per Marshal of a pointer).
		e.word = rv.UnsafePointer()
		b, err = encoderFor(t).fn(e, b, unsafe.Pointer(&e.word))
		e.word = nil
		return b, err
	case reflect.Map:
		// Pointer-shaped: the interface holds the value itself.
		p := rv.UnsafePointer()
		return encoderFor(t).fn(e, b, unsafe.Pointer(&p))
	case reflect.Struct, reflect.Array:
		te := encoderFor(t)
		if te.inPlace && t.Size() != unsafe.Sizeof(uintptr(0)) {
			// Not pointer-sized, so not stored in the interface itself:
			// its data word points at the value, read there (a copy and an
			// allocation per Marshal of a struct by value); not when a
			// method with a pointer receiver could write to it (the
			// interface's value may be read-only data).
			return te.fn(e, b, (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1])
		}
		// A struct or array of one pointer may be the data word itself.
		nv := reflect.New(t)
		nv.Elem().Set(rv)
		return te.fn(e, b, nv.UnsafePointer())
	}
	// Other kinds are stored indirectly: the data word points at the value.
	return encoderFor(t).fn(e, b, (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1])
}

// simple writes a simple value; 24..31 are not well-formed (invalid_argument
// at the offset reached, as the C writer reports it).
func (e *encState) simple(b []byte, x uint8) ([]byte, error) {
	if x >= 24 && x < 32 {
		err := statusError(statusInvalidArgument)
		err.Offset = len(b)
		return b, err
	}
	b = appendHead(b, 0xe0, uint64(x))
	return b, nil
}

func (e *encState) bigInt(b []byte, z *big.Int) ([]byte, error) {
	if e.em.opts.BigIntConvert == BigIntConvertShortest || e.em.classic {
		if z.IsUint64() {
			return appendHead(b, 0x00, z.Uint64()), nil
		}
		if z.Sign() < 0 {
			m := new(big.Int).Neg(z)
			m.Sub(m, bigOne)
			if m.IsUint64() {
				return appendHead(b, 0x20, m.Uint64()), nil
			}
		}
	}
	if e.em.opts.TagsMd == TagsForbidden {
		return b, fmt.Errorf("cborfast: cannot encode big.Int outside CBOR integer range when TagsMd is TagsForbidden")
	}
	if z.Sign() >= 0 {
		m := z.Bytes()
		return append(appendHead(append(b, 0xc2), 0x40, uint64(len(m))), m...), nil
	}
	m := new(big.Int).Neg(z)
	mb := m.Sub(m, bigOne).Bytes()
	return append(appendHead(append(b, 0xc3), 0x40, uint64(len(mb))), mb...), nil
}

func (e *encState) time(b []byte, t time.Time) ([]byte, error) {
	if t.IsZero() {
		b = append(b, 0xf6)
		return b, nil
	}
	o := &e.em.opts
	text := o.Time >= TimeRFC3339
	if o.TimeTag == EncTagRequired {
		if text {
			b = append(b, 0xc0)
		} else {
			b = append(b, 0xc1)
		}
	}
	switch o.Time {
	case TimeUnix:
		return appendInt(b, t.Unix()), nil
	case TimeUnixMicro:
		// As fxamacker computes it: from UnixNano where that holds the time
		// (its bytes unchanged there), else seconds plus the fraction
		// (UnixNano overflows outside 1678-2262: 2300 came out as 1715).
		t = t.UTC().Round(time.Microsecond)
		if secs := t.Unix(); secs >= math.MinInt64/1_000_000_000 && secs <= math.MaxInt64/1_000_000_000-1 {
			return e.float(b, float64(t.UnixNano())/1e9, false)
		}
		return e.float(b, float64(t.Unix())+float64(t.Nanosecond())/1e9, false)
	case TimeUnixDynamic:
		t = t.UTC().Round(time.Microsecond)
		if t.Nanosecond() == 0 {
			b = appendInt(b, t.Unix())
			return b, nil
		}
		return e.float(b, float64(t.Unix())+float64(t.Nanosecond())/1e9, false)
	}
	var s string
	switch o.Time {
	case TimeRFC3339:
		s = t.Format(time.RFC3339)
	case TimeRFC3339NanoUTC:
		s = t.UTC().Format(time.RFC3339Nano)
	default:
		s = t.Format(time.RFC3339Nano)
	}
	if reason := rfc3339Limits(s); reason != "" {
		return b, &UnsupportedValueError{Reason: reason}
	}
	return append(appendHead(b, e.str, uint64(len(s))), s...), nil // String's major type, as fxamacker
}

// rfc3339Limits says why s, a time formatted with Go's RFC 3339 layouts, is
// not RFC 3339 (Go writes years past 9999 or before 0 and offsets of a day
// or more as they are), or "" when it is; fxamacker refuses the same.
func rfc3339Limits(s string) string {
	if len(s) < 5 || s[4] != '-' {
		return "time.Time year outside of range [0,9999] for RFC 3339"
	}
	if z := s[len(s)-1]; z != 'Z' {
		zone := s[max(0, len(s)-6):]
		if (zone[0] != '+' && zone[0] != '-') || zone[1] > '2' || (zone[1] == '2' && zone[2] >= '4') {
			return "time.Time UTC offset outside of range [-23:59,+23:59] for RFC 3339"
		}
	}
	return ""
}

// checkMarshaled reads a MarshalCBOR output (a RawMessage's too) with the
// library's reader: it must be exactly one well-formed item, and under
// IndefLengthForbidden (noIndef) hold no indefinite-length item, else
// written as it is it would make the output say something else. The error
// is an *Error at its offset in the output, at being where m is to be
// written: the item's own (CodeTruncated for a cut or empty output,
// CodeIndefiniteLength), or CodeTrailingBytes at a second item. fxamacker
// refuses such output too.
func checkMarshaled(m []byte, at int, noIndef bool) error {
	if wellFormedPlain(m) {
		return nil
	}
	return checkMarshaledLib(m, at, noIndef)
}

// checkMarshaledLib is checkMarshaled through the library.
func checkMarshaledLib(m []byte, at int, noIndef bool) error {
	place := func(e *Error) *Error {
		c := *e // the sticky error is not shared, but keep it unchanged
		c.Offset += at
		c.ItemOffset += at
		return &c
	}
	var t tokens
	t.noIndef = noIndef
	if err := t.open(m, nil); err != nil {
		return err
	}
	defer t.close()
	end, err := t.atEnd()
	if err == nil && end {
		return place(truncatedAt(0))
	}
	if err == nil {
		var it *citem
		if it, err = t.next(); err == nil {
			_, err = t.skipRest(it)
		}
	}
	if err == nil {
		if end, err = t.atEnd(); err == nil && !end {
			next := int(t.batch[t.i].offset)
			return place(&Error{Status: ErrTrailingBytes.Status, Code: CodeTrailingBytes,
				Message: ErrTrailingBytes.Message, Offset: next, ItemOffset: next})
		}
	}
	if e, ok := err.(*Error); ok {
		return place(e)
	}
	return err
}

// wellFormedPlain reports whether m is exactly one well-formed data item of
// definite lengths, no simple value in two bytes, nested at most
// plainDepth deep: what MarshalCBOR returns nearly always is, and checking
// that here costs a few instructions a byte where the library's check was
// a pooled reader, a pin and three cgo calls (about 4,900 instructions for
// a small value). Anything else (false) goes to the library, which gives
// the error and its offset. Within these bounds none of the library's
// default limits can be reached (depth 512, 2^24 entries, 2^28 items).
func wellFormedPlain(m []byte) bool {
	end, ok := plainItemEnd(m, plainLimits{plainDepth + 1, plainMax, plainMax, plainMax})
	return ok && end == len(m)
}

// plainLimits: reader limits (depth, string length, entries of a container,
// items) a plain scan keeps strictly below.
type plainLimits struct{ depth, str, entries, items uint64 }

// plainItemEnd is where the first data item of m ends, when all of it is
// there, it is plainly well-formed (as wellFormedPlain's), no more than
// plainMax bytes long, nested at most plainDepth deep, and strictly
// within the limits l. ok false: the library decides (more input, an
// error, a limit).
func plainItemEnd(m []byte, l plainLimits) (end int, ok bool) {
	maxDepth, maxStr, maxEntries, maxItems := min(l.depth, plainDepth+1), l.str, l.entries, l.items
	if len(m) > plainMax {
		m = m[:plainMax] // a longer item is the library's
	}
	var left [plainDepth + 1]uint64 // items due at each open level
	depth, i, items := 0, 0, uint64(0)
	left[0] = 1
	for {
		for left[depth] == 0 {
			if depth == 0 {
				return i, true
			}
			depth--
		}
		if i >= len(m) {
			return 0, false
		}
		if items++; items >= maxItems {
			return 0, false
		}
		b := m[i]
		i++
		major, ai := b>>5, b&31
		var arg uint64
		switch {
		case ai < 24:
			arg = uint64(ai)
		case ai <= 27:
			n := 1 << (ai - 24)
			if n > len(m)-i {
				return 0, false
			}
			for _, c := range m[i : i+n] {
				arg = arg<<8 | uint64(c)
			}
			i += n
		default:
			return 0, false // reserved, or indefinite, or a break
		}
		left[depth]--
		switch major {
		case 2, 3:
			if arg > uint64(len(m)-i) || arg >= maxStr {
				return 0, false
			}
			i += int(arg)
		case 4, 5:
			if arg > uint64(len(m)-i) || arg >= maxEntries {
				return 0, false
			}
			if major == 5 {
				arg *= 2
			}
			if arg > 0 {
				if uint64(depth+1) >= maxDepth {
					return 0, false
				}
				depth++
				left[depth] = arg
			}
		case 6:
			if uint64(depth+1) >= maxDepth {
				return 0, false
			}
			depth++
			left[depth] = 1
		case 7:
			if ai == 24 && arg < 32 {
				return 0, false
			}
		}
	}
}

const (
	plainMax   = 1 << 16
	plainDepth = 32
)

type encFn func(e *encState, b []byte, p unsafe.Pointer) ([]byte, error)

type typeEnc struct {
	fn    encFn
	empty func(em *encMode, p unsafe.Pointer) bool
	t     reflect.Type
	// inPlace: no method with a pointer receiver is reached through the
	// value's own memory (its fields and elements, not what they point
	// to), so fn may read it where an interface holds it.
	inPlace bool
}

// noPointerMethods: what inPlace says of t (MarshalCBOR, MarshalBinary
// and omitzero's IsZero are the methods an encoder calls through a pointer
// to the value; any such method of *t counts, value receivers too).
func noPointerMethods(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	if pt.Implements(marshalerType) || pt.Implements(binMarshaler) || pt.Implements(isZeroerType) {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if !noPointerMethods(t.Field(i).Type) {
				return false
			}
		}
	case reflect.Array:
		return noPointerMethods(t.Elem())
	}
	return true
}

var (
	encCache      sync.Map
	encBuildMu    sync.Mutex
	encBuilding   = map[reflect.Type]*typeEnc{}
	marshalerType = reflect.TypeFor[Marshaler]()
	isZeroerType  = reflect.TypeFor[interface{ IsZero() bool }]()
	binMarshaler  = reflect.TypeFor[encoding.BinaryMarshaler]()
)

// isBinaryMarshaler: t is written through MarshalBinary (by default) when
// no rule of the package's own comes first.
func isBinaryMarshaler(t reflect.Type) bool {
	return t != timeType && t != bigIntType && t != byteStringType &&
		t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer &&
		(t.Implements(binMarshaler) || reflect.PointerTo(t).Implements(binMarshaler))
}

func encoderFor(t reflect.Type) *typeEnc {
	if v, ok := encCache.Load(t); ok {
		return v.(*typeEnc)
	}
	encBuildMu.Lock()
	defer encBuildMu.Unlock()
	return encoderLocked(t)
}

func encoderLocked(t reflect.Type) *typeEnc {
	if v, ok := encCache.Load(t); ok {
		return v.(*typeEnc)
	}
	if te, ok := encBuilding[t]; ok {
		return te
	}
	te := &typeEnc{t: t, inPlace: noPointerMethods(t)}
	encBuilding[t] = te
	buildEnc(t, te)
	if registrable(t) {
		te.fn = withEncTags(t, te.fn)
	}
	delete(encBuilding, t)
	encCache.Store(t, te)
	return te
}

func buildEnc(t reflect.Type, te *typeEnc) {
	te.empty = emptyFn(t)
	if t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer {
		if t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) {
			te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
				m, err := reflect.NewAt(t, p).Interface().(Marshaler).MarshalCBOR()
				if err != nil {
					return b, err
				}
				if err := checkMarshaled(m, len(b), e.em.opts.IndefLength == IndefLengthForbidden); err != nil {
					return b, err
				}
				return append(b, m...), nil
			}
			return
		}
	}
	if isBinaryMarshaler(t) {
		// The type itself under BinaryMarshalerNone (its encoder, as if
		// it had no MarshalBinary); the encoding under the default.
		alt := &typeEnc{t: t}
		buildEncOf(t, alt)
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			if e.em.opts.BinaryMarshaler == BinaryMarshalerNone {
				return alt.fn(e, b, p)
			}
			m, err := reflect.NewAt(t, p).Interface().(encoding.BinaryMarshaler).MarshalBinary()
			if err != nil {
				return b, err
			}
			return append(appendHead(b, 0x40, uint64(len(m))), m...), nil
		}
		return
	}
	buildEncOf(t, te)
}

// buildEncOf builds the encoder of t from its kind (the package's own types
// first), ignoring the interfaces buildEnc looks for.
func buildEncOf(t reflect.Type, te *typeEnc) {
	switch t {
	case simpleValueType:
		// a simple value wherever it is, as fxamacker's SimpleValue (its
		// kind would make it a number)
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return e.simple(b, uint8(*(*SimpleValue)(p)))
		}
		return
	case timeType:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return e.time(b, *(*time.Time)(p))
		}
		return
	case bigIntType:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return e.bigInt(b, (*big.Int)(p))
		}
		return
	case tagType:
		// a tag wherever it is (a field, an element), as in an any: it
		// had been written as a map of its two fields
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return e.value(b, *(*Tag)(p))
		}
		return
	case byteStringType:
		// A byte string wherever it is (a field, an element, a map key), as
		// in an `any` and as fxamacker's ByteString.
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			s := *(*string)(p)
			return append(appendHead(b, 0x40, uint64(len(s))), s...), nil
		}
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			if *(*bool)(p) {
				b = append(b, 0xf5)
			} else {
				b = append(b, 0xf4)
			}
			return b, nil
		}
	case reflect.Int:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendInt(b, int64(*(*int)(p))), nil
		}
	case reflect.Int8:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendInt(b, int64(*(*int8)(p))), nil
		}
	case reflect.Int16:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendInt(b, int64(*(*int16)(p))), nil
		}
	case reflect.Int32:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendInt(b, int64(*(*int32)(p))), nil
		}
	case reflect.Int64:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendInt(b, *(*int64)(p)), nil
		}
	case reflect.Uint:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendHead(b, 0, uint64(*(*uint)(p))), nil
		}
	case reflect.Uintptr:
		// an address, not data: refused, as fxamacker refuses it
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return b, &UnsupportedTypeError{Type: t.String()}
		}
	case reflect.Uint8:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendHead(b, 0, uint64(*(*uint8)(p))), nil
		}
	case reflect.Uint16:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendHead(b, 0, uint64(*(*uint16)(p))), nil
		}
	case reflect.Uint32:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendHead(b, 0, uint64(*(*uint32)(p))), nil
		}
	case reflect.Uint64:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return appendHead(b, 0, *(*uint64)(p)), nil
		}
	case reflect.Float32:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return e.float32v(b, *(*float32)(p))
		}
	case reflect.Float64:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return e.float(b, *(*float64)(p), false)
		}
	case reflect.String:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			s := *(*string)(p)
			b = append(appendHead(b, e.str, uint64(len(s))), s...)
			return b, nil
		}
	case reflect.Interface:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return e.value(b, reflect.NewAt(t, p).Elem().Interface())
		}
	case reflect.Pointer:
		elem := encoderLocked(t.Elem())
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			q := *(*unsafe.Pointer)(p)
			if q == nil {
				b = append(b, 0xf6)
				return b, nil
			}
			if err := e.enter(b); err != nil {
				return b, err
			}
			b, err = elem.fn(e, b, q)
			e.depth--
			return b, err
		}
	case reflect.Slice:
		te.fn = sliceEnc(t)
	case reflect.Array:
		te.fn = arrayEnc(t)
	case reflect.Map:
		te.fn = mapEnc(t)
	case reflect.Struct:
		te.fn = structEnc(t)
	default:
		te.fn = func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return b, &UnsupportedTypeError{Type: t.String()}
		}
	}
}

func sliceEnc(t reflect.Type) encFn {
	et := t.Elem()
	esize := et.Size()
	// Elements of kind uint8 make a byte string even with a MarshalCBOR of
	// their own, as fxamacker (and as arrayEnc).
	if et.Kind() == reflect.Uint8 {
		return func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			v := *(*[]byte)(p)
			if v == nil {
				return e.nilContainer(b, 0x40), nil
			}
			return append(appendHead(b, 0x40, uint64(len(v))), v...), nil
		}
	}
	elem := encoderLocked(et)
	var typed uint32
	if !et.Implements(marshalerType) && !reflect.PointerTo(et).Implements(marshalerType) {
		typed = typedElement(et.Kind(), esize)
	}
	// floatElems: -1 for float64 elements, N for [N]float64 ones (the
	// types themselves, not named ones: those may have methods or tags).
	floatElems := 0
	if et == float64Type {
		floatElems = -1
	} else if et.Kind() == reflect.Array && et.PkgPath() == "" && et.Elem() == float64Type && et.Len() > 0 {
		floatElems = et.Len()
	}
	if floatElems != 0 {
		return func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			sh := (*sliceHeader)(p)
			if sh.data == nil {
				return e.nilContainer(b, 0x80), nil
			}
			if typed != 0 && e.em.opts.TypedArrays {
				return appendTyped(b, typed, sh.data, sh.len, esize)
			}
			if err := e.enter(b); err != nil {
				return b, err
			}
			b = appendHead(b, 0x80, uint64(sh.len))
			if floatElems < 0 {
				b, err = e.floats(b, unsafe.Slice((*float64)(sh.data), sh.len))
			}
			// Elements [floatElems]float64 (coordinates), as arrayEnc
			// writes them, without a call each.
			for i := 0; floatElems > 0 && i < sh.len && err == nil; i++ {
				b = appendHead(b, 0x80, uint64(floatElems))
				b, err = e.floats(b, unsafe.Slice((*float64)(unsafe.Add(sh.data, uintptr(i)*esize)), floatElems))
			}
			if err != nil {
				return b, err
			}
			e.depth--
			return b, nil
		}
	}
	return func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
		sh := (*sliceHeader)(p)
		if sh.data == nil {
			b = e.nilContainer(b, 0x80)
			return b, nil
		}
		if typed != 0 && e.em.opts.TypedArrays {
			return appendTyped(b, typed, sh.data, sh.len, esize)
		}
		if err := e.enter(b); err != nil {
			return b, err
		}
		b = appendHead(b, 0x80, uint64(sh.len))
		for i := 0; i < sh.len; i++ {
			if b, err = elem.fn(e, b, unsafe.Add(sh.data, uintptr(i)*esize)); err != nil {
				return b, err
			}
		}
		e.depth--
		return b, nil
	}
}

func arrayEnc(t reflect.Type) encFn {
	et := t.Elem()
	esize := et.Size()
	n := t.Len()
	if et.Kind() == reflect.Uint8 {
		return func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			b = append(appendHead(b, 0x40, uint64(n)), unsafe.Slice((*byte)(p), n)...)
			return b, nil
		}
	}
	if et.Kind() == reflect.Float64 && !et.Implements(marshalerType) && !reflect.PointerTo(et).Implements(marshalerType) {
		// Coordinates and the like: no call per element.
		return func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			return e.floats(appendHead(b, 0x80, uint64(n)), unsafe.Slice((*float64)(p), n))
		}
	}
	elem := encoderLocked(et)
	return func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
		if err := e.enter(b); err != nil {
			return b, err
		}
		b = appendHead(b, 0x80, uint64(n))
		for i := 0; i < n; i++ {
			if b, err = elem.fn(e, b, unsafe.Add(p, uintptr(i)*esize)); err != nil {
				return b, err
			}
		}
		e.depth--
		return b, nil
	}
}

// errEqualKeys: two keys of a Go map encode to the same bytes (int(1) and
// uint(1) in a map[any]any, float32 and float64 1.5, two NaNs), which a
// sorting mode cannot write: the map would have a duplicate key (not valid
// CBOR, RFC 8949 5.6) in an order that changes from run to run.
var errEqualKeys = &UnsupportedValueError{Reason: "two map keys encode to the same bytes (a sorted map cannot hold duplicate keys)"}

// A sorting mode writes a Go map keys first: each key is encoded into a
// buffer of its own with its value set aside, the keys are sorted by their
// bytes, and then each key is copied out and its value encoded in place.
// Each value is encoded once, where it stays: encoding the pairs and then
// moving them into order moved every nested map's bytes once per sorted map
// around it (depth x size: 16,000 levels around 1.3 MB took 2.2 s). A typed
// map of scalar keys and values is the exception (sortedPairs): its pairs
// hold no map, so they are encoded together and moved (index is then where
// the pair ends).
type keySpan struct{ start, end, index int }

// sortKeys sorts spans of keys by their bytes in the mode's order;
// errEqualKeys when two are equal.
func (e *encState) sortKeys(keys []byte, spans []keySpan) error {
	// Each key is at least its head byte. Bytewise, differing first bytes
	// decide at once (text keys of different lengths under 24 bytes).
	if e.em.opts.Sort == SortLengthFirst {
		slices.SortFunc(spans, func(a, b keySpan) int {
			if la, lb := a.end-a.start, b.end-b.start; la != lb {
				return la - lb
			}
			return bytes.Compare(keys[a.start:a.end], keys[b.start:b.end])
		})
	} else {
		slices.SortFunc(spans, func(a, b keySpan) int {
			if x, y := keys[a.start], keys[b.start]; x != y {
				return int(x) - int(y)
			}
			return bytes.Compare(keys[a.start+1:a.end], keys[b.start+1:b.end])
		})
	}
	// Either order puts equal keys side by side.
	for i := 1; i < len(spans); i++ {
		a, b := spans[i-1], spans[i]
		if bytes.Equal(keys[a.start:a.end], keys[b.start:b.end]) {
			return errEqualKeys
		}
	}
	return nil
}

// textKeyOrder: the order of two text keys' encodings, the same in both
// sorting modes (the head grows with the length: shorter first, then the
// bytes).
func textKeyOrder(x, y string) int {
	if len(x) != len(y) {
		return len(x) - len(y)
	}
	return strings.Compare(x, y)
}

// textPair: a text key of a Go map with its value.
type textPair[V any] struct {
	k string
	v V
}

// sortedTextPairs: the pairs of m in the order of their keys' encodings.
func sortedTextPairs[V any](m map[string]V) []textPair[V] {
	ps := make([]textPair[V], 0, len(m))
	for k, v := range m {
		ps = append(ps, textPair[V]{k, v})
	}
	slices.SortFunc(ps, func(a, b textPair[V]) int { return textKeyOrder(a.k, b.k) })
	return ps
}

var (
	mapStringStringEncType = reflect.TypeFor[map[string]string]()
	mapStringAnyEncType    = reflect.TypeFor[map[string]any]()
	mapAnyAnyEncType       = reflect.TypeFor[map[any]any]()
)

// mapStringStringEnc writes map[string]string with a plain range (sorted
// as text keys when the mode sorts).
func mapStringStringEnc(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
	m := *(*map[string]string)(p)
	if m == nil {
		return e.nilContainer(b, 0xa0), nil
	}
	if err := e.enter(b); err != nil {
		return b, err
	}
	b = appendHead(b, 0xa0, uint64(len(m)))
	if e.em.opts.Sort != SortNone && len(m) > 1 {
		for _, p := range sortedTextPairs(m) {
			b = append(appendHead(b, e.str, uint64(len(p.k))), p.k...)
			b = append(appendHead(b, e.str, uint64(len(p.v))), p.v...)
		}
	} else {
		for k, v := range m {
			b = append(appendHead(b, e.str, uint64(len(k))), k...)
			b = append(appendHead(b, e.str, uint64(len(v))), v...)
		}
	}
	e.depth--
	return b, nil
}

func mapEnc(t reflect.Type) encFn {
	switch t {
	case mapStringStringEncType:
		return mapStringStringEnc
	case mapStringAnyEncType:
		return func(e *encState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return e.mapStringAny(b, *(*map[string]any)(p))
		}
	case mapAnyAnyEncType:
		return func(e *encState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return e.mapAnyAny(b, *(*map[any]any)(p))
		}
	}
	kt, vt := t.Key(), t.Elem()
	kenc := encoderLocked(kt)
	venc := encoderLocked(vt)
	// Keys (and values) of these kinds hold no map (a MarshalCBOR or
	// MarshalBinary of theirs encodes with a state of its own).
	scalar := func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32,
			reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Uintptr, reflect.Float32, reflect.Float64:
			return true
		}
		return false
	}
	direct, pairs := scalar(kt), scalar(kt) && scalar(vt)
	return func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
		mv := reflect.NewAt(t, p).Elem()
		if mv.IsNil() {
			b = e.nilContainer(b, 0xa0)
			return b, nil
		}
		if err := e.enter(b); err != nil {
			return b, err
		}
		n := mv.Len()
		b = appendHead(b, 0xa0, uint64(n))
		kv := reflect.New(kt).Elem()
		kp := kv.Addr().UnsafePointer()
		it := mv.MapRange()
		if e.em.opts.Sort != SortNone && n > 1 && pairs {
			// Scalar keys and values (map[string]int, map[int]string, ...):
			// each pair encoded once into the scratch, the pairs sorted by
			// their keys and copied out (a pair's value holds no map, so
			// nothing is moved once per level: no value slice and no
			// reflection per value in key order).
			return e.sortedPairs(b, it, n, kv, kenc, venc, reflect.New(vt).Elem())
		}
		if e.em.opts.Sort != SortNone && n > 1 {
			// Keys first (see keySpan): the keys and their spans in the
			// pooled scratch, as mapAnyAny's (a key of a scalar kind is
			// encoded there directly, anything else apart first, since a
			// map it holds would take the scratch above e.keys); the
			// values into a slice, each value encoded once, in key order.
			vals := reflect.MakeSlice(reflect.SliceOf(vt), n, n)
			k0, s0 := len(e.keys), len(e.spans)
			for i := 0; it.Next() && i < n; i++ {
				kv.SetIterKey(it)
				vals.Index(i).SetIterValue(it)
				start := len(e.keys) - k0
				if direct {
					e.keys, err = kenc.fn(e, e.keys, kp)
				} else {
					var kb []byte
					kb, err = kenc.fn(e, nil, kp)
					e.keys = append(e.keys, kb...)
				}
				if err != nil {
					return b, err
				}
				e.spans = append(e.spans, keySpan{start, len(e.keys) - k0, i})
			}
			if len(e.spans)-s0 != n {
				// A key's MarshalCBOR changed the map: the head said n.
				return b, errMapChanged
			}
			if err := e.sortKeys(e.keys[k0:], e.spans[s0:]); err != nil {
				return b, err
			}
			for j := 0; j < n; j++ {
				// Through e each time: a nested map may have grown the scratch.
				sp := e.spans[s0+j]
				b = append(b, e.keys[k0+sp.start:k0+sp.end]...)
				if b, err = venc.fn(e, b, vals.Index(sp.index).Addr().UnsafePointer()); err != nil {
					return b, err
				}
			}
			e.keys, e.spans = e.keys[:k0], e.spans[:s0]
			e.depth--
			return b, nil
		}
		vv := reflect.New(vt).Elem()
		vp := vv.Addr().UnsafePointer()
		i := 0
		for ; it.Next(); i++ {
			if i == n {
				return b, errMapChanged
			}
			kv.SetIterKey(it)
			vv.SetIterValue(it)
			if b, err = kenc.fn(e, b, kp); err != nil {
				return b, err
			}
			if b, err = venc.fn(e, b, vp); err != nil {
				return b, err
			}
		}
		if i != n {
			return b, errMapChanged
		}
		e.depth--
		return b, nil
	}
}

// sortedPairs writes the n pairs `it` ranges over (the map's head is
// written) in the order of their keys' encodings: each key and its value
// encoded into the scratch (a span's index is where its pair ends there),
// then copied out in order. For keys and values of scalar kinds only, which
// hold no map (see mapEnc).
func (e *encState) sortedPairs(b []byte, it *reflect.MapIter, n int, kv reflect.Value,
	kenc, venc *typeEnc, vv reflect.Value) (_ []byte, err error) {
	kp, vp := kv.Addr().UnsafePointer(), vv.Addr().UnsafePointer()
	k0, s0 := len(e.keys), len(e.spans)
	for i := 0; it.Next() && i < n; i++ {
		kv.SetIterKey(it)
		vv.SetIterValue(it)
		start := len(e.keys) - k0
		if e.keys, err = kenc.fn(e, e.keys, kp); err != nil {
			return b, err
		}
		end := len(e.keys) - k0
		if e.keys, err = venc.fn(e, e.keys, vp); err != nil {
			return b, err
		}
		e.spans = append(e.spans, keySpan{start, end, len(e.keys) - k0})
	}
	if len(e.spans)-s0 != n {
		// A key's or value's MarshalCBOR changed the map: the head said n.
		return b, errMapChanged
	}
	if err := e.sortKeys(e.keys[k0:], e.spans[s0:]); err != nil {
		return b, err
	}
	for _, sp := range e.spans[s0:] {
		b = append(b, e.keys[k0+sp.start:k0+sp.index]...)
	}
	e.keys, e.spans = e.keys[:k0], e.spans[:s0]
	e.depth--
	return b, nil
}

func structEnc(t reflect.Type) encFn {
	si := parseStruct(t)
	if si.err != nil {
		return func(e *encState, b []byte, p unsafe.Pointer) ([]byte, error) { return b, si.err }
	}
	own := make([]*typeEnc, len(si.fields))
	for i := range si.fields {
		own[i] = encoderLocked(si.fields[i].typ)
		if f := &si.fields[i]; f.omitZero {
			// omitzero, and omitempty if it is there too: the field's own
			// test (the type's encoder is shared with other fields)
			inner, zero, omitEmpty := own[i], zeroFn(f.typ), f.omitEmpty
			own[i] = &typeEnc{t: inner.t,
				fn: func(e *encState, b []byte, p unsafe.Pointer) ([]byte, error) { return inner.fn(e, b, p) },
				empty: func(em *encMode, p unsafe.Pointer) bool {
					return zero(p) || omitEmpty && inner.empty(em, p)
				}}
		}
	}
	// Assigned once (a captured variable assigned again is captured by
	// reference).
	fields, encs := throughHopsEnc(si, own)
	// Field orders for the sorted modes: by encoded key.
	byLen := make([]int, len(fields))
	byBytes := make([]int, len(fields))
	for i := range fields {
		byLen[i], byBytes[i] = i, i
	}
	sort.SliceStable(byLen, func(i, j int) bool {
		a, b := fields[byLen[i]].keyBytes, fields[byLen[j]].keyBytes
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return string(a) < string(b)
	})
	sort.SliceStable(byBytes, func(i, j int) bool {
		return string(fields[byBytes[i]].keyBytes) < string(fields[byBytes[j]].keyBytes)
	})
	decl := make([]int, len(fields))
	for i := range decl {
		decl[i] = i
	}
	// The fields in writing order, per sort order (none, length-first,
	// bytewise) and FieldName mode (text, byte string names; keyasint keys
	// unchanged): the loop below reads one plan in sequence. Byte string
	// names sort as the text ones do (one major type for all).
	var plans [3][2]encPlan
	for o, order := range [3][]int{decl, byLen, byBytes} {
		for m := range 2 {
			pl := &plans[o][m]
			pl.fs = make([]encField, len(order))
			for k, i := range order {
				f := &fields[i]
				key := f.keyBytes
				if m == 1 && !f.isInt {
					key = append(appendHead(nil, 0x40, uint64(len(f.name))), f.name...)
				}
				ef := &pl.fs[k]
				ef.offset, ef.enc, ef.prim, ef.empty, ef.omit = f.offset, encs[i], f.prim, f.empty, f.omits()
				if len(key) <= len(ef.key) {
					copy(ef.key[:], key)
					ef.keyLen = uint8(len(key))
				} else {
					if pl.long == nil {
						pl.long = make([][]byte, len(order))
					}
					pl.long[k] = key
				}
			}
		}
	}
	if si.toArray {
		indef := si.toIndefArray
		return func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
			if indef && e.em.opts.ToIndefArrayStructTag != ToIndefArrayStructTagAllowed {
				return b, fmt.Errorf("cborfast: cannot encode struct %v with `toindefarray` when ToIndefArrayStructTag is not ToIndefArrayStructTagAllowed", t)
			}
			if err := e.enter(b); err != nil {
				return b, err
			}
			if indef {
				b = append(b, 0x9f)
			} else {
				b = appendHead(b, 0x80, uint64(len(fields)))
			}
			for i := range fields {
				if b, err = encs[i].fn(e, b, unsafe.Add(p, fields[i].offset)); err != nil {
					return b, err
				}
			}
			if indef {
				b = append(b, 0xff)
			}
			e.depth--
			return b, nil
		}
	}
	return func(e *encState, b []byte, p unsafe.Pointer) (_ []byte, err error) {
		if err := e.enter(b); err != nil {
			return b, err
		}
		o := 0
		switch e.em.opts.Sort {
		case SortLengthFirst:
			o = 1
		case SortBytewiseLexical:
			o = 2
		}
		m := 0
		if e.fieldBytes {
			m = 1
		}
		pl := &plans[o][m]
		str := e.str // fields' encoders restore it
		// With omitempty fields and under 24 fields the head is one byte:
		// it is written once the fields omitted are known (one pass).
		head := -1
		switch n := len(fields); {
		case !si.anyOmit:
			b = appendHead(b, 0xa0, uint64(n))
		case n < 24:
			head = len(b)
			b = append(b, 0xa0)
		default:
			for i := range fields {
				if fields[i].omits() && encs[i].empty(e.em, unsafe.Add(p, fields[i].offset)) {
					n--
				}
			}
			b = appendHead(b, 0xa0, uint64(n))
		}
		fs := pl.fs
		omitted := 0
		for k := range fs {
			f := &fs[k]
			q := unsafe.Add(p, f.offset)
			if f.omit {
				var empty bool
				switch f.empty {
				case emptyWord:
					empty = *(*uint64)(q) == 0
				case emptyLen:
					empty = (*lenHeader)(q).len == 0
				default:
					empty = f.enc.empty(e.em, q)
				}
				if empty {
					omitted++
					continue
				}
			}
			// Room for the padded key, a head and a short string: stored
			// without a capacity test each, and without a call (a call
			// spills every live register: Go has no callee-saved ones).
			if cap(b)-len(b) < encFieldRoom {
				b = slices.Grow(b, encFieldRoom)
			}
			n := len(b)
			if f.keyLen != 0 {
				// One 32-byte store (bytes past the key are overwritten by
				// what follows or lie past the output).
				*(*[32]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), n)) = f.key
				n += int(f.keyLen)
			} else {
				b = append(b, pl.long[k]...)
				if cap(b)-len(b) < encFieldRoom {
					b = slices.Grow(b, encFieldRoom)
				}
				n = len(b)
			}
			d := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), n)
			switch f.prim {
			case primString:
				v := *(*string)(q)
				if len(v) < 24 {
					*(*byte)(d) = str | byte(len(v))
					putShort(unsafe.Add(d, 1), v)
					b = b[:n+1+len(v)]
				} else if len(v) <= 32 {
					*(*[2]byte)(d) = [2]byte{str | 24, byte(len(v))}
					putShort(unsafe.Add(d, 2), v)
					b = b[:n+2+len(v)]
				} else {
					b = append(appendHead(b[:n], str, uint64(len(v))), v...)
				}
			case primInt, primInt64, primUint64:
				var u uint64
				major := byte(0)
				if f.prim == primUint64 {
					u = *(*uint64)(q)
				} else {
					v := *(*int64)(q)
					if f.prim == primInt {
						v = int64(*(*int)(q))
					}
					if u = uint64(v); v < 0 {
						major, u = 0x20, uint64(-1-v)
					}
				}
				b = b[:n+putHead(d, major, u)]
			case primBool:
				x := byte(0xf4)
				if *(*bool)(q) {
					x = 0xf5
				}
				*(*byte)(d) = x
				b = b[:n+1]
			case primBytes:
				if v := *(*[]byte)(q); v != nil {
					b = append(appendHead(b[:n], 0x40, uint64(len(v))), v...)
				} else {
					b = e.nilContainer(b[:n], 0x40)
				}
			case primFloat64:
				if b, err = e.float(b[:n], *(*float64)(q), false); err != nil {
					return b, err
				}
			default:
				if b, err = f.enc.fn(e, b[:n], q); err != nil {
					return b, err
				}
			}
		}
		if head >= 0 {
			b[head] = 0xa0 | byte(len(fs)-omitted)
		}
		e.depth--
		return b, nil
	}
}

// throughHopsEnc gives the struct encoder's loops the fields behind
// embedded pointers (structInfo.paths) as ordinary fields at offset 0, whose
// encoder gets the struct's own address and follows the pointers: while one
// is nil the field is left out (encoding/json's rule; an omitempty test
// that is true), and in a toarray struct its place holds null (as in
// fxamacker). The loops stay as they are for every other struct.
func throughHopsEnc(si *structInfo, encs []*typeEnc) ([]field, []*typeEnc) {
	if si.paths == nil {
		return si.fields, encs
	}
	fields := append([]field(nil), si.fields...)
	encs = append([]*typeEnc(nil), encs...)
	for i := range fields {
		path, offset, omitEmpty := si.paths[i], si.fields[i].offset, si.fields[i].omits()
		if path == nil {
			continue
		}
		inner := encs[i] // (its fn may still be in the making: read at each call)
		encs[i] = &typeEnc{t: inner.t,
			fn: func(e *encState, b []byte, p unsafe.Pointer) ([]byte, error) {
				q := addr(p, path, offset)
				if q == nil {
					return append(b, 0xf6), nil
				}
				return inner.fn(e, b, q)
			},
			empty: func(em *encMode, p unsafe.Pointer) bool {
				q := addr(p, path, offset)
				return q == nil || omitEmpty && inner.empty(em, q)
			}}
		g := &fields[i]
		g.offset, g.prim, g.empty, g.omitEmpty = 0, primNone, emptyCall, true
	}
	return fields, encs
}

// encFieldRoom: the spare capacity the struct encoder makes before a field:
// its padded key, then a head of up to 9 bytes, or a 2-byte head and a
// string of up to 32 bytes.
const encFieldRoom = 32 + 2 + 32

// putHead stores a head at d, which has room for 9 bytes, and returns its
// length. Arguments of 24 and more: the argument's bytes, big-endian, in a
// field of 1, 2, 4 or 8 bytes (one 8-byte store; the bytes past the field
// are overwritten by what follows or lie past the output).
func putHead(d unsafe.Pointer, major byte, u uint64) int {
	if u < 24 {
		*(*byte)(d) = major | byte(u)
		return 1
	}
	k := bits.Len8(uint8((bits.Len64(u) - 1) >> 3)) // 0..3: 1 << k bytes
	*(*byte)(d) = major | 24 + byte(k)
	binary.BigEndian.PutUint64((*[8]byte)(unsafe.Add(d, 1))[:], u<<(64-8<<k))
	return 1 + 1<<k
}

// putShort copies v, of at most 32 bytes, to d, which has room for 32,
// without a call: two overlapping 16- or 8-byte loads and stores, or a
// byte loop under 8.
func putShort(d unsafe.Pointer, v string) {
	n := len(v)
	s := unsafe.Pointer(unsafe.StringData(v))
	if n >= 16 {
		*(*[16]byte)(d) = *(*[16]byte)(s)
		*(*[16]byte)(unsafe.Add(d, n-16)) = *(*[16]byte)(unsafe.Add(s, n-16))
	} else if n >= 8 {
		*(*uint64)(d) = *(*uint64)(s)
		*(*uint64)(unsafe.Add(d, n-8)) = *(*uint64)(unsafe.Add(s, n-8))
	} else {
		for i := 0; i < n; i++ {
			*(*byte)(unsafe.Add(d, i)) = *(*byte)(unsafe.Add(s, i))
		}
	}
}

// encPlan is a struct's fields in one writing order; long holds the keys
// of more than 32 bytes (nil when there are none).
type encPlan struct {
	fs   []encField
	long [][]byte
}

// encField is what the struct encoder reads of a field, in 56 bytes: the
// encoded key padded to 32 bytes (keyLen 0: in encPlan.long), the offset,
// the field type's encoder, and field's prim and empty cases.
type encField struct {
	key    [32]byte
	offset uintptr
	enc    *typeEnc
	keyLen uint8
	prim   uint8
	empty  uint8
	omit   bool
}

// emptyFn is omitempty's test for a type. A Marshaler's value is never
// empty (what MarshalCBOR writes is not known before it runs), but for the
// package's own RawMessage, ByteString and SimpleValue; a BinaryMarshaler's
// is empty when MarshalBinary's output is (under BinaryMarshalerNone by the
// type's own rule): as fxamacker.
func emptyFn(t reflect.Type) func(em *encMode, p unsafe.Pointer) bool {
	if neverEmpty(t) {
		return func(em *encMode, p unsafe.Pointer) bool { return false }
	}
	if isBinaryMarshaler(t) {
		own := emptyFnOf(t)
		return func(em *encMode, p unsafe.Pointer) bool {
			if em.opts.BinaryMarshaler == BinaryMarshalerNone {
				return own(em, p)
			}
			m, err := reflect.NewAt(t, p).Interface().(encoding.BinaryMarshaler).MarshalBinary()
			return err == nil && len(m) == 0
		}
	}
	return emptyFnOf(t)
}

// neverEmpty: t writes itself through MarshalCBOR (the package's
// RawMessage, ByteString and SimpleValue aside), so omitempty keeps it.
func neverEmpty(t reflect.Type) bool {
	return t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer && t != rawMessageType &&
		t != byteStringType && t != simpleValueType &&
		(t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType))
}

// emptyFnOf is emptyFn by t's kind (the package's own types first).
func emptyFnOf(t reflect.Type) func(em *encMode, p unsafe.Pointer) bool {
	switch t {
	case timeType, bigIntType:
		// never empty, as fxamacker (omitzero leaves out the zero time)
		return func(em *encMode, p unsafe.Pointer) bool { return false }
	}
	switch emptyKind(t) {
	case emptyWord:
		return func(em *encMode, p unsafe.Pointer) bool { return *(*uint64)(p) == 0 }
	case emptyLen:
		return func(em *encMode, p unsafe.Pointer) bool { return (*lenHeader)(p).len == 0 }
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return func(em *encMode, p unsafe.Pointer) bool { return *(*uint8)(p) == 0 }
	case reflect.Int16, reflect.Uint16:
		return func(em *encMode, p unsafe.Pointer) bool { return *(*uint16)(p) == 0 }
	case reflect.Int32, reflect.Uint32:
		return func(em *encMode, p unsafe.Pointer) bool { return *(*uint32)(p) == 0 }
	case reflect.Float32:
		return func(em *encMode, p unsafe.Pointer) bool { return *(*float32)(p) == 0 }
	case reflect.Float64:
		return func(em *encMode, p unsafe.Pointer) bool { return *(*float64)(p) == 0 }
	case reflect.Interface:
		return func(em *encMode, p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsNil() }
	case reflect.Map:
		return func(em *encMode, p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().Len() == 0 }
	case reflect.Array:
		n := t.Len()
		return func(em *encMode, p unsafe.Pointer) bool { return n == 0 }
	case reflect.Struct:
		si := parseStruct(t)
		if si.toArray {
			// empty only without fields, as fxamacker (the array is written
			// whole whatever the fields hold)
			n := len(si.fields)
			return func(em *encMode, p unsafe.Pointer) bool { return n == 0 }
		}
		return func(em *encMode, p unsafe.Pointer) bool {
			for i := range si.fields {
				f := &si.fields[i]
				if q := addr(p, si.path(i), f.offset); q != nil && !(f.omitEmpty && emptyFn(f.typ)(em, q) ||
					f.omitZero && zeroFn(f.typ)(q)) {
					return false
				}
			}
			return true
		}
	}
	return func(em *encMode, p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsZero() }
}
