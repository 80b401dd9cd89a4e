// SPDX-License-Identifier: MIT OR Apache-2.0
//! Cast: the default options and `tcast_cast`.

use super::args::{cast_operands, plain_cast_operands, LayoutBuf};
use super::guard::{guard, guard_integer};
use super::types::{
    tcast_cast_options, tcast_error, tcast_status, tcast_tensor, FIRST_OPTIONS_SIZE,
};
use crate::cast::{cast_checked, check_pair, run_contiguous, CastOptions, SubByteLayout};
use crate::error::Error;

/// The default options, with `struct_size` set to this header's size. Deprecated in the
/// docs: it returns the struct by value, at the size of the header the library was built
/// with, so it cannot grow with the struct; use tcast_cast_options_init.
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

/// Fills `*opts` with the default options for a struct of `size` bytes, the caller's
/// `sizeof(tcast_cast_options)`: `struct_size` = `size`, each field the library knows
/// that lies within `size` its default, and any further byte up to `size` zero (fields
/// this library does not know, which it never reads). A program built against an older,
/// smaller struct gets its prefix filled and nothing past it written. The way to start
/// a tcast_cast_options: `tcast_cast_options_init(&opts, sizeof opts)`, then change
/// fields. Returns its status only (it has no message to give).
/// Errors: NULL_ARGUMENT (`opts` NULL), INVALID_ARGUMENT (`size` below the first layout,
/// 24 bytes, or above UINT32_MAX); nothing is written then.
#[no_mangle]
pub extern "C" fn tcast_cast_options_init(
    opts: *mut tcast_cast_options,
    size: usize,
) -> tcast_status {
    // SAFETY: `tcast_cast_options` has no padding (u32, five i32 and a pointer at its
    // aligned offset); `opts` points to `size` writable bytes (docs/c-api.md section 5).
    guard_integer(std::ptr::null_mut(), || unsafe {
        init_options(
            opts,
            size,
            FIRST_OPTIONS_SIZE,
            "tcast_cast_options",
            |struct_size| tcast_cast_options {
                struct_size,
                ..tcast_cast_options_default()
            },
        )
    })
}

/// The body of an options struct's `_init` function (`tcast_cast_options_init`,
/// `tcast_qdq_options_init`): refuses a NULL `opts` and a `size` below `first` (the
/// struct's first layout) or above UINT32_MAX, then fills the caller's `size` bytes
/// with `defaults(size)`'s bytes, as many as this library's struct has, and zeros past
/// them (a program built against a smaller, older struct gets its prefix only).
///
/// # Safety
/// `T` has no padding bytes; `opts` is NULL or points to `size` writable bytes.
pub(crate) unsafe fn init_options<T>(
    opts: *mut T,
    size: usize,
    first: u32,
    name: &str,
    defaults: impl FnOnce(u32) -> T,
) -> Result<(), Error> {
    if opts.is_null() {
        return Err(Error::NullArgument("opts is NULL".into()));
    }
    let struct_size = u32::try_from(size)
        .ok()
        .filter(|&s| s >= first)
        .ok_or_else(|| {
            Error::InvalidArgument(format!(
                "size {size}: a {name} has {first} to {} bytes",
                u32::MAX
            ))
        })?;
    let defaults = defaults(struct_size);
    let known = size.min(std::mem::size_of::<T>());
    let bytes = opts.cast::<u8>();
    // SAFETY: `opts` points to `size` writable bytes (the caller's promise);
    // `defaults` is a live `T` of at least `known` bytes, none of them padding, copied
    // as bytes, so the caller's struct needs no alignment beyond its own.
    unsafe {
        std::ptr::copy_nonoverlapping(std::ptr::addr_of!(defaults).cast::<u8>(), bytes, known);
        std::ptr::write_bytes(bytes.add(known), 0, size - known);
    }
    Ok(())
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
/// packed (docs/c-api.md section 4; tcast_cast_sub_byte takes them one per byte);
/// `saturate` applies to float8 targets and `round_mode` to FLOAT8E8M0. Thread-safe;
/// allocates nothing on success, STRING parsing included (threads > 1 without an
/// executor may start threads: docs/c-api.md section 9).
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
        unsafe { cast_in_general(input, output, options, SubByteLayout::Packed.code()) }
    })
}

/// tcast_cast with the sub-byte tensors of the call (INT4, UINT4, FLOAT4E2M1, INT2, UINT2,
/// FLOAT6E2M3, FLOAT6E3M2; input and output alike) held as `sub_byte_layout` says:
/// TCAST_SUB_BYTE_PACKED is tcast_cast; with TCAST_SUB_BYTE_UNPACKED each element has a
/// byte of its own, as ml_dtypes' arrays hold them: its code in the low bits, read with
/// the high bits ignored (0xF1 as INT4 is 1) and written with them 0 (INT4 -1 is 0x0F,
/// FLOAT4E2M1 -1.0 is 0x0A). Such a tensor spans its element count in bytes (what
/// tcast_tensor_bytes gives for UINT8 and the shape), which `data_bytes` is checked
/// against, and an input may have strides, in elements (which are bytes). Other dtypes
/// are the same either way. Results are those of tcast_cast, on any number of threads.
/// Errors: as tcast_cast, and INVALID_ARGUMENT for a `sub_byte_layout` other than the
/// two (checked with the options).
#[no_mangle]
pub extern "C" fn tcast_cast_sub_byte(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
    sub_byte_layout: i32,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // The plain path takes no sub-byte dtype, whose storage then changes nothing; a
        // bad value is reported by the general path, in the order of section 8.
        if SubByteLayout::from_code(sub_byte_layout).is_some() {
            // SAFETY: each pointer is NULL or valid per the C API contract (docs/c-api.md
            // sections 1, 4 and 5).
            if let Some((kernel, src, dst)) = unsafe { plain_cast_operands(input, output, options) }
            {
                run_contiguous(kernel, src, dst);
                return Ok(());
            }
        }
        // SAFETY: as above.
        unsafe { cast_in_general(input, output, options, sub_byte_layout) }
    })
}

