// SPDX-License-Identifier: MIT OR Apache-2.0
//! The numpy queries' own arguments: dtype handles and a scalar's value bytes.

use super::common::require;
use crate::error::Error;
use crate::ffi::types::tcast_np_dtype;
use crate::np;

/// Borrows a numpy dtype handle argument.
///
/// # Safety
/// `ptr` is NULL or a handle from `tcast_np_dtype_parse` not yet freed, alive for `'a`.
pub(crate) unsafe fn read_handle<'a>(
    ptr: *const tcast_np_dtype,
    what: &str,
) -> Result<&'a np::Parsed, Error> {
    require(ptr, what)?;
    // SAFETY: a non-NULL handle is live per this function's contract.
    Ok(unsafe { &(*ptr).parsed })
}

/// A caller's input bytes of a given length (a numpy scalar's value).
///
/// # Safety
/// `ptr` is NULL or points to `len` readable bytes that stay unchanged for `'a`.
pub(crate) unsafe fn read_bytes<'a>(
    ptr: *const std::ffi::c_void,
    len: u64,
    what: &str,
) -> Result<&'a [u8], Error> {
    if len == 0 {
        return Ok(&[]);
    }
    require(ptr, what)?;
    let len = usize::try_from(len)
        .ok()
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| {
            Error::InvalidArgument(format!("{what}_bytes is {len}: larger than memory"))
        })?;
    // SAFETY: non-NULL with `len` readable bytes per this function's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}
