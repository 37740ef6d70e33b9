/*
 * The reader, writer, status and version half of the C API (cbor_fast.h),
 * exercised from C99: every cbor_reader_* and cbor_writer_* function, the
 * statuses each documents, NULL arguments, options, struct_size handling,
 * allocator hooks that fail, and the three writer destinations.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"

/* ========================================================================== */
/* A heap that counts, checks the sizes handed back, and fails on demand      */
/* ========================================================================== */

#define HEAP_SLOTS 64

typedef struct test_heap {
  void* ptr[HEAP_SLOTS];
  size_t size[HEAP_SLOTS];
  size_t live;         /* blocks not freed yet */
  long calls;          /* malloc + realloc calls so far */
  long fail_at;        /* the call (0-based) that returns NULL; -1: never */
  int size_mismatches; /* free/realloc given a size other than the block's */
  int foreign;         /* free/realloc of a pointer this heap did not hand out */
} test_heap;

static void heap_init(test_heap* h, long fail_at) {
  memset(h, 0, sizeof *h);
  h->fail_at = fail_at;
}

static int heap_find(test_heap* h, void* p) {
  int i;
  for (i = 0; i < HEAP_SLOTS; ++i)
    if (h->ptr[i] == p) return i;
  return -1;
}

static void* heap_malloc(void* context, size_t size) {
  test_heap* h = (test_heap*)context;
  int slot = heap_find(h, NULL);
  void* p;
  if (h->calls++ == h->fail_at || slot < 0) return NULL;
  p = malloc(size ? size : 1);
  if (p == NULL) return NULL;
  h->ptr[slot] = p;
  h->size[slot] = size;
  ++h->live;
  return p;
}

static void* heap_realloc(void* context, void* ptr, size_t old_size, size_t new_size) {
  test_heap* h = (test_heap*)context;
  int slot = heap_find(h, ptr);
  void* p;
  if (slot < 0) {
    ++h->foreign;
    return NULL;
  }
  if (h->size[slot] != old_size) ++h->size_mismatches;
  if (h->calls++ == h->fail_at) return NULL;
  p = realloc(ptr, new_size ? new_size : 1);
  if (p == NULL) return NULL;
  h->ptr[slot] = p;
  h->size[slot] = new_size;
  return p;
}

static void heap_free(void* context, void* ptr, size_t size) {
  test_heap* h = (test_heap*)context;
  int slot;
  if (ptr == NULL) return;
  slot = heap_find(h, ptr);
  if (slot < 0) {
    ++h->foreign;
    return;
  }
  if (h->size[slot] != size) ++h->size_mismatches;
  h->ptr[slot] = NULL;
  --h->live;
  free(ptr);
}

static cbor_fast_allocator heap_hooks(test_heap* h) {
  cbor_fast_allocator a;
  a.malloc = heap_malloc;
  a.realloc = heap_realloc;
  a.free = heap_free;
  a.context = h;
  return a;
}

/* Everything handed out came back, with the right sizes. */
#define CHECK_HEAP_CLEAN(h)                \
  do {                                     \
    CHECK_EQ_UINT((h)->live, 0);           \
    CHECK_EQ_INT((h)->size_mismatches, 0); \
    CHECK_EQ_INT((h)->foreign, 0);         \
  } while (0)

/* ========================================================================== */
/* Helpers                                                                    */
/* ========================================================================== */

static cbor_reader* open_reader(const uint8_t* data, size_t size) {
  cbor_reader* r = NULL;
  CHECK_STATUS(cbor_reader_new(data, size, NULL, &r), CBOR_FAST_OK);
  return r;
}

static cbor_fast_item blank_item(void) {
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  return it;
}

/* One expected item: the fields every item has. */
#define CHECK_ITEM(it, t, val, off, head, dep, flg) \
  do {                                              \
    CHECK_EQ_INT((it).type, (t));                   \
    CHECK_EQ_UINT((it).value, (val));               \
    CHECK_EQ_UINT((it).offset, (off));              \
    CHECK_EQ_UINT((it).head_size, (head));          \
    CHECK_EQ_UINT((it).depth, (dep));               \
    CHECK_EQ_UINT((it).flags, (flg));               \
  } while (0)

/* finish() on a writer gives exactly these bytes (a string literal). */
#define CHECK_OUTPUT(w, lit)                                                     \
  do {                                                                           \
    const uint8_t* out_data_ = NULL;                                             \
    size_t out_size_ = 0;                                                        \
    CHECK_STATUS(cbor_writer_finish((w), &out_data_, &out_size_), CBOR_FAST_OK); \
    CHECK_EQ_BYTES(out_data_, out_size_, (lit), sizeof(lit) - 1);                \
    CHECK_EQ_UINT(cbor_writer_size(w), sizeof(lit) - 1);                         \
  } while (0)

/* Output of one writer call on a fresh growable writer. */
#define CHECK_WRITES(call, lit)                            \
  do {                                                     \
    cbor_writer* w = NULL;                                 \
    CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK); \
    CHECK_STATUS(call, CBOR_FAST_OK);                      \
    CHECK_OUTPUT(w, lit);                                  \
    cbor_writer_free(w);                                   \
  } while (0)

/* ========================================================================== */
/* Status strings and version                                                 */
/* ========================================================================== */

typedef struct status_row {
  cbor_fast_status code;
  const char* name;
  const char* message;
  int is_error;
  int is_malformed;
} status_row;

static const status_row k_statuses[] = {
    {CBOR_FAST_OK, "ok", "success", 0, 0},
    {CBOR_FAST_END, "end", "end of input", 0, 0},
    {CBOR_FAST_ERR_INVALID_ARGUMENT, "invalid_argument", "invalid argument", 1, 0},
    {CBOR_FAST_ERR_INVALID_STATE, "invalid_state", "operation not valid in the current state", 1,
     0},
    {CBOR_FAST_ERR_BUFFER_TOO_SMALL, "buffer_too_small", "output buffer too small", 1, 0},
    {CBOR_FAST_ERR_WRITER_UNCLOSED, "writer_unclosed", "container or tag left open", 1, 0},
    {CBOR_FAST_ERR_WRITER_COUNT, "writer_count_mismatch",
     "item count differs from the declared count", 1, 0},
    {CBOR_FAST_ERR_WRITER_NO_CONTAINER, "writer_no_container", "end without an open container", 1,
     0},
    {CBOR_FAST_ERR_WRITER_BAD_CHUNK, "writer_bad_chunk",
     "indefinite-length string chunk of the wrong type", 1, 0},
    {CBOR_FAST_ERR_WRITER_ODD_MAP, "writer_odd_map", "map ended after a key without its value", 1,
     0},
    {CBOR_FAST_ERR_SINK_FAILED, "sink_failed", "output sink reported a failure", 1, 0},
    {CBOR_FAST_ERR_TYPE_MISMATCH, "type_mismatch", "node is not of the requested type", 1, 0},
    {CBOR_FAST_ERR_OUT_OF_RANGE, "out_of_range", "value or index out of range", 1, 0},
    {CBOR_FAST_ERR_TRUNCATED, "truncated", "unexpected end of input", 1, 1},
    {CBOR_FAST_ERR_RESERVED_AI, "reserved_additional_info",
     "reserved additional information value (28-30)", 1, 1},
    {CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED, "indefinite_not_allowed",
     "indefinite length not allowed for this major type", 1, 1},
    {CBOR_FAST_ERR_BAD_SIMPLE, "bad_simple_value", "two-byte simple value below 32", 1, 1},
    {CBOR_FAST_ERR_CHUNK_TYPE, "chunk_type_mismatch",
     "indefinite-length string chunk of the wrong major type", 1, 1},
    {CBOR_FAST_ERR_NESTED_CHUNK, "nested_indefinite_chunk",
     "indefinite-length chunk inside an indefinite-length string", 1, 1},
    {CBOR_FAST_ERR_UNEXPECTED_BREAK, "unexpected_break", "break outside an indefinite-length item",
     1, 1},
    {CBOR_FAST_ERR_MAP_MISSING_VALUE, "map_missing_value", "map key without a value", 1, 1},
    {CBOR_FAST_ERR_INVALID_UTF8, "invalid_utf8", "invalid UTF-8 in text string", 1, 0},
    {CBOR_FAST_ERR_TRAILING_BYTES, "trailing_bytes", "unexpected bytes after the data item", 1, 0},
    {CBOR_FAST_ERR_NOT_PREFERRED, "non_preferred_encoding",
     "head or float not in its shortest form (deterministic encoding)", 1, 0},
    {CBOR_FAST_ERR_INDEFINITE_LENGTH, "indefinite_length",
     "indefinite-length item (deterministic encoding)", 1, 0},
    {CBOR_FAST_ERR_UNSORTED_KEYS, "unsorted_map_keys",
     "map keys not in bytewise lexicographic order (deterministic encoding)", 1, 0},
    {CBOR_FAST_ERR_DUPLICATE_KEY, "duplicate_key", "duplicate map key", 1, 0},
    {CBOR_FAST_ERR_SYNTAX_ERROR, "syntax_error", "syntax error in JSON or diagnostic notation text",
     1, 0},
    {CBOR_FAST_ERR_DEPTH, "depth_exceeded", "maximum nesting depth exceeded", 1, 0},
    {CBOR_FAST_ERR_OUT_OF_MEMORY, "out_of_memory", "out of memory", 1, 0},
    {CBOR_FAST_ERR_TOO_MANY_ITEMS, "too_many_items", "too many data items", 1, 0},
    {CBOR_FAST_ERR_CONTAINER_TOO_LARGE, "container_too_large", "array or map has too many entries",
     1, 0},
    {CBOR_FAST_ERR_STRING_TOO_LONG, "string_too_long", "string longer than the limit", 1, 0},
    {CBOR_FAST_ERR_MEMORY_BUDGET, "memory_budget_exceeded", "memory budget of the decoder exceeded",
     1, 0},
    {CBOR_FAST_ERR_INTERNAL, "internal_error", "internal error", 1, 0},
};

