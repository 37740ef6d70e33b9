// RFC 8949 Appendix A ("Examples of Encoded CBOR Data Items"): every row of
// the table, from tests/vectors/appendix_a.json (the one copy every suite
// reads), checked three ways:
//  - decoding: the exact item stream (values, raw negative n, float wire bits
//    and width, string contents, structure, tags, simple values), with the
//    structural checks of stream_checker;
//  - diagnostic notation: diag_next() prints the RFC's left column, except
//    that the two bignum rows print as the tagged byte string (the RFC text
//    says it shows their value as a decimal number instead) and the three
//    \u-escaped text rows print the characters as UTF-8 (see printed_form);
//  - encoding: transcoding the item stream through the writer.
//
// Which rows are in preferred serialization (RFC 8949 section 4.1: shortest
// argument, shortest float that keeps the value, definite length whenever the
// length is known up front)?
//  - Every integer, length, count, tag number and simple value in the table
//    uses the shortest head, so all integer, string, tag, simple and definite
//    container rows are preferred. The bignum rows 2(h'01..') and 3(h'01..')
//    are too: the value does not fit 64 bits and the magnitude has no leading
//    zero byte (section 3.4.3).
//  - Floats: the half-precision rows and 1.1, 100000.0 (above 65504),
//    3.4028234663852886e+38 (largest single), 1.0e+300, -4.1 and
//    1363896240.5 (needs 32 significant bits) cannot be any shorter, so they
//    are preferred. The six single/double Infinity, NaN and -Infinity rows
//    are not: half precision holds those values exactly (f97c00, f97e00,
//    f9fc00).
//  - The ten indefinite-length rows (_ ...), [_ ...], {_ ...} are not:
//    their lengths are known, so the preferred form is definite.
// The faithful transcode (floats at their own width, indefinite as read)
// reproduces every row byte for byte, because no row uses a longer head than
// needed. The preferred transcode (write_float(value) at the shortest width)
// reproduces the preferred rows; for the six non-preferred float rows it must
// give the half-precision encoding instead.

#include <cmath>
#include <cstdint>
#include <limits>
#include <iterator>
#include <string>
#include <vector>

#include "conformance/test_util.hpp"
#include "shared_vectors.h"

namespace {

using namespace cbor_fast_test;
using cbor_fast::float_width;
using cbor_fast::reader;
using cbor_fast::writer;

struct row {
  const char* name;
  const char* hex;    ///< right column of the RFC table, without "0x"
  const char* trace;  ///< expected item stream (tracer format, test_util.hpp)
  const char* diag;   ///< left column of the RFC table
  /// Preferred serialization of the row's value (see the comment at the top):
  /// equal to hex for preferred rows, the half-precision form for the six
  /// non-preferred float rows, nullptr for the indefinite-length rows.
  const char* preferred;
};

/// What diag_next() prints where it differs from the RFC's left column: the
/// three rows the RFC writes with \u escapes ("\u00fc", "\u6c34",
/// "\ud800\udd51"). The RFC calls that escaped text "one form of diagnostic
/// notation" for the string; the printer emits the other form, the characters
/// as UTF-8 (its documented choice, tests/unit/diag_test.cpp). The test proves
/// both texts denote the same string by resolving the RFC's escapes.
const char* printed_form(const char* rfc_diag) {
  if (std::string(rfc_diag) == "\"\\u00fc\"") return "\"\xc3\xbc\"";
  if (std::string(rfc_diag) == "\"\\u6c34\"") return "\"\xe6\xb0\xb4\"";
  if (std::string(rfc_diag) == "\"\\ud800\\udd51\"") return "\"\xf0\x90\x85\x91\"";
  return rfc_diag;
}

/// Resolves JSON-style \uXXXX escapes (surrogate pairs included) to UTF-8;
/// every other byte, and every other escape, is copied unchanged.
std::string resolve_u_escapes(const std::string& s) {
  std::string out;
  auto hex4 = [&](size_t at) {
    return static_cast<uint32_t>(std::stoul(s.substr(at, 4), nullptr, 16));
  };
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 5 >= s.size() || s[i + 1] != 'u') {
      out.push_back(s[i]);
      if (s[i] == '\\' && i + 1 < s.size()) out.push_back(s[++i]);
      continue;
    }
    uint32_t cp = hex4(i + 2);
    i += 5;
    if (cp >= 0xd800 && cp < 0xdc00 && i + 6 < s.size() && s[i + 1] == '\\' && s[i + 2] == 'u') {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (hex4(i + 3) - 0xdc00);
      i += 6;
    }
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else {
      out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    }
  }
  return out;
}

