// Every way of reading agrees: reader::next(), reader::visit(), reader::skip(),
// the document decoder (cbor_fast::decode), the C API's cbor_reader_next()
// (one call per item) and cbor_reader_next_batch() (batches of 1, 3 and 256)
// yield the same items (every field), the same final status and the same
// error offset, on the corpus, on valid items of every head form and on
// malformed input of every cause of RFC 8949 Appendix F, each of which also
// has its status and offset asserted here. skip() yields no items: it must
// stop after the same top-level items (same offsets) and fail the same way;
// decode() must fail at the same offset, or build one node per item (string
// chunks joined).
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cbor_fast.h"
#include "cbor_fast/document.hpp"
#include "conformance/test_util.hpp"
#include "corpus.hpp"

namespace {

using namespace cbor_fast_test;
using cbor_fast::reader;

/// What next() saw: the reference.
struct trace {
  std::vector<item> items;
  std::vector<size_t> tops;  ///< offset after each complete top-level item
  status final = status::ok;
  size_t error_offset = 0;
};

std::string describe(const item& it) {
  uint64_t u;
  std::memcpy(&u, &it.u, sizeof u);
  return "type " + std::to_string(int(it.type)) + " flags " + std::to_string(it.flags) + " head " +
         std::to_string(it.head_size) + " width " + std::to_string(it.width) + " depth " +
         std::to_string(it.depth) + " offset " + std::to_string(it.offset) + " arg " +
         std::to_string(it.arg) + " u " + std::to_string(u);
}

bool same(const item& a, const item& b) {
  return a.type == b.type && a.flags == b.flags && a.head_size == b.head_size &&
         a.width == b.width && a.depth == b.depth && a.offset == b.offset && a.arg == b.arg &&
         std::memcmp(&a.u, &b.u, sizeof a.u) == 0;
}

void expect_items(const std::vector<item>& want, const std::vector<item>& got,
                  const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what << ": item count";
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_TRUE(same(want[i], got[i])) << what << ": item " << i << "\n  want " << describe(want[i])
                                       << "\n  got  " << describe(got[i]);
}

trace by_next(const bytes& in) {
  reader r(in.data(), in.size());
  trace t;
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) {
    t.items.push_back(it);
    if (r.depth() == 0) t.tops.push_back(r.offset());
  }
  t.final = s;
  t.error_offset = r.error().offset;
  return t;
}

void check_visit(const bytes& in, const trace& want, const std::string& what) {
  reader r(in.data(), in.size());
  std::vector<item> got;
  status s;
  while ((s = r.visit([&got](const item& it) noexcept { got.push_back(it); })) == status::ok) {}
  expect_items(want.items, got, what + " [visit]");
  EXPECT_EQ(s, want.final) << what << " [visit]";
  EXPECT_EQ(r.error().offset, want.error_offset) << what << " [visit]";
}

void check_skip(const bytes& in, const trace& want, const std::string& what) {
  reader r(in.data(), in.size());
  std::vector<size_t> tops;
  status s;
  while ((s = r.skip()) == status::ok) tops.push_back(r.offset());
  EXPECT_EQ(tops, want.tops) << what << " [skip]";
  EXPECT_EQ(s, want.final) << what << " [skip]";
  EXPECT_EQ(r.error().offset, want.error_offset) << what << " [skip]";
}

/// Each top-level item decoded on its own: ok with one node per item (chunks
/// of an indefinite string join into its node), or the reader's error.
void check_decode(const bytes& in, const trace& want, const std::string& what) {
  size_t start = 0;
  size_t next_item = 0;  // index into want.items of the top-level item's first item
  for (size_t k = 0; k <= want.tops.size(); ++k) {
    if (k == want.tops.size() && (want.final == status::end || start == in.size())) break;
    cbor_fast::document doc;
    cbor_fast::error_info err;
    const status s = cbor_fast::decode(in.data() + start, in.size() - start, doc, {}, &err);
    if (k == want.tops.size()) {
      // The item the reader failed in.
      EXPECT_EQ(s, want.final) << what << " [decode] item at " << start;
      EXPECT_EQ(start + err.offset, want.error_offset) << what << " [decode] item at " << start;
      return;
    }
    ASSERT_EQ(s, status::ok) << what << " [decode] item at " << start;
    // Items of this top-level item: all but end items and string chunks.
    size_t nodes = 0;
    uint32_t chunk_depth = UINT32_MAX;  // depth of chunks inside an open indefinite string
    const size_t stop = want.tops[k];
    for (; next_item < want.items.size() && want.items[next_item].offset < stop; ++next_item) {
      const item& it = want.items[next_item];
      if (it.type == item_type::end) {
        if (it.depth + 1 == chunk_depth) chunk_depth = UINT32_MAX;
        continue;
      }
      if (it.depth == chunk_depth) continue;
      ++nodes;
      if ((it.type == item_type::byte_string || it.type == item_type::text_string) &&
          it.is_indefinite())
        chunk_depth = it.depth + 1;
    }
    // A closing end item at the stop offset (a definite container's end has no byte).
    while (next_item < want.items.size() && want.items[next_item].type == item_type::end &&
           want.items[next_item].offset <= stop && want.items[next_item].depth == 0)
      ++next_item;
    EXPECT_EQ(doc.node_count(), nodes) << what << " [decode] item at " << start;
    start = stop;
  }
}

