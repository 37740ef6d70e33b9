package cborfast

import (
	"io"
	"runtime"
	"unsafe"
)

// Sequence iterates over the data items of an RFC 8742 CBOR sequence (zero or
// more items back to back) and decodes each like Decode.
//
// The C reader keeps the input between calls: it is pinned until Close (so
// it must not be modified meanwhile), not copied. Values returned by Next
// are Go memory of their own and stay valid after Close. A Sequence must not
// be used from two goroutines at once. A copy of a Sequence (which go vet
// reports) refuses Next with ErrInvalidArgument and its Close frees nothing.
type Sequence struct {
	_ noCopy
	// The address of the Sequence NewSequence made (see Reader.self): a
	// copy's Close gave the pooled C reader back a second time, and two
	// later Sequences then shared it.
	self uintptr
	t    tokens
	open bool
	err  error // sticky: creation failure, an item error, or ErrClosed
}

// NewSequence starts iterating over data with default options.
func NewSequence(data []byte) *Sequence { return DecodeOptions{}.NewSequence(data) }

// NewSequence starts iterating over data with these options. A failure to
// create the iterator (out of memory) is returned by the first Next.
func (o DecodeOptions) NewSequence(data []byte) *Sequence {
	q := &Sequence{}
	q.self = uintptr(unsafe.Pointer(q))
	if o.MaxMemory != 0 && uint64(len(data)) > o.MaxMemory {
		q.err = &Error{Status: ErrMemoryBudget.Status, Code: CodeMemoryBudget, Message: ErrMemoryBudget.Message}
		return q
	}
	if err := q.t.open(data, o.readerOpts()); err != nil {
		q.err = err
		return q
	}
	q.open = true
	runtime.SetFinalizer(q, (*Sequence).Close)
	return q
}

// Next decodes the next item. It returns io.EOF after the last item, and an
// *Error (with the absolute offset in the sequence) for a bad item; errors
// are sticky.
func (q *Sequence) Next() (any, error) {
	if q.err != nil {
		return nil, q.err
	}
	if !q.open || q.self != uintptr(unsafe.Pointer(q)) {
		// A Sequence not made by NewSequence (its zero value), or a copy:
		// as a zero Reader, not a nil dereference.
		return nil, ErrInvalidArgument
	}
	end, err := q.t.atEnd()
	if err == nil && end {
		return nil, io.EOF
	}
	var v any
	if err == nil {
		v, _, err = buildAny(&q.t, nil, flavorClassic, nil)
	}
	if err != nil {
		q.err = err
		return nil, err
	}
	return v, nil
}

// Close frees the iterator and unpins the input. Later calls to Next return
// ErrClosed. Close is idempotent and always returns nil.
func (q *Sequence) Close() error {
	if q.self != uintptr(unsafe.Pointer(q)) {
		q.err = ErrClosed // the zero Sequence or a copy: frees nothing
		return nil
	}
	if q.open {
		q.t.close()
		q.open = false
	}
	q.err = ErrClosed
	runtime.SetFinalizer(q, nil)
	return nil
}
