// SPDX-License-Identifier: MIT OR Apache-2.0
//! The AVX2 pieces of the encoders' vector of 16-bit lanes (`simd/lanes.rs` names them in
//! its table): rounding f32 to bfloat16 to odd, widening FLOAT16 to f32, packing and
//! storing codes. Each requires the CPU to run the AVX2 family (F16C included).

use crate::formats::lowp::FORMATS;
use crate::simd::encoders::ByteSigns;
use std::arch::x86_64::*;

/// Sixteen f32 (as bits, two vectors) rounded to bfloat16 to odd, in element order: in
/// each 32-bit lane the low half plus 0xffff carries into bit 16 exactly when it is not
/// zero, and that bit ORed into the value is the sticky bit; the high halves, shifted
/// down, are packed and put in order.
#[inline(always)]
pub(crate) unsafe fn f32x16_to_bf16_odd(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe {
        let low = _mm256_set1_epi32(0xffff);
        let odd = |x: __m256i| {
            let sticky = _mm256_add_epi32(_mm256_and_si256(x, low), low);
            _mm256_srli_epi32::<16>(_mm256_or_si256(x, sticky))
        };
        // packus interleaves the 128-bit lanes; the permute restores element order.
        _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(odd(a), odd(b)))
    }
}

/// Sixteen f32 (two vectors) rounded to bfloat16 to odd, interleaved: 16-bit lane `2i`
/// holds `a`'s element `i`, lane `2i + 1` `b`'s, where each already sits (the high
/// halves of `b`, the shifted-down ones of `a`), so two word blends gather them with no
/// lane-crossing and no byte shuffle; the low halves, gathered the same way, give the
/// sticky bit. Six operations per sixteen values (seven as compiled), where the
/// byte-shuffle form before (two `pshufb`, two unpacks) was compiled into eleven, five
/// of them shuffles; [`pack_pairs`] pays one byte shuffle per 32 codes back.
#[inline(always)]
pub(crate) unsafe fn bf16_odd_pairs(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe {
        let high = _mm256_blend_epi16::<0b1010_1010>(_mm256_srli_epi32::<16>(a), b);
        let low = _mm256_blend_epi16::<0b1010_1010>(a, _mm256_slli_epi32::<16>(b));
        let one = _mm256_broadcastw_epi16(opaque(_mm_cvtsi32_si128(1)));
        _mm256_or_si256(high, _mm256_min_epu16(low, one))
    }
}

/// [`bf16_odd_pairs`] in two parts (`Halves::load_f32_parts`): the top halves (the
/// bfloat16 values truncated), and a mask of the lanes whose sticky bit is clear, bit
/// `lsb` of the top half counted: a 32-bit compare with zero of each f32's low half and
/// that bit, whose two 16-bit halves agree, so one word blend gathers `a`'s and `b`'s
/// where their values sit: one operation more than [`bf16_odd_pairs`] and one shift
/// fewer, the mask three operations from the loads (the sticky bit there four), and
/// the encoder adds the kept bit with it (no shift, mask and addition of its own).
#[inline(always)]
pub(crate) unsafe fn bf16_pairs_parts(a: __m256i, b: __m256i, lsb: u16) -> (__m256i, __m256i) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe {
        let high = _mm256_blend_epi16::<0b1010_1010>(_mm256_srli_epi32::<16>(a), b);
        let tested = _mm256_set1_epi32(0xffff | (i32::from(lsb) << 16));
        let clear =
            |x: __m256i| _mm256_cmpeq_epi32(_mm256_and_si256(x, tested), _mm256_setzero_si256());
        (high, _mm256_blend_epi16::<0b1010_1010>(clear(a), clear(b)))
    }
}

/// Every lane `x`, broadcast from a value the compiler cannot see ([`opaque`]): a
/// constant kept in a register or spilled, where LLVM, short of AVX2's sixteen
/// registers, rebuilt a splat in the loop by a `vpbroadcastw` from memory (a load and a
/// vector-ALU operation on Zen 4; a spilled value comes back as a memory operand).
#[inline(always)]
pub(crate) unsafe fn kept_splat(x: u16) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe { _mm256_broadcastw_epi16(opaque(_mm_cvtsi32_si128(i32::from(x)))) }
}

