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
size_t utf8_validate(const uint8_t* data, size_t size) noexcept;

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_INTERNAL_UTF8_HPP
