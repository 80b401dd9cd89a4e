//! STRING casts: parsing STRING tensors (through `tcast_cast`) and formatting numbers into
//! a caller's arena (`tcast_cast_to_strings`).

use super::cast::{read_options, tcast_cast_options};
use super::dtype::tcast_dtype;
use super::tensor::{
    byte_range, check_buffers, dtype_of, input_output_views, read_descriptor, read_layout,
    require_disjoint, tcast_string, tcast_tensor,
};
use super::{guard, guard_value, require, tcast_error, tcast_status};
use crate::cast::{check_casting, check_same_shape, text};
use crate::dtype::DType;
use crate::error::Error;
use crate::tensor::Tensor;
use std::ffi::c_char;

/// Caller-owned memory that formatted text is appended to.
#[repr(C)]
pub struct tcast_string_arena {
    /// The arena's first byte; may be NULL only when `capacity` is 0.
    pub data: *mut c_char,
    /// Bytes at `data`.
    pub capacity: u64,
    /// Bytes already in use; text is appended here and `used` advances on success.
    pub used: u64,
}

/// The longest text one element of `dtype` can format to, in any format; an arena of
/// n * this many bytes always suffices. 0 for STRING, complex and unknown codes.
#[no_mangle]
pub extern "C" fn tcast_string_max_bytes(dtype: tcast_dtype) -> u64 {
    guard_value(0, || {
        DType::from_code(dtype).map_or(0, text::max_text_bytes)
    })
}

/// The bytes a STRING element's view points to.
///
/// # Safety
/// A view with a non-NULL `data` points to `len` readable bytes that outlive `'a`.
#[inline]
unsafe fn view_bytes<'a>(index: usize, view: tcast_string) -> Result<&'a [u8], Error> {
    if view.len == 0 {
        return Ok(&[]);
    }
    if view.data.is_null() || view.len > isize::MAX as u64 {
        return Err(bad_view(index, view));
    }
    // SAFETY: non-NULL, and the caller vouches for `len` readable bytes.
    Ok(unsafe { std::slice::from_raw_parts(view.data.cast::<u8>(), view.len as usize) })
}

/// The error for a view that cannot be read (kept out of the per-element loop).
#[cold]
#[inline(never)]
fn bad_view(index: usize, view: tcast_string) -> Error {
    let error = if view.data.is_null() {
        Error::NullArgument(format!(
            "input element {index}: its tcast_string has data NULL and len {}",
            view.len
        ))
    } else {
        Error::InvalidArgument(format!(
            "input element {index}: its tcast_string len {} is larger than memory",
            view.len
        ))
    };
    error.at_element(index as u64)
}

