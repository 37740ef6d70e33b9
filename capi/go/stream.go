package cborfast

/*
#include "route.h"
*/
import "C"

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Encoder writes values as a CBOR sequence (RFC 8742) to a writer, and
// indefinite-length strings, arrays and maps item by item between
// StartIndefinite* and EndIndefinite (as fxamacker/cbor's Encoder). An
// Encoder is not safe for concurrent use: a call made while another runs
// (from another goroutine, or from inside it: a Writer or MarshalCBOR that
// calls the same Encoder) returns ErrConcurrentUse; the zero Encoder and a
// copy return ErrInvalidArgument.
type Encoder struct {
	_      noCopy
	self   uintptr // the address NewEncoder gave it (see Reader.self)
	busy   atomic.Bool
	w      io.Writer
	em     *encMode
	n      int         // bytes written
	indefs []indefOpen // open indefinite-length items, innermost last
}

type indefOpen struct {
	major byte // 0x40, 0x60, 0x80 or 0xa0
	count int  // items written in it
}

// NewEncoder returns an Encoder with the default EncOptions.
func NewEncoder(w io.Writer) *Encoder { return newEncoder(w, defaultEncMode) }

// NewEncoder returns an Encoder with this mode.
func (em *encMode) NewEncoder(w io.Writer) *Encoder { return newEncoder(w, em) }

// newEncoder is not inlined: the Encoder it returns is then always on the
// heap, whose objects do not move (inlined, a caller's Encoder that did not
// escape lived on its goroutine's stack, which moves as it grows, and its
// address, the copy check's, changed).
//
//go:noinline
func newEncoder(w io.Writer, em *encMode) *Encoder {
	enc := &Encoder{w: w, em: em}
	enc.self = uintptr(unsafe.Pointer(enc))
	return enc
}

// encoderError is the library status s at the Encoder's offset.
func (enc *Encoder) encoderError(s C.cbor_fast_status) error {
	e := statusError(s)
	e.Offset = enc.n
	return e
}

// Encode writes v as the next item of the sequence, or of the innermost
// open indefinite-length item. Inside an indefinite string v must encode to
// a definite string of the same type (a chunk), else nothing is written and
// the error is an *Error with CodeWriterBadChunk at the Encoder's offset
// (the library writer's status for such a chunk).
func (enc *Encoder) Encode(v any) error {
	if err := enc.enter(); err != nil {
		return err
	}
	defer enc.busy.Store(false)
	e := getEncState(enc.em)
	defer putEncState(e)
	b, err := e.value(e.buf, v)
	e.buf = b[:0]
	if err != nil {
		return err
	}
	if n := len(enc.indefs); n > 0 {
		if top := enc.indefs[n-1].major; top == 0x40 || top == 0x60 {
			if len(b) == 0 || b[0]&0xe0 != top || b[0]&0x1f == 31 {
				return enc.encoderError(C.CBOR_FAST_ERR_WRITER_BAD_CHUNK)
			}
		}
	}
	if err := enc.write(b); err != nil {
		return err
	}
	if n := len(enc.indefs); n > 0 {
		enc.indefs[n-1].count++
	}
	return nil
}

// enter starts a call: ErrInvalidArgument for the zero Encoder,
// ErrConcurrentUse while another call runs; else the caller
// ends it with enc.busy.Store(false).
func (enc *Encoder) enter() error {
	if enc.self != uintptr(unsafe.Pointer(enc)) {
		return ErrInvalidArgument // the zero Encoder, or a copy
	}
	if !enc.busy.CompareAndSwap(false, true) {
		return ErrConcurrentUse
	}
	return nil
}

func (enc *Encoder) write(b []byte) error {
	n, err := enc.w.Write(b)
	enc.n += n
	return err
}

// StartIndefiniteByteString starts an indefinite-length byte string: the
// values encoded until EndIndefinite are its chunks (definite byte
// strings).
func (enc *Encoder) StartIndefiniteByteString() error { return enc.startIndefinite(0x40) }

