// reader::read_array() (src/reader/bulk.cpp) and RFC 8746 typed arrays
// (typed_array.hpp, src/reader/typed_array.cpp): values, statuses, offsets,
// and the reader's state afterwards.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "cbor_fast/document.hpp"
#include "cbor_fast/typed_array.hpp"
#include "conformance/test_util.hpp"
#include "reader/typed_convert.hpp"

namespace {

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::reader;
using cbor_fast::status;
using cbor_fast::typed_array;
using cbor_fast::typed_element;
using cbor_fast_test::bytes;
using cbor_fast_test::from_hex;
using cbor_fast_test::to_hex;

TEST(BulkRead, EveryHeadWidth) {
  // 0, 23, 24, 255, 256, 65535, 65536, 2^32-1, 2^32, 2^64-1
  const bytes in = from_hex(
      "8a"
      "00"
      "17"
      "1818"
      "18ff"
      "190100"
      "19ffff"
      "1a00010000"
      "1affffffff"
      "1b0000000100000000"
      "1bffffffffffffffff"
      "f6");
  reader r(in.data(), in.size());
  uint64_t out[10];
  size_t n = 0;
  ASSERT_EQ(r.read_array(out, 10, &n), status::ok);
  ASSERT_EQ(n, 10u);
  const uint64_t want[10] = {
      0, 23, 24, 255, 256, 65535, 65536, 0xffffffffu, uint64_t(1) << 32, UINT64_MAX};
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(out[i], want[i]) << i;
  // The reader goes on after the array.
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::null);
  EXPECT_EQ(it.offset, in.size() - 1);
  EXPECT_EQ(r.next(it), status::end);
  EXPECT_EQ(r.items(), 12u);
}

TEST(BulkRead, SignedBoundaries) {
  const bytes in = from_hex(
      "84"
      "3b7fffffffffffffff"
      "20"
      "00"
      "1b7fffffffffffffff");
  reader r(in.data(), in.size());
  std::vector<int64_t> v;
  ASSERT_EQ(r.read_array(v), status::ok);
  EXPECT_EQ(v, (std::vector<int64_t>{INT64_MIN, -1, 0, INT64_MAX}));
  struct row {
    const char* name;
    const char* hex;
    size_t offset;
  };
  const row bad[] = {{"-2^63-1", "82 00 3b8000000000000000", 2},
                     {"-2^64", "82 00 3bffffffffffffffff", 2},
                     {"2^63", "81 1b8000000000000000", 1}};
  for (const row& b : bad) {
    SCOPED_TRACE(b.name);
    const bytes x = from_hex(b.hex);
    reader rx(x.data(), x.size());
    int64_t o[2];
    size_t n = 0;
    EXPECT_EQ(rx.read_array(o, 2, &n), status::out_of_range);
    EXPECT_EQ(rx.error().code, status::out_of_range);  // sticky
    EXPECT_EQ(rx.error().offset, b.offset);
    item it;
    EXPECT_EQ(rx.next(it), status::out_of_range);
  }
  // Negative into uint64_t.
  const bytes neg = from_hex(
      "8220"
      "00");
  reader rn(neg.data(), neg.size());
  uint64_t u[2];
  size_t n = 0;
  EXPECT_EQ(rn.read_array(u, 2, &n), status::out_of_range);
  EXPECT_EQ(rn.error().offset, 1u);
}

TEST(BulkRead, Floats) {
  // half 1.0, half smallest subnormal, half NaN, single 1.5, double 0.1, int 3, -2^53
  const bytes in = from_hex(
      "87"
      "f93c00"
      "f90001"
      "f97e00"
      "fa3fc00000"
      "fb3fb999999999999a"
      "03"
      "3b001fffffffffffff");
  reader r(in.data(), in.size());
  double d[7];
  size_t n = 0;
  ASSERT_EQ(r.read_array(d, 7, &n), status::ok);
  ASSERT_EQ(n, 7u);
  EXPECT_EQ(d[0], 1.0);
  EXPECT_EQ(d[1], std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isnan(d[2]));
  EXPECT_EQ(d[3], 1.5);
  EXPECT_EQ(d[4], 0.1);
  EXPECT_EQ(d[5], 3.0);
  EXPECT_EQ(d[6], -9007199254740992.0);
  // 2^53 + 1 has no double.
  const bytes inexact = from_hex(
      "81"
      "1b0020000000000001");
  reader ri(inexact.data(), inexact.size());
  EXPECT_EQ(ri.read_array(d, 7, &n), status::out_of_range);
  EXPECT_EQ(ri.error().offset, 1u);
  // Floats into integers: a type mismatch at the element.
  const bytes f = from_hex(
      "82"
      "01"
      "f93c00");
  reader rf(f.data(), f.size());
  uint64_t u[2];
  EXPECT_EQ(rf.read_array(u, 2, &n), status::type_mismatch);
  EXPECT_EQ(rf.error().offset, 2u);
}

