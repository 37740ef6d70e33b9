// reader::visit() and reader::visit_items() against reader::next(): the same
// items with every field equal, the same final status, error offset and
// reader state, for valid input of every kind, for the corpus, for malformed
// and truncated input and under every limit and strict option. Then the
// rules of their own: one complete item per visit(), invalid_state at a
// container's end, and visit_items() stopping at its count and resuming.

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "conformance/test_util.hpp"
#include "corpus.hpp"

namespace {

using namespace cbor_fast_test;
using cbor_fast::error_info;
using cbor_fast::reader;
using cbor_fast::reader_options;

/// What a way of reading saw: the items, how it ended and where the reader stood.
struct trace {
  std::vector<item> items;
  status final = status::ok;
  error_info error;
  size_t offset = 0;
  uint32_t depth = 0;
  uint64_t count = 0;  ///< reader::items()
};

uint64_t u_bits(const item& it) {
  uint64_t b;
  std::memcpy(&b, &it.u, sizeof b);
  return b;
}

std::string describe(const item& it) {
  return "type " + std::to_string(int(it.type)) + " flags " + std::to_string(it.flags) + " head " +
         std::to_string(it.head_size) + " width " + std::to_string(it.width) + " depth " +
         std::to_string(it.depth) + " offset " + std::to_string(it.offset) + " arg " +
         std::to_string(it.arg) + " u " + to_hex_u64(u_bits(it));
}

/// After the last status, `again` (one more call) must repeat it and deliver nothing.
template <class Again>
void finish(trace& t, reader& r, status s, Again again) {
  const size_t seen = t.items.size();
  for (int i = 0; i < 2; ++i) EXPECT_EQ(again(), s) << "call after the end or error";
  EXPECT_EQ(t.items.size(), seen) << "items after the end or error";
  t.items.resize(seen);
  t.final = s;
  t.error = r.error();
  t.offset = r.offset();
  t.depth = r.depth();
  t.count = r.items();
}

trace by_next(const bytes& in, const reader_options& o) {
  reader r(in.data(), in.size(), o);
  trace t;
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) t.items.push_back(it);
  finish(t, r, s, [&] { return r.next(it); });
  return t;
}

trace by_visit(const bytes& in, const reader_options& o) {
  reader r(in.data(), in.size(), o);
  trace t;
  status s;
  auto v = [&t](const item& it) noexcept { t.items.push_back(it); };
  while ((s = r.visit(v)) == status::ok) {}
  finish(t, r, s, [&] { return r.visit(v); });
  return t;
}

trace by_visit_items(const bytes& in, const reader_options& o, size_t batch) {
  reader r(in.data(), in.size(), o);
  trace t;
  status s;
  for (;;) {
    size_t n = 0;
    const size_t before = t.items.size();
    s = r.visit_items([&t](const item& it) noexcept { t.items.push_back(it); }, batch, &n);
    EXPECT_EQ(n, t.items.size() - before) << "delivered count";
    if (s != status::ok) break;
    EXPECT_EQ(n, batch) << "ok means a full batch";
  }
  finish(t, r, s, [&] {
    size_t n = 0;
    const status again =
        r.visit_items([&t](const item& it) noexcept { t.items.push_back(it); }, batch, &n);
    EXPECT_EQ(n, 0u);
    return again;
  });
  return t;
}

/// visit_plain(), with next() wherever it declines; a decline must leave the
/// reader exactly as it was.
trace by_plain(const bytes& in, const reader_options& o) {
  reader r(in.data(), in.size(), o);
  trace t;
  item it;
  status s;
  auto v = [&t](const item& seen) noexcept { t.items.push_back(seen); };
  for (;;) {
    const size_t offset = r.offset(), seen = t.items.size();
    const uint32_t depth = r.depth();
    const uint64_t count = r.items();
    if (cbor_fast::detail::reader_access::visit_plain(r, v)) {
      EXPECT_EQ(t.items.size(), seen + 1) << "one item per visit_plain()";
      continue;
    }
    EXPECT_EQ(t.items.size(), seen) << "declined, yet delivered";
    EXPECT_EQ(r.offset(), offset) << "declined, yet moved";
    EXPECT_EQ(r.depth(), depth) << "declined, yet changed the depth";
    EXPECT_EQ(r.items(), count) << "declined, yet counted";
    if ((s = r.next(it)) != status::ok) break;
    t.items.push_back(it);
  }
  finish(t, r, s, [&] {
    EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v))
        << "visit_plain() after the end or an error";
    return r.next(it);
  });
  return t;
}

