// SPDX-License-Identifier: MIT OR Apache-2.0
//! One STRING element: a borrowed byte string, laid out as the C API's `tcast_string`
//! (a pointer and a 64-bit length). A STRING tensor's bytes are an array of these.
//!
//! Safe Rust can only make a view from a slice, so a view it holds always points to
//! `len` readable bytes. Views that come from C are the caller's promise (docs/c-api.md
//! section 4); the two broken shapes a caller can hand over by mistake, a NULL `data`
//! with a positive `len` and a `len` beyond the address space, are reported as errors
//! naming the element instead of being read.

use crate::error::Error;
use core::marker::PhantomData;

/// A borrowed byte string with the C layout of `tcast_string`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct StringView<'a> {
    data: *const u8,
    len: u64,
    bytes: PhantomData<&'a [u8]>,
}

// SAFETY: a view is a shared borrow of bytes (`&'a [u8]` is Send and Sync).
unsafe impl Send for StringView<'_> {}
// SAFETY: as above.
unsafe impl Sync for StringView<'_> {}

/// Bytes of one view in a STRING tensor.
pub(crate) const VIEW_BYTES: usize = core::mem::size_of::<StringView<'static>>();

/// Whether a view is exactly its two fields, with no padding between them, so that a
/// slice of views may be read as bytes. True on every 64-bit target and on i686; a
/// target where it is false refuses [`crate::Tensor::strings`] instead of reading
/// padding.
pub(crate) const VIEWS_HAVE_NO_PADDING: bool =
    VIEW_BYTES == core::mem::size_of::<*const u8>() + core::mem::size_of::<u64>();

impl<'a> StringView<'a> {
    /// A view of `bytes`.
    pub const fn new(bytes: &'a [u8]) -> StringView<'a> {
        StringView {
            data: bytes.as_ptr(),
            len: bytes.len() as u64,
            bytes: PhantomData,
        }
    }

    /// A view of `len` bytes at `data`.
    ///
    /// # Safety
    /// `data` points to `len` bytes that stay readable and unchanged for `'a`.
    pub(crate) unsafe fn from_raw(data: *const u8, len: usize) -> StringView<'a> {
        StringView {
            data,
            len: len as u64,
            bytes: PhantomData,
        }
    }

    /// The address the view points at (never read through here).
    pub(crate) fn as_ptr(&self) -> *const u8 {
        self.data
    }

    /// The view's length in bytes, as the view states it.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the view has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes, or the error for a view that cannot be read: NULL_ARGUMENT for NULL
    /// data with a positive length, INVALID_ARGUMENT for a length beyond the address
    /// space; `index` is the element the error names.
    #[inline]
    pub fn bytes(&self, index: usize) -> Result<&'a [u8], Error> {
        if self.len == 0 {
            return Ok(&[]);
        }
        if self.data.is_null() || self.len > isize::MAX as u64 {
            return Err(self.unreadable(index));
        }
        // SAFETY: a view made in Rust borrows a slice of `len` bytes for 'a; one read
        // from a caller's STRING tensor carries the caller's promise of `len` readable
        // bytes (the unsafe constructors of Tensor state it); NULL was refused above.
        Ok(unsafe { core::slice::from_raw_parts(self.data, self.len as usize) })
    }

    /// The bytes of a view of 1 to `MAX` bytes with non-NULL data, else None (an empty
    /// view, a longer one, and the broken ones, which [`StringView::bytes`] reports): the
    /// short texts' read, with one test of the length.
    #[inline(always)]
    pub(crate) fn short_bytes<const MAX: usize>(&self) -> Option<&'a [u8]> {
        if self.len.wrapping_sub(1) >= MAX as u64 || self.data.is_null() {
            return None;
        }
        // SAFETY: as in `bytes`: `len` (at most MAX, far below isize::MAX) readable bytes
        // at `data`, which is not NULL.
        Some(unsafe { core::slice::from_raw_parts(self.data, self.len as usize) })
    }

    /// The view stored at the start of `slot` (a STRING tensor's element bytes), read
    /// without alignment.
    #[inline]
    pub(crate) fn read_from(slot: &[u8]) -> StringView<'a> {
        assert!(
            slot.len() >= VIEW_BYTES,
            "a STRING element is {VIEW_BYTES} bytes"
        );
        // SAFETY: `slot` holds at least one view's bytes (asserted); read_unaligned needs
        // no alignment, and any bit pattern is a valid pointer and length (reading the
        // bytes behind them is what `bytes` guards).
        unsafe { slot.as_ptr().cast::<StringView<'a>>().read_unaligned() }
    }

    /// Stores the view at the start of `slot`, without alignment.
    #[inline]
    pub(crate) fn write_to(self, slot: &mut [u8]) {
        assert!(
            slot.len() >= VIEW_BYTES,
            "a STRING element is {VIEW_BYTES} bytes"
        );
        // SAFETY: `slot` has room for one view (asserted); write_unaligned needs no
        // alignment.
        unsafe {
            slot.as_mut_ptr()
                .cast::<StringView<'a>>()
                .write_unaligned(self)
        }
    }

    #[cold]
    #[inline(never)]
    fn unreadable(&self, index: usize) -> Error {
        let error = if self.data.is_null() {
            Error::NullArgument(format!(
                "input element {index}: its tcast_string has data NULL and len {}",
                self.len
            ))
        } else {
            Error::InvalidArgument(format!(
                "input element {index}: its tcast_string len {} is larger than memory",
                self.len
            ))
        };
        error.at_element(index as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Status;

    #[test]
    fn a_view_reads_back_its_bytes_and_refuses_broken_views() {
        let text = b"3.25";
        let view = StringView::new(text);
        assert_eq!(view.bytes(0).unwrap(), b"3.25");
        let mut slot = [0u8; VIEW_BYTES + 1];
        view.write_to(&mut slot[1..]);
        assert_eq!(StringView::read_from(&slot[1..]).bytes(0).unwrap(), b"3.25");

        // SAFETY: never read: NULL with a positive length is refused by `bytes`.
        let null = unsafe { StringView::from_raw(core::ptr::null(), 3) };
        let e = null.bytes(7).unwrap_err();
        assert_eq!((e.status(), e.index()), (Status::NullArgument, Some(7)));
        // SAFETY: an empty view is never read.
        let empty = unsafe { StringView::from_raw(core::ptr::null(), 0) };
        assert_eq!(empty.bytes(0).unwrap(), b"");
    }
}