// What the C++ reader and writer must make of each row of
// tests/vectors/appendix_a.json (which holds the hex, the RFC diagnostic
// notation and whether the row is preferred): the item stream (tracer format,
// test_util.hpp), keyed by the row name. Every row of the file must have one
// here and the other way round (checked by appendix_a.every_row_has_a_trace).
struct trace_row {
  const char* name;
  const char* trace;
};
const trace_row traces[] = {
    {"uint_0", "0"},
    {"uint_1", "1"},
    {"uint_10", "10"},
    {"uint_23", "23"},
    {"uint_24", "24"},
    {"uint_25", "25"},
    {"uint_100", "100"},
    {"uint_1000", "1000"},
    {"uint_1000000", "1000000"},
    {"uint_1000000000000", "1000000000000"},
    {"uint_max", "18446744073709551615"},
    {"bignum_2_64", "tag2 h'010000000000000000'"},
    {"nint_min", "-18446744073709551616"},
    {"neg_bignum_2_64", "tag3 h'010000000000000000'"},
    {"nint_1", "-1"},
    {"nint_10", "-10"},
    {"nint_100", "-100"},
    {"nint_1000", "-1000"},
    {"half_zero", "f2:0000"},
    {"half_neg_zero", "f2:8000"},
    {"half_one", "f2:3c00"},
    {"double_1_1", "f8:3ff199999999999a"},
    {"half_1_5", "f2:3e00"},
    {"half_max", "f2:7bff"},
    {"single_100000", "f4:47c35000"},
    {"single_max", "f4:7f7fffff"},
    {"double_1e300", "f8:7e37e43c8800759c"},
    {"half_min_subnormal", "f2:0001"},
    {"half_min_normal", "f2:0400"},
    {"half_neg_4", "f2:c400"},
    {"double_neg_4_1", "f8:c010666666666666"},
    {"half_infinity", "f2:7c00"},
    {"half_nan", "f2:7e00"},
    {"half_neg_infinity", "f2:fc00"},
    {"single_infinity", "f4:7f800000"},
    {"single_nan", "f4:7fc00000"},
    {"single_neg_infinity", "f4:ff800000"},
    {"double_infinity", "f8:7ff0000000000000"},
    {"double_nan", "f8:7ff8000000000000"},
    {"double_neg_infinity", "f8:fff0000000000000"},
    {"false", "false"},
    {"true", "true"},
    {"null", "null"},
    {"undefined", "undefined"},
    {"simple_16", "simple(16)"},
    {"simple_255", "simple(255)"},
    {"tag0_date_string", "tag0 \"2013-03-21T20:04:00Z\""},
    {"tag1_epoch_int", "tag1 1363896240"},
    {"tag1_epoch_float", "tag1 f8:41d452d9ec200000"},
    {"tag23_base16", "tag23 h'01020304'"},
    {"tag24_embedded", "tag24 h'6449455446'"},
    {"tag32_uri", "tag32 \"http://www.example.com\""},
    {"bytes_empty", "h''"},
    {"bytes_4", "h'01020304'"},
    {"text_empty", "\"\""},
    {"text_a", "\"a\""},
    {"text_ietf", "\"IETF\""},
    {"text_quote_backslash", "\"\\\"\\\\\""},
    {"text_u00fc", "\"\\xc3\\xbc\""},
    {"text_u6c34", "\"\\xe6\\xb0\\xb4\""},
    {"text_u10151", "\"\\xf0\\x90\\x85\\x91\""},
    {"array_empty", "[0 ]"},
    {"array_123", "[3 1 2 3 ]"},
    {"array_nested", "[3 1 [2 2 3 ] [2 4 5 ] ]"},
    {"array_25", "[25 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 ]"},
    {"map_empty", "{0 }"},
    {"map_int", "{2 1 2 3 4 }"},
    {"map_text_keys", "{2 \"a\" 1 \"b\" [2 2 3 ] }"},
    {"array_with_map", "[2 \"a\" {1 \"b\" \"c\" } ]"},
    {"map_5", "{5 \"a\" \"A\" \"b\" \"B\" \"c\" \"C\" \"d\" \"D\" \"e\" \"E\" }"},
    {"indef_bytes", "(_h h'0102' h'030405' )"},
    {"indef_text", "(_s \"strea\" \"ming\" )"},
    {"indef_array_empty", "[_ ]"},
    {"indef_array_nested_indef", "[_ 1 [2 2 3 ] [_ 4 5 ] ]"},
    {"indef_array_outer", "[_ 1 [2 2 3 ] [2 4 5 ] ]"},
    {"indef_array_last", "[3 1 [2 2 3 ] [_ 4 5 ] ]"},
    {"indef_array_middle", "[3 1 [_ 2 3 ] [2 4 5 ] ]"},
    {"indef_array_25", "[_ 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 ]"},
    {"indef_map", "{_ \"a\" 1 \"b\" [_ 2 3 ] }"},
    {"indef_map_in_array", "[2 \"a\" {_ \"b\" \"c\" } ]"},
    {"indef_map_fun", "{_ \"Fun\" true \"Amt\" -2 }"},
};

