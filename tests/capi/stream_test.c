/*
 * Input in parts from C: CBOR_FAST_OPT_STREAMING with cbor_reader_feed(),
 * CBOR_FAST_NEED_MORE and cbor_reader_needed(); and cbor_stream over a
 * callback and over a file descriptor, against one-shot reads.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cbor_fast.h"
#include "check.h"

/* [1, "ab", {"k": -2.5}, h'00ff', (_ "x" "y"), 1(3), [_ null true]] then 0, 24 */
static const uint8_t k_sequence[] = {0x87, 0x01, 0x62, 0x61, 0x62, 0xa1, 0x61, 0x6b, 0xf9, 0xc1,
                                     0x00, 0x42, 0x00, 0xff, 0x7f, 0x61, 0x78, 0x61, 0x79, 0xff,
                                     0xc1, 0x03, 0x9f, 0xf6, 0xf5, 0xff, 0x00, 0x18, 0x18};

/* Items compared by value (a fed reader's views point into other buffers). */
static int same_item(const cbor_fast_item* a, const cbor_fast_item* b) {
  if (a->type != b->type || a->flags != b->flags || a->depth != b->depth ||
      a->offset != b->offset || a->head_size != b->head_size || a->value != b->value ||
      a->float_value != b->float_value || a->size != b->size)
    return 0;
  return a->size == 0 || memcmp(a->data, b->data, a->size) == 0;
}

static size_t one_shot(cbor_fast_item* out, size_t max) {
  cbor_reader* r = NULL;
  size_t n = 0;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  CHECK_STATUS(cbor_reader_new(k_sequence, sizeof k_sequence, NULL, &r), CBOR_FAST_OK);
  while (n < max && cbor_reader_next(r, &it) == CBOR_FAST_OK) out[n++] = it;
  cbor_reader_free(r);
  return n;
}

/* One byte at a time into a window that keeps only cbor_reader_keep_from() on. */
static void test_reader_fed_byte_by_byte(void) {
  cbor_fast_item want[64];
  cbor_fast_item got;
  const size_t n = one_shot(want, 64);
  cbor_reader* r = NULL;
  size_t i = 0;
  size_t avail = 0;
  uint8_t* window = NULL;
  size_t need_more_calls = 0;
  CHECK(n == 21);
  CHECK_STATUS(cbor_reader_new(NULL, 0, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  for (;;) {
    cbor_fast_status s;
    got.struct_size = sizeof got;
    s = cbor_reader_next(r, &got);
    if (s == CBOR_FAST_OK) {
      CHECK(i < n && same_item(&got, &want[i]));
      ++i;
      continue;
    }
    if (s != CBOR_FAST_NEED_MORE) {
      CHECK_STATUS(s, CBOR_FAST_END);
      break;
    }
    ++need_more_calls;
    CHECK(cbor_reader_needed(r) >= 1);
    CHECK(cbor_status_is_error(s) == 0);
    if (avail == sizeof k_sequence) {
      CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 0), CBOR_FAST_OK);
      continue;
    }
    ++avail;
    {
      const size_t keep = cbor_reader_keep_from(r);
      uint8_t* fresh = malloc(avail - keep);
      memcpy(fresh, k_sequence + keep, avail - keep);
      CHECK_STATUS(cbor_reader_feed(r, fresh, avail - keep, keep), CBOR_FAST_OK);
      free(window); /* the old window is gone: the reader must not need it */
      window = fresh;
    }
  }
  CHECK(i == n);
  CHECK(need_more_calls >= sizeof k_sequence);
  cbor_reader_free(r);
  free(window);
}