/// STRING -> numeric: parses each view of `src` into `dst`.
///
/// # Safety
/// Every view in `src` satisfies [`view_bytes`]' contract.
pub(crate) unsafe fn parse_strings(
    src: &Tensor,
    dst: &mut crate::tensor::TensorMut,
    options: &crate::cast::CastOptions,
) -> Result<(), Error> {
    let data = src.data();
    let size = std::mem::size_of::<tcast_string>();
    let text_at = |i: usize, bytes: &[u8]| {
        // SAFETY: `bytes` holds exactly one tcast_string (the layout's element size);
        // read_unaligned needs no alignment.
        let view = unsafe { bytes.as_ptr().cast::<tcast_string>().read_unaligned() };
        // SAFETY: forwarded from this function's contract.
        unsafe { view_bytes(i, view) }
    };
    if src.layout().strides().is_none() {
        let texts = data
            .chunks_exact(size)
            .enumerate()
            .map(|(i, b)| text_at(i, b));
        text::parse_each(texts, dst, options)
    } else {
        let offsets = src.layout().offsets().enumerate();
        let texts = offsets.map(|(i, at)| text_at(i, &data[at..at + size]));
        text::parse_each(texts, dst, options)
    }
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
        // The checks in the order of c-api.md section 8: NULL pointers, dtype codes and
        // the pair, option values (and the casting level they ask for), shapes, buffer
        // and arena sizes, overlap.
        require(arena, "arena")?;
        // SAFETY: pointers are NULL or valid per the C API contract (c-api.md 1, 4, 5).
        let (input, output, arena_desc) = unsafe {
            (
                read_descriptor(input, "input")?,
                read_descriptor(output, "output")?,
                arena.read(),
            )
        };
        let (from, to) = (dtype_of("input", &input)?, dtype_of("output", &output)?);
        if to != DType::String {
            return Err(Error::Unsupported(format!(
                "output dtype is {to}: tcast_cast_to_strings writes STRING (use tcast_cast for numeric targets)"
            )));
        }
        if from == DType::String {
            return Err(Error::Unsupported(
                "input dtype is STRING: use tcast_cast to copy STRING views".into(),
            ));
        }
        text::require_text_form(from, format_args!("cast from {from} to STRING"))?;
        // SAFETY: `options` is NULL or valid per the contract.
        let options = unsafe { read_options(options)? };
        check_casting(from, to, &options)?;
        // SAFETY: shape/strides point to ndim int64_t per the contract.
        let (in_layout, out_layout) = unsafe {
            (
                read_layout("input", &input, from)?,
                read_layout("output", &output, to)?,
            )
        };
        check_same_shape(&in_layout, &out_layout)?;
        out_layout.require_contiguous("output")?;
        check_buffers(&input, &in_layout, &output, &out_layout)?;
        let capacity = usize::try_from(arena_desc.capacity)
            .ok()
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "arena capacity {} is larger than memory",
                    arena_desc.capacity
                ))
            })?;
        if arena_desc.data.is_null() && capacity > 0 {
            return Err(Error::NullArgument(format!(
                "arena data is NULL but capacity is {capacity}"
            )));
        }
        if arena_desc.used > arena_desc.capacity {
            return Err(Error::InvalidArgument(format!(
                "arena used ({}) is larger than its capacity ({})",
                arena_desc.used, arena_desc.capacity
            )));
        }
        let arena_range = (arena_desc.data as usize)..(arena_desc.data as usize + capacity);
        let (a, b) = (
            byte_range(&input, &in_layout),
            byte_range(&output, &out_layout),
        );
        // SAFETY: the buffers hold data_bytes bytes per the contract; their overlap with
        // each other is checked here, with the arena next.
        let (src, mut dst) = unsafe { input_output_views(&input, in_layout, &output, out_layout)? };
        require_disjoint("the input buffer", &a, "the arena", &arena_range)?;
        require_disjoint("the output buffer", &b, "the arena", &arena_range)?;

        let arena_bytes: &mut [u8] = if capacity == 0 {
            &mut []
        } else {
            // SAFETY: non-NULL, `capacity` writable bytes per the contract, disjoint from
            // the input and output (checked above).
            unsafe { std::slice::from_raw_parts_mut(arena_desc.data.cast::<u8>(), capacity) }
        };
        let base = arena_desc.data as usize;
        let view_size = std::mem::size_of::<tcast_string>();
        let views = dst.data();
        let end = text::format_into(
            &src,
            options.string_format,
            arena_bytes,
            arena_desc.used as usize,
            |i, offset, len| {
                let view = tcast_string {
                    data: (base + offset) as *const c_char,
                    len: len as u64,
                };
                let slot = &mut views[i * view_size..(i + 1) * view_size];
                // SAFETY: `slot` is exactly one tcast_string's bytes; write_unaligned
                // needs no alignment.
                unsafe {
                    slot.as_mut_ptr()
                        .cast::<tcast_string>()
                        .write_unaligned(view)
                };
            },
        )?;
        // SAFETY: `arena` is non-NULL and writable per the contract.
        unsafe { (*arena).used = end as u64 };
        Ok(())
    })
}
