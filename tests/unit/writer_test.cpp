// Tests for cbor_fast::writer (src/writer/writer.cpp) and the float narrowing
// helpers it uses (src/internal/float16.hpp).
#include "cbor_fast/writer.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "internal/float16.hpp"

namespace cbor_fast {
namespace {

using bytes = std::vector<uint8_t>;
using write_fn = std::function<void(writer&)>;

#define EXPECT_STATUS(expr, code) EXPECT_STREQ(status_name(expr), status_name(status::code))
#define EXPECT_OK(expr) EXPECT_STATUS(expr, ok)

constexpr uint64_t k_u64_max = std::numeric_limits<uint64_t>::max();
constexpr uint8_t k_guard = 0xEE;

bytes from_hex(std::string_view h) {
  bytes out;
  int hi = -1;
  for (char c : h) {
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else
      continue;  // spaces group bytes for the reader
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(uint8_t(hi << 4 | v));
      hi = -1;
    }
  }
  return out;
}

std::string to_hex(const uint8_t* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}
std::string to_hex(const bytes& b) { return to_hex(b.data(), b.size()); }
/// Canonical form of a hex literal (lower case, no spaces) for comparisons.
std::string norm(std::string_view h) { return to_hex(from_hex(h)); }

/// Records what a sink receives; optionally fails on call number fail_at (1-based).
struct sink_record {
  bytes data;
  std::vector<size_t> chunks;
  std::vector<const uint8_t*> pointers;
  int calls = 0;
  int fail_at = 0;
};

int record_sink(void* context, const uint8_t* data, size_t size) {
  auto* r = static_cast<sink_record*>(context);
  ++r->calls;
  if (r->calls == r->fail_at) return -1;
  r->data.insert(r->data.end(), data, data + size);
  r->chunks.push_back(size);
  r->pointers.push_back(data);
  return 0;
}

/// Runs fn on every destination (owned buffer; caller buffer of exactly the
/// right size with a guard region after it; sinks with chunk sizes 1, 3 and
/// 4096), checks that all of them produce the same bytes, and returns them as hex.
std::string encode(const write_fn& fn) {
  writer w;
  fn(w);
  EXPECT_OK(w.finish());
  const bytes owned = w.to_vector();
  EXPECT_EQ(w.size(), owned.size());

  bytes buf(owned.size() + 16, k_guard);
  writer f(buf.data(), owned.size());
  fn(f);
  EXPECT_OK(f.finish());
  EXPECT_EQ(f.size(), owned.size());
  EXPECT_EQ(to_hex(buf.data(), owned.size()), to_hex(owned)) << "caller buffer";
  for (size_t i = owned.size(); i < buf.size(); ++i) EXPECT_EQ(buf[i], k_guard) << "guard " << i;

  for (size_t chunk : {size_t(1), size_t(3), size_t(4096)}) {
    sink_record r;
    writer s(record_sink, &r, chunk);
    fn(s);
    EXPECT_OK(s.finish());
    EXPECT_EQ(to_hex(r.data), to_hex(owned)) << "sink, chunk_size " << chunk;
    EXPECT_EQ(s.size(), owned.size());
  }
  return to_hex(owned);
}

/// Bytes an owned writer holds after fn, without finishing (for open containers).
std::string written(const write_fn& fn) {
  writer w;
  fn(w);
  return to_hex(w.to_vector());
}

double from_bits(uint64_t b) { return detail::bits_to_double(b); }

// ---- integers ---------------------------------------------------------------

struct uint_row {
  const char* name;
  uint64_t v;
  const char* hex;
};

TEST(WriterUint, EveryHeadSize) {
  const uint_row rows[] = {
      {"0", 0, "00"},
      {"1", 1, "01"},
      {"10", 10, "0a"},
      {"23 (last inline)", 23, "17"},
      {"24 (first 1-byte)", 24, "18 18"},
      {"25", 25, "18 19"},
      {"100", 100, "18 64"},
      {"255 (last 1-byte)", 255, "18 ff"},
      {"256 (first 2-byte)", 256, "19 01 00"},
      {"1000", 1000, "19 03 e8"},
      {"65535 (last 2-byte)", 65535, "19 ff ff"},
      {"65536 (first 4-byte)", 65536, "1a 00 01 00 00"},
      {"1000000", 1000000, "1a 00 0f 42 40"},
      {"2^32-1 (last 4-byte)", 0xffffffffu, "1a ff ff ff ff"},
      {"2^32 (first 8-byte)", uint64_t(1) << 32, "1b 00 00 00 01 00 00 00 00"},
      {"1000000000000", 1000000000000u, "1b 00 00 00 e8 d4 a5 10 00"},
      {"2^64-1", k_u64_max, "1b ff ff ff ff ff ff ff ff"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_uint(row.v)); }), norm(row.hex));
  }
}

TEST(WriterNegative, EveryHeadSize) {
  // write_negative(n) is the integer -1 - n.
  const uint_row rows[] = {
      {"-1", 0, "20"},
      {"-10", 9, "29"},
      {"-24 (last inline)", 23, "37"},
      {"-25 (first 1-byte)", 24, "38 18"},
      {"-100", 99, "38 63"},
      {"-256 (last 1-byte)", 255, "38 ff"},
      {"-257 (first 2-byte)", 256, "39 01 00"},
      {"-1000", 999, "39 03 e7"},
      {"-65536 (last 2-byte)", 65535, "39 ff ff"},
      {"-65537 (first 4-byte)", 65536, "3a 00 01 00 00"},
      {"-2^32 (last 4-byte)", 0xffffffffu, "3a ff ff ff ff"},
      {"-2^32-1 (first 8-byte)", uint64_t(1) << 32, "3b 00 00 00 01 00 00 00 00"},
      {"-2^64", k_u64_max, "3b ff ff ff ff ff ff ff ff"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_negative(row.v)); }), norm(row.hex));
  }
}

TEST(WriterInt, SignedRows) {
  struct row {
    const char* name;
    int64_t v;
    const char* hex;
  };
  const row rows[] = {
      {"0", 0, "00"},
      {"23", 23, "17"},
      {"24", 24, "18 18"},
      {"-1", -1, "20"},
      {"-24", -24, "37"},
      {"-25", -25, "38 18"},
      {"-256", -256, "38 ff"},
      {"-257", -257, "39 01 00"},
      {"-65536", -65536, "39 ff ff"},
      {"-65537", -65537, "3a 00 01 00 00"},
      {"-2^32", -(int64_t(1) << 32), "3a ff ff ff ff"},
      {"-2^32-1", -(int64_t(1) << 32) - 1, "3b 00 00 00 01 00 00 00 00"},
      {"INT64_MAX", std::numeric_limits<int64_t>::max(), "1b 7f ff ff ff ff ff ff ff"},
      {"INT64_MIN", std::numeric_limits<int64_t>::min(), "3b 7f ff ff ff ff ff ff ff"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_int(r.v)); }), norm(r.hex));
  }
}

// ---- bignums ----------------------------------------------------------------

TEST(WriterBignum, Rows) {
  struct row {
    const char* name;
    bytes magnitude;
    bool negative;
    const char* hex;
  };
  const bytes two_64 = from_hex("01 00 00 00 00 00 00 00 00");
  const row rows[] = {
      {"2^64 -> tag 2", two_64, false, "c2 49 01 00 00 00 00 00 00 00 00"},
      {"-2^64-1 -> tag 3", two_64, true, "c3 49 01 00 00 00 00 00 00 00 00"},
      {"2^64 with leading zeros", from_hex("00 00 00 01 00 00 00 00 00 00 00 00"), false,
       "c2 49 01 00 00 00 00 00 00 00 00"},
      {"2^72-1 (9 bytes)", bytes(9, 0xff), false, "c2 49 ff ff ff ff ff ff ff ff ff"},
      {"2^128 (17 bytes)", from_hex("01 00000000000000000000000000000000"), true,
       "c3 51 01 00000000000000000000000000000000"},
      {"2^64-1 -> plain uint", bytes(8, 0xff), false, "1b ff ff ff ff ff ff ff ff"},
      {"-2^64 -> plain negative", bytes(8, 0xff), true, "3b ff ff ff ff ff ff ff ff"},
      {"2^64-1 with leading zeros -> plain", from_hex("00 00 ff ff ff ff ff ff ff ff"), false,
       "1b ff ff ff ff ff ff ff ff"},
      {"5 -> 05", from_hex("00 00 00 05"), false, "05"},
      {"-1-5 -> 25", from_hex("00 00 00 05"), true, "25"},
      {"256 -> 19 0100", from_hex("01 00"), false, "19 01 00"},
      {"all zeros -> 0", from_hex("00 00 00"), false, "00"},
      {"all zeros negative -> -1", from_hex("00 00 00"), true, "20"},
      {"empty -> 0", bytes(), false, "00"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) {
                EXPECT_OK(w.write_bignum(r.magnitude.empty() ? nullptr : r.magnitude.data(),
                                         r.magnitude.size(), r.negative));
              }),
              norm(r.hex));
  }
}

TEST(WriterEncoded, OneItemAsItIsCountedOnce) {
  const bytes key = from_hex("a1 01 82 02 03");  // {1: [2, 3]}
  // A map of two pairs whose first key is written encoded, on every destination.
  EXPECT_EQ(encode([&](writer& w) {
              EXPECT_OK(w.begin_map(2));
              EXPECT_OK(w.write_encoded(key.data(), key.size()));
              EXPECT_OK(w.write_uint(7));
              EXPECT_OK(w.write_text("k"));
              EXPECT_OK(w.write_encoded(key.data(), key.size()));
              EXPECT_OK(w.end());
            }),
            norm("a2 a1018202 03 07 616b a1018202 03"));
  // A tag's content; a long item (70,000 bytes) through a 3-byte sink.
  bytes big = from_hex("5a 00 01 11 70");
  big.resize(big.size() + 70000, 0xab);
  EXPECT_EQ(encode([&](writer& w) {
              EXPECT_OK(w.write_tag(24));
              EXPECT_OK(w.write_encoded(big.data(), big.size()));
              EXPECT_EQ(w.depth(), 0u);
            }),
            "d818" + to_hex(big));
  // One more item than a definite array declares.
  writer over;
  EXPECT_OK(over.begin_array(1));
  EXPECT_OK(over.write_encoded(key.data(), key.size()));
  EXPECT_STATUS(over.write_encoded(key.data(), key.size()), writer_count_mismatch);
}

TEST(WriterEncoded, RefusesAnythingButOneWellFormedItem) {
  struct row {
    const char* name;
    const char* hex;
  } rows[] = {
      {"empty", ""},
      {"two items", "01 02"},
      {"cut short", "82 01"},
      {"a string cut short", "63 61 62"},
      {"a stray break", "ff"},
      {"a reserved head", "1c"},
      {"an unclosed indefinite array", "9f 01"},
  };
  for (const row& r : rows) {
    const bytes b = from_hex(r.hex);
    writer w;
    EXPECT_OK(w.begin_array(1));
    EXPECT_STATUS(w.write_encoded(b.empty() ? nullptr : b.data(), b.size()), invalid_argument)
        << r.name;
    // Not sticky, nothing written.
    EXPECT_OK(w.write_uint(5)) << r.name;
    EXPECT_OK(w.end()) << r.name;
    EXPECT_OK(w.finish()) << r.name;
    EXPECT_EQ(to_hex(w.to_vector()), "8105") << r.name;
  }
  // Deeper than any default limit: 100,000 nested arrays are one item.
  bytes deep(100000, 0x81);
  deep.push_back(0x00);
  writer w;
  EXPECT_OK(w.write_encoded(deep.data(), deep.size()));
  EXPECT_OK(w.finish());
  EXPECT_EQ(w.size(), deep.size());
  // Inside an indefinite string only chunks go.
  const bytes text = from_hex("61 61");
  writer chunked;
  EXPECT_OK(chunked.begin_text_indefinite());
  EXPECT_STATUS(chunked.write_encoded(text.data(), text.size()), writer_bad_chunk);
}

