// mdoc_fuzz: mutable documents edited by a program of C API calls, against a
// model tree kept beside them. Every call's status (or NULL) is predicted from
// the documented rules (cbor_fast.h: a node is placed once, a container of the
// right kind, no cycles, indexes in range, removal detaches and lets a node be
// placed again, set_root); after each check step every node's type, size,
// parent, index, first child and next sibling are what the model says, the
// lookups find the model's first match, and cbor_mdoc_encode writes the model's
// preferred serialization of the root byte for byte (and reads back as one
// well-formed item). Under ASan a use of a detached or moved node shows.
//
// Input: configuration byte (fuzz_util.hpp; unused but for the shared layout),
// then the program: an opcode byte and its operands per call (see run()).
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "capi_util.hpp"
#include "cbor_fast.h"
#include "fuzz_util.hpp"
#include "strict_model.hpp"

using namespace cbor_fast_fuzz;

namespace {

/// The program's bytes, read front to back (0 once they run out).
struct program {
  const uint8_t* p;
  size_t n;
  bool more() const { return n != 0; }
  uint8_t u8() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  uint64_t u64(unsigned bytes) {
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i) v = v << 8 | u8();
    return v;
  }
  std::string str(size_t len) {
    std::string s;
    for (size_t i = 0; i < len && n != 0; ++i) s += char(u8());
    return s;
  }
};

enum kind : uint8_t { k_scalar, k_array, k_map, k_tag };

/// One node as the model sees it.
struct mnode {
  kind k = k_scalar;
  cbor_fast_type type = CBOR_FAST_TYPE_NONE;
  std::string enc;          ///< scalars: the preferred encoding
  std::string text;         ///< TEXT: the content (for map lookups)
  int int_major = -1;       ///< UINT 0 / NEGATIVE 1 (for integer lookups)
  uint64_t int_arg = 0;     ///< their argument
  uint64_t tag = 0;         ///< TAG: the number
  bool indefinite = false;  ///< ARRAY/MAP
  std::vector<size_t> kids;
  long parent = -1;
  bool placed = false;  ///< in a container or tag, or the root
};

struct state {
  cbor_mdoc* doc = nullptr;
  std::vector<mnode> m;
  std::vector<cbor_mnode*> lib;
  long root = -1;

  size_t add(mnode node, cbor_mnode* n) {
    FUZZ_CHECK(n != nullptr);
    m.push_back(std::move(node));
    lib.push_back(n);
    return m.size() - 1;
  }
  /// A node of the model, or -1 for NULL (one value past the last).
  long pick(program& p) const {
    const size_t v = size_t(p.u8()) | size_t(p.u8()) << 8;
    const size_t i = v % (m.size() + 1);
    return i == m.size() ? -1 : long(i);
  }
  cbor_mnode* L(long i) const { return i < 0 ? nullptr : lib[size_t(i)]; }

