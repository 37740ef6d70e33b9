// Immutable documents: decode, navigation, getters, encode (as read and
// preferred), limits, malformed input (same status and offsets as the
// reader), both decoder paths, the corpus and deep nesting. Mutable
// documents, sequences and allocation failure: document_mutable_test.cpp.
#include "cbor_fast/document.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "document/decode.hpp"
#include "unit/document_test_util.hpp"
#include "corpus.hpp"

namespace cbor_fast {
namespace {

using namespace doc_test;

status decode_hex(const char* h, document& d, uint32_t flags = decode_none, error_info* e = nullptr,
                  bytes* keep = nullptr) {
  static thread_local bytes storage;
  bytes& b = keep != nullptr ? *keep : storage;
  b = hex(h);
  decode_options o;
  o.flags = flags;
  return decode(b.data(), b.size(), d, o, e);
}

// ---- scalars ---------------------------------------------------------------------

struct scalar_row {
  const char* name;
  const char* cbor;
  item_type type;
  uint64_t arg;  // integers, simple values, tags, float bits
};

TEST(DocumentScalars, DecodeTypeValueOffsetAndRoundTrip) {
  const scalar_row rows[] = {
      {"uint 0", "00", item_type::unsigned_int, 0},
      {"uint 23 (last immediate)", "17", item_type::unsigned_int, 23},
      {"uint 24 (first 1-byte)", "1818", item_type::unsigned_int, 24},
      {"uint 255", "18ff", item_type::unsigned_int, 255},
      {"uint 256 (first 2-byte)", "190100", item_type::unsigned_int, 256},
      {"uint 65535", "19ffff", item_type::unsigned_int, 65535},
      {"uint 65536 (first 4-byte)", "1a00010000", item_type::unsigned_int, 65536},
      {"uint 2^32-1", "1affffffff", item_type::unsigned_int, 0xffffffffu},
      {"uint 2^32 (first 8-byte)", "1b0000000100000000", item_type::unsigned_int, 0x100000000ull},
      {"uint 2^64-1", "1bffffffffffffffff", item_type::unsigned_int, UINT64_MAX},
      {"neg -1", "20", item_type::negative_int, 0},
      {"neg -24", "37", item_type::negative_int, 23},
      {"neg -25", "3818", item_type::negative_int, 24},
      {"neg -2^64", "3bffffffffffffffff", item_type::negative_int, UINT64_MAX},
      {"simple 0", "e0", item_type::simple, 0},
      {"simple 19", "f3", item_type::simple, 19},
      {"false", "f4", item_type::boolean, 20},
      {"true", "f5", item_type::boolean, 21},
      {"null", "f6", item_type::null, 22},
      {"undefined", "f7", item_type::undefined, 23},
      {"simple 32 (first two-byte)", "f820", item_type::simple, 32},
      {"simple 255", "f8ff", item_type::simple, 255},
      {"half 1.0", "f93c00", item_type::floating, 0x3c00},
      {"half -0.0", "f98000", item_type::floating, 0x8000},
      {"half NaN payload", "f97e01", item_type::floating, 0x7e01},
      {"single 100000.0", "fa47c35000", item_type::floating, 0x47c35000},
      {"single signalling NaN", "fa7f800001", item_type::floating, 0x7f800001},
      {"double 1.1", "fb3ff199999999999a", item_type::floating, 0x3ff199999999999aull},
      {"double -inf", "fbfff0000000000000", item_type::floating, 0xfff0000000000000ull},
  };
  for (const scalar_row& r : rows) {
    SCOPED_TRACE(r.name);
    document d;
    ASSERT_EQ(decode_hex(r.cbor, d), status::ok);
    const node n = d.root();
    EXPECT_EQ(n.type(), r.type);
    EXPECT_EQ(n.offset(), 0u);
    EXPECT_FALSE(n.is_indefinite());
    EXPECT_EQ(d.node_count(), 1u);
    EXPECT_EQ(d.encoded_size(), hex(r.cbor).size());
    EXPECT_FALSE(n.next_sibling());
    EXPECT_FALSE(n.first_child());
    uint64_t u = 0;
    bool neg = false;
    uint8_t simple = 0;
    switch (r.type) {
      case item_type::unsigned_int:
      case item_type::negative_int:
        EXPECT_EQ(n.get_int_raw(u, neg), status::ok);
        EXPECT_EQ(u, r.arg);
        EXPECT_EQ(neg, r.type == item_type::negative_int);
        break;
      case item_type::floating: {
        EXPECT_EQ(n.get_float_bits(u), status::ok);
        EXPECT_EQ(u, r.arg);
        EXPECT_EQ(int(n.width()), int(hex(r.cbor).size() - 1));
        double v = 0;
        EXPECT_EQ(n.get_double(v), status::ok);
        break;
      }
      default:
        EXPECT_EQ(n.get_simple(simple), status::ok);
        EXPECT_EQ(simple, r.arg);
        break;
    }
    EXPECT_EQ(encode_hex(d), norm(r.cbor));
  }
}

TEST(DocumentScalars, FloatValuesAreExactWidenings) {
  struct row {
    const char* cbor;
    double value;
  } rows[] = {
      {"f93c00", 1.0},
      {"f97bff", 65504.0},
      {"f90001", std::ldexp(1.0, -24)},  // smallest half subnormal
      {"fa47c35000", 100000.0},
      {"fa3fc00000", 1.5},
      {"fb3ff199999999999a", 1.1},
      {"f97c00", HUGE_VAL},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.cbor);
    document d;
    ASSERT_EQ(decode_hex(r.cbor, d), status::ok);
    double v = 0;
    ASSERT_EQ(d.root().get_double(v), status::ok);
    EXPECT_EQ(v, r.value);
  }
  // NaN keeps its payload bits and width on re-encoding, and the sign of zero.
  document d;
  ASSERT_EQ(decode_hex("f97e01", d), status::ok);
  double v = 0;
  ASSERT_EQ(d.root().get_double(v), status::ok);
  EXPECT_TRUE(std::isnan(v));
  EXPECT_EQ(encode_hex(d), "f97e01");
  ASSERT_EQ(decode_hex("f98000", d), status::ok);
  ASSERT_EQ(d.root().get_double(v), status::ok);
  EXPECT_TRUE(std::signbit(v));
}

TEST(DocumentScalars, PreferredEncodingShortensFloats) {
  struct row {
    const char* in;
    const char* preferred;
  } rows[] = {
      {"fb3ff0000000000000", "f93c00"},              // 1.0 as double -> half
      {"fa3fc00000", "f93e00"},                      // 1.5 as single -> half
      {"fb40f86a0000000000", "fa47c35000"},          // 100000.0 -> single
      {"fb3ff199999999999a", "fb3ff199999999999a"},  // 1.1 stays double
      {"fa7fc00000", "f97e00"},                      // quiet NaN -> half
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.in);
    document d;
    ASSERT_EQ(decode_hex(r.in, d), status::ok);
    EXPECT_EQ(encode_hex(d), norm(r.in));
    EXPECT_EQ(encode_hex(d, encode_preferred), norm(r.preferred));
  }
}

