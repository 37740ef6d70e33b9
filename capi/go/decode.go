package cborfast

/*
#include "route.h"
*/
import "C"

import (
	"math"
	"math/big"
	"reflect"
	"unsafe"
)

// DecodeOptions are the limits and checks for Decode, NewSequence and
// NewReader. The zero value gives the library's defaults: no strict checks,
// MaxDepth 512, DefaultMaxContainerItems and DefaultMaxItems (since 0.5;
// math.MaxUint64 lifts either), no string limit. Each failure is an *Error
// whose Code names it (see the Err sentinels), at the offset the library
// reports.
type DecodeOptions struct {
	// MaxDepth is the most containers and tags that may be open at once;
	// 0 means 512. Decoding never recurses, so large values are safe.
	MaxDepth int
	// ValidateUTF8 rejects text strings that are not valid UTF-8.
	ValidateUTF8 bool
	// RejectDuplicateKeys rejects a map key equal by value to an earlier key
	// of the same map (ErrDuplicateKey at the second key's head).
	RejectDuplicateKeys bool
	// Deterministic requires RFC 8949 core deterministic encoding (section
	// 4.2.1): ErrNotPreferred (a head or float longer than needed),
	// ErrIndefiniteLength, ErrUnsortedKeys (keys not in bytewise order of
	// their encodings) or ErrDuplicateKey (an equal key).
	Deterministic bool
	// MaxStringLength is the most bytes in one string, chunk or joined
	// indefinite string (ErrStringTooLong); 0 means no limit.
	MaxStringLength uint64
	// MaxContainerItems is the most items of one array or pairs of one map
	// (ErrContainerTooLarge at its head); 0 means DefaultMaxContainerItems
	// (2^24; before 0.5, no limit), math.MaxUint64 no limit.
	MaxContainerItems uint64
	// MaxItems is the most data items (keys, values, tags, chunks) of one
	// item, or for a Reader since its start (ErrTooManyItems); 0 means
	// DefaultMaxItems (2^28; before 0.5, no limit), math.MaxUint64 no limit.
	MaxItems uint64
	// MaxMemory bounds the input Decode and NewSequence accept, in bytes
	// (ErrMemoryBudget at offset 0; the values built hold at least its
	// strings); 0 means no limit. Values are read through the library's
	// reader, which builds no document. NewReader rejects it.
	MaxMemory uint64
}

// readerOpts are the C reader options for these DecodeOptions.
func (o DecodeOptions) readerOpts() *C.cf_reader_opts {
	r := defaultReaderOpts
	if o.MaxDepth > 0 {
		r.max_depth = C.uint64_t(o.maxDepth())
	}
	if o.ValidateUTF8 {
		r.validate_utf8 = 1
	}
	if o.RejectDuplicateKeys {
		r.reject_duplicate_keys = 1
	}
	if o.Deterministic {
		r.deterministic = 1
	}
	if o.MaxStringLength != 0 {
		r.max_string_length = C.uint64_t(o.MaxStringLength)
	}
	if o.MaxContainerItems != 0 {
		r.max_container_items = C.uint64_t(o.MaxContainerItems)
	}
	if o.MaxItems != 0 {
		r.max_items = C.uint64_t(o.MaxItems)
	}
	return &r
}

func (o DecodeOptions) maxDepth() C.uint32_t {
	if o.MaxDepth <= 0 {
		return 0
	}
	if uint64(o.MaxDepth) > math.MaxUint32 {
		return math.MaxUint32
	}
	return C.uint32_t(o.MaxDepth)
}

// Decode decodes the one CBOR data item in data with default options.
// Bytes after the item are an error (status "trailing_bytes"); use Sequence
// for several items. Empty input is "truncated" at offset 0.
func Decode(data []byte) (any, error) { return DecodeOptions{}.Decode(data) }

