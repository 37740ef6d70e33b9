/*
 * cbor_fast._ext: encoding through the library's cbor_writer, on an explicit
 * stack (no C recursion at any nesting depth). Types the C loop does not know
 * (datetime, Decimal, sets, ...) go to the Python half (_semantic.encode),
 * which returns a replacement (usually a CBORTag) or calls `default`.
 */
#include "_ext.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "structmember.h"

/* ---- a set of pointers: the containers being encoded (cycle check) ------------- */
typedef struct {
  void** slots; /* NULL: empty; TOMB: deleted */
  size_t capacity, used;
} ptrset;
#define TOMB ((void*)1)

static size_t ptr_hash(const void* p, size_t mask) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x & mask;
}

static int ptrset_grow(ptrset* s) {
  size_t cap = s->capacity ? s->capacity * 2 : 64;
  void** slots = (void**)PyMem_Calloc(cap, sizeof(void*));
  if (slots == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  size_t used = 0;
  for (size_t i = 0; i < s->capacity; ++i) {
    void* p = s->slots[i];
    if (p != NULL && p != TOMB) {
      size_t j = ptr_hash(p, cap - 1);
      while (slots[j] != NULL) {
        j = (j + 1) & (cap - 1);
      }
      slots[j] = p;
      used++;
    }
  }
  PyMem_Free(s->slots);
  s->slots = slots;
  s->capacity = cap;
  s->used = used;
  return 0;
}

/* 1: inserted, 0: already there, -1: no memory. */
static CF_ALWAYS_INLINE int ptrset_add(ptrset* s, void* p) {
  if ((s->used + 1) * 2 > s->capacity && ptrset_grow(s) < 0) {
    return -1;
  }
  size_t mask = s->capacity - 1;
  size_t j = ptr_hash(p, mask);
  size_t tomb = (size_t)-1;
  while (s->slots[j] != NULL) {
    if (s->slots[j] == p) {
      return 0;
    }
    if (s->slots[j] == TOMB && tomb == (size_t)-1) {
      tomb = j;
    }
    j = (j + 1) & mask;
  }
  if (tomb != (size_t)-1) {
    s->slots[tomb] = p;
  } else {
    s->slots[j] = p;
    s->used++;
  }
  return 1;
}

static void ptrset_remove(ptrset* s, void* p) {
  if (s->capacity == 0) {
    return;
  }
  size_t mask = s->capacity - 1;
  size_t j = ptr_hash(p, mask);
  while (s->slots[j] != NULL) {
    if (s->slots[j] == p) {
      s->slots[j] = TOMB;
      return;
    }
    j = (j + 1) & mask;
  }
}

/* ---- the encoder object --------------------------------------------------------- */
typedef struct {
  PyObject_HEAD
  PyObject* fp;
  PyObject* timezone;
  PyObject* default_;
  int datetime_as_timestamp;
  int value_sharing;
  int canonical;
  int date_as_datetime;
  int string_referencing;
  int indefinite_containers;
  int typed_arrays; /* array.array and memoryviews of numbers as RFC 8746 typed arrays */
  cbor_writer* w;  /* the writer of the dumps() call in progress, else NULL */
  /* Encodes in progress on this encoder (nested ones from `default`
   * included) and the thread running them: another thread's encode, or
   * __init__ during one, is refused (they wrote into a writer the first
   * call then freed, or switched value sharing on without its table). */
  int active;
  unsigned long owner;
  PyObject* shared; /* value sharing: id -> index */
  PyObject* keep;   /* value sharing: the shared objects, kept alive */
  ptrset onstack;
} cf_encoder;

int cf_writer_failed(cbor_fast_status st) {
  if (st == CBOR_FAST_ERR_OUT_OF_MEMORY) {
    PyErr_NoMemory();
    return -1;
  }
  PyObject* exc = PyObject_CallFunction(cf_state.encode_error, "s", cbor_status_string(st));
  if (exc != NULL) {
    PyObject* name = PyUnicode_FromString(cbor_status_name(st));
    if (name != NULL) {
      PyObject_SetAttrString(exc, "status", name);
      Py_DECREF(name);
    }
    PyErr_SetObject(cf_state.encode_error, exc);
    Py_DECREF(exc);
  }
  return -1;
}

cbor_fast_status cf_write_double(cbor_writer* w, double v) {
  return isnan(v) ? cbor_writer_float16(w, 0x7e00) : cbor_writer_float(w, v, CBOR_FAST_FLOAT_SHORTEST);
}

#define WRITE(call)                        \
  do {                                     \
    cbor_fast_status st_ = (call);         \
    if (st_ != CBOR_FAST_OK) {             \
      return cf_writer_failed(st_);           \
    }                                      \
  } while (0)

/* int's own bit_length and to_bytes, not the object's: an int subclass may
 * override them (a to_bytes returning a list or a str was read as bytes: a
 * crash, or the object's memory written out). */
static int write_bignum(cbor_writer* w, PyObject* magnitude, int negative) {
  PyObject* bits = PyObject_CallMethod((PyObject*)&PyLong_Type, "bit_length", "O", magnitude);
  if (bits == NULL) {
    return -1;
  }
  Py_ssize_t nbits = PyLong_AsSsize_t(bits);
  Py_DECREF(bits);
  if (nbits < 0) {
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_SystemError, "int.bit_length() returned a negative count");
    }
    return -1;
  }
  PyObject* b = PyObject_CallMethod((PyObject*)&PyLong_Type, "to_bytes", "Ons", magnitude,
                                    (nbits + 7) / 8, "big");
  if (b == NULL) {
    return -1;
  }
  if (!PyBytes_Check(b)) {
    Py_DECREF(b);
    PyErr_SetString(PyExc_SystemError, "int.to_bytes() did not return bytes");
    return -1;
  }
  cbor_fast_status st = cbor_writer_bignum(w, (const uint8_t*)PyBytes_AS_STRING(b),
                                           (size_t)PyBytes_GET_SIZE(b), negative);
  Py_DECREF(b);
  if (st != CBOR_FAST_OK) {
    return cf_writer_failed(st);
  }
  return 0;
}

