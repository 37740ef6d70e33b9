// Mutable documents: nodes and strings in an arena, child vectors grown
// through the allocator, deep copy from an immutable document.
//
// A node is placed at most once (root, container item or tag content) and
// remembers its parent, so a container can never end up inside itself.
#include <cmath>
#include <cstring>
#include <new>
#include <utility>

#include "cbor_fast/document.hpp"
#include "document/memory.hpp"
#include "internal/float16.hpp"
#include "reader/strict.hpp"

namespace cbor_fast {
namespace detail {

namespace {
const uint8_t k_empty[1] = {0};

bool is_container(uint8_t t) noexcept {
  return t == uint8_t(item_type::array) || t == uint8_t(item_type::map);
}
}  // namespace

/// A map's key index: built by map_set(), map_remove() and map_remove_int()
/// once the map has k_index_min pairs, then kept in step with every change
/// of the map's pairs, so that while a map has one it covers all its pairs.
/// Open addressing with linear probing over the pairs whose key is a text
/// string or an integer; a slot holds the key node of the first pair with
/// that key (lookups find the first, as the linear search did; the pair's
/// number is the node's index / 2, so removals move nothing here). Later
/// pairs with the same key are counted in `shadowed`. It lives from the
/// document's allocator; its pointer sits in the map's child vector one
/// slot past the capacity.
struct map_index {
  size_t mask;            ///< slots - 1 (slots a power of two)
  size_t entries;         ///< slots in use
  size_t shadowed;        ///< indexable pairs whose key an earlier pair has
  mutable_node* slot[1];  ///< really mask + 1 of them; nullptr: empty

  static size_t bytes(size_t slots) noexcept {
    return offsetof(map_index, slot) + slots * sizeof(mutable_node*);
  }
};

namespace {
constexpr size_t k_index_min = 16;  ///< pairs before a map gets an index

/// A key as the index sees it: a text string (data, size) or an integer
/// (its major type and raw argument).
struct index_key {
  uint8_t type;
  uint64_t arg;  ///< the string's size, or the integer's raw argument
  const uint8_t* data;
};

bool indexable(const mutable_node* k, index_key& out) noexcept {
  out.type = uint8_t(k->type());
  if (out.type == uint8_t(item_type::text_string)) {
    std::string_view t;
    k->get_text(t);
    out.arg = t.size();
    out.data = reinterpret_cast<const uint8_t*>(t.data());
    return true;
  }
  if (out.type == uint8_t(item_type::unsigned_int) ||
      out.type == uint8_t(item_type::negative_int)) {
    bool negative = false;
    k->get_int_raw(out.arg, negative);
    out.data = nullptr;
    return true;
  }
  return false;
}

/// The key's hash under the process's random key (as the duplicate-key
/// check's), so that chosen keys cannot pile up in one run of slots.
uint64_t hash_key(const index_key& k) noexcept {
  if (k.type == uint8_t(item_type::text_string))
    return keyed_hash_bytes(k.arg != 0 ? k.data : k_empty, size_t(k.arg));
  return keyed_hash_words(k.type, k.arg, 0);
}

bool same_key(const mutable_node* k, const index_key& want) noexcept {
  index_key got{};
  if (!indexable(k, got) || got.type != want.type || got.arg != want.arg) return false;
  return want.data == nullptr || want.arg == 0 || std::memcmp(got.data, want.data, want.arg) == 0;
}
}  // namespace

/// The state behind a mutable_document. Allocated on first use so that the
/// document object itself can move while nodes keep pointing here.
struct mdoc_core {
  const allocator* alloc;
  arena mem;
  mutable_node* root = nullptr;
  mutable_node* vectors = nullptr;  ///< containers that own a child vector

  explicit mdoc_core(const allocator* a) noexcept : alloc(a) {}

  mutable_node* make(item_type t, uint64_t arg = 0) noexcept {
    void* p = arena_allocate(mem, *alloc, sizeof(mutable_node));
    if (p == nullptr) return nullptr;
    auto* n = new (p) mutable_node();
    n->owner_ = this;
    n->type_ = uint8_t(t);
    n->arg_ = arg;
    return n;
  }

