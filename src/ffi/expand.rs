//! Expand: the broadcast shape and the broadcast copy.

use super::tensor::{
    dtype_of, input_output_views, read_descriptor, read_dims, read_layout, require_shape,
    tcast_tensor,
};
use super::{capacity_of, guard, require, tcast_error, tcast_status};
use crate::error::Error;
use crate::expand::{broadcast_shape, check_same_dtype, check_shapes, expand};
use crate::tensor::MAX_NDIM;

/// The shape Expand produces: the numpy broadcast of `input_shape` with `shape`,
/// aligned on the right (equal extents stay, a 1 takes the other extent, 0 included).
/// Writes the rank to `*out_ndim` and the extents to `out_shape[0 .. rank)`.
/// Errors: NULL_ARGUMENT (a shape NULL with a non-zero length, out_ndim NULL, out_shape
/// NULL with out_capacity > 0), INVALID_SHAPE (a negative extent or length, rank above
/// TCAST_MAX_NDIM), INCOMPATIBLE_SHAPES (both shapes and the dimension in the message),
/// BUFFER_TOO_SMALL (out_capacity below the rank; `*out_ndim` is still set to the rank),
/// INVALID_ARGUMENT (negative out_capacity).
#[no_mangle]
pub extern "C" fn tcast_expand_shape(
    input_shape: *const i64,
    input_ndim: i32,
    shape: *const i64,
    shape_len: i32,
    out_shape: *mut i64,
    out_capacity: i32,
    out_ndim: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // The checks in the order of c-api.md section 8: NULL pointers, the capacity's
        // sign, shapes, capacity.
        require(out_ndim, "out_ndim")?;
        require_shape(input_shape, input_ndim, "input_shape")?;
        require_shape(shape, shape_len, "shape")?;
        if out_capacity > 0 {
            require(out_shape, "out_shape")?;
        }
        let capacity = capacity_of(out_capacity, "out_capacity")?;
        let (mut a, mut b) = ([0usize; MAX_NDIM], [0usize; MAX_NDIM]);
        // SAFETY: each array is NULL or holds its length of int64_t (c-api.md 6).
        let (input, target) = unsafe {
            (
                read_dims("input", "shape", input_shape, input_ndim, &mut a)?,
                read_dims("expand", "shape", shape, shape_len, &mut b)?,
            )
        };
        let mut result = [0usize; MAX_NDIM];
        let rank = broadcast_shape(input, target, &mut result)?;
        // SAFETY: `out_ndim` is non-NULL and writable.
        unsafe { out_ndim.write(rank as i32) };
        if rank > capacity {
            return Err(Error::BufferTooSmall(format!(
                "out_capacity is {capacity} but the broadcast shape {} has rank {rank}",
                crate::error::shape_text(&result[..rank])
            )));
        }
        for (i, &d) in result[..rank].iter().enumerate() {
            // SAFETY: `out_shape` holds `capacity` >= rank writable int64_t.
            unsafe { out_shape.add(i).write(d as i64) };
        }
        Ok(())
    })
}

/// Expands `input` into `output`: `output->dtype` must equal `input->dtype` and
/// `output->shape` must be the broadcast of `input->shape` with it (what
/// tcast_expand_shape gives). Every dtype: STRING copies the views, packed dtypes are
/// expanded bit-exactly. Strided inputs (stride 0 included) work; the output is
/// contiguous and must not overlap the input. An empty output succeeds, writing nothing.
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, INVALID_SHAPE (including an output shape that
/// is not the broadcast), INCOMPATIBLE_SHAPES, BUFFER_TOO_SMALL, INVALID_ARGUMENT
/// (different dtypes, overlapping buffers).
#[no_mangle]
pub extern "C" fn tcast_expand(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // The checks in the order of c-api.md section 8: NULL pointers, dtype codes and
        // their agreement, shapes, buffer sizes, overlap.
        // SAFETY: each pointer is NULL or valid per the C API contract (c-api.md 1, 4, 6).
        let (input, output) = unsafe {
            (
                read_descriptor(input, "input")?,
                read_descriptor(output, "output")?,
            )
        };
        let (dtype, out_dtype) = (dtype_of("input", &input)?, dtype_of("output", &output)?);
        check_same_dtype(dtype, out_dtype)?;
        // SAFETY: shape/strides point to ndim int64_t per the contract.
        let (in_layout, out_layout) = unsafe {
            (
                read_layout("input", &input, dtype)?,
                read_layout("output", &output, out_dtype)?,
            )
        };
        check_shapes(&in_layout, &out_layout)?;
        out_layout.require_contiguous("output")?;
        // SAFETY: the buffers hold data_bytes bytes per the contract; overlap is checked.
        let (src, mut dst) = unsafe { input_output_views(&input, in_layout, &output, out_layout)? };
        expand(&src, &mut dst)
    })
}
