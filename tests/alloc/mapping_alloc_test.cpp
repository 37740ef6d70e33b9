// Heap allocations of from_cbor(), counted by replacing the global operator
// new (every form) and by a counting allocator behind the reader's stack.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

#include "cbor_fast/mapping.hpp"
#include "conformance/test_util.hpp"

namespace {
size_t g_news = 0;     // operator new calls while counting
size_t g_largest = 0;  // the largest of them, in bytes
size_t g_total = 0;    // all of them, in bytes
bool g_counting = false;
}  // namespace

// The replacements pair malloc with free; GCC cannot see that once inlined.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(size_t size) {
  if (g_counting) {
    ++g_news;
    g_total += size;
    if (size > g_largest) g_largest = size;
  }
  void* p = std::malloc(size != 0 ? size : 1);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  if (g_counting) ++g_news;
  return std::malloc(size != 0 ? size : 1);
}
void* operator new[](size_t size, const std::nothrow_t& t) noexcept {
  return operator new(size, t);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace alloctest {

struct sub {
  std::string_view name;
  int64_t value = 0;
  cbor_fast::byte_view raw;
};
CBOR_FAST_FIELDS(sub, name, value, raw)

struct borrowed {
  uint64_t id = 0;
  int32_t delta = 0;
  std::string_view title;
  cbor_fast::byte_view payload;
  sub head;
  std::array<sub, 4> subs;
  std::optional<double> score;
  std::variant<int64_t, std::string_view> tag;
  bool ok = false;
};
CBOR_FAST_FIELDS(borrowed, id, delta, title, payload, head, subs, score, tag, ok)

struct owning {
  std::string_view title;
  std::vector<sub> subs;
  std::vector<uint64_t> ids;
};
CBOR_FAST_FIELDS(owning, title, subs, ids)

// Integer keys and an array layout (their keys and members take the
// in-order pass too).
struct cose_b {
  int64_t kty = 0;
  std::string_view kid;
  cbor_fast::byte_view x;
};
CBOR_FAST_FIELDS_KEYS(cose_b, (1, kty), (2, kid), (-2, x))

struct row_b {
  int16_t a = 0;
  std::string_view b;
  double c = 0;
  cose_b key;
};
CBOR_FAST_FIELDS_ARRAY(row_b, a, b, c, key)

struct rows_b {
  std::array<row_b, 3> rows;
  std::optional<uint32_t> count;
};
CBOR_FAST_FIELDS(rows_b, rows, count)

// Elements of 4 KiB that a byte of input could declare.
struct big_elements {
  std::vector<std::array<uint64_t, 512>> v;
};
CBOR_FAST_FIELDS(big_elements, v)

// A type that holds itself: [ [node, ...] ].
struct node {
  std::vector<node> kids;
};
CBOR_FAST_FIELDS_ARRAY(node, kids)

}  // namespace alloctest

namespace {

using alloctest::borrowed;
using alloctest::owning;
using alloctest::sub;
using cbor_fast::status;

size_t g_reader_allocs = 0;
void* count_malloc(void*, size_t size) {
  ++g_reader_allocs;
  return std::malloc(size);
}
void* count_realloc(void*, void* p, size_t, size_t size) {
  ++g_reader_allocs;
  return std::realloc(p, size);
}
void count_free(void*, void* p, size_t) { std::free(p); }
const cbor_fast::allocator k_counting{&count_malloc, &count_realloc, &count_free, nullptr};

template <class T>
size_t allocations_of_decode(const std::vector<uint8_t>& in, T& out, status want = status::ok) {
  cbor_fast::mapping_options opt;
  opt.reader.alloc = &k_counting;  // used only past from_cbor's own 1 KiB stack buffer
  g_reader_allocs = 0;
  g_news = 0;
  g_largest = 0;
  g_counting = true;
  const status s = cbor_fast::from_cbor(in.data(), in.size(), out, opt);
  g_counting = false;
  EXPECT_EQ(s, want);
  return g_news + g_reader_allocs;
}

TEST(MappingAllocations, BorrowedStructDecodesWithNoAllocation) {
  borrowed b;
  b.id = uint64_t(1) << 40;
  b.delta = -5;
  b.title = "a title that is longer than any small-string buffer";
  static const uint8_t payload[3] = {1, 2, 3};
  b.payload = {payload, 3};
  b.head = sub{"head", 1, {payload, 1}};
  for (size_t i = 0; i < 4; ++i) b.subs[i] = sub{"s", int64_t(i), {payload, 2}};
  b.score = 0.5;
  b.tag = std::string_view("borrowed");
  b.ok = true;
  const std::vector<uint8_t> in = cbor_fast::to_cbor(b);
  borrowed out;
  EXPECT_EQ(allocations_of_decode(in, out), 0u);
  EXPECT_EQ(out.title, b.title);
  EXPECT_EQ(out.subs[3].value, 3);
  EXPECT_EQ(std::get<std::string_view>(out.tag), "borrowed");
  EXPECT_EQ(cbor_fast::to_cbor(out), in);
}

TEST(MappingAllocations, IntegerKeysAndArrayLayoutsDecodeWithNoAllocation) {
  static const uint8_t raw[4] = {9, 8, 7, 6};
  alloctest::rows_b v;
  for (size_t i = 0; i < 3; ++i)
    v.rows[i] = alloctest::row_b{int16_t(-300 * int(i)), "row", 0.25 * double(i),
                                 alloctest::cose_b{int64_t(i) + 1, "kid", {raw, 4}}};
  v.count = 3;
  const std::vector<uint8_t> in = cbor_fast::to_cbor(v);
  alloctest::rows_b out;
  EXPECT_EQ(allocations_of_decode(in, out), 0u);
  EXPECT_EQ(out.rows[2].a, -600);
  EXPECT_EQ(out.rows[1].key.kid, "kid");
  EXPECT_EQ(out.rows[2].key.x.size, 4u);
  EXPECT_EQ(cbor_fast::to_cbor(out), in);
}

TEST(MappingAllocations, OnePerContainer) {
  owning o;
  o.title = "t";
  for (int i = 0; i < 8; ++i) o.subs.push_back(sub{"n", i, {}});
  for (uint64_t i = 0; i < 1000; ++i) o.ids.push_back(i * 1000003);
  const std::vector<uint8_t> in = cbor_fast::to_cbor(o);
  owning out;
  EXPECT_EQ(allocations_of_decode(in, out), 2u);  // subs and ids, each reserved once
  EXPECT_EQ(out.subs.size(), 8u);
  EXPECT_EQ(out.ids[999], 999u * 1000003);
  // Decoding again into the same object reuses the vectors' storage.
  EXPECT_EQ(allocations_of_decode(in, out), 0u);
}

TEST(MappingAllocations, LengthBombAllocatesNothing) {
  // {"title": "", "subs": <2^32 items declared>, ...}
  owning out;
  const auto in = cbor_fast_test::from_hex(
      "a3"
      "657469746c65"
      "60"
      "6473756273"
      "9b0000000100000000");
  // 2^32 entries: over the default container limit (2^24) at the head.
  EXPECT_EQ(allocations_of_decode(in, out, status::container_too_large), 0u);
  const auto ids = cbor_fast_test::from_hex(
      "a3"
      "657469746c65"
      "60"
      "6473756273"
      "80"
      "63696473"
      "9a00ffffff"
      "00");
  // 2^24 - 1 entries: within the limit, more than the input holds.
  EXPECT_EQ(allocations_of_decode(ids, out, status::truncated), 0u);
}

TEST(MappingAllocations, InputDeeperThanTheTypeStopsAtTheType) {
  // 40 nested arrays read as a vector of vectors of vectors of int.
  std::vector<uint8_t> in;
  in.insert(in.end(), 40, 0x81);
  in.push_back(0x01);
  std::vector<std::vector<std::vector<int>>> v3;  // shallower than the input: a mismatch
  cbor_fast::error_info err;
  g_news = 0;
  g_counting = true;
  EXPECT_EQ(cbor_fast::from_cbor(in.data(), in.size(), v3, &err), status::type_mismatch);
  g_counting = false;
  EXPECT_EQ(err.offset, 3u);
  EXPECT_EQ(g_news, 3u);  // one reserve per vector level reached
}

TEST(MappingAllocations, LargeElementsReserveByTheInputSize) {
  // {"v": <65536 elements declared>} and 65536 bytes: a count the input can
  // hold, one byte per element, but 4 KiB per element reserved would be
  // 256 MiB. The reservation is held to 16 bytes per byte of input left
  // plus 64 KiB (the first element, 0, then fails as an array).
  std::vector<uint8_t> in = cbor_fast_test::from_hex("a1 6176 9a00010000");
  const size_t left = 65536;
  in.resize(in.size() + left, 0x00);
  alloctest::big_elements out;
  EXPECT_EQ(allocations_of_decode(in, out, status::type_mismatch), 1u);
  EXPECT_LE(g_largest, 16 * left + 65536);
  EXPECT_GE(g_largest, 16 * left);
  // Enough input for the count: one reservation of all of it.
  alloctest::big_elements two;
  two.v.resize(2);
  two.v[1][511] = 7;
  const std::vector<uint8_t> small = cbor_fast::to_cbor(two);
  alloctest::big_elements fresh;
  EXPECT_EQ(allocations_of_decode(small, fresh), 1u);
  EXPECT_EQ(g_largest, 2 * sizeof(fresh.v[0]));
  EXPECT_EQ(fresh.v[1][511], 7u);
}

TEST(MappingAllocations, NestedReservationsShareOneBudget) {
  // 200 levels of [ <2^20 nodes declared> ...: each count fits the 1 MiB of
  // 0x80 after them, and each level reserved 2^20 nodes (24 MiB), 4.8 GB in
  // all. The vectors being filled now share the one budget of 16 bytes per
  // byte left plus 64 KiB. The decode fails at the innermost level's first
  // element (an empty array is no node).
  std::vector<uint8_t> in;
  for (int i = 0; i < 200; ++i) {
    const std::vector<uint8_t> level = cbor_fast_test::from_hex("81 9a00100000");
    in.insert(in.end(), level.begin(), level.end());
  }
  in.resize(in.size() + (size_t(1) << 20), 0x80);
  alloctest::node out;
  cbor_fast::error_info err;
  g_news = 0;
  g_total = 0;
  g_counting = true;
  EXPECT_EQ(cbor_fast::from_cbor(in.data(), in.size(), out, &err), status::type_mismatch);
  g_counting = false;
  EXPECT_EQ(err.offset, 200u * 6);
  EXPECT_LE(g_total, 16 * in.size() + 65536 + 200 * 1024);  // the budget, and the reader's stack
  EXPECT_GE(g_news, 200u);                                  // a vector per level reached
}

}  // namespace
