// libcbor_fast: tags as values. Date/time (tags 0, 1, 100, 1004), decimal
// fractions and bigfloats (4, 5), UUIDs (37), embedded CBOR (24) and the
// self-described CBOR marker (55799), read from document nodes and written to
// a writer. Since 0.4.
//
// Statuses: type_mismatch when the node is not the tag (or its content not the
// type) asked for; out_of_range when the content has the right type but is not
// a valid value (a bad RFC 3339 string, a month 13, an epoch beyond int64
// seconds, a UUID that is not 16 bytes), with error_info::offset at the
// offending byte of the input. For a text string that offset counts the
// string's head at its shortest size (exact for preferred serialization, the
// form every encoder of this library writes).
#ifndef CBOR_FAST_TAGS_HPP
#define CBOR_FAST_TAGS_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cbor_fast/document.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/writer.hpp"

namespace cbor_fast {
inline namespace v1 {

/// Tag numbers handled here.
enum tag_number : uint64_t {
  tag_date_time_string = 0,   ///< RFC 3339 text (RFC 8949 3.4.1)
  tag_epoch_time = 1,         ///< seconds since 1970-01-01T00:00Z, integer or float (3.4.2)
  tag_decimal_fraction = 4,   ///< [exponent, mantissa]: mantissa * 10^exponent (3.4.4)
  tag_bigfloat = 5,           ///< [exponent, mantissa]: mantissa * 2^exponent (3.4.4)
  tag_embedded_cbor = 24,     ///< a byte string holding one encoded item (3.4.5.1)
  tag_uuid = 37,              ///< 16 bytes (RFC 9562 / IANA registry)
  tag_epoch_days = 100,       ///< days since 1970-01-01, integer (RFC 8943)
  tag_full_date = 1004,       ///< RFC 3339 full-date text "YYYY-MM-DD" (RFC 8943)
  tag_self_described = 55799  ///< self-described CBOR marker (3.4.6)
};

/// A point in time: `seconds` since 1970-01-01T00:00:00Z (UTC, negative
/// before), plus `nanoseconds` (0..999,999,999, always added: -0.5 s is
/// seconds -1, nanoseconds 500,000,000), plus the UTC offset it was (or is to
/// be) written with in RFC 3339 form, in minutes (-1439..1439; the local time
/// is seconds + 60 * offset_minutes). Leap seconds are not counted (POSIX
/// time); a parsed ":60" is the second after ":59".
struct time_value {
  int64_t seconds = 0;
  uint32_t nanoseconds = 0;
  int32_t offset_minutes = 0;
};

/// Days since 1970-01-01 of a proleptic Gregorian date (month 1..12, day 1..31, unchecked).
/// Exact for every date whose day count fits int64_t (the years civil_from_days
/// gives, within +-2.53e16); for other years the result is unspecified (but
/// there is no overflow: any int64_t year may be passed).
int64_t days_from_civil(int64_t year, unsigned month, unsigned day) noexcept;
/// The date of a day count (the inverse of days_from_civil), for every int64_t
/// day count (before 0.5, counts within 719468 of INT64_MAX overflowed).
void civil_from_days(int64_t days, int64_t& year, unsigned& month, unsigned& day) noexcept;

/// Parses an RFC 3339 date-time ("1985-04-12T23:20:50.52Z", "1996-12-19T16:39:57-08:00"):
/// 'T'/'t', 'Z'/'z', 1 to 9 fraction digits, offsets up to 23:59, seconds up
/// to 60, days checked against the month (leap years included). Returns ok or
/// out_of_range with *error_pos (optional) at the first bad character (the
/// text's size when it ends early).
status parse_rfc3339(std::string_view text, time_value& out, size_t* error_pos = nullptr) noexcept;
/// Parses an RFC 3339 full-date "YYYY-MM-DD" into days since 1970-01-01 (as parse_rfc3339).
status parse_full_date(std::string_view text, int64_t& days, size_t* error_pos = nullptr) noexcept;

/// Longest format_rfc3339() output: "YYYY-MM-DDTHH:MM:SS.fffffffff+HH:MM".
constexpr size_t k_rfc3339_max = 35;
/// Writes t as RFC 3339 text at out (room for k_rfc3339_max bytes; no NUL):
/// the local time of t.offset_minutes, then "Z" (offset 0) or "+HH:MM".
/// fraction_digits 0..9 gives that many digits (truncated toward the past);
/// -1 gives as few as keep the nanoseconds exactly (none for whole seconds).
/// Returns the length, or 0 (out_of_range) for a year outside 0..9999, an
/// offset beyond +-23:59, nanoseconds >= 10^9 or digits outside -1..9.
size_t format_rfc3339(const time_value& t, char* out, int fraction_digits = -1) noexcept;

// ---- reading document nodes ----------------------------------------------------

/// Tag 0 (RFC 3339 text), 1 (epoch seconds: an integer, or a float whose
/// fraction becomes nanoseconds, rounded to nearest from the exact value, ties
/// away from zero for either sign), 100 (days) or 1004
/// (full-date): the time (tags 100 and 1004: midnight UTC of that day).
/// Returns ok; invalid_argument (null node); type_mismatch; out_of_range
/// (bad text, a non-finite float, or seconds beyond int64) with *error.
status get_time(node n, time_value& out, error_info* error = nullptr) noexcept;
/// Tag 100 or 1004: days since 1970-01-01 (statuses as get_time).
status get_date(node n, int64_t& days, error_info* error = nullptr) noexcept;

/// A decimal fraction (tag 4) or bigfloat (tag 5): mantissa * base^exponent.
struct decimal_value {
  uint64_t tag = 0;  ///< 4 or 5
  int64_t exponent = 0;
  /// The mantissa as node::get_bignum gives it: an integer (raw, negative;
  /// magnitude empty) or a bignum (magnitude: big-endian bytes; raw 0).
  uint64_t raw = 0;
  byte_view magnitude;
  bool negative = false;
};
/// Tags 4 and 5 over [exponent, mantissa]: exponent a major type 0/1 integer
/// within int64 (out_of_range beyond), mantissa an integer or tag 2/3 bignum.
status get_decimal(node n, decimal_value& out, error_info* error = nullptr) noexcept;
/// Tag 37 over exactly 16 bytes: *bytes points at them (out_of_range for another length).
status get_uuid(node n, const uint8_t*& bytes, error_info* error = nullptr) noexcept;
/// Tag 24 over a byte string: its content, the encoded item (decode it to read it).
status get_embedded(node n, byte_view& out) noexcept;
/// n without any self-described CBOR tags (55799) around it.
node skip_self_described(node n) noexcept;

// ---- writing -----------------------------------------------------------------------

/// Tag 0 over format_rfc3339(t, fraction_digits). invalid_argument where
/// format_rfc3339 fails (nothing written); else the writer's status.
status write_time_string(writer& w, const time_value& t, int fraction_digits = -1) noexcept;
/// Tag 1: the integer seconds when nanoseconds is 0, else the float
/// seconds + nanoseconds / 10^9 (shortest exact width of that double, so
/// precision below about a microsecond is lost for present-day times).
/// invalid_argument (nothing written) for nanoseconds >= 10^9, and for a
/// fraction whose double rounds to 2^63 seconds or more (seconds within
/// about 512 of INT64_MAX), which get_time() could not read back.
status write_time_epoch(writer& w, const time_value& t) noexcept;
/// Tag 100 over the integer days.
status write_epoch_days(writer& w, int64_t days) noexcept;
/// Tag 1004 over "YYYY-MM-DD"; invalid_argument for a year outside 0..9999.
status write_full_date(writer& w, int64_t days) noexcept;
/// Tag 4 (base 10) or 5 (base 2) over [exponent, mantissa].
status write_decimal(writer& w, uint64_t tag, int64_t exponent, int64_t mantissa) noexcept;
/// As write_decimal with a big-endian magnitude (negative: -1 - magnitude,
/// as write_bignum), written as an integer when it fits 64 bits.
status write_decimal(writer& w, uint64_t tag, int64_t exponent, const uint8_t* magnitude,
                     size_t size, bool negative) noexcept;
/// Tag 37 over the 16 bytes at uuid (invalid_argument for nullptr).
status write_uuid(writer& w, const uint8_t* uuid) noexcept;
/// Tag 55799 (d9 d9f7): the next item is the self-described one.
status write_self_described(writer& w) noexcept;

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_TAGS_HPP
