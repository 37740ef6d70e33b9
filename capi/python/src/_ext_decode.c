/*
 * cbor_fast._ext: decoding. Items come from cbor_reader_next_batch (the one
 * batched C route of the library) and Python objects are built here, in C,
 * on an explicit stack: no C recursion at any nesting depth.
 */
#include "_ext.h"

#include <stddef.h>
#include <string.h>

/* ---- short-key cache --------------------------------------------------------
 * Map keys of up to CF_KEY_CACHE_MAX_LEN ASCII bytes are looked up in a cache
 * of str objects, so the thousand "id" keys of a document are one object
 * (less allocation, and dict lookups by identity with the hash already
 * computed). Guarded by the GIL like every other Python object.
 *
 * Skewed two-way: a key may sit in way 0 at one index of its hash or in way
 * 1 at another (other bits of the same hash), so three keys conflict only
 * when they share both. A miss fills an empty candidate slot, way 0 first;
 * with both taken, it replaces the way-1 entry (way 0 keeps the keys that
 * came first). With 2 x 2048 slots, decoding twitter, citm_catalog or canada
 * (93, 321 and 6 distinct short keys) a second time, or the three in turn
 * and again, misses nothing (tests/test_key_cache.py checks the counts
 * through _key_cache_stats()). */
#define KEY_CACHE_WAY 2048
#define CF_KEY_CACHE_MAX_LEN 32
static PyObject* key_cache[2][KEY_CACHE_WAY];
static unsigned long long key_cache_hits, key_cache_misses;

/* The last `n` (1..7) bytes of a string at p, as a little-endian word
 * zero-extended, read as one 8-byte load where [lo, hi) (the readable
 * buffer around it) allows: a memcpy of a variable size is a call, and the
 * load that follows it waits for its stores. */
static uint64_t tail_word(const uint8_t* p, size_t n, const uint8_t* lo, const uint8_t* hi) {
  uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if ((size_t)(hi - p) >= 8) {
    memcpy(&w, p, 8);
    return w & ((1ull << (8 * n)) - 1);
  }
  if ((size_t)(p - lo) >= 8 - n) {
    memcpy(&w, p + n - 8, 8);
    return w >> (8 * (8 - n));
  }
#else
  (void)lo;
  (void)hi;
#endif
  for (size_t k = 0; k < n; ++k) {
    w |= (uint64_t)p[k] << (8 * k);
  }
  return w;
}

/* 1 when data[0, size) is ASCII; *mix gets a running mix of its words (not
 * yet a hash: key_hash() finishes it). Word at a time: keys are short, and a
 * byte loop with a multiply per byte costs more than the dict insert it
 * serves. [lo, hi) holds the string: the readable buffer around it. */
static int ascii_mix(const uint8_t* data, size_t size, const uint8_t* lo, const uint8_t* hi,
                     uint64_t* mix) {
  uint64_t h = size * 0x9E3779B97F4A7C15ull;
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t w;
    memcpy(&w, data + i, 8);
    high |= w;
    h = (h ^ w) * 0xff51afd7ed558ccdull;
  }
  if (i < size) {
    uint64_t w = tail_word(data + i, size - i, lo, hi);
    high |= w;
    h = (h ^ w) * 0xff51afd7ed558ccdull;
  }
  *mix = h;
  return (high & 0x8080808080808080ull) == 0;
}

/* The murmur3 64-bit finalizer over the mix: every bit of the result
 * depends on every bit of the key (the mix alone leaves its low bits, the
 * index, depending on the low bits of the words only). */
static uint64_t key_hash(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

static size_t way0_index(uint64_t h) {
  return (size_t)(h & (KEY_CACHE_WAY - 1));
}

static size_t way1_index(uint64_t h) {
  return (size_t)((h >> 32) & (KEY_CACHE_WAY - 1));
}

/* A new str from bytes ascii_mix() found ASCII, or NULL without an
 * exception when the copy is not ASCII: the input changed since the check
 * (another thread writing into a buffer it shares, without the GIL), and a
 * str made for ASCII must hold only ASCII (CPython relies on it: iterating
 * one crashed). The caller then decodes the bytes the normal way. */
static PyObject* ascii_str(const uint8_t* data, size_t size) {
  PyObject* s = PyUnicode_New((Py_ssize_t)size, 127);
  if (s == NULL) {
    return NULL;
  }
  /* Each word is loaded once, stored, and tested as stored. */
  uint8_t* out = (uint8_t*)PyUnicode_DATA(s);
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t w;
    memcpy(&w, data + i, 8);
    memcpy(out + i, &w, 8);
    high |= w;
  }
  for (; i < size; ++i) {
    const uint8_t c = data[i];
    out[i] = c;
    high |= c;
  }
  if ((high & 0x8080808080808080ull) != 0) {
    Py_DECREF(s);
    return NULL;
  }
  return s;
}

static int key_is(PyObject* s, const uint8_t* data, size_t size) {
  return s != NULL && (size_t)PyUnicode_GET_LENGTH(s) == size &&
         memcmp(PyUnicode_DATA(s), data, size) == 0;
}

/* The str of a short map key, from the cache (a new reference), or NULL:
 * not ASCII (no exception: the caller decodes it the normal way) or out of
 * memory (an exception). */
static PyObject* cached_key(const uint8_t* data, size_t size, const uint8_t* lo,
                            const uint8_t* hi) {
  uint64_t h;
  if (!ascii_mix(data, size, lo, hi, &h)) {
    return NULL;
  }
  h = key_hash(h);
  PyObject** slot0 = &key_cache[0][way0_index(h)];
  PyObject** slot1 = &key_cache[1][way1_index(h)];
  PyObject* s;
  if (key_is(*slot0, data, size)) {
    s = *slot0;
  } else if (key_is(*slot1, data, size)) {
    s = *slot1;
  } else {
    s = ascii_str(data, size);
    if (s == NULL) {
      return NULL; /* no memory, or no longer ASCII (no exception) */
    }
    ++key_cache_misses;
    Py_XSETREF(*(*slot0 == NULL ? slot0 : slot1), s);
    Py_INCREF(s);
    return s;
  }
  ++key_cache_hits;
  Py_INCREF(s);
  return s;
}

void cf_key_cache_clear(void) {
  for (size_t w = 0; w < 2; ++w) {
    for (size_t i = 0; i < KEY_CACHE_WAY; ++i) {
      Py_CLEAR(key_cache[w][i]);
    }
  }
  key_cache_hits = key_cache_misses = 0;
}

PyObject* cf_key_cache_stats(void) {
  Py_ssize_t held = 0;
  for (size_t w = 0; w < 2; ++w) {
    for (size_t i = 0; i < KEY_CACHE_WAY; ++i) {
      held += key_cache[w][i] != NULL;
    }
  }
  return Py_BuildValue("{sKsKsnsnsn}", "hits", key_cache_hits, "misses", key_cache_misses,
                       "held", held, "slots", (Py_ssize_t)(2 * KEY_CACHE_WAY), "max_length",
                       (Py_ssize_t)CF_KEY_CACHE_MAX_LEN);
}

PyObject* cf_key_cache_slots(const uint8_t* data, size_t size) {
  uint64_t h;
  if (size > CF_KEY_CACHE_MAX_LEN || !ascii_mix(data, size, data, data + size, &h)) {
    Py_RETURN_NONE; /* never cached */
  }
  h = key_hash(h);
  return Py_BuildValue("(nn)", (Py_ssize_t)way0_index(h), (Py_ssize_t)way1_index(h));
}

