// Struct mapping (mapping.hpp): exact bytes out, values, statuses, offsets and
// member paths in.
#include "cbor_fast/mapping.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <list>
#include <utility>
#if defined(__linux__)
#include <pthread.h>
#endif

#include "conformance/test_util.hpp"
#include "cbor_fast/typed_array.hpp"

using cbor_fast::status;
using cbor_fast_test::bytes;
using cbor_fast_test::from_hex;
using cbor_fast_test::to_hex;

namespace maptest {

struct small {
  uint32_t a = 0;
  std::string_view s;
  std::optional<int8_t> o;
};
CBOR_FAST_FIELDS(small, a, s, o)

struct cose_key {
  int64_t kty = 0;
  std::optional<std::string> kid;
  cbor_fast::byte_view x;
};
CBOR_FAST_FIELDS_KEYS(cose_key, (1, kty), (2, kid), (-2, x))

struct point {
  int32_t x = 0;
  int32_t y = 0;
  std::optional<std::string> label;
};
CBOR_FAST_FIELDS_ARRAY(point, x, y, label)

enum class color : uint8_t { red = 1, green = 2 };

struct item_t {
  std::string_view name;
  int32_t qty = 0;
};
CBOR_FAST_FIELDS(item_t, name, qty)

struct order {
  uint64_t id = 0;
  std::string title;
  std::vector<item_t> items;
  std::map<std::string, int64_t> counts;
  std::vector<double> xs;
  std::vector<int64_t> ns;
  color c = color::red;
  std::variant<int64_t, std::string> v;
  std::array<uint16_t, 2> pair{};
  std::vector<uint8_t> blob;
  bool flag = false;
  float f = 0;
  std::optional<point> where;
  std::unordered_map<int32_t, std::string> names;
};
CBOR_FAST_FIELDS(order, id, title, items, counts, xs, ns, c, v, pair, blob, flag, f, where, names)

template <class T>
struct one {
  T v{};
};
template <class T>
constexpr auto cbor_fast_fields(const one<T>*) noexcept {
  return ::cbor_fast::detail::make_fields<::cbor_fast::detail::layout_names>(
      ::cbor_fast::detail::make_field("v", 1, 0, &one<T>::v));
}

// A user type with its own encoding: a temperature as tag 1000 over a float.
struct celsius {
  double deg = 0;
};
cbor_fast::status cbor_fast_encode(cbor_fast::writer& w, const celsius& c) {
  // A full caller buffer is no reason to stop: the writer keeps counting.
  cbor_fast::status s = w.write_tag(1000);
  if (s != cbor_fast::status::ok && s != cbor_fast::status::buffer_too_small) return s;
  return w.write_float(c.deg);
}
cbor_fast::status cbor_fast_decode(cbor_fast::reader& r, celsius& c) {
  cbor_fast::item it;
  cbor_fast::status s = r.next(it);
  if (s != cbor_fast::status::ok) return s;
  if (it.type != cbor_fast::item_type::tag || it.tag_number() != 1000)
    return cbor_fast::status::type_mismatch;
  s = r.next(it);
  if (s != cbor_fast::status::ok) return s;
  if (it.type != cbor_fast::item_type::floating) return cbor_fast::status::type_mismatch;
  c.deg = it.float_value();
  return cbor_fast::status::ok;
}
struct weather {
  celsius t;
  std::vector<celsius> hist;
};
CBOR_FAST_FIELDS(weather, t, hist)

struct tree {
  int32_t v = 0;
  std::vector<tree> kids;
};
CBOR_FAST_FIELDS(tree, v, kids)
struct forest {
  tree root;
};
CBOR_FAST_FIELDS(forest, root)

}  // namespace maptest

namespace {

using namespace maptest;

template <class T>
status decode_hex(std::string_view hex, T& out, cbor_fast::mapping_error& err,
                  const cbor_fast::mapping_options& opt = {}) {
  // Kept alive: borrowed members point into the input.
  static std::list<bytes> inputs;
  const bytes& in = inputs.emplace_back(from_hex(hex));
  return cbor_fast::from_cbor(in.data(), in.size(), out, err, opt);
}

// ---- encoding: exact bytes ----

TEST(MappingEncode, MapByNamesOmitsEmptyOptional) {
  small s;
  s.a = 24;
  s.s = "hi";
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(s)),
            "a2"
            "6161"
            "1818"
            "6173"
            "626869");
  s.o = -1;
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(s)),
            "a3"
            "6161"
            "1818"
            "6173"
            "626869"
            "616f"
            "20");
}

TEST(MappingEncode, IntegerKeys) {
  cose_key k;
  k.kty = 2;
  k.kid = "11";
  static const uint8_t x[2] = {0xab, 0xcd};
  k.x = {x, 2};
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(k)),
            "a3"
            "0102"
            "02"
            "623131"
            "21"
            "42abcd");
}

TEST(MappingEncode, ArrayLayoutWritesNullForEmptyOptional) {
  point p{1, -2, std::nullopt};
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(p)), "830121f6");
  p.label = "a";
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(p)), "8301216161");
}

TEST(MappingEncode, ContainersAndScalars) {
  one<std::vector<uint64_t>> v;
  v.v = {0, 23, 24, 255, 256, 65536, uint64_t(1) << 32, UINT64_MAX};
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(v)),
            "a16176"
            "88"
            "00"
            "17"
            "1818"
            "18ff"
            "190100"
            "1a00010000"
            "1b0000000100000000"
            "1bffffffffffffffff");
  one<std::vector<double>> d;
  d.v = {1.0, 1.5, 0.1};
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(d)),
            "a16176"
            "83"
            "f93c00"
            "f93e00"
            "fb3fb999999999999a");
  one<std::map<std::string, int64_t>> m;
  m.v = {{"b", -1}, {"a", INT64_MIN}};
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(m)),
            "a16176"
            "a2"
            "6161"
            "3b7fffffffffffffff"
            "6162"
            "20");
  one<std::vector<uint8_t>> b;
  b.v = {1, 2};
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(b)),
            "a16176"
            "420102");
  one<std::variant<int64_t, std::string>> var;
  var.v = std::string("x");
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(var)),
            "a16176"
            "6178");
  one<color> c;
  c.v = color::green;
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(c)),
            "a16176"
            "02");
  one<std::vector<item_t>> e;
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(e)),
            "a16176"
            "80");
}

