// Input in parts: the streaming reader (reader_options::streaming, feed(),
// need_more) and the stream helper, against one-shot reads of the same bytes.
//
// Every comparison feeds the input in pieces two ways: a buffer that grows
// (feed(data, size, 0)), and a window that keeps only the stream from
// keep_from() on, copied into a fresh allocation each time so that a
// reader touching dropped bytes trips AddressSanitizer.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../unit/document_test_util.hpp"
#include "cbor_fast/diag.hpp"
#include "cbor_fast/document.hpp"
#include "cbor_fast/json.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/stream.hpp"
#include "shared_vectors.h"
#include "corpus.hpp"

namespace {

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::reader;
using cbor_fast::reader_options;
using cbor_fast::status;
using cbor_fast::doc_test::bytes;
using cbor_fast::doc_test::hex;

/// One item as a comparable line: every field, string content included.
std::string describe(const item& it) {
  std::string s = std::to_string(int(it.type)) + "/" + std::to_string(it.flags) + "/" +
                  std::to_string(it.head_size) + "/" + std::to_string(it.width) + " d" +
                  std::to_string(it.depth) + " @" + std::to_string(it.offset) + " a" +
                  std::to_string(it.arg);
  if ((it.type == item_type::byte_string || it.type == item_type::text_string) &&
      !it.is_indefinite())
    s += " '" + std::string(reinterpret_cast<const char*>(it.u.data), size_t(it.arg)) + "'";
  if (it.type == item_type::floating) {
    uint64_t bits;
    std::memcpy(&bits, &it.u.dbl, sizeof bits);
    s += " f" + std::to_string(bits);
  }
  return s;
}

/// What a whole read saw: the items, then the final status with its offsets.
struct trace {
  std::vector<std::string> items;
  status last = status::ok;
  size_t error_offset = 0;
  size_t error_item_offset = 0;
  bool operator==(const trace& o) const {
    return items == o.items && last == o.last && error_offset == o.error_offset &&
           error_item_offset == o.error_item_offset;
  }
};

std::ostream& operator<<(std::ostream& os, const trace& t) {
  os << t.items.size() << " items, last " << cbor_fast::status_name(t.last) << " at "
     << t.error_offset << " (item " << t.error_item_offset << ")";
  return os;
}

void finish(trace& t, const reader& r, status s) {
  t.last = s;
  if (cbor_fast::is_error(s)) {
    t.error_offset = r.error().offset;
    t.error_item_offset = r.error().item_offset;
  }
}

trace one_shot(const bytes& in, const reader_options& o) {
  trace t;
  reader r(in.data(), in.size(), o);
  item it;
  status s;
  while ((s = r.next(it)) == status::ok) t.items.push_back(describe(it));
  finish(t, r, s);
  return t;
}

enum class mode { grow, window };

/// Chunk sizes: a fixed size, or random sizes up to `max` from a seed.
struct chunker {
  size_t fixed;
  uint32_t seed;
  size_t max;
  std::mt19937 rng{seed};
  size_t next() {
    if (fixed != 0) return fixed;
    return std::uniform_int_distribution<size_t>(1, max)(rng);
  }
};

/// Feeds `in` in pieces to a streaming reader; `step` runs one read call
/// and returns its status (need_more means: feed, then call again).
template <class Step>
trace fed(const bytes& in, reader_options o, chunker ch, mode m, Step step) {
  o.streaming = true;
  trace t;
  size_t avail = 0;             // bytes of `in` handed over so far
  const bytes grown = in;       // grow mode: the prefix [0, avail) of one buffer
  std::vector<uint8_t> window;  // the window mode's current buffer
  reader r(static_cast<const uint8_t*>(nullptr), 0, o);
  for (;;) {
    const status s = step(r, t);
    if (s == status::ok) continue;
    if (s != status::need_more) {
      finish(t, r, s);
      return t;
    }
    EXPECT_GE(r.needed(), 1u);
    if (avail == in.size()) {
      r.end_input();
      continue;
    }
    const size_t n = std::min(ch.next(), in.size() - avail);
    avail += n;
    if (m == mode::grow) {
      EXPECT_EQ(r.feed(grown.data(), avail, 0), status::ok);
    } else {
      const size_t keep = r.keep_from();
      EXPECT_LE(keep, r.offset());
      std::vector<uint8_t> fresh(in.begin() + long(keep), in.begin() + long(avail));
      window.swap(fresh);  // the old window is freed: stale reads trip ASan
      EXPECT_EQ(r.feed(window.data(), window.size(), keep), status::ok);
    }
  }
}

trace fed_next(const bytes& in, const reader_options& o, chunker ch, mode m) {
  return fed(in, o, ch, m, [](reader& r, trace& t) {
    item it;
    const status s = r.next(it);
    if (s == status::ok) t.items.push_back(describe(it));
    return s;
  });
}

/// The whole input at once to a streaming reader, end_input() at its first
/// need_more: what feeding in pieces must give. It differs from one_shot()
/// only where a definite array or map counts more entries than bytes are
/// left: a one-shot read refuses that at the head, a stream cannot know yet.
trace all_at_once_streaming(const bytes& in, const reader_options& o) {
  return fed(in, o, chunker{SIZE_MAX, 0, 0}, mode::grow, [](reader& r, trace& t) {
    item it;
    const status s = r.next(it);
    if (s == status::ok) t.items.push_back(describe(it));
    return s;
  });
}

/// one_shot() and the streaming reference agree, but for the count check.
void expect_reference_agrees(const bytes& in, const trace& plain, const trace& ref,
                             const std::string& name) {
  if (plain == ref) return;
  ASSERT_EQ(plain.last, status::truncated) << name;
  ASSERT_LT(plain.error_offset, in.size()) << name;
  const unsigned major = in[plain.error_offset] >> 5;
  EXPECT_TRUE(major == 4 || major == 5) << name << ": differs not at an array or map head";
  EXPECT_LE(plain.items.size(), ref.items.size()) << name;
}

void expect_same_every_way(const bytes& in, const reader_options& o, const std::string& name,
                           bool well_formed = true) {
  const trace plain = one_shot(in, o);
  const trace want = all_at_once_streaming(in, o);
  if (well_formed)
    EXPECT_EQ(want, plain) << name;
  else
    expect_reference_agrees(in, plain, want, name);
  for (mode m : {mode::grow, mode::window}) {
    const char* mname = m == mode::grow ? "grow" : "window";
    EXPECT_EQ(fed_next(in, o, chunker{1, 0, 0}, m), want)
        << name << " one byte at a time, " << mname;
    EXPECT_EQ(fed_next(in, o, chunker{0, 7, 13}, m), want) << name << " random chunks, " << mname;
  }
}

using cbor_fast_test::k_corpus_names;

bytes corpus(const char* name) {
  bytes in;
  EXPECT_TRUE(cbor_fast_test::read_corpus(name, in)) << name;
  return in;
}

// ---- need_more: exact counts, nothing consumed ------------------------------

struct need_row {
  const char* name;
  const char* hex;
  int items_first;  ///< items next() returns before need_more
  size_t offset;    ///< reader offset at need_more
  size_t needed;    ///< needed() there
  size_t trunc_at;  ///< after end_input(): truncated at this offset
};

const need_row need_rows[] = {
    {"empty_buffer_top_level", "", 0, 0, 1, SIZE_MAX},
    {"uint16_head_missing_one", "19 01", 0, 0, 1, 0},
    {"uint64_head_missing_seven", "1b 00", 0, 0, 7, 0},
    {"text_missing_three_of_five", "65 68 65", 0, 0, 3, 0},
    {"bytes_65536_all_missing", "5a 00 01 00 00", 0, 0, 65536, 0},
    {"text_256_one_here", "79 01 00 61", 0, 0, 255, 0},
    {"text_length_in_eight_bytes_two_missing", "7b 00 00 00 00 00 00 00 03 61", 0, 0, 2, 0},
    {"bytes_length_in_four_bytes_head_missing_two", "5a 00 01", 0, 0, 2, 0},
    {"text_in_a_map_value_after_a_long_key",
     "a1 78 18 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b"
     " 6b 6b 6b 6b 6b 6b 6b 78 20 76",
     2, 27, 31, 27},
    {"array_second_element", "82 01", 2, 2, 1, 2},
    {"inside_indefinite_text", "7f 61 61", 2, 3, 1, 3},
    {"map_value_missing", "a1 01", 2, 2, 1, 2},
    {"tag_content_missing", "c1", 1, 1, 1, 1},
    {"float64_missing_eight", "fb", 0, 0, 8, 0},
    {"definite_array_count_beyond_the_bytes", "9a 00 01 00 00 01", 2, 6, 1, 6},
    // The input ends between two items, right after a level completes: its
    // end (or the tag's pop) comes first, then need_more for the next item.
    {"after_a_tagged_item", "c1 01", 2, 2, 1, SIZE_MAX},
    {"after_a_complete_array", "81 01", 3, 2, 1, SIZE_MAX},
    {"after_an_inner_array_in_an_outer_one", "82 81 01", 4, 3, 1, 3},
};

class need_more_rows : public ::testing::TestWithParam<need_row> {};

TEST_P(need_more_rows, count_offset_and_nothing_consumed) {
  const need_row& row = GetParam();
  const bytes in = hex(row.hex);
  reader_options o;
  o.streaming = true;
  reader r(in.data(), in.size(), o);
  item it;
  for (int i = 0; i < row.items_first; ++i) ASSERT_EQ(r.next(it), status::ok) << i;
  const size_t items = r.items();
  EXPECT_EQ(r.next(it), status::need_more);
  EXPECT_EQ(r.offset(), row.offset);
  EXPECT_EQ(r.needed(), row.needed);
  EXPECT_EQ(r.items(), items);
  // Not sticky, nothing changed: the same answer again.
  EXPECT_EQ(r.next(it), status::need_more);
  EXPECT_EQ(r.needed(), row.needed);
  EXPECT_EQ(r.error().code, status::ok);
  r.end_input();
  if (row.trunc_at == SIZE_MAX) {
    EXPECT_EQ(r.next(it), status::end);
  } else {
    EXPECT_EQ(r.next(it), status::truncated);
    EXPECT_EQ(r.error().offset, row.trunc_at);
  }
}

INSTANTIATE_TEST_SUITE_P(rows, need_more_rows, ::testing::ValuesIn(need_rows),
                         [](const ::testing::TestParamInfo<need_row>& i) { return i.param.name; });

TEST(streaming, exactly_the_needed_bytes_complete_the_item) {
  const bytes whole = hex("65 68 65 6c 6c 6f 01");  // "hello", 1
  reader_options o;
  o.streaming = true;
  reader r(whole.data(), 3, o);
  item it;
  ASSERT_EQ(r.next(it), status::need_more);
  ASSERT_EQ(r.needed(), 3u);
  ASSERT_EQ(r.feed(whole.data(), 3 + r.needed(), 0), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(describe(it), describe([&] {
              reader one(whole.data(), whole.size());
              item x;
              EXPECT_EQ(one.next(x), status::ok);
              return x;
            }()));
  EXPECT_EQ(r.next(it), status::need_more);
  EXPECT_EQ(r.offset(), 6u);
  ASSERT_EQ(r.feed(whole.data() + 6, 1, 6), status::ok);  // a window from offset 6
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::unsigned_int);
  EXPECT_EQ(it.offset, 6u);
  EXPECT_EQ(it.arg, 1u);
}

TEST(streaming, a_partial_string_over_max_string_length_fails_at_its_head) {
  // The string's length is known from its head: too long is an error even
  // before its bytes come; up to the limit it waits.
  const bytes in = hex("82 01 65 68 65");  // [1, "he... (five bytes, two here)
  for (const uint64_t limit : {4u, 5u}) {
    reader_options o;
    o.streaming = true;
    o.max_string_length = limit;
    reader r(in.data(), in.size(), o);
    item it;
    ASSERT_EQ(r.next(it), status::ok);
    ASSERT_EQ(r.next(it), status::ok);
    if (limit == 4) {
      EXPECT_EQ(r.next(it), status::string_too_long);
      EXPECT_EQ(r.error().offset, 2u);
      EXPECT_EQ(r.next(it), status::string_too_long);  // sticky
    } else {
      EXPECT_EQ(r.next(it), status::need_more);
      EXPECT_EQ(r.needed(), 3u);
      EXPECT_EQ(r.offset(), 2u);
      EXPECT_EQ(r.error().code, status::ok);
    }
  }
}

TEST(streaming, feed_refuses_buffers_that_lose_unread_bytes) {
  const bytes in = hex("82 01 02");
  reader_options o;
  o.streaming = true;
  reader r(in.data(), 2, o);
  item it;
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  ASSERT_EQ(r.offset(), 2u);
  // Starts past keep_from() (offset 2): byte 2 would be lost.
  EXPECT_EQ(r.feed(in.data() + 1, 2, 3), status::invalid_argument);
  // Ends before the reader's offset.
  EXPECT_EQ(r.feed(in.data(), 1, 0), status::invalid_argument);
  EXPECT_EQ(r.feed(static_cast<const uint8_t*>(nullptr), 1, 0), status::invalid_argument);
  // Not sticky: a good buffer goes on.
  EXPECT_EQ(r.error().code, status::ok);
  ASSERT_EQ(r.feed(in.data() + 2, 1, 2), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.arg, 2u);
  EXPECT_EQ(it.offset, 2u);
}

TEST(streaming, a_map_of_2_to_the_63_pairs_or_more_is_too_large_even_without_a_limit) {
  // 2 * count children wrapped: 2^63 + 1 pairs were read as a map of two
  // items, {1: 2} (cbor-fast diag printed "{1: 2}").
  struct row {
    const char* name;
    const char* head;
    status want;
  } rows[] = {
      {"2^63 - 1 pairs: waits for them", "bb 7fffffffffffffff", status::need_more},
      {"2^63 pairs", "bb 8000000000000000", status::container_too_large},
      {"2^63 + 1 pairs", "bb 8000000000000001", status::container_too_large},
      {"2^64 - 1 pairs", "bb ffffffffffffffff", status::container_too_large},
  };
  for (const row& w : rows) {
    bytes in = hex(w.head);
    const bytes pair = hex("01 02");
    in.insert(in.end(), pair.begin(), pair.end());
    reader_options o;
    o.streaming = true;
    o.max_container_items = UINT64_MAX;
    reader r(in.data(), in.size(), o);
    item it;
    if (w.want == status::need_more) {
      ASSERT_EQ(r.next(it), status::ok) << w.name;
      EXPECT_EQ(it.arg, 0x7fffffffffffffffu) << w.name;
      ASSERT_EQ(r.next(it), status::ok) << w.name;
      ASSERT_EQ(r.next(it), status::ok) << w.name;
      EXPECT_EQ(r.next(it), status::need_more) << w.name;
      continue;
    }
    EXPECT_EQ(r.next(it), w.want) << w.name;
    EXPECT_EQ(r.error().offset, 0u) << w.name;
    // One-shot, the bytes left decide first: truncated, as before.
    o.streaming = false;
    reader one(in.data(), in.size(), o);
    EXPECT_EQ(one.next(it), status::truncated) << w.name;
    EXPECT_EQ(one.error().offset, 0u) << w.name;
  }
}

TEST(streaming, without_streaming_the_same_bytes_are_truncated) {
  const bytes in = hex("65 68 65");
  reader r(in.data(), in.size());
  item it;
  EXPECT_EQ(r.next(it), status::truncated);
  EXPECT_EQ(r.error().offset, 0u);
  EXPECT_EQ(r.needed(), 0u);
}

// ---- whole-item calls wait for the whole item -------------------------------

TEST(streaming, skip_waits_for_the_whole_item_and_consumes_nothing_before) {
  const bytes in = hex("83 01 82 02 03 04 05");  // [1, [2, 3], 4], 5
  reader_options o;
  o.streaming = true;
  for (size_t cut = 0; cut < 6; ++cut) {
    reader r(in.data(), cut, o);
    EXPECT_EQ(r.skip(), status::need_more) << cut;
    EXPECT_EQ(r.offset(), 0u) << cut;
    EXPECT_EQ(r.items(), 0u) << cut;
    // One feed per missing byte: what was scanned is not scanned again.
    for (size_t more = cut + 1; more < 6; ++more) {
      ASSERT_EQ(r.feed(in.data(), more, 0), status::ok);
      EXPECT_EQ(r.skip(), status::need_more) << cut << " " << more;
      EXPECT_EQ(r.needed(), 1u);
    }
    ASSERT_EQ(r.feed(in.data(), 6, 0), status::ok);
    EXPECT_EQ(r.skip(), status::ok) << cut;
    EXPECT_EQ(r.offset(), 6u);
    EXPECT_EQ(r.items(), 6u);  // [1, [2, 3], 4]: six heads
    EXPECT_EQ(r.skip(), status::need_more);
    ASSERT_EQ(r.feed(in.data(), 7, 0), status::ok);
    EXPECT_EQ(r.skip(), status::ok);
    EXPECT_EQ(r.skip(), status::need_more);
    r.end_input();
    EXPECT_EQ(r.skip(), status::end);
  }
}

TEST(streaming, item_ready_needs_the_whole_string_of_the_item) {
  const bytes in = hex("82 01 63 61 62 63");  // [1, "abc"]
  reader_options o;
  o.streaming = true;
  reader r(in.data(), 4, o);
  EXPECT_EQ(r.item_ready(), status::need_more);
  EXPECT_EQ(r.needed(), 2u);
  ASSERT_EQ(r.feed(in.data(), in.size(), 0), status::ok);
  EXPECT_EQ(r.item_ready(), status::ok);
  EXPECT_EQ(r.offset(), 0u);
}

TEST(streaming, visit_calls_nothing_until_the_item_is_there) {
  const bytes in = hex("a2 61 61 01 61 62 82 02 03");  // {"a": 1, "b": [2, 3]}
  reader_options o;
  o.streaming = true;
  reader r(in.data(), 7, o);
  std::vector<std::string> seen;
  auto v = [&](const item& it) noexcept { seen.push_back(describe(it)); };
  EXPECT_EQ(r.visit(v), status::need_more);
  EXPECT_TRUE(seen.empty());
  ASSERT_EQ(r.feed(in.data(), in.size(), 0), status::ok);
  EXPECT_EQ(r.visit(v), status::ok);
  reader one(in.data(), in.size());
  std::vector<std::string> want;
  ASSERT_EQ(one.visit([&](const item& it) noexcept { want.push_back(describe(it)); }), status::ok);
  EXPECT_EQ(seen, want);
}

TEST(streaming, read_array_waits_then_reads_every_element) {
  const bytes in = hex("83 01 19 01 00 1a 00 01 00 00");  // [1, 256, 65536]
  reader_options o;
  o.streaming = true;
  reader r(in.data(), 5, o);
  std::vector<uint64_t> out;
  EXPECT_EQ(r.read_array(out), status::need_more);
  EXPECT_EQ(r.offset(), 0u);
  ASSERT_EQ(r.feed(in.data(), in.size(), 0), status::ok);
  ASSERT_EQ(r.read_array(out), status::ok);
  EXPECT_EQ(out, (std::vector<uint64_t>{1, 256, 65536}));
}

// A definite array whose count passes the bytes at hand while an element is
// malformed: item_ready() lets it through (the real pass reports the error),
// and read_array() used to hand it to next(), which takes the head while
// streaming, and return ok with nothing read (the elements then came out as
// items of their own). Each row, whole and one byte per need_more, must give
// the error skip() gives on the same streaming input.
TEST(streaming, read_array_reports_a_malformed_element_of_a_short_array) {
  struct row {
    const char* name;
    const char* hex;
    status want;
    size_t offset;
  };
  const row rows[] = {
      {"reserved_element_among_three", "83 01 1c 02", status::reserved_additional_info, 2},
      {"reserved_first_element", "83 1c", status::reserved_additional_info, 1},
      {"break_in_a_definite_array", "82 ff", status::unexpected_break, 1},
      {"behind_tag_41", "d8 29 82 1c", status::reserved_additional_info, 3},
      {"whole_array_bad_element", "82 01 1d", status::reserved_additional_info, 2},
  };
  reader_options o;
  o.streaming = true;
  for (const row& t : rows) {
    SCOPED_TRACE(t.name);
    const bytes in = hex(t.hex);
    {
      reader sk(in.data(), in.size(), o);
      EXPECT_EQ(sk.skip(), t.want);
      EXPECT_EQ(sk.error().offset, t.offset);
    }
    for (bool bytewise : {false, true}) {
      SCOPED_TRACE(bytewise ? "one byte per need_more" : "whole");
      reader r(in.data(), bytewise ? 0 : in.size(), o);
      size_t arrived = bytewise ? 0 : in.size();
      std::vector<uint64_t> out;
      status s;
      while ((s = r.read_array(out)) == status::need_more && arrived < in.size())
        ASSERT_EQ(r.feed(in.data(), ++arrived, 0), status::ok);
      EXPECT_EQ(s, t.want);
      EXPECT_EQ(r.error().code, t.want);
      EXPECT_EQ(r.error().offset, t.offset);
      item it;
      EXPECT_EQ(r.next(it), t.want);  // sticky: no element comes out as an item
    }
    reader r(in.data(), in.size(), o);
    uint64_t buf[4];
    size_t n = 99;
    EXPECT_EQ(r.read_array(buf, 4, &n), t.want);
    EXPECT_EQ(r.error().offset, t.offset);
  }
}

// finish() inside a container before end_input(): the rest may still come,
// so need_more (not sticky); after end_input() the same point is truncated.
TEST(streaming, finish_before_end_input_waits_for_the_rest) {
  const bytes in = hex("82 01 02");
  reader_options o;
  o.streaming = true;
  reader r(in.data(), 2, o);
  item it;
  ASSERT_EQ(r.next(it), status::ok);  // the array
  ASSERT_EQ(r.next(it), status::ok);  // 1
  EXPECT_EQ(r.next(it), status::need_more);
  EXPECT_EQ(r.finish(), status::need_more);
  EXPECT_EQ(r.needed(), 1u);
  EXPECT_EQ(r.error().code, status::ok);
  ASSERT_EQ(r.feed(in.data(), in.size(), 0), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.arg, 2u);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.type, item_type::end);
  EXPECT_EQ(r.finish(), status::ok);
  // The same point once no more input comes: truncated at the end, sticky.
  reader t(in.data(), 2, o);
  ASSERT_EQ(t.next(it), status::ok);
  ASSERT_EQ(t.next(it), status::ok);
  t.end_input();
  EXPECT_EQ(t.finish(), status::truncated);
  EXPECT_EQ(t.error().offset, 2u);
}

