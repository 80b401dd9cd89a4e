// SPDX-License-Identifier: MIT OR Apache-2.0
//! Raw tensor descriptions -> validated views. Everything about shapes, strides, element
//! and byte counts and their overflow is checked here, once, before a kernel runs.

use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::string_view::{StringView, VIEWS_HAVE_NO_PADDING, VIEW_BYTES};
use core::mem::MaybeUninit;

/// The largest rank a tensor may have.
pub const MAX_NDIM: usize = 64;

crate::tables::c_enum! {
    /// How a tensor of a sub-byte dtype (INT4, UINT4, FLOAT4E2M1, INT2, UINT2, FLOAT6E2M3,
    /// FLOAT6E3M2) holds its elements; other dtypes are the same either way.
    #[derive(Default)]
    pub enum SubByteLayout: i32,
        "The sub_byte_layout argument of tcast_cast_sub_byte: how the sub-byte tensors of \
         the call hold their elements."
    {
        #[default]
        Packed = 0 => TCAST_SUB_BYTE_PACKED:
            "Packed, element 0 in the lowest bits (docs/c-api.md section 4; the default).",
        Unpacked = 1 => TCAST_SUB_BYTE_UNPACKED:
            "One element per byte, its code in the low bits, as ml_dtypes stores int4, \
             float4_e2m1fn and the others: read with the high bits ignored, written with \
             them 0; the tensor's bytes are its element count, and an input may have \
             strides (in elements, which are bytes).",
    }
}

/// Whether a tensor of `dtype` held as `sub_byte_layout` says has one sub-byte element
/// per byte.
#[inline]
fn one_per_byte(dtype: DType, sub_byte_layout: SubByteLayout) -> bool {
    dtype.is_packed() && sub_byte_layout == SubByteLayout::Unpacked
}

/// The bytes `count` contiguous elements of `dtype` occupy, held as `sub_byte_layout`
/// says (one per byte for an unpacked sub-byte dtype); None when that overflows 64 bits.
#[inline]
pub(crate) fn storage_bytes(
    dtype: DType,
    sub_byte_layout: SubByteLayout,
    count: u64,
) -> Option<u64> {
    if one_per_byte(dtype, sub_byte_layout) {
        return Some(count);
    }
    dtype.bytes_for(count)
}

/// The shape, strides and sizes of a tensor, checked for consistency and overflow. It
/// borrows its dims and strides (from the caller's arrays, or from a `ShapeBuf` the C
/// shell read them into), so it is small and `Copy`: a call never copies or zeroes
/// rank-64 arrays.
#[derive(Copy, Clone, Debug)]
pub struct Layout<'s> {
    dtype: DType,
    dims: &'s [usize],
    /// Strides in elements; None when the tensor is C-contiguous.
    strides: Option<&'s [usize]>,
    count: usize,
    /// Bytes the elements span in memory.
    bytes: usize,
    /// A sub-byte dtype held one element per byte ([`SubByteLayout::Unpacked`]); false
    /// for every other dtype.
    unpacked: bool,
}

/// Room for a shape (or strides) of up to [`MAX_NDIM`] extents, of which only the ones
/// read are written: the C shell converts a caller's `int64_t` array into it in one pass
/// (checking each extent) and a [`Layout`] borrows the result. Nothing is zeroed (a
/// length field would be, together with the array, by the compiler's store merging).
pub(crate) struct ShapeBuf {
    values: MaybeUninit<[usize; MAX_NDIM]>,
}

impl ShapeBuf {
    /// An empty buffer (no extent written).
    #[inline(always)]
    pub(crate) fn new() -> ShapeBuf {
        ShapeBuf {
            values: MaybeUninit::uninit(),
        }
    }

    /// Converts `values` (at most MAX_NDIM) into the buffer, refusing negative extents
    /// with a message naming `role`, `what` and the index, and returns them.
    #[inline]
    pub(crate) fn fill_from_i64(
        &mut self,
        role: &str,
        what: &str,
        values: &[i64],
    ) -> Result<&[usize], Error> {
        if values.len() > MAX_NDIM {
            return Err(rank_too_high(role, values.len()));
        }
        let slots = self.values.as_mut_ptr().cast::<usize>();
        for (i, &v) in values.iter().enumerate() {
            let Ok(extent) = usize::try_from(v) else {
                return Err(negative_extent(role, what, values, i));
            };
            // SAFETY: i < values.len() <= MAX_NDIM (checked above): inside the array.
            unsafe { slots.add(i).write(extent) };
        }
        // SAFETY: the loop wrote the first values.len() (<= MAX_NDIM) slots.
        Ok(unsafe { core::slice::from_raw_parts(slots, values.len()) })
    }
}