item from_c(const cbor_fast_item& c) {
  item it;
  it.type = static_cast<item_type>(c.type);
  it.flags = uint8_t(c.flags);
  it.head_size = uint8_t(c.head_size);
  it.width = uint8_t(c.float_width);
  it.depth = c.depth;
  it.offset = c.offset;
  it.arg = c.value;
  if (c.type == CBOR_FAST_TYPE_FLOAT) {
    it.u.dbl = c.float_value;
  } else {
    it.u.data = c.data;
  }
  return it;
}

void check_c(const bytes& in, const trace& want, size_t batch, const std::string& what) {
  cbor_reader* r = nullptr;
  ASSERT_EQ(cbor_reader_new(in.data(), in.size(), nullptr, &r), CBOR_FAST_OK);
  std::vector<item> got;
  cbor_fast_status s;
  const std::string how = batch == 0 ? " [cbor_reader_next]"
                                     : " [cbor_reader_next_batch " + std::to_string(batch) + "]";
  if (batch == 0) {
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    while ((s = cbor_reader_next(r, &it)) == CBOR_FAST_OK) got.push_back(from_c(it));
  } else {
    std::vector<cbor_fast_item> items(batch);
    items[0] = cbor_fast_item CBOR_FAST_ITEM_INIT;
    size_t n = 0;
    while ((s = cbor_reader_next_batch(r, items.data(), batch, &n)) == CBOR_FAST_OK) {
      EXPECT_NE(n, 0u) << what << how;
      for (size_t i = 0; i < n; ++i) got.push_back(from_c(items[i]));
    }
    EXPECT_EQ(n, 0u) << what << how;
  }
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_reader_error(r, &e);
  cbor_reader_free(r);
  expect_items(want.items, got, what + how);
  EXPECT_EQ(int(s), int(want.final)) << what << how;
  EXPECT_EQ(e.offset, want.error_offset) << what << how;
}

void check_all_paths(const bytes& in, const trace& want, const std::string& what) {
  check_visit(in, want, what);
  check_skip(in, want, what);
  check_decode(in, want, what);
  check_c(in, want, 0, what);
  for (size_t batch : {1u, 3u, 256u}) check_c(in, want, batch, what);
}

bytes read_corpus(const std::string& name) {
  bytes in;
  EXPECT_TRUE(cbor_fast_test::read_corpus(name, in)) << name;
  return in;
}

TEST(reader_paths, corpus) {
  for (const char* name : cbor_fast_test::k_corpus_names) {
    const bytes in = read_corpus(name);
    ASSERT_FALSE(in.empty()) << name;
    const trace want = by_next(in);
    ASSERT_EQ(want.final, status::end) << name;
    ASSERT_EQ(want.tops, std::vector<size_t>{in.size()}) << name;
    ASSERT_GT(want.items.size(), 1000u) << name;
    check_all_paths(in, want, name);
  }
}

/// Valid input: every head form, at the boundaries of each argument size.
struct valid_row {
  const char* name;
  const char* hex;
  size_t items;  ///< items next() yields, end items included
};

const valid_row valid_rows[] = {
    {"uint_23_24_255_256", "17 18 18 18 ff 19 0100", 4},
    {"uint_65535_65536", "19 ffff 1a 00010000", 2},
    {"uint_2p32_max", "1b 0000000100000000 1b ffffffffffffffff", 2},
    {"negint_forms", "20 38 18 39 0100 3a 00010000 3b ffffffffffffffff", 5},
    {"bytes_text_forms", "40 41 00 58 18 000102030405060708090a0b0c0d0e0f1011121314151617 60 61 61",
     5},
    {"indefinite_strings", "5f 41 00 42 0102 ff 7f 61 61 60 ff", 8},
    {"arrays_maps_empty", "80 a0 9f ff bf ff", 8},
    {"nested_definite", "82 81 a1 01 82 02 03 c1 1a 514b67b0", 13},
    {"indefinite_nested", "9f 01 bf 61 61 9f ff ff 82 02 03 ff", 12},
    {"simple_values", "e0 f3 f4 f5 f6 f7 f8 20 f8 ff", 8},
    {"floats", "f9 3c00 f9 0001 f9 7c00 fa 47c35000 fa 7f800000 fb 3ff199999999999a", 6},
    {"singles_each_side_of_normal",
     "fa 00000001 fa 007fffff fa 00800000 fa 7f7fffff fa 80000000 fa ff800000 fa 7f800001"
     " fa ffc00001 fa 80800000",
     9},
    {"tags_nested", "d8 20 d9 0100 da 00010000 c0 60", 5},
    {"sequence_of_three", "01 81 02 a1 61 6b 03", 8},
    // Nine bytes or fewer left: the inline paths hand over to the general one.
    {"near_the_end", "83 1b 0000000100000000 19 0100 f9 3c00", 5},
};

