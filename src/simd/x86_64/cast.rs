// SPDX-License-Identifier: MIT OR Apache-2.0
//! AVX2-family cast kernels. Loads and stores are unaligned (buffers carry no alignment
//! guarantee); each loop handles whole vectors and leaves the tail to the scalar
//! conversion, which rounds identically. The low-precision encoders are written once
//! for both ISAs in `simd/encode.rs`, over a vector trait implemented for `__m256i`
//! and, with AVX-512VBMI, `__m512i` (`simd/lanes.rs`); what stays here is what only
//! x86-64 does (the four streams, the AVX2 FLOAT4E2M1 and integer steps, the choice
//! between the two vectors: [`encoder`]). So are the low-precision decoders, in
//! `simd/decode.rs` over byte lanes (`simd/bytes.rs`); the table-gather decoder, for a
//! format they do not cover, stays here.
//!
//! The bodies are `#[inline(always)]` functions without target features of their own;
//! the entry points at the top, compiled with the family's features, are what kernels
//! point to, and the bodies (with the intrinsics they call) are inlined into them.

use super::bytes::{store, PREFETCH_AHEAD, PREFETCH_MIN_BYTES};
use super::lanes::{bf16_odd_pairs, opaque, store_codes, unzip_pairs};
use super::{avx2_family, Avx2};
#[cfg(tcast_avx512)]
use super::{avx512_family, vbmi_family, with_avx512, with_vbmi};
use crate::dtype::Scalar;
use crate::formats::elem::Bool;
use crate::formats::lowp::{Kind, FORMATS};
use crate::formats::lut::{lut_all, lut_size, Lut, LUT_F32};
use crate::simd::cpu::Tier;
use crate::simd::decode;
use crate::simd::encode;
use crate::simd::encoders::output_bytes;
use crate::simd::family::{bodies, enable_features, family_entry, scalar_tail, Body, Run};
use crate::simd::kernel::FOUR_STREAMS_MIN_BYTES;
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
/// The encoders' four streams (from 12 MiB of source) keep about 30 vector values each
/// in flight, which AVX2's 16 registers cannot hold: with 32, and with masks and
/// `vpternlog`, FLOAT -> FLOAT8 ran 20% faster and FLOAT -> FLOAT6E2M3 27% on data in L2
/// (benches/cast.rs, as four streams at every size then).
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
    DecodeLut<const F: u8, const T: u8> => decode_lut_body;
}

/// FLOAT -> FLOAT16's entry point: on 512-bit vectors where the token has the AVX-512
/// build (one `vcvtps2ph` converts sixteen values, the AVX2 step's eight), else the AVX2
/// kernel. The same instruction on a wider vector: the same bits.
fn f32_to_f16_entry(token: Avx2) -> Run {
    #[cfg(tcast_avx512)]
    if token.avx512().is_some() {
        return entry_avx512::<F32ToF16Wide>;
    }
    let _ = token;
    entry::<F32ToF16>
}

