/*
 * cbor_reader_next_batch(): every element holds exactly what cbor_reader_next()
 * gives at that point (a second reader over the same input is stepped
 * alongside), with the same final status, error offset and reader offset, at
 * every capacity and element size (struct_size 0, sizeof, sizeof + 8,
 * sizeof + 64: each element gets it, the bytes past the struct stay
 * untouched): for a sample of every kind (with its values spelled out), RFC
 * 8949 Appendix A, every malformed vector, the strict vectors, the corpus and
 * input fed in parts; then mixing with cbor_reader_next() and cbor_reader_skip().
 */
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"
#include "shared_vectors.h"

/* [1, "ab", {"k": -2.5}, h'00ff', (_ "x" "y"), 1(3), [_ null true]] then
 * 0, 24, -2^64, simple(16), undefined, false, 1.5 (half), 100000.0 (single),
 * (_ h'01'), {_ 1: 2}, [] */
static const uint8_t k_sample[] = {
    0x87, 0x01, 0x62, 0x61, 0x62, 0xa1, 0x61, 0x6b, 0xf9, 0xc1, 0x00, 0x42, 0x00, 0xff, 0x7f,
    0x61, 0x78, 0x61, 0x79, 0xff, 0xc1, 0x03, 0x9f, 0xf6, 0xf5, 0xff, 0x00, 0x18, 0x18, 0x3b,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0, 0xf7, 0xf4, 0xf9, 0x3e, 0x00, 0xfa,
    0x47, 0xc3, 0x50, 0x00, 0x5f, 0x41, 0x01, 0xff, 0xbf, 0x01, 0x02, 0xff, 0x80};
/* Items cbor_reader_next() yields from k_sample (END items included). */
#define K_SAMPLE_ITEMS 36u

/* True when the element holds every field of the one cbor_reader_next() gave. */
static int same_item(const cbor_fast_item* a, const cbor_fast_item* b) {
  return a->type == b->type && a->flags == b->flags && a->depth == b->depth &&
         a->offset == b->offset && a->head_size == b->head_size &&
         a->float_width == b->float_width && a->value == b->value &&
         memcmp(&a->float_value, &b->float_value, sizeof(double)) == 0 && a->data == b->data &&
         a->size == b->size;
}

/* The bytes of an element past the struct, before the library writes it. */
#define K_FILL 0xa5

/* Reads in[0, size) with batches of `capacity` elements of `struct_size`
 * (streaming with the input shown `step` more bytes after each NEED_MORE when
 * step > 0) and a reference reader with cbor_reader_next(), comparing item by
 * item. Returns the final status (also checked against the reference's),
 * *items the count. */
