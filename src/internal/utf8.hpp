// UTF-8 validation (RFC 3629), internal.
#ifndef CBOR_FAST_INTERNAL_UTF8_HPP
#define CBOR_FAST_INTERNAL_UTF8_HPP

#include <cstddef>
#include <cstdint>

namespace cbor_fast {
namespace detail {

/// Returns size when [data, data + size) is valid UTF-8 (no overlong forms, no
/// surrogates U+D800..U+DFFF, nothing above U+10FFFF, no truncated sequence);
/// otherwise the offset of the first byte of the first invalid sequence.
///
/// Precisely: the data is read left to right as a series of sequences, each an
/// ASCII byte 00..7F or a lead byte C2..F4 followed by the continuation bytes
/// RFC 3629 section 4 allows for it (E0 needs A0..BF next, ED 80..9F, F0 90..BF,
/// F4 80..8F). The result is the offset where the first sequence that does not
/// fit starts: a stray continuation byte 80..BF, a byte C0, C1 or F5..FF, or a
/// lead byte whose following bytes are wrong or cut off by the end of the data.
/// It is always the lead byte's offset, never that of the bad byte after it:
/// "a\xE2\x28" and "a\xE2\x82" both give 1. data may be null when size is 0.
/// Never reads outside [data, data + size).
size_t utf8_validate(const uint8_t* data, size_t size) noexcept;

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_INTERNAL_UTF8_HPP
