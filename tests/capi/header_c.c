/*
 * cbor_fast.h as C99 under -pedantic -Wall -Wextra -Werror -Wstrict-prototypes:
 * included first (it must stand alone) and twice (include guard). The sizes
 * it sees are compared with the C++ view in header_cxx.cpp.
 */
#include "cbor_fast.h"
#include "cbor_fast.h"

#include <stddef.h>
#include <string.h>

size_t cbor_fast_header_c_sizes(size_t* out, size_t n);
int cbor_fast_header_c_check(void);

/* sizeof and two offsets of each public struct, as a C compiler lays them out. */
size_t cbor_fast_header_c_sizes(size_t* out, size_t n) {
  const size_t sizes[] = {sizeof(cbor_fast_item),
                          offsetof(cbor_fast_item, value),
                          offsetof(cbor_fast_item, size),
                          sizeof(cbor_fast_error),
                          offsetof(cbor_fast_error, message),
                          sizeof(cbor_fast_allocator),
                          offsetof(cbor_fast_allocator, context),
                          sizeof(cbor_fast_decode_options),
                          offsetof(cbor_fast_decode_options, alloc),
                          sizeof(cbor_fast_status),
                          sizeof(cbor_fast_type)};
  size_t i;
  for (i = 0; i < n && i < sizeof sizes / sizeof sizes[0]; ++i) out[i] = sizes[i];
  return sizeof sizes / sizeof sizes[0];
}

/* The *_INIT macros and a few calls, from C. Returns the number of failures. */
int cbor_fast_header_c_check(void) {
  static const uint8_t input[] = {0x82, 0x01, 0x20};
  cbor_fast_item item = CBOR_FAST_ITEM_INIT;
  cbor_fast_error error = CBOR_FAST_ERROR_INIT;
  cbor_fast_decode_options options = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_reader* reader = NULL;
  cbor_fast_status s;
  int failures = 0;
  int items = 0;

  failures += item.struct_size != sizeof item;
  failures += item.type != CBOR_FAST_TYPE_NONE;
  failures += error.struct_size != sizeof error;
  failures += error.message != NULL;
  failures += options.struct_size != sizeof options;
  failures += options.max_depth != 0 || options.alloc != NULL;
  failures += cbor_fast_version() != CBOR_FAST_VERSION;
  failures += strcmp(cbor_fast_version_string(), CBOR_FAST_VERSION_STRING) != 0;

  if (cbor_reader_new(input, sizeof input, NULL, &reader) != CBOR_FAST_OK) return failures + 1;
  while ((s = cbor_reader_next(reader, &item)) == CBOR_FAST_OK) ++items;
  failures += s != CBOR_FAST_END;
  failures += items != 4; /* array, 1, -1, end */
  failures += cbor_reader_error(reader, &error) != CBOR_FAST_OK;
  cbor_reader_free(reader);
  return failures;
}
