// Reader API behaviour: items, offsets, depths, views, skip, joined strings, errors.
#include "cbor_fast/reader.hpp"

#include "shared_vectors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace cbor_fast {
namespace {

// "82 01 02" -> {0x82, 0x01, 0x02}; spaces are ignored.
std::vector<uint8_t> hex(const char* h) {
  std::string digits;
  for (; *h; ++h)
    if (*h != ' ') digits += *h;
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < digits.size(); i += 2)
    out.push_back(uint8_t(std::strtoul(digits.substr(i, 2).c_str(), nullptr, 16)));
  return out;
}

struct seen {
  item_type type;
  uint64_t arg;
  uint32_t depth;
  size_t offset;
};

std::vector<seen> walk(const std::vector<uint8_t>& in, status* final_status = nullptr) {
  reader r(in.data(), in.size());
  std::vector<seen> out;
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) out.push_back({it.type, it.arg, it.depth, it.offset});
  if (final_status) *final_status = s;
  return out;
}

TEST(Reader, EmptyInputIsEndNotError) {
  reader r(static_cast<const uint8_t*>(nullptr), 0);
  item it;
  EXPECT_EQ(r.next(it), status::end);
  EXPECT_EQ(r.next(it), status::end);
  EXPECT_TRUE(r.at_end());
  EXPECT_EQ(r.finish(), status::ok);
}

TEST(Reader, NullDataWithSizeIsInvalidArgument) {
  reader r(static_cast<const uint8_t*>(nullptr), 3);
  item it;
  EXPECT_EQ(r.next(it), status::invalid_argument);
}

TEST(Reader, OffsetsAndDepthsOfNestedDefiniteContainers) {
  // [1, {"a": [2]}, 3]
  auto in = hex("83 01 a1 6161 81 02 03");
  status s;
  auto items = walk(in, &s);
  EXPECT_EQ(s, status::end);
  const std::vector<seen> want = {
      {item_type::array, 3, 0, 0},        {item_type::unsigned_int, 1, 1, 1},
      {item_type::map, 1, 1, 2},          {item_type::text_string, 1, 2, 3},
      {item_type::array, 1, 2, 5},        {item_type::unsigned_int, 2, 3, 6},
      {item_type::end, 0, 2, 7},          {item_type::end, 0, 1, 7},
      {item_type::unsigned_int, 3, 1, 7}, {item_type::end, 0, 0, 8},
  };
  ASSERT_EQ(items.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(items[i].type, want[i].type);
    EXPECT_EQ(items[i].arg, want[i].arg);
    EXPECT_EQ(items[i].depth, want[i].depth);
    EXPECT_EQ(items[i].offset, want[i].offset);
  }
}

TEST(Reader, IndefiniteContainerEndReportsBreakByte) {
  // [_ 1, [_ ]]
  auto in = hex("9f019fffff");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::array);
  EXPECT_TRUE(it.is_indefinite());
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_TRUE(it.is_indefinite());
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(it.offset, 3u);
  EXPECT_EQ(it.depth, 1u);
  EXPECT_EQ(it.head_size, 1u);
  EXPECT_NE(it.flags & item::flag_break, 0);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(it.offset, 4u);
  EXPECT_EQ(it.depth, 0u);
  EXPECT_EQ(r.next(it), status::end);
}

TEST(Reader, TagsNestTheirContentWithoutEndItem) {
  // 1(2(3)), 4
  auto in = hex("c1c20304");
  status s;
  auto items = walk(in, &s);
  EXPECT_EQ(s, status::end);
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0].type, item_type::tag);
  EXPECT_EQ(items[0].depth, 0u);
  EXPECT_EQ(items[1].type, item_type::tag);
  EXPECT_EQ(items[1].arg, 2u);
  EXPECT_EQ(items[1].depth, 1u);
  EXPECT_EQ(items[2].type, item_type::unsigned_int);
  EXPECT_EQ(items[2].depth, 2u);
  EXPECT_EQ(items[3].type, item_type::unsigned_int);
  EXPECT_EQ(items[3].depth, 0u);
  EXPECT_EQ(items[3].offset, 3u);
}

TEST(Reader, TaggedContainerInsideArrayCountsAsOneItem) {
  // [1([2]), 3]
  auto in = hex("82 c1 81 02 03");
  status s;
  auto items = walk(in, &s);
  EXPECT_EQ(s, status::end);
  ASSERT_EQ(items.size(), 7u);
  EXPECT_EQ(items[4].type, item_type::end);  // of [2]
  EXPECT_EQ(items[4].depth, 2u);
  EXPECT_EQ(items[5].type, item_type::unsigned_int);
  EXPECT_EQ(items[5].depth, 1u);
  EXPECT_EQ(items[6].type, item_type::end);
  EXPECT_EQ(items[6].depth, 0u);
}

TEST(Reader, DefiniteStringsAreViewsIntoTheInput) {
  auto in = hex("4301020363616263");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::byte_string);
  EXPECT_EQ(it.bytes().data, in.data() + 1);
  EXPECT_EQ(it.bytes().size, 3u);
  EXPECT_EQ(it.encoded_size(), 4u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::text_string);
  EXPECT_EQ(it.text(), "abc");
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(it.text().data()), in.data() + 5);
}

TEST(Reader, IndefiniteStringChunksAreViewsAndJoin) {
  // (_ "strea", "ming")
  auto in = hex("7f657374726561646d696e67ff");
  {
    reader r(in.data(), in.size());
    item it;
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(it.type, item_type::text_string);
    EXPECT_TRUE(it.is_indefinite());
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(it.text(), "strea");
    EXPECT_EQ(it.depth, 1u);
    EXPECT_EQ(reinterpret_cast<const uint8_t*>(it.text().data()), in.data() + 2);
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(it.text(), "ming");
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(it.type, item_type::end);
    EXPECT_EQ(r.next(it), status::end);
  }
  {
    reader r(in.data(), in.size());
    item it;
    ASSERT_EQ(r.next(it), status::ok);
    std::string joined = "x";
    ASSERT_EQ(r.read_joined(it, joined), status::ok);
    EXPECT_EQ(joined, "xstreaming");
    EXPECT_EQ(r.next(it), status::end);
  }
}

