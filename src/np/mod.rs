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

use crate::cast::Casting;
use crate::dtype::DType;
use crate::error::Error;
pub use dtype::{parse, Field, Kind, NpDtype, Order, Parsed, Shape, Unit};
pub use level::level;
pub use promote::promote as promote_types;
pub use value::{can_cast_value, min_scalar_type, Value};

crate::tables::c_enum! {
    /// Which numpy's rules to reproduce.
    pub enum NumpyRules: i32,
        "The rules argument of the tcast_np_* functions: which numpy's casting rules to \
         reproduce."
    {
        Numpy1 = 1 => TCAST_NUMPY_1:
            "numpy 1.x as documented for 1.22: value-based scalars, structured casts by \
             field name.",
        Numpy2 = 2 => TCAST_NUMPY_2:
            "numpy >= 2 (NEP 50): Python scalars refused, structured casts by field position.",
    }
}

/// A casting level from its numpy name (not "never"), with numpy's message for anything
/// else.
pub fn casting_from_name(name: &str, rules: NumpyRules) -> Result<Casting, Error> {
    match Casting::ALL
        .into_iter()
        .find(|c| c.is_argument() && c.label() == name)
    {
        Some(level) => Ok(level),
        None => {
            let or = if rules == NumpyRules::Numpy1 {
                "or "
            } else {
                ""
            };
            Err(Error::InvalidArgument(format!(
                "casting must be one of 'no', 'equiv', 'safe', 'same_kind', {or}'unsafe' (got {})",
                dtype::py_repr(name)
            )))
        }
    }
}

/// `numpy.can_cast(from, to, casting)` for two dtype specs.
pub fn can_cast_str(
    from: &str,
    to: &str,
    casting: Casting,
    rules: NumpyRules,
) -> Result<bool, Error> {
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
    if casting >= Casting::Unsafe || ml::tensor_level(from, to) <= casting {
        Ok(())
    } else {
        Err(Error::Casting(refusal(
            &ml::numpy_name(from),
            &ml::numpy_name(to),
            casting,
        )))
    }
}
