// Resource limits and zero-copy guarantees:
//  - 100000-deep nesting (definite arrays, maps, tags, indefinite arrays) is
//    read, skipped and printed with max_depth = 100000 and no recursion
//    (a recursive implementation would overflow the stack under ASan);
//  - the default max_depth of 512 allows exactly 512 open levels; opening
//    level 513 fails with depth_exceeded at the head that tries;
//  - absurd declared lengths and counts (2^64 - 1, 2^63, 2^32, 2^32 - 1) are
//    rejected at once as truncated at the head, with nothing allocated and
//    no integer overflow in the bounds checks (counts with the container limit
//    lifted: under the default one they are container_too_large first);
//  - the default container limit (2^24 entries, since 0.5) and item limit
//    (2^28) of readers, documents and sequences: exactly at it passes, one
//    over fails with container_too_large at the head, and lifting works;
//  - strings are views into the input (pointer equality, 1 MiB string),
//    indefinite-string chunks too, and read_joined() joins the chunks.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cbor_fast/document.hpp"
#include "conformance/test_util.hpp"

namespace {

using namespace cbor_fast_test;
using cbor_fast::reader;
using cbor_fast::reader_options;

constexpr uint32_t deep = 100000;

bytes repeated(std::initializer_list<uint8_t> unit, size_t n, std::initializer_list<uint8_t> tail) {
  bytes out;
  out.reserve(unit.size() * n + tail.size());
  for (size_t i = 0; i < n; ++i) out.insert(out.end(), unit.begin(), unit.end());
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}
bytes concat(bytes a, const bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
std::string repeated_text(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

// ---- 100000 levels -------------------------------------------------------------

struct deep_case {
  const char* name;
  bytes input;
  size_t items;  ///< items next() delivers, end items included
  uint32_t max_item_depth;
  std::string diag;
};

std::vector<deep_case> deep_cases(uint32_t n) {
  std::vector<deep_case> out;
  // [[[...[0]...]]]: n arrays, 0 at depth n, n end items.
  out.push_back({"arrays", repeated({0x81}, n, {0x00}), 2 * size_t(n) + 1, n,
                 repeated_text("[", n) + "0" + repeated_text("]", n)});
  // {0: {0: ... {0: 0}}}: n maps, n keys, the last value, n end items.
  out.push_back({"maps", repeated({0xa1, 0x00}, n, {0x00}), 3 * size_t(n) + 1, n,
                 repeated_text("{0: ", n) + "0" + repeated_text("}", n)});
  // 1(1(...1(0))): n tags, the content at depth n, no end items.
  out.push_back({"tags", repeated({0xc1}, n, {0x00}), size_t(n) + 1, n,
                 repeated_text("1(", n) + "0" + repeated_text(")", n)});
  // [_ [_ ... [_ ]...]]: n indefinite arrays, n breaks; the innermost array
  // opens level n, its end item sits at depth n - 1.
  bytes indef = repeated({0x9f}, n, {});
  indef.insert(indef.end(), n, 0xff);
  out.push_back({"indefinite_arrays", indef, 2 * size_t(n), n - 1,
                 repeated_text("[_ ", n) + repeated_text("]", n)});
  return out;
}

TEST(limits_deep, read_100000_levels_with_next) {
  reader_options opt;
  opt.max_depth = deep;
  for (const deep_case& c : deep_cases(deep)) {
    SCOPED_TRACE(c.name);
    reader rd(c.input.data(), c.input.size(), opt);
    const read_log log = read_all(rd, c.input.data(), c.input.size(), false);
    EXPECT_STATUS(log.last, status::end);
    EXPECT_EQ(log.items, c.items);
    EXPECT_TRUE(log.balanced);
    EXPECT_EQ(log.cursor, c.input.size());
    EXPECT_STATUS(rd.finish(), status::ok);
  }
}

TEST(limits_deep, deepest_item_depth) {
  reader_options opt;
  opt.max_depth = deep;
  for (const deep_case& c : deep_cases(deep)) {
    SCOPED_TRACE(c.name);
    reader rd(c.input.data(), c.input.size(), opt);
    item it;
    uint32_t deepest = 0;
    while (rd.next(it) == status::ok)
      if (it.depth > deepest) deepest = it.depth;
    EXPECT_EQ(deepest, c.max_item_depth);
  }
}

TEST(limits_deep, skip_100000_levels) {
  reader_options opt;
  opt.max_depth = deep;
  for (const deep_case& c : deep_cases(deep)) {
    SCOPED_TRACE(c.name);
    reader rd(c.input.data(), c.input.size(), opt);
    EXPECT_STATUS(rd.skip(), status::ok);
    EXPECT_EQ(rd.offset(), c.input.size());
    EXPECT_STATUS(rd.skip(), status::end);
  }
}

TEST(limits_deep, skip_to_end_from_the_middle) {
  // Enter 50000 arrays, then skip_to_end() closes one level at a time.
  reader_options opt;
  opt.max_depth = deep;
  const bytes in = repeated({0x81}, deep, {0x00});
  reader rd(in.data(), in.size(), opt);
  item it;
  for (uint32_t i = 0; i < deep / 2; ++i) ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(rd.depth(), deep / 2);
  for (uint32_t i = 0; i < deep / 2; ++i) ASSERT_STATUS(rd.skip_to_end(), status::ok);
  EXPECT_EQ(rd.depth(), 0u);
  EXPECT_EQ(rd.offset(), in.size());
  EXPECT_STATUS(rd.skip_to_end(), status::invalid_state);  // nothing open
}

TEST(limits_deep, diag_100000_levels) {
  reader_options opt;
  opt.max_depth = deep;
  for (const deep_case& c : deep_cases(deep)) {
    SCOPED_TRACE(c.name);
    reader rd(c.input.data(), c.input.size(), opt);
    std::string out;
    EXPECT_STATUS(cbor_fast::diag_next(rd, out), status::ok);
    EXPECT_TRUE(out == c.diag) << "diag output of " << out.size() << " chars differs (expected "
                               << c.diag.size() << "), starts " << out.substr(0, 40);
  }
}

TEST(limits_deep, transcode_100000_levels) {
  reader_options opt;
  opt.max_depth = deep;
  for (const deep_case& c : deep_cases(deep)) {
    SCOPED_TRACE(c.name);
    bytes out;
    ASSERT_STATUS(transcode(c.input.data(), c.input.size(), float_mode::as_read, out, opt),
                  status::ok);
    EXPECT_TRUE(out == c.input);
  }
}

// ---- the default limit: 512 ------------------------------------------------------

struct depth_case {
  const char* name;
  bytes at_limit;       ///< exactly 512 open levels
  bytes over_limit;     ///< 513 open levels
  size_t error_offset;  ///< the head that opens level 513
};

std::vector<depth_case> depth_cases() {
  std::vector<depth_case> out;
  out.push_back({"arrays", repeated({0x81}, 512, {0x00}), repeated({0x81}, 513, {0x00}), 512});
  out.push_back({"maps", repeated({0xa1, 0x00}, 512, {0x00}), repeated({0xa1, 0x00}, 513, {0x00}),
                 2 * 512 + 0});
  out.push_back({"tags", repeated({0xc1}, 512, {0x00}), repeated({0xc1}, 513, {0x00}), 512});
  bytes in512 = repeated({0x9f}, 512, {});
  in512.insert(in512.end(), 512, 0xff);
  bytes in513 = repeated({0x9f}, 513, {});
  in513.insert(in513.end(), 513, 0xff);
  out.push_back({"indefinite_arrays", in512, in513, 512});
  // An indefinite-length string is a level too (reader_options::max_depth).
  out.push_back({"indefinite_string_innermost", repeated({0x81}, 511, {0x5f, 0xff}),
                 repeated({0x81}, 512, {0x5f, 0xff}), 512});
  // Mixed: [ {0: 1( [_ ... repeated; each unit 81 a1 00 c1 9f opens 4 levels.
  // 128 units = 512 levels, then 00 and one break per 9f. Over the limit: one
  // more array in front, so the last unit's 9f (unit offset 4) opens level 513
  // at 1 + 5 * 127 + 4.
  bytes mixed_512 = repeated({0x81, 0xa1, 0x00, 0xc1, 0x9f}, 128, {0x00});
  for (int i = 0; i < 128; ++i) mixed_512.push_back(0xff);
  out.push_back({"mixed", mixed_512, concat({0x81}, mixed_512), 1 + 5 * 127 + 4});
  return out;
}

TEST(limits_default_depth, max_depth_defaults_to_512) {
  EXPECT_EQ(reader_options{}.max_depth, 512u);
}

TEST(limits_default_depth, exactly_512_levels_read) {
  for (const depth_case& c : depth_cases()) {
    SCOPED_TRACE(c.name);
    reader rd(c.at_limit.data(), c.at_limit.size());
    const read_log log = read_all(rd, c.at_limit.data(), c.at_limit.size(), false);
    EXPECT_STATUS(log.last, status::end);
    reader rs(c.at_limit.data(), c.at_limit.size());
    EXPECT_STATUS(rs.skip(), status::ok);
    reader rdg(c.at_limit.data(), c.at_limit.size());
    std::string out;
    EXPECT_STATUS(cbor_fast::diag_next(rdg, out), status::ok);
  }
}

TEST(limits_default_depth, level_513_fails_at_its_head) {
  for (const depth_case& c : depth_cases()) {
    SCOPED_TRACE(c.name);
    reader rd(c.over_limit.data(), c.over_limit.size());
    const read_log log = read_all(rd, c.over_limit.data(), c.over_limit.size(), false);
    EXPECT_STATUS(log.last, status::depth_exceeded);
    EXPECT_EQ(log.error.offset, c.error_offset);
    EXPECT_EQ(log.cursor, c.error_offset);  // everything before it was delivered
    item it;
    EXPECT_STATUS(rd.next(it), status::depth_exceeded);  // sticky

    reader rs(c.over_limit.data(), c.over_limit.size());
    EXPECT_STATUS(rs.skip(), status::depth_exceeded);
    EXPECT_EQ(rs.error().offset, c.error_offset);

    reader rdg(c.over_limit.data(), c.over_limit.size());
    std::string out;
    EXPECT_STATUS(cbor_fast::diag_next(rdg, out), status::depth_exceeded);
    EXPECT_EQ(rdg.error().offset, c.error_offset);
  }
}

TEST(limits_default_depth, custom_small_limit) {
  // max_depth = 1: one open level. [0] is fine, [[0]] fails at offset 1,
  // 1(0) is fine, 1(1(0)) fails at offset 1; a top-level scalar needs none.
  reader_options opt;
  opt.max_depth = 1;
  struct {
    const char* hex;
    status last;
    size_t offset;
  } cases[] = {
      {"8100", status::end, 0},
      {"818100", status::depth_exceeded, 1},
      {"c100", status::end, 0},
      {"c1c100", status::depth_exceeded, 1},
      {"9f5fffff", status::depth_exceeded, 1},
      {"00", status::end, 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.hex);
    const exact_buffer in(from_hex(c.hex));
    reader rd(in.data(), in.size(), opt);
    const read_log log = read_all(rd, in.data(), in.size());
    EXPECT_STATUS(log.last, c.last);
    if (c.last != status::end) {
      EXPECT_EQ(log.error.offset, c.offset);
    }
  }
}

// ---- absurd declared lengths ---------------------------------------------------------

struct length_case {
  const char* name;
  const char* hex;
  size_t offset;
  const char* before;
  /// An array or map count: over the default container limit, which is
  /// checked before the bytes left (container_too_large unless lifted).
  bool count = false;
};

const length_case huge_lengths[] = {
    // 2^64 - 1 with one byte behind the head: 10 bytes in all.
    {"bytes_2_64_minus_1", "5b ffffffffffffffff 00", 0, ""},
    {"text_2_64_minus_1", "7b ffffffffffffffff 00", 0, ""},
    {"array_2_64_minus_1", "9b ffffffffffffffff 00", 0, "", true},
    {"map_2_64_minus_1", "bb ffffffffffffffff 00", 0, "", true},
    // 2^32 (just over 32 bits) and 2^32 - 1.
    {"bytes_2_32", "5b 0000000100000000 00", 0, ""},
    {"text_2_32", "7b 0000000100000000 00", 0, ""},
    {"array_2_32", "9b 0000000100000000 00", 0, "", true},
    {"map_2_32", "bb 0000000100000000 00", 0, "", true},
    {"bytes_2_32_minus_1", "5a ffffffff 00", 0, ""},
    {"text_2_32_minus_1", "7a ffffffff 00", 0, ""},
    {"array_2_32_minus_1", "9a ffffffff 00", 0, "", true},
    {"map_2_32_minus_1", "ba ffffffff 00", 0, "", true},
    // Lengths for which offset + length wraps around 2^64: 9 + (2^64 - 8) = 1
    // and 9 + (2^64 - 9) = 0; a bounds check by addition would pass them.
    {"bytes_offset_plus_length_wraps_to_1", "5b fffffffffffffff8 00", 0, ""},
    {"bytes_offset_plus_length_wraps_to_0", "5b fffffffffffffff7 00", 0, ""},
    {"text_offset_plus_length_wraps", "7b fffffffffffffff8 00", 0, ""},
    // Pair counts for which 2 * pairs wraps: 2 * 2^63 = 0 and
    // 2 * (2^63 + 1) = 2 (two bytes follow); a check by doubling would pass.
    {"map_doubled_count_wraps_to_0", "bb 8000000000000000 00", 0, "", true},
    {"map_doubled_count_wraps_to_2", "bb 8000000000000001 0000", 0, "", true},
    // Inside a container and inside an indefinite string.
    {"bytes_in_array", "81 5b ffffffffffffffff 00", 1, "[1"},
    {"array_in_map", "a1 00 9b ffffffffffffffff 00", 2, "{1 0", true},
    {"chunk_in_indefinite_bytes", "5f 5b ffffffffffffffff 00 ff", 1, "(_h"},
    {"chunk_in_indefinite_text", "7f 7a ffffffff 00 ff", 1, "(_s"},
};

void PrintTo(const length_case& r, std::ostream* os) { *os << r.name; }

class limits_length : public ::testing::TestWithParam<length_case> {};

void expect_length_failure(const length_case& c, const reader_options& opt, status want) {
  const exact_buffer in(from_hex(c.hex));
  reader rd(in.data(), in.size(), opt);
  const read_log log = read_all(rd, in.data(), in.size());
  EXPECT_STATUS(log.last, want);
  EXPECT_EQ(log.error.offset, c.offset);
  EXPECT_EQ(log.trace, c.before);
  reader rs(in.data(), in.size(), opt);
  EXPECT_STATUS(rs.skip(), want);
  EXPECT_EQ(rs.error().offset, c.offset);
  reader rdg(in.data(), in.size(), opt);
  std::string out;
  EXPECT_STATUS(cbor_fast::diag_next(rdg, out), want);
  EXPECT_EQ(rdg.error().offset, c.offset);
}

TEST_P(limits_length, rejected_at_once_as_truncated) {
  reader_options lifted;
  lifted.max_container_items = UINT64_MAX;
  expect_length_failure(GetParam(), lifted, status::truncated);
}

TEST_P(limits_length, a_count_over_the_default_limit_is_container_too_large) {
  const length_case& c = GetParam();
  expect_length_failure(c, reader_options{},
                        c.count ? status::container_too_large : status::truncated);
}

std::string length_case_name(const ::testing::TestParamInfo<length_case>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(declared, limits_length, ::testing::ValuesIn(huge_lengths),
                         length_case_name);

TEST(limits_length_exact, claimed_2_64_minus_1_is_10_bytes) {
  EXPECT_EQ(from_hex(huge_lengths[0].hex).size(), 10u);
}

// ---- zero copy -------------------------------------------------------------------

TEST(limits_views, one_mib_byte_string_is_a_view) {
  const size_t n = size_t(1) << 20;
  bytes in = from_hex("5a00100000");
  for (size_t i = 0; i < n; ++i) in.push_back(static_cast<uint8_t>(i * 7));
  reader rd(in.data(), in.size());
  item it;
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::byte_string);
  EXPECT_EQ(it.bytes().size, n);
  EXPECT_EQ(it.bytes().data, in.data() + 5);  // points into the input
  EXPECT_EQ(it.encoded_size(), in.size());
  EXPECT_STATUS(rd.next(it), status::end);
}

TEST(limits_views, one_mib_text_string_is_a_view) {
  const size_t n = size_t(1) << 20;
  bytes in = from_hex("7a00100000");
  // Valid UTF-8 throughout: "ü" (2 bytes) repeated.
  for (size_t i = 0; i < n / 2; ++i) {
    in.push_back(0xc3);
    in.push_back(0xbc);
  }
  reader_options opt;
  opt.validate_utf8 = true;
  reader rd(in.data(), in.size(), opt);
  item it;
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::text_string);
  EXPECT_EQ(it.text().size(), n);
  EXPECT_EQ(static_cast<const void*>(it.text().data()), static_cast<const void*>(in.data() + 5));
}

TEST(limits_views, indefinite_chunks_are_views) {
  const bytes in = from_hex("5f 43 aabbcc 42 ddee 40 ff");
  reader rd(in.data(), in.size());
  item it;
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::byte_string);
  EXPECT_TRUE(it.is_indefinite());
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(it.bytes().data, in.data() + 2);
  EXPECT_EQ(it.bytes().size, 3u);
  EXPECT_EQ(it.depth, 1u);
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(it.bytes().data, in.data() + 6);
  EXPECT_EQ(it.bytes().size, 2u);
  ASSERT_STATUS(rd.next(it), status::ok);  // the empty chunk
  EXPECT_EQ(it.bytes().size, 0u);
  EXPECT_EQ(it.offset, 8u);
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(it.offset, 9u);
  EXPECT_STATUS(rd.next(it), status::end);
}

TEST(limits_views, indefinite_text_chunks_are_views) {
  const bytes in = from_hex("7f657374726561646d696e67ff");  // (_ "strea", "ming")
  reader rd(in.data(), in.size());
  item it;
  ASSERT_STATUS(rd.next(it), status::ok);
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(static_cast<const void*>(it.text().data()), static_cast<const void*>(in.data() + 2));
  EXPECT_EQ(it.text(), "strea");
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(static_cast<const void*>(it.text().data()), static_cast<const void*>(in.data() + 8));
  EXPECT_EQ(it.text(), "ming");
}

TEST(limits_joined, read_joined_joins_the_chunks) {
  struct {
    const char* hex;
    const char* joined_hex;
  } cases[] = {
      {"5f42010243030405ff", "0102030405"},
      {"7f657374726561646d696e67ff", "73747265616d696e67"},  // "streaming"
      {"5fff", ""},
      {"5f 40 41 01 40 ff", "01"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.hex);
    const bytes in = from_hex(c.hex);
    reader rd(in.data(), in.size());
    item start;
    ASSERT_STATUS(rd.next(start), status::ok);
    std::string joined = "prefix:";
    ASSERT_STATUS(rd.read_joined(start, joined), status::ok);
    const bytes want = from_hex(c.joined_hex);
    EXPECT_EQ(joined, "prefix:" + std::string(want.begin(), want.end()));
    EXPECT_EQ(rd.offset(), in.size());  // the break is consumed
    EXPECT_EQ(rd.depth(), 0u);
    item it;
    EXPECT_STATUS(rd.next(it), status::end);
  }
}

TEST(limits_joined, read_joined_in_a_container_then_continue) {
  // [(_ h'01', h'02'), 1]
  const bytes in = from_hex("82 5f 4101 4102 ff 01");
  reader rd(in.data(), in.size());
  item it;
  ASSERT_STATUS(rd.next(it), status::ok);
  ASSERT_STATUS(rd.next(it), status::ok);
  std::string joined;
  ASSERT_STATUS(rd.read_joined(it, joined), status::ok);
  EXPECT_EQ(joined, std::string("\x01\x02", 2));
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::unsigned_int);
  EXPECT_EQ(it.value(), 1u);
  EXPECT_EQ(it.depth, 1u);
  EXPECT_EQ(it.offset, 7u);
  ASSERT_STATUS(rd.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_STATUS(rd.next(it), status::end);
}

TEST(limits_joined, read_joined_large) {
  // 1024 chunks of 1 KiB each: 1 MiB joined.
  bytes in = {0x5f};
  std::string want;
  for (int c = 0; c < 1024; ++c) {
    in.push_back(0x59);
    in.push_back(0x04);
    in.push_back(0x00);
    for (int i = 0; i < 1024; ++i) {
      const char ch = static_cast<char>('a' + (c + i) % 26);
      in.push_back(static_cast<uint8_t>(ch));
      want.push_back(ch);
    }
  }
  in.push_back(0xff);
  reader rd(in.data(), in.size());
  item start;
  ASSERT_STATUS(rd.next(start), status::ok);
  std::string joined;
  ASSERT_STATUS(rd.read_joined(start, joined), status::ok);
  EXPECT_EQ(joined.size(), want.size());
  EXPECT_TRUE(joined == want);
}

TEST(limits_joined, read_joined_of_a_definite_string_appends_it) {
  const bytes in = from_hex("6449455446");
  reader rd(in.data(), in.size());
  item it;
  ASSERT_STATUS(rd.next(it), status::ok);
  std::string out = ">";
  ASSERT_STATUS(rd.read_joined(it, out), status::ok);
  EXPECT_EQ(out, ">IETF");
}

TEST(limits_joined, read_joined_of_another_item_is_invalid_state) {
  const bytes in = from_hex("83010203");
  reader rd(in.data(), in.size());
  item it;
  ASSERT_STATUS(rd.next(it), status::ok);
  std::string out;
  EXPECT_STATUS(rd.read_joined(it, out), status::invalid_state);
}

TEST(limits_joined, read_joined_reports_reader_errors) {
  struct {
    const char* hex;
    bool validate;
    status code;
    size_t offset;
  } cases[] = {
      {"5f 41 00", false, status::truncated, 3},  // no break
      {"5f 41 00 61 00 ff", false, status::chunk_type_mismatch, 3},
      {"7f 61 41 7f ff ff", false, status::nested_indefinite_chunk, 3},
      {"7f 61 41 61 ff ff", true, status::invalid_utf8, 4},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.hex);
    const exact_buffer in(from_hex(c.hex));
    reader_options opt;
    opt.validate_utf8 = c.validate;
    reader rd(in.data(), in.size(), opt);
    item start;
    ASSERT_STATUS(rd.next(start), status::ok);
    std::string out;
    EXPECT_STATUS(rd.read_joined(start, out), c.code);
    EXPECT_EQ(rd.error().offset, c.offset);
  }
}

