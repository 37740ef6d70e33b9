// UTF-8 validation (RFC 3629), internal.
#ifndef CBOR_FAST_INTERNAL_UTF8_HPP
#define CBOR_FAST_INTERNAL_UTF8_HPP

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/// The implementations behind utf8_validate, which picks the best one the
/// build and the CPU support. Tests run each of them on the same cases.
enum class utf8_path {
  portable,  ///< scalar code, 8 bytes at a time over ASCII
  sse2,      ///< 16-byte blocks (x86-64 baseline)
  avx2,      ///< 32-byte blocks with nibble lookups (x86-64, chosen at run time)
  best,      ///< what utf8_validate uses
};

/// Whether utf8_validate_on can run path here.
bool utf8_path_supported(utf8_path path) noexcept;

/// utf8_validate forced onto path (the same contract); an unsupported path
/// runs the portable code.
size_t utf8_validate_on(utf8_path path, const uint8_t* data, size_t size) noexcept;

/// The inline shortcut of utf8_is_valid alone, for callers that need the
/// error offset: true when [data, data + size) is all ASCII as seen by up to
/// two 16-byte loads; false means "ask utf8_validate", not "invalid". May read
/// up to readable_end (>= data + size, e.g. the end of the input buffer).
/// Most strings in documents are short ASCII keys: with 16 (32) readable
/// bytes, those up to 16 (32) bytes long cost one (two) loads and a mask test,
/// inline, with no call and no spilled registers in the caller.
inline bool utf8_quick_ascii(const uint8_t* data, size_t size,
                             const uint8_t* readable_end) noexcept {
#if defined(__SSE2__)
  const size_t readable = size_t(readable_end - data);
  if (readable >= 16) {
    const unsigned lo =
        unsigned(_mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data))));
    // Bit 16 stops the count: the index of the first byte >= 0x80, or 16,
    // which is below size when the string goes on past the loaded bytes.
    const size_t first_high = size_t(__builtin_ctzll(lo | 0x10000u));
    if (first_high >= size) return true;
    if (first_high == 16 && size <= 32 && readable >= 32) {
      const unsigned hi =
          unsigned(_mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16))));
      return size_t(__builtin_ctzll(hi | 0x10000u)) + 16 >= size;
    }
  }
#else
  (void)data, (void)size, (void)readable_end;
#endif
  return false;
}

/// True when [data, data + size) is valid UTF-8, for hot loops that may read
/// up to readable_end (see utf8_quick_ascii); what the shortcut does not
/// settle goes to utf8_validate.
inline bool utf8_is_valid(const uint8_t* data, size_t size, const uint8_t* readable_end) noexcept {
  return utf8_quick_ascii(data, size, readable_end) || utf8_validate(data, size) == size;
}

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_INTERNAL_UTF8_HPP
