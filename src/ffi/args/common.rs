// SPDX-License-Identifier: MIT OR Apache-2.0
//! What every reader uses: the NULL check, capacities, the overlap check, static C
//! strings.

use crate::error::Error;
use std::ffi::c_char;
use std::ops::Range;

/// NULL_ARGUMENT naming `what` when `ptr` is NULL (the pointer is not read).
#[inline(always)]
pub(crate) fn require<T>(ptr: *const T, what: &str) -> Result<(), Error> {
    if ptr.is_null() {
        return Err(null_argument(what));
    }
    Ok(())
}

/// The NULL_ARGUMENT error, out of line so that the success path carries no trace of it.
#[cold]
#[inline(never)]
fn null_argument(what: &str) -> Error {
    Error::NullArgument(format!("{what} is NULL"))
}

/// A static NUL-terminated string as a C pointer.
pub(crate) fn c_static(text_nul: &'static str) -> *const c_char {
    debug_assert!(text_nul.ends_with('\0'));
    text_nul.as_ptr().cast()
}

/// A C capacity argument as a count, or INVALID_ARGUMENT naming it when negative.
#[inline(always)]
pub(crate) fn capacity_of(value: i32, what: &str) -> Result<usize, Error> {
    usize::try_from(value).map_err(|_| negative_capacity(what, value))
}

#[cold]
#[inline(never)]
fn negative_capacity(what: &str, value: i32) -> Error {
    Error::InvalidArgument(format!("{what} is {value}; it must be >= 0"))
}

/// INVALID_ARGUMENT when two byte ranges share a byte (empty ranges share none). The one
/// overlap check of the library: inputs, outputs and arenas are judged on the byte
/// ranges their shapes (or capacities) describe.
#[inline]
pub(crate) fn require_disjoint(
    first: &str,
    a: &Range<usize>,
    second: &str,
    b: &Range<usize>,
) -> Result<(), Error> {
    if a.is_empty() || b.is_empty() || a.end <= b.start || b.end <= a.start {
        return Ok(());
    }
    Err(overlap(first, a, second, b))
}

#[cold]
#[inline(never)]
fn overlap(first: &str, a: &Range<usize>, second: &str, b: &Range<usize>) -> Error {
    Error::InvalidArgument(format!(
        "{second} overlaps {first} ({first} bytes {:#x}..{:#x}, {second} bytes {:#x}..{:#x}); \
         the operation does not work in place",
        a.start, a.end, b.start, b.end
    ))
}
