//! Expand: the broadcast shape and the broadcast copy.

use super::args::{
    dtype_of, input_output_views, read_descriptor, read_dims, read_layout, read_options,
    require_shape, shape_result, LayoutBuf, OptionsArg, ShapeOut,
};
use super::guard::guard;
use super::types::{tcast_cast_options, tcast_error, tcast_status, tcast_tensor};
use crate::error::Error;
use crate::expand::{broadcast_shape, check_same_dtype, check_shapes, expand_checked};
use crate::tensor::{ShapeBuf, Tensor, TensorMut, MAX_NDIM};

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
        let (mut a, mut b, mut result) = (ShapeBuf::new(), ShapeBuf::new(), [0; MAX_NDIM]);
        // SAFETY: each array is NULL or holds its length of int64_t and the out-pointers
        // are NULL or writable (docs/c-api.md section 6).
        let (input, target, mut out) = unsafe {
            expand_shape_args(
                (input_shape, input_ndim, &mut a),
                (shape, shape_len, &mut b),
                out_shape,
                out_capacity,
                out_ndim,
            )
        }?;
        let rank = broadcast_shape(input, target, &mut result)?;
        out.store("broadcast shape", &result[..rank])
    })
}

/// A shape argument: the array, its length and the buffer its dims are read into.
type ShapeArg<'b> = (*const i64, i32, &'b mut ShapeBuf);

/// The arguments of `tcast_expand_shape`, checked in the order of docs/c-api.md section
/// 8: NULL pointers, the capacity's sign, shapes (the capacity itself is checked when
/// the result is stored).
///
/// # Safety
/// Each shape array is NULL or holds its length of readable int64_t; `out_shape` is NULL
/// or holds `out_capacity` writable int64_t; `out_ndim` is NULL or writable.
#[inline(always)]
unsafe fn expand_shape_args<'a, 'b>(
    (input_shape, input_ndim, a): ShapeArg<'b>,
    (shape, shape_len, b): ShapeArg<'b>,
    out_shape: *mut i64,
    out_capacity: i32,
    out_ndim: *mut i32,
) -> Result<(&'b [usize], &'b [usize], ShapeOut<'a>), Error> {
    // SAFETY: forwarded from this function's contract.
    let out = unsafe { shape_result(out_shape, out_capacity, out_ndim) }?;
    require_shape(input_shape, input_ndim, "input_shape")?;
    require_shape(shape, shape_len, "shape")?;
    out.check_capacity()?;
    // SAFETY: as above.
    let (input, target) = unsafe {
        (
            read_dims("input", "shape", input_shape, input_ndim, a)?,
            read_dims("expand", "shape", shape, shape_len, b)?,
        )
    };
    Ok((input, target, out))
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
    tcast_expand_ex(input, output, std::ptr::null(), err)
}

/// tcast_expand with options: `threads` and `executor` split a large expansion into
/// tasks (docs/c-api.md section 9); the other fields are checked and otherwise
/// ignored. `options` may be NULL (the calling thread only).
/// Errors: as tcast_expand, and INVALID_ARGUMENT for a bad option.
#[no_mangle]
pub extern "C" fn tcast_expand_ex(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        let (mut in_buf, mut out_buf) = (LayoutBuf::new(), LayoutBuf::new());
        let bufs = (&mut in_buf, &mut out_buf);
        // SAFETY: each pointer is NULL or valid per the C API contract (docs/c-api.md
        // sections 1, 4, 5 and 6).
        let (src, mut dst, options) = unsafe { expand_args(input, output, options, bufs) }?;
        expand_checked(&src, &mut dst, options.workers())
    })
}

/// The arguments of `tcast_expand`, checked in the order of docs/c-api.md section 8:
/// NULL pointers, dtype codes and their agreement, shapes, buffer sizes, overlap.
///
/// # Safety
/// `input` and `output` are NULL or valid as docs/c-api.md section 4 describes, for `'a`.
#[inline(always)]
unsafe fn expand_args<'a>(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
    (in_buf, out_buf): (&'a mut LayoutBuf, &'a mut LayoutBuf),
) -> Result<(Tensor<'a>, TensorMut<'a>, OptionsArg), Error> {
    // SAFETY: forwarded from this function's contract.
    let (input, output) = unsafe {
        (
            read_descriptor(input, "input")?,
            read_descriptor(output, "output")?,
        )
    };
    let (dtype, out_dtype) = (dtype_of("input", &input)?, dtype_of("output", &output)?);
    check_same_dtype(dtype, out_dtype)?;
    // SAFETY: as above.
    let options = unsafe { read_options(options) }?;
    // SAFETY: as above.
    let (in_layout, out_layout) = unsafe {
        (
            read_layout("input", &input, dtype, in_buf)?,
            read_layout("output", &output, out_dtype, out_buf)?,
        )
    };
    check_shapes(&in_layout, &out_layout)?;
    // SAFETY: as above.
    let (src, dst) = unsafe { input_output_views(&input, in_layout, &output, out_layout, None) }?;
    Ok((src, dst, options))
}