/* ---- errors ----------------------------------------------------------------- */

/* Raises CBORDecodeError(status, offset, depth=depth). */
static void raise_decode_error(cf_decoder* dec, int status, size_t offset, uint32_t depth) {
  if (status == CBOR_FAST_ERR_OUT_OF_MEMORY) {
    PyErr_NoMemory();
    return;
  }
  PyObject* exc = PyObject_CallFunction(cf_state.decode_error, "in", status, (Py_ssize_t)offset);
  if (exc == NULL) {
    return;
  }
  PyObject* dv = PyLong_FromUnsignedLong(depth);
  PyObject* io = PyLong_FromSize_t(dec->depth == 0 && dec->reader_item_offset_valid
                                       ? dec->reader_item_offset
                                       : dec->item_start);
  if (dv == NULL || io == NULL || PyObject_SetAttrString(exc, "depth", dv) < 0 ||
      PyObject_SetAttrString(exc, "item_offset", io) < 0) {
    Py_XDECREF(dv);
    Py_XDECREF(io);
    Py_DECREF(exc);
    return;
  }
  Py_DECREF(dv);
  Py_DECREF(io);
  PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
  Py_DECREF(exc);
}

/* A CBORDecodeError raised by Python code (a semantic decoder) without an
 * offset gets `offset`; any other error from the built-in semantic decoders
 * is left as it is (the Python side wraps its own failures). */
static void fill_error_offset(size_t offset) {
  PyObject* value = cf_take_exception();
  if (value != NULL && PyObject_IsInstance(value, cf_state.decode_error) == 1) {
    PyObject* off = PyObject_GetAttrString(value, "offset");
    if (off == Py_None) {
      PyObject* o = PyLong_FromSize_t(offset);
      if (o != NULL) {
        PyObject_SetAttrString(value, "offset", o);
        Py_DECREF(o);
      }
    }
    Py_XDECREF(off);
    if (PyErr_Occurred()) {
      PyErr_Clear();
    }
  }
  cf_restore_exception(value);
}

static void raise_semantic(const char* message, size_t offset) {
  PyObject* exc = PyObject_CallFunction(cf_state.decode_error, "Ons", Py_None,
                                        (Py_ssize_t)offset, message);
  if (exc != NULL) {
    PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  }
}

/* A hook (tag_hook, object_hook, a semantic decoder) failed at `offset`:
 * as cbor2 6.3 does, any Exception that is not already a CBORDecodeError
 * becomes one ("error decoding <what>"), chained to it as its cause; a
 * CBORDecodeError gets the offset if it has none. KeyboardInterrupt and the
 * other BaseExceptions pass as they are. */
static void hook_failed(const char* what, uint64_t tag, size_t offset) {
  if (!PyErr_ExceptionMatches(PyExc_Exception) ||
      PyErr_ExceptionMatches(cf_state.decode_error)) {
    fill_error_offset(offset);
    return;
  }
  PyObject* cause = cf_take_exception();
  char message[64];
  if (what == NULL) {
    PyOS_snprintf(message, sizeof message, "error decoding semantic tag %llu",
                  (unsigned long long)tag);
  } else {
    PyOS_snprintf(message, sizeof message, "error decoding %s", what);
  }
  raise_semantic(message, offset);
  cf_chain_cause(cause);
}

/* Whether tag frame `f`, just opened, is the content of a tag 28 and will
 * be a plain CBORTag: no built-in handling, no decoder of the caller's or of
 * the package's, no tag_hook (whose result could be anything), not inside
 * a key or set (frozen values are shared when complete). */
static int plain_shareable_tag(cf_decoder* d, const cf_frame* f) {
  if (d->depth < 2 || f->frozen || d->opts.tag_hook != NULL) {
    return 0;
  }
  const cf_frame* parent = &d->stack[d->depth - 2];
  if (parent->kind != CF_TAG || parent->tag != 28 || parent->user) {
    return 0;
  }
  uint64_t tag = f->tag;
  if (tag == 2 || tag == 3 || tag == 25 || tag == 28 || tag == 29 || tag == 256 ||
      tag == 55799 || (d->opts.typed_arrays && tag >= 64 && tag <= 87)) {
    return 0;
  }
  PyObject* number = PyLong_FromUnsignedLongLong(tag);
  if (number == NULL) {
    PyErr_Clear();
    return 0;
  }
  int known = PySet_Contains(cf_state.semantic_tags, number);
  if (known == 0 && d->opts.semantic_decoders != NULL) {
    known = PyDict_Contains(d->opts.semantic_decoders, number);
  }
  Py_DECREF(number);
  if (known < 0) {
    PyErr_Clear();
    return 0;
  }
  return !known;
}

/* 1 when semantic_decoders has a decoder for `tag`, which then takes the
 * place of the built-in handling of tags 2, 3, 25, 28, 29, 256, 55799 and
 * typed arrays (as in cbor2, where the caller's decoders come first); 0
 * when not; -1 on an error. */
static int user_decoder_for(cf_decoder* d, uint64_t tag) {
  PyObject* number = PyLong_FromUnsignedLongLong(tag);
  if (number == NULL) {
    return -1;
  }
  PyObject* fn = PyDict_GetItemWithError(d->opts.semantic_decoders, number);
  Py_DECREF(number);
  return fn != NULL ? 1 : PyErr_Occurred() ? -1 : 0;
}

/* ---- keys sharing a hash ------------------------------------------------------ */

#define CF_STR_(x) #x
#define CF_STR(x) CF_STR_(x)

#ifdef PyHASH_MODULUS
#define CF_HASH_MODULUS PyHASH_MODULUS
#else
#define CF_HASH_MODULUS _PyHASH_MODULUS
#endif

/* 1 for the keys left uncounted: str and bytes (seeded hashes) and ints below
 * the hash modulus in magnitude (each its own hash, so at most two of them,
 * -1 and -2, share one), which the input cannot make collide. */
static int distinct_hash(PyObject* k) {
  if (PyUnicode_CheckExact(k) || PyBytes_CheckExact(k)) {
    return 1;
  }
  if (PyLong_CheckExact(k)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(k, &overflow);
    return !overflow && v > -(long long)CF_HASH_MODULUS && v < (long long)CF_HASH_MODULUS;
  }
  return 0;
}

/* Distinct keys per hash value of one container: open addressing, indexed by
 * a seeded hash (SipHash) of the hash value, so that values the input chooses
 * cannot pile up here either. */
typedef struct {
  Py_hash_t hash;
  Py_ssize_t count; /* 0: an empty slot */
} cf_hash_slot;

struct cf_hash_counts {
  size_t mask, used;
  cf_hash_slot slots[];
};

static size_t seeded_index(Py_hash_t h) {
#if PY_VERSION_HEX >= 0x030E0000
  return (size_t)Py_HashBuffer(&h, sizeof h);
#else
  return (size_t)_Py_HashBytes(&h, sizeof h);
#endif
}

static cf_hash_slot* find_slot(cf_hash_counts* t, Py_hash_t h) {
  size_t i = seeded_index(h) & t->mask;
  while (t->slots[i].count != 0 && t->slots[i].hash != h) {
    i = (i + 1) & t->mask;
  }
  return &t->slots[i];
}