// StartIndefiniteTextString starts an indefinite-length text string: the
// values encoded until EndIndefinite are its chunks (definite text
// strings).
func (enc *Encoder) StartIndefiniteTextString() error { return enc.startIndefinite(0x60) }

// StartIndefiniteArray starts an indefinite-length array: the values
// encoded until EndIndefinite are its elements.
func (enc *Encoder) StartIndefiniteArray() error { return enc.startIndefinite(0x80) }

// StartIndefiniteMap starts an indefinite-length map: the values encoded
// until EndIndefinite are its keys and values, in turn.
func (enc *Encoder) StartIndefiniteMap() error { return enc.startIndefinite(0xa0) }

// startIndefinite writes the head. Under IndefLengthForbidden it fails with
// CodeIndefiniteLength; inside an indefinite string (whose chunks must be
// definite) with CodeWriterBadChunk; nothing is written then.
func (enc *Encoder) startIndefinite(major byte) error {
	if err := enc.enter(); err != nil {
		return err
	}
	defer enc.busy.Store(false)
	if enc.em.opts.IndefLength == IndefLengthForbidden {
		return enc.encoderError(C.CBOR_FAST_ERR_INDEFINITE_LENGTH)
	}
	if n := len(enc.indefs); n > 0 {
		if top := enc.indefs[n-1].major; top == 0x40 || top == 0x60 {
			return enc.encoderError(C.CBOR_FAST_ERR_WRITER_BAD_CHUNK)
		}
	}
	if err := enc.write([]byte{major | 31}); err != nil {
		return err
	}
	enc.indefs = append(enc.indefs, indefOpen{major: major})
	return nil
}

// EndIndefinite writes the break (0xff) that closes the innermost open
// indefinite-length item. With none open it fails with
// CodeWriterNoContainer; a map with a key but no value yet with
// CodeWriterOddMap, leaving the map open (write the value and call again).
func (enc *Encoder) EndIndefinite() error {
	if err := enc.enter(); err != nil {
		return err
	}
	defer enc.busy.Store(false)
	n := len(enc.indefs)
	if n == 0 {
		return enc.encoderError(C.CBOR_FAST_ERR_WRITER_NO_CONTAINER)
	}
	if top := enc.indefs[n-1]; top.major == 0xa0 && top.count%2 != 0 {
		return enc.encoderError(C.CBOR_FAST_ERR_WRITER_ODD_MAP)
	}
	if err := enc.write([]byte{0xff}); err != nil {
		return err
	}
	enc.indefs = enc.indefs[:n-1]
	if n > 1 {
		enc.indefs[n-2].count++
	}
	return nil
}

// Decoder reads the items of a CBOR sequence from a reader.
//
// It reads into one buffer, bounded by DecOptions.MaxStreamBuffer, and finds
// where each item ends with the library's resumable reader
// (CBOR_FAST_OPT_STREAMING): the bytes of an item that arrives in many reads
// are scanned once as they come, not again after every read. Once the whole
// item is buffered it is decoded as Unmarshal decodes it, and the bytes
// before the next item are dropped when the buffer needs room. The buffer is
// Go memory pinned only during Decode; when Decode returns no C reader holds
// a pointer to it. A Decoder is not safe for concurrent use: a Decode made
// while another runs (from another goroutine, or from inside it: a Reader or
// UnmarshalCBOR that calls the same Decoder) returns ErrConcurrentUse, and
// Buffered and NumBytesRead are not guarded; the zero Decoder and a copy return
// ErrInvalidArgument.
type Decoder struct {
	_    noCopy
	self uintptr // the address NewDecoder gave it (see Reader.self)
	busy atomic.Bool
	r    io.Reader
	dm   *decMode
	buf  []byte
	off  int // start of the next item in buf
	base int // stream offset of buf[0]
	eof  bool
	err  error
	// A read error that came with bytes: returned once the items those
	// bytes complete are decoded (as io.Reader asks: bytes first).
	rerr error
	pin  runtime.Pinner
}

