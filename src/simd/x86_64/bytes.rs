// SPDX-License-Identifier: MIT OR Apache-2.0
//! The AVX2 pieces of the decoders' vector of byte lanes (`simd/bytes.rs` names them in
//! its table): unpacking packed codes, the 64-entry and 32-entry lookups, and the stores
//! that put interleaved bytes back in element order. Each requires the CPU to run the
//! AVX2 family (the byte permute: the VBMI one). And how far ahead the loops that read
//! more than they write prefetch.

use std::arch::x86_64::*;

/// How far ahead (bytes) read-heavy loops prefetch their input.
pub(crate) const PREFETCH_AHEAD: usize = 4096;

/// Inputs shorter than this are left to the hardware prefetcher: software prefetches
/// would reach past their end, onto pages that may not be mapped, and each such prefetch
/// costs a page walk (this made calls on a few KiB several times slower than larger
/// ones). Above it, the last PREFETCH_AHEAD bytes of prefetches may still fall past the
/// end: at most two pages, noise for a call of this size. A per-iteration bounds check
/// instead cost the compute-bound encoders ~15% (FLOAT -> INT4 0.78 -> 0.66 of memcpy).
pub(crate) const PREFETCH_MIN_BYTES: usize = 64 << 10;

/// Stores 32 bytes at `at`: streaming (then `at` is 32-byte aligned) or not.
///
/// # Safety
/// The CPU runs the AVX2 family; `at` holds 32 writable bytes, aligned when `stream`.
#[inline(always)]
pub(crate) unsafe fn store(at: *mut u8, v: __m256i, stream: bool) {
    // SAFETY: the caller's promise.
    unsafe {
        if stream {
            _mm256_stream_si256(at.cast(), v)
        } else {
            _mm256_storeu_si256(at.cast(), v)
        }
    }
}

/// Stores the results of 32 codes in element order, given as 16-bit words laid out per
/// 128-bit lane as the byte unpacks leave them. Without `high` the words are the results
/// (64 bytes); with it, `high`'s words are the upper halves of 32-bit results whose lower
/// halves are `low`'s (128 bytes). `in_order`: of codes in `unpack_codes`' order, whose
/// results are stored as they are; otherwise of codes in element order (`low.0` holds
/// elements 0-7 | 16-23 and `low.1` 8-15 | 24-31), whose lanes are joined by permutes.
///
/// # Safety
/// The CPU runs the AVX2 family; `out` holds 64 writable bytes, 128 with `high`
/// (32-byte aligned when `stream`).
#[inline(always)]
pub(crate) unsafe fn store_in_order(
    out: *mut u8,
    low: (__m256i, __m256i),
    high: Option<(__m256i, __m256i)>,
    in_order: bool,
    stream: bool,
) {
    // SAFETY: the caller's promise.
    unsafe {
        let (first, second) = (
            _mm256_permute2x128_si256::<0x20>,
            _mm256_permute2x128_si256::<0x31>,
        );
        match high {
            Some(high) => {
                // Per lane, four results each (element order: 0-3 | 16-19, 4-7 | 20-23,
                // 8-11 | 24-27, 12-15 | 28-31; in order: 0-3 | 4-7 and so on).
                let d0 = _mm256_unpacklo_epi16(low.0, high.0);
                let d1 = _mm256_unpackhi_epi16(low.0, high.0);
                let d2 = _mm256_unpacklo_epi16(low.1, high.1);
                let d3 = _mm256_unpackhi_epi16(low.1, high.1);
                if in_order {
                    store(out, d0, stream);
                    store(out.add(32), d1, stream);
                    store(out.add(64), d2, stream);
                    store(out.add(96), d3, stream);
                } else {
                    store(out, first(d0, d1), stream);
                    store(out.add(32), first(d2, d3), stream);
                    store(out.add(64), second(d0, d1), stream);
                    store(out.add(96), second(d2, d3), stream);
                }
            }
            None if in_order => {
                store(out, low.0, stream);
                store(out.add(32), low.1, stream);
            }
            None => {
                store(out, first(low.0, low.1), stream);
                store(out.add(32), second(low.0, low.1), stream);
            }
        }
    }
}

