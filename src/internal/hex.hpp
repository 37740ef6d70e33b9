// A hexadecimal digit's value, for the text parsers (EDN's h'' and 0x
// literals, JSON's \u escapes).
#ifndef CBOR_FAST_SRC_INTERNAL_HEX_HPP
#define CBOR_FAST_SRC_INTERNAL_HEX_HPP

namespace cbor_fast {
namespace detail {

/// 0..15 for 0-9, a-f, A-F; -1 for anything else.
inline int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_SRC_INTERNAL_HEX_HPP