TEST(Reader, ReadJoinedOnDefiniteStringAppendsIt) {
  auto in = hex("43010203");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  std::string out;
  ASSERT_EQ(r.read_joined(it, out), status::ok);
  EXPECT_EQ(out, std::string("\x01\x02\x03", 3));
}

TEST(Reader, ReadJoinedOnOtherItemsIsInvalidState) {
  auto in = hex("8101");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  std::string out;
  EXPECT_EQ(r.read_joined(it, out), status::invalid_state);
  // Not sticky: the reader goes on.
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.value(), 1u);
}

// read_joined() joins an indefinite string only while all of its chunks are
// still to come (or were taken by read_joined() itself): once next() or skip()
// has taken one, or for an earlier string's start, it is invalid_state (it
// would leave chunks out), not sticky.
TEST(Reader, ReadJoinedRefusesAStringWhoseChunksWereTaken) {
  const auto in = hex("7f 62 6162 62 6364 62 6566 ff");  // (_ "ab", "cd", "ef")
  struct row {
    const char* name;
    int nexts;  // items read after the start, before read_joined()
    bool skip;  // one skip() after them
    status want;
    const char* joined;
  };
  const row rows[] = {
      {"right after the start", 0, false, status::ok, "abcdef"},
      {"after next() took \"ab\"", 1, false, status::invalid_state, ""},
      {"after skip() passed \"ab\"", 0, true, status::invalid_state, ""},
      {"after next() took two chunks", 2, false, status::invalid_state, ""},
  };
  for (const row& w : rows) {
    SCOPED_TRACE(w.name);
    reader r(in.data(), in.size());
    item start, it;
    ASSERT_EQ(r.next(start), status::ok);
    for (int i = 0; i < w.nexts; ++i) ASSERT_EQ(r.next(it), status::ok);
    if (w.skip) {
      ASSERT_EQ(r.skip(), status::ok);
    }
    std::string out;
    EXPECT_EQ(r.read_joined(start, out), w.want);
    EXPECT_EQ(out, w.joined);
    if (w.want != status::ok) {  // not sticky: the chunks left come out
      ASSERT_EQ(r.next(it), status::ok);
      EXPECT_EQ(it.type, item_type::text_string);
    }
  }
  // [(_ "a"), (_ "b")]: the first string's start, once the second is open.
  const auto two = hex("82 7f 61 61 ff 7f 61 62 ff");
  reader r(two.data(), two.size());
  item it, first, second;
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.next(first), status::ok);
  ASSERT_EQ(r.next(it), status::ok);  // "a"
  ASSERT_EQ(r.next(it), status::ok);  // its end
  ASSERT_EQ(r.next(second), status::ok);
  std::string out;
  EXPECT_EQ(r.read_joined(first, out), status::invalid_state);
  EXPECT_EQ(out, "");
  ASSERT_EQ(r.read_joined(second, out), status::ok);
  EXPECT_EQ(out, "b");
}

TEST(Reader, ReadJoinedReportsMalformedChunk) {
  // (_ h'00', 0) : a uint inside an indefinite byte string
  auto in = hex("5f410000ff");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  std::string out;
  EXPECT_EQ(r.read_joined(it, out), status::chunk_type_mismatch);
  EXPECT_EQ(r.error().offset, 3u);
}

TEST(Reader, SkipPassesOverWholeSubtrees) {
  // [ {1: [2, 3]}, 1(h'00'), (_ "a"), 7 ]
  auto in = hex("84 a1 01 82 02 03  c1 41 00  7f 61 61 ff  07");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);  // array
  ASSERT_EQ(r.skip(), status::ok);    // the map
  EXPECT_EQ(r.offset(), 6u);
  ASSERT_EQ(r.skip(), status::ok);  // the tag and its content
  EXPECT_EQ(r.offset(), 9u);
  ASSERT_EQ(r.skip(), status::ok);  // the indefinite string
  EXPECT_EQ(r.offset(), 13u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.value(), 7u);
  EXPECT_EQ(r.skip(), status::invalid_state);  // only the end is left
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(r.skip(), status::end);
}

TEST(Reader, SkipAtIndefiniteEndIsInvalidState) {
  auto in = hex("9fff");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(r.skip(), status::invalid_state);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
}

TEST(Reader, SkipToEndLeavesTheInnermostContainer) {
  // [[1, [2]], 3]
  auto in = hex("82 82 01 81 02 03");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.next(it), status::ok);  // inner array
  ASSERT_EQ(r.next(it), status::ok);  // 1
  ASSERT_EQ(r.skip_to_end(), status::ok);
  EXPECT_EQ(r.depth(), 1u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.value(), 3u);
  EXPECT_EQ(it.offset, 5u);
  ASSERT_EQ(r.skip_to_end(), status::ok);
  EXPECT_EQ(r.depth(), 0u);
  EXPECT_EQ(r.skip_to_end(), status::invalid_state);
  EXPECT_EQ(r.finish(), status::ok);
}