/// tcast_cast without its plain path: every call reads its arguments as
/// [`cast_operands`] does, the sub-byte tensors held as `sub_byte_layout` (a
/// TCAST_SUB_BYTE_* code, checked with the options) says.
///
/// # Safety
/// Each pointer is NULL or valid per the C API contract (docs/c-api.md sections 1, 4 and 5).
pub(super) unsafe fn cast_in_general(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
    sub_byte_layout: i32,
) -> Result<(), Error> {
    let (mut in_buf, mut out_buf) = (LayoutBuf::new(), LayoutBuf::new());
    let bufs = (&mut in_buf, &mut out_buf);
    let options = (options, sub_byte_layout);
    let (src, mut dst, options) =
        // SAFETY: forwarded from this function's contract.
        unsafe { cast_operands(input, output, options, check_pair, None, bufs) }?;
    cast_checked(&src, &mut dst, &options.options, options.workers())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Status;
    use std::mem::{offset_of, size_of};

    /// Bytes aligned as a tcast_cast_options (whose readers need that alignment).
    #[repr(align(8))]
    struct Aligned([u8; 64]);

    /// tcast_cast_options_init fills the caller's size: the whole struct, an older prefix
    /// (nothing past it written), a larger struct (the bytes past the known fields
    /// zero), and refuses NULL and a size below the first layout, writing nothing.
    #[test]
    fn options_init_fills_the_callers_size() {
        let full = size_of::<tcast_cast_options>();
        let defaults = tcast_cast_options_default();
        let mut buf = Aligned([0xA5u8; 64]);
        let buf = &mut buf.0;
        let opts = buf.as_mut_ptr().cast::<tcast_cast_options>();
        assert_eq!(tcast_cast_options_init(opts, full), Status::Ok as i32);
        // SAFETY: buf holds 64 >= full initialized bytes; read unaligned.
        let got = unsafe { opts.read_unaligned() };
        assert_eq!(got.struct_size as usize, full);
        assert_eq!(
            (got.saturate, got.round_mode, got.string_format, got.casting),
            (
                defaults.saturate,
                defaults.round_mode,
                defaults.string_format,
                defaults.casting
            )
        );
        assert_eq!(
            (got.threads, got.executor),
            (defaults.threads, defaults.executor)
        );
        assert!(buf[full..].iter().all(|&b| b == 0xA5), "wrote past {full}");

        // The first layout (24 bytes, before `executor`): its prefix, nothing after.
        let first = offset_of!(tcast_cast_options, executor);
        assert_eq!(first, FIRST_OPTIONS_SIZE as usize);
        let mut old = Aligned([0xA5u8; 64]);
        let old = &mut old.0;
        let opts = old.as_mut_ptr().cast::<tcast_cast_options>();
        assert_eq!(tcast_cast_options_init(opts, first), Status::Ok as i32);
        assert_eq!(&old[..4], &(first as u32).to_ne_bytes());
        assert_eq!(&old[4..first], &buf[4..first]);
        assert!(
            old[first..].iter().all(|&b| b == 0xA5),
            "wrote past {first}"
        );
        // Options at that size are valid for a cast.
        let mut err = crate::ffi::guard::test_support::blank_error();
        let (input, mut output) = ([1.5f32], [0u16]);
        let shape = [1i64];
        let tensor = |data: *mut std::ffi::c_void, dtype| tcast_tensor {
            data,
            data_bytes: 4,
            shape: shape.as_ptr(),
            strides: std::ptr::null(),
            ndim: 1,
            dtype,
        };
        let i = tensor(input.as_ptr().cast_mut().cast(), 1);
        let o = tensor(output.as_mut_ptr().cast(), 10);
        assert_eq!(tcast_cast(&i, &o, opts, &mut err), Status::Ok as i32);
        assert_eq!(output[0], 0x3e00);

        // A newer caller's larger struct: the known fields, then zeros up to its size.
        let mut big = Aligned([0xA5u8; 64]);
        let big = &mut big.0;
        let opts = big.as_mut_ptr().cast::<tcast_cast_options>();
        assert_eq!(tcast_cast_options_init(opts, full + 16), Status::Ok as i32);
        assert_eq!(&big[..4], &((full + 16) as u32).to_ne_bytes());
        assert_eq!(&big[4..full], &buf[4..full]);
        assert!(big[full..full + 16].iter().all(|&b| b == 0));
        assert!(big[full + 16..].iter().all(|&b| b == 0xA5));

        // Refused, writing nothing.
        let mut small = Aligned([0xA5u8; 64]);
        let small = &mut small.0;
        let opts = small.as_mut_ptr().cast::<tcast_cast_options>();
        for size in [0, 4, first - 1, u32::MAX as usize + 1] {
            assert_eq!(
                tcast_cast_options_init(opts, size),
                Status::InvalidArgument as i32,
                "size {size}"
            );
        }
        assert!(small.iter().all(|&b| b == 0xA5));
        assert_eq!(
            tcast_cast_options_init(std::ptr::null_mut(), full),
            Status::NullArgument as i32
        );
    }
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
            |i, o, opt| unsafe { cast_in_general(i, o, opt, SubByteLayout::Packed.code()) },
            // SAFETY: as above.
            |i, o, opt| unsafe { plain_cast_operands(i, o, opt) }.is_some(),
        );
        assert!(
            with_options > 100,
            "only {with_options} plain calls had options"
        );
    }
}
