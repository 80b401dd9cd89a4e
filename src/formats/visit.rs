// SPDX-License-Identifier: MIT OR Apache-2.0
//! The visitor traits of the dispatch over the low-precision formats: from a format id
//! (and the option bits a call's `saturate` and `round_mode` make, `lowp::option_bits`)
//! known only at run time to code compiled for that format. The table itself is
//! `formats/dispatch.rs` ([`by_format`], [`by_format_and_options`], with these traits
//! re-exported), one plain `match` arm per row of the dtype registry, written by `bash
//! scripts/generate.sh` (`xtask/src/generate/dispatch.rs`) and checked fresh by
//! tests/header.rs: grep it for a format's id or dtype name, or for `saturate` or a
//! `round_mode`, to find its arm.
//!
//! Each use is a small visitor: a value holding the call's other arguments, whose
//! `visit::<F>` (or `visit::<F, OPT>`) does the work for one format. The kernel
//! selection (`cast/kernels.rs`), the tiers' hand-written encoders
//! (`simd/kernels.rs`, `special_low`), the text formatter and lowp's runtime encode and
//! decode go through it.
//!
//! A row added to the registry gets its arms when the table is regenerated; until then
//! the new format reaches the fallback arm (a panic), which the tests below and the
//! freshness test catch. A renamed or removed format id leaves an arm naming a constant
//! that is gone: delete that arm by hand, then regenerate.
//!
//! [`by_format`]: super::dispatch::by_format
//! [`by_format_and_options`]: super::dispatch::by_format_and_options

/// Code for one low-precision format `F` (a constant of `dtype::low_ids`).
pub(crate) trait FormatVisitor {
    type Out;
    fn visit<const F: u8>(self) -> Self::Out;
}

/// Code for one low-precision format `F` compiled for option bits `OPT` (bit 0
/// `saturate`, bits 1-2 the `round_mode`: `lowp::option_bits`).
pub(crate) trait OptionsVisitor {
    type Out;
    fn visit<const F: u8, const OPT: u8>(self) -> Self::Out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::dispatch::{by_format, by_format_and_options};
    use crate::formats::lowp::{option_bits, FORMATS};

    struct Id;

    impl FormatVisitor for Id {
        type Out = u8;
        fn visit<const F: u8>(self) -> u8 {
            F
        }
    }

    impl OptionsVisitor for Id {
        type Out = (u8, u8);
        fn visit<const F: u8, const OPT: u8>(self) -> (u8, u8) {
            (F, OPT)
        }
    }

    /// Every format of the registry, and every option set of its row, reaches its own
    /// arm: the table is not stale and names no format or option set wrongly.
    #[test]
    fn every_format_and_option_set_of_the_registry_has_its_arm() {
        for (id, format) in FORMATS.iter().enumerate() {
            let id = id as u8;
            assert_eq!(format.id(), id, "{}", format.dtype);
            assert_eq!(by_format(id, Id), id, "{}", format.dtype);
            for &opt in format.options() {
                assert_eq!(
                    by_format_and_options(id, opt, Id),
                    (id, opt),
                    "{} options {opt}",
                    format.dtype
                );
            }
        }
    }

    /// The option bits a call can make are those its format's row compiles for, so that
    /// every call finds an arm.
    #[test]
    fn option_bits_give_exactly_the_option_sets_of_the_rows() {
        for (id, format) in FORMATS.iter().enumerate() {
            let mut made: Vec<u8> = [false, true]
                .into_iter()
                .flat_map(|saturate| (0..3).map(move |mode| option_bits(id as u8, saturate, mode)))
                .collect();
            made.sort_unstable();
            made.dedup();
            assert_eq!(made, format.options(), "{}", format.dtype);
        }
    }

    #[test]
    #[should_panic(expected = "no low-precision format")]
    fn an_unknown_format_panics() {
        by_format(FORMATS.len() as u8, Id);
    }

    #[test]
    #[should_panic(expected = "no low-precision format")]
    fn an_option_set_outside_the_row_panics() {
        let e4m3fn = crate::dtype::low_ids::E4M3FN;
        by_format_and_options(e4m3fn, 2, Id);
    }
}