void expect_same(const trace& want, const trace& got, const std::string& what) {
  ASSERT_EQ(want.items.size(), got.items.size()) << what;
  for (size_t i = 0; i < want.items.size(); ++i)
    ASSERT_EQ(describe(want.items[i]), describe(got.items[i])) << what << ", item " << i;
  EXPECT_EQ(want.final, got.final) << what;
  EXPECT_EQ(want.error.code, got.error.code) << what;
  EXPECT_EQ(want.error.offset, got.error.offset) << what;
  EXPECT_EQ(want.error.depth, got.error.depth) << what;
  EXPECT_EQ(want.error.item_offset, got.error.item_offset) << what;
  EXPECT_EQ(want.offset, got.offset) << what;
  EXPECT_EQ(want.depth, got.depth) << what;
  EXPECT_EQ(want.count, got.count) << what;
}

/// Every way of visiting must read `in` as next() does.
void check_all_ways(const bytes& in, const reader_options& o, const std::string& what) {
  const trace want = by_next(in, o);
  expect_same(want, by_visit(in, o), what + " [visit]");
  expect_same(want, by_plain(in, o), what + " [visit_plain]");
  for (size_t batch : {size_t(1), size_t(2), size_t(3), size_t(7), size_t(256)})
    expect_same(want, by_visit_items(in, o, batch),
                what + " [visit_items " + std::to_string(batch) + "]");
}

std::vector<reader_options> option_sets() {
  std::vector<reader_options> sets(1);
  reader_options o;
  o.validate_utf8 = true;
  sets.push_back(o);
  o = {};
  o.max_depth = 2;
  sets.push_back(o);
  o = {};
  o.max_items = 5;
  sets.push_back(o);
  o = {};
  o.max_container_items = 2;
  sets.push_back(o);
  o = {};
  o.max_string_length = 3;
  sets.push_back(o);
  o = {};
  o.reject_duplicate_keys = true;
  sets.push_back(o);
  o = {};
  o.deterministic = true;
  sets.push_back(o);
  return sets;
}

// ---- named inputs -----------------------------------------------------------

struct named {
  const char* name;
  const char* hex;
};

