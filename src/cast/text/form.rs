// SPDX-License-Identifier: MIT OR Apache-2.0
//! Which dtypes have a text form, as the kernels' representation of their elements
//! (`formats/repr.rs`), and the block of codes the packed dtypes are handled in.

use crate::dtype::{DType, Scalar};
use crate::error::Error;
use crate::formats::repr::Repr;
use core::fmt::Display;

/// UNSUPPORTED when `dtype` has no text form (the complex types); `direction` ("cast
/// from FLOAT to STRING") starts the message and is formatted only on failure.
pub(crate) fn require_text_form(dtype: DType, direction: impl Display) -> Result<(), Error> {
    text_repr(dtype, direction).map(|_| ())
}

/// How `dtype`'s elements are read and written as text, or UNSUPPORTED when it has no
/// text form (see [`require_text_form`]).
pub(super) fn text_repr(dtype: DType, direction: impl Display) -> Result<Repr, Error> {
    match Repr::of(dtype) {
        Some(Repr::Std(Scalar::C64 | Scalar::C128)) => Err(Error::Unsupported(format!(
            "{direction}: {dtype} <-> STRING is not supported (complex numbers have no text form here)"
        ))),
        Some(repr) => Ok(repr),
        None => Err(Error::Unsupported(format!(
            "{direction}: {dtype} has no text form"
        ))),
    }
}

/// Codes parsed (or unpacked for formatting) per block for the packed dtypes: a
/// multiple of 4, so every block starts on a whole byte of every packed format.
pub(super) const PACKED_BLOCK: usize = 1024;
