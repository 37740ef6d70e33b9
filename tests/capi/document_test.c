/*
 * C API test of the document layer: cbor_decode, cbor_doc_*, cbor_node_*,
 * cbor_encode, cbor_mdoc_*, cbor_mnode_* and cbor_seq_*, every documented
 * status including NULL arguments, in plain C99.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"

/* ---- helpers ------------------------------------------------------------- */

static uint8_t g_in[4096];
static size_t g_in_size;

/* Decodes hex with the given flags (no options); *doc is NULL on failure. */
static cbor_fast_status dec(const char* h, uint32_t flags, cbor_doc** doc, cbor_fast_error* e) {
  g_in_size = unhex(h, g_in, sizeof g_in);
  return cbor_decode(g_in, g_in_size, flags, NULL, doc, e);
}

/* Encodes a document into a fresh owned writer; returns the bytes in out. */
static size_t enc(const cbor_doc* doc, uint32_t flags, uint8_t* out, size_t cap) {
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_encode(doc, flags, w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  if (size <= cap && data != NULL) memcpy(out, data, size);
  cbor_writer_free(w);
  return size;
}

static size_t menc(const cbor_mdoc* doc, uint8_t* out, size_t cap) {
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mdoc_encode(doc, w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  if (size <= cap && data != NULL) memcpy(out, data, size);
  cbor_writer_free(w);
  return size;
}

/* Allocation hooks that fail the n-th call and count live bytes. */
typedef struct {
  long fail_at;
  long calls;
  long live;
} test_alloc;

static void* t_malloc(void* ctx, size_t size) {
  test_alloc* t = (test_alloc*)ctx;
  void* p;
  if (t->calls++ == t->fail_at) return NULL;
  p = malloc(size == 0 ? 1 : size);
  if (p != NULL) t->live += (long)size;
  return p;
}
static void* t_realloc(void* ctx, void* ptr, size_t old_size, size_t new_size) {
  test_alloc* t = (test_alloc*)ctx;
  void* p;
  if (t->calls++ == t->fail_at) return NULL;
  p = realloc(ptr, new_size == 0 ? 1 : new_size);
  if (p != NULL) t->live += (long)new_size - (long)old_size;
  return p;
}
static void t_free(void* ctx, void* ptr, size_t size) {
  test_alloc* t = (test_alloc*)ctx;
  if (ptr == NULL) return;
  t->live -= (long)size;
  free(ptr);
}

/* ---- cbor_decode and the document ------------------------------------------ */

static void test_decode_statuses(void) {
  cbor_doc* doc = (cbor_doc*)&g_in; /* must be overwritten with NULL on failure */
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  const uint8_t one = 0x01;

  CHECK_STATUS(cbor_decode(&one, 1, CBOR_FAST_DECODE_NONE, NULL, &doc, &e), CBOR_FAST_OK);
  CHECK(doc != NULL);
  CHECK_STATUS(e.code, CBOR_FAST_OK);
  CHECK(e.message != NULL);
  CHECK_EQ_UINT(cbor_doc_node_count(doc), 1);
  CHECK_EQ_UINT(cbor_doc_encoded_size(doc), 1);
  cbor_doc_free(doc);

  /* END: no item. */
  doc = (cbor_doc*)&g_in;
  CHECK_STATUS(cbor_decode(NULL, 0, CBOR_FAST_DECODE_NONE, NULL, &doc, &e), CBOR_FAST_END);
  CHECK(doc == NULL);
  CHECK_STATUS(e.code, CBOR_FAST_END);

  /* INVALID_ARGUMENT: out NULL, data NULL with a size, unknown flags. */
  CHECK_STATUS(cbor_decode(&one, 1, 0, NULL, NULL, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(e.code, CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_decode(NULL, 1, 0, NULL, &doc, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(doc == NULL);
  CHECK_STATUS(cbor_decode(&one, 1, 32u, NULL, &doc, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);

  /* Not well-formed: the reader's code and offsets. */
  CHECK_STATUS(dec("83 01 02", 0, &doc, &e), CBOR_FAST_ERR_TRUNCATED); /* count > input */
  CHECK_EQ_UINT(e.offset, 0);
  CHECK_EQ_UINT(e.depth, 0);
  CHECK_STATUS(dec("83 1801 02", 0, &doc, &e), CBOR_FAST_ERR_TRUNCATED); /* an item missing */
  CHECK(doc == NULL);
  CHECK_EQ_UINT(e.offset, 4);
  CHECK_EQ_UINT(e.item_offset, 0);
  CHECK_EQ_UINT(e.depth, 1);
  CHECK_EQ_STR(e.message, cbor_status_string(CBOR_FAST_ERR_TRUNCATED));
  CHECK_STATUS(dec("82 01 ff", 0, &doc, &e), CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK_EQ_UINT(e.offset, 2);
  CHECK_STATUS(dec("1c", 0, &doc, &e), CBOR_FAST_ERR_RESERVED_AI);
  CHECK_STATUS(dec("1f", 0, &doc, &e), CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED);
  CHECK_STATUS(dec("f8 05", 0, &doc, &e), CBOR_FAST_ERR_BAD_SIMPLE);
  CHECK_STATUS(dec("5f 61 61 ff", 0, &doc, &e), CBOR_FAST_ERR_CHUNK_TYPE);
  CHECK_EQ_UINT(e.offset, 1);
  CHECK_STATUS(dec("5f 5f ff ff", 0, &doc, &e), CBOR_FAST_ERR_NESTED_CHUNK);
  CHECK_STATUS(dec("bf 01 ff", 0, &doc, &e), CBOR_FAST_ERR_MAP_MISSING_VALUE);
  CHECK_EQ_UINT(e.offset, 2);

  /* Strict checks. */
  CHECK_STATUS(dec("62 c3 28", 0, &doc, &e), CBOR_FAST_OK);
  cbor_doc_free(doc);
  CHECK_STATUS(dec("62 c3 28", CBOR_FAST_DECODE_VALIDATE_UTF8, &doc, &e),
               CBOR_FAST_ERR_INVALID_UTF8);
  CHECK_EQ_UINT(e.offset, 1);
  CHECK_EQ_UINT(e.item_offset, 0);
  CHECK_STATUS(dec("01 02", 0, &doc, &e), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_doc_encoded_size(doc), 1);
  cbor_doc_free(doc);
  CHECK_STATUS(dec("01 02", CBOR_FAST_DECODE_EXACT, &doc, &e), CBOR_FAST_ERR_TRAILING_BYTES);
  CHECK_EQ_UINT(e.offset, 1);
  CHECK(doc == NULL);

  /* Depth: max_depth 2 (0 means 512). */
  g_in_size = unhex("81 81 81 01", g_in, sizeof g_in);
  o.max_depth = 2;
  CHECK_STATUS(cbor_decode(g_in, g_in_size, 0, &o, &doc, &e), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(e.offset, 2);
  o.max_depth = 3;
  CHECK_STATUS(cbor_decode(g_in, g_in_size, 0, &o, &doc, &e), CBOR_FAST_OK);
  cbor_doc_free(doc);
  o.max_depth = 0;
  CHECK_STATUS(cbor_decode(g_in, g_in_size, 0, &o, &doc, &e), CBOR_FAST_OK);
  cbor_doc_free(doc);
  /* An options struct of size 4 is shorter than any layout: refused, not read
   * with its max_depth silently dropped. */
  o.struct_size = 4;
  o.max_depth = 1;
  CHECK_STATUS(cbor_decode(g_in, g_in_size, 0, &o, &doc, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(doc == NULL);
  CHECK_STATUS(e.code, CBOR_FAST_ERR_INVALID_ARGUMENT);
  /* struct_size 0 means the whole 0.1 layout. */
  o.struct_size = 0;
  CHECK_STATUS(cbor_decode(g_in, g_in_size, 0, &o, &doc, &e), CBOR_FAST_ERR_DEPTH);

  /* Frees accept NULL; getters of a NULL document. */
  cbor_doc_free(NULL);
  CHECK(cbor_doc_root(NULL) == NULL);
  CHECK_EQ_UINT(cbor_doc_encoded_size(NULL), 0);
  CHECK_EQ_UINT(cbor_doc_node_count(NULL), 0);
}

static void test_error_struct_size(void) {
  cbor_doc* doc = NULL;
  cbor_fast_error e;
  /* A struct_size shorter than the 0.1 layout (here: struct_size and code
   * only) is no version's struct: refused before decoding, nothing written. */
  memset(&e, 0xab, sizeof e);
  e.struct_size = (uint32_t)(offsetof(cbor_fast_error, code) + sizeof e.code);
  CHECK_STATUS(dec("83 01", 0, &doc, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(doc == NULL);
  {
    cbor_fast_error pattern;
    memset(&pattern, 0xab, sizeof pattern);
    pattern.struct_size = e.struct_size;
    CHECK(memcmp(&e, &pattern, sizeof e) == 0);
  }
  /* Far past any layout (0x10000, 0xffffffff): refused as well. */
  e.struct_size = 0x10000u;
  CHECK_STATUS(dec("83 01", 0, &doc, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  e.struct_size = 0xffffffffu;
  CHECK_STATUS(dec("83 01", 0, &doc, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  /* struct_size 0: the whole 0.1 layout. */
  memset(&e, 0, sizeof e);
  CHECK_STATUS(dec("82 1801", 0, &doc, &e), CBOR_FAST_ERR_TRUNCATED);
  CHECK_EQ_UINT(e.offset, 3);
  CHECK_EQ_UINT(e.depth, 1);
  CHECK(e.message != NULL);
}

static void test_decode_out_of_memory(void) {
  /* Every allocation of decode + deep copy + encode failing in turn. */
  long n;
  int failures = 0;
  int done = 0;
  g_in_size = unhex("a2 6161 9f 01 02 ff 6162 7f 6161 6162 ff", g_in, sizeof g_in);
  for (n = 0; n < 1000 && !done; ++n) {
    test_alloc t = {0, 0, 0};
    cbor_fast_allocator a;
    cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
    cbor_doc* doc = NULL;
    cbor_mdoc* m = NULL;
    cbor_fast_status s;
    t.fail_at = n;
    a.malloc = t_malloc;
    a.realloc = t_realloc;
    a.free = t_free;
    a.context = &t;
    o.alloc = &a;
    s = cbor_decode(g_in, g_in_size, CBOR_FAST_DECODE_COPY_STRINGS, &o, &doc, NULL);
    if (s == CBOR_FAST_OK) s = cbor_doc_to_mdoc(doc, &a, &m);
    if (s == CBOR_FAST_OK) {
      cbor_writer* w = NULL;
      s = cbor_writer_new(&a, &w);
      if (s == CBOR_FAST_OK) s = cbor_mdoc_encode(m, w);
      if (s == CBOR_FAST_OK) s = cbor_encode(doc, 0, w);
      cbor_writer_free(w);
    }
    if (s == CBOR_FAST_OK) {
      done = 1;
    } else {
      CHECK_STATUS(s, CBOR_FAST_ERR_OUT_OF_MEMORY);
      ++failures;
    }
    cbor_mdoc_free(m);
    cbor_doc_free(doc);
    CHECK_EQ_INT(t.live, 0);
  }
  CHECK(done);
  CHECK(failures >= 5);
}

/* ---- nodes ------------------------------------------------------------------ */

static void test_node_scalars(void) {
  cbor_doc* doc = NULL;
  const cbor_node* root;
  const cbor_node* n;
  uint64_t u = 7;
  int64_t i = 7;
  int neg = 7;
  int b = 7;
  uint8_t s = 7;
  double d = 7;
  const uint8_t* data = NULL;
  const char* text = NULL;
  size_t size = 0;
  /* [2^64-1, -2^64, INT64_MIN, "ab", h'01', 1.5 (single), true, null, undefined,
     simple(16), 1(0), 2(h'010000000000000000')] */
  CHECK_STATUS(dec("8c 1bffffffffffffffff 3bffffffffffffffff 3b7fffffffffffffff 626162 4101"
                   " fa3fc00000 f5 f6 f7 f0 c100 c249010000000000000000",
                   0, &doc, NULL),
               CBOR_FAST_OK);
  root = cbor_doc_root(doc);
  CHECK_EQ_INT(cbor_node_type(root), CBOR_FAST_TYPE_ARRAY);
  CHECK_EQ_UINT(cbor_node_size(root), 12);
  CHECK_EQ_INT(cbor_node_is_indefinite(root), 0);
  CHECK_EQ_UINT(cbor_node_offset(root), 0);

  n = cbor_node_array_get(root, 0);
  CHECK_EQ_INT(cbor_node_type(n), CBOR_FAST_TYPE_UINT);
  CHECK_EQ_UINT(cbor_node_offset(n), 1);
  CHECK_STATUS(cbor_node_get_uint64(n, &u), CBOR_FAST_OK);
  CHECK_EQ_UINT(u, UINT64_MAX);
  CHECK_STATUS(cbor_node_get_int64(n, &i), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_EQ_INT(i, 7);
  CHECK_STATUS(cbor_node_get_int_raw(n, &u, &neg), CBOR_FAST_OK);
  CHECK_EQ_INT(neg, 0);
  CHECK_STATUS(cbor_node_get_uint64(n, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_uint64(NULL, &u), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_int64(n, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_int64(NULL, &i), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_int_raw(n, NULL, &neg), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_int_raw(n, &u, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_int_raw(NULL, &u, &neg), CBOR_FAST_ERR_INVALID_ARGUMENT);

  n = cbor_node_array_get(root, 1);
  CHECK_EQ_INT(cbor_node_type(n), CBOR_FAST_TYPE_NEGATIVE);
  u = 7;
  CHECK_STATUS(cbor_node_get_uint64(n, &u), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_EQ_UINT(u, 7);
  CHECK_STATUS(cbor_node_get_int64(n, &i), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_STATUS(cbor_node_get_int_raw(n, &u, &neg), CBOR_FAST_OK);
  CHECK_EQ_UINT(u, UINT64_MAX);
  CHECK_EQ_INT(neg, 1);
  {
    const uint8_t* mag = (const uint8_t*)"x";
    size_t msize = 5;
    CHECK_STATUS(cbor_node_get_bignum(n, &u, &mag, &msize, &neg), CBOR_FAST_OK);
    CHECK(mag == NULL);
    CHECK_EQ_UINT(u, UINT64_MAX);
    CHECK_EQ_INT(neg, 1);
    CHECK_STATUS(cbor_node_get_bignum(cbor_node_array_get(root, 11), &u, &mag, &msize, &neg),
                 CBOR_FAST_OK);
    CHECK_EQ_UINT(u, 0);
    CHECK_EQ_BYTES(mag, msize, "\x01\x00\x00\x00\x00\x00\x00\x00\x00", 9);
    CHECK_EQ_INT(neg, 0);
    CHECK_STATUS(cbor_node_get_bignum(cbor_node_array_get(root, 10), &u, &mag, &msize, &neg),
                 CBOR_FAST_ERR_TYPE_MISMATCH);
    CHECK_STATUS(cbor_node_get_bignum(NULL, &u, &mag, &msize, &neg),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_node_get_bignum(n, NULL, &mag, &msize, &neg), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_node_get_bignum(n, &u, NULL, &msize, &neg), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_node_get_bignum(n, &u, &mag, NULL, &neg), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_node_get_bignum(n, &u, &mag, &msize, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  }

  n = cbor_node_array_get(root, 2);
  CHECK_STATUS(cbor_node_get_int64(n, &i), CBOR_FAST_OK);
  CHECK(i == INT64_MIN);

  n = cbor_node_array_get(root, 3);
  CHECK_STATUS(cbor_node_get_text(n, &text, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(text, size, "ab", 2);
  CHECK(text == (const char*)g_in + 29); /* a view into the input */
  CHECK_STATUS(cbor_node_get_bytes(n, &data, &size), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_node_get_text(n, NULL, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_text(n, &text, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_text(NULL, &text, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  n = cbor_node_array_get(root, 4);
  CHECK_STATUS(cbor_node_get_bytes(n, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, "\x01", 1);
  CHECK_STATUS(cbor_node_get_text(n, &text, &size), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_node_get_bytes(n, NULL, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_bytes(n, &data, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_bytes(NULL, &data, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);

  n = cbor_node_array_get(root, 5);
  CHECK_EQ_INT(cbor_node_type(n), CBOR_FAST_TYPE_FLOAT);
  CHECK_STATUS(cbor_node_get_double(n, &d), CBOR_FAST_OK);
  CHECK(d == 1.5);
  CHECK_EQ_UINT(cbor_node_float_width(n), 4);
  CHECK_EQ_UINT(cbor_node_float_width(root), 0);
  CHECK_EQ_UINT(cbor_node_float_width(NULL), 0);
  CHECK_STATUS(cbor_node_get_double(root, &d), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_node_get_double(n, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_double(NULL, &d), CBOR_FAST_ERR_INVALID_ARGUMENT);

  n = cbor_node_array_get(root, 6);
  CHECK_EQ_INT(cbor_node_type(n), CBOR_FAST_TYPE_BOOL);
  CHECK_STATUS(cbor_node_get_bool(n, &b), CBOR_FAST_OK);
  CHECK_EQ_INT(b, 1);
  CHECK_STATUS(cbor_node_get_simple(n, &s), CBOR_FAST_OK);
  CHECK_EQ_UINT(s, 21);
  CHECK_STATUS(cbor_node_get_bool(root, &b), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_node_get_bool(n, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_bool(NULL, &b), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_INT(cbor_node_type(cbor_node_array_get(root, 7)), CBOR_FAST_TYPE_NULL);
  CHECK_EQ_INT(cbor_node_type(cbor_node_array_get(root, 8)), CBOR_FAST_TYPE_UNDEFINED);
  n = cbor_node_array_get(root, 9);
  CHECK_EQ_INT(cbor_node_type(n), CBOR_FAST_TYPE_SIMPLE);
  CHECK_STATUS(cbor_node_get_simple(n, &s), CBOR_FAST_OK);
  CHECK_EQ_UINT(s, 16);
  CHECK_STATUS(cbor_node_get_simple(root, &s), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_node_get_simple(n, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_simple(NULL, &s), CBOR_FAST_ERR_INVALID_ARGUMENT);

  n = cbor_node_array_get(root, 10);
  CHECK_EQ_INT(cbor_node_type(n), CBOR_FAST_TYPE_TAG);
  CHECK_STATUS(cbor_node_get_tag(n, &u), CBOR_FAST_OK);
  CHECK_EQ_UINT(u, 1);
  CHECK_EQ_INT(cbor_node_type(cbor_node_tag_content(n)), CBOR_FAST_TYPE_UINT);
  CHECK(cbor_node_child(n) == cbor_node_tag_content(n));
  CHECK(cbor_node_tag_content(root) == NULL);
  CHECK(cbor_node_tag_content(NULL) == NULL);
  CHECK_STATUS(cbor_node_get_tag(root, &u), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_node_get_tag(n, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_node_get_tag(NULL, &u), CBOR_FAST_ERR_INVALID_ARGUMENT);

  CHECK(cbor_node_array_get(root, 12) == NULL);
  CHECK(cbor_node_array_get(NULL, 0) == NULL);
  CHECK(cbor_node_array_get(cbor_node_array_get(root, 0), 0) == NULL);
  CHECK_EQ_INT(cbor_node_type(NULL), CBOR_FAST_TYPE_NONE);
  CHECK_EQ_INT(cbor_node_is_indefinite(NULL), 0);
  CHECK_EQ_UINT(cbor_node_offset(NULL), 0);
  CHECK_EQ_UINT(cbor_node_size(NULL), 0);
  CHECK_EQ_UINT(cbor_node_size(cbor_node_array_get(root, 0)), 0);
  cbor_doc_free(doc);
}

static void test_node_maps_and_iteration(void) {
  cbor_doc* doc = NULL;
  const cbor_node* root;
  const cbor_node* c;
  uint64_t u = 0;
  const char* text = NULL;
  size_t size = 0;
  int count = 0;
  /* {"a": 1, -3: "m", "": [_ 2, 3], 10: {}} */
  CHECK_STATUS(dec("a4 6161 01 22 616d 60 9f 02 03 ff 0a a0", 0, &doc, NULL), CBOR_FAST_OK);
  root = cbor_doc_root(doc);
  CHECK_EQ_INT(cbor_node_type(root), CBOR_FAST_TYPE_MAP);
  CHECK_EQ_UINT(cbor_node_size(root), 4);
  CHECK_EQ_UINT(cbor_doc_node_count(doc), 11);
  CHECK_STATUS(cbor_node_get_text(cbor_node_map_key(root, 0), &text, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(text, size, "a", 1);
  CHECK_STATUS(cbor_node_get_uint64(cbor_node_map_value(root, 0), &u), CBOR_FAST_OK);
  CHECK_EQ_UINT(u, 1);
  CHECK(cbor_node_map_key(root, 4) == NULL);
  CHECK(cbor_node_map_value(root, 4) == NULL);
  CHECK(cbor_node_map_key(NULL, 0) == NULL);
  CHECK(cbor_node_map_value(NULL, 0) == NULL);
  CHECK(cbor_node_map_key(cbor_node_map_value(root, 0), 0) == NULL);

  CHECK(cbor_node_map_find(root, "a", 1) == cbor_node_map_value(root, 0));
  CHECK(cbor_node_map_find(root, "b", 1) == NULL);
  CHECK(cbor_node_map_find(root, "", 0) == cbor_node_map_value(root, 2));
  CHECK(cbor_node_map_find(root, NULL, 0) == cbor_node_map_value(root, 2));
  CHECK(cbor_node_map_find(root, NULL, 1) == NULL);
  CHECK(cbor_node_map_find(NULL, "a", 1) == NULL);
  CHECK(cbor_node_map_find(cbor_node_map_value(root, 0), "a", 1) == NULL);
  CHECK(cbor_node_map_find_int(root, -3) == cbor_node_map_value(root, 1));
  CHECK(cbor_node_map_find_int(root, 10) == cbor_node_map_value(root, 3));
  CHECK(cbor_node_map_find_int(root, 1) == NULL);
  CHECK(cbor_node_map_find_int(NULL, 1) == NULL);

  c = cbor_node_map_value(root, 2);
  CHECK_EQ_INT(cbor_node_is_indefinite(c), 1);
  CHECK_EQ_UINT(cbor_node_size(c), 2);
  CHECK_EQ_UINT(cbor_node_offset(c), 8);
  CHECK_STATUS(cbor_node_get_uint64(cbor_node_array_get(c, 1), &u), CBOR_FAST_OK);
  CHECK_EQ_UINT(u, 3);

  /* child/next: key, value, key, value, ... then NULL. */
  for (c = cbor_node_child(root); c != NULL; c = cbor_node_next(c)) ++count;
  CHECK_EQ_INT(count, 8);
  CHECK(cbor_node_child(cbor_node_map_value(root, 3)) == NULL); /* {} */
  CHECK(cbor_node_child(cbor_node_map_value(root, 0)) == NULL); /* scalar */
  CHECK(cbor_node_child(NULL) == NULL);
  CHECK(cbor_node_next(root) == NULL);
  CHECK(cbor_node_next(NULL) == NULL);
  CHECK(cbor_node_next(cbor_node_map_value(root, 3)) == NULL); /* last child */
  cbor_doc_free(doc);
}

static void test_indefinite_strings(void) {
  cbor_doc* doc = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  uint8_t out[64];
  size_t n;
  CHECK_STATUS(dec("5f 42 0102 43 030405 ff", CBOR_FAST_DECODE_COPY_STRINGS, &doc, NULL),
               CBOR_FAST_OK);
  memset(g_in, 0, sizeof g_in); /* copies: the input is no longer needed */
  CHECK_EQ_INT(cbor_node_is_indefinite(cbor_doc_root(doc)), 1);
  CHECK_STATUS(cbor_node_get_bytes(cbor_doc_root(doc), &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, "\x01\x02\x03\x04\x05", 5);
  CHECK(cbor_node_child(cbor_doc_root(doc)) == NULL);
  n = enc(doc, CBOR_FAST_ENCODE_NONE, out, sizeof out);
  CHECK_EQ_BYTES(out, n, "\x5f\x42\x01\x02\x43\x03\x04\x05\xff", 9);
  n = enc(doc, CBOR_FAST_ENCODE_PREFERRED, out, sizeof out);
  CHECK_EQ_BYTES(out, n, "\x45\x01\x02\x03\x04\x05", 6);
  cbor_doc_free(doc);
}

/* ---- cbor_encode ------------------------------------------------------------ */

static void test_encode(void) {
  cbor_doc* doc = NULL;
  cbor_writer* w = NULL;
  uint8_t small[3];
  uint8_t out[64];
  size_t n;
  CHECK_STATUS(dec("83 fb3ff8000000000000 9f ff 6161", 0, &doc, NULL), CBOR_FAST_OK);
  n = enc(doc, CBOR_FAST_ENCODE_NONE, out, sizeof out);
  CHECK_EQ_BYTES(out, n, "\x83\xfb\x3f\xf8\x00\x00\x00\x00\x00\x00\x9f\xff\x61\x61", 14);
  n = enc(doc, CBOR_FAST_ENCODE_PREFERRED, out, sizeof out);
  CHECK_EQ_BYTES(out, n, "\x83\xf9\x3e\x00\x80\x61\x61", 7);

  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_encode(NULL, 0, w), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_encode(doc, 0, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_encode(doc, 16u, w), CBOR_FAST_ERR_INVALID_ARGUMENT); /* unused flag (0.4) */
  CHECK_STATUS(cbor_encode(doc, CBOR_FAST_ENCODE_CANONICAL | CBOR_FAST_ENCODE_CTAP2, w),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  /* Nested inside items the caller writes. */
  CHECK_STATUS(cbor_writer_array(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_encode(doc, CBOR_FAST_ENCODE_PREFERRED, w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_writer_size(w), 8);
  cbor_writer_free(w);

  /* What the writer returns: a full caller buffer, with the size needed. */
  CHECK_STATUS(cbor_writer_new_buffer(small, sizeof small, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_encode(doc, 0, w), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_UINT(cbor_writer_size(w), 14);
  cbor_writer_free(w);
  /* A writer in error. */
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_ERR_WRITER_NO_CONTAINER);
  CHECK_STATUS(cbor_encode(doc, 0, w), CBOR_FAST_ERR_WRITER_NO_CONTAINER);
  cbor_writer_free(w);
  cbor_doc_free(doc);
}

/* ---- mutable documents ----------------------------------------------------- */

static void test_mdoc_build(void) {
  cbor_mdoc* m = NULL;
  cbor_mdoc* other = NULL;
  cbor_mnode* root;
  cbor_mnode* list;
  cbor_mnode* n;
  uint8_t out[128];
  size_t size;
  static const uint8_t big[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
  static const uint8_t fits[3] = {0, 1, 0};

  CHECK_STATUS(cbor_mdoc_new(NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mdoc_new(NULL, &m), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mdoc_new(NULL, &other), CBOR_FAST_OK);
  CHECK(cbor_mdoc_root(m) == NULL);
  CHECK(cbor_mdoc_root(NULL) == NULL);

  root = cbor_mdoc_map(m);
  CHECK_STATUS(cbor_mdoc_set_root(m, root), CBOR_FAST_OK);
  CHECK(cbor_mdoc_root(m) == root);
  CHECK_STATUS(cbor_mnode_map_set(root, "a", 1, cbor_mdoc_uint(m, 1)), CBOR_FAST_OK);
  list = cbor_mdoc_array(m);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_int(m, -2)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_negative(m, UINT64_MAX)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_float(m, 1.5, CBOR_FAST_FLOAT_SHORTEST)),
               CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_float(m, 1.5, CBOR_FAST_FLOAT_SINGLE)),
               CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_bool(m, 0)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_null(m)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_undefined(m)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_simple(m, 99)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_bytes(m, "\x00\x01", 2)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_text(m, "hi", 2)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_tag(m, 32, cbor_mdoc_text(m, "u", 1))),
               CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_bignum(m, big, sizeof big, 1)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_bignum(m, fits, sizeof fits, 0)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_map_put(root, cbor_mdoc_text(m, "b", 1), list), CBOR_FAST_OK);
  size = menc(m, out, sizeof out);
  CHECK_EQ_BYTES(out, size,
                 "\xa2\x61\x61\x01\x61\x62\x8d\x21\x3b\xff\xff\xff\xff\xff\xff\xff\xff"
                 "\xf9\x3e\x00\xfa\x3f\xc0\x00\x00\xf4\xf6\xf7\xf8\x63\x42\x00\x01\x62\x68\x69"
                 "\xd8\x20\x61\x75\xc3\x49\x01\x00\x00\x00\x00\x00\x00\x00\x00\x19\x01\x00",
                 54);

  /* Editing: replace, set indefinite, detach and reuse. */
  n = cbor_mnode_array_get(list, 0);
  CHECK_STATUS(cbor_mnode_array_set(list, 0, cbor_mdoc_uint(m, 5)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_map_set(root, "a", 1, n), CBOR_FAST_OK); /* detached: placeable */
  CHECK_STATUS(cbor_mnode_set_indefinite(list, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_set_indefinite(root, 0), CBOR_FAST_OK);
  size = menc(m, out, sizeof out);
  CHECK_EQ_UINT(size, 55);
  CHECK_EQ_BYTES(out, 8, "\xa2\x61\x61\x21\x61\x62\x9f\x05", 8);
  CHECK_EQ_UINT(out[54], 0xff);

  /* Constructors refuse bad arguments and NULL documents. */
  CHECK(cbor_mdoc_uint(NULL, 1) == NULL);
  CHECK(cbor_mdoc_int(NULL, 1) == NULL);
  CHECK(cbor_mdoc_negative(NULL, 1) == NULL);
  CHECK(cbor_mdoc_bignum(NULL, big, 1, 0) == NULL);
  CHECK(cbor_mdoc_bignum(m, NULL, 1, 0) == NULL);
  CHECK(cbor_mdoc_float(NULL, 1.0, CBOR_FAST_FLOAT_SHORTEST) == NULL);
  CHECK(cbor_mdoc_float(m, 1.0, (cbor_fast_float_width)3) == NULL);
  CHECK(cbor_mdoc_bool(NULL, 1) == NULL);
  CHECK(cbor_mdoc_null(NULL) == NULL);
  CHECK(cbor_mdoc_undefined(NULL) == NULL);
  CHECK(cbor_mdoc_simple(NULL, 1) == NULL);
  CHECK(cbor_mdoc_simple(m, 24) == NULL);
  CHECK(cbor_mdoc_simple(m, 31) == NULL);
  CHECK(cbor_mdoc_bytes(NULL, "x", 1) == NULL);
  CHECK(cbor_mdoc_bytes(m, NULL, 1) == NULL);
  CHECK(cbor_mdoc_bytes(m, NULL, 0) != NULL);
  CHECK(cbor_mdoc_text(NULL, "x", 1) == NULL);
  CHECK(cbor_mdoc_text(m, NULL, 1) == NULL);
  CHECK(cbor_mdoc_text(m, NULL, 0) != NULL);
  CHECK(cbor_mdoc_array(NULL) == NULL);
  CHECK(cbor_mdoc_map(NULL) == NULL);
  CHECK(cbor_mdoc_tag(NULL, 1, cbor_mdoc_uint(m, 1)) == NULL);
  CHECK(cbor_mdoc_tag(m, 1, NULL) == NULL);
  CHECK(cbor_mdoc_tag(m, 1, cbor_mdoc_uint(other, 1)) == NULL);
  CHECK(cbor_mdoc_tag(m, 1, list) == NULL); /* placed already */

  /* Building errors. */
  n = cbor_mdoc_uint(m, 1);
  CHECK_STATUS(cbor_mnode_append(NULL, n), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_append(list, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_append(list, cbor_mdoc_uint(other, 1)), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_append(list, root), CBOR_FAST_ERR_INVALID_ARGUMENT); /* the root */
  CHECK_STATUS(cbor_mnode_append(root, n), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_array_set(list, 99, n), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_STATUS(cbor_mnode_array_set(NULL, 0, n), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_array_set(root, 0, n), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_map_put(NULL, n, cbor_mdoc_uint(m, 2)), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_map_put(root, n, n), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_map_put(root, n, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_map_put(list, n, cbor_mdoc_uint(m, 2)), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_map_set(root, NULL, 1, n), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_map_set(NULL, "k", 1, n), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_map_set(list, "k", 1, n), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_map_set(root, NULL, 0, n), CBOR_FAST_OK); /* key "" */
  CHECK_STATUS(cbor_mnode_set_indefinite(NULL, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_set_indefinite(n, 1), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mdoc_set_root(NULL, root), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mdoc_set_root(m, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mdoc_set_root(m, list), CBOR_FAST_ERR_INVALID_ARGUMENT); /* in a map */
  CHECK_STATUS(cbor_mdoc_set_root(other, root), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mdoc_set_root(m, root), CBOR_FAST_OK); /* already the root */

  cbor_mdoc_free(other);
  cbor_mdoc_free(m);
  cbor_mdoc_free(NULL);
}

static void test_mnode_getters(void) {
  cbor_mdoc* m = NULL;
  cbor_mnode* map;
  cbor_mnode* f;
  uint64_t u = 9;
  int64_t i = 9;
  double d = 9;
  int b = 9;
  const uint8_t* data = NULL;
  const char* text = NULL;
  size_t size = 0;
  CHECK_STATUS(cbor_mdoc_new(NULL, &m), CBOR_FAST_OK);
  map = cbor_mdoc_map(m);
  CHECK_STATUS(cbor_mnode_map_set(map, "u", 1, cbor_mdoc_uint(m, UINT64_MAX)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_map_set(map, "i", 1, cbor_mdoc_int(m, INT64_MIN)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_map_set(map, "f", 1, cbor_mdoc_float(m, 0.25, CBOR_FAST_FLOAT_DOUBLE)),
               CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_map_set(map, "b", 1, cbor_mdoc_bool(m, 1)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_map_set(map, "y", 1, cbor_mdoc_bytes(m, "\x07", 1)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_map_set(map, "t", 1, cbor_mdoc_tag(m, 4, cbor_mdoc_text(m, "z", 1))),
               CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_mnode_size(map), 6);
  CHECK_EQ_INT(cbor_mnode_type(map), CBOR_FAST_TYPE_MAP);
  CHECK_EQ_INT(cbor_mnode_type(NULL), CBOR_FAST_TYPE_NONE);

  CHECK_STATUS(cbor_mnode_get_uint64(cbor_mnode_map_find(map, "u", 1), &u), CBOR_FAST_OK);
  CHECK_EQ_UINT(u, UINT64_MAX);
  CHECK_STATUS(cbor_mnode_get_int64(cbor_mnode_map_find(map, "u", 1), &i),
               CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_EQ_INT(i, 9);
  CHECK_STATUS(cbor_mnode_get_int64(cbor_mnode_map_find(map, "i", 1), &i), CBOR_FAST_OK);
  CHECK(i == INT64_MIN);
  CHECK_STATUS(cbor_mnode_get_uint64(cbor_mnode_map_find(map, "i", 1), &u),
               CBOR_FAST_ERR_TYPE_MISMATCH);
  f = cbor_mnode_map_value(map, 2);
  CHECK_STATUS(cbor_mnode_get_double(f, &d), CBOR_FAST_OK);
  CHECK(d == 0.25);
  CHECK_STATUS(cbor_mnode_get_double(map, &d), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_get_bool(cbor_mnode_map_find(map, "b", 1), &b), CBOR_FAST_OK);
  CHECK_EQ_INT(b, 1);
  CHECK_STATUS(cbor_mnode_get_bool(f, &b), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_get_bytes(cbor_mnode_map_find(map, "y", 1), &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, "\x07", 1);
  CHECK_STATUS(cbor_mnode_get_bytes(f, &data, &size), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_get_text(cbor_mnode_map_key(map, 0), &text, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(text, size, "u", 1);
  CHECK_STATUS(cbor_mnode_get_text(f, &text, &size), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_get_tag(cbor_mnode_map_find(map, "t", 1), &u), CBOR_FAST_OK);
  CHECK_EQ_UINT(u, 4);
  CHECK_STATUS(cbor_mnode_get_tag(f, &u), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(
      cbor_mnode_get_text(cbor_mnode_tag_content(cbor_mnode_map_find(map, "t", 1)), &text, &size),
      CBOR_FAST_OK);
  CHECK_EQ_BYTES(text, size, "z", 1);
  CHECK(cbor_mnode_tag_content(f) == NULL);
  CHECK(cbor_mnode_tag_content(NULL) == NULL);

  /* NULL node and NULL outs. */
  CHECK_STATUS(cbor_mnode_get_uint64(NULL, &u), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_uint64(f, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_int64(NULL, &i), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_int64(f, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_double(NULL, &d), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_double(f, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_bool(NULL, &b), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_bool(f, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_bytes(NULL, &data, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_bytes(f, NULL, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_bytes(f, &data, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_text(NULL, &text, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_text(f, NULL, &size), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_text(f, &text, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_tag(NULL, &u), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_get_tag(f, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_mnode_size(NULL), 0);
  CHECK_EQ_UINT(cbor_mnode_size(f), 0);
  CHECK(cbor_mnode_array_get(NULL, 0) == NULL);
  CHECK(cbor_mnode_array_get(map, 0) == NULL);
  CHECK(cbor_mnode_map_key(NULL, 0) == NULL);
  CHECK(cbor_mnode_map_key(map, 6) == NULL);
  CHECK(cbor_mnode_map_value(NULL, 0) == NULL);
  CHECK(cbor_mnode_map_value(map, 6) == NULL);
  CHECK(cbor_mnode_map_find(NULL, "u", 1) == NULL);
  CHECK(cbor_mnode_map_find(map, NULL, 1) == NULL);
  CHECK(cbor_mnode_map_find(map, "q", 1) == NULL);

  {
    cbor_mnode* arr = cbor_mdoc_array(m);
    CHECK_STATUS(cbor_mnode_append(arr, cbor_mdoc_uint(m, 3)), CBOR_FAST_OK);
    CHECK_EQ_UINT(cbor_mnode_size(arr), 1);
    CHECK_STATUS(cbor_mnode_get_uint64(cbor_mnode_array_get(arr, 0), &u), CBOR_FAST_OK);
    CHECK_EQ_UINT(u, 3);
    CHECK(cbor_mnode_array_get(arr, 1) == NULL);
  }
  cbor_mdoc_free(m);
}

static void test_mdoc_encode_and_copy(void) {
  cbor_mdoc* m = NULL;
  cbor_doc* doc = NULL;
  cbor_writer* w = NULL;
  uint8_t out[64];
  size_t size;
  CHECK_STATUS(cbor_mdoc_new(NULL, &m), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mdoc_encode(m, w), CBOR_FAST_ERR_INVALID_ARGUMENT); /* no root */
  CHECK_STATUS(cbor_mdoc_encode(NULL, w), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mdoc_encode(m, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_writer_free(w);
  cbor_mdoc_free(m);
  m = NULL;

  /* Deep copy, free the source and its input, edit, encode. */
  CHECK_STATUS(dec("a2 6161 9f 01 ff 6162 fa3fc00000", 0, &doc, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_doc_to_mdoc(NULL, NULL, &m), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(m == NULL);
  CHECK_STATUS(cbor_doc_to_mdoc(doc, NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_doc_to_mdoc(doc, NULL, &m), CBOR_FAST_OK);
  cbor_doc_free(doc);
  memset(g_in, 0, sizeof g_in);
  CHECK_STATUS(
      cbor_mnode_append(cbor_mnode_map_find(cbor_mdoc_root(m), "a", 1), cbor_mdoc_text(m, "x", 1)),
      CBOR_FAST_OK);
  size = menc(m, out, sizeof out);
  /* Indefinite array and single width kept, as the copy documents. */
  CHECK_EQ_BYTES(out, size, "\xa2\x61\x61\x9f\x01\x61\x78\xff\x61\x62\xfa\x3f\xc0\x00\x00", 15);
  cbor_mdoc_free(m);
}

static void test_mdoc_out_of_memory(void) {
  long n;
  int done = 0;
  int failures = 0;
  for (n = 0; n < 1000 && !done; ++n) {
    test_alloc t = {0, 0, 0};
    cbor_fast_allocator a;
    cbor_mdoc* m = NULL;
    cbor_fast_status s;
    t.fail_at = n;
    a.malloc = t_malloc;
    a.realloc = t_realloc;
    a.free = t_free;
    a.context = &t;
    s = cbor_mdoc_new(&a, &m);
    if (s == CBOR_FAST_OK) {
      cbor_mnode* arr = cbor_mdoc_array(m);
      int k;
      s = arr != NULL ? cbor_mdoc_set_root(m, arr) : CBOR_FAST_ERR_OUT_OF_MEMORY;
      for (k = 0; k < 40 && s == CBOR_FAST_OK; ++k) {
        cbor_mnode* item = cbor_mdoc_text(m, "abcdefgh", 8);
        s = item != NULL ? cbor_mnode_append(arr, item) : CBOR_FAST_ERR_OUT_OF_MEMORY;
      }
    } else {
      CHECK(m == NULL);
    }
    if (s == CBOR_FAST_OK) {
      done = 1;
    } else {
      CHECK_STATUS(s, CBOR_FAST_ERR_OUT_OF_MEMORY);
      ++failures;
    }
    cbor_mdoc_free(m);
    CHECK_EQ_INT(t.live, 0);
  }
  CHECK(done);
  CHECK(failures >= 3);
}

/* ---- sequences ------------------------------------------------------------ */

static void test_sequence(void) {
  cbor_seq* seq = NULL;
  cbor_doc* doc = NULL;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  size_t off = 99;
  size_t len = 99;
  uint64_t u = 0;
  static const uint8_t items[] = {0x01, 0x82, 0x02, 0x03, 0xa1, 0x61, 0x61, 0xf5};
  static const uint8_t bad[] = {0x01, 0x83, 0x01, 0xff, 0x02};

  CHECK_STATUS(cbor_seq_new(items, sizeof items, NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_seq_new(NULL, 1, NULL, &seq), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(seq == NULL);
  CHECK_STATUS(cbor_seq_new(items, sizeof items, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_OK);
  CHECK_EQ_UINT(off, 0);
  CHECK_EQ_UINT(len, 1);
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_OK);
  CHECK_EQ_UINT(off, 1);
  CHECK_EQ_UINT(len, 3);
  CHECK_STATUS(cbor_seq_next(seq, 0, NULL, NULL), CBOR_FAST_OK); /* outs are optional */
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_END);
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_END);
  CHECK_STATUS(cbor_seq_error(seq, &e), CBOR_FAST_OK);
  CHECK_STATUS(e.code, CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 64u, &off, &len), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_seq_free(seq);
  seq = NULL;

  /* Documents, one per item. */
  CHECK_STATUS(cbor_seq_new(items, sizeof items, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_seq_next_doc(NULL, 0, &doc), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(doc == NULL);
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_OK);
  CHECK_STATUS(cbor_node_get_uint64(cbor_doc_root(doc), &u), CBOR_FAST_OK);
  CHECK_EQ_UINT(u, 1);
  cbor_doc_free(doc);
  CHECK_STATUS(cbor_seq_next_doc(seq, CBOR_FAST_DECODE_EXACT | CBOR_FAST_DECODE_COPY_STRINGS, &doc),
               CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_node_size(cbor_doc_root(doc)), 2);
  CHECK_EQ_UINT(cbor_node_offset(cbor_doc_root(doc)), 1);
  cbor_doc_free(doc);
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_OK);
  CHECK(cbor_node_map_find(cbor_doc_root(doc), "a", 1) != NULL);
  cbor_doc_free(doc);
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_END);
  CHECK(doc == NULL);
  CHECK_STATUS(cbor_seq_next_doc(seq, 64u, &doc), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_seq_free(seq);
  seq = NULL;

  /* A malformed second item: sticky, item_offset = its start. */
  CHECK_STATUS(cbor_seq_new(bad, sizeof bad, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK(doc == NULL);
  CHECK_STATUS(cbor_seq_error(seq, &e), CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK_EQ_UINT(e.offset, 3);
  CHECK_EQ_UINT(e.item_offset, 1);
  CHECK_EQ_UINT(e.depth, 1);
  CHECK(e.message != NULL);
  CHECK_STATUS(cbor_seq_error(seq, NULL), CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK_STATUS(cbor_seq_error(NULL, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_seq_free(seq);
  seq = NULL;

  /* The same through documents, and options: max_depth for every item. */
  {
    cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
    static const uint8_t nested[] = {0x81, 0x01, 0x81, 0x81, 0x01};
    o.max_depth = 1;
    CHECK_STATUS(cbor_seq_new(nested, sizeof nested, &o, &seq), CBOR_FAST_OK);
    CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_OK);
    cbor_doc_free(doc);
    CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_ERR_DEPTH);
    CHECK_STATUS(cbor_seq_error(seq, &e), CBOR_FAST_ERR_DEPTH);
    CHECK_EQ_UINT(e.offset, 3);
    CHECK_EQ_UINT(e.item_offset, 2);
    cbor_seq_free(seq);
    seq = NULL;
  }
  /* UTF-8 only when asked. */
  {
    static const uint8_t text[] = {0x62, 0xc3, 0x28};
    CHECK_STATUS(cbor_seq_new(text, sizeof text, NULL, &seq), CBOR_FAST_OK);
    CHECK_STATUS(cbor_seq_next(seq, CBOR_FAST_DECODE_VALIDATE_UTF8, &off, &len),
                 CBOR_FAST_ERR_INVALID_UTF8);
    CHECK_STATUS(cbor_seq_error(seq, &e), CBOR_FAST_ERR_INVALID_UTF8);
    CHECK_EQ_UINT(e.offset, 1);
    CHECK_EQ_UINT(e.item_offset, 0);
    cbor_seq_free(seq);
    seq = NULL;
  }
  /* Empty sequence: END at once. */
  CHECK_STATUS(cbor_seq_new(NULL, 0, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_END);
  cbor_seq_free(seq);
  cbor_seq_free(NULL);
  CHECK_STATUS(cbor_seq_next(NULL, 0, &off, &len), CBOR_FAST_ERR_INVALID_ARGUMENT);
}

static void test_sequence_out_of_memory(void) {
  long n;
  int done = 0;
  int failures = 0;
  static const uint8_t items[] = {0x9f, 0x7f, 0x61, 0x61, 0xff, 0xff, 0x01};
  for (n = 0; n < 1000 && !done; ++n) {
    test_alloc t = {0, 0, 0};
    cbor_fast_allocator a;
    cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
    cbor_seq* seq = NULL;
    cbor_doc* doc = NULL;
    cbor_fast_status s;
    t.fail_at = n;
    a.malloc = t_malloc;
    a.realloc = t_realloc;
    a.free = t_free;
    a.context = &t;
    o.alloc = &a;
    s = cbor_seq_new(items, sizeof items, &o, &seq);
    if (s == CBOR_FAST_OK) s = cbor_seq_next_doc(seq, CBOR_FAST_DECODE_COPY_STRINGS, &doc);
    if (s == CBOR_FAST_OK) s = cbor_seq_next(seq, 0, NULL, NULL);
    if (s == CBOR_FAST_OK) {
      done = 1;
    } else {
      CHECK_STATUS(s, CBOR_FAST_ERR_OUT_OF_MEMORY);
      CHECK(doc == NULL);
      ++failures;
    }
    cbor_doc_free(doc);
    cbor_seq_free(seq);
    CHECK_EQ_INT(t.live, 0);
  }
  CHECK(done);
  CHECK(failures >= 3);
}

int main(void) {
  RUN_TEST(test_decode_statuses);
  RUN_TEST(test_error_struct_size);
  RUN_TEST(test_decode_out_of_memory);
  RUN_TEST(test_node_scalars);
  RUN_TEST(test_node_maps_and_iteration);
  RUN_TEST(test_indefinite_strings);
  RUN_TEST(test_encode);
  RUN_TEST(test_mdoc_build);
  RUN_TEST(test_mnode_getters);
  RUN_TEST(test_mdoc_encode_and_copy);
  RUN_TEST(test_mdoc_out_of_memory);
  RUN_TEST(test_sequence);
  RUN_TEST(test_sequence_out_of_memory);
  return check_summary();
}
