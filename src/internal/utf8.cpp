// UTF-8 validation (RFC 3629), internal.
//
// Shape, cheapest case first:
// - all-ASCII check without loops for sizes up to 64 (overlapping 4/8-byte or
//   16-byte loads), since most strings in documents are short ASCII keys/values
//   (callers that may read past the string use the inline utf8_quick_ascii /
//   utf8_is_valid in utf8.hpp first and skip the call altogether);
// - otherwise skip ASCII 16/64 bytes at a time (SSE2) or 8 at a time (portable);
// - non-ASCII text in strings of >= 35 bytes is checked 32 bytes per step by
//   block_errors_avx2 (nibble lookups) when the CPU has AVX2, chosen at run time
//   so the library still runs on any x86-64; in strings of 19..34 bytes, or
//   without AVX2, 16 bytes per step by block_errors (SSE2). Both only answer
//   "any error here?"; the last bytes are covered by one more block that ends
//   at the end of the data;
// - the scalar per-sequence checker handles short strings, the portable build,
//   and re-runs from the last sequence start when a block fails, so every error
//   offset comes from one simple piece of code.
// Every load stays inside [data, data + size). utf8_validate_on runs one path
// on demand so that tests cover each of them on any machine that has it.
#include "internal/utf8.hpp"

#include <cstring>

#include "internal/compiler.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The AVX2 path needs GCC/Clang function multiversioning on x86-64: the code
// is compiled for AVX2 inside a baseline build and only called after a CPUID
// check.
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CBOR_FAST_UTF8_AVX2 1
#include <immintrin.h>
#define CBOR_FAST_TARGET_AVX2 __attribute__((target("avx2")))
#else
#define CBOR_FAST_UTF8_AVX2 0
#endif

