/* cbor_fast._ext: the compiled core of the cbor_fast Python package. */
#ifndef CBOR_FAST_PY_EXT_H
#define CBOR_FAST_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "cbor_fast.h"

/* For the few functions whose inlining the encoder's and decoder's loops
 * measurably depend on (GCC stops inlining a helper once a rare path calls
 * it too), and for the rare paths kept out of those loops. */
#if defined(__GNUC__) || defined(__clang__)
#define CF_ALWAYS_INLINE inline __attribute__((always_inline))
#define CF_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define CF_ALWAYS_INLINE __forceinline
#define CF_NOINLINE __declspec(noinline)
#else
#define CF_ALWAYS_INLINE inline
#define CF_NOINLINE
#endif

/* Objects from the Python half of the package, given once to _ext._setup(). */
typedef struct {
  PyObject* tag_type;        /* CBORTag */
  PyObject* simple_type;     /* CBORSimpleValue */
  PyObject* undefined;       /* the undefined singleton */
  PyObject* frozendict;      /* FrozenDict */
  PyObject* decode_error;    /* CBORDecodeError */
  PyObject* encode_error;    /* CBOREncodeError */
  PyObject* encode_type_error;  /* CBOREncodeTypeError */
  PyObject* encode_value_error; /* CBOREncodeValueError */
  PyObject* semantic_decode; /* _semantic.decode(tag, value, immutable, tag_hook) */
  PyObject* special_encode;  /* _semantic.encode(encoder, obj) -> replacement */
  PyObject* written;         /* what special_encode returns when it wrote obj itself */
  PyObject* item_type;       /* Item(type, value, offset, depth, head_size, flags, float_width) */
  PyObject* semantic_tags;   /* the tag numbers semantic_decode has a decoder of its own for */
  PyObject* unset;           /* placeholder of a shareable not yet decoded */
} cf_globals;

extern cf_globals cf_state;

/* ---- the cyclic GC ------------------------------------------------------------ */

/* Decoding builds containers that cannot be garbage before the call returns;
 * the cyclic GC, triggered by allocation counts, would scan them again and
 * again. cf_gc_pause() stops it from being triggered (1: it was enabled, 0:
 * it was off already); cf_gc_resume(paused) enables it again when it was
 * enabled before, so Python code between two calls always sees the state it
 * set, and the collection due runs at the next allocation after the call.
 * PyGC_Disable/PyGC_Enable on 3.10+, the gc module's functions on 3.9 (any
 * exception pending at resume is kept). */
int cf_gc_pause(void);
/* The pending exception's integer attribute `name` ("offset" of a
 * CBORDecodeError, "start" of a UnicodeDecodeError), or SIZE_MAX when it has
 * none; the exception stays pending. */
size_t cf_pending_size_attr(const char* name);
/* The one place that moves pending exceptions, for every Python version the
 * package supports (3.12 replaced PyErr_Fetch/Restore):
 * cf_take_exception() takes the pending exception, normalized and with its
 * traceback attached (NULL when none is pending); cf_restore_exception()
 * makes one pending again (taken; NULL: nothing); cf_chain_cause() gives the
 * pending exception `cause` (taken; NULL: nothing) as its __cause__ and
 * __context__, as `raise new from cause` does. */
PyObject* cf_take_exception(void);
void cf_restore_exception(PyObject* exc);
void cf_chain_cause(PyObject* cause);
void cf_gc_resume(int paused);

/* ---- the thread's stack ------------------------------------------------------- */

/* Bytes of the calling thread's stack left below the caller's frame, on Linux
 * (the thread's bounds are found once per thread); SIZE_MAX where that is not
 * known. What recurses in C on the input's shape (a nested encode, hashing a
 * decoded map key) checks it first: a thread may have far less than the
 * main thread's 8 MiB (32 KiB from threading.stack_size(), musl's 128 KiB). */
size_t cf_stack_left(void);

/* ---- decoding ----------------------------------------------------------------- */

typedef struct {
  uint32_t max_depth;
  int strict_utf8;
  int reject_duplicate_keys;
  int deterministic;
  int allow_indefinite;
  int immutable;
  int strict_hashable;          /* map keys and set members: str and bytes only */
  uint64_t max_string_length;   /* 0: no limit */
  uint64_t max_container_items; /* 0: the library's default, 2**24 */
  uint64_t max_items;           /* 0: the library's default, 2**28 */
  uint64_t max_memory;          /* 0: no limit */
  int typed_arrays;             /* RFC 8746 tags 64..87 (not float128) -> array.array */
  const char* str_errors;       /* NULL: strict */
  PyObject* tag_hook;           /* borrowed in the options, owned by the decoder */
  PyObject* object_hook;
  PyObject* semantic_decoders;  /* dict or NULL */
} cf_decode_options;

enum { CF_LIST = 1, CF_KEY, CF_VALUE, CF_TAG, CF_BYTES, CF_TEXT };