static cbor_fast_status compare_reads_sized(const uint8_t* in, size_t size, size_t capacity,
                                            size_t step, uint32_t checks, uint32_t struct_size,
                                            size_t* items) {
  const size_t stride = struct_size == 0 ? sizeof(cbor_fast_item) : struct_size;
  unsigned char* got = (unsigned char*)malloc(capacity * stride);
  cbor_reader* r = NULL;
  cbor_reader* ref = NULL;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_error e_ref = CBOR_FAST_ERROR_INIT;
  size_t total = 0, shown = step > 0 ? 0 : size, mismatches = 0;
  cbor_fast_status s, s_ref = CBOR_FAST_OK;
  CHECK(got != NULL);
  CHECK_STATUS(cbor_reader_new(in, shown, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_new(in, size, NULL, &ref), CBOR_FAST_OK);
  if (checks & SHARED_CHECK_UTF8) {
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8, 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(ref, CBOR_FAST_OPT_VALIDATE_UTF8, 1), CBOR_FAST_OK);
  }
  if (checks & SHARED_CHECK_DUPLICATE_KEYS) {
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(ref, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 1), CBOR_FAST_OK);
  }
  if (checks & SHARED_CHECK_DETERMINISTIC) {
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_DETERMINISTIC, 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(ref, CBOR_FAST_OPT_DETERMINISTIC, 1), CBOR_FAST_OK);
  }
  if (step > 0) CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  for (;;) {
    size_t count = 99, i;
    memset(got, K_FILL, capacity * stride);
    ((cbor_fast_item*)got)->struct_size = struct_size;
    s = cbor_reader_next_batch(r, (cbor_fast_item*)got, capacity, &count);
    if (s == CBOR_FAST_NEED_MORE) {
      CHECK_EQ_UINT(count, 0);
      if (shown == size) {
        CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 0), CBOR_FAST_OK);
      } else {
        shown = shown + step < size ? shown + step : size;
        CHECK_STATUS(cbor_reader_feed(r, in, shown, 0), CBOR_FAST_OK);
      }
      continue;
    }
    if (s != CBOR_FAST_OK) {
      CHECK_EQ_UINT(count, 0);
      break;
    }
    CHECK(count >= 1 && count <= capacity);
    for (i = 0; i < capacity; ++i) {
      const cbor_fast_item* element = (const cbor_fast_item*)(got + i * stride);
      size_t k;
      if (i < count) {
        cbor_fast_item want = CBOR_FAST_ITEM_INIT;
        s_ref = cbor_reader_next(ref, &want);
        if (s_ref != CBOR_FAST_OK || !same_item(element, &want) ||
            element->struct_size != struct_size)
          ++mismatches;
      } else if (i > 0 && element->struct_size != 0xa5a5a5a5u) {
        ++mismatches; /* nothing written past *count */
      }
      for (k = sizeof(cbor_fast_item); k < stride; ++k)
        if (got[i * stride + k] != K_FILL) ++mismatches;
    }
    total += count;
    /* A batch the input does not cut short is full. */
    if (step == 0 && count < capacity) {
      size_t again = 99;
      ((cbor_fast_item*)got)->struct_size = struct_size;
      CHECK(cbor_reader_next_batch(r, (cbor_fast_item*)got, capacity, &again) != CBOR_FAST_OK);
      CHECK_EQ_UINT(again, 0);
    }
  }
  CHECK_EQ_UINT(mismatches, 0);
  /* The reference has nothing more before the same status. */
  {
    cbor_fast_item want = CBOR_FAST_ITEM_INIT;
    s_ref = cbor_reader_next(ref, &want);
  }
  CHECK_STATUS(s, s_ref);
  CHECK_STATUS(cbor_reader_error(r, &e), cbor_reader_error(ref, &e_ref));
  CHECK_EQ_UINT(e.offset, e_ref.offset);
  CHECK_EQ_UINT(e.item_offset, e_ref.item_offset);
  CHECK_EQ_UINT(e.depth, e_ref.depth);
  CHECK_EQ_UINT(cbor_reader_offset(r), cbor_reader_offset(ref));
  CHECK_EQ_UINT(cbor_reader_depth(r), cbor_reader_depth(ref));
  /* The end or the error repeats, with nothing written. */
  {
    size_t count = 99;
    ((cbor_fast_item*)got)->struct_size = struct_size;
    CHECK_STATUS(cbor_reader_next_batch(r, (cbor_fast_item*)got, capacity, &count), s);
    CHECK_EQ_UINT(count, 0);
  }
  cbor_reader_free(r);
  cbor_reader_free(ref);
  free(got);
  if (items != NULL) *items = total;
  return s;
}

/* compare_reads_sized() with every element size a caller may pass. */
static cbor_fast_status compare_reads(const uint8_t* in, size_t size, size_t capacity, size_t step,
                                      uint32_t checks, size_t* items) {
  static const uint32_t sizes[] = {sizeof(cbor_fast_item), 0, sizeof(cbor_fast_item) + 8,
                                   sizeof(cbor_fast_item) + 64};
  size_t i, n = 0;
  const cbor_fast_status s = compare_reads_sized(in, size, capacity, step, checks, sizes[0], &n);
  for (i = 1; i < sizeof sizes / sizeof sizes[0]; ++i) {
    size_t m = 0;
    CHECK_STATUS(compare_reads_sized(in, size, capacity, step, checks, sizes[i], &m), s);
    CHECK_EQ_UINT(m, n);
  }
  if (items != NULL) *items = n;
  return s;
}

