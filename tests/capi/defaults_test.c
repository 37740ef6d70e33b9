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
 */
#include <stdint.h>
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

int main(void) {
  RUN_TEST(test_dense_document_fits_the_default);
  RUN_TEST(test_hostile_nesting_hits_the_default);
  RUN_TEST(test_default_container_limit_heads);
  RUN_TEST(test_default_container_limit_full);
  return check_summary();
}
