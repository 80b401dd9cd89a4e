// SPDX-License-Identifier: MIT OR Apache-2.0
//! NEON cast kernels, only where the conversion is one instruction that the compiler's
//! vectorisation of the portable loop does not reduce to: f32 -> f16 (FCVTN) and
//! f16 -> f32 (FCVTL), which it emulates with integer and float operations, and f64 ->
//! f32 (FCVTN from doubles), which it follows with a NaN fix-up FCVTN does not need. The
//! portable loops of f32 <-> bf16 already compile to the NEON code a hand-written kernel
//! would be, so they have none. And the decoders of the low-precision formats to f32,
//! f16 and bf16, which the portable tier runs as a scalar table loop (`lut_all`),
//! written once for both ISAs in `simd/decode.rs` over its vector of byte lanes
//! (`simd/bytes.rs`: TBL lookups here; see [`decode_lut`]). And the encoders
//! to the low-precision formats, which the portable tier runs element by element (see
//! `simd::kernels::special_low`): FLOAT, FLOAT16 and BFLOAT16 to the float8 formats (FLOAT8E8M0
//! included), FLOAT6E2M3, FLOAT6E3M2 and FLOAT4E2M1 for every option set, written once
//! for both ISAs in `simd/encode.rs` over its vector trait, which this file implements
//! for `uint16x8_t` (FLOAT rounded to bfloat16 to odd first, then encoded in 16-bit
//! lanes with no branch on the data); and FLOAT to INT4, UINT4, INT2 and UINT2 by
//! FCVTNS. They write the 4-bit, 2-bit and 6-bit formats' codes packed themselves, and
//! run the values left after the whole steps as one more step padded with zeros.
//!
//! FCVTN and FCVTL follow FPCR: with its default (all zero: round to nearest even, no
//! flush to zero, no default NaN, IEEE half precision) they round as the scalar
//! conversions in `cast::convert` do and turn a NaN into a quiet NaN with its sign and
//! top payload bits, as those do. Loads and stores go through byte vectors, so the
//! buffers need no alignment; each loop but the encoders' handles whole vectors and leaves
//! the tail to the scalar conversion. Their speed, the encoders' included, cannot be
//! measured here (tests run under qemu), so they are kept simple: one or two vectors per
//! step, no unrolling or prefetching.
//!
//! As in `x86_64/cast.rs`, the bodies are `#[inline(always)]` functions without target
//! features; the generic entry point, compiled with the NEON family's features, is what
//! kernels point to.

use super::lanes::{store_codes, widen};
use super::{neon_family, Neon};
use crate::dtype::Scalar;
use crate::formats::lowp::{Kind, FORMATS};
use crate::simd::cpu::Tier;
use crate::simd::decode;
use crate::simd::encode;
use crate::simd::encoders::output_bytes;
use crate::simd::family::{bodies, enable_features, family_entry, scalar_tail, Body, Run};
use crate::simd::kernel::Kernel;
use half::f16;
use std::arch::aarch64::*;
use std::arch::asm;

family_entry!(neon_family, Neon, Tier::Neon);

// The kernels between standard types.
bodies! {
    F32ToF16 => f32_to_f16;
    F16ToF32 => f16_to_f32;
    F64ToF32 => f64_to_f32;
}

// The integer encoders' step (the float encoders are `simd/encode.rs`'s, the decoders
// `simd/decode.rs`'s).
bodies! {
    EncodeIntStep<const F: u8, const UNPACKED: bool> => encode_int_step;
}

/// The hand-written kernel for a pair of standard types, if there is one.
pub fn special(from: Scalar, to: Scalar, token: Neon) -> Option<Kernel> {
    let run: Run = match (from, to) {
        (Scalar::F32, Scalar::F16) => entry::<F32ToF16>,
        (Scalar::F16, Scalar::F32) => entry::<F16ToF32>,
        (Scalar::F64, Scalar::F32) => entry::<F64ToF32>,
        _ => return None,
    };
    Some(kernel(run, from.size(), to.size(), token))
}