// Negative integers below -2^63 into doubles: exact ones are taken, as a
// double member of a mapped struct takes them; the rest are out_of_range at
// the element. The reader's bulk path, its per-item path (after a float)
// and document nodes agree.
TEST(BulkRead, NegativeIntegersBelowInt64IntoDoubles) {
  struct row {
    const char* name;
    const char* element;
    status want;
    double value;
  };
  const row rows[] = {
      {"-2^64 (3b ffff...)", "3bffffffffffffffff", status::ok, -18446744073709551616.0},
      {"-(2^63 + 2048), exact", "3b80000000000007ff", status::ok, -9223372036854777856.0},
      {"-2^63 - 1 (first below int64), inexact", "3b8000000000000000", status::out_of_range, 0},
      {"-(2^64 - 1), inexact", "3bfffffffffffffffe", status::out_of_range, 0},
      {"-2^63 (int64 min)", "3b7fffffffffffffff", status::ok, -9223372036854775808.0},
  };
  for (const row& rw : rows) {
    SCOPED_TRACE(rw.name);
    for (const char* before : {"", "f93c00"}) {  // alone, or after a float
      const size_t first = before[0] == '\0' ? 0 : 1;
      const bytes in = from_hex(std::string(first ? "82" : "81") + before + rw.element);
      const size_t at = 1 + (first ? 3 : 0);
      double d[2] = {0, 0};
      size_t n = 0;
      reader r(in.data(), in.size());
      ASSERT_EQ(r.read_array(d, 2, &n), rw.want);
      if (rw.want == status::ok) {
        EXPECT_EQ(d[first], rw.value);
      } else {
        EXPECT_EQ(r.error().offset, at);
      }
      cbor_fast::document doc;
      ASSERT_EQ(cbor_fast::decode(in.data(), in.size(), doc), status::ok);
      cbor_fast::error_info err;
      double e[2] = {0, 0};
      ASSERT_EQ(cbor_fast::read_array(doc.root(), e, 2, &n, &err), rw.want);
      if (rw.want == status::ok) {
        EXPECT_EQ(e[first], rw.value);
      } else {
        EXPECT_EQ(err.offset, at);
      }
      // Integer element types refuse all of them but int64's minimum.
      int64_t v[2];
      reader ri(in.data(), in.size());
      EXPECT_EQ(ri.read_array(v, 2, &n), first ? status::type_mismatch
                                         : rw.value == -9223372036854775808.0
                                             ? status::ok
                                             : status::out_of_range);
    }
  }
}

TEST(BulkRead, NotAnArrayReadsNothing) {
  const bytes in = from_hex(
      "01"
      "83010203");
  reader r(in.data(), in.size());
  uint64_t out[2];
  size_t n = 7;
  EXPECT_EQ(r.read_array(out, 2, &n), status::type_mismatch);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(r.offset(), 0u);
  EXPECT_EQ(r.error().code, status::ok);
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.value(), 1u);
  // Too small a buffer: the count needed, nothing read.
  EXPECT_EQ(r.read_array(out, 2, &n), status::buffer_too_small);
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(r.offset(), 1u);
  uint64_t three[3];
  ASSERT_EQ(r.read_array(three, 3, &n), status::ok);
  EXPECT_EQ(three[2], 3u);
  EXPECT_EQ(r.read_array(three, 3, &n), status::end);
  EXPECT_EQ(r.read_array(three, 3, nullptr), status::invalid_argument);
}

TEST(BulkRead, ElementErrorsAreStickyAtTheElement) {
  struct row {
    const char* name;
    const char* hex;
    status want;
    size_t offset;
  };
  const row rows[] = {
      {"text element", "83 01 6161 02", status::type_mismatch, 2},
      {"nested array", "82 01 8100", status::type_mismatch, 2},
      {"reserved ai", "82 01 1c", status::reserved_additional_info, 2},
      {"truncated element", "82 01 19 01", status::truncated, 2},
      {"input ends before an element", "83 00 1a80f7fc7d", status::truncated, 7},
      {"truncated array", "83 01 02", status::truncated, 0},
      {"count past the input", "9a 00010000 00", status::truncated, 0},
      // 2^32: over the default container limit (2^24), checked first.
      {"count over the container limit", "9b 0000000100000000 00", status::container_too_large, 0},
      {"break in a definite array", "82 01 ff", status::unexpected_break, 2},
      {"indefinite with text", "9f 01 6161 ff", status::type_mismatch, 2},
  };
  for (const row& w : rows) {
    SCOPED_TRACE(w.name);
    const bytes in = from_hex(w.hex);
    reader r(in.data(), in.size());
    std::vector<uint64_t> v;
    EXPECT_EQ(r.read_array(v), w.want);
    EXPECT_EQ(r.error().code, w.want);
    EXPECT_EQ(r.error().offset, w.offset);
    EXPECT_TRUE(v.empty());
  }
}

TEST(BulkRead, IndefiniteAndNested) {
  // [_ 1, 2, 3] inside a map, with a tag 41 (homogeneous) array after it.
  const bytes in = from_hex(
      "a2"
      "6161"
      "9f010203ff"
      "6162"
      "d829"
      "82"
      "1818"
      "19ffff");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  std::vector<uint64_t> v;
  ASSERT_EQ(r.read_array(v), status::ok);
  EXPECT_EQ(v, (std::vector<uint64_t>{1, 2, 3}));
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.text(), "b");
  uint64_t two[2];
  size_t n = 0;
  ASSERT_EQ(r.read_array(two, 2, &n), status::ok);
  EXPECT_EQ(two[1], 65535u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(r.next(it), status::end);
  EXPECT_EQ(r.finish(), status::ok);
  // At the end of a container: nothing to read.
  const bytes one = from_hex("8180");
  reader r1(one.data(), one.size());
  ASSERT_EQ(r1.next(it), status::ok);
  ASSERT_EQ(r1.read_array(two, 2, &n), status::ok);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(r1.read_array(two, 2, &n), status::invalid_state);
  // An indefinite array longer than the buffer: sticky, at the first extra element.
  const bytes ind = from_hex("9f010203ff");
  reader r2(ind.data(), ind.size());
  EXPECT_EQ(r2.read_array(two, 2, &n), status::buffer_too_small);
  EXPECT_EQ(r2.error().offset, 3u);
}

