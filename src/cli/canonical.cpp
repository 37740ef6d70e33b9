// Deterministic re-encoding for `cbor-fast canonical` (see canonical.hpp).
//
// Bottom-up over the reader's item stream: each open container collects its
// children's finished encodings in a buffer of its own; at its end a map sorts
// its pairs (std::sort over views, n log n) and the finished container is
// appended to its parent's buffer.
#include "canonical.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "internal/float16.hpp"

namespace cbor_fast_cli {

namespace {

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::status;

void put_head(std::vector<uint8_t>& out, uint8_t major, uint64_t arg) {
  const auto ib = uint8_t(major << 5);
  if (arg < 24) {
    out.push_back(uint8_t(ib | arg));
    return;
  }
  unsigned n = arg <= 0xff ? 1 : arg <= 0xffff ? 2 : arg <= 0xffffffff ? 4 : 8;
  out.push_back(uint8_t(ib | (n == 1 ? 24 : n == 2 ? 25 : n == 4 ? 26 : 27)));
  for (unsigned i = n; i-- > 0;) out.push_back(uint8_t(arg >> (8 * i)));
}

void put_float(std::vector<uint8_t>& out, double v) {
  const uint64_t bits = cbor_fast::detail::double_to_bits(v);
  uint64_t narrow;
  unsigned w = 8;
  uint64_t b = bits;
  if (cbor_fast::detail::narrows_exactly<5, 10>(bits, &narrow)) {
    w = 2, b = narrow;
  } else if (cbor_fast::detail::narrows_exactly<8, 23>(bits, &narrow)) {
    w = 4, b = narrow;
  }
  out.push_back(w == 2 ? 0xf9 : w == 4 ? 0xfa : 0xfb);
  for (unsigned i = w; i-- > 0;) out.push_back(uint8_t(b >> (8 * i)));
}

enum class kind : uint8_t { array, map, tag, bytes, text, bignum };

struct frame {
  kind k;
  uint64_t count = 0;        ///< children (a map counts keys and values)
  uint64_t tag = 0;
  size_t offset = 0;         ///< the head's input offset
  std::vector<uint8_t> buf;  ///< children's encodings (strings: the joined content)
  std::vector<size_t> ends;  ///< map: where each child's encoding ends in buf
};

/// Sort key of an encoded map key.
struct key_view {
  const uint8_t* p;
  size_t key_size;
  size_t pair_size;
};

bool less(const key_view& a, const key_view& b, key_order order) {
  if (order == key_order::ctap2 && (a.p[0] >> 5) != (b.p[0] >> 5)) return (a.p[0] >> 5) < (b.p[0] >> 5);
  if (order != key_order::bytewise && a.key_size != b.key_size) return a.key_size < b.key_size;
  const size_t n = std::min(a.key_size, b.key_size);
  const int c = std::memcmp(a.p, b.p, n);
  if (c != 0) return c < 0;
  return a.key_size < b.key_size;
}

/// A bignum's magnitude in preferred form (RFC 8949 3.4.3).
void put_bignum(std::vector<uint8_t>& out, uint64_t tag, const uint8_t* p, size_t n) {
  while (n != 0 && *p == 0) ++p, --n;
  if (n <= 8) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v = v << 8 | p[i];
    put_head(out, tag == 2 ? 0 : 1, v);
    return;
  }
  put_head(out, 6, tag);
  put_head(out, 2, n);
  out.insert(out.end(), p, p + n);
}

}  // namespace