// skip_to_end() passes over the items left of a definite array in one fast
// skip; where that refuses (a limit, truncation) the general path gives the
// status and offset that reading item by item gives.
TEST(Reader, SkipToEndPassesOverTheItemsLeftAtOnce) {
  // [1, 2, 3, [4, 5], "ab", 6], 7
  auto in = hex("86 01 02 03 82 04 05 62 61 62 06 07");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);  // the array
  ASSERT_EQ(r.next(it), status::ok);  // 1
  ASSERT_EQ(r.skip_to_end(), status::ok);
  EXPECT_EQ(r.depth(), 0u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.value(), 7u);
  EXPECT_EQ(it.offset, 11u);
  EXPECT_EQ(r.finish(), status::ok);
  struct row {
    const char* name;
    std::vector<uint8_t> input;
    uint64_t max_items;
    status code;
    size_t offset;
  };
  const row rows[] = {
      {"max_items reached inside the nested array", in, 5, status::too_many_items, 5},
      {"max_items reached at the last item", in, 8, status::too_many_items, 10},
      {"truncated inside the nested array", hex("84 01 02 82 04"), UINT64_MAX, status::truncated,
       3},
      {"a truncated string", hex("84 01 02 03 62 61"), UINT64_MAX, status::truncated, 4},
      {"malformed inside", hex("83 01 02 1c"), UINT64_MAX, status::reserved_additional_info, 3},
  };
  for (const row& c : rows) {
    reader_options o;
    o.max_items = c.max_items;
    reader skipping(c.input.data(), c.input.size(), o);
    ASSERT_EQ(skipping.next(it), status::ok) << c.name;
    ASSERT_EQ(skipping.next(it), status::ok) << c.name;
    EXPECT_EQ(skipping.skip_to_end(), c.code) << c.name;
    EXPECT_EQ(skipping.error().offset, c.offset) << c.name;
    // the same status and offset as reading every item
    reader reading(c.input.data(), c.input.size(), o);
    status s = status::ok;
    while ((s = reading.next(it)) == status::ok) {}
    EXPECT_EQ(s, c.code) << c.name;
    EXPECT_EQ(reading.error().offset, c.offset) << c.name;
  }
}

TEST(Reader, SkipReportsErrorsInsideSubtree) {
  auto in = hex("82 01 1c");  // reserved additional info inside the array
  reader r(in.data(), in.size());
  EXPECT_EQ(r.skip(), status::reserved_additional_info);
  EXPECT_EQ(r.error().offset, 2u);
  EXPECT_EQ(r.error().depth, 1u);
  item it;
  EXPECT_EQ(r.next(it), status::reserved_additional_info);  // sticky
}

TEST(Reader, FinishDistinguishesTrailingBytesAndOpenContainers) {
  auto in = hex("0102");
  {
    reader r(in.data(), in.size());
    item it;
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(r.finish(), status::trailing_bytes);
    EXPECT_EQ(r.offset(), 1u);
  }
  auto arr = hex("820102");
  {
    reader r(arr.data(), arr.size());
    item it;
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(r.finish(), status::invalid_state);
  }
  auto open = hex("9f01");
  {
    reader r(open.data(), open.size());
    item it;
    ASSERT_EQ(r.next(it), status::ok);
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(r.finish(), status::truncated);
    EXPECT_EQ(r.error().offset, 2u);
  }
  // Every item of the definite containers read, only their end items not
  // yet: no byte is missing. invalid_state, not sticky (it was a sticky
  // truncated: the next next() failed instead of giving the end item).
  struct only_ends_row {
    const char* name;
    const char* input;
    int items;  // read before finish()
    status want;
  };
  const only_ends_row rows[] = {
      {"array, items read", "820102", 3, status::invalid_state},
      {"nested, all items read", "8281 01 02", 5, status::invalid_state},
      {"nested, inner end read", "8281 01 02", 4, status::invalid_state},
      {"map, pair read", "a1 01 02", 3, status::invalid_state},
      {"tag over a full array", "c1 81 00", 3, status::invalid_state},
      {"tag in a full array", "81 c1 00", 3, status::invalid_state},
      {"tag without its content", "81 c1", 2, status::truncated},
      {"outer item missing", "82 8101", 3, status::truncated},
      {"indefinite array open", "9f 01", 2, status::truncated},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    auto data = hex(row.input);
    reader r(data.data(), data.size());
    item it;
    for (int i = 0; i < row.items; ++i) ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(r.finish(), row.want);
    if (row.want == status::invalid_state) {
      // Not sticky: the rest comes, then finish() is ok.
      while (r.next(it) == status::ok) {}
      EXPECT_EQ(r.finish(), status::ok);
      EXPECT_EQ(r.error().code, status::ok);
    } else {
      EXPECT_EQ(r.error().code, status::truncated);
      EXPECT_EQ(r.error().offset, data.size());
    }
  }
}

TEST(Reader, AtContainerEnd) {
  // (name, input, items read first, answer): true exactly where skip()
  // says invalid_state; nothing consumed either way.
  struct row_t {
    const char* name;
    const char* input;
    int items;
    bool want;
  };
  const row_t rows[] = {
      {"top level", "01", 0, false},
      {"top level, end of input", "01", 1, false},
      {"definite array, item due", "8201 02", 2, false},
      {"definite array, all read", "8201 02", 3, true},
      {"empty array", "80", 1, true},
      {"indefinite array at its break", "9f01 ff", 2, true},
      {"indefinite array, item due", "9f01 02ff", 2, false},
      {"indefinite string at its break", "5f 4100 ff", 2, true},
      {"tag done inside an array", "81 c1 00", 3, true},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    auto in = hex(row.input);
    reader r(in.data(), in.size());
    item it;
    for (int i = 0; i < row.items; ++i) ASSERT_EQ(r.next(it), status::ok);
    const size_t at = r.offset();
    EXPECT_EQ(r.at_container_end(), row.want);
    EXPECT_EQ(r.offset(), at);
    reader r2(in.data(), in.size());
    for (int i = 0; i < row.items; ++i) ASSERT_EQ(r2.next(it), status::ok);
    EXPECT_EQ(r2.skip() == status::invalid_state, row.want);
  }
}