/// The hand-written kernel for a pair of standard types, if there is one.
pub fn special(from: Scalar, to: Scalar, token: Avx2) -> Option<Kernel> {
    let (run, streams): (Run, bool) = match (from, to) {
        (Scalar::F32, Scalar::F16) => (f32_to_f16_entry(token), false),
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

/// [`four_streams!`] from [`FOUR_STREAMS_MIN_BYTES`] of source, one plain loop below.
/// With `rest`, the plain loop's steps get the whole rest of `dst` (their output first),
/// for a step whose stores may write past its output onto the next step's, which that
/// step then writes over (the 6-bit encoders' overlapping stores, `lanes::store_codes`);
/// the last step, and every step of the four streams, gets its output alone.
macro_rules! light_streams {
    ($step:expr, $in:expr, $out:expr, $src:expr, $dst:expr) => {{
        let (src, dst): (&[u8], &mut [u8]) = ($src, $dst);
        if src.len() < FOUR_STREAMS_MIN_BYTES {
            for (si, di) in src.chunks_exact($in).zip(dst.chunks_exact_mut($out)) {
                $step(si, di);
            }
        } else {
            four_streams!($step, $in, $out, src, dst)
        }
    }};
    ($step:expr, $in:expr, $out:expr, $src:expr, $dst:expr, rest) => {{
        let (src, dst): (&[u8], &mut [u8]) = ($src, $dst);
        if src.len() < FOUR_STREAMS_MIN_BYTES {
            let mut rest = dst;
            for si in src.chunks_exact($in) {
                $step(si, &mut *rest);
                rest = &mut std::mem::take(&mut rest)[$out..];
            }
        } else {
            four_streams!($step, $in, $out, src, dst)
        }
    }};
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
/// Declares kernel bodies (`family::Body` types) from their vector steps:
/// `Name(From => To, IN, walk) |si, di, stream| { .. }` converts the `IN` source bytes
/// at `si` into their output at `di` (storing through `store(.., stream)` where it may
/// stream); `walk` says how a call's whole steps run: `streamed`, one after another
/// with streaming stores for large outputs (`streamed!`), or `four_streams`
/// ([`four_streams!`], for the kernels that read more than they write). The elements
/// left over take the scalar conversion (`scalar_tail`), which rounds as the
/// instructions do (the tests compare the two on every input they try).
macro_rules! kernels {
    ($(
        $(#[$doc:meta])*
        $name:ident($from:ty => $to:ty, $in:literal, $walk:ident)
            |$si:ident, $di:ident, $stream:ident| { $($step:tt)* }
    )*) => {$(
        $(#[$doc])*
        struct $name;

        impl $name {
            /// One step.
            ///
            /// # Safety
            /// The CPU runs the AVX2 family; `si` holds the step's readable bytes and
            /// `di` their output (32-byte aligned where `stream`).
            #[inline(always)]
            unsafe fn step($si: *const u8, $di: *mut u8, $stream: bool) {
                // SAFETY: the caller's promise.
                unsafe { $($step)* }
            }
        }

        kernels!(@$walk $name, $from, $to, $in);
    )*};
    (@streamed $name:ident, $from:ty, $to:ty, $in:literal) => {
        impl $name {
            /// The whole steps of `src` into `dst`, streaming where `stream`, then the
            /// tail.
            ///
            /// # Safety
            /// The CPU runs the AVX2 family; `dst` holds the output of `src`'s elements
            /// (32-byte aligned where `stream`).
            #[inline(always)]
            unsafe fn steps(src: &[u8], dst: &mut [u8], stream: bool) {
                let mut s = src.chunks_exact($in);
                let mut d = dst.chunks_exact_mut($in / size_of::<$from>() * size_of::<$to>());
                for (si, di) in (&mut s).zip(&mut d) {
                    // SAFETY: the caller's promise; `si` holds a step's bytes and `di`
                    // their output.
                    unsafe { Self::step(si.as_ptr(), di.as_mut_ptr(), stream) }
                }
                scalar_tail::<$from, $to>(s.remainder(), d.into_remainder());
            }
        }

        impl Body for $name {
            #[inline(always)]
            unsafe fn run(src: &[u8], dst: &mut [u8]) {
                // SAFETY: the caller runs the AVX2 family and sized `dst`.
                unsafe { streamed!(Self::steps, size_of::<$from>(), size_of::<$to>(), src, dst) }
            }
        }
    };
    (@four_streams $name:ident, $from:ty, $to:ty, $in:literal) => {
        impl $name {
            /// One step of [`four_streams!`]: `si` and `di` hold its bytes.
            #[inline(always)]
            unsafe fn whole_step(si: &[u8], di: &mut [u8]) {
                // SAFETY: the caller runs the AVX2 family; the slices hold the step's bytes.
                unsafe { Self::step(si.as_ptr(), di.as_mut_ptr(), false) }
            }
        }

        impl Body for $name {
            #[inline(always)]
            unsafe fn run(src: &[u8], dst: &mut [u8]) {
                let out = $in / size_of::<$from>() * size_of::<$to>();
                let steps = src.len() / $in;
                let (whole, rest) = src.split_at(steps * $in);
                let (whole_out, rest_out) = dst.split_at_mut(steps * out);
                // SAFETY: the caller runs the AVX2 family; each step gets its bytes.
                unsafe { light_streams!(Self::whole_step, $in, out, whole, whole_out) };
                scalar_tail::<$from, $to>(rest, rest_out);
            }
        }
    };
}

#[cfg(tcast_avx512)]
bodies! {
    F32ToF16Wide => f32_to_f16_wide;
}

/// FLOAT -> FLOAT16 sixteen values per step, as four streams.
///
/// # Safety
/// The CPU runs [`avx512_family`]; `dst` holds the output of `src`'s elements.
#[cfg(tcast_avx512)]
#[inline(always)]
unsafe fn f32_to_f16_wide(src: &[u8], dst: &mut [u8]) {
    const IN: usize = 64;
    const OUT: usize = 32;
    let steps = src.len() / IN;
    let (whole, rest) = src.split_at(steps * IN);
    let (whole_out, rest_out) = dst.split_at_mut(steps * OUT);
    // SAFETY: the caller runs the AVX-512 family; each step gets its bytes.
    // SAFETY: the caller runs the AVX-512 family; each step gets its bytes.
    unsafe { light_streams!(f32_to_f16_wide_step, IN, OUT, whole, whole_out) };
    scalar_tail::<f32, f16>(rest, rest_out);
}

/// One step of [`f32_to_f16_wide`]: the sixteen FLOATs of `si` (64 bytes) rounded to
/// nearest even into `di` (32 bytes).
///
/// # Safety
/// The CPU runs [`avx512_family`]; `si` holds 64 bytes and `di` 32.
#[cfg(tcast_avx512)]
#[clippy::msrv = "1.89"] // built by Rust 1.89 or later only (build.rs)
#[inline(always)]
unsafe fn f32_to_f16_wide_step(si: &[u8], di: &mut [u8]) {
    // SAFETY: the caller's promise: the features, and the bytes each access reads or
    // writes.
    unsafe {
        let v = _mm512_loadu_ps(si.as_ptr().cast());
        let h = _mm512_cvtps_ph::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(v);
        _mm256_storeu_si256(di.as_mut_ptr().cast(), h);
    }
}

kernels! {
    /// f32 -> f16 by F16C, eight values per step.
    F32ToF16(f32 => f16, 32, four_streams) |si, di, _stream| {
        let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(_mm256_loadu_ps(si.cast()));
        _mm_storeu_si128(di.cast(), h);
    }

    /// f16 -> f32 by F16C, eight values per step.
    F16ToF32(f16 => f32, 16, streamed) |si, di, stream| {
        let v = _mm256_cvtph_ps(_mm_loadu_si128(si.cast()));
        store(di, _mm256_castps_si256(v), stream);
    }

    /// u8 -> f32, exactly.
    U8ToF32(u8 => f32, 32, streamed) |si, di, stream| {
        bytes_to_f32_step::<false>(si, di, stream)
    }

    /// i8 -> f32, exactly.
    I8ToF32(i8 => f32, 32, streamed) |si, di, stream| {
        bytes_to_f32_step::<true>(si, di, stream)
    }

    /// bf16 -> f32: the bits moved up 16 places, a NaN made quiet (as
    /// `convert::bf16_bits_to_f32`).
    Bf16ToF32(bf16 => f32, 32, streamed) |si, di, stream| {
        for k in 0..2 {
            let h = _mm_loadu_si128(si.add(16 * k).cast());
            let bits = _mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(h));
            let abs = _mm256_and_si256(bits, _mm256_set1_epi32(0x7fff_ffff));
            let nan = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7f80_0000));
            let quiet = _mm256_and_si256(nan, _mm256_set1_epi32(0x0040_0000));
            store(di.add(32 * k), _mm256_or_si256(bits, quiet), stream);
        }
    }

    /// f32 -> i32: truncation toward zero, saturating, NaN 0. The conversion
    /// instruction truncates and gives i32::MIN for NaN and every value out of range,
    /// which is already right for the negative side; the lanes at or above 2^31 flip it
    /// to i32::MAX, and NaN lanes are masked to 0.
    F32ToI32(f32 => i32, 64, streamed) |si, di, stream| {
        for k in 0..2 {
            let v = _mm256_loadu_ps(si.add(32 * k).cast());
            let t = _mm256_cvttps_epi32(v);
            let limit = _mm256_set1_ps(2_147_483_648.0);
            let over = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GE_OQ>(v, limit));
            let number = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_ORD_Q>(v, v));
            let i = _mm256_and_si256(_mm256_xor_si256(t, over), number);
            store(di.add(32 * k), i, stream);
        }
    }

    /// i32 -> f32, rounded to nearest even (the default environment, `simd::fpenv`).
    I32ToF32(i32 => f32, 64, streamed) |si, di, stream| {
        for k in 0..2 {
            let i = _mm256_loadu_si256(si.add(32 * k).cast());
            store(di.add(32 * k), _mm256_castps_si256(_mm256_cvtepi32_ps(i)), stream);
        }
    }

    /// i64 -> i32: the low 32 bits of each value (C's wrapping conversion, as the
    /// scalar cast): the even 32-bit lanes (the low halves, little-endian) of each
    /// 128-bit half, then the two halves' low 64 bits joined.
    I64ToI32(i64 => i32, 64, streamed) |si, di, stream| {
        let evens = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        let half = |k: usize| {
            _mm256_permutevar8x32_epi32(_mm256_loadu_si256(si.add(32 * k).cast()), evens)
        };
        store(di, _mm256_permute2x128_si256::<0x20>(half(0), half(1)), stream);
    }

    /// f64 -> f16: rounded to odd into f32, then F16C's round to nearest even.
    F64ToF16(f64 => f16, 64, four_streams) |si, di, _stream| {
        let lo = f64x4_to_f32_round_odd(_mm256_loadu_si256(si.cast()));
        let hi = f64x4_to_f32_round_odd(_mm256_loadu_si256(si.add(32).cast()));
        let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(_mm256_set_m128(hi, lo));
        _mm_storeu_si128(di.cast(), h);
    }

    /// f64 -> f32: the conversion instruction rounds to nearest even and quiets NaN
    /// keeping its sign and top payload bits, which is the rule.
    F64ToF32(f64 => f32, 64, streamed) |si, di, stream| {
        let lo = _mm256_cvtpd_ps(_mm256_loadu_pd(si.cast()));
        let hi = _mm256_cvtpd_ps(_mm256_loadu_pd(si.add(32).cast()));
        store(di, _mm256_castps_si256(_mm256_set_m128(hi, lo)), stream);
    }

    /// f32 -> bf16, sixteen values per step: round to nearest even, NaN quiet with its
    /// sign ([`f32x8_to_bf16_lanes`]); packus works per 128-bit lane, the permute
    /// restores element order.
    F32ToBf16(f32 => bf16, 64, four_streams) |si, di, _stream| {
        let a = f32x8_to_bf16_lanes(_mm256_loadu_si256(si.cast()));
        let b = f32x8_to_bf16_lanes(_mm256_loadu_si256(si.add(32).cast()));
        let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(a, b));
        _mm256_storeu_si256(di.cast(), packed);
    }

    /// f32 -> BOOL: 1 unless the value compares equal to zero (NaN gives 1), 32 values
    /// per step.
    F32ToBool(f32 => Bool, 128, four_streams) |si, di, _stream| {
        let one = _mm256_set1_epi32(1);
        let lane = |k: usize| {
            let v = _mm256_loadu_ps(si.add(32 * k).cast());
            let nonzero = _mm256_cmp_ps::<_CMP_NEQ_UQ>(v, _mm256_setzero_ps());
            _mm256_and_si256(_mm256_castps_si256(nonzero), one)
        };
        let ab = _mm256_packs_epi32(lane(0), lane(1));
        let cd = _mm256_packs_epi32(lane(2), lane(3));
        let bytes = _mm256_packs_epi16(ab, cd);
        // The two in-lane packs interleave 32-bit groups; put them back in order.
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        _mm256_storeu_si256(di.cast(), _mm256_permutevar8x32_epi32(bytes, order));
    }
}

