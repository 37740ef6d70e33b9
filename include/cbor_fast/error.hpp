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
// One enumerator per row of status.def (the one table of codes, with each
// code's meaning): ok = 0, end = 1 (not an error), invalid_argument = 10, ...
#define CBOR_FAST_STATUS(name, code, c_name, message) name = code,
#include "cbor_fast/status.def"
#undef CBOR_FAST_STATUS
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
  size_t offset = 0;       ///< byte offset in the input where the problem was found
  size_t item_offset = 0;  ///< offset of the top-level item containing it (sequences)
  uint32_t depth = 0;      ///< nesting depth at that point
};

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_ERROR_HPP