const named rows[] = {
    // Every head kind and argument size, as one sequence each; padded with
    // enough bytes that the inline path (9 bytes of room) reads them.
    {"uints_23_24_255_256_65535_65536_2p32_max",
     "17 1818 18ff 190100 19ffff 1a00010000 1b0000000100000000 1bffffffffffffffff"},
    {"negatives_to_minus_2p64", "20 37 3818 38ff 390100 3a00010000 3bffffffffffffffff"},
    {"strings_of_each_head_size",
     "40 4161 58020102 590003616263 5a00000001ff 5b000000000000000178 60 6161 780162 "
     "79000163 7a0000000164 7b000000000000000165"},
    {"containers_of_each_head_size",
     "80 a0 8101 9800 990000 9a00000000 9b0000000000000000 b800 b90000 ba00000000 "
     "bb0000000000000000 a10102"},
    {"tags_of_each_head_size", "c001 d81802 d9010003 da0001000004 db000000010000000005 c1c2c3c440"},
    {"simple_values", "e0 f3 f4 f5 f6 f7 f820 f8ff"},
    {"floats", "f93c00 f97c00 f9fe00 fa47c35000 fa7f800000 fb3ff199999999999a fb7ff8000000000000"},
    // Halves and singles of every class: normal ones widen inline, zeros,
    // subnormals, infinities and NaNs (payloads kept) the general way.
    {"floats_of_every_class",
     "f90000 f98000 f90001 f983ff f90400 f97bff f9c000 f97c00 f9fc00 f97e01 f9fd00 "
     "fa00000000 fa80000000 fa00000001 fa807fffff fa00800000 fa7f7fffff fac0400000 "
     "fa7f800000 faff800000 fa7fc00001 faff800001 00 00 00 00 00 00 00 00"},
    {"nested", "83 01 82 02 83 03 84 04 05 06 07 a1 61 6b 80 c1 a0 81 c2 41 00"},
    {"tag_closes_levels", "82 c1 c2 c3 01 81 c4 82 c5 02 c6 03"},
    {"indefinite_mixed",
     "9f 01 bf 61 61 9f ff 62 6263 5f 41 01 42 0203 ff ff 7f 61 61 ff 80 ff 01 02 03 04 05 06 "
     "07 08 09"},
    {"indefinite_string_inside_definite",
     "83 5f 41 00 40 ff 7f 60 ff 82 01 02 00 00 00 00 00 00 00 00 00"},
    {"last_bytes_of_input", "82 1b 0000000000000001 83 f9 3c00 fb 3ff0000000000000 00"},
    {"tiny", "00"},
    {"empty", ""},
    {"top_level_sequence_of_scalars", "01 02 03 61 61 f5 f6 c1 00 80 a0 fa 00000000 00 00 00"},
    // Malformed and truncated: errors from the general path, at every depth.
    {"reserved_ai_in_array", "83 01 02 1c 00 00 00 00 00 00 00 00 00 00"},
    {"break_in_definite", "82 01 ff 00 00 00 00 00 00 00 00 00 00"},
    {"bad_simple_in_map", "a1 01 f8 1f 00 00 00 00 00 00 00 00 00 00"},
    {"string_past_end", "82 01 5a 00001000 00 00 00 00 00 00 00 00 00 00"},
    {"array_count_past_end", "81 9a 00001000 00 00 00 00 00 00 00 00 00 00"},
    {"map_missing_value", "bf 01 02 03 ff 00 00 00 00 00 00 00 00 00 00 00"},
    {"unclosed_definite", "83 01 02"},
    {"unclosed_indefinite", "9f 01 02 03 04 05 06 07 08 09 0a 0b"},
    {"tag_without_content", "81 c1"},
    {"chunk_type_mismatch", "5f 41 00 61 61 ff 00 00 00 00 00 00 00 00 00 00"},
    {"invalid_utf8_text", "82 62 c3 28 00 00 00 00 00 00 00 00 00 00 00"},
    {"duplicate_keys", "a3 01 02 03 04 01 05 00 00 00 00 00 00 00 00 00 00"},
    {"non_preferred", "83 18 01 19 0001 f9 3c00 00 00 00 00 00 00 00 00 00"},
    {"unsorted_keys", "a2 02 00 01 00 00 00 00 00 00 00 00 00 00 00 00 00"},
    {"deep", "81 81 81 81 81 81 81 00 00 00 00 00 00 00 00 00 00"},
    // Maps that close one after another: the key checks must see each close.
    {"sibling_maps", "84 a1 01 00 a1 01 00 a2 01 a1 01 00 02 00 bf 01 00 ff"},
    {"sibling_maps_duplicate_in_last", "83 a1 01 00 a1 01 00 a2 01 00 01 00"},
    {"error_then_end_of_array", "82 01 1805"},
    // Empty arrays and maps (visit() opens no level for them) at every place:
    // in arrays and maps, under a tag, as the last item of a level, nested.
    {"empty_containers", "86 80 a0 a2 80 a0 a0 80 c1 80 81 81 80 82 a0 81 80"},
    {"empty_containers_deep", "81 81 81 81 80 81 81 81 81 a0"},
    // Heads with the argument in the initial byte (at most 23) above the
    // small limits of the option sets, and past the end of the input.
    {"short_heads_over_small_limits",
     "85 64 61626364 83 01 02 03 a3 01 01 02 02 03 03 6b 68656c6c6f20776f726c64 44 00010203"},
    {"short_string_past_end", "82 01 77 0102030405060708090a0b0c0d0e0f101112131415"},
    {"short_array_past_end", "82 01 97 0102030405060708090a0b0c0d0e0f101112131415"},
    {"short_map_past_end",
     "82 01 b7 0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627"
     "28292a2b"},
};

