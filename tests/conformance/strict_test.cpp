// Strict checks and limits through every C++ entry point:
//  - duplicate map keys (RFC 8949 section 5.6), equal by value whatever the
//    encoding, at the second key's offset;
//  - core deterministic encoding (section 4.2.1): shortest heads and floats,
//    definite lengths, keys in bytewise order, each at the offending offset;
//  - the limits (string length, joined string length, entries per container,
//    items, depth) give the same status and offset from the reader's next(),
//    its skip(), decode() on either decoder path, and sequence;
//  - the memory budget of decode(): peak live bytes never exceed it.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cbor_fast/document.hpp"
#include "conformance/test_util.hpp"
#include "document/decode.hpp"
#include "reader/strict.hpp"
#include "shared_vectors.h"

namespace {

using namespace cbor_fast_test;
using cbor_fast::decode_options;
using cbor_fast::document;
using cbor_fast::error_info;
using cbor_fast::reader;
using cbor_fast::reader_options;
using cbor_fast::sequence;

struct outcome {
  status code;
  size_t offset;
  size_t items;  ///< items next() returned before the error (or in all)
};

/// Walks everything with next().
outcome walk(const bytes& in, const reader_options& o) {
  reader r(in.data(), in.size(), o);
  item it;
  size_t n = 0;
  status s;
  while ((s = r.next(it)) == status::ok) ++n;
  if (s == status::end) return {status::ok, 0, n};
  return {s, r.error().offset, n};
}

/// Skips each top-level item.
outcome skip_all(const bytes& in, const reader_options& o) {
  reader r(in.data(), in.size(), o);
  status s;
  while ((s = r.skip()) == status::ok) {}
  if (s == status::end) return {status::ok, 0, 0};
  return {s, r.error().offset, 0};
}

/// decode() of the one item in `in` on the given path.
outcome decode_on(const bytes& in, const decode_options& o, cbor_fast::detail::decode_path path) {
  document d;
  error_info e;
  const status s = cbor_fast::detail::decode_buffer(in.data(), in.size(), d, o, &e, path);
  if (s == status::ok) return {s, 0, d.node_count()};
  return {s, e.offset, 0};
}

decode_options to_decode(const reader_options& r) {
  decode_options o;
  o.flags = cbor_fast::decode_exact;
  if (r.validate_utf8) o.flags |= cbor_fast::decode_validate_utf8;
  if (r.reject_duplicate_keys) o.flags |= cbor_fast::decode_reject_duplicate_keys;
  if (r.deterministic) o.flags |= cbor_fast::decode_deterministic;
  o.max_depth = r.max_depth;
  o.max_string_length = r.max_string_length;
  o.max_container_items = r.max_container_items;
  o.max_nodes = r.max_items >= UINT32_MAX ? 0 : uint32_t(r.max_items);
  return o;
}

/// Runs one input through every entry point and expects `code` at `offset`
/// from each (ok: offset ignored).
void expect_everywhere(const bytes& in, const reader_options& o, status code, size_t offset) {
  SCOPED_TRACE("input " + to_hex(in));
  const outcome w = walk(in, o);
  EXPECT_EQ(w.code, code) << "reader next()";
  const outcome k = skip_all(in, o);
  EXPECT_EQ(k.code, code) << "reader skip()";
  using cbor_fast::detail::decode_path;
  const decode_options d = to_decode(o);
  const outcome a = decode_on(in, d, decode_path::automatic);
  EXPECT_EQ(a.code, code) << "decode, automatic path";
  const outcome b = decode_on(in, d, decode_path::reader_only);
  EXPECT_EQ(b.code, code) << "decode, reader path";
  // Sequences: the same limits, flags per call.
  decode_options so = d;
  so.flags = 0;
  sequence seq(in.data(), in.size(), so);
  size_t off = 0, len = 0;
  const status q = seq.next(off, len, d.flags & ~uint32_t(cbor_fast::decode_exact));
  EXPECT_EQ(q, code) << "sequence next()";
  sequence seq2(in.data(), in.size(), so);
  document doc;
  const status q2 = seq2.next_document(doc, d.flags & ~uint32_t(cbor_fast::decode_exact));
  EXPECT_EQ(q2, code) << "sequence next_document()";
  if (code == status::ok) return;
  EXPECT_EQ(w.offset, offset) << "reader next()";
  EXPECT_EQ(k.offset, offset) << "reader skip()";
  EXPECT_EQ(a.offset, offset) << "decode, automatic path";
  EXPECT_EQ(b.offset, offset) << "decode, reader path";
  EXPECT_EQ(seq.error().offset, offset) << "sequence next()";
  EXPECT_EQ(seq2.error().offset, offset) << "sequence next_document()";
  EXPECT_EQ(seq.error().item_offset, 0u);
}

struct row {
  const char* name;
  const char* hex;
  status code;
  size_t offset;
};

// ---- duplicate keys ----------------------------------------------------------------

/// The rows of tests/vectors/strict.json whose only check is `check`
/// (SHARED_CHECK_*): duplicate keys or deterministic encoding.
std::vector<row> rows_with(uint32_t check) {
  std::vector<row> out;
  for (const shared_strict& r : k_shared_strict)
    if (r.checks == check)
      out.push_back(row{r.name, r.hex, static_cast<status>(r.status), r.offset});
  return out;
}

// Keys equal by value whatever their encoding, and pairs that are not equal
// ("duplicate_keys/..." rows of tests/vectors/strict.json).
const std::vector<row> k_duplicates = rows_with(SHARED_CHECK_DUPLICATE_KEYS);

TEST(DuplicateKeys, TableThroughEveryEntryPoint) {
  reader_options o;
  o.reject_duplicate_keys = true;
  for (const row& r : k_duplicates) {
    SCOPED_TRACE(r.name);
    expect_everywhere(from_hex(r.hex), o, r.code, r.offset);
  }
}

TEST(DuplicateKeys, OffByDefault) {
  for (const row& r : k_duplicates) {
    SCOPED_TRACE(r.name);
    expect_everywhere(from_hex(r.hex), reader_options{}, status::ok, 0);
  }
}

TEST(DuplicateKeys, SingleItemKeyFailsInsteadOfTheKey) {
  // Items before the error: the map, "a", 0; the next call would return the second "a".
  reader_options o;
  o.reject_duplicate_keys = true;
  const outcome w = walk(from_hex("A2 6161 00 6161 01"), o);
  EXPECT_EQ(w.code, status::duplicate_key);
  EXPECT_EQ(w.items, 3u);
  // A multi-item key fails when its value starts: the map, [1 2] (4 items), 0, [1 2] (4 items).
  const outcome m = walk(from_hex("A2 820102 00 820102 00"), o);
  EXPECT_EQ(m.code, status::duplicate_key);
  EXPECT_EQ(m.items, 10u);
}

/// A map of n distinct text keys "k0", "k1", ...; if dup_at < n, key dup_at is
/// replaced by key 0 (so the duplicate is key dup_at). *dup_offset receives its offset.
bytes big_map(size_t n, size_t dup_at, size_t* dup_offset) {
  cbor_fast::writer w;
  EXPECT_EQ(w.begin_map(n), status::ok);
  for (size_t i = 0; i < n; ++i) {
    if (i == dup_at) *dup_offset = w.size();
    const std::string key = "k" + std::to_string(i == dup_at ? 0 : i);
    EXPECT_EQ(w.write_text(key), status::ok);
    EXPECT_EQ(w.write_uint(i), status::ok);
  }
  EXPECT_EQ(w.end(), status::ok);
  return bytes(w.data(), w.data() + w.size());
}

TEST(DuplicateKeys, LargeMapsStartMiddleEnd) {
  reader_options o;
  o.reject_duplicate_keys = true;
  // (tests/hostile runs 100,000 keys through uninstrumented builds.)
  constexpr size_t n = 20000;
  size_t unused = 0;
  expect_everywhere(big_map(n, n, &unused), o, status::ok, 0);
  for (size_t at : {size_t(1), n / 2, n - 1}) {
    SCOPED_TRACE("duplicate at key " + std::to_string(at));
    size_t offset = 0;
    const bytes in = big_map(n, at, &offset);
    expect_everywhere(in, o, status::duplicate_key, offset);
  }
}

TEST(DuplicateKeys, ResetAndSetOptions) {
  const bytes dup = from_hex("A2 01 00 01 00");
  reader_options o;
  o.reject_duplicate_keys = true;
  reader r(dup.data(), dup.size(), o);
  item it;
  ASSERT_EQ(r.next(it), status::ok);  // the map
  ASSERT_EQ(r.next(it), status::ok);  // 1
  // A fresh start forgets the open map's keys.
  r.reset(dup.data(), dup.size());
  for (int i = 0; i < 3; ++i) ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(r.next(it), status::duplicate_key);
  EXPECT_EQ(r.error().offset, 3u);

  // Turned on inside a map: that map is not tracked, maps opened later are.
  const bytes nested = from_hex("A2 01 A2 02 00 02 00 01 00");
  reader late(nested.data(), nested.size());
  ASSERT_EQ(late.next(it), status::ok);  // outer map
  ASSERT_EQ(late.next(it), status::ok);  // 1
  ASSERT_EQ(late.set_options(o), status::ok);
  ASSERT_EQ(late.next(it), status::ok);  // inner map
  ASSERT_EQ(late.next(it), status::ok);  // 2
  ASSERT_EQ(late.next(it), status::ok);  // 0
  EXPECT_EQ(late.next(it), status::duplicate_key);
  EXPECT_EQ(late.error().offset, 5u);
}

TEST(DuplicateKeys, MovedReaderKeepsItsKeys) {
  const bytes dup = from_hex("A2 01 00 01 00");
  reader_options o;
  o.reject_duplicate_keys = true;
  reader a(dup.data(), dup.size(), o);
  item it;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(a.next(it), status::ok);
  reader b(std::move(a));
  EXPECT_EQ(b.next(it), status::duplicate_key);
  EXPECT_EQ(b.error().offset, 3u);
}

// ---- core deterministic encoding ----------------------------------------------------

// Shortest heads and floats, definite lengths, bytewise key order
// ("deterministic/..." rows of tests/vectors/strict.json).
const std::vector<row> k_deterministic = rows_with(SHARED_CHECK_DETERMINISTIC);

TEST(Deterministic, TableThroughEveryEntryPoint) {
  reader_options o;
  o.deterministic = true;
  for (const row& r : k_deterministic) {
    SCOPED_TRACE(r.name);
    expect_everywhere(from_hex(r.hex), o, r.code, r.offset);
  }
}

TEST(Deterministic, WithDuplicateCheckToo) {
  // Both checks on: the deterministic verdicts stand.
  reader_options o;
  o.deterministic = true;
  o.reject_duplicate_keys = true;
  for (const row& r : k_deterministic) {
    SCOPED_TRACE(r.name);
    expect_everywhere(from_hex(r.hex), o, r.code, r.offset);
  }
}

TEST(Deterministic, WithDuplicateCheckFloatKeysByValue) {
  // 0.0 and -0.0 are in bytewise order and distinct bytes: deterministic
  // alone accepts them, the duplicate check (data-model equality) does not.
  const bytes in = from_hex("A2 F90000 00 F98000 01");
  reader_options o;
  o.deterministic = true;
  expect_everywhere(in, o, status::ok, 0);
  o.reject_duplicate_keys = true;
  expect_everywhere(in, o, status::duplicate_key, 5);
  expect_everywhere(from_hex("A2 F97E00 00 F9FE00 01"), o, status::duplicate_key, 5);
}

TEST(DuplicateKeys, DeeplyNestedMapKeysStayLinear) {
  // One key: 300 nested maps {0: {0: ... {0: 0}}} whose innermost pair is
  // out of order twice over; then the same key sorted: a duplicate.
  auto nested = [](bool sorted) {
    std::string h;
    for (int i = 0; i < 300; ++i) h += "A1 00 ";
    h += sorted ? "A2 01 00 02 00" : "A2 02 00 01 00";
    return h;
  };
  const bytes first = from_hex(nested(false));
  const bytes in = from_hex("A2 " + nested(false) + " 00 " + nested(true) + " 01");
  reader_options o;
  o.reject_duplicate_keys = true;
  expect_everywhere(in, o, status::duplicate_key, 1 + first.size() + 1);
}

// Keys that are maps nested in keys: {{{...: 0}: 0}: 0}, `depth` maps deep,
// the innermost key `inner` (hex).
std::string key_chain(size_t depth, const std::string& inner) {
  std::string h;
  for (size_t i = 0; i < depth; ++i) h += "A1 ";
  h += inner;
  for (size_t i = 0; i < depth; ++i) h += " 00";
  return h;
}

/// A map of two keys, key_chain(depth, a) and key_chain(depth, b).
bytes two_chains(size_t depth, const std::string& a, const std::string& b) {
  return from_hex("A2 " + key_chain(depth, a) + " 00 " + key_chain(depth, b) + " 01");
}

TEST(DuplicateKeys, KeyChainsAtSeveralDepths) {
  reader_options o;
  o.reject_duplicate_keys = true;
  // The default depth limit (512) holds 512 maps in a key chain.
  for (size_t depth : {size_t(1), size_t(2), size_t(511), size_t(512)}) {
    SCOPED_TRACE("chain of " + std::to_string(depth));
    expect_everywhere(from_hex(key_chain(depth, "00")), o, status::ok, 0);
  }
  // Two chains in one map (one level more): equal keys whatever the head of
  // the innermost key (1 and 0x18 0x01, [1] and [0x18 0x01]) are duplicates
  // at the second chain; different ones are not.
  for (size_t depth : {size_t(1), size_t(2), size_t(510)}) {
    SCOPED_TRACE("two chains of " + std::to_string(depth));
    expect_everywhere(two_chains(depth, "01", "18 01"), o, status::duplicate_key, 2 * depth + 3);
    expect_everywhere(two_chains(depth, "81 01", "81 18 01"), o, status::duplicate_key,
                      2 * depth + 4);
    expect_everywhere(two_chains(depth, "01", "02"), o, status::ok, 0);
    expect_everywhere(two_chains(depth, "81 01", "81 02"), o, status::ok, 0);
  }
  expect_everywhere(two_chains(1, "01", "18 01"), o, status::duplicate_key, 5);
  // The deepest two chains the limit allows (512 levels with the outer map).
  expect_everywhere(two_chains(511, "01", "18 01"), o, status::duplicate_key, 1025);
  expect_everywhere(two_chains(511, "01", "02"), o, status::ok, 0);
  // One map over the limit: depth_exceeded at its head.
  expect_everywhere(from_hex(key_chain(513, "00")), o, status::depth_exceeded, 512);
  o.max_depth = 8;
  expect_everywhere(from_hex(key_chain(8, "00")), o, status::ok, 0);
  expect_everywhere(from_hex(key_chain(9, "00")), o, status::depth_exceeded, 8);
}

TEST(DuplicateKeys, KeyChainsWithTheDepthLimitRaised) {
  reader_options o;
  o.reject_duplicate_keys = true;
  o.max_depth = 10000;
  expect_everywhere(from_hex(key_chain(8000, "00")), o, status::ok, 0);
  expect_everywhere(two_chains(8000, "01", "18 01"), o, status::duplicate_key, 16003);
  expect_everywhere(two_chains(8000, "01", "02"), o, status::ok, 0);
}

// Keys {{x: 0}: 0} and {{y: 0}: 0}: x and y meet as keys of maps nested in
// keys, and are equal in the data model or not.
const row k_nested_key_rows[] = {
    {"array_key_head", "A2 A1 A1 81 01 00 00 00 A1 A1 81 18 01 00 00 01", status::duplicate_key, 8},
    {"indefinite_array", "A2 A1 A1 9F 01 FF 00 00 00 A1 A1 81 01 00 00 01", status::duplicate_key,
     9},
    {"indefinite_map", "A2 A1 A1 BF 01 00 FF 00 00 00 A1 A1 A1 01 00 00 00 01",
     status::duplicate_key, 10},
    {"map_entry_order", "A2 A1 A1 A2 01 00 02 00 00 00 00 A1 A1 A2 02 00 01 00 00 00 01",
     status::duplicate_key, 11},
    {"zero_and_negative_zero", "A2 A1 A1 F9 00 00 00 00 00 A1 A1 F9 80 00 00 00 01",
     status::duplicate_key, 9},
    {"nan_half_and_single", "A2 A1 A1 F9 7E 00 00 00 00 A1 A1 FA 7F C0 00 00 00 00 01",
     status::duplicate_key, 9},
    {"float_half_and_double",
     "A2 A1 A1 F9 3E 00 00 00 00 A1 A1 FB 3F F8 00 00 00 00 00 00 00 00 01", status::duplicate_key,
     9},
    {"bignum_and_int", "A2 A1 A1 C2 42 00 01 00 00 00 A1 A1 01 00 00 01", status::duplicate_key,
     10},
    {"indefinite_text", "A2 A1 A1 7F 61 61 61 62 FF 00 00 00 A1 A1 62 61 62 00 00 01",
     status::duplicate_key, 12},
    {"long_string_head", "A2 A1 A1 78 01 61 00 00 00 A1 A1 61 61 00 00 01", status::duplicate_key,
     9},
    {"long_tag_head", "A2 A1 A1 D8 01 00 00 00 00 A1 A1 C1 00 00 00 01", status::duplicate_key, 9},
    {"array_item_head", "A2 A1 A1 A1 00 81 01 00 00 00 A1 A1 A1 00 81 18 01 00 00 01",
     status::duplicate_key, 10},
    {"array_order", "A2 A1 A1 82 01 02 00 00 00 A1 A1 82 02 01 00 00 01", status::ok, 0},
    {"map_value", "A2 A1 A1 A1 01 00 00 00 00 A1 A1 A1 01 01 00 00 01", status::ok, 0},
    {"empty_array_and_map", "A2 A1 A1 A1 00 80 00 00 00 A1 A1 A1 00 A0 00 00 01", status::ok, 0},
    {"tag_number", "A2 A1 A1 C1 81 00 00 00 00 A1 A1 C2 81 00 00 00 01", status::ok, 0},
    {"array_lengths", "A2 A1 A1 81 80 00 00 00 A1 A1 82 80 80 00 00 01", status::ok, 0},
    {"float_and_int", "A2 A1 A1 F9 00 00 00 00 00 A1 A1 00 00 00 01", status::ok, 0},
    {"text_and_bytes", "A2 A1 A1 61 61 00 00 00 A1 A1 41 61 00 00 01", status::ok, 0},
    // A duplicate inside a map nested in a key: found there, at its offset.
    {"inner_map_duplicate", "A1 A1 A2 81 01 00 81 18 01 01 00 00", status::duplicate_key, 6},
};

TEST(DuplicateKeys, EqualByValueInsideNestedKeys) {
  reader_options o;
  o.reject_duplicate_keys = true;
  for (const row& r : k_nested_key_rows) {
    SCOPED_TRACE(r.name);
    expect_everywhere(from_hex(r.hex), o, r.code, r.offset);
  }
}

TEST(DuplicateKeys, NestedKeysCostLinearWork) {
  // The bytes the key checks hash or canonicalise (a counter of the key
  // checker): each byte a bounded number of times, however deep the keys
  // nest. Canonicalising each key whole at every level (before) costs about
  // depth / 2 times the input.
  reader_options o;
  o.reject_duplicate_keys = true;
  o.max_depth = 10000;
  for (size_t depth : {size_t(64), size_t(510), size_t(4000)}) {
    SCOPED_TRACE("two chains of " + std::to_string(depth));
    for (const char* inner : {"02", "81 02", "9F A1 02 80 FF"}) {
      const bytes in = two_chains(depth, inner, "01");
      const uint64_t before = cbor_fast::detail::key_work_counter();
      EXPECT_EQ(walk(in, o).code, status::ok);
      const uint64_t work = cbor_fast::detail::key_work_counter() - before;
      EXPECT_GT(work, in.size());
      EXPECT_LE(work, 4 * in.size());
    }
  }
}

TEST(DuplicateKeys, RunsOfTagsInKeysCostLinearWork) {
  // A key that is an array of runs of 500 tags, each run before an empty
  // array: each tag of a run asked whether a container follows the run by
  // scanning the rest of it, D^2 / 2 per run (1.6 MB took 1.3 s). The
  // counter counts those scans.
  reader_options o;
  o.reject_duplicate_keys = true;
  for (size_t runs : {size_t(4), size_t(64)}) {
    SCOPED_TRACE(std::to_string(runs) + " runs");
    bytes in = from_hex("A1 99");
    in.push_back(uint8_t(runs >> 8));
    in.push_back(uint8_t(runs));
    for (size_t i = 0; i < runs; ++i) {
      in.insert(in.end(), 500, 0xC6);
      in.push_back(0x80);
    }
    in.push_back(0x00);
    const uint64_t before = cbor_fast::detail::key_work_counter();
    EXPECT_EQ(walk(in, o).code, status::ok);
    const uint64_t work = cbor_fast::detail::key_work_counter() - before;
    EXPECT_GT(work, in.size());
    EXPECT_LE(work, 4 * in.size());
  }
}

TEST(Deterministic, PreferredWriterOutputPasses) {
  // The writer's preferred serialization with keys written in order is deterministic.
  cbor_fast::writer w;
  ASSERT_EQ(w.begin_map(4), status::ok);
  ASSERT_EQ(w.write_uint(1), status::ok);
  ASSERT_EQ(w.write_float(1.5), status::ok);
  ASSERT_EQ(w.write_uint(1000), status::ok);
  ASSERT_EQ(w.write_float(100000.0), status::ok);
  ASSERT_EQ(w.write_int(-300), status::ok);
  ASSERT_EQ(w.write_float(1.1), status::ok);
  ASSERT_EQ(w.write_text("z"), status::ok);
  ASSERT_EQ(w.write_uint(70000), status::ok);
  ASSERT_EQ(w.end(), status::ok);
  reader_options o;
  o.deterministic = true;
  expect_everywhere(bytes(w.data(), w.data() + w.size()), o, status::ok, 0);
}

// ---- limits agree everywhere ----------------------------------------------------------

TEST(Limits, SameStatusAndOffsetEverywhere) {
  struct limit_row {
    const char* name;
    const char* hex;
    uint32_t max_depth;
    uint64_t max_string;
    uint64_t max_entries;
    uint64_t max_items;
    status code;
    size_t offset;
  };
  constexpr uint64_t no = UINT64_MAX;
  const limit_row rows[] = {
      {"string at the limit", "4A 00010203040506070809", 512, 10, no, no, status::ok, 0},
      {"string over the limit", "4A 00010203040506070809", 512, 9, no, no, status::string_too_long,
       0},
      {"string over the limit in an array", "82 00 6A 30313233343536373839", 512, 9, no, no,
       status::string_too_long, 2},
      {"joined string at the limit", "5F 43010203 43040506 FF", 512, 6, no, no, status::ok, 0},
      {"joined string over the limit", "5F 43010203 43040506 FF", 512, 5, no, no,
       status::string_too_long, 5},
      {"joined text over the limit", "81 7F 63616263 63646566 FF", 512, 5, no, no,
       status::string_too_long, 6},
      {"array at the limit", "84 00 00 00 00", 512, no, 4, no, status::ok, 0},
      {"array over the limit", "85 00 00 00 00 00", 512, no, 4, no, status::container_too_large, 0},
      {"indefinite array over the limit", "9F 00 00 00 00 00 FF", 512, no, 4, no,
       status::container_too_large, 5},
      {"map over the limit", "A3 01 00 02 00 03 00", 512, no, 2, no, status::container_too_large,
       0},
      {"indefinite map over the limit", "BF 01 00 02 00 03 00 FF", 512, no, 2, no,
       status::container_too_large, 5},
      {"items at the limit", "83 00 00 00", 512, no, no, 4, status::ok, 0},
      {"items over the limit", "83 00 00 00", 512, no, no, 3, status::too_many_items, 3},
      {"chunks count as items", "5F 4100 4100 FF", 512, no, no, 2, status::too_many_items, 3},
      {"depth at the limit", "81 81 00", 2, no, no, no, status::ok, 0},
      {"depth over the limit", "81 81 81 00", 2, no, no, no, status::depth_exceeded, 2},
      {"tags count as depth", "C1 C1 C1 00", 2, no, no, no, status::depth_exceeded, 2},
  };
  for (const limit_row& r : rows) {
    SCOPED_TRACE(r.name);
    reader_options o;
    o.max_depth = r.max_depth;
    o.max_string_length = r.max_string;
    o.max_container_items = r.max_entries;
    o.max_items = r.max_items;
    expect_everywhere(from_hex(r.hex), o, r.code, r.offset);
  }
}

// ---- memory budget ------------------------------------------------------------------------

/// Counts live bytes and remembers the peak.
struct counting {
  size_t live = 0;
  size_t peak = 0;
  cbor_fast::allocator hooks{&do_malloc, &do_realloc, &do_free, this};
  static void* do_malloc(void* c, size_t n) {
    auto* self = static_cast<counting*>(c);
    self->add(n);
    return std::malloc(n);
  }
  static void* do_realloc(void* c, void* p, size_t old_size, size_t new_size) {
    auto* self = static_cast<counting*>(c);
    self->live -= old_size;
    self->add(new_size);
    return std::realloc(p, new_size);
  }
  static void do_free(void* c, void* p, size_t n) {
    static_cast<counting*>(c)->live -= n;
    std::free(p);
  }
  void add(size_t n) {
    live += n;
    if (live > peak) peak = live;
  }
};

bytes int_array(size_t n) {
  cbor_fast::writer w;
  EXPECT_EQ(w.begin_array(n), status::ok);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(w.write_uint(i % 24), status::ok);
  EXPECT_EQ(w.end(), status::ok);
  return bytes(w.data(), w.data() + w.size());
}

TEST(MemoryBudget, PeakNeverExceedsTheBudget) {
  const bytes in = int_array(100000);  // 100001 nodes of 24 bytes: about 2.4 MB
  using cbor_fast::detail::decode_path;
  for (decode_path path : {decode_path::automatic, decode_path::reader_only}) {
    // (0 would be the default budget, 32 bytes per input byte: see Defaults below.)
    for (size_t budget : {size_t(1), size_t(100), size_t(4096), size_t(65536), size_t(1) << 20,
                          size_t(2400000), size_t(2401100), size_t(16) << 20}) {
      SCOPED_TRACE("budget " + std::to_string(budget));
      counting c;
      document d(&c.hooks);
      decode_options o;
      o.max_memory = budget;
      error_info e;
      const status s = cbor_fast::detail::decode_buffer(in.data(), in.size(), d, o, &e, path);
      EXPECT_LE(c.peak, budget);
      if (budget >= size_t(2401100)) {
        // 100001 nodes (2,400,024 bytes) and the reader's stack (256) fit.
        EXPECT_EQ(s, status::ok);
        EXPECT_EQ(d.node_count(), 100001u);
      } else {
        EXPECT_EQ(s, status::memory_budget_exceeded);
        EXPECT_EQ(e.code, status::memory_budget_exceeded);
        EXPECT_LT(e.offset, in.size());
      }
    }
  }
}

TEST(MemoryBudget, CountsCopiedStringsAndKeyTables) {
  // 1000 distinct 100-byte text keys: copies alone need 100 KB.
  cbor_fast::writer w;
  ASSERT_EQ(w.begin_map(1000), status::ok);
  for (int i = 0; i < 1000; ++i) {
    std::string key(100, 'x');
    const std::string tail = std::to_string(i);
    key.replace(key.size() - tail.size(), tail.size(), tail);
    ASSERT_EQ(w.write_text(key), status::ok);
    ASSERT_EQ(w.write_uint(1), status::ok);
  }
  ASSERT_EQ(w.end(), status::ok);
  const bytes in(w.data(), w.data() + w.size());
  for (uint32_t flags : {uint32_t(cbor_fast::decode_copy_strings),
                         uint32_t(cbor_fast::decode_reject_duplicate_keys)}) {
    for (size_t budget : {size_t(60000), size_t(120000), size_t(1) << 20}) {
      SCOPED_TRACE("flags " + std::to_string(flags) + " budget " + std::to_string(budget));
      counting c;
      document d(&c.hooks);
      decode_options o;
      o.flags = flags;
      o.max_memory = budget;
      const status s = decode(in.data(), in.size(), d, o);
      EXPECT_LE(c.peak, budget);
      if (budget == (size_t(1) << 20)) {
        EXPECT_EQ(s, status::ok);
      } else if (budget == 60000) {
        EXPECT_EQ(s, status::memory_budget_exceeded);
      }
    }
  }
}

TEST(MemoryBudget, ReusedDocumentStartsFromNothing) {
  const bytes big = int_array(10000);
  const bytes small = int_array(10);
  counting c;
  document d(&c.hooks);
  ASSERT_EQ(decode(big.data(), big.size(), d), status::ok);
  decode_options o;
  o.max_memory = 1000;  // 11 nodes: 264 bytes
  EXPECT_EQ(decode(small.data(), small.size(), d, o), status::ok);
  EXPECT_EQ(d.node_count(), 11u);
  EXPECT_LE(c.live, 1000u);
}

TEST(MemoryBudget, SequenceAppliesItPerDocument) {
  bytes in = int_array(1000);
  const bytes second = int_array(1000);
  in.insert(in.end(), second.begin(), second.end());
  decode_options o;
  o.max_memory = 30000;  // one document of 1001 nodes: 24,024 bytes
  sequence seq(in.data(), in.size(), o);
  document d;
  EXPECT_EQ(seq.next_document(d), status::ok);
  EXPECT_EQ(seq.next_document(d), status::ok);
  EXPECT_EQ(seq.next_document(d), status::end);
  o.max_memory = 20000;
  sequence tight(in.data(), in.size(), o);
  EXPECT_EQ(tight.next_document(d), status::memory_budget_exceeded);
  EXPECT_EQ(tight.error().item_offset, 0u);
}

}  // namespace

