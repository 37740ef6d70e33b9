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

constexpr uint8_t k_array = detail::frame_array;
constexpr uint8_t k_map = detail::frame_map;
constexpr uint8_t k_tag = detail::frame_tag;
constexpr uint8_t k_bytes = detail::frame_bytes;
constexpr uint8_t k_text = detail::frame_text;

namespace {

// The bits of reader::slow_: each sends next() off its inline path.
constexpr uint8_t slow_error = 1;   // a sticky error
using detail::slow_strict;          // duplicate-key or deterministic checks (2)
constexpr uint8_t slow_chunks = 4;  // the innermost frame is an indefinite string

// The first heap stack (past the reader's inline frames), then twice as
// many frames each time: 16, 32, 64, ... An allocator given to the reader may
// count a memory budget (decode()'s does), which these sizes reach at the
// depth they always did: growing four times as fast made a document decoded
// under its default budget fail at half the depth (hostile.capi's
// depth.indef_array.unterminated.default_budget). Through malloc's hooks (no
// budget) the stack starts at 64 frames and grows eight times to 512 (8 KiB),
// then doubles as above, so a hostile depth reserves no more than it did:
// 500 nested arrays grow it twice instead of 6 times.
constexpr uint32_t k_initial_frames = 16;
constexpr uint32_t k_initial_frames_malloc = 64;
constexpr uint32_t k_fast_growth_below = 512;  // malloc: grown eight times below this
using detail::k_open_ended;                    // an indefinite frame's countdown (reader.hpp)

using detail::set_end;  // reader-inl.hpp
}  // namespace

void reader::take_stack(reader& other) noexcept {
  if (other.stack_ == other.inline_frames_) {
    std::memcpy(inline_frames_, other.inline_frames_, sizeof inline_frames_);
    stack_ = inline_frames_;
    capacity_ = k_inline_frames;
  } else {
    stack_ = std::exchange(other.stack_, other.inline_frames_);
    capacity_ = std::exchange(other.capacity_, k_inline_frames);
  }
  note_push_limit();
  other.note_push_limit();
}

reader::reader(reader&& other) noexcept
    : begin_(other.begin_),
      pos_(other.pos_),
      end_(other.end_),
      options_(other.options_),
      depth_(other.depth_),
      items_left_(other.items_left_),
      items_before_(other.items_before_),
      joined_left_(other.joined_left_),
      joined_start_(other.joined_start_),
      chunk_taken_(other.chunk_taken_),
      item_start_(other.item_start_),
      error_(other.error_),
      root_(other.root_),
      strict_(other.strict_),
      slow_(other.slow_),
      keys_(std::exchange(other.keys_, nullptr)),
      needed_(other.needed_),
      scout_(std::exchange(other.scout_, nullptr)),
      scout_origin_(std::exchange(other.scout_origin_, SIZE_MAX)),
      plain_end_(other.plain_end_),
      short_end_(other.short_end_) {
  take_stack(other);
  top_ = depth_ != 0 ? &stack_[depth_ - 1] : &root_;
  other.depth_ = 0;
  other.top_ = &other.root_;
  other.slow_ &= uint8_t(~slow_chunks);
}

reader& reader::operator=(reader&& other) noexcept {
  if (this != &other) {
    if (stack_ != inline_frames_)
      options_.alloc->free(options_.alloc->context, stack_, capacity_ * sizeof(frame));
    stack_ = inline_frames_;
    capacity_ = k_inline_frames;
    release_keys();
    release_scout();
    begin_ = other.begin_;
    pos_ = other.pos_;
    end_ = other.end_;
    options_ = other.options_;
    depth_ = std::exchange(other.depth_, 0u);
    items_left_ = other.items_left_;
    items_before_ = other.items_before_;
    joined_left_ = other.joined_left_;
    joined_start_ = other.joined_start_;
    chunk_taken_ = other.chunk_taken_;
    item_start_ = other.item_start_;
    error_ = other.error_;
    root_ = other.root_;
    take_stack(other);
    strict_ = other.strict_;
    slow_ = other.slow_;
    keys_ = std::exchange(other.keys_, nullptr);
    needed_ = other.needed_;
    scout_ = std::exchange(other.scout_, nullptr);
    scout_origin_ = std::exchange(other.scout_origin_, SIZE_MAX);
    plain_end_ = other.plain_end_;
    short_end_ = other.short_end_;
    top_ = depth_ != 0 ? &stack_[depth_ - 1] : &root_;
    other.top_ = &other.root_;
    other.slow_ &= uint8_t(~slow_chunks);
  }
  return *this;
}