/* The sample's items, some spelled out, then every capacity and feed step. */
static void test_sample(void) {
  cbor_fast_item it[64];
  cbor_reader* r = NULL;
  size_t count = 0, capacity, step;
  double d;
  CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &r), CBOR_FAST_OK);
  it[0].struct_size = 0;
  CHECK_STATUS(cbor_reader_next_batch(r, it, 64, &count), CBOR_FAST_OK);
  CHECK_EQ_UINT(count, K_SAMPLE_ITEMS);
  /* [ (7 items) at 0 */
  CHECK_EQ_UINT(it[0].type, CBOR_FAST_TYPE_ARRAY);
  CHECK_EQ_UINT(it[0].value, 7);
  CHECK_EQ_UINT(it[0].offset, 0);
  CHECK_EQ_UINT(it[0].head_size, 1);
  CHECK_EQ_UINT(it[0].depth, 0);
  CHECK(it[0].data == NULL && it[0].size == 0 && it[0].float_value == 0.0);
  CHECK_EQ_UINT(it[35].struct_size, 0); /* every element gets items[0]'s */
  /* 1 at 1, depth 1 */
  CHECK_EQ_UINT(it[1].type, CBOR_FAST_TYPE_UINT);
  CHECK_EQ_UINT(it[1].value, 1);
  CHECK_EQ_UINT(it[1].offset, 1);
  CHECK_EQ_UINT(it[1].depth, 1);
  /* "ab" at 2: its bytes in the input */
  CHECK_EQ_UINT(it[2].type, CBOR_FAST_TYPE_TEXT);
  CHECK_EQ_UINT(it[2].value, 2);
  CHECK(it[2].data == k_sample + 3);
  CHECK_EQ_UINT(it[2].size, 2);
  CHECK_EQ_UINT(it[2].offset, 2);
  /* {"k": -2.5}: the half float at 8 */
  CHECK_EQ_UINT(it[3].type, CBOR_FAST_TYPE_MAP);
  CHECK_EQ_UINT(it[3].value, 1);
  CHECK_EQ_UINT(it[5].type, CBOR_FAST_TYPE_FLOAT);
  CHECK_EQ_UINT(it[5].offset, 8);
  CHECK_EQ_UINT(it[5].head_size, 3);
  CHECK_EQ_UINT(it[5].float_width, 2);
  CHECK_EQ_UINT(it[5].value, 0xc100);
  d = it[5].float_value;
  CHECK(it[5].data == NULL && it[5].size == 0);
  CHECK(d == -2.5);
  CHECK_EQ_UINT(it[5].depth, 2);
  CHECK_EQ_UINT(it[6].type, CBOR_FAST_TYPE_END); /* the map's, at 11 */
  CHECK_EQ_UINT(it[6].offset, 11);
  CHECK_EQ_UINT(it[6].head_size, 0);
  CHECK_EQ_UINT(it[6].flags, 0);
  /* h'00ff' at 11 */
  CHECK_EQ_UINT(it[7].type, CBOR_FAST_TYPE_BYTES);
  CHECK_EQ_UINT(it[7].value, 2);
  CHECK(it[7].data == k_sample + 12);
  CHECK_EQ_UINT(it[7].size, 2);
  /* (_ "x" "y"): the start has no payload, then two chunks and an END with the break */
  CHECK_EQ_UINT(it[8].type, CBOR_FAST_TYPE_TEXT);
  CHECK_EQ_UINT(it[8].flags, CBOR_FAST_ITEM_INDEFINITE);
  CHECK_EQ_UINT(it[8].value, 0);
  CHECK(it[8].data == NULL && it[8].size == 0);
  CHECK_EQ_UINT(it[8].offset, 14);
  CHECK(it[9].data == k_sample + 16);
  CHECK_EQ_UINT(it[11].type, CBOR_FAST_TYPE_END);
  CHECK_EQ_UINT(it[11].flags, CBOR_FAST_ITEM_INDEFINITE | CBOR_FAST_ITEM_BREAK);
  CHECK_EQ_UINT(it[11].offset, 19);
  CHECK_EQ_UINT(it[11].head_size, 1);
  /* 1(3): the tag at 20, its content at depth 2 */
  CHECK_EQ_UINT(it[12].type, CBOR_FAST_TYPE_TAG);
  CHECK_EQ_UINT(it[12].value, 1);
  CHECK_EQ_UINT(it[13].depth, 2);
  /* -2^64 at 29: n = 2^64 - 1 */
  CHECK_EQ_UINT(it[21].type, CBOR_FAST_TYPE_NEGATIVE);
  CHECK(it[21].value == UINT64_MAX);
  CHECK_EQ_UINT(it[21].head_size, 9);
  CHECK_EQ_UINT(it[22].type, CBOR_FAST_TYPE_SIMPLE);
  CHECK_EQ_UINT(it[22].value, 16);
  CHECK_EQ_UINT(it[23].type, CBOR_FAST_TYPE_UNDEFINED);
  CHECK_EQ_UINT(it[24].type, CBOR_FAST_TYPE_BOOL);
  CHECK_EQ_UINT(it[24].value, 20);
  /* 100000.0 as a single at 44 */
  CHECK_EQ_UINT(it[26].type, CBOR_FAST_TYPE_FLOAT);
  CHECK_EQ_UINT(it[26].float_width, 4);
  CHECK_EQ_UINT(it[26].value, 0x47c35000);
  d = it[26].float_value;
  CHECK(d == 100000.0);
  /* [] at 57, and its END at the end of the input */
  CHECK_EQ_UINT(it[34].type, CBOR_FAST_TYPE_ARRAY);
  CHECK_EQ_UINT(it[34].offset, 57);
  CHECK_EQ_UINT(it[35].type, CBOR_FAST_TYPE_END);
  CHECK_EQ_UINT(it[35].offset, sizeof k_sample);
  CHECK_STATUS(cbor_reader_next_batch(r, it, 64, &count), CBOR_FAST_END);
  CHECK_EQ_UINT(count, 0);
  cbor_reader_free(r);

  for (capacity = 1; capacity <= 40; ++capacity) {
    size_t n = 0;
    CHECK_STATUS(compare_reads(k_sample, sizeof k_sample, capacity, 0, 0, &n), CBOR_FAST_END);
    CHECK_EQ_UINT(n, K_SAMPLE_ITEMS);
  }
  /* Fed 1 to 8 bytes at a time: NEED_MORE at each partial item, the same items. */
  for (step = 1; step <= 8; ++step) {
    size_t n = 0;
    CHECK_STATUS(compare_reads(k_sample, sizeof k_sample, 5, step, 0, &n), CBOR_FAST_END);
    CHECK_EQ_UINT(n, K_SAMPLE_ITEMS);
  }
}

