// Internal to the C API shims: the document handles, shared by document.cpp
// and the shims of the 0.4 additions (canonical.cpp, tags.cpp). Never installed.
#ifndef CBOR_FAST_CAPI_DOCUMENT_HANDLES_HPP
#define CBOR_FAST_CAPI_DOCUMENT_HANDLES_HPP

#include "cbor_fast.h"
#include "cbor_fast/document.hpp"

struct cbor_doc {
  cbor_fast::allocator alloc;
  cbor_fast::document doc;
  explicit cbor_doc(const cbor_fast::allocator& a) noexcept : alloc(a), doc(&alloc) {}
};

struct cbor_mdoc {
  cbor_fast::allocator alloc;
  cbor_fast::mutable_document doc;
  explicit cbor_mdoc(const cbor_fast::allocator& a) noexcept : alloc(a), doc(&alloc) {}
};

#endif  // CBOR_FAST_CAPI_DOCUMENT_HANDLES_HPP
