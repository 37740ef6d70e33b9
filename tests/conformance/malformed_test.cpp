// RFC 8949 Appendix F: every example of F.1 (too little data) and F.2 (syntax
// errors), from tests/vectors/malformed.json (the one copy every suite
// reads: hex, status and offset). The tables below, grouped by the RFC's own
// headings, add what only this reader can say: the items it must deliver
// before the error (tracer format, test_util.hpp).
//
// Offsets follow the reader's rules (notes/context.md):
//  - a head cut short, or a definite string longer than the bytes left:
//    truncated at the item's initial byte;
//  - a definite array whose count exceeds the bytes left after its head, or a
//    map whose pair count exceeds half of them: truncated at the head, at
//    once, before any child is read (every child needs at least one byte);
//  - input ending where an item is still expected (open indefinite
//    container or string, tag without content): truncated at the input size;
//  - reserved additional information, indefinite length on major type 0/1/6,
//    two-byte simple value below 32, a wrong chunk in an indefinite string:
//    at the offending head;
//  - a break where none may stand: unexpected_break at the 0xff byte; a break
//    in the value position of an indefinite map: map_missing_value there.
// Each row is checked through next() (with the items delivered before the
// error and the stickiness of the error), skip() and diag_next().
//
// Also here: invalid UTF-8 in text strings with validate_utf8 (status
// invalid_utf8 at the first byte of the first bad sequence, in definite
// strings and in indefinite-string chunks), accepted with validation off.

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "conformance/test_util.hpp"
#include "shared_vectors.h"