/// The preferred serialization of the six non-preferred float rows (roundtrip
/// false in the file, but not indefinite): the half-precision form.
const trace_row preferred_overrides[] = {
    {"single_infinity", "f97c00"}, {"single_nan", "f97e00"}, {"single_neg_infinity", "f9fc00"},
    {"double_infinity", "f97c00"}, {"double_nan", "f97e00"}, {"double_neg_infinity", "f9fc00"},
};

const char* find_in(const trace_row* table, size_t n, const char* name) {
  for (size_t i = 0; i < n; ++i)
    if (std::string(table[i].name) == name) return table[i].trace;
  return nullptr;
}

/// The rows: the shared file joined with the traces above.
std::vector<row> make_rows() {
  std::vector<row> out;
  for (const shared_appendix_a& a : k_shared_appendix_a) {
    const char* trace = find_in(traces, std::size(traces), a.name);
    const char* preferred =
        a.roundtrip ? a.hex : find_in(preferred_overrides, std::size(preferred_overrides), a.name);
    out.push_back(row{a.name, a.hex, trace != nullptr ? trace : "(no trace in appendix_a_test.cpp)",
                      a.diag, preferred});
  }
  return out;
}
const std::vector<row> rows = make_rows();

TEST(appendix_a_table, every_row_has_a_trace) {
  ASSERT_EQ(std::size(k_shared_appendix_a), std::size(traces));
  for (const shared_appendix_a& a : k_shared_appendix_a) {
    SCOPED_TRACE(a.name);
    EXPECT_NE(find_in(traces, std::size(traces), a.name), nullptr);
  }
  // Exactly the six Infinity/NaN rows of single and double width are
  // non-preferred and not indefinite.
  EXPECT_EQ(std::size(preferred_overrides), 6u);
}

/// Names the row in gtest messages instead of dumping its bytes.
void PrintTo(const row& r, std::ostream* os) { *os << r.name << " " << r.hex; }

class appendix_a : public ::testing::TestWithParam<row> {};