// Decode decodes the one CBOR data item in data with these options.
func (o DecodeOptions) Decode(data []byte) (any, error) {
	if o.MaxMemory != 0 && uint64(len(data)) > o.MaxMemory {
		// The values built hold at least the input's strings; the library's
		// document budget is not involved (no document is built), so the
		// budget is checked against the input size.
		return nil, &Error{Status: ErrMemoryBudget.Status, Code: CodeMemoryBudget, Message: ErrMemoryBudget.Message}
	}
	var t tokens
	if err := t.open(data, o.readerOpts()); err != nil {
		return nil, err
	}
	defer t.close()
	v, end, err := buildAny(&t, nil, flavorClassic, nil)
	if err != nil {
		return nil, err
	}
	if end != len(data) {
		return nil, trailingBytes(end)
	}
	return v, nil
}

// flavor selects the Go types buildAny makes.
type flavor uint8

const (
	// flavorClassic: Decode's types (Map, Tag, *big.Int, Simple, Undefined).
	flavorClassic flavor = iota
	// flavorAny: fxamacker/cbor's types for `any` (map[any]any, Tag,
	// big.Int, SimpleValue, time.Time for tags 0 and 1, nil for undefined).
	flavorAny
)

// frame is a container being filled while building values.
type frame struct {
	kind   uint8 // C.CBOR_FAST_TYPE_ARRAY, _MAP, _TAG, _BYTES or _TEXT (indefinite)
	indef  bool
	tag    uint64
	off    int // offset of the head
	array  []any
	m      Map
	mm     map[any]any
	buf    []byte
	key    any
	hasKey bool
	later  bool // a tag 21-23 read as its content (ByteStringToStringAllowedWithExpectedLaterEncoding)
	// held: input bytes the room reserved for this array or map stands for
	// (an element needs one, a pair two), counted in tokens.held.
	held uint64
	// keyOff, keyDepth: where the key was (an invalid key's error,
	// DupMapKeyEnforcedAPF)
	keyOff, keyDepth int
}

// push opens a frame. A slot within the capacity is reused as it is, its
// flags reset, instead of zeroed (append(stack, frame{})): zeroing its
// pointer words is a bulk write barrier while the collector marks, which
// decoding into `any` keeps it doing (canada: 10 % of the time, wbZero).
// Each kind sets the fields it reads when pushed (kind, off, array, m, mm,
// buf, tag) or before reading them (key, keyOff, keyDepth); a popped
// frame's stale pointers live until the decode returns.
func push(stack []frame) []frame {
	if len(stack) == cap(stack) {
		return append(stack, frame{})
	}
	stack = stack[:len(stack)+1]
	f := &stack[len(stack)-1]
	f.indef, f.hasKey, f.later, f.held = false, false, false, 0
	return stack
}

