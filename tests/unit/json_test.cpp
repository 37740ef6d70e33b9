// JSON <-> CBOR (src/json): exact bytes both ways with boundary rows, error
// statuses with their offsets, the streaming output's bounded buffer.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cbor_fast/diag.hpp"
#include "cbor_fast/json.hpp"
#include "conformance/test_util.hpp"
#include "corpus.hpp"

namespace {

using namespace cbor_fast_test;
using cbor_fast::error_info;
using cbor_fast::status;

std::string json_hex(const std::string& json, status* s_out = nullptr, error_info* e_out = nullptr,
                     const cbor_fast::from_json_options& o = {}) {
  cbor_fast::writer w;
  error_info e;
  const status s = cbor_fast::json_to_cbor(json, w, o, &e);
  if (s_out != nullptr) *s_out = s;
  if (e_out != nullptr) *e_out = e;
  if (s != status::ok) return "";
  EXPECT_STATUS(w.finish(), status::ok);
  return to_hex(w.data(), w.size());
}

std::string to_json(const std::string& hex, const cbor_fast::to_json_options& o = {},
                    status expect = status::ok, size_t offset = 0) {
  std::string compact;
  for (char c : hex)
    if (c != ' ') compact += c;
  const bytes in = from_hex(compact);
  std::string out;
  error_info e;
  const status s = cbor_fast::cbor_to_json(in.data(), in.size(), out, o, &e);
  EXPECT_STATUS(s, expect) << hex;
  if (s != status::ok) {
    EXPECT_EQ(e.offset, offset) << hex;
  }
  return out;
}

struct from_row {
  const char* name;
  const char* json;
  const char* hex;
};

const from_row k_from_json[] = {
    {"uint_0", "0", "00"},
    {"uint_23", "23", "17"},
    {"uint_24", "24", "1818"},
    {"uint_255", "255", "18ff"},
    {"uint_256", "256", "190100"},
    {"uint_65535", "65535", "19ffff"},
    {"uint_65536", "65536", "1a00010000"},
    {"uint_2p32_minus_1", "4294967295", "1affffffff"},
    {"uint_2p32", "4294967296", "1b0000000100000000"},
    {"uint_2p63", "9223372036854775808", "1b8000000000000000"},
    {"uint_2p64_minus_1", "18446744073709551615", "1bffffffffffffffff"},
    {"bignum_2p64", "18446744073709551616", "c249010000000000000000"},
    {"bignum_30_digits", "123456789012345678901234567890", "c24d018ee90ff6c373e0ee4e3f0ad2"},
    {"neg_1", "-1", "20"},
    {"neg_24", "-24", "37"},
    {"neg_25", "-25", "3818"},
    {"neg_256", "-256", "38ff"},
    {"neg_257", "-257", "390100"},
    {"neg_2p63", "-9223372036854775808", "3b7fffffffffffffff"},
    {"neg_2p63_minus_1", "-9223372036854775809", "3b8000000000000000"},
    {"neg_2p64", "-18446744073709551616", "3bffffffffffffffff"},
    {"bignum_neg_2p64_minus_1", "-18446744073709551617", "c349010000000000000000"},
    {"minus_zero_is_int", "-0", "00"},
    {"float_zero", "0.0", "f90000"},
    {"float_minus_zero", "-0.0", "f98000"},
    {"float_1_5_half", "1.5", "f93e00"},
    {"float_exponent_is_float", "1E2", "f95640"},
    {"float_half_max", "65504.0", "f97bff"},
    {"float_above_half", "65536.5", "fa47800040"},
    {"float_100000_single", "100000.0", "fa47c35000"},
    {"float_single_max", "3.4028234663852886e+38", "fa7f7fffff"},
    {"float_1_1_double", "1.1", "fb3ff199999999999a"},
    {"float_half_subnormal", "5.960464477539063e-8", "f90001"},
    {"float_1e300", "1.0e+300", "fb7e37e43c8800759c"},
    {"text_empty", "\"\"", "60"},
    {"text_23", "\"aaaaaaaaaaaaaaaaaaaaaaa\"", "776161616161616161616161616161616161616161616161"},
    {"text_24", "\"aaaaaaaaaaaaaaaaaaaaaaaa\"",
     "7818616161616161616161616161616161616161616161616161"},
    {"text_escapes", "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0001\"", "6a61225c2f080c0a0d0901"},
    {"text_surrogate_pair", "\"\\ud83d\\ude00\"", "64f09f9880"},
    {"text_utf8", "\"\xc3\xbc\"", "62c3bc"},
    {"true", "true", "f5"},
    {"false", "false", "f4"},
    {"null", "null", "f6"},
    {"array_empty", "[]", "80"},
    {"array_nested", "[1,[2,3],[4,5]]", "8301820203820405"},
    {"array_23", "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
     "970101010101010101010101010101010101010101010101"},
    {"array_24", "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]",
     "9818010101010101010101010101010101010101010101010101"},
    {"object_empty", "{}", "a0"},
    {"object_order_kept", "{\"b\":1,\"a\":[2,{}]}", "a2616201616182 02a0"},
    {"whitespace_around", " \t\n[ 1 , 2 ]\r\n ", "820102"},
    {"bignum_in_array", "[1,18446744073709551616]", "8201c249010000000000000000"},
    // A fraction of 21 digits, on the DOM route and on the exact one (which an
    // integer past 64 bits selects; simdjson's On-Demand get_double() read it
    // as 0.01277632457008837 there), with the sign, an exponent and underflow.
    {"float_long_fraction_fast_route", "[1,0.123456789012345678901]", "8201fb3fbf9add3746f65f"},
    {"float_long_fraction_exact_route", "[18446744073709551616,0.123456789012345678901]",
     "82c249010000000000000000fb3fbf9add3746f65f"},
    {"float_exact_route_sign_exponent_underflow",
     "[18446744073709551616,-0.333333333333333333333,-2.5e-3,1e-400,-0.0]",
     "85c249010000000000000000fbbfd5555555555555fbbf647ae147ae147bf90000f98000"},
    // Exponents past any range that underflow: zero on both routes (the exact
    // route was out_of_range: simdjson's get_double() refused them there).
    {"float_huge_negative_exponent_fast_route",
     "[1,1e-99999999999999999999,0.0e99999999999999999999]", "8301f90000f90000"},
    {"float_huge_negative_exponent_exact_route",
     "[18446744073709551616,1e-99999999999999999999,-0.0e99999999999999999999,2]",
     "84c249010000000000000000f90000f9800002"},
};

TEST(json_to_cbor, exact_bytes) {
  for (const from_row& r : k_from_json) {
    SCOPED_TRACE(r.name);
    std::string want;
    for (const char* p = r.hex; *p != 0; ++p)
      if (*p != ' ') want += *p;
    status s;
    error_info e;
    EXPECT_EQ(json_hex(r.json, &s, &e), want);
    EXPECT_STATUS(s, status::ok) << "offset " << e.offset;
  }
}

struct error_row {
  const char* name;
  const char* json;
  status code;
  size_t offset;
};

const error_row k_errors[] = {
    {"empty", "", status::syntax_error, 0},
    {"trailing_comma", "[1,]", status::syntax_error, 3},
    {"missing_comma", "[1 2]", status::syntax_error, 3},
    {"object_missing_colon", "{\"a\"}", status::syntax_error, 4},
    {"object_number_key", "{1:2}", status::syntax_error, 1},
    {"unclosed_array", "[1,2", status::syntax_error, 4},
    {"extra_close", "[1] ]", status::syntax_error, 4},
    {"two_values", "1 2", status::syntax_error, 2},
    {"string_then_junk", "\"a\" x", status::syntax_error, 4},
    // A top-level number with something other than whitespace after it: the
    // number was read and the rest dropped ("2c" gave 2).
    {"integer_then_letter", "2c", status::syntax_error, 1},
    {"integer_then_bracket", "0]", status::syntax_error, 1},
    {"integer_then_array", "1[0", status::syntax_error, 1},
    {"negative_then_colon", "-3:5", status::syntax_error, 2},
    {"bignum_then_letter", "18446744073709551616x", status::syntax_error, 20},
    {"negative_bignum_then_bracket", "-18446744073709551617]", status::syntax_error, 21},
    {"float_then_letter", "1.5x", status::syntax_error, 3},
    {"exponent_then_letter", "1e5x", status::syntax_error, 3},
    {"float_then_bracket", "1.5]", status::syntax_error, 3},
    {"number_then_space_and_letter", "7 x", status::syntax_error, 2},
    {"leading_zero", "[01]", status::syntax_error, 1},
    {"bad_literal", "[true, fals]", status::syntax_error, 7},
    {"lone_minus", "[-]", status::syntax_error, 1},
    {"number_out_of_range", "[1e400]", status::out_of_range, 1},
    {"integer_over_4300_digits", nullptr, status::out_of_range, 1},
    // simdjson's first pass stops on these without an offset: located here
    // (they were all offset 0).
    {"control_char_in_string", "[1, \"a\tb\"]", status::syntax_error, 6},
    {"control_char_escaped", "[\"a\\\nb\"]", status::syntax_error, 4},
    {"unclosed_string", "[1, 2, \"abc", status::syntax_error, 7},
    {"unclosed_after_escaped_quote", "{\"k\": \"a\\\"", status::syntax_error, 6},
    // Escapes that do not unescape: at the backslash (they were at the end
    // of the text or past the string).
    {"lone_high_surrogate", "[\"a\", \"\\ud800\"]", status::syntax_error, 7},
    {"high_surrogate_then_not_low", "\"\\ud800\\u0041\"", status::syntax_error, 1},
    {"lone_low_surrogate_in_a_name", "{\"\\udc00\": 1}", status::syntax_error, 2},
    {"low_surrogate_in_a_nested_value", "[1, {\"k\": \"\\udfff\"}]", status::syntax_error, 11},
    {"escape_letter", "\"ab\\q\"", status::syntax_error, 3},
    {"escape_u_not_hex", "\"\\u12g4\"", status::syntax_error, 1},
};

TEST(json_to_cbor, errors_with_offsets) {
  for (const error_row& r : k_errors) {
    SCOPED_TRACE(r.name);
    std::string json = r.json != nullptr ? r.json : "[" + std::string(4301, '7') + "]";
    status s;
    error_info e;
    cbor_fast::writer w;
    s = cbor_fast::json_to_cbor(json, w, {}, &e);
    EXPECT_STATUS(s, r.code);
    EXPECT_EQ(e.code, r.code);
    EXPECT_EQ(e.offset, r.offset);
    EXPECT_EQ(w.size(), 0u) << "nothing is written on error";
  }
}

TEST(json_to_cbor, bignum_digit_limit_boundary) {
  status s;
  const std::string ok = "[" + std::string(4300, '9') + "]";
  EXPECT_NE(json_hex(ok, &s), "");
  EXPECT_STATUS(s, status::ok);
}

TEST(json_to_cbor, invalid_utf8) {
  // At the first bad sequence's lead byte (it was always offset 0).
  struct row_t {
    const char* name;
    std::string text;
    size_t offset;
  };
  const row_t rows[] = {
      {"in a string", std::string("[\"a\xff\"]"), 3},
      {"after an item", std::string("[1,\"\xff\"]"), 4},
      {"lead byte, bad follower", std::string("\"\xe2\x28\""), 1},
      {"in a key", std::string("{\"k\xc0\":1}"), 3},
  };
  for (const row_t& r : rows) {
    SCOPED_TRACE(r.name);
    status s;
    error_info e;
    json_hex(r.text, &s, &e);
    EXPECT_STATUS(s, status::invalid_utf8);
    EXPECT_EQ(e.offset, r.offset);
  }
}

TEST(json_to_cbor, depth_limit) {
  cbor_fast::from_json_options o;
  o.max_depth = 3;
  status s;
  error_info e;
  EXPECT_EQ(json_hex("[[[1]]]", &s, &e, o), "81818101");
  EXPECT_STATUS(s, status::ok);
  EXPECT_EQ(json_hex("[[[[1]]]]", &s, &e, o), "");
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 3u);
  // An empty innermost level: the fast route's parser took one level more
  // than the limit (its depth was max_depth + 1), so these four passed.
  for (const char* four : {"[[[[]]]]", "[[[{}]]]", "{\"a\":[[{}]]}"}) {
    SCOPED_TRACE(four);
    EXPECT_EQ(json_hex(four, &s, &e, o), "");
    EXPECT_STATUS(s, status::depth_exceeded);
  }
  EXPECT_EQ(e.offset, 7u);  // the fourth level of {"a":[[{}]]}
  EXPECT_EQ(json_hex("[[[]]]", &s, &e, o), "818180");
  EXPECT_STATUS(s, status::ok);
  // The smallest limits: 0 takes scalars only, 1 one level.
  const struct {
    uint32_t limit;
    const char* fits;
    const char* fits_hex;
    const char* deeper;
    size_t deeper_at;
  } smallest[] = {{0, "7", "07", " []", 1}, {1, "[]", "80", "[{}]", 1}};
  for (const auto& r : smallest) {
    SCOPED_TRACE(r.limit);
    o.max_depth = r.limit;
    EXPECT_EQ(json_hex(r.fits, &s, &e, o), r.fits_hex);
    EXPECT_STATUS(s, status::ok);
    EXPECT_EQ(json_hex(r.deeper, &s, &e, o), "");
    EXPECT_STATUS(s, status::depth_exceeded);
    EXPECT_EQ(e.offset, r.deeper_at);
  }
  // A bignum's tag is a level too, as in diag_parse (from-json wrote a tag
  // one level past the limit, which a reader with that limit refused).
  o.max_depth = 3;
  EXPECT_EQ(json_hex("[[123456789012345678901234567890]]", &s, &e, o),
            "8181c24d018ee90ff6c373e0ee4e3f0ad2");
  EXPECT_STATUS(s, status::ok);
  EXPECT_EQ(json_hex("[[[123456789012345678901234567890]]]", &s, &e, o), "");
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 3u);
  EXPECT_EQ(json_hex("[[[-18446744073709551617]]]", &s, &e, o), "");
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 3u);
  EXPECT_EQ(json_hex("[[[-18446744073709551616]]]", &s, &e, o), "8181813bffffffffffffffff");
  EXPECT_STATUS(s, status::ok);
  o.max_depth = 0;
  EXPECT_EQ(json_hex(" 18446744073709551616", &s, &e, o), "");
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 1u);
  // A lifted limit: simdjson's parsers are sized by the text, not the limit.
  o.max_depth = UINT32_MAX;
  EXPECT_EQ(json_hex("[[1]]", &s, &e, o), "818101");
  EXPECT_STATUS(s, status::ok);
  EXPECT_EQ(json_hex(std::string(3000, '[') + std::string(3000, ']'), &s, &e, o).size(),
            2u * 3000 - 2 + 2);
  EXPECT_STATUS(s, status::ok);
  EXPECT_EQ(json_hex(std::string(3000, '['), &s, &e, o), "");
  EXPECT_STATUS(s, status::syntax_error);
  // The default limit (1024), no recursion either way.
  const std::string deep_ok = std::string(1024, '[') + std::string(1024, ']');
  EXPECT_NE(json_hex(deep_ok, &s, &e), "");
  EXPECT_STATUS(s, status::ok);
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  json_hex(deep, &s, &e);
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 1024u);
}