TEST(BulkRead, StrictChecksAndLimitsStillApply) {
  cbor_fast::reader_options opt;
  opt.deterministic = true;
  const bytes in = from_hex("82 01 1801");
  reader r(in.data(), in.size(), opt);
  std::vector<uint64_t> v;
  EXPECT_EQ(r.read_array(v), status::non_preferred_encoding);
  EXPECT_EQ(r.error().offset, 2u);
  cbor_fast::reader_options lim;
  lim.max_container_items = 2;
  const bytes three = from_hex("83010203");
  reader rl(three.data(), three.size(), lim);
  EXPECT_EQ(rl.read_array(v), status::container_too_large);
  EXPECT_EQ(rl.error().offset, 0u);
  cbor_fast::reader_options items;
  items.max_items = 3;
  reader ri(three.data(), three.size(), items);
  EXPECT_EQ(ri.read_array(v), status::too_many_items);
  cbor_fast::reader_options depth;
  depth.max_depth = 1;
  const bytes nested = from_hex("818101");
  reader rd(nested.data(), nested.size(), depth);
  item it;
  ASSERT_EQ(rd.next(it), status::ok);
  EXPECT_EQ(rd.read_array(v), status::depth_exceeded);
}

TEST(BulkRead, LargeArraysBothWays) {
  for (size_t count : {size_t(0), size_t(1), size_t(65535), size_t(65536), size_t(100000)}) {
    SCOPED_TRACE(count);
    cbor_fast::writer w;
    ASSERT_EQ(w.begin_array(count), status::ok);
    for (size_t i = 0; i < count; ++i) w.write_uint(uint64_t(i) * 40503u);
    ASSERT_EQ(w.end(), status::ok);
    ASSERT_EQ(w.finish(), status::ok);
    reader r(w.data(), w.size());
    std::vector<uint64_t> v;
    ASSERT_EQ(r.read_array(v), status::ok);
    ASSERT_EQ(v.size(), count);
    for (size_t i = 0; i < count; ++i) ASSERT_EQ(v[i], uint64_t(i) * 40503u);
    EXPECT_EQ(r.finish(), status::ok);
  }
}

// ---- typed arrays ----

TEST(TypedArray, Tags) {
  struct row {
    uint64_t tag;
    typed_element e;
    uint8_t size;
    bool little;
  };
  const row rows[] = {
      {64, typed_element::uint8, 1, false},         {65, typed_element::uint16, 2, false},
      {66, typed_element::uint32, 4, false},        {67, typed_element::uint64, 8, false},
      {68, typed_element::uint8_clamped, 1, false}, {69, typed_element::uint16, 2, true},
      {70, typed_element::uint32, 4, true},         {71, typed_element::uint64, 8, true},
      {72, typed_element::sint8, 1, false},         {73, typed_element::sint16, 2, false},
      {77, typed_element::sint16, 2, true},         {79, typed_element::sint64, 8, true},
      {80, typed_element::float16, 2, false},       {82, typed_element::float64, 8, false},
      {83, typed_element::float128, 16, false},     {84, typed_element::float16, 2, true},
      {86, typed_element::float64, 8, true},        {87, typed_element::float128, 16, true}};
  for (const row& w : rows) {
    SCOPED_TRACE(w.tag);
    typed_array a;
    ASSERT_TRUE(cbor_fast::typed_array_from_tag(w.tag, a));
    EXPECT_EQ(a.element, w.e);
    EXPECT_EQ(a.element_size, w.size);
    EXPECT_EQ(a.little_endian, w.little);
    EXPECT_EQ(cbor_fast::typed_array_tag(w.e, w.little), w.tag);
  }
  typed_array a;
  EXPECT_FALSE(cbor_fast::typed_array_from_tag(63, a));
  EXPECT_FALSE(cbor_fast::typed_array_from_tag(76, a));  // reserved
  EXPECT_FALSE(cbor_fast::typed_array_from_tag(88, a));
  EXPECT_FALSE(cbor_fast::typed_array_from_tag(40, a));
}

TEST(TypedArray, WriteExactBytes) {
  cbor_fast::writer w;
  const uint16_t u16[2] = {1, 0x0203};
  ASSERT_EQ(cbor_fast::write_typed_array(w, u16, 2), status::ok);
  const double d[1] = {1.5};
  ASSERT_EQ(cbor_fast::write_typed_array(w, d, 1), status::ok);
  const int8_t s8[2] = {-1, 2};
  ASSERT_EQ(cbor_fast::write_typed_array(w, s8, 2), status::ok);
  ASSERT_EQ(cbor_fast::write_typed_array<float>(w, nullptr, 0), status::ok);
  const uint8_t be[4] = {0x3c, 0x00, 0xc0, 0x00};  // float16 big endian: 1.0, -2.0
  ASSERT_EQ(cbor_fast::write_typed_array(w, typed_element::float16, false, be, 2), status::ok);
  ASSERT_EQ(w.finish(), status::ok);
  EXPECT_EQ(to_hex(w.to_vector()),
            "d845"
            "44"
            "01000302"  // tag 69: uint16 little endian
            "d856"
            "48"
            "000000000000f83f"  // tag 86: float64 little endian
            "d848"
            "42"
            "ff02"  // tag 72: sint8
            "d855"
            "40"  // tag 85: float32 little endian, empty
            "d850"
            "44"
            "3c00c000");  // tag 80: float16 big endian
}

