// The reader's strict map-key checks (internal): duplicate keys and the key
// order of core deterministic encoding.
#ifndef CBOR_FAST_SRC_READER_STRICT_HPP
#define CBOR_FAST_SRC_READER_STRICT_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cbor_fast/allocator.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"

namespace cbor_fast {
namespace detail {

/// A growable array of trivially copyable values that allocates only through
/// an allocator and reports failure by returning false.
template <class T>
class pod_vector {
  static_assert(std::is_trivially_copyable<T>::value, "values are copied bytewise");

 public:
  explicit pod_vector(const allocator& alloc) noexcept : alloc_(&alloc) {}
  pod_vector(const pod_vector&) = delete;
  pod_vector& operator=(const pod_vector&) = delete;
  ~pod_vector() {
    if (data_ != nullptr) alloc_->free(alloc_->context, data_, capacity_ * sizeof(T));
  }

  bool reserve(size_t n) noexcept {
    if (n <= capacity_) return true;
    size_t want = capacity_ < 16 ? 16 : capacity_;
    while (want < n) {
      if (want > SIZE_MAX / sizeof(T) / 2) return false;
      want *= 2;
    }
    void* p = data_ != nullptr
                  ? alloc_->realloc(alloc_->context, data_, capacity_ * sizeof(T), want * sizeof(T))
                  : alloc_->malloc(alloc_->context, want * sizeof(T));
    if (p == nullptr) return false;
    data_ = static_cast<T*>(p);
    capacity_ = want;
    return true;
  }
  bool push_back(const T& v) noexcept {
    if (size_ == capacity_ && !reserve(size_ + 1)) return false;
    data_[size_++] = v;
    return true;
  }
  /// Appends n values from src (the bytes, for pod_vector<uint8_t>).
  bool append(const T* src, size_t n) noexcept {
    if (n > SIZE_MAX - size_ || !reserve(size_ + n)) return false;
    if (n != 0) std::memcpy(data_ + size_, src, n * sizeof(T));
    size_ += n;
    return true;
  }
  /// n more values, left uninitialised for the caller to fill: their first
  /// one, or nullptr when memory runs out (nothing changes then).
  T* extend(size_t n) noexcept {
    if (n > SIZE_MAX - size_ || !reserve(size_ + n)) return nullptr;
    T* p = data_ + size_;
    size_ += n;
    return p;
  }
  /// Shrinks (never grows) to n values.
  void truncate(size_t n) noexcept { size_ = n < size_ ? n : size_; }
  void clear() noexcept { size_ = 0; }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](size_t i) noexcept { return data_[i]; }
  const T& operator[](size_t i) const noexcept { return data_[i]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }
  void pop_back() noexcept { --size_; }

 private:
  const allocator* alloc_;
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

/// SipHash-1-3 under the process's random key (the key checker's hashes,
/// shared with the mutable documents' map index): of data[0, size), and of
/// three words.
uint64_t keyed_hash_bytes(const uint8_t* data, size_t size) noexcept;
uint64_t keyed_hash_words(uint64_t a, uint64_t b, uint64_t c) noexcept;

/// Key bookkeeping for the maps a strict reader has open.
///
/// Keys of every open map share one entry stack, one hash table and one
/// arena: a map only adds entries while it is the innermost open map (the
/// keys of a map nested in a key or value have been dropped again when that
/// map closed), so closing a map pops exactly the newest entries. Chains
/// insert at the head, which makes each popped entry the head of its chain.
class key_checker {
 public:
  explicit key_checker(const allocator& alloc) noexcept;
  key_checker(const key_checker&) = delete;
  key_checker& operator=(const key_checker&) = delete;

  /// A map opened as reader level `level` (the reader's depth after pushing
  /// it). False when memory runs out.
  bool open_map(uint32_t level) noexcept;
  /// Drops the maps at levels above `depth` (they have closed).
  void close_above(uint32_t depth) noexcept;
  /// Forgets everything (the reader restarts); keeps the memory.
  void clear() noexcept;
  /// Streaming input: keep a copy of every key read (the input before the
  /// reader's position may be gone by the next key), in the arena.
  void set_copy_keys(bool on) noexcept { copy_keys_ = on; }
  /// The input offset of the earliest key still being read, or SIZE_MAX.
  size_t earliest_open_key() const noexcept {
    for (size_t i = 0; i < maps_.size(); ++i)
      if (maps_[i].key_open) return maps_[i].key_start;
    return SIZE_MAX;
  }

  /// True when the map at reader level `level` is the innermost one tracked.
  bool tracks(uint32_t level) const noexcept {
    return !maps_.empty() && maps_.back().level == level;
  }
  /// The innermost tracked map's key (tracks() must be true).
  void begin_key(size_t offset) noexcept {
    maps_.back().key_start = offset;
    maps_.back().key_open = true;
  }
  bool key_open() const noexcept { return maps_.back().key_open; }
  size_t key_start() const noexcept { return maps_.back().key_start; }

  /// Ends the innermost map's open key, whose encoding is input[key_start, end).
  /// `raw_canonical` says those bytes are already the key's canonical form (a
  /// single item with a shortest head). Returns ok, duplicate_key,
  /// unsorted_map_keys (deterministic) or out_of_memory; the offending
  /// offset is key_start().
  status end_key(const uint8_t* input, size_t end, bool raw_canonical, bool deterministic,
                 bool duplicates) noexcept;

