// SPDX-License-Identifier: MIT OR Apache-2.0
//! What the library found on this CPU, for a host to read (docs/c-api.md section 10):
//! the library itself prints nothing.

use super::args::text_out;
use super::guard::guard_integer;
use super::types::{tcast_error, tcast_status};
use crate::simd::cpu;
use std::ffi::c_char;

/// Writes one line saying what the library runs on this CPU: the architecture, the SIMD
/// kernel families in use (`portable` when none), those `TCAST_DISABLE_CPU_FEATURES`
/// withdrew, and the names in that variable that no family knows, quoted, every byte
/// that is not printable ASCII (and `"`, `\`) written `\xNN`; `none` for an empty list:
/// `arch=x86_64 kernels=sse2,erms withdrawn=avx2 unknown="avx3","\xff"`. The variable is
/// read once per process, at the first call that needs the CPU's features; this call
/// reports that reading. Text outputs: see docs/c-api.md section 7 (`needed`, when not
/// NULL, gets the bytes the text takes with its NUL; `buf` NULL with `capacity` 0 only
/// asks for that). Errors: NULL_ARGUMENT, BUFFER_TOO_SMALL (the bytes needed, NUL
/// included, in the message and in `*needed`).
#[no_mangle]
pub extern "C" fn tcast_cpu_info(
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    err: *mut tcast_error,
) -> tcast_status {
    guard_integer(err, || {
        // SAFETY: `buf` is NULL or `capacity` writable bytes, `needed` NULL or writable
        // (docs/c-api.md section 7).
        let buf = unsafe { text_out(buf, capacity, needed, "buf")? };
        buf.put_str(&cpu::report())
    })
}

#[cfg(test)]
mod tests {
    use super::super::guard::test_support::{blank_error, message};
    use super::*;
    use crate::error::Status;
    use std::ffi::CStr;

    #[test]
    fn the_line_fits_a_buffer_of_the_size_asked_for() {
        let mut needed = 0u64;
        let mut err = blank_error();
        let status = tcast_cpu_info(std::ptr::null_mut(), 0, &mut needed, &mut err);
        assert_eq!(status, Status::Ok as i32);
        let expected = cpu::report();
        assert_eq!(needed, expected.len() as u64 + 1);
        let mut buf = vec![b'#' as c_char; needed as usize];
        assert_eq!(
            tcast_cpu_info(buf.as_mut_ptr(), needed, std::ptr::null_mut(), &mut err),
            Status::Ok as i32
        );
        // SAFETY: the call NUL-terminated the text inside `buf`.
        let text = unsafe { CStr::from_ptr(buf.as_ptr()) };
        assert_eq!(text.to_str().unwrap(), expected);
    }

    #[test]
    fn a_short_buffer_is_refused_with_the_size_it_needs() {
        let mut buf = [b'#' as c_char; 8];
        let mut needed = 0u64;
        let mut err = blank_error();
        let status = tcast_cpu_info(buf.as_mut_ptr(), 8, &mut needed, &mut err);
        assert_eq!(status, Status::BufferTooSmall as i32);
        assert_eq!(needed, cpu::report().len() as u64 + 1);
        assert!(
            message(&err).contains(&format!("needs {needed}")),
            "{}",
            message(&err)
        );
        let status = tcast_cpu_info(std::ptr::null_mut(), 8, std::ptr::null_mut(), &mut err);
        assert_eq!(status, Status::NullArgument as i32);
    }
}
