// SPDX-License-Identifier: MIT OR Apache-2.0
//! The AVX2 pieces of the encoders' vector of 16-bit lanes (`simd/lanes.rs` names them in
//! its table): rounding f32 to bfloat16 to odd, widening FLOAT16 to f32, packing and
//! storing codes. Each requires the CPU to run the AVX2 family (F16C included).

use crate::formats::lowp::FORMATS;
use std::arch::x86_64::*;

/// Sixteen f32 (as bits, two vectors) rounded to bfloat16 to odd, in element order.
#[inline(always)]
pub(crate) unsafe fn f32x16_to_bf16_odd(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        // The lane-interleaved halves of `bf16_odd_pairs`; one permute restores element order.
        _mm256_permute4x64_epi64::<0b11_01_10_00>(bf16_odd_pairs(a, b))
    }
}

/// Sixteen f32 (two vectors) rounded to bfloat16 to odd, in the order packus_epi32
/// gives (per 128-bit lane: a's four, then b's four): a byte shuffle gathers each lane's
/// high halves into its low 8 bytes and low halves into its high 8; 64-bit unpacks pair
/// the two vectors; a low half that is not zero sets the sticky bit.
#[inline(always)]
pub(crate) unsafe fn bf16_odd_pairs(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let gather = _mm256_setr_epi8(
            2, 3, 6, 7, 10, 11, 14, 15, 0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, 0, 1,
            4, 5, 8, 9, 12, 13,
        );
        let (sa, sb) = (
            _mm256_shuffle_epi8(a, gather),
            _mm256_shuffle_epi8(b, gather),
        );
        let high = _mm256_unpacklo_epi64(sa, sb);
        let low = _mm256_unpackhi_epi64(sa, sb);
        _mm256_or_si256(high, _mm256_min_epu16(low, _mm256_set1_epi16(1)))
    }
}

/// Two vectors of sixteen codes (16-bit lanes, element order) as 32 bytes in element
/// order: one pack, one permute.
#[inline(always)]
pub(crate) unsafe fn pack_words(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe { _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b)) }
}

/// Two vectors of sixteen codes (16-bit lanes) in the order [`bf16_odd_pairs`] leaves
/// them as 32 bytes in element order: after the pack each 128-bit lane holds, in 4-code
/// groups, groups 0, 2, 4, 6 then 1, 3, 5, 7; one permute of 32-bit lanes sorts them.
#[inline(always)]
pub(crate) unsafe fn pack_pairs(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe {
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        _mm256_permutevar8x32_epi32(_mm256_packus_epi16(a, b), order)
    }
}

/// Stores 32 codes: as they are, packed two or four per byte for the 4-bit and 2-bit
/// formats, or four per three bytes for the 6-bit ones.
///
/// # Safety
/// `di` holds `code_bytes::<F>(32)` writable bytes.
#[inline(always)]
pub(crate) unsafe fn store_codes<const F: u8>(di: &mut [u8], codes: __m256i) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        if FORMATS[F as usize].bits == 4 {
            // Word k holds codes 2k and 2k+1; shifting by 4 moves the second into the high
            // nibble of the low byte, which the saturating pack keeps.
            let merged = _mm256_and_si256(
                _mm256_or_si256(codes, _mm256_srli_epi16::<4>(codes)),
                _mm256_set1_epi16(0xff),
            );
            let bytes =
                _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(merged, merged));
            // In bounds: the caller provides 16 writable bytes.
            _mm_storeu_si128(di.as_mut_ptr().cast(), _mm256_castsi256_si128(bytes));
        } else if FORMATS[F as usize].bits == 2 {
            // Codes (4k .. 4k+3) weighted (1, 4) into 16-bit words, then (1, 16) into
            // 32-bit lanes: one byte of four codes per lane, first code lowest.
            let words = _mm256_maddubs_epi16(codes, _mm256_set1_epi16(0x0401));
            let groups = _mm256_madd_epi16(words, _mm256_set1_epi32(0x0010_0001));
            let narrow = _mm256_packus_epi32(groups, groups);
            let bytes = _mm256_packus_epi16(narrow, narrow);
            // Bytes 0-3 of each 128-bit lane are groups 0-3 and 4-7.
            let ordered = _mm_unpacklo_epi32(
                _mm256_castsi256_si128(bytes),
                _mm256_extracti128_si256::<1>(bytes),
            );
            // In bounds: the caller provides 8 writable bytes.
            _mm_storel_epi64(di.as_mut_ptr().cast(), ordered);
        } else if FORMATS[F as usize].bits == 6 {
            // Codes (4k .. 4k+3) weighted (1, 64) into 12-bit words, then (1, 4096) into
            // 32-bit lanes: a 3-byte group per lane, first code lowest; its three bytes
            // gathered to the front of each 128-bit lane, then the two lanes' 12 bytes
            // side by side.
            let words = _mm256_maddubs_epi16(codes, _mm256_set1_epi16(0x4001));
            let groups = _mm256_madd_epi16(words, _mm256_set1_epi32(0x1000_0001));
            let front = _mm256_shuffle_epi8(
                groups,
                _mm256_setr_epi8(
                    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9,
                    10, 12, 13, 14, -1, -1, -1, -1,
                ),
            );
            let bytes =
                _mm256_permutevar8x32_epi32(front, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
            // In bounds: the caller provides 24 writable bytes.
            _mm_storeu_si128(di.as_mut_ptr().cast(), _mm256_castsi256_si128(bytes));
            _mm_storel_epi64(
                di.as_mut_ptr().add(16).cast(),
                _mm256_extracti128_si256::<1>(bytes),
            );
        } else {
            // In bounds: the caller provides 32 writable bytes.
            _mm256_storeu_si256(di.as_mut_ptr().cast(), codes);
        }
    }
}