/* A table of 2 * `size` slots holding the counts of `old` (NULL: none). */
static cf_hash_counts* new_counts(size_t size, cf_hash_counts* old) {
  cf_hash_counts* t =
      (cf_hash_counts*)PyMem_Calloc(1, sizeof(cf_hash_counts) + 2 * size * sizeof(cf_hash_slot));
  if (t == NULL) {
    PyErr_NoMemory();
    return NULL;
  }
  t->mask = 2 * size - 1;
  if (old != NULL) {
    for (size_t i = 0; i <= old->mask; ++i) {
      if (old->slots[i].count != 0) {
        *find_slot(t, old->slots[i].hash) = old->slots[i];
      }
    }
    t->used = old->used;
  }
  return t;
}

/* The bytes a table holds (NULL: none), for max_memory. */
static size_t cf_hash_counts_bytes(const cf_hash_counts* t) {
  return t == NULL ? 0 : sizeof(cf_hash_counts) + (t->mask + 1) * sizeof(cf_hash_slot);
}

/* Counts key k of hash h in *counts (grown as needed): 1 when it is one too
 * many, 0, -1 with an exception. */
static int add_count(cf_hash_counts** counts, Py_hash_t h) {
  cf_hash_counts* t = *counts;
  if (t == NULL || 2 * (t->used + 1) > t->mask + 1) {
    t = new_counts(t == NULL ? 64 : t->mask + 1, t);
    if (t == NULL) {
      return -1;
    }
    PyMem_Free(*counts);
    *counts = t;
  }
  cf_hash_slot* slot = find_slot(t, h);
  if (slot->count == 0) {
    slot->hash = h;
    t->used++;
  }
  return ++slot->count > CF_MAX_KEYS_PER_HASH;
}

int cf_count_key(cf_hash_counts** counts, Py_ssize_t* seen, PyObject* container, PyObject* key,
                 const size_t* offset) {
  if (distinct_hash(key) || ++*seen <= CF_MAX_KEYS_PER_HASH) {
    return 0; /* a key of its own hash, or too few to exceed the bound */
  }
  int over = 0;
  if (*counts == NULL) {
    /* the first time: count the keys already in (key among them) */
    PyObject* it = PyObject_GetIter(container);
    if (it == NULL) {
      return -1;
    }
    PyObject* k;
    while (!over && (k = PyIter_Next(it)) != NULL) {
      if (!distinct_hash(k)) {
        Py_hash_t h = PyObject_Hash(k);
        over = h == -1 ? -1 : add_count(counts, h);
      }
      Py_DECREF(k);
    }
    Py_DECREF(it);
    if (over == 0 && PyErr_Occurred()) {
      over = -1;
    }
  } else {
    Py_hash_t h = PyObject_Hash(key);
    over = h == -1 ? -1 : add_count(counts, h);
  }
  if (over <= 0) {
    return over;
  }
  PyObject* exc = PyObject_CallFunction(
      cf_state.decode_error, "OOs", Py_None, Py_None,
      "more than " CF_STR(CF_MAX_KEYS_PER_HASH) " distinct keys of one container share a "
      "hash (inserting them takes quadratic time)");
  if (exc == NULL) {
    return -1;
  }
  if (offset != NULL) {
    PyObject* o = PyLong_FromSize_t(*offset);
    if (o == NULL || PyObject_SetAttrString(exc, "offset", o) < 0) {
      Py_XDECREF(o);
      Py_DECREF(exc);
      return -1;
    }
    Py_DECREF(o);
  }
  PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
  Py_DECREF(exc);
  return -1;
}

PyObject* cf_build_set(PyObject* module, PyObject* args) {
  (void)module;
  PyObject* values;
  int frozen;
  if (!PyArg_ParseTuple(args, "Op", &values, &frozen)) {
    return NULL;
  }
  /* A tuple of the members: a list (a tag_hook's) could be shortened by a
   * member's __eq__ while PySet_Add runs it, and its items read past its
   * end (a crash). */
  PyObject* seq = PySequence_Fast(values, "set members must be a list or tuple");
  if (seq == NULL) {
    return NULL;
  }
  if (!PyTuple_Check(seq)) {
    Py_SETREF(seq, PySequence_Tuple(seq));
    if (seq == NULL) {
      return NULL;
    }
  }
  PyObject* set = PySet_New(NULL);
  cf_hash_counts* hashes = NULL;
  Py_ssize_t seen = 0;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  for (Py_ssize_t i = 0; set != NULL && i < n; ++i) {
    PyObject* v = PySequence_Fast_GET_ITEM(seq, i);
    Py_ssize_t before = PySet_GET_SIZE(set);
    if (PySet_Add(set, v) < 0 ||
        (PySet_GET_SIZE(set) != before && cf_count_key(&hashes, &seen, set, v, NULL) < 0)) {
      Py_CLEAR(set);
    }
  }
  cf_hash_counts_free(&hashes);
  Py_DECREF(seq);
  if (set == NULL && PyErr_ExceptionMatches(PyExc_RecursionError)) {
    /* a member whose __hash__ calls nest past the recursion limit: the depth
     * error, as for a map key (the tag's offset is filled in by the caller) */
    PyObject* cause = cf_take_exception();
    PyObject* exc =
        PyObject_CallFunction(cf_state.decode_error, "iO", CBOR_FAST_ERR_DEPTH, Py_None);
    if (exc != NULL) {
      PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
      Py_DECREF(exc);
    }
    cf_chain_cause(cause);
  }
  if (set != NULL && frozen) {
    PyObject* f = PyFrozenSet_New(set);
    Py_DECREF(set);
    set = f;
  }
  return set;
}

/* ---- the memory budget ---------------------------------------------------------
 * The reader's allocations go through these hooks, so max_memory counts them
 * with the extension's own stack and its estimate of the objects built. */
static void* budget_malloc(void* context, size_t size) {
  cf_decoder* d = (cf_decoder*)context;
  if (d->max_memory != 0 && d->memory + size > d->max_memory) {
    d->budget_hit = 1;
    return NULL;
  }
  void* p = PyMem_RawMalloc(size);
  if (p != NULL) {
    d->memory += size;
  }
  return p;
}

static void* budget_realloc(void* context, void* ptr, size_t old_size, size_t new_size) {
  cf_decoder* d = (cf_decoder*)context;
  if (d->max_memory != 0 && new_size > old_size &&
      d->memory + (new_size - old_size) > d->max_memory) {
    d->budget_hit = 1;
    return NULL;
  }
  void* p = PyMem_RawRealloc(ptr, new_size);
  if (p != NULL) {
    d->memory = d->memory - old_size + new_size;
  }
  return p;
}

static void budget_free(void* context, void* ptr, size_t size) {
  cf_decoder* d = (cf_decoder*)context;
  if (ptr != NULL) {
    d->memory -= size;
  }
  PyMem_RawFree(ptr);
}

/* ---- decoder life cycle ----------------------------------------------------- */

int cf_reader_options_default(const cf_decode_options* o) {
  return o->max_depth == 512 && !o->strict_utf8 && o->max_string_length == 0 &&
         o->max_container_items == 0 && o->max_items == 0 && !o->reject_duplicate_keys &&
         !o->deterministic && o->max_memory == 0;
}

