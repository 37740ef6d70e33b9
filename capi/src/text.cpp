// C API shims: JSON and diagnostic notation (cbor_fast.h, "JSON and
// diagnostic notation"). Each body maps arguments and runs through guard().
#include <cstring>
#include <string>
#include <vector>

#include "cbor_fast.h"
#include "cbor_fast/diag.hpp"
#include "cbor_fast/json.hpp"
#include "handles.hpp"

static_assert(int(CBOR_FAST_ERR_SYNTAX_ERROR) == int(cbor_fast::status::syntax_error),
              "CBOR_FAST_ERR_SYNTAX_ERROR must equal status::syntax_error");

namespace {

using cbor_fast::status;
using cbor_fast::detail::fill_error;
using cbor_fast::detail::guard;
using cbor_fast::detail::to_c;

constexpr uint32_t k_json_out_flags = CBOR_FAST_JSON_KEEP_TAGS;
constexpr uint32_t k_json_in_flags = CBOR_FAST_JSON_REJECT_DUPLICATE_KEYS;
constexpr uint32_t k_diag_out_flags =
    CBOR_FAST_DIAG_FLOAT_WIDTHS | CBOR_FAST_DIAG_INDICATORS | CBOR_FAST_DIAG_PRETTY;

cbor_fast::diag_options diag_opts(uint32_t flags) {
  cbor_fast::diag_options o;
  o.float_width_indicators = (flags & CBOR_FAST_DIAG_FLOAT_WIDTHS) != 0;
  o.encoding_indicators = (flags & CBOR_FAST_DIAG_INDICATORS) != 0;
  o.indent = (flags & CBOR_FAST_DIAG_PRETTY) != 0 ? 2 : 0;
  return o;
}

cbor_fast_status fail(cbor_fast_error* error, status s) {
  fill_error(error, s);
  return to_c(s);
}

/// The reader's error if it has this status, else the status at `offset`.
void report(cbor_fast_error* error, status s, const cbor_fast::error_info& e) {
  if (s == status::ok || s == status::end) {
    fill_error(error, s);
  } else {
    cbor_fast::error_info info = e;
    info.code = s;
    fill_error(error, info);
  }
}

/// Copies text into the caller's buffer, NUL-terminated when it fits.
cbor_fast_status copy_out(const std::string& text, char* buffer, size_t capacity, size_t* length) {
  if (length != nullptr) *length = text.size();
  if (text.size() >= capacity) {
    if (capacity != 0) buffer[0] = '\0';
    return CBOR_FAST_ERR_BUFFER_TOO_SMALL;
  }
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';
  return CBOR_FAST_OK;
}

/// The arguments of cbor_json_from_cbor and cbor_diag_from_cbor (flags
/// within `known`); clears *length first.
bool text_out_args_ok(const void* data, size_t size, uint32_t flags, uint32_t known,
                      const char* buffer, size_t capacity, size_t* length) {
  if (length != nullptr) *length = 0;
  return !(data == nullptr && size != 0) && !(buffer == nullptr && capacity != 0) &&
         (flags & ~known) == 0;
}

/// The end of cbor_json_from_cbor and cbor_diag_from_cbor: the failure with
/// its offset, or the text copied into the caller's buffer.
cbor_fast_status finish_text(status s, const cbor_fast::error_info& e, const std::string& text,
                             char* buffer, size_t capacity, size_t* length,
                             cbor_fast_error* error) {
  if (s != status::ok) {
    report(error, s, e);
    return to_c(s);
  }
  const cbor_fast_status c = copy_out(text, buffer, capacity, length);
  fill_error(error, static_cast<status>(c));
  return c;
}

}  // namespace

