// SPDX-License-Identifier: MIT OR Apache-2.0
//! Two threads beside two threads of memcpy. A 16M-element cast with `threads = 2` through
//! the library's own threads, through a host executor that starts its threads per call
//! (std threads taking task indices from one counter, what a pthread-style C host
//! writes) and through a host executor with one parked worker woken per call (a
//! runtime's standing pool), each beside a 2-thread memcpy of the same bytes (each thread
//! copying half) in the same run; and the 1-thread cast beside a 1-thread memcpy, for
//! reference. Then f64 -> string and string -> f64, one task against two.
//!
//! Times are wall time (several threads work for one call), best of RUNS rounds in which
//! every variant runs once in turn, so that a neighbour's burst hits them alike. Ratio:
//! memcpy's time over the cast's (>= 1: the cast is as fast as copying its bytes).
//! `cargo bench --bench threads [-- N] [--rounds R] [--numeric]` (N elements, default
//! 16M; R rounds, default 7: more find a quiet moment on a busy machine; `--numeric`
//! leaves out the text rows).

mod common;

use std::ffi::c_void;
use std::hint::black_box;
use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use tensorcast::ffi::*;
use tensorcast::{DType, Status};

/// Rounds by default.
const RUNS: usize = 7;
const OK: tcast_status = Status::Ok as tcast_status;

/// One parallel_for's tasks, taken by index from one counter.
struct Job {
    next: AtomicU64,
    n: u64,
    task: tcast_task_fn,
    task_ctx: *mut c_void,
}

// SAFETY: the task context is the library's, valid on any thread until parallel_for
// returns (docs/c-api.md section 9).
unsafe impl Sync for Job {}

fn drain(job: &Job) {
    loop {
        let i = job.next.fetch_add(1, Ordering::Relaxed);
        if i >= job.n {
            break;
        }
        // SAFETY: called as the executor contract says: each index once.
        unsafe { (job.task)(job.task_ctx, i) };
    }
}

/// A host executor that starts n - 1 threads per call and helps on the calling thread.
unsafe extern "C" fn spawn_for(
    _ctx: *mut c_void,
    n: u64,
    task: tcast_task_fn,
    task_ctx: *mut c_void,
) {
    let job = Job {
        next: AtomicU64::new(0),
        n,
        task,
        task_ctx,
    };
    std::thread::scope(|s| {
        for _ in 1..n {
            s.spawn(|| drain(&job));
        }
        drain(&job);
    });
}

/// A standing pool of one worker thread, parked on a condition variable between calls.
struct Pool {
    state: Mutex<PoolState>,
    wake: Condvar,
    done: Condvar,
}

struct PoolState {
    /// The job the worker is to help with (a pointer to the caller's `Job`).
    job: usize,
    /// Jobs posted, and jobs the worker has finished helping with.
    posted: u64,
    finished: u64,
}

impl Pool {
    fn start() -> Arc<Pool> {
        let pool = Arc::new(Pool {
            state: Mutex::new(PoolState {
                job: 0,
                posted: 0,
                finished: 0,
            }),
            wake: Condvar::new(),
            done: Condvar::new(),
        });
        let worker = Arc::clone(&pool);
        std::thread::spawn(move || {
            let mut seen = 0;
            let mut state = worker.state.lock().unwrap();
            loop {
                while state.posted == seen {
                    state = worker.wake.wait(state).unwrap();
                }
                seen = state.posted;
                let job = state.job;
                drop(state);
                // SAFETY: the poster keeps the Job alive until `finished` reaches `seen`.
                drain(unsafe { &*(job as *const Job) });
                state = worker.state.lock().unwrap();
                state.finished = seen;
                worker.done.notify_all();
            }
        });
        pool
    }
}

/// A host executor on a standing [`Pool`] (its `ctx`): wakes the worker, works on the
/// calling thread too, and waits for the worker to finish.
unsafe extern "C" fn pool_for(
    ctx: *mut c_void,
    n: u64,
    task: tcast_task_fn,
    task_ctx: *mut c_void,
) {
    // SAFETY: ctx is the Pool main() keeps alive for the whole run.
    let pool = unsafe { &*ctx.cast::<Pool>() };
    let job = Job {
        next: AtomicU64::new(0),
        n,
        task,
        task_ctx,
    };
    let ticket = {
        let mut state = pool.state.lock().unwrap();
        state.job = &job as *const Job as usize;
        state.posted += 1;
        state.posted
    };
    pool.wake.notify_one();
    drain(&job);
    let mut state = pool.state.lock().unwrap();
    while state.finished != ticket {
        state = pool.done.wait(state).unwrap();
    }
}

fn tensor(data: *mut u8, bytes: usize, shape: &[i64], dtype: DType) -> tcast_tensor {
    tcast_tensor {
        data: data.cast(),
        data_bytes: bytes as u64,
        shape: shape.as_ptr(),
        strides: ptr::null(),
        ndim: shape.len() as i32,
        dtype: dtype.code(),
    }
}

