// C API: cbor_writer_* shims over cbor_fast::writer.
#include <cstdint>
#include <new>
#include <string_view>

#include "cbor_fast.h"
#include "handles.hpp"

using cbor_fast::detail::guard;
using cbor_fast::detail::to_c;

namespace {

/// cbor_writer_new_sink()'s documented default chunk size.
constexpr size_t k_default_chunk = 4096;

/// Creates a handle through the hooks; the writer may already carry an
/// error from its constructor (a sink's staging buffer not allocated).
template <class... Args>
cbor_fast_status make_writer(const cbor_fast_allocator* alloc, cbor_writer** out, Args&&... args) {
  cbor_fast::allocator a;
  if (!cbor_fast::detail::to_allocator(alloc, &a)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    cbor_writer* w = cbor_fast::detail::new_handle<cbor_writer>(a, std::forward<Args>(args)...);
    if (w == nullptr) return CBOR_FAST_ERR_OUT_OF_MEMORY;
    const cbor_fast::status s = w->writer.error();
    if (s != cbor_fast::status::ok) {
      cbor_fast::detail::delete_handle(w);
      return to_c(s);
    }
    *out = w;
    return CBOR_FAST_OK;
  });
}

}  // namespace

// Every item call has the same shape: NULL check, one C++ call, status mapped.
// The C++ writer is noexcept, but the guard keeps the promise that nothing
// throws through C even if that ever changes.
#define CBOR_FAST_WRITER_CALL(writer, expr)                         \
  do {                                                              \
    if ((writer) == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT; \
    return guard([&] { return to_c(expr); });                       \
  } while (0)

cbor_fast_status cbor_writer_new(const cbor_fast_allocator* alloc, cbor_writer** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  return make_writer(alloc, out);
}

cbor_fast_status cbor_writer_new_buffer(void* buffer, size_t capacity,
                                        const cbor_fast_allocator* alloc, cbor_writer** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  if (buffer == nullptr && capacity != 0) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return make_writer(alloc, out, buffer, capacity);
}

cbor_fast_status cbor_writer_new_sink(cbor_fast_sink_fn sink, void* context, size_t chunk_size,
                                      const cbor_fast_allocator* alloc, cbor_writer** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  if (sink == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return make_writer(alloc, out, sink, context, chunk_size != 0 ? chunk_size : k_default_chunk);
}

void cbor_writer_free(cbor_writer* writer) {
  if (writer != nullptr) cbor_fast::detail::delete_handle(writer);
}

cbor_fast_status cbor_writer_reset(cbor_writer* writer) {
  CBOR_FAST_WRITER_CALL(writer, (writer->rebuild(), writer->writer.error()));
}

cbor_fast_status cbor_writer_uint(cbor_writer* writer, uint64_t value) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_uint(value));
}

cbor_fast_status cbor_writer_int(cbor_writer* writer, int64_t value) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_int(value));
}

cbor_fast_status cbor_writer_negative(cbor_writer* writer, uint64_t n) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_negative(n));
}

cbor_fast_status cbor_writer_bignum(cbor_writer* writer, const uint8_t* magnitude, size_t size,
                                    int negative) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_bignum(magnitude, size, negative != 0));
}

cbor_fast_status cbor_writer_bytes(cbor_writer* writer, const void* data, size_t size) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_bytes(data, size));
}

cbor_fast_status cbor_writer_text(cbor_writer* writer, const char* data, size_t size) {
  // string_view(nullptr, n > 0) would be undefined: the NULL check is the writer's.
  if (writer != nullptr && data == nullptr && size != 0) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_text(std::string_view(data, size)));
}

cbor_fast_status cbor_writer_tag(cbor_writer* writer, uint64_t tag) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_tag(tag));
}

cbor_fast_status cbor_writer_bool(cbor_writer* writer, int value) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_bool(value != 0));
}

cbor_fast_status cbor_writer_null(cbor_writer* writer) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_null());
}

cbor_fast_status cbor_writer_undefined(cbor_writer* writer) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_undefined());
}

cbor_fast_status cbor_writer_simple(cbor_writer* writer, uint8_t value) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_simple(value));
}

cbor_fast_status cbor_writer_float(cbor_writer* writer, double value, cbor_fast_float_width width) {
  // Only the four enumerators: anything else must not reach the C++ enum.
  if (!cbor_fast::detail::float_width_ok(width)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  CBOR_FAST_WRITER_CALL(
      writer, writer->writer.write_float(value, static_cast<cbor_fast::float_width>(width)));
}

cbor_fast_status cbor_writer_float16(cbor_writer* writer, uint16_t bits) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_float16(bits));
}

cbor_fast_status cbor_writer_float32(cbor_writer* writer, float value) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_float32(value));
}

cbor_fast_status cbor_writer_array(cbor_writer* writer, uint64_t count) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.begin_array(count));
}

cbor_fast_status cbor_writer_array_indefinite(cbor_writer* writer) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.begin_array_indefinite());
}

cbor_fast_status cbor_writer_map(cbor_writer* writer, uint64_t pairs) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.begin_map(pairs));
}

cbor_fast_status cbor_writer_map_indefinite(cbor_writer* writer) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.begin_map_indefinite());
}

cbor_fast_status cbor_writer_bytes_indefinite(cbor_writer* writer) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.begin_bytes_indefinite());
}

cbor_fast_status cbor_writer_text_indefinite(cbor_writer* writer) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.begin_text_indefinite());
}

cbor_fast_status cbor_writer_end(cbor_writer* writer) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.end());
}

cbor_fast_status cbor_writer_encoded(cbor_writer* writer, const void* data, size_t size) {
  CBOR_FAST_WRITER_CALL(writer, writer->writer.write_encoded(data, size));
}

cbor_fast_status cbor_writer_finish(cbor_writer* writer, const uint8_t** data, size_t* size) {
  if (data != nullptr) *data = nullptr;
  if (size != nullptr) *size = 0;
  if (writer == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    const cbor_fast::status s = writer->writer.finish();
    // On any failure *size still tells the bytes produced (or needed).
    if (size != nullptr) *size = writer->writer.size();
    if (s == cbor_fast::status::ok && data != nullptr && writer->mode != cbor_writer::kind::sink)
      *data = writer->writer.data();
    return to_c(s);
  });
}

size_t cbor_writer_size(const cbor_writer* writer) {
  return writer != nullptr ? writer->writer.size() : 0;
}
