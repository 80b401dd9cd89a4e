// SPDX-License-Identifier: MIT OR Apache-2.0
//! AVX2-family cast kernels. Loads and stores are unaligned (buffers carry no alignment
//! guarantee); each loop handles whole vectors and leaves the tail to the scalar
//! conversion, which rounds identically. The low-precision encoders are written once
//! for both ISAs in `simd/encode.rs`, over a vector trait this file implements for
//! `__m256i`; what stays here is what only AVX2 does (the four streams, the FLOAT4E2M1
//! and integer steps, the packing of codes).
//!
//! The bodies are `#[inline(always)]` functions without target features of their own;
//! the entry points at the top, compiled with the family's features, are what kernels
//! point to, and the bodies (with the intrinsics they call) are inlined into them.

use super::lanes::{bf16_odd_pairs, store_codes, unzip_pairs};
use super::{avx2_family, Avx2};
#[cfg(tcast_avx512)]
use super::{avx512_family, vbmi_family, with_avx512, with_vbmi};
use crate::dtype::Scalar;
use crate::formats::convert::{f32_to_bf16_bits, f32_to_f16_bits, f64_to_f16_bits};
use crate::formats::lowp::{Kind, FORMATS};
use crate::formats::lut::{lut_all, lut_size, Lut, Sixes, LUT_BF16, LUT_F32};
use crate::formats::pack;
use crate::simd::cpu::Tier;
use crate::simd::encode;
use crate::simd::encoders::code_bytes;
use crate::simd::family::{bodies, enable_features, family_entry, scalar_tail, Body, Run};
use crate::simd::kernel::{Kernel, STREAM_MIN_BYTES};
use half::{bf16, f16};
use std::arch::x86_64::*;

family_entry!(avx2_family, Avx2, Tier::Avx2);

#[cfg(tcast_avx512)]
avx512_family! { enable_features! {
    /// `entry::<B>` compiled with AVX-512's features too: the same body, given 32
    /// vector registers, masks and `vpternlog` by the compiler.
    ///
    /// # Safety
    /// The CPU runs [`avx512_family`]; the sizes of the kernel for `B`.
    unsafe fn entry_avx512<B: Body>(src: &[u8], dst: &mut [u8]) {
        // SAFETY: the caller's promise is the body's.
        unsafe { B::run(src, dst) }
    }
} }

#[cfg(tcast_avx512)]
vbmi_family! { enable_features! {
    /// `entry::<B>` compiled with AVX-512VBMI's features too, for the bodies that use
    /// its byte permutes.
    ///
    /// # Safety
    /// The CPU runs [`vbmi_family`]; the sizes of the kernel for `B`.
    unsafe fn entry_vbmi<B: Body>(src: &[u8], dst: &mut [u8]) {
        // SAFETY: the caller's promise is the body's.
        unsafe { B::run(src, dst) }
    }
} }

/// The encoders' entry point for body `B`: the AVX-512 build where the token has it.
/// The encoders keep four streams of about 30 vector values each in flight, which
/// AVX2's 16 registers cannot hold: with 32, and with masks and `vpternlog`, FLOAT ->
/// FLOAT8 ran 20% faster and FLOAT -> FLOAT6E2M3 27% on data in L2 (benches/cast.rs).
/// DOUBLE -> FLOAT16 (four streams too, and the round-to-odd's logic chain) takes it as
/// well: 38 -> 50 GB/s in L2, 0.94-1.03 -> 1.03-1.08x memcpy at 16M elements. The other
/// hand-written kernels measured the same in both builds and keep the AVX2 one.
fn encoder_entry<B: Body>(token: Avx2) -> Run {
    #[cfg(tcast_avx512)]
    if token.avx512().is_some() {
        return entry_avx512::<B>;
    }
    let _ = token;
    entry::<B>
}

bodies! {
    F32ToF16 => f32_to_f16;
    F16ToF32 => f16_to_f32;
    F64ToF16 => f64_to_f16;
    F64ToF32 => f64_to_f32;
    F32ToBf16 => f32_to_bf16;
    F32ToBool => f32_to_bool;
    F32ToI32 => f32_to_i32;
    I32ToF32 => i32_to_f32;
    I64ToI32 => i64_to_i32;
    U8ToF32 => u8_to_f32;
    I8ToF32 => i8_to_f32;
    Bf16ToF32 => bf16_to_f32;
    DecodeLut<const F: u8, const T: u8> => decode_lut_body;
    DecodeE8m0<const F: u8, const T: u8> => decode_e8m0_body;
    DecodeEights<const F: u8, const T: u8> => decode_eights_body;
    DecodePacked<const F: u8, const T: u8> => decode_packed_body;
}

#[cfg(tcast_avx512)]
bodies! {
    DecodeSixesVbmi<const F: u8, const T: u8> => decode_sixes_vbmi_body;
}

/// The hand-written kernel for a pair of standard types, if there is one.
pub fn special(from: Scalar, to: Scalar, token: Avx2) -> Option<Kernel> {
    let (run, streams): (Run, bool) = match (from, to) {
        (Scalar::F32, Scalar::F16) => (entry::<F32ToF16>, false),
        (Scalar::F16, Scalar::F32) => (entry::<F16ToF32>, true),
        (Scalar::F64, Scalar::F16) => (encoder_entry::<F64ToF16>(token), false),
        (Scalar::F64, Scalar::F32) => (entry::<F64ToF32>, true),
        (Scalar::F32, Scalar::Bf16) => (entry::<F32ToBf16>, false),
        (Scalar::F32, Scalar::Bool) => (entry::<F32ToBool>, false),
        (Scalar::F32, Scalar::I32) => (entry::<F32ToI32>, true),
        (Scalar::I32, Scalar::F32) => (entry::<I32ToF32>, true),
        (Scalar::I64, Scalar::I32) => (entry::<I64ToI32>, true),
        (Scalar::U8, Scalar::F32) => (entry::<U8ToF32>, true),
        (Scalar::I8, Scalar::F32) => (entry::<I8ToF32>, true),
        (Scalar::Bf16, Scalar::F32) => (entry::<Bf16ToF32>, true),
        _ => return None,
    };
    let kernel = kernel(run, from.size(), to.size(), token);
    Some(if streams { kernel.streaming() } else { kernel })
}

/// Runs `$step(si, di)` (an `#[inline(always)]` step: `$in` source bytes to `$out`
/// output bytes) over the whole steps of `$src` and `$dst` as four streams: the four
/// quarters of the steps advance together, one step of each per turn (the last quarter
/// also takes the steps left over, after the others end), each prefetched
/// `PREFETCH_AHEAD` bytes ahead. One thread here streams a single run of reads at 11-14
/// GB/s and two far-apart runs at 16-21 GB/s (the hardware prefetcher follows each).
/// For the encoders, which read four to sixteen times the bytes they write
/// (benches/cast.rs, one run each): FLOAT -> INT4 went from 0.76x memcpy to 0.85x with
/// prefetch alone and 1.04x with two streams, FLOAT -> FLOAT8E4M3FN from 0.77 to 0.92x
/// with two; in a later run, where two streams gave the FLOAT8 and FLOAT6 encoders
/// 0.75-0.79x, four gave them 0.84-0.91x (eight: 0.80-0.85x). A macro, so that the step
/// inlines into the calling kernel.
macro_rules! four_streams {
    ($step:expr, $in:expr, $out:expr, $src:expr, $dst:expr) => {{
        let (src, dst): (&[u8], &mut [u8]) = ($src, $dst);
        let ahead = prefetches(src);
        let quarter = src.len() / $in / 4;
        let (src_01, src_23) = src.split_at(2 * quarter * $in);
        let (src_0, src_1) = src_01.split_at(quarter * $in);
        let (src_2, src_3) = src_23.split_at(quarter * $in);
        let (dst_01, dst_23) = dst.split_at_mut(2 * quarter * $out);
        let (dst_0, dst_1) = dst_01.split_at_mut(quarter * $out);
        let (dst_2, dst_3) = dst_23.split_at_mut(quarter * $out);
        let mut last = src_3.chunks_exact($in).zip(dst_3.chunks_exact_mut($out));
        let together = (src_0.chunks_exact($in).zip(dst_0.chunks_exact_mut($out)))
            .zip(src_1.chunks_exact($in).zip(dst_1.chunks_exact_mut($out)))
            .zip(src_2.chunks_exact($in).zip(dst_2.chunks_exact_mut($out)))
            .zip(&mut last);
        for ((((s0, d0), (s1, d1)), (s2, d2)), (s3, d3)) in together {
            let mut line = 0;
            while line < $in {
                prefetch_ahead(ahead, s0.as_ptr(), line);
                prefetch_ahead(ahead, s1.as_ptr(), line);
                prefetch_ahead(ahead, s2.as_ptr(), line);
                prefetch_ahead(ahead, s3.as_ptr(), line);
                line += 64;
            }
            $step(s0, d0);
            $step(s1, d1);
            $step(s2, d2);
            $step(s3, d3);
        }
        for (s3, d3) in last {
            $step(s3, d3);
        }
    }};
}