static void test_need_more_counts_and_truncation(void) {
  /* "hello" with 3 of its 6 bytes */
  static const uint8_t text[] = {0x65, 0x68, 0x65, 0x6c, 0x6c, 0x6f};
  cbor_reader* r = NULL;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  CHECK_STATUS(cbor_reader_new(text, 3, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_TRUNCATED);
  CHECK(cbor_reader_needed(r) == 0);
  CHECK_STATUS(cbor_reader_reset(r, text, 3), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_NEED_MORE);
  CHECK(cbor_reader_needed(r) == 3);
  CHECK(cbor_reader_offset(r) == 0);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_OK); /* not sticky */
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_TRUNCATED);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_TRUNCATED);
  CHECK(e.offset == 0);
  /* Option values other than 0 and 1 are refused. */
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 2), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_reader_free(r);
  CHECK(strcmp(cbor_status_name(CBOR_FAST_NEED_MORE), "need_more") == 0);
  CHECK(strcmp(cbor_status_name(CBOR_FAST_ERR_SOURCE_FAILED), "source_failed") == 0);
}

static void test_feed_arguments(void) {
  cbor_reader* r = NULL;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  CHECK_STATUS(cbor_reader_new(k_sequence, 2, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK(cbor_reader_keep_from(r) == 2);
  CHECK_STATUS(cbor_reader_feed(r, k_sequence + 3, 4, 3), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_feed(r, k_sequence, 1, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_feed(r, NULL, 5, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_feed(NULL, k_sequence, 5, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_feed(r, k_sequence + 2, 3, 2), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK(it.type == CBOR_FAST_TYPE_TEXT && it.offset == 2 && it.size == 2);
  CHECK(memcmp(it.data, "ab", 2) == 0);
  /* skip() and item_ready() wait for the whole map {"k": -2.5} (bytes 5-9). */
  CHECK_STATUS(cbor_reader_item_ready(r), CBOR_FAST_NEED_MORE);
  CHECK(cbor_reader_needed(r) == 1);
  CHECK_STATUS(cbor_reader_feed(r, k_sequence, 9, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_NEED_MORE);
  CHECK(cbor_reader_offset(r) == 5);
  CHECK_STATUS(cbor_reader_feed(r, k_sequence, 11, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_item_ready(r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK);
  CHECK(cbor_reader_offset(r) == 11);
  CHECK(cbor_reader_needed(NULL) == 0 && cbor_reader_keep_from(NULL) == 0);
  CHECK_STATUS(cbor_reader_item_ready(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_reader_free(r);
}

/* A batch stops at the partial item; the items before it come with OK. */
static void test_batch_and_join_in_parts(void) {
  cbor_reader* r = NULL;
  cbor_fast_item items[9];
  size_t count = 0;
  const uint8_t* data = NULL;
  size_t size = 0;
  cbor_fast_item start = CBOR_FAST_ITEM_INIT;
  CHECK_STATUS(cbor_reader_new(k_sequence, 16, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  items[0].struct_size = sizeof items[0];
  CHECK_STATUS(cbor_reader_next_batch(r, items, 9, &count), CBOR_FAST_OK);
  /* [, 1, "ab", {, "k", -2.5, end, h'00ff', (_ : the 9th is the (_ start */
  CHECK(count == 9);
  CHECK(items[8].offset == 14 && (items[8].flags & CBOR_FAST_ITEM_INDEFINITE) != 0);
  start = items[8];
  /* The buffer ends inside the first chunk "x" (byte 16 missing). */
  CHECK_STATUS(cbor_reader_join(r, &start, &data, &size), CBOR_FAST_NEED_MORE);
  CHECK_STATUS(cbor_reader_feed(r, k_sequence, 18, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &start, &data, &size), CBOR_FAST_NEED_MORE);
  CHECK_STATUS(cbor_reader_feed(r, k_sequence, 20, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &start, &data, &size), CBOR_FAST_OK);
  CHECK(size == 2 && memcmp(data, "xy", 2) == 0);
  CHECK_STATUS(cbor_reader_next_batch(r, items, 8, &count), CBOR_FAST_NEED_MORE);
  CHECK(count == 0);
  cbor_reader_free(r);
}

/* ---- cbor_stream ---------------------------------------------------------- */

static void test_stream_callback_equals_one_shot(void) {
  cbor_fast_item want[64];
  const size_t n = one_shot(want, 64);
  size_t piece;
  for (piece = 1; piece <= 7; piece += 3) {
    piece_source src = {k_sequence, sizeof k_sequence, 0, 0, 0};
    cbor_stream* st = NULL;
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    size_t i = 0;
    cbor_fast_status s;
    src.piece = piece;
    CHECK_STATUS(cbor_stream_new(read_pieces, &src, 0, NULL, &st), CBOR_FAST_OK);
    while ((s = cbor_stream_next(st, &it)) == CBOR_FAST_OK) {
      CHECK(i < n && same_item(&it, &want[i]));
      ++i;
    }
    CHECK_STATUS(s, CBOR_FAST_END);
    CHECK(i == n);
    CHECK(cbor_stream_offset(st) == sizeof k_sequence);
    cbor_stream_free(st);
  }
}

static void test_stream_limits_and_failures(void) {
  /* 1, then a 300-byte string: over a 256-byte buffer at offset 1. */
  uint8_t in[304];
  piece_source src = {NULL, sizeof in, 0, 64, 0};
  cbor_stream* st = NULL;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  in[0] = 0x01;
  in[1] = 0x59;
  in[2] = 0x01;
  in[3] = 0x2c;
  memset(in + 4, 'x', 300);
  src.data = in;
  CHECK_STATUS(cbor_stream_new(read_pieces, &src, 256, NULL, &st), CBOR_FAST_OK);
  CHECK_STATUS(cbor_stream_next(st, &it), CBOR_FAST_OK);
  CHECK_STATUS(cbor_stream_next(st, &it), CBOR_FAST_ERR_MEMORY_BUDGET);
  CHECK_STATUS(cbor_stream_error(st, &e), CBOR_FAST_ERR_MEMORY_BUDGET);
  CHECK(e.offset == 1);
  cbor_stream_free(st);
  /* A source that fails after "82 01". */
  {
    static const uint8_t two[] = {0x82, 0x01};
    piece_source failing = {two, 2, 0, 1, 1};
    CHECK_STATUS(cbor_stream_new(read_pieces, &failing, 0, NULL, &st), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_next(st, &it), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_next(st, &it), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_next(st, &it), CBOR_FAST_ERR_SOURCE_FAILED);
    CHECK_STATUS(cbor_stream_error(st, &e), CBOR_FAST_ERR_SOURCE_FAILED);
    CHECK(e.offset == 2);
    cbor_stream_free(st);
  }
  /* Options go to the reader; streaming itself cannot be turned off. */
  {
    static const uint8_t deep[] = {0x81, 0x81, 0x01};
    piece_source d = {deep, 3, 0, 1, 0};
    CHECK_STATUS(cbor_stream_new(read_pieces, &d, 0, NULL, &st), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_set(st, CBOR_FAST_OPT_STREAMING, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_stream_set(st, CBOR_FAST_OPT_MAX_DEPTH, 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_next(st, &it), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_next(st, &it), CBOR_FAST_ERR_DEPTH);
    CHECK_STATUS(cbor_stream_error(st, &e), CBOR_FAST_ERR_DEPTH);
    CHECK(e.offset == 1);
    cbor_stream_free(st);
  }
  CHECK_STATUS(cbor_stream_new(NULL, NULL, 0, NULL, &st), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(st == NULL);
  CHECK_STATUS(cbor_stream_new_fd(-1, 0, NULL, &st), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_stream_new_fd(0, 0, NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_stream_next(NULL, &it), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_stream_error(NULL, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_stream_free(NULL);
}

/* A sequence of documents from a file descriptor (a temporary file). */
static void test_stream_fd_documents(void) {
  FILE* f = tmpfile();
  cbor_stream* st = NULL;
  cbor_doc* doc = NULL;
  size_t docs = 0;
  cbor_fast_status s;
  CHECK(f != NULL);
  if (f == NULL) return;
  CHECK(fwrite(k_sequence, 1, sizeof k_sequence, f) == sizeof k_sequence);
  fflush(f);
  rewind(f);
  CHECK_STATUS(cbor_stream_new_fd(fileno(f), 0, NULL, &st), CBOR_FAST_OK);
  while ((s = cbor_stream_next_doc(st, 0, &doc)) == CBOR_FAST_OK) {
    const cbor_node* root = cbor_doc_root(doc);
    if (docs == 0) CHECK(cbor_node_type(root) == CBOR_FAST_TYPE_ARRAY && cbor_node_size(root) == 7);
    if (docs == 2) {
      uint64_t v = 0;
      CHECK_STATUS(cbor_node_get_uint64(root, &v), CBOR_FAST_OK);
      CHECK(v == 24);
    }
    ++docs;
    cbor_doc_free(doc);
  }
  CHECK_STATUS(s, CBOR_FAST_END);
  CHECK(docs == 3);
  CHECK(doc == NULL);
  cbor_stream_free(st);
  fclose(f);
}

/* Joining (_ "ab", "cd", "ef") after a chunk of it was read with
 * cbor_reader_next() is refused (it would leave that chunk out), also when a
 * join that needed more is resumed; not sticky. */
static void test_join_after_a_chunk_was_read(void) {
  static const uint8_t in[] = {0x7f, 0x62, 'a', 'b', 0x62, 'c', 'd', 0x62, 'e', 'f', 0xff};
  cbor_reader* r = NULL;
  cbor_fast_item start = CBOR_FAST_ITEM_INIT, chunk = CBOR_FAST_ITEM_INIT;
  const uint8_t* p = NULL;
  size_t n = 0;
  CHECK_STATUS(cbor_reader_new(in, 5, NULL, &r), CBOR_FAST_OK); /* start, "ab", a head */
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &start), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &start, &p, &n), CBOR_FAST_NEED_MORE);
  CHECK_STATUS(cbor_reader_feed(r, in, sizeof in, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &chunk), CBOR_FAST_OK);
  CHECK(chunk.size == 2 && memcmp(chunk.data, "cd", 2) == 0);
  CHECK_STATUS(cbor_reader_join(r, &start, &p, &n), CBOR_FAST_ERR_INVALID_STATE);
  CHECK(p == NULL && n == 0);
  CHECK_STATUS(cbor_reader_next(r, &chunk), CBOR_FAST_OK);
  CHECK(chunk.size == 2 && memcmp(chunk.data, "ef", 2) == 0);
  cbor_reader_free(r);
  /* One-shot: next(start), next("ab"), then join. */
  CHECK_STATUS(cbor_reader_new(in, sizeof in, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &start), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &chunk), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &start, &p, &n), CBOR_FAST_ERR_INVALID_STATE);
  cbor_reader_free(r);
  /* Right after the start: the whole string. */
  CHECK_STATUS(cbor_reader_new(in, sizeof in, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &start), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_join(r, &start, &p, &n), CBOR_FAST_OK);
  CHECK(n == 6 && memcmp(p, "abcdef", 6) == 0);
  cbor_reader_free(r);
}

/* cbor_stream_configure()'s max_memory: the budget of each cbor_stream_next_doc()
 * document. Input: an array of 1000 zeros (1003 bytes), then 7. */
static void test_stream_document_budget(void) {
  struct {
    const char* name;
    uint64_t max_memory;
    cbor_fast_status first;
  } rows[] = {
      {"0: no budget (the default)", 0, CBOR_FAST_OK},
      {"UINT64_MAX: no budget", UINT64_MAX, CBOR_FAST_OK},
      {"1 MiB: the array fits", 1u << 20, CBOR_FAST_OK},
      {"4 KiB: the array's nodes do not fit", 4096, CBOR_FAST_ERR_MEMORY_BUDGET},
  };
  static uint8_t in[1004];
  size_t i;
  in[0] = 0x99;
  in[1] = 0x03;
  in[2] = 0xe8;
  memset(in + 3, 0, 1000);
  in[1003] = 0x07;
  for (i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    piece_source src = {in, sizeof in, 0, 100, 0};
    cbor_stream* st = NULL;
    cbor_doc* doc = NULL;
    cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    uint64_t v = 0;
    printf("  row: %s\n", rows[i].name);
    o.max_memory = rows[i].max_memory;
    CHECK_STATUS(cbor_stream_new(read_pieces, &src, 0, NULL, &st), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_configure(st, 0, &o), CBOR_FAST_OK);
    CHECK_STATUS(cbor_stream_next_doc(st, 0, &doc), rows[i].first);
    if (rows[i].first != CBOR_FAST_OK) {
      CHECK(doc == NULL);
      CHECK_STATUS(cbor_stream_error(st, &e), CBOR_FAST_ERR_MEMORY_BUDGET);
      /* At the zero being added, as cbor_decode() with the same budget says
       * for the array alone: the 170th (offset 172). */
      CHECK(e.offset == 172);
      {
        cbor_fast_error d = CBOR_FAST_ERROR_INIT;
        CHECK_STATUS(cbor_decode(in, 1003, 0, &o, &doc, &d), CBOR_FAST_ERR_MEMORY_BUDGET);
        CHECK(d.offset == e.offset);
        CHECK(doc == NULL);
      }
      /* Sticky: the rest of the array never comes out as documents. */
      CHECK_STATUS(cbor_stream_next_doc(st, 0, &doc), CBOR_FAST_ERR_MEMORY_BUDGET);
      cbor_stream_free(st);
      continue;
    }
    CHECK(cbor_node_size(cbor_doc_root(doc)) == 1000);
    cbor_doc_free(doc);
    CHECK_STATUS(cbor_stream_next_doc(st, 0, &doc), CBOR_FAST_OK);
    CHECK_STATUS(cbor_node_get_uint64(cbor_doc_root(doc), &v), CBOR_FAST_OK);
    CHECK(v == 7);
    cbor_doc_free(doc);
    CHECK_STATUS(cbor_stream_next_doc(st, 0, &doc), CBOR_FAST_END);
    cbor_stream_free(st);
  }
  /* A reader has no documents: a budget there is still refused. */
  {
    cbor_reader* r = NULL;
    cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
    o.max_memory = 4096;
    CHECK_STATUS(cbor_reader_new(in, sizeof in, NULL, &r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_configure(r, 0, &o), CBOR_FAST_ERR_INVALID_ARGUMENT);
    cbor_reader_free(r);
  }
}

/* cbor_seq fed one byte at a time into a window from cbor_seq_keep_from() on:
 * the same items (offset, length) as a one-shot cbor_seq, then the documents. */
static void test_seq_fed_byte_by_byte(void) {
  size_t want_off[16], want_len[16], n = 0, off = 0, len = 0;
  cbor_seq* one = NULL;
  CHECK_STATUS(cbor_seq_new(k_sequence, sizeof k_sequence, NULL, &one), CBOR_FAST_OK);
  while (n < 16 && cbor_seq_next(one, 0, &off, &len) == CBOR_FAST_OK) {
    want_off[n] = off;
    want_len[n] = len;
    ++n;
  }
  cbor_seq_free(one);
  CHECK(n == 3);

  cbor_seq* seq = NULL;
  CHECK_STATUS(cbor_seq_new(NULL, 0, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_feed(seq, NULL, 0, 0), CBOR_FAST_OK); /* streaming from here */
  uint8_t* window = NULL;
  size_t arrived = 0, got = 0, need_more = 0;
  for (;;) {
    const cbor_fast_status s = cbor_seq_next(seq, 0, &off, &len);
    if (s == CBOR_FAST_OK) {
      CHECK(got < n && off == want_off[got] && len == want_len[got]);
      ++got;
      continue;
    }
    if (s == CBOR_FAST_END) break;
    CHECK_STATUS(s, CBOR_FAST_NEED_MORE);
    if (s != CBOR_FAST_NEED_MORE) break;
    ++need_more;
    CHECK(cbor_seq_needed(seq) >= 1);
    if (arrived == sizeof k_sequence) {
      CHECK_STATUS(cbor_seq_end_input(seq), CBOR_FAST_OK);
      continue;
    }
    ++arrived;
    const size_t keep = cbor_seq_keep_from(seq);
    uint8_t* fresh = malloc(arrived - keep);
    CHECK(fresh != NULL);
    memcpy(fresh, k_sequence + keep, arrived - keep);
    CHECK_STATUS(cbor_seq_feed(seq, fresh, arrived - keep, keep), CBOR_FAST_OK);
    free(window); /* valgrind and ASan see any read of the old window */
    window = fresh;
  }
  CHECK(got == n);
  CHECK(need_more >= sizeof k_sequence);
  cbor_seq_free(seq);
  free(window);

  /* A document per item, the buffer grown; strings copied. */
  CHECK_STATUS(cbor_seq_new(NULL, 0, NULL, &seq), CBOR_FAST_OK);
  size_t shown = 5, docs = 0;
  CHECK_STATUS(cbor_seq_feed(seq, k_sequence, shown, 0), CBOR_FAST_OK);
  for (;;) {
    cbor_doc* doc = NULL;
    const cbor_fast_status s = cbor_seq_next_doc(seq, CBOR_FAST_DECODE_COPY_STRINGS, &doc);
    if (s == CBOR_FAST_OK) {
      CHECK(doc != NULL);
      cbor_doc_free(doc);
      ++docs;
      continue;
    }
    CHECK(doc == NULL);
    if (s == CBOR_FAST_END) break;
    CHECK_STATUS(s, CBOR_FAST_NEED_MORE);
    if (s != CBOR_FAST_NEED_MORE) break;
    if (shown == sizeof k_sequence) {
      cbor_seq_end_input(seq);
      continue;
    }
    shown = shown + 5 < sizeof k_sequence ? shown + 5 : sizeof k_sequence;
    CHECK_STATUS(cbor_seq_feed(seq, k_sequence, shown, 0), CBOR_FAST_OK);
  }
  CHECK(docs == 3);
  cbor_seq_free(seq);

  /* NULL and bad arguments: refused, nothing sticky. */
  CHECK_STATUS(cbor_seq_feed(NULL, k_sequence, 1, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_seq_end_input(NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(cbor_seq_needed(NULL) == 0);
  CHECK(cbor_seq_keep_from(NULL) == 0);
  CHECK_STATUS(cbor_seq_new(NULL, 0, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_feed(seq, NULL, 3, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_seq_feed(seq, k_sequence, 1, 0), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_NEED_MORE);
  CHECK_STATUS(cbor_seq_feed(seq, k_sequence + 1, 1, 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_seq_error(seq, NULL), CBOR_FAST_OK);
  cbor_seq_free(seq);
}

int main(void) {
  RUN_TEST(test_reader_fed_byte_by_byte);
  RUN_TEST(test_need_more_counts_and_truncation);
  RUN_TEST(test_feed_arguments);
  RUN_TEST(test_batch_and_join_in_parts);
  RUN_TEST(test_stream_callback_equals_one_shot);
  RUN_TEST(test_stream_limits_and_failures);
  RUN_TEST(test_stream_fd_documents);
  RUN_TEST(test_stream_document_budget);
  RUN_TEST(test_join_after_a_chunk_was_read);
  RUN_TEST(test_seq_fed_byte_by_byte);
  return check_summary();
}
