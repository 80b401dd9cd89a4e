// SPDX-License-Identifier: MIT OR Apache-2.0
//! Out-pointers: a value, a shape array with its rank, a text buffer with the bytes it
//! needs.

use super::common::{capacity_of, require, require_disjoint};
use crate::bitcast::LastDim;
use crate::error::{shape_text, Error};
use crate::np;
use core::fmt::Write as _;
use core::marker::PhantomData;
use std::ffi::c_char;

/// A required out-pointer, checked for NULL when read; writing is then safe.
pub(crate) struct Out<'a, T> {
    pub(super) ptr: *mut T,
    pub(super) target: PhantomData<&'a mut T>,
}

/// Checks a required out-pointer.
///
/// # Safety
/// `ptr` is NULL or points to a writable, aligned `T` that nothing else uses for `'a`.
#[inline(always)]
pub(crate) unsafe fn out_arg<'a, T>(ptr: *mut T, what: &str) -> Result<Out<'a, T>, Error> {
    require(ptr, what)?;
    Ok(Out {
        ptr,
        target: PhantomData,
    })
}

impl<T> Out<'_, T> {
    /// Stores `value`.
    pub(crate) fn write(&mut self, value: T) {
        // SAFETY: non-NULL and writable, checked when the Out was made (out_arg).
        unsafe { self.ptr.write(value) }
    }
}

/// A shape output: an array of `capacity` int64_t and, for the shape functions, the
/// rank's out-pointer.
pub(crate) struct ShapeOut<'a> {
    dims: *mut i64,
    capacity: i32,
    capacity_name: &'static str,
    ndim: Option<Out<'a, i32>>,
    target: PhantomData<&'a mut [i64]>,
}

/// Checks a shape output: NULL `ndim` (when given as required), then a NULL array with a
/// positive capacity. The capacity's sign is checked later, with the argument values
/// ([`ShapeOut::capacity`]).
///
/// # Safety
/// `dims` is NULL or points to `capacity` writable int64_t, and `ndim` (when `Some`) is
/// NULL or points to a writable int32_t, both used by nothing else for `'a`.
#[inline(always)]
pub(crate) unsafe fn shape_out<'a>(
    dims: *mut i64,
    dims_name: &str,
    capacity: i32,
    capacity_name: &'static str,
    ndim: Option<(*mut i32, &str)>,
) -> Result<ShapeOut<'a>, Error> {
    let ndim = match ndim {
        // SAFETY: forwarded from this function's contract.
        Some((ptr, what)) => Some(unsafe { out_arg(ptr, what) }?),
        None => None,
    };
    if capacity > 0 {
        require(dims, dims_name)?;
    }
    Ok(ShapeOut {
        dims,
        capacity,
        capacity_name,
        ndim,
        target: PhantomData,
    })
}

/// The result arguments of the shape functions: `out_shape` of `out_capacity` int64_t
/// and the rank's `out_ndim`.
///
/// # Safety
/// As [`shape_out`].
#[inline(always)]
pub(crate) unsafe fn shape_result<'a>(
    out_shape: *mut i64,
    out_capacity: i32,
    out_ndim: *mut i32,
) -> Result<ShapeOut<'a>, Error> {
    let ndim = Some((out_ndim, "out_ndim"));
    // SAFETY: forwarded from this function's contract.
    unsafe { shape_out(out_shape, "out_shape", out_capacity, "out_capacity", ndim) }
}

impl ShapeOut<'_> {
    /// INVALID_ARGUMENT for a negative capacity.
    pub(crate) fn check_capacity(&self) -> Result<(), Error> {
        capacity_of(self.capacity, self.capacity_name).map(|_| ())
    }

    /// Writes the rank (when asked for), then the extents, or BUFFER_TOO_SMALL naming
    /// the `shape` (what it is, e.g. "broadcast shape") when the capacity is below the
    /// rank; the rank is written even then.
    /// A negative capacity (which [`ShapeOut::check_capacity`] refused earlier) holds
    /// nothing.
    #[inline]
    pub(crate) fn store(&mut self, what: &str, dims: &[usize]) -> Result<(), Error> {
        if let Some(ndim) = &mut self.ndim {
            ndim.write(dims.len() as i32);
        }
        let capacity = usize::try_from(self.capacity).unwrap_or(0);
        if dims.len() > capacity {
            return Err(self.too_small(what, dims));
        }
        for (i, &d) in dims.iter().enumerate() {
            // SAFETY: `dims` holds `capacity` >= rank writable int64_t (shape_out's
            // contract; non-NULL since capacity > 0 here).
            unsafe { self.dims.add(i).write(d as i64) };
        }
        Ok(())
    }

    /// [`ShapeOut::store`] of a bitcast view's shape: `dims` changed by `change`,
    /// written straight into the caller's array.
    #[inline]
    pub(crate) fn store_view(
        &mut self,
        what: &str,
        dims: &[usize],
        change: LastDim,
    ) -> Result<(), Error> {
        let rank = change.rank(dims.len());
        if let Some(ndim) = &mut self.ndim {
            ndim.write(rank as i32);
        }
        let capacity = usize::try_from(self.capacity).unwrap_or(0);
        if rank > capacity {
            let view: Vec<usize> = (0..rank).map(|i| change.dim(dims, i)).collect();
            return Err(self.too_small(what, &view));
        }
        for i in 0..rank {
            // SAFETY: `dims` holds `capacity` >= rank writable int64_t (shape_out's
            // contract; non-NULL since capacity > 0 here).
            unsafe { self.dims.add(i).write(change.dim(dims, i) as i64) };
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_small(&self, what: &str, dims: &[usize]) -> Error {
        Error::BufferTooSmall(format!(
            "{} is {} but the {what} {} has rank {}",
            self.capacity_name,
            self.capacity,
            shape_text(dims),
            dims.len()
        ))
    }

    /// The array's pointer, for a view that refers to it.
    pub(crate) fn as_ptr(&self) -> *const i64 {
        self.dims
    }
}

/// A text output: `capacity` bytes at `buf`, and where to report the bytes the text needs.
/// `buf` may be NULL with `capacity` 0 when `needed` is not: a sizing query.
pub(crate) struct TextOut<'a> {
    bytes: &'a mut [u8],
    capacity: u64,
    needed: Option<&'a mut u64>,
}

