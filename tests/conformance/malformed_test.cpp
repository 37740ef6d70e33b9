// RFC 8949 Appendix F: every example of F.1 (too little data) and F.2 (syntax
// errors), transcribed from the RFC text and grouped by the RFC's own
// headings. Each row states the status, the byte offset and the items the
// reader must deliver before the error (tracer format, test_util.hpp).
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
#include <string>

#include "conformance/test_util.hpp"

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

constexpr status truncated = status::truncated;

// ---- F.1: too little data ----------------------------------------------------

// "End of input in a head": the head at offset 0 lacks argument bytes.
const row end_of_input_in_head[] = {
    {"uint8_no_arg", "18", truncated, 0, ""},
    {"uint16_no_arg", "19", truncated, 0, ""},
    {"uint32_no_arg", "1a", truncated, 0, ""},
    {"uint64_no_arg", "1b", truncated, 0, ""},
    {"uint16_1_of_2", "19 01", truncated, 0, ""},
    {"uint32_2_of_4", "1a 01 02", truncated, 0, ""},
    {"uint64_7_of_8", "1b 01 02 03 04 05 06 07", truncated, 0, ""},
    {"nint8_no_arg", "38", truncated, 0, ""},
    {"bytes_len8_no_arg", "58", truncated, 0, ""},
    {"text_len8_no_arg", "78", truncated, 0, ""},
    {"array_len8_no_arg", "98", truncated, 0, ""},
    // 9a needs four count bytes; only three (01 ff 00) follow.
    {"array_len32_3_of_4", "9a 01 ff 00", truncated, 0, ""},
    {"map_len8_no_arg", "b8", truncated, 0, ""},
    {"tag8_no_arg", "d8", truncated, 0, ""},
    {"simple8_no_arg", "f8", truncated, 0, ""},
    {"half_1_of_2", "f9 00", truncated, 0, ""},
    {"single_2_of_4", "fa 00 00", truncated, 0, ""},
    {"double_3_of_8", "fb 00 00 00", truncated, 0, ""},
};

// "Definite-length strings with short data": declared length > bytes left.
const row short_strings[] = {
    {"bytes_1_of_0", "41", truncated, 0, ""},
    {"text_1_of_0", "61", truncated, 0, ""},
    {"bytes_4g_of_1", "5a ff ff ff ff 00", truncated, 0, ""},
    {"bytes_16e_of_3", "5b ff ff ff ff ff ff ff ff 01 02 03", truncated, 0, ""},
    {"text_4g_of_1", "7a ff ff ff ff 00", truncated, 0, ""},
    {"text_9e_of_3", "7b 7f ff ff ff ff ff ff ff 01 02 03", truncated, 0, ""},
};

// "Definite-length maps and arrays not closed with enough items".
const row definite_not_closed[] = {
    // count 1, no byte left.
    {"array_1_of_0", "81", truncated, 0, ""},
    // Nine nested 81: the first eight each see enough bytes left for one
    // child; the ninth, at offset 8, has none left, so it fails at once.
    {"array_nested_9", "81 81 81 81 81 81 81 81 81", truncated, 8, "[1 [1 [1 [1 [1 [1 [1 [1"},
    // count 2 > 1 byte left.
    {"array_2_of_1", "82 00", truncated, 0, ""},
    // pair count 1 > 0 / 2.
    {"map_1_of_0", "a1", truncated, 0, ""},
    // 2 pairs need at least 4 bytes, 2 left.
    {"map_2_pairs_2_bytes", "a2 01 02", truncated, 0, ""},
    // 1 pair needs at least 2 bytes, 1 left.
    {"map_key_without_value", "a1 00", truncated, 0, ""},
    // 2 pairs need at least 4 bytes, 3 left.
    {"map_2_pairs_3_bytes", "a2 00 00 00", truncated, 0, ""},
};

// "Tag number not followed by tag content": the tag is delivered, then the
// input ends where its content is expected.
const row tag_without_content[] = {
    {"tag0_alone", "c0", truncated, 1, "tag0"},
};

// "Indefinite-length strings not closed by a break stop code".
const row indefinite_strings_not_closed[] = {
    {"bytes_one_chunk", "5f 41 00", truncated, 3, "(_h h'00'"},
    {"text_one_chunk", "7f 61 00", truncated, 3, "(_s \"\\x00\""},
};