// ---- default container and item limits (since 0.5) -------------------------------

constexpr uint64_t k_container_default = uint64_t(1) << 24;

TEST(limits_default_container, the_defaults_of_every_surface) {
  EXPECT_EQ(cbor_fast::default_max_container_items, k_container_default);
  EXPECT_EQ(cbor_fast::default_max_items, uint64_t(1) << 28);
  EXPECT_EQ(reader_options{}.max_container_items, k_container_default);
  EXPECT_EQ(reader_options{}.max_items, uint64_t(1) << 28);
  EXPECT_EQ(cbor_fast::decode_options{}.max_container_items, k_container_default);
  EXPECT_EQ(uint64_t(cbor_fast::default_max_nodes), cbor_fast::default_max_items);
}

/// A 9-byte head of `major` (4 array, 5 map) counting n entries, after `prefix`.
bytes count_head(bytes prefix, uint8_t major, uint64_t n) {
  prefix.push_back(uint8_t(major << 5 | 27));
  for (int shift = 56; shift >= 0; shift -= 8) prefix.push_back(uint8_t(n >> shift));
  return prefix;
}

struct container_row {
  const char* name;
  bytes input;
  uint64_t limit;  ///< max_container_items; 0: the default (not set)
  status want;     ///< from every reading path
  size_t offset;
};

