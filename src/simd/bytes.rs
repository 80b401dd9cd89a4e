// SPDX-License-Identifier: MIT OR Apache-2.0
//! The vector the low-precision decoders (`decode.rs`) are written over, [`Bytes`]: byte
//! lanes with a table lookup by byte shuffle (`vpshufb`, `vpermb` on x86-64, `tbl` on
//! NEON), and its implementation on each ISA as one table: a row per operation, with its
//! AVX2 and NEON bodies side by side (the helpers they name are in `x86_64/bytes.rs` and
//! `aarch64/bytes.rs`).

use crate::simd::lanes::Halves;

/// A vector of byte lanes of one ISA, with the operations the decoders are written over.
/// Comparisons give masks (a lane of all ones where true). The methods are the family's
/// intrinsics: each requires the CPU to run the family the type belongs to.
pub(crate) trait Bytes: Copy {
    /// Lanes of a vector: the codes of one decoder step.
    const WIDTH: usize;
    /// Whether the stores can bypass the cache (then [`Self::fence`] orders them).
    const STREAMS: bool;
    /// Inputs of at least this many bytes are prefetched ahead ([`Self::prefetch_ahead`]).
    const PREFETCH_MIN: usize;
    /// Whether 6-bit codes whose entries split into magnitude and sign are cheaper to
    /// look up by their 32 magnitudes ([`Self::lookup32`]) than by all 64 codes
    /// ([`Self::lookup64`]): on AVX2 two 16-entry lookups and a select against four
    /// lookups and their XORs; NEON's TBL reaches 64 entries in one instruction.
    const SPLIT_SIXES: bool;
    /// Whether [`Self::unpack`] gives the codes in the lanes from which [`Self::zip`] and
    /// the stores write their results in element order without a move across lanes (the
    /// stores' `in_order`). AVX2: the unpack moves the packed bytes (a broadcast and an
    /// in-lane shuffle; for 6-bit codes a `vpermd`) where the stores took two or four
    /// `vperm2i128` and the unpack a `vinserti128`.
    const UNPACKS_IN_STORE_ORDER: bool;
    /// The ISA's vector of 16-bit lanes, which two byte vectors interleave into.
    type Words: Halves;
    /// A 32-entry lookup table of [`Self::lookup32`].
    type Table32: Copy;
    /// A 64-entry lookup table of [`Self::lookup64`].
    type Table64: Copy;
    /// `WIDTH` bytes from `p`.
    unsafe fn load(p: *const u8) -> Self;
    /// Every lane `x`.
    unsafe fn splat(x: u8) -> Self;
    unsafe fn and(self, other: Self) -> Self;
    unsafe fn or(self, other: Self) -> Self;
    unsafe fn eq(self, other: Self) -> Self;
    /// Signed `self > other`.
    unsafe fn gt(self, other: Self) -> Self;
    /// Wrapping subtraction.
    unsafe fn sub(self, other: Self) -> Self;
    /// Unsigned addition that stops at 255.
    unsafe fn add_sat(self, other: Self) -> Self;
    /// Unsigned subtraction that stops at zero.
    unsafe fn sub_sat(self, other: Self) -> Self;
    /// Unsigned minimum.
    unsafe fn min(self, other: Self) -> Self;
    /// Each byte shifted right by `N` (1 to 7), zeros shifted in.
    unsafe fn shr<const N: i32>(self) -> Self;
    /// Each byte shifted left by `N` (1 to 7), zeros shifted in.
    unsafe fn shl<const N: i32>(self) -> Self;
    /// Each byte shifted right by `n` (0 to 8), zeros shifted in.
    unsafe fn shr_by(self, n: u32) -> Self;
    /// Each byte shifted left by `n` (0 to 8), zeros shifted in.
    unsafe fn shl_by(self, n: u32) -> Self;
    /// `yes` where `mask` is set, `no` elsewhere.
    unsafe fn select(mask: Self, yes: Self, no: Self) -> Self;
    /// Each lane's entry in `table`'s first 16 bytes (which `table` holds again in every
    /// further 16): entry `index & 15` for an index below 0x80, zero for one at or above
    /// (`vpshufb`'s rule).
    unsafe fn lookup16(table: Self, index: Self) -> Self;
    /// The table of 32 entries, 0-15 in `low`'s first 16 bytes and 16-31 in `high`'s
    /// (each 32-byte array holds its 16 twice). `WIDE`: for [`Self::lookup32`] by the
    /// family's 32-byte permute.
    unsafe fn table32<const WIDE: bool>(low: &[u8; 32], high: &[u8; 32]) -> Self::Table32;
    /// Each lane's entry (an index below 32). `WIDE`: by one byte permute, which
    /// AVX-512VBMI has (then the CPU runs `x86_64::vbmi_family`); otherwise two
    /// 16-entry lookups and a select where the ISA needs them.
    unsafe fn lookup32<const WIDE: bool>(table: &Self::Table32, index: Self) -> Self;
    /// The table of the 64 entries of `plane`.
    unsafe fn table64(plane: &[u8; 64]) -> Self::Table64;
    /// Each lane's entry (an index below 64).
    unsafe fn lookup64(table: &Self::Table64, index: Self) -> Self;
    /// The `WIDTH` codes of `BITS` bits (4, 2 or 6) packed at `p` (the first in the
    /// lowest bits; `WIDTH * BITS / 8` bytes, eight more read for 6-bit codes), one per
    /// lane: in element order, or where [`Self::UNPACKS_IN_STORE_ORDER`] in the order
    /// [`Self::store16`] (`size` 2) or [`Self::store32`] (`size` 4) takes `in_order`.
    unsafe fn unpack<const BITS: u8>(p: *const u8, size: usize) -> Self;
    /// The 16-bit words whose low bytes are `lo`'s and high bytes `hi`'s, in the order
    /// [`Self::store16`] and [`Self::store32`] put back.
    unsafe fn zip(lo: Self, hi: Self) -> (Self::Words, Self::Words);
    /// Each word shifted left by `n` (below 16).
    unsafe fn shl_words(w: Self::Words, n: u32) -> Self::Words;
    /// Stores the `WIDTH` words of `zip`'s pair at `out` (`2 * WIDTH` bytes), element
    /// order (`in_order`: of codes in the order [`Self::unpack`] gives them),
    /// streaming where `stream` (then `out` is 32-byte aligned).
    unsafe fn store16(
        out: *mut u8,
        words: (Self::Words, Self::Words),
        in_order: bool,
        stream: bool,
    );
    /// Stores `WIDTH` 32-bit values, their low halves `low`'s words and their high
    /// halves `high`'s, at `out` (`4 * WIDTH` bytes), as [`Self::store16`].
    unsafe fn store32(
        out: *mut u8,
        low: (Self::Words, Self::Words),
        high: (Self::Words, Self::Words),
        in_order: bool,
        stream: bool,
    );
    /// Orders streamed stores before the ones that follow.
    unsafe fn fence();
    /// Prefetches the input some way past `p`.
    unsafe fn prefetch_ahead(p: *const u8);
}

