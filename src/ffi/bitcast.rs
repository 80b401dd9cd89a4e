// SPDX-License-Identifier: MIT OR Apache-2.0
//! Bitcast: views of a tensor's bytes as another dtype, without copying.

use super::args::{
    check_data, dtype_of, out_arg, read_descriptor, read_dims, read_layout, require_shape,
    shape_out, shape_result, LayoutBuf,
};
use super::guard::guard_integer;
use super::types::{tcast_dtype, tcast_error, tcast_status, tcast_tensor};
use crate::bitcast::{check_dtypes, view_change, view_shape, BitcastRules, LastAxis};
use crate::dtype::DType;
use crate::tensor::{Layout, ShapeBuf};

/// The shape of a contiguous tensor of `from` and `shape` viewed as `to` under `rules`
/// (TCAST_BITCAST_*). Writes the rank to `*out_ndim` and the extents to `out_shape`.
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, INVALID_ARGUMENT (unknown rules, negative
/// capacity), INVALID_SHAPE, UNSUPPORTED (a dtype the rules refuse, with the allowed
/// list for TF, or unequal widths for ONNX), INCOMPATIBLE_SHAPES (the shape rule:
/// `Cannot bitcast from FLOAT to COMPLEX128: shape [3]` for TF, numpy's wording for
/// NUMPY_VIEW), BUFFER_TOO_SMALL (out_capacity below the rank; `*out_ndim` is set).
#[no_mangle]
pub extern "C" fn tcast_bitcast_shape(
    from: tcast_dtype,
    shape: *const i64,
    ndim: i32,
    to: tcast_dtype,
    rules: i32,
    out_shape: *mut i64,
    out_capacity: i32,
    out_ndim: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    // The checks in the order of docs/c-api.md section 8: NULL pointers, dtype codes,
    // argument values (rules, capacity sign) and the dtypes the rules take, shapes (the
    // capacity itself is checked when the result is stored).
    guard_integer(err, || {
        // SAFETY: `out_shape` is NULL or holds `out_capacity` writable int64_t and
        // `out_ndim` is NULL or writable (docs/c-api.md section 6).
        let mut out = unsafe { shape_result(out_shape, out_capacity, out_ndim) }?;
        require_shape(shape, ndim, "shape")?;
        let (from, to) = (
            DType::from_code_arg(from, "from")?,
            DType::from_code_arg(to, "to")?,
        );
        let rules = BitcastRules::from_arg(rules, "rules")?;
        out.check_capacity()?;
        check_dtypes(from, to, rules)?;
        let mut buf = ShapeBuf::new();
        // SAFETY: `shape` is NULL or holds `ndim` readable int64_t (section 6).
        let dims = unsafe { read_dims("input", "shape", shape, ndim, &mut buf) }?;
        Layout::new("input", from, dims, None)?;
        let change = view_change(from, dims, LastAxis::Contiguous, to, rules)?;
        out.store_view("view shape", dims, change)
    })
}

/// Views `input`'s bytes as dtype `to` under `rules` (TCAST_BITCAST_*), without copying:
/// `view->data == input->data`, `view->data_bytes == input->data_bytes`, `view->dtype =
/// to`, `view->shape = shape_storage` (its rank in `view->ndim`), `view->strides = NULL`.
/// The input is validated like any tensor; as the view has no strides, a non-contiguous
/// input is refused (after the rules' own checks) with UNSUPPORTED. Constant time.
/// Errors: as tcast_bitcast_shape, plus BUFFER_TOO_SMALL for a short `data_bytes` or a
/// `shape_capacity` below the view's rank.
#[no_mangle]
pub extern "C" fn tcast_bitcast(
    input: *const tcast_tensor,
    to: tcast_dtype,
    rules: i32,
    view: *mut tcast_tensor,
    shape_storage: *mut i64,
    shape_capacity: i32,
    err: *mut tcast_error,
) -> tcast_status {
    // The checks in the order of docs/c-api.md section 8: NULL pointers, dtype codes,
    // argument values (rules, capacity sign) and the dtypes the rules take, shapes (the
    // rules' shape checks, made by the core), buffer size (the capacity is checked when
    // the shape is stored).
    guard_integer(err, || {
        // SAFETY: the pointers are NULL or valid per the C API contract (docs/c-api.md
        // sections 1, 4 and 6).
        let mut view = unsafe { out_arg(view, "view") }?;
        // SAFETY: as above.
        let input = unsafe { read_descriptor(input, "input") }?;
        // SAFETY: as above.
        let mut storage = unsafe {
            shape_out(
                shape_storage,
                "shape_storage",
                shape_capacity,
                "shape_capacity",
                None,
            )
        }?;
        let from = dtype_of("input", &input)?;
        let to = DType::from_code_arg(to, "to")?;
        let rules = BitcastRules::from_arg(rules, "rules")?;
        storage.check_capacity()?;
        check_dtypes(from, to, rules)?;
        let mut buf = LayoutBuf::new();
        // SAFETY: as above.
        let layout = unsafe { read_layout("input", &input, from, &mut buf) }?;
        let change = view_shape(&layout, to, rules)?;
        // The bytes are checked against the shape, never read: no view is made of them.
        check_data("input", &input, &layout)?;
        let result = tcast_tensor {
            data: input.data,
            data_bytes: input.data_bytes,
            shape: storage.as_ptr(),
            strides: std::ptr::null(),
            ndim: change.rank(layout.dims().len()) as i32,
            dtype: to.code(),
        };
        storage.store_view("view shape", layout.dims(), change)?;
        view.write(result);
        Ok(())
    })
}