// buildAny reads one value as Go values with an explicit stack (depth costs
// heap, not goroutine stack). first is its head when already read. It
// returns the offset just past the value.
func buildAny(t *tokens, first *citem, fl flavor, lim *limits) (any, int, error) {
	// The frames of the last call that ended well, cleared (a value built
	// per element of a []any made its stack afresh: 4,000 elements 30 deep,
	// 47 MB). Taken out while in use: a registered tag's type may decode an
	// `any` of its own meanwhile. The frames a call used are the ones
	// from the first whose kind is set (every push sets it; cleared, it is 0).
	stack := t.frames[:0]
	t.frames = nil
	for {
		it := first
		first = nil
		if it == nil {
			// t.next by hand: buildAny is too big for the compiler to
			// inline it.
			if t.i < len(t.batch) {
				it = &t.batch[t.i]
				t.i++
			} else {
				var err error
				if it, err = t.refill(); err != nil {
					return nil, 0, err
				}
			}
		}
		var v any
		// Where v starts and its depth (a map key's, for DupMapKeyEnforcedAPF).
		vstart, vdepth := int(it.offset), int(it.depth)
		switch it._type {
		case C.CBOR_FAST_TYPE_UINT:
			v = t.box.uint64(uint64(it.value))
		case C.CBOR_FAST_TYPE_NEGATIVE:
			if it.value < 256 {
				v = makeAny(i64Type, unsafe.Pointer(&smallNegatives[it.value])) // (box.int64 is not inlined)
			} else if it.value <= math.MaxInt64 {
				v = t.box.int64(-1 - int64(it.value))
			} else {
				v = negative(uint64(it.value), fl)
			}
		case C.CBOR_FAST_TYPE_BYTES, C.CBOR_FAST_TYPE_TEXT:
			if it.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0 {
				stack = push(stack)
				f := &stack[len(stack)-1]
				f.kind, f.indef, f.off, f.buf = uint8(it._type), true, int(it.offset), []byte{}
				continue
			}
			if top := len(stack) - 1; top >= 0 && stack[top].indef &&
				(stack[top].kind == C.CBOR_FAST_TYPE_BYTES || stack[top].kind == C.CBOR_FAST_TYPE_TEXT) {
				stack[top].buf = append(stack[top].buf, t.bytes(it)...)
				continue
			}
			if it._type == C.CBOR_FAST_TYPE_TEXT {
				if top := len(stack) - 1; top >= 0 && stack[top].kind == C.CBOR_FAST_TYPE_MAP && !stack[top].hasKey {
					v = t.box.key(t.bytes(it))
				} else {
					v = t.box.string(t.bytes(it))
				}
			} else if fl == flavorAny && lim != nil && lim.defBytes != nil && !bignumContent(stack) {
				v = lim.bytesValue(t, stack, t.bytes(it))
			} else {
				v = t.box.byteSlice(t.bytes(it))
			}
		case C.CBOR_FAST_TYPE_ARRAY:
			indef := it.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0
			stack = push(stack)
			f := &stack[len(stack)-1]
			f.kind, f.indef, f.off = C.CBOR_FAST_TYPE_ARRAY, indef, int(it.offset)
			r := min(uint64(it.value), roomAfter(t.remaining(it), t.held), 1<<16)
			f.held, t.held = r, t.held+r
			a := t.box.array(int(r))
			// Leading floats and unsigned integers go straight into the
			// new array (canada's coordinates, citm's id lists): no trip
			// through the dispatch and the frame per element. The item
			// that ends the run takes the general path.
			for len(a) < cap(a) && t.i < len(t.batch) {
				e := &t.batch[t.i]
				if e._type == C.CBOR_FAST_TYPE_FLOAT {
					a = append(a, t.box.float64(float64(e.float_value)))
				} else if e._type == C.CBOR_FAST_TYPE_UINT {
					a = append(a, t.box.uint64(uint64(e.value)))
				} else {
					break
				}
				t.i++
			}
			f.array = a
			continue
		case C.CBOR_FAST_TYPE_MAP:
			if fl == flavorAny && lim != nil && lim.defMap != nil {
				// DecOptions.DefaultMapType: the map is decoded as that
				// type by the typed decoder (which recurses, bounded by
				// MaxNestedLevels).
				d := (*decState)(unsafe.Pointer(t)) // t is the first field of a decState
				rv := reflect.New(lim.defMap)
				if err := decoderFor(lim.defMap).fn(d, it, rv.UnsafePointer()); err != nil {
					return nil, 0, err
				}
				v = rv.Elem().Interface()
				break
			}
			indef := it.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0
			stack = push(stack)
			f := &stack[len(stack)-1]
			f.kind, f.indef, f.off = C.CBOR_FAST_TYPE_MAP, indef, int(it.offset)
			r := min(uint64(it.value), roomAfter(t.remaining(it), t.held)/2, 1<<16)
			f.held, t.held = 2*r, t.held+2*r
			n := int(r)
			if fl == flavorClassic {
				f.m = make(Map, 0, n)
			} else {
				f.mm = make(map[any]any, n)
				if lim.scalarPairs() {
					t.mapScalars(f.mm)
				}
			}
			continue
		case C.CBOR_FAST_TYPE_TAG:
			if fl == flavorAny && it.value == selfDescribedTag &&
				(len(stack) == 0 || stack[len(stack)-1].kind != C.CBOR_FAST_TYPE_TAG) {
				// Self-described CBOR where a value starts (not as another
				// tag's content): passed over, as fxamacker does.
				continue
			}
			if fl == flavorAny && lim != nil && lim.later && it.value >= 21 && it.value <= 23 &&
				(len(stack) == 0 || stack[len(stack)-1].kind != C.CBOR_FAST_TYPE_TAG || stack[len(stack)-1].tag > 3) {
				// Expected later encoding: the content is the value, and
				// byte strings inside it may become text (bytesValue). Not
				// as the content of tags 0 to 3, whose content type is
				// checked (as fxamacker: 1(21(0)) is refused).
				stack = push(stack)
				f := &stack[len(stack)-1]
				f.kind, f.tag, f.off, f.later = C.CBOR_FAST_TYPE_TAG, uint64(it.value), int(it.offset), true
				continue
			}
			if fl == flavorAny && lim != nil && lim.tags != nil {
				rv, ok, nums, offs, c, err := anyRegistered(t, it, lim.tags)
				if err != nil {
					return nil, 0, err
				}
				if ok {
					// The tags in front of the registered ones stay Tags
					// around its value.
					for i := range nums {
						stack = push(stack)
						f := &stack[len(stack)-1]
						f.kind, f.tag, f.off = C.CBOR_FAST_TYPE_TAG, nums[i], offs[i]
					}
					v = rv // (its end is not tracked: flavorAny callers do not use it)
					break
				}
				for i := range nums {
					stack = push(stack)
					f := &stack[len(stack)-1]
					f.kind, f.tag, f.off = C.CBOR_FAST_TYPE_TAG, nums[i], offs[i]
				}
				first = c
				continue
			}
			stack = push(stack)
			f := &stack[len(stack)-1]
			f.kind, f.tag, f.off = C.CBOR_FAST_TYPE_TAG, uint64(it.value), int(it.offset)
			continue
		case C.CBOR_FAST_TYPE_SIMPLE:
			if fl == flavorClassic {
				v = Simple(it.value)
			} else {
				v = SimpleValue(it.value)
			}
		case C.CBOR_FAST_TYPE_BOOL:
			v = it.value != 20
		case C.CBOR_FAST_TYPE_NULL:
			v = nil
		case C.CBOR_FAST_TYPE_UNDEFINED:
			if fl == flavorClassic {
				v = Undefined
			}
		case C.CBOR_FAST_TYPE_FLOAT:
			v = t.box.float64(float64(it.float_value))
		case C.CBOR_FAST_TYPE_END:
			f := &stack[len(stack)-1]
			t.held -= f.held
			vstart = f.off
			switch f.kind {
			case C.CBOR_FAST_TYPE_ARRAY:
				v = t.box.slice(f.array)
			case C.CBOR_FAST_TYPE_MAP:
				if fl == flavorClassic {
					v = f.m
				} else {
					v = f.mm
				}
			case C.CBOR_FAST_TYPE_TEXT:
				v = string(f.buf)
			default:
				v = f.buf
				if fl == flavorAny && lim != nil && lim.defBytes != nil && !bignumContent(stack[:len(stack)-1]) {
					v = lim.bytesValue(t, stack[:len(stack)-1], f.buf)
				}
			}
			stack = stack[:len(stack)-1] // a frame pushed later is reset by push
		default:
			return nil, 0, statusError(C.CBOR_FAST_ERR_INTERNAL)
		}
		// Hand v to the innermost open container; a container that is
		// complete becomes the value for the one around it.
		for {
			if len(stack) == 0 {
				used := stack[:cap(stack)]
				hw := 0
				for hw < len(used) && used[hw].kind != 0 {
					hw++
				}
				clear(used[:hw])
				t.frames = stack
				return v, itemEnd(it), nil // (it is the value's last item)
			}
			f := &stack[len(stack)-1]
			switch f.kind {
			case C.CBOR_FAST_TYPE_ARRAY:
				f.array = append(f.array, v)
			case C.CBOR_FAST_TYPE_MAP:
				if !f.hasKey {
					// (keyOff, keyDepth: for a key Go cannot hash and for
					// DupMapKeyEnforcedAPF.)
					f.key, f.hasKey, f.keyOff, f.keyDepth = v, true, vstart, vdepth
					break
				}
				if fl == flavorClassic {
					f.m = append(f.m, Pair{f.key, v})
				} else {
					k := f.key
					if tw := (*eface)(unsafe.Pointer(&k)).typ; tw != strType && tw != u64Type && tw != i64Type {
						var err error
						if k, err = hashableKey(k, f.keyOff); err != nil {
							return nil, 0, err
						}
					}
					if lim != nil && lim.dupAPF {
						// Keys equal as Go values, as in fxamacker (the
						// library compares them as CBOR).
						if _, ok := f.mm[k]; ok {
							return nil, 0, dupKeyError(f.keyOff, f.keyDepth)
						}
					}
					f.mm[k] = v
					if lim.scalarPairs() {
						t.mapScalars(f.mm)
					}
				}
				// (f.key is not cleared: storing nil into the heap frame is a
				// write barrier while the collector marks; the stale key lives
				// until the decode returns, as a popped frame's pointers do.)
				f.hasKey = false
			default:
				f.key = v
			}
			if f.kind != C.CBOR_FAST_TYPE_TAG {
				break // containers end with their END item
			}
			vstart, vdepth = f.off, vdepth-1
			if f.later {
				v = f.key
			} else {
				var err error
				if v, err = tagValue(f.tag, f.key, f.off, fl); err != nil {
					return nil, 0, err
				}
			}
			stack = stack[:len(stack)-1] // a frame pushed later is reset by push
		}
	}
}