static int write_int(cbor_writer* w, PyObject* o) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow == 0) {
    if (v == -1 && PyErr_Occurred()) {
      return -1;
    }
    WRITE(cbor_writer_int(w, v));
    return 0;
  }
  PyObject* magnitude;
  int negative = overflow < 0;
  if (negative) {
    /* -1 - o by int's own ~ (a subclass's __invert__ may return anything) */
    magnitude = PyLong_Type.tp_as_number->nb_invert(o);
  } else {
    magnitude = o;
    Py_INCREF(magnitude);
  }
  if (magnitude == NULL) {
    return -1;
  }
  unsigned long long u = PyLong_AsUnsignedLongLong(magnitude);
  int rc;
  if (u == (unsigned long long)-1 && PyErr_Occurred()) {
    PyErr_Clear();
    rc = write_bignum(w, magnitude, negative);
  } else {
    cbor_fast_status st = negative ? cbor_writer_negative(w, u) : cbor_writer_uint(w, u);
    rc = st == CBOR_FAST_OK ? 0 : cf_writer_failed(st);
  }
  Py_DECREF(magnitude);
  return rc;
}

static int write_text(cbor_writer* w, PyObject* s) {
  Py_ssize_t n;
  const char* utf8 = PyUnicode_AsUTF8AndSize(s, &n);
  if (utf8 == NULL) {
    /* lone surrogates: never write a text string that is not UTF-8 */
    if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
      PyObject* cause = cf_take_exception();
      PyErr_SetString(cf_state.encode_value_error,
                      "cannot encode a str that is not valid Unicode (lone surrogate) as UTF-8");
      cf_chain_cause(cause);
    }
    return -1;
  }
  WRITE(cbor_writer_text(w, utf8, (size_t)n));
  return 0;
}

/* ---- the loop ------------------------------------------------------------------- */
enum { E_SEQ = 1, E_DICT, E_SORTED };

/* Frames from converted objects open at once, at most: a Sequence whose
 * items are new Sequences of its kind for ever is never a cycle, only
 * without end (plain lists and dicts nest as deep as they are). */
#define CF_MAX_CONVERTED_NESTING 100000
static _Thread_local size_t cf_converted_open;

typedef struct {
  PyObject* obj;      /* the list, tuple or dict (owned) */
  PyObject* pending;  /* E_DICT: the value of the key just given (owned) */
  PyObject** sorted;  /* E_SORTED: key, value, key, value ... (owned refs) */
  Py_ssize_t pos, n;
  /* The object the semantic encoder turned into obj (a Mapping into a dict,
   * a Sequence into a list), owned and in the cycle set while obj is open:
   * each conversion makes a new container, so a UserDict holding itself
   * was never seen twice and encoded without end. */
  PyObject* source;
  uint8_t kind;
  uint8_t tracked;    /* in the cycle set */
  uint8_t raw_keys;   /* E_SORTED: the keys are their encodings (bytes) */
} eframe;

typedef struct {
  eframe* frames;
  size_t depth, capacity;
} estack;

static void frame_clear(cf_encoder* e, eframe* f) {
  if (f->tracked) {
    ptrset_remove(&e->onstack, f->obj);
  }
  if (f->source != NULL) {
    ptrset_remove(&e->onstack, f->source);
    Py_CLEAR(f->source);
    --cf_converted_open;
  }
  Py_CLEAR(f->pending);
  if (f->sorted != NULL) {
    for (Py_ssize_t i = 0; i < 2 * f->n; ++i) {
      Py_XDECREF(f->sorted[i]);
    }
    PyMem_Free(f->sorted);
    f->sorted = NULL;
  }
  Py_CLEAR(f->obj);
}

static eframe* epush(estack* s) {
  if (s->depth == s->capacity) {
    size_t cap = s->capacity ? s->capacity * 2 : 16;
    eframe* frames = (eframe*)PyMem_Realloc(s->frames, cap * sizeof(eframe));
    if (frames == NULL) {
      PyErr_NoMemory();
      return NULL;
    }
    s->frames = frames;
    s->capacity = cap;
  }
  eframe* f = &s->frames[s->depth++];
  memset(f, 0, sizeof(*f));
  return f;
}

static int encode(cf_encoder* e, cbor_writer* w, PyObject* root);

typedef struct {
  PyObject* bytes; /* the key's canonical encoding */
  PyObject* key;
  PyObject* value;
} sort_entry;

/* RFC 7049 canonical order, as cbor2's canonical mode: shorter encodings
 * first, then bytewise. */
static int compare_entries(const void* a, const void* b) {
  PyObject* x = ((const sort_entry*)a)->bytes;
  PyObject* y = ((const sort_entry*)b)->bytes;
  Py_ssize_t nx = PyBytes_GET_SIZE(x), ny = PyBytes_GET_SIZE(y);
  if (nx != ny) {
    return nx < ny ? -1 : 1;
  }
  return memcmp(PyBytes_AS_STRING(x), PyBytes_AS_STRING(y), (size_t)nx);
}

/* The encoding loop keeps its own stack, but `default` can call
 * encoder.encode() (or dumps()) again, each call a few C frames and the
 * interpreter's under it (about 1.2 KB a level measured on x86-64 Linux),
 * and canonical encoding encodes each map key apart to sort it, so a
 * mapping inside a key inside a key ... is a C call per level: nested
 * further than this it is an error, not a stack overflow (with the
 * recursion limit raised, 8000 levels overflowed an 8 MiB stack; keys in
 * keys 30,000 deep did without it). Counted per thread: other threads'
 * encodes interleave with this one's hooks. */
#define CF_MAX_ENCODE_NESTING 500
static _Thread_local unsigned cf_encode_nesting;

/* A thread's stack may be far smaller than 500 such levels need (128 KiB
 * from threading.stack_size(), or musl's default: keys in keys overflowed
 * it near 400 levels), so on Linux a nested encode also needs this much of
 * the thread's stack left, or it is the same error. */
#define CF_MIN_STACK_LEFT (64 * 1024)

static int enter_nested_encode(void) {
  if (cf_encode_nesting >= CF_MAX_ENCODE_NESTING) {
    PyErr_Format(cf_state.encode_value_error,
                 "maximum encoding depth (%d) exceeded: encode() or dumps() called inside "
                 "default, or canonical map keys holding maps, nested too deep",
                 CF_MAX_ENCODE_NESTING);
    return -1;
  }
  if (cf_stack_left() < CF_MIN_STACK_LEFT) {
    PyErr_Format(cf_state.encode_value_error,
                 "encoding depth exceeded: less than %d KiB of this thread's stack left; "
                 "encode() or dumps() called inside default, or canonical map keys holding "
                 "maps, nested too deep",
                 CF_MIN_STACK_LEFT / 1024);
    return -1;
  }
  ++cf_encode_nesting;
  return 0;
}

/* Leaves a nested encode; the outermost one turns a RecursionError (Python
 * frames of `default` hooks calling encode() ran out before the 500 levels
 * above: about 330 with the default recursion limit) into the encoder's own
 * error, chained to it. */
