// Tags as values (include/cbor_fast/tags.hpp) and the writer's embedded-CBOR
// wrap (writer::begin_embedded / end_embedded): exact bytes from RFC 8949
// Appendix A, RFC 3339 and RFC 8943 examples, and boundary rows.
#include <gtest/gtest.h>

#include <limits>

#include <string>
#include <vector>

#include "cbor_fast/tags.hpp"
#include "unit/document_test_util.hpp"

namespace cbor_fast {
namespace {

using doc_test::bytes;
using doc_test::hex;
using doc_test::to_hex;

std::string text_hex(const std::string& s) {
  return to_hex(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

struct parsed {
  status code;
  time_value t;
  size_t pos;
};
parsed parse(const char* s) {
  parsed p{status::ok, {}, 0};
  p.code = parse_rfc3339(s, p.t, &p.pos);
  return p;
}

TEST(Rfc3339, ValidRows) {
  struct row {
    const char* text;
    int64_t seconds;
    uint32_t ns;
    int32_t offset;
  };
  const row rows[] = {
      {"1970-01-01T00:00:00Z", 0, 0, 0},
      {"1970-01-01t00:00:00z", 0, 0, 0},
      {"1969-12-31T23:59:59.5Z", -1, 500000000, 0},
      {"1969-12-31T23:59:59.999999999Z", -1, 999999999, 0},
      {"1970-01-01T00:00:00.000000001Z", 0, 1, 0},
      {"2013-03-21T20:04:00Z", 1363896240, 0, 0},                    // RFC 8949 Appendix A
      {"1985-04-12T23:20:50.52Z", 482196050, 520000000, 0},          // RFC 3339 5.8
      {"1996-12-19T16:39:57-08:00", 851042397, 0, -480},             // RFC 3339 5.8
      {"1990-12-31T23:59:60Z", 662688000, 0, 0},                     // leap second: the next second
      {"1937-01-01T12:00:27.87+00:20", -1041337173, 870000000, 20},  // RFC 3339 5.8
      {"2000-02-29T00:00:00Z", 951782400, 0, 0},                     // leap year (400)
      {"2400-02-29T00:00:00Z", 13574563200, 0, 0},
      {"2024-02-29T23:59:59+23:59", 1709164859, 0, 1439},
      {"0000-01-01T00:00:00Z", -62167219200, 0, 0},
      {"9999-12-31T23:59:59Z", 253402300799, 0, 0},
      {"1970-01-01T00:00:00-00:00", 0, 0, 0},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.text);
    const parsed p = parse(r.text);
    ASSERT_EQ(p.code, status::ok);
    EXPECT_EQ(p.t.seconds, r.seconds);
    EXPECT_EQ(p.t.nanoseconds, r.ns);
    EXPECT_EQ(p.t.offset_minutes, r.offset);
  }
}

TEST(Rfc3339, BadRowsWithPositions) {
  struct row {
    const char* text;
    size_t pos;
  };
  const row rows[] = {
      {"", 0},
      {"2013-03-21 20:04:00Z", 10},  // space instead of T
      {"2013-03-21T20:04:00", 19},   // no offset
      {"2013-3-21T20:04:00Z", 6},    // one-digit month
      {"2013-00-21T20:04:00Z", 5},   // month 0
      {"2013-13-21T20:04:00Z", 5},   // month 13
      {"2013-03-32T20:04:00Z", 8},   // day 32
      {"2013-03-00T20:04:00Z", 8},   // day 0
      {"1900-02-29T00:00:00Z", 8},   // not a leap year (100)
      {"2023-02-29T00:00:00Z", 8},
      {"2100-02-29T00:00:00Z", 8},
      {"2023-04-31T00:00:00Z", 8},
      {"2013-03-21T24:00:00Z", 11},             // hour 24
      {"2013-03-21T20:60:00Z", 14},             // minute 60
      {"2013-03-21T20:04:61Z", 17},             // second 61
      {"2013-03-21T20:04:00.Z", 20},            // no fraction digits
      {"2013-03-21T20:04:00.1234567891Z", 29},  // a tenth fraction digit
      {"2013-03-21T20:04:00+24:00", 20},        // offset hour 24
      {"2013-03-21T20:04:00+05:60", 23},        // offset minute 60
      {"2013-03-21T20:04:00+0530", 22},         // no colon
      {"2013-03-21T20:04:00Zx", 20},            // trailing text
      {"2013-03-21T20:04:00X", 19},
      {"+2013-03-21T20:04:00Z", 0},
      {"2013-03-21T20:04", 16},  // ends early
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.text);
    const parsed p = parse(r.text);
    EXPECT_EQ(p.code, status::out_of_range);
    EXPECT_EQ(p.pos, r.pos);
  }
}

TEST(Rfc3339, Format) {
  char buf[k_rfc3339_max];
  const auto fmt = [&](time_value t, int digits = -1) {
    const size_t n = format_rfc3339(t, buf, digits);
    return std::string(buf, n);
  };
  EXPECT_EQ(fmt({0, 0, 0}), "1970-01-01T00:00:00Z");
  EXPECT_EQ(fmt({-1, 500000000, 0}), "1969-12-31T23:59:59.5Z");
  EXPECT_EQ(fmt({1363896240, 0, 0}), "2013-03-21T20:04:00Z");
  EXPECT_EQ(fmt({851042397, 0, -480}), "1996-12-19T16:39:57-08:00");
  EXPECT_EQ(fmt({0, 0, 330}), "1970-01-01T05:30:00+05:30");
  EXPECT_EQ(fmt({0, 123456789, 0}, 3), "1970-01-01T00:00:00.123Z");
  EXPECT_EQ(fmt({0, 123456789, 0}, 0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(fmt({0, 1, 0}), "1970-01-01T00:00:00.000000001Z");
  EXPECT_EQ(fmt({0, 0, 0}, 9), "1970-01-01T00:00:00.000000000Z");
  EXPECT_EQ(fmt({951782400, 0, 0}), "2000-02-29T00:00:00Z");
  EXPECT_EQ(fmt({-62167219200, 0, 0}), "0000-01-01T00:00:00Z");
  EXPECT_EQ(fmt({253402300799, 999999999, 0}), "9999-12-31T23:59:59.999999999Z");
  EXPECT_EQ(fmt({253402300799, 0, -1439}), "9999-12-31T00:00:59-23:59");
  EXPECT_EQ(format_rfc3339({253402300800, 0, 0}, buf), 0u);  // year 10000
  EXPECT_EQ(format_rfc3339({-62167219201, 0, 0}, buf), 0u);  // year -1
  EXPECT_EQ(format_rfc3339({253402300799, 0, 1}, buf), 0u);  // local year 10000
  EXPECT_EQ(format_rfc3339({0, 1000000000, 0}, buf), 0u);
  EXPECT_EQ(format_rfc3339({0, 0, 1440}, buf), 0u);
  EXPECT_EQ(format_rfc3339({0, 0, 0}, buf, 10), 0u);
  EXPECT_EQ(format_rfc3339({INT64_MIN, 0, 0}, buf), 0u);
  EXPECT_EQ(format_rfc3339({INT64_MAX, 0, -1439}, buf), 0u);
  // Round trips.
  for (const char* s :
       {"1985-04-12T23:20:50.52Z", "1996-12-19T16:39:57-08:00", "1937-01-01T12:00:27.87+00:20"}) {
    time_value t;
    ASSERT_EQ(parse_rfc3339(s, t), status::ok);
    EXPECT_EQ(fmt(t), s);
  }
}

TEST(Rfc3339, CivilDays) {
  EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(days_from_civil(1969, 12, 31), -1);
  EXPECT_EQ(days_from_civil(1940, 10, 9), -10676);  // RFC 8943
  EXPECT_EQ(days_from_civil(2000, 3, 1), 11017);
  EXPECT_EQ(days_from_civil(0, 1, 1), -719528);
  EXPECT_EQ(days_from_civil(9999, 12, 31), 2932896);
  int64_t y;
  unsigned m, d;
  for (int64_t z : {int64_t(-719528), int64_t(-10676), int64_t(-1), int64_t(0), int64_t(11016),
                    int64_t(2932896)}) {
    civil_from_days(z, y, m, d);
    EXPECT_EQ(days_from_civil(y, m, d), z);
  }
  // Every int64_t day count (its last 719468 values overflowed: UBSan
  // reported signed overflow for a tag 100 of 2^63 - 1 days), and back.
  const int64_t k_max = std::numeric_limits<int64_t>::max();
  const int64_t k_min = std::numeric_limits<int64_t>::min();
  for (int64_t z : {k_max, k_max - 719468, k_max - 719469, k_max - 146097, k_min, k_min + 1,
                    k_min + 146097, int64_t(-146097), int64_t(146096)}) {
    SCOPED_TRACE(z);
    civil_from_days(z, y, m, d);
    EXPECT_GE(m, 1u);
    EXPECT_LE(m, 12u);
    EXPECT_GE(d, 1u);
    EXPECT_LE(d, 31u);
    EXPECT_EQ(days_from_civil(y, m, d), z);
  }
  // The last day, 2^63 - 1 days after 1970-01-01: Python's datetime on the
  // count less whole 400-year cycles of 146097 days, the cycles' years added.
  civil_from_days(k_max, y, m, d);
  EXPECT_EQ(y, 25252734927768524);
  EXPECT_EQ(m, 7u);
  EXPECT_EQ(d, 27u);
  // Any year may be passed (INT64_MIN's y - 399 overflowed): no overflow,
  // and the years that have a day count are exact up to the bound.
  (void)days_from_civil(k_min, 1, 1);
  (void)days_from_civil(k_max, 12, 31);
  civil_from_days(11016, y, m, d);
  EXPECT_EQ(y, 2000);
  EXPECT_EQ(m, 2u);
  EXPECT_EQ(d, 29u);
}

struct got_time {
  status code;
  time_value t;
  size_t offset;
};
got_time time_of(const char* h) {
  const bytes in = hex(h);
  document d;
  got_time g{status::ok, {}, 0};
  if (decode(in.data(), in.size(), d) != status::ok) {
    g.code = status::internal_error;
    return g;
  }
  error_info e;
  g.code = get_time(d.root(), g.t, &e);
  g.offset = e.offset;
  return g;
}

TEST(TimeTags, Read) {
  // RFC 8949 Appendix A.
  got_time g = time_of("c074323031332d30332d32315432303a30343a30305a");
  ASSERT_EQ(g.code, status::ok);
  EXPECT_EQ(g.t.seconds, 1363896240);
  g = time_of("c11a514b67b0");
  ASSERT_EQ(g.code, status::ok);
  EXPECT_EQ(g.t.seconds, 1363896240);
  g = time_of("c1fb41d452d9ec200000");
  ASSERT_EQ(g.code, status::ok);
  EXPECT_EQ(g.t.seconds, 1363896240);
  EXPECT_EQ(g.t.nanoseconds, 500000000u);
  // Negative epochs, integer and float.
  g = time_of("c120");
  EXPECT_EQ(g.t.seconds, -1);
  g = time_of("c1f9be00");  // -1.5
  EXPECT_EQ(g.t.seconds, -2);
  EXPECT_EQ(g.t.nanoseconds, 500000000u);
  g = time_of("c13b7fffffffffffffff");
  ASSERT_EQ(g.code, status::ok);
  EXPECT_EQ(g.t.seconds, INT64_MIN);
  // Fractions near half a nanosecond, against the exact value (Python's
  // Fraction of the double, times 10^9, rounded half away from zero): the
  // product rounded before llround, and v + 1 for a small negative v, were
  // 1 ns off.
  struct frac_row {
    const char* name;
    const char* hex;
    int64_t seconds;
    uint32_t ns;
  } rows[] = {
      {"5e-10", "c1fb3e012e0be826d695", 0, 1},
      {"-5e-10", "c1fbbe012e0be826d695", -1, 999999999},
      {"-1.0000000005", "c1fbbff0000000225c18", -2, 999999999},
      {"2.8345493915", "c1fb4006ad283b3b1d15", 2, 834549391},
      {"0.6836261025", "c1fb3fe5e043d91dbe01", 0, 683626102},
      {"2^-10: 976562.5 ns, a tie, away from zero", "c1fb3f50000000000000", 0, 976563},
      {"-2^-10: the same tie, as far from zero", "c1fbbf50000000000000", -1, 999023437},
      {"-0.5", "c1fbbfe0000000000000", -1, 500000000},
  };
  for (const frac_row& r : rows) {
    SCOPED_TRACE(r.name);
    g = time_of(r.hex);
    ASSERT_EQ(g.code, status::ok);
    EXPECT_EQ(g.t.seconds, r.seconds);
    EXPECT_EQ(g.t.nanoseconds, r.ns);
  }
  // Beyond int64 / not finite.
  g = time_of("c11b8000000000000000");
  EXPECT_EQ(g.code, status::out_of_range);
  EXPECT_EQ(g.offset, 1u);
  g = time_of("c1f97e00");
  EXPECT_EQ(g.code, status::out_of_range);
  g = time_of("c1f97c00");
  EXPECT_EQ(g.code, status::out_of_range);
  g = time_of("c1fb43e0000000000000");  // 2^63
  EXPECT_EQ(g.code, status::out_of_range);
  // RFC 8943: 1940-10-09 as days and as full-date.
  g = time_of("d8643929b3");
  ASSERT_EQ(g.code, status::ok);
  EXPECT_EQ(g.t.seconds, -10676 * 86400);
  g = time_of("d903ec6a313934302d31302d3039");
  ASSERT_EQ(g.code, status::ok);
  EXPECT_EQ(g.t.seconds, -10676 * 86400);
  g = time_of("d8641b7fffffffffffffff");  // days * 86400 overflows
  EXPECT_EQ(g.code, status::out_of_range);
  // Bad text: the offset is the bad byte (content starts after the 1-byte head).
  g = time_of("c074323031332d31332d32315432303a30343a30305a");  // month 13
  EXPECT_EQ(g.code, status::out_of_range);
  EXPECT_EQ(g.offset, 2u + 5u);
  g = time_of("c0 73 323031332d30332d32315432303a30343a3030");  // no offset
  EXPECT_EQ(g.code, status::out_of_range);
  EXPECT_EQ(g.offset, 2u + 19u);
  g = time_of("d903ec6a313930302d30322d3239");  // 1900-02-29
  EXPECT_EQ(g.code, status::out_of_range);
  EXPECT_EQ(g.offset, 4u + 8u);
  // Wrong types.
  EXPECT_EQ(time_of("c001").code, status::type_mismatch);
  EXPECT_EQ(time_of("c16161").code, status::type_mismatch);
  EXPECT_EQ(time_of("c201").code, status::type_mismatch);
  EXPECT_EQ(time_of("01").code, status::type_mismatch);
  time_value t;
  EXPECT_EQ(get_time(node(), t), status::invalid_argument);
  int64_t days = 0;
  document d;
  const bytes in = hex("d8643929b3");
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  ASSERT_EQ(get_date(d.root(), days), status::ok);
  EXPECT_EQ(days, -10676);
}

std::string written(status (*fn)(writer&)) {
  writer w;
  EXPECT_EQ(fn(w), status::ok);
  return to_hex(w.data(), w.size());
}

TEST(TimeTags, Write) {
  EXPECT_EQ(written([](writer& w) {
              return write_time_string(w, {1363896240, 0, 0});
            }),
            "c074" + text_hex("2013-03-21T20:04:00Z"));
  EXPECT_EQ(written([](writer& w) {
              return write_time_epoch(w, {1363896240, 0, 0});
            }),
            "c11a514b67b0");
  EXPECT_EQ(written([](writer& w) {
              return write_time_epoch(w, {1363896240, 500000000, 0});
            }),
            "c1fb41d452d9ec200000");
  EXPECT_EQ(written([](writer& w) { return write_time_epoch(w, {-1, 0, 0}); }), "c120");
  EXPECT_EQ(written([](writer& w) { return write_time_epoch(w, {-2, 500000000, 0}); }), "c1f9be00");
  EXPECT_EQ(written([](writer& w) { return write_epoch_days(w, -10676); }), "d8643929b3");
  EXPECT_EQ(written([](writer& w) { return write_full_date(w, -10676); }),
            "d903ec6a" + text_hex("1940-10-09"));
  EXPECT_EQ(written([](writer& w) { return write_full_date(w, 0); }),
            "d903ec6a" + text_hex("1970-01-01"));
  writer w;
  EXPECT_EQ(write_full_date(w, 2932897), status::invalid_argument);
  EXPECT_EQ(write_time_string(w, {0, 0, 0}, 12), status::invalid_argument);
  EXPECT_EQ(write_time_epoch(w, {0, 1000000000, 0}), status::invalid_argument);
  EXPECT_EQ(w.size(), 0u);
}

// A fraction near INT64_MAX seconds: the double below 2^63 is 2^63 - 1024.
// INT64_MAX - 511 (= 2^63 - 512) is the tie that rounds to even, 2^63, which
// get_time() refuses: nothing is written from there up.
TEST(TimeTags, WriteEpochFractionNearTheLargestSecond) {
  struct row {
    const char* name;
    int64_t seconds;
    const char* hex;  // nullptr: invalid_argument
  };
  const row rows[] = {
      {"last that rounds down", INT64_MAX - 512, "c1fb43dfffffffffffff"},
      {"first that rounds to 2^63", INT64_MAX - 511, nullptr},
      {"largest", INT64_MAX, nullptr},
      {"smallest", INT64_MIN, "c1fadf000000"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.name);
    writer w;
    const status s = write_time_epoch(w, {r.seconds, 500000000, 0});
    if (r.hex == nullptr) {
      EXPECT_EQ(s, status::invalid_argument);
      EXPECT_EQ(w.size(), 0u);
      continue;
    }
    ASSERT_EQ(s, status::ok);
    EXPECT_EQ(to_hex(w.data(), w.size()), r.hex);
    document d;
    ASSERT_EQ(decode(w.data(), w.size(), d), status::ok);
    time_value back{1, 2, 3};
    ASSERT_EQ(get_time(d.root(), back), status::ok);
    EXPECT_EQ(back.seconds, r.seconds == INT64_MIN ? INT64_MIN : INT64_MAX - 1023);
    EXPECT_EQ(back.nanoseconds, 0u);
  }
  writer w;  // whole seconds stay an integer at every value
  EXPECT_EQ(write_time_epoch(w, {INT64_MAX, 0, 0}), status::ok);
  EXPECT_EQ(to_hex(w.data(), w.size()), "c11b7fffffffffffffff");
}

TEST(DecimalTags, ReadAndWrite) {
  // RFC 8949 3.4.4: 273.15 = 4([-2, 27315]); 1.5 = 5([-1, 3]).
  EXPECT_EQ(written([](writer& w) { return write_decimal(w, 4, -2, 27315); }), "c48221196ab3");
  EXPECT_EQ(written([](writer& w) { return write_decimal(w, 5, -1, 3); }), "c5822003");
  const uint8_t mag[] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(written([](writer& w) {
              const uint8_t m[] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
              return write_decimal(w, 4, INT64_MIN, m, sizeof m, true);
            }),
            "c4823b7fffffffffffffffc349010000000000000000");
  EXPECT_EQ(written([](writer& w) {
              const uint8_t m[] = {0, 0, 5};
              return write_decimal(w, 5, 0, m, sizeof m, false);
            }),
            "c5820005");
  writer w;
  EXPECT_EQ(write_decimal(w, 6, 0, 1), status::invalid_argument);
  EXPECT_EQ(write_decimal(w, 4, 0, nullptr, 1, false), status::invalid_argument);

  document d;
  decimal_value v;
  error_info e;
  bytes in = hex("c48221196ab3");
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  ASSERT_EQ(get_decimal(d.root(), v), status::ok);
  EXPECT_EQ(v.tag, 4u);
  EXPECT_EQ(v.exponent, -2);
  EXPECT_EQ(v.raw, 27315u);
  EXPECT_FALSE(v.negative);
  EXPECT_EQ(v.magnitude.data, nullptr);
  in = hex("c4823b7fffffffffffffffc349010000000000000000");
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  ASSERT_EQ(get_decimal(d.root(), v), status::ok);
  EXPECT_EQ(v.exponent, INT64_MIN);
  EXPECT_TRUE(v.negative);
  EXPECT_EQ(doc_test::to_hex(v.magnitude.data, v.magnitude.size), to_hex(mag, sizeof mag));
  // Bad forms, with offsets.
  in = hex("c48301 02 03");  // three elements
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  EXPECT_EQ(get_decimal(d.root(), v, &e), status::out_of_range);
  EXPECT_EQ(e.offset, 1u);
  in = hex("c4821b8000000000000000 01");  // exponent beyond int64
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  EXPECT_EQ(get_decimal(d.root(), v, &e), status::out_of_range);
  EXPECT_EQ(e.offset, 2u);
  in = hex("c48201 6161");  // text mantissa
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  EXPECT_EQ(get_decimal(d.root(), v, &e), status::type_mismatch);
  EXPECT_EQ(e.offset, 3u);
  in = hex("c401");
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  EXPECT_EQ(get_decimal(d.root(), v), status::type_mismatch);
}

TEST(UuidAndEmbedded, ReadAndWrite) {
  const uint8_t id[16] = {0x8e, 0xc1, 0x2f, 0x73, 0x1d, 0x51, 0x4a, 0x4c,
                          0x9e, 0x3e, 0x6b, 0x19, 0x2c, 0x46, 0xf1, 0x2b};
  writer w;
  ASSERT_EQ(write_uuid(w, id), status::ok);
  EXPECT_EQ(to_hex(w.data(), w.size()), "d82550" + to_hex(id, 16));
  EXPECT_EQ(write_uuid(w, nullptr), status::invalid_argument);
  document d;
  ASSERT_EQ(decode(w.data(), w.size(), d), status::ok);
  const uint8_t* p = nullptr;
  ASSERT_EQ(get_uuid(d.root(), p), status::ok);
  EXPECT_EQ(to_hex(p, 16), to_hex(id, 16));
  bytes in = hex("d8254f000102030405060708090a0b0c0d0e");  // 15 bytes
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  error_info e;
  EXPECT_EQ(get_uuid(d.root(), p, &e), status::out_of_range);
  EXPECT_EQ(e.offset, 2u);
  in = hex("d8256161");
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  EXPECT_EQ(get_uuid(d.root(), p), status::type_mismatch);
  // RFC 8949 Appendix A: 24(h'6449455446').
  in = hex("d818456449455446");
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  byte_view inner;
  ASSERT_EQ(get_embedded(d.root(), inner), status::ok);
  EXPECT_EQ(to_hex(inner.data, inner.size), "6449455446");
  in = hex("d81801");
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  EXPECT_EQ(get_embedded(d.root(), inner), status::type_mismatch);
}

TEST(SelfDescribed, WriteAndSkip) {
  writer w;
  ASSERT_EQ(write_self_described(w), status::ok);
  ASSERT_EQ(w.write_uint(1), status::ok);
  EXPECT_EQ(to_hex(w.data(), w.size()), "d9d9f701");
  document d;
  ASSERT_EQ(decode(w.data(), w.size(), d), status::ok);
  EXPECT_EQ(d.root().type(), item_type::tag);
  EXPECT_EQ(skip_self_described(d.root()).type(), item_type::unsigned_int);
  // The decode flag: the root is the item inside the marker(s).
  const bytes twice = hex("d9d9f7 d9d9f7 82 01 02");
  decode_options o;
  o.flags = decode_skip_self_described;
  ASSERT_EQ(decode(twice.data(), twice.size(), d, o), status::ok);
  EXPECT_EQ(d.root().type(), item_type::array);
  EXPECT_EQ(d.root().size(), 2u);
  EXPECT_EQ(d.root().offset(), 6u);
  EXPECT_EQ(d.encoded_size(), twice.size());
  writer out;
  ASSERT_EQ(encode(d, out), status::ok);
  EXPECT_EQ(to_hex(out.data(), out.size()), "820102");
  // A sequence of marked items, one document each.
  const bytes seq_in = hex("d9d9f7 01 d9d9f7 6161 02");
  sequence seq(seq_in.data(), seq_in.size());
  uint64_t u = 0;
  ASSERT_EQ(seq.next_document(d, decode_skip_self_described), status::ok);
  ASSERT_EQ(d.root().get_uint64(u), status::ok);
  EXPECT_EQ(u, 1u);
  ASSERT_EQ(seq.next_document(d, decode_skip_self_described), status::ok);
  EXPECT_EQ(d.root().type(), item_type::text_string);
  EXPECT_EQ(d.root().offset(), 7u);
  size_t off = 0, len = 0;
  ASSERT_EQ(seq.next(off, len, decode_skip_self_described), status::ok);
  EXPECT_EQ(off, 9u);
  EXPECT_EQ(len, 1u);
  // Other tags stay.
  const bytes other = hex("c101");
  ASSERT_EQ(decode(other.data(), other.size(), d, o), status::ok);
  EXPECT_EQ(d.root().type(), item_type::tag);
  // decode(reader&) takes the flag too (its header said only
  // decode_copy_strings acted there); the strict flags are the reader's.
  const bytes marked = hex("d9d9f7 a2 01 01 01 02");
  reader r(marked.data(), marked.size());
  ASSERT_EQ(decode(r, d, decode_skip_self_described | decode_reject_duplicate_keys), status::ok);
  EXPECT_EQ(d.root().type(), item_type::map);
  EXPECT_EQ(d.root().offset(), 3u);
  reader plain(marked.data(), marked.size());
  ASSERT_EQ(decode(plain, d), status::ok);
  EXPECT_EQ(d.root().type(), item_type::tag);
  reader_options strict;
  strict.reject_duplicate_keys = true;
  reader checked(marked.data(), marked.size(), strict);
  error_info e;
  EXPECT_EQ(decode(checked, d, decode_skip_self_described, &e), status::duplicate_key);
  EXPECT_EQ(e.offset, 6u);
}

// ---- writer::begin_embedded / end_embedded ----------------------------------------

TEST(EmbeddedWriter, ExactBytes) {
  writer w;
  ASSERT_EQ(w.begin_embedded(), status::ok);
  ASSERT_EQ(w.write_uint(1), status::ok);
  ASSERT_EQ(w.end_embedded(), status::ok);
  ASSERT_EQ(w.begin_embedded(false), status::ok);
  ASSERT_EQ(w.write_text("IETF"), status::ok);
  ASSERT_EQ(w.end_embedded(), status::ok);
  ASSERT_EQ(w.begin_embedded(false), status::ok);  // nothing inside: h''
  ASSERT_EQ(w.end_embedded(), status::ok);
  ASSERT_EQ(w.finish(), status::ok);
  EXPECT_EQ(to_hex(w.data(), w.size()),
            "d8184101"
            "456449455446"
            "40");
}

TEST(EmbeddedWriter, LengthBoundaries) {
  struct row {
    size_t content;  // bytes inside the wrap
    const char* head;
  };
  // A byte string of n - 1 or n - 2 ... content: the wrapped item is one
  // byte string whose encoding is exactly `content` bytes long.
  for (const row r : {row{23, "57"}, row{24, "5818"}, row{255, "58ff"}, row{256, "590100"},
                      row{65535, "59ffff"}, row{65536, "5a00010000"}}) {
    SCOPED_TRACE(r.content);
    // An array of `content - 1` zeros (head sizes differ): build the exact size from uints.
    writer w;
    ASSERT_EQ(w.begin_embedded(false), status::ok);
    for (size_t i = 0; i < r.content; ++i) ASSERT_EQ(w.write_uint(0), status::ok);
    ASSERT_EQ(w.end_embedded(), status::ok);
    ASSERT_EQ(w.finish(), status::ok);
    const std::string h = r.head;
    ASSERT_EQ(w.size(), h.size() / 2 + r.content);
    EXPECT_EQ(to_hex(w.data(), h.size() / 2), h);
    EXPECT_EQ(w.data()[w.size() - 1], 0u);
  }
}

TEST(EmbeddedWriter, CoseSigStructureNestedAndAllDestinations) {
  // Sig_structure = ["Signature1", bstr .cbor {1: -7}, h'', payload], with an
  // embedded 24(<<"a">>) nested in a wrapped array too.
  const auto build = [](writer& w) {
    // Every call's status, ok or (for a small caller buffer) buffer_too_small.
    status worst = status::ok;
    const auto c = [&worst](status s) {
      if (s != status::ok && worst == status::ok) worst = s;
    };
    c(w.begin_array(5));
    c(w.write_text("Signature1"));
    c(w.begin_embedded(false));
    c(w.begin_map(1));
    c(w.write_uint(1));
    c(w.write_int(-7));
    c(w.end());
    c(w.end_embedded());
    c(w.write_bytes("", 0));
    c(w.write_bytes("test", 4));
    c(w.begin_embedded(false));
    c(w.begin_array(2));
    c(w.write_uint(1));
    c(w.begin_embedded(true));
    c(w.write_text("a"));
    c(w.end_embedded());
    c(w.end());
    c(w.end_embedded());
    c(w.end());
    return worst;
  };
  const std::string want =
      "85"
      "6a" +
      text_hex("Signature1") +
      "43a10126"
      "40"
      "4474657374" +
      "47"
      "8201d8184261"
      "61";
  writer owned;
  ASSERT_EQ(build(owned), status::ok);
  ASSERT_EQ(owned.finish(), status::ok);
  EXPECT_EQ(to_hex(owned.data(), owned.size()), want);
  // Caller buffer, exact size and too small (the size needed is exact).
  std::vector<uint8_t> buf(want.size() / 2);
  writer fixed(buf.data(), buf.size());
  ASSERT_EQ(build(fixed), status::ok);
  ASSERT_EQ(fixed.finish(), status::ok);
  EXPECT_EQ(to_hex(buf.data(), buf.size()), want);
  for (size_t cap : {size_t(0), size_t(5), size_t(14), size_t(20), buf.size() - 1}) {
    SCOPED_TRACE(cap);
    std::vector<uint8_t> small(cap + 1);
    writer s(small.data(), cap);
    EXPECT_EQ(build(s), status::buffer_too_small);
    EXPECT_EQ(s.finish(), status::buffer_too_small);
    EXPECT_EQ(s.size(), buf.size());
  }
  // Sink in 3-byte chunks: nothing goes out while a wrap is open.
  struct sink_state {
    std::string out;
    int calls = 0;
  } st;
  writer sink(
      [](void* ctx, const uint8_t* p, size_t n) {
        auto* s = static_cast<sink_state*>(ctx);
        s->out += to_hex(p, n);
        ++s->calls;
        return 0;
      },
      &st, 3);
  ASSERT_EQ(build(sink), status::ok);
  ASSERT_EQ(sink.finish(), status::ok);
  EXPECT_EQ(st.out, want);
  EXPECT_GT(st.calls, 1);
}

TEST(EmbeddedWriter, Misuse) {
  writer w;
  EXPECT_EQ(w.end_embedded(), status::invalid_state);  // nothing open
  ASSERT_EQ(w.begin_embedded(false), status::ok);
  ASSERT_EQ(w.begin_array(1), status::ok);
  EXPECT_EQ(w.end_embedded(), status::invalid_state);  // innermost is the array; not sticky
  ASSERT_EQ(w.write_uint(1), status::ok);
  ASSERT_EQ(w.end(), status::ok);
  EXPECT_EQ(w.finish(), status::writer_unclosed);
  writer w2;
  ASSERT_EQ(w2.begin_embedded(false), status::ok);
  ASSERT_EQ(w2.write_uint(1), status::ok);
  ASSERT_EQ(w2.end(), status::ok);  // end() closes a wrap too
  ASSERT_EQ(w2.finish(), status::ok);
  EXPECT_EQ(to_hex(w2.data(), w2.size()), "4101");
  // Inside a definite array the wrap is one item.
  writer w3;
  ASSERT_EQ(w3.begin_array(1), status::ok);
  ASSERT_EQ(w3.begin_embedded(), status::ok);
  ASSERT_EQ(w3.end_embedded(), status::ok);
  EXPECT_EQ(w3.write_uint(1), status::writer_count_mismatch);
}

}  // namespace
}  // namespace cbor_fast