TEST(reader_visit, named_rows_match_next_under_every_option_set) {
  const std::vector<reader_options> sets = option_sets();
  for (const named& row : rows) {
    bytes in = from_hex(row.hex);
    // As written: near the end of the input, where the visit loop tests every
    // head against the limits and the input left. Then followed by 48 zero
    // bytes, where a head with its argument in the initial byte skips those
    // tests when the limits allow (and must still stop where they do not).
    for (const char* where : {"", " +48"}) {
      if (*where != '\0') in.insert(in.end(), 48, 0x00);
      for (size_t k = 0; k < sets.size(); ++k)
        check_all_ways(in, sets[k],
                       std::string(row.name) + where + " options#" + std::to_string(k));
    }
  }
}

TEST(reader_visit, corpus_matches_next) {
  for (const char* name : {"twitter", "citm_catalog", "canada"}) {
    bytes in;
    ASSERT_TRUE(cbor_fast_test::read_corpus(name, in)) << name;
    const trace want = by_next(in, {});
    ASSERT_EQ(want.final, status::end) << name;
    expect_same(want, by_visit(in, {}), std::string(name) + " [visit]");
    expect_same(want, by_visit_items(in, {}, 64), std::string(name) + " [visit_items]");
    reader_options strict;
    strict.validate_utf8 = true;
    strict.reject_duplicate_keys = true;
    expect_same(by_next(in, strict), by_visit(in, strict), std::string(name) + " [strict]");
  }
}

// ---- random documents, then damaged ------------------------------------------

