/*
 * cbor_fast._ext: StreamDecoder, items read one at a time from a binary file
 * (load and CBORDecoder). The file is read in blocks into a bytearray; a
 * library reader in streaming mode (CBOR_FAST_OPT_STREAMING) is fed each new
 * block and asked to pass over the next item (cbor_reader_skip): it answers
 * CBOR_FAST_NEED_MORE until the item is all there, without scanning again what
 * it has scanned. The whole item is then decoded by the one-shot decoder from
 * the buffer, and the bytes after it stay buffered for the next decode().
 */
#include "_ext.h"

#include <string.h>

#define SD_BLOCK ((size_t)65536)
#define SD_RESIZED                                                                     \
  "CBORDecoder: its read buffer was resized from outside (by a file that kept the " \
  "bytearray its readinto() was given)"
/* load()'s first read (then doubling): cbor2's default read size */
#define SD_FIRST ((size_t)4096)

typedef struct {
  PyObject_HEAD PyObject* fp;
  PyObject* readinto; /* fp.readinto, or NULL: then fp.read */
  PyObject* read;
  PyObject* options; /* the options' dict while they are parsed, then NULL */
  /* Owns its hooks: they were borrowed from the options' dict, which a
   * caller could reach (gc.get_referents) and empty, freeing a hook the
   * decoder then called. */
  cf_decode_options opts;
  cbor_reader* rd;
  PyObject* buf;  /* bytearray; its size is the capacity */
  size_t held;    /* bytes of buf read from the file */
  size_t pos;     /* buf[pos, held): not yet decoded */
  size_t base;    /* stream offset of buf[0] */
  size_t scanned; /* stream offset up to which the reader has seen the input */
  size_t max_buffer;
  int exact;    /* read no byte past the item (load() on a file that cannot seek) */
  size_t block; /* the least bytes asked for in one read when not exact (read_size) */
  /* load(): one item, then the file is seeked back over what was read past
   * it; reads start at SD_FIRST bytes and double up to `block` (0: every
   * read asks for `block`). */
  size_t ramp;
  /* Zeroing before a read, once per byte rather than per read: buf[0,
   * clean) was initialised by this decoder (while the bytearray keeps the
   * size `clean_size`), and of that only buf[0, dirty) may hold anything but
   * zeros. */
  size_t clean;
  size_t clean_size;
  size_t dirty;
  /* The file is one of io's own whose readinto1()/readinto() writes every
   * byte it reports and reads none (sd_honest_file): no zeroing at all (64
   * KiB zeroed per decoder was most of CBORDecoder(io.BytesIO(msg)).decode()). */
  int honest;
  int busy;
  int partial; /* the last scan wanted more: the reader's scout is on it */
} stream_decoder;

static int sd_traverse(PyObject* self, visitproc visit, void* arg) {
  stream_decoder* s = (stream_decoder*)self;
  Py_VISIT(s->fp);
  Py_VISIT(s->readinto);
  Py_VISIT(s->read);
  Py_VISIT(s->options);
  Py_VISIT(s->opts.tag_hook);
  Py_VISIT(s->opts.object_hook);
  Py_VISIT(s->opts.semantic_decoders);
  return 0;
}

static int sd_clear(PyObject* self) {
  stream_decoder* s = (stream_decoder*)self;
  Py_CLEAR(s->fp);
  Py_CLEAR(s->readinto);
  Py_CLEAR(s->read);
  Py_CLEAR(s->options);
  Py_CLEAR(s->opts.tag_hook);
  Py_CLEAR(s->opts.object_hook);
  Py_CLEAR(s->opts.semantic_decoders);
  return 0;
}

static void sd_dealloc(PyObject* self) {
  stream_decoder* s = (stream_decoder*)self;
  PyObject_GC_UnTrack(self);
  sd_clear(self);
  Py_CLEAR(s->buf);
  cbor_reader_free(s->rd);
  s->rd = NULL;
  Py_TYPE(self)->tp_free(self);
}

