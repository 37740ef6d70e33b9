// Immutable documents: the arena, the document's lifetime and decoding.
//
// Decoding appends one node per item to a flat preorder array. Open
// containers, tags and indefinite strings live on an explicit stack: a node's
// subtree size, item count and "last child" mark are filled in when it closes.
//
// Two decoders build the same nodes. doc_builder::run() drives the pull
// reader, so validation, statuses and offsets are the reader's. For a whole
// buffer, doc_builder::fast() runs first: a fused loop over the common forms
// that never reports an error itself. Whatever it does not handle, including
// every malformed input, it hands back, and run() decodes from scratch. The
// tests compare the two on random and corrupted input.
#include <cstring>
#include <utility>

#include "cbor_fast/detail/head.hpp"
#include "cbor_fast/document.hpp"
#include "document/decode.hpp"
#include "document/memory.hpp"
#include "internal/endian.hpp"
#include "internal/float16.hpp"
#include "internal/utf8.hpp"

namespace cbor_fast {
namespace detail {

// ---- arena --------------------------------------------------------------------

namespace {
/// Each chunk starts with this header; the usable bytes follow.
struct chunk_header {
  void* previous;
  size_t size;  ///< whole allocation, header included
};
constexpr size_t k_first_chunk = 4096;
constexpr size_t k_max_chunk = size_t(1) << 20;
constexpr size_t k_align = 8;

inline size_t align_up(size_t n) noexcept { return (n + (k_align - 1)) & ~(k_align - 1); }
}  // namespace

void* arena_allocate(arena& a, const allocator& alloc, size_t n) noexcept {
  if (n > SIZE_MAX - sizeof(chunk_header) - k_align) return nullptr;
  const size_t need = align_up(n == 0 ? 1 : n);
  if (size_t(a.end - a.pos) >= need) {
    void* p = a.pos;
    a.pos += need;
    return p;
  }
  if (a.next_size == 0) a.next_size = k_first_chunk;
  const size_t want = need + sizeof(chunk_header);
  if (want > a.next_size / 2) {
    // Large request: its own chunk, linked behind the current one so the
    // current chunk's free space stays in use.
    auto* h = static_cast<chunk_header*>(alloc.malloc(alloc.context, want));
    if (h == nullptr) return nullptr;
    h->size = want;
    if (a.chunks == nullptr) {
      h->previous = nullptr;
      a.chunks = h;
    } else {
      auto* current = static_cast<chunk_header*>(a.chunks);
      h->previous = current->previous;
      current->previous = h;
    }
    return h + 1;
  }
  const size_t size = a.next_size;
  auto* h = static_cast<chunk_header*>(alloc.malloc(alloc.context, size));
  if (h == nullptr) return nullptr;
  h->previous = a.chunks;
  h->size = size;
  a.chunks = h;
  if (a.next_size < k_max_chunk) a.next_size *= 2;
  auto* start = reinterpret_cast<uint8_t*>(h + 1);
  a.pos = start + need;
  a.end = reinterpret_cast<uint8_t*>(h) + size;
  return start;
}

void arena_release(arena& a, const allocator& alloc) noexcept {
  void* c = a.chunks;
  while (c != nullptr) {
    auto* h = static_cast<chunk_header*>(c);
    c = h->previous;
    alloc.free(alloc.context, h, h->size);
  }
  a = arena{};
}

double float_node_value(const doc_node* n) noexcept {
  switch (n->b0) {
    case 2: return half_to_double(uint16_t(n->arg));
    case 4: return single_to_double(uint32_t(n->arg));
    default: return bits_to_double(n->arg);
  }
}

// ---- decoding -------------------------------------------------------------------

namespace {
constexpr uint32_t k_max_nodes = UINT32_MAX - 1;
constexpr uint32_t k_no_child = UINT32_MAX;
/// Offsets of definite strings are packed into 48 bits (see doc_node).
constexpr uint64_t k_max_input = (uint64_t(1) << 48) - 1;
/// View for empty copied strings: never null, never into the caller's input.
const uint8_t k_empty[1] = {0};

/// The first 8 bytes of a doc_node (type, flags, b0, b1, span) as one word,
/// so a node is written with three 64-bit stores instead of byte by byte.
constexpr uint64_t node_head(uint8_t type, uint8_t flags, uint8_t b0, uint8_t b1,
                             uint32_t span) noexcept {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return uint64_t(type) << 56 | uint64_t(flags) << 48 | uint64_t(b0) << 40 | uint64_t(b1) << 32 |
         span;
#else
  return uint64_t(type) | uint64_t(flags) << 8 | uint64_t(b0) << 16 | uint64_t(b1) << 24 |
         uint64_t(span) << 32;
#endif
}
inline void store_node(doc_node* dst, uint64_t head, uint64_t arg, uint64_t u) noexcept {
  static_assert(offsetof(doc_node, arg) == 8 && offsetof(doc_node, u) == 16, "node layout");
  auto* out = reinterpret_cast<unsigned char*>(dst);
  std::memcpy(out, &head, 8);
  std::memcpy(out + 8, &arg, 8);
  std::memcpy(out + 16, &u, 8);
}
inline uint64_t pointer_bits(const uint8_t* p) noexcept {
  doc_node n;
  n.u.offset = 0;  // all 8 bytes defined where pointers are narrower
  n.u.data = p;
  uint64_t bits;
  std::memcpy(&bits, &n.u, sizeof bits);
  return bits;
}

// Heads: the one head table (cbor_fast/detail/head.hpp). Its entries open
// with a node's first four bytes (type, flags, float width, 0), so a node's
// head is one load; arrays, maps and tags carry the subtree flag already.
static_assert(detail::k_head_level == flag_tree, "head table: level bit = node subtree flag");
inline uint64_t entry_head(const detail::head_entry& e) noexcept {
  uint32_t first;
  std::memcpy(&first, &e, sizeof first);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return uint64_t(first) << 32;
#else
  return first;
#endif
}

/// An open container, tag or indefinite string.
struct open_frame {
  uint32_t index;     ///< its node
  uint32_t last;      ///< its most recent direct child, or k_no_child
  uint64_t children;  ///< direct children so far
};
}  // namespace

namespace {
memory_budget& counter_of(memory_budget& b) noexcept { return b.parent != nullptr ? *b.parent : b; }
void* budget_malloc(void* context, size_t size) {
  auto& b = *static_cast<memory_budget*>(context);
  memory_budget& c = counter_of(b);
  if (size > b.left()) {
    c.exceeded = true;
    return nullptr;
  }
  void* p = b.base->malloc(b.base->context, size);
  if (p != nullptr) c.used += size;
  return p;
}
void* budget_realloc(void* context, void* ptr, size_t old_size, size_t new_size) {
  auto& b = *static_cast<memory_budget*>(context);
  memory_budget& c = counter_of(b);
  if (new_size > old_size && new_size - old_size > b.left()) {
    c.exceeded = true;
    return nullptr;
  }
  void* p = b.base->realloc(b.base->context, ptr, old_size, new_size);
  if (p != nullptr) {
    if (new_size >= old_size)
      c.used += new_size - old_size;
    else
      c.used = c.used > old_size - new_size ? c.used - (old_size - new_size) : 0;
  }
  return p;
}
void budget_free(void* context, void* ptr, size_t size) {
  auto& b = *static_cast<memory_budget*>(context);
  memory_budget& c = counter_of(b);
  c.used = c.used > size ? c.used - size : 0;
  b.base->free(b.base->context, ptr, size);
}
}  // namespace

memory_budget::memory_budget(const allocator* base_alloc, memory_budget* counter) noexcept
    : hooks{&budget_malloc, &budget_realloc, &budget_free, this},
      base(base_alloc != nullptr ? base_alloc : &default_allocator()),
      parent(counter) {}

struct doc_builder {
  document& doc;
  const allocator& alloc;
  error_info* error;
  size_t item_start = 0;
  memory_budget* budget = nullptr;   ///< set when max_memory limits the decode
  uint64_t max_string = UINT64_MAX;  ///< longest string: the fused decoder declines past it

