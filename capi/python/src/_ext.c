/*
 * cbor_fast._ext: the module. loads / iter_sequence / Reader over the
 * library's reader, dumps / CBOREncoder over its writer (_ext_encode.c).
 */
#include "_ext.h"

#include <string.h>
#if defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#define CF_STACK_CHECK 1
#include <pthread.h> /* pthread_getattr_np (pyconfig.h defines _GNU_SOURCE) */
#endif

cf_globals cf_state;

/* ---- the thread's stack ------------------------------------------------------- */

#ifdef CF_STACK_CHECK
/* This thread's stack, [low, high) (high 0: not known), found once. */
static _Thread_local uintptr_t cf_stack_low, cf_stack_high;
static _Thread_local int cf_stack_known;

static void find_stack(void) {
  cf_stack_known = 1;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* low = NULL;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &low, &size) == 0) {
      cf_stack_low = (uintptr_t)low;
      cf_stack_high = (uintptr_t)low + size;
    }
    pthread_attr_destroy(&attr);
  }
}
#endif

/* The frame's own address, not a local's: ASan's
 * detect_stack_use_after_return moves locals to a heap "fake stack". */
size_t cf_stack_left(void) {
#ifdef CF_STACK_CHECK
  if (!cf_stack_known) {
    find_stack();
  }
  const uintptr_t at = (uintptr_t)__builtin_frame_address(0);
  if (at >= cf_stack_low && at < cf_stack_high) {
    return (size_t)(at - cf_stack_low);
  }
#endif
  return SIZE_MAX;
}

/* ---- the cyclic GC ------------------------------------------------------------ */

#if PY_VERSION_HEX >= 0x030A0000
int cf_gc_pause(void) {
  return PyGC_Disable();
}

void cf_gc_resume(int paused) {
  if (paused) {
    PyGC_Enable();
  }
}
#else
/* gc.isenabled, gc.disable, gc.enable: imported once, kept. */
static PyObject *gc_isenabled, *gc_disable, *gc_enable;

int cf_gc_pause(void) {
  if (gc_isenabled == NULL) {
    PyObject* gc = PyImport_ImportModule("gc");
    if (gc == NULL) {
      PyErr_Clear();
      return 0; /* no pause: slower, not wrong */
    }
    gc_isenabled = PyObject_GetAttrString(gc, "isenabled");
    gc_disable = PyObject_GetAttrString(gc, "disable");
    gc_enable = PyObject_GetAttrString(gc, "enable");
    Py_DECREF(gc);
    if (gc_isenabled == NULL || gc_disable == NULL || gc_enable == NULL) {
      Py_CLEAR(gc_isenabled);
      Py_CLEAR(gc_disable);
      Py_CLEAR(gc_enable);
      PyErr_Clear();
      return 0;
    }
  }
  PyObject* on = PyObject_CallNoArgs(gc_isenabled);
  int enabled = on != NULL && PyObject_IsTrue(on) == 1;
  Py_XDECREF(on);
  PyObject* r = enabled ? PyObject_CallNoArgs(gc_disable) : NULL;
  Py_XDECREF(r);
  if (PyErr_Occurred()) {
    PyErr_Clear();
  }
  return enabled && r != NULL;
}

void cf_gc_resume(int paused) {
  if (!paused) {
    return;
  }
  PyObject* pending = cf_take_exception();
  PyObject* r = PyObject_CallNoArgs(gc_enable);
  Py_XDECREF(r);
  if (r == NULL) {
    PyErr_Clear();
  }
  cf_restore_exception(pending);
}
#endif

/* ---- options ----------------------------------------------------------------- */

/* A limit: None (no limit, stored as 0) or an int in 1 .. 2**64 - 1. */
static int parse_limit(PyObject* o, const char* name, uint64_t* out) {
  *out = 0;
  if (o == NULL || o == Py_None) {
    return 0;
  }
  if (PyLong_Check(o) && !PyBool_Check(o)) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    /* 0, like None, is the default (the library's rule for 0 in every limit). */
    if (!(v == (unsigned long long)-1 && PyErr_Occurred())) {
      *out = v;
      return 0;
    }
    PyErr_Clear();
  }
  PyErr_Format(PyExc_ValueError, "%s must be None or an int in 0 .. 2**64 - 1, not %R", name, o);
  return -1;
}

/* After "data", as in CF_DECODE_OPTIONS_SIG (_ext.h). */
static const char* decode_kwlist[] = {
    "data",          "tag_hook",          "object_hook",        "semantic_decoders",
    "str_errors",    "max_depth",         "allow_indefinite",   "allow_duplicate_keys",
    "strict_hashable_types", "immutable", "strict_utf8",        "reject_duplicate_keys",
    "deterministic", "max_string_length", "max_container_items", "max_items",
    "max_memory",    "typed_arrays",      NULL};

#define CF_DECODE_KWARGS (sizeof decode_kwlist / sizeof decode_kwlist[0] - 1)

/* The keyword arguments matched to decode_kwlist in one pass over the dict
 * (PyArg_ParseTupleAndKeywords makes a str of each name it looks for until
 * it has found them all: half of a small loads() with three options).
 * 1: each value is in vals (borrowed, NULL where not given); 0: not this
 * simple (not one positional, data by keyword, a name it does not know, a
 * key that is not an exact str, a str_errors that is not a plain str), for
 * the caller to parse as before and give its errors; -1 with an exception. */
static int match_decode_kwargs(PyObject* args, PyObject* kwargs, PyObject** vals) {
  static PyObject* names[CF_DECODE_KWARGS]; /* interned, made once */
  if (names[CF_DECODE_KWARGS - 1] == NULL) {
    for (size_t i = 0; i < CF_DECODE_KWARGS; ++i) {
      if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(decode_kwlist[i])) == NULL) {
        return -1;
      }
    }
  }
  if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 1) {
    return 0;
  }
  Py_ssize_t at = 0;
  PyObject *key, *value;
  while (PyDict_Next(kwargs, &at, &key, &value)) {
    if (!PyUnicode_CheckExact(key)) {
      return 0;
    }
    size_t i = 1; /* not "data" */
    while (i < CF_DECODE_KWARGS && names[i] != key) {
      ++i;
    }
    if (i == CF_DECODE_KWARGS) { /* a name that is not interned */
      for (i = 1; i < CF_DECODE_KWARGS; ++i) {
        int eq = PyUnicode_Compare(key, names[i]);
        if (eq == 0) {
          break;
        }
        if (eq == -1 && PyErr_Occurred()) {
          return -1;
        }
      }
      if (i == CF_DECODE_KWARGS) {
        return 0;
      }
    }
    vals[i] = value;
  }
  PyObject* errors = vals[4]; /* str_errors: 's' */
  if (errors != NULL) {
    Py_ssize_t n;
    const char* text = PyUnicode_Check(errors) ? PyUnicode_AsUTF8AndSize(errors, &n) : NULL;
    if (text == NULL || strlen(text) != (size_t)n) {
      PyErr_Clear();
      return 0;
    }
  }
  return 1;
}