TEST(streaming, skip_to_end_goes_on_where_it_stopped) {
  const bytes in = hex("83 01 82 02 03 04 05");
  reader_options o;
  o.streaming = true;
  reader r(in.data(), 3, o);
  item it;
  ASSERT_EQ(r.next(it), status::ok);  // the outer array
  EXPECT_EQ(r.skip_to_end(), status::need_more);
  EXPECT_EQ(r.offset(), 2u);  // 1 was passed over, [2, 3] is partial
  ASSERT_EQ(r.feed(in.data(), 5, 0), status::ok);
  EXPECT_EQ(r.skip_to_end(), status::need_more);
  EXPECT_EQ(r.offset(), 5u);
  ASSERT_EQ(r.feed(in.data(), 6, 0), status::ok);
  EXPECT_EQ(r.skip_to_end(), status::ok);
  EXPECT_EQ(r.depth(), 0u);
  ASSERT_EQ(r.feed(in.data(), 7, 0), status::ok);
  ASSERT_EQ(r.next(it), status::ok);
  EXPECT_EQ(it.arg, 5u);
}

TEST(streaming, read_joined_appends_the_chunks_as_they_come) {
  const bytes in = hex("5f 42 01 02 43 03 04 05 ff");
  reader_options o;
  o.streaming = true;
  reader r(in.data(), 3, o);
  item start;
  ASSERT_EQ(r.next(start), status::ok);
  std::string out;
  EXPECT_EQ(r.read_joined(start, out), status::need_more);
  ASSERT_EQ(r.feed(in.data(), 6, 0), status::ok);
  EXPECT_EQ(r.read_joined(start, out), status::need_more);
  EXPECT_EQ(out, std::string("\x01\x02", 2));
  ASSERT_EQ(r.feed(in.data(), in.size(), 0), status::ok);
  EXPECT_EQ(r.read_joined(start, out), status::ok);
  EXPECT_EQ(out, std::string("\x01\x02\x03\x04\x05", 5));
  EXPECT_EQ(r.depth(), 0u);
}