int cf_decoder_init(cf_decoder* d, const cf_decode_options* opts, const uint8_t* data,
                    size_t size, cbor_reader* kept) {
  /* All but the batch (8 KiB, written by each batch call before it is read;
   * zeroing it was most of a small loads()). */
  memset(d, 0, offsetof(cf_decoder, batch));
  d->opts = *opts;
  d->base = data;
  d->size = size;
  d->max_memory = opts->max_memory;
  d->alloc.malloc = budget_malloc;
  d->alloc.realloc = budget_realloc;
  d->alloc.free = budget_free;
  d->alloc.context = d;
  d->batch[0].struct_size = sizeof(cbor_fast_item);
  d->batch_cap = CF_BATCH;
  /* The decoder's own references to the hooks (cf_decoder_free drops them,
   * also when a step below fails). */
  Py_XINCREF(d->opts.tag_hook);
  Py_XINCREF(d->opts.object_hook);
  Py_XINCREF(d->opts.semantic_decoders);
  if (kept != NULL) {
    /* Its options are these (the caller checked): reset over the data.
     * (Its allocations count in no budget: there is none.) */
    if (cbor_reader_reset(kept, data, size) == CBOR_FAST_OK) {
      d->rd = kept;
      return 0;
    }
    cbor_reader_free(kept);
  }
  cbor_fast_status st = cbor_reader_new(data, size, &d->alloc, &d->rd);
  if (st != CBOR_FAST_OK) {
    cf_decoder_free(d);
    if (d->budget_hit) {
      raise_decode_error(d, CBOR_FAST_ERR_MEMORY_BUDGET, 0, 0);
    } else {
      PyErr_NoMemory();
    }
    return -1;
  }
  struct {
    cbor_fast_option option;
    uint64_t value;
    int set;
  } settings[] = {
      {CBOR_FAST_OPT_MAX_DEPTH, opts->max_depth, 1},
      {CBOR_FAST_OPT_VALIDATE_UTF8, 1, opts->strict_utf8},
      {CBOR_FAST_OPT_MAX_STRING_LENGTH, opts->max_string_length, opts->max_string_length != 0},
      {CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, opts->max_container_items,
       opts->max_container_items != 0},
      {CBOR_FAST_OPT_MAX_ITEMS, opts->max_items, opts->max_items != 0},
      {CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 1, opts->reject_duplicate_keys},
      {CBOR_FAST_OPT_DETERMINISTIC, 1, opts->deterministic},
  };
  for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); ++i) {
    if (settings[i].set &&
        cbor_reader_set(d->rd, settings[i].option, settings[i].value) != CBOR_FAST_OK) {
      PyErr_Format(PyExc_ValueError, "cbor_fast: reader option %d refused",
                   (int)settings[i].option);
      cf_decoder_free(d);
      return -1;
    }
  }
  return 0;
}

static void clear_frames(cf_decoder* d) {
  for (size_t i = 0; i < d->depth; ++i) {
    Py_CLEAR(d->stack[i].obj);
    Py_CLEAR(d->stack[i].key);
    cf_hash_counts_free(&d->stack[i].hashes);
  }
  d->depth = 0;
}

/* A list of the decoder's own (the shared values of tags 28/29, the string
 * reference tables of tags 256/25), which only the decoder holds: not
 * tracked by the collector, so gc.get_objects() does not hand it to a hook
 * (which put an int where a table was due: a list read as a list it was
 * not). It holds no cycle of its own: whatever it refers to, the decoder
 * keeps alive until it is freed. */
static PyObject* private_list(void) {
  PyObject* l = PyList_New(0);
  if (l != NULL) {
    PyObject_GC_UnTrack(l);
  }
  return l;
}

void cf_decoder_free(cf_decoder* d) {
  clear_frames(d);
  if (d->stack != NULL) {
    budget_free(d, d->stack, d->capacity * sizeof(cf_frame));
    d->stack = NULL;
  }
  Py_CLEAR(d->shareables);
  Py_CLEAR(d->namespaces);
  Py_CLEAR(d->opts.tag_hook);
  Py_CLEAR(d->opts.object_hook);
  Py_CLEAR(d->opts.semantic_decoders);
  cbor_reader_free(d->rd);
  d->rd = NULL;
  cbor_reader_free(d->sub);
  d->sub = NULL;
}

/* ---- the stack ---------------------------------------------------------------- */

static cf_frame* push(cf_decoder* d, const cbor_fast_item* it, int kind) {
  if (d->depth == d->capacity) {
    size_t cap = d->capacity ? d->capacity * 2 : 32;
    cf_frame* s = (cf_frame*)budget_realloc(d, d->stack, d->capacity * sizeof(cf_frame),
                                           cap * sizeof(cf_frame));
    if (s == NULL) {
      if (d->budget_hit) {
        raise_decode_error(d, CBOR_FAST_ERR_MEMORY_BUDGET, it->offset, it->depth);
      } else {
        PyErr_NoMemory();
      }
      return NULL;
    }
    d->stack = s;
    d->capacity = cap;
  }
  cf_frame* parent = d->depth ? &d->stack[d->depth - 1] : NULL;
  cf_frame* f = &d->stack[d->depth++];
  memset(f, 0, sizeof(*f));
  f->kind = (uint8_t)kind;
  f->offset = it->offset;
  f->fill = -1;
  f->share = -1;
  f->frozen = (uint8_t)(parent == NULL
                            ? d->opts.immutable
                            : (parent->frozen || parent->kind == CF_KEY ||
                               (parent->kind == CF_TAG && parent->tag == 258)));
  f->in_key = (uint8_t)(parent != NULL &&
                        (parent->in_key || parent->kind == CF_KEY ||
                         (parent->kind == CF_TAG && parent->tag == 258)));
  f->frozen_depth = (parent ? parent->frozen_depth : 0) + f->frozen;
  int too_deep = f->frozen_depth > CF_MAX_FROZEN_DEPTH;
  if (f->in_key && !too_deep) {
    /* strings (CF_BYTES, CF_TEXT) hash without recursing */
    const uint32_t level = kind == CF_LIST                    ? CF_HASH_STACK_TUPLE
                           : kind == CF_KEY || kind == CF_TAG ? CF_HASH_STACK_CALL
                                                              : 0;
    /* Cumulative even for a map that is a key inside a key, although it is
     * hashed when inserted and keeps its hash: two equal keys (a repeated
     * key, or a hash shared) are compared level by level, FrozenDict.__eq__
     * a Python call each (100 maps as keys in a key, repeated, crashed a
     * 64 KiB thread when counted from each map on). */
    f->hash_stack = (parent->in_key ? parent->hash_stack : 0) + level;
    too_deep = level != 0 && cf_stack_left() < (size_t)f->hash_stack + CF_HASH_STACK_MARGIN;
  }
  if (too_deep) {
    d->depth--;
    raise_decode_error(d, CBOR_FAST_ERR_DEPTH, it->offset, it->depth);
    return NULL;
  }
  return f;
}

/* A container opened as the content of tag 28 is registered at once, so
 * references to it from inside (cycles) find it. */
static int register_shared(cf_decoder* d, cf_frame* f) {
  if (d->depth < 2) {
    return 0;
  }
  cf_frame* parent = &d->stack[d->depth - 2];
  if (parent->kind != CF_TAG || parent->tag != 28 || parent->user || f->frozen) {
    return 0;
  }
  Py_INCREF(f->obj);
  return PyList_SetItem(d->shareables, parent->share, f->obj);
}

/* ---- values ------------------------------------------------------------------- */

static int account(cf_decoder* d, size_t bytes, const cbor_fast_item* it) {
  d->memory += bytes;
  if (d->max_memory != 0 && d->memory > d->max_memory) {
    raise_decode_error(d, CBOR_FAST_ERR_MEMORY_BUDGET, it->offset, it->depth);
    return -1;
  }
  return 0;
}

