// SPDX-License-Identifier: MIT OR Apache-2.0
//! Shared by the benchmarks: timing on the thread's CPU clock, best-of-N, and how a
//! target is reported.

use std::hint::black_box;
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

/// Whether the benchmark's command line asks for the busy column (`--busy`). When it
/// does, this thread is pinned to a CPU of its own (the first the process may use), the
/// neighbour of [`Neighbour::start`] goes to another, and a line says where both run.
#[allow(dead_code)] // not every benchmark has a busy column
pub fn busy_flag() -> bool {
    let busy = std::env::args().skip(1).any(|a| a == "--busy");
    if busy {
        let cpus = allowed_cpus();
        let placement = match cpus[..] {
            [mine, other, ..] if pin_this_thread(mine) => {
                let _ = NEIGHBOUR_CPU.set(Some(other));
                format!("measuring on CPU {mine}, the busy neighbour on CPU {other}")
            }
            _ => {
                let _ = NEIGHBOUR_CPU.set(None);
                format!(
                    "note: {} CPU(s) to run on, or no pinning on this system: the busy \
                     neighbour runs unpinned and shares the CPUs with the measuring thread",
                    cpus.len()
                )
            }
        };
        println!(
            "busy column: a compute-bound neighbour thread runs during the busy turns; {placement}"
        );
    }
    busy
}

/// The CPU the neighbour is pinned to (set by [`busy_flag`]; `None`: unpinned).
static NEIGHBOUR_CPU: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();

/// A CPU set as Linux's sched_{get,set}affinity take it: 1024 bits.
type CpuMask = [u64; 16];

#[cfg(target_os = "linux")]
extern "C" {
    fn sched_getaffinity(pid: i32, size: usize, mask: *mut CpuMask) -> i32;
    fn sched_setaffinity(pid: i32, size: usize, mask: *const CpuMask) -> i32;
}

/// The CPUs this thread may run on, in order (empty where the system does not say).
fn allowed_cpus() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        let mut mask: CpuMask = [0; 16];
        // SAFETY: `mask` is a writable buffer of exactly the size passed; pid 0 is the
        // calling thread.
        let status = unsafe { sched_getaffinity(0, size_of::<CpuMask>(), &mut mask) };
        if status == 0 {
            return (0..1024)
                .filter(|&cpu| (mask[cpu / 64] >> (cpu % 64)) & 1 == 1)
                .collect();
        }
    }
    Vec::new()
}

/// Pins the calling thread to `cpu`; whether the system let it.
fn pin_this_thread(cpu: usize) -> bool {
    #[cfg(target_os = "linux")]
    if cpu < 1024 {
        let mut mask: CpuMask = [0; 16];
        mask[cpu / 64] = 1 << (cpu % 64);
        // SAFETY: `mask` is a readable buffer of exactly the size passed; pid 0 is the
        // calling thread.
        return unsafe { sched_setaffinity(0, size_of::<CpuMask>(), &mask) } == 0;
    }
    let _ = cpu;
    false
}

