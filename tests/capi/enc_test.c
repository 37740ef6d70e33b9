/*
 * The 0.4 additions of the "canonical encoding, tags as values, editing
 * mutable documents" section of cbor_fast.h, from C.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"

/* Canonicalises in[0, n) into a fresh owned writer; out gets the bytes. */
static cbor_fast_status canon(const uint8_t* in, size_t n, uint32_t flags, uint8_t* out,
                              size_t* out_size, cbor_fast_error* err) {
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  cbor_fast_status s;
  if (cbor_writer_new(NULL, &w) != CBOR_FAST_OK) return CBOR_FAST_ERR_OUT_OF_MEMORY;
  s = cbor_canonicalize(in, n, flags, 0, NULL, w, err);
  if (s == CBOR_FAST_OK) s = cbor_writer_finish(w, &data, &size);
  if (s == CBOR_FAST_OK) {
    memcpy(out, data, size);
    *out_size = size;
  }
  cbor_writer_free(w);
  return s;
}

static void test_canonical_forms(void) {
  /* {"": 1, 100: 2, -1: 3} */
  static const uint8_t in[] = {0xa3, 0x60, 0x01, 0x18, 0x64, 0x02, 0x20, 0x03};
  static const uint8_t core[] = {0xa3, 0x18, 0x64, 0x02, 0x20, 0x03, 0x60, 0x01};
  static const uint8_t lf[] = {0xa3, 0x20, 0x03, 0x60, 0x01, 0x18, 0x64, 0x02};
  static const uint8_t ctap[] = {0xa3, 0x18, 0x64, 0x02, 0x20, 0x03, 0x60, 0x01};
  uint8_t out[64];
  size_t n = 0;
  CHECK_STATUS(canon(in, sizeof in, CBOR_FAST_ENCODE_CANONICAL, out, &n, NULL), CBOR_FAST_OK);
  CHECK_EQ_BYTES(out, n, core, sizeof core);
  CHECK_STATUS(canon(in, sizeof in, CBOR_FAST_ENCODE_LENGTH_FIRST, out, &n, NULL), CBOR_FAST_OK);
  CHECK_EQ_BYTES(out, n, lf, sizeof lf);
  CHECK_STATUS(canon(in, sizeof in, CBOR_FAST_ENCODE_CTAP2, out, &n, NULL), CBOR_FAST_OK);
  CHECK_EQ_BYTES(out, n, ctap, sizeof ctap);
}

