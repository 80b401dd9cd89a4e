// SPDX-License-Identifier: MIT OR Apache-2.0
//! Running a call's work as tasks: on the host's executor (docs/c-api.md section 9), on
//! threads the library starts itself, or on the calling thread alone.
//!
//! An operation splits its elements into at most `threads` contiguous shares, one task
//! each, hands every task its own piece of the output through [`Pieces`] (a piece is
//! lent once, so tasks never share a byte they write), and asks [`Workers::run`] to run
//! them. Nothing here allocates; only starting an own thread does (inside std).

use crate::error::Error;
use crate::quiet::{Inside, Outside};
use crate::simd::fpenv::DefaultFpEnv;
use core::marker::PhantomData;
use core::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The most tasks one call is split into (and the most threads it uses).
pub const MAX_TASKS: usize = 256;

/// A host's executor: runs `task(i)` for every `i` in `0..n`, each exactly once, on any
/// threads and in any order, and returns when all have finished.
pub trait Executor: Sync {
    /// Runs the `n` tasks.
    fn parallel_for(&self, n: usize, task: &(dyn Fn(usize) + Sync));
}

/// Where a call's tasks run.
#[derive(Copy, Clone)]
pub enum Workers<'e> {
    /// Threads the library starts (the calling thread among them), at most `threads`.
    Own { threads: usize },
    /// The host's executor, with at most `threads` tasks.
    Host {
        executor: &'e dyn Executor,
        threads: usize,
    },
}

/// Work an own thread must have before it is worth starting one: a thread start and
/// join costs ~20-40 us on the machines measured (benches/threads.rs), so a share of at
/// least ~1 ms of work keeps that under 5% of the call.
const OWN_MIN_WORK_NS: usize = 1_000_000;
/// Work per task on a host's executor, whose dispatch costs a few microseconds.
const HOST_MIN_WORK_NS: usize = 50_000;
/// The most pieces per own thread ([`Workers::pieces`]).
const PIECES_PER_THREAD: usize = 8;

impl Workers<'_> {
    /// The library's own threads, at most `threads` (0 and 1: the calling thread only).
    pub fn own(threads: usize) -> Workers<'static> {
        Workers::Own { threads }
    }

    /// Whether [`Workers::tasks`] keeps `count` elements in one task whatever the workers
    /// and the cost: it counts work in whole thousands of elements. A call can know this
    /// before it looks at its executor.
    #[inline(always)]
    pub const fn too_few_to_split(count: usize) -> bool {
        count < 1000
    }

    /// How many tasks `count` elements costing about `ns_per_1k` nanoseconds per
    /// thousand elements are split into: at most `threads` (and MAX_TASKS), and only as
    /// many as have enough work each to repay their start-up.
    #[inline]
    pub fn tasks(&self, count: usize, ns_per_1k: usize) -> usize {
        let (threads, min_ns) = match *self {
            Workers::Own { threads } => (threads, OWN_MIN_WORK_NS),
            Workers::Host { threads, .. } => (threads, HOST_MIN_WORK_NS),
        };
        if threads <= 1 || Self::too_few_to_split(count) {
            return 1;
        }
        let work_ns = (count / 1000).saturating_mul(ns_per_1k.max(1));
        (work_ns / min_ns).clamp(1, threads.min(MAX_TASKS))
    }

    /// How many pieces work split for `threads` tasks (from [`Workers::tasks`]) is cut
    /// into, given at most `most` pieces of a useful size: on an executor, one per task
    /// (docs/c-api.md section 9 promises at most `threads` tasks); on own threads up to
    /// PIECES_PER_THREAD per thread, taken one at a time, so that a thread that starts
    /// late (a thread start waits for a core: tens of microseconds idle, milliseconds
    /// with the other core busy) or shares its core leaves its pieces to the others
    /// instead of holding up the call. Never fewer than `threads`.
    #[inline]
    pub fn pieces(&self, threads: usize, most: usize) -> usize {
        match *self {
            Workers::Own { .. } => most
                .min(threads.saturating_mul(PIECES_PER_THREAD))
                .min(MAX_TASKS)
                .max(threads),
            Workers::Host { .. } => threads,
        }
    }

    /// These workers with at most `threads` threads (own threads; an executor keeps its
    /// own): what [`Workers::run`] then starts for more pieces than threads.
    #[inline]
    pub fn at_most(self, threads: usize) -> Self {
        match self {
            Workers::Own { threads: t } => Workers::Own {
                threads: t.min(threads),
            },
            host => host,
        }
    }

    /// Runs `task(i)` for every `i` in `0..n` (n <= MAX_TASKS): one task on the calling
    /// thread; more on the executor or on own threads (at most `threads` of them, the
    /// calling thread among them, each taking the next task when it finishes one). With
    /// an executor, a task it did not run, ran twice or with an index out of range is an
    /// error (INVALID_ARGUMENT).
    pub fn run(&self, n: usize, task: &(dyn Fn(usize) + Sync)) -> Result<(), Error> {
        assert!(n <= MAX_TASKS, "{n} tasks; the most is {MAX_TASKS}");
        if n <= 1 {
            if n == 1 {
                task(0);
            }
            return Ok(());
        }
        match *self {
            Workers::Own { threads } => {
                run_on_own_threads(n, threads.clamp(1, n), task);
                Ok(())
            }
            Workers::Host { executor, .. } => run_on_executor(executor, n, task),
        }
    }
}