TEST(Reader, IntegerAccessors) {
  // 0, 2^63-1, 2^63, -1, -2^63, -2^63-1, -2^64
  auto in =
      hex("00 1b7fffffffffffffff 1b8000000000000000 20 3b7fffffffffffffff "
          "3b8000000000000000 3bffffffffffffffff");
  reader r(in.data(), in.size());
  item it;
  int64_t v = 0;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_TRUE(it.get_int64(&v));
  EXPECT_EQ(v, 0);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_TRUE(it.get_int64(&v));
  EXPECT_EQ(v, INT64_MAX);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_FALSE(it.get_int64(&v));
  EXPECT_EQ(it.value(), uint64_t(1) << 63);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_TRUE(it.get_int64(&v));
  EXPECT_EQ(v, -1);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_TRUE(it.get_int64(&v));
  EXPECT_EQ(v, INT64_MIN);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_FALSE(it.get_int64(&v));
  EXPECT_EQ(it.type, item_type::negative_int);
  EXPECT_EQ(it.value(), uint64_t(1) << 63);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_FALSE(it.get_int64(&v));
  EXPECT_EQ(it.value(), UINT64_MAX);  // -1 - (2^64 - 1) = -2^64
}

TEST(Reader, SimpleValuesAndFloats) {
  auto in = hex("f4f5f6f7f0f820f8fff93c00fa47c35000fb3ff199999999999a");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::boolean);
  EXPECT_FALSE(it.boolean_value());
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_TRUE(it.boolean_value());
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::null);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::undefined);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::simple);
  EXPECT_EQ(it.simple_value(), 16);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.simple_value(), 32);
  EXPECT_EQ(it.head_size, 2u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.simple_value(), 255);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::floating);
  EXPECT_EQ(it.width, 2u);
  EXPECT_EQ(it.float_value(), 1.0);
  EXPECT_EQ(it.float_bits(), 0x3c00u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.width, 4u);
  EXPECT_EQ(it.float_value(), 100000.0);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.width, 8u);
  EXPECT_EQ(it.float_value(), 1.1);
}

TEST(Reader, HalfPrecisionSpecialValues) {
  struct row {
    const char* name;
    const char* hex;
    double value;
  } rows[] = {
      {"smallest subnormal", "f90001", 5.960464477539063e-8},
      {"largest subnormal", "f903ff", 0.000060975551605224609375},
      {"smallest normal", "f90400", 0.00006103515625},
      {"max", "f97bff", 65504.0},
      {"negative zero", "f98000", -0.0},
      {"minus four", "f9c400", -4.0},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    auto in = hex(row.hex);
    reader r(in.data(), in.size());
    item it;
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(it.float_value(), row.value);
    EXPECT_EQ(std::signbit(it.float_value()), std::signbit(row.value));
  }
  auto nan = hex("f97e01");
  reader r(nan.data(), nan.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_TRUE(std::isnan(it.float_value()));
  uint64_t bits;
  double d = it.float_value();
  std::memcpy(&bits, &d, 8);
  EXPECT_EQ(bits, 0x7ff8040000000000u);  // payload kept in the top mantissa bits
}

// Singles widen exactly: normal ones in the reader's inline steps (in
// hardware for next() and the batch), the rest out of line; the double's
// bits, through next() and visit(), either side of each boundary.
TEST(Reader, SinglePrecisionWidening) {
  struct row {
    const char* name;
    const char* hex;
    uint64_t bits;
  } rows[] = {
      {"smallest subnormal", "fa00000001", 0x36a0000000000000u},
      {"largest subnormal", "fa007fffff", 0x380fffffc0000000u},
      {"smallest normal", "fa00800000", 0x3810000000000000u},
      {"largest normal", "fa7f7fffff", 0x47efffffe0000000u},
      {"one", "fa3f800000", 0x3ff0000000000000u},
      {"minus pi", "fac0490fdb", 0xc00921fb60000000u},
      {"negative zero", "fa80000000", 0x8000000000000000u},
      {"zero", "fa00000000", 0u},
      {"minus infinity", "faff800000", 0xfff0000000000000u},
      {"signalling NaN, payload kept", "fa7f800001", 0x7ff0000020000000u},
      {"quiet NaN with payload", "faffc00001", 0xfff8000020000000u},
      {"negative smallest normal", "fa80800000", 0xb810000000000000u},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    auto in = hex(row.hex);
    uint64_t got;
    {
      reader r(in.data(), in.size());
      item it;
      ASSERT_EQ(r.next(it), status::ok);
      EXPECT_EQ(it.width, 4u);
      double d = it.float_value();
      std::memcpy(&got, &d, 8);
      EXPECT_EQ(got, row.bits);
    }
    {
      reader r(in.data(), in.size());
      got = 0;
      ASSERT_EQ(r.visit([&](const item& it) noexcept {
        double d = it.float_value();
        std::memcpy(&got, &d, 8);
      }),
                status::ok);
      EXPECT_EQ(got, row.bits);
    }
  }
}

TEST(Reader, StrictUtf8IsOptIn) {
  auto in = hex("62c328");  // "\xc3(" : truncated 2-byte sequence
  {
    reader r(in.data(), in.size());
    item it;
    EXPECT_EQ(r.next(it), status::ok);
  }
  {
    reader_options o;
    o.validate_utf8 = true;
    reader r(in.data(), in.size(), o);
    item it;
    EXPECT_EQ(r.next(it), status::invalid_utf8);
    EXPECT_EQ(r.error().offset, 1u);
  }
}

TEST(Reader, DepthLimitIsExact) {
  // 1 is the smallest limit (0 means the default, 512: Defaults.*).
  for (uint32_t limit : {1u, 2u, 7u}) {
    SCOPED_TRACE(limit);
    reader_options o;
    o.max_depth = limit;
    std::vector<uint8_t> ok(limit, 0x81);
    ok.push_back(0x00);
    {
      reader r(ok.data(), ok.size(), o);
      ASSERT_EQ(r.skip(), status::ok);
      EXPECT_EQ(r.finish(), status::ok);
    }
    std::vector<uint8_t> deep(limit + 1, 0x81);
    deep.push_back(0x00);
    reader r(deep.data(), deep.size(), o);
    EXPECT_EQ(r.skip(), status::depth_exceeded);
    EXPECT_EQ(r.error().offset, limit);
    EXPECT_EQ(r.error().depth, limit);
  }
}

// Counts allocations and fails on demand, to prove the stack growth path.
struct counting_alloc {
  int calls = 0;
  int fail_at = -1;
  static void* do_malloc(void* c, size_t n) {
    auto* self = static_cast<counting_alloc*>(c);
    if (self->calls++ == self->fail_at) return nullptr;
    return std::malloc(n);
  }
  static void* do_realloc(void* c, void* p, size_t, size_t n) {
    auto* self = static_cast<counting_alloc*>(c);
    if (self->calls++ == self->fail_at) return nullptr;
    return std::realloc(p, n);
  }
  static void do_free(void*, void* p, size_t) { std::free(p); }
};

TEST(Reader, StackGrowsThroughAllocatorAndReportsFailure) {
  std::vector<uint8_t> deep(1000, 0x81);
  deep.push_back(0x00);
  counting_alloc c;
  allocator a{counting_alloc::do_malloc, counting_alloc::do_realloc, counting_alloc::do_free, &c};
  reader_options o;
  o.max_depth = 5000;
  o.alloc = &a;
  {
    reader r(deep.data(), deep.size(), o);
    ASSERT_EQ(r.skip(), status::ok);
  }
  EXPECT_GT(c.calls, 1);
  EXPECT_LT(c.calls, 12);  // geometric growth: 16, 32, ... 1024
  counting_alloc f;
  f.fail_at = 2;
  a.context = &f;
  reader r(deep.data(), deep.size(), o);
  EXPECT_EQ(r.skip(), status::out_of_memory);
  EXPECT_EQ(r.error().offset, 32u);  // the 33rd array needs the third allocation
}

// item_ready() scouts a partial item with a reader of its own; when that
// reader's stack cannot grow, the answer is out_of_memory (sticky), never ok
// for an item that is not all there.
TEST(Reader, ItemReadyReportsTheScoutsAllocationFailure) {
  const std::vector<uint8_t> deep(20, 0x81);  // 20 nested arrays, the content to come
  reader_options o;
  o.streaming = true;
  // The allocation that fails, and where: the scout itself (at the item),
  // then its stack, 8 levels inline, growing to 16 frames at the 9th array
  // and to 32 at the 17th; later calls are never made.
  const size_t oom_offset[] = {0, 8, 16};
  size_t out_of_memory = 0, need_more = 0;
  for (int fail_at = 0; fail_at < 8; ++fail_at) {
    SCOPED_TRACE(fail_at);
    counting_alloc c;
    c.fail_at = fail_at;
    allocator a{counting_alloc::do_malloc, counting_alloc::do_realloc, counting_alloc::do_free, &c};
    o.alloc = &a;
    reader r(deep.data(), deep.size(), o);
    const status s = r.item_ready();
    if (s == status::out_of_memory) {
      ASSERT_LT(size_t(fail_at), 3u);
      ++out_of_memory;
      EXPECT_EQ(r.error().code, status::out_of_memory);
      EXPECT_EQ(r.error().offset, oom_offset[fail_at]);
      EXPECT_EQ(r.skip(), status::out_of_memory);  // sticky
      continue;
    }
    ++need_more;
    EXPECT_EQ(s, status::need_more);
    EXPECT_EQ(r.needed(), 1u);
    EXPECT_EQ(r.offset(), 0u);
  }
  EXPECT_EQ(out_of_memory, 3u);
  EXPECT_EQ(need_more, 5u);
}

TEST(Reader, MoveKeepsPositionAndStack) {
  auto in = hex("8201820203");
  reader a(in.data(), in.size());
  item it;
  ASSERT_EQ(a.next(it), status::ok);
  ASSERT_EQ(a.next(it), status::ok);
  reader b(std::move(a));
  EXPECT_EQ(b.depth(), 1u);
  ASSERT_EQ(b.skip(), status::ok);
  ASSERT_EQ(b.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  reader c(in.data(), 1);
  c = std::move(b);
  EXPECT_EQ(c.next(it), status::end);
}

}  // namespace
}  // namespace cbor_fast