static void leave_nested_encode(int failed) {
  --cf_encode_nesting;
  if (failed && cf_encode_nesting == 0 && PyErr_ExceptionMatches(PyExc_RecursionError)) {
    PyObject* cause = cf_take_exception();
    PyErr_SetString(cf_state.encode_value_error,
                    "maximum recursion depth exceeded while encoding: encode() or dumps() "
                    "called inside default, nested too deep");
    cf_chain_cause(cause);
  }
}

/* Key/value pairs of dict `d` in canonical order, as 2 * n owned refs. With
 * raw_keys each key is given as its encoding (a bytes object), written as it
 * is: encoding it again would cost twice per level of keys nested in keys,
 * 2^depth in all. The pairs are taken first, then the keys encoded: encoding
 * a key may run a default hook, which may change the dict (the pairs are
 * those it had here, as cbor2 writes them; iterating on over the changed
 * dict lost or repeated entries, silently). */
static PyObject** sorted_items(cf_encoder* e, PyObject* d, Py_ssize_t* count, int raw_keys) {
  Py_ssize_t n = PyDict_GET_SIZE(d);
  sort_entry* entries = (sort_entry*)PyMem_Calloc((size_t)(n ? n : 1), sizeof(sort_entry));
  PyObject** out = (PyObject**)PyMem_Calloc((size_t)(n ? 2 * n : 1), sizeof(PyObject*));
  cbor_writer* scratch = NULL;
  Py_ssize_t filled = 0;
  if (entries == NULL || out == NULL) {
    PyErr_NoMemory();
    goto fail;
  }
  if (cbor_writer_new(NULL, &scratch) != CBOR_FAST_OK) {
    PyErr_NoMemory();
    goto fail;
  }
  {
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (filled < n && PyDict_Next(d, &pos, &k, &v)) { /* no Python code runs here */
      Py_INCREF(k);
      Py_INCREF(v);
      entries[filled].key = k;
      entries[filled].value = v;
      filled++;
    }
    int sharing = e->value_sharing;
    e->value_sharing = 0; /* the sort keys must not register shared values */
    for (Py_ssize_t i = 0; i < filled; ++i) {
      k = entries[i].key;
      const uint8_t* data = NULL;
      size_t size = 0;
      cbor_fast_status st;
      /* keys holding maps recurse here, one call per level: bounded */
      int rc = enter_nested_encode();
      if (rc == 0) {
        rc = encode(e, scratch, k);
        leave_nested_encode(rc < 0);
      }
      if (rc < 0) {
        e->value_sharing = sharing;
        goto fail;
      }
      if ((st = cbor_writer_finish(scratch, &data, &size)) != CBOR_FAST_OK) {
        e->value_sharing = sharing;
        cf_writer_failed(st);
        goto fail;
      }
      entries[i].bytes = PyBytes_FromStringAndSize((const char*)data, (Py_ssize_t)size);
      cbor_writer_reset(scratch);
      if (entries[i].bytes == NULL) {
        e->value_sharing = sharing;
        goto fail;
      }
    }
    e->value_sharing = sharing;
  }
  qsort(entries, (size_t)filled, sizeof(sort_entry), compare_entries);
  for (Py_ssize_t i = 0; i < filled; ++i) {
    if (raw_keys) {
      out[2 * i] = entries[i].bytes;
      Py_DECREF(entries[i].key);
    } else {
      out[2 * i] = entries[i].key;
      Py_DECREF(entries[i].bytes);
    }
    out[2 * i + 1] = entries[i].value;
  }
  cbor_writer_free(scratch);
  PyMem_Free(entries);
  *count = filled;
  return out;
fail:
  if (entries != NULL) {
    for (Py_ssize_t i = 0; i < filled; ++i) {
      Py_XDECREF(entries[i].bytes);
      Py_XDECREF(entries[i].key);
      Py_XDECREF(entries[i].value);
    }
  }
  cbor_writer_free(scratch);
  PyMem_Free(entries);
  PyMem_Free(out);
  return NULL;
}

/* Value sharing: 1 when `o` was written before and a reference (tag 29) was
 * written instead, 0 when it is new (tag 28 written), -1 on error. */
static int share(cf_encoder* e, cbor_writer* w, PyObject* o) {
  PyObject* id = PyLong_FromVoidPtr(o);
  if (id == NULL) {
    return -1;
  }
  PyObject* index = PyDict_GetItemWithError(e->shared, id);
  if (index != NULL) {
    Py_DECREF(id);
    cbor_fast_status st = cbor_writer_tag(w, 29);
    if (st == CBOR_FAST_OK) {
      st = cbor_writer_uint(w, (uint64_t)PyLong_AsSize_t(index));
    }
    return st == CBOR_FAST_OK ? 1 : cf_writer_failed(st);
  }
  if (PyErr_Occurred()) {
    Py_DECREF(id);
    return -1;
  }
  index = PyLong_FromSsize_t(PyList_GET_SIZE(e->keep));
  int rc = index == NULL ? -1 : PyDict_SetItem(e->shared, id, index);
  Py_XDECREF(index);
  Py_DECREF(id);
  if (rc < 0 || PyList_Append(e->keep, o) < 0) {
    return -1;
  }
  WRITE(cbor_writer_tag(w, 28));
  return 0;
}

/* Gives the frame just opened the object the semantic encoder replaced by
 * its container (`source`, taken), in the cycle set while the frame is open:
 * meeting it again inside is a cycle. */
static CF_NOINLINE int adopt_source(cf_encoder* e, eframe* f, PyObject* source) {
  if (cf_converted_open >= CF_MAX_CONVERTED_NESTING) {
    Py_DECREF(source);
    PyErr_Format(cf_state.encode_value_error,
                 "mappings or sequences converted for encoding nested deeper than %d",
                 CF_MAX_CONVERTED_NESTING);
    return -1;
  }
  int added = ptrset_add(&e->onstack, source);
  if (added <= 0) {
    Py_DECREF(source);
    if (added == 0) {
      PyErr_SetString(cf_state.encode_value_error,
                      "cyclic data structure detected: a mapping or sequence converted for "
                      "encoding holds itself");
    }
    return -1;
  }
  f->source = source;
  ++cf_converted_open;
  return 0;
}