typedef struct {
  PyObject* obj;   /* list, dict or chunk list (owned); NULL for a tag */
  PyObject* key;   /* CF_VALUE: the key waiting for its value (owned) */
  struct cf_hash_counts* hashes; /* CF_KEY/CF_VALUE: cf_count_key()'s (owned), or NULL */
  union { /* (by kind: 64 bytes a frame) */
    uint64_t tag;      /* CF_TAG: the tag number */
    size_t key_offset; /* CF_KEY/CF_VALUE: where the map's current key starts */
  };
  union {
    Py_ssize_t fill;             /* CF_LIST: preallocated: next index; -1: append */
    Py_ssize_t shared_hash_keys; /* CF_KEY/CF_VALUE: keys cf_count_key() has seen */
  };
  Py_ssize_t share; /* tag 28: index in the shareables */
  size_t offset;   /* the head of the container or tag */
  uint32_t frozen_depth; /* frozen levels up to here (hashing recurses on them) */
  uint32_t hash_stack;   /* in_key: C stack that hashing the key down to here takes */
  uint8_t kind;
  uint8_t frozen;  /* build hashable values (map keys, set members) */
  uint8_t typed;   /* CF_TAG: a typed array, already built in obj (typed_arrays) */
  uint8_t user;    /* CF_TAG: semantic_decoders has this tag: no built-in handling */
  uint8_t in_key;  /* inside a map key or a set (frozen there whatever `immutable` says) */
} cf_frame;

/* Deepest nesting of a hashable value built (a map key, a set member): hashing
 * a tuple recurses in C, so this bounds that recursion whatever max_depth is. */
#define CF_MAX_FROZEN_DEPTH 1000

/* What hashing a key (or comparing it with an equal one) takes of the C
 * stack per level of it, by the level's kind, with some to spare (measured
 * on x86-64 with CPython 3.11: a tuple about 80 bytes, a CBORTag or
 * FrozenDict, whose __hash__ and __eq__ are Python code, about 700), and
 * what must be left besides. Opening a level of a map key or
 * set member when the thread's stack has less than that left is the depth
 * error, not a crash later in the hash: a 32 KiB thread crashed on 390
 * nested arrays as a key, a 64 KiB one on 200 nested tags. */
#define CF_HASH_STACK_TUPLE 128
#define CF_HASH_STACK_CALL 1024
#define CF_HASH_STACK_MARGIN (8 * 1024)

/* The most distinct map keys (or set members) of one container that may share
 * one hash value. Python randomizes the hashes of str and bytes only: those of
 * ints (n mod 2^61-1), floats, tuples, frozensets and other hashable values
 * built from the input can be made equal, and each insert then compares the
 * key with every earlier one of that hash: 20,000 bignum keys congruent
 * mod 2^61-1 (259 KB) took 1.8 s, 16.7 million (the default container limit)
 * would take days. Honest data stays far below: at most 17 distinct integers
 * of 64 bits share a hash (n + k(2^61-1)), and about 40 doubles do. */
#define CF_MAX_KEYS_PER_HASH 64

/* After a new key was inserted into a dict or set `container`: counts it if
 * its hash is not seeded (see CF_MAX_KEYS_PER_HASH). *seen counts such keys; only when more than
 * CF_MAX_KEYS_PER_HASH have come is the table *counts built (from the keys
 * in `container`) and kept, so small containers pay one compare. 0, or -1 with
 * CBORDecodeError at *offset (offset NULL: the error's offset is None, for
 * the caller to fill) or another exception. */
typedef struct cf_hash_counts cf_hash_counts;
int cf_count_key(cf_hash_counts** counts, Py_ssize_t* seen, PyObject* container, PyObject* key,
                 const size_t* offset);
static inline void cf_hash_counts_free(cf_hash_counts** counts) {
  if (*counts != NULL) {
    PyMem_Free(*counts);
    *counts = NULL;
  }
}
/* set(values) or frozenset(values) of a list or tuple, with cf_count_key():
 * tag 258 (from _semantic.py). */
PyObject* cf_build_set(PyObject* module, PyObject* args);

/* load() and CBORDecoder: the most bytes of one item held by default
 * (max_buffer) */
#define CF_DEFAULT_MAX_BUFFER ((size_t)64 << 20)

#define CF_BATCH 128

typedef struct {
  cf_decode_options opts;
  cbor_reader* rd;
  cbor_reader* sub;     /* typed_arrays: reads one typed array ahead of the batch */
  cbor_fast_allocator alloc;
  const uint8_t* base;
  size_t size;
  cf_frame* stack;
  size_t depth;
  size_t capacity;
  PyObject* shareables; /* list (tag 28) or NULL */
  PyObject* namespaces; /* list of lists (tag 256) or NULL */
  size_t memory;        /* bytes held: reader, stack, estimate of the objects built */
  size_t max_memory;
  int budget_hit;
  size_t pos, count;    /* the batch: next item, items in it */
  size_t last_offset;
  size_t item_start;    /* offset of the top-level item being decoded */
  size_t unfilled;      /* slots of the open preallocated lists not filled yet */
  size_t reader_item_offset; /* the reader's, for an error between items */
  int reader_item_offset_valid;
  /* items asked for in the next batch: CF_BATCH, or (reading the first item
   * of more input) 8 at first, doubling, so that a small item does not
   * have the items after it read as well */
  size_t batch_cap;
  cbor_fast_item batch[CF_BATCH];
} cf_decoder;