// Resuming read_joined() after next() took a chunk would leave it out.
TEST(streaming, read_joined_is_not_resumed_after_next_took_a_chunk) {
  const bytes in = hex("7f 62 6162 62 6364 62 6566 ff");  // (_ "ab", "cd", "ef")
  reader_options o;
  o.streaming = true;
  reader r(in.data(), 5, o);  // the start, "ab" and the head of "cd"
  item start, it;
  ASSERT_EQ(r.next(start), status::ok);
  std::string out;
  EXPECT_EQ(r.read_joined(start, out), status::need_more);
  EXPECT_EQ(out, "ab");
  ASSERT_EQ(r.feed(in.data(), in.size(), 0), status::ok);
  ASSERT_EQ(r.next(it), status::ok);  // "cd"
  EXPECT_EQ(r.read_joined(start, out), status::invalid_state);
  EXPECT_EQ(out, "ab");
  ASSERT_EQ(r.next(it), status::ok);  // "ef": the reader goes on
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(it.u.data), size_t(it.arg)), "ef");
}

// ---- strict checks across buffers -------------------------------------------

struct strict_row {
  const char* name;
  const char* hex;
  bool duplicates;
  bool deterministic;
  status want;
  size_t offset;
};

const strict_row strict_rows[] = {
    {"duplicate_text_key", "a2 61 61 01 61 61 02", true, false, status::duplicate_key, 4},
    {"duplicate_array_key", "a2 82 01 02 00 82 01 02 01", true, false, status::duplicate_key, 5},
    {"distinct_keys", "a2 61 61 01 61 62 02", true, false, status::end, 0},
    // Maps nested in keys: the nested keys are not copied, the input before them is held.
    {"duplicate_nested_key", "a2 a1 a1 81 01 00 00 00 a1 a1 81 18 01 00 00 01", true, false,
     status::duplicate_key, 8},
    {"distinct_nested_keys", "a2 a1 a1 81 01 00 00 00 a1 a1 81 02 00 00 01", true, false,
     status::end, 0},
    {"duplicate_in_nested_key", "a1 a1 a2 81 01 00 81 18 01 01 00 00", true, false,
     status::duplicate_key, 6},
    {"sorted_nested_keys", "a2 a1 a1 01 00 00 00 a1 a1 02 00 00 01", false, true, status::end, 0},
    {"unsorted_nested_keys", "a2 a1 a1 02 00 00 00 a1 a1 01 00 00 01", false, true,
     status::unsorted_map_keys, 7},
    {"unsorted_keys", "a2 61 62 01 61 61 02", false, true, status::unsorted_map_keys, 4},
    {"sorted_keys", "a2 61 61 01 61 62 02", false, true, status::end, 0},
    {"bignum_of_eight_bytes", "c2 48 01 02 03 04 05 06 07 08", false, true,
     status::non_preferred_encoding, 0},
    {"bignum_leading_zero", "c2 49 00 01 02 03 04 05 06 07 08", false, true,
     status::non_preferred_encoding, 0},
};