/// Eight f32 values to f16 bits: FCVTN narrows `lo` into the low half of the result,
/// FCVTN2 `hi` into the high half.
///
/// # Safety
/// The CPU runs the NEON family.
#[inline(always)]
unsafe fn narrow(lo: float32x4_t, hi: float32x4_t) -> uint16x8_t {
    let halves: uint16x8_t;
    // SAFETY: the caller runs the NEON family; the instructions touch registers only.
    unsafe {
        // `out`, not `lateout`: the result is written before `hi` is read.
        asm!(
            "fcvtn {h:v}.4h, {lo:v}.4s", "fcvtn2 {h:v}.8h, {hi:v}.4s",
            lo = in(vreg) lo, hi = in(vreg) hi, h = out(vreg) halves,
            options(pure, nomem, nostack),
        );
    }
    halves
}

/// f32 -> f16, eight values per step: FCVTN narrows four into the low half of a vector,
/// FCVTN2 four more into the high half.
///
/// # Safety
/// The CPU runs the NEON family; `dst.len() / 2 == src.len() / 4`.
#[inline(always)]
unsafe fn f32_to_f16(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the NEON family (this function's contract); the loads and
    // stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(32);
        let mut d = dst.chunks_exact_mut(16);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` holds 32 readable bytes and `di` 16 writable bytes.
            let lo = vreinterpretq_f32_u8(vld1q_u8(si.as_ptr()));
            let hi = vreinterpretq_f32_u8(vld1q_u8(si.as_ptr().add(16)));
            vst1q_u8(di.as_mut_ptr(), vreinterpretq_u8_u16(narrow(lo, hi)));
        }
        scalar_tail::<f32, f16>(s.remainder(), d.into_remainder());
    }
}

/// f16 -> f32, eight values per step: FCVTL widens the low four, FCVTL2 the high four.
///
/// # Safety
/// The CPU runs the NEON family; `dst.len() / 4 == src.len() / 2`.
#[inline(always)]
unsafe fn f16_to_f32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the NEON family (this function's contract); the loads and
    // stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(16);
        let mut d = dst.chunks_exact_mut(32);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` holds 16 readable bytes and `di` 32 writable bytes.
            let (lo, hi) = widen(vreinterpretq_u16_u8(vld1q_u8(si.as_ptr())));
            vst1q_u8(di.as_mut_ptr(), vreinterpretq_u8_f32(lo));
            vst1q_u8(di.as_mut_ptr().add(16), vreinterpretq_u8_f32(hi));
        }
        scalar_tail::<f16, f32>(s.remainder(), d.into_remainder());
    }
}

/// f64 -> f32, four values per step: FCVTN narrows two doubles into the low half,
/// FCVTN2 two more into the high half. The compiler uses the same instruction for the
/// portable loop but then redoes every NaN by hand, which FCVTN already gets right.
///
/// # Safety
/// The CPU runs the NEON family; `dst.len() / 4 == src.len() / 8`.
#[inline(always)]
unsafe fn f64_to_f32(src: &[u8], dst: &mut [u8]) {
    // SAFETY: the caller runs the NEON family (this function's contract); the loads and
    // stores stay inside the slices, as noted at each.
    unsafe {
        let mut s = src.chunks_exact(32);
        let mut d = dst.chunks_exact_mut(16);
        for (si, di) in (&mut s).zip(&mut d) {
            // In bounds: `si` holds 32 readable bytes and `di` 16 writable bytes.
            let lo = vreinterpretq_f64_u8(vld1q_u8(si.as_ptr()));
            let hi = vreinterpretq_f64_u8(vld1q_u8(si.as_ptr().add(16)));
            let both = vcvt_high_f32_f64(vcvt_f32_f64(lo), hi);
            vst1q_u8(di.as_mut_ptr(), vreinterpretq_u8_f32(both));
        }
        scalar_tail::<f64, f32>(s.remainder(), d.into_remainder());
    }
}

