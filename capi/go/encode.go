package cborfast

import (
	"encoding/binary"
	"math"
	"math/big"
	"reflect"
	"sort"
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
	// 0 means DefaultEncodeMaxDepth. It also stops a slice that contains
	// itself.
	MaxDepth int
}

// DefaultEncodeMaxDepth is the depth limit of Encode when none is given.
const DefaultEncodeMaxDepth = 100000

// Encode writes v as CBOR in preferred serialization: shortest heads and
// floats, a Map in its order, Go maps with their keys sorted length-first
// (RFC 8949 section 4.2.3; for text keys below 24 bytes the same as
// bytewise), nil slices and maps as empty ones. It takes Decode's types and
// every type Marshal takes.
func Encode(v any) ([]byte, error) { return EncodeOptions{}.Encode(v) }

var classicModes sync.Map // depth -> *encMode

// Encode writes v as CBOR with these options.
func (o EncodeOptions) Encode(v any) ([]byte, error) {
	d := o.MaxDepth
	if d <= 0 {
		d = DefaultEncodeMaxDepth
	}
	var em *encMode
	if m, ok := classicModes.Load(d); ok {
		em = m.(*encMode)
	} else {
		em = &encMode{opts: EncOptions{Sort: SortLengthFirst, ShortestFloat: ShortestFloat16,
			NaNConvert: NaNConvertNone, InfConvert: InfConvertFloat16, NilContainers: NilContainerAsEmpty},
			maxDepth: d, classic: true}
		classicModes.Store(d, em)
	}
	return em.Marshal(v)
}

// Marshal encodes v with this mode.
func (em *encMode) Marshal(v any) ([]byte, error) {
	e := getEncState(em)
	err := e.value(v)
	var out []byte
	if err == nil {
		out = make([]byte, len(e.buf))
		copy(out, e.buf)
	}
	putEncState(e)
	return out, err
}

type encState struct {
	buf   []byte
	em    *encMode
	depth int
	pairs []pairSpan
	tmp   []byte
}

type pairSpan struct{ start, keyEnd, end int }

var encStates = sync.Pool{New: func() any { return &encState{buf: make([]byte, 0, 4096)} }}

func getEncState(em *encMode) *encState {
	e := encStates.Get().(*encState)
	e.em, e.depth, e.buf = em, 0, e.buf[:0]
	return e
}