/// `x`, as a value the compiler cannot see: LLVM rewrote the sticky bit's minimum with
/// the constant 1 (one `vpminuw`) into a compare with zero and an and-not, one
/// operation more per sixteen values (FLOAT -> FLOAT8E4M3FN in L2 5.7 -> 5.8-5.9 G
/// values/s, FNUZ 5.1-5.3 -> 5.5; Zen 4, AVX2). The empty `asm!` emits nothing; being
/// pure, it is hoisted out of the loop with the constant.
#[inline(always)]
pub(crate) fn opaque(mut x: __m128i) -> __m128i {
    // SAFETY: an empty template: no instruction, no memory, the register unchanged.
    unsafe {
        std::arch::asm!(
            "/* {0} */",
            inout(xmm_reg) x,
            options(pure, nomem, nostack, preserves_flags)
        )
    };
    x
}

/// The signs of two vectors of sixteen 16-bit values (`a` then `b`) as the bytes of
/// `_mm256_packus_epi16(a, b)`: 0x80 for a negative value, else 0. The signed
/// saturating pack keeps each value's sign in its byte's top bit. Three operations per
/// 32 values (with the OR in [`packed`]) where shifting the sign bits down in 16-bit
/// lanes and ORing them there took six.
#[inline(always)]
pub(crate) unsafe fn sign_bytes(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe { _mm256_and_si256(_mm256_packs_epi16(a, b), _mm256_set1_epi8(-0x80)) }
}

/// The stores' `signs` for format `F`, with how they go in, where its sign bits go in
/// as bytes (`encoders::byte_signed`), else none.
#[inline(always)]
pub(crate) fn signed<const F: u8>(signs: __m256i) -> Option<(__m256i, ByteSigns)> {
    crate::simd::encoders::byte_signed::<F>().map(|how| (signs, how))
}

/// `_mm256_packus_epi16(a, b)` (in-lane order), with `signs` ([`sign_bytes`]) put in
/// where given, as [`ByteSigns`] says.
#[inline(always)]
unsafe fn packed(a: __m256i, b: __m256i, signs: Option<(__m256i, ByteSigns)>) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe { with_signs(_mm256_packus_epi16(a, b), signs) }
}

/// The bytes of `_mm256_packus_epi16` of two vectors with `signs` ([`sign_bytes`]) put
/// in where given, as [`ByteSigns`] says.
#[inline(always)]
pub(crate) unsafe fn with_signs(bytes: __m256i, signs: Option<(__m256i, ByteSigns)>) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe {
        match signs {
            None => bytes,
            Some((signs, ByteSigns::Or)) => _mm256_or_si256(bytes, signs),
            Some((signs, ByteSigns::OrNonzero)) => {
                let zero = _mm256_cmpeq_epi8(bytes, _mm256_setzero_si256());
                _mm256_or_si256(bytes, _mm256_andnot_si256(zero, signs))
            }
            // 0x80 in a byte of a 16-bit lane shifted by two stays in its byte.
            Some((signs, ByteSigns::XorBit5)) => {
                _mm256_xor_si256(bytes, _mm256_srli_epi16::<2>(signs))
            }
        }
    }
}

/// Two vectors of sixteen codes (16-bit lanes, element order) as 32 bytes in element
/// order, `signs` ORed in as [`packed`] does: one pack, one permute.
#[inline(always)]
pub(crate) unsafe fn pack_words(
    a: __m256i,
    b: __m256i,
    signs: Option<(__m256i, ByteSigns)>,
) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe { _mm256_permute4x64_epi64::<0b11_01_10_00>(packed(a, b, signs)) }
}

/// The byte shuffle that sorts, within each 128-bit lane, the codes of two vectors in
/// the order of [`bf16_odd_pairs`] after a pack: bytes `a0 b0 a1 b1 a2 b2 a3 b3` (then
/// the same of the second vector) to `a0 a1 a2 a3 b0 b1 b2 b3`.
#[inline(always)]
pub(crate) unsafe fn unzip_pairs() -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe {
        _mm256_setr_epi8(
            0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15, 0, 2, 4, 6, 1, 3, 5, 7, 8, 10,
            12, 14, 9, 11, 13, 15,
        )
    }
}