TEST(MappingEncode, HookAndFixedBuffer) {
  weather w;
  w.t.deg = 1.5;
  w.hist = {celsius{-2.0}};
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(w)),
            "a2"
            "6174"
            "d903e8"
            "f93e00"
            "6468697374"
            "81"
            "d903e8"
            "f9c000");
  // Into a caller buffer too small: the writer counts the bytes needed.
  uint8_t buf[4];
  cbor_fast::writer out(buf, sizeof buf);
  EXPECT_EQ(cbor_fast::to_cbor(w, out), status::buffer_too_small);
  EXPECT_EQ(out.size(), 21u);
}

// ---- decoding: values ----

TEST(MappingDecode, RoundTripEverything) {
  order o;
  o.id = UINT64_MAX;
  o.title = "t";
  o.items = {{"a", 1}, {"b", -2}};
  o.counts = {{"k", 3}};
  o.xs = {1.0, -0.0, 2.5};
  o.ns = {INT64_MIN, -1, 0, INT64_MAX};
  o.c = color::green;
  o.v = std::string("s");
  o.pair = {1, 65535};
  o.blob = {0, 255};
  o.flag = true;
  o.f = 0.25f;
  o.where = point{3, 4, std::string("here")};
  o.names = {{-5, "minus five"}};
  const bytes enc = cbor_fast::to_cbor(o);
  order q;
  cbor_fast::mapping_error err;
  ASSERT_EQ(cbor_fast::from_cbor(enc.data(), enc.size(), q, err), status::ok) << err.path;
  EXPECT_EQ(q.id, UINT64_MAX);
  EXPECT_EQ(q.title, "t");
  ASSERT_EQ(q.items.size(), 2u);
  EXPECT_EQ(q.items[1].name, "b");
  EXPECT_EQ(q.items[1].qty, -2);
  EXPECT_EQ(q.counts.at("k"), 3);
  ASSERT_EQ(q.xs.size(), 3u);
  EXPECT_TRUE(std::signbit(q.xs[1]));
  EXPECT_EQ(q.xs[2], 2.5);
  EXPECT_EQ(q.ns, o.ns);
  EXPECT_EQ(q.c, color::green);
  EXPECT_EQ(std::get<std::string>(q.v), "s");
  EXPECT_EQ(q.pair[1], 65535);
  EXPECT_EQ(q.blob, o.blob);
  EXPECT_TRUE(q.flag);
  EXPECT_EQ(q.f, 0.25f);
  ASSERT_TRUE(q.where.has_value());
  EXPECT_EQ(*q.where->label, "here");
  EXPECT_EQ(q.names.at(-5), "minus five");
  EXPECT_EQ(cbor_fast::to_cbor(q), enc);
}

TEST(MappingDecode, BorrowedStringsPointIntoTheInput) {
  const bytes in = from_hex(
      "a3"
      "6161"
      "01"
      "6173"
      "626869"
      "616f"
      "f6");
  small s;
  s.o = 5;
  ASSERT_EQ(cbor_fast::from_cbor(in.data(), in.size(), s), status::ok);
  EXPECT_EQ(s.a, 1u);
  EXPECT_EQ(static_cast<const void*>(s.s.data()), static_cast<const void*>(in.data() + 7));
  EXPECT_FALSE(s.o.has_value());  // null
}

TEST(MappingDecode, KeysAndIndefiniteForms) {
  cose_key k;
  cbor_fast::mapping_error err;
  // Indefinite map, keys in another order, an unknown key (3) with a nested value skipped.
  ASSERT_EQ(decode_hex("bf"
                       "21"
                       "4101"
                       "03"
                       "82a10102"
                       "9f01ff"
                       "01"
                       "02"
                       "ff",
                       k, err),
            status::ok)
      << err.path;
  EXPECT_EQ(k.kty, 2);
  EXPECT_FALSE(k.kid.has_value());
  ASSERT_EQ(k.x.size, 1u);
  EXPECT_EQ(k.x[0], 1);
  // Indefinite text into std::string, indefinite array into a vector.
  one<std::string> t;
  ASSERT_EQ(decode_hex("a16176"
                       "7f"
                       "6161"
                       "6162"
                       "ff",
                       t, err),
            status::ok);
  EXPECT_EQ(t.v, "ab");
  one<std::vector<item_t>> v;
  ASSERT_EQ(decode_hex("a16176"
                       "9f"
                       "a2646e616d6561786371747901"
                       "ff",
                       v, err),
            status::ok);
  ASSERT_EQ(v.v.size(), 1u);
  EXPECT_EQ(v.v[0].name, "x");
  // A string_view cannot borrow an indefinite string.
  one<std::string_view> sv;
  EXPECT_EQ(decode_hex("a16176"
                       "7f"
                       "6161"
                       "ff",
                       sv, err),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 3u);
  EXPECT_EQ(err.path, "v");
}

struct int_row {
  const char* name;
  const char* hex;  // the value
  status want;
};

template <class T>
void check_int_rows(const int_row* rows, size_t n, const std::vector<T>& values) {
  size_t ok_index = 0;
  for (size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(rows[i].name);
    one<T> x;
    cbor_fast::mapping_error err;
    const status s = decode_hex(std::string("a16176") + rows[i].hex, x, err);
    EXPECT_EQ(s, rows[i].want);
    if (s == status::ok) {
      EXPECT_EQ(x.v, values[ok_index++]);
    } else {
      EXPECT_EQ(err.offset, 3u);
      EXPECT_EQ(err.path, "v");
    }
  }
}

