/*
 * Safe defaults for untrusted input (since 0.4): with every limit left 0, a
 * document holds at most CBOR_FAST_DEFAULT_MEMORY_PER_INPUT_BYTE times its
 * input plus CBOR_FAST_DEFAULT_MEMORY_SLACK; the densest normal document (one
 * byte per integer) fits; hostile nesting that needs more fails with
 * CBOR_FAST_ERR_MEMORY_BUDGET, and setting max_memory to UINT64_MAX lifts the
 * budget. Since 0.5 an array or map holds at most
 * CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS entries by default on every surface
 * (reader, document, sequence): exactly that many pass, one more is
 * CBOR_FAST_ERR_CONTAINER_TOO_LARGE at the head, UINT64_MAX lifts it.
 * Since 0.5, 0 means the default in cbor_reader_set() too, and
 * cbor_reader_configure() / cbor_stream_configure() give a reader the limits
 * and checks of cbor_decode() for the same flags and options.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"

/* Live and peak bytes through the hooks. */
typedef struct heap {
  size_t live;
  size_t peak;
} heap;

static void* heap_malloc(void* ctx, size_t n) {
  heap* h = (heap*)ctx;
  void* p = malloc(n);
  if (p != NULL) {
    h->live += n;
    if (h->live > h->peak) h->peak = h->live;
  }
  return p;
}
static void* heap_realloc(void* ctx, void* p, size_t old_size, size_t n) {
  heap* h = (heap*)ctx;
  void* q = realloc(p, n);
  if (q != NULL) {
    h->live = h->live - old_size + n;
    if (h->live > h->peak) h->peak = h->live;
  }
  return q;
}
static void heap_free(void* ctx, void* p, size_t n) {
  heap* h = (heap*)ctx;
  if (p != NULL) h->live -= n;
  free(p);
}

static size_t default_budget(size_t input) {
  return CBOR_FAST_DEFAULT_MEMORY_PER_INPUT_BYTE * input + CBOR_FAST_DEFAULT_MEMORY_SLACK;
}

/* An array of n one-byte integers: 24 bytes of node per input byte, the densest document. */
static uint8_t* small_ints(size_t n, size_t* size) {
  uint8_t* p = (uint8_t*)malloc(n + 5);
  size_t i;
  p[0] = 0x9a; /* array, 4-byte count */
  p[1] = (uint8_t)(n >> 24);
  p[2] = (uint8_t)(n >> 16);
  p[3] = (uint8_t)(n >> 8);
  p[4] = (uint8_t)n;
  for (i = 0; i < n; ++i) p[5 + i] = (uint8_t)(i % 24);
  *size = n + 5;
  return p;
}

/* levels nested one-pair maps {0: {0: ... 0}}: hostile, 2 bytes a level. */
static uint8_t* nested_maps(size_t levels, size_t* size) {
  uint8_t* p = (uint8_t*)malloc(2 * levels + 1);
  size_t i;
  for (i = 0; i < levels; ++i) {
    p[2 * i] = 0xa1;
    p[2 * i + 1] = 0x00;
  }
  p[2 * levels] = 0x00;
  *size = 2 * levels + 1;
  return p;
}

static void test_dense_document_fits_the_default(void) {
  /* 10^6 one-byte integers (one boundary row: the node array alone is 24x). */
  size_t size;
  uint8_t* in = small_ints(1000000, &size);
  heap h = {0, 0};
  cbor_fast_allocator hooks = {heap_malloc, heap_realloc, heap_free, NULL};
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_doc* doc = NULL;
  hooks.context = &h;
  o.alloc = &hooks;
  CHECK_STATUS(cbor_decode(in, size, CBOR_FAST_DECODE_EXACT, &o, &doc, NULL), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_node_size(cbor_doc_root(doc)), 1000000);
  CHECK(h.peak <= default_budget(size));
  cbor_doc_free(doc);
  CHECK_EQ_UINT(h.live, 0);
  free(in);
}