/* Opens container `o` (owned, passed on to the frame). */
static int open_container(cf_encoder* e, cbor_writer* w, estack* s, PyObject* o, int kind) {
  /* Only lists and dicts are shared: a tuple may be a map key, where the
   * decoder refuses references (hashing a referenced value could recurse
   * without bound); cycles always pass through a list or a dict. */
  if (e->value_sharing && (PyList_Check(o) || PyDict_Check(o))) {
    int rc = share(e, w, o);
    if (rc != 0) {
      Py_DECREF(o);
      return rc < 0 ? -1 : 0;
    }
  }
  int added = ptrset_add(&e->onstack, o);
  if (added <= 0) {
    Py_DECREF(o);
    if (added == 0) {
      PyErr_SetString(cf_state.encode_value_error,
                      e->value_sharing
                          ? "cyclic data structure detected through a tuple (tuples are not "
                            "shared: a tuple may be a map key, where references are refused)"
                          : "cyclic data structure detected but value sharing is disabled");
    }
    return -1;
  }
  eframe* f = epush(s);
  if (f == NULL) {
    ptrset_remove(&e->onstack, o);
    Py_DECREF(o);
    return -1;
  }
  f->obj = o;
  f->tracked = 1;
  f->kind = (uint8_t)kind;
  cbor_fast_status st;
  if (kind == E_SEQ) {
    f->n = PySequence_Fast_GET_SIZE(o);
    st = e->indefinite_containers ? cbor_writer_array_indefinite(w)
                                  : cbor_writer_array(w, (uint64_t)f->n);
  } else {
    f->n = PyDict_GET_SIZE(o);
    if (e->canonical) {
      f->kind = E_SORTED;
      /* A key's bytes from the sort are its bytes here too, unless shared
       * values or string references make them depend on what came before. */
      f->raw_keys = (uint8_t)(!e->value_sharing && !e->string_referencing);
      f->sorted = sorted_items(e, o, &f->n, f->raw_keys);
      if (f->sorted == NULL) {
        return -1;
      }
    }
    st = e->indefinite_containers ? cbor_writer_map_indefinite(w)
                                  : cbor_writer_map(w, (uint64_t)f->n);
  }
  if (st != CBOR_FAST_OK) {
    return cf_writer_failed(st);
  }
  return 0;
}

/* True for what encode()'s container branches take (a frame for it). */
static inline int opens_frame(PyObject* o) {
  return PyDict_Check(o) || PyList_Check(o) || PyTuple_Check(o);
}

/* Opens container `o` (owned) for `source` (owned), the object a semantic
 * encoder turned into it or into the tag over it: the frame keeps the
 * source in the cycle set while it is open (each conversion makes a new
 * container, so a UserDict, or a set through its tag, holding itself would
 * otherwise never be seen twice, and encoded without end). Out of line:
 * only converted objects come here. */
static CF_NOINLINE int open_converted(cf_encoder* e, cbor_writer* w, estack* s, PyObject* o,
                                      PyObject* source) {
  size_t depth = s->depth;
  if (open_container(e, w, s, o, PyDict_Check(o) ? E_DICT : E_SEQ) < 0) {
    Py_DECREF(source);
    return -1;
  }
  if (s->depth > depth) {
    return adopt_source(e, &s->frames[s->depth - 1], source);
  }
  Py_DECREF(source); /* written as a reference to a shared value */
  return 0;
}

/* The next child of the top frame (new reference), or NULL with no error
 * when the container is done. */
static PyObject* next_child(eframe* f) {
  PyObject* r;
  switch (f->kind) {
    case E_SEQ:
      if (PySequence_Fast_GET_SIZE(f->obj) != f->n) {
        PyErr_SetString(cf_state.encode_error, "list changed size during encoding");
        return NULL;
      }
      if (f->pos >= f->n) {
        return NULL;
      }
      r = PySequence_Fast_GET_ITEM(f->obj, f->pos);
      f->pos++;
      Py_INCREF(r);
      return r;
    case E_DICT: {
      if (f->pending != NULL) {
        r = f->pending;
        f->pending = NULL;
        return r;
      }
      PyObject *k, *v;
      if (PyDict_GET_SIZE(f->obj) != f->n) {
        PyErr_SetString(cf_state.encode_error, "dict changed size during encoding");
        return NULL;
      }
      if (!PyDict_Next(f->obj, &f->pos, &k, &v)) {
        return NULL;
      }
      Py_INCREF(k);
      Py_INCREF(v);
      f->pending = v;
      return k;
    }
    default: /* E_SORTED */
      if (f->pos >= 2 * f->n) {
        return NULL;
      }
      r = f->sorted[f->pos];
      f->sorted[f->pos] = NULL;
      f->pos++;
      return r;
  }
}

static int tag_number(PyObject* tag, uint64_t* out) {
  PyObject* number = PyObject_GetAttrString(tag, "tag");
  if (number == NULL) {
    return -1;
  }
  unsigned long long n = PyLong_AsUnsignedLongLong(number);
  Py_DECREF(number);
  if (n == (unsigned long long)-1 && PyErr_Occurred()) {
    PyErr_Clear();
    PyErr_SetString(cf_state.encode_value_error, "CBORTag number must be an int in 0 .. 2**64 - 1");
    return -1;
  }
  *out = n;
  return 0;
}

/* Writes the heads of a run of tags (CBORTag or a subclass, each the value
 * of the one before) starting at `cur` (owned) and returns the content after
 * the run (owned), or NULL on an error (`cur` released either way; taking
 * and returning it keeps encode()'s `cur` out of memory). A run that comes
 * back to one of its tags is a cycle, which no container's cycle-set entry
 * would see: Brent's test, O(1) memory. The mark holds a reference (a tag
 * made by a property may be freed, and its address reused). */
static CF_NOINLINE PyObject* write_tag_run(cbor_writer* w, PyObject* cur) {
  PyObject* mark = NULL;
  size_t power = 1, steps = 0;
  /* Contents made as they were read (a `value` property returning a new
   * tag each time): only this run holds them. Never a cycle, only without
   * end: a run of more than CF_MAX_CONVERTED_NESTING of them is an error,
   * as converted containers nested that deep are (it wrote until memory
   * ran out). */
  size_t made = 0;
  do {
    if (cur == mark) {
      PyErr_SetString(cf_state.encode_value_error,
                      "cyclic data structure detected: a CBORTag is its own content");
      goto fail;
    }
    if (mark == NULL || ++steps == power) {
      Py_INCREF(cur);
      Py_XSETREF(mark, cur);
      power *= 2;
      steps = 0;
    }
    uint64_t number;
    if (tag_number(cur, &number) < 0) {
      goto fail;
    }
    PyObject* value = PyObject_GetAttrString(cur, "value");
    Py_SETREF(cur, value);
    if (value == NULL) {
      goto fail;
    }
    if (Py_REFCNT(value) == 1 && ++made > CF_MAX_CONVERTED_NESTING) {
      PyErr_Format(cf_state.encode_value_error,
                   "tags whose content is made as it is read nested deeper than %d",
                   CF_MAX_CONVERTED_NESTING);
      goto fail;
    }
    cbor_fast_status st = cbor_writer_tag(w, number);
    if (st != CBOR_FAST_OK) {
      cf_writer_failed(st);
      goto fail;
    }
  } while (PyObject_TypeCheck(cur, (PyTypeObject*)cf_state.tag_type));
  Py_XDECREF(mark);
  return cur;
fail:
  Py_XDECREF(cur);
  Py_XDECREF(mark);
  return NULL;
}

