//! Raw tensor descriptions -> validated views. Everything about shapes, strides, element
//! and byte counts and their overflow is checked here, once, before a kernel runs.

use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::string_view::{StringView, VIEWS_HAVE_NO_PADDING, VIEW_BYTES};

/// The largest rank a tensor may have.
pub const MAX_NDIM: usize = 64;

/// The shape, strides and sizes of a tensor, checked for consistency and overflow.
#[derive(Clone, Debug)]
pub struct Layout {
    dtype: DType,
    ndim: usize,
    dims: [usize; MAX_NDIM],
    /// Strides in elements; None when the tensor is C-contiguous.
    strides: Option<[usize; MAX_NDIM]>,
    count: usize,
    /// Bytes the elements span in memory.
    bytes: usize,
}

fn too_big(role: &str, dtype: DType, dims: &[usize], what: &str) -> Error {
    Error::InvalidShape(format!(
        "{role} shape {} of {dtype}: {what} overflows 64 bits",
        shape_text(dims)
    ))
}

impl Layout {
    /// Checks a shape (and optional strides in elements) for a tensor of `dtype`.
    /// `role` ("input", "output") starts every error message.
    pub fn new(
        role: &str,
        dtype: DType,
        dims: &[usize],
        strides: Option<&[usize]>,
    ) -> Result<Layout, Error> {
        if dims.len() > MAX_NDIM {
            return Err(Error::InvalidShape(format!(
                "{role} ndim is {}; the most is {MAX_NDIM}",
                dims.len()
            )));
        }
        let count = element_count(role, dtype, dims)?;
        let packed_bytes = dtype
            .bytes_for(count)
            .ok_or_else(|| too_big(role, dtype, dims, "the byte count"))?;

        if let (Some(s), true) = (strides, dtype.is_packed()) {
            return Err(Error::InvalidShape(format!(
                "{role} strides {} are not allowed for the packed dtype {dtype}: pass NULL strides",
                shape_text(s)
            )));
        }
        let strides = match strides {
            Some(s) if s.len() != dims.len() => {
                return Err(Error::InvalidShape(format!(
                    "{role} has {} strides for {} dimensions",
                    s.len(),
                    dims.len()
                )))
            }
            Some(s) if !is_contiguous(dims, s) => Some(s),
            _ => None,
        };
        let bytes = match strides {
            None => packed_bytes,
            Some(s) => {
                if count == 0 {
                    0
                } else {
                    let mut last: u128 = 0;
                    for (&d, &st) in dims.iter().zip(s) {
                        last += (d as u128 - 1) * st as u128;
                    }
                    let bytes = (last + 1) * u128::from(dtype.bits() / 8);
                    u64::try_from(bytes).map_err(|_| {
                        Error::InvalidShape(format!(
                            "{role} shape {} with strides {} of {dtype}: the byte span overflows 64 bits",
                            shape_text(dims),
                            shape_text(s)
                        ))
                    })?
                }
            }
        };
        let addressable = |n: u64| -> Result<usize, Error> {
            usize::try_from(n)
                .ok()
                .filter(|&n| n <= isize::MAX as usize)
                .ok_or_else(|| {
                    Error::InvalidShape(format!(
                        "{role} shape {} of {dtype} needs {bytes} bytes, more than this platform can address",
                        shape_text(dims)
                    ))
                })
        };
        let mut layout = Layout {
            dtype,
            ndim: dims.len(),
            dims: [0; MAX_NDIM],
            strides: None,
            count: addressable(count)?,
            bytes: addressable(bytes)?,
        };
        layout.dims[..dims.len()].copy_from_slice(dims);
        if let Some(s) = strides {
            let mut own = [0; MAX_NDIM];
            own[..s.len()].copy_from_slice(s);
            layout.strides = Some(own);
        }
        Ok(layout)
    }