class strict_fed : public ::testing::TestWithParam<strict_row> {};

TEST_P(strict_fed, same_status_and_offset_byte_by_byte) {
  const strict_row& row = GetParam();
  const bytes in = hex(row.hex);
  reader_options o;
  o.reject_duplicate_keys = row.duplicates;
  o.deterministic = row.deterministic;
  const trace want = one_shot(in, o);
  EXPECT_EQ(want.last, row.want);
  if (row.want != status::end) {
    EXPECT_EQ(want.error_offset, row.offset);
  }
  for (mode m : {mode::grow, mode::window})
    EXPECT_EQ(fed_next(in, o, chunker{1, 0, 0}, m), want) << (m == mode::grow ? "grow" : "window");
}

INSTANTIATE_TEST_SUITE_P(rows, strict_fed, ::testing::ValuesIn(strict_rows),
                         [](const ::testing::TestParamInfo<strict_row>& i) {
                           return i.param.name;
                         });

TEST(streaming, keep_from_holds_an_open_key) {
  const bytes in = hex("a1 82 01 02 00");  // {[1, 2]: 0}
  reader_options o;
  o.streaming = true;
  o.reject_duplicate_keys = true;
  reader r(in.data(), 3, o);
  item it;
  ASSERT_EQ(r.next(it), status::ok);  // the map
  ASSERT_EQ(r.next(it), status::ok);  // the key's array
  ASSERT_EQ(r.next(it), status::ok);  // 1
  EXPECT_EQ(r.offset(), 3u);
  EXPECT_EQ(r.keep_from(), 1u);  // the key [1, 2] starts at 1
  EXPECT_EQ(r.feed(in.data() + 2, 3, 2), status::invalid_argument);
  ASSERT_EQ(r.feed(in.data() + 1, 4, 1), status::ok);
  ASSERT_EQ(r.next(it), status::ok);  // 2
  ASSERT_EQ(r.next(it), status::ok);  // end of the key
  ASSERT_EQ(r.next(it), status::ok);  // the value 0
  EXPECT_EQ(r.keep_from(), r.offset());
}

// ---- the shared vectors and the corpus, fed in pieces -----------------------

TEST(streaming_vectors, appendix_a_every_way) {
  for (const shared_appendix_a& a : k_shared_appendix_a)
    expect_same_every_way(hex(a.hex), reader_options{}, a.name);
}

TEST(streaming_vectors, malformed_every_way) {
  for (const shared_malformed& m : k_shared_malformed) {
    const bytes in = hex(m.hex);
    const trace want = one_shot(in, reader_options{});
    EXPECT_EQ(int(want.last), int(m.status)) << m.name;
    expect_same_every_way(in, reader_options{}, m.name, false);
  }
}

TEST(streaming_vectors, strict_every_way) {
  for (const shared_strict& v : k_shared_strict) {
    reader_options o;
    o.validate_utf8 = (v.checks & SHARED_CHECK_UTF8) != 0;
    o.reject_duplicate_keys = (v.checks & SHARED_CHECK_DUPLICATE_KEYS) != 0;
    o.deterministic = (v.checks & SHARED_CHECK_DETERMINISTIC) != 0;
    expect_same_every_way(hex(v.hex), o, v.name, false);
  }
}

TEST(streaming_vectors, item_budget_every_way) {
  for (const shared_item_budget& v : k_shared_item_budget) {
    reader_options o;
    o.max_items = v.max_items;
    expect_same_every_way(hex(v.hex), o, v.name, false);
  }
}

TEST(streaming_corpus, next_one_byte_and_random_chunks) {
  for (const char* name : k_corpus_names) {
    const bytes in = corpus(name);
    ASSERT_FALSE(in.empty());
    expect_same_every_way(in, reader_options{}, name);
  }
}

TEST(streaming_corpus, strict_reader_in_a_window_of_4096) {
  reader_options o;
  o.validate_utf8 = true;
  o.reject_duplicate_keys = true;
  for (const char* name : k_corpus_names) {
    const bytes in = corpus(name);
    const trace want = one_shot(in, o);
    EXPECT_EQ(want.last, status::end) << name;
    EXPECT_EQ(fed_next(in, o, chunker{4096, 0, 0}, mode::window), want) << name;
  }
}

TEST(streaming_corpus, skip_and_visit_items_in_chunks) {
  for (const char* name : k_corpus_names) {
    const bytes in = corpus(name);
    // Two documents: skip() takes each whole.
    bytes two = in;
    two.insert(two.end(), in.begin(), in.end());
    trace skips =
        fed(two, reader_options{}, chunker{0, 3, 9000}, mode::window, [](reader& r, trace& t) {
          const status s = r.skip();
          if (s == status::ok) t.items.push_back(std::to_string(r.offset()));
          return s;
        });
    EXPECT_EQ(skips.last, status::end);
    EXPECT_EQ(skips.items,
              (std::vector<std::string>{std::to_string(in.size()), std::to_string(two.size())}));
    // visit_items(): item by item, as next().
    trace visited =
        fed(in, reader_options{}, chunker{64, 0, 0}, mode::window, [](reader& r, trace& t) {
          size_t n = 0;
          return r.visit_items([&](const item& it) noexcept { t.items.push_back(describe(it)); },
                               100, &n);
        });
    EXPECT_EQ(visited, one_shot(in, reader_options{})) << name;
  }
}

TEST(streaming_corpus, skip_one_byte_at_a_time_scans_each_byte_once) {
  // A whole document fed a byte at a time, skip() asked after every byte:
  // each call goes on with the scout where it stopped. (A fast pass from the
  // item's start on every call would scan the document's bytes
  // size^2 / 2 times: hours here, not the second this takes.)
  for (const char* name : {"twitter", "canada"}) {
    const bytes in = corpus(name);
    reader_options o;
    o.streaming = true;
    reader r(in.data(), 0, o);
    size_t shown = 0, calls = 0;
    status s;
    while ((s = r.skip()) == status::need_more) {
      ++calls;
      ASSERT_LT(shown, in.size()) << name;
      ASSERT_EQ(r.feed(in.data(), ++shown, 0), status::ok) << name;
    }
    EXPECT_EQ(s, status::ok) << name;
    EXPECT_EQ(r.offset(), in.size()) << name;
    EXPECT_EQ(calls, in.size()) << name;
  }
}