// scalarPairs: whether maps decoded into `any` (flavorAny) may take runs
// of scalar pairs through mapScalars: not for the options that look at each
// key or byte string.
func (l *limits) scalarPairs() bool { return l == nil || !l.dupAPF && l.defBytes == nil }

// mapScalars inserts into m the pairs that follow in the batch while both
// key and value are scalars buildAny would box alike (integers and definite
// text keys; integers, floats, definite strings, booleans and null values),
// and stops at any other item (a container, tag, indefinite string, the
// map's end) or the batch's end, for buildAny's loop to read. Most pairs of
// the COSE records' and citm_catalog's maps are such: each skips the loop's
// dispatch, frame and key bookkeeping twice.
func (t *tokens) mapScalars(m map[any]any) {
	for t.i+1 < len(t.batch) {
		ke, ve := &t.batch[t.i], &t.batch[t.i+1]
		switch ve._type {
		case C.CBOR_FAST_TYPE_UINT, C.CBOR_FAST_TYPE_FLOAT, C.CBOR_FAST_TYPE_BOOL, C.CBOR_FAST_TYPE_NULL:
		case C.CBOR_FAST_TYPE_NEGATIVE:
			if ve.value > math.MaxInt64 {
				return
			}
		case C.CBOR_FAST_TYPE_BYTES, C.CBOR_FAST_TYPE_TEXT:
			if ve.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0 {
				return
			}
		default:
			return
		}
		var k, v any
		switch ke._type {
		case C.CBOR_FAST_TYPE_UINT:
			k = t.box.uint64(uint64(ke.value))
		case C.CBOR_FAST_TYPE_NEGATIVE:
			if ke.value >= 256 {
				return
			}
			k = makeAny(i64Type, unsafe.Pointer(&smallNegatives[ke.value]))
		case C.CBOR_FAST_TYPE_TEXT:
			if ke.flags&C.CBOR_FAST_ITEM_INDEFINITE != 0 {
				return
			}
			k = t.box.key(t.bytes(ke))
		default:
			return
		}
		switch ve._type {
		case C.CBOR_FAST_TYPE_UINT:
			v = t.box.uint64(uint64(ve.value))
		case C.CBOR_FAST_TYPE_NEGATIVE:
			if ve.value < 256 {
				v = makeAny(i64Type, unsafe.Pointer(&smallNegatives[ve.value]))
			} else {
				v = t.box.int64(-1 - int64(ve.value))
			}
		case C.CBOR_FAST_TYPE_BYTES:
			v = t.box.byteSlice(t.bytes(ve))
		case C.CBOR_FAST_TYPE_TEXT:
			v = t.box.string(t.bytes(ve))
		case C.CBOR_FAST_TYPE_FLOAT:
			v = t.box.float64(float64(ve.float_value))
		case C.CBOR_FAST_TYPE_BOOL:
			v = ve.value != 20
		}
		m[k] = v
		t.i += 2
	}
}