    /// Converts a C shape (`int64_t` dims) into `buf`, refusing negative dimensions.
    pub fn dims_from_i64<'b>(
        role: &str,
        what: &str,
        values: &[i64],
        buf: &'b mut [usize; MAX_NDIM],
    ) -> Result<&'b [usize], Error> {
        if values.len() > MAX_NDIM {
            return Err(Error::InvalidShape(format!(
                "{role} ndim is {}; the most is {MAX_NDIM}",
                values.len()
            )));
        }
        for (i, &v) in values.iter().enumerate() {
            buf[i] = usize::try_from(v).map_err(|_| {
                Error::InvalidShape(format!(
                    "{role} {what}[{i}] is {v} in {}: it must be >= 0",
                    shape_text(values)
                ))
            })?;
        }
        Ok(&buf[..values.len()])
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The shape (empty for a scalar).
    pub fn dims(&self) -> &[usize] {
        &self.dims[..self.ndim]
    }

    /// Strides in elements when the tensor is not C-contiguous.
    pub fn strides(&self) -> Option<&[usize]> {
        self.strides.as_ref().map(|s| &s[..self.ndim])
    }

    /// Number of elements.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Bytes the tensor spans in memory.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Byte offsets of the elements in row-major order (byte-sized dtypes).
    pub fn offsets(&self) -> Offsets<'_> {
        Offsets {
            layout: self,
            index: [0; MAX_NDIM],
            offset: 0,
            remaining: self.count,
            size: (self.dtype.bits() / 8) as usize,
        }
    }

    /// Fails unless the tensor is C-contiguous (outputs must be).
    pub fn require_contiguous(&self, role: &str) -> Result<(), Error> {
        match self.strides() {
            Some(s) => Err(Error::InvalidShape(format!(
                "{role} strides {} for shape {} are not C-contiguous; outputs must be contiguous",
                shape_text(s),
                shape_text(self.dims())
            ))),
            None => Ok(()),
        }
    }

    /// Checks that a caller's buffer of `available` bytes holds the tensor.
    pub fn check_buffer(&self, role: &str, available: u64) -> Result<(), Error> {
        if (self.bytes as u64) > available {
            return Err(Error::BufferTooSmall(format!(
                "{role} data_bytes is {available} but shape {} of {} needs {} bytes",
                shape_text(self.dims()),
                self.dtype,
                self.bytes
            )));
        }
        Ok(())
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
pub fn element_count(role: &str, dtype: DType, dims: &[usize]) -> Result<u64, Error> {
    if dims.contains(&0) {
        return Ok(0);
    }
    let mut count: u64 = 1;
    for &d in dims {
        count = u64::try_from(d)
            .ok()
            .and_then(|d| count.checked_mul(d))
            .ok_or_else(|| too_big(role, dtype, dims, "the element count"))?;
    }
    Ok(count)
}

/// Iterator over element byte offsets in row-major order; see [`Layout::offsets`].
pub struct Offsets<'l> {
    layout: &'l Layout,
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
            for axis in (0..self.layout.ndim).rev() {
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
    layout: Layout,
    data: &'a [u8],
}

impl<'a> Tensor<'a> {
    /// A C-contiguous tensor over `data`. STRING tensors are made with
    /// [`Tensor::strings`]: their bytes are views, which arbitrary bytes are not.
    pub fn new(data: &'a [u8], dtype: DType, dims: &[usize]) -> Result<Tensor<'a>, Error> {
        Tensor::from_layout(Layout::new("input", dtype, dims, None)?, data)
    }

    /// A tensor with strides in elements (each may be 0); not for STRING.
    pub fn strided(
        data: &'a [u8],
        dtype: DType,
        dims: &[usize],
        strides: &[usize],
    ) -> Result<Tensor<'a>, Error> {
        Tensor::from_layout(Layout::new("input", dtype, dims, Some(strides))?, data)
    }

    /// A C-contiguous STRING tensor of `views`.
    pub fn strings(views: &'a [StringView<'a>], dims: &[usize]) -> Result<Tensor<'a>, Error> {
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
    pub fn from_layout(layout: Layout, data: &'a [u8]) -> Result<Tensor<'a>, Error> {
        refuse_string_bytes(&layout)?;
        // SAFETY: not a STRING layout, so the bytes are plain values.
        unsafe { Tensor::from_raw_layout(layout, data) }
    }

    /// As [`Tensor::from_layout`], for every dtype.
    ///
    /// # Safety
    /// For a STRING layout, every element of `data` is a view whose non-NULL `data`
    /// points to `len` bytes readable and unchanged for `'a`.
    pub(crate) unsafe fn from_raw_layout(
        layout: Layout,
        data: &'a [u8],
    ) -> Result<Tensor<'a>, Error> {
        layout.check_buffer("input", data.len() as u64)?;
        let data = &data[..layout.bytes()];
        Ok(Tensor { layout, data })
    }

    /// The checked shape, strides and dtype.
    pub fn layout(&self) -> &Layout {
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
fn refuse_string_bytes(layout: &Layout) -> Result<(), Error> {
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
    layout: Layout,
    data: &'a mut [u8],
}

impl<'a> TensorMut<'a> {
    /// A C-contiguous output tensor over `data`; not for STRING (a STRING output is
    /// filled with views, which the C API's callers own; Rust formats numbers with
    /// [`crate::cast::format_strings`]).
    pub fn new(data: &'a mut [u8], dtype: DType, dims: &[usize]) -> Result<TensorMut<'a>, Error> {
        TensorMut::from_layout(Layout::new("output", dtype, dims, None)?, data)
    }

    /// Pairs a checked layout with its buffer; outputs must be contiguous; not for STRING.
    pub fn from_layout(layout: Layout, data: &'a mut [u8]) -> Result<TensorMut<'a>, Error> {
        refuse_string_bytes(&layout)?;
        // SAFETY: not a STRING layout.
        unsafe { TensorMut::from_raw_layout(layout, data) }
    }

    /// As [`TensorMut::from_layout`], for every dtype.
    ///
    /// # Safety
    /// For a STRING layout, the views written into `data` are read by whoever owns it
    /// as views of the input's bytes, which the caller keeps alive as long as it needs.
    pub(crate) unsafe fn from_raw_layout(
        layout: Layout,
        data: &'a mut [u8],
    ) -> Result<TensorMut<'a>, Error> {
        layout.require_contiguous("output")?;
        layout.check_buffer("output", data.len() as u64)?;
        let data = &mut data[..layout.bytes()];
        Ok(TensorMut { layout, data })
    }

    /// The checked shape and dtype.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The bytes the layout spans, writable.
    pub fn data(&mut self) -> &mut [u8] {
        self.data
    }

    /// The layout and the bytes at once, for kernels that read one and write the other.
    pub fn parts(&mut self) -> (&Layout, &mut [u8]) {
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
        let mut buf = [0; MAX_NDIM];
        let e = Layout::dims_from_i64("input", "shape", &[2, -3], &mut buf).unwrap_err();
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