TEST(reader_paths, valid_items_of_every_form) {
  for (const valid_row& row : valid_rows) {
    const bytes in = from_hex(row.hex);
    const trace want = by_next(in);
    ASSERT_EQ(want.final, status::end) << row.name;
    ASSERT_EQ(want.items.size(), row.items) << row.name;
    check_all_paths(in, want, row.name);
  }
}

/// Malformed input by cause: the status and offset next() must give, then
/// every path must give the same.
struct bad_row {
  const char* name;
  const char* hex;
  status code;
  size_t offset;
};

const bad_row bad_rows[] = {
    // End of input in a head.
    {"uint8_no_arg", "18", status::truncated, 0},
    {"uint64_7_of_8", "1b 01 02 03 04 05 06 07", status::truncated, 0},
    {"double_3_of_8_in_array", "81 fb 00 00 00", status::truncated, 1},
    // Definite strings with short data.
    {"text_1_of_0", "61", status::truncated, 0},
    {"bytes_4g_of_1", "5a ff ff ff ff 00", status::truncated, 0},
    {"text_24_in_map", "a1 61 61 78 18 00", status::truncated, 3},
    // Definite containers not closed.
    {"array_2_of_1", "82 00", status::truncated, 0},
    {"array_nested_9", "81 81 81 81 81 81 81 81 81", status::truncated, 8},
    {"map_2_pairs_3_bytes", "a2 00 00 00", status::truncated, 0},
    {"tag0_alone", "c0", status::truncated, 1},
    // Indefinite forms not closed.
    {"bytes_one_chunk", "5f 41 00", status::truncated, 3},
    {"array_two_items", "9f 01 02", status::truncated, 3},
    {"map_two_pairs", "bf 01 02 01 02", status::truncated, 5},
    // Reserved additional information.
    {"uint_ai28", "1c", status::reserved_additional_info, 0},
    {"array_ai30_inside", "82 00 9e", status::reserved_additional_info, 2},
    {"simple_ai29", "fd", status::reserved_additional_info, 0},
    // One-byte simple values below 32.
    {"simple8_31", "f8 1f", status::bad_simple_value, 0},
    {"simple8_0_in_array", "82 01 f8 00", status::bad_simple_value, 2},
    // Chunks of the wrong kind, nested indefinite chunks.
    {"text_chunk_in_bytes", "5f 61 00 ff", status::chunk_type_mismatch, 1},
    {"uint_in_text", "7f 01 ff", status::chunk_type_mismatch, 1},
    {"nested_indefinite_chunk", "5f 5f ff ff", status::nested_indefinite_chunk, 1},
    // Breaks where none may be.
    {"break_alone", "ff", status::unexpected_break, 0},
    {"break_in_definite_array", "81 ff", status::unexpected_break, 1},
    {"break_in_map_value", "bf 01 ff", status::map_missing_value, 2},
    // Indefinite length on majors 0, 1 and 6.
    {"uint_indefinite", "1f", status::indefinite_not_allowed, 0},
    {"tag_indefinite", "82 00 df", status::indefinite_not_allowed, 2},
    // After good top-level items.
    {"second_item_bad", "01 02 1c", status::reserved_additional_info, 2},
};

TEST(reader_paths, malformed_input_of_every_cause) {
  for (const bad_row& row : bad_rows) {
    const bytes in = from_hex(row.hex);
    const trace want = by_next(in);
    ASSERT_EQ(want.final, row.code) << row.name;
    ASSERT_EQ(want.error_offset, row.offset) << row.name;
    check_all_paths(in, want, row.name);
  }
}

// Every prefix of a document with every head form ends in truncated at the
// same offset on every path.
TEST(reader_paths, every_truncation) {
  const bytes full = from_hex(
      "a4 61 61 83 01 39 0100 fb 3ff199999999999a 62 6262 9f 5f 41 00 ff c1 1a 514b67b0 ff"
      " 63 636363 bf 18 ff f5 ff 61 64 d8 20 78 19 "
      "00000000000000000000000000000000000000000000000000");
  ASSERT_EQ(by_next(full).final, status::end);
  for (size_t n = 1; n < full.size(); ++n) {
    const bytes in(full.begin(), full.begin() + std::ptrdiff_t(n));
    const trace want = by_next(in);
    ASSERT_EQ(want.final, status::truncated) << "prefix " << n;
    check_all_paths(in, want, "prefix " + std::to_string(n));
  }
}

}  // namespace