/// 32 bytes (unsigned, or signed when `SIGNED`) at `si` -> f32 at `di`, exactly.
///
/// # Safety
/// The CPU runs the AVX2 family; `si` holds 32 readable bytes and `di` 128 writable
/// ones (32-byte aligned where `stream`).
#[inline(always)]
unsafe fn bytes_to_f32_step<const SIGNED: bool>(si: *const u8, di: *mut u8, stream: bool) {
    // SAFETY: the caller's promise.
    unsafe {
        for k in 0..4 {
            let b = _mm_loadl_epi64(si.add(8 * k).cast());
            let ints = if SIGNED {
                _mm256_cvtepi8_epi32(b)
            } else {
                _mm256_cvtepu8_epi32(b)
            };
            store(
                di.add(32 * k),
                _mm256_castps_si256(_mm256_cvtepi32_ps(ints)),
                stream,
            );
        }
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

/// FLOAT -> format `F` with options `OPT`, whole steps of 32 values, the codes packed
/// or, `UNPACKED`, one per byte: the float formats by [`encode::F32Step`], FLOAT4E2M1
/// packed by its own step (both in [`light_streams!`]: one plain loop below
/// [`FOUR_STREAMS_MIN_BYTES`] of source, see [`encode_half_steps`]), the integer formats
/// by conversion (in [`four_streams!`]).
///
/// # Safety
/// The CPU runs the AVX2 family; `src.len()` is a multiple of 128 and `dst.len()` is
/// `output_bytes::<F, UNPACKED>` of `src.len() / 4`.
#[inline(always)]
unsafe fn encode_f32_steps<const F: u8, const OPT: u8, const UNPACKED: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    let out = output_bytes::<F, UNPACKED>(32);
    // SAFETY: the caller runs the AVX2 family; each step gets 128 source bytes and the
    // output of 32 codes, as it needs.
    unsafe {
        match FORMATS[F as usize].kind {
            Kind::Int { .. } => {
                four_streams!(encode_f32_int_step::<F, UNPACKED>, 128, out, src, dst)
            }
            Kind::Fp4 if !UNPACKED => encode_f32_fp4_steps(src, dst),
            Kind::Fp6 if !UNPACKED => light_streams!(
                encode::F32Step::<__m256i, F, OPT, UNPACKED>::run,
                128,
                out,
                src,
                dst,
                rest
            ),
            _ => light_streams!(
                encode::F32Step::<__m256i, F, OPT, UNPACKED>::run,
                128,
                out,
                src,
                dst
            ),
        }
    }
}

/// One step of f32 -> codes of integer format `F` (INT4, UINT4, INT2, UINT2), 32
/// values: the low bits of each value rounded to the nearest even integer. The
/// conversion instruction rounds so (the default rounding mode) and gives 0x80000000
/// for NaN, infinities and magnitudes of 2^31 or more, whose low bits are 0 as the rule
/// has it (`lowp::LowSource`). The codes are packed (`store_codes`) here, or stored one
/// per byte (`UNPACKED`).
///
/// # Safety
/// The CPU must support AVX2; `si` holds 128 bytes and `di`
/// `output_bytes::<F, UNPACKED>(32)`.
#[inline(always)]
unsafe fn encode_f32_int_step<const F: u8, const UNPACKED: bool>(si: &[u8], di: &mut [u8]) {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the loads
    // read `si`'s 128 bytes and `store_codes` writes `di`'s.
    unsafe {
        let mask = _mm256_set1_epi32((1 << FORMATS[F as usize].bits) - 1);
        let p = si.as_ptr();
        let code = |k: usize| {
            let v = _mm256_loadu_ps(p.add(32 * k).cast());
            _mm256_and_si256(_mm256_cvtps_epi32(v), mask)
        };
        let codes = pack_codes(code(0), code(1), code(2), code(3));
        if UNPACKED {
            // In bounds: `di` holds 32 bytes.
            _mm256_storeu_si256(di.as_mut_ptr().cast(), codes);
        } else {
            store_codes::<F>(di, codes);
        }
    }
}

/// 32 f32 values (the 128 bytes at `si`) as FLOAT4E2M1 codes in 16-bit words, two
/// codes per word (`c[2k] + 16 * c[2k+1]`, below 256): rounded to bfloat16 to odd, a key
/// per value in 16-bit lanes and the codes looked up from it in bytes
/// (`encode::fp4_bytes`), nibbles paired by a multiply-add. The packs work
/// within 128-bit lanes: the low one holds the words of four-code groups 0, 2, 4, 6,
/// the high one of 1, 3, 5, 7, which the callers interleave.
///
/// # Safety
/// The CPU must support AVX2; `si` holds 128 bytes.
#[inline(always)]
unsafe fn fp4_words(si: &[u8]) -> __m256i {
    // SAFETY: the caller runs the AVX2 family (this function's contract); the loads
    // read `si`'s 128 bytes.
    unsafe {
        let p = si.as_ptr();
        let load = |k: usize| _mm256_loadu_si256(p.add(32 * k).cast());
        // Sixteen values each, in `bf16_odd_pairs`' order (loads 0 and 1, 2 and 3
        // interleaved), encoded as bytes of the signed pack's order
        // (`encode::fp4_bytes`, every tier's FLOAT4E2M1 encoder).
        let (lo, hi) = (
            bf16_odd_pairs(load(0), load(1)),
            bf16_odd_pairs(load(2), load(3)),
        );
        // Bytes per 128-bit lane, four-code groups: low lane 0, 2, 4, 6, high lane 1,
        // 3, 5, 7 (pairs adjacent).
        let bytes = encode::fp4_bytes::<__m256i, 1>(lo, hi);
        // The shuffle's indices hidden from the compiler (`lanes::opaque`), which
        // otherwise applied it to each of the four byte vectors `bytes` is made of (three
        // operations more per 32 values); the broadcast is hoisted out of the loop.
        let unzip = _mm256_broadcastsi128_si256(opaque(_mm256_castsi256_si128(unzip_pairs())));
        let codes = _mm256_shuffle_epi8(bytes, unzip);
        // Adjacent bytes (codes 2k, 2k+1) times (1, 16), summed: one byte of two nibbles.
        _mm256_maddubs_epi16(codes, _mm256_set1_epi16(0x1001))
    }
}

/// One step of f32 -> FLOAT4E2M1, 32 values (128 bytes) to 16 packed bytes
/// ([`fp4_words`]): for a call's last odd step ([`encode_f32_fp4_pair`]).
///
/// # Safety
/// The CPU must support AVX2; `si` holds 128 bytes and `di` 16.
#[inline(always)]
unsafe fn encode_f32_fp4_step(si: &[u8], di: &mut [u8]) {
    encode::step_boundary();
    // SAFETY: the caller runs the AVX2 family (this function's contract); `fp4_words`
    // reads `si`'s 128 bytes and the store writes `di`'s 16.
    unsafe {
        let words = fp4_words(si);
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

/// Two steps of f32 -> FLOAT4E2M1, 64 values (256 bytes) to 32 packed bytes
/// ([`fp4_words`] of each half): one pack of both halves' words, one permute of 64-bit
/// units that puts each half's groups in one 128-bit lane (even groups, then odd), one
/// byte shuffle that interleaves them, 3.5 operations per 32 values where a step alone
/// takes 5 (pack, extract, interleave).
///
/// # Safety
/// The CPU must support AVX2; `si` holds 256 bytes and `di` 32.
#[inline(always)]
unsafe fn encode_f32_fp4_pair(si: &[u8], di: &mut [u8]) {
    encode::step_boundary();
    // SAFETY: the caller runs the AVX2 family (this function's contract); `fp4_words`
    // reads `si`'s two halves of 128 bytes and the store writes `di`'s 32.
    unsafe {
        let (a, b) = (fp4_words(&si[..128]), fp4_words(&si[128..]));
        // 64-bit units: a's even groups, b's even, a's odd, b's odd.
        let bytes = _mm256_packus_epi16(a, b);
        let halves = _mm256_permute4x64_epi64::<0b11_01_10_00>(bytes);
        // Each lane: groups 0, 2, 4, 6 then 1, 3, 5, 7 (two bytes each) to 0-7.
        let order = _mm256_setr_epi8(
            0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15, 0, 1, 8, 9, 2, 3, 10, 11, 4, 5,
            12, 13, 6, 7, 14, 15,
        );
        let ordered = _mm256_shuffle_epi8(halves, order);
        _mm256_storeu_si256(di.as_mut_ptr().cast(), ordered);
    }
}

/// FLOAT -> FLOAT4E2M1 packed, whole steps of 32 values: two at a time
/// ([`encode_f32_fp4_pair`]) in [`light_streams!`], then the one left over.
///
/// # Safety
/// The CPU runs the AVX2 family; `src.len()` is a multiple of 128 and `dst.len()` is
/// `src.len() / 8`.
#[inline(always)]
unsafe fn encode_f32_fp4_steps(src: &[u8], dst: &mut [u8]) {
    let pairs = src.len() / 256 * 256;
    let (src, rest) = src.split_at(pairs);
    let (dst, rest_out) = dst.split_at_mut(pairs / 8);
    // SAFETY: the caller runs the AVX2 family; each pair gets 256 source bytes and 32
    // output bytes, the step left over 128 and 16.
    unsafe {
        light_streams!(encode_f32_fp4_pair, 256, 32, src, dst);
        if !rest.is_empty() {
            encode_f32_fp4_step(rest, rest_out);
        }
    }
}

/// f16 or bf16 (`SRC`: 0 f16, 1 bf16) -> float format `F` with options `OPT`, whole
/// steps of 32 values ([`encode::HalfStep`]) in [`light_streams!`], the codes packed
/// or, `UNPACKED`, one per byte. The float encoders, as the light kernels, ran slower as
/// four streams with their data in the caches, where the streams' prefetches and
/// interleaving buy nothing: in one plain loop, 64 Ki elements cast repeatedly (best
/// of 300 timings on the thread's CPU clock, the two builds loaded side by side in one
/// process and timed in turns; Zen 4, AVX2 tier), G values/s: FLOAT -> FLOAT4E2M1 6.47
/// -> 7.20, FLOAT8E4M3FN 6.22 -> 7.41, FLOAT6E2M3 5.10 -> 5.95, FLOAT6E3M2 5.12 -> 6.00,
/// BFLOAT16 -> FLOAT8E4M3FN 9.42 -> 10.07, FLOAT16 -> FLOAT6E2M3 7.05 -> 7.75; with 1
/// and 2 Mi FLOAT elements (4 and 8 MiB read) +16-25% too. From 12 MiB of source
/// (out of the caches) they still run as four streams.
///
/// # Safety
/// The CPU runs the AVX2 family; `src.len()` is a multiple of 64 and `dst.len()` is
/// `output_bytes::<F, UNPACKED>` of `src.len() / 2`.
#[inline(always)]
unsafe fn encode_half_steps<const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    let out = output_bytes::<F, UNPACKED>(32);
    // SAFETY: the caller runs the AVX2 family; each step gets 64 source bytes and the
    // output of 32 codes, as it needs.
    unsafe {
        match FORMATS[F as usize].kind {
            Kind::Fp6 if !UNPACKED => light_streams!(
                encode::HalfStep::<__m256i, SRC, F, OPT, UNPACKED>::run,
                64,
                out,
                src,
                dst,
                rest
            ),
            _ => light_streams!(
                encode::HalfStep::<__m256i, SRC, F, OPT, UNPACKED>::run,
                64,
                out,
                src,
                dst
            ),
        }
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

/// The table decoder of low-precision format `F` to table target `T`: the decoders
/// written over byte shuffles (`simd/decode.rs`), or the table's gathers for a format
/// they do not cover.
pub fn decode_lut<const F: u8, const T: u8>(token: Avx2) -> Kernel {
    decode::decoder::<Avx2, F, T>(token).unwrap_or_else(|| {
        let kernel = kernel(entry::<DecodeLut<F, T>>, 1, lut_size::<T>(), token);
        if T == LUT_F32 {
            kernel.streaming()
        } else {
            kernel
        }
    })
}

/// The decoder of a 4-bit, 2-bit or 6-bit format `F` to table target `T` from codes
/// held one per byte, masked by the kernel (`decode::held_decoder`); None for another
/// format.
pub fn decode_held<const F: u8, const T: u8>(token: Avx2) -> Option<Kernel> {
    decode::held_decoder::<Avx2, F, T>(token)
}

/// The decoders' entry point for body `B` in the VBMI build, which looks a 6-bit code's
/// 32 magnitudes up with one byte permute (`vpermb`) per byte of the result, where the
/// token has it.
fn wide_entry<B: Body>(token: Avx2) -> Option<Run> {
    #[cfg(tcast_avx512)]
    if token.avx512().and_then(|t| t.vbmi()).is_some() {
        return Some(entry_vbmi::<B>);
    }
    let _ = token;
    None
}

#[cfg(tcast_avx512)]
vbmi_family! { enable_features! {
    /// [`decode::packed`] of signed 6-bit codes (`BITS`: 6, or `decode::HELD`) by
    /// `vpermb`, compiled with the VBMI family's features.
    ///
    /// # Safety
    /// As [`decode::packed`]'s; the CPU runs [`vbmi_family`].
    unsafe fn decode_sixes_wide<const BITS: u8, const T: u8>(
        tables: &decode::PackedTables,
        src: &[u8],
        dst: &mut [u8],
    ) {
        // SAFETY: the caller's promise.
        unsafe { decode::packed::<__m256i, BITS, T, { decode::SIGNED }, true>(tables, src, dst) }
    }
} }

/// Without `tcast_avx512` no token has the VBMI build.
///
/// # Safety
/// Never called.
#[cfg(not(tcast_avx512))]
unsafe fn decode_sixes_wide<const BITS: u8, const T: u8>(
    _: &decode::PackedTables,
    _: &[u8],
    _: &mut [u8],
) {
    unreachable!("the VBMI build needs tcast_avx512")
}

decode::decoder_family!(Avx2, __m256i, avx2_family, wide: wide_entry, decode_sixes_wide);

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
    kernel,
    encode_f32_steps,
    encode_half_steps
);

/// The tier's encoder of format `F` with options `OPT` from `source`, if it has one
/// (`encode::encoder`, the codes packed or, `UNPACKED`, one per byte): on 512-bit
/// vectors ([`Wide`]) where the token has the VBMI build, else on AVX2's.
pub fn encoder<const F: u8, const OPT: u8, const UNPACKED: bool>(
    source: Scalar,
    token: Avx2,
) -> Option<Kernel> {
    #[cfg(tcast_avx512)]
    if let Some(wide) = Wide::of(token) {
        return encode::encoder::<Wide, F, OPT, UNPACKED>(source, wide);
    }
    encode::encoder::<Avx2, F, OPT, UNPACKED>(source, token)
}

/// The encoders on 512-bit vectors (`__m512i`, 32 lanes; `x86_64/lanes.rs`' `wide`):
/// the AVX2 token of a CPU that runs the VBMI family, which the encoders' entry points
/// (`entry_vbmi`) are compiled for. Twice the values per instruction, compares into
/// mask registers, and one byte permute (`vpermt2b`, `vpermb`) where AVX2 packs and
/// sorts the codes.
#[cfg(tcast_avx512)]
#[derive(Copy, Clone)]
struct Wide(Avx2);

#[cfg(tcast_avx512)]
impl Wide {
    /// The token, if the CPU runs the VBMI family.
    fn of(token: Avx2) -> Option<Wide> {
        token.avx512().and_then(|t| t.vbmi()).map(|_| Wide(token))
    }
}

/// [`Wide`]'s entry point for body `B`.
#[cfg(tcast_avx512)]
fn wide_encoder_entry<B: Body>(_: Wide) -> Run {
    entry_vbmi::<B>
}

/// A kernel of [`Wide`]: of the AVX2 tier, whose token holds the VBMI build's.
#[cfg(tcast_avx512)]
fn wide_kernel(run: Run, src_size: usize, dst_size: usize, token: Wide) -> Kernel {
    kernel(run, src_size, dst_size, token.0)
}

/// FLOAT -> format `F` with options `OPT` on [`Wide`], whole steps of 64 values in
/// [`light_streams!`] ([`encode::F32Step`]; as on AVX2, see [`encode_half_steps`]), the
/// codes packed or, `UNPACKED`, one per byte; the integer formats by the AVX2 steps.
///
/// # Safety
/// The CPU runs the VBMI family; `src.len()` is a multiple of 256 and `dst.len()` is
/// `output_bytes::<F, UNPACKED>` of `src.len() / 4`.
#[cfg(tcast_avx512)]
#[clippy::msrv = "1.89"] // built by Rust 1.89 or later only (build.rs)
#[inline(always)]
unsafe fn wide_f32_steps<const F: u8, const OPT: u8, const UNPACKED: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    let out = output_bytes::<F, UNPACKED>(64);
    // SAFETY: the caller runs the VBMI family (which includes AVX2's); each step gets
    // 256 source bytes and the output of 64 codes, as it needs.
    unsafe {
        match FORMATS[F as usize].kind {
            Kind::Int { .. } => encode_f32_steps::<F, OPT, UNPACKED>(src, dst),
            _ => light_streams!(
                encode::F32Step::<__m512i, F, OPT, UNPACKED>::run,
                256,
                out,
                src,
                dst
            ),
        }
    }
}

/// FLOAT16 or BFLOAT16 (`SRC`: 0, 1) -> float format `F` with options `OPT` on
/// [`Wide`], whole steps of 64 values ([`encode::HalfStep`]) in [`light_streams!`], the
/// codes packed or, `UNPACKED`, one per byte: in one plain loop below
/// [`FOUR_STREAMS_MIN_BYTES`] of source, as on AVX2 ([`encode_half_steps`]); 64 Ki
/// elements in turns as there, G values/s: FLOAT -> FLOAT4E2M1 7.42 -> 7.63,
/// FLOAT8E4M3FN 7.54 -> 7.92, BFLOAT16 -> FLOAT8E4M3FN 10.73 -> 10.94; 1 Mi FLOAT ->
/// FLOAT8E4M3FN 6.96 -> 7.71.
///
/// # Safety
/// The CPU runs the VBMI family; `src.len()` is a multiple of 128 and `dst.len()` is
/// `output_bytes::<F, UNPACKED>` of `src.len() / 2`.
#[cfg(tcast_avx512)]
#[clippy::msrv = "1.89"] // built by Rust 1.89 or later only (build.rs)
#[inline(always)]
unsafe fn wide_half_steps<const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    let out = output_bytes::<F, UNPACKED>(64);
    // SAFETY: the caller runs the VBMI family; each step gets 128 source bytes and the
    // output of 64 codes, as it needs.
    unsafe {
        light_streams!(
            encode::HalfStep::<__m512i, SRC, F, OPT, UNPACKED>::run,
            128,
            out,
            src,
            dst
        )
    }
}

#[cfg(tcast_avx512)]
#[clippy::msrv = "1.89"] // built by Rust 1.89 or later only (build.rs)
encode::encoder_family!(
    Wide,
    __m512i,
    wide_encoder_entry,
    wide_kernel,
    wide_f32_steps,
    wide_half_steps
);