#[cold]
#[inline(never)]
fn rank_too_high(role: &str, ndim: usize) -> Error {
    Error::InvalidShape(format!("{role} ndim is {ndim}; the most is {MAX_NDIM}"))
}

#[cold]
#[inline(never)]
fn negative_extent(role: &str, what: &str, values: &[i64], i: usize) -> Error {
    Error::InvalidShape(format!(
        "{role} {what}[{i}] is {} in {}: it must be >= 0",
        values[i],
        shape_text(values)
    ))
}

#[cold]
#[inline(never)]
fn unaddressable(role: &str, dtype: DType, dims: &[usize], bytes: u64) -> Error {
    Error::InvalidShape(format!(
        "{role} shape {} of {dtype} needs {bytes} bytes, more than this platform can address",
        shape_text(dims)
    ))
}

#[cold]
#[inline(never)]
fn too_big(role: &str, dtype: DType, dims: &[usize], what: &str) -> Error {
    Error::InvalidShape(format!(
        "{role} shape {} of {dtype}: {what} overflows 64 bits",
        shape_text(dims)
    ))
}

impl<'s> Layout<'s> {
    /// Checks a shape (and optional strides in elements) for a tensor of `dtype`, a
    /// sub-byte dtype packed. `role` ("input", "output") starts every error message.
    #[inline]
    pub fn new(
        role: &str,
        dtype: DType,
        dims: &'s [usize],
        strides: Option<&'s [usize]>,
    ) -> Result<Layout<'s>, Error> {
        Layout::with_sub_byte_layout(role, dtype, dims, strides, SubByteLayout::Packed)
    }

    /// [`Layout::new`] for a tensor whose sub-byte elements, if `dtype` has them, are held
    /// as `sub_byte_layout` says. Unpacked, such a tensor spans one byte per element and
    /// may have strides (in elements, which are then bytes); other dtypes ignore it.
    #[inline]
    pub fn with_sub_byte_layout(
        role: &str,
        dtype: DType,
        dims: &'s [usize],
        strides: Option<&'s [usize]>,
        sub_byte_layout: SubByteLayout,
    ) -> Result<Layout<'s>, Error> {
        if dims.len() > MAX_NDIM {
            return Err(rank_too_high(role, dims.len()));
        }
        let unpacked = one_per_byte(dtype, sub_byte_layout);
        let count = element_count(role, dtype, dims)?;
        let Some(contiguous_bytes) = storage_bytes(dtype, sub_byte_layout, count) else {
            return Err(too_big(role, dtype, dims, "the byte count"));
        };
        let (strides, bytes) = match strides {
            None => (None, contiguous_bytes),
            Some(s) => Layout::strided(role, dtype, unpacked, dims, s, count, contiguous_bytes)?,
        };
        let limit = isize::MAX as u64;
        if count > limit || bytes > limit {
            return Err(unaddressable(role, dtype, dims, bytes));
        }
        Ok(Layout {
            dtype,
            dims,
            strides,
            count: count as usize,
            bytes: bytes as usize,
            unpacked,
        })
    }

    /// The C-contiguous layout of this layout's dims for `dtype` held as
    /// `sub_byte_layout` says: what [`Layout::with_sub_byte_layout`] gives for them
    /// without strides, without walking the dims again (the count is known; only the
    /// byte count changes with the dtype).
    #[inline]
    pub(crate) fn retyped(
        &self,
        role: &str,
        dtype: DType,
        sub_byte_layout: SubByteLayout,
    ) -> Result<Layout<'s>, Error> {
        let count = self.count as u64;
        let Some(bytes) = storage_bytes(dtype, sub_byte_layout, count) else {
            return Err(too_big(role, dtype, self.dims, "the byte count"));
        };
        if bytes > isize::MAX as u64 {
            return Err(unaddressable(role, dtype, self.dims, bytes));
        }
        Ok(Layout {
            dtype,
            dims: self.dims,
            strides: None,
            count: self.count,
            bytes: bytes as usize,
            unpacked: one_per_byte(dtype, sub_byte_layout),
        })
    }

    /// The strides (None when they describe the contiguous layout) and byte span of a
    /// strided tensor of `count` elements.
    #[inline(never)]
    fn strided(
        role: &str,
        dtype: DType,
        unpacked: bool,
        dims: &'s [usize],
        s: &'s [usize],
        count: u64,
        contiguous_bytes: u64,
    ) -> Result<(Option<&'s [usize]>, u64), Error> {
        if dtype.is_packed() && !unpacked {
            return Err(Error::InvalidShape(format!(
                "{role} strides {} are not allowed for the packed dtype {dtype}: pass NULL strides",
                shape_text(s)
            )));
        }
        if s.len() != dims.len() {
            return Err(Error::InvalidShape(format!(
                "{role} has {} strides for {} dimensions",
                s.len(),
                dims.len()
            )));
        }
        if is_contiguous(dims, s) {
            return Ok((None, contiguous_bytes));
        }
        if count == 0 {
            return Ok((Some(s), 0));
        }
        let mut last: u128 = 0;
        for (&d, &st) in dims.iter().zip(s) {
            last += (d as u128 - 1) * st as u128;
        }
        let bytes = (last + 1) * element_bytes(dtype, unpacked) as u128;
        let bytes = u64::try_from(bytes).map_err(|_| {
            Error::InvalidShape(format!(
                "{role} shape {} with strides {} of {dtype}: the byte span overflows 64 bits",
                shape_text(dims),
                shape_text(s)
            ))
        })?;
        Ok((Some(s), bytes))
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The shape (empty for a scalar).
    pub fn dims(&self) -> &'s [usize] {
        self.dims
    }

    /// Strides in elements when the tensor is not C-contiguous.
    pub fn strides(&self) -> Option<&'s [usize]> {
        self.strides
    }

    /// Number of elements.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Bytes the tensor spans in memory.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// How the tensor holds sub-byte elements: [`SubByteLayout::Unpacked`] only for a
    /// sub-byte dtype made so, Packed for every other.
    pub fn sub_byte_layout(&self) -> SubByteLayout {
        if self.unpacked {
            SubByteLayout::Unpacked
        } else {
            SubByteLayout::Packed
        }
    }

    /// Whether the elements are packed several to a byte (a sub-byte dtype, packed).
    #[inline]
    pub(crate) fn is_packed(&self) -> bool {
        self.dtype.is_packed() && !self.unpacked
    }

    /// UNSUPPORTED for a sub-byte tensor held one element per byte: the operations but
    /// the cast take them packed.
    #[inline]
    pub(crate) fn require_packed(&self, role: &str, operation: &str) -> Result<(), Error> {
        if self.unpacked {
            return Err(Error::Unsupported(format!(
                "{role} of {} is unpacked (one element per byte): {operation} takes sub-byte \
                 tensors packed",
                self.dtype
            )));
        }
        Ok(())
    }

    /// Byte offsets of the elements in row-major order (byte-sized dtypes, and sub-byte
    /// ones held one per byte).
    pub fn offsets(&self) -> Offsets<'s> {
        Offsets {
            layout: *self,
            index: [0; MAX_NDIM],
            offset: 0,
            remaining: self.count,
            size: element_bytes(self.dtype, self.unpacked),
        }
    }

    /// Fails unless the tensor is C-contiguous (outputs must be).
    #[inline]
    pub fn require_contiguous(&self, role: &str) -> Result<(), Error> {
        match self.strides {
            Some(s) => Err(self.not_contiguous(role, s)),
            None => Ok(()),
        }
    }

    #[cold]
    #[inline(never)]
    fn not_contiguous(&self, role: &str, strides: &[usize]) -> Error {
        Error::InvalidShape(format!(
            "{role} strides {} for shape {} are not C-contiguous; outputs must be contiguous",
            shape_text(strides),
            shape_text(self.dims)
        ))
    }

    /// Checks that a caller's buffer of `available` bytes holds the tensor.
    #[inline]
    pub fn check_buffer(&self, role: &str, available: u64) -> Result<(), Error> {
        if (self.bytes as u64) > available {
            return Err(self.too_small(role, available));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_small(&self, role: &str, available: u64) -> Error {
        Error::BufferTooSmall(format!(
            "{role} data_bytes is {available} but shape {} of {}{} needs {} bytes",
            shape_text(self.dims),
            self.dtype,
            if self.unpacked {
                " unpacked (one element per byte)"
            } else {
                ""
            },
            self.bytes
        ))
    }
}

/// Bytes of one element of `dtype` in memory: 1 for a sub-byte dtype held one per byte
/// (`unpacked`), 0 for one packed (several share a byte).
#[inline]
fn element_bytes(dtype: DType, unpacked: bool) -> usize {
    if unpacked {
        1
    } else {
        (dtype.bits() / 8) as usize
    }
}

/// The bytes a C-contiguous tensor of `dtype` and `dims` occupies (sub-byte types
/// packed), or INVALID_SHAPE when the count overflows 64 bits.
pub fn contiguous_bytes(dtype: DType, dims: &[usize]) -> Result<u64, Error> {
    let count = element_count("tensor", dtype, dims)?;
    dtype.bytes_for(count).ok_or_else(|| {
        Error::InvalidShape(format!(
            "shape {} of {dtype}: the byte count overflows 64 bits",
            shape_text(dims)
        ))
    })
}

/// The number of elements of a shape, refusing counts that overflow 64 bits.
#[inline]
pub fn element_count(role: &str, dtype: DType, dims: &[usize]) -> Result<u64, Error> {
    // One pass: a zero extent makes the count 0 whatever overflowed before it.
    let mut count: u64 = 1;
    let mut overflow = false;
    for &d in dims {
        if d == 0 {
            return Ok(0);
        }
        let (product, o) = count.overflowing_mul(d as u64);
        count = product;
        overflow |= o;
    }
    if overflow {
        return Err(too_big(role, dtype, dims, "the element count"));
    }
    Ok(count)
}

/// Iterator over element byte offsets in row-major order; see [`Layout::offsets`].
pub struct Offsets<'s> {
    layout: Layout<'s>,
    index: [usize; MAX_NDIM],
    offset: usize,
    remaining: usize,
    size: usize,
}

