// SPDX-License-Identifier: MIT OR Apache-2.0
//! numpy's casting rules: the dtype grammar, `can_cast` levels, value-based scalars,
//! `promote_types` and `min_scalar_type` (docs/semantics-can-cast.md), and the same levels for
//! tensorcast dtypes.

pub(crate) mod casting;
pub(crate) mod dtype;
pub(crate) mod level;
pub(crate) mod ml;
mod printable;
pub(crate) mod promote;
pub(crate) mod query;
mod rules;
pub(crate) mod value;

#[cfg(test)]
mod tests;

pub use dtype::{parse, Field, Kind, NpDtype, Order, Parsed, Shape, Unit};
pub use level::level;
pub use promote::promote as promote_types;
pub use query::{
    can_cast_dtypes, can_cast_str, casting_from_name, min_scalar_type_of, promote_specs, PyScalar,
};
pub use rules::NumpyRules;
pub use value::{can_cast_value, min_scalar_type, Value};
