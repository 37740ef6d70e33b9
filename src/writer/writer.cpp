// Push writer: preferred serialization (RFC 8949 section 4.1) into an owned
// buffer, a caller buffer or a sink callback.
#include "cbor_fast/writer.hpp"

#include "cbor_fast/reader.hpp"

#include <cstring>
#include <limits>

#include "internal/endian.hpp"
#include "internal/float16.hpp"

namespace cbor_fast {
inline namespace v1 {

namespace {

constexpr uint8_t k_major_uint = 0;
constexpr uint8_t k_major_negative = 1;
constexpr uint8_t k_major_tag = 6;
constexpr uint8_t k_major_simple = 7;

constexpr uint8_t k_indefinite = 31;
constexpr uint8_t k_break = 0xff;

constexpr size_t k_min_owned_capacity = 64;
constexpr size_t k_min_stack_capacity = 16;
constexpr size_t k_size_max = std::numeric_limits<size_t>::max();

/// Encodes v as f9/fa/fb + bits at out; returns the size, or 0 for a bad width.
inline size_t encode_float(uint8_t* out, double v, float_width width) noexcept {
  const uint64_t bits = detail::double_to_bits(v);
  switch (width) {
    case float_width::shortest: {
      // A double with any of its low 29 fraction bits set has more significant
      // bits than a single (or half) can hold: the common case skips the tests.
      if ((bits & 0x1fffffff) != 0) break;
      uint64_t narrow;
      if (detail::narrows_exactly<5, 10>(bits, &narrow)) {
        out[0] = 0xf9;
        detail::store_be16(out + 1, uint16_t(narrow));
        return 3;
      }
      if (detail::narrows_exactly<8, 23>(bits, &narrow)) {
        out[0] = 0xfa;
        detail::store_be32(out + 1, uint32_t(narrow));
        return 5;
      }
      break;
    }
    case float_width::half:
      out[0] = 0xf9;
      detail::store_be16(out + 1, detail::double_to_half(v));
      return 3;
    case float_width::single:
      out[0] = 0xfa;
      detail::store_be32(out + 1, detail::double_to_single(v));
      return 5;
    case float_width::double_: break;
    default: return 0;
  }
  out[0] = 0xfb;
  detail::store_be64(out + 1, bits);
  return 9;
}

}  // namespace

// ---- construction ------------------------------------------------------------

writer::writer(const allocator* alloc) noexcept
    : alloc_(alloc != nullptr ? alloc : &default_allocator()) {}

writer::writer(uint8_t* buffer, size_t capacity, const allocator* alloc) noexcept
    : mode_(mode::fixed), alloc_(alloc != nullptr ? alloc : &default_allocator()) {
  if (buffer == nullptr && capacity != 0) {
    fail(status::invalid_argument);
    return;
  }
  buf_ = buffer;
  pos_ = buffer;
  cap_ = buffer + capacity;
}

writer::writer(sink_fn sink, void* context, size_t chunk_size, const allocator* alloc) noexcept
    : mode_(mode::sink),
      alloc_(alloc != nullptr ? alloc : &default_allocator()),
      sink_(sink),
      sink_ctx_(context) {
  if (sink == nullptr) {
    fail(status::invalid_argument);
    return;
  }
  if (chunk_size == 0) chunk_size = 1;
  buf_ = static_cast<uint8_t*>(alloc_->malloc(alloc_->context, chunk_size));
  if (buf_ == nullptr) {
    fail(status::out_of_memory);
    return;
  }
  pos_ = buf_;
  cap_ = buf_ + chunk_size;
}

void writer::release_memory() noexcept {
  // A caller buffer is not ours; the owned and staging buffers are.
  if (mode_ != mode::fixed && buf_ != nullptr)
    alloc_->free(alloc_->context, buf_, size_t(cap_ - buf_));
  if (stack_ != nullptr) alloc_->free(alloc_->context, stack_, stack_capacity_ * sizeof(frame));
}

void writer::take(writer& other) noexcept {
  quick_ = other.quick_;
  mode_ = other.mode_;
  error_ = other.error_;
  overflow_ = other.overflow_;
  buf_ = other.buf_;
  pos_ = other.pos_;
  cap_ = other.cap_;
  flushed_ = other.flushed_;
  alloc_ = other.alloc_;
  sink_ = other.sink_;
  sink_ctx_ = other.sink_ctx_;
  stack_ = other.stack_;
  depth_ = other.depth_;
  open_tags_ = other.open_tags_;
  open_wraps_ = other.open_wraps_;
  stack_capacity_ = other.stack_capacity_;
  // The moved-from writer becomes a fresh owned writer on the same allocator.
  other.quick_ = k_unlimited;
  other.mode_ = mode::owned;
  other.error_ = status::ok;
  other.overflow_ = false;
  other.buf_ = other.pos_ = other.cap_ = nullptr;
  other.flushed_ = 0;
  other.sink_ = nullptr;
  other.sink_ctx_ = nullptr;
  other.stack_ = nullptr;
  other.depth_ = 0;
  other.open_tags_ = 0;
  other.open_wraps_ = 0;
  other.stack_capacity_ = 0;
}

writer::writer(writer&& other) noexcept : alloc_(other.alloc_) { take(other); }

writer& writer::operator=(writer&& other) noexcept {
  if (this != &other) {
    release_memory();
    take(other);
  }
  return *this;
}

writer::~writer() { release_memory(); }

// ---- byte output -------------------------------------------------------------

status writer::fail(status s) noexcept {
  error_ = s;
  quick_ = 0;  // every later call takes the slow path, which reports the error
  return s;
}

inline status writer::result() const noexcept {
  if (error_ != status::ok) return error_;
  return overflow_ ? status::buffer_too_small : status::ok;
}

inline void writer::put(const void* p, size_t n) noexcept {
  if (n <= size_t(cap_ - pos_)) {
    if (n != 0) {  // memcpy's pointers must be valid even for 0 bytes
      std::memcpy(pos_, p, n);
      pos_ += n;
    }
    return;
  }
  put_slow(p, n);
}

inline void writer::head(uint8_t major, uint64_t arg) noexcept {
  if (head_room()) {
    pos_ += put_head(pos_, major, arg);
    return;
  }
  uint8_t tmp[k_max_head];
  put_slow(tmp, put_head(tmp, major, arg));
}

bool writer::grow(size_t n) noexcept {
  const size_t used = size_t(pos_ - buf_);
  const size_t capacity = size_t(cap_ - buf_);
  if (n > k_size_max - used) {
    fail(status::out_of_memory);
    return false;
  }
  const size_t want = used + n;
  size_t new_capacity = capacity < k_min_owned_capacity / 2 ? k_min_owned_capacity
                        : capacity > k_size_max / 2         ? k_size_max
                                                            : capacity * 2;
  if (new_capacity < want) new_capacity = want;
  void* p = buf_ != nullptr ? alloc_->realloc(alloc_->context, buf_, capacity, new_capacity)
                            : alloc_->malloc(alloc_->context, new_capacity);
  if (p == nullptr) {
    fail(status::out_of_memory);  // the old buffer is untouched and still ours
    return false;
  }
  buf_ = static_cast<uint8_t*>(p);
  pos_ = buf_ + used;
  cap_ = buf_ + new_capacity;
  return true;
}

void writer::flush() noexcept {
  const size_t n = size_t(pos_ - buf_);
  pos_ = buf_;
  if (n == 0) return;
  if (sink_(sink_ctx_, buf_, n) != 0) {
    fail(status::sink_failed);
    return;
  }
  flushed_ += n;
}

void writer::put_slow(const void* p, size_t n) noexcept {
  if (error_ != status::ok) return;
  const auto* src = static_cast<const uint8_t*>(p);
  switch (mode_) {
    case mode::owned:
      if (n > size_t(cap_ - pos_) && !grow(n)) return;
      std::memcpy(pos_, src, n);
      pos_ += n;
      return;
    case mode::fixed:
      if (!overflow_ && n <= size_t(cap_ - pos_)) {
        std::memcpy(pos_, src, n);
        pos_ += n;
        return;
      }
      // Keep the buffer a prefix of whole writes and only count from here on;
      // pinning cap_ sends every later write down this path.
      overflow_ = true;
      cap_ = pos_;
      // A count past SIZE_MAX (declared lengths no memory holds) would wrap
      // and report a small size: out_of_memory instead, sticky.
      if (n > SIZE_MAX - size()) {
        fail(status::out_of_memory);
        return;
      }
      flushed_ += n;
      return;
    case mode::sink: {
      if (open_wraps_ != 0) {
        // A wrap's head is patched once it closes: keep its bytes staged.
        if (n > size_t(cap_ - pos_) && !grow(n)) return;
        std::memcpy(pos_, src, n);
        pos_ += n;
        return;
      }
      const size_t chunk = size_t(cap_ - buf_);
      while (n != 0) {
        if (pos_ == cap_) {
          flush();
          if (error_ != status::ok) return;
        }
        if (pos_ == buf_ && n >= chunk) {
          // Nothing staged and at least a whole chunk to go: no point copying.
          if (sink_(sink_ctx_, src, n) != 0) {
            fail(status::sink_failed);
            return;
          }
          flushed_ += n;
          return;
        }
        const size_t room = size_t(cap_ - pos_);
        const size_t c = n < room ? n : room;
        std::memcpy(pos_, src, c);
        pos_ += c;
        src += c;
        n -= c;
      }
      return;
    }
  }
}

// ---- structure tracking ------------------------------------------------------

inline status writer::before_item(uint8_t major, bool is_chunk) noexcept {
  if (error_ != status::ok) return error_;
  // The top level, an indefinite array, or a definite array or map with room.
  if (quick_ != 0) {
    --quick_;
    return status::ok;
  }
  if (depth_ == 0) return status::ok;  // 2^64 top-level items: not reachable, but harmless
  frame& f = stack_[depth_ - 1];
  if (f.kind == k_major_tag) {
    if (f.left == 0) return fail(status::writer_count_mismatch);
    --f.left;
    return status::ok;
  }
  // A definite array or map whose count quick_ held has all its items.
  if (!f.indefinite) return fail(status::writer_count_mismatch);
  if (f.kind == k_major_bytes || f.kind == k_major_text) {
    if (!is_chunk || major != f.kind) return fail(status::writer_bad_chunk);
    return status::ok;
  }
  if (f.kind == k_kind_wrap) return status::ok;  // 2^64 items: not reachable
  f.odd = !f.odd;  // indefinite map: the parity tells whether a value is due
  return status::ok;
}

void writer::reload_quick() noexcept {
  if (error_ != status::ok) {
    quick_ = 0;
  } else if (depth_ == 0) {
    quick_ = k_unlimited;
  } else {
    const frame& f = stack_[depth_ - 1];
    quick_ = f.kind == k_major_tag ? 0 : f.left;
  }
}

inline void writer::after_item() noexcept {
  // A tag on top has just received its one item (before_item counted it), so
  // it is complete; its completion may complete an enclosing tag in turn.
  // Most documents have no tag open: one compare.
  if (open_tags_ == 0) return;
  bool closed = false;
  while (depth_ != 0 && stack_[depth_ - 1].kind == k_major_tag && stack_[depth_ - 1].left == 0) {
    --depth_;
    --open_tags_;
    closed = true;
  }
  if (closed) reload_quick();
}

void writer::open(uint8_t kind, bool indefinite, uint64_t count) noexcept {
  if (depth_ == stack_capacity_) {
    const size_t old_capacity = stack_capacity_;
    if (old_capacity > k_size_max / sizeof(frame) / 2) {
      fail(status::out_of_memory);
      return;
    }
    const size_t new_capacity =
        old_capacity < k_min_stack_capacity ? k_min_stack_capacity : old_capacity * 2;
    void* p = stack_ != nullptr
                  ? alloc_->realloc(alloc_->context, stack_, old_capacity * sizeof(frame),
                                    new_capacity * sizeof(frame))
                  : alloc_->malloc(alloc_->context, new_capacity * sizeof(frame));
    if (p == nullptr) {
      fail(status::out_of_memory);
      return;
    }
    stack_ = static_cast<frame*>(p);
    stack_capacity_ = new_capacity;
  }
  // The parent's count leaves quick_ (for a tag parent both are 0 by now).
  if (depth_ != 0) stack_[depth_ - 1].left = quick_;
  if (kind == k_major_tag) {
    quick_ = 0;
    stack_[depth_++] = frame{1, kind, false, false, 0};
    ++open_tags_;
    return;
  }
  if (kind == k_kind_wrap) {
    // Like the top level: any number of items. count carries the start.
    quick_ = k_unlimited;
    stack_[depth_++] = frame{k_unlimited, kind, true, false, size_t(count)};
    ++open_wraps_;
    if (error_ != status::ok) quick_ = 0;
    return;
  }
  quick_ = !indefinite ? count : kind == k_major_array ? k_unlimited : 0;
  stack_[depth_++] = frame{quick_, kind, indefinite, false, 0};
  // The head may have failed on its way out (a sink): then the error is
  // sticky and every later call must take the slow path that reports it.
  if (error_ != status::ok) quick_ = 0;
}

// ---- scalars -----------------------------------------------------------------

status writer::write_head_slow(uint8_t major, uint64_t arg) noexcept {
  if (status s = before_item(major, false); s != status::ok) return s;
  head(major, arg);
  after_item();
  return result();
}

status writer::write_bignum(const uint8_t* magnitude, size_t size, bool negative) noexcept {
  if (error_ != status::ok) return error_;
  if (magnitude == nullptr && size != 0) return status::invalid_argument;
  while (size != 0 && *magnitude == 0) {
    ++magnitude;
    --size;
  }
  if (size <= 8) {
    uint64_t v = 0;
    for (size_t i = 0; i < size; ++i) v = (v << 8) | magnitude[i];
    const uint8_t major = negative ? k_major_negative : k_major_uint;
    if (status s = before_item(major, false); s != status::ok) return s;
    head(major, v);
  } else {
    // Tag and byte string are one data item for the structure.
    if (status s = before_item(k_major_tag, false); s != status::ok) return s;
    head(k_major_tag, negative ? 3 : 2);
    head(k_major_bytes, size);
    put(magnitude, size);
  }
  after_item();
  return result();
}

status writer::write_string_slow(uint8_t major, const void* data, size_t size) noexcept {
  if (error_ != status::ok) return error_;
  if (data == nullptr && size != 0) return status::invalid_argument;
  if (status s = before_item(major, true); s != status::ok) return s;
  head(major, size);
  put(data, size);
  after_item();
  return result();
}

status writer::write_encoded(const void* data, size_t size) noexcept {
  if (error_ != status::ok) return error_;
  if (data == nullptr || size == 0) return status::invalid_argument;
  reader_options o;
  o.max_depth = UINT32_MAX;
  o.max_container_items = UINT64_MAX;
  o.max_items = UINT64_MAX;
  reader r(static_cast<const uint8_t*>(data), size, o);
  if (r.skip() != status::ok || !r.at_end()) return status::invalid_argument;
  const uint8_t major = uint8_t(*static_cast<const uint8_t*>(data) >> 5);
  if (status s = before_item(major, false); s != status::ok) return s;
  put(data, size);
  after_item();
  return result();
}

status writer::write_tag(uint64_t tag) noexcept {
  if (status s = before_item(k_major_tag, false); s != status::ok) return s;
  head(k_major_tag, tag);
  open(k_major_tag, false, 1);
  return result();
}

status writer::write_simple_slow(uint8_t v) noexcept {
  if (error_ != status::ok) return error_;
  if (v >= 24 && v < 32) return status::invalid_argument;
  if (status s = before_item(k_major_simple, false); s != status::ok) return s;
  head(k_major_simple, v);  // the shortest head is e0+v below 24, f8 v from 32
  after_item();
  return result();
}

status writer::write_float_slow(double v, float_width width) noexcept {
  if (error_ != status::ok) return error_;
  if (head_room()) {
    // Room for any float: encode in place, and keep it only if the structure agrees.
    const size_t n = encode_float(pos_, v, width);
    if (n == 0) return status::invalid_argument;
    if (status s = before_item(k_major_simple, false); s != status::ok) return s;
    pos_ += n;
    after_item();
    return result();
  }
  uint8_t out[k_max_head];
  const size_t n = encode_float(out, v, width);
  if (n == 0) return status::invalid_argument;
  if (status s = before_item(k_major_simple, false); s != status::ok) return s;
  put(out, n);
  after_item();
  return result();
}

status writer::write_float_bits_slow(unsigned bytes, uint64_t bits) noexcept {
  if (error_ != status::ok) return error_;
  uint8_t out[k_max_head];
  out[0] = bytes == 2 ? 0xf9 : bytes == 4 ? 0xfa : 0xfb;
  if (bytes == 2)
    detail::store_be16(out + 1, uint16_t(bits));
  else if (bytes == 4)
    detail::store_be32(out + 1, uint32_t(bits));
  else
    detail::store_be64(out + 1, bits);
  if (status s = before_item(k_major_simple, false); s != status::ok) return s;
  put(out, 1 + bytes);
  after_item();
  return result();
}

// ---- containers --------------------------------------------------------------

status writer::begin_slow(uint8_t major, uint64_t arg, uint64_t items) noexcept {
  if (status s = before_item(major, false); s != status::ok) return s;
  head(major, arg);
  open(major, false, items);
  return result();
}

status writer::begin_array_indefinite() noexcept {
  if (status s = before_item(k_major_array, false); s != status::ok) return s;
  const uint8_t ib = uint8_t(k_major_array << 5 | k_indefinite);
  put(&ib, 1);
  open(k_major_array, true, 0);
  return result();
}

status writer::begin_map_indefinite() noexcept {
  if (status s = before_item(k_major_map, false); s != status::ok) return s;
  const uint8_t ib = uint8_t(k_major_map << 5 | k_indefinite);
  put(&ib, 1);
  open(k_major_map, true, 0);
  return result();
}

status writer::begin_bytes_indefinite() noexcept {
  if (status s = before_item(k_major_bytes, false); s != status::ok) return s;
  const uint8_t ib = uint8_t(k_major_bytes << 5 | k_indefinite);
  put(&ib, 1);
  open(k_major_bytes, true, 0);
  return result();
}

status writer::begin_text_indefinite() noexcept {
  if (status s = before_item(k_major_text, false); s != status::ok) return s;
  const uint8_t ib = uint8_t(k_major_text << 5 | k_indefinite);
  put(&ib, 1);
  open(k_major_text, true, 0);
  return result();
}

status writer::end_slow() noexcept {
  if (error_ != status::ok) return error_;
  if (depth_ == 0) return fail(status::writer_no_container);
  const frame f = stack_[depth_ - 1];
  // A tag on top still waits for its item: it promised one and got none.
  if (f.kind == k_major_tag) return fail(status::writer_count_mismatch);
  if (f.kind == k_kind_wrap) {
    --depth_;
    close_wrap(f.start);
  } else if (!f.indefinite) {
    if (quick_ != 0) return fail(status::writer_count_mismatch);  // quick_ holds its count
    --depth_;
  } else {
    if (f.kind == k_major_map && f.odd) return fail(status::writer_odd_map);
    --depth_;
    put(&k_break, 1);
  }
  reload_quick();
  after_item();
  return result();
}

status writer::begin_embedded(bool with_tag) noexcept {
  if (with_tag) {
    if (status s = before_item(k_major_tag, false); s != status::ok) return s;
    head(k_major_tag, 24);
    open(k_major_tag, false, 1);
    if (error_ != status::ok) return error_;
  }
  if (status s = before_item(k_major_bytes, false); s != status::ok) return s;
  // The head is reserved before the frame opens (a sink already holds back
  // from here on, so it stays staged): at its longest where the buffer can
  // grow, so closing only ever moves the content down; one byte in a caller
  // buffer, so an output that fits the buffer never overflows it on the way.
  ++open_wraps_;
  const size_t start = size();
  static const uint8_t reserved[9] = {uint8_t(k_major_bytes << 5 | 27)};
  put(reserved, wrap_reserve());
  --open_wraps_;
  open(k_kind_wrap, true, start);
  return result();
}

void writer::close_wrap(size_t start) noexcept {
  const size_t reserved = wrap_reserve();
  const size_t content = size() - start - reserved;
  uint8_t h[k_max_head];
  const size_t hs = put_head(h, k_major_bytes, content);
  if (!overflow_) {
    // Every byte since start is still in the buffer (owned and caller buffers
    // keep everything; a sink flushes nothing while a wrap is open).
    uint8_t* at = buf_ + (start - flushed_);
    if (hs <= reserved) {
      std::memcpy(at, h, hs);
      if (hs != reserved) std::memmove(at + hs, at + reserved, content);
      pos_ -= reserved - hs;
    } else if (size_t(cap_ - pos_) >= hs - reserved) {  // a caller buffer with room
      std::memmove(at + hs, at + reserved, content);
      std::memcpy(at, h, hs);
      pos_ += hs - reserved;
    } else {
      // The longer head does not fit: count on, as any overflowing write.
      overflow_ = true;
      cap_ = pos_;
      if (hs - reserved > SIZE_MAX - size()) {
        fail(status::out_of_memory);
      } else {
        flushed_ += hs - reserved;
      }
    }
  } else {
    // A full caller buffer: only the count matters.
    const size_t in_buffer = size_t(pos_ - buf_);
    if (hs > reserved && hs - reserved > SIZE_MAX - size()) {
      fail(status::out_of_memory);
      --open_wraps_;
      return;
    }
    const size_t total = size() - reserved + hs;
    if (total >= in_buffer) {
      flushed_ = total - in_buffer;
    } else {
      pos_ = buf_ + total;
      cap_ = pos_;
      flushed_ = 0;
    }
  }
  --open_wraps_;
}

status writer::end_embedded() noexcept {
  if (error_ != status::ok) return error_;
  if (depth_ == 0 || stack_[depth_ - 1].kind != k_kind_wrap) return status::invalid_state;
  return end_slow();
}

status writer::finish() noexcept {
  if (error_ != status::ok) return error_;
  if (depth_ != 0) return fail(status::writer_unclosed);
  if (mode_ == mode::sink) flush();
  return result();
}

// ---- results -----------------------------------------------------------------

std::vector<uint8_t> writer::to_vector() const {
  if (mode_ == mode::sink || overflow_ || buf_ == nullptr) return {};
  return std::vector<uint8_t>(buf_, pos_);
}

uint8_t* writer::detach(size_t* size, size_t* capacity) noexcept {
  if (size != nullptr) *size = 0;
  if (capacity != nullptr) *capacity = 0;
  if (mode_ != mode::owned) return nullptr;
  uint8_t* out = buf_;
  if (size != nullptr) *size = size_t(pos_ - buf_);
  if (capacity != nullptr) *capacity = size_t(cap_ - buf_);
  buf_ = pos_ = cap_ = nullptr;
  flushed_ = 0;
  depth_ = 0;  // the stack memory stays for the next document
  open_tags_ = 0;
  open_wraps_ = 0;
  quick_ = k_unlimited;
  error_ = status::ok;
  overflow_ = false;
  return out;
}

}  // namespace v1
}  // namespace cbor_fast
