// Canonical encoding of documents: map entries sorted by their encoded keys
// (RFC 8949 4.2.1 bytewise, 4.2.3 length-first, CTAP2), preferred heads,
// floats and bignums, definite lengths.
//
// Two passes over the preorder node array, no recursion:
//  1. Maps from the last to the first. A map's keys and values come after it
//     in preorder, so every map nested in one of its keys is sorted before the
//     map itself. Each key's canonical encoding is taken apart as (head bytes,
//     content pointer) for strings and scalars (no copy). Keys that are
//     containers or tags (their own maps are sorted already) are never
//     written out: from the first such key on, every node gets its canonical
//     size, cursor depth and (CTAP2) first refused tag, bottom-up from its
//     children's (tree_info), and two such keys are compared by walking their
//     canonical bytes with a cursor (key_cursor) as far as they agree. Writing
//     each key out cost its size at every enclosing level: a chain of maps
//     nested in keys, {{{...: 0}: 0}: 0}, was quadratic. The pairs are sorted
//     with std::sort (n log n; a map already in order costs one linear check)
//     and the order is kept as an array of key nodes per map.
//  2. Preorder emission to the writer, taking each map's pairs in that order.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "cbor_fast/document.hpp"
#include "document/memory.hpp"
#include "internal/compiler.hpp"
#include "internal/endian.hpp"
#include "internal/float16.hpp"
#include "reader/strict.hpp"