func putEncState(e *encState) {
	if cap(e.buf) <= 64<<20 {
		encStates.Put(e)
	}
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

func (e *encState) float(f float64, is32 bool) error {
	o := &e.em.opts
	if math.IsNaN(f) {
		switch o.NaNConvert {
		case NaNConvert7e00:
			e.buf = append(e.buf, 0xf9, 0x7e, 0x00)
			return nil
		case NaNConvertReject:
			return &UnsupportedValueError{Reason: "NaN"}
		}
	} else if math.IsInf(f, 0) {
		switch o.InfConvert {
		case InfConvertFloat16:
			if f > 0 {
				e.buf = append(e.buf, 0xf9, 0x7c, 0x00)
			} else {
				e.buf = append(e.buf, 0xf9, 0xfc, 0x00)
			}
			return nil
		case InfConvertReject:
			return &UnsupportedValueError{Reason: "infinity"}
		}
	}
	if o.ShortestFloat == ShortestFloatNone {
		if is32 {
			e.buf = binary.BigEndian.AppendUint32(append(e.buf, 0xfa), math.Float32bits(float32(f)))
		} else {
			e.buf = binary.BigEndian.AppendUint64(append(e.buf, 0xfb), math.Float64bits(f))
		}
		return nil
	}
	e.buf = appendShortestFloat(e.buf, f)
	return nil
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

func (e *encState) enter() error {
	e.depth++
	if e.depth > e.em.maxDepth {
		err := statusError(statusDepth)
		err.Offset = len(e.buf)
		err.Depth = e.em.maxDepth + 1
		return err
	}
	return nil
}

func (e *encState) nilContainer(major byte) {
	if e.em.opts.NilContainers == NilContainerAsEmpty {
		e.buf = append(e.buf, major)
	} else {
		e.buf = append(e.buf, 0xf6)
	}
}

// value writes a value of any type, with fast paths for the usual dynamic
// types.
func (e *encState) value(v any) error {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, 0xf6)
		return nil
	case string:
		e.buf = append(appendHead(e.buf, 0x60, uint64(len(x))), x...)
		return nil
	case bool:
		if x {
			e.buf = append(e.buf, 0xf5)
		} else {
			e.buf = append(e.buf, 0xf4)
		}
		return nil
	case uint64:
		e.buf = appendHead(e.buf, 0x00, x)
		return nil
	case int64:
		e.buf = appendInt(e.buf, x)
		return nil
	case int:
		e.buf = appendInt(e.buf, int64(x))
		return nil
	case float64:
		return e.float(x, false)
	case []byte:
		if x == nil && !e.em.classic {
			e.buf = append(e.buf, 0xf6)
			return nil
		}
		e.buf = append(appendHead(e.buf, 0x40, uint64(len(x))), x...)
		return nil
	case []any:
		if x == nil && !e.em.classic {
			e.buf = append(e.buf, 0xf6)
			return nil
		}
		if err := e.enter(); err != nil {
			return err
		}
		e.buf = appendHead(e.buf, 0x80, uint64(len(x)))
		for _, y := range x {
			if err := e.value(y); err != nil {
				return err
			}
		}
		e.depth--
		return nil
	case Map:
		if err := e.enter(); err != nil {
			return err
		}
		e.buf = appendHead(e.buf, 0xa0, uint64(len(x)))
		for _, p := range x {
			if err := e.value(p.Key); err != nil {
				return err
			}
			if err := e.value(p.Value); err != nil {
				return err
			}
		}
		e.depth--
		return nil
	case Tag:
		if err := e.enter(); err != nil {
			return err
		}
		e.buf = appendHead(e.buf, 0xc0, x.Number)
		if err := e.value(x.Content); err != nil {
			return err
		}
		e.depth--
		return nil
	case Simple:
		return e.simple(uint8(x))
	case SimpleValue:
		return e.simple(uint8(x))
	case UndefinedType:
		e.buf = append(e.buf, 0xf7)
		return nil
	case *big.Int:
		if x == nil {
			e.buf = append(e.buf, 0xf6)
			return nil
		}
		e.bigInt(x)
		return nil
	case big.Int:
		e.bigInt(&x)
		return nil
	case ByteString:
		e.buf = append(appendHead(e.buf, 0x40, uint64(len(x))), x...)
		return nil
	}
	rv := reflect.ValueOf(v)
	t := rv.Type()
	switch t.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			e.buf = append(e.buf, 0xf6)
			return nil
		}
		fallthrough
	case reflect.Map:
		// Pointer-shaped: the interface holds the value itself.
		p := rv.UnsafePointer()
		return encoderFor(t).fn(e, unsafe.Pointer(&p))
	case reflect.Struct, reflect.Array:
		nv := reflect.New(t)
		nv.Elem().Set(rv)
		return encoderFor(t).fn(e, nv.UnsafePointer())
	}
	// Other kinds are stored indirectly: the data word points at the value.
	return encoderFor(t).fn(e, (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1])
}

// simple writes a simple value; 24..31 are not well-formed (invalid_argument
// at the offset reached, as the C writer reports it).
func (e *encState) simple(x uint8) error {
	if x >= 24 && x < 32 {
		err := statusError(statusInvalidArgument)
		err.Offset = len(e.buf)
		return err
	}
	e.buf = appendHead(e.buf, 0xe0, uint64(x))
	return nil
}

func (e *encState) bigInt(z *big.Int) {
	if e.em.opts.BigIntConvert == BigIntConvertShortest || e.em.classic {
		if z.IsUint64() {
			e.buf = appendHead(e.buf, 0x00, z.Uint64())
			return
		}
		if z.Sign() < 0 {
			m := new(big.Int).Neg(z)
			m.Sub(m, bigOne)
			if m.IsUint64() {
				e.buf = appendHead(e.buf, 0x20, m.Uint64())
				return
			}
		}
	}
	if z.Sign() >= 0 {
		b := z.Bytes()
		e.buf = append(appendHead(append(e.buf, 0xc2), 0x40, uint64(len(b))), b...)
		return
	}
	m := new(big.Int).Neg(z)
	b := m.Sub(m, bigOne).Bytes()
	e.buf = append(appendHead(append(e.buf, 0xc3), 0x40, uint64(len(b))), b...)
}