TEST(json_to_cbor, duplicate_keys) {
  cbor_fast::from_json_options o;
  o.reject_duplicate_keys = true;
  status s;
  error_info e;
  EXPECT_EQ(json_hex("{\"a\":1,\"b\":{\"a\":2}}", &s, &e, o), "a26161016162a1616102");
  EXPECT_STATUS(s, status::ok);
  json_hex("{\"a\":1,\"b\":2,\"a\":3}", &s, &e, o);
  EXPECT_STATUS(s, status::duplicate_key);
  EXPECT_EQ(e.offset, 13u);
  // Escapes compare by their value: "\u0061" is "a".
  json_hex("[{\"a\":1,\"\\u0061\":3}]", &s, &e, o);
  EXPECT_STATUS(s, status::duplicate_key);
  EXPECT_EQ(e.offset, 8u);
  // Off by default: both pairs kept.
  EXPECT_EQ(json_hex("{\"a\":1,\"a\":2}", &s), "a2616101616102");
}

TEST(json_to_cbor, writer_error_is_reported) {
  uint8_t buf[2];
  cbor_fast::writer w(buf, sizeof buf);
  error_info e;
  EXPECT_STATUS(cbor_fast::json_to_cbor("[1,2,3]", w, {}, &e), status::buffer_too_small);
  EXPECT_EQ(w.size(), 4u);
}