status canonical_next(cbor_fast::reader& r, key_order order, std::vector<uint8_t>& out,
                      size_t* bad_offset) {
  try {
    std::vector<frame> stack;
    item it;
    for (;;) {
      const status s = r.next(it);
      if (s != status::ok) {
        if (s == status::end && !stack.empty()) return status::internal_error;
        return s;
      }
      std::vector<uint8_t> done;  // the finished encoding of a complete item
      bool complete = true;
      switch (it.type) {
        case item_type::unsigned_int: put_head(done, 0, it.value()); break;
        case item_type::negative_int: put_head(done, 1, it.value()); break;
        case item_type::byte_string:
        case item_type::text_string: {
          const bool bytes = it.type == item_type::byte_string;
          if (!stack.empty() && (stack.back().k == kind::bytes || stack.back().k == kind::text ||
                                 stack.back().k == kind::bignum)) {
            // A chunk: joined into its indefinite string.
            stack.back().buf.insert(stack.back().buf.end(), it.bytes().begin(), it.bytes().end());
            continue;
          }
          const bool in_bignum = !stack.empty() && stack.back().k == kind::tag &&
                                 (stack.back().tag == 2 || stack.back().tag == 3) && bytes &&
                                 stack.back().count == 0;
          if (it.is_indefinite()) {
            frame f;
            f.k = in_bignum ? kind::bignum : bytes ? kind::bytes : kind::text;
            f.offset = it.offset;
            if (in_bignum) {
              f.tag = stack.back().tag;
              stack.pop_back();  // the bignum frame replaces its tag
            }
            stack.push_back(std::move(f));
            complete = false;
            break;
          }
          if (in_bignum) {
            const uint64_t tag = stack.back().tag;
            stack.pop_back();
            put_bignum(done, tag, it.bytes().data, it.bytes().size);
            break;
          }
          put_head(done, bytes ? 2 : 3, it.bytes().size);
          done.insert(done.end(), it.bytes().begin(), it.bytes().end());
          break;
        }
        case item_type::array:
        case item_type::map: {
          frame f;
          f.k = it.type == item_type::array ? kind::array : kind::map;
          f.offset = it.offset;
          stack.push_back(std::move(f));
          complete = false;
          break;
        }
        case item_type::tag: {
          frame f;
          f.k = kind::tag;
          f.tag = it.tag_number();
          f.offset = it.offset;
          stack.push_back(std::move(f));
          complete = false;
          break;
        }
        case item_type::floating: put_float(done, it.float_value()); break;
        case item_type::end: {
          frame f = std::move(stack.back());
          stack.pop_back();
          switch (f.k) {
            case kind::array:
              put_head(done, 4, f.count);
              done.insert(done.end(), f.buf.begin(), f.buf.end());
              break;
            case kind::map: {
              std::vector<key_view> pairs;
              pairs.reserve(f.count / 2);
              size_t at = 0;
              for (size_t i = 0; i + 1 < f.ends.size(); i += 2) {
                pairs.push_back({f.buf.data() + at, f.ends[i] - at, f.ends[i + 1] - at});
                at = f.ends[i + 1];
              }
              std::sort(pairs.begin(), pairs.end(),
                        [order](const key_view& a, const key_view& b) { return less(a, b, order); });
              for (size_t i = 1; i < pairs.size(); ++i) {
                if (pairs[i].key_size == pairs[i - 1].key_size &&
                    std::memcmp(pairs[i].p, pairs[i - 1].p, pairs[i].key_size) == 0) {
                  *bad_offset = f.offset;
                  return status::duplicate_key;
                }
              }
              put_head(done, 5, f.count / 2);
              for (const key_view& kv : pairs) done.insert(done.end(), kv.p, kv.p + kv.pair_size);
              break;
            }
            case kind::bytes:
            case kind::text:
              put_head(done, f.k == kind::bytes ? 2 : 3, f.buf.size());
              done.insert(done.end(), f.buf.begin(), f.buf.end());
              break;
            case kind::bignum: put_bignum(done, f.tag, f.buf.data(), f.buf.size()); break;
            case kind::tag: return status::internal_error;
          }
          break;
        }
        default:  // simple values, false, true, null, undefined
          put_head(done, 7, it.simple_value());
          break;
      }
      if (!complete) continue;
      // Hand the finished item up; a tag closes once its one item is in.
      for (;;) {
        if (stack.empty()) {
          out.insert(out.end(), done.begin(), done.end());
          return status::ok;
        }
        frame& parent = stack.back();
        if (parent.k == kind::tag) {
          std::vector<uint8_t> tagged;
          put_head(tagged, 6, parent.tag);
          tagged.insert(tagged.end(), done.begin(), done.end());
          done.swap(tagged);
          stack.pop_back();
          continue;
        }
        parent.buf.insert(parent.buf.end(), done.begin(), done.end());
        ++parent.count;
        if (parent.k == kind::map) parent.ends.push_back(parent.buf.size());
        break;
      }
    }
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }
}

}  // namespace cbor_fast_cli
