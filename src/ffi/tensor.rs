//! The tensor descriptor and its conversion into validated views.

use super::dtype::tcast_dtype;
use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::tensor::{Layout, Tensor, TensorMut, MAX_NDIM};
use std::ffi::{c_char, c_void};
use std::ops::Range;

/// The largest rank a tensor may have.
pub const TCAST_MAX_NDIM: i32 = 64;

/// One STRING element: `len` bytes at `data`, not NUL-terminated.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct tcast_string {
    pub data: *const c_char,
    pub len: u64,
}

/// A tensor as the caller describes it. Inputs are never written.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct tcast_tensor {
    /// The first element; may be NULL only if the tensor has no elements.
    pub data: *mut c_void,
    /// Bytes the caller guarantees at `data`; checked against the shape.
    pub data_bytes: u64,
    /// `ndim` extents, each >= 0; may be NULL when `ndim` is 0.
    pub shape: *const i64,
    /// Optional strides in elements, each >= 0; NULL means C-contiguous. Inputs only
    /// (an output's strides, if given, must describe the contiguous layout); not allowed
    /// for sub-byte dtypes.
    pub strides: *const i64,
    /// 0 ..= TCAST_MAX_NDIM; 0 is a scalar of one element.
    pub ndim: i32,
    /// The element type.
    pub dtype: tcast_dtype,
}

/// NULL_ARGUMENT when a shape argument is NULL with a positive length (NULL pointers
/// are the first check of every call, c-api.md section 8; the length itself is checked
/// with the shape).
pub(crate) fn require_shape(shape: *const i64, ndim: i32, what: &str) -> Result<(), Error> {
    if ndim > 0 && shape.is_null() {
        return Err(Error::NullArgument(format!(
            "{what} is NULL but its length is {ndim}"
        )));
    }
    Ok(())
}

/// Reads `ndim` dims (or strides) from a caller's array into `buf`.
///
/// # Safety
/// `values` is NULL or points to `ndim` readable int64_t.
pub(crate) unsafe fn read_dims<'b>(
    role: &str,
    what: &str,
    values: *const i64,
    ndim: i32,
    buf: &'b mut [usize; MAX_NDIM],
) -> Result<&'b [usize], Error> {
    let rank = usize::try_from(ndim)
        .ok()
        .filter(|&n| n <= MAX_NDIM)
        .ok_or_else(|| {
            Error::InvalidShape(format!(
                "{role} ndim is {ndim}; it must be 0 ..= {TCAST_MAX_NDIM}"
            ))
        })?;
    if rank == 0 {
        return Ok(&buf[..0]);
    }
    if values.is_null() {
        return Err(Error::NullArgument(format!(
            "{role} {what} is NULL but ndim is {ndim}"
        )));
    }
    // SAFETY: the caller guarantees `rank` readable int64_t at a non-NULL `values`.
    let raw = unsafe { std::slice::from_raw_parts(values, rank) };
    Layout::dims_from_i64(role, what, raw, buf)
}

/// A descriptor's dtype code, checked.
pub(crate) fn dtype_of(role: &str, desc: &tcast_tensor) -> Result<DType, Error> {
    DType::from_code_arg(desc.dtype, format_args!("{role} dtype"))
}

/// Checks a descriptor's shape and strides for its (already checked) `dtype`.
///
/// # Safety
/// `desc.shape` / `desc.strides` are NULL or point to `desc.ndim` readable int64_t.
pub(crate) unsafe fn read_layout(
    role: &str,
    desc: &tcast_tensor,
    dtype: DType,
) -> Result<Layout, Error> {
    let mut dims = [0usize; MAX_NDIM];
    let mut strides = [0usize; MAX_NDIM];
    // SAFETY: forwarded from this function's contract.
    let dims = unsafe { read_dims(role, "shape", desc.shape, desc.ndim, &mut dims) }?;
    let strides = if desc.strides.is_null() {
        None
    } else {
        // SAFETY: forwarded from this function's contract.
        Some(unsafe { read_dims(role, "strides", desc.strides, desc.ndim, &mut strides) }?)
    };
    Layout::new(role, dtype, dims, strides)
}

/// Reads a caller's descriptor: NULL_ARGUMENT when the pointer is NULL, or when its
/// shape is NULL with a positive `ndim` (NULL pointers are the first check of every
/// call, c-api.md section 8).
///
/// # Safety
/// `ptr` is NULL or points to a readable tcast_tensor.
pub(crate) unsafe fn read_descriptor(
    ptr: *const tcast_tensor,
    role: &str,
) -> Result<tcast_tensor, Error> {
    super::require(ptr, role)?;
    // SAFETY: non-NULL and readable per this function's contract.
    let desc = unsafe { ptr.read() };
    if desc.ndim > 0 && desc.shape.is_null() {
        return Err(Error::NullArgument(format!(
            "{role} shape is NULL but ndim is {}",
            desc.ndim
        )));
    }
    Ok(desc)
}