/* Encodes `root` into `w`. Only Python code called from here (semantic
 * encoders, `default`) can recurse, through Python frames. */
static int encode(cf_encoder* e, cbor_writer* w, PyObject* root) {
  estack s = {NULL, 0, 0};
  PyObject* cur = root;
  int replaced = 0; /* cur came from the semantic encoder: do not ask it again */
  int rc = -1;
  Py_INCREF(cur);
  for (;;) {
    PyTypeObject* t = Py_TYPE(cur);
    if (t == &PyUnicode_Type) {
      if (write_text(w, cur) < 0) {
        goto fail;
      }
      Py_DECREF(cur);
    } else if (t == &PyLong_Type) {
      if (write_int(w, cur) < 0) {
        goto fail;
      }
      Py_DECREF(cur);
    } else if (t == &PyFloat_Type || (t != &PyBool_Type && PyFloat_Check(cur))) {
      double v = PyFloat_AS_DOUBLE(cur);
      cbor_fast_status st = cf_write_double(w, v);
      Py_DECREF(cur);
      cur = NULL;
      if (st != CBOR_FAST_OK) {
        cf_writer_failed(st);
        goto fail;
      }
    } else if (t == &PyDict_Type || PyDict_Check(cur)) {
      PyObject* o = cur;
      cur = NULL;
      if (open_container(e, w, &s, o, E_DICT) < 0) {
        goto fail;
      }
    } else if (t == &PyList_Type || t == &PyTuple_Type || PyList_Check(cur) ||
               PyTuple_Check(cur)) {
      PyObject* o = cur;
      cur = NULL;
      if (open_container(e, w, &s, o, E_SEQ) < 0) {
        goto fail;
      }
    } else if (cur == Py_None) {
      Py_DECREF(cur);
      cur = NULL;
      cbor_fast_status st = cbor_writer_null(w);
      if (st != CBOR_FAST_OK) {
        cf_writer_failed(st);
        goto fail;
      }
    } else if (t == &PyBool_Type) {
      cbor_fast_status st = cbor_writer_bool(w, cur == Py_True);
      Py_DECREF(cur);
      cur = NULL;
      if (st != CBOR_FAST_OK) {
        cf_writer_failed(st);
        goto fail;
      }
    } else if (PyBytes_Check(cur)) {
      cbor_fast_status st = cbor_writer_bytes(w, PyBytes_AS_STRING(cur),
                                              (size_t)PyBytes_GET_SIZE(cur));
      Py_DECREF(cur);
      cur = NULL;
      if (st != CBOR_FAST_OK) {
        cf_writer_failed(st);
        goto fail;
      }
    } else if ((e->typed_arrays && PyMemoryView_Check(cur)) ||
               cf_is_array(cur)) {
      /* array.array: a CBOR array of its numbers (as cbor2), or with
       * typed_arrays an RFC 8746 typed array, as a memoryview of numbers is */
      int written = cf_write_number_buffer(w, cur, e->typed_arrays);
      if (written < 0) {
        goto fail;
      }
      if (written == 0) {
        if (PyMemoryView_Check(cur)) {
          /* not numbers: the bytes, as without typed_arrays */
          Py_buffer view;
          if (PyObject_GetBuffer(cur, &view, PyBUF_SIMPLE) < 0) {
            goto fail;
          }
          cbor_fast_status st = cbor_writer_bytes(w, view.buf, (size_t)view.len);
          PyBuffer_Release(&view);
          if (st != CBOR_FAST_OK) {
            cf_writer_failed(st);
            goto fail;
          }
        } else {
          /* array('u') and the like: as the list of its items */
          PyObject* list = PySequence_List(cur);
          Py_DECREF(cur);
          cur = list;
          if (list == NULL) {
            goto fail;
          }
          continue;
        }
      }
      Py_DECREF(cur);
      cur = NULL;
    } else if (PyByteArray_Check(cur) || PyMemoryView_Check(cur)) {
      Py_buffer view;
      if (PyObject_GetBuffer(cur, &view, PyBUF_SIMPLE) < 0) {
        goto fail;
      }
      cbor_fast_status st = cbor_writer_bytes(w, view.buf, (size_t)view.len);
      PyBuffer_Release(&view);
      Py_DECREF(cur);
      cur = NULL;
      if (st != CBOR_FAST_OK) {
        cf_writer_failed(st);
        goto fail;
      }
    } else if (PyUnicode_Check(cur)) {
      if (write_text(w, cur) < 0) {
        goto fail;
      }
      Py_DECREF(cur);
    } else if (PyLong_Check(cur)) {
      if (write_int(w, cur) < 0) {
        goto fail;
      }
      Py_DECREF(cur);
    } else if ((PyObject*)t == cf_state.tag_type) {
      /* a tag is a prefix of its content: no frame */
      cur = write_tag_run(w, cur);
      if (cur == NULL) {
        goto fail;
      }
      replaced = 0;
      continue;
    } else if (cur == cf_state.undefined) {
      Py_DECREF(cur);
      cur = NULL;
      cbor_fast_status st = cbor_writer_undefined(w);
      if (st != CBOR_FAST_OK) {
        cf_writer_failed(st);
        goto fail;
      }
    } else if ((PyObject*)t == cf_state.simple_type) {
      PyObject* value = PyObject_GetAttrString(cur, "value");
      long v = value ? PyLong_AsLong(value) : -1;
      Py_XDECREF(value);
      if (v == -1 && PyErr_Occurred()) {
        goto fail;
      }
      Py_DECREF(cur);
      cur = NULL;
      cbor_fast_status st = v < 0 || v > 255 ? CBOR_FAST_ERR_INVALID_ARGUMENT
                                             : cbor_writer_simple(w, (uint8_t)v);
      if (st != CBOR_FAST_OK) {
        cf_writer_failed(st);
        goto fail;
      }
    } else if (PyObject_TypeCheck(cur, (PyTypeObject*)cf_state.tag_type)) {
      /* a subclass of CBORTag: its tag and value, as CBORTag's */
      cur = write_tag_run(w, cur);
      if (cur == NULL) {
        goto fail;
      }
      replaced = 0;
      continue;
    } else {
      if (replaced) {
        PyErr_Format(cf_state.encode_type_error, "cannot encode type %R", (PyObject*)t);
        goto fail;
      }
      /* the semantic encoders may call encoder.encode() on this writer */
      cbor_writer* outer = e->w;
      e->w = w;
      PyObject* r = PyObject_CallFunctionObjArgs(cf_state.special_encode, (PyObject*)e, cur, NULL);
      e->w = outer;
      if (r == NULL || r == cf_state.written) {
        Py_DECREF(cur);
        cur = NULL;
        if (r == NULL) {
          goto fail;
        }
        Py_DECREF(r);
      } else if (opens_frame(r)) {
        /* a converted Mapping or Sequence */
        PyObject* source = cur;
        cur = NULL;
        if (open_converted(e, w, &s, r, source) < 0) {
          goto fail;
        }
      } else if ((PyObject*)Py_TYPE(r) == cf_state.tag_type ||
                 PyObject_TypeCheck(r, (PyTypeObject*)cf_state.tag_type)) {
        /* a tag (a set as tag 258 over a new list): its heads here, then a
         * container after them is opened as a converted one; other content
         * goes on as any value */
        PyObject* source = cur;
        cur = write_tag_run(w, r);
        if (cur == NULL) {
          Py_DECREF(source);
          goto fail;
        }
        if (!opens_frame(cur)) {
          Py_DECREF(source);
          replaced = 0;
          continue;
        }
        PyObject* o = cur;
        cur = NULL;
        if (open_converted(e, w, &s, o, source) < 0) {
          goto fail;
        }
      } else {
        Py_DECREF(cur);
        cur = r;
        replaced = 1;
        continue;
      }
    }
    cur = NULL;
    replaced = 0;
    /* the next value to write: the next child of the innermost open container */
    for (;;) {
      if (s.depth == 0) {
        rc = 0;
        goto done;
      }
      eframe* f = &s.frames[s.depth - 1];
      if (f->kind == E_SORTED && f->raw_keys && f->pos < 2 * f->n && f->pos % 2 == 0) {
        PyObject* key = f->sorted[f->pos];
        f->sorted[f->pos] = NULL;
        f->pos++;
        cbor_fast_status st =
            cbor_writer_encoded(w, PyBytes_AS_STRING(key), (size_t)PyBytes_GET_SIZE(key));
        Py_DECREF(key);
        if (st != CBOR_FAST_OK) {
          cf_writer_failed(st);
          goto fail;
        }
        continue;
      }
      cur = next_child(f);
      if (cur != NULL) {
        break;
      }
      if (PyErr_Occurred()) {
        goto fail;
      }
      cbor_fast_status st = cbor_writer_end(w);
      frame_clear(e, f);
      s.depth--;
      if (st != CBOR_FAST_OK) {
        cf_writer_failed(st);
        goto fail;
      }
    }
  }
fail:
  Py_XDECREF(cur);
done:
  while (s.depth > 0) {
    frame_clear(e, &s.frames[--s.depth]);
  }
  PyMem_Free(s.frames);
  return rc;
}