/* CBORDecodeError(status, offset) with item_offset and depth. */
static PyObject* sd_raise(int status, size_t offset, size_t item_offset, uint32_t depth) {
  if (status == CBOR_FAST_ERR_OUT_OF_MEMORY) {
    return PyErr_NoMemory();
  }
  PyObject* exc = PyObject_CallFunction(cf_state.decode_error, "in", status, (Py_ssize_t)offset);
  if (exc == NULL) {
    return NULL;
  }
  PyObject* io = PyLong_FromSize_t(item_offset);
  PyObject* dv = PyLong_FromUnsignedLong(depth);
  if (io != NULL && dv != NULL && PyObject_SetAttrString(exc, "item_offset", io) == 0 &&
      PyObject_SetAttrString(exc, "depth", dv) == 0) {
    PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
  }
  Py_XDECREF(io);
  Py_XDECREF(dv);
  Py_DECREF(exc);
  return NULL;
}

/* io's types whose readinto() and readinto1() write exactly the bytes they
 * report and read nothing of the buffer: BytesIO, FileIO, and BufferedReader
 * or BufferedRandom over a FileIO (a buffered file reads into the caller's
 * buffer through its raw file's readinto(), which is Python code for another
 * raw). Exact types only (a subclass may override them). 1, 0, or -1 with an
 * exception. */
static int sd_honest_file(PyObject* fp) {
  static PyObject *bytes_io, *file_io, *buffered_reader, *buffered_random; /* made once */
  if (file_io == NULL) {
    PyObject* io = PyImport_ImportModule("io");
    if (io == NULL) {
      return -1;
    }
    bytes_io = PyObject_GetAttrString(io, "BytesIO");
    buffered_reader = bytes_io ? PyObject_GetAttrString(io, "BufferedReader") : NULL;
    buffered_random = buffered_reader ? PyObject_GetAttrString(io, "BufferedRandom") : NULL;
    file_io = buffered_random ? PyObject_GetAttrString(io, "FileIO") : NULL;
    Py_DECREF(io);
    if (file_io == NULL) {
      Py_CLEAR(bytes_io);
      Py_CLEAR(buffered_reader);
      Py_CLEAR(buffered_random);
      return -1;
    }
  }
  PyObject* type = (PyObject*)Py_TYPE(fp);
  if (type == bytes_io || type == file_io) {
    return 1;
  }
  if (type != buffered_reader && type != buffered_random) {
    return 0;
  }
  PyObject* raw = PyObject_GetAttrString(fp, "raw");
  if (raw == NULL) {
    PyErr_Clear();
    return 0;
  }
  int honest = (PyObject*)Py_TYPE(raw) == file_io;
  Py_DECREF(raw);
  return honest;
}

/* obj.name, or NULL without an exception when it has none; -1 on other errors. */
static int optional_attr(PyObject* obj, const char* name, PyObject** out) {
  *out = PyObject_GetAttrString(obj, name);
  if (*out != NULL) {
    return 0;
  }
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    return 0;
  }
  return -1;
}