/// The 32 codes of `BITS` bits (4, 2 or 6) packed at `p` (16, 8 or 24 bytes; 32 read for
/// 6-bit codes), one per byte, in the lanes from which the byte unpacks and the stores
/// `store_in_order` write results of `size` bytes (2 or 4) in element order with no
/// move across 128-bit lanes: for 16-bit results elements 0-7 and 16-23 in the low lane,
/// 8-15 and 24-31 in the high one; for 32-bit results 0-3, 8-11, 16-19 and 24-27 low,
/// the others high. The packed bytes are broadcast to both lanes (4 and 2 bits) and each
/// lane shuffles its own to the front; 6-bit codes for 16-bit results take their 3-byte
/// groups by one cross-lane move of the 32-bit words (bytes 0-5 and 12-17 low, 6-11 and
/// 18-23 high), for 32-bit results by two loads and a move of the codes.
///
/// # Safety
/// The CPU runs the AVX2 family; `p` holds the bytes read.
#[inline(always)]
pub(crate) unsafe fn unpack_codes<const BITS: u8>(p: *const u8, size: usize) -> __m256i {
    // SAFETY: the caller's promise.
    unsafe {
        let wide = size == 4;
        match BITS {
            4 => {
                // Each lane's eight bytes: two codes each.
                let pick = if wide {
                    lane_bytes([0, 1, 4, 5, 8, 9, 12, 13], [2, 3, 6, 7, 10, 11, 14, 15])
                } else {
                    lane_bytes([0, 1, 2, 3, 8, 9, 10, 11], [4, 5, 6, 7, 12, 13, 14, 15])
                };
                let b = _mm256_shuffle_epi8(
                    _mm256_broadcastsi128_si256(_mm_loadu_si128(p.cast())),
                    pick,
                );
                let low = _mm256_set1_epi8(0x0f);
                let lo = _mm256_and_si256(b, low);
                let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(b), low);
                _mm256_unpacklo_epi8(lo, hi)
            }
            2 => {
                // Each lane's four bytes: four codes each.
                let pick = if wide {
                    lane_bytes([0, 2, 4, 6, -1, -1, -1, -1], [1, 3, 5, 7, -1, -1, -1, -1])
                } else {
                    lane_bytes([0, 1, 4, 5, -1, -1, -1, -1], [2, 3, 6, 7, -1, -1, -1, -1])
                };
                let word = p.cast::<i64>().read_unaligned();
                let b = _mm256_shuffle_epi8(_mm256_set1_epi64x(word), pick);
                let mask = _mm256_set1_epi8(3);
                let c0 = _mm256_and_si256(b, mask);
                let c1 = _mm256_and_si256(_mm256_srli_epi16::<2>(b), mask);
                let c2 = _mm256_and_si256(_mm256_srli_epi16::<4>(b), mask);
                let c3 = _mm256_and_si256(_mm256_srli_epi16::<6>(b), mask);
                // A byte's four codes side by side.
                let (c01, c23) = (_mm256_unpacklo_epi8(c0, c1), _mm256_unpacklo_epi8(c2, c3));
                _mm256_unpacklo_epi16(c01, c23)
            }
            _ if wide => {
                let b = _mm256_inserti128_si256::<1>(
                    _mm256_castsi128_si256(_mm_loadu_si128(p.cast())),
                    _mm_loadu_si128(p.add(12).cast()),
                );
                // Each 3-byte group as the low 24 bits of a 32-bit lane: codes 0-15 low,
                // 16-31 high; then every other group of four to each lane.
                let group = _mm256_setr_epi8(
                    0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 0, 1, 2, -1, 3, 4, 5, -1,
                    6, 7, 8, -1, 9, 10, 11, -1,
                );
                let codes = six_codes(_mm256_shuffle_epi8(b, group));
                _mm256_permutevar8x32_epi32(codes, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7))
            }
            _ => {
                let words = _mm256_setr_epi32(0, 1, 3, 4, 1, 2, 4, 5);
                let b = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(p.cast()), words);
                // The lanes hold bytes 0-7 and 12-19, 4-11 and 16-23.
                let group = _mm256_setr_epi8(
                    0, 1, 2, -1, 3, 4, 5, -1, 8, 9, 10, -1, 11, 12, 13, -1, 2, 3, 4, -1, 5, 6, 7,
                    -1, 10, 11, 12, -1, 13, 14, 15, -1,
                );
                six_codes(_mm256_shuffle_epi8(b, group))
            }
        }
    }
}

