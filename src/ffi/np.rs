// SPDX-License-Identifier: MIT OR Apache-2.0
//! numpy's casting rules: `tcast_np_*` and `tcast_can_cast` (docs/c-api.md section 7).

use super::args::{
    out_arg, read_bytes, read_handle, read_text, text_out, text_out_later, Out, TextOut,
};
use super::guard::{guard, guard_integer};
use super::types::{tcast_dtype, tcast_error, tcast_np_dtype, tcast_status};
use crate::dtype::DType;
use crate::error::Error;
use crate::np::casting::Casting;
use crate::np::query::{self, PyScalar};
use crate::np::{self, NumpyRules};
use std::ffi::{c_char, c_void};

/// The shell of the exports here: `guard(err, || ...)` (or another guard), then the
/// pointer arguments read in the order listed, each checked for NULL first and named
/// after its C parameter in errors, bound under their own names for `body`. The kinds:
/// `text` a NUL-terminated UTF-8 text, `handle` a numpy dtype handle, `out` an
/// out-pointer, `buf(capacity, needed)` a text output, `later(capacity, needed)` a text
/// output checked for NULL and viewed by the body once it has read its texts
/// (`LaterTextOut::open`), `bytes(len)` a value's bytes.
macro_rules! shell {
    ($guard:ident($err:expr) [$($kind:ident $arg:ident $(($($extra:ident),*))?),* $(,)?]
        $body:block) => {
        $guard($err, || {
            #[allow(unused_mut)]
            // SAFETY: each pointer argument is NULL or valid as docs/c-api.md sections 1
            // and 7 promise for its kind: a text NUL-terminated, a handle live, an
            // out-pointer writable, a text buffer writable for its capacity and `needed`
            // NULL or writable, a value readable for its byte count.
            let ($(mut $arg,)*) = unsafe { ($(shell!(@read $kind $arg $(($($extra),*))?)?,)*) };
            $body
        })
    };
    (@read text $arg:ident) => { read_text($arg, stringify!($arg)) };
    (@read handle $arg:ident) => { read_handle($arg, stringify!($arg)) };
    (@read out $arg:ident) => { out_arg($arg, stringify!($arg)) };
    (@read buf $arg:ident ($capacity:ident, $needed:ident)) => {
        text_out($arg, $capacity, $needed, stringify!($arg))
    };
    (@read later $arg:ident ($capacity:ident, $needed:ident)) => {
        text_out_later($arg, $capacity, $needed, stringify!($arg))
    };
    (@read bytes $arg:ident ($len:ident)) => { read_bytes($arg, $len, stringify!($arg)) };
}

/// Parses a numpy dtype spec (`"<i4"`, `"S5"`, `"M8[ns]"`, `"i4,(2,)f8"`, `"float64"`)
/// into a new handle at `*out` (NULL on failure). The spec ends at its NUL, so numpy's
/// `'\x00'` (type number 0, bool) cannot be passed: `""` is refused as numpy refuses
/// `''`. Accepts what numpy 1.22 or numpy 2 accepts; a spelling only one of them knows is refused by the queries under the other's
/// rules, and the sizes numpy wraps through a C int (`'S-1'` in numpy 1, a struct larger
/// than 2**31 - 1 bytes) are refused under both.
/// Errors: NULL_ARGUMENT, PARSE with numpy's message for every spec numpy refuses, its
/// TypeErrors and ValueErrors alike (`data type 'abc' not understood`, `Invalid datetime
/// metadata string "[s"`, `divisor (7) is not a multiple of a lower-unit ...`), and for
/// a spec that is not UTF-8; OUT_OF_MEMORY when the dtype (a struct of a huge spec, say)
/// cannot be allocated. Linear in the spec's length.
#[no_mangle]
pub extern "C" fn tcast_np_dtype_parse(
    spec: *const c_char,
    out: *mut *mut tcast_np_dtype,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [out out] {
        // A failure leaves NULL at `*out`, a NULL spec's too.
        out.write(std::ptr::null_mut());
        // SAFETY: `spec` is NULL or NUL-terminated (docs/c-api.md section 1).
        let spec = unsafe { read_text(spec, "spec") }?;
        let parsed = np::parse(spec)?;
        let handle = crate::mem::boxed(tcast_np_dtype { parsed }, "a numpy dtype handle")?;
        out.write(Box::into_raw(handle));
        Ok(())
    })
}

