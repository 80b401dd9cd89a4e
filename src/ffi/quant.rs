// SPDX-License-Identifier: MIT OR Apache-2.0
//! QuantizeLinear and DequantizeLinear: their options and the two operations.

use super::args::{
    byte_range, check_data, dtype_of, input_view, output_view, read_descriptor, read_layout,
    require_disjoint, LayoutBuf,
};
use super::cast::init_options;
use super::guard::{guard, guard_integer};
use super::types::{
    tcast_error, tcast_qdq_options, tcast_status, tcast_tensor, FIRST_QDQ_OPTIONS_SIZE,
};
use crate::dtype::DType;
use crate::error::Error;
use crate::quant::{dequantize_linear, quantize_linear, QdqOptions};
use crate::tensor::{refuse_string_bytes, Layout, Tensor, TensorMut};
use std::ops::Range;

/// An options struct that grows by appending fields (`tcast_qdq_options`,
/// `tcast_mx_options`): its first field is its size as the caller compiled it, and
/// every later layout starts with the first one.
///
/// # Safety
/// The implementing type has no padding bytes and every bit pattern of its fields is
/// valid, so that its bytes can be copied in and out as bytes.
pub(super) unsafe trait GrowingOptions: Sized {
    /// The C name of the struct, for messages.
    const NAME: &'static str;
    /// The size of its first layout.
    const FIRST_SIZE: u32;
    /// The defaults, with `struct_size` set to `struct_size`.
    fn defaults(struct_size: u32) -> Self;
}

/// The body of an `_init` export: the defaults for the caller's `size` at `*opts`
/// (see `init_options`).
pub(super) fn options_init<T: GrowingOptions>(opts: *mut T, size: usize) -> tcast_status {
    // SAFETY: `T` has no padding (the trait's promise); `opts` points to `size` writable
    // bytes (docs/c-api.md section 5).
    guard_integer(std::ptr::null_mut(), || unsafe {
        init_options(opts, size, T::FIRST_SIZE, T::NAME, T::defaults)
    })
}

/// The caller's options: the defaults overwritten by the bytes of the caller's struct
/// that this library knows (NULL: the defaults). INVALID_ARGUMENT for a size below the
/// first layout.
///
/// # Safety
/// `ptr` is NULL or points to a `T` of at least its `struct_size` bytes.
pub(super) unsafe fn read_growing<T: GrowingOptions>(ptr: *const T) -> Result<T, Error> {
    let mut o = T::defaults(std::mem::size_of::<T>() as u32);
    if !ptr.is_null() {
        // SAFETY: a non-NULL options pointer starts with its u32 size (contract above).
        let size = unsafe { ptr.cast::<u32>().read_unaligned() };
        if size < T::FIRST_SIZE {
            return Err(Error::InvalidArgument(format!(
                "options->struct_size is {size}; a {name} has at least {first} bytes (use \
                 {name}_init)",
                name = T::NAME,
                first = T::FIRST_SIZE
            )));
        }
        let known = (size as usize).min(std::mem::size_of::<T>());
        // SAFETY: the caller's struct has `size` >= `known` readable bytes; `o` is a
        // struct of at least `known` bytes, every bit pattern of its fields valid (the
        // trait's promise).
        unsafe {
            std::ptr::copy_nonoverlapping(
                ptr.cast::<u8>(),
                std::ptr::addr_of_mut!(o).cast::<u8>(),
                known,
            );
        }
    }
    Ok(o)
}

// SAFETY: `tcast_qdq_options` has no padding (u32, i32, i64, i64, i32, i32) and only
// integer fields.
unsafe impl GrowingOptions for tcast_qdq_options {
    const NAME: &'static str = "tcast_qdq_options";
    const FIRST_SIZE: u32 = FIRST_QDQ_OPTIONS_SIZE;