/* ---- the Python face ----------------------------------------------------------------- */

static cbor_writer* writer_cache;

static cbor_writer* take_writer(void) {
  cbor_writer* w = writer_cache;
  writer_cache = NULL;
  if (w == NULL && cbor_writer_new(NULL, &w) != CBOR_FAST_OK) {
    PyErr_NoMemory();
    return NULL;
  }
  return w;
}

static void give_writer(cbor_writer* w) {
  /* keep one writer of modest size for the next call */
  if (writer_cache == NULL && cbor_writer_size(w) <= (1u << 20)) {
    cbor_writer_reset(w);
    writer_cache = w;
  } else {
    cbor_writer_free(w);
  }
}


/* Refuses an encode from another thread than the one running this
 * encoder's encode (RuntimeError); else counts it in. */
static int encoder_enter(cf_encoder* e) {
  unsigned long me = PyThread_get_thread_ident();
  if (e->active > 0 && e->owner != me) {
    PyErr_SetString(PyExc_RuntimeError,
                    "this CBOREncoder is encoding in another thread; use one encoder per thread");
    return -1;
  }
  e->owner = me;
  ++e->active;
  return 0;
}

static void encoder_leave(cf_encoder* e) { --e->active; }

static PyObject* encode_to_bytes_in(cf_encoder* e, PyObject* obj);

static PyObject* encode_to_bytes(cf_encoder* e, PyObject* obj) {
  if (encoder_enter(e) < 0) {
    return NULL;
  }
  PyObject* r = encode_to_bytes_in(e, obj);
  encoder_leave(e);
  return r;
}

static PyObject* encode_to_bytes_in(cf_encoder* e, PyObject* obj) {
  if (enter_nested_encode() < 0) {
    return NULL;
  }
  cbor_writer* w = take_writer();
  if (w == NULL) {
    --cf_encode_nesting;
    return NULL;
  }
  if (e->value_sharing) {
    Py_XSETREF(e->shared, PyDict_New());
    Py_XSETREF(e->keep, PyList_New(0));
    if (e->shared == NULL || e->keep == NULL) {
      give_writer(w);
      --cf_encode_nesting;
      return NULL;
    }
    /* The tables are the encoder's own: untracked, and encoder_traverse()
     * visits what `keep` holds, not the list (gc.get_referents(encoder)
     * handed them out: emptying `keep` let an id be reused and a new object
     * be written as a reference to an old one). `shared` holds ints only. */
    PyObject_GC_UnTrack(e->keep);
  }
  cbor_writer* outer = e->w;
  e->w = w;
  int rc = encode(e, w, obj);
  e->w = outer;
  leave_nested_encode(rc < 0);
  if (e->value_sharing) {
    Py_CLEAR(e->shared);
    Py_CLEAR(e->keep);
  }
  PyObject* r = NULL;
  if (rc == 0) {
    const uint8_t* data = NULL;
    size_t size = 0;
    cbor_fast_status st = cbor_writer_finish(w, &data, &size);
    if (st != CBOR_FAST_OK) {
      cf_writer_failed(st);
    } else {
      r = PyBytes_FromStringAndSize((const char*)data, (Py_ssize_t)size);
    }
  }
  give_writer(w);
  return r;
}

/* After "fp", as in CF_ENCODE_OPTIONS_SIG (_ext.h). */
static const char* encoder_kwlist[] = {"fp",
                                       "datetime_as_timestamp",
                                       "timezone",
                                       "value_sharing",
                                       "default",
                                       "canonical",
                                       "date_as_datetime",
                                       "string_referencing",
                                       "indefinite_containers",
                                       "typed_arrays",
                                       NULL};

