// SPDX-License-Identifier: MIT OR Apache-2.0
//! Shared by the benchmarks: best-of-N timing, and how a target is reported.

use std::time::{Duration, Instant};

/// Runs `f` once to warm up, then `runs` times, and returns the fastest run.
#[allow(dead_code)] // not every benchmark uses it
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
