// The pull reader: one well-formedness-checked item per next() call.
//
// The nesting stack is an explicit array of frames grown through the
// allocator, so depth is bounded by reader_options::max_depth and memory, never
// by the C++ call stack.
#include "cbor_fast/reader.hpp"

#include <cstring>
#include <new>
#include <utility>

#include "internal/compiler.hpp"
#include "internal/endian.hpp"
#include "internal/float16.hpp"
#include "internal/utf8.hpp"
#include "reader/strict.hpp"

namespace cbor_fast {
inline namespace v1 {

namespace {
// What a frame holds open.
// Strings last, so one compare tells "inside an indefinite string".
enum frame_kind : uint8_t { k_root = 0, k_array = 1, k_map = 2, k_tag = 3, k_bytes = 4, k_text = 5 };

constexpr uint32_t k_initial_frames = 16;
// Start value of an indefinite frame's countdown: even, so parity counts pairs,
// and out of reach (every item takes at least one byte of input).
constexpr uint64_t k_open_ended = uint64_t(1) << 63;

inline void set_end(item& out, uint32_t depth, size_t offset, bool is_break) noexcept {
  out.type = item_type::end;
  out.flags = is_break ? uint8_t(item::flag_indefinite | item::flag_break) : uint8_t(0);
  out.head_size = is_break ? 1 : 0;
  out.width = 0;
  out.depth = depth;
  out.offset = offset;
  out.arg = 0;
  out.u.data = nullptr;
}
}  // namespace

reader::reader(const uint8_t* data, size_t size, const reader_options& options) noexcept
    : begin_(data), pos_(data), end_(data + size), options_(options) {
  if (options_.alloc == nullptr) options_.alloc = &default_allocator();
  items_left_ = options_.max_items;
  strict_ = options_.reject_duplicate_keys || options_.deterministic;
  root_ = frame{k_open_ended, k_root, false};
  if (data == nullptr && size != 0) fail(status::invalid_argument, 0);
}

reader::reader(reader&& other) noexcept
    : begin_(other.begin_),
      pos_(other.pos_),
      end_(other.end_),
      options_(other.options_),
      depth_(other.depth_),
      items_left_(other.items_left_),
      joined_left_(other.joined_left_),
      item_start_(other.item_start_),
      error_(other.error_),
      root_(other.root_),
      stack_(std::exchange(other.stack_, nullptr)),
      capacity_(std::exchange(other.capacity_, 0u)),
      strict_(other.strict_),
      keys_(std::exchange(other.keys_, nullptr)) {
  top_ = depth_ != 0 ? &stack_[depth_ - 1] : &root_;
  other.depth_ = 0;
  other.top_ = &other.root_;
}

reader& reader::operator=(reader&& other) noexcept {
  if (this != &other) {
    if (stack_) options_.alloc->free(options_.alloc->context, stack_, capacity_ * sizeof(frame));
    release_keys();
    begin_ = other.begin_;
    pos_ = other.pos_;
    end_ = other.end_;
    options_ = other.options_;
    depth_ = std::exchange(other.depth_, 0u);
    items_left_ = other.items_left_;
    joined_left_ = other.joined_left_;
    item_start_ = other.item_start_;
    error_ = other.error_;
    root_ = other.root_;
    stack_ = std::exchange(other.stack_, nullptr);
    capacity_ = std::exchange(other.capacity_, 0u);
    strict_ = other.strict_;
    keys_ = std::exchange(other.keys_, nullptr);
    top_ = depth_ != 0 ? &stack_[depth_ - 1] : &root_;
    other.top_ = &other.root_;
  }
  return *this;
}

reader::~reader() {
  if (stack_) options_.alloc->free(options_.alloc->context, stack_, capacity_ * sizeof(frame));
  release_keys();
}

void reader::release_keys() noexcept {
  if (keys_ == nullptr) return;
  keys_->~key_checker();
  options_.alloc->free(options_.alloc->context, keys_, sizeof(detail::key_checker));
  keys_ = nullptr;
}

status reader::set_options(const reader_options& options) noexcept {
  if (options.max_depth < depth_) return status::invalid_argument;
  const uint64_t used = options_.max_items - items_left_;
  items_left_ = options.max_items > used ? options.max_items - used : 0;
  const allocator* alloc = options_.alloc;
  options_ = options;
  options_.alloc = alloc;
  // Maps opened from now on are checked; those already open are not.
  strict_ = options_.reject_duplicate_keys || options_.deterministic;
  return status::ok;
}

void reader::reset(const uint8_t* data, size_t size) noexcept {
  begin_ = data;
  pos_ = data;
  end_ = data + size;
  depth_ = 0;
  top_ = &root_;
  root_.left = k_open_ended;
  items_left_ = options_.max_items;
  item_start_ = 0;
  error_ = error_info{};
  if (keys_ != nullptr) keys_->clear();
  if (data == nullptr && size != 0) fail(status::invalid_argument, 0);
}

CBOR_FAST_COLD status reader::fail(status s, size_t offset) noexcept {
  error_.code = s;
  error_.offset = offset;
  error_.depth = depth_;
  // At the top level the failing head starts its own item.
  error_.item_offset = depth_ == 0 ? offset : item_start_;
  return s;
}

CBOR_FAST_NOINLINE status reader::push(uint8_t kind, bool indefinite, uint64_t left,
                                         size_t head_offset) noexcept {
  if (depth_ == 0) item_start_ = head_offset;
  if (depth_ >= options_.max_depth) return fail(status::depth_exceeded, head_offset);
  if (depth_ == capacity_) {
    // Grow geometrically, but never past max_depth frames.
    uint64_t want = capacity_ ? uint64_t(capacity_) * 2 : k_initial_frames;
    if (want > options_.max_depth) want = options_.max_depth;
    const allocator& a = *options_.alloc;
    void* p = stack_ ? a.realloc(a.context, stack_, capacity_ * sizeof(frame),
                                 size_t(want) * sizeof(frame))
                     : a.malloc(a.context, size_t(want) * sizeof(frame));
    if (p == nullptr) return fail(status::out_of_memory, head_offset);
    stack_ = static_cast<frame*>(p);
    capacity_ = uint32_t(want);
  }
  if (indefinite && kind <= k_map) {
    // Count down from the entry limit instead of "forever": reaching zero
    // then means the container is full (the map's start stays even).
    const uint64_t cap = options_.max_container_items;
    left = kind == k_map ? (cap < k_open_ended / 2 ? cap * 2 : k_open_ended)
                         : (cap < k_open_ended ? cap : k_open_ended);
  } else if (indefinite) {
    left = k_open_ended;
  }
  top_ = &stack_[depth_++];
  *top_ = frame{left, kind, indefinite};
  return status::ok;
}

// The common case of push(), inline: a definite level with room on the stack.
inline status reader::push_definite(uint8_t kind, uint64_t left, size_t head_offset) noexcept {
  if (CBOR_FAST_LIKELY(depth_ < capacity_ && depth_ < options_.max_depth && depth_ != 0)) {
    top_ = &stack_[depth_++];
    *top_ = frame{left, kind, false};
    return status::ok;
  }
  return push(kind, false, left, head_offset);
}

// Open levels, not counting tags whose content is complete: those are popped
// lazily by the next call, but they are closed already.
uint32_t reader::depth() const noexcept {
  uint32_t d = depth_;
  while (d != 0 && stack_[d - 1].kind == k_tag && stack_[d - 1].left == 0) --d;
  return d;
}

// Tags close silently once their one item is complete; pop those lazily here.
void reader::pop_finished_tags() noexcept {
  while (top_->left == 0 && top_->kind == k_tag) pop();
}

// The rare cases at the start of next(): a sticky error, a finished frame
// (tag to pop, or definite container whose end to report), or end of input.
CBOR_FAST_NOINLINE status reader::next_special(item& out) noexcept {
  if (error_.code != status::ok) return error_.code;
  pop_finished_tags();
  if (top_->left == 0 && !top_->indefinite) {
    // A definite array or map has all its items: report its end.
    pop();
    set_end(out, depth_, offset(), false);
    return status::ok;
  }
  if (pos_ == end_) {
    if (depth_ == 0) return status::end;
    return fail(status::truncated, offset());
  }
  if (top_->left == 0 || items_left_ == 0) {
    // An indefinite container at its entry limit, or the item budget spent:
    // only a break may follow.
    if (*pos_ == 0xff) return head_special(out, pos_, offset());
    return fail(top_->left == 0 ? status::container_too_large : status::too_many_items, offset());
  }
  if (top_->kind >= k_bytes && *pos_ != 0xff) {
    // Inside an indefinite-length string only definite chunks of its own type
    // may appear, and their total counts against max_string_length.
    if ((*pos_ >> 5) != (top_->kind == k_bytes ? 2u : 3u))
      return fail(status::chunk_type_mismatch, offset());
    const status s = read_item(out);
    if (s != status::ok) return s;
    if (out.arg > joined_left_) return fail(status::string_too_long, out.offset);
    joined_left_ -= out.arg;
    return s;
  }
  return read_item(out);
}

// Heads with additional information 28..31: reserved values, the break, and
// indefinite-length strings, arrays and maps.
CBOR_FAST_NOINLINE status reader::head_special(item& out, const uint8_t* p, size_t off) noexcept {
  const uint8_t ib = *p;
  const uint8_t major = ib >> 5;
  frame* const parent = top_;
  if ((ib & 0x1f) != 31) return fail(status::reserved_additional_info, off);
  if (ib == 0xff) {
    if (!parent->indefinite) return fail(status::unexpected_break, off);
    if (parent->kind == k_map && (parent->left & 1) != 0)
      return fail(status::map_missing_value, off);
    pop();
    pos_ = p + 1;
    set_end(out, depth_, off, true);
    return status::ok;
  }
  // (A chunk of the wrong major type was already refused by next().)
  if (parent->kind >= k_bytes) return fail(status::nested_indefinite_chunk, off);
  uint8_t kind;
  switch (major) {
    case 2: kind = k_bytes; out.type = item_type::byte_string; break;
    case 3: kind = k_text; out.type = item_type::text_string; break;
    case 4: kind = k_array; out.type = item_type::array; break;
    case 5: kind = k_map; out.type = item_type::map; break;
    default: return fail(status::indefinite_not_allowed, off);  // 0, 1 and 6
  }
  if (kind >= k_bytes) joined_left_ = options_.max_string_length;
  out.flags = item::flag_indefinite;
  out.head_size = 1;
  out.width = 0;
  out.depth = depth_;
  out.offset = off;
  out.arg = 0;
  out.u.data = nullptr;
  --parent->left;
  --items_left_;
  pos_ = p + 1;
  return push(kind, true, 0, off);
}

// Strict mode: the text string item just read must be valid UTF-8. Out of
// line so the plain path keeps no registers alive across the call.
CBOR_FAST_NOINLINE status reader::check_utf8(const item& text) noexcept {
  const size_t size = size_t(text.arg);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (size <= 16 && size_t(end_ - text.u.data) >= 16) {
    // Most keys and short values: one masked 16-byte ASCII test, no call. The
    // load may cover bytes past the string but never past the input.
    uint64_t lo, hi;
    std::memcpy(&lo, text.u.data, 8);
    std::memcpy(&hi, text.u.data + 8, 8);
    const uint64_t lo_mask = size >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * size)) - 1;
    const uint64_t hi_mask = size >= 16  ? ~uint64_t(0)
                             : size <= 8 ? 0
                                         : (uint64_t(1) << (8 * (size - 8))) - 1;
    if ((((lo & lo_mask) | (hi & hi_mask)) & 0x8080808080808080u) == 0) return status::ok;
  }
#endif
  const size_t bad = detail::utf8_validate(text.u.data, size);
  if (CBOR_FAST_UNLIKELY(bad != size)) {
    fail(status::invalid_utf8, text.offset + text.head_size + bad);
    // The bad byte is inside the string: at the top level the string is the item.
    if (depth_ == 0) error_.item_offset = text.offset;
    return error_.code;
  }
  return status::ok;
}

