// libcbor_fast: umbrella header for the C++ API.
#ifndef CBOR_FAST_CBOR_FAST_HPP
#define CBOR_FAST_CBOR_FAST_HPP

#include "cbor_fast/allocator.hpp"
#include "cbor_fast/diag.hpp"
#include "cbor_fast/document.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"
#include "cbor_fast/mapping.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/stream.hpp"
#include "cbor_fast/typed_array.hpp"
#include "cbor_fast/tags.hpp"
#include "cbor_fast/version.hpp"
#include "cbor_fast/writer.hpp"

#endif  // CBOR_FAST_CBOR_FAST_HPP