// NewDecoder returns a Decoder with the default DecOptions.
func NewDecoder(r io.Reader) *Decoder { return newDecoder(r, defaultDecMode) }

// NewDecoder returns a Decoder with this mode.
func (dm *decMode) NewDecoder(r io.Reader) *Decoder { return newDecoder(r, dm) }

// newDecoder is not inlined, for the reason newEncoder is not.
//
//go:noinline
func newDecoder(r io.Reader, dm *decMode) *Decoder {
	dec := &Decoder{r: r, dm: dm}
	dec.self = uintptr(unsafe.Pointer(dec))
	return dec
}

// NumBytesRead is the number of bytes of the items decoded so far (as
// fxamacker/cbor's Decoder.NumBytesRead): the stream offset of the next item.
func (dec *Decoder) NumBytesRead() int { return dec.base + dec.off }

// Buffered returns the bytes read from the reader but not yet decoded; they
// are valid until the next Decode.
func (dec *Decoder) Buffered() io.Reader { return bytes.NewReader(dec.buf[dec.off:]) }

// Decode reads the next item into v. It returns io.EOF at the end of the
// stream between items, io.ErrUnexpectedEOF inside one, and an *Error whose
// Offset is counted from the start of the stream (such errors are sticky).
// An error of the Reader is returned as it came and is not kept: the next
// Decode reads again, going on from the bytes read so far.
// An item that cannot be completed within DecOptions.MaxStreamBuffer bytes
// is ErrMemoryBudget at the item's offset.
func (dec *Decoder) Decode(v any) error {
	if dec.self != uintptr(unsafe.Pointer(dec)) {
		return ErrInvalidArgument // the zero Decoder, or a copy
	}
	if !dec.busy.CompareAndSwap(false, true) {
		return ErrConcurrentUse
	}
	defer dec.busy.Store(false)
	if dec.err != nil {
		return dec.err
	}
	if rv := reflect.ValueOf(v); rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	n, err := dec.frame()
	if fe, ok := err.(*finderError); ok {
		// The library refused the item, or (fe.e nil) the input ended
		// inside it: decode what is there for the error Unmarshal gives.
		dec.err = dec.diagnose(v, fe.e)
		return dec.err
	}
	if re, ok := err.(*readError); ok {
		return re.err
	}
	switch {
	case err == io.EOF:
		return err
	case err != nil:
		dec.err = err
		return err
	}
	item := dec.buf[dec.off : dec.off+n : dec.off+n]
	rest, err := dec.dm.unmarshal(item, v, true, true)
	// An *Error that stopped the decode (rest nil) is the item's own; one
	// kept on the way of an item decoded whole (rest not nil) came from an
	// Unmarshaler, and goes as it came below, the item passed (as a
	// malformed item it stopped the stream for good).
	if e, ok := err.(*Error); ok && rest == nil {
		e = dec.shift(e)
		if !invalidOnly(e.Code) {
			dec.err = e
			return e
		}
		// Well-formed but invalid (bad UTF-8, a duplicate key, not the
		// required encoding): the item is passed, as fxamacker passes it,
		// and the next Decode reads the one after it.
		dec.off += n
		return e
	}
	// Decoded, or decoded with a type error or an Unmarshaler's error kept
	// (the item is passed either way).
	at := dec.base + dec.off
	dec.off += n
	if te, ok := err.(*UnmarshalTypeError); ok {
		c := *te
		c.Offset += at
		return &c
	}
	return err
}

// invalidOnly: an error of an item that is well-formed but breaks a
// validity rule the options ask for; the stream goes on after the item.
func invalidOnly(code int) bool {
	switch code {
	case CodeInvalidUTF8, CodeDuplicateKey, CodeNotPreferred, CodeUnsortedKeys, CodeIndefiniteLength:
		return true
	}
	return false
}

// finderError is frame's answer for an item the boundary finder refused
// (e: its error, with stream offsets) or the input ended inside of (e nil).
type finderError struct{ e *Error }

