// Diagnostic notation (src/diag/diag.cpp): RFC 8949 Appendix A, escapes,
// indefinite and empty forms, deep nesting, float layout.
#include "cbor_fast/diag.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace cbor_fast {
namespace {

/// Lowercase hex pairs; spaces between pairs are ignored.
std::string from_hex(const char* hex) {
  std::string bytes;
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  const char* p = hex;
  while (*p != '\0') {
    if (*p == ' ') {
      ++p;
      continue;
    }
    bytes += static_cast<char>(nibble(p[0]) * 16 + nibble(p[1]));
    p += 2;
  }
  return bytes;
}

/// Prints the first item of `hex` and checks that it was the only one.
std::string diag_one(const char* hex, const diag_options& options = {}) {
  const std::string bytes = from_hex(hex);
  reader r(std::string_view{bytes});
  std::string out;
  EXPECT_EQ(diag_next(r, out, options), status::ok) << hex;
  std::string rest;
  EXPECT_EQ(diag_next(r, rest, options), status::end) << hex;
  EXPECT_EQ(rest, "");
  return out;
}

std::string float_text(double v) {
  std::string out;
  diag_append_float(v, out);
  return out;
}

// ---- RFC 8949 Appendix A, Table 6: all 81 rows --------------------------------
// Left column as published, except: the two bignum rows print as the tag over a
// byte string (the table shows their numeric value), and the "\u00fc"-style
// rows print the characters as UTF-8 (the table notes both forms are diagnostic
// notation for the same string).

struct appendix_row {
  const char* hex;
  const char* diag;
};

constexpr appendix_row k_appendix_a[] = {
    {"00", "0"},
    {"01", "1"},
    {"0a", "10"},
    {"17", "23"},
    {"1818", "24"},
    {"1819", "25"},
    {"1864", "100"},
    {"1903e8", "1000"},
    {"1a000f4240", "1000000"},
    {"1b000000e8d4a51000", "1000000000000"},
    {"1bffffffffffffffff", "18446744073709551615"},
    {"c249010000000000000000", "2(h'010000000000000000')"},
    {"3bffffffffffffffff", "-18446744073709551616"},
    {"c349010000000000000000", "3(h'010000000000000000')"},
    {"20", "-1"},
    {"29", "-10"},
    {"3863", "-100"},
    {"3903e7", "-1000"},
    {"f90000", "0.0"},
    {"f98000", "-0.0"},
    {"f93c00", "1.0"},
    {"fb3ff199999999999a", "1.1"},
    {"f93e00", "1.5"},
    {"f97bff", "65504.0"},
    {"fa47c35000", "100000.0"},
    {"fa7f7fffff", "3.4028234663852886e+38"},
    {"fb7e37e43c8800759c", "1.0e+300"},
    {"f90001", "5.960464477539063e-8"},
    {"f90400", "0.00006103515625"},
    {"f9c400", "-4.0"},
    {"fbc010666666666666", "-4.1"},
    {"f97c00", "Infinity"},
    {"f97e00", "NaN"},
    {"f9fc00", "-Infinity"},
    {"fa7f800000", "Infinity"},
    {"fa7fc00000", "NaN"},
    {"faff800000", "-Infinity"},
    {"fb7ff0000000000000", "Infinity"},
    {"fb7ff8000000000000", "NaN"},
    {"fbfff0000000000000", "-Infinity"},
    {"f4", "false"},
    {"f5", "true"},
    {"f6", "null"},
    {"f7", "undefined"},
    {"f0", "simple(16)"},
    {"f8ff", "simple(255)"},
    {"c074323031332d30332d32315432303a30343a30305a", "0(\"2013-03-21T20:04:00Z\")"},
    {"c11a514b67b0", "1(1363896240)"},
    {"c1fb41d452d9ec200000", "1(1363896240.5)"},
    {"d74401020304", "23(h'01020304')"},
    {"d818456449455446", "24(h'6449455446')"},
    {"d82076687474703a2f2f7777772e6578616d706c652e636f6d", "32(\"http://www.example.com\")"},
    {"40", "h''"},
    {"4401020304", "h'01020304'"},
    {"60", "\"\""},
    {"6161", "\"a\""},
    {"6449455446", "\"IETF\""},
    {"62225c", "\"\\\"\\\\\""},
    {"62c3bc", "\"\xc3\xbc\""},
    {"63e6b0b4", "\"\xe6\xb0\xb4\""},
    {"64f0908591", "\"\xf0\x90\x85\x91\""},
    {"80", "[]"},
    {"83010203", "[1, 2, 3]"},
    {"8301820203820405", "[1, [2, 3], [4, 5]]"},
    {"98190102030405060708090a0b0c0d0e0f101112131415161718181819",
     "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, "
     "24, 25]"},
    {"a0", "{}"},
    {"a201020304", "{1: 2, 3: 4}"},
    {"a26161016162820203", "{\"a\": 1, \"b\": [2, 3]}"},
    {"826161a161626163", "[\"a\", {\"b\": \"c\"}]"},
    {"a56161614161626142616361436164614461656145",
     "{\"a\": \"A\", \"b\": \"B\", \"c\": \"C\", \"d\": \"D\", \"e\": \"E\"}"},
    {"5f42010243030405ff", "(_ h'0102', h'030405')"},
    {"7f657374726561646d696e67ff", "(_ \"strea\", \"ming\")"},
    {"9fff", "[_ ]"},
    {"9f018202039f0405ffff", "[_ 1, [2, 3], [_ 4, 5]]"},
    {"9f01820203820405ff", "[_ 1, [2, 3], [4, 5]]"},
    {"83018202039f0405ff", "[1, [2, 3], [_ 4, 5]]"},
    {"83019f0203ff820405", "[1, [_ 2, 3], [4, 5]]"},
    {"9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff",
     "[_ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, "
     "24, 25]"},
    {"bf61610161629f0203ffff", "{_ \"a\": 1, \"b\": [_ 2, 3]}"},
    {"826161bf61626163ff", "[\"a\", {_ \"b\": \"c\"}]"},
    {"bf6346756ef563416d7421ff", "{_ \"Fun\": true, \"Amt\": -2}"},
};

TEST(DiagAppendixA, TableHasAllRows) {
  EXPECT_EQ(sizeof k_appendix_a / sizeof k_appendix_a[0], 81u);
}

TEST(DiagAppendixA, EveryRowPrintsExactly) {
  for (const appendix_row& row : k_appendix_a) {
    SCOPED_TRACE(row.hex);
    EXPECT_EQ(diag_one(row.hex), row.diag);
  }
}

TEST(DiagAppendixA, WholeTableAsOneSequence) {
  // RFC 8742: the rows back to back are a sequence of 81 items, one per call.
  std::string bytes;
  for (const appendix_row& row : k_appendix_a) bytes += from_hex(row.hex);
  reader r(std::string_view{bytes});
  size_t i = 0;
  for (;; ++i) {
    std::string out;
    const status s = diag_next(r, out);
    if (s == status::end) break;
    ASSERT_EQ(s, status::ok) << "item " << i;
    ASSERT_LT(i, 81u);
    EXPECT_EQ(out, k_appendix_a[i].diag);
  }
  EXPECT_EQ(i, 81u);
}

// ---- integers -----------------------------------------------------------------

TEST(DiagIntegers, Boundaries) {
  const appendix_row rows[] = {
      {"17", "23"},
      {"1818", "24"},
      {"18ff", "255"},
      {"190100", "256"},
      {"19ffff", "65535"},
      {"1a00010000", "65536"},
      {"1affffffff", "4294967295"},
      {"1b0000000100000000", "4294967296"},
      {"1b7fffffffffffffff", "9223372036854775807"},
      {"1b8000000000000000", "9223372036854775808"},
      {"37", "-24"},
      {"3818", "-25"},
      {"38ff", "-256"},
      {"390100", "-257"},
      {"3affffffff", "-4294967296"},
      {"3b7ffffffffffffffe", "-9223372036854775807"},
      {"3b7fffffffffffffff", "-9223372036854775808"},
      {"3b8000000000000000", "-9223372036854775809"},
      {"3bfffffffffffffffe", "-18446744073709551615"},
      {"3bffffffffffffffff", "-18446744073709551616"},
      // Non-preferred heads print the same value (no encoding indicators).
      {"1800", "0"},
      {"1b0000000000000001", "1"},
      {"3900ff", "-256"},
  };
  for (const appendix_row& row : rows) {
    SCOPED_TRACE(row.hex);
    EXPECT_EQ(diag_one(row.hex), row.diag);
  }
}

// ---- strings and escapes --------------------------------------------------------

TEST(DiagText, JsonStyleEscapes) {
  EXPECT_EQ(diag_one("6122"), "\"\\\"\"");
  EXPECT_EQ(diag_one("615c"), "\"\\\\\"");
  EXPECT_EQ(diag_one("610a"), "\"\\n\"");
  EXPECT_EQ(diag_one("6109"), "\"\\t\"");
  EXPECT_EQ(diag_one("610d"), "\"\\r\"");
  EXPECT_EQ(diag_one("6108"), "\"\\b\"");
  EXPECT_EQ(diag_one("610c"), "\"\\f\"");
  EXPECT_EQ(diag_one("6100"), "\"\\u0000\"");
  EXPECT_EQ(diag_one("6101"), "\"\\u0001\"");
  EXPECT_EQ(diag_one("611b"), "\"\\u001b\"");
  EXPECT_EQ(diag_one("611f"), "\"\\u001f\"");
  EXPECT_EQ(diag_one("617f"), "\"\\u007f\"");
  // 0x20 and '/' are not escaped.
  EXPECT_EQ(diag_one("62202f"), "\" /\"");
}

TEST(DiagText, EscapesAmidPlainRuns) {
  // a b " l \ d LF e 0x01 f
  EXPECT_EQ(diag_one("6a6162226c5c640a650166"), "\"ab\\\"l\\\\d\\ne\\u0001f\"");
}

TEST(DiagText, Utf8PassesThrough) {
  // "été" and U+1F600.
  EXPECT_EQ(diag_one("65c3a974c3a9"), "\"\xc3\xa9t\xc3\xa9\"");
  EXPECT_EQ(diag_one("64f09f9880"), "\"\xf0\x9f\x98\x80\"");
  // C1 controls are valid UTF-8 characters: no escape.
  EXPECT_EQ(diag_one("62c285"), "\"\xc2\x85\"");
}

TEST(DiagText, InvalidUtf8IsCopiedWhenNotValidated) {
  EXPECT_EQ(diag_one("6361c328"), "\"a\xc3(\"");
  EXPECT_EQ(diag_one("61ff"), "\"\xff\"");
}

TEST(DiagText, InvalidUtf8FailsUnderValidation) {
  const std::string bytes = from_hex("82616163 61c328");
  reader_options opts;
  opts.validate_utf8 = true;
  reader r(std::string_view{bytes}, opts);
  std::string out;
  EXPECT_EQ(diag_next(r, out), status::invalid_utf8);
  EXPECT_EQ(out, "[\"a\"");
  EXPECT_EQ(r.error().offset, 5u);
}

TEST(DiagBytes, LowercaseHex) {
  EXPECT_EQ(diag_one("4400ff10ab"), "h'00ff10ab'");
  EXPECT_EQ(diag_one("4189"), "h'89'");
  EXPECT_EQ(diag_one("5f44deadbeef40ff"), "(_ h'deadbeef', h'')");
}

// ---- empty containers and indefinite forms ----------------------------------------

TEST(DiagEmpty, Containers) {
  EXPECT_EQ(diag_one("80"), "[]");
  EXPECT_EQ(diag_one("9fff"), "[_ ]");
  EXPECT_EQ(diag_one("a0"), "{}");
  EXPECT_EQ(diag_one("bfff"), "{_ }");
  EXPECT_EQ(diag_one("40"), "h''");
  EXPECT_EQ(diag_one("60"), "\"\"");
}

TEST(DiagEmpty, IndefiniteStrings) {
  // Section 8.1: no chunks at all is ''_ / ""_; one empty chunk is (_ h'') / (_ "").
  EXPECT_EQ(diag_one("5fff"), "''_");
  EXPECT_EQ(diag_one("7fff"), "\"\"_");
  EXPECT_EQ(diag_one("5f40ff"), "(_ h'')");
  EXPECT_EQ(diag_one("7f60ff"), "(_ \"\")");
  EXPECT_EQ(diag_one("7f6161ff"), "(_ \"a\")");
  EXPECT_EQ(diag_one("7f61226100ff"), "(_ \"\\\"\", \"\\u0000\")");
}

TEST(DiagEmpty, NestedEmpties) {
  EXPECT_EQ(diag_one("84809fffa0bfff"), "[[], [_ ], {}, {_ }]");
  EXPECT_EQ(diag_one("9f5fff7fff40ff"), "[_ ''_, \"\"_, h'']");
  EXPECT_EQ(diag_one("a1805fff"), "{[]: ''_}");
}

// ---- nesting, tags, maps ------------------------------------------------------------

TEST(DiagNesting, Tags) {
  EXPECT_EQ(diag_one("c1c2c303"), "1(2(3(3)))");
  EXPECT_EQ(diag_one("c18201c202"), "1([1, 2(2)])");
  EXPECT_EQ(diag_one("82c101c202"), "[1(1), 2(2)]");
  EXPECT_EQ(diag_one("d9d9f7a0"), "55799({})");
  EXPECT_EQ(diag_one("dbffffffffffffffff00"), "18446744073709551615(0)");
  EXPECT_EQ(diag_one("c15f4101ff"), "1((_ h'01'))");
  EXPECT_EQ(diag_one("c17fff"), "1(\"\"_)");
  EXPECT_EQ(diag_one("c19fc2c320ff"), "1([_ 2(3(-1))])");
}

TEST(DiagNesting, MapsWithStructuredKeysAndValues) {
  EXPECT_EQ(diag_one("a282010201a1f6f7f5"), "{[1, 2]: 1, {null: undefined}: true}");
  EXPECT_EQ(diag_one("bfc1016161a101029fffff"), "{_ 1(1): \"a\", {1: 2}: [_ ]}");
  EXPECT_EQ(diag_one("a1bf5f4101ff7fffff9f80ff"), "{{_ (_ h'01'): \"\"_}: [_ []]}");
}

TEST(DiagNesting, SimpleValues) {
  EXPECT_EQ(diag_one("e0"), "simple(0)");
  EXPECT_EQ(diag_one("f3"), "simple(19)");
  EXPECT_EQ(diag_one("f820"), "simple(32)");
  EXPECT_EQ(diag_one("84f4f5f6f7"), "[false, true, null, undefined]");
}

TEST(DiagNesting, SequenceOfItemsOnePerCall) {
  const std::string bytes = from_hex("01 8102 c0 61 78 f6");
  reader r(std::string_view{bytes});
  std::vector<std::string> items;
  for (;;) {
    std::string out;
    const status s = diag_next(r, out);
    if (s == status::end) break;
    ASSERT_EQ(s, status::ok);
    items.push_back(out);
  }
  EXPECT_EQ(items, (std::vector<std::string>{"1", "[2]", "0(\"x\")", "null"}));
}

TEST(DiagNesting, AppendsToExistingText) {
  const std::string bytes = from_hex("8101");
  reader r(std::string_view{bytes});
  std::string out = "x = ";
  EXPECT_EQ(diag_next(r, out), status::ok);
  EXPECT_EQ(out, "x = [1]");
}

TEST(DiagNesting, EmptyInputIsEnd) {
  reader r(std::string_view{});
  std::string out;
  EXPECT_EQ(diag_next(r, out), status::end);
  EXPECT_EQ(out, "");
}

// ---- errors ------------------------------------------------------------------------

TEST(DiagErrors, ReaderErrorReturnedWithPartialText) {
  const std::string bytes = from_hex("9f0102");
  reader r(std::string_view{bytes});
  std::string out;
  EXPECT_EQ(diag_next(r, out), status::truncated);
  EXPECT_EQ(out, "[_ 1, 2");
  EXPECT_EQ(r.error().offset, 3u);
  // Sticky: the next call reports the same error and prints nothing.
  std::string again;
  EXPECT_EQ(diag_next(r, again), status::truncated);
  EXPECT_EQ(again, "");
}

TEST(DiagErrors, ErrorAfterCompleteItems) {
  const std::string bytes = from_hex("01 8202 03 ff");
  reader r(std::string_view{bytes});
  std::string out;
  EXPECT_EQ(diag_next(r, out), status::ok);
  EXPECT_EQ(diag_next(r, out), status::ok);
  EXPECT_EQ(out, "1[2, 3]");
  out.clear();
  EXPECT_EQ(diag_next(r, out), status::unexpected_break);
  EXPECT_EQ(out, "");
  EXPECT_EQ(r.error().offset, 4u);
}

TEST(DiagErrors, MalformedInsideNesting) {
  struct row {
    const char* hex;
    status code;
    size_t offset;
    const char* partial;
  };
  const row rows[] = {
      {"a1 01 1c", status::reserved_additional_info, 2, "{1"},
      {"bf 01 ff", status::map_missing_value, 2, "{_ 1"},
      {"c1", status::truncated, 1, "1("},
      {"5f 41 00 61 61 ff", status::chunk_type_mismatch, 3, "(_ h'00'"},
      {"82 01 3f", status::indefinite_not_allowed, 2, "[1"},
  };
  for (const row& x : rows) {
    SCOPED_TRACE(x.hex);
    const std::string bytes = from_hex(x.hex);
    reader r(std::string_view{bytes});
    std::string out;
    EXPECT_EQ(diag_next(r, out), x.code);
    EXPECT_EQ(r.error().offset, x.offset);
    EXPECT_EQ(out, x.partial);
  }
}

// ---- depth: the printer never recurses ------------------------------------------------

constexpr uint32_t k_deep = 100000;

TEST(DiagDeep, HundredThousandNestedArrays) {
  std::string bytes(k_deep, '\x81');
  bytes += '\x01';
  reader_options opts;
  opts.max_depth = k_deep;
  reader r(std::string_view{bytes}, opts);
  std::string out;
  ASSERT_EQ(diag_next(r, out), status::ok);
  EXPECT_EQ(out, std::string(k_deep, '[') + "1" + std::string(k_deep, ']'));
  std::string rest;
  EXPECT_EQ(diag_next(r, rest), status::end);
}

TEST(DiagDeep, HundredThousandNestedIndefiniteMapsAndTags) {
  // {_ 1: 1({_ 1: 1(... 0 ...)})}: alternating map and tag frames.
  std::string bytes;
  for (uint32_t i = 0; i < k_deep / 2; ++i) bytes += "\xbf\x01\xc1";
  bytes += '\x00';
  bytes.append(k_deep / 2, '\xff');
  reader_options opts;
  opts.max_depth = k_deep;
  reader r(std::string_view{bytes}, opts);
  std::string out;
  ASSERT_EQ(diag_next(r, out), status::ok);
  std::string want;
  for (uint32_t i = 0; i < k_deep / 2; ++i) want += "{_ 1: 1(";
  want += '0';
  for (uint32_t i = 0; i < k_deep / 2; ++i) want += ")}";
  EXPECT_EQ(out, want);
}

TEST(DiagDeep, DepthLimitStopsWithPartialText) {
  std::string bytes(k_deep, '\x81');
  bytes += '\x01';
  reader_options opts;
  opts.max_depth = k_deep - 1;
  reader r(std::string_view{bytes}, opts);
  std::string out;
  EXPECT_EQ(diag_next(r, out), status::depth_exceeded);
  EXPECT_EQ(r.error().offset, size_t{k_deep - 1});
  EXPECT_EQ(out, std::string(k_deep - 1, '['));
}

// ---- floats ------------------------------------------------------------------------------

struct float_row {
  double value;
  const char* text;
};

TEST(DiagFloat, LayoutTable) {
  const float_row rows[] = {
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {1.0, "1.0"},
      {-1.0, "-1.0"},
      {1.1, "1.1"},
      {1.5, "1.5"},
      {0.1, "0.1"},
      {-0.5, "-0.5"},
      {65504.0, "65504.0"},
      {100000.0, "100000.0"},
      {123456.789, "123456.789"},
      {1363896240.5, "1363896240.5"},
      {9007199254740992.0, "9007199254740992.0"},
      {3.4028234663852886e+38, "3.4028234663852886e+38"},
      {1.0e+300, "1.0e+300"},
      {5.960464477539063e-8, "5.960464477539063e-8"},
      {0.00006103515625, "0.00006103515625"},
      {-4.0, "-4.0"},
      {-4.1, "-4.1"},
      // Fixed/exponent switch at the top: 1e21 is the first exponent form.
      {1e20, "100000000000000000000.0"},
      {-1e20, "-100000000000000000000.0"},
      {9.999999999999999e20, "999999999999999900000.0"},
      {1.2345678901234567e20, "123456789012345670000.0"},
      {1e21, "1.0e+21"},
      {-1e21, "-1.0e+21"},
      {1.5e21, "1.5e+21"},
      {1.2345678901234568e21, "1.2345678901234568e+21"},
      // ... and at the bottom: 1e-6 is the last fixed form.
      {1e-6, "0.000001"},
      {-1e-6, "-0.000001"},
      {1.5e-6, "0.0000015"},
      {9.99e-7, "9.99e-7"},
      {1e-7, "1.0e-7"},
      {1.5e-7, "1.5e-7"},
      {1e-5, "0.00001"},
      // Extremes.
      {DBL_MAX, "1.7976931348623157e+308"},
      {DBL_MIN, "2.2250738585072014e-308"},
      {std::numeric_limits<double>::denorm_min(), "5.0e-324"},
      {-std::numeric_limits<double>::denorm_min(), "-5.0e-324"},
      {1e100, "1.0e+100"},
      {1.23e-100, "1.23e-100"},
      {std::numeric_limits<double>::infinity(), "Infinity"},
      {-std::numeric_limits<double>::infinity(), "-Infinity"},
      {std::numeric_limits<double>::quiet_NaN(), "NaN"},
      {-std::numeric_limits<double>::quiet_NaN(), "NaN"},
  };
  for (const float_row& row : rows) {
    SCOPED_TRACE(row.text);
    EXPECT_EQ(float_text(row.value), row.text);
  }
}

TEST(DiagFloat, RoundTripsThroughStrtod) {
  // The printed digits read back to the same double (shortest round trip).
  const double values[] = {1.1, 0.1 + 0.2, 1.0 / 3.0, 2.0 / 3.0e-9, 6.02214076e23, 1e-7 + 1e-22};
  for (double v : values) {
    const std::string text = float_text(v);
    SCOPED_TRACE(text);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), v);
  }
  EXPECT_EQ(float_text(0.1 + 0.2), "0.30000000000000004");
}

