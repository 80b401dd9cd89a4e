// SPDX-License-Identifier: MIT OR Apache-2.0
//! Text arguments (NUL-terminated, UTF-8), dtype names and string arenas.

use super::common::require;
use super::outputs::Out;
use crate::dtype::DType;
use crate::error::Error;
use crate::ffi::types::tcast_string_arena;
use core::marker::PhantomData;
use std::ffi::{c_char, CStr};
use std::ops::Range;

/// A required text argument as UTF-8: NULL_ARGUMENT when NULL, PARSE quoting it when
/// it is not UTF-8 (a text the function cannot read, docs/c-api.md section 1).
///
/// # Safety
/// `ptr` is NULL or points to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn read_text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Error> {
    require(ptr, what)?;
    // SAFETY: non-NULL and NUL-terminated per this function's contract.
    let raw = unsafe { CStr::from_ptr(ptr) };
    raw.to_str().map_err(|_| Error::Parse {
        index: None,
        message: format!(
            "{what} is not valid UTF-8: {:?}",
            String::from_utf8_lossy(raw.to_bytes())
        ),
    })
}

/// A dtype name argument, or INVALID_DTYPE quoting it.
pub(crate) fn dtype_named(name: &str) -> Result<DType, Error> {
    DType::from_name(name)
        .ok_or_else(|| Error::InvalidDtype(format!("unknown dtype name {name:?}")))
}

/// A string arena argument, checked for NULL when read.
pub(crate) struct ArenaArg<'a> {
    ptr: *mut tcast_string_arena,
    desc: tcast_string_arena,
    /// The byte range, once checked.
    range: Option<Range<usize>>,
    target: PhantomData<&'a mut tcast_string_arena>,
}

/// Reads a string arena argument.
///
/// # Safety
/// `ptr` is NULL or points to a readable and writable tcast_string_arena whose `data`
/// holds `capacity` writable bytes, used by nothing else for `'a`.
pub(crate) unsafe fn read_arena<'a>(ptr: *mut tcast_string_arena) -> Result<ArenaArg<'a>, Error> {
    require(ptr, "arena")?;
    // SAFETY: non-NULL and readable per this function's contract.
    let desc = unsafe { ptr.read() };
    Ok(ArenaArg {
        ptr,
        desc,
        range: None,
        target: PhantomData,
    })
}

impl<'a> ArenaArg<'a> {
    /// The arena's checks, made with the buffer sizes: a capacity beyond memory, NULL
    /// data with a capacity, `used` beyond the capacity. Returns the byte range it spans.
    pub(super) fn check(&mut self) -> Result<Range<usize>, Error> {
        let capacity = usize::try_from(self.desc.capacity)
            .ok()
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "arena capacity {} is larger than memory",
                    self.desc.capacity
                ))
            })?;
        if self.desc.data.is_null() && capacity > 0 {
            return Err(Error::NullArgument(format!(
                "arena data is NULL but capacity is {capacity}"
            )));
        }
        if self.desc.used > self.desc.capacity {
            return Err(Error::InvalidArgument(format!(
                "arena used ({}) is larger than its capacity ({})",
                self.desc.used, self.desc.capacity
            )));
        }
        let start = self.desc.data as usize;
        self.range = Some(start..start + capacity);
        Ok(start..start + capacity)
    }

    /// The arena's bytes, its `used` and the out-pointer for the new `used`. The bytes
    /// are empty unless [`input_output_views`] checked the arena and found it disjoint
    /// from the tensors.
    pub(crate) fn into_parts(self) -> (&'a mut [u8], usize, Out<'a, u64>) {
        let len = self.range.as_ref().map_or(0, Range::len);
        let bytes: &'a mut [u8] = if len == 0 {
            &mut []
        } else {
            // SAFETY: non-NULL with `len` = capacity writable bytes (read_arena's
            // contract and check()), not shared with the input or output (checked).
            unsafe { std::slice::from_raw_parts_mut(self.desc.data.cast::<u8>(), len) }
        };
        let used = Out {
            // SAFETY: `ptr` is non-NULL and points to a tcast_string_arena (read_arena).
            ptr: unsafe { std::ptr::addr_of_mut!((*self.ptr).used) },
            target: PhantomData,
        };
        (bytes, self.desc.used as usize, used)
    }
}
