// SPDX-License-Identifier: MIT OR Apache-2.0
//! What the tiers' hand-written low-precision encoders share: the lookup from a call's
//! format and option bits to the tier's encoder compiled for them, through the generated
//! dispatch table (`formats/dispatch/table.rs`, one arm per row of the registry) to each
//! ISA file's `encoder_for::<F, OPT>`, and the size of their output.

use crate::dtype::Scalar;
use crate::formats::dispatch::{by_format_and_options, OptionsVisitor};
use crate::formats::lowp::FORMATS;
use crate::formats::pack::packed_bytes;
use crate::simd::cpu::Tier;
use crate::simd::kernel::Kernel;

/// Bytes of `codes` codes of format `F` as stored: one each, two or four per byte for
/// the 4-bit and 2-bit formats, four per three bytes for the 6-bit ones (the vector
/// encoders write their output so, a multiple of four codes at a time).
pub const fn code_bytes<const F: u8>(codes: usize) -> usize {
    packed_bytes(FORMATS[F as usize].bits, codes)
}

/// The tier's encoder from `source` to format `format` compiled for option bits `opt`
/// (`lowp::option_bits`), if it has one; the portable tier has none.
pub fn encoder(source: Scalar, format: u8, opt: u8, tier: Tier) -> Option<Kernel> {
    if tier == Tier::Portable {
        return None;
    }
    by_format_and_options(format, opt, TierEncoder { source, tier })
}

/// [`encoder`] for the format and option bits visited.
struct TierEncoder {
    source: Scalar,
    tier: Tier,
}

impl OptionsVisitor for TierEncoder {
    type Out = Option<Kernel>;
    fn visit<const F: u8, const OPT: u8>(self) -> Option<Kernel> {
        let source = self.source;
        match self.tier {
            Tier::Portable => None,
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2(token) => super::x86_64::cast::encoder_for::<F, OPT>(source, token),
            #[cfg(target_arch = "aarch64")]
            Tier::Neon(token) => super::aarch64::cast::encoder_for::<F, OPT>(source, token),
        }
    }
}