TEST(MappingDecode, TextKeysOfStdMapsInAnyOrderAndForm) {
  // Text keys built in their map node: in order, out of order (the new key
  // goes before the last one), an indefinite key, the empty key, a key of 24
  // bytes (past the short-string buffer); the same into an unordered_map.
  const char* hex =
      "a16176"
      "a6"
      "6162"
      "01"  // "b"
      "6163"
      "02"  // "c"
      "6161"
      "03"  // "a": before the last key
      "7f"
      "6178"
      "627979"
      "ff"
      "04"  // "xyy", indefinite
      "60"
      "05"  // ""
      "7818"
      "6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b"
      "06";  // 24 x "k"
  const std::map<std::string, int64_t> want = {{"b", 1},   {"c", 2}, {"a", 3},
                                               {"xyy", 4}, {"", 5},  {std::string(24, 'k'), 6}};
  cbor_fast::mapping_error err;
  one<std::map<std::string, int64_t>> m;
  m.v = {{"stale", 9}};  // replaced, not merged
  ASSERT_EQ(decode_hex(hex, m, err), status::ok) << err.path;
  EXPECT_EQ(m.v, want);
  one<std::unordered_map<std::string, int64_t>> u;
  ASSERT_EQ(decode_hex(hex, u, err), status::ok) << err.path;
  EXPECT_EQ((std::map<std::string, int64_t>(u.v.begin(), u.v.end())), want);
  // A duplicate out of order, and one whose first copy was indefinite: at
  // the second key, under it.
  EXPECT_EQ(decode_hex("a16176"
                       "a3"
                       "6162"
                       "01"
                       "6161"
                       "02"
                       "6162"
                       "03",
                       m, err),
            status::duplicate_key);
  EXPECT_EQ(err.offset, 10u);
  EXPECT_EQ(err.path, "v[\"b\"]");
  EXPECT_EQ(decode_hex("a16176"
                       "a2"
                       "7f"
                       "6161"
                       "ff"
                       "01"
                       "6161"
                       "02",
                       u, err),
            status::duplicate_key);
  EXPECT_EQ(err.offset, 9u);
  EXPECT_EQ(err.path, "v[\"a\"]");
  // Not a text key: a type mismatch at the key; a broken indefinite key: the
  // reader's status at its chunk; a bad value: under its key.
  EXPECT_EQ(decode_hex("a16176"
                       "a1"
                       "01"
                       "01",
                       m, err),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 4u);
  EXPECT_EQ(err.path, "v");
  EXPECT_EQ(decode_hex("a16176"
                       "a1"
                       "7f"
                       "01"
                       "ff"
                       "01",
                       m, err),
            status::chunk_type_mismatch);
  EXPECT_EQ(err.offset, 5u);
  EXPECT_EQ(decode_hex("a16176"
                       "a2"
                       "6161"
                       "01"
                       "6162"
                       "f5",
                       m, err),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 9u);
  EXPECT_EQ(err.path, "v[\"b\"]");
}

TEST(MappingDecode, IntegerRanges) {
  const int_row u8[] = {{"0", "00", status::ok},
                        {"23", "17", status::ok},
                        {"24", "1818", status::ok},
                        {"255", "18ff", status::ok},
                        {"256", "190100", status::out_of_range},
                        {"-1", "20", status::out_of_range},
                        {"text", "6130", status::type_mismatch},
                        {"float", "f93c00", status::type_mismatch}};
  check_int_rows<uint8_t>(u8, 8, {0, 23, 24, 255});
  const int_row i8[] = {{"127", "187f", status::ok},
                        {"128", "1880", status::out_of_range},
                        {"-128", "387f", status::ok},
                        {"-129", "3880", status::out_of_range}};
  check_int_rows<int8_t>(i8, 4, {127, -128});
  const int_row u32[] = {{"2^32-1", "1affffffff", status::ok},
                         {"2^32", "1b0000000100000000", status::out_of_range}};
  check_int_rows<uint32_t>(u32, 2, {UINT32_MAX});
  const int_row u64[] = {{"2^64-1", "1bffffffffffffffff", status::ok},
                         {"-1", "20", status::out_of_range}};
  check_int_rows<uint64_t>(u64, 2, {UINT64_MAX});
  const int_row i64[] = {{"2^63-1", "1b7fffffffffffffff", status::ok},
                         {"2^63", "1b8000000000000000", status::out_of_range},
                         {"-2^63", "3b7fffffffffffffff", status::ok},
                         {"-2^63-1", "3b8000000000000000", status::out_of_range},
                         {"-2^64", "3bffffffffffffffff", status::out_of_range}};
  check_int_rows<int64_t>(i64, 5, {INT64_MAX, INT64_MIN});
  const int_row e[] = {{"2", "02", status::ok}, {"256", "190100", status::out_of_range}};
  check_int_rows<color>(e, 2, {color::green});
}

TEST(MappingDecode, Floats) {
  one<double> d;
  cbor_fast::mapping_error err;
  ASSERT_EQ(decode_hex("a16176f93c00", d, err), status::ok);  // half 1.0
  EXPECT_EQ(d.v, 1.0);
  ASSERT_EQ(decode_hex("a16176f90001", d, err), status::ok);  // smallest half subnormal
  EXPECT_EQ(d.v, std::ldexp(1.0, -24));
  ASSERT_EQ(decode_hex("a16176f97e00", d, err), status::ok);  // NaN
  EXPECT_TRUE(std::isnan(d.v));
  ASSERT_EQ(decode_hex("a16176"
                       "1b0020000000000000",
                       d, err),
            status::ok);  // 2^53
  EXPECT_EQ(d.v, 9007199254740992.0);
  EXPECT_EQ(decode_hex("a16176"
                       "1b0020000000000001",
                       d, err),
            status::out_of_range);  // 2^53+1
  EXPECT_EQ(err.offset, 3u);
  one<float> f;
  ASSERT_EQ(decode_hex("a16176fb3ff8000000000000", f, err), status::ok);  // 1.5 as a double
  EXPECT_EQ(f.v, 1.5f);
  ASSERT_EQ(decode_hex("a16176fb7ff8000000000000", f, err), status::ok);  // NaN as a double
  EXPECT_TRUE(std::isnan(f.v));
  EXPECT_EQ(decode_hex("a16176fb3fb999999999999a", f, err), status::out_of_range);  // 0.1
  one<bool> b;
  EXPECT_EQ(decode_hex("a16176f6", b, err), status::type_mismatch);
}

