//! The deserializer's own UTF-8 check of text it hands out as `&str` (the
//! library has validated it already; this check keeps soundness in Rust).
//! `std::str::from_utf8` takes about 4 instructions per byte of CJK text
//! (twitter: 14 % of `from_slice`); the `simdutf8` crate (SIMD where the CPU
//! has it, chosen at run time; the lookup algorithm of Keiser and Lemire, as
//! simdjson's) checks 16 or 32 bytes per step. Failures go back to
//! `from_utf8` for the offset.

/// Whether `b` is UTF-8: the same answer as `std::str::from_utf8(b).is_ok()`.
#[inline]
pub(crate) fn is_utf8(b: &[u8]) -> bool {
    simdutf8::basic::from_utf8(b).is_ok()
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