TEST(WriterBignum, CountsAsOneItemAndChecksArguments) {
  const bytes big = from_hex("01 00 00 00 00 00 00 00 00");
  EXPECT_EQ(encode([&](writer& w) {
              EXPECT_OK(w.begin_array(1));
              EXPECT_OK(w.write_bignum(big.data(), big.size(), false));
              EXPECT_OK(w.end());
            }),
            norm("81 c2 49 01 00 00 00 00 00 00 00 00"));
  EXPECT_EQ(encode([&](writer& w) {
              EXPECT_OK(w.write_tag(1000));
              EXPECT_OK(w.write_bignum(big.data(), big.size(), true));
              EXPECT_EQ(w.depth(), 0u);
            }),
            norm("d9 03 e8 c3 49 01 00 00 00 00 00 00 00 00"));

  writer w;
  EXPECT_STATUS(w.write_bignum(nullptr, 3, false), invalid_argument);
  EXPECT_OK(w.write_uint(1));  // invalid_argument is not sticky
  EXPECT_OK(w.finish());
  EXPECT_EQ(to_hex(w.to_vector()), "01");

  writer chunked;
  EXPECT_OK(chunked.begin_bytes_indefinite());
  EXPECT_STATUS(chunked.write_bignum(big.data(), big.size(), false), writer_bad_chunk);
}

// ---- strings ----------------------------------------------------------------

bytes pattern(size_t n) {
  bytes b(n);
  for (size_t i = 0; i < n; ++i) b[i] = uint8_t(i * 7 + 1);
  return b;
}

TEST(WriterString, LengthHeadsEveryWritableSize) {
  struct row {
    const char* name;
    size_t length;
    const char* head;  // head of the byte string; text heads differ in the first byte by 0x20
  };
  const row rows[] = {
      {"0", 0, "40"},
      {"23 (last inline)", 23, "57"},
      {"24 (first 1-byte)", 24, "58 18"},
      {"255 (last 1-byte)", 255, "58 ff"},
      {"256 (first 2-byte)", 256, "59 01 00"},
      {"65535 (last 2-byte)", 65535, "59 ff ff"},
      {"65536 (first 4-byte)", 65536, "5a 00 01 00 00"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    const bytes content = pattern(r.length);
    bytes want = from_hex(r.head);
    want.insert(want.end(), content.begin(), content.end());
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_bytes(content.data(), content.size())); }),
              to_hex(want));

    const std::string text(r.length, 'q');
    bytes want_text = from_hex(r.head);
    want_text[0] = uint8_t(want_text[0] + 0x20);
    want_text.insert(want_text.end(), text.begin(), text.end());
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_text(text)); }), to_hex(want_text));
  }
}

TEST(WriterString, FourAndEightByteLengthHeads) {
  // 4 GiB strings cannot be materialised here: a 9-byte caller buffer takes the
  // head, the content overflows and is only counted. The source is 16 real
  // bytes so that even a writer filling the buffer partially reads valid memory.
  struct row {
    const char* name;
    uint64_t length;
    const char* head;
  };
  const row rows[] = {
      {"2^32-1 (last 4-byte)", 0xffffffffu, "5a ff ff ff ff"},
      {"2^32 (first 8-byte)", uint64_t(1) << 32, "5b 00 00 00 01 00 00 00 00"},
  };
  const bytes source(16, 0x11);
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    const bytes head = from_hex(r.head);
    bytes buf(9 + 16, k_guard);
    writer w(buf.data(), 9);
    EXPECT_STATUS(w.write_bytes(source.data(), size_t(r.length)), buffer_too_small);
    EXPECT_EQ(to_hex(buf.data(), head.size()), to_hex(head));
    for (size_t i = 9; i < buf.size(); ++i) ASSERT_EQ(buf[i], k_guard);
    EXPECT_EQ(w.size(), head.size() + size_t(r.length));
    EXPECT_STATUS(w.finish(), buffer_too_small);
  }
  // A length of 2^64-1 cannot be a string here (size() would wrap); the 8-byte
  // argument itself is covered by the uint, array, map and tag rows.
}

TEST(WriterString, AppendixA) {
  struct row {
    const char* name;
    std::string text;
    const char* hex;
  };
  const row rows[] = {
      {"\"\"", "", "60"},
      {"\"a\"", "a", "61 61"},
      {"\"IETF\"", "IETF", "64 49 45 54 46"},
      {"quote backslash", "\"\\", "62 22 5c"},
      {"u00fc", "\xc3\xbc", "62 c3 bc"},
      {"u6c34", "\xe6\xb0\xb4", "63 e6 b0 b4"},
      {"u10151", "\xf0\x90\x85\x91", "64 f0 90 85 91"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_text(r.text)); }), norm(r.hex));
  }
  EXPECT_EQ(encode([](writer& w) { EXPECT_OK(w.write_bytes(nullptr, 0)); }), "40");
  const bytes b = from_hex("01020304");
  EXPECT_EQ(encode([&](writer& w) {
              EXPECT_OK(w.write_bytes(byte_view{b.data(), b.size()}));
            }),
            "4401020304");

  writer w;
  EXPECT_STATUS(w.write_bytes(nullptr, 1), invalid_argument);
  EXPECT_STATUS(w.error(), ok);
}

// ---- containers and tags ----------------------------------------------------

TEST(WriterContainers, CountHeadsEverySize) {
  const uint_row rows[] = {
      {"0", 0, "80"},
      {"23 (last inline)", 23, "97"},
      {"24 (first 1-byte)", 24, "98 18"},
      {"255 (last 1-byte)", 255, "98 ff"},
      {"256 (first 2-byte)", 256, "99 01 00"},
      {"65535 (last 2-byte)", 65535, "99 ff ff"},
      {"65536 (first 4-byte)", 65536, "9a 00 01 00 00"},
      {"2^32-1 (last 4-byte)", 0xffffffffu, "9a ff ff ff ff"},
      {"2^32 (first 8-byte)", uint64_t(1) << 32, "9b 00 00 00 01 00 00 00 00"},
      {"2^64-1", k_u64_max, "9b ff ff ff ff ff ff ff ff"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(written([&](writer& w) {
                EXPECT_OK(w.begin_array(r.v));
                EXPECT_EQ(w.depth(), 1u);
              }),
              norm(r.hex));
    bytes map_head = from_hex(r.hex);
    map_head[0] = uint8_t(map_head[0] + 0x20);  // major 4 -> 5
    EXPECT_EQ(written([&](writer& w) {
                EXPECT_OK(w.begin_map(r.v));
                EXPECT_EQ(w.depth(), 1u);
              }),
              to_hex(map_head));
  }
}

TEST(WriterContainers, DefiniteCountsAreEnforcedAtBoundaries) {
  // 24 items: the count head switches to 1 byte and all 24 are accepted.
  EXPECT_EQ(encode([](writer& w) {
              EXPECT_OK(w.begin_array(24));
              for (int i = 0; i < 24; ++i) EXPECT_OK(w.write_uint(0));
              EXPECT_OK(w.end());
            }),
            "9818" + std::string(48, '0'));
  // 24 pairs = 48 items in a map.
  EXPECT_EQ(
      encode([](writer& w) {
        EXPECT_OK(w.begin_map(24));
        for (int i = 0; i < 48; ++i) EXPECT_OK(w.write_uint(1));
        EXPECT_OK(w.end());
      }),
      "b818" + [] {
        std::string s;
        for (int i = 0; i < 48; ++i) s += "01";
        return s;
      }());
  // A huge map count saturates internally; end() still reports the missing items.
  writer w;
  EXPECT_OK(w.begin_map(k_u64_max));
  EXPECT_OK(w.write_uint(1));
  EXPECT_STATUS(w.end(), writer_count_mismatch);
}

TEST(WriterContainers, EnclosingCountsSurviveNesting) {
  // The innermost container's count lives in the writer, its parent's is
  // parked in the parent's frame meanwhile: every level must get its own back.
  const write_fn nested = [](writer& w) {
    EXPECT_OK(w.begin_array(3));
    EXPECT_OK(w.write_uint(1));
    EXPECT_OK(w.begin_map(1));
    EXPECT_OK(w.write_text("a"));
    EXPECT_OK(w.begin_array_indefinite());
    EXPECT_OK(w.begin_array(1));
    EXPECT_OK(w.write_tag(1));
    EXPECT_OK(w.begin_array(0));
    EXPECT_OK(w.end());  // [] and with it the tag
    EXPECT_OK(w.end());  // [1([])]
    EXPECT_OK(w.end());  // the indefinite array: ff
    EXPECT_OK(w.end());  // {"a": ...}
    EXPECT_OK(w.write_uint(2));
  };
  EXPECT_EQ(encode([&](writer& w) {
              nested(w);
              EXPECT_OK(w.end());
            }),
            norm("83 01 a1 61 61 9f 81 c1 80 ff 02"));
  {
    writer w;  // the outer array has its 3 items: a 4th is one too many
    nested(w);
    EXPECT_STATUS(w.write_uint(3), writer_count_mismatch);
  }
  {
    writer w;  // closing the outer array after 2 of its 3 items
    EXPECT_OK(w.begin_array(3));
    EXPECT_OK(w.begin_array(1));
    EXPECT_OK(w.write_null());
    EXPECT_OK(w.end());
    EXPECT_OK(w.write_null());
    EXPECT_STATUS(w.end(), writer_count_mismatch);
  }
  {
    writer w;  // an inner array closed one item early
    EXPECT_OK(w.begin_map(1));
    EXPECT_OK(w.write_uint(0));
    EXPECT_OK(w.begin_array(2));
    EXPECT_OK(w.write_uint(0));
    EXPECT_STATUS(w.end(), writer_count_mismatch);
  }
  // An indefinite map keeps its key/value parity across a container value...
  EXPECT_EQ(encode([](writer& w) {
              EXPECT_OK(w.begin_map_indefinite());
              EXPECT_OK(w.write_text("k"));
              EXPECT_OK(w.begin_array(1));
              EXPECT_OK(w.write_uint(0));
              EXPECT_OK(w.end());
              EXPECT_OK(w.end());
            }),
            norm("bf 61 6b 81 00 ff"));
  // ... and across a container key that still wants its value.
  writer w;
  EXPECT_OK(w.begin_map_indefinite());
  EXPECT_OK(w.begin_array(0));
  EXPECT_OK(w.end());
  EXPECT_STATUS(w.end(), writer_odd_map);
}

TEST(WriterContainers, AppendixA) {
  struct row {
    const char* name;
    write_fn fn;
    const char* hex;
  };
  const std::vector<row> rows = {
      {"[]",
       [](writer& w) {
         EXPECT_OK(w.begin_array(0));
         EXPECT_OK(w.end());
       },
       "80"},
      {"[1, 2, 3]",
       [](writer& w) {
         EXPECT_OK(w.begin_array(3));
         for (uint64_t i = 1; i <= 3; ++i) EXPECT_OK(w.write_uint(i));
         EXPECT_OK(w.end());
       },
       "83010203"},
      {"[1, [2, 3], [4, 5]]",
       [](writer& w) {
         EXPECT_OK(w.begin_array(3));
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(2));
         EXPECT_OK(w.write_uint(3));
         EXPECT_OK(w.end());
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(4));
         EXPECT_OK(w.write_uint(5));
         EXPECT_OK(w.end());
         EXPECT_OK(w.end());
       },
       "8301820203820405"},
      {"[1, ..., 25]",
       [](writer& w) {
         EXPECT_OK(w.begin_array(25));
         for (uint64_t i = 1; i <= 25; ++i) EXPECT_OK(w.write_uint(i));
         EXPECT_OK(w.end());
       },
       "98190102030405060708090a0b0c0d0e0f101112131415161718181819"},
      {"{}",
       [](writer& w) {
         EXPECT_OK(w.begin_map(0));
         EXPECT_OK(w.end());
       },
       "a0"},
      {"{1: 2, 3: 4}",
       [](writer& w) {
         EXPECT_OK(w.begin_map(2));
         for (uint64_t i = 1; i <= 4; ++i) EXPECT_OK(w.write_uint(i));
         EXPECT_OK(w.end());
       },
       "a201020304"},
      {"{\"a\": 1, \"b\": [2, 3]}",
       [](writer& w) {
         EXPECT_OK(w.begin_map(2));
         EXPECT_OK(w.write_text("a"));
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.write_text("b"));
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(2));
         EXPECT_OK(w.write_uint(3));
         EXPECT_OK(w.end());
         EXPECT_OK(w.end());
       },
       "a26161016162820203"},
      {"[\"a\", {\"b\": \"c\"}]",
       [](writer& w) {
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_text("a"));
         EXPECT_OK(w.begin_map(1));
         EXPECT_OK(w.write_text("b"));
         EXPECT_OK(w.write_text("c"));
         EXPECT_OK(w.end());
         EXPECT_OK(w.end());
       },
       "826161a161626163"},
      {"{\"a\": \"A\", ..., \"e\": \"E\"}",
       [](writer& w) {
         EXPECT_OK(w.begin_map(5));
         for (char c = 'a'; c <= 'e'; ++c) {
           EXPECT_OK(w.write_text(std::string(1, c)));
           EXPECT_OK(w.write_text(std::string(1, char(c - 'a' + 'A'))));
         }
         EXPECT_OK(w.end());
       },
       "a56161614161626142616361436164614461656145"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode(r.fn), norm(r.hex));
  }
}