    fn defaults(struct_size: u32) -> tcast_qdq_options {
        let d = QdqOptions::default();
        tcast_qdq_options {
            struct_size,
            saturate: i32::from(d.saturate),
            axis: d.axis,
            block_size: d.block_size,
            precision: 0,
            reserved: 0,
        }
    }
}

/// Fills `*opts` with the default options for a struct of `size` bytes, the caller's
/// `sizeof(tcast_qdq_options)`: `struct_size` = `size`, each field the library knows
/// that lies within `size` its default (saturate 1, axis 1, block_size 0, precision 0),
/// any further byte up to `size` zero. Returns its status only.
/// Errors: NULL_ARGUMENT (`opts` NULL), INVALID_ARGUMENT (`size` below the first layout,
/// 32 bytes, or above UINT32_MAX); nothing is written then.
#[no_mangle]
pub extern "C" fn tcast_qdq_options_init(
    opts: *mut tcast_qdq_options,
    size: usize,
) -> tcast_status {
    options_init(opts, size)
}

/// Reads the caller's options (NULL: the defaults).
///
/// # Safety
/// `ptr` is NULL or points to a tcast_qdq_options of at least its `struct_size` bytes.
unsafe fn read_qdq_options(ptr: *const tcast_qdq_options) -> Result<QdqOptions, Error> {
    // SAFETY: forwarded from this function's contract.
    let o = unsafe { read_growing(ptr) }?;
    if o.saturate != 0 && o.saturate != 1 {
        return Err(Error::InvalidArgument(format!(
            "options->saturate is {}; it must be 0 or 1",
            o.saturate
        )));
    }
    if o.reserved != 0 {
        return Err(Error::InvalidArgument(format!(
            "options->reserved is {}; it must be 0",
            o.reserved
        )));
    }
    let precision = match o.precision {
        0 => None,
        code => Some(DType::from_code_arg(code, "options->precision")?),
    };
    Ok(QdqOptions {
        axis: o.axis,
        block_size: o.block_size,
        saturate: o.saturate == 1,
        precision,
    })
}

/// A tensor argument of a Q/DQ or MX call, read and checked (dtype, shape, strides,
/// buffer size, NULL data) but not yet viewed: no slice over the caller's bytes exists
/// until the call's overlap checks ([`written_apart`]) have passed, since a `&[u8]` and a
/// `&mut [u8]` over the same bytes would be undefined behaviour even in a call that then
/// fails.
pub(super) struct Checked<'a> {
    desc: tcast_tensor,
    layout: Layout<'a>,
    range: Range<usize>,
}

impl<'a> Checked<'a> {
    /// The bytes the tensor spans.
    pub(super) fn range(&self) -> &Range<usize> {
        &self.range
    }

    /// The input view.
    ///
    /// # Safety
    /// The descriptor's bytes stay unchanged for `'a` and no buffer this call writes
    /// overlaps them ([`written_apart`] passed).
    pub(super) unsafe fn input(self) -> Result<Tensor<'a>, Error> {
        // SAFETY: forwarded from this function's contract; a STRING tensor was refused
        // when read (`read_input`).
        unsafe { input_view(&self.desc, self.layout) }
    }

    /// The output view.
    ///
    /// # Safety
    /// The descriptor's bytes are writable and no other buffer of this call overlaps
    /// them ([`written_apart`] passed).
    pub(super) unsafe fn output(self) -> Result<TensorMut<'a>, Error> {
        // SAFETY: forwarded from this function's contract.
        unsafe { output_view(&self.desc, self.layout) }
    }
}

/// One input tensor of a Q/DQ or MX call, checked (not viewed, see [`Checked`]).
///
/// # Safety
/// `ptr` is NULL or a valid descriptor (docs/c-api.md sections 1, 4).
pub(super) unsafe fn read_input<'a>(
    ptr: *const tcast_tensor,
    role: &str,
    buf: &'a mut LayoutBuf,
) -> Result<Checked<'a>, Error> {
    // SAFETY: forwarded from this function's contract.
    let desc = unsafe { read_descriptor(ptr, role) }?;
    let dtype = dtype_of(role, &desc)?;
    // SAFETY: as above.
    let layout = unsafe { read_layout(role, &desc, dtype, buf) }?;
    check_data(role, &desc, &layout)?;
    // The refusal the input view would make, here so that errors keep their order.
    refuse_string_bytes(&layout)?;
    let range = byte_range(&desc, &layout);
    Ok(Checked {
        desc,
        layout,
        range,
    })
}