static void test_status_strings(void) {
  size_t i, j;
  const size_t n = sizeof k_statuses / sizeof k_statuses[0];
  for (i = 0; i < n; ++i) {
    const status_row* row = &k_statuses[i];
    CHECK_EQ_STR(cbor_status_name(row->code), row->name);
    CHECK_EQ_STR(cbor_status_string(row->code), row->message);
    CHECK_EQ_INT(cbor_status_is_error(row->code), row->is_error);
    CHECK_EQ_INT(cbor_status_is_malformed(row->code), row->is_malformed);
    for (j = 0; j < i; ++j) CHECK(strcmp(k_statuses[j].name, row->name) != 0);
  }
}

static void test_status_unknown_codes(void) {
  /* Outside every block (codes end at 399): never a code, so "unknown". The
   * values stay inside the enum's range (0..511): a C++ enum may not hold more. */
  static const int outside[] = {400, 401, 450, 511};
  /* Gaps inside the blocks: the predicates go by block, whatever gets named later. */
  static const int in_block[] = {10, 99, 108, 199, 206, 299, 306, 398};
  /* 0-9 are not errors (OK, END, NEED_MORE, and what may be named there later). */
  static const int not_errors[] = {3, 4, 9};
  size_t i;
  for (i = 0; i < sizeof outside / sizeof outside[0]; ++i) {
    const cbor_fast_status s = (cbor_fast_status)outside[i];
    CHECK_EQ_STR(cbor_status_name(s), "unknown");
    CHECK_EQ_STR(cbor_status_string(s), "unknown status");
    CHECK_EQ_INT(cbor_status_is_error(s), 1);
    CHECK_EQ_INT(cbor_status_is_malformed(s), 0);
  }
  for (i = 0; i < sizeof in_block / sizeof in_block[0]; ++i) {
    const cbor_fast_status s = (cbor_fast_status)in_block[i];
    CHECK(cbor_status_name(s) != NULL);
    CHECK(cbor_status_string(s) != NULL);
    CHECK_EQ_INT(cbor_status_is_error(s), 1);
    CHECK_EQ_INT(cbor_status_is_malformed(s), in_block[i] >= 100 && in_block[i] <= 199);
  }
  for (i = 0; i < sizeof not_errors / sizeof not_errors[0]; ++i) {
    const cbor_fast_status s = (cbor_fast_status)not_errors[i];
    CHECK_EQ_STR(cbor_status_name(s), "unknown");
    CHECK_EQ_INT(cbor_status_is_error(s), 0);
  }
  /* Block edges of the malformed predicate. */
  CHECK_EQ_INT(cbor_status_is_malformed((cbor_fast_status)100), 1);
  CHECK_EQ_INT(cbor_status_is_malformed((cbor_fast_status)99), 0);
  CHECK_EQ_INT(cbor_status_is_malformed((cbor_fast_status)200), 0);
}

static void test_version(void) {
  char expected[32];
  CHECK_EQ_UINT(cbor_fast_version(), CBOR_FAST_VERSION);
  CHECK_EQ_UINT(cbor_fast_version(), CBOR_FAST_VERSION_MAJOR * 10000 +
                                         CBOR_FAST_VERSION_MINOR * 100 + CBOR_FAST_VERSION_PATCH);
  CHECK_EQ_STR(cbor_fast_version_string(), CBOR_FAST_VERSION_STRING);
  snprintf(expected, sizeof expected, "%d.%d.%d", CBOR_FAST_VERSION_MAJOR, CBOR_FAST_VERSION_MINOR,
           CBOR_FAST_VERSION_PATCH);
  CHECK_EQ_STR(cbor_fast_version_string(), expected);
}

/* ========================================================================== */
/* Reader                                                                     */
/* ========================================================================== */

static void test_reader_new_and_null_arguments(void) {
  static const uint8_t one[] = {0x01};
  cbor_reader* r = (cbor_reader*)&r; /* not NULL: the call must clear it */
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  const uint8_t* data = one;
  size_t size = 7;

  CHECK_STATUS(cbor_reader_new(NULL, 5, NULL, &r), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(r == NULL);
  CHECK_STATUS(cbor_reader_new(one, 1, NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);

  /* Empty input, NULL allowed: an empty sequence. */
  CHECK_STATUS(cbor_reader_new(NULL, 0, NULL, &r), CBOR_FAST_OK);
  CHECK(r != NULL);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_OK);
  cbor_reader_free(r);
  cbor_reader_free(NULL);

  /* Every call given a NULL reader. */
  CHECK_STATUS(cbor_reader_reset(NULL, one, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_set(NULL, CBOR_FAST_OPT_MAX_DEPTH, 4), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_next(NULL, &it), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_skip(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_skip_to_end(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_join(NULL, &it, &data, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_finish(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_reader_offset(NULL), 0);
  CHECK_EQ_UINT(cbor_reader_depth(NULL), 0);
  CHECK_STATUS(cbor_reader_error(NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);

  /* NULL out-pointers on a real reader; nothing is consumed. */
  r = open_reader(one, 1);
  CHECK_STATUS(cbor_reader_next(r, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_reader_offset(r), 0);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, NULL, &data, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_join(r, &it, NULL, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_join(r, &it, &data, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_reader_free(r);
}

typedef struct scalar_row {
  const char* name;
  cbor_fast_type type;
  uint64_t value;
  size_t offset;
  uint32_t head_size;
  uint32_t float_width;
  double float_value;
} scalar_row;

static void test_reader_scalars(void) {
  static const uint8_t input[] = {
      0x00,                                                 /* 0 */
      0x17,                                                 /* 23 */
      0x18, 0x18,                                           /* 24 */
      0x18, 0xff,                                           /* 255 */
      0x19, 0x01, 0x00,                                     /* 256 */
      0x1a, 0x00, 0x01, 0x00, 0x00,                         /* 65536 */
      0x1b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, /* 2^32 */
      0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* 2^64 - 1 */
      0x20,                                                 /* -1 */
      0x38, 0x63,                                           /* -100 */
      0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* -2^64 */
      0xf4, 0xf5, 0xf6, 0xf7,                               /* false true null undefined */
      0xf0,                                                 /* simple(16) */
      0xf8, 0x20,                                           /* simple(32) */
      0xf8, 0xff,                                           /* simple(255) */
      0xf9, 0x3c, 0x00,                                     /* 1.0 half */
      0xf9, 0x80, 0x00,                                     /* -0.0 half */
      0xfa, 0x47, 0xc3, 0x50, 0x00,                         /* 100000.0 single */
      0xfb, 0x3f, 0xf1, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a, /* 1.1 double */
  };
  static const scalar_row rows[] = {
      {"uint 0", CBOR_FAST_TYPE_UINT, 0, 0, 1, 0, 0.0},
      {"uint 23", CBOR_FAST_TYPE_UINT, 23, 1, 1, 0, 0.0},
      {"uint 24", CBOR_FAST_TYPE_UINT, 24, 2, 2, 0, 0.0},
      {"uint 255", CBOR_FAST_TYPE_UINT, 255, 4, 2, 0, 0.0},
      {"uint 256", CBOR_FAST_TYPE_UINT, 256, 6, 3, 0, 0.0},
      {"uint 65536", CBOR_FAST_TYPE_UINT, 65536, 9, 5, 0, 0.0},
      {"uint 2^32", CBOR_FAST_TYPE_UINT, UINT64_C(4294967296), 14, 9, 0, 0.0},
      {"uint max", CBOR_FAST_TYPE_UINT, UINT64_MAX, 23, 9, 0, 0.0},
      {"-1", CBOR_FAST_TYPE_NEGATIVE, 0, 32, 1, 0, 0.0},
      {"-100", CBOR_FAST_TYPE_NEGATIVE, 99, 33, 2, 0, 0.0},
      {"-2^64", CBOR_FAST_TYPE_NEGATIVE, UINT64_MAX, 35, 9, 0, 0.0},
      {"false", CBOR_FAST_TYPE_BOOL, 20, 44, 1, 0, 0.0},
      {"true", CBOR_FAST_TYPE_BOOL, 21, 45, 1, 0, 0.0},
      {"null", CBOR_FAST_TYPE_NULL, 22, 46, 1, 0, 0.0},
      {"undefined", CBOR_FAST_TYPE_UNDEFINED, 23, 47, 1, 0, 0.0},
      {"simple 16", CBOR_FAST_TYPE_SIMPLE, 16, 48, 1, 0, 0.0},
      {"simple 32", CBOR_FAST_TYPE_SIMPLE, 32, 49, 2, 0, 0.0},
      {"simple 255", CBOR_FAST_TYPE_SIMPLE, 255, 51, 2, 0, 0.0},
      {"half 1.0", CBOR_FAST_TYPE_FLOAT, 0x3c00, 53, 3, 2, 1.0},
      {"half -0.0", CBOR_FAST_TYPE_FLOAT, 0x8000, 56, 3, 2, -0.0},
      {"single 100000", CBOR_FAST_TYPE_FLOAT, 0x47c35000, 59, 5, 4, 100000.0},
      {"double 1.1", CBOR_FAST_TYPE_FLOAT, UINT64_C(0x3ff199999999999a), 64, 9, 8, 1.1},
  };
  size_t i;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_reader* r = open_reader(input, sizeof input);
  for (i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    const scalar_row* row = &rows[i];
    check_current_ = row->name;
    CHECK_EQ_UINT(cbor_reader_offset(r), row->offset);
    CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
    CHECK_ITEM(it, row->type, row->value, row->offset, row->head_size, 0, 0);
    CHECK_EQ_UINT(it.float_width, row->float_width);
    CHECK(it.float_value == row->float_value);
    CHECK(!signbit(it.float_value) == !signbit(row->float_value));
    CHECK(it.data == NULL);
    CHECK_EQ_UINT(it.size, 0);
    CHECK_EQ_UINT(it.struct_size, sizeof(cbor_fast_item)); /* never overwritten */
  }
  check_current_ = "test_reader_scalars";
  CHECK_EQ_UINT(cbor_reader_offset(r), sizeof input);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_error(r, NULL), CBOR_FAST_OK);
  cbor_reader_free(r);
}

static void test_reader_strings(void) {
  /* h'010203', "", "aaaa...a" (24 bytes: the first length with a 1-byte argument) */
  uint8_t input[4 + 1 + 2 + 24];
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_reader* r;
  input[0] = 0x43;
  input[1] = 1;
  input[2] = 2;
  input[3] = 3;
  input[4] = 0x60;
  input[5] = 0x78;
  input[6] = 24;
  memset(input + 7, 'a', 24);
  r = open_reader(input, sizeof input);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_BYTES, 3, 0, 1, 0, 0);
  CHECK(it.data == input + 1); /* a view into the input, not a copy */
  CHECK_EQ_UINT(it.size, 3);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_TEXT, 0, 4, 1, 0, 0);
  CHECK(it.data == input + 5);
  CHECK_EQ_UINT(it.size, 0);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_TEXT, 24, 5, 2, 0, 0);
  CHECK(it.data == input + 7);
  CHECK_EQ_UINT(it.size, 24);
  CHECK_EQ_UINT(it.float_width, 0);
  CHECK(it.float_value == 0.0);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);
  cbor_reader_free(r);
}

static void test_reader_containers(void) {
  /* [1, {"a": 2}] then [_ 3] then 1(1363896240) then (_ h'0102', h'03') */
  static const uint8_t input[] = {0x82, 0x01, 0xa1, 0x61, 0x61, 0x02,        /* 0..5 */
                                  0x9f, 0x03, 0xff,                          /* 6..8 */
                                  0xc1, 0x1a, 0x51, 0x4b, 0x67, 0xb0,        /* 9..14 */
                                  0x5f, 0x42, 0x01, 0x02, 0x41, 0x03, 0xff}; /* 15..21 */
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_reader* r = open_reader(input, sizeof input);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_ARRAY, 2, 0, 1, 0, 0);
  CHECK_EQ_UINT(cbor_reader_depth(r), 1);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 1, 1, 1, 1, 0);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_MAP, 1, 2, 1, 1, 0);
  CHECK_EQ_UINT(cbor_reader_depth(r), 2);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_TEXT, 1, 3, 1, 2, 0);
  CHECK_EQ_BYTES(it.data, it.size, "a", 1);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 2, 5, 1, 2, 0);
  /* Definite ends: at the position after the last child, no head, no flags. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_END, 0, 6, 0, 1, 0);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_END, 0, 6, 0, 0, 0);
  CHECK_EQ_UINT(cbor_reader_depth(r), 0);

  /* Indefinite array: the END consumed the break. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_ARRAY, 0, 6, 1, 0, CBOR_FAST_ITEM_INDEFINITE);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 3, 7, 1, 1, 0);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_END, 0, 8, 1, 0, CBOR_FAST_ITEM_INDEFINITE | CBOR_FAST_ITEM_BREAK);

  /* A tag and its one content item; no END for tags. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_TAG, 1, 9, 1, 0, 0);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 1363896240, 10, 5, 1, 0);

  /* Indefinite byte string: start (no view), chunks one level down, END. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_BYTES, 0, 15, 1, 0, CBOR_FAST_ITEM_INDEFINITE);
  CHECK(it.data == NULL);
  CHECK_EQ_UINT(it.size, 0);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_BYTES, 2, 16, 1, 1, 0);
  CHECK(it.data == input + 17);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_BYTES, 1, 19, 1, 1, 0);
  CHECK_EQ_BYTES(it.data, it.size, "\x03", 1);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_END, 0, 21, 1, 0, CBOR_FAST_ITEM_INDEFINITE | CBOR_FAST_ITEM_BREAK);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);
  CHECK_EQ_UINT(cbor_reader_offset(r), sizeof input);
  cbor_reader_free(r);
}

static void test_reader_item_struct_size(void) {
  static const uint8_t input[] = {0x18, 0x2a, 0x01};
  struct {
    cbor_fast_item item;
    unsigned char tail[16]; /* what a newer, longer layout would add */
  } big;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_reader* r = open_reader(input, sizeof input);
  size_t i;

  /* 0 means the 0.1 layout: accepted and filled. */
  it.struct_size = 0;
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 42, 0, 2, 0, 0);
  CHECK_EQ_UINT(it.struct_size, 0);

  /* Smaller than any layout: refused, nothing consumed, nothing written. */
  it = blank_item();
  it.struct_size = 4;
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_INT(it.type, CBOR_FAST_TYPE_NONE);
  CHECK_EQ_UINT(cbor_reader_offset(r), 2);
  it.struct_size = (uint32_t)sizeof(cbor_fast_item) - 1;
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_INVALID_ARGUMENT);
  /* Not sticky: a usage error is not the input's fault. */
  CHECK_STATUS(cbor_reader_error(r, NULL), CBOR_FAST_OK);

  /* Longer than this version's: the known fields are filled, the rest untouched. */
  memset(&big, 0xab, sizeof big);
  big.item.struct_size = (uint32_t)sizeof big;
  CHECK_STATUS(cbor_reader_next(r, &big.item), CBOR_FAST_OK);
  CHECK_ITEM(big.item, CBOR_FAST_TYPE_UINT, 1, 2, 1, 0, 0);
  CHECK_EQ_UINT(big.item.struct_size, sizeof big);
  for (i = 0; i < sizeof big.tail; ++i) CHECK_EQ_UINT(big.tail[i], 0xab);

  /* A failed next leaves the caller's item as it was. */
  it = big.item;
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 1, 2, 1, 0, 0);
  cbor_reader_free(r);
}