/// Appends one random data item (depth-limited) of any kind and head size.
void random_item(std::mt19937_64& rng, bytes& out, int depth) {
  auto head = [&](unsigned major, uint64_t v) {
    const unsigned pick = unsigned(rng() % 5);  // sometimes a longer head than needed
    if (v < 24 && pick == 0) {
      out.push_back(uint8_t(major << 5 | v));
    } else if (v < 256 && pick <= 1) {
      out.push_back(uint8_t(major << 5 | 24));
      out.push_back(uint8_t(v));
    } else if (v < 65536 && pick <= 2) {
      out.push_back(uint8_t(major << 5 | 25));
      for (int s = 8; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
    } else if (v <= 0xffffffffu && pick <= 3) {
      out.push_back(uint8_t(major << 5 | 26));
      for (int s = 24; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
    } else {
      out.push_back(uint8_t(major << 5 | 27));
      for (int s = 56; s >= 0; s -= 8) out.push_back(uint8_t(v >> s));
    }
  };
  const unsigned kind = unsigned(rng() % (depth > 4 ? 6 : 11));
  const uint64_t small = rng() % 30;
  switch (kind) {
    case 0: head(0, rng() % 4 == 0 ? rng() : small); break;
    case 1: head(1, rng() % 4 == 0 ? rng() : small); break;
    case 2:
    case 3: {
      const uint64_t n = rng() % 12;
      head(unsigned(kind), n);
      for (uint64_t i = 0; i < n; ++i) out.push_back(uint8_t('a' + rng() % 26));
      break;
    }
    case 4: {
      static const uint8_t simple[][10] = {
          {1, 0xf4},
          {1, 0xf5},
          {1, 0xf6},
          {1, 0xf7},
          {1, 0xe5},
          {2, 0xf8, 0x40},
          {3, 0xf9, 0x3c, 0x00},
          {5, 0xfa, 0x3f, 0xc0, 0x00, 0x00},
          {9, 0xfb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18}};
      const uint8_t* s = simple[rng() % 9];
      out.insert(out.end(), s + 1, s + 1 + s[0]);
      break;
    }
    case 5: head(0, small); break;
    case 6:
    case 7: {
      const uint64_t n = rng() % 5;
      const bool indefinite = rng() % 5 == 0;
      if (indefinite)
        out.push_back(kind == 6 ? 0x9f : 0xbf);
      else
        head(kind == 6 ? 4 : 5, n);
      for (uint64_t i = 0; i < (kind == 6 ? n : 2 * n); ++i) random_item(rng, out, depth + 1);
      if (indefinite) out.push_back(0xff);
      break;
    }
    case 8:
      head(6, small);
      random_item(rng, out, depth + 1);
      break;
    case 9: {
      out.push_back(rng() % 2 ? 0x5f : 0x7f);
      const uint8_t major = out.back() == 0x5f ? 0x40 : 0x60;
      for (uint64_t i = rng() % 3; i > 0; --i) {
        out.push_back(uint8_t(major | 1));
        out.push_back(uint8_t('a' + rng() % 26));
      }
      out.push_back(0xff);
      break;
    }
    default: head(4, 0); break;
  }
}

TEST(reader_visit, random_and_damaged_documents_match_next) {
  std::mt19937_64 rng(20261130);
  const std::vector<reader_options> sets = option_sets();
  size_t errors = 0;
  for (int round = 0; round < 3000; ++round) {
    bytes in;
    for (int n = int(rng() % 3) + 1; n > 0; --n) random_item(rng, in, 0);
    const unsigned damage = unsigned(rng() % 4);
    if (damage == 1 && !in.empty()) in.resize(rng() % in.size());            // truncated
    if (damage == 2 && !in.empty()) in[rng() % in.size()] = uint8_t(rng());  // one byte changed
    const std::string what = "round " + std::to_string(round) + " input " + to_hex(in);
    const reader_options& o = sets[size_t(rng() % sets.size())];
    const trace want = by_next(in, o);
    if (want.final != status::end) ++errors;
    expect_same(want, by_visit(in, o), what + " [visit]");
    expect_same(want, by_plain(in, o), what + " [visit_plain]");
    expect_same(want, by_visit_items(in, o, size_t(rng() % 5) + 1), what + " [visit_items]");
    if (HasFailure()) return;
  }
  // The damage must have produced errors for the error paths to be covered.
  EXPECT_GT(errors, 300u);
}

TEST(reader_visit, deep_nesting_grows_the_stack_and_stops_at_max_depth) {
  // 20,000 nested one-item arrays around a 0 (definite arrays need no
  // closing bytes). The visit loop pushes frames inline until the stack is
  // full, next() grows it (16, 64, ... frames), and the loop goes on.
  const size_t levels = 20000;
  bytes in(levels, 0x81);
  in.push_back(0x00);
  in.insert(in.end(), 16, 0x00);  // more top-level items after it
  reader_options deep;
  deep.max_depth = uint32_t(levels);
  check_all_ways(in, deep, "20000 levels allowed");
  const trace t = by_visit(in, deep);
  EXPECT_EQ(t.final, status::end);
  EXPECT_EQ(t.items.size(), 2 * levels + 1 + 16);  // starts, the 0, ends, the 16 zeros
  EXPECT_EQ(t.items[levels].depth, levels);

  // The default limit: depth_exceeded at the 513th array head, at every way.
  const trace capped = by_visit(in, {});
  EXPECT_EQ(capped.final, status::depth_exceeded);
  EXPECT_EQ(capped.error.offset, 512u);
  check_all_ways(in, {}, "default max_depth");
}

// ---- rules of their own -------------------------------------------------------

TEST(reader_visit, one_complete_item_per_call) {
  // [1, [2, 3]] then 4 then 0xc1 0x05 (a tag and its content).
  const bytes in = from_hex("82 01 82 02 03 04 c1 05");
  reader r(in.data(), in.size());
  std::vector<item_type> seen;
  auto v = [&seen](const item& it) noexcept { seen.push_back(it.type); };
  ASSERT_EQ(r.visit(v), status::ok);
  EXPECT_EQ(seen,
            (std::vector<item_type>{item_type::array, item_type::unsigned_int, item_type::array,
                                    item_type::unsigned_int, item_type::unsigned_int,
                                    item_type::end, item_type::end}));
  EXPECT_EQ(r.offset(), 5u);
  seen.clear();
  ASSERT_EQ(r.visit(v), status::ok);
  EXPECT_EQ(seen, std::vector<item_type>{item_type::unsigned_int});
  EXPECT_EQ(r.offset(), 6u);
  seen.clear();
  ASSERT_EQ(r.visit(v), status::ok);
  EXPECT_EQ(seen, (std::vector<item_type>{item_type::tag, item_type::unsigned_int}));
  EXPECT_EQ(r.depth(), 0u);
  EXPECT_EQ(r.visit(v), status::end);
  EXPECT_EQ(r.items(), 8u);
}

TEST(reader_visit, values_of_a_map_mixed_with_next) {
  // {"a": [1, 2], "b": 24, "c": {}} : keys by next(), values by visit().
  const bytes in = from_hex("a3 6161 82 01 02 6162 1818 6163 a0");
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(it.type, item_type::map);
  std::vector<std::string> values;
  auto v = [&values](const item& x) noexcept {
    values.push_back(std::to_string(int(x.type)) + ":" + std::to_string(x.arg) + "@" +
                     std::to_string(x.depth));
  };
  for (const char* key : {"a", "b", "c"}) {
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(it.text(), key);
    ASSERT_EQ(r.visit(v), status::ok);
  }
  EXPECT_EQ(values, (std::vector<std::string>{"5:2@1", "1:1@2", "1:2@2", "13:0@1", "1:24@1",
                                              "6:0@1", "13:0@1"}));
  // At the map's end there is nothing to visit; next() gives the end item.
  EXPECT_EQ(r.visit(v), status::invalid_state);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(it.offset, in.size());
  EXPECT_EQ(r.next(it), status::end);
}

TEST(reader_visit, empty_containers_visited_as_whole_items) {
  // {"a": [], "b": {}, "c": [[], {}]} and 48 bytes of zeros, so the values are
  // far from the end of the input: keys by next(), values by visit().
  bytes in = from_hex("a3 6161 80 6162 a0 6163 82 80 a0");
  const size_t doc_size = in.size();
  in.insert(in.end(), 48, 0x00);
  reader r(in.data(), in.size());
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  std::vector<std::string> values;
  auto v = [&values](const item& x) noexcept {
    values.push_back(std::to_string(int(x.type)) + ":" + std::to_string(x.arg) + "@" +
                     std::to_string(x.depth) + "+" + std::to_string(x.offset));
  };
  for (const char* key : {"a", "b", "c"}) {
    ASSERT_EQ(r.next(it), status::ok);
    EXPECT_EQ(it.text(), key);
    ASSERT_EQ(r.visit(v), status::ok) << key;
    EXPECT_EQ(r.depth(), 1u) << key;
  }
  EXPECT_EQ(values, (std::vector<std::string>{"5:0@1+3", "13:0@1+4", "6:0@1+6", "13:0@1+7",
                                              "5:2@1+9", "5:0@2+10", "13:0@2+11", "6:0@2+11",
                                              "13:0@2+12", "13:0@1+12"}));
  EXPECT_EQ(r.items(), 9u);
  EXPECT_EQ(r.offset(), doc_size);
  EXPECT_EQ(r.visit(v), status::invalid_state);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(it.offset, doc_size);
}

TEST(reader_visit, invalid_state_before_a_break_and_after_an_error) {
  const bytes in = from_hex("9f 01 ff");
  reader r(in.data(), in.size());
  item it;
  auto v = [](const item&) noexcept {};
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.visit(v), status::ok);
  EXPECT_EQ(r.visit(v), status::invalid_state);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_TRUE(it.flags & item::flag_break);

  const bytes bad = from_hex("82 01 1c");
  reader r2(bad.data(), bad.size());
  std::vector<item_type> seen;
  auto v2 = [&seen](const item& x) noexcept { seen.push_back(x.type); };
  EXPECT_EQ(r2.visit(v2), status::reserved_additional_info);
  EXPECT_EQ(r2.error().offset, 2u);
  EXPECT_EQ(seen, (std::vector<item_type>{item_type::array, item_type::unsigned_int}));
  EXPECT_EQ(r2.visit(v2), status::reserved_additional_info);  // sticky
  EXPECT_EQ(seen.size(), 2u);
}

TEST(reader_visit, errors_stay_sticky_where_a_level_is_full) {
  // The error is at the last item of the array: no end item may follow it.
  const bytes in = from_hex("82 01 1805");
  reader_options o;
  o.deterministic = true;
  reader r(in.data(), in.size(), o);
  std::vector<item_type> seen;
  auto v = [&seen](const item& x) noexcept { seen.push_back(x.type); };
  size_t n = 0;
  ASSERT_EQ(r.visit_items(v, 1, &n), status::ok);
  ASSERT_EQ(r.visit_items(v, 1, &n), status::ok);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(r.visit_items(v, 1, &n), status::non_preferred_encoding);
    EXPECT_EQ(n, 0u);
  }
  EXPECT_EQ(r.error().offset, 2u);
  EXPECT_EQ(seen, (std::vector<item_type>{item_type::array, item_type::unsigned_int}));
}

