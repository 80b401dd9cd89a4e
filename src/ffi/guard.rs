// SPDX-License-Identifier: MIT OR Apache-2.0
//! The boundary's guard: every export runs its body through [`guard`] (or
//! [`guard_value`]), so no panic crosses into C, and the outcome is written into the
//! caller's `tcast_error` without allocating. A panic prints nothing on the way
//! (`crate::quiet`). The body runs in the default
//! floating-point environment ([`DefaultFpEnv`]).

use super::types::{tcast_error, tcast_status, TCAST_ERROR_MESSAGE_BYTES};
use crate::error::{Error, Status};
use crate::quiet::{self, Inside};
use crate::simd::fpenv::DefaultFpEnv;
use core::fmt::Write;
use std::ffi::c_char;
use std::panic::{self, AssertUnwindSafe};

/// Writes the outcome of a call into `err` (when not NULL) and returns its status. The
/// message is formatted straight into the caller's array (no allocation, so that an
/// out-of-memory error can be reported too), cut at a character boundary.
fn report(err: *mut tcast_error, outcome: Result<(), Error>) -> tcast_status {
    let (status, index) = match &outcome {
        Ok(()) => (Status::Ok as i32, -1),
        Err(e) => (
            e.status() as i32,
            e.index().and_then(|i| i64::try_from(i).ok()).unwrap_or(-1),
        ),
    };
    if !err.is_null() {
        // SAFETY: a non-NULL `err` points to a writable tcast_error (docs/c-api.md section 1).
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
/// The body computes in the default floating-point environment, whatever the caller's
/// thread holds; the caller's modes come back on return.
pub(crate) fn guard(
    err: *mut tcast_error,
    body: impl FnOnce() -> Result<(), Error>,
) -> tcast_status {
    let _env = DefaultFpEnv::enter();
    guard_integer(err, body)
}

/// [`guard`] for an export whose own work has no float instruction (shapes, byte copies,
/// dtype lookups): the floating-point environment is not read. Tasks it splits its work
/// into set the default environment themselves (`parallel.rs`).
pub(crate) fn guard_integer(
    err: *mut tcast_error,
    body: impl FnOnce() -> Result<(), Error>,
) -> tcast_status {
    quiet::install_hook();
    let _inside = Inside::enter();
    let outcome = panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| {
        Err(Error::Internal(format!(
            "internal error (a bug in tensorcast): {}",
            panic_text(payload.as_ref())
        )))
    });
    report(err, outcome)
}

/// Runs the body of an infallible export, returning `fallback` if it panics. Those are
/// lookups with no float instruction: the floating-point environment is not read.
pub(crate) fn guard_value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    quiet::install_hook();
    let _inside = Inside::enter();
    panic::catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// Helpers for the unit tests of the exports.
#[cfg(test)]
pub(crate) mod test_support {
    use super::*;
    use std::ffi::CStr;

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
        assert_eq!(status, Status::Internal as i32);
        assert_eq!(err.status, Status::Internal as i32);
        assert_eq!(err.index, -1);
        assert!(
            message(&err).contains("kernel exploded"),
            "{}",
            message(&err)
        );
        assert_eq!(guard_value(5, || -> i32 { panic!("again") }), 5);
    }

    /// A host's executor that first runs a job of the host's own on the calling thread,
    /// which panics (and is caught by the host, as rayon catches a job's panic), then
    /// the call's tasks.
    unsafe extern "C" fn stealing_executor(
        _ctx: *mut std::ffi::c_void,
        n_tasks: u64,
        task: crate::ffi::types::tcast_task_fn,
        task_ctx: *mut std::ffi::c_void,
    ) {
        let job = std::panic::catch_unwind(|| panic!("stolen host boom"));
        assert!(job.is_err());
        for i in 0..n_tasks {
            // SAFETY: the task and its context as the library handed them over.
            unsafe { task(task_ctx, i) };
        }
    }

    /// The child half of `a_caught_panic_prints_nothing`: runs only in the process that
    /// test starts, where nothing captures the panic hook's output.
    #[test]
    fn quiet_panic_child() {
        if std::env::var_os("TCAST_QUIET_PANIC_CHILD").is_none() {
            return;
        }
        let mut err = blank_error();
        assert_eq!(
            guard(&mut err, || panic!("inside boom")),
            Status::Internal as i32
        );
        let on_a_worker = guard(&mut err, || {
            crate::parallel::Workers::own(2).run(2, &|i| {
                if i == 1 {
                    panic!("worker boom");
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            })
        });
        assert_eq!(on_a_worker, Status::Internal as i32);
        assert_eq!(guard_value(1, || -> i32 { panic!("value boom") }), 1);
        // A job of the host's own that its executor runs on the thread waiting inside a
        // call (as rayon's work stealing does) panics: that reaches the host's hook,
        // while the library's task that panics on the executor stays silent.
        let host = crate::ffi::executor::HostExecutor::new(crate::ffi::types::tcast_executor {
            ctx: std::ptr::null_mut(),
            parallel_for: Some(stealing_executor),
        })
        .unwrap();
        let stolen = guard(&mut err, || {
            crate::parallel::Workers::Host {
                executor: &host,
                threads: 2,
            }
            .run(2, &|i| {
                if i == 1 {
                    panic!("executor task boom");
                }
            })
        });
        assert_eq!(stolen, Status::Internal as i32);
        assert!(
            message(&err).contains("a task panicked"),
            "{}",
            message(&err)
        );
        // A panic of the host's own, outside any call, still reaches the hook it had.
        let outside = std::panic::catch_unwind(|| panic!("host boom"));
        assert!(outside.is_err());
    }

    #[test]
    fn a_caught_panic_prints_nothing() {
        // Under an emulator (scripts/test-cross.sh), the program runs through cargo's
        // runner for this target, which its environment names.
        let arch = std::env::consts::ARCH.to_uppercase();
        let runner: Vec<String> = std::env::vars()
            .find(|(key, _)| {
                key.starts_with(&format!("CARGO_TARGET_{arch}_")) && key.ends_with("_RUNNER")
            })
            .map(|(_, value)| value.split_whitespace().map(String::from).collect())
            .unwrap_or_default();
        let exe = std::env::current_exe().unwrap();
        let mut command = match runner.split_first() {
            Some((emulator, args)) => {
                let mut command = std::process::Command::new(emulator);
                command.args(args).arg(&exe);
                command
            }
            None => std::process::Command::new(&exe),
        };
        let child = command
            .args([
                "--exact",
                "ffi::guard::tests::quiet_panic_child",
                "--nocapture",
            ])
            .args(["--test-threads", "1"])
            .env("TCAST_QUIET_PANIC_CHILD", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&child.stderr);
        let stdout = String::from_utf8_lossy(&child.stdout);
        assert!(child.status.success(), "{stdout}\n{stderr}");
        assert!(stdout.contains("1 passed"), "{stdout}");
        for quiet in [
            "inside boom",
            "worker boom",
            "value boom",
            "executor task boom",
            "scoped thread",
        ] {
            assert!(!stderr.contains(quiet), "printed {quiet:?}: {stderr}");
        }
        // The host's own panics, outside a call and inside one (a job its executor ran
        // while the call waited), each reach the hook the library replaced.
        assert_eq!(stderr.matches("stolen host boom").count(), 1, "{stderr}");
        assert_eq!(stderr.matches("host boom").count(), 2, "{stderr}");
    }

    #[test]
    fn long_messages_are_cut_at_a_character_boundary() {
        let mut err = blank_error();
        let text = "é".repeat(300);
        let status = guard(&mut err, || Err(Error::InvalidArgument(text.clone())));
        assert_eq!(status, Status::InvalidArgument as i32);
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
        assert_eq!(status, Status::OutOfMemory as i32);
        assert_eq!(
            message(&err),
            "out of memory: a test could not get 12 more bytes"
        );
    }

    #[test]
    fn success_clears_the_error_and_null_err_is_fine() {
        let mut err = blank_error();
        assert_eq!(guard(&mut err, || Ok(())), Status::Ok as i32);
        assert_eq!((err.status, err.index, message(&err).as_str()), (0, -1, ""));
        let status = guard(std::ptr::null_mut(), || {
            Err(Error::Parse {
                index: Some(3),
                message: "bad".into(),
            })
        });
        assert_eq!(status, Status::Parse as i32);
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
