// SPDX-License-Identifier: MIT OR Apache-2.0
//! numpy casting-rule queries: can_cast on parsed dtypes through the Rust API and through
//! the C export (handles), tcast_can_cast on tensorcast dtypes, and dtype parses. Queries
//! per second, one thread, best of several runs. `cargo bench --bench np_can_cast`.

mod common;

use std::hint::black_box;
use std::time::Duration;
use tensorcast::ffi::{
    tcast_can_cast, tcast_error, tcast_np_can_cast, tcast_np_dtype, tcast_np_dtype_free,
    tcast_np_dtype_parse,
};
use tensorcast::np::{level, parse, NumpyRules};
use tensorcast::{Casting, DType, Status};

const RUNS: usize = 7;
/// Passes over a query list per timed run.
const REPS: usize = 50_000;
/// The performance target for can_cast on parsed handles (docs/performance.md).
const TARGET_PER_S: f64 = 10e6;

/// A typical mix: numeric, byte order, strings, datetimes, structured and subarrays;
/// the casting level cycles through no .. unsafe.
const PAIRS: &[(&str, &str)] = &[
    ("i4", "i8"),
    ("<i8", ">i4"),
    ("f8", "f4"),
    ("u8", "i8"),
    ("?", "c16"),
    ("i8", "f8"),
    ("f2", "c8"),
    ("l", "q"),
    ("i4", "S11"),
    ("f8", "U32"),
    ("S5", "U4"),
    ("U10", "S10"),
    ("S5", "S"),
    ("M8[ns]", "M8[s]"),
    ("M8[D]", "M8[ns]"),
    ("m8[Y]", "m8[D]"),
    ("M8[1000ns]", "M8[us]"),
    ("i8", "m8[s]"),
    ("i4,f8", "i8,f8"),
    ("i4,i4", "i4"),
    ("(2,)i4", "(2,)i8"),
];

const TENSOR_PAIRS: &[(i32, i32)] = &[
    (DType::Int32.code(), DType::Int64.code()),
    (DType::Double.code(), DType::Int32.code()),
    (DType::Float.code(), DType::Double.code()),
    (DType::Uint8.code(), DType::Int16.code()),
    (DType::Bool.code(), DType::Float16.code()),
    (DType::Uint64.code(), DType::Int64.code()),
    (DType::Int8.code(), DType::Uint8.code()),
    (DType::Uint16.code(), DType::Uint32.code()),
    (DType::Complex64.code(), DType::Complex128.code()),
    (DType::Complex128.code(), DType::Double.code()),
    (DType::Bfloat16.code(), DType::Float.code()),
    (DType::Float.code(), DType::Bfloat16.code()),
    (DType::Float8E4M3Fn.code(), DType::Float16.code()),
    (DType::Float8E5M2.code(), DType::Float8E4M3Fn.code()),
    (DType::Int4.code(), DType::Int8.code()),
    (DType::Int8.code(), DType::Int4.code()),
    (DType::Qint8.code(), DType::Int32.code()),
    (DType::Int64.code(), DType::String.code()),
    (DType::String.code(), DType::Float.code()),
    (DType::Float16.code(), DType::Float.code()),
];

const SPECS: &[&str] = &["<i4", "float64", "S10", "M8[ns]", "i4,f8", "(2,)i4"];

fn best_of(f: impl FnMut()) -> Duration {
    common::best_of(RUNS, f)
}

fn error() -> tcast_error {
    tcast_error {
        status: 0,
        index: -1,
        message: [0; 256],
    }
}

fn per_second(count: usize, time: Duration) -> f64 {
    count as f64 / time.as_secs_f64()
}

fn report(name: &str, rate: f64, target: Option<f64>) {
    match target {
        Some(t) => println!(
            "{name:<52} {:>8.1} M/s   target >= {:.0} M/s: {} (benchmarks report, they do \
             not fail)",
            rate / 1e6,
            t / 1e6,
            if rate >= t { "met" } else { "MISSED" }
        ),
        None => println!("{name:<52} {:>8.1} M/s", rate / 1e6),
    }
}

/// can_cast through the safe Rust API on dtypes parsed once.
fn rust_queries(pairs: &[(&str, &str)], rules: NumpyRules) -> f64 {
    let parsed: Vec<_> = pairs
        .iter()
        .map(|(a, b)| (parse(a).unwrap(), parse(b).unwrap()))
        .collect();
    let dtypes: Vec<_> = parsed
        .iter()
        .map(|(a, b)| (a.under(rules).unwrap(), b.under(rules).unwrap()))
        .collect();
    let mut allowed = 0usize;
    let time = best_of(|| {
        allowed = 0;
        for _ in 0..REPS {
            for (k, (from, to)) in dtypes.iter().enumerate() {
                let casting = Casting::ALL[k % 5];
                let ok = level(black_box(from), black_box(to), rules) <= casting;
                allowed += usize::from(black_box(ok));
            }
        }
    });
    black_box(allowed);
    per_second(REPS * dtypes.len(), time)
}

