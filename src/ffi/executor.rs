// SPDX-License-Identifier: MIT OR Apache-2.0
//! Layer 2 of the C ABI: a host's `tcast_executor` as the core's [`Executor`]. Tasks are
//! Rust closures behind one `extern "C"` trampoline; a panic inside a task is caught on
//! the thread that ran it (it must not unwind through the host's code) and raised again
//! on the calling thread, where the export's guard reports it as TCAST_ERR_INTERNAL.

use super::types::tcast_executor;
use crate::parallel::Executor;
use crate::quiet::Inside;
use std::ffi::c_void;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};

/// A checked executor: `parallel_for` is not NULL.
pub(crate) struct HostExecutor {
    ctx: *mut c_void,
    parallel_for: unsafe extern "C" fn(*mut c_void, u64, super::types::tcast_task_fn, *mut c_void),
}

// SAFETY: docs/c-api.md section 9: the host's executor is called from the thread that
// made the tensorcast call and runs tasks on threads of its choosing; `ctx` is the host's
// and only ever passed back to it.
unsafe impl Sync for HostExecutor {}

impl HostExecutor {
    /// The executor a caller's options point to, or None when `parallel_for` is NULL.
    pub(crate) fn new(raw: tcast_executor) -> Option<HostExecutor> {
        Some(HostExecutor {
            ctx: raw.ctx,
            parallel_for: raw.parallel_for?,
        })
    }
}

/// What the trampoline gets as `task_ctx`.
struct TaskCtx<'t> {
    task: &'t (dyn Fn(usize) + Sync),
    panicked: AtomicBool,
}

/// Runs one task for the host's executor.
///
/// # Safety
/// `task_ctx` is the `TaskCtx` that `parallel_for` below was given, still alive (the
/// executor returns only when every task has finished).
unsafe extern "C" fn trampoline(task_ctx: *mut c_void, task_index: u64) {
    // SAFETY: per this function's contract.
    let ctx = unsafe { &*task_ctx.cast::<TaskCtx>() };
    // An index beyond usize is out of range: the task refuses it (and the call fails).
    let i = usize::try_from(task_index).unwrap_or(usize::MAX);
    // A panic in the task is reported by the call, not printed on the host's thread.
    let _inside = Inside::enter();
    if panic::catch_unwind(AssertUnwindSafe(|| (ctx.task)(i))).is_err() {
        ctx.panicked.store(true, Ordering::Relaxed);
    }
}

impl Executor for HostExecutor {
    fn parallel_for(&self, n: usize, task: &(dyn Fn(usize) + Sync)) {
        let ctx = TaskCtx {
            task,
            panicked: AtomicBool::new(false),
        };
        let task_ctx = core::ptr::addr_of!(ctx).cast_mut().cast::<c_void>();
        // SAFETY: the host's function, called as docs/c-api.md section 9 describes; `ctx`
        // outlives the call, which returns only when every task has finished.
        unsafe { (self.parallel_for)(self.ctx, n as u64, trampoline, task_ctx) };
        if ctx.panicked.load(Ordering::Relaxed) {
            panic::resume_unwind(Box::new("a task panicked on the host's executor"));
        }
    }
}