fn options(threads: i32, executor: Option<&tcast_executor>) -> tcast_cast_options {
    let mut o = tcast_cast_options_default();
    o.threads = threads;
    o.executor = executor.map_or(ptr::null(), |e| e as *const _);
    o
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn wall(f: &mut dyn FnMut()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}

/// Every variant's wall time in each round.
struct Rounds(Vec<Vec<Duration>>);

impl Rounds {
    /// Runs every variant once to warm up, then `runs` rounds of each in turn.
    fn run(runs: usize, variants: &mut [&mut dyn FnMut()]) -> Rounds {
        variants.iter_mut().for_each(|f| f());
        let mut times = vec![Vec::with_capacity(runs); variants.len()];
        for _ in 0..runs.max(1) {
            for (t, f) in times.iter_mut().zip(variants.iter_mut()) {
                t.push(wall(*f));
            }
        }
        Rounds(times)
    }

    /// Variant `i`'s best time.
    fn best(&self, i: usize) -> Duration {
        self.0[i].iter().copied().min().unwrap_or_default()
    }

    /// The median over the rounds of variant `a`'s time over variant `b`'s in the same
    /// round (a neighbour's burst slows both of a round alike).
    fn ratio(&self, a: usize, b: usize) -> f64 {
        let mut r: Vec<f64> = (self.0[a].iter().zip(&self.0[b]))
            .map(|(x, y)| x.as_secs_f64() / y.as_secs_f64())
            .collect();
        r.sort_by(f64::total_cmp);
        r[r.len() / 2]
    }
}

/// Copies `a` into `b` on two threads, each copying half (at a 64-byte boundary).
fn copy_on_two(a: &[u8], b: &mut [u8]) {
    let half = (a.len() / 2).next_multiple_of(64).min(a.len());
    let (a0, a1) = a.split_at(half);
    let (b0, b1) = b.split_at_mut(half);
    std::thread::scope(|s| {
        s.spawn(|| b1.copy_from_slice(black_box(a1)));
        b0.copy_from_slice(black_box(a0));
    });
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = RUNS;
    let mut n = 16 << 20;
    let numeric_only = args.iter().any(|a| a == "--numeric");
    let mut k = 0;
    while k < args.len() {
        if args[k] == "--rounds" {
            k += 1;
            runs = args.get(k).and_then(|r| r.parse().ok()).unwrap_or(RUNS);
        } else if let Ok(v) = args[k].parse() {
            n = v;
        }
        k += 1;
    }
    let spawning = tcast_executor {
        ctx: ptr::null_mut(),
        parallel_for: Some(spawn_for),
    };
    let pool = Pool::start();
    let standing = tcast_executor {
        ctx: Arc::as_ptr(&pool).cast_mut().cast(),
        parallel_for: Some(pool_for),
    };
    let mut err = tcast_error {
        status: 0,
        index: 0,
        message: [0; TCAST_ERROR_MESSAGE_BYTES],
    };
    let e: *mut tcast_error = &mut err;
    let shape = [n as i64];
    let cast = |from: DType, src: &[u8], to: DType, dst: &mut [u8], o: &tcast_cast_options| {
        let input = tensor(src.as_ptr().cast_mut(), src.len(), &shape, from);
        let output = tensor(dst.as_mut_ptr(), dst.len(), &shape, to);
        assert_eq!(tcast_cast(black_box(&input), &output, o, e), OK);
    };

    // Sources: magnitudes over 2^-10..2^10, half negative, and each other dtype cast
    // from them.
    let f32s: Vec<f32> = (0..n)
        .map(|i| {
            let m = 1.0 + (i % 1021) as f32 / 1021.0;
            let x = m * 2f32.powi((i % 21) as i32 - 10);
            if i % 2 == 1 {
                -x
            } else {
                x
            }
        })
        .collect();
    // SAFETY: f32 has no padding or invalid bytes.
    let f32_bytes =
        unsafe { std::slice::from_raw_parts(f32s.as_ptr().cast::<u8>(), f32s.len() * 4) };
    let one = options(1, None);
    let mut f16s = vec![0u8; n * 2];
    cast(DType::Float, f32_bytes, DType::Float16, &mut f16s, &one);
    let mut f8s = vec![0u8; n];
    cast(DType::Float, f32_bytes, DType::Float8E4M3Fn, &mut f8s, &one);
    let u8s: Vec<u8> = (0..n).map(|i| (i * 7) as u8).collect();

    println!(
        "{n} elements, wall ms per call (best of {runs} interleaved rounds); ratio = memcpy of \
         the same bytes on as many threads / cast"
    );
    println!(
        "{:<26} {:>8} {:>8} {:>6} | {:>8} {:>8} {:>6} {:>8} {:>6} {:>8} {:>6}",
        "pair",
        "cpy 1t",
        "cast 1t",
        "ratio",
        "cpy 2t",
        "own 2t",
        "ratio",
        "spawn 2t",
        "ratio",
        "pool 2t",
        "ratio"
    );
    let own = options(2, None);
    let spawn = options(2, Some(&spawning));
    let stand = options(2, Some(&standing));
    let mut worst = f64::MAX;
    for (name, from, src, to, ds) in [
        (
            "f32 -> f16",
            DType::Float,
            f32_bytes,
            DType::Float16,
            2usize,
        ),
        ("f16 -> f32", DType::Float16, &f16s[..], DType::Float, 4),
        (
            "f32 -> float8e4m3fn",
            DType::Float,
            f32_bytes,
            DType::Float8E4M3Fn,
            1,
        ),
        (
            "float8e4m3fn -> f32",
            DType::Float8E4M3Fn,
            &f8s[..],
            DType::Float,
            4,
        ),
        ("f32 -> bf16", DType::Float, f32_bytes, DType::Bfloat16, 2),
        ("f32 -> i32", DType::Float, f32_bytes, DType::Int32, 4),
        ("u8 -> f32", DType::Uint8, &u8s[..], DType::Float, 4),
    ] {
        let mut dst = vec![0u8; n * ds];
        let bytes = (src.len() + dst.len()) / 2;
        let (a, b) = (vec![1u8; bytes], std::cell::RefCell::new(vec![0u8; bytes]));
        let dst = std::cell::RefCell::new(&mut dst[..]);
        let run = |o: &tcast_cast_options| cast(from, src, to, &mut dst.borrow_mut(), o);
        let t = Rounds::run(
            runs,
            &mut [
                &mut || b.borrow_mut().copy_from_slice(black_box(&a)),
                &mut || run(&one),
                &mut || copy_on_two(&a, &mut b.borrow_mut()),
                &mut || run(&own),
                &mut || run(&spawn),
                &mut || run(&stand),
            ],
        );
        worst = worst
            .min(t.ratio(2, 3))
            .min(t.ratio(2, 4))
            .min(t.ratio(2, 5));
        println!(
            "{name:<26} {:>8.2} {:>8.2} {:>5.2}x | {:>8.2} {:>8.2} {:>5.2}x {:>8.2} {:>5.2}x {:>8.2} \
             {:>5.2}x",
            ms(t.best(0)),
            ms(t.best(1)),
            t.ratio(0, 1),
            ms(t.best(2)),
            ms(t.best(3)),
            t.ratio(2, 3),
            ms(t.best(4)),
            t.ratio(2, 4),
            ms(t.best(5)),
            t.ratio(2, 5),
        );
    }
    println!(
        "{}",
        common::target_line("lowest 2-thread ratio to a 2-thread memcpy", worst, 0.9)
    );

    if numeric_only {
        return;
    }
    // f64 -> string, then string -> f64 from those texts: one task against two.
    println!();
    println!(
        "{:<26} {:>8} {:>8} {:>7} {:>8} {:>7} {:>8} {:>7}",
        "text, wall ms", "1 task", "own 2t", "speedup", "spawn 2t", "speedup", "pool 2t", "speedup"
    );
    let text_row = |name: &str, call: &dyn Fn(&tcast_cast_options)| {
        let t = Rounds::run(
            runs,
            &mut [
                &mut || call(&one),
                &mut || call(&own),
                &mut || call(&spawn),
                &mut || call(&stand),
            ],
        );
        println!(
            "{name:<26} {:>8.2} {:>8.2} {:>6.2}x {:>8.2} {:>6.2}x {:>8.2} {:>6.2}x",
            ms(t.best(0)),
            ms(t.best(1)),
            t.ratio(0, 1),
            ms(t.best(2)),
            t.ratio(0, 2),
            ms(t.best(3)),
            t.ratio(0, 3),
        );
    };
    let f64s: Vec<f64> = (0..n).map(|i| (i as f64 * 1.37e-3).sin() * 1e4).collect();
    let cap = n * tcast_string_max_bytes(DType::Double.code()) as usize;
    let mut arena = vec![0u8; cap];
    let mut views = vec![
        tcast_string {
            data: ptr::null(),
            len: 0
        };
        n
    ];
    let arena_ptr = arena.as_mut_ptr();
    let input = tensor(f64s.as_ptr() as *mut u8, n * 8, &shape, DType::Double);
    let output = tensor(views.as_mut_ptr().cast(), n * 16, &shape, DType::String);
    text_row("f64 -> string", &|o| {
        let mut a = tcast_string_arena {
            data: arena_ptr.cast(),
            capacity: cap as u64,
            used: 0,
        };
        assert_eq!(tcast_cast_to_strings(&input, &output, &mut a, o, e), OK);
    });
    let mut back = vec![0f64; n];
    let texts = tensor(views.as_mut_ptr().cast(), n * 16, &shape, DType::String);
    let nums = tensor(back.as_mut_ptr().cast(), n * 8, &shape, DType::Double);
    text_row("string -> f64", &|o| {
        assert_eq!(tcast_cast(&texts, &nums, o, e), OK);
    });
    assert!(back == f64s, "the texts read back to the numbers");
}
