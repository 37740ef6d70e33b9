//! The deserializer's own UTF-8 check of text it hands out as `&str` (the
//! library has validated it already; this check keeps soundness in Rust).
//! `std::str::from_utf8` takes about 4 instructions per byte of CJK text
//! (twitter: 14 % of `from_slice`); on x86-64 with SSSE3 this checks 16
//! bytes per step with the lookup algorithm of Keiser and Lemire,
//! "Validating UTF-8 In Less Than One Instruction Per Byte" (2021), as
//! simdjson does. Failures go back to `from_utf8` for the offset.

/// Whether `b` is UTF-8: the same answer as `std::str::from_utf8(b).is_ok()`.
#[inline]
pub(crate) fn is_utf8(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 && std::arch::is_x86_feature_detected!("ssse3") {
        // SAFETY: the CPU has SSSE3 (just checked).
        return unsafe { ssse3::is_utf8(b) };
    }
    std::str::from_utf8(b).is_ok()
}

#[cfg(target_arch = "x86_64")]
mod ssse3 {
    use std::arch::x86_64::*;

    // What a pair of bytes (the first's high and low nibble, the second's
    // high nibble) can be wrong as; a pair is bad when all three lookups
    // share a bit.
    const TOO_SHORT: u8 = 1 << 0; // 11______ 0_______ or 11______ 11______
    const TOO_LONG: u8 = 1 << 1; // 0_______ 10______
    const OVERLONG_3: u8 = 1 << 2; // 11100000 100_____
    const TOO_LARGE: u8 = 1 << 3; // 11110100 1001____ and above
    const SURROGATE: u8 = 1 << 4; // 11101101 101_____
    const OVERLONG_2: u8 = 1 << 5; // 1100000_ 10______
    const TOO_LARGE_1000: u8 = 1 << 6; // 11110101 1000____ and above
    const OVERLONG_4: u8 = 1 << 6; // 11110000 1000____
    const TWO_CONTS: u8 = 1 << 7; // 10______ 10______
    const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

    const BYTE_1_HIGH: [u8; 16] = [
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TOO_SHORT | OVERLONG_2,
        TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
    ];
    const BYTE_1_LOW: [u8; 16] = [
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
        CARRY | OVERLONG_2,
        CARRY,
        CARRY,
        CARRY | TOO_LARGE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
    ];
    const BYTE_2_HIGH: [u8; 16] = [
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
    ];

    struct Tables {
        high1: __m128i,
        low1: __m128i,
        high2: __m128i,
        nibble: __m128i,
    }

    /// The error bits of the 16 bytes at `p` (returned too) after `prev`
    /// (the block before, or zeros): pairs through the lookups, third and
    /// fourth bytes through the lead two and three bytes back.
    ///
    /// # Safety
    /// The CPU must have SSSE3; `p` must be readable for 16 bytes.
    #[inline]
    #[target_feature(enable = "ssse3")]
    unsafe fn block_errors(t: &Tables, prev: __m128i, p: *const u8) -> (__m128i, __m128i) {
        // SAFETY: 16 readable bytes at `p` (the caller's promise); the rest
        // are register operations on a CPU with SSSE3. (One block for all:
        // Rust before 1.87 has every intrinsic unsafe.)
        unsafe {
            let input = _mm_loadu_si128(p.cast());
            let prev1 = _mm_alignr_epi8::<15>(input, prev);
            let high = |v: __m128i| _mm_and_si128(_mm_srli_epi16::<4>(v), t.nibble);
            let special = _mm_and_si128(
                _mm_and_si128(
                    _mm_shuffle_epi8(t.high1, high(prev1)),
                    _mm_shuffle_epi8(t.low1, _mm_and_si128(prev1, t.nibble)),
                ),
                _mm_shuffle_epi8(t.high2, high(input)),
            );
            let prev2 = _mm_alignr_epi8::<14>(input, prev);
            let prev3 = _mm_alignr_epi8::<13>(input, prev);
            // 0x80 set where the byte two back is 111_____ or three back 1111____.
            let third = _mm_subs_epu8(prev2, _mm_set1_epi8((0xe0u8 - 0x80) as i8));
            let fourth = _mm_subs_epu8(prev3, _mm_set1_epi8((0xf0u8 - 0x80) as i8));
            let must23 = _mm_and_si128(_mm_or_si128(third, fourth), _mm_set1_epi8(0x80u8 as i8));
            (_mm_xor_si128(must23, special), input)
        }
    }