/// Heads alone: a count the limit lets through then fails as truncated (the
/// bytes are missing), one it refuses as container_too_large, both at the head.
std::vector<container_row> head_rows() {
  const uint64_t n = k_container_default;
  return {
      {"array_at_default_passes_the_limit", count_head({}, 4, n), 0, status::truncated, 0},
      {"array_one_over_default", count_head({}, 4, n + 1), 0, status::container_too_large, 0},
      {"map_at_default_passes_the_limit", count_head({}, 5, n), 0, status::truncated, 0},
      {"map_one_over_default", count_head({}, 5, n + 1), 0, status::container_too_large, 0},
      {"nested_one_over_default", count_head({0x82, 0x00}, 4, n + 1), 0,
       status::container_too_large, 2},
      {"array_one_over_default.lifted_to_max", count_head({}, 4, n + 1), UINT64_MAX,
       status::truncated, 0},
      {"map_one_over_default.lifted_by_one", count_head({}, 5, n + 1), n + 1, status::truncated, 0},
      {"array_2p64m1.lifted_to_max", count_head({}, 4, UINT64_MAX), UINT64_MAX, status::truncated,
       0},
  };
}

TEST(limits_default_container, heads_through_readers_documents_and_sequences) {
  for (const container_row& r : head_rows()) {
    SCOPED_TRACE(r.name);
    const exact_buffer in(r.input);
    reader_options ro;
    cbor_fast::decode_options dopt;
    if (r.limit != 0) ro.max_container_items = dopt.max_container_items = r.limit;
    reader rd(in.data(), in.size(), ro);
    const read_log log = read_all(rd, in.data(), in.size());
    EXPECT_STATUS(log.last, r.want);
    EXPECT_EQ(log.error.offset, r.offset);
    reader rs(in.data(), in.size(), ro);
    EXPECT_STATUS(rs.skip(), r.want);
    EXPECT_EQ(rs.error().offset, r.offset);
    cbor_fast::document doc;
    cbor_fast::error_info err;
    EXPECT_STATUS(cbor_fast::decode(in.data(), in.size(), doc, dopt, &err), r.want);
    EXPECT_EQ(err.offset, r.offset);
    // 0 in decode_options selects the same default.
    cbor_fast::decode_options zero = dopt;
    if (r.limit == 0) zero.max_container_items = 0;
    EXPECT_STATUS(cbor_fast::decode(in.data(), in.size(), doc, zero, &err), r.want);
    EXPECT_EQ(err.offset, r.offset);
    cbor_fast::sequence seq(in.data(), in.size(), zero);
    EXPECT_STATUS(seq.next_document(doc), r.want);
    EXPECT_EQ(seq.error().offset, r.offset);
    cbor_fast::sequence seq2(in.data(), in.size(), zero);
    size_t offset = 0, length = 0;
    EXPECT_STATUS(seq2.next(offset, length), r.want);
    EXPECT_EQ(seq2.error().offset, r.offset);
  }
}