TEST(DocumentScalars, Strings) {
  document d;
  bytes in;
  ASSERT_EQ(decode_hex("6449455446", d, decode_none, nullptr, &in), status::ok);
  std::string_view t;
  ASSERT_EQ(d.root().get_text(t), status::ok);
  EXPECT_EQ(t, "IETF");
  EXPECT_EQ(t.data(), reinterpret_cast<const char*>(in.data() + 1));  // a view into the input
  byte_view b;
  EXPECT_EQ(d.root().get_bytes(b), status::type_mismatch);

  ASSERT_EQ(decode_hex("4401020304", d), status::ok);
  ASSERT_EQ(d.root().get_bytes(b), status::ok);
  EXPECT_EQ(to_hex(b.data, b.size), "01020304");
  EXPECT_EQ(d.root().get_text(t), status::type_mismatch);

  ASSERT_EQ(decode_hex("60", d), status::ok);
  ASSERT_EQ(d.root().get_text(t), status::ok);
  EXPECT_EQ(t.size(), 0u);
  ASSERT_EQ(decode_hex("40", d), status::ok);
  ASSERT_EQ(d.root().get_bytes(b), status::ok);
  EXPECT_EQ(b.size, 0u);
  EXPECT_EQ(encode_hex(d), "40");
}

TEST(DocumentScalars, CopyStringsOwnsTheContent) {
  bytes in = hex("82 6449455446 43010203");
  document d;
  decode_options o;
  o.flags = decode_copy_strings;
  ASSERT_EQ(decode(in.data(), in.size(), d, o), status::ok);
  std::memset(in.data(), 0, in.size());  // the document must not look at the input again
  in.clear();
  in.shrink_to_fit();
  std::string_view t;
  ASSERT_EQ(d.root().at(0).get_text(t), status::ok);
  EXPECT_EQ(t, "IETF");
  byte_view b;
  ASSERT_EQ(d.root().at(1).get_bytes(b), status::ok);
  EXPECT_EQ(to_hex(b.data, b.size), "010203");
  EXPECT_EQ(d.root().at(1).offset(), 6u);
  EXPECT_EQ(encode_hex(d), "82644945544643010203");
}

// ---- integer getters: ranges and mismatches ---------------------------------------

TEST(DocumentGetters, Int64Boundaries) {
  struct row {
    const char* name;
    const char* cbor;
    status int64_status;
    int64_t int64_value;
    status uint64_status;
    uint64_t uint64_value;
  } rows[] = {
      {"0", "00", status::ok, 0, status::ok, 0},
      {"INT64_MAX", "1b7fffffffffffffff", status::ok, INT64_MAX, status::ok, uint64_t(INT64_MAX)},
      {"INT64_MAX + 1", "1b8000000000000000", status::out_of_range, 0, status::ok,
       uint64_t(1) << 63},
      {"2^64 - 1", "1bffffffffffffffff", status::out_of_range, 0, status::ok, UINT64_MAX},
      {"-1", "20", status::ok, -1, status::type_mismatch, 0},
      {"INT64_MIN", "3b7fffffffffffffff", status::ok, INT64_MIN, status::type_mismatch, 0},
      {"INT64_MIN - 1", "3b8000000000000000", status::out_of_range, 0, status::type_mismatch, 0},
      {"-2^64", "3bffffffffffffffff", status::out_of_range, 0, status::type_mismatch, 0},
      {"text", "6161", status::type_mismatch, 0, status::type_mismatch, 0},
      {"float", "f93c00", status::type_mismatch, 0, status::type_mismatch, 0},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.name);
    document d;
    ASSERT_EQ(decode_hex(r.cbor, d), status::ok);
    int64_t i = 12345;
    EXPECT_EQ(d.root().get_int64(i), r.int64_status);
    EXPECT_EQ(i, r.int64_status == status::ok ? r.int64_value : 12345);  // untouched on failure
    uint64_t u = 777;
    EXPECT_EQ(d.root().get_uint64(u), r.uint64_status);
    EXPECT_EQ(u, r.uint64_status == status::ok ? r.uint64_value : 777u);
  }
}

TEST(DocumentGetters, IntRawAndBignum) {
  document d;
  uint64_t raw = 1;
  bool neg = false;
  byte_view mag{reinterpret_cast<const uint8_t*>("x"), 1};
  ASSERT_EQ(decode_hex("3bffffffffffffffff", d), status::ok);
  ASSERT_EQ(d.root().get_int_raw(raw, neg), status::ok);
  EXPECT_EQ(raw, UINT64_MAX);
  EXPECT_TRUE(neg);
  ASSERT_EQ(d.root().get_bignum(raw, mag, neg), status::ok);
  EXPECT_EQ(raw, UINT64_MAX);
  EXPECT_EQ(mag.data, nullptr);
  EXPECT_TRUE(neg);

  // 2^64 as tag 2, -2^64 - 1 as tag 3 (RFC 8949 Appendix A).
  ASSERT_EQ(decode_hex("c249010000000000000000", d), status::ok);
  ASSERT_EQ(d.root().get_bignum(raw, mag, neg), status::ok);
  EXPECT_EQ(raw, 0u);
  EXPECT_FALSE(neg);
  EXPECT_EQ(to_hex(mag.data, mag.size), "010000000000000000");
  EXPECT_EQ(d.root().get_int_raw(raw, neg), status::type_mismatch);
  ASSERT_EQ(decode_hex("c349010000000000000000", d), status::ok);
  ASSERT_EQ(d.root().get_bignum(raw, mag, neg), status::ok);
  EXPECT_TRUE(neg);
  // Other tags, or tag 2 over something else, are not bignums.
  ASSERT_EQ(decode_hex("c14101", d), status::ok);
  EXPECT_EQ(d.root().get_bignum(raw, mag, neg), status::type_mismatch);
  ASSERT_EQ(decode_hex("c201", d), status::ok);
  EXPECT_EQ(d.root().get_bignum(raw, mag, neg), status::type_mismatch);
  ASSERT_EQ(decode_hex("f5", d), status::ok);
  EXPECT_EQ(d.root().get_bignum(raw, mag, neg), status::type_mismatch);
}