/// A byte shuffle's indexes: `low` to the low 128-bit lane's first eight bytes, `high`
/// to the high lane's; zero (-1) in the others.
///
/// # Safety
/// The CPU runs the AVX2 family.
#[inline(always)]
unsafe fn lane_bytes(low: [i8; 8], high: [i8; 8]) -> __m256i {
    let mut bytes = [-1i8; 32];
    bytes[..8].copy_from_slice(&low);
    bytes[16..24].copy_from_slice(&high);
    // SAFETY: the caller's promise; the load reads `bytes`.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// Each 32-bit lane's four 6-bit codes (its low 24 bits `s`, code j bits 6 j to 6 j + 5),
/// one per byte: code j shifted left by 2 j. Codes 1 and 3 stay within their 16-bit
/// halves and move by one multiply (by 4 and 64), which runs beside the shuffles where
/// shifts would queue with them; code 2 crosses the halves and is shifted.
///
/// # Safety
/// The CPU runs the AVX2 family.
#[inline(always)]
unsafe fn six_codes(s: __m256i) -> __m256i {
    // SAFETY: the caller's promise; registers only.
    unsafe {
        let c0 = _mm256_and_si256(s, _mm256_set1_epi32(0x3f));
        let c13 = _mm256_mullo_epi16(
            _mm256_and_si256(s, _mm256_set1_epi32(0x00fc_0fc0)),
            _mm256_set1_epi32(0x0040_0004),
        );
        let c2 = _mm256_and_si256(_mm256_slli_epi32::<4>(s), _mm256_set1_epi32(0x3f_0000));
        _mm256_or_si256(_mm256_or_si256(c0, c13), c2)
    }
}

/// The 64 entries of `plane` as four rows of 16 for [`six_lookup`], each in both
/// 128-bit lanes and XOR-ed with the row after it (but the last): XOR-ing rows `h` to 3
/// of a code of row `h` gives its entry.
///
/// # Safety
/// The CPU runs the AVX2 family.
#[inline(always)]
pub(crate) unsafe fn six_rows(plane: &[u8; 64]) -> [__m256i; 4] {
    // SAFETY: the caller's promise; each row reads 16 of `plane`'s bytes.
    unsafe {
        let row = |r: usize| {
            _mm256_broadcastsi128_si256(_mm_loadu_si128(plane[16 * r..].as_ptr().cast()))
        };
        let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
        [
            _mm256_xor_si256(r0, r1),
            _mm256_xor_si256(r1, r2),
            _mm256_xor_si256(r2, r3),
            r3,
        ]
    }
}

/// Each 6-bit code's entry in `rows` ([`six_rows`]): row `i` looked up with the index
/// `code + 0x70 - 16 i`, unsigned saturating, whose top bit (which zeroes a lookup) is
/// clear for the codes of rows up to `i`, and whose low nibble is the code's.
///
/// # Safety
/// The CPU runs the AVX2 family.
#[inline(always)]
pub(crate) unsafe fn six_lookup(rows: &[__m256i; 4], codes: __m256i) -> __m256i {
    // SAFETY: the caller's promise; registers only.
    unsafe {
        let mut v = _mm256_setzero_si256();
        for (i, &row) in rows.iter().enumerate() {
            let index = _mm256_adds_epu8(codes, _mm256_set1_epi8((0x70 - 16 * i) as i8));
            v = _mm256_xor_si256(v, _mm256_shuffle_epi8(row, index));
        }
        v
    }
}

/// Each lane's entry of the 32 in `table` by `vpermb`, which reads an index's low five
/// bits.
///
/// # Safety
/// The CPU runs the VBMI family (`vbmi_family`).
#[cfg(tcast_avx512)]
#[clippy::msrv = "1.89"] // tcast_avx512: built by Rust 1.89 or later only (build.rs)
#[inline(always)]
pub(crate) unsafe fn permute_bytes(table: __m256i, index: __m256i) -> __m256i {
    // SAFETY: the caller's promise; registers only.
    unsafe { _mm256_permutexvar_epi8(index, table) }
}

/// Without `tcast_avx512` no kernel runs the VBMI build.
///
/// # Safety
/// Never called.
#[cfg(not(tcast_avx512))]
#[inline(always)]
pub(crate) unsafe fn permute_bytes(_: __m256i, _: __m256i) -> __m256i {
    unreachable!("the VBMI build needs tcast_avx512")
}
