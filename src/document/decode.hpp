// Decoder entry point with a choice of path (internal; the tests compare the paths).
#ifndef CBOR_FAST_SRC_DOCUMENT_DECODE_HPP
#define CBOR_FAST_SRC_DOCUMENT_DECODE_HPP

#include <cstddef>

#include "cbor_fast/document.hpp"

namespace cbor_fast {
namespace detail {

/// Which decoder decode() uses.
enum class decode_path {
  automatic,    ///< the fused decoder, and the reader-driven one when it declines
  reader_only,  ///< always the reader-driven decoder
  fast_only,    ///< only the fused decoder: invalid_state where it would decline
};

/// decode() with an explicit path.
status decode_buffer(const void* data, size_t size, document& out, const decode_options& options,
                     error_info* error, decode_path path) noexcept;

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_SRC_DOCUMENT_DECODE_HPP