/* Parses the decode options; *data gets the input object (borrowed). */
static int parse_decode_options(PyObject* args, PyObject* kwargs, const char* fmt,
                                PyObject** data, cf_decode_options* o) {
  PyObject *tag_hook = Py_None, *object_hook = Py_None, *semantic = Py_None;
  PyObject* max_depth = NULL;
  const char* str_errors = "strict";
  int allow_indefinite = 1, allow_duplicate_keys = 1, strict_hashable = 0, immutable = 0;
  int strict_utf8 = 0, reject_dup = 0, deterministic = 0, typed_arrays = 0;
  PyObject *max_string = Py_None, *max_container = Py_None, *max_items = Py_None,
           *max_memory = Py_None;
  memset(o, 0, sizeof(*o));
  if (kwargs == NULL && PyTuple_Check(args) && PyTuple_GET_SIZE(args) == 1) {
    /* No keywords, the one positional argument (the format's "O"): the
     * defaults the code below gives for none, without
     * PyArg_ParseTupleAndKeywords's pass over the 18-item format and the
     * conversions (most of loads(b"\x01")'s own cost). */
    *data = PyTuple_GET_ITEM(args, 0);
    o->max_depth = 512;
    o->allow_indefinite = 1;
    return 0;
  }
  PyObject* vals[CF_DECODE_KWARGS] = {NULL};
  int matched = kwargs == NULL ? 0 : match_decode_kwargs(args, kwargs, vals);
  if (matched < 0) {
    return -1;
  }
  if (matched) {
    /* As the format's conversions: O as given, s (checked above), p */
    *data = PyTuple_GET_ITEM(args, 0);
    PyObject** objects[] = {NULL, &tag_hook, &object_hook, &semantic, NULL, &max_depth};
    for (size_t i = 1; i < 6; ++i) {
      if (objects[i] != NULL && vals[i] != NULL) {
        *objects[i] = vals[i];
      }
    }
    if (vals[4] != NULL) {
      str_errors = PyUnicode_AsUTF8(vals[4]);
    }
    int* flags[] = {&allow_indefinite, &allow_duplicate_keys, &strict_hashable, &immutable,
                    &strict_utf8,      &reject_dup,           &deterministic};
    for (size_t i = 0; i < 7; ++i) {
      if (vals[6 + i] != NULL && (*flags[i] = PyObject_IsTrue(vals[6 + i])) < 0) {
        return -1;
      }
    }
    PyObject** limits[] = {&max_string, &max_container, &max_items, &max_memory};
    for (size_t i = 0; i < 4; ++i) {
      if (vals[13 + i] != NULL) {
        *limits[i] = vals[13 + i];
      }
    }
    if (vals[17] != NULL && (typed_arrays = PyObject_IsTrue(vals[17])) < 0) {
      return -1;
    }
  } else if (!PyArg_ParseTupleAndKeywords(args, kwargs, fmt, (char**)decode_kwlist, data,
                                          &tag_hook, &object_hook, &semantic, &str_errors,
                                          &max_depth, &allow_indefinite, &allow_duplicate_keys,
                                          &strict_hashable, &immutable, &strict_utf8, &reject_dup,
                                          &deterministic, &max_string, &max_container, &max_items,
                                          &max_memory, &typed_arrays)) {
    return -1;
  }
  o->max_depth = 512;
  if (max_depth != NULL) {
    unsigned long v = (PyLong_Check(max_depth) && !PyBool_Check(max_depth))
                          ? PyLong_AsUnsignedLong(max_depth)
                          : (unsigned long)-1;
    if ((v == (unsigned long)-1 && PyErr_Occurred()) || v > 0xFFFFFFFFul ||
        !PyLong_Check(max_depth) || PyBool_Check(max_depth)) {
      PyErr_Clear();
      PyErr_Format(PyExc_ValueError, "max_depth must be an int in 0 .. 2**32 - 1, not %R",
                   max_depth);
      return -1;
    }
    o->max_depth = v != 0 ? (uint32_t)v : 512; /* 0: the default */
  }
  if (tag_hook != Py_None && !PyCallable_Check(tag_hook)) {
    PyErr_SetString(PyExc_TypeError, "tag_hook must be callable or None");
    return -1;
  }
  if (object_hook != Py_None && !PyCallable_Check(object_hook)) {
    PyErr_SetString(PyExc_TypeError, "object_hook must be callable or None");
    return -1;
  }
  if (semantic != Py_None && !PyDict_Check(semantic)) {
    PyErr_SetString(PyExc_TypeError, "semantic_decoders must be a dict or None");
    return -1;
  }
  o->tag_hook = tag_hook == Py_None ? NULL : tag_hook;
  o->object_hook = object_hook == Py_None ? NULL : object_hook;
  o->semantic_decoders = semantic == Py_None ? NULL : semantic;
  if (strcmp(str_errors, "strict") == 0 || strcmp(str_errors, "error") == 0) {
    o->str_errors = NULL;
  } else if (strcmp(str_errors, "replace") == 0 || strcmp(str_errors, "ignore") == 0 ||
             strcmp(str_errors, "surrogateescape") == 0 ||
             strcmp(str_errors, "backslashreplace") == 0) {
    o->str_errors = str_errors; /* a static-lifetime name: see the kwlist parse */
  } else {
    PyErr_Format(PyExc_ValueError, "invalid str_errors value: %s", str_errors);
    return -1;
  }
  o->allow_indefinite = allow_indefinite;
  o->immutable = immutable;
  o->strict_utf8 = strict_utf8;
  o->reject_duplicate_keys = reject_dup || !allow_duplicate_keys;
  o->deterministic = deterministic;
  o->strict_hashable = strict_hashable;
  o->typed_arrays = typed_arrays;
  if (parse_limit(max_string, "max_string_length", &o->max_string_length) < 0 ||
      parse_limit(max_container, "max_container_items", &o->max_container_items) < 0 ||
      parse_limit(max_items, "max_items", &o->max_items) < 0 ||
      parse_limit(max_memory, "max_memory", &o->max_memory) < 0) {
    return -1;
  }
  return 0;
}

/* str_errors points into a str object that the kwargs hold only during the
 * call; the names accepted are copied to these statics. */
static const char* static_errors(const char* name) {
  static const char* names[] = {"replace", "ignore", "surrogateescape", "backslashreplace"};
  if (name == NULL) {
    return NULL;
  }
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    if (strcmp(name, names[i]) == 0) {
      return names[i];
    }
  }
  return NULL;
}

