// SPDX-License-Identifier: MIT OR Apache-2.0
//! SSE2 byte classification for the text scanner.

use super::Sse2;
use std::arch::x86_64::*;

/// For a text of 16 to 32 bytes: the masks (bit i for byte i) of its ASCII digits, its
/// '.' and its 'e'/'E', from two overlapping 16-byte loads.
pub fn byte_classes(s: &[u8], _: Sse2) -> (u32, u32, u32) {
    let len = s.len();
    assert!((16..=32).contains(&len));
    // SAFETY: the token proves SSE2; the two loads read s[..16] and s[len - 16..],
    // inside the text (16 <= len <= 32). The second one's masks are shifted to their
    // positions (the overlap holds the same bytes twice).
    unsafe {
        let lo = _mm_loadu_si128(s.as_ptr().cast());
        let hi = _mm_loadu_si128(s.as_ptr().add(len - 16).cast());
        let shift = len - 16;
        let bits = |v: __m128i| _mm_movemask_epi8(v) as u32;
        let digits = |v: __m128i| {
            let at_least_0 = _mm_cmpgt_epi8(v, _mm_set1_epi8(b'0' as i8 - 1));
            let at_most_9 = _mm_cmpgt_epi8(_mm_set1_epi8(b'9' as i8 + 1), v);
            bits(_mm_and_si128(at_least_0, at_most_9))
        };
        let equal = |v: __m128i, c: u8| bits(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)));
        let lower = |v: __m128i| _mm_or_si128(v, _mm_set1_epi8(0x20));
        (
            digits(lo) | (digits(hi) << shift),
            equal(lo, b'.') | (equal(hi, b'.') << shift),
            equal(lower(lo), b'e') | (equal(lower(hi), b'e') << shift),
        )
    }
}
