// SPDX-License-Identifier: MIT OR Apache-2.0
//! One task against two, through the library's own threads and through a host executor
//! written in C terms (a pthread-style pool: std threads started per call, taking task
//! indices from one counter), for f32 -> f16, f32 -> float8 e4m3fn, f64 -> string and
//! string -> f64. Prints ms per call (best of several runs), memcpy of the numeric pairs'
//! bytes in the same run, and the speedups. `cargo bench --bench threads [-- N]` (N
//! elements, default 16M).

mod common;

use std::ffi::c_void;
use std::hint::black_box;
use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tensorcast::ffi::*;
use tensorcast::{DType, Status};

const RUNS: usize = 5;
const OK: tcast_status = Status::Ok as tcast_status;

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

/// A host executor: starts n - 1 threads per call and helps on the calling thread.
unsafe extern "C" fn pool_for(
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

/// Times `call` with one task, two own threads and two tasks on the executor, and prints
/// the row (with memcpy's time when given).
fn row(
    name: &str,
    executor: &tcast_executor,
    copy: Option<Duration>,
    call: impl Fn(&tcast_cast_options),
) {
    let time = |o: tcast_cast_options| common::best_of(RUNS, || call(&o));
    let one = time(options(1, None));
    let own = time(options(2, None));
    let host = time(options(2, Some(executor)));
    let copy = copy.map_or("-".to_string(), |c| format!("{:.2}", ms(c)));
    println!(
        "{name:<26} {:>9.2} {:>12.2} {:>7.2}x {:>14.2} {:>7.2}x {copy:>9}",
        ms(one),
        ms(own),
        one.as_secs_f64() / own.as_secs_f64(),
        ms(host),
        one.as_secs_f64() / host.as_secs_f64(),
    );
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(16 << 20);
    let executor = tcast_executor {
        ctx: ptr::null_mut(),
        parallel_for: Some(pool_for),
    };
    let mut err = tcast_error {
        status: 0,
        index: 0,
        message: [0; TCAST_ERROR_MESSAGE_BYTES],
    };
    let e: *mut tcast_error = &mut err;
    let shape = [n as i64];
    println!("{n} elements, ms per call (best of {RUNS}); speedup = 1 task / 2 tasks");
    println!(
        "{:<26} {:>9} {:>12} {:>8} {:>14} {:>8} {:>9}",
        "pair", "1 thread", "2 own thr.", "speedup", "2 on executor", "speedup", "memcpy"
    );
    let f32s: Vec<f32> = (0..n)
        .map(|i| (i % 10007) as f32 * 0.731 - 3000.0)
        .collect();
    let f64s: Vec<f64> = (0..n).map(|i| (i as f64 * 1.37e-3).sin() * 1e4).collect();

    for (name, to, es, ds) in [
        ("f32 -> f16", DType::Float16, 4usize, 2usize),
        ("f32 -> float8e4m3fn", DType::Float8E4M3Fn, 4, 1),
    ] {
        let mut dst = vec![0u8; n * ds];
        let input = tensor(f32s.as_ptr() as *mut u8, n * es, &shape, DType::Float);
        let output = tensor(dst.as_mut_ptr(), n * ds, &shape, to);
        let bytes = n * (es + ds) / 2;
        let (a, mut b) = (vec![1u8; bytes], vec![0u8; bytes]);
        let copy = common::best_of(RUNS, || b.copy_from_slice(black_box(&a)));
        row(name, &executor, Some(copy), |o| {
            assert_eq!(tcast_cast(black_box(&input), &output, o, e), OK);
        });
    }

    // f64 -> string, then string -> f64 from those texts.
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
    row("f64 -> string", &executor, None, |o| {
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
    row("string -> f64", &executor, None, |o| {
        assert_eq!(tcast_cast(&texts, &nums, o, e), OK);
    });
    assert!(back == f64s, "the texts read back to the numbers");
}