static void test_reader_join(void) {
  /* (_ "he", "llo"), "xy", (_ ), [ (_ h'01', h'0203') ], 5 */
  static const uint8_t input[] = {0x7f, 0x62, 'h',  'e',  0x63, 'l',  'l',  'o',  0xff, /* 0..8 */
                                  0x62, 'x',  'y',                                      /* 9..11 */
                                  0x5f, 0xff,                                           /* 12..13 */
                                  0x81, 0x5f, 0x41, 0x01, 0x42, 0x02, 0x03, 0xff,       /* 14..21 */
                                  0x05};                                                /* 22 */
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_item first;
  const uint8_t* data = NULL;
  size_t size = 0;
  cbor_reader* r = open_reader(input, sizeof input);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_TEXT, 0, 0, 1, 0, CBOR_FAST_ITEM_INDEFINITE);
  CHECK_EQ_UINT(cbor_reader_depth(r), 1);
  CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, "hello", 5);
  /* The chunks and the break are consumed. */
  CHECK_EQ_UINT(cbor_reader_offset(r), 9);
  CHECK_EQ_UINT(cbor_reader_depth(r), 0);
  first = it;

  /* A definite string: its view into the input, no copy. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), CBOR_FAST_OK);
  CHECK(data == input + 10);
  CHECK_EQ_BYTES(data, size, "xy", 2);
  CHECK_EQ_UINT(cbor_reader_offset(r), 12);

  /* An empty indefinite string joins to zero bytes at a valid pointer. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), CBOR_FAST_OK);
  CHECK(data != NULL);
  CHECK_EQ_UINT(size, 0);
  CHECK_EQ_UINT(cbor_reader_offset(r), 14);

  /* Not a string: the array start. Nothing consumed. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_INT(it.type, CBOR_FAST_TYPE_ARRAY);
  data = input;
  size = 99;
  CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), CBOR_FAST_ERR_INVALID_STATE);
  CHECK(data == NULL);
  CHECK_EQ_UINT(size, 0);
  CHECK_EQ_UINT(cbor_reader_offset(r), 15);

  /* Inside the array, one level down. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_BYTES, 0, 15, 1, 1, CBOR_FAST_ITEM_INDEFINITE);
  CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, "\x01\x02\x03", 3);
  CHECK_EQ_UINT(cbor_reader_depth(r), 1);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_END, 0, 22, 0, 0, 0);

  /* A stale start item whose string is long gone: not a string start just read. */
  CHECK_STATUS(cbor_reader_join(r, &first, &data, &size), CBOR_FAST_ERR_INVALID_STATE);

  /* An END item is no string either. */
  CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), CBOR_FAST_ERR_INVALID_STATE);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 5, 22, 1, 0, 0);
  cbor_reader_free(r);
}

static void test_reader_join_errors(void) {
  /* (_ h'00', "a"): a text chunk in a byte string, found by the join. */
  static const uint8_t bad_chunk[] = {0x5f, 0x41, 0x00, 0x61, 0x61, 0xff};
  /* (_ "a" then the input ends. */
  static const uint8_t open[] = {0x7f, 0x61, 0x61};
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  const uint8_t* data = NULL;
  size_t size = 0;
  cbor_reader* r = open_reader(bad_chunk, sizeof bad_chunk);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), CBOR_FAST_ERR_CHUNK_TYPE);
  CHECK(data == NULL);
  CHECK_EQ_UINT(size, 0);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_CHUNK_TYPE);
  CHECK_EQ_UINT(e.offset, 3);
  CHECK_EQ_UINT(e.depth, 1);
  /* Sticky, for join too. */
  CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), CBOR_FAST_ERR_CHUNK_TYPE);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_CHUNK_TYPE);

  CHECK_STATUS(cbor_reader_reset(r, open, sizeof open), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), CBOR_FAST_ERR_TRUNCATED);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_TRUNCATED);
  CHECK_EQ_UINT(e.offset, 3);
  CHECK_EQ_UINT(e.item_offset, 0);
  cbor_reader_free(r);
}

