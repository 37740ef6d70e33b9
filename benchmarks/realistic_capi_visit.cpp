// Scenario: the walk row cbor_fast_capi_visit, cbor_reader_visit() with one C
// callback per item kind folding the realistic consumer's numbers
// (realistic.hpp), as libcbor's callbacks do in peers_libcbor.cpp. A
// translation unit of its own, compiled with the project's ordinary flags:
// the callbacks are plain functions reached through pointers, as a C
// caller's would be, and nothing asks for inlining.
#include <cstddef>
#include <cstdint>

#include "cbor_fast.h"
#include "realistic.hpp"

namespace cbor_fast_bench {

namespace {
realistic_hash& hash(void* context) { return *static_cast<realistic_hash*>(context); }

int on_uint(void* c, uint64_t v) {
  hash(c).mix(1, v);
  return 0;
}
int on_negative(void* c, uint64_t n) {
  hash(c).mix(2, n);
  return 0;
}
// An indefinite string's start comes with (NULL, 0), as the consumer wants it.
int on_bytes(void* c, const uint8_t* p, size_t n, uint32_t) {
  hash(c).string(3, p, n);
  return 0;
}
int on_text(void* c, const uint8_t* p, size_t n, uint32_t) {
  hash(c).string(4, p, n);
  return 0;
}
int on_array(void* c, uint64_t n, uint32_t) {
  hash(c).mix(5, n);
  return 0;
}
int on_map(void* c, uint64_t n, uint32_t) {
  hash(c).mix(6, n);
  return 0;
}
int on_end(void*, uint32_t) { return 0; }
int on_tag(void* c, uint64_t t) {
  hash(c).mix(7, t);
  return 0;
}
int on_simple(void* c, uint32_t v) {
  hash(c).mix(8, v);
  return 0;
}
int on_bool(void* c, int b) {
  hash(c).mix(9, b ? 1 : 0);
  return 0;
}
int on_null(void* c) {
  hash(c).mix(10, 0);
  return 0;
}
int on_undefined(void* c) {
  hash(c).mix(11, 0);
  return 0;
}
int on_float(void* c, double d, uint64_t, uint32_t) {
  hash(c).floating(d);
  return 0;
}

cbor_fast_visit_callbacks make_callbacks() {
  cbor_fast_visit_callbacks cb = CBOR_FAST_VISIT_CALLBACKS_INIT;
  cb.on_uint = on_uint;
  cb.on_negative = on_negative;
  cb.on_bytes = on_bytes;
  cb.on_text = on_text;
  cb.on_array = on_array;
  cb.on_map = on_map;
  cb.on_end = on_end;
  cb.on_tag = on_tag;
  cb.on_simple = on_simple;
  cb.on_bool = on_bool;
  cb.on_null = on_null;
  cb.on_undefined = on_undefined;
  cb.on_float = on_float;
  return cb;
}

const cbor_fast_visit_callbacks realistic_callbacks = make_callbacks();
}  // namespace

realistic_hash realistic_capi_visit(const uint8_t* data, size_t size, bool* ok) noexcept {
  realistic_hash h;
  *ok = false;
  cbor_reader* r = nullptr;
  if (cbor_reader_new(data, size, nullptr, &r) != CBOR_FAST_OK) return h;
  const cbor_fast_status s = cbor_reader_visit(r, &realistic_callbacks, &h);
  cbor_reader_free(r);
  *ok = s == CBOR_FAST_END;
  return h;
}

}  // namespace cbor_fast_bench