static PyObject* sd_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  static const char* kwlist[] = {"fp", "options", "max_buffer", "exact", "read_size", "one", NULL};
  PyObject *fp, *options = Py_None, *max_buffer = Py_None, *read_size = Py_None;
  int exact = 0, one = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OOpOp:StreamDecoder", (char**)kwlist, &fp,
                                   &options, &max_buffer, &exact, &read_size, &one)) {
    return NULL;
  }
  /* cbor2's read_size: the least bytes read at once (a file that cannot seek
   * is read exactly, as cbor2 ignores it there); below SD_BLOCK it changes
   * nothing */
  size_t block = SD_BLOCK;
  if (read_size != Py_None) {
    size_t v = (PyLong_Check(read_size) && !PyBool_Check(read_size)) ? PyLong_AsSize_t(read_size)
                                                                     : (size_t)-1;
    if (v == (size_t)-1 || v == 0 || v > (size_t)PY_SSIZE_T_MAX) {
      PyErr_Clear();
      PyErr_Format(PyExc_ValueError, "read_size must be None or an int in 1 .. %zu, not %R",
                   (size_t)PY_SSIZE_T_MAX, read_size);
      return NULL;
    }
    if (v > block) {
      block = v;
    }
  }
  if (options != Py_None && !PyDict_Check(options)) {
    PyErr_SetString(PyExc_TypeError, "options must be a dict or None");
    return NULL;
  }
  size_t limit = CF_DEFAULT_MAX_BUFFER;
  if (max_buffer != Py_None) {
    size_t v = (PyLong_Check(max_buffer) && !PyBool_Check(max_buffer)) ? PyLong_AsSize_t(max_buffer)
                                                                       : (size_t)-1;
    if (v == (size_t)-1 || v == 0 || v > (size_t)PY_SSIZE_T_MAX) {
      PyErr_Clear();
      PyErr_Format(PyExc_ValueError, "max_buffer must be None or an int in 1 .. %zu, not %R",
                   (size_t)PY_SSIZE_T_MAX, max_buffer);
      return NULL;
    }
    limit = v;
  }
  stream_decoder* s = PyObject_GC_New(stream_decoder, type);
  if (s == NULL) {
    return NULL;
  }
  s->fp = s->readinto = s->read = s->options = s->buf = NULL;
  s->opts.tag_hook = s->opts.object_hook = s->opts.semantic_decoders = NULL;
  s->rd = NULL;
  s->held = s->pos = s->base = s->scanned = 0;
  s->max_buffer = limit;
  s->exact = exact;
  s->block = exact ? SD_BLOCK : block;
  s->ramp = one && !exact && read_size == Py_None ? SD_FIRST : 0;
  s->clean = s->clean_size = s->dirty = 0;
  s->honest = 0;
  s->busy = 0;
  s->partial = 0;
  PyObject_GC_Track((PyObject*)s);
  Py_INCREF(fp);
  s->fp = fp;
  s->options = options == Py_None ? PyDict_New() : PyDict_Copy(options);
  cf_decode_options parsed;
  if (s->options == NULL || cf_parse_stream_options(fp, s->options, &parsed) < 0) {
    Py_DECREF(s);
    return NULL;
  }
  Py_XINCREF(parsed.tag_hook);
  Py_XINCREF(parsed.object_hook);
  Py_XINCREF(parsed.semantic_decoders);
  s->opts = parsed;
  Py_CLEAR(s->options);
  /* readinto1 first: a buffered file's readinto() and read(n) wait until n
   * bytes came, so a peer that sends one item and waits for the answer
   * would never get it; readinto1() returns what one read of the raw file
   * gives. */
  if (optional_attr(fp, "readinto1", &s->readinto) < 0 ||
      (s->readinto == NULL && optional_attr(fp, "readinto", &s->readinto) < 0) ||
      (s->readinto == NULL && optional_attr(fp, "read1", &s->read) < 0) ||
      (s->readinto == NULL && s->read == NULL && optional_attr(fp, "read", &s->read) < 0)) {
    Py_DECREF(s);
    return NULL;
  }
  if (s->readinto == NULL && s->read == NULL) {
    PyErr_Format(PyExc_TypeError, "fp must be a binary file (with read or readinto), not '%.100s'",
                 Py_TYPE(fp)->tp_name);
    Py_DECREF(s);
    return NULL;
  }
  /* An honest file whose method is its type's own (an instance attribute
   * set over it is not): its reads need no zeroing. */
  if (s->readinto != NULL && PyCFunction_Check(s->readinto) &&
      PyCFunction_GET_SELF(s->readinto) == fp) {
    const char* name = ((PyCFunctionObject*)s->readinto)->m_ml->ml_name;
    if (strcmp(name, "readinto1") == 0 || strcmp(name, "readinto") == 0) {
      if ((s->honest = sd_honest_file(fp)) < 0) {
        Py_DECREF(s);
        return NULL;
      }
    }
  }
  s->buf = PyByteArray_FromStringAndSize(NULL, 0);
  if (s->buf == NULL) {
    Py_DECREF(s);
    return NULL;
  }
  /* The scanning reader: the limits of the decoder (so an item too deep or
   * too large fails before it is all read; max_items counts per item, since
   * 0.5), no strict checks (the decoder makes them). */
  struct {
    cbor_fast_option option;
    uint64_t value;
    int set;
  } settings[] = {
      {CBOR_FAST_OPT_STREAMING, 1, 1},
      {CBOR_FAST_OPT_MAX_DEPTH, s->opts.max_depth, 1},
      {CBOR_FAST_OPT_MAX_STRING_LENGTH, s->opts.max_string_length, s->opts.max_string_length != 0},
      {CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, s->opts.max_container_items,
       s->opts.max_container_items != 0},
      {CBOR_FAST_OPT_MAX_ITEMS, s->opts.max_items, s->opts.max_items != 0},
  };
  if (cbor_reader_new(NULL, 0, NULL, &s->rd) != CBOR_FAST_OK) {
    Py_DECREF(s);
    return PyErr_NoMemory();
  }
  for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); ++i) {
    if (settings[i].set &&
        cbor_reader_set(s->rd, settings[i].option, settings[i].value) != CBOR_FAST_OK) {
      PyErr_Format(PyExc_ValueError, "cbor_fast: reader option %d refused",
                   (int)settings[i].option);
      Py_DECREF(s);
      return NULL;
    }
  }
  return (PyObject*)s;
}