static void test_reader_skip(void) {
  /* [1, [2, 3]], 4, [] */
  static const uint8_t input[] = {0x82, 0x01, 0x82, 0x02, 0x03, 0x04, 0x80};
  /* [1, [2, 3], 4], 5 */
  static const uint8_t nested[] = {0x83, 0x01, 0x82, 0x02, 0x03, 0x04, 0x05};
  /* 1(2), 7 */
  static const uint8_t tagged[] = {0xc1, 0x02, 0x07};
  /* [_ 1, 2, ... and no break */
  static const uint8_t open[] = {0x9f, 0x01, 0x02};
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_reader* r = open_reader(input, sizeof input);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK); /* [ */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK); /* 1 */
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK);      /* [2, 3] whole */
  CHECK_EQ_UINT(cbor_reader_offset(r), 5);
  CHECK_EQ_UINT(cbor_reader_depth(r), 1);
  /* At the end of the outer array: nothing to skip, nothing consumed. */
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_ERR_INVALID_STATE);
  CHECK_EQ_UINT(cbor_reader_offset(r), 5);
  CHECK_STATUS(cbor_reader_error(r, NULL), CBOR_FAST_OK); /* not sticky */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_END, 0, 5, 0, 0, 0);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK); /* 4 */
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK); /* [] with its END */
  CHECK_EQ_UINT(cbor_reader_offset(r), 7);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_END);
  /* At the top level there is no container to finish. */
  CHECK_STATUS(cbor_reader_skip_to_end(r), CBOR_FAST_ERR_INVALID_STATE);

  CHECK_STATUS(cbor_reader_reset(r, nested, sizeof nested), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK); /* [ */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK); /* 1 */
  CHECK_STATUS(cbor_reader_skip_to_end(r), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_reader_offset(r), 6);
  CHECK_EQ_UINT(cbor_reader_depth(r), 0);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 5, 6, 1, 0, 0);

  /* A tag counts as open until its content is read. */
  CHECK_STATUS(cbor_reader_reset(r, tagged, sizeof tagged), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_INT(it.type, CBOR_FAST_TYPE_TAG);
  CHECK_STATUS(cbor_reader_skip_to_end(r), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_reader_offset(r), 2);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 7, 2, 1, 0, 0);

  /* Errors found while skipping are reported and sticky. */
  CHECK_STATUS(cbor_reader_reset(r, open, sizeof open), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_ERR_TRUNCATED);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_TRUNCATED);
  CHECK_EQ_UINT(e.offset, 3);
  CHECK_EQ_UINT(e.depth, 1);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_ERR_TRUNCATED);
  CHECK_STATUS(cbor_reader_skip_to_end(r), CBOR_FAST_ERR_TRUNCATED);
  CHECK_STATUS(cbor_reader_reset(r, open, sizeof open), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip_to_end(r), CBOR_FAST_ERR_TRUNCATED);
  cbor_reader_free(r);
}

typedef struct malformed_row {
  const char* name;
  const char* input;
  size_t size;
  uint32_t max_depth; /* 0: default */
  int validate_utf8;
  cbor_fast_status code;
  size_t offset;
  size_t item_offset;
  uint32_t depth;
} malformed_row;

static void test_reader_errors(void) {
  static const malformed_row rows[] = {
      {"truncated head", "\x01\x19\x01", 3, 0, 0, CBOR_FAST_ERR_TRUNCATED, 1, 1, 0},
      {"truncated string", "\x62\x61", 2, 0, 0, CBOR_FAST_ERR_TRUNCATED, 0, 0, 0},
      {"count beyond input", "\x00\x84\x01\x02", 4, 0, 0, CBOR_FAST_ERR_TRUNCATED, 1, 1, 0},
      {"open at end", "\x9f\x01", 2, 0, 0, CBOR_FAST_ERR_TRUNCATED, 2, 0, 1},
      {"reserved ai 28", "\x1c", 1, 0, 0, CBOR_FAST_ERR_RESERVED_AI, 0, 0, 0},
      {"reserved ai 30 nested", "\x81\x5e", 2, 0, 0, CBOR_FAST_ERR_RESERVED_AI, 1, 0, 1},
      {"indefinite uint", "\x1f", 1, 0, 0, CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED, 0, 0, 0},
      {"indefinite tag", "\x01\xdf", 2, 0, 0, CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED, 1, 1, 0},
      {"simple 31 in two bytes", "\xf8\x1f", 2, 0, 0, CBOR_FAST_ERR_BAD_SIMPLE, 0, 0, 0},
      {"text chunk in bytes", "\x5f\x61\x61\xff", 4, 0, 0, CBOR_FAST_ERR_CHUNK_TYPE, 1, 0, 1},
      {"nested indefinite chunk", "\x7f\x7f\xff\xff", 4, 0, 0, CBOR_FAST_ERR_NESTED_CHUNK, 1, 0, 1},
      {"break at top", "\x00\xff", 2, 0, 0, CBOR_FAST_ERR_UNEXPECTED_BREAK, 1, 1, 0},
      {"break in definite", "\x81\xff", 2, 0, 0, CBOR_FAST_ERR_UNEXPECTED_BREAK, 1, 0, 1},
      {"map missing value", "\xbf\x01\xff", 3, 0, 0, CBOR_FAST_ERR_MAP_MISSING_VALUE, 2, 0, 1},
      {"utf8 lone continuation", "\x63\x61\x80\x62", 4, 0, 1, CBOR_FAST_ERR_INVALID_UTF8, 2, 0, 0},
      {"utf8 in second item", "\x00\x82\x00\x62\xc3\x28", 6, 0, 1, CBOR_FAST_ERR_INVALID_UTF8, 4, 1,
       1},
      {"depth 2 of 2 exceeded", "\x81\x81\x81\x00", 4, 2, 0, CBOR_FAST_ERR_DEPTH, 2, 0, 2},
      {"tag counts as a level", "\x81\xc1\x00", 3, 1, 0, CBOR_FAST_ERR_DEPTH, 1, 0, 1},
      {"item offset in a sequence", "\x01\x02\x82\x01\x1c", 5, 0, 0, CBOR_FAST_ERR_RESERVED_AI, 4,
       2, 1},
  };
  size_t i;
  for (i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    const malformed_row* row = &rows[i];
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    cbor_fast_status s;
    const uint8_t* data = NULL;
    size_t size = 0;
    int guard = 0;
    cbor_reader* r = open_reader((const uint8_t*)row->input, row->size);
    check_current_ = row->name;
    if (row->max_depth != 0)
      CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, row->max_depth), CBOR_FAST_OK);
    if (row->validate_utf8)
      CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8, 1), CBOR_FAST_OK);
    while ((s = cbor_reader_next(r, &it)) == CBOR_FAST_OK && guard++ < 100) {}
    CHECK_STATUS(s, row->code);
    e.message = NULL;
    CHECK_STATUS(cbor_reader_error(r, &e), row->code);
    CHECK_EQ_UINT(e.struct_size, sizeof(cbor_fast_error));
    CHECK_STATUS(e.code, row->code);
    CHECK_EQ_UINT(e.offset, row->offset);
    CHECK_EQ_UINT(e.item_offset, row->item_offset);
    CHECK_EQ_UINT(e.depth, row->depth);
    CHECK_EQ_STR(e.message, cbor_status_string(row->code));
    /* Sticky for every reading call. */
    CHECK_STATUS(cbor_reader_next(r, &it), row->code);
    CHECK_STATUS(cbor_reader_skip(r), row->code);
    CHECK_STATUS(cbor_reader_skip_to_end(r), row->code);
    CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), row->code);
    CHECK_STATUS(cbor_reader_finish(r), row->code);
    /* reset clears it. */
    CHECK_STATUS(cbor_reader_reset(r, NULL, 0), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_OK);
    CHECK_STATUS(e.code, CBOR_FAST_OK);
    CHECK_EQ_UINT(e.offset, 0);
    CHECK_EQ_STR(e.message, "success");
    CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);
    cbor_reader_free(r);
  }
  check_current_ = "test_reader_errors";
}

static void test_reader_error_struct(void) {
  static const uint8_t input[] = {0x01, 0x82, 0x01, 0xff}; /* 1, [1, break */
  struct {
    cbor_fast_error error;
    unsigned char tail[16];
  } big;
  cbor_fast_error e;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  size_t i;
  cbor_reader* r = open_reader(input, sizeof input);
  while (cbor_reader_next(r, &it) == CBOR_FAST_OK) {}

  /* struct_size 0: the 0.1 layout, every field. */
  memset(&e, 0, sizeof e);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK_EQ_UINT(e.struct_size, 0);
  CHECK_STATUS(e.code, CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK_EQ_UINT(e.offset, 3);
  CHECK_EQ_UINT(e.item_offset, 1);
  CHECK_EQ_UINT(e.depth, 1);
  CHECK_EQ_STR(e.message, "break outside an indefinite-length item");

  /* A size too small for even `code` is no version's struct: refused, nothing
   * written (the sticky error stays for a correct call). */
  memset(&e, 0x5a, sizeof e);
  e.struct_size = 4;
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(e.struct_size, 4);
  CHECK_EQ_UINT(e.offset, (size_t)0x5a5a5a5a5a5a5a5aULL);
  CHECK_EQ_UINT(e.depth, 0x5a5a5a5aU);

  /* A struct from a newer header: our fields filled, its tail untouched. */
  memset(&big, 0x77, sizeof big);
  big.error.struct_size = (uint32_t)sizeof big;
  CHECK_STATUS(cbor_reader_error(r, &big.error), CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK_EQ_UINT(big.error.offset, 3);
  CHECK_EQ_UINT(big.error.item_offset, 1);
  CHECK_EQ_UINT(big.error.depth, 1);
  CHECK(big.error.message != NULL);
  for (i = 0; i < sizeof big.tail; ++i) CHECK_EQ_UINT(big.tail[i], 0x77);

  /* A NULL reader still explains itself. */
  e.struct_size = sizeof e;
  e.message = NULL;
  CHECK_STATUS(cbor_reader_error(NULL, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(e.code, CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(e.offset, 0);
  CHECK_EQ_STR(e.message, "invalid argument");
  cbor_reader_free(r);
}

/* The three size limits, each with its own status and the offending head's offset. */
static void test_reader_limits(void) {
  static const uint8_t strings[] = {0x62, 'a', 'b', 0x63, 'a', 'b', 'c'};
  static const uint8_t arrays[] = {0x82, 0x01, 0x02, 0x9f, 0x01, 0x02, 0x03, 0xff};
  static const uint8_t items[] = {0x01, 0x02, 0x03};
  static const uint8_t pair[] = {0x82, 0x01, 0x02};
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_reader* r = open_reader(strings, sizeof strings);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_STRING_LENGTH, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_STRING_TOO_LONG);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_STRING_TOO_LONG);
  CHECK_EQ_UINT(e.offset, 3);

  CHECK_STATUS(cbor_reader_reset(r, arrays, sizeof arrays), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_ERR_CONTAINER_TOO_LARGE);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_CONTAINER_TOO_LARGE);
  CHECK_EQ_UINT(e.offset, 6);

  /* max_items bounds each top-level item: 1 2 3 passes with 1; [1, 2] is
   * three heads, so with 2 its third (2, at offset 2) fails. */
  CHECK_STATUS(cbor_reader_reset(r, items, sizeof items), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, UINT64_MAX), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);
  CHECK_STATUS(cbor_reader_reset(r, pair, sizeof pair), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_TOO_MANY_ITEMS);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_TOO_MANY_ITEMS);
  CHECK_EQ_UINT(e.offset, 2);
  cbor_reader_free(r);
}