var bigOne = big.NewInt(1)

// negative is the integer -1 - n: an int64 when it fits, else a big.Int
// (*big.Int for Decode).
func negative(n uint64, fl flavor) any {
	if n <= math.MaxInt64 {
		return -1 - int64(n)
	}
	z := new(big.Int).SetUint64(n)
	z.Neg(z).Sub(z, bigOne)
	if fl == flavorClassic {
		return z
	}
	return *z
}

// tagValue is a tag's Go value: bignums (tags 2, 3 over a byte string) as
// big integers, times (tags 0, 1) for flavorAny, else a Tag (for flavorAny,
// tags 2 and 3 over anything else are an error).
func tagValue(num uint64, content any, off int, fl flavor) (any, error) {
	switch num {
	case 2, 3:
		b, ok := content.([]byte)
		if !ok {
			if fl == flavorAny { // as fxamacker: not a bignum, and no other tag either
				return nil, &UnmarshalTypeError{CBORType: "tag", GoType: "big.Int", Offset: off,
					Reason: "bignum content is not a byte string"}
			}
			break
		}
		z := new(big.Int).SetBytes(b)
		if num == 3 {
			z.Neg(z).Sub(z, bigOne)
		}
		if fl == flavorClassic {
			return z, nil
		}
		return *z, nil
	case 0, 1:
		if fl == flavorAny {
			tm, err := timeFromContent(num, content)
			if err != nil {
				return nil, &UnmarshalTypeError{CBORType: "tag", GoType: "time.Time", Offset: off, Reason: err.Error()}
			}
			return tm, nil
		}
	}
	return Tag{Number: num, Content: content}, nil
}

