// SPDX-License-Identifier: MIT OR Apache-2.0
//! Tensor descriptors: shapes, strides, dtypes, layouts, and the input and output views
//! over the caller's buffers, checked for size and overlap.

use super::common::{require, require_disjoint};
use super::strings::ArenaArg;
use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::ffi::types::{tcast_tensor, TCAST_MAX_NDIM};
use crate::tensor::{Layout, ShapeBuf, SubByteLayout, Tensor, TensorMut, MAX_NDIM};
use std::ops::Range;

/// NULL_ARGUMENT when a shape argument is NULL with a positive length (NULL pointers are
/// the first check of every call; the length itself is checked with the shape).
#[inline(always)]
pub(crate) fn require_shape(shape: *const i64, ndim: i32, what: &str) -> Result<(), Error> {
    if ndim > 0 && shape.is_null() {
        return Err(null_shape(what, ndim));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn null_shape(what: &str, ndim: i32) -> Error {
    Error::NullArgument(format!("{what} is NULL but its length is {ndim}"))
}

/// Reads `ndim` dims (or strides) from a caller's array into `buf`.
///
/// # Safety
/// `values` is NULL or points to `ndim` readable int64_t.
#[inline(always)]
pub(crate) unsafe fn read_dims<'b>(
    role: &str,
    what: &str,
    values: *const i64,
    ndim: i32,
    buf: &'b mut ShapeBuf,
) -> Result<&'b [usize], Error> {
    let Some(rank) = usize::try_from(ndim).ok().filter(|&n| n <= MAX_NDIM) else {
        return Err(bad_rank(role, ndim));
    };
    if rank == 0 {
        return buf.fill_from_i64(role, what, &[]);
    }
    if values.is_null() {
        return Err(null_values(role, what, ndim));
    }
    // SAFETY: the caller guarantees `rank` readable int64_t at a non-NULL `values`.
    let raw = unsafe { std::slice::from_raw_parts(values, rank) };
    buf.fill_from_i64(role, what, raw)
}

#[cold]
#[inline(never)]
fn bad_rank(role: &str, ndim: i32) -> Error {
    Error::InvalidShape(format!(
        "{role} ndim is {ndim}; it must be 0 ..= {TCAST_MAX_NDIM}"
    ))
}

#[cold]
#[inline(never)]
fn null_values(role: &str, what: &str, ndim: i32) -> Error {
    Error::NullArgument(format!("{role} {what} is NULL but ndim is {ndim}"))
}

/// Room for one tensor's dims and strides, read from the caller's arrays; the
/// [`Layout`] made from them borrows it.
pub(crate) struct LayoutBuf {
    dims: ShapeBuf,
    strides: ShapeBuf,
}

impl LayoutBuf {
    #[inline(always)]
    pub(crate) fn new() -> LayoutBuf {
        LayoutBuf {
            dims: ShapeBuf::new(),
            strides: ShapeBuf::new(),
        }
    }
}

/// Reads a caller's descriptor: NULL_ARGUMENT when the pointer is NULL, or when its
/// shape is NULL with a positive `ndim`.
///
/// # Safety
/// `ptr` is NULL or points to a readable tcast_tensor.
#[inline(always)]
pub(crate) unsafe fn read_descriptor(
    ptr: *const tcast_tensor,
    role: &str,
) -> Result<tcast_tensor, Error> {
    require(ptr, role)?;
    // SAFETY: non-NULL and readable per this function's contract.
    let desc = unsafe { ptr.read() };
    if desc.ndim > 0 && desc.shape.is_null() {
        return Err(null_values(role, "shape", desc.ndim));
    }
    Ok(desc)
}

/// A descriptor's dtype code, checked.
#[inline(always)]
pub(crate) fn dtype_of(role: &str, desc: &tcast_tensor) -> Result<DType, Error> {
    DType::from_code_arg(desc.dtype, format_args!("{role} dtype"))
}

/// A caller's descriptor, read, and its dtype, checked.
type TypedDescriptor = (tcast_tensor, DType);

/// The descriptors of an operation that reads one tensor and writes another, with
/// their dtypes, checked in the order of docs/c-api.md section 8: both pointers (input
/// first), then both dtype codes.
///
/// # Safety
/// `input` and `output` are NULL or point to a readable tcast_tensor.
#[inline(always)]
pub(crate) unsafe fn read_input_output(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
) -> Result<(TypedDescriptor, TypedDescriptor), Error> {
    // SAFETY: forwarded from this function's contract.
    let (input, output) = unsafe {
        (
            read_descriptor(input, "input")?,
            read_descriptor(output, "output")?,
        )
    };
    let (from, to) = (dtype_of("input", &input)?, dtype_of("output", &output)?);
    Ok(((input, from), (output, to)))
}

