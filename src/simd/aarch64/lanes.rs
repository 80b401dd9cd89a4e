// SPDX-License-Identifier: MIT OR Apache-2.0
//! The NEON pieces of the encoders' vector of 16-bit lanes (`simd/lanes.rs` names them in
//! its table): widening FLOAT16 to f32 (FCVTL), rounding f32 to bfloat16 to odd, packing
//! and storing codes. Each requires the CPU to run the NEON family.

use crate::formats::lowp::FORMATS;
use std::arch::aarch64::*;
use std::arch::asm;

/// Eight f16 values (bits) to f32: FCVTL widens the low four, FCVTL2 the high four.
///
/// # Safety
/// The CPU runs the NEON family.
#[inline(always)]
pub(crate) unsafe fn widen(halves: uint16x8_t) -> (float32x4_t, float32x4_t) {
    let lo: float32x4_t;
    let hi: float32x4_t;
    // SAFETY: the caller runs the NEON family; the instructions touch registers only.
    unsafe {
        // `out`, not `lateout`: `lo` is written before `halves` is read again.
        asm!(
            "fcvtl {lo:v}.4s, {h:v}.4h",
            "fcvtl2 {hi:v}.4s, {h:v}.8h",
            lo = out(vreg) lo,
            hi = out(vreg) hi,
            h = in(vreg) halves,
            options(pure, nomem, nostack),
        );
    }
    (lo, hi)
}

/// Eight f32 values (as bits, `a` then `b`) rounded to bfloat16 to odd: the top 16
/// bits, with the last bit set when the low 16 were not all zero. A NaN stays a NaN
/// (a payload only in the low bits sets the sticky bit).
///
/// # Safety
/// The CPU runs the NEON family.
#[inline(always)]
pub(crate) unsafe fn bf16_odd(a: uint32x4_t, b: uint32x4_t) -> uint16x8_t {
    // SAFETY: the caller runs the NEON family; registers only.
    unsafe {
        let high = vshrn_high_n_u32::<16>(vshrn_n_u32::<16>(a), b);
        let low = vmovn_high_u32(vmovn_u32(a), b);
        vorrq_u16(high, vminq_u16(low, vdupq_n_u16(1)))
    }
}

/// [`bf16_odd`] in two parts, the top halves and the mask of the lanes whose sticky bit
/// is clear, bit `lsb` of the top halves counted as a low bit (`Halves::load_f32_parts`).
///
/// # Safety
/// The CPU runs the NEON family.
#[inline(always)]
pub(crate) unsafe fn bf16_parts(
    a: uint32x4_t,
    b: uint32x4_t,
    lsb: u16,
) -> (uint16x8_t, uint16x8_t) {
    // SAFETY: the caller runs the NEON family; registers only.
    unsafe {
        let high = vshrn_high_n_u32::<16>(vshrn_n_u32::<16>(a), b);
        let low = vmovn_high_u32(vmovn_u32(a), b);
        let low = vorrq_u16(low, vandq_u16(high, vdupq_n_u16(lsb)));
        (high, vceqzq_u16(low))
    }
}

/// Stores 16 codes (one per byte, element order) of format `F`: as they are, packed
/// two or four per byte (the first in the lowest bits) for the 4-bit and 2-bit
/// formats, or four per three bytes for the 6-bit ones, by shifts and ORs within 16-bit
/// and 32-bit lanes (little-endian, as on the aarch64 Linux targets: lane k holds the
/// bytes 2k and 2k + 1, the first lowest) and narrowing moves.
///
/// # Safety
/// The CPU runs the NEON family; `di` holds `code_bytes::<F>(16)` writable bytes.
#[inline(always)]
pub(crate) unsafe fn store_codes<const F: u8>(di: &mut [u8], codes: uint8x16_t) {
    // SAFETY: the caller runs the NEON family; the stores write `di`'s bytes or a stack
    // buffer, as noted at each.
    unsafe {
        let words = vreinterpretq_u16_u8(codes);
        match FORMATS[F as usize].bits {
            4 => {
                // Word k holds codes 2k and 2k + 1: the second moves down into the high
                // nibble of the low byte, which the narrowing keeps.
                let bytes = vmovn_u16(vorrq_u16(words, vshrq_n_u16::<4>(words)));
                // In bounds: `di` holds 8 bytes.
                vst1_u8(di.as_mut_ptr(), bytes);
            }
            2 => {
                // Pairs of codes into 4-bit values, then pairs of those into bytes.
                let pairs = vmovn_u16(vorrq_u16(words, vshrq_n_u16::<6>(words)));
                let pairs = vreinterpret_u16_u8(pairs);
                let quads = vmovn_u16(vcombine_u16(
                    vorr_u16(pairs, vshr_n_u16::<4>(pairs)),
                    vdup_n_u16(0),
                ));
                let mut bytes = [0u8; 8];
                // In bounds: `bytes` holds 8 bytes; the first 4 are `di`'s.
                vst1_u8(bytes.as_mut_ptr(), quads);
                di.copy_from_slice(&bytes[..4]);
            }
            6 => {
                // Pairs of codes into 12-bit values (the second's bits above the first's),
                // then pairs of those into 24-bit groups in 32-bit lanes, whose low three
                // bytes a table lookup gathers.
                let pairs = vbslq_u16(vdupq_n_u16(0x3f), words, vshrq_n_u16::<2>(words));
                let pairs = vreinterpretq_u32_u16(pairs);
                let groups = vbslq_u32(vdupq_n_u32(0xfff), pairs, vshrq_n_u32::<4>(pairs));
                const GATHER: [u8; 16] = [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 16, 16, 16];
                // In bounds: `GATHER` holds 16 bytes.
                let gathered = vqtbl1q_u8(vreinterpretq_u8_u32(groups), vld1q_u8(GATHER.as_ptr()));
                let mut bytes = [0u8; 16];
                // In bounds: `bytes` holds 16 bytes; the first 12 are `di`'s.
                vst1q_u8(bytes.as_mut_ptr(), gathered);
                di.copy_from_slice(&bytes[..12]);
            }
            _ => {
                // In bounds: `di` holds 16 bytes.
                vst1q_u8(di.as_mut_ptr(), codes);
            }
        }
    }
}

/// [`Halves::add_magic`] on NEON: FLOAT16 widened by FCVTL, BFLOAT16 zipped into the
/// high half of a 32-bit lane (that f32, little-endian), rounded by the f32 addition
/// (FPCR's default), narrowed back.
///
/// # Safety
/// The CPU runs the NEON family.
#[inline(always)]
pub(crate) unsafe fn add_magic<const SRC: u8>(abs: uint16x8_t, magic: u32) -> uint16x8_t {
    // SAFETY: the caller runs the NEON family; registers only.
    unsafe {
        let round = |x: float32x4_t| {
            let summed = vaddq_f32(x, vdupq_n_f32(f32::from_bits(magic)));
            vsubq_u32(vreinterpretq_u32_f32(summed), vdupq_n_u32(magic))
        };
        let (lo, hi) = if SRC == 0 {
            widen(abs)
        } else {
            let zero = vdupq_n_u16(0);
            (
                vreinterpretq_f32_u16(vzip1q_u16(zero, abs)),
                vreinterpretq_f32_u16(vzip2q_u16(zero, abs)),
            )
        };
        vmovn_high_u32(vmovn_u32(round(lo)), round(hi))
    }
}