impl Iterator for Offsets<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let current = self.offset;
        let Some(strides) = self.layout.strides() else {
            self.offset += self.size;
            return Some(current);
        };
        if self.remaining > 0 {
            // Odometer step: bump the last axis, carrying into earlier ones.
            for axis in (0..self.layout.dims.len()).rev() {
                self.index[axis] += 1;
                self.offset += strides[axis] * self.size;
                if self.index[axis] < self.layout.dims[axis] {
                    break;
                }
                self.offset -= self.index[axis] * strides[axis] * self.size;
                self.index[axis] = 0;
            }
        }
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

/// True when `strides` describe the C-contiguous layout of `dims` (the stride of a
/// dimension of extent 1 never matters).
fn is_contiguous(dims: &[usize], strides: &[usize]) -> bool {
    if dims.contains(&0) {
        return true;
    }
    let mut expected: usize = 1;
    for (&d, &s) in dims.iter().zip(strides).rev() {
        if d != 1 && s != expected {
            return false;
        }
        expected = expected.saturating_mul(d);
    }
    true
}

/// A validated, read-only tensor: its layout and exactly the bytes it spans.
#[derive(Clone, Debug)]
pub struct Tensor<'a> {
    layout: Layout<'a>,
    data: &'a [u8],
}

impl<'a> Tensor<'a> {
    /// A C-contiguous tensor over `data`. STRING tensors are made with
    /// [`Tensor::strings`]: their bytes are views, which arbitrary bytes are not.
    #[inline]
    pub fn new(data: &'a [u8], dtype: DType, dims: &'a [usize]) -> Result<Tensor<'a>, Error> {
        Tensor::from_layout(Layout::new("input", dtype, dims, None)?, data)
    }

    /// A tensor with strides in elements (each may be 0); not for STRING.
    pub fn strided(
        data: &'a [u8],
        dtype: DType,
        dims: &'a [usize],
        strides: &'a [usize],
    ) -> Result<Tensor<'a>, Error> {
        Tensor::from_layout(Layout::new("input", dtype, dims, Some(strides))?, data)
    }

    /// A C-contiguous STRING tensor of `views`.
    pub fn strings(views: &'a [StringView<'a>], dims: &'a [usize]) -> Result<Tensor<'a>, Error> {
        let layout = Layout::new("input", DType::String, dims, None)?;
        if !VIEWS_HAVE_NO_PADDING {
            return Err(Error::Unsupported(
                "STRING tensors from Rust views need a target where a view has no padding".into(),
            ));
        }
        // SAFETY: a view is a pointer and a u64 with no padding (checked above), so its
        // bytes are initialized; the slice covers exactly `views`.
        let data = unsafe {
            core::slice::from_raw_parts(views.as_ptr().cast::<u8>(), core::mem::size_of_val(views))
        };
        // SAFETY: views made in safe Rust borrow their bytes for 'a.
        unsafe { Tensor::from_raw_layout(layout, data) }
    }

    /// Pairs a checked layout with its buffer, which must hold `layout.bytes()` bytes;
    /// not for STRING (see [`Tensor::strings`]).
    #[inline]
    pub fn from_layout(layout: Layout<'a>, data: &'a [u8]) -> Result<Tensor<'a>, Error> {
        refuse_string_bytes(&layout)?;
        // SAFETY: not a STRING layout, so the bytes are plain values.
        unsafe { Tensor::from_raw_layout(layout, data) }
    }

    /// As [`Tensor::from_layout`], for every dtype.
    ///
    /// # Safety
    /// For a STRING layout, every element of `data` is a view whose non-NULL `data`
    /// points to `len` bytes readable and unchanged for `'a`.
    #[inline]
    pub(crate) unsafe fn from_raw_layout(
        layout: Layout<'a>,
        data: &'a [u8],
    ) -> Result<Tensor<'a>, Error> {
        layout.check_buffer("input", data.len() as u64)?;
        let data = &data[..layout.bytes()];
        Ok(Tensor { layout, data })
    }

    /// The checked shape, strides and dtype.
    pub fn layout(&self) -> &Layout<'a> {
        &self.layout
    }

    /// The bytes the layout spans.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The STRING view stored at byte `offset` of a STRING tensor's data.
    pub(crate) fn string_at(&self, offset: usize) -> StringView<'a> {
        StringView::read_from(&self.data[offset..offset + VIEW_BYTES])
    }
}

