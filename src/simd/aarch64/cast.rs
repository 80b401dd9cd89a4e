// SPDX-License-Identifier: MIT OR Apache-2.0
//! NEON cast kernels, only where the conversion is one instruction that the compiler's
//! vectorisation of the portable loop does not reduce to: f32 -> f16 (FCVTN) and
//! f16 -> f32 (FCVTL), which it emulates with integer and float operations, and f64 ->
//! f32 (FCVTN from doubles), which it follows with a NaN fix-up FCVTN does not need. The
//! portable loops of f32 <-> bf16 already compile to the NEON code a hand-written kernel
//! would be, so they have none.
//!
//! FCVTN and FCVTL follow FPCR: with its default (all zero: round to nearest even, no
//! flush to zero, no default NaN, IEEE half precision) they round as the scalar
//! conversions in `cast::convert` do and turn a NaN into a quiet NaN with its sign and
//! top payload bits, as those do. Loads and stores go through byte vectors, so the
//! buffers need no alignment; each loop handles whole vectors and leaves the tail to the
//! scalar conversion. Their speed cannot be measured here (tests run under qemu), so they
//! are kept simple: one or two vectors per step, no unrolling or prefetching.
//!
//! As in `x86_64/cast.rs`, the bodies are `#[inline(always)]` functions without target
//! features; the generic entry point, compiled with the NEON family's features, is what
//! kernels point to.

use super::{neon_family, Neon};
use crate::dtype::Scalar;
use crate::formats::convert::{f16_bits_to_f32, f32_to_f16_bits, f64_to_f32 as f64_to_f32_scalar};
use crate::simd::cpu::Tier;
use crate::simd::family::{bodies, enable_features, Body, Run};
use crate::simd::kernel::Kernel;
use std::arch::aarch64::*;
use std::arch::asm;

neon_family! { enable_features! {
    /// # Safety
    /// The CPU runs the NEON family; the sizes of the kernel for `B`.
    unsafe fn entry<B: Body>(src: &[u8], dst: &mut [u8]) {
        // SAFETY: the caller's promise is the body's.
        unsafe { B::run(src, dst) }
    }
} }

bodies! {
    F32ToF16 => f32_to_f16;
    F16ToF32 => f16_to_f32;
    F64ToF32 => f64_to_f32;
}

/// A kernel of this family.
fn kernel(run: Run, src_size: usize, dst_size: usize, token: Neon) -> Kernel {
    // SAFETY: every `run` given here is an `entry` compiled for the NEON family, and the
    // tier carries the token that detection made on this CPU.
    unsafe { Kernel::new(run, src_size, dst_size, Tier::Neon(token)) }
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
            let halves: uint16x8_t;
            // `out`, not `lateout`: the result is written before `hi` is read.
            asm!(
                "fcvtn {h:v}.4h, {lo:v}.4s",
                "fcvtn2 {h:v}.8h, {hi:v}.4s",
                h = out(vreg) halves,
                lo = in(vreg) lo,
                hi = in(vreg) hi,
                options(pure, nomem, nostack),
            );
            vst1q_u8(di.as_mut_ptr(), vreinterpretq_u8_u16(halves));
        }
        for (si, di) in s
            .remainder()
            .chunks_exact(4)
            .zip(d.into_remainder().chunks_exact_mut(2))
        {
            let x = f32::from_ne_bytes([si[0], si[1], si[2], si[3]]);
            di.copy_from_slice(&f32_to_f16_bits(x).to_ne_bytes());
        }
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
            let halves = vreinterpretq_u16_u8(vld1q_u8(si.as_ptr()));
            let lo: float32x4_t;
            let hi: float32x4_t;
            // `out`, not `lateout`: `lo` is written before `halves` is read again.
            asm!(
                "fcvtl {lo:v}.4s, {h:v}.4h",
                "fcvtl2 {hi:v}.4s, {h:v}.8h",
                lo = out(vreg) lo,
                hi = out(vreg) hi,
                h = in(vreg) halves,
                options(pure, nomem, nostack),
            );
            vst1q_u8(di.as_mut_ptr(), vreinterpretq_u8_f32(lo));
            vst1q_u8(di.as_mut_ptr().add(16), vreinterpretq_u8_f32(hi));
        }
        for (si, di) in s
            .remainder()
            .chunks_exact(2)
            .zip(d.into_remainder().chunks_exact_mut(4))
        {
            let x = f16_bits_to_f32(u16::from_ne_bytes([si[0], si[1]]));
            di.copy_from_slice(&x.to_ne_bytes());
        }
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
        for (si, di) in s
            .remainder()
            .chunks_exact(8)
            .zip(d.into_remainder().chunks_exact_mut(4))
        {
            let mut raw = [0u8; 8];
            raw.copy_from_slice(si);
            di.copy_from_slice(&f64_to_f32_scalar(f64::from_ne_bytes(raw)).to_ne_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cast::kernels::select;
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
