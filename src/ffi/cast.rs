// SPDX-License-Identifier: MIT OR Apache-2.0
//! Cast: the default options and `tcast_cast`.

use super::args::{cast_operands, plain_cast_operands, LayoutBuf};
use super::guard::guard;
use super::types::{tcast_cast_options, tcast_error, tcast_status, tcast_tensor};
use crate::cast::{cast_checked, check_pair, run_contiguous, CastOptions};

/// The default options, with `struct_size` set.
#[no_mangle]
pub extern "C" fn tcast_cast_options_default() -> tcast_cast_options {
    let d = CastOptions::default();
    tcast_cast_options {
        struct_size: std::mem::size_of::<tcast_cast_options>() as u32,
        saturate: i32::from(d.saturate),
        round_mode: d.round_mode as i32,
        string_format: d.string_format as i32,
        casting: d.casting as i32,
        threads: d.threads as i32,
        executor: std::ptr::null(),
    }
}

/// Casts `input` into `output`, element by element (ONNX Cast; complex as tf.cast and
/// numpy's astype). `output->shape` must equal `input->shape`; `output->dtype` is the
/// target; input and output buffers must not overlap. `options` may be NULL (defaults).
/// Float -> integer truncates and saturates (NaN -> 0), integer -> integer wraps, and
/// float conversions round once to nearest even. INT4/UINT4/INT2/UINT2 take floats
/// rounded to the nearest even integer and keep the low bits (NaN, inf -> 0). FLOAT4E2M1
/// and FLOAT6 always saturate and keep -0; they write +NaN as -0 (0x8, 0x20) and -NaN as
/// +0, as onnx's reference (ml_dtypes) does. A STRING input is parsed (each view's
/// bytes, trimmed of C's whitespace: space, \t, \n, \v, \f, \r; "inf"/"nan" in any
/// case; decimal or scientific; an integer text exactly, converted as a float of that
/// value: 8- to 64-bit integers saturate, "300" -> INT8 127, and INT4/UINT4/INT2/UINT2
/// keep the low bits, "20" -> UINT4 4, "-5" -> UINT4 11), failing with TCAST_ERR_PARSE
/// and `err->index` at the first bad element; STRING -> STRING copies the views.
/// Numeric -> STRING needs an arena: use tcast_cast_to_strings. Sub-byte dtypes are
/// packed (docs/c-api.md section 4); `saturate` applies to float8 targets and `round_mode` to
/// FLOAT8E8M0. Thread-safe; allocates nothing on success, STRING parsing included
/// (threads > 1 without an executor may start threads: docs/c-api.md section 9).
/// `options->casting` below UNSAFE refuses the casts that `tcast_can_cast` refuses at
/// that level (numpy's rules, with ml_dtypes' for the ML types).
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (complex <-> STRING, numeric ->
/// STRING), CASTING (refused at `options->casting`, numpy's message), INVALID_SHAPE,
/// BUFFER_TOO_SMALL, PARSE, INVALID_ARGUMENT (bad option, overlapping buffers).
#[no_mangle]
pub extern "C" fn tcast_cast(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: each pointer is NULL or valid per the C API contract (docs/c-api.md
        // sections 1, 4 and 5).
        if let Some((kernel, src, dst)) = unsafe { plain_cast_operands(input, output, options) } {
            run_contiguous(kernel, src, dst);
            return Ok(());
        }
        // SAFETY: as above.
        unsafe { cast_in_general(input, output, options) }
    })
}

/// tcast_cast without its plain path: every call reads its arguments as
/// [`cast_operands`] does.
///
/// # Safety
/// Each pointer is NULL or valid per the C API contract (docs/c-api.md sections 1, 4 and 5).
unsafe fn cast_in_general(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
) -> Result<(), crate::error::Error> {
    let (mut in_buf, mut out_buf) = (LayoutBuf::new(), LayoutBuf::new());
    let bufs = (&mut in_buf, &mut out_buf);
    let (src, mut dst, options) =
        // SAFETY: forwarded from this function's contract.
        unsafe { cast_operands(input, output, options, check_pair, None, bufs) }?;
    cast_checked(&src, &mut dst, &options.options, options.workers())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::plain_paths::{check_paths_agree, Kind};

    /// The plain path of tcast_cast changes no outcome: on random calls (valid and not),
    /// tcast_cast and the general path alone give the same status, index, message and
    /// output bytes, and leave the input alone; calls with options take the plain path
    /// too.
    #[test]
    fn plain_and_general_paths_agree() {
        let with_options = check_paths_agree(
            Kind::Cast,
            tcast_cast,
            // SAFETY: the descriptors point at live buffers of their stated sizes.
            |i, o, opt| unsafe { cast_in_general(i, o, opt) },
            // SAFETY: as above.
            |i, o, opt| unsafe { plain_cast_operands(i, o, opt) }.is_some(),
        );
        assert!(
            with_options > 100,
            "only {with_options} plain calls had options"
        );
    }
}