/* `kept`: a reader made by an earlier cf_decoder_init of this same block
 * with options cf_reader_options_default() accepts (reset here, not made
 * again), or NULL. */
int cf_decoder_init(cf_decoder* d, const cf_decode_options* opts, const uint8_t* data,
                    size_t size, cbor_reader* kept);
/* The options give the reader nothing but its defaults and no memory budget
 * (a reader kept for the next decode must have been made with these). */
int cf_reader_options_default(const cf_decode_options* o);
void cf_decoder_free(cf_decoder* d);
int cf_decode_next(cf_decoder* d, PyObject** out, size_t* end);
int cf_decoder_has_more(cf_decoder* d, size_t end);
void cf_key_cache_clear(void);
/* For the tests: {"hits", "misses" (since the last clear), "held", "slots",
 * "max_length"}; and the (way 0, way 1) slots of a key (bytes), None when
 * such a key is never cached. */
PyObject* cf_key_cache_stats(void);
PyObject* cf_key_cache_slots(const uint8_t* data, size_t size);

/* One item from data[0, size), a buffer that starts at stream offset `base`
 * (errors carry stream offsets, item_offset `base`). end_out NULL: bytes after
 * the item are an error (trailing_bytes); else *end_out gets where it ends
 * (relative to data). A new reference, or NULL with an exception. */
PyObject* cf_decode_buffer(const cf_decode_options* opts, const uint8_t* data, size_t size,
                           size_t base, size_t* end_out);
/* The decode options of CBORDecoder / load (`options` a dict or NULL), parsed
 * as loads parses its keywords; the hooks stay borrowed from `options`. */
int cf_parse_stream_options(PyObject* fp, PyObject* options, cf_decode_options* o);

/* ---- streamed decoding from a file (_ext_stream.c) --------------------------- */

extern PyTypeObject cf_stream_decoder_type;

/* ---- bulk and typed arrays (_ext_typed.c) ------------------------------------ */

/* The array.array type (imported once); NULL with an exception on failure. */
PyObject* cf_array_type(void);
/* A new array.array holding the elements of a typed array, converted to the
 * host's byte order (float16 widened into 'd'); NULL with an exception.
 * float128 has no array typecode: the caller keeps such tags as CBORTag. */
PyObject* cf_typed_array_object(const cbor_fast_typed_array* a);
/* 1 when obj is an array.array (or a subclass). */
int cf_is_array(PyObject* obj);
/* loads_array(data, typecode="d") */
PyObject* cf_loads_array(PyObject* self, PyObject* args, PyObject* kwargs);
/* Writes a buffer object (array.array, memoryview) of numbers: as an RFC 8746
 * typed array when `typed`, else as a CBOR array of its numbers. 1: written;
 * 0: not a buffer of numbers (nothing written, no exception); -1: error. */
int cf_write_number_buffer(cbor_writer* w, PyObject* obj, int typed);

/* ---- encoding ----------------------------------------------------------------- */

/* Raises CBOREncodeError for a writer status (MemoryError for out_of_memory); -1. */
int cf_writer_failed(cbor_fast_status st);
/* A float the way the encoder writes every float: shortest exact width, NaN as f97e00. */
cbor_fast_status cf_write_double(cbor_writer* w, double v);
PyObject* cf_dumps(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);

/* The keyword options as Python signatures (the __text_signature__ that
 * inspect.signature() and help() show, before the "--" line of a docstring):
 * the names of decode_kwlist (_ext.c) and encoder_kwlist (_ext_encode.c)
 * after their first, with their defaults. tests/test_typing.py checks them
 * against the package's type stub (mypy's stubtest) and passes each one to
 * the functions. */
#define CF_DECODE_OPTIONS_SIG                                                                  \
  "*, tag_hook=None, object_hook=None, semantic_decoders=None, str_errors='strict', "        \
  "max_depth=512, allow_indefinite=True, allow_duplicate_keys=True, "                        \
  "strict_hashable_types=False, immutable=False, strict_utf8=False, "                        \
  "reject_duplicate_keys=False, deterministic=False, max_string_length=None, "               \
  "max_container_items=None, max_items=None, max_memory=None, typed_arrays=False"
#define CF_ENCODE_OPTIONS_SIG                                                                  \
  "*, datetime_as_timestamp=False, timezone=None, value_sharing=False, default=None, "       \
  "canonical=False, date_as_datetime=False, string_referencing=False, "                      \
  "indefinite_containers=False, typed_arrays=False"
extern PyTypeObject cf_encoder_type;

#endif