/* Options changed between items, far from the end of the input, where
 * cbor_reader_next reads items inline: each change must reach that path. */
static void test_reader_options_mid_stream(void) {
  uint8_t data[40] = {0};
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_reader* r;
  uint8_t i;
  /* An indefinite array of 0, 1, ... 18, then zeros: max_items bounds the
   * heads of this one top-level item. */
  data[0] = 0x9f;
  for (i = 1; i < 20; ++i) data[i] = (uint8_t)(i - 1);
  r = open_reader(data, sizeof data);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, 3), CBOR_FAST_OK); /* one more */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_UINT(it.value, 1);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_TOO_MANY_ITEMS);
  CHECK_EQ_UINT(it.value, 1); /* a failed call leaves the item as it was */
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_TOO_MANY_ITEMS);
  CHECK_EQ_UINT(e.offset, 3);
  CHECK_EQ_UINT(cbor_reader_offset(r), 3);

  /* Duplicate keys rejected from the second map on: its repeated key is
   * found, though the first map was read inline. [{1: 2}, {1: 2, 1: 3}] */
  {
    static const uint8_t maps[] = {0x82, 0xa1, 0x01, 0x02, 0xa2, 0x01, 0x02, 0x01, 0x03,
                                   0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    CHECK_STATUS(cbor_reader_reset(r, maps, sizeof maps), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, UINT64_MAX), CBOR_FAST_OK);
    for (i = 0; i < 5; ++i) CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
    CHECK_EQ_UINT(it.type, CBOR_FAST_TYPE_END);
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 1), CBOR_FAST_OK);
    for (i = 0; i < 3; ++i) CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_DUPLICATE_KEY);
    CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_DUPLICATE_KEY);
    CHECK_EQ_UINT(e.offset, 7);
  }
  cbor_reader_free(r);
}

static void test_reader_options(void) {
  static const uint8_t bad_text[] = {0x62, 0xc3, 0x28}; /* "\xc3(" */
  static const uint8_t two_deep[] = {0x81, 0x81, 0x00};
  static const uint8_t empty_array[] = {0x80};
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_reader* r = open_reader(bad_text, sizeof bad_text);

  /* Unknown options and values out of range. */
  CHECK_STATUS(cbor_reader_set(r, (cbor_fast_option)0, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_set(r, (cbor_fast_option)9, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, UINT64_C(0x100000000)),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, UINT32_MAX), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8, 2), CBOR_FAST_ERR_INVALID_ARGUMENT);

  /* UTF-8 is not checked by default... */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_BYTES(it.data, it.size, "\xc3\x28", 2);
  /* ... but is once asked, and the option survives reset. */
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_reset(r, bad_text, sizeof bad_text), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_INVALID_UTF8);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_INVALID_UTF8);
  CHECK_EQ_UINT(e.offset, 1);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_reset(r, bad_text, sizeof bad_text), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);

  /* Max depth may not drop below the current depth. */
  CHECK_STATUS(cbor_reader_reset(r, two_deep, sizeof two_deep), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_reader_depth(r), 2);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 0, 2, 1, 2, 0);

  /* Max depth 1: containers of scalars; 0 is the default (512, since 0.5;
   * before, 0 allowed scalars only). */
  CHECK_STATUS(cbor_reader_reset(r, two_deep, sizeof two_deep), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_DEPTH);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(e.offset, 1);
  CHECK_STATUS(cbor_reader_reset(r, empty_array, sizeof empty_array), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_INT(it.type, CBOR_FAST_TYPE_ARRAY);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_INT(it.type, CBOR_FAST_TYPE_END);
  CHECK_STATUS(cbor_reader_reset(r, bad_text, sizeof bad_text), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  cbor_reader_free(r);
}

static void test_reader_default_depth_boundary(void) {
  /* 512 nested one-item arrays around 0 are fine by default; 513 are not. */
  enum { n = 513 };
  uint8_t input[n + 1];
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_reader* r;
  memset(input, 0x81, n);
  input[n] = 0x00;

  r = open_reader(input + 1, n); /* 512 arrays, then 0 */
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_OK);
  cbor_reader_free(r);

  r = open_reader(input, n + 1);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_ERR_DEPTH);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(e.offset, 512);
  CHECK_EQ_UINT(e.depth, 512);
  cbor_reader_free(r);
}

static void test_reader_finish(void) {
  static const uint8_t two[] = {0x01, 0x02};
  static const uint8_t open_input_left[] = {0x82, 0x01, 0x02};
  static const uint8_t open_at_end[] = {0x9f, 0x01};
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_reader* r = open_reader(two, sizeof two);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_ERR_TRAILING_BYTES);
  /* Not sticky: the caller may go on reading. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_UINT(it.value, 2);
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_OK);

  CHECK_STATUS(cbor_reader_reset(r, open_input_left, sizeof open_input_left), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_ERR_INVALID_STATE);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK); /* END */
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_OK);

  CHECK_STATUS(cbor_reader_reset(r, open_at_end, sizeof open_at_end), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_ERR_TRUNCATED);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_TRUNCATED);
  CHECK_EQ_UINT(e.offset, 2);
  CHECK_EQ_UINT(e.depth, 1);
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_ERR_TRUNCATED);
  cbor_reader_free(r);
}

static void test_reader_reset(void) {
  static const uint8_t first[] = {0x01};
  static const uint8_t second[] = {0x18, 0x64, 0x02};
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_reader* r = open_reader(first, sizeof first);

  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  /* Bad arguments leave the reader where it was. */
  CHECK_STATUS(cbor_reader_reset(r, NULL, 3), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_reader_offset(r), 1);
  CHECK_STATUS(cbor_reader_error(r, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);

  CHECK_STATUS(cbor_reader_reset(r, second, sizeof second), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_reader_offset(r), 0);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 100, 0, 2, 0, 0);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_UINT, 2, 2, 1, 0, 0);
  CHECK_STATUS(cbor_reader_reset(r, NULL, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_END);
  cbor_reader_free(r);
}

/* Reads every item; CBOR_FAST_OK at the end of input. (Not cbor_reader_skip:
 * its fused loop keeps shallow levels off the heap stack.) */
static cbor_fast_status read_all_items(cbor_reader* r) {
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_status s;
  while ((s = cbor_reader_next(r, &it)) == CBOR_FAST_OK) {}
  return s == CBOR_FAST_END ? CBOR_FAST_OK : s;
}

