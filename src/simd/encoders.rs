// SPDX-License-Identifier: MIT OR Apache-2.0
//! The lookup every kernel family with low-precision encoders shares: from a call's
//! format and option bits to the family's encoder compiled for them (one arm per row of
//! the registry, dtype.rs), declared by [`low_encoders`], and the size of their output.

use crate::formats::lowp::FORMATS;
use crate::formats::pack::packed_bytes;

/// Bytes of `codes` codes of format `F` as stored: one each, two or four per byte for
/// the 4-bit and 2-bit formats, four per three bytes for the 6-bit ones (the vector
/// encoders write their output so, a multiple of four codes at a time).
pub const fn code_bytes<const F: u8>(codes: usize) -> usize {
    packed_bytes(FORMATS[F as usize].bits, codes)
}

/// Declares a family's `special_low` (the hand-written kernel for a low-precision pair,
/// if there is one: the encoders from a standard scalar to a low-precision format) and
/// its `encoder`, which picks `encoder_for::<F, OPT>(source, token)` for the format and
/// option bits of a call. The family defines `encoder_for`, its encoders for one format
/// and option set.
macro_rules! low_encoders {
    ($token:ty) => {
        /// The hand-written kernel for a low-precision pair, if there is one: the
        /// encoders from a standard scalar to a low-precision format.
        pub fn special_low(
            from: $crate::formats::repr::Repr,
            to: $crate::formats::repr::Repr,
            opt: u8,
            token: $token,
        ) -> Option<$crate::simd::kernel::Kernel> {
            use $crate::formats::repr::Repr;
            match (from, to) {
                (Repr::Std(source), Repr::Low(format)) => encoder(source, format, opt, token),
                _ => None,
            }
        }

        use $crate::simd::encoders::encoder_by_format;
        $crate::dtype::for_each_low_format!(encoder_by_format($token));
    };
}
pub(crate) use low_encoders;

/// `encoder`, for [`low_encoders`]: one arm per (format, option bits) of the registry
/// (dtype.rs).
macro_rules! encoder_by_format {
    (($token:ty) $($f:ident [$($o:literal),*];)*) => {
        /// The encoder from `source` to format `format` compiled for options `opt`.
        fn encoder(
            source: $crate::dtype::Scalar,
            format: u8,
            opt: u8,
            token: $token,
        ) -> Option<$crate::simd::kernel::Kernel> {
            match (format, opt) {
                $($( ($f, $o) => encoder_for::<$f, $o>(source, token), )*)*
                _ => None,
            }
        }
    };
}
pub(crate) use encoder_by_format;
