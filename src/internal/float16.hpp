// IEEE 754 binary16 <-> binary64 conversions (internal).
#ifndef CBOR_FAST_INTERNAL_FLOAT16_HPP
#define CBOR_FAST_INTERNAL_FLOAT16_HPP

#include <cstdint>
#include <cstring>

namespace cbor_fast {
namespace detail {

inline double bits_to_double(uint64_t bits) noexcept {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
inline uint64_t double_to_bits(double d) noexcept {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}
inline float bits_to_float(uint32_t bits) noexcept {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
inline uint32_t float_to_bits(float f) noexcept {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

/// Exact widening of a half-precision value (NaN payloads kept in the top mantissa bits).
inline double half_to_double(uint16_t h) noexcept {
  const uint64_t sign = uint64_t(h >> 15) << 63;
  const uint32_t exp = (h >> 10) & 0x1f;
  uint64_t mant = h & 0x3ff;
  uint64_t bits;
  if (exp == 0x1f) {
    bits = sign | (uint64_t(0x7ff) << 52) | (mant << 42);
  } else if (exp != 0) {
    bits = sign | (uint64_t(exp - 15 + 1023) << 52) | (mant << 42);
  } else if (mant == 0) {
    bits = sign;
  } else {
    // Subnormal half: normalise. value = mant * 2^-24.
    int e = -14;
    while ((mant & 0x400) == 0) {
      mant <<= 1;
      --e;
    }
    mant &= 0x3ff;
    bits = sign | (uint64_t(e + 1023) << 52) | (mant << 42);
  }
  return bits_to_double(bits);
}

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_INTERNAL_FLOAT16_HPP