// "Indefinite-length maps and arrays not closed by a break stop code".
const row indefinite_containers_not_closed[] = {
    {"array_empty", "9f", truncated, 1, "[_"},
    {"array_two_items", "9f 01 02", truncated, 3, "[_ 1 2"},
    {"map_empty", "bf", truncated, 1, "{_"},
    {"map_two_pairs", "bf 01 02 01 02", truncated, 5, "{_ 1 2 1 2"},
    // 81 at 0 sees one byte left for its child: fine.
    {"in_definite_array", "81 9f", truncated, 2, "[1 [_"},
    // The inner [] (a definite end item at 2, after its zero children), 0.
    {"after_empty_array", "9f 80 00", truncated, 3, "[_ [0 ] 0"},
    // Four breaks close the four inner arrays; the outer one stays open.
    {"five_deep_four_breaks", "9f 9f 9f 9f 9f ff ff ff ff", truncated, 9, "[_ [_ [_ [_ [_ ] ] ] ]"},
    // 9f@0 81@1 9f@2 81@3 9f@4 9f@5; ff@6 closes 9f@5, ff@7 closes 9f@4,
    // which completes 81@3 (end at 8); ff@8 closes 9f@2, completing 81@1
    // (end at 9); 9f@0 is still open at the end of the input.
    {"mixed_nesting", "9f 81 9f 81 9f 9f ff ff ff", truncated, 9, "[_ [1 [_ [1 [_ [_ ] ] ] ] ]"},
};

// ---- F.2: syntax errors -----------------------------------------------------

// Subkind 1: reserved additional information values 28, 29, 30 of every
// major type (the RFC list ends with a stray comma).
const row reserved_additional_info[] = {
    {"mt0_28", "1c", status::reserved_additional_info, 0, ""},
    {"mt0_29", "1d", status::reserved_additional_info, 0, ""},
    {"mt0_30", "1e", status::reserved_additional_info, 0, ""},
    {"mt1_28", "3c", status::reserved_additional_info, 0, ""},
    {"mt1_29", "3d", status::reserved_additional_info, 0, ""},
    {"mt1_30", "3e", status::reserved_additional_info, 0, ""},
    {"mt2_28", "5c", status::reserved_additional_info, 0, ""},
    {"mt2_29", "5d", status::reserved_additional_info, 0, ""},
    {"mt2_30", "5e", status::reserved_additional_info, 0, ""},
    {"mt3_28", "7c", status::reserved_additional_info, 0, ""},
    {"mt3_29", "7d", status::reserved_additional_info, 0, ""},
    {"mt3_30", "7e", status::reserved_additional_info, 0, ""},
    {"mt4_28", "9c", status::reserved_additional_info, 0, ""},
    {"mt4_29", "9d", status::reserved_additional_info, 0, ""},
    {"mt4_30", "9e", status::reserved_additional_info, 0, ""},
    {"mt5_28", "bc", status::reserved_additional_info, 0, ""},
    {"mt5_29", "bd", status::reserved_additional_info, 0, ""},
    {"mt5_30", "be", status::reserved_additional_info, 0, ""},
    {"mt6_28", "dc", status::reserved_additional_info, 0, ""},
    {"mt6_29", "dd", status::reserved_additional_info, 0, ""},
    {"mt6_30", "de", status::reserved_additional_info, 0, ""},
    {"mt7_28", "fc", status::reserved_additional_info, 0, ""},
    {"mt7_29", "fd", status::reserved_additional_info, 0, ""},
    {"mt7_30", "fe", status::reserved_additional_info, 0, ""},
};

// Subkind 2: "Reserved two-byte encodings of simple values".
const row bad_simple_value[] = {
    {"simple_0", "f8 00", status::bad_simple_value, 0, ""},
    {"simple_1", "f8 01", status::bad_simple_value, 0, ""},
    {"simple_24", "f8 18", status::bad_simple_value, 0, ""},
    {"simple_31", "f8 1f", status::bad_simple_value, 0, ""},
};

// Subkind 3: "Indefinite-length string chunks not of the correct type": the
// chunk head at offset 1 is the offender.
const row chunk_type_mismatch[] = {
    {"bytes_uint", "5f 00 ff", status::chunk_type_mismatch, 1, "(_h"},
    {"bytes_nint", "5f 21 ff", status::chunk_type_mismatch, 1, "(_h"},
    {"bytes_text", "5f 61 00 ff", status::chunk_type_mismatch, 1, "(_h"},
    {"bytes_array", "5f 80 ff", status::chunk_type_mismatch, 1, "(_h"},
    {"bytes_map", "5f a0 ff", status::chunk_type_mismatch, 1, "(_h"},
    {"bytes_tag", "5f c0 00 ff", status::chunk_type_mismatch, 1, "(_h"},
    {"bytes_simple", "5f e0 ff", status::chunk_type_mismatch, 1, "(_h"},
    {"text_bytes", "7f 41 00 ff", status::chunk_type_mismatch, 1, "(_s"},
};

