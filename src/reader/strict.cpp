// Strict map-key checks of the reader: duplicate keys (RFC 8949 section 5.6)
// and the key order of core deterministic encoding (section 4.2.1).
//
// Duplicates are found with a hash table over the keys' canonical forms:
// the key's own bytes when its head is already the shortest, else a
// re-encoding with shortest heads and floats and definite lengths, so that
// equal values compare equal whatever their encoding. The hash is SipHash-1-3
// under a per-process random key, so input crafted to collide cannot turn
// the linear check quadratic.
//
// A key holding arrays or maps is not canonicalised whole: maps nested in it
// have keys of their own, so a chain {{{...: 0}: 0}: 0} would be rewritten
// once per level, the input's size times its key depth. Such a key gets a
// structural hash instead, built from its items' hashes with the hashes of
// the keys nested in it remembered (memo_) rather than walked again, and its
// canonical form is made only when another key of its map hashes the same.
#include "reader/strict.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>

#include "cbor_fast/detail/head.hpp"
#include "cbor_fast/reader.hpp"
#include "internal/compiler.hpp"
#include "internal/endian.hpp"
#include "internal/float16.hpp"

namespace cbor_fast {
namespace detail {

namespace {

inline uint64_t rotl(uint64_t x, unsigned b) noexcept { return (x << b) | (x >> (64 - b)); }

inline uint64_t load_le64(const uint8_t* p) noexcept {
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

struct sip_state {
  uint64_t v0, v1, v2, v3;
  void round() noexcept {
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
  }
  void compress(uint64_t m) noexcept {
    v3 ^= m;
    round();
    v0 ^= m;
  }
  /// The state under the 128-bit key (k0, k1).
  static sip_state keyed(uint64_t k0, uint64_t k1) noexcept {
    return {k0 ^ 0x736f6d6570736575u, k1 ^ 0x646f72616e646f6du, k0 ^ 0x6c7967656e657261u,
            k1 ^ 0x7465646279746573u};
  }
  /// SipHash-1-3's three finalisation rounds and the result.
  uint64_t finish() noexcept {
    v2 ^= 0xff;
    round();
    round();
    round();
    return v0 ^ v1 ^ v2 ^ v3;
  }
};

/// SipHash-1-3 of data[0, size) under the 128-bit key (k0, k1). (Inline in
/// insert_unique(), the check of every ordinary key.)
CBOR_FAST_ALWAYS_INLINE inline uint64_t siphash13(uint64_t k0, uint64_t k1, const uint8_t* data,
                                                  size_t size) noexcept {
  sip_state s = sip_state::keyed(k0, k1);
  size_t i = 0;
  for (; size - i >= 8; i += 8) s.compress(load_le64(data + i));
  uint64_t last = uint64_t(size) << 56;
  for (unsigned j = 0; i + j < size; ++j) last |= uint64_t(data[i + j]) << (8 * j);
  s.compress(last);
  return s.finish();
}

inline uint64_t splitmix(uint64_t& x) noexcept {
  uint64_t z = (x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

struct hash_key {
  uint64_t k0, k1;
};

/// The process's hash key: the system's random device where it works, mixed
/// with the clock and an address (address-space layout randomisation) so a
/// failing device still leaves an unpredictable key.
hash_key make_hash_key() noexcept {
  static int anchor;
  uint64_t x = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^
               uint64_t(reinterpret_cast<uintptr_t>(&anchor));
  try {
    std::random_device device;
    x ^= (uint64_t(device()) << 32) ^ device();
  } catch (...) {
    // Keep the clock and address entropy.
  }
  hash_key k;
  k.k0 = splitmix(x);
  k.k1 = splitmix(x);
  return k;
}

const hash_key& process_hash_key() noexcept {
  static const hash_key key = make_hash_key();
  return key;
}

/// SipHash-1-3 of the three words (a, b, c) under the process's key: the
/// structural hashes' combining step.
uint64_t mix3(uint64_t a, uint64_t b, uint64_t c) noexcept {
  const hash_key& k = process_hash_key();
  sip_state s = sip_state::keyed(k.k0, k.k1);
  s.compress(a);
  s.compress(b);
  s.compress(c);
  return s.finish();
}

std::atomic<uint64_t> g_key_work{0};

/// SipHash-1-3 of data[0, size) under the process's key, out of line.
CBOR_FAST_NOINLINE uint64_t hash_bytes(const uint8_t* data, size_t size) noexcept {
  const hash_key& k = process_hash_key();
  return siphash13(k.k0, k.k1, data, size);
}

/// The head at p (well-formed): its size; *arg receives its argument (the
/// additional information for 28..31). Sizes from the one head table.
inline size_t read_head(const uint8_t* p, uint64_t* arg) noexcept {
  const detail::head_entry& e = detail::k_heads[*p];
  *arg = e.arg_bytes == 0 ? uint64_t(*p & 0x1fu) : detail::load_argument_short(p + 1, e.arg_bytes);
  return e.head_size;
}

/// The end of the item at p that holds no array or map (tags, then a string
/// or a scalar).
size_t leaf_end(const uint8_t* input, size_t p) noexcept {
  uint64_t arg;
  while ((input[p] >> 5) == 6) p += read_head(input + p, &arg);
  const unsigned major = input[p] >> 5;
  const size_t h = read_head(input + p, &arg);
  if (major != 2 && major != 3) return p + h;
  if ((input[p] & 0x1fu) != 31) return p + h + size_t(arg);
  p += h;
  while (input[p] != 0xff) p += read_head(input + p, &arg) + size_t(arg);  // chunks
  return p + 1;
}

/// Writes the shortest head of (major, arg) at out; returns its size.
inline size_t write_head(uint8_t* out, unsigned major, uint64_t arg) noexcept {
  return detail::write_shortest_head(out, major, arg);
}
}  // namespace

unsigned shortest_float(double value, uint64_t* bits) noexcept {
  const uint64_t d = double_to_bits(value);
  const uint16_t h = double_to_half(value);
  if (double_to_bits(half_to_double(h)) == d) {
    *bits = h;
    return 2;
  }
  const uint32_t s = double_to_single(value);
  if (double_to_bits(single_to_double(s)) == d) {
    *bits = s;
    return 4;
  }
  *bits = d;
  return 8;
}

size_t key_float(double value, uint8_t* out) noexcept {
  // Data-model equality of float keys: 0.0 and -0.0 are one key, and so are
  // all NaNs (whatever their sign and payload), as JavaScript's SameValueZero
  // has it and RFC 8949 5.6.1 allows.
  if (value != value) value = half_to_double(0x7e00);
  if (value == 0.0) value = 0.0;
  uint64_t bits;
  const unsigned width = shortest_float(value, &bits);
  out[0] = uint8_t(0xe0 | (width == 2 ? 25 : width == 4 ? 26 : 27));
  if (width == 2)
    store_be16(out + 1, uint16_t(bits));
  else if (width == 4)
    store_be32(out + 1, uint32_t(bits));
  else
    store_be64(out + 1, bits);
  return 1 + width;
}

bool bignum_is_preferred(const uint8_t* content, const uint8_t* end) noexcept {
  if (content == end || (*content >> 5) != 2) return true;  // not a bignum: nothing to say
  const unsigned ai = *content & 0x1fu;
  // Indefinite (refused by the deterministic check anyway) or reserved (not
  // well-formed): the reader reports those at the string.
  if (ai >= 28) return true;
  const unsigned n = ai < 24 ? 0u : 1u << (ai - 24);
  if (size_t(end - content) < 1 + size_t(n)) return true;  // truncated: the reader says so
  uint64_t len = n == 0 ? ai : 0;
  for (unsigned i = 1; i <= n; ++i) len = (len << 8) | content[i];
  if (len <= 8) return false;  // fits major type 0 or 1
  const uint8_t* first = content + 1 + n;
  return first == end || *first != 0;  // no leading zero byte
}

size_t bignum_missing(const uint8_t* content, const uint8_t* end) noexcept {
  if (content == end) return 1;
  if ((*content >> 5) != 2 || (*content & 0x1fu) >= 28) return 0;
  const unsigned ai = *content & 0x1fu;
  const size_t n = ai < 24 ? 0u : size_t(1) << (ai - 24);
  const size_t have = size_t(end - content);
  if (have < 1 + n) return 1 + n - have;
  uint64_t len = n == 0 ? ai : 0;
  for (size_t i = 1; i <= n; ++i) len = (len << 8) | content[i];
  return len > 8 && have == 1 + n ? 1 : 0;  // the first content byte decides
}

bool is_preferred(const item& it) noexcept {
  if (it.type == item_type::floating) {
    uint64_t bits;
    return shortest_float(it.u.dbl, &bits) == it.width;
  }
  return it.head_size == detail::shortest_head_size(it.arg);
}

key_checker::key_checker(const allocator& alloc) noexcept
    : alloc_(alloc),
      maps_(alloc),
      entries_(alloc),
      buckets_(alloc),
      arena_(alloc),
      memo_(alloc),
      walk_(alloc) {}

bool key_checker::open_map(uint32_t level) noexcept {
  map_state m{};
  m.level = level;
  m.entries_mark = entries_.size();
  m.arena_mark = arena_.size();
  return maps_.push_back(m);
}

// in_key(i) is: maps_[i - 1] has its key open, or in_key(i - 1); and it
// holds while map i is open (an enclosing key open when the map opens stays
// open until it closes, and one shut then opens only after). Each map's
// answer is found once, on the way down from the first map asking.
bool key_checker::inside_key() noexcept {
  size_t j = maps_.size() - 1;
  while (j != 0 && maps_[j].in_key == 0 && !maps_[j - 1].key_open) --j;
  const uint8_t v = maps_[j].in_key != 0 ? maps_[j].in_key : j == 0 ? k_not_in_key : k_in_key;
  for (size_t i = j; i < maps_.size(); ++i) maps_[i].in_key = v;
  return v == k_in_key;
}

void key_checker::close_above(uint32_t depth) noexcept {
  while (!maps_.empty() && maps_.back().level > depth) {
    const map_state& m = maps_.back();
    const size_t mask = buckets_.size() - 1;
    for (size_t i = entries_.size(); i > m.entries_mark; --i) {
      const key_entry& e = entries_[i - 1];
      // The newest entry of every bucket is its chain's head.
      buckets_[size_t(e.hash) & mask] = e.next;
    }
    entries_.truncate(m.entries_mark);
    arena_.truncate(m.arena_mark);
    maps_.pop_back();
  }
}

void key_checker::clear() noexcept {
  maps_.clear();
  entries_.clear();
  arena_.clear();
  memo_.clear();
  for (size_t i = 0; i < buckets_.size(); ++i) buckets_[i] = k_none;
}

bool key_checker::rehash(size_t buckets) noexcept {
  if (!buckets_.reserve(buckets)) return false;
  buckets_.truncate(0);
  for (size_t i = 0; i < buckets; ++i) buckets_.push_back(k_none);  // reserved: cannot fail
  const size_t mask = buckets - 1;
  // Oldest first, so every chain stays newest-first.
  for (size_t i = 0; i < entries_.size(); ++i) {
    key_entry& e = entries_[i];
    uint32_t& head = buckets_[size_t(e.hash) & mask];
    e.next = head;
    head = uint32_t(i);
  }
  return true;
}

uint64_t key_work_counter() noexcept { return g_key_work.load(std::memory_order_relaxed); }

CBOR_FAST_ALWAYS_INLINE inline status key_checker::insert_hashed(const uint8_t* input,
                                                                 const uint8_t* bytes,
                                                                 uint64_t hash, size_t offset,
                                                                 size_t size, bool in_arena,
                                                                 bool structural) noexcept {
  const size_t mark = maps_.back().entries_mark;
  if (!buckets_.empty()) {
    for (uint32_t i = buckets_[size_t(hash) & (buckets_.size() - 1)]; i != k_none;
         i = entries_[i].next) {
      if (i < mark) break;  // older entries belong to enclosing maps
      const key_entry& e = entries_[i];
      if (e.hash != hash || e.structural != structural) continue;
      const uint8_t* other = (e.in_arena ? arena_.data() : input) + e.offset;
      if (!structural) {
        if (e.size == size && std::memcmp(other, bytes, size) == 0) return status::duplicate_key;
        continue;
      }
      bool same = false;
      if (status s = same_structural(other, e.size, bytes, size, &same); s != status::ok) return s;
      if (same) return status::duplicate_key;
    }
  }
  if (entries_.size() >= k_none - 1) return status::out_of_memory;
  if (entries_.size() + 1 > buckets_.size() / 2) {
    const size_t want = buckets_.empty() ? 64 : buckets_.size() * 2;
    if (!rehash(want)) return status::out_of_memory;
  }
  uint32_t& head = buckets_[size_t(hash) & (buckets_.size() - 1)];
  if (!entries_.push_back(key_entry{hash, offset, size, head, in_arena, structural}))
    return status::out_of_memory;
  head = uint32_t(entries_.size() - 1);
  return status::ok;
}

status key_checker::insert_unique(const uint8_t* input, size_t offset, size_t size,
                                  bool in_arena) noexcept {
  const hash_key& k = process_hash_key();
  const uint8_t* bytes = (in_arena ? arena_.data() : input) + offset;
  return insert_hashed(input, bytes, siphash13(k.k0, k.k1, bytes, size), offset, size, in_arena,
                       false);
}

status key_checker::end_key(const uint8_t* input, size_t end, bool raw_canonical,
                            bool deterministic, bool duplicates) noexcept {
  map_state& m = maps_.back();
  m.key_open = false;
  const size_t start = m.key_start;
  const size_t size = end - start;
  if (deterministic) {
    // Bytewise lexicographic order of the encodings; no encoding is a proper
    // prefix of another, so comparing the common length decides.
    if (m.has_previous) {
      const size_t prev_size = m.previous_end - m.previous_start;
      const size_t common = prev_size < size ? prev_size : size;
      const uint8_t* prev = (m.previous_in_arena ? arena_.data() : input) + m.previous_start;
      int c = std::memcmp(prev, input + start, common);
      if (c == 0) c = prev_size < size ? -1 : prev_size > size ? 1 : 0;
      if (c == 0) return status::duplicate_key;
      if (c > 0) return status::unsorted_map_keys;
    }
    m.has_previous = true;
    // Streaming: the next key may come in a buffer without this one. Inside
    // a key still being read the input stays (reader::keep_from()), and a
    // copy would copy each byte once per enclosing key.
    m.previous_in_arena = copy_keys_ && !inside_key();
    if (m.previous_in_arena) {
      // (Earlier copies stay until the map closes: the map's key bytes once.)
      m.previous_start = arena_.size();
      if (!arena_.append(input + start, size)) return status::out_of_memory;
      m.previous_end = arena_.size();
    } else {
      m.previous_start = start;
      m.previous_end = end;
    }
    // Deterministic keys are canonical and strictly increasing, so no two are
    // the same bytes; with duplicate checks on, equal values with distinct
    // canonical bytes (0.0 and -0.0, two NaNs) are still looked for below.
    if (!duplicates) return status::ok;
  }
  if (!duplicates) return status::ok;
  // A float's own bytes are not its key form when it is -0.0 or a NaN.
  if (raw_canonical && input[start] >= 0xf9 && input[start] <= 0xfb) raw_canonical = false;
  if (raw_canonical) {
    if (CBOR_FAST_LIKELY(!copy_keys_)) return insert_unique(input, start, size, false);
    const size_t copy = arena_.size();
    if (!arena_.append(input + start, size)) return status::out_of_memory;
    const status r = insert_unique(input, copy, size, true);
    if (r != status::ok) arena_.truncate(copy);
    return r;
  }
  // A key holding an array or map (after any tags): structural.
  size_t first = start;
  uint64_t tag;
  while (first < end && (input[first] >> 5) == 6) first += read_head(input + first, &tag);
  if (first < end && (input[first] >> 5) >= 4 && (input[first] >> 5) <= 5)
    return end_structural_key(input, start, end);
  const size_t before = arena_.size();
  const status s = canonicalize(input + start, size, arena_);
  if (s != status::ok) {
    arena_.truncate(before);
    return s;
  }
  const status r = insert_unique(input, before, arena_.size() - before, true);
  if (r != status::ok) arena_.truncate(before);
  return r;
}

status key_checker::end_structural_key(const uint8_t* input, size_t start, size_t end) noexcept {
  const bool in_key = inside_key();
  // The memos of keys nested in this one: the newest, as memo_ is in input order.
  size_t first = memo_.size();
  while (first != 0 && memo_[first - 1].start >= start) --first;
  uint64_t hash = 0;
  status s = hash_structural(input, start, end, first, &hash);
  memo_.truncate(first);
  if (s != status::ok) return s;
  const size_t size = end - start;
  size_t offset = start;
  const bool copy = copy_keys_ && !in_key;  // inside a key, the input stays
  if (copy) {
    offset = arena_.size();
    if (!arena_.append(input + start, size)) return status::out_of_memory;
  }
  s = insert_hashed(input, (copy ? arena_.data() : input) + offset, hash, offset, size, copy, true);
  if (s != status::ok) {
    if (copy) arena_.truncate(offset);
    return s;
  }
  // The walk of the enclosing key takes this key's hash from here.
  if (in_key && !memo_.push_back(key_memo{start, end, hash})) return status::out_of_memory;
  return status::ok;
}

status key_checker::hash_leaf(const uint8_t* data, size_t size, uint64_t* out) noexcept {
  const uint8_t ib = data[0];
  const unsigned major = ib >> 5;
  uint64_t arg;
  const size_t h = read_head(data, &arg);
  if (major == 7 && (ib & 0x1fu) >= 25 && (ib & 0x1fu) <= 27) {
    const double v = h == 3   ? half_to_double(uint16_t(arg))
                     : h == 5 ? single_to_double(uint32_t(arg))
                              : bits_to_double(arg);
    uint8_t form[9];
    *out = hash_bytes(form, key_float(v, form));
    return status::ok;
  }
  if (major != 6 && (ib & 0x1fu) != 31 && (major == 7 || h == shortest_head_size(arg))) {
    *out = hash_bytes(data, size);  // already canonical
    return status::ok;
  }
  // Tags (bignums among them), indefinite strings, longer heads than needed.
  const size_t base = arena_.size();
  const status s = canonicalize(data, size, arena_);
  if (s == status::ok) *out = hash_bytes(arena_.data() + base, arena_.size() - base);
  arena_.truncate(base);
  return s;
}

// One pass over the key's bytes, without recursion (the key may nest as
// deep as the reader's limit allows): a frame per open array, map or tag,
// each item's hash handed to its frame as the item completes.
status key_checker::hash_structural(const uint8_t* input, size_t start, size_t end, size_t memo,
                                    uint64_t* out) noexcept {
  walk_.clear();
  size_t p = start;
  size_t work = 0;
  status s = status::ok;
  // The run of tags the last scan went over ends at chain_end, followed by
  // an array or map when chain_open: each tag of the run has that answer
  // (scanning again from each one made a run of D tags cost D^2 / 2).
  size_t chain_end = 0;
  bool chain_open = false;
  for (;;) {
    uint64_t h = 0;
    if (!walk_.empty() && walk_.back().left == UINT64_MAX && input[p] == 0xff) {
      // The break of an indefinite array or map.
      ++p;
      ++work;
      const walk_frame f = walk_.back();
      walk_.pop_back();
      h = mix3(f.major, f.count, f.sum);
    } else if (memo < memo_.size() && memo_[memo].start == p) {
      // A key nested in this one: hashed when it ended.
      h = memo_[memo].hash;
      p = memo_[memo].end;
      ++memo;
      ++work;
    } else {
      const unsigned major = input[p] >> 5;
      uint64_t arg;
      const size_t head = read_head(input + p, &arg);
      bool open = major == 4 || major == 5;
      if (major == 6) {
        // A tag opens a frame when an array or map follows its tags, else
        // it is part of a leaf.
        if (p >= chain_end) {
          size_t q = p + head;
          uint64_t unused;
          while ((input[q] >> 5) == 6) q += read_head(input + q, &unused);
          work += q - (p + head);  // the scan counts as work (a test bounds it)
          chain_end = q;
          chain_open = (input[q] >> 5) == 4 || (input[q] >> 5) == 5;
        }
        open = chain_open;
      }
      if (open) {
        p += head;
        work += head;
        walk_frame f{};
        f.major = uint8_t(major);
        if (major == 6) {
          f.left = 1;
          f.extra = arg;
        } else {
          f.left = (input[p - head] & 0x1fu) == 31 ? UINT64_MAX : major == 5 ? 2 * arg : arg;
        }
        if (f.left != 0) {
          if (!walk_.push_back(f)) {
            s = status::out_of_memory;
            break;
          }
          continue;
        }
        h = mix3(f.major, 0, 0);  // an empty definite array or map
      } else {
        const size_t e = leaf_end(input, p);
        work += e - p;
        if ((s = hash_leaf(input + p, e - p, &h)) != status::ok) break;
        p = e;
      }
    }
    // The item is complete: so may be the containers and tags it ends.
    for (;;) {
      if (walk_.empty()) {
        *out = h;
        break;
      }
      walk_frame& f = walk_.back();
      if (f.major == 6) {
        h = mix3(6, f.extra, h);
        walk_.pop_back();
        continue;
      }
      if (f.major == 4) {
        f.sum += mix3(4, f.count, h);
      } else if ((f.count & 1) == 0) {
        f.extra = h;  // a key: its value completes the entry
      } else {
        f.sum += mix3(5, f.extra, h);
      }
      ++f.count;
      if (f.left == UINT64_MAX || --f.left != 0) break;
      h = mix3(f.major, f.count, f.sum);
      walk_.pop_back();
    }
    if (walk_.empty()) break;
  }
  g_key_work.fetch_add(work, std::memory_order_relaxed);
  if (s != status::ok) return s;
  // Every byte walked and every memo inside taken: else the memos were stale.
  return p == end && memo == memo_.size() ? status::ok : status::internal_error;
}

status key_checker::same_structural(const uint8_t* a, size_t a_size, const uint8_t* b,
                                    size_t b_size, bool* same) noexcept {
  pod_vector<uint8_t> x(alloc_);
  pod_vector<uint8_t> y(alloc_);
  status s = canonicalize(a, a_size, x);
  if (s == status::ok) s = canonicalize(b, b_size, y);
  if (s != status::ok) return s;
  *same = x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size()) == 0;
  return status::ok;
}

// Two passes. The first copies the item, giving indefinite strings and
// containers a 9-byte head patched with their length or count at their end
// (chunks lose their heads). The second rewrites every head and float in
// place to its shortest form: output never outruns input, and the
// intermediate form has definite lengths only, so it needs no nesting stack.
status key_checker::canonicalize(const uint8_t* data, size_t size,
                                 pod_vector<uint8_t>& dst) noexcept {
  g_key_work.fetch_add(size, std::memory_order_relaxed);
  const size_t base = dst.size();
  struct open_item {
    size_t head;     ///< arena offset of the 9-byte head
    uint64_t count;  ///< direct children, or content bytes for strings
    uint32_t depth;
    uint8_t major;
  };
  pod_vector<open_item> open(alloc_);
  reader_options ro;
  // The outer reader has applied its limits to this key already.
  ro.max_depth = UINT32_MAX;
  ro.max_container_items = UINT64_MAX;
  ro.max_items = UINT64_MAX;
  ro.alloc = &alloc_;
  reader r(data, size, ro);
  item it;
  for (;;) {
    const status s = r.next(it);
    if (s == status::end) break;
    if (s != status::ok) return s == status::out_of_memory ? s : status::internal_error;
    if (it.type == item_type::end) {
      if (!open.empty() && open.back().depth == it.depth) {
        const open_item& o = open.back();
        uint8_t* h = dst.data() + o.head;
        h[0] = uint8_t(o.major << 5 | 27);
        store_be64(h + 1, o.major == 5 ? o.count / 2 : o.count);
        open.pop_back();
      }
      continue;  // the end of a definite container: nothing to write
    }
    const bool child = !open.empty() && open.back().depth + 1 == it.depth;
    if (child && open.back().major >= 4) ++open.back().count;
    const bool string = it.type == item_type::byte_string || it.type == item_type::text_string;
    if (it.is_indefinite()) {
      const uint8_t placeholder[9] = {};
      if (!open.push_back(open_item{dst.size(), 0, it.depth, uint8_t(data[it.offset] >> 5)}) ||
          !dst.append(placeholder, 9))
        return status::out_of_memory;
    } else if (string && child && open.back().major < 4) {
      // A chunk: its content continues the string.
      open.back().count += it.arg;
      if (!dst.append(it.u.data, size_t(it.arg))) return status::out_of_memory;
    } else {
      size_t n = it.head_size;
      if (string) n += size_t(it.arg);
      if (!dst.append(data + it.offset, n)) return status::out_of_memory;
    }
  }

  // Second pass: shortest heads, floats in key form, bignums as integers
  // where they fit (RFC 8949 3.4.3), into `out` (a bignum's integer can be
  // two bytes longer than the tag and string it replaces).
  pod_vector<uint8_t> out(alloc_);
  if (!out.reserve(dst.size() - base + 16)) return status::out_of_memory;
  const uint8_t* const a = dst.data();
  const size_t end = dst.size();
  size_t in = base;
  bool has_map = false;
  while (in < end) {
    const uint8_t ib = a[in];
    const unsigned major = ib >> 5;
    const unsigned ai = ib & 0x1fu;
    const unsigned n = ai < 24 ? 0u : 1u << (ai - 24);
    uint64_t arg = n == 0 ? ai : 0;
    for (unsigned i = 1; i <= n; ++i) arg = (arg << 8) | a[in + i];
    in += 1 + n;
    uint8_t head[18];  // a bignum: tag head and byte-string head
    size_t h;
    if (major == 7 && ai >= 25) {
      const double v = ai == 25   ? half_to_double(uint16_t(arg))
                       : ai == 26 ? single_to_double(uint32_t(arg))
                                  : bits_to_double(arg);
      h = key_float(v, head);
    } else if (major == 7) {
      // Simple values: one shortest form each (ai 24 carries 32..255 only).
      head[0] = ib;
      if (ai == 24) head[1] = uint8_t(arg);
      h = 1 + n;
    } else if (major == 6 && (arg == 2 || arg == 3) && in < end && (a[in] >> 5) == 2) {
      // A bignum: its magnitude without leading zeros; an integer if it fits.
      const unsigned bai = a[in] & 0x1fu;
      const unsigned bn = bai < 24 ? 0u : 1u << (bai - 24);
      uint64_t len = bn == 0 ? bai : 0;
      for (unsigned i = 1; i <= bn; ++i) len = (len << 8) | a[in + i];
      const uint8_t* mag = a + in + 1 + bn;
      in += 1 + bn + size_t(len);
      while (len != 0 && *mag == 0) {
        ++mag;
        --len;
      }
      if (len <= 8) {
        uint64_t v = 0;
        for (uint64_t i = 0; i < len; ++i) v = (v << 8) | mag[i];
        h = write_head(head, arg == 3 ? 1 : 0, v);
        if (!out.append(head, h)) return status::out_of_memory;
        continue;
      }
      h = write_head(head, 6, arg);
      h += write_head(head + h, 2, len);
      if (!out.append(head, h) || !out.append(mag, size_t(len))) return status::out_of_memory;
      continue;
    } else {
      h = write_head(head, major, arg);
      if (major == 5 && arg > 1) has_map = true;  // one pair has no order to fix
    }
    if (!out.append(head, h)) return status::out_of_memory;
    if (major == 2 || major == 3) {
      if (!out.append(a + in, size_t(arg))) return status::out_of_memory;
      in += size_t(arg);
    }
  }
  if (has_map) {
    // Maps are unordered in the data model: entries sorted by their key bytes
    // make equal maps equal bytes.
    if (status s = sort_nested_maps(out); s != status::ok) return s;
  }
  dst.truncate(base);
  if (!dst.append(out.data(), out.size())) return status::out_of_memory;
  return status::ok;
}

// One pass finds every map's child boundaries (definite lengths only here);
// maps are then sorted innermost first (reverse order of their heads), each
// rewritten once through a scratch copy when not in order already.
status key_checker::sort_nested_maps(pod_vector<uint8_t>& bytes) noexcept {
  struct open_item {
    uint64_t left;  ///< children still due
    size_t map;     ///< maps: index into maps; else SIZE_MAX
    size_t child;   ///< maps: children seen
  };
  struct map_info {
    size_t bounds;  ///< index into bounds: 2n + 1 offsets (child starts, then the end)
    uint64_t pairs;
  };
  pod_vector<open_item> stack(alloc_);
  pod_vector<map_info> maps(alloc_);
  pod_vector<size_t> bounds(alloc_);
  const uint8_t* const a = bytes.data();
  const size_t end = bytes.size();
  size_t in = 0;
  while (in < end) {
    // A child of the innermost open map starts here.
    if (!stack.empty() && stack.back().map != SIZE_MAX) {
      open_item& o = stack.back();
      bounds[maps[o.map].bounds + o.child++] = in;
    }
    const uint8_t ib = a[in];
    const unsigned major = ib >> 5;
    const unsigned ai = ib & 0x1fu;
    const unsigned n = ai < 24 ? 0u : 1u << (ai - 24);
    uint64_t arg = n == 0 ? ai : 0;
    if (major != 7)
      for (unsigned i = 1; i <= n; ++i) arg = (arg << 8) | a[in + i];
    in += 1 + n;
    uint64_t children = 0;
    size_t map = SIZE_MAX;
    if (major == 2 || major == 3) {
      in += size_t(arg);
    } else if (major == 4) {
      children = arg;
    } else if (major == 5) {
      children = 2 * arg;
      map = maps.size();
      const size_t at = bounds.size();
      for (uint64_t i = 0; i <= children; ++i)
        if (!bounds.push_back(0)) return status::out_of_memory;
      if (!maps.push_back(map_info{at, arg})) return status::out_of_memory;
    } else if (major == 6) {
      children = 1;
    }
    if (children != 0) {
      if (!stack.push_back(open_item{children, map, 0})) return status::out_of_memory;
      continue;
    }
    // The item is complete: so may be the containers it ends.
    while (!stack.empty()) {
      open_item& o = stack.back();
      if (--o.left != 0) break;
      if (o.map != SIZE_MAX) bounds[maps[o.map].bounds + 2 * maps[o.map].pairs] = in;
      stack.pop_back();
    }
  }
  struct pair_ref {
    size_t key, value, end;
  };
  pod_vector<pair_ref> pairs(alloc_);
  pod_vector<uint8_t> scratch(alloc_);
  uint8_t* const w = bytes.data();
  for (size_t m = maps.size(); m-- > 0;) {
    const map_info& info = maps[m];
    const size_t* b = bounds.data() + info.bounds;
    pairs.clear();
    for (uint64_t i = 0; i < info.pairs; ++i)
      if (!pairs.push_back(pair_ref{b[2 * i], b[2 * i + 1], b[2 * i + 2]}))
        return status::out_of_memory;
    const auto less = [w](const pair_ref& x, const pair_ref& y) {
      const size_t nx = x.value - x.key, ny = y.value - y.key;
      const int c = std::memcmp(w + x.key, w + y.key, nx < ny ? nx : ny);
      return c != 0 ? c < 0 : nx < ny;
    };
    pair_ref* const pb = pairs.data();
    pair_ref* const pe = pb + pairs.size();
    if (std::is_sorted(pb, pe, less)) continue;
    std::sort(pb, pe, less);
    scratch.clear();
    for (const pair_ref* p = pb; p != pe; ++p)
      if (!scratch.append(w + p->key, p->end - p->key)) return status::out_of_memory;
    std::memcpy(w + b[0], scratch.data(), scratch.size());
  }
  return status::ok;
}

uint64_t keyed_hash_bytes(const uint8_t* data, size_t size) noexcept {
  return hash_bytes(data, size);
}

uint64_t keyed_hash_words(uint64_t a, uint64_t b, uint64_t c) noexcept { return mix3(a, b, c); }

}  // namespace detail
}  // namespace cbor_fast