static int encoder_configure(cf_encoder* e, PyObject* args, PyObject* kwargs, const char* fmt) {
  PyObject* fp = Py_None;
  PyObject* tz = Py_None;
  PyObject* dflt = Py_None;
  if (e->active > 0) {
    PyErr_SetString(PyExc_RuntimeError, "cannot reinitialise a CBOREncoder while it encodes");
    return -1;
  }
  e->datetime_as_timestamp = e->value_sharing = e->canonical = e->date_as_datetime = 0;
  e->string_referencing = e->indefinite_containers = e->typed_arrays = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, fmt, (char**)encoder_kwlist, &fp,
                                   &e->datetime_as_timestamp, &tz, &e->value_sharing, &dflt,
                                   &e->canonical, &e->date_as_datetime, &e->string_referencing,
                                   &e->indefinite_containers, &e->typed_arrays)) {
    return -1;
  }
  if (e->string_referencing) {
    PyErr_SetString(PyExc_NotImplementedError,
                    "cbor_fast: string_referencing is decoded (tags 256/25) but not encoded");
    return -1;
  }
  if (dflt != Py_None && !PyCallable_Check(dflt)) {
    PyErr_SetString(PyExc_TypeError, "default must be callable or None");
    return -1;
  }
  Py_INCREF(fp);
  Py_XSETREF(e->fp, fp);
  Py_INCREF(tz);
  Py_XSETREF(e->timezone, tz);
  Py_INCREF(dflt);
  Py_XSETREF(e->default_, dflt);
  return 0;
}

static cf_encoder* encoder_alloc(void) {
  cf_encoder* e = PyObject_GC_New(cf_encoder, &cf_encoder_type);
  if (e == NULL) {
    return NULL;
  }
  /* Every option off until set: CBOREncoder.__new__() without __init__()
   * left the option flags as the allocator's bytes (value sharing,
   * canonical and indefinite containers came out on). */
  memset((char*)e + sizeof(PyObject), 0, sizeof(cf_encoder) - sizeof(PyObject));
  e->fp = e->timezone = e->default_ = NULL;
  e->shared = e->keep = NULL;
  e->w = NULL;
  e->active = 0;
  e->owner = 0;
  memset(&e->onstack, 0, sizeof(e->onstack));
  PyObject_GC_Track(e);
  return e;
}

/* dumps(obj, **options) -> bytes */
PyObject* cf_dumps(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  (void)self;
  if (nargs != 1) {
    PyErr_SetString(PyExc_TypeError, "dumps() takes exactly one positional argument");
    return NULL;
  }
  cf_encoder* e = encoder_alloc();
  if (e == NULL) {
    return NULL;
  }
  int rc;
  if (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0) {
    PyObject* empty = PyTuple_New(0);
    rc = empty == NULL ? -1 : encoder_configure(e, empty, NULL, "|O$pOpOppppp:dumps");
    Py_XDECREF(empty);
  } else {
    PyObject* kwargs = PyDict_New();
    PyObject* empty = PyTuple_New(0);
    rc = (kwargs == NULL || empty == NULL) ? -1 : 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PyTuple_GET_SIZE(kwnames); ++i) {
      rc = PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]);
    }
    if (rc == 0 && PyDict_GetItemString(kwargs, "fp") != NULL) {
      PyErr_SetString(PyExc_TypeError, "dumps() got an unexpected keyword argument 'fp'");
      rc = -1;
    }
    if (rc == 0) {
      rc = encoder_configure(e, empty, kwargs, "|O$pOpOppppp:dumps");
    }
    Py_XDECREF(kwargs);
    Py_XDECREF(empty);
  }
  PyObject* r = rc < 0 ? NULL : encode_to_bytes(e, args[0]);
  Py_DECREF(e);
  return r;
}

/* CBOREncoder's fp, as cbor2 checks it (at construction and assignment): an
 * object with a callable write(); ValueError otherwise. */
static int check_fp(PyObject* fp) {
  PyObject* write = PyObject_GetAttrString(fp, "write");
  int ok = write != NULL && PyCallable_Check(write);
  Py_XDECREF(write);
  if (!ok) {
    PyErr_Clear();
    PyErr_SetString(PyExc_ValueError, "fp must be a writable file-like object");
    return -1;
  }
  return 0;
}

static int encoder_init(PyObject* self, PyObject* args, PyObject* kwargs) {
  cf_encoder* e = (cf_encoder*)self;
  if (encoder_configure(e, args, kwargs, "O|$pOpOppppp:CBOREncoder") < 0) {
    return -1;
  }
  return check_fp(e->fp);
}

static PyObject* encoder_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  (void)type;
  (void)args;
  (void)kwargs;
  cf_encoder* e = encoder_alloc();
  if (e != NULL) {
    Py_INCREF(Py_None);
    e->fp = Py_None;
    Py_INCREF(Py_None);
    e->timezone = Py_None;
    Py_INCREF(Py_None);
    e->default_ = Py_None;
  }
  return (PyObject*)e;
}

static int encoder_traverse(PyObject* self, visitproc visit, void* arg) {
  cf_encoder* e = (cf_encoder*)self;
  Py_VISIT(e->fp);
  Py_VISIT(e->timezone);
  Py_VISIT(e->default_);
  if (e->keep != NULL) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(e->keep); ++i) {
      Py_VISIT(PyList_GET_ITEM(e->keep, i));
    }
  }
  return 0;
}

static int encoder_clear(PyObject* self) {
  cf_encoder* e = (cf_encoder*)self;
  Py_CLEAR(e->fp);
  Py_CLEAR(e->timezone);
  Py_CLEAR(e->default_);
  Py_CLEAR(e->shared);
  Py_CLEAR(e->keep);
  return 0;
}

static void encoder_dealloc(PyObject* self) {
  cf_encoder* e = (cf_encoder*)self;
  PyObject_GC_UnTrack(self);
  encoder_clear(self);
  PyMem_Free(e->onstack.slots);
  PyObject_GC_Del(self);
}

/* encoder.encode(obj): inside a dumps() call (from `default`), writes obj
 * there; otherwise encodes obj and writes the bytes to fp. */
static PyObject* encoder_encode(PyObject* self, PyObject* obj) {
  cf_encoder* e = (cf_encoder*)self;
  if (e->w != NULL) {
    if (encoder_enter(e) < 0) {
      return NULL;
    }
    if (enter_nested_encode() < 0) {
      encoder_leave(e);
      return NULL;
    }
    int rc = encode(e, e->w, obj);
    leave_nested_encode(rc < 0);
    encoder_leave(e);
    if (rc < 0) {
      return NULL;
    }
    Py_RETURN_NONE;
  }
  PyObject* b = encode_to_bytes(e, obj);
  if (b == NULL) {
    return NULL;
  }
  PyObject* r = PyObject_CallMethod(e->fp, "write", "O", b);
  Py_DECREF(b);
  if (r == NULL) {
    return NULL;
  }
  Py_DECREF(r);
  Py_RETURN_NONE;
}