  /// Frees a node array left from an earlier decode: the budget counts only
  /// what this decode allocates, so it starts from nothing.
  void start_budget(memory_budget* b) noexcept {
    budget = b;
    if (b == nullptr) return;
    if (doc.nodes_ != nullptr) {
      // Freed through the budget: when the fused decoder allocated it (and
      // then declined), the bytes it counted come back.
      b->hooks.free(b, doc.nodes_, doc.capacity_ * sizeof(doc_node));
      doc.nodes_ = nullptr;
      doc.capacity_ = 0;
    }
    // Small budgets get small string chunks (the arena doubles them as it goes).
    if (doc.strings_.chunks == nullptr && b->left() < (size_t(1) << 16))
      doc.strings_.next_size = 512;
  }

  /// Copies the reader's sticky error out.
  void reader_failure(const reader& r) noexcept {
    if (error == nullptr) return;
    *error = r.error();
    error->item_offset = item_start;
  }

  status fail(status s, size_t offset, uint32_t depth) noexcept {
    if (error != nullptr) *error = error_info{s, offset, item_start, depth};
    doc.clear();
    return s;
  }

  /// Room for one more node: doubles the array (first size from the input left).
  bool grow(size_t remaining) noexcept {
    uint64_t want;
    if (doc.capacity_ == 0) {
      // About one node per 6 input bytes (the corpus has 5 to 15, so one
      // doubling at most), bounded so that a document made of one large
      // string does not reserve a large node array.
      want = remaining / 6 + 16;
      if (want > (uint64_t(1) << 20)) want = uint64_t(1) << 20;
    } else {
      want = uint64_t(doc.capacity_) * 2;
    }
    if (want > k_max_nodes) want = k_max_nodes;
    // On 32-bit targets the byte size is the tighter bound.
    constexpr uint64_t k_max_fit = uint64_t(SIZE_MAX / sizeof(doc_node));
    if (want > k_max_fit) want = k_max_fit;
    if (budget != nullptr) {
      // Within the memory budget, grow by what it allows rather than fail at
      // a doubling the document may not need; the first guess takes at most
      // a quarter, leaving room for stacks, copies and key tables.
      const uint64_t more = budget->left() / sizeof(doc_node);
      if (doc.capacity_ == 0 && want > more / 4) want = more / 4 != 0 ? more / 4 : 1;
      if (want > doc.capacity_ + more) want = doc.capacity_ + more;
      if (want <= doc.capacity_) budget->refuse();
    }
    if (want <= doc.capacity_) return false;
    const size_t old_bytes = size_t(doc.capacity_) * sizeof(doc_node);
    const size_t new_bytes = size_t(want) * sizeof(doc_node);
    void* p = doc.nodes_ != nullptr ? alloc.realloc(alloc.context, doc.nodes_, old_bytes, new_bytes)
                                    : alloc.malloc(alloc.context, new_bytes);
    if (p == nullptr) return false;
    doc.nodes_ = static_cast<doc_node*>(p);
    doc.capacity_ = uint32_t(want);
    return true;
  }