TEST(DocumentGetters, EveryGetterOnTheWrongTypeAndOnANullNode) {
  document d;
  ASSERT_EQ(decode_hex("80", d), status::ok);  // []: nothing scalar matches
  const node n = d.root();
  uint64_t u = 9;
  int64_t i = 9;
  bool b = true;
  uint8_t s = 9;
  double f = 9;
  byte_view bv;
  std::string_view sv;
  bool neg = true;
  EXPECT_EQ(n.get_uint64(u), status::type_mismatch);
  EXPECT_EQ(n.get_int64(i), status::type_mismatch);
  EXPECT_EQ(n.get_int_raw(u, neg), status::type_mismatch);
  EXPECT_EQ(n.get_bignum(u, bv, neg), status::type_mismatch);
  EXPECT_EQ(n.get_double(f), status::type_mismatch);
  EXPECT_EQ(n.get_float_bits(u), status::type_mismatch);
  EXPECT_EQ(n.get_bool(b), status::type_mismatch);
  EXPECT_EQ(n.get_simple(s), status::type_mismatch);
  EXPECT_EQ(n.get_bytes(bv), status::type_mismatch);
  EXPECT_EQ(n.get_text(sv), status::type_mismatch);
  EXPECT_EQ(n.get_tag(u), status::type_mismatch);
  EXPECT_EQ(u, 9u);
  EXPECT_EQ(i, 9);
  EXPECT_EQ(s, 9);
  EXPECT_EQ(f, 9.0);
  EXPECT_TRUE(b);
  EXPECT_EQ(n.width(), float_width::shortest);
  EXPECT_FALSE(n.tag_content());

  const node none;
  EXPECT_EQ(none.type(), item_type::none);
  EXPECT_EQ(none.offset(), 0u);
  EXPECT_FALSE(none.is_indefinite());
  EXPECT_EQ(none.get_uint64(u), status::invalid_argument);
  EXPECT_EQ(none.get_int64(i), status::invalid_argument);
  EXPECT_EQ(none.get_int_raw(u, neg), status::invalid_argument);
  EXPECT_EQ(none.get_bignum(u, bv, neg), status::invalid_argument);
  EXPECT_EQ(none.get_double(f), status::invalid_argument);
  EXPECT_EQ(none.get_float_bits(u), status::invalid_argument);
  EXPECT_EQ(none.get_bool(b), status::invalid_argument);
  EXPECT_EQ(none.get_simple(s), status::invalid_argument);
  EXPECT_EQ(none.get_bytes(bv), status::invalid_argument);
  EXPECT_EQ(none.get_text(sv), status::invalid_argument);
  EXPECT_EQ(none.get_tag(u), status::invalid_argument);
  EXPECT_EQ(none.size(), 0u);
  EXPECT_FALSE(none.at(0));
  EXPECT_FALSE(none.map_key(0));
  EXPECT_FALSE(none.map_value(0));
  EXPECT_FALSE(none.find("a"));
  EXPECT_FALSE(none.find_int(1));
  EXPECT_FALSE(none.first_child());
  EXPECT_FALSE(none.next_sibling());
  EXPECT_FALSE(none.tag_content());
  EXPECT_EQ(none.width(), float_width::shortest);
  writer w;
  EXPECT_EQ(encode(none, w), status::invalid_argument);
}

TEST(DocumentGetters, BoolAndSimple) {
  document d;
  bool b = false;
  uint8_t s = 0;
  ASSERT_EQ(decode_hex("f5", d), status::ok);
  ASSERT_EQ(d.root().get_bool(b), status::ok);
  EXPECT_TRUE(b);
  ASSERT_EQ(decode_hex("f4", d), status::ok);
  ASSERT_EQ(d.root().get_bool(b), status::ok);
  EXPECT_FALSE(b);
  ASSERT_EQ(decode_hex("f6", d), status::ok);
  EXPECT_EQ(d.root().get_bool(b), status::type_mismatch);
  ASSERT_EQ(d.root().get_simple(s), status::ok);
  EXPECT_EQ(s, 22);
  ASSERT_EQ(decode_hex("f7", d), status::ok);
  ASSERT_EQ(d.root().get_simple(s), status::ok);
  EXPECT_EQ(s, 23);
}

// ---- containers and navigation -----------------------------------------------------

TEST(DocumentNavigation, ArraysMapsTagsAndSiblings) {
  // [1, [2, 3], {"a": 4, 5: "b", -1: null, "a": 6}, 1("x"), []]
  const char* cbor = "85 01 820203 a4 616104 05 6162 20 f6 616106 c1 6178 80";
  document d;
  ASSERT_EQ(decode_hex(cbor, d), status::ok);
  EXPECT_EQ(d.node_count(), 17u);
  const node root = d.root();
  ASSERT_EQ(root.type(), item_type::array);
  ASSERT_EQ(root.size(), 5u);

  // at() walks siblings by subtree size (this array holds containers).
  uint64_t u = 0;
  ASSERT_EQ(root.at(0).get_uint64(u), status::ok);
  EXPECT_EQ(u, 1u);
  const node inner = root.at(1);
  EXPECT_EQ(inner.type(), item_type::array);
  EXPECT_EQ(inner.offset(), 2u);
  ASSERT_EQ(inner.at(1).get_uint64(u), status::ok);  // flat: direct indexing
  EXPECT_EQ(u, 3u);
  EXPECT_FALSE(inner.at(2));
  const node map = root[2];
  ASSERT_EQ(map.type(), item_type::map);
  EXPECT_EQ(map.offset(), 5u);
  EXPECT_EQ(map.size(), 4u);
  const node tag = root.at(3);
  EXPECT_EQ(tag.type(), item_type::tag);
  ASSERT_EQ(tag.get_tag(u), status::ok);
  EXPECT_EQ(u, 1u);
  std::string_view t;
  ASSERT_EQ(tag.tag_content().get_text(t), status::ok);
  EXPECT_EQ(t, "x");
  EXPECT_EQ(tag.first_child(), tag.tag_content());
  EXPECT_FALSE(tag.tag_content().next_sibling());
  const node empty = root.at(4);
  EXPECT_EQ(empty.type(), item_type::array);
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_FALSE(empty.first_child());
  EXPECT_FALSE(empty.at(0));
  EXPECT_FALSE(root.at(5));
  EXPECT_FALSE(root.map_key(0));  // not a map
  EXPECT_FALSE(map.at(0));        // not an array

  // Map access by index, text key (first match wins) and integer key.
  ASSERT_EQ(map.map_key(1).get_uint64(u), status::ok);
  EXPECT_EQ(u, 5u);
  ASSERT_EQ(map.map_value(1).get_text(t), status::ok);
  EXPECT_EQ(t, "b");
  EXPECT_FALSE(map.map_key(4));
  EXPECT_FALSE(map.map_value(4));
  ASSERT_EQ(map.find("a").get_uint64(u), status::ok);
  EXPECT_EQ(u, 4u);
  EXPECT_FALSE(map.find("z"));
  EXPECT_FALSE(map.find(""));
  EXPECT_FALSE(map.find_int(4));
  ASSERT_EQ(map.find_int(5).get_text(t), status::ok);
  EXPECT_EQ(t, "b");
  EXPECT_EQ(map.find_int(-1).type(), item_type::null);
  EXPECT_FALSE(map.find_int(-2));
  EXPECT_FALSE(root.find("a"));

  // Sibling walk: children of the root, then of the map (key, value, ...).
  std::vector<item_type> seen;
  for (node c : root.children()) seen.push_back(c.type());
  EXPECT_EQ(seen, (std::vector<item_type>{item_type::unsigned_int, item_type::array, item_type::map,
                                          item_type::tag, item_type::array}));
  size_t map_children = 0;
  for (node c = map.first_child(); c; c = c.next_sibling()) ++map_children;
  EXPECT_EQ(map_children, 8u);
  EXPECT_FALSE(root.next_sibling());
  EXPECT_EQ(encode_hex(d), norm(cbor));
}

