// The stream: a streaming reader fed from a source through one buffer that
// keeps only the input from the reader's keep_from() on.
#include "cbor_fast/stream.hpp"

#include <cerrno>
#include <cstring>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#define CBOR_FAST_HAVE_READ 1
#endif

#include "document/decode.hpp"

namespace cbor_fast {
inline namespace v1 {

namespace {
reader_options streaming_options(const stream_options& o, const allocator* alloc) noexcept {
  reader_options ro = o.reader;
  ro.streaming = true;
  ro.alloc = alloc;
  return ro;
}

allocator hooks_of(const stream_options& o) noexcept {
  return o.reader.alloc != nullptr ? *o.reader.alloc : default_allocator();
}

}  // namespace

bool fd_source(void* context, uint8_t* buffer, size_t capacity, size_t* got) noexcept {
#ifdef CBOR_FAST_HAVE_READ
  const int fd = *static_cast<const int*>(context);
  for (;;) {
    const ssize_t n = ::read(fd, buffer, capacity);
    if (n >= 0) {
      *got = size_t(n);
      return true;
    }
    if (errno != EINTR) return false;
  }
#else
  (void)context;
  (void)buffer;
  (void)capacity;
  *got = 0;
  return false;
#endif
}

stream::stream(source_fn source, void* context, const stream_options& options) noexcept
    : source_(source),
      context_(context),
      alloc_(hooks_of(options)),
      block_(options.block_size != 0 ? options.block_size : size_t(64) << 10),
      max_buffer_(options.max_buffer != 0 ? options.max_buffer : size_t(64) << 20),
      max_document_memory_(options.max_document_memory != 0 ? options.max_document_memory
                                                            : SIZE_MAX),
      reader_(static_cast<const uint8_t*>(nullptr), 0, streaming_options(options, &alloc_)) {
  if (source_ == nullptr || alloc_.malloc == nullptr || alloc_.realloc == nullptr ||
      alloc_.free == nullptr)
    error_ = error_info{status::invalid_argument, 0, 0, 0};
}

stream::stream(int fd, const stream_options& options) noexcept : stream(&fd_source, &fd_, options) {
  fd_ = fd;
  if (fd < 0) error_ = error_info{status::invalid_argument, 0, 0, 0};
}

stream::~stream() {
  if (buf_ != nullptr) alloc_.free(alloc_.context, buf_, capacity_);
}

status stream::fail(status s) noexcept {
  const size_t at = reader_.offset();
  error_ = error_info{s, at, detail::reader_access::item_offset_at(reader_, at), reader_.depth()};
  // No byte past `at` for the reader: every later call comes to more().
  reader_.feed(buf_, at - first_offset_, first_offset_);
  return s;
}

status stream::refill(size_t needed) noexcept {
  if (ended_) return fail(status::internal_error);  // the reader knows no more comes
  // Drop what no later call reads, but only once the room behind the bytes
  // is under half a block or short of what is needed: as a socket reader's
  // window, the bytes move once per several reads instead of at every
  // refill (with a source that hands out less than a block at a time), and
  // the reader is fed once per refill.
  const size_t keep = reader_.keep_from();
  const size_t drop = keep - first_offset_;
  const size_t room = capacity_ - size_;
  if (drop != 0 && (room < block_ / 2 || room < needed)) {
    std::memmove(buf_, buf_ + drop, size_ - drop);
    size_ -= drop;
    first_offset_ = keep;
    // The reader follows every move of the bytes, so it never reads stale
    // ones (on a failure below too).
    if (reader_.feed(buf_, size_, first_offset_) != status::ok) return fail(status::internal_error);
  }
  // An item that cannot fit (a string longer than the buffer may grow): read
  // what fits, to learn whether the input ends first. Then the item is
  // truncated, as a one-shot read of the same bytes says; else it is too
  // large for the buffer.
  bool over = false;
  if (needed > max_buffer_ || size_ > max_buffer_ - needed) {
    if (size_ >= max_buffer_) return full_buffer();
    needed = max_buffer_ - size_;
    over = true;
  }
  const size_t want = size_ + needed;
  // Room for what is needed and a block more (or twice the old size), within
  // max_buffer; but at most twice what the buffer held (or a block more) at
  // a time: the bytes a head declares are a promise, so the buffer grows as
  // they come (a 9-byte input declaring 2^64 - 1 bytes, with max_buffer
  // lifted, asked the allocator for all of them).
  auto grow = [&]() noexcept -> status {
    size_t cap = want > size_ + block_ ? want : size_ + block_;
    const size_t step = capacity_ <= SIZE_MAX / 2 ? capacity_ * 2 : SIZE_MAX;
    const size_t most = step > size_ + block_ ? step : size_ + block_;
    if (cap > most) cap = most;
    if (capacity_ <= max_buffer_ / 2 && cap < capacity_ * 2) cap = capacity_ * 2;
    if (cap > max_buffer_) cap = max_buffer_;
    void* p = buf_ == nullptr ? alloc_.malloc(alloc_.context, cap)
                              : alloc_.realloc(alloc_.context, buf_, capacity_, cap);
    if (p == nullptr) return status::out_of_memory;
    buf_ = static_cast<uint8_t*>(p);
    capacity_ = cap;
    return reader_.feed(buf_, size_, first_offset_) == status::ok ? status::ok
                                                                  : status::internal_error;
  };
  if (want > capacity_ || (capacity_ - size_ < block_ / 2 && capacity_ < max_buffer_)) {
    const status g = grow();
    if (g != status::ok) return fail(g);
  }
  size_t got_total = 0;
  while (got_total < needed) {
    // Full before the item is: more room (want <= max_buffer, so it grows).
    if (size_ == capacity_) {
      const status g = grow();
      if (g != status::ok) return fail(g);
    }
    size_t got = 0;
    if (!source_(context_, buf_ + size_, capacity_ - size_, &got) || got > capacity_ - size_) {
      reader_.feed(buf_, size_, first_offset_);  // what did arrive
      return fail(status::source_failed);
    }
    if (got == 0) {
      ended_ = true;
      break;
    }
    size_ += got;
    got_total += got;
  }
  const status s = reader_.feed(buf_, size_, first_offset_);
  if (s != status::ok) return fail(status::internal_error);
  if (over && !ended_) return full_buffer();
  if (ended_) reader_.end_input();
  return status::ok;
}

status stream::full_buffer() noexcept {
  // The buffer is full and the item needs more: one more byte says whether
  // the input went on (the byte is lost, but the stream fails either way).
  // If not, the item is truncated, as a one-shot read of the same bytes says,
  // however the reads filled the buffer before.
  uint8_t probe;
  size_t got = 0;
  if (!source_(context_, &probe, 1, &got) || got > 1) return fail(status::source_failed);
  if (got != 0) return fail(status::memory_budget_exceeded);
  ended_ = true;
  reader_.end_input();
  return status::ok;
}

status stream::set_options(const reader_options& options) noexcept {
  reader_options ro = options;
  ro.streaming = !ended_;
  ro.alloc = &alloc_;
  return reader_.set_options(ro);
}

status stream::more() noexcept {
  if (error_.code != status::ok) return error_.code;
  return refill(reader_.needed());
}

status stream::wait_for_item() noexcept {
  if (error_.code != status::ok) return error_.code;
  for (;;) {
    const status s = reader_.item_ready();
    if (s != status::need_more) return s;
    if (const status r = refill(reader_.needed()); r != status::ok) return r;
  }
}

status stream::skip() noexcept {
  const status s = wait_for_item();
  return s != status::ok ? s : reader_.skip();
}

status stream::next_document(document& out, uint32_t flags) noexcept {
  const status s = wait_for_item();
  if (s != status::ok) {
    out.clear();
    return s;
  }
  error_info e;
  // decode(reader&) with the document's allocations counted against this
  // budget (SIZE_MAX: none; the reader's own go on through the stream's
  // allocator); the whole item is in the buffer already.
  detail::memory_budget budget(&alloc_);
  budget.arm(max_document_memory_);
  const status d =
      detail::decode_from_reader(reader_, out, flags | decode_copy_strings, &e, 0, &budget);
  if (d == status::ok && (flags & decode_skip_self_described) != 0) detail::skip_marker(out);
  // A failure of the document's own (memory, its node limit) leaves the
  // reader inside the item: sticky like the stream's other failures, so
  // that the rest of the item never comes out as items of their own. (The
  // reader's errors are sticky already; invalid_state and invalid_argument
  // consume nothing.)
  // (The reader's error, not the stream's: an open container's END needs no
  // byte, so a reader cut off at its position would still yield it.)
  if (d != status::ok && d != status::invalid_state && d != status::invalid_argument &&
      reader_.error().code == status::ok)
    detail::reader_access::fail(reader_, d, e.code == d ? e.offset : reader_.offset());
  return d;
}

status stream::read_joined(const item& start, std::string& out) noexcept {
  if (error_.code != status::ok) return error_.code;
  for (;;) {
    const status s = reader_.read_joined(start, out);
    if (s != status::need_more) return s;
    if (const status r = refill(reader_.needed()); r != status::ok) return r;
  }
}

}  // namespace v1
}  // namespace cbor_fast