TEST_P(appendix_a, decode) {
  const row& r = GetParam();
  const exact_buffer in(from_hex(r.hex));
  {
    SCOPED_TRACE("next()");
    reader rd(in.data(), in.size());
    const read_log log = read_all(rd, in.data(), in.size());
    EXPECT_STATUS(log.last, status::end);
    EXPECT_EQ(log.trace, r.trace);
    EXPECT_TRUE(log.balanced);
    EXPECT_EQ(log.cursor, in.size());
    EXPECT_STATUS(rd.finish(), status::ok);
    EXPECT_TRUE(rd.at_end());
  }
  {
    SCOPED_TRACE("next() with validate_utf8");  // every text in the table is valid UTF-8
    cbor_fast::reader_options opt;
    opt.validate_utf8 = true;
    reader rd(in.data(), in.size(), opt);
    const read_log log = read_all(rd, in.data(), in.size());
    EXPECT_STATUS(log.last, status::end);
    EXPECT_EQ(log.trace, r.trace);
  }
  {
    SCOPED_TRACE("skip()");
    reader rd(in.data(), in.size());
    EXPECT_STATUS(rd.skip(), status::ok);
    EXPECT_EQ(rd.offset(), in.size());
    EXPECT_EQ(rd.depth(), 0u);
    item it;
    EXPECT_STATUS(rd.next(it), status::end);
    EXPECT_STATUS(rd.finish(), status::ok);
  }
}

TEST_P(appendix_a, diagnostic_notation) {
  const row& r = GetParam();
  const exact_buffer in(from_hex(r.hex));
  reader rd(in.data(), in.size());
  std::string out;
  EXPECT_STATUS(cbor_fast::diag_next(rd, out), status::ok);
  const std::string printed = printed_form(r.diag);
  EXPECT_EQ(out, printed);
  // Where the printed form differs from the RFC text, it is the same string.
  EXPECT_EQ(resolve_u_escapes(r.diag), printed);
  std::string rest;
  EXPECT_STATUS(cbor_fast::diag_next(rd, rest), status::end);
  EXPECT_EQ(rest, "");
}

// From diagnostic notation (diag_parse, since 0.4): the RFC's left column
// gives the row's preferred bytes (without encoding indicators the parser
// writes the shortest form; indefinite rows keep their [_ ...] form, so their
// bytes are the row's own); diag_next's text with every encoding indicator
// gives the row's bytes exactly, preferred or not.
TEST_P(appendix_a, from_diag) {
  const row& r = GetParam();
  {
    SCOPED_TRACE("RFC text");
    std::vector<uint8_t> out;
    cbor_fast::error_info e;
    ASSERT_STATUS(cbor_fast::diag_parse(r.diag, out, {}, &e), status::ok) << "offset " << e.offset;
    EXPECT_EQ(to_hex(out.data(), out.size()),
              to_hex(from_hex(r.preferred != nullptr ? r.preferred : r.hex)));
  }
  {
    SCOPED_TRACE("diag_next with encoding indicators");
    const exact_buffer in(from_hex(r.hex));
    reader rd(in.data(), in.size());
    std::string text;
    cbor_fast::diag_options o;
    o.encoding_indicators = true;
    ASSERT_STATUS(cbor_fast::diag_next(rd, text, o), status::ok);
    std::vector<uint8_t> out;
    ASSERT_STATUS(cbor_fast::diag_parse(text, out), status::ok) << text;
    EXPECT_EQ(to_hex(out.data(), out.size()), to_hex(from_hex(r.hex))) << text;
  }
}