TEST(DocumentNavigation, NestedArraysIndexBySubtreeWalk) {
  // [[1], [[2]], 3, [4, [5, 6]]]: items of several sizes in one array.
  document d;
  ASSERT_EQ(decode_hex("84 8101 818102 03 82 04 820506", d), status::ok);
  uint64_t u = 0;
  ASSERT_EQ(d.root().at(2).get_uint64(u), status::ok);
  EXPECT_EQ(u, 3u);
  ASSERT_EQ(d.root().at(3).at(1).at(1).get_uint64(u), status::ok);
  EXPECT_EQ(u, 6u);
  ASSERT_EQ(d.root().at(1).at(0).at(0).get_uint64(u), status::ok);
  EXPECT_EQ(u, 2u);
  EXPECT_EQ(d.root().at(3).offset(), 7u);
  // Map keys that are containers: lookups skip them.
  ASSERT_EQ(decode_hex("a2 8101 02 6161 03", d), status::ok);
  ASSERT_EQ(d.root().find("a").get_uint64(u), status::ok);
  EXPECT_EQ(u, 3u);
  EXPECT_EQ(d.root().map_key(1).offset(), 4u);
}

// ---- indefinite lengths ------------------------------------------------------------

TEST(DocumentIndefinite, StringsJoinAndKeepTheirChunks) {
  struct row {
    const char* name;
    const char* cbor;
    item_type type;
    const char* joined_hex;
    const char* preferred;
  } rows[] = {
      {"bytes, two chunks", "5f 420102 43030405 ff", item_type::byte_string, "0102030405",
       "450102030405"},
      {"bytes, no chunks", "5f ff", item_type::byte_string, "", "40"},
      {"text with an empty chunk", "7f 6161 60 626263 ff", item_type::text_string, "616263",
       "63616263"},
      {"text, one chunk", "7f 6449455446 ff", item_type::text_string, "49455446", "6449455446"},
  };
  for (const row& r : rows) {
    for (uint32_t flags : {uint32_t(decode_none), uint32_t(decode_copy_strings)}) {
      SCOPED_TRACE(std::string(r.name) + (flags != 0 ? " (copy)" : ""));
      document d;
      ASSERT_EQ(decode_hex(r.cbor, d, flags), status::ok);
      const node n = d.root();
      EXPECT_EQ(n.type(), r.type);
      EXPECT_TRUE(n.is_indefinite());
      EXPECT_EQ(n.offset(), 0u);
      EXPECT_EQ(d.node_count(), 1u);  // chunks are not data items
      EXPECT_FALSE(n.first_child());
      byte_view b;
      std::string_view t;
      if (r.type == item_type::byte_string) {
        ASSERT_EQ(n.get_bytes(b), status::ok);
      } else {
        ASSERT_EQ(n.get_text(t), status::ok);
        b = byte_view{reinterpret_cast<const uint8_t*>(t.data()), t.size()};
      }
      EXPECT_EQ(to_hex(b.data, b.size), r.joined_hex);
      EXPECT_EQ(encode_hex(d), norm(r.cbor));
      EXPECT_EQ(encode_hex(d, encode_preferred), norm(r.preferred));
    }
  }
}

TEST(DocumentIndefinite, ContainersRoundTripAndPreferredIsDefinite) {
  struct row {
    const char* cbor;
    const char* preferred;
    size_t size;
  } rows[] = {
      {"9f ff", "80", 0},
      {"9f 01 820203 9f04ff ff", "83 01 820203 8104", 3},
      {"bf 616101 6162 9fff ff", "a2 616101 6162 80", 2},
      {"bf ff", "a0", 0},
      {"83 01 9f 02 03 ff 04", "83 01 820203 04", 3},
      {"a1 7f 6161 6162 ff 9f 5f 41 01 ff ff", "a1 626162 81 4101", 1},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.cbor);
    document d;
    ASSERT_EQ(decode_hex(r.cbor, d), status::ok);
    EXPECT_EQ(d.root().size(), r.size);
    EXPECT_EQ(encode_hex(d), norm(r.cbor));
    EXPECT_EQ(encode_hex(d, encode_preferred), norm(r.preferred));
  }
  // Lookups see joined keys and indefinite maps; offsets point at heads.
  document d;
  ASSERT_EQ(decode_hex("bf 7f 6161 6162 ff 05 6163 9f 07 ff ff", d), status::ok);
  uint64_t u = 0;
  ASSERT_EQ(d.root().find("ab").get_uint64(u), status::ok);
  EXPECT_EQ(u, 5u);
  EXPECT_EQ(d.root().map_key(0).offset(), 1u);
  EXPECT_EQ(d.root().map_value(0).offset(), 7u);
  EXPECT_EQ(d.root().map_key(1).offset(), 8u);
  ASSERT_EQ(d.root().find("c").at(0).get_uint64(u), status::ok);
  EXPECT_EQ(u, 7u);
  EXPECT_EQ(d.root().find("c").offset(), 10u);
  EXPECT_TRUE(d.root().find("c").is_indefinite());
  EXPECT_FALSE(d.root().find("c").next_sibling());
  EXPECT_EQ(d.node_count(), 6u);
}

// ---- decode options and errors -----------------------------------------------------