status reader::next(item& out) noexcept {
  const frame* const parent = top_;
  if (CBOR_FAST_UNLIKELY(error_.code != status::ok || parent->left == 0 || pos_ == end_ ||
                         items_left_ == 0 || parent->kind >= k_bytes || strict_))
    return strict_ ? next_strict(out) : next_special(out);
  return read_item(out);
}

// Deterministic mode: the item just read must have its shortest head (or
// float) and a definite length.
CBOR_FAST_NOINLINE status reader::check_preferred(const item& it) noexcept {
  if (it.type == item_type::end) return status::ok;
  if (it.is_indefinite()) return fail(status::indefinite_length, it.offset);
  if (it.type == item_type::floating) {
    uint64_t bits;
    if (detail::shortest_float(it.u.dbl, &bits) != it.width)
      return fail(status::non_preferred_encoding, it.offset);
    return status::ok;
  }
  const uint64_t a = it.arg;
  const unsigned shortest = a < 24 ? 1 : a <= 0xff ? 2 : a <= 0xffff ? 3 : a <= 0xffffffffu ? 5 : 9;
  if (it.head_size != shortest) return fail(status::non_preferred_encoding, it.offset);
  return status::ok;
}

// Ends the open key of the innermost map at `end` and checks it.
status reader::end_key(size_t end, bool raw_canonical) noexcept {
  const status s = keys_->end_key(begin_, end, raw_canonical, options_.deterministic,
                                  options_.reject_duplicate_keys);
  if (s == status::ok) return s;
  const size_t key = keys_->key_start();
  fail(s, key);
  if (depth_ == 0) error_.item_offset = key;
  return s;
}