// limits are a DecMode's per-type container limits (applied by the library
// and tokens.limitSmaller) and what building values into `any` needs (nil:
// Decode's defaults).
type limits struct {
	maxArray, maxMap uint64
	// For `any` (Unmarshal's tokens only, whose *tokens is the first field
	// of a decState): registered types, DefaultMapType, DefaultByteStringType.
	tags     tagLookup
	defMap   reflect.Type
	defBytes reflect.Type
	// later: ByteStringToStringAllowedWithExpectedLaterEncoding.
	later bool
	// dupAPF: DupMapKeyEnforcedAPF (keys of map[any]any compared as Go
	// values too).
	dupAPF bool
}

// bignumContent: a byte string whose innermost open frame is a tag 2 or 3
// is a bignum's content, kept a []byte for tagValue whatever
// DefaultByteStringType says (a string made the bignum a type error).
func bignumContent(stack []frame) bool {
	top := len(stack) - 1
	return top >= 0 && stack[top].kind == C.CBOR_FAST_TYPE_TAG && (stack[top].tag == 2 || stack[top].tag == 3)
}

// bytesValue is a byte string as DefaultByteStringType (a copy); a string
// kind under a tag 21-23 (the nearest one in stack, else the typed
// decoder's) takes that tag's text encoding.
func (l *limits) bytesValue(t *tokens, stack []frame, b []byte) any {
	if l.defBytes.Kind() == reflect.String {
		if l.later {
			tag := uint64(0)
			for i := len(stack) - 1; i >= 0 && tag == 0; i-- {
				if stack[i].later {
					tag = stack[i].tag
				}
			}
			if d := (*decState)(unsafe.Pointer(t)); tag == 0 && len(d.later) > 0 {
				tag = d.later[len(d.later)-1] // t is the first field of a decState
			}
			if tag != 0 {
				return reflect.ValueOf(laterText(tag, b)).Convert(l.defBytes).Interface()
			}
		}
		return reflect.ValueOf(string(b)).Convert(l.defBytes).Interface()
	}
	c := make([]byte, len(b))
	copy(c, b)
	return reflect.ValueOf(c).Convert(l.defBytes).Interface()
}