static PyObject* encoder_encode_to_bytes(PyObject* self, PyObject* obj) {
  cf_encoder* e = (cf_encoder*)self;
  int sharing = e->value_sharing;
  cbor_writer* outer = e->w;
  PyObject* shared = e->shared;
  PyObject* keep = e->keep;
  e->shared = e->keep = NULL;
  e->w = NULL;
  PyObject* r = encode_to_bytes(e, obj);
  e->w = outer;
  e->value_sharing = sharing;
  Py_XSETREF(e->shared, shared);
  Py_XSETREF(e->keep, keep);
  return r;
}

/* A set member's canonical sort key: its encoding without value sharing, as
 * a dict's keys are sorted (sorted_items). Sets hold no lists or dicts of
 * their own, so sharing changes a member's bytes only by the reference
 * numbers; sorting on bytes that depend on them made nested sets cost 2^depth
 * (each level encoded its members once to sort and again to write). */
static PyObject* encoder_sort_key(PyObject* self, PyObject* obj) {
  cf_encoder* e = (cf_encoder*)self;
  int sharing = e->value_sharing;
  e->value_sharing = 0;
  PyObject* r = encoder_encode_to_bytes(self, obj);
  e->value_sharing = sharing;
  return r;
}

static PyObject* encoder_write(PyObject* self, PyObject* data) {
  cf_encoder* e = (cf_encoder*)self;
  if (e->w == NULL) {
    return PyObject_CallMethod(e->fp, "write", "O", data);
  }
  PyErr_SetString(cf_state.encode_error,
                  "CBOREncoder.write() inside dumps() would write raw bytes; use encode()");
  return NULL;
}

/* Inside a dumps() call (a semantic encoder): writes one item already
 * encoded, as it is (the library checks it is exactly one well-formed item). */
static PyObject* encoder_write_encoded(PyObject* self, PyObject* obj) {
  cf_encoder* e = (cf_encoder*)self;
  if (e->w == NULL) {
    PyErr_SetString(PyExc_ValueError, "_write_encoded() outside an encoding");
    return NULL;
  }
  if (!PyBytes_Check(obj)) {
    PyErr_SetString(PyExc_TypeError, "_write_encoded() takes bytes");
    return NULL;
  }
  cbor_fast_status st =
      cbor_writer_encoded(e->w, PyBytes_AS_STRING(obj), (size_t)PyBytes_GET_SIZE(obj));
  if (st != CBOR_FAST_OK) {
    cf_writer_failed(st);
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyMethodDef encoder_methods[] = {
    {"encode", encoder_encode, METH_O,
     "encode($self, obj, /)\n--\n\nEncodes obj (inside `default`: into the output)."},
    {"encode_to_bytes", encoder_encode_to_bytes, METH_O,
     "encode_to_bytes($self, obj, /)\n--\n\nobj encoded with these options."},
    {"write", encoder_write, METH_O,
     "write($self, buf, /)\n--\n\nWrites bytes to fp (outside a dumps() call)."},
    {"_sort_key", encoder_sort_key, METH_O,
     "_sort_key($self, obj, /)\n--\n\n"
     "A set member's canonical sort key (its encoding without value sharing)."},
    {"_write_encoded", encoder_write_encoded, METH_O,
     "_write_encoded($self, data, /)\n--\n\n"
     "Writes one encoded item as it is (inside a dumps() call)."},
    {NULL, NULL, 0, NULL}};

#define BOOL_GETTER(field)                                           \
  static PyObject* get_##field(PyObject* self, void* closure) {      \
    (void)closure;                                                   \
    return PyBool_FromLong(((cf_encoder*)self)->field);              \
  }
BOOL_GETTER(datetime_as_timestamp)
BOOL_GETTER(value_sharing)
BOOL_GETTER(canonical)
BOOL_GETTER(date_as_datetime)
BOOL_GETTER(string_referencing)
BOOL_GETTER(indefinite_containers)

static PyObject* get_timezone(PyObject* self, void* closure) {
  (void)closure;
  PyObject* r = ((cf_encoder*)self)->timezone;
  Py_INCREF(r);
  return r;
}
static PyObject* get_default(PyObject* self, void* closure) {
  (void)closure;
  PyObject* r = ((cf_encoder*)self)->default_;
  Py_INCREF(r);
  return r;
}
static PyObject* get_fp(PyObject* self, void* closure) {
  (void)closure;
  PyObject* r = ((cf_encoder*)self)->fp;
  Py_INCREF(r);
  return r;
}

static int set_fp(PyObject* self, PyObject* value, void* closure) {
  (void)closure;
  if (value == NULL) {
    PyErr_SetString(PyExc_AttributeError, "cannot delete fp");
    return -1;
  }
  if (check_fp(value) < 0) {
    return -1;
  }
  Py_INCREF(value);
  Py_XSETREF(((cf_encoder*)self)->fp, value);
  return 0;
}

static PyGetSetDef encoder_getset[] = {
    {"datetime_as_timestamp", get_datetime_as_timestamp, NULL, NULL, NULL},
    {"value_sharing", get_value_sharing, NULL, NULL, NULL},
    {"canonical", get_canonical, NULL, NULL, NULL},
    {"date_as_datetime", get_date_as_datetime, NULL, NULL, NULL},
    {"string_referencing", get_string_referencing, NULL, NULL, NULL},
    {"indefinite_containers", get_indefinite_containers, NULL, NULL, NULL},
    {"timezone", get_timezone, NULL, NULL, NULL},
    {"default", get_default, NULL, NULL, NULL},
    {"fp", get_fp, set_fp, "the binary file encode() writes to (a callable write() is required)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject cf_encoder_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cbor_fast.CBOREncoder",
    .tp_basicsize = sizeof(cf_encoder),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "CBOREncoder(fp, " CF_ENCODE_OPTIONS_SIG ")\n--\n\n"
              "Encodes objects to a binary file (cbor2-compatible).",
    .tp_new = encoder_new,
    .tp_init = encoder_init,
    .tp_dealloc = encoder_dealloc,
    .tp_traverse = encoder_traverse,
    .tp_clear = encoder_clear,
    .tp_methods = encoder_methods,
    .tp_getset = encoder_getset,
};