 private:
  struct map_state {
    uint32_t level;
    bool key_open;
    uint8_t in_key;  ///< k_in_key, k_not_in_key or 0 (not known yet): see inside_key()
    bool has_previous;
    bool previous_in_arena;  ///< previous_start/end index arena_, not the input
    size_t key_start;
    size_t previous_start;  ///< the previous key's encoding (deterministic order)
    size_t previous_end;
    size_t entries_mark;  ///< entries_.size() when the map opened
    size_t arena_mark;    ///< arena_.size() when the map opened
  };
  struct key_entry {
    uint64_t hash;
    size_t offset;  ///< into the input, or into arena_ when in_arena
    size_t size;
    uint32_t next;  ///< older entry in the same bucket, or k_none
    bool in_arena;
    /// A key holding an array or map: `hash` is its structural hash and the
    /// bytes are the key's own, canonicalised only when the hashes match.
    bool structural;
  };
  /// A structural key of a map inside a key still being read: its span of
  /// the input and its hash, for the walk of that enclosing key to take
  /// instead of walking the span again.
  struct key_memo {
    size_t start;
    size_t end;
    uint64_t hash;
  };
  /// An array, map or tag open in hash_structural().
  struct walk_frame {
    uint64_t sum;    ///< arrays: of (index, item hash); maps: of (key hash, value hash)
    uint64_t left;   ///< items still due; UINT64_MAX when indefinite
    uint64_t count;  ///< items seen
    uint64_t extra;  ///< maps: the pending key's hash; tags: the tag number
    uint8_t major;   ///< 4, 5 or 6
  };
  static constexpr uint32_t k_none = UINT32_MAX;
  static constexpr uint8_t k_not_in_key = 1;
  static constexpr uint8_t k_in_key = 2;

  /// Whether the innermost map is inside a key of an enclosing map that is
  /// still being read (whose input the reader keeps: reader::keep_from()).
  bool inside_key() noexcept;
  status insert_unique(const uint8_t* input, size_t offset, size_t size, bool in_arena) noexcept;
  /// Adds a key to the innermost map: its bytes (input[offset] or
  /// arena_[offset]) and hash; duplicate_key when an equal key is there.
  status insert_hashed(const uint8_t* input, const uint8_t* bytes, uint64_t hash, size_t offset,
                       size_t size, bool in_arena, bool structural) noexcept;
  /// end_key() of a key whose first item after its tags is an array or map.
  status end_structural_key(const uint8_t* input, size_t start, size_t end) noexcept;
  /// The structural hash of the one item at input[start, end): leaves (items
  /// holding no array or map) hash their canonical form, arrays their items'
  /// hashes in order, maps the sum of their entries' hashes (order-free),
  /// tags their number and content's hash; memo_[memo..] stands in for the
  /// keys it covers. Keys equal in the data model hash equal.
  status hash_structural(const uint8_t* input, size_t start, size_t end, size_t memo,
                         uint64_t* out) noexcept;
  /// The hash of the leaf item data[0, size): SipHash of its canonical form.
  status hash_leaf(const uint8_t* data, size_t size, uint64_t* out) noexcept;
  /// Whether two structural keys are equal in the data model: their canonical
  /// forms are compared (only when their hashes match).
  status same_structural(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size,
                         bool* same) noexcept;
  bool rehash(size_t buckets) noexcept;
  /// Appends the key form of the well-formed item data[0, size) to arena_:
  /// canonical heads and lengths, floats as key_float(), bignums as integers
  /// where they fit, map entries sorted, so that keys equal in the data
  /// model (RFC 8949 5.6) have equal bytes.
  status canonicalize(const uint8_t* data, size_t size, pod_vector<uint8_t>& dst) noexcept;
  /// Sorts the entries of every map in bytes (definite lengths only) by their
  /// key bytes, innermost maps first.
  status sort_nested_maps(pod_vector<uint8_t>& bytes) noexcept;

  const allocator& alloc_;
  pod_vector<map_state> maps_;
  pod_vector<key_entry> entries_;
  pod_vector<uint32_t> buckets_;  ///< newest entry per bucket; size is a power of two
  bool copy_keys_ = false;
  /// Canonical forms of keys whose bytes are not; copies of keys while streaming.
  pod_vector<uint8_t> arena_;
  pod_vector<key_memo> memo_;    ///< disjoint, in input order
  pod_vector<walk_frame> walk_;  ///< hash_structural()'s open containers and tags
};

/// Bytes the structural key hashing and the key canonicalisation have
/// processed in this process (a work counter for tests: linear in the input).
uint64_t key_work_counter() noexcept;

/// True when the item's head has its shortest form: the shortest argument
/// encoding, or for a float the shortest width that holds it exactly.
bool is_preferred(const item& it) noexcept;

/// A float key's form at out (3, 5 or 9 bytes; returns the size): the
/// shortest width, with -0.0 as 0.0 and every NaN as f97e00.
size_t key_float(double value, uint8_t* out) noexcept;

/// Deterministic check of a tag 2/3: false when content[0, end) starts with
/// a byte string that RFC 8949 3.4.3 would not write (8 bytes or fewer, so an
/// integer; or a leading zero byte).
bool bignum_is_preferred(const uint8_t* content, const uint8_t* end) noexcept;
/// The bytes content[0, end) lacks for bignum_is_preferred() to decide (0
/// when it can): streaming input may end inside the string's head.
size_t bignum_missing(const uint8_t* content, const uint8_t* end) noexcept;

/// The width (2, 4 or 8) of the shortest float that holds `value` exactly,
/// NaN payloads included; *bits receives its encoding at that width.
unsigned shortest_float(double value, uint64_t* bits) noexcept;

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_SRC_READER_STRICT_HPP
