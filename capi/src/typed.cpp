// C shims for bulk number arrays and RFC 8746 typed arrays (cbor_fast.h,
// "Bulk number arrays"): argument checks and conversions only.
#include <cstddef>
#include <cstdint>
#include <new>

#include "cbor_fast.h"
#include "cbor_fast/document.hpp"
#include "cbor_fast/typed_array.hpp"
#include "handles.hpp"

using cbor_fast::status;
using cbor_fast::typed_array;
using cbor_fast::typed_element;
using cbor_fast::detail::fill_error;
using cbor_fast::detail::to_c;

static_assert(CBOR_FAST_TYPED_UINT8 == unsigned(typed_element::uint8) &&
                  CBOR_FAST_TYPED_UINT8_CLAMPED == unsigned(typed_element::uint8_clamped) &&
                  CBOR_FAST_TYPED_UINT64 == unsigned(typed_element::uint64) &&
                  CBOR_FAST_TYPED_SINT8 == unsigned(typed_element::sint8) &&
                  CBOR_FAST_TYPED_SINT64 == unsigned(typed_element::sint64) &&
                  CBOR_FAST_TYPED_FLOAT16 == unsigned(typed_element::float16) &&
                  CBOR_FAST_TYPED_FLOAT128 == unsigned(typed_element::float128),
              "CBOR_FAST_TYPED_* must equal cbor_fast::typed_element");

namespace {

// A cbor_node* is a reinterpret_cast of the document's node pointer (document.cpp).
cbor_fast::node to_node(const cbor_node* n) noexcept {
  return cbor_fast::node(reinterpret_cast<const cbor_fast::detail::doc_node*>(n));
}

template <class T>
cbor_fast_status reader_array(cbor_reader* r, T* out, size_t capacity, size_t* count) noexcept {
  if (r == nullptr || count == nullptr || (out == nullptr && capacity != 0))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  try {
    return to_c(r->reader.read_array(out, capacity, count));
  } catch (...) {
    return CBOR_FAST_ERR_INTERNAL;
  }
}

template <class T>
cbor_fast_status node_array(const cbor_node* n, T* out, size_t capacity, size_t* count,
                            cbor_fast_error* error) noexcept {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (n == nullptr || count == nullptr || (out == nullptr && capacity != 0)) {
    fill_error(error, status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  cbor_fast::error_info info;
  const status s = cbor_fast::read_array(to_node(n), out, capacity, count, &info);
  if (s != status::ok) fill_error(error, info);
  return to_c(s);
}

constexpr size_t k_typed_size = sizeof(cbor_fast_typed_array);

bool valid_out(const cbor_fast_typed_array* a) noexcept {
  // At least this layout (0 is not one: the struct is new in 0.4), at most
  // 64 bytes more, as the header's rule for every struct.
  return a != nullptr && a->struct_size >= k_typed_size &&
         a->struct_size <= k_typed_size + cbor_fast::detail::k_struct_margin;
}

void to_c_array(const typed_array& in, cbor_fast_typed_array* out) noexcept {
  out->element = uint32_t(in.element);
  out->tag = in.tag;
  out->element_size = in.element_size;
  out->little_endian = in.little_endian ? 1u : 0u;
  out->data = in.bytes.data;
  out->count = in.count();
  out->offset = in.offset;
  out->data_offset = in.data_offset;
}

/// The C++ view of a C typed array; false for a struct that cannot be one (a
/// longer struct's bytes past this layout not all 0, as for every input struct).
bool from_c_array(const cbor_fast_typed_array* in, typed_array& out) noexcept {
  if (!valid_out(in) || !cbor_fast::detail::input_tail_zero(in, k_typed_size, in->struct_size))
    return false;
  if (!cbor_fast::typed_array_from_tag(in->tag, out)) return false;
  if (uint32_t(out.element) != in->element || out.element_size != in->element_size) return false;
  if (in->count != 0 && in->data == nullptr) return false;
  if (in->count > SIZE_MAX / out.element_size) return false;
  out.bytes = cbor_fast::byte_view{in->data, in->count * out.element_size};
  out.offset = in->offset;
  out.data_offset = in->data_offset;
  return true;
}

template <class T>
cbor_fast_status copy_array(const cbor_fast_typed_array* a, T* out, size_t capacity,
                            size_t* bad_index) noexcept {
  typed_array t;
  if (!from_c_array(a, t) || (out == nullptr && capacity != 0))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(t.copy_to(out, capacity, bad_index));
}

}  // namespace

extern "C" {

cbor_fast_status cbor_reader_read_uint64_array(cbor_reader* reader, uint64_t* out, size_t capacity,
                                               size_t* count) {
  return reader_array(reader, out, capacity, count);
}
cbor_fast_status cbor_reader_read_int64_array(cbor_reader* reader, int64_t* out, size_t capacity,
                                              size_t* count) {
  return reader_array(reader, out, capacity, count);
}
cbor_fast_status cbor_reader_read_double_array(cbor_reader* reader, double* out, size_t capacity,
                                               size_t* count) {
  return reader_array(reader, out, capacity, count);
}

cbor_fast_status cbor_node_read_uint64_array(const cbor_node* node, uint64_t* out, size_t capacity,
                                             size_t* count, cbor_fast_error* error) {
  return node_array(node, out, capacity, count, error);
}
cbor_fast_status cbor_node_read_int64_array(const cbor_node* node, int64_t* out, size_t capacity,
                                            size_t* count, cbor_fast_error* error) {
  return node_array(node, out, capacity, count, error);
}
cbor_fast_status cbor_node_read_double_array(const cbor_node* node, double* out, size_t capacity,
                                             size_t* count, cbor_fast_error* error) {
  return node_array(node, out, capacity, count, error);
}

cbor_fast_status cbor_reader_read_typed_array(cbor_reader* reader, cbor_fast_typed_array* out) {
  if (reader == nullptr || !valid_out(out)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  typed_array a;
  const status s = cbor_fast::read_typed_array(reader->reader, a);
  if (s == status::ok) to_c_array(a, out);
  return to_c(s);
}

cbor_fast_status cbor_node_read_typed_array(const cbor_node* node, cbor_fast_typed_array* out) {
  if (node == nullptr || !valid_out(out)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  typed_array a;
  const status s = cbor_fast::read_typed_array(to_node(node), a);
  if (s == status::ok) to_c_array(a, out);
  return to_c(s);
}

cbor_fast_status cbor_typed_array_copy_uint64(const cbor_fast_typed_array* array, uint64_t* out,
                                              size_t capacity, size_t* bad_index) {
  return copy_array(array, out, capacity, bad_index);
}
cbor_fast_status cbor_typed_array_copy_int64(const cbor_fast_typed_array* array, int64_t* out,
                                             size_t capacity, size_t* bad_index) {
  return copy_array(array, out, capacity, bad_index);
}
cbor_fast_status cbor_typed_array_copy_double(const cbor_fast_typed_array* array, double* out,
                                              size_t capacity, size_t* bad_index) {
  return copy_array(array, out, capacity, bad_index);
}

cbor_fast_status cbor_writer_write_typed_array(cbor_writer* writer, uint32_t element,
                                               int little_endian, const void* data, size_t count) {
  if (writer == nullptr || element < 1 || element > 13) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return to_c(cbor_fast::write_typed_array(writer->writer, typed_element(element),
                                           little_endian != 0, data, count));
}

int cbor_host_is_little_endian(void) { return cbor_fast::detail::host_little_endian() ? 1 : 0; }

}  // extern "C"