namespace cbor_fast {
namespace {

TEST(Reader, ErrorReportsStartOfTopLevelItem) {
  // Sequence: 1, [2, [3, 0x1c]]: the reserved byte sits in the second item.
  auto in = hex("01 82 02 82 03 1c");
  reader r(in.data(), in.size());
  EXPECT_EQ(r.skip(), status::ok);
  EXPECT_EQ(r.skip(), status::reserved_additional_info);
  EXPECT_EQ(r.error().offset, 5u);
  EXPECT_EQ(r.error().item_offset, 1u);
  EXPECT_EQ(r.error().depth, 2u);
}

TEST(Reader, ResetReusesTheReader) {
  auto a = hex("8101");
  auto b = hex("02");
  reader r(a.data(), a.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  r.reset(b.data(), b.size());
  EXPECT_EQ(r.depth(), 0u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.value(), 2u);
  EXPECT_EQ(r.next(it), status::end);
  auto bad = hex("1c");
  r.reset(bad.data(), bad.size());
  EXPECT_EQ(r.next(it), status::reserved_additional_info);
  r.reset(b.data(), b.size());
  EXPECT_EQ(r.error().code, status::ok);
  EXPECT_EQ(r.next(it), status::ok);
}

TEST(Reader, SetOptionsRefusesDepthBelowCurrent) {
  auto in = hex("818181f6");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  reader_options o;
  o.max_depth = 1;
  EXPECT_EQ(r.set_options(o), status::invalid_argument);
  o.max_depth = 2;
  ASSERT_EQ(r.set_options(o), status::ok);
  EXPECT_EQ(r.next(it), status::depth_exceeded);
  EXPECT_EQ(r.error().offset, 2u);
}

}  // namespace
}  // namespace cbor_fast

namespace cbor_fast {
namespace {

// The reader checks short text strings with one masked 16-byte load: bytes
// after the string (here 0xff padding) must not count, bytes inside must.
TEST(Reader, StrictUtf8ShortStringsLookOnlyAtTheirOwnBytes) {
  reader_options strict;
  strict.validate_utf8 = true;
  for (size_t len = 0; len <= 20; ++len) {
    SCOPED_TRACE(len);
    std::vector<uint8_t> in;
    in.push_back(uint8_t(0x60 + len));  // text string head, len <= 23
    in.insert(in.end(), len, 'a');
    in.push_back(0x41);  // h'ff': a byte string, not text
    in.push_back(0xff);
    in.insert(in.end(), 20, 0xff);  // no item: only read past by the load
    {
      reader r(in.data(), in.size() - 20, strict);
      item it;
      ASSERT_EQ(r.next(it), status::ok);
      EXPECT_EQ(it.text().size(), len);
      ASSERT_EQ(r.next(it), status::ok);
      EXPECT_EQ(r.next(it), status::end);
    }
    for (size_t bad = 0; bad < len; ++bad) {
      std::vector<uint8_t> copy = in;
      copy[1 + bad] = 0xc0;  // never valid in UTF-8
      reader r(copy.data(), copy.size() - 20, strict);
      item it;
      ASSERT_EQ(r.next(it), status::invalid_utf8);
      EXPECT_EQ(r.error().offset, 1 + bad);
    }
  }
}

}  // namespace
}  // namespace cbor_fast

namespace cbor_fast {
namespace {

status read_all(const std::vector<uint8_t>& in, const reader_options& o, size_t* offset) {
  reader r(in.data(), in.size(), o);
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) {}
  *offset = r.error().offset;
  return s;
}

TEST(ReaderLimits, StringLengthBoundaryAndCheckedBeforeInputLength) {
  reader_options o;
  o.max_string_length = 3;
  size_t off = 0;
  EXPECT_EQ(read_all(hex("63616263"), o, &off), status::end);  // "abc": at the limit
  EXPECT_EQ(read_all(hex("01 6461626364"), o, &off), status::string_too_long);  // "abcd"
  EXPECT_EQ(off, 1u);
  EXPECT_EQ(read_all(hex("44 01020304"), o, &off), status::string_too_long);  // bytes too
  EXPECT_EQ(off, 0u);
  // 2^64-1 declared in a 10-byte input: the limit speaks first.
  EXPECT_EQ(read_all(hex("5bffffffffffffffff00"), o, &off), status::string_too_long);
  EXPECT_EQ(off, 0u);
  // Chunks are strings too.
  EXPECT_EQ(read_all(hex("5f 4401020304 ff"), o, &off), status::string_too_long);
  EXPECT_EQ(off, 1u);
}

TEST(ReaderLimits, JoinedStringLengthCountsAllChunks) {
  reader_options o;
  o.max_string_length = 4;
  auto in = hex("7f 626162 626364 6165 ff");  // "ab" "cd" "e": 5 bytes joined
  reader r(in.data(), in.size(), o);
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  std::string out;
  EXPECT_EQ(r.read_joined(it, out), status::string_too_long);
  EXPECT_EQ(r.error().offset, 7u);  // the chunk that crosses the limit
}

TEST(ReaderLimits, ContainerEntriesDefiniteAndIndefinite) {
  reader_options o;
  o.max_container_items = 2;
  size_t off = 0;
  EXPECT_EQ(read_all(hex("820102"), o, &off), status::end);
  EXPECT_EQ(read_all(hex("00 83010203"), o, &off), status::container_too_large);
  EXPECT_EQ(off, 1u);
  EXPECT_EQ(read_all(hex("a2 0102 0304"), o, &off), status::end);  // two pairs
  EXPECT_EQ(read_all(hex("a3 0102 0304 0506"), o, &off), status::container_too_large);
  EXPECT_EQ(off, 0u);
  EXPECT_EQ(read_all(hex("9f 0102 ff"), o, &off), status::end);
  EXPECT_EQ(read_all(hex("9f 010203 ff"), o, &off), status::container_too_large);
  EXPECT_EQ(off, 3u);
  EXPECT_EQ(read_all(hex("bf 0102 0304 ff"), o, &off), status::end);
  EXPECT_EQ(read_all(hex("bf 0102 0304 05 06 ff"), o, &off), status::container_too_large);
  EXPECT_EQ(off, 5u);
  // A full indefinite map still checks the break's position.
  EXPECT_EQ(read_all(hex("bf 0102 03 ff"), o, &off), status::map_missing_value);
  EXPECT_EQ(off, 4u);
  // Nested containers have their own count.
  EXPECT_EQ(read_all(hex("82 9f0102ff 9f0304ff"), o, &off), status::end);
}

TEST(ReaderLimits, TotalItems) {
  reader_options o;
  o.max_items = 4;
  size_t off = 0;
  // [1, [_ 2]] is four heads; the break and the ends do not count.
  EXPECT_EQ(read_all(hex("82 01 9f 02 ff"), o, &off), status::end);
  EXPECT_EQ(read_all(hex("83 01 9f 02 ff 03"), o, &off), status::too_many_items);
  EXPECT_EQ(off, 5u);
  // Tags count.
  EXPECT_EQ(read_all(hex("c1 c1 c1 c1 01"), o, &off), status::too_many_items);
  EXPECT_EQ(off, 4u);
}

// Since 0.5 max_items bounds each top-level item, not the whole input: a
// reader over a sequence or a long-lived stream never runs out between items.
// Every path that reads items (next, visit, skip, item_ready, read_array)
// stops at the same head.
status budget_by_next(const std::vector<uint8_t>& in, const reader_options& o, size_t* off,
                      uint64_t* items) {
  reader r(in.data(), in.size(), o);
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) {}
  *off = r.error().offset;
  *items = r.items();
  return s;
}

status budget_by_visit(const std::vector<uint8_t>& in, const reader_options& o, size_t* off,
                       uint64_t* items) {
  reader r(in.data(), in.size(), o);
  status s;
  while ((s = r.visit([](const item&) noexcept {})) == status::ok) {}
  *off = r.error().offset;
  *items = r.items();
  return s;
}

status budget_by_skip(const std::vector<uint8_t>& in, const reader_options& o, size_t* off,
                      uint64_t* items) {
  reader r(in.data(), in.size(), o);
  status s;
  while ((s = r.skip()) == status::ok) {}
  *off = r.error().offset;
  *items = r.items();
  return s;
}

// Streaming, one more byte shown at a time: at the top level item_ready()
// scouts the whole item with the budget of a top-level item, then next()
// reads it.
status budget_by_feed(const std::vector<uint8_t>& in, const reader_options& options, size_t* off,
                      uint64_t* items) {
  reader_options o = options;
  o.streaming = true;
  size_t shown = 0;
  reader r(in.data(), shown, o);
  item it;
  status s;
  for (;;) {
    s = r.depth() == 0 ? r.item_ready() : status::ok;
    if (s == status::ok) s = r.next(it);
    if (s == status::ok) continue;
    if (s != status::need_more) break;
    if (shown == in.size()) {
      r.end_input();
      continue;
    }
    ++shown;
    if ((s = r.feed(in.data(), shown, 0)) != status::ok) break;
  }
  *off = r.error().offset;
  *items = r.items();
  return s;
}

TEST(ReaderLimits, ItemBudgetIsPerTopLevelItem) {
  using path = status (*)(const std::vector<uint8_t>&, const reader_options&, size_t*, uint64_t*);
  const struct {
    const char* name;
    path run;
  } paths[] = {{"next", budget_by_next},
               {"visit", budget_by_visit},
               {"skip", budget_by_skip},
               {"feed", budget_by_feed}};
  // The rows: tests/vectors/item_budget.json.
  ASSERT_GE(sizeof k_shared_item_budget / sizeof k_shared_item_budget[0], 15u);
  for (const shared_item_budget& row : k_shared_item_budget) {
    const std::vector<uint8_t> in = hex(row.hex);
    const status want = row.status == CBOR_FAST_OK ? status::end : status(row.status);
    reader_options o;
    o.max_items = row.max_items;
    for (const auto& p : paths) {
      size_t off = SIZE_MAX;
      uint64_t items = 0;
      EXPECT_EQ(p.run(in, o, &off, &items), want) << row.name << " by " << p.name;
      if (want != status::end) {
        EXPECT_EQ(off, row.offset) << row.name << " by " << p.name;
      }
    }
  }
}

TEST(ReaderLimits, LongSequenceUnderASmallBudget) {
  // 1000 documents [0] (two heads each) under a budget of 2: every path reads
  // them all, and items() keeps counting the total since construction.
  std::vector<uint8_t> in;
  for (int i = 0; i < 1000; ++i) {
    in.push_back(0x81);
    in.push_back(0x00);
  }
  reader_options o;
  o.max_items = 2;
  size_t off = 0;
  uint64_t items = 0;
  EXPECT_EQ(budget_by_next(in, o, &off, &items), status::end);
  EXPECT_EQ(items, 2000u);
  EXPECT_EQ(budget_by_visit(in, o, &off, &items), status::end);
  EXPECT_EQ(items, 2000u);
  EXPECT_EQ(budget_by_skip(in, o, &off, &items), status::end);
  EXPECT_EQ(items, 2000u);
  EXPECT_EQ(budget_by_feed(in, o, &off, &items), status::end);
  EXPECT_EQ(items, 2000u);
  // read_array() at the top level, into a vector: a whole budget each time.
  reader r(in.data(), in.size(), o);
  std::vector<uint64_t> values;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(r.read_array(values), status::ok) << i;
    ASSERT_EQ(values, std::vector<uint64_t>{0}) << i;
  }
  EXPECT_EQ(r.items(), 2000u);
  item it;
  EXPECT_EQ(r.next(it), status::end);
  // The budget of a single top-level item is still enforced there: [0, 0] is
  // three heads.
  const std::vector<uint8_t> over = hex("81 00 82 00 00 81 00");
  reader b(over.data(), over.size(), o);
  ASSERT_EQ(b.read_array(values), status::ok);
  EXPECT_EQ(b.read_array(values), status::too_many_items);
  EXPECT_EQ(b.error().offset, 4u);
}

