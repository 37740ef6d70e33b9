package cborfast

/*
#include <stdlib.h>
#include "walk.h"
*/
import "C"

import (
	"io"
	"runtime"
	"unsafe"
)

// Sequence iterates over the data items of an RFC 8742 CBOR sequence (zero or
// more items back to back) and decodes each like Decode.
//
// The C iterator keeps its input between calls, which cgo forbids for Go
// memory, so NewSequence copies data into C memory once; Close frees the copy
// and the iterator. Values returned by Next are Go memory and stay valid after
// Close. A Sequence must not be used from two goroutines at once.
type Sequence struct {
	seq   *C.cbor_seq
	buf   unsafe.Pointer // C copy of the input
	flags C.uint32_t
	err   error // sticky: creation failure, an item error, or ErrClosed
}

// NewSequence starts iterating over data with default options.
func NewSequence(data []byte) *Sequence { return DecodeOptions{}.NewSequence(data) }

// NewSequence starts iterating over data with these options. A failure to
// create the iterator (out of memory) is returned by the first Next.
func (o DecodeOptions) NewSequence(data []byte) *Sequence {
	// No COPY_STRINGS: the strings stay in the C copy of the input, which
	// lives until Close, and each document is freed before Next returns.
	q := &Sequence{flags: o.flags()}
	q.buf = cBytes(data)
	opts := o.cOptions()
	if s := C.cbor_seq_new(q.buf, C.size_t(len(data)), &opts, &q.seq); s != C.CBOR_FAST_OK {
		cFree(q.buf)
		q.buf = nil
		q.err = statusError(s)
		return q
	}
	track(1)
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
	var w *C.cf_walk
	s := C.cf_seq_next(q.seq, q.flags, &w)
	switch s {
	case C.CBOR_FAST_OK:
	case C.CBOR_FAST_END:
		runtime.KeepAlive(q)
		return nil, io.EOF
	default:
		ce := C.cbor_fast_error{struct_size: C.sizeof_cbor_fast_error}
		C.cbor_seq_error(q.seq, &ce)
		runtime.KeepAlive(q)
		q.err = fromC(s, &ce)
		return nil, q.err
	}
	runtime.KeepAlive(q)
	track(1)
	defer freeWalk(w)
	return build(w)
}

// Close frees the iterator and the copy of the input. Later calls to Next
// return ErrClosed. Close is idempotent and always returns nil.
func (q *Sequence) Close() error {
	if q.seq != nil {
		C.cbor_seq_free(q.seq)
		q.seq = nil
		track(-1)
	}
	cFree(q.buf)
	q.buf = nil
	q.err = ErrClosed
	runtime.SetFinalizer(q, nil)
	return nil
}
