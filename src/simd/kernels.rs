// SPDX-License-Identifier: MIT OR Apache-2.0
//! The hand-written cast kernels of a tier, for pairs the compiler does not vectorise
//! well on its own; the portable tier has none (its kernels are the generic loops in
//! `cast/kernels.rs`).

use super::cpu::Tier;
use crate::dtype::Scalar;
use crate::formats::dispatch::{by_format_and_options, OptionsVisitor};
use crate::formats::lowp::FORMATS;
use crate::formats::repr::Repr;
use crate::simd::kernel::Kernel;

/// A hand-written kernel for this pair of standard types on this tier, if there is one.
pub fn special(from: Scalar, to: Scalar, tier: Tier) -> Option<Kernel> {
    let _ = (from, to); // used by the ISA arms only
    match tier {
        Tier::Portable => None,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2(token) => super::x86_64::cast::special(from, to, token),
        #[cfg(target_arch = "aarch64")]
        Tier::Neon(token) => super::aarch64::cast::special(from, to, token),
    }
}

/// A hand-written kernel for a pair involving a low-precision format (`opt`: the
/// option bits the target is compiled for, `lowp::option_bits`), if there is one: the
/// tier's encoders from a standard scalar to a low-precision format
/// (`encode::encoder::<Family, F, OPT>`), found through the generated dispatch table.
pub fn special_low(from: Repr, to: Repr, opt: u8, tier: Tier) -> Option<Kernel> {
    encoder_kernel(from, to, opt, tier, false)
}

/// As [`special_low`], the encoder to a 4-bit, 2-bit or 6-bit format that writes its
/// codes one per byte (`SubByteLayout::Unpacked`, the high bits 0) rather than packed,
/// if there is one; None for the 8-bit formats.
pub fn special_low_unpacked(from: Repr, to: Repr, opt: u8, tier: Tier) -> Option<Kernel> {
    encoder_kernel(from, to, opt, tier, true)
}

/// [`special_low`] (`unpacked` false) or [`special_low_unpacked`].
fn encoder_kernel(from: Repr, to: Repr, opt: u8, tier: Tier, unpacked: bool) -> Option<Kernel> {
    match (from, to) {
        (Repr::Std(source), Repr::Low(format)) if tier != Tier::Portable => by_format_and_options(
            format,
            opt,
            Encoder {
                source,
                tier,
                unpacked,
            },
        ),
        _ => None,
    }
}

/// [`special_low`]'s encoder for the format and option bits visited.
struct Encoder {
    // Read by the ISA arms only (a target without one has only the portable tier).
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    source: Scalar,
    tier: Tier,
    /// The codes one per byte ([`special_low_unpacked`]).
    unpacked: bool,
}

impl Encoder {
    /// The tier's encoder of format `F` with options `OPT`, the codes packed or,
    /// `UNPACKED`, one per byte.
    fn of<const F: u8, const OPT: u8, const UNPACKED: bool>(self) -> Option<Kernel> {
        match self.tier {
            Tier::Portable => None,
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2(token) => {
                super::x86_64::cast::encoder::<F, OPT, UNPACKED>(self.source, token)
            }
            #[cfg(target_arch = "aarch64")]
            Tier::Neon(token) => super::encode::encoder::<_, F, OPT, UNPACKED>(self.source, token),
        }
    }
}

impl OptionsVisitor for Encoder {
    type Out = Option<Kernel>;
    fn visit<const F: u8, const OPT: u8>(self) -> Option<Kernel> {
        if !self.unpacked {
            self.of::<F, OPT, false>()
        } else if const { FORMATS[F as usize].bits < 8 } {
            // Only the sub-byte formats have a second form (a constant condition: the
            // 8-bit ones' instances are never made).
            self.of::<F, OPT, true>()
        } else {
            None
        }
    }
}

/// The tier's decoder of a 4-bit, 2-bit or 6-bit format `F` to table target `T` from
/// codes held one per byte, each masked to the format's bits by the kernel, if it has
/// one.
pub fn decode_held<const F: u8, const T: u8>(tier: Tier) -> Option<Kernel> {
    match tier {
        Tier::Portable => None,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2(token) => super::x86_64::cast::decode_held::<F, T>(token),
        #[cfg(target_arch = "aarch64")]
        Tier::Neon(token) => super::aarch64::cast::decode_held::<F, T>(token),
    }
}

/// The tier's table decoder of low-precision format `F` to table target `T`
/// (`cast::kernels::LUT_F32`, ...), if it has one.
pub fn decode_lut<const F: u8, const T: u8>(tier: Tier) -> Option<Kernel> {
    match tier {
        Tier::Portable => None,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2(token) => Some(super::x86_64::cast::decode_lut::<F, T>(token)),
        #[cfg(target_arch = "aarch64")]
        Tier::Neon(token) => super::aarch64::cast::decode_lut::<F, T>(token),
    }
}