  bool is_ancestor_or_self(long a, long of) const {
    for (long x = of; x >= 0; x = m[size_t(x)].parent)
      if (x == a) return true;
    return false;
  }
  /// The status of placing `item` into `container` (check_new_child's rules
  /// as cbor_fast.h states them: invalid argument, then the kind, then cycles).
  cbor_fast_status place_status(long container, long item, kind want) const {
    if (container < 0 || item < 0 || m[size_t(item)].placed) return CBOR_FAST_ERR_INVALID_ARGUMENT;
    if (m[size_t(container)].k != want) return CBOR_FAST_ERR_TYPE_MISMATCH;
    if (is_ancestor_or_self(item, container)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
    return CBOR_FAST_OK;
  }
  void adopt(long container, long item, size_t at) {
    mnode& c = m[size_t(item)];
    c.parent = container;
    c.placed = true;
    std::vector<size_t>& kids = m[size_t(container)].kids;
    if (at == kids.size())
      kids.push_back(size_t(item));
    else
      kids[at] = size_t(item);
  }
  void detach(size_t i) {
    m[i].parent = -1;
    m[i].placed = false;
  }
};

mnode scalar(cbor_fast_type t, std::string enc) {
  mnode n;
  n.type = t;
  n.enc = std::move(enc);
  return n;
}

/// An array, map or tag node (no children yet).
mnode holder(kind k, cbor_fast_type t, uint64_t tag = 0) {
  mnode n;
  n.k = k;
  n.type = t;
  n.tag = tag;
  return n;
}

std::string head(uint8_t major, uint64_t v) {
  std::string s;
  put_head(s, major, v);
  return s;
}

mnode int_node(bool negative, uint64_t arg) {
  mnode n =
      scalar(negative ? CBOR_FAST_TYPE_NEGATIVE : CBOR_FAST_TYPE_UINT, head(negative ? 1 : 0, arg));
  n.int_major = negative ? 1 : 0;
  n.int_arg = arg;
  return n;
}

/// The model's encoding of node i (preferred serialization).
void encode_model(const state& s, size_t i, std::string& out) {
  const mnode& n = s.m[i];
  switch (n.k) {
    case k_scalar: out += n.enc; break;
    case k_tag:
      if ((n.tag == 2 || n.tag == 3) && s.m[n.kids[0]].type == CBOR_FAST_TYPE_BYTES) {
        // A bignum is written in preferred form (RFC 8949 3.4.3): no leading
        // zero bytes, an integer when it fits 64 bits.
        std::string big;
        put_head(big, 6, n.tag);
        big += s.m[n.kids[0]].enc;
        prefer_bignum(big, 0, n.tag);
        out += big;
        break;
      }
      put_head(out, 6, n.tag);
      encode_model(s, n.kids[0], out);
      break;
    case k_array:
    case k_map: {
      const uint8_t major = n.k == k_array ? 4 : 5;
      if (n.indefinite)
        out += char(major << 5 | 31);
      else
        put_head(out, major, n.k == k_array ? n.kids.size() : n.kids.size() / 2);
      for (size_t c : n.kids) encode_model(s, c, out);
      if (n.indefinite) out += char(0xff);
      break;
    }
  }
}

/// Every node's navigation, sizes and lookups, and the document's encoding.
void check_all(const state& s) {
  for (size_t i = 0; i < s.m.size(); ++i) {
    const mnode& n = s.m[i];
    const cbor_mnode* x = s.lib[i];
    FUZZ_CHECK(cbor_mnode_type(x) == n.type);
    const size_t size = n.k == k_array ? n.kids.size() : n.k == k_map ? n.kids.size() / 2 : 0;
    FUZZ_CHECK(cbor_mnode_size(x) == size);
    FUZZ_CHECK(cbor_mnode_parent(x) == s.L(n.parent));
    FUZZ_CHECK(cbor_mnode_child(x) == (n.kids.empty() ? nullptr : s.lib[n.kids[0]]));
    size_t index = 0;
    const cbor_mnode* next = nullptr;
    if (n.parent >= 0 && s.m[size_t(n.parent)].k != k_tag) {
      const std::vector<size_t>& sib = s.m[size_t(n.parent)].kids;
      while (sib[index] != i) ++index;
      if (index + 1 < sib.size()) next = s.lib[sib[index + 1]];
    }
    FUZZ_CHECK(cbor_mnode_index(x) == index);
    FUZZ_CHECK(cbor_mnode_next(x) == next);
    if (n.k == k_tag) FUZZ_CHECK(cbor_mnode_tag_content(x) == s.lib[n.kids[0]]);
    if (n.k == k_array)
      for (size_t j = 0; j < n.kids.size(); ++j)
        FUZZ_CHECK(cbor_mnode_array_get(x, j) == s.lib[n.kids[j]]);
    FUZZ_CHECK(cbor_mnode_array_get(x, n.kids.size()) == nullptr);
    if (n.k == k_map) {
      for (size_t j = 0; j < size; ++j) {
        FUZZ_CHECK(cbor_mnode_map_key(x, j) == s.lib[n.kids[2 * j]]);
        FUZZ_CHECK(cbor_mnode_map_value(x, j) == s.lib[n.kids[2 * j + 1]]);
        // Lookups by each key give the first pair with that key.
        const mnode& key = s.m[n.kids[2 * j]];
        if (key.type == CBOR_FAST_TYPE_TEXT) {
          size_t first = 0;
          while (!(s.m[n.kids[2 * first]].type == CBOR_FAST_TYPE_TEXT &&
                   s.m[n.kids[2 * first]].text == key.text))
            ++first;
          FUZZ_CHECK(cbor_mnode_map_find(x, key.text.data(), key.text.size()) ==
                     s.lib[n.kids[2 * first + 1]]);
        }
        if (key.int_major >= 0 && (key.int_major == 0 ? key.int_arg <= uint64_t(INT64_MAX)
                                                      : key.int_arg <= uint64_t(INT64_MAX))) {
          const int64_t v = key.int_major == 0 ? int64_t(key.int_arg) : -1 - int64_t(key.int_arg);
          size_t first = 0;
          while (!(s.m[n.kids[2 * first]].int_major == key.int_major &&
                   s.m[n.kids[2 * first]].int_arg == key.int_arg))
            ++first;
          FUZZ_CHECK(cbor_mnode_map_find_int(x, v) == s.lib[n.kids[2 * first + 1]]);
        }
      }
    }
    FUZZ_CHECK(cbor_mnode_is_indefinite(x) == (n.indefinite ? 1 : 0));
    // The getters read back what the node was made with.
    const char* text = nullptr;
    const uint8_t* data = nullptr;
    size_t len = 0;
    const cbor_fast_status ts = cbor_mnode_get_text(x, &text, &len);
    FUZZ_CHECK((ts == CBOR_FAST_OK) == (n.type == CBOR_FAST_TYPE_TEXT));
    if (ts == CBOR_FAST_OK) FUZZ_CHECK(std::string(text, len) == n.text);
    const cbor_fast_status bs = cbor_mnode_get_bytes(x, &data, &len);
    FUZZ_CHECK((bs == CBOR_FAST_OK) == (n.type == CBOR_FAST_TYPE_BYTES));
    if (bs == CBOR_FAST_OK) {
      std::string h;
      put_head(h, 2, len);
      FUZZ_CHECK(h + std::string(reinterpret_cast<const char*>(data), len) == n.enc);
    }
    uint64_t raw = 0;
    int negative = 0;
    const cbor_fast_status is = cbor_mnode_get_int_raw(x, &raw, &negative);
    FUZZ_CHECK((is == CBOR_FAST_OK) == (n.int_major >= 0));
    if (is == CBOR_FAST_OK) FUZZ_CHECK(raw == n.int_arg && negative == n.int_major);
    uint64_t tag = 0;
    const cbor_fast_status gs = cbor_mnode_get_tag(x, &tag);
    FUZZ_CHECK((gs == CBOR_FAST_OK) == (n.k == k_tag));
    if (gs == CBOR_FAST_OK) FUZZ_CHECK(tag == n.tag);
  }
  FUZZ_CHECK(cbor_mdoc_root(s.doc) == s.L(s.root));
  cbor_writer* w = nullptr;
  FUZZ_CHECK(cbor_writer_new(nullptr, &w) == CBOR_FAST_OK);
  const cbor_fast_status es = cbor_mdoc_encode(s.doc, w);
  if (s.root < 0) {
    FUZZ_CHECK(es == CBOR_FAST_ERR_INVALID_ARGUMENT);
  } else {
    FUZZ_CHECK(es == CBOR_FAST_OK);
    const std::vector<uint8_t> got = finish_writer(w);
    std::string want;
    encode_model(s, size_t(s.root), want);
    if (std::string(got.begin(), got.end()) != want) {
      std::fprintf(stderr, "encoded:");
      for (uint8_t b : got) std::fprintf(stderr, " %02x", b);
      std::fprintf(stderr, "\nmodel:  ");
      for (char b : want) std::fprintf(stderr, " %02x", uint8_t(b));
      std::fprintf(stderr, "\n");
    }
    FUZZ_CHECK(std::string(got.begin(), got.end()) == want);
    cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
    o.max_depth = UINT32_MAX;
    o.max_container_items = UINT64_MAX;
    cbor_doc* d = nullptr;
    FUZZ_CHECK(cbor_decode(got.data(), got.size(), CBOR_FAST_DECODE_EXACT, &o, &d, nullptr) ==
               CBOR_FAST_OK);
    cbor_doc_free(d);
  }
  cbor_writer_free(w);
}

/// The text key operand of map_set / map_remove: up to 3 bytes, so keys repeat.
std::string key_text(program& p) { return p.str(p.u8() % 4); }

/// A string constructor's content: mostly as short as keys, sometimes long
/// enough for 2- and 3-byte heads (24 and 256 bytes on).
std::string content(program& p) {
  const uint8_t b = p.u8();
  return p.str(b < 192 ? b % 4 : size_t(b % 64) * 5);
}

void run(state& s, program& p) {
  while (p.more()) {
    switch (p.u8() % 24) {
      // ---- constructors: a new detached node, or NULL where the model says ----
      case 0: {
        const uint64_t v = p.u64(p.u8() % 9);
        s.add(int_node(false, v), cbor_mdoc_uint(s.doc, v));
        break;
      }
      case 1: {
        const auto v = int64_t(p.u64(8));
        s.add(v >= 0 ? int_node(false, uint64_t(v)) : int_node(true, uint64_t(-1 - v)),
              cbor_mdoc_int(s.doc, v));
        break;
      }
      case 2: {
        const uint64_t v = p.u64(p.u8() % 9);
        s.add(int_node(true, v), cbor_mdoc_negative(s.doc, v));
        break;
      }
      case 3: {
        const std::string t = content(p);
        mnode n = scalar(CBOR_FAST_TYPE_TEXT, head(3, t.size()) + t);
        n.text = t;
        s.add(n, cbor_mdoc_text(s.doc, t.data(), t.size()));
        break;
      }
      case 4: {
        const std::string b = content(p);
        s.add(scalar(CBOR_FAST_TYPE_BYTES, head(2, b.size()) + b),
              cbor_mdoc_bytes(s.doc, b.data(), b.size()));
        break;
      }
      case 5: s.add(holder(k_array, CBOR_FAST_TYPE_ARRAY), cbor_mdoc_array(s.doc)); break;
      case 6: s.add(holder(k_map, CBOR_FAST_TYPE_MAP), cbor_mdoc_map(s.doc)); break;
      case 7: {
        const uint64_t num = p.u64(p.u8() % 9);
        const long c = s.pick(p);
        cbor_mnode* t = cbor_mdoc_tag(s.doc, num, s.L(c));
        if (c < 0 || s.m[size_t(c)].placed) {
          FUZZ_CHECK(t == nullptr);
          break;
        }
        const size_t id = s.add(holder(k_tag, CBOR_FAST_TYPE_TAG, num), t);
        s.adopt(long(id), c, 0);
        break;
      }
      case 8: {
        // A float at the width asked for: shortest, or half, single or
        // double where that width holds the value exactly (a width that
        // cannot would round it, which the model leaves alone: shortest then).
        const uint64_t bits = p.u64(8);
        unsigned want = 2u << (p.u8() % 4);  // 2, 4, 8 or 16 (shortest)
        double d;
        std::memcpy(&d, &bits, sizeof d);
        uint64_t narrow = bits;
        if (want == 2 && !narrow_float_bits(bits, 5, 10, narrow)) want = 16;
        if (want == 4 && !narrow_float_bits(bits, 8, 23, narrow)) want = 16;
        const unsigned width = want == 16 ? shortest_float(bits, narrow) : want;
        std::string enc(1, char(width == 2 ? 0xf9 : width == 4 ? 0xfa : 0xfb));
        for (unsigned i = width; i-- > 0;) enc += char(uint8_t(narrow >> (8 * i)));
        const cbor_fast_float_width asked = want == 2   ? CBOR_FAST_FLOAT_HALF
                                            : want == 4 ? CBOR_FAST_FLOAT_SINGLE
                                            : want == 8 ? CBOR_FAST_FLOAT_DOUBLE
                                                        : CBOR_FAST_FLOAT_SHORTEST;
        cbor_mnode* f = cbor_mdoc_float(s.doc, d, asked);
        FUZZ_CHECK(cbor_mnode_float_width(f) == (want == 16 ? 0u : want));
        s.add(scalar(CBOR_FAST_TYPE_FLOAT, enc), f);
        break;
      }
      case 9: {
        const uint8_t v = p.u8();
        cbor_mnode* n = cbor_mdoc_simple(s.doc, v);
        if (v >= 24 && v < 32) {
          FUZZ_CHECK(n == nullptr);
          break;
        }
        const cbor_fast_type t = v == 20 || v == 21 ? CBOR_FAST_TYPE_BOOL
                                 : v == 22          ? CBOR_FAST_TYPE_NULL
                                 : v == 23          ? CBOR_FAST_TYPE_UNDEFINED
                                                    : CBOR_FAST_TYPE_SIMPLE;
        s.add(scalar(t, v < 24 ? std::string(1, char(0xe0 | v)) : std::string("\xf8") + char(v)),
              n);
        break;
      }
      case 10: {
        // A bignum: an integer when the magnitude without leading zeros fits
        // 64 bits, else tag 2/3 over those bytes (two nodes).
        const bool negative = (p.u8() & 1) != 0;
        const std::string mag = p.str(p.u8() % 12);
        cbor_mnode* n = cbor_mdoc_bignum(s.doc, reinterpret_cast<const uint8_t*>(mag.data()),
                                         mag.size(), negative ? 1 : 0);
        size_t z = 0;
        while (z < mag.size() && mag[z] == 0) ++z;
        const std::string digits = mag.substr(z);
        if (digits.size() <= 8) {
          uint64_t v = 0;
          for (char c : digits) v = v << 8 | uint8_t(c);
          s.add(int_node(negative, v), n);
          break;
        }
        FUZZ_CHECK(n != nullptr);
        const size_t bytes = s.add(scalar(CBOR_FAST_TYPE_BYTES, head(2, digits.size()) + digits),
                                   cbor_mnode_tag_content(n));
        const size_t id = s.add(holder(k_tag, CBOR_FAST_TYPE_TAG, negative ? 3 : 2), n);
        s.adopt(long(id), long(bytes), 0);
        break;
      }
      // ---- building --------------------------------------------------------------
      case 11: {
        const long a = s.pick(p), x = s.pick(p);
        const cbor_fast_status want = s.place_status(a, x, k_array);
        FUZZ_CHECK(cbor_mnode_append(s.L(a), s.L(x)) == want);
        if (want == CBOR_FAST_OK) s.adopt(a, x, s.m[size_t(a)].kids.size());
        break;
      }
      case 12: {
        const long a = s.pick(p), x = s.pick(p);
        const size_t i = p.u8() % 8;
        cbor_fast_status want = s.place_status(a, x, k_array);
        if (want == CBOR_FAST_OK && i >= s.m[size_t(a)].kids.size())
          want = CBOR_FAST_ERR_OUT_OF_RANGE;
        FUZZ_CHECK(cbor_mnode_array_set(s.L(a), i, s.L(x)) == want);
        if (want == CBOR_FAST_OK) {
          s.detach(s.m[size_t(a)].kids[i]);
          s.adopt(a, x, i);
        }
        break;
      }
      case 13: {
        const long mp = s.pick(p), k = s.pick(p), v = s.pick(p);
        cbor_fast_status want = s.place_status(mp, k, k_map);
        if (want == CBOR_FAST_OK) want = s.place_status(mp, v, k_map);
        if (want == CBOR_FAST_OK && k == v) want = CBOR_FAST_ERR_INVALID_ARGUMENT;
        FUZZ_CHECK(cbor_mnode_map_put(s.L(mp), s.L(k), s.L(v)) == want);
        if (want == CBOR_FAST_OK) {
          s.adopt(mp, k, s.m[size_t(mp)].kids.size());
          s.adopt(mp, v, s.m[size_t(mp)].kids.size());
        }
        break;
      }
      case 14: {
        const long mp = s.pick(p), v = s.pick(p);
        const std::string key = key_text(p);
        const cbor_fast_status want = s.place_status(mp, v, k_map);
        FUZZ_CHECK(cbor_mnode_map_set(s.L(mp), key.data(), key.size(), s.L(v)) == want);
        if (want != CBOR_FAST_OK) break;
        std::vector<size_t>& kids = s.m[size_t(mp)].kids;
        size_t i = 0;
        while (i < kids.size() &&
               !(s.m[kids[i]].type == CBOR_FAST_TYPE_TEXT && s.m[kids[i]].text == key))
          i += 2;
        if (i < kids.size()) {
          s.detach(kids[i + 1]);
          s.adopt(mp, v, i + 1);
        } else {
          // The library made the key node: take it into the model (add()
          // moves the model's nodes, kids with them).
          const size_t pairs = kids.size() / 2;
          mnode kn = scalar(CBOR_FAST_TYPE_TEXT, head(3, key.size()) + key);
          kn.text = key;
          const size_t kid = s.add(kn, cbor_mnode_map_key(s.L(mp), pairs));
          s.adopt(mp, long(kid), 2 * pairs);
          s.adopt(mp, v, 2 * pairs + 1);
        }
        break;
      }
      case 15: {
        const long n = s.pick(p);
        const bool on = (p.u8() & 1) != 0;
        const cbor_fast_status want = n < 0 ? CBOR_FAST_ERR_INVALID_ARGUMENT
                                      : (s.m[size_t(n)].k == k_array || s.m[size_t(n)].k == k_map)
                                          ? CBOR_FAST_OK
                                          : CBOR_FAST_ERR_TYPE_MISMATCH;
        FUZZ_CHECK(cbor_mnode_set_indefinite(s.L(n), on ? 1 : 0) == want);
        if (want == CBOR_FAST_OK) s.m[size_t(n)].indefinite = on;
        break;
      }
      // ---- removal -----------------------------------------------------------------
      case 16: {
        const long a = s.pick(p);
        const size_t i = p.u8() % 8;
        const cbor_fast_status want = a < 0                         ? CBOR_FAST_ERR_INVALID_ARGUMENT
                                      : s.m[size_t(a)].k != k_array ? CBOR_FAST_ERR_TYPE_MISMATCH
                                      : i >= s.m[size_t(a)].kids.size() ? CBOR_FAST_ERR_OUT_OF_RANGE
                                                                        : CBOR_FAST_OK;
        FUZZ_CHECK(cbor_mnode_array_remove(s.L(a), i) == want);
        if (want == CBOR_FAST_OK) {
          std::vector<size_t>& kids = s.m[size_t(a)].kids;
          s.detach(kids[i]);
          kids.erase(kids.begin() + long(i));
        }
        break;
      }
      case 17:
      case 18:
      case 19: {
        const int how = int(p.u8() % 3);  // at an index, by text, by integer
        const long mp = s.pick(p);
        size_t pair = SIZE_MAX;
        cbor_fast_status got;
        const std::vector<size_t>* kids = mp >= 0 ? &s.m[size_t(mp)].kids : nullptr;
        if (how == 0) {
          const size_t i = p.u8() % 8;
          got = cbor_mnode_map_remove_at(s.L(mp), i);
          if (kids != nullptr && i < kids->size() / 2) pair = i;
        } else if (how == 1) {
          const std::string key = key_text(p);
          got = cbor_mnode_map_remove(s.L(mp), key.data(), key.size());
          for (size_t i = 0; kids != nullptr && i < kids->size() && pair == SIZE_MAX; i += 2)
            if (s.m[(*kids)[i]].type == CBOR_FAST_TYPE_TEXT && s.m[(*kids)[i]].text == key)
              pair = i / 2;
        } else {
          const auto key = int64_t(int8_t(p.u8()));  // small keys, so they match
          got = cbor_mnode_map_remove_int(s.L(mp), key);
          const int major = key >= 0 ? 0 : 1;
          const uint64_t arg = key >= 0 ? uint64_t(key) : uint64_t(-1 - key);
          for (size_t i = 0; kids != nullptr && i < kids->size() && pair == SIZE_MAX; i += 2)
            if (s.m[(*kids)[i]].int_major == major && s.m[(*kids)[i]].int_arg == arg) pair = i / 2;
        }
        const cbor_fast_status want = mp < 0                       ? CBOR_FAST_ERR_INVALID_ARGUMENT
                                      : s.m[size_t(mp)].k != k_map ? CBOR_FAST_ERR_TYPE_MISMATCH
                                      : pair == SIZE_MAX           ? CBOR_FAST_ERR_OUT_OF_RANGE
                                                                   : CBOR_FAST_OK;
        FUZZ_CHECK(got == want);
        if (want == CBOR_FAST_OK) {
          std::vector<size_t>& k = s.m[size_t(mp)].kids;
          s.detach(k[2 * pair]);
          s.detach(k[2 * pair + 1]);
          k.erase(k.begin() + long(2 * pair), k.begin() + long(2 * pair + 2));
        }
        break;
      }
      case 20: {
        const long n = s.pick(p);
        const cbor_fast_status want = n < 0                   ? CBOR_FAST_ERR_INVALID_ARGUMENT
                                      : n == s.root           ? CBOR_FAST_OK
                                      : s.m[size_t(n)].placed ? CBOR_FAST_ERR_INVALID_ARGUMENT
                                                              : CBOR_FAST_OK;
        FUZZ_CHECK(cbor_mdoc_set_root(s.doc, s.L(n)) == want);
        if (want == CBOR_FAST_OK && n != s.root) {
          if (s.root >= 0) s.m[size_t(s.root)].placed = false;
          s.m[size_t(n)].placed = true;
          s.root = n;
        }
        break;
      }
      default: check_all(s); break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  take_config(data, size);
  state s;
  FUZZ_CHECK(cbor_mdoc_new(nullptr, &s.doc) == CBOR_FAST_OK);
  program p{data, size};
  run(s, p);
  check_all(s);
  cbor_mdoc_free(s.doc);
  return 0;
}