// Subkind 3: "Indefinite-length string chunks not definite length": a chunk
// of the right major type but itself indefinite, at offset 1.
const row nested_indefinite_chunk[] = {
    {"bytes_in_bytes", "5f 5f 41 00 ff ff", status::nested_indefinite_chunk, 1, "(_h"},
    {"text_in_text", "7f 7f 61 00 ff ff", status::nested_indefinite_chunk, 1, "(_s"},
};

// Subkind 4: "Break occurring on its own outside of an indefinite-length item".
const row break_alone[] = {
    {"top_level", "ff", status::unexpected_break, 0, ""},
};

// Subkind 4: "Break occurring in a definite-length array or map or a tag".
// Two rows are caught earlier by the up-front count check: the map's pairs
// cannot fit in the bytes left, so the reader reports truncated at the map
// head before it ever reaches the break (both statuses are not-well-formed;
// the rules in context.md fix which one this reader gives).
const row break_in_definite[] = {
    {"array_1", "81 ff", status::unexpected_break, 1, "[1"},
    {"array_2_after_first", "82 00 ff", status::unexpected_break, 2, "[2 0"},
    // 1 pair needs 2 bytes, 1 left: truncated at the head.
    {"map_1_only_break", "a1 ff", truncated, 0, ""},
    // Break in the key position.
    {"map_1_break_as_key", "a1 ff 00", status::unexpected_break, 1, "{1"},
    // Break in the value position of a definite map is a plain unexpected
    // break (map_missing_value is the indefinite-map case).
    {"map_1_break_as_value", "a1 00 ff", status::unexpected_break, 2, "{1 0"},
    // 2 pairs need 4 bytes, 3 left: truncated at the head.
    {"map_2_break_as_second_value", "a2 00 00 ff", truncated, 0, ""},
    {"definite_in_indefinite", "9f 81 ff", status::unexpected_break, 2, "[_ [1"},
    // 9f@0 82@1 9f@2 81@3 9f@4 9f@5; ff@6, ff@7 close 9f@5, 9f@4, completing
    // 81@3 (end at 8); ff@8 closes 9f@2, the first child of 82@1; ff@9 stands
    // where 82@1 expects its second child.
    {"deep_mixed", "9f 82 9f 81 9f 9f ff ff ff ff", status::unexpected_break, 9,
     "[_ [2 [_ [1 [_ [_ ] ] ] ]"},
};

// Subkind 4: "Break in an indefinite-length map that would lead to an odd
// number of items (break in a value position)".
const row break_in_map_value[] = {
    {"after_first_key", "bf 00 ff", status::map_missing_value, 2, "{_ 0"},
    {"after_second_key", "bf 00 00 00 ff", status::map_missing_value, 4, "{_ 0 0 0"},
};