TEST(WriterIndefinite, AppendixA) {
  struct row {
    const char* name;
    write_fn fn;
    const char* hex;
  };
  const bytes b12 = from_hex("0102"), b345 = from_hex("030405");
  const std::vector<row> rows = {
      {"(_ h'0102', h'030405')",
       [&](writer& w) {
         EXPECT_OK(w.begin_bytes_indefinite());
         EXPECT_OK(w.write_bytes(b12.data(), b12.size()));
         EXPECT_OK(w.write_bytes(b345.data(), b345.size()));
         EXPECT_OK(w.end());
       },
       "5f42010243030405ff"},
      {"(_ \"strea\", \"ming\")",
       [](writer& w) {
         EXPECT_OK(w.begin_text_indefinite());
         EXPECT_OK(w.write_text("strea"));
         EXPECT_OK(w.write_text("ming"));
         EXPECT_OK(w.end());
       },
       "7f657374726561646d696e67ff"},
      {"[_ ]",
       [](writer& w) {
         EXPECT_OK(w.begin_array_indefinite());
         EXPECT_OK(w.end());
       },
       "9fff"},
      {"[_ 1, [2, 3], [_ 4, 5]]",
       [](writer& w) {
         EXPECT_OK(w.begin_array_indefinite());
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(2));
         EXPECT_OK(w.write_uint(3));
         EXPECT_OK(w.end());
         EXPECT_OK(w.begin_array_indefinite());
         EXPECT_OK(w.write_uint(4));
         EXPECT_OK(w.write_uint(5));
         EXPECT_OK(w.end());
         EXPECT_OK(w.end());
       },
       "9f018202039f0405ffff"},
      {"[_ 1, [2, 3], [4, 5]]",
       [](writer& w) {
         EXPECT_OK(w.begin_array_indefinite());
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(2));
         EXPECT_OK(w.write_uint(3));
         EXPECT_OK(w.end());
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(4));
         EXPECT_OK(w.write_uint(5));
         EXPECT_OK(w.end());
         EXPECT_OK(w.end());
       },
       "9f01820203820405ff"},
      {"[1, [2, 3], [_ 4, 5]]",
       [](writer& w) {
         EXPECT_OK(w.begin_array(3));
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(2));
         EXPECT_OK(w.write_uint(3));
         EXPECT_OK(w.end());
         EXPECT_OK(w.begin_array_indefinite());
         EXPECT_OK(w.write_uint(4));
         EXPECT_OK(w.write_uint(5));
         EXPECT_OK(w.end());
         EXPECT_OK(w.end());
       },
       "83018202039f0405ff"},
      {"[1, [_ 2, 3], [4, 5]]",
       [](writer& w) {
         EXPECT_OK(w.begin_array(3));
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.begin_array_indefinite());
         EXPECT_OK(w.write_uint(2));
         EXPECT_OK(w.write_uint(3));
         EXPECT_OK(w.end());
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(4));
         EXPECT_OK(w.write_uint(5));
         EXPECT_OK(w.end());
         EXPECT_OK(w.end());
       },
       "83019f0203ff820405"},
      {"[_ 1, ..., 25]",
       [](writer& w) {
         EXPECT_OK(w.begin_array_indefinite());
         for (uint64_t i = 1; i <= 25; ++i) EXPECT_OK(w.write_uint(i));
         EXPECT_OK(w.end());
       },
       "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff"},
      {"{_ \"a\": 1, \"b\": [_ 2, 3]}",
       [](writer& w) {
         EXPECT_OK(w.begin_map_indefinite());
         EXPECT_OK(w.write_text("a"));
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.write_text("b"));
         EXPECT_OK(w.begin_array_indefinite());
         EXPECT_OK(w.write_uint(2));
         EXPECT_OK(w.write_uint(3));
         EXPECT_OK(w.end());
         EXPECT_OK(w.end());
       },
       "bf61610161629f0203ffff"},
      {"[\"a\", {_ \"b\": \"c\"}]",
       [](writer& w) {
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_text("a"));
         EXPECT_OK(w.begin_map_indefinite());
         EXPECT_OK(w.write_text("b"));
         EXPECT_OK(w.write_text("c"));
         EXPECT_OK(w.end());
         EXPECT_OK(w.end());
       },
       "826161bf61626163ff"},
      {"{_ \"Fun\": true, \"Amt\": -2}",
       [](writer& w) {
         EXPECT_OK(w.begin_map_indefinite());
         EXPECT_OK(w.write_text("Fun"));
         EXPECT_OK(w.write_bool(true));
         EXPECT_OK(w.write_text("Amt"));
         EXPECT_OK(w.write_int(-2));
         EXPECT_OK(w.end());
       },
       "bf6346756ef563416d7421ff"},
      {"(_ ) empty indefinite text",
       [](writer& w) {
         EXPECT_OK(w.begin_text_indefinite());
         EXPECT_OK(w.end());
       },
       "7fff"},
      {"(_ h'') with an empty chunk",
       [](writer& w) {
         EXPECT_OK(w.begin_bytes_indefinite());
         EXPECT_OK(w.write_bytes(nullptr, 0));
         EXPECT_OK(w.end());
       },
       "5f40ff"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode(r.fn), norm(r.hex));
  }
}

TEST(WriterTag, HeadEverySize) {
  const uint_row rows[] = {
      {"0", 0, "c0 00"},
      {"23 (last inline)", 23, "d7 00"},
      {"24 (first 1-byte)", 24, "d8 18 00"},
      {"255 (last 1-byte)", 255, "d8 ff 00"},
      {"256 (first 2-byte)", 256, "d9 01 00 00"},
      {"65535 (last 2-byte)", 65535, "d9 ff ff 00"},
      {"65536 (first 4-byte)", 65536, "da 00 01 00 00 00"},
      {"2^32-1 (last 4-byte)", 0xffffffffu, "da ff ff ff ff 00"},
      {"2^32 (first 8-byte)", uint64_t(1) << 32, "db 00 00 00 01 00 00 00 00 00"},
      {"2^64-1", k_u64_max, "db ff ff ff ff ff ff ff ff 00"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) {
                EXPECT_OK(w.write_tag(r.v));
                EXPECT_EQ(w.depth(), 1u);
                EXPECT_OK(w.write_uint(0));
                EXPECT_EQ(w.depth(), 0u);
              }),
              norm(r.hex));
  }
}

TEST(WriterTag, AppendixA) {
  EXPECT_EQ(encode([](writer& w) {
              EXPECT_OK(w.write_tag(0));
              EXPECT_OK(w.write_text("2013-03-21T20:04:00Z"));
            }),
            "c074323031332d30332d32315432303a30343a30305a");
  EXPECT_EQ(encode([](writer& w) {
              EXPECT_OK(w.write_tag(1));
              EXPECT_OK(w.write_uint(1363896240));
            }),
            "c11a514b67b0");
  EXPECT_EQ(encode([](writer& w) {
              EXPECT_OK(w.write_tag(1));
              EXPECT_OK(w.write_float(1363896240.5));
            }),
            "c1fb41d452d9ec200000");
  const bytes b = from_hex("01020304"), ietf = from_hex("6449455446");
  EXPECT_EQ(encode([&](writer& w) {
              EXPECT_OK(w.write_tag(23));
              EXPECT_OK(w.write_bytes(b.data(), b.size()));
            }),
            "d74401020304");
  EXPECT_EQ(encode([&](writer& w) {
              EXPECT_OK(w.write_tag(24));
              EXPECT_OK(w.write_bytes(ietf.data(), ietf.size()));
            }),
            "d818456449455446");
  EXPECT_EQ(encode([](writer& w) {
              EXPECT_OK(w.write_tag(32));
              EXPECT_OK(w.write_text("http://www.example.com"));
            }),
            "d82076687474703a2f2f7777772e6578616d706c652e636f6d");
}

TEST(WriterTag, ClosesItselfAfterItsItem) {
  EXPECT_EQ(encode([](writer& w) {
              EXPECT_OK(w.write_tag(1));
              EXPECT_OK(w.write_tag(2));
              EXPECT_EQ(w.depth(), 2u);
              EXPECT_OK(w.begin_array(1));
              EXPECT_EQ(w.depth(), 3u);
              EXPECT_OK(w.write_uint(0));
              EXPECT_EQ(w.depth(), 3u);
              EXPECT_OK(w.end());  // closes the array and then both tags
              EXPECT_EQ(w.depth(), 0u);
            }),
            "c1c28100");
  // A tagged item inside a definite array counts once, tag and content together.
  EXPECT_EQ(encode([](writer& w) {
              EXPECT_OK(w.begin_array(2));
              EXPECT_OK(w.write_tag(0));
              EXPECT_OK(w.write_text("x"));
              EXPECT_EQ(w.depth(), 1u);
              EXPECT_OK(w.write_uint(1));
              EXPECT_OK(w.end());
            }),
            "82c0617801");
  // Tagged key and tagged map value in an indefinite map; a tagged indefinite string.
  EXPECT_EQ(encode([](writer& w) {
              EXPECT_OK(w.begin_map_indefinite());
              EXPECT_OK(w.write_tag(5));
              EXPECT_OK(w.write_uint(1));
              EXPECT_OK(w.write_tag(6));
              EXPECT_OK(w.begin_text_indefinite());
              EXPECT_OK(w.write_text("a"));
              EXPECT_OK(w.end());
              EXPECT_EQ(w.depth(), 1u);
              EXPECT_OK(w.end());
            }),
            "bfc501c67f6161ffff");
}

// ---- simple values ----------------------------------------------------------

TEST(WriterSimple, Rows) {
  EXPECT_EQ(encode([](writer& w) { EXPECT_OK(w.write_bool(false)); }), "f4");
  EXPECT_EQ(encode([](writer& w) { EXPECT_OK(w.write_bool(true)); }), "f5");
  EXPECT_EQ(encode([](writer& w) { EXPECT_OK(w.write_null()); }), "f6");
  EXPECT_EQ(encode([](writer& w) { EXPECT_OK(w.write_undefined()); }), "f7");
  const uint_row rows[] = {
      {"0", 0, "e0"},
      {"16", 16, "f0"},
      {"19", 19, "f3"},
      {"20 = false", 20, "f4"},
      {"23 = undefined", 23, "f7"},
      {"32 (first two-byte)", 32, "f8 20"},
      {"255", 255, "f8 ff"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_simple(uint8_t(r.v))); }), norm(r.hex));
  }
}

