// SPDX-License-Identifier: MIT OR Apache-2.0
//! `tcast_can_cast`: numpy's casting levels for tensorcast dtypes, as numpy 2.4 answers
//! with ml_dtypes 0.6 registered (docs/semantics-can-cast.md section 0).

use super::dtype::{NpDtype, Order};
use super::level::level;
use super::rules::NumpyRules;
use crate::dtype::{DType, NumpyName};
use crate::error::Error;
use crate::np::casting::Casting;

/// Rows and columns of [`LEVELS`].
const ORDER: [DType; 27] = [
    DType::Bfloat16,
    DType::Float8E4M3Fn,
    DType::Float8E4M3Fnuz,
    DType::Float8E5M2,
    DType::Float8E5M2Fnuz,
    DType::Float8E8M0,
    DType::Float4E2M1,
    DType::Float6E2M3,
    DType::Float6E3M2,
    DType::Int4,
    DType::Uint4,
    DType::Int2,
    DType::Uint2,
    DType::Bool,
    DType::Int8,
    DType::Uint8,
    DType::Int16,
    DType::Uint16,
    DType::Int32,
    DType::Uint32,
    DType::Int64,
    DType::Uint64,
    DType::Float16,
    DType::Float,
    DType::Double,
    DType::Complex64,
    DType::Complex128,
];

/// The measured minimal levels (0 no .. 4 unsafe, 5 never); row = from, column = to.
const LEVELS: [&[u8; 27]; 27] = [
    b"033433333333344444444442222",
    b"302425222222244444444442222",
    b"320425222222244444444442222",
    b"333035333333344444444432222",
    b"322405222222244444444442222",
    b"355550555555544444444442222",
    b"322425022222244444444442222",
    b"322425202552244444444442222",
    b"322425220222244444444442222",
    b"322425252055542424242422222",
    b"322425252505542222222222222",
    b"322425222250542424242422222",
    b"322425222525042222222222222",
    b"222222222222202222222222222",
    b"222222222333340424242422222",
    b"222222222333343022222222222",
    b"333333333333343404242432222",
    b"333333333333343330222232222",
    b"333333333333343434042433232",
    b"333333333333343333302233232",
    b"333333333333343434340433232",
    b"333333333333343333333033232",
    b"333333333333344444444402222",
    b"333333333333344444444430222",
    b"333333333333344444444433032",
    b"333433333333344444444444402",
    b"333433333333344444444444430",
];

/// The dtype numpy sees for `d`: TF's quantized types are their storage integers.
fn storage(d: DType) -> DType {
    match d.info().numpy {
        NumpyName::StoredAs(storage) => storage,
        _ => d,
    }
}

/// The numpy dtype of a classic tensorcast dtype (STRING is the unsized `U`).
pub fn numpy_of(d: DType) -> Option<NpDtype> {
    match storage(d).info().numpy {
        NumpyName::Char(c) => NpDtype::from_code(c, Order::None),
        _ => None,
    }
}

/// The name numpy (with ml_dtypes) gives the dtype: `float64`, `bfloat16`, `<U` (`>U` on
/// a big-endian host).
pub fn numpy_name(d: DType) -> String {
    match (numpy_of(d), d.info().numpy) {
        (Some(_), _) if d == DType::String => format!("{}U", Order::NATIVE.prefix()),
        (Some(np), _) => np.to_str(),
        (None, NumpyName::MlDtypes(name)) => name.to_string(),
        (None, _) => d.name().to_string(),
    }
}

/// The level a digit of [`LEVELS`] stands for.
fn table_level(i: usize, j: usize) -> Casting {
    LEVEL_TABLE[i][j]
}