/// Two vectors of sixteen codes (16-bit lanes) in the order [`bf16_odd_pairs`] leaves
/// them (`a`: elements 0-15, `b`: 16-31) as 32 bytes in element order: after the pack
/// and [`unzip_pairs`] each 128-bit lane holds four-code groups 0, 2, 4, 6 (low lane)
/// or 1, 3, 5, 7 (high lane); one permute of 32-bit lanes sorts them. `signs` are ORed
/// in as [`packed`] does.
#[inline(always)]
pub(crate) unsafe fn pack_pairs(
    a: __m256i,
    b: __m256i,
    signs: Option<(__m256i, ByteSigns)>,
) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe { pairs_in_order(packed(a, b, signs)) }
}

/// The bytes of `_mm256_packus_epi16` of two vectors in the order [`bf16_odd_pairs`]
/// leaves them, put in element order (as [`pack_pairs`]).
#[inline(always)]
pub(crate) unsafe fn pairs_in_order(bytes: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); registers only.
    unsafe {
        let bytes = _mm256_shuffle_epi8(bytes, unzip_pairs());
        _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
    }
}

/// Stores 32 codes: as they are, packed two or four per byte for the 4-bit and 2-bit
/// formats, or four per three bytes for the 6-bit ones (where `di` holds four bytes
/// more, zeros on them).
///
/// # Safety
/// `di` holds at least `code_bytes::<F>(32)` writable bytes.
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
            let out = di.as_mut_ptr();
            if di.len() >= 28 {
                // Where `di` has room past the 24 bytes (the next step's, which it
                // writes later), no permute: the low lane's 16 bytes at 0, then the high
                // lane's at 12, over the low lane's four zero bytes.
                // In bounds: `di` holds 28 bytes.
                _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(front));
                _mm_storeu_si128(out.add(12).cast(), _mm256_extracti128_si256::<1>(front));
            } else {
                let bytes =
                    _mm256_permutevar8x32_epi32(front, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
                // In bounds: the caller provides 24 writable bytes.
                _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(bytes));
                _mm_storel_epi64(out.add(16).cast(), _mm256_extracti128_si256::<1>(bytes));
            }
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
pub(crate) unsafe fn add_magic<const SRC: u8>(h: __m256i, abs: __m256i, magic: u32) -> __m256i {
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
            // the odd lanes' kept there (masked from the values `h`, not from `abs`:
            // one operation nearer the loads, +0.4% on BFLOAT16 -> FLOAT8E4M3FN): both
            // are then f32 values; each sum's low half is its lane's code, the odd ones'
            // shifted back up to their own lanes.
            let magic = _mm256_set1_ps(f32::from_bits(magic));
            let sum =
                |x: __m256i| _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(x), magic));
            let even = sum(_mm256_slli_epi32::<16>(abs));
            let odd = sum(_mm256_and_si256(h, _mm256_set1_epi32(0x7fff_0000)));
            _mm256_blend_epi16::<0b1010_1010>(even, _mm256_slli_epi32::<16>(odd))
        }
    }
}

