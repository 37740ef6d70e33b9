// Status names and messages.
#include "cbor_fast/error.hpp"

#include <ostream>

namespace cbor_fast {
inline namespace v1 {

namespace {
struct status_text {
  status code;
  const char* name;
  const char* message;
};

constexpr status_text k_texts[] = {
    {status::ok, "ok", "success"},
    {status::end, "end", "end of input"},
    {status::invalid_argument, "invalid_argument", "invalid argument"},
    {status::invalid_state, "invalid_state", "operation not valid in the current state"},
    {status::buffer_too_small, "buffer_too_small", "output buffer too small"},
    {status::writer_unclosed, "writer_unclosed", "container or tag left open"},
    {status::writer_count_mismatch, "writer_count_mismatch",
     "item count differs from the declared count"},
    {status::writer_no_container, "writer_no_container", "end without an open container"},
    {status::writer_bad_chunk, "writer_bad_chunk",
     "indefinite-length string chunk of the wrong type"},
    {status::writer_odd_map, "writer_odd_map", "map ended after a key without its value"},
    {status::sink_failed, "sink_failed", "output sink reported a failure"},
    {status::type_mismatch, "type_mismatch", "node is not of the requested type"},
    {status::out_of_range, "out_of_range", "value or index out of range"},
    {status::truncated, "truncated", "unexpected end of input"},
    {status::reserved_additional_info, "reserved_additional_info",
     "reserved additional information value (28-30)"},
    {status::indefinite_not_allowed, "indefinite_not_allowed",
     "indefinite length not allowed for this major type"},
    {status::bad_simple_value, "bad_simple_value", "two-byte simple value below 32"},
    {status::chunk_type_mismatch, "chunk_type_mismatch",
     "indefinite-length string chunk of the wrong major type"},
    {status::nested_indefinite_chunk, "nested_indefinite_chunk",
     "indefinite-length chunk inside an indefinite-length string"},
    {status::unexpected_break, "unexpected_break", "break outside an indefinite-length item"},
    {status::map_missing_value, "map_missing_value", "map key without a value"},
    {status::invalid_utf8, "invalid_utf8", "invalid UTF-8 in text string"},
    {status::trailing_bytes, "trailing_bytes", "unexpected bytes after the data item"},
    {status::non_preferred_encoding, "non_preferred_encoding",
     "head or float not in its shortest form (deterministic encoding)"},
    {status::indefinite_length, "indefinite_length",
     "indefinite-length item (deterministic encoding)"},
    {status::unsorted_map_keys, "unsorted_map_keys",
     "map keys not in bytewise lexicographic order (deterministic encoding)"},
    {status::duplicate_key, "duplicate_key", "duplicate map key"},
    {status::syntax_error, "syntax_error", "syntax error in JSON or diagnostic notation text"},
    {status::depth_exceeded, "depth_exceeded", "maximum nesting depth exceeded"},
    {status::out_of_memory, "out_of_memory", "out of memory"},
    {status::too_many_items, "too_many_items", "too many data items"},
    {status::container_too_large, "container_too_large", "array or map has too many entries"},
    {status::string_too_long, "string_too_long", "string longer than the limit"},
    {status::memory_budget_exceeded, "memory_budget_exceeded",
     "memory budget of the decoder exceeded"},
    {status::internal_error, "internal_error", "internal error"},
};

const status_text* find(status s) noexcept {
  for (const auto& t : k_texts)
    if (t.code == s) return &t;
  return nullptr;
}
}  // namespace

const char* status_message(status s) noexcept {
  const status_text* t = find(s);
  return t ? t->message : "unknown status";
}

const char* status_name(status s) noexcept {
  const status_text* t = find(s);
  return t ? t->name : "unknown";
}

std::ostream& operator<<(std::ostream& os, status s) { return os << status_name(s); }

}  // namespace v1
}  // namespace cbor_fast