TEST(DocumentDecode, EmptyInputIsEnd) {
  document d;
  error_info e;
  EXPECT_EQ(decode(static_cast<const void*>(nullptr), 0, d, {}, &e), status::end);
  EXPECT_EQ(e.code, status::end);
  EXPECT_TRUE(d.empty());
  decode_options o;
  o.flags = decode_exact;
  EXPECT_EQ(decode("", d, o, &e), status::end);
  writer w;
  EXPECT_EQ(encode(d, w), status::invalid_argument);
}

TEST(DocumentDecode, InvalidArguments) {
  document d;
  error_info e;
  EXPECT_EQ(decode(static_cast<const void*>(nullptr), 3, d, {}, &e), status::invalid_argument);
  EXPECT_EQ(e.code, status::invalid_argument);
  decode_options o;
  o.flags = 32;  // the first unused flag bit
  EXPECT_EQ(decode("\x01", d, o), status::invalid_argument);
  writer w;
  ASSERT_EQ(decode_hex("01", d), status::ok);
  EXPECT_EQ(encode(d, w, 16), status::invalid_argument);  // the first unused encode flag (0.4)
  EXPECT_EQ(encode(d, w, encode_canonical | encode_length_first), status::invalid_argument);
}

TEST(DocumentDecode, ExactRejectsTrailingBytes) {
  document d;
  error_info e;
  bytes in = hex("0102");
  decode_options o;
  EXPECT_EQ(decode(in.data(), in.size(), d, o, &e), status::ok);
  EXPECT_EQ(d.encoded_size(), 1u);
  o.flags = decode_exact;
  EXPECT_EQ(decode(in.data(), in.size(), d, o, &e), status::trailing_bytes);
  EXPECT_EQ(e.offset, 1u);
  EXPECT_TRUE(d.empty());
  in = hex("82 01 02 ff");  // also on the reader path (an ff after the item)
  EXPECT_EQ(decode(in.data(), in.size(), d, o, &e), status::trailing_bytes);
  EXPECT_EQ(e.offset, 3u);
  in = hex("9f 01 ff 00");
  EXPECT_EQ(decode(in.data(), in.size(), d, o, &e), status::trailing_bytes);
  EXPECT_EQ(e.offset, 3u);
  in = hex("9f 01 ff");
  EXPECT_EQ(decode(in.data(), in.size(), d, o, &e), status::ok);
  EXPECT_EQ(e.code, status::ok);
}

TEST(DocumentDecode, ValidateUtf8) {
  document d;
  error_info e;
  decode_options o;
  const bytes bad = hex("82 01 62 c328");
  EXPECT_EQ(decode(bad.data(), bad.size(), d, o, &e), status::ok);
  o.flags = decode_validate_utf8;
  EXPECT_EQ(decode(bad.data(), bad.size(), d, o, &e), status::invalid_utf8);
  EXPECT_EQ(e.offset, 3u);
  EXPECT_EQ(e.depth, 1u);
  EXPECT_EQ(e.item_offset, 0u);
  const bytes top = hex("62 c328");  // at the top level: the item still starts at 0
  EXPECT_EQ(decode(top.data(), top.size(), d, o, &e), status::invalid_utf8);
  EXPECT_EQ(e.offset, 1u);
  EXPECT_EQ(e.item_offset, 0u);
  const bytes good = hex("82 01 62 c3bc");
  EXPECT_EQ(decode(good.data(), good.size(), d, o, &e), status::ok);
  const bytes chunk = hex("7f 61 61 62 c328 ff");  // a bad chunk of an indefinite string
  EXPECT_EQ(decode(chunk.data(), chunk.size(), d, o, &e), status::invalid_utf8);
  EXPECT_EQ(e.offset, 4u);
}

TEST(DocumentDecode, MaxDepth) {
  document d;
  error_info e;
  decode_options o;
  o.max_depth = 2;
  EXPECT_EQ(decode_hex("8181", d), status::truncated);
  const bytes two = hex("81 81 01");
  EXPECT_EQ(decode(two.data(), two.size(), d, o, &e), status::ok);
  const bytes three = hex("81 81 81 01");
  EXPECT_EQ(decode(three.data(), three.size(), d, o, &e), status::depth_exceeded);
  EXPECT_EQ(e.offset, 2u);
  const bytes empty_third = hex("81 81 80");  // [] opens a level too
  EXPECT_EQ(decode(empty_third.data(), empty_third.size(), d, o, &e), status::depth_exceeded);
  const bytes tags = hex("c1 c1 c1 01");
  EXPECT_EQ(decode(tags.data(), tags.size(), d, o, &e), status::depth_exceeded);
  EXPECT_EQ(e.offset, 2u);
  o.max_depth = 0;  // 0 means the default, 512
  bytes deep(512, 0x81);
  deep.push_back(0x01);
  EXPECT_EQ(decode(deep.data(), deep.size(), d, o, &e), status::ok);
  deep.insert(deep.begin(), 0x81);
  EXPECT_EQ(decode(deep.data(), deep.size(), d, o, &e), status::depth_exceeded);
  EXPECT_EQ(e.offset, 512u);
}

TEST(DocumentDecode, NodeLimitGivesTooManyItems) {
  document d;
  error_info e;
  decode_options o;
  o.max_nodes = 3;
  const bytes in = hex("83 01 02 03");
  EXPECT_EQ(decode(in.data(), in.size(), d, o, &e), status::too_many_items);
  EXPECT_EQ(e.offset, 3u);
  EXPECT_EQ(e.depth, 1u);
  EXPECT_EQ(e.item_offset, 0u);
  EXPECT_TRUE(d.empty());
  o.max_nodes = 4;
  EXPECT_EQ(decode(in.data(), in.size(), d, o, &e), status::ok);
  // Chunks count against the limit too (they are nodes).
  const bytes chunks = hex("5f 41 01 41 02 ff");
  o.max_nodes = 2;
  EXPECT_EQ(decode(chunks.data(), chunks.size(), d, o, &e), status::too_many_items);
  EXPECT_EQ(e.offset, 3u);
  o.max_nodes = 3;
  EXPECT_EQ(decode(chunks.data(), chunks.size(), d, o, &e), status::ok);
}

TEST(DocumentDecode, DecodingAgainReusesTheDocument) {
  document d;
  ASSERT_EQ(decode_hex("83 01 02 03", d), status::ok);
  ASSERT_EQ(decode_hex("a1 6161 f5", d), status::ok);
  EXPECT_EQ(d.node_count(), 3u);
  bool b = false;
  ASSERT_EQ(d.root().find("a").get_bool(b), status::ok);
  EXPECT_TRUE(b);
  EXPECT_EQ(decode_hex("83 01", d), status::truncated);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d.node_count(), 0u);
  ASSERT_EQ(decode_hex("01", d), status::ok);
  document moved(std::move(d));
  EXPECT_TRUE(d.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  uint64_t u = 0;
  ASSERT_EQ(moved.root().get_uint64(u), status::ok);
  EXPECT_EQ(u, 1u);
  document other;
  other = std::move(moved);
  ASSERT_EQ(other.root().get_uint64(u), status::ok);
  other.clear();
  EXPECT_TRUE(other.empty());
}