/// Frees a handle from `tcast_np_dtype_parse`. NULL is a no-op.
#[no_mangle]
pub extern "C" fn tcast_np_dtype_free(dtype: *mut tcast_np_dtype) {
    if !dtype.is_null() {
        // SAFETY: a non-NULL handle was made by Box::into_raw in tcast_np_dtype_parse and
        // the caller frees it once.
        drop(unsafe { Box::from_raw(dtype) });
    }
}

/// Writes Python's `str(numpy.dtype(spec))` for the handle (numpy 2's reading where the
/// versions differ, e.g. `'f8,'`): `"int32"`, `">i4"`, `"|S5"`, `"<U3"`, `"datetime64[ns]"`,
/// `"[('f0', '<i4'), ('f1', '<f8')]"`, `"('<i4', (2,))"`, written straight into `buf`
/// (nothing is allocated). Text outputs: see docs/c-api.md section 7 (`needed`, when not
/// NULL, gets the bytes the text takes with its NUL; `buf` NULL with `capacity` 0 only
/// asks for that). Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL (the bytes needed, NUL
/// included, in the message and in `*needed`).
#[no_mangle]
pub extern "C" fn tcast_np_dtype_str(
    dtype: *const tcast_np_dtype,
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [handle dtype, buf buf(capacity, needed)] {
        buf.put(&dtype.dtype)
    })
}

/// The casting level named `name`: exactly "no", "equiv", "safe", "same_kind" or
/// "unsafe" (0..4). Errors: NULL_ARGUMENT, INVALID_ARGUMENT with numpy 2's message.
#[no_mangle]
pub extern "C" fn tcast_np_casting_from_name(
    name: *const c_char,
    casting: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [text name, out casting] {
        casting.write(np::casting_from_name(name, NumpyRules::Numpy2)?.code());
        Ok(())
    })
}

/// The lowest casting level (0 no .. 4 unsafe) at which numpy casts `from` to `to`, or
/// TCAST_CASTING_NEVER (5) when none does. An unsized S/U/V target means "that kind, sized
/// for the source", as in `numpy.can_cast`. Errors: NULL_ARGUMENT, INVALID_ARGUMENT (bad
/// rules), PARSE (a spelling these rules refuse, with numpy's message).
#[no_mangle]
pub extern "C" fn tcast_np_casting_level(
    from: *const tcast_np_dtype,
    to: *const tcast_np_dtype,
    rules: i32,
    level: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [handle from, handle to, out level] {
        let rules = NumpyRules::from_arg(rules, "rules")?;
        level.write(query::casting_level(from, to, rules)?.code());
        Ok(())
    })
}

/// `numpy.can_cast(from, to, casting)` on handles: `*result` is 1 or 0. Errors as
/// `tcast_np_casting_level`, plus INVALID_ARGUMENT for a casting outside 0..4.
#[no_mangle]
pub extern "C" fn tcast_np_can_cast(
    from: *const tcast_np_dtype,
    to: *const tcast_np_dtype,
    casting: i32,
    rules: i32,
    result: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [handle from, handle to, out result] {
        let (casting, rules) = casting_and_rules(casting, rules)?;
        result.write(i32::from(query::can_cast_parsed(from, to, casting, rules)?));
        Ok(())
    })
}

/// `numpy.can_cast(from, to, casting)` on spec strings and a casting name. Errors:
/// NULL_ARGUMENT; PARSE for a bad `to` (the parser's message) or a bad `from` (numpy's
/// `did not understand one of the types; 'None' not accepted`, the parser's message after
/// it); INVALID_ARGUMENT for a bad casting name (numpy's message for these rules);
/// OUT_OF_MEMORY when a spec's dtype cannot be allocated.
#[no_mangle]
pub extern "C" fn tcast_np_can_cast_str(
    from: *const c_char,
    to: *const c_char,
    casting: *const c_char,
    rules: i32,
    result: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [text from, text to, text casting, out result] {
        let rules = NumpyRules::from_arg(rules, "rules")?;
        let casting = np::casting_from_name(casting, rules)?;
        result.write(i32::from(np::can_cast_str(from, to, casting, rules)?));
        Ok(())
    })
}