/// A compute-bound neighbour: a thread that, for as long as this guard lives, runs
/// dependent floating-point multiply-add chains and integer multiply/rotate/xor mixes on
/// a handful of locals held in registers, touching no memory but one shared flag every
/// few thousand steps. It stands for the host's other threads computing beside a cast:
/// it takes no memory bandwidth, only whatever the two CPUs share (execution ports of a
/// core's sibling threads under a hypervisor, power and clock).
#[allow(dead_code)] // not every benchmark has a busy column
pub struct Neighbour {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[allow(dead_code)] // not every benchmark has a busy column
impl Neighbour {
    /// Starts the neighbour (on the CPU [`busy_flag`] chose, if any) and returns once it
    /// is computing.
    pub fn start() -> Neighbour {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let stop = Arc::new(AtomicBool::new(false));
        let running = Arc::new(AtomicBool::new(false));
        let cpu = NEIGHBOUR_CPU.get().copied().flatten();
        let thread = std::thread::spawn({
            let (stop, running) = (Arc::clone(&stop), Arc::clone(&running));
            move || {
                if let Some(cpu) = cpu {
                    pin_this_thread(cpu);
                }
                running.store(true, Ordering::Release);
                let (wall, cpu) = (Instant::now(), on_cpu_ns());
                compute_until(&stop);
                if let (Some(a), Some(b)) = (cpu, on_cpu_ns()) {
                    NEIGHBOUR_NS[0].fetch_add(wall.elapsed().as_nanos() as u64, Ordering::Relaxed);
                    NEIGHBOUR_NS[1].fetch_add(b - a, Ordering::Relaxed);
                }
            }
        });
        while !running.load(Ordering::Acquire) {
            std::thread::yield_now();
        }
        Neighbour {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Neighbour {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.join().expect("the neighbour thread does not panic");
        }
    }
}

/// The neighbour's wall time and on-CPU time, in nanoseconds, summed over its runs since
/// the last [`neighbour_share`].
static NEIGHBOUR_NS: [std::sync::atomic::AtomicU64; 2] = [
    std::sync::atomic::AtomicU64::new(0),
    std::sync::atomic::AtomicU64::new(0),
];

/// A line saying how much of the busy turns (since the last call) the neighbour spent on
/// its CPU: on a shared machine other processes take their part of that CPU too, and a
/// neighbour that computed a third of the time made a third of the load. `None` where
/// the system gives no thread CPU clock.
#[allow(dead_code)] // not every benchmark has a busy column
pub fn neighbour_share() -> Option<String> {
    use std::sync::atomic::Ordering;
    let wall = NEIGHBOUR_NS[0].swap(0, Ordering::Relaxed);
    let cpu = NEIGHBOUR_NS[1].swap(0, Ordering::Relaxed);
    (wall > 0).then(|| {
        format!(
            "busy turns: the neighbour computed {:.0}% of the time (the rest of its CPU's \
             time went to other processes)",
            100.0 * cpu as f64 / wall as f64
        )
    })
}

/// The neighbour's work: eight independent floating-point chains (a multiply and an add
/// each step, converging to a fixed point far from subnormals and overflow) and four
/// integer chains, all in registers, until `stop` is set.
fn compute_until(stop: &std::sync::atomic::AtomicBool) {
    let mut f = [1.0f64, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5];
    let mut k = [
        0x9e37_79b9_7f4a_7c15u64,
        0xbf58_476d_1ce4_e5b9,
        0x94d0_49bb_1331_11eb,
        0x2545_f491_4f6c_dd1d,
    ];
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        for _ in 0..4096 {
            for x in &mut f {
                *x = *x * 0.999_999_9 + 0.000_1;
            }
            for (i, h) in k.iter_mut().enumerate() {
                *h = (h.rotate_left(17) ^ i as u64).wrapping_mul(0x2127_599b_f432_5c37);
            }
        }
    }
    black_box((f, k));
}

/// Times `jobs` in turns, `runs` rounds after one warm-up round, each job timed on the
/// thread's CPU clock ([`time`]), and returns the best time of each job on an idle
/// machine and, when `busy`, the best time of each with a [`Neighbour`] computing: every
/// round runs all jobs idle, then all of them again with a neighbour started for the
/// busy turn, so both columns see the same hour of the machine.
#[allow(dead_code)] // not every benchmark uses it
pub fn idle_and_busy(
    runs: usize,
    busy: bool,
    jobs: &mut [&mut dyn FnMut()],
) -> (Vec<Duration>, Option<Vec<Duration>>) {
    for job in jobs.iter_mut() {
        job();
    }
    let mut idle = vec![Duration::MAX; jobs.len()];
    let mut loaded = vec![Duration::MAX; jobs.len()];
    for _ in 0..runs {
        for (job, best) in jobs.iter_mut().zip(&mut idle) {
            *best = (*best).min(time(job));
        }
        if busy {
            let _neighbour = Neighbour::start();
            for (job, best) in jobs.iter_mut().zip(&mut loaded) {
                *best = (*best).min(time(job));
            }
        }
    }
    (idle, busy.then_some(loaded))
}