namespace cbor_fast {
namespace detail {
namespace {

inline uint32_t load_u32(const uint8_t* p) noexcept {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline uint64_t load_u64(const uint8_t* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// True when all size bytes are ASCII, for 1 <= size <= 16. Two overlapping
/// 8-byte loads cover 8..16 bytes, two 4-byte loads 4..7.
inline bool short_is_ascii(const uint8_t* data, size_t size) noexcept {
  if (size >= 8) return ((load_u64(data) | load_u64(data + size - 8)) & 0x8080808080808080u) == 0;
  if (size >= 4) return ((load_u32(data) | load_u32(data + size - 4)) & 0x80808080u) == 0;
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

/// Offset of the first byte >= 0x80 in [i, size), or size. Simd false gives
/// the portable code (also compiled on x86-64, so tests can run it).
template <bool Simd>
inline size_t skip_ascii(const uint8_t* data, size_t i, size_t size) noexcept {
#if defined(__SSE2__)
  if (Simd && size - i >= 16) {
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
#endif
  while (size - i >= 8 && (load_u64(data + i) & 0x8080808080808080u) == 0) i += 8;
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
template <bool Simd>
size_t validate_scalar(const uint8_t* data, size_t i, size_t size) noexcept {
  for (;;) {
    i = skip_ascii<Simd>(data, i, size);
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

/// True when data[j - 3 .. j - 1] leave a sequence unfinished at j (j >= 3):
/// a lead byte with fewer than its continuation bytes after it before j.
inline bool unfinished_before(const uint8_t* data, size_t j) noexcept {
  return data[j - 1] >= 0xC0 || data[j - 2] >= 0xE0 || data[j - 3] >= 0xF0;
}

/// Blocks read the 3 bytes before them, so the first one must not start before
/// offset 3: checks up to 3 leading sequences one by one from the first
/// non-ASCII byte i, moving i past them. False, with i at the bad sequence,
/// when one is invalid. From then on everything before i is ASCII or checked
/// sequences (perhaps one unfinished).
inline bool leading_sequences(const uint8_t* data, size_t& i, size_t size) noexcept {
  while (i < 3) {
    if (data[i] < 0x80) {
      ++i;
      continue;
    }
    const size_t len = sequence_length(data + i, size - i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

#if defined(__SSE2__)
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
  const __m128i due = _mm_or_si128(_mm_or_si128(_mm_subs_epu8(prev1, _mm_set1_epi8(char(0xBF))),
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
  err = _mm_or_si128(
      err, _mm_or_si128(_mm_andnot_si128(ge_a0, after_e0), _mm_and_si128(ge_a0, after_ed)));
  // F0 needs 90..BF (overlong otherwise), F4 80..8F (above U+10FFFF otherwise).
  const __m128i ge_90 = _mm_cmpgt_epi8(cur, _mm_set1_epi8(char(0x8F)));
  const __m128i after_f0 = _mm_cmpeq_epi8(prev1, _mm_set1_epi8(char(0xF0)));
  const __m128i after_f4 = _mm_cmpeq_epi8(prev1, _mm_set1_epi8(char(0xF4)));
  return _mm_or_si128(
      err, _mm_or_si128(_mm_andnot_si128(ge_90, after_f0), _mm_and_si128(ge_90, after_f4)));
}

/// Validates [i, size) with 16-byte blocks, for size >= 19, where i >= 3
/// starts a sequence and everything before it is valid. Long ASCII runs are
/// skipped by skip_ascii. The last < 16 bytes are checked by one more block
/// ending at size (it overlaps checked bytes, which cannot fail again) plus a
/// check that no sequence is left unfinished at the end. On an error the
/// scalar code takes over from the last sequence start so that offsets are
/// exact.
size_t validate_blocks(const uint8_t* data, size_t i, size_t size) noexcept {
  while (size - i >= 16) {
    if (_mm_movemask_epi8(load16(data + i)) == 0) {
      // ASCII cannot finish a sequence left open by the bytes before it.
      if (unfinished_before(data, i)) break;
      // i starts a sequence: skip the whole ASCII run and start afresh.
      i = skip_ascii<true>(data, i + 16, size);
      if (i == size) return size;
      continue;
    }
    const __m128i err = block_errors(data + i);
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(err, _mm_setzero_si128())) != 0xFFFF) break;
    i += 16;
  }
  if (size - i < 16) {
    const __m128i err = block_errors(data + size - 16);
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(err, _mm_setzero_si128())) == 0xFFFF &&
        !unfinished_before(data, size))
      return size;
  }
  return validate_scalar<true>(data, sequence_start_before(data, i), size);
}
#endif

#if CBOR_FAST_UTF8_AVX2
// ---- AVX2: three nibble lookups per byte pair ------------------------------
//
// Every rule of RFC 3629 that involves two adjacent bytes (prev1, cur) is a
// product "high nibble of prev1 in H, low nibble of prev1 in L, high nibble of
// cur in C". Give each rule a bit, put it in table 1 at the nibbles in H, in
// table 2 at those in L and in table 3 at those in C: the AND of the three
// lookups has the bit exactly when the rule fires. Rules sharing a bit must
// not create false products; the two sharing k_4_80 below use the same C.
// Continuations 3 and 4 of a sequence are the one thing a pair cannot see:
// those pairs (continuation, continuation) get k_2_conts, which must match
// "prev2 >= E0 or prev3 >= F0" exactly.
constexpr uint8_t k_short = 0x01;    // lead, then not a continuation
constexpr uint8_t k_long = 0x02;     // ASCII, then a continuation
constexpr uint8_t k_over2 = 0x04;    // C0/C1, then a continuation (overlong)
constexpr uint8_t k_over3 = 0x08;    // E0, then 80..9F (overlong)
constexpr uint8_t k_surr = 0x10;     // ED, then A0..BF (surrogate)
constexpr uint8_t k_big = 0x20;      // F4..FF, then 90..BF (> U+10FFFF)
constexpr uint8_t k_4_80 = 0x40;     // F0 or F5..FF, then 80..8F
constexpr uint8_t k_2_conts = 0x80;  // continuation, then continuation

constexpr uint8_t k_any_lo = k_short | k_long | k_2_conts;  // rules blind to L
constexpr uint8_t k_table1[16] = {                          // high nibble of prev1
    k_long,
    k_long,
    k_long,
    k_long,
    k_long,
    k_long,
    k_long,
    k_long,  // 00..7F
    k_2_conts,
    k_2_conts,
    k_2_conts,
    k_2_conts,                              // 80..BF
    k_short | k_over2,                      // C0..CF
    k_short,                                // D0..DF
    k_short | k_over3 | k_surr,             // E0..EF
    k_short | k_big | k_4_80};              // F0..FF
constexpr uint8_t k_table2[16] = {          // low nibble of prev1
    k_any_lo | k_over2 | k_over3 | k_4_80,  // C0 E0 F0
    k_any_lo | k_over2,                     // C1
    k_any_lo,
    k_any_lo,
    k_any_lo | k_big,                                         // F4
    k_any_lo | k_big | k_4_80,                                // F5
    k_any_lo | k_big | k_4_80,                                // F6
    k_any_lo | k_big | k_4_80,                                // F7
    k_any_lo | k_big | k_4_80,                                // F8
    k_any_lo | k_big | k_4_80,                                // F9
    k_any_lo | k_big | k_4_80,                                // FA
    k_any_lo | k_big | k_4_80,                                // FB
    k_any_lo | k_big | k_4_80,                                // FC
    k_any_lo | k_big | k_4_80 | k_surr,                       // ED FD
    k_any_lo | k_big | k_4_80,                                // FE
    k_any_lo | k_big | k_4_80};                               // FF
constexpr uint8_t k_cont_any = k_long | k_2_conts | k_over2;  // any continuation
constexpr uint8_t k_table3[16] = {                            // high nibble of cur
    k_short,
    k_short,
    k_short,
    k_short,
    k_short,
    k_short,
    k_short,
    k_short,                        // ASCII
    k_cont_any | k_over3 | k_4_80,  // 80..8F
    k_cont_any | k_over3 | k_big,   // 90..9F
    k_cont_any | k_surr | k_big,    // A0..AF
    k_cont_any | k_surr | k_big,    // B0..BF
    k_short,
    k_short,
    k_short,
    k_short};  // leads

CBOR_FAST_TARGET_AVX2 inline __m256i load32(const uint8_t* p) noexcept {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

/// A 16-entry table in both 128-bit lanes (vpshufb looks up per lane).
CBOR_FAST_TARGET_AVX2 inline __m256i lane_table(const uint8_t (&t)[16]) noexcept {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

/// Non-zero lanes mark the bytes of the block at p that break RFC 3629, like
/// block_errors: reads p[-3] .. p[31] and leaves a sequence unfinished at the
/// end of the block to the next one.
CBOR_FAST_TARGET_AVX2 inline __m256i block_errors_avx2(const uint8_t* p, __m256i t1, __m256i t2,
                                                       __m256i t3) noexcept {
  const __m256i cur = load32(p);
  const __m256i prev1 = load32(p - 1);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  // vpshufb reads the low 4 bits of each index (and zeroes lanes whose index
  // has bit 7 set), so every index is masked to a nibble.
  const __m256i rules = _mm256_and_si256(
      _mm256_and_si256(
          _mm256_shuffle_epi8(t1, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble)),
          _mm256_shuffle_epi8(t2, _mm256_and_si256(prev1, nibble))),
      _mm256_shuffle_epi8(t3, _mm256_and_si256(_mm256_srli_epi16(cur, 4), nibble)));
  // Bit 7 of (x -sat (E0 - 80)) is set exactly when x >= E0; likewise F0.
  const __m256i third = _mm256_subs_epu8(load32(p - 2), _mm256_set1_epi8(char(0xE0 - 0x80)));
  const __m256i fourth = _mm256_subs_epu8(load32(p - 3), _mm256_set1_epi8(char(0xF0 - 0x80)));
  const __m256i due =
      _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(char(k_2_conts)));
  return _mm256_xor_si256(rules, due);
}

/// validate_blocks with 32-byte blocks, for size >= 35 (and the same
/// preconditions).
CBOR_FAST_TARGET_AVX2 size_t validate_blocks_avx2(const uint8_t* data, size_t i,
                                                  size_t size) noexcept {
  const __m256i t1 = lane_table(k_table1);
  const __m256i t2 = lane_table(k_table2);
  const __m256i t3 = lane_table(k_table3);
  while (size - i >= 32) {
    const __m256i cur = load32(data + i);
    if (_mm256_movemask_epi8(cur) == 0) {
      if (unfinished_before(data, i)) break;
      i = skip_ascii<true>(data, i + 32, size);
      if (i == size) return size;
      continue;
    }
    const __m256i err = block_errors_avx2(data + i, t1, t2, t3);
    if (!_mm256_testz_si256(err, err)) break;
    i += 32;
  }
  if (size - i < 32) {
    const __m256i err = block_errors_avx2(data + size - 32, t1, t2, t3);
    if (_mm256_testz_si256(err, err) && !unfinished_before(data, size)) return size;
  }
  return validate_scalar<true>(data, sequence_start_before(data, i), size);
}

bool cpu_has_avx2() noexcept {
  __builtin_cpu_init();  // may run before the constructors that set the flags
  return __builtin_cpu_supports("avx2") != 0;
}

/// Whether this CPU runs the AVX2 path; CPUID is asked once.
inline bool use_avx2() noexcept {
  static const bool has = cpu_has_avx2();
  return has;
}
#endif

/// Validates [i, size) where data[i] is the first non-ASCII byte. Out of line
/// so that the ASCII shortcuts of validate() need no stack frame.
template <utf8_path Path>
CBOR_FAST_NOINLINE size_t validate_from(const uint8_t* data, size_t i, size_t size) noexcept {
#if defined(__SSE2__)
  // Even a sequence near the end goes to the blocks: their last block, ending
  // at size, is cheaper than the scalar code on the last bytes.
  if (Path != utf8_path::portable && size >= 19) {
    if (!leading_sequences(data, i, size)) return i;
#if CBOR_FAST_UTF8_AVX2
    if (Path != utf8_path::sse2 && size >= 35 && (Path == utf8_path::avx2 || use_avx2()))
      return validate_blocks_avx2(data, i, size);
#endif
    return validate_blocks(data, i, size);
  }
#endif
  return validate_scalar<Path != utf8_path::portable>(data, i, size);
}

/// utf8_validate on one path; Path best picks AVX2 at run time.
template <utf8_path Path>
size_t validate(const uint8_t* data, size_t size) noexcept {
  constexpr bool simd = Path != utf8_path::portable;
  size_t i;
  if (size <= 16) {
    if (size == 0 || short_is_ascii(data, size)) return size;
    i = 0;
    while (data[i] < 0x80) ++i;  // stops: some byte is >= 0x80
  } else {
#if defined(__SSE2__)
    if (simd && size <= 64) {
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
    i = skip_ascii<simd>(data, 0, size);
    if (i == size) return size;
  }
  return validate_from<Path>(data, i, size);
}

}  // namespace

size_t utf8_validate(const uint8_t* data, size_t size) noexcept {
  return validate<utf8_path::best>(data, size);
}

bool utf8_path_supported(utf8_path path) noexcept {
  switch (path) {
    case utf8_path::portable:
    case utf8_path::best: return true;
#if defined(__SSE2__)
    case utf8_path::sse2: return true;
#endif
#if CBOR_FAST_UTF8_AVX2
    case utf8_path::avx2: return use_avx2();
#endif
    default: return false;
  }
}

size_t utf8_validate_on(utf8_path path, const uint8_t* data, size_t size) noexcept {
  switch (path) {
#if defined(__SSE2__)
    case utf8_path::sse2: return validate<utf8_path::sse2>(data, size);
#endif
#if CBOR_FAST_UTF8_AVX2
    case utf8_path::avx2:
      if (use_avx2()) return validate<utf8_path::avx2>(data, size);
      break;
#endif
    case utf8_path::best: return validate<utf8_path::best>(data, size);
    default: break;
  }
  return validate<utf8_path::portable>(data, size);
}

}  // namespace detail
}  // namespace cbor_fast