// from_cbor(reader&) at the end of a full array whose next byte is a null's
// (f6 after [1]): an optional reads the end item, not that null, so it is a
// type_mismatch there as for an int, and the optional keeps its value.
TEST(MappingNumbers, OptionalAtAFullArraysEndIsNotTheNullAfterIt) {
  const bytes in = from_hex("8101f6");  // [1], then null
  cbor_fast::reader r(in.data(), in.size());
  cbor_fast::item it;
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.next(it), status::ok);  // 1: the array's end comes next
  std::optional<int> o = 42;
  cbor_fast::error_info err;
  EXPECT_EQ(cbor_fast::from_cbor(r, o, &err), status::type_mismatch);
  EXPECT_EQ(err.offset, 2u);
  EXPECT_EQ(o, 42);
  cbor_fast::reader r2(in.data(), in.size());
  ASSERT_EQ(r2.next(it), status::ok);
  ASSERT_EQ(r2.next(it), status::ok);
  int x = 42;
  EXPECT_EQ(cbor_fast::from_cbor(r2, x, &err), status::type_mismatch);
  EXPECT_EQ(err.offset, 2u);
  // At the top level the null is the item: the optional is emptied.
  cbor_fast::reader r3(in.data() + 2, 1);
  EXPECT_EQ(cbor_fast::from_cbor(r3, o, &err), status::ok);
  EXPECT_FALSE(o.has_value());
}

// std::vector<bool> (whose elements are proxies) both ways, definite and
// indefinite; a non-boolean element is a type_mismatch at its index.
TEST(MappingNumbers, VectorOfBool) {
  const std::vector<bool> v{true, false, true};
  EXPECT_EQ(to_hex(cbor_fast::to_cbor(v)), "83f5f4f5");
  std::vector<bool> back;
  const bytes in = from_hex("83f5f4f5");
  ASSERT_EQ(cbor_fast::from_cbor(in.data(), in.size(), back), status::ok);
  EXPECT_EQ(back, v);
  const bytes indefinite = from_hex("9ff4f5ff");
  ASSERT_EQ(cbor_fast::from_cbor(indefinite.data(), indefinite.size(), back), status::ok);
  EXPECT_EQ(back, (std::vector<bool>{false, true}));
  const bytes bad = from_hex("82f501");
  cbor_fast::mapping_error err;
  EXPECT_EQ(cbor_fast::from_cbor(bad.data(), bad.size(), back, err), status::type_mismatch);
  EXPECT_EQ(err.offset, 2u);
  EXPECT_EQ(err.path, "[1]");
}

// A float member's NaN keeps its bits both ways, signalling ones too (a
// hardware conversion sets the quiet bit); a double NaN with payload bits a
// float cannot hold is out_of_range, as any other inexact double.
TEST(MappingNumbers, FloatNaNPayloadsBitForBit) {
  struct row {
    const char* name;
    const char* wire;   // the value after a16176
    uint32_t bits;      // the float's bits
    const char* again;  // to_cbor's value bytes: the shortest width holding it
  };
  const row rows[] = {
      {"single sNaN", "fa7f800001", 0x7f800001u, "fa7f800001"},
      {"single sNaN, top payload bit", "fa7fa00000", 0x7fa00000u, "f97d00"},
      {"negative single NaN, all payload bits", "faffffffff", 0xffffffffu, "faffffffff"},
      {"half sNaN", "f97c01", 0x7f802000u, "f97c01"},
      {"half quiet NaN", "f97e00", 0x7fc00000u, "f97e00"},
      {"double sNaN a float holds", "fb7ff0000020000000", 0x7f800001u, "fa7f800001"},
      {"double quiet NaN", "fb7ff8000000000000", 0x7fc00000u, "f97e00"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.name);
    one<float> f;
    cbor_fast::mapping_error err;
    ASSERT_EQ(decode_hex(std::string("a16176") + r.wire, f, err), status::ok);
    uint32_t got;
    std::memcpy(&got, &f.v, sizeof got);
    EXPECT_EQ(got, r.bits);
    EXPECT_EQ(to_hex(cbor_fast::to_cbor(f)), std::string("a16176") + r.again);
  }
  one<float> f;
  cbor_fast::mapping_error err;
  // Payload bit 0 of a double: below a float's 23 bits.
  EXPECT_EQ(decode_hex("a16176fb7ff8000000000001", f, err), status::out_of_range);
  EXPECT_EQ(err.offset, 3u);
  EXPECT_EQ(decode_hex("a16176fb7ff0000010000000", f, err), status::out_of_range);
}

// ---- decoding: rules, errors, paths ----

TEST(MappingErrors, PathOfANestedMember) {
  // items[3].name is an integer.
  order o;
  o.items = {{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}};
  bytes enc = cbor_fast::to_cbor(o);
  const bytes needle = from_hex(
      "646e616d65"
      "6164");  // "name": "d"
  auto at = std::search(enc.begin(), enc.end(), needle.begin(), needle.end());
  ASSERT_NE(at, enc.end());
  const size_t value_at = size_t(at - enc.begin()) + 5;
  enc[value_at] = 0x18;  // 18 64: the unsigned integer 100
  order q;
  cbor_fast::mapping_error err;
  EXPECT_EQ(cbor_fast::from_cbor(enc.data(), enc.size(), q, err), status::type_mismatch);
  EXPECT_EQ(err.offset, value_at);
  EXPECT_EQ(err.path, "items[3].name");
  // The error_info overload gives the same status and offset.
  cbor_fast::error_info info;
  EXPECT_EQ(cbor_fast::from_cbor(enc.data(), enc.size(), q, &info), status::type_mismatch);
  EXPECT_EQ(info.offset, value_at);
}