TEST(WriterSimple, ReservedValuesAreInvalidArgumentNotSticky) {
  writer w;
  for (int v = 24; v <= 31; ++v) {
    SCOPED_TRACE(v);
    EXPECT_STATUS(w.write_simple(uint8_t(v)), invalid_argument);
    EXPECT_STATUS(w.error(), ok);
  }
  EXPECT_OK(w.write_simple(32));
  EXPECT_OK(w.finish());
  EXPECT_EQ(to_hex(w.to_vector()), "f820");
}

// ---- floats -----------------------------------------------------------------

struct float_row {
  const char* name;
  double v;
  const char* hex;
};

TEST(WriterFloat, ShortestWidthSelection) {
  const float_row rows[] = {
      // exact in half
      {"0.0", 0.0, "f9 00 00"},
      {"-0.0", -0.0, "f9 80 00"},
      {"1.0", 1.0, "f9 3c 00"},
      {"1.5", 1.5, "f9 3e 00"},
      {"0.5", 0.5, "f9 38 00"},
      {"65504 (half max)", 65504.0, "f9 7b ff"},
      {"-4.0", -4.0, "f9 c4 00"},
      {"half min subnormal 2^-24", 5.960464477539063e-8, "f9 00 01"},
      {"half max subnormal", std::ldexp(1023.0, -24), "f9 03 ff"},
      {"half min normal 2^-14", 0.00006103515625, "f9 04 00"},
      {"-half min subnormal", -std::ldexp(1.0, -24), "f9 80 01"},
      {"+inf", std::numeric_limits<double>::infinity(), "f9 7c 00"},
      {"-inf", -std::numeric_limits<double>::infinity(), "f9 fc 00"},
      // exact in single, not in half
      {"100000.0", 100000.0, "fa 47 c3 50 00"},
      {"65505 (between halves)", 65505.0, "fa 47 7f e1 00"},
      {"65536 (half overflow)", 65536.0, "fa 47 80 00 00"},
      {"1+2^-11 (one bit too many for half)", 1.0 + std::ldexp(1.0, -11), "fa 3f 80 10 00"},
      {"1.5*2^-24 (between half subnormals)", std::ldexp(1.5, -24), "fa 33 c0 00 00"},
      {"2^-25 (below half subnormals)", std::ldexp(1.0, -25), "fa 33 00 00 00"},
      {"FLT_MAX", 3.4028234663852886e+38, "fa 7f 7f ff ff"},
      {"single min normal 2^-126", std::ldexp(1.0, -126), "fa 00 80 00 00"},
      {"single min subnormal 2^-149", std::ldexp(1.0, -149), "fa 00 00 00 01"},
      {"single max subnormal", std::ldexp(double(0x7fffff), -149), "fa 00 7f ff ff"},
      {"-single subnormal", -std::ldexp(3.0, -149), "fa 80 00 00 03"},
      // only double
      {"1.1", 1.1, "fb 3f f1 99 99 99 99 99 9a"},
      {"1.0e+300", 1.0e+300, "fb 7e 37 e4 3c 88 00 75 9c"},
      {"-4.1", -4.1, "fb c0 10 66 66 66 66 66 66"},
      {"1/3", 1.0 / 3.0, "fb 3f d5 55 55 55 55 55 55"},
      {"2^128 (single overflow)", std::ldexp(1.0, 128), "fb 47 f0 00 00 00 00 00 00"},
      {"2^-150 (below single subnormals)", std::ldexp(1.0, -150), "fb 36 90 00 00 00 00 00 00"},
      {"1+2^-24 (one bit too many for single)", 1.0 + std::ldexp(1.0, -24),
       "fb 3f f0 00 00 10 00 00 00"},
      {"double min subnormal", std::numeric_limits<double>::denorm_min(),
       "fb 00 00 00 00 00 00 00 01"},
      {"DBL_MAX", std::numeric_limits<double>::max(), "fb 7f ef ff ff ff ff ff ff"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_float(r.v)); }), norm(r.hex));
  }
}

TEST(WriterFloat, NanSignAndPayloadKept) {
  struct row {
    const char* name;
    uint64_t bits;
    const char* hex;
  };
  const row rows[] = {
      {"quiet NaN", 0x7ff8000000000000u, "f9 7e 00"},
      {"negative quiet NaN", 0xfff8000000000000u, "f9 fe 00"},
      {"signalling NaN, payload in half range", 0x7ff4000000000000u, "f9 7d 00"},
      {"lowest half payload bit", 0x7ff0040000000000u, "f9 7c 01"},
      {"quiet NaN with full half payload", 0x7ffffc0000000000u, "f9 7f ff"},
      {"payload bit just below half: single", 0x7ff0020000000000u, "fa 7f 80 10 00"},
      {"lowest single payload bit", 0x7ff0000020000000u, "fa 7f 80 00 01"},
      {"quiet NaN with low single payload", 0x7ff8000020000000u, "fa 7f c0 00 01"},
      {"negative NaN, single payload", 0xfff0000020000000u, "fa ff 80 00 01"},
      {"payload bit just below single: double", 0x7ff0000010000000u, "fb 7f f0 00 00 10 00 00 00"},
      {"quiet NaN with lowest payload bit", 0x7ff8000000000001u, "fb 7f f8 00 00 00 00 00 01"},
      {"negative signalling NaN, payload 1", 0xfff0000000000001u, "fb ff f0 00 00 00 00 00 01"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_float(from_bits(r.bits))); }), norm(r.hex));
  }
}

TEST(WriterFloat, ForcedWidthsRoundToNearestEven) {
  struct row {
    const char* name;
    double v;
    float_width width;
    const char* hex;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const float_width h = float_width::half, s = float_width::single, d = float_width::double_;
  const row rows[] = {
      // half
      {"1.0 half", 1.0, h, "f9 3c 00"},
      {"1.1 half (rounds down)", 1.1, h, "f9 3c 66"},
      {"0.1 half (rounds down)", 0.1, h, "f9 2e 66"},
      {"1+2^-11: tie, to even (down)", 1.0 + std::ldexp(1.0, -11), h, "f9 3c 00"},
      {"1+3*2^-11: tie, to even (up)", 1.0 + std::ldexp(3.0, -11), h, "f9 3c 02"},
      {"1+2^-11+2^-40: above the tie", 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), h,
       "f9 3c 01"},
      {"1+2^-11-2^-40: below the tie", 1.0 + std::ldexp(1.0, -11) - std::ldexp(1.0, -40), h,
       "f9 3c 00"},
      {"2047.5 -> mantissa carry into exponent", 2047.5, h, "f9 68 00"},
      {"65519: stays at max", 65519.0, h, "f9 7b ff"},
      {"65520: tie between max (odd) and 2^16, overflows to inf", 65520.0, h, "f9 7c 00"},
      {"-65520 -> -inf", -65520.0, h, "f9 fc 00"},
      {"100000 -> inf", 100000.0, h, "f9 7c 00"},
      {"1e300 -> inf", 1.0e300, h, "f9 7c 00"},
      {"inf half", inf, h, "f9 7c 00"},
      {"-inf half", -inf, h, "f9 fc 00"},
      {"-0.0 half", -0.0, h, "f9 80 00"},
      {"2^-24 exact subnormal", std::ldexp(1.0, -24), h, "f9 00 01"},
      {"2^-25: tie between 0 and 2^-24, to zero", std::ldexp(1.0, -25), h, "f9 00 00"},
      {"-2^-25 -> -0", -std::ldexp(1.0, -25), h, "f9 80 00"},
      {"2^-25 plus a bit -> smallest subnormal", std::ldexp(1.0 + std::ldexp(1.0, -52), -25), h,
       "f9 00 01"},
      {"2^-26 -> 0", std::ldexp(1.0, -26), h, "f9 00 00"},
      {"1.25*2^-24 -> 1 unit", std::ldexp(1.25, -24), h, "f9 00 01"},
      {"1.5*2^-24: tie, to even 2 units", std::ldexp(1.5, -24), h, "f9 00 02"},
      {"2.5*2^-24: tie, to even 2 units", std::ldexp(2.5, -24), h, "f9 00 02"},
      {"1023.5*2^-24: tie, rounds up into min normal", std::ldexp(1023.5, -24), h, "f9 04 00"},
      {"1.1*2^-20 -> subnormal 18", 1.1 * std::ldexp(1.0, -20), h, "f9 00 12"},
      {"double subnormal -> 0", std::numeric_limits<double>::denorm_min(), h, "f9 00 00"},
      {"-double subnormal -> -0", -std::numeric_limits<double>::denorm_min(), h, "f9 80 00"},
      {"NaN payload only in low bits stays NaN", from_bits(0x7ff0000000000001u), h, "f9 7e 00"},
      {"NaN payload truncated", from_bits(0x7ff4000000000001u), h, "f9 7d 00"},
      {"-NaN half", from_bits(0xfff8000000000000u), h, "f9 fe 00"},
      // single
      {"1.1 single (rounds up)", 1.1, s, "fa 3f 8c cc cd"},
      {"1+2^-24: tie, to even (down)", 1.0 + std::ldexp(1.0, -24), s, "fa 3f 80 00 00"},
      {"1+3*2^-24: tie, to even (up)", 1.0 + std::ldexp(3.0, -24), s, "fa 3f 80 00 02"},
      {"FLT_MAX + half ulp: tie, overflows to inf", std::ldexp(double(0x1ffffff), 103), s,
       "fa 7f 80 00 00"},
      {"just below FLT_MAX + half ulp -> FLT_MAX",
       std::nextafter(std::ldexp(double(0x1ffffff), 103), 0.0), s, "fa 7f 7f ff ff"},
      {"1e300 -> inf", 1.0e300, s, "fa 7f 80 00 00"},
      {"-1e300 -> -inf", -1.0e300, s, "fa ff 80 00 00"},
      {"2^-149 exact", std::ldexp(1.0, -149), s, "fa 00 00 00 01"},
      {"2^-150: tie, to zero", std::ldexp(1.0, -150), s, "fa 00 00 00 00"},
      {"3*2^-150: tie, to even 2 units", std::ldexp(3.0, -150), s, "fa 00 00 00 02"},
      {"-2^-151 -> -0", -std::ldexp(1.0, -151), s, "fa 80 00 00 00"},
      {"max subnormal + half unit: tie, into min normal", std::ldexp(double(0xffffff), -150), s,
       "fa 00 80 00 00"},
      {"NaN payload only in low bits stays NaN", from_bits(0x7ff0000000000001u), s,
       "fa 7f c0 00 00"},
      {"NaN payload truncated", from_bits(0x7ff8000020000001u), s, "fa 7f c0 00 01"},
      {"inf single (Appendix A)", inf, s, "fa 7f 80 00 00"},
      {"NaN single (Appendix A)", std::numeric_limits<double>::quiet_NaN(), s, "fa 7f c0 00 00"},
      {"-inf single (Appendix A)", -inf, s, "fa ff 80 00 00"},
      // double: never rounds
      {"1.0 double", 1.0, d, "fb 3f f0 00 00 00 00 00 00"},
      {"-0.0 double", -0.0, d, "fb 80 00 00 00 00 00 00 00"},
      {"inf double (Appendix A)", inf, d, "fb 7f f0 00 00 00 00 00 00"},
      {"NaN double (Appendix A)", std::numeric_limits<double>::quiet_NaN(), d,
       "fb 7f f8 00 00 00 00 00 00"},
      {"-inf double (Appendix A)", -inf, d, "fb ff f0 00 00 00 00 00 00"},
      {"NaN payload kept", from_bits(0x7ff0000000000001u), d, "fb 7f f0 00 00 00 00 00 01"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_float(r.v, r.width)); }), norm(r.hex));
  }
}

