// The shortest decimal that reads back as a double (internal).
#ifndef CBOR_FAST_INTERNAL_SHORTEST_HPP
#define CBOR_FAST_INTERNAL_SHORTEST_HPP

#include <cstddef>
#include <cstdint>

namespace cbor_fast {
namespace detail {

/// A finite positive double as digits * 10^exponent with the fewest digits
/// that read back as it (the closest such digits; ties to even digits).
struct shortest_decimal {
  uint64_t digits;  ///< 1 to 17 decimal digits, no trailing zero dropped needlessly
  int32_t exponent;
};

/// For finite v > 0 (the sign and zero are the caller's). Ryu's method: the
/// interval of decimals that round to v, from 128-bit powers of 5.
shortest_decimal shortest(double v) noexcept;

/// The text std::to_chars(first, last, v) gives for a finite v (the shortest
/// of plain and exponent form, plain on a tie: "1.5", "100", "1e+300",
/// "1e-07", "-0"), at most 24 characters, written to out (room for 32:
/// bytes past the text may be overwritten). Returns the length.
/// mark_integral: a plain integer gets ".0" ("100.0", "-0.0"; JSON's rule,
/// so that it reads back as a float). Faster than libstdc++'s to_chars
/// (which tests/unit/shortest_test.cpp compares it with, byte for byte).
size_t format_shortest(double v, char* out, bool mark_integral = false) noexcept;

/// format_shortest(a), the separator, format_shortest(b) (room for 64: bytes
/// past the text may be overwritten); returns the whole length. Faster than
/// two calls: the two numbers' conversions overlap.
size_t format_shortest_pair(double a, double b, char separator, char* out,
                            bool mark_integral = false) noexcept;

/// How read_float() ended.
enum class float_text { ok, syntax, overflow };

/// The unsigned number text [first, last) (digits, an optional point and
/// fraction, an optional exponent; hex: the digits of a C hex float after
/// "0x", with a 'p' exponent) to the nearest double, correctly rounded
/// (std::from_chars, whatever the locale): ok; syntax when it does not read
/// whole; overflow when its magnitude is beyond the doubles. A magnitude
/// below the smallest subnormal reads as zero, as IEEE rounding gives. The
/// one text-to-double conversion of the EDN and JSON parsers.
float_text read_float(const char* first, const char* last, bool hex, double& out) noexcept;

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_INTERNAL_SHORTEST_HPP
