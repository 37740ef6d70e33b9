// A model of the strict checks for the fuzz targets, written from RFC 8949
// (section 4.2.1 core deterministic encoding, section 5.6 duplicate keys)
// without looking at src/reader/strict.cpp: shortest heads, shortest exact
// float widths, and the preferred re-encoding of one well-formed item, which
// serves as the canonical form two map keys are compared by.
#ifndef CBOR_FAST_FUZZ_STRICT_MODEL_HPP
#define CBOR_FAST_FUZZ_STRICT_MODEL_HPP

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_util.hpp"

namespace cbor_fast_fuzz {

/// The binary16/binary32 bits (exp_bits/mant_bits describe the format) of the
/// binary64 value `bits`, when that format holds it exactly (NaN payloads
/// included); false otherwise. Candidate bits are derived, then confirmed by
/// widening them back.
inline bool narrow_float_bits(uint64_t bits, unsigned exp_bits, unsigned mant_bits, uint64_t& out) {
  const uint64_t sign = bits >> 63;
  const uint64_t e = (bits >> 52) & 0x7ff;
  const uint64_t m = bits & ((uint64_t(1) << 52) - 1);
  const uint64_t exp_all = (uint64_t(1) << exp_bits) - 1;
  uint64_t cand;
  if (e == 0x7ff) {
    cand = exp_all << mant_bits | m >> (52 - mant_bits);
  } else if (e == 0) {
    if (m != 0) return false;  // binary64 subnormals are below both narrow ranges
    cand = 0;
  } else {
    const int64_t exp = int64_t(e) - 1023;
    const int64_t bias = int64_t(exp_all >> 1);
    const int64_t emin = 1 - bias;
    if (exp > bias) return false;
    if (exp >= emin) {
      cand = uint64_t(exp + bias) << mant_bits | m >> (52 - mant_bits);
    } else {
      // Subnormal in the narrow format: value = k * 2^(emin - mant_bits).
      const int64_t shift = 52 + emin - int64_t(mant_bits) - exp;
      if (shift > 52) return false;
      cand = ((uint64_t(1) << 52) | m) >> shift;
    }
  }
  cand |= sign << (exp_bits + mant_bits);
  if (widen_float_bits(cand, exp_bits, mant_bits) != bits) return false;
  out = cand;
  return true;
}

/// Shortest width (2, 4 or 8) holding the binary64 value `bits` exactly, and
/// the bits in that width.
inline unsigned shortest_float(uint64_t bits, uint64_t& narrow) {
  if (narrow_float_bits(bits, 5, 10, narrow)) return 2;
  if (narrow_float_bits(bits, 8, 23, narrow)) return 4;
  narrow = bits;
  return 8;
}

/// Appends the shortest head for major type `major` and argument v.
inline void put_head(std::string& out, uint8_t major, uint64_t v) {
  const char m = char(major << 5);
  unsigned n;
  if (v < 24) {
    out += char(m | char(v));
    return;
  } else if (v <= 0xff) {
    out += char(m | 24);
    n = 1;
  } else if (v <= 0xffff) {
    out += char(m | 25);
    n = 2;
  } else if (v <= 0xffffffffu) {
    out += char(m | 26);
    n = 4;
  } else {
    out += char(m | 27);
    n = 8;
  }
  for (unsigned i = n; i-- > 0;) out += char(uint8_t(v >> (8 * i)));
}

/// Whether the (complete, definite or indefinite) head at p is the shortest
/// form RFC 8949 section 4.2.1 asks for: shortest argument, and for floats the
/// shortest width that keeps the value. Indefinite heads count as shortest
/// here (they fail the separate indefinite-length rule).
inline bool head_is_shortest(const uint8_t* p) {
  const uint8_t major = p[0] >> 5;
  const uint8_t ai = p[0] & 31;
  if (ai < 24 || ai == 31) return true;
  const size_t n = size_t(1) << (ai - 24);
  const uint64_t arg = load_be(p + 1, n);
  if (major == 7) {
    if (ai == 24) return true;  // simple values 32..255 have one form
    const unsigned width = unsigned(n);
    uint64_t narrow = 0;
    return shortest_float(widen_wire_float(arg, width), narrow) == width;
  }
  if (ai == 24) return arg >= 24;
  if (ai == 25) return arg > 0xff;
  if (ai == 26) return arg > 0xffff;
  return arg > 0xffffffffu;
}

/// RFC 8949 3.4.3 in the model: the complete tag 2/3 at s[at..] (its head is
/// one byte) over a byte string loses the magnitude's leading zeros, and
/// becomes a major type 0/1 integer when 8 bytes or fewer are left.
inline void prefer_bignum(std::string& s, size_t at, uint64_t tag) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const size_t c = at + 1;
  if (c >= s.size() || (p[c] >> 5) != 2) return;
  const uint8_t ai = p[c] & 31;
  const size_t hs = ai < 24 ? 1 : 1 + (size_t(1) << (ai - 24));
  const size_t len = size_t(ai < 24 ? ai : load_be(p + c + 1, hs - 1));
  size_t first = c + hs;
  size_t n = len;
  while (n != 0 && p[first] == 0) {
    ++first;
    --n;
  }
  std::string out;
  if (n <= 8) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v = v << 8 | p[first + i];
    put_head(out, tag == 3 ? 1 : 0, v);
  } else {
    put_head(out, 6, tag);
    put_head(out, 2, n);
    out.append(s, first, n);
  }
  s.replace(at, s.size() - at, out);
}