int cf_parse_stream_options(PyObject* fp, PyObject* options, cf_decode_options* o) {
  PyObject* args = PyTuple_Pack(1, fp);
  if (args == NULL) {
    return -1;
  }
  PyObject* ignored;
  int rc = parse_decode_options(args, options, "O|$OOOsOpppppppOOOOp:CBORDecoder", &ignored, o);
  Py_DECREF(args);
  if (rc == 0) {
    o->str_errors = static_errors(o->str_errors);
  }
  return rc;
}

/* ---- loads ----------------------------------------------------------------------- */

static int get_buffer(PyObject* data, Py_buffer* view) {
  if (PyObject_GetBuffer(data, view, PyBUF_C_CONTIGUOUS) < 0) {
    PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'",
                 Py_TYPE(data)->tp_name);
    return -1;
  }
  return 0;
}

static PyObject* decode_error_at(int status, size_t offset) {
  PyObject* exc = PyObject_CallFunction(cf_state.decode_error, "in", status, (Py_ssize_t)offset);
  if (exc != NULL) {
    PyObject* zero = PyLong_FromLong(0);
    if (zero != NULL) {
      PyObject_SetAttrString(exc, "depth", zero);
      PyObject_SetAttrString(exc, "item_offset", zero);
      Py_DECREF(zero);
    }
    PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  }
  return NULL;
}

/* Adds `base` to .offset and .item_offset of a pending CBORDecodeError (set
 * item_offset to `base` when it has none): errors of an item decoded from a
 * buffer that starts at stream offset `base`. */
static void shift_decode_error(size_t base) {
  PyObject* value = cf_take_exception();
  if (value != NULL) {
    PyObject* b = PyLong_FromSize_t(base);
    if (b != NULL) {
      PyObject_SetAttrString(value, "item_offset", b);
      PyObject* off = PyObject_GetAttrString(value, "offset");
      if (off != NULL && PyLong_Check(off) && base != 0) {
        PyObject* shifted = PyNumber_Add(off, b);
        if (shifted != NULL) {
          PyObject_SetAttrString(value, "offset", shifted);
          Py_DECREF(shifted);
        }
      }
      Py_XDECREF(off);
      Py_DECREF(b);
    }
    if (PyErr_Occurred()) {
      PyErr_Clear();
    }
  }
  cf_restore_exception(value);
}

/* The decoding loop keeps its own stack, but a hook (object_hook, tag_hook,
 * a semantic decoder) may call loads() again, each call a few C frames and
 * the interpreter's under it: on a 512 KiB thread about 330 such levels
 * overflowed the C stack, and with the recursion limit raised 5,500 in the
 * main thread. Nested deeper than this, or nested with less than 32 KiB of
 * the thread's stack left (Linux; an outermost loads() in a small thread
 * keeps its own checks), the inner call fails with depth_exceeded at its
 * offset 0, as the encoder refuses nested encodes. */
#define CF_MAX_DECODE_NESTING 500
#define CF_MIN_DECODE_STACK_LEFT (32 * 1024)
static _Thread_local unsigned cf_decode_nesting;

static PyObject* decode_buffer_in(const cf_decode_options* opts, const uint8_t* data, size_t size,
                                  size_t base, size_t* end_out);

PyObject* cf_decode_buffer(const cf_decode_options* opts, const uint8_t* data, size_t size,
                           size_t base, size_t* end_out) {
  if (cf_decode_nesting >= CF_MAX_DECODE_NESTING ||
      (cf_decode_nesting > 0 && cf_stack_left() < CF_MIN_DECODE_STACK_LEFT)) {
    return decode_error_at(CBOR_FAST_ERR_DEPTH, 0);
  }
  ++cf_decode_nesting;
  PyObject* r = decode_buffer_in(opts, data, size, base, end_out);
  --cf_decode_nesting;
  return r;
}

/* The decoder block of the last one-shot decode, with its reader when that
 * was made with default options (spare_decoder->rd, else NULL), kept for
 * the next (taken and given back with the GIL held; a decode that a hook
 * starts inside another finds the slot empty and makes its own): a block
 * and a reader made and freed per call were about 500 of the 2,600
 * instructions of loads(b"\x01"). Freed with the process. */
static cf_decoder* spare_decoder;
/* Only with a GIL: a build without one (3.13t with PYTHON_GIL=0) makes each
 * decoder afresh. */
#ifdef Py_GIL_DISABLED
#define CF_KEEP_DECODER 0
#else
#define CF_KEEP_DECODER 1
#endif

static PyObject* decode_buffer_in(const cf_decode_options* opts, const uint8_t* data, size_t size,
                                  size_t base, size_t* end_out) {
  const int plain = cf_reader_options_default(opts);
  cf_decoder* d = CF_KEEP_DECODER ? spare_decoder : NULL;
  cbor_reader* kept = NULL;
  if (d != NULL) {
    spare_decoder = NULL;
    kept = d->rd;
    d->rd = NULL;
    if (kept != NULL && !plain) {
      /* other options than its own (its allocator's context is d, whose
       * budget fields cf_decoder_init sets afresh) */
      cbor_reader_free(kept);
      kept = NULL;
    }
  } else if ((d = (cf_decoder*)PyMem_Malloc(sizeof(cf_decoder))) == NULL) {
    return PyErr_NoMemory();
  }
  PyObject* result = NULL;
  int gc_paused = cf_gc_pause();
  if (cf_decoder_init(d, opts, data, size, kept) == 0) {
    if (end_out != NULL) {
      d->batch_cap = 8; /* the first item of more input: see batch_cap */
    }
    size_t end = 0;
    int rc = cf_decode_next(d, &result, &end);
    if (rc == 0) {
      decode_error_at(CBOR_FAST_ERR_TRUNCATED, 0);
    } else if (rc == 1 && end_out == NULL && cf_decoder_has_more(d, end)) {
      Py_CLEAR(result);
      decode_error_at(CBOR_FAST_ERR_TRAILING_BYTES, end);
    } else if (rc == 1 && end_out != NULL) {
      *end_out = end;
    }
    /* The reader is kept with the block when it has the default options. */
    kept = CF_KEEP_DECODER && plain && spare_decoder == NULL ? d->rd : NULL;
    if (kept != NULL) {
      d->rd = NULL;
    }
    cf_decoder_free(d);
    d->rd = kept;
  } else {
    d->rd = NULL; /* cf_decoder_init freed what it made */
  }
  if (result == NULL && PyErr_Occurred() && PyErr_ExceptionMatches(cf_state.decode_error)) {
    shift_decode_error(base); /* one item, at offset `base` */
  }
  cf_gc_resume(gc_paused);
  if (CF_KEEP_DECODER && spare_decoder == NULL) {
    spare_decoder = d;
  } else {
    cbor_reader_free(d->rd);
    PyMem_Free(d);
  }
  return result;
}

