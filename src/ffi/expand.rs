// SPDX-License-Identifier: MIT OR Apache-2.0
//! Expand: the broadcast shape and the broadcast copy.

use super::args::{
    input_output_views, plain_options, plain_views, read_dims, read_input_output, read_layout,
    read_options, require_shape, runs_as_one_task, shape_result, LayoutBuf, OptionsArg, ShapeOut,
};
use super::guard::guard_integer;
use super::types::{tcast_cast_options, tcast_error, tcast_status, tcast_tensor};
use crate::dtype::DType;
use crate::error::Error;
use crate::expand::{
    broadcast_shape, check_same_dtype, check_shapes, expand_checked, expand_contiguous, SMALL_RANK,
};
use crate::parallel::Workers;
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
    guard_integer(err, || {
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
    guard_integer(err, || {
        let mut dims = [[0; SMALL_RANK]; 2];
        // SAFETY: each pointer is NULL or valid per the C API contract (docs/c-api.md
        // sections 1, 4 and 5).
        if let Some(plain) = unsafe { plain_expand_operands(input, output, options, &mut dims) } {
            let (es, in_dims, out_dims, src, dst) = plain;
            expand_contiguous(src, es, in_dims, out_dims, dst);
            return Ok(());
        }
        // SAFETY: as above.
        unsafe { expand_in_general(input, output, options) }
    })
}

/// tcast_expand_ex without its plain path: every call reads its arguments as
/// [`expand_args`] does.
///
/// # Safety
/// Each pointer is NULL or valid per the C API contract (docs/c-api.md sections 1, 4, 5
/// and 6).
unsafe fn expand_in_general(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
) -> Result<(), Error> {
    let (mut in_buf, mut out_buf) = (LayoutBuf::new(), LayoutBuf::new());
    let bufs = (&mut in_buf, &mut out_buf);
    // SAFETY: forwarded from this function's contract.
    let (src, mut dst, options) = unsafe { expand_args(input, output, options, bufs) }?;
    expand_checked(&src, &mut dst, options.workers())
}

/// The plain path's operands: element size, input dims, output dims, input and output
/// bytes.
type PlainExpand<'a> = (usize, &'a [usize], &'a [usize], &'a [u8], &'a mut [u8]);

/// The operands of the plainest Expand, the common one of small shape tensors: valid
/// options (NULL included) that run it as one task, as tcast_cast's plain path takes
/// them, two tensors without strides of one unpacked dtype, ranks up to
/// [`SMALL_RANK`]. Every check of [`expand_args`] is made on them in one pass: NULL
/// pointers, the dtype code and agreement, ranks, extents (>= 0), the output shape being
/// the broadcast, element and byte counts (overflow, addressable), buffer sizes, NULL
/// data with elements, overlap. None when the call is not of this kind or a check fails:
/// the general path then reads the arguments again and reports the first failure in the
/// order of docs/c-api.md section 8, so this path changes no outcome, only the cost of
/// the common one (tests: `plain_and_general_paths_agree`).
///
/// # Safety
/// As [`expand_args`], for the lifetime of `dims`.
#[inline(always)]
unsafe fn plain_expand_operands(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
    [in_dims, out_dims]: &mut [[usize; SMALL_RANK]; 2],
) -> Option<PlainExpand<'_>> {
    if input.is_null() || output.is_null() {
        return None;
    }
    // SAFETY: forwarded from this function's contract.
    let (options, executor) = unsafe { plain_options(options) }?;
    // SAFETY: non-NULL descriptors are readable (this function's contract).
    let (i, o) = unsafe { (input.read(), output.read()) };
    if !i.strides.is_null() || !o.strides.is_null() || i.dtype != o.dtype {
        return None;
    }
    let dtype = DType::from_code(i.dtype).filter(|d| !d.is_packed())?;
    let in_rank = usize::try_from(i.ndim).ok()?;
    let out_rank = usize::try_from(o.ndim).ok().filter(|&r| r <= SMALL_RANK)?;
    let offset = out_rank.checked_sub(in_rank)?;
    let es = (dtype.bits() / 8) as u64;
    let (mut in_bytes, mut out_bytes) = (es, es);
    // SAFETY: a shape of ndim > 0 is non-NULL (checked in extents) and holds ndim
    // readable int64_t (docs/c-api.md section 4).
    let (a, b) = unsafe { (extents(i.shape, in_rank)?, extents(o.shape, out_rank)?) };
    for (slot, &y) in out_dims.iter_mut().zip(b) {
        *slot = usize::try_from(y).ok()?;
        out_bytes = out_bytes.checked_mul(*slot as u64)?;
    }
    // Aligned on the right: each input extent equals the output's or is 1.
    for ((slot, &x), &y) in in_dims.iter_mut().zip(a).zip(&out_dims[offset..out_rank]) {
        *slot = usize::try_from(x).ok().filter(|&x| x == y || x == 1)?;
        in_bytes = in_bytes.checked_mul(*slot as u64)?;
    }
    let count = usize::try_from(out_bytes / es).ok()?;
    let one_task = |w: Workers| crate::expand::tasks(es as usize, count, w);
    // SAFETY: `executor` as plain_options returned it.
    if !unsafe { runs_as_one_task(options.threads, executor, one_task) } {
        return None;
    }
    // SAFETY: forwarded from this function's contract.
    let (src, dst) = unsafe { plain_views(&i, in_bytes, &o, out_bytes) }?;
    Some((
        es as usize,
        &in_dims[..in_rank],
        &out_dims[..out_rank],
        src,
        dst,
    ))
}

/// A shape array of `rank` extents (empty for rank 0), or None when it is NULL with a
/// positive rank.
///
/// # Safety
/// A non-NULL `shape` holds `rank` readable int64_t.
#[inline(always)]
unsafe fn extents<'a>(shape: *const i64, rank: usize) -> Option<&'a [i64]> {
    if rank == 0 {
        return Some(&[]);
    }
    if shape.is_null() {
        return None;
    }
    // SAFETY: non-NULL with `rank` readable int64_t (this function's contract).
    Some(unsafe { std::slice::from_raw_parts(shape, rank) })
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
    let ((input, dtype), (output, out_dtype)) = unsafe { read_input_output(input, output) }?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::plain_paths::{check_paths_agree, Kind};

    /// The plain path of tcast_expand changes no outcome: on random calls (valid and
    /// not), the export and the general path alone give the same status, index, message
    /// and output bytes, and leave the input alone; calls with options take the plain
    /// path too, as tcast_cast's do.
    #[test]
    fn plain_and_general_paths_agree() {
        let with_options = check_paths_agree(
            Kind::Expand,
            tcast_expand_ex,
            // SAFETY: the descriptors point at live buffers of their stated sizes.
            |i, o, opt| unsafe { expand_in_general(i, o, opt) },
            |i, o, opt| {
                let mut dims = [[0; SMALL_RANK]; 2];
                // SAFETY: as above.
                unsafe { plain_expand_operands(i, o, opt, &mut dims) }.is_some()
            },
        );
        assert!(
            with_options > 100,
            "only {with_options} plain calls had options"
        );
    }
}