/// [`four_streams!`] over the whole steps of `$src`, then the elements left over (`$es`
/// source bytes to `$ds` output bytes each) one by one through `$scalar`, which must
/// give the same result as a step.
macro_rules! four_streams_then_scalar {
    ($step:expr, $in:expr, $out:expr, $src:expr, $dst:expr, $es:expr, $ds:expr, $scalar:expr) => {{
        let (src, dst): (&[u8], &mut [u8]) = ($src, $dst);
        let steps = src.len() / $in;
        let (whole, rest) = src.split_at(steps * $in);
        let (whole_out, rest_out) = dst.split_at_mut(steps * $out);
        four_streams!($step, $in, $out, whole, whole_out);
        let scalar = $scalar;
        for (si, di) in rest.chunks_exact($es).zip(rest_out.chunks_exact_mut($ds)) {
            scalar(si, di);
        }
    }};
}

/// # Safety
/// The CPU must support AVX2 and F16C; `dst.len() / 2 == src.len() / 4`.
#[inline(always)]
unsafe fn f32_to_f16(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); each step
    // gets the 32 source and 16 output bytes it needs.
    unsafe {
        four_streams_then_scalar!(
            f32_to_f16_step,
            32,
            16,
            src,
            dst,
            4,
            2,
            |si: &[u8], di: &mut [u8]| {
                let x = f32::from_ne_bytes([si[0], si[1], si[2], si[3]]);
                di.copy_from_slice(&f32_to_f16_bits(x).to_ne_bytes());
            }
        )
    }
}

/// Eight f32 (32 bytes of `si`) to f16 (16 bytes of `di`).
///
/// # Safety
/// The CPU must support AVX2 and F16C; `si` holds 32 bytes and `di` 16.
#[inline(always)]
unsafe fn f32_to_f16_step(si: &[u8], di: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family; the load and store stay in `si` and `di`.
    unsafe {
        let v = _mm256_loadu_ps(si.as_ptr().cast());
        let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(v);
        _mm_storeu_si128(di.as_mut_ptr().cast(), h);
    }
}

/// Stores 32 bytes at `at`: streaming (then `at` is 32-byte aligned) or not.
///
/// # Safety
/// The CPU runs the AVX2 family; `at` holds 32 writable bytes, aligned when `stream`.
#[inline(always)]
unsafe fn store(at: *mut u8, v: __m256i, stream: bool) {
    // SAFETY: the caller's promise.
    unsafe {
        if stream {
            _mm256_stream_si256(at.cast(), v)
        } else {
            _mm256_storeu_si256(at.cast(), v)
        }
    }
}

/// Runs a kernel body `$run(src, dst, stream)` (`$in` source bytes to `$out` output
/// bytes per element) inside an `unsafe` block of the calling kernel: with ordinary
/// stores, or, for an output of at least [`STREAM_MIN_BYTES`] whose first 32-byte
/// boundary falls on an element, ordinary stores up to that boundary and streaming
/// stores after it (a body's steps write whole multiples of 32 bytes, so each of its
/// vector stores stays aligned), then a fence so the streamed data is ordered before the
/// call returns. Streaming skips the read for ownership of the output, and the kernel
/// doing it itself skips the second pass over `exec::run_contiguous`'s staging buffer:
/// in a standalone u8 -> f32 loop, 1.3-1.5x memcpy against 1.0-1.2x staged; f64 -> f32
/// and f32 -> i32, which were staged by no one, went from 0.76 and 0.84 to 1.0-1.2x.
/// A macro, not a function taking a closure: a closure is not compiled with the
/// kernel's target features, and its intrinsics would not inline (measured 0.13x).
macro_rules! streamed {
    ($run:expr, $in:expr, $out:expr, $src:expr, $dst:expr) => {{
        let (src, dst): (&[u8], &mut [u8]) = ($src, $dst);
        let head = dst.as_ptr().align_offset(32);
        if dst.len() < STREAM_MIN_BYTES || head % $out != 0 {
            $run(src, dst, false);
        } else {
            let (dst_head, dst_rest) = dst.split_at_mut(head);
            let (src_head, src_rest) = src.split_at(head / $out * $in);
            $run(src_head, dst_head, false);
            $run(src_rest, dst_rest, true);
            _mm_sfence();
        }
    }};
}

/// # Safety
/// The CPU must support AVX2 and F16C; `dst.len() / 4 == src.len() / 2`.
#[inline(always)]
unsafe fn f16_to_f32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(f16_to_f32_run, 2, 4, src, dst) }
}

/// As [`f16_to_f32`], streaming the vector stores when `stream` (see `streamed!`).
#[inline(always)]
unsafe fn f16_to_f32_run(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(16);
        let mut d = dst.chunks_exact_mut(32);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` holds 16 readable bytes and `di` 32 writable bytes.
            {
                let h = _mm_loadu_si128(si.as_ptr().cast());
                let v = _mm256_castps_si256(_mm256_cvtph_ps(h));
                store(di.as_mut_ptr(), v, stream);
            }
        }
        scalar_tail::<f16, f32>(s.remainder(), d.into_remainder());
    }
}

/// Bytes (unsigned, or signed when `SIGNED`) -> f32, exactly: 32 per step.
#[inline(always)]
unsafe fn bytes_to_f32_run<const SIGNED: bool>(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(32);
        let mut d = dst.chunks_exact_mut(128);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` holds 32 readable bytes and `di` 128 writable bytes.
            for k in 0..4 {
                let b = _mm_loadl_epi64(si.as_ptr().add(8 * k).cast());
                let ints = if SIGNED {
                    _mm256_cvtepi8_epi32(b)
                } else {
                    _mm256_cvtepu8_epi32(b)
                };
                let v = _mm256_castps_si256(_mm256_cvtepi32_ps(ints));
                store(di.as_mut_ptr().add(32 * k), v, stream);
            }
        }
        if SIGNED {
            scalar_tail::<i8, f32>(s.remainder(), d.into_remainder());
        } else {
            scalar_tail::<u8, f32>(s.remainder(), d.into_remainder());
        }
    }
}

/// u8 -> f32.
///
/// # Safety
/// The CPU must support AVX2; `dst.len() == 4 * src.len()`.
#[inline(always)]
unsafe fn u8_to_f32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(bytes_to_f32_run::<false>, 1, 4, src, dst) }
}

/// i8 -> f32.
///
/// # Safety
/// The CPU must support AVX2; `dst.len() == 4 * src.len()`.
#[inline(always)]
unsafe fn i8_to_f32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(bytes_to_f32_run::<true>, 1, 4, src, dst) }
}

/// bf16 -> f32: the bits moved up 16 places, a NaN made quiet (as
/// `convert::bf16_bits_to_f32`).
///
/// # Safety
/// The CPU must support AVX2; `dst.len() == 2 * src.len()`.
#[inline(always)]
unsafe fn bf16_to_f32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(bf16_to_f32_run, 2, 4, src, dst) }
}

/// As [`bf16_to_f32`], streaming the vector stores when `stream` (see `streamed!`).
#[inline(always)]
unsafe fn bf16_to_f32_run(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(32);
        let mut d = dst.chunks_exact_mut(64);
        let abs_mask = _mm256_set1_epi32(0x7fff_ffff);
        let inf = _mm256_set1_epi32(0x7f80_0000);
        let quiet = _mm256_set1_epi32(0x0040_0000);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` holds 32 readable bytes and `di` 64 writable bytes.
            for k in 0..2 {
                let h = _mm_loadu_si128(si.as_ptr().add(16 * k).cast());
                let bits = _mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(h));
                let nan = _mm256_cmpgt_epi32(_mm256_and_si256(bits, abs_mask), inf);
                let v = _mm256_or_si256(bits, _mm256_and_si256(nan, quiet));
                store(di.as_mut_ptr().add(32 * k), v, stream);
            }
        }
        scalar_tail::<bf16, f32>(s.remainder(), d.into_remainder());
    }
}

/// f32 -> i32: truncation toward zero, saturating, NaN 0. The conversion instruction
/// truncates and gives i32::MIN for NaN and every value out of range, which is already
/// right for the negative side; the lanes at or above 2^31 flip it to i32::MAX, and
/// NaN lanes are masked to 0.
///
/// # Safety
/// The CPU must support AVX2; `dst.len() == src.len()`.
#[inline(always)]
unsafe fn f32_to_i32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(f32_to_i32_run, 4, 4, src, dst) }
}

/// As [`f32_to_i32`], streaming the vector stores when `stream` (see `streamed!`).
#[inline(always)]
unsafe fn f32_to_i32_run(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(64);
        let mut d = dst.chunks_exact_mut(64);
        let limit = _mm256_set1_ps(2_147_483_648.0);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` and `di` hold 64 bytes each.
            for k in 0..2 {
                let v = _mm256_loadu_ps(si.as_ptr().add(32 * k).cast());
                let t = _mm256_cvttps_epi32(v);
                let over = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GE_OQ>(v, limit));
                let number = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_ORD_Q>(v, v));
                let i = _mm256_and_si256(_mm256_xor_si256(t, over), number);
                store(di.as_mut_ptr().add(32 * k), i, stream);
            }
        }
        scalar_tail::<f32, i32>(s.remainder(), d.into_remainder());
    }
}