/// The stack of a thread the library starts. std's default is 2 MiB, and a build of the
/// library at opt-level 0 (a Rust program's dev profile, or a sdist built so) has kernel
/// entries with frames of over 2 MiB: every body a family's entry inlines keeps its own
/// slots there, where an optimised build's frames stay within a few KiB. 16 MiB is
/// address space, not memory: only the pages a thread touches are backed.
const OWN_THREAD_STACK: usize = 16 << 20;

/// The calling thread and up to `threads` - 1 started threads take the `n` task indices
/// from one counter; a thread that cannot be started leaves its tasks to the others.
fn run_on_own_threads(n: usize, threads: usize, task: &(dyn Fn(usize) + Sync)) {
    let next = AtomicUsize::new(0);
    let work = || {
        // A started thread computes in the default environment too, and a panic on it
        // is the library's (reported by the call, not printed).
        let _env = DefaultFpEnv::enter();
        let _inside = Inside::enter();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            task(i);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            if std::thread::Builder::new()
                .stack_size(OWN_THREAD_STACK)
                .spawn_scoped(scope, work)
                .is_err()
            {
                break;
            }
        }
        work();
    });
}

/// Runs the tasks on a host's executor, checking that it ran each exactly once.
fn run_on_executor(
    executor: &dyn Executor,
    n: usize,
    task: &(dyn Fn(usize) + Sync),
) -> Result<(), Error> {
    let ran = [const { AtomicBool::new(false) }; MAX_TASKS];
    let misuse = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    // The executor is the host's code: a panic of its own there (a job it runs on this
    // thread while the call waits, as rayon's work stealing does) goes to the host's
    // hook. The tasks are library work again, on whichever thread runs them.
    let host_code = Outside::enter();
    executor.parallel_for(n, &|i| {
        let _inside = Inside::enter();
        if i >= n || ran[i].swap(true, Ordering::AcqRel) {
            misuse.store(true, Ordering::Relaxed);
            return;
        }
        // Whatever environment the executor's thread holds, the task computes in the
        // default one and leaves the thread's as it found it.
        let _env = DefaultFpEnv::enter();
        task(i);
        done.fetch_add(1, Ordering::Release);
    });
    drop(host_code);
    let done = done.load(Ordering::Acquire);
    if misuse.load(Ordering::Relaxed) || done != n {
        return Err(Error::InvalidArgument(format!(
            "options.executor ran {done} of {n} tasks before returning, or a task twice or \
             out of range: parallel_for must run task(ctx, i) once for every i in [0, {n}) \
             and return when all have finished"
        )));
    }
    Ok(())
}