void reader::release_storage() noexcept {
  if (stack_ != inline_frames_)
    options_.alloc->free(options_.alloc->context, stack_, capacity_ * sizeof(frame));
  stack_ = inline_frames_;
  capacity_ = k_inline_frames;
  release_keys();
  release_scout();
}

void reader::release_scout() noexcept {
  scout_origin_ = SIZE_MAX;
  if (scout_ == nullptr) return;
  scout_->~reader();
  options_.alloc->free(options_.alloc->context, scout_, sizeof(reader));
  scout_ = nullptr;
}

void reader::release_keys() noexcept {
  if (keys_ == nullptr) return;
  keys_->~key_checker();
  options_.alloc->free(options_.alloc->context, keys_, sizeof(detail::key_checker));
  keys_ = nullptr;
}

status reader::set_options(const reader_options& requested) noexcept {
  const reader_options options = detail::resolve_defaults(requested);
  if (options.max_depth < depth_) return status::invalid_argument;
  // The current top-level item keeps what it used (items() its total).
  const uint64_t used = options_.max_items - items_left_;
  if (options.max_items > used) {
    items_left_ = options.max_items - used;
  } else {
    items_before_ += used - options.max_items;
    items_left_ = 0;
  }
  const allocator* alloc = options_.alloc;
  options_ = options;
  options_.alloc = alloc;
  note_push_limit();
  // Maps opened from now on are checked; those already open are not.
  strict_ = options_.reject_duplicate_keys || options_.deterministic;
  slow_ = uint8_t((slow_ & ~slow_strict) | (strict_ ? slow_strict : 0));
  scout_origin_ = SIZE_MAX;  // its limits were the old ones
  if (keys_ != nullptr) keys_->set_copy_keys(options_.streaming);
  note_plain_end();
  return status::ok;
}

CBOR_FAST_NOINLINE void reader::reset_rare(size_t size) noexcept {
  if (keys_ != nullptr) keys_->clear();
  if (begin_ == nullptr && size != 0) fail(status::invalid_argument, 0);
}

CBOR_FAST_COLD status reader::short_input(size_t offset, size_t missing) noexcept {
  if (!options_.streaming) return fail(status::truncated, offset);
  needed_ = missing;
  return status::need_more;
}

size_t reader::keep_from_keys() const noexcept {
  const size_t at = offset();
  const size_t key = keys_->earliest_open_key();
  return key < at ? key : at;
}

// Once per piece of input (every 64 bytes, say): kept short, with the rare
// work (key checks, the scout) out of line.
status reader::feed(const uint8_t* data, size_t size, size_t first_offset) noexcept {
  const size_t at = offset();
  const size_t end = first_offset + size;
  // first_offset > keep_from(), or the end before `at` or past SIZE_MAX.
  if (CBOR_FAST_UNLIKELY((data == nullptr && size != 0) || first_offset > at || end < at ||
                         end < first_offset ||
                         (keys_ != nullptr && first_offset > keep_from_keys())))
    return status::invalid_argument;
  // Offsets stay the stream's: begin_ is where offset 0 would be, computed
  // in integers (it lies before the buffer; only the buffer is read).
  const uintptr_t base = reinterpret_cast<uintptr_t>(data) - uintptr_t(first_offset);
  begin_ = reinterpret_cast<const uint8_t*>(base);
  pos_ = reinterpret_cast<const uint8_t*>(base + at);
  end_ = reinterpret_cast<const uint8_t*>(base + end);
  needed_ = 0;
  if (CBOR_FAST_UNLIKELY(scout_origin_ == at)) feed_scout(data, size, first_offset, at);
  note_plain_end();  // begin_ while slow_ has a bit
  return status::ok;
}

CBOR_FAST_NOINLINE void reader::feed_scout(const uint8_t* data, size_t size, size_t first_offset,
                                           size_t at) noexcept {
  // The scout reads from `at` on, in offsets counted from there.
  if (scout_->feed(data + (at - first_offset), size - (at - first_offset), 0) != status::ok)
    scout_origin_ = SIZE_MAX;
}

void reader::end_input() noexcept {
  options_.streaming = false;
  scout_origin_ = SIZE_MAX;
  if (keys_ != nullptr) keys_->set_copy_keys(false);
}

CBOR_FAST_COLD status reader::fail(status s, size_t offset) noexcept {
  needed_ = 0;
  error_.code = s;
  slow_ |= slow_error;
  plain_end_ = begin_;
  error_.offset = offset;
  error_.depth = depth_;
  // At the top level the failing head starts its own item.
  error_.item_offset = depth_ == 0 ? offset : item_start_;
  return s;
}