TEST(reader_visit, visit_items_stops_at_its_count_and_resumes) {
  // [1, [], 2] then nine 0s: array, 1, array, end, 2, end, 0 x 9.
  const bytes in = from_hex("83 01 80 02 00 00 00 00 00 00 00 00 00");
  reader r(in.data(), in.size());
  std::vector<std::string> seen;
  auto v = [&seen](const item& x) noexcept {
    seen.push_back(std::to_string(int(x.type)) + "@" + std::to_string(x.offset));
  };
  size_t n = 99;
  ASSERT_EQ(r.visit_items(v, 3, &n), status::ok);
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(seen, (std::vector<std::string>{"5@0", "1@1", "5@2"}));
  // Stopped inside the empty array: its end comes first on the next call.
  ASSERT_EQ(r.visit_items(v, 1, &n), status::ok);
  EXPECT_EQ(seen.back(), "13@3");
  item it;
  ASSERT_EQ(r.next(it), status::ok);  // next() and visit_items() share one position
  EXPECT_EQ(it.arg, 2u);
  ASSERT_EQ(r.visit_items(v, 2, &n), status::ok);
  EXPECT_EQ(seen.back(), "1@4");  // the array's end, then the first top-level 0
  EXPECT_EQ(seen[seen.size() - 2], "13@4");
  EXPECT_EQ(r.visit_items(v, 0, &n), status::ok);
  EXPECT_EQ(n, 0u);
  ASSERT_EQ(r.visit_items(v, 100, &n), status::end);
  EXPECT_EQ(n, 8u);  // the remaining eight 0s
  EXPECT_EQ(r.items(), 13u);
}

