// diag_parse (src/diag/parse.cpp): diagnostic notation and EDN literals to
// exact bytes, encoding indicators, errors with their text offsets, the
// printer -> parser round trip. (Every RFC 8949 Appendix A row goes through
// the parser in tests/conformance/appendix_a_test.cpp, test from_diag.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cbor_fast/diag.hpp"
#include "conformance/test_util.hpp"

namespace {

using namespace cbor_fast_test;
using cbor_fast::error_info;
using cbor_fast::status;

std::string parse_hex(const std::string& text, status* s_out = nullptr, error_info* e_out = nullptr,
                      const cbor_fast::diag_parse_options& o = {}) {
  std::vector<uint8_t> out;
  error_info e;
  const status s = cbor_fast::diag_parse(text, out, o, &e);
  if (s_out != nullptr) *s_out = s;
  if (e_out != nullptr) *e_out = e;
  return to_hex(out.data(), out.size());
}

struct row {
  const char* name;
  const char* text;
  const char* hex;
};

const row k_rows[] = {
    {"uint_23", "23", "17"},
    {"uint_24", "24", "1818"},
    {"uint_255_256", "[255, 256]", "8218ff190100"},
    {"uint_2p32", "4294967296", "1b0000000100000000"},
    {"uint_2p64_minus_1", "18446744073709551615", "1bffffffffffffffff"},
    {"bignum_2p64", "18446744073709551616", "c249010000000000000000"},
    {"neg_2p64", "-18446744073709551616", "3bffffffffffffffff"},
    {"bignum_neg_2p64_minus_1", "-18446744073709551617", "c349010000000000000000"},
    {"hex_int", "0xff", "18ff"},
    {"hex_bignum", "0x10000000000000000", "c249010000000000000000"},
    // Octal and binary beyond 64 bits too (they were out_of_range).
    {"octal_bignum_2p64", "0o2000000000000000000000", "c249010000000000000000"},
    {"octal_bignum_odd_bits", "0o7777777777777777777777", "c24903ffffffffffffffff"},
    {"octal_u64_max", "0o1777777777777777777777", "1bffffffffffffffff"},
    {"binary_bignum_2p64", "0b10000000000000000000000000000000000000000000000000000000000000000",
     "c249010000000000000000"},
    {"binary_neg_2p64", "-0b10000000000000000000000000000000000000000000000000000000000000000",
     "3bffffffffffffffff"},
    {"binary_neg_2p64_minus_1",
     "-0b10000000000000000000000000000000000000000000000000000000000000001",
     "c349010000000000000000"},
    {"octal_binary", "[0o17, 0b101]", "820f05"},
    {"minus_zero", "-0", "00"},
    {"indicator_0", "1_0", "1801"},
    {"indicator_1", "1_1", "190001"},
    {"indicator_2", "-1_2", "3a00000000"},
    {"indicator_3", "1_3", "1b0000000000000001"},
    // -2^64 has a head (0x3b ff..ff) though its digits pass 64 bits: with the
    // indicator it was out_of_range.
    {"indicator_3_minus_2_to_the_64", "-18446744073709551616_3", "3bffffffffffffffff"},
    {"indicator_3_minus_2_to_the_64_hex", "-0x10000000000000000_3", "3bffffffffffffffff"},
    {"indicator_3_minus_2_to_the_64_plus_1", "-18446744073709551615_3", "3bfffffffffffffffe"},
    {"indicator_text", "\"a\"_0", "780161"},
    {"indicator_bytes", "h'01'_1", "59000101"},
    {"indicator_array", "[_0 1]", "980101"},
    {"indicator_map_empty", "{_1 }", "b90000"},
    {"indicator_tag", "1_1(2)", "d9000102"},
    {"float_shortest_half", "1.5", "f93e00"},
    {"float_shortest_single", "100000.0", "fa47c35000"},
    {"float_double", "1.1", "fb3ff199999999999a"},
    {"float_width_3", "1.5_3", "fb3ff8000000000000"},
    {"float_width_2", "1.5_2", "fa3fc00000"},
    {"float_half_max", "65504.0_1", "f97bff"},
    {"float_half_rounded_to_max", "65519.99_1", "f97bff"},
    {"float_half_rounded", "1.001_1", "f93c01"},
    {"float_half_underflow_to_zero", "1e-10_1", "f90000"},
    // Below half the smallest double, the nearest double is zero, as for
    // JSON numbers (it was out_of_range); the largest ones stay refused.
    {"float_underflow_to_zero", "1e-400", "f90000"},
    {"float_underflow_to_negative_zero", "-1e-400", "f98000"},
    {"float_underflow_below_half_the_smallest", "2.4e-324", "f90000"},
    {"float_smallest_subnormal", "4.9e-324", "fb0000000000000001"},
    {"float_underflow_leading_zeros", "0.0000001e-320", "f90000"},
    {"float_underflow_many_digits", "1000e-400", "f90000"},
    {"float_underflow_width_3", "1e-400_3", "fb0000000000000000"},
    {"float_hex_underflow", "0x1p-2000", "f90000"},
    {"float_underflow_huge_exponent", "100000000000e-10000000000000000000000", "f90000"},
    {"float_single_max", "3.4028235e38_2", "fa7f7fffff"},
    {"float_single_rounded", "1.1_2", "fa3f8ccccd"},
    {"infinity_half", "-Infinity_1", "f9fc00"},
    {"float_exponent", "1e3", "f963d0"},
    {"float_hex", "0x1.8p1", "f94200"},
    {"nan", "NaN", "f97e00"},
    {"nan_single", "NaN_2", "fa7fc00000"},
    {"infinity_double", "-Infinity_3", "fbfff0000000000000"},
    {"text_escapes", "\"\\\"\\\\\\n\\u00fc\\ud800\\udd51\"", "69225c0ac3bcf0908591"},
    {"bytes_single_quoted", "'a\\'b'", "43612762"},
    // G.2: a single-quoted string takes the escapes of a double-quoted one
    // (only \\' and \\\\ were taken; the rest were syntax errors).
    {"bytes_escapes", "'\\n\\t\\\"\\/\\\\\\b\\f\\r'", "48 0a09222f5c080c0d"},
    {"bytes_escaped_u", "'\\u00fc\\ud83d\\ude00'", "46 c3bc f09f9880"},
    {"bytes_raw_utf8", "'\xc3\xbc'", "42c3bc"},
    {"hex_with_space_and_comment", "h'01 02 /three:/ 03'", "43010203"},
    {"b64", "b64'AQID'", "43010203"},
    {"b64url_no_padding", "b64'-_8'", "42fbff"},
    {"b64_padding", "b64'AQ=='", "4101"},
    // '/' is a base64 digit there, not a comment (RFC 8610 errata 6543):
    // these were 3 bytes, or a syntax error at the '/'.
    {"b64_slash_is_a_digit", "b64'AA/AA/AA'", "46 000fc003f000"},
    {"b64_classic_alphabet", "b64'AQID+/8='", "45 010203fbff"},
    {"b64_slash_after_space", "b64'/w== '", "41ff"},
    {"b64_space_then_slash", "b64'AQ /w'", "43 010ff0"},
    {"b32", "b32'MFRGG'", "43616263"},
    {"h32", "h32'C5H66'", "43616263"},
    {"concatenation_plus", "\"a\" + \"b\"", "626162"},
    {"concatenation_side_by_side", "['Hello ' h'776f726c64']", "814b48656c6c6f20776f726c64"},
    // RFC 8610 G.4's four spellings of "Hello world", at the top level of
    // one item too (they were syntax errors there, joined only inside a
    // container): text with bytes inside it is text, bytes alone bytes.
    {"g4_text_side_by_side", "\"Hello \" \"world\"", "6b48656c6c6f20776f726c64"},
    {"g4_bytes_inside_text", "\"Hello\" h'20' \"world\"", "6b48656c6c6f20776f726c64"},
    {"g4_bytes_between_empty_text", "\"\" h'48656c6c6f20776f726c64' \"\"",
     "6b48656c6c6f20776f726c64"},
    {"g4_text_plus", "\"Hello \" + \"world\"", "6b48656c6c6f20776f726c64"},
    {"bytes_side_by_side_top", "'a' h'62'", "426162"},
    {"indefinite_bytes", "(_ h'0102', h'030405')", "5f42010243030405ff"},
    {"indefinite_text_empty", "\"\"_", "7fff"},
    {"indefinite_bytes_empty", "''_", "5fff"},
    {"indefinite_array", "[_ 1, [2, 3], [_ 4, 5]]", "9f018202039f0405ffff"},
    {"indefinite_map_empty", "{_ }", "bfff"},
    {"map", "{\"a\": 1, \"b\": [2, 3]}", "a26161016162820203"},
    {"tags", "0(\"x\")", "c06178"},
    {"tag_nested", "24(24(1))", "d818d81801"},
    {"embedded", "<<1, [2]>>", "4301810 2"},
    {"embedded_empty", "<<>>", "40"},
    {"embedded_nested", "<< << 1 >> >>", "424101"},
    {"simple", "[simple(0), simple(19), simple(32), simple(255)]", "84e0f3f820f8ff"},
    {"words", "[false, true, null, undefined]", "84f4f5f6f7"},
    {"comments", "# leading\n[1, /inline/ 2] # trailing", "820102"},
};

TEST(diag_parse, exact_bytes) {
  for (const row& r : k_rows) {
    SCOPED_TRACE(r.name);
    std::string want;
    for (const char* p = r.hex; *p != 0; ++p)
      if (*p != ' ') want += *p;
    status s;
    error_info e;
    EXPECT_EQ(parse_hex(r.text, &s, &e), want);
    EXPECT_STATUS(s, status::ok) << "offset " << e.offset;
  }
}

struct error_row {
  const char* name;
  const char* text;
  status code;
  size_t offset;
};

const error_row k_errors[] = {
    {"empty", "", status::syntax_error, 0},
    {"only_comment", "/c/", status::syntax_error, 3},
    {"unclosed_comment", "1 /c", status::syntax_error, 2},
    {"trailing_comma", "[1,]", status::syntax_error, 3},
    {"missing_comma", "[1 2]", status::syntax_error, 3},
    {"map_odd", "{1}", status::syntax_error, 2},
    {"map_missing_colon", "{1, 2}", status::syntax_error, 2},
    {"unclosed_text", "\"abc", status::syntax_error, 0},
    {"bad_escape", "\"\\x\"", status::syntax_error, 1},
    {"lone_low_surrogate", "\"\\udc00\"", status::syntax_error, 1},
    // Single-quoted: no raw control character, UTF-8 text, JSON's escapes
    // (a raw 01 and ff were taken as bytes: 'a<01>b' was 43610162).
    {"bytes_raw_control",
     "'a\x01"
     "b'",
     status::syntax_error, 2},
    {"bytes_invalid_utf8", "'\xff'", status::invalid_utf8, 0},
    {"bytes_bad_escape", "'\\x'", status::syntax_error, 1},
    {"bytes_lone_surrogate", "'\\ud800'", status::syntax_error, 1},
    {"bytes_unclosed", "'ab", status::syntax_error, 0},
    {"two_items", "1 2", status::syntax_error, 2},
    {"unknown_word", "[tru]", status::syntax_error, 1},
    {"odd_hex", "h'012'", status::syntax_error, 5},
    {"bad_hex_digit", "h'0g'", status::syntax_error, 3},
    {"b64_leftover_bits", "b64'AR'", status::syntax_error, 6},
    // One character too many for a byte (six bits): was h''.
    {"b64_one_char", "b64'A'", status::syntax_error, 5},
    {"b64_one_char_padded", "b64'A==='", status::syntax_error, 8},
    {"b64_five_chars", "b64'AQIDA'", status::syntax_error, 9},
    {"chunk_not_string", "(_ 1)", status::syntax_error, 3},
    {"chunk_types_mixed", "(_ \"a\", h'00')", status::syntax_error, 8},
    // G.4: text does not join bytes (this was the byte string 'ab').
    {"text_after_bytes", "'a' \"b\"", status::syntax_error, 4},
    {"text_after_bytes_plus", "['a' + \"b\"]", status::syntax_error, 7},
    {"text_after_hex", "h'61' \"b\"", status::syntax_error, 6},
    {"chunks_empty", "(_ )", status::syntax_error, 3},
    {"indefinite_chunk", "(_ ''_)", status::syntax_error, 3},
    {"indicator_too_small", "256_0", status::out_of_range, 0},
    {"indicator_on_bignum", "18446744073709551616_3", status::out_of_range, 0},
    {"indicator_on_negative_bignum", "-18446744073709551617_3", status::out_of_range, 0},
    {"indicator_too_small_minus_2_to_the_64", "-18446744073709551616_2", status::out_of_range, 0},
    {"indicator_bad", "1_4", status::syntax_error, 1},
    {"float_indicator_0", "1.5_0", status::syntax_error, 3},
    {"simple_reserved", "simple(24)", status::out_of_range, 7},
    {"simple_too_big", "simple(256)", status::out_of_range, 7},
    {"tag_negative", "-1(2)", status::syntax_error, 0},
    {"tag_without_item", "1()", status::syntax_error, 2},
    {"tag_two_items", "1(2, 3)", status::syntax_error, 3},
    {"unclosed_array", "[1", status::syntax_error, 2},
    {"unclosed_embedded", "<<1", status::syntax_error, 3},
    {"invalid_utf8_text", "\"\xff\"", status::invalid_utf8, 0},
    {"float_out_of_range", "1e400", status::out_of_range, 0},
    {"float_out_of_range_small_exponent", "1000000000000000000000e300", status::out_of_range, 0},
    {"float_hex_out_of_range", "-0x1p2000", status::out_of_range, 0},
    {"float_past_half", "[65520.0_1]", status::out_of_range, 1},
    {"float_past_half_negative", "-65520.0_1", status::out_of_range, 0},
    {"float_past_single", "1e39_2", status::out_of_range, 0},
    {"float_hex_past_single", "0x1p128_2", status::out_of_range, 0},
};

TEST(diag_parse, errors_with_offsets) {
  for (const error_row& r : k_errors) {
    SCOPED_TRACE(r.name);
    std::vector<uint8_t> out = {0xaa};
    error_info e;
    EXPECT_STATUS(cbor_fast::diag_parse(r.text, out, {}, &e), r.code);
    EXPECT_EQ(e.code, r.code);
    EXPECT_EQ(e.offset, r.offset);
    EXPECT_EQ(out.size(), 1u) << "output untouched on error";
  }
}

TEST(diag_parse, sequence) {
  cbor_fast::diag_parse_options o;
  o.sequence = true;
  status s;
  EXPECT_EQ(parse_hex("1 2, [3]\n\"x\"\n", &s, nullptr, o), "010281036178");
  EXPECT_STATUS(s, status::ok);
  // Side by side at the top level of a sequence: two items, not one string.
  EXPECT_EQ(parse_hex("\"a\" \"b\"", &s, nullptr, o), "61616162");
  EXPECT_EQ(parse_hex("\"a\" + \"b\"", &s, nullptr, o), "626162");
  // A comment separates too; nothing at all does not (these once read as
  // two or three items: 7 and 8, 1 and -1, ...).
  EXPECT_EQ(parse_hex("1/c/2#d\n3", &s, nullptr, o), "010203");
  EXPECT_STATUS(s, status::ok);
  struct unseparated {
    const char* text;
    size_t offset;
  };
  for (const unseparated& u :
       {unseparated{"0o78", 3}, unseparated{"0b12", 3}, unseparated{"1-1", 1},
        unseparated{"\"a\"\"b\"", 3}, unseparated{"1(2)3", 4}, unseparated{"[1]2", 3},
        unseparated{"1 2h'00'", 3}}) {
    SCOPED_TRACE(u.text);
    error_info e;
    std::vector<uint8_t> out;
    EXPECT_STATUS(cbor_fast::diag_parse(u.text, out, o, &e), status::syntax_error);
    EXPECT_EQ(e.offset, u.offset);
  }
  // No item at all is an empty sequence (RFC 8742), comments or not; a
  // single item is still due without the option.
  for (const char* empty : {"", "  \n", "/c/", "# x\n", "/a/ # b\n"}) {
    SCOPED_TRACE(empty);
    EXPECT_EQ(parse_hex(empty, &s, nullptr, o), "");
    EXPECT_STATUS(s, status::ok);
    parse_hex(empty, &s, nullptr, {});
    EXPECT_STATUS(s, status::syntax_error);
  }
}

TEST(diag_parse, depth_limit_without_recursion) {
  cbor_fast::diag_parse_options o;
  o.max_depth = 3;
  status s;
  error_info e;
  EXPECT_EQ(parse_hex("[[[1]]]", &s, &e, o), "81818101");
  EXPECT_STATUS(s, status::ok);
  parse_hex("[[1(1)]]", &s, &e, o);
  EXPECT_STATUS(s, status::ok);
  parse_hex("[[[[1]]]]", &s, &e, o);
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 3u);
  // A number beyond 64 bits is a bignum: its tag is a level too (found by
  // the edn fuzz target: the parser's output failed a reader's depth check).
  EXPECT_EQ(parse_hex("[[18446744073709551616]]", &s, &e, o), "8181c249010000000000000000");
  EXPECT_STATUS(s, status::ok);
  parse_hex("[[[18446744073709551616]]]", &s, &e, o);
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 3u);
  parse_hex("[[[-18446744073709551617]]]", &s, &e, o);
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 3u);
  // -2^64 is still major type 1: no tag, no level.
  EXPECT_EQ(parse_hex("[[[-18446744073709551616]]]", &s, &e, o), "8181813bffffffffffffffff");
  EXPECT_STATUS(s, status::ok);
  parse_hex("<<<<<<<<1>>>>>>>>", &s, &e, o);
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 6u);
  // Far deeper than any call stack, at the default limit and past it.
  const std::string ok = std::string(512, '[') + std::string(512, ']');
  parse_hex(ok, &s, &e);
  EXPECT_STATUS(s, status::ok);
  const std::string deep = std::string(1000000, '[');
  parse_hex(deep, &s, &e);
  EXPECT_STATUS(s, status::depth_exceeded);
  EXPECT_EQ(e.offset, 512u);
}