/// i32 -> f32, rounded to nearest even (the default environment, `simd::fpenv`).
///
/// # Safety
/// The CPU must support AVX2; `dst.len() == src.len()`.
#[inline(always)]
unsafe fn i32_to_f32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(i32_to_f32_run, 4, 4, src, dst) }
}

/// As [`i32_to_f32`], streaming the vector stores when `stream` (see `streamed!`).
#[inline(always)]
unsafe fn i32_to_f32_run(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(64);
        let mut d = dst.chunks_exact_mut(64);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` and `di` hold 64 bytes each.
            for k in 0..2 {
                let i = _mm256_loadu_si256(si.as_ptr().add(32 * k).cast());
                let v = _mm256_castps_si256(_mm256_cvtepi32_ps(i));
                store(di.as_mut_ptr().add(32 * k), v, stream);
            }
        }
        scalar_tail::<i32, f32>(s.remainder(), d.into_remainder());
    }
}

/// i64 -> i32: the low 32 bits of each value (C's wrapping conversion, as the scalar
/// cast).
///
/// # Safety
/// The CPU must support AVX2; `dst.len() * 2 == src.len()`.
#[inline(always)]
unsafe fn i64_to_i32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(i64_to_i32_run, 8, 4, src, dst) }
}

/// As [`i64_to_i32`], streaming the vector stores when `stream` (see `streamed!`).
#[inline(always)]
unsafe fn i64_to_i32_run(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(64);
        let mut d = dst.chunks_exact_mut(32);
        // The even 32-bit lanes (the low halves, little-endian) of each 128-bit half,
        // then the two halves' low 64 bits joined.
        let evens = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` holds 64 readable bytes and `di` 32 writable bytes.
            let lo = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(si.as_ptr().cast()), evens);
            let hi =
                _mm256_permutevar8x32_epi32(_mm256_loadu_si256(si.as_ptr().add(32).cast()), evens);
            let v = _mm256_permute2x128_si256::<0x20>(lo, hi);
            store(di.as_mut_ptr(), v, stream);
        }
        scalar_tail::<i64, i32>(s.remainder(), d.into_remainder());
    }
}

/// f64 x4 -> f32 x4 rounded to odd: the 29 mantissa bits f32 drops are folded into
/// a sticky bit at f32's last place, so the conversion that follows is exact wherever
/// the result is a normal f32 (elsewhere the value is far outside f16's range, where
/// any rounding gives the same f16). NaN stays NaN: a payload in the dropped bits sets
/// the sticky bit.
#[inline(always)]
unsafe fn f64x4_to_f32_round_odd(x: __m256i) -> __m128 {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let dropped = _mm256_set1_epi64x((1 << 29) - 1);
        let low = _mm256_and_si256(x, dropped);
        let exact = _mm256_cmpeq_epi64(low, _mm256_setzero_si256());
        let sticky = _mm256_andnot_si256(exact, _mm256_set1_epi64x(1 << 29));
        let odd = _mm256_or_si256(_mm256_andnot_si256(dropped, x), sticky);
        _mm256_cvtpd_ps(_mm256_castsi256_pd(odd))
    }
}

/// How far ahead (bytes) read-heavy loops prefetch their input.
const PREFETCH_AHEAD: usize = 4096;

/// Inputs shorter than this are left to the hardware prefetcher: software prefetches
/// would reach past their end, onto pages that may not be mapped, and each such prefetch
/// costs a page walk (this made calls on a few KiB several times slower than larger
/// ones). Above it, the last PREFETCH_AHEAD bytes of prefetches may still fall past the
/// end: at most two pages, noise for a call of this size. A per-iteration bounds check
/// instead cost the compute-bound encoders ~15% (FLOAT -> INT4 0.78 -> 0.66 of memcpy).
const PREFETCH_MIN_BYTES: usize = 64 << 10;

/// Whether a loop over `src` prefetches ahead (decided once per call, so the check is
/// loop-invariant).
#[inline(always)]
fn prefetches(src: &[u8]) -> bool {
    src.len() >= PREFETCH_MIN_BYTES
}

/// Prefetches the line `PREFETCH_AHEAD + extra` bytes past `at` when `on`.
#[inline(always)]
fn prefetch_ahead(on: bool, at: *const u8, extra: usize) {
    if on {
        // SAFETY: a prefetch reads nothing architecturally and never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(PREFETCH_AHEAD + extra).cast()) };
    }
}

/// f64 -> f16: round to odd into f32, then F16C's round to nearest even.
///
/// # Safety
/// The CPU must support AVX2 and F16C; `dst.len() / 2 == src.len() / 8`.
#[inline(always)]
unsafe fn f64_to_f16(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); each step
    // gets the 64 source and 16 output bytes it needs.
    unsafe {
        four_streams_then_scalar!(
            f64_to_f16_step,
            64,
            16,
            src,
            dst,
            8,
            2,
            |si: &[u8], di: &mut [u8]| {
                let mut raw = [0u8; 8];
                raw.copy_from_slice(si);
                di.copy_from_slice(&f64_to_f16_bits(f64::from_ne_bytes(raw)).to_ne_bytes());
            }
        )
    }
}

/// Eight f64 (64 bytes of `si`) to f16 (16 bytes of `di`).
///
/// # Safety
/// The CPU must support AVX2 and F16C; `si` holds 64 bytes and `di` 16.
#[inline(always)]
unsafe fn f64_to_f16_step(si: &[u8], di: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family; the loads and store stay in `si` and `di`.
    unsafe {
        let lo = f64x4_to_f32_round_odd(_mm256_loadu_si256(si.as_ptr().cast()));
        let hi = f64x4_to_f32_round_odd(_mm256_loadu_si256(si.as_ptr().add(32).cast()));
        let both = _mm256_set_m128(hi, lo);
        let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(both);
        _mm_storeu_si128(di.as_mut_ptr().cast(), h);
    }
}

/// f64 -> f32: the conversion instruction rounds to nearest even and quiets NaN keeping
/// its sign and top payload bits, which is the rule.
///
/// # Safety
/// The CPU must support AVX2; `dst.len() / 4 == src.len() / 8`.
#[inline(always)]
unsafe fn f64_to_f32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(f64_to_f32_run, 8, 4, src, dst) }
}