func (f *finderError) Error() string {
	if f.e == nil {
		return io.ErrUnexpectedEOF.Error()
	}
	return f.e.Error()
}

// readError is frame's answer for an error the Reader returned. Decode
// hands it over as it came and does not keep it: the next Decode reads
// again from where the bytes so far end (a net.Conn past its read
// deadline goes on), as fxamacker's Decoder does.
type readError struct{ err error }

func (r *readError) Error() string { return r.err.Error() }

// shift turns an *Error of the item at dec.off into one with stream offsets.
func (dec *Decoder) shift(e *Error) *Error {
	c := *e
	at := dec.base + dec.off
	c.Offset += at
	c.ItemOffset += at
	return &c
}

// diagnose decodes the buffered start of an item the input ended inside of,
// or that the boundary finder refused with found, into a throwaway value of
// v's type (v is left as it was), for the error Unmarshal gives: an error of
// Unmarshal's passes (its first, well-formedness pass with this mode's
// checks, then the decoding pass), else found, else io.ErrUnexpectedEOF.
// (A one-shot pass over a partial item may stop at a count the bytes at
// hand cannot hold, truncated, before the finder's error.) The first pass
// runs as in Unmarshal: without it, the decoding pass built the partial
// item's values, each level of a typed slice reserving room for the bytes
// left (97 MiB for 1 MB of a recursive slice type cut short, 1.65 GB with
// 200 levels allowed).
func (dec *Decoder) diagnose(v any, found *Error) error {
	tmp := reflect.New(reflect.TypeOf(v).Elem()).Interface()
	_, err := dec.dm.unmarshal(dec.buf[dec.off:], tmp, true, false)
	if e, ok := err.(*Error); ok && e.Code != CodeTruncated {
		return dec.shift(e)
	}
	if found != nil {
		return found
	}
	return io.ErrUnexpectedEOF
}

// errInvalidRead: the Reader returned a count below 0 or above the space it
// was given (bufio's errNegativeRead and ErrTooLong name the same fault).
var errInvalidRead = errors.New("cborfast: Decoder: the reader returned an invalid count")

// minRead is the least free space a read is given before the buffer grows.
const minRead = 512

// frame reads until the next item is complete in buf[off:] and returns its
// length: io.EOF at the end between items; a *finderError when the library
// refused the item or the input ended inside it; a *readError; or
// ErrMemoryBudget.
func (dec *Decoder) frame() (int, error) {
	if dec.off == len(dec.buf) && dec.eof {
		return 0, io.EOF
	}
	// A small item that is all there and plainly well-formed, within the
	// limits, is found in Go (no reader, no pin, no cgo call); anything
	// else by the library.
	if n, ok := plainItemEnd(dec.buf[dec.off:], dec.dm.framePlain); ok {
		return n, nil
	}
	sr, err := getSReader()
	if err != nil {
		return 0, err
	}
	dec.pinBuf()
	defer dec.pin.Unpin()
	var opts *C.cf_reader_opts
	if sr.opts != &dec.dm.frameOpts {
		opts = &dec.dm.frameOpts
	}
	var end C.size_t
	var streamed C.int
	rest := dec.buf[dec.off:]
	s := C.cf_stream_begin(sr.h, goPtr(rest), C.size_t(len(rest)), opts, &end, &streamed)
	sr.opts = &dec.dm.frameOpts
	// A reader that streamed may keep a pointer into the buffer (its
	// scout): it is freed rather than pooled.
	defer putSReader(sr, streamed != 0 || (s != C.CBOR_FAST_OK && s != C.CBOR_FAST_NEED_MORE))
	empty := 0
	for s == C.CBOR_FAST_NEED_MORE {
		if dec.eof {
			if dec.off == len(dec.buf) {
				return 0, io.EOF
			}
			return 0, &finderError{}
		}
		if dec.rerr != nil {
			e := dec.rerr
			dec.rerr = nil
			return 0, &readError{e}
		}
		if err := dec.room(); err != nil {
			return 0, err
		}
		space := cap(dec.buf) - len(dec.buf)
		n, err := dec.r.Read(dec.buf[len(dec.buf):cap(dec.buf)])
		if n < 0 || n > space {
			// A Reader breaking io.Reader's contract (as bufio does).
			return 0, errInvalidRead
		}
		dec.buf = dec.buf[:len(dec.buf)+n]
		switch {
		case err == io.EOF:
			dec.eof = true
		case err != nil && n > 0:
			// The bytes first: the error when they are used up.
			dec.rerr = err
		case err != nil:
			return 0, &readError{err}
		case n == 0:
			if empty++; empty == 100 {
				return 0, io.ErrNoProgress
			}
			continue
		}
		if n == 0 {
			continue
		}
		empty = 0
		rest = dec.buf[dec.off:]
		s = C.cf_stream_more(sr.h, goPtr(rest), C.size_t(len(rest)), &end)
	}
	if s != C.CBOR_FAST_OK {
		ce := C.cbor_fast_error{struct_size: C.sizeof_cbor_fast_error}
		C.cbor_reader_error(sr.r, &ce)
		return 0, &finderError{dec.shift(fromC(s, &ce))}
	}
	return int(end), nil
}