CBOR_FAST_NOINLINE status reader::push(uint8_t kind, bool indefinite, uint64_t left,
                                       size_t head_offset) noexcept {
  if (depth_ == 0) {
    item_start_ = head_offset;
    renew_budget(1);  // a new top-level item, its head counted
  }
  if (depth_ >= options_.max_depth) return fail(status::depth_exceeded, head_offset);
  if (depth_ == capacity_) {
    // Grow geometrically, but never past max_depth frames. The first growth
    // leaves the inline frames (copied over).
    const allocator& a = *options_.alloc;
    // malloc's hooks (the C API copies them when given no allocator).
    const allocator& d = default_allocator();
    const bool plain_malloc = a.malloc == d.malloc && a.realloc == d.realloc && a.free == d.free;
    uint64_t want =
        stack_ == inline_frames_
            ? (plain_malloc ? k_initial_frames_malloc : k_initial_frames)
            : uint64_t(capacity_) * (plain_malloc && capacity_ < k_fast_growth_below ? 8 : 2);
    if (want > options_.max_depth) want = options_.max_depth;
    void* p;
    if (stack_ == inline_frames_) {
      p = a.malloc(a.context, size_t(want) * sizeof(frame));
      if (p != nullptr) std::memcpy(p, inline_frames_, depth_ * sizeof(frame));
    } else {
      p = a.realloc(a.context, stack_, capacity_ * sizeof(frame), size_t(want) * sizeof(frame));
    }
    if (p == nullptr) return fail(status::out_of_memory, head_offset);
    stack_ = static_cast<frame*>(p);
    capacity_ = uint32_t(want);
    note_push_limit();
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
  *top_ = frame::make(left, kind, indefinite);
  // Chunks never push, so this frame stays innermost until its break.
  if (kind >= k_bytes) {
    slow_ |= slow_chunks;
    plain_end_ = begin_;
  }
  return status::ok;
}

// The common case of push(), inline: a definite level with room on the stack.
inline status reader::push_definite(uint8_t kind, uint64_t left, size_t head_offset) noexcept {
  // One compare for depth_ != 0 (the top level, where push() notes where the
  // item starts) and depth_ < min(capacity_, max_depth) (push_limit_ is that
  // minus 1): the minimum is >= depth_ >= 1 whenever depth_ >= 1 (the stack
  // holds depth_ frames, and max_depth never drops below depth_), so neither
  // side wraps except depth_ - 1 at the top level.
  if (CBOR_FAST_LIKELY(depth_ - 1u < push_limit_)) {
    top_ = &stack_[depth_++];
    *top_ = frame::make(left, kind, false);
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
    if (depth_ == 0 && !options_.streaming) return status::end;
    return short_input(offset(), 1);
  }
  if (items_left_ == 0 && depth_ == 0) renew_budget(0);  // the next top-level item
  if (top_->left == 0 || items_left_ == 0) {
    // An indefinite container at its entry limit, or the item budget spent:
    // only a break may follow.
    if (*pos_ == 0xff) return head_special(out, pos_, offset());
    return fail(top_->left == 0 ? status::container_too_large : status::too_many_items, offset());
  }
  // Inside an indefinite-length string only definite chunks of its own type
  // may appear, and their total counts against max_string_length.
  const bool chunk = top_->kind >= k_bytes && *pos_ != 0xff;
  if (chunk && (*pos_ >> 5) != (top_->kind == k_bytes ? 2u : 3u))
    return fail(status::chunk_type_mismatch, offset());
  const status s = read_item(out);
  if (s != status::ok || !chunk) return s;
  if (out.arg > joined_left_) return fail(status::string_too_long, out.offset);
  joined_left_ -= out.arg;
  chunk_taken_ = true;  // read_joined() clears it for the chunks it takes itself
  return s;
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
    // Whatever closed, the frame below cannot be a string: strings hold no frames.
    slow_ &= uint8_t(~slow_chunks);
    pos_ = p + 1;
    note_plain_end();  // the inline paths may read again (visit_plain() does not move it)
    set_end(out, depth_, off, true);
    return status::ok;
  }
  // (A chunk of the wrong major type was already refused by next().)
  if (parent->kind >= k_bytes) return fail(status::nested_indefinite_chunk, off);
  uint8_t kind;
  switch (major) {
    case 2:
      kind = k_bytes;
      out.type = item_type::byte_string;
      break;
    case 3:
      kind = k_text;
      out.type = item_type::text_string;
      break;
    case 4:
      kind = k_array;
      out.type = item_type::array;
      break;
    case 5:
      kind = k_map;
      out.type = item_type::map;
      break;
    default: return fail(status::indefinite_not_allowed, off);  // 0, 1 and 6
  }
  if (kind >= k_bytes) {
    joined_left_ = options_.max_string_length;
    joined_start_ = off;
    chunk_taken_ = false;
  }
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
  // Most keys and short values pass the inline ASCII test, with no call.
  if (detail::utf8_quick_ascii(text.u.data, size, end_)) return status::ok;
  const size_t bad = detail::utf8_validate(text.u.data, size);
  if (CBOR_FAST_UNLIKELY(bad != size)) {
    fail(status::invalid_utf8, text.offset + text.head_size + bad);
    // The bad byte is inside the string: at the top level the string is the item.
    if (depth_ == 0) error_.item_offset = text.offset;
    return error_.code;
  }
  return status::ok;
}