TEST(MappingErrors, MissingDuplicateUnknown) {
  small s;
  cbor_fast::mapping_error err;
  // Missing "s" (not optional): at the map's head.
  EXPECT_EQ(decode_hex("a1616101", s, err), status::type_mismatch);
  EXPECT_EQ(err.offset, 0u);
  EXPECT_EQ(err.path, "s");
  // Missing optional "o": fine, and reset.
  s.o = 3;
  ASSERT_EQ(decode_hex("a2616101617360", s, err), status::ok);
  EXPECT_FALSE(s.o.has_value());
  EXPECT_TRUE(err.path.empty());
  // Duplicate "a": at the second key.
  EXPECT_EQ(decode_hex("a3616101617360616102", s, err), status::duplicate_key);
  EXPECT_EQ(err.offset, 7u);
  EXPECT_EQ(err.path, "a");
  // Unknown key skipped, or refused.
  const bytes unknown = from_hex(
      "a3"
      "6178"
      "a16178820001"
      "6161"
      "01"
      "6173"
      "60");
  ASSERT_EQ(cbor_fast::from_cbor(unknown.data(), unknown.size(), s, err), status::ok) << err.path;
  EXPECT_EQ(s.a, 1u);
  cbor_fast::mapping_options strict;
  strict.reject_unknown_keys = true;
  EXPECT_EQ(cbor_fast::from_cbor(unknown.data(), unknown.size(), s, err, strict),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 1u);
  EXPECT_EQ(err.path, "x");
  // Integer keys: unknown key refused with its number in the path.
  cose_key k;
  EXPECT_EQ(decode_hex("a2"
                       "0102"
                       "26"
                       "00",
                       k, err, strict),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 3u);
  EXPECT_EQ(err.path, "[-7]");
  // Map entries: a duplicate key, and a bad value under a key.
  one<std::map<std::string, int32_t>> m;
  EXPECT_EQ(decode_hex("a16176"
                       "a2"
                       "616b01"
                       "616b02",
                       m, err),
            status::duplicate_key);
  EXPECT_EQ(err.offset, 7u);
  EXPECT_EQ(err.path, "v[\"k\"]");
  one<std::map<int32_t, int8_t>> mi;
  EXPECT_EQ(decode_hex("a16176"
                       "a1"
                       "24"
                       "190100",
                       mi, err),
            status::out_of_range);
  EXPECT_EQ(err.offset, 5u);
  EXPECT_EQ(err.path, "v[-5]");
}

// An unknown key that is an indefinite-length text string is read whole to
// be matched: then only its value is left to skip. (It used to skip the rest
// of the map and the item after it, and return end: no member decoded.)
TEST(MappingErrors, UnknownIndefiniteTextKeySkipsOnlyItsValue) {
  small s;
  cbor_fast::mapping_error err;
  struct row {
    const char* name;
    const char* hex;
  };
  const row rows[] = {
      {"scalar value, definite map", "a3 7f6178ff 01 6161 02 6173 6162"},
      {"nested value, definite map", "a3 7f6178ff 82 01 a1 6179 9f 00 ff 6161 02 6173 6162"},
      {"two chunks, indefinite map", "bf 7f 6178 6179 ff 01 6161 02 6173 6162 ff"},
      {"unknown key last", "a3 6161 02 6173 6162 7f6178ff 8100"},
  };
  for (const row& r : rows) {
    s = small{};
    ASSERT_EQ(decode_hex(r.hex, s, err), status::ok) << r.name << ": " << err.path;
    EXPECT_EQ(s.a, 2u) << r.name;
    EXPECT_EQ(s.s, "b") << r.name;
  }
  // Refused with reject_unknown_keys: the joined key in the path, at its head.
  cbor_fast::mapping_options strict;
  strict.reject_unknown_keys = true;
  EXPECT_EQ(decode_hex("a3 6161 02 7f 6178 6179 ff 01 6173 6162", s, err, strict),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 4u);
  EXPECT_EQ(err.path, "xy");
  // In a sequence read by one reader: each record whole, then the end.
  const bytes in = from_hex("a3 7f6178ff 01 6161 02 6173 6162  a2 6161 03 6173 6163");
  cbor_fast::reader rd(in.data(), in.size());
  ASSERT_EQ(cbor_fast::from_cbor(rd, s), status::ok);
  EXPECT_EQ(s.a, 2u);
  EXPECT_EQ(rd.offset(), 13u);
  ASSERT_EQ(cbor_fast::from_cbor(rd, s), status::ok);
  EXPECT_EQ(s.a, 3u);
  EXPECT_EQ(s.s, "c");
  EXPECT_EQ(cbor_fast::from_cbor(rd, s), status::end);
  EXPECT_EQ(rd.offset(), in.size());
}

TEST(MappingErrors, ArraysAndShapes) {
  point p;
  cbor_fast::mapping_error err;
  ASSERT_EQ(decode_hex("820102", p, err), status::ok);  // trailing optional left out
  EXPECT_EQ(p.y, 2);
  EXPECT_FALSE(p.label.has_value());
  EXPECT_EQ(decode_hex("8101", p, err), status::type_mismatch);
  EXPECT_EQ(err.path, "y");
  ASSERT_EQ(decode_hex("840102f605", p, err), status::ok);  // an extra element skipped
  cbor_fast::mapping_options strict;
  strict.reject_unknown_keys = true;
  EXPECT_EQ(decode_hex("840102f605", p, err, strict), status::type_mismatch);
  EXPECT_EQ(err.offset, 4u);
  EXPECT_EQ(err.path, "[3]");
  EXPECT_EQ(decode_hex("a0", p, err), status::type_mismatch);  // a map for an array
  EXPECT_EQ(err.offset, 0u);
  one<std::array<int, 2>> a;
  EXPECT_EQ(decode_hex("a16176"
                       "83010203",
                       a, err),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 3u);
  ASSERT_EQ(decode_hex("a16176"
                       "9f0102ff",
                       a, err),
            status::ok);
  EXPECT_EQ(a.v[1], 2);
  // Trailing bytes after the item, and empty input.
  EXPECT_EQ(decode_hex("82010200", p, err), status::trailing_bytes);
  EXPECT_EQ(err.offset, 3u);
  EXPECT_EQ(cbor_fast::from_cbor(nullptr, 0, p), status::end);
}