TEST_P(appendix_a, encode) {
  const row& r = GetParam();
  const bytes in = from_hex(r.hex);
  {
    SCOPED_TRACE("faithful transcode: every row");
    bytes out;
    ASSERT_STATUS(transcode(in.data(), in.size(), float_mode::as_read, out), status::ok);
    EXPECT_EQ(to_hex(out), to_hex(in));
  }
  // Indefinite-length rows (preferred == nullptr): a streaming transcode keeps
  // the indefinite form (checked above); the definite form is not what this
  // writer makes from begin_*_indefinite(), so there is nothing more to compare.
  if (r.preferred != nullptr) {
    SCOPED_TRACE("preferred transcode: write_float(value) at the shortest width");
    bytes out;
    ASSERT_STATUS(transcode(in.data(), in.size(), float_mode::shortest, out), status::ok);
    EXPECT_EQ(to_hex(out), to_hex(from_hex(r.preferred)));
  }
}

std::string row_name(const ::testing::TestParamInfo<row>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(rfc8949, appendix_a, ::testing::ValuesIn(rows), row_name);

// ---- integers: value(), raw n, get_int64 and the writer's integer calls ------

struct int_row {
  const char* hex;
  bool negative;
  uint64_t raw;  ///< value() : the integer, or n for -1 - n
  bool fits_int64;
  int64_t as_int64;
};

const int_row int_rows[] = {
    {"00", false, 0, true, 0},
    {"01", false, 1, true, 1},
    {"0a", false, 10, true, 10},
    {"17", false, 23, true, 23},
    {"1818", false, 24, true, 24},
    {"1819", false, 25, true, 25},
    {"1864", false, 100, true, 100},
    {"1903e8", false, 1000, true, 1000},
    {"1a000f4240", false, 1000000, true, 1000000},
    {"1b000000e8d4a51000", false, 1000000000000ULL, true, 1000000000000LL},
    {"1bffffffffffffffff", false, UINT64_MAX, false, 0},
    {"3bffffffffffffffff", true, UINT64_MAX, false, 0},  // -2^64: raw n = 2^64 - 1
    {"20", true, 0, true, -1},
    {"29", true, 9, true, -10},
    {"3863", true, 99, true, -100},
    {"3903e7", true, 999, true, -1000},
};

TEST(appendix_a_integers, value_raw_n_and_int64) {
  for (const int_row& r : int_rows) {
    SCOPED_TRACE(r.hex);
    const bytes in = from_hex(r.hex);
    reader rd(in.data(), in.size());
    item it;
    ASSERT_STATUS(rd.next(it), status::ok);
    EXPECT_EQ(it.type, r.negative ? item_type::negative_int : item_type::unsigned_int);
    EXPECT_EQ(it.value(), r.raw);
    EXPECT_EQ(it.head_size, in.size());
    int64_t v = 12345;
    EXPECT_EQ(it.get_int64(&v), r.fits_int64);
    if (r.fits_int64) {
      EXPECT_EQ(v, r.as_int64);
    }
  }
}

TEST(appendix_a_integers, writer_integer_calls) {
  for (const int_row& r : int_rows) {
    SCOPED_TRACE(r.hex);
    writer w;
    ASSERT_STATUS(r.negative ? w.write_negative(r.raw) : w.write_uint(r.raw), status::ok);
    ASSERT_STATUS(w.finish(), status::ok);
    EXPECT_EQ(to_hex(w.data(), w.size()), r.hex);
    if (r.fits_int64) {
      writer wi;
      ASSERT_STATUS(wi.write_int(r.as_int64), status::ok);
      ASSERT_STATUS(wi.finish(), status::ok);
      EXPECT_EQ(to_hex(wi.data(), wi.size()), r.hex);
    }
  }
}

TEST(appendix_a_integers, write_bignum_gives_the_rfc_rows) {
  // 2^64 and -1 - 2^64 do not fit 64 bits: tag 2 / tag 3 over the magnitude.
  const bytes two_64 = from_hex("010000000000000000");
  // 2^64 - 1 fits: written as a plain integer (preferred serialization), and
  // -1 - (2^64 - 1) = -2^64 is the smallest major type 1 value.
  const bytes max64 = from_hex("ffffffffffffffff");
  // Leading zero bytes are ignored.
  const bytes padded = from_hex("0000010000000000000000");
  struct {
    const bytes* magnitude;
    bool negative;
    const char* expected;
  } cases[] = {
      {&two_64, false, "c249010000000000000000"}, {&two_64, true, "c349010000000000000000"},
      {&max64, false, "1bffffffffffffffff"},      {&max64, true, "3bffffffffffffffff"},
      {&padded, false, "c249010000000000000000"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.expected);
    writer w;
    ASSERT_STATUS(w.write_bignum(c.magnitude->data(), c.magnitude->size(), c.negative), status::ok);
    ASSERT_STATUS(w.finish(), status::ok);
    EXPECT_EQ(to_hex(w.data(), w.size()), c.expected);
  }
}

// ---- floats: value by bits, width, diag text, writer widths ------------------

struct float_row {
  const char* hex;
  uint8_t width;
  uint64_t wire_bits;
  double value;          ///< expected float_value(); NaN rows compare as NaN
  const char* text;      ///< diag_append_float
  const char* shortest;  ///< write_float(value)
};

const double inf = std::numeric_limits<double>::infinity();
const double nan_value = std::numeric_limits<double>::quiet_NaN();

const float_row float_rows[] = {
    {"f90000", 2, 0x0000, 0.0, "0.0", "f90000"},
    {"f98000", 2, 0x8000, -0.0, "-0.0", "f98000"},
    {"f93c00", 2, 0x3c00, 1.0, "1.0", "f93c00"},
    {"fb3ff199999999999a", 8, 0x3ff199999999999aULL, 1.1, "1.1", "fb3ff199999999999a"},
    {"f93e00", 2, 0x3e00, 1.5, "1.5", "f93e00"},
    {"f97bff", 2, 0x7bff, 65504.0, "65504.0", "f97bff"},
    {"fa47c35000", 4, 0x47c35000, 100000.0, "100000.0", "fa47c35000"},
    {"fa7f7fffff", 4, 0x7f7fffff, 3.4028234663852886e+38, "3.4028234663852886e+38", "fa7f7fffff"},
    {"fb7e37e43c8800759c", 8, 0x7e37e43c8800759cULL, 1.0e+300, "1.0e+300", "fb7e37e43c8800759c"},
    {"f90001", 2, 0x0001, 5.960464477539063e-8, "5.960464477539063e-8", "f90001"},
    {"f90400", 2, 0x0400, 0.00006103515625, "0.00006103515625", "f90400"},
    {"f9c400", 2, 0xc400, -4.0, "-4.0", "f9c400"},
    {"fbc010666666666666", 8, 0xc010666666666666ULL, -4.1, "-4.1", "fbc010666666666666"},
    {"f97c00", 2, 0x7c00, inf, "Infinity", "f97c00"},
    {"f97e00", 2, 0x7e00, nan_value, "NaN", "f97e00"},
    {"f9fc00", 2, 0xfc00, -inf, "-Infinity", "f9fc00"},
    {"fa7f800000", 4, 0x7f800000, inf, "Infinity", "f97c00"},
    {"fa7fc00000", 4, 0x7fc00000, nan_value, "NaN", "f97e00"},
    {"faff800000", 4, 0xff800000, -inf, "-Infinity", "f9fc00"},
    {"fb7ff0000000000000", 8, 0x7ff0000000000000ULL, inf, "Infinity", "f97c00"},
    {"fb7ff8000000000000", 8, 0x7ff8000000000000ULL, nan_value, "NaN", "f97e00"},
    {"fbfff0000000000000", 8, 0xfff0000000000000ULL, -inf, "-Infinity", "f9fc00"},
    // Inside 1(1363896240.5): needs 32 significant bits, so double.
    {"fb41d452d9ec200000", 8, 0x41d452d9ec200000ULL, 1363896240.5, "1363896240.5",
     "fb41d452d9ec200000"},
};

TEST(appendix_a_floats, value_bits_and_width) {
  for (const float_row& r : float_rows) {
    SCOPED_TRACE(r.hex);
    const bytes in = from_hex(r.hex);
    reader rd(in.data(), in.size());
    item it;
    ASSERT_STATUS(rd.next(it), status::ok);
    EXPECT_EQ(it.type, item_type::floating);
    EXPECT_EQ(it.width, r.width);
    EXPECT_EQ(it.head_size, 1u + r.width);
    EXPECT_EQ(it.float_bits(), r.wire_bits);
    EXPECT_TRUE(same_double(it.float_value(), r.value))
        << "got bits " << std::hex << double_bits(it.float_value());
    if (std::isnan(r.value)) {
      // The quiet NaN of every width widens to the double quiet NaN.
      EXPECT_EQ(double_bits(it.float_value()), 0x7ff8000000000000ULL);
    }
  }
}

TEST(appendix_a_floats, diag_append_float_text) {
  for (const float_row& r : float_rows) {
    SCOPED_TRACE(r.hex);
    std::string out = "x";
    cbor_fast::diag_append_float(r.value, out);
    EXPECT_EQ(out, std::string("x") + r.text);
  }
}

TEST(appendix_a_floats, write_float_shortest_is_preferred) {
  for (const float_row& r : float_rows) {
    SCOPED_TRACE(r.hex);
    writer w;
    ASSERT_STATUS(w.write_float(r.value), status::ok);
    ASSERT_STATUS(w.finish(), status::ok);
    EXPECT_EQ(to_hex(w.data(), w.size()), r.shortest);
  }
}

TEST(appendix_a_floats, write_float_forced_width_reproduces_the_row) {
  for (const float_row& r : float_rows) {
    SCOPED_TRACE(r.hex);
    writer w;
    ASSERT_STATUS(w.write_float(r.value, static_cast<float_width>(r.width)), status::ok);
    ASSERT_STATUS(w.finish(), status::ok);
    EXPECT_EQ(to_hex(w.data(), w.size()), r.hex);
  }
}

TEST(appendix_a_floats, diag_width_indicators) {
  // Section 8.1 encoding indicators: _1 half, _2 single, _3 double.
  struct {
    const char* hex;
    const char* diag;
  } cases[] = {
      {"f93c00", "1.0_1"},
      {"fa47c35000", "100000.0_2"},
      {"fb3ff199999999999a", "1.1_3"},
  };
  cbor_fast::diag_options opt;
  opt.float_width_indicators = true;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.hex);
    const bytes in = from_hex(c.hex);
    reader rd(in.data(), in.size());
    std::string out;
    EXPECT_STATUS(cbor_fast::diag_next(rd, out, opt), status::ok);
    EXPECT_EQ(out, c.diag);
  }
}