/// The casting level and the rules of a query, checked in that order.
fn casting_and_rules(casting: i32, rules: i32) -> Result<(Casting, NumpyRules), Error> {
    Ok((
        Casting::from_arg(casting, "casting")?,
        NumpyRules::from_arg(rules, "rules")?,
    ))
}

/// Answers a Python-scalar query into `result`, after checking the casting level and
/// the rules (in that order).
fn answer_py_scalar(
    scalar: PyScalar,
    to: &str,
    (casting, rules): (i32, i32),
    mut result: Out<'_, i32>,
) -> Result<(), Error> {
    let (casting, rules) = casting_and_rules(casting, rules)?;
    result.write(i32::from(query::can_cast_py_scalar(
        scalar, to, casting, rules,
    )?));
    Ok(())
}

/// `numpy.can_cast(int(decimal), to, casting)`: a Python int of any size, given as
/// decimal text (an optional sign, digits). Under TCAST_NUMPY_1, numpy 1.22's value-based
/// rule; under TCAST_NUMPY_2, UNSUPPORTED with numpy 2's TypeError text. Errors:
/// NULL_ARGUMENT, PARSE (bad decimal or `to`), INVALID_ARGUMENT (casting, rules).
#[no_mangle]
pub extern "C" fn tcast_np_can_cast_pyint(
    decimal: *const c_char,
    to: *const c_char,
    casting: i32,
    rules: i32,
    result: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [text decimal, text to, out result] {
        answer_py_scalar(PyScalar::Int(decimal), to, (casting, rules), result)
    })
}

/// `numpy.can_cast(float(value), to, casting)`; rules and errors as for pyint.
#[no_mangle]
pub extern "C" fn tcast_np_can_cast_pyfloat(
    value: f64,
    to: *const c_char,
    casting: i32,
    rules: i32,
    result: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [text to, out result] {
        answer_py_scalar(PyScalar::Float(value), to, (casting, rules), result)
    })
}

/// `numpy.can_cast(complex(re, im), to, casting)`; rules and errors as for pyint.
#[no_mangle]
pub extern "C" fn tcast_np_can_cast_pycomplex(
    re: f64,
    im: f64,
    to: *const c_char,
    casting: i32,
    rules: i32,
    result: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [text to, out result] {
        answer_py_scalar(PyScalar::Complex(re, im), to, (casting, rules), result)
    })
}

/// `numpy.can_cast(bool(value), to, casting)` (value 0 or non-zero); rules and errors as
/// for pyint.
#[no_mangle]
pub extern "C" fn tcast_np_can_cast_pybool(
    value: i32,
    to: *const c_char,
    casting: i32,
    rules: i32,
    result: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [text to, out result] {
        answer_py_scalar(PyScalar::Bool(value != 0), to, (casting, rules), result)
    })
}

/// `numpy.can_cast(x, to, casting)` for a numpy scalar (`is_array` 0) or a 0-d array
/// (`is_array` 1) of `dtype`, whose value is `value_bytes` bytes at `value` in that
/// dtype's byte order (`value_bytes` must equal the dtype's itemsize). Under
/// TCAST_NUMPY_1 the value decides for numeric dtypes (numpy 1.22); under TCAST_NUMPY_2
/// only the dtype does. Errors: NULL_ARGUMENT, PARSE, INVALID_ARGUMENT (casting, rules,
/// is_array, a value_bytes that is not the itemsize).
#[no_mangle]
pub extern "C" fn tcast_np_can_cast_scalar(
    dtype: *const c_char,
    value: *const c_void,
    value_bytes: u64,
    is_array: i32,
    to: *const c_char,
    casting: i32,
    rules: i32,
    result: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [text dtype, text to, out result, bytes value(value_bytes)] {
        let is_array = match is_array {
            0 => false,
            1 => true,
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "is_array is {is_array}: expected 0 (a numpy scalar) or 1 (a 0-d array)"
                )))
            }
        };
        let (casting, rules) = casting_and_rules(casting, rules)?;
        let ok = query::can_cast_scalar(dtype, value, is_array, to, casting, rules)?;
        result.write(i32::from(ok));
        Ok(())
    })
}