/// Whole containers (16 MiB of entries) through the reader: the reader holds
/// nothing per entry, a document would hold 384 MiB of nodes, so the head
/// rows above are what the document paths are tested with.
TEST(limits_default_container, full_containers_at_and_over_the_default) {
  const size_t n = size_t(k_container_default);
  struct row {
    const char* name;
    bytes input;
    uint64_t limit;
    status want;
    size_t offset;  ///< of the failure; for ok the input size
  };
  bytes definite = count_head({}, 4, n);
  definite.resize(definite.size() + n, 0x00);
  bytes indef_at(1 + n + 1, 0x00);
  indef_at.front() = 0x9f;
  indef_at.back() = 0xff;
  bytes indef_over(1 + n + 2, 0x00);
  indef_over.front() = 0x9f;
  indef_over.back() = 0xff;
  bytes indef_map_over(1 + 2 * (n + 1) + 1, 0x00);
  indef_map_over.front() = 0xbf;
  indef_map_over.back() = 0xff;
  const row rows[] = {
      {"definite_array_at_default", definite, 0, status::ok, definite.size()},
      {"indefinite_array_at_default", indef_at, 0, status::ok, indef_at.size()},
      {"indefinite_array_one_over_default", indef_over, 0, status::container_too_large, 1 + n},
      {"indefinite_array_one_over_default.lifted", indef_over, UINT64_MAX, status::ok,
       indef_over.size()},
      {"indefinite_map_one_over_default", indef_map_over, 0, status::container_too_large,
       1 + 2 * n},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.name);
    reader_options ro;
    if (r.limit != 0) ro.max_container_items = r.limit;
    reader rs(r.input.data(), r.input.size(), ro);
    EXPECT_STATUS(rs.skip(), r.want);
    EXPECT_EQ(r.want == status::ok ? rs.offset() : rs.error().offset, r.offset);
    // next() one item at a time: the same status at the same head.
    reader rn(r.input.data(), r.input.size(), ro);
    item it;
    status s;
    while ((s = rn.next(it)) == status::ok) {}
    EXPECT_STATUS(s, r.want == status::ok ? status::end : r.want);
    if (r.want != status::ok) {
      EXPECT_EQ(rn.error().offset, r.offset);
    }
  }
}

TEST(limits_default_items, lifted_and_restored_through_set_options) {
  // 2^28 items take 256 MiB of input at least, too much for this suite: the
  // default is checked by value, the counting by a small limit and its lift.
  const exact_buffer in(from_hex("83 00 00 00"));
  reader_options ro;
  ro.max_items = 3;
  reader r(in.data(), in.size(), ro);
  EXPECT_STATUS(r.skip(), status::too_many_items);
  EXPECT_EQ(r.error().offset, 3u);
  reader lifted(in.data(), in.size(), ro);
  ro.max_items = UINT64_MAX;
  EXPECT_STATUS(lifted.set_options(ro), status::ok);
  EXPECT_STATUS(lifted.skip(), status::ok);
  EXPECT_EQ(lifted.items(), 4u);
  reader plain(in.data(), in.size());
  EXPECT_STATUS(plain.skip(), status::ok);
  EXPECT_EQ(plain.items(), 4u);  // counted from 0 under the default of 2^28
}

}  // namespace
