// C API: tags as values (cbor_time_*, cbor_node_get_time and friends, the
// cbor_writer_* tag writers and the embedded-CBOR wrap). Thin shims over
// include/cbor_fast/tags.hpp; nothing here allocates except through the writer.
#include <cstdint>
#include <new>
#include <string_view>

#include "cbor_fast.h"
#include "cbor_fast/tags.hpp"
#include "document_handles.hpp"
#include "handles.hpp"

using cbor_fast::node;
using cbor_fast::status;
using cbor_fast::time_value;
using cbor_fast::detail::fill_error;
using cbor_fast::detail::to_c;

namespace {

inline node N(const cbor_node* n) noexcept {
  return node(reinterpret_cast<const cbor_fast::detail::doc_node*>(n));
}

/// struct_size 0 (this layout) or at least this layout, at most 64 bytes
/// more (the header's rule for every struct).
inline bool time_struct_ok(const cbor_fast_time* t) noexcept {
  return t != nullptr && cbor_fast::detail::struct_size_in_bounds(
                             t->struct_size, sizeof(cbor_fast_time), sizeof(cbor_fast_time));
}
/// The same for a time read as input: a longer struct's bytes past this
/// layout's fields are 0 (fields of a newer version this one cannot honour).
inline bool time_in_ok(const cbor_fast_time* t) noexcept {
  return time_struct_ok(t) &&
         cbor_fast::detail::input_tail_zero(t, sizeof(cbor_fast_time), t->struct_size);
}
inline time_value from_c(const cbor_fast_time& t) noexcept {
  return time_value{t.seconds, t.nanoseconds, t.offset_minutes};
}
inline void to_c_time(const time_value& v, cbor_fast_time* out) noexcept {
  out->seconds = v.seconds;
  out->nanoseconds = v.nanoseconds;
  out->offset_minutes = v.offset_minutes;
}

/// Runs a writer call with the shim guard (the writer itself never throws,
/// but the guard is the C boundary's promise).
template <class F>
cbor_fast_status guarded(cbor_writer* w, F&& f) noexcept {
  if (w == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  try {
    return to_c(f(w->writer));
  } catch (const std::bad_alloc&) {
    return CBOR_FAST_ERR_OUT_OF_MEMORY;
  } catch (...) {
    return CBOR_FAST_ERR_INTERNAL;
  }
}

}  // namespace

static_assert(CBOR_FAST_DECODE_SKIP_SELF_DESCRIBED == cbor_fast::decode_skip_self_described,
              "decode flag");

cbor_fast_status cbor_time_parse(const char* text, size_t size, cbor_fast_time* out,
                                 size_t* error_pos) {
  if ((text == nullptr && size != 0) || !time_struct_ok(out)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  time_value v;
  const status s =
      cbor_fast::parse_rfc3339(std::string_view(text != nullptr ? text : "", size), v, error_pos);
  if (s == status::ok) to_c_time(v, out);
  return to_c(s);
}

size_t cbor_time_format(const cbor_fast_time* t, int fraction_digits, char* out, size_t capacity) {
  if (!time_in_ok(t) || out == nullptr) return 0;
  char buf[cbor_fast::k_rfc3339_max];
  const size_t n = cbor_fast::format_rfc3339(from_c(*t), buf, fraction_digits);
  if (n == 0 || n > capacity) return 0;
  for (size_t i = 0; i < n; ++i) out[i] = buf[i];
  return n;
}

cbor_fast_status cbor_node_get_time(const cbor_node* n, cbor_fast_time* out,
                                    cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (n == nullptr || !time_struct_ok(out)) {
    fill_error(error, status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  time_value v;
  cbor_fast::error_info info;
  const status s = cbor_fast::get_time(N(n), v, &info);
  if (s == status::ok) {
    to_c_time(v, out);
    fill_error(error, status::ok);
  } else {
    fill_error(error, info);
  }
  return to_c(s);
}

cbor_fast_status cbor_node_get_date(const cbor_node* n, int64_t* days, cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (n == nullptr || days == nullptr) {
    fill_error(error, status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  cbor_fast::error_info info;
  const status s = cbor_fast::get_date(N(n), *days, &info);
  fill_error(error, s == status::ok ? cbor_fast::error_info{} : info);
  return to_c(s);
}

cbor_fast_status cbor_node_get_decimal(const cbor_node* n, uint64_t* tag, int64_t* exponent,
                                       uint64_t* raw, const uint8_t** magnitude, size_t* size,
                                       int* negative, cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (n == nullptr || tag == nullptr || exponent == nullptr || raw == nullptr ||
      magnitude == nullptr || size == nullptr || negative == nullptr) {
    fill_error(error, status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  cbor_fast::decimal_value v;
  cbor_fast::error_info info;
  const status s = cbor_fast::get_decimal(N(n), v, &info);
  if (s == status::ok) {
    *tag = v.tag;
    *exponent = v.exponent;
    *raw = v.raw;
    *magnitude = v.magnitude.data;
    *size = v.magnitude.size;
    *negative = v.negative ? 1 : 0;
  }
  fill_error(error, s == status::ok ? cbor_fast::error_info{} : info);
  return to_c(s);
}

cbor_fast_status cbor_node_get_uuid(const cbor_node* n, const uint8_t** bytes,
                                    cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (n == nullptr || bytes == nullptr) {
    fill_error(error, status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  cbor_fast::error_info info;
  const uint8_t* p = nullptr;
  const status s = cbor_fast::get_uuid(N(n), p, &info);
  if (s == status::ok) *bytes = p;
  fill_error(error, s == status::ok ? cbor_fast::error_info{} : info);
  return to_c(s);
}

cbor_fast_status cbor_node_get_embedded(const cbor_node* n, const uint8_t** data, size_t* size) {
  if (n == nullptr || data == nullptr || size == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  cbor_fast::byte_view v;
  const status s = cbor_fast::get_embedded(N(n), v);
  if (s == status::ok) {
    *data = v.data;
    *size = v.size;
  }
  return to_c(s);
}

const cbor_node* cbor_node_skip_self_described(const cbor_node* n) {
  return reinterpret_cast<const cbor_node*>(cbor_fast::skip_self_described(N(n)).raw());
}

cbor_fast_status cbor_writer_time_string(cbor_writer* w, const cbor_fast_time* t,
                                         int fraction_digits) {
  if (!time_in_ok(t)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guarded(w, [&](cbor_fast::writer& cw) {
    return cbor_fast::write_time_string(cw, from_c(*t), fraction_digits);
  });
}

cbor_fast_status cbor_writer_time_epoch(cbor_writer* w, const cbor_fast_time* t) {
  if (!time_in_ok(t)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guarded(
      w, [&](cbor_fast::writer& cw) { return cbor_fast::write_time_epoch(cw, from_c(*t)); });
}

cbor_fast_status cbor_writer_epoch_days(cbor_writer* w, int64_t days) {
  return guarded(w, [&](cbor_fast::writer& cw) { return cbor_fast::write_epoch_days(cw, days); });
}

cbor_fast_status cbor_writer_full_date(cbor_writer* w, int64_t days) {
  return guarded(w, [&](cbor_fast::writer& cw) { return cbor_fast::write_full_date(cw, days); });
}

cbor_fast_status cbor_writer_decimal(cbor_writer* w, uint64_t tag, int64_t exponent,
                                     int64_t mantissa) {
  return guarded(w, [&](cbor_fast::writer& cw) {
    return cbor_fast::write_decimal(cw, tag, exponent, mantissa);
  });
}

cbor_fast_status cbor_writer_decimal_bignum(cbor_writer* w, uint64_t tag, int64_t exponent,
                                            const uint8_t* magnitude, size_t size, int negative) {
  return guarded(w, [&](cbor_fast::writer& cw) {
    return cbor_fast::write_decimal(cw, tag, exponent, magnitude, size, negative != 0);
  });
}

cbor_fast_status cbor_writer_uuid(cbor_writer* w, const uint8_t* uuid) {
  return guarded(w, [&](cbor_fast::writer& cw) { return cbor_fast::write_uuid(cw, uuid); });
}

cbor_fast_status cbor_writer_self_described(cbor_writer* w) {
  return guarded(w, [](cbor_fast::writer& cw) { return cbor_fast::write_self_described(cw); });
}

cbor_fast_status cbor_writer_begin_embedded(cbor_writer* w, int with_tag) {
  return guarded(w, [&](cbor_fast::writer& cw) { return cw.begin_embedded(with_tag != 0); });
}

cbor_fast_status cbor_writer_end_embedded(cbor_writer* w) {
  return guarded(w, [](cbor_fast::writer& cw) { return cw.end_embedded(); });
}
