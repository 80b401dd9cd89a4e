// SPDX-License-Identifier: MIT OR Apache-2.0
//! The other Rust static library of scripts/test-abi.sh's coexistence test: one C
//! function whose work goes through this library's own copy of Rust's runtime (a `Vec`,
//! formatting, a panic hook, a panic caught by `catch_unwind`, which needs this copy's
//! `rust_eh_personality`), linked beside libtensorcast.a built by another rustc.

use std::panic;

/// Sums 1..=n through a `Vec`, panics with a formatted message and catches the panic,
/// then writes "sum=<sum> caught=<message>" to `out` (NUL-terminated, cut to fit
/// `capacity`). Returns the length written, or -1 if `out` is NULL, `capacity` is 0 or
/// the panic did not arrive as expected. Prints nothing: the panic hook is silent.
///
/// # Safety
///
/// `out` is NULL or valid for writes of `capacity` bytes.
#[no_mangle]
pub unsafe extern "C" fn coexist_run(n: u32, out: *mut u8, capacity: usize) -> i64 {
    if out.is_null() || capacity == 0 {
        return -1;
    }
    let values: Vec<u64> = (1..=u64::from(n)).collect();
    let sum: u64 = values.iter().sum();
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let caught = panic::catch_unwind(|| -> u64 { panic!("boom after {} values", values.len()) });
    panic::set_hook(previous);
    let message = match caught {
        Ok(_) => return -1,
        Err(payload) => match payload.downcast::<String>() {
            Ok(text) => *text,
            Err(_) => return -1,
        },
    };
    let text = format!("sum={sum} caught={message}");
    let len = text.len().min(capacity - 1);
    // SAFETY: the caller passes `out` valid for `capacity` bytes, and len < capacity.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), out, len);
        *out.add(len) = 0;
    }
    len as i64
}