func (e *encState) time(t time.Time) error {
	if t.IsZero() {
		e.buf = append(e.buf, 0xf6)
		return nil
	}
	o := &e.em.opts
	text := o.Time == TimeRFC3339 || o.Time == TimeRFC3339Nano
	if o.TimeTag == EncTagRequired {
		if text {
			e.buf = append(e.buf, 0xc0)
		} else {
			e.buf = append(e.buf, 0xc1)
		}
	}
	switch o.Time {
	case TimeUnix:
		e.buf = appendInt(e.buf, t.Unix())
	case TimeUnixMicro:
		t = t.UTC().Round(time.Microsecond)
		return e.float(float64(t.UnixNano())/1e9, false)
	case TimeUnixDynamic:
		t = t.UTC().Round(time.Microsecond)
		if t.Nanosecond() == 0 {
			e.buf = appendInt(e.buf, t.Unix())
			return nil
		}
		return e.float(float64(t.UnixNano())/1e9, false)
	case TimeRFC3339:
		s := t.Format(time.RFC3339)
		e.buf = append(appendHead(e.buf, 0x60, uint64(len(s))), s...)
	default:
		s := t.Format(time.RFC3339Nano)
		e.buf = append(appendHead(e.buf, 0x60, uint64(len(s))), s...)
	}
	return nil
}

type encFn func(e *encState, p unsafe.Pointer) error

type typeEnc struct {
	fn    encFn
	empty func(p unsafe.Pointer) bool
	t     reflect.Type
}

var (
	encCache    sync.Map
	encBuildMu  sync.Mutex
	encBuilding = map[reflect.Type]*typeEnc{}
	marshalerType = reflect.TypeFor[Marshaler]()
)

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
	te := &typeEnc{t: t}
	encBuilding[t] = te
	buildEnc(t, te)
	delete(encBuilding, t)
	encCache.Store(t, te)
	return te
}

func buildEnc(t reflect.Type, te *typeEnc) {
	te.empty = emptyFn(t)
	if t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer {
		if t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) {
			te.fn = func(e *encState, p unsafe.Pointer) error {
				b, err := reflect.NewAt(t, p).Interface().(Marshaler).MarshalCBOR()
				if err != nil {
					return err
				}
				e.buf = append(e.buf, b...)
				return nil
			}
			return
		}
	}
	switch t {
	case timeType:
		te.fn = func(e *encState, p unsafe.Pointer) error { return e.time(*(*time.Time)(p)) }
		return
	case bigIntType:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.bigInt((*big.Int)(p)); return nil }
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		te.fn = func(e *encState, p unsafe.Pointer) error {
			if *(*bool)(p) {
				e.buf = append(e.buf, 0xf5)
			} else {
				e.buf = append(e.buf, 0xf4)
			}
			return nil
		}
	case reflect.Int:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendInt(e.buf, int64(*(*int)(p))); return nil }
	case reflect.Int8:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendInt(e.buf, int64(*(*int8)(p))); return nil }
	case reflect.Int16:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendInt(e.buf, int64(*(*int16)(p))); return nil }
	case reflect.Int32:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendInt(e.buf, int64(*(*int32)(p))); return nil }
	case reflect.Int64:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendInt(e.buf, *(*int64)(p)); return nil }
	case reflect.Uint, reflect.Uintptr:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendHead(e.buf, 0, uint64(*(*uint)(p))); return nil }
	case reflect.Uint8:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendHead(e.buf, 0, uint64(*(*uint8)(p))); return nil }
	case reflect.Uint16:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendHead(e.buf, 0, uint64(*(*uint16)(p))); return nil }
	case reflect.Uint32:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendHead(e.buf, 0, uint64(*(*uint32)(p))); return nil }
	case reflect.Uint64:
		te.fn = func(e *encState, p unsafe.Pointer) error { e.buf = appendHead(e.buf, 0, *(*uint64)(p)); return nil }
	case reflect.Float32:
		te.fn = func(e *encState, p unsafe.Pointer) error { return e.float(float64(*(*float32)(p)), true) }
	case reflect.Float64:
		te.fn = func(e *encState, p unsafe.Pointer) error { return e.float(*(*float64)(p), false) }
	case reflect.String:
		te.fn = func(e *encState, p unsafe.Pointer) error {
			s := *(*string)(p)
			e.buf = append(appendHead(e.buf, 0x60, uint64(len(s))), s...)
			return nil
		}
	case reflect.Interface:
		te.fn = func(e *encState, p unsafe.Pointer) error {
			return e.value(reflect.NewAt(t, p).Elem().Interface())
		}
	case reflect.Pointer:
		elem := encoderLocked(t.Elem())
		te.fn = func(e *encState, p unsafe.Pointer) error {
			q := *(*unsafe.Pointer)(p)
			if q == nil {
				e.buf = append(e.buf, 0xf6)
				return nil
			}
			if err := e.enter(); err != nil {
				return err
			}
			err := elem.fn(e, q)
			e.depth--
			return err
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
		te.fn = func(e *encState, p unsafe.Pointer) error {
			return &UnsupportedTypeError{Type: t.String()}
		}
	}
}

