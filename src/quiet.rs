// SPDX-License-Identifier: MIT OR Apache-2.0
//! Panics inside the library print nothing (docs/c-api.md section 8). The exports catch
//! every panic and report it as TCAST_ERR_INTERNAL, but Rust's panic hook runs first, and
//! its default one writes the message to stderr, which may be closed, a broken pipe or a
//! full one. [`Inside`] marks a thread as running library work; the hook that
//! [`install_hook`] puts in front of the existing one says nothing for a panic on a marked
//! thread and hands every other panic to the hook it replaced, so a Rust host that links
//! the crate keeps its own reporting for its own panics. The host's code that a call runs
//! (its executor) is unmarked while it runs ([`Outside`]), wherever it runs.

use std::cell::Cell;
use std::panic;
use std::sync::{Once, OnceLock};

thread_local! {
    /// How many [`Inside`] guards the thread holds (exports may nest through tests).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// While alive, the thread runs library work: a panic on it is not reported by the hook.
/// Holds the thread's counter, so that leaving costs no second thread-local lookup (and
/// the guard cannot move to another thread: a raw pointer is neither Send nor Sync).
pub(crate) struct Inside(*const Cell<u32>);

impl Inside {
    #[inline]
    pub(crate) fn enter() -> Inside {
        // A thread being torn down has no counter any more; it counts as inside anyway.
        let depth = DEPTH.try_with(|depth| {
            depth.set(depth.get().wrapping_add(1));
            depth as *const Cell<u32>
        });
        Inside(depth.unwrap_or(std::ptr::null()))
    }
}

impl Drop for Inside {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: a non-NULL pointer is this thread's counter, which lives as long as the
        // thread, and this guard never leaves the thread that made it (it is !Send).
        if let Some(depth) = unsafe { self.0.as_ref() } {
            depth.set(depth.get().wrapping_sub(1));
        }
    }
}

/// While alive, the thread runs the host's code from inside a library call: its
/// executor's `parallel_for`, which may run jobs of the host's own on the waiting thread
/// (rayon steals work so). A panic there is the host's and reaches its hook; the tasks
/// the executor runs for the call mark themselves with [`Inside`] again. Dropping it
/// gives the thread back the depth it had.
pub(crate) struct Outside {
    depth: *const Cell<u32>,
    saved: u32,
}

impl Outside {
    #[inline]
    pub(crate) fn enter() -> Outside {
        DEPTH
            .try_with(|depth| Outside {
                depth: depth as *const Cell<u32>,
                saved: depth.replace(0),
            })
            .unwrap_or(Outside {
                depth: std::ptr::null(),
                saved: 0,
            })
    }
}

impl Drop for Outside {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: as for Inside: this thread's counter, and the guard is !Send.
        if let Some(depth) = unsafe { self.depth.as_ref() } {
            depth.set(self.saved);
        }
    }
}

/// Whether the current thread runs library work. A thread being torn down (its
/// thread-locals gone) counts as inside: only library code runs there then.
pub(crate) fn inside() -> bool {
    DEPTH.try_with(|depth| depth.get() > 0).unwrap_or(true)
}

/// The hook the quiet one replaced, which gets every panic not on a marked thread.
type Hook = Box<dyn Fn(&panic::PanicHookInfo<'_>) + Sync + Send + 'static>;
static PREVIOUS: OnceLock<Hook> = OnceLock::new();

/// Puts the quiet hook in front of the current one, once per process. Called by the
/// exports before their work, so that the first panic is already covered. Allocates
/// nothing (the numeric calls promise that, the first one included): the hook is a
/// function, whose box holds no bytes, and the replaced hook keeps its own box.
pub(crate) fn install_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // `take_hook` panics on a panicking thread; an export is never entered from one
        // (a panic does not cross into C), but stay out of the way if it ever were.
        if std::thread::panicking() {
            return;
        }
        let _ = PREVIOUS.set(panic::take_hook());
        panic::set_hook(Box::new(quiet_hook));
    });
}

fn quiet_hook(info: &panic::PanicHookInfo<'_>) {
    if !inside() {
        if let Some(previous) = PREVIOUS.get() {
            previous(info);
        }
    }
}