TEST(reader_visit, boundary_values_reach_the_visitor) {
  const bytes in = from_hex(
      "8b 17 1818 18ff 190100 19ffff 1a00010000 1b0000000100000000 1bffffffffffffffff "
      "3bffffffffffffffff fb3ff0000000000000 f97c00");
  reader r(in.data(), in.size());
  std::vector<uint64_t> args;
  std::vector<double> floats;
  auto v = [&](const item& x) noexcept {
    if (x.type == item_type::floating)
      floats.push_back(x.float_value());
    else if (x.type == item_type::unsigned_int || x.type == item_type::negative_int)
      args.push_back(x.value());
  };
  ASSERT_EQ(r.visit(v), status::ok);
  EXPECT_EQ(args, (std::vector<uint64_t>{23, 24, 255, 256, 65535, 65536, uint64_t(1) << 32,
                                         UINT64_MAX, UINT64_MAX}));
  ASSERT_EQ(floats.size(), 2u);
  EXPECT_EQ(floats[0], 1.0);
  EXPECT_TRUE(std::isinf(floats[1]));
}

// visit_plain() keeps its own bound on where it may read (the reader's
// plain_end_); every change of options, input or state must move that bound.
TEST(reader_visit, visit_plain_follows_a_lowered_item_budget) {
  // An indefinite array of 20 small ints, then padding (more zeros in the
  // array): far from the end, so only the budget of this top-level item
  // (the array's head and its entries) stops it.
  bytes in(40, 0x00);
  in[0] = 0x9f;
  for (uint8_t i = 0; i < 20; ++i) in[size_t(i) + 1] = i;
  reader r(in.data(), in.size());
  std::vector<uint64_t> seen;
  auto v = [&seen](const item& it) noexcept { seen.push_back(it.arg); };
  item it;
  ASSERT_EQ(r.next(it), status::ok);  // the array's head: one of the budget
  ASSERT_TRUE(cbor_fast::detail::reader_access::visit_plain(r, v));
  reader_options o;
  o.max_items = 3;  // two used: one more
  ASSERT_EQ(r.set_options(o), status::ok);
  ASSERT_TRUE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(seen, (std::vector<uint64_t>{0, 1}));
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(r.offset(), 3u);
  EXPECT_EQ(r.next(it), status::too_many_items);
  EXPECT_EQ(r.error().offset, 3u);
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
  // Raised again: the error stays (errors are sticky), and so does the decline.
  o.max_items = UINT64_MAX;
  ASSERT_EQ(r.set_options(o), status::ok);
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(seen.size(), 2u);
  // reset() clears the error and starts over on the new input (9, 10, ...).
  r.reset(in.data() + 10, 20);
  ASSERT_TRUE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(seen.back(), 9u);
  EXPECT_EQ(r.items(), 1u);
}

