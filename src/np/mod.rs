//! numpy's casting rules: the dtype grammar, `can_cast` levels, value-based scalars,
//! `promote_types` and `min_scalar_type` (semantics-can-cast.md), and the same levels for
//! tensorcast dtypes.

pub(crate) mod dtype;
pub(crate) mod level;
pub(crate) mod ml;
mod printable;
pub(crate) mod promote;
pub(crate) mod query;
pub(crate) mod value;

#[cfg(test)]
mod tests;

use crate::dtype::DType;
use crate::error::Error;
pub use dtype::{parse, Field, Kind, NpDtype, Order, Parsed, Shape, Unit};
pub use level::{level, LEVEL_NAMES, NEVER};
pub use promote::promote as promote_types;
pub use value::{can_cast_value, min_scalar_type, Value};

/// Which numpy's rules to reproduce.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rules {
    /// numpy 1.x as documented for 1.22: value-based scalars, structs matched by name.
    Numpy1 = 1,
    /// numpy >= 2 (NEP 50): Python scalars refused, structs matched by position.
    Numpy2 = 2,
}

impl Rules {
    /// The rules for a C `rules` argument.
    pub fn from_code(code: i32) -> Result<Rules, Error> {
        match code {
            1 => Ok(Rules::Numpy1),
            2 => Ok(Rules::Numpy2),
            _ => Err(Error::InvalidArgument(format!(
                "rules is {code}: expected TCAST_NUMPY_1 (1) or TCAST_NUMPY_2 (2)"
            ))),
        }
    }
}

/// A casting level from a C `casting` argument (0 no .. 4 unsafe).
pub(crate) fn casting_from_code(code: i32) -> Result<u8, Error> {
    match u8::try_from(code) {
        Ok(c) if usize::from(c) < LEVEL_NAMES.len() => Ok(c),
        _ => Err(Error::InvalidArgument(format!(
            "casting is {code}: expected TCAST_CASTING_NO (0) .. TCAST_CASTING_UNSAFE (4)"
        ))),
    }
}

/// A casting level from its numpy name, with numpy's message for anything else.
pub fn casting_from_name(name: &str, rules: Rules) -> Result<u8, Error> {
    match LEVEL_NAMES.iter().position(|&n| n == name) {
        Some(i) => Ok(i as u8),
        None => {
            let or = if rules == Rules::Numpy1 { "or " } else { "" };
            Err(Error::InvalidArgument(format!(
                "casting must be one of 'no', 'equiv', 'safe', 'same_kind', {or}'unsafe' (got {})",
                dtype::py_repr(name)
            )))
        }
    }
}

/// `numpy.can_cast(from, to, casting)` for two dtype specs.
pub fn can_cast_str(from: &str, to: &str, casting: u8, rules: Rules) -> Result<bool, Error> {
    let to = parse(to)?;
    let to = to.under(rules)?;
    let not_understood = |e: Error| Error::Parse {
        index: None,
        message: format!("did not understand one of the types; 'None' not accepted ({e})"),
    };
    let from = parse(from).map_err(not_understood)?;
    let from = from.under(rules).map_err(not_understood)?;
    Ok(level(from, to, rules) <= casting)
}

/// The message numpy gives when `casting` refuses an array cast.
pub(crate) fn refusal(from: &str, to: &str, casting: u8) -> String {
    format!(
        "Cannot cast array data from dtype('{from}') to dtype('{to}') according to the rule '{}'",
        LEVEL_NAMES[usize::from(casting)]
    )
}

/// Fails with TCAST_ERR_CASTING when numpy (with ml_dtypes) would not cast `from` to `to`
/// at level `casting`. UNSAFE allows every cast the library makes, including the pairs
/// numpy has no cast for at all (STRING -> INT4, FLOAT8E8M0 -> INT8, ...): it is the
/// default and means "no check", as ONNX Cast needs.
pub(crate) fn check_tensor_cast(from: DType, to: DType, casting: u8) -> Result<(), Error> {
    if casting >= level::UNSAFE || ml::tensor_level(from, to) <= casting {
        Ok(())
    } else {
        Err(Error::Casting(refusal(
            &ml::numpy_name(from),
            &ml::numpy_name(to),
            casting,
        )))
    }
}