// ---- safe defaults: what 0 means in every limit ----------------------------------

namespace {

TEST(Defaults, ZeroMeansTheDefaultInEveryLimit) {
  using cbor_fast::detail::resolve_limits;
  decode_options o;
  o.max_depth = 0;
  o.max_container_items = 0;
  const auto l = resolve_limits(o, 1000);
  EXPECT_EQ(l.max_depth, 512u);
  EXPECT_EQ(l.max_nodes, uint32_t(1) << 28);
  EXPECT_EQ(l.max_string_length, UINT64_MAX);
  EXPECT_EQ(l.max_container_items, uint64_t(1) << 24);  // since 0.5 (before: no limit)
  // The field's own default is that value too.
  EXPECT_EQ(resolve_limits(decode_options{}, 1000).max_container_items, uint64_t(1) << 24);
  EXPECT_EQ(l.max_memory, 32u * 1000u + (size_t(1) << 20));
  // Empty input: the slack alone.
  EXPECT_EQ(resolve_limits(o, 0).max_memory, size_t(1) << 20);
  // A size whose budget would overflow saturates below SIZE_MAX (still a budget).
  EXPECT_EQ(resolve_limits(o, SIZE_MAX / 8).max_memory, SIZE_MAX - 1);
}

TEST(Defaults, ExplicitValuesAndTheLargestMeanWhatTheySay) {
  using cbor_fast::detail::resolve_limits;
  decode_options o;
  o.max_depth = 7;
  o.max_nodes = 9;
  o.max_string_length = 10;
  o.max_container_items = 11;
  o.max_memory = 12;
  auto l = resolve_limits(o, 1000);
  EXPECT_EQ(l.max_depth, 7u);
  EXPECT_EQ(l.max_nodes, 9u);
  EXPECT_EQ(l.max_string_length, 10u);
  EXPECT_EQ(l.max_container_items, 11u);
  EXPECT_EQ(l.max_memory, 12u);
  o.max_nodes = UINT32_MAX;  // the hard limit
  o.max_container_items = UINT64_MAX;
  o.max_memory = SIZE_MAX;  // no budget
  l = resolve_limits(o, 1000);
  EXPECT_EQ(l.max_nodes, UINT32_MAX - 1);
  EXPECT_EQ(l.max_container_items, UINT64_MAX);
  EXPECT_EQ(l.max_memory, SIZE_MAX);
}

TEST(Defaults, ZeroMeansTheDefaultForReadersToo) {
  // A zeroed reader_options is the defaults, at construction and in
  // set_options(), and options() reports the limits in force.
  reader_options zero;
  zero.max_depth = 0;
  zero.max_string_length = 0;
  zero.max_container_items = 0;
  zero.max_items = 0;
  const uint8_t one[] = {0x01};
  const auto expect_defaults = [](const reader_options& o) {
    EXPECT_EQ(o.max_depth, 512u);
    EXPECT_EQ(o.max_string_length, UINT64_MAX);
    EXPECT_EQ(o.max_container_items, uint64_t(1) << 24);
    EXPECT_EQ(o.max_items, uint64_t(1) << 28);
  };
  {
    reader r(one, sizeof one, zero);
    expect_defaults(r.options());
  }
  {
    reader_options tight;
    tight.max_depth = 1;
    tight.max_string_length = 1;
    tight.max_container_items = 1;
    tight.max_items = 1;
    reader r(one, sizeof one, tight);
    EXPECT_EQ(r.options().max_depth, 1u);
    EXPECT_EQ(r.options().max_items, 1u);
    ASSERT_EQ(r.set_options(zero), status::ok);
    expect_defaults(r.options());
  }
  // The depth boundary of the default, reached through 0: 512 levels are
  // fine, the 513th fails at its head with depth 512.
  for (const size_t levels : {size_t(512), size_t(513)}) {
    SCOPED_TRACE(levels);
    bytes deep(levels, 0x81);
    deep.push_back(0x00);
    reader r(deep.data(), deep.size(), zero);
    if (levels == 512) {
      EXPECT_EQ(r.skip(), status::ok);
    } else {
      EXPECT_EQ(r.skip(), status::depth_exceeded);
      EXPECT_EQ(r.error().offset, 512u);
      EXPECT_EQ(r.error().depth, 512u);
    }
  }
  // max_items 0 is 2^28, not "no item": a scalar reads.
  reader r(one, sizeof one, zero);
  cbor_fast::item it;
  EXPECT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.value(), 1u);
  // A string of any length (max_string_length 0 is unlimited).
  const bytes text = from_hex("78 40" + std::string(128, '6'));
  reader t(text.data(), text.size(), zero);
  EXPECT_EQ(t.next(it), status::ok);
  EXPECT_EQ(it.text().size(), 64u);
}

