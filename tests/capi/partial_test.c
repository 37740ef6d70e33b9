/*
 * Partial input and stale items through the C API, and the struct_size rule
 * on the entry points that take an error struct (findings of an audit of the
 * C API, each of which failed before its fix):
 *  - cbor_reader_json / cbor_reader_diag on a streaming reader wait for the
 *    whole item (NEED_MORE, nothing sent to the sink, nothing consumed); they
 *    printed "[1", then the rest as items of their own;
 *  - cbor_reader_read_typed_array likewise, and a tag head the input cuts
 *    short is TRUNCATED (it was TYPE_MISMATCH, or the tag was eaten);
 *  - cbor_reader_join after a join left at NEED_MORE starts afresh for
 *    another string (it glued the old chunks on);
 *  - cbor_stream_join of a string not just read is INVALID_STATE (it read
 *    the stream's freed buffer);
 *  - a failure of cbor_stream_next_doc's own is sticky (the rest of the item
 *    came out as items);
 *  - a bad error->struct_size is INVALID_ARGUMENT with *error unwritten, and
 *    cbor_fast_time / cbor_fast_typed_array sizes are bounded as the header's
 *    rule says.
 */
#include "check.h"

typedef struct {
  char text[256];
  size_t size;
} sink_text;

static int collect(void* context, const char* data, size_t size) {
  sink_text* t = (sink_text*)context;
  if (t->size + size >= sizeof t->text) return 1;
  memcpy(t->text + t->size, data, size);
  t->size += size;
  t->text[t->size] = '\0';
  return 0;
}

static void test_text_waits_for_the_whole_item(void) {
  /* [1, "ab", 3] 4, the buffer ending inside the array at every length. */
  static const uint8_t in[] = {0x83, 0x01, 0x62, 'a', 'b', 0x03, 0x04};
  for (int diag = 0; diag < 2; ++diag) {
    for (size_t cut = 0; cut < 6; ++cut) {
      cbor_reader* r = NULL;
      sink_text t;
      cbor_fast_error e = CBOR_FAST_ERROR_INIT;
      memset(&t, 0, sizeof t);
      CHECK_STATUS(cbor_reader_new(in, cut, NULL, &r), CBOR_FAST_OK);
      CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
      if (diag) {
        CHECK_STATUS(cbor_reader_diag(r, 0, collect, &t, &e), CBOR_FAST_NEED_MORE);
      } else {
        CHECK_STATUS(cbor_reader_json(r, 0, collect, &t, &e), CBOR_FAST_NEED_MORE);
      }
      CHECK_EQ_UINT(t.size, 0);
      CHECK_EQ_UINT(cbor_reader_offset(r), 0);
      CHECK_EQ_UINT(cbor_reader_depth(r), 0);
      CHECK_STATUS(cbor_reader_feed(r, in, sizeof in, 0), CBOR_FAST_OK);
      if (diag) {
        CHECK_STATUS(cbor_reader_diag(r, 0, collect, &t, &e), CBOR_FAST_OK);
        CHECK_EQ_STR(t.text, "[1, \"ab\", 3]");
      } else {
        CHECK_STATUS(cbor_reader_json(r, 0, collect, &t, &e), CBOR_FAST_OK);
        CHECK_EQ_STR(t.text, "[1,\"ab\",3]");
      }
      CHECK_EQ_UINT(cbor_reader_offset(r), 6);
      cbor_reader_free(r);
    }
  }
}