struct to_row {
  const char* name;
  const char* hex;
  const char* json;
};

const to_row k_to_json[] = {
    {"uint_0", "00", "0"},
    {"uint_24", "1818", "24"},
    {"uint_max", "1bffffffffffffffff", "18446744073709551615"},
    {"neg_1", "20", "-1"},
    {"neg_2p64", "3bffffffffffffffff", "-18446744073709551616"},
    {"float_half", "f93e00", "1.5"},
    {"float_int_valued", "f93c00", "1.0"},
    {"float_1e300", "fb7e37e43c8800759c", "1e+300"},
    {"float_small", "fb3e7ad7f29abcaf48", "1e-07"},
    {"float_plain", "fbc0506745803cd142", "-65.613617"},
    {"float_minus_zero", "f98000", "-0.0"},
    {"float_nan", "f97e00", "null"},
    {"float_inf", "f97c00", "null"},
    {"float_minus_inf", "fbfff0000000000000", "null"},
    {"bytes_0", "40", "\"\""},
    {"bytes_1", "4101", "\"AQ\""},
    {"bytes_2", "420102", "\"AQI\""},
    {"bytes_3", "43010203", "\"AQID\""},
    {"bytes_4_url_alphabet", "44fbff0102", "\"-_8BAg\""},
    {"tag22_base64_padded", "d81644fbff0102", "\"+/8BAg==\""},
    {"tag23_base16", "d81742abcd", "\"ABCD\""},
    {"tag22_then_tag21_inside", "d81682d8154201024201ff", "[\"AQI\",\"Af8=\"]"},
    {"tag23_applies_deep", "d817a1616182410141ff", "{\"a\":[\"01\",\"FF\"]}"},
    {"bytes_indefinite_carry", "5f41014102430304054106ff", "\"AQIDBAUG\""},
    {"bytes_indefinite_empty", "5fff", "\"\""},
    {"text", "6449455446", "\"IETF\""},
    {"text_escapes", "6822 5c 0a 09 01 7f c3 bc", "\"\\\"\\\\\\n\\t\\u0001\x7f\xc3\xbc\""},
    {"text_indefinite", "7f657374726561646d696e67ff", "\"streaming\""},
    {"false_true_null", "83f4f5f6", "[false,true,null]"},
    {"undefined_simple", "82f7f0", "[null,null]"},
    {"array_indefinite", "9f018202039f0405ffff", "[1,[2,3],[4,5]]"},
    {"map", "a26161016162820203", "{\"a\":1,\"b\":[2,3]}"},
    {"map_int_keys", "a201020304", "{\"1\":2,\"3\":4}"},
    {"map_other_keys", "a4f5014201ff02820102032001",
     "{\"true\":1,\"h'01ff'\":2,\"[1, 2]\":3,\"-1\":1}"},
    {"map_text_in_key_escaped", "a1816161 00", "{\"[\\\"a\\\"]\":0}"},
    {"map_indefinite_text_key", "bf7f6161ff01ff", "{\"a\":1}"},
    {"bignum_2p64", "c249010000000000000000", "18446744073709551616"},
    {"bignum_neg", "c349010000000000000000", "-18446744073709551617"},
    {"bignum_empty", "c240", "0"},
    {"bignum_neg_empty", "c340", "-1"},
    {"bignum_indefinite_is_string", "c35f4101ff", "\"~AQ\""},
    {"tag_dropped", "c074323031332d30332d32315432303a30343a30305a", "\"2013-03-21T20:04:00Z\""},
    {"tag2_over_text_dropped", "c26161", "\"a\""},
    {"nested_tags_dropped", "d818d81801", "1"},
    // Tag 2 or 3 over an array: an ordinary tag (its array once lost its
    // "[", or gave internal_error).
    {"tag2_over_array", "c28101", "[1]"},
    {"tag3_over_array_in_array", "81c38101", "[[1]]"},
    {"tag2_over_floats", "c282f93e00f93e00", "[1.5,1.5]"},
    {"tag22_tag2_array_of_bytes", "81d6c28141ff", "[[\"/w==\"]]"},
    {"tag2_over_nested_arrays", "c2828100 80", "[[0],[]]"},
    {"tag2_over_empty_array", "c280", "[]"},
};

