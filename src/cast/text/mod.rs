// SPDX-License-Identifier: MIT OR Apache-2.0
//! Numbers <-> text (ONNX Cast-9+ with STRING, `docs/semantics-cast.md` section 8).
//!
//! - `format.rs`: numbers -> text, one formatter per source type;
//! - `shortest.rs`: FLOAT's and DOUBLE's shortest round-trip digits (a Schubfach-family
//!   search), laid out as numpy's `str()`;
//! - `layout.rs`: numpy's `str()` layout of the other floats' shortest round-trip
//!   digits (found by a search), and C's `%.8g` ("%.17g" for DOUBLE);
//! - `scratch.rs`: the room a text is built in, and the digit writers;
//! - `parse.rs`: text -> numbers, one parser per target type;
//! - `scan.rs`: byte scanning of number texts (whitespace, integers, plain decimals);
//! - `decimal.rs`: exact decimal -> binary rounding (Eisel-Lemire);
//! - `form.rs`: which dtypes have a text form.
//!
//! Elements are handled in the kernels' representation (`formats/repr.rs`): a standard scalar,
//! or one code of a low-precision format.

mod decimal;
mod form;
mod format;
mod layout;
mod parse;
mod scan;
mod scratch;
mod shortest;
#[cfg(test)]
mod tests;

pub(crate) use form::require_text_form;
pub use format::{format_into, max_text_bytes};
pub use parse::{parse_each, parse_views};