/// A buffer split at `starts` into consecutive pieces, each lent out once: tasks that
/// run at the same time get disjoint `&mut` pieces without any lock.
pub struct Pieces<'b> {
    ptr: *mut u8,
    starts: [usize; MAX_TASKS + 1],
    n: usize,
    taken: [AtomicBool; MAX_TASKS],
    buf: PhantomData<&'b mut [u8]>,
}

// SAFETY: a piece is lent at most once (the `taken` flags are atomic), and pieces are
// disjoint (checked in `new`), so sharing a Pieces between threads shares no byte.
unsafe impl Sync for Pieces<'_> {}

impl<'b> Pieces<'b> {
    /// Splits `buf` into pieces `bounds(i)` for i in 0..n, which must be consecutive
    /// (each starts where the previous ended) and inside `buf`.
    pub fn new(buf: &'b mut [u8], n: usize, bounds: impl Fn(usize) -> Range<usize>) -> Pieces<'b> {
        assert!(n <= MAX_TASKS, "{n} pieces; the most is {MAX_TASKS}");
        let mut starts = [0usize; MAX_TASKS + 1];
        let mut end = bounds(0).start;
        starts[0] = end;
        for (i, slot) in starts[1..=n].iter_mut().enumerate() {
            let r = bounds(i);
            assert!(
                r.start == end && r.start <= r.end && r.end <= buf.len(),
                "piece {i} is {r:?}: pieces must be consecutive and inside the {} bytes",
                buf.len()
            );
            end = r.end;
            *slot = end;
        }
        Pieces {
            ptr: buf.as_mut_ptr(),
            starts,
            n,
            taken: [const { AtomicBool::new(false) }; MAX_TASKS],
            buf: PhantomData,
        }
    }

    /// Piece `i`, the first time it is asked for; None after that or out of range.
    pub fn take(&self, i: usize) -> Option<&'b mut [u8]> {
        if i >= self.n || self.taken[i].swap(true, Ordering::AcqRel) {
            return None;
        }
        let (start, end) = (self.starts[i], self.starts[i + 1]);
        // SAFETY: start <= end <= buf.len() (checked in `new`), pieces are disjoint, and
        // piece i is lent only this once (the flag above), so no other reference to
        // these bytes exists for 'b.
        Some(unsafe { core::slice::from_raw_parts_mut(self.ptr.add(start), end - start) })
    }
}

/// The first error of a set of tasks by element index (the lowest index wins), or the
/// first one reported when errors carry no index.
pub struct FirstError {
    slot: Mutex<Option<(usize, Error)>>,
}

impl FirstError {
    pub fn new() -> FirstError {
        FirstError {
            slot: Mutex::new(None),
        }
    }

    /// Keeps `error` if it is at a lower element index than the one kept.
    pub fn offer(&self, error: Error) {
        let at = error
            .index()
            .map_or(usize::MAX, |i| usize::try_from(i).unwrap_or(usize::MAX));
        let mut slot = self.slot.lock().unwrap_or_else(|p| p.into_inner());
        if slot.as_ref().is_none_or(|(kept, _)| at < *kept) {
            *slot = Some((at, error));
        }
    }

    /// The error kept, if any.
    pub fn into_result(self) -> Result<(), Error> {
        match self.slot.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }
}