TEST(OptionsModel, ReaderOptionsForIsWhatDecodeApplies) {
  decode_options o;
  o.flags = cbor_fast::decode_validate_utf8 | cbor_fast::decode_reject_duplicate_keys |
            cbor_fast::decode_deterministic | cbor_fast::decode_exact |
            cbor_fast::decode_copy_strings;
  o.max_depth = 3;
  o.max_nodes = 9;
  o.max_string_length = 10;
  o.max_container_items = 11;
  o.max_memory = 12;  // a reader has no budget: not carried over
  const reader_options ro = cbor_fast::reader_options_for(o);
  EXPECT_TRUE(ro.validate_utf8);
  EXPECT_TRUE(ro.reject_duplicate_keys);
  EXPECT_TRUE(ro.deterministic);
  EXPECT_FALSE(ro.streaming);
  EXPECT_EQ(ro.max_depth, 3u);
  EXPECT_EQ(ro.max_items, 9u);
  EXPECT_EQ(ro.max_string_length, 10u);
  EXPECT_EQ(ro.max_container_items, 11u);
  EXPECT_EQ(ro.alloc, nullptr);
  // Zeroes resolve to the reader's defaults, and no flag means no check.
  decode_options zero;
  zero.max_depth = 0;
  zero.max_container_items = 0;
  const reader_options rz = cbor_fast::reader_options_for(zero);
  EXPECT_EQ(rz.max_depth, 512u);
  EXPECT_EQ(rz.max_items, uint64_t(1) << 28);
  EXPECT_EQ(rz.max_string_length, UINT64_MAX);
  EXPECT_EQ(rz.max_container_items, uint64_t(1) << 24);
  EXPECT_FALSE(rz.validate_utf8 || rz.reject_duplicate_keys || rz.deterministic);
  // The hard node limit of documents is the reader's item limit too.
  zero.max_nodes = UINT32_MAX;
  EXPECT_EQ(cbor_fast::reader_options_for(zero).max_items, UINT32_MAX - 1u);
}