  /// Closes an indefinite string: its chunks (nodes first + 1 .. used - 1)
  /// are joined into the arena behind an 8-byte copy of the string's offset,
  /// and each chunk node is pointed at its slice of the joined content.
  bool join_chunks(uint32_t first) noexcept {
    doc_node* const nodes = doc.nodes_;
    const uint32_t used = doc.used_;
    size_t total = 0;
    for (uint32_t i = first + 1; i < used; ++i) total += size_t(nodes[i].arg);
    uint64_t offset = nodes[first].u.offset;
    auto* base = static_cast<uint8_t*>(arena_allocate(doc.strings_, alloc, sizeof offset + total));
    if (base == nullptr) return false;
    std::memcpy(base, &offset, sizeof offset);
    uint8_t* out = base + sizeof offset;
    nodes[first].u.data = out;
    nodes[first].arg = total;
    nodes[first].span = used - first;
    for (uint32_t i = first + 1; i < used; ++i) {
      const size_t n = size_t(nodes[i].arg);
      if (n != 0) std::memcpy(out, nodes[i].u.data, n);
      nodes[i].u.data = out;
      out += n;
    }
    return true;
  }

  /// Outcome of the fused decoder.
  enum class fast_outcome { done, fallback, out_of_memory };

  /// The fused decoder for a whole buffer: parses heads itself and builds
  /// exactly the nodes run() would. It accepts only the common, unambiguous
  /// forms (definite lengths, tags, floats, simple values) and hands
  /// anything else (indefinite lengths, breaks, reserved or truncated heads,
  /// invalid UTF-8, depth or node limits) back as `fallback`, with the
  /// document cleared: run() then decodes from scratch with the reader, so
  /// every status and offset comes from the reader.
  fast_outcome fast(const uint8_t* const begin, const uint8_t* const end, uint32_t flags,
                    uint32_t max_depth, uint32_t limit, uint64_t max_entries) noexcept {
    struct frame {
      uint32_t index;  ///< the container or tag
      uint32_t last;   ///< its most recent direct child
      uint64_t left;   ///< children still due (maps count keys and values)
    };
    const bool copy = (flags & decode_copy_strings) != 0;
    const bool validate = (flags & decode_validate_utf8) != 0;
    // The innermost open level lives in locals (registers); the levels
    // around it in `outer`. Node stores may alias anything in memory, so
    // nothing hot is kept there. At depth 0 `cur` is a scratch frame.
    small_stack<frame, 32> outer(alloc);
    uint32_t depth = 0;
    frame cur{0, k_no_child, 0};
    doc_node* nodes = doc.nodes_;
    uint32_t used = 0;
    // One compare per item covers both the node limit and the array's end.
    uint32_t room = doc.capacity_ < limit ? doc.capacity_ : limit;
    const uint8_t* p = begin;
    item_start = 0;

    auto bail = [&]() noexcept {
      // Copies go back through the allocator that made them (the budget's).
      arena_release(doc.strings_, alloc);
      doc.clear();
      return fast_outcome::fallback;
    };
    auto oom = [&](size_t offset) noexcept {
      if (error != nullptr) *error = error_info{status::out_of_memory, offset, 0, depth};
      doc.clear();
      return fast_outcome::out_of_memory;
    };

    for (;;) {
      const size_t off = size_t(p - begin);
      uint8_t ib;
      const detail::head_entry* e;  // fields load as bytes (not one word and shifts)
      uint64_t arg;
      const uint8_t* q;  // just past the head
      if (end - p > 8) {
        // Nine readable bytes (the usual case): any head fits, and its
        // argument is one load shifted down to its width.
        ib = *p;
        e = &detail::k_heads[ib];
        arg =
            e->arg_bytes == 0 ? uint64_t(ib & 0x1f) : detail::load_argument_n(p + 1, e->arg_bytes);
        q = p + 1 + e->arg_bytes;
      } else {
        if (p == end) return bail();
        ib = *p;
        e = &detail::k_heads[ib];
        if (size_t(end - p) <= e->arg_bytes) return bail();
        arg = e->arg_bytes == 0 ? uint64_t(ib & 0x1f)
                                : detail::load_argument_short(p + 1, e->arg_bytes);
        q = p + 1 + e->arg_bytes;
      }

      if (used >= room) {
        if (used >= limit) return bail();
        doc.used_ = used;
        if (!grow(size_t(end - p))) return oom(off);
        nodes = doc.nodes_;
        room = doc.capacity_ < limit ? doc.capacity_ : limit;
      }
      const uint32_t index = used++;
      cur.last = index;
      uint64_t children;  // containers and tags: direct children to come
      const uint64_t head = entry_head(*e);
      switch (e->kind) {
        case detail::hk_scalar:
          store_node(nodes + index, head, arg, off);
          p = q;
          goto complete;
        case detail::hk_simple8:
          if (arg < 32) return bail();
          store_node(nodes + index, head, arg, off);
          p = q;
          goto complete;
        case detail::hk_bytes:
        case detail::hk_text: {
          if (arg > uint64_t(end - q) || arg > max_string) return bail();
          if (validate && e->kind == detail::hk_text && !utf8_is_valid(q, size_t(arg), end))
            return bail();
          const uint8_t* data = q;
          if (copy) {
            if (arg == 0) {
              data = k_empty;
            } else {
              void* c = arena_allocate(doc.strings_, alloc, size_t(arg));
              if (c == nullptr) return oom(off);
              std::memcpy(c, q, size_t(arg));
              data = static_cast<const uint8_t*>(c);
            }
          }
          store_node(nodes + index,
                     head | node_head(0, 0, uint8_t(uint64_t(off) >> 32),
                                      uint8_t(uint64_t(off) >> 40), uint32_t(off)),
                     arg, pointer_bits(data));
          p = q + arg;
          goto complete;
        }
        case detail::hk_array:
          // Each item takes a byte at least: larger counts are the reader's to reject.
          if (arg > uint64_t(end - q) || arg > max_entries) return bail();
          children = arg;
          break;
        case detail::hk_map:
          if (arg > uint64_t(end - q) / 2 || arg > max_entries) return bail();
          children = 2 * arg;
          break;
        case detail::hk_tag: children = 1; break;
        default: return bail();  // reserved (28-30), indefinite or break (31)
      }
      // A container or tag: the reader opens a level for it, even for [] and {}.
      if (depth >= max_depth) return bail();
      p = q;
      if (children == 0) {
        store_node(nodes + index, head | node_head(0, flag_flat, 0, 0, 1), arg, off);
        goto complete;
      }
      store_node(nodes + index, head, arg, off);
      if (depth != 0 && !outer.push(cur)) return oom(off);
      cur = frame{index, k_no_child, children};
      ++depth;
      continue;

    complete:
      // The item is done: count it against its container, closing every
      // container (and tag) it completes.
      while (depth != 0) {
        if (--cur.left != 0) break;
        doc_node& c = nodes[cur.index];
        c.span = used - cur.index;
        if (c.type != uint8_t(item_type::tag) &&
            uint64_t(c.span) - 1 == (c.type == uint8_t(item_type::map) ? 2 * c.arg : c.arg))
          c.flags |= flag_flat;
        nodes[cur.last].flags |= flag_last;
        if (--depth != 0) {
          cur = outer.top();
          outer.pop();
        }
      }
      if (depth == 0) break;
    }

    nodes[0].flags |= flag_last;
    doc.used_ = used;
    doc.items_ = used;
    doc.encoded_size_ = size_t(p - begin);
    if (error != nullptr) *error = error_info{};
    return fast_outcome::done;
  }