/// Element shares for `n` tasks over `count` elements: task i takes `share(i)`, starting
/// on multiples of `align` elements (whole cache lines, whole packed bytes).
pub fn shares(count: usize, n: usize, align: usize) -> impl Fn(usize) -> Range<usize> {
    let share = count.div_ceil(n.max(1)).next_multiple_of(align);
    move |i| (i * share).min(count)..((i + 1) * share).min(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs tasks in reverse order on the calling thread.
    struct Reverse;
    impl Executor for Reverse {
        fn parallel_for(&self, n: usize, task: &(dyn Fn(usize) + Sync)) {
            (0..n).rev().for_each(task);
        }
    }

    /// Skips the last task.
    struct Lazy;
    impl Executor for Lazy {
        fn parallel_for(&self, n: usize, task: &(dyn Fn(usize) + Sync)) {
            (0..n - 1).for_each(task);
        }
    }

    /// Runs task 0 twice.
    struct Twice;
    impl Executor for Twice {
        fn parallel_for(&self, n: usize, task: &(dyn Fn(usize) + Sync)) {
            task(0);
            (0..n).for_each(task);
        }
    }

    fn fill(workers: Workers, n: usize) -> Result<Vec<u8>, Error> {
        let mut out = vec![0u8; 1000];
        let share = shares(1000, n, 8);
        let pieces = Pieces::new(&mut out, n, &share);
        workers.run(n, &|i| {
            if let Some(piece) = pieces.take(i) {
                piece.fill(i as u8 + 1);
            }
        })?;
        Ok(out)
    }

    #[test]
    fn every_task_runs_once_on_every_kind_of_worker() {
        let expected: Vec<u8> = (0..1000).map(|k| (k / 128) as u8 + 1).collect();
        let reverse = Reverse;
        for workers in [
            Workers::own(8),
            Workers::Host {
                executor: &reverse,
                threads: 8,
            },
        ] {
            assert_eq!(fill(workers, 8).unwrap(), expected);
        }
    }

    #[test]
    fn an_executor_that_skips_or_repeats_a_task_is_an_error() {
        for executor in [&Lazy as &dyn Executor, &Twice] {
            let workers = Workers::Host {
                executor,
                threads: 4,
            };
            let e = fill(workers, 4).unwrap_err();
            assert_eq!(e.status(), crate::error::Status::InvalidArgument);
            assert!(e.to_string().contains("of 4 tasks"), "{e}");
        }
    }

    /// More pieces than threads: every piece runs once, on at most `threads` threads
    /// (the calling thread among them).
    #[test]
    fn own_threads_take_pieces_in_turn() {
        let w = Workers::own(100);
        assert_eq!(w.pieces(2, 1000), 2 * PIECES_PER_THREAD);
        assert_eq!(w.pieces(2, 0), 2);
        assert_eq!(w.pieces(64, 100_000), MAX_TASKS);
        let host = Workers::Host {
            executor: &Reverse,
            threads: 4,
        };
        assert_eq!(host.pieces(4, 1000), 4);
        let ids = Mutex::new(Vec::new());
        let runs = [const { AtomicUsize::new(0) }; 16];
        w.at_most(2)
            .run(16, &|i| {
                runs[i].fetch_add(1, Ordering::Relaxed);
                let mut ids = ids.lock().unwrap();
                let me = std::thread::current().id();
                if !ids.contains(&me) {
                    ids.push(me);
                }
            })
            .unwrap();
        assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 1));
        let ids = ids.into_inner().unwrap();
        assert!(ids.len() <= 2, "{} threads ran the pieces", ids.len());
    }

    #[test]
    fn small_work_stays_on_one_task() {
        let w = Workers::own(8);
        assert_eq!(w.tasks(1000, 1000), 1);
        assert_eq!(w.tasks(100_000_000, 1000), 8);
        assert_eq!(Workers::own(0).tasks(100_000_000, 1000), 1);
        assert_eq!(Workers::own(100_000).tasks(usize::MAX, 1000), MAX_TASKS);
    }

    #[test]
    fn pieces_are_lent_once() {
        let mut buf = [0u8; 10];
        let pieces = Pieces::new(&mut buf, 2, |i| [0..4, 4..10][i].clone());
        assert_eq!(pieces.take(1).map(|p| p.len()), Some(6));
        assert!(pieces.take(1).is_none());
        assert!(pieces.take(2).is_none());
        assert_eq!(pieces.take(0).map(|p| p.len()), Some(4));
    }
}