// ---- beyond Appendix A: floats the table does not show --------------------------
// Not RFC vectors: NaNs with payloads (quiet and signalling, both signs),
// subnormals and the smallest normals of each width. The faithful transcode
// (write_float(float_value(), own width)) must give the input back, which
// needs float_value() to widen every NaN bit for bit (see widened_nan in
// test_util.hpp); write_float(value) at the shortest width must give the
// shortest encoding that keeps the value and payload.

struct wire_float_row {
  const char* name;
  const char* hex;
  const char* shortest;  ///< write_float(float_value())
};

const wire_float_row wire_float_rows[] = {
    {"half_quiet_nan_payload_1", "f97e01", "f97e01"},
    {"half_negative_quiet_nan", "f9fe00", "f9fe00"},
    {"half_signalling_nan_payload_1", "f97c01", "f97c01"},
    {"half_signalling_nan_max_payload", "f97dff", "f97dff"},
    {"half_max_subnormal", "f903ff", "f903ff"},
    {"half_negative_min_subnormal", "f98001", "f98001"},
    {"single_signalling_nan_payload_1", "fa7f800001", "fa7f800001"},
    {"single_signalling_nan_max_payload", "fa7fbfffff", "fa7fbfffff"},
    {"single_negative_signalling_nan", "faff800001", "faff800001"},
    // Payload 0x2000 fits the half mantissa once shifted: the shortest is half.
    {"single_signalling_nan_half_payload", "fa7f802000", "f97c01"},
    {"single_quiet_nan_payload_1", "fa7fc00001", "fa7fc00001"},
    {"single_negative_quiet_nan", "faffc00000", "f9fe00"},
    {"single_min_subnormal", "fa00000001", "fa00000001"},
    {"single_negative_min_subnormal", "fa80000001", "fa80000001"},
    {"single_min_normal", "fa00800000", "fa00800000"},
    {"double_signalling_nan_payload_1", "fb7ff0000000000001", "fb7ff0000000000001"},
    {"double_quiet_nan_payload_1", "fb7ff8000000000001", "fb7ff8000000000001"},
    {"double_min_subnormal", "fb0000000000000001", "fb0000000000000001"},
};

