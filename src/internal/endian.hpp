// Big-endian loads and stores (internal).
#ifndef CBOR_FAST_INTERNAL_ENDIAN_HPP
#define CBOR_FAST_INTERNAL_ENDIAN_HPP

#include <cstdint>
#include <cstring>

namespace cbor_fast {
namespace detail {

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
inline uint16_t to_be16(uint16_t v) noexcept { return v; }
inline uint32_t to_be32(uint32_t v) noexcept { return v; }
inline uint64_t to_be64(uint64_t v) noexcept { return v; }
#else
inline uint16_t to_be16(uint16_t v) noexcept { return __builtin_bswap16(v); }
inline uint32_t to_be32(uint32_t v) noexcept { return __builtin_bswap32(v); }
inline uint64_t to_be64(uint64_t v) noexcept { return __builtin_bswap64(v); }
#endif

inline uint16_t load_be16(const uint8_t* p) noexcept {
  uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return to_be16(v);
}
inline uint32_t load_be32(const uint8_t* p) noexcept {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return to_be32(v);
}
inline uint64_t load_be64(const uint8_t* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return to_be64(v);
}
inline void store_be16(uint8_t* p, uint16_t v) noexcept {
  v = to_be16(v);
  std::memcpy(p, &v, sizeof v);
}
inline void store_be32(uint8_t* p, uint32_t v) noexcept {
  v = to_be32(v);
  std::memcpy(p, &v, sizeof v);
}
inline void store_be64(uint8_t* p, uint64_t v) noexcept {
  v = to_be64(v);
  std::memcpy(p, &v, sizeof v);
}

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_INTERNAL_ENDIAN_HPP
