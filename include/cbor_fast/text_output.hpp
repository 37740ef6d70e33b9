// libcbor_fast: the buffered text destination of the JSON and diagnostic printers.
#ifndef CBOR_FAST_TEXT_OUTPUT_HPP
#define CBOR_FAST_TEXT_OUTPUT_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "cbor_fast/error.hpp"

namespace cbor_fast {
inline namespace v1 {

/// Receives text in chunks. Returns 0 on success; anything else stops the
/// output with status::sink_failed.
using text_sink_fn = int (*)(void* context, const char* data, size_t size);

/// Where printed text goes: appended to a std::string, or handed to a sink in
/// chunks of about chunk_size bytes, so a printer's memory stays bounded by
/// the chunk size whatever the size of the item it prints. Failures (out of
/// memory, a failing sink) are sticky: later text is dropped and error() tells.
/// Text still buffered reaches the destination at flush() (the printers flush
/// before they return).
class text_output {
 public:
  /// Appends to *s (flushed in chunks of chunk_size).
  explicit text_output(std::string& s, size_t chunk_size = size_t{1} << 16) noexcept;
  text_output(text_sink_fn sink, void* context, size_t chunk_size = size_t{1} << 16) noexcept;
  text_output(const text_output&) = delete;
  text_output& operator=(const text_output&) = delete;
  ~text_output();

  void put(char c) noexcept {
    if (size_ == cap_ && !grow(1)) return;
    buf_[size_++] = c;
  }
  void put(const char* p, size_t n) noexcept {
    if (n > cap_ - size_ && !make_room(n)) return;
    if (n != 0) std::memcpy(buf_ + size_, p, n);
    size_ += n;
  }
  void put(std::string_view s) noexcept { put(s.data(), s.size()); }
  /// Room for n more bytes at reserve(n) .. +n; commit(k) keeps k of them.
  /// nullptr after a failure.
  char* reserve(size_t n) noexcept {
    if (n > cap_ - size_ && !make_room(n)) return nullptr;
    return buf_ + size_;
  }
  void commit(size_t k) noexcept { size_ += k; }
  /// Hands the buffer to the destination once it holds a chunk.
  void maybe_flush() noexcept {
    if (size_ >= chunk_) flush();
  }
  /// Hands all buffered text to the destination; returns error().
  status flush() noexcept;
  /// ok, out_of_memory or sink_failed (sticky).
  status error() const noexcept { return error_; }
  /// Text produced so far (flushed or buffered).
  size_t size() const noexcept { return flushed_ + size_; }

 private:
  bool make_room(size_t n) noexcept;
  bool grow(size_t n) noexcept;
  char* buf_ = nullptr;
  size_t size_ = 0;
  size_t cap_ = 0;
  size_t chunk_;
  size_t flushed_ = 0;
  std::string* str_ = nullptr;
  text_sink_fn sink_ = nullptr;
  void* ctx_ = nullptr;
  status error_ = status::ok;
};

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_TEXT_OUTPUT_HPP