func sliceEnc(t reflect.Type) encFn {
	et := t.Elem()
	esize := et.Size()
	if et.Kind() == reflect.Uint8 && !et.Implements(marshalerType) && !reflect.PointerTo(et).Implements(marshalerType) {
		return func(e *encState, p unsafe.Pointer) error {
			b := *(*[]byte)(p)
			if b == nil {
				e.nilContainer(0x40)
				return nil
			}
			e.buf = append(appendHead(e.buf, 0x40, uint64(len(b))), b...)
			return nil
		}
	}
	elem := encoderLocked(et)
	return func(e *encState, p unsafe.Pointer) error {
		sh := (*sliceHeader)(p)
		if sh.data == nil {
			e.nilContainer(0x80)
			return nil
		}
		if err := e.enter(); err != nil {
			return err
		}
		e.buf = appendHead(e.buf, 0x80, uint64(sh.len))
		for i := 0; i < sh.len; i++ {
			if err := elem.fn(e, unsafe.Add(sh.data, uintptr(i)*esize)); err != nil {
				return err
			}
		}
		e.depth--
		return nil
	}
}

func arrayEnc(t reflect.Type) encFn {
	et := t.Elem()
	esize := et.Size()
	n := t.Len()
	if et.Kind() == reflect.Uint8 {
		return func(e *encState, p unsafe.Pointer) error {
			e.buf = append(appendHead(e.buf, 0x40, uint64(n)), unsafe.Slice((*byte)(p), n)...)
			return nil
		}
	}
	elem := encoderLocked(et)
	return func(e *encState, p unsafe.Pointer) error {
		if err := e.enter(); err != nil {
			return err
		}
		e.buf = appendHead(e.buf, 0x80, uint64(n))
		for i := 0; i < n; i++ {
			if err := elem.fn(e, unsafe.Add(p, uintptr(i)*esize)); err != nil {
				return err
			}
		}
		e.depth--
		return nil
	}
}

// sortPairs reorders the encoded pairs written at e.buf[spans...] by their
// encoded keys.
func (e *encState) sortPairs(first int, spans []pairSpan) {
	keyOf := func(s pairSpan) []byte { return e.buf[s.start:s.keyEnd] }
	if e.em.opts.Sort == SortLengthFirst {
		sort.Slice(spans, func(i, j int) bool {
			a, b := keyOf(spans[i]), keyOf(spans[j])
			if len(a) != len(b) {
				return len(a) < len(b)
			}
			return string(a) < string(b)
		})
	} else {
		sort.Slice(spans, func(i, j int) bool { return string(keyOf(spans[i])) < string(keyOf(spans[j])) })
	}
	e.tmp = e.tmp[:0]
	for _, s := range spans {
		e.tmp = append(e.tmp, e.buf[s.start:s.end]...)
	}
	copy(e.buf[first:], e.tmp)
}

