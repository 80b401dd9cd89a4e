//! The checks a cast makes before any kernel runs, shared by the Rust API and the C
//! API's argument readers (which call them in the order of docs/c-api.md section 8).

use super::options::CastOptions;
use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::tensor::Layout;

/// Refuses a cast that numpy (with ml_dtypes) would not make at `options.casting`
/// (TCAST_ERR_CASTING, numpy's message).
pub fn check_casting(from: DType, to: DType, options: &CastOptions) -> Result<(), Error> {
    crate::np::ml::check_tensor_cast(from, to, options.casting)
}

/// Checks that a cast keeps the shape.
pub fn check_same_shape(input: &Layout, output: &Layout) -> Result<(), Error> {
    if input.dims() != output.dims() {
        return Err(Error::InvalidShape(format!(
            "output shape {} does not match input shape {}: a cast keeps the shape",
            shape_text(output.dims()),
            shape_text(input.dims())
        )));
    }
    Ok(())
}