static void test_hostile_nesting_hits_the_default(void) {
  const size_t levels = 200000;
  size_t size;
  uint8_t* in = nested_maps(levels, &size);
  heap h = {0, 0};
  cbor_fast_allocator hooks = {heap_malloc, heap_realloc, heap_free, NULL};
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_doc* doc = NULL;
  cbor_seq* seq = NULL;
  hooks.context = &h;
  o.alloc = &hooks;
  o.max_depth = 300000; /* the depth limit lifted: the budget is what stops it */
  CHECK_STATUS(cbor_decode(in, size, CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS, &o, &doc, &e),
               CBOR_FAST_ERR_MEMORY_BUDGET);
  CHECK(doc == NULL);
  CHECK(e.offset > 0 && e.offset < size);
  CHECK(h.peak <= default_budget(size));
  CHECK_EQ_UINT(h.live, 0);

  /* The same through a sequence: the budget of the input left at the item. */
  h.peak = 0;
  CHECK_STATUS(cbor_seq_new(in, size, &o, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next_doc(seq, CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS, &doc),
               CBOR_FAST_ERR_MEMORY_BUDGET);
  cbor_seq_free(seq);
  CHECK(h.peak <= default_budget(size) + 4096);
  CHECK_EQ_UINT(h.live, 0);

  /* UINT64_MAX lifts the budget: the same input decodes, holding more. */
  h.peak = 0;
  o.max_memory = UINT64_MAX;
  CHECK_STATUS(cbor_decode(in, size, CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS, &o, &doc, &e),
               CBOR_FAST_OK);
  CHECK(h.peak > default_budget(size));
  cbor_doc_free(doc);
  CHECK_EQ_UINT(h.live, 0);

  /* An explicit budget replaces the default: 1 byte holds no node. */
  o.max_memory = 1;
  CHECK_STATUS(cbor_decode(in, size, 0, &o, &doc, &e), CBOR_FAST_ERR_MEMORY_BUDGET);
  CHECK_EQ_UINT(e.offset, 0);
  free(in);
}

/* A 9-byte array (major 4) or map (5) head counting n, after `prefix` bytes. */
static size_t count_head(uint8_t* out, const uint8_t* prefix, size_t prefix_size, int major,
                         uint64_t n) {
  int i;
  if (prefix_size != 0) memcpy(out, prefix, prefix_size);
  out[prefix_size] = (uint8_t)(major << 5 | 27);
  for (i = 0; i < 8; ++i) out[prefix_size + 1 + i] = (uint8_t)(n >> (56 - 8 * i));
  return prefix_size + 9;
}

/* One input through the reader (skip), cbor_decode, cbor_seq_next and
 * cbor_seq_next_doc with max_container_items `limit` (0: the default). */
static void check_container_row(const char* name, const uint8_t* in, size_t size, uint64_t limit,
                                cbor_fast_status want, size_t offset) {
  cbor_reader* r = NULL;
  cbor_doc* doc = NULL;
  cbor_seq* seq = NULL;
  size_t off = 0, len = 0;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  o.max_container_items = limit;
  check_current_ = name; /* the row, in failure messages */
  CHECK_STATUS(cbor_reader_new(in, size, NULL, &r), CBOR_FAST_OK);
  if (limit != 0)
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, limit), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), want);
  CHECK_STATUS(cbor_reader_error(r, &e), want); /* the sticky error's code */
  CHECK_EQ_UINT(e.offset, offset);
  cbor_reader_free(r);
  CHECK_STATUS(cbor_decode(in, size, CBOR_FAST_DECODE_EXACT, &o, &doc, &e), want);
  CHECK(doc == NULL);
  CHECK_EQ_UINT(e.offset, offset);
  CHECK_STATUS(cbor_seq_new(in, size, &o, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), want);
  CHECK_STATUS(cbor_seq_error(seq, &e), want);
  CHECK_EQ_UINT(e.offset, offset);
  cbor_seq_free(seq);
  CHECK_STATUS(cbor_seq_new(in, size, &o, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), want);
  CHECK_STATUS(cbor_seq_error(seq, &e), want);
  CHECK_EQ_UINT(e.offset, offset);
  cbor_seq_free(seq);
}

