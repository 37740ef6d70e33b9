// libcbor_fast: the one head decoder (RFC 8949 section 3: initial byte ->
// item type and argument size). Every loop that reads heads uses this table
// and these steps: reader::next()'s inline path and visit() (reader-inl.hpp),
// the out-of-line next() steps and skip() (src/reader/reader.cpp), the
// document builder (src/document/decode.cpp) and the strict checks' shortest
// heads (src/reader/strict.cpp). Internal: not for direct use.
#ifndef CBOR_FAST_DETAIL_HEAD_HPP
#define CBOR_FAST_DETAIL_HEAD_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cbor_fast/item.hpp"

namespace cbor_fast {
namespace detail {

/// The inline steps, one per item type and argument size (0, 1, 2, 4 or 8
/// bytes after the initial byte), as X(name, item type, argument bytes), so a
/// step knows both at compile time. head_step follows this order.
// clang-format off
#define CBOR_FAST_HEAD_STEPS(X)                                                       \
  X(uint0, unsigned_int, 0) X(uint1, unsigned_int, 1) X(uint2, unsigned_int, 2)       \
  X(uint4, unsigned_int, 4) X(uint8, unsigned_int, 8)                                 \
  X(neg0, negative_int, 0) X(neg1, negative_int, 1) X(neg2, negative_int, 2)          \
  X(neg4, negative_int, 4) X(neg8, negative_int, 8)                                   \
  X(bytes0, byte_string, 0) X(bytes1, byte_string, 1) X(bytes2, byte_string, 2)       \
  X(bytes4, byte_string, 4) X(bytes8, byte_string, 8)                                 \
  X(text0, text_string, 0) X(text1, text_string, 1) X(text2, text_string, 2)          \
  X(text4, text_string, 4) X(text8, text_string, 8)                                   \
  X(array0, array, 0) X(array1, array, 1) X(array2, array, 2)                         \
  X(array4, array, 4) X(array8, array, 8)                                             \
  X(map0, map, 0) X(map1, map, 1) X(map2, map, 2) X(map4, map, 4) X(map8, map, 8)     \
  X(tag0, tag, 0) X(tag1, tag, 1) X(tag2, tag, 2) X(tag4, tag, 4) X(tag8, tag, 8)     \
  X(simple, simple, 0)   /* simple values 0..19 */                                    \
  X(false_, boolean, 0) X(true_, boolean, 0) X(null, null, 0) X(undefined, undefined, 0) \
  X(simple8, simple, 1)  /* 0xf8: one-byte simple value, 32..255 only */              \
  X(half, floating, 2) X(single, floating, 4) X(double_, floating, 8)
// clang-format on

/// Which inline step an initial byte takes.
enum head_step : uint8_t {
#define CBOR_FAST_HEAD_ENUM(name, type, arg_bytes) hs_##name,
  CBOR_FAST_HEAD_STEPS(CBOR_FAST_HEAD_ENUM)
#undef CBOR_FAST_HEAD_ENUM
      hs_other,  // additional information 28..31: reserved, indefinite, break
  hs_count
};
static_assert(hs_simple == 35 && hs_other == 44, "head_step: five steps for each of majors 0-6");

/// A coarser class, for loops that only tell scalars, strings and levels apart.
enum head_kind : uint8_t {
  hk_other = 0,  ///< additional information 28..31: reserved, indefinite length, break
  hk_scalar,     ///< integers, simple values below 24, floats: nothing follows the head
  hk_simple8,    ///< simple value in the next byte (well-formed only from 32)
  hk_bytes,      ///< definite byte string: the argument is its length
  hk_text,       ///< definite text string
  hk_array,      ///< definite array: the argument counts its items
  hk_map,        ///< definite map: the argument counts its pairs
  hk_tag,        ///< tag: one item follows
};

/// Bit set in head_entry::level for arrays, maps and tags (document nodes use
/// the same value for their subtree flag).
constexpr uint8_t k_head_level = 8;

/// What an initial byte says. The first four bytes are laid out as a
/// document node's first four (type, flags, width, 0), so the document
/// builder loads them as its node head.
struct head_entry {
  uint8_t type;       ///< item_type; none for additional information 28..31
  uint8_t level;      ///< k_head_level for arrays, maps and tags, else 0
  uint8_t width;      ///< floats: 2, 4 or 8 bytes on the wire, else 0
  uint8_t zero;       ///< always 0
  uint8_t step;       ///< head_step
  uint8_t kind;       ///< head_kind
  uint8_t arg_bytes;  ///< bytes of the argument after the initial byte: 0, 1, 2, 4 or 8
  uint8_t head_size;  ///< 1 + arg_bytes
};

constexpr head_entry classify_head(unsigned ib) noexcept {
  const unsigned major = ib >> 5;
  const unsigned ai = ib & 0x1f;
  if (ai >= 28) return {0, 0, 0, 0, hs_other, hk_other, 0, 1};
  const unsigned size_index = ai < 24 ? 0 : ai - 23;  // 0, then 1..4 for 1, 2, 4, 8 bytes
  const uint8_t arg_bytes = uint8_t(ai < 24 ? 0u : 1u << (ai - 24));
  const uint8_t size = uint8_t(1 + arg_bytes);
  if (major < 7) {
    constexpr item_type types[7] = {item_type::unsigned_int, item_type::negative_int,
                                    item_type::byte_string,  item_type::text_string,
                                    item_type::array,        item_type::map,
                                    item_type::tag};
    constexpr uint8_t kinds[7] = {hk_scalar, hk_scalar, hk_bytes, hk_text,
                                  hk_array,  hk_map,    hk_tag};
    return {uint8_t(types[major]),
            uint8_t(major >= 4 ? k_head_level : 0),
            0,
            0,
            uint8_t(hs_uint0 + major * 5 + size_index),
            kinds[major],
            arg_bytes,
            size};
  }
  if (ai < 20) return {uint8_t(item_type::simple), 0, 0, 0, hs_simple, hk_scalar, 0, 1};
  if (ai < 22)
    return {uint8_t(item_type::boolean), 0, 0, 0, uint8_t(hs_false_ + (ai - 20)), hk_scalar, 0, 1};
  if (ai == 22) return {uint8_t(item_type::null), 0, 0, 0, hs_null, hk_scalar, 0, 1};
  if (ai == 23) return {uint8_t(item_type::undefined), 0, 0, 0, hs_undefined, hk_scalar, 0, 1};
  if (ai == 24) return {uint8_t(item_type::simple), 0, 0, 0, hs_simple8, hk_simple8, 1, 2};
  // 25, 26, 27: half, single, double; the width is the argument's size.
  return {uint8_t(item_type::floating), 0,         arg_bytes, 0,
          uint8_t(hs_half + (ai - 25)), hk_scalar, arg_bytes, size};
}

struct head_table {
  head_entry at[256];
  constexpr head_table() noexcept : at() {
    for (unsigned i = 0; i < 256; ++i) at[i] = classify_head(i);
  }
  constexpr const head_entry& operator[](uint8_t ib) const noexcept { return at[ib]; }
};
/// The one 256-entry table.
inline constexpr head_table k_heads{};

/// The big-endian argument of N = 1, 2, 4 or 8 bytes at p (8 bytes readable).
template <unsigned N>
inline uint64_t load_argument(const uint8_t* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#elif defined(__GNUC__) || defined(__clang__)
  v = __builtin_bswap64(v);
#else
  uint64_t r = 0;
  for (unsigned i = 0; i < 8; ++i) r = (r << 8) | p[i];
  v = r;
#endif
  return v >> (64 - 8 * N);
}

/// The argument of `n` = 1, 2, 4 or 8 bytes at p with 8 bytes readable (one
/// load, shifted down to its width).
inline uint64_t load_argument_n(const uint8_t* p, unsigned n) noexcept {
  return load_argument<8>(p) >> (64 - 8 * n);
}

/// The argument of `n` = 0..8 bytes at p, reading only those bytes (near the
/// end of the input).
inline uint64_t load_argument_short(const uint8_t* p, unsigned n) noexcept {
  uint64_t arg = 0;
  for (unsigned i = 0; i < n; ++i) arg = (arg << 8) | p[i];
  return arg;
}

/// Bytes in the shortest head for an argument: 1, 2, 3, 5 or 9.
constexpr unsigned shortest_head_size(uint64_t arg) noexcept {
  return arg < 24 ? 1 : arg <= 0xff ? 2 : arg <= 0xffff ? 3 : arg <= 0xffffffffu ? 5 : 9;
}

/// Writes the shortest head of (major, arg) at out (9 bytes of room); returns its size.
inline size_t write_shortest_head(uint8_t* out, unsigned major, uint64_t arg) noexcept {
  const unsigned size = shortest_head_size(arg);
  const uint8_t mt = uint8_t(major << 5);
  if (size == 1) {
    out[0] = uint8_t(mt | arg);
    return 1;
  }
  const unsigned n = size - 1;  // argument bytes: 1, 2, 4 or 8
  out[0] = uint8_t(mt | (n == 1 ? 24 : n == 2 ? 25 : n == 4 ? 26 : 27));
  for (unsigned i = 0; i < n; ++i) out[1 + i] = uint8_t(arg >> (8 * (n - 1 - i)));
  return size;
}

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_DETAIL_HEAD_HPP
