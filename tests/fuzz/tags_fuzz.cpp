// tags_fuzz: tags as values (cbor_fast/tags.hpp and the C shims of capi/src/tags.cpp).
//  1. (a clear) The input as CBOR: decode it, then ask every node for a time, a
//     date, a decimal fraction or bigfloat, a UUID and embedded CBOR. Each
//     answer is checked against what the node holds (the text against the
//     model below, the epoch number against the seconds and nanoseconds read),
//     every error's offset lies inside the input, the C API answers the same,
//     and each value read is written with the tag writers, decoded and read
//     again to the same value.
//  2. (a set) The input as text: parse_rfc3339() and parse_full_date() against
//     a model written apart from src/ (the grammar of RFC 3339 section 5.6 as
//     the library restricts it, ranges checked field by field, the day count
//     summed from year and month lengths), with the same error position; what
//     parses is formatted with every fraction width and parsed back.
// Never a crash, a hang, undefined behaviour or an answer the node does not hold.
//
// Input: configuration byte (fuzz_util.hpp; a: text mode; b: the document
// keeps copies of its strings; the depth code is decode's max_depth), then the
// bytes.
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include "cbor_fast.h"
#include "cbor_fast/document.hpp"
#include "cbor_fast/tags.hpp"
#include "cbor_fast/writer.hpp"
#include "fuzz_util.hpp"

using namespace cbor_fast_fuzz;
using cbor_fast::error_info;
using cbor_fast::item_type;
using cbor_fast::node;
using cbor_fast::status;
using cbor_fast::time_value;

