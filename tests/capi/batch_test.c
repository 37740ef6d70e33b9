/*
 * cbor_reader_next_batch(): the items, statuses and offsets of one
 * cbor_reader_next() call per item, delivered `capacity` at a time; the end
 * and errors come after the items before them; bad arguments are refused.
 */
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"

/* [1, "ab", {"k": -2.5}, h'00ff', (_ "x" "y"), 1(3), [_ null true]] then 0, 24 */
static const uint8_t k_sequence[] = {0x87, 0x01, 0x62, 0x61, 0x62, 0xa1, 0x61, 0x6b, 0xf9, 0xc1,
                                     0x00, 0x42, 0x00, 0xff, 0x7f, 0x61, 0x78, 0x61, 0x79, 0xff,
                                     0xc1, 0x03, 0x9f, 0xf6, 0xf5, 0xff, 0x00, 0x18, 0x18};

/* Every item through cbor_reader_next(); returns how many, *last the final status. */
static size_t one_by_one(const uint8_t* in, size_t size, cbor_fast_item* out, size_t max,
                         cbor_fast_status* last) {
  cbor_reader* r = NULL;
  size_t n = 0;
  CHECK_STATUS(cbor_reader_new(in, size, NULL, &r), CBOR_FAST_OK);
  for (;;) {
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    const cbor_fast_status s = cbor_reader_next(r, &it);
    if (s != CBOR_FAST_OK || n == max) {
      *last = s;
      break;
    }
    out[n++] = it;
  }
  cbor_reader_free(r);
  return n;
}

static int same_item(const cbor_fast_item* a, const cbor_fast_item* b) {
  return a->type == b->type && a->flags == b->flags && a->depth == b->depth &&
         a->offset == b->offset && a->head_size == b->head_size &&
         a->float_width == b->float_width && a->value == b->value &&
         a->float_value == b->float_value && a->data == b->data && a->size == b->size;
}

/* Reads everything in batches of `capacity` and compares with one_by_one(). */
static void compare_batches(const uint8_t* in, size_t size, size_t capacity) {
  cbor_fast_item expected[64];
  cbor_fast_item* got = malloc(capacity * sizeof *got);
  cbor_fast_status last = CBOR_FAST_OK;
  const size_t want = one_by_one(in, size, expected, 64, &last);
  cbor_reader* r = NULL;
  size_t total = 0;
  size_t calls = 0;
  cbor_fast_status s;
  CHECK_STATUS(cbor_reader_new(in, size, NULL, &r), CBOR_FAST_OK);
  for (;;) {
    size_t count = 99;
    size_t i;
    got[0].struct_size = sizeof(cbor_fast_item);
    s = cbor_reader_next_batch(r, got, capacity, &count);
    ++calls;
    if (s != CBOR_FAST_OK) {
      CHECK_EQ_UINT(count, 0);
      break;
    }
    CHECK(count >= 1 && count <= capacity);
    CHECK_EQ_UINT(got[count - 1].struct_size, sizeof(cbor_fast_item)); /* set on every element */
    for (i = 0; i < count && total + i < want; ++i) CHECK(same_item(&got[i], &expected[total + i]));
    total += count;
  }
  CHECK_EQ_UINT(total, want);
  CHECK_STATUS(s, last);
  /* Full batches until the last one: ceil(want / capacity) item calls, then the status. */
  CHECK_EQ_UINT(calls, (want + capacity - 1) / capacity + 1);
  /* The end or the error repeats. */
  {
    size_t count = 99;
    CHECK_STATUS(cbor_reader_next_batch(r, got, capacity, &count), last);
    CHECK_EQ_UINT(count, 0);
  }
  cbor_reader_free(r);
  free(got);
}

static void test_batches_match_single_calls(void) {
  size_t capacity;
  for (capacity = 1; capacity <= 40; ++capacity)
    compare_batches(k_sequence, sizeof k_sequence, capacity);
  /* 21 items: the array, its entries with their children and ends (19 with the
   * array's own end; the tag has none), then 0 and 24. */
  {
    cbor_fast_item items[64];
    cbor_fast_status last;
    CHECK_EQ_UINT(one_by_one(k_sequence, sizeof k_sequence, items, 64, &last), 21);
    CHECK_STATUS(last, CBOR_FAST_END);
  }
}

