// Canonical encoding (src/document/canonical.cpp): core deterministic,
// length-first (against cbor2's canonical=True, tests/vectors/canonical.json)
// and CTAP2, with bignums and floats in preferred form.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cbor_fast/document.hpp"
#include "document/memory.hpp"
#include "unit/document_test_util.hpp"
#include "corpus.hpp"

namespace cbor_fast {
namespace {

using doc_test::bytes;
using doc_test::hex;
using doc_test::to_hex;

struct result {
  status code;
  std::string out;
  size_t offset;
};

result canon(const bytes& in, uint32_t flags, const decode_options& o = {}) {
  writer w;
  error_info e;
  const status s = canonicalize(in.data(), in.size(), w, flags, o, &e);
  return result{s, s == status::ok ? to_hex(w.data(), w.size()) : std::string(), e.offset};
}
result canon(const char* h, uint32_t flags) { return canon(hex(h), flags); }

struct vector_row {
  std::string name, input, length_first, core;
};

/// The fields of tests/vectors/canonical.json (an array of flat objects whose
/// values are strings without escapes).
std::vector<vector_row> load_vectors() {
  std::ifstream f(CBOR_FAST_SOURCE_DIR "/tests/vectors/canonical.json");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  std::vector<vector_row> rows;
  const auto field = [&](size_t from, const char* name, size_t& end) {
    const std::string key = std::string("\"") + name + "\": \"";
    const size_t at = text.find(key, from);
    if (at == std::string::npos) return std::string();
    const size_t start = at + key.size();
    end = text.find('"', start);
    return text.substr(start, end - start);
  };
  size_t pos = 0;
  for (;;) {
    size_t end = 0;
    vector_row r;
    r.name = field(pos, "name", end);
    if (r.name.empty()) break;
    r.input = field(end, "input", end);
    r.length_first = field(end, "length_first", end);
    r.core = field(end, "core", end);
    rows.push_back(r);
    pos = end;
  }
  return rows;
}

TEST(Canonical, Cbor2VectorTable) {
  const std::vector<vector_row> rows = load_vectors();
  ASSERT_EQ(rows.size(), 37u);
  for (const vector_row& r : rows) {
    SCOPED_TRACE(r.name);
    const bytes in = hex(r.input.c_str());
    const result lf = canon(in, encode_length_first);
    EXPECT_EQ(lf.code, status::ok);
    EXPECT_EQ(lf.out, r.length_first);
    const result core = canon(in, encode_canonical);
    EXPECT_EQ(core.code, status::ok);
    EXPECT_EQ(core.out, r.core);
    // The core form passes the library's own deterministic check, and is a
    // fixed point of both encoders.
    const bytes c = hex(r.core.c_str());
    document d;
    decode_options strict;
    strict.flags = decode_deterministic | decode_reject_duplicate_keys | decode_exact;
    EXPECT_EQ(decode(c.data(), c.size(), d, strict), status::ok);
    EXPECT_EQ(canon(c, encode_canonical).out, r.core);
    EXPECT_EQ(canon(hex(r.length_first.c_str()), encode_length_first).out, r.length_first);
  }
}

// encode(document, ...) with an error: the same bytes and errors as the node
// overload, with the scratch from the document's allocator.
TEST(Canonical, DocumentOverloadUsesTheDocumentsAllocator) {
  struct counting {
    int calls = 0;
    static void* do_malloc(void* c, size_t n) {
      ++static_cast<counting*>(c)->calls;
      return std::malloc(n);
    }
    static void* do_realloc(void* c, void* p, size_t, size_t n) {
      ++static_cast<counting*>(c)->calls;
      return std::realloc(p, n);
    }
    static void do_free(void*, void* p, size_t) { std::free(p); }
  };
  counting k;
  const allocator a{counting::do_malloc, counting::do_realloc, counting::do_free, &k};
  const bytes in = hex("a3 03 00 02 00 01 00");  // {3: 0, 2: 0, 1: 0}
  document d(&a);
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  const int decode_calls = k.calls;
  writer w1, w2;
  error_info e;
  ASSERT_EQ(encode(d, w1, encode_canonical, &e), status::ok);
  EXPECT_GT(k.calls, decode_calls);
  ASSERT_EQ(encode(d.root(), w2, encode_canonical, &e), status::ok);
  EXPECT_EQ(to_hex(w1.data(), w1.size()), "a3010002000300");
  EXPECT_EQ(to_hex(w1.data(), w1.size()), to_hex(w2.data(), w2.size()));
  const bytes dup = hex("a2 01 00 1801 00");  // 1 and 1_0: one key once encoded
  document dd;
  ASSERT_EQ(decode(dup.data(), dup.size(), dd), status::ok);
  writer w3;
  EXPECT_EQ(encode(dd, w3, encode_canonical, &e), status::duplicate_key);
  EXPECT_EQ(e.offset, 3u);
  document empty;
  EXPECT_EQ(encode(empty, w3, encode_canonical, &e), status::invalid_argument);
  EXPECT_EQ(e.code, status::invalid_argument);
}

TEST(Canonical, FloatsAndNaN) {
  // Core: the shortest width that holds the value exactly, NaN payloads kept.
  EXPECT_EQ(canon("fb7ff8000000000001", encode_canonical).out, "fb7ff8000000000001");
  EXPECT_EQ(canon("fa7fc00001", encode_canonical).out, "fa7fc00001");
  EXPECT_EQ(canon("fb7ff8000000000000", encode_canonical).out, "f97e00");
  EXPECT_EQ(canon("fb8000000000000000", encode_canonical).out, "f98000");
  EXPECT_EQ(canon("fa47800000", encode_canonical).out, "fa47800000");  // 65536.0
  EXPECT_EQ(canon("fb3ff0000000000000", encode_canonical).out, "f93c00");
  // Length-first (RFC 7049 3.9): every NaN is f97e00.
  EXPECT_EQ(canon("fb7ff8000000000001", encode_length_first).out, "f97e00");
  EXPECT_EQ(canon("fa7fc00001", encode_length_first).out, "f97e00");
  EXPECT_EQ(canon("fbfff8000000000000", encode_length_first).out, "f97e00");
  EXPECT_EQ(canon("fb8000000000000000", encode_length_first).out, "f98000");
  // CTAP2 keeps every float's width.
  EXPECT_EQ(canon("fb3ff8000000000000", encode_ctap2).out, "fb3ff8000000000000");
  EXPECT_EQ(canon("fa3fc00000", encode_ctap2).out, "fa3fc00000");
}

TEST(Canonical, BignumsInPreferredForm) {
  EXPECT_EQ(canon("c24101", encode_canonical).out, "01");
  EXPECT_EQ(canon("c240", encode_canonical).out, "00");
  EXPECT_EQ(canon("c340", encode_canonical).out, "20");
  EXPECT_EQ(canon("c243000005", encode_canonical).out, "05");
  EXPECT_EQ(canon("c24818", encode_canonical).code, status::truncated);
  // 2^64 - 1 and -2^64 fit major types 0 and 1.
  EXPECT_EQ(canon("c248ffffffffffffffff", encode_canonical).out, "1bffffffffffffffff");
  EXPECT_EQ(canon("c348ffffffffffffffff", encode_canonical).out, "3bffffffffffffffff");
  // 2^64 stays a bignum; leading zeros go.
  EXPECT_EQ(canon("c24a00010000000000000000", encode_canonical).out, "c249010000000000000000");
  EXPECT_EQ(canon("c25f4201004700000000000000ff", encode_length_first).out,
            "c249010000000000000000");
  // CTAP2: a bignum that fits becomes an integer, any other tag is refused.
  EXPECT_EQ(canon("c24101", encode_ctap2).out, "01");
  const result big = canon("8201c249010000000000000000", encode_ctap2);
  EXPECT_EQ(big.code, status::invalid_argument);
  EXPECT_EQ(big.offset, 2u);
  const result tag = canon("a1 6161 c1 1a514b67b0", encode_ctap2);
  EXPECT_EQ(tag.code, status::invalid_argument);
  EXPECT_EQ(tag.offset, 3u);
  // Other tags pass through the other forms, their content canonical.
  EXPECT_EQ(canon("d8f7a2616201616100", encode_canonical).out, "d8f7a2616100616201");
}

TEST(Canonical, PreferredEncodingWritesPreferredBignums) {
  // encode_preferred (and mutable documents) follow RFC 8949 3.4.3 too, so
  // their output passes the deterministic check apart from key order.
  for (const char* h : {"c24101", "c2420001", "c348ffffffffffffffff", "c24a00010000000000000000"}) {
    SCOPED_TRACE(h);
    const bytes in = hex(h);
    document d;
    ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
    writer w;
    ASSERT_EQ(encode(d, w, encode_preferred), status::ok);
    document check;
    decode_options det;
    det.flags = decode_deterministic;
    EXPECT_EQ(decode(w.data(), w.size(), check, det), status::ok);
    writer kept;
    ASSERT_EQ(encode(d, kept), status::ok);  // without the flag the tag stays
    EXPECT_EQ(to_hex(kept.data(), kept.size()), to_hex(in));
  }
  const bytes in = hex("82 c24101 c3420001");
  document d;
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  writer w;
  ASSERT_EQ(encode(d, w, encode_preferred), status::ok);
  EXPECT_EQ(to_hex(w.data(), w.size()), "820121");  // 1 and -1 - 1
  mutable_document m;
  ASSERT_EQ(to_mutable(d, m), status::ok);
  writer mw;
  ASSERT_EQ(encode(m, mw), status::ok);
  EXPECT_EQ(to_hex(mw.data(), mw.size()), "820121");
}

TEST(Canonical, OrdersDiffer) {
  // "" (60) vs 100 (1864): length-first puts the shorter first, bytewise and
  // CTAP2 (major type first) the integer.
  const char* in = "a2 60 01 1864 02";
  EXPECT_EQ(canon(in, encode_length_first).out, "a26001186402");
  EXPECT_EQ(canon(in, encode_canonical).out, "a21864026001");
  EXPECT_EQ(canon(in, encode_ctap2).out, "a21864026001");
  // -1 (20) vs 24 (1818): bytewise 1818 < 20; length-first 20 (1 byte) first;
  // CTAP2 major 0 first.
  const char* in2 = "a2 20 01 1818 02";
  EXPECT_EQ(canon(in2, encode_canonical).out, "a21818022001");
  EXPECT_EQ(canon(in2, encode_length_first).out, "a22001181802");
  EXPECT_EQ(canon(in2, encode_ctap2).out, "a21818022001");
  // CTAP2: "a" (6161) vs h'0000' (420000): major 2 before 3 though longer.
  EXPECT_EQ(canon("a2 6161 01 420000 02", encode_ctap2).out, "a242000002616101");
  EXPECT_EQ(canon("a2 6161 01 420000 02", encode_length_first).out, "a261610142000002");
}

TEST(Canonical, IndefiniteAndNonPreferredHeads) {
  EXPECT_EQ(canon("bf616201616102ff", encode_canonical).out, "a2616102616201");
  EXPECT_EQ(canon("9f1801190002ff", encode_canonical).out, "820102");
  EXPECT_EQ(canon("a17f61626161ff1b0000000000000001", encode_canonical).out, "a162626101");
  EXPECT_EQ(canon("5f4101420203ff", encode_canonical).out, "43010203");
  EXPECT_EQ(canon("f820", encode_canonical).out, "f820");
  EXPECT_EQ(canon("f818", encode_canonical).code, status::bad_simple_value);
  EXPECT_EQ(canon("80", encode_canonical).out, "80");
  EXPECT_EQ(canon("a0", encode_canonical).out, "a0");
  EXPECT_EQ(canon("9fff", encode_canonical).out, "80");
}

TEST(Canonical, ContainersAsKeys) {
  // {{2: 0, 1: 0}: 1, [2]: 2, [1]: 3}: the key map is sorted first, then the keys.
  EXPECT_EQ(canon("a3a202000100018102028101 03", encode_canonical).out,
            "a3810103810202a20100020001");
  // A map key inside a map key: innermost first.
  EXPECT_EQ(canon("a1a1a2626262006161000100", encode_canonical).out, "a1a1a2616100626262000100");
}

TEST(Canonical, DuplicateKeysAfterCanonicalisation) {
  // 1 and 0x1801 are one key: the later one is reported.
  const result r = canon("a20100180101", encode_canonical);
  EXPECT_EQ(r.code, status::duplicate_key);
  EXPECT_EQ(r.offset, 3u);
  // Half and double of one value.
  const result f = canon("a2f93c0000fb3ff000000000000001", encode_length_first);
  EXPECT_EQ(f.code, status::duplicate_key);
  EXPECT_EQ(f.offset, 5u);
  // Maps as keys compare as unordered maps.
  const result m = canon("a2 a201020304 00 a203040102 01", encode_canonical);
  EXPECT_EQ(m.code, status::duplicate_key);
  EXPECT_EQ(m.offset, 7u);
  // Bignum 1 and integer 1.
  const result b = canon("a2 c24101 00 01 01", encode_canonical);
  EXPECT_EQ(b.code, status::duplicate_key);
  EXPECT_EQ(b.offset, 5u);
}

TEST(Canonical, SeveralDuplicatesReportTheFirstKeyThatRepeats) {
  // As the strict reader does: of all duplicates, the first key in the input
  // that repeats an earlier one, whatever the sort made of them and in
  // whichever map. Each row: input, that key's offset.
  const struct {
    const char* name;
    const char* in;
    size_t offset;
  } rows[] = {
      // {0: 0, 3: 0, 3: 0, 0: 0}: sorted, 0 and 0 meet first; 3 repeats first.
      {"two_runs", "a4 0000 0300 0300 0000", 5},
      // {5: 0, 9: 0, 5: 0, 5: 0}: a run of three, its second occurrence.
      {"run_of_three", "a4 0500 0900 0500 0500", 5},
      // {1: 0, 2: 0, 1: 0, 2: 0, 1: 0}
      {"alternating", "a5 0100 0200 0100 0200 0100", 5},
      // {1: 0, 1: {5: 0, 5: 0}}: the outer repeat (3) before the inner one (7).
      {"outer_before_inner", "a2 0100 01 a2 0500 0500", 3},
      // {1: {5: 0, 5: 0}, 1: 0}: the inner repeat (5) before the outer one (7).
      {"inner_before_outer", "a2 01 a2 0500 0500 0100", 5},
      // [{7: 0, 7: 0}, {6: 0, 6: 0}]: the first map's (maps sort last first).
      {"earlier_map", "82 a2 0700 0700 a2 0600 0600", 4},
  };
  for (const auto& row : rows) {
    for (const uint32_t flags : {encode_canonical, encode_length_first, encode_ctap2}) {
      const result r = canon(row.in, flags);
      EXPECT_EQ(r.code, status::duplicate_key) << row.name << " " << flags;
      EXPECT_EQ(r.offset, row.offset) << row.name << " " << flags;
    }
    const bytes in = hex(row.in);
    document d;
    decode_options strict;
    strict.flags = decode_reject_duplicate_keys;
    error_info e;
    EXPECT_EQ(decode(in.data(), in.size(), d, strict, &e), status::duplicate_key) << row.name;
    EXPECT_EQ(e.offset, row.offset) << row.name;
  }
}

/// One map of text keys (in this order) with the values 0, 1, 2, ...
void put_map(writer& w, const std::vector<const char*>& keys) {
  w.begin_map(keys.size());
  uint64_t v = 0;
  for (const char* k : keys) {
    w.write_text(k);
    w.write_uint(v++);
  }
  w.end();
}

TEST(Canonical, RepeatedMapShapesSortLikeSingleMaps) {
  // Maps with the keys of a map sorted before take its order (map_shape in
  // canonical.cpp): an array of them must give each map's own canonical
  // bytes, for shapes that repeat, that share the key count and first key
  // but differ later, and for a later map with a duplicate key.
  const std::vector<std::vector<const char*>> shapes = {
      {"zeta", "al", "mid"}, {"zeta", "al", "mid"},
      {"zeta", "mid", "al"}, {"zeta", "be", "mid"},
      {"zeta", "al", "mid"}, {"b", "a"},
      {"zeta", "mid", "al"}, {"b", "a"},
      {"zeta", "al", "mid"}};
  for (const uint32_t flags : {encode_canonical, encode_length_first, encode_ctap2}) {
    writer all;
    all.begin_array(shapes.size());
    std::string expected = "89";
    for (const auto& keys : shapes) {
      put_map(all, keys);
      writer one;
      put_map(one, keys);
      const result r = canon(bytes(one.data(), one.data() + one.size()), flags);
      ASSERT_EQ(r.code, status::ok);
      expected += r.out;
    }
    all.end();
    const result r = canon(bytes(all.data(), all.data() + all.size()), flags);
    ASSERT_EQ(r.code, status::ok);
    EXPECT_EQ(r.out, expected) << flags;
  }
  // The first map's bytes, sorted bytewise: "al", "mid", "zeta".
  EXPECT_EQ(canon("a3 647a657461 00 62616c 01 636d6964 02", encode_canonical).out,
            "a362616c01636d696402647a65746100");
  // After two maps of one shape, a map with its count and first key but a
  // duplicate key: still reported, at the later duplicate.
  const result d = canon(
      "83 a3647a6574610062616c01636d696402 a3647a6574610062616c01636d696402"
      " a3647a6574610062616c0162616c02",
      encode_canonical);
  EXPECT_EQ(d.code, status::duplicate_key);
  EXPECT_EQ(d.offset, 44u);
}

TEST(Canonical, BadCalls) {
  const bytes in = hex("a0");
  writer w;
  EXPECT_EQ(canonicalize(in.data(), in.size(), w, encode_none), status::invalid_argument);
  EXPECT_EQ(canonicalize(in.data(), in.size(), w, encode_canonical | encode_ctap2),
            status::invalid_argument);
  EXPECT_EQ(canonicalize(in.data(), in.size(), w, 64), status::invalid_argument);
  EXPECT_EQ(canonicalize(nullptr, 0, w, encode_canonical), status::end);
  error_info e;
  const bytes bad = hex("a1 01");
  EXPECT_EQ(canonicalize(bad.data(), bad.size(), w, encode_canonical, {}, &e), status::truncated);
  EXPECT_EQ(e.offset, 0u);  // the decoder's offset: the map that lacks its value
  decode_options exact;
  exact.flags = decode_exact;
  const bytes two = hex("a0 a0");
  EXPECT_EQ(canonicalize(two.data(), two.size(), w, encode_canonical, exact, &e),
            status::trailing_bytes);
  EXPECT_EQ(e.offset, 1u);
  document d;
  EXPECT_EQ(encode(d.root(), w, encode_canonical, &e), status::invalid_argument);
}

TEST(Canonical, FixedBufferAndSink) {
  const bytes in = hex("a3 63616263 01 61 62 02 61 61 03");
  // Too small: the writer counts on, so size() is the size needed.
  uint8_t buf[4];
  writer small(buf, sizeof buf);
  EXPECT_EQ(canonicalize(in.data(), in.size(), small, encode_canonical), status::buffer_too_small);
  EXPECT_EQ(small.size(), 12u);
  std::string got;
  writer sink(
      [](void* ctx, const uint8_t* p, size_t n) {
        static_cast<std::string*>(ctx)->append(to_hex(p, n));
        return 0;
      },
      &got, 3);
  EXPECT_EQ(canonicalize(in.data(), in.size(), sink, encode_canonical), status::ok);
  EXPECT_EQ(sink.finish(), status::ok);
  EXPECT_EQ(got, "a36161036162026361626301");
}

TEST(Canonical, DocumentsAndMutableDocuments) {
  const bytes in = hex("a2 6162 01 6161 02");
  document d;
  ASSERT_EQ(decode(in.data(), in.size(), d), status::ok);
  writer w;
  ASSERT_EQ(encode(d, w, encode_canonical), status::ok);
  EXPECT_EQ(to_hex(w.data(), w.size()), "a2616102616201");
  // A node inside a document.
  const bytes nested = hex("82 00 a2 6162 01 6161 02");
  ASSERT_EQ(decode(nested.data(), nested.size(), d), status::ok);
  writer w2;
  ASSERT_EQ(encode(d.root().at(1), w2, encode_length_first, nullptr), status::ok);
  EXPECT_EQ(to_hex(w2.data(), w2.size()), "a2616102616201");

  mutable_document m;
  mutable_node* map = m.make_map();
  ASSERT_EQ(map->map_put(m.make_uint(1000), m.make_text("x")), status::ok);
  ASSERT_EQ(map->map_put(m.make_int(-1), m.make_float(1.0)), status::ok);
  ASSERT_EQ(map->map_put(m.make_text("a"), m.make_bool(true)), status::ok);
  ASSERT_EQ(m.set_root(map), status::ok);
  writer w3;
  ASSERT_EQ(encode(m, w3, encode_canonical), status::ok);
  EXPECT_EQ(to_hex(w3.data(), w3.size()), "a31903e8617820f93c006161f5");
  writer w4;
  ASSERT_EQ(encode(m, w4, encode_length_first), status::ok);
  EXPECT_EQ(to_hex(w4.data(), w4.size()), "a320f93c006161f51903e86178");
  writer w5;
  EXPECT_EQ(encode(m, w5, encode_canonical | encode_length_first), status::invalid_argument);
}

// A mutable document has no nesting or size limits: its canonical forms
// encode whatever its plain form does (they re-read their own plain bytes,
// which once went through decode()'s defaults: depth_exceeded past 512).
TEST(Canonical, MutableDocumentsHaveNoDecodeLimits) {
  mutable_document m;
  mutable_node* inner = m.make_map();
  ASSERT_EQ(inner->map_put(m.make_text("b"), m.make_uint(1)), status::ok);
  ASSERT_EQ(inner->map_put(m.make_text("a"), m.make_uint(2)), status::ok);
  mutable_node* top = inner;
  const size_t levels = 600;
  for (size_t i = 0; i < levels; ++i) {
    mutable_node* a = m.make_array();
    ASSERT_EQ(a->append(top), status::ok);
    top = a;
  }
  ASSERT_EQ(m.set_root(top), status::ok);
  std::string want;
  for (size_t i = 0; i < levels; ++i) want += "81";
  writer plain;
  ASSERT_EQ(encode(m, plain), status::ok);
  EXPECT_EQ(to_hex(plain.data(), plain.size()), want + "a2616201616102");
  for (uint32_t flags :
       {uint32_t(encode_canonical), uint32_t(encode_length_first), uint32_t(encode_ctap2)}) {
    writer w;
    ASSERT_EQ(encode(m, w, flags), status::ok) << flags;
    EXPECT_EQ(to_hex(w.data(), w.size()), want + "a2616102616201") << flags;
  }
}

/// FNV-1a 64, as tests/vectors/gen_canonical.py --corpus computes it.
uint64_t fnv1a64(const uint8_t* p, size_t n) {
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3u;
  }
  return h;
}

// The corpus through encode_length_first against cbor2's canonical=True
// (tests/vectors/canonical_corpus.json: size and hash of cbor2's output).
TEST(Canonical, CorpusMatchesCbor2) {
  std::ifstream f(CBOR_FAST_SOURCE_DIR "/tests/vectors/canonical_corpus.json");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string table = ss.str();
  for (const char* name : {"twitter", "citm_catalog", "canada"}) {
    SCOPED_TRACE(name);
    const size_t at = table.find(std::string("\"") + name + "\"");
    ASSERT_NE(at, std::string::npos);
    const size_t size_at = table.find("\"size\": ", at) + 8;
    const size_t hash_at = table.find("\"fnv1a64\": \"", at) + 12;
    const uint64_t want_size = std::stoull(table.substr(size_at, 20));
    const uint64_t want_hash = std::stoull(table.substr(hash_at, 16), nullptr, 16);
    std::vector<uint8_t> data;
    ASSERT_TRUE(cbor_fast_test::read_corpus(name, data))
        << "corpus file missing: " << cbor_fast_test::corpus_path(name);
    writer w;
    ASSERT_EQ(canonicalize(data.data(), data.size(), w, encode_length_first), status::ok);
    EXPECT_EQ(w.size(), want_size);
    EXPECT_EQ(fnv1a64(w.data(), w.size()), want_hash);
    // The core form of the same file passes the deterministic check.
    writer core;
    ASSERT_EQ(canonicalize(data.data(), data.size(), core, encode_canonical), status::ok);
    document d;
    decode_options det;
    det.flags = decode_deterministic | decode_reject_duplicate_keys | decode_exact;
    EXPECT_EQ(decode(core.data(), core.size(), d, det), status::ok);
  }
}

// 100,000 keys in descending order: n log n sorting keeps this well under a
// second even in the sanitizer build (a quadratic sort would take minutes).
TEST(Canonical, HundredThousandKeys) {
  constexpr uint64_t n = 100000;
  writer in;
  ASSERT_EQ(in.begin_map(n), status::ok);
  for (uint64_t i = n; i-- > 0;) {
    ASSERT_EQ(in.write_uint(i), status::ok);
    ASSERT_EQ(in.write_uint(i & 7), status::ok);
  }
  ASSERT_EQ(in.end(), status::ok);
  const auto start = std::chrono::steady_clock::now();
  writer out;
  ASSERT_EQ(canonicalize(in.data(), in.size(), out, encode_canonical), status::ok);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  EXPECT_EQ(out.size(), in.size());
  document d;
  decode_options strict;
  strict.flags = decode_deterministic;
  ASSERT_EQ(decode(out.data(), out.size(), d, strict), status::ok);
  EXPECT_EQ(d.root().size(), n);
  uint64_t k = 0;
  ASSERT_EQ(d.root().map_key(n - 1).get_uint64(k), status::ok);
  EXPECT_EQ(k, n - 1);
  // Text keys, length-first.
  writer tin;
  ASSERT_EQ(tin.begin_map(n), status::ok);
  for (uint64_t i = n; i-- > 0;) {
    ASSERT_EQ(tin.write_text(std::to_string(i)), status::ok);
    ASSERT_EQ(tin.write_null(), status::ok);
  }
  ASSERT_EQ(tin.end(), status::ok);
  writer tout;
  ASSERT_EQ(canonicalize(tin.data(), tin.size(), tout, encode_length_first), status::ok);
  ASSERT_EQ(decode(tout.data(), tout.size(), d), status::ok);
  std::string_view first, last;
  ASSERT_EQ(d.root().map_key(0).get_text(first), status::ok);
  ASSERT_EQ(d.root().map_key(n - 1).get_text(last), status::ok);
  EXPECT_EQ(first, "0");
  EXPECT_EQ(last, "99999");
}

// ---- keys nested in keys: {{{...: 0}: 0}: 0} -------------------------------------

/// A head (RFC 8949 3), shortest form.
std::string cbor_head(unsigned major, uint64_t arg) {
  std::string h;
  const auto put = [&h](uint64_t v, int width) {
    for (int i = width - 1; i >= 0; --i) h += char(uint8_t(v >> (8 * i)));
  };
  const char m = char(major << 5);
  if (arg < 24) {
    h += char(m | char(arg));
  } else if (arg <= 0xff) {
    h += char(m | 24);
    put(arg, 1);
  } else if (arg <= 0xffff) {
    h += char(m | 25);
    put(arg, 2);
  } else {
    h += char(m | 26);
    put(arg, 4);
  }
  return h;
}

enum class key_order { input, bytewise, length_first, ctap2 };

/// The reference order of two encoded keys (a strict weak order).
bool key_less(const std::string& a, const std::string& b, key_order o) {
  const auto bytes_less = [](const std::string& x, const std::string& y) {
    const size_t n = x.size() < y.size() ? x.size() : y.size();
    const int c = std::memcmp(x.data(), y.data(), n);
    return c != 0 ? c < 0 : x.size() < y.size();
  };
  if (o == key_order::ctap2 && (uint8_t(a[0]) >> 5) != (uint8_t(b[0]) >> 5))
    return (uint8_t(a[0]) >> 5) < (uint8_t(b[0]) >> 5);
  if (o != key_order::bytewise && a.size() != b.size()) return a.size() < b.size();
  return bytes_less(a, b);
}

/// A chain of `depth` maps nested in keys, built from the innermost level
/// out: level 1 is {0: 0}, level L + 1 is {level L: 0} plus, when `siblings`
/// and L + 1 is 1 or a multiple of 3, the keys 1, -1, a 30-byte text and
/// (from level 3 on) the array [L % 5]. Entries in the given order, or for
/// key_order::input siblings first (text, array, -1, 1), the chain key last:
/// the input. Each level's keys are materialised whole (a reference, not the
/// library's method).
std::string key_chain(size_t depth, bool siblings, key_order o) {
  std::string key = std::string(1, '\0');  // 0
  for (size_t level = 1; level <= depth; ++level) {
    std::vector<std::pair<std::string, std::string>> entries;
    if (siblings && (level == 1 || level % 3 == 0)) {
      entries.emplace_back(cbor_head(3, 30) + std::string(30, 'z'), std::string(1, '\x01'));
      if (level >= 3)
        entries.emplace_back(cbor_head(4, 1) + cbor_head(0, level % 5), std::string(1, '\x02'));
      entries.emplace_back(std::string(1, '\x20'), std::string(1, '\x03'));
      entries.emplace_back(std::string(1, '\x01'), std::string(1, '\x04'));
    }
    entries.emplace_back(key, std::string(1, '\0'));
    if (o != key_order::input)
      std::sort(entries.begin(), entries.end(),
                [o](const auto& x, const auto& y) { return key_less(x.first, y.first, o); });
    std::string map = cbor_head(5, entries.size());
    for (const auto& [k, v] : entries) map += k + v;
    key = std::move(map);
  }
  return key;
}

bytes to_bytes(const std::string& s) { return bytes(s.begin(), s.end()); }
std::string hex_of(const std::string& s) { return to_hex(to_bytes(s)); }

constexpr std::pair<uint32_t, key_order> k_orders[] = {
    {encode_canonical, key_order::bytewise},
    {encode_length_first, key_order::length_first},
    {encode_ctap2, key_order::ctap2}};

TEST(Canonical, KeyChainsAreAlreadyCanonical) {
  // {0: 0}, {{0: 0}: 0}, 511 and 512 levels (the most the default max_depth
  // of 512 takes): canonical in every order, so written back unchanged.
  EXPECT_EQ(hex_of(key_chain(1, false, key_order::input)), "a10000");
  EXPECT_EQ(hex_of(key_chain(2, false, key_order::input)), "a1a1000000");
  for (size_t depth : {size_t(1), size_t(2), size_t(511), size_t(512)}) {
    SCOPED_TRACE(depth);
    const std::string in = key_chain(depth, false, key_order::input);
    ASSERT_EQ(in.size(), 2 * depth + 1);
    for (const auto& [flags, o] : k_orders) {
      const result r = canon(to_bytes(in), flags);
      ASSERT_EQ(r.code, status::ok);
      EXPECT_EQ(r.out, hex_of(in));
    }
  }
  EXPECT_EQ(canon(to_bytes(key_chain(513, false, key_order::input)), encode_canonical).code,
            status::depth_exceeded);
}

TEST(Canonical, KeyChainsWithUnsortedSiblings) {
  // Unsorted keys at several levels of a chain: each level sorted, the chain
  // key among them (its length decides where it goes length-first).
  for (size_t depth : {size_t(1), size_t(2), size_t(3), size_t(7), size_t(100), size_t(509)}) {
    SCOPED_TRACE(depth);
    const bytes in = to_bytes(key_chain(depth, true, key_order::input));
    for (const auto& [flags, o] : k_orders) {
      SCOPED_TRACE(flags);
      const result r = canon(in, flags);
      ASSERT_EQ(r.code, status::ok);
      EXPECT_EQ(r.out, hex_of(key_chain(depth, true, o)));
    }
  }
  // Spelled out, one level: {0: 0, 1: 4, -1: 3, "zz...z": 1} in every order.
  EXPECT_EQ(canon(to_bytes(key_chain(1, true, key_order::input)), encode_canonical).out,
            "a4000001042003781e" + hex_of(std::string(30, 'z')) + "01");
  EXPECT_EQ(canon(to_bytes(key_chain(1, true, key_order::input)), encode_ctap2).out,
            "a4000001042003781e" + hex_of(std::string(30, 'z')) + "01");
  EXPECT_EQ(canon(to_bytes(key_chain(1, true, key_order::input)), encode_length_first).out,
            "a4000001042003781e" + hex_of(std::string(30, 'z')) + "01");
}

TEST(Canonical, DeepKeyChainsWithTheLimitRaised) {
  decode_options o;
  o.max_depth = 10000;
  for (bool siblings : {false, true}) {
    const bytes in = to_bytes(key_chain(4000, siblings, key_order::input));
    for (const auto& [flags, ord] : k_orders) {
      const result r = canon(in, flags, o);
      ASSERT_EQ(r.code, status::ok);
      EXPECT_EQ(r.out, hex_of(key_chain(4000, siblings, ord)));
    }
  }
  // Two chains of 4000 maps, equal once canonical (1 and 0x18 0x01 inside):
  // the second is the duplicate.
  const std::string a = std::string(4000, '\xa1') + '\x01' + std::string(4000, '\0');
  const std::string b = std::string(4000, '\xa1') + "\x18\x01" + std::string(4000, '\0');
  const result d = canon(to_bytes("\xa2" + a + '\x00' + b + '\x01'), encode_length_first, o);
  EXPECT_EQ(d.code, status::duplicate_key);
  EXPECT_EQ(d.offset, 2 * 4000 + 3u);
}

TEST(Canonical, TagsInKeyChainsFailInOutputOrderForCtap2) {
  // CTAP2 has no tags: the first one written is reported, here "a"'s (the
  // key map's second entry in the input).
  const result r = canon("a1 a2 6162 c100 6161 c101 00", encode_ctap2);
  EXPECT_EQ(r.code, status::invalid_argument);
  EXPECT_EQ(r.offset, 8u);
  const result deep = canon(
      to_bytes(std::string(300, '\xa1') + std::string("\xc1\x00", 2) + std::string(300, '\0')),
      encode_ctap2);
  EXPECT_EQ(deep.code, status::invalid_argument);
  EXPECT_EQ(deep.offset, 300u);
  // A bignum that fits is an integer; one that does not fails at its tag.
  EXPECT_EQ(canon("a1 a1 c2420001 00 00", encode_ctap2).out, "a1a1010000");
  const result big = canon("a1 a1 c2 49 010203040506070809 00 00", encode_ctap2);
  EXPECT_EQ(big.code, status::invalid_argument);
  EXPECT_EQ(big.offset, 2u);
  EXPECT_EQ(canon("a1 a1 c2 49 010203040506070809 00 00", encode_canonical).out,
            "a1a1c249010203040506070809"
            "0000");
}

TEST(Canonical, KeyChainsCostLinearWork) {
  // The nodes the tree-key paths visit (detail::canonical_work_counter()):
  // a bounded number per node however deep the keys nest. Writing each key
  // out at every level (before) cost about depth / 2 times the input.
  decode_options o;
  o.max_depth = 10000;
  for (size_t depth : {size_t(64), size_t(510), size_t(4000)}) {
    for (bool siblings : {false, true}) {
      SCOPED_TRACE(std::to_string(depth) + (siblings ? " with siblings" : ""));
      const bytes in = to_bytes(key_chain(depth, siblings, key_order::input));
      for (const auto& [flags, ord] : k_orders) {
        (void)ord;
        const uint64_t before = detail::canonical_work_counter();
        ASSERT_EQ(canon(in, flags, o).code, status::ok);
        const uint64_t work = detail::canonical_work_counter() - before;
        EXPECT_GE(work, depth);
        EXPECT_LE(work, 8 * in.size());
      }
    }
  }
}

}  // namespace
}  // namespace cbor_fast