static uint8_t g_in[1024];

static void test_appendix_a(void) {
  size_t i;
  for (i = 0; i < SHARED_COUNT(k_shared_appendix_a); ++i) {
    const size_t n = unhex(k_shared_appendix_a[i].hex, g_in, sizeof g_in);
    check_current_ = k_shared_appendix_a[i].name;
    CHECK_STATUS(compare_reads(g_in, n, 1, 0, 0, NULL), CBOR_FAST_END);
    CHECK_STATUS(compare_reads(g_in, n, 256, 0, 0, NULL), CBOR_FAST_END);
  }
  check_current_ = "";
}

/* Every malformed vector: the items before the error, then its status at its offset. */
static void test_malformed(void) {
  size_t i;
  CHECK(SHARED_COUNT(k_shared_malformed) >= 90);
  for (i = 0; i < SHARED_COUNT(k_shared_malformed); ++i) {
    const shared_malformed* row = &k_shared_malformed[i];
    const size_t n = unhex(row->hex, g_in, sizeof g_in);
    size_t capacity;
    check_current_ = row->name;
    for (capacity = 1; capacity <= 4; ++capacity)
      CHECK_STATUS(compare_reads(g_in, n, capacity, 0, 0, NULL), row->status);
    CHECK_STATUS(compare_reads(g_in, n, 256, 0, 0, NULL), row->status);
    {
      cbor_reader* r = NULL;
      cbor_fast_item items[256];
      cbor_fast_error e = CBOR_FAST_ERROR_INIT;
      size_t count = 0;
      cbor_fast_status s;
      CHECK_STATUS(cbor_reader_new(g_in, n, NULL, &r), CBOR_FAST_OK);
      items[0].struct_size = 0;
      while ((s = cbor_reader_next_batch(r, items, 256, &count)) == CBOR_FAST_OK) {}
      CHECK_STATUS(s, row->status);
      CHECK_STATUS(cbor_reader_error(r, &e), row->status);
      CHECK_EQ_UINT(e.offset, row->offset);
      cbor_reader_free(r);
    }
  }
  check_current_ = "";
}

