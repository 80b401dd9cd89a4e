// SPDX-License-Identifier: MIT OR Apache-2.0
//! The numpy queries the C API answers, as core functions on checked arguments: each
//! takes parsed handles or spec texts, a casting level and the rules, and returns the
//! answer or numpy's error (docs/semantics-can-cast.md).

use super::dtype::py_repr;
use super::dtype::{parse, NpDtype, Order, Parsed};
use super::level::level;
use super::ml;
use super::rules::NumpyRules;
use super::value::{self, can_cast_value, min_scalar_type, Value, PYTHON_SCALAR_REFUSED};
use crate::dtype::DType;
use crate::error::Error;
use crate::np::casting::Casting;

/// A Python scalar as the C API passes it.
#[derive(Copy, Clone, Debug)]
pub enum PyScalar<'t> {
    /// A Python int of any size, as decimal text (an optional sign, digits).
    Int(&'t str),
    Float(f64),
    Complex(f64, f64),
    Bool(bool),
}

impl PyScalar<'_> {
    /// numpy's default dtype for the scalar's type and the value it holds.
    fn dtype_and_value(self) -> Result<(NpDtype, Value), Error> {
        match self {
            PyScalar::Int(decimal) => value::py_int(decimal),
            PyScalar::Float(v) => Ok((builtin(b'd'), Value::Float(v))),
            PyScalar::Complex(re, im) => Ok((builtin(b'D'), Value::Complex(re, im))),
            PyScalar::Bool(b) => Ok((builtin(b'?'), Value::Bool(b))),
        }
    }
}

fn builtin(code: u8) -> NpDtype {
    NpDtype::from_code(code, Order::None).expect("a builtin type code")
}

/// The lowest casting level at which numpy casts `from` to `to` (NEVER when none does).
pub fn casting_level(from: &Parsed, to: &Parsed, rules: NumpyRules) -> Result<Casting, Error> {
    Ok(level(from.under(rules)?, to.under(rules)?, rules))
}

/// `numpy.can_cast(from, to, casting)` on parsed dtypes.
pub fn can_cast_parsed(
    from: &Parsed,
    to: &Parsed,
    casting: Casting,
    rules: NumpyRules,
) -> Result<bool, Error> {
    Ok(casting_level(from, to, rules)? <= casting)
}

/// `numpy.can_cast(scalar, to, casting)` for a Python scalar: numpy 1.22's value-based
/// rule, or UNSUPPORTED with numpy 2's TypeError text under numpy 2's rules.
pub fn can_cast_py_scalar(
    scalar: PyScalar,
    to: &str,
    casting: Casting,
    rules: NumpyRules,
) -> Result<bool, Error> {
    if rules == NumpyRules::Numpy2 {
        return Err(Error::Unsupported(PYTHON_SCALAR_REFUSED.to_string()));
    }
    let (dtype, value) = scalar.dtype_and_value()?;
    let to = parse(to)?;
    Ok(can_cast_value(
        &dtype,
        value,
        to.under(rules)?,
        casting,
        rules,
    ))
}

/// `numpy.can_cast(x, to, casting)` for a numpy scalar (`is_array` false) or a 0-d
/// array of dtype `spec` whose value is `value` in that dtype's byte order.
pub fn can_cast_scalar(
    spec: &str,
    value: &[u8],
    is_array: bool,
    to: &str,
    casting: Casting,
    rules: NumpyRules,
) -> Result<bool, Error> {
    let parsed = parse(spec)?;
    let as_given = parsed.under(rules)?;
    // A numpy scalar is always in native byte order; a 0-d array keeps its dtype.
    let native;
    let dtype = if is_array {
        as_given
    } else {
        native = as_given.native()?;
        &native
    };
    if value.len() as u64 != dtype.itemsize {
        return Err(Error::InvalidArgument(format!(
            "value_bytes is {}: a value of dtype {} has {} bytes",
            value.len(),
            dtype.to_str_capped(),
            dtype.itemsize
        )));
    }
    let v = value::read_value(as_given, value);
    let to = parse(to)?;
    Ok(can_cast_value(dtype, v, to.under(rules)?, casting, rules))
}

/// `numpy.promote_types(a, b)` of two specs (numpy 2's reading).
pub fn promote_specs(a: &str, b: &str) -> Result<NpDtype, Error> {
    let (a, b) = (parse(a)?, parse(b)?);
    super::promote::promote(&a.dtype, &b.dtype)
}

/// `numpy.min_scalar_type(scalar)` for a Python int, float or complex.
pub fn min_scalar_type_of(scalar: PyScalar) -> Result<NpDtype, Error> {
    let (dtype, value) = scalar.dtype_and_value()?;
    Ok(min_scalar_type(&dtype, value)?.0)
}

/// `numpy.can_cast` on tensorcast dtypes (numpy with ml_dtypes' casts).
#[inline(always)]
pub fn can_cast_dtypes(from: DType, to: DType, casting: Casting) -> bool {
    ml::tensor_level(from, to) <= casting
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
                py_repr(name)
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
