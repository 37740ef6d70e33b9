package cborfast

import (
	"errors"
	"io"
)

// Encoder writes values as a CBOR sequence (RFC 8742) to a writer.
type Encoder struct {
	w  io.Writer
	em *encMode
}

// NewEncoder returns an Encoder with the default EncOptions.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w, em: defaultEncMode} }

// NewEncoder returns an Encoder with this mode.
func (em *encMode) NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w, em: em} }

// Encode writes v as the next item of the sequence.
func (enc *Encoder) Encode(v any) error {
	e := getEncState(enc.em)
	defer putEncState(e)
	b, err := e.value(e.buf, v)
	e.buf = b[:0]
	if err != nil {
		return err
	}
	_, err = enc.w.Write(b)
	return err
}

// Decoder reads the items of a CBOR sequence from a reader.
type Decoder struct {
	r    io.Reader
	dm   *decMode
	buf  []byte
	off  int // start of the unread bytes in buf
	base int // stream offset of buf[0]
	eof  bool
	err  error
}

// NewDecoder returns a Decoder with the default DecOptions.
func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: r, dm: defaultDecMode} }

// NewDecoder returns a Decoder with this mode.
func (dm *decMode) NewDecoder(r io.Reader) *Decoder { return &Decoder{r: r, dm: dm} }

// Decode reads the next item into v. It returns io.EOF at the end of the
// stream between items, io.ErrUnexpectedEOF inside one, and an *Error whose
// Offset is counted from the start of the stream.
func (dec *Decoder) Decode(v any) error {
	if dec.err != nil {
		return dec.err
	}
	for {
		if dec.off < len(dec.buf) {
			rest, err := dec.dm.UnmarshalFirst(dec.buf[dec.off:], v)
			var e *Error
			truncated := errors.As(err, &e) && e.Code == CodeTruncated
			if err == nil || !truncated {
				if rest != nil || err == nil {
					dec.off = len(dec.buf) - len(rest)
				}
				if e != nil {
					e.Offset += dec.base + dec.off
					dec.err = err
				}
				var te *UnmarshalTypeError
				if errors.As(err, &te) {
					te.Offset += dec.base
				}
				return err
			}
			if dec.eof {
				dec.err = io.ErrUnexpectedEOF
				return dec.err
			}
		} else if dec.eof {
			return io.EOF
		}
		if err := dec.fill(); err != nil {
			dec.err = err
			return err
		}
	}
}

// fill reads more input, dropping the bytes already decoded.
func (dec *Decoder) fill() error {
	if dec.off > 0 {
		n := copy(dec.buf, dec.buf[dec.off:])
		dec.buf = dec.buf[:n]
		dec.base += dec.off
		dec.off = 0
	}
	if cap(dec.buf)-len(dec.buf) < 512 {
		nb := make([]byte, len(dec.buf), 2*cap(dec.buf)+4096)
		copy(nb, dec.buf)
		dec.buf = nb
	}
	n, err := dec.r.Read(dec.buf[len(dec.buf):cap(dec.buf)])
	dec.buf = dec.buf[:len(dec.buf)+n]
	if err == io.EOF {
		dec.eof = true
		return nil
	}
	return err
}
