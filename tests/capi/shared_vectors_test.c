/*
 * The shared test vectors (tests/vectors/{appendix_a,malformed,strict,item_budget}.json, via
 * shared_vectors.h)
 * through the C API: every RFC 8949 Appendix A row decodes, re-encodes byte
 * for byte as read and, where the row is in preferred form, with
 * CBOR_FAST_ENCODE_PREFERRED too; every not-well-formed row gives its status
 * and offset from cbor_decode, the reader and the sequence iterator; every
 * strict row gives its status and offset with its checks on, from
 * cbor_decode and from the reader; every item-budget row gives its status and
 * offset from one reader over the whole sequence, read by every path.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"
#include "shared_vectors.h"

static uint8_t g_in[512];

static size_t input(const char* hex) { return unhex(hex, g_in, sizeof g_in); }

/* cbor_encode(doc, flags) into a growable writer: the bytes must equal expected[0, n). */
static void check_encode(const cbor_doc* doc, uint32_t flags, const uint8_t* expected, size_t n) {
  cbor_writer* w = NULL;
  const uint8_t* out = NULL;
  size_t size = 0;
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_encode(doc, flags, w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &out, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(out, size, expected, n);
  cbor_writer_free(w);
}

/* Reads every item; the final status (END when all was fine) and the error offset. */
static cbor_fast_status walk(const uint8_t* in, size_t n, const cbor_fast_option* options,
                             size_t option_count, size_t* offset) {
  cbor_reader* r = NULL;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_status s;
  size_t i;
  CHECK_STATUS(cbor_reader_new(in, n, NULL, &r), CBOR_FAST_OK);
  for (i = 0; i < option_count; ++i) CHECK_STATUS(cbor_reader_set(r, options[i], 1), CBOR_FAST_OK);
  while ((s = cbor_reader_next(r, &it)) == CBOR_FAST_OK) {}
  if (s == CBOR_FAST_END) s = cbor_reader_finish(r);
  CHECK_STATUS(cbor_reader_error(r, &e), s == CBOR_FAST_END ? CBOR_FAST_OK : s);
  *offset = e.offset;
  cbor_reader_free(r);
  return s;
}

static void test_appendix_a(void) {
  size_t i;
  CHECK(SHARED_COUNT(k_shared_appendix_a) >= 80);
  for (i = 0; i < SHARED_COUNT(k_shared_appendix_a); ++i) {
    const shared_appendix_a* row = &k_shared_appendix_a[i];
    const size_t n = input(row->hex);
    cbor_doc* doc = NULL;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    size_t offset = 99;
    check_current_ = row->name;
    CHECK_EQ_UINT(n * 2, strlen(row->hex));
    CHECK_STATUS(walk(g_in, n, NULL, 0, &offset), CBOR_FAST_OK);
    CHECK_STATUS(cbor_decode(g_in, n, CBOR_FAST_DECODE_EXACT | CBOR_FAST_DECODE_VALIDATE_UTF8, NULL,
                             &doc, &e),
                 CBOR_FAST_OK);
    CHECK_EQ_UINT(cbor_doc_encoded_size(doc), n);
    /* As read: float widths and indefinite lengths kept, so every row. */
    check_encode(doc, CBOR_FAST_ENCODE_NONE, g_in, n);
    if (row->roundtrip) check_encode(doc, CBOR_FAST_ENCODE_PREFERRED, g_in, n);
    cbor_doc_free(doc);
  }
  check_current_ = "";
}

static void test_malformed(void) {
  size_t i;
  CHECK(SHARED_COUNT(k_shared_malformed) >= 90);
  for (i = 0; i < SHARED_COUNT(k_shared_malformed); ++i) {
    const shared_malformed* row = &k_shared_malformed[i];
    const size_t n = input(row->hex);
    cbor_doc* doc = NULL;
    cbor_seq* seq = NULL;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    size_t offset = 99;
    check_current_ = row->name;
    CHECK(cbor_status_is_malformed(row->status));
    CHECK_STATUS(cbor_decode(g_in, n, 0, NULL, &doc, &e), row->status);
    CHECK(doc == NULL);
    CHECK_EQ_UINT(e.offset, row->offset);
    CHECK_STATUS(walk(g_in, n, NULL, 0, &offset), row->status);
    CHECK_EQ_UINT(offset, row->offset);
    CHECK_STATUS(cbor_seq_new(g_in, n, NULL, &seq), CBOR_FAST_OK);
    CHECK_STATUS(cbor_seq_next(seq, 0, NULL, NULL), row->status);
    CHECK_STATUS(cbor_seq_error(seq, &e), row->status);
    CHECK_EQ_UINT(e.offset, row->offset);
    cbor_seq_free(seq);
  }
  check_current_ = "";
}

static void test_strict(void) {
  size_t i;
  CHECK(SHARED_COUNT(k_shared_strict) >= 100);
  for (i = 0; i < SHARED_COUNT(k_shared_strict); ++i) {
    const shared_strict* row = &k_shared_strict[i];
    const size_t n = input(row->hex);
    cbor_fast_option options[3];
    size_t count = 0;
    uint32_t flags = 0;
    cbor_doc* doc = NULL;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    size_t offset = 99;
    check_current_ = row->name;
    if (row->checks & SHARED_CHECK_UTF8) {
      options[count++] = CBOR_FAST_OPT_VALIDATE_UTF8;
      flags |= CBOR_FAST_DECODE_VALIDATE_UTF8;
    }
    if (row->checks & SHARED_CHECK_DUPLICATE_KEYS) {
      options[count++] = CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS;
      flags |= CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS;
    }
    if (row->checks & SHARED_CHECK_DETERMINISTIC) {
      options[count++] = CBOR_FAST_OPT_DETERMINISTIC;
      flags |= CBOR_FAST_DECODE_DETERMINISTIC;
    }
    CHECK_STATUS(cbor_decode(g_in, n, flags, NULL, &doc, &e), row->status);
    CHECK((doc != NULL) == (row->status == CBOR_FAST_OK));
    cbor_doc_free(doc);
    CHECK_STATUS(walk(g_in, n, options, count, &offset), row->status);
    if (row->status != CBOR_FAST_OK) {
      CHECK_EQ_UINT(e.offset, row->offset);
      CHECK_EQ_UINT(offset, row->offset);
    }
    /* Without the checks every strict row is well-formed. */
    CHECK_STATUS(cbor_decode(g_in, n, 0, NULL, &doc, &e), CBOR_FAST_OK);
    cbor_doc_free(doc);
  }
  check_current_ = "";
}

/* How one reader (or stream, or sequence iterator) goes through a sequence. */
enum budget_path {
  BY_NEXT,      /* cbor_reader_next, max_items by cbor_reader_set */
  BY_BATCH,     /* cbor_reader_next_batch, 3 at a time */
  BY_SKIP,      /* cbor_reader_skip, an item per call */
  BY_CONFIGURE, /* cbor_reader_next, max_items by cbor_reader_configure */
  BY_STREAM,    /* cbor_stream_next over a source handing out 2 bytes per read */
  BY_SEQ,       /* cbor_seq_next: max_items is max_items per document */
  BUDGET_PATHS
};

/* The final status (CBOR_FAST_OK: read to the end) and the error offset. */
static cbor_fast_status read_budgeted(enum budget_path path, const uint8_t* in, size_t n,
                                      uint64_t max_items, size_t* offset) {
  cbor_fast_item items[3];
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_fast_status s;
  o.max_items = max_items;
  items[0] = (cbor_fast_item)CBOR_FAST_ITEM_INIT;
  *offset = 0;
  if (path == BY_STREAM) {
    piece_source src = {in, n, 0, 2, 0};
    cbor_stream* st = NULL;
    CHECK_STATUS(cbor_stream_new(read_pieces, &src, 0, NULL, &st), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_set(st, CBOR_FAST_OPT_MAX_ITEMS, max_items), CBOR_FAST_OK);
    while ((s = cbor_stream_next(st, &items[0])) == CBOR_FAST_OK) {}
    CHECK_STATUS(cbor_stream_error(st, &e), s == CBOR_FAST_END ? CBOR_FAST_OK : s);
    cbor_stream_free(st);
  } else if (path == BY_SEQ) {
    cbor_seq* seq = NULL;
    size_t at, length;
    CHECK_STATUS(cbor_seq_new(in, n, &o, &seq), CBOR_FAST_OK);
    while ((s = cbor_seq_next(seq, 0, &at, &length)) == CBOR_FAST_OK) {}
    CHECK_STATUS(cbor_seq_error(seq, &e), s == CBOR_FAST_END ? CBOR_FAST_OK : s);
    cbor_seq_free(seq);
  } else {
    cbor_reader* r = NULL;
    size_t count;
    CHECK_STATUS(cbor_reader_new(in, n, NULL, &r), CBOR_FAST_OK);
    if (path == BY_CONFIGURE)
      CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_OK);
    else
      CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, max_items), CBOR_FAST_OK);
    do {
      if (path == BY_BATCH)
        s = cbor_reader_next_batch(r, items, 3, &count);
      else if (path == BY_SKIP)
        s = cbor_reader_skip(r);
      else
        s = cbor_reader_next(r, &items[0]);
    } while (s == CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_error(r, &e), s == CBOR_FAST_END ? CBOR_FAST_OK : s);
    cbor_reader_free(r);
  }
  *offset = e.offset;
  return s == CBOR_FAST_END ? CBOR_FAST_OK : s;
}

static void test_item_budget(void) {
  static const char* const names[BUDGET_PATHS] = {"next",      "batch",  "skip",
                                                  "configure", "stream", "seq"};
  size_t i;
  int path;
  CHECK(SHARED_COUNT(k_shared_item_budget) >= 15);
  for (i = 0; i < SHARED_COUNT(k_shared_item_budget); ++i) {
    const shared_item_budget* row = &k_shared_item_budget[i];
    const size_t n = input(row->hex);
    for (path = 0; path < BUDGET_PATHS; ++path) {
      size_t offset = 99;
      static char where[160];
      snprintf(where, sizeof where, "%s by %s", row->name, names[path]);
      check_current_ = where;
      CHECK_STATUS(read_budgeted((enum budget_path)path, g_in, n, row->max_items, &offset),
                   row->status);
      if (row->status != CBOR_FAST_OK) CHECK_EQ_UINT(offset, row->offset);
    }
  }
  check_current_ = "";
}

int main(void) {
  RUN_TEST(test_appendix_a);
  RUN_TEST(test_malformed);
  RUN_TEST(test_strict);
  RUN_TEST(test_item_budget);
  return check_summary();
}
