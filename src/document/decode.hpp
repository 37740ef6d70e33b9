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

/// decode(reader&) with the document limits a sequence applies to each item
/// (the reader's options carry the rest).
/// reader_budget (optional): the budget the reader allocates through, armed
/// with the document's limit; the document's allocations count against it too.
/// decode_skip_self_described: moves d's root inside top-level tags 55799.
void skip_marker(document& d) noexcept;

status decode_from_reader(reader& r, document& out, uint32_t flags, error_info* error,
                          uint32_t max_nodes, memory_budget* reader_budget) noexcept;

/// decode() with an explicit path.
status decode_buffer(const void* data, size_t size, document& out, const decode_options& options,
                     error_info* error, decode_path path) noexcept;

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_SRC_DOCUMENT_DECODE_HPP