/// As [`f64_to_f32`], streaming the vector stores when `stream` (see `streamed!`).
#[inline(always)]
unsafe fn f64_to_f32_run(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(64);
        let mut d = dst.chunks_exact_mut(32);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` holds 64 readable bytes and `di` 32 writable bytes.
            {
                let lo = _mm256_cvtpd_ps(_mm256_loadu_pd(si.as_ptr().cast()));
                let hi = _mm256_cvtpd_ps(_mm256_loadu_pd(si.as_ptr().add(32).cast()));
                let v = _mm256_castps_si256(_mm256_set_m128(hi, lo));
                store(di.as_mut_ptr(), v, stream);
            }
        }
        scalar_tail::<f64, f32>(s.remainder(), d.into_remainder());
    }
}

/// f32 x8 -> bf16 bits in the low 16 bits of each 32-bit lane: round to nearest even,
/// NaN quiet with its sign; see `convert::f32_to_bf16_bits`.
#[inline(always)]
unsafe fn f32x8_to_bf16_lanes(bits: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let abs = _mm256_and_si256(bits, _mm256_set1_epi32(0x7fff_ffff));
        let nan = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7f80_0000));
        let lsb = _mm256_and_si256(_mm256_srli_epi32::<16>(bits), _mm256_set1_epi32(1));
        let bias = _mm256_add_epi32(_mm256_set1_epi32(0x7fff), lsb);
        let rounded = _mm256_srli_epi32::<16>(_mm256_add_epi32(bits, bias));
        let quiet = _mm256_or_si256(_mm256_srli_epi32::<16>(bits), _mm256_set1_epi32(0x0040));
        _mm256_blendv_epi8(rounded, quiet, nan)
    }
}

/// # Safety
/// The CPU must support AVX2; `dst.len() / 2 == src.len() / 4`.
#[inline(always)]
unsafe fn f32_to_bf16(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); each step
    // gets the 64 source and 32 output bytes it needs.
    unsafe {
        four_streams_then_scalar!(
            f32_to_bf16_step,
            64,
            32,
            src,
            dst,
            4,
            2,
            |si: &[u8], di: &mut [u8]| {
                let x = f32::from_ne_bytes([si[0], si[1], si[2], si[3]]);
                di.copy_from_slice(&f32_to_bf16_bits(x).to_ne_bytes());
            }
        )
    }
}

/// Sixteen f32 (64 bytes of `si`) to bf16 (32 bytes of `di`).
///
/// # Safety
/// The CPU must support AVX2; `si` holds 64 bytes and `di` 32.
#[inline(always)]
unsafe fn f32_to_bf16_step(si: &[u8], di: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family; the loads and store stay in `si` and `di`.
    unsafe {
        let a = f32x8_to_bf16_lanes(_mm256_loadu_si256(si.as_ptr().cast()));
        let b = f32x8_to_bf16_lanes(_mm256_loadu_si256(si.as_ptr().add(32).cast()));
        // packus works per 128-bit lane; the permute restores element order.
        let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a, b));
        _mm256_storeu_si256(di.as_mut_ptr().cast(), packed);
    }
}

/// f32 -> BOOL: 1 unless the value compares equal to zero (NaN gives 1).
///
/// # Safety
/// The CPU must support AVX2; `dst.len() == src.len() / 4`.
#[inline(always)]
unsafe fn f32_to_bool(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); each step
    // gets the 128 source and 32 output bytes it needs.
    unsafe {
        four_streams_then_scalar!(
            f32_to_bool_step,
            128,
            32,
            src,
            dst,
            4,
            1,
            |si: &[u8], di: &mut [u8]| {
                di[0] = u8::from(f32::from_ne_bytes([si[0], si[1], si[2], si[3]]) != 0.0);
            }
        )
    }
}

/// Thirty-two f32 (128 bytes of `si`) to bools (32 bytes of `di`).
///
/// # Safety
/// The CPU must support AVX2; `si` holds 128 bytes and `di` 32.
#[inline(always)]
unsafe fn f32_to_bool_step(si: &[u8], di: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family; the loads and store stay in `si` and `di`.
    unsafe {
        let one = _mm256_set1_epi32(1);
        let p = si.as_ptr().cast::<f32>();
        let lane = |k: usize| {
            let v = _mm256_loadu_ps(p.add(8 * k));
            let nonzero = _mm256_cmp_ps::<_CMP_NEQ_UQ>(v, _mm256_setzero_ps());
            _mm256_and_si256(_mm256_castps_si256(nonzero), one)
        };
        let ab = _mm256_packs_epi32(lane(0), lane(1));
        let cd = _mm256_packs_epi32(lane(2), lane(3));
        let bytes = _mm256_packs_epi16(ab, cd);
        // The two in-lane packs interleave 32-bit groups; put them back in order.
        let ordered = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256(di.as_mut_ptr().cast(), ordered);
    }
}

// ---- low-precision float formats ----------------------------------------------------

/// Packs four vectors of codes (one per 32-bit lane, each below 256) into 32 bytes in
/// element order.
#[inline(always)]
unsafe fn pack_codes(a: __m256i, b: __m256i, c: __m256i, d: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
        _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7))
    }
}

/// FLOAT -> format `F` with options `OPT`, whole steps of 32 values in
/// [`four_streams!`]: the float formats by [`encode::F32Step`], FLOAT4E2M1 by its own
/// step, the integer formats by conversion.
///
/// # Safety
/// The CPU runs the AVX2 family; `src.len()` is a multiple of 128 and `dst.len()` is
/// `code_bytes::<F>` of `src.len() / 4`.
#[inline(always)]
unsafe fn encode_f32_steps<const F: u8, const OPT: u8>(src: &[u8], dst: &mut [u8]) {
    let out = code_bytes::<F>(32);
    // SAFETY: the caller runs the AVX2 family; each step gets 128 source bytes and the
    // output of 32 codes, as it needs.
    unsafe {
        match FORMATS[F as usize].kind {
            Kind::Int { .. } => four_streams!(encode_f32_int_step::<F>, 128, out, src, dst),
            Kind::Fp4 => four_streams!(encode_f32_fp4_step, 128, 16, src, dst),
            _ => four_streams!(encode::F32Step::<__m256i, F, OPT>::run, 128, out, src, dst),
        }
    }
}

/// One step of f32 -> codes of integer format `F` (INT4, UINT4, INT2, UINT2), 32
/// values: the low bits of each value rounded to the nearest even integer. The
/// conversion instruction rounds so (the default rounding mode) and gives 0x80000000
/// for NaN, infinities and magnitudes of 2^31 or more, whose low bits are 0 as the rule
/// has it (`lowp::LowSource`). The codes are packed (`store_codes`) here.
///
/// # Safety
/// The CPU must support AVX2; `si` holds 128 bytes and `di` `code_bytes::<F>(32)`.
#[inline(always)]
unsafe fn encode_f32_int_step<const F: u8>(si: &[u8], di: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the loads
    // read `si`'s 128 bytes and `store_codes` writes `di`'s.
    unsafe {
        let mask = _mm256_set1_epi32((1 << FORMATS[F as usize].bits) - 1);
        let p = si.as_ptr();
        let code = |k: usize| {
            let v = _mm256_loadu_ps(p.add(32 * k).cast());
            _mm256_and_si256(_mm256_cvtps_epi32(v), mask)
        };
        store_codes::<F>(di, pack_codes(code(0), code(1), code(2), code(3)));
    }
}

/// One step of f32 -> FLOAT4E2M1, 32 values (128 bytes) to 16 packed bytes: rounded
/// to bfloat16 to odd, thresholds counted in 16-bit lanes, nibbles paired by a
/// multiply-add. The packs work within 128-bit lanes; one interleave of 16-bit units at
/// the end puts everything in element order, so no lane-crossing permute is needed on
/// the way.
///
/// # Safety
/// The CPU must support AVX2; `si` holds 128 bytes and `di` 16.
#[inline(always)]
unsafe fn encode_f32_fp4_step(si: &[u8], di: &mut [u8]) {
    encode::step_boundary();
    // SAFETY: the caller runs the AVX2 family (this function's contract); the loads
    // read `si`'s 128 bytes and the store writes `di`'s 16.
    unsafe {
        let p = si.as_ptr();
        let load = |k: usize| _mm256_loadu_si256(p.add(32 * k).cast());
        // Sixteen codes each, in `bf16_odd_pairs`' order (loads 0 and 1, 2 and 3
        // interleaved).
        let lo = encode::fp4_codes(bf16_odd_pairs(load(0), load(1)));
        let hi = encode::fp4_codes(bf16_odd_pairs(load(2), load(3)));
        // Bytes per 128-bit lane, four-code groups: low lane 0, 2, 4, 6, high lane 1,
        // 3, 5, 7 (pairs adjacent).
        let codes = _mm256_shuffle_epi8(_mm256_packus_epi16(lo, hi), unzip_pairs());
        // Adjacent bytes (codes 2k, 2k+1) times (1, 16), summed: one byte of two nibbles.
        let words = _mm256_maddubs_epi16(codes, _mm256_set1_epi16(0x1001));
        let bytes = _mm256_packus_epi16(words, words);
        // 16-bit units (eight codes each): low lane groups 0, 2, 4, 6, high lane 1, 3,
        // 5, 7; interleaving them gives element order.
        let ordered = _mm_unpacklo_epi16(
            _mm256_castsi256_si128(bytes),
            _mm256_extracti128_si256::<1>(bytes),
        );
        _mm_storeu_si128(di.as_mut_ptr().cast(), ordered);
    }
}

/// f16 or bf16 (`SRC`: 0 f16, 1 bf16) -> float format `F` with options `OPT`, whole
/// steps of 32 values ([`encode::HalfStep`]) in [`four_streams!`].
///
/// # Safety
/// The CPU runs the AVX2 family; `src.len()` is a multiple of 64 and `dst.len()` is
/// `code_bytes::<F>` of `src.len() / 2`.
#[inline(always)]
unsafe fn encode_half_steps<const SRC: u8, const F: u8, const OPT: u8>(src: &[u8], dst: &mut [u8]) {
    let out = code_bytes::<F>(32);
    // SAFETY: the caller runs the AVX2 family; each step gets 64 source bytes and the
    // output of 32 codes, as it needs.
    unsafe {
        four_streams!(
            encode::HalfStep::<__m256i, SRC, F, OPT>::run,
            64,
            out,
            src,
            dst
        )
    }
}

/// Codes of low-precision format `F` -> table target `T` (f32, f16 or bf16 bits): 32
/// codes per step, each group of eight widened to 32-bit indices and gathered from the
/// format's table (`cast::kernels::Lut`), so every format, and any format added, runs
/// this one loop; the 16-bit targets are packed back to 16 bits. Large f32 outputs are
/// streamed (`streamed!`: 0.66 -> 0.84x memcpy, and 1.06-1.23x with the source
/// prefetched ahead: beside streaming stores the hardware prefetcher fell behind); the
/// 16-bit targets are not (measured 0.44x streamed against 0.60x staged through
/// `exec::run_contiguous`'s buffer: at two vector stores per step the gathers, not the
/// stores, set the pace). Every current 8-bit format has decoders of its own, to every
/// target ([`decode_eights_body`], [`decode_e8m0_body`]): gathers share their ports
/// with a neighbouring thread's work, and FLOAT8E4M3FN -> FLOAT fell from ~1.1x to
/// 0.36-0.41x memcpy with the other core busy. This loop is for a format they do not
/// cover.
///
/// # Safety
/// The CPU must support AVX2; `dst.len() == lut_size::<T>() * src.len()`.
#[inline(always)]
unsafe fn decode_lut_body<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe {
        if T == LUT_F32 {
            streamed!(decode_lut_run::<F, T>, 1, 4, src, dst)
        } else {
            // Staged by the caller instead (see above).
            decode_lut_run::<F, T>(src, dst, false)
        }
    }
}

/// As [`decode_lut_body`], streaming the vector stores when `stream` (see `streamed!`).
#[inline(always)]
unsafe fn decode_lut_run<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let table = Lut::<F>::TABLES[T as usize].as_ptr().cast::<i32>();
        let mut s = src.chunks_exact(32);
        let mut d = dst.chunks_exact_mut(32 * lut_size::<T>());
        let ahead = prefetches(src);
        for (si, di) in (&mut s).zip(&mut d) {
            prefetch_ahead(ahead, si.as_ptr(), 0);
            // In bounds: `si` holds 32 readable bytes and `di` the output of 32 codes; a
            // gather index is a byte, below the table's 256 entries.
            {
                let p = si.as_ptr();
                let look = |k: usize| {
                    let index = _mm256_cvtepu8_epi32(_mm_loadl_epi64(p.add(8 * k).cast()));
                    _mm256_i32gather_epi32::<4>(table, index)
                };
                let out = di.as_mut_ptr();
                if T == LUT_F32 {
                    for k in 0..4 {
                        store(out.add(32 * k), look(k), stream);
                    }
                } else {
                    // The 16-bit entries are below 2^16: the unsigned pack keeps them.
                    let pack =
                        |a, b| _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a, b));
                    store(out, pack(look(0), look(1)), stream);
                    store(out.add(32), pack(look(2), look(3)), stream);
                }
            }
        }
        lut_all::<F, T>(s.remainder(), d.into_remainder());
    }
}

/// Eight FLOAT8E8M0-kind codes (one per 32-bit lane) to their f32 bits, as
/// `lowp::decode_f32` gives them: the code is f32's exponent field, but for 0, 2^-127 (an
/// f32 subnormal), and 0xFF, NaN, each one bit away from what the shift gives.
///
/// # Safety
/// The CPU runs the AVX2 family.
#[inline(always)]
unsafe fn e8m0_lanes(c: __m256i) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe {
        let ends = _mm256_or_si256(
            _mm256_cmpeq_epi32(c, _mm256_setzero_si256()),
            _mm256_cmpeq_epi32(c, _mm256_set1_epi32(0xff)),
        );
        _mm256_or_si256(
            _mm256_slli_epi32::<23>(c),
            _mm256_and_si256(ends, _mm256_set1_epi32(0x0040_0000)),
        )
    }
}

/// A FLOAT8E8M0-kind format's decoder to table target `T` by arithmetic instead of the
/// table's gathers, 32 codes per step: FLOAT by [`e8m0_lanes`], eight codes per 32-bit
/// vector; the 16-bit targets on the bytes, the low and high byte of each result
/// computed for all 32 codes at once and interleaved (BFLOAT16: the f32's top two
/// bytes; FLOAT16: the exponent field, saturated at infinity, with a 16-entry lookup for
/// the subnormals and the codes rounding to 0 or to them). Measured (benches/cast.rs):
/// to the 16-bit targets 0.61-0.65x memcpy by gathers, 0.79-0.97x through f32 lanes
/// and `vcvtps2ph`, and on the bytes
///
/// # Safety
/// The CPU must support AVX2 and F16C; `dst.len() == lut_size::<T>() * src.len()`.
#[inline(always)]
unsafe fn decode_e8m0_body<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(decode_e8m0_run::<F, T>, 1, lut_size::<T>(), src, dst) }
}

/// As [`decode_e8m0_body`], streaming the vector stores when `stream` (see `streamed!`).
#[inline(always)]
unsafe fn decode_e8m0_run<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let table = &Lut::<F>::TABLES[T as usize];
        // FLOAT16: the code less `rebias` is the f16 exponent field (the format's bias
        // less f16's 15), up to 31 (infinity); the 16 codes from `first` (2^-24, the
        // smallest f16 subnormal) cover the subnormals and the first normals, looked up
        // in two byte planes of their table entries; those below round to 0.
        let rebias = FORMATS[F as usize].bias - 15;
        let first = rebias - 9;
        // Each plane's 16 bytes twice over, once per 128-bit lane.
        let plane = |shift: u32| -> [u8; 32] {
            std::array::from_fn(|i| (table[first as usize + i % 16] >> shift) as u8)
        };
        let (lo_bytes, hi_bytes) = (plane(0), plane(8));
        let small_lo = _mm256_loadu_si256(lo_bytes.as_ptr().cast());
        let small_hi = _mm256_loadu_si256(hi_bytes.as_ptr().cast());
        let (nan_lo, nan_hi) = (
            _mm256_set1_epi8(table[0xff] as i8),
            _mm256_set1_epi8((table[0xff] >> 8) as i8),
        );
        let mut s = src.chunks_exact(32);
        let mut d = dst.chunks_exact_mut(32 * lut_size::<T>());
        let ahead = prefetches(src);
        for (si, di) in (&mut s).zip(&mut d) {
            prefetch_ahead(ahead, si.as_ptr(), 0);
            // In bounds: `si` holds 32 readable bytes and `di` their output.
            let p = si.as_ptr();
            let out = di.as_mut_ptr();
            if T == LUT_F32 {
                for k in 0..4 {
                    let codes = _mm256_cvtepu8_epi32(_mm_loadl_epi64(p.add(8 * k).cast()));
                    store(out.add(32 * k), e8m0_lanes(codes), stream);
                }
                continue;
            }
            // The 16-bit targets on the bytes: the low and high byte of each result.
            let c = _mm256_loadu_si256(p.cast());
            let (lo, hi) = if T == LUT_BF16 {
                // The f32's top two bytes (see `e8m0_lanes`).
                let ends = _mm256_or_si256(
                    _mm256_cmpeq_epi8(c, _mm256_setzero_si256()),
                    _mm256_cmpeq_epi8(c, _mm256_set1_epi8(-1)),
                );
                let hi = _mm256_and_si256(_mm256_srli_epi16::<1>(c), _mm256_set1_epi8(0x7f));
                let lo = _mm256_or_si256(
                    _mm256_and_si256(_mm256_slli_epi16::<7>(c), _mm256_set1_epi8(-0x80)),
                    _mm256_and_si256(ends, _mm256_set1_epi8(0x40)),
                );
                (lo, hi)
            } else {
                // Index `code - first` with its top bit set (a zero lookup) outside 0-15.
                let index = _mm256_adds_epu8(
                    _mm256_sub_epi8(c, _mm256_set1_epi8(first as i8)),
                    _mm256_set1_epi8(0x70),
                );
                // The exponent field, at most 31, moved to its place in the high byte
                // (no byte carries into the next: each is below 32 before the shift).
                let field = _mm256_min_epu8(
                    _mm256_subs_epu8(c, _mm256_set1_epi8(rebias as i8)),
                    _mm256_set1_epi8(31),
                );
                let nan = _mm256_cmpeq_epi8(c, _mm256_set1_epi8(-1));
                let hi = _mm256_or_si256(
                    _mm256_shuffle_epi8(small_hi, index),
                    _mm256_slli_epi16::<2>(field),
                );
                (
                    _mm256_blendv_epi8(_mm256_shuffle_epi8(small_lo, index), nan_lo, nan),
                    _mm256_blendv_epi8(hi, nan_hi, nan),
                )
            };
            // Per lane, elements 0-7 | 16-23 and 8-15 | 24-31.
            let (a, b) = (_mm256_unpacklo_epi8(lo, hi), _mm256_unpackhi_epi8(lo, hi));
            store(out, _mm256_permute2x128_si256::<0x20>(a, b), stream);
            store(out.add(32), _mm256_permute2x128_si256::<0x31>(a, b), stream);
        }
        lut_all::<F, T>(s.remainder(), d.into_remainder());
    }
}

/// The [`Lut::EIGHTS`] rule [`decode_eights_body`] runs for table target `T`: its own,
/// or for FLOAT the BFLOAT16 one, widened by a zero low half (exact where
/// `Lut::F32_IS_BF16_WIDENED`, which [`decode_lut`] checks).
const fn eights_target<const T: u8>() -> usize {
    if T == LUT_F32 {
        LUT_BF16 as usize
    } else {
        T as usize
    }
}

/// A signed 8-bit float format's decoder to table target `T` in 16-bit lanes, by the
/// rule of its [`Lut::EIGHTS`] entry (`formats::lut::Eights`): 32 codes per step, the
/// two 16-entry lookups and the choice between them and the shifted magnitude done on
/// the bytes, the shift, the add and the sign on the 16-bit lanes; FLOAT by the
/// BFLOAT16 rule, each result the top half of a 32-bit lane ([`eights_target`]).
/// Measured (benches/cast.rs): to the 16-bit targets 0.58-0.67x memcpy by the table's
/// gathers, 1.03-1.23x by this rule (0.37-0.51x decoding each code to f32 first). The
/// source is prefetched ahead: without it the streamed loop ran at 0.41-0.87x,
/// differing by format though the loops differ only in constants.
///
/// # Safety
/// The CPU must support AVX2; `dst.len() == lut_size::<T>() * src.len()`;
/// `Lut::<F>::EIGHTS[eights_target::<T>()]` is `Some`.
#[inline(always)]
unsafe fn decode_eights_body<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { streamed!(decode_eights_run::<F, T>, 1, lut_size::<T>(), src, dst) }
}

/// As [`decode_eights_body`], streaming the vector stores when `stream` (see `streamed!`).
#[inline(always)]
unsafe fn decode_eights_run<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8], stream: bool) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let Some(rule) = Lut::<F>::EIGHTS[eights_target::<T>()] else {
            unreachable!("decode_eights is chosen only where the rule holds")
        };
        let load = |plane: &[u8; 32]| _mm256_loadu_si256(plane.as_ptr().cast());
        let (small_lo, small_hi) = (load(&rule.small[0]), load(&rule.small[1]));
        let (top_lo, top_hi) = (load(&rule.top[0]), load(&rule.top[1]));
        let magnitude = _mm256_set1_epi8(0x7f);
        let max = _mm256_set1_epi8(rule.max_code as i8);
        let sixteen = _mm256_set1_epi8(16);
        let offset = _mm256_set1_epi16(rule.offset as i16);
        let fnuz = FORMATS[F as usize].kind == Kind::Fnuz;
        let zero = _mm256_setzero_si256();
        let mut s = src.chunks_exact(32);
        let mut d = dst.chunks_exact_mut(32 * lut_size::<T>());
        let ahead = prefetches(src);
        for (si, di) in (&mut s).zip(&mut d) {
            prefetch_ahead(ahead, si.as_ptr(), 0);
            // In bounds: `si` holds 32 readable bytes and `di` their output.
            let c = _mm256_loadu_si256(si.as_ptr().cast());
            // Magnitudes are below 0x80: the lookups read entry `mag & 15`, and the
            // signed compares order them.
            let mag = _mm256_and_si256(c, magnitude);
            let over = _mm256_cmpgt_epi8(mag, max);
            let looked = _mm256_or_si256(over, _mm256_cmpgt_epi8(sixteen, mag));
            let lo = _mm256_blendv_epi8(
                _mm256_shuffle_epi8(small_lo, mag),
                _mm256_shuffle_epi8(top_lo, mag),
                over,
            );
            let hi = _mm256_blendv_epi8(
                _mm256_shuffle_epi8(small_hi, mag),
                _mm256_shuffle_epi8(top_hi, mag),
                over,
            );
            // The sign's byte planes, with the code 0x80's entry of a format without -0.
            let (sign_lo, sign_hi) = {
                let sign = _mm256_and_si256(c, _mm256_set1_epi8(-0x80));
                if fnuz {
                    let nan = _mm256_cmpeq_epi8(c, _mm256_set1_epi8(-0x80));
                    let entry = |byte: u16| _mm256_and_si256(nan, _mm256_set1_epi8(byte as i8));
                    (
                        entry(rule.neg_zero & 0xff),
                        _mm256_or_si256(sign, entry((rule.neg_zero >> 8) & 0x7f)),
                    )
                } else {
                    (zero, sign)
                }
            };
            // Per lane, elements 0-7 | 16-23 from the low bytes, 8-15 | 24-31 from the
            // high ones.
            let shift = _mm_cvtsi32_si128(rule.shift as i32);
            let half = |m: __m256i, table: __m256i, looked: __m256i, sign: __m256i| {
                let value = _mm256_add_epi16(_mm256_sll_epi16(m, shift), offset);
                _mm256_or_si256(_mm256_blendv_epi8(value, table, looked), sign)
            };
            let low = half(
                _mm256_unpacklo_epi8(mag, zero),
                _mm256_unpacklo_epi8(lo, hi),
                _mm256_unpacklo_epi8(looked, looked),
                _mm256_unpacklo_epi8(sign_lo, sign_hi),
            );
            let high = half(
                _mm256_unpackhi_epi8(mag, zero),
                _mm256_unpackhi_epi8(lo, hi),
                _mm256_unpackhi_epi8(looked, looked),
                _mm256_unpackhi_epi8(sign_lo, sign_hi),
            );
            let out = di.as_mut_ptr();
            if T == LUT_F32 {
                // Each bf16 result the top half of its f32.
                store_in_order(out, (zero, zero), Some((low, high)), stream);
            } else {
                store_in_order(out, (low, high), None, stream);
            }
        }
        lut_all::<F, T>(s.remainder(), d.into_remainder());
    }
}

/// A 4-bit, 2-bit or 6-bit format's decoder, reading the packed codes itself: a format
/// with at most 16 codes needs no gather, its table fits a `vpshufb` lookup per output
/// byte (the planes of `Lut::NIBBLES`); a 6-bit format's 64 codes take four, one per
/// row of 16 (`Lut::SIXES`, row `i` looked up with the index `code + 0x70 - 16 i`,
/// unsigned saturating: its top bit, which zeroes a lookup, is clear for the codes of
/// rows up to `i`, and its low nibble is the code's). 32 codes (16, 8 or 24 packed
/// bytes) per step, streaming large outputs (as `streamed!`, with the first 32-byte
/// boundary on an element that starts a byte, or a 3-byte group). Measured
/// (benches/cast.rs), from unpacking in blocks then gathering: INT4 -> FLOAT 0.47x
/// memcpy to 1.0-1.1x, FLOAT4E2M1 -> FLOAT/FLOAT16/BFLOAT16 ~0.5x to 0.95-1.0x, INT2 ->
/// FLOAT 0.37x to 0.91x.
///
/// # Safety
/// The CPU must support AVX2; `src` holds the packed bytes of `dst`'s elements.
#[inline(always)]
unsafe fn decode_packed_body<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract).
    unsafe { decode_packed_streamed::<F, T, false>(src, dst) }
}

/// [`decode_packed_body`] of a signed 6-bit format, its magnitudes looked up by
/// `vpermb` ([`signed_six_bytes_vbmi`]).
///
/// # Safety
/// The CPU runs the VBMI family (`vbmi_family`); `F` is a 6-bit format with
/// `Lut::SIGNED_SIXES` for `T`; the sizes of the kernel.
#[cfg(tcast_avx512)]
#[inline(always)]
unsafe fn decode_sixes_vbmi_body<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller's promise.
    unsafe { decode_packed_streamed::<F, T, true>(src, dst) }
}

/// [`decode_packed_body`], by `vpermb` where `VBMI` (then the CPU runs the VBMI family).
#[inline(always)]
unsafe fn decode_packed_streamed<const F: u8, const T: u8, const VBMI: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    // SAFETY: the caller runs the AVX2 family (this function's contract), and the VBMI
    // one where `VBMI`.
    unsafe {
        let size = lut_size::<T>();
        let bits = FORMATS[F as usize].bits as usize;
        // The codes of a whole number of bytes: 8 / bits, or 4 in 3 bytes.
        let group = if bits == 6 { 4 } else { 8 / bits };
        let head = dst.as_ptr().align_offset(32);
        if dst.len() < STREAM_MIN_BYTES || head % (group * size) != 0 {
            decode_packed_run::<F, T, VBMI>(src, dst, false);
        } else {
            let (dst_head, dst_rest) = dst.split_at_mut(head);
            let (src_head, src_rest) = src.split_at(head / size * bits / 8);
            decode_packed_run::<F, T, VBMI>(src_head, dst_head, false);
            decode_packed_run::<F, T, VBMI>(src_rest, dst_rest, true);
            _mm_sfence();
        }
    }
}

/// As [`decode_packed_body`], streaming the vector stores when `stream`.
#[inline(always)]
unsafe fn decode_packed_run<const F: u8, const T: u8, const VBMI: bool>(
    src: &[u8],
    dst: &mut [u8],
    stream: bool,
) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the
    // loads and stores stay inside the slices, as noted at each.
    unsafe {
        let size = lut_size::<T>();
        let bits = FORMATS[F as usize].bits as usize;
        let planes = &Lut::<F>::NIBBLES[T as usize];
        let plane = |p: usize| _mm256_loadu_si256(planes[p].as_ptr().cast());
        let (p0, p1, p2, p3) = (plane(0), plane(1), plane(2), plane(3));
        let sixes = &Lut::<F>::SIXES[T as usize];
        // A signed 6-bit format's 16-bit entries by magnitude and sign; FLOAT from the
        // BFLOAT16 ones, widened (the low two bytes zero).
        let signed = signed_sixes::<F, T>();
        // Not `Option::map`: a closure is compiled without the AVX2 features.
        #[allow(clippy::manual_map)]
        let signed_planes = match signed {
            Some(six) => Some([
                _mm256_loadu_si256(six.planes[0].as_ptr().cast()),
                _mm256_loadu_si256(six.planes[1].as_ptr().cast()),
                _mm256_loadu_si256(six.planes[2].as_ptr().cast()),
                _mm256_loadu_si256(six.planes[3].as_ptr().cast()),
            ]),
            None => None,
        };
        // The same entries as two 32-byte tables (low bytes, high bytes) for `vpermb`.
        let magnitudes = match (VBMI, signed) {
            (true, Some(six)) => {
                let (mut low, mut high) = ([0u8; 32], [0u8; 32]);
                low[..16].copy_from_slice(&six.planes[0][..16]);
                low[16..].copy_from_slice(&six.planes[2][..16]);
                high[..16].copy_from_slice(&six.planes[1][..16]);
                high[16..].copy_from_slice(&six.planes[3][..16]);
                [
                    _mm256_loadu_si256(low.as_ptr().cast()),
                    _mm256_loadu_si256(high.as_ptr().cast()),
                ]
            }
            _ => [_mm256_setzero_si256(); 2],
        };
        let step = 32 * bits / 8;
        // Whole steps of 32 codes; a part-filled last byte goes to the tail. A 6-bit
        // step reads 28 bytes (two 16-byte loads 12 bytes apart).
        let mut steps = dst.len() / (32 * size);
        if bits == 6 {
            steps = steps.min(src.len().saturating_sub(4) / step);
        }
        let packed = &src[steps * step..];
        let ahead = prefetches(src);
        for (k, di) in dst.chunks_exact_mut(32 * size).take(steps).enumerate() {
            let si = &src[k * step..];
            prefetch_ahead(ahead, si.as_ptr(), 0);
            // In bounds: `si` holds `step` readable bytes (32 codes), 28 for 6-bit codes
            // (`steps` above), and `di` their output.
            // Codes 0-15 in the low lane, 16-31 in the high one.
            let codes = if bits == 6 {
                six_codes(si.as_ptr())
            } else if bits == 4 {
                let b = _mm_loadu_si128(si.as_ptr().cast());
                let low = _mm_set1_epi8(0x0f);
                let lo = _mm_and_si128(b, low);
                let hi = _mm_and_si128(_mm_srli_epi16::<4>(b), low);
                _mm256_set_m128i(_mm_unpackhi_epi8(lo, hi), _mm_unpacklo_epi8(lo, hi))
            } else {
                let b = _mm_loadl_epi64(si.as_ptr().cast());
                let mask = _mm_set1_epi8(3);
                let c0 = _mm_and_si128(b, mask);
                let c1 = _mm_and_si128(_mm_srli_epi16::<2>(b), mask);
                let c2 = _mm_and_si128(_mm_srli_epi16::<4>(b), mask);
                let c3 = _mm_and_si128(_mm_srli_epi16::<6>(b), mask);
                // Byte k's four codes side by side: elements 4k to 4k+3.
                let (c01, c23) = (_mm_unpacklo_epi8(c0, c1), _mm_unpacklo_epi8(c2, c3));
                _mm256_set_m128i(_mm_unpackhi_epi16(c01, c23), _mm_unpacklo_epi16(c01, c23))
            };
            let out = di.as_mut_ptr();
            let zero = _mm256_setzero_si256();
            // Planes 0 and 1 of the 32 codes' entries.
            let (b0, b1) = if let (6, Some(planes)) = (bits, signed_planes) {
                if T == LUT_F32 {
                    (zero, zero)
                } else if VBMI {
                    signed_six_bytes_vbmi(codes, &magnitudes)
                } else {
                    signed_six_bytes(codes, &planes)
                }
            } else if bits == 6 {
                (six_lookup(&sixes[0], codes), six_lookup(&sixes[1], codes))
            } else {
                (
                    _mm256_shuffle_epi8(p0, codes),
                    _mm256_shuffle_epi8(p1, codes),
                )
            };
            // Per lane: the low halves of the codes (0-7 | 16-23), the high (8-15 | 24-31).
            let (w01l, w01h) = (_mm256_unpacklo_epi8(b0, b1), _mm256_unpackhi_epi8(b0, b1));
            if T == LUT_F32 {
                let (b2, b3) = if let (6, Some(planes)) = (bits, signed_planes) {
                    if VBMI {
                        signed_six_bytes_vbmi(codes, &magnitudes)
                    } else {
                        signed_six_bytes(codes, &planes)
                    }
                } else if bits == 6 {
                    (six_lookup(&sixes[2], codes), six_lookup(&sixes[3], codes))
                } else {
                    (
                        _mm256_shuffle_epi8(p2, codes),
                        _mm256_shuffle_epi8(p3, codes),
                    )
                };
                let (w23l, w23h) = (_mm256_unpacklo_epi8(b2, b3), _mm256_unpackhi_epi8(b2, b3));
                store_in_order(out, (w01l, w01h), Some((w23l, w23h)), stream);
            } else {
                store_in_order(out, (w01l, w01h), None, stream);
            }
        }
        let table = &Lut::<F>::TABLES[T as usize];
        let rest = &mut dst[steps * 32 * size..];
        for (i, di) in rest.chunks_exact_mut(size).enumerate() {
            let code = pack::get(bits as u32, packed, i);
            di.copy_from_slice(&table[usize::from(code)].to_le_bytes()[..size]);
        }
    }
}

/// Stores the results of 32 codes in element order, given as 16-bit words laid out per
/// 128-bit lane as the byte unpacks leave them: `low.0` holds elements 0-7 | 16-23 and
/// `low.1` 8-15 | 24-31. Without `high` the words are the results (64 bytes); with it,
/// `high`'s words are the upper halves of 32-bit results whose lower halves are `low`'s
/// (128 bytes).
///
/// # Safety
/// The CPU runs the AVX2 family; `out` holds 64 writable bytes, 128 with `high`.
#[inline(always)]
unsafe fn store_in_order(
    out: *mut u8,
    low: (__m256i, __m256i),
    high: Option<(__m256i, __m256i)>,
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
                // Per lane, four results each: 0-3 | 16-19, 4-7 | 20-23, 8-11 | 24-27,
                // 12-15 | 28-31.
                let d0 = _mm256_unpacklo_epi16(low.0, high.0);
                let d1 = _mm256_unpackhi_epi16(low.0, high.0);
                let d2 = _mm256_unpacklo_epi16(low.1, high.1);
                let d3 = _mm256_unpackhi_epi16(low.1, high.1);
                store(out, first(d0, d1), stream);
                store(out.add(32), first(d2, d3), stream);
                store(out.add(64), second(d0, d1), stream);
                store(out.add(96), second(d2, d3), stream);
            }
            None => {
                store(out, first(low.0, low.1), stream);
                store(out.add(32), second(low.0, low.1), stream);
            }
        }
    }
}

/// The 32 6-bit codes of the 24 bytes at `p`, one per byte: codes 0-15 in the low lane,
/// 16-31 in the high one.
///
/// # Safety
/// The CPU runs the AVX2 family; `p` holds 28 readable bytes (two 16-byte loads 12
/// bytes apart).
#[inline(always)]
unsafe fn six_codes(p: *const u8) -> __m256i {
    // SAFETY: the caller's promise.
    unsafe {
        let b = _mm256_inserti128_si256::<1>(
            _mm256_castsi128_si256(_mm_loadu_si128(p.cast())),
            _mm_loadu_si128(p.add(12).cast()),
        );
        // Each 3-byte group as the low 24 bits of a 32-bit stream `s`.
        let group = _mm256_setr_epi8(
            0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 0, 1, 2, -1, 3, 4, 5, -1, 6, 7,
            8, -1, 9, 10, 11, -1,
        );
        let s = _mm256_shuffle_epi8(b, group);
        // Code j (bits 6 j to 6 j + 5 of `s`) to byte j: shifted left by 2 j.
        let c0 = _mm256_and_si256(s, _mm256_set1_epi32(0x3f));
        let c1 = _mm256_and_si256(_mm256_slli_epi32::<2>(s), _mm256_set1_epi32(0x3f00));
        let c2 = _mm256_and_si256(_mm256_slli_epi32::<4>(s), _mm256_set1_epi32(0x3f_0000));
        let c3 = _mm256_and_si256(_mm256_slli_epi32::<6>(s), _mm256_set1_epi32(0x3f00_0000));
        _mm256_or_si256(_mm256_or_si256(c0, c1), _mm256_or_si256(c2, c3))
    }
}

/// The low and high bytes of the 16-bit entries of a signed 6-bit format's `codes` (as
/// [`six_codes`] lays them out), `planes` those of `Lut::SIGNED_SIXES`: each byte from
/// two lookups by the magnitude's low four bits, chosen by its fifth; the sign moved from
/// bit 5 to the high byte's top bit.
///
/// # Safety
/// The CPU runs the AVX2 family.
#[inline(always)]
unsafe fn signed_six_bytes(codes: __m256i, planes: &[__m256i; 4]) -> (__m256i, __m256i) {
    // SAFETY: the caller's promise; registers only.
    unsafe {
        let mag = _mm256_and_si256(codes, _mm256_set1_epi8(0x1f));
        let upper = _mm256_cmpgt_epi8(mag, _mm256_set1_epi8(15));
        let lo = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(planes[0], mag),
            _mm256_shuffle_epi8(planes[2], mag),
            upper,
        );
        let hi = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(planes[1], mag),
            _mm256_shuffle_epi8(planes[3], mag),
            upper,
        );
        let sign = _mm256_slli_epi16::<2>(_mm256_and_si256(codes, _mm256_set1_epi8(0x20)));
        (lo, _mm256_or_si256(hi, sign))
    }
}

/// [`signed_six_bytes`] by `vpermb`: `magnitudes` holds the low and the high bytes of
/// the 32 magnitudes' entries, and the permute reads only an index's low five bits (the
/// magnitude), so one permute per byte plane does the two lookups and the blend.
///
/// # Safety
/// The CPU runs the VBMI family (`vbmi_family`).
#[cfg(tcast_avx512)]
#[clippy::msrv = "1.89"] // tcast_avx512: built by Rust 1.89 or later only (build.rs)
#[inline(always)]
unsafe fn signed_six_bytes_vbmi(codes: __m256i, magnitudes: &[__m256i; 2]) -> (__m256i, __m256i) {
    // SAFETY: the caller's promise; registers only.
    unsafe {
        let lo = _mm256_permutexvar_epi8(codes, magnitudes[0]);
        let hi = _mm256_permutexvar_epi8(codes, magnitudes[1]);
        let sign = _mm256_slli_epi16::<2>(_mm256_and_si256(codes, _mm256_set1_epi8(0x20)));
        (lo, _mm256_or_si256(hi, sign))
    }
}

/// Without `tcast_avx512` no kernel runs the VBMI body.
///
/// # Safety
/// Never called.
#[cfg(not(tcast_avx512))]
#[inline(always)]
unsafe fn signed_six_bytes_vbmi(_: __m256i, _: &[__m256i; 2]) -> (__m256i, __m256i) {
    unreachable!("the VBMI build needs tcast_avx512")
}

/// One byte plane of the entries of 6-bit `codes` (as [`six_codes`] lays them out):
/// `rows` is that plane of `Lut::SIXES`.
///
/// # Safety
/// The CPU runs the AVX2 family.
#[inline(always)]
unsafe fn six_lookup(rows: &[[u8; 32]; 4], codes: __m256i) -> __m256i {
    // SAFETY: the caller's promise; each row holds 32 readable bytes.
    unsafe {
        let mut v = _mm256_setzero_si256();
        for (i, row) in rows.iter().enumerate() {
            let index = _mm256_adds_epu8(codes, _mm256_set1_epi8((0x70 - 16 * i) as i8));
            let row = _mm256_loadu_si256(row.as_ptr().cast());
            v = _mm256_xor_si256(v, _mm256_shuffle_epi8(row, index));
        }
        v
    }
}

/// The table decoder of low-precision format `F` to table target `T`; a 4-bit, 2-bit or
/// 6-bit format's reads its packed codes itself.
pub fn decode_lut<const F: u8, const T: u8>(token: Avx2) -> Kernel {
    if let bits @ (4 | 2 | 6) = FORMATS[F as usize].bits {
        let run: Run = if bits == 6 && sixes_by_vbmi::<F, T>(token) {
            vbmi_entry::<F, T>()
        } else {
            entry::<DecodePacked<F, T>>
        };
        let kernel = kernel(run, 1, lut_size::<T>(), token);
        return kernel.unpacking(bits).streaming();
    }
    let size = lut_size::<T>();
    let widens = T != LUT_F32 || Lut::<F>::F32_IS_BF16_WIDENED;
    if Lut::<F>::EIGHTS[eights_target::<T>()].is_some() && widens {
        return kernel(entry::<DecodeEights<F, T>>, 1, size, token).streaming();
    }
    if FORMATS[F as usize].kind == Kind::E8m0 {
        return kernel(entry::<DecodeE8m0<F, T>>, 1, size, token).streaming();
    }
    let kernel = kernel(entry::<DecodeLut<F, T>>, 1, lut_size::<T>(), token);
    if T == LUT_F32 {
        kernel.streaming()
    } else {
        kernel
    }
}

/// Whether the 6-bit format `F` decodes to table target `T` by `vpermb` on this CPU: it
/// has the VBMI build, and the body's tables split into magnitude and sign (FLOAT's are
/// BFLOAT16's, widened).
fn sixes_by_vbmi<const F: u8, const T: u8>(token: Avx2) -> bool {
    signed_sixes::<F, T>().is_some() && token.avx512().and_then(|t| t.vbmi()).is_some()
}

/// The magnitude-and-sign tables a signed 6-bit format `F` decodes to table target `T`
/// by, if its entries split so: FLOAT's are BFLOAT16's, widened.
#[inline(always)]
fn signed_sixes<const F: u8, const T: u8>() -> Option<Sixes> {
    if T == LUT_F32 {
        match Lut::<F>::F32_IS_BF16_WIDENED {
            true => Lut::<F>::SIGNED_SIXES[LUT_BF16 as usize],
            false => None,
        }
    } else {
        Lut::<F>::SIGNED_SIXES[T as usize]
    }
}

/// The VBMI build's 6-bit decoder ([`sixes_by_vbmi`] said yes; without `tcast_avx512`
/// the token never has that build).
#[cfg(tcast_avx512)]
fn vbmi_entry<const F: u8, const T: u8>() -> Run {
    entry_vbmi::<DecodeSixesVbmi<F, T>>
}

#[cfg(not(tcast_avx512))]
fn vbmi_entry<const F: u8, const T: u8>() -> Run {
    unreachable!("the VBMI build needs tcast_avx512")
}

/// The table-gather decoder of format `F` to table target `T` whatever kernel `decode_lut`
/// picks for the pair: the tests run the gather loop's 16-bit targets through it, which
/// only a format without a rule of its own would take.
#[cfg(test)]
pub fn decode_lut_by_gather<const F: u8, const T: u8>(token: Avx2) -> Kernel {
    kernel(entry::<DecodeLut<F, T>>, 1, lut_size::<T>(), token)
}

encode::encoder_family!(
    Avx2,
    __m256i,
    encoder_entry,
    encode_f32_steps,
    encode_half_steps
);