TEST(ReaderLimits, SetOptionsKeepsTheItemCountOfTheCurrentItem) {
  auto in = hex("84 01 02 03 04 05");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  reader_options o;
  o.max_items = 3;  // two used by [1, ...: one more allowed
  ASSERT_EQ(r.set_options(o), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(r.next(it), status::too_many_items);
  EXPECT_EQ(r.error().offset, 3u);
  EXPECT_EQ(r.items(), 3u);
  // Lowered below what the item used: items() still counts every head read.
  auto seq = hex("83 01 02 03 05");
  reader low(seq.data(), seq.size());
  for (int i = 0; i < 3; ++i) ASSERT_EQ(low.next(it), status::ok);
  o.max_items = 1;
  ASSERT_EQ(low.set_options(o), status::ok);
  EXPECT_EQ(low.items(), 3u);
  EXPECT_EQ(low.next(it), status::too_many_items);
  EXPECT_EQ(low.error().offset, 3u);
  // Between top-level items the next one has the new budget whole.
  reader between(seq.data() + 4, 1);
  ASSERT_EQ(between.set_options(o), status::ok);
  ASSERT_EQ(between.next(it), status::ok);
  EXPECT_EQ(it.value(), 5u);
  EXPECT_EQ(between.next(it), status::end);
}

// next()'s inline path takes a string or container with its length in the
// initial byte untested while 47 bytes are left and the limits are at least
// 23; limits lowered mid-input apply to the very next head there too.
TEST(Reader, SetOptionsLimitsApplyToShortHeadsInline) {
  std::vector<uint8_t> in;
  for (int i = 0; i < 12; ++i) {
    in.push_back(0x65);  // "hello"
    for (char ch : {'h', 'e', 'l', 'l', 'o'}) in.push_back(uint8_t(ch));
  }
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.text(), "hello");
  reader_options o;
  o.max_string_length = 4;
  ASSERT_EQ(r.set_options(o), status::ok);
  EXPECT_EQ(r.next(it), status::string_too_long);
  EXPECT_EQ(r.error().offset, 6u);

  std::vector<uint8_t> arrays;
  for (int i = 0; i < 12; ++i) {
    for (int b : {0x84, 0x01, 0x02, 0x03, 0x04}) arrays.push_back(uint8_t(b));
  }
  reader a(arrays.data(), arrays.size());
  for (int i = 0; i < 6; ++i) ASSERT_EQ(a.next(it), status::ok);  // [1, 2, 3, 4] and its end
  EXPECT_EQ(it.type, item_type::end);
  reader_options c;
  c.max_container_items = 3;
  ASSERT_EQ(a.set_options(c), status::ok);
  EXPECT_EQ(a.next(it), status::container_too_large);
  EXPECT_EQ(a.error().offset, 5u);
}

}  // namespace
}  // namespace cbor_fast