/// An output descriptor of a Q/DQ or MX call (already read), checked: dtype, shape,
/// contiguous, buffer size and NULL data (not viewed, see [`Checked`]).
///
/// # Safety
/// `desc` is a valid descriptor (docs/c-api.md section 4).
pub(super) unsafe fn check_output<'a>(
    desc: &tcast_tensor,
    role: &str,
    buf: &'a mut LayoutBuf,
) -> Result<Checked<'a>, Error> {
    let dtype = dtype_of(role, desc)?;
    // SAFETY: forwarded from this function's contract.
    let layout = unsafe { read_layout(role, desc, dtype, buf) }?;
    layout.require_contiguous(role)?;
    check_data(role, desc, &layout)?;
    let range = byte_range(desc, &layout);
    Ok(Checked {
        desc: *desc,
        layout,
        range,
    })
}

/// `read(ptr)` for an optional argument, None for NULL.
pub(super) fn unless_null<T>(
    ptr: *const tcast_tensor,
    read: impl FnOnce(*const tcast_tensor) -> Result<T, Error>,
) -> Result<Option<T>, Error> {
    if ptr.is_null() {
        Ok(None)
    } else {
        read(ptr).map(Some)
    }
}

/// Whether an operation reads a buffer or writes it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Access {
    Read,
    Written,
}

/// Every written buffer apart from every other buffer, pair by pair in the order of
/// `buffers` (its name in messages, its byte range or None when not given, its access);
/// buffers that are only read may share bytes.
pub(super) fn written_apart(
    buffers: &[(&str, Option<&Range<usize>>, Access)],
) -> Result<(), Error> {
    for (i, (a, ra, access_a)) in buffers.iter().enumerate() {
        for (b, rb, access_b) in &buffers[i + 1..] {
            if let (Some(ra), Some(rb)) = (ra, rb) {
                if *access_a == Access::Written || *access_b == Access::Written {
                    require_disjoint(a, ra, b, rb)?;
                }
            }
        }
    }
    Ok(())
}

/// The operation a call runs.
type Op = fn(&Tensor, &Tensor, Option<&Tensor>, &mut TensorMut, &QdqOptions) -> Result<(), Error>;

/// Reads every argument of a Q/DQ call, in the order of docs/c-api.md section 8, and
/// runs `op`.
///
/// # Safety
/// Each pointer is NULL or valid per the C API contract (docs/c-api.md sections 1, 4, 5).
unsafe fn run_qdq(
    x: *const tcast_tensor,
    scale: *const tcast_tensor,
    zero_point: *const tcast_tensor,
    y: *const tcast_tensor,
    options: *const tcast_qdq_options,
    op: Op,
) -> Result<(), Error> {
    let (mut xb, mut sb, mut zb, mut yb) = (
        LayoutBuf::new(),
        LayoutBuf::new(),
        LayoutBuf::new(),
        LayoutBuf::new(),
    );
    // SAFETY: forwarded from this function's contract.
    let ydesc = unsafe { read_descriptor(y, "y") }?;
    // SAFETY: as above.
    let xc = unsafe { read_input(x, "x", &mut xb) }?;
    // SAFETY: as above.
    let sc = unsafe { read_input(scale, "scale", &mut sb) }?;
    // SAFETY: as above.
    let zc = unless_null(zero_point, |z| unsafe {
        read_input(z, "zero_point", &mut zb)
    })?;
    // SAFETY: as above.
    let opts = unsafe { read_qdq_options(options) }?;
    // SAFETY: as above.
    let yc = unsafe { check_output(&ydesc, "y", &mut yb) }?;
    written_apart(&[
        ("the x buffer", Some(xc.range()), Access::Read),
        ("the scale buffer", Some(sc.range()), Access::Read),
        (
            "the zero_point buffer",
            zc.as_ref().map(Checked::range),
            Access::Read,
        ),
        ("the y buffer", Some(yc.range()), Access::Written),
    ])?;
    // SAFETY: the inputs are unchanged and y's bytes writable during the call (the
    // contract); no written buffer overlaps another buffer (checked above).
    let (xt, st, zt, mut yt) = unsafe {
        (
            xc.input()?,
            sc.input()?,
            zc.map(|z| z.input()).transpose()?,
            yc.output()?,
        )
    };
    op(&xt, &st, zt.as_ref(), &mut yt, &opts)
}