TEST(WriterFloat, AppendixAPreferred) {
  const float_row rows[] = {
      {"0.0", 0.0, "f90000"},
      {"-0.0", -0.0, "f98000"},
      {"1.0", 1.0, "f93c00"},
      {"1.1", 1.1, "fb3ff199999999999a"},
      {"1.5", 1.5, "f93e00"},
      {"65504.0", 65504.0, "f97bff"},
      {"100000.0", 100000.0, "fa47c35000"},
      {"3.4028234663852886e+38", 3.4028234663852886e+38, "fa7f7fffff"},
      {"1.0e+300", 1.0e+300, "fb7e37e43c8800759c"},
      {"5.960464477539063e-8", 5.960464477539063e-8, "f90001"},
      {"0.00006103515625", 0.00006103515625, "f90400"},
      {"-4.0", -4.0, "f9c400"},
      {"-4.1", -4.1, "fbc010666666666666"},
      {"Infinity", std::numeric_limits<double>::infinity(), "f97c00"},
      {"NaN", std::numeric_limits<double>::quiet_NaN(), "f97e00"},
      {"-Infinity", -std::numeric_limits<double>::infinity(), "f9fc00"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_float(r.v)); }), r.hex);
  }
}

TEST(WriterFloat, BadWidthIsInvalidArgumentNotSticky) {
  writer w;
  EXPECT_STATUS(w.write_float(1.0, static_cast<float_width>(3)), invalid_argument);
  EXPECT_OK(w.write_float(1.0, float_width::half));
  EXPECT_OK(w.finish());
  EXPECT_EQ(to_hex(w.to_vector()), "f93c00");
}

TEST(WriterFloat, EveryHalfValueIsWrittenAsItself) {
  // Each of the 65536 half patterns (NaN payloads too) widened to double must
  // come back as the same half, both through write_float and double_to_half.
  for (uint32_t i = 0; i <= 0xffff; ++i) {
    const auto h = uint16_t(i);
    const double v = detail::half_to_double(h);
    ASSERT_EQ(detail::double_to_half(v), h) << std::hex << i;
    uint8_t buf[3];
    writer w(buf, sizeof buf);
    ASSERT_STREQ(status_name(w.write_float(v)), "ok") << std::hex << i;
    ASSERT_EQ(w.size(), 3u) << std::hex << i;
    ASSERT_EQ(buf[0], 0xf9);
    ASSERT_EQ(unsigned(buf[1]) << 8 | buf[2], i);
  }
}

/// Reference rounding to half: binary search among the ordered positive half
/// patterns, then nearest with ties to even. 0x7c00 stands for 2^16 while
/// rounding (IEEE rounds as if the exponent were unbounded, then overflows).
uint16_t reference_half(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  auto value = [](uint32_t h) {
    return h == 0x7c00 ? 65536.0 : detail::half_to_double(uint16_t(h));
  };
  if (a >= 65536.0) return uint16_t(sign | 0x7c00);
  uint32_t lo = 0, hi = 0x7c00;  // value(lo) <= a < value(hi)
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (value(mid) <= a)
      lo = mid;
    else
      hi = mid;
  }
  // Both differences are exact (Sterbenz), except for lo == 0 where only the
  // comparison matters and rounding cannot flip it.
  const double below = a - value(lo), above = value(hi) - a;
  uint32_t pick;
  if (below < above)
    pick = lo;
  else if (above < below)
    pick = hi;
  else
    pick = (lo & 1) == 0 ? lo : hi;
  return uint16_t(sign | pick);
}

TEST(WriterFloat, HalfRoundingMatchesReferenceAtEveryTie) {
  // For every pair of neighbouring positive halves: the midpoint (an exact tie)
  // and the doubles right next to it, with both signs.
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    const double a = detail::half_to_double(uint16_t(h));
    const double b = h + 1 == 0x7c00 ? 65536.0 : detail::half_to_double(uint16_t(h + 1));
    const double mid = (a + b) / 2;
    for (double v : {a, mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300)}) {
      ASSERT_EQ(detail::double_to_half(v), reference_half(v)) << std::hexfloat << v;
      ASSERT_EQ(detail::double_to_half(-v), reference_half(-v)) << std::hexfloat << -v;
    }
  }
  std::mt19937_64 rng(20240611);
  for (int i = 0; i < 200000; ++i) {
    // Exponents from far below the subnormals to past the overflow point.
    const uint64_t exp = 1023 - 40 + rng() % 60;
    const uint64_t bits = (rng() & (uint64_t(1) << 63)) | exp << 52 | (rng() & 0xfffffffffffffu);
    const double v = from_bits(bits);
    ASSERT_EQ(detail::double_to_half(v), reference_half(v)) << std::hexfloat << v;
  }
}

TEST(WriterFloat, SingleRoundingMatchesHardware) {
  // The CPU's double -> float conversion rounds to nearest even; it is defined
  // behaviour in C++ for values up to FLT_MAX.
  std::mt19937_64 rng(8949);
  auto check = [](double v) {
    if (std::fabs(v) > double(FLT_MAX)) return;
    const uint32_t want = detail::float_to_bits(static_cast<float>(v));
    ASSERT_EQ(detail::double_to_single(v), want) << std::hexfloat << v;
  };
  for (int i = 0; i < 200000; ++i) {
    const uint64_t exp = 1023 - 160 + rng() % 290;  // subnormals up to overflow
    const uint64_t bits = (rng() & (uint64_t(1) << 63)) | exp << 52 | (rng() & 0xfffffffffffffu);
    check(from_bits(bits));
    // A tie between a random float and its neighbour, and the doubles around it.
    const auto f = uint32_t(rng() % 0x7f7fffffu);
    const double lo = double(detail::bits_to_float(f));
    const double hi = double(detail::bits_to_float(f + 1));
    const double mid = (lo + hi) / 2;
    check(mid);
    check(-mid);
    check(std::nextafter(mid, 0.0));
    check(std::nextafter(mid, 1e300));
  }
}

TEST(WriterFloat, SingleWideningIsExact) {
  std::mt19937_64 rng(7049);
  for (int i = 0; i < 100000; ++i) {
    const auto f = uint32_t(rng());
    const double v = detail::single_to_double(f);
    if ((f & 0x7f800000u) == 0x7f800000u && (f & 0x7fffffu) != 0) {
      // NaN: the payload moves to the top of the double's fraction untouched.
      ASSERT_EQ(detail::double_to_bits(v),
                uint64_t(f >> 31) << 63 | uint64_t(0x7ff) << 52 | uint64_t(f & 0x7fffffu) << 29);
    } else {
      ASSERT_EQ(detail::double_to_bits(v), detail::double_to_bits(double(detail::bits_to_float(f))))
          << std::hex << f;
    }
    ASSERT_EQ(detail::double_to_single(v), f) << std::hex << f;
  }
}

// ---- structural errors ------------------------------------------------------

TEST(WriterFloat, InlineWidthsAtTheirBoundaries) {
  // The inline path takes doubles, shortest doubles with any of the low 29
  // fraction bits set, and exact normal halves and singles; its neighbours
  // (subnormal, overflow, rounding) go out of line. encode() writes each row
  // through both: the owned writer takes the inline path, the 1- and 3-byte
  // sinks never have room for it.
  struct row {
    const char* name;
    double v;
    float_width width;
    const char* hex;
  };
  const float_width h = float_width::half, s = float_width::single, sh = float_width::shortest,
                    d = float_width::double_;
  const row rows[] = {
      {"half min normal 2^-14", std::ldexp(1.0, -14), h, "f9 04 00"},
      {"half max subnormal", std::ldexp(1023.0, -24), h, "f9 03 ff"},
      {"half 2^-15 (subnormal)", std::ldexp(1.0, -15), h, "f9 02 00"},
      {"half 2^15 (largest exponent)", 32768.0, h, "f9 78 00"},
      {"half max 65504", 65504.0, h, "f9 7b ff"},
      {"half 2^16 -> inf", 65536.0, h, "f9 7c 00"},
      {"half 1+2^-10 (last fraction bit)", 1.0 + std::ldexp(1.0, -10), h, "f9 3c 01"},
      {"half 1+2^-11 (rounds)", 1.0 + std::ldexp(1.0, -11), h, "f9 3c 00"},
      {"half -2.0", -2.0, h, "f9 c0 00"},
      {"half 0.0", 0.0, h, "f9 00 00"},
      {"half -0.0", -0.0, h, "f9 80 00"},
      {"single min normal 2^-126", std::ldexp(1.0, -126), s, "fa 00 80 00 00"},
      {"single 2^-127 (subnormal)", std::ldexp(1.0, -127), s, "fa 00 40 00 00"},
      {"single 2^127 (largest exponent)", std::ldexp(1.0, 127), s, "fa 7f 00 00 00"},
      {"single FLT_MAX", 3.4028234663852886e+38, s, "fa 7f 7f ff ff"},
      {"single 2^128 -> inf", std::ldexp(1.0, 128), s, "fa 7f 80 00 00"},
      {"single 1+2^-23 (last fraction bit)", 1.0 + std::ldexp(1.0, -23), s, "fa 3f 80 00 01"},
      {"single 1+2^-24 (rounds)", 1.0 + std::ldexp(1.0, -24), s, "fa 3f 80 00 00"},
      {"single -1.5", -1.5, s, "fa bf c0 00 00"},
      {"shortest 1+2^-23 (bit 29: a single)", 1.0 + std::ldexp(1.0, -23), sh, "fa 3f 80 00 01"},
      {"shortest 1+2^-24 (bit 28: a double)", 1.0 + std::ldexp(1.0, -24), sh,
       "fb 3f f0 00 00 10 00 00 00"},
      {"shortest 1+2^-52 (bit 0: a double)", 1.0 + std::ldexp(1.0, -52), sh,
       "fb 3f f0 00 00 00 00 00 01"},
      {"double 1.0", 1.0, d, "fb 3f f0 00 00 00 00 00 00"},
      {"double -inf", -std::numeric_limits<double>::infinity(), d, "fb ff f0 00 00 00 00 00 00"},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(encode([&](writer& w) { EXPECT_OK(w.write_float(r.v, r.width)); }), norm(r.hex));
    // Inside a definite array the inline path also counts the item.
    EXPECT_EQ(encode([&](writer& w) {
                EXPECT_OK(w.begin_array(2));
                EXPECT_OK(w.write_float(r.v, r.width));
                EXPECT_OK(w.write_float(r.v, r.width));
                EXPECT_OK(w.end());
              }),
              "82" + norm(r.hex) + norm(r.hex));
  }
}

TEST(WriterFloat, NarrowsExactlyAgreesWithTheRoundTrip) {
  // narrows_exactly() answers "does narrowing and widening back give the same
  // bits?" with bit tests; check it against doing exactly that.
  const auto check = [](uint64_t bits) {
    const double v = from_bits(bits);
    const uint16_t half = detail::double_to_half(v);
    const bool half_ok = detail::double_to_bits(detail::half_to_double(half)) == bits;
    const uint32_t single = detail::double_to_single(v);
    const bool single_ok = detail::double_to_bits(detail::single_to_double(single)) == bits;
    uint64_t h = 0, s = 0;
    const bool half_exact = detail::narrows_exactly<5, 10>(bits, &h);
    const bool single_exact = detail::narrows_exactly<8, 23>(bits, &s);
    EXPECT_EQ(half_exact, half_ok) << std::hex << bits;
    if (half_ok) {
      EXPECT_EQ(h, half) << std::hex << bits;
    }
    EXPECT_EQ(single_exact, single_ok) << std::hex << bits;
    if (single_ok) {
      EXPECT_EQ(s, single) << std::hex << bits;
    }
  };
  // Every half, widened, and its two binary64 neighbours.
  for (uint32_t x = 0; x <= 0xffff; ++x) {
    const uint64_t bits = detail::double_to_bits(detail::half_to_double(uint16_t(x)));
    check(bits);
    check(bits + 1);
    check(bits - 1);
  }
  // Singles: every exponent (so every normal/subnormal/special boundary) with
  // random fractions, their neighbours, and the lowest bit that singles keep.
  std::mt19937_64 rng(20261130);
  for (uint32_t exp = 0; exp <= 0x1ff; ++exp) {
    for (int i = 0; i < 64; ++i) {
      const uint32_t f = exp << 23 | uint32_t(rng() & 0x7fffff) >> (i % 24);
      const uint64_t bits = detail::double_to_bits(detail::single_to_double(f));
      check(bits);
      check(bits + 1);
      check(bits ^ (uint64_t(1) << 29));
      check(bits ^ (uint64_t(1) << 28));
    }
  }
  // Doubles at random, with runs of low zero bits of every length.
  for (int i = 0; i < 200000; ++i) {
    const uint64_t x = rng();
    check(x);
    check(x & ~((uint64_t(1) << (i % 53)) - 1));
  }
}

