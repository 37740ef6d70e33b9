// cbor-fast canonical: re-encoding one data item deterministically.
//
// The tool's own small encoder, until the library's canonical writer
// facility (issue 16 part 2) is merged; then `canonical` calls that instead.
#ifndef CBOR_FAST_CLI_CANONICAL_HPP
#define CBOR_FAST_CLI_CANONICAL_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cbor_fast/error.hpp"
#include "cbor_fast/reader.hpp"

namespace cbor_fast_cli {

/// How map keys are ordered.
enum class key_order {
  bytewise,      ///< RFC 8949 4.2.1 core deterministic: bytewise lexicographic encodings
  length_first,  ///< RFC 8949 4.2.3 (RFC 7049 canonical): shorter encoding first, then bytewise
  ctap2,         ///< CTAP2 canonical: major type, then shorter encoding, then bytewise
};

/// Reads the next complete item from `r` and appends its deterministic
/// encoding to *out: preferred serialization (shortest heads, the shortest
/// float that keeps the value, NaN payloads kept), definite lengths
/// (indefinite strings joined), bignums that fit 64 bits as integers and
/// others without leading zero bytes, map keys sorted by `order`. Keys that
/// are equal once encoded give duplicate_key (*bad_offset: the map's head).
/// Never recurses: one buffer per open container. Returns ok, end, the
/// reader's error or duplicate_key.
cbor_fast::status canonical_next(cbor_fast::reader& r, key_order order, std::vector<uint8_t>& out,
                                 size_t* bad_offset);

}  // namespace cbor_fast_cli

#endif  // CBOR_FAST_CLI_CANONICAL_HPP