namespace {

using namespace cbor_fast_test;
using cbor_fast::reader;

struct row {
  const char* name;
  const char* hex;
  status code;
  size_t offset;
  const char* before;  ///< trace of the items delivered before the error
};

/// The C++-only expectation of a row of tests/vectors/malformed.json (which
/// holds its hex, status and offset): the items the reader delivers before
/// the error, keyed by the row name "<cause>/<case>".
struct before_row {
  const char* name;
  const char* before;
};

// ---- F.1: too little data ----------------------------------------------------

// "End of input in a head": the head at offset 0 lacks argument bytes.
const before_row end_of_input_in_head[] = {
    {"end_of_input_in_head/uint8_no_arg", ""},
    {"end_of_input_in_head/uint16_no_arg", ""},
    {"end_of_input_in_head/uint32_no_arg", ""},
    {"end_of_input_in_head/uint64_no_arg", ""},
    {"end_of_input_in_head/uint16_1_of_2", ""},
    {"end_of_input_in_head/uint32_2_of_4", ""},
    {"end_of_input_in_head/uint64_7_of_8", ""},
    {"end_of_input_in_head/nint8_no_arg", ""},
    {"end_of_input_in_head/bytes_len8_no_arg", ""},
    {"end_of_input_in_head/text_len8_no_arg", ""},
    {"end_of_input_in_head/array_len8_no_arg", ""},
    // 9a needs four count bytes; only three (01 ff 00) follow.
    {"end_of_input_in_head/array_len32_3_of_4", ""},
    {"end_of_input_in_head/map_len8_no_arg", ""},
    {"end_of_input_in_head/tag8_no_arg", ""},
    {"end_of_input_in_head/simple8_no_arg", ""},
    {"end_of_input_in_head/half_1_of_2", ""},
    {"end_of_input_in_head/single_2_of_4", ""},
    {"end_of_input_in_head/double_3_of_8", ""},
};

// "Definite-length strings with short data": declared length > bytes left.
const before_row short_strings[] = {
    {"short_strings/bytes_1_of_0", ""},  {"short_strings/text_1_of_0", ""},
    {"short_strings/bytes_4g_of_1", ""}, {"short_strings/bytes_16e_of_3", ""},
    {"short_strings/text_4g_of_1", ""},  {"short_strings/text_9e_of_3", ""},
};

// "Definite-length maps and arrays not closed with enough items".
const before_row definite_not_closed[] = {
    // count 1, no byte left.
    {"definite_not_closed/array_1_of_0", ""},
    // Nine nested 81: the first eight each see enough bytes left for one
    // child; the ninth, at offset 8, has none left, so it fails at once.
    {"definite_not_closed/array_nested_9", "[1 [1 [1 [1 [1 [1 [1 [1"},
    // count 2 > 1 byte left.
    {"definite_not_closed/array_2_of_1", ""},
    // pair count 1 > 0 / 2.
    {"definite_not_closed/map_1_of_0", ""},
    // 2 pairs need at least 4 bytes, 2 left.
    {"definite_not_closed/map_2_pairs_2_bytes", ""},
    // 1 pair needs at least 2 bytes, 1 left.
    {"definite_not_closed/map_key_without_value", ""},
    // 2 pairs need at least 4 bytes, 3 left.
    {"definite_not_closed/map_2_pairs_3_bytes", ""},
};

// "Tag number not followed by tag content": the tag is delivered, then the
// input ends where its content is expected.
const before_row tag_without_content[] = {
    {"tag_without_content/tag0_alone", "tag0"},
};

// "Indefinite-length strings not closed by a break stop code".
const before_row indefinite_strings_not_closed[] = {
    {"indefinite_strings_not_closed/bytes_one_chunk", "(_h h'00'"},
    {"indefinite_strings_not_closed/text_one_chunk", "(_s \"\\x00\""},
};

// "Indefinite-length maps and arrays not closed by a break stop code".
const before_row indefinite_containers_not_closed[] = {
    {"indefinite_containers_not_closed/array_empty", "[_"},
    {"indefinite_containers_not_closed/array_two_items", "[_ 1 2"},
    {"indefinite_containers_not_closed/map_empty", "{_"},
    {"indefinite_containers_not_closed/map_two_pairs", "{_ 1 2 1 2"},
    // 81 at 0 sees one byte left for its child: fine.
    {"indefinite_containers_not_closed/in_definite_array", "[1 [_"},
    // The inner [] (a definite end item at 2, after its zero children), 0.
    {"indefinite_containers_not_closed/after_empty_array", "[_ [0 ] 0"},
    // Four breaks close the four inner arrays; the outer one stays open.
    {"indefinite_containers_not_closed/five_deep_four_breaks", "[_ [_ [_ [_ [_ ] ] ] ]"},
    // 9f@0 81@1 9f@2 81@3 9f@4 9f@5; ff@6 closes 9f@5, ff@7 closes 9f@4,
    // which completes 81@3 (end at 8); ff@8 closes 9f@2, completing 81@1
    // (end at 9); 9f@0 is still open at the end of the input.
    {"indefinite_containers_not_closed/mixed_nesting", "[_ [1 [_ [1 [_ [_ ] ] ] ] ]"},
};

// ---- F.2: syntax errors -----------------------------------------------------

// Subkind 1: reserved additional information values 28, 29, 30 of every
// major type (the RFC list ends with a stray comma).
const before_row reserved_additional_info[] = {
    {"reserved_additional_info/mt0_28", ""}, {"reserved_additional_info/mt0_29", ""},
    {"reserved_additional_info/mt0_30", ""}, {"reserved_additional_info/mt1_28", ""},
    {"reserved_additional_info/mt1_29", ""}, {"reserved_additional_info/mt1_30", ""},
    {"reserved_additional_info/mt2_28", ""}, {"reserved_additional_info/mt2_29", ""},
    {"reserved_additional_info/mt2_30", ""}, {"reserved_additional_info/mt3_28", ""},
    {"reserved_additional_info/mt3_29", ""}, {"reserved_additional_info/mt3_30", ""},
    {"reserved_additional_info/mt4_28", ""}, {"reserved_additional_info/mt4_29", ""},
    {"reserved_additional_info/mt4_30", ""}, {"reserved_additional_info/mt5_28", ""},
    {"reserved_additional_info/mt5_29", ""}, {"reserved_additional_info/mt5_30", ""},
    {"reserved_additional_info/mt6_28", ""}, {"reserved_additional_info/mt6_29", ""},
    {"reserved_additional_info/mt6_30", ""}, {"reserved_additional_info/mt7_28", ""},
    {"reserved_additional_info/mt7_29", ""}, {"reserved_additional_info/mt7_30", ""},
};

// Subkind 2: "Reserved two-byte encodings of simple values".
const before_row bad_simple_value[] = {
    {"bad_simple_value/simple_0", ""},
    {"bad_simple_value/simple_1", ""},
    {"bad_simple_value/simple_24", ""},
    {"bad_simple_value/simple_31", ""},
};

// Subkind 3: "Indefinite-length string chunks not of the correct type": the
// chunk head at offset 1 is the offender.
const before_row chunk_type_mismatch[] = {
    {"chunk_type_mismatch/bytes_uint", "(_h"},   {"chunk_type_mismatch/bytes_nint", "(_h"},
    {"chunk_type_mismatch/bytes_text", "(_h"},   {"chunk_type_mismatch/bytes_array", "(_h"},
    {"chunk_type_mismatch/bytes_map", "(_h"},    {"chunk_type_mismatch/bytes_tag", "(_h"},
    {"chunk_type_mismatch/bytes_simple", "(_h"}, {"chunk_type_mismatch/text_bytes", "(_s"},
};

// Subkind 3: "Indefinite-length string chunks not definite length": a chunk
// of the right major type but itself indefinite, at offset 1.
const before_row nested_indefinite_chunk[] = {
    {"nested_indefinite_chunk/bytes_in_bytes", "(_h"},
    {"nested_indefinite_chunk/text_in_text", "(_s"},
};

// Subkind 4: "Break occurring on its own outside of an indefinite-length item".
const before_row break_alone[] = {
    {"break_alone/top_level", ""},
};

// Subkind 4: "Break occurring in a definite-length array or map or a tag".
// Two rows are caught earlier by the up-front count check: the map's pairs
// cannot fit in the bytes left, so the reader reports truncated at the map
// head before it ever reaches the break (both statuses are not-well-formed;
// the rules in context.md fix which one this reader gives).
const before_row break_in_definite[] = {
    {"break_in_definite/array_1", "[1"},
    {"break_in_definite/array_2_after_first", "[2 0"},
    // 1 pair needs 2 bytes, 1 left: truncated at the head.
    {"break_in_definite/map_1_only_break", ""},
    // Break in the key position.
    {"break_in_definite/map_1_break_as_key", "{1"},
    // Break in the value position of a definite map is a plain unexpected
    // break (map_missing_value is the indefinite-map case).
    {"break_in_definite/map_1_break_as_value", "{1 0"},
    // 2 pairs need 4 bytes, 3 left: truncated at the head.
    {"break_in_definite/map_2_break_as_second_value", ""},
    {"break_in_definite/definite_in_indefinite", "[_ [1"},
    // 9f@0 82@1 9f@2 81@3 9f@4 9f@5; ff@6, ff@7 close 9f@5, 9f@4, completing
    // 81@3 (end at 8); ff@8 closes 9f@2, the first child of 82@1; ff@9 stands
    // where 82@1 expects its second child.
    {"break_in_definite/deep_mixed", "[_ [2 [_ [1 [_ [_ ] ] ] ]"},
};

// Subkind 4: "Break in an indefinite-length map that would lead to an odd
// number of items (break in a value position)".
const before_row break_in_map_value[] = {
    {"break_in_map_value/after_first_key", "{_ 0"},
    {"break_in_map_value/after_second_key", "{_ 0 0 0"},
};

// Subkind 5: "Major type 0, 1, 6 with additional information 31".
const before_row indefinite_not_allowed[] = {
    {"indefinite_not_allowed/uint", ""},
    {"indefinite_not_allowed/nint", ""},
    {"indefinite_not_allowed/tag", ""},
};

void PrintTo(const row& r, std::ostream* os) { *os << r.name; }

class appendix_f : public ::testing::TestWithParam<row> {};

TEST_P(appendix_f, next_reports_code_offset_and_earlier_items) {
  const row& r = GetParam();
  const exact_buffer in(from_hex(r.hex));
  reader rd(in.data(), in.size());
  const read_log log = read_all(rd, in.data(), in.size());
  EXPECT_STATUS(log.last, r.code);
  EXPECT_STATUS(log.error.code, r.code);
  EXPECT_EQ(log.error.offset, r.offset);
  EXPECT_EQ(log.error.item_offset, 0u);  // the only top-level item starts at 0
  EXPECT_EQ(log.trace, r.before);

  SCOPED_TRACE("the error is sticky");
  for (int i = 0; i < 3; ++i) {
    item it;
    EXPECT_STATUS(rd.next(it), r.code);
    EXPECT_STATUS(rd.error().code, r.code);
    EXPECT_EQ(rd.error().offset, r.offset);
  }
  EXPECT_STATUS(rd.skip(), r.code);
  EXPECT_STATUS(rd.finish(), r.code);
  std::string out;
  EXPECT_STATUS(cbor_fast::diag_next(rd, out), r.code);
  EXPECT_EQ(rd.error().offset, r.offset);
}

TEST_P(appendix_f, skip_and_diag_report_the_same_code_and_offset) {
  const row& r = GetParam();
  const exact_buffer in(from_hex(r.hex));
  {
    SCOPED_TRACE("skip()");
    reader rd(in.data(), in.size());
    EXPECT_STATUS(rd.skip(), r.code);
    EXPECT_STATUS(rd.error().code, r.code);
    EXPECT_EQ(rd.error().offset, r.offset);
    EXPECT_STATUS(rd.skip(), r.code);  // sticky
  }
  {
    SCOPED_TRACE("diag_next()");
    reader rd(in.data(), in.size());
    std::string out;
    EXPECT_STATUS(cbor_fast::diag_next(rd, out), r.code);
    EXPECT_STATUS(rd.error().code, r.code);
    EXPECT_EQ(rd.error().offset, r.offset);
  }
  {
    // The same example as the second item of a sequence, after [1, 2]: the
    // first item passes intact and the offset moves by its 3 bytes.
    SCOPED_TRACE("after [1, 2]");
    bytes all = from_hex("820102");
    const bytes bad = from_hex(r.hex);
    all.insert(all.end(), bad.begin(), bad.end());
    const exact_buffer seq(all);
    reader rd(seq.data(), seq.size());
    EXPECT_STATUS(rd.skip(), status::ok);
    EXPECT_STATUS(rd.skip(), r.code);
    EXPECT_EQ(rd.error().offset, r.offset + 3);
    EXPECT_EQ(rd.error().item_offset, 3u);  // the bad item, not [1, 2]
  }
}

/// Every before_row table above, in file order.
const before_row* find_before(const char* name) {
  static const struct {
    const before_row* rows;
    size_t count;
  } tables[] = {
#define CBOR_FAST_TABLE(t) {t, std::size(t)}
      CBOR_FAST_TABLE(end_of_input_in_head),
      CBOR_FAST_TABLE(short_strings),
      CBOR_FAST_TABLE(definite_not_closed),
      CBOR_FAST_TABLE(tag_without_content),
      CBOR_FAST_TABLE(indefinite_strings_not_closed),
      CBOR_FAST_TABLE(indefinite_containers_not_closed),
      CBOR_FAST_TABLE(reserved_additional_info),
      CBOR_FAST_TABLE(bad_simple_value),
      CBOR_FAST_TABLE(chunk_type_mismatch),
      CBOR_FAST_TABLE(nested_indefinite_chunk),
      CBOR_FAST_TABLE(break_alone),
      CBOR_FAST_TABLE(break_in_definite),
      CBOR_FAST_TABLE(break_in_map_value),
      CBOR_FAST_TABLE(indefinite_not_allowed),
#undef CBOR_FAST_TABLE
  };
  for (const auto& t : tables)
    for (size_t i = 0; i < t.count; ++i)
      if (std::string(t.rows[i].name) == name) return &t.rows[i];
  return nullptr;
}

/// The rows: tests/vectors/malformed.json joined with the traces above.
std::vector<row> make_rows() {
  std::vector<row> out;
  for (const shared_malformed& m : k_shared_malformed) {
    const before_row* b = find_before(m.name);
    out.push_back(row{m.name, m.hex, static_cast<status>(m.status), m.offset,
                      b != nullptr ? b->before : "(no trace in malformed_test.cpp)"});
  }
  return out;
}

TEST(appendix_f_table, every_row_has_a_trace) {
  size_t traces = 0;
  traces += std::size(end_of_input_in_head);
  traces += std::size(short_strings);
  traces += std::size(definite_not_closed);
  traces += std::size(tag_without_content);
  traces += std::size(indefinite_strings_not_closed);
  traces += std::size(indefinite_containers_not_closed);
  traces += std::size(reserved_additional_info);
  traces += std::size(bad_simple_value);
  traces += std::size(chunk_type_mismatch);
  traces += std::size(nested_indefinite_chunk);
  traces += std::size(break_alone);
  traces += std::size(break_in_definite);
  traces += std::size(break_in_map_value);
  traces += std::size(indefinite_not_allowed);
  EXPECT_EQ(traces, std::size(k_shared_malformed));
  for (const shared_malformed& m : k_shared_malformed) {
    SCOPED_TRACE(m.name);
    EXPECT_NE(find_before(m.name), nullptr);
  }
}

/// gtest names allow letters, digits and '_': "cause/case" becomes "cause__case".
std::string param_name(const char* name) {
  std::string s = name;
  for (size_t at = s.find('/'); at != std::string::npos; at = s.find('/')) s.replace(at, 1, "__");
  return s;
}

std::string row_name(const ::testing::TestParamInfo<row>& info) {
  return param_name(info.param.name);
}

INSTANTIATE_TEST_SUITE_P(rfc8949, appendix_f, ::testing::ValuesIn(make_rows()), row_name);

// ---- invalid UTF-8 in text strings ------------------------------------------

struct utf8_row {
  const char* name;
  const char* hex;
  size_t offset;       ///< absolute offset of the first byte of the bad sequence
  const char* before;  ///< items delivered before the error (validation on)
};

/// The "utf8/..." rows of tests/vectors/strict.json (hex and offset there):
/// the items delivered before the error, keyed by name.
const before_row bad_utf8[] = {
    {"utf8/lone_continuation", ""},
    {"utf8/byte_ff", ""},
    {"utf8/byte_fe", ""},
    {"utf8/overlong_c0_80", ""},
    {"utf8/overlong_c1_bf", ""},
    {"utf8/overlong_3_byte", ""},
    {"utf8/overlong_3_byte_u07ff", ""},
    {"utf8/surrogate_d800", ""},
    {"utf8/surrogate_dfff", ""},
    {"utf8/overlong_4_byte_uffff", ""},
    {"utf8/above_u10ffff", ""},
    {"utf8/lead_f5", ""},
    // A multi-byte sequence cut by the end of the string: the string is "A"
    // then a lead byte whose continuation bytes are missing.
    {"utf8/cut_2_byte_at_end", ""},
    {"utf8/cut_3_byte_at_end", ""},
    {"utf8/cut_4_byte_at_end", ""},
    {"utf8/lead_then_ascii", ""},
    // U+00FC and U+6C34 are fine; the ff at offset 6 is not.
    {"utf8/after_valid_multibyte", ""},
    // Two-byte head: content starts at 2, 23 good bytes, the bad one at 25.
    {"utf8/len8_head", ""},
    {"utf8/second_array_element", "[2 \"a\""},
    {"utf8/map_key", "{1"},
    {"utf8/map_value", "{1 \"a\""},
    {"utf8/tag_content", "tag0"},
    // Indefinite text: each chunk is checked on its own.
    {"utf8/indef_first_chunk", "(_s"},
    {"utf8/indef_second_chunk", "(_s \"ab\""},
    // U+00FC split across two chunks: RFC 8949 section 3.2.3 says a chunk
    // boundary must fall between code points, so the first chunk is invalid.
    {"utf8/indef_code_point_split", "(_s"},
    {"utf8/indef_in_array_after_empty_chunk", "[1 (_s \"\""},
};

void PrintTo(const utf8_row& r, std::ostream* os) { *os << r.name; }

class utf8_invalid : public ::testing::TestWithParam<utf8_row> {};

TEST_P(utf8_invalid, rejected_when_validating) {
  const utf8_row& r = GetParam();
  const exact_buffer in(from_hex(r.hex));
  cbor_fast::reader_options opt;
  opt.validate_utf8 = true;
  {
    SCOPED_TRACE("next()");
    reader rd(in.data(), in.size(), opt);
    const read_log log = read_all(rd, in.data(), in.size());
    EXPECT_STATUS(log.last, status::invalid_utf8);
    EXPECT_STATUS(log.error.code, status::invalid_utf8);
    EXPECT_EQ(log.error.offset, r.offset);
    EXPECT_EQ(log.trace, r.before);
    item it;
    EXPECT_STATUS(rd.next(it), status::invalid_utf8);  // sticky
    EXPECT_EQ(rd.error().offset, r.offset);
  }
  {
    SCOPED_TRACE("skip()");
    reader rd(in.data(), in.size(), opt);
    EXPECT_STATUS(rd.skip(), status::invalid_utf8);
    EXPECT_EQ(rd.error().offset, r.offset);
  }
  {
    SCOPED_TRACE("diag_next()");
    reader rd(in.data(), in.size(), opt);
    std::string out;
    EXPECT_STATUS(cbor_fast::diag_next(rd, out), status::invalid_utf8);
    EXPECT_EQ(rd.error().offset, r.offset);
  }
}

TEST_P(utf8_invalid, accepted_without_validation) {
  const utf8_row& r = GetParam();
  const exact_buffer in(from_hex(r.hex));
  reader rd(in.data(), in.size());  // validate_utf8 defaults to false
  const read_log log = read_all(rd, in.data(), in.size());
  EXPECT_STATUS(log.last, status::end);
  EXPECT_TRUE(log.balanced);
  EXPECT_EQ(log.cursor, in.size());
  reader rd2(in.data(), in.size());
  EXPECT_STATUS(rd2.skip(), status::ok);
  EXPECT_EQ(rd2.offset(), in.size());
}

std::vector<utf8_row> make_utf8_rows() {
  std::vector<utf8_row> out;
  for (const shared_strict& r : k_shared_strict) {
    if (r.checks != SHARED_CHECK_UTF8) continue;
    const char* before = "(no trace in malformed_test.cpp)";
    for (const before_row& b : bad_utf8)
      if (std::string(b.name) == r.name) before = b.before;
    out.push_back(utf8_row{r.name, r.hex, r.offset, before});
  }
  return out;
}

TEST(utf8_table, every_row_has_a_trace) {
  EXPECT_EQ(make_utf8_rows().size(), std::size(bad_utf8));
  for (const utf8_row& r : make_utf8_rows()) {
    SCOPED_TRACE(r.name);
    EXPECT_STRNE(r.before, "(no trace in malformed_test.cpp)");
  }
}

std::string utf8_row_name(const ::testing::TestParamInfo<utf8_row>& info) {
  return param_name(info.param.name);
}

INSTANTIATE_TEST_SUITE_P(text, utf8_invalid, ::testing::ValuesIn(make_utf8_rows()), utf8_row_name);

TEST(utf8_valid, boundaries_accepted_when_validating) {
  const char* cases[] = {
      "61 7f",                       // U+007F, last one-byte
      "62 c2 80",                    // U+0080, first two-byte
      "62 df bf",                    // U+07FF
      "63 e0 a0 80",                 // U+0800, first three-byte
      "63 ed 9f bf",                 // U+D7FF, just below the surrogates
      "63 ee 80 80",                 // U+E000, just above them
      "63 ef bf bf",                 // U+FFFF
      "64 f0 90 80 80",              // U+10000, first four-byte
      "64 f4 8f bf bf",              // U+10FFFF, the last code point
      "61 00",                       // NUL is a valid code point
      "7f 62 c3 bc 63 e6 b0 b4 ff",  // chunks split at code point boundaries
      "7f ff",                       // no chunks
  };
  cbor_fast::reader_options opt;
  opt.validate_utf8 = true;
  for (const char* hex : cases) {
    SCOPED_TRACE(hex);
    const exact_buffer in(from_hex(hex));
    reader rd(in.data(), in.size(), opt);
    const read_log log = read_all(rd, in.data(), in.size());
    EXPECT_STATUS(log.last, status::end);
  }
}

TEST(utf8_valid, byte_strings_are_never_validated) {
  cbor_fast::reader_options opt;
  opt.validate_utf8 = true;
  for (const char* hex : {"41 ff", "42 c3 28", "5f 41 ff 41 80 ff", "a1 41 ff 41 fe"}) {
    SCOPED_TRACE(hex);
    const exact_buffer in(from_hex(hex));
    reader rd(in.data(), in.size(), opt);
    const read_log log = read_all(rd, in.data(), in.size());
    EXPECT_STATUS(log.last, status::end);
  }
}

}  // namespace