/// Checks a descriptor's shape and strides for its (already checked) `dtype`, a
/// sub-byte dtype packed.
///
/// # Safety
/// `desc.shape` / `desc.strides` are NULL or point to `desc.ndim` readable int64_t.
#[inline(always)]
pub(crate) unsafe fn read_layout<'s>(
    role: &str,
    desc: &tcast_tensor,
    dtype: DType,
    buf: &'s mut LayoutBuf,
) -> Result<Layout<'s>, Error> {
    // SAFETY: forwarded from this function's contract.
    unsafe { read_layout_held(role, desc, dtype, SubByteLayout::Packed, buf) }
}

/// [`read_layout`] for a tensor whose sub-byte elements, if `dtype` has them, are held
/// as `sub_byte_layout` says.
///
/// # Safety
/// As [`read_layout`].
#[inline(always)]
pub(crate) unsafe fn read_layout_held<'s>(
    role: &str,
    desc: &tcast_tensor,
    dtype: DType,
    sub_byte_layout: SubByteLayout,
    buf: &'s mut LayoutBuf,
) -> Result<Layout<'s>, Error> {
    // SAFETY: forwarded from this function's contract.
    let dims = unsafe { read_dims(role, "shape", desc.shape, desc.ndim, &mut buf.dims) }?;
    let strides = if desc.strides.is_null() {
        None
    } else {
        // SAFETY: forwarded from this function's contract.
        Some(unsafe { read_dims(role, "strides", desc.strides, desc.ndim, &mut buf.strides) }?)
    };
    Layout::with_sub_byte_layout(role, dtype, dims, strides, sub_byte_layout)
}

/// The byte range a checked tensor occupies.
pub(crate) fn byte_range(desc: &tcast_tensor, layout: &Layout) -> Range<usize> {
    let start = desc.data as usize;
    start..start + layout.bytes()
}

/// NULL data with elements, then `data_bytes` below what the shape needs.
#[inline]
pub(crate) fn check_data(role: &str, desc: &tcast_tensor, layout: &Layout) -> Result<(), Error> {
    if layout.count() > 0 && desc.data.is_null() {
        return Err(null_data(role, layout));
    }
    layout.check_buffer(role, desc.data_bytes)
}

#[cold]
#[inline(never)]
fn null_data(role: &str, layout: &Layout) -> Error {
    Error::NullArgument(format!(
        "{role} data is NULL but shape {} has {} elements",
        shape_text(layout.dims()),
        layout.count()
    ))
}

/// The input view of a checked descriptor (its size checked here).
///
/// # Safety
/// `desc.data` points to `desc.data_bytes` readable bytes that stay unchanged for `'a`;
/// for a STRING input, each element is a tcast_string whose non-NULL `data` points to
/// `len` such bytes.
#[inline(always)]
pub(crate) unsafe fn input_view<'a>(
    desc: &tcast_tensor,
    layout: Layout<'a>,
) -> Result<Tensor<'a>, Error> {
    check_data("input", desc, &layout)?;
    let data: &'a [u8] = if layout.bytes() == 0 {
        &[]
    } else {
        // SAFETY: non-NULL (checked) and at least `layout.bytes()` readable bytes
        // (`data_bytes` checked above, the caller vouches for it).
        unsafe { std::slice::from_raw_parts(desc.data.cast::<u8>(), layout.bytes()) }
    };
    // SAFETY: the STRING views are the caller's promise, per this function's contract.
    unsafe { Tensor::from_raw_layout(layout, data) }
}

/// The output view of a checked descriptor (already checked for size).
///
/// # Safety
/// `desc.data` points to `desc.data_bytes` writable bytes that nothing else reads or
/// writes for `'a`.
#[inline(always)]
pub(crate) unsafe fn output_view<'a>(
    desc: &tcast_tensor,
    layout: Layout<'a>,
) -> Result<TensorMut<'a>, Error> {
    let data: &'a mut [u8] = if layout.bytes() == 0 {
        &mut []
    } else {
        // SAFETY: non-NULL (checked), at least `layout.bytes()` writable bytes, and not
        // aliased, per this function's contract.
        unsafe { std::slice::from_raw_parts_mut(desc.data.cast::<u8>(), layout.bytes()) }
    };
    // SAFETY: STRING views written here are read by the C caller, who owns their bytes.
    unsafe { TensorMut::from_raw_layout(layout, data) }
}