/// Arbitrary bytes are not views: safe constructors refuse STRING.
#[inline]
pub(crate) fn refuse_string_bytes(layout: &Layout) -> Result<(), Error> {
    if layout.dtype() == DType::String {
        return Err(Error::Unsupported(
            "a STRING tensor holds views, not bytes: make it with Tensor::strings".into(),
        ));
    }
    Ok(())
}

/// A validated, writable, C-contiguous tensor.
#[derive(Debug)]
pub struct TensorMut<'a> {
    layout: Layout<'a>,
    data: &'a mut [u8],
}

impl<'a> TensorMut<'a> {
    /// A C-contiguous output tensor over `data`; not for STRING (a STRING output is
    /// filled with views, which the C API's callers own; Rust formats numbers with
    /// [`crate::cast::format_strings`]).
    #[inline]
    pub fn new(
        data: &'a mut [u8],
        dtype: DType,
        dims: &'a [usize],
    ) -> Result<TensorMut<'a>, Error> {
        TensorMut::from_layout(Layout::new("output", dtype, dims, None)?, data)
    }

    /// Pairs a checked layout with its buffer; outputs must be contiguous; not for STRING.
    #[inline]
    pub fn from_layout(layout: Layout<'a>, data: &'a mut [u8]) -> Result<TensorMut<'a>, Error> {
        refuse_string_bytes(&layout)?;
        // SAFETY: not a STRING layout.
        unsafe { TensorMut::from_raw_layout(layout, data) }
    }

    /// As [`TensorMut::from_layout`], for every dtype.
    ///
    /// # Safety
    /// For a STRING layout, the views written into `data` are read by whoever owns it
    /// as views of the input's bytes, which the caller keeps alive as long as it needs.
    #[inline]
    pub(crate) unsafe fn from_raw_layout(
        layout: Layout<'a>,
        data: &'a mut [u8],
    ) -> Result<TensorMut<'a>, Error> {
        layout.require_contiguous("output")?;
        layout.check_buffer("output", data.len() as u64)?;
        let data = &mut data[..layout.bytes()];
        Ok(TensorMut { layout, data })
    }

    /// The checked shape and dtype.
    pub fn layout(&self) -> &Layout<'a> {
        &self.layout
    }

    /// The bytes the layout spans, writable.
    pub fn data(&mut self) -> &mut [u8] {
        self.data
    }

    /// The layout and the bytes at once, for kernels that read one and write the other.
    pub fn parts(&mut self) -> (&Layout<'a>, &mut [u8]) {
        (&self.layout, self.data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Status;

    #[test]
    fn counts_and_bytes() {
        let l = Layout::new("input", DType::Float, &[2, 3], None).unwrap();
        assert_eq!((l.count(), l.bytes()), (6, 24));
        let l = Layout::new("input", DType::Float, &[], None).unwrap();
        assert_eq!((l.count(), l.bytes()), (1, 4));
        let l = Layout::new("input", DType::Int4, &[3], None).unwrap();
        assert_eq!((l.count(), l.bytes()), (3, 2));
        let l = Layout::new("input", DType::Float, &[0, usize::MAX, usize::MAX], None).unwrap();
        assert_eq!((l.count(), l.bytes()), (0, 0));
    }

    #[test]
    fn overflow_is_an_invalid_shape() {
        let e = Layout::new("input", DType::Float, &[1 << 32, 1 << 32], None).unwrap_err();
        assert_eq!(e.status(), Status::InvalidShape);
        assert!(e.to_string().contains("element count overflows"), "{e}");
        let e = Layout::new("input", DType::Double, &[1 << 31, 1 << 31], None).unwrap_err();
        assert!(e.to_string().contains("byte count overflows"), "{e}");
    }

    #[test]
    fn strides_span_and_contiguity() {
        let l = Layout::new("input", DType::Float, &[2, 3], Some(&[1, 2])).unwrap();
        assert_eq!(l.bytes(), (1 + 2 * 2 + 1) * 4);
        assert!(l.strides().is_some());
        let l = Layout::new("input", DType::Float, &[2, 3], Some(&[3, 1])).unwrap();
        assert!(l.strides().is_none());
        let l = Layout::new("input", DType::Float, &[1, 3], Some(&[99, 1])).unwrap();
        assert!(l.strides().is_none());
        let l = Layout::new("input", DType::Float, &[4], Some(&[0])).unwrap();
        assert_eq!(l.bytes(), 4);
        let e = Layout::new("input", DType::Int4, &[4], Some(&[2])).unwrap_err();
        assert_eq!(e.status(), Status::InvalidShape);
    }

    #[test]
    fn offsets_follow_row_major_order() {
        let l = Layout::new("input", DType::Int16, &[2, 3], Some(&[1, 2])).unwrap();
        assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 4, 8, 2, 6, 10]);
        let l = Layout::new("input", DType::Int16, &[2, 2], None).unwrap();
        assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 2, 4, 6]);
        let l = Layout::new("input", DType::Int16, &[3], Some(&[0])).unwrap();
        assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 0, 0]);
        let l = Layout::new("input", DType::Int16, &[2, 0], Some(&[5, 1])).unwrap();
        assert_eq!(l.offsets().count(), 0);
    }

    #[test]
    fn negative_dims_name_the_index() {
        let mut buf = ShapeBuf::new();
        assert_eq!(
            buf.fill_from_i64("input", "shape", &[2, 3]).unwrap(),
            [2, 3]
        );
        let e = buf.fill_from_i64("input", "shape", &[2, -3]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "input shape[1] is -3 in [2,-3]: it must be >= 0"
        );
    }

    #[test]
    fn short_buffers_are_refused() {
        let data = [0u8; 23];
        let e = Tensor::new(&data, DType::Float, &[2, 3]).unwrap_err();
        assert_eq!(e.status(), Status::BufferTooSmall);
        assert_eq!(
            e.to_string(),
            "input data_bytes is 23 but shape [2,3] of FLOAT needs 24 bytes"
        );
    }
}