/// The byte range a checked tensor occupies, for overlap checks.
pub(crate) fn byte_range(desc: &tcast_tensor, layout: &Layout) -> Range<usize> {
    let start = desc.data as usize;
    start..start + layout.bytes()
}

/// INVALID_ARGUMENT when two byte ranges share a byte (empty ranges share none).
pub(crate) fn require_disjoint(
    first: &str,
    a: &Range<usize>,
    second: &str,
    b: &Range<usize>,
) -> Result<(), Error> {
    if a.is_empty() || b.is_empty() || a.end <= b.start || b.end <= a.start {
        return Ok(());
    }
    Err(Error::InvalidArgument(format!(
        "{second} overlaps {first} ({first} bytes {:#x}..{:#x}, {second} bytes {:#x}..{:#x}); \
         the operation does not work in place",
        a.start, a.end, b.start, b.end
    )))
}

fn check_data(role: &str, desc: &tcast_tensor, layout: &Layout) -> Result<(), Error> {
    if layout.count() > 0 && desc.data.is_null() {
        return Err(Error::NullArgument(format!(
            "{role} data is NULL but shape {} has {} elements",
            shape_text(layout.dims()),
            layout.count()
        )));
    }
    layout.check_buffer(role, desc.data_bytes)
}

/// The input view of a checked descriptor.
///
/// # Safety
/// `desc.data` points to `desc.data_bytes` readable bytes that stay unchanged for `'a`.
pub(crate) unsafe fn input_view<'a>(
    desc: &tcast_tensor,
    layout: Layout,
) -> Result<Tensor<'a>, Error> {
    check_data("input", desc, &layout)?;
    let data: &'a [u8] = if layout.bytes() == 0 {
        &[]
    } else {
        // SAFETY: non-NULL (checked) and at least `layout.bytes()` readable bytes
        // (`data_bytes` checked above, the caller vouches for it).
        unsafe { std::slice::from_raw_parts(desc.data.cast::<u8>(), layout.bytes()) }
    };
    Tensor::from_layout(layout, data)
}

/// The output view of a checked descriptor.
///
/// # Safety
/// `desc.data` points to `desc.data_bytes` writable bytes that nothing else reads or
/// writes for `'a` (callers check overlap with the input first).
pub(crate) unsafe fn output_view<'a>(
    desc: &tcast_tensor,
    layout: Layout,
) -> Result<TensorMut<'a>, Error> {
    // Shape errors before size errors: a larger buffer would not help.
    layout.require_contiguous("output")?;
    check_data("output", desc, &layout)?;
    let data: &'a mut [u8] = if layout.bytes() == 0 {
        &mut []
    } else {
        // SAFETY: non-NULL (checked), at least `layout.bytes()` writable bytes, and not
        // aliased, per this function's contract.
        unsafe { std::slice::from_raw_parts_mut(desc.data.cast::<u8>(), layout.bytes()) }
    };
    TensorMut::from_layout(layout, data)
}

/// The buffer checks of an input and an output: NULL data with elements, and
/// `data_bytes` below what the shape needs (input first).
pub(crate) fn check_buffers(
    input: &tcast_tensor,
    in_layout: &Layout,
    output: &tcast_tensor,
    out_layout: &Layout,
) -> Result<(), Error> {
    check_data("input", input, in_layout)?;
    check_data("output", output, out_layout)
}

/// The input and output views of an operation that reads one tensor and writes
/// another, after the checks of the last two stages of c-api.md section 8, in that
/// order: both buffers' sizes (and NULL data with elements), then overlap of the byte
/// ranges the shapes describe.
///
/// # Safety
/// As [`input_view`] for `input` and as [`output_view`] for `output`, except that
/// overlap is checked here.
pub(crate) unsafe fn input_output_views<'a>(
    input: &tcast_tensor,
    in_layout: Layout,
    output: &tcast_tensor,
    out_layout: Layout,
) -> Result<(Tensor<'a>, TensorMut<'a>), Error> {
    check_buffers(input, &in_layout, output, &out_layout)?;
    require_disjoint(
        "the input buffer",
        &byte_range(input, &in_layout),
        "the output buffer",
        &byte_range(output, &out_layout),
    )?;
    // SAFETY: forwarded from this function's contract; the buffers are disjoint.
    unsafe {
        Ok((
            input_view(input, in_layout)?,
            output_view(output, out_layout)?,
        ))
    }
}
