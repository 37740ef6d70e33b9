/* Bulk number arrays and RFC 8746 typed arrays through the C API. */
#include <math.h>
#include <stdlib.h>

#include "check.h"

static void test_reader_uint64_array(void) {
  /* [0, 24, 2^32, 2^64-1], then 1 */
  static const uint8_t in[] = {0x84, 0x00, 0x18, 0x18, 0x1b, 0,    0,    0,    1,    0,    0,   0,
                               0,    0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  cbor_reader* r = NULL;
  uint64_t out[4];
  size_t n = 0;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  CHECK_STATUS(cbor_reader_new(in, sizeof in, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_read_uint64_array(r, out, 3, &n), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_EQ_UINT(n, 4);
  CHECK_STATUS(cbor_reader_read_uint64_array(r, out, 4, &n), CBOR_FAST_OK);
  CHECK_EQ_UINT(n, 4);
  CHECK_EQ_UINT(out[1], 24);
  CHECK_EQ_UINT(out[2], 4294967296u);
  CHECK(out[3] == UINT64_MAX);
  CHECK_STATUS(cbor_reader_read_uint64_array(r, out, 4, &n), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_UINT(it.offset, 22);
  CHECK_STATUS(cbor_reader_read_uint64_array(r, out, 4, &n), CBOR_FAST_END);
  CHECK_STATUS(cbor_reader_read_uint64_array(NULL, out, 4, &n), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_read_uint64_array(r, out, 4, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_reader_free(r);
}

static void test_reader_errors_at_the_element(void) {
  /* [1, -2^63-1] into int64: out of range at offset 2; [1.5] into int64: mismatch at 1. */
  static const uint8_t big[] = {0x82, 0x01, 0x3b, 0x80, 0, 0, 0, 0, 0, 0, 0};
  static const uint8_t flt[] = {0x81, 0xf9, 0x3e, 0x00};
  cbor_reader* r = NULL;
  int64_t out[2];
  double d[2];
  size_t n = 0;
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  CHECK_STATUS(cbor_reader_new(big, sizeof big, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_read_int64_array(r, out, 2, &n), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_STATUS(cbor_reader_error(r, &err), CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_EQ_UINT(err.offset, 2);
  cbor_reader_free(r);
  CHECK_STATUS(cbor_reader_new(flt, sizeof flt, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_read_int64_array(r, out, 2, &n), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_reader_error(r, &err), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_EQ_UINT(err.offset, 1);
  cbor_reader_free(r);
  CHECK_STATUS(cbor_reader_new(flt, sizeof flt, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_read_double_array(r, d, 2, &n), CBOR_FAST_OK);
  CHECK_EQ_UINT(n, 1);
  CHECK(d[0] == 1.5);
  cbor_reader_free(r);
}

static void test_typed_arrays_round_trip(void) {
  const double values[3] = {1.0, -0.5, 1e300};
  cbor_writer* w = NULL;
  const uint8_t* data = NULL;
  size_t size = 0;
  cbor_reader* r = NULL;
  cbor_fast_typed_array a = CBOR_FAST_TYPED_ARRAY_INIT;
  double back[3];
  uint64_t u[3];
  size_t bad = 9, n = 0;
  const int le = cbor_host_is_little_endian();
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_write_typed_array(w, CBOR_FAST_TYPED_FLOAT64, le, values, 3),
               CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_write_typed_array(w, 99, le, values, 3), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_finish(w, &data, &size), CBOR_FAST_OK);
  CHECK_EQ_UINT(size, 2 + 2 + 24);
  CHECK_EQ_UINT(data[0], 0xd8);
  CHECK_EQ_UINT(data[1], le ? 86 : 82);
  CHECK_EQ_UINT(data[2], 0x58);
  CHECK_EQ_UINT(data[3], 24);
  CHECK_STATUS(cbor_reader_new(data, size, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_read_typed_array(r, &a), CBOR_FAST_OK);
  CHECK_EQ_UINT(a.element, CBOR_FAST_TYPED_FLOAT64);
  CHECK_EQ_UINT(a.count, 3);
  CHECK_EQ_UINT(a.element_size, 8);
  CHECK_EQ_UINT(a.data_offset, 4);
  CHECK(a.data == data + 4);
  CHECK_STATUS(cbor_typed_array_copy_double(&a, back, 3, &bad), CBOR_FAST_OK);
  CHECK(back[2] == 1e300);
  CHECK_STATUS(cbor_typed_array_copy_double(&a, back, 2, &bad), CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  CHECK_STATUS(cbor_typed_array_copy_uint64(&a, u, 3, &bad), CBOR_FAST_ERR_TYPE_MISMATCH);
  cbor_reader_free(r);
  /* The same bytes through the bulk call. */
  CHECK_STATUS(cbor_reader_new(data, size, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_read_double_array(r, back, 3, &n), CBOR_FAST_OK);
  CHECK(back[1] == -0.5);
  cbor_reader_free(r);
  cbor_writer_free(w);
  a.struct_size = 4;
  CHECK_STATUS(cbor_reader_read_typed_array(NULL, &a), CBOR_FAST_ERR_INVALID_ARGUMENT);
}

static void test_document_nodes(void) {
  /* {"a": [1, 2.5, -3], "b": 72(h'ff01')} */
  static const uint8_t in[] = {0xa2, 0x61, 0x61, 0x83, 0x01, 0xf9, 0x41, 0x00,
                               0x22, 0x61, 0x62, 0xd8, 0x48, 0x42, 0xff, 0x01};
  cbor_doc* doc = NULL;
  const cbor_node* root;
  double d[3];
  int64_t s[3];
  uint64_t u[3];
  size_t n = 0;
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  cbor_fast_typed_array a = CBOR_FAST_TYPED_ARRAY_INIT;
  CHECK_STATUS(cbor_decode(in, sizeof in, CBOR_FAST_DECODE_EXACT, NULL, &doc, NULL), CBOR_FAST_OK);
  root = cbor_doc_root(doc);
  CHECK_STATUS(cbor_node_read_double_array(cbor_node_map_value(root, 0), d, 3, &n, &err),
               CBOR_FAST_OK);
  CHECK(d[1] == 2.5 && d[2] == -3.0);
  CHECK_STATUS(cbor_node_read_int64_array(cbor_node_map_value(root, 0), s, 3, &n, &err),
               CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_EQ_UINT(err.offset, 5);
  CHECK_STATUS(cbor_node_read_int64_array(cbor_node_map_value(root, 1), s, 3, &n, &err),
               CBOR_FAST_OK);
  CHECK_EQ_UINT(n, 2);
  CHECK(s[0] == -1 && s[1] == 1);
  CHECK_STATUS(cbor_node_read_uint64_array(cbor_node_map_value(root, 1), u, 3, &n, &err),
               CBOR_FAST_ERR_OUT_OF_RANGE);
  CHECK_EQ_UINT(err.offset, 14);
  CHECK_STATUS(cbor_node_read_typed_array(cbor_node_map_value(root, 1), &a), CBOR_FAST_OK);
  CHECK_EQ_UINT(a.element, CBOR_FAST_TYPED_SINT8);
  CHECK_EQ_UINT(a.data_offset, 14);
  CHECK_STATUS(cbor_node_read_typed_array(root, &a), CBOR_FAST_ERR_TYPE_MISMATCH);
  CHECK_STATUS(cbor_node_read_uint64_array(NULL, u, 3, &n, &err), CBOR_FAST_ERR_INVALID_ARGUMENT);
  cbor_doc_free(doc);
}

int main(void) {
  RUN_TEST(test_reader_uint64_array);
  RUN_TEST(test_reader_errors_at_the_element);
  RUN_TEST(test_typed_arrays_round_trip);
  RUN_TEST(test_document_nodes);
  return check_summary();
}