/// What a reader reports for the first item of `in` (skip() runs the same checks).
status reader_verdict(const bytes& in, const reader_options& ro, error_info& e) {
  reader r(in.data(), in.size(), ro);
  const status s = r.skip();
  e = r.error();
  return s;
}

TEST(DocumentDecode, MalformedInputGivesTheReadersStatusAndOffsets) {
  const char* rows[] = {
      "18",              // truncated head
      "1b000000",        // truncated 8-byte head
      "62 61",           // truncated string
      "83 01 02",        // missing items
      "8a 01",           // count larger than the input: rejected at the head
      "a3 01 02",        // pair count larger than half the input
      "1c",              // reserved additional information
      "9e",              //
      "1f",              // indefinite uint
      "3f",              //
      "df 01",           // indefinite tag
      "f8 10",           // two-byte simple below 32
      "f8 1f",           //
      "5f 61 61 ff",     // text chunk in a byte string
      "7f 7f ff ff",     // nested indefinite chunk
      "5f 01 ff",        // not a string at all
      "ff",              // break at top level
      "82 01 ff",        // break in a definite array
      "bf 01 ff",        // break where a value is due
      "9f 01",           // open indefinite array at the end
      "c1",              // tag without content
      "5f 41 00",        // open indefinite string
      "82 9f 01 ff ff",  // break after a completed definite array
      "a1 c1 c1",        // nested tags without content
      "fc",              // reserved in major 7
  };
  const reader_options ro;
  for (const char* h : rows) {
    SCOPED_TRACE(h);
    const bytes in = hex(h);
    error_info want;
    const status expected = reader_verdict(in, ro, want);
    ASSERT_TRUE(is_malformed(expected)) << status_name(expected);
    for (auto path : {detail::decode_path::automatic, detail::decode_path::reader_only}) {
      document d;
      error_info got;
      EXPECT_EQ(detail::decode_buffer(in.data(), in.size(), d, {}, &got, path), expected);
      EXPECT_EQ(got.code, want.code);
      EXPECT_EQ(got.offset, want.offset);
      EXPECT_EQ(got.item_offset, want.item_offset);
      EXPECT_EQ(got.depth, want.depth);
      EXPECT_TRUE(d.empty());
    }
  }
}

// ---- the two decoder paths agree -------------------------------------------------

/// Random CBOR: definite and indefinite containers, tags, strings, floats, simple values.
class generator {
 public:
  explicit generator(uint64_t seed) : rng_(seed) {}
  bytes make() {
    bytes out;
    item(out, 0);
    return out;
  }

