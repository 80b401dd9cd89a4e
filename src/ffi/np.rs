//! numpy's casting rules: `tcast_np_*` and `tcast_can_cast` (c-api.md section 7).

use super::dtype::tcast_dtype;
use super::{c_text, guard, require, tcast_error, tcast_status};
use crate::cast::Casting;
use crate::dtype::DType;
use crate::error::Error;
use crate::np::{self, NumpyRules, Value};
use std::ffi::c_char;

/// An opaque parsed numpy dtype (from `tcast_np_dtype_parse`, freed with
/// `tcast_np_dtype_free`). Immutable: one handle may be used from many threads.
pub struct tcast_np_dtype {
    parsed: np::Parsed,
}

/// Reads a required C string argument (a spec, a decimal or a casting name): text that
/// is not UTF-8 cannot be read (TCAST_ERR_PARSE, c-api.md section 1).
fn text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Error> {
    require(ptr, what)?;
    // SAFETY: non-NULL and NUL-terminated per the contract (c-api.md section 1).
    unsafe { c_text(ptr, what) }
}

/// Borrows a handle argument.
fn handle<'a>(ptr: *const tcast_np_dtype, what: &str) -> Result<&'a np::Parsed, Error> {
    require(ptr, what)?;
    // SAFETY: a non-NULL handle came from tcast_np_dtype_parse and is not yet freed.
    Ok(unsafe { &(*ptr).parsed })
}

/// Writes `value` through a required out pointer.
fn put<T>(ptr: *mut T, what: &str, value: T) -> Result<(), Error> {
    require(ptr, what)?;
    // SAFETY: non-NULL and writable per the contract.
    unsafe { ptr.write(value) };
    Ok(())
}

/// Copies `text` and a NUL into `buf` of `capacity` bytes, or fails naming the size.
fn put_text(buf: *mut c_char, capacity: u64, dtype: &np::NpDtype) -> Result<(), Error> {
    require(buf, "buf")?;
    let room =
        usize::try_from(capacity).map_or(isize::MAX as usize, |c| c.min(isize::MAX as usize));
    // SAFETY: buf holds `capacity` writable bytes per the contract (c-api.md 7).
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf.cast::<u8>(), room) };
    let mut out = CText { bytes, len: 0 };
    // CText never fails
    let _ = dtype.write_str_to(&mut out);
    let needed = out.len as u64 + 1;
    if capacity < needed {
        return Err(Error::BufferTooSmall(format!(
            "buf holds {capacity} bytes; {:?} needs {needed} (with its NUL)",
            dtype.to_str_capped()
        )));
    }
    out.bytes[out.len] = 0;
    Ok(())
}

/// Writes text into a caller's buffer while it fits (leaving a byte for the NUL) and
/// counts every byte, so that a text that does not fit is measured without being built.
struct CText<'a> {
    bytes: &'a mut [u8],
    len: usize,
}