/// [`Halves::f32_add_magic`] on AVX2: the sixteen f32 at `p` (two vectors, `a` then
/// `b`) plus 1.5 times the f32 whose bits are `magic`: that has the same ulp, and
/// its low 16 bits are zero, so each sum's low half is its value's code, negated for a
/// negative value (the addition rounds to nearest even either way: the sum's distance
/// from 1.5 * magic is the magnitude rounded), which `vpsignw` by the values' bfloat16
/// halves `h` (in this order) undoes; `b`'s sums are shifted up to the odd 16-bit
/// lanes, as [`bf16_odd_pairs`] orders them (`negated`: not undone, for a caller that
/// undoes it on bytes). Rounded once from f32; against
/// [`add_magic`] of the bfloat16 magnitudes, one shift and one operation fewer.
///
/// # Safety
/// The CPU runs the AVX2 family; `p` holds 64 readable bytes.
#[inline(always)]
pub(crate) unsafe fn f32_add_magic(p: *const u8, h: __m256i, magic: u32, negated: bool) -> __m256i {
    // SAFETY: the caller runs the AVX2 family; the loads read `p`'s 64 bytes.
    unsafe {
        let magic = _mm256_set1_ps(1.5 * f32::from_bits(magic));
        let sum = |k: usize| {
            let x = _mm256_loadu_ps(p.add(32 * k).cast());
            _mm256_castps_si256(_mm256_add_ps(x, magic))
        };
        let codes = _mm256_blend_epi16::<0b1010_1010>(sum(0), _mm256_slli_epi32::<16>(sum(1)));
        if negated {
            codes
        } else {
            _mm256_sign_epi16(codes, h)
        }
    }
}

/// The AVX-512 pieces of the encoders' vector (`__m512i`, 32 lanes; `simd/lanes.rs`
/// names them in its `avx512` column): what the AVX2 ones above do, on twice the lanes,
/// with the codes of two vectors put in element order by one byte permute of two
/// sources (`vpermt2b`, AVX-512VBMI) in place of the packs and their fix-up permutes.
/// Each requires the CPU to run the VBMI family (`x86_64::vbmi_family`).
#[cfg(tcast_avx512)]
#[clippy::msrv = "1.89"] // tcast_avx512: built by Rust 1.89 or later only (build.rs)
pub(crate) mod wide {
    use crate::formats::lowp::FORMATS;
    use std::arch::x86_64::*;

    /// The 16-bit lanes 1, 3, 5, ... of a vector of 32 (a mask register's bits).
    const ODD_WORDS: __mmask32 = 0xaaaa_aaaa;

    /// Byte `i` of the permute that gathers the low bytes of the 16-bit lanes of two
    /// vectors (index 64 and up: the second) in element order.
    const WORD_ORDER: [u8; 64] = {
        let mut order = [0u8; 64];
        let mut i = 0;
        while i < 64 {
            order[i] = 2 * i as u8;
            i += 1;
        }
        order
    };

    /// Byte `i` of the permute that gathers the high halves of the 32-bit lanes of two
    /// vectors (index 64 and up: the second) in element order.
    const HIGH_HALVES: [u8; 64] = {
        let mut order = [0u8; 64];
        let mut i = 0;
        while i < 64 {
            order[i] = (i / 2 * 4 + 2 + i % 2) as u8;
            i += 1;
        }
        order
    };

    /// Byte `i` of the permute that keeps the first three bytes of each 32-bit lane: 64
    /// bytes to 48.
    const SIX_BIT_GROUPS: [u8; 64] = {
        let mut order = [0u8; 64];
        let mut i = 0;
        while i < 48 {
            order[i] = (i / 3 * 4 + i % 3) as u8;
            i += 1;
        }
        order
    };

    /// Byte `i` of the permute that keeps the even bytes: 64 bytes to 32.
    const EVEN_BYTES: [u8; 64] = {
        let mut order = [0u8; 64];
        let mut i = 0;
        while i < 32 {
            order[i] = 2 * i as u8;
            i += 1;
        }
        order
    };

    /// Byte `i` of the permute that gathers FLOAT4E2M1's code pairs (the low bytes of
    /// the 16-bit words of `Halves::store_fp4`'s multiply-add, in the order of the
    /// signed narrowing: in each 128-bit lane four words of `lo`, then four of `hi`) in
    /// element order: 64 bytes to 32.
    const FP4_PAIRS: [u8; 64] = {
        let mut order = [0u8; 64];
        let mut i = 0;
        while i < 32 {
            let pair = i % 16;
            let word = 8 * (pair / 4) + 4 * (i / 16) + pair % 4;
            order[i] = 2 * word as u8;
            i += 1;
        }
        order
    };