TEST(TypedArray, ReadViewsAndConversions) {
  // 70: uint32 LE [1, 2^32-1]; 82: float64 BE [1.5]; 87: float128 LE [1.0, -2.5]; 73: sint16 BE [-2].
  const bytes in = from_hex(
      "d846"
      "48"
      "01000000"
      "ffffffff"
      "d852"
      "48"
      "3ff8000000000000"
      "d857"
      "5820"
      "0000000000000000"
      "000000000000ff3f"
      "0000000000000000"
      "00000000004000c0"
      "d849"
      "42"
      "fffe");
  reader r(in.data(), in.size());
  typed_array a;
  ASSERT_EQ(cbor_fast::read_typed_array(r, a), status::ok);
  EXPECT_EQ(a.tag, 70u);
  EXPECT_EQ(a.count(), 2u);
  EXPECT_EQ(a.offset, 0u);
  EXPECT_EQ(a.data_offset, 3u);
  uint64_t u[2];
  ASSERT_EQ(a.copy_to(u, 2), status::ok);
  EXPECT_EQ(u[1], 0xffffffffu);
  EXPECT_EQ(a.view<uint64_t>(), nullptr);  // not the element type
  double dd[2];
  ASSERT_EQ(a.copy_to(dd, 2), status::ok);
  EXPECT_EQ(dd[1], 4294967295.0);
  EXPECT_EQ(a.copy_to(u, 1), status::buffer_too_small);

  ASSERT_EQ(cbor_fast::read_typed_array(r, a), status::ok);
  EXPECT_EQ(a.element, typed_element::float64);
  EXPECT_EQ(a.view<double>(), nullptr);  // big endian on a little-endian host
  ASSERT_EQ(a.copy_to(dd, 2), status::ok);
  EXPECT_EQ(dd[0], 1.5);
  size_t bad = 9;
  EXPECT_EQ(a.copy_to(u, 2, &bad), status::type_mismatch);  // floats into integers

  ASSERT_EQ(cbor_fast::read_typed_array(r, a), status::ok);
  EXPECT_EQ(a.element, typed_element::float128);
  ASSERT_EQ(a.copy_to(dd, 2), status::ok);
  EXPECT_EQ(dd[0], 1.0);
  EXPECT_EQ(dd[1], -2.5);

  ASSERT_EQ(cbor_fast::read_typed_array(r, a), status::ok);
  int64_t s[1];
  ASSERT_EQ(a.copy_to(s, 1), status::ok);
  EXPECT_EQ(s[0], -2);
  EXPECT_EQ(a.copy_to(u, 1, &bad), status::out_of_range);
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(cbor_fast::read_typed_array(r, a), status::end);
}

TEST(TypedArray, ZeroCopyViewWhenAligned) {
  // The writer's bytes for an int32 array in host order; the content starts
  // 2 bytes in (tag 78 head = 2 bytes, byte string head = 1 byte: offset 3),
  // so copy the encoding to an address that puts the content on a 4-byte boundary.
  cbor_fast::writer w;
  const int32_t v[3] = {-1, 0, 1 << 30};
  ASSERT_EQ(cbor_fast::write_typed_array(w, v, 3), status::ok);
  ASSERT_EQ(w.finish(), status::ok);
  alignas(8) uint8_t buf[32];
  std::memcpy(buf + 1, w.data(), w.size());
  reader r(buf + 1, w.size());
  typed_array a;
  ASSERT_EQ(cbor_fast::read_typed_array(r, a), status::ok);
  const int32_t* view = a.view<int32_t>();
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(static_cast<const void*>(view), static_cast<const void*>(buf + 4));
  EXPECT_EQ(view[2], 1 << 30);
  EXPECT_EQ(a.view<uint32_t>(), nullptr);
}

