//! The C ABI: a thin shell that turns raw pointers into validated views, calls the safe
//! core and turns its `Result` into a status and a filled `tcast_error`. No logic lives
//! here beyond argument conversion. Every export runs inside [`guard`], so no panic
//! crosses the boundary.
#![allow(non_camel_case_types)]
// The exports take raw pointers whose validity is the C caller's side of the contract
// (c-api.md); marking them `unsafe fn` would change nothing for C and is not the idiom.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

pub mod bitcast;
pub mod cast;
pub mod dlpack;
pub mod dtype;
pub mod expand;
pub mod np;
pub mod status;
pub mod strings;
pub mod tensor;

use crate::error::{Error, Status};
use core::fmt::Write;
use std::ffi::{c_char, CStr};
use std::panic::{self, AssertUnwindSafe};

/// A status code: `TCAST_OK` (0) or one of the `TCAST_ERR_*` values.
pub type tcast_status = i32;

/// Bytes of `tcast_error.message`, its terminating NUL included.
pub const TCAST_ERROR_MESSAGE_BYTES: usize = 256;

/// Details of a failure, written into the caller's struct (never a thread-local).
#[repr(C)]
pub struct tcast_error {
    /// The status the call returned.
    pub status: i32,
    /// The element the error is about, or -1.
    pub index: i64,
    /// What was wrong, NUL-terminated UTF-8 (cut at a character boundary if long).
    pub message: [c_char; TCAST_ERROR_MESSAGE_BYTES],
}

/// Writes the outcome of a call into `err` (when not NULL) and returns its status. The
/// message is formatted straight into the caller's array (no allocation, so that an
/// out-of-memory error can be reported too), cut at a character boundary.
fn report(err: *mut tcast_error, outcome: Result<(), Error>) -> tcast_status {
    let (status, index) = match &outcome {
        Ok(()) => (Status::Ok.code(), -1),
        Err(e) => (
            e.status() as i32,
            e.index().and_then(|i| i64::try_from(i).ok()).unwrap_or(-1),
        ),
    };
    if !err.is_null() {
        // SAFETY: a non-NULL `err` points to a writable tcast_error (c-api.md section 1).
        let target = unsafe { &mut *err };
        target.status = status;
        target.index = index;
        let mut message = MessageWriter {
            buf: &mut target.message,
            len: 0,
            full: false,
        };
        if let Err(e) = &outcome {
            // MessageWriter never fails; a Display impl that does leaves what it wrote.
            let _ = write!(message, "{e}");
        }
        let len = message.len;
        target.message[len] = 0;
    }
    status
}

/// Writes formatted text into a message array, keeping room for the NUL and dropping
/// whatever does not fit (at a character boundary).
struct MessageWriter<'a> {
    buf: &'a mut [c_char; TCAST_ERROR_MESSAGE_BYTES],
    len: usize,
    /// Set once a piece was cut: nothing after it is written (no gaps in the text).
    full: bool,
}

impl core::fmt::Write for MessageWriter<'_> {
    fn write_str(&mut self, text: &str) -> core::fmt::Result {
        if self.full {
            return Ok(());
        }
        let room = TCAST_ERROR_MESSAGE_BYTES - 1 - self.len;
        let mut cut = text.len().min(room);
        self.full = cut < text.len();
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        for (slot, &byte) in self.buf[self.len..].iter_mut().zip(&text.as_bytes()[..cut]) {
            *slot = byte as c_char;
        }
        self.len += cut;
        Ok(())
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("unknown panic")
}

/// Runs the body of a fallible export: catches panics, fills `err`, returns the status.
pub(crate) fn guard(
    err: *mut tcast_error,
    body: impl FnOnce() -> Result<(), Error>,
) -> tcast_status {
    let outcome = panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        Err(Error::Internal(format!(
            "internal error (a bug in tensorcast): {}",
            panic_text(payload.as_ref())
        )))
    });
    report(err, outcome)
}

/// Runs the body of an infallible export, returning `fallback` if it panics.
pub(crate) fn guard_value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// Fails with NULL_ARGUMENT naming `what` when `ptr` is NULL.
pub(crate) fn require<T>(ptr: *const T, what: &str) -> Result<(), Error> {
    if ptr.is_null() {
        Err(Error::NullArgument(format!("{what} is NULL")))
    } else {
        Ok(())
    }
}

