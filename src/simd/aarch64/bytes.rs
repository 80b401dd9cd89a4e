// SPDX-License-Identifier: MIT OR Apache-2.0
//! The NEON pieces of the decoders' vector of byte lanes (`simd/bytes.rs` names them in
//! its table): unpacking packed codes. Each requires the CPU to run the NEON family.

use std::arch::aarch64::*;

/// Where each of 16 codes of `bits` bits lies in the bytes that hold them (the first
/// in the lowest bits, little-endian): byte `low[i]` shifted by `low_shift[i]` (right,
/// as a negative count), ORed with byte `high[i]` shifted left by `high_shift[i]` for a
/// code that reaches into the next byte (elsewhere `high[i]` is past the table, which
/// TBL reads as zero), then masked to `bits`.
struct Plan {
    low: [u8; 16],
    high: [u8; 16],
    low_shift: [i8; 16],
    high_shift: [i8; 16],
}

const fn plan(bits: usize) -> Plan {
    let mut plan = Plan {
        low: [0; 16],
        high: [0xff; 16],
        low_shift: [0; 16],
        high_shift: [0; 16],
    };
    let mut i = 0;
    while i < 16 {
        let (byte, offset) = (bits * i / 8, bits * i % 8);
        plan.low[i] = byte as u8;
        plan.low_shift[i] = -(offset as i8);
        if offset + bits > 8 {
            plan.high[i] = byte as u8 + 1;
            plan.high_shift[i] = (8 - offset) as i8;
        }
        i += 1;
    }
    plan
}

/// The [`Plan`] of `BITS`-bit codes, computed at compile time.
struct Unpack<const BITS: u8>;

impl<const BITS: u8> Unpack<BITS> {
    const PLAN: Plan = plan(BITS as usize);
}

/// The 16 codes of `BITS` bits (4, 2 or 6) packed at `p` (8, 4 or 12 bytes; 16 read
/// for 6-bit codes), one per byte in element order: each code's byte (or two) gathered
/// into its lane by TBL, then shifted into place lane by lane (USHL).
///
/// # Safety
/// The CPU runs the NEON family; `p` holds the bytes read.
#[inline(always)]
pub(crate) unsafe fn unpack_codes<const BITS: u8>(p: *const u8) -> uint8x16_t {
    // SAFETY: the caller's promise; the loads read the bytes named above.
    unsafe {
        let bytes = match BITS {
            4 => vcombine_u8(vld1_u8(p), vdup_n_u8(0)),
            2 => {
                let word = u32::from_le_bytes(p.cast::<[u8; 4]>().read_unaligned());
                vcombine_u8(vcreate_u8(u64::from(word)), vdup_n_u8(0))
            }
            _ => vld1q_u8(p),
        };
        let plan = &Unpack::<BITS>::PLAN;
        let part = |index: &[u8; 16], shift: &[i8; 16]| {
            let gathered = vqtbl1q_u8(bytes, vld1q_u8(index.as_ptr()));
            vshlq_u8(gathered, vld1q_s8(shift.as_ptr()))
        };
        let mut codes = part(&plan.low, &plan.low_shift);
        if BITS == 6 {
            codes = vorrq_u8(codes, part(&plan.high, &plan.high_shift));
        }
        vandq_u8(codes, vdupq_n_u8((1u8 << BITS) - 1))
    }
}
