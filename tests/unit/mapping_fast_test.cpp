// The typed inline steps of the struct mapping (mapping-inl.hpp,
// detail::mapping_access): each takes exactly the item next() would return,
// leaves the reader as next() would, or declines with nothing read; and a
// decode through them gives the values, statuses, offsets and member paths
// of the general path (the same decode with strict checks on, which keeps
// every item on next()'s out-of-line path, and the same item in the last
// 8 bytes of the input, where the inline path never runs).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <list>
#include <map>
#include <string>
#include <vector>

#include "cbor_fast/mapping.hpp"
#include "conformance/test_util.hpp"

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::status;
using cbor_fast_test::bytes;
using cbor_fast_test::from_hex;

namespace fasttest {

struct inner {
  uint8_t small = 0;
  int16_t mid = 0;
  std::string_view name;
  bool flag = false;
  float f = 0;
};
CBOR_FAST_FIELDS(inner, small, mid, name, flag, f)

struct outer {
  uint64_t id = 0;
  std::vector<inner> items;
  std::vector<int32_t> nums;
  std::string title;
  cbor_fast::byte_view raw;
  std::map<std::string, int64_t> m;
  double d = 0;
  std::optional<int64_t> opt;
};
CBOR_FAST_FIELDS(outer, id, items, nums, title, raw, m, d, opt)

struct keyed {
  int64_t a = 0;
  std::string_view b;
  uint32_t c = 0;
};
CBOR_FAST_FIELDS_KEYS(keyed, (1, a), (-24, b), (300, c))

struct row {
  int8_t a = 0;
  std::string_view b;
  double c = 0;
};
CBOR_FAST_FIELDS_ARRAY(row, a, b, c)

// A member name of 24 bytes or more: a two-byte text head.
struct long_name {
  int32_t a_member_name_of_25_bytes = 0;
  int32_t x = 0;
};
CBOR_FAST_FIELDS(long_name, a_member_name_of_25_bytes, x)

}  // namespace fasttest