// ---- the stream helper ------------------------------------------------------

/// A source handing out `in` in pieces of a fixed size.
struct memory_source {
  const bytes* in;
  size_t at = 0;
  size_t piece;
  bool fail_at_end = false;
  static bool read(void* ctx, uint8_t* buf, size_t cap, size_t* got) {
    memory_source& s = *static_cast<memory_source*>(ctx);
    if (s.at == s.in->size() && s.fail_at_end) return false;
    size_t n = std::min({cap, s.piece, s.in->size() - s.at});
    std::memcpy(buf, s.in->data() + s.at, n);
    s.at += n;
    *got = n;
    return true;
  }
};

trace stream_trace(cbor_fast::stream& st) {
  trace t;
  item it;
  status s;
  while ((s = st.next(it)) == status::ok) t.items.push_back(describe(it));
  t.last = s;
  if (cbor_fast::is_error(s)) {
    t.error_offset = st.error().offset;
    t.error_item_offset = st.error().item_offset;
  }
  return t;
}

TEST(stream, corpus_through_small_pieces_equals_one_shot) {
  for (const char* name : k_corpus_names) {
    const bytes in = corpus(name);
    memory_source src{&in, 0, 1000};
    cbor_fast::stream_options so;
    so.block_size = 4096;
    so.max_buffer = 16 << 10;  // far below the file sizes: memory stays bounded
    cbor_fast::stream st(&memory_source::read, &src, so);
    EXPECT_EQ(stream_trace(st), one_shot(in, reader_options{})) << name;
    EXPECT_LE(st.buffered(), so.max_buffer);
  }
}

TEST(stream, read_bytes_move_only_once_the_room_is_under_half_a_block) {
  // 48 one-byte integers arriving 8 bytes a read into a 64-byte buffer: the
  // read bytes stay until fewer than 32 bytes of room are left behind them
  // (after 40), then the unread rest (none) moves to the front.
  bytes in;
  for (uint8_t i = 0; i < 48; ++i) in.push_back(uint8_t(i % 24));
  memory_source src{&in, 0, 8};
  cbor_fast::stream_options so;
  so.block_size = 64;
  cbor_fast::stream st(&memory_source::read, &src, so);
  item it;
  for (size_t i = 0; i < 48; ++i) {
    ASSERT_EQ(st.next(it), status::ok) << i;
    EXPECT_EQ(it.type, item_type::unsigned_int) << i;
    EXPECT_EQ(it.value(), i % 24) << i;
    EXPECT_EQ(it.offset, i) << i;
    EXPECT_EQ(st.buffered(), i < 40 ? (i / 8 + 1) * 8 : 8) << i;
  }
  EXPECT_EQ(st.next(it), status::end);
  EXPECT_EQ(st.offset(), 48u);
}

TEST(stream, an_item_over_max_buffer_fails_at_its_offset) {
  bytes in = hex("01 59 10 00");  // 1, then a 4096-byte string
  in.resize(in.size() + 4096, 'x');
  memory_source src{&in, 0, 100};
  cbor_fast::stream_options so;
  so.max_buffer = 4096;  // the string with its 3-byte head needs 4099
  cbor_fast::stream st(&memory_source::read, &src, so);
  item it;
  ASSERT_EQ(st.next(it), status::ok);
  EXPECT_EQ(st.next(it), status::memory_budget_exceeded);
  EXPECT_EQ(st.error().offset, 1u);
  EXPECT_EQ(st.next(it), status::memory_budget_exceeded);  // sticky
  // With room for 4099 bytes it passes.
  memory_source src2{&in, 0, 100};
  so.max_buffer = 4099;
  cbor_fast::stream st2(&memory_source::read, &src2, so);
  ASSERT_EQ(st2.next(it), status::ok);
  ASSERT_EQ(st2.next(it), status::ok);
  EXPECT_EQ(it.arg, 4096u);
  EXPECT_EQ(st2.next(it), status::end);
}

TEST(stream, a_string_over_max_buffer_on_a_short_input_is_truncated) {
  // 1, then a head declaring 4096 bytes (the 1 is dropped once read, so the
  // buffer holds the 3-byte head and the content): the input ends before the
  // 4096-byte buffer is full, exactly when it is full, or goes on one byte
  // more; and a 2^32-byte string on a 10-byte input.
  struct row {
    const char* name;
    size_t content;
    status want;
  } rows[] = {
      {"ends before the buffer is full", 4000, status::truncated},
      {"ends as the buffer is full", 4093, status::truncated},
      {"one byte beyond the buffer", 4094, status::memory_budget_exceeded},
  };
  for (const row& r : rows) {
    bytes in = hex("01 59 10 00");
    in.resize(in.size() + r.content, 'x');
    memory_source src{&in, 0, 100};
    cbor_fast::stream_options so;
    so.max_buffer = 4096;
    cbor_fast::stream st(&memory_source::read, &src, so);
    item it;
    ASSERT_EQ(st.next(it), status::ok) << r.name;
    EXPECT_EQ(st.next(it), r.want) << r.name;
    EXPECT_EQ(st.error().code, r.want) << r.name;
    EXPECT_EQ(st.error().offset, 1u) << r.name;
    EXPECT_EQ(st.next(it), r.want) << r.name << ": sticky";
  }
  const bytes bomb = hex("5b 0000000100000000 00");
  memory_source src{&bomb, 0, 100};
  cbor_fast::stream st(&memory_source::read, &src, {});
  item it;
  EXPECT_EQ(st.next(it), status::truncated);
  EXPECT_EQ(st.error().offset, 0u);
}

/// Records the largest block the stream's buffer asks for.
struct largest_alloc {
  size_t largest = 0;
  static void* do_malloc(void* c, size_t n) {
    auto& self = *static_cast<largest_alloc*>(c);
    self.largest = std::max(self.largest, n);
    return std::malloc(n);
  }
  static void* do_realloc(void* c, void* p, size_t, size_t n) {
    auto& self = *static_cast<largest_alloc*>(c);
    self.largest = std::max(self.largest, n);
    return std::realloc(p, n);
  }
  static void do_free(void*, void* p, size_t) { std::free(p); }
};

TEST(stream, a_declared_length_grows_the_buffer_only_as_its_bytes_come) {
  // With max_buffer lifted, a head declaring 2^64 - 1 bytes asked the
  // allocator for all of them (ASan: allocation-size-too-big; cbor-fast diag
  // --max-memory 18446744073709551615 aborted). The buffer now at most
  // doubles (or grows a block) per step, so it follows the bytes that come.
  struct row {
    const char* name;
    const char* head;
    size_t content;  // bytes of the string that do come
    status want;
  } rows[] = {
      {"2^64 - 1 declared, none come", "5b ffffffffffffffff", 0, status::truncated},
      {"2^63 declared, 3 come", "5b 8000000000000000", 3, status::truncated},
      {"2^32 declared, 1 MiB comes", "5b 0000000100000000", size_t(1) << 20, status::truncated},
      {"2^64 - 1 declared text", "7b ffffffffffffffff", 5, status::truncated},
      {"1 MiB declared, all of it comes", "5a 00100000", size_t(1) << 20, status::ok},
  };
  for (const row& w : rows) {
    bytes in = hex(w.head);
    in.resize(in.size() + w.content, 'x');
    memory_source src{&in, 0, 4096};
    largest_alloc counts;
    cbor_fast::stream_options so;
    so.max_buffer = SIZE_MAX;
    so.reader.max_string_length = UINT64_MAX;
    so.block_size = 4096;
    cbor_fast::allocator a{largest_alloc::do_malloc, largest_alloc::do_realloc,
                           largest_alloc::do_free, &counts};
    so.reader.alloc = &a;
    cbor_fast::stream st(&memory_source::read, &src, so);
    item it;
    EXPECT_EQ(st.next(it), w.want) << w.name;
    if (w.want == status::ok) {
      EXPECT_EQ(it.arg, w.content) << w.name;
      EXPECT_EQ(st.next(it), status::end) << w.name;
    } else {
      EXPECT_EQ(st.error().offset, 0u) << w.name;
    }
    // Twice what came, and a block: never what was only declared.
    EXPECT_LE(counts.largest, 2 * in.size() + 2 * 4096) << w.name;
  }
}