TEST(cbor_to_json, exact_text) {
  for (const to_row& r : k_to_json) {
    SCOPED_TRACE(r.name);
    std::string hex;
    for (const char* p = r.hex; *p != 0; ++p)
      if (*p != ' ') hex += *p;
    EXPECT_EQ(to_json(hex), r.json);
  }
}

TEST(cbor_to_json, keep_tags) {
  cbor_fast::to_json_options o;
  o.keep_tags = true;
  EXPECT_EQ(to_json("c11a514b67b0", o), "{\"tag\":1,\"value\":1363896240}");
  EXPECT_EQ(to_json("d82000", o), "{\"tag\":32,\"value\":0}");
  EXPECT_EQ(to_json("c26161", o), "{\"tag\":2,\"value\":\"a\"}");
  EXPECT_EQ(to_json("c28101", o), "{\"tag\":2,\"value\":[1]}");
  EXPECT_EQ(to_json("81c3820102", o), "[{\"tag\":3,\"value\":[1,2]}]");
  // Bignums and the 21-23 hints are never kept as tags.
  EXPECT_EQ(to_json("c249010000000000000000", o), "18446744073709551616");
  EXPECT_EQ(to_json("d8174101", o), "\"01\"");
}

TEST(cbor_to_json, bignum_length_boundary) {
  // A number while it has at most the 4300 digits json_to_cbor reads back;
  // else the RFC's base64url string. 1786 bytes of ff (2^14288 - 1) has 4302
  // digits: a string (it was printed as a number json_to_cbor and Python
  // refuse).
  const std::string hex1786 = "c25906fa" + std::string(2 * 1786, 'f');
  const std::string n = to_json(hex1786);
  EXPECT_EQ(n.substr(0, 4), "\"___");
  EXPECT_EQ(n.size(), 2u + 2382u);  // ceil(1786 * 4 / 3) characters, quoted
  // 10^4300 (4301 digits, 1786 bytes) a string; 10^4300 - 1 (4300 nines,
  // below) a number.
  {
    cbor_fast::writer w;
    ASSERT_STATUS(cbor_fast::json_to_cbor("1" + std::string(4299, '0'), w), status::ok);
    std::string back;
    ASSERT_STATUS(cbor_fast::cbor_to_json(w.data(), w.size(), back), status::ok);
    EXPECT_EQ(back.size(), 4300u);
    EXPECT_EQ(back[0], '1');
  }
  const std::string hex1787 = "c35906fb01" + std::string(2 * 1786, '0');
  const std::string s = to_json(hex1787);
  EXPECT_EQ(s.substr(0, 2), "\"~");
  EXPECT_EQ(s.size(), 2u + 2383u + 1u);  // ceil(1787 * 4 / 3) characters
  // Leading zero bytes do not count: 1800 zeros before 01 is the number 1.
  EXPECT_EQ(to_json("c2590709" + std::string(2 * 1800, '0') + "01"), "1");
  EXPECT_EQ(to_json("c3590709" + std::string(2 * 1800, '0') + "01"), "-2");
  // The largest integer json_to_cbor reads (4300 nines) comes back as itself.
  const std::string nines(4300, '9');
  cbor_fast::writer w;
  ASSERT_STATUS(cbor_fast::json_to_cbor(nines, w), status::ok);
  std::string back;
  ASSERT_STATUS(cbor_fast::cbor_to_json(w.data(), w.size(), back), status::ok);
  EXPECT_EQ(back, nines);
}

