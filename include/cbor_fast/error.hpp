// libcbor_fast: status codes shared by the reader, the writer and the C API.
#ifndef CBOR_FAST_ERROR_HPP
#define CBOR_FAST_ERROR_HPP

#include <cstddef>
#include <cstdint>
#include <iosfwd>

namespace cbor_fast {
inline namespace v1 {

/// Result of every fallible operation. The numeric values are part of the C ABI
/// (they equal the CBOR_FAST_* codes of cbor_fast.h) and are never renumbered.
/// Blocks: usage 1-99, not well-formed 100-199, invalid / strict 200-299,
/// limits and memory 300-399.
enum class status : uint16_t {
  ok = 0,
  /// End of input at the top level: the sequence is complete. Not an error.
  end = 1,

  // ---- usage (1-99) ----
  invalid_argument = 10,     ///< a NULL handle or pointer, or an option out of range
  invalid_state = 11,        ///< the call does not fit what the reader/writer is doing
  buffer_too_small = 12,     ///< fixed writer buffer full; size() tells the bytes needed
  writer_unclosed = 13,      ///< finish() with a container or tag still open
  writer_count_mismatch = 14,///< more or fewer items than a definite header promised
  writer_no_container = 15,  ///< end() with no open container
  writer_bad_chunk = 16,     ///< item inside an indefinite string is not a chunk of its type
  writer_odd_map = 17,       ///< end() of a map after a key without its value
  sink_failed = 18,          ///< the sink callback reported a failure
  type_mismatch = 19,        ///< a document getter called on a node of another type
  out_of_range = 20,         ///< the value does not fit the requested type, or index past the end

  // ---- not well-formed (100-199), RFC 8949 Appendix F ----
  truncated = 100,               ///< input ends inside a head, a string or an open container
  reserved_additional_info = 101,///< additional information 28, 29 or 30
  indefinite_not_allowed = 102,  ///< additional information 31 on major type 0, 1 or 6
  bad_simple_value = 103,        ///< two-byte simple value below 32
  chunk_type_mismatch = 104,     ///< indefinite string chunk of another major type
  nested_indefinite_chunk = 105, ///< indefinite-length chunk inside an indefinite string
  unexpected_break = 106,        ///< break outside an indefinite-length container
  map_missing_value = 107,       ///< break where an indefinite map expects a value

  // ---- invalid / strict checks (200-299) ----
  invalid_utf8 = 200,            ///< text string is not valid UTF-8 (strict mode)
  trailing_bytes = 201,          ///< bytes left after the item(s) the caller asked for
  non_preferred_encoding = 202,  ///< a head or float longer than needed (deterministic check)
  indefinite_length = 203,       ///< an indefinite-length item (deterministic check)
  unsorted_map_keys = 204,       ///< a map key not after the previous one in bytewise order (deterministic)
  duplicate_key = 205,           ///< a map key equal to an earlier key of the same map
  /// Text input (JSON, diagnostic notation) that does not follow its grammar. Since 0.4.
  syntax_error = 220,

  // ---- limits and memory (300-399) ----
  depth_exceeded = 300,          ///< nesting deeper than the configured maximum
  out_of_memory = 301,           ///< an allocation failed
  too_many_items = 302,          ///< more data items than max_items (or a document can hold)
  container_too_large = 303,     ///< an array or map with more entries than max_container_items
  string_too_long = 304,         ///< a string or chunk (or joined string) longer than max_string_length
  memory_budget_exceeded = 305,  ///< decoding would hold more memory than max_memory allows
  internal_error = 399,          ///< a bug: an unexpected exception was caught
};

/// True for every code that is a failure (everything except ok and end).
constexpr bool is_error(status s) noexcept { return static_cast<uint16_t>(s) >= 10; }
/// True for the not-well-formed block (100-199).
constexpr bool is_malformed(status s) noexcept {
  return static_cast<uint16_t>(s) >= 100 && static_cast<uint16_t>(s) < 200;
}

/// A static, human-readable description of a status ("unexpected break").
const char* status_message(status s) noexcept;
/// The enumerator's name ("unexpected_break").
const char* status_name(status s) noexcept;

/// Writes status_name(s); lets test frameworks and logs print statuses readably.
std::ostream& operator<<(std::ostream& os, status s);

/// Where and why reading failed.
struct error_info {
  status code = status::ok;
  size_t offset = 0;  ///< byte offset in the input where the problem was found
  size_t item_offset = 0;  ///< offset of the top-level item containing it (sequences)
  uint32_t depth = 0; ///< nesting depth at that point
};

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_ERROR_HPP