/* loads and _decode_first: one item from the start of `data`; with `exact`,
 * bytes after it are an error, else (value, end) is returned. */
static PyObject* decode_one(PyObject* args, PyObject* kwargs, int exact) {
  PyObject* data;
  cf_decode_options opts;
  if (parse_decode_options(args, kwargs, exact ? "O|$OOOsOpppppppOOOOp:loads"
                                               : "O|$OOOsOpppppppOOOOp:_decode_first",
                           &data, &opts) < 0) {
    return NULL;
  }
  opts.str_errors = static_errors(opts.str_errors);
  Py_buffer view;
  if (get_buffer(data, &view) < 0) {
    return NULL;
  }
  size_t end = 0;
  PyObject* result =
      cf_decode_buffer(&opts, (const uint8_t*)view.buf, (size_t)view.len, 0, exact ? NULL : &end);
  if (result != NULL && !exact) {
    result = Py_BuildValue("(Nn)", result, (Py_ssize_t)end);
  }
  PyBuffer_Release(&view);
  return result;
}

/* load() from an io.BytesIO: the next item decoded where it is in the
 * file's bytes (getvalue(): the BytesIO's own bytes object, no copy while
 * its size is exact, as when it was made from bytes and only read), and the
 * file moved past it. NotImplemented, for load()'s file path, when a hook
 * is given (the file path's reads are what it may see), when more than the
 * default max_buffer is left (the file path decides whether the item fits
 * it) and when the item fails to decode: the file path gives its error and
 * leaves the file where its reads got to (the one-shot decoder reports a
 * count the bytes left cannot hold as a truncation at its head, where the
 * file path's streaming reader reports the malformed byte inside it: 83 1e
 * f6 is reserved at 1, not end of input at 0). */
static PyObject* py_load_in_place(PyObject* self, PyObject* args, PyObject* kwargs) {
  (void)self;
  PyObject* fp;
  cf_decode_options opts;
  if (parse_decode_options(args, kwargs, "O|$OOOsOpppppppOOOOp:load", &fp, &opts) < 0) {
    return NULL;
  }
  if (opts.tag_hook != NULL || opts.object_hook != NULL || opts.semantic_decoders != NULL) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  opts.str_errors = static_errors(opts.str_errors);
  static PyObject *tell, *getvalue, *seek; /* interned names, made once */
  if (tell == NULL && ((getvalue = PyUnicode_InternFromString("getvalue")) == NULL ||
                       (seek = PyUnicode_InternFromString("seek")) == NULL ||
                       (tell = PyUnicode_InternFromString("tell")) == NULL)) {
    return NULL;
  }
  PyObject* at = PyObject_CallMethodNoArgs(fp, tell);
  if (at == NULL) {
    return NULL;
  }
  Py_ssize_t pos = PyLong_AsSsize_t(at);
  Py_DECREF(at);
  if (pos < 0) {
    return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "negative position");
  }
  PyObject* all = PyObject_CallMethodNoArgs(fp, getvalue);
  if (all == NULL) {
    return NULL;
  }
  if (!PyBytes_Check(all)) {
    Py_DECREF(all);
    Py_RETURN_NOTIMPLEMENTED;
  }
  size_t len = (size_t)PyBytes_GET_SIZE(all);
  size_t start = (size_t)pos < len ? (size_t)pos : len;
  size_t left = len - start;
  size_t end = 0;
  PyObject* result = NULL;
  if (left <= CF_DEFAULT_MAX_BUFFER) {
    result = cf_decode_buffer(&opts, (const uint8_t*)PyBytes_AS_STRING(all) + start, left, 0, &end);
  }
  Py_DECREF(all); /* (the decoded values hold none of its memory) */
  if (result == NULL) {
    if (left <= CF_DEFAULT_MAX_BUFFER && !PyErr_ExceptionMatches(cf_state.decode_error)) {
      return NULL; /* no memory, or the like */
    }
    PyErr_Clear();
    Py_RETURN_NOTIMPLEMENTED;
  }
  PyObject* to = PyLong_FromSize_t(start + end);
  if (to == NULL) {
    Py_DECREF(result);
    return NULL;
  }
  PyObject* r = PyObject_CallMethodOneArg(fp, seek, to);
  Py_DECREF(to);
  if (r == NULL) {
    Py_DECREF(result);
    return NULL;
  }
  Py_DECREF(r);
  return result;
}

static PyObject* py_loads(PyObject* self, PyObject* args, PyObject* kwargs) {
  (void)self;
  return decode_one(args, kwargs, 1);
}

static PyObject* py_decode_first(PyObject* self, PyObject* args, PyObject* kwargs) {
  (void)self;
  return decode_one(args, kwargs, 0);
}

PyObject* cf_take_exception(void) {
#if PY_VERSION_HEX >= 0x030C0000
  return PyErr_GetRaisedException();
#else
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (value != NULL && tb != NULL) {
    PyException_SetTraceback(value, tb);
  }
  Py_XDECREF(type);
  Py_XDECREF(tb);
  return value;
#endif
}

void cf_restore_exception(PyObject* exc) {
  if (exc == NULL) {
    return;
  }
#if PY_VERSION_HEX >= 0x030C0000
  PyErr_SetRaisedException(exc);
#else
  PyObject* type = (PyObject*)Py_TYPE(exc);
  Py_INCREF(type);
  PyErr_Restore(type, exc, PyException_GetTraceback(exc));
#endif
}

void cf_chain_cause(PyObject* cause) {
  if (cause == NULL) {
    return;
  }
  PyObject* exc = cf_take_exception();
  if (exc != NULL) {
    Py_INCREF(cause);
    PyException_SetCause(exc, cause);   /* steals a reference */
    PyException_SetContext(exc, cause); /* steals the other */
  } else {
    Py_DECREF(cause);
  }
  cf_restore_exception(exc);
}

size_t cf_pending_size_attr(const char* name) {
  size_t value = SIZE_MAX;
  PyObject* exc = cf_take_exception();
  PyObject* o = exc != NULL ? PyObject_GetAttrString(exc, name) : NULL;
  if (o != NULL) {
    value = PyLong_AsSize_t(o);
    Py_DECREF(o);
  }
  if (o == NULL || PyErr_Occurred()) {
    PyErr_Clear();
    value = SIZE_MAX;
  }
  cf_restore_exception(exc);
  return value;
}

/* ---- iter_sequence ------------------------------------------------------------------ */

typedef struct {
  PyObject_HEAD
  Py_buffer view;
  int has_view;
  int done;
  /* next() is running (hooks may run inside it, and the library runs with
     the GIL released): the decoder and the view stay until it returns. */
  int busy;
  /* close() came while busy: next() releases everything when it returns. */
  int close_pending;
  cf_decoder* d;
} seq_iter;