    /// A byte permute's indices as a vector.
    #[inline(always)]
    unsafe fn indices(order: &[u8; 64]) -> __m512i {
        // SAFETY: the caller runs the VBMI family; `order` holds the 64 bytes read.
        unsafe { _mm512_loadu_si512(order.as_ptr().cast()) }
    }

    /// The permute (`vpermt2b`) that puts the codes of two vectors of 16-bit lanes in
    /// element order, as bytes.
    #[inline(always)]
    pub(crate) unsafe fn word_order() -> __m512i {
        // SAFETY: the caller runs the VBMI family.
        unsafe { indices(&WORD_ORDER) }
    }

    /// The permute (`vpermb`) that puts FLOAT4E2M1's code pairs in element order
    /// ([`FP4_PAIRS`]).
    #[inline(always)]
    pub(crate) unsafe fn fp4_pairs() -> __m512i {
        // SAFETY: the caller runs the VBMI family.
        unsafe { indices(&FP4_PAIRS) }
    }

    /// 32 f32 (as bits, two vectors) rounded to bfloat16 to odd, in element order: the
    /// high halves gathered by one byte permute of the two vectors, the sticky bit set
    /// under the mask of the nonzero low halves (two tests, one mask each).
    #[inline(always)]
    pub(crate) unsafe fn bf16_odd(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the caller runs the VBMI family; registers only.
        unsafe {
            let high = _mm512_permutex2var_epi8(a, indices(&HIGH_HALVES), b);
            let low = _mm512_set1_epi32(0xffff);
            let (in_a, in_b) = (
                _mm512_test_epi32_mask(a, low),
                _mm512_test_epi32_mask(b, low),
            );
            let inexact = u32::from(in_a) | (u32::from(in_b) << 16);
            _mm512_mask_blend_epi16(inexact, high, _mm512_or_si512(high, _mm512_set1_epi16(1)))
        }
    }

    /// [`bf16_odd`] in two parts, the top halves and the mask of the lanes whose
    /// sticky bit is clear, bit `lsb` of the top halves tested too (as
    /// `super::bf16_pairs_parts`).
    #[inline(always)]
    pub(crate) unsafe fn bf16_parts(a: __m512i, b: __m512i, lsb: u16) -> (__m512i, __m512i) {
        // SAFETY: the caller runs the VBMI family; registers only.
        unsafe {
            let high = _mm512_permutex2var_epi8(a, indices(&HIGH_HALVES), b);
            let low = _mm512_set1_epi32(0xffff | (i32::from(lsb) << 16));
            let (in_a, in_b) = (
                _mm512_test_epi32_mask(a, low),
                _mm512_test_epi32_mask(b, low),
            );
            let inexact = u32::from(in_a) | (u32::from(in_b) << 16);
            (high, _mm512_movm_epi16(!inexact))
        }
    }

    /// 32 f32 (as bits, two vectors) rounded to bfloat16 to odd, in element order (as
    /// `super::f32x16_to_bf16_odd`).
    #[inline(always)]
    pub(crate) unsafe fn f32x32_to_bf16_odd(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the caller runs the VBMI family; registers only.
        unsafe {
            let low = _mm512_set1_epi32(0xffff);
            let odd = |x: __m512i| {
                let sticky = _mm512_add_epi32(_mm512_and_si512(x, low), low);
                _mm512_srli_epi32::<16>(_mm512_or_si512(x, sticky))
            };
            words_in_order(odd(a), odd(b))
        }
    }

    /// Two vectors of sixteen values below 2^16 (32-bit lanes) as 32 16-bit lanes in
    /// element order: `packus` interleaves the 128-bit lanes, the permute sorts them.
    #[inline(always)]
    unsafe fn words_in_order(a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: the caller runs the VBMI family; registers only.
        unsafe {
            let order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
            _mm512_permutexvar_epi64(order, _mm512_packus_epi32(a, b))
        }
    }

    /// The f32 bits of the sixteen FLOAT16 values in 256-bit half `half` (0 low, 1
    /// high) of `h`.
    #[inline(always)]
    pub(crate) unsafe fn f16x16_to_f32(h: __m512i, half: i32) -> __m512i {
        // SAFETY: the caller runs the VBMI family; registers only.
        unsafe {
            let part = if half == 0 {
                _mm512_castsi512_si256(h)
            } else {
                _mm512_extracti64x4_epi64::<1>(h)
            };
            _mm512_castps_si512(_mm512_cvtph_ps(part))
        }
    }