/* typed_arrays: the tag item `it` (64..87) of frame `f` starts a typed array.
 * The library's typed-array reader reads it from the input ahead of the
 * batch (on a second reader), and the array.array built goes into f->obj;
 * the byte string item that follows is then not decoded again. A reserved
 * tag (76) or float128 is left to the default path (CBORTag). */
static int typed_ahead(cf_decoder* d, cf_frame* f, const cbor_fast_item* it) {
  if (d->sub == NULL && cbor_reader_new(NULL, 0, &d->alloc, &d->sub) != CBOR_FAST_OK) {
    if (d->budget_hit) {
      raise_decode_error(d, CBOR_FAST_ERR_MEMORY_BUDGET, it->offset, it->depth);
    } else {
      PyErr_NoMemory();
    }
    return -1;
  }
  cbor_fast_typed_array a = CBOR_FAST_TYPED_ARRAY_INIT;
  cbor_fast_status st = cbor_reader_reset(d->sub, d->base + it->offset, d->size - it->offset);
  if (st == CBOR_FAST_OK) {
    st = cbor_reader_read_typed_array(d->sub, &a);
  }
  if (st != CBOR_FAST_OK) {
    cbor_fast_error err = CBOR_FAST_ERROR_INIT;
    if (cbor_reader_error(d->sub, &err) == CBOR_FAST_OK) {
      if (st == CBOR_FAST_ERR_TYPE_MISMATCH) {
        return 0; /* not a typed-array tag (76): nothing read */
      }
      err.code = st;
      err.offset = 0;
    }
    raise_decode_error(d, err.code, it->offset + err.offset, it->depth + 1);
    return -1;
  }
  if (a.element == CBOR_FAST_TYPED_FLOAT128) {
    return 0;
  }
  if (d->max_memory && account(d, 64 + a.count * (a.element == CBOR_FAST_TYPED_FLOAT16
                                                      ? sizeof(double)
                                                      : a.element_size),
                               it) < 0) {
    return -1;
  }
  f->obj = cf_typed_array_object(&a);
  if (f->obj == NULL) {
    return -1;
  }
  f->typed = 1;
  return 0;
}

static PyObject* negative(uint64_t n) {
  if (n <= (uint64_t)INT64_MAX) {
    return PyLong_FromLongLong(-1 - (long long)n);
  }
  PyObject* u = PyLong_FromUnsignedLongLong(n);
  if (u == NULL) {
    return NULL;
  }
  PyObject* r = PyNumber_Invert(u); /* ~n == -1 - n */
  Py_DECREF(u);
  return r;
}

/* Text from UTF-8: a failure is CBORDecodeError "invalid_utf8" at the first
 * bad byte when str_errors is "strict". */
static PyObject* text(cf_decoder* d, const uint8_t* data, size_t size, size_t content_offset,
                      uint32_t depth) {
  PyObject* s = PyUnicode_DecodeUTF8((const char*)data, (Py_ssize_t)size, d->opts.str_errors);
  if (s == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
    PyObject* cause = cf_take_exception();
    Py_ssize_t start = 0;
    if (cause == NULL || PyUnicodeDecodeError_GetStart(cause, &start) < 0) {
      PyErr_Clear();
      start = 0;
    }
    raise_decode_error(d, CBOR_FAST_ERR_INVALID_UTF8, content_offset + (size_t)start, depth);
    cf_chain_cause(cause);
  }
  return s;
}

/* RFC string references (tags 256/25): is a string of `size` bytes long
 * enough to be added to a namespace that holds `count` strings? */
static int stringref_long_enough(size_t count, size_t size) {
  if (count < 24) {
    return size >= 3;
  }
  if (count < 256) {
    return size >= 4;
  }
  if (count < 65536) {
    return size >= 5;
  }
  if (count < 4294967296ull) {
    return size >= 7;
  }
  return size >= 11;
}

static int stringref_add(cf_decoder* d, PyObject* s, size_t size) {
  Py_ssize_t n = PyList_GET_SIZE(d->namespaces);
  if (n == 0) {
    return 0;
  }
  PyObject* ns = PyList_GET_ITEM(d->namespaces, n - 1);
  if (ns == Py_None) {
    return 0;
  }
  if (!stringref_long_enough((size_t)PyList_GET_SIZE(ns), size)) {
    return 0;
  }
  return PyList_Append(ns, s);
}

/* Finishes tag `f` over its content `v` (owned). Returns a new reference. */
static PyObject* finish_tag(cf_decoder* d, cf_frame* f, PyObject* v) {
  uint64_t tag = f->tag;
  PyObject* r = NULL;
  if (f->typed) {
    return v; /* the array.array typed_ahead() built */
  }
  if (f->obj != NULL) {
    /* the CBORTag made and shared when the tag opened (plain_shareable_tag) */
    PyObject* t = f->obj;
    f->obj = NULL;
    int rc = PyObject_SetAttrString(t, "value", v);
    Py_DECREF(v);
    if (rc < 0) {
      Py_DECREF(t);
      return NULL;
    }
    return t;
  }
  switch (f->user ? UINT64_MAX : tag) {
    case 2:
    case 3:
      if (PyBytes_CheckExact(v)) {
        PyObject* n = PyObject_CallMethod((PyObject*)&PyLong_Type, "from_bytes", "Os", v, "big");
        if (n != NULL && tag == 3) {
          r = PyNumber_Invert(n);
          Py_DECREF(n);
        } else {
          r = n;
        }
        Py_DECREF(v);
        return r;
      }
      break;
    case 55799: /* self-described CBOR: the marker is dropped */
      return v;
    case 28:
      if (PyList_SetItem(d->shareables, f->share, v) < 0) {
        return NULL;
      }
      Py_INCREF(v);
      return v;
    case 29: {
      if (d->shareables != NULL && PyLong_CheckExact(v)) {
        Py_ssize_t i = PyLong_AsSsize_t(v);
        if (i == -1 && PyErr_Occurred()) {
          PyErr_Clear();
        } else if (i >= 0 && i < PyList_GET_SIZE(d->shareables)) {
          r = PyList_GET_ITEM(d->shareables, i);
          if (r != cf_state.unset && f->in_key && !PyUnicode_CheckExact(r) &&
              !PyBytes_CheckExact(r) && !PyLong_CheckExact(r) && !PyFloat_CheckExact(r)) {
            /* a reference would let a hashable value nest deeper than any
             * limit (hashing it recurses in C): not inside a key or a set */
            Py_DECREF(v);
            raise_semantic("shared reference to a container inside a map key or set",
                           f->offset);
            return NULL;
          }
          if (r != cf_state.unset) {
            Py_DECREF(v);
            Py_INCREF(r);
            return r;
          }
        }
      }
      Py_DECREF(v);
      raise_semantic("shared reference not found (tag 29)", f->offset);
      return NULL;
    }
    case 256: {
      Py_ssize_t n = PyList_GET_SIZE(d->namespaces);
      if (PyList_SetSlice(d->namespaces, n - 1, n, NULL) < 0) {
        Py_DECREF(v);
        return NULL;
      }
      return v;
    }
    case 25: {
      Py_ssize_t n = d->namespaces ? PyList_GET_SIZE(d->namespaces) : 0;
      if (n > 0 && PyLong_CheckExact(v)) {
        /* the innermost namespace is the one the tag-25 frame sits in */
        PyObject* ns = PyList_GET_ITEM(d->namespaces, n - 1);
        Py_ssize_t i = PyLong_AsSsize_t(v);
        if (i == -1 && PyErr_Occurred()) {
          PyErr_Clear();
        } else if (ns != Py_None && i >= 0 && i < PyList_GET_SIZE(ns)) {
          r = PyList_GET_ITEM(ns, i);
          Py_DECREF(v);
          Py_INCREF(r);
          return r;
        }
      }
      Py_DECREF(v);
      raise_semantic("string reference not found (tag 25)", f->offset);
      return NULL;
    }
    default:
      break;
  }
  PyObject* number = PyLong_FromUnsignedLongLong(tag);
  if (number == NULL) {
    Py_DECREF(v);
    return NULL;
  }
  if (tag == 258 && d->opts.strict_hashable && PyTuple_Check(v)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(v); ++i) {
      PyObject* m = PyTuple_GET_ITEM(v, i);
      if (!PyUnicode_CheckExact(m) && !PyBytes_CheckExact(m)) {
        Py_DECREF(v);
        raise_semantic("set member is not a text or byte string (strict_hashable_types)",
                       f->offset);
        return NULL;
      }
    }
  }
  if (d->opts.semantic_decoders != NULL) {
    PyObject* fn = PyDict_GetItemWithError(d->opts.semantic_decoders, number);
    if (fn != NULL) {
      /* Held for the call: the dict's reference is borrowed, and the call
       * may remove the entry (a bound method freed while it ran). */
      Py_INCREF(fn);
      r = PyObject_CallFunctionObjArgs(fn, v, f->frozen ? Py_True : Py_False, NULL);
      Py_DECREF(fn);
      goto done;
    }
    if (PyErr_Occurred()) {
      goto done;
    }
  }
  r = PyObject_CallFunctionObjArgs(cf_state.semantic_decode, number, v,
                                   f->frozen ? Py_True : Py_False,
                                   d->opts.tag_hook ? d->opts.tag_hook : Py_None, NULL);