// Deterministic mode: the item just read must have its shortest head (or
// float) and a definite length.
CBOR_FAST_NOINLINE status reader::check_preferred(const item& it) noexcept {
  if (it.type == item_type::end) return status::ok;
  if (it.is_indefinite()) return fail(status::indefinite_length, it.offset);
  if (!detail::is_preferred(it)) return fail(status::non_preferred_encoding, it.offset);
  if (it.type == item_type::tag && (it.arg == 2 || it.arg == 3) &&
      !detail::bignum_is_preferred(begin_ + it.offset + it.head_size, end_))
    return fail(status::non_preferred_encoding, it.offset);  // RFC 8949 3.4.3
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
  if (top_->kind == k_map && top_->left != 0 && pos_ != end_ && *pos_ != 0xff && keys_ != nullptr &&
      keys_->tracks(level)) {
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
      const bool canonical = options_.deterministic || detail::is_preferred(out);
      if (end_key(offset(), canonical) != status::ok) return error_.code;
    }
  }
  if (out.type == item_type::map && depth_ == level + 1) {
    if (keys_ == nullptr) {
      void* p = options_.alloc->malloc(options_.alloc->context, sizeof(detail::key_checker));
      if (p == nullptr) return fail(status::out_of_memory, out.offset);
      keys_ = new (p) detail::key_checker(*options_.alloc);
      keys_->set_copy_keys(options_.streaming);
    }
    if (!keys_->open_map(depth_)) return fail(status::out_of_memory, out.offset);
  }
  return status::ok;
}

}  // namespace v1

namespace detail {
double widen_half(uint16_t bits) noexcept { return half_to_double(bits); }
double widen_single(uint32_t bits) noexcept { return single_to_double(bits); }
bool text_is_utf8(const uint8_t* data, size_t size, const uint8_t* readable_end) noexcept {
  return utf8_is_valid(data, size, readable_end);
}

// read_item() in steps: one function per head_step, reached through the one
// head table (detail::k_heads: two loads and an indirect jump instead of
// branches on the major type and the additional information). Each step knows
// its item type and argument size at compile time, and needs only a few registers.
struct reader_steps {
  using step = status (*)(reader& r, item& out, const uint8_t* p, reader::frame* parent) noexcept;

  // The argument of the head at p: inline below 24, else big-endian after the initial byte.
  template <unsigned ArgBytes>
  static uint64_t head_arg(const uint8_t* p) noexcept {
    if constexpr (ArgBytes == 0)
      return *p & 0x1fu;
    else if constexpr (ArgBytes == 1)
      return p[1];
    else if constexpr (ArgBytes == 2)
      return load_be16(p + 1);
    else if constexpr (ArgBytes == 4)
      return load_be32(p + 1);
    else
      return load_be64(p + 1);
  }