 private:
  uint64_t pick(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  void head(bytes& out, uint8_t major, uint64_t v) {
    const uint8_t ib = uint8_t(major << 5);
    if (v < 24) {
      out.push_back(uint8_t(ib | v));
    } else if (v <= 0xff) {
      out.push_back(ib | 24);
      out.push_back(uint8_t(v));
    } else if (v <= 0xffff) {
      out.push_back(ib | 25);
      for (int i = 1; i >= 0; --i) out.push_back(uint8_t(v >> (8 * i)));
    } else if (v <= 0xffffffff) {
      out.push_back(ib | 26);
      for (int i = 3; i >= 0; --i) out.push_back(uint8_t(v >> (8 * i)));
    } else {
      out.push_back(ib | 27);
      for (int i = 7; i >= 0; --i) out.push_back(uint8_t(v >> (8 * i)));
    }
  }
  uint64_t number() {
    switch (pick(5)) {
      case 0: return pick(24);
      case 1: return pick(256);
      case 2: return pick(65536);
      case 3: return pick(uint64_t(1) << 32);
      default: return rng_();
    }
  }
  void string(bytes& out, uint8_t major) {
    const uint64_t n = pick(4) == 0 ? pick(40) : pick(6);
    head(out, major, n);
    for (uint64_t i = 0; i < n; ++i)
      out.push_back(major == 3 ? uint8_t('a' + pick(26)) : uint8_t(pick(256)));
  }
  void item(bytes& out, int depth) {
    const uint64_t k = depth > 5 ? pick(7) : pick(12);
    switch (k) {
      case 0: head(out, 0, number()); break;
      case 1: head(out, 1, number()); break;
      case 2: string(out, 2); break;
      case 3: string(out, 3); break;
      case 4: {
        static const uint8_t simple[] = {0xf4, 0xf5, 0xf6, 0xf7, 0xe0, 0xf3};
        out.push_back(simple[pick(6)]);
        if (pick(4) == 0) {
          out.back() = 0xf8;
          out.push_back(uint8_t(32 + pick(224)));
        }
        break;
      }
      case 5: {
        const uint64_t w = pick(3);
        out.push_back(uint8_t(0xf9 + w));
        for (int i = 0; i < (2 << w); ++i) out.push_back(uint8_t(pick(256)));
        break;
      }
      case 6: {  // indefinite string
        const uint8_t major = uint8_t(2 + pick(2));
        out.push_back(uint8_t(major << 5 | 31));
        for (uint64_t i = pick(4); i > 0; --i) string(out, major);
        out.push_back(0xff);
        break;
      }
      case 7:
      case 8: {
        const uint64_t n = pick(5);
        const bool indefinite = pick(3) == 0;
        if (indefinite)
          out.push_back(0x9f);
        else
          head(out, 4, n);
        for (uint64_t i = 0; i < n; ++i) item(out, depth + 1);
        if (indefinite) out.push_back(0xff);
        break;
      }
      case 9:
      case 10: {
        const uint64_t n = pick(4);
        const bool indefinite = pick(3) == 0;
        if (indefinite)
          out.push_back(0xbf);
        else
          head(out, 5, n);
        for (uint64_t i = 0; i < 2 * n; ++i) item(out, depth + 1);
        if (indefinite) out.push_back(0xff);
        break;
      }
      default:
        head(out, 6, number());
        item(out, depth + 1);
        break;
    }
  }
  std::mt19937_64 rng_;
};

/// The whole node array of a document, for exact comparison: every field as
/// stored, except that string nodes show their content (and indefinite ones
/// their offset) instead of pointers, which differ between arenas.
std::string node_bytes(const document& d) {
  if (d.empty()) return {};
  std::string out;
  const detail::doc_node* last = detail::after(d.root().raw());
  for (const detail::doc_node* n = d.root().raw(); n != last; ++n) {
    detail::doc_node copy = *n;
    if (detail::is_string_type(n->type)) {
      out.append(reinterpret_cast<const char*>(n->u.data), size_t(n->arg));
      const bool chunk = (n->flags & detail::flag_chunk) != 0;
      copy.u.offset = chunk ? 0 : detail::node_offset(n);
    }
    out.append(reinterpret_cast<const char*>(&copy), sizeof copy);
  }
  return out;
}

TEST(DocumentDecode, FusedAndReaderPathsAgreeOnRandomAndMutatedInput) {
  generator gen(20260530);
  std::mt19937_64 mutate(7);
  size_t fast_accepted = 0;
  size_t compared = 0;
  for (int round = 0; round < 3000; ++round) {
    bytes in = gen.make();
    if (round % 3 == 1 && !in.empty()) in.resize(size_t(mutate() % in.size()));       // truncate
    if (round % 3 == 2 && !in.empty()) in[mutate() % in.size()] = uint8_t(mutate());  // corrupt
    if (round % 5 == 0) in.push_back(0x00);  // trailing byte
    for (uint32_t flags : {uint32_t(decode_none), uint32_t(decode_exact | decode_validate_utf8),
                           uint32_t(decode_copy_strings)}) {
      SCOPED_TRACE(to_hex(in) + " flags " + std::to_string(flags));
      decode_options o;
      o.flags = flags;
      o.max_depth = round % 7 == 0 ? 3 : 0;
      document a;
      document b;
      error_info ea;
      error_info eb;
      const status sa =
          detail::decode_buffer(in.data(), in.size(), a, o, &ea, detail::decode_path::automatic);
      const status sb =
          detail::decode_buffer(in.data(), in.size(), b, o, &eb, detail::decode_path::reader_only);
      ASSERT_EQ(sa, sb);
      EXPECT_EQ(ea.code, eb.code);
      EXPECT_EQ(ea.offset, eb.offset);
      EXPECT_EQ(ea.item_offset, eb.item_offset);
      EXPECT_EQ(ea.depth, eb.depth);
      ++compared;
      if (sa != status::ok) continue;
      EXPECT_EQ(a.node_count(), b.node_count());
      EXPECT_EQ(a.encoded_size(), b.encoded_size());
      EXPECT_EQ(encode_hex(a), encode_hex(b));
      EXPECT_EQ(encode_hex(a, encode_preferred), encode_hex(b, encode_preferred));
      EXPECT_EQ(node_bytes(a), node_bytes(b));
      document c;
      if (detail::decode_buffer(in.data(), in.size(), c, o, nullptr,
                                detail::decode_path::fast_only) == status::ok) {
        ++fast_accepted;
        EXPECT_EQ(node_bytes(c), node_bytes(b));
      }
      // Without exact, what was decoded is what the reader's skip() covers.
      if ((flags & decode_exact) == 0) {
        reader_options ro;
        ro.max_depth = o.max_depth != 0 ? o.max_depth : 512;
        error_info er;
        reader r(in.data(), in.size(), ro);
        ASSERT_EQ(r.skip(), status::ok);
        EXPECT_EQ(r.offset(), a.encoded_size());
        (void)er;
      }
    }
  }
  EXPECT_EQ(compared, 9000u);
  EXPECT_GT(fast_accepted, 500u);  // the fused path really ran
}

// ---- the corpus ------------------------------------------------------------------------

struct corpus_file {
  const char* name;
  size_t nodes;
};
const corpus_file k_corpus[] = {{"twitter", 27259}, {"citm_catalog", 63647}, {"canada", 167187}};

TEST(DocumentCorpus, RoundTripByteForByteWithNodeCounts) {
  for (const corpus_file& f : k_corpus) {
    SCOPED_TRACE(f.name);
    bytes in;
    ASSERT_TRUE(cbor_fast_test::read_corpus(f.name, in));
    for (auto path : {detail::decode_path::automatic, detail::decode_path::reader_only,
                      detail::decode_path::fast_only}) {
      for (uint32_t flags : {uint32_t(decode_exact), uint32_t(decode_copy_strings)}) {
        document d;
        decode_options o;
        o.flags = flags;
        error_info e;
        ASSERT_EQ(detail::decode_buffer(in.data(), in.size(), d, o, &e, path), status::ok);
        EXPECT_EQ(d.node_count(), f.nodes);
        EXPECT_EQ(d.encoded_size(), in.size());
        writer w;
        ASSERT_EQ(encode(d, w), status::ok);
        ASSERT_EQ(w.size(), in.size());
        EXPECT_EQ(std::memcmp(w.data(), in.data(), in.size()), 0);
      }
    }
    // Preferred re-encoding decodes to the same number of items; the deep
    // copy encodes (preferred, widths kept) to the input again.
    document d;
    ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
    writer w;
    ASSERT_EQ(encode(d, w, encode_preferred), status::ok);
    document again;
    ASSERT_EQ(decode(w.data(), w.size(), again), status::ok);
    EXPECT_EQ(again.node_count(), f.nodes);
    mutable_document m;
    ASSERT_EQ(to_mutable(d, m), status::ok);
    writer wm;
    ASSERT_EQ(encode(m, wm), status::ok);
    ASSERT_EQ(wm.size(), in.size());
    EXPECT_EQ(std::memcmp(wm.data(), in.data(), in.size()), 0);
  }
}

TEST(DocumentCorpus, KnownValues) {
  // Values and offsets read with an independent decoder (a few lines of Python).
  bytes in;
  document d;
  uint64_t u = 0;
  std::string_view t;
  double v = 0;

  ASSERT_TRUE(cbor_fast_test::read_corpus("twitter", in));
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  const node statuses = d.root().find("statuses");
  ASSERT_EQ(statuses.size(), 100u);
  const node id = statuses.at(0).find("id");
  ASSERT_EQ(id.get_uint64(u), status::ok);
  EXPECT_EQ(u, 505874924095815681u);
  EXPECT_EQ(id.offset(), 109u);
  const node screen = statuses.at(0).find("user").find("screen_name");
  ASSERT_EQ(screen.get_text(t), status::ok);
  EXPECT_EQ(t, "ayuu0123");
  EXPECT_EQ(screen.offset(), 815u);
  EXPECT_EQ(statuses.at(0).find("entities").find("hashtags").size(), 0u);
  const node count = d.root().find("search_metadata").find("count");
  ASSERT_EQ(count.get_uint64(u), status::ok);
  EXPECT_EQ(u, 100u);
  EXPECT_EQ(count.offset(), 402787u);
  const node text = statuses.at(99).find("text");
  ASSERT_EQ(text.get_text(t), status::ok);
  EXPECT_EQ(text.offset(), 399932u);  // a string past 2^16: the packed offset holds
  EXPECT_EQ(t.substr(t.size() - 11), "#sm24357625");

  ASSERT_TRUE(cbor_fast_test::read_corpus("citm_catalog", in));
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  EXPECT_EQ(d.root().size(), 11u);
  ASSERT_EQ(d.root().map_key(3).get_text(t), status::ok);
  EXPECT_EQ(t, "events");
  const node events = d.root().find("events");
  EXPECT_EQ(events.size(), 184u);
  const node event = events.find("138586341");
  EXPECT_EQ(event.offset(), 623u);  // the key "138586341" is at 613
  ASSERT_EQ(event.find("name").get_text(t), status::ok);
  EXPECT_EQ(t, "30th Anniversary Tour");
  ASSERT_EQ(event.find("id").get_uint64(u), status::ok);
  EXPECT_EQ(u, 138586341u);
  ASSERT_EQ(d.root().find("areaNames").find("205705993").get_text(t), status::ok);
  EXPECT_EQ(t, "Arri\xc3\xa8re-sc\xc3\xa8ne central");
  const node performances = d.root().find("performances");
  EXPECT_EQ(performances.size(), 243u);
  ASSERT_EQ(performances.at(0).find("eventId").get_uint64(u), status::ok);
  EXPECT_EQ(u, 138586341u);
  EXPECT_EQ(performances.at(0).find("eventId").offset(), 31325u);

  ASSERT_TRUE(cbor_fast_test::read_corpus("canada", in));
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  ASSERT_EQ(d.root().find("type").get_text(t), status::ok);
  EXPECT_EQ(t, "FeatureCollection");
  const node feature = d.root().find("features").at(0);
  ASSERT_EQ(feature.find("properties").find("name").get_text(t), status::ok);
  EXPECT_EQ(t, "Canada");
  const node rings = feature.find("geometry").find("coordinates");
  ASSERT_EQ(rings.size(), 480u);
  EXPECT_EQ(rings.at(0).size(), 14u);
  const node first = rings.at(0).at(0);
  EXPECT_EQ(first.offset(), 111u);
  ASSERT_EQ(first.at(0).get_double(v), status::ok);
  EXPECT_EQ(v, -65.61361699999998);
  EXPECT_EQ(first.at(0).width(), float_width::double_);
  ASSERT_EQ(first.at(1).get_double(v), status::ok);
  EXPECT_EQ(v, 43.42027300000001);
  const node last_ring = rings.at(479);
  const node last = last_ring.at(last_ring.size() - 1);
  EXPECT_EQ(last.offset(), 1056181u);
  ASSERT_EQ(last.at(1).get_double(v), status::ok);
  EXPECT_EQ(v, 83.10942100000011);
}

// ---- deep nesting ------------------------------------------------------------------

TEST(DocumentDeep, HundredThousandLevelsWithoutRecursion) {
  constexpr size_t k_depth = 100000;
  struct shape {
    const char* name;
    uint8_t open;
    uint8_t close;  // 0: none
  } shapes[] = {{"definite arrays", 0x81, 0},
                {"indefinite arrays", 0x9f, 0xff},
                {"tags", 0xc1, 0},
                {"maps", 0xa1, 0}};
  for (const shape& s : shapes) {
    SCOPED_TRACE(s.name);
    bytes in;
    for (size_t i = 0; i < k_depth; ++i) {
      in.push_back(s.open);
      if (s.open == 0xa1) in.push_back(0x00);  // {0: {0: ...}}
    }
    in.push_back(0x00);
    if (s.close != 0) in.insert(in.end(), k_depth, s.close);

    decode_options o;
    o.max_depth = k_depth;
    // Hostile nesting holds more than the default budget (32 bytes a byte):
    // this test is about recursion, so the budget is lifted.
    o.max_memory = SIZE_MAX;
    document d;
    error_info e;
    ASSERT_EQ(decode(in.data(), in.size(), d, o, &e), status::ok);
    EXPECT_EQ(d.node_count(), (s.open == 0xa1 ? 2 : 1) * k_depth + 1);
    // The innermost item by walking first children.
    node n = d.root();
    size_t levels = 0;
    while (n.type() != item_type::unsigned_int || levels < k_depth) {
      n = s.open == 0xa1 ? n.map_value(0) : n.first_child();
      ASSERT_TRUE(n);
      ++levels;
    }
    EXPECT_EQ(n.offset(), in.size() - 1 - (s.close != 0 ? k_depth : 0));
    writer w;
    ASSERT_EQ(encode(d, w), status::ok);
    ASSERT_EQ(w.size(), in.size());
    EXPECT_EQ(std::memcmp(w.data(), in.data(), in.size()), 0);
    writer wp;
    ASSERT_EQ(encode(d, wp, encode_preferred), status::ok);
    mutable_document m;
    ASSERT_EQ(to_mutable(d, m), status::ok);
    writer wm;
    ASSERT_EQ(encode(m, wm), status::ok);
    EXPECT_EQ(wm.size(), in.size());
    // One level less allowed: depth_exceeded at the head that opens it.
    o.max_depth = k_depth - 1;
    EXPECT_EQ(decode(in.data(), in.size(), d, o, &e), status::depth_exceeded);
    EXPECT_EQ(e.offset, (s.open == 0xa1 ? 2 : 1) * (k_depth - 1));
  }
}

// ---- encode destinations -------------------------------------------------------------

TEST(DocumentEncode, FullCallerBufferReportsTheSizeNeeded) {
  document d;
  ASSERT_EQ(decode_hex("83 6161 6162 820102", d), status::ok);
  uint8_t buf[4];
  writer w(buf, sizeof buf);
  EXPECT_EQ(encode(d, w), status::buffer_too_small);
  EXPECT_EQ(w.size(), 8u);  // all of it was counted
  EXPECT_EQ(to_hex(buf, 4), "83616161");
  // A document nested inside items the caller writes.
  writer outer;
  ASSERT_EQ(outer.begin_array(2), status::ok);
  ASSERT_EQ(encode(d.root().at(2), outer), status::ok);
  ASSERT_EQ(encode(d, outer, encode_preferred), status::ok);
  ASSERT_EQ(outer.end(), status::ok);
  ASSERT_EQ(outer.finish(), status::ok);
  EXPECT_EQ(to_hex(outer.data(), outer.size()),
            "82820102836161616282"
            "0102");
  // A writer that is already in error gives its error back.
  writer full;
  ASSERT_EQ(full.end(), status::writer_no_container);
  EXPECT_EQ(encode(d, full), status::writer_no_container);
}

}  // namespace
}  // namespace cbor_fast