TEST(stream, a_buffer_filled_by_earlier_reads_still_learns_that_the_input_ended) {
  // A map of 5 pairs whose last value is missing, 21 bytes, in a buffer of
  // exactly 21 bytes filled 7 bytes a read: skip() and visit() need the whole
  // item, the buffer is full when they ask for more, and the input has
  // ended: truncated, as a one-shot read says (before 0.5,
  // memory_budget_exceeded, as for an input that went on).
  const bytes in = hex("a5 6161 6141 6162 6142 6163 6143 6164 60 44 6165 6145");
  ASSERT_EQ(in.size(), 21u);
  reader one(in.data(), in.size());
  ASSERT_EQ(one.skip(), status::truncated);
  const size_t want_offset = one.error().offset;
  EXPECT_EQ(want_offset, 21u);
  for (const bool visit : {false, true}) {
    memory_source src{&in, 0, 7};
    cbor_fast::stream_options so;
    so.block_size = 7;
    so.max_buffer = 21;
    cbor_fast::stream st(&memory_source::read, &src, so);
    const status s = visit ? st.visit([](const item&) noexcept {}) : st.skip();
    EXPECT_EQ(s, status::truncated) << visit;
    EXPECT_EQ(st.error().offset, want_offset) << visit;
    EXPECT_EQ(st.buffered(), 21u) << visit;
  }
  // One byte more input (a value for the last key, 22 bytes): the same
  // buffer is too small for the item.
  bytes longer = in;
  longer.push_back(0x01);
  memory_source src{&longer, 0, 7};
  cbor_fast::stream_options so;
  so.block_size = 7;
  so.max_buffer = 21;
  cbor_fast::stream st(&memory_source::read, &src, so);
  EXPECT_EQ(st.skip(), status::memory_budget_exceeded);
  EXPECT_EQ(st.error().offset, 0u);
}

TEST(stream, a_failed_skip_stays_failed_for_next) {
  // [1, 2, ... 300]: skip() needs the whole array, over a 256-byte buffer.
  bytes in = hex("99 01 2c");
  for (int i = 0; i < 300; ++i) in.push_back(0x01);
  memory_source src{&in, 0, 64};
  cbor_fast::stream_options so;
  so.max_buffer = 256;
  cbor_fast::stream st(&memory_source::read, &src, so);
  EXPECT_EQ(st.skip(), status::memory_budget_exceeded);
  EXPECT_EQ(st.error().offset, 0u);
  item it;
  // next() would need only the array's head, but the error is sticky.
  EXPECT_EQ(st.next(it), status::memory_budget_exceeded);
  EXPECT_EQ(st.offset(), 0u);
}

TEST(stream, source_failure_and_truncation) {
  const bytes in = hex("82 01");
  memory_source failing{&in, 0, 1, true};
  cbor_fast::stream st(&memory_source::read, &failing, {});
  item it;
  ASSERT_EQ(st.next(it), status::ok);
  ASSERT_EQ(st.next(it), status::ok);
  EXPECT_EQ(st.next(it), status::source_failed);
  EXPECT_EQ(st.error().offset, 2u);
  memory_source ending{&in, 0, 1};
  cbor_fast::stream st2(&memory_source::read, &ending, {});
  ASSERT_EQ(st2.next(it), status::ok);
  ASSERT_EQ(st2.next(it), status::ok);
  EXPECT_EQ(st2.next(it), status::truncated);
  EXPECT_EQ(st2.error().offset, 2u);
}

// The stream's own errors inside a top-level item name that item as the
// reader's errors do (item_offset was the error's offset). Input: 1, then
// [1, "hello"] at offset 1, its string head at 3; one byte per read.
TEST(stream, own_errors_name_the_enclosing_top_level_item) {
  const bytes whole = hex("01 82 01 65 68 65 6c 6c 6f");
  const bytes cut(whole.begin(), whole.begin() + 5);
  struct row {
    const char* name;
    const bytes* in;
    bool fail_at_end;
    size_t max_buffer;
    status want;
  };
  const row rows[] = {
      {"source_fails_inside_the_string", &cut, true, size_t(64) << 20, status::source_failed},
      {"input_ends_inside_the_string", &cut, false, size_t(64) << 20, status::truncated},
      {"buffer_full_before_the_string", &whole, false, 4, status::memory_budget_exceeded},
  };
  for (const row& t : rows) {
    SCOPED_TRACE(t.name);
    memory_source src{t.in, 0, 1, t.fail_at_end};
    cbor_fast::stream_options so;
    so.max_buffer = t.max_buffer;
    cbor_fast::stream st(&memory_source::read, &src, so);
    item it;
    for (int i = 0; i < 3; ++i) ASSERT_EQ(st.next(it), status::ok);
    EXPECT_EQ(st.next(it), t.want);
    EXPECT_EQ(st.error().offset, 3u);
    EXPECT_EQ(st.error().item_offset, 1u);
    EXPECT_EQ(st.error().depth, 1u);
  }
}

TEST(stream, documents_of_a_sequence_from_a_pipe) {
  // citm_catalog twice, then 7, written into a pipe by another thread.
  const bytes doc = corpus("citm_catalog");
  bytes seq = doc;
  seq.insert(seq.end(), doc.begin(), doc.end());
  seq.push_back(0x07);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::thread writer([&] {
    size_t at = 0;
    while (at < seq.size()) {
      const ssize_t n = ::write(fds[1], seq.data() + at, std::min<size_t>(777, seq.size() - at));
      if (n <= 0) break;
      at += size_t(n);
    }
    ::close(fds[1]);
  });
  cbor_fast::stream st(fds[0]);
  cbor_fast::document want;
  ASSERT_EQ(cbor_fast::decode(doc.data(), doc.size(), want), status::ok);
  const std::string want_hex = cbor_fast::doc_test::encode_hex(want);
  for (int i = 0; i < 2; ++i) {
    cbor_fast::document got;
    ASSERT_EQ(st.next_document(got), status::ok) << i;
    EXPECT_EQ(cbor_fast::doc_test::encode_hex(got), want_hex) << i;
  }
  cbor_fast::document last;
  ASSERT_EQ(st.next_document(last), status::ok);
  EXPECT_EQ(cbor_fast::doc_test::encode_hex(last), "07");
  EXPECT_EQ(st.next_document(last), status::end);
  writer.join();
  ::close(fds[0]);
}

TEST(stream, next_document_within_max_document_memory) {
  // Two documents: 1, then [0, 0, ..., 0] (1000 zeros; 1001 nodes of 24
  // bytes), then 2. A budget the array's nodes exceed fails at the array's
  // head region, sticky; 0 and SIZE_MAX are no budget; a large one passes.
  bytes in = hex("01 19 03e8");
  in[1] = 0x99;  // array, 2-byte count 1000
  in.resize(in.size() + 1000, 0x00);
  in.push_back(0x02);
  struct row {
    const char* name;
    size_t budget;
    bool fits;
  } rows[] = {
      {"0: none", 0, true},
      {"SIZE_MAX: none", SIZE_MAX, true},
      {"1 MiB", size_t(1) << 20, true},
      {"4 KiB: under the 1001 nodes", 4096, false},
  };
  for (const row& w : rows) {
    memory_source src{&in, 0, 100};
    cbor_fast::stream_options so;
    so.max_document_memory = w.budget;
    cbor_fast::stream st(&memory_source::read, &src, so);
    cbor_fast::document d;
    ASSERT_EQ(st.next_document(d), status::ok) << w.name;
    EXPECT_EQ(cbor_fast::doc_test::encode_hex(d), "01") << w.name;
    if (w.fits) {
      ASSERT_EQ(st.next_document(d), status::ok) << w.name;
      EXPECT_EQ(d.root().size(), 1000u) << w.name;
      ASSERT_EQ(st.next_document(d), status::ok) << w.name;
      EXPECT_EQ(cbor_fast::doc_test::encode_hex(d), "02") << w.name;
      EXPECT_EQ(st.next_document(d), status::end) << w.name;
    } else {
      EXPECT_EQ(st.next_document(d), status::memory_budget_exceeded) << w.name;
      const size_t at = st.error().offset;
      EXPECT_GT(at, 1u) << w.name;  // inside the array, past its head
      EXPECT_LT(at, 1004u) << w.name;
      // Sticky: the rest of the array never comes out as documents.
      EXPECT_EQ(st.next_document(d), status::memory_budget_exceeded) << w.name;
      EXPECT_EQ(st.error().offset, at) << w.name;
    }
  }
}