  // A head of type Type with an ArgBytes-long argument at p == r.pos_ !=
  // r.end_, inside parent == r.top_ (the checks of next() are done).
  template <item_type Type, unsigned ArgBytes>
  static status read(reader& r, item& out, const uint8_t* p, reader::frame* parent) noexcept {
    constexpr size_t head_size = 1 + ArgBytes;
    const uint8_t* const end = r.end_;
    const size_t off = size_t(p - r.begin_);
    if (ArgBytes != 0 && CBOR_FAST_UNLIKELY(size_t(end - p) < head_size))
      return r.short_input(off, head_size - size_t(end - p));
    const uint64_t arg = head_arg<ArgBytes>(p);
    const uint8_t* const content = p + head_size;
    if constexpr (Type == item_type::tag && ArgBytes == 0) {
      // Streaming with the deterministic check: that check of a bignum (tag 2
      // or 3) reads past the tag, so the tag is taken once that is here.
      if (CBOR_FAST_UNLIKELY(r.options_.streaming) && r.options_.deterministic &&
          (arg == 2 || arg == 3)) {
        const size_t missing = bignum_missing(content, end);
        if (missing != 0) return r.short_input(off, missing);
      }
    }
    // Read the members before writing *out: its byte-sized fields may alias anything.
    const uint32_t depth = r.depth_;
    const uint64_t items_left = r.items_left_;

    out.type = Type;
    out.flags = 0;
    out.head_size = uint8_t(head_size);
    out.width = Type == item_type::floating ? uint8_t(ArgBytes) : uint8_t(0);
    out.depth = depth;
    out.offset = off;
    out.arg = arg;
    // Every item completes one item of its parent (containers count when they open).
    --parent->left;
    r.items_left_ = items_left - 1;

    if constexpr (Type == item_type::byte_string || Type == item_type::text_string) {
      // pos_ and u.data are written once, after the checks (a failure leaves
      // them as for any other head).
      if (CBOR_FAST_UNLIKELY(arg > r.options_.max_string_length || arg > size_t(end - content))) {
        out.u.data = nullptr;
        if (arg <= r.options_.max_string_length && r.options_.streaming) {
          ++parent->left;  // the partial string is not taken
          r.items_left_ = items_left;
          r.needed_ = size_t(arg - size_t(end - content));
          return status::need_more;
        }
        r.pos_ = content;
        return r.fail(
            arg > r.options_.max_string_length ? status::string_too_long : status::truncated, off);
      }
      out.u.data = content;
      r.pos_ = content + arg;
      if (Type == item_type::text_string && r.options_.validate_utf8) return r.check_utf8(out);
      return status::ok;
    } else {
      out.u.data = nullptr;
      r.pos_ = content;
      if constexpr (Type == item_type::array) {
        if (arg > r.options_.max_container_items) return r.fail(status::container_too_large, off);
        // Every item takes at least one byte: a count the input cannot hold is
        // rejected here, before anyone sizes an allocation by it.
        if (arg > size_t(end - content) && !r.options_.streaming)
          return r.fail(status::truncated, off);
        return r.push_definite(k_array, arg, off);
      } else if constexpr (Type == item_type::map) {
        if (arg > r.options_.max_container_items) return r.fail(status::container_too_large, off);
        if (arg > size_t(end - content) / 2 && !r.options_.streaming)
          return r.fail(status::truncated, off);
        // Streaming, with the limit lifted: 2^63 pairs or more are 2^64 items
        // or more, past any stream's offsets, and their count would wrap
        // (a map of 2^63 + 1 pairs was read as one of 2 items).
        if (arg > UINT64_MAX / 2) return r.fail(status::container_too_large, off);
        return r.push_definite(k_map, arg * 2, off);
      } else if constexpr (Type == item_type::tag) {
        return r.push_definite(k_tag, 1, off);
      } else if constexpr (Type == item_type::floating) {
        if constexpr (ArgBytes == 8)
          out.u.dbl = bits_to_double(arg);
        else if constexpr (ArgBytes == 4)
          out.u.dbl = single_to_double(uint32_t(arg));
        else
          out.u.dbl = half_to_double(uint16_t(arg));
      } else if constexpr (Type == item_type::simple && ArgBytes == 1) {
        // One-byte simple values 0..31 are not well-formed.
        if (arg < 32) return r.fail(status::bad_simple_value, off);
      }
      return status::ok;
    }
  }

  // Additional information 28..31: reserved values, indefinite lengths, break.
  static status special(reader& r, item& out, const uint8_t* p, reader::frame*) noexcept {
    return r.head_special(out, p, size_t(p - r.begin_));
  }

  /// One step per head_step (the one head table, detail::k_heads, maps an
  /// initial byte to its step).
  struct table {
    step at[hs_count] = {
#define CBOR_FAST_READER_STEP(name, type, arg_bytes) &read<item_type::type, arg_bytes>,
        CBOR_FAST_HEAD_STEPS(CBOR_FAST_READER_STEP)
#undef CBOR_FAST_READER_STEP
        & special};
  };

  /// next() while streaming, for what its inline path declined: an item the
  /// input ends inside answers need_more here, else its step reads it.
  static status streaming(reader& r, item& out, const uint8_t* p, reader::frame* parent) noexcept;
};
}  // namespace detail

inline namespace v1 {
namespace {
constexpr detail::reader_steps::table k_steps;
}  // namespace

// Reads the item at pos_: the caller has checked that one may start here
// (no error, room in the parent, input left, inside no indefinite string).
inline status reader::read_item(item& out) noexcept {
  return k_steps.at[detail::k_heads[*pos_].step](*this, out, pos_, top_);
}
}  // namespace v1

