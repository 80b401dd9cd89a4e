// SPDX-License-Identifier: MIT OR Apache-2.0
//! The vector the low-precision encoders (`encode.rs`) are written over, [`Halves`], and
//! its implementation on each ISA as one table: a row per operation, with its AVX2,
//! AVX-512 and NEON bodies side by side (the helpers they name are `x86_64/lanes.rs`
//! and `aarch64/lanes.rs`).

/// A vector of 16-bit lanes of one ISA, with the operations the encoders are written
/// over. Comparisons give masks (a lane of all ones where true). The methods are the
/// family's intrinsics: each requires the CPU to run the family the type belongs to.
pub(crate) trait Halves: Copy {
    /// The lanes of a vector.
    const LANES: usize;
    /// Whether the 8-bit float formats' sign bits go in after the narrowing to bytes
    /// ([`Self::sign_bytes`], ORed in by the stores), where one operation per byte
    /// vector replaces two per vector of 16-bit lanes (AVX2); else [`encode_halves`]
    /// puts them in the 16-bit lanes, and the stores' `signs` are not read.
    const BYTE_SIGNS: bool;
    /// Whether a FLOAT source's subnormal codes come from its f32 values
    /// ([`Self::f32_add_magic`]) rather than from their bfloat16 rounding to odd
    /// ([`Self::add_magic`]): where the f32 lanes give them in the order of
    /// [`Self::load_f32_odd`] with fewer shifts (AVX2).
    const F32_SUBNORMALS: bool;
    /// `LANES` 16-bit values from the `2 * LANES` bytes at `p`.
    unsafe fn load(p: *const u8) -> Self;
    /// `LANES` f32 values from the `4 * LANES` bytes at `p`, rounded to bfloat16 to odd,
    /// in the lane order the ISA gives them most cheaply (AVX2: the two loaded vectors'
    /// values interleaved, with no shuffle at all), which
    /// [`Self::store_f32_codes`] puts back: the encoders work lane by lane.
    unsafe fn load_f32_odd(p: *const u8) -> Self;
    /// [`Self::load_f32_odd`] in two parts: the top 16 bits of each f32 (the bfloat16
    /// truncated) and a mask of the lanes whose sticky bit is clear, the sticky bit
    /// here set also where bit `lsb` of the top bits is: an encoder that rounds to
    /// nearest even at that bit adds it with its rounding bias (`encode::f32_lsb`).
    unsafe fn load_f32_parts(p: *const u8, lsb: u16) -> (Self, Self);
    /// Where [`Self::BYTE_SIGNS`]: the signs of the values in the lanes of `lo` then
    /// `hi`, as bytes placed where the stores' narrowing puts their codes, 0x80 for a
    /// negative value and 0 else.
    unsafe fn sign_bytes(lo: Self, hi: Self) -> Self;
    /// Stores the codes of format `F` in the lanes of `lo` then `hi` (element order,
    /// each below 256, or 0x1ff for 0xff) into `di`, `code_bytes::<F>(2 * LANES)` bytes:
    /// one per byte, two or four per byte for the 4-bit and 2-bit formats (the first
    /// in the lowest bits), four per three bytes for the 6-bit ones. Where
    /// [`Self::BYTE_SIGNS`] and `F` is a float format that takes its signs as bytes
    /// ([`byte_signed`]), the codes are magnitudes and `signs` ([`Self::sign_bytes`] of
    /// the values) goes in as [`ByteSigns`] says. `di` may be longer: the bytes after the
    /// codes may then take junk (AVX2's 6-bit codes, when `di` has four more bytes).
    unsafe fn store_codes<const F: u8>(di: &mut [u8], lo: Self, hi: Self, signs: Self);
    /// As [`Self::store_codes`], the lanes of `lo` and `hi` in the order of
    /// [`Self::load_f32_odd`].
    unsafe fn store_f32_codes<const F: u8>(di: &mut [u8], lo: Self, hi: Self, signs: Self);
    /// Stores the codes of format `F` in the lanes of `lo` then `hi` (element order,
    /// each below 256, or 0x1ff for 0xff) one per byte into `di`, `2 * LANES` bytes,
    /// whatever their format's width; `signs` as for [`Self::store_codes`].
    unsafe fn store_bytes<const F: u8>(di: &mut [u8], lo: Self, hi: Self, signs: Self);
    /// As [`Self::store_bytes`], the lanes of `lo` and `hi` in the order of
    /// [`Self::load_f32_odd`].
    unsafe fn store_f32_bytes<const F: u8>(di: &mut [u8], lo: Self, hi: Self, signs: Self);
    /// Every lane `x`.
    unsafe fn splat(x: u16) -> Self;
    /// Every lane `x`, a constant the compiler keeps (in a register or spilled) rather
    /// than rebuilds inside the loop (AVX2: `kept_splat`); elsewhere [`Self::splat`].
    unsafe fn kept_splat(x: u16) -> Self;
    unsafe fn and(self, other: Self) -> Self;
    unsafe fn or(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// `!self & other`: `other` where this mask is clear.
    unsafe fn and_not(self, other: Self) -> Self;
    /// Wrapping addition.
    unsafe fn add(self, other: Self) -> Self;
    /// Wrapping subtraction.
    unsafe fn sub(self, other: Self) -> Self;
    /// Unsigned subtraction that stops at zero.
    unsafe fn sub_sat(self, other: Self) -> Self;
    /// Unsigned minimum.
    unsafe fn min(self, other: Self) -> Self;
    /// Signed maximum.
    unsafe fn max_signed(self, other: Self) -> Self;
    /// Signed `self > other`.
    unsafe fn gt(self, other: Self) -> Self;
    unsafe fn eq(self, other: Self) -> Self;
    /// Logical shift right by `n` (below 16; a constant after inlining).
    unsafe fn shr(self, n: u32) -> Self;
    /// The mask of the lanes whose top bit is set.
    unsafe fn negative(self) -> Self;
    /// `yes` where `mask` is set, `no` elsewhere.
    unsafe fn select(mask: Self, yes: Self, no: Self) -> Self;
    /// FLOAT16 patterns to bfloat16 rounded to odd, through f32 (exact): for the formats
    /// whose rules are written on bfloat16's layout (`encode::fp4_bytes`, [`e8m0_codes`]).
    unsafe fn f16_to_bf16_odd(self) -> Self;
    /// Each lane's magnitude (`SRC`: 0 FLOAT16, 1 BFLOAT16) widened to f32 exactly, the
    /// f32 whose bits are `magic` added by the FPU (rounding to nearest even, no flush
    /// to zero), and `magic` taken from the sum's bits, in 16-bit lanes again: the
    /// rounding of [`subnormal_codes`]. `h`: the values themselves, from which AVX2 takes
    /// BFLOAT16's odd lanes (one operation nearer the loads).
    unsafe fn add_magic<const SRC: u8>(h: Self, abs: Self, magic: u32) -> Self;
    /// Where [`Self::F32_SUBNORMALS`]: [`Self::add_magic`] of the magnitudes of the
    /// `LANES` f32 values at `p` (the `4 * LANES` bytes [`Self::load_f32_odd`] reads,
    /// which gave `h`), each rounded once from f32, in that method's lane order.
    /// Where `negated`, the codes of negative values are left negated (AVX2; the
    /// others ignore it and are not asked).
    unsafe fn f32_add_magic(p: *const u8, h: Self, magic: u32, negated: bool) -> Self;
    /// Arithmetic shift right by `n` (below 16; a constant after inlining): a negative
    /// lane stays negative.
    unsafe fn shr_signed(self, n: u32) -> Self;
    // The byte operations, for FLOAT4E2M1's codes (`encode::fp4_bytes`).
    /// The lanes of `lo` then `hi` narrowed to bytes with signed saturation, in the order
    /// the ISA's narrowing gives them (AVX2 and AVX-512: 128-bit lane by 128-bit lane,
    /// eight bytes of `lo` then eight of `hi`; NEON: `lo` then `hi`). The byte operations
    /// below take and give such vectors of bytes.
    unsafe fn narrow_signed(lo: Self, hi: Self) -> Self;
    /// Each byte `i` looked up in `table`: `table[i]` for `i` below 16, 0 for `i` of
    /// 0x80 or more (a negative byte); other bytes give an unspecified value.
    unsafe fn table_bytes(table: &[u8; 16], idx: Self) -> Self;
    /// The lanes of `lo` then `hi` narrowed to bytes with unsigned saturation (a
    /// negative lane gives 0), in the order of [`Self::narrow_signed`].
    unsafe fn narrow_unsigned(lo: Self, hi: Self) -> Self;
    /// Each byte negated where the byte of `signs` is negative, 0 where it is 0.
    unsafe fn sign_of_bytes(self, signs: Self) -> Self;
    /// Unsigned minimum of bytes.
    unsafe fn min_ubytes(self, other: Self) -> Self;
    /// Unsigned maximum of bytes.
    unsafe fn max_ubytes(self, other: Self) -> Self;
    /// Where [`Self::BYTE_SIGNS`]: stores the codes of format `F` given as the bytes of
    /// [`Self::narrow_unsigned`] of two vectors in the order of [`Self::load_f32_odd`],
    /// `signs` put in, as [`Self::store_f32_codes`] does.
    unsafe fn store_f32_narrowed<const F: u8>(di: &mut [u8], bytes: Self, signs: Self);
    /// As [`Self::store_f32_narrowed`], the bytes from two vectors of element order (as
    /// [`Self::store_codes`]).
    unsafe fn store_narrowed<const F: u8>(di: &mut [u8], bytes: Self, signs: Self);
    /// Signed minimum of bytes.
    unsafe fn min_bytes(self, other: Self) -> Self;
    /// Signed `self > other` of bytes (a byte of all ones where true).
    unsafe fn gt_bytes(self, other: Self) -> Self;
    /// Wrapping subtraction of bytes.
    unsafe fn sub_bytes(self, other: Self) -> Self;
    /// `v` in each byte that is not negative (signed), 0 in each that is: with the bytes
    /// of [`Self::narrow_signed`] of the values, `v` where a value is not negative.
    unsafe fn nonnegative_bytes(self, v: u8) -> Self;
    /// Stores FLOAT4E2M1 codes, one per byte in the order of [`Self::narrow_signed`] of
    /// two vectors of element order (`lo` then `hi`), into `di`: packed two per byte
    /// (`LANES` bytes, the first code in the low nibble) or, `unpacked`, one per byte
    /// (`2 * LANES` bytes).
    unsafe fn store_fp4(di: &mut [u8], bytes: Self, unpacked: bool);
    /// As [`Self::store_fp4`], the bytes from two vectors in the order of
    /// [`Self::load_f32_odd`].
    unsafe fn store_f32_fp4(di: &mut [u8], bytes: Self, unpacked: bool);
}

/// The body of the rows that only a tier putting the signs in as bytes calls
/// ([`Halves::BYTE_SIGNS`]), on the others.
///
/// # Safety
/// Never called: the caller checks `BYTE_SIGNS`.
#[cfg(any(all(target_arch = "x86_64", tcast_avx512), target_arch = "aarch64"))]
unsafe fn no_byte_signs() -> ! {
    unreachable!("this tier puts no signs in as bytes")
}

/// Implements [`Halves`] for each ISA's vector from the table below: one row per
/// method, its body on AVX2 (`__m256i`, sixteen lanes; `x86_64/lanes.rs` holds the
/// helpers named), on AVX-512 with VBMI (`__m512i`, 32 lanes, with `tcast_avx512`;
/// `x86_64/lanes.rs`' `wide`: compares give mask registers, which the compiler keeps
/// as such where a mask only selects) and on NEON (`uint16x8_t`, eight lanes;
/// `aarch64/lanes.rs`). Each body
/// runs in an `unsafe` block: the trait's contract (the CPU runs the vector type's
/// family; a pointer holds the bytes the method's documentation names) is what the
/// intrinsics require.
macro_rules! halves_impls {
    (
        const BYTE_SIGNS: bool = {
            avx2: $signs_avx2:expr, avx512: $signs_avx512:expr, neon: $signs_neon:expr $(,)?
        };
        const F32_SUBNORMALS: bool = {
            avx2: $f32_avx2:expr, avx512: $f32_avx512:expr, neon: $f32_neon:expr $(,)?
        };
        $(fn $f:ident $(<$g:ident>)? ($($a:ident: $t:ty),*) -> $r:ty {
            avx2: $f_avx2:expr, avx512: $f_avx512:expr, neon: $f_neon:expr $(,)?
        })*
        $(self fn $m:ident($s:ident $(, $ma:ident: $mt:ty)*) {
            avx2: $m_avx2:expr, avx512: $m_avx512:expr, neon: $m_neon:expr $(,)?
        })*
    ) => {
        #[cfg(target_arch = "x86_64")]
        const _: () = {
            use crate::simd::x86_64::lanes::{
                add_magic, bf16_odd_pairs, bf16_pairs_parts, f16x8_to_f32, f32_add_magic, f32x16_to_bf16_odd,
                kept_splat, pack_pairs, pack_words, pairs_in_order, sign_bytes, signed, store_codes, unzip_pairs, with_signs,
            };
            use std::arch::x86_64::*;
            halves_impl! {
                __m256i, 16, $signs_avx2, $f32_avx2;
                $(fn $f $(<$g>)? ($($a: $t),*) -> $r = $f_avx2;)*
                $(self fn $m($s $(, $ma: $mt)*) = $m_avx2;)*
            }
        };
        #[cfg(all(target_arch = "x86_64", tcast_avx512))]
        #[clippy::msrv = "1.89"] // tcast_avx512: built by Rust 1.89 or later only (build.rs)
        const _: () = {
            use crate::simd::x86_64::lanes::wide::{
                add_magic, bf16_odd, bf16_parts, f16x16_to_f32, f32x32_to_bf16_odd, fp4_pairs,
                store_codes, word_order,
            };
            use std::arch::x86_64::*;
            halves_impl! {
                __m512i, 32, $signs_avx512, $f32_avx512;
                $(fn $f $(<$g>)? ($($a: $t),*) -> $r = $f_avx512;)*
                $(self fn $m($s $(, $ma: $mt)*) = $m_avx512;)*
            }
        };
        #[cfg(target_arch = "aarch64")]
        const _: () = {
            use crate::simd::aarch64::lanes::{add_magic, bf16_odd, bf16_parts, store_codes, widen};
            use std::arch::aarch64::*;
            halves_impl! {
                uint16x8_t, 8, $signs_neon, $f32_neon;
                $(fn $f $(<$g>)? ($($a: $t),*) -> $r = $f_neon;)*
                $(self fn $m($s $(, $ma: $mt)*) = $m_neon;)*
            }
        };
    };
}

/// One ISA's column of [`halves_impls`]: the impl itself.
macro_rules! halves_impl {
    (
        $vector:ty, $lanes:expr, $byte_signs:expr, $f32_subnormals:expr;
        $(fn $f:ident $(<$g:ident>)? ($($a:ident: $t:ty),*) -> $r:ty = $fb:expr;)*
        $(self fn $m:ident($s:ident $(, $ma:ident: $mt:ty)*) = $mb:expr;)*
    ) => {
        impl Halves for $vector {
            const LANES: usize = $lanes;
            const BYTE_SIGNS: bool = $byte_signs;
            const F32_SUBNORMALS: bool = $f32_subnormals;
            $(
                #[inline(always)]
                unsafe fn $f $(<const $g: u8>)? ($($a: $t),*) -> $r {
                    // SAFETY: the trait's contract, as above.
                    unsafe { $fb }
                }
            )*
            $(
                #[inline(always)]
                unsafe fn $m($s $(, $ma: $mt)*) -> Self {
                    // SAFETY: the trait's contract, as above.
                    unsafe { $mb }
                }
            )*
        }
    };
}

halves_impls! {
    const BYTE_SIGNS: bool = { avx2: true, avx512: false, neon: false };
    const F32_SUBNORMALS: bool = { avx2: true, avx512: false, neon: false };
    fn load(p: *const u8) -> Self {
        avx2: _mm256_loadu_si256(p.cast()),
        avx512: _mm512_loadu_si512(p.cast()),
        neon: vreinterpretq_u16_u8(vld1q_u8(p)),
    }
    fn load_f32_odd(p: *const u8) -> Self {
        avx2: {
            let load = |k: usize| _mm256_loadu_si256(p.add(32 * k).cast());
            bf16_odd_pairs(load(0), load(1))
        },
        avx512: {
            let load = |k: usize| _mm512_loadu_si512(p.add(64 * k).cast());
            bf16_odd(load(0), load(1))
        },
        neon: {
            let load = |k: usize| vreinterpretq_u32_u8(vld1q_u8(p.add(16 * k)));
            bf16_odd(load(0), load(1))
        },
    }
    fn load_f32_parts(p: *const u8, lsb: u16) -> (Self, Self) {
        avx2: {
            let load = |k: usize| _mm256_loadu_si256(p.add(32 * k).cast());
            bf16_pairs_parts(load(0), load(1), lsb)
        },
        avx512: {
            let load = |k: usize| _mm512_loadu_si512(p.add(64 * k).cast());
            bf16_parts(load(0), load(1), lsb)
        },
        neon: {
            let load = |k: usize| vreinterpretq_u32_u8(vld1q_u8(p.add(16 * k)));
            bf16_parts(load(0), load(1), lsb)
        },
    }
    // Every narrowing gives 0xff for a 0x1ff lane (AVX2's saturates, AVX-512's byte
    // permute and NEON's keep the low byte).
    // Where `BYTE_SIGNS` is false, `signs` is not read (and `sign_bytes` not called).
    fn sign_bytes(lo: Self, hi: Self) -> Self {
        avx2: sign_bytes(lo, hi),
        avx512: _mm512_or_si512(lo, hi),
        neon: vorrq_u16(lo, hi),
    }
    fn store_codes<F>(di: &mut [u8], lo: Self, hi: Self, signs: Self) -> () {
        avx2: store_codes::<F>(di, pack_words(lo, hi, signed::<F>(signs))),
        avx512: {
            let _ = signs;
            store_codes::<F>(di, _mm512_permutex2var_epi8(lo, word_order(), hi))
        },
        neon: {
            let _ = signs;
            store_codes::<F>(di, vmovn_high_u16(vmovn_u16(lo), hi))
        },
    }
    fn store_f32_codes<F>(di: &mut [u8], lo: Self, hi: Self, signs: Self) -> () {
        avx2: store_codes::<F>(di, pack_pairs(lo, hi, signed::<F>(signs))),
        avx512: {
            let _ = signs;
            store_codes::<F>(di, _mm512_permutex2var_epi8(lo, word_order(), hi))
        },
        neon: {
            let _ = signs;
            store_codes::<F>(di, vmovn_high_u16(vmovn_u16(lo), hi))
        },
    }
    // The stores of one code per byte: `di` holds the `2 * LANES` bytes written.
    fn store_bytes<F>(di: &mut [u8], lo: Self, hi: Self, signs: Self) -> () {
        avx2: {
            let bytes = pack_words(lo, hi, signed::<F>(signs));
            _mm256_storeu_si256(di.as_mut_ptr().cast(), bytes)
        },
        avx512: {
            let _ = signs;
            let bytes = _mm512_permutex2var_epi8(lo, word_order(), hi);
            _mm512_storeu_si512(di.as_mut_ptr().cast(), bytes)
        },
        neon: {
            let _ = signs;
            vst1q_u8(di.as_mut_ptr(), vmovn_high_u16(vmovn_u16(lo), hi))
        },
    }
    fn store_f32_bytes<F>(di: &mut [u8], lo: Self, hi: Self, signs: Self) -> () {
        avx2: {
            let bytes = pack_pairs(lo, hi, signed::<F>(signs));
            _mm256_storeu_si256(di.as_mut_ptr().cast(), bytes)
        },
        avx512: {
            let _ = signs;
            let bytes = _mm512_permutex2var_epi8(lo, word_order(), hi);
            _mm512_storeu_si512(di.as_mut_ptr().cast(), bytes)
        },
        neon: {
            let _ = signs;
            vst1q_u8(di.as_mut_ptr(), vmovn_high_u16(vmovn_u16(lo), hi))
        },
    }
    fn splat(x: u16) -> Self {
        avx2: _mm256_set1_epi16(x as i16),
        avx512: _mm512_set1_epi16(x as i16),
        neon: vdupq_n_u16(x),
    }
    fn kept_splat(x: u16) -> Self {
        avx2: kept_splat(x),
        avx512: _mm512_set1_epi16(x as i16),
        neon: vdupq_n_u16(x),
    }
    fn add_magic<SRC>(h: Self, abs: Self, magic: u32) -> Self {
        avx2: add_magic::<SRC>(h, abs, magic),
        avx512: {
            let _ = h;
            add_magic::<SRC>(abs, magic)
        },
        neon: {
            let _ = h;
            add_magic::<SRC>(abs, magic)
        },
    }
    // Where `F32_SUBNORMALS` is false, not called: the bfloat16 rounding's, as above.
    fn f32_add_magic(p: *const u8, h: Self, magic: u32, negated: bool) -> Self {
        avx2: f32_add_magic(p, h, magic, negated),
        avx512: {
            let _ = (p, negated);
            add_magic::<1>(h.and(Self::splat(0x7fff)), magic)
        },
        neon: {
            let _ = (p, negated);
            add_magic::<1>(h.and(Self::splat(0x7fff)), magic)
        },
    }
    fn narrow_unsigned(lo: Self, hi: Self) -> Self {
        avx2: _mm256_packus_epi16(lo, hi),
        avx512: _mm512_packus_epi16(lo, hi),
        neon: {
            let (a, b) = (vreinterpretq_s16_u16(lo), vreinterpretq_s16_u16(hi));
            vreinterpretq_u16_u8(vqmovun_high_s16(vqmovun_s16(a), b))
        },
    }
    fn store_f32_narrowed<F>(di: &mut [u8], bytes: Self, signs: Self) -> () {
        avx2: store_codes::<F>(di, pairs_in_order(with_signs(bytes, signed::<F>(signs)))),
        avx512: {
            let _ = (di, bytes, signs);
            no_byte_signs()
        },
        neon: {
            let _ = (di, bytes, signs);
            no_byte_signs()
        },
    }
    fn store_narrowed<F>(di: &mut [u8], bytes: Self, signs: Self) -> () {
        avx2: {
            let bytes = with_signs(bytes, signed::<F>(signs));
            store_codes::<F>(di, _mm256_permute4x64_epi64::<0b11_01_10_00>(bytes))
        },
        avx512: {
            let _ = (di, bytes, signs);
            no_byte_signs()
        },
        neon: {
            let _ = (di, bytes, signs);
            no_byte_signs()
        },
    }
    fn narrow_signed(lo: Self, hi: Self) -> Self {
        avx2: _mm256_packs_epi16(lo, hi),
        avx512: _mm512_packs_epi16(lo, hi),
        neon: {
            let (a, b) = (vreinterpretq_s16_u16(lo), vreinterpretq_s16_u16(hi));
            vreinterpretq_u16_s8(vqmovn_high_s16(vqmovn_s16(a), b))
        },
    }
    fn table_bytes(table: &[u8; 16], idx: Self) -> Self {
        avx2: {
            let t = _mm256_broadcastsi128_si256(_mm_loadu_si128(table.as_ptr().cast()));
            _mm256_shuffle_epi8(t, idx)
        },
        avx512: {
            let t = _mm512_broadcast_i32x4(_mm_loadu_si128(table.as_ptr().cast()));
            _mm512_shuffle_epi8(t, idx)
        },
        neon: {
            let t = vld1q_u8(table.as_ptr());
            vreinterpretq_u16_u8(vqtbl1q_u8(t, vreinterpretq_u8_u16(idx)))
        },
    }
    fn store_fp4(di: &mut [u8], bytes: Self, unpacked: bool) -> () {
        avx2: {
            if unpacked {
                let codes = _mm256_permute4x64_epi64::<0b11_01_10_00>(bytes);
                _mm256_storeu_si256(di.as_mut_ptr().cast(), codes)
            } else {
                // Pairs of adjacent codes into one byte each; each 128-bit lane then
                // holds four bytes of `lo` and four of `hi`, which the interleave of
                // 32-bit units puts in order.
                let words = _mm256_maddubs_epi16(bytes, _mm256_set1_epi16(0x1001));
                let packed = _mm256_packus_epi16(words, words);
                let low = _mm256_castsi256_si128(packed);
                let ordered = _mm_unpacklo_epi32(low, _mm256_extracti128_si256::<1>(packed));
                _mm_storeu_si128(di.as_mut_ptr().cast(), ordered)
            }
        },
        avx512: {
            if unpacked {
                let codes = _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), bytes);
                _mm512_storeu_si512(di.as_mut_ptr().cast(), codes)
            } else {
                let words = _mm512_maddubs_epi16(bytes, _mm512_set1_epi16(0x1001));
                let ordered = _mm512_permutexvar_epi8(fp4_pairs(), words);
                _mm256_storeu_si256(di.as_mut_ptr().cast(), _mm512_castsi512_si256(ordered))
            }
        },
        neon: {
            if unpacked {
                vst1q_u8(di.as_mut_ptr(), vreinterpretq_u8_u16(bytes))
            } else {
                // Word k holds codes 2k and 2k + 1: the second moves down into the high
                // nibble of the low byte, which the narrowing keeps.
                vst1_u8(di.as_mut_ptr(), vmovn_u16(vsraq_n_u16::<4>(bytes, bytes)))
            }
        },
    }
    fn store_f32_fp4(di: &mut [u8], bytes: Self, unpacked: bool) -> () {
        avx2: {
            // Each 128-bit lane: four-code groups 0, 2, 4, 6 (low), 1, 3, 5, 7 (high).
            let groups = _mm256_shuffle_epi8(bytes, unzip_pairs());
            if unpacked {
                let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
                let codes = _mm256_permutevar8x32_epi32(groups, order);
                _mm256_storeu_si256(di.as_mut_ptr().cast(), codes)
            } else {
                let words = _mm256_maddubs_epi16(groups, _mm256_set1_epi16(0x1001));
                let packed = _mm256_packus_epi16(words, words);
                let low = _mm256_castsi256_si128(packed);
                let ordered = _mm_unpacklo_epi16(low, _mm256_extracti128_si256::<1>(packed));
                _mm_storeu_si128(di.as_mut_ptr().cast(), ordered)
            }
        },
        avx512: Self::store_fp4(di, bytes, unpacked),
        neon: Self::store_fp4(di, bytes, unpacked),
    }
    fn select(mask: Self, yes: Self, no: Self) -> Self {
        avx2: _mm256_blendv_epi8(no, yes, mask),
        avx512: _mm512_mask_blend_epi16(_mm512_movepi16_mask(mask), no, yes),
        neon: vbslq_u16(mask, yes, no),
    }
    self fn and(self, other: Self) {
        avx2: _mm256_and_si256(self, other),
        avx512: _mm512_and_si512(self, other),
        neon: vandq_u16(self, other),
    }
    self fn or(self, other: Self) {
        avx2: _mm256_or_si256(self, other),
        avx512: _mm512_or_si512(self, other),
        neon: vorrq_u16(self, other),
    }
    self fn xor(self, other: Self) {
        avx2: _mm256_xor_si256(self, other),
        avx512: _mm512_xor_si512(self, other),
        neon: veorq_u16(self, other),
    }
    self fn and_not(self, other: Self) {
        avx2: _mm256_andnot_si256(self, other),
        avx512: _mm512_andnot_si512(self, other),
        neon: vbicq_u16(other, self),
    }
    self fn add(self, other: Self) {
        avx2: _mm256_add_epi16(self, other),
        avx512: _mm512_add_epi16(self, other),
        neon: vaddq_u16(self, other),
    }
    self fn sub(self, other: Self) {
        avx2: _mm256_sub_epi16(self, other),
        avx512: _mm512_sub_epi16(self, other),
        neon: vsubq_u16(self, other),
    }
    self fn sub_sat(self, other: Self) {
        avx2: _mm256_subs_epu16(self, other),
        avx512: _mm512_subs_epu16(self, other),
        neon: vqsubq_u16(self, other),
    }
    self fn min(self, other: Self) {
        avx2: _mm256_min_epu16(self, other),
        avx512: _mm512_min_epu16(self, other),
        neon: vminq_u16(self, other),
    }
    self fn max_signed(self, other: Self) {
        avx2: _mm256_max_epi16(self, other),
        avx512: _mm512_max_epi16(self, other),
        neon: {
            let (a, b) = (vreinterpretq_s16_u16(self), vreinterpretq_s16_u16(other));
            vreinterpretq_u16_s16(vmaxq_s16(a, b))
        },
    }
    self fn gt(self, other: Self) {
        avx2: _mm256_cmpgt_epi16(self, other),
        avx512: _mm512_movm_epi16(_mm512_cmpgt_epi16_mask(self, other)),
        neon: vcgtq_s16(vreinterpretq_s16_u16(self), vreinterpretq_s16_u16(other)),
    }
    self fn eq(self, other: Self) {
        avx2: _mm256_cmpeq_epi16(self, other),
        avx512: _mm512_movm_epi16(_mm512_cmpeq_epi16_mask(self, other)),
        neon: vceqq_u16(self, other),
    }
    self fn shr(self, n: u32) {
        avx2: _mm256_srl_epi16(self, _mm_cvtsi32_si128(n as i32)),
        avx512: _mm512_srl_epi16(self, _mm_cvtsi32_si128(n as i32)),
        neon: vshlq_u16(self, vdupq_n_s16(-(n as i16))),
    }
    self fn negative(self) {
        avx2: _mm256_srai_epi16::<15>(self),
        avx512: _mm512_srai_epi16::<15>(self),
        neon: vcltzq_s16(vreinterpretq_s16_u16(self)),
    }
    self fn f16_to_bf16_odd(self) {
        avx2: f32x16_to_bf16_odd(f16x8_to_f32(self, 0), f16x8_to_f32(self, 1)),
        avx512: f32x32_to_bf16_odd(f16x16_to_f32(self, 0), f16x16_to_f32(self, 1)),
        neon: {
            let (lo, hi) = widen(self);
            bf16_odd(vreinterpretq_u32_f32(lo), vreinterpretq_u32_f32(hi))
        },
    }
    self fn sign_of_bytes(self, signs: Self) {
        avx2: _mm256_sign_epi8(self, signs),
        avx512: {
            let negative = _mm512_movepi8_mask(signs);
            let zero = _mm512_cmpeq_epi8_mask(signs, _mm512_setzero_si512());
            let negated = _mm512_mask_sub_epi8(self, negative, _mm512_setzero_si512(), self);
            _mm512_maskz_mov_epi8(!zero, negated)
        },
        neon: {
            let s = vreinterpretq_s8_u16(signs);
            let v = vreinterpretq_s8_u16(self);
            let negated = vbslq_s8(vcltzq_s8(s), vnegq_s8(v), v);
            vreinterpretq_u16_s8(vandq_s8(negated, vreinterpretq_s8_u8(vtstq_s8(s, s))))
        },
    }
    self fn min_ubytes(self, other: Self) {
        avx2: _mm256_min_epu8(self, other),
        avx512: _mm512_min_epu8(self, other),
        neon: vreinterpretq_u16_u8(vminq_u8(vreinterpretq_u8_u16(self), vreinterpretq_u8_u16(other))),
    }
    self fn max_ubytes(self, other: Self) {
        avx2: _mm256_max_epu8(self, other),
        avx512: _mm512_max_epu8(self, other),
        neon: vreinterpretq_u16_u8(vmaxq_u8(vreinterpretq_u8_u16(self), vreinterpretq_u8_u16(other))),
    }
    self fn min_bytes(self, other: Self) {
        avx2: _mm256_min_epi8(self, other),
        avx512: _mm512_min_epi8(self, other),
        neon: {
            let (a, b) = (vreinterpretq_s8_u16(self), vreinterpretq_s8_u16(other));
            vreinterpretq_u16_s8(vminq_s8(a, b))
        },
    }
    self fn gt_bytes(self, other: Self) {
        avx2: _mm256_cmpgt_epi8(self, other),
        avx512: _mm512_movm_epi8(_mm512_cmpgt_epi8_mask(self, other)),
        neon: {
            let (a, b) = (vreinterpretq_s8_u16(self), vreinterpretq_s8_u16(other));
            vreinterpretq_u16_u8(vcgtq_s8(a, b))
        },
    }
    self fn sub_bytes(self, other: Self) {
        avx2: _mm256_sub_epi8(self, other),
        avx512: _mm512_sub_epi8(self, other),
        neon: {
            let (a, b) = (vreinterpretq_u8_u16(self), vreinterpretq_u8_u16(other));
            vreinterpretq_u16_u8(vsubq_u8(a, b))
        },
    }
    self fn nonnegative_bytes(self, v: u8) {
        avx2: _mm256_shuffle_epi8(_mm256_set1_epi8(v as i8), self),
        avx512: _mm512_shuffle_epi8(_mm512_set1_epi8(v as i8), self),
        neon: {
            let nonnegative = vcgezq_s8(vreinterpretq_s8_u16(self));
            vreinterpretq_u16_u8(vandq_u8(nonnegative, vdupq_n_u8(v)))
        },
    }
    self fn shr_signed(self, n: u32) {
        avx2: _mm256_sra_epi16(self, _mm_cvtsi32_si128(n as i32)),
        avx512: _mm512_sra_epi16(self, _mm_cvtsi32_si128(n as i32)),
        neon: {
            let shifted = vshlq_s16(vreinterpretq_s16_u16(self), vdupq_n_s16(-(n as i16)));
            vreinterpretq_u16_s16(shifted)
        },
    }
}
