/*
 * libcbor and libcbor_fast in one program: both headers in one translation
 * unit (no clashing macro, type or function name), both libraries linked.
 * Each decodes what the other encoded and the values are checked.
 */
#include <cbor.h>
#include <cbor_fast.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(cond)                                                              \
  do {                                                                            \
    if (!(cond)) {                                                                \
      fprintf(stderr, "libcbor_coexist: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

/* Reads one item and checks its type and value. */
#define NEXT(r, it, t, v)                                 \
  do {                                                    \
    EXPECT(cbor_reader_next((r), &(it)) == CBOR_FAST_OK); \
    EXPECT((it).type == (t));                             \
    EXPECT((it).value == (uint64_t)(v));                  \
  } while (0)

/* libcbor encodes {"name": "cbor", "n": -1000, "list": [5, 2.5, true, null],
 * "raw": h'0102'} (its ints keep the width they were built with: 5 as a
 * uint32 takes five bytes); libcbor_fast reads it. */
static int libcbor_to_cbor_fast(void) {
  cbor_item_t* map = cbor_new_definite_map(4);
  cbor_item_t* list = cbor_new_definite_array(4);
  static const uint8_t raw[] = {1, 2};
  unsigned char* buffer = NULL;
  size_t buffer_size = 0, size;
  cbor_reader* r = NULL;
  cbor_doc* doc = NULL;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  const cbor_node* node;
  int64_t n = 0;
  const char* text = NULL;
  size_t text_size = 0;
  int ok = 1;

  ok &= cbor_array_push(list, cbor_move(cbor_build_uint32(5)));
  ok &= cbor_array_push(list, cbor_move(cbor_build_float4(2.5f)));
  ok &= cbor_array_push(list, cbor_move(cbor_build_bool(true)));
  ok &= cbor_array_push(list, cbor_move(cbor_new_null()));
  ok &= cbor_map_add(map, (struct cbor_pair){.key = cbor_move(cbor_build_string("name")),
                                             .value = cbor_move(cbor_build_string("cbor"))});
  ok &= cbor_map_add(map, (struct cbor_pair){.key = cbor_move(cbor_build_string("n")),
                                             .value = cbor_move(cbor_build_negint16(999))});
  ok &= cbor_map_add(map, (struct cbor_pair){.key = cbor_move(cbor_build_string("list")),
                                             .value = cbor_move(list)});
  ok &= cbor_map_add(map, (struct cbor_pair){.key = cbor_move(cbor_build_string("raw")),
                                             .value = cbor_move(cbor_build_bytestring(raw, 2))});
  EXPECT(ok);
  size = cbor_serialize_alloc(map, &buffer, &buffer_size);
  cbor_decref(&map);
  EXPECT(size > 0 && buffer != NULL);

  EXPECT(cbor_reader_new(buffer, size, NULL, &r) == CBOR_FAST_OK);
  EXPECT(cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8, 1) == CBOR_FAST_OK);
  NEXT(r, it, CBOR_FAST_TYPE_MAP, 4);
  NEXT(r, it, CBOR_FAST_TYPE_TEXT, 4);
  EXPECT(memcmp(it.data, "name", 4) == 0);
  NEXT(r, it, CBOR_FAST_TYPE_TEXT, 4);
  EXPECT(memcmp(it.data, "cbor", 4) == 0);
  NEXT(r, it, CBOR_FAST_TYPE_TEXT, 1);
  NEXT(r, it, CBOR_FAST_TYPE_NEGATIVE, 999); /* -1000 */
  EXPECT(it.head_size == 3);
  NEXT(r, it, CBOR_FAST_TYPE_TEXT, 4);
  NEXT(r, it, CBOR_FAST_TYPE_ARRAY, 4);
  NEXT(r, it, CBOR_FAST_TYPE_UINT, 5);
  EXPECT(it.head_size == 5); /* not shortest, still fine */
  NEXT(r, it, CBOR_FAST_TYPE_FLOAT, 0x40200000);
  EXPECT(it.float_width == 4 && it.float_value == 2.5);
  NEXT(r, it, CBOR_FAST_TYPE_BOOL, 21);
  NEXT(r, it, CBOR_FAST_TYPE_NULL, 22);
  NEXT(r, it, CBOR_FAST_TYPE_END, 0);
  NEXT(r, it, CBOR_FAST_TYPE_TEXT, 3);
  NEXT(r, it, CBOR_FAST_TYPE_BYTES, 2);
  EXPECT(it.data[0] == 1 && it.data[1] == 2);
  NEXT(r, it, CBOR_FAST_TYPE_END, 0);
  EXPECT(cbor_reader_next(r, &it) == CBOR_FAST_END);
  EXPECT(cbor_reader_finish(r) == CBOR_FAST_OK);
  cbor_reader_free(r);

  EXPECT(cbor_decode(buffer, size, CBOR_FAST_DECODE_EXACT, NULL, &doc, NULL) == CBOR_FAST_OK);
  node = cbor_node_map_find(cbor_doc_root(doc), "n", 1);
  EXPECT(cbor_node_get_int64(node, &n) == CBOR_FAST_OK && n == -1000);
  node = cbor_node_map_find(cbor_doc_root(doc), "name", 4);
  EXPECT(cbor_node_get_text(node, &text, &text_size) == CBOR_FAST_OK);
  EXPECT(text_size == 4 && memcmp(text, "cbor", 4) == 0);
  cbor_doc_free(doc);
  free(buffer);
  return 0;
}

/* libcbor_fast encodes [42, -7, "h\xc3\xa9llo", {"k": h'ff00'}, 1(1363896240), 3.25, false];
 * libcbor reads it. */
static int cbor_fast_to_libcbor(void) {
  cbor_writer* w = NULL;
  const uint8_t* out = NULL;
  size_t size = 0;
  struct cbor_load_result result;
  cbor_item_t* root;
  cbor_item_t* item;
  cbor_item_t* content;
  struct cbor_pair* pairs;

  EXPECT(cbor_writer_new(NULL, &w) == CBOR_FAST_OK);
  EXPECT(cbor_writer_array(w, 7) == CBOR_FAST_OK);
  EXPECT(cbor_writer_uint(w, 42) == CBOR_FAST_OK);
  EXPECT(cbor_writer_int(w, -7) == CBOR_FAST_OK);
  EXPECT(cbor_writer_text(w, "h\xc3\xa9llo", 6) == CBOR_FAST_OK);
  EXPECT(cbor_writer_map(w, 1) == CBOR_FAST_OK);
  EXPECT(cbor_writer_text(w, "k", 1) == CBOR_FAST_OK);
  EXPECT(cbor_writer_bytes(w, "\xff\x00", 2) == CBOR_FAST_OK);
  EXPECT(cbor_writer_end(w) == CBOR_FAST_OK);
  EXPECT(cbor_writer_tag(w, 1) == CBOR_FAST_OK);
  EXPECT(cbor_writer_uint(w, 1363896240) == CBOR_FAST_OK);
  EXPECT(cbor_writer_float(w, 3.25, CBOR_FAST_FLOAT_SHORTEST) == CBOR_FAST_OK);
  EXPECT(cbor_writer_bool(w, 0) == CBOR_FAST_OK);
  EXPECT(cbor_writer_end(w) == CBOR_FAST_OK);
  EXPECT(cbor_writer_finish(w, &out, &size) == CBOR_FAST_OK);

  root = cbor_load(out, size, &result);
  EXPECT(root != NULL && result.error.code == CBOR_ERR_NONE && result.read == size);
  EXPECT(cbor_isa_array(root) && cbor_array_size(root) == 7);

  item = cbor_array_get(root, 0); /* cbor_array_get hands out a reference */
  EXPECT(cbor_isa_uint(item) && cbor_get_int(item) == 42 && cbor_int_get_width(item) == CBOR_INT_8);
  cbor_decref(&item);
  item = cbor_array_get(root, 1);
  EXPECT(cbor_isa_negint(item) && cbor_get_int(item) == 6);
  cbor_decref(&item);
  item = cbor_array_get(root, 2);
  EXPECT(cbor_isa_string(item) && cbor_string_length(item) == 6);
  EXPECT(memcmp(cbor_string_handle(item), "h\xc3\xa9llo", 6) == 0);
  cbor_decref(&item);
  item = cbor_array_get(root, 3);
  EXPECT(cbor_isa_map(item) && cbor_map_size(item) == 1);
  pairs = cbor_map_handle(item);
  EXPECT(cbor_isa_string(pairs[0].key) && memcmp(cbor_string_handle(pairs[0].key), "k", 1) == 0);
  EXPECT(cbor_isa_bytestring(pairs[0].value) && cbor_bytestring_length(pairs[0].value) == 2);
  EXPECT(memcmp(cbor_bytestring_handle(pairs[0].value), "\xff\x00", 2) == 0);
  cbor_decref(&item);
  item = cbor_array_get(root, 4);
  EXPECT(cbor_isa_tag(item) && cbor_tag_value(item) == 1);
  content = cbor_tag_item(item);
  EXPECT(cbor_isa_uint(content) && cbor_get_int(content) == 1363896240);
  cbor_decref(&content);
  cbor_decref(&item);
  item = cbor_array_get(root, 5);
  EXPECT(cbor_isa_float_ctrl(item) && cbor_float_get_width(item) == CBOR_FLOAT_16);
  EXPECT(cbor_float_get_float(item) == 3.25);
  cbor_decref(&item);
  item = cbor_array_get(root, 6);
  EXPECT(cbor_is_bool(item) && !cbor_get_bool(item));
  cbor_decref(&item);
  cbor_decref(&root);
  cbor_writer_free(w);
  return 0;
}

int main(void) {
  if (libcbor_to_cbor_fast() != 0) return 1;
  if (cbor_fast_to_libcbor() != 0) return 1;
  printf("libcbor_coexist: libcbor and libcbor_fast %s agree\n", cbor_fast_version_string());
  return 0;
}
