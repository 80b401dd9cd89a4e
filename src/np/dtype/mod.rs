// SPDX-License-Identifier: MIT OR Apache-2.0
//! numpy dtypes: `numpy.dtype(str)` parsed into an [`NpDtype`], and numpy's `str(dtype)`
//! printed back (docs/semantics-can-cast.md section 6).
//!
//! - `model.rs`: the dtype model (kinds, byte orders, type codes, fields, subarrays);
//! - `grammar.rs`: the spec grammar of numpy 1 and numpy 2;
//! - `printer.rs`: `str(dtype)`, and Python's `repr()` of specs in messages;
//! - `units.rs`: datetime units.

mod grammar;
mod model;
mod printer;
mod units;

pub use grammar::{parse, Parsed};
pub use model::{packed_struct, subarray, Field, Kind, NpDtype, Order, Shape};
pub use printer::py_repr;
#[cfg(test)]
pub use printer::QUOTED_CHARS;
pub use units::{Unit, UNIT_GENERIC, UNIT_M, UNIT_S, UNIT_Y};
