// Internal to src/reader: what bulk.cpp and typed_array.cpp share.
#ifndef CBOR_FAST_READER_TYPED_CONVERT_HPP
#define CBOR_FAST_READER_TYPED_CONVERT_HPP

#include <cstdint>
#include <limits>
#include <type_traits>

#include "cbor_fast/reader.hpp"
#include "cbor_fast/typed_array.hpp"

namespace cbor_fast {
namespace detail {

/// The head at the reader's position, read without consuming anything.
struct peeked_head {
  uint8_t major = 0;
  uint8_t ai = 0;
  bool complete = false;  ///< a definite head (ai < 28) whose argument bytes are all there
  uint64_t arg = 0;
  size_t size = 0;  ///< head bytes when complete
  size_t offset = 0;
};

/// ok with the head of the next item; end (top level, no input left);
/// invalid_state (the enclosing container has all its items, or a break is
/// next); the sticky error; truncated (sticky, from next()) when input ends
/// inside a container.
status peek_next(reader& r, peeked_head& out) noexcept;
/// Makes `s` the reader's sticky error at `offset`; returns s.
status bulk_fail(reader& r, status s, size_t offset) noexcept;

/// The implementations behind reader::read_array() for integer elements,
/// which takes the best one the build and the CPU support. Tests run each of
/// them on the same cases.
enum class bulk_path {
  portable,  ///< scalar runs of same-width heads (and SSE2 for one-byte ints)
  avx2,      ///< plus sixteen 1a or 19 heads at a time (x86-64, chosen at run time)
};
/// Whether read_array_on can run path here.
bool bulk_path_supported(bulk_path path) noexcept;
/// reader::read_array(out, capacity, count) forced onto path (the same
/// contract); an unsupported path runs the portable code.
status read_array_on(bulk_path path, reader& r, uint64_t* out, size_t capacity,
                     size_t* count) noexcept;
status read_array_on(bulk_path path, reader& r, int64_t* out, size_t capacity,
                     size_t* count) noexcept;

/// An integer into T (uint64_t, int64_t or double), range-checked: ok or out_of_range.
template <class T>
inline status convert_int(uint64_t v, T& out) noexcept {
  if constexpr (std::is_same<T, uint64_t>::value) {
    out = v;
  } else if constexpr (std::is_same<T, int64_t>::value) {
    if (v > uint64_t(INT64_MAX)) return status::out_of_range;
    out = int64_t(v);
  } else {
    const double d = double(v);
    // Exact when it converts back (2^64 itself is out of uint64_t's range).
    if (d >= 18446744073709551616.0 || uint64_t(d) != v) return status::out_of_range;
    out = d;
  }
  return status::ok;
}
template <class T>
inline status convert_int(int64_t v, T& out) noexcept {
  if constexpr (std::is_same<T, uint64_t>::value) {
    if (v < 0) return status::out_of_range;
    out = uint64_t(v);
  } else if constexpr (std::is_same<T, int64_t>::value) {
    out = v;
  } else {
    const double d = double(v);
    if (d >= 9223372036854775808.0 || int64_t(d) != v) return status::out_of_range;
    out = d;
  }
  return status::ok;
}
/// The negative integer -1 - raw (major type 1, argument raw) into T: as
/// convert_int; into a double down to -2^64 when the double holds it exactly,
/// as a double member of a mapped struct takes it.
template <class T>
inline status convert_negative(uint64_t raw, T& out) noexcept {
  if constexpr (std::is_same<T, double>::value) {
    if (raw > uint64_t(INT64_MAX)) {
      if (raw == UINT64_MAX) {
        out = -18446744073709551616.0;  // -2^64
        return status::ok;
      }
      const uint64_t m = raw + 1;  // the magnitude, 2^63 + 1 .. 2^64 - 1
      const double d = double(m);
      if (d >= 18446744073709551616.0 || uint64_t(d) != m) return status::out_of_range;
      out = -d;
      return status::ok;
    }
  } else {
    if (raw > uint64_t(INT64_MAX)) return status::out_of_range;  // below -2^63
  }
  return convert_int(int64_t(-1 - int64_t(raw)), out);
}

template <class T>
status typed_convert(const typed_array& a, T* out, size_t capacity, size_t* bad) noexcept;
double float128_to_double(const uint8_t* p, bool little) noexcept;

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_READER_TYPED_CONVERT_HPP