/* What sd_read knows to be zero no longer holds after the file resized the
 * bytearray (which it can when it kept it). */
static void sd_check_size(stream_decoder* s) {
  size_t size = (size_t)PyByteArray_GET_SIZE(s->buf);
  if (size != s->clean_size) {
    s->clean = s->dirty = 0;
    s->clean_size = size;
  }
}

/* Resizes the bytearray (the bytes below both sizes stay). */
static int sd_resize(stream_decoder* s, size_t size) {
  sd_check_size(s);
  if (PyByteArray_Resize(s->buf, (Py_ssize_t)size) < 0) {
    return -1;
  }
  s->clean_size = size;
  if (s->clean > size) {
    s->clean = size;
  }
  if (s->dirty > size) {
    s->dirty = size;
  }
  return 0;
}

/* Makes the bytearray hold at least `size` bytes; 0, or -1 with an exception
 * (BufferError when Python code kept a view of it). */
static int sd_reserve(stream_decoder* s, size_t size) {
  size_t cap = (size_t)PyByteArray_GET_SIZE(s->buf);
  if (cap >= size) {
    return 0;
  }
  size_t grown = cap * 2;
  if (grown < size) {
    grown = size;
  }
  size_t top = s->max_buffer > size ? s->max_buffer : size;
  if (grown > top) {
    grown = top;
  }
  return sd_resize(s, grown);
}

static int sd_release_view(PyObject* view) {
  PyObject* r = PyObject_CallMethod(view, "release", NULL);
  Py_DECREF(view);
  if (r == NULL) {
    return -1;
  }
  Py_DECREF(r);
  return 0;
}

/* Releases (and drops) both views, even when the first fails (a file that
 * kept an export of `part`): the first failure's exception is kept. */
static int sd_release_both(PyObject* part, PyObject* whole) {
  int rc = 0;
  PyObject* pending = NULL;
  if (sd_release_view(part) < 0) {
    pending = cf_take_exception();
    rc = -1;
  }
  if (sd_release_view(whole) < 0) {
    rc = -1;
    if (pending != NULL) {
      PyErr_Clear();
    }
  }
  if (pending != NULL) {
    cf_restore_exception(pending);
  }
  return rc;
}

/* Reads up to `want` bytes from the file to buf[held, ...). Returns the count
 * (0: the file has ended; None from the file counts as 0), -1 with an
 * exception. The GIL is held: this calls Python. */
