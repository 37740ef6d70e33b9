// libcbor_fast: one CBOR data item as yielded by the pull reader.
#ifndef CBOR_FAST_ITEM_HPP
#define CBOR_FAST_ITEM_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace cbor_fast {
inline namespace v1 {

/// What an item is. The numeric values are part of the C ABI (CBOR_FAST_ITEM_*).
enum class item_type : uint8_t {
  none = 0,          ///< no item (default-constructed)
  unsigned_int = 1,  ///< major type 0: value() is the integer
  negative_int = 2,  ///< major type 1: the integer is -1 - value()
  byte_string = 3,   ///< major type 2: bytes() is a view into the input
  text_string = 4,   ///< major type 3: text() is a view into the input
  array = 5,         ///< major type 4: count() items follow, then an end item
  map = 6,           ///< major type 5: count() key/value pairs follow, then an end item
  tag = 7,           ///< major type 6: value() is the tag number; exactly one item follows
  simple = 8,        ///< major type 7, simple value other than false/true/null/undefined
  boolean = 9,       ///< simple values 20 (false) and 21 (true)
  null = 10,         ///< simple value 22
  undefined = 11,    ///< simple value 23
  floating = 12,     ///< half, single or double precision float
  end = 13,          ///< end of an array, map or indefinite-length string
};

/// Width of a float on the wire, in bytes.
enum class float_width : uint8_t { shortest = 0, half = 2, single = 4, double_ = 8 };

/// A borrowed view of bytes (pointer + length) into the reader's input.
struct byte_view {
  const uint8_t* data = nullptr;
  size_t size = 0;
  const uint8_t* begin() const noexcept { return data; }
  const uint8_t* end() const noexcept { return data + size; }
  bool empty() const noexcept { return size == 0; }
  uint8_t operator[](size_t i) const noexcept { return data[i]; }
  friend bool operator==(byte_view a, byte_view b) noexcept {
    return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
  }
  friend bool operator!=(byte_view a, byte_view b) noexcept { return !(a == b); }
};

/// One data item. Plain data: cheap to copy, valid as long as the reader's input.
///
/// For arrays and maps an `end` item follows the last child, whether the
/// container was definite or indefinite. An indefinite-length string starts
/// with a byte_string/text_string item whose is_indefinite() is true; its
/// chunks follow as definite items one level deeper, then an `end` item.
struct item {
  item_type type = item_type::none;
  uint8_t flags = 0;  ///< bit 0: indefinite length; bit 1: end consumed a break byte
  uint8_t head_size =
      0;  ///< bytes in the head (initial byte + argument): 1, 2, 3, 5 or 9; 0 for a synthetic end
  uint8_t width = 0;   ///< floats: 2, 4 or 8 bytes on the wire
  uint32_t depth = 0;  ///< number of enclosing containers and tags; top level is 0
  size_t offset = 0;   ///< byte offset of the head in the input
  uint64_t arg =
      0;  ///< head argument: integer, length, count, tag, simple value, or raw float bits
  union {
    const uint8_t* data;  ///< strings: first byte of the content
    double dbl;           ///< floats: the value widened to double
  } u = {nullptr};

  static constexpr uint8_t flag_indefinite = 1;
  static constexpr uint8_t flag_break = 2;

  bool is_indefinite() const noexcept { return (flags & flag_indefinite) != 0; }

  // ---- integers ----
  /// unsigned_int: the value. negative_int: n where the value is -1 - n.
  uint64_t value() const noexcept { return arg; }
  /// True when the integer is representable as int64_t; stores it in *out.
  bool get_int64(int64_t* out) const noexcept {
    if (type == item_type::unsigned_int && arg <= uint64_t(INT64_MAX)) {
      *out = int64_t(arg);
      return true;
    }
    if (type == item_type::negative_int && arg <= uint64_t(INT64_MAX)) {
      *out = -1 - int64_t(arg);
      return true;
    }
    return false;
  }

  // ---- strings ----
  /// Definite byte or text string (or chunk): the content, a view into the input.
  byte_view bytes() const noexcept { return {u.data, size_t(arg)}; }
  std::string_view text() const noexcept {
    return {reinterpret_cast<const char*>(u.data), size_t(arg)};
  }
  /// Definite strings: content length. Definite arrays: item count. Maps: pair count.
  uint64_t count() const noexcept { return arg; }

  // ---- tags, simple values, floats ----
  uint64_t tag_number() const noexcept { return arg; }
  /// simple, boolean, null, undefined: the simple value number (0..255).
  uint8_t simple_value() const noexcept { return uint8_t(arg); }
  bool boolean_value() const noexcept { return arg == 21; }
  double float_value() const noexcept { return u.dbl; }
  /// The float's bits as on the wire (16, 32 or 64 significant bits).
  uint64_t float_bits() const noexcept { return arg; }
  /// Total encoded size of a definite string item (head + content); head size otherwise.
  size_t encoded_size() const noexcept {
    return (type == item_type::byte_string || type == item_type::text_string) && !is_indefinite()
               ? head_size + size_t(arg)
               : head_size;
  }
};

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_ITEM_HPP
