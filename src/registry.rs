// SPDX-License-Identifier: MIT OR Apache-2.0
//! Every C enumeration's table in one list, in the order the header presents them. A
//! module of its own, above the modules that own the tables, so that `tables` (which
//! they all use) depends on none of them.

use crate::tables::CTable;

/// Every C enumeration, in the order the header presents them. The generate command
/// (xtask/) writes the `#define`s from these and tests/header.rs checks them; it is public
/// for those (and the bindings' checks) only.
#[doc(hidden)]
pub fn c_tables() -> [&'static CTable; 11] {
    [
        &crate::error::Status::TABLE,
        &crate::dtype::DType::TABLE,
        &crate::cast::RoundMode::TABLE,
        &crate::cast::StringFormat::TABLE,
        &crate::np::casting::Casting::TABLE,
        &crate::tensor::SubByteLayout::TABLE,
        &crate::bitcast::BitcastRules::TABLE,
        &crate::np::NumpyRules::TABLE,
        &crate::dlpack::DlpackCode::TABLE,
        &crate::quant::mx::ScaleRule::TABLE,
        &crate::quant::layout::MxLayout::TABLE,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn names_and_values_are_unique() {
        let mut names = std::collections::HashSet::new();
        for table in c_tables() {
            let mut values = std::collections::HashSet::new();
            for c in table.consts {
                assert!(names.insert(c.name), "{} twice", c.name);
                assert!(
                    values.insert(c.value),
                    "{}: {} twice",
                    table.rust_name,
                    c.value
                );
                assert!(c.name.starts_with("TCAST_"), "{}", c.name);
                assert!(!c.doc.is_empty(), "{} has no doc", c.name);
            }
        }
    }

    #[test]
    fn one_wording_for_a_bad_argument() {
        use crate::cast::{Casting, RoundMode};
        let e = Error::from(RoundMode::from_arg(7, "options.round_mode").unwrap_err());
        assert_eq!(e.status(), crate::error::Status::InvalidArgument);
        assert_eq!(
            e.to_string(),
            "options.round_mode is 7; the valid values are 0 (TCAST_ROUND_UP), 1 \
             (TCAST_ROUND_DOWN), 2 (TCAST_ROUND_NEAREST)"
        );
        // A result-only value is not an argument.
        assert_eq!(Casting::from_code(5), Some(Casting::Never));
        assert_eq!(
            Casting::from_arg(5, format_args!("options.{}", "casting"))
                .unwrap_err()
                .0,
            "options.casting is 5; the valid values are 0 (TCAST_CASTING_NO), 1 \
             (TCAST_CASTING_EQUIV), 2 (TCAST_CASTING_SAFE), 3 (TCAST_CASTING_SAME_KIND), 4 \
             (TCAST_CASTING_UNSAFE)"
        );
        assert_eq!(
            crate::np::NumpyRules::from_arg(0, "rules").unwrap_err().0,
            "rules is 0; the valid values are 1 (TCAST_NUMPY_1), 2 (TCAST_NUMPY_2)"
        );
    }

    #[test]
    fn codes_names_and_tables_agree() {
        fn check<T: Copy + core::fmt::Debug + PartialEq>(
            all: &[T],
            table: &CTable,
            code: impl Fn(T) -> i64,
            name: impl Fn(T) -> &'static str,
        ) {
            assert_eq!(all.len(), table.consts.len(), "{}", table.rust_name);
            for (&v, c) in all.iter().zip(table.consts) {
                assert_eq!((code(v), name(v)), (c.value, c.name), "{v:?}");
            }
        }
        use crate::{
            bitcast::BitcastRules,
            cast::{Casting, RoundMode, StringFormat},
            dlpack::DlpackCode,
            error::Status,
            np::NumpyRules,
        };
        check(
            &Status::ALL,
            &Status::TABLE,
            |v| v.code().into(),
            Status::name,
        );
        for s in Status::ALL {
            assert_eq!(Status::from_code(s.code()), Some(s));
            assert_eq!(s.name_nul(), format!("{}\0", s.name()));
        }
        check(
            &RoundMode::ALL,
            &RoundMode::TABLE,
            |v| v.code().into(),
            RoundMode::name,
        );
        check(
            &StringFormat::ALL,
            &StringFormat::TABLE,
            |v| v.code().into(),
            StringFormat::name,
        );
        check(
            &Casting::ALL,
            &Casting::TABLE,
            |v| v.code().into(),
            Casting::name,
        );
        check(
            &BitcastRules::ALL,
            &BitcastRules::TABLE,
            |v| v.code().into(),
            BitcastRules::name,
        );
        check(
            &NumpyRules::ALL,
            &NumpyRules::TABLE,
            |v| v.code().into(),
            NumpyRules::name,
        );
        check(
            &DlpackCode::ALL,
            &DlpackCode::TABLE,
            |v| v.code().into(),
            DlpackCode::name,
        );
        assert_eq!(Casting::Never.label(), "never");
        assert_eq!(DlpackCode::Float4E2M1Fn.label(), "kDLFloat4_e2m1fn");
        assert_eq!(Status::Parse.label(), "TCAST_ERR_PARSE");
    }
}
