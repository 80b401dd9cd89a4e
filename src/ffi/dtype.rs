// SPDX-License-Identifier: MIT OR Apache-2.0
//! Dtype codes, names and widths, and the ONNX Cast schema table.

use super::args::{c_static, dtype_named, out_arg, read_dims, read_text, require_shape, Out};
use super::guard::{guard_integer, guard_value};
use super::types::{tcast_dtype, tcast_error, tcast_status};
use crate::dtype::DType;
use crate::error::Error;
use crate::tensor::{contiguous_bytes, ShapeBuf};
use std::ffi::c_char;

/// The dtype's name ("FLOAT", "QINT8"), a static string; NULL for an unknown code
/// (UNDEFINED included).
#[no_mangle]
pub extern "C" fn tcast_dtype_name(dtype: tcast_dtype) -> *const c_char {
    guard_value(std::ptr::null(), || {
        DType::from_code(dtype).map_or(std::ptr::null(), |d| c_static(d.info().name_nul))
    })
}

/// Bits per element: 32 for FLOAT, 4 for INT4, 6 for FLOAT6*, 8 for BOOL,
/// 8 * sizeof(tcast_string) for STRING; 0 for an unknown code.
#[no_mangle]
pub extern "C" fn tcast_dtype_bits(dtype: tcast_dtype) -> u32 {
    guard_value(0, || DType::from_code(dtype).map_or(0, DType::bits))
}

/// Looks a dtype up by name, ignoring ASCII case: the ONNX names as Cast-1 takes them
/// ("FLOAT", "INT64", "FLOAT16", ...) and the aliases float32, float64, float16, half,
/// bfloat16, int8 ... uint64, bool, string, complex64, complex128, qint8 ... qint32 and
/// ml_dtypes' names of the low-precision types (float8_e4m3fn, int4, ...).
/// Errors: NULL_ARGUMENT (name or out NULL), PARSE (a name that is not UTF-8),
/// INVALID_DTYPE (no such name).
#[no_mangle]
pub extern "C" fn tcast_dtype_from_name(
    name: *const c_char,
    out: *mut tcast_dtype,
    err: *mut tcast_error,
) -> tcast_status {
    guard_integer(err, || {
        // SAFETY: `name` is NULL or NUL-terminated and `out` NULL or writable
        // (docs/c-api.md section 1).
        let (mut out, text) = unsafe { (out_arg(out, "out")?, read_text(name, "name")?) };
        out.write(dtype_named(text)?.code());
        Ok(())
    })
}

/// The bytes a C-contiguous tensor of `dtype` and `shape` occupies, sub-byte types
/// packed (INT4: 2 per byte, INT2: 4 per byte, FLOAT6: 4 per 3 bytes).
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, INVALID_SHAPE (negative dim, ndim outside
/// 0..=TCAST_MAX_NDIM, or a count that overflows 64 bits).
#[no_mangle]
pub extern "C" fn tcast_tensor_bytes(
    dtype: tcast_dtype,
    shape: *const i64,
    ndim: i32,
    out_bytes: *mut u64,
    err: *mut tcast_error,
) -> tcast_status {
    guard_integer(err, || {
        let mut buf = ShapeBuf::new();
        let (mut out, dtype, dims) =
            // SAFETY: `out_bytes` is NULL or writable and `shape` NULL or holding `ndim`
            // int64_t (docs/c-api.md section 4).
            unsafe { tensor_bytes_args(out_bytes, dtype, shape, ndim, &mut buf) }?;
        out.write(contiguous_bytes(dtype, dims)?);
        Ok(())
    })
}

/// The arguments of `tcast_tensor_bytes`, checked in the order of docs/c-api.md
/// section 8: NULL pointers, the dtype code, the shape.
///
/// # Safety
/// `out_bytes` is NULL or writable; `shape` is NULL or holds `ndim` readable int64_t.
#[inline(always)]
unsafe fn tensor_bytes_args<'a>(
    out_bytes: *mut u64,
    dtype: tcast_dtype,
    shape: *const i64,
    ndim: i32,
    buf: &mut ShapeBuf,
) -> Result<(Out<'a, u64>, DType, &[usize]), Error> {
    // SAFETY: forwarded from this function's contract.
    let out = unsafe { out_arg(out_bytes, "out_bytes") }?;
    require_shape(shape, ndim, "shape")?;
    let dtype = DType::from_code_arg(dtype, "dtype")?;
    // SAFETY: as above.
    let dims = unsafe { read_dims("tensor", "shape", shape, ndim, buf) }?;
    Ok((out, dtype, dims))
}

/// 1 if the ONNX Cast schema in force at `opset` lists both dtypes, else 0. Cast has
/// versions 1, 6, 9, 13, 19, 21, 23, 24, 25 and 28; each stays in force until the next,
/// so opsets above 28 are answered with Cast-28. Complex and the TF quantized types are
/// never listed; opsets below 1 and unknown codes give 0.
#[no_mangle]
pub extern "C" fn tcast_onnx_cast_supported(from: tcast_dtype, to: tcast_dtype, opset: i32) -> i32 {
    guard_value(0, || match (DType::from_code(from), DType::from_code(to)) {
        (Some(a), Some(b)) => i32::from(a.in_onnx_cast(opset) && b.in_onnx_cast(opset)),
        _ => 0,
    })
}
