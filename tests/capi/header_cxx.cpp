// cbor_fast.h as C++17 under -pedantic -Wall -Wextra -Werror -Wold-style-cast,
// included first. Calling the library from here proves the extern "C" block:
// without it these calls would look for mangled names and fail to link.
#include "cbor_fast.h"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <type_traits>

extern "C" size_t cbor_fast_header_c_sizes(size_t* out, size_t n);
extern "C" int cbor_fast_header_c_check(void);

static_assert(std::is_standard_layout<cbor_fast_item>::value, "plain C struct");
static_assert(std::is_trivially_copyable<cbor_fast_error>::value, "plain C struct");
static_assert(CBOR_FAST_ERR_INTERNAL == 399 && CBOR_FAST_TYPE_END == 13, "frozen values");

namespace {
int passed = 0;
int failures = 0;

void check(bool ok, const char* what) {
  if (ok) {
    ++passed;
  } else {
    std::fprintf(stderr, "header_cxx: FAILED: %s\n", what);
    ++failures;
  }
}
}  // namespace

int main() {
  // The C and C++ compilers agree on every public layout.
  const size_t cxx[] = {sizeof(cbor_fast_item),
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
  size_t c[sizeof cxx / sizeof cxx[0]] = {};
  check(cbor_fast_header_c_sizes(c, sizeof c / sizeof c[0]) == sizeof c / sizeof c[0],
        "same number of layout facts");
  for (size_t i = 0; i < sizeof c / sizeof c[0]; ++i) {
    if (c[i] != cxx[i]) std::fprintf(stderr, "layout fact %zu: C %zu, C++ %zu\n", i, c[i], cxx[i]);
    check(c[i] == cxx[i], "C and C++ layouts agree");
  }

  cbor_fast_item item = CBOR_FAST_ITEM_INIT;
  cbor_fast_error error = CBOR_FAST_ERROR_INIT;
  cbor_fast_decode_options options = CBOR_FAST_DECODE_OPTIONS_INIT;
  check(item.struct_size == sizeof item && error.struct_size == sizeof error &&
            options.struct_size == sizeof options,
        "INIT macros set struct_size");

  check(std::strcmp(cbor_status_name(CBOR_FAST_ERR_TRUNCATED), "truncated") == 0,
        "cbor_status_name from C++");
  check(cbor_fast_version() == CBOR_FAST_VERSION, "cbor_fast_version from C++");

  cbor_writer* w = nullptr;
  const uint8_t* out = nullptr;
  size_t size = 0;
  check(cbor_writer_new(nullptr, &w) == CBOR_FAST_OK, "cbor_writer_new");
  check(cbor_writer_int(w, -2) == CBOR_FAST_OK, "cbor_writer_int");
  check(cbor_writer_finish(w, &out, &size) == CBOR_FAST_OK && size == 1 && out[0] == 0x21,
        "writer output from C++");
  cbor_writer_free(w);

  const int c_failures = cbor_fast_header_c_check();
  check(c_failures == 0, "the C half of the header test");
  std::printf("%d passed, %d failed\n", passed, failures);
  return failures == 0 ? 0 : 1;
}