TEST(OptionsModel, ReaderFromDecodeOptionsFailsWhereDecodeFails) {
  // Each row: a reader made with reader_options_for(o) stops where decode(o) does.
  struct options_row {
    const char* name;
    const char* hex;
    uint32_t flags;
    uint32_t max_depth;
    uint32_t max_nodes;
    uint64_t max_string;
    uint64_t max_entries;
    status code;
    size_t offset;
  };
  using cbor_fast::decode_deterministic;
  using cbor_fast::decode_reject_duplicate_keys;
  using cbor_fast::decode_validate_utf8;
  const options_row rows[] = {
      {"depth at the limit", "81 81 00", 0, 2, 0, 0, 0, status::ok, 0},
      {"depth over the limit", "81 81 81 00", 0, 2, 0, 0, 0, status::depth_exceeded, 2},
      {"nodes at the limit", "83 00 00 00", 0, 0, 4, 0, 0, status::ok, 0},
      {"nodes over the limit", "83 00 00 00", 0, 0, 3, 0, 0, status::too_many_items, 3},
      {"string over the limit", "43 010203", 0, 0, 0, 2, 0, status::string_too_long, 0},
      {"array over the limit", "83 00 00 00", 0, 0, 0, 0, 2, status::container_too_large, 0},
      {"bad UTF-8 (at the bad byte)", "62 c328", decode_validate_utf8, 0, 0, 0, 0,
       status::invalid_utf8, 1},
      {"duplicate key", "a2 01 00 18 01 00", decode_reject_duplicate_keys, 0, 0, 0, 0,
       status::duplicate_key, 3},
      {"non-preferred head", "18 01", decode_deterministic, 0, 0, 0, 0,
       status::non_preferred_encoding, 0},
      {"no flags: all of it passes", "a2 01 00 18 01 62 c328", 0, 0, 0, 0, 0, status::ok, 0},
  };
  for (const options_row& r : rows) {
    SCOPED_TRACE(r.name);
    decode_options o;
    o.flags = r.flags;
    o.max_depth = r.max_depth;
    o.max_nodes = r.max_nodes;
    o.max_string_length = r.max_string;
    o.max_container_items = r.max_entries;
    const bytes in = from_hex(r.hex);
    document d;
    error_info e;
    EXPECT_EQ(cbor_fast::decode(in.data(), in.size(), d, o, &e), r.code);
    if (r.code != status::ok) {
      EXPECT_EQ(e.offset, r.offset);
    }
    reader rd(in.data(), in.size(), cbor_fast::reader_options_for(o));
    EXPECT_EQ(rd.skip(), r.code);
    if (r.code != status::ok) {
      EXPECT_EQ(rd.error().offset, r.offset);
    }
  }
}