namespace cbor_fast {
namespace {

TEST(Reader, InvalidUtf8AtTopLevelReportsTheStringAsItem) {
  auto in = hex("00 62 c3 28");
  reader_options o;
  o.validate_utf8 = true;
  reader r(in.data(), in.size(), o);
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(r.next(it), status::invalid_utf8);
  EXPECT_EQ(r.error().offset, 2u);
  EXPECT_EQ(r.error().item_offset, 1u);
}

}  // namespace
}  // namespace cbor_fast

namespace cbor_fast {
namespace {

TEST(Reader, DepthIsZeroRightAfterATaggedTopLevelItem) {
  auto in = hex("c1 c2 00 01");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(r.depth(), 1u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(r.depth(), 2u);
  ASSERT_EQ(r.next(it), status::ok);  // the content closes both tags
  EXPECT_EQ(r.depth(), 0u);
  EXPECT_FALSE(r.at_end());
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_TRUE(r.at_end());
  EXPECT_EQ(r.skip(), status::end);
}

}  // namespace
}  // namespace cbor_fast

namespace cbor_fast {
namespace {

// next() writes *out only when it returns ok: its general path fills an item
// of its own, so the caller's item never has its address taken (and a loop
// keeps it in registers). Each row reads its input to the failing call, each
// call with a marked item, and checks that the failing call and the one after
// it leave the mark untouched: alone (past the inline path's bound, within
// the last 8 bytes) and after 20 items; a failure that does not depend on the
// end of input also with 16 more bytes after it (before the bound, where
// next()'s inline half looks first).
TEST(Reader, NextWritesTheItemOnlyOnOk) {
  struct row {
    const char* name;
    const char* input;
    bool utf8;
    bool streaming;
    uint32_t max_depth;  // 0: the default
    status want;
    bool tail;  // the failure is the same with bytes after it
  };
  const row rows[] = {
      {"end of input", "", false, false, 0, status::end, false},
      {"truncated argument", "19 01", false, false, 0, status::truncated, false},
      {"reserved additional info 28", "1c", false, false, 0, status::reserved_additional_info,
       true},
      {"break at the top level", "ff", false, false, 0, status::unexpected_break, true},
      {"string longer than the input", "63 61 62", false, false, 0, status::truncated, false},
      {"need_more inside a head", "19 01", false, true, 0, status::need_more, false},
      {"need_more inside a string", "63 61 62", false, true, 0, status::need_more, false},
      {"invalid UTF-8", "62 c3 28", true, false, 0, status::invalid_utf8, true},
      {"deeper than max_depth", "81 81 00", false, false, 1, status::depth_exceeded, true},
  };
  for (const row& w : rows) {
    for (const int shape : {0, 1, 2}) {  // alone, after 20 items, and 16 bytes before the end
      if (shape == 2 && !w.tail) continue;
      const bool padded = shape != 0;
      SCOPED_TRACE(std::string(w.name) + (shape == 1   ? ", after 20 items"
                                          : shape == 2 ? ", after 20 items, 16 bytes after"
                                                       : ""));
      std::vector<uint8_t> in = hex(w.input);
      if (padded) in.insert(in.begin(), 20, 0x00);
      if (shape == 2) in.insert(in.end(), 16, 0x00);
      reader_options o;
      o.validate_utf8 = w.utf8;
      o.streaming = w.streaming;
      o.max_depth = w.max_depth;
      reader r(in.data(), in.size(), o);
      item mark;
      mark.type = item_type::text_string;
      mark.flags = 1;
      mark.head_size = 5;
      mark.width = 4;
      mark.depth = 77;
      mark.offset = 1234;
      mark.arg = 5678;
      mark.u.data = in.data();
      const auto expect_marked = [&](const item& got) {
        EXPECT_EQ(got.type, item_type::text_string);
        EXPECT_EQ(got.flags, 1);
        EXPECT_EQ(got.head_size, 5);
        EXPECT_EQ(got.width, 4);
        EXPECT_EQ(got.depth, 77u);
        EXPECT_EQ(got.offset, 1234u);
        EXPECT_EQ(got.arg, 5678u);
        EXPECT_EQ(got.u.data, in.data());
      };
      // Every call gets a marked item: the failing call leaves it as it was,
      // and so does the call after it (the sticky error, or need_more again).
      status s = status::ok;
      size_t taken = 0;
      item got = mark;
      while ((s = r.next(got)) == status::ok) {
        ++taken;
        got = mark;
      }
      ASSERT_EQ(s, w.want);
      expect_marked(got);
      item again = mark;
      EXPECT_EQ(r.next(again), w.want);
      expect_marked(again);
      EXPECT_GE(taken, padded ? 20u : 0u);
    }
  }
}

}  // namespace
}  // namespace cbor_fast