/// ONNX QuantizeLinear (opsets 10 to 25): `y = saturate(round(x / scale) + zero_point)`
/// into `y->dtype` (INT2, UINT2, INT4, UINT4, INT8, UINT8, INT16, UINT16, the four
/// FLOAT8 types, FLOAT4E2M1, and FLOAT6E2M3/E3M2 as an extension), from x FLOAT,
/// FLOAT16, BFLOAT16 or INT32, with a FLOAT, FLOAT16, BFLOAT16, FLOAT8E8M0 or INT32
/// scale: per-tensor (scale shape `[]` or `[1]`), per-axis (`[D]` along `options->axis`) or
/// blocked (`options->block_size` > 0). `zero_point` may be NULL (0); otherwise it has
/// y's dtype and the scale's shape, and for float element types must be all zeros.
/// x / scale is rounded once, to nearest even, from its exact value (unless
/// `options->precision`); integers saturate, NaN gives the zero point; float8 types
/// saturate per `options->saturate`. y has x's shape and does not overlap the inputs.
/// `options` may be NULL (defaults). docs/semantics-quantize.md has every rule.
/// Errors: NULL_ARGUMENT, INVALID_DTYPE, UNSUPPORTED (a dtype the operator does not
/// take), INVALID_SHAPE (y's shape, the scale's or zero point's shape for the
/// granularity), BUFFER_TOO_SMALL, INVALID_ARGUMENT (axis out of range, negative
/// block_size, bad option, zero point dtype, a non-zero float zero point with its
/// element index, overlapping buffers).
#[no_mangle]
pub extern "C" fn tcast_quantize_linear(
    x: *const tcast_tensor,
    scale: *const tcast_tensor,
    zero_point: *const tcast_tensor,
    y: *const tcast_tensor,
    options: *const tcast_qdq_options,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: each pointer is NULL or valid per the C API contract.
        unsafe { run_qdq(x, scale, zero_point, y, options, quantize_linear) }
    })
}

/// ONNX DequantizeLinear (opsets 10 to 25): `y = (x - zero_point) * scale`, rounded
/// once to nearest even into `y->dtype` (FLOAT, FLOAT16 or BFLOAT16; ONNX's
/// `output_dtype`), from x of a quantized type (as tcast_quantize_linear's y) or INT32,
/// with a FLOAT, FLOAT16, BFLOAT16 or FLOAT8E8M0 scale, per-tensor, per-axis or blocked
/// as for tcast_quantize_linear. `zero_point` may be NULL; otherwise it has x's dtype
/// and the scale's shape (all zeros for float element types). `options->precision`
/// must be 0. `options` may be NULL (defaults).
/// Errors: as tcast_quantize_linear.
#[no_mangle]
pub extern "C" fn tcast_dequantize_linear(
    x: *const tcast_tensor,
    scale: *const tcast_tensor,
    zero_point: *const tcast_tensor,
    y: *const tcast_tensor,
    options: *const tcast_qdq_options,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: each pointer is NULL or valid per the C API contract.
        unsafe { run_qdq(x, scale, zero_point, y, options, dequantize_linear) }
    })
}
