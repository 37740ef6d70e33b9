// Tags as values (see include/cbor_fast/tags.hpp).
#include "cbor_fast/tags.hpp"

#include <cmath>
#include <cstring>

#include "cbor_fast/document.hpp"

namespace cbor_fast {
inline namespace v1 {

namespace {

constexpr int64_t k_day = 86400;

bool is_leap(int64_t y) noexcept { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(int64_t y, unsigned m) noexcept {
  static const unsigned k[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : k[m - 1];
}

/// Floor division and the matching non-negative remainder.
inline int64_t floor_div(int64_t a, int64_t b) noexcept {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/// A text parser that remembers where it failed.
struct cursor {
  std::string_view s;
  size_t pos = 0;
  bool ok = true;

  /// n decimal digits as a number; on failure the position of the bad one.
  unsigned digits(size_t n) noexcept {
    unsigned v = 0;
    for (size_t i = 0; i < n; ++i) {
      if (!ok) return 0;
      if (pos >= s.size() || s[pos] < '0' || s[pos] > '9') {
        ok = false;
        return 0;
      }
      v = v * 10 + unsigned(s[pos++] - '0');
    }
    return v;
  }
  void expect(char c, char alt = 0) noexcept {
    if (!ok) return;
    if (pos >= s.size() || (s[pos] != c && (alt == 0 || s[pos] != alt))) {
      ok = false;
      return;
    }
    ++pos;
  }
  /// A field that parsed but is out of range: fail at its first character.
  void bad_at(size_t at) noexcept {
    if (ok) {
      ok = false;
      pos = at;
    }
  }
};

/// "YYYY-MM-DD" at c; the day count.
int64_t parse_date_part(cursor& c) noexcept {
  const unsigned y = c.digits(4);
  c.expect('-');
  const size_t month_at = c.pos;
  const unsigned m = c.digits(2);
  if (c.ok && (m < 1 || m > 12)) c.bad_at(month_at);
  c.expect('-');
  const size_t day_at = c.pos;
  const unsigned d = c.digits(2);
  if (c.ok && (d < 1 || d > days_in_month(y, m))) c.bad_at(day_at);
  return c.ok ? days_from_civil(y, m, d) : 0;
}

status fail(error_info* error, status s, size_t offset) noexcept {
  if (error != nullptr) *error = error_info{s, offset, offset, 0};
  return s;
}

/// Offset of a definite text/byte string's content: its head at shortest size.
size_t content_offset(node n) noexcept {
  uint64_t len = 0;
  std::string_view t;
  byte_view b;
  if (n.get_text(t) == status::ok)
    len = t.size();
  else if (n.get_bytes(b) == status::ok)
    len = b.size;
  const size_t head = len < 24             ? 1
                      : len <= 0xff        ? 2
                      : len <= 0xffff      ? 3
                      : len <= 0xffffffffu ? 5
                                           : 9;
  return n.offset() + head;
}

/// The tag number of n and its content, or type_mismatch/invalid_argument.
status tag_of(node n, uint64_t& tag, node& content) noexcept {
  if (!n) return status::invalid_argument;
  if (n.get_tag(tag) != status::ok) return status::type_mismatch;
  content = n.tag_content();
  return status::ok;
}

size_t put2(char* out, unsigned v) noexcept {
  out[0] = char('0' + v / 10);
  out[1] = char('0' + v % 10);
  return 2;
}

}  // namespace

int64_t days_from_civil(int64_t y, unsigned m, unsigned d) noexcept {
  // Years past +-2^55 give no day count that fits (civil_from_days' years
  // stay within +-2.53e16): clamped, so that nothing below overflows (y - 399
  // at INT64_MIN and era * 146097 did). The sum is taken modulo 2^64: exact
  // whenever the day count fits, though era * 146097 alone may not (at the
  // last 719468 days before INT64_MAX).
  constexpr int64_t k_year_bound = int64_t(1) << 55;
  if (y > k_year_bound) y = k_year_bound;
  if (y < -k_year_bound) y = -k_year_bound;
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = unsigned(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const uint64_t days = uint64_t(era) * 146097u + doe - 719468u;
  int64_t out;
  std::memcpy(&out, &days, sizeof out);
  return out;
}

void civil_from_days(int64_t z, int64_t& year, unsigned& month, unsigned& day) noexcept {
  // Eras of 146097 days from 0000-03-01, which is day -719468: the count from
  // there (z + 719468) is split into eras without being formed, since it
  // overflowed for the last 719468 values of int64_t (a tag 100 of 2^63 - 1
  // days, which get_date() accepts).
  int64_t era = z / 146097;
  int64_t rem = z % 146097;
  if (rem < 0) {
    rem += 146097;
    --era;
  }
  rem += 719468;
  era += rem / 146097;
  const auto doe = unsigned(rem % 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = int64_t(yoe) + era * 400;  // |era| < 2^63 / 146097 + 6: fits
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  day = doy - (153 * mp + 2) / 5 + 1;
  month = mp < 10 ? mp + 3 : mp - 9;
  year = y + (month <= 2);
}

status parse_rfc3339(std::string_view text, time_value& out, size_t* error_pos) noexcept {
  cursor c{text};
  const int64_t days = parse_date_part(c);
  c.expect('T', 't');
  const size_t hour_at = c.pos;
  const unsigned hh = c.digits(2);
  if (c.ok && hh > 23) c.bad_at(hour_at);
  c.expect(':');
  const size_t minute_at = c.pos;
  const unsigned mm = c.digits(2);
  if (c.ok && mm > 59) c.bad_at(minute_at);
  c.expect(':');
  const size_t second_at = c.pos;
  const unsigned ss = c.digits(2);
  if (c.ok && ss > 60) c.bad_at(second_at);
  uint32_t ns = 0;
  if (c.ok && c.pos < text.size() && text[c.pos] == '.') {
    ++c.pos;
    unsigned n = 0;
    while (c.pos < text.size() && text[c.pos] >= '0' && text[c.pos] <= '9') {
      if (n == 9) {  // finer than a nanosecond: not representable
        c.bad_at(c.pos);
        break;
      }
      ns = ns * 10 + uint32_t(text[c.pos++] - '0');
      ++n;
    }
    if (c.ok && n == 0) c.bad_at(c.pos);
    for (; n < 9; ++n) ns *= 10;
  }
  int32_t offset = 0;
  if (c.ok) {
    if (c.pos < text.size() && (text[c.pos] == 'Z' || text[c.pos] == 'z')) {
      ++c.pos;
    } else if (c.pos < text.size() && (text[c.pos] == '+' || text[c.pos] == '-')) {
      const bool minus = text[c.pos++] == '-';
      const size_t oh_at = c.pos;
      const unsigned oh = c.digits(2);
      if (c.ok && oh > 23) c.bad_at(oh_at);
      c.expect(':');
      const size_t om_at = c.pos;
      const unsigned om = c.digits(2);
      if (c.ok && om > 59) c.bad_at(om_at);
      offset = int32_t(oh * 60 + om) * (minus ? -1 : 1);
    } else {
      c.bad_at(c.pos);
    }
  }
  if (c.ok && c.pos != text.size()) c.bad_at(c.pos);
  if (!c.ok) {
    if (error_pos != nullptr) *error_pos = c.pos;
    return status::out_of_range;
  }
  out.seconds =
      days * k_day + int64_t(hh) * 3600 + int64_t(mm) * 60 + int64_t(ss) - int64_t(offset) * 60;
  out.nanoseconds = ns;
  out.offset_minutes = offset;
  return status::ok;
}

status parse_full_date(std::string_view text, int64_t& days, size_t* error_pos) noexcept {
  cursor c{text};
  const int64_t d = parse_date_part(c);
  if (c.ok && c.pos != text.size()) c.bad_at(c.pos);
  if (!c.ok) {
    if (error_pos != nullptr) *error_pos = c.pos;
    return status::out_of_range;
  }
  days = d;
  return status::ok;
}

size_t format_rfc3339(const time_value& t, char* out, int fraction_digits) noexcept {
  if (t.nanoseconds >= 1000000000u || t.offset_minutes < -1439 || t.offset_minutes > 1439 ||
      fraction_digits < -1 || fraction_digits > 9)
    return 0;
  // Local time, with the year range checked before anything can overflow.
  constexpr int64_t k_min = -62167219200;  // 0000-01-01T00:00:00Z
  constexpr int64_t k_max = 253402300799;  // 9999-12-31T23:59:59Z
  const int64_t local_min = k_min - int64_t(t.offset_minutes) * 60;
  const int64_t local_max = k_max - int64_t(t.offset_minutes) * 60;
  if (t.seconds < local_min || t.seconds > local_max) return 0;
  const int64_t local = t.seconds + int64_t(t.offset_minutes) * 60;
  const int64_t days = floor_div(local, k_day);
  const auto secs = unsigned(local - days * k_day);
  int64_t y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  char* p = out;
  p += put2(p, unsigned(y / 100));
  p += put2(p, unsigned(y % 100));
  *p++ = '-';
  p += put2(p, m);
  *p++ = '-';
  p += put2(p, d);
  *p++ = 'T';
  p += put2(p, secs / 3600);
  *p++ = ':';
  p += put2(p, secs / 60 % 60);
  *p++ = ':';
  p += put2(p, secs % 60);
  int digits = fraction_digits;
  if (digits < 0) {
    digits = 9;
    for (uint32_t ns = t.nanoseconds; digits > 0 && ns % 10 == 0; ns /= 10) --digits;
    if (t.nanoseconds == 0) digits = 0;
  }
  if (digits > 0) {
    *p++ = '.';
    uint32_t div = 100000000;
    for (int i = 0; i < digits; ++i, div /= 10) *p++ = char('0' + t.nanoseconds / div % 10);
  }
  if (t.offset_minutes == 0) {
    *p++ = 'Z';
  } else {
    const int32_t o = t.offset_minutes < 0 ? -t.offset_minutes : t.offset_minutes;
    *p++ = t.offset_minutes < 0 ? '-' : '+';
    p += put2(p, unsigned(o / 60));
    *p++ = ':';
    p += put2(p, unsigned(o % 60));
  }
  return size_t(p - out);
}

// ---- reading ---------------------------------------------------------------------

status get_date(node n, int64_t& days, error_info* error) noexcept {
  uint64_t tag;
  node c;
  if (status s = tag_of(n, tag, c); s != status::ok) return fail(error, s, n.offset());
  if (tag == tag_epoch_days) {
    int64_t v;
    const status s = c.get_int64(v);
    if (s != status::ok) return fail(error, s, c.offset());
    days = v;
    return status::ok;
  }
  if (tag == tag_full_date) {
    std::string_view text;
    if (c.get_text(text) != status::ok) return fail(error, status::type_mismatch, c.offset());
    size_t pos = 0;
    if (parse_full_date(text, days, &pos) != status::ok)
      return fail(error, status::out_of_range, content_offset(c) + pos);
    return status::ok;
  }
  return fail(error, status::type_mismatch, n.offset());
}

status get_time(node n, time_value& out, error_info* error) noexcept {
  uint64_t tag;
  node c;
  if (status s = tag_of(n, tag, c); s != status::ok) return fail(error, s, n.offset());
  switch (tag) {
    case tag_date_time_string: {
      std::string_view text;
      if (c.get_text(text) != status::ok) return fail(error, status::type_mismatch, c.offset());
      size_t pos = 0;
      if (parse_rfc3339(text, out, &pos) != status::ok)
        return fail(error, status::out_of_range, content_offset(c) + pos);
      return status::ok;
    }
    case tag_epoch_time: {
      if (c.type() == item_type::floating) {
        double v = 0;
        c.get_double(v);
        // [-2^63, 2^63): whole seconds fit int64 (NaN fails both tests).
        if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
          return fail(error, status::out_of_range, c.offset());
        // The magnitude's fraction in nanoseconds, rounded to nearest (ties
        // away from zero, for both signs) from the exact product: llround of
        // (v - floor(v)) * 1e9 rounded twice, and v + 1 for a small negative
        // v once more, so values near half a nanosecond came out 1 ns off.
        const bool negative = v < 0;
        const double a = negative ? -v : v;
        double whole = std::floor(a);
        const double frac = a - whole;  // exact: a < 1, or whole >= a / 2
        const double p = frac * 1e9;
        const double below = std::floor(p);
        auto ns = int64_t(below);
        const double rest = p - below;  // exact, as frac
        // A tie in the rounded product: what the rounding dropped decides.
        if (rest > 0.5 || (rest == 0.5 && std::fma(frac, 1e9, -p) >= 0)) ++ns;
        if (ns == 1000000000) {  // rounded up to the next second
          ns = 0;
          whole += 1;
        }
        if (negative) {  // -(whole + ns) as seconds and a nanosecond count in [0, 1e9)
          whole = -whole;
          if (ns != 0) {
            whole -= 1;
            ns = 1000000000 - ns;
          }
        }
        if (!(whole >= -9223372036854775808.0 && whole < 9223372036854775808.0))
          return fail(error, status::out_of_range, c.offset());
        out = time_value{int64_t(whole), uint32_t(ns), 0};
        return status::ok;
      }
      int64_t v;
      const status s = c.get_int64(v);
      if (s != status::ok) return fail(error, s, c.offset());
      out = time_value{v, 0, 0};
      return status::ok;
    }
    case tag_epoch_days:
    case tag_full_date: {
      int64_t days;
      if (status s = get_date(n, days, error); s != status::ok) return s;
      if (days > INT64_MAX / k_day || days < INT64_MIN / k_day)
        return fail(error, status::out_of_range, c.offset());
      out = time_value{days * k_day, 0, 0};
      return status::ok;
    }
    default: return fail(error, status::type_mismatch, n.offset());
  }
}

status get_decimal(node n, decimal_value& out, error_info* error) noexcept {
  uint64_t tag;
  node c;
  if (status s = tag_of(n, tag, c); s != status::ok) return fail(error, s, n.offset());
  if ((tag != tag_decimal_fraction && tag != tag_bigfloat) || c.type() != item_type::array)
    return fail(error, status::type_mismatch, n.offset());
  if (c.size() != 2) return fail(error, status::out_of_range, c.offset());
  const node e = c.at(0), m = c.at(1);
  int64_t exponent;
  if (status s = e.get_int64(exponent); s != status::ok) return fail(error, s, e.offset());
  decimal_value v;
  v.tag = tag;
  v.exponent = exponent;
  if (status s = m.get_bignum(v.raw, v.magnitude, v.negative); s != status::ok)
    return fail(error, s, m.offset());
  out = v;
  return status::ok;
}

status get_uuid(node n, const uint8_t*& bytes, error_info* error) noexcept {
  uint64_t tag;
  node c;
  if (status s = tag_of(n, tag, c); s != status::ok) return fail(error, s, n.offset());
  byte_view b;
  if (tag != tag_uuid || c.get_bytes(b) != status::ok)
    return fail(error, status::type_mismatch, n.offset());
  if (b.size != 16) return fail(error, status::out_of_range, c.offset());
  bytes = b.data;
  return status::ok;
}

status get_embedded(node n, byte_view& out) noexcept {
  uint64_t tag;
  node c;
  if (status s = tag_of(n, tag, c); s != status::ok) return s;
  if (tag != tag_embedded_cbor) return status::type_mismatch;
  return c.get_bytes(out);
}

node skip_self_described(node n) noexcept {
  uint64_t tag;
  while (n.get_tag(tag) == status::ok && tag == tag_self_described) n = n.tag_content();
  return n;
}

// ---- writing ---------------------------------------------------------------------

status write_time_string(writer& w, const time_value& t, int fraction_digits) noexcept {
  char buf[k_rfc3339_max];
  const size_t n = format_rfc3339(t, buf, fraction_digits);
  if (n == 0) return status::invalid_argument;
  if (status s = w.write_tag(tag_date_time_string);
      s != status::ok && s != status::buffer_too_small)
    return s;
  return w.write_text(std::string_view(buf, n));
}

status write_time_epoch(writer& w, const time_value& t) noexcept {
  if (t.nanoseconds >= 1000000000u) return status::invalid_argument;
  const double v = double(t.seconds) + double(t.nanoseconds) / 1e9;
  // Seconds near INT64_MAX with a fraction round up to 2^63, which get_time()
  // (whole seconds as int64) refuses: nothing is written for them.
  if (t.nanoseconds != 0 && !(v < 9223372036854775808.0)) return status::invalid_argument;
  if (status s = w.write_tag(tag_epoch_time); s != status::ok && s != status::buffer_too_small)
    return s;
  if (t.nanoseconds == 0) return w.write_int(t.seconds);
  return w.write_float(v);
}

status write_epoch_days(writer& w, int64_t days) noexcept {
  if (status s = w.write_tag(tag_epoch_days); s != status::ok && s != status::buffer_too_small)
    return s;
  return w.write_int(days);
}

status write_full_date(writer& w, int64_t days) noexcept {
  // 0000-01-01 .. 9999-12-31
  if (days < -719528 || days > 2932896) return status::invalid_argument;
  int64_t y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  char buf[10];
  put2(buf, unsigned(y / 100));
  put2(buf + 2, unsigned(y % 100));
  buf[4] = '-';
  put2(buf + 5, m);
  buf[7] = '-';
  put2(buf + 8, d);
  if (status s = w.write_tag(tag_full_date); s != status::ok && s != status::buffer_too_small)
    return s;
  return w.write_text(std::string_view(buf, sizeof buf));
}

namespace {
status decimal_head(writer& w, uint64_t tag, int64_t exponent) noexcept {
  if (tag != tag_decimal_fraction && tag != tag_bigfloat) return status::invalid_argument;
  status s = w.write_tag(tag);
  if (s == status::ok || s == status::buffer_too_small) s = w.begin_array(2);
  if (s == status::ok || s == status::buffer_too_small) s = w.write_int(exponent);
  return s;
}
inline bool going(status s) noexcept { return s == status::ok || s == status::buffer_too_small; }
}  // namespace

status write_decimal(writer& w, uint64_t tag, int64_t exponent, int64_t mantissa) noexcept {
  status s = decimal_head(w, tag, exponent);
  if (going(s)) s = w.write_int(mantissa);
  if (going(s)) s = w.end();
  return s;
}

status write_decimal(writer& w, uint64_t tag, int64_t exponent, const uint8_t* magnitude,
                     size_t size, bool negative) noexcept {
  if (magnitude == nullptr && size != 0) return status::invalid_argument;
  status s = decimal_head(w, tag, exponent);
  if (going(s)) s = w.write_bignum(magnitude, size, negative);
  if (going(s)) s = w.end();
  return s;
}

status write_uuid(writer& w, const uint8_t* uuid) noexcept {
  if (uuid == nullptr) return status::invalid_argument;
  status s = w.write_tag(tag_uuid);
  if (going(s)) s = w.write_bytes(uuid, 16);
  return s;
}

status write_self_described(writer& w) noexcept { return w.write_tag(tag_self_described); }

}  // namespace v1
}  // namespace cbor_fast