/// Implements [`Bytes`] for each ISA's vector from the table below: one row per method,
/// its body on AVX2 (`__m256i`, 32 lanes) and on NEON (`uint8x16_t`, 16 lanes). Each
/// body runs in an `unsafe` block: the trait's contract (the CPU runs the vector type's
/// family; a pointer holds the bytes the method's documentation names) is what the
/// intrinsics require.
macro_rules! bytes_impls {
    (
        $(self.$op:ident: $op_avx2:ident, $op_neon:ident;)*
        $(fn $f:ident $(<$(const $g:ident: $gt:ty),+>)? ($($args:tt)*) $(-> $r:ty)? {
            avx2: $avx2:expr, neon: $neon:expr $(,)?
        })*
    ) => {
        #[cfg(target_arch = "x86_64")]
        const _: () = {
            use crate::simd::x86_64::bytes::{
                permute_bytes, six_lookup, six_rows, store_in_order, unpack_codes, PREFETCH_AHEAD,
                PREFETCH_MIN_BYTES,
            };
            use std::arch::x86_64::*;
            bytes_impls! {
                @impl __m256i, [32, true, PREFETCH_MIN_BYTES, true, true], [__m256i, [__m256i; 2], [__m256i; 4]];
                $(self.$op: $op_avx2;)* $(fn $f $(<$(const $g: $gt),+>)? ($($args)*) $(-> $r)? = $avx2;)*
            }
        };
        #[cfg(target_arch = "aarch64")]
        const _: () = {
            use crate::simd::aarch64::bytes::unpack_codes;
            use std::arch::aarch64::*;
            bytes_impls! {
                @impl uint8x16_t, [16, false, usize::MAX, false, false], [uint16x8_t, uint8x16x2_t, uint8x16x4_t];
                $(self.$op: $op_neon;)* $(fn $f $(<$(const $g: $gt),+>)? ($($args)*) $(-> $r)? = $neon;)*
            }
        };
    };
    // One ISA's column: the vector type, its constants (`WIDTH`, `STREAMS`,
    // `PREFETCH_MIN`, `SPLIT_SIXES`, `UNPACKS_IN_STORE_ORDER`) and types (`Words`, `Table32`,
    // `Table64`).
    (
        @impl $vector:ty, [$width:expr, $streams:expr, $prefetch:expr, $split:expr, $ordered:expr],
        [$words:ty, $table32:ty, $table64:ty];
        $(self.$op:ident: $op_fn:ident;)*
        $(fn $f:ident $(<$(const $g:ident: $gt:ty),+>)? ($($args:tt)*) $(-> $r:ty)? = $body:expr;)*
    ) => {
        impl Bytes for $vector {
            const WIDTH: usize = $width;
            const STREAMS: bool = $streams;
            const PREFETCH_MIN: usize = $prefetch;
            const SPLIT_SIXES: bool = $split;
            const UNPACKS_IN_STORE_ORDER: bool = $ordered;
            type Words = $words;
            type Table32 = $table32;
            type Table64 = $table64;
            $(
                #[inline(always)]
                unsafe fn $op(self, other: Self) -> Self {
                    // SAFETY: the trait's contract, as above.
                    unsafe { $op_fn(self, other) }
                }
            )*
            $(
                #[inline(always)]
                #[allow(unused_unsafe)]
                unsafe fn $f $(<$(const $g: $gt),+>)? ($($args)*) $(-> $r)? {
                    // SAFETY: the trait's contract, as above.
                    unsafe { $body }
                }
            )*
        }
    };
}