static void test_reader_allocator(void) {
  /* 20 nested arrays: the reader holds 8 levels itself, then the stack
     starts with 16 frames and grows once. */
  uint8_t deep[21];
  int level;
  test_heap heap;
  cbor_fast_allocator hooks = heap_hooks(&heap);
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_reader* r = (cbor_reader*)&r;
  memset(deep, 0x81, 20);
  deep[20] = 0x00;

  /* Everything goes through the hooks and comes back. */
  heap_init(&heap, -1);
  CHECK_STATUS(cbor_reader_new(deep, sizeof deep, &hooks, &r), CBOR_FAST_OK);
  CHECK_EQ_UINT(heap.live, 1); /* the handle */
  CHECK_STATUS(read_all_items(r), CBOR_FAST_OK);
  CHECK_EQ_UINT(heap.live, 2); /* + the nesting stack */
  CHECK(heap.calls >= 3);      /* handle, stack, one growth */
  cbor_reader_free(r);
  CHECK_HEAP_CLEAN(&heap);

  /* The handle itself cannot be allocated. */
  heap_init(&heap, 0);
  r = (cbor_reader*)&r;
  CHECK_STATUS(cbor_reader_new(deep, sizeof deep, &hooks, &r), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK(r == NULL);
  CHECK_HEAP_CLEAN(&heap);

  /* The first stack allocation fails: sticky, at the 9th array's head (the
     first 8 levels need no allocation). */
  heap_init(&heap, 1);
  CHECK_STATUS(cbor_reader_new(deep, sizeof deep, &hooks, &r), CBOR_FAST_OK);
  for (level = 0; level < 8; ++level) CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_UINT(heap.live, 1); /* the handle only */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK_EQ_UINT(e.offset, 8);
  CHECK_EQ_UINT(e.depth, 8);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_OUT_OF_MEMORY);
  cbor_reader_free(r);
  CHECK_HEAP_CLEAN(&heap);

  /* The growth (a realloc) fails at the 17th level. */
  heap_init(&heap, 2);
  CHECK_STATUS(cbor_reader_new(deep, sizeof deep, &hooks, &r), CBOR_FAST_OK);
  CHECK_STATUS(read_all_items(r), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK_EQ_UINT(e.offset, 16);
  CHECK_EQ_UINT(e.depth, 16);
  cbor_reader_free(r);
  CHECK_HEAP_CLEAN(&heap);

  /* Every failure point in turn: never a leak, never a crash. */
  {
    long fail_at;
    for (fail_at = 0; fail_at < 4; ++fail_at) {
      cbor_fast_status s;
      heap_init(&heap, fail_at);
      r = NULL;
      s = cbor_reader_new(deep, sizeof deep, &hooks, &r);
      if (s == CBOR_FAST_OK) {
        s = read_all_items(r);
        CHECK(s == CBOR_FAST_OK || s == CBOR_FAST_ERR_OUT_OF_MEMORY);
        CHECK_EQ_INT(s == CBOR_FAST_OK, fail_at >= 3);
      }
      cbor_reader_free(r);
      CHECK_HEAP_CLEAN(&heap);
    }
  }
}

/* ========================================================================== */
/* Writer                                                                     */
/* ========================================================================== */

static void test_writer_new_and_null_arguments(void) {
  static const uint8_t mag[] = {1};
  uint8_t buf[4];
  cbor_writer* w = (cbor_writer*)&w;
  const uint8_t* data = buf;
  size_t size = 9;

  CHECK_STATUS(cbor_writer_new(NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_new_buffer(buf, sizeof buf, NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_new_buffer(NULL, 1, NULL, &w), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(w == NULL);
  w = (cbor_writer*)&w;
  CHECK_STATUS(cbor_writer_new_sink(NULL, NULL, 0, NULL, &w), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(w == NULL);
  cbor_writer_free(NULL);

  CHECK_STATUS(cbor_writer_reset(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_uint(NULL, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_int(NULL, -1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_negative(NULL, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_bignum(NULL, mag, 1, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_bytes(NULL, mag, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_text(NULL, "a", 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_text(NULL, NULL, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_tag(NULL, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_bool(NULL, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_null(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_undefined(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_simple(NULL, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_float(NULL, 1.0, CBOR_FAST_FLOAT_SHORTEST),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_array(NULL, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_array_indefinite(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_map(NULL, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_map_indefinite(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_bytes_indefinite(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_text_indefinite(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_end(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_finish(NULL, &data, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(data == NULL);
  CHECK_EQ_UINT(size, 0);
  CHECK_STATUS(cbor_writer_finish(NULL, NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_writer_size(NULL), 0);

  /* NULL data with a size: refused, not sticky, nothing written. */
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bytes(w, NULL, 3), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_text(w, NULL, 3), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_bignum(w, NULL, 3, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_writer_size(w), 0);
  CHECK_STATUS(cbor_writer_bytes(w, NULL, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, NULL, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bignum(w, NULL, 0, 0), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\x40\x60\x00");
  cbor_writer_free(w);
}

static void test_writer_integers(void) {
  static const uint8_t two64[] = {0x01, 0, 0, 0, 0, 0, 0, 0, 0};
  static const uint8_t max64[] = {0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  /* Head size boundaries: 23/24, 255/256, 65535/65536, 2^32 - 1/2^32. */
  CHECK_WRITES(cbor_writer_uint(w, 0), "\x00");
  CHECK_WRITES(cbor_writer_uint(w, 23), "\x17");
  CHECK_WRITES(cbor_writer_uint(w, 24), "\x18\x18");
  CHECK_WRITES(cbor_writer_uint(w, 255), "\x18\xff");
  CHECK_WRITES(cbor_writer_uint(w, 256), "\x19\x01\x00");
  CHECK_WRITES(cbor_writer_uint(w, 65535), "\x19\xff\xff");
  CHECK_WRITES(cbor_writer_uint(w, 65536), "\x1a\x00\x01\x00\x00");
  CHECK_WRITES(cbor_writer_uint(w, UINT32_MAX), "\x1a\xff\xff\xff\xff");
  CHECK_WRITES(cbor_writer_uint(w, UINT64_C(4294967296)), "\x1b\x00\x00\x00\x01\x00\x00\x00\x00");
  CHECK_WRITES(cbor_writer_uint(w, UINT64_MAX), "\x1b\xff\xff\xff\xff\xff\xff\xff\xff");

  CHECK_WRITES(cbor_writer_int(w, 0), "\x00");
  CHECK_WRITES(cbor_writer_int(w, 100), "\x18\x64");
  CHECK_WRITES(cbor_writer_int(w, -1), "\x20");
  CHECK_WRITES(cbor_writer_int(w, -24), "\x37");
  CHECK_WRITES(cbor_writer_int(w, -25), "\x38\x18");
  CHECK_WRITES(cbor_writer_int(w, INT64_MAX), "\x1b\x7f\xff\xff\xff\xff\xff\xff\xff");
  CHECK_WRITES(cbor_writer_int(w, INT64_MIN), "\x3b\x7f\xff\xff\xff\xff\xff\xff\xff");

  CHECK_WRITES(cbor_writer_negative(w, 0), "\x20");
  CHECK_WRITES(cbor_writer_negative(w, 999), "\x39\x03\xe7");
  CHECK_WRITES(cbor_writer_negative(w, UINT64_MAX), "\x3b\xff\xff\xff\xff\xff\xff\xff\xff");

  /* Bignums: leading zeros dropped, 64-bit values as plain integers. */
  CHECK_WRITES(cbor_writer_bignum(w, max64 + 8, 2, 0), "\x19\xff\xff");
  CHECK_WRITES(cbor_writer_bignum(w, max64, sizeof max64, 0),
               "\x1b\xff\xff\xff\xff\xff\xff\xff\xff");
  CHECK_WRITES(cbor_writer_bignum(w, max64, sizeof max64, 1),
               "\x3b\xff\xff\xff\xff\xff\xff\xff\xff");
  CHECK_WRITES(cbor_writer_bignum(w, two64, sizeof two64, 0),
               "\xc2\x49\x01\x00\x00\x00\x00\x00\x00\x00\x00");
  CHECK_WRITES(cbor_writer_bignum(w, two64, sizeof two64, 7),
               "\xc3\x49\x01\x00\x00\x00\x00\x00\x00\x00\x00");
}

static void test_writer_strings_and_simple(void) {
  char long_text[25];
  cbor_writer* w = NULL;
  memset(long_text, 'z', 24);
  long_text[24] = 0;

  CHECK_WRITES(cbor_writer_bytes(w, "\x01\x02\x03\x04", 4), "\x44\x01\x02\x03\x04");
  CHECK_WRITES(cbor_writer_text(w, "IETF", 4), "\x64IETF");
  CHECK_WRITES(cbor_writer_text(w, "\xc3\x28", 2), "\x62\xc3\x28"); /* written as given */
  CHECK_WRITES(cbor_writer_text(w, long_text, 23), "\x77zzzzzzzzzzzzzzzzzzzzzzz");
  CHECK_WRITES(cbor_writer_text(w, long_text, 24), "\x78\x18zzzzzzzzzzzzzzzzzzzzzzzz");

  CHECK_WRITES(cbor_writer_bool(w, 0), "\xf4");
  CHECK_WRITES(cbor_writer_bool(w, 42), "\xf5");
  CHECK_WRITES(cbor_writer_null(w), "\xf6");
  CHECK_WRITES(cbor_writer_undefined(w), "\xf7");
  CHECK_WRITES(cbor_writer_simple(w, 0), "\xe0");
  CHECK_WRITES(cbor_writer_simple(w, 23), "\xf7");
  CHECK_WRITES(cbor_writer_simple(w, 32), "\xf8\x20");
  CHECK_WRITES(cbor_writer_simple(w, 255), "\xf8\xff");

  /* 24..31 are not well-formed as simple values: refused, not sticky. */
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_simple(w, 24), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_simple(w, 31), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_simple(w, 16), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\xf0");
  cbor_writer_free(w);
}

static void test_writer_floats(void) {
  cbor_writer* w = NULL;
  CHECK_WRITES(cbor_writer_float(w, 0.0, CBOR_FAST_FLOAT_SHORTEST), "\xf9\x00\x00");
  CHECK_WRITES(cbor_writer_float(w, -0.0, CBOR_FAST_FLOAT_SHORTEST), "\xf9\x80\x00");
  CHECK_WRITES(cbor_writer_float(w, 1.5, CBOR_FAST_FLOAT_SHORTEST), "\xf9\x3e\x00");
  CHECK_WRITES(cbor_writer_float(w, 65504.0, CBOR_FAST_FLOAT_SHORTEST), "\xf9\x7b\xff");
  CHECK_WRITES(cbor_writer_float(w, 100000.0, CBOR_FAST_FLOAT_SHORTEST), "\xfa\x47\xc3\x50\x00");
  CHECK_WRITES(cbor_writer_float(w, 1.1, CBOR_FAST_FLOAT_SHORTEST),
               "\xfb\x3f\xf1\x99\x99\x99\x99\x99\x9a");
  CHECK_WRITES(cbor_writer_float(w, HUGE_VAL, CBOR_FAST_FLOAT_SHORTEST), "\xf9\x7c\x00");
  CHECK_WRITES(cbor_writer_float(w, -HUGE_VAL, CBOR_FAST_FLOAT_SHORTEST), "\xf9\xfc\x00");
  CHECK_WRITES(cbor_writer_float(w, NAN, CBOR_FAST_FLOAT_SHORTEST), "\xf9\x7e\x00");
  CHECK_WRITES(cbor_writer_float(w, 1.0, CBOR_FAST_FLOAT_HALF), "\xf9\x3c\x00");
  CHECK_WRITES(cbor_writer_float(w, 1.5, CBOR_FAST_FLOAT_SINGLE), "\xfa\x3f\xc0\x00\x00");
  CHECK_WRITES(cbor_writer_float(w, 1.5, CBOR_FAST_FLOAT_DOUBLE),
               "\xfb\x3f\xf8\x00\x00\x00\x00\x00\x00");
  /* A forced narrower width rounds: 1.1 as a half is 0x3c66. */
  CHECK_WRITES(cbor_writer_float(w, 1.1, CBOR_FAST_FLOAT_HALF), "\xf9\x3c\x66");

  /* Other widths: refused, not sticky. */
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_float(w, 1.0, (cbor_fast_float_width)3), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_float(w, 1.0, (cbor_fast_float_width)1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_float(w, 1.0, (cbor_fast_float_width)7), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_writer_size(w), 0);
  CHECK_STATUS(cbor_writer_float(w, 2.0, CBOR_FAST_FLOAT_SHORTEST), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\xf9\x40\x00");
  cbor_writer_free(w);
}

/* cbor_writer_float16/32: the bits as given, never narrowed; NULL refused. */
static void test_writer_typed_floats(void) {
  cbor_writer* w = NULL;
  uint32_t nan_bits = 0x7fc00001u;
  float nan_payload;
  memcpy(&nan_payload, &nan_bits, sizeof nan_payload);
  CHECK_WRITES(cbor_writer_float16(w, 0x3c00), "\xf9\x3c\x00");
  CHECK_WRITES(cbor_writer_float16(w, 0x0001), "\xf9\x00\x01");
  CHECK_WRITES(cbor_writer_float16(w, 0x7e01), "\xf9\x7e\x01");
  CHECK_WRITES(cbor_writer_float32(w, 1.5f), "\xfa\x3f\xc0\x00\x00");
  CHECK_WRITES(cbor_writer_float32(w, -0.0f), "\xfa\x80\x00\x00\x00");
  CHECK_WRITES(cbor_writer_float32(w, nan_payload), "\xfa\x7f\xc0\x00\x01");
  CHECK_STATUS(cbor_writer_float16(NULL, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_float32(NULL, 0.0f), CBOR_FAST_ERR_INVALID_ARGUMENT);
  /* One item each toward a definite count. */
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_array(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_float32(w, 1.0f), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_float16(w, 0), CBOR_FAST_ERR_WRITER_COUNT);
  cbor_writer_free(w);
}

static void test_writer_containers(void) {
  cbor_writer* w = NULL;
  int i;
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);

  /* [1, [2, 3], {"a": true}] */
  CHECK_STATUS(cbor_writer_array(w, 3), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_array(w, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 3), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_map(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "a", 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bool(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\x83\x01\x82\x02\x03\xa1\x61\x61\xf5");

  /* [_ 1, {_ "a": false}] */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_array_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_map_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "a", 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bool(w, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\x9f\x01\xbf\x61\x61\xf4\xff\xff");

  /* (_ h'0102', h'03'), (_ "he", "llo") */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bytes_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bytes(w, "\x01\x02", 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bytes(w, "\x03", 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "he", 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "llo", 3), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\x5f\x42\x01\x02\x41\x03\xff\x7f\x62he\x63llo\xff");

  /* 32([1, 2]), 1(2(h'')): a tag closes itself after its one item. */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_tag(w, 32), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_array(w, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_tag(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_tag(w, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bytes(w, NULL, 0), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\xd8\x20\x82\x01\x02\xc1\xc2\x40");

  /* Count heads at 23/24. */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_array(w, 24), CBOR_FAST_OK);
  for (i = 0; i < 24; ++i) CHECK_STATUS(cbor_writer_uint(w, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_map(w, 23), CBOR_FAST_OK);
  for (i = 0; i < 46; ++i) CHECK_STATUS(cbor_writer_uint(w, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  {
    uint8_t expected[2 + 24 + 1 + 46];
    const uint8_t* data = NULL;
    size_t size = 0;
    memset(expected, 0, sizeof expected);
    expected[0] = 0x98;
    expected[1] = 24;
    expected[26] = 0xb7;
    CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
    CHECK_EQ_BYTES(data, size, expected, sizeof expected);
  }
  cbor_writer_free(w);
}

/* cbor_writer_encoded: one item already encoded, counted once; anything but
 * one well-formed item refused (not sticky); NULL. */
static void test_writer_encoded(void) {
  cbor_writer* w = NULL;
  static const uint8_t key[] = {0xa1, 0x01, 0x82, 0x02, 0x03}; /* {1: [2, 3]} */
  static const uint8_t two[] = {0x01, 0x02};
  static const uint8_t cut[] = {0x82, 0x01};
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_map(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_encoded(w, key, sizeof key), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_encoded(w, two, sizeof two), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_encoded(w, cut, sizeof cut), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_encoded(w, NULL, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_encoded(w, key, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_null(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\xa1\xa1\x01\x82\x02\x03\xf6");
  CHECK_STATUS(cbor_writer_encoded(NULL, key, sizeof key), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_writer_free(w);
}

static void test_writer_structure_errors(void) {
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);

  /* An item past a definite count; sticky for items, end and finish. */
  CHECK_STATUS(cbor_writer_array(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 2), CBOR_FAST_ERR_WRITER_COUNT);
  CHECK_STATUS(cbor_writer_null(w), CBOR_FAST_ERR_WRITER_COUNT);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_ERR_WRITER_COUNT);
  data = (const uint8_t*)"x";
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_ERR_WRITER_COUNT);
  CHECK(data == NULL);

  /* reset clears the error and the output. */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_writer_size(w), 0);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\x01");

  /* end before the count is reached */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_map(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_ERR_WRITER_COUNT);

  /* a tag without its item */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_array_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_tag(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_ERR_WRITER_COUNT);

  /* end with nothing open */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_ERR_WRITER_NO_CONTAINER);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_ERR_WRITER_NO_CONTAINER);

  /* chunks of the wrong kind in indefinite strings */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bytes_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "a", 1), CBOR_FAST_ERR_WRITER_BAD_CHUNK);
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_ERR_WRITER_BAD_CHUNK);
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text_indefinite(w), CBOR_FAST_ERR_WRITER_BAD_CHUNK);

  /* an indefinite map closed after a key */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_map_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_ERR_WRITER_ODD_MAP);
  CHECK_STATUS(cbor_writer_finish(w, NULL, NULL), CBOR_FAST_ERR_WRITER_ODD_MAP);

  /* finish with a container or a tag still open */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_array(w, 1), CBOR_FAST_OK);
  size = 0;
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_ERR_WRITER_UNCLOSED);
  CHECK(data == NULL);
  CHECK_EQ_UINT(size, 1); /* what was produced so far */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_tag(w, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, NULL, NULL), CBOR_FAST_ERR_WRITER_UNCLOSED);
  cbor_writer_free(w);
}

static void test_writer_growable_finish(void) {
  cbor_writer* w = NULL;
  const uint8_t* data = (const uint8_t*)"x";
  size_t size = 5;
  char big[1000];
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);

  /* Nothing written: OK and zero bytes. */
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_UINT(size, 0);
  CHECK_STATUS(cbor_writer_finish(w, NULL, NULL), CBOR_FAST_OK);

  /* finish does not reset: later items extend the sequence. */
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\x01");
  CHECK_STATUS(cbor_writer_uint(w, 2), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\x01\x02");

  /* Growth keeps every byte. */
  memset(big, 'q', sizeof big);
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, big, sizeof big), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_UINT(size, 3 + sizeof big);
  CHECK_EQ_BYTES(data, 3, "\x79\x03\xe8", 3);
  CHECK_EQ_BYTES(data + 3, sizeof big, big, sizeof big);
  cbor_writer_free(w);
}

static void test_writer_caller_buffer(void) {
  uint8_t buf[8];
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  size_t i;

  /* Exactly full. */
  memset(buf, 0xaa, sizeof buf);
  CHECK_STATUS(cbor_writer_new_buffer(buf, 4, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 256), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK(data == buf);
  CHECK_EQ_BYTES(data, size, "\x01\x19\x01\x00", 4);

  /* One byte more: too small, and counting goes on. */
  CHECK_STATUS(cbor_writer_uint(w, 0), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_UINT(cbor_writer_size(w), 5);
  CHECK_STATUS(cbor_writer_text(w, "hello", 5), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_UINT(cbor_writer_size(w), 11);
  data = buf;
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK(data == NULL);
  CHECK_EQ_UINT(size, 11);                                      /* bytes needed */
  for (i = 4; i < sizeof buf; ++i) CHECK_EQ_UINT(buf[i], 0xaa); /* nothing past capacity */

  /* Structure is still tracked after an overflow: a structural error wins. */
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_ERR_WRITER_NO_CONTAINER);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_ERR_WRITER_NO_CONTAINER);

  /* reset: same buffer, empty again. */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_writer_size(w), 0);
  CHECK_STATUS(cbor_writer_text(w, "ab", 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK(data == buf);
  CHECK_EQ_BYTES(data, size, "\x62\x61\x62", 3);
  cbor_writer_free(w);

  /* A NULL buffer of capacity 0 only counts: the encoded size of a document. */
  CHECK_STATUS(cbor_writer_new_buffer(NULL, 0, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_UINT(size, 0);
  CHECK_STATUS(cbor_writer_array(w, 2), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_STATUS(cbor_writer_uint(w, 1000), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_STATUS(cbor_writer_text(w, "abc", 3), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_UINT(size, 1 + 3 + 4);
  cbor_writer_free(w);
}

/* A sink that records what it gets and can be told to fail. */
typedef struct test_sink {
  uint8_t data[256];
  size_t size;
  int calls;
  int fail; /* non-zero: every call fails */
} test_sink;

static int sink_fn(void* context, const uint8_t* data, size_t size) {
  test_sink* s = (test_sink*)context;
  ++s->calls;
  if (s->fail) return 1;
  if (s->size + size > sizeof s->data) return 2;
  memcpy(s->data + s->size, data, size);
  s->size += size;
  return 0;
}

static void test_writer_sink(void) {
  test_sink sink;
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  uint8_t hundred[100];

  /* Chunks of 4: output reaches the sink before finish, all of it after. */
  memset(&sink, 0, sizeof sink);
  CHECK_STATUS(cbor_writer_new_sink(sink_fn, &sink, 4, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "hello", 5), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 2), CBOR_FAST_OK);
  CHECK(sink.calls >= 1);
  CHECK(sink.size < 8);
  data = (const uint8_t*)"x";
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK(data == NULL);
  CHECK_EQ_UINT(size, 8);
  CHECK_EQ_UINT(cbor_writer_size(w), 8);
  CHECK_EQ_BYTES(sink.data, sink.size, "\x01\x65hello\x02", 8);
  cbor_writer_free(w);

  /* Chunk size 0 means 4096: 100 bytes stay staged until finish. */
  memset(&sink, 0, sizeof sink);
  memset(hundred, 7, sizeof hundred);
  CHECK_STATUS(cbor_writer_new_sink(sink_fn, &sink, 0, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bytes(w, hundred, sizeof hundred), CBOR_FAST_OK);
  CHECK_EQ_INT(sink.calls, 0);
  CHECK_STATUS(cbor_writer_finish(w, NULL, &size), CBOR_FAST_OK);
  CHECK_EQ_INT(sink.calls, 1);
  CHECK_EQ_UINT(size, 102);
  CHECK_EQ_BYTES(sink.data, 2, "\x58\x64", 2);

  /* reset drops what is staged and starts over on the same sink. */
  CHECK_STATUS(cbor_writer_uint(w, 9), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_writer_size(w), 0);
  CHECK_STATUS(cbor_writer_uint(w, 3), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, NULL, &size), CBOR_FAST_OK);
  CHECK_EQ_UINT(size, 1);
  CHECK_EQ_UINT(sink.size, 103);
  CHECK_EQ_UINT(sink.data[102], 3);
  cbor_writer_free(w);

  /* A failing sink: sticky SINK_FAILED, first seen when a chunk fills up. */
  memset(&sink, 0, sizeof sink);
  sink.fail = 1;
  CHECK_STATUS(cbor_writer_new_sink(sink_fn, &sink, 4, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "hello", 5), CBOR_FAST_ERR_SINK_FAILED);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_ERR_SINK_FAILED);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_ERR_SINK_FAILED);
  CHECK(data == NULL);
  /* ... until reset, with a sink that works again. */
  sink.fail = 0;
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 5), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, NULL, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(sink.data, sink.size, "\x05", 1);
  cbor_writer_free(w);

  /* A sink that fails only at the final flush. */
  memset(&sink, 0, sizeof sink);
  sink.fail = 1;
  CHECK_STATUS(cbor_writer_new_sink(sink_fn, &sink, 64, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_EQ_INT(sink.calls, 0);
  CHECK_STATUS(cbor_writer_finish(w, NULL, NULL), CBOR_FAST_ERR_SINK_FAILED);
  CHECK_EQ_INT(sink.calls, 1);
  cbor_writer_free(w);
}

static void test_writer_allocator(void) {
  test_heap heap;
  cbor_fast_allocator hooks = heap_hooks(&heap);
  cbor_writer* w = NULL;
  test_sink sink;
  uint8_t buf[16];
  char big[300];
  long fail_at;
  memset(big, 'b', sizeof big);
  memset(&sink, 0, sizeof sink);

  /* Growable writer: handle and buffer through the hooks, all returned. */
  heap_init(&heap, -1);
  CHECK_STATUS(cbor_writer_new(&hooks, &w), CBOR_FAST_OK);
  CHECK_EQ_UINT(heap.live, 1);
  CHECK_STATUS(cbor_writer_array(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, big, sizeof big), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_EQ_UINT(heap.live, 3); /* handle, buffer, container stack */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\x01");
  cbor_writer_free(w);
  CHECK_HEAP_CLEAN(&heap);

  /* No handle. */
  heap_init(&heap, 0);
  w = (cbor_writer*)&w;
  CHECK_STATUS(cbor_writer_new(&hooks, &w), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK(w == NULL);
  heap_init(&heap, 0);
  w = (cbor_writer*)&w;
  CHECK_STATUS(cbor_writer_new_buffer(buf, sizeof buf, &hooks, &w), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK(w == NULL);
  CHECK_HEAP_CLEAN(&heap);

  /* The sink's staging buffer cannot be allocated: no writer, no leak. */
  heap_init(&heap, 1);
  w = (cbor_writer*)&w;
  CHECK_STATUS(cbor_writer_new_sink(sink_fn, &sink, 16, &hooks, &w), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK(w == NULL);
  CHECK_HEAP_CLEAN(&heap);

  /* The output buffer cannot be allocated: sticky OUT_OF_MEMORY. */
  heap_init(&heap, 1);
  CHECK_STATUS(cbor_writer_new(&hooks, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK_STATUS(cbor_writer_finish(w, NULL, NULL), CBOR_FAST_ERR_OUT_OF_MEMORY);
  /* reset recovers (a growable writer allocates lazily). */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 7), CBOR_FAST_OK);
  CHECK_OUTPUT(w, "\x07");
  cbor_writer_free(w);
  CHECK_HEAP_CLEAN(&heap);

  /* The container stack of a caller-buffer writer cannot be allocated. */
  heap_init(&heap, 1);
  CHECK_STATUS(cbor_writer_new_buffer(buf, sizeof buf, &hooks, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_array(w, 1), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_ERR_OUT_OF_MEMORY);
  cbor_writer_free(w);
  CHECK_HEAP_CLEAN(&heap);

  /* A sink writer's reset needs a new staging buffer; when that fails the
   * writer reports it and stays freeable. */
  heap_init(&heap, 2);
  CHECK_STATUS(cbor_writer_new_sink(sink_fn, &sink, 16, &hooks, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_ERR_OUT_OF_MEMORY);
  cbor_writer_free(w);
  CHECK_HEAP_CLEAN(&heap);

  /* Every failure point of a growing document in turn. */
  for (fail_at = 0; fail_at < 8; ++fail_at) {
    cbor_fast_status s;
    heap_init(&heap, fail_at);
    w = NULL;
    s = cbor_writer_new(&hooks, &w);
    if (s == CBOR_FAST_OK) {
      cbor_writer_array(w, 2);
      cbor_writer_text(w, big, sizeof big);
      cbor_writer_text(w, big, sizeof big);
      cbor_writer_end(w);
      s = cbor_writer_finish(w, NULL, NULL);
    }
    CHECK(s == CBOR_FAST_OK || s == CBOR_FAST_ERR_OUT_OF_MEMORY);
    if (fail_at == 0) CHECK_STATUS(s, CBOR_FAST_ERR_OUT_OF_MEMORY);
    cbor_writer_free(w);
    CHECK_HEAP_CLEAN(&heap);
  }
}

/* ========================================================================== */
/* Both together                                                              */
/* ========================================================================== */

static void test_round_trip(void) {
  /* {"n": -500, "f": 0.5, "s": (_ "ab", "c"), "t": 0(1)} written then read back. */
  cbor_writer* w = NULL;
  cbor_reader* r = NULL;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  const uint8_t* out = NULL;
  const uint8_t* joined = NULL;
  size_t out_size = 0, joined_size = 0;

  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_map(w, 4), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "n", 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_int(w, -500), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "f", 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_float(w, 0.5, CBOR_FAST_FLOAT_SHORTEST), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "s", 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text_indefinite(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "ab", 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "c", 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_text(w, "t", 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_tag(w, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &out, &out_size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(out, out_size,
                 "\xa4\x61n\x39\x01\xf3\x61"
                 "f\xf9\x38\x00\x61s\x7f\x62"
                 "ab\x61"
                 "c\xff\x61t\xc0\x01",
                 24);

  CHECK_STATUS(cbor_reader_new(out, out_size, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_MAP, 4, 0, 1, 0, 0);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK); /* "n" */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_NEGATIVE, 499, 3, 3, 1, 0);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK); /* "f" */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_INT(it.type, CBOR_FAST_TYPE_FLOAT);
  CHECK_EQ_UINT(it.float_width, 2);
  CHECK(it.float_value == 0.5);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK); /* "s" */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &it, &joined, &joined_size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(joined, joined_size, "abc", 3);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK); /* "t" */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_ITEM(it, CBOR_FAST_TYPE_TAG, 0, 22, 1, 1, 0);
  CHECK_STATUS(cbor_reader_skip_to_end(r), CBOR_FAST_OK); /* the tag's content */
  CHECK_STATUS(cbor_reader_skip_to_end(r), CBOR_FAST_OK); /* the map */
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_OK);
  cbor_reader_free(r);
  cbor_writer_free(w);
}

int main(void) {
  RUN_TEST(test_status_strings);
  RUN_TEST(test_status_unknown_codes);
  RUN_TEST(test_version);

  RUN_TEST(test_reader_new_and_null_arguments);
  RUN_TEST(test_reader_scalars);
  RUN_TEST(test_reader_strings);
  RUN_TEST(test_reader_containers);
  RUN_TEST(test_reader_item_struct_size);
  RUN_TEST(test_reader_join);
  RUN_TEST(test_reader_join_errors);
  RUN_TEST(test_reader_skip);
  RUN_TEST(test_reader_errors);
  RUN_TEST(test_reader_error_struct);
  RUN_TEST(test_reader_options);
  RUN_TEST(test_reader_options_mid_stream);
  RUN_TEST(test_reader_limits);
  RUN_TEST(test_reader_default_depth_boundary);
  RUN_TEST(test_reader_finish);
  RUN_TEST(test_reader_reset);
  RUN_TEST(test_reader_allocator);

  RUN_TEST(test_writer_new_and_null_arguments);
  RUN_TEST(test_writer_integers);
  RUN_TEST(test_writer_strings_and_simple);
  RUN_TEST(test_writer_floats);
  RUN_TEST(test_writer_typed_floats);
  RUN_TEST(test_writer_containers);
  RUN_TEST(test_writer_structure_errors);
  RUN_TEST(test_writer_growable_finish);
  RUN_TEST(test_writer_caller_buffer);
  RUN_TEST(test_writer_sink);
  RUN_TEST(test_writer_encoded);
  RUN_TEST(test_writer_allocator);

  RUN_TEST(test_round_trip);
  return check_summary();
}
