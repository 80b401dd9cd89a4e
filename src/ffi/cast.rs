//! Cast: options and `tcast_cast`.

use super::strings::parse_strings;
use super::tensor::{dtype_of, input_output_views, read_descriptor, read_layout, tcast_tensor};
use super::{guard, tcast_error, tcast_status};
use crate::cast::{
    cast, check_casting, check_same_shape, text, CastOptions, Casting, RoundMode, StringFormat,
};
use crate::dtype::DType;
use crate::error::Error;

/// Options of a cast. Start from `tcast_cast_options_default()` and change fields.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct tcast_cast_options {
    /// sizeof(tcast_cast_options) as the caller compiled it; fields past it take their
    /// defaults; a size below this first layout's (24) is TCAST_ERR_INVALID_ARGUMENT.
    pub struct_size: u32,
    /// 1 (default) or 0: float8 targets only (FLOAT8E8M0 included), ignored for others.
    /// With 0, FLOAT8E8M0 gives NaN (0xFF) for 0, negatives, infinities and any value
    /// above 2^127 or below 2^-127, in every round mode.
    pub saturate: i32,
    /// TCAST_ROUND_*: FLOAT8E8M0 targets only.
    pub round_mode: i32,
    /// TCAST_FORMAT_*: numeric -> STRING.
    pub string_format: i32,
    /// TCAST_CASTING_*: below UNSAFE, refuse (TCAST_ERR_CASTING) the casts numpy would
    /// not allow at this level, as `tcast_can_cast` answers; UNSAFE (the default) checks
    /// nothing, so even pairs numpy has no cast for (STRING -> INT4) work.
    pub casting: i32,
    /// 0 or 1: the calling thread only (default); n > 1: up to n threads, results
    /// bit-identical to one thread.
    pub threads: i32,
}

const FIRST_LAYOUT_SIZE: u32 = 24;

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
    }
}

/// Validates a caller's options (NULL means the defaults).
///
/// # Safety
/// `ptr` is NULL or points to at least `struct_size` readable bytes of options.
pub(crate) unsafe fn read_options(ptr: *const tcast_cast_options) -> Result<CastOptions, Error> {
    if ptr.is_null() {
        return Ok(CastOptions::default());
    }
    // SAFETY: non-NULL; struct_size is the first field of every layout.
    let size = unsafe { std::ptr::addr_of!((*ptr).struct_size).read() };
    if size < FIRST_LAYOUT_SIZE {
        return Err(Error::InvalidArgument(format!(
            "options.struct_size is {size}; it must be at least {FIRST_LAYOUT_SIZE} (use tcast_cast_options_default())"
        )));
    }
    // SAFETY: struct_size >= the size of every field this version reads.
    let raw = unsafe { ptr.read() };
    let saturate = match raw.saturate {
        0 => false,
        1 => true,
        v => {
            return Err(Error::InvalidArgument(format!(
                "options.saturate is {v}; it must be 0 or 1"
            )))
        }
    };
    let threads = usize::try_from(raw.threads).map_err(|_| {
        Error::InvalidArgument(format!(
            "options.threads is {}; it must be >= 0",
            raw.threads
        ))
    })?;
    Ok(CastOptions {
        saturate,
        round_mode: RoundMode::from_arg(raw.round_mode, "options.round_mode")?,
        string_format: StringFormat::from_arg(raw.string_format, "options.string_format")?,
        casting: Casting::from_arg(raw.casting, "options.casting")?,
        threads,
    })
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
/// packed (c-api.md section 4); `saturate` applies to float8 targets and `round_mode` to
/// FLOAT8E8M0. Thread-safe; allocates nothing on success, STRING parsing included
/// (threads > 1 start threads).
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
        // The checks in the order of c-api.md section 8: NULL pointers, dtype codes and
        // the pair, option values (and the casting level they ask for), shapes, buffer
        // sizes, overlap.
        // SAFETY: each pointer is NULL or valid per the C API contract (c-api.md 1, 4, 5).
        let (input, output) = unsafe {
            (
                read_descriptor(input, "input")?,
                read_descriptor(output, "output")?,
            )
        };
        let (from, to) = (dtype_of("input", &input)?, dtype_of("output", &output)?);
        check_pair(from, to)?;
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
        // SAFETY: the buffers hold data_bytes bytes per the contract; overlap is checked.
        let (src, mut dst) = unsafe { input_output_views(&input, in_layout, &output, out_layout)? };
        if from == DType::String && to != DType::String {
            // SAFETY: the caller vouches for every view of a STRING input (c-api.md 4).
            return unsafe { parse_strings(&src, &mut dst, &options) };
        }
        cast(&src, &mut dst, &options)
    })
}

/// UNSUPPORTED for the pairs `tcast_cast` does not take: numeric -> STRING (which needs
/// an arena) and STRING <-> complex.
fn check_pair(from: DType, to: DType) -> Result<(), Error> {
    match (from, to) {
        (DType::String, DType::String) => Ok(()),
        (DType::String, _) => text::require_text_form(to, format_args!("cast from STRING to {to}")),
        (_, DType::String) => Err(Error::Unsupported(format!(
            "cast from {from} to STRING writes text into an arena: use tcast_cast_to_strings"
        ))),
        _ => Ok(()),
    }
}