/// Writes `str(numpy.promote_types(a, b))` into `buf` (native byte order, numpy 2's
/// reading of the specs). Errors: NULL_ARGUMENT, PARSE, UNSUPPORTED (no common dtype,
/// e.g. datetime64 and int32), BUFFER_TOO_SMALL, OUT_OF_MEMORY (the specs' or the
/// result's dtype cannot be allocated). `needed` as in tcast_np_dtype_str.
#[no_mangle]
pub extern "C" fn tcast_np_promote_types(
    a: *const c_char,
    b: *const c_char,
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [text a, text b, later buf(capacity, needed)] {
        let promoted = query::promote_specs(a, b)?;
        // SAFETY: `a` and `b` are not read after this (the caller's `buf` may hold them).
        unsafe { buf.open() }?.put(&promoted)
    })
}

/// Writes `str(numpy.min_scalar_type(scalar))` into a checked text output.
fn answer_min_scalar_type(scalar: PyScalar, buf: TextOut) -> Result<(), Error> {
    buf.put(&query::min_scalar_type_of(scalar)?)
}

/// Writes `str(numpy.min_scalar_type(int(decimal)))`: `"uint8"` for 128, `"int16"` for
/// -129, `"object"` beyond 64 bits. `needed` as in tcast_np_dtype_str. Errors:
/// NULL_ARGUMENT, PARSE, BUFFER_TOO_SMALL.
#[no_mangle]
pub extern "C" fn tcast_np_min_scalar_type_pyint(
    decimal: *const c_char,
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [text decimal, later buf(capacity, needed)] {
        let answer = query::min_scalar_type_of(PyScalar::Int(decimal))?;
        // SAFETY: `decimal` is not read after this (the caller's `buf` may hold it).
        unsafe { buf.open() }?.put(&answer)
    })
}

/// Writes `str(numpy.min_scalar_type(float(value)))`: float16, float32 or float64.
/// `needed` as in tcast_np_dtype_str. Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL.
#[no_mangle]
pub extern "C" fn tcast_np_min_scalar_type_pyfloat(
    value: f64,
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [buf buf(capacity, needed)] {
        answer_min_scalar_type(PyScalar::Float(value), buf)
    })
}

/// Writes `str(numpy.min_scalar_type(complex(re, im)))`: complex64 or complex128.
/// `needed` as in tcast_np_dtype_str. Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL.
#[no_mangle]
pub extern "C" fn tcast_np_min_scalar_type_pycomplex(
    re: f64,
    im: f64,
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard(err) [buf buf(capacity, needed)] {
        answer_min_scalar_type(PyScalar::Complex(re, im), buf)
    })
}

/// `numpy.can_cast` on tensorcast dtypes, as numpy 2.4 with ml_dtypes 0.6 answers it:
/// numpy's names for the classic types, ml_dtypes' registered casts for the ML types,
/// STRING as numpy's unsized `U`, the TF quantized types as their storage integers.
/// `*result` is 1 or 0. The `casting` option of `tcast_cast` uses the same answer.
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, INVALID_ARGUMENT (casting outside 0..4).
#[no_mangle]
pub extern "C" fn tcast_can_cast(
    from: tcast_dtype,
    to: tcast_dtype,
    casting: i32,
    result: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    shell!(guard_integer(err) [out result] {
        let (from, to) = (
            DType::from_code_arg(from, "from")?,
            DType::from_code_arg(to, "to")?,
        );
        let casting = Casting::from_arg(casting, "casting")?;
        result.write(i32::from(query::can_cast_dtypes(from, to, casting)));
        Ok(())
    })
}