namespace cbor_fast {
namespace detail {
namespace {

constexpr uint32_t k_canonical_flags = k_canonical_encode_flags;
static_assert(k_canonical_encode_flags == (encode_canonical | encode_length_first | encode_ctap2),
              "canonical flags");

enum class order : uint8_t { bytewise, length_first, ctap2 };

/// One key as its canonical encoding: head[0, head_len) then data[0, size).
struct key_ref {
  uint64_t prefix;      ///< first 8 encoded bytes, big endian, zero padded
  size_t total;         ///< head_len + size
  const uint8_t* data;  ///< content (strings), scratch bytes (containers, tags) or null
  size_t size;
  const doc_node* key;  ///< the key node (its value follows it)
  uint8_t head[9];
  uint8_t head_len;
  bool tree;  ///< a container or tag: its bytes are read with a key_cursor (data is null)
};

inline uint8_t byte_at(const key_ref& k, size_t i) noexcept {
  return i < k.head_len ? k.head[i] : k.data[i - k.head_len];
}

/// k.prefix from its bytes, one at a time (floats and complex keys).
void set_prefix(key_ref& k) noexcept {
  uint64_t p = 0;
  const size_t n = k.total < 8 ? k.total : 8;
  for (size_t i = 0; i < n; ++i) p |= uint64_t(byte_at(k, i)) << (56 - 8 * i);
  k.prefix = p;
}

/// A head and its content as key_ref, the prefix computed in registers (bytes
/// just stored one by one and loaded back as a word would stall the load).
CBOR_FAST_ALWAYS_INLINE inline void set_head_key(key_ref& k, unsigned major, uint64_t arg,
                                                 const uint8_t* data, size_t size) noexcept {
  const uint64_t mt = uint64_t(major) << 61;
  uint64_t be;  // the head, left-aligned
  unsigned len;
  if (arg < 24) {
    be = mt | arg << 56;
    len = 1;
  } else if (arg <= 0xff) {
    be = mt | uint64_t(24) << 56 | arg << 48;
    len = 2;
  } else if (arg <= 0xffff) {
    be = mt | uint64_t(25) << 56 | arg << 40;
    len = 3;
  } else if (arg <= 0xffffffffu) {
    be = mt | uint64_t(26) << 56 | arg << 24;
    len = 5;
  } else {
    be = mt | uint64_t(27) << 56 | arg >> 8;
    len = 9;
    k.head[8] = uint8_t(arg);
  }
  store_be64(k.head, be);
  k.head_len = uint8_t(len);
  k.data = data;
  k.size = size;
  k.total = len + size;
  if (len >= 8 || size == 0) {
    k.prefix = be;
    return;
  }
  uint64_t d;
  if (size >= 8) {
    d = load_be64(data);
  } else {
    d = 0;
    for (size_t i = 0; i < size; ++i) d |= uint64_t(data[i]) << (56 - 8 * i);
  }
  k.prefix = be | d >> (8 * len);
}

/// Bytewise comparison of two encodings (-1, 0, 1), neither a tree key. No
/// well-formed encoding is a proper prefix of another, so the zero-padded
/// prefixes decide unless they are equal.
int compare_bytes(const key_ref& a, const key_ref& b) noexcept {
  if (a.prefix != b.prefix) return a.prefix < b.prefix ? -1 : 1;
  const size_t n = a.total < b.total ? a.total : b.total;
  size_t i = 8;
  // Heads are at most 9 bytes: walk byte by byte until both are in content.
  for (; i < n && (i < a.head_len || i < b.head_len); ++i) {
    const uint8_t x = byte_at(a, i), y = byte_at(b, i);
    if (x != y) return x < y ? -1 : 1;
  }
  if (i < n) {
    const int c = std::memcmp(a.data + (i - a.head_len), b.data + (i - b.head_len), n - i);
    if (c != 0) return c < 0 ? -1 : 1;
  }
  return a.total < b.total ? -1 : a.total > b.total ? 1 : 0;
}

/// The order's criteria before the bytes (-1, 0, 1).
inline int compare_ranks(const key_ref& a, const key_ref& b, order o) noexcept {
  if (o == order::ctap2) {
    // CTAP2: major type first, then length, then bytes.
    const unsigned ma = unsigned(a.prefix >> 61), mb = unsigned(b.prefix >> 61);
    if (ma != mb) return ma < mb ? -1 : 1;
  }
  if (o != order::bytewise && a.total != b.total) return a.total < b.total ? -1 : 1;
  return 0;
}

int compare_keys(const key_ref& a, const key_ref& b, order o) noexcept {
  if (const int c = compare_ranks(a, b, o); c != 0) return c;
  return compare_bytes(a, b);
}

/// What the canonical encoding of a subtree needs from its nodes, computed
/// bottom-up (a container from its children), so that keys holding keys are
/// never written out at each level.
struct tree_info {
  uint64_t size;    ///< bytes of the canonical encoding
  uint32_t height;  ///< key_cursor frames it opens at most
  uint32_t bad;     ///< CTAP2: 1 + the node index of the first tag emit() refuses, in output
                    ///< order; 0: none
};

/// One node's own canonical bytes: the head of a container or tag, all of a
/// scalar or string (head then data), a bignum in its preferred form.
struct atom {
  uint8_t head[18];
  uint8_t head_len;
  const uint8_t* data;
  size_t size;
};

/// An open container of a key_cursor (as emit()'s frames).
struct cursor_frame {
  const doc_node* const* keys;  ///< maps: next sorted key; arrays: null
  const doc_node* next;         ///< arrays: next item; maps: the last key taken
  uint64_t left;                ///< children still due
};

/// Nodes the tree-key paths visited in this process (a work counter for
/// tests: tree_info per node, and the nodes key cursors read).
std::atomic<uint64_t> g_canonical_work{0};

/// Where each map's sorted pairs are: per node of the subtree, the index of
/// its first key in `sorted` (maps only).
struct sort_entry {
  uint64_t prefix;
  uint32_t rank;
  uint32_t index;  ///< into the map's key_refs
};

/// A map whose keys were sorted: its key nodes in their own order at
/// shape_keys[first, first + count), their sorted order as indices at
/// shape_order[first, ...). A later map with the same keys in the same
/// order (the records of an array: citm_catalog's events, prices, areas)
/// takes that order without describing or sorting its keys.
struct map_shape {
  size_t first = 0;
  size_t count = 0;  ///< 0: empty slot
};
constexpr size_t k_shape_slots = 16;

struct canonical_state {
  canonical_state(const allocator& a) noexcept
      : slot(a),
        sorted(a),
        keys(a),
        entries(a),
        shape_keys(a),
        shape_order(a),
        map_keys(a),
        info(a),
        stack_a(a),
        stack_b(a) {}
  pod_vector<uint32_t> slot;
  pod_vector<const doc_node*> sorted;
  pod_vector<key_ref> keys;
  pod_vector<sort_entry> entries;
  pod_vector<const doc_node*> shape_keys;
  pod_vector<uint32_t> shape_order;
  pod_vector<const doc_node*> map_keys;       ///< the current map's key nodes
  pod_vector<tree_info> info;                 ///< per node from the first tree key on (else empty)
  pod_vector<cursor_frame> stack_a, stack_b;  ///< the two key cursors' frames
  map_shape shapes[k_shape_slots];
};

/// Whether a key is one whose canonical encoding depends on its type, arg
/// and bytes alone (integers, simple values, definite or joined strings).
inline bool is_plain_key(const doc_node* c) noexcept {
  switch (item_type(c->type)) {
    case item_type::unsigned_int:
    case item_type::negative_int:
    case item_type::simple:
    case item_type::boolean:
    case item_type::null:
    case item_type::undefined:
    case item_type::byte_string:
    case item_type::text_string: return true;
    default: return false;
  }
}

/// x[0, n) == y[0, n), short keys inline: two overlapping words.
inline bool same_bytes(const uint8_t* x, const uint8_t* y, size_t n) noexcept {
  if (n >= 8 && n <= 16) {
    uint64_t a0, b0, a1, b1;
    std::memcpy(&a0, x, 8);
    std::memcpy(&b0, y, 8);
    std::memcpy(&a1, x + n - 8, 8);
    std::memcpy(&b1, y + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n >= 4 && n < 8) {
    uint32_t a0, b0, a1, b1;
    std::memcpy(&a0, x, 4);
    std::memcpy(&b0, y, 4);
    std::memcpy(&a1, x + n - 4, 4);
    std::memcpy(&b1, y + n - 4, 4);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n < 4) {
    for (size_t i = 0; i < n; ++i)
      if (x[i] != y[i]) return false;
    return true;
  }
  return std::memcmp(x, y, n) == 0;
}

/// Two plain keys with the same canonical encoding.
inline bool same_plain_key(const doc_node* a, const doc_node* b) noexcept {
  if (a->type != b->type || a->arg != b->arg) return false;
  return !is_string_type(a->type) || same_bytes(a->u.data, b->u.data, size_t(a->arg));
}

/// The shape slot of a map of `count` keys whose first key is `first`.
inline size_t shape_slot(size_t count, const doc_node* first) noexcept {
  uint64_t h = count * 0x9e3779b97f4a7c15u ^ first->arg ^ uint64_t(first->type) << 56;
  if (is_string_type(first->type) && first->arg != 0) h ^= uint64_t(first->u.data[0]) << 48;
  return size_t(h >> 60) & (k_shape_slots - 1);
}

inline status set_error(error_info* error, status s, size_t offset) noexcept {
  if (error != nullptr) *error = error_info{s, offset, offset, 0};
  return s;
}

/// A tag 2/3 over a byte string: a bignum.
inline bool is_bignum(const doc_node* p) noexcept {
  return p->type == uint8_t(item_type::tag) && (p->arg == 2 || p->arg == 3) &&
         p[1].type == uint8_t(item_type::byte_string);
}

/// Folds a writer result in: buffer_too_small is remembered and writing goes
/// on (the writer keeps counting); anything else stops.
inline bool keep_going(status s, status& result) noexcept {
  if (s == status::ok) return true;
  result = s;
  return s == status::buffer_too_small;
}

class canonical_encoder {
 public:
  canonical_encoder(const doc_node* root, order o, const allocator& alloc,
                    error_info* error) noexcept
      : root_(root), stop_(after(root)), order_(o), alloc_(alloc), st_(alloc), error_(error) {}

  status run(writer& w) noexcept {
    status s = sort_maps();
    if (s == status::ok) s = emit(root_, w);
    if (work_ != 0) g_canonical_work.fetch_add(work_, std::memory_order_relaxed);
    return s;
  }

 private:
  /// Reads the canonical bytes of a subtree in the order emit() writes them,
  /// its open containers in `stack` (reserved to the subtree's tree_info
  /// height by describe_key(): it does not allocate inside std::sort).
  class key_cursor {
   public:
    key_cursor(canonical_encoder& e, pod_vector<cursor_frame>& stack, const doc_node* n) noexcept
        : e_(e), stack_(stack), next_(n) {
      stack_.truncate(0);
    }

    /// The next n > 0 bytes at p; false at the end.
    bool next(const uint8_t*& p, size_t& n) noexcept {
      for (;;) {
        if (pos_ < a_.head_len) {
          p = a_.head + pos_;
          n = size_t(a_.head_len - pos_);
          pos_ = a_.head_len;
          return true;
        }
        if (a_.size != 0) {
          p = a_.data;
          n = a_.size;
          a_.size = 0;
          return true;
        }
        if (!advance()) return false;
      }
    }

   private:
    /// The next node's atom (emit()'s walk); false after the last.
    bool advance() noexcept {
      const doc_node* p = next_;
      next_ = nullptr;
      while (p == nullptr) {
        if (stack_.size() == 0) return false;
        cursor_frame& t = stack_[stack_.size() - 1];
        if (t.left == 0) {
          stack_.truncate(stack_.size() - 1);
          continue;
        }
        --t.left;
        if (t.keys == nullptr) {  // array
          p = t.next;
          t.next = after(p);
        } else if ((t.left & 1) != 0) {  // map: a key
          p = *t.keys++;
          t.next = p;
        } else {  // map: the value of the last key
          p = after(t.next);
        }
      }
      ++e_.work_;
      e_.atom_of(p, a_);
      pos_ = 0;
      switch (item_type(p->type)) {
        case item_type::array: stack_.push_back(cursor_frame{nullptr, p + 1, p->arg}); break;
        case item_type::map:
          stack_.push_back(cursor_frame{
              p->arg != 0 ? e_.st_.sorted.data() + e_.st_.slot[size_t(p - e_.root_)] : nullptr,
              nullptr, 2 * p->arg});
          break;
        case item_type::tag:
          if (!is_bignum(p)) next_ = p + 1;
          break;
        default: break;
      }
      return true;
    }

    canonical_encoder& e_;
    pod_vector<cursor_frame>& stack_;
    const doc_node* next_;  ///< a tag's content, or the subtree's root at first
    atom a_{};
    uint8_t pos_ = 0;  ///< head bytes of a_ given out
  };

  /// Bytewise comparison of the canonical encodings of two keys (-1, 0, 1).
  int compare_trees(const doc_node* x, const doc_node* y) noexcept {
    key_cursor a(*this, st_.stack_a, x), b(*this, st_.stack_b, y);
    const uint8_t *pa = nullptr, *pb = nullptr;
    size_t na = 0, nb = 0;
    bool end_a = false, end_b = false;
    for (;;) {
      if (na == 0) end_a = !a.next(pa, na);
      if (nb == 0) end_b = !b.next(pb, nb);
      if (end_a || end_b) break;
      const size_t m = na < nb ? na : nb;
      if (const int c = std::memcmp(pa, pb, m); c != 0) return c < 0 ? -1 : 1;
      pa += m;
      pb += m;
      na -= m;
      nb -= m;
    }
    return end_a && end_b ? 0 : end_a ? -1 : 1;
  }

  /// One node's own canonical bytes (see atom), as emit() writes them.
  void atom_of(const doc_node* p, atom& a) noexcept {
    key_ref k;  // set_head_key()'s head
    a.data = nullptr;
    a.size = 0;
    unsigned major = 7;  // simple, bool, null, undefined
    uint64_t arg = p->arg;
    switch (item_type(p->type)) {
      case item_type::unsigned_int: major = 0; break;
      case item_type::negative_int: major = 1; break;
      case item_type::byte_string:
      case item_type::text_string:
        major = item_type(p->type) == item_type::byte_string ? 2 : 3;
        a.data = p->u.data;
        a.size = size_t(arg);
        break;
      case item_type::array: major = 4; break;
      case item_type::map: major = 5; break;
      case item_type::tag: {
        major = 6;
        if (!is_bignum(p)) break;
        // writer::write_bignum(): no leading zeros, a plain integer when it fits.
        const uint8_t* m = p[1].u.data;
        size_t n = size_t(p[1].arg);
        while (n != 0 && *m == 0) {
          ++m;
          --n;
        }
        if (n <= 8) {
          major = p->arg == 3 ? 1 : 0;
          arg = 0;
          for (size_t i = 0; i < n; ++i) arg = arg << 8 | m[i];
          break;
        }
        set_head_key(k, 2, n, nullptr, 0);
        a.head[0] = uint8_t(0xc0 | p->arg);
        std::memcpy(a.head + 1, k.head, k.head_len);
        a.head_len = uint8_t(1 + k.head_len);
        a.data = m;
        a.size = n;
        return;
      }
      case item_type::floating: {
        writer tmp(a.head, 9, &alloc_);
        a.head_len = write_float(tmp, p) == status::ok ? uint8_t(tmp.size()) : 0;
        return;
      }
      default: break;
    }
    set_head_key(k, major, arg, nullptr, 0);
    std::memcpy(a.head, k.head, k.head_len);
    a.head_len = k.head_len;
  }

  /// st_.info[i] from its children's (already computed: they follow it, and
  /// a map's order is known once it is sorted).
  CBOR_FAST_NOINLINE void compute_info(size_t i) noexcept {
    const doc_node* p = root_ + i;
    tree_info& t = st_.info[i];
    t = tree_info{0, 0, 0};
    ++work_;
    if ((p->flags & flag_chunk) != 0) return;  // inside its string
    atom a;
    atom_of(p, a);
    t.size = a.head_len + a.size;
    const auto add = [this, &t](const doc_node* c) {
      const tree_info& ci = st_.info[size_t(c - root_)];
      t.size += ci.size;
      if (ci.height > t.height) t.height = ci.height;
      if (t.bad == 0) t.bad = ci.bad;
      ++work_;
    };
    switch (item_type(p->type)) {
      case item_type::array: {
        const doc_node* c = p + 1;
        for (uint64_t j = 0; j < p->arg; ++j, c = after(c)) add(c);
        ++t.height;
        break;
      }
      case item_type::map: {
        if (p->arg != 0) {
          const doc_node* const* k = st_.sorted.data() + st_.slot[i];
          for (uint64_t j = 0; j < p->arg; ++j) {
            add(k[j]);
            add(after(k[j]));
          }
        }
        ++t.height;
        break;
      }
      case item_type::tag:
        if (is_bignum(p)) {
          if (order_ == order::ctap2 && !fits_64(p + 1)) t.bad = uint32_t(i + 1);
          break;
        }
        if (order_ == order::ctap2) t.bad = uint32_t(i + 1);  // CTAP2 canonical CBOR has no tags
        add(p + 1);
        break;
      default: break;
    }
  }

  /// st_.info for every node after the map being sorted (from the first
  /// tree key on, sort_maps() keeps it for each node it passes).
  bool activate_info() noexcept {
    const size_t n = size_t(stop_ - root_);
    if (n >= UINT32_MAX || st_.info.extend(n) == nullptr) return false;  // (bad: 32 bits)
    for (size_t j = n; j-- > current_ + 1;) compute_info(j);
    return true;
  }

  /// Pass 1: every map of the subtree, innermost first. Duplicate keys do not
  /// stop it: of all of them, the one earliest in the input is reported, as
  /// the strict reader would (maps are sorted from the last one back).
  status sort_maps() noexcept {
    const status s = sort_all_maps();
    if (s == status::ok && duplicate_at_ != k_no_duplicate)
      return set_error(error_, status::duplicate_key, duplicate_at_);
    return s;
  }

  status sort_all_maps() noexcept {
    const size_t n = size_t(stop_ - root_);
    bool any_map = false;
    for (const doc_node* p = root_; p != stop_; ++p)
      if (p->type == uint8_t(item_type::map) && (p->flags & flag_chunk) == 0 && p->arg != 0) {
        any_map = true;
        break;
      }
    if (!any_map) return status::ok;
    if (st_.slot.extend(n) == nullptr) return status::out_of_memory;  // maps' entries only are read
    const auto sortable = [](const doc_node* p) {
      return p->type == uint8_t(item_type::map) && (p->flags & flag_chunk) == 0 && p->arg != 0;
    };
    size_t i = n;
    while (i > 0) {  // up to the first map with a tree key
      const doc_node* p = root_ + --i;
      if (!sortable(p)) continue;
      current_ = i;
      if (status s = sort_map(p, st_.slot[i]); s != status::ok) return s;
      if (st_.info.size() != 0) {
        compute_info(i);
        break;
      }
    }
    while (i > 0) {  // then every node's tree_info too
      const doc_node* p = root_ + --i;
      if (sortable(p)) {
        current_ = i;
        if (status s = sort_map(p, st_.slot[i]); s != status::ok) return s;
      }
      compute_info(i);
    }
    return status::ok;
  }

  /// A key that is an array, map or tag, from its tree_info (its prefix read
  /// by a key_cursor). Out of line: rare, and sort_map()'s loop stays small.
  CBOR_FAST_NOINLINE status describe_tree_key(const doc_node* c, key_ref& k) noexcept {
    if (st_.info.size() == 0 && !activate_info()) return status::out_of_memory;
    const tree_info& t = st_.info[size_t(c - root_)];
    if (t.bad != 0)  // emit() would stop there
      return set_error(error_, status::invalid_argument, size_t(node_offset(root_ + (t.bad - 1))));
    if (!st_.stack_a.reserve(size_t(t.height)) || !st_.stack_b.reserve(size_t(t.height)))
      return status::out_of_memory;
    k.tree = true;
    k.size = size_t(t.size);
    key_cursor cur(*this, st_.stack_a, c);
    uint64_t prefix = 0;
    unsigned got = 0;
    const uint8_t* b;
    size_t m;
    while (got < 8 && cur.next(b, m))
      for (size_t j = 0; j < m && got < 8; ++j, ++got) prefix |= uint64_t(b[j]) << (56 - 8 * got);
    k.prefix = prefix;
    return status::ok;
  }

  /// The canonical form of one key into k (see key_ref).
  status describe_key(const doc_node* c, key_ref& k) noexcept {
    k.key = c;
    k.tree = false;
    switch (item_type(c->type)) {
      case item_type::unsigned_int: set_head_key(k, 0, c->arg, nullptr, 0); return status::ok;
      case item_type::negative_int: set_head_key(k, 1, c->arg, nullptr, 0); return status::ok;
      case item_type::simple:
      case item_type::boolean:
      case item_type::null:
      case item_type::undefined: set_head_key(k, 7, c->arg, nullptr, 0); return status::ok;
      case item_type::byte_string:
        set_head_key(k, 2, c->arg, c->u.data, size_t(c->arg));
        return status::ok;
      case item_type::text_string:
        set_head_key(k, 3, c->arg, c->u.data, size_t(c->arg));
        return status::ok;
      default: break;
    }
    k.data = nullptr;
    k.size = 0;
    k.head_len = 0;
    k.prefix = 0;  // set once all keys are described
    switch (item_type(c->type)) {
      case item_type::floating: {
        writer tmp(k.head, sizeof k.head, &alloc_);
        if (status s = write_float(tmp, c); s != status::ok) return s;
        k.head_len = uint8_t(tmp.size());
        break;
      }
      default:  // arrays, maps, tags
        if (status s = describe_tree_key(c, k); s != status::ok) return s;
        break;
    }
    k.total = k.head_len + k.size;
    slow_keys_ = true;
    return status::ok;
  }

  /// The leading sort criterion of a key in the current order, saturated.
  uint32_t rank_of(const key_ref& k) const noexcept {
    if (order_ == order::length_first) return k.total < UINT32_MAX ? uint32_t(k.total) : UINT32_MAX;
    if (order_ == order::ctap2) {
      constexpr uint32_t max_len = (uint32_t(1) << 29) - 1;
      const uint32_t len = k.total < max_len ? uint32_t(k.total) : max_len;
      return uint32_t(k.prefix >> 61) << 29 | len;
    }
    return 0;
  }

  /// The order of a map with the keys of a map sorted before (see
  /// map_shape) into `sorted`; false when there is none.
  bool sort_by_shape(const doc_node* p, uint32_t& slot, bool* failed) noexcept {
    const size_t count = size_t(p->arg);
    const map_shape& sh = st_.shapes[shape_slot(count, p + 1)];
    if (sh.count != count) return false;
    const bool flat = (p->flags & flag_flat) != 0;
    st_.map_keys.clear();
    const doc_node** const mine = st_.map_keys.extend(count);
    if (mine == nullptr) return false;  // the general path reports it
    const doc_node* const* const theirs = st_.shape_keys.data() + sh.first;
    const doc_node* c = p + 1;
    for (size_t i = 0; i < count; ++i) {
      if (!is_plain_key(c) || !same_plain_key(c, theirs[i])) return false;
      mine[i] = c;
      c = flat ? c + 2 : after(after(c));
    }
    if (st_.sorted.size() > UINT32_MAX - count) return *failed = true;
    slot = uint32_t(st_.sorted.size());
    const doc_node** out = st_.sorted.extend(count);
    if (out == nullptr) return *failed = true;
    const uint32_t* const order_of = st_.shape_order.data() + sh.first;
    for (size_t i = 0; i < count; ++i) out[i] = mine[order_of[i]];
    return true;
  }

  /// Remembers a sorted map of plain keys (keys[i].key in map order, ents
  /// in sorted order) as its shape.
  void remember_shape(size_t count, const key_ref* keys, const sort_entry* ents) noexcept {
    const size_t first = st_.shape_keys.size();
    if (first != st_.shape_order.size()) return;
    const doc_node** k = st_.shape_keys.extend(count);
    uint32_t* o = st_.shape_order.extend(count);
    if (k == nullptr || o == nullptr) {  // no memory for it: simply not remembered
      st_.shape_keys.truncate(first);
      st_.shape_order.truncate(first);
      return;
    }
    for (size_t i = 0; i < count; ++i) {
      k[i] = keys[i].key;
      o[i] = ents[i].index;
    }
    map_shape& sh = st_.shapes[shape_slot(count, keys[0].key)];
    sh.first = first;
    sh.count = count;
  }

  status sort_map(const doc_node* p, uint32_t& slot) noexcept {
    bool failed = false;
    if (sort_by_shape(p, slot, &failed)) return failed ? status::out_of_memory : status::ok;
    st_.keys.clear();
    st_.entries.clear();
    const size_t count = size_t(p->arg);
    // Filled in place: a key_ref built on the stack and copied in would be
    // read back wide right after its bytes were stored narrow.
    key_ref* const slots = st_.keys.extend(count);
    // Sorted as 16-byte entries (rank, prefix, index): the order's leading
    // criterion saturated to 32 bits, then the first 8 bytes; only ties look
    // at the whole keys.
    sort_entry* const ents = st_.entries.extend(count);
    if (slots == nullptr || ents == nullptr) return status::out_of_memory;
    const bool flat = (p->flags & flag_flat) != 0;
    const doc_node* c = p + 1;
    for (size_t i = 0; i < count; ++i) {
      if (status s = describe_key(c, slots[i]); s != status::ok) return s;
      ents[i] = sort_entry{slots[i].prefix, rank_of(slots[i]), uint32_t(i)};
      c = flat ? c + 2 : after(after(c));
    }
    const bool plain_keys = !slow_keys_;  // (floats are not plain keys either)
    bool trees = false;
    if (slow_keys_) {
      for (size_t i = 0; i < count; ++i) {
        key_ref& k = slots[i];
        trees |= k.tree;
        if (!k.tree) set_prefix(k);  // (a tree key's is set)
        ents[i] = sort_entry{k.prefix, rank_of(k), uint32_t(i)};
      }
      slow_keys_ = false;
    }
    const key_ref* const keys = slots;
    const order o = order_;
    const auto cmp = [keys, o](const sort_entry& x, const sort_entry& y) {
      if (x.rank != y.rank) return x.rank < y.rank ? -1 : 1;
      if (x.prefix != y.prefix) return x.prefix < y.prefix ? -1 : 1;
      return compare_keys(keys[x.index], keys[y.index], o);
    };
    const auto cmp_trees = [this, keys, o](const sort_entry& x, const sort_entry& y) {
      if (x.rank != y.rank) return x.rank < y.rank ? -1 : 1;
      if (x.prefix != y.prefix) return x.prefix < y.prefix ? -1 : 1;
      const key_ref &a = keys[x.index], &b = keys[y.index];
      if (!a.tree && !b.tree) return compare_keys(a, b, o);
      if (const int r = compare_ranks(a, b, o); r != 0) return r;
      return compare_trees(a.key, b.key);
    };
    const status s =
        trees ? order_entries(ents, count, keys, cmp_trees) : order_entries(ents, count, keys, cmp);
    if (s != status::ok) return s;
    if (st_.sorted.size() > UINT32_MAX - count) return status::out_of_memory;
    slot = uint32_t(st_.sorted.size());
    const doc_node** out = st_.sorted.extend(count);
    if (out == nullptr) return status::out_of_memory;
    for (size_t i = 0; i < count; ++i) out[i] = keys[ents[i].index].key;
    if (plain_keys && count > 1) remember_shape(count, keys, ents);
    st_.entries.clear();
    return status::ok;
  }

  /// Sorts a map's entries by cmp (-1, 0, 1). Equal keys are a duplicate at
  /// the first key that repeats an earlier one: of each run of equal keys,
  /// the second-lowest offset; the lowest of those over every map is kept in
  /// duplicate_at_.
  template <class Cmp>
  CBOR_FAST_NOINLINE status order_entries(sort_entry* ents, size_t count, const key_ref* keys,
                                          const Cmp& cmp) noexcept {
    bool in_order = true;
    for (size_t i = 1; i < count; ++i)
      if (cmp(ents[i - 1], ents[i]) >= 0) {
        in_order = false;
        break;
      }
    if (!in_order) {
      std::sort(ents, ents + count,
                [&cmp](const sort_entry& x, const sort_entry& y) { return cmp(x, y) < 0; });
      // (std::sort is not stable: a run's offsets come in any order.)
      size_t lowest = 0, second = k_no_duplicate;
      for (size_t i = 1; i < count; ++i) {
        if (cmp(ents[i - 1], ents[i]) != 0) {
          second = k_no_duplicate;
          continue;
        }
        const size_t o2 = size_t(node_offset(keys[ents[i].index].key));
        if (second == k_no_duplicate) {  // a run starts at i - 1
          const size_t o1 = size_t(node_offset(keys[ents[i - 1].index].key));
          lowest = o1 < o2 ? o1 : o2;
          second = o1 < o2 ? o2 : o1;
        } else if (o2 < lowest) {
          second = lowest;
          lowest = o2;
        } else if (o2 < second) {
          second = o2;
        }
        if (second < duplicate_at_) duplicate_at_ = second;
      }
    }
    return status::ok;
  }

  status write_float(writer& w, const doc_node* p) noexcept {
    const double v = p->b0 == 8 ? bits_to_double(p->arg) : float_node_value(p);
    switch (order_) {
      case order::ctap2:  // CTAP2: "the representations of floating-point values are not changed"
        return w.write_float(v, float_width(p->b0));
      case order::length_first:  // RFC 7049 3.9: every NaN is 0xf97e00
        if (v != v) return w.write_float16(0x7e00);
        return w.write_float(v);
      case order::bytewise:  // preferred: shortest exact width, NaN payloads kept
        break;
    }
    return w.write_float(v);
  }

  /// Pass 2: n and everything under it, maps in sorted order. (Out of line
  /// as when keys were written out with it too: inlined into run() it runs
  /// about 3 % more instructions on citm_catalog.)
  CBOR_FAST_NOINLINE status emit(const doc_node* n, writer& w) noexcept {
    struct frame {
      const doc_node* const* keys;  ///< maps: next sorted key; arrays: null
      const doc_node* next;         ///< arrays: next item; maps: the last key taken
      uint64_t left;                ///< children still due (a map's keys and values apart)
    };
    small_stack<frame, 32> stack(alloc_);
    status result = status::ok;
    const doc_node* p = n;
    for (;;) {
      status s;
      frame f{};
      bool opened = false;
      const doc_node* content = nullptr;  // a tag's content, written next
      switch (item_type(p->type)) {
        case item_type::byte_string: s = w.write_bytes(p->u.data, size_t(p->arg)); break;
        case item_type::text_string:
          s = w.write_text(
              std::string_view(reinterpret_cast<const char*>(p->u.data), size_t(p->arg)));
          break;
        case item_type::array:
          s = w.begin_array(p->arg);
          f.next = p + 1;
          f.left = p->arg;
          opened = true;
          break;
        case item_type::map:
          s = w.begin_map(p->arg);
          f.left = 2 * p->arg;
          f.keys = p->arg != 0 ? st_.sorted.data() + st_.slot[size_t(p - root_)] : nullptr;
          opened = true;
          break;
        case item_type::tag:
          if (is_bignum(p)) {
            // RFC 8949 3.4.3: no leading zeros, and a plain integer when it fits.
            if (order_ == order::ctap2 && !fits_64(p + 1))
              return set_error(error_, status::invalid_argument, size_t(node_offset(p)));
            s = w.write_bignum(p[1].u.data, size_t(p[1].arg), p->arg == 3);
            break;
          }
          if (order_ == order::ctap2)  // CTAP2 canonical CBOR has no tags
            return set_error(error_, status::invalid_argument, size_t(node_offset(p)));
          s = w.write_tag(p->arg);
          content = p + 1;  // the writer closes the tag after it
          break;
        case item_type::floating: s = write_float(w, p); break;
        case item_type::unsigned_int: s = w.write_uint(p->arg); break;
        case item_type::negative_int: s = w.write_negative(p->arg); break;
        default: s = w.write_simple(uint8_t(p->arg)); break;  // simple, bool, null, undefined
      }
      if (!keep_going(s, result)) return result;
      if (content != nullptr) {
        p = content;
        continue;
      }
      if (opened && !stack.push(f)) return status::out_of_memory;
      // The next node to write: the innermost open container's next child.
      for (;;) {
        if (stack.empty()) return result;
        frame& t = stack.top();
        if (t.left == 0) {
          stack.pop();
          if (!keep_going(w.end(), result)) return result;
          continue;
        }
        --t.left;
        if (t.keys == nullptr) {  // array
          p = t.next;
          t.next = after(p);
        } else if ((t.left & 1) != 0) {  // map: a key (an odd count is left after it)
          p = *t.keys++;
          t.next = p;
        } else {  // map: the value of the last key
          p = after(t.next);
        }
        break;
      }
    }
  }

  static bool fits_64(const doc_node* bytes) noexcept {
    size_t lead = 0;
    while (lead < bytes->arg && bytes->u.data[lead] == 0) ++lead;
    return bytes->arg - lead <= 8;
  }

  const doc_node* root_;
  const doc_node* stop_;
  order order_;
  const allocator& alloc_;
  canonical_state st_;
  bool slow_keys_ = false;  ///< the current map has float or complex keys (prefix still to set)
  static constexpr size_t k_no_duplicate = ~size_t(0);
  size_t duplicate_at_ = k_no_duplicate;  ///< the earliest duplicate key's offset found so far
  error_info* error_;
  size_t current_ = 0;  ///< node index of the map being sorted
  uint64_t work_ = 0;   ///< for g_canonical_work
};

}  // namespace

uint64_t canonical_work_counter() noexcept {
  return g_canonical_work.load(std::memory_order_relaxed);
}

status encode_sorted(const doc_node* root, writer& w, uint32_t flags, const allocator& alloc,
                     error_info* error) noexcept {
  const uint32_t mode = flags & k_canonical_flags;
  const order o = mode == encode_canonical      ? order::bytewise
                  : mode == encode_length_first ? order::length_first
                                                : order::ctap2;
  canonical_encoder e(root, o, alloc, error);
  const status s = e.run(w);
  if (s != status::ok && error != nullptr && error->code != s) *error = error_info{s, 0, 0, 0};
  return s;
}

bool valid_encode_flags(uint32_t flags) noexcept {
  if ((flags & ~(uint32_t(encode_preferred) | k_canonical_flags)) != 0) return false;
  const uint32_t mode = flags & k_canonical_flags;
  return (mode & (mode - 1)) == 0;  // at most one canonical form
}

}  // namespace detail

namespace {
/// encode(n, w, flags, error): the sort's memory from alloc (a node alone:
/// the default allocator; a document: its own), plain() for the forms that
/// do not sort.
template <class Plain>
status encode_reporting(node n, writer& w, uint32_t flags, const allocator& alloc,
                        error_info* error, const Plain& plain) noexcept {
  if (error != nullptr) *error = error_info{};
  if (!n || !detail::valid_encode_flags(flags)) {
    if (error != nullptr) error->code = status::invalid_argument;
    return status::invalid_argument;
  }
  if ((flags & detail::k_canonical_flags) == 0) {
    const status s = plain();
    if (error != nullptr) error->code = s;
    return s;
  }
  return detail::encode_sorted(n.raw(), w, flags, alloc, error);
}
}  // namespace

inline namespace v1 {

status encode(node n, writer& w, uint32_t flags, error_info* error) noexcept {
  return encode_reporting(n, w, flags, default_allocator(), error,
                          [&] { return encode(n, w, flags); });
}

status encode(const document& doc, writer& w, uint32_t flags, error_info* error) noexcept {
  return encode_reporting(doc.empty() ? node() : doc.root(), w, flags, doc.get_allocator(), error,
                          [&] { return encode(doc, w, flags); });
}

status canonicalize(const void* data, size_t size, writer& w, uint32_t flags,
                    const decode_options& options, error_info* error) noexcept {
  if ((flags & detail::k_canonical_flags) == 0 || !detail::valid_encode_flags(flags)) {
    if (error != nullptr) *error = error_info{status::invalid_argument, 0, 0, 0};
    return status::invalid_argument;
  }
  document doc;
  decode_options o = options;
  o.flags &= ~uint32_t(decode_copy_strings);  // the input outlives this call
  if (status s = decode(data, size, doc, o, error); s != status::ok) return s;
  return detail::encode_sorted(doc.root().raw(), w, flags, doc.get_allocator(), error);
}

status encode(const mutable_node* n, writer& w, uint32_t flags) noexcept {
  if (n == nullptr || !detail::valid_encode_flags(flags)) return status::invalid_argument;
  if ((flags & detail::k_canonical_flags) == 0) return encode(n, w);
  // Plain bytes first, then the buffer's canonical form: mutable trees are
  // not preorder arrays, and decoding is cheap beside sorting.
  const allocator& alloc = detail::mdoc_allocator(n);
  writer plain(&alloc);
  if (status s = encode(n, plain); s != status::ok) return s;
  if (status s = plain.finish(); s != status::ok) return s;
  // Our own bytes, not input: none of decode()'s limits for untrusted
  // input apply (a mutable tree has none: 600 levels or 2^24 + 1 entries
  // encode plainly, and so they must canonically).
  decode_options lifted;
  lifted.max_depth = UINT32_MAX;
  lifted.max_nodes = UINT32_MAX;
  lifted.max_container_items = UINT64_MAX;
  lifted.max_memory = SIZE_MAX;
  document doc(&alloc);
  if (status s = decode(plain.data(), plain.size(), doc, lifted); s != status::ok) return s;
  return detail::encode_sorted(doc.root().raw(), w, flags, alloc, nullptr);
}

status encode(const mutable_document& doc, writer& w, uint32_t flags) noexcept {
  const mutable_node* root = doc.root();
  if (root == nullptr) return status::invalid_argument;
  return encode(root, w, flags);
}

}  // namespace v1
}  // namespace cbor_fast
