// libcbor_fast: RFC 8746 typed arrays (tags 64..87), multi-dimensional
// arrays (tag 40) and homogeneous arrays (tag 41).
//
// A typed array is a tag 64..87 over a definite byte string holding the
// elements back to back. The reader hands out a typed_array: the tag decoded
// into element type, size and byte order, and the bytes as a view into the
// input. view<T>() is zero-copy when T is the element type, the byte order is
// the host's and the bytes are aligned for T; copy_to() converts any typed
// array into uint64_t, int64_t or double elements (range-checked). The writer
// side writes tag + byte string straight from a T[] in host byte order.
#ifndef CBOR_FAST_TYPED_ARRAY_HPP
#define CBOR_FAST_TYPED_ARRAY_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cbor_fast/document.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/writer.hpp"

namespace cbor_fast {
inline namespace v1 {

/// Element type of an RFC 8746 typed array. Same values as CBOR_FAST_TYPED_*.
enum class typed_element : uint8_t {
  uint8 = 1,
  uint8_clamped = 2,  ///< tag 68: uint8 whose producer clamped (not wrapped) values
  uint16 = 3,
  uint32 = 4,
  uint64 = 5,
  sint8 = 6,
  sint16 = 7,
  sint32 = 8,
  sint64 = 9,
  float16 = 10,
  float32 = 11,
  float64 = 12,
  float128 = 13,
};

/// RFC 8746 tag numbers of the other array tags.
constexpr uint64_t tag_multi_dim = 40;    ///< [dimensions, elements], row-major
constexpr uint64_t tag_homogeneous = 41;  ///< an array whose elements share one type

/// A typed array read from the input (or a document): a view, valid as long as the input.
struct typed_array {
  uint64_t tag = 0;  ///< 64..87
  typed_element element = typed_element::uint8;
  uint8_t element_size = 1;    ///< bytes per element: 1, 2, 4, 8 or 16
  bool little_endian = false;  ///< byte order of the elements (single bytes: false)
  byte_view bytes;             ///< the byte string's content
  size_t offset = 0;           ///< offset of the tag head
  size_t data_offset = 0;      ///< offset of bytes.data in the input

  /// Elements in the array.
  size_t count() const noexcept { return bytes.size / element_size; }
  /// The elements in place, when T is exactly the element type (uint8_t,
  /// int16_t, float, double, ...; uint16_t for float16), their byte order is
  /// the host's and bytes.data is aligned for T. nullptr otherwise: use copy_to().
  template <class T>
  const T* view() const noexcept;
  /// Converts every element into out[0, capacity). Integers must fit T
  /// (out_of_range), floats go into double only (widened exactly; float128
  /// rounds to nearest), integers into double only when exact (out_of_range).
  /// Returns ok; buffer_too_small (count() > capacity; nothing written);
  /// type_mismatch (floats into an integer type); out_of_range. *bad_index
  /// (optional) gets the failing element's index: its offset is
  /// data_offset + index * element_size.
  status copy_to(uint64_t* out, size_t capacity, size_t* bad_index = nullptr) const noexcept;
  status copy_to(int64_t* out, size_t capacity, size_t* bad_index = nullptr) const noexcept;
  status copy_to(double* out, size_t capacity, size_t* bad_index = nullptr) const noexcept;
};

/// The element type, size and byte order of a tag: false for anything but 64..87
/// (and for 76, which RFC 8746 reserves).
bool typed_array_from_tag(uint64_t tag, typed_array& out) noexcept;
/// The tag of an element type in a byte order (single bytes: the one tag there is).
uint64_t typed_array_tag(typed_element element, bool little_endian) noexcept;

/// Reads the next item as a typed array: a tag 64..87 over a definite byte
/// string whose length is a multiple of the element size. Returns ok; end;
/// invalid_state (no item here); type_mismatch when the next item is not
/// tag 64..87 (nothing read); a sticky type_mismatch at the byte string's
/// offset when the tag holds anything else (an indefinite string too) or a
/// length that is not a multiple of the element size; need_more (a streaming
/// reader whose buffer does not hold the whole tag and string yet: nothing
/// read); or the reader's error (a tag head the input cuts short: truncated).
status read_typed_array(reader& r, typed_array& out) noexcept;
/// The same for a document node: type_mismatch for any other node. A node
/// keeps its head's offset only, so data_offset is the byte string's offset
/// plus the size of a shortest head (an indefinite string: joined, its head + 1;
/// its bytes are then the document's joined copy, valid while the document is).
status read_typed_array(node n, typed_array& out) noexcept;

/// Document nodes: an array of numbers (any head or float width; a tag 41 in
/// front allowed) or a typed array, into out[0, capacity); *count gets the
/// element count. Returns ok; type_mismatch (another node: *err's offset is
/// the node's; an element of another type: the element's); out_of_range (an
/// element that does not fit, at its offset); buffer_too_small (*count is
/// the count needed, nothing written); invalid_argument (count null, or out
/// null with capacity > 0). err (optional) gets the code and offset.
status read_array(node n, uint64_t* out, size_t capacity, size_t* count,
                  error_info* err = nullptr) noexcept;
status read_array(node n, int64_t* out, size_t capacity, size_t* count,
                  error_info* err = nullptr) noexcept;
status read_array(node n, double* out, size_t capacity, size_t* count,
                  error_info* err = nullptr) noexcept;

/// Writes tag + byte string with the elements of data[0, count) in host byte
/// order (one memcpy into the writer). T: uint8_t .. uint64_t, int8_t ..
/// int64_t, float, double. Returns what the writer returns.
template <class T>
status write_typed_array(writer& w, const T* data, size_t count) noexcept;
/// Any element type and byte order, from bytes already in that form
/// (count elements of element_size bytes each): float16 and float128 too.
status write_typed_array(writer& w, typed_element element, bool little_endian, const void* bytes,
                         size_t count) noexcept;

/// Tag 40: writes 40([dims..., and opens the outer array: the caller then
/// writes the elements as one item (a typed array or an array, row-major)
/// and closes with w.end(). ndims >= 1.
status begin_multi_dim(writer& w, const uint64_t* dims, size_t ndims) noexcept;
/// Tag 40 read: the tag, the outer array of two and the dimensions into
/// dims[0, capacity) (*ndims gets their count). The caller then reads the
/// elements (read_array() or read_typed_array()) and the outer array's end
/// item (next()). type_mismatch when the next item is not tag 40 (nothing
/// read); a sticky type_mismatch when its content is not [dims, elements];
/// buffer_too_small with *ndims = the dimensions there when capacity is
/// less: the tag and the outer array are read then and the dimensions are
/// not, so read them next with r.read_array() into a buffer that holds them.
status read_multi_dim(reader& r, uint64_t* dims, size_t capacity, size_t* ndims) noexcept;
/// Tag 41 before an array: write_tag(41) and then the array. reader::read_array()
/// accepts a tag 41 in front of the array it reads.
inline status begin_homogeneous(writer& w) noexcept { return w.write_tag(tag_homogeneous); }

// ---- inline bodies ----------------------------------------------------------

}  // namespace v1

namespace detail {
template <class T>
constexpr typed_element typed_element_of() noexcept {
  static_assert(std::is_arithmetic<T>::value && !std::is_same<T, bool>::value,
                "typed arrays hold integers and floats");
  if constexpr (std::is_floating_point<T>::value) {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
    return sizeof(T) == 4 ? typed_element::float32 : typed_element::float64;
  } else if constexpr (std::is_signed<T>::value) {
    return sizeof(T) == 1   ? typed_element::sint8
           : sizeof(T) == 2 ? typed_element::sint16
           : sizeof(T) == 4 ? typed_element::sint32
                            : typed_element::sint64;
  } else {
    return sizeof(T) == 1   ? typed_element::uint8
           : sizeof(T) == 2 ? typed_element::uint16
           : sizeof(T) == 4 ? typed_element::uint32
                            : typed_element::uint64;
  }
}
constexpr bool host_little_endian() noexcept {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return false;
#else
  return true;
#endif
}
}  // namespace detail

inline namespace v1 {

template <class T>
inline const T* typed_array::view() const noexcept {
  constexpr typed_element want = detail::typed_element_of<T>();
  const bool same = element == want ||
                    (element == typed_element::uint8_clamped && want == typed_element::uint8) ||
                    (std::is_same<T, uint16_t>::value && element == typed_element::float16);
  if (!same || (sizeof(T) > 1 && little_endian != detail::host_little_endian())) return nullptr;
  if (reinterpret_cast<uintptr_t>(bytes.data) % alignof(T) != 0) return nullptr;
  return reinterpret_cast<const T*>(bytes.data);
}

template <class T>
inline status write_typed_array(writer& w, const T* data, size_t count) noexcept {
  constexpr typed_element e = detail::typed_element_of<T>();
  if (count != 0 && data == nullptr) return status::invalid_argument;
  if (count > SIZE_MAX / sizeof(T)) return status::invalid_argument;
  const status s = w.write_tag(typed_array_tag(e, detail::host_little_endian()));
  if (s != status::ok && s != status::buffer_too_small) return s;
  const status b =
      w.write_bytes(count != 0 ? static_cast<const void*>(data) : "", count * sizeof(T));
  return b != status::ok ? b : s;
}

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_TYPED_ARRAY_HPP
