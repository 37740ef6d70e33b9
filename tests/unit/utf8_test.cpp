// Tests for detail::utf8_validate, utf8_is_valid and utf8_quick_ascii
// (src/internal/utf8.hpp, utf8.cpp).
// Every case runs on each implementation (portable, SSE2, AVX2 and the one
// utf8_validate picks), forced through utf8_validate_on.
#include "internal/utf8.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace cbor_fast {
namespace detail {
namespace {

using bytes = std::vector<uint8_t>;

bytes from(const std::string& s) { return bytes(s.begin(), s.end()); }

/// The implementation under test, set by the fixture for each instance.
utf8_path g_path = utf8_path::best;

/// Runs the validator on a heap copy of exactly b.size() bytes, so that ASan
/// reports any read past the end (a std::vector may have spare capacity).
size_t validate(const bytes& b) {
  if (b.empty()) return utf8_validate_on(g_path, nullptr, 0);
  std::unique_ptr<uint8_t[]> copy(new uint8_t[b.size()]);
  std::memcpy(copy.get(), b.data(), b.size());
  return utf8_validate_on(g_path, copy.get(), b.size());
}

class Utf8Validate : public ::testing::TestWithParam<utf8_path> {
 protected:
  void SetUp() override {
    if (!utf8_path_supported(GetParam())) GTEST_SKIP() << "not available on this build or CPU";
    g_path = GetParam();
  }
  void TearDown() override { g_path = utf8_path::best; }
};

const char* path_name(utf8_path path) {
  switch (path) {
    case utf8_path::portable: return "portable";
    case utf8_path::sse2: return "sse2";
    case utf8_path::avx2: return "avx2";
    case utf8_path::best: return "best";
  }
  return "unknown";
}

INSTANTIATE_TEST_SUITE_P(Paths, Utf8Validate,
                         ::testing::Values(utf8_path::portable, utf8_path::sse2, utf8_path::avx2,
                                           utf8_path::best),
                         [](const ::testing::TestParamInfo<utf8_path>& param) {
                           return std::string(path_name(param.param));
                         });

/// Slow, obviously-correct reference: decode each code point by the bit pattern
/// of its lead byte, then reject what RFC 3629 forbids by value.
size_t reference_validate(const uint8_t* p, size_t n) {
  size_t i = 0;
  while (i < n) {
    const uint8_t b = p[i];
    size_t len;
    uint32_t cp;
    uint32_t min;
    if (b < 0x80) {
      ++i;
      continue;
    } else if ((b & 0xE0) == 0xC0) {
      len = 2, cp = b & 0x1Fu, min = 0x80;
    } else if ((b & 0xF0) == 0xE0) {
      len = 3, cp = b & 0x0Fu, min = 0x800;
    } else if ((b & 0xF8) == 0xF0) {
      len = 4, cp = b & 0x07u, min = 0x10000;
    } else {
      return i;  // continuation byte or F8..FF
    }
    if (n - i < len) return i;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3Fu);
    }
    if (cp < min) return i;                      // overlong
    if (cp >= 0xD800 && cp <= 0xDFFF) return i;  // surrogate
    if (cp > 0x10FFFF) return i;                 // out of range
    i += len;
  }
  return n;
}

size_t reference_validate(const bytes& b) { return reference_validate(b.data(), b.size()); }