TEST(OptionsModel, SequenceAppliesOptionsFlagsToEveryCall) {
  // [bad UTF-8], then {1: 0, 1: 0}: options.flags check both items, in next()
  // and in next_document(), together with the flags of the call.
  const bytes in = from_hex("81 62 c328 a2 01 00 01 00");
  decode_options o;
  o.flags = cbor_fast::decode_validate_utf8;
  {
    sequence s(in.data(), in.size(), o);
    size_t off = 0, len = 0;
    EXPECT_EQ(s.next(off, len), status::invalid_utf8);
    EXPECT_EQ(s.error().offset, 2u);
  }
  {
    sequence s(in.data(), in.size(), o);
    document d;
    EXPECT_EQ(s.next_document(d), status::invalid_utf8);
    EXPECT_EQ(s.error().offset, 2u);
  }
  {
    // Without the option the first item passes; the call's flag finds the key.
    sequence s(in.data(), in.size());
    document d;
    EXPECT_EQ(s.next_document(d), status::ok);
    EXPECT_EQ(s.next_document(d, cbor_fast::decode_reject_duplicate_keys), status::duplicate_key);
    EXPECT_EQ(s.error().offset, 7u);
  }
  {
    // Options and call flags add up.
    o.flags = cbor_fast::decode_reject_duplicate_keys;
    sequence s(in.data(), in.size(), o);
    size_t off = 0, len = 0;
    EXPECT_EQ(s.next(off, len), status::ok);
    EXPECT_EQ(len, 4u);
    EXPECT_EQ(s.next(off, len, cbor_fast::decode_validate_utf8), status::duplicate_key);
    EXPECT_EQ(s.error().offset, 7u);
  }
  {
    // A flag no version has: refused, sticky, before any item.
    decode_options bad;
    bad.flags = 1u << 30;
    sequence s(in.data(), in.size(), bad);
    size_t off = 0, len = 0;
    EXPECT_EQ(s.next(off, len), status::invalid_argument);
    EXPECT_EQ(s.error().code, status::invalid_argument);
    document d;
    EXPECT_EQ(s.next_document(d), status::invalid_argument);
  }
}