// At most once per piece of input, the input ends inside the head at p or the
// definite string it starts (the inline path declined it): need_more with the
// bytes missing, as the step would answer, but decided from the head table
// without the steps' indirect jump (its target is a different step at each
// piece: callgrind's model missed 4,398 of 7,501 for twitter in 64-byte
// pieces) and without taking the item and undoing it. What else the step
// checks (the string's limit) stays its own. BENCHMARKS.md, "need_more
// without the steps' indirect jump".
CBOR_FAST_NOINLINE status detail::reader_steps::streaming(reader& r, item& out, const uint8_t* p,
                                                          reader::frame* parent) noexcept {
  const size_t room = size_t(r.end_ - p);
  if (CBOR_FAST_UNLIKELY(room == 0)) {
    // The input ends between two items: what next_special() would answer
    // (nothing to pop, the parent has room), without its checks.
    r.needed_ = 1;
    return status::need_more;
  }
  const head_entry& e = k_heads[*p];
  size_t missing = 0;
  if (CBOR_FAST_UNLIKELY(room < e.head_size)) {
    missing = e.head_size - room;
  } else if (e.kind == hk_text || e.kind == hk_bytes) {
    const unsigned n = e.arg_bytes;  // all in: room >= head_size
    const uint64_t arg = n == 0   ? uint64_t(*p & 0x1fu)
                         : n == 1 ? uint64_t(p[1])
                         : n == 2 ? uint64_t(load_be16(p + 1))
                         : n == 4 ? uint64_t(load_be32(p + 1))
                                  : load_be64(p + 1);
    const size_t have = room - e.head_size;
    if (arg > have && arg <= r.options_.max_string_length) missing = size_t(arg - have);
  }
  if (missing != 0) {
    r.needed_ = missing;
    return status::need_more;
  }
  return k_steps.at[e.step](r, out, p, parent);  // read_item()
}