  status run(reader& r, uint32_t flags, uint32_t max_nodes) noexcept {
    const bool copy = (flags & decode_copy_strings) != 0;
    const uint32_t limit = max_nodes == 0 || max_nodes > k_max_nodes ? k_max_nodes : max_nodes;
    const size_t input_size = r.input().size;
    small_stack<open_frame, 32> stack(alloc);
    item it;
    // The item starts here; errors report it as their item_offset whatever
    // the reader says (it gives the error offset for top-level failures).
    item_start = r.offset();

    status s = r.next(it);
    if (s != status::ok) {
      if (s == status::end) {
        if (error != nullptr) *error = error_info{status::end, r.offset(), r.offset(), 0};
        return s;
      }
      reader_failure(r);
      return s;
    }

    for (;;) {
      bool complete = true;  // the item just handled finished a child of the top frame
      if (it.type == item_type::end) {
        const open_frame f = stack.top();
        stack.pop();
        doc_node& c = doc.nodes_[f.index];
        if (is_string_type(c.type)) {
          if (!join_chunks(f.index)) return fail(status::out_of_memory, it.offset, it.depth);
        } else {
          c.span = doc.used_ - f.index;
          c.arg = c.type == uint8_t(item_type::map) ? f.children / 2 : f.children;
          if (uint64_t(c.span) - 1 == f.children) c.flags |= flag_flat;
        }
        if (f.last != k_no_child) doc.nodes_[f.last].flags |= flag_last;
      } else {
        if (doc.used_ >= limit) return fail(status::too_many_items, it.offset, it.depth);
        if (doc.used_ == doc.capacity_ && !grow(input_size - it.offset))
          return fail(status::out_of_memory, it.offset, it.depth);
        const uint32_t index = doc.used_++;
        doc_node& n = doc.nodes_[index];
        n.type = uint8_t(it.type);
        n.flags = 0;
        n.b0 = 0;
        n.b1 = 0;
        n.span = 0;
        n.arg = it.arg;
        n.u.offset = it.offset;
        bool chunk = false;
        if (!stack.empty()) {
          open_frame& parent = stack.top();
          parent.last = index;
          ++parent.children;
          chunk = is_string_type(doc.nodes_[parent.index].type);
        }
        switch (it.type) {
          case item_type::byte_string:
          case item_type::text_string:
            if (it.is_indefinite()) {
              n.flags = flag_indefinite | flag_tree;
              if (!stack.push(open_frame{index, k_no_child, 0}))
                return fail(status::out_of_memory, it.offset, it.depth);
              complete = false;
            } else if (chunk) {
              // Joined (and so copied) when the string closes; the reader
              // has checked the total against max_string_length.
              n.flags = flag_chunk;
              n.u.data = it.u.data;
              complete = false;
            } else {
              const uint64_t off = it.offset;
              n.span = uint32_t(off);
              n.b0 = uint8_t(off >> 32);
              n.b1 = uint8_t(off >> 40);
              if (!copy) {
                n.u.data = it.u.data;
              } else if (it.arg == 0) {
                n.u.data = k_empty;
              } else {
                void* p = arena_allocate(doc.strings_, alloc, size_t(it.arg));
                if (p == nullptr) return fail(status::out_of_memory, it.offset, it.depth);
                std::memcpy(p, it.u.data, size_t(it.arg));
                n.u.data = static_cast<const uint8_t*>(p);
              }
            }
            break;
          case item_type::array:
          case item_type::map:
          case item_type::tag:
            n.flags = uint8_t(flag_tree | (it.is_indefinite() ? flag_indefinite : 0));
            if (!stack.push(open_frame{index, k_no_child, 0}))
              return fail(status::out_of_memory, it.offset, it.depth);
            complete = false;
            break;
          case item_type::floating: n.b0 = it.width; break;
          default: break;
        }
        if (!chunk) ++doc.items_;
      }

      if (complete) {
        // A tag closes as soon as its one content item is complete.
        while (!stack.empty()) {
          const open_frame& t = stack.top();
          doc_node& c = doc.nodes_[t.index];
          if (c.type != uint8_t(item_type::tag) || t.children == 0) break;
          c.span = doc.used_ - t.index;
          doc.nodes_[t.last].flags |= flag_last;
          stack.pop();
        }
        if (stack.empty()) break;
      }

      s = r.next(it);
      if (s != status::ok) {
        reader_failure(r);
        doc.clear();
        return s;
      }
    }

    doc.nodes_[0].flags |= flag_last;  // the root has no next sibling
    doc.encoded_size_ = r.offset();
    if (error != nullptr) *error = error_info{};
    return status::ok;
  }
};

}  // namespace detail

inline namespace v1 {

// ---- document -------------------------------------------------------------------

document::document(const allocator* alloc) noexcept
    : alloc_(alloc != nullptr ? alloc : &default_allocator()) {}

document::document(document&& other) noexcept
    : alloc_(other.alloc_),
      nodes_(std::exchange(other.nodes_, nullptr)),
      used_(std::exchange(other.used_, 0u)),
      root_(std::exchange(other.root_, 0u)),
      capacity_(std::exchange(other.capacity_, 0u)),
      items_(std::exchange(other.items_, size_t(0))),
      encoded_size_(std::exchange(other.encoded_size_, size_t(0))),
      strings_(std::exchange(other.strings_, detail::arena{})) {}

document& document::operator=(document&& other) noexcept {
  if (this != &other) {
    release();
    alloc_ = other.alloc_;
    nodes_ = std::exchange(other.nodes_, nullptr);
    used_ = std::exchange(other.used_, 0u);
    root_ = std::exchange(other.root_, 0u);
    capacity_ = std::exchange(other.capacity_, 0u);
    items_ = std::exchange(other.items_, size_t(0));
    encoded_size_ = std::exchange(other.encoded_size_, size_t(0));
    strings_ = std::exchange(other.strings_, detail::arena{});
  }
  return *this;
}

document::~document() { release(); }

void document::clear() noexcept {
  used_ = 0;
  root_ = 0;
  items_ = 0;
  encoded_size_ = 0;
  detail::arena_release(strings_, *alloc_);
}

void document::release() noexcept {
  clear();
  if (nodes_ != nullptr)
    alloc_->free(alloc_->context, nodes_, capacity_ * sizeof(detail::doc_node));
  nodes_ = nullptr;
  capacity_ = 0;
}

// ---- decode -----------------------------------------------------------------------

}  // namespace v1

namespace detail {
namespace {
constexpr uint32_t k_decode_flags = decode_exact | decode_copy_strings | decode_validate_utf8 |
                                    decode_reject_duplicate_keys | decode_deterministic |
                                    decode_skip_self_described;
constexpr uint32_t k_strict_flags = decode_reject_duplicate_keys | decode_deterministic;

status early_failure(status s, error_info* error, size_t offset = 0) noexcept {
  if (error != nullptr) *error = error_info{s, offset, offset, 0};
  return s;
}

/// An allocation refused for the budget is reported as such, not as out_of_memory.
status budget_status(status s, const memory_budget* budget, error_info* error) noexcept {
  if (s != status::out_of_memory || budget == nullptr || !budget->was_exceeded()) return s;
  if (error != nullptr) error->code = status::memory_budget_exceeded;
  return status::memory_budget_exceeded;
}
}  // namespace

resolved_limits resolve_limits(const decode_options& options, size_t input_size) noexcept {
  // 0 is the default: the reader's one rule (detail::resolve_defaults) for
  // depth, string length and entries per container.
  reader_options r;
  r.max_depth = options.max_depth;
  r.max_string_length = options.max_string_length;
  r.max_container_items = options.max_container_items;
  r = detail::resolve_defaults(r);
  resolved_limits l;
  l.max_depth = r.max_depth;
  l.max_nodes = options.max_nodes == 0            ? default_max_nodes
                : options.max_nodes > k_max_nodes ? k_max_nodes
                                                  : options.max_nodes;
  l.max_string_length = r.max_string_length;
  l.max_container_items = r.max_container_items;
  if (options.max_memory != 0) {
    l.max_memory = options.max_memory;
  } else {
    l.max_memory = default_max_memory(input_size);
  }
  return l;
}

reader_options reader_options_for(const resolved_limits& limits, uint32_t flags,
                                  const allocator* alloc) noexcept {
  reader_options ro;
  ro.max_depth = limits.max_depth;
  ro.validate_utf8 = (flags & decode_validate_utf8) != 0;
  ro.reject_duplicate_keys = (flags & decode_reject_duplicate_keys) != 0;
  ro.deterministic = (flags & decode_deterministic) != 0;
  ro.max_string_length = limits.max_string_length;
  ro.max_container_items = limits.max_container_items;
  // The node limit is the reader's item limit too, so the one that trips
  // first on a head (the count, or the head's own checks) is the reader's.
  ro.max_items = limits.max_nodes;
  ro.alloc = alloc;
  return ro;
}
}  // namespace detail

inline namespace v1 {
reader_options reader_options_for(const decode_options& options, const allocator* alloc) noexcept {
  return detail::reader_options_for(detail::resolve_limits(options, 0), options.flags, alloc);
}
}  // namespace v1

namespace detail {
/// Friend of document: moves the root inside top-level tags 55799.
struct doc_builder_root {
  static void skip(document& d) noexcept {
    while (d.root_ + 1 < d.used_ && d.nodes_[d.root_].type == uint8_t(item_type::tag) &&
           d.nodes_[d.root_].arg == 55799)
      ++d.root_;  // a tag's content is the next node
  }
};
void skip_marker(document& d) noexcept { doc_builder_root::skip(d); }

status decode_from_reader(reader& r, document& out, uint32_t flags, error_info* error,
                          uint32_t max_nodes, memory_budget* reader_budget) noexcept {
  out.clear();
  if ((flags & ~k_decode_flags) != 0) return early_failure(status::invalid_argument, error);
  if (r.error().code != status::ok) {
    if (error != nullptr) *error = r.error();
    return r.error().code;
  }
  if (r.depth() != 0) return early_failure(status::invalid_state, error, r.offset());
  if (uint64_t(r.input().size) > k_max_input) return early_failure(status::too_many_items, error);
  // The document's memory comes from its own allocator but counts against
  // the budget that also counts the reader's.
  memory_budget budget(&out.get_allocator(), reader_budget);
  const bool limited = reader_budget != nullptr && reader_budget->limit != SIZE_MAX;
  doc_builder b{out, limited ? budget.hooks : out.get_allocator(), error};
  b.start_budget(limited ? &budget : nullptr);
  decode_options o;
  o.max_nodes = max_nodes;
  const uint32_t limit = resolve_limits(o, 0).max_nodes;
  return budget_status(b.run(r, flags, limit), b.budget, error);
}

}  // namespace detail

inline namespace v1 {

using detail::early_failure;
using detail::k_decode_flags;

status decode(reader& r, document& out, uint32_t flags, error_info* error,
              uint32_t max_nodes) noexcept {
  // Streaming input: the whole item first (nothing of a partial one is read).
  if (r.options().streaming) {
    const status ready = r.item_ready();
    if (ready != status::ok) {
      out.clear();
      return ready;
    }
  }
  const status s = detail::decode_from_reader(r, out, flags, error, max_nodes, nullptr);
  if (s == status::ok && (flags & decode_skip_self_described) != 0) detail::skip_marker(out);
  return s;
}

}  // namespace v1

namespace detail {

status decode_buffer(const void* data, size_t size, document& out, const decode_options& options,
                     error_info* error, decode_path path) noexcept {
  out.clear();
  if (data == nullptr && size != 0) return early_failure(status::invalid_argument, error);
  if ((options.flags & ~k_decode_flags) != 0) return early_failure(status::invalid_argument, error);
  if (uint64_t(size) > k_max_input) return early_failure(status::too_many_items, error);
  const resolved_limits limits = resolve_limits(options, size);
  const uint32_t max_depth = limits.max_depth;
  const uint32_t limit = limits.max_nodes;
  const auto* begin = static_cast<const uint8_t*>(data);
  // Every allocation of this decode, the reader's included, goes through the
  // budget when there is one.
  memory_budget budget(&out.get_allocator());
  budget.arm(limits.max_memory);
  const bool limited = limits.max_memory != SIZE_MAX;
  const allocator& alloc = limited ? budget.hooks : out.get_allocator();
  size_t consumed;
  status s = status::ok;
  bool done = false;
  // The fused decoder checks no map keys: strict checks take the reader's path.
  const bool fused =
      path != decode_path::reader_only && size != 0 && (options.flags & k_strict_flags) == 0;
  if (fused) {
    doc_builder b{out, alloc, error};
    b.start_budget(limited ? &budget : nullptr);
    b.max_string = limits.max_string_length;
    switch (
        b.fast(begin, begin + size, options.flags, max_depth, limit, limits.max_container_items)) {
      case doc_builder::fast_outcome::done: done = true; break;
      case doc_builder::fast_outcome::out_of_memory:
        return budget_status(status::out_of_memory, b.budget, error);
      case doc_builder::fast_outcome::fallback:
        if (path == decode_path::fast_only) return early_failure(status::invalid_state, error);
        break;
    }
  } else if (path == decode_path::fast_only && size != 0) {
    return early_failure(status::invalid_state, error);
  }
  if (done) {
    consumed = out.encoded_size();
  } else {
    reader r(begin, size, reader_options_for(limits, options.flags, &alloc));
    doc_builder b{out, alloc, error};
    b.start_budget(limited ? &budget : nullptr);
    s = budget_status(b.run(r, options.flags, limit), b.budget, error);
    if (s != status::ok) return s;
    consumed = r.offset();
  }
  if ((options.flags & decode_exact) != 0 && consumed != size) {
    out.clear();
    return early_failure(status::trailing_bytes, error, consumed);
  }
  return status::ok;
}

}  // namespace detail

inline namespace v1 {

status decode(const void* data, size_t size, document& out, const decode_options& options,
              error_info* error) noexcept {
  const status s =
      detail::decode_buffer(data, size, out, options, error, detail::decode_path::automatic);
  if (s == status::ok && (options.flags & decode_skip_self_described) != 0)
    detail::skip_marker(out);
  return s;
}

// ---- node lookups that are not inline ------------------------------------------

status node::get_bignum(uint64_t& raw, byte_view& magnitude, bool& negative) const noexcept {
  if (p_ == nullptr) return status::invalid_argument;
  switch (item_type(p_->type)) {
    case item_type::unsigned_int:
    case item_type::negative_int:
      raw = p_->arg;
      magnitude = byte_view{};
      negative = p_->type == uint8_t(item_type::negative_int);
      return status::ok;
    case item_type::tag: {
      const detail::doc_node* c = p_ + 1;
      if ((p_->arg != 2 && p_->arg != 3) || c->type != uint8_t(item_type::byte_string))
        return status::type_mismatch;
      raw = 0;
      magnitude = byte_view{c->u.data, size_t(c->arg)};
      negative = p_->arg == 3;
      return status::ok;
    }
    default: return status::type_mismatch;
  }
}

}  // namespace v1
}  // namespace cbor_fast