static void test_default_container_limit_heads(void) {
  /* A head alone: a count the limit lets through fails as truncated (its
   * entries are missing), one it refuses as container_too_large, at the head. */
  const uint64_t n = CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS;
  const uint8_t pair_prefix[2] = {0x82, 0x00};
  uint8_t in[16];
  size_t size;
  CHECK_EQ_UINT(n, (uint64_t)1 << 24);
  size = count_head(in, NULL, 0, 4, n);
  check_container_row("array_at_default_passes_the_limit", in, size, 0, CBOR_FAST_ERR_TRUNCATED, 0);
  size = count_head(in, NULL, 0, 4, n + 1);
  check_container_row("array_one_over_default", in, size, 0, CBOR_FAST_ERR_CONTAINER_TOO_LARGE, 0);
  check_container_row("array_one_over_default.lifted_to_max", in, size, UINT64_MAX,
                      CBOR_FAST_ERR_TRUNCATED, 0);
  check_container_row("array_one_over_default.lifted_by_one", in, size, n + 1,
                      CBOR_FAST_ERR_TRUNCATED, 0);
  size = count_head(in, NULL, 0, 5, n);
  check_container_row("map_at_default_passes_the_limit", in, size, 0, CBOR_FAST_ERR_TRUNCATED, 0);
  size = count_head(in, NULL, 0, 5, n + 1);
  check_container_row("map_one_over_default", in, size, 0, CBOR_FAST_ERR_CONTAINER_TOO_LARGE, 0);
  size = count_head(in, pair_prefix, 2, 4, n + 1);
  check_container_row("nested_one_over_default", in, size, 0, CBOR_FAST_ERR_CONTAINER_TOO_LARGE, 2);
  check_current_ = "test_default_container_limit_heads";
}

static void test_default_container_limit_full(void) {
  /* [_ 0 x n] and [_ 0 x (n + 1)] through the reader (a document of them
   * would hold 384 MiB of nodes; the head rows test the document paths). */
  const size_t n = CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS;
  uint8_t* in = (uint8_t*)calloc(n + 3, 1);
  cbor_reader* r = NULL;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  CHECK(in != NULL);
  if (in == NULL) return;
  in[0] = 0x9f;
  in[n + 1] = 0xff; /* n entries, then the break */
  CHECK_STATUS(cbor_reader_new(in, n + 2, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_reader_offset(r), n + 2);
  in[n + 1] = 0x00;
  in[n + 2] = 0xff; /* n + 1 entries: the last one is refused */
  CHECK_STATUS(cbor_reader_reset(r, in, n + 3), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_ERR_CONTAINER_TOO_LARGE);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_CONTAINER_TOO_LARGE);
  CHECK_EQ_UINT(e.offset, 1 + n);
  CHECK_STATUS(cbor_reader_reset(r, in, n + 3), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, UINT64_MAX), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_reader_offset(r), n + 3);
  cbor_reader_free(r);
  free(in);
}

static cbor_reader* reader_over(const void* data, size_t size) {
  cbor_reader* r = NULL;
  CHECK_STATUS(cbor_reader_new(data, size, NULL, &r), CBOR_FAST_OK);
  return r;
}

/* The status of skipping the first item, and its offset when it fails. */
static cbor_fast_status skip_first(cbor_reader* r, const void* data, size_t size, size_t* offset) {
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_status s;
  CHECK_STATUS(cbor_reader_reset(r, data, size), CBOR_FAST_OK);
  s = cbor_reader_skip(r);
  *offset = 0;
  if (s != CBOR_FAST_OK) {
    CHECK_STATUS(cbor_reader_error(r, &e), s);
    *offset = e.offset;
  }
  return s;
}

static void test_reader_zero_is_the_default(void) {
  /* Each limit set to 1 refuses its input; set to 0 it is the default again. */
  static const uint8_t nested[] = {0x81, 0x81, 0x00};    /* [[0]] */
  static const uint8_t two_items[] = {0x82, 0x01, 0x02}; /* [1, 2] */
  static const uint8_t text2[] = {0x62, 0x61, 0x62};     /* "ab" */
  enum { n = 513 };
  uint8_t deep[n + 1];
  size_t off;
  cbor_reader* r = reader_over(NULL, 0);

  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, 1), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, nested, sizeof nested, &off), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(off, 1);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, 0), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, nested, sizeof nested, &off), CBOR_FAST_OK);
  /* ... and that default is 512: 512 levels pass, the 513th fails at 512. */
  memset(deep, 0x81, n);
  deep[n] = 0x00;
  CHECK_STATUS(skip_first(r, deep + 1, n, &off), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, deep, n + 1, &off), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(off, 512);

  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, 2), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, two_items, sizeof two_items, &off), CBOR_FAST_ERR_TOO_MANY_ITEMS);
  CHECK_EQ_UINT(off, 2);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, 0), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, two_items, sizeof two_items, &off), CBOR_FAST_OK);

  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, 1), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, two_items, sizeof two_items, &off), CBOR_FAST_ERR_CONTAINER_TOO_LARGE);
  CHECK_EQ_UINT(off, 0);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, 0), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, two_items, sizeof two_items, &off), CBOR_FAST_OK);

  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_STRING_LENGTH, 1), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, text2, sizeof text2, &off), CBOR_FAST_ERR_STRING_TOO_LONG);
  CHECK_EQ_UINT(off, 0);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_STRING_LENGTH, 0), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, text2, sizeof text2, &off), CBOR_FAST_OK);
  cbor_reader_free(r);
}