TEST(MappingErrors, DeepInputIsATypeMismatchNotRecursion) {
  // 100000 nested arrays where an int vector's element is due: the first
  // nested array is the mismatch; the rest is never looked at.
  bytes in = from_hex("a16176");
  in.insert(in.end(), 100000, 0x81);
  in.push_back(0x00);
  one<std::vector<int32_t>> v;
  cbor_fast::mapping_error err;
  EXPECT_EQ(cbor_fast::from_cbor(in.data(), in.size(), v, err), status::type_mismatch);
  EXPECT_EQ(err.offset, 4u);
  EXPECT_EQ(err.path, "v[0]");
  // A recursive type recurses per level only up to max_depth.
  bytes deep;
  for (int i = 0; i < 300; ++i) {
    const bytes lvl = from_hex("a2617600646b69647381");
    deep.insert(deep.end(), lvl.begin(), lvl.end());
  }
  const bytes leaf = from_hex("a2617600646b69647380");
  deep.insert(deep.end(), leaf.begin(), leaf.end());
  tree t;
  cbor_fast::mapping_options opt;
  opt.reader.max_depth = 64;
  EXPECT_EQ(cbor_fast::from_cbor(deep.data(), deep.size(), t, err, opt), status::depth_exceeded);
  opt.reader.max_depth = 1000;
  EXPECT_EQ(cbor_fast::from_cbor(deep.data(), deep.size(), t, err, opt), status::ok);
}

/// Frees a deep tree without the recursion of ~tree() (as deep as the tree).
void dismantle(tree& t) {
  std::vector<tree> pending;
  pending.swap(t.kids);
  while (!pending.empty()) {
    tree last = std::move(pending.back());
    pending.pop_back();
    for (tree& k : last.kids) pending.push_back(std::move(k));
    last.kids.clear();
  }
}

/// `levels` nested trees {"v": 0, "kids": [...]}, each level 10 bytes with the
/// kids array's head at 9 (mod 10), the innermost kids empty.
bytes deep_tree_input(size_t levels) {
  bytes deep;
  deep.reserve(levels * 10);
  const bytes lvl = from_hex("a2617600646b69647381");
  for (size_t i = 0; i + 1 < levels; ++i) deep.insert(deep.end(), lvl.begin(), lvl.end());
  const bytes leaf = from_hex("a2617600646b69647380");
  deep.insert(deep.end(), leaf.begin(), leaf.end());
  return deep;
}

/// from_cbor() and to_cbor() of 200,000 nested trees with max_depth lifted:
/// the recursion stops with depth_exceeded where the thread's stack has 64 KiB
/// left, at the head of a level's kids array (which level depends on the
/// build's frame sizes and the stack), and no level stored past it.
void deep_tree_round(const char* where) {
  SCOPED_TRACE(where);
  const bytes deep = deep_tree_input(200000);
  tree t;
  cbor_fast::mapping_options opt;
  opt.reader.max_depth = UINT32_MAX;
  cbor_fast::mapping_error err;
  EXPECT_EQ(cbor_fast::from_cbor(deep.data(), deep.size(), t, err, opt), status::depth_exceeded);
  EXPECT_EQ(err.code, status::depth_exceeded);
  EXPECT_EQ(err.offset % 10, 9u);
  EXPECT_GE(err.offset, 10u * 20 + 9);  // not refused within the first levels
  EXPECT_LT(err.offset, deep.size());
  EXPECT_EQ(deep[err.offset], 0x81);
  // The levels before it were stored, down to the one whose kids failed.
  size_t stored = 0;
  for (const tree* n = &t; !n->kids.empty(); n = &n->kids[0]) ++stored;
  EXPECT_EQ(stored, (err.offset - 9) / 10);
  dismantle(t);
  // A value built as deep: to_cbor() stops the same way.
  tree root;
  tree* cur = &root;
  for (int i = 0; i < 200000; ++i) {
    cur->kids.emplace_back();
    cur = &cur->kids.back();
  }
  cbor_fast::writer w;
  EXPECT_EQ(cbor_fast::to_cbor(root, w), status::depth_exceeded);
  EXPECT_TRUE(cbor_fast::to_cbor(root).empty());
  // One writer level further down, each tree's kids at the other parity of
  // depth: in a vector, in a struct, and inside an array the caller opened.
  std::vector<tree> in_vector(1);
  std::swap(in_vector[0], root);
  EXPECT_EQ(cbor_fast::to_cbor(in_vector, w), status::depth_exceeded);
  forest in_struct;
  std::swap(in_struct.root, in_vector[0]);
  EXPECT_EQ(cbor_fast::to_cbor(in_struct, w), status::depth_exceeded);
  cbor_fast::writer opened;
  ASSERT_EQ(opened.begin_array(1), status::ok);
  EXPECT_EQ(cbor_fast::to_cbor(in_struct.root, opened), status::depth_exceeded);
  dismantle(in_struct.root);
}

TEST(MappingErrors, RecursiveTypesStopBeforeTheStackEnds) {
  // Before: from_cbor() overflowed an 8 MiB main thread near 35,000 levels
  // (-O2) and a 256 KiB one near 1,100; to_cbor() had no bound.
  deep_tree_round("this thread");
#if defined(__linux__)
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, size_t(256) << 10), 0);
  pthread_t th;
  ASSERT_EQ(pthread_create(
                &th, &attr,
                [](void*) -> void* {
                  deep_tree_round("a 256 KiB thread");
                  return nullptr;
                },
                nullptr),
            0);
  pthread_join(th, nullptr);
  pthread_attr_destroy(&attr);
