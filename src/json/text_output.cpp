// text_output: a malloc'ed staging buffer in front of a std::string or a sink.
#include "cbor_fast/text_output.hpp"

#include <cstdlib>
#include <new>

namespace cbor_fast {
inline namespace v1 {

text_output::text_output(std::string& s, size_t chunk_size) noexcept
    : chunk_(chunk_size == 0 ? 1 : chunk_size), str_(&s) {}

text_output::text_output(text_sink_fn sink, void* context, size_t chunk_size) noexcept
    : chunk_(chunk_size == 0 ? 1 : chunk_size), sink_(sink), ctx_(context) {
  if (sink == nullptr) error_ = status::invalid_argument;
}

text_output::~text_output() { std::free(buf_); }

status text_output::flush() noexcept {
  if (error_ != status::ok) return error_;
  if (size_ == 0) return status::ok;
  if (str_ != nullptr) {
    try {
      str_->append(buf_, size_);
    } catch (...) {
      error_ = status::out_of_memory;
      return error_;
    }
  } else if (sink_(ctx_, buf_, size_) != 0) {
    error_ = status::sink_failed;
    return error_;
  }
  flushed_ += size_;
  size_ = 0;
  return status::ok;
}

bool text_output::make_room(size_t n) noexcept {
  // A full chunk goes out first, so the buffer stays near the chunk size; only
  // a single request larger than that grows it further.
  if (size_ >= chunk_ && flush() != status::ok) return false;
  if (n <= cap_ - size_) return true;
  return grow(n);
}

bool text_output::grow(size_t n) noexcept {
  if (error_ != status::ok) return false;
  if (size_ >= chunk_) {
    if (flush() != status::ok) return false;
    if (n <= cap_ - size_) return true;
  }
  if (n > SIZE_MAX - size_) {
    error_ = status::out_of_memory;
    return false;
  }
  // Doubling, but not far past the chunk size unless one request needs it.
  size_t want = cap_ < 256 ? 256 : cap_ * 2;
  if (want > chunk_ + 1024) want = chunk_ + 1024;
  if (want < size_ + n) want = size_ + n;
  if (want <= cap_) {
    error_ = status::out_of_memory;
    return false;
  }
  void* p = std::realloc(buf_, want);
  if (p == nullptr) {
    error_ = status::out_of_memory;
    return false;
  }
  buf_ = static_cast<char*>(p);
  cap_ = want;
  return true;
}

}  // namespace v1
}  // namespace cbor_fast