static void seq_iter_release(seq_iter* it) {
  if (it->d != NULL) {
    cf_decoder_free(it->d);
    PyMem_Free(it->d);
    it->d = NULL;
  }
  if (it->has_view) {
    PyBuffer_Release(&it->view);
    it->has_view = 0;
  }
}

/* A collected type: it owns the hooks (through its decoder) and an export of
 * the input, so an object that keeps the iterator and passed a method of its
 * own as a hook made a cycle nothing freed (300 such parsers: 300 MB). */
static int seq_iter_traverse(PyObject* self, visitproc visit, void* arg) {
  seq_iter* it = (seq_iter*)self;
  if (it->has_view) {
    Py_VISIT(it->view.obj);
  }
  if (it->d != NULL) {
    Py_VISIT(it->d->opts.tag_hook);
    Py_VISIT(it->d->opts.object_hook);
    Py_VISIT(it->d->opts.semantic_decoders);
  }
  return 0;
}

static int seq_iter_clear(PyObject* self) {
  seq_iter* it = (seq_iter*)self;
  /* Never while next() runs (then the iterator is in use, not garbage). */
  if (!it->busy) {
    it->done = 1;
    seq_iter_release(it);
  }
  return 0;
}

static void seq_iter_dealloc(PyObject* self) {
  seq_iter* it = (seq_iter*)self;
  PyObject_GC_UnTrack(self);
  seq_iter_release(it);
  Py_TYPE(self)->tp_free(self);
}

static PyObject* seq_iter_next(PyObject* self) {
  seq_iter* it = (seq_iter*)self;
  if (it->busy) {
    /* From a hook of this iterator, or another thread: the decoder is in
       the middle of an item. */
    PyErr_SetString(PyExc_RuntimeError, "iter_sequence: next() called while it runs");
    return NULL;
  }
  if (it->done || it->d == NULL) {
    return NULL;
  }
  PyObject* v = NULL;
  size_t end = 0;
  it->busy = 1;
  int gc_paused = cf_gc_pause();
  int rc = cf_decode_next(it->d, &v, &end);
  cf_gc_resume(gc_paused);
  it->busy = 0;
  if (it->close_pending) {
    /* close() was called meanwhile: the iteration stops here. */
    Py_XDECREF(v);
    it->done = 1;
    seq_iter_release(it);
    return NULL;
  }
  if (rc == 1) {
    return v;
  }
  /* the end, or an error: a finished iterator (errors are not resumed) */
  it->done = 1;
  seq_iter_release(it);
  return NULL;
}

static PyObject* seq_iter_close(PyObject* self, PyObject* unused) {
  (void)unused;
  seq_iter* it = (seq_iter*)self;
  it->done = 1;
  if (it->busy) {
    /* Called by a hook of this iterator, or by another thread, while next()
       runs: freeing the decoder now would pull it from under next(). */
    it->close_pending = 1;
    Py_RETURN_NONE;
  }
  seq_iter_release(it);
  Py_RETURN_NONE;
}

static PyMethodDef seq_iter_methods[] = {
    {"close", seq_iter_close, METH_NOARGS,
     "close($self, /)\n--\n\nStops the iteration and releases the input."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject seq_iter_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cbor_fast._ext.SequenceIterator",
    .tp_basicsize = sizeof(seq_iter),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Iterator over the items of a CBOR sequence (see iter_sequence).",
    .tp_dealloc = seq_iter_dealloc,
    .tp_traverse = seq_iter_traverse,
    .tp_clear = seq_iter_clear,
    .tp_free = PyObject_GC_Del,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = seq_iter_next,
    .tp_methods = seq_iter_methods,
};

static PyObject* py_iter_sequence(PyObject* self, PyObject* args, PyObject* kwargs) {
  (void)self;
  PyObject* data;
  cf_decode_options opts;
  if (parse_decode_options(args, kwargs, "O|$OOOsOpppppppOOOOp:iter_sequence", &data, &opts) <
      0) {
    return NULL;
  }
  opts.str_errors = static_errors(opts.str_errors);
  seq_iter* it = PyObject_GC_New(seq_iter, &seq_iter_type);
  if (it == NULL) {
    return NULL;
  }
  it->has_view = 0;
  it->done = 0;
  it->busy = 0;
  it->close_pending = 0;
  it->d = NULL;
  PyObject_GC_Track((PyObject*)it);
  if (get_buffer(data, &it->view) < 0) {
    Py_DECREF(it);
    return NULL;
  }
  it->has_view = 1;
  it->d = (cf_decoder*)PyMem_Malloc(sizeof(cf_decoder));
  if (it->d == NULL) {
    Py_DECREF(it);
    return PyErr_NoMemory();
  }
  if (cf_decoder_init(it->d, &opts, (const uint8_t*)it->view.buf, (size_t)it->view.len, NULL) <
      0) {
    PyMem_Free(it->d);
    it->d = NULL;
    Py_DECREF(it);
    return NULL;
  }
  return (PyObject*)it;
}

/* ---- Reader: the low-level pull reader, strings as zero-copy memoryviews ------------- */

typedef struct {
  PyObject_HEAD
  cbor_reader* rd;
  PyObject* mv;  /* memoryview of the input (cast to bytes), shared by the views */
  cbor_fast_item last;
  int has_last;
} reader_obj;

static PyObject* reader_error(reader_obj* r) {
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  cbor_fast_status st = cbor_reader_error(r->rd, &err);
  if (st == CBOR_FAST_ERR_OUT_OF_MEMORY) {
    return PyErr_NoMemory();
  }
  PyObject* exc = PyObject_CallFunction(cf_state.decode_error, "in", (int)st,
                                        (Py_ssize_t)err.offset);
  if (exc != NULL) {
    PyObject* depth = PyLong_FromUnsignedLong(err.depth);
    PyObject* item_offset = PyLong_FromSize_t(err.item_offset);
    if (depth != NULL) {
      PyObject_SetAttrString(exc, "depth", depth);
    }
    if (item_offset != NULL) {
      PyObject_SetAttrString(exc, "item_offset", item_offset);
    }
    Py_XDECREF(depth);
    Py_XDECREF(item_offset);
    PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  }
  return NULL;
}

static int reader_open(reader_obj* r) {
  if (r->rd == NULL) {
    PyErr_SetString(PyExc_ValueError, "the Reader is closed");
    return -1;
  }
  return 0;
}

static PyObject* reader_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* data;
  cf_decode_options opts;
  if (parse_decode_options(args, kwargs, "O|$OOOsOpppppppOOOOp:Reader", &data, &opts) < 0) {
    return NULL;
  }
  /* 2**64 - 1 is no budget (a lifted limit), which a reader keeps. */
  if (opts.max_memory != 0 && opts.max_memory != UINT64_MAX) {
    PyErr_SetString(PyExc_ValueError, "Reader: max_memory is not a reader option");
    return NULL;
  }
  reader_obj* r = (reader_obj*)type->tp_alloc(type, 0);
  if (r == NULL) {
    return NULL;
  }
  PyObject* mv = PyMemoryView_FromObject(data);
  if (mv == NULL) {
    Py_DECREF(r);
    return NULL;
  }
  r->mv = PyObject_CallMethod(mv, "cast", "s", "B");
  Py_DECREF(mv);
  if (r->mv == NULL) {
    Py_DECREF(r);
    return NULL;
  }
  Py_buffer* view = PyMemoryView_GET_BUFFER(r->mv);
  if (!PyBuffer_IsContiguous(view, 'C')) {
    PyErr_SetString(PyExc_TypeError, "Reader: the input must be a contiguous buffer");
    Py_DECREF(r);
    return NULL;
  }
  if (cbor_reader_new(view->buf, (size_t)view->len, NULL, &r->rd) != CBOR_FAST_OK) {
    Py_DECREF(r);
    return PyErr_NoMemory();
  }
  struct {
    cbor_fast_option option;
    uint64_t value;
    int set;
  } settings[] = {
      {CBOR_FAST_OPT_MAX_DEPTH, opts.max_depth, 1},
      {CBOR_FAST_OPT_VALIDATE_UTF8, 1, opts.strict_utf8},
      {CBOR_FAST_OPT_MAX_STRING_LENGTH, opts.max_string_length, opts.max_string_length != 0},
      {CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, opts.max_container_items,
       opts.max_container_items != 0},
      {CBOR_FAST_OPT_MAX_ITEMS, opts.max_items, opts.max_items != 0},
      {CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 1, opts.reject_duplicate_keys},
      {CBOR_FAST_OPT_DETERMINISTIC, 1, opts.deterministic},
  };
  for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); ++i) {
    if (settings[i].set &&
        cbor_reader_set(r->rd, settings[i].option, settings[i].value) != CBOR_FAST_OK) {
      PyErr_SetString(PyExc_ValueError, "Reader: option refused");
      Py_DECREF(r);
      return NULL;
    }
  }
  return (PyObject*)r;
}