/// Checks a text output: NULL_ARGUMENT naming `what` for a NULL `buf`, unless the call is
/// a sizing query (`buf` NULL, `capacity` 0, `needed` not NULL).
///
/// # Safety
/// `buf` is NULL or points to `capacity` writable bytes used by nothing else for `'a`;
/// `needed` is NULL or writable for `'a`.
pub(crate) unsafe fn text_out<'a>(
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    what: &str,
) -> Result<TextOut<'a>, Error> {
    // SAFETY: NULL or writable, per this function's contract.
    let needed = unsafe { needed.as_mut() };
    if buf.is_null() && capacity == 0 && needed.is_some() {
        return Ok(TextOut {
            bytes: &mut [],
            capacity,
            needed,
        });
    }
    require(buf, what)?;
    let room =
        usize::try_from(capacity).map_or(isize::MAX as usize, |c| c.min(isize::MAX as usize));
    if let Some(slot) = &needed {
        // `needed` inside the text's bytes would be written through two views at once.
        let start = buf as usize;
        let slot = *slot as *const u64 as usize;
        require_disjoint(
            what,
            &(start..start.saturating_add(room)),
            "needed",
            &(slot..slot + std::mem::size_of::<u64>()),
        )?;
    }
    // SAFETY: `buf` holds `capacity` (>= room) writable bytes per this function's contract.
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf.cast::<u8>(), room) };
    Ok(TextOut {
        bytes,
        capacity,
        needed,
    })
}

/// A text output checked for NULL ([`text_out_later`]) but not yet viewed: the calls
/// that read texts (numpy dtype specs, a decimal) compute their answer first and view
/// the output after the texts' last use, so that a `buf` the caller placed over an input
/// text is only written once that text is no longer read (the answer is then written
/// whole, as if the text had been copied first).
pub(crate) struct LaterTextOut {
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    what: &'static str,
}

/// [`text_out`]'s NULL check now, its view later ([`LaterTextOut::open`]).
pub(crate) fn text_out_later(
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    what: &'static str,
) -> Result<LaterTextOut, Error> {
    if !(buf.is_null() && capacity == 0 && !needed.is_null()) {
        require(buf, what)?;
    }
    Ok(LaterTextOut {
        buf,
        capacity,
        needed,
        what,
    })
}

impl LaterTextOut {
    /// The output's view.
    ///
    /// # Safety
    /// As [`text_out`]'s; no reference made from the call's other pointer arguments is
    /// used after this.
    pub(crate) unsafe fn open<'a>(self) -> Result<TextOut<'a>, Error> {
        // SAFETY: forwarded from this function's contract.
        unsafe { text_out(self.buf, self.capacity, self.needed, self.what) }
    }
}

impl TextOut<'_> {
    /// Writes `str(dtype)` and a NUL, or BUFFER_TOO_SMALL with the bytes needed; reports
    /// the bytes needed (NUL included) through `needed` either way. The text goes
    /// straight into the buffer (nothing is allocated) and is measured if it does not
    /// fit. A sizing query only reports.
    pub(crate) fn put(self, dtype: &np::NpDtype) -> Result<(), Error> {
        // CText never fails.
        self.put_with(
            |out| {
                let _ = dtype.write_str_to(out);
            },
            || format!("{:?}", dtype.to_str_capped()),
        )
    }

    /// [`TextOut::put`] for a text already built.
    pub(crate) fn put_str(self, text: &str) -> Result<(), Error> {
        self.put_with(
            |out| {
                let _ = out.write_str(text);
            },
            || format!("{text:?}"),
        )
    }

    /// Writes what `write` writes, and a NUL; `describe` names the text in the
    /// BUFFER_TOO_SMALL message.
    fn put_with(
        self,
        write: impl FnOnce(&mut CText),
        describe: impl FnOnce() -> String,
    ) -> Result<(), Error> {
        let capacity = self.capacity;
        let query = self.bytes.is_empty() && capacity == 0 && self.needed.is_some();
        let mut out = CText {
            bytes: self.bytes,
            len: 0,
        };
        write(&mut out);
        let needed = out.len as u64 + 1;
        if let Some(slot) = self.needed {
            *slot = needed;
        }
        if query {
            return Ok(());
        }
        if capacity < needed {
            return Err(Error::BufferTooSmall(format!(
                "buf holds {capacity} bytes; {} needs {needed} (with its NUL)",
                describe()
            )));
        }
        out.bytes[out.len] = 0;
        Ok(())
    }
}

/// Writes text into a caller's buffer while it fits (leaving a byte for the NUL) and
/// counts every byte, so that a text that does not fit is measured without being built.
struct CText<'a> {
    bytes: &'a mut [u8],
    len: usize,
}

impl core::fmt::Write for CText<'_> {
    fn write_str(&mut self, piece: &str) -> core::fmt::Result {
        let end = self.len.saturating_add(piece.len());
        if end < self.bytes.len() {
            self.bytes[self.len..end].copy_from_slice(piece.as_bytes());
        }
        self.len = end;
        Ok(())
    }
}
