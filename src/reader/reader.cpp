// The pull reader: one well-formedness-checked item per next() call.
//
// The nesting stack is an explicit array of frames grown through the
// allocator, so depth is bounded by reader_options::max_depth and memory, never
// by the C++ call stack.
#include "cbor_fast/reader.hpp"

#include <cstring>
#include <new>
#include <utility>

#include "internal/endian.hpp"
#include "internal/float16.hpp"
#include "internal/utf8.hpp"

namespace cbor_fast {
inline namespace v1 {

namespace {
// What a frame holds open.
enum frame_kind : uint8_t { k_array = 0, k_map = 1, k_tag = 2, k_bytes = 3, k_text = 4 };

constexpr uint32_t k_initial_frames = 16;
}  // namespace

reader::reader(const uint8_t* data, size_t size, const reader_options& options) noexcept
    : begin_(data), pos_(data), end_(data + size), options_(options) {
  if (options_.alloc == nullptr) options_.alloc = &default_allocator();
  if (data == nullptr && size != 0) fail(status::invalid_argument, 0);
}

reader::reader(reader&& other) noexcept
    : begin_(other.begin_),
      pos_(other.pos_),
      end_(other.end_),
      options_(other.options_),
      depth_(other.depth_),
      item_start_(other.item_start_),
      error_(other.error_),
      stack_(std::exchange(other.stack_, nullptr)),
      capacity_(std::exchange(other.capacity_, 0u)) {
  other.depth_ = 0;
}

reader& reader::operator=(reader&& other) noexcept {
  if (this != &other) {
    if (stack_) options_.alloc->free(options_.alloc->context, stack_, capacity_ * sizeof(frame));
    begin_ = other.begin_;
    pos_ = other.pos_;
    end_ = other.end_;
    options_ = other.options_;
    depth_ = std::exchange(other.depth_, 0u);
    item_start_ = other.item_start_;
    error_ = other.error_;
    stack_ = std::exchange(other.stack_, nullptr);
    capacity_ = std::exchange(other.capacity_, 0u);
  }
  return *this;
}

reader::~reader() {
  if (stack_) options_.alloc->free(options_.alloc->context, stack_, capacity_ * sizeof(frame));
}

status reader::set_options(const reader_options& options) noexcept {
  if (options.max_depth < depth_) return status::invalid_argument;
  options_.max_depth = options.max_depth;
  options_.validate_utf8 = options.validate_utf8;
  return status::ok;
}

void reader::reset(const uint8_t* data, size_t size) noexcept {
  begin_ = data;
  pos_ = data;
  end_ = data + size;
  depth_ = 0;
  item_start_ = 0;
  error_ = error_info{};
  if (data == nullptr && size != 0) fail(status::invalid_argument, 0);
}

status reader::fail(status s, size_t offset) noexcept {
  error_.code = s;
  error_.offset = offset;
  error_.depth = depth_;
  error_.item_offset = item_start_;
  return s;
}

status reader::push(uint8_t kind, bool indefinite, uint64_t left, size_t head_offset) noexcept {
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
  stack_[depth_++] = frame{left, kind, indefinite};
  return status::ok;
}

// Tags close silently once their one item is complete; pop those lazily here.
inline void reader::pop_finished_tags() noexcept {
  while (depth_ != 0) {
    const frame& f = stack_[depth_ - 1];
    if (f.kind != k_tag || f.left != 0) break;
    --depth_;
  }
}

status reader::next(item& out) noexcept {
  if (error_.code != status::ok) return error_.code;
  pop_finished_tags();

  frame* parent = nullptr;
  if (depth_ != 0) {
    parent = &stack_[depth_ - 1];
    if (!parent->indefinite && parent->left == 0) {
      // A definite array or map has all its items: report its end.
      --depth_;
      out.type = item_type::end;
      out.flags = 0;
      out.head_size = 0;
      out.width = 0;
      out.depth = depth_;
      out.offset = offset();
      out.arg = 0;
      out.u.data = nullptr;
      return status::ok;
    }
  }

  if (pos_ == end_) {
    if (depth_ == 0) return status::end;
    return fail(status::truncated, offset());
  }

  const uint8_t* const p = pos_;
  const size_t off = size_t(p - begin_);
  const uint8_t ib = *p;
  const uint8_t major = ib >> 5;
  const uint8_t ai = ib & 0x1f;
  if (depth_ == 0) item_start_ = off;

  if (ib == 0xff) {
    if (parent == nullptr || !parent->indefinite) return fail(status::unexpected_break, off);
    if (parent->kind == k_map && (parent->left & 1) != 0)
      return fail(status::map_missing_value, off);
    --depth_;
    pos_ = p + 1;
    out.type = item_type::end;
    out.flags = item::flag_indefinite | item::flag_break;
    out.head_size = 1;
    out.width = 0;
    out.depth = depth_;
    out.offset = off;
    out.arg = 0;
    out.u.data = nullptr;
    return status::ok;
  }

  if (parent != nullptr && parent->kind >= k_bytes) {
    // Inside an indefinite-length string only definite chunks of its own type may appear.
    const uint8_t want = parent->kind == k_bytes ? 2 : 3;
    if (major != want) return fail(status::chunk_type_mismatch, off);
    if (ai == 31) return fail(status::nested_indefinite_chunk, off);
  }

  // Decode the head's argument.
  uint64_t arg;
  size_t head_size;
  if (ai < 24) {
    arg = ai;
    head_size = 1;
  } else if (ai < 28) {
    head_size = size_t(1) + (size_t(1) << (ai - 24));
    if (size_t(end_ - p) < head_size) return fail(status::truncated, off);
    switch (ai) {
      case 24: arg = p[1]; break;
      case 25: arg = detail::load_be16(p + 1); break;
      case 26: arg = detail::load_be32(p + 1); break;
      default: arg = detail::load_be64(p + 1); break;
    }
  } else if (ai == 31) {
    arg = 0;
    head_size = 1;
  } else {
    return fail(status::reserved_additional_info, off);
  }
  const uint8_t* const content = p + head_size;
  const size_t remaining = size_t(end_ - content);

  out.flags = 0;
  out.head_size = uint8_t(head_size);
  out.width = 0;
  out.depth = depth_;
  out.offset = off;
  out.arg = arg;
  out.u.data = nullptr;

  switch (major) {
    case 0:
    case 1:
      if (ai == 31) return fail(status::indefinite_not_allowed, off);
      out.type = major == 0 ? item_type::unsigned_int : item_type::negative_int;
      pos_ = content;
      break;

    case 2:
    case 3:
      out.type = major == 2 ? item_type::byte_string : item_type::text_string;
      if (ai == 31) {
        out.flags = item::flag_indefinite;
        if (parent) parent->left += parent->indefinite ? 1 : uint64_t(-1);
        pos_ = content;
        return push(major == 2 ? k_bytes : k_text, true, 0, off);
      }
      if (arg > remaining) return fail(status::truncated, off);
      if (major == 3 && options_.validate_utf8) {
        const size_t bad = detail::utf8_validate(content, size_t(arg));
        if (bad != size_t(arg)) return fail(status::invalid_utf8, off + head_size + bad);
      }
      out.u.data = content;
      pos_ = content + arg;
      break;

    case 4:
    case 5: {
      out.type = major == 4 ? item_type::array : item_type::map;
      const uint8_t kind = major == 4 ? k_array : k_map;
      if (parent) parent->left += parent->indefinite ? 1 : uint64_t(-1);
      pos_ = content;
      if (ai == 31) {
        out.flags = item::flag_indefinite;
        return push(kind, true, 0, off);
      }
      // Every item takes at least one byte: a count the input cannot hold is
      // rejected here, before anyone sizes an allocation by it.
      const uint64_t limit = major == 4 ? remaining : remaining / 2;
      if (arg > limit) return fail(status::truncated, off);
      return push(kind, false, major == 4 ? arg : arg * 2, off);
    }

    case 6:
      if (ai == 31) return fail(status::indefinite_not_allowed, off);
      out.type = item_type::tag;
      if (parent) parent->left += parent->indefinite ? 1 : uint64_t(-1);
      pos_ = content;
      return push(k_tag, false, 1, off);

    default:  // major 7
      switch (ai) {
        case 20:
        case 21: out.type = item_type::boolean; break;
        case 22: out.type = item_type::null; break;
        case 23: out.type = item_type::undefined; break;
        case 24:
          if (arg < 32) return fail(status::bad_simple_value, off);
          out.type = item_type::simple;
          break;
        case 25:
          out.type = item_type::floating;
          out.width = 2;
          out.u.dbl = detail::half_to_double(uint16_t(arg));
          break;
        case 26:
          out.type = item_type::floating;
          out.width = 4;
          out.u.dbl = double(detail::bits_to_float(uint32_t(arg)));
          break;
        case 27:
          out.type = item_type::floating;
          out.width = 8;
          out.u.dbl = detail::bits_to_double(arg);
          break;
        default: out.type = item_type::simple; break;  // 0..19 (28..31 handled above)
      }
      pos_ = content;
      break;
  }

  // A scalar or definite string completed one item of its parent.
  if (parent) parent->left += parent->indefinite ? 1 : uint64_t(-1);
  return status::ok;
}

status reader::skip() noexcept {
  if (error_.code != status::ok) return error_.code;
  pop_finished_tags();
  if (depth_ != 0) {
    // At the end of the enclosing container there is no item to skip.
    const frame& f = stack_[depth_ - 1];
    if (!f.indefinite && f.left == 0) return status::invalid_state;
    if (f.indefinite && pos_ != end_ && *pos_ == 0xff) return status::invalid_state;
  }
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
    if (depth_ != start.depth + 1 || stack_[depth_ - 1].kind < k_bytes)
      return status::invalid_state;
    item chunk;
    for (;;) {
      status s = next(chunk);
      if (s != status::ok) return s;
      if (chunk.type == item_type::end) return status::ok;
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
