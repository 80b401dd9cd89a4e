// SPDX-License-Identifier: MIT OR Apache-2.0
//! The C API's enumerations as data: statuses, dtypes, round modes, string formats,
//! casting levels, bitcast rules, numpy rules and DLPack type codes.
//!
//! Each enumeration is written once, as a table in the module that owns it: the crate's
//! `c_enum!` macro (or, for the dtypes and their facts, the registry in `dtype.rs`)
//! generates from it the Rust enum, `ALL`, `code`, `from_code`, the argument parser
//! `from_arg` (with the one error wording of [`invalid_value`]), `name` (the C constant's
//! name), `label` and `TABLE`, the C constants as data ([`CTable`]).
//!
//! cbindgen does not expand macros, so it cannot see these constants: the generate command
//! (xtask/) writes their `#define`s into include/tensorcast.h from `c_tables` (in
//! registry.rs), tests/header.rs checks the committed header, and
//! tests/binding_enums.rs checks the C# binding's enums and the Python test helpers'
//! constants against the same tables.

use core::fmt::Write;

/// One C constant of an enumeration.
#[derive(Debug)]
pub struct CConst {
    /// The macro's name, e.g. "TCAST_ROUND_UP".
    pub name: &'static str,
    /// Its value.
    pub value: i64,
    /// What it means (the Rust variant's doc as well).
    pub doc: &'static str,
    /// Whether a function takes it as an argument (TCAST_CASTING_NEVER is only a result,
    /// TCAST_DTYPE_UNDEFINED is no dtype).
    pub argument: bool,
}

/// The C constants of one enumeration.
#[derive(Debug)]
pub struct CTable {
    /// The Rust type the table generates, e.g. "RoundMode".
    pub rust_name: &'static str,
    /// What the constants are for, written above them in the header.
    pub title: &'static str,
    /// The constants, in the table's order.
    pub consts: &'static [CConst],
}

/// The one wording of a bad enumeration argument: INVALID_ARGUMENT naming the argument,
/// its value and the values it may have with their constants, e.g. "options.round_mode
/// is 7; the valid values are 0 (TCAST_ROUND_UP), 1 (TCAST_ROUND_DOWN), 2
/// (TCAST_ROUND_NEAREST)".
#[cold]
#[inline(never)]
pub fn invalid_value(table: &CTable, what: &dyn core::fmt::Display, value: i64) -> InvalidValue {
    let mut text = String::new();
    // Writing into a String cannot fail.
    let _ = write!(text, "{what} is {value}; the valid values are ");
    for (i, c) in table.consts.iter().filter(|c| c.argument).enumerate() {
        let _ = write!(
            text,
            "{}{} ({})",
            if i > 0 { ", " } else { "" },
            c.value,
            c.name
        );
    }
    InvalidValue(text)
}

/// A C argument that is none of its enumeration's argument values, with the message in
/// the one wording of [`invalid_value`]; it becomes INVALID_ARGUMENT (the crate's
/// `Error` converts it, so `?` works where an `Error` is returned).
#[derive(Debug)]
pub struct InvalidValue(pub String);

/// Writes one C enumeration as a Rust enum from a table. Each row is
///
/// ```text
/// Variant = code => C_NAME ("label") [result]: "doc",
/// ```
///
/// where the label (the name outside the C API uses: numpy's casting names, dlpack.h's
/// enumerators) and `[result]` (a value functions return but never take) are optional.
/// Attributes before a row (`#[default]`) go to the variant; the doc is the variant's
/// Rust doc and the C constant's doc in the header. `$title` heads the constants in the
/// header.
macro_rules! c_enum {
    (
        $(#[$attr:meta])*
        pub enum $name:ident: $repr:ty, $title:literal {
            $(
                $(#[$vattr:meta])*
                $variant:ident = $code:literal
                    => $cname:ident $(($label:literal))? $([$result:ident])?: $doc:literal
            ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        #[repr($repr)]
        pub enum $name {
            $(
                #[doc = $doc]
                $(#[$vattr])*
                $variant = $code,
            )*
        }

        impl $name {
            /// Every value, in the table's order.
            pub const ALL: [$name; [$(stringify!($variant)),*].len()] = [$($name::$variant),*];

            /// The C constants (`#define`s the generate command writes into the header).
            pub const TABLE: $crate::tables::CTable = $crate::tables::CTable {
                rust_name: stringify!($name),
                title: $title,
                consts: &[$(
                    $crate::tables::CConst {
                        name: stringify!($cname),
                        value: $code,
                        doc: $doc,
                        argument: $crate::tables::c_enum!(@argument $($result)?),
                    }
                ),*],
            };

            /// The value's code, as the C API passes it.
            pub const fn code(self) -> $repr {
                self as $repr
            }

            /// The value with this code, if there is one.
            #[inline]
            pub const fn from_code(code: $repr) -> Option<$name> {
                match code {
                    $($code => Some($name::$variant),)*
                    _ => None,
                }
            }

            /// The C argument `what` as a value, or INVALID_ARGUMENT naming `what`, the
            /// code and the constants it may be ([`invalid_value`]) when it is none of
            /// them or one only returned. `what` is formatted only on failure.
            ///
            /// [`invalid_value`]: crate::tables::invalid_value
            #[inline]
            pub fn from_arg(
                code: $repr,
                what: impl core::fmt::Display,
            ) -> Result<$name, $crate::tables::InvalidValue> {
                match $name::from_code(code) {
                    Some(value) if value.is_argument() => Ok(value),
                    _ => Err($crate::tables::invalid_value(&$name::TABLE, &what, i64::from(code))),
                }
            }

            /// The C constant's name, e.g. "TCAST_ERR_PARSE".
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => stringify!($cname),)*
                }
            }

            /// The C constant's name followed by a NUL, for the C API.
            pub const fn name_nul(self) -> &'static str {
                match self {
                    $($name::$variant => concat!(stringify!($cname), "\0"),)*
                }
            }

            /// The name outside tensorcast's C API gives the value (numpy's, dlpack.h's),
            /// or the C constant's name when the table gives none.
            pub const fn label(self) -> &'static str {
                match self {
                    $($name::$variant => $crate::tables::c_enum!(@label $cname $($label)?),)*
                }
            }

            /// Whether functions take the value as an argument (not a result only).
            pub const fn is_argument(self) -> bool {
                match self {
                    $($name::$variant => $crate::tables::c_enum!(@argument $($result)?),)*
                }
            }
        }
    };
    (@argument) => { true };
    (@argument result) => { false };
    (@label $cname:ident) => { stringify!($cname) };
    (@label $cname:ident $label:literal) => { $label };
}
pub(crate) use c_enum;