static void reader_close_handle(reader_obj* r) {
  cbor_reader_free(r->rd);
  r->rd = NULL;
  Py_CLEAR(r->mv);
}

static void reader_dealloc(PyObject* self) {
  reader_close_handle((reader_obj*)self);
  Py_TYPE(self)->tp_free(self);
}

static PyObject* view_of(reader_obj* r, const uint8_t* data, size_t size) {
  const uint8_t* base = (const uint8_t*)PyMemoryView_GET_BUFFER(r->mv)->buf;
  Py_ssize_t off = data ? (Py_ssize_t)(data - base) : 0;
  return PySequence_GetSlice(r->mv, off, off + (Py_ssize_t)size);
}

static PyObject* reader_next(PyObject* self) {
  reader_obj* r = (reader_obj*)self;
  if (reader_open(r) < 0) {
    return NULL;
  }
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_status st = cbor_reader_next(r->rd, &it);
  if (st == CBOR_FAST_END) {
    return NULL;
  }
  if (st != CBOR_FAST_OK) {
    return reader_error(r);
  }
  r->last = it;
  r->has_last = 1;
  PyObject* value;
  int indefinite = (it.flags & CBOR_FAST_ITEM_INDEFINITE) != 0;
  switch (it.type) {
    case CBOR_FAST_TYPE_UINT:
    case CBOR_FAST_TYPE_TAG:
    case CBOR_FAST_TYPE_SIMPLE:
      value = PyLong_FromUnsignedLongLong(it.value);
      break;
    case CBOR_FAST_TYPE_NEGATIVE: {
      PyObject* u = PyLong_FromUnsignedLongLong(it.value);
      value = u ? PyNumber_Invert(u) : NULL;
      Py_XDECREF(u);
      break;
    }
    case CBOR_FAST_TYPE_BYTES:
    case CBOR_FAST_TYPE_TEXT:
      if (indefinite) {
        value = Py_None;
        Py_INCREF(value);
      } else {
        value = view_of(r, it.data, it.size);
      }
      break;
    case CBOR_FAST_TYPE_ARRAY:
    case CBOR_FAST_TYPE_MAP:
      value = indefinite ? (Py_INCREF(Py_None), Py_None) : PyLong_FromUnsignedLongLong(it.value);
      break;
    case CBOR_FAST_TYPE_FLOAT:
      value = PyFloat_FromDouble(it.float_value);
      break;
    case CBOR_FAST_TYPE_BOOL:
      value = PyBool_FromLong(it.value == 21);
      break;
    case CBOR_FAST_TYPE_UNDEFINED:
      value = cf_state.undefined;
      Py_INCREF(value);
      break;
    default:
      value = Py_None;
      Py_INCREF(value);
      break;
  }
  if (value == NULL) {
    return NULL;
  }
  return PyObject_CallFunction(cf_state.item_type, "iNnkIII", (int)it.type, value,
                               (Py_ssize_t)it.offset, (unsigned long)it.depth, it.head_size,
                               it.flags, it.float_width);
}

static PyObject* reader_skip(PyObject* self, PyObject* unused) {
  (void)unused;
  reader_obj* r = (reader_obj*)self;
  if (reader_open(r) < 0) {
    return NULL;
  }
  r->has_last = 0;
  cbor_fast_status st = cbor_reader_skip(r->rd);
  if (st == CBOR_FAST_OK) {
    Py_RETURN_TRUE;
  }
  if (st == CBOR_FAST_END || st == CBOR_FAST_ERR_INVALID_STATE) {
    Py_RETURN_FALSE;
  }
  return reader_error(r);
}

static PyObject* reader_skip_to_end(PyObject* self, PyObject* unused) {
  (void)unused;
  reader_obj* r = (reader_obj*)self;
  if (reader_open(r) < 0) {
    return NULL;
  }
  r->has_last = 0;
  cbor_fast_status st = cbor_reader_skip_to_end(r->rd);
  if (st == CBOR_FAST_OK) {
    Py_RETURN_NONE;
  }
  if (st == CBOR_FAST_ERR_INVALID_STATE) {
    PyErr_SetString(PyExc_ValueError, "skip_to_end: no open container");
    return NULL;
  }
  return reader_error(r);
}

