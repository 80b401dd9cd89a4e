//! Shared by the benchmarks: best-of-N timing.

use std::time::{Duration, Instant};

/// Runs `f` once to warm up, then `runs` times, and returns the fastest run.
pub fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}