/// The f32 bits of the eight FLOAT16 values in 128-bit half `half` (0 low, 1 high) of `h`.
///
/// # Safety
/// The CPU runs the AVX2 family (F16C included).
#[inline(always)]
pub(crate) unsafe fn f16x8_to_f32(h: __m256i, half: i32) -> __m256i {
    // SAFETY: the caller runs the AVX2 family; registers only.
    unsafe {
        let part = if half == 0 {
            _mm256_castsi256_si128(h)
        } else {
            _mm256_extracti128_si256::<1>(h)
        };
        _mm256_castps_si256(_mm256_cvtph_ps(part))
    }
}

/// [`Halves::add_magic`] on AVX2: FLOAT16 widened by F16C, BFLOAT16 by placing it in the
/// high half of a 32-bit lane (that f32), rounded by the f32 addition, packed back.
/// `magic`'s low 16 bits are zero and the codes wanted are below 2^16, so for BFLOAT16
/// the low half of each sum is the code itself: a shift and a word blend put the two
/// halves' sums back in place (no subtraction, no pack: +4-6% on FLOAT -> FLOAT6 in L2).
///
/// # Safety
/// The CPU runs the AVX2 family (F16C included).
#[inline(always)]
pub(crate) unsafe fn add_magic<const SRC: u8>(abs: __m256i, magic: u32) -> __m256i {
    // SAFETY: the caller runs the AVX2 family; registers only.
    unsafe {
        let round = |x: __m256i| {
            let summed = _mm256_add_ps(
                _mm256_castsi256_ps(x),
                _mm256_set1_ps(f32::from_bits(magic)),
            );
            _mm256_sub_epi32(_mm256_castps_si256(summed), _mm256_set1_epi32(magic as i32))
        };
        if SRC == 0 {
            let (lo, hi) = (f16x8_to_f32(abs, 0), f16x8_to_f32(abs, 1));
            // packus interleaves the 128-bit lanes; the permute restores element order.
            _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(round(lo), round(hi)))
        } else {
            // The even lanes' values shifted into the high halves of the 32-bit lanes,
            // the odd lanes' kept there: both are then f32 values; each sum's low half
            // is its lane's code, the odd ones' shifted back up to their own lanes.
            let magic = _mm256_set1_ps(f32::from_bits(magic));
            let sum =
                |x: __m256i| _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(x), magic));
            let even = sum(_mm256_slli_epi32::<16>(abs));
            let odd = sum(_mm256_and_si256(abs, _mm256_set1_epi32(-0x1_0000)));
            _mm256_blend_epi16::<0b1010_1010>(even, _mm256_slli_epi32::<16>(odd))
        }
    }
}