static Py_ssize_t sd_read(stream_decoder* s, size_t want) {
  if ((size_t)PyByteArray_GET_SIZE(s->buf) < s->held) {
    /* growing it back would take the lost bytes' place with new memory */
    PyErr_SetString(PyExc_RuntimeError, SD_RESIZED);
    return -1;
  }
  if (sd_reserve(s, s->held + want) < 0) {
    return -1;
  }
  Py_ssize_t got;
  PyObject* r;
  if (s->readinto != NULL) {
    /* Zeroed first: a readinto() that reports bytes it did not write gave
     * the buffer's earlier or uninitialised bytes as input. Only the bytes
     * that may not be zero already (64 KiB a read was most of a small
     * load()); all of them if the file resized the bytearray. Not for an
     * honest file (sd_honest_file), which writes what it reports. */
    sd_check_size(s);
    char* at = PyByteArray_AS_STRING(s->buf);
    size_t end = s->held + want;
    if (!s->honest) {
      if (s->dirty > s->held) {
        memset(at + s->held, 0, (s->dirty < end ? s->dirty : end) - s->held);
      }
      if (end > s->clean) {
        size_t from = s->clean > s->held ? s->clean : s->held;
        memset(at + from, 0, end - from);
        s->clean = end;
      }
      if (s->dirty < end) {
        s->dirty = s->held;
      }
    }
    /* A slice of a memoryview of the bytearray: while the file keeps it (or
     * a view of it) the bytearray cannot be resized; released after the call
     * so the file cannot write into it later. */
    PyObject* whole = PyMemoryView_FromObject(s->buf);
    if (whole == NULL) {
      return -1;
    }
    PyObject* part = PySequence_GetSlice(whole, (Py_ssize_t)s->held, (Py_ssize_t)(s->held + want));
    if (part == NULL) {
      sd_release_view(whole);
      return -1;
    }
    r = PyObject_CallOneArg(s->readinto, part);
    if (r == NULL) {
      PyObject* pending = cf_take_exception();
      if (sd_release_both(part, whole) < 0) {
        PyErr_Clear();
      }
      cf_restore_exception(pending);
      return -1;
    }
    if (sd_release_both(part, whole) < 0) {
      Py_DECREF(r);
      return -1;
    }
    if (r == Py_None) {
      got = 0;
    } else {
      got = PyLong_Check(r) ? PyLong_AsSsize_t(r) : -1;
      if (got < 0 || (size_t)got > want) {
        if (!PyErr_Occurred()) {
          PyErr_Format(PyExc_ValueError, "fp.readinto() returned %R for a buffer of %zu bytes", r,
                       want);
        }
        Py_DECREF(r);
        return -1;
      }
    }
    Py_DECREF(r);
    /* the file may have written all it was given, whatever it reports */
    if (s->held + want > s->dirty) {
      s->dirty = s->held + want;
    }
    return got;
  }
  r = PyObject_CallFunction(s->read, "n", (Py_ssize_t)want);
  if (r == NULL) {
    return -1;
  }
  if (r == Py_None) {
    Py_DECREF(r);
    return 0;
  }
  Py_buffer view;
  if (PyObject_GetBuffer(r, &view, PyBUF_C_CONTIGUOUS) < 0) {
    PyErr_Format(PyExc_TypeError, "fp.read() must return bytes, not '%.100s'", Py_TYPE(r)->tp_name);
    Py_DECREF(r);
    return -1;
  }
  if ((size_t)view.len > want) {
    PyErr_Format(PyExc_ValueError, "fp.read(%zu) returned %zd bytes", want, view.len);
    got = -1;
  } else {
    memcpy(PyByteArray_AS_STRING(s->buf) + s->held, view.buf, (size_t)view.len);
    got = view.len;
    if (s->held + (size_t)got > s->dirty) {
      s->dirty = s->held + (size_t)got;
    }
  }
  PyBuffer_Release(&view);
  Py_DECREF(r);
  return got;
}

/* Moves the unread bytes to the front of the buffer (before a read), and
 * gives back most of a buffer grown for an item much larger than these. */
static int sd_compact(stream_decoder* s) {
  char* data = PyByteArray_AS_STRING(s->buf);
  size_t left = s->held - s->pos;
  if (s->pos != 0) {
    memmove(data, data + s->pos, left);
    s->base += s->pos;
    s->held = left;
    s->pos = 0;
  }
  size_t cap = (size_t)PyByteArray_GET_SIZE(s->buf);
  if (cap > 4 * SD_BLOCK && cap > 4 * (left + SD_BLOCK)) {
    return sd_resize(s, 2 * (left + SD_BLOCK));
  }
  return 0;
}

/* Passes over the next item if it is all in. After NEED_MORE the item's
 * scan goes on where it stopped (cbor_reader_item_ready: no byte scanned
 * twice however small the reads); cbor_reader_skip() alone would first try
 * its fast pass over the whole partial item again. */
static cbor_fast_status sd_scan(stream_decoder* s) {
  if (s->partial) {
    cbor_fast_status st = cbor_reader_item_ready(s->rd);
    if (st != CBOR_FAST_OK) {
      return st;
    }
  }
  cbor_fast_status st = cbor_reader_skip(s->rd);
  s->partial = st == CBOR_FAST_NEED_MORE;
  return st;
}