  mutable_node* make_string(item_type t, const void* data, size_t size) noexcept {
    if (data == nullptr && size != 0) return nullptr;
    const uint8_t* copy = k_empty;
    if (size != 0) {
      void* p = arena_allocate(mem, *alloc, size);
      if (p == nullptr) return nullptr;
      std::memcpy(p, data, size);
      copy = static_cast<const uint8_t*>(p);
    }
    mutable_node* n = make(t, size);
    if (n != nullptr) n->u_.data = copy;
    return n;
  }

  mutable_node* make_float(double v, float_width width) noexcept {
    if (width != float_width::shortest && width != float_width::half &&
        width != float_width::single && width != float_width::double_)
      return nullptr;
    // A forced width holds the value it writes (get_double() as a decoded
    // node's); a NaN keeps its payload's bits for the writer to narrow.
    if (!std::isnan(v) && width == float_width::half) v = half_to_double(double_to_half(v));
    if (!std::isnan(v) && width == float_width::single) v = single_to_double(double_to_single(v));
    mutable_node* n = make(item_type::floating);
    if (n != nullptr) {
      n->u_.dbl = v;
      n->width_ = uint8_t(width);
    }
    return n;
  }

  mutable_node* make_simple(uint8_t v) noexcept {
    if (v >= 24 && v < 32) return nullptr;
    item_type t = item_type::simple;
    if (v == 20 || v == 21) t = item_type::boolean;
    if (v == 22) t = item_type::null;
    if (v == 23) t = item_type::undefined;
    return make(t, v);
  }

  mutable_node* make_tag(uint64_t tag, mutable_node* content) noexcept {
    if (content == nullptr || content->owner_ != this || content->is_placed()) return nullptr;
    mutable_node* n = make(item_type::tag, tag);
    if (n != nullptr) {
      n->u_.content = content;
      content->parent_ = n;
      content->index_ = 0;
      content->flags_ |= mutable_node::flag_placed;
    }
    return n;
  }

  /// Frees child vectors and the arena; the core stays usable.
  void release() noexcept {
    for (mutable_node* m = vectors; m != nullptr; m = m->next_vec_) {
      drop_index(m);
      alloc->free(alloc->context, m->u_.children, (m->capacity_ + 1) * sizeof(mutable_node*));
    }
    arena_release(mem, *alloc);
    root = nullptr;
    vectors = nullptr;
  }

  static const allocator& allocator_of(const mutable_node* n) noexcept { return *n->owner_->alloc; }

  // ---- a map's key index (map_index) ----

  /// The map's index, or nullptr (also for a node without a child vector).
  static map_index* index_of(const mutable_node* m) noexcept {
    if (m->u_.children == nullptr || m->type_ != uint8_t(item_type::map)) return nullptr;
    return reinterpret_cast<map_index*>(m->u_.children[m->capacity_]);
  }
  static void set_index(mutable_node* m, map_index* x) noexcept {
    m->u_.children[m->capacity_] = reinterpret_cast<mutable_node*>(x);
  }

  void drop_index(mutable_node* m) noexcept {
    map_index* x = index_of(m);
    if (x == nullptr) return;
    alloc->free(alloc->context, x, map_index::bytes(x->mask + 1));
    set_index(m, nullptr);
  }

  static size_t home(const map_index* x, const index_key& k) noexcept {
    return size_t(hash_key(k)) & x->mask;
  }

  /// Enters pair `pair` of m in x, unless a pair before it has its key
  /// (then counted as shadowed).
  static void index_enter(const mutable_node* m, map_index* x, size_t pair) noexcept {
    mutable_node* node = m->u_.children[2 * pair];
    index_key k{};
    if (!indexable(node, k)) return;
    for (size_t i = home(x, k);; i = (i + 1) & x->mask) {
      if (x->slot[i] == nullptr) {
        x->slot[i] = node;
        ++x->entries;
        return;
      }
      if (same_key(x->slot[i], k)) {
        ++x->shadowed;
        return;
      }
    }
  }

  /// Empties slot i, moving back the entries after it that probing would
  /// no longer reach (backward-shift deletion: no tombstones).
  static void index_erase_slot(map_index* x, size_t i) noexcept {
    for (size_t j = i;;) {
      j = (j + 1) & x->mask;
      mutable_node* e = x->slot[j];
      if (e == nullptr) break;
      index_key k{};
      indexable(e, k);
      const size_t h = home(x, k);
      // e stays where it is when its home lies cyclically in (i, j].
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (!stays) {
        x->slot[i] = e;
        i = j;
      }
    }
    x->slot[i] = nullptr;
    --x->entries;
  }

