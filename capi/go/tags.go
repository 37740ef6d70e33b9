package cborfast

/*
#include "route.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"
)

// Registered tags (fxamacker/cbor's TagSet): a named Go type registered with
// one or more tag numbers is written with them before its content, and read
// back from them, into its own type and into an `any`.

// DecTagMode says how Unmarshal treats the tag numbers of a registered type.
type DecTagMode int

const (
	// DecTagIgnored: tags before the content are passed over unchecked.
	DecTagIgnored DecTagMode = iota
	// DecTagOptional: the tag numbers are checked when present.
	DecTagOptional
	// DecTagRequired: the tag numbers must be present and match.
	DecTagRequired
)

// TagOptions are the encoding and decoding modes of one registration.
type TagOptions struct {
	DecTag DecTagMode
	EncTag EncTagMode
}

// TagSet is a set of registrations for EncModeWithTags and DecModeWithTags
// (safe for concurrent use).
type TagSet interface {
	// Add registers contentType (a named type, not an interface; a pointer
	// type registers what it points to) with tag number num, or with the
	// nested tags num(nestedNum[0](...)) when nestedNum is given.
	Add(opts TagOptions, contentType reflect.Type, num uint64, nestedNum ...uint64) error
	// Remove drops contentType's registration (no-op for nil or unknown).
	Remove(contentType reflect.Type)
	lookup() tagLookup
}

// WrongTagError is a registered type's content under other tag numbers than
// its registration's (DecTagOptional, DecTagRequired).
type WrongTagError struct {
	RegisteredType   reflect.Type
	RegisteredTagNum []uint64
	TagNum           []uint64
	Offset           int // offset of the first tag's head (an extension)
}

func (e *WrongTagError) Error() string {
	return fmt.Sprintf("cborfast: wrong tag number for %s, got %v, expected %v at offset %d",
		e.RegisteredType, e.TagNum, e.RegisteredTagNum, e.Offset)
}

type tagItem struct {
	t    reflect.Type
	num  []uint64
	opts TagOptions
	head []byte // the tag heads as written
	key  string // string(head): the registry's key by numbers
}

type syncTagSet struct {
	mu    sync.RWMutex
	items map[reflect.Type]*tagItem
}

// NewTagSet returns an empty TagSet.
func NewTagSet() TagSet { return &syncTagSet{items: map[reflect.Type]*tagItem{}} }

var rawMessageType = reflect.TypeFor[RawMessage]()

// anyType is the empty interface's type (an `any` target is built aside).
var anyType = reflect.TypeFor[any]()

func (s *syncTagSet) Add(opts TagOptions, contentType reflect.Type, num uint64, nestedNum ...uint64) error {
	if contentType == nil {
		return errors.New("cborfast: TagSet.Add: nil content type")
	}
	for contentType.Kind() == reflect.Pointer {
		contentType = contentType.Elem()
	}
	if opts.DecTag < DecTagIgnored || opts.DecTag > DecTagRequired || opts.EncTag < EncTagNone || opts.EncTag > EncTagRequired {
		return errors.New("cborfast: TagSet.Add: invalid TagOptions")
	}
	if opts.DecTag == DecTagIgnored && opts.EncTag == EncTagNone {
		return errors.New("cborfast: TagSet.Add: DecTagIgnored with EncTagNone registers nothing")
	}
	switch {
	case contentType.PkgPath() == "" || contentType.Kind() == reflect.Interface:
		return errors.New("cborfast: TagSet.Add: only named non-interface types can be registered, not " + contentType.String())
	case contentType == timeType:
		return errors.New("cborfast: TagSet.Add: time.Time has tags 0 and 1 built in (EncOptions.TimeTag)")
	case contentType == bigIntType, contentType == tagType, contentType == rawMessageType:
		return errors.New("cborfast: TagSet.Add: " + contentType.String() + " cannot be registered")
	}
	switch num {
	case 0, 1, 2, 3:
		return fmt.Errorf("cborfast: TagSet.Add: tag %d is built in (times and bignums)", num)
	case 55799:
		return errors.New("cborfast: TagSet.Add: tag 55799 (self-described CBOR) is built in")
	}
	ti := &tagItem{t: contentType, num: append([]uint64{num}, nestedNum...), opts: opts}
	for _, n := range ti.num {
		ti.head = appendHead(ti.head, 0xc0, n)
	}
	ti.key = string(ti.head)
	s.mu.Lock()
	defer s.mu.Unlock()
	for t, o := range s.items {
		if t == contentType {
			return errors.New("cborfast: TagSet.Add: " + contentType.String() + " is already registered")
		}
		if o.key == ti.key {
			return fmt.Errorf("cborfast: TagSet.Add: tag numbers %v are already registered", ti.num)
		}
	}
	s.items[contentType] = ti
	return nil
}

func (s *syncTagSet) Remove(contentType reflect.Type) {
	if contentType == nil {
		return
	}
	for contentType.Kind() == reflect.Pointer {
		contentType = contentType.Elem()
	}
	s.mu.Lock()
	delete(s.items, contentType)
	s.mu.Unlock()
}

func (s *syncTagSet) lookup() tagLookup { return sharedTags{s} }

// tagLookup finds registrations: by Go type for encoding (EncTag set) and
// decoding (DecTag set), by tag numbers for decoding into `any`.
type tagLookup interface {
	encItem(t reflect.Type) *tagItem
	decItem(t reflect.Type) *tagItem
	decType(key string) *tagItem
}

// frozenTags is a copy taken by EncModeWithTags / DecModeWithTags.
type frozenTags struct {
	enc, dec map[reflect.Type]*tagItem
	byNums   map[string]*tagItem
}

func (f *frozenTags) encItem(t reflect.Type) *tagItem { return f.enc[t] }
func (f *frozenTags) decItem(t reflect.Type) *tagItem { return f.dec[t] }
func (f *frozenTags) decType(k string) *tagItem       { return f.byNums[k] }

func freeze(ts TagSet) (*frozenTags, error) {
	s, ok := ts.(*syncTagSet)
	if !ok || s == nil {
		return nil, errors.New("cborfast: a TagSet from NewTagSet is needed")
	}
	f := &frozenTags{enc: map[reflect.Type]*tagItem{}, dec: map[reflect.Type]*tagItem{},
		byNums: map[string]*tagItem{}}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for t, ti := range s.items {
		if ti.opts.EncTag == EncTagRequired {
			f.enc[t] = ti
		}
		if ti.opts.DecTag != DecTagIgnored {
			f.dec[t] = ti
			f.byNums[ti.key] = ti
		}
	}
	return f, nil
}

// sharedTags reads the TagSet itself (the Shared modes): changes made after
// the mode was created apply.
type sharedTags struct{ s *syncTagSet }

func (s sharedTags) encItem(t reflect.Type) *tagItem {
	s.s.mu.RLock()
	defer s.s.mu.RUnlock()
	if ti := s.s.items[t]; ti != nil && ti.opts.EncTag == EncTagRequired {
		return ti
	}
	return nil
}

func (s sharedTags) decItem(t reflect.Type) *tagItem {
	s.s.mu.RLock()
	defer s.s.mu.RUnlock()
	if ti := s.s.items[t]; ti != nil && ti.opts.DecTag != DecTagIgnored {
		return ti
	}
	return nil
}

func (s sharedTags) decType(k string) *tagItem {
	s.s.mu.RLock()
	defer s.s.mu.RUnlock()
	for _, ti := range s.s.items {
		if ti.key == k && ti.opts.DecTag != DecTagIgnored {
			return ti
		}
	}
	return nil
}

// DecModeWithTags returns a mode that decodes the TagSet's registered types
// (a copy: later changes to tags do not apply).
func (o DecOptions) DecModeWithTags(tags TagSet) (DecMode, error) {
	f, err := freeze(tags)
	if err != nil {
		return nil, err
	}
	return o.decModeTags(f)
}

// DecModeWithSharedTags returns a mode that reads the TagSet at each use.
func (o DecOptions) DecModeWithSharedTags(tags TagSet) (DecMode, error) {
	s, ok := tags.(*syncTagSet)
	if !ok || s == nil {
		return nil, errors.New("cborfast: a TagSet from NewTagSet is needed")
	}
	return o.decModeTags(sharedTags{s})
}

func (o DecOptions) decModeTags(l tagLookup) (DecMode, error) {
	dm, err := o.decMode()
	if err != nil {
		return nil, err
	}
	if o.TagsMd == TagsForbidden {
		return nil, errors.New("cborfast: cannot create a DecMode with a TagSet when TagsMd is TagsForbidden")
	}
	if o.ByteStringToString == ByteStringToStringAllowedWithExpectedLaterEncoding {
		// Tags 21-23 are built in then (as fxamacker checks it, at
		// creation, for registrations of one tag number).
		for _, num := range []uint64{21, 22, 23} {
			if ti := l.decType(string(appendHead(nil, 0xc0, num))); ti != nil {
				return nil, fmt.Errorf("cborfast: ByteStringToStringAllowedWithExpectedLaterEncoding treats tag %d as built in, and the TagSet registers %v for it", num, ti.t)
			}
		}
	}
	dm.tags = l
	lim := *dm.lim
	lim.tags = l
	dm.lim = &lim
	return dm, nil
}

// EncModeWithTags returns a mode that writes the TagSet's registered types
// with their tags (a copy: later changes to tags do not apply).
func (o EncOptions) EncModeWithTags(tags TagSet) (EncMode, error) {
	f, err := freeze(tags)
	if err != nil {
		return nil, err
	}
	return o.encModeTags(f)
}

// EncModeWithSharedTags returns a mode that reads the TagSet at each use.
func (o EncOptions) EncModeWithSharedTags(tags TagSet) (EncMode, error) {
	s, ok := tags.(*syncTagSet)
	if !ok || s == nil {
		return nil, errors.New("cborfast: a TagSet from NewTagSet is needed")
	}
	return o.encModeTags(sharedTags{s})
}

// encModeTags: the mode of EncModeWithTags and EncModeWithSharedTags.
func (o EncOptions) encModeTags(l tagLookup) (EncMode, error) {
	em, err := o.encMode()
	if err != nil {
		return nil, err
	}
	if o.TagsMd == TagsForbidden {
		return nil, errors.New("cborfast: cannot create EncMode with TagSet when TagsMd is TagsForbidden")
	}
	em.tags = l
	return em, nil
}

// registrable reports whether t may be registered (a defined type of a
// package: not int, string, ...), so its plans check the mode's
// registrations; other types' plans have no check at all.
func registrable(t reflect.Type) bool {
	return t.PkgPath() != "" && t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer &&
		t != timeType && t != bigIntType && t != tagType && t != rawMessageType
}

// withEncTags wraps the plan of a registrable type: the tag heads first when
// the mode registers it.
func withEncTags(t reflect.Type, inner encFn) encFn {
	return func(e *encState, b []byte, p unsafe.Pointer) ([]byte, error) {
		if e.em.tags != nil {
			if ti := e.em.tags.encItem(t); ti != nil {
				b = append(b, ti.head...)
			}
		}
		return inner(e, b, p)
	}
}

// withDecTags wraps the plan of a registrable type: the mode's registration
// checks the tags before the content.
func withDecTags(t reflect.Type, inner decFn) decFn {
	return func(d *decState, it *citem, p unsafe.Pointer) error {
		if d.dm.tags != nil {
			if ti := d.dm.tags.decItem(t); ti != nil {
				return d.registered(ti, it, p, inner)
			}
		}
		return inner(d, it, p)
	}
}

func (d *decState) registered(ti *tagItem, it *citem, p unsafe.Pointer, inner decFn) error {
	// self-described CBOR in front is not one of the type's tags (as
	// fxamacker, which passes over it first)
	it, err := d.skipSelfDescribed(it)
	if err != nil {
		return err
	}
	if it._type != C.CBOR_FAST_TYPE_TAG {
		if ti.opts.DecTag == DecTagRequired {
			// As fxamacker: a type error (the value is passed over).
			return d.mismatch(it, ti.t, "expect CBOR tag value")
		}
		return inner(d, it, p)
	}
	off := int(it.offset)
	nums := []uint64{uint64(it.value)}
	c, err := d.t.next()
	for err == nil && c._type == C.CBOR_FAST_TYPE_TAG {
		nums = append(nums, uint64(c.value))
		c, err = d.t.next()
	}
	if err != nil {
		return err
	}
	if !equalNums(nums, ti.num) {
		return &WrongTagError{RegisteredType: ti.t, RegisteredTagNum: append([]uint64{}, ti.num...),
			TagNum: nums, Offset: off}
	}
	return inner(d, c, p)
}

func equalNums(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// anyRegistered reads, for buildAny, the tags starting at it (a tag item):
// the value of the registered type that the innermost of their numbers name
// (the longest such run), decoded from the content, with (ok) the numbers
// and offsets of the tags in front of that run, which stay Tags around the
// value (10(1000([1, 2])) with 1000 registered: Tag{10, the type's value},
// as fxamacker gives it); or (ok false) all the numbers and the content's
// first item to go on with. t must be the tokens of a decState (Unmarshal's).
func anyRegistered(t *tokens, it *citem, l tagLookup) (v any, ok bool, nums []uint64, offs []int, c *citem, err error) {
	nums = []uint64{uint64(it.value)}
	offs = []int{int(it.offset)}
	var head []byte
	starts := []int{0} // where each tag's head starts in head
	head = appendHead(head, 0xc0, uint64(it.value))
	for {
		if c, err = t.next(); err != nil {
			return nil, false, nil, nil, nil, err
		}
		if c._type != C.CBOR_FAST_TYPE_TAG {
			break
		}
		nums = append(nums, uint64(c.value))
		offs = append(offs, int(c.offset))
		starts = append(starts, len(head))
		head = appendHead(head, 0xc0, uint64(c.value))
	}
	var ti *tagItem
	outer := 0
	for ; outer < len(nums); outer++ {
		if ti = l.decType(string(head[starts[outer]:])); ti != nil {
			break
		}
	}
	if ti == nil {
		return nil, false, nums, offs, c, nil
	}
	d := (*decState)(unsafe.Pointer(t)) // t is the first field of a decState
	rv := reflect.New(ti.t)
	td := decoderFor(ti.t)
	nerr := d.nerr
	if err := td.inner(d, c, rv.UnsafePointer()); err != nil {
		return nil, false, nil, nil, nil, err
	}
	if d.nerr != nerr {
		// Content the type cannot take (its type error is kept): no value,
		// as fxamacker stores none; a type error for buildAny's caller.
		if te, ok := d.err.(*UnmarshalTypeError); ok && nerr == 0 {
			return nil, false, nil, nil, nil, te
		}
		return nil, false, nil, nil, nil, &UnmarshalTypeError{CBORType: "tag", GoType: ti.t.String(),
			Offset: offs[outer], Reason: "content of a registered tag does not fit its type"}
	}
	return rv.Elem().Interface(), true, nums[:outer], offs[:outer], nil, nil
}