extern "C" {

cbor_fast_status cbor_reader_json(cbor_reader* reader, uint32_t flags, cbor_fast_text_sink_fn sink,
                                  void* context, cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (reader == nullptr || sink == nullptr || (flags & ~k_json_out_flags) != 0)
    return fail(error, status::invalid_argument);
  return guard(error, [&] {
    cbor_fast::to_json_options o;
    o.keep_tags = (flags & CBOR_FAST_JSON_KEEP_TAGS) != 0;
    cbor_fast::text_output out(sink, context);
    cbor_fast::error_info e;
    const status s = cbor_fast::json_next(reader->reader, out, o, &e);
    report(error, s, e);
    return to_c(s);
  });
}

cbor_fast_status cbor_reader_diag(cbor_reader* reader, uint32_t flags, cbor_fast_text_sink_fn sink,
                                  void* context, cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (reader == nullptr || sink == nullptr || (flags & ~k_diag_out_flags) != 0)
    return fail(error, status::invalid_argument);
  return guard(error, [&] {
    cbor_fast::text_output out(sink, context);
    const status s = cbor_fast::diag_write(reader->reader, out, diag_opts(flags));
    cbor_fast::error_info e = reader->reader.error();
    if (e.code != s) e = cbor_fast::error_info{s, reader->reader.offset(), 0, 0};
    report(error, s, e);
    return to_c(s);
  });
}

cbor_fast_status cbor_json_from_cbor(const void* data, size_t size, uint32_t flags, char* buffer,
                                     size_t capacity, size_t* length, cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (!text_out_args_ok(data, size, flags, k_json_out_flags, buffer, capacity, length))
    return fail(error, status::invalid_argument);
  return guard(error, [&] {
    cbor_fast::to_json_options o;
    o.keep_tags = (flags & CBOR_FAST_JSON_KEEP_TAGS) != 0;
    std::string text;
    cbor_fast::error_info e;
    const status s = cbor_fast::cbor_to_json(static_cast<const uint8_t*>(data), size, text, o, &e);
    return finish_text(s, e, text, buffer, capacity, length, error);
  });
}

cbor_fast_status cbor_diag_from_cbor(const void* data, size_t size, uint32_t flags, char* buffer,
                                     size_t capacity, size_t* length, cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (!text_out_args_ok(data, size, flags, k_diag_out_flags, buffer, capacity, length))
    return fail(error, status::invalid_argument);
  return guard(error, [&] {
    cbor_fast::reader r(data, size);
    std::string text;
    cbor_fast::text_output out(text);
    status s = cbor_fast::diag_write(r, out, diag_opts(flags));
    cbor_fast::error_info e = r.error();
    if (s == status::end) {
      s = status::truncated;
      e = cbor_fast::error_info{s, 0, 0, 0};
    } else if (s == status::ok && !r.at_end()) {
      s = status::trailing_bytes;
      e = cbor_fast::error_info{s, r.offset(), r.offset(), 0};
    } else if (s != status::ok && e.code != s) {
      e = cbor_fast::error_info{s, r.offset(), 0, 0};
    }
    return finish_text(s, e, text, buffer, capacity, length, error);
  });
}

cbor_fast_status cbor_json_to_cbor(const char* json, size_t size, uint32_t flags,
                                   cbor_writer* writer, cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (writer == nullptr || (json == nullptr && size != 0) || (flags & ~k_json_in_flags) != 0)
    return fail(error, status::invalid_argument);
  return guard(error, [&] {
    cbor_fast::from_json_options o;
    o.reject_duplicate_keys = (flags & CBOR_FAST_JSON_REJECT_DUPLICATE_KEYS) != 0;
    cbor_fast::error_info e;
    const status s = cbor_fast::json_to_cbor(std::string_view(json == nullptr ? "" : json, size),
                                             writer->writer, o, &e);
    report(error, s, e);
    return to_c(s);
  });
}

cbor_fast_status cbor_diag_to_cbor(const char* text, size_t size, uint32_t flags, uint8_t* buffer,
                                   size_t capacity, size_t* length, cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (length != nullptr) *length = 0;
  if ((text == nullptr && size != 0) || (buffer == nullptr && capacity != 0) ||
      (flags & ~uint32_t(CBOR_FAST_DIAG_SEQUENCE)) != 0)
    return fail(error, status::invalid_argument);
  return guard(error, [&] {
    cbor_fast::diag_parse_options o;
    o.sequence = (flags & CBOR_FAST_DIAG_SEQUENCE) != 0;
    std::vector<uint8_t> out;
    cbor_fast::error_info e;
    const status s =
        cbor_fast::diag_parse(std::string_view(text == nullptr ? "" : text, size), out, o, &e);
    if (s != status::ok) {
      report(error, s, e);
      return to_c(s);
    }
    if (length != nullptr) *length = out.size();
    if (out.size() > capacity) return fail(error, status::buffer_too_small);
    if (!out.empty()) std::memcpy(buffer, out.data(), out.size());
    fill_error(error, status::ok);
    return CBOR_FAST_OK;
  });
}

}  // extern "C"