TEST(stream, set_max_document_memory_applies_to_the_next_documents) {
  bytes in = hex("99 03e8");  // [0, 0, ..., 0]: 1000 zeros, then 7
  in.resize(in.size() + 1000, 0x00);
  in.push_back(0x07);
  memory_source src{&in, 0, 100};
  cbor_fast::stream st(&memory_source::read, &src);
  cbor_fast::document d;
  st.set_max_document_memory(4096);
  EXPECT_EQ(st.next_document(d), status::memory_budget_exceeded);
  // The offset cbor_decode() with the same budget gives for the array alone.
  cbor_fast::decode_options o;
  o.max_memory = 4096;
  cbor_fast::document alone;
  cbor_fast::error_info e;
  EXPECT_EQ(cbor_fast::decode(in.data(), in.size() - 1, alone, o, &e),
            status::memory_budget_exceeded);
  EXPECT_EQ(st.error().offset, e.offset);
  EXPECT_EQ(e.offset, 172u);
  memory_source again{&in, 0, 100};
  cbor_fast::stream st2(&memory_source::read, &again);
  st2.set_max_document_memory(4096);
  st2.set_max_document_memory(0);  // none again
  ASSERT_EQ(st2.next_document(d), status::ok);
  EXPECT_EQ(d.root().size(), 1000u);
}

// An allocation that fails while a partial item is scouted (the stream's
// reader waits for the whole item) is out_of_memory, sticky; a stream never
// answers need_more, whichever allocation fails.
TEST(stream, next_document_reports_a_failed_allocation_not_need_more) {
  bytes in(20, 0x81);  // [[[...[1]...]]], 20 deep, one byte per read
  in.push_back(0x01);
  struct failing {
    int calls = 0;
    int fail_at = -1;
    static void* do_malloc(void* c, size_t n) {
      auto* self = static_cast<failing*>(c);
      return self->calls++ == self->fail_at ? nullptr : std::malloc(n);
    }
    static void* do_realloc(void* c, void* p, size_t, size_t n) {
      auto* self = static_cast<failing*>(c);
      return self->calls++ == self->fail_at ? nullptr : std::realloc(p, n);
    }
    static void do_free(void*, void* p, size_t) { std::free(p); }
  };
  size_t failed = 0;
  for (int fail_at = 0; fail_at < 40; ++fail_at) {
    SCOPED_TRACE(fail_at);
    failing f;
    f.fail_at = fail_at;
    cbor_fast::allocator a{failing::do_malloc, failing::do_realloc, failing::do_free, &f};
    cbor_fast::stream_options so;
    so.reader.alloc = &a;
    memory_source src{&in, 0, 1};
    cbor_fast::stream st(&memory_source::read, &src, so);
    cbor_fast::document d;
    const status s = st.next_document(d);
    if (s == status::ok) {
      EXPECT_EQ(cbor_fast::doc_test::encode_hex(d),
                "8181818181818181818181818181818181818181"
                "01");
      EXPECT_EQ(st.next_document(d), status::end);
      continue;
    }
    ++failed;
    EXPECT_EQ(s, status::out_of_memory);
    EXPECT_EQ(st.error().code, status::out_of_memory);
    EXPECT_EQ(st.next_document(d), status::out_of_memory);  // sticky
  }
  EXPECT_GT(failed, 3u);
}

// ---- diagnostic notation and JSON printed from a stream ---------------------

/// What a printer gave: its text, status and error offset.
struct printed {
  std::string text;
  status last = status::ok;
  size_t offset = 0;
  bool operator==(const printed& o) const {
    return text == o.text && last == o.last && offset == o.offset;
  }
};
std::ostream& operator<<(std::ostream& os, const printed& p) {
  return os << cbor_fast::status_name(p.last) << " at " << p.offset << " after \"" << p.text
            << "\"";
}

enum class text_kind { diag, json };

/// Every top-level item printed one-shot from a reader, a line each.
printed print_one_shot(const bytes& in, text_kind k, const reader_options& o) {
  printed p;
  reader r(in.data(), in.size(), o);
  cbor_fast::text_output out(p.text);
  for (;;) {
    cbor_fast::error_info e;
    p.last =
        k == text_kind::diag ? cbor_fast::diag_write(r, out) : cbor_fast::json_next(r, out, {}, &e);
    if (p.last != status::ok) break;
    out.put('\n');
  }
  out.flush();
  if (p.last != status::end) p.offset = k == text_kind::diag ? r.error().offset : 0;
  return p;
}

/// The same through a stream whose source hands out `piece` bytes at a time.
printed print_streamed(const bytes& in, text_kind k, const reader_options& o, size_t piece,
                       size_t max_buffer, size_t* most_buffered = nullptr) {
  printed p;
  memory_source src{&in, 0, piece};
  cbor_fast::stream_options so;
  so.reader = o;
  so.block_size = 256;
  so.max_buffer = max_buffer;
  cbor_fast::stream st(&memory_source::read, &src, so);
  // Small chunks: the text goes out while the item is still being read.
  cbor_fast::text_output out(p.text, 64);
  for (;;) {
    cbor_fast::error_info e;
    p.last = k == text_kind::diag ? cbor_fast::diag_write(st, out)
                                  : cbor_fast::json_next(st, out, {}, &e);
    if (most_buffered != nullptr && st.buffered() > *most_buffered) *most_buffered = st.buffered();
    if (p.last != status::ok) break;
    out.put('\n');
  }
  out.flush();
  if (p.last != status::end) p.offset = k == text_kind::diag ? st.error().offset : 0;
  return p;
}

TEST(stream_printers, corpus_diag_and_json_equal_one_shot_in_a_small_buffer) {
  for (const char* name : k_corpus_names) {
    const bytes in = corpus(name);
    for (text_kind k : {text_kind::diag, text_kind::json}) {
      const printed want = print_one_shot(in, k, reader_options{});
      ASSERT_EQ(want.last, status::end) << name;
      size_t most = 0;
      // 16 KiB of buffer for a whole document of 0.3 to 1.7 MB: nothing holds
      // the item; the longest string (twitter: under 2 KiB) must fit.
      EXPECT_EQ(print_streamed(in, k, reader_options{}, 1000, 16 << 10, &most), want)
          << name << (k == text_kind::diag ? " diag" : " json");
      EXPECT_LE(most, size_t{16} << 10) << name;
    }
  }
}

TEST(stream_printers, appendix_a_one_byte_at_a_time) {
  bytes all;
  for (const shared_appendix_a& a : k_shared_appendix_a) {
    const bytes in = hex(a.hex);
    all.insert(all.end(), in.begin(), in.end());
    for (text_kind k : {text_kind::diag, text_kind::json})
      EXPECT_EQ(print_streamed(in, k, reader_options{}, 1, 1 << 10), print_one_shot(in, k, {}))
          << a.name;
  }
  // All of them as one sequence: one line each, as one-shot.
  EXPECT_EQ(print_streamed(all, text_kind::diag, reader_options{}, 3, 1 << 10),
            print_one_shot(all, text_kind::diag, {}));
}

TEST(stream_printers, malformed_input_fails_where_one_shot_does_with_the_same_text) {
  struct row {
    const char* name;
    const char* hex;
    status want;
    size_t offset;
    const char* text;
  };
  const row rows[] = {
      {"string cut short", "8201656162", status::truncated, 2, "[1"},
      {"indefinite array never closed", "9f0102", status::truncated, 3, "[_ 1, 2"},
      {"reserved head in a map", "a1011c", status::reserved_additional_info, 2, "{1"},
      {"stray break after an item", "01ff", status::unexpected_break, 1, "1\n"},
  };
  for (const row& r : rows) {
    const bytes in = hex(r.hex);
    const printed want{r.text, r.want, r.offset};
    EXPECT_EQ(print_one_shot(in, text_kind::diag, {}), want) << r.name;
    for (size_t piece : {size_t{1}, size_t{2}, size_t{100}})
      EXPECT_EQ(print_streamed(in, text_kind::diag, {}, piece, 1 << 10), want)
          << r.name << " in pieces of " << piece;
  }
}