// next() with duplicate-key or deterministic checks: the plain step, with
// map keys tracked around it. A key that is one item (the usual case) is
// checked as soon as it is read, and its error replaces it; a key made of
// several items (a container, a tag, an indefinite string) when its value starts.
CBOR_FAST_NOINLINE status reader::next_strict(item& out) noexcept {
  if (error_.code != status::ok) return error_.code;
  pop_finished_tags();
  const uint32_t level = depth_;
  const size_t start = offset();
  bool key = false;
  if (top_->kind == k_map && top_->left != 0 && pos_ != end_ && *pos_ != 0xff &&
      keys_ != nullptr && keys_->tracks(level)) {
    if ((top_->left & 1) == 0) {
      key = true;
    } else if (keys_->key_open()) {
      if (end_key(start, false) != status::ok) return error_.code;
    }
  }
  status s = next_special(out);
  if (s != status::ok) return s;
  if (options_.deterministic && (s = check_preferred(out)) != status::ok) return s;
  if (out.type == item_type::end) {
    if (keys_ != nullptr) keys_->close_above(depth_);
    return status::ok;
  }
  if (key) {
    keys_->begin_key(start);
    if (depth_ == level) {
      // A single item: its bytes are its canonical form unless its head or
      // float width is longer than needed.
      bool canonical;
      if (options_.deterministic) {
        canonical = true;
      } else if (out.type == item_type::floating) {
        uint64_t bits;
        canonical = detail::shortest_float(out.u.dbl, &bits) == out.width;
      } else {
        const uint64_t a = out.arg;
        canonical = out.head_size == (a < 24 ? 1 : a <= 0xff ? 2 : a <= 0xffff ? 3
                                                 : a <= 0xffffffffu ? 5 : 9);
      }
      if (end_key(offset(), canonical) != status::ok) return error_.code;
    }
  }
  if (out.type == item_type::map && depth_ == level + 1) {
    if (keys_ == nullptr) {
      void* p = options_.alloc->malloc(options_.alloc->context, sizeof(detail::key_checker));
      if (p == nullptr) return fail(status::out_of_memory, out.offset);
      keys_ = new (p) detail::key_checker(*options_.alloc);
    }
    if (!keys_->open_map(depth_)) return fail(status::out_of_memory, out.offset);
  }
  return status::ok;
}