// Subkind 5: "Major type 0, 1, 6 with additional information 31".
const row indefinite_not_allowed[] = {
    {"uint", "1f", status::indefinite_not_allowed, 0, ""},
    {"nint", "3f", status::indefinite_not_allowed, 0, ""},
    {"tag", "df", status::indefinite_not_allowed, 0, ""},
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

std::string row_name(const ::testing::TestParamInfo<row>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(f1_end_of_input_in_head, appendix_f,
                         ::testing::ValuesIn(end_of_input_in_head), row_name);
INSTANTIATE_TEST_SUITE_P(f1_short_strings, appendix_f, ::testing::ValuesIn(short_strings),
                         row_name);
INSTANTIATE_TEST_SUITE_P(f1_definite_not_closed, appendix_f,
                         ::testing::ValuesIn(definite_not_closed), row_name);
INSTANTIATE_TEST_SUITE_P(f1_tag_without_content, appendix_f,
                         ::testing::ValuesIn(tag_without_content), row_name);
INSTANTIATE_TEST_SUITE_P(f1_indefinite_strings_not_closed, appendix_f,
                         ::testing::ValuesIn(indefinite_strings_not_closed), row_name);
INSTANTIATE_TEST_SUITE_P(f1_indefinite_containers_not_closed, appendix_f,
                         ::testing::ValuesIn(indefinite_containers_not_closed), row_name);
INSTANTIATE_TEST_SUITE_P(f2_reserved_additional_info, appendix_f,
                         ::testing::ValuesIn(reserved_additional_info), row_name);
INSTANTIATE_TEST_SUITE_P(f2_bad_simple_value, appendix_f, ::testing::ValuesIn(bad_simple_value),
                         row_name);
INSTANTIATE_TEST_SUITE_P(f2_chunk_type_mismatch, appendix_f,
                         ::testing::ValuesIn(chunk_type_mismatch), row_name);
INSTANTIATE_TEST_SUITE_P(f2_nested_indefinite_chunk, appendix_f,
                         ::testing::ValuesIn(nested_indefinite_chunk), row_name);
INSTANTIATE_TEST_SUITE_P(f2_break_alone, appendix_f, ::testing::ValuesIn(break_alone), row_name);
INSTANTIATE_TEST_SUITE_P(f2_break_in_definite, appendix_f, ::testing::ValuesIn(break_in_definite),
                         row_name);
INSTANTIATE_TEST_SUITE_P(f2_break_in_map_value, appendix_f,
                         ::testing::ValuesIn(break_in_map_value), row_name);
INSTANTIATE_TEST_SUITE_P(f2_indefinite_not_allowed, appendix_f,
                         ::testing::ValuesIn(indefinite_not_allowed), row_name);

// ---- invalid UTF-8 in text strings ------------------------------------------

struct utf8_row {
  const char* name;
  const char* hex;
  size_t offset;       ///< absolute offset of the first byte of the bad sequence
  const char* before;  ///< items delivered before the error (validation on)
};

const utf8_row bad_utf8[] = {
    {"lone_continuation", "61 80", 1, ""},
    {"byte_ff", "61 ff", 1, ""},
    {"byte_fe", "61 fe", 1, ""},
    {"overlong_c0_80", "62 c0 80", 1, ""},
    {"overlong_c1_bf", "62 c1 bf", 1, ""},
    {"overlong_3_byte", "63 e0 80 80", 1, ""},
    {"overlong_3_byte_u07ff", "63 e0 9f bf", 1, ""},
    {"surrogate_d800", "63 ed a0 80", 1, ""},
    {"surrogate_dfff", "63 ed bf bf", 1, ""},
    {"overlong_4_byte_uffff", "64 f0 8f bf bf", 1, ""},
    {"above_u10ffff", "64 f4 90 80 80", 1, ""},
    {"lead_f5", "64 f5 80 80 80", 1, ""},
    // A multi-byte sequence cut by the end of the string: the string is "A"
    // then a lead byte whose continuation bytes are missing.
    {"cut_2_byte_at_end", "62 41 c3", 2, ""},
    {"cut_3_byte_at_end", "63 41 e2 82", 2, ""},
    {"cut_4_byte_at_end", "64 41 f0 9f 98", 2, ""},
    {"lead_then_ascii", "63 c3 28 41", 1, ""},
    // U+00FC and U+6C34 are fine; the ff at offset 6 is not.
    {"after_valid_multibyte", "66 c3 bc e6 b0 b4 ff", 6, ""},
    // Two-byte head: content starts at 2, 23 good bytes, the bad one at 25.
    {"len8_head", "78 18 6161616161616161616161616161616161616161616161 80", 25, ""},
    {"second_array_element", "82 61 61 62 c3 28", 4, "[2 \"a\""},
    {"map_key", "a1 61 ff 00", 2, "{1"},
    {"map_value", "a1 61 61 61 80", 4, "{1 \"a\""},
    {"tag_content", "c0 61 ff", 2, "tag0"},
    // Indefinite text: each chunk is checked on its own.
    {"indef_first_chunk", "7f 61 ff ff", 2, "(_s"},
    {"indef_second_chunk", "7f 62 61 62 62 ff 61 ff", 5, "(_s \"ab\""},
    // U+00FC split across two chunks: RFC 8949 section 3.2.3 says a chunk
    // boundary must fall between code points, so the first chunk is invalid.
    {"indef_code_point_split", "7f 61 c3 61 bc ff", 2, "(_s"},
    {"indef_in_array_after_empty_chunk", "81 7f 60 63 e6 b0 ff ff", 4, "[1 (_s \"\""},
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

std::string utf8_row_name(const ::testing::TestParamInfo<utf8_row>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(text, utf8_invalid, ::testing::ValuesIn(bad_utf8), utf8_row_name);

TEST(utf8_valid, boundaries_accepted_when_validating) {
  const char* cases[] = {
      "61 7f",              // U+007F, last one-byte
      "62 c2 80",           // U+0080, first two-byte
      "62 df bf",           // U+07FF
      "63 e0 a0 80",        // U+0800, first three-byte
      "63 ed 9f bf",        // U+D7FF, just below the surrogates
      "63 ee 80 80",        // U+E000, just above them
      "63 ef bf bf",        // U+FFFF
      "64 f0 90 80 80",     // U+10000, first four-byte
      "64 f4 8f bf bf",     // U+10FFFF, the last code point
      "61 00",              // NUL is a valid code point
      "7f 62 c3 bc 63 e6 b0 b4 ff",  // chunks split at code point boundaries
      "7f ff",              // no chunks
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