/// Rebuilds one item from canonical_item()'s output `canon` with every map's
/// entries reordered: the tree is built, then written bottom-up (children
/// before parents, no recursion). `leaf(head)` may rewrite a float's head
/// (given its width and binary64 bits); `before(a, b)` orders two entries
/// (pairs of encoded key and value); entries it leaves in place keep their
/// order (a stable sort). *duplicate (optional) is set when two keys of one
/// map come out the same bytes.
template <class Leaf, class Before>
std::string sorted_tree(const std::string& canon, Leaf leaf, Before before,
                        bool* duplicate = nullptr) {
  struct knode {
    std::string head;  ///< the head (strings: head and content)
    uint8_t major = 0;
    uint64_t want = 0;  ///< children (map: keys and values)
    std::vector<size_t> kids;
    std::string enc;
  };
  std::vector<knode> nodes;
  std::vector<size_t> open;
  const auto* p = reinterpret_cast<const uint8_t*>(canon.data());
  size_t pos = 0;
  while (pos < canon.size()) {
    const uint8_t ib = p[pos];
    const uint8_t major = ib >> 5;
    const uint8_t ai = ib & 31;
    const size_t hs = ai < 24 ? 1 : 1 + (size_t(1) << (ai - 24));
    const uint64_t arg = ai < 24 ? ai : load_be(p + pos + 1, hs - 1);
    knode k;
    k.major = major;
    k.head.assign(canon, pos, hs);
    if (major == 2 || major == 3) k.head.append(canon, pos + hs, size_t(arg));
    if (major == 7 && ai >= 25) k.head = leaf(k.head, widen_wire_float(arg, unsigned(hs - 1)));
    pos += hs + ((major == 2 || major == 3) ? size_t(arg) : 0);
    k.want = major == 4 ? arg : major == 5 ? 2 * arg : major == 6 ? 1 : 0;
    const size_t id = nodes.size();
    nodes.push_back(std::move(k));
    if (!open.empty()) nodes[open.back()].kids.push_back(id);
    if (nodes[id].want != 0) {
      open.push_back(id);
      continue;
    }
    while (!open.empty() && nodes[open.back()].kids.size() == nodes[open.back()].want)
      open.pop_back();
  }
  for (size_t i = nodes.size(); i-- > 0;) {
    knode& k = nodes[i];
    k.enc = k.head;
    if (k.major == 5) {
      std::vector<std::pair<std::string, std::string>> pairs;
      for (size_t j = 0; j + 1 < k.kids.size(); j += 2)
        pairs.emplace_back(nodes[k.kids[j]].enc, nodes[k.kids[j + 1]].enc);
      std::stable_sort(pairs.begin(), pairs.end(), before);
      for (size_t j = 0; j < pairs.size(); ++j) {
        if (duplicate != nullptr && j != 0 && pairs[j - 1].first == pairs[j].first)
          *duplicate = true;
        k.enc += pairs[j].first + pairs[j].second;
      }
    } else {
      for (size_t c : k.kids) k.enc += nodes[c].enc;
    }
    for (size_t c : k.kids) std::string().swap(nodes[c].enc);  // written into k
  }
  return nodes.empty() ? std::string() : nodes[0].enc;
}

/// The form map keys are compared in, from canonical_item()'s output: equal
/// in the data model (RFC 8949 5.6) means equal bytes here. Floats: -0.0 as
/// 0.0 and every NaN as f97e00; maps: entries ordered by their key's form
/// (then their value's).
inline std::string key_form(const std::string& canon) {
  auto leaf = [](const std::string&, uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    if (d != d) bits = 0x7ff8000000000000u;  // every NaN: one key
    if (d == 0) bits = 0;                    // -0.0: 0.0
    uint64_t narrow = 0;
    const unsigned width = shortest_float(bits, narrow);
    std::string head(1, char(width == 2 ? 0xf9 : width == 4 ? 0xfa : 0xfb));
    for (unsigned i = width; i-- > 0;) head += char(uint8_t(narrow >> (8 * i)));
    return head;
  };
  return sorted_tree(canon, leaf, std::less<std::pair<std::string, std::string>>());
}