/* While the reader and the decoder read the buffer through raw pointers, an
 * export of it is held: the bytearray cannot be resized then (BufferError).
 * A file's readinto() sees the bytearray itself (the .obj of the memoryview
 * it is given) and may keep it; a hook, or another thread while the scan
 * runs without the GIL, could otherwise resize it under the pointers. */
/* The file may also resize the bytearray between two calls: a shrunk one
 * left `held` past its end (a 64 KiB read from a 20-byte buffer, then a
 * memmove over it), so every pin checks that it still holds `held` bytes;
 * nothing else reads or moves them without a pin taken since the file last
 * ran. Bytes the file overwrites are only wrong input. */
static const uint8_t* sd_pin(stream_decoder* s, Py_buffer* pin) {
  if (PyObject_GetBuffer(s->buf, pin, PyBUF_SIMPLE) < 0) {
    return NULL;
  }
  if ((size_t)pin->len < s->held) {
    PyBuffer_Release(pin);
    PyErr_SetString(PyExc_RuntimeError, SD_RESIZED);
    return NULL;
  }
  return (const uint8_t*)pin->buf;
}

static PyObject* sd_decode_item(stream_decoder* s, int immutable) {
  cf_decode_options o = s->opts;
  o.immutable = immutable;
  for (;;) {
    Py_buffer pin;
    const uint8_t* data = sd_pin(s, &pin);
    if (data == NULL) {
      return NULL;
    }
    if (cbor_reader_feed(s->rd, data, s->held, s->base) != CBOR_FAST_OK) {
      PyBuffer_Release(&pin);
      return sd_raise(CBOR_FAST_ERR_INTERNAL, s->base + s->pos, s->base + s->pos, 0);
    }
    cbor_fast_status st;
    size_t fresh = s->base + s->held - s->scanned;
    s->scanned = s->base + s->held;
    if (fresh >= SD_BLOCK) {
      /* The reader touches no Python object, and this object is busy (no
       * other call may change the buffer): let other threads run. */
      Py_BEGIN_ALLOW_THREADS st = sd_scan(s);
      Py_END_ALLOW_THREADS
    } else {
      st = sd_scan(s);
    }
    if (st == CBOR_FAST_OK) {
      size_t start = s->base + s->pos;
      size_t end = cbor_reader_offset(s->rd);
      PyObject* v = cf_decode_buffer(&o, data + s->pos, end - start, start, NULL);
      s->pos = end - s->base; /* the item is consumed, decoded or not */
      PyBuffer_Release(&pin);
      return v;
    }
    if (st != CBOR_FAST_NEED_MORE) {
      cbor_fast_error err = CBOR_FAST_ERROR_INIT;
      cbor_reader_error(s->rd, &err);
      /* The error loads() gives for the item's bytes at hand when it comes
       * first: the decoder's own checks (text decoded as UTF-8) can fail
       * before the reader's error further on (bf 16 61 01 61 d9 ff: invalid
       * UTF-8 at 5 before the missing value at 6). A truncation it reports
       * is no answer (more bytes may come), nor is a later offset. */
      PyObject* v = cf_decode_buffer(&o, data + s->pos, s->held - s->pos, s->base + s->pos, NULL);
      PyBuffer_Release(&pin);
      if (v == NULL) {
        if (!PyErr_ExceptionMatches(cf_state.decode_error)) {
          return NULL; /* a hook's own exception, or no memory: as loads() */
        }
        if (!PyErr_ExceptionMatches(PyExc_EOFError) && cf_pending_size_attr("offset") <= err.offset) {
          return NULL;
        }
        PyErr_Clear();
      } else {
        Py_DECREF(v);
      }
      return sd_raise(st, err.offset, err.item_offset, err.depth);
    }
    PyBuffer_Release(&pin); /* the buffer may move from here on */
    size_t need = cbor_reader_needed(s->rd);
    if (need == 0) {
      need = 1;
    }
    if (s->held - s->pos >= s->max_buffer) {
      /* the item needs more than max_buffer bytes, and they are coming */
      return sd_raise(CBOR_FAST_ERR_MEMORY_BUDGET, s->base + s->pos, s->base + s->pos, 0);
    }
    if (sd_compact(s) < 0) {
      return NULL;
    }
    /* Blocks of s->block (exact: only what the item needs), at most doubling
     * what is held beyond that (a head announcing 4 GiB allocates what
     * comes, not what it says) and within max_buffer. */
    size_t block = s->ramp != 0 ? s->ramp : s->block;
    size_t want = need;
    if (!s->exact && want < block) {
      want = block;
    }
    size_t step = s->held > block ? s->held : block;
    if (want > step) {
      want = step;
    }
    if (want > s->max_buffer - s->held) {
      want = s->max_buffer - s->held;
    }
    Py_ssize_t got = sd_read(s, want);
    if (got < 0) {
      return NULL;
    }
    if (s->ramp != 0) {
      s->ramp = 2 * s->ramp < s->block ? 2 * s->ramp : 0;
    }
    if (got == 0) {
      if (s->held == 0) {
        /* the input ended between items */
        return sd_raise(CBOR_FAST_ERR_TRUNCATED, s->base, s->base, 0);
      }
      /* it ended inside an item: the error loads() gives for its bytes
       * (which stay buffered: a file that grows can still complete it) */
      data = sd_pin(s, &pin);
      if (data == NULL) {
        return NULL;
      }
      PyObject* v = cf_decode_buffer(&o, data, s->held, s->base, NULL);
      PyBuffer_Release(&pin);
      if (v != NULL) {
        Py_DECREF(v);
        return sd_raise(CBOR_FAST_ERR_TRUNCATED, s->base + s->held, s->base, 0);
      }
      return NULL;
    }
    s->held += (size_t)got;
  }
}