void PrintTo(const wire_float_row& r, std::ostream* os) { *os << r.name << " " << r.hex; }

class float_wire_width : public ::testing::TestWithParam<wire_float_row> {};

TEST_P(float_wire_width, value_is_the_exact_widening) {
  const wire_float_row& r = GetParam();
  const exact_buffer in(from_hex(r.hex));
  reader rd(in.data(), in.size());
  const read_log log = read_all(rd, in.data(), in.size());  // stream_checker checks the bits
  EXPECT_STATUS(log.last, status::end);
}

TEST_P(float_wire_width, transcode) {
  const wire_float_row& r = GetParam();
  const bytes in = from_hex(r.hex);
  {
    SCOPED_TRACE("faithful: own width");
    bytes out;
    ASSERT_STATUS(transcode(in.data(), in.size(), float_mode::as_read, out), status::ok);
    EXPECT_EQ(to_hex(out), r.hex);
  }
  {
    SCOPED_TRACE("shortest width");
    bytes out;
    ASSERT_STATUS(transcode(in.data(), in.size(), float_mode::shortest, out), status::ok);
    EXPECT_EQ(to_hex(out), r.shortest);
  }
}

std::string wire_float_name(const ::testing::TestParamInfo<wire_float_row>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(beyond_appendix_a, float_wire_width, ::testing::ValuesIn(wire_float_rows),
                         wire_float_name);

// ---- all rows as one CBOR sequence (RFC 8742) ---------------------------------

TEST(appendix_a_sequence, all_rows_back_to_back) {
  bytes all;
  std::string trace;
  std::vector<std::string> diags;
  for (const row& r : rows) {
    const bytes b = from_hex(r.hex);
    all.insert(all.end(), b.begin(), b.end());
    if (!trace.empty()) trace += ' ';
    trace += r.trace;
    diags.push_back(printed_form(r.diag));
  }
  const exact_buffer in(all);
  {
    reader rd(in.data(), in.size());
    const read_log log = read_all(rd, in.data(), in.size());
    EXPECT_STATUS(log.last, status::end);
    EXPECT_EQ(log.trace, trace);
    EXPECT_STATUS(rd.finish(), status::ok);
  }
  {
    reader rd(in.data(), in.size());
    for (const std::string& d : diags) {
      std::string out;
      ASSERT_STATUS(cbor_fast::diag_next(rd, out), status::ok);
      EXPECT_EQ(out, d);
    }
    std::string out;
    EXPECT_STATUS(cbor_fast::diag_next(rd, out), status::end);
  }
  {
    reader rd(in.data(), in.size());
    for (size_t i = 0; i < diags.size(); ++i) ASSERT_STATUS(rd.skip(), status::ok);
    EXPECT_STATUS(rd.skip(), status::end);
  }
  bytes out;
  ASSERT_STATUS(transcode(in.data(), in.size(), float_mode::as_read, out), status::ok);
  EXPECT_EQ(to_hex(out), to_hex(all));
}

}  // namespace
