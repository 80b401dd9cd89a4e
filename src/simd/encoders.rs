// SPDX-License-Identifier: MIT OR Apache-2.0
//! What the tiers' hand-written low-precision encoders share: the size of their output.
//! The lookup from a call's format and option bits to a tier's encoder is
//! `simd::kernels::special_low`, through the generated dispatch table
//! (`formats/dispatch.rs`) to `encode::encoder::<Family, F, OPT>`.

use crate::formats::lowp::FORMATS;
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