// write_float16/32/64: the caller's bits at the caller's width, never narrowed
// or widened (a single that fits a half stays a single), NaN payloads and
// subnormals as given. Through every destination (encode() covers the
// inline path and the slow one: caller buffer of exact size, 1-byte sinks).
TEST(WriterFloat, TypedWidthsWriteTheBitsAsGiven) {
  struct row {
    const char* name;
    write_fn fn;
    const char* hex;
  };
  auto f32 = [](uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  };
  const std::vector<row> rows = {
      {"half 1.0", [](writer& w) { EXPECT_OK(w.write_float16(0x3c00)); }, "f93c00"},
      {"half smallest subnormal", [](writer& w) { EXPECT_OK(w.write_float16(0x0001)); }, "f90001"},
      {"half -inf", [](writer& w) { EXPECT_OK(w.write_float16(0xfc00)); }, "f9fc00"},
      {"half NaN with payload", [](writer& w) { EXPECT_OK(w.write_float16(0x7e01)); }, "f97e01"},
      {"single 1.5 (fits a half)", [](writer& w) { EXPECT_OK(w.write_float32(1.5f)); },
       "fa3fc00000"},
      {"single -0.0", [](writer& w) { EXPECT_OK(w.write_float32(-0.0f)); }, "fa80000000"},
      {"single smallest subnormal",
       [f32](writer& w) { EXPECT_OK(w.write_float32(f32(0x00000001))); }, "fa00000001"},
      {"single largest", [f32](writer& w) { EXPECT_OK(w.write_float32(f32(0x7f7fffff))); },
       "fa7f7fffff"},
      {"single NaN with payload", [f32](writer& w) { EXPECT_OK(w.write_float32(f32(0x7fc00001))); },
       "fa7fc00001"},
      {"double 1.0 (fits a half)", [](writer& w) { EXPECT_OK(w.write_float64(1.0)); },
       "fb3ff0000000000000"},
      {"double NaN with payload",
       [](writer& w) { EXPECT_OK(w.write_float64(from_bits(0x7ff8000000000001))); },
       "fb7ff8000000000001"},
      {"one item each in a definite array",
       [](writer& w) {
         EXPECT_OK(w.begin_array(3));
         EXPECT_OK(w.write_float16(0x3c00));
         EXPECT_OK(w.write_float32(2.0f));
         EXPECT_OK(w.write_float64(3.0));
         EXPECT_OK(w.end());
       },
       "83 f93c00 fa40000000 fb4008000000000000"},
      {"tag content",
       [](writer& w) {
         EXPECT_OK(w.write_tag(1));
         EXPECT_OK(w.write_float64(1363896240.5));
       },
       "c1 fb41d452d9ec200000"},
  };
  for (const row& r : rows) EXPECT_EQ(encode(r.fn), norm(r.hex)) << r.name;
}

TEST(WriterFloat, TypedWidthsKeepTheStructuralChecks) {
  writer w;
  EXPECT_OK(w.begin_array(1));
  EXPECT_OK(w.write_float32(1.0f));
  EXPECT_STATUS(w.write_float16(0x3c00), writer_count_mismatch);
  EXPECT_STATUS(w.write_float64(1.0), writer_count_mismatch);  // sticky

  uint8_t small[4];
  writer f(small, sizeof small);
  EXPECT_STATUS(f.write_float32(1.0f), buffer_too_small);
  EXPECT_EQ(f.size(), 5u);  // counting goes on

  writer chunk;
  EXPECT_OK(chunk.begin_bytes_indefinite());
  EXPECT_STATUS(chunk.write_float16(0), writer_bad_chunk);
}

TEST(WriterErrors, EveryStructuralErrorIsReportedAndSticky) {
  struct row {
    const char* name;
    std::function<status(writer&)> fn;  // returns the status of the failing call
    status expected;
  };
  const std::vector<row> rows = {
      {"item beyond a definite array",
       [](writer& w) {
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.write_uint(2));
         return w.write_uint(3);
       },
       status::writer_count_mismatch},
      {"container beyond a definite array",
       [](writer& w) {
         EXPECT_OK(w.begin_array(0));
         return w.begin_map(0);
       },
       status::writer_count_mismatch},
      {"tag beyond a definite array",
       [](writer& w) {
         EXPECT_OK(w.begin_array(1));
         EXPECT_OK(w.write_uint(1));
         return w.write_tag(1);
       },
       status::writer_count_mismatch},
      {"end of a definite array with an item missing",
       [](writer& w) {
         EXPECT_OK(w.begin_array(2));
         EXPECT_OK(w.write_uint(1));
         return w.end();
       },
       status::writer_count_mismatch},
      {"third item in a one-pair map",
       [](writer& w) {
         EXPECT_OK(w.begin_map(1));
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.write_uint(2));
         return w.write_uint(3);
       },
       status::writer_count_mismatch},
      {"end of a one-pair map after the key",
       [](writer& w) {
         EXPECT_OK(w.begin_map(1));
         EXPECT_OK(w.write_uint(1));
         return w.end();
       },
       status::writer_count_mismatch},
      {"end with nothing open", [](writer& w) { return w.end(); }, status::writer_no_container},
      {"end after everything closed",
       [](writer& w) {
         EXPECT_OK(w.begin_array_indefinite());
         EXPECT_OK(w.end());
         return w.end();
       },
       status::writer_no_container},
      {"end of an indefinite map after a key",
       [](writer& w) {
         EXPECT_OK(w.begin_map_indefinite());
         EXPECT_OK(w.write_text("k"));
         EXPECT_OK(w.write_uint(1));
         EXPECT_OK(w.write_text("k2"));
         return w.end();
       },
       status::writer_odd_map},
      {"end while a tag waits for its item (top level)",
       [](writer& w) {
         EXPECT_OK(w.write_tag(1));
         return w.end();
       },
       status::writer_count_mismatch},
      {"end while a tag waits for its item (in an array)",
       [](writer& w) {
         EXPECT_OK(w.begin_array_indefinite());
         EXPECT_OK(w.write_tag(1));
         return w.end();
       },
       status::writer_count_mismatch},
      {"uint in an indefinite byte string",
       [](writer& w) {
         EXPECT_OK(w.begin_bytes_indefinite());
         return w.write_uint(1);
       },
       status::writer_bad_chunk},
      {"text chunk in an indefinite byte string",
       [](writer& w) {
         EXPECT_OK(w.begin_bytes_indefinite());
         return w.write_text("a");
       },
       status::writer_bad_chunk},
      {"byte chunk in an indefinite text string",
       [](writer& w) {
         EXPECT_OK(w.begin_text_indefinite());
         EXPECT_OK(w.write_text("a"));
         return w.write_bytes(nullptr, 0);
       },
       status::writer_bad_chunk},
      {"nested indefinite byte string",
       [](writer& w) {
         EXPECT_OK(w.begin_bytes_indefinite());
         return w.begin_bytes_indefinite();
       },
       status::writer_bad_chunk},
      {"nested indefinite text string",
       [](writer& w) {
         EXPECT_OK(w.begin_text_indefinite());
         return w.begin_text_indefinite();
       },
       status::writer_bad_chunk},
      {"tag in an indefinite text string",
       [](writer& w) {
         EXPECT_OK(w.begin_text_indefinite());
         return w.write_tag(0);
       },
       status::writer_bad_chunk},
      {"array in an indefinite byte string",
       [](writer& w) {
         EXPECT_OK(w.begin_bytes_indefinite());
         return w.begin_array(0);
       },
       status::writer_bad_chunk},
      {"float in an indefinite text string",
       [](writer& w) {
         EXPECT_OK(w.begin_text_indefinite());
         return w.write_float(1.0);
       },
       status::writer_bad_chunk},
      {"null in an indefinite byte string",
       [](writer& w) {
         EXPECT_OK(w.begin_bytes_indefinite());
         return w.write_null();
       },
       status::writer_bad_chunk},
      {"finish with an array open",
       [](writer& w) {
         EXPECT_OK(w.begin_array(1));
         EXPECT_OK(w.write_uint(1));
         return w.finish();
       },
       status::writer_unclosed},
      {"finish with an indefinite string open",
       [](writer& w) {
         EXPECT_OK(w.begin_text_indefinite());
         return w.finish();
       },
       status::writer_unclosed},
      {"finish with a tag open",
       [](writer& w) {
         EXPECT_OK(w.write_tag(1));
         return w.finish();
       },
       status::writer_unclosed},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.name);
    writer w;
    EXPECT_STREQ(status_name(r.fn(w)), status_name(r.expected));
    const size_t size_after_error = w.size();
    // Sticky: every later call, finish() included, reports the same error and writes nothing.
    EXPECT_STREQ(status_name(w.error()), status_name(r.expected));
    EXPECT_STREQ(status_name(w.write_uint(0)), status_name(r.expected));
    EXPECT_STREQ(status_name(w.begin_array_indefinite()), status_name(r.expected));
    EXPECT_STREQ(status_name(w.end()), status_name(r.expected));
    EXPECT_STREQ(status_name(w.write_text("x")), status_name(r.expected));
    EXPECT_STREQ(status_name(w.write_simple(30)), status_name(r.expected));
    EXPECT_STREQ(status_name(w.finish()), status_name(r.expected));
    EXPECT_EQ(w.size(), size_after_error);
  }
}

TEST(WriterErrors, FailingCallWritesNothing) {
  writer w;
  EXPECT_OK(w.begin_array(1));
  EXPECT_OK(w.write_uint(1));
  EXPECT_STATUS(w.write_text("abc"), writer_count_mismatch);
  EXPECT_EQ(to_hex(w.to_vector()), "8101");
}

// ---- caller buffer ----------------------------------------------------------

/// A small document touching every kind of write, without the guard byte value:
/// {"n": 1000000, "blob": h'0108...cc', 1(1.1): [_ -500, null]}
constexpr const char* k_sample_hex =
    "a3 616e 1a000f4240 64626c6f62"
    " 581e 01080f161d242b323940474e555c636a71787f868d949ba2a9b0b7bec5cc"
    " c1 fb3ff199999999999a 9f 3901f3 f6 ff";
constexpr size_t k_sample_size = 61;

/// Writes the sample document; returns the status of each of its 12 calls.
std::vector<status> sample_calls(writer& w) {
  const bytes blob = pattern(30);
  return {
      w.begin_map(3),
      w.write_text("n"),
      w.write_uint(1000000),
      w.write_text("blob"),
      w.write_bytes(blob.data(), blob.size()),
      w.write_tag(1),
      w.write_float(1.1),
      w.begin_array_indefinite(),
      w.write_int(-500),
      w.write_null(),
      w.end(),  // the break: the document's last byte
      w.end(),  // the definite map: no byte
  };
}

void sample_document(writer& w) {
  for (status s : sample_calls(w)) EXPECT_OK(s);
}

