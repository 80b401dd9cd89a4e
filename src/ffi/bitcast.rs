//! Bitcast: views of a tensor's bytes as another dtype, without copying.

use super::dtype::tcast_dtype;
use super::tensor::{
    dtype_of, input_view, read_descriptor, read_dims, read_layout, require_shape, tcast_tensor,
};
use super::{capacity_of, guard, require, tcast_error, tcast_status};
use crate::bitcast::{bitcast_shape, check_dtypes, BitcastRules, LastAxis, ViewShape};
use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::tensor::{Layout, MAX_NDIM};

/// Writes a view shape into a caller's array of `capacity` entries.
fn store_shape(shape: &ViewShape, out: *mut i64, capacity: usize, what: &str) -> Result<(), Error> {
    let dims = shape.dims();
    if dims.len() > capacity {
        return Err(Error::BufferTooSmall(format!(
            "{what} is {capacity} but the view shape {} has rank {}",
            shape_text(dims),
            dims.len()
        )));
    }
    for (i, &d) in dims.iter().enumerate() {
        // SAFETY: `out` holds `capacity` >= rank writable int64_t (checked by the caller
        // to be non-NULL when capacity > 0).
        unsafe { out.add(i).write(d as i64) };
    }
    Ok(())
}

/// The shape of a contiguous tensor of `from` and `shape` viewed as `to` under `rules`
/// (TCAST_BITCAST_*). Writes the rank to `*out_ndim` and the extents to `out_shape`.
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, INVALID_ARGUMENT (unknown rules, negative
/// capacity), INVALID_SHAPE, UNSUPPORTED (a dtype the rules refuse, with the allowed
/// list for TF, or unequal widths for ONNX), INCOMPATIBLE_SHAPES (the shape rule:
/// "Cannot bitcast from FLOAT to COMPLEX128: shape [3]" for TF, numpy's wording for
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
    guard(err, || {
        // The checks in the order of c-api.md section 8: NULL pointers, dtype codes,
        // argument values (rules, capacity sign) and the dtypes the rules take, shapes,
        // capacity.
        require(out_ndim, "out_ndim")?;
        require_shape(shape, ndim, "shape")?;
        if out_capacity > 0 {
            require(out_shape, "out_shape")?;
        }
        let (from, to) = (
            DType::from_code_arg(from, "from")?,
            DType::from_code_arg(to, "to")?,
        );
        let rules = BitcastRules::from_arg(rules, "rules")?;
        let capacity = capacity_of(out_capacity, "out_capacity")?;
        check_dtypes(from, to, rules)?;
        let mut buf = [0usize; MAX_NDIM];
        // SAFETY: `shape` is NULL or holds `ndim` int64_t (c-api.md 6).
        let dims = unsafe { read_dims("input", "shape", shape, ndim, &mut buf) }?;
        Layout::new("input", from, dims, None)?;
        let view = bitcast_shape(from, dims, LastAxis::Contiguous, to, rules)?;
        // SAFETY: `out_ndim` is non-NULL and writable.
        unsafe { out_ndim.write(view.dims().len() as i32) };
        store_shape(&view, out_shape, capacity, "out_capacity")
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
    guard(err, || {
        // The checks in the order of c-api.md section 8: NULL pointers, dtype codes,
        // argument values (rules, capacity sign) and the dtypes the rules take, shapes,
        // buffer size and capacity.
        require(view, "view")?;
        // SAFETY: `input` is NULL or valid per the C API contract (c-api.md 1, 4).
        let desc = unsafe { read_descriptor(input, "input")? };
        if shape_capacity > 0 {
            require(shape_storage, "shape_storage")?;
        }
        let from = dtype_of("input", &desc)?;
        let to = DType::from_code_arg(to, "to")?;
        let rules = BitcastRules::from_arg(rules, "rules")?;
        let capacity = capacity_of(shape_capacity, "shape_capacity")?;
        check_dtypes(from, to, rules)?;
        // SAFETY: shape/strides point to ndim int64_t per the contract.
        let layout = unsafe { read_layout("input", &desc, from)? };
        let last_axis = match layout.strides() {
            Some(s) if layout.dims().last().is_some_and(|&d| d != 1) && s[s.len() - 1] != 1 => {
                LastAxis::Strided
            }
            _ => LastAxis::Contiguous,
        };
        let shape = bitcast_shape(from, layout.dims(), last_axis, to, rules)?;
        if let Some(strides) = layout.strides() {
            return Err(Error::Unsupported(format!(
                "the input is not C-contiguous (strides {}): a bitcast view carries no strides",
                shape_text(strides)
            )));
        }
        // SAFETY: the buffer holds data_bytes bytes per the contract (checked here, not read).
        unsafe { input_view(&desc, layout)? };
        store_shape(&shape, shape_storage, capacity, "shape_capacity")?;
        let result = tcast_tensor {
            data: desc.data,
            data_bytes: desc.data_bytes,
            shape: shape_storage,
            strides: std::ptr::null(),
            ndim: shape.dims().len() as i32,
            dtype: to.code(),
        };
        // SAFETY: `view` is non-NULL and writable per the contract.
        unsafe { view.write(result) };
        Ok(())
    })
}
