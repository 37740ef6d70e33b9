// Decimal digits to the big-endian magnitude of a bignum (RFC 8949 3.4.3),
// shared by the diagnostic-notation and JSON parsers (internal).
#ifndef CBOR_FAST_INTERNAL_BIGNUM_HPP
#define CBOR_FAST_INTERNAL_BIGNUM_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace cbor_fast {
namespace detail {

/// Big-endian magnitude of a string of decimal digits ('0'..'9' only), with
/// no leading zero bytes (empty for 0). Throws std::bad_alloc.
inline std::vector<uint8_t> decimal_to_magnitude(std::string_view digits) {
  std::vector<uint32_t> limbs(1, 0);  // little-endian base 2^32
  size_t i = 0;
  while (i < digits.size()) {
    // Up to 9 digits at a time: 10^9 < 2^32.
    const size_t k = digits.size() - i < 9 ? digits.size() - i : 9;
    uint32_t chunk = 0, scale = 1;
    for (size_t j = 0; j < k; ++j) {
      chunk = chunk * 10 + uint32_t(digits[i + j] - '0');
      scale *= 10;
    }
    uint64_t carry = chunk;
    for (uint32_t& l : limbs) {
      const uint64_t cur = uint64_t(l) * scale + carry;
      l = uint32_t(cur);
      carry = cur >> 32;
    }
    if (carry != 0) limbs.push_back(uint32_t(carry));
    i += k;
  }
  std::vector<uint8_t> out(limbs.size() * 4);
  for (size_t k = 0; k < limbs.size(); ++k)
    for (size_t b = 0; b < 4; ++b) out[out.size() - 1 - (k * 4 + b)] = uint8_t(limbs[k] >> (8 * b));
  size_t lead = 0;
  while (lead < out.size() && out[lead] == 0) ++lead;
  out.erase(out.begin(), out.begin() + std::ptrdiff_t(lead));
  return out;
}

/// mag - 1 in place, for tag 3 (the value -N is written as N - 1); mag must
/// not be 0. A leading zero byte the borrow leaves is dropped.
inline void decrement_magnitude(std::vector<uint8_t>& mag) noexcept {
  for (size_t k = mag.size(); k-- > 0;)
    if (mag[k]-- != 0) break;
  if (!mag.empty() && mag[0] == 0) mag.erase(mag.begin());
}

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_INTERNAL_BIGNUM_HPP