TEST(Defaults, DenseDocumentFitsHostileNestingDoesNot) {
  // 10^5 one-byte ints: 24 bytes of node per input byte, within 32.
  const bytes ints = int_array(100000);
  counting c;
  {
    document d(&c.hooks);
    EXPECT_EQ(cbor_fast::decode(ints.data(), ints.size(), d), status::ok);
    EXPECT_EQ(d.node_count(), 100001u);
  }
  EXPECT_LE(c.peak, 32 * ints.size() + (size_t(1) << 20));
  // 10^5 nested {0: ...} with duplicate-key checks: more than 32 bytes a byte.
  bytes maps;
  for (int i = 0; i < 100000; ++i) {
    maps.push_back(0xa1);
    maps.push_back(0x00);
  }
  maps.push_back(0x00);
  decode_options o;
  o.max_depth = 200000;
  o.flags = cbor_fast::decode_reject_duplicate_keys;
  counting m;
  document d(&m.hooks);
  error_info e;
  EXPECT_EQ(cbor_fast::decode(maps.data(), maps.size(), d, o, &e), status::memory_budget_exceeded);
  EXPECT_LE(m.peak, 32 * maps.size() + (size_t(1) << 20));
  o.max_memory = SIZE_MAX;
  EXPECT_EQ(cbor_fast::decode(maps.data(), maps.size(), d, o, &e), status::ok);
  EXPECT_GT(m.peak, 32 * maps.size() + (size_t(1) << 20));
}

}  // namespace
