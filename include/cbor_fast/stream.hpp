// libcbor_fast: a reader over input that arrives in parts (a file
// descriptor, a socket, a callback), in a buffer of bounded size.
#ifndef CBOR_FAST_STREAM_HPP
#define CBOR_FAST_STREAM_HPP

#include <cstddef>
#include <cstdint>
#include <string>

#include "cbor_fast/allocator.hpp"
#include "cbor_fast/document.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"
#include "cbor_fast/reader.hpp"

namespace cbor_fast {
inline namespace v1 {

/// A source of input: reads up to `capacity` bytes into `buffer` and stores
/// how many in *got (0: the input has ended). Returns false on failure (the
/// stream then fails with source_failed). It may return fewer bytes than
/// asked (a pipe, a socket); the stream asks again only when it needs more.
using source_fn = bool (*)(void* context, uint8_t* buffer, size_t capacity, size_t* got);

/// A source_fn over a POSIX file descriptor: `context` points to the int
/// (read(2), retried on EINTR). Fails where there is no read(2).
bool fd_source(void* context, uint8_t* buffer, size_t capacity, size_t* got) noexcept;

/// Limits of a stream: its reader's, and the most bytes it holds at once.
struct stream_options {
  /// The reader's limits and checks (streaming is set by the stream; the
  /// allocator also serves the buffer). max_items counts the items of each
  /// top-level item (since 0.5), so a long sequence never runs out of it.
  reader_options reader;
  /// Bytes asked of the source per read when the buffer has room.
  size_t block_size = size_t(64) << 10;
  /// The most bytes the buffer holds: an item (for next(): a head with its
  /// string; for skip(), visit() and next_document(): the whole item) that
  /// needs more fails with memory_budget_exceeded at its offset once the
  /// buffer is full (truncated, as for a one-shot read, if the input ends
  /// before that: a 9-byte input declaring a 4 GiB string is short). Input
  /// before the item being read is dropped, so memory stays at most this
  /// plus the reader's stack and key tables, whatever the input's size.
  size_t max_buffer = size_t(64) << 20;
  /// next_document(): most bytes the document may hold through its allocator
  /// (nodes, copied and joined strings, the decoder's tables), as
  /// decode_options::max_memory does for a buffer: memory_budget_exceeded at
  /// the item being added beyond it, and the stream fails there. 0 (the
  /// default) or SIZE_MAX: no budget, the document bounded by the item alone
  /// (a 24-byte node per data item, the strings, and the decoder's nesting
  /// and duplicate-key tables: with max_depth raised, hostile nesting took
  /// 58 times the item, 105 with reject_duplicate_keys, in a probe). Since 0.5.
  size_t max_document_memory = 0;
};

/// Pulls the items of a CBOR sequence from a source, as reader does from a
/// buffer (the same items, statuses and offsets, offsets counted from the
/// start of the input), reading more whenever the reader says need_more.
/// One exception, as for any streaming reader: a definite array or map that
/// declares more entries than the rest of the input could hold is refused
/// at its head by a one-shot reader (truncated), while a stream, which does
/// not know the input's size, reads into it and reports what it meets
/// first: an error inside, or truncated where the input ends.
///
/// Views in the items (strings) point into the stream's buffer: valid until
/// the next call on the stream. Errors are sticky. Not copyable or movable
/// (the reader points into the stream's own hooks).
class stream {
 public:
  stream(source_fn source, void* context, const stream_options& options = {}) noexcept;
  /// Reads from a POSIX file descriptor (read(2), retried on EINTR; the
  /// stream never closes it).
  explicit stream(int fd, const stream_options& options = {}) noexcept;
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream();

  /// The next item, as reader::next(): ok, end (the input ended at the top
  /// level), or an error (truncated when it ends inside an item). Inline: the
  /// reader's own next() while the buffer lasts, out of line only to refill.
  status next(item& out) noexcept {
    // After a failure of the stream's own the reader sees no bytes left, so
    // it answers need_more and more() gives the sticky error.
    // One call of reader_.next() in the loop, so its inline path is compiled
    // into the caller once (two copies cost the caller's loop registers).
    for (;;) {
      const status s = reader_.next(out);
      if (s != status::need_more) return s;
      const status r = more();
      if (r != status::ok) return r;
    }
  }
  /// Passes over the next complete item, as reader::skip().
  status skip() noexcept;
  /// Calls v for every item of the next complete item, as reader::visit(),
  /// once all of it is in the buffer.
  template <class Visitor>
  status visit(Visitor&& v) {
    const status s = wait_for_item();
    return s != status::ok ? s : reader_.visit(v);
  }
  /// The next top-level item as a document that owns its strings (the
  /// buffer moves on); flags as decode() (decode_copy_strings is implied).
  status next_document(document& out, uint32_t flags = decode_none) noexcept;
  /// The whole content of a string item just read (as reader::read_joined()).
  status read_joined(const item& start, std::string& out) noexcept;

  /// Changes the reader's limits and checks (as reader::set_options(); the
  /// stream keeps streaming and its allocator).
  status set_options(const reader_options& options) noexcept;
  /// Changes stream_options::max_document_memory (0 or SIZE_MAX: none) for
  /// the next_document() calls from now on. Since 0.5.
  void set_max_document_memory(size_t bytes) noexcept {
    max_document_memory_ = bytes != 0 ? bytes : SIZE_MAX;
  }

  /// The sticky error: the reader's, or the stream's own (source_failed,
  /// memory_budget_exceeded, out_of_memory).
  const error_info& error() const noexcept {
    return error_.code != status::ok ? error_ : reader_.error();
  }
  /// Offset of the next byte to read, from the start of the input.
  size_t offset() const noexcept { return reader_.offset(); }
  /// Bytes the buffer holds now (it never exceeds stream_options::max_buffer),
  /// read ones included until a refill needs their room.
  size_t buffered() const noexcept { return size_; }
  /// The reader underneath (for depth(), items(), options()).
  const cbor_fast::reader& reader() const noexcept { return reader_; }

 private:
  /// After need_more: keeps the input from the reader's keep_from() on, makes
  /// room for `needed` more bytes and reads until they are there (or the
  /// input ends: then the reader learns no more comes).
  status refill(size_t needed) noexcept;
  /// After need_more: the sticky error, or refill(reader_.needed()).
  status more() noexcept;
  status wait_for_item() noexcept;
  status fail(status s) noexcept;
  /// The buffer holds max_buffer bytes and the item needs more: truncated
  /// (the reader told that the input ended) if the source has no more,
  /// else memory_budget_exceeded.
  status full_buffer() noexcept;

  source_fn source_;
  void* context_;
  allocator alloc_;  ///< the caller's hooks (or malloc), for the buffer
  size_t block_;
  size_t max_buffer_;
  size_t max_document_memory_;  ///< SIZE_MAX: none
  uint8_t* buf_ = nullptr;
  size_t capacity_ = 0;
  size_t size_ = 0;          ///< bytes in buf_
  size_t first_offset_ = 0;  ///< input offset of buf_[0]
  bool ended_ = false;       ///< the source said the input has ended
  int fd_ = -1;              ///< the descriptor of the fd constructor
  error_info error_;
  cbor_fast::reader reader_;
};

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_STREAM_HPP
