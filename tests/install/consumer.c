/*
 * A C program built against an installed libcbor_fast, the way users build:
 * through pkg-config (shared and static) or find_package(cbor_fast). It
 * encodes a small document, reads it back with the reader and as a decoded
 * document, converts a JSON text (simdjson inside the library), and checks the
 * runtime version against the headers it was built with.
 */
#include <stdio.h>
#include <string.h>

#include <cbor_fast.h>

#define EXPECT(cond)                                                       \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "consumer: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main(void) {
  static const uint8_t expected[] = {0xa2, 0x61, 'n',  0x39, 0x01, 0xf3,
                                     0x61, 't',  0x82, 0xf5, 0xf6};
  cbor_writer* w = NULL;
  cbor_reader* r = NULL;
  cbor_doc* doc = NULL;
  cbor_fast_item item = CBOR_FAST_ITEM_INIT;
  cbor_fast_error error = CBOR_FAST_ERROR_INIT;
  const uint8_t* out = NULL;
  size_t size = 0;
  int64_t n = 0;
  int items = 0;

  EXPECT(cbor_fast_version() == CBOR_FAST_VERSION);
  EXPECT(strcmp(cbor_fast_version_string(), CBOR_FAST_VERSION_STRING) == 0);

  /* {"n": -500, "t": [true, null]} */
  EXPECT(cbor_writer_new(NULL, &w) == CBOR_FAST_OK);
  EXPECT(cbor_writer_map(w, 2) == CBOR_FAST_OK);
  EXPECT(cbor_writer_text(w, "n", 1) == CBOR_FAST_OK);
  EXPECT(cbor_writer_int(w, -500) == CBOR_FAST_OK);
  EXPECT(cbor_writer_text(w, "t", 1) == CBOR_FAST_OK);
  EXPECT(cbor_writer_array(w, 2) == CBOR_FAST_OK);
  EXPECT(cbor_writer_bool(w, 1) == CBOR_FAST_OK);
  EXPECT(cbor_writer_null(w) == CBOR_FAST_OK);
  EXPECT(cbor_writer_end(w) == CBOR_FAST_OK);
  EXPECT(cbor_writer_end(w) == CBOR_FAST_OK);
  EXPECT(cbor_writer_finish(w, &out, &size) == CBOR_FAST_OK);
  EXPECT(size == sizeof expected && memcmp(out, expected, size) == 0);

  EXPECT(cbor_reader_new(out, size, NULL, &r) == CBOR_FAST_OK);
  while (cbor_reader_next(r, &item) == CBOR_FAST_OK) ++items;
  EXPECT(items == 9); /* map "n" -500 "t" array true null end end */
  EXPECT(cbor_reader_finish(r) == CBOR_FAST_OK);
  cbor_reader_free(r);

  EXPECT(cbor_decode(out, size, CBOR_FAST_DECODE_EXACT, NULL, &doc, &error) == CBOR_FAST_OK);
  EXPECT(cbor_node_get_int64(cbor_node_map_find(cbor_doc_root(doc), "n", 1), &n) == CBOR_FAST_OK);
  EXPECT(n == -500);
  EXPECT(cbor_node_size(cbor_node_map_find(cbor_doc_root(doc), "t", 1)) == 2);
  cbor_doc_free(doc);
  cbor_writer_free(w);

  EXPECT(cbor_decode(expected, 3, CBOR_FAST_DECODE_NONE, NULL, &doc, &error) ==
         CBOR_FAST_ERR_TRUNCATED);
  EXPECT(error.code == CBOR_FAST_ERR_TRUNCATED && error.message != NULL);

  /* JSON input goes through simdjson: a static link must bring it along. */
  {
    static const uint8_t from_json[] = {0xa1, 0x61, 'a', 0x82, 0x01, 0xf9, 0x3e, 0x00};
    EXPECT(cbor_writer_new(NULL, &w) == CBOR_FAST_OK);
    EXPECT(cbor_json_to_cbor("{\"a\": [1, 1.5]}", 15, 0, w, &error) == CBOR_FAST_OK);
    EXPECT(cbor_writer_finish(w, &out, &size) == CBOR_FAST_OK);
    EXPECT(size == sizeof from_json && memcmp(out, from_json, size) == 0);
    cbor_writer_free(w);
  }

  printf("consumer: libcbor_fast %s ok\n", cbor_fast_version_string());
  return 0;
}
