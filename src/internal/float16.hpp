// IEEE 754 binary16/binary32 <-> binary64 conversions (internal).
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

/// Exact widening of a single-precision value given as bits. Works on bits, not
/// on float, so a signalling NaN keeps its payload (a hardware conversion may
/// quiet it).
inline double single_to_double(uint32_t f) noexcept {
  const uint64_t sign = uint64_t(f >> 31) << 63;
  const uint32_t exp = (f >> 23) & 0xff;
  uint64_t mant = f & 0x7fffff;
  uint64_t bits;
  if (exp == 0xff) {
    bits = sign | (uint64_t(0x7ff) << 52) | (mant << 29);
  } else if (exp != 0) {
    bits = sign | (uint64_t(exp - 127 + 1023) << 52) | (mant << 29);
  } else if (mant == 0) {
    bits = sign;
  } else {
    // Subnormal single: normalise. value = mant * 2^-149.
    int e = -126;
    while ((mant & 0x800000) == 0) {
      mant <<= 1;
      --e;
    }
    mant &= 0x7fffff;
    bits = sign | (uint64_t(e + 1023) << 52) | (mant << 29);
  }
  return bits_to_double(bits);
}

/// Narrows binary64 bits to an IEEE binary format with ExpBits exponent and
/// MantBits fraction bits, rounding to nearest, ties to even. Overflow gives
/// infinity; results below the normal range become correctly rounded
/// subnormals or zero. A NaN keeps its sign and the top MantBits of its
/// payload; if those are all zero the quiet bit is set so it stays a NaN.
template <unsigned ExpBits, unsigned MantBits>
inline uint64_t narrow_double_bits(uint64_t d) noexcept {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr uint64_t exp_ones = (uint64_t(1) << ExpBits) - 1;
  constexpr unsigned drop = 52 - MantBits;  // fraction bits lost in the normal range
  const uint64_t sign = (d >> 63) << (ExpBits + MantBits);
  const int exp = int((d >> 52) & 0x7ff);
  const uint64_t mant = d & ((uint64_t(1) << 52) - 1);
  if (exp == 0x7ff) {
    if (mant == 0) return sign | (exp_ones << MantBits);
    uint64_t payload = mant >> drop;
    if (payload == 0) payload = uint64_t(1) << (MantBits - 1);
    return sign | (exp_ones << MantBits) | payload;
  }
  // Zero, or a binary64 subnormal (below 2^-1022): far under half the
  // target's smallest subnormal, so it rounds to a signed zero.
  if (exp == 0) return sign;
  const int e = exp - 1023;
  if (e > bias) return sign | (exp_ones << MantBits);
  uint64_t sig;
  unsigned shift;
  uint64_t base;
  if (e >= 1 - bias) {
    // Normal: biased exponent and truncated fraction side by side, so a
    // rounding carry moves into the exponent (and past the largest finite
    // value into infinity) by itself.
    sig = mant;
    shift = drop;
    base = uint64_t(e + bias) << MantBits;
  } else {
    // Subnormal in the target: the result counts units of 2^(1-bias-MantBits).
    shift = drop + unsigned(1 - bias - e);
    if (shift > 53) return sign;  // below half the smallest subnormal
    sig = mant | (uint64_t(1) << 52);
    base = 0;
  }
  uint64_t r = base | (sig >> shift);
  const uint64_t rest = sig & ((uint64_t(1) << shift) - 1);
  const uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (r & 1) != 0)) ++r;
  return sign | r;
}

/// Whether binary64 bits d fit the binary format with ExpBits exponent and
/// MantBits fraction bits exactly, i.e. narrowing and widening back gives d
/// again (a NaN keeps its sign and whole payload); if so *out gets the narrow
/// bits. Bit tests only: the same answer as that round trip at a fraction of
/// its cost.
template <unsigned ExpBits, unsigned MantBits>
inline bool narrows_exactly(uint64_t d, uint64_t* out) noexcept {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr uint64_t exp_ones = (uint64_t(1) << ExpBits) - 1;
  constexpr unsigned drop = 52 - MantBits;  // fraction bits lost in the normal range
  constexpr uint64_t dropped = (uint64_t(1) << drop) - 1;
  const uint64_t sign = (d >> 63) << (ExpBits + MantBits);
  const int exp = int((d >> 52) & 0x7ff);
  const uint64_t mant = d & ((uint64_t(1) << 52) - 1);
  const int e = exp - 1023;
  if (e >= 1 - bias && e <= bias) {  // normal in the target: the dropped bits must be zero
    if ((mant & dropped) != 0) return false;
    *out = sign | (uint64_t(e + bias) << MantBits) | (mant >> drop);
    return true;
  }
  if (exp == 0x7ff) {  // infinity or NaN: the payload must survive whole
    if ((mant & dropped) != 0) return false;
    *out = sign | (exp_ones << MantBits) | (mant >> drop);
    return true;
  }
  if (exp == 0) {  // a signed zero fits; a binary64 subnormal is far too small
    if (mant != 0) return false;
    *out = sign;
    return true;
  }
  if (e > bias) return false;  // beyond the largest finite value
  // Subnormal in the target: the significand, implicit bit included, counts
  // units of 2^(1-bias-MantBits) after a right shift that must drop only zeros.
  const unsigned shift = drop + unsigned(1 - bias - e);
  if (shift > 52) return false;  // below the smallest subnormal
  const uint64_t sig = mant | (uint64_t(1) << 52);
  if ((sig & ((uint64_t(1) << shift) - 1)) != 0) return false;
  *out = sign | (sig >> shift);
  return true;
}

/// binary64 -> binary16 bits, round to nearest even (see narrow_double_bits).
inline uint16_t double_to_half(double v) noexcept {
  return uint16_t(narrow_double_bits<5, 10>(double_to_bits(v)));
}
/// binary64 -> binary32 bits, round to nearest even (see narrow_double_bits).
inline uint32_t double_to_single(double v) noexcept {
  return uint32_t(narrow_double_bits<8, 23>(double_to_bits(v)));
}

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_INTERNAL_FLOAT16_HPP