TEST(stream_printers, a_count_beyond_the_input_is_found_where_the_input_ends) {
  // [1, 2] declaring 3: one-shot refuses the head (the input cannot hold 3);
  // a stream cannot know that at the head and finds the input short at 3.
  const bytes in = hex("830102");
  EXPECT_EQ(print_one_shot(in, text_kind::diag, {}), (printed{"", status::truncated, 0}));
  EXPECT_EQ(print_streamed(in, text_kind::diag, {}, 1, 1 << 10),
            (printed{"[1, 2", status::truncated, 3}));
}

TEST(stream_printers, json_refuses_invalid_utf8_at_its_first_bad_byte) {
  // ["ok", "\xff"]: the second string's head is at offset 4, its bad byte
  // at 5, where a validating reader reports it (this said 4).
  const bytes in = hex("82626f6b61ff");
  for (size_t piece : {size_t{1}, size_t{64}}) {
    printed p;
    memory_source src{&in, 0, piece};
    cbor_fast::stream st(&memory_source::read, &src, {});
    cbor_fast::text_output out(p.text);
    cbor_fast::error_info e;
    EXPECT_EQ(cbor_fast::json_next(st, out, {}, &e), status::invalid_utf8) << piece;
    EXPECT_EQ(e.offset, 5u) << piece;
    EXPECT_EQ(p.text, "[\"ok\",\"") << piece;  // the string opened, as one-shot
  }
}

TEST(stream_printers, one_huge_array_prints_in_a_buffer_of_4_kib) {
  // An array of 1,000,000 two-byte integers (2 MB): a reader needs all of it,
  // the stream a few blocks.
  bytes in = hex("9a000f4240");
  std::string want_diag = "[", want_json = "[";
  for (int i = 0; i < 1000000; ++i) {
    in.push_back(0x18);
    in.push_back(uint8_t(24 + i % 200));
    const std::string v = std::to_string(24 + i % 200);
    if (i != 0) {
      want_diag += ", ";
      want_json += ",";
    }
    want_diag += v;
    want_json += v;
  }
  want_diag += "]\n";
  want_json += "]\n";
  size_t most = 0;
  EXPECT_EQ(print_streamed(in, text_kind::diag, {}, 4096, 4 << 10, &most),
            (printed{want_diag, status::end, 0}));
  EXPECT_EQ(print_streamed(in, text_kind::json, {}, 4096, 4 << 10, &most),
            (printed{want_json, status::end, 0}));
  EXPECT_LE(most, size_t{4} << 10);
}

// ---- sequences fed in parts -------------------------------------------------

TEST(sequence_fed, corpus_documents_one_byte_and_random_pieces_equal_one_shot) {
  // The three corpus documents, then 7, as one sequence.
  bytes all;
  std::vector<std::string> want;
  for (const char* name : k_corpus_names) {
    const bytes doc = corpus(name);
    all.insert(all.end(), doc.begin(), doc.end());
  }
  all.push_back(0x07);
  {
    cbor_fast::sequence one(all.data(), all.size());
    cbor_fast::document d;
    while (one.next_document(d) == status::ok) want.push_back(cbor_fast::doc_test::encode_hex(d));
    ASSERT_EQ(one.error().code, status::ok);
    ASSERT_EQ(want.size(), 4u);
  }
  for (size_t piece : {size_t{1}, size_t{777}, size_t{65536}}) {
    cbor_fast::sequence seq(nullptr, 0);
    // The first feed() makes it streaming (before it, an empty sequence ends).
    size_t shown = piece;
    ASSERT_EQ(seq.feed(all.data(), shown), status::ok);
    std::vector<std::string> got;
    size_t need_more = 0;
    for (;;) {
      cbor_fast::document d;
      const status s = seq.next_document(d);
      if (s == status::ok) {
        got.push_back(cbor_fast::doc_test::encode_hex(d));
        continue;
      }
      if (s == status::end) break;
      ASSERT_EQ(s, status::need_more) << piece;
      ++need_more;
      EXPECT_GE(seq.needed(), 1u);
      EXPECT_EQ(seq.error().code, status::ok);  // not sticky
      if (shown == all.size()) {
        seq.end_input();
        continue;
      }
      shown = std::min(all.size(), shown + piece);
      ASSERT_EQ(seq.feed(all.data(), shown), status::ok);
    }
    ASSERT_EQ(got.size(), want.size()) << "pieces of " << piece;
    for (size_t i = 0; i < want.size(); ++i)
      EXPECT_TRUE(got[i] == want[i]) << "document " << i << ", pieces of " << piece;
    EXPECT_GE(need_more, all.size() / piece) << piece;
  }
}

TEST(sequence_fed, next_in_a_sliding_window_gives_offsets_and_lengths) {
  // 1, [2, 3], "abc", {} in a window that keeps only keep_from() on, copied
  // into a fresh buffer each time (ASan catches a stale read).
  const bytes in = hex("01 820203 63616263 a0");
  const size_t want_offsets[] = {0, 1, 4, 8};
  const size_t want_lengths[] = {1, 3, 4, 1};
  cbor_fast::sequence seq(nullptr, 0);
  std::unique_ptr<uint8_t[]> window;
  size_t arrived = 0, n = 0;
  ASSERT_EQ(seq.feed(nullptr, 0), status::ok);  // streaming from the start
  for (;;) {
    size_t off = 0, len = 0;
    const status s = seq.next(off, len);
    if (s == status::ok) {
      ASSERT_LT(n, 4u);
      EXPECT_EQ(off, want_offsets[n]) << n;
      EXPECT_EQ(len, want_lengths[n]) << n;
      ++n;
      continue;
    }
    if (s == status::end) break;
    ASSERT_EQ(s, status::need_more);
    if (arrived == in.size()) {
      seq.end_input();
      continue;
    }
    ++arrived;  // one more byte
    const size_t keep = seq.keep_from();
    std::unique_ptr<uint8_t[]> fresh(new uint8_t[arrived - keep]);
    std::memcpy(fresh.get(), in.data() + keep, arrived - keep);
    window = std::move(fresh);
    ASSERT_EQ(seq.feed(window.get(), arrived - keep, keep), status::ok);
  }
  EXPECT_EQ(n, 4u);
}

TEST(sequence_fed, errors_keep_their_stream_offsets_and_truncation_needs_end_input) {
  // 1, then a reserved head inside an array at offset 2.
  const bytes bad = hex("01 81 1c");
  cbor_fast::sequence seq(nullptr, 0);
  cbor_fast::document d;
  ASSERT_EQ(seq.feed(bad.data(), 1), status::ok);
  ASSERT_EQ(seq.next_document(d), status::ok);
  ASSERT_EQ(seq.feed(bad.data(), 2), status::ok);
  EXPECT_EQ(seq.next_document(d), status::need_more);
  ASSERT_EQ(seq.feed(bad.data(), 3), status::ok);
  EXPECT_EQ(seq.next_document(d), status::reserved_additional_info);
  EXPECT_EQ(seq.error().offset, 2u);
  EXPECT_EQ(seq.error().item_offset, 1u);
  EXPECT_EQ(seq.next_document(d), status::reserved_additional_info);  // sticky

  // [1, 2] cut after 1: need_more until end_input; then the whole input is
  // known and, as in a one-shot read, the count is refused at its head.
  const bytes cut = hex("82 01");
  cbor_fast::sequence seq2(nullptr, 0);
  ASSERT_EQ(seq2.feed(cut.data(), cut.size()), status::ok);
  size_t off, len;
  EXPECT_EQ(seq2.next(off, len), status::need_more);
  EXPECT_EQ(seq2.needed(), 1u);
  seq2.end_input();
  EXPECT_EQ(seq2.next(off, len), status::truncated);
  EXPECT_EQ(seq2.error().offset, 0u);
  EXPECT_EQ(seq2.error().item_offset, 0u);

  // A window starting past keep_from() is refused, changing nothing.
  const bytes two = hex("01 02");
  cbor_fast::sequence seq3(nullptr, 0);
  ASSERT_EQ(seq3.feed(two.data(), 1), status::ok);
  ASSERT_EQ(seq3.next(off, len), status::ok);
  EXPECT_EQ(seq3.feed(two.data() + 2, 0, 2), status::invalid_argument);
  ASSERT_EQ(seq3.feed(two.data() + 1, 1, 1), status::ok);
  ASSERT_EQ(seq3.next(off, len), status::ok);
  EXPECT_EQ(off, 1u);
  seq3.end_input();
  EXPECT_EQ(seq3.next(off, len), status::end);
}

}  // namespace