/// The decoder of low-precision format `F` to table target `T` (`LUT_F32`, `LUT_F16`,
/// `LUT_BF16`), if this tier has one: the decoders written over byte shuffles
/// (`simd/decode.rs`); None for any other format (the scalar table loop).
pub fn decode_lut<const F: u8, const T: u8>(token: Neon) -> Option<Kernel> {
    decode::decoder::<Neon, F, T>(token)
}

/// The decoder of a 4-bit, 2-bit or 6-bit format `F` to table target `T` from codes
/// held one per byte, masked by the kernel (`decode::held_decoder`); None for another
/// format.
pub fn decode_held<const F: u8, const T: u8>(token: Neon) -> Option<Kernel> {
    decode::held_decoder::<Neon, F, T>(token)
}

decode::decoder_family!(Neon, uint8x16_t, neon_family);

/// The encoders' entry point for body `B` (NEON has one build).
fn encoder_entry<B: Body>(_: Neon) -> Run {
    entry::<B>
}

encode::encoder_family!(
    Neon,
    uint16x8_t,
    encoder_entry,
    kernel,
    encode_float_steps,
    encode_half_steps
);

/// Runs `S::run(si, di)` on each step of `src` (`step_in` bytes) and `dst` (`step_out`).
///
/// # Safety
/// `S` runs on steps of these sizes (the CPU runs its family).
#[inline(always)]
unsafe fn each_step<S: Body>(src: &[u8], dst: &mut [u8], step_in: usize, step_out: usize) {
    for (si, di) in src
        .chunks_exact(step_in)
        .zip(dst.chunks_exact_mut(step_out))
    {
        // SAFETY: the caller's promise.
        unsafe { S::run(si, di) };
    }
}

/// FLOAT -> format `F` with options `OPT`, whole steps of 16 values, the codes packed
/// or, `UNPACKED`, one per byte: the float formats by [`encode::F32Step`], the integer
/// ones by [`encode_int_step`].
///
/// # Safety
/// The CPU runs the NEON family; `src.len()` is a multiple of 64 and `dst.len()` is
/// `output_bytes::<F, UNPACKED>` of `src.len() / 4`.
#[inline(always)]
unsafe fn encode_float_steps<const F: u8, const OPT: u8, const UNPACKED: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    let out = output_bytes::<F, UNPACKED>(16);
    // SAFETY: the caller runs the NEON family; each step gets 64 source bytes and the
    // output of 16 codes, as it needs.
    unsafe {
        if matches!(FORMATS[F as usize].kind, Kind::Int { .. }) {
            each_step::<EncodeIntStep<F, UNPACKED>>(src, dst, 64, out);
        } else {
            each_step::<encode::F32Step<uint16x8_t, F, OPT, UNPACKED>>(src, dst, 64, out);
        }
    }
}

/// f16 or bf16 (`SRC`: 0 f16, 1 bf16) -> float format `F` with options `OPT`, whole
/// steps of 16 values ([`encode::HalfStep`]), the codes packed or, `UNPACKED`, one per
/// byte.
///
/// # Safety
/// The CPU runs the NEON family; `src.len()` is a multiple of 32 and `dst.len()` is
/// `output_bytes::<F, UNPACKED>` of `src.len() / 2`.
#[inline(always)]
unsafe fn encode_half_steps<const SRC: u8, const F: u8, const OPT: u8, const UNPACKED: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    let out = output_bytes::<F, UNPACKED>(16);
    // SAFETY: the caller runs the NEON family; each step gets 32 source bytes and the
    // output of 16 codes, as it needs.
    unsafe { each_step::<encode::HalfStep<uint16x8_t, SRC, F, OPT, UNPACKED>>(src, dst, 32, out) }
}