    /// `Halves::add_magic` on AVX-512, as `super::add_magic` on AVX2.
    #[inline(always)]
    pub(crate) unsafe fn add_magic<const SRC: u8>(abs: __m512i, magic: u32) -> __m512i {
        // SAFETY: the caller runs the VBMI family; registers only.
        unsafe {
            let magic_ps = _mm512_set1_ps(f32::from_bits(magic));
            let sum =
                |x: __m512i| _mm512_castps_si512(_mm512_add_ps(_mm512_castsi512_ps(x), magic_ps));
            if SRC == 0 {
                let magic = _mm512_set1_epi32(magic as i32);
                let round = |x: __m512i| _mm512_sub_epi32(sum(x), magic);
                words_in_order(round(f16x16_to_f32(abs, 0)), round(f16x16_to_f32(abs, 1)))
            } else {
                // As on AVX2: each sum's low half is its lane's code.
                let even = sum(_mm512_slli_epi32::<16>(abs));
                let odd = sum(_mm512_maskz_mov_epi16(ODD_WORDS, abs));
                _mm512_mask_blend_epi16(ODD_WORDS, even, _mm512_slli_epi32::<16>(odd))
            }
        }
    }

    /// Stores 64 codes (bytes, element order): as they are, packed two per byte for the
    /// 4-bit formats, four per three bytes for the 6-bit ones, each by one byte permute
    /// (`vpermb`) after the multiply-adds that join the codes; the 2-bit formats (the
    /// integer ones, which the FLOAT encoder steps take on AVX2 vectors) by the AVX2
    /// store, a half at a time.
    ///
    /// # Safety
    /// The CPU runs the VBMI family; `di` holds `code_bytes::<F>(64)` writable bytes.
    #[inline(always)]
    pub(crate) unsafe fn store_codes<const F: u8>(di: &mut [u8], codes: __m512i) {
        // SAFETY: the caller runs the VBMI family; the stores stay inside `di`, as noted
        // at each.
        unsafe {
            let out = di.as_mut_ptr();
            match FORMATS[F as usize].bits {
                4 => {
                    // Word k holds codes 2k and 2k+1; shifting by 4 moves the second into
                    // the high nibble of the low byte.
                    let merged = _mm512_or_si512(codes, _mm512_srli_epi16::<4>(codes));
                    let bytes = _mm512_permutexvar_epi8(indices(&EVEN_BYTES), merged);
                    // In bounds: the caller provides 32 writable bytes.
                    _mm256_storeu_si256(out.cast(), _mm512_castsi512_si256(bytes));
                }
                6 => {
                    // Codes (4k .. 4k+3) weighted (1, 64) into 12-bit words, then (1,
                    // 4096) into 32-bit lanes: a 3-byte group per lane, first code lowest.
                    let words = _mm512_maddubs_epi16(codes, _mm512_set1_epi16(0x4001));
                    let groups = _mm512_madd_epi16(words, _mm512_set1_epi32(0x1000_0001));
                    let bytes = _mm512_permutexvar_epi8(indices(&SIX_BIT_GROUPS), groups);
                    // In bounds: the caller provides 48 writable bytes.
                    _mm256_storeu_si256(out.cast(), _mm512_castsi512_si256(bytes));
                    _mm_storeu_si128(out.add(32).cast(), _mm512_extracti32x4_epi32::<2>(bytes));
                }
                2 => {
                    let half = crate::simd::encoders::code_bytes::<F>(32);
                    super::store_codes::<F>(&mut di[..half], _mm512_castsi512_si256(codes));
                    let high = _mm512_extracti64x4_epi64::<1>(codes);
                    super::store_codes::<F>(&mut di[half..], high);
                }
                // In bounds: the caller provides 64 writable bytes.
                _ => _mm512_storeu_si512(out.cast(), codes),
            }
        }
    }
}