TEST(cbor_to_json, errors) {
  // At the first bad sequence's lead byte, as a validating reader says (it
  // was the string's head: 0, 3, 3, 1, 2).
  to_json("62c328", {}, status::invalid_utf8, 1);
  to_json("826161 62c328", {}, status::invalid_utf8, 4);
  to_json("826161 63 61c328", {}, status::invalid_utf8, 5);
  to_json("7f6161 62ff61 ff", {}, status::invalid_utf8, 4);
  to_json("a1 62ff61 01", {}, status::invalid_utf8, 2);     // a text key
  to_json("a1 81 62ff61 01", {}, status::invalid_utf8, 3);  // inside a non-text key
  // The same offsets from json_next on a reader that validates UTF-8 itself.
  for (const auto& [hex, at] : {std::pair<const char*, size_t>{"62c328", 1},
                                {"82616163 61c328", 5},
                                {"7f6161 62ff61 ff", 4},
                                {"a1 62ff61 01", 2}}) {
    SCOPED_TRACE(hex);
    std::string compact;
    for (const char* c = hex; *c != '\0'; ++c)
      if (*c != ' ') compact += *c;
    const bytes in = from_hex(compact);
    cbor_fast::reader_options ro;
    ro.validate_utf8 = true;
    cbor_fast::reader r(in.data(), in.size(), ro);
    std::string out;
    error_info e;
    EXPECT_STATUS(cbor_fast::json_next(r, out, {}, &e), status::invalid_utf8);
    EXPECT_EQ(e.offset, at);
  }
  to_json("8201", {}, status::truncated, 0);  // the reader names the unfinished array
  to_json("", {}, status::truncated, 0);
  to_json("0101", {}, status::trailing_bytes, 1);
  to_json("ff", {}, status::unexpected_break, 0);
}