    /// # Safety
    /// The CPU must have SSSE3.
    #[target_feature(enable = "ssse3")]
    pub(super) unsafe fn is_utf8(b: &[u8]) -> bool {
        // SAFETY: SSSE3 (the caller's promise); each block_errors pointer
        // has 16 bytes (a 16-byte chunk or array), as have the tables.
        unsafe {
            let load = |p: *const u8| _mm_loadu_si128(p.cast());
            let t = Tables {
                high1: load(BYTE_1_HIGH.as_ptr()),
                low1: load(BYTE_1_LOW.as_ptr()),
                high2: load(BYTE_2_HIGH.as_ptr()),
                nibble: _mm_set1_epi8(0x0f),
            };
            let mut prev = _mm_setzero_si128();
            let mut errors = _mm_setzero_si128();
            let mut chunks = b.chunks_exact(16);
            for c in &mut chunks {
                let (e, input) = block_errors(&t, prev, c.as_ptr());
                errors = _mm_or_si128(errors, e);
                prev = input;
            }
            // The rest padded with zeros (all of it when nothing is left):
            // at least one 0 byte follows the text, which a sequence cut
            // short fails against.
            let mut last = [0u8; 16];
            let rest = chunks.remainder();
            last[..rest.len()].copy_from_slice(rest);
            let (e, _) = block_errors(&t, prev, last.as_ptr());
            errors = _mm_or_si128(errors, e);
            _mm_movemask_epi8(_mm_cmpeq_epi8(errors, _mm_setzero_si128())) == 0xffff
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_utf8;

    /// Bytes at the edges of every class a UTF-8 check tells apart.
    const EDGES: [u8; 26] = [
        0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1,
        0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf8, 0xff,
    ];

    /// Every sequence of up to four edge bytes, at each place of a 40-byte
    /// ASCII string (so across the 16-byte blocks and at the end), gets
    /// `from_utf8`'s answer.
    #[test]
    fn agrees_with_from_utf8_on_every_edge_sequence() {
        let mut buf = [b'a'; 40];
        let mut checked = 0u64;
        for len in 1..=4usize {
            let count = EDGES.len().pow(len as u32);
            for code in 0..count {
                let mut seq = [0u8; 4];
                let mut c = code;
                for s in seq.iter_mut().take(len) {
                    *s = EDGES[c % EDGES.len()];
                    c /= EDGES.len();
                }
                // Every place for short sequences; the block edges for four.
                let places: &[usize] = if len < 4 {
                    &[0, 1, 12, 13, 14, 15, 16, 30, 31, 33, 36]
                } else {
                    &[13, 14, 36]
                };
                for &at in places {
                    if at + len > buf.len() {
                        continue;
                    }
                    buf[at..at + len].copy_from_slice(&seq[..len]);
                    for end in [at + len, buf.len()] {
                        let b = &buf[..end];
                        assert_eq!(is_utf8(b), std::str::from_utf8(b).is_ok(), "{b:02x?}");
                        checked += 1;
                    }
                    buf[at..at + len].fill(b'a');
                }
            }
        }
        assert!(checked > 1_000_000, "{checked}");
    }

    /// Valid text of one- to four-byte characters at every alignment, and
    /// each byte of it replaced by each edge byte.
    #[test]
    fn agrees_with_from_utf8_on_mixed_text_and_its_corruptions() {
        let text = "aé€😀 日本語のテキスト, ünïcödé 🎉 ok ᚠᛇᚻ ∑ x".repeat(2);
        for skip in 0..4 {
            let b = &text.as_bytes()[skip..];
            assert_eq!(is_utf8(b), std::str::from_utf8(b).is_ok(), "skip {skip}");
            let mut v = b.to_vec();
            for i in 0..v.len() {
                let keep = v[i];
                for e in EDGES {
                    v[i] = e;
                    assert_eq!(is_utf8(&v), std::str::from_utf8(&v).is_ok(), "{skip} {i} {e:#x}");
                }
                v[i] = keep;
            }
        }
    }
}