// Reads the item at pos_: the caller has checked that one may start here
// (no error, room in the parent, input left, inside no indefinite string).
inline status reader::read_item(item& out) noexcept {
  frame* const parent = top_;
  const uint8_t* const p = pos_;
  const uint8_t ib = *p;
  const unsigned ai = ib & 0x1fu;
  const unsigned major = ib >> 5;

  // The head's argument: inline below 24, else 1, 2, 4 or 8 big-endian bytes.
  uint64_t arg;
  size_t head_size;
  if (ai < 24) {
    arg = ai;
    head_size = 1;
  } else if (ai < 28) {
    const unsigned n = 1u << (ai - 24);
    head_size = 1 + n;
    if (CBOR_FAST_LIKELY(size_t(end_ - p) >= 9)) {
      // One unaligned 8-byte load serves every width.
      arg = detail::load_be64(p + 1) >> (64 - 8 * n);
    } else {
      // Near the end of the input, where an 8-byte load would overrun.
      if (size_t(end_ - p) < head_size) return fail(status::truncated, size_t(p - begin_));
      arg = 0;
      for (unsigned i = 1; i <= n; ++i) arg = (arg << 8) | p[i];
    }
  } else {
    return head_special(out, p, size_t(p - begin_));
  }
  const uint8_t* const content = p + head_size;
  const size_t off = size_t(p - begin_);

  out.flags = 0;
  out.head_size = uint8_t(head_size);
  out.width = 0;
  out.depth = depth_;
  out.offset = off;
  out.arg = arg;
  out.u.data = nullptr;
  // Every item completes one item of its parent (containers count when they open).
  --parent->left;
  --items_left_;
  pos_ = content;

  switch (major) {
    case 0: out.type = item_type::unsigned_int; return status::ok;
    case 1: out.type = item_type::negative_int; return status::ok;

    case 2:
    case 3:
      out.type = major == 2 ? item_type::byte_string : item_type::text_string;
      if (arg > options_.max_string_length) return fail(status::string_too_long, off);
      if (arg > size_t(end_ - content)) return fail(status::truncated, off);
      out.u.data = content;
      pos_ = content + arg;
      if (major == 3 && options_.validate_utf8) return check_utf8(out);
      return status::ok;

    case 4:
      out.type = item_type::array;
      if (arg > options_.max_container_items) return fail(status::container_too_large, off);
      // Every item takes at least one byte: a count the input cannot hold is
      // rejected here, before anyone sizes an allocation by it.
      if (arg > size_t(end_ - content)) return fail(status::truncated, off);
      return push_definite(k_array, arg, off);

    case 5:
      out.type = item_type::map;
      if (arg > options_.max_container_items) return fail(status::container_too_large, off);
      if (arg > size_t(end_ - content) / 2) return fail(status::truncated, off);
      return push_definite(k_map, arg * 2, off);

    case 6:
      out.type = item_type::tag;
      return push_definite(k_tag, 1, off);

    default:  // major 7
      if (ai >= 25) {
        out.type = item_type::floating;
        out.width = uint8_t(head_size - 1);
        out.u.dbl = ai == 27   ? detail::bits_to_double(arg)
                    : ai == 26 ? detail::single_to_double(uint32_t(arg))
                               : detail::half_to_double(uint16_t(arg));
        return status::ok;
      }
      if (ai < 20) {
        out.type = item_type::simple;
      } else if (ai < 22) {
        out.type = item_type::boolean;
      } else if (ai == 22) {
        out.type = item_type::null;
      } else if (ai == 23) {
        out.type = item_type::undefined;
      } else {  // 24: one-byte simple value, 32..255 only
        if (arg < 32) return fail(status::bad_simple_value, off);
        out.type = item_type::simple;
      }
      return status::ok;
  }
}

