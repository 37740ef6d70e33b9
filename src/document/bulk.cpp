// read_array() and read_typed_array() on document nodes (typed_array.hpp).
#include "cbor_fast/typed_array.hpp"
#include "reader/typed_convert.hpp"

namespace cbor_fast {
namespace detail {
namespace {

template <class T>
status node_element(node e, T& out) noexcept {
  switch (e.type()) {
    case item_type::unsigned_int:
    case item_type::negative_int: {
      uint64_t raw = 0;
      bool negative = false;
      if (e.get_int_raw(raw, negative) != status::ok) return status::type_mismatch;
      if (!negative) return convert_int(raw, out);
      return convert_negative(raw, out);
    }
    case item_type::floating:
      if constexpr (std::is_same<T, double>::value) {
        return e.get_double(out);
      } else {
        return status::type_mismatch;
      }
    default: return status::type_mismatch;
  }
}

template <class T>
status node_read(node n, T* out, size_t capacity, size_t* count, error_info* err) noexcept {
  auto report = [err](status s, size_t offset) noexcept {
    if (err != nullptr) *err = error_info{s, offset, 0, 0};
    return s;
  };
  if (count == nullptr || (out == nullptr && capacity != 0))
    return report(status::invalid_argument, 0);
  *count = 0;
  if (n.is_null()) return report(status::invalid_argument, 0);
  uint64_t tag = 0;
  if (n.get_tag(tag) == status::ok && tag == tag_homogeneous &&
      n.tag_content().type() == item_type::array)
    n = n.tag_content();
  if (n.type() == item_type::tag) {
    typed_array a;
    if (read_typed_array(n, a) != status::ok) return report(status::type_mismatch, n.offset());
    *count = a.count();
    size_t bad = 0;
    const status s = typed_convert(a, out, capacity, &bad);
    if (s == status::buffer_too_small) return report(s, n.offset());
    if (s != status::ok) {
      return report(s,
                    s == status::type_mismatch ? n.offset() : a.data_offset + bad * a.element_size);
    }
    return report(status::ok, 0);
  }
  if (n.type() != item_type::array) return report(status::type_mismatch, n.offset());
  const size_t size = n.size();
  *count = size;
  if (size > capacity) return report(status::buffer_too_small, n.offset());
  size_t i = 0;
  for (node e : n.children()) {
    const status s = node_element(e, out[i]);
    if (s != status::ok) return report(s, e.offset());
    ++i;
  }
  return report(status::ok, 0);
}

}  // namespace
}  // namespace detail

inline namespace v1 {
status read_array(node n, uint64_t* out, size_t capacity, size_t* count, error_info* err) noexcept {
  return detail::node_read(n, out, capacity, count, err);
}
status read_array(node n, int64_t* out, size_t capacity, size_t* count, error_info* err) noexcept {
  return detail::node_read(n, out, capacity, count, err);
}
status read_array(node n, double* out, size_t capacity, size_t* count, error_info* err) noexcept {
  return detail::node_read(n, out, capacity, count, err);
}
}  // namespace v1
}  // namespace cbor_fast