#endif
  // Shallow recursive values are untouched: 300 levels both ways.
  const bytes shallow = deep_tree_input(300);
  tree t;
  cbor_fast::mapping_options opt;
  opt.reader.max_depth = 1000;
  ASSERT_EQ(cbor_fast::from_cbor(shallow.data(), shallow.size(), t, opt), status::ok);
  EXPECT_EQ(cbor_fast::to_cbor(t), shallow);
}

TEST(MappingErrors, ReaderLimitsAndStrictChecksApply) {
  cbor_fast::mapping_error err;
  cbor_fast::mapping_options opt;
  opt.reader.validate_utf8 = true;
  one<std::string_view> s;
  EXPECT_EQ(decode_hex("a16176"
                       "62c328",
                       s, err, opt),
            status::invalid_utf8);
  EXPECT_EQ(err.offset, 4u);  // the reader's offset: the string's content
  opt = {};
  opt.reader.deterministic = true;
  one<uint32_t> u;
  EXPECT_EQ(decode_hex("a16176"
                       "1801",
                       u, err, opt),
            status::non_preferred_encoding);
  EXPECT_EQ(err.offset, 3u);
  opt = {};
  opt.reader.max_string_length = 2;
  EXPECT_EQ(decode_hex("a16176"
                       "63616263",
                       s, err, opt),
            status::string_too_long);
  // A length bomb: 2^32 items declared, 0 present: over the default
  // container limit (2^24) at its head, and truncated there once lifted.
  one<std::vector<item_t>> v;
  EXPECT_EQ(decode_hex("a16176"
                       "9b0000000100000000",
                       v, err),
            status::container_too_large);
  EXPECT_EQ(err.offset, 3u);
  EXPECT_EQ(v.v.capacity(), 0u);
  opt = {};
  opt.reader.max_container_items = UINT64_MAX;
  EXPECT_EQ(decode_hex("a16176"
                       "9b0000000100000000",
                       v, err, opt),
            status::truncated);
  EXPECT_EQ(err.offset, 3u);
  EXPECT_EQ(v.v.capacity(), 0u);
  // Malformed input inside a member.
  EXPECT_EQ(decode_hex("a16176"
                       "1c",
                       u, err),
            status::reserved_additional_info);
  EXPECT_EQ(err.offset, 3u);
}

TEST(MappingDecode, VectorsOfNumbersAcceptTypedArrays) {
  one<std::vector<double>> d;
  cbor_fast::mapping_error err;
  // Mixed widths and an integer.
  ASSERT_EQ(decode_hex("a16176"
                       "84"
                       "f93e00"
                       "fa3fc00000"
                       "fb3ff8000000000000"
                       "02",
                       d, err),
            status::ok);
  EXPECT_EQ(d.v, (std::vector<double>{1.5, 1.5, 1.5, 2.0}));
  // Tag 86: float64 little endian; tag 82: big endian.
  ASSERT_EQ(decode_hex("a16176"
                       "d856"
                       "50"
                       "000000000000f03f"
                       "0000000000000040",
                       d, err),
            status::ok);
  EXPECT_EQ(d.v, (std::vector<double>{1.0, 2.0}));
  ASSERT_EQ(decode_hex("a16176"
                       "d852"
                       "48"
                       "3ff8000000000000",
                       d, err),
            status::ok);
  EXPECT_EQ(d.v, (std::vector<double>{1.5}));
  // A text element: the offset of the element, the path of the vector.
  EXPECT_EQ(decode_hex("a16176"
                       "82"
                       "01"
                       "6161",
                       d, err),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 5u);
  EXPECT_EQ(err.path, "v");
  one<std::vector<int64_t>> n;
  EXPECT_EQ(decode_hex("a16176"
                       "82"
                       "01"
                       "3b8000000000000000",
                       n, err),
            status::out_of_range);
  EXPECT_EQ(err.offset, 5u);
  // Empty and 65536-element vectors both ways.
  ASSERT_EQ(decode_hex("a16176"
                       "80",
                       n, err),
            status::ok);
  EXPECT_TRUE(n.v.empty());
  one<std::vector<uint64_t>> big;
  for (uint64_t i = 0; i < 65536; ++i) big.v.push_back(i * 977);
  const bytes enc = cbor_fast::to_cbor(big);
  EXPECT_EQ(to_hex(bytes(enc.begin(), enc.begin() + 8)),
            "a16176"
            "9a00010000");
  one<std::vector<uint64_t>> back;
  ASSERT_EQ(cbor_fast::from_cbor(enc.data(), enc.size(), back), status::ok);
  EXPECT_EQ(back.v, big.v);
  one<std::vector<item_t>> many;
  many.v.assign(65536, item_t{"n", 7});
  const bytes enc2 = cbor_fast::to_cbor(many);
  one<std::vector<item_t>> back2;
  ASSERT_EQ(cbor_fast::from_cbor(enc2.data(), enc2.size(), back2), status::ok);
  ASSERT_EQ(back2.v.size(), 65536u);
  EXPECT_EQ(back2.v[65535].qty, 7);
}

