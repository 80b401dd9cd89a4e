// SPDX-License-Identifier: MIT OR Apache-2.0
//! `tcast_can_cast`: numpy's casting levels for tensorcast dtypes, as numpy 2.4 answers
//! with ml_dtypes 0.6 registered (docs/semantics-can-cast.md section 0).

use super::dtype::{NpDtype, Order};
use super::level::level;
use super::rules::NumpyRules;
use crate::dtype::{DType, NumpyName};
use crate::error::Error;
use crate::np::casting::Casting;

/// The measured minimal levels, row = from, column = to (the file says how it is laid
/// out). The text is parsed at compile time: a malformed table fails the build.
const LEVELS_TEXT: &[u8] = include_bytes!("ml_dtypes_levels.txt");

/// The dtypes the table measures: its rows, which are also its columns.
const N: usize = count_rows(LEVELS_TEXT);

/// Rows and columns of [`LEVEL_TABLE`], in the file's order.
const ORDER: [DType; N] = parse_order(LEVELS_TEXT);

/// The table's digits as casting levels (each digit is a `Casting` code).
const LEVEL_TABLE: [[Casting; N]; N] = parse_levels(LEVELS_TEXT);

/// The end of the line starting at `at` (the index of its newline, or the text's length).
const fn line_end(text: &[u8], at: usize) -> usize {
    let mut end = at;
    while end < text.len() && text[end] != b'\n' {
        end += 1;
    }
    end
}

/// Whether the line `start..end` is a row (not empty, not a `#` comment).
const fn is_row(text: &[u8], start: usize, end: usize) -> bool {
    start < end && text[start] != b'#' && text[start] != b'\r'
}

/// The end of the name that starts a row, and the start of its digits.
const fn split_row(text: &[u8], start: usize, end: usize) -> (usize, usize) {
    let mut name_end = start;
    while name_end < end && text[name_end] != b' ' && text[name_end] != b'\t' {
        name_end += 1;
    }
    let mut digits = name_end;
    while digits < end && (text[digits] == b' ' || text[digits] == b'\t') {
        digits += 1;
    }
    (name_end, digits)
}

const fn count_rows(text: &[u8]) -> usize {
    let (mut at, mut rows) = (0, 0);
    while at < text.len() {
        let end = line_end(text, at);
        if is_row(text, at, end) {
            rows += 1;
        }
        at = end + 1;
    }
    rows
}

/// The dtype whose C name is `TCAST_DTYPE_` followed by `text[start..end]`.
const fn dtype_named(text: &[u8], start: usize, end: usize) -> DType {
    const PREFIX: usize = "TCAST_DTYPE_".len();
    let consts = DType::TABLE.consts;
    let mut i = 0;
    while i < consts.len() {
        let name = consts[i].name.as_bytes();
        if name.len() == PREFIX + end - start {
            let mut k = 0;
            while k < end - start && name[PREFIX + k] == text[start + k] {
                k += 1;
            }
            if k == end - start {
                match DType::from_code(consts[i].value as i32) {
                    Some(dtype) => return dtype,
                    None => panic!("ml_dtypes_levels.txt names UNDEFINED"),
                }
            }
        }
        i += 1;
    }
    panic!("ml_dtypes_levels.txt names a dtype the registry does not have")
}

const fn parse_order<const N: usize>(text: &[u8]) -> [DType; N] {
    let mut order = [DType::Float; N];
    let (mut at, mut row) = (0, 0);
    while at < text.len() {
        let end = line_end(text, at);
        if is_row(text, at, end) {
            let (name_end, _) = split_row(text, at, end);
            order[row] = dtype_named(text, at, name_end);
            let mut earlier = 0;
            while earlier < row {
                if order[earlier] as i32 == order[row] as i32 {
                    panic!("ml_dtypes_levels.txt has a dtype twice");
                }
                earlier += 1;
            }
            row += 1;
        }
        at = end + 1;
    }
    order
}

const fn parse_levels<const N: usize>(text: &[u8]) -> [[Casting; N]; N] {
    let mut table = [[Casting::Never; N]; N];
    let (mut at, mut row) = (0, 0);
    while at < text.len() {
        let mut end = line_end(text, at);
        if is_row(text, at, end) {
            while text[end - 1] == b'\r' || text[end - 1] == b' ' {
                end -= 1;
            }
            let (_, digits) = split_row(text, at, end);
            if end - digits != N {
                panic!("a row of ml_dtypes_levels.txt has not one digit per row");
            }
            let mut column = 0;
            while column < N {
                let digit = text[digits + column];
                table[row][column] = match Casting::from_code(digit as i32 - b'0' as i32) {
                    Some(level) => level,
                    _ => panic!("ml_dtypes_levels.txt holds a digit that is no casting level"),
                };
                column += 1;
            }
            row += 1;
        }
        at = line_end(text, at) + 1;
    }
    table
}

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

/// The level of the table's row `i`, column `j`.
fn table_level(i: usize, j: usize) -> Casting {
    LEVEL_TABLE[i][j]
}

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