/* One input, read by cbor_decode() and by a configured reader and stream. */
typedef struct configure_row {
  const char* name;
  const char* hex;
  uint32_t flags;
  uint32_t max_depth;
  uint64_t max_string_length;
  uint64_t max_container_items;
  uint64_t max_items;
  cbor_fast_status want;
  size_t offset;
} configure_row;

static void test_reader_configure_matches_decode(void) {
  static const configure_row rows[] = {
      {"defaults: well-formed", "a2 01 00 18 01 62 c328", 0, 0, 0, 0, 0, CBOR_FAST_OK, 0},
      {"depth at the limit", "81 81 00", 0, 2, 0, 0, 0, CBOR_FAST_OK, 0},
      {"depth over the limit", "81 81 81 00", 0, 2, 0, 0, 0, CBOR_FAST_ERR_DEPTH, 2},
      {"tags count as depth", "c1 c1 c1 00", 0, 2, 0, 0, 0, CBOR_FAST_ERR_DEPTH, 2},
      {"string at the limit", "42 0102", 0, 0, 2, 0, 0, CBOR_FAST_OK, 0},
      {"string over the limit", "43 010203", 0, 0, 2, 0, 0, CBOR_FAST_ERR_STRING_TOO_LONG, 0},
      {"joined string over the limit", "5f 42 0102 41 03 ff", 0, 0, 2, 0, 0,
       CBOR_FAST_ERR_STRING_TOO_LONG, 4},
      {"array at the limit", "82 00 00", 0, 0, 0, 2, 0, CBOR_FAST_OK, 0},
      {"array over the limit", "83 00 00 00", 0, 0, 0, 2, 0, CBOR_FAST_ERR_CONTAINER_TOO_LARGE, 0},
      {"items at the limit", "83 00 00 00", 0, 0, 0, 0, 4, CBOR_FAST_OK, 0},
      {"items over the limit", "83 00 00 00", 0, 0, 0, 0, 3, CBOR_FAST_ERR_TOO_MANY_ITEMS, 3},
      {"bad UTF-8 checked", "81 62 c328", CBOR_FAST_DECODE_VALIDATE_UTF8, 0, 0, 0, 0,
       CBOR_FAST_ERR_INVALID_UTF8, 2},
      {"duplicate key by value", "a2 01 00 18 01 00", CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS, 0, 0,
       0, 0, CBOR_FAST_ERR_DUPLICATE_KEY, 3},
      {"-0.0 and 0.0 are one key", "a2 f98000 00 f90000 00", CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS,
       0, 0, 0, 0, CBOR_FAST_ERR_DUPLICATE_KEY, 5},
      {"deterministic: long head", "18 01", CBOR_FAST_DECODE_DETERMINISTIC, 0, 0, 0, 0,
       CBOR_FAST_ERR_NOT_PREFERRED, 0},
      {"deterministic: unsorted keys", "a2 02 00 01 00", CBOR_FAST_DECODE_DETERMINISTIC, 0, 0, 0, 0,
       CBOR_FAST_ERR_UNSORTED_KEYS, 3},
      {"deterministic: indefinite", "9f ff", CBOR_FAST_DECODE_DETERMINISTIC, 0, 0, 0, 0,
       CBOR_FAST_ERR_INDEFINITE_LENGTH, 0},
  };
  size_t i;
  for (i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    const configure_row* row = &rows[i];
    uint8_t in[64];
    const size_t n = unhex(row->hex, in, sizeof in);
    cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    cbor_doc* doc = NULL;
    cbor_reader* r = reader_over(NULL, 0);
    cbor_stream* st = NULL;
    piece_source m;
    size_t off;
    const int failed_before = check_failed_;
    o.max_depth = row->max_depth;
    o.max_string_length = row->max_string_length;
    o.max_container_items = row->max_container_items;
    o.max_items = row->max_items;
    CHECK_STATUS(cbor_decode(in, n, row->flags, &o, &doc, &e), row->want);
    if (row->want != CBOR_FAST_OK) CHECK_EQ_UINT(e.offset, row->offset);
    cbor_doc_free(doc);

    CHECK_STATUS(cbor_reader_configure(r, row->flags, &o), CBOR_FAST_OK);
    CHECK_STATUS(skip_first(r, in, n, &off), row->want);
    CHECK_EQ_UINT(off, row->offset);
    cbor_reader_free(r);

    m.data = in;
    m.size = n;
    m.at = 0;
    m.piece = 2; /* two bytes per read: the stream reads each item in parts */
    m.fail_at_end = 0;
    CHECK_STATUS(cbor_stream_new(read_pieces, &m, 0, NULL, &st), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_configure(st, row->flags, &o), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_skip(st), row->want);
    if (row->want != CBOR_FAST_OK) {
      CHECK_STATUS(cbor_stream_error(st, &e), row->want);
      CHECK_EQ_UINT(e.offset, row->offset);
    }
    cbor_stream_free(st);
    if (check_failed_ != failed_before) fprintf(stderr, "    in row: %s\n", row->name);
  }
}