done:
  Py_DECREF(number);
  Py_DECREF(v);
  if (r == NULL) {
    hook_failed(NULL, tag, f->offset);
  }
  return r;
}

/* The value of the container or string in frame `f`, which its END closed. */
static PyObject* finish_frame(cf_decoder* d, cf_frame* f) {
  PyObject* obj = f->obj;
  f->obj = NULL;
  switch (f->kind) {
    case CF_LIST:
      if (f->fill >= 0 && f->fill != PyList_GET_SIZE(obj)) {
        /* cannot happen: the reader delivers exactly the count it read */
        Py_DECREF(obj);
        raise_decode_error(d, CBOR_FAST_ERR_INTERNAL, f->offset, 0);
        return NULL;
      }
      if (f->fill >= 0) {
        PyObject_GC_Track(obj); /* complete: untracked while it was filled */
      }
      if (f->frozen) {
        PyObject* t = PyList_AsTuple(obj);
        Py_DECREF(obj);
        return t;
      }
      return obj;
    case CF_KEY: {
      if (f->frozen) {
        PyObject* fd = PyObject_CallOneArg(cf_state.frozendict, obj);
        Py_DECREF(obj);
        obj = fd;
        if (obj == NULL) {
          return NULL;
        }
      }
      if (d->opts.object_hook != NULL) {
        PyObject* r = PyObject_CallFunctionObjArgs(d->opts.object_hook, obj,
                                                   f->frozen ? Py_True : Py_False, NULL);
        Py_DECREF(obj);
        if (r == NULL) {
          hook_failed("map", 0, f->offset);
        }
        return r;
      }
      return obj;
    }
    case CF_BYTES: {
      /* the chunks' bytes, joined as they came */
      PyObject* r =
          PyBytes_FromStringAndSize(PyByteArray_AS_STRING(obj), PyByteArray_GET_SIZE(obj));
      Py_DECREF(obj);
      return r;
    }
    case CF_TEXT: {
      /* the chunks, each decoded when read */
      PyObject* empty = PyUnicode_FromStringAndSize(NULL, 0);
      if (empty == NULL) {
        Py_DECREF(obj);
        return NULL;
      }
      PyObject* s = PyUnicode_Join(empty, obj);
      Py_DECREF(empty);
      Py_DECREF(obj);
      return s;
    }
    default:
      Py_XDECREF(obj);
      raise_decode_error(d, CBOR_FAST_ERR_INTERNAL, f->offset, 0);
      return NULL;
  }
}

/* Hands the finished value `v` (owned) to the frames above; returns 1 when it
 * completed the top-level item (stored in *out), 0 to go on, -1 on error. */
static int deliver(cf_decoder* d, PyObject* v, PyObject** out) {
  while (d->depth > 0) {
    cf_frame* f = &d->stack[d->depth - 1];
    switch (f->kind) {
      case CF_LIST:
        if (f->fill >= 0) {
          PyList_SET_ITEM(f->obj, f->fill, v);
          f->fill++;
          d->unfilled--;
          return 0;
        }
        if (PyList_Append(f->obj, v) < 0) {
          Py_DECREF(v);
          return -1;
        }
        Py_DECREF(v);
        return 0;
      case CF_KEY:
        if (d->opts.strict_hashable && !PyUnicode_CheckExact(v) && !PyBytes_CheckExact(v)) {
          Py_DECREF(v);
          raise_semantic("map key is not a text or byte string (strict_hashable_types)",
                         f->key_offset);
          return -1;
        }
        f->key = v;
        f->kind = CF_VALUE;
        return 0;
      case CF_VALUE: {
        Py_ssize_t before = PyDict_GET_SIZE(f->obj);
        int rc = PyDict_SetItem(f->obj, f->key, v);
        Py_DECREF(v);
        f->kind = CF_KEY;
        if (rc < 0) {
          Py_CLEAR(f->key);
          if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyObject* cause = cf_take_exception();
            raise_semantic("unhashable map key", f->offset);
            cf_chain_cause(cause);
          } else if (PyErr_ExceptionMatches(PyExc_RecursionError)) {
            /* a key of nested tags or maps (each level's __hash__ a Python
             * call) deeper than the recursion limit leaves: the depth error
             * at the key, caused by the RecursionError */
            PyObject* cause = cf_take_exception();
            raise_decode_error(d, CBOR_FAST_ERR_DEPTH, f->key_offset, (uint32_t)d->depth);
            cf_chain_cause(cause);
          } else {
            /* a key's own __hash__ or __eq__ raised (a hook made the key):
             * as a hook's exception, a CBORDecodeError caused by it */
            hook_failed("map", 0, f->offset);
          }
          return -1;
        }
        if (PyDict_GET_SIZE(f->obj) == before && d->opts.reject_duplicate_keys) {
          /* Keys the library's check passed as different CBOR values that
           * are one Python key (1 and 1.0, true and 1, two sets in another
           * order): refused as cbor2 refuses them, not merged. */
          Py_CLEAR(f->key);
          raise_decode_error(d, CBOR_FAST_ERR_DUPLICATE_KEY, f->key_offset, (uint32_t)d->depth);
          return -1;
        }
        /* (a str key, the common case, costs one compare here) */
        if (!PyUnicode_CheckExact(f->key) && PyDict_GET_SIZE(f->obj) != before) {
          const size_t held = cf_hash_counts_bytes(f->hashes);
          rc = cf_count_key(&f->hashes, &f->shared_hash_keys, f->obj, f->key, &f->key_offset);
          /* The table is the decoder's memory too, while the map is open
           * (up to 64 bytes a key; given back at the map's end). */
          const size_t now = cf_hash_counts_bytes(f->hashes);
          if (rc == 0 && d->max_memory != 0 && now > held) {
            d->memory += now - held;
            if (d->memory > d->max_memory) {
              raise_decode_error(d, CBOR_FAST_ERR_MEMORY_BUDGET, f->key_offset,
                                 (uint32_t)d->depth);
              rc = -1;
            }
          }
        }
        Py_CLEAR(f->key);
        return rc;
      }
      case CF_TAG:
        v = finish_tag(d, f, v);
        d->depth--;
        if (v == NULL) {
          return -1;
        }
        continue; /* the tag's value goes to the frame below */
      default:
        /* a chunk frame never receives a value: chunks are handled in place */
        Py_DECREF(v);
        raise_decode_error(d, CBOR_FAST_ERR_INTERNAL, f->offset, 0);
        return -1;
    }
  }
  *out = v;
  return 1;
}