/// The input and output views of an operation that reads one tensor and writes another,
/// after the last two checks of docs/c-api.md section 8, in that order: both buffers'
/// sizes (and NULL data with elements; input first), then overlap of the byte ranges the
/// shapes describe. `arena` is a third range the other two must not overlap.
///
/// # Safety
/// As [`input_view`] for `input`; `output.data` points to `output.data_bytes` writable
/// bytes that nothing but this call uses for `'a` (overlap with the input is checked
/// here).
#[inline(always)]
pub(crate) unsafe fn input_output_views<'a>(
    input: &tcast_tensor,
    in_layout: Layout<'a>,
    output: &tcast_tensor,
    out_layout: Layout<'a>,
    mut arena: Option<&mut ArenaArg>,
) -> Result<(Tensor<'a>, TensorMut<'a>), Error> {
    out_layout.require_contiguous("output")?;
    check_data("input", input, &in_layout)?;
    check_data("output", output, &out_layout)?;
    let arena = match &mut arena {
        Some(arena) => Some(arena.check()?),
        None => None,
    };
    let (a, b) = (
        byte_range(input, &in_layout),
        byte_range(output, &out_layout),
    );
    require_disjoint("the input buffer", &a, "the output buffer", &b)?;
    if let Some(arena) = &arena {
        require_disjoint("the input buffer", &a, "the arena", arena)?;
        require_disjoint("the output buffer", &b, "the arena", arena)?;
    }
    // SAFETY: forwarded from this function's contract; the buffers are disjoint.
    unsafe {
        Ok((
            input_view(input, in_layout)?,
            output_view(output, out_layout)?,
        ))
    }
}

/// The input and output bytes of a plain call (no strides, sizes computed by the
/// caller from the shapes, without overflow): None when a buffer is smaller than its
/// `data_bytes` says, too large to address, NULL with bytes to hold, or when the two
/// overlap. Empty views need no data pointer.
///
/// # Safety
/// As [`cast_operands`]: each `data` points to its `data_bytes` bytes, the input's
/// unchanged and the output's used by nothing else, for `'a`.
#[inline(always)]
pub(crate) unsafe fn plain_views<'a>(
    i: &tcast_tensor,
    in_bytes: u64,
    o: &tcast_tensor,
    out_bytes: u64,
) -> Option<(&'a [u8], &'a mut [u8])> {
    let limit = isize::MAX as u64;
    if in_bytes > i.data_bytes || out_bytes > o.data_bytes || in_bytes > limit || out_bytes > limit
    {
        return None;
    }
    let (in_bytes, out_bytes) = (in_bytes as usize, out_bytes as usize);
    if (in_bytes > 0 && i.data.is_null()) || (out_bytes > 0 && o.data.is_null()) {
        return None;
    }
    let (a, b) = (i.data as usize, o.data as usize);
    if in_bytes > 0
        && out_bytes > 0
        && a < b.saturating_add(out_bytes)
        && b < a.saturating_add(in_bytes)
    {
        return None; // overlapping buffers
    }
    // SAFETY: each view is empty or its pointer is non-NULL with at least that many
    // bytes (data_bytes, checked above, is the caller's promise); the two are disjoint;
    // the input is not written and the output is used by nothing else during the call
    // (docs/c-api.md sections 1 and 4).
    unsafe {
        Some((
            bytes_at(i.data.cast(), in_bytes),
            bytes_at_mut(o.data.cast(), out_bytes),
        ))
    }
}

/// `len` bytes at `ptr` (which may be NULL or dangling when `len` is 0).
///
/// # Safety
/// When `len > 0`, `ptr` points to `len` readable bytes unchanged for `'a`.
#[inline(always)]
unsafe fn bytes_at<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: this function's contract.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// `len` writable bytes at `ptr` (which may be NULL or dangling when `len` is 0).
///
/// # Safety
/// When `len > 0`, `ptr` points to `len` writable bytes used by nothing else for `'a`.
#[inline(always)]
unsafe fn bytes_at_mut<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: this function's contract.
    unsafe { std::slice::from_raw_parts_mut(ptr, len) }
}

/// Whether an output descriptor (without strides) has the same shape array contents as
/// an input whose shape was read and checked: a cast's output then needs no second
/// reading. Both shapes hold `ndim` readable int64_t (read_descriptor checked NULLs).
#[inline]
pub(super) fn same_contiguous_shape(input: &tcast_tensor, output: &tcast_tensor) -> bool {
    if !output.strides.is_null() || output.ndim != input.ndim {
        return false;
    }
    let Ok(rank) = usize::try_from(input.ndim) else {
        return false;
    };
    if rank == 0 || input.shape == output.shape {
        return rank <= MAX_NDIM;
    }
    if rank > MAX_NDIM {
        return false;
    }
    // SAFETY: both shapes are non-NULL (rank > 0; read_descriptor refused NULL) and
    // hold `rank` readable int64_t (docs/c-api.md section 4).
    let (a, b) = unsafe {
        (
            std::slice::from_raw_parts(input.shape, rank),
            std::slice::from_raw_parts(output.shape, rank),
        )
    };
    a.iter().zip(b).all(|(x, y)| x == y)
}
