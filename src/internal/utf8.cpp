// UTF-8 validation (RFC 3629), internal.
//
// Shape, cheapest case first:
// - all-ASCII check without loops for sizes up to 64 (overlapping 4-byte or
//   16-byte loads), since most strings in documents are short ASCII keys/values;
// - otherwise skip ASCII 16/64 bytes at a time (SSE2) or 8 at a time (portable);
// - non-ASCII text with >= 16 bytes left is checked 16 bytes per step by
//   block_errors (SSE2), which only answers "any error here?";
// - the scalar per-sequence checker handles short tails, the portable build, and
//   re-runs from the last sequence start when a block fails, so every error
//   offset comes from one simple piece of code.
// Every load stays inside [data, data + size).
#include "internal/utf8.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cbor_fast {
namespace detail {
namespace {

inline uint32_t load_u32(const uint8_t* p) noexcept {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
#if !defined(__SSE2__)
inline uint64_t load_u64(const uint8_t* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
#endif

/// True when all size bytes are ASCII, for 1 <= size <= 16. Four overlapping
/// 4-byte loads cover any size from 4 to 16 (offsets 0, 4 or 0, size - 8 or
/// size - 4, size - 4), so the common sizes share one branch-free path.
inline bool short_is_ascii(const uint8_t* data, size_t size) noexcept {
  if (size >= 4) {
    const size_t mid = (size >> 3) << 2;  // 0 for 4..7, 4 for 8..15, 8 for 16
    const uint32_t all = load_u32(data) | load_u32(data + mid) | load_u32(data + size - 4) |
                         load_u32(data + size - 4 - mid);
    return (all & 0x80808080u) == 0;
  }
  return ((data[0] | data[size >> 1] | data[size - 1]) & 0x80) == 0;
}

#if defined(__SSE2__)
inline __m128i load16(const uint8_t* p) noexcept {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
inline unsigned high_mask16(const uint8_t* p) noexcept {
  return unsigned(_mm_movemask_epi8(load16(p)));
}
#endif

/// Offset of the first byte >= 0x80 in [i, size), or size.
inline size_t skip_ascii(const uint8_t* data, size_t i, size_t size) noexcept {
#if defined(__SSE2__)
  if (size - i >= 16) {
    // One block first: after a multi-byte sequence the next non-ASCII byte is
    // usually close, so don't start with the wide loop.
    unsigned mask = high_mask16(data + i);
    if (mask != 0) return i + unsigned(__builtin_ctz(mask));
    i += 16;
    while (size - i >= 64) {
      const uint8_t* p = data + i;
      const __m128i any = _mm_or_si128(_mm_or_si128(load16(p), load16(p + 16)),
                                       _mm_or_si128(load16(p + 32), load16(p + 48)));
      if (_mm_movemask_epi8(any) != 0) break;
      i += 64;
    }
    while (size - i >= 16) {
      mask = high_mask16(data + i);
      if (mask != 0) return i + unsigned(__builtin_ctz(mask));
      i += 16;
    }
    if (i == size) return size;
    // Tail of 1..15 bytes: re-read the last 16 bytes of the buffer and drop
    // the bits of bytes before i (they were already scanned).
    mask = high_mask16(data + size - 16) >> (16 - (size - i));
    return mask != 0 ? i + unsigned(__builtin_ctz(mask)) : size;
  }
#else
  while (size - i >= 8 && (load_u64(data + i) & 0x8080808080808080u) == 0) i += 8;
#endif
  while (i < size && data[i] < 0x80) ++i;
  return i;
}

/// Length (2..4) of the well-formed sequence whose lead byte p[0] >= 0x80 is
/// followed by avail - 1 readable bytes, or 0 if it is ill-formed or cut off.
/// Byte ranges are those of RFC 3629 section 4 (UTF8-2, UTF8-3, UTF8-4).
inline size_t sequence_length(const uint8_t* p, size_t avail) noexcept {
  const unsigned b0 = p[0];
  if (b0 < 0xE0) {
    // 80..BF (stray continuation) and C0, C1 (overlong) are not lead bytes.
    if (b0 < 0xC2 || avail < 2 || (p[1] & 0xC0) != 0x80) return 0;
    return 2;
  }
  if (b0 < 0xF0) {
    if (avail < 3) return 0;
    const unsigned b1 = p[1];
    const unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80;  // E0 80..9F: overlong
    const unsigned hi = b0 == 0xED ? 0x9F : 0xBF;  // ED A0..BF: surrogates
    if (b1 < lo || b1 > hi || (p[2] & 0xC0) != 0x80) return 0;
    return 3;
  }
  if (b0 > 0xF4 || avail < 4) return 0;  // F5..FF would start > U+10FFFF
  const unsigned b1 = p[1];
  const unsigned lo = b0 == 0xF0 ? 0x90 : 0x80;  // F0 80..8F: overlong
  const unsigned hi = b0 == 0xF4 ? 0x8F : 0xBF;  // F4 90..BF: > U+10FFFF
  if (b1 < lo || b1 > hi || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
  return 4;
}

/// Validates [i, size) with the scalar code; i must start a sequence (or be an
/// ASCII byte). This is what decides every error offset.
size_t validate_scalar(const uint8_t* data, size_t i, size_t size) noexcept {
  for (;;) {
    i = skip_ascii(data, i, size);
    if (i == size) return size;
    // A run of non-ASCII sequences stays in this loop; only an ASCII byte sends
    // us back to skip_ascii.
    do {
      const size_t len = sequence_length(data + i, size - i);
      if (len == 0) return i;
      i += len;
      if (i == size) return size;
    } while (data[i] >= 0x80);
  }
}

#if defined(__SSE2__)
/// The first sequence start in [j - 3, j], for j >= 3, knowing that the data
/// before j is valid UTF-8 except perhaps for one unfinished sequence at its
/// end. No sequence is longer than 4 bytes, so the first non-continuation byte
/// at or after j - 3 starts one; if j - 3 .. j - 1 are all continuation bytes,
/// the sequence holding them ended at j - 1.
inline size_t sequence_start_before(const uint8_t* data, size_t j) noexcept {
  size_t k = j - 3;
  while (k < j && (data[k] & 0xC0) == 0x80) ++k;
  return k;
}

/// Non-zero lanes mark the bytes of the block at p that break RFC 3629. Reads
/// p[-3] .. p[15]: the three bytes before the block must be ASCII or belong to
/// sequences already checked. Errors that need bytes after the block (an
/// unfinished sequence at its end) are left to the next block.
inline __m128i block_errors(const uint8_t* p) noexcept {
  // Each byte, and the bytes 1, 2 and 3 positions before it.
  const __m128i cur = load16(p);
  const __m128i prev1 = load16(p - 1);
  const __m128i prev2 = load16(p - 2);
  const __m128i prev3 = load16(p - 3);
  // A continuation byte is due where prev1 >= C0, prev2 >= E0 or prev3 >= F0
  // (saturating subtraction leaves non-zero exactly there), and allowed nowhere
  // else. Lead bytes C0, C1, F5..FF count as leads here and fail below.
  const __m128i due = _mm_or_si128(
      _mm_or_si128(_mm_subs_epu8(prev1, _mm_set1_epi8(char(0xBF))),
                   _mm_subs_epu8(prev2, _mm_set1_epi8(char(0xDF)))),
      _mm_subs_epu8(prev3, _mm_set1_epi8(char(0xEF))));
  // 80..BF are the bytes below -64 as signed values.
  const __m128i is_cont = _mm_cmplt_epi8(cur, _mm_set1_epi8(-64));
  __m128i err = _mm_cmpeq_epi8(_mm_cmpeq_epi8(due, _mm_setzero_si128()), is_cont);
  // Bytes that never occur: F5..FF (above U+10FFFF) and C0, C1 (overlong).
  err = _mm_or_si128(err, _mm_subs_epu8(cur, _mm_set1_epi8(char(0xF4))));
  err = _mm_or_si128(err, _mm_cmpeq_epi8(_mm_and_si128(cur, _mm_set1_epi8(char(0xFE))),
                                         _mm_set1_epi8(char(0xC0))));
  // Second-byte ranges. A byte after these leads that is not a continuation
  // already failed above, so signed compares on 80..BF suffice. E0 needs
  // A0..BF (overlong otherwise), ED 80..9F (surrogates otherwise).
  const __m128i ge_a0 = _mm_cmpgt_epi8(cur, _mm_set1_epi8(char(0x9F)));
  const __m128i after_e0 = _mm_cmpeq_epi8(prev1, _mm_set1_epi8(char(0xE0)));
  const __m128i after_ed = _mm_cmpeq_epi8(prev1, _mm_set1_epi8(char(0xED)));
  err = _mm_or_si128(err, _mm_or_si128(_mm_andnot_si128(ge_a0, after_e0),
                                       _mm_and_si128(ge_a0, after_ed)));
  // F0 needs 90..BF (overlong otherwise), F4 80..8F (above U+10FFFF otherwise).
  const __m128i ge_90 = _mm_cmpgt_epi8(cur, _mm_set1_epi8(char(0x8F)));
  const __m128i after_f0 = _mm_cmpeq_epi8(prev1, _mm_set1_epi8(char(0xF0)));
  const __m128i after_f4 = _mm_cmpeq_epi8(prev1, _mm_set1_epi8(char(0xF4)));
  return _mm_or_si128(err, _mm_or_si128(_mm_andnot_si128(ge_90, after_f0),
                                        _mm_and_si128(ge_90, after_f4)));
}

/// Validates [i, size) where data[i] is the first non-ASCII byte and at least
/// 16 bytes remain: 16-byte blocks checked all at once, with long ASCII runs
/// skipped by skip_ascii. On an error, or for the last < 16 bytes, the scalar
/// code takes over from the last sequence start so that offsets are exact.
size_t validate_blocks(const uint8_t* data, size_t i, size_t size) noexcept {
  // Blocks read the 3 bytes before them, so the first one must not start
  // before offset 3: check up to 3 leading sequences one by one. From then on
  // everything before i is ASCII or checked sequences (perhaps one unfinished).
  while (i < 3) {
    if (data[i] < 0x80) {
      ++i;
      continue;
    }
    const size_t len = sequence_length(data + i, size - i);
    if (len == 0) return i;
    i += len;
  }
  while (size - i >= 16) {
    if (_mm_movemask_epi8(load16(data + i)) == 0) {
      // ASCII cannot finish a sequence left open by the bytes before it.
      if (data[i - 1] >= 0xC0 || data[i - 2] >= 0xE0 || data[i - 3] >= 0xF0) break;
      // i starts a sequence: skip the whole ASCII run and start afresh.
      i = skip_ascii(data, i + 16, size);
      if (i == size) return size;
      continue;
    }
    const __m128i err = block_errors(data + i);
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(err, _mm_setzero_si128())) != 0xFFFF) break;
    i += 16;
  }
  return validate_scalar(data, sequence_start_before(data, i), size);
}
#endif

/// Validates [i, size) where data[i] is the first non-ASCII byte.
inline size_t validate_from(const uint8_t* data, size_t i, size_t size) noexcept {
#if defined(__SSE2__)
  if (size - i >= 16) return validate_blocks(data, i, size);
#endif
  return validate_scalar(data, i, size);
}

}  // namespace

size_t utf8_validate(const uint8_t* data, size_t size) noexcept {
  size_t i;
  if (size <= 16) {
    if (size == 0 || short_is_ascii(data, size)) return size;
    i = 0;
    while (data[i] < 0x80) ++i;  // stops: some byte is >= 0x80
  } else {
#if defined(__SSE2__)
    if (size <= 64) {
      // Four overlapping 16-byte loads cover 17..64 bytes; the two middle
      // offsets are selected, not branched on, as sizes vary from call to call.
      const bool big = size > 32;
      const size_t mid1 = big ? 16 : 0;
      const size_t mid2 = big ? size - 32 : 0;
      const __m128i all = _mm_or_si128(_mm_or_si128(load16(data), load16(data + mid1)),
                                       _mm_or_si128(load16(data + mid2), load16(data + size - 16)));
      if (_mm_movemask_epi8(all) == 0) return size;
    }
#endif
    i = skip_ascii(data, 0, size);
    if (i == size) return size;
  }
  return validate_from(data, i, size);
}

}  // namespace detail
}  // namespace cbor_fast