TEST(TypedArray, BadContentAndBulkIntegration) {
  struct row {
    const char* name;
    const char* hex;
    status want;
    size_t offset;
  };
  const row rows[] = {
      {"odd length", "d845 43 010203", status::type_mismatch, 2},
      {"not bytes", "d845 820102", status::type_mismatch, 2},
      {"indefinite bytes", "d845 5f 420102 ff", status::type_mismatch, 2},
  };
  for (const row& w : rows) {
    SCOPED_TRACE(w.name);
    const bytes in = from_hex(w.hex);
    reader r(in.data(), in.size());
    typed_array a;
    EXPECT_EQ(cbor_fast::read_typed_array(r, a), w.want);
    EXPECT_EQ(r.error().offset, w.offset);
  }
  const bytes other = from_hex("c1 00");
  reader ro(other.data(), other.size());
  typed_array a;
  EXPECT_EQ(cbor_fast::read_typed_array(ro, a), status::type_mismatch);
  EXPECT_EQ(ro.offset(), 0u);  // nothing read
  // read_array() takes typed arrays too: sint64 LE with a negative into uint64_t.
  const bytes neg = from_hex(
      "d84f"
      "50"
      "0100000000000000"
      "feffffffffffffff");
  reader rn(neg.data(), neg.size());
  std::vector<uint64_t> v;
  EXPECT_EQ(rn.read_array(v), status::out_of_range);
  EXPECT_EQ(rn.error().offset, 3u + 8u);
  reader rs(neg.data(), neg.size());
  std::vector<int64_t> s;
  ASSERT_EQ(rs.read_array(s), status::ok);
  EXPECT_EQ(s, (std::vector<int64_t>{1, -2}));
  // A full buffer leaves the reader where it was.
  reader rb(neg.data(), neg.size());
  int64_t one[1];
  size_t n = 0;
  EXPECT_EQ(rb.read_array(one, 1, &n), status::buffer_too_small);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(rb.offset(), 0u);
}

/// The binary128 hi:lo (little endian in a tag 87 typed array) as read into
/// a double, or NaN with a test failure when writing or reading fails.
double float128_read_back(uint64_t hi, uint64_t lo) {
  uint8_t b[16];
  for (int i = 0; i < 8; ++i) b[i] = uint8_t(lo >> (8 * i));
  for (int i = 0; i < 8; ++i) b[8 + i] = uint8_t(hi >> (8 * i));
  cbor_fast::writer w;
  double d = std::nan("");
  size_t n = 0;
  if (cbor_fast::write_typed_array(w, typed_element::float128, true, b, 1) != status::ok ||
      w.finish() != status::ok) {
    ADD_FAILURE() << "writing the float128 failed";
    return d;
  }
  const bytes enc = w.to_vector();
  reader r(enc.data(), enc.size());
  if (r.read_array(&d, 1, &n) != status::ok || n != 1) ADD_FAILURE() << "reading it back failed";
  return d;
}

TEST(TypedArray, Float128Rounding) {
  // 1 + 2^-60 rounds to 1.0; 1 + 2^-52 + 2^-53 (a tie above odd) rounds up;
  // the largest binary128 overflows to infinity; 2^-1074 stays the smallest subnormal.
  auto f128 = float128_read_back;
  EXPECT_EQ(f128(0x3fff000000000000u, uint64_t(1) << 52), 1.0);
  // 1 + 2^-52 + 2^-53: mantissa bits 112-52 = 60 and 59 set.
  EXPECT_EQ(f128(0x3fff000000000000u, uint64_t(3) << 59), 1.0 + std::ldexp(1.0, -51));
  EXPECT_TRUE(std::isinf(f128(0x7ffeffffffffffffu, UINT64_MAX)));
  EXPECT_EQ(f128(uint64_t(16383 - 1074) << 48, 0), std::ldexp(1.0, -1074));
  EXPECT_TRUE(std::isnan(f128(0x7fff800000000000u, 0)));
  // Values from half the smallest subnormal (2^-1075) up to it, where no
  // significand bit stays (binary128 exponent field 0x3bcc), and around them.
  struct row {
    const char* name;
    uint64_t hi, lo;
    uint64_t bits;  // the double's bits
  };
  const uint64_t half_min = uint64_t(16383 - 1075) << 48;  // 2^-1075
  const uint64_t sign = uint64_t(1) << 63;
  const row rows[] = {
      {"2^-1075, a tie: to even, 0", half_min, 0, 0},
      {"-2^-1075: -0", sign | half_min, 0, sign},
      {"2^-1075 (1 + 2^-112): above the tie", half_min, 1, 1},
      {"1.5 x 2^-1075", half_min | uint64_t(1) << 47, 0, 1},
      {"-1.5 x 2^-1075", sign | half_min | uint64_t(1) << 47, 0, sign | 1},
      {"largest below 2^-1074", half_min | 0xffffffffffffu, UINT64_MAX, 1},
      {"2^-1076 (1 + 2^-112): below the tie, 0", uint64_t(16383 - 1076) << 48, 1, 0},
      {"1.5 x 2^-1074: a tie above odd, up", uint64_t(16383 - 1074) << 48 | uint64_t(1) << 47, 0,
       2},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.name);
    const double d = f128(r.hi, r.lo);
    uint64_t got;
    std::memcpy(&got, &d, sizeof got);
    EXPECT_EQ(got, r.bits);
  }
}

#if defined(__SIZEOF_FLOAT128__) && defined(__GNUC__) && !defined(__clang__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
// Against the compiler's own binary128 -> double conversion (correctly
// rounded), over random values whose exponents cover double's whole range,
// its subnormals and the values that round to 0 or overflow.
TEST(TypedArray, Float128MatchesTheCompilersConversion) {
  std::mt19937_64 rng(20261207);
  size_t checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t sign = rng() & (uint64_t(1) << 63);
    const uint64_t exp = uint64_t(16383 - 1080) + rng() % 2170;  // 2^-1080 .. 2^1089
    const uint64_t hi = sign | exp << 48 | (rng() & 0xffffffffffffu);
    const uint64_t lo = (rng() & 3) == 0 ? 0 : rng();  // exact ties too
    uint8_t b[16];
    for (int k = 0; k < 8; ++k) b[k] = uint8_t(lo >> (8 * k));
    for (int k = 0; k < 8; ++k) b[8 + k] = uint8_t(hi >> (8 * k));
    __float128 q;
    std::memcpy(&q, b, sizeof q);  // little endian host
    const double want = double(q);
    const double got = float128_read_back(hi, lo);
    uint64_t gb, wb;
    std::memcpy(&gb, &got, sizeof gb);
    std::memcpy(&wb, &want, sizeof wb);
    ASSERT_EQ(gb, wb) << std::hex << "binary128 " << hi << " " << lo;
    ++checked;
  }
  EXPECT_EQ(checked, 200000u);
}
#endif