/// The preferred serialization of the well-formed item at data[pos] (data
/// holding n bytes): shortest heads and floats, definite lengths, indefinite
/// strings joined, bignums in preferred form; tags and everything else kept.
/// With keep_float_width, floats keep their width and bits (CTAP2). Advances
/// pos past the item. Returns false when the bytes are not one well-formed
/// item (an explicit stack: no recursion at any depth).
inline bool canonical_item(const uint8_t* data, size_t n, size_t& pos, std::string& out,
                           bool keep_float_width = false) {
  struct frame {
    uint8_t kind;  ///< 0 definite array/map, 1 indefinite array/map, 2 tag, 3 indefinite string
    uint8_t major;
    uint64_t count;    ///< definite: items left; indefinite containers: items seen
    std::string body;  ///< indefinite: the children / the joined content
    size_t start = 0;  ///< tags: where the tag's head starts in its sink
    uint64_t tag = 0;  ///< tags: the tag number
  };
  std::vector<frame> stack;
  out.clear();
  auto sink = [&]() -> std::string& {
    for (size_t i = stack.size(); i-- > 0;)
      if (stack[i].kind == 1) return stack[i].body;
    return out;
  };
  for (;;) {
    if (pos >= n) return false;
    const uint8_t ib = data[pos];
    const uint8_t major = ib >> 5;
    const uint8_t ai = ib & 31;
    bool complete = false;
    if (ib == 0xff) {
      if (stack.empty() || (stack.back().kind != 1 && stack.back().kind != 3)) return false;
      ++pos;
      frame f = std::move(stack.back());
      stack.pop_back();
      if (f.kind == 1 && f.major == 5 && f.count % 2 != 0) return false;
      std::string& s = sink();
      if (f.kind == 3) {
        put_head(s, f.major, f.body.size());
      } else {
        put_head(s, f.major, f.major == 5 ? f.count / 2 : f.count);
      }
      s += f.body;
      complete = true;
    } else {
      if (ai >= 28 && ai <= 30) return false;
      const size_t hs = ai < 24 || ai == 31 ? 1 : 1 + (size_t(1) << (ai - 24));
      if (n - pos < hs) return false;
      const uint64_t arg = ai < 24 ? ai : ai == 31 ? 0 : load_be(data + pos + 1, hs - 1);
      pos += hs;
      if (!stack.empty() && stack.back().kind == 3) {
        // A chunk of an indefinite string: joined, not an item of its own.
        if (major != stack.back().major || ai == 31 || arg > n - pos) return false;
        stack.back().body.append(reinterpret_cast<const char*>(data + pos), size_t(arg));
        pos += size_t(arg);
        continue;
      }
      std::string& s = sink();
      switch (major) {
        case 0:
        case 1:
          if (ai == 31) return false;
          put_head(s, major, arg);
          complete = true;
          break;
        case 2:
        case 3:
          if (ai == 31) {
            stack.push_back({3, major, 0, {}});
          } else {
            if (arg > n - pos) return false;
            put_head(s, major, arg);
            s.append(reinterpret_cast<const char*>(data + pos), size_t(arg));
            pos += size_t(arg);
            complete = true;
          }
          break;
        case 4:
        case 5:
          if (ai == 31) {
            stack.push_back({1, major, 0, {}});
          } else {
            put_head(s, major, arg);
            if (arg == 0) {
              complete = true;
            } else {
              if (major == 5 && arg > UINT64_MAX / 2) return false;
              stack.push_back({0, major, major == 5 ? 2 * arg : arg, {}});
            }
          }
          break;
        case 6: {
          if (ai == 31) return false;
          const size_t at = s.size();
          put_head(s, 6, arg);
          stack.push_back({2, 6, 1, {}, at, arg});
          break;
        }
        default:
          if (ai < 24) {
            s += char(ib);
          } else if (ai == 24) {
            if (arg < 32) return false;
            s += char(0xf8);
            s += char(uint8_t(arg));
          } else if (ai == 31) {
            return false;  // a break was handled above
          } else if (keep_float_width) {
            s.append(reinterpret_cast<const char*>(data + pos - hs), hs);
          } else {
            uint64_t narrow = 0;
            const unsigned width = shortest_float(widen_wire_float(arg, unsigned(hs - 1)), narrow);
            s += char(width == 2 ? 0xf9 : width == 4 ? 0xfa : 0xfb);
            for (unsigned i = width; i-- > 0;) s += char(uint8_t(narrow >> (8 * i)));
          }
          complete = true;
          break;
      }
    }
    // A complete item counts in its container; full definite frames and tags
    // complete in turn.
    while (complete && !stack.empty()) {
      frame& f = stack.back();
      if (f.kind == 1) {
        ++f.count;
        complete = false;
      } else if (--f.count == 0) {
        if (f.kind == 2 && (f.tag == 2 || f.tag == 3)) {
          const size_t at = f.start;
          const uint64_t tag = f.tag;
          stack.pop_back();
          prefer_bignum(sink(), at, tag);
          continue;
        }
        stack.pop_back();
      } else {
        complete = false;
      }
    }
    if (complete && stack.empty()) return true;
  }
}

/// Bytewise lexicographic comparison (shorter first on a common prefix).
inline int compare_bytes(const std::string& a, const std::string& b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

}  // namespace cbor_fast_fuzz

#endif  // CBOR_FAST_FUZZ_STRICT_MODEL_HPP