// A variant's alternative is chosen by the item, not only its major type:
// major type 7 goes to bool only for false/true and to a float only for a
// float; an integer to the first integer type that holds it. What to_cbor
// writes from a variant decodes back to the same alternative (a double
// before a bool took true: type_mismatch; an uint8_t before an int64_t took
// 300: out_of_range). Nothing that holds the value: the first that takes the
// major type reports why.
TEST(MappingDecode, VariantsChooseByTheItem) {
  cbor_fast::mapping_error err;
  one<std::variant<double, bool>> db;
  for (const auto& x : {std::variant<double, bool>(true), std::variant<double, bool>(1.5),
                        std::variant<double, bool>(false)}) {
    db.v = x;
    const bytes enc = cbor_fast::to_cbor(db);
    one<std::variant<double, bool>> back;
    ASSERT_EQ(cbor_fast::from_cbor(enc.data(), enc.size(), back, err), status::ok) << err.path;
    EXPECT_EQ(back.v, x);
  }
  one<std::variant<uint8_t, int64_t, uint64_t>> ints;
  struct choice {
    const char* hex;
    size_t index;
    uint64_t magnitude;
  };
  for (const choice& r : {choice{"18ff", 0, 255}, choice{"190100", 1, 256}, choice{"20", 1, 1},
                          choice{"1b7fffffffffffffff", 1, INT64_MAX},
                          choice{"1b8000000000000000", 2, uint64_t(INT64_MAX) + 1},
                          choice{"3b7fffffffffffffff", 1, uint64_t(INT64_MAX) + 1}}) {
    SCOPED_TRACE(r.hex);
    ASSERT_EQ(decode_hex(std::string("a16176") + r.hex, ints, err), status::ok) << err.path;
    ASSERT_EQ(ints.v.index(), r.index);
    if (r.index == 0) {
      EXPECT_EQ(std::get<0>(ints.v), r.magnitude);
    } else if (r.index == 1) {
      const bool negative = r.hex[0] == '3' || r.hex[0] == '2';
      EXPECT_EQ(std::get<1>(ints.v),
                negative ? -1 - int64_t(r.magnitude - 1) : int64_t(r.magnitude));
    } else {
      EXPECT_EQ(std::get<2>(ints.v), r.magnitude);
    }
  }
  // Below int64: no alternative holds it; the first integer type says so.
  EXPECT_EQ(decode_hex("a16176 3b8000000000000000", ints, err), status::out_of_range);
  EXPECT_EQ(err.offset, 3u);
  // undefined: neither bool nor double.
  EXPECT_EQ(decode_hex("a16176 f7", db, err), status::type_mismatch);
  EXPECT_EQ(err.offset, 3u);
  // Truncated argument: decided by the major type, then the reader's error.
  EXPECT_EQ(decode_hex("a16176 19 01", ints, err), status::truncated);
}

// A NaN key cannot be held by a C++ map (it equals no key, itself included):
// out_of_range at the key, not a false duplicate_key.
TEST(MappingErrors, NaNMapKeysIntoFloatingKeys) {
  cbor_fast::mapping_error err;
  one<std::map<double, int>> m;
  ASSERT_EQ(decode_hex("a16176 a2 f93c00 01 f93e00 02", m, err), status::ok);
  EXPECT_EQ(m.v.size(), 2u);
  EXPECT_EQ(decode_hex("a16176 a2 f93c00 01 f97e00 02", m, err), status::out_of_range);
  EXPECT_EQ(err.offset, 8u);
  EXPECT_EQ(err.path, "v[\"NaN\"]");
  one<std::unordered_map<float, int>> u;
  EXPECT_EQ(decode_hex("a16176 a1 fb7ff8000000000000 01", u, err), status::out_of_range);
  EXPECT_EQ(err.offset, 4u);
  // A repeated key is still the duplicate it is.
  EXPECT_EQ(decode_hex("a16176 a2 f93c00 01 fb3ff0000000000000 02", m, err), status::duplicate_key);
  EXPECT_EQ(err.offset, 8u);
}

TEST(MappingDecode, VariantsAndHooks) {
  one<std::variant<std::monostate, int64_t, std::string, std::vector<int32_t>>> v;
  cbor_fast::mapping_error err;
  ASSERT_EQ(decode_hex("a16176"
                       "20",
                       v, err),
            status::ok);
  EXPECT_EQ(std::get<int64_t>(v.v), -1);
  ASSERT_EQ(decode_hex("a16176"
                       "6161",
                       v, err),
            status::ok);
  EXPECT_EQ(std::get<std::string>(v.v), "a");
  ASSERT_EQ(decode_hex("a16176"
                       "820102",
                       v, err),
            status::ok);
  EXPECT_EQ(std::get<3>(v.v).size(), 2u);
  ASSERT_EQ(decode_hex("a16176"
                       "f6",
                       v, err),
            status::ok);
  EXPECT_EQ(v.v.index(), 0u);
  EXPECT_EQ(decode_hex("a16176"
                       "f5",
                       v, err),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 3u);
  weather w;
  ASSERT_EQ(decode_hex("a2"
                       "6174"
                       "d903e8"
                       "f93e00"
                       "6468697374"
                       "81"
                       "d903e8"
                       "f9c000",
                       w, err),
            status::ok);
  EXPECT_EQ(w.t.deg, 1.5);
  ASSERT_EQ(w.hist.size(), 1u);
  EXPECT_EQ(w.hist[0].deg, -2.0);
  // The hook's own failure: its status at the item's offset, with the path.
  EXPECT_EQ(decode_hex("a2"
                       "6174"
                       "d903e8"
                       "f93e00"
                       "6468697374"
                       "81"
                       "d903e9"
                       "f9c000",
                       w, err),
            status::type_mismatch);
  EXPECT_EQ(err.offset, 15u);
  EXPECT_EQ(err.path, "hist[0]");
}

TEST(MappingDecode, FromAReaderInASequence) {
  const bytes in = from_hex(
      "820102"
      "820304"
      "01");
  cbor_fast::reader r(in.data(), in.size());
  point p;
  ASSERT_EQ(cbor_fast::from_cbor(r, p), status::ok);
  EXPECT_EQ(p.x, 1);
  ASSERT_EQ(cbor_fast::from_cbor(r, p), status::ok);
  EXPECT_EQ(p.y, 4);
  cbor_fast::error_info info;
  EXPECT_EQ(cbor_fast::from_cbor(r, p, &info), status::type_mismatch);
  EXPECT_EQ(info.offset, 6u);
  EXPECT_EQ(r.error().code, status::ok);  // our mismatch is not the reader's error
  EXPECT_EQ(cbor_fast::from_cbor(r, p), status::end);
}

}  // namespace