impl core::fmt::Write for CText<'_> {
    fn write_str(&mut self, piece: &str) -> core::fmt::Result {
        let end = self.len.saturating_add(piece.len());
        if end < self.bytes.len() {
            self.bytes[self.len..end].copy_from_slice(piece.as_bytes());
        }
        self.len = end;
        Ok(())
    }
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
    guard(err, || {
        require(out, "out")?;
        // SAFETY: `out` is non-NULL and writable per the contract.
        unsafe { out.write(std::ptr::null_mut()) };
        let spec = text(spec, "spec")?;
        let parsed = np::parse(spec)?;
        let boxed = Box::into_raw(crate::mem::boxed(
            tcast_np_dtype { parsed },
            "a numpy dtype handle",
        )?);
        // SAFETY: as above.
        unsafe { out.write(boxed) };
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
/// (nothing is allocated). Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL (the bytes needed,
/// NUL included, in the message).
#[no_mangle]
pub extern "C" fn tcast_np_dtype_str(
    dtype: *const tcast_np_dtype,
    buf: *mut c_char,
    capacity: u64,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        let parsed = handle(dtype, "dtype")?;
        put_text(buf, capacity, &parsed.dtype)
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
    guard(err, || {
        let name = text(name, "name")?;
        require(casting, "casting")?;
        let level = np::casting_from_name(name, NumpyRules::Numpy2)?;
        put(casting, "casting", level.code())
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
    guard(err, || {
        let (from, to) = (handle(from, "from")?, handle(to, "to")?);
        require(level, "level")?;
        let rules = NumpyRules::from_arg(rules, "rules")?;
        let l = np::level(from.under(rules)?, to.under(rules)?, rules);
        put(level, "level", l.code())
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
    guard(err, || {
        let (from, to) = (handle(from, "from")?, handle(to, "to")?);
        require(result, "result")?;
        let casting = Casting::from_arg(casting, "casting")?;
        let rules = NumpyRules::from_arg(rules, "rules")?;
        let l = np::level(from.under(rules)?, to.under(rules)?, rules);
        put(result, "result", i32::from(l <= casting))
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
    guard(err, || {
        let (from, to) = (text(from, "from")?, text(to, "to")?);
        let casting = text(casting, "casting")?;
        require(result, "result")?;
        let rules = NumpyRules::from_arg(rules, "rules")?;
        let casting = np::casting_from_name(casting, rules)?;
        let ok = np::can_cast_str(from, to, casting, rules)?;
        put(result, "result", i32::from(ok))
    })
}

/// The shared body of the Python-scalar queries.
fn python_scalar(
    make: impl FnOnce() -> Result<(np::NpDtype, Value), Error>,
    to: *const c_char,
    casting: i32,
    rules: i32,
    result: *mut i32,
) -> Result<(), Error> {
    let to = text(to, "to")?;
    require(result, "result")?;
    let casting = Casting::from_arg(casting, "casting")?;
    let rules = NumpyRules::from_arg(rules, "rules")?;
    if rules == NumpyRules::Numpy2 {
        return Err(Error::Unsupported(np::PYTHON_SCALAR_REFUSED.to_string()));
    }
    let (dtype, value) = make()?;
    let to = np::parse(to)?;
    let ok = np::can_cast_value(&dtype, value, to.under(rules)?, casting, rules);
    put(result, "result", i32::from(ok))
}

fn code(c: u8) -> np::NpDtype {
    np::NpDtype::from_code(c, np::dtype::Order::None).expect("a builtin code")
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
    guard(err, || {
        let decimal = text(decimal, "decimal")?;
        python_scalar(|| np::value::py_int(decimal), to, casting, rules, result)
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
    guard(err, || {
        python_scalar(
            || Ok((code(b'd'), Value::Float(value))),
            to,
            casting,
            rules,
            result,
        )
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
    guard(err, || {
        python_scalar(
            || Ok((code(b'D'), Value::Complex(re, im))),
            to,
            casting,
            rules,
            result,
        )
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
    guard(err, || {
        python_scalar(
            || Ok((code(b'?'), Value::Bool(value != 0))),
            to,
            casting,
            rules,
            result,
        )
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
    value: *const std::ffi::c_void,
    value_bytes: u64,
    is_array: i32,
    to: *const c_char,
    casting: i32,
    rules: i32,
    result: *mut i32,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        let spec = text(dtype, "dtype")?;
        let to = text(to, "to")?;
        require(result, "result")?;
        if value_bytes > 0 {
            require(value, "value")?;
        }
        if is_array != 0 && is_array != 1 {
            return Err(Error::InvalidArgument(format!(
                "is_array is {is_array}: expected 0 (a numpy scalar) or 1 (a 0-d array)"
            )));
        }
        let casting = Casting::from_arg(casting, "casting")?;
        let rules = NumpyRules::from_arg(rules, "rules")?;
        let parsed = np::parse(spec)?;
        let as_given = parsed.under(rules)?;
        // A numpy scalar is always in native byte order; a 0-d array keeps its dtype.
        let native;
        let dtype = if is_array == 1 {
            as_given
        } else {
            native = as_given.native()?;
            &native
        };
        if value_bytes != dtype.itemsize {
            return Err(Error::InvalidArgument(format!(
                "value_bytes is {value_bytes}: a value of dtype {} has {} bytes",
                dtype.to_str_capped(),
                dtype.itemsize
            )));
        }
        let bytes: &[u8] = if value_bytes == 0 {
            &[]
        } else {
            // SAFETY: `value` points to value_bytes readable bytes per the contract.
            unsafe { std::slice::from_raw_parts(value.cast::<u8>(), value_bytes as usize) }
        };
        let v = np::value::read_value(as_given, bytes);
        let to = np::parse(to)?;
        let ok = np::can_cast_value(dtype, v, to.under(rules)?, casting, rules);
        put(result, "result", i32::from(ok))
    })
}

/// Writes `str(numpy.promote_types(a, b))` into `buf` (native byte order, numpy 2's
/// reading of the specs). Errors: NULL_ARGUMENT, PARSE, UNSUPPORTED (no common dtype,
/// e.g. datetime64 and int32), BUFFER_TOO_SMALL, OUT_OF_MEMORY (the specs' or the
/// result's dtype cannot be allocated).
#[no_mangle]
pub extern "C" fn tcast_np_promote_types(
    a: *const c_char,
    b: *const c_char,
    buf: *mut c_char,
    capacity: u64,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        let (a, b) = (text(a, "a")?, text(b, "b")?);
        require(buf, "buf")?;
        let (a, b) = (np::parse(a)?, np::parse(b)?);
        let promoted = np::promote::promote(&a.dtype, &b.dtype)?;
        put_text(buf, capacity, &promoted)
    })
}

/// Writes `str(numpy.min_scalar_type(int(decimal)))`: `"uint8"` for 128, `"int16"` for
/// -129, `"object"` beyond 64 bits. Errors: NULL_ARGUMENT, PARSE, BUFFER_TOO_SMALL.
#[no_mangle]
pub extern "C" fn tcast_np_min_scalar_type_pyint(
    decimal: *const c_char,
    buf: *mut c_char,
    capacity: u64,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        let decimal = text(decimal, "decimal")?;
        require(buf, "buf")?;
        let (dtype, value) = np::value::py_int(decimal)?;
        let (smallest, _) = np::min_scalar_type(&dtype, value)?;
        put_text(buf, capacity, &smallest)
    })
}

/// Writes `str(numpy.min_scalar_type(float(value)))`: float16, float32 or float64.
/// Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL.
#[no_mangle]
pub extern "C" fn tcast_np_min_scalar_type_pyfloat(
    value: f64,
    buf: *mut c_char,
    capacity: u64,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        let (smallest, _) = np::min_scalar_type(&code(b'd'), Value::Float(value))?;
        put_text(buf, capacity, &smallest)
    })
}

/// Writes `str(numpy.min_scalar_type(complex(re, im)))`: complex64 or complex128.
/// Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL.
#[no_mangle]
pub extern "C" fn tcast_np_min_scalar_type_pycomplex(
    re: f64,
    im: f64,
    buf: *mut c_char,
    capacity: u64,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        let (smallest, _) = np::min_scalar_type(&code(b'D'), Value::Complex(re, im))?;
        put_text(buf, capacity, &smallest)
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
    guard(err, || {
        let from = DType::from_code_arg(from, "from")?;
        let to = DType::from_code_arg(to, "to")?;
        require(result, "result")?;
        let casting = Casting::from_arg(casting, "casting")?;
        let ok = np::ml::tensor_level(from, to) <= casting;
        put(result, "result", i32::from(ok))
    })
}