static void test_canonical_errors(void) {
  /* {1: 0, 0x1801: 1}: one key twice; the later one is at offset 3. */
  static const uint8_t dup[] = {0xa2, 0x01, 0x00, 0x18, 0x01, 0x01};
  /* [1, 1("x")]: CTAP2 has no tags; the tag is at offset 2. */
  static const uint8_t tagged[] = {0x82, 0x01, 0xc1, 0x61, 0x78};
  static const uint8_t two[] = {0xa0, 0xa0};
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  uint8_t out[64];
  size_t n = 0;
  cbor_writer* w = NULL;
  CHECK_STATUS(canon(dup, sizeof dup, CBOR_FAST_ENCODE_CANONICAL, out, &n, &err),
               CBOR_FAST_ERR_DUPLICATE_KEY);
  CHECK_EQ_UINT(err.offset, 3);
  CHECK_STATUS(err.code, CBOR_FAST_ERR_DUPLICATE_KEY);
  CHECK_STATUS(canon(tagged, sizeof tagged, CBOR_FAST_ENCODE_CTAP2, out, &n, &err),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(err.offset, 2);
  CHECK_STATUS(canon(tagged, sizeof tagged, CBOR_FAST_ENCODE_CANONICAL, out, &n, &err),
               CBOR_FAST_OK);
  CHECK_STATUS(canon(two, sizeof two, 0, out, &n, &err), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(
      canon(two, sizeof two, CBOR_FAST_ENCODE_CANONICAL | CBOR_FAST_ENCODE_CTAP2, out, &n, &err),
      CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_canonicalize(two, sizeof two, CBOR_FAST_ENCODE_CANONICAL, 0, NULL, NULL, &err),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_canonicalize(two, sizeof two, CBOR_FAST_ENCODE_CANONICAL,
                                 CBOR_FAST_DECODE_EXACT, NULL, w, &err),
               CBOR_FAST_ERR_TRAILING_BYTES);
  CHECK_EQ_UINT(err.offset, 1);
  CHECK_STATUS(cbor_canonicalize(NULL, 3, CBOR_FAST_ENCODE_CANONICAL, 0, NULL, w, &err),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_writer_free(w);
}

static void test_canonical_buffer_and_encode(void) {
  /* {"b": 1, "a": 2} */
  static const uint8_t in[] = {0xa2, 0x61, 0x62, 0x01, 0x61, 0x61, 0x02};
  static const uint8_t want[] = {0xa2, 0x61, 0x61, 0x02, 0x61, 0x62, 0x01};
  uint8_t buf[7];
  uint8_t small[3];
  cbor_writer* w = NULL;
  cbor_doc* doc = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  CHECK_STATUS(cbor_writer_new_buffer(buf, sizeof buf, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_canonicalize(in, sizeof in, CBOR_FAST_ENCODE_CANONICAL, 0, NULL, w, NULL),
               CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, want, sizeof want);
  cbor_writer_free(w);
  /* Too small: the size needed is reported. */
  CHECK_STATUS(cbor_writer_new_buffer(small, sizeof small, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_canonicalize(in, sizeof in, CBOR_FAST_ENCODE_CANONICAL, 0, NULL, w, NULL),
               CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_UINT(cbor_writer_size(w), 7);
  cbor_writer_free(w);
  /* cbor_encode() with the flag. */
  CHECK_STATUS(cbor_decode(in, sizeof in, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_encode(doc, CBOR_FAST_ENCODE_LENGTH_FIRST, w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, want, sizeof want);
  cbor_writer_free(w);
  cbor_doc_free(doc);
}

/* Allocation hooks that count calls and fail the call numbered fail_at (0-based). */
typedef struct counted {
  int calls;
  int fail_at;
} counted;
static void* counted_malloc(void* c, size_t n) {
  counted* k = (counted*)c;
  return k->calls++ == k->fail_at ? NULL : malloc(n);
}
static void* counted_realloc(void* c, void* p, size_t old_size, size_t n) {
  counted* k = (counted*)c;
  (void)old_size;
  return k->calls++ == k->fail_at ? NULL : realloc(p, n);
}
static void counted_free(void* c, void* p, size_t n) {
  (void)c;
  (void)n;
  free(p);
}

/* cbor_canonicalize() takes the sort's scratch from options->alloc, as its
 * decode does: the first call after the decode's own fails it. */
static void test_canonicalize_scratch_from_the_hooks(void) {
  /* {3: 0, 2: 0, 1: 0}: out of order, so the pairs are sorted. */
  static const uint8_t in[] = {0xa3, 0x03, 0x00, 0x02, 0x00, 0x01, 0x00};
  static const uint8_t want[] = {0xa3, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00};
  counted k = {0, -1};
  cbor_fast_allocator a = {counted_malloc, counted_realloc, counted_free, &k};
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_doc* doc = NULL;
  cbor_writer* w = NULL;
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  const uint8_t* data = NULL;
  size_t size = 0;
  int decode_calls;
  o.alloc = &a;
  CHECK_STATUS(cbor_decode(in, sizeof in, 0, &o, &doc, NULL), CBOR_FAST_OK);
  cbor_doc_free(doc);
  decode_calls = k.calls;
  CHECK(decode_calls > 0);
  k.calls = 0;
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_canonicalize(in, sizeof in, CBOR_FAST_ENCODE_CANONICAL, 0, &o, w, NULL),
               CBOR_FAST_OK);
  CHECK(k.calls > decode_calls); /* the scratch came through the hooks */
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, want, sizeof want);
  cbor_writer_free(w);
  k.calls = 0;
  k.fail_at = decode_calls;
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_canonicalize(in, sizeof in, CBOR_FAST_ENCODE_CANONICAL, 0, &o, w, &err),
               CBOR_FAST_ERR_OUT_OF_MEMORY);
  CHECK_STATUS(err.code, CBOR_FAST_ERR_OUT_OF_MEMORY);
  cbor_writer_free(w);
}

static void test_mdoc_encode_flags(void) {
  static const uint8_t want[] = {0xa2, 0x01, 0xf5, 0x61, 0x61, 0xf6};
  cbor_mdoc* m = NULL;
  cbor_mnode* map;
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  CHECK_STATUS(cbor_mdoc_new(NULL, &m), CBOR_FAST_OK);
  map = cbor_mdoc_map(m);
  CHECK_STATUS(cbor_mnode_map_put(map, cbor_mdoc_text(m, "a", 1), cbor_mdoc_null(m)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_map_put(map, cbor_mdoc_uint(m, 1), cbor_mdoc_bool(m, 1)), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mdoc_set_root(m, map), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mdoc_encode_flags(m, CBOR_FAST_ENCODE_CANONICAL, w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, want, sizeof want);
  CHECK_STATUS(cbor_mdoc_encode_flags(NULL, CBOR_FAST_ENCODE_CANONICAL, w),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mdoc_encode_flags(m, 64, w), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_writer_free(w);
  cbor_mdoc_free(m);
}

static void test_mnode_edit(void) {
  /* {1: "a", -1: "b", "k": [10, 11, 12]} */
  static const uint8_t in[] = {0xa3, 0x01, 0x61, 0x61, 0x20, 0x61, 0x62,
                               0x61, 0x6b, 0x83, 0x0a, 0x0b, 0x0c};
  static const uint8_t after_remove[] = {0xa2, 0x01, 0x61, 0x61, 0x61, 0x6b, 0x81, 0x0c};
  static const uint8_t big[] = {0xc3, 0x49, 1, 0, 0, 0, 0, 0, 0, 0, 0};
  cbor_doc* doc = NULL;
  cbor_mdoc* m = NULL;
  cbor_mnode *root, *arr, *v, *c;
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  const uint8_t* mag = NULL;
  size_t size = 0;
  uint64_t raw = 0;
  int neg = 0;
  uint8_t simple = 0;
  CHECK_STATUS(cbor_decode(in, sizeof in, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_doc_to_mdoc(doc, NULL, &m), CBOR_FAST_OK);
  cbor_doc_free(doc);
  root = cbor_mdoc_root(m);
  v = cbor_mnode_map_find_int(root, -1);
  CHECK(v != NULL);
  CHECK_STATUS(cbor_mnode_get_text(v, (const char**)&data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, "b", 1);
  CHECK(cbor_mnode_map_find_int(root, 2) == NULL);
  CHECK(cbor_mnode_map_find_int(NULL, 1) == NULL);
  CHECK_EQ_UINT(cbor_mnode_index(v), 3);
  CHECK(cbor_mnode_parent(v) == root);
  /* Iteration: key 1, "a", key -1, ... */
  c = cbor_mnode_child(root);
  CHECK_STATUS(cbor_mnode_get_int_raw(c, &raw, &neg), CBOR_FAST_OK);
  CHECK_EQ_UINT(raw, 1);
  CHECK_EQ_INT(neg, 0);
  c = cbor_mnode_next(cbor_mnode_next(c));
  CHECK_STATUS(cbor_mnode_get_int_raw(c, &raw, &neg), CBOR_FAST_OK);
  CHECK_EQ_UINT(raw, 0);
  CHECK_EQ_INT(neg, 1);
  CHECK_STATUS(cbor_mnode_get_int_raw(v, &raw, &neg), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_get_int_raw(c, NULL, &neg), CBOR_FAST_ERR_INVALID_ARGUMENT);
  /* Removal. */
  CHECK_STATUS(cbor_mnode_map_remove_int(root, -1), CBOR_FAST_OK);
  CHECK(cbor_mnode_parent(v) == NULL);
  CHECK(cbor_mnode_next(v) == NULL);
  CHECK_STATUS(cbor_mnode_map_remove_int(root, -1), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_STATUS(cbor_mnode_map_remove(root, "zz", 2), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_STATUS(cbor_mnode_map_remove(root, NULL, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_mnode_map_remove(NULL, "k", 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  arr = cbor_mnode_map_find(root, "k", 1);
  CHECK_STATUS(cbor_mnode_array_remove(arr, 3), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_STATUS(cbor_mnode_array_remove(arr, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_array_remove(arr, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_array_remove(root, 0), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_map_remove_at(arr, 0), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_mnode_map_remove_at(root, 2), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mdoc_encode(m, w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, after_remove, sizeof after_remove);
  CHECK_STATUS(cbor_mnode_map_remove_at(root, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_mnode_map_remove(root, "k", 1), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_mnode_size(root), 0);
  /* The other getters. */
  v = cbor_mdoc_bignum(m, big + 2, 9, 1);
  CHECK_STATUS(cbor_mnode_get_bignum(v, &raw, &mag, &size, &neg), CBOR_FAST_OK);
  CHECK_EQ_UINT(size, 9);
  CHECK_EQ_INT(neg, 1);
  CHECK_EQ_UINT(raw, 0);
  CHECK_STATUS(cbor_mnode_get_bignum(cbor_mdoc_uint(m, 5), &raw, &mag, &size, &neg), CBOR_FAST_OK);
  CHECK_EQ_UINT(raw, 5);
  CHECK(mag == NULL);
  CHECK_EQ_UINT(cbor_mnode_float_width(cbor_mdoc_float(m, 1.5, CBOR_FAST_FLOAT_SINGLE)), 4);
  CHECK_EQ_UINT(cbor_mnode_float_width(cbor_mdoc_uint(m, 1)), 0);
  CHECK_STATUS(cbor_mnode_get_simple(cbor_mdoc_null(m), &simple), CBOR_FAST_OK);
  CHECK_EQ_UINT(simple, 22);
  CHECK_STATUS(cbor_mnode_get_simple(cbor_mdoc_uint(m, 1), &simple), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_EQ_INT(cbor_mnode_is_indefinite(root), 0);
  CHECK_STATUS(cbor_mnode_set_indefinite(root, 1), CBOR_FAST_OK);
  CHECK_EQ_INT(cbor_mnode_is_indefinite(root), 1);
  CHECK_EQ_INT(cbor_mnode_is_indefinite(NULL), 0);
  cbor_writer_free(w);
  cbor_mdoc_free(m);
}

static void test_time_text(void) {
  cbor_fast_time t = CBOR_FAST_TIME_INIT;
  cbor_fast_time bad = CBOR_FAST_TIME_INIT;
  char out[40];
  size_t pos = 99;
  size_t n;
  static const char ok[] = "1996-12-19T16:39:57-08:00";
  static const char frac[] = "1969-12-31T23:59:59.5Z";
  static const char feb[] = "2023-02-29T00:00:00Z";
  CHECK_STATUS(cbor_time_parse(ok, sizeof ok - 1, &t, &pos), CBOR_FAST_OK);
  CHECK_EQ_INT(t.seconds, 851042397);
  CHECK_EQ_INT(t.offset_minutes, -480);
  n = cbor_time_format(&t, -1, out, sizeof out);
  CHECK_EQ_BYTES(out, n, ok, sizeof ok - 1);
  CHECK_EQ_UINT(cbor_time_format(&t, -1, out, 10), 0); /* too little room */
  CHECK_STATUS(cbor_time_parse(frac, sizeof frac - 1, &t, &pos), CBOR_FAST_OK);
  CHECK_EQ_INT(t.seconds, -1);
  CHECK_EQ_UINT(t.nanoseconds, 500000000u);
  CHECK_STATUS(cbor_time_parse(feb, sizeof feb - 1, &t, &pos), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_EQ_UINT(pos, 8);
  CHECK_STATUS(cbor_time_parse(NULL, 3, &t, &pos), CBOR_FAST_ERR_INVALID_ARGUMENT);
  bad.struct_size = 3;
  CHECK_STATUS(cbor_time_parse(ok, sizeof ok - 1, &bad, &pos), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_time_parse(ok, sizeof ok - 1, NULL, &pos), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_time_format(NULL, -1, out, sizeof out), 0);
}

static void test_time_tags(void) {
  /* 0("2013-03-21T20:04:00Z") and 1(1363896240.5), RFC 8949 Appendix A. */
  static const uint8_t t0[] = {0xc0, 0x74, '2', '0', '1', '3', '-', '0', '3', '-', '2',
                               '1',  'T',  '2', '0', ':', '0', '4', ':', '0', '0', 'Z'};
  static const uint8_t t1[] = {0xc1, 0xfb, 0x41, 0xd4, 0x52, 0xd9, 0xec, 0x20, 0x00, 0x00};
  static const uint8_t bad[] = {0xc0, 0x74, '2', '0', '1', '3', '-', '1', '3', '-', '2',
                                '1',  'T',  '2', '0', ':', '0', '4', ':', '0', '0', 'Z'};
  static const uint8_t days[] = {0xd8, 0x64, 0x39, 0x29, 0xb3};
  static const uint8_t full[] = {0xd9, 0x03, 0xec, 0x6a, '1', '9', '4',
                                 '0',  '-',  '1',  '0',  '-', '0', '9'};
  cbor_fast_time t = CBOR_FAST_TIME_INIT;
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  cbor_doc* doc = NULL;
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  int64_t d = 0;
  CHECK_STATUS(cbor_decode(t0, sizeof t0, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_node_get_time(cbor_doc_root(doc), &t, &err), CBOR_FAST_OK);
  CHECK_EQ_INT(t.seconds, 1363896240);
  cbor_doc_free(doc);
  CHECK_STATUS(cbor_decode(t1, sizeof t1, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_node_get_time(cbor_doc_root(doc), &t, &err), CBOR_FAST_OK);
  CHECK_EQ_INT(t.seconds, 1363896240);
  CHECK_EQ_UINT(t.nanoseconds, 500000000u);
  CHECK_STATUS(cbor_node_get_date(cbor_doc_root(doc), &d, &err), CBOR_FAST_ERR_TYPE_MISMATCH);
  cbor_doc_free(doc);
  CHECK_STATUS(cbor_decode(bad, sizeof bad, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_node_get_time(cbor_doc_root(doc), &t, &err), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_EQ_UINT(err.offset, 7);
  CHECK_STATUS(err.code, CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_STATUS(cbor_node_get_time(NULL, &t, &err), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_doc_free(doc);
  CHECK_STATUS(cbor_decode(days, sizeof days, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_node_get_date(cbor_doc_root(doc), &d, NULL), CBOR_FAST_OK);
  CHECK_EQ_INT(d, -10676);
  cbor_doc_free(doc);
  CHECK_STATUS(cbor_decode(full, sizeof full, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_node_get_date(cbor_doc_root(doc), &d, NULL), CBOR_FAST_OK);
  CHECK_EQ_INT(d, -10676);
  cbor_doc_free(doc);
  /* Writing the same. */
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  t.seconds = 1363896240;
  t.nanoseconds = 0;
  t.offset_minutes = 0;
  CHECK_STATUS(cbor_writer_time_string(w, &t, -1), CBOR_FAST_OK);
  t.nanoseconds = 500000000u;
  CHECK_STATUS(cbor_writer_time_epoch(w, &t), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_epoch_days(w, -10676), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_full_date(w, -10676), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_full_date(w, 2932897), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_time_epoch(NULL, &t), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_time_epoch(w, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  /* A fraction that rounds to 2^63 seconds: refused, nothing written. */
  t.seconds = INT64_MAX;
  CHECK_STATUS(cbor_writer_time_epoch(w, &t), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_UINT(size, sizeof t0 + sizeof t1 + sizeof days + sizeof full);
  if (size == sizeof t0 + sizeof t1 + sizeof days + sizeof full) {
    CHECK_EQ_BYTES(data, sizeof t0, t0, sizeof t0);
    CHECK_EQ_BYTES(data + sizeof t0, sizeof t1, t1, sizeof t1);
    CHECK_EQ_BYTES(data + sizeof t0 + sizeof t1, sizeof days, days, sizeof days);
    CHECK_EQ_BYTES(data + sizeof t0 + sizeof t1 + sizeof days, sizeof full, full, sizeof full);
  }
  cbor_writer_free(w);
}

static void test_other_tags(void) {
  static const uint8_t dec[] = {0xc4, 0x82, 0x21, 0x19, 0x6a, 0xb3}; /* 273.15 */
  static const uint8_t id[16] = {0x8e, 0xc1, 0x2f, 0x73, 0x1d, 0x51, 0x4a, 0x4c,
                                 0x9e, 0x3e, 0x6b, 0x19, 0x2c, 0x46, 0xf1, 0x2b};
  /* 55799([1, 24(h'01'), 37(h'...'), bstr(<<{1: -7}>>), h'']) */
  static const uint8_t want[] = {0xd9, 0xd9, 0xf7, 0x85, 0xc5, 0x82, 0x20, 0x03, 0xd8,
                                 0x18, 0x41, 0x01, 0xd8, 0x25, 0x50, 0x8e, 0xc1, 0x2f,
                                 0x73, 0x1d, 0x51, 0x4a, 0x4c, 0x9e, 0x3e, 0x6b, 0x19,
                                 0x2c, 0x46, 0xf1, 0x2b, 0x43, 0xa1, 0x01, 0x26, 0x40};
  uint8_t buf[sizeof want];
  cbor_doc* doc = NULL;
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  const uint8_t* mag = NULL;
  size_t size = 0;
  uint64_t tag = 0, raw = 0;
  int64_t exponent = 0;
  int neg = 0;
  const cbor_node* root;
  CHECK_STATUS(cbor_decode(dec, sizeof dec, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  CHECK_STATUS(
      cbor_node_get_decimal(cbor_doc_root(doc), &tag, &exponent, &raw, &mag, &size, &neg, NULL),
      CBOR_FAST_OK);
  CHECK_EQ_UINT(tag, 4);
  CHECK_EQ_INT(exponent, -2);
  CHECK_EQ_UINT(raw, 27315);
  CHECK(mag == NULL);
  cbor_doc_free(doc);
  /* Everything into an exact-size caller buffer. */
  CHECK_STATUS(cbor_writer_new_buffer(buf, sizeof buf, NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_self_described(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_array(w, 5), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_decimal(w, 5, -1, 3), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_begin_embedded(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end_embedded(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uuid(w, id), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_begin_embedded(w, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_map(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end_embedded(w), CBOR_FAST_ERR_INVALID_STATE);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_int(w, -7), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end_embedded(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_bytes(w, NULL, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uuid(w, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, want, sizeof want);
  cbor_writer_free(w);
  /* Read back: skipping the marker, the UUID, the embedded item. */
  CHECK_STATUS(
      cbor_decode(want, sizeof want, CBOR_FAST_DECODE_SKIP_SELF_DESCRIBED, NULL, &doc, NULL),
      CBOR_FAST_OK);
  root = cbor_doc_root(doc);
  CHECK_EQ_INT(cbor_node_type(root), CBOR_FAST_TYPE_ARRAY);
  CHECK_STATUS(cbor_node_get_uuid(cbor_node_array_get(root, 2), &mag, NULL), CBOR_FAST_OK);
  CHECK_EQ_BYTES(mag, 16, id, 16);
  CHECK_STATUS(cbor_node_get_embedded(cbor_node_array_get(root, 1), &mag, &size), CBOR_FAST_OK);
  CHECK_EQ_UINT(size, 1);
  CHECK_STATUS(cbor_node_get_uuid(cbor_node_array_get(root, 1), &mag, NULL),
               CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_node_get_decimal(cbor_node_array_get(root, 0), &tag, &exponent, &raw, &mag,
                                     &size, &neg, NULL),
               CBOR_FAST_OK);
  CHECK_EQ_UINT(tag, 5);
  CHECK_EQ_INT(exponent, -1);
  CHECK_EQ_UINT(raw, 3);
  cbor_doc_free(doc);
  CHECK_STATUS(cbor_decode(want, sizeof want, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  root = cbor_doc_root(doc);
  CHECK_EQ_INT(cbor_node_type(root), CBOR_FAST_TYPE_TAG);
  CHECK_EQ_INT(cbor_node_type(cbor_node_skip_self_described(root)), CBOR_FAST_TYPE_ARRAY);
  CHECK(cbor_node_skip_self_described(NULL) == NULL);
  cbor_doc_free(doc);
}

/* An open wrap's size counts the room reserved for its head (`reserved`):
 * finish() on it is unclosed, and sticky; after a reset the closed wrap. */
static void check_open_wrap(cbor_writer* w, size_t reserved) {
  static const uint8_t closed[] = {0xd8, 0x18, 0x41, 0x01}; /* 24(h'01') */
  const uint8_t* data = NULL;
  size_t size = 0;
  CHECK_STATUS(cbor_writer_begin_embedded(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_writer_size(w), 2 + reserved + 1);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_ERR_WRITER_UNCLOSED);
  CHECK(data == NULL);
  CHECK_EQ_UINT(size, 2 + reserved + 1);
  CHECK_STATUS(cbor_writer_end_embedded(w), CBOR_FAST_ERR_WRITER_UNCLOSED);
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_begin_embedded(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_end_embedded(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, closed, sizeof closed);
}

/* 9 bytes reserved in the owned buffer, 1 in a caller buffer. */
static void test_open_wrap_size(void) {
  uint8_t buf[16];
  cbor_writer* w = NULL;
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  check_open_wrap(w, 9);
  cbor_writer_free(w);
  CHECK_STATUS(cbor_writer_new_buffer(buf, sizeof buf, NULL, &w), CBOR_FAST_OK);
  check_open_wrap(w, 1);
  cbor_writer_free(w);
}

int main(void) {
  RUN_TEST(test_canonical_forms);
  RUN_TEST(test_canonical_errors);
  RUN_TEST(test_canonical_buffer_and_encode);
  RUN_TEST(test_canonicalize_scratch_from_the_hooks);
  RUN_TEST(test_mdoc_encode_flags);
  RUN_TEST(test_mnode_edit);
  RUN_TEST(test_time_text);
  RUN_TEST(test_time_tags);
  RUN_TEST(test_other_tags);
  RUN_TEST(test_open_wrap_size);
  return check_summary();
}