static void test_error_after_items(void) {
  /* [1, 2, <break>]: two items and the array start, then an unexpected break at offset 3. */
  static const uint8_t bad[] = {0x83, 0x01, 0x02, 0xff};
  cbor_fast_item items[8];
  cbor_reader* r = NULL;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  size_t count = 0;
  CHECK_STATUS(cbor_reader_new(bad, sizeof bad, NULL, &r), CBOR_FAST_OK);
  items[0].struct_size = 0; /* the 0.1 layout: the same struct today */
  CHECK_STATUS(cbor_reader_next_batch(r, items, 8, &count), CBOR_FAST_OK);
  CHECK_EQ_UINT(count, 3);
  CHECK_EQ_UINT(items[0].type, CBOR_FAST_TYPE_ARRAY);
  CHECK_EQ_UINT(items[2].value, 2);
  CHECK_EQ_UINT(items[2].offset, 2);
  CHECK_STATUS(cbor_reader_next_batch(r, items, 8, &count), CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK_EQ_UINT(count, 0);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_UNEXPECTED_BREAK);
  CHECK_EQ_UINT(e.offset, 3);
  cbor_reader_free(r);

  /* compare_batches covers the same through every capacity. */
  compare_batches(bad, sizeof bad, 1);
  compare_batches(bad, sizeof bad, 2);
  compare_batches(bad, sizeof bad, 3);
  compare_batches(bad, sizeof bad, 4);
}

static void test_limits_and_checks_apply(void) {
  /* {1: 0, 1: 0} with duplicate keys refused: map, 1, 0, then the error at offset 3. */
  static const uint8_t dup[] = {0xa2, 0x01, 0x00, 0x01, 0x00};
  cbor_fast_item items[8];
  cbor_reader* r = NULL;
  size_t count = 0;
  CHECK_STATUS(cbor_reader_new(dup, sizeof dup, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 1), CBOR_FAST_OK);
  items[0].struct_size = sizeof(cbor_fast_item);
  CHECK_STATUS(cbor_reader_next_batch(r, items, 8, &count), CBOR_FAST_OK);
  CHECK_EQ_UINT(count, 3);
  CHECK_STATUS(cbor_reader_next_batch(r, items, 8, &count), CBOR_FAST_ERR_DUPLICATE_KEY);
  cbor_reader_free(r);
}

/* A caller's struct_size of 0 (the 0.1 layout) or larger than this header's
 * struct (a later header's, with room after the fields) takes another route
 * than sizeof: its elements are filled up to 64 at a time and copied to the
 * caller's stride. Each element must still equal cbor_reader_next()'s item,
 * with the caller's struct_size, and the bytes past the fields must stay as
 * they were; batches of 150 and 300 elements cross those 64-item parts. */