static PyObject* reader_join(PyObject* self, PyObject* unused) {
  (void)unused;
  reader_obj* r = (reader_obj*)self;
  if (reader_open(r) < 0) {
    return NULL;
  }
  int is_string = r->has_last &&
                  (r->last.type == CBOR_FAST_TYPE_BYTES || r->last.type == CBOR_FAST_TYPE_TEXT);
  if (!is_string) {
    PyErr_SetString(PyExc_ValueError, "join: the last item is not the start of a string");
    return NULL;
  }
  if (!(r->last.flags & CBOR_FAST_ITEM_INDEFINITE)) {
    return view_of(r, r->last.data, r->last.size);
  }
  const uint8_t* data = NULL;
  size_t size = 0;
  cbor_fast_status st = cbor_reader_join(r->rd, &r->last, &data, &size);
  if (st == CBOR_FAST_ERR_INVALID_STATE) {
    PyErr_SetString(PyExc_ValueError, "join: the last item is not the start of a string");
    return NULL;
  }
  if (st == CBOR_FAST_ERR_OUT_OF_MEMORY) {
    return PyErr_NoMemory();
  }
  if (st != CBOR_FAST_OK) {
    return reader_error(r);
  }
  r->has_last = 0;
  return PyBytes_FromStringAndSize((const char*)data, (Py_ssize_t)size);
}

static PyObject* reader_finish(PyObject* self, PyObject* unused) {
  (void)unused;
  reader_obj* r = (reader_obj*)self;
  if (reader_open(r) < 0) {
    return NULL;
  }
  cbor_fast_status st = cbor_reader_finish(r->rd);
  if (st == CBOR_FAST_OK) {
    Py_RETURN_NONE;
  }
  if (st == CBOR_FAST_ERR_INVALID_STATE) {
    PyErr_SetString(PyExc_ValueError, "finish: a container is still open");
    return NULL;
  }
  if (cbor_reader_error(r->rd, NULL) == CBOR_FAST_OK) {
    size_t off = cbor_reader_offset(r->rd);
    PyObject* exc = PyObject_CallFunction(cf_state.decode_error, "in", (int)st, (Py_ssize_t)off);
    if (exc != NULL) {
      PyObject* o = PyLong_FromSize_t(off);
      if (o != NULL) {
        PyObject_SetAttrString(exc, "item_offset", o);
        Py_DECREF(o);
      }
      PyObject* z = PyLong_FromLong(0);
      if (z != NULL) {
        PyObject_SetAttrString(exc, "depth", z);
        Py_DECREF(z);
      }
      PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
      Py_DECREF(exc);
    }
    return NULL;
  }
  return reader_error(r);
}

static PyObject* reader_close(PyObject* self, PyObject* unused) {
  (void)unused;
  reader_close_handle((reader_obj*)self);
  Py_RETURN_NONE;
}

static PyObject* reader_enter(PyObject* self, PyObject* unused) {
  (void)unused;
  Py_INCREF(self);
  return self;
}

static PyObject* reader_exit(PyObject* self, PyObject* args) {
  (void)args;
  reader_close_handle((reader_obj*)self);
  Py_RETURN_NONE;
}

static PyObject* reader_get_offset(PyObject* self, void* closure) {
  (void)closure;
  reader_obj* r = (reader_obj*)self;
  if (reader_open(r) < 0) {
    return NULL;
  }
  return PyLong_FromSize_t(cbor_reader_offset(r->rd));
}

static PyObject* reader_get_depth(PyObject* self, void* closure) {
  (void)closure;
  reader_obj* r = (reader_obj*)self;
  if (reader_open(r) < 0) {
    return NULL;
  }
  return PyLong_FromUnsignedLong(cbor_reader_depth(r->rd));
}

static PyMethodDef reader_methods[] = {
    {"skip", reader_skip, METH_NOARGS,
     "skip($self, /)\n--\n\nPasses over the next complete item; False if there is none."},
    {"skip_to_end", reader_skip_to_end, METH_NOARGS,
     "skip_to_end($self, /)\n--\n\n"
     "Passes over the rest of the innermost open container, tag or indefinite string."},
    {"join", reader_join, METH_NOARGS,
     "join($self, /)\n--\n\n"
     "The whole content of the string item just returned (a view, or bytes if indefinite)."},
    {"finish", reader_finish, METH_NOARGS,
     "finish($self, /)\n--\n\nChecks that all input was read at the top level."},
    {"close", reader_close, METH_NOARGS,
     "close($self, /)\n--\n\nFrees the library reader; views stay valid."},
    {"__enter__", reader_enter, METH_NOARGS, "__enter__($self, /)\n--\n\n"},
    {"__exit__", reader_exit, METH_VARARGS, "__exit__($self, *exc_info)\n--\n\n"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef reader_getset[] = {
    {"offset", reader_get_offset, NULL, "Offset of the next byte to read.", NULL},
    {"depth", reader_get_depth, NULL, "Current nesting depth (0 at the top level).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject reader_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cbor_fast.Reader",
    .tp_basicsize = sizeof(reader_obj),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Reader(data, " CF_DECODE_OPTIONS_SIG ")\n--\n\n"
              "Pull reader over a CBOR sequence, yielding Item tuples.",
    .tp_new = reader_new,
    .tp_dealloc = reader_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = reader_next,
    .tp_methods = reader_methods,
    .tp_getset = reader_getset,
};

/* ---- module -------------------------------------------------------------------------- */

/* The extension's state is process-wide (the value classes _setup() hands it,
 * the key cache, the kept decoder): it serves the main interpreter alone. A
 * subinterpreter importing it would replace the classes the main
 * interpreter's calls use with its own, which die with it. So the import
 * fails there: in PyInit__ext() when a subinterpreter loads the module first,
 * and in _setup() when it gets a copy of the main interpreter's module (a
 * single-phase module is initialised once per process). 0, or -1 with
 * ImportError set. */
static int cf_require_main_interpreter(void) {
  if (PyInterpreterState_Get() == PyInterpreterState_Main()) {
    return 0;
  }
  PyErr_SetString(PyExc_ImportError,
                  "cbor_fast cannot be imported in a subinterpreter: its state is the "
                  "process's, kept for the main interpreter");
  return -1;
}

static PyObject* py_setup(PyObject* self, PyObject* args, PyObject* kwargs) {
  (void)self;
  static const char* kwlist[] = {"tag_type",          "simple_type",       "undefined",
                                 "frozendict",        "decode_error",      "encode_error",
                                 "encode_type_error", "encode_value_error", "semantic_decode",
                                 "special_encode",    "written",           "item_type",
                                 "semantic_tags",     NULL};
  cf_globals g;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "$OOOOOOOOOOOOO:_setup", (char**)kwlist,
                                   &g.tag_type, &g.simple_type, &g.undefined, &g.frozendict,
                                   &g.decode_error, &g.encode_error, &g.encode_type_error,
                                   &g.encode_value_error, &g.semantic_decode, &g.special_encode,
                                   &g.written, &g.item_type, &g.semantic_tags)) {
    return NULL;
  }
  if (cf_require_main_interpreter() < 0) {
    return NULL;
  }
  PyObject** fields[] = {&g.tag_type,        &g.simple_type,       &g.undefined,
                         &g.frozendict,      &g.decode_error,      &g.encode_error,
                         &g.encode_type_error, &g.encode_value_error, &g.semantic_decode,
                         &g.special_encode,  &g.written,           &g.item_type,
                         &g.semantic_tags};
  PyObject** targets[] = {&cf_state.tag_type,        &cf_state.simple_type,
                          &cf_state.undefined,       &cf_state.frozendict,
                          &cf_state.decode_error,    &cf_state.encode_error,
                          &cf_state.encode_type_error, &cf_state.encode_value_error,
                          &cf_state.semantic_decode, &cf_state.special_encode,
                          &cf_state.written,         &cf_state.item_type,
                          &cf_state.semantic_tags};
  for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); ++i) {
    Py_INCREF(*fields[i]);
    Py_XSETREF(*targets[i], *fields[i]);
  }
  Py_RETURN_NONE;
}

