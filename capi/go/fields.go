package cborfast

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// field is one encoded field of a struct, from its `cbor:"..."` tag the way
// fxamacker/cbor reads it: `cbor:"name"`, `cbor:"-"` (skipped),
// `cbor:"7,keyasint"` (the key is the integer 7), `cbor:",omitempty"`, and
// `cbor:",toarray"` on a blank `_ struct{}` field (the struct is an array of
// its fields in order). Without a cbor tag the `json` tag's name is used, as
// fxamacker does. Embedded structs without a name, and embedded pointers to
// structs, have their fields promoted (Go's rules: the shallower field wins,
// equal depths cancel out). A field behind an embedded pointer is left out
// when encoding while the pointer is nil (encoding/json's rule), and
// decoding it allocates the struct pointed to (as fxamacker does).
type field struct {
	name      string
	keyInt    int64
	isInt     bool
	omitEmpty bool
	omitZero  bool    // `omitzero`: left out when zero (Go 1.24 encoding/json's rule, as fxamacker)
	offset    uintptr // from the start of the outer struct (through embedded structs), or of the struct its last hop points to (structInfo.paths)
	typ       reflect.Type
	index     []int
	keyBytes  []byte // the encoded key (the struct encoder's plans: encField)
	tagged    bool
	prim      uint8 // primString... for the types the struct loops handle inline
	empty     uint8 // emptyWord...: omitempty's test without a call (emptyCall: emptyFn)
}

// omits: the field has omitempty or omitzero.
func (f *field) omits() bool { return f.omitEmpty || f.omitZero }

// zeroFn is omitzero's test for a type, Go 1.24 encoding/json's (and
// fxamacker's): the type's IsZero() bool method where it has one (nil
// pointers and interfaces are zero without a call), else reflect's IsZero.
func zeroFn(t reflect.Type) func(p unsafe.Pointer) bool {
	isZeroer := isZeroerType
	switch {
	case (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && t.Implements(isZeroer):
		return func(p unsafe.Pointer) bool {
			v := reflect.NewAt(t, p).Elem()
			if v.IsNil() {
				return true
			}
			if t.Kind() == reflect.Interface {
				if e := v.Elem(); e.Kind() == reflect.Pointer && e.IsNil() {
					return true
				}
			}
			return v.Interface().(interface{ IsZero() bool }).IsZero()
		}
	case t.Kind() != reflect.Interface && (t.Implements(isZeroer) || reflect.PointerTo(t).Implements(isZeroer)):
		return func(p unsafe.Pointer) bool {
			return reflect.NewAt(t, p).Interface().(interface{ IsZero() bool }).IsZero()
		}
	}
	return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsZero() }
}

// Field types the struct encoder and decoder handle without a call (exact
// types only: named ones may have methods).
const (
	primNone uint8 = iota
	primString
	primInt
	primInt64
	primUint64
	primBool
	primFloat64
	primBytes
)

// How omitempty tests a field: emptyWord, the 8 bytes at it are zero
// (64-bit integers, pointers); emptyLen, the word after (a string's or a
// slice's length); emptyCall, emptyFn's function.
const (
	emptyCall uint8 = iota
	emptyWord
	emptyLen
)

// emptyKind is how omitempty tests a value of type t (see emptyFn).
func emptyKind(t reflect.Type) uint8 {
	if t == timeType || t == bigIntType || isBinaryMarshaler(t) || neverEmpty(t) {
		return emptyCall
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uintptr, reflect.Pointer:
		if t.Size() == 8 {
			return emptyWord
		}
	case reflect.String, reflect.Slice:
		return emptyLen
	}
	return emptyCall
}

var primTypes = map[reflect.Type]uint8{
	reflect.TypeFor[string]():  primString,
	reflect.TypeFor[int]():     primInt,
	reflect.TypeFor[int64]():   primInt64,
	reflect.TypeFor[uint64]():  primUint64,
	reflect.TypeFor[bool]():    primBool,
	reflect.TypeFor[float64](): primFloat64,
	reflect.TypeFor[[]byte]():  primBytes,
}