namespace {
// What skip's fused loop needs to know about an initial byte.
enum skip_kind : uint8_t { s_other, s_scalar, s_simple8, s_bytes, s_text, s_array, s_map, s_tag };
struct skip_entry {
  uint8_t kind;       // skip_kind
  uint8_t arg_bytes;  // 0, 1, 2, 4 or 8
};
constexpr skip_entry classify_for_skip(unsigned ib) noexcept {
  const unsigned major = ib >> 5;
  const unsigned ai = ib & 0x1f;
  if (ai >= 28) return {s_other, 0};  // reserved, indefinite, break: the general path
  const uint8_t n = uint8_t(ai < 24 ? 0u : 1u << (ai - 24));
  switch (major) {
    case 0:
    case 1: return {s_scalar, n};
    case 2: return {s_bytes, n};
    case 3: return {s_text, n};
    case 4: return {s_array, n};
    case 5: return {s_map, n};
    case 6: return {s_tag, n};
    default: return {ai == 24 ? s_simple8 : s_scalar, n};
  }
}
struct skip_table {
  skip_entry entries[256];
  constexpr skip_table() noexcept : entries() {
    for (unsigned i = 0; i < 256; ++i) entries[i] = classify_for_skip(i);
  }
};
constexpr skip_table k_skip;
constexpr unsigned k_fast_skip_levels = 64;
}  // namespace

