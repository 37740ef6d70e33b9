// The shortest decimal that reads back as a double, after Ulf Adams, "Ryu:
// fast float-to-string conversion" (PLDI 2018): the decimal interval of the
// reals that round to v is scaled by a 125-bit power of 5 (pow5_tables.inc,
// written by gen_pow5_tables.py), and digits are dropped while both ends of
// the interval still differ.
#include "internal/shortest.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

#include "internal/compiler.hpp"

namespace cbor_fast {
namespace detail {

#if defined(__SIZEOF_INT128__)

namespace {

#include "internal/pow5_tables.inc"

constexpr int k_mantissa_bits = 52;
constexpr int k_exponent_bias = 1023;

/// ceil(log2(5^e)) for 0 <= e <= 3528 (1 for e = 0).
inline int32_t pow5_bits(int32_t e) noexcept { return int32_t((uint32_t(e) * 1217359u) >> 19) + 1; }
/// floor(log10(2^e)) for 0 <= e <= 1650.
inline uint32_t log10_pow2(int32_t e) noexcept { return (uint32_t(e) * 78913u) >> 18; }
/// floor(log10(5^e)) for 0 <= e <= 2620.
inline uint32_t log10_pow5(int32_t e) noexcept { return (uint32_t(e) * 732923u) >> 20; }

inline bool multiple_of_pow5(uint64_t v, uint32_t p) noexcept {
  uint32_t n = 0;  // v != 0
  while (v % 5 == 0) {
    v /= 5;
    if (++n >= p) return true;
  }
  return n >= p;
}
inline bool multiple_of_pow2(uint64_t v, uint32_t p) noexcept {
  return (v & ((uint64_t(1) << p) - 1)) == 0;
}

__extension__ typedef unsigned __int128 u128;  // GCC and Clang

/// x >> s for 0 < s < 64 (told to the compiler: no test for s >= 64).
inline uint64_t shift_right(u128 x, int32_t s) noexcept {
  if (s <= 0 || s >= 64) __builtin_unreachable();
  return uint64_t(x >> 64) << (64 - s) | uint64_t(x) >> s;
}

/// (m * mul) >> j for a 128-bit mul and 118 <= j <= 125 (every exponent's;
/// see the callers). Six of these per number, independent: separate
/// products overlap better than one product and sums of it.
inline uint64_t mul_shift(uint64_t m, const uint64_t* mul, int32_t j) noexcept {
  const u128 low = u128(m) * mul[0];
  const u128 high = u128(m) * mul[1];
  return shift_right((low >> 64) + high, j - 64);
}

}  // namespace

namespace {
/// shortest()'s body, inlined into format_shortest (forced: GCC otherwise
/// calls it, a call and six saved registers per number).
inline CBOR_FAST_ALWAYS_INLINE shortest_decimal shortest_of(double v) noexcept {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const uint64_t mantissa = bits & ((uint64_t(1) << k_mantissa_bits) - 1);
  const uint32_t biased = uint32_t(bits >> k_mantissa_bits) & 0x7ffu;
  // v = m2 * 2^e2, with two more bits of room for the interval's ends.
  int32_t e2;
  uint64_t m2;
  if (biased == 0) {
    e2 = 1 - k_exponent_bias - k_mantissa_bits - 2;
    m2 = mantissa;
  } else {
    e2 = int32_t(biased) - k_exponent_bias - k_mantissa_bits - 2;
    m2 = (uint64_t(1) << k_mantissa_bits) | mantissa;
  }
  // An even mantissa's interval includes its ends (round half to even).
  const bool accept_bounds = (m2 & 1) == 0;
  const uint64_t mv = 4 * m2;
  // The interval below v is half as wide at a power of two (but for the
  // smallest normal exponent).
  const uint32_t mm_shift = mantissa != 0 || biased <= 1;

  // vr, vp, vm: v and the interval's upper and lower end, times 10^-e10.
  uint64_t vr, vp, vm;
  int32_t e10;
  bool vm_trailing_zeros = false, vr_trailing_zeros = false;
  if (e2 >= 0) {
    const uint32_t q = log10_pow2(e2) - (e2 > 3);
    e10 = int32_t(q);
    const int32_t k = k_pow5_bits + pow5_bits(int32_t(q)) - 1;
    const int32_t i = -e2 + int32_t(q) + k;
    const uint64_t* mul = k_pow5_inv[q];
    vr = mul_shift(mv, mul, i);
    vp = mul_shift(mv + 2, mul, i);
    vm = mul_shift(mv - 1 - mm_shift, mul, i);
    if (q <= 21) {
      // At most one of mv, mv + 2 and mv - 1 - mm_shift is a multiple of 5.
      if (mv % 5 == 0) {
        vr_trailing_zeros = multiple_of_pow5(mv, q);
      } else if (accept_bounds) {
        vm_trailing_zeros = multiple_of_pow5(mv - 1 - mm_shift, q);
      } else {
        vp -= multiple_of_pow5(mv + 2, q);
      }
    }
  } else {
    const uint32_t q = log10_pow5(-e2) - (-e2 > 1);
    e10 = int32_t(q) + e2;
    const int32_t i = -e2 - int32_t(q);
    const int32_t k = pow5_bits(i) - k_pow5_bits;
    const int32_t j = int32_t(q) - k;
    const uint64_t* mul = k_pow5[i];
    vr = mul_shift(mv, mul, j);
    vp = mul_shift(mv + 2, mul, j);
    vm = mul_shift(mv - 1 - mm_shift, mul, j);
    if (q <= 1) {
      // mv = 4 * m2 has two trailing zero bits; mv + 2 one; mv - 1 - mm_shift
      // one exactly when mm_shift is 1.
      vr_trailing_zeros = true;
      if (accept_bounds) {
        vm_trailing_zeros = mm_shift == 1;
      } else {
        --vp;
      }
    } else if (q < 63) {
      vr_trailing_zeros = multiple_of_pow2(mv, q);
    }
  }

  // Drop digits while the interval's ends still differ.
  int32_t removed = 0;
  uint64_t output;
  if (vm_trailing_zeros || vr_trailing_zeros) {
    // Exact ends: trailing zeros decide whether an end is in the interval
    // and whether the dropped digits were exactly a half.
    uint32_t last_removed = 0;
    const auto drop_digit = [&]() noexcept {
      vr_trailing_zeros &= last_removed == 0;
      last_removed = uint32_t(vr % 10);
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    };
    while (vp / 10 > vm / 10) {
      vm_trailing_zeros &= vm % 10 == 0;
      drop_digit();
    }
    if (vm_trailing_zeros)
      while (vm % 10 == 0) drop_digit();
    if (vr_trailing_zeros && last_removed == 5 && vr % 2 == 0) last_removed = 4;  // to even
    output = vr + ((vr == vm && (!accept_bounds || !vm_trailing_zeros)) || last_removed >= 5);
  } else {
    // The common case: no end is exact.
    bool round_up = false;
    if (vp / 100 > vm / 100) {
      round_up = vr % 100 >= 50;
      vr /= 100;
      vp /= 100;
      vm /= 100;
      removed += 2;
    }
    while (vp / 10 > vm / 10) {
      round_up = vr % 10 >= 5;
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    }
    output = vr + (vr == vm || round_up);
  }
  return shortest_decimal{output, e10 + removed};
}
}  // namespace

shortest_decimal shortest(double v) noexcept { return shortest_of(v); }

namespace {

constexpr char k_two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/// Decimal digits of 0 < v < 10^17: log10 from the bit length (1233 / 4096
/// is just over log10(2)), one more if v reaches the next power of ten.
inline int decimal_length(uint64_t v) noexcept {
  static constexpr uint64_t pow10[18] = {1u,
                                         10u,
                                         100u,
                                         1000u,
                                         10000u,
                                         100000u,
                                         1000000u,
                                         10000000u,
                                         100000000u,
                                         1000000000u,
                                         10000000000u,
                                         100000000000u,
                                         1000000000000u,
                                         10000000000000u,
                                         100000000000000u,
                                         1000000000000000u,
                                         10000000000000000u,
                                         100000000000000000u};
  const int bits = 64 - __builtin_clzll(v);
  const int t = (bits * 1233) >> 12;  // floor(log10(2^bits)) or one less
  return t + (v >= pow10[t] ? 1 : 0);
}

/// Exactly 4 and 8 digits of x (with leading zeros), in two independent
/// halves each (short dependency chains).
inline void write4(uint32_t x, char* p) noexcept {
  std::memcpy(p, k_two_digits + 2 * (x / 100), 2);
  std::memcpy(p + 2, k_two_digits + 2 * (x % 100), 2);
}
inline void write8(uint32_t x, char* p) noexcept {
  write4(x / 10000, p);
  write4(x % 10000, p + 4);
}

/// The n decimal digits of v into out[0, n): eight at a time from the end,
/// then the rest two at a time.
inline void write_digits(uint64_t v, int n, char* out) noexcept {
  char* p = out + n;
  while (v >= 100000000) {
    const uint64_t q = v / 100000000;
    p -= 8;
    write8(uint32_t(v - q * 100000000), p);
    v = q;
  }
  uint32_t w = uint32_t(v);
  if (p - out == 8) {
    write8(w, out);
    return;
  }
  while (w >= 100) {
    p -= 2;
    std::memcpy(p, k_two_digits + 2 * (w % 100), 2);
    w /= 100;
  }
  if (w >= 10) {
    std::memcpy(p - 2, k_two_digits + 2 * w, 2);
  } else {
    p[-1] = char('0' + w);
  }
}

/// The 8 digits of x < 10^8 (leading zeros included) as the bytes of a word,
/// the first digit in the low byte: split into 4-digit, 2-digit and 1-digit
/// lanes by multiplications that divide every lane at once (x * 10486 >> 20
/// is x / 100 below 10^4, x * 103 >> 10 is x / 10 below 100).
inline uint64_t ascii8(uint32_t x) noexcept {
  const uint32_t hi = x / 10000;
  uint64_t v = hi | uint64_t(x - hi * 10000) << 32;
  uint64_t q = ((v * 10486) >> 20) & 0x0000007F0000007Fu;
  v = q | (v - q * 100) << 16;
  q = ((v * 103) >> 10) & 0x000F000F000F000Fu;
  v = q | (v - q * 10) << 8;
  return v | 0x3030303030303030u;
}

/// Stores w's bytes low byte first.
inline void store8(char* p, uint64_t w) noexcept {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  std::memcpy(p, &w, 8);
}

/// Exactly n digits of v < 10^n (leading zeros written), 0 < n <= 16, at
/// out[0, n), in one or two word stores (bytes up to out + 8 may be
/// overwritten past the end when n < 8).
inline void write_fixed(uint64_t v, int n, char* out) noexcept {
  if (n > 8) {
    const uint64_t hi = v / 100000000;
    store8(out, ascii8(uint32_t(hi)) >> (8 * (16 - n)));
    store8(out + n - 8, ascii8(uint32_t(v - hi * 100000000)));
  } else {
    store8(out, ascii8(uint32_t(v)) >> (8 * (8 - n)));
  }
}

/// v / 10^k for v < 2^57 and 1 <= k <= 16 as one multiplication: m =
/// ceil(2^s / 10^k) with s = max(64, 57 + ceil(log2(10^k))) is below 2^64,
/// and its error m * 10^k - 2^s < 10^k times v stays under 2^s, so the
/// quotient is exact (Granlund and Montgomery); shift holds s - 64.
struct pow10_divisors {
  uint64_t pow10[17];
  uint64_t mul[17];
  int shift[17];
  constexpr pow10_divisors() : pow10(), mul(), shift() {
    uint64_t p = 1;
    for (int k = 0; k <= 16; ++k) {
      int bits = 0;
      while (bits < 64 && (uint64_t(1) << bits) < p) ++bits;
      const int s = 57 + bits < 64 ? 64 : 57 + bits;  // a larger s is as exact
      pow10[k] = p;
      mul[k] = uint64_t(((u128(1) << s) + p - 1) / p);
      shift[k] = s - 64;
      p *= 10;
    }
  }
};
constexpr pow10_divisors k_div10;

/// The digits with a point after the first `whole` of them (0 < whole < n):
/// both parts written in place, the fraction with its leading zeros (bytes
/// up to 7 past the end may be overwritten).
inline void write_with_point(uint64_t digits, int n, int whole, char* out) noexcept {
  const int frac = n - whole;
  const uint64_t q = uint64_t((u128(digits) * k_div10.mul[frac]) >> 64) >> k_div10.shift[frac];
  const uint64_t r = digits - q * k_div10.pow10[frac];
  if (whole == 1) {
    out[0] = char('0' + q);
  } else {
    write_digits(q, whole, out);
  }
  out[whole] = '.';
  write_fixed(r, frac, out + whole + 1);
}

/// The text of v != 0 (sign taken off) from its decimal d, at o (out + 1
/// after a '-'); returns the length from out.
inline CBOR_FAST_ALWAYS_INLINE size_t format_decimal(shortest_decimal d, double v, char* out,
                                                     char* o, bool mark_integral) noexcept {
  // The digits are written where they end up, two at a time (a wide load of
  // bytes just stored two at a time would wait for the stores: a
  // store-forwarding stall); a point splits them by one multiplication.
  const int n = decimal_length(d.digits);
  const int e = d.exponent;  // v = digits * 10^e
  // std::to_chars: printf's %f or %e, whichever is shorter (%f on a tie).
  const int sci_exp = e + n - 1;
  int abs_exp = sci_exp < 0 ? -sci_exp : sci_exp;
  const int sci_len = n + (n > 1 ? 1 : 0) + 2 + (abs_exp >= 100 ? 3 : 2);
  const int plain_len = e >= 0 ? n + e : n + e > 0 ? n + 1 : 2 - e;
  if (plain_len <= sci_len) {
    if (e < 0) {
      if (n + e > 0) {
        write_with_point(d.digits, n, n + e, o);  // ddd.ddd
      } else {
        // 0.000ddd: at most 3 zeros after the point (else %e is shorter).
        std::memcpy(o, "0.000", 5);
        write_digits(d.digits, n, o + 2 - e - n);
      }
      return size_t(o - out) + size_t(plain_len);
    }
    if (e > 0) {
      // An integer (the digits are whole: v has no fraction) of at most 22
      // digits, which std::to_chars prints exactly, not as the shortest
      // digits and zeros: 2^55 is 36028797018963968, not ...970. Exact in
      // 128 bits: v < 10^22 < 2^74 is its 53-bit mantissa shifted.
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      const int32_t shift = int32_t(bits >> k_mantissa_bits) - k_exponent_bias - k_mantissa_bits;
      const uint64_t m =
          (bits & ((uint64_t(1) << k_mantissa_bits) - 1)) | (uint64_t(1) << k_mantissa_bits);
      u128 x = shift >= 0 ? u128(m) << shift : u128(m >> -shift);
      char* p = o + plain_len;
      while (p != o) {
        *--p = char('0' + unsigned(x % 10));
        x /= 10;
      }
    } else {
      write_digits(d.digits, n, o);
    }
    if (!mark_integral) return size_t(o - out) + size_t(plain_len);
    std::memcpy(o + plain_len, ".0", 2);
    return size_t(o - out) + size_t(plain_len) + 2;
  }
  // d.ddde+xx
  if (n > 1) {
    write_with_point(d.digits, n, 1, o);
    o += n + 1;
  } else {
    *o++ = char('0' + d.digits);
  }
  o[0] = 'e';
  o[1] = sci_exp < 0 ? '-' : '+';
  o += 2;
  if (abs_exp >= 100) {
    *o++ = char('0' + abs_exp / 100);
    abs_exp %= 100;
  }
  std::memcpy(o, k_two_digits + 2 * abs_exp, 2);
  return size_t(o - out) + 2;
}

}  // namespace

size_t format_shortest(double v, char* out, bool mark_integral) noexcept {
  char* o = out;
  if (std::signbit(v)) {
    *o++ = '-';
    v = -v;
  }
  if (v == 0) {
    std::memcpy(o, "0.0", 3);
    return size_t(o - out) + (mark_integral ? 3 : 1);
  }
  return format_decimal(shortest_of(v), v, out, o, mark_integral);
}

size_t format_shortest_pair(double a, double b, char separator, char* out,
                            bool mark_integral) noexcept {
  // Both decimals first: the two chains of dependent multiplications
  // overlap (one number's alone is mostly latency), then both texts.
  const double ma = std::fabs(a), mb = std::fabs(b);
  const shortest_decimal da = ma != 0 ? shortest_of(ma) : shortest_decimal{0, 0};
  const shortest_decimal db = mb != 0 ? shortest_of(mb) : shortest_decimal{0, 0};
  size_t n;
  if (ma != 0) {
    char* o = out;
    if (std::signbit(a)) *o++ = '-';
    n = format_decimal(da, ma, out, o, mark_integral);
  } else {
    n = format_shortest(a, out, mark_integral);
  }
  out[n++] = separator;
  char* const second = out + n;
  if (mb != 0) {
    char* o = second;
    if (std::signbit(b)) *o++ = '-';
    return n + format_decimal(db, mb, second, o, mark_integral);
  }
  return n + format_shortest(b, second, mark_integral);
}

#else  // no 128-bit integers: the standard library's conversion

shortest_decimal shortest(double v) noexcept {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  uint64_t digits = 0;
  const char* p = buf;
  int n = 0;
  for (; p != r.ptr && *p != 'e'; ++p)
    if (*p != '.') {
      digits = digits * 10 + uint64_t(*p - '0');
      ++n;
    }
  int exp10 = 0;
  std::from_chars(p + 2, r.ptr, exp10);
  if (p[1] == '-') exp10 = -exp10;
  return shortest_decimal{digits, exp10 - (n - 1)};
}

size_t format_shortest(double v, char* out, bool mark_integral) noexcept {
  const auto r = std::to_chars(out, out + 32, v);
  size_t n = size_t(r.ptr - out);
  if (mark_integral && std::memchr(out, '.', n) == nullptr && std::memchr(out, 'e', n) == nullptr) {
    std::memcpy(out + n, ".0", 2);
    n += 2;
  }
  return n;
}

size_t format_shortest_pair(double a, double b, char separator, char* out,
                            bool mark_integral) noexcept {
  size_t n = format_shortest(a, out, mark_integral);
  out[n++] = separator;
  return n + format_shortest(b, out + n, mark_integral);
}

#endif

namespace {
/// For a float literal that from_chars() found out of range (`text`: the
/// mantissa's digits with an optional point, then the exponent; base 10 or
/// 16): true when its magnitude is below 1, an underflow that rounds to zero
/// as any IEEE conversion does (JSON input, 1e-10_1), false for an overflow.
/// Out of range lies below 2^-1075 or above 2^1024, far from 1 either way, so
/// the order of magnitude (digits before the point, or minus the zeros after
/// it, plus the saturated exponent) decides without the value.
bool below_one(std::string_view text, int base) {
  const char mark = base == 16 ? 'p' : 'e';
  int64_t order = 0;  // in digits of the base
  bool nonzero = false, after_point = false;
  size_t i = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      after_point = true;
      continue;
    }
    if (c == mark || c == mark - 'a' + 'A') break;
    if (!after_point) {
      if (nonzero || c != '0') {
        nonzero = true;
        ++order;
      }
    } else if (!nonzero) {
      if (c != '0') {
        nonzero = true;
      } else {
        --order;
      }
    }
  }
  bool negative = false;
  int64_t e = 0;
  if (i < text.size()) ++i;  // the mark
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  for (; i < text.size(); ++i)
    if (e < (int64_t(1) << 40)) e = e * 10 + (text[i] - '0');
  const int64_t scale = base == 16 ? 4 : 1;  // a hex digit is 4 bits; the exponent counts bits
  return order * scale + (negative ? -e : e) < 0;
}
}  // namespace

float_text read_float(const char* first, const char* last, bool hex, double& out) noexcept {
  double v = 0;
  const auto r =
      std::from_chars(first, last, v, hex ? std::chars_format::hex : std::chars_format::general);
  if (r.ec == std::errc::invalid_argument || r.ptr != last) return float_text::syntax;
  if (r.ec == std::errc::result_out_of_range) {
    if (!below_one(std::string_view(first, size_t(last - first)), hex ? 16 : 10))
      return float_text::overflow;
    v = 0.0;
  }
  out = v;
  return float_text::ok;
}

}  // namespace detail
}  // namespace cbor_fast