/// A caller's NUL-terminated string as UTF-8, or PARSE quoting what it held (c-api.md
/// section 1: a text that is not UTF-8 is one the function cannot read).
///
/// # Safety
/// `ptr` is non-NULL and points to a NUL-terminated string.
pub(crate) unsafe fn c_text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Error> {
    // SAFETY: the caller guarantees a NUL-terminated string at a non-NULL `ptr`.
    let raw = unsafe { CStr::from_ptr(ptr) };
    raw.to_str().map_err(|_| Error::Parse {
        index: None,
        message: format!(
            "{what} is not valid UTF-8: {:?}",
            String::from_utf8_lossy(raw.to_bytes())
        ),
    })
}

/// A C capacity argument as a count, or INVALID_ARGUMENT naming it when negative.
pub(crate) fn capacity_of(value: i32, what: &str) -> Result<usize, Error> {
    usize::try_from(value)
        .map_err(|_| Error::InvalidArgument(format!("{what} is {value}; it must be >= 0")))
}

/// A static NUL-terminated string as a C pointer.
pub(crate) fn c_static(text_nul: &'static str) -> *const c_char {
    debug_assert!(text_nul.ends_with('\0'));
    text_nul.as_ptr().cast()
}

/// Helpers for the unit tests of the exports.
#[cfg(test)]
pub(crate) mod test_support {
    use super::*;

    /// An error struct full of junk, to see what a call writes.
    pub(crate) fn blank_error() -> tcast_error {
        tcast_error {
            status: -7,
            index: -7,
            message: [b'x' as c_char; TCAST_ERROR_MESSAGE_BYTES],
        }
    }

    /// The message a call wrote.
    pub(crate) fn message(err: &tcast_error) -> String {
        // SAFETY: `report` always NUL-terminates the message inside the array.
        unsafe { CStr::from_ptr(err.message.as_ptr()) }
            .to_str()
            .unwrap()
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{blank_error, message};
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let mut err = blank_error();
        let status = guard(&mut err, || panic!("kernel exploded"));
        assert_eq!(status, Status::Internal.code());
        assert_eq!(err.status, Status::Internal.code());
        assert_eq!(err.index, -1);
        assert!(
            message(&err).contains("kernel exploded"),
            "{}",
            message(&err)
        );
        assert_eq!(guard_value(5, || -> i32 { panic!("again") }), 5);
    }

    #[test]
    fn long_messages_are_cut_at_a_character_boundary() {
        let mut err = blank_error();
        let text = "é".repeat(300);
        let status = guard(&mut err, || Err(Error::InvalidArgument(text.clone())));
        assert_eq!(status, Status::InvalidArgument.code());
        let got = message(&err);
        assert_eq!(got.len(), 254);
        assert!(text.starts_with(&got));
    }

    #[test]
    fn a_cut_message_has_no_gap() {
        // Written in pieces: a 2-byte character that does not fit ends the message,
        // even though a later 1-byte piece would.
        let mut err = blank_error();
        let mut w = MessageWriter {
            buf: &mut err.message,
            len: 0,
            full: false,
        };
        let head = "a".repeat(TCAST_ERROR_MESSAGE_BYTES - 2);
        for piece in [head.as_str(), "é", "z"] {
            w.write_str(piece).unwrap();
        }
        assert_eq!(w.len, TCAST_ERROR_MESSAGE_BYTES - 2);
        assert!(w.full);
        let mut err = blank_error();
        let status = guard(&mut err, || {
            Err(Error::OutOfMemory {
                what: "a test",
                bytes: 12,
            })
        });
        assert_eq!(status, Status::OutOfMemory.code());
        assert_eq!(
            message(&err),
            "out of memory: a test could not get 12 more bytes"
        );
    }

    #[test]
    fn success_clears_the_error_and_null_err_is_fine() {
        let mut err = blank_error();
        assert_eq!(guard(&mut err, || Ok(())), Status::Ok.code());
        assert_eq!((err.status, err.index, message(&err).as_str()), (0, -1, ""));
        let status = guard(std::ptr::null_mut(), || {
            Err(Error::Parse {
                index: Some(3),
                message: "bad".into(),
            })
        });
        assert_eq!(status, Status::Parse.code());
        let mut err = blank_error();
        guard(&mut err, || {
            Err(Error::Parse {
                index: Some(3),
                message: "bad".into(),
            })
        });
        assert_eq!(err.index, 3);
    }
}