/// can_cast through the C export on handles from tcast_np_dtype_parse.
fn ffi_queries(rules: i32) -> f64 {
    let mut err = error();
    let mut handle = |spec: &str| -> *mut tcast_np_dtype {
        let text = std::ffi::CString::new(spec).unwrap();
        let mut out: *mut tcast_np_dtype = std::ptr::null_mut();
        assert_eq!(
            tcast_np_dtype_parse(text.as_ptr(), &mut out, &mut err),
            Status::Ok.code()
        );
        out
    };
    let handles: Vec<_> = PAIRS.iter().map(|(a, b)| (handle(a), handle(b))).collect();
    let mut allowed = 0usize;
    let time = best_of(|| {
        allowed = 0;
        for _ in 0..REPS {
            for (k, &(from, to)) in handles.iter().enumerate() {
                let mut result = 0i32;
                let status = tcast_np_can_cast(
                    black_box(from),
                    black_box(to),
                    (k % 5) as i32,
                    rules,
                    &mut result,
                    &mut err,
                );
                debug_assert_eq!(status, Status::Ok.code());
                allowed += black_box(result) as usize + black_box(status) as usize;
            }
        }
    });
    black_box(allowed);
    for (a, b) in handles {
        tcast_np_dtype_free(a);
        tcast_np_dtype_free(b);
    }
    per_second(REPS * PAIRS.len(), time)
}

/// tcast_can_cast on tensorcast dtype codes.
fn tensor_queries() -> f64 {
    let mut err = error();
    let mut allowed = 0usize;
    let time = best_of(|| {
        allowed = 0;
        for _ in 0..REPS {
            for (k, &(from, to)) in TENSOR_PAIRS.iter().enumerate() {
                let mut result = 0i32;
                let status = tcast_can_cast(
                    black_box(from),
                    black_box(to),
                    (k % 5) as i32,
                    &mut result,
                    &mut err,
                );
                debug_assert_eq!(status, Status::Ok.code());
                allowed += black_box(result) as usize + black_box(status) as usize;
            }
        }
    });
    black_box(allowed);
    per_second(REPS * TENSOR_PAIRS.len(), time)
}

/// Parses of typical specs through the Rust API (the result dropped each time).
fn rust_parses(spec: &str) -> f64 {
    let reps = REPS * 4;
    let time = best_of(|| {
        for _ in 0..reps {
            black_box(parse(black_box(spec)).unwrap());
        }
    });
    per_second(reps, time)
}

/// tcast_np_dtype_parse + tcast_np_dtype_free of a spec.
fn ffi_parses(spec: &str) -> f64 {
    let text = std::ffi::CString::new(spec).unwrap();
    let mut err = error();
    let reps = REPS * 4;
    let time = best_of(|| {
        for _ in 0..reps {
            let mut out: *mut tcast_np_dtype = std::ptr::null_mut();
            let status = tcast_np_dtype_parse(black_box(text.as_ptr()), &mut out, &mut err);
            debug_assert_eq!(status, Status::Ok.code());
            tcast_np_dtype_free(black_box(out));
        }
    });
    per_second(reps, time)
}

fn main() {
    println!(
        "numpy casting rules, 1 thread, best of {RUNS} runs; can_cast over {} typical pairs",
        PAIRS.len()
    );
    let target = Some(TARGET_PER_S);
    report(
        "can_cast, Rust API level() on parsed dtypes (numpy 2)",
        rust_queries(PAIRS, NumpyRules::Numpy2),
        target,
    );
    report(
        "can_cast, Rust API level() on parsed dtypes (numpy 1)",
        rust_queries(PAIRS, NumpyRules::Numpy1),
        target,
    );
    for (group, range) in [
        ("numeric", 0..8),
        ("strings", 8..13),
        ("datetimes", 13..18),
        ("structured / subarray", 18..21),
    ] {
        report(
            &format!("  of which {group} pairs only (numpy 2)"),
            rust_queries(&PAIRS[range], NumpyRules::Numpy2),
            target,
        );
    }
    report(
        "can_cast, C tcast_np_can_cast on handles (numpy 2)",
        ffi_queries(NumpyRules::Numpy2.code()),
        target,
    );
    report(
        "can_cast, C tcast_np_can_cast on handles (numpy 1)",
        ffi_queries(NumpyRules::Numpy1.code()),
        target,
    );
    report(
        &format!("tcast_can_cast on {} tensorcast pairs", TENSOR_PAIRS.len()),
        tensor_queries(),
        target,
    );
    println!("parses per second:");
    for spec in SPECS {
        report(
            &format!("  parse({spec:?}) Rust API"),
            rust_parses(spec),
            None,
        );
        report(
            &format!("  tcast_np_dtype_parse+free({spec:?})"),
            ffi_parses(spec),
            None,
        );
    }
}