/// One step of FLOAT to an integer format: 16 f32 (`si`, 64 bytes) to the low bits of
/// each value rounded to the nearest even integer. FCVTNS rounds so whatever FPCR says and gives 0
/// for NaN, as the rule has it (`lowp::LowSource`), but saturates magnitudes of 2^31 or
/// more (infinities included) to i32::MIN or i32::MAX, where the rule gives 0: those
/// lanes are cleared (for i32::MIN the low bits were 0 already, for i32::MAX they were
/// all ones). Below 2^31 every f32 of magnitude 2^23 or more is an integer, so no lane
/// rounds up across that bound. The codes are packed (`store_codes`) here, or stored
/// one per byte (`UNPACKED`).
///
/// # Safety
/// The CPU runs the NEON family; `si` holds 64 bytes and `di`
/// `output_bytes::<F, UNPACKED>(16)`.
#[inline(always)]
unsafe fn encode_int_step<const F: u8, const UNPACKED: bool>(si: &[u8], di: &mut [u8]) {
    // SAFETY: the caller runs the NEON family; the loads read `si`'s 64 bytes and
    // `store_codes` writes `di`'s.
    unsafe {
        let p = si.as_ptr();
        let limit = vdupq_n_f32(2_147_483_648.0);
        let int = |k: usize| {
            let v = vreinterpretq_f32_u8(vld1q_u8(p.add(16 * k)));
            let rounded = vreinterpretq_u32_s32(vcvtnq_s32_f32(v));
            vbicq_u32(rounded, vcageq_f32(v, limit))
        };
        let lo = vmovn_high_u32(vmovn_u32(int(0)), int(1));
        let hi = vmovn_high_u32(vmovn_u32(int(2)), int(3));
        let mask = vdupq_n_u8((1 << FORMATS[F as usize].bits) - 1);
        let codes = vandq_u8(vmovn_high_u16(vmovn_u16(lo), hi), mask);
        if UNPACKED {
            // In bounds: `di` holds 16 bytes.
            vst1q_u8(di.as_mut_ptr(), codes);
        } else {
            store_codes::<F>(di, codes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cast::kernels::{select, select_any};
    use crate::formats::convert::f16_bits_to_f32;
    use crate::formats::dispatch::{
        by_format, by_format_and_options, FormatVisitor, OptionsVisitor,
    };
    use crate::formats::lut::{lut_all, lut_size, LUT_BF16, LUT_F16, LUT_F32};
    use crate::formats::pack;
    use crate::formats::repr::Repr;
    use crate::testutil::Rng;

    /// The NEON token, whatever `TCAST_DISABLE_CPU_FEATURES` says: these tests are about
    /// the kernels themselves.
    fn token() -> Neon {
        super::super::detect(&|_| false)
            .neon
            .expect("every aarch64 CPU has NEON")
    }

    const RANDOM_SAMPLES: usize = 300_000;

    /// Runs the NEON kernel and the portable one over `src` and asserts the same bytes:
    /// the whole buffer, the whole buffer misaligned by one byte, and every length below
    /// 70 elements (so every tail length, after zero or more whole vectors) from a few
    /// starting points.
    fn same_as_portable(from: Scalar, to: Scalar, src: &[u8]) {
        let neon = special(from, to, token()).expect("a NEON kernel for this pair");
        let portable = select(from, to, Tier::Portable);
        let (src_size, dst_size) = (from.size(), to.size());
        let count = src.len() / src_size;
        let compare = |src: &[u8], skew: usize| {
            let n = src.len() / src_size;
            let mut ours = vec![0u8; n * dst_size + skew];
            let mut theirs = vec![0u8; n * dst_size];
            neon.run(src, &mut ours[skew..]);
            portable.run(src, &mut theirs);
            let ours = &ours[skew..];
            if ours != theirs.as_slice() {
                let i = (0..n)
                    .find(|&i| {
                        ours[i * dst_size..][..dst_size] != theirs[i * dst_size..][..dst_size]
                    })
                    .expect("some element differs");
                panic!(
                    "{from:?} -> {to:?}, element {i} of {n}: input {:02x?}, NEON {:02x?}, portable {:02x?}",
                    &src[i * src_size..][..src_size],
                    &ours[i * dst_size..][..dst_size],
                    &theirs[i * dst_size..][..dst_size],
                );
            }
        };
        compare(src, 0);
        let mut shifted = vec![0u8; src.len() + 1];
        shifted[1..].copy_from_slice(src);
        compare(&shifted[1..], 1);
        for len in 0..70 {
            for start in [0, 3, count / 2, count.saturating_sub(len)] {
                if start + len <= count {
                    compare(&src[start * src_size..(start + len) * src_size], len % 2);
                }
            }
        }
    }

    fn bytes_of_u16(values: &[u16]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_ne_bytes()).collect()
    }

    fn bytes_of_u32(values: &[u32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_ne_bytes()).collect()
    }

    fn bytes_of_u64(values: &[u64]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_ne_bytes()).collect()
    }

    /// Each pattern, its neighbours up to two units away, and all of them negated.
    fn with_neighbours_u32(patterns: impl IntoIterator<Item = u32>) -> Vec<u32> {
        let mut out = Vec::new();
        for p in patterns {
            for delta in -2..=2 {
                let q = p.wrapping_add_signed(delta);
                out.push(q);
                out.push(q ^ 0x8000_0000);
            }
        }
        out
    }

    fn with_neighbours_u64(patterns: impl IntoIterator<Item = u64>) -> Vec<u64> {
        let mut out = Vec::new();
        for p in patterns {
            for delta in -2..=2 {
                let q = p.wrapping_add_signed(delta);
                out.push(q);
                out.push(q ^ (1 << 63));
            }
        }
        out
    }

    /// Zeros, subnormals, the normal range's ends, infinities, and signalling and quiet
    /// NaNs with payloads high and low, as f32 bit patterns (positive; the callers add
    /// the negatives).
    const F32_SPECIALS: [u32; 20] = [
        0x0000_0000, // 0
        0x0000_0001, // smallest subnormal
        0x0000_0002,
        0x0040_0000,
        0x007f_ffff, // largest subnormal
        0x0080_0000, // smallest normal
        0x0080_0001,
        0x3f80_0000, // 1
        0x7f7f_ffff, // largest normal
        0x7f80_0000, // infinity
        0x7f80_0001, // signalling NaNs
        0x7f80_1fff,
        0x7f80_2000,
        0x7fa0_0000,
        0x7fbf_ffff,
        0x7fc0_0000, // quiet NaNs
        0x7fc0_0001,
        0x7fc0_2000,
        0x7fe0_0000,
        0x7fff_ffff,
    ];

    #[test]
    fn f16_to_f32_matches_portable_on_every_input() {
        let all: Vec<u16> = (0..=u16::MAX).collect();
        same_as_portable(Scalar::F16, Scalar::F32, &bytes_of_u16(&all));
    }

    /// Every finite f16 value and the tie between it and the next one up (the last tie,
    /// 65520, is where rounding reaches infinity), with their f32 neighbours and signs:
    /// every rounding tie of f32 -> f16, in the subnormal range, across each binade and
    /// at the range's top. Then the specials, and random bit patterns.
    #[test]
    fn f32_to_f16_matches_portable_on_ties_specials_and_random_patterns() {
        let ties = (0..0x7c00u16).flat_map(|h| {
            let here = f16_bits_to_f32(h);
            let next = if h == 0x7bff {
                65536.0
            } else {
                f16_bits_to_f32(h + 1)
            };
            // Exact: the midpoint of two f16 values has 12 significant bits.
            let tie = ((f64::from(here) + f64::from(next)) / 2.0) as f32;
            [here.to_bits(), tie.to_bits()]
        });
        let mut values = with_neighbours_u32(ties.chain(F32_SPECIALS));
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        values.extend((0..RANDOM_SAMPLES).map(|_| rng.next() as u32));
        assert!(values.len() > 900_000);
        same_as_portable(Scalar::F32, Scalar::F16, &bytes_of_u32(&values));
    }

    /// The f64 ties between neighbouring f32 values `a` and the one above it, exact.
    fn f32_tie_above(a: u32) -> u64 {
        let here = f64::from(f32::from_bits(a));
        let next = if a + 1 == 0x7f80_0000 {
            f64::from_bits(0x47f0_0000_0000_0000) // 2^128, where f32's exponents end
        } else {
            f64::from(f32::from_bits(a + 1))
        };
        ((here + next) / 2.0).to_bits()
    }

    /// For each f32 exponent, a few significands at the binade's ends and middle: the
    /// values (as f64) and the ties above them, with f64 neighbours and signs (ties in
    /// the subnormal range, at the normal range's bottom, and above the largest f32,
    /// where rounding reaches infinity); f64 specials; and random values, half raw bit
    /// patterns and half near an f32 tie.
    #[test]
    fn f64_to_f32_matches_portable_on_ties_specials_and_random_patterns() {
        let significands = [
            0, 1, 2, 3, 0x3f_ffff, 0x40_0000, 0x40_0001, 0x7f_fffe, 0x7f_ffff,
        ];
        let points = (0..255u32).flat_map(|exp| {
            significands.into_iter().flat_map(move |sig| {
                let a = (exp << 23) | sig;
                [f64::from(f32::from_bits(a)).to_bits(), f32_tie_above(a)]
            })
        });
        let specials = [
            0x0000_0000_0000_0001, // smallest subnormal
            0x000f_ffff_ffff_ffff, // largest subnormal
            0x0010_0000_0000_0000, // smallest normal
            0x7fef_ffff_ffff_ffff, // largest normal
            0x7ff0_0000_0000_0000, // infinity
            0x7ff0_0000_0000_0001, // signalling NaNs: payload only in the dropped bits,
            0x7ff0_0000_2000_0000, // at f32's lowest payload bit,
            0x7ff4_0000_0000_0000, // and high
            0x7ff7_ffff_ffff_ffff,
            0x7ff8_0000_0000_0000, // quiet NaNs
            0x7ff8_0000_0000_0001,
            0x7ff8_0000_2000_0000,
            0x7ffc_0000_0000_0000,
            0x7fff_ffff_ffff_ffff,
            0x3ff0_0000_0000_0000, // 1
        ];
        let f32_as_f64 = F32_SPECIALS
            .into_iter()
            .filter(|&b| b & 0x7fff_ffff <= 0x7f80_0000)
            .map(|b| f64::from(f32::from_bits(b)).to_bits());
        let mut values = with_neighbours_u64(points.chain(specials).chain(f32_as_f64));
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for k in 0..RANDOM_SAMPLES {
            let r = rng.next();
            values.push(if k % 2 == 0 {
                r
            } else {
                let a = (r as u32) % 0x7f80_0000;
                let delta = (r >> 32) % 5;
                f32_tie_above(a).wrapping_add(delta).wrapping_sub(2) ^ (r & (1 << 63))
            });
        }
        assert!(values.len() > 300_000);
        same_as_portable(Scalar::F64, Scalar::F32, &bytes_of_u64(&values));
    }

    /// Every low-precision format's decoder to FLOAT, FLOAT16 and BFLOAT16, as the tier
    /// dispatch (`simd::kernels::decode_lut`) hands it to the kernel selection: a NEON
    /// kernel, not the scalar table loop, reading the packed codes itself for a 4-bit,
    /// 2-bit or 6-bit format (so the selection runs it on packed input); the shared
    /// tests (`src/cast/lowp_tests.rs`) check their values on every tier.
    fn decoders_of<const F: u8>() {
        let bits = FORMATS[F as usize].bits;
        let unpacks = if bits == 8 { 0 } else { bits };
        let tier = Tier::Neon(token());
        let kernels = [
            crate::simd::kernels::decode_lut::<F, LUT_F32>(tier),
            crate::simd::kernels::decode_lut::<F, LUT_F16>(tier),
            crate::simd::kernels::decode_lut::<F, LUT_BF16>(tier),
        ];
        for (kernel, size) in kernels.into_iter().zip([4, 2, 2]) {
            let name = FORMATS[F as usize].dtype;
            let kernel = kernel.unwrap_or_else(|| panic!("no NEON decoder of {name}"));
            assert_eq!((kernel.src_size, kernel.dst_size), (1, size), "{name}");
            assert_eq!(kernel.unpacks_bits, unpacks, "{name}");
            assert_eq!(kernel.tier, tier, "{name}");
        }
        for to in [Scalar::F32, Scalar::F16, Scalar::Bf16] {
            let kernel = select_any(Repr::Low(F), Repr::Std(to), true, 0, tier);
            assert_eq!(kernel.unpacks_bits, unpacks);
        }
    }

    /// The output of decoder `kernel` of format `F` to table target `T` on `codes`,
    /// packed first for a kernel that unpacks (the unused high bits of a part-filled
    /// last byte set, which it must not read), from a source `skew` bytes into its
    /// buffer, against the table's entries.
    fn decodes_as_the_table<const F: u8, const T: u8>(kernel: Kernel, codes: &[u8], skew: usize) {
        let bits = kernel.unpacks_bits;
        let mut input = vec![0u8; skew];
        if bits != 0 {
            let mut packed = vec![0u8; pack::packed_bytes(bits, codes.len())];
            pack::pack(bits, codes, &mut packed);
            let used = codes.len() * bits as usize % 8;
            if used != 0 {
                *packed.last_mut().expect("a part-filled byte") |= 0xff << used;
            }
            input.extend_from_slice(&packed);
        } else {
            input.extend_from_slice(codes);
        }
        let size = lut_size::<T>();
        let mut expected = vec![0u8; codes.len() * size];
        lut_all::<F, T>(codes, &mut expected);
        let mut got = vec![0u8; codes.len() * size + skew];
        kernel.run(&input[skew..], &mut got[skew..]);
        let got = &got[skew..];
        if let Some(i) =
            (0..codes.len()).find(|&i| got[i * size..][..size] != expected[i * size..][..size])
        {
            panic!(
                "{} -> target {T}, code {:#04x} at {i} of {}, skew {skew}: NEON {:02x?}, table {:02x?}",
                FORMATS[F as usize].dtype,
                codes[i],
                codes.len(),
                &got[i * size..][..size],
                &expected[i * size..][..size],
            );
        }
    }

    /// Every code of format `F`, then random codes at every length below 100 (every
    /// tail after zero to six whole steps) and a long run, from aligned and misaligned
    /// buffers, through its three decoders.
    fn decoders_match_the_table<const F: u8>() {
        let count = 1usize << FORMATS[F as usize].bits;
        let all: Vec<u8> = (0..count).map(|c| c as u8).collect();
        let mut rng = Rng(0x6a09_e667_f3bc_c908 ^ u64::from(F));
        let mut inputs = vec![all];
        for len in (0..100).chain([1000]) {
            inputs.push(
                (0..len)
                    .map(|_| (rng.next() % count as u64) as u8)
                    .collect(),
            );
        }
        let tier = Tier::Neon(token());
        let f32s = crate::simd::kernels::decode_lut::<F, LUT_F32>(tier).expect("a NEON decoder");
        let f16s = crate::simd::kernels::decode_lut::<F, LUT_F16>(tier).expect("a NEON decoder");
        let bf16s = crate::simd::kernels::decode_lut::<F, LUT_BF16>(tier).expect("a NEON decoder");
        for codes in &inputs {
            for skew in [0, 1] {
                decodes_as_the_table::<F, LUT_F32>(f32s, codes, skew);
                decodes_as_the_table::<F, LUT_F16>(f16s, codes, skew);
                decodes_as_the_table::<F, LUT_BF16>(bf16s, codes, skew);
            }
        }
    }

    #[test]
    fn every_low_precision_format_has_neon_decoders_that_read_packed_codes() {
        struct Each;
        impl FormatVisitor for Each {
            type Out = ();
            fn visit<const F: u8>(self) {
                decoders_of::<F>()
            }
        }
        for format in 0..FORMATS.len() as u8 {
            by_format(format, Each);
        }
    }

    #[test]
    fn low_precision_decoders_match_the_table_in_steps_and_tails() {
        struct Each;
        impl FormatVisitor for Each {
            type Out = ();
            fn visit<const F: u8>(self) {
                decoders_match_the_table::<F>()
            }
        }
        for format in 0..FORMATS.len() as u8 {
            by_format(format, Each);
        }
    }

    /// The encoders of format `F` compiled for each of its option sets `opts`, as the
    /// tier dispatch (`simd::kernels::special_low`) hands them to the kernel selection:
    /// a NEON kernel from FLOAT for every format and from FLOAT16 and BFLOAT16 for the
    /// float formats (none for the integer ones), with the source's size, one code per
    /// element, and for a 4-bit, 2-bit or 6-bit format its codes packed by the kernel;
    /// the selection picks it. The shared tests (`src/cast/lowp_tests.rs`) check their
    /// codes on every tier.
    fn encoders_of<const F: u8>(opts: &[u8]) {
        let format = &FORMATS[F as usize];
        let name = format.dtype;
        let is_int = matches!(format.kind, Kind::Int { .. });
        let packs = if format.bits == 8 { 0 } else { format.bits };
        let tier = Tier::Neon(token());
        for &opt in opts {
            for source in [Scalar::F32, Scalar::F16, Scalar::Bf16] {
                let (from, to) = (Repr::Std(source), Repr::Low(F));
                let kernel = crate::simd::kernels::special_low(from, to, opt, tier);
                if is_int && source != Scalar::F32 {
                    assert!(kernel.is_none(), "{source:?} -> {name}: a NEON encoder");
                    continue;
                }
                let kernel = kernel
                    .unwrap_or_else(|| panic!("{source:?} -> {name}, options {opt}: no encoder"));
                let what = format!("{source:?} -> {name}, options {opt}");
                assert_eq!(
                    (kernel.src_size, kernel.dst_size),
                    (source.size(), 1),
                    "{what}"
                );
                assert_eq!(kernel.packs_bits, packs, "{what}");
                assert_eq!(kernel.unpacks_bits, 0, "{what}");
                assert_eq!(kernel.tier, tier, "{what}");
                let chosen = select_any(from, to, opt & 1 == 1, opt >> 1, tier);
                assert_eq!(chosen.tier, tier, "{what}");
                assert_eq!(chosen.packs_bits, packs, "{what}");
                assert_eq!(
                    (chosen.src_size, chosen.dst_size),
                    (source.size(), 1),
                    "{what}"
                );
            }
        }
    }

    #[test]
    fn every_source_format_and_option_set_has_a_neon_encoder() {
        struct Each;
        impl OptionsVisitor for Each {
            type Out = ();
            fn visit<const F: u8, const OPT: u8>(self) {
                encoders_of::<F>(&[OPT])
            }
        }
        for (format, row) in FORMATS.iter().enumerate() {
            for &opt in row.options() {
                by_format_and_options(format as u8, opt, Each);
            }
        }
    }

    #[test]
    fn the_kernels_are_on_the_neon_tier_with_their_pairs_sizes() {
        for (from, to) in [
            (Scalar::F32, Scalar::F16),
            (Scalar::F16, Scalar::F32),
            (Scalar::F64, Scalar::F32),
        ] {
            let kernel = special(from, to, token()).expect("a NEON kernel");
            assert_eq!((kernel.src_size, kernel.dst_size), (from.size(), to.size()));
            assert_eq!(kernel.tier, Tier::Neon(token()));
        }
    }
}