/// Printer -> parser with every encoding indicator: the same bytes.
TEST(diag_parse, round_trip_with_indicators) {
  const char* inputs[] = {
      "1801",                    // 1 with a one-byte argument
      "1b0000000000000001",      // 1 in eight bytes
      "3a00000000",              // -1 in four bytes
      "780161",                  // "a" with a one-byte length
      "980101",                  // [1] with a one-byte count
      "b90000",                  // {} with a two-byte count
      "d9000102",                // tag 1 in two bytes
      "fa3fc00000",              // 1.5 as a single
      "fb7ff8000000000000",      // NaN as a double
      "5f42010243030405ff",      // (_ h'0102', h'030405')
      "7f780161ff",              // (_ "a"_0)
      "bf61610161629fffff",      // {_ "a": 1, "b": [_ ]}
      "c249010000000000000000",  // a bignum stays a tag over bytes
      "d818456449455446",        // 24(h'...')
      "f8ff",                    // simple(255)
  };
  for (const char* hex : inputs) {
    SCOPED_TRACE(hex);
    const bytes in = from_hex(hex);
    cbor_fast::reader r(in.data(), in.size());
    std::string text;
    cbor_fast::diag_options o;
    o.encoding_indicators = true;
    ASSERT_STATUS(cbor_fast::diag_next(r, text, o), status::ok);
    status s;
    EXPECT_EQ(parse_hex(text, &s), hex) << text;
    EXPECT_STATUS(s, status::ok);
  }
}

TEST(diag_write, pretty_and_indicators) {
  const bytes in = from_hex("a2616182 01 980102 61629f f4 ff");
  cbor_fast::reader r(in.data(), in.size());
  std::string text;
  cbor_fast::diag_options o;
  o.indent = 2;
  o.encoding_indicators = true;
  ASSERT_STATUS(cbor_fast::diag_next(r, text, o), status::ok);
  EXPECT_EQ(text,
            "{\n"
            "  \"a\": [\n"
            "    1,\n"
            "    [_0\n"
            "      2\n"
            "    ]\n"
            "  ],\n"
            "  \"b\": [_\n"
            "    false\n"
            "  ]\n"
            "}");
  // Empty containers stay on their line.
  const bytes e = from_hex("82 80 a0");
  cbor_fast::reader r2(e.data(), e.size());
  std::string t2;
  ASSERT_STATUS(cbor_fast::diag_next(r2, t2, o), status::ok);
  EXPECT_EQ(t2, "[\n  [],\n  {}\n]");
  // ... and parse back: "[_]" is an empty indefinite array.
  status s;
  EXPECT_EQ(parse_hex(text, &s), "a26161820198010261629ff4ff");
}

}  // namespace