TEST(TypedArray, MultiDimensional) {
  cbor_fast::writer w;
  const uint64_t dims[2] = {2, 3};
  ASSERT_EQ(cbor_fast::begin_multi_dim(w, dims, 2), status::ok);
  const uint8_t cells[6] = {1, 2, 3, 4, 5, 6};
  ASSERT_EQ(cbor_fast::write_typed_array(w, cells, 6), status::ok);
  ASSERT_EQ(w.end(), status::ok);
  ASSERT_EQ(w.finish(), status::ok);
  EXPECT_EQ(to_hex(w.to_vector()),
            "d828"
            "82"
            "820203"
            "d840"
            "46010203040506");
  const bytes enc = w.to_vector();
  reader r(enc.data(), enc.size());
  uint64_t d[4];
  size_t nd = 0;
  ASSERT_EQ(cbor_fast::read_multi_dim(r, d, 4, &nd), status::ok);
  ASSERT_EQ(nd, 2u);
  EXPECT_EQ(d[1], 3u);
  std::vector<uint64_t> v;
  ASSERT_EQ(r.read_array(v), status::ok);
  EXPECT_EQ(v, (std::vector<uint64_t>{1, 2, 3, 4, 5, 6}));
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(r.finish(), status::ok);
  // Room for one dimension of two: buffer_too_small with the count; the tag
  // and outer array are read, the dimensions are next.
  reader rs(enc.data(), enc.size());
  EXPECT_EQ(cbor_fast::read_multi_dim(rs, d, 1, &nd), status::buffer_too_small);
  EXPECT_EQ(nd, 2u);
  EXPECT_EQ(rs.offset(), 3u);
  ASSERT_EQ(rs.read_array(d, 4, &nd), status::ok);
  EXPECT_EQ(nd, 2u);
  EXPECT_EQ(d[0], 2u);
  EXPECT_EQ(d[1], 3u);
  // Not tag 40: nothing read; tag 40 over anything but [dims, elements]: sticky.
  const bytes other = from_hex("820203");
  reader ro(other.data(), other.size());
  EXPECT_EQ(cbor_fast::read_multi_dim(ro, d, 4, &nd), status::type_mismatch);
  EXPECT_EQ(ro.offset(), 0u);
  const bytes bad = from_hex("d828 83 00 00 00");
  reader rb(bad.data(), bad.size());
  EXPECT_EQ(cbor_fast::read_multi_dim(rb, d, 4, &nd), status::type_mismatch);
  EXPECT_EQ(rb.error().offset, 2u);
  // Homogeneous (tag 41) in front of a plain array.
  cbor_fast::writer h;
  ASSERT_EQ(cbor_fast::begin_homogeneous(h), status::ok);
  ASSERT_EQ(h.begin_array(1), status::ok);
  ASSERT_EQ(h.write_float(0.5), status::ok);
  ASSERT_EQ(h.end(), status::ok);
  ASSERT_EQ(h.finish(), status::ok);
  EXPECT_EQ(to_hex(h.to_vector()),
            "d829"
            "81"
            "f93800");
}

}  // namespace

namespace {

TEST(TypedArray, DiagShowsTheElements) {
  // 69: uint16 LE [1, 2]; 72: sint8 [-1, 127]; 84: float16 LE [1.5]; 64 with an empty string.
  const bytes in = from_hex(
      "84"
      "d845"
      "4401000200"
      "d848"
      "42ff7f"
      "d854"
      "42003e"
      "d84040");
  reader r(in.data(), in.size());
  std::string out;
  cbor_fast::diag_options opt;
  opt.typed_array_values = true;
  ASSERT_EQ(cbor_fast::diag_next(r, out, opt), status::ok);
  EXPECT_EQ(out,
            "[69(h'01000200' / [1, 2] /), 72(h'ff7f' / [-1, 127] /), 84(h'003e' / [1.5] /), "
            "64(h'' / [] /)]");
  // Off by default; a tag that is no typed array, or a bad length, gets no comment.
  const bytes plain = from_hex(
      "82"
      "d845"
      "4401000200"
      "d845"
      "43010203");
  reader r2(plain.data(), plain.size());
  out.clear();
  ASSERT_EQ(cbor_fast::diag_next(r2, out), status::ok);
  EXPECT_EQ(out, "[69(h'01000200'), 69(h'010203')]");
  reader r3(plain.data(), plain.size());
  out.clear();
  ASSERT_EQ(cbor_fast::diag_next(r3, out, opt), status::ok);
  EXPECT_EQ(out, "[69(h'01000200' / [1, 2] /), 69(h'010203')]");
}

}  // namespace

