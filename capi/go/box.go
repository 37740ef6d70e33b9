package cborfast

import "unsafe"

// Decoding into `any` boxes every number and string in an interface, which
// costs Go an allocation each (runtime.convT64, convTstring). boxer hands
// out interface values whose data words point into slabs instead: one
// allocation per slabSize values, and one per strArena bytes of strings.
// The values are never written again, so sharing a slab is invisible to the
// caller (it only keeps the slab alive as long as one of its values is).

const (
	slabSize = 256
	strArena = 16 << 10
)

type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

func typeWord(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

var (
	u64Type = typeWord(uint64(0))
	i64Type = typeWord(int64(0))
	f64Type = typeWord(float64(0))
	strType = typeWord("")
	arrType = typeWord([]any(nil))
	bytType = typeWord([]byte(nil))
)

func makeAny(typ, data unsafe.Pointer) (v any) {
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = typ, data
	return v
}

type boxer struct {
	u64   []uint64
	i64   []int64
	f64   []float64
	strs  []string
	arena []byte
	arrs  []any
	hdrs  [][]any
	bhdrs [][]byte
	// keys: text map keys boxed lately, by a hash of their bytes (see
	// key); nil for the first 64 keys (counted in nkeys).
	keys  *[keySlots]*string
	nkeys int
	// The capacities of new slabs, array slabs and arena chunks (sized):
	// the input's bytes bound what one call can need (each value takes a
	// byte of it at least), so a small message kept as a value keeps little
	// (a whole 16 KiB arena and 4 KiB slabs each, before). Fields, not a
	// call at each refill: that made the boxing functions too large for
	// Go's inliner (+3 % instructions per cose_20k record).
	slabCap, arrCap, arenaCap int
}

// sized sets the capacities for an input of n bytes.
func (b *boxer) sized(n int) {
	n = max(n, 1)
	b.slabCap, b.arrCap, b.arenaCap = min(n, slabSize), min(n, 4*slabSize), min(n, strArena-64)+64
}

// The map key cache has 2^keyBits slots: replaying the corpus' key
// sequences through this hash, twitter's 94 distinct keys hit 88 % of the
// time in 256 slots (47 % in 64), citm_catalog's 321 (keys and ids) 99 %.
const (
	keyBits  = 8
	keySlots = 1 << keyBits
)

// key boxes a text map key. Maps of one shape repeat their keys (citm's
// 10,937 maps have 14 key sequences), so a key equal to the one boxed last
// in its slot shares its string and box: no copy, no slab slot. Sharing is
// invisible, Go strings being immutable.
func (b *boxer) key(s []byte) any {
	if len(s) == 0 || len(s) > 32 {
		return b.string(s)
	}
	if b.keys == nil {
		// Small values do not pay for the cache.
		if b.nkeys++; b.nkeys < 64 {
			return b.string(s)
		}
		b.keys = new([keySlots]*string)
	}
	n := len(s)
	h := (uint32(n) | uint32(s[0])<<8 | uint32(s[n-1])<<16 | uint32(s[n>>1])<<24) * 0x9e3779b1 >> (32 - keyBits)
	if p := b.keys[h]; p != nil && len(*p) == n {
		// Equal? By overlapping word loads, without memequal's call (it
		// and the spills around it were a third of key's instructions).
		x, y := unsafe.Pointer(unsafe.StringData(*p)), unsafe.Pointer(&s[0])
		var eq bool
		switch {
		case n >= 8:
			eq = *(*uint64)(x) == *(*uint64)(y) && *(*uint64)(unsafe.Add(x, n-8)) == *(*uint64)(unsafe.Add(y, n-8)) &&
				(n <= 16 || *(*uint64)(unsafe.Add(x, 8)) == *(*uint64)(unsafe.Add(y, 8)) &&
					*(*uint64)(unsafe.Add(x, n-16)) == *(*uint64)(unsafe.Add(y, n-16)))
		case n >= 4:
			eq = *(*uint32)(x) == *(*uint32)(y) && *(*uint32)(unsafe.Add(x, n-4)) == *(*uint32)(unsafe.Add(y, n-4))
		default: // 1..3: the first, middle and last bytes
			eq = *(*byte)(x) == *(*byte)(y) && *(*byte)(unsafe.Add(x, n/2)) == *(*byte)(unsafe.Add(y, n/2)) &&
				*(*byte)(unsafe.Add(x, n-1)) == *(*byte)(unsafe.Add(y, n-1))
		}
		if eq {
			return makeAny(strType, unsafe.Pointer(p))
		}
	}
	v := b.string(s)
	b.keys[h] = (*string)((*eface)(unsafe.Pointer(&v)).data)
	return v
}

// emptyArray is an empty []any, boxed once: a header of capacity 0 is the
// same for every empty array (an append by the caller allocates), so they
// share it instead of a slab slot and its write each (citm_catalog has
// 8,695).
var emptyArray any = []any{}

// slice boxes an []any (its header would be an allocation of its own).
func (b *boxer) slice(a []any) any {
	if cap(a) == 0 {
		return emptyArray
	}
	if len(b.hdrs) == cap(b.hdrs) {
		b.hdrs = make([][]any, 0, b.slabCap)
	}
	b.hdrs = append(b.hdrs, a)
	return makeAny(arrType, unsafe.Pointer(&b.hdrs[len(b.hdrs)-1]))
}

// byteSlice boxes a copy of s: one allocation per strArena bytes instead
// of two each (the copy and runtime.convTslice's header). A short one is
// copied into the arena behind its header (see withHeader); others have
// their header in a slab.
func (b *boxer) byteSlice(s []byte) any {
	if n := len(s); n > 0 && n <= strArena/8 {
		p, data := b.withHeader(s, 3)
		h := (*[3]uintptr)(p)
		h[0], h[1], h[2] = uintptr(data), uintptr(n), uintptr(n)
		return makeAny(bytType, p)
	}
	c := []byte{} // non-nil when empty, as a fresh copy would be
	if len(s) > 0 {
		c = b.bytes(s)
	}
	if len(b.bhdrs) == cap(b.bhdrs) {
		b.bhdrs = make([][]byte, 0, b.slabCap)
	}
	b.bhdrs = append(b.bhdrs, c)
	return makeAny(bytType, unsafe.Pointer(&b.bhdrs[len(b.bhdrs)-1]))
}

func (b *boxer) uint64(x uint64) any {
	if x < 256 {
		return makeAny(u64Type, unsafe.Pointer(&smallUints[x]))
	}
	if len(b.u64) == cap(b.u64) {
		b.u64 = make([]uint64, 0, b.slabCap)
	}
	b.u64 = append(b.u64, x)
	return makeAny(u64Type, unsafe.Pointer(&b.u64[len(b.u64)-1]))
}

// smallUints and smallNegatives hold 0 .. 255 and -1 .. -256, boxed
// without a slab slot or a call into the runtime.
var (
	smallUints = func() (a [256]uint64) {
		for i := range a {
			a[i] = uint64(i)
		}
		return a
	}()
	smallNegatives = func() (a [256]int64) {
		for i := range a {
			a[i] = -1 - int64(i)
		}
		return a
	}()
)

func (b *boxer) int64(x int64) any {
	if x < 0 && x >= -256 {
		return makeAny(i64Type, unsafe.Pointer(&smallNegatives[-1-x]))
	}
	if len(b.i64) == cap(b.i64) {
		b.i64 = make([]int64, 0, b.slabCap)
	}
	b.i64 = append(b.i64, x)
	return makeAny(i64Type, unsafe.Pointer(&b.i64[len(b.i64)-1]))
}

func (b *boxer) float64(x float64) any {
	if len(b.f64) == cap(b.f64) {
		b.f64 = make([]float64, 0, b.slabCap)
	}
	b.f64 = append(b.f64, x)
	return makeAny(f64Type, unsafe.Pointer(&b.f64[len(b.f64)-1]))
}

// string copies s into the arena, behind its header when short (see
// withHeader; long strings get their own copy).
func (b *boxer) string(s []byte) any {
	if n := len(s); n > 0 && n <= strArena/8 {
		p, data := b.withHeader(s, 2)
		h := (*[2]uintptr)(p)
		h[0], h[1] = uintptr(data), uintptr(n)
		return makeAny(strType, p)
	}
	str := b.str(s)
	if len(b.strs) == cap(b.strs) {
		b.strs = make([]string, 0, b.slabCap)
	}
	b.strs = append(b.strs, str)
	return makeAny(strType, unsafe.Pointer(&b.strs[len(b.strs)-1]))
}

// array is an empty []any with room for n items: small ones are carved
// from a shared slab (capacity capped, so an append by the caller copies
// instead of writing into a neighbour).
func (b *boxer) array(n int) []any {
	if n == 0 {
		return []any{} // non-nil, no call (citm_catalog has 8,695 empty arrays)
	}
	if n > 64 {
		return make([]any, 0, n)
	}
	if cap(b.arrs)-len(b.arrs) < n {
		b.arrs = make([]any, 0, b.arrCap)
	}
	k := len(b.arrs)
	b.arrs = b.arrs[:k+n]
	return b.arrs[k : k : k+n]
}

// withHeader copies s (at most strArena/8 bytes) into the arena behind
// words header words for the caller to fill as its Go header (a string's
// or a slice's, whose data word is data) and box: an interface whose data
// word points at it. The header's pointer is stored as a uintptr into the
// pointer-free arena, so it costs no write barrier and no slab slot, and
// the collector does not see it. That is safe because it points into the
// same chunk as the header: whatever reaches the header (the interface)
// keeps the chunk, and so the bytes, alive; a header copied out of it
// (x := v.([]byte)) is an ordinary one the collector sees.
func (b *boxer) withHeader(s []byte, words int) (h, data unsafe.Pointer) {
	k := (len(b.arena) + 7) &^ 7 // (the chunk is 8-aligned)
	end := k + 8*words + len(s)
	if end > cap(b.arena) {
		b.arena = make([]byte, 0, b.arenaCap)
		k, end = 0, 8*words+len(s)
	}
	b.arena = b.arena[:end] // (a reslice in place: no pointer written)
	base := unsafe.Pointer(unsafe.SliceData(b.arena))
	data = unsafe.Add(base, k+8*words)
	copy(unsafe.Slice((*byte)(data), len(s)), s)
	return unsafe.Add(base, k), data
}

// bytes is a copy of s in the arena, its capacity capped at its length (an
// append by the caller copies instead of writing into a neighbour); long
// ones get their own allocation.
func (b *boxer) bytes(s []byte) []byte {
	if len(s) > strArena/8 {
		out := make([]byte, len(s))
		copy(out, s)
		return out
	}
	if cap(b.arena)-len(b.arena) < len(s) {
		b.arena = make([]byte, 0, b.arenaCap)
	}
	n := len(b.arena)
	b.arena = b.arena[:n+len(s)] // (in place: no pointer written, no barrier)
	copy(b.arena[n:], s)
	return b.arena[n : n+len(s) : n+len(s)]
}

// str is a string with the content of s, from the arena when short.
func (b *boxer) str(s []byte) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > strArena/8 {
		return string(s)
	}
	c := b.bytes(s)
	return unsafe.String(&c[0], len(c))
}