static size_t item_end(const cbor_fast_item* it) {
  size_t end = it->offset + it->head_size;
  if ((it->type == CBOR_FAST_TYPE_BYTES || it->type == CBOR_FAST_TYPE_TEXT) &&
      !(it->flags & CBOR_FAST_ITEM_INDEFINITE)) {
    end += it->size;
  }
  return end;
}

static int reader_failed(cf_decoder* d) {
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  cbor_fast_status st = cbor_reader_error(d->rd, &err);
  d->reader_item_offset = err.item_offset;
  d->reader_item_offset_valid = 1;
  if (d->budget_hit && st == CBOR_FAST_ERR_OUT_OF_MEMORY) {
    st = CBOR_FAST_ERR_MEMORY_BUDGET;
  }
  raise_decode_error(d, st, err.offset, err.depth);
  return -1;
}

/* Decodes the next top-level item: 1 with *out and *end set, 0 at the end of
 * the input (nothing read), -1 with an exception. */
int cf_decode_next(cf_decoder* d, PyObject** out, size_t* end) {
  for (;;) {
    if (d->pos == d->count) {
      size_t n = 0;
      cbor_fast_status st;
      /* The reader touches no Python object: let other threads run while it
       * reads a batch of a large input. */
      if (d->size - d->last_offset >= 65536) {
        Py_BEGIN_ALLOW_THREADS
        st = cbor_reader_next_batch(d->rd, d->batch, d->batch_cap, &n);
        Py_END_ALLOW_THREADS
      } else {
        st = cbor_reader_next_batch(d->rd, d->batch, d->batch_cap, &n);
      }
      if (d->batch_cap < CF_BATCH) {
        d->batch_cap = 2 * d->batch_cap < CF_BATCH ? 2 * d->batch_cap : CF_BATCH;
      }
      if (st == CBOR_FAST_END) {
        if (d->depth == 0) {
          return 0;
        }
        raise_decode_error(d, CBOR_FAST_ERR_INTERNAL, d->size, 0);
        return -1;
      }
      if (st != CBOR_FAST_OK) {
        return reader_failed(d);
      }
      d->pos = 0;
      d->count = n;
      d->last_offset = d->batch[n - 1].offset;
    }
    const cbor_fast_item* it = &d->batch[d->pos++];
    if (d->depth == 0) {
      d->item_start = it->offset;
      d->unfilled = 0; /* (a failed item may have left open lists) */
      /* Shared values (tag 28) are the top-level item's own: references
       * from the next item of a sequence find none (as CBORDecoder's and
       * cbor2's), and a long sequence does not keep every shared value. */
      if (d->shareables != NULL) {
        Py_CLEAR(d->shareables);
      }
    } else if (d->stack[d->depth - 1].kind == CF_KEY) {
      d->stack[d->depth - 1].key_offset = it->offset;
    }
    cf_frame* top = d->depth ? &d->stack[d->depth - 1] : NULL;
    PyObject* v;
    switch (it->type) {
      case CBOR_FAST_TYPE_UINT:
        v = it->value <= (uint64_t)INT64_MAX ? PyLong_FromLongLong((long long)it->value)
                                             : PyLong_FromUnsignedLongLong(it->value);
        break;
      case CBOR_FAST_TYPE_NEGATIVE:
        v = negative(it->value);
        break;
      case CBOR_FAST_TYPE_FLOAT:
        v = PyFloat_FromDouble(it->float_value);
        break;
      case CBOR_FAST_TYPE_TEXT:
      case CBOR_FAST_TYPE_BYTES: {
        int is_text = it->type == CBOR_FAST_TYPE_TEXT;
        if (top != NULL && top->kind == CF_TAG && top->typed) {
          v = top->obj; /* the typed array's content, already converted */
          top->obj = NULL;
          break;
        }
        if (it->flags & CBOR_FAST_ITEM_INDEFINITE) {
          if (!d->opts.allow_indefinite) {
            raise_decode_error(d, CBOR_FAST_ERR_INDEFINITE_LENGTH, it->offset, it->depth);
            return -1;
          }
          cf_frame* f = push(d, it, is_text ? CF_TEXT : CF_BYTES);
          /* Byte chunks go straight into one growing buffer: a list of
           * chunks joined by _PyBytes_Join took an 80-byte Py_buffer per
           * chunk besides each chunk's object (2 MiB of empty chunks:
           * 176 MiB). Text chunks are decoded one by one (below). */
          if (f == NULL ||
              (f->obj = is_text ? PyList_New(0) : PyByteArray_FromStringAndSize(NULL, 0)) == NULL) {
            return -1;
          }
          continue;
        }
        if (d->max_memory && account(d, 40 + it->size, it) < 0) {
          return -1;
        }
        if (top != NULL && (top->kind == CF_BYTES || top->kind == CF_TEXT)) {
          PyObject* chunk = NULL;
          if (top->kind == CF_TEXT) {
            /* Each chunk is UTF-8 on its own (RFC 8949 3.2.3): decoded one
             * by one, as cbor2 does, so a character split between two
             * chunks is an error (or, under str_errors="replace", two
             * replacement characters), never joined into a valid one. */
            chunk = PyUnicode_DecodeUTF8((const char*)it->data, (Py_ssize_t)it->size,
                                         d->opts.str_errors);
            if (chunk == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
              size_t bad = cf_pending_size_attr("start"); /* the first bad byte */
              PyErr_Clear();
              if (bad == SIZE_MAX) {
                bad = 0;
              }
              raise_decode_error(d, CBOR_FAST_ERR_INVALID_UTF8,
                                 it->offset + it->head_size + bad, it->depth);
            }
          } else {
            Py_ssize_t had = PyByteArray_GET_SIZE(top->obj);
            if (it->size > (size_t)(PY_SSIZE_T_MAX - had)) {
              PyErr_NoMemory();
              return -1;
            }
            if (it->size != 0) {
              if (PyByteArray_Resize(top->obj, had + (Py_ssize_t)it->size) < 0) {
                return -1;
              }
              memcpy(PyByteArray_AS_STRING(top->obj) + had, it->data, it->size);
            }
            continue;
          }
          if (chunk == NULL) {
            return -1;
          }
          int rc = PyList_Append(top->obj, chunk);
          Py_DECREF(chunk);
          if (rc < 0) {
            return -1;
          }
          continue;
        }
        if (!is_text) {
          v = PyBytes_FromStringAndSize((const char*)it->data, (Py_ssize_t)it->size);
        } else if (top != NULL && top->kind == CF_KEY && it->size <= CF_KEY_CACHE_MAX_LEN &&
                   (v = cached_key(it->data, it->size, d->base, d->base + d->size)) != NULL) {
          /* cached */
        } else if (PyErr_Occurred()) {
          return -1;
        } else {
          /* short ASCII strings: no decoder call (a long one takes
           * PyUnicode_DecodeUTF8's own vectorised ASCII path). ascii_str()
           * tests what it copies; a first byte of 0x80 or more (most text
           * that is not ASCII) does not make a str to drop. */
          v = NULL;
          if (it->size <= 64 && (it->size == 0 || it->data[0] < 0x80)) {
            v = ascii_str(it->data, it->size);
          }
          if (v == NULL && !PyErr_Occurred()) {
            v = text(d, it->data, it->size, it->offset + it->head_size, it->depth);
          }
        }
        if (v != NULL && d->namespaces != NULL && stringref_add(d, v, it->size) < 0) {
          Py_DECREF(v);
          return -1;
        }
        break;
      }
      case CBOR_FAST_TYPE_ARRAY: {
        if ((it->flags & CBOR_FAST_ITEM_INDEFINITE) && !d->opts.allow_indefinite) {
          raise_decode_error(d, CBOR_FAST_ERR_INDEFINITE_LENGTH, it->offset, it->depth);
          return -1;
        }
        cf_frame* f = push(d, it, CF_LIST);
        if (f == NULL) {
          return -1;
        }
        /* Preallocate a definite array when each promised item can still have
         * its byte of input, besides the unfilled slots of the lists already
         * preallocated around it (each of those needs a byte too), and no
         * reference can see the list while it is filled (tag 28). Without
         * the second term nested counts each reserved the whole rest of the
         * input: 511 levels over 1 MiB reserved 4.2 GB. Else it is appended
         * to (a longer count is truncated input, reported when met). */
        int shared = d->depth >= 2 && d->stack[d->depth - 2].kind == CF_TAG &&
                     d->stack[d->depth - 2].tag == 28 && !d->stack[d->depth - 2].user;
        size_t left = d->size - item_end(it);
        if (!(it->flags & CBOR_FAST_ITEM_INDEFINITE) && d->unfilled <= left &&
            it->value <= left - d->unfilled && !shared) {
          if (d->max_memory && account(d, 56 + 8 * (size_t)it->value, it) < 0) {
            return -1;
          }
          f->obj = PyList_New((Py_ssize_t)it->value);
          f->fill = 0;
          d->unfilled += (size_t)it->value;
          /* Its slots are NULL until filled, and Python code runs meanwhile
           * (hooks; other threads while a batch is read without the GIL):
           * out of the collector's sight (gc.get_objects()) until complete. */
          if (f->obj != NULL) {
            PyObject_GC_UnTrack(f->obj);
          }
        } else {
          f->obj = PyList_New(0);
        }
        if (f->obj == NULL || register_shared(d, f) < 0) {
          return -1;
        }
        continue;
      }
      case CBOR_FAST_TYPE_MAP: {
        if ((it->flags & CBOR_FAST_ITEM_INDEFINITE) && !d->opts.allow_indefinite) {
          raise_decode_error(d, CBOR_FAST_ERR_INDEFINITE_LENGTH, it->offset, it->depth);
          return -1;
        }
        if (d->max_memory && account(d, 64, it) < 0) {
          return -1;
        }
        cf_frame* f = push(d, it, CF_KEY);
        if (f == NULL) {
          return -1;
        }
        f->shared_hash_keys = 0; /* (push() set its union's fill to -1) */
        if ((f->obj = PyDict_New()) == NULL || register_shared(d, f) < 0) {
          return -1;
        }
        continue;
      }
      case CBOR_FAST_TYPE_TAG: {
        cf_frame* f = push(d, it, CF_TAG);
        if (f == NULL) {
          return -1;
        }
        f->tag = it->value;
        if (d->opts.semantic_decoders != NULL &&
            (it->value == 2 || it->value == 3 || it->value == 25 || it->value == 28 || it->value == 29 ||
             it->value == 256 || it->value == 55799 || (it->value >= 64 && it->value <= 87))) {
          int user = user_decoder_for(d, it->value);
          if (user < 0) {
            return -1;
          }
          f->user = (uint8_t)user;
        }
        if (f->user) {
          /* the caller's decoder gets the content as it is */
        } else if (plain_shareable_tag(d, f)) {
          /* the content of a tag 28 that decodes to a CBORTag: the tag
           * object is shared before its content is read, so a reference
           * inside it finds it (cbor2 writes cycles through tags so) */
          f->obj = PyObject_CallFunction(cf_state.tag_type, "KO", (unsigned long long)it->value,
                                         Py_None);
          if (f->obj == NULL) {
            return -1;
          }
          Py_INCREF(f->obj);
          if (PyList_SetItem(d->shareables, d->stack[d->depth - 2].share, f->obj) < 0) {
            return -1;
          }
        } else if (d->opts.typed_arrays && it->value >= 64 && it->value <= 87 && !f->frozen) {
          if (typed_ahead(d, f, it) < 0) {
            return -1;
          }
        } else if (it->value == 28) {
          if (d->shareables == NULL && (d->shareables = private_list()) == NULL) {
            return -1;
          }
          f->share = PyList_GET_SIZE(d->shareables);
          if (PyList_Append(d->shareables, cf_state.unset) < 0) {
            return -1;
          }
        } else if (it->value == 256) {
          if (d->namespaces == NULL && (d->namespaces = private_list()) == NULL) {
            return -1;
          }
          PyObject* ns = private_list();
          if (ns == NULL) {
            return -1;
          }
          int rc = PyList_Append(d->namespaces, ns);
          Py_DECREF(ns);
          if (rc < 0) {
            return -1;
          }
        }
        continue;
      }
      case CBOR_FAST_TYPE_BOOL:
        v = it->value == 21 ? Py_True : Py_False;
        Py_INCREF(v);
        break;
      case CBOR_FAST_TYPE_NULL:
        v = Py_None;
        Py_INCREF(v);
        break;
      case CBOR_FAST_TYPE_UNDEFINED:
        v = cf_state.undefined;
        Py_INCREF(v);
        break;
      case CBOR_FAST_TYPE_SIMPLE:
        v = PyObject_CallFunction(cf_state.simple_type, "K", (unsigned long long)it->value);
        break;
      case CBOR_FAST_TYPE_END: {
        if (top == NULL) {
          raise_decode_error(d, CBOR_FAST_ERR_INTERNAL, it->offset, 0);
          return -1;
        }
        v = finish_frame(d, top);
        Py_CLEAR(top->key);
        if (d->max_memory != 0) {
          d->memory -= cf_hash_counts_bytes(top->hashes);
        }
        cf_hash_counts_free(&top->hashes);
        d->depth--;
        break;
      }
      default:
        raise_decode_error(d, CBOR_FAST_ERR_INTERNAL, it->offset, 0);
        return -1;
    }
    if (v == NULL) {
      return -1;
    }
    if (d->max_memory && it->type != CBOR_FAST_TYPE_TEXT && it->type != CBOR_FAST_TYPE_BYTES &&
        account(d, 32, it) < 0) {
      Py_DECREF(v);
      return -1;
    }
    int rc = deliver(d, v, out);
    if (rc < 0) {
      return -1;
    }
    if (rc == 1) {
      *end = item_end(it);
      return 1;
    }
  }
}

/* Whether items are left after the last top-level item (for loads). */
int cf_decoder_has_more(cf_decoder* d, size_t end) {
  return d->pos < d->count || end < d->size;
}