// Passes over one complete item made of definite-length parts only, checking
// what next() checks, in one tight loop that fills no items. At anything else
// (indefinite lengths, malformed or truncated input, a limit reached, nesting
// beyond 64 levels) it returns false having changed nothing, and skip() takes
// the general path, which reports the exact status and offset.
bool reader::fast_skip() noexcept {
  // Chunks of an indefinite string, and key checks, take the general path.
  if (top_->kind >= k_bytes || strict_) return false;
  const uint8_t* p = pos_;
  const uint8_t* const end = end_;
  const bool utf8 = options_.validate_utf8;
  const uint64_t max_string = options_.max_string_length;
  const uint64_t max_entries = options_.max_container_items;
  const uint32_t levels = options_.max_depth - depth_;  // levels we may open
  uint64_t outer[k_fast_skip_levels];  // items left in the enclosing levels
  uint32_t depth = 0;
  uint64_t left = 1;  // items left at the current level (the one item to skip)
  uint64_t items = 0;
  for (;;) {
    if (p == end) return false;
    const uint8_t ib = *p;
    const skip_entry e = k_skip.entries[ib];
    const size_t avail = size_t(end - p);
    uint64_t arg;
    if (e.arg_bytes == 0) {
      arg = ib & 0x1fu;
    } else if (avail >= 9) {
      arg = detail::load_be64(p + 1) >> (64 - 8 * e.arg_bytes);
    } else {
      if (avail <= e.arg_bytes) return false;
      arg = 0;
      for (unsigned i = 1; i <= e.arg_bytes; ++i) arg = (arg << 8) | p[i];
    }
    const uint8_t* const q = p + 1 + e.arg_bytes;
    ++items;
    switch (e.kind) {
      case s_scalar: p = q; break;
      case s_simple8:
        if (arg < 32) return false;
        p = q;
        break;
      case s_bytes:
      case s_text:
        if (arg > max_string || arg > size_t(end - q)) return false;
        if (e.kind == s_text && utf8 && detail::utf8_validate(q, size_t(arg)) != size_t(arg))
          return false;
        p = q + arg;
        break;
      case s_array:
      case s_map:
      case s_tag: {
        uint64_t children = 1;
        if (e.kind != s_tag) {
          if (arg > max_entries) return false;
          if (e.kind == s_array ? arg > size_t(end - q) : arg > size_t(end - q) / 2) return false;
          children = e.kind == s_array ? arg : 2 * arg;
        }
        // The general path opens a level even for [] and {}.
        if (depth >= levels || depth == k_fast_skip_levels) return false;
        p = q;
        if (children == 0) break;
        outer[depth++] = left;
        left = children;
        continue;
      }
      default: return false;
    }
    // An item is complete: count it, closing every level it completes.
    while (--left == 0) {
      if (depth == 0) {
        if (items > items_left_) return false;
        items_left_ -= items;
        --top_->left;
        pos_ = p;
        return true;
      }
      left = outer[--depth];
    }
  }
}

status reader::skip() noexcept {
  if (error_.code != status::ok) return error_.code;
  pop_finished_tags();
  // At the end of the enclosing container there is no item to skip.
  if (top_->left == 0 && !top_->indefinite) return status::invalid_state;
  if (top_->indefinite && pos_ != end_ && *pos_ == 0xff) return status::invalid_state;
  if (pos_ != end_ && top_->left != 0 && fast_skip()) return status::ok;
  const uint32_t target = depth_;
  item it;
  status s = next(it);
  if (s != status::ok) return s;
  for (;;) {
    pop_finished_tags();
    if (depth_ <= target) return status::ok;
    s = next(it);
    if (s != status::ok) return s;
  }
}

status reader::skip_to_end() noexcept {
  if (error_.code != status::ok) return error_.code;
  pop_finished_tags();
  if (depth_ == 0) return status::invalid_state;
  const uint32_t target = depth_ - 1;
  item it;
  for (;;) {
    status s = next(it);
    if (s != status::ok) return s;
    pop_finished_tags();
    if (depth_ <= target) return status::ok;
  }
}

status reader::read_joined(const item& start, std::string& out) noexcept {
  if (error_.code != status::ok) return error_.code;
  if (start.type != item_type::byte_string && start.type != item_type::text_string)
    return status::invalid_state;
  try {
    if (!start.is_indefinite()) {
      out.append(reinterpret_cast<const char*>(start.u.data), size_t(start.arg));
      return status::ok;
    }
    // Must be called right after the start item: its frame is the innermost.
    if (depth_ != start.depth + 1 || (top_->kind != k_bytes && top_->kind != k_text))
      return status::invalid_state;
    item chunk;
    uint64_t total = 0;
    for (;;) {
      status s = next(chunk);
      if (s != status::ok) return s;
      if (chunk.type == item_type::end) return status::ok;
      total += chunk.arg;  // each chunk fits the input, so no overflow
      if (total > options_.max_string_length) return fail(status::string_too_long, chunk.offset);
      out.append(reinterpret_cast<const char*>(chunk.u.data), size_t(chunk.arg));
    }
  } catch (...) {
    return fail(status::out_of_memory, offset());
  }
}

status reader::finish() noexcept {
  if (error_.code != status::ok) return error_.code;
  pop_finished_tags();
  if (depth_ != 0) {
    if (pos_ == end_) return fail(status::truncated, offset());
    return status::invalid_state;
  }
  if (pos_ != end_) return status::trailing_bytes;
  return status::ok;
}

}  // namespace v1
}  // namespace cbor_fast
