// SPDX-License-Identifier: MIT OR Apache-2.0
//! The checks a cast makes before any kernel runs, shared by the Rust API and the C
//! API's argument readers (which call them in the order of docs/c-api.md section 8).

use super::options::{CastOptions, Casting, SubByteLayout};
use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::tensor::Layout;

/// Refuses a cast that numpy (with ml_dtypes) would not make at `options.casting`
/// (TCAST_ERR_CASTING, numpy's message).
#[inline(always)]
pub fn check_casting(from: DType, to: DType, options: &CastOptions) -> Result<(), Error> {
    if options.casting == Casting::Unsafe {
        return Ok(()); // the default: every cast is allowed
    }
    crate::np::ml::check_tensor_cast(from, to, options.casting)
}

/// Checks that a cast keeps the shape.
#[inline]
pub fn check_same_shape(input: &Layout, output: &Layout) -> Result<(), Error> {
    let (a, b) = (input.dims(), output.dims());
    // An element loop, not a slice comparison: shapes are short, and a memcmp call
    // costs more than the few compares.
    if a.len() != b.len() || a.iter().zip(b).any(|(x, y)| x != y) {
        return Err(shape_mismatch(a, b));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn shape_mismatch(input: &[usize], output: &[usize]) -> Error {
    Error::InvalidShape(format!(
        "output shape {} does not match input shape {}: a cast keeps the shape",
        shape_text(output),
        shape_text(input)
    ))
}

/// INVALID_ARGUMENT unless every sub-byte operand is held as `options.sub_byte_layout`
/// says (the Rust API's tensors carry it in their layouts; the C shell makes them so).
#[inline]
pub fn check_sub_byte_layouts(
    input: &Layout,
    output: &Layout,
    options: &CastOptions,
) -> Result<(), Error> {
    for (role, layout) in [("input", input), ("output", output)] {
        if layout.dtype().is_packed() && layout.sub_byte_layout() != options.sub_byte_layout {
            return Err(sub_byte_layout_mismatch(
                role,
                layout,
                options.sub_byte_layout,
            ));
        }
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn sub_byte_layout_mismatch(role: &str, layout: &Layout, wanted: SubByteLayout) -> Error {
    Error::InvalidArgument(format!(
        "{role} of {} is {:?} but options.sub_byte_layout is {wanted:?}: make its layout \
         with Layout::with_sub_byte_layout",
        layout.dtype(),
        layout.sub_byte_layout()
    ))
}