namespace {

using namespace fasttest;
using cbor_fast::detail::take_integer;
using cbor_fast::detail::take_typed;

constexpr size_t k_pad = 9;  // bytes after the item: next()'s inline path may take it

bytes padded(std::string_view hex, uint8_t fill = 0x00) {
  bytes b = from_hex(hex);
  b.insert(b.end(), k_pad, fill);
  return b;
}

void expect_same_item(const item& a, const item& b, std::string_view hex) {
  EXPECT_EQ(a.type, b.type) << hex;
  EXPECT_EQ(a.flags, b.flags) << hex;
  EXPECT_EQ(a.head_size, b.head_size) << hex;
  EXPECT_EQ(a.width, b.width) << hex;
  EXPECT_EQ(a.depth, b.depth) << hex;
  EXPECT_EQ(a.offset, b.offset) << hex;
  EXPECT_EQ(a.arg, b.arg) << hex;
  if (a.type == item_type::floating) {
    uint64_t x, y;
    std::memcpy(&x, &a.u.dbl, 8);
    std::memcpy(&y, &b.u.dbl, 8);
    EXPECT_EQ(x, y) << hex;  // bit for bit (NaN payloads)
  } else {
    EXPECT_EQ(a.u.data, b.u.data) << hex;
  }
}

// One typed step against next() on the same bytes: both take the same item
// and leave the same state, or the step declines with nothing changed.
// `nested`: the input starts with an array head of one item (read by next()
// in both readers first), so the item is inside a level: steps never open a
// container at the top level (as next()'s inline path, where push() notes
// where the top-level item starts).
template <class Step>
bool step_vs_next(const bytes& in, Step step, std::string_view hex,
                  const cbor_fast::reader_options& opt = {}, bool nested = false) {
  cbor_fast::reader fast(in.data(), in.size(), opt);
  cbor_fast::reader ref(in.data(), in.size(), opt);
  item a, b;
  if (nested) {
    EXPECT_EQ(fast.next(a), status::ok) << hex;
    EXPECT_EQ(ref.next(b), status::ok) << hex;
  }
  const size_t at = fast.offset();
  const uint64_t items = fast.items();
  const uint32_t depth = fast.depth();
  const bool took = step(fast, a);
  if (!took) {
    EXPECT_EQ(fast.offset(), at) << hex;
    EXPECT_EQ(fast.items(), items) << hex;
    EXPECT_EQ(fast.depth(), depth) << hex;
    EXPECT_EQ(fast.error().code, status::ok) << hex;
    return false;
  }
  EXPECT_EQ(ref.next(b), status::ok) << hex;
  expect_same_item(a, b, hex);
  EXPECT_EQ(fast.offset(), ref.offset()) << hex;
  EXPECT_EQ(fast.items(), ref.items()) << hex;
  EXPECT_EQ(fast.depth(), ref.depth()) << hex;
  // The level the step opened (or the top level) goes on the same way.
  item na, nb;
  EXPECT_EQ(fast.next(na), ref.next(nb)) << hex;
  expect_same_item(na, nb, hex);
  return true;
}

struct step_row {
  const char* hex;
  item_type type;  // the step that takes it (none: no step does)
};

// Every head form of the typed steps' item types, and heads they leave to next().
const step_row k_step_rows[] = {
    {"00", item_type::unsigned_int},
    {"17", item_type::unsigned_int},
    {"1818", item_type::unsigned_int},
    {"1800", item_type::unsigned_int},  // not shortest: accepted, as by next()
    {"19ffff", item_type::unsigned_int},
    {"1a00010000", item_type::unsigned_int},
    {"1affffffff", item_type::unsigned_int},          // 2^32 - 1
    {"1b0000000100000000", item_type::unsigned_int},  // 2^32
    {"1bffffffffffffffff", item_type::unsigned_int},  // 2^64 - 1
    {"20", item_type::negative_int},
    {"3817", item_type::negative_int},
    {"3bffffffffffffffff", item_type::negative_int},  // -2^64
    {"1c", item_type::none},                          // reserved: next()'s error
    {"40", item_type::byte_string},
    {"43010203", item_type::byte_string},
    {"5818"
     "000102030405060708090a0b0c0d0e0f1011121314151617",
     item_type::byte_string},
    {"5f4101ff", item_type::none},  // indefinite: next()
    {"60", item_type::text_string},
    {"6161", item_type::text_string},
    {"62c3a9", item_type::text_string},
    {"7818"
     "616263646566676869707172737475767778797a30313233",
     item_type::text_string},
    {"7f6161ff", item_type::none},
    {"5a00001000", item_type::none},  // longer than the input: next()'s truncated
    {"80", item_type::array},
    {"83010203", item_type::array},
    {"9818"
     "000102030405060708090a0b0c0d0e0f1011121314151617",
     item_type::array},
    {"9f01ff", item_type::none},
    {"a0", item_type::map},
    {"a1616100", item_type::map},
    {"bf6161ff", item_type::none},
    {"f4", item_type::boolean},
    {"f5", item_type::boolean},
    {"f6", item_type::none},
    {"f93c00", item_type::floating},  // 1.0 half
    {"f97e00", item_type::floating},  // NaN half
    {"f90001", item_type::floating},  // smallest subnormal half
    {"f97c00", item_type::floating},  // infinity half
    {"f98000", item_type::floating},  // -0.0 half
    {"fa47c35000", item_type::floating},
    {"fa7fc00001", item_type::floating},  // NaN single with a payload
    {"fb3ff199999999999a", item_type::floating},
    {"fb7ff8000000000001", item_type::floating},
    {"c11a514b67b0", item_type::none},  // a tag: next()
    {"f820", item_type::none},          // simple value: next()
};

// Each typed step (take_integer for both integer types, take_typed<T> for
// the rest) against next(), as one table.
template <item_type T>
bool typed_vs_next(const bytes& in, std::string_view hex, bool nested) {
  return step_vs_next(
      in, [](cbor_fast::reader& r, item& it) { return take_typed<T>(r, it); }, hex, {}, nested);
}
bool integer_vs_next(const bytes& in, std::string_view hex, bool nested) {
  return step_vs_next(
      in, [](cbor_fast::reader& r, item& it) { return take_integer(r, it); }, hex, {}, nested);
}
struct typed_probe {
  item_type type;
  bool (*run)(const bytes&, std::string_view, bool);
};
const typed_probe k_typed_probes[] = {
    {item_type::unsigned_int, integer_vs_next},
    {item_type::byte_string, typed_vs_next<item_type::byte_string>},
    {item_type::text_string, typed_vs_next<item_type::text_string>},
    {item_type::array, typed_vs_next<item_type::array>},
    {item_type::map, typed_vs_next<item_type::map>},
    {item_type::boolean, typed_vs_next<item_type::boolean>},
    {item_type::floating, typed_vs_next<item_type::floating>},
};

TEST(MappingFastPath, EachStepTakesWhatNextTakes) {
  for (const step_row& row : k_step_rows) {
    for (const bool nested : {false, true}) {
      const std::string hex = row.hex;
      const bytes in = padded(nested ? "81" + hex : hex);
      // At the top level a container is next()'s out-of-line path.
      const bool container = row.type == item_type::array || row.type == item_type::map;
      const item_type want_type = container && !nested ? item_type::none : row.type;
      bool taken_by_any = false;
      for (const typed_probe& probe : k_typed_probes) {
        const item_type t = probe.type;
        const bool took = probe.run(in, hex, nested);
        if (took) {
          EXPECT_FALSE(taken_by_any) << hex;
          taken_by_any = true;
          const item_type want =
              want_type == item_type::negative_int ? item_type::unsigned_int : want_type;
          EXPECT_EQ(t, want) << hex;
        }
      }
      EXPECT_EQ(taken_by_any, want_type != item_type::none) << hex;
    }
  }
}

auto text_step = [](cbor_fast::reader& r, item& it) {
  return take_typed<item_type::text_string>(r, it);
};
auto int_step = [](cbor_fast::reader& r, item& it) { return take_integer(r, it); };
auto array_step = [](cbor_fast::reader& r, item& it) {
  return take_typed<item_type::array>(r, it);
};

TEST(MappingFastPath, StepsDeclineWhereNextLeavesItsInlinePath) {
  // The last 8 bytes of the input: never the inline path.
  const bytes tail = from_hex("1a00010000");
  EXPECT_FALSE(step_vs_next(tail, int_step, "tail"));
  // Exactly nine bytes left: the inline path's first position.
  EXPECT_TRUE(step_vs_next(from_hex("1b0000000100000000"), int_step, "nine"));
  // Strict checks (duplicate keys, deterministic): next()'s out-of-line path.
  cbor_fast::reader_options strict;
  strict.reject_duplicate_keys = true;
  EXPECT_FALSE(step_vs_next(padded("01"), int_step, "dup", strict));
  cbor_fast::reader_options det;
  det.deterministic = true;
  EXPECT_FALSE(step_vs_next(padded("1800"), int_step, "det", det));
  // Limits the step cannot pass: next() reports them.
  cbor_fast::reader_options short_strings;
  short_strings.max_string_length = 2;
  EXPECT_TRUE(step_vs_next(padded("626162"), text_step, "2 of 2", short_strings));
  EXPECT_FALSE(step_vs_next(padded("63616263"), text_step, "3 of 2", short_strings));
  cbor_fast::reader_options few;
  few.max_container_items = 2;
  EXPECT_TRUE(step_vs_next(padded("81820102"), array_step, "2 of 2", few, true));
  EXPECT_FALSE(step_vs_next(padded("8183010203"), array_step, "3 of 2", few, true));
  EXPECT_FALSE(step_vs_next(padded("820102"), array_step, "top level", few));
  cbor_fast::reader_options shallow;
  shallow.max_depth = 2;
  EXPECT_TRUE(step_vs_next(padded("818100"), array_step, "depth 2 of 2", shallow, true));
  shallow.max_depth = 1;
  EXPECT_FALSE(step_vs_next(padded("818100"), array_step, "depth 2 of 1", shallow, true));
  cbor_fast::reader_options items;
  items.max_items = 1;  // the budget: the array head, then too_many_items from next()
  EXPECT_TRUE(step_vs_next(padded("00"), int_step, "budget 1 of 1", items));
  EXPECT_FALSE(step_vs_next(padded("8100"), int_step, "budget 2 of 1", items, true));
  // UTF-8 validation: valid text is taken, invalid text is next()'s error.
  cbor_fast::reader_options utf8;
  utf8.validate_utf8 = true;
  EXPECT_TRUE(step_vs_next(padded("62c3a9"), text_step, "valid", utf8));
  EXPECT_FALSE(step_vs_next(padded("62c328"), text_step, "invalid", utf8));
}

TEST(MappingFastPath, StepsDeclineAfterAnErrorAndAtALevelsEnd) {
  const bytes in = padded("818101");
  cbor_fast::reader r(in.data(), in.size());
  item it;
  EXPECT_FALSE(take_typed<item_type::array>(r, it));  // the top level: next()
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_TRUE(take_typed<item_type::array>(r, it));
  EXPECT_EQ(it.count(), 1u);
  EXPECT_EQ(it.depth, 1u);
  EXPECT_EQ(r.depth(), 2u);
  ASSERT_TRUE(take_integer(r, it));
  EXPECT_EQ(it.value(), 1u);
  EXPECT_FALSE(take_integer(r, it));  // the inner array's end: next() gives it
  EXPECT_EQ(r.offset(), 3u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(r.depth(), 1u);
  // A sticky error: the step declines, next() repeats the error.
  const bytes bad = padded("1c");
  cbor_fast::reader e(bad.data(), bad.size());
  EXPECT_EQ(e.next(it), status::reserved_additional_info);
  EXPECT_FALSE(take_integer(e, it));
  EXPECT_EQ(e.next(it), status::reserved_additional_info);
}

// ---- whole decodes: the fast path against the general one ----

struct outcome {
  status s;
  size_t offset;
  std::string path;
};

template <class T>
outcome decode(const bytes& in, T& out, const cbor_fast::mapping_options& opt) {
  cbor_fast::mapping_error err;
  const status s = cbor_fast::from_cbor(in.data(), in.size(), out, err, opt);
  return {s, s == status::ok ? 0 : err.offset, err.path};
}

// Decodes `hex` three ways: padded with the default options (the typed
// steps), padded with reject_duplicate_keys (next()'s out-of-line path for
// every item: no input here has a duplicate key) and unpadded (the end of
// input); all three must agree with `want` and give equal values (`same`).
// A row with a duplicate key (`duplicate`): the reader's own check finds it
// first on the general path, at the same offset, with no member path.
template <class T, class Same>
void three_ways(std::string_view hex, const outcome& want, Same same,
                cbor_fast::mapping_options base = {}, bool duplicate = false) {
  static std::list<bytes> keep;  // borrowed members point into the input
  const bytes& in = keep.emplace_back(from_hex(hex));
  const bytes& pad = keep.emplace_back(padded(hex));
  cbor_fast::mapping_options fast = base;
  fast.allow_trailing_bytes = true;
  cbor_fast::mapping_options general = fast;
  general.reader.reject_duplicate_keys = true;
  T a{}, b{}, c{};
  const outcome oa = decode(pad, a, fast);
  const outcome ob = decode(pad, b, general);
  const outcome oc = decode(in, c, base);
  for (const outcome* o : {&oa, &ob, &oc}) {
    EXPECT_EQ(o->s, want.s) << hex;
    EXPECT_EQ(o->offset, want.offset) << hex;
    EXPECT_EQ(o->path, duplicate && o == &ob ? "" : want.path) << hex;
  }
  if (want.s == status::ok) {
    EXPECT_TRUE(same(a, b)) << hex;
    EXPECT_TRUE(same(a, c)) << hex;
  }
}

template <class T>
struct eq {
  bool operator()(const T& x, const T& y) const { return x == y; }
};
template <class T>
void value_row(std::string_view hex, T want) {
  three_ways<T>(hex, {status::ok, 0, ""}, [&](const T& x, const T& y) {
    if constexpr (std::is_floating_point<T>::value) {
      // Bit for bit: NaN and -0.0 included.
      T wx = want;
      return std::memcmp(&x, &wx, sizeof(T)) == 0 && std::memcmp(&y, &wx, sizeof(T)) == 0;
    } else {
      return x == want && y == want;
    }
  });
}
template <class T>
void error_row(std::string_view hex, status s, size_t offset, std::string path = "") {
  three_ways<T>(hex, {s, offset, path}, [](const T&, const T&) { return true; });  // not called
}

TEST(MappingFastPath, IntegersAtTheirBoundaries) {
  value_row<uint64_t>("00", 0);
  value_row<uint64_t>("1affffffff", 4294967295u);
  value_row<uint64_t>("1b0000000100000000", uint64_t(1) << 32);
  value_row<uint64_t>("1bffffffffffffffff", UINT64_MAX);
  value_row<uint64_t>("1800", 0);  // not shortest: accepted without deterministic
  value_row<int64_t>("3b7fffffffffffffff", INT64_MIN);
  value_row<int64_t>("1b7fffffffffffffff", INT64_MAX);
  error_row<int64_t>("3b8000000000000000", status::out_of_range, 0);
  error_row<int64_t>("3bffffffffffffffff", status::out_of_range, 0);  // -2^64
  error_row<int64_t>("1b8000000000000000", status::out_of_range, 0);
  value_row<uint8_t>("18ff", 255);
  error_row<uint8_t>("190100", status::out_of_range, 0);
  error_row<uint8_t>("20", status::out_of_range, 0);
  value_row<int8_t>("387f", -128);
  error_row<int8_t>("3880", status::out_of_range, 0);
  value_row<uint32_t>("1affffffff", UINT32_MAX);
  error_row<uint32_t>("1b0000000100000000", status::out_of_range, 0);
  value_row<int32_t>("3a7fffffff", INT32_MIN);
  error_row<int32_t>("3a80000000", status::out_of_range, 0);
  error_row<int32_t>("f93c00", status::type_mismatch, 0);
  error_row<int32_t>("c100", status::type_mismatch, 0);  // tagged: the tag's head
  error_row<int32_t>("1c", status::reserved_additional_info, 0);
  // Deterministic: a longer head than needed is refused at its offset.
  three_ways<uint32_t>("1800", {status::non_preferred_encoding, 0, ""}, eq<uint32_t>{}, [] {
    cbor_fast::mapping_options o;
    o.reader.deterministic = true;
    return o;
  }());
}

TEST(MappingFastPath, FloatsAndBools) {
  value_row<double>("f93c00", 1.0);
  value_row<double>("f98000", -0.0);
  value_row<double>("f90001", std::ldexp(1.0, -24));  // smallest subnormal half
  value_row<double>("f97c00", std::numeric_limits<double>::infinity());
  value_row<double>("f97e00", std::numeric_limits<double>::quiet_NaN());
  value_row<double>("fa47c35000", 100000.0);
  value_row<double>("fb3ff199999999999a", 1.1);
  value_row<float>("f93c00", 1.0f);
  value_row<float>("fb3ff8000000000000", 1.5f);
  error_row<float>("fb3ff199999999999a", status::out_of_range, 0);  // 1.1 is no float
  value_row<double>("1b0020000000000000", 9007199254740992.0);      // 2^53 from an integer
  error_row<double>("1b0020000000000001", status::out_of_range, 0);
  error_row<double>("6161", status::type_mismatch, 0);
  value_row<bool>("f5", true);
  value_row<bool>("f4", false);
  error_row<bool>("f6", status::type_mismatch, 0);
  error_row<bool>("01", status::type_mismatch, 0);
}

// An integer into a float is taken when the float holds it exactly. A
// negative integer -1 - n has the magnitude n + 1, which may be exact where
// n is not (-2^54: n = 2^54 - 1).
TEST(MappingFastPath, IntegersIntoFloatsExactly) {
  value_row<double>("3b001fffffffffffff", -9007199254740992.0);      // -2^53
  error_row<double>("3b0020000000000000", status::out_of_range, 0);  // -(2^53 + 1)
  value_row<double>("3b003fffffffffffff", -18014398509481984.0);     // -2^54
  value_row<double>("3b0040000000000003", -18014398509481988.0);     // -(2^54 + 4): a double
  error_row<double>("3b0040000000000000", status::out_of_range, 0);  // -(2^54 + 1)
  value_row<double>("3b7fffffffffffffff", -9223372036854775808.0);   // -2^63
  error_row<double>("3b8000000000000000", status::out_of_range, 0);  // -(2^63 + 1)
  value_row<double>("3b80000000000007ff", -9223372036854777856.0);   // -(2^63 + 2^11)
  value_row<double>("3bfffffffffffff7ff", -18446744073709549568.0);  // -(2^64 - 2^11)
  error_row<double>("3bfffffffffffffffe", status::out_of_range, 0);  // -(2^64 - 1)
  value_row<double>("3bffffffffffffffff", -18446744073709551616.0);  // -2^64
  value_row<double>("1bfffffffffffff800", 18446744073709549568.0);   // 2^64 - 2^11
  error_row<double>("1bffffffffffffffff", status::out_of_range, 0);  // 2^64 - 1
  value_row<float>("3b7fffffffffffffff", -9223372036854775808.0f);   // -2^63, a float too
  value_row<float>("3a00ffffff", -16777216.0f);                      // -2^24
  error_row<float>("3a01000000", status::out_of_range, 0);           // -(2^24 + 1)
  value_row<float>("3bffffffffffffffff", -18446744073709551616.0f);  // -2^64
  value_row<double>("3b0020000000000001", -9007199254740994.0);      // -(2^53 + 2)
  error_row<float>("3b0020000000000001", status::out_of_range, 0);   // not a float
}

TEST(MappingFastPath, StringsAndBytes) {
  value_row<std::string>("60", "");
  value_row<std::string>("6568656c6c6f", "hello");
  value_row<std::string>("7f626865636c6c6fff", "hello");  // indefinite: joined by next()
  value_row<std::string_view>("6568656c6c6f", "hello");
  error_row<std::string_view>("7f626865636c6c6fff", status::type_mismatch, 0);
  error_row<std::string_view>("4568656c6c6f", status::type_mismatch, 0);
  error_row<std::string>("d8206161", status::type_mismatch, 0);
  value_row<std::vector<uint8_t>>("43010203", {1, 2, 3});
  value_row<std::vector<uint8_t>>("5f41014102ff", {1, 2});
  three_ways<cbor_fast::byte_view>(
      "43010203", {status::ok, 0, ""},
      [](const cbor_fast::byte_view& x, const cbor_fast::byte_view& y) {
        return x.size == 3 && y.size == 3 && x.data[2] == 3 && y.data[0] == 1;
      });
  // UTF-8 validation applies on the fast path: invalid text is the reader's error.
  cbor_fast::mapping_options utf8;
  utf8.reader.validate_utf8 = true;
  three_ways<std::string_view>("62c328", {status::invalid_utf8, 1, ""}, eq<std::string_view>{},
                               utf8);
  three_ways<std::string_view>(
      "62c3a9", {status::ok, 0, ""},
      [](std::string_view x, std::string_view y) { return x == "\xc3\xa9" && y == x; }, utf8);
  cbor_fast::mapping_options short_strings;
  short_strings.reader.max_string_length = 4;
  three_ways<std::string>("6568656c6c6f", {status::string_too_long, 0, ""}, eq<std::string>{},
                          short_strings);
}

TEST(MappingFastPath, VectorsOfNumbers) {
  value_row<std::vector<int32_t>>("80", {});
  value_row<std::vector<int32_t>>("9fff", {});
  value_row<std::vector<int32_t>>("83011a7fffffff3a7fffffff", {1, INT32_MAX, INT32_MIN});
  value_row<std::vector<int32_t>>("9f0102ff", {1, 2});
  error_row<std::vector<int32_t>>("82011a80000000", status::out_of_range, 2, "[1]");
  error_row<std::vector<int32_t>>("8201f5", status::type_mismatch, 2, "[1]");
  value_row<std::vector<uint64_t>>("821bffffffffffffffff00", {UINT64_MAX, 0});
  value_row<std::vector<double>>("82f93c00fb3ff199999999999a", {1.0, 1.1});
  value_row<std::vector<float>>("82f93c00fa3fc00000", {1.0f, 1.5f});
  value_row<std::vector<uint16_t>>("80", {});
  // 65536 elements: a 3-byte array head, each element a one-byte integer.
  std::string big = "9a00010000";
  for (int i = 0; i < 65536; ++i) big += "07";
  three_ways<std::vector<uint16_t>>(
      big, {status::ok, 0, ""}, [](const std::vector<uint16_t>& x, const std::vector<uint16_t>& y) {
        return x.size() == 65536 && x == y && x[65535] == 7;
      });
  // Tagged elements and containers: the tag's head.
  error_row<std::vector<int32_t>>("82c10101", status::type_mismatch, 1, "[0]");
  error_row<std::vector<int32_t>>("c18101", status::type_mismatch, 0);
}

bool same_outer(const outer& x, const outer& y) {
  if (x.id != y.id || x.nums != y.nums || x.title != y.title || x.m != y.m ||
      std::memcmp(&x.d, &y.d, 8) != 0 || x.opt != y.opt || x.raw.size != y.raw.size ||
      x.items.size() != y.items.size())
    return false;
  if (x.raw.size != 0 && std::memcmp(x.raw.data, y.raw.data, x.raw.size) != 0) return false;
  for (size_t i = 0; i < x.items.size(); ++i) {
    const inner& a = x.items[i];
    const inner& b = y.items[i];
    if (a.small != b.small || a.mid != b.mid || a.name != b.name || a.flag != b.flag ||
        std::memcmp(&a.f, &b.f, 4) != 0)
      return false;
  }
  return true;
}

// {"id": 7, "items": [{"small": 1, "mid": -300, "name": "ab", "flag": true, "f": 0.5}],
//  "nums": [1, 2], "title": "t", "raw": h'0102', "m": {"k": -1}, "d": 2.5}
// (opt omitted; 80 bytes). Offsets: the inner map at 12, small's value at 19,
// mid's at 24, f's at 43; "nums" at 46; m's map at 71, its value at 74.
const char* const k_outer =
    "a7"
    "626964"
    "07"
    "656974656d73"
    "81"
    "a5"
    "65736d616c6c"
    "01"
    "636d6964"
    "39012b"
    "646e616d65"
    "626162"
    "64666c6167"
    "f5"
    "6166"
    "f93800"
    "646e756d73"
    "820102"
    "657469746c65"
    "6174"
    "63726177"
    "420102"
    "616d"
    "a1616b20"
    "6164"
    "f94100";

TEST(MappingFastPath, NestedStructInOrder) {
  three_ways<outer>(k_outer, {status::ok, 0, ""}, [](const outer& x, const outer& y) {
    return same_outer(x, y) && x.id == 7 && x.items.size() == 1 && x.items[0].mid == -300 &&
           x.items[0].name == "ab" && x.items[0].flag && x.items[0].f == 0.5f &&
           x.nums == std::vector<int32_t>{1, 2} && x.title == "t" && x.raw.size == 2 &&
           x.m.at("k") == -1 && x.d == 2.5 && !x.opt.has_value();
  });
}

TEST(MappingFastPath, NestedStructErrorsKeepOffsetAndPath) {
  std::string hex = k_outer;
  // "mid": -300 -> 0x39 0x8000 (-32769): out of int16_t at its head (offset 24).
  std::string bad = hex;
  bad.replace(bad.find("39012b"), 6, "398000");
  error_row<outer>(bad, status::out_of_range, 24, "items[0].mid");
  // "small": 1 -> 0x190100 (256): out of uint8_t at offset 19.
  bad = hex;
  bad.replace(bad.find("65736d616c6c01"), 14, "65736d616c6c190100");
  error_row<outer>(bad, status::out_of_range, 19, "items[0].small");
  // "f": 0.5 -> a text string: type_mismatch at offset 43.
  bad = hex;
  bad.replace(bad.find("6166f93800"), 10, "61666130");
  error_row<outer>(bad, status::type_mismatch, 43, "items[0].f");
  // "flag" missing (the map has 4 pairs): type_mismatch at the inner map's head (12).
  bad = hex;
  bad.replace(bad.find("a565736d"), 2, "a4");
  bad.replace(bad.find("64666c6167f5"), 12, "");
  error_row<outer>(bad, status::type_mismatch, 12, "items[0].flag");
  // "id" twice: the second is duplicate_key at its key's offset (80, in the
  // general loop); with reject_duplicate_keys the reader reports it there itself.
  bad = hex;
  bad.replace(0, 2, "a8");
  bad +=
      "626964"
      "08";
  three_ways<outer>(
      bad, {status::duplicate_key, 80, "id"}, [](const outer&, const outer&) { return true; }, {},
      true);
  // The map value -1 -> a float: type_mismatch at offset 74 under m["k"].
  bad = hex;
  bad.replace(bad.find("a1616b20"), 8, "a1616bf93c00");
  error_row<outer>(bad, status::type_mismatch, 74, "m[\"k\"]");
}

// Random damage to valid encodings: the fast path and the general one
// (reject_duplicate_keys keeps every item on next()'s out-of-line path) give
// the same status, offset, path and values on every input, except where the
// reader's own duplicate check is what differs.
template <class T, class Same>
void mutations_agree(const bytes& valid, Same same, uint32_t seed) {
  uint32_t x = seed;
  auto rnd = [&x] {  // xorshift32: the same inputs on every run
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
  };
  static const uint8_t interesting[] = {0x00, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1f, 0x20, 0x3b,
                                        0x40, 0x5f, 0x60, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc1,
                                        0xf4, 0xf5, 0xf6, 0xf9, 0xfa, 0xfb, 0xff};
  for (int round = 0; round < 4000; ++round) {
    bytes in = valid;
    const int edits = 1 + int(rnd() % 3);
    for (int e = 0; e < edits && !in.empty(); ++e) {
      const size_t at = rnd() % in.size();
      switch (rnd() % 4) {
        case 0: in[at] = uint8_t(rnd()); break;
        case 1: in[at] = interesting[rnd() % sizeof interesting]; break;
        case 2: in[at] = uint8_t(in[at] ^ (1u << (rnd() % 8))); break;
        default: in.resize(at); break;
      }
    }
    in.insert(in.end(), k_pad, 0x00);  // the fast path may run to the item's last byte
    cbor_fast::mapping_options fast;
    fast.allow_trailing_bytes = true;
    cbor_fast::mapping_options general = fast;
    general.reader.reject_duplicate_keys = true;
    T a{}, b{};
    const outcome oa = decode(in, a, fast);
    const outcome ob = decode(in, b, general);
    if (oa.s == status::duplicate_key || ob.s == status::duplicate_key) continue;
    ASSERT_EQ(oa.s, ob.s) << "round " << round;
    ASSERT_EQ(oa.offset, ob.offset) << "round " << round;
    ASSERT_EQ(oa.path, ob.path) << "round " << round;
    if (oa.s == status::ok) {
      ASSERT_TRUE(same(a, b)) << "round " << round;
    }
  }
}

TEST(MappingFastPath, DamagedInputsDecodeAlikeOnBothPaths) {
  mutations_agree<outer>(from_hex(k_outer), same_outer, 0x9e3779b9u);
  mutations_agree<keyed>(
      from_hex("a3"
               "01"
               "24"
               "37"
               "6162"
               "19012c"
               "07"),
      [](const keyed& x, const keyed& y) { return x.a == y.a && x.b == y.b && x.c == y.c; },
      0x85ebca6bu);
  mutations_agree<row>(
      from_hex("83"
               "20"
               "6178"
               "f93e00"),
      [](const row& x, const row& y) {
        return x.a == y.a && x.b == y.b && std::memcmp(&x.c, &y.c, 8) == 0;
      },
      0xc2b2ae35u);
}

TEST(MappingFastPath, KeysOutOfOrderAndUnusualKeyEncodings) {
  // {"d": 2.5, "items": [], "id": 7, "title": "t", ...}: the in-order pass
  // takes what it can, the general loop the rest.
  const std::string shuffled =
      "a7"
      "6164"
      "f94100"
      "656974656d73"
      "80"
      "626964"
      "07"
      "657469746c65"
      "6174"
      "63726177"
      "420102"
      "616d"
      "a0"
      "646e756d73"
      "80";
  three_ways<outer>(shuffled, {status::ok, 0, ""}, [](const outer& x, const outer& y) {
    return same_outer(x, y) && x.id == 7 && x.d == 2.5 && x.title == "t" && x.items.empty();
  });
  auto same_long = [](const long_name& x, const long_name& y) {
    return x.a_member_name_of_25_bytes == 5 && y.a_member_name_of_25_bytes == 5 && x.x == 1 &&
           y.x == 1;
  };
  const std::string name25 =
      "7819"
      "615f6d656d6265725f6e616d655f6f665f32355f6279746573";
  // A 25-byte name (a two-byte head), then "x" shortest.
  three_ways<long_name>("a2" + name25 + "05" +
                            "6178"
                            "01",
                        {status::ok, 0, ""}, same_long);
  // "x" with a longer head than needed (0x78 0x01), and as an indefinite string.
  three_ways<long_name>("a2" + name25 + "05" +
                            "780178"
                            "01",
                        {status::ok, 0, ""}, same_long);
  three_ways<long_name>(
      "a2"
      "7f6178ff"
      "01" +
          name25 + "05",
      {status::ok, 0, ""}, same_long);
  // The 25-byte name with one byte changed is unknown: skipped, then the member is missing.
  three_ways<long_name>(
      "a2"
      "7819"
      "615f6d656d6265725f6e616d655f6f665f32355f6279746574"
      "05"
      "6178"
      "01",
      {status::type_mismatch, 0, "a_member_name_of_25_bytes"}, same_long);
  // A name cut short by the end of the input: truncated at the key.
  three_ways<long_name>(
      "a1"
      "7819"
      "615f6d656d62",
      {status::truncated, 1, ""}, same_long);
}

TEST(MappingFastPath, IntegerKeys) {
  auto same = [](const keyed& x, const keyed& y) {
    return x.a == -5 && y.a == -5 && x.b == "b" && y.b == "b" && x.c == 7 && y.c == 7;
  };
  // {1: -5, -24: "b", 300: 7}
  three_ways<keyed>(
      "a3"
      "01"
      "24"
      "37"
      "6162"
      "19012c"
      "07",
      {status::ok, 0, ""}, same);
  // Key 1 as 0x18 0x01 and 300 as 0x1a 0x0000012c: equal keys, the general loop's match.
  three_ways<keyed>(
      "a3"
      "1801"
      "24"
      "37"
      "6162"
      "1a0000012c"
      "07",
      {status::ok, 0, ""}, same);
  // Out of order.
  three_ways<keyed>(
      "a3"
      "19012c"
      "07"
      "37"
      "6162"
      "01"
      "24",
      {status::ok, 0, ""}, same);
  // A duplicate: duplicate_key at the second key (offset 3) under its member's name
  // (with reject_duplicate_keys, the reader's own duplicate_key there).
  three_ways<keyed>(
      "a4"
      "01"
      "24"
      "01"
      "24"
      "37"
      "6162"
      "19012c"
      "07",
      {status::duplicate_key, 3, "a"}, same, {}, true);
  // 300: 2^32 does not fit uint32_t: out_of_range at offset 9 under c.
  three_ways<keyed>(
      "a3"
      "01"
      "24"
      "37"
      "6162"
      "19012c"
      "1b0000000100000000",
      {status::out_of_range, 9, "c"}, same);
  // An unknown key, refused: type_mismatch at its offset, with the key in the path.
  cbor_fast::mapping_options reject;
  reject.reject_unknown_keys = true;
  three_ways<keyed>(
      "a4"
      "01"
      "24"
      "37"
      "6162"
      "02"
      "00"
      "19012c"
      "07",
      {status::type_mismatch, 6, "[2]"}, same, reject);
}

TEST(MappingFastPath, ArrayLayout) {
  auto same = [](const row& x, const row& y) {
    return x.a == -1 && y.a == -1 && x.b == "x" && y.b == "x" && x.c == 1.5 && y.c == 1.5;
  };
  three_ways<row>(
      "83"
      "20"
      "6178"
      "f93e00",
      {status::ok, 0, ""}, same);
  three_ways<row>(
      "9f"
      "20"
      "6178"
      "f93e00"
      "ff",
      {status::ok, 0, ""}, same);
  // An extra element is skipped, or refused at its offset.
  three_ways<row>(
      "84"
      "20"
      "6178"
      "f93e00"
      "820102",
      {status::ok, 0, ""}, same);
  cbor_fast::mapping_options reject;
  reject.reject_unknown_keys = true;
  three_ways<row>(
      "84"
      "20"
      "6178"
      "f93e00"
      "820102",
      {status::type_mismatch, 7, "[3]"}, same, reject);
  // 200 is out of int8_t: at offset 1, member a.
  three_ways<row>(
      "83"
      "18c8"
      "6178"
      "f93e00",
      {status::out_of_range, 1, "a"}, same);
  // Two elements: c is missing, at the array's head.
  three_ways<row>(
      "82"
      "20"
      "6178",
      {status::type_mismatch, 0, "c"}, same);
}

}  // namespace
