// SPDX-License-Identifier: MIT OR Apache-2.0
//! Shared by the benchmarks: timing on the thread's CPU clock, best-of-N, and how a
//! target is reported.

use std::time::{Duration, Instant};

/// Runs `f` once to warm up, then `runs` times, and returns the fastest run, each timed
/// on the thread's CPU clock ([`time`]).
#[allow(dead_code)] // not every benchmark uses it
pub fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    (0..runs).map(|_| time(&mut f)).min().unwrap()
}

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, out: *mut Timespec) -> i32;
}

/// Nanoseconds this thread has run on a CPU (Linux's CLOCK_THREAD_CPUTIME_ID): on a
/// shared machine a run is often descheduled part-way, and wall time would count the
/// wait.
fn on_cpu_ns() -> Option<u64> {
    if !cfg!(all(target_os = "linux", target_pointer_width = "64")) {
        return None;
    }
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `t` is a writable timespec (two 64-bit fields on 64-bit Linux), and 3 is
    // CLOCK_THREAD_CPUTIME_ID there.
    let status = unsafe { clock_gettime(3, &mut t) };
    (status == 0).then(|| t.sec as u64 * 1_000_000_000 + t.nsec as u64)
}

/// The time `f` takes: on-CPU time where the system reports it, else wall time.
#[allow(dead_code)] // not every benchmark uses it
pub fn time(f: &mut dyn FnMut()) -> Duration {
    let (wall, cpu) = (Instant::now(), on_cpu_ns());
    f();
    match (cpu, on_cpu_ns()) {
        (Some(a), Some(b)) => Duration::from_nanos(b - a),
        _ => wall.elapsed(),
    }
}

/// The line that compares a measured figure with its target from
/// docs/performance.md. A benchmark reports and never fails: a missed target is
/// printed as MISSED for a person to act on, and the exit status stays 0.
#[allow(dead_code)] // not every benchmark has a target
pub fn target_line(what: &str, value: f64, target: f64) -> String {
    let verdict = if value >= target { "met" } else { "MISSED" };
    format!(
        "{what}: {value:.2} (target >= {target} from docs/performance.md: {verdict}; \
         benchmarks report, they do not fail)"
    )
}