bytes_impls! {
    // `self.op(other)`, one intrinsic each.
    self.and: _mm256_and_si256, vandq_u8;
    self.or: _mm256_or_si256, vorrq_u8;
    self.eq: _mm256_cmpeq_epi8, vceqq_u8;
    self.sub: _mm256_sub_epi8, vsubq_u8;
    self.add_sat: _mm256_adds_epu8, vqaddq_u8;
    self.sub_sat: _mm256_subs_epu8, vqsubq_u8;
    self.min: _mm256_min_epu8, vminq_u8;
    fn load(p: *const u8) -> Self {
        avx2: _mm256_loadu_si256(p.cast()),
        neon: vld1q_u8(p),
    }
    fn splat(x: u8) -> Self {
        avx2: _mm256_set1_epi8(x as i8),
        neon: vdupq_n_u8(x),
    }
    fn gt(self, other: Self) -> Self {
        avx2: _mm256_cmpgt_epi8(self, other),
        neon: vcgtq_s8(vreinterpretq_s8_u8(self), vreinterpretq_s8_u8(other)),
    }
    // AVX2 shifts 16-bit lanes: the bits that cross into the next byte are masked off.
    fn shr<const N: i32>(self) -> Self {
        avx2: _mm256_and_si256(_mm256_srli_epi16::<N>(self), _mm256_set1_epi8((0xff >> N) as i8)),
        neon: vshrq_n_u8::<N>(self),
    }
    fn shl<const N: i32>(self) -> Self {
        avx2: _mm256_and_si256(_mm256_slli_epi16::<N>(self), _mm256_set1_epi8((0xff << N) as u8 as i8)),
        neon: vshlq_n_u8::<N>(self),
    }
    fn shr_by(self, n: u32) -> Self {
        avx2: _mm256_and_si256(
            _mm256_srl_epi16(self, _mm_cvtsi32_si128(n as i32)),
            _mm256_set1_epi8((0xffu16 >> n) as u8 as i8),
        ),
        neon: vshlq_u8(self, vdupq_n_s8(-(n as i8))),
    }
    fn shl_by(self, n: u32) -> Self {
        avx2: _mm256_and_si256(
            _mm256_sll_epi16(self, _mm_cvtsi32_si128(n as i32)),
            _mm256_set1_epi8((0xffu16 << n) as u8 as i8),
        ),
        neon: vshlq_u8(self, vdupq_n_s8(n as i8)),
    }
    fn select(mask: Self, yes: Self, no: Self) -> Self {
        avx2: _mm256_blendv_epi8(no, yes, mask),
        neon: vbslq_u8(mask, yes, no),
    }
    // TBL gives zero for an index of 16 or more: the mask keeps the top bit and the
    // nibble, as `vpshufb` reads them.
    fn lookup16(table: Self, index: Self) -> Self {
        avx2: _mm256_shuffle_epi8(table, index),
        neon: vqtbl1q_u8(table, vandq_u8(index, vdupq_n_u8(0x8f))),
    }
    fn table32<const WIDE: bool>(low: &[u8; 32], high: &[u8; 32]) -> Self::Table32 {
        avx2: if WIDE {
            let half = |bytes: &[u8; 32]| _mm_loadu_si128(bytes.as_ptr().cast());
            [_mm256_set_m128i(half(high), half(low)), _mm256_setzero_si256()]
        } else {
            [_mm256_loadu_si256(low.as_ptr().cast()), _mm256_loadu_si256(high.as_ptr().cast())]
        },
        neon: uint8x16x2_t(vld1q_u8(low.as_ptr()), vld1q_u8(high.as_ptr())),
    }
    fn lookup32<const WIDE: bool>(table: &Self::Table32, index: Self) -> Self {
        avx2: if WIDE {
            permute_bytes(table[0], index)
        } else {
            let upper = _mm256_cmpgt_epi8(index, _mm256_set1_epi8(15));
            let (low, high) = (table[0], table[1]);
            _mm256_blendv_epi8(_mm256_shuffle_epi8(low, index), _mm256_shuffle_epi8(high, index), upper)
        },
        neon: vqtbl2q_u8(*table, index),
    }
    fn table64(plane: &[u8; 64]) -> Self::Table64 {
        avx2: six_rows(plane),
        neon: {
            let row = |r: usize| vld1q_u8(plane.as_ptr().add(16 * r));
            uint8x16x4_t(row(0), row(1), row(2), row(3))
        },
    }
    fn lookup64(table: &Self::Table64, index: Self) -> Self {
        avx2: six_lookup(table, index),
        neon: vqtbl4q_u8(*table, index),
    }
    fn unpack<const BITS: u8>(p: *const u8, size: usize) -> Self {
        avx2: unpack_codes::<BITS>(p, size),
        neon: {
            let _ = size;
            unpack_codes::<BITS>(p)
        },
    }
    fn zip(lo: Self, hi: Self) -> (Self::Words, Self::Words) {
        avx2: (_mm256_unpacklo_epi8(lo, hi), _mm256_unpackhi_epi8(lo, hi)),
        neon: (vreinterpretq_u16_u8(vzip1q_u8(lo, hi)), vreinterpretq_u16_u8(vzip2q_u8(lo, hi))),
    }
    fn shl_words(w: Self::Words, n: u32) -> Self::Words {
        avx2: _mm256_sll_epi16(w, _mm_cvtsi32_si128(n as i32)),
        neon: vshlq_u16(w, vdupq_n_s16(n as i16)),
    }
    fn store16(out: *mut u8, words: (Self::Words, Self::Words), in_order: bool, stream: bool) {
        avx2: store_in_order(out, words, None, in_order, stream),
        neon: {
            let _ = (in_order, stream);
            vst1q_u8(out, vreinterpretq_u8_u16(words.0));
            vst1q_u8(out.add(16), vreinterpretq_u8_u16(words.1));
        },
    }
    fn store32(
        out: *mut u8,
        low: (Self::Words, Self::Words),
        high: (Self::Words, Self::Words),
        in_order: bool,
        stream: bool
    ) {
        avx2: store_in_order(out, low, Some(high), in_order, stream),
        neon: {
            let _ = (in_order, stream);
            for (k, (l, h)) in [(low.0, high.0), (low.1, high.1)].into_iter().enumerate() {
                vst1q_u8(out.add(32 * k), vreinterpretq_u8_u16(vzip1q_u16(l, h)));
                vst1q_u8(out.add(32 * k + 16), vreinterpretq_u8_u16(vzip2q_u16(l, h)));
            }
        },
    }
    fn fence() {
        avx2: _mm_sfence(),
        neon: {},
    }
    fn prefetch_ahead(p: *const u8) {
        avx2: _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(PREFETCH_AHEAD).cast()),
        neon: {
            let _ = p;
        },
    }
}
