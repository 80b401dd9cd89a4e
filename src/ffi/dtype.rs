//! Dtype codes, names and widths, and the ONNX Cast schema table.

use super::tensor::{read_dims, require_shape};
use super::{c_static, c_text, guard, guard_value, require, tcast_error, tcast_status};
use crate::dtype::DType;
use crate::error::Error;
use crate::tensor::MAX_NDIM;
use std::ffi::c_char;

/// A dtype: an ONNX TensorProto.DataType code, or a TensorFlow quantized type (100-104).
pub type tcast_dtype = i32;

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
    guard(err, || {
        require(name, "name")?;
        require(out, "out")?;
        // SAFETY: `name` is non-NULL and NUL-terminated per this function's contract.
        let text = unsafe { c_text(name, "name") }?;
        let dtype = DType::from_name(text)
            .ok_or_else(|| Error::InvalidDtype(format!("unknown dtype name {text:?}")))?;
        // SAFETY: `out` is non-NULL and points to a writable tcast_dtype.
        unsafe { out.write(dtype.code()) };
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
    guard(err, || {
        require(out_bytes, "out_bytes")?;
        require_shape(shape, ndim, "shape")?;
        let dtype = DType::from_code_arg(dtype, "dtype")?;
        let mut buf = [0usize; MAX_NDIM];
        // SAFETY: `shape` points to `ndim` readable int64_t (or is NULL; read_dims checks).
        let dims = unsafe { read_dims("tensor", "shape", shape, ndim, &mut buf) }?;
        let count = crate::tensor::element_count("tensor", dtype, dims)?;
        let bytes = dtype.bytes_for(count).ok_or_else(|| {
            Error::InvalidShape(format!(
                "shape {} of {dtype}: the byte count overflows 64 bits",
                crate::error::shape_text(dims)
            ))
        })?;
        // SAFETY: `out_bytes` is non-NULL and points to a writable uint64_t.
        unsafe { out_bytes.write(bytes) };
        Ok(())
    })
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