namespace {

// ---- the model of RFC 3339 text ------------------------------------------------

/// What the model makes of a text: ok with the time, or the position of the
/// first character that cannot be part of a valid text (a field that reads as
/// digits but is out of range fails at its first digit).
struct model_time {
  bool ok = false;
  size_t error_pos = 0;
  int64_t days = 0;  // since 1970-01-01
  time_value t;
};

bool model_leap(int64_t y) { return y % 400 == 0 || (y % 4 == 0 && y % 100 != 0); }

/// Days from 0000-01-01 to the first day of year y (0 <= y <= 9999): the
/// lengths of the years before it, the leap years among them counted one by one
/// in blocks (a different route from days_from_civil's eras).
int64_t model_days_before_year(int64_t y) {
  const int64_t fours = (y + 3) / 4;        // multiples of 4 in [0, y)
  const int64_t hundreds = (y + 99) / 100;  // of 100
  const int64_t four_hundreds = (y + 399) / 400;
  return 365 * y + fours - hundreds + four_hundreds;
}

int64_t model_days(int64_t y, unsigned m, unsigned d) {
  static const unsigned lengths[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int64_t n = model_days_before_year(y);
  for (unsigned i = 1; i < m; ++i) n += lengths[i - 1] + (i == 2 && model_leap(y) ? 1 : 0);
  n += d - 1;
  return n - model_days_before_year(1970);
}

struct model_cursor {
  std::string_view s;
  size_t pos = 0;
  bool failed = false;
  size_t fail_pos = 0;

  void fail_at(size_t p) {
    if (!failed) {
      failed = true;
      fail_pos = p;
    }
  }
  bool is_digit(size_t p) const { return p < s.size() && s[p] >= '0' && s[p] <= '9'; }
  /// Exactly n digits.
  unsigned number(size_t n) {
    unsigned v = 0;
    for (size_t i = 0; i < n && !failed; ++i) {
      if (!is_digit(pos)) {
        fail_at(pos);
        return 0;
      }
      v = v * 10 + unsigned(s[pos] - '0');
      ++pos;
    }
    return v;
  }
  void literal(char a, char b) {
    if (failed) return;
    if (pos < s.size() && (s[pos] == a || s[pos] == b)) {
      ++pos;
      return;
    }
    fail_at(pos);
  }
  /// A number of n digits within [lo, hi]: out of range fails at its start.
  unsigned field(size_t n, unsigned lo, unsigned hi) {
    const size_t at = pos;
    const unsigned v = number(n);
    if (!failed && (v < lo || v > hi)) fail_at(at);
    return v;
  }
};

/// full-date = date-fullyear "-" date-month "-" date-mday
void model_date(model_cursor& c, model_time& out) {
  const unsigned y = c.number(4);
  c.literal('-', '-');
  const unsigned m = c.field(2, 1, 12);
  c.literal('-', '-');
  static const unsigned lengths[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const unsigned last = c.failed ? 31 : lengths[m - 1] + (m == 2 && model_leap(y) ? 1 : 0);
  const unsigned d = c.field(2, 1, last);
  if (!c.failed) out.days = model_days(y, m, d);
}

model_time model_full_date(std::string_view s) {
  model_cursor c{s};
  model_time out;
  model_date(c, out);
  if (!c.failed && c.pos != s.size()) c.fail_at(c.pos);
  out.ok = !c.failed;
  out.error_pos = c.fail_pos;
  return out;
}

/// date-time = full-date ("T"/"t") HH ":" MM ":" SS ["." 1*9DIGIT] ("Z"/"z" / ("+"/"-") HH ":" MM)
model_time model_rfc3339(std::string_view s) {
  model_cursor c{s};
  model_time out;
  model_date(c, out);
  c.literal('T', 't');
  const unsigned hh = c.field(2, 0, 23);
  c.literal(':', ':');
  const unsigned mm = c.field(2, 0, 59);
  c.literal(':', ':');
  const unsigned ss = c.field(2, 0, 60);
  uint32_t ns = 0;
  if (!c.failed && c.pos < s.size() && s[c.pos] == '.') {
    ++c.pos;
    size_t n = 0;
    while (c.is_digit(c.pos)) {
      if (n == 9) {
        c.fail_at(c.pos);  // a tenth digit: finer than a nanosecond
        break;
      }
      ns = ns * 10 + uint32_t(s[c.pos] - '0');
      ++c.pos;
      ++n;
    }
    if (n == 0) c.fail_at(c.pos);
    for (; n < 9; ++n) ns *= 10;
  }
  int32_t offset = 0;
  if (!c.failed) {
    if (c.pos < s.size() && (s[c.pos] == 'Z' || s[c.pos] == 'z')) {
      ++c.pos;
    } else if (c.pos < s.size() && (s[c.pos] == '+' || s[c.pos] == '-')) {
      const int32_t sign = s[c.pos] == '-' ? -1 : 1;
      ++c.pos;
      const unsigned oh = c.field(2, 0, 23);
      c.literal(':', ':');
      const unsigned om = c.field(2, 0, 59);
      offset = sign * int32_t(oh * 60 + om);
    } else {
      c.fail_at(c.pos);
    }
  }
  if (!c.failed && c.pos != s.size()) c.fail_at(c.pos);
  out.ok = !c.failed;
  out.error_pos = c.fail_pos;
  if (out.ok) {
    // A leap second (":60") is the second after ":59": plain arithmetic.
    out.t.seconds = out.days * 86400 + int64_t(hh) * 3600 + int64_t(mm) * 60 + int64_t(ss) -
                    int64_t(offset) * 60;
    out.t.nanoseconds = ns;
    out.t.offset_minutes = offset;
  }
  return out;
}

/// The C status of a C++ one: the same numbers (status.def).
cbor_fast_status to_c_status(status s) { return static_cast<cbor_fast_status>(s); }

bool same_time(const time_value& a, const time_value& b) {
  return a.seconds == b.seconds && a.nanoseconds == b.nanoseconds &&
         a.offset_minutes == b.offset_minutes;
}

/// t formatted with every fraction width parses back to t, its nanoseconds
/// cut to that many digits (toward the past: the digits are the leading ones).
void check_format_round_trip(const time_value& t) {
  char buf[cbor_fast::k_rfc3339_max];
  const size_t n = cbor_fast::format_rfc3339(t, buf);
  // Outside the years 0000..9999 of local time there is no text.
  const int64_t local = t.seconds + int64_t(t.offset_minutes) * 60;
  const bool in_range = local >= -62167219200 && local <= 253402300799;
  FUZZ_CHECK((n != 0) == in_range);
  if (n == 0) return;
  FUZZ_CHECK(n <= cbor_fast::k_rfc3339_max);
  time_value back;
  FUZZ_CHECK(cbor_fast::parse_rfc3339(std::string_view(buf, n), back) == status::ok);
  FUZZ_CHECK(same_time(back, t));
  const model_time m = model_rfc3339(std::string_view(buf, n));
  FUZZ_CHECK(m.ok && same_time(m.t, t));
  uint32_t unit = 1000000000;
  for (int digits = 0; digits <= 9; ++digits, unit /= 10) {
    const size_t k = cbor_fast::format_rfc3339(t, buf, digits);
    FUZZ_CHECK(k == (digits == 0 ? 20 : 21 + size_t(digits)) + (t.offset_minutes == 0 ? 0 : 5));
    FUZZ_CHECK(cbor_fast::parse_rfc3339(std::string_view(buf, k), back) == status::ok);
    const time_value cut{t.seconds, t.nanoseconds / unit * unit, t.offset_minutes};
    FUZZ_CHECK(same_time(back, cut));
  }
  // The C API formats the same bytes, and parses them to the same time.
  cbor_fast_time ct = CBOR_FAST_TIME_INIT;
  ct.seconds = t.seconds;
  ct.nanoseconds = t.nanoseconds;
  ct.offset_minutes = t.offset_minutes;
  char cbuf[64];
  const size_t cn = cbor_time_format(&ct, -1, cbuf, sizeof cbuf);
  FUZZ_CHECK(cbor_fast::format_rfc3339(t, buf) == n);  // buf held the cut forms
  FUZZ_CHECK(cn == n && std::memcmp(cbuf, buf, n) == 0);
  FUZZ_CHECK(cbor_time_format(&ct, -1, cbuf, n - 1) == 0);  // no room: nothing
}

void text_mode(const uint8_t* data, size_t size) {
  const std::string_view s(reinterpret_cast<const char*>(data), size);
  const model_time m = model_rfc3339(s);
  time_value t{7, 8, 9};
  size_t pos = SIZE_MAX;
  const status st = cbor_fast::parse_rfc3339(s, t, &pos);
  FUZZ_CHECK((st == status::ok) == m.ok);
  if (st == status::ok) {
    FUZZ_CHECK(same_time(t, m.t));
    FUZZ_CHECK(pos == SIZE_MAX);  // untouched on success
    check_format_round_trip(t);
  } else {
    FUZZ_CHECK(st == status::out_of_range);
    FUZZ_CHECK(pos == m.error_pos);
    FUZZ_CHECK(t.seconds == 7 && t.nanoseconds == 8 && t.offset_minutes == 9);
  }
  // The C shim gives the same answer.
  cbor_fast_time ct = CBOR_FAST_TIME_INIT;
  size_t cpos = SIZE_MAX;
  const cbor_fast_status cs = cbor_time_parse(s.data(), s.size(), &ct, &cpos);
  FUZZ_CHECK(cs == (m.ok ? CBOR_FAST_OK : CBOR_FAST_ERR_OUT_OF_RANGE));
  if (m.ok)
    FUZZ_CHECK(ct.seconds == m.t.seconds && ct.nanoseconds == m.t.nanoseconds &&
               ct.offset_minutes == m.t.offset_minutes);
  else
    FUZZ_CHECK(cpos == m.error_pos);

  const model_time md = model_full_date(s);
  int64_t days = -7;
  pos = SIZE_MAX;
  const status sd = cbor_fast::parse_full_date(s, days, &pos);
  FUZZ_CHECK((sd == status::ok) == md.ok);
  if (md.ok) {
    FUZZ_CHECK(days == md.days);
    // Written as tag 1004 and read back.
    cbor_fast::writer w;
    FUZZ_CHECK(cbor_fast::write_full_date(w, days) == status::ok);
    FUZZ_CHECK(w.size() == 3 + 1 + 10);
    FUZZ_CHECK(std::memcmp(w.data() + 4, data, 10) == 0);
  } else {
    FUZZ_CHECK(pos == md.error_pos && days == -7);
  }
}

// ---- the input as CBOR -------------------------------------------------------

/// Offset of a text string's content as tags.hpp defines it: its head at the
/// shortest size.
size_t content_offset(const node& text_node, size_t length) {
  const size_t head = length < 24             ? 1
                      : length <= 0xff        ? 2
                      : length <= 0xffff      ? 3
                      : length <= 0xffffffffu ? 5
                                              : 9;
  return text_node.offset() + head;
}

/// Decodes the writer's bytes (one item) into doc and returns its root.
node read_back(const cbor_fast::writer& w, cbor_fast::document& doc) {
  cbor_fast::decode_options o;
  o.max_depth = 8;
  FUZZ_CHECK(cbor_fast::decode(w.data(), w.size(), doc, o) == status::ok);
  return doc.root();
}

/// What a C tag writer writes into a fresh writer (its status in *status).
template <class F>
std::string c_written(F write, cbor_fast_status* status) {
  cbor_writer* cw = nullptr;
  FUZZ_CHECK(cbor_writer_new(nullptr, &cw) == CBOR_FAST_OK);
  *status = write(cw);
  std::string out;
  if (*status == CBOR_FAST_OK) {
    const uint8_t* p = nullptr;
    size_t n = 0;
    FUZZ_CHECK(cbor_writer_finish(cw, &p, &n) == CBOR_FAST_OK);
    out.assign(reinterpret_cast<const char*>(p), n);
  }
  cbor_writer_free(cw);
  return out;
}

/// The C writer gives the bytes (and status) the C++ writer gave.
template <class F>
void check_c_writer(const cbor_fast::writer& w, status s, F write) {
  cbor_fast_status cs;
  const std::string got = c_written(write, &cs);
  FUZZ_CHECK(int(cs) == int(s));
  if (s == status::ok)
    FUZZ_CHECK(got == std::string(reinterpret_cast<const char*>(w.data()), w.size()));
}

/// The magnitude of a decimal's mantissa, big-endian without leading zeros.
std::vector<uint8_t> magnitude_of(const cbor_fast::decimal_value& v) {
  std::vector<uint8_t> out;
  if (v.magnitude.size != 0) {
    out.assign(v.magnitude.data, v.magnitude.data + v.magnitude.size);
  } else {
    for (int i = 7; i >= 0; --i) out.push_back(uint8_t(v.raw >> (8 * i)));
  }
  size_t z = 0;
  while (z < out.size() && out[z] == 0) ++z;
  out.erase(out.begin(), out.begin() + long(z));
  return out;
}

void check_time(const node& n, size_t input_size) {
  time_value t{3, 4, 5};
  error_info e;
  const status s = cbor_fast::get_time(n, t, &e);
  uint64_t tag = 0;
  const bool is_tag = n.get_tag(tag) == status::ok;
  const node c = is_tag ? n.tag_content() : node();

  // The C API's answer is the same.
  cbor_fast_time ct = CBOR_FAST_TIME_INIT;
  cbor_fast_error ce{};
  const cbor_fast_status cs =
      cbor_node_get_time(reinterpret_cast<const cbor_node*>(n.raw()), &ct, &ce);
  FUZZ_CHECK(cs == to_c_status(s));

  if (s != status::ok) {
    FUZZ_CHECK(s == status::type_mismatch || s == status::out_of_range);
    FUZZ_CHECK(e.code == s && e.offset <= input_size);
    FUZZ_CHECK(ce.offset == e.offset);
    FUZZ_CHECK(t.seconds == 3 && t.nanoseconds == 4 && t.offset_minutes == 5);
    if (!is_tag || (tag != 0 && tag != 1 && tag != 100 && tag != 1004)) {
      FUZZ_CHECK(s == status::type_mismatch && e.offset == n.offset());
      return;
    }
    std::string_view text;
    if (tag == 0 && c.get_text(text) == status::ok) {
      const model_time m = model_rfc3339(text);
      FUZZ_CHECK(!m.ok && s == status::out_of_range);
      FUZZ_CHECK(e.offset == content_offset(c, text.size()) + m.error_pos);
    }
    if (tag == 1004) {
      if (c.get_text(text) == status::ok) {
        const model_time m = model_full_date(text);
        FUZZ_CHECK(!m.ok && s == status::out_of_range);
        FUZZ_CHECK(e.offset == content_offset(c, text.size()) + m.error_pos);
      } else {
        FUZZ_CHECK(s == status::type_mismatch && e.offset == c.offset());
      }
    }
    if (tag == 100) {
      int64_t v = 0;
      const status is = c.get_int64(v);
      // Not an int64: the integer getter's status; else days beyond int64 seconds.
      FUZZ_CHECK(is != status::ok ? s == is : s == status::out_of_range);
      FUZZ_CHECK(e.offset == c.offset());
    }
    if (tag == 100 || tag == 1004) {
      // get_date() refuses the same content at the same place, unless only
      // the seconds overflowed.
      int64_t days = 0;
      error_info de;
      const status dst = cbor_fast::get_date(n, days, &de);
      if (dst != status::ok) FUZZ_CHECK(dst == s && de.offset == e.offset);
      int64_t cdays = 0;
      cbor_fast_error dce = CBOR_FAST_ERROR_INIT;
      FUZZ_CHECK(int(cbor_node_get_date(reinterpret_cast<const cbor_node*>(n.raw()), &cdays,
                                        &dce)) == int(dst));
      if (dst != status::ok) FUZZ_CHECK(dce.offset == de.offset);
    }
    if (tag == 1 && c.type() == item_type::floating) {
      double v = 0;
      FUZZ_CHECK(c.get_double(v) == status::ok);
      FUZZ_CHECK(s == status::out_of_range && e.offset == c.offset());
      // Only a NaN, an infinity or seconds beyond int64 are refused.
      FUZZ_CHECK(!(std::fabs(v) < 9.2e18));
    }
    return;
  }
  FUZZ_CHECK(is_tag);
  FUZZ_CHECK(ct.seconds == t.seconds && ct.nanoseconds == t.nanoseconds &&
             ct.offset_minutes == t.offset_minutes);
  FUZZ_CHECK(t.nanoseconds < 1000000000u);
  FUZZ_CHECK(t.offset_minutes >= -1439 && t.offset_minutes <= 1439);
  switch (tag) {
    case 0: {
      std::string_view text;
      FUZZ_CHECK(c.get_text(text) == status::ok);
      const model_time m = model_rfc3339(text);
      FUZZ_CHECK(m.ok && same_time(m.t, t));
      break;
    }
    case 1: {
      FUZZ_CHECK(t.offset_minutes == 0);
      if (c.type() == item_type::floating) {
        double v = 0;
        FUZZ_CHECK(c.get_double(v) == status::ok);
        FUZZ_CHECK(std::isfinite(v));
        if (v == std::floor(v)) {
          // Whole seconds: exactly the number (a double this large is an
          // integer, and int64 holds it).
          FUZZ_CHECK(t.nanoseconds == 0 && double(t.seconds) == v);
        } else {
          // |v| < 2^52: the seconds and the fraction rounded to the nearest
          // nanosecond (a carry into the next second included).
          const long double exact = (static_cast<long double>(v) - t.seconds) * 1e9L;
          FUZZ_CHECK(std::fabs(exact - t.nanoseconds) <= 0.5L + 1e-6L);
        }
      } else {
        int64_t v = 0;
        FUZZ_CHECK(c.get_int64(v) == status::ok);
        FUZZ_CHECK(t.seconds == v && t.nanoseconds == 0);
      }
      break;
    }
    default: {  // 100, 1004
      int64_t days = 0;
      FUZZ_CHECK(cbor_fast::get_date(n, days) == status::ok);
      FUZZ_CHECK(t.seconds == days * 86400 && t.nanoseconds == 0 && t.offset_minutes == 0);
      int64_t cdays = 0;
      FUZZ_CHECK(cbor_node_get_date(reinterpret_cast<const cbor_node*>(n.raw()), &cdays, nullptr) ==
                     CBOR_FAST_OK &&
                 cdays == days);
      if (tag == 1004) {
        std::string_view text;
        FUZZ_CHECK(c.get_text(text) == status::ok);
        const model_time m = model_full_date(text);
        FUZZ_CHECK(m.ok && m.days == days);
      }
      cbor_fast::writer w;
      FUZZ_CHECK(cbor_fast::write_epoch_days(w, days) == status::ok);
      check_c_writer(w, status::ok,
                     [&](cbor_writer* cw) { return cbor_writer_epoch_days(cw, days); });
      cbor_fast::writer wd;
      const status fs = cbor_fast::write_full_date(wd, days);
      FUZZ_CHECK((fs == status::ok) == (days >= -719528 && days <= 2932896));  // 0000..9999
      check_c_writer(wd, fs, [&](cbor_writer* cw) { return cbor_writer_full_date(cw, days); });
      cbor_fast::document doc;
      int64_t back = 0;
      FUZZ_CHECK(cbor_fast::get_date(read_back(w, doc), back) == status::ok && back == days);
      break;
    }
  }
  check_format_round_trip(t);

  // Tag 0 and tag 1 as the library writes them read back to the same time
  // (tag 1 as a float only as close as a double holds it).
  cbor_fast_time ct_in = CBOR_FAST_TIME_INIT;
  ct_in.seconds = t.seconds;
  ct_in.nanoseconds = t.nanoseconds;
  ct_in.offset_minutes = t.offset_minutes;
  {
    cbor_fast::writer w;
    const status ws = cbor_fast::write_time_string(w, t);
    check_c_writer(w, ws, [&](cbor_writer* cw) { return cbor_writer_time_string(cw, &ct_in, -1); });
    char buf[cbor_fast::k_rfc3339_max];
    FUZZ_CHECK((ws == status::ok) == (cbor_fast::format_rfc3339(t, buf) != 0));
    if (ws == status::ok) {
      cbor_fast::document doc;
      time_value back;
      FUZZ_CHECK(cbor_fast::get_time(read_back(w, doc), back) == status::ok);
      FUZZ_CHECK(same_time(back, t));
    } else {
      FUZZ_CHECK(ws == status::invalid_argument && w.size() == 0);
    }
  }
  {
    cbor_fast::writer w;
    FUZZ_CHECK(cbor_fast::write_time_epoch(w, t) == status::ok);
    check_c_writer(w, status::ok,
                   [&](cbor_writer* cw) { return cbor_writer_time_epoch(cw, &ct_in); });
    cbor_fast::document doc;
    time_value back{1, 2, 3};
    const status bs = cbor_fast::get_time(read_back(w, doc), back);
    FUZZ_CHECK(bs == status::ok);
    if (t.nanoseconds == 0) {
      FUZZ_CHECK(back.seconds == t.seconds && back.nanoseconds == 0);
    } else {
      // seconds + nanoseconds / 10^9 as a double (nanoseconds come only from
      // text, years 0..9999, or from an epoch float below 2^52): as close as
      // the double holds it.
      const long double want = static_cast<long double>(t.seconds) + t.nanoseconds / 1e9L;
      const long double got = static_cast<long double>(back.seconds) + back.nanoseconds / 1e9L;
      FUZZ_CHECK(std::fabs(want - got) <= std::fabs(want) * 0x1p-52L + 1e-9L);
    }
  }
}

void check_others(const node& n, size_t input_size) {
  const auto* cn = reinterpret_cast<const cbor_node*>(n.raw());
  uint64_t tag = 0;
  const bool is_tag = n.get_tag(tag) == status::ok;

  // Decimal fractions and bigfloats.
  cbor_fast::decimal_value d;
  error_info e;
  const status ds = cbor_fast::get_decimal(n, d, &e);
  {
    uint64_t ctag = 0;
    int64_t cexp = 0;
    uint64_t craw = 0;
    const uint8_t* cmag = nullptr;
    size_t cmag_size = 0;
    int cneg = 0;
    const cbor_fast_status cs =
        cbor_node_get_decimal(cn, &ctag, &cexp, &craw, &cmag, &cmag_size, &cneg, nullptr);
    FUZZ_CHECK(cs == to_c_status(ds));
    if (ds == status::ok)
      FUZZ_CHECK(ctag == d.tag && cexp == d.exponent && craw == d.raw && cmag == d.magnitude.data &&
                 cmag_size == d.magnitude.size && (cneg != 0) == d.negative);
  }
  if (ds == status::ok) {
    FUZZ_CHECK(is_tag && (tag == 4 || tag == 5) && d.tag == tag);
    cbor_fast::writer w;
    const std::vector<uint8_t> mag = magnitude_of(d);
    FUZZ_CHECK(cbor_fast::write_decimal(w, d.tag, d.exponent, mag.data(), mag.size(), d.negative) ==
               status::ok);
    check_c_writer(w, status::ok, [&](cbor_writer* cw) {
      return cbor_writer_decimal_bignum(cw, d.tag, d.exponent, mag.data(), mag.size(),
                                        d.negative ? 1 : 0);
    });
    // A mantissa within int64 through the integer writers too.
    if (d.magnitude.size == 0 && d.raw <= uint64_t(INT64_MAX)) {
      const int64_t mantissa = d.negative ? -1 - int64_t(d.raw) : int64_t(d.raw);
      cbor_fast::writer wi;
      FUZZ_CHECK(cbor_fast::write_decimal(wi, d.tag, d.exponent, mantissa) == status::ok);
      FUZZ_CHECK(wi.size() == w.size() && std::memcmp(wi.data(), w.data(), w.size()) == 0);
      check_c_writer(wi, status::ok, [&](cbor_writer* cw) {
        return cbor_writer_decimal(cw, d.tag, d.exponent, mantissa);
      });
    }
    cbor_fast::document doc;
    cbor_fast::decimal_value back;
    FUZZ_CHECK(cbor_fast::get_decimal(read_back(w, doc), back) == status::ok);
    FUZZ_CHECK(back.tag == d.tag && back.exponent == d.exponent && back.negative == d.negative);
    FUZZ_CHECK(magnitude_of(back) == mag);
  } else {
    FUZZ_CHECK(ds == status::type_mismatch || ds == status::out_of_range);
    FUZZ_CHECK(e.code == ds && e.offset <= input_size);
  }

  // UUIDs: 16 bytes of the input.
  const uint8_t* uuid = nullptr;
  const status us = cbor_fast::get_uuid(n, uuid, &e);
  {
    const uint8_t* cu = nullptr;
    cbor_fast_error ue = CBOR_FAST_ERROR_INIT;
    FUZZ_CHECK(int(cbor_node_get_uuid(cn, &cu, &ue)) == int(us));
    if (us == status::ok)
      FUZZ_CHECK(cu == uuid);
    else
      FUZZ_CHECK(ue.offset == e.offset);
  }
  if (us == status::ok) {
    FUZZ_CHECK(is_tag && tag == 37 && uuid != nullptr);
    cbor_fast::byte_view b;
    FUZZ_CHECK(n.tag_content().get_bytes(b) == status::ok && b.data == uuid && b.size == 16);
    cbor_fast::writer w;
    FUZZ_CHECK(cbor_fast::write_uuid(w, uuid) == status::ok);
    check_c_writer(w, status::ok, [&](cbor_writer* cw) { return cbor_writer_uuid(cw, uuid); });
    cbor_fast::document doc;
    const uint8_t* back = nullptr;
    FUZZ_CHECK(cbor_fast::get_uuid(read_back(w, doc), back) == status::ok);
    FUZZ_CHECK(std::memcmp(back, uuid, 16) == 0);
  } else {
    FUZZ_CHECK((us == status::type_mismatch || us == status::out_of_range) && e.code == us &&
               e.offset <= input_size);
  }

  // Embedded CBOR: the byte string's content.
  cbor_fast::byte_view emb;
  const status es = cbor_fast::get_embedded(n, emb);
  {
    const uint8_t* cd = nullptr;
    size_t cs = 0;
    FUZZ_CHECK(int(cbor_node_get_embedded(cn, &cd, &cs)) == int(es));
    if (es == status::ok) FUZZ_CHECK(cd == emb.data && cs == emb.size);
  }
  if (es == status::ok) {
    cbor_fast::byte_view b;
    FUZZ_CHECK(is_tag && tag == 24 && n.tag_content().get_bytes(b) == status::ok &&
               b.data == emb.data && b.size == emb.size);
  } else {
    FUZZ_CHECK(es == status::type_mismatch);
  }

  // Without its self-described markers a node is not one.
  const node inner = cbor_fast::skip_self_described(n);
  uint64_t inner_tag = 0;
  FUZZ_CHECK(inner);
  FUZZ_CHECK(inner.get_tag(inner_tag) != status::ok || inner_tag != 55799);
  FUZZ_CHECK(reinterpret_cast<const cbor_node*>(inner.raw()) == cbor_node_skip_self_described(cn));
}

void document_mode(const uint8_t* data, size_t size, const config& c) {
  cbor_fast::decode_options o;
  o.max_depth = c.max_depth;
  if (c.utf8) o.flags |= cbor_fast::decode_validate_utf8;
  if (c.b) o.flags |= cbor_fast::decode_copy_strings;
  cbor_fast::document doc;
  if (cbor_fast::decode(data, size, doc, o) != status::ok) return;
  // Every node, depth first, with a stack of our own (no recursion on depth).
  std::vector<node> todo{doc.root()};
  size_t visited = 0;
  while (!todo.empty()) {
    const node n = todo.back();
    todo.pop_back();
    ++visited;
    check_time(n, size);
    check_others(n, size);
    if (n.type() == item_type::tag) {
      todo.push_back(n.tag_content());
    } else if (n.type() == item_type::array || n.type() == item_type::map) {
      for (node k = n.first_child(); k; k = k.next_sibling()) todo.push_back(k);
    }
  }
  FUZZ_CHECK(visited >= 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const config c = take_config(data, size);
  if (c.a)
    text_mode(data, size);
  else
    document_mode(data, size, c);
  return 0;
}
