// SPDX-License-Identifier: MIT OR Apache-2.0
//! What the tiers' hand-written low-precision encoders share: the size of their output,
//! and how their stores put the signs in as bytes (here, below the encoders and the
//! lanes both, so neither imports the other for it).
//! The lookup from a call's format and option bits to a tier's encoder is
//! `simd::kernels::special_low`, through the generated dispatch table
//! (`formats/dispatch.rs`) to `encode::encoder::<Family, F, OPT>`.

use crate::formats::lowp::{Kind, FORMATS};
use crate::formats::pack::packed_bytes;

/// Bytes of `codes` codes of format `F` as stored: one each, two or four per byte for
/// the 4-bit and 2-bit formats, four per three bytes for the 6-bit ones (the vector
/// encoders write their output so, a multiple of four codes at a time).
pub const fn code_bytes<const F: u8>(codes: usize) -> usize {
    packed_bytes(FORMATS[F as usize].bits, codes)
}

/// Bytes of `codes` codes of format `F` as an encoder writes them: packed
/// ([`code_bytes`]), or one per byte when `UNPACKED` (`SubByteLayout::Unpacked`, the
/// high bits 0).
pub const fn output_bytes<const F: u8, const UNPACKED: bool>(codes: usize) -> usize {
    if UNPACKED {
        codes
    } else {
        code_bytes::<F>(codes)
    }
}

/// How the stores put a float format's sign bits into its codes as bytes, after the
/// narrowing (`Halves::BYTE_SIGNS`), from the signs as 0x80 bytes.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum ByteSigns {
    /// ORed in: FLOAT8 IEEE and FN.
    Or,
    /// ORed into the nonzero codes only: FNUZ, which has no -0.
    OrNonzero,
    /// Shifted down to bit 5 and XORed in: FLOAT6, whose +NaN code is the sign bit
    /// alone, which -NaN's clears.
    XorBit5,
}

/// How the stores may put float format `F`'s sign bits in as bytes
/// (`Halves::BYTE_SIGNS`): the 8-bit and 6-bit formats with a sign; `None` for the
/// others.
#[inline(always)]
pub(crate) const fn byte_signed<const F: u8>() -> Option<ByteSigns> {
    match FORMATS[F as usize].kind {
        Kind::Ieee | Kind::Fn => Some(ByteSigns::Or),
        Kind::Fnuz => Some(ByteSigns::OrNonzero),
        Kind::Fp6 => Some(ByteSigns::XorBit5),
        _ => None,
    }
}