static void* never_malloc(void* context, size_t size) {
  (void)context;
  (void)size;
  return NULL;
}

static void test_reader_configure_arguments(void) {
  static const uint8_t nested[] = {0x81, 0x81, 0x00};
  static const uint8_t cut[] = {0x82, 0x01};
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_fast_allocator no_free = {never_malloc, NULL, NULL, NULL};
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  size_t off;
  cbor_reader* r = reader_over(NULL, 0);

  CHECK_STATUS(cbor_reader_configure(NULL, 0, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_stream_configure(NULL, 0, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  /* A depth of 1, then every refused call: the reader keeps depth 1. */
  o.max_depth = 1;
  CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_configure(r, CBOR_FAST_DECODE_EXACT, NULL),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_configure(r, CBOR_FAST_DECODE_COPY_STRINGS, NULL),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_configure(r, CBOR_FAST_DECODE_SKIP_SELF_DESCRIBED, NULL),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_configure(r, 1u << 30, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  o.max_depth = 0;
  o.struct_size = 3; /* covers no field whole */
  CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_ERR_INVALID_ARGUMENT);
  o.struct_size = sizeof o;
  o.max_memory = 1; /* a reader has no memory budget */
  CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_ERR_INVALID_ARGUMENT);
  o.max_memory = 0;
  o.alloc = &no_free; /* NULL hooks, refused as cbor_decode() refuses them */
  CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_ERR_INVALID_ARGUMENT);
  o.alloc = NULL;
  CHECK_STATUS(skip_first(r, nested, sizeof nested, &off), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(off, 1);
  /* NULL options: the defaults. */
  CHECK_STATUS(cbor_reader_configure(r, 0, NULL), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, nested, sizeof nested, &off), CBOR_FAST_OK);
  /* max_memory lifted (UINT64_MAX): no budget, which a reader keeps; the
   * other options apply. */
  o.max_memory = UINT64_MAX;
  o.max_depth = 1;
  CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, nested, sizeof nested, &off), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(off, 1);
  o.max_memory = UINT64_MAX - 1; /* a budget, however large */
  CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_ERR_INVALID_ARGUMENT);
  o.max_memory = 0;
  o.max_depth = 0;
  /* The 0.1 layout (struct_size 0: max_depth and alloc only). */
  o.struct_size = 0;
  o.max_depth = 1;
  CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_OK);
  CHECK_STATUS(skip_first(r, nested, sizeof nested, &off), CBOR_FAST_ERR_DEPTH);
  o.struct_size = sizeof o;
  o.max_depth = 0;
  /* Not below the current depth. */
  CHECK_STATUS(cbor_reader_configure(r, 0, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_reset(r, nested, sizeof nested), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_reader_depth(r), 2);
  o.max_depth = 1;
  CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_ERR_INVALID_ARGUMENT);
  o.max_depth = 2;
  CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_OK);
  /* The streaming switch is kept: a cut item waits for more. */
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_configure(r, CBOR_FAST_DECODE_VALIDATE_UTF8, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_reset(r, cut, sizeof cut), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_NEED_MORE);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_ERR_TRUNCATED);
  cbor_reader_free(r);
}

int main(void) {
  RUN_TEST(test_dense_document_fits_the_default);
  RUN_TEST(test_hostile_nesting_hits_the_default);
  RUN_TEST(test_default_container_limit_heads);
  RUN_TEST(test_default_container_limit_full);
  RUN_TEST(test_reader_zero_is_the_default);
  RUN_TEST(test_reader_configure_matches_decode);
  RUN_TEST(test_reader_configure_arguments);
  return check_summary();
}
