// item_stream: see stream.hpp.
#include "stream.hpp"

#include <cstring>

namespace cbor_fast_cli {

using cbor_fast::status;

item_stream::item_stream(std::FILE* f, const cbor_fast::reader_options& options, size_t block)
    : f_(f),
      options_(options),
      block_(block),
      check_(static_cast<const uint8_t*>(nullptr), 0, options) {}

bool item_stream::fill() {
  if (start_ != 0) {  // drop what is done, keep the unread tail
    std::memmove(buf_.data(), buf_.data() + start_, end_ - start_);
    base_ += start_;
    end_ -= start_;
    start_ = 0;
  }
  if (buf_.size() - end_ < block_ / 2) buf_.resize(buf_.size() < block_ ? block_ : buf_.size() * 2);
  const size_t n = std::fread(buf_.data() + end_, 1, buf_.size() - end_, f_);
  end_ += n;
  if (n == 0) {
    eof_ = true;
    if (std::ferror(f_) != 0) {
      io_error_ = true;
      return false;
    }
  }
  return true;
}

status item_stream::next(const uint8_t** data, size_t* size, size_t* offset) {
  for (;;) {
    // The item budget is over the whole input, not per window.
    cbor_fast::reader_options o = options_;
    o.max_items = options_.max_items - items_used_;
    check_.reset(buf_.data() + start_, end_ - start_);
    check_.set_options(o);
    const status s = check_.skip();
    if (s == status::ok) {
      *data = buf_.data() + start_;
      *size = check_.offset();
      *offset = base_ + start_;
      items_used_ += check_.items();
      start_ += check_.offset();
      return status::ok;
    }
    // More input may complete the item (or start the next one).
    if ((s == status::end || s == status::truncated) && !eof_) {
      if (!fill()) {
        error_ = cbor_fast::error_info{status::internal_error, base_ + end_, 0, 0};
        return status::internal_error;
      }
      continue;
    }
    if (s == status::end) return s;
    error_ = check_.error();
    error_.offset += base_ + start_;
    error_.item_offset += base_ + start_;
    return s;
  }
}

}  // namespace cbor_fast_cli