/* The strict checks (UTF-8, duplicate keys, deterministic encoding) apply. */
static void test_strict(void) {
  size_t i;
  for (i = 0; i < SHARED_COUNT(k_shared_strict); ++i) {
    const shared_strict* row = &k_shared_strict[i];
    const size_t n = unhex(row->hex, g_in, sizeof g_in);
    const cbor_fast_status want = row->status == CBOR_FAST_OK ? CBOR_FAST_END : row->status;
    check_current_ = row->name;
    CHECK_STATUS(compare_reads(g_in, n, 1, 0, row->checks, NULL), want);
    CHECK_STATUS(compare_reads(g_in, n, 256, 0, row->checks, NULL), want);
  }
  check_current_ = "";
}

static void test_corpus(void) {
  static const char* const names[] = {"twitter", "citm_catalog", "canada"};
  size_t i;
  for (i = 0; i < 3; ++i) {
    char path[1024];
    size_t size = 0, n_256 = 0, n_7 = 0;
    uint8_t* data;
    snprintf(path, sizeof path, "%s/%s.cbor", CBOR_FAST_CORPUS_DIR, names[i]);
    check_current_ = names[i];
    data = read_whole(path, &size);
    CHECK(data != NULL);
    if (data == NULL) continue;
    CHECK_STATUS(compare_reads(data, size, 256, 0, 0, &n_256), CBOR_FAST_END);
    CHECK_STATUS(compare_reads(data, size, 7, 0, 0, &n_7), CBOR_FAST_END);
    CHECK(n_256 > 10000);
    CHECK_EQ_UINT(n_7, n_256);
    free(data);
  }
  check_current_ = "";
}

/* Batches, cbor_reader_next() and cbor_reader_skip() on one reader: each
 * goes on where the last stopped. */
static void test_mixed_with_next(void) {
  cbor_reader* r = NULL;
  cbor_fast_item items[4];
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  size_t count = 0;
  items[0].struct_size = sizeof(cbor_fast_item);
  CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next_batch(r, items, 2, &count), CBOR_FAST_OK); /* [ and 1 */
  CHECK_EQ_UINT(count, 2);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK); /* "ab" */
  CHECK_EQ_UINT(it.type, CBOR_FAST_TYPE_TEXT);
  CHECK_EQ_UINT(it.offset, 2);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK); /* {"k": -2.5} */
  CHECK_STATUS(cbor_reader_next_batch(r, items, 1, &count), CBOR_FAST_OK);
  CHECK_EQ_UINT(count, 1);
  CHECK_EQ_UINT(items[0].type, CBOR_FAST_TYPE_BYTES);
  CHECK_EQ_UINT(items[0].offset, 11);
  CHECK_EQ_UINT(cbor_reader_offset(r), 14);
  CHECK_EQ_UINT(cbor_reader_depth(r), 1);
  cbor_reader_free(r);
}

int main(void) {
  RUN_TEST(test_sample);
  RUN_TEST(test_appendix_a);
  RUN_TEST(test_malformed);
  RUN_TEST(test_strict);
  RUN_TEST(test_corpus);
  RUN_TEST(test_mixed_with_next);
  return check_summary();
}