// room makes free space for a read: drops the bytes before the item being
// read (the boundary finder restarts at each item, so nothing before it is
// needed) and grows the buffer within the mode's bound.
func (dec *Decoder) room() error {
	if dec.off > 0 {
		n := copy(dec.buf, dec.buf[dec.off:])
		dec.buf = dec.buf[:n]
		dec.base += dec.off
		dec.off = 0
	}
	limit := dec.dm.maxStream
	if free := cap(dec.buf) - len(dec.buf); free < minRead && cap(dec.buf) < limit {
		nc := min(limit, max(2*cap(dec.buf), 4096))
		nb := make([]byte, len(dec.buf), nc)
		copy(nb, dec.buf)
		dec.buf = nb
		dec.pinBuf()
	}
	if len(dec.buf) == cap(dec.buf) {
		at := dec.base + dec.off
		return &Error{Status: ErrMemoryBudget.Status, Code: CodeMemoryBudget,
			Message: ErrMemoryBudget.Message, Offset: at, ItemOffset: at}
	}
	return nil
}

// pinBuf pins the buffer's array while C may hold a pointer into it.
func (dec *Decoder) pinBuf() {
	if cap(dec.buf) > 0 {
		dec.pin.Pin(unsafe.SliceData(dec.buf[:cap(dec.buf)]))
	}
}

// sreader is a streaming C reader (the Decoder's boundary finder), pooled.
type sreader struct {
	r    *C.cbor_reader
	h    C.uintptr_t
	opts *C.cf_reader_opts // the mode whose limits are set (nil: none yet)
}

var sreaders sync.Pool

func getSReader() (*sreader, error) {
	if v := sreaders.Get(); v != nil {
		track(1)
		return v.(*sreader), nil
	}
	sr := &sreader{}
	if s := C.cbor_reader_new(nil, 0, nil, &sr.r); s != C.CBOR_FAST_OK {
		return nil, statusError(s)
	}
	sr.h = C.uintptr_t(uintptr(unsafe.Pointer(sr.r)))
	runtime.SetFinalizer(sr, (*sreader).free)
	track(1)
	return sr, nil
}

// putSReader points the reader away from the buffer and pools it, or frees
// it when it may keep a pointer into the buffer elsewhere (its scout).
func putSReader(sr *sreader, used bool) {
	track(-1)
	if used {
		runtime.SetFinalizer(sr, nil)
		sr.free()
		return
	}
	C.cbor_reader_reset(sr.r, nil, 0)
	sreaders.Put(sr)
}

func (sr *sreader) free() {
	C.cbor_reader_free(sr.r)
	sr.r, sr.h = nil, 0
}
