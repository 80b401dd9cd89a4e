// SPDX-License-Identifier: MIT OR Apache-2.0
//! STRING output: formatting numbers into a caller's arena (`tcast_cast_to_strings`).
//! Parsing STRING inputs is part of `tcast_cast`.

use super::args::{cast_operands, read_arena, LayoutBuf};
use super::guard::{guard, guard_value};
use super::types::{
    tcast_cast_options, tcast_dtype, tcast_error, tcast_status, tcast_string_arena, tcast_tensor,
};
use crate::cast::{check_format_pair, format_to_views, max_text_bytes, SubByteLayout};
use crate::dtype::DType;

/// The longest text one element of `dtype` can format to, in any format; an arena of
/// n * this many bytes always suffices. 0 for STRING, complex and unknown codes.
#[no_mangle]
pub extern "C" fn tcast_string_max_bytes(dtype: tcast_dtype) -> u64 {
    guard_value(0, || DType::from_code(dtype).map_or(0, max_text_bytes))
}

/// Formats each element of a numeric `input` as text appended to `arena`, and points the
/// STRING `output` (same shape, contiguous) at the texts. `options` may be NULL
/// (TCAST_FORMAT_SHORTEST; `string_format` chooses TCAST_FORMAT_PRINTF_8G).
/// Integers are written in decimal, BOOL as "True"/"False", NaN and infinities as "NaN",
/// "INF", "-INF". An arena of n * tcast_string_max_bytes(dtype) free bytes always
/// suffices; when the free bytes run out the call fails with BUFFER_TOO_SMALL, the bytes
/// needed in the message, and `arena->used` unchanged. The input, the output and the
/// arena must not overlap. The low-precision and packed dtypes format their values too.
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (complex input, STRING input, an
/// output that is not STRING), CASTING (refused at `options.casting`), INVALID_SHAPE,
/// BUFFER_TOO_SMALL, INVALID_ARGUMENT.
#[no_mangle]
pub extern "C" fn tcast_cast_to_strings(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    arena: *mut tcast_string_arena,
    options: *const tcast_cast_options,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: each pointer is NULL or valid per the C API contract (docs/c-api.md
        // sections 1, 4 and 5).
        let mut arena = unsafe { read_arena(arena) }?;
        let (mut in_buf, mut out_buf) = (LayoutBuf::new(), LayoutBuf::new());
        let (src, mut dst, options) =
            // SAFETY: as above; the arena is checked and found disjoint from both tensors.
            unsafe {
                cast_operands(
                    input,
                    output,
                    (options, SubByteLayout::Packed.code()),
                    check_format_pair,
                    Some(&mut arena),
                    (&mut in_buf, &mut out_buf),
                )
            }?;
        let (bytes, used, mut new_used) = arena.into_parts();
        let format = options.options.string_format;
        let end = format_to_views(&src, &mut dst, format, bytes, used, options.workers())?;
        new_used.write(end as u64);
        Ok(())
    })
}
