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

/// The limits of a decode_options with every 0 replaced by its default and
/// the memory budget computed for an input of `input_size` bytes: the one
/// place where decode(), sequences and the C API's options become limits.
struct resolved_limits {
  uint32_t max_depth;
  uint32_t max_nodes;  ///< at most the hard limit UINT32_MAX - 1
  uint64_t max_string_length;
  uint64_t max_container_items;
  size_t max_memory;  ///< SIZE_MAX: no budget
};
resolved_limits resolve_limits(const decode_options& options, size_t input_size) noexcept;

/// The reader options that check what a document decode checks: the
/// resolved limits and the strict flags of `flags` (decode_flags).
reader_options reader_options_for(const resolved_limits& limits, uint32_t flags,
                                  const allocator* alloc) noexcept;

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
