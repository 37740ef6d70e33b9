// canonical_fuzz: the canonical encodings (encode_canonical, encode_length_first,
// encode_ctap2) of the decoded input against a model built on strict_model.hpp
// (written from RFC 8949 sections 3.4.3, 4.2.1 and 4.2.3 and the CTAP2
// canonical form, not from src/document/canonical.cpp):
//  - the item's preferred serialization (shortest heads, definite lengths,
//    joined strings, preferred bignums; floats at their shortest exact width,
//    or as they are for CTAP2, every NaN as f97e00 for length-first),
//  - every map's entries sorted by its order (bytewise; length, then bytewise;
//    major type, then length, then bytewise), inner maps first,
//  - duplicate_key where two keys of a map come out the same, and for CTAP2
//    invalid_argument where a tag is left.
// The library must give exactly the model's bytes or its status, through
// encode(node), canonicalize(), the C API's cbor_canonicalize() and a mutable
// copy's encode; its output must be a fixed point, and the core deterministic
// output must pass the deterministic check.
//
// Input: configuration byte (fuzz_util.hpp; a: with encode_preferred added;
// b: through the mutable document too; the depth code is decode's max_depth),
// then the bytes.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "capi_util.hpp"
#include "cbor_fast.h"
#include "cbor_fast/document.hpp"
#include "cbor_fast/writer.hpp"
#include "fuzz_util.hpp"
#include "strict_model.hpp"

using namespace cbor_fast_fuzz;
using cbor_fast::status;