inline namespace v1 {
status reader::next_general(item& out) noexcept {
  frame* const parent = top_;
  const uint8_t* const p = pos_;
  if (CBOR_FAST_LIKELY(slow_ == 0 && parent->left != 0 && items_left_ != 0)) {
    // Streaming, the end of the input is a need_more of streaming()'s.
    if (CBOR_FAST_UNLIKELY(options_.streaming))
      return detail::reader_steps::streaming(*this, out, p, parent);
    if (CBOR_FAST_LIKELY(p != end_))
      return k_steps.at[detail::k_heads[*p].step](*this, out, p, parent);  // read_item()
  }
  // The end of a top-level sequence (a small document's second call).
  if (at_sequence_end()) return status::end;
  if (slow_ == 0 && parent->left == 0 && parent->definite_container) {
    // A definite array or map has all its items: report its end (as next_special would).
    pop();
    set_end(out, depth_, offset(), false);
    return status::ok;
  }
  return strict_ ? next_strict(out) : next_special(out);
}

namespace {
// Levels fast_skip() tracks in its own array (4 KiB of stack, no recursion):
// the default max_depth, so deep documents never fall back and start over.
constexpr unsigned k_fast_skip_levels = 512;
}  // namespace

// Passes over one complete item made of definite-length parts only, checking
// what next() checks, in one tight loop that fills no items. At anything else
// (indefinite lengths, malformed or truncated input, a limit reached, more
// than 512 levels open, the default max_depth) it returns false having changed
// nothing, and skip() takes the general path, which reports the exact status
// and offset.
bool reader::fast_skip(uint64_t count) noexcept {
  // Key checks take the general path.
  if (strict_) return false;
  uint64_t items;
  const uint8_t* const end = fast_extent(&items, count);
  if (end == nullptr) return false;
  items_left_ -= items;
  top_->left -= count;
  pos_ = end;
  return true;
}

// fast_skip()'s scan: where the next `count` items at pos_ end, changing nothing.
inline const uint8_t* reader::fast_extent(uint64_t* items_out, uint64_t count) const noexcept {
  // Chunks of an indefinite string take the general path.
  if (top_->kind >= k_bytes) return nullptr;
  const uint8_t* p = pos_;
  const uint8_t* const end = end_;
  const bool utf8 = options_.validate_utf8;
  const uint64_t max_string = options_.max_string_length;
  const uint64_t max_entries = options_.max_container_items;
  const uint32_t levels = options_.max_depth - depth_;  // levels we may open
  uint64_t outer[k_fast_skip_levels];                   // items left in the enclosing levels
  uint32_t depth = 0;
  uint64_t left = count;  // items left at the current level (the ones to skip)
  uint64_t items = 0;
  for (;;) {
    if (p == end) return nullptr;
    const uint8_t ib = *p;
    // By reference: the fields load as bytes (a copy of the whole entry
    // would be one load plus shifts).
    const detail::head_entry& e = detail::k_heads[ib];
    const size_t avail = size_t(end - p);
    uint64_t arg;
    if (e.arg_bytes == 0) {
      arg = ib & 0x1fu;
    } else if (avail >= 9) {
      arg = detail::load_argument_n(p + 1, e.arg_bytes);
    } else {
      if (avail <= e.arg_bytes) return nullptr;
      arg = detail::load_argument_short(p + 1, e.arg_bytes);
    }
    const uint8_t* const q = p + 1 + e.arg_bytes;
    ++items;
    switch (e.kind) {
      case detail::hk_scalar: p = q; break;
      case detail::hk_simple8:
        if (arg < 32) return nullptr;
        p = q;
        break;
      case detail::hk_bytes:
      case detail::hk_text:
        if (arg > max_string || arg > size_t(end - q)) return nullptr;
        if (e.kind == detail::hk_text && utf8 && !detail::utf8_is_valid(q, size_t(arg), end))
          return nullptr;
        p = q + arg;
        break;
      case detail::hk_array:
      case detail::hk_map:
      case detail::hk_tag: {
        uint64_t children = 1;
        if (e.kind != detail::hk_tag) {
          if (arg > max_entries) return nullptr;
          if (e.kind == detail::hk_array ? arg > size_t(end - q) : arg > size_t(end - q) / 2)
            return nullptr;
          children = e.kind == detail::hk_array ? arg : 2 * arg;
        }
        // The general path opens a level even for [] and {}.
        if (depth >= levels || depth == k_fast_skip_levels) return nullptr;
        p = q;
        if (children == 0) break;
        outer[depth++] = left;
        left = children;
        continue;
      }
      default: return nullptr;
    }
    // An item is complete: count it, closing every level it completes.
    while (--left == 0) {
      if (depth == 0) {
        if (items > items_left_) return nullptr;
        *items_out = items;
        return p;
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
  // Streaming, an item the scout is already walking (skip() again after
  // need_more) goes straight to it: the fast pass would rescan the partial
  // item from its start on every call, quadratic over many small feeds.
  const bool scouting = CBOR_FAST_UNLIKELY(options_.streaming) && scout_origin_ == offset();
  if (depth_ == 0) renew_budget(0);  // the item to skip is a top-level one
  if (!scouting && pos_ != end_ && top_->left != 0 && fast_skip()) return status::ok;
  if (options_.streaming) {
    // All or nothing: a partial item is not entered.
    const status ready = item_ready();
    if (ready != status::ok) return ready;
  }
  const uint32_t target = depth_;
  item it;
  status s = next_general(it);
  if (s != status::ok) return s;
  for (;;) {
    pop_finished_tags();
    if (depth_ <= target) return status::ok;
    s = next_general(it);
    if (s != status::ok) return s;
  }
}

status reader::skip_to_end() noexcept {
  if (error_.code != status::ok) return error_.code;
  pop_finished_tags();
  if (depth_ == 0) return status::invalid_state;
  const uint32_t target = depth_ - 1;
  // The items left of a definite array or map go in one fast skip where it
  // allows (the rule of skip()); the END, and what it refuses, below.
  if ((top_->kind == k_array || top_->kind == k_map) && top_->left != 0 && !top_->indefinite &&
      pos_ != end_) {
    fast_skip(top_->left);
  }
  item it;
  if (options_.streaming) {
    // Whole items at this level (skip()), so after need_more the reader is
    // between two of them and the next call goes on from there.
    for (;;) {
      const bool closing =
          top_->indefinite ? pos_ != end_ && *pos_ == 0xff : top_->left == 0 && top_->kind != k_tag;
      const status s = closing ? next_general(it) : skip();
      if (s != status::ok) return s;
      pop_finished_tags();
      if (depth_ <= target) return status::ok;
    }
  }
  for (;;) {
    status s = next_general(it);
    if (s != status::ok) return s;
    pop_finished_tags();
    if (depth_ <= target) return status::ok;
  }
}

status reader::item_ready() noexcept {
  if (error_.code != status::ok || !options_.streaming) return error_.code;
  pop_finished_tags();
  // As skip(): at the end of the enclosing container there is no item.
  if (top_->left == 0 && !top_->indefinite) return status::invalid_state;
  if (pos_ == end_) return short_input(offset(), 1);
  if (top_->indefinite && *pos_ == 0xff) return status::invalid_state;
  const size_t at = offset();
  if (depth_ == 0) renew_budget(0);  // the scout's budget is that of a top-level item
  if (scout_origin_ != at) {
    uint64_t items;
    if (fast_extent(&items, 1) != nullptr) return status::ok;
    // The scout: a plain reader over the rest of the buffer (offsets from
    // `at`) with this one's limits for one item here, no strict checks (the
    // real pass makes them), fed along with this one until the item is in.
    reader_options so = options_;
    so.max_depth = options_.max_depth - depth_;
    so.max_items = items_left_;
    so.validate_utf8 = false;
    so.reject_duplicate_keys = false;
    so.deterministic = false;
    so.streaming = true;
    if (scout_ == nullptr) {
      void* p = options_.alloc->malloc(options_.alloc->context, sizeof(reader));
      if (p == nullptr) return fail(status::out_of_memory, at);
      scout_ = new (p) reader(pos_, size_t(end_ - pos_), so);
    } else {
      scout_->reset(pos_, size_t(end_ - pos_));
      scout_->set_options(so);  // at depth 0: cannot fail
    }
    scout_origin_ = at;
  }
  item it;
  for (;;) {
    const status s = scout_->next(it);
    if (s == status::need_more) {
      needed_ = scout_->needed();
      return s;
    }
    // The scout's own allocation failed (its stack): not the input's
    // error, so the item is not known to be all there. Sticky, as this
    // reader's own out_of_memory.
    if (s == status::out_of_memory) {
      scout_origin_ = SIZE_MAX;
      return fail(s, at + scout_->error().offset);
    }
    // Complete, or an error inside: either way the real pass may run (and
    // reports the error where it is).
    if (s != status::ok || scout_->depth() == 0) {
      scout_origin_ = SIZE_MAX;
      return status::ok;
    }
  }
}

status reader::read_joined(const item& start, std::string& out) noexcept {
  if (error_.code != status::ok) return error_.code;
  if (start.type != item_type::byte_string && start.type != item_type::text_string)
    return status::invalid_state;
  try {
    if (!start.is_indefinite()) {
      // Only the string just read: its bytes are where the reader left them
      // (a stream has moved its buffer on since any earlier one; a copy from
      // there would read freed memory).
      const uint64_t end = uint64_t(start.offset) + start.head_size + start.arg;
      if (end != offset() ||
          reinterpret_cast<uintptr_t>(start.u.data) !=
              reinterpret_cast<uintptr_t>(begin_) + start.offset + start.head_size)
        return status::invalid_state;
      out.append(reinterpret_cast<const char*>(start.u.data), size_t(start.arg));
      return status::ok;
    }
    // Must be called right after the start item (or after its own need_more):
    // that string's frame is the innermost, and no chunk of it has been taken
    // by anything else.
    if (depth_ != start.depth + 1 || (top_->kind != k_bytes && top_->kind != k_text) ||
        joined_start_ != start.offset || chunk_taken_)
      return status::invalid_state;
    item chunk;
    uint64_t total = 0;
    for (;;) {
      status s = next_general(chunk);
      chunk_taken_ = false;  // taken here
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

bool reader::at_container_end() noexcept {
  if (error_.code != status::ok) return false;
  pop_finished_tags();
  if (top_->left == 0 && !top_->indefinite) return true;
  return top_->indefinite && pos_ != end_ && *pos_ == 0xff;
}

status reader::finish() noexcept {
  if (error_.code != status::ok) return error_.code;
  pop_finished_tags();
  if (depth_ != 0) {
    if (pos_ == end_) {
      // Every open level a definite array or map with nothing left: no byte
      // is missing, only their end items are not read yet (82 01 02 after
      // the 2). That is a container still open, not a truncation (which
      // was sticky).
      // (A tag below the top has its content open above it: it ends with
      // that content.)
      bool only_ends = true;
      for (uint32_t i = 0; i < depth_ && only_ends; ++i) {
        const frame& f = stack_[i];
        only_ends = (f.definite_container && f.left == 0) ||
                    (f.kind == detail::frame_tag && i + 1 < depth_);
      }
      if (only_ends) return status::invalid_state;
      // Streaming, before end_input(): the rest may still come (need_more,
      // not sticky), as for next().
      return short_input(offset(), 1);
    }
    return status::invalid_state;
  }
  if (pos_ != end_) return status::trailing_bytes;
  return status::ok;
}

}  // namespace v1
}  // namespace cbor_fast