  /// Makes m's index cover its pairs from scratch, in a table with room for
  /// them at a load of at most one half (a new one when needed). False, and
  /// no index, when the allocator refuses the table.
  bool index_rebuild(mutable_node* m) noexcept {
    const size_t pairs = m->count_ / 2;
    size_t slots = 64;
    while (slots / 2 < pairs + 1) slots *= 2;
    map_index* x = index_of(m);
    if (x == nullptr || x->mask + 1 != slots) {
      drop_index(m);
      x = static_cast<map_index*>(alloc->malloc(alloc->context, map_index::bytes(slots)));
      if (x == nullptr) return false;
      x->mask = slots - 1;
      set_index(m, x);
    }
    x->entries = 0;
    x->shadowed = 0;
    for (size_t i = 0; i < slots; ++i) x->slot[i] = nullptr;
    for (size_t p = 0; p < pairs; ++p) index_enter(m, x, p);
    return true;
  }

  /// After a mutating call appended pair `pair` (the last): keeps an index
  /// in step, growing it (dropped if the allocator refuses).
  void index_appended(mutable_node* m, size_t pair) noexcept {
    map_index* x = index_of(m);
    if (x == nullptr) return;
    if ((x->entries + 1) * 2 > x->mask + 1) {
      index_rebuild(m);
      return;
    }
    index_enter(m, x, pair);
  }

  /// After the pair with key node k was taken out of m, the pairs from
  /// `from` on (the later ones, already moved down): k leaves the index,
  /// and when it was entered and the map has shadowed keys, the first later
  /// pair with its key takes its place (a scan only then).
  static void index_removed(mutable_node* m, const mutable_node* k, size_t from) noexcept {
    map_index* x = index_of(m);
    index_key key{};
    if (x == nullptr || !indexable(k, key)) return;
    for (size_t i = home(x, key);; i = (i + 1) & x->mask) {
      mutable_node* e = x->slot[i];
      if (e == nullptr) return;  // not reached: every indexable key is entered or shadowed
      if (!same_key(e, key)) continue;
      if (e != k) {
        --x->shadowed;
        return;
      }
      index_erase_slot(x, i);
      break;
    }
    if (x->shadowed == 0) return;
    for (size_t p = from; p < m->count_ / 2; ++p)
      if (same_key(m->u_.children[2 * p], key)) {
        --x->shadowed;
        index_enter(m, x, p);
        return;
      }
  }

  /// Before a mutating call's key search: a map of k_index_min pairs or
  /// more gets its index (a failed allocation leaves the search linear).
  void index_wanted(mutable_node* m) noexcept {
    if (m->count_ / 2 >= k_index_min && index_of(m) == nullptr) index_rebuild(m);
  }

  /// The number of the first pair with key k through m's index: SIZE_MAX
  /// for none, or false when m has no index.
  static bool index_find(const mutable_node* m, const index_key& k, size_t& pair) noexcept {
    const map_index* x = index_of(m);
    if (x == nullptr) return false;
    for (size_t i = home(x, k);; i = (i + 1) & x->mask) {
      const mutable_node* e = x->slot[i];
      if (e == nullptr) {
        pair = SIZE_MAX;
        return true;
      }
      if (same_key(e, k)) {
        pair = e->index_ / 2;
        return true;
      }
    }
  }