// visit_plain() (the C shims' per-item path) declines at its bound without
// moving it; reader_access::next_general(), its fallback, moves it once the
// general path has read an item, so the inline path takes over again.
TEST(reader_visit, visit_plain_bound_moves_in_its_fallback) {
  const bytes in(40, 0x01);  // forty top-level 1s
  reader_options o;
  o.max_items = 3;  // per top-level item; the inline path counts top-level scalars down
  reader r(in.data(), in.size(), o);
  std::vector<uint64_t> seen;
  auto v = [&seen](const item& it) noexcept { seen.push_back(it.offset); };
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(cbor_fast::detail::reader_access::visit_plain(r, v));
  // The budget is spent: only the general path renews it.
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(r.offset(), 3u);
  item it;
  ASSERT_EQ(cbor_fast::detail::reader_access::next_general(r, it), status::ok);
  EXPECT_EQ(it.offset, 3u);
  EXPECT_EQ(it.arg, 1u);
  // Renewed (two left) and the bound moved with it: inline again, twice.
  ASSERT_TRUE(cbor_fast::detail::reader_access::visit_plain(r, v));
  ASSERT_TRUE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(seen, (std::vector<uint64_t>{0, 1, 2, 4, 5}));
  EXPECT_EQ(r.offset(), 6u);
  EXPECT_EQ(r.items(), 6u);
  // Within the last 8 bytes the bound cannot move: the general path reads
  // each item there, and the end.
  r.reset(in.data(), 5);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
    ASSERT_EQ(cbor_fast::detail::reader_access::next_general(r, it), status::ok);
    EXPECT_EQ(it.offset, i);
  }
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(cbor_fast::detail::reader_access::next_general(r, it), status::end);
  EXPECT_EQ(r.error().code, status::ok);
}

TEST(reader_visit, visit_plain_declines_where_next_must_check) {
  // ["ab", "c" in two chunks, 5], then padding.
  const bytes in = from_hex("83 62 6162 7f 61 63 ff 05 00 00 00 00 00 00 00 00 00 00");
  reader r(in.data(), in.size());
  std::vector<item_type> seen;
  auto v = [&seen](const item& it) noexcept { seen.push_back(it.type); };
  item it;
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(
      r, v));  // a top-level container: next() notes where it starts
  ASSERT_EQ(r.next(it), status::ok);
  reader_options o;
  o.validate_utf8 = true;  // from now on, text is validated by next()
  ASSERT_EQ(r.set_options(o), status::ok);
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(r.offset(), 1u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::text_string);
  o.validate_utf8 = false;
  ASSERT_EQ(r.set_options(o), status::ok);
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(
      r, v));  // an indefinite string's start: next()'s
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(r.depth(), 2u);
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(
      r, v));  // its chunk: next() counts it against the string
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));  // its break
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  seen.clear();
  ASSERT_TRUE(cbor_fast::detail::reader_access::visit_plain(
      r, v));  // 5: inline again once the string is closed
  ASSERT_TRUE(cbor_fast::detail::reader_access::visit_plain(r, v));  // the array's end
  EXPECT_EQ(seen, (std::vector<item_type>{item_type::unsigned_int, item_type::end}));
  // The last 8 bytes (from offset 11) are next()'s, where it checks the
  // length of every head.
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(r.offset(), 11u);
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(r.offset(), 11u);
  // An error: declined from then on, even where the inline path could read.
  const bytes bad = from_hex("82 1c 00 00 00 00 00 00 00 00 00 00 00 00");
  r.reset(bad.data(), bad.size());
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(
      r, v));  // reserved additional information: next()'s
  EXPECT_EQ(r.next(it), status::reserved_additional_info);
  EXPECT_EQ(r.error().offset, 1u);
  EXPECT_FALSE(cbor_fast::detail::reader_access::visit_plain(r, v));
  EXPECT_EQ(r.offset(), 1u);
}

}  // namespace