type structInfo struct {
	// err: the struct cannot be encoded or decoded (a keyasint field whose
	// name is not an integer), as fxamacker refuses it.
	err     error
	fields  []field
	toArray bool
	// toIndefArray: `toindefarray` (fxamacker v2.10): encoded as an
	// indefinite-length array (ToIndefArrayStructTagAllowed), decoded as
	// toarray is.
	toIndefArray bool
	byName       map[string]int
	byInt        map[int64]int
	anyOmit      bool
	// paths[i]: the embedded pointers on the way to fields[i], outermost
	// first (nil for a field reached by its offset alone); paths is nil when
	// no field is behind one. Kept out of field: a larger field made the
	// decoder's loops 3 % slower (twitter, callgrind).
	paths [][]hop
}

func parseStruct(t reflect.Type) *structInfo {
	si := &structInfo{}
	type queued struct {
		t      reflect.Type
		offset uintptr
		index  []int
		hops   []hop
		// mult: how many times t is embedded at this depth. It is walked
		// once; with more than one, its fields conflict with themselves and
		// are dropped (encoding/json's rule, fxamacker's).
		mult int
	}
	var all []field
	var allHops [][]hop // all[i]'s path
	// toarray / toindefarray: options of the `_` field's cbor tag, the one
	// reflect's FieldByName finds (promoted from an embedded struct too), as
	// fxamacker reads them; exact option names.
	if sf, ok := t.FieldByName("_"); ok {
		if tag := sf.Tag.Get("cbor"); tag != "-" {
			_, opts, _ := strings.Cut(tag, ",")
			for _, o := range strings.Split(opts, ",") {
				switch o {
				case "toarray":
					si.toArray = true
				case "toindefarray":
					si.toArray, si.toIndefArray = true, true
				}
			}
		}
	}
	level := []queued{{t, 0, nil, nil, 1}}
	seen := map[reflect.Type]bool{}
	depthOf := map[string]int{}
	counts := map[string]int{}
	tagged := map[string]int{} // of counts, the fields named by their tag
	for depth := 0; len(level) > 0; depth++ {
		var next []queued
		queue := func(n queued) {
			for k := range next {
				if next[k].t == n.t {
					next[k].mult++
					return
				}
			}
			next = append(next, n)
		}
		for _, q := range level {
			if seen[q.t] {
				continue
			}
			seen[q.t] = true
			for i := 0; i < q.t.NumField(); i++ {
				sf := q.t.Field(i)
				tag, hasTag := sf.Tag.Lookup("cbor")
				if !hasTag {
					tag = sf.Tag.Get("json")
				}
				if sf.Name == "_" {
					continue // (its options: below, as fxamacker reads them)
				}
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				index := append(append([]int{}, q.index...), i)
				if sf.Anonymous && name == "" {
					ft := sf.Type
					if ft.Kind() == reflect.Struct {
						queue(queued{ft, q.offset + sf.Offset, index, q.hops, 1})
						continue
					}
					if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
						// Its fields are reached through the pointer.
						hops := append(append([]hop{}, q.hops...), hop{q.offset + sf.Offset, ft.Elem()})
						queue(queued{ft.Elem(), 0, index, hops, 1})
						continue
					}
				}
				if !sf.IsExported() {
					continue
				}
				f := field{name: name, offset: q.offset + sf.Offset, typ: sf.Type, index: index, tagged: name != ""}
				if f.name == "" {
					f.name = sf.Name
				}
				for _, o := range strings.Split(opts, ",") {
					switch o {
					case "omitempty":
						f.omitEmpty = true
					case "omitzero":
						f.omitZero = true
					case "keyasint":
						n, err := strconv.ParseInt(f.name, 10, 64)
						if err == nil {
							f.keyInt, f.isInt = n, true
						} else if si.err == nil {
							si.err = fmt.Errorf("cborfast: failed to parse field name %q of %v to int (%v)", f.name, t, err)
						}
					}
				}
				key := f.name
				if f.isInt {
					key = "\x00int:" + strconv.FormatInt(f.keyInt, 10)
				}
				if d, ok := depthOf[key]; ok && d < depth {
					continue // a shallower field of that name hides it
				}
				depthOf[key] = depth
				n := min(q.mult, 2) // (a type embedded twice conflicts with itself)
				counts[key] += n
				if f.tagged {
					tagged[key] += n
				}
				all = append(all, f)
				allHops = append(allHops, q.hops)
			}
		}
		level = next
	}
	pathOf := map[string][]hop{} // by index path, unique per field
	for i, f := range all {
		key := f.name
		if f.isInt {
			key = "\x00int:" + strconv.FormatInt(f.keyInt, 10)
		}
		if counts[key] > 1 && (!f.tagged || tagged[key] != 1) {
			// Equal depth: the one named by its tag wins, else all are
			// dropped (encoding/json's rule, fxamacker's).
			continue
		}
		if f.isInt {
			f.keyBytes = appendInt(nil, f.keyInt)
		} else {
			f.keyBytes = appendHead(nil, 0x60, uint64(len(f.name)))
			f.keyBytes = append(f.keyBytes, f.name...)
		}
		if f.omits() || allHops[i] != nil {
			// (a field behind a nil embedded pointer is left out)
			si.anyOmit = true
		}
		if allHops[i] != nil {
			pathOf[fmt.Sprint(f.index)] = allHops[i]
		}
		f.prim = primTypes[f.typ]
		f.empty = emptyKind(f.typ)
		if f.omitZero {
			f.empty = emptyCall // the field's encoder tests both (structEnc)
		}
		si.fields = append(si.fields, f)
	}
	// Fields in declaration order (index paths), as encoding/json writes them.
	sortFields(si.fields)
	if len(pathOf) > 0 {
		si.paths = make([][]hop, len(si.fields))
		for i := range si.fields {
			si.paths[i] = pathOf[fmt.Sprint(si.fields[i].index)]
		}
	}
	si.byName = make(map[string]int, len(si.fields))
	si.byInt = map[int64]int{}
	for i, f := range si.fields {
		if f.isInt {
			si.byInt[f.keyInt] = i
		} else {
			si.byName[f.name] = i
		}
	}
	return si
}