func mapEnc(t reflect.Type) encFn {
	kt, vt := t.Key(), t.Elem()
	kenc := encoderLocked(kt)
	venc := encoderLocked(vt)
	return func(e *encState, p unsafe.Pointer) error {
		mv := reflect.NewAt(t, p).Elem()
		if mv.IsNil() {
			e.nilContainer(0xa0)
			return nil
		}
		if err := e.enter(); err != nil {
			return err
		}
		n := mv.Len()
		e.buf = appendHead(e.buf, 0xa0, uint64(n))
		kv := reflect.New(kt).Elem()
		vv := reflect.New(vt).Elem()
		kp, vp := kv.Addr().UnsafePointer(), vv.Addr().UnsafePointer()
		sorted := e.em.opts.Sort != SortNone && n > 1
		first := len(e.buf)
		var spans []pairSpan
		if sorted {
			spans = make([]pairSpan, 0, n)
		}
		it := mv.MapRange()
		for it.Next() {
			kv.SetIterKey(it)
			vv.SetIterValue(it)
			start := len(e.buf)
			if err := kenc.fn(e, kp); err != nil {
				return err
			}
			keyEnd := len(e.buf)
			if err := venc.fn(e, vp); err != nil {
				return err
			}
			if sorted {
				spans = append(spans, pairSpan{start, keyEnd, len(e.buf)})
			}
		}
		if sorted {
			e.sortPairs(first, spans)
		}
		e.depth--
		return nil
	}
}

func structEnc(t reflect.Type) encFn {
	si := parseStruct(t)
	fields := si.fields
	encs := make([]*typeEnc, len(fields))
	for i := range fields {
		encs[i] = encoderLocked(fields[i].typ)
	}
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
	if si.toArray {
		return func(e *encState, p unsafe.Pointer) error {
			if err := e.enter(); err != nil {
				return err
			}
			e.buf = appendHead(e.buf, 0x80, uint64(len(fields)))
			for i := range fields {
				if err := encs[i].fn(e, unsafe.Add(p, fields[i].offset)); err != nil {
					return err
				}
			}
			e.depth--
			return nil
		}
	}
	return func(e *encState, p unsafe.Pointer) error {
		if err := e.enter(); err != nil {
			return err
		}
		order := decl
		switch e.em.opts.Sort {
		case SortLengthFirst:
			order = byLen
		case SortBytewiseLexical:
			order = byBytes
		}
		n := len(fields)
		if si.anyOmit {
			for i := range fields {
				if fields[i].omitEmpty && encs[i].empty(unsafe.Add(p, fields[i].offset)) {
					n--
				}
			}
		}
		e.buf = appendHead(e.buf, 0xa0, uint64(n))
		for _, i := range order {
			f := &fields[i]
			q := unsafe.Add(p, f.offset)
			if f.omitEmpty && encs[i].empty(q) {
				continue
			}
			e.buf = append(e.buf, f.keyBytes...)
			if err := encs[i].fn(e, q); err != nil {
				return err
			}
		}
		e.depth--
		return nil
	}
}

// emptyFn is omitempty's test for a type.
func emptyFn(t reflect.Type) func(p unsafe.Pointer) bool {
	switch t {
	case timeType:
		return func(p unsafe.Pointer) bool { return (*time.Time)(p).IsZero() }
	case bigIntType:
		return func(p unsafe.Pointer) bool { return false }
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(p unsafe.Pointer) bool { return !*(*bool)(p) }
	case reflect.String:
		return func(p unsafe.Pointer) bool { return len(*(*string)(p)) == 0 }
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*sliceHeader)(p).len == 0 }
	case reflect.Pointer:
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	case reflect.Map:
		return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().Len() == 0 }
	case reflect.Array:
		n := t.Len()
		return func(p unsafe.Pointer) bool { return n == 0 }
	case reflect.Struct:
		si := parseStruct(t)
		return func(p unsafe.Pointer) bool {
			for i := range si.fields {
				f := &si.fields[i]
				if !f.omitEmpty || !emptyFn(f.typ)(unsafe.Add(p, f.offset)) {
					return false
				}
			}
			return true
		}
	}
	return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsZero() }
}