static void test_other_struct_sizes_across_parts(void) {
  /* [0, 1, ..., 22, 23, 24, ..., 198] (199 entries: 0..23 in one byte, the
   * rest in two), then a top-level break: 201 items with the array's end,
   * then unexpected_break at the break's offset. */
  enum { k_entries = 199, k_items = k_entries + 2 };
  uint8_t in[3 + 24 + 2 * (k_entries - 24) + 1];
  size_t at = 0;
  size_t v;
  in[at++] = 0x98;
  in[at++] = k_entries;
  for (v = 0; v < k_entries; ++v) {
    if (v >= 24) in[at++] = 0x18;
    in[at++] = (uint8_t)v;
  }
  const size_t break_at = at;
  in[at++] = 0xff;
  {
    cbor_fast_item expected[k_items + 1];
    cbor_fast_status last = CBOR_FAST_OK;
    CHECK_EQ_UINT(one_by_one(in, at, expected, k_items + 1, &last), k_items);
    CHECK_STATUS(last, CBOR_FAST_ERR_UNEXPECTED_BREAK);
    static const struct {
      const char* name;
      uint32_t struct_size;
      size_t stride;
    } sizes[] = {
        {"0 (the 0.1 layout)", 0, sizeof(cbor_fast_item)},
        {"sizeof + 8", sizeof(cbor_fast_item) + 8, sizeof(cbor_fast_item) + 8},
        {"sizeof + 64 (the margin)", sizeof(cbor_fast_item) + 64, sizeof(cbor_fast_item) + 64},
    };
    static const size_t capacities[] = {1, 63, 64, 65, 150, 300};
    size_t si, ci;
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
      for (ci = 0; ci < sizeof capacities / sizeof capacities[0]; ++ci) {
        const size_t stride = sizes[si].stride;
        const size_t capacity = capacities[ci];
        unsigned char* buf = malloc(capacity * stride);
        cbor_reader* r = NULL;
        size_t total = 0;
        cbor_fast_status s;
        cbor_fast_error e = CBOR_FAST_ERROR_INIT;
        CHECK_STATUS(cbor_reader_new(in, at, NULL, &r), CBOR_FAST_OK);
        for (;;) {
          size_t count = 99;
          size_t i;
          memset(buf, 0xab, capacity * stride);
          memcpy(buf, &sizes[si].struct_size, sizeof sizes[si].struct_size);
          s = cbor_reader_next_batch(r, (cbor_fast_item*)buf, capacity, &count);
          if (s != CBOR_FAST_OK) {
            CHECK_EQ_UINT(count, 0);
            break;
          }
          CHECK(count >= 1 && count <= capacity && total + count <= k_items);
          /* Full batches until the items run out. */
          CHECK_EQ_UINT(count, k_items - total < capacity ? k_items - total : capacity);
          for (i = 0; i < count; ++i) {
            cbor_fast_item got;
            size_t b;
            memcpy(&got, buf + i * stride, sizeof got);
            if (!same_item(&got, &expected[total + i]) ||
                got.struct_size != sizes[si].struct_size) {
              fprintf(stderr, "struct_size %s, capacity %zu: element %zu (item %zu) differs\n",
                      sizes[si].name, capacity, i, total + i);
              CHECK(0);
            }
            for (b = sizeof(cbor_fast_item); b < stride; ++b) CHECK(buf[i * stride + b] == 0xab);
          }
          /* Elements past the count are untouched. */
          for (i = count * stride; i < capacity * stride; ++i) CHECK(buf[i] == 0xab);
          total += count;
        }
        CHECK_EQ_UINT(total, k_items);
        CHECK_STATUS(s, CBOR_FAST_ERR_UNEXPECTED_BREAK);
        CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_UNEXPECTED_BREAK);
        CHECK_EQ_UINT(e.offset, break_at);
        cbor_reader_free(r);
        free(buf);
      }
    }
  }
}

static void test_empty_input_and_bad_arguments(void) {
  cbor_fast_item items[2];
  cbor_reader* r = NULL;
  size_t count = 7;
  items[0].struct_size = sizeof(cbor_fast_item);
  CHECK_STATUS(cbor_reader_new(NULL, 0, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next_batch(r, items, 2, &count), CBOR_FAST_END);
  CHECK_EQ_UINT(count, 0);
  count = 7;
  CHECK_STATUS(cbor_reader_next_batch(NULL, items, 2, &count), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(count, 0);
  CHECK_STATUS(cbor_reader_next_batch(r, NULL, 2, &count), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_next_batch(r, items, 0, &count), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_next_batch(r, items, 2, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  items[0].struct_size = 8; /* smaller than any layout */
  CHECK_STATUS(cbor_reader_next_batch(r, items, 2, &count), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_reader_free(r);
}

int main(void) {
  RUN_TEST(test_batches_match_single_calls);
  RUN_TEST(test_error_after_items);
  RUN_TEST(test_limits_and_checks_apply);
  RUN_TEST(test_other_struct_sizes_across_parts);
  RUN_TEST(test_empty_input_and_bad_arguments);
  return check_summary();
}