TEST(WriterFixed, ExactFitAndOneByteShort) {
  writer ref;
  sample_document(ref);
  EXPECT_OK(ref.finish());
  const bytes want = ref.to_vector();
  ASSERT_EQ(to_hex(want), norm(k_sample_hex));
  for (uint8_t b : want) ASSERT_NE(b, k_guard);

  {
    SCOPED_TRACE("exact fit");
    bytes buf(want.size() + 16, k_guard);
    writer w(buf.data(), want.size());
    sample_document(w);
    EXPECT_OK(w.finish());
    EXPECT_EQ(w.size(), want.size());
    EXPECT_EQ(w.data(), buf.data());
    EXPECT_EQ(to_hex(buf.data(), want.size()), to_hex(want));
    EXPECT_EQ(to_hex(w.to_vector()), to_hex(want));
    for (size_t i = want.size(); i < buf.size(); ++i) ASSERT_EQ(buf[i], k_guard);
  }
  {
    SCOPED_TRACE("one byte short");
    const size_t cap = want.size() - 1;
    bytes buf(cap + 16, k_guard);
    writer w(buf.data(), cap);
    const std::vector<status> got = sample_calls(w);
    for (size_t i = 0; i < 10; ++i) EXPECT_OK(got[i]) << i;
    // Only the break does not fit; the map's end() writes nothing but reports
    // the overflow too.
    EXPECT_STATUS(got[10], buffer_too_small);
    EXPECT_STATUS(got[11], buffer_too_small);
    EXPECT_EQ(w.depth(), 0u);
    EXPECT_STATUS(w.finish(), buffer_too_small);
    EXPECT_STATUS(w.error(), buffer_too_small);
    EXPECT_EQ(w.size(), want.size());  // bytes needed
    EXPECT_EQ(to_hex(buf.data(), cap), to_hex(want.data(), cap));
    for (size_t i = cap; i < buf.size(); ++i) ASSERT_EQ(buf[i], k_guard) << i;
    EXPECT_TRUE(w.to_vector().empty());
  }
}

TEST(WriterFixed, EveryCapacityNeverWritesPastItAndCountsTheRest) {
  writer ref;
  sample_document(ref);
  EXPECT_OK(ref.finish());
  const bytes want = ref.to_vector();
  for (size_t cap = 0; cap <= want.size(); ++cap) {
    SCOPED_TRACE(cap);
    bytes buf(cap + 16, k_guard);
    writer w(buf.data(), cap);
    // Once a write overflowed, every later write says so.
    status last = status::ok;
    for (status st : sample_calls(w)) {
      if (last == status::buffer_too_small) {
        EXPECT_STATUS(st, buffer_too_small);
      } else {
        EXPECT_TRUE(st == status::ok || st == status::buffer_too_small) << status_name(st);
      }
      last = st;
    }
    EXPECT_EQ(w.depth(), 0u);
    EXPECT_EQ(w.size(), want.size());
    EXPECT_STREQ(status_name(w.finish()),
                 status_name(cap == want.size() ? status::ok : status::buffer_too_small));
    // The buffer holds a prefix of the document, then untouched bytes.
    size_t k = 0;
    while (k < cap && buf[k] == want[k]) ++k;
    for (size_t i = k; i < buf.size(); ++i) ASSERT_EQ(buf[i], k_guard) << i;
  }
}

TEST(WriterFixed, StructureTrackingContinuesAfterOverflow) {
  {
    uint8_t buf[2];
    writer w(buf, sizeof buf);
    EXPECT_OK(w.begin_array(1));
    EXPECT_STATUS(w.write_text("hello"), buffer_too_small);
    EXPECT_STATUS(w.end(), buffer_too_small);
    EXPECT_EQ(w.depth(), 0u);
    EXPECT_EQ(w.size(), 7u);
    EXPECT_STATUS(w.finish(), buffer_too_small);
    // A structural error still shows up, and takes over as the sticky error.
    EXPECT_STATUS(w.end(), writer_no_container);
    EXPECT_STATUS(w.finish(), writer_no_container);
  }
  {
    uint8_t buf[2];
    writer w(buf, sizeof buf);
    EXPECT_OK(w.begin_array(2));
    EXPECT_STATUS(w.write_text("hello"), buffer_too_small);
    EXPECT_STATUS(w.write_uint(1), buffer_too_small);
    EXPECT_STATUS(w.write_uint(2), writer_count_mismatch);
    EXPECT_STATUS(w.write_uint(3), writer_count_mismatch);
  }
  {
    uint8_t buf[1];
    writer w(buf, sizeof buf);
    EXPECT_OK(w.begin_bytes_indefinite());
    EXPECT_STATUS(w.write_bytes("ab", 2), buffer_too_small);
    EXPECT_STATUS(w.write_text("ab"), writer_bad_chunk);
  }
  {
    uint8_t buf[1];
    writer w(buf, sizeof buf);
    EXPECT_OK(w.write_uint(1));
    EXPECT_STATUS(w.begin_map(1), buffer_too_small);
    EXPECT_STATUS(w.finish(), writer_unclosed);
  }
}

TEST(WriterFixed, CountingWriterAndBadArguments) {
  writer counter(static_cast<uint8_t*>(nullptr), 0);  // writes nothing, only counts
  for (status st : sample_calls(counter)) EXPECT_STATUS(st, buffer_too_small);
  EXPECT_EQ(counter.size(), k_sample_size);
  EXPECT_STATUS(counter.finish(), buffer_too_small);

  writer bad(static_cast<uint8_t*>(nullptr), 4);
  EXPECT_STATUS(bad.error(), invalid_argument);
  EXPECT_STATUS(bad.write_uint(1), invalid_argument);
  EXPECT_STATUS(bad.finish(), invalid_argument);

  uint8_t buf[4];
  writer fixed(buf, sizeof buf);
  size_t size = 1, capacity = 1;
  EXPECT_EQ(fixed.detach(&size, &capacity), nullptr);  // not an owned buffer
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(capacity, 0u);
}

// A count that would pass SIZE_MAX (lengths that no memory holds; a counting
// writer does not read the bytes) is out_of_memory, sticky, not a wrapped size.
TEST(WriterFixed, CountPastSizeMaxIsOutOfMemory) {
  static const uint8_t byte[1] = {0};
  {
    writer counter(static_cast<uint8_t*>(nullptr), 0);
    // 9 head bytes + SIZE_MAX - 9: exactly SIZE_MAX, still a count.
    EXPECT_STATUS(counter.write_bytes(byte, SIZE_MAX - 9), buffer_too_small);
    EXPECT_EQ(counter.size(), SIZE_MAX);
    EXPECT_STATUS(counter.write_uint(0), out_of_memory);
    EXPECT_STATUS(counter.write_uint(0), out_of_memory);  // sticky
    EXPECT_STATUS(counter.finish(), out_of_memory);
  }
  {
    writer counter(static_cast<uint8_t*>(nullptr), 0);
    EXPECT_STATUS(counter.write_bytes(byte, SIZE_MAX - 4), out_of_memory);
  }
  // A wrap in a caller buffer reserves 1 byte for its head; closing it over
  // SIZE_MAX - 31 content bytes takes 9, 8 more.
  struct row {
    const char* name;
    size_t content_bytes;  // the byte string written inside the wrap
    status at_end;
    size_t size_below_max;  // SIZE_MAX - size() after the end (ok statuses)
  };
  const row rows[] = {
      {"1 + 9 + (SIZE_MAX - 40) + 8: fits", SIZE_MAX - 40, status::buffer_too_small, 22},
      {"1 + 9 + (SIZE_MAX - 12) + 8: past SIZE_MAX", SIZE_MAX - 12, status::out_of_memory, 0},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.name);
    uint8_t buf[16];
    writer w(buf, sizeof buf);
    EXPECT_STATUS(w.begin_embedded(false), ok);
    EXPECT_STATUS(w.write_bytes(byte, r.content_bytes), buffer_too_small);
    EXPECT_EQ(w.end_embedded(), r.at_end);
    if (r.at_end == status::buffer_too_small) {
      EXPECT_EQ(SIZE_MAX - w.size(), r.size_below_max);
    }
  }
}

// ---- sink -------------------------------------------------------------------

TEST(WriterSink, FillsChunksExactly) {
  sink_record r;
  writer w(record_sink, &r, 4);
  for (uint64_t i = 1; i <= 4; ++i) EXPECT_OK(w.write_uint(i));
  EXPECT_TRUE(r.chunks.empty());  // full, but flushed only when more bytes come
  for (uint64_t i = 5; i <= 10; ++i) EXPECT_OK(w.write_uint(i));
  EXPECT_EQ(r.chunks, (std::vector<size_t>{4, 4}));
  EXPECT_EQ(w.size(), 10u);
  EXPECT_OK(w.finish());
  EXPECT_EQ(r.chunks, (std::vector<size_t>{4, 4, 2}));
  EXPECT_EQ(to_hex(r.data), "0102030405060708090a");
  EXPECT_EQ(w.size(), 10u);
  EXPECT_OK(w.finish());  // nothing staged: no empty chunk
  EXPECT_EQ(r.calls, 3);

  // Items straddle chunk boundaries: a 5-byte head is split 3 + 2.
  sink_record r2;
  writer w2(record_sink, &r2, 4);
  EXPECT_OK(w2.write_uint(0));
  EXPECT_OK(w2.write_uint(1000000));
  EXPECT_OK(w2.write_uint(2));
  EXPECT_OK(w2.finish());
  EXPECT_EQ(r2.chunks, (std::vector<size_t>{4, 3}));
  EXPECT_EQ(to_hex(r2.data), "001a000f424002");
}

TEST(WriterSink, LargeStringsGoStraightToTheSink) {
  const bytes big = pattern(100);
  sink_record r;
  writer w(record_sink, &r, 8);
  EXPECT_OK(w.write_bytes(big.data(), big.size()));
  // The head and the first 6 content bytes fill one chunk; the other 94 bytes
  // are handed over from the caller's memory.
  ASSERT_EQ(r.chunks, (std::vector<size_t>{8, 94}));
  EXPECT_EQ(r.pointers[1], big.data() + 6);
  EXPECT_OK(w.write_uint(5));
  EXPECT_OK(w.finish());
  bytes want = from_hex("58 64");
  want.insert(want.end(), big.begin(), big.end());
  want.push_back(5);
  EXPECT_EQ(to_hex(r.data), to_hex(want));
  EXPECT_EQ(w.size(), want.size());
}

TEST(WriterSink, TinyChunkSizesReproduceTheSameBytes) {
  writer ref;
  sample_document(ref);
  EXPECT_OK(ref.finish());
  const bytes want = ref.to_vector();
  for (size_t chunk : {size_t(0), size_t(1), size_t(2), size_t(5), size_t(7), size_t(8), size_t(9),
                       size_t(10), size_t(31), size_t(60), size_t(61), size_t(62)}) {
    SCOPED_TRACE(chunk);
    sink_record r;
    writer w(record_sink, &r, chunk);  // 0 is taken as 1
    sample_document(w);
    EXPECT_OK(w.finish());
    EXPECT_EQ(to_hex(r.data), to_hex(want));
    EXPECT_EQ(w.size(), want.size());
    size_t total = 0;
    for (size_t c : r.chunks) {
      EXPECT_GT(c, 0u);
      total += c;
    }
    EXPECT_EQ(total, want.size());
  }
}