TEST(DiagFloat, WideningOfNarrowFloats) {
  // A single's exact value, printed with the shortest digits of the double.
  EXPECT_EQ(diag_one("fa3f8ccccd"), "1.100000023841858");
  EXPECT_EQ(diag_one("fa00000001"), "1.401298464324817e-45");
  // Largest half subnormal, smallest half normal's neighbour.
  EXPECT_EQ(diag_one("f903ff"), "0.00006097555160522461");
  EXPECT_EQ(diag_one("f97bfe"), "65472.0");
}

TEST(DiagFloat, WidthIndicators) {
  diag_options opts;
  opts.float_width_indicators = true;
  EXPECT_EQ(diag_one("f93c00", opts), "1.0_1");
  EXPECT_EQ(diag_one("fa47c35000", opts), "100000.0_2");
  EXPECT_EQ(diag_one("fb3ff199999999999a", opts), "1.1_3");
  EXPECT_EQ(diag_one("f97e00", opts), "NaN_1");
  EXPECT_EQ(diag_one("faff800000", opts), "-Infinity_2");
  EXPECT_EQ(diag_one("fb8000000000000000", opts), "-0.0_3");
  EXPECT_EQ(diag_one("c1fb41d452d9ec200000", opts), "1(1363896240.5_3)");
  // Only floats get indicators.
  EXPECT_EQ(diag_one("83f93e000118ff", opts), "[1.5_1, 1, 255]");
}

}  // namespace
}  // namespace cbor_fast
