// C API: canonical encoding (cbor_canonicalize, cbor_mdoc_encode_flags). The
// CBOR_FAST_ENCODE_* canonical flags of cbor_encode are handled by the C++
// encode() that cbor_encode calls.
#include <new>

#include "cbor_fast.h"
#include "cbor_fast/document.hpp"
#include "document_handles.hpp"
#include "handles.hpp"

using cbor_fast::status;
using cbor_fast::detail::fill_error;
using cbor_fast::detail::to_c;

static_assert(CBOR_FAST_ENCODE_CANONICAL == cbor_fast::encode_canonical &&
                  CBOR_FAST_ENCODE_LENGTH_FIRST == cbor_fast::encode_length_first &&
                  CBOR_FAST_ENCODE_CTAP2 == cbor_fast::encode_ctap2,
              "canonical encode flags must agree");

cbor_fast_status cbor_canonicalize(const void* data, size_t size, uint32_t encode_flags,
                                   uint32_t decode_flags, const cbor_fast_decode_options* options,
                                   cbor_writer* writer, cbor_fast_error* error) {
  if (!cbor_fast::detail::error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  constexpr uint32_t canonical =
      CBOR_FAST_ENCODE_CANONICAL | CBOR_FAST_ENCODE_LENGTH_FIRST | CBOR_FAST_ENCODE_CTAP2;
  const uint32_t mode = encode_flags & canonical;
  if (writer == nullptr || mode == 0 || (mode & (mode - 1)) != 0 ||
      (encode_flags & ~(canonical | CBOR_FAST_ENCODE_PREFERRED)) != 0 ||
      (decode_flags & CBOR_FAST_DECODE_COPY_STRINGS) != 0) {
    fill_error(error, status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  cbor_doc* doc = nullptr;
  // The C decoder reads the options (struct_size, limits, allocator) as cbor_decode does.
  const cbor_fast_status d = cbor_decode(data, size, decode_flags, options, &doc, error);
  if (d != CBOR_FAST_OK) return d;
  try {
    cbor_fast::error_info info;
    // The document's overload: the sort's scratch from the caller's allocator.
    const status s = cbor_fast::encode(doc->doc, writer->writer, encode_flags, &info);
    cbor_doc_free(doc);
    if (s == status::ok) return CBOR_FAST_OK;
    fill_error(error, info.code == s ? info : cbor_fast::error_info{s, 0, 0, 0});
    return to_c(s);
  } catch (const std::bad_alloc&) {
    cbor_doc_free(doc);
    fill_error(error, status::out_of_memory);
    return CBOR_FAST_ERR_OUT_OF_MEMORY;
  } catch (...) {
    cbor_doc_free(doc);
    fill_error(error, status::internal_error);
    return CBOR_FAST_ERR_INTERNAL;
  }
}

cbor_fast_status cbor_mdoc_encode_flags(const cbor_mdoc* doc, uint32_t flags, cbor_writer* writer) {
  if (doc == nullptr || writer == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  try {
    return to_c(cbor_fast::encode(doc->doc, writer->writer, flags));
  } catch (const std::bad_alloc&) {
    return CBOR_FAST_ERR_OUT_OF_MEMORY;
  } catch (...) {
    return CBOR_FAST_ERR_INTERNAL;
  }
}
