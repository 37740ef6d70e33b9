// Every proper prefix of a well-formed item is "too little data" (RFC 8949
// Appendix F, kind 2). For a set of valid items covering every major type,
// every head size, nesting, indefinite lengths and tags, each prefix of
// length 1..n-1 must end in status truncated (never ok-then-end, never a
// crash: the prefixes sit in exact-size heap buffers so ASan sees overreads)
// through next(), skip() and diag_next(); the empty prefix is just end.
//
// The offset is pinned down exactly: truncation is always found while
// reading the item that starts where the last delivered item ended (its head
// or string is short, its definite count cannot fit in the bytes left, or
// no byte is left where it should start), so error().offset equals the
// position just past the last item delivered, which is at most the prefix
// length. skip() and diag_next() must report the same offset.

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/test_util.hpp"

namespace {

using namespace cbor_fast_test;
using cbor_fast::reader;

struct valid_item {
  std::string name;
  std::string hex;
};

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::vector<valid_item> items() {
  std::string pairs24;  // keys 0..23, values null
  for (int k = 0; k < 24; ++k) {
    const char h[] = "0123456789abcdef";
    pairs24 += h[k >> 4];
    pairs24 += h[k & 15];
    pairs24 += "f6";
  }
  return {
      // major type 0, heads of 1, 2, 3, 5 and 9 bytes
      {"uint_23", "17"},
      {"uint_24", "1818"},
      {"uint_256", "190100"},
      {"uint_65536", "1a00010000"},
      {"uint_2_32", "1b0000000100000000"},
      {"uint_max", "1bffffffffffffffff"},
      // major type 1
      {"nint_1", "20"},
      {"nint_25", "3818"},
      {"nint_65536", "39ffff"},
      {"nint_2_31", "3a7fffffff"},
      {"nint_min", "3bffffffffffffffff"},
      // major type 2
      {"bytes_empty", "40"},
      {"bytes_4", "4401020304"},
      {"bytes_24", "5818" + repeat("ab", 24)},
      {"bytes_256", "590100" + repeat("cd", 256)},
      {"bytes_5_len32", "5a00000005" + repeat("01", 5)},
      {"bytes_3_len64", "5b0000000000000003" + repeat("02", 3)},
      // major type 3
      {"text_empty", "60"},
      {"text_ietf", "6449455446"},
      {"text_24", "7818" + repeat("61", 24)},
      {"text_4_byte_char", "64f0908591"},
      {"text_300", "79012c" + repeat("7a", 300)},
      // major type 4
      {"array_empty", "80"},
      {"array_123", "83010203"},
      {"array_nested", "8301820203820405"},
      {"array_25", "98190102030405060708090a0b0c0d0e0f101112131415161718181819"},
      {"array_deep", "8181818100"},
      // major type 5
      {"map_empty", "a0"},
      {"map_int", "a201020304"},
      {"map_text_keys", "a26161016162820203"},
      {"map_24_pairs", "b818" + pairs24},
      {"map_containers", "a28080a0a0"},  // {[]: [], {}: {}}
      // indefinite lengths
      {"indef_bytes", "5f42010243030405ff"},
      {"indef_text", "7f657374726561646d696e67ff"},
      {"indef_bytes_no_chunks", "5fff"},
      {"indef_array_empty", "9fff"},
      {"indef_array_nested", "9f018202039f0405ffff"},
      {"indef_map", "bf61610161629f0203ffff"},
      {"indef_map_fun", "bf6346756ef563416d7421ff"},
      {"indef_in_definite", "83019f0203ff820405"},
      // major type 6, tag heads of 1, 2, 3, 5 and 9 bytes
      {"tag0_date", "c074323031332d30332d32315432303a30343a30305a"},
      {"tag1_float", "c1fb41d452d9ec200000"},
      {"tag24", "d818456449455446"},
      {"tag55799_array", "d9d9f783010203"},
      {"tag_len32", "dafffffff000"},
      {"tag_len64", "db000000010000000000"},
      {"bignum", "c249010000000000000000"},
      {"nested_tags", "c1c2c3f6"},
      // major type 7
      {"false", "f4"},
      {"simple_255", "f8ff"},
      {"half", "f93c00"},
      {"single", "fa47c35000"},
      {"double", "fb3ff199999999999a"},
      // everything at once
      // [{"a": [_ 1(NaN), (_ h'00')]}, null]
      {"mixed", "82a161619fc1f97e005f4100fffff6"},
  };
}

void PrintTo(const valid_item& r, std::ostream* os) { *os << r.name; }

class truncation : public ::testing::TestWithParam<valid_item> {};

TEST_P(truncation, whole_item_is_well_formed) {
  const exact_buffer in(from_hex(GetParam().hex));
  reader rd(in.data(), in.size());
  const read_log log = read_all(rd, in.data(), in.size(), false);
  ASSERT_STATUS(log.last, status::end);
  EXPECT_TRUE(log.balanced);
  EXPECT_EQ(log.cursor, in.size());
  reader rs(in.data(), in.size());
  EXPECT_STATUS(rs.skip(), status::ok);
  EXPECT_STATUS(rs.skip(), status::end);
  reader rdg(in.data(), in.size());
  std::string out;
  EXPECT_STATUS(cbor_fast::diag_next(rdg, out), status::ok);
  EXPECT_STATUS(cbor_fast::diag_next(rdg, out), status::end);
}

TEST_P(truncation, every_prefix_is_truncated) {
  const bytes full = from_hex(GetParam().hex);
  ASSERT_FALSE(full.empty());
  for (size_t len = 0; len < full.size(); ++len) {
    SCOPED_TRACE("prefix length " + std::to_string(len));
    const exact_buffer in(full.data(), len);

    reader rd(in.data(), in.size());
    const read_log log = read_all(rd, in.data(), in.size(), false);
    if (len == 0) {
      EXPECT_STATUS(log.last, status::end);
      EXPECT_EQ(log.items, 0u);
      EXPECT_TRUE(rd.at_end());
      EXPECT_STATUS(rd.finish(), status::ok);
    } else {
      EXPECT_STATUS(log.last, status::truncated);
      EXPECT_STATUS(log.error.code, status::truncated);
      EXPECT_LE(log.error.offset, len);
      EXPECT_EQ(log.error.offset, log.cursor);
      item it;
      EXPECT_STATUS(rd.next(it), status::truncated);  // sticky, never end
      EXPECT_STATUS(rd.finish(), status::truncated);
    }

    reader rs(in.data(), in.size());
    const status skipped = rs.skip();
    if (len == 0) {
      EXPECT_STATUS(skipped, status::end);
    } else {
      EXPECT_STATUS(skipped, status::truncated);
      EXPECT_EQ(rs.error().offset, log.error.offset);
    }

    reader rdg(in.data(), in.size());
    std::string out;
    const status printed = cbor_fast::diag_next(rdg, out);
    if (len == 0) {
      EXPECT_STATUS(printed, status::end);
      EXPECT_EQ(out, "");
    } else {
      EXPECT_STATUS(printed, status::truncated);
      EXPECT_EQ(rdg.error().offset, log.error.offset);
    }
    if (::testing::Test::HasFailure()) break;  // one failing prefix says enough
  }
}

std::string item_name(const ::testing::TestParamInfo<valid_item>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(prefixes, truncation, ::testing::ValuesIn(items()), item_name);

TEST(truncation_sequence, a_cut_second_item_after_a_complete_one) {
  // [1, 2] then the first 3 bytes of 1(1363896240): the first item arrives,
  // then the cut head of the second (at offset 4) is truncated.
  const exact_buffer in(from_hex("820102 c11a514b"));
  reader rd(in.data(), in.size());
  const read_log log = read_all(rd, in.data(), in.size());
  EXPECT_EQ(log.trace, "[2 1 2 ] tag1");
  EXPECT_STATUS(log.last, status::truncated);
  EXPECT_EQ(log.error.offset, 4u);
}

}  // namespace