/// Records the largest chunk a sink receives.
struct chunk_log {
  size_t largest = 0;
  size_t total = 0;
  std::string text;
};
int log_sink(void* ctx, const char* data, size_t size) {
  auto* log = static_cast<chunk_log*>(ctx);
  if (size > log->largest) log->largest = size;
  log->total += size;
  if (log->text.size() < 64) log->text.append(data, size < 64 ? size : 64);
  return 0;
}
int failing_sink(void*, const char*, size_t) { return 1; }

TEST(cbor_to_json, streams_in_bounded_chunks) {
  // 2,000 byte strings of 3,000 bytes: 8 MB of JSON through a 4 KiB output.
  cbor_fast::writer w;
  ASSERT_STATUS(w.begin_array(2000), status::ok);
  const std::vector<uint8_t> blob(3000, 0xab);
  for (int i = 0; i < 2000; ++i) ASSERT_STATUS(w.write_bytes(blob.data(), blob.size()), status::ok);
  ASSERT_STATUS(w.end(), status::ok);
  cbor_fast::reader r(w.data(), w.size());
  chunk_log log;
  cbor_fast::text_output out(log_sink, &log, 4096);
  ASSERT_STATUS(cbor_fast::json_next(r, out), status::ok);
  EXPECT_EQ(log.total, 2u + 2000u * 4002u + 1999u);  // [ ], 2000 x "4000 chars", 1999 commas
  EXPECT_LE(log.largest, 4096u + 4096u);
  EXPECT_EQ(log.text.substr(0, 6), "[\"q6ur");

  cbor_fast::reader r2(w.data(), w.size());
  cbor_fast::text_output bad(failing_sink, nullptr, 4096);
  EXPECT_STATUS(cbor_fast::json_next(r2, bad), status::sink_failed);
}