static PyObject* sd_decode(PyObject* self, PyObject* args, PyObject* kwargs) {
  static const char* kwlist[] = {"immutable", NULL};
  stream_decoder* s = (stream_decoder*)self;
  PyObject* immutable = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:decode", (char**)kwlist, &immutable)) {
    return NULL;
  }
  int imm = s->opts.immutable;
  if (immutable != Py_None && (imm = PyObject_IsTrue(immutable)) < 0) {
    return NULL;
  }
  if (s->busy) {
    PyErr_SetString(PyExc_RuntimeError, "CBORDecoder.decode() called while it runs");
    return NULL;
  }
  s->busy = 1;
  PyObject* v = sd_decode_item(s, imm);
  s->busy = 0;
  return v;
}

static PyObject* sd_get_pending(PyObject* self, void* closure) {
  (void)closure;
  stream_decoder* s = (stream_decoder*)self;
  return PyLong_FromSize_t(s->held - s->pos);
}

static PyObject* sd_get_offset(PyObject* self, void* closure) {
  (void)closure;
  stream_decoder* s = (stream_decoder*)self;
  return PyLong_FromSize_t(s->base + s->pos);
}

static PyMethodDef sd_methods[] = {
    {"decode", (PyCFunction)(void (*)(void))sd_decode, METH_VARARGS | METH_KEYWORDS,
     "decode(immutable=None): the next item of the file."},
    {NULL, NULL, 0, NULL}};

static PyObject* sd_get_honest(PyObject* self, void* closure) {
  (void)closure;
  return PyBool_FromLong(((stream_decoder*)self)->honest);
}

static PyGetSetDef sd_getset[] = {
    {"pending", sd_get_pending, NULL, "Bytes read from the file and not yet decoded.", NULL},
    {"_honest", sd_get_honest, NULL,
     "For the tests: the file's reads are not zeroed first (one of io's own types).", NULL},
    {"offset", sd_get_offset, NULL, "Stream offset of the next item.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject cf_stream_decoder_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cbor_fast._ext.StreamDecoder",
    .tp_basicsize = sizeof(stream_decoder),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc =
        "StreamDecoder(fp, options=None, max_buffer=None, exact=False, read_size=None): the "
        "items of a "
        "binary file, one per decode().",
    .tp_dealloc = sd_dealloc,
    .tp_traverse = sd_traverse,
    .tp_clear = sd_clear,
    .tp_new = sd_new,
    .tp_methods = sd_methods,
    .tp_getset = sd_getset,
};