static void test_typed_array_on_partial_input(void) {
  /* 64(h'010203'): a uint8 typed array. */
  static const uint8_t in[] = {0xd8, 0x40, 0x43, 0x01, 0x02, 0x03};
  cbor_fast_typed_array a = CBOR_FAST_TYPED_ARRAY_INIT;
  for (size_t cut = 0; cut < sizeof in; ++cut) {
    cbor_reader* r = NULL;
    CHECK_STATUS(cbor_reader_new(in, cut, NULL, &r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_read_typed_array(r, &a), CBOR_FAST_NEED_MORE);
    CHECK_EQ_UINT(cbor_reader_offset(r), 0);
    CHECK_STATUS(cbor_reader_feed(r, in, sizeof in, 0), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_read_typed_array(r, &a), CBOR_FAST_OK);
    CHECK_EQ_UINT(a.count, 3);
    CHECK_EQ_UINT(a.data_offset, 3);
    cbor_reader_free(r);
  }
  /* Not streaming: a tag head cut short is the reader's TRUNCATED (sticky). */
  {
    cbor_reader* r = NULL;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    CHECK_STATUS(cbor_reader_new(in, 1, NULL, &r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_read_typed_array(r, &a), CBOR_FAST_ERR_TRUNCATED);
    CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_TRUNCATED);
    CHECK_EQ_UINT(e.offset, 0);
    /* The string cut short after the tag: truncated at the string's head. */
    CHECK_STATUS(cbor_reader_reset(r, in, 4), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_read_typed_array(r, &a), CBOR_FAST_ERR_TRUNCATED);
    /* Another item: TYPE_MISMATCH with nothing read, as before. */
    CHECK_STATUS(cbor_reader_reset(r, in + 2, 4), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_read_typed_array(r, &a), CBOR_FAST_ERR_TYPE_MISMATCH);
    CHECK_EQ_UINT(cbor_reader_offset(r), 0);
    cbor_reader_free(r);
  }
}

/* [1, <reserved 0x1c>, 2] arriving one byte per NEED_MORE: the element's
 * error at its offset, sticky (the call returned OK with nothing read, and the
 * elements came out as items of their own). */
static void test_read_array_of_a_malformed_element_in_parts(void) {
  static const uint8_t in[] = {0x83, 0x01, 0x1c, 0x02};
  uint64_t out[4];
  size_t count = 99, arrived = 0;
  cbor_reader* r = NULL;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_status s;
  CHECK_STATUS(cbor_reader_new(in, 0, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  while ((s = cbor_reader_read_uint64_array(r, out, 4, &count)) == CBOR_FAST_NEED_MORE &&
         arrived < sizeof in)
    CHECK_STATUS(cbor_reader_feed(r, in, ++arrived, 0), CBOR_FAST_OK);
  CHECK_STATUS(s, CBOR_FAST_ERR_RESERVED_ADDITIONAL_INFO);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_RESERVED_ADDITIONAL_INFO);
  CHECK_EQ_UINT(e.offset, 2);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_RESERVED_ADDITIONAL_INFO);
  cbor_reader_free(r);
}

static void test_join_left_at_need_more_starts_afresh(void) {
  /* (_ "abc" "def") (_ "XY"), first fed up to the middle of "def". */
  static const uint8_t in[] = {0x7f, 0x63, 'a',  'b',  'c', 0x63, 'd', 'e',
                               'f',  0xff, 0x7f, 0x62, 'X', 'Y',  0xff};
  cbor_reader* r = NULL;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  const uint8_t* d = NULL;
  size_t n = 0;
  CHECK_STATUS(cbor_reader_new(in, 7, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &it, &d, &n), CBOR_FAST_NEED_MORE);
  CHECK_STATUS(cbor_reader_feed(r, in, sizeof in, 0), CBOR_FAST_OK);
  /* The caller gives that string up and reads the next one. */
  CHECK_STATUS(cbor_reader_skip_to_end(r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_UINT(it.offset, 10);
  CHECK_STATUS(cbor_reader_join(r, &it, &d, &n), CBOR_FAST_OK);
  CHECK_EQ_UINT(n, 2);
  CHECK(n == 2 && memcmp(d, "XY", 2) == 0);
  /* The same string resumed after NEED_MORE still joins whole. */
  CHECK_STATUS(cbor_reader_reset(r, in, 7), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &it, &d, &n), CBOR_FAST_NEED_MORE);
  CHECK_STATUS(cbor_reader_feed(r, in, sizeof in, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &it, &d, &n), CBOR_FAST_OK);
  CHECK(n == 6 && memcmp(d, "abcdef", 6) == 0);
  cbor_reader_free(r);
}

typedef struct {
  const uint8_t* data;
  size_t size;
  size_t at;
} source_bytes;

static int read_source(void* context, uint8_t* buffer, size_t capacity, size_t* got) {
  source_bytes* s = (source_bytes*)context;
  size_t n = s->size - s->at;
  if (n > capacity) n = capacity;
  if (n != 0) memcpy(buffer, s->data + s->at, n);
  s->at += n;
  *got = n;
  return 0;
}

static void test_stream_join_of_a_stale_item(void) {
  /* "abc", then a 200,000-byte string (the stream's buffer grows and moves),
   * then a join of the first item. */
  static uint8_t in[4 + 5 + 200000];
  source_bytes src;
  cbor_stream* st = NULL;
  cbor_fast_item first = CBOR_FAST_ITEM_INIT, big = CBOR_FAST_ITEM_INIT;
  const uint8_t* d = NULL;
  size_t n = 0;
  in[0] = 0x63;
  in[1] = 'a';
  in[2] = 'b';
  in[3] = 'c';
  in[4] = 0x5a; /* bytes, 4-byte length 200000 */
  in[5] = 0x00;
  in[6] = 0x03;
  in[7] = 0x0d;
  in[8] = 0x40;
  memset(in + 9, 0x5a, 200000);
  src.data = in;
  src.size = sizeof in;
  src.at = 0;
  CHECK_STATUS(cbor_stream_new(read_source, &src, 0, NULL, &st), CBOR_FAST_OK);
  CHECK_STATUS(cbor_stream_next(st, &first), CBOR_FAST_OK);
  CHECK_STATUS(cbor_stream_join(st, &first, &d, &n), CBOR_FAST_OK);
  CHECK(n == 3 && memcmp(d, "abc", 3) == 0);
  CHECK_STATUS(cbor_stream_next(st, &big), CBOR_FAST_OK);
  CHECK_EQ_UINT(big.size, 200000);
  CHECK_STATUS(cbor_stream_join(st, &first, &d, &n), CBOR_FAST_ERR_INVALID_STATE);
  CHECK(d == NULL && n == 0);
  CHECK_STATUS(cbor_stream_join(st, &big, &d, &n), CBOR_FAST_OK);
  CHECK_EQ_UINT(n, 200000);
  cbor_stream_free(st);
}

/* An allocator that fails from the Nth call on. */
typedef struct {
  int calls;
  int fail_at;
} failing;

static void* f_malloc(void* context, size_t size) {
  failing* f = (failing*)context;
  if (++f->calls >= f->fail_at) return NULL;
  return malloc(size);
}
static void* f_realloc(void* context, void* p, size_t old_size, size_t size) {
  failing* f = (failing*)context;
  (void)old_size;
  if (++f->calls >= f->fail_at) return NULL;
  return realloc(p, size);
}
static void f_free(void* context, void* p, size_t size) {
  (void)context;
  (void)size;
  free(p);
}

static void test_stream_next_doc_failure_is_sticky(void) {
  /* [1, [2, 3], "abc"] 7: for each allocation that may fail, a failure is
   * the stream's sticky error; no later call returns an item. */
  static const uint8_t in[] = {0x83, 0x01, 0x82, 0x02, 0x03, 0x63, 'a', 'b', 'c', 0x07};
  int saw_failure = 0;
  for (int fail_at = 1; fail_at < 40; ++fail_at) {
    failing f;
    cbor_fast_allocator a;
    source_bytes src;
    cbor_stream* st = NULL;
    cbor_doc* doc = NULL;
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    cbor_fast_status s;
    f.calls = 0;
    f.fail_at = 1000;
    a.malloc = f_malloc;
    a.realloc = f_realloc;
    a.free = f_free;
    a.context = &f;
    src.data = in;
    src.size = sizeof in;
    src.at = 0;
    if (cbor_stream_new(read_source, &src, 0, &a, &st) != CBOR_FAST_OK) continue;
    f.calls = 0;
    f.fail_at = fail_at;
    s = cbor_stream_next_doc(st, 0, &doc);
    if (s == CBOR_FAST_OK) {
      cbor_doc_free(doc);
      cbor_stream_free(st);
      continue;
    }
    CHECK(s == CBOR_FAST_ERR_OUT_OF_MEMORY || s == CBOR_FAST_ERR_MEMORY_BUDGET);
    CHECK(doc == NULL);
    f.fail_at = 1000;
    if (cbor_stream_error(st, &e) == CBOR_FAST_OK) {
      /* Failed before anything was consumed (the handle's own allocation):
       * the item is still whole. */
      CHECK_EQ_UINT(cbor_stream_offset(st), 0);
      CHECK_STATUS(cbor_stream_next_doc(st, 0, &doc), CBOR_FAST_OK);
      CHECK_EQ_UINT(cbor_node_size(cbor_doc_root(doc)), 3);
      cbor_doc_free(doc);
      CHECK_STATUS(cbor_stream_next(st, &it), CBOR_FAST_OK);
      CHECK_EQ_UINT(it.value, 7);
    } else {
      /* Inside the item: sticky, nothing more comes out of it. */
      saw_failure = 1;
      CHECK_STATUS(cbor_stream_error(st, &e), s);
      CHECK_STATUS(cbor_stream_next(st, &it), s);
      CHECK_STATUS(cbor_stream_next_doc(st, 0, &doc), s);
    }
    cbor_stream_free(st);
  }
  CHECK(saw_failure);
}

static void test_struct_sizes(void) {
  static const uint8_t date[] = {0xd8, 0x64, 0x19, 0x4a, 0x8e}; /* 100(19086) */
  static const uint8_t arr[] = {0x82, 0x01, 0x02};
  cbor_doc* doc = NULL;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  int64_t days = 0;
  uint64_t u[2];
  size_t count = 0;
  char text[64];
  size_t length = 0;
  uint8_t out[16];
  const uint32_t bad_sizes[] = {4, (uint32_t)sizeof(cbor_fast_error) + 65, 0xffffffffu};
  CHECK_STATUS(cbor_decode(date, sizeof date, 0, NULL, &doc, NULL), CBOR_FAST_OK);
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; ++i) {
    memset(&e, 0x5c, sizeof e);
    e.struct_size = bad_sizes[i];
    CHECK_STATUS(cbor_node_get_date(cbor_doc_root(doc), &days, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_node_read_uint64_array(cbor_doc_root(doc), u, 2, &count, &e),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_json_from_cbor(arr, sizeof arr, 0, text, sizeof text, &length, &e),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_diag_from_cbor(arr, sizeof arr, 0, text, sizeof text, &length, &e),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_diag_to_cbor("[1]", 3, 0, out, sizeof out, &length, &e),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
    /* Nothing past struct_size was written (the fill pattern is intact). */
    CHECK_EQ_UINT(e.offset, 0x5c5c5c5c5c5c5c5cull);
  }
  e.struct_size = sizeof e;
  CHECK_STATUS(cbor_node_get_date(cbor_doc_root(doc), &days, &e), CBOR_FAST_OK);
  CHECK_EQ_INT(days, 19086);
  cbor_doc_free(doc);
  /* cbor_fast_time: at most 64 bytes past this layout, and those bytes 0 when read. */
  {
    struct {
      cbor_fast_time t;
      unsigned char tail[128];
    } big;
    memset(&big, 0, sizeof big);
    big.t.struct_size = (uint32_t)sizeof(cbor_fast_time) + 64;
    big.t.seconds = 0;
    CHECK_EQ_UINT(cbor_time_format(&big.t, 0, text, sizeof text), 20);
    big.tail[10] = 1;
    CHECK_EQ_UINT(cbor_time_format(&big.t, 0, text, sizeof text), 0);
    big.tail[10] = 0;
    big.t.struct_size = (uint32_t)sizeof(cbor_fast_time) + 72;
    CHECK_EQ_UINT(cbor_time_format(&big.t, 0, text, sizeof text), 0);
  }
  /* cbor_fast_typed_array: at most 64 bytes past this layout; as the input
     of the copy functions, those bytes 0. */
  {
    static const uint8_t typed[] = {0xd8, 0x40, 0x41, 0x07};
    cbor_reader* r = NULL;
    struct {
      cbor_fast_typed_array a;
      unsigned char tail[72];
    } big;
    uint64_t value = 0;
    size_t bad = 99;
    memset(&big, 0, sizeof big);
    CHECK_STATUS(cbor_reader_new(typed, sizeof typed, NULL, &r), CBOR_FAST_OK);
    big.a.struct_size = 0xffffffffu;
    CHECK_STATUS(cbor_reader_read_typed_array(r, &big.a), CBOR_FAST_ERR_INVALID_ARGUMENT);
    big.a.struct_size = (uint32_t)sizeof big.a + 64;
    CHECK_STATUS(cbor_reader_read_typed_array(r, &big.a), CBOR_FAST_OK);
    CHECK_EQ_UINT(big.a.count, 1);
    CHECK_EQ_UINT(big.tail[0], 0); /* an output: the tail is left as it was */
    CHECK_STATUS(cbor_typed_array_copy_uint64(&big.a, &value, 1, &bad), CBOR_FAST_OK);
    CHECK_EQ_UINT(value, 7);
    big.tail[63] = 1; /* the last byte struct_size covers */
    value = 0;
    CHECK_STATUS(cbor_typed_array_copy_uint64(&big.a, &value, 1, &bad),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_EQ_UINT(value, 0);
    big.tail[63] = 0;
    big.tail[64] = 1; /* past struct_size: not read */
    CHECK_STATUS(cbor_typed_array_copy_uint64(&big.a, &value, 1, &bad), CBOR_FAST_OK);
    CHECK_EQ_UINT(value, 7);
    big.a.struct_size = (uint32_t)sizeof big.a + 72;
    CHECK_STATUS(cbor_typed_array_copy_uint64(&big.a, &value, 1, &bad),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
    cbor_reader_free(r);
  }
}

int main(void) {
  RUN_TEST(test_text_waits_for_the_whole_item);
  RUN_TEST(test_typed_array_on_partial_input);
  RUN_TEST(test_read_array_of_a_malformed_element_in_parts);
  RUN_TEST(test_join_left_at_need_more_starts_afresh);
  RUN_TEST(test_stream_join_of_a_stale_item);
  RUN_TEST(test_stream_next_doc_failure_is_sticky);
  RUN_TEST(test_struct_sizes);
  return check_summary();
}