/// [`LEVELS`] as casting levels, converted once at compile time (each digit is a
/// `Casting` code; a digit that is none fails the build).
const LEVEL_TABLE: [[Casting; 27]; 27] = {
    let mut table = [[Casting::Never; 27]; 27];
    let mut i = 0;
    while i < 27 {
        let mut j = 0;
        while j < 27 {
            table[i][j] = match Casting::from_code((LEVELS[i][j] - b'0') as i32) {
                Some(level) => level,
                None => panic!("LEVELS holds a digit that is no casting level"),
            };
            j += 1;
        }
        i += 1;
    }
    table
};

/// The lowest numpy casting level allowing `from` -> `to` (NEVER: none).
pub fn tensor_level(from: DType, to: DType) -> Casting {
    let (from, to) = (storage(from), storage(to));
    let position = |d: DType| ORDER.iter().position(|&o| o == d);
    match (position(from), position(to)) {
        (Some(i), Some(j)) => table_level(i, j),
        _ => {
            if from == to {
                return Casting::No;
            }
            match (numpy_of(from), numpy_of(to)) {
                (Some(a), Some(b)) => level(&a, &b, NumpyRules::Numpy2),
                // STRING against an ml_dtypes type: numpy registers no cast.
                _ => Casting::Never,
            }
        }
    }
}

/// The message numpy gives when `casting` refuses an array cast.
pub(crate) fn refusal(from: &str, to: &str, casting: Casting) -> String {
    format!(
        "Cannot cast array data from dtype('{from}') to dtype('{to}') according to the rule '{}'",
        casting.label()
    )
}

/// Fails with TCAST_ERR_CASTING when numpy (with ml_dtypes) would not cast `from` to `to`
/// at level `casting`. UNSAFE allows every cast the library makes, including the pairs
/// numpy has no cast for at all (STRING -> INT4, FLOAT8E8M0 -> INT8, ...): it is the
/// default and means "no check", as ONNX Cast needs.
pub(crate) fn check_tensor_cast(from: DType, to: DType, casting: Casting) -> Result<(), Error> {
    if casting >= Casting::Unsafe || tensor_level(from, to) <= casting {
        Ok(())
    } else {
        Err(Error::Casting(refusal(
            &numpy_name(from),
            &numpy_name(to),
            casting,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_block_of_the_table_follows_numpys_rules() {
        for (i, &a) in ORDER.iter().enumerate() {
            for (j, &b) in ORDER.iter().enumerate() {
                if let (Some(x), Some(y)) = (numpy_of(a), numpy_of(b)) {
                    assert_eq!(
                        table_level(i, j),
                        level(&x, &y, NumpyRules::Numpy2),
                        "{a:?} -> {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn string_and_quantized_types() {
        use Casting::*;
        assert_eq!(tensor_level(DType::String, DType::String), No);
        assert_eq!(tensor_level(DType::Float, DType::String), Safe);
        assert_eq!(tensor_level(DType::String, DType::Float), Unsafe);
        assert_eq!(tensor_level(DType::Bfloat16, DType::String), Never);
        assert_eq!(tensor_level(DType::Qint8, DType::Int16), Safe);
        assert_eq!(tensor_level(DType::Qint32, DType::Qint8), SameKind);
        let unsized_str = if cfg!(target_endian = "big") {
            ">U"
        } else {
            "<U"
        };
        assert_eq!(numpy_name(DType::String), unsized_str);
        assert_eq!(numpy_name(DType::Double), "float64");
    }

    #[test]
    fn unsafe_checks_nothing_and_stricter_levels_follow_the_table() {
        use Casting::*;
        assert!(check_tensor_cast(DType::String, DType::Int4, Unsafe).is_ok());
        assert!(check_tensor_cast(DType::Float8E8M0, DType::Int8, Unsafe).is_ok());
        let refused = check_tensor_cast(DType::Float8E8M0, DType::Int8, SameKind).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "Cannot cast array data from dtype('float8_e8m0fnu') to dtype('int8') according \
             to the rule 'same_kind'"
        );
        assert!(check_tensor_cast(DType::Double, DType::Int32, Safe).is_err());
        assert!(check_tensor_cast(DType::Int32, DType::Double, Safe).is_ok());
    }
}