static PyObject* py_status_name(PyObject* self, PyObject* arg) {
  (void)self;
  long code = PyLong_AsLong(arg);
  if (code == -1 && PyErr_Occurred()) {
    return NULL;
  }
  return PyUnicode_FromString(cbor_status_name((cbor_fast_status)code));
}

static PyObject* py_status_string(PyObject* self, PyObject* arg) {
  (void)self;
  long code = PyLong_AsLong(arg);
  if (code == -1 && PyErr_Occurred()) {
    return NULL;
  }
  return PyUnicode_FromString(cbor_status_string((cbor_fast_status)code));
}

static PyObject* py_clear_key_cache(PyObject* self, PyObject* unused) {
  (void)self;
  (void)unused;
  cf_key_cache_clear();
  Py_RETURN_NONE;
}

static PyObject* py_key_cache_stats(PyObject* self, PyObject* unused) {
  (void)self;
  (void)unused;
  return cf_key_cache_stats();
}

static PyObject* py_key_cache_slots(PyObject* self, PyObject* arg) {
  (void)self;
  if (!PyBytes_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "_key_cache_slots: bytes expected");
    return NULL;
  }
  return cf_key_cache_slots((const uint8_t*)PyBytes_AS_STRING(arg), (size_t)PyBytes_GET_SIZE(arg));
}

static PyMethodDef module_methods[] = {
    {"loads", (PyCFunction)(void (*)(void))py_loads, METH_VARARGS | METH_KEYWORDS,
     "loads($module, data, " CF_DECODE_OPTIONS_SIG ")\n--\n\n"
     "Exactly one CBOR data item from a bytes-like object."},
    {"_load_in_place", (PyCFunction)(void (*)(void))py_load_in_place, METH_VARARGS | METH_KEYWORDS,
     "_load_in_place(fp, **options): load() from an io.BytesIO (NotImplemented: use a file's path)."},
    {"_decode_first", (PyCFunction)(void (*)(void))py_decode_first, METH_VARARGS | METH_KEYWORDS,
     "_decode_first(data, **options) -> (value, end): the first item and where it ends."},
    {"iter_sequence", (PyCFunction)(void (*)(void))py_iter_sequence, METH_VARARGS | METH_KEYWORDS,
     "iter_sequence($module, data, " CF_DECODE_OPTIONS_SIG ")\n--\n\n"
     "An iterator over the items of a CBOR sequence."},
    {"loads_array", (PyCFunction)(void (*)(void))cf_loads_array, METH_VARARGS | METH_KEYWORDS,
     "loads_array($module, data, typecode='d')\n--\n\n"
     "One CBOR array of numbers (or an RFC 8746 typed array) read into an array.array\n"
     "('d', 'q' or 'Q') in one library call."},
    {"dumps", (PyCFunction)(void (*)(void))cf_dumps, METH_FASTCALL | METH_KEYWORDS,
     "dumps($module, obj, /, " CF_ENCODE_OPTIONS_SIG ")\n--\n\n"
     "obj encoded as CBOR bytes."},
    {"_setup", (PyCFunction)(void (*)(void))py_setup, METH_VARARGS | METH_KEYWORDS, NULL},
    {"_build_set", cf_build_set, METH_VARARGS,
     "_build_set(values, frozen): set or frozenset of a list or tuple, at most "
     "MAX_KEYS_PER_HASH members sharing a hash (tag 258)."},
    {"status_name", py_status_name, METH_O,
     "status_name($module, code, /)\n--\n\nThe library's name of a status code."},
    {"status_string", py_status_string, METH_O,
     "status_string($module, code, /)\n--\n\nThe library's description of a status code."},
    {"_clear_key_cache", py_clear_key_cache, METH_NOARGS,
     "Empties the map-key cache and zeroes its counters."},
    {"_key_cache_stats", py_key_cache_stats, METH_NOARGS,
     "The map-key cache's counters since the last clear (for the tests)."},
    {"_key_cache_slots", py_key_cache_slots, METH_O,
     "(way 0, way 1) slots of a key given as bytes; None if never cached (for the tests)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_ext",
                                        "The compiled core of cbor_fast.", -1, module_methods,
                                        NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__ext(void) {
  if (cf_require_main_interpreter() < 0) {
    return NULL;
  }
  if (PyType_Ready(&seq_iter_type) < 0 || PyType_Ready(&reader_type) < 0 ||
      PyType_Ready(&cf_encoder_type) < 0 || PyType_Ready(&cf_stream_decoder_type) < 0) {
    return NULL;
  }
  if (cf_state.unset == NULL &&
      (cf_state.unset = PyObject_CallNoArgs((PyObject*)&PyBaseObject_Type)) == NULL) {
    return NULL;
  }
  PyObject* m = PyModule_Create(&module_def);
  if (m == NULL) {
    return NULL;
  }
  Py_INCREF(&reader_type);
  Py_INCREF(&cf_encoder_type);
  Py_INCREF(&cf_stream_decoder_type);
  if (PyModule_AddObject(m, "Reader", (PyObject*)&reader_type) < 0 ||
      PyModule_AddObject(m, "StreamDecoder", (PyObject*)&cf_stream_decoder_type) < 0 ||
      PyModule_AddObject(m, "CBOREncoder", (PyObject*)&cf_encoder_type) < 0 ||
      PyModule_AddStringConstant(m, "library_version", cbor_fast_version_string()) < 0 ||
      PyModule_AddObject(m, "DEFAULT_MAX_CONTAINER_ITEMS",
                         PyLong_FromUnsignedLongLong(CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS)) < 0 ||
      PyModule_AddObject(m, "DEFAULT_MAX_ITEMS",
                         PyLong_FromUnsignedLongLong(CBOR_FAST_DEFAULT_MAX_ITEMS)) < 0 ||
      PyModule_AddIntConstant(m, "MAX_KEYS_PER_HASH", CF_MAX_KEYS_PER_HASH) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
