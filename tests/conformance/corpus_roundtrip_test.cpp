// Round trip of the real-world corpus (CBOR_FAST_CORPUS_DIR, see
// /work/shared/corpus/README.md): twitter, citm_catalog and canada, converted
// from JSON by cbor2 with definite lengths, shortest integer heads and every
// fractional number as a 64-bit float. Reading every item and writing it
// again (floats at their wire width, definite/indefinite as read) must give
// the input back byte for byte. The number of data items (every array, map,
// key, value and scalar: a map of n pairs counts 1 + 2n) is the one the
// README states. A missing file is a failure, not a skip.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "conformance/test_util.hpp"
#include "corpus.hpp"

namespace {

using namespace cbor_fast_test;
using cbor_fast::reader;
using cbor_fast::reader_options;

struct corpus_file {
  const char* name;
  size_t size;        ///< bytes, from the README
  size_t data_items;  ///< from the README
  size_t float64s;    ///< counted once with an independent decoder
};

const corpus_file files[] = {
    {"twitter", 402814, 27259, 1},
    {"citm_catalog", 342373, 63647, 0},
    {"canada", 1056200, 167187, 111080},
};

/// What one pass of next() over a document saw.
struct census {
  status last = status::ok;
  size_t data_items = 0;  ///< every item except end items and string chunks
  size_t top_level = 0;
  size_t float64s = 0;
  size_t other_floats = 0;
  size_t tags = 0;
  size_t indefinite = 0;
};

census count(const bytes& in, const reader_options& opt) {
  census c;
  reader rd(in.data(), in.size(), opt);
  stream_checker checker(in.data(), in.size());
  item it;
  bool in_indefinite_string = false;
  size_t failures = 0;
  for (;;) {
    c.last = rd.next(it);
    if (c.last != status::ok) break;
    const ::testing::AssertionResult r = checker.add(it);
    if (!r && failures++ < 5) ADD_FAILURE() << r.message();
    if (it.type == item_type::end) {
      in_indefinite_string = false;  // strings hold no containers
      continue;
    }
    if (it.is_indefinite()) ++c.indefinite;
    if (in_indefinite_string) continue;  // a chunk is part of its string
    if ((it.type == item_type::byte_string || it.type == item_type::text_string) &&
        it.is_indefinite())
      in_indefinite_string = true;
    ++c.data_items;
    if (it.depth == 0) ++c.top_level;
    if (it.type == item_type::tag) ++c.tags;
    if (it.type == item_type::floating) {
      if (it.width == 8)
        ++c.float64s;
      else
        ++c.other_floats;
    }
  }
  EXPECT_TRUE(checker.balanced());
  EXPECT_EQ(checker.cursor(), in.size());
  return c;
}

void PrintTo(const corpus_file& r, std::ostream* os) { *os << r.name; }

class corpus : public ::testing::TestWithParam<corpus_file> {
 protected:
  void SetUp() override {
    const std::string path = cbor_fast_test::corpus_path(GetParam().name);
    ASSERT_TRUE(cbor_fast_test::read_file(path, input_))
        << "corpus file missing or unreadable: " << path;
    ASSERT_EQ(input_.size(), GetParam().size) << path;
  }
  bytes input_;
};

TEST_P(corpus, transcode_reproduces_the_bytes) {
  bytes out;
  ASSERT_STATUS(transcode(input_.data(), input_.size(), float_mode::as_read, out), status::ok);
  ASSERT_EQ(out.size(), input_.size());
  size_t first_difference = out.size();
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] != input_[i]) {
      first_difference = i;
      break;
    }
  }
  EXPECT_EQ(first_difference, out.size()) << "output differs from input first at this offset";
}

TEST_P(corpus, data_item_count_matches_the_readme) {
  const census c = count(input_, reader_options{});
  EXPECT_STATUS(c.last, status::end);
  EXPECT_EQ(c.data_items, GetParam().data_items);
  EXPECT_EQ(c.top_level, 1u);
  // Converted from JSON: no tags, no indefinite lengths, only float64.
  EXPECT_EQ(c.tags, 0u);
  EXPECT_EQ(c.indefinite, 0u);
  EXPECT_EQ(c.float64s, GetParam().float64s);
  EXPECT_EQ(c.other_floats, 0u);
}

TEST_P(corpus, valid_utf8_throughout) {
  reader_options opt;
  opt.validate_utf8 = true;
  const census c = count(input_, opt);
  EXPECT_STATUS(c.last, status::end);
  EXPECT_EQ(c.data_items, GetParam().data_items);
  reader rs(input_.data(), input_.size(), opt);
  EXPECT_STATUS(rs.skip(), status::ok);
  EXPECT_STATUS(rs.skip(), status::end);
}

TEST_P(corpus, skip_passes_over_the_document) {
  reader rd(input_.data(), input_.size());
  EXPECT_STATUS(rd.skip(), status::ok);
  EXPECT_EQ(rd.offset(), input_.size());
  EXPECT_STATUS(rd.skip(), status::end);
  EXPECT_STATUS(rd.finish(), status::ok);
}

TEST_P(corpus, diag_prints_the_document) {
  reader rd(input_.data(), input_.size());
  std::string out;
  EXPECT_STATUS(cbor_fast::diag_next(rd, out), status::ok);
  EXPECT_GT(out.size(), 0u);
  std::string rest;
  EXPECT_STATUS(cbor_fast::diag_next(rd, rest), status::end);
}

std::string file_name(const ::testing::TestParamInfo<corpus_file>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(shared, corpus, ::testing::ValuesIn(files), file_name);

}  // namespace