namespace {

TEST(BulkRead, RunsOfSmallIntegers) {
  // Runs of one-byte integers (read sixteen at a time) broken by wider heads,
  // a 24 (the first value that is not one byte) and a text element at the end.
  for (size_t count : {size_t(15), size_t(16), size_t(17), size_t(100), size_t(1000)}) {
    SCOPED_TRACE(count);
    std::vector<uint64_t> want;
    cbor_fast::writer w;
    ASSERT_EQ(w.begin_array(count), status::ok);
    for (size_t i = 0; i < count; ++i) {
      const uint64_t v = i % 37 == 36 ? 24 : i % 53 == 52 ? 70000 : i % 24;
      want.push_back(v);
      w.write_uint(v);
    }
    ASSERT_EQ(w.end(), status::ok);
    ASSERT_EQ(w.finish(), status::ok);
    reader r(w.data(), w.size());
    std::vector<uint64_t> got;
    ASSERT_EQ(r.read_array(got), status::ok);
    EXPECT_EQ(got, want);
    reader rs(w.data(), w.size());
    std::vector<int64_t> got_signed;
    ASSERT_EQ(rs.read_array(got_signed), status::ok);
    EXPECT_EQ(got_signed.back(), int64_t(want.back()));
  }
  // Runs of four-byte heads (read eight at a time) broken by other widths.
  for (size_t count : {size_t(7), size_t(8), size_t(9), size_t(100), size_t(1001)}) {
    SCOPED_TRACE(count);
    std::vector<uint64_t> want;
    cbor_fast::writer w;
    ASSERT_EQ(w.begin_array(count), status::ok);
    for (size_t i = 0; i < count; ++i) {
      const uint64_t v = i % 37 == 36   ? 5
                         : i % 61 == 60 ? 200
                         : i % 89 == 88 ? 1000
                                        : 65536 + i * 7919;
      want.push_back(v);
      w.write_uint(v);
    }
    ASSERT_EQ(w.end(), status::ok);
    ASSERT_EQ(w.finish(), status::ok);
    reader r(w.data(), w.size());
    std::vector<uint64_t> got;
    ASSERT_EQ(r.read_array(got), status::ok);
    EXPECT_EQ(got, want);
  }
  // A text string after 31 small integers: the mismatch at its offset.
  bytes in = from_hex("98 20");
  for (int i = 0; i < 31; ++i) in.push_back(uint8_t(i % 24));
  in.push_back(0x60);
  reader r(in.data(), in.size());
  std::vector<uint64_t> v;
  EXPECT_EQ(r.read_array(v), status::type_mismatch);
  EXPECT_EQ(r.error().offset, 33u);
}

}  // namespace