  /// Deep copy of a document subtree, iterative (see mutable_document::copy).
  status copy(const doc_node* p, mutable_node*& out) noexcept {
    struct frame {
      mutable_node* container;
      const doc_node* end;  ///< where its subtree stops in the source
    };
    small_stack<frame, 64> stack(*alloc);
    const doc_node* const stop = after(p);
    mutable_node* top = nullptr;
    while (p != stop) {
      mutable_node* m;
      bool opens = false;
      switch (item_type(p->type)) {
        case item_type::byte_string:
        case item_type::text_string:
          m = make_string(item_type(p->type), p->u.data, size_t(p->arg));
          break;
        case item_type::floating: m = make_float(float_node_value(p), float_width(p->b0)); break;
        case item_type::array:
        case item_type::map:
          m = make(item_type(p->type));
          if (m == nullptr) break;
          if ((p->flags & flag_indefinite) != 0) m->flags_ |= mutable_node::flag_indefinite;
          if (p->arg != 0) {
            const size_t n = size_t(p->type == uint8_t(item_type::map) ? 2 * p->arg : p->arg);
            if (m->reserve_children(n) != status::ok) return status::out_of_memory;
            opens = true;
          }
          break;
        case item_type::tag:
          m = make(item_type::tag, p->arg);
          opens = true;
          break;
        default: m = make(item_type(p->type), p->arg); break;
      }
      if (m == nullptr) return status::out_of_memory;
      if (stack.empty()) {
        top = m;
      } else {
        mutable_node* c = stack.top().container;
        if (c->type_ == uint8_t(item_type::tag)) {
          c->u_.content = m;
          c->adopt(m, 0);
        } else {
          c->u_.children[c->count_++] = m;  // reserved above
          c->adopt(m, c->count_ - 1);
        }
      }
      if (opens) {
        if (!stack.push(frame{m, after(p)})) return status::out_of_memory;
        ++p;
      } else {
        p = after(p);
      }
      while (!stack.empty() && stack.top().end == p) stack.pop();
    }
    out = top;
    return status::ok;
  }
};

const allocator& mdoc_allocator(const mutable_node* n) noexcept {
  return mdoc_core::allocator_of(n);
}

}  // namespace detail

inline namespace v1 {

// ---- mutable_node ----------------------------------------------------------------

status mutable_node::reserve_children(size_t extra) noexcept {
  if (capacity_ - count_ >= extra) return status::ok;
  if (extra > SIZE_MAX / sizeof(mutable_node*) / 2 - count_) return status::out_of_memory;
  size_t want = capacity_ * 2;
  if (want < count_ + extra) want = count_ + extra;
  if (want < 4) want = 4;
  // One slot past the capacity holds a map's key index (detail::map_index).
  const allocator& a = *owner_->alloc;
  void* p = u_.children != nullptr
                ? a.realloc(a.context, u_.children, (capacity_ + 1) * sizeof(mutable_node*),
                            (want + 1) * sizeof(mutable_node*))
                : a.malloc(a.context, (want + 1) * sizeof(mutable_node*));
  if (p == nullptr) return status::out_of_memory;
  auto* children = static_cast<mutable_node**>(p);
  if (u_.children == nullptr) {
    next_vec_ = owner_->vectors;
    owner_->vectors = this;
    children[want] = nullptr;
  } else {
    children[want] = children[capacity_];
  }
  u_.children = children;
  capacity_ = want;
  return status::ok;
}

void mutable_node::adopt(mutable_node* item, size_t index) noexcept {
  item->parent_ = this;
  item->index_ = index;
  item->flags_ |= flag_placed;
}

status mutable_node::check_new_child(const mutable_node* item, item_type want) const noexcept {
  if (item == nullptr || item->owner_ != owner_ || item->is_placed())
    return status::invalid_argument;
  if (type_ != uint8_t(want)) return status::type_mismatch;
  // item is detached, so it heads its own tree: placing it here makes a cycle
  // exactly when this node lies inside that tree. Only a tag or a non-empty
  // container can hold anything, which keeps the common case O(1).
  const bool has_children = item->type_ == uint8_t(item_type::tag) ||
                            (detail::is_container(item->type_) && item->count_ != 0);
  if (item == this) return status::invalid_argument;
  if (has_children)
    for (const mutable_node* n = parent_; n != nullptr; n = n->parent_)
      if (n == item) return status::invalid_argument;
  return status::ok;
}

status mutable_node::append(mutable_node* item) noexcept {
  if (status s = check_new_child(item, item_type::array); s != status::ok) return s;
  if (status s = reserve_children(1); s != status::ok) return s;
  u_.children[count_++] = item;
  adopt(item, count_ - 1);
  return status::ok;
}

status mutable_node::array_set(size_t index, mutable_node* item) noexcept {
  if (status s = check_new_child(item, item_type::array); s != status::ok) return s;
  if (index >= count_) return status::out_of_range;
  mutable_node* old = u_.children[index];
  old->parent_ = nullptr;
  old->flags_ &= uint8_t(~flag_placed);
  u_.children[index] = item;
  adopt(item, index);
  return status::ok;
}

status mutable_node::map_put(mutable_node* key, mutable_node* value) noexcept {
  if (status s = check_new_child(key, item_type::map); s != status::ok) return s;
  if (status s = check_new_child(value, item_type::map); s != status::ok) return s;
  if (key == value) return status::invalid_argument;
  if (status s = reserve_children(2); s != status::ok) return s;
  u_.children[count_++] = key;
  u_.children[count_++] = value;
  adopt(key, count_ - 2);
  adopt(value, count_ - 1);
  owner_->index_appended(this, count_ / 2 - 1);
  return status::ok;
}

status mutable_node::map_set(std::string_view key, mutable_node* value) noexcept {
  if (status s = check_new_child(value, item_type::map); s != status::ok) return s;
  owner_->index_wanted(this);
  if (const size_t i = find_text_index(key); i != SIZE_MAX) {
    mutable_node* old = u_.children[i + 1];
    old->parent_ = nullptr;
    old->flags_ &= uint8_t(~flag_placed);
    u_.children[i + 1] = value;
    adopt(value, i + 1);
    return status::ok;
  }
  // Reserve first: a key node made before a failed reservation would only
  // sit unused in the arena until the document is freed.
  if (status s = reserve_children(2); s != status::ok) return s;
  mutable_node* k = owner_->make_string(item_type::text_string, key.data(), key.size());
  if (k == nullptr) return status::out_of_memory;
  u_.children[count_++] = k;
  u_.children[count_++] = value;
  adopt(k, count_ - 2);
  adopt(value, count_ - 1);
  owner_->index_appended(this, count_ / 2 - 1);
  return status::ok;
}

status mutable_node::set_indefinite(bool indefinite) noexcept {
  if (!detail::is_container(type_)) return status::type_mismatch;
  if (indefinite)
    flags_ |= flag_indefinite;
  else
    flags_ &= uint8_t(~flag_indefinite);
  return status::ok;
}

status mutable_node::get_uint64(uint64_t& out) const noexcept {
  if (type_ != uint8_t(item_type::unsigned_int)) return status::type_mismatch;
  out = arg_;
  return status::ok;
}

status mutable_node::get_int64(int64_t& out) const noexcept {
  if (type_ != uint8_t(item_type::unsigned_int) && type_ != uint8_t(item_type::negative_int))
    return status::type_mismatch;
  if (arg_ > uint64_t(INT64_MAX)) return status::out_of_range;
  out = type_ == uint8_t(item_type::unsigned_int) ? int64_t(arg_) : -1 - int64_t(arg_);
  return status::ok;
}

status mutable_node::get_int_raw(uint64_t& raw, bool& negative) const noexcept {
  if (type_ != uint8_t(item_type::unsigned_int) && type_ != uint8_t(item_type::negative_int))
    return status::type_mismatch;
  raw = arg_;
  negative = type_ == uint8_t(item_type::negative_int);
  return status::ok;
}

status mutable_node::get_double(double& out) const noexcept {
  if (type_ != uint8_t(item_type::floating)) return status::type_mismatch;
  out = u_.dbl;
  return status::ok;
}

float_width mutable_node::width() const noexcept {
  return type_ == uint8_t(item_type::floating) ? float_width(width_) : float_width::shortest;
}

status mutable_node::get_bool(bool& out) const noexcept {
  if (type_ != uint8_t(item_type::boolean)) return status::type_mismatch;
  out = arg_ == 21;
  return status::ok;
}

status mutable_node::get_simple(uint8_t& out) const noexcept {
  switch (item_type(type_)) {
    case item_type::simple:
    case item_type::boolean:
    case item_type::null:
    case item_type::undefined: out = uint8_t(arg_); return status::ok;
    default: return status::type_mismatch;
  }
}

status mutable_node::get_bytes(byte_view& out) const noexcept {
  if (type_ != uint8_t(item_type::byte_string)) return status::type_mismatch;
  out = byte_view{u_.data, size_t(arg_)};
  return status::ok;
}

status mutable_node::get_text(std::string_view& out) const noexcept {
  if (type_ != uint8_t(item_type::text_string)) return status::type_mismatch;
  out = std::string_view(reinterpret_cast<const char*>(u_.data), size_t(arg_));
  return status::ok;
}

status mutable_node::get_tag(uint64_t& out) const noexcept {
  if (type_ != uint8_t(item_type::tag)) return status::type_mismatch;
  out = arg_;
  return status::ok;
}

mutable_node* mutable_node::tag_content() const noexcept {
  return type_ == uint8_t(item_type::tag) ? u_.content : nullptr;
}

size_t mutable_node::size() const noexcept {
  if (type_ == uint8_t(item_type::array)) return count_;
  if (type_ == uint8_t(item_type::map)) return count_ / 2;
  return 0;
}

mutable_node* mutable_node::at(size_t index) const noexcept {
  return type_ == uint8_t(item_type::array) && index < count_ ? u_.children[index] : nullptr;
}

mutable_node* mutable_node::map_key(size_t index) const noexcept {
  return type_ == uint8_t(item_type::map) && index < count_ / 2 ? u_.children[2 * index] : nullptr;
}

mutable_node* mutable_node::map_value(size_t index) const noexcept {
  return type_ == uint8_t(item_type::map) && index < count_ / 2 ? u_.children[2 * index + 1]
                                                                : nullptr;
}

mutable_node* mutable_node::find(std::string_view key) const noexcept {
  if (type_ != uint8_t(item_type::map)) return nullptr;
  const size_t i = find_text_index(key);
  return i != SIZE_MAX ? u_.children[i + 1] : nullptr;
}

// ---- lookups, iteration and removal (since 0.4) -------------------------------------

namespace {
bool int_key_matches(const mutable_node* k, uint8_t want_type, uint64_t want_arg) noexcept {
  return k->type() == item_type(want_type) && [&] {
    uint64_t raw = 0;
    bool negative = false;
    k->get_int_raw(raw, negative);
    return raw == want_arg;
  }();
}
}  // namespace

size_t mutable_node::find_int_index(int64_t key) const noexcept {
  const uint8_t want_type = uint8_t(key < 0 ? item_type::negative_int : item_type::unsigned_int);
  const uint64_t want_arg = key < 0 ? ~uint64_t(key) : uint64_t(key);
  size_t pair;
  if (detail::mdoc_core::index_find(this, detail::index_key{want_type, want_arg, nullptr}, pair))
    return pair != SIZE_MAX ? 2 * pair : SIZE_MAX;
  for (size_t i = 0; i < count_; i += 2)
    if (int_key_matches(u_.children[i], want_type, want_arg)) return i;
  return SIZE_MAX;
}

size_t mutable_node::find_text_index(std::string_view key) const noexcept {
  size_t pair;
  const detail::index_key want{uint8_t(item_type::text_string), key.size(),
                               reinterpret_cast<const uint8_t*>(key.data())};
  if (detail::mdoc_core::index_find(this, want, pair))
    return pair != SIZE_MAX ? 2 * pair : SIZE_MAX;
  for (size_t i = 0; i < count_; i += 2) {
    const mutable_node* k = u_.children[i];
    if (k->type_ == uint8_t(item_type::text_string) && k->arg_ == key.size() &&
        (key.empty() || std::memcmp(k->u_.data, key.data(), key.size()) == 0))
      return i;
  }
  return SIZE_MAX;
}

mutable_node* mutable_node::find_int(int64_t key) const noexcept {
  if (type_ != uint8_t(item_type::map)) return nullptr;
  const size_t i = find_int_index(key);
  return i != SIZE_MAX ? u_.children[i + 1] : nullptr;
}

mutable_node* mutable_node::first_child() const noexcept {
  if (type_ == uint8_t(item_type::tag)) return u_.content;
  if (detail::is_container(type_) && count_ != 0) return u_.children[0];
  return nullptr;
}

mutable_node* mutable_node::next_sibling() const noexcept {
  const mutable_node* p = parent_;
  if (p == nullptr || !detail::is_container(p->type_) || index_ + 1 >= p->count_) return nullptr;
  return p->u_.children[index_ + 1];
}

mutable_node* mutable_node::parent() const noexcept { return parent_; }

status mutable_node::get_bignum(uint64_t& raw, byte_view& magnitude,
                                bool& negative) const noexcept {
  switch (item_type(type_)) {
    case item_type::unsigned_int:
    case item_type::negative_int:
      raw = arg_;
      magnitude = byte_view{};
      negative = type_ == uint8_t(item_type::negative_int);
      return status::ok;
    case item_type::tag: {
      const mutable_node* c = u_.content;
      if ((arg_ != 2 && arg_ != 3) || c->type_ != uint8_t(item_type::byte_string))
        return status::type_mismatch;
      raw = 0;
      magnitude = byte_view{c->u_.data, size_t(c->arg_)};
      negative = arg_ == 3;
      return status::ok;
    }
    default: return status::type_mismatch;
  }
}

status mutable_node::get_float_bits(uint64_t& out) const noexcept {
  if (type_ != uint8_t(item_type::floating)) return status::type_mismatch;
  switch (float_width(width_)) {
    case float_width::half: out = detail::double_to_half(u_.dbl); break;
    case float_width::single: out = detail::double_to_single(u_.dbl); break;
    case float_width::double_: out = detail::double_to_bits(u_.dbl); break;
    default: detail::shortest_float(u_.dbl, &out); break;
  }
  return status::ok;
}

void mutable_node::erase_children(size_t first, size_t n) noexcept {
  const mutable_node* key = type_ == uint8_t(item_type::map) ? u_.children[first] : nullptr;
  for (size_t i = first; i < first + n; ++i) {
    mutable_node* old = u_.children[i];
    old->parent_ = nullptr;
    old->index_ = 0;
    old->flags_ &= uint8_t(~flag_placed);
  }
  // Later entries move down, in order, and learn their new index.
  for (size_t i = first + n; i < count_; ++i) {
    u_.children[i - n] = u_.children[i];
    u_.children[i - n]->index_ = i - n;
  }
  count_ -= n;
  if (key != nullptr) detail::mdoc_core::index_removed(this, key, first / 2);
}

status mutable_node::remove_at(size_t index) noexcept {
  if (type_ != uint8_t(item_type::array)) return status::type_mismatch;
  if (index >= count_) return status::out_of_range;
  erase_children(index, 1);
  return status::ok;
}

status mutable_node::map_remove_at(size_t index) noexcept {
  if (type_ != uint8_t(item_type::map)) return status::type_mismatch;
  if (index >= count_ / 2) return status::out_of_range;
  erase_children(2 * index, 2);
  return status::ok;
}

status mutable_node::map_remove(std::string_view key) noexcept {
  if (type_ != uint8_t(item_type::map)) return status::type_mismatch;
  owner_->index_wanted(this);
  const size_t i = find_text_index(key);
  if (i == SIZE_MAX) return status::out_of_range;
  erase_children(i, 2);
  return status::ok;
}

status mutable_node::map_remove_int(int64_t key) noexcept {
  if (type_ != uint8_t(item_type::map)) return status::type_mismatch;
  owner_->index_wanted(this);
  const size_t i = find_int_index(key);
  if (i == SIZE_MAX) return status::out_of_range;
  erase_children(i, 2);
  return status::ok;
}

// ---- mutable_document ------------------------------------------------------------

mutable_document::mutable_document(const allocator* alloc) noexcept
    : alloc_(alloc != nullptr ? alloc : &default_allocator()) {}

mutable_document::mutable_document(mutable_document&& other) noexcept
    : alloc_(other.alloc_), core_(std::exchange(other.core_, nullptr)) {}

mutable_document& mutable_document::operator=(mutable_document&& other) noexcept {
  if (this != &other) {
    this->~mutable_document();
    alloc_ = other.alloc_;
    core_ = std::exchange(other.core_, nullptr);
  }
  return *this;
}

mutable_document::~mutable_document() {
  if (core_ != nullptr) {
    core_->release();
    core_->~mdoc_core();
    alloc_->free(alloc_->context, core_, sizeof(detail::mdoc_core));
    core_ = nullptr;
  }
}

detail::mdoc_core* mutable_document::core() noexcept {
  if (core_ == nullptr) {
    void* p = alloc_->malloc(alloc_->context, sizeof(detail::mdoc_core));
    if (p != nullptr) core_ = new (p) detail::mdoc_core(alloc_);
  }
  return core_;
}

mutable_node* mutable_document::root() const noexcept {
  return core_ != nullptr ? core_->root : nullptr;
}

status mutable_document::set_root(mutable_node* n) noexcept {
  if (n == nullptr || core_ == nullptr || n->owner_ != core_) return status::invalid_argument;
  if (n == core_->root) return status::ok;
  if (n->is_placed()) return status::invalid_argument;
  if (mutable_node* old = core_->root; old != nullptr)
    old->flags_ &= uint8_t(~(mutable_node::flag_placed | mutable_node::flag_root));
  n->flags_ |= mutable_node::flag_placed | mutable_node::flag_root;
  core_->root = n;
  return status::ok;
}

void mutable_document::clear() noexcept {
  if (core_ != nullptr) core_->release();
}

mutable_node* mutable_document::make_uint(uint64_t value) noexcept {
  detail::mdoc_core* c = core();
  return c != nullptr ? c->make(item_type::unsigned_int, value) : nullptr;
}

mutable_node* mutable_document::make_int(int64_t value) noexcept {
  return value < 0 ? make_negative(~uint64_t(value)) : make_uint(uint64_t(value));
}

mutable_node* mutable_document::make_negative(uint64_t n) noexcept {
  detail::mdoc_core* c = core();
  return c != nullptr ? c->make(item_type::negative_int, n) : nullptr;
}

mutable_node* mutable_document::make_bignum(const uint8_t* magnitude, size_t size,
                                            bool negative) noexcept {
  if (magnitude == nullptr && size != 0) return nullptr;
  while (size != 0 && *magnitude == 0) {
    ++magnitude;
    --size;
  }
  if (size <= 8) {
    uint64_t v = 0;
    for (size_t i = 0; i < size; ++i) v = v << 8 | magnitude[i];
    return negative ? make_negative(v) : make_uint(v);
  }
  detail::mdoc_core* c = core();
  if (c == nullptr) return nullptr;
  mutable_node* bytes = c->make_string(item_type::byte_string, magnitude, size);
  return bytes != nullptr ? c->make_tag(negative ? 3 : 2, bytes) : nullptr;
}

mutable_node* mutable_document::make_float(double value, float_width width) noexcept {
  detail::mdoc_core* c = core();
  return c != nullptr ? c->make_float(value, width) : nullptr;
}

mutable_node* mutable_document::make_bool(bool value) noexcept {
  return make_simple(value ? 21 : 20);
}
mutable_node* mutable_document::make_null() noexcept { return make_simple(22); }
mutable_node* mutable_document::make_undefined() noexcept { return make_simple(23); }

mutable_node* mutable_document::make_simple(uint8_t value) noexcept {
  detail::mdoc_core* c = core();
  return c != nullptr ? c->make_simple(value) : nullptr;
}

mutable_node* mutable_document::make_bytes(const void* data, size_t size) noexcept {
  detail::mdoc_core* c = core();
  return c != nullptr ? c->make_string(item_type::byte_string, data, size) : nullptr;
}

mutable_node* mutable_document::make_text(std::string_view text) noexcept {
  detail::mdoc_core* c = core();
  return c != nullptr ? c->make_string(item_type::text_string, text.data(), text.size()) : nullptr;
}

mutable_node* mutable_document::make_array() noexcept {
  detail::mdoc_core* c = core();
  return c != nullptr ? c->make(item_type::array) : nullptr;
}

mutable_node* mutable_document::make_map() noexcept {
  detail::mdoc_core* c = core();
  return c != nullptr ? c->make(item_type::map) : nullptr;
}

mutable_node* mutable_document::make_tag(uint64_t tag, mutable_node* content) noexcept {
  if (content == nullptr || core_ == nullptr) return nullptr;
  return core_->make_tag(tag, content);
}

status mutable_document::copy(node source, mutable_node*& out) noexcept {
  if (!source) return status::invalid_argument;
  detail::mdoc_core* c = core();
  if (c == nullptr) return status::out_of_memory;
  return c->copy(source.raw(), out);
}

status to_mutable(const document& doc, mutable_document& out) noexcept {
  out.clear();
  if (doc.empty()) return status::invalid_argument;
  mutable_node* root = nullptr;
  status s = out.copy(doc.root(), root);
  if (s == status::ok) s = out.set_root(root);
  if (s != status::ok) out.clear();
  return s;
}

}  // namespace v1
}  // namespace cbor_fast