void append_code_point(bytes& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(uint8_t(cp));
  } else if (cp < 0x800) {
    out.push_back(uint8_t(0xC0 | (cp >> 6)));
    out.push_back(uint8_t(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(uint8_t(0xE0 | (cp >> 12)));
    out.push_back(uint8_t(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(uint8_t(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(uint8_t(0xF0 | (cp >> 18)));
    out.push_back(uint8_t(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(uint8_t(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(uint8_t(0x80 | (cp & 0x3F)));
  }
}

bytes ascii(size_t n) {
  bytes b(n);
  for (size_t i = 0; i < n; ++i) b[i] = uint8_t('a' + i % 26);
  return b;
}

bytes concat(const bytes& a, const bytes& b, const bytes& c = {}) {
  bytes r(a);
  r.insert(r.end(), b.begin(), b.end());
  r.insert(r.end(), c.begin(), c.end());
  return r;
}

struct row {
  const char* name;
  std::string input;
  size_t expected;  // SIZE_MAX: valid, expect input.size()
};
constexpr size_t valid = SIZE_MAX;

/// Checks each row alone, then embedded after valid prefixes and before ASCII
/// suffixes, so that it also runs through the 16-byte block code at different
/// block offsets (the error offset moves by the prefix length; ASCII after an
/// unfinished sequence leaves the error where it was).
void check_rows(const std::vector<row>& rows) {
  bytes cjk;
  for (int k = 0; k < 7; ++k) append_code_point(cjk, 0x65E5);
  const std::vector<bytes> prefixes = {{},
                                       from("\xC3\xA9"),
                                       concat(from("x\xE2\x82\xAC"), ascii(13)),
                                       cjk,
                                       concat(cjk, from("\xF0\x9F\x98\x80"), ascii(6))};
  const std::vector<bytes> suffixes = {{}, ascii(40)};
  for (const row& r : rows) {
    for (const bytes& prefix : prefixes) {
      for (const bytes& suffix : suffixes) {
        SCOPED_TRACE(std::string(r.name) + ", prefix " + std::to_string(prefix.size()) +
                     ", suffix " + std::to_string(suffix.size()));
        const bytes b = concat(prefix, from(r.input), suffix);
        const size_t want = r.expected == valid ? b.size() : prefix.size() + r.expected;
        EXPECT_EQ(validate(b), want);
        EXPECT_EQ(reference_validate(b), want);  // keeps the reference honest
      }
    }
  }
}

// ---- named tables -----------------------------------------------------------

TEST_P(Utf8Validate, EmptyWithNullPointer) { EXPECT_EQ(utf8_validate_on(g_path, nullptr, 0), 0u); }

TEST_P(Utf8Validate, ValidBoundaries) {
  check_rows({
      {"empty", "", valid},
      {"U+0000", std::string(1, '\0'), valid},
      {"ascii", "hello, world", valid},
      {"U+007F last 1-byte", "\x7F", valid},
      {"U+0080 first 2-byte", "\xC2\x80", valid},
      {"U+07FF last 2-byte", "\xDF\xBF", valid},
      {"U+0800 first 3-byte", "\xE0\xA0\x80", valid},
      {"U+0FFF E0 upper", "\xE0\xBF\xBF", valid},
      {"U+1000 E1", "\xE1\x80\x80", valid},
      {"U+D7FF before surrogates", "\xED\x9F\xBF", valid},
      {"U+E000 after surrogates", "\xEE\x80\x80", valid},
      {"U+FFFD", "\xEF\xBF\xBD", valid},
      {"U+FFFF last 3-byte", "\xEF\xBF\xBF", valid},
      {"U+10000 first 4-byte", "\xF0\x90\x80\x80", valid},
      {"U+3FFFF F0 upper", "\xF0\xBF\xBF\xBF", valid},
      {"U+40000 F1", "\xF1\x80\x80\x80", valid},
      {"U+FFFFF F3 upper", "\xF3\xBF\xBF\xBF", valid},
      {"U+100000 F4", "\xF4\x80\x80\x80", valid},
      {"U+10FFFF last", "\xF4\x8F\xBF\xBF", valid},
      {"mixed", "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z", valid},
      {"all lengths 17 bytes", "\xF4\x8F\xBF\xBF\xEF\xBF\xBF\xDF\xBF\x7F\xF0\x90\x80\x80\xC2\x80!",
       valid},
  });
}

TEST_P(Utf8Validate, Overlong) {
  check_rows({
      {"C0 80 (NUL)", "\xC0\x80", 0},
      {"C0 AF ('/')", "\xC0\xAF", 0},
      {"C1 BF (U+007F)", "\xC1\xBF", 0},
      {"E0 80 80", "\xE0\x80\x80", 0},
      {"E0 9F BF (U+07FF)", "\xE0\x9F\xBF", 0},
      {"F0 80 80 80", "\xF0\x80\x80\x80", 0},
      {"F0 8F BF BF (U+FFFF)", "\xF0\x8F\xBF\xBF", 0},
      {"after ascii", "ab\xC1\x81", 2},
      {"after 2-byte", "\xC3\xA9\xE0\x9F\xBF", 2},
  });
}

TEST_P(Utf8Validate, Surrogates) {
  check_rows({
      {"U+D800 first high", "\xED\xA0\x80", 0},
      {"U+DBFF last high", "\xED\xAF\xBF", 0},
      {"U+DC00 first low", "\xED\xB0\x80", 0},
      {"U+DFFF last low", "\xED\xBF\xBF", 0},
      {"CESU-8 pair", "\xED\xA0\xBD\xED\xB8\x80", 0},
      {"after valid ED", "x\xED\x9F\xBF\xED\xA0\x80", 4},
  });
}

TEST_P(Utf8Validate, AboveMaximum) {
  check_rows({
      {"U+110000 F4 90", "\xF4\x90\x80\x80", 0},
      {"F4 BF BF BF", "\xF4\xBF\xBF\xBF", 0},
      {"F5 lead", "\xF5\x80\x80\x80", 0},
      {"F7 BF BF BF", "\xF7\xBF\xBF\xBF", 0},
      {"F8 5-byte lead", "\xF8\x88\x80\x80\x80", 0},
      {"FC 6-byte lead", "\xFC\x84\x80\x80\x80\x80", 0},
      {"FE", "\xFE", 0},
      {"FF", "\xFF", 0},
      {"FF after text",
       "abc\xFF"
       "def",
       3},
  });
}

TEST_P(Utf8Validate, UnexpectedContinuation) {
  check_rows({
      {"lone 80", "\x80", 0},
      {"lone BF", "\xBF", 0},
      {"after ascii", "a\x80", 1},
      {"extra after 2-byte", "\xC3\xA9\xA9", 2},
      {"extra after 3-byte", "\xE2\x82\xAC\x80", 3},
      {"extra after 4-byte", "\xF0\x9F\x98\x80\x80", 4},
  });
}

TEST_P(Utf8Validate, Truncated) {
  check_rows({
      {"2-byte at end", "\xC3", 0},
      {"3-byte, 1 of 3 at end", "\xE2", 0},
      {"3-byte, 2 of 3 at end", "\xE2\x82", 0},
      {"4-byte, 1 of 4 at end", "\xF0", 0},
      {"4-byte, 2 of 4 at end", "\xF0\x9F", 0},
      {"4-byte, 3 of 4 at end", "\xF0\x9F\x98", 0},
      {"3-byte at end after text", "ab\xE2\x82", 2},
      {"E0 at end, valid 2nd", "ab\xE0\xA0", 2},
      {"2-byte in middle",
       "a\xC3"
       "b",
       1},
      {"3-byte, 2 of 3 in middle",
       "a\xE2\x82"
       "b",
       1},
      {"3-byte, bad 3rd (lead)", "a\xE2\x82\xC3\xA9", 1},
      {"4-byte, 3 of 4 in middle",
       "a\xF0\x9F\x98"
       "b",
       1},
      {"4-byte, 2 of 4 then lead", "a\xF0\x9F\xE2\x82\xAC", 1},
      {"lead then lead", "\xC3\xC3\xA9", 0},
  });
}

// ---- the bad byte at every position, across the 8/16/64-byte blocks ---------

TEST_P(Utf8Validate, InvalidAtEveryPosition) {
  const std::vector<row> bad = {
      {"lone continuation", "\x80", 0},
      {"C0 overlong", "\xC0\xAF", 0},
      {"E0 overlong", "\xE0\x80\xAF", 0},
      {"F0 overlong", "\xF0\x8F\xBF\xBF", 0},
      {"surrogate", "\xED\xA0\x80", 0},
      {"above max", "\xF4\x90\x80\x80", 0},
      {"FF", "\xFF", 0},
      {"2-byte cut by ascii", "\xC3", 0},
      {"3-byte cut by ascii", "\xE2\x82", 0},
      {"4-byte cut by ascii", "\xF0\x9F\x98", 0},
  };
  for (const row& r : bad) {
    for (size_t pos = 0; pos <= 40; ++pos) {
      for (size_t tail : {size_t(0), size_t(1), size_t(7), size_t(40)}) {
        SCOPED_TRACE(std::string(r.name) + " at " + std::to_string(pos) + ", tail " +
                     std::to_string(tail));
        const bytes b = concat(ascii(pos), from(r.input), ascii(tail));
        ASSERT_EQ(validate(b), pos);
      }
    }
  }
}

TEST_P(Utf8Validate, TruncatedAtEndOfEveryLength) {
  for (const char* cut : {"\xC3", "\xE2", "\xE2\x82", "\xF0", "\xF0\x9F", "\xF0\x9F\x98"}) {
    for (size_t pos = 0; pos <= 70; ++pos) {
      SCOPED_TRACE(std::to_string(pos));
      ASSERT_EQ(validate(concat(ascii(pos), from(cut))), pos);
    }
  }
}

TEST_P(Utf8Validate, ValidSequenceAtEveryPosition) {
  for (const char* seq : {"\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEF\xBF\xBF",
                          "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"}) {
    for (size_t pos = 0; pos <= 40; ++pos) {
      for (size_t tail : {size_t(0), size_t(1), size_t(15), size_t(40)}) {
        SCOPED_TRACE(std::to_string(pos) + ", tail " + std::to_string(tail));
        const bytes b = concat(ascii(pos), from(seq), ascii(tail));
        ASSERT_EQ(validate(b), b.size());
      }
    }
  }
}

TEST_P(Utf8Validate, BadByteAtEveryPositionOfEveryLength) {
  // Sizes 1..100 take every all-ASCII shortcut (1..3, 4..16, 17..32, 33..64
  // overlapping loads, longer loops); a single bad byte anywhere must show.
  for (size_t n = 0; n <= 100; ++n) {
    ASSERT_EQ(validate(ascii(n)), n);
    for (size_t pos = 0; pos < n; ++pos) {
      for (uint8_t bad : {uint8_t(0x80), uint8_t(0xC3), uint8_t(0xFF)}) {
        bytes b = ascii(n);
        b[pos] = bad;
        ASSERT_EQ(validate(b), pos) << "size " << n << ", byte " << int(bad) << " at " << pos;
      }
    }
  }
}

TEST_P(Utf8Validate, UnfinishedSequenceBeforeAscii) {
  // Non-ASCII text first, so the unfinished sequence sits at every offset of a
  // 16-byte block (also its last bytes) with only ASCII after it.
  bytes cjk;
  for (int k = 0; k < 5; ++k) append_code_point(cjk, 0x8A9E);
  for (const bytes& prefix : {from("\xC3\xA9"), cjk}) {
    for (const char* cut : {"\xC3", "\xE2", "\xE2\x82", "\xF0", "\xF0\x9F", "\xF0\x9F\x98"}) {
      for (size_t k = 0; k <= 40; ++k) {
        for (size_t tail : {size_t(1), size_t(16), size_t(40)}) {
          SCOPED_TRACE(std::to_string(prefix.size()) + "+" + std::to_string(k) + ", tail " +
                       std::to_string(tail));
          ASSERT_EQ(validate(concat(concat(prefix, ascii(k)), from(cut), ascii(tail))),
                    prefix.size() + k);
        }
      }
    }
  }
}

TEST_P(Utf8Validate, InvalidAfterLongNonAsciiRun) {
  // 3-byte run long enough to leave and re-enter the block scan, then a surrogate.
  bytes b;
  for (int i = 0; i < 50; ++i) append_code_point(b, 0x4E2D);
  b.push_back(' ');
  for (int i = 0; i < 30; ++i) append_code_point(b, 0x0416);
  const size_t at = b.size();
  append_code_point(b, 0xD7FF);
  EXPECT_EQ(validate(b), b.size());
  b.resize(at);
  b.insert(b.end(), {0xED, 0xB0, 0x80, 'x'});
  EXPECT_EQ(validate(b), at);
}

TEST_P(Utf8Validate, EveryAlignment) {
  // Same content at each start alignment, ending exactly at the allocation end.
  bytes content = from(
      "Gr\xC3\xBC\xC3\x9F"
      "e aus K\xC3\xB6ln, \xE2\x82\xAC 5, \xF0\x9F\x98\x80 ok");
  content.insert(content.end(), 40, 'z');
  content.push_back(0xC3);  // truncated at the very end
  for (size_t align = 0; align < 16; ++align) {
    std::unique_ptr<uint8_t[]> buf(new uint8_t[align + content.size()]);
    std::memcpy(buf.get() + align, content.data(), content.size());
    ASSERT_EQ(utf8_validate_on(g_path, buf.get() + align, content.size()), content.size() - 1)
        << align;
    ASSERT_EQ(utf8_validate_on(g_path, buf.get() + align, content.size() - 1), content.size() - 1)
        << align;
  }
}

// ---- inside non-ASCII text: every offset of the 16- and 32-byte blocks ------

/// Exactly n bytes of valid text whose non-ASCII part runs up to the end: the
/// ASCII padding (n mod the filler's length) comes first, so the block code is
/// running (not skipping ASCII) when it reaches byte n.
bytes text_of(size_t n, const std::string& filler) {
  bytes b = ascii(n % filler.size());
  while (b.size() < n) b.insert(b.end(), filler.begin(), filler.end());
  return b;
}

const std::vector<std::string>& fillers() {
  static const std::vector<std::string> f = {
      "\xC3\xA9",          // 2-byte
      "\xE6\x97\xA5",      // 3-byte
      "\xF0\x9F\x98\x80",  // 4-byte
      "\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80"
      "a",  // mixed, 10 bytes
  };
  return f;
}

TEST_P(Utf8Validate, InvalidAtEveryPositionInNonAsciiText) {
  const std::vector<row> bad = {
      {"lone continuation", "\x80", 0},
      {"continuation BF", "\xBF", 0},
      {"C0 overlong", "\xC0\xAF", 0},
      {"C1 overlong", "\xC1\xBF", 0},
      {"E0 overlong", "\xE0\x9F\xBF", 0},
      {"F0 overlong", "\xF0\x8F\xBF\xBF", 0},
      {"surrogate low end", "\xED\xA0\x80", 0},
      {"surrogate high end", "\xED\xBF\xBF", 0},
      {"above max F4 90", "\xF4\x90\x80\x80", 0},
      {"F5 lead", "\xF5\x80\x80\x80", 0},
      {"FF", "\xFF", 0},
      {"2-byte cut", "\xC3", 0},
      {"3-byte cut after 1", "\xE2", 0},
      {"3-byte cut after 2", "\xE2\x82", 0},
      {"4-byte cut after 3", "\xF0\x9F\x98", 0},
      {"extra continuation after 3-byte", "\xE2\x82\xAC\x80", 3},
      {"extra continuation after 4-byte", "\xF4\x8F\xBF\xBF\xBF", 4},
  };
  for (const std::string& filler : fillers()) {
    for (const row& r : bad) {
      for (size_t pos = 0; pos <= 100; ++pos) {
        // Tails start with a lead or ASCII byte, so the error stays at pos.
        for (const bytes& tail : {bytes{}, from("z"), text_of(7, filler), text_of(40, filler)}) {
          SCOPED_TRACE(std::string(r.name) + " at " + std::to_string(pos) + ", filler " +
                       std::to_string(filler.size()) + ", tail " + std::to_string(tail.size()));
          const bytes b = concat(text_of(pos, filler), from(r.input), tail);
          ASSERT_EQ(reference_validate(b), pos + r.expected);
          ASSERT_EQ(validate(b), pos + r.expected);
        }
      }
    }
  }
}

TEST_P(Utf8Validate, ValidBoundaryAtEveryPositionInNonAsciiText) {
  for (const std::string& filler : fillers()) {
    for (const char* seq :
         {"\x7F", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80",
          "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"}) {
      for (size_t pos = 0; pos <= 100; ++pos) {
        for (size_t tail : {size_t(0), size_t(3), size_t(33)}) {
          SCOPED_TRACE(std::to_string(pos) + ", filler " + std::to_string(filler.size()) +
                       ", tail " + std::to_string(tail));
          const bytes b = concat(text_of(pos, filler), from(seq), text_of(tail, filler));
          ASSERT_EQ(validate(b), b.size());
        }
      }
    }
  }
}

TEST_P(Utf8Validate, TruncatedAtEveryBlockBoundaryInNonAsciiText) {
  // The input ends inside a sequence that starts at every offset, so the cut
  // falls on and around every 16- and 32-byte block end, including the last
  // (overlapping) block that ends at the end of the input.
  for (const std::string& filler : fillers()) {
    for (const char* cut : {"\xC3", "\xE2", "\xE2\x82", "\xF0", "\xF0\x9F", "\xF0\x9F\x98"}) {
      for (size_t pos = 0; pos <= 100; ++pos) {
        SCOPED_TRACE(std::to_string(pos) + ", filler " + std::to_string(filler.size()));
        const bytes b = concat(text_of(pos, filler), from(cut));
        ASSERT_EQ(validate(b), pos);
        // The same cut followed by ASCII, which cannot finish it.
        ASSERT_EQ(validate(concat(b, ascii(40))), pos);
      }
    }
  }
}

TEST_P(Utf8Validate, EveryByteAfterEveryByteInNonAsciiText) {
  // All 65,536 byte pairs between 2-byte sequences, checked against the
  // reference: with the text starting at offset 0 or 1, the blocks start at 3
  // or 4, so these offsets put the pair inside a block, at its start and
  // across the end of a 16- and a 32-byte block. This covers every entry of
  // the AVX2 path's nibble tables and every range test of the SSE2 one.
  for (size_t lead : {size_t(18), size_t(19), size_t(34), size_t(35), size_t(36)}) {
    const bytes b = concat(text_of(lead, "\xC3\xA9"), from("xx"), text_of(40, "\xC3\xA9"));
    std::unique_ptr<uint8_t[]> buf(new uint8_t[b.size()]);
    std::memcpy(buf.get(), b.data(), b.size());
    for (unsigned b0 = 0; b0 < 256; ++b0) {
      for (unsigned b1 = 0; b1 < 256; ++b1) {
        buf[lead] = uint8_t(b0);
        buf[lead + 1] = uint8_t(b1);
        const size_t want = reference_validate(buf.get(), b.size());
        ASSERT_EQ(utf8_validate_on(g_path, buf.get(), b.size()), want)
            << "pair " << std::hex << b0 << " " << b1 << " at " << std::dec << lead;
      }
    }
  }
}

TEST_P(Utf8Validate, ThreeAndFourByteFormsInNonAsciiText) {
  // Every 3- and 4-byte lead with second and third bytes from each group of
  // 16 continuation bytes (the validators tell them apart by high nibble at
  // most) and every byte after them, across a 16/32-byte block end: checks
  // that third and fourth bytes are required exactly where they are due.
  const uint8_t conts[] = {0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF};
  for (size_t lead : {size_t(33), size_t(34)}) {
    const bytes b =
        concat(text_of(lead, "\xE6\x97\xA5"), from("xxxx"), text_of(40, "\xE6\x97\xA5"));
    std::unique_ptr<uint8_t[]> buf(new uint8_t[b.size()]);
    std::memcpy(buf.get(), b.data(), b.size());
    for (unsigned b0 = 0xE0; b0 <= 0xF4; ++b0) {
      for (uint8_t b1 : conts) {
        for (uint8_t b2 : conts) {
          for (unsigned last = 0; last < 256; ++last) {
            buf[lead] = uint8_t(b0);
            buf[lead + 1] = b1;
            buf[lead + 2] = b0 < 0xF0 ? uint8_t(last) : b2;
            buf[lead + 3] = b0 < 0xF0 ? uint8_t('x') : uint8_t(last);
            const size_t want = reference_validate(buf.get(), b.size());
            ASSERT_EQ(utf8_validate_on(g_path, buf.get(), b.size()), want)
                << std::hex << b0 << " " << unsigned(b1) << " " << unsigned(buf[lead + 2]) << " "
                << unsigned(buf[lead + 3]) << " at " << std::dec << lead;
          }
          if (b0 < 0xF0) break;  // 3-byte: b2 is `last`
        }
      }
    }
  }
}

// ---- utf8_is_valid / utf8_quick_ascii: inline checks with readable bytes after ---

TEST(Utf8IsValid, AgreesWithReferenceForEverySizeAndReadableEnd) {
  // The bytes after the string are non-ASCII, so a mask that let them in would
  // fail valid strings; the buffer ends at readable_end, so ASan catches any
  // load past it.
  for (size_t size = 0; size <= 40; ++size) {
    for (size_t slack = 0; slack <= 40; ++slack) {
      for (size_t bad = 0; bad <= size; ++bad) {  // bad == size: no bad byte
        for (uint8_t bad_byte : {uint8_t(0x80), uint8_t(0xC3), uint8_t(0xE2), uint8_t(0xFF)}) {
          if (bad == size && bad_byte != 0x80) continue;
          std::unique_ptr<uint8_t[]> buf(new uint8_t[size + slack + 1]);
          uint8_t* p = buf.get() + 1;
          buf[0] = 0xE2;  // a lead byte just before the string must not matter
          for (size_t k = 0; k < size; ++k) p[k] = uint8_t('a' + k % 26);
          for (size_t k = size; k < size + slack; ++k) p[k] = 0xBF;
          if (bad < size) p[bad] = bad_byte;
          const bool want = reference_validate(p, size) == size;
          ASSERT_EQ(want, bad == size);
          ASSERT_EQ(utf8_is_valid(p, size, p + size + slack), want)
              << "size " << size << ", slack " << slack << ", bad " << bad << " = "
              << unsigned(bad_byte);
          // The shortcut never passes a non-ASCII string, and on x86-64 it
          // settles ASCII strings up to 16 (32) bytes given 16 (32) readable.
          const bool quick = utf8_quick_ascii(p, size, p + size + slack);
          if (bad < size) {
            ASSERT_FALSE(quick) << size << " " << slack << " " << bad;
          }
#if defined(__SSE2__)
          const size_t readable = size + slack;
          const bool settled = (size <= 16 && readable >= 16) || (size <= 32 && readable >= 32);
          if (bad == size) {
            ASSERT_EQ(quick, settled) << size << " " << slack;
          }
#endif
        }
      }
    }
  }
}

TEST(Utf8IsValid, NonAsciiStringsOfEveryShortSize) {
  // Valid and cut non-ASCII text of sizes 1..40 with readable bytes after it:
  // the inline shortcut must send them to the full validator.
  for (size_t n = 1; n <= 40; ++n) {
    for (const std::string& filler : fillers()) {
      bytes b = concat(text_of(n, filler), text_of(40, filler));
      std::unique_ptr<uint8_t[]> buf(new uint8_t[b.size()]);
      std::memcpy(buf.get(), b.data(), b.size());
      const uint8_t* end = buf.get() + b.size();
      EXPECT_TRUE(utf8_is_valid(buf.get(), n, end)) << n;
      // Only text shorter than one filler is all ASCII padding.
      EXPECT_EQ(utf8_quick_ascii(buf.get(), n, end), n < filler.size()) << n;
      // Stop one byte into the last sequence of the text (if it is one).
      const size_t cut = n - 1;
      const bool cut_valid = reference_validate(buf.get(), cut) == cut;
      EXPECT_EQ(utf8_is_valid(buf.get(), cut, end), cut_valid) << n;
    }
  }
}

TEST(Utf8Paths, PortableAndBestAlwaysAvailable) {
  EXPECT_TRUE(utf8_path_supported(utf8_path::portable));
  EXPECT_TRUE(utf8_path_supported(utf8_path::best));
#if defined(__SSE2__)
  EXPECT_TRUE(utf8_path_supported(utf8_path::sse2));
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  // The AVX2 instance must not be skipped on a CPU that has AVX2.
  EXPECT_EQ(utf8_path_supported(utf8_path::avx2), __builtin_cpu_supports("avx2") != 0);
#endif
}

TEST(Utf8Paths, EveryPathAnswersEvenWhereUnsupported) {
  // Whatever the CPU, utf8_validate_on gives the same answer for every path
  // (an unsupported one runs the portable code).
  const bytes b = concat(text_of(50, "\xE6\x97\xA5"), from("\xED\xA0\x80"), ascii(10));
  for (utf8_path path : {utf8_path::portable, utf8_path::sse2, utf8_path::avx2, utf8_path::best}) {
    EXPECT_EQ(utf8_validate_on(path, b.data(), b.size()), 50u) << path_name(path);
  }
}

// ---- differential against the reference -------------------------------------

/// Byte strings biased toward UTF-8-ish content: whole encoded code points
/// (including ones near every boundary) mixed with arbitrary bytes.
bytes random_utf8ish(std::mt19937_64& rng) {
  static const uint32_t edges[] = {0x0,     0x7F,    0x80,    0x7FF,    0x800,   0xFFF,
                                   0x1000,  0xD7FF,  0xE000,  0xFFFD,   0xFFFF,  0x10000,
                                   0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF};
  static const uint8_t special[] = {0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
                                    0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1,
                                    0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFE, 0xFF};
  const size_t n = rng() % 8 == 0 ? rng() % 300 : rng() % 48;
  bytes b;
  while (b.size() < n) {
    switch (rng() % 10) {
      case 0:
      case 1:
      case 2: b.push_back(uint8_t(0x20 + rng() % 0x5F)); break;
      case 3: b.push_back(special[rng() % sizeof special]); break;
      case 4: b.push_back(uint8_t(rng())); break;
      case 5: append_code_point(b, edges[rng() % (sizeof edges / sizeof edges[0])]); break;
      case 6: append_code_point(b, uint32_t(0x80 + rng() % (0x800 - 0x80))); break;
      case 7: {
        uint32_t cp = uint32_t(0x800 + rng() % (0x10000 - 0x800));
        if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0x4E00;
        append_code_point(b, cp);
        break;
      }
      case 8: append_code_point(b, uint32_t(0x10000 + rng() % 0x100000)); break;
      default:
        // A run of ASCII, so strings also cross the block boundaries.
        b.insert(b.end(), rng() % 40, uint8_t('a' + rng() % 26));
        break;
    }
  }
  return b;
}

TEST_P(Utf8Validate, DifferentialRandomBytes) {
  // Half the iterations of a single-path run per path: four paths run this.
  std::mt19937_64 rng(0x75746638);
  size_t invalid = 0;
  for (int iter = 0; iter < 150000; ++iter) {
    const bytes b = random_utf8ish(rng);
    const size_t want = reference_validate(b);
    if (want != b.size()) ++invalid;
    ASSERT_EQ(validate(b), want) << "iteration " << iter;
  }
  // The mix must exercise both outcomes substantially.
  EXPECT_GT(invalid, 30000u);
  EXPECT_LT(invalid, 140000u);
}

TEST_P(Utf8Validate, DifferentialRandomValidText) {
  std::mt19937_64 rng(0x10FFFF);
  for (int iter = 0; iter < 50000; ++iter) {
    bytes b;
    const size_t count = rng() % 4 == 0 ? rng() % 200 : rng() % 20;
    const unsigned flavour = unsigned(rng() % 4);  // ascii-heavy, 2-byte, 3-byte, any
    for (size_t k = 0; k < count; ++k) {
      uint32_t cp;
      const unsigned pick = flavour == 3 ? unsigned(rng() % 4) : (rng() % 3 == 0 ? 0 : flavour);
      if (pick == 0) {
        cp = uint32_t(rng() % 0x80);
      } else if (pick == 1) {
        cp = uint32_t(0x80 + rng() % (0x800 - 0x80));
      } else if (pick == 2) {
        cp = uint32_t(0x800 + rng() % (0x10000 - 0x800 - 0x800));
        if (cp >= 0xD800) cp += 0x800;  // skip the surrogates
      } else {
        cp = uint32_t(0x10000 + rng() % 0x100000);
      }
      append_code_point(b, cp);
    }
    ASSERT_EQ(validate(b), b.size()) << "iteration " << iter;
    ASSERT_EQ(reference_validate(b), b.size());
    if (b.empty()) continue;
    // One damaged byte or a cut: both validators must agree on the offset.
    bytes damaged = b;
    damaged[rng() % damaged.size()] = uint8_t(rng());
    ASSERT_EQ(validate(damaged), reference_validate(damaged)) << "iteration " << iter;
    damaged = b;
    damaged.resize(rng() % b.size());
    ASSERT_EQ(validate(damaged), reference_validate(damaged)) << "iteration " << iter;
  }
}

}  // namespace
}  // namespace detail
}  // namespace cbor_fast
