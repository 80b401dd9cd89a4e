//! The tensor descriptor and its conversion into validated views.

use super::dtype::tcast_dtype;
use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::tensor::{Layout, Tensor, TensorMut, MAX_NDIM};
use std::ffi::{c_char, c_void};

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

/// Checks a descriptor's dtype, shape and strides.
///
/// # Safety
/// `desc.shape` / `desc.strides` are NULL or point to `desc.ndim` readable int64_t.
pub(crate) unsafe fn read_layout(role: &str, desc: &tcast_tensor) -> Result<Layout, Error> {
    let dtype = DType::from_code_arg(desc.dtype, format_args!("{role} dtype"))?;
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

/// Reads a caller's descriptor: NULL_ARGUMENT when the pointer is NULL.
///
/// # Safety
/// `ptr` is NULL or points to a readable tcast_tensor.
pub(crate) unsafe fn read_descriptor(
    ptr: *const tcast_tensor,
    role: &str,
) -> Result<tcast_tensor, Error> {
    super::require(ptr, role)?;
    // SAFETY: non-NULL and readable per this function's contract.
    Ok(unsafe { ptr.read() })
}

/// The byte range a checked tensor occupies, for overlap checks.
pub(crate) fn byte_range(desc: &tcast_tensor, layout: &Layout) -> std::ops::Range<usize> {
    let start = desc.data as usize;
    start..start + layout.bytes()
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