// hop is an embedded pointer to a struct on the way to a promoted field: its
// offset in the struct before it, and the struct type it points to.
type hop struct {
	offset uintptr
	elem   reflect.Type
}

// addr is the address of the field at offset behind path in the struct at
// p; nil where one of the embedded pointers is nil (encoding leaves the
// field out).
func addr(p unsafe.Pointer, path []hop, offset uintptr) unsafe.Pointer {
	for _, h := range path {
		if p = *(*unsafe.Pointer)(unsafe.Add(p, h.offset)); p == nil {
			return nil
		}
	}
	return unsafe.Add(p, offset)
}

// addrAlloc is addr for decoding: a nil embedded pointer on the way gets a
// new zero struct.
func addrAlloc(p unsafe.Pointer, path []hop, offset uintptr) unsafe.Pointer {
	for _, h := range path {
		pp := (*unsafe.Pointer)(unsafe.Add(p, h.offset))
		if *pp == nil {
			*pp = reflect.New(h.elem).UnsafePointer()
		}
		p = *pp
	}
	return unsafe.Add(p, offset)
}

// path is fields[i]'s path (nil: reached by its offset alone).
func (si *structInfo) path(i int) []hop {
	if si.paths == nil {
		return nil
	}
	return si.paths[i]
}

func sortFields(fs []field) {
	less := func(a, b []int) bool {
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return len(a) < len(b)
	}
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && less(fs[j].index, fs[j-1].index); j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

// foldIndex finds a field whose name equals s ignoring case (fxamacker's
// default FieldNameMatchingPreferCaseSensitive, after the exact match).
func (si *structInfo) foldIndex(s []byte) int {
	for i := range si.fields {
		f := &si.fields[i]
		if !f.isInt && len(f.name) == len(s) && strings.EqualFold(f.name, string(s)) {
			return i
		}
	}
	return -1
}
