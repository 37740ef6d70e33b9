// cbor-fast: a CBOR sequence read from a file or pipe through a sliding window.
#ifndef CBOR_FAST_CLI_STREAM_HPP
#define CBOR_FAST_CLI_STREAM_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cbor_fast/error.hpp"
#include "cbor_fast/reader.hpp"

namespace cbor_fast_cli {

/// Hands out the top-level items of a CBOR sequence read from `f` one at a
/// time, each once all of its bytes are in memory and a reader with the given
/// options has passed over it (so printing it cannot fail on the input).
/// Memory: the largest item plus one read block; the input before the current
/// item is dropped. Offsets are those of the whole input. (A resumable reader
/// would bound even a single huge item; this needs none.)
class item_stream {
 public:
  item_stream(std::FILE* f, const cbor_fast::reader_options& options,
              size_t block = size_t{1} << 20);

  /// ok: [*data, *data + *size) is the next item, at input offset *offset.
  /// end: the input is exhausted. An error: error() tells it, offsets
  /// absolute; io_error() is set (errno kept) when reading failed.
  cbor_fast::status next(const uint8_t** data, size_t* size, size_t* offset);
  const cbor_fast::error_info& error() const { return error_; }
  bool io_error() const { return io_error_; }

 private:
  bool fill();
  std::FILE* f_;
  cbor_fast::reader_options options_;
  size_t block_;
  std::vector<uint8_t> buf_;
  size_t start_ = 0;  ///< first byte of the next item in buf_
  size_t end_ = 0;    ///< bytes filled
  size_t base_ = 0;   ///< input offset of buf_[0]
  uint64_t items_used_ = 0;
  bool eof_ = false;
  bool io_error_ = false;
  cbor_fast::error_info error_;
  cbor_fast::reader check_;
};

}  // namespace cbor_fast_cli

#endif  // CBOR_FAST_CLI_STREAM_HPP