namespace {

using cbor_fast::detail::bulk_path;
using cbor_fast::detail::read_array_on;

/// The paths read_array() can take on this machine (avx2 only where the CPU has it).
std::vector<bulk_path> bulk_paths() {
  std::vector<bulk_path> paths{bulk_path::portable};
  if (cbor_fast::detail::bulk_path_supported(bulk_path::avx2)) paths.push_back(bulk_path::avx2);
  return paths;
}
const char* path_name(bulk_path p) { return p == bulk_path::avx2 ? "avx2" : "portable"; }

/// An unsigned head of exactly `width` argument bytes (0: the value in the initial byte).
void put_uint(bytes& out, unsigned width, uint64_t v) {
  if (width == 0) {
    out.push_back(uint8_t(v));
    return;
  }
  out.push_back(uint8_t(width == 1 ? 0x18 : width == 2 ? 0x19 : width == 4 ? 0x1a : 0x1b));
  for (unsigned k = width; k-- > 0;) out.push_back(uint8_t(v >> (8 * k)));
}

/// The run's element i: the largest and smallest argument, one whose bytes
/// all look like the run's head, then a spread of values.
uint64_t run_value(unsigned width, size_t i) {
  const uint64_t max = width == 4 ? 0xffffffffu : 0xffffu;
  switch (i % 5) {
    case 0: return max;
    case 1: return 0;  // a non-minimal head: read like any other
    case 2: return width == 4 ? 0x1a1a1a1au : 0x1919u;
    default: return (0x80000000u + uint64_t(i) * 2654435761u) & max;
  }
}

TEST(BulkRead, RunsOfFourAndTwoByteHeadsOnEveryPath) {
  // Runs of 1a (uint32) and 19 (uint16) heads, read sixteen at a time by the
  // AVX2 path where there is one: a run interrupted by another width at each
  // position, run lengths around the block of sixteen, and the input ending
  // at the last element or 3..7 bytes after it (the vector blocks read 6 (1a)
  // and 4 (19) bytes past their last element, so they are taken only then).
  struct interrupter {
    const char* name;
    unsigned width;  // 0: a value 0..23 in the initial byte
    uint64_t value;
  };
  for (bulk_path path : bulk_paths()) {
    SCOPED_TRACE(path_name(path));
    for (unsigned width : {4u, 2u}) {
      SCOPED_TRACE(width);
      const interrupter others[] = {
          {"one byte", 0, 7},
          {"18", 1, 200},
          {width == 4 ? "19" : "1a", width == 4 ? 2u : 4u, width == 4 ? 0x1a1au : 0x19191919u},
          {"1b 2^32", 8, uint64_t(1) << 32},
          {"1b 2^64-1", 8, UINT64_MAX},
      };
      for (size_t count : {1, 15, 16, 17, 31, 32, 33, 48, 49, 70}) {
        for (size_t trail : {0, 3, 4, 5, 6, 7, 40}) {
          for (size_t at = 0; at <= count; ++at) {  // at == count: no interruption
            for (const interrupter& o : others) {
              if (at == count && &o != &others[0]) break;
              bytes in;
              put_uint(in, count < 24 ? 0 : 1, count);
              in[0] |= 0x80;
              std::vector<uint64_t> want;
              for (size_t i = 0; i < count; ++i) {
                const uint64_t v = i == at ? o.value : run_value(width, i);
                put_uint(in, i == at ? o.width : width, v);
                want.push_back(v);
              }
              in.insert(in.end(), trail, 0x00);  // top-level items after the array
              std::vector<uint64_t> got(count + 1, 0xdead);
              size_t n = 0;
              reader r(in.data(), in.size());
              ASSERT_EQ(read_array_on(path, r, got.data(), got.size(), &n), status::ok)
                  << count << " " << trail << " " << at << " " << o.name;
              ASSERT_EQ(n, count);
              got.resize(count);
              ASSERT_EQ(got, want) << count << " " << trail << " " << at << " " << o.name;
              // The reader is right after the array.
              item it;
              if (trail == 0) {
                EXPECT_EQ(r.next(it), status::end);
              } else {
                ASSERT_EQ(r.next(it), status::ok);
                EXPECT_EQ(it.offset, in.size() - trail);
              }
              if (o.value > uint64_t(INT64_MAX)) continue;
              // int64_t elements take the same runs.
              std::vector<int64_t> got_signed(count, -1);
              reader rs(in.data(), in.size());
              ASSERT_EQ(read_array_on(path, rs, got_signed.data(), count, &n), status::ok);
              for (size_t i = 0; i < count; ++i) ASSERT_EQ(uint64_t(got_signed[i]), want[i]) << i;
            }
          }
        }
      }
    }
  }
}

TEST(BulkRead, ErrorsInsideRunsOfFourAndTwoByteHeads) {
  // A bad element at a position of a 40-element run: the status at the
  // element's offset, sticky, on every path and for both integer types.
  struct bad {
    const char* name;
    const char* hex;
    status as_uint64;
    status as_int64;
  };
  const bad rows[] = {
      {"text", "6141", status::type_mismatch, status::type_mismatch},
      {"half float", "f93c00", status::type_mismatch, status::type_mismatch},
      {"nested array", "8100", status::type_mismatch, status::type_mismatch},
      {"negative (1a)", "3a00010000", status::out_of_range, status::ok},
      {"2^63 (1b)", "1b8000000000000000", status::ok, status::out_of_range},
      {"reserved ai", "1c", status::reserved_additional_info, status::reserved_additional_info},
      {"break", "ff", status::unexpected_break, status::unexpected_break},
  };
  for (bulk_path path : bulk_paths()) {
    SCOPED_TRACE(path_name(path));
    for (unsigned width : {4u, 2u}) {
      SCOPED_TRACE(width);
      for (const bad& b : rows) {
        SCOPED_TRACE(b.name);
        for (size_t at : {0, 1, 15, 16, 17, 31, 32, 39}) {
          SCOPED_TRACE(at);
          bytes in = from_hex("9828");
          size_t offset = 0;
          for (size_t i = 0; i < 40; ++i) {
            if (i == at) {
              offset = in.size();
              const bytes x = from_hex(b.hex);
              in.insert(in.end(), x.begin(), x.end());
            } else {
              put_uint(in, width, run_value(width, i));
            }
          }
          in.insert(in.end(), 16, 0x00);
          for (int as_signed = 0; as_signed < 2; ++as_signed) {
            const status want = as_signed ? b.as_int64 : b.as_uint64;
            reader r(in.data(), in.size());
            size_t n = 0;
            uint64_t u[40];
            int64_t s[40];
            const status got =
                as_signed ? read_array_on(path, r, s, 40, &n) : read_array_on(path, r, u, 40, &n);
            EXPECT_EQ(got, want) << as_signed;
            if (want == status::ok) {
              EXPECT_EQ(n, 40u);
              continue;
            }
            EXPECT_EQ(r.error().code, want);
            EXPECT_EQ(r.error().offset, offset) << as_signed;
            item it;
            EXPECT_EQ(r.next(it), want);  // sticky
          }
        }
      }
      // The input ends inside the last element, or before it (the count
      // promises one more), or the array is complete but the last element is
      // cut at each of its bytes.
      for (size_t count : {16, 17, 32, 33, 48}) {
        for (size_t cut = 0; cut <= width; ++cut) {
          SCOPED_TRACE(count * 100 + cut);
          bytes in;
          put_uint(in, 1, count);
          in[0] = 0x98;
          for (size_t i = 0; i < count; ++i) put_uint(in, width, run_value(width, i));
          const size_t last = in.size() - 1 - width;
          in.resize(last + cut);  // cut == 0: nothing of the last element
          reader r(in.data(), in.size());
          uint64_t out[48];
          size_t n = 0;
          EXPECT_EQ(read_array_on(path, r, out, 48, &n), status::truncated);
          EXPECT_EQ(r.error().offset, last);
        }
      }
    }
  }
}

}  // namespace