TEST(WriterSink, FailureIsSticky) {
  {
    SCOPED_TRACE("fails while staging");
    sink_record r;
    r.fail_at = 2;
    writer w(record_sink, &r, 4);
    for (uint64_t i = 1; i <= 8; ++i) EXPECT_OK(w.write_uint(i));  // the 5th write flushes chunk 1
    EXPECT_STATUS(w.write_uint(9), sink_failed);                   // chunk 2 is refused
    EXPECT_STATUS(w.write_uint(10), sink_failed);
    EXPECT_STATUS(w.end(), sink_failed);
    EXPECT_STATUS(w.finish(), sink_failed);
    EXPECT_STATUS(w.error(), sink_failed);
    EXPECT_EQ(r.calls, 2);
    EXPECT_EQ(to_hex(r.data), "01020304");
  }
  {
    // Found by fuzzing: a container head whose flush fails opened the
    // container with a fresh item count, and the next item took the inline
    // path and reported ok.
    SCOPED_TRACE("fails while opening a container");
    sink_record r;
    r.fail_at = 1;
    writer w(record_sink, &r, 16);  // room for a whole head again after the flush
    for (uint64_t i = 1; i <= 16; ++i) EXPECT_OK(w.write_uint(i));  // chunk 1 is full
    EXPECT_STATUS(w.begin_array(3), sink_failed);                   // its flush is refused
    EXPECT_STATUS(w.write_uint(5), sink_failed);
    EXPECT_STATUS(w.begin_map(1), sink_failed);
    EXPECT_STATUS(w.end(), sink_failed);
    EXPECT_EQ(r.calls, 1);
  }
  {
    SCOPED_TRACE("fails while opening an indefinite array");
    sink_record r;
    r.fail_at = 1;
    writer w(record_sink, &r, 16);
    for (uint64_t i = 1; i <= 16; ++i) EXPECT_OK(w.write_uint(i));
    EXPECT_STATUS(w.begin_array_indefinite(), sink_failed);
    EXPECT_STATUS(w.write_uint(5), sink_failed);
  }
  {
    SCOPED_TRACE("fails on finish");
    sink_record r;
    r.fail_at = 1;
    writer w(record_sink, &r);
    EXPECT_OK(w.write_uint(1));
    EXPECT_OK(w.write_uint(2));
    EXPECT_STATUS(w.finish(), sink_failed);
    EXPECT_STATUS(w.finish(), sink_failed);
    EXPECT_STATUS(w.write_uint(3), sink_failed);
    EXPECT_EQ(r.calls, 1);
  }
  {
    SCOPED_TRACE("fails on a direct hand-over");
    sink_record r;
    r.fail_at = 1;
    writer w(record_sink, &r, 4);
    const bytes big = pattern(50);
    EXPECT_STATUS(w.write_bytes(big.data(), big.size()), sink_failed);
    EXPECT_STATUS(w.write_uint(1), sink_failed);
    EXPECT_EQ(r.calls, 1);
  }
  {
    SCOPED_TRACE("no sink");
    writer w(sink_fn(nullptr), nullptr);
    EXPECT_STATUS(w.write_uint(1), invalid_argument);
    EXPECT_STATUS(w.finish(), invalid_argument);
  }
}

// ---- allocator ---------------------------------------------------------------

/// Allocator hooks over malloc that can fail after a number of successful
/// calls and check that every free gets back the pointer and size it handed out.
struct test_allocator {
  size_t calls = 0;
  size_t fail_after = std::numeric_limits<size_t>::max();
  size_t failures = 0;
  std::map<void*, size_t> live;
  bool bad_free = false;
  allocator hooks{&do_malloc, &do_realloc, &do_free, this};

  test_allocator() = default;
  test_allocator(const test_allocator&) = delete;
  test_allocator& operator=(const test_allocator&) = delete;

  static void* do_malloc(void* ctx, size_t size) {
    auto* a = static_cast<test_allocator*>(ctx);
    if (a->calls >= a->fail_after) {
      ++a->failures;
      return nullptr;
    }
    ++a->calls;
    void* p = std::malloc(size);
    a->live[p] = size;
    return p;
  }
  static void* do_realloc(void* ctx, void* ptr, size_t old_size, size_t new_size) {
    auto* a = static_cast<test_allocator*>(ctx);
    auto it = a->live.find(ptr);
    if (it == a->live.end() || it->second != old_size) a->bad_free = true;
    if (a->calls >= a->fail_after) {
      ++a->failures;
      return nullptr;
    }
    ++a->calls;
    void* p = std::realloc(ptr, new_size);
    a->live.erase(ptr);
    a->live[p] = new_size;
    return p;
  }
  static void do_free(void* ctx, void* ptr, size_t size) {
    auto* a = static_cast<test_allocator*>(ctx);
    if (ptr == nullptr) return;
    auto it = a->live.find(ptr);
    if (it == a->live.end() || it->second != size) {
      a->bad_free = true;
      return;
    }
    a->live.erase(it);
    std::free(ptr);
  }
};

/// Deep nesting (stack growth) and large strings (buffer growth).
std::vector<status> allocating_document(writer& w) {
  std::vector<status> out;
  const bytes big = pattern(5000);
  for (int i = 0; i < 40; ++i) out.push_back(i % 2 ? w.begin_array(1) : w.write_tag(uint64_t(i)));
  out.push_back(w.write_bytes(big.data(), big.size()));
  for (int i = 0; i < 20; ++i) out.push_back(w.end());
  out.push_back(w.begin_array_indefinite());
  for (int i = 0; i < 200; ++i) out.push_back(w.write_text("some text of moderate size"));
  out.push_back(w.end());
  out.push_back(w.finish());
  return out;
}

TEST(WriterAlloc, FailureAtEveryAllocationIsStickyAndLeakFree) {
  bytes want;
  size_t needed_calls = 0;
  {
    test_allocator a;
    writer w(&a.hooks);
    for (status s : allocating_document(w)) EXPECT_OK(s);
    want = w.to_vector();
    needed_calls = a.calls;
  }
  ASSERT_GT(needed_calls, 3u);
  for (const char* mode : {"owned", "sink"}) {
    for (size_t n = 0; n <= needed_calls + 1; ++n) {
      SCOPED_TRACE(std::string(mode) + ", allocations allowed: " + std::to_string(n));
      test_allocator a;
      a.fail_after = n;
      sink_record r;
      {
        writer w =
            std::string(mode) == "owned" ? writer(&a.hooks) : writer(record_sink, &r, 64, &a.hooks);
        const std::vector<status> got = allocating_document(w);
        bool failed = false;
        for (status s : got) {
          if (failed) {
            EXPECT_STATUS(s, out_of_memory);
          } else if (s != status::ok) {
            EXPECT_STATUS(s, out_of_memory);
            failed = true;
          }
        }
        EXPECT_EQ(failed, a.failures != 0);
        if (!failed) {
          EXPECT_EQ(to_hex(std::string(mode) == "owned" ? w.to_vector() : r.data), to_hex(want));
        } else {
          EXPECT_STATUS(w.error(), out_of_memory);
        }
        if (std::string(mode) == "owned") {
          EXPECT_EQ(failed, n < needed_calls);
        }
      }
      EXPECT_TRUE(a.live.empty()) << a.live.size() << " blocks leaked";
      EXPECT_FALSE(a.bad_free);
    }
  }
}

TEST(WriterAlloc, OwnedBufferGrowsGeometrically) {
  test_allocator a;
  writer w(&a.hooks);
  for (int i = 0; i < 100000; ++i) EXPECT_OK(w.write_uint(1000));  // 3 bytes each
  EXPECT_OK(w.finish());
  EXPECT_EQ(w.size(), 300000u);
  // 64 doubled up to 2^19 >= 300000: one malloc and 13 reallocs.
  EXPECT_EQ(a.calls, 14u);
}

TEST(WriterAlloc, DetachHandsOverTheBuffer) {
  test_allocator a;
  {
    writer w(&a.hooks);
    EXPECT_OK(w.begin_array(2));
    EXPECT_OK(w.write_uint(1));
    EXPECT_OK(w.write_text("ab"));
    EXPECT_OK(w.end());
    EXPECT_OK(w.finish());
    size_t size = 0, capacity = 0;
    uint8_t* p = w.detach(&size, &capacity);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(to_hex(p, size), "8201626162");
    ASSERT_EQ(a.live.count(p), 1u);
    EXPECT_EQ(a.live[p], capacity);
    a.hooks.free(a.hooks.context, p, capacity);
    // The writer is fresh and reusable.
    EXPECT_EQ(w.size(), 0u);
    EXPECT_EQ(w.data(), nullptr);
    EXPECT_EQ(w.detach(&size, &capacity), nullptr);
    EXPECT_EQ(size, 0u);
    EXPECT_OK(w.write_uint(7));
    EXPECT_OK(w.finish());
    EXPECT_EQ(to_hex(w.to_vector()), "07");
  }
  {
    // Detach also resets the structure: open containers are forgotten.
    writer w(&a.hooks);
    EXPECT_OK(w.begin_array_indefinite());
    uint8_t* p = w.detach(nullptr, nullptr);
    ASSERT_NE(p, nullptr);
    a.hooks.free(a.hooks.context, p, a.live[p]);
    EXPECT_EQ(w.depth(), 0u);
    EXPECT_OK(w.finish());
  }
  EXPECT_TRUE(a.live.empty());
  EXPECT_FALSE(a.bad_free);
}

TEST(WriterAlloc, SinkStagingBufferFailure) {
  test_allocator a;
  a.fail_after = 0;
  sink_record r;
  {
    writer w(record_sink, &r, 64, &a.hooks);
    EXPECT_STATUS(w.error(), out_of_memory);
    EXPECT_STATUS(w.write_uint(1), out_of_memory);
    EXPECT_STATUS(w.finish(), out_of_memory);
  }
  EXPECT_EQ(r.calls, 0);
  EXPECT_TRUE(a.live.empty());
}

// ---- move semantics ---------------------------------------------------------

TEST(WriterMove, OwnedConstructAndAssign) {
  test_allocator a;
  {
    writer w(&a.hooks);
    EXPECT_OK(w.begin_array(2));
    EXPECT_OK(w.write_uint(1));
    writer moved(std::move(w));
    EXPECT_EQ(moved.depth(), 1u);
    EXPECT_OK(moved.write_uint(2));
    EXPECT_OK(moved.end());
    EXPECT_OK(moved.finish());
    EXPECT_EQ(to_hex(moved.to_vector()), "820102");
    // The moved-from writer is a fresh owned writer.
    EXPECT_EQ(w.size(), 0u);
    EXPECT_EQ(w.depth(), 0u);
    EXPECT_EQ(w.data(), nullptr);
    EXPECT_OK(w.write_uint(7));
    EXPECT_OK(w.finish());
    EXPECT_EQ(to_hex(w.to_vector()), "07");

    // Assignment frees the target's own buffer and stack.
    writer target(&a.hooks);
    EXPECT_OK(target.begin_array_indefinite());
    EXPECT_OK(target.write_text("to be dropped"));
    const size_t blocks_before = a.live.size();
    target = std::move(moved);
    EXPECT_EQ(a.live.size(), blocks_before - 2);
    EXPECT_EQ(to_hex(target.to_vector()), "820102");
    EXPECT_EQ(target.depth(), 0u);
    EXPECT_EQ(moved.size(), 0u);

    writer& alias = target;
    target = std::move(alias);  // self-assignment keeps the content
    EXPECT_EQ(to_hex(target.to_vector()), "820102");
  }
  EXPECT_TRUE(a.live.empty());
  EXPECT_FALSE(a.bad_free);
}

TEST(WriterMove, CallerBufferAndSink) {
  uint8_t buf[4] = {k_guard, k_guard, k_guard, k_guard};
  {
    writer w(buf, 3);
    EXPECT_OK(w.write_uint(1));
    writer moved(std::move(w));
    EXPECT_OK(moved.write_uint(2));
    EXPECT_OK(moved.write_uint(3));
    EXPECT_STATUS(moved.write_uint(4), buffer_too_small);
    EXPECT_EQ(moved.size(), 4u);
    EXPECT_EQ(w.size(), 0u);
    EXPECT_OK(w.write_uint(9));  // the moved-from writer no longer touches buf
    EXPECT_EQ(to_hex(buf, 4), "010203ee");
  }
  test_allocator a;
  sink_record r;
  {
    writer w(record_sink, &r, 4, &a.hooks);
    EXPECT_OK(w.write_uint(1));
    EXPECT_OK(w.write_uint(2));
    writer moved(std::move(w));
    writer target(&a.hooks);
    EXPECT_OK(target.write_uint(0));
    target = std::move(moved);
    EXPECT_OK(target.write_uint(3));
    EXPECT_OK(target.finish());
    EXPECT_EQ(to_hex(r.data), "010203");
    EXPECT_OK(w.finish());
    EXPECT_OK(moved.finish());
    EXPECT_EQ(r.calls, 1);
  }
  EXPECT_TRUE(a.live.empty());
  EXPECT_FALSE(a.bad_free);
}

}  // namespace
}  // namespace cbor_fast
