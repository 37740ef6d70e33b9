/*
 * C API: JSON and diagnostic notation (cbor_reader_json, cbor_reader_diag,
 * cbor_json_from_cbor, cbor_diag_from_cbor, cbor_json_to_cbor,
 * cbor_diag_to_cbor): exact text and bytes, buffer sizing, sinks, statuses
 * with offsets, NULL arguments and unknown flags.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Collects sink output into a fixed buffer; fails after `fail_after` calls (-1: never). */
typedef struct {
  char text[4096];
  size_t size;
  int calls;
  int fail_after;
} collector;

static int collect(void* context, const char* data, size_t size) {
  collector* c = (collector*)context;
  if (c->fail_after >= 0 && c->calls >= c->fail_after) return 1;
  ++c->calls;
  if (c->size + size < sizeof c->text) {
    memcpy(c->text + c->size, data, size);
    c->size += size;
    c->text[c->size] = '\0';
  }
  return 0;
}

static void test_json_to_cbor(void) {
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  static const uint8_t want[] = {0xa2, 0x61, 0x61, 0x83, 0x18, 0x18, 0x20, 0xf9,
                                 0x3e, 0x00, 0x61, 0x62, 0xc2, 0x49, 0x01, 0,
                                 0,    0,    0,    0,    0,    0,    0};
  const char* json = "{\"a\": [24, -1, 1.5], \"b\": 18446744073709551616}";
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_json_to_cbor(json, strlen(json), 0, w, &e), CBOR_FAST_OK);
  CHECK_STATUS(e.code, CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_BYTES(data, size, want, sizeof want);

  /* A syntax error: its text offset, nothing written. */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_json_to_cbor("[1, 2,]", 7, 0, w, &e), CBOR_FAST_ERR_SYNTAX_ERROR);
  CHECK_STATUS(e.code, CBOR_FAST_ERR_SYNTAX_ERROR);
  CHECK_EQ_UINT(e.offset, 6);
  CHECK_EQ_STR(cbor_status_name(e.code), "syntax_error");
  CHECK_EQ_UINT(cbor_writer_size(w), 0);

  /* Duplicate member names only with the flag. */
  CHECK_STATUS(cbor_json_to_cbor("{\"k\":1,\"k\":2}", 13, 0, w, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(
      cbor_json_to_cbor("{\"k\":1,\"k\":2}", 13, CBOR_FAST_JSON_REJECT_DUPLICATE_KEYS, w, &e),
      CBOR_FAST_ERR_DUPLICATE_KEY);
  CHECK_EQ_UINT(e.offset, 7);

  CHECK_STATUS(cbor_json_to_cbor(NULL, 0, 0, w, &e), CBOR_FAST_ERR_SYNTAX_ERROR); /* empty text */
  CHECK_STATUS(cbor_json_to_cbor(NULL, 1, 0, w, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_json_to_cbor("1", 1, 0, NULL, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_json_to_cbor("1", 1, 0x80, w, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_writer_free(w);
}

static void test_json_from_cbor_buffer(void) {
  /* {"a": h'fbff', 1: [NaN, -2^64]} */
  static const uint8_t in[] = {0xa2, 0x61, 0x61, 0x42, 0xfb, 0xff, 0x01, 0x82, 0xf9, 0x7e,
                               0x00, 0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  const char* want = "{\"a\":\"-_8\",\"1\":[null,-18446744073709551616]}";
  char buf[64];
  size_t len = 99;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  /* Asking for the length: capacity 0, then exactly one byte short of the NUL. */
  CHECK_STATUS(cbor_json_from_cbor(in, sizeof in, 0, NULL, 0, &len, &e),
               CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_UINT(len, strlen(want));
  CHECK_STATUS(cbor_json_from_cbor(in, sizeof in, 0, buf, strlen(want), &len, NULL),
               CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_STATUS(cbor_json_from_cbor(in, sizeof in, 0, buf, strlen(want) + 1, &len, &e),
               CBOR_FAST_OK);
  CHECK_EQ_STR(buf, want);
  CHECK_EQ_UINT(len, strlen(want));

  /* Tags: dropped, or kept with the flag. */
  {
    static const uint8_t tagged[] = {0xc1, 0x01};
    CHECK_STATUS(cbor_json_from_cbor(tagged, 2, 0, buf, sizeof buf, &len, NULL), CBOR_FAST_OK);
    CHECK_EQ_STR(buf, "1");
    CHECK_STATUS(
        cbor_json_from_cbor(tagged, 2, CBOR_FAST_JSON_KEEP_TAGS, buf, sizeof buf, &len, NULL),
        CBOR_FAST_OK);
    CHECK_EQ_STR(buf, "{\"tag\":1,\"value\":1}");
  }
  /* Errors with their CBOR offsets. */
  {
    static const uint8_t bad_utf8[] = {0x82, 0x01, 0x61, 0xff};
    static const uint8_t two[] = {0x01, 0x02};
    /* At the bad byte, as a validating reader reports it (it was the
     * string's head, 2). */
    CHECK_STATUS(cbor_json_from_cbor(bad_utf8, 4, 0, buf, sizeof buf, &len, &e),
                 CBOR_FAST_ERR_INVALID_UTF8);
    CHECK_EQ_UINT(e.offset, 3);
    CHECK_STATUS(cbor_json_from_cbor(two, 2, 0, buf, sizeof buf, &len, &e),
                 CBOR_FAST_ERR_TRAILING_BYTES);
    CHECK_EQ_UINT(e.offset, 1);
    CHECK_STATUS(cbor_json_from_cbor(two, 0, 0, buf, sizeof buf, &len, &e),
                 CBOR_FAST_ERR_TRUNCATED);
    CHECK_STATUS(cbor_json_from_cbor(NULL, 1, 0, buf, sizeof buf, &len, &e),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_json_from_cbor(two, 1, 0, NULL, 4, &len, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_json_from_cbor(two, 1, 2, buf, sizeof buf, &len, &e),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
  }
}

static void test_diag_both_ways(void) {
  static const uint8_t in[] = {0x82, 0x18, 0x01, 0x9f, 0xf5, 0xff}; /* [1_0, [_ true]] */
  char buf[64];
  size_t len = 0;
  uint8_t out[16];
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  CHECK_STATUS(cbor_diag_from_cbor(in, sizeof in, 0, buf, sizeof buf, &len, &e), CBOR_FAST_OK);
  CHECK_EQ_STR(buf, "[1, [_ true]]");
  CHECK_STATUS(
      cbor_diag_from_cbor(in, sizeof in, CBOR_FAST_DIAG_INDICATORS, buf, sizeof buf, &len, &e),
      CBOR_FAST_OK);
  CHECK_EQ_STR(buf, "[1_0, [_ true]]");
  /* ... which parses back to the same bytes. */
  CHECK_STATUS(cbor_diag_to_cbor(buf, len, 0, out, sizeof out, &len, &e), CBOR_FAST_OK);
  CHECK_EQ_BYTES(out, len, in, sizeof in);
  CHECK_STATUS(cbor_diag_from_cbor(in, sizeof in, CBOR_FAST_DIAG_PRETTY, buf, sizeof buf, &len, &e),
               CBOR_FAST_OK);
  CHECK_EQ_STR(buf, "[\n  1,\n  [_\n    true\n  ]\n]");

  /* Sizing: too small reports the bytes needed, nothing written past capacity. */
  memset(out, 0xee, sizeof out);
  CHECK_STATUS(cbor_diag_to_cbor("h'010203'", 9, 0, out, 3, &len, &e),
               CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_UINT(len, 4);
  CHECK_EQ_UINT(out[0], 0xee);
  /* A sequence needs the flag. */
  CHECK_STATUS(cbor_diag_to_cbor("1 2", 3, 0, out, sizeof out, &len, &e),
               CBOR_FAST_ERR_SYNTAX_ERROR);
  CHECK_EQ_UINT(e.offset, 2);
  CHECK_STATUS(cbor_diag_to_cbor("1 2", 3, CBOR_FAST_DIAG_SEQUENCE, out, sizeof out, &len, &e),
               CBOR_FAST_OK);
  CHECK_EQ_UINT(len, 2);
  CHECK_STATUS(cbor_diag_to_cbor("256_0", 5, 0, out, sizeof out, &len, &e),
               CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_EQ_UINT(e.offset, 0);
  CHECK_STATUS(cbor_diag_to_cbor(NULL, 2, 0, out, sizeof out, &len, &e),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_diag_to_cbor("1", 1, CBOR_FAST_DIAG_PRETTY, out, sizeof out, &len, &e),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(
      cbor_diag_from_cbor(in, sizeof in, CBOR_FAST_DIAG_SEQUENCE, buf, sizeof buf, &len, &e),
      CBOR_FAST_ERR_INVALID_ARGUMENT);
}

static void test_reader_sinks(void) {
  /* A sequence of two items: each call prints one, then END. */
  static const uint8_t in[] = {0x82, 0x01, 0x41, 0xab, 0xa1, 0x01, 0x02};
  cbor_reader* r = NULL;
  collector c;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  memset(&c, 0, sizeof c);
  c.fail_after = -1;
  CHECK_STATUS(cbor_reader_new(in, sizeof in, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_json(r, 0, collect, &c, &e), CBOR_FAST_OK);
  CHECK_EQ_STR(c.text, "[1,\"qw\"]");
  c.size = 0;
  CHECK_STATUS(cbor_reader_diag(r, 0, collect, &c, &e), CBOR_FAST_OK);
  CHECK_EQ_STR(c.text, "{1: 2}");
  CHECK_STATUS(cbor_reader_json(r, 0, collect, &c, &e), CBOR_FAST_END);
  CHECK_STATUS(cbor_reader_diag(r, 0, collect, &c, &e), CBOR_FAST_END);

  /* A sink that fails. */
  CHECK_STATUS(cbor_reader_reset(r, in, sizeof in), CBOR_FAST_OK);
  c.fail_after = 0;
  CHECK_STATUS(cbor_reader_json(r, 0, collect, &c, &e), CBOR_FAST_ERR_SINK_FAILED);
  CHECK_STATUS(e.code, CBOR_FAST_ERR_SINK_FAILED);

  /* The reader's error with its offset; the reader's options apply. */
  {
    static const uint8_t bad[] = {0x82, 0x01, 0xff};
    static const uint8_t dup[] = {0xa2, 0x01, 0x01, 0x01, 0x02};
    c.fail_after = -1;
    CHECK_STATUS(cbor_reader_reset(r, bad, sizeof bad), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_json(r, 0, collect, &c, &e), CBOR_FAST_ERR_UNEXPECTED_BREAK);
    CHECK_EQ_UINT(e.offset, 2);
    CHECK_STATUS(cbor_reader_reset(r, dup, sizeof dup), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_diag(r, 0, collect, &c, &e), CBOR_FAST_ERR_DUPLICATE_KEY);
    CHECK_EQ_UINT(e.offset, 3);
  }
  /* At the END of the enclosing container or indefinite string there is no
   * item to print: INVALID_STATE at the END's offset, nothing consumed, not
   * sticky (it was an internal error that ate the END). */
  {
    static const struct {
      const char* name;
      uint8_t in[6];
      size_t size;
      int items; /* read first */
      size_t offset;
    } rows[] = {
        {"definite array, items read", {0x81, 0x01, 0x07}, 3, 2, 2},
        {"indefinite array at its break", {0x9f, 0x01, 0xff, 0x05}, 4, 2, 2},
        {"indefinite bytes at its break", {0x5f, 0x41, 0x61, 0xff}, 4, 2, 3},
        {"empty map", {0xa0, 0x01}, 2, 1, 1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
      cbor_fast_item it = CBOR_FAST_ITEM_INIT;
      check_current_ = rows[i].name;
      c.fail_after = -1;
      CHECK_STATUS(cbor_reader_reset(r, rows[i].in, rows[i].size), CBOR_FAST_OK);
      CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 0), CBOR_FAST_OK);
      for (int k = 0; k < rows[i].items; ++k) CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
      c.size = 0;
      CHECK_STATUS(cbor_reader_json(r, 0, collect, &c, &e), CBOR_FAST_ERR_INVALID_STATE);
      CHECK_STATUS(e.code, CBOR_FAST_ERR_INVALID_STATE);
      CHECK_EQ_UINT(e.offset, rows[i].offset);
      CHECK_STATUS(cbor_reader_diag(r, 0, collect, &c, &e), CBOR_FAST_ERR_INVALID_STATE);
      CHECK_EQ_UINT(e.offset, rows[i].offset);
      CHECK_EQ_UINT(c.size, 0);
      /* The END is still there. */
      CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
      CHECK_EQ_UINT(it.type, CBOR_FAST_TYPE_END);
    }
    check_current_ = "test_reader_sinks";
  }
  CHECK_STATUS(cbor_reader_json(NULL, 0, collect, &c, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_json(r, 0, NULL, &c, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_diag(r, 0x100, collect, &c, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_reader_free(r);
}

int main(void) {
  RUN_TEST(test_json_to_cbor);
  RUN_TEST(test_json_from_cbor_buffer);
  RUN_TEST(test_diag_both_ways);
  RUN_TEST(test_reader_sinks);
  return check_summary();
}