namespace {

enum class order { bytewise, length_first, ctap2 };

struct model_result {
  bool duplicate = false;  ///< two keys of one map came out the same
  bool tag_left = false;   ///< CTAP2: a tag other than a bignum fitting 64 bits
  std::string bytes;
};

/// Orders two key encodings as `o` does; 0 when they are the same bytes.
int compare_keys(const std::string& a, const std::string& b, order o) {
  if (o == order::ctap2) {
    const int ma = a.empty() ? 0 : uint8_t(a[0]) >> 5, mb = b.empty() ? 0 : uint8_t(b[0]) >> 5;
    if (ma != mb) return ma < mb ? -1 : 1;
  }
  if (o != order::bytewise && a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return compare_bytes(a, b);
}

/// The model: `pref` is one item's preferred serialization (canonical_item);
/// every map sorted by `o`, inner maps first; for length-first every NaN as
/// f97e00 (RFC 7049 3.9); for CTAP2 a tag left over is noted.
model_result sorted_form(const std::string& pref, order o) {
  model_result r;
  auto leaf = [o](const std::string& head, uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return o == order::length_first && d != d ? std::string("\xf9\x7e\x00", 3) : head;
  };
  auto before = [o](const std::pair<std::string, std::string>& x,
                    const std::pair<std::string, std::string>& y) {
    return compare_keys(x.first, y.first, o) < 0;
  };
  r.bytes = sorted_tree(pref, leaf, before, &r.duplicate);
  // A tag's head is its own node: any major type 6 head left is a tag.
  if (o == order::ctap2) {
    const auto* p = reinterpret_cast<const uint8_t*>(pref.data());
    size_t pos = 0;
    while (pos < pref.size()) {
      const uint8_t major = p[pos] >> 5, ai = p[pos] & 31;
      const size_t hs = ai < 24 ? 1 : 1 + (size_t(1) << (ai - 24));
      const uint64_t arg = ai < 24 ? ai : load_be(p + pos + 1, hs - 1);
      if (major == 6) r.tag_left = true;
      pos += hs + ((major == 2 || major == 3) ? size_t(arg) : 0);
    }
  }
  return r;
}

/// Whether `offset` is where a map key (keys) or a tag (!keys) of the
/// document starts (a walk with a stack of its own).
bool is_head_of(const cbor_fast::document& doc, size_t offset, bool keys) {
  std::vector<cbor_fast::node> todo{doc.root()};
  while (!todo.empty()) {
    const cbor_fast::node n = todo.back();
    todo.pop_back();
    if (!keys && n.type() == cbor_fast::item_type::tag && n.offset() == offset) return true;
    if (n.type() == cbor_fast::item_type::map)
      for (size_t i = 0; i < n.size(); ++i)
        if (keys && n.map_key(i).offset() == offset) return true;
    if (n.type() == cbor_fast::item_type::tag) {
      todo.push_back(n.tag_content());
    } else if (n.type() == cbor_fast::item_type::array || n.type() == cbor_fast::item_type::map) {
      for (cbor_fast::node k = n.first_child(); k; k = k.next_sibling()) todo.push_back(k);
    }
  }
  return false;
}

std::string as_string(const cbor_fast::writer& w) {
  return std::string(reinterpret_cast<const char*>(w.data()), w.size());
}

void check_mode(const uint8_t* data, size_t size, size_t item_end,
                const cbor_fast::decode_options& o, const cbor_fast::document& doc, uint32_t flag,
                const config& c) {
  const order ord = flag == cbor_fast::encode_canonical      ? order::bytewise
                    : flag == cbor_fast::encode_length_first ? order::length_first
                                                             : order::ctap2;
  std::string pref;
  size_t pos = 0;
  FUZZ_CHECK(canonical_item(data, size, pos, pref, ord == order::ctap2));
  FUZZ_CHECK(pos == item_end);
  const model_result m = sorted_form(pref, ord);

  const uint32_t flags = flag | (c.a ? uint32_t(cbor_fast::encode_preferred) : 0u);
  cbor_fast::writer w;
  cbor_fast::error_info e;
  const status s = cbor_fast::encode(doc.root(), w, flags, &e);
  if (!m.duplicate && !m.tag_left) {
    if (s != status::ok)
      std::fprintf(stderr, "mode %u: %s at %zu, the model has %zu bytes\n", flag,
                   cbor_fast::status_name(s), e.offset, m.bytes.size());
    FUZZ_CHECK(s == status::ok);
    FUZZ_CHECK(as_string(w) == m.bytes);
  } else {
    FUZZ_CHECK((m.duplicate && s == status::duplicate_key) ||
               (m.tag_left && s == status::invalid_argument));
    FUZZ_CHECK(e.code == s && e.offset < item_end);
    // A duplicate is reported at a map key, a CTAP2 refusal at a tag.
    FUZZ_CHECK(s == status::duplicate_key ? is_head_of(doc, e.offset, true)
                                          : is_head_of(doc, e.offset, false));
  }

  // canonicalize() over the input bytes, and the C API, say the same.
  {
    cbor_fast::writer w2;
    cbor_fast::error_info e2;
    const status s2 = cbor_fast::canonicalize(data, size, w2, flags, o, &e2);
    FUZZ_CHECK(s2 == s);
    if (s == status::ok)
      FUZZ_CHECK(as_string(w2) == m.bytes);
    else
      FUZZ_CHECK(e2.offset == e.offset);
    cbor_writer* cw = nullptr;
    FUZZ_CHECK(cbor_writer_new(nullptr, &cw) == CBOR_FAST_OK);
    cbor_fast_decode_options co = CBOR_FAST_DECODE_OPTIONS_INIT;
    co.max_depth = o.max_depth;
    cbor_fast_error ce = CBOR_FAST_ERROR_INIT;
    const uint32_t dflags = (o.flags & cbor_fast::decode_validate_utf8) != 0
                                ? uint32_t(CBOR_FAST_DECODE_VALIDATE_UTF8)
                                : 0u;
    const cbor_fast_status cs = cbor_canonicalize(data, size, flags, dflags, &co, cw, &ce);
    FUZZ_CHECK(int(cs) == int(s));
    if (cs == CBOR_FAST_OK) {
      const std::vector<uint8_t> got = finish_writer(cw);
      FUZZ_CHECK(std::string(got.begin(), got.end()) == m.bytes);
    } else {
      FUZZ_CHECK(ce.offset == e.offset);
    }
    cbor_writer_free(cw);
  }
  // The same through a mutable copy of the document (the C API): the same
  // status, and on success the same bytes.
  if (c.b) {
    cbor_doc* cd = nullptr;
    cbor_fast_decode_options co = CBOR_FAST_DECODE_OPTIONS_INIT;
    co.max_depth = o.max_depth;
    const uint32_t dflags = (o.flags & cbor_fast::decode_validate_utf8) != 0
                                ? uint32_t(CBOR_FAST_DECODE_VALIDATE_UTF8)
                                : 0u;
    FUZZ_CHECK(cbor_decode(data, size, dflags, &co, &cd, nullptr) == CBOR_FAST_OK);
    cbor_mdoc* md = nullptr;
    FUZZ_CHECK(cbor_doc_to_mdoc(cd, nullptr, &md) == CBOR_FAST_OK);
    cbor_writer* cw = nullptr;
    FUZZ_CHECK(cbor_writer_new(nullptr, &cw) == CBOR_FAST_OK);
    FUZZ_CHECK(int(cbor_mdoc_encode_flags(md, flags, cw)) == int(s));
    if (s == status::ok) {
      const std::vector<uint8_t> got = finish_writer(cw);
      FUZZ_CHECK(std::string(got.begin(), got.end()) == m.bytes);
    }
    cbor_writer_free(cw);
    cbor_mdoc_free(md);
    cbor_doc_free(cd);
  }
  if (s != status::ok) return;

  // Into the caller's buffer: one byte short is buffer_too_small with the
  // size needed counted; exactly the size gives the bytes. NULL options are
  // the defaults (the depth code 0).
  {
    std::vector<uint8_t> buf(m.bytes.size() + 1);
    const cbor_fast_decode_options* opts = nullptr;
    cbor_fast_decode_options co = CBOR_FAST_DECODE_OPTIONS_INIT;
    co.max_depth = o.max_depth;
    if (c.depth_code != 0) opts = &co;
    const uint32_t dflags = (o.flags & cbor_fast::decode_validate_utf8) != 0
                                ? uint32_t(CBOR_FAST_DECODE_VALIDATE_UTF8)
                                : 0u;
    for (const size_t cap : {m.bytes.size() - 1, m.bytes.size()}) {
      if (cap > m.bytes.size()) continue;  // an empty output has no shorter buffer
      cbor_writer* cw = nullptr;
      FUZZ_CHECK(cbor_writer_new_buffer(buf.data(), cap, nullptr, &cw) == CBOR_FAST_OK);
      const cbor_fast_status cs = cbor_canonicalize(data, size, flags, dflags, opts, cw, nullptr);
      FUZZ_CHECK(cbor_writer_size(cw) == m.bytes.size());
      if (cap < m.bytes.size()) {
        FUZZ_CHECK(cs == CBOR_FAST_ERR_BUFFER_TOO_SMALL);
      } else {
        FUZZ_CHECK(cs == CBOR_FAST_OK);
        FUZZ_CHECK(std::memcmp(buf.data(), m.bytes.data(), m.bytes.size()) == 0);
      }
      cbor_writer_free(cw);
    }
  }

  // A fixed point: the output canonicalizes to itself.
  {
    cbor_fast::decode_options deep;
    deep.max_depth = UINT32_MAX;
    cbor_fast::writer w3;
    FUZZ_CHECK(cbor_fast::canonicalize(w.data(), w.size(), w3, flags, deep) == status::ok);
    FUZZ_CHECK(as_string(w3) == m.bytes);
  }
  // Core deterministic output passes the deterministic check.
  if (ord == order::bytewise) {
    cbor_fast::decode_options strict;
    strict.max_depth = UINT32_MAX;
    strict.flags = cbor_fast::decode_deterministic | cbor_fast::decode_exact;
    cbor_fast::document d2;
    cbor_fast::error_info e4;
    const status s4 = cbor_fast::decode(w.data(), w.size(), d2, strict, &e4);
    if (s4 != status::ok)
      std::fprintf(stderr, "canonical output fails the deterministic check: %s at %zu\n",
                   cbor_fast::status_name(s4), e4.offset);
    FUZZ_CHECK(s4 == status::ok);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const config c = take_config(data, size);
  cbor_fast::decode_options o;
  o.max_depth = c.max_depth;
  if (c.utf8) o.flags |= cbor_fast::decode_validate_utf8;
  cbor_fast::document doc;
  if (cbor_fast::decode(data, size, doc, o) != status::ok) return 0;
  // Where the first item ends (the model reads it again from the bytes).
  cbor_fast::reader_options ro;
  ro.max_depth = UINT32_MAX;
  cbor_fast::reader r(data, size, ro);
  FUZZ_CHECK(r.skip() == status::ok);
  const size_t item_end = r.offset();
  for (const uint32_t flag :
       {uint32_t(cbor_fast::encode_canonical), uint32_t(cbor_fast::encode_length_first),
        uint32_t(cbor_fast::encode_ctap2)})
    check_mode(data, size, item_end, o, doc, flag, c);
  return 0;
}