TEST(cbor_to_json, deep_nesting_no_recursion) {
  // 100,000 nested arrays (the reader's limit raised): no stack overflow.
  std::vector<uint8_t> in(100000, 0x81);
  in.push_back(0x00);
  cbor_fast::reader_options o;
  o.max_depth = 200000;
  cbor_fast::reader r(in.data(), in.size(), o);
  std::string out;
  ASSERT_STATUS(cbor_fast::json_next(r, out), status::ok);
  EXPECT_EQ(out.size(), 200001u);
}

TEST(json_round_trip, corpus_files_are_stable) {
  // JSON -> CBOR -> JSON -> CBOR: the two CBOR encodings are identical (the
  // value comparison with Python's json is tests/cli json_corpus).
  for (const char* name : {"twitter", "citm_catalog", "canada"}) {
    SCOPED_TRACE(name);
    std::vector<uint8_t> text;
    ASSERT_TRUE(cbor_fast_test::read_corpus(name, text, ".json"));
    const std::string json(text.begin(), text.end());
    cbor_fast::writer w1;
    ASSERT_STATUS(cbor_fast::json_to_cbor(json, w1), status::ok);
    std::string j;
    ASSERT_STATUS(cbor_fast::cbor_to_json(w1.data(), w1.size(), j), status::ok);
    cbor_fast::writer w2;
    ASSERT_STATUS(cbor_fast::json_to_cbor(j, w2), status::ok);
    ASSERT_EQ(w1.size(), w2.size());
    EXPECT_EQ(std::memcmp(w1.data(), w2.data(), w1.size()), 0);
  }
}

}  // namespace
