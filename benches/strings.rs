// SPDX-License-Identifier: MIT OR Apache-2.0
//! String cast throughput through the C API: elements per second, one thread, 1M
//! elements, best of several runs. `cargo bench --bench strings [-- N]`.

use std::ffi::c_void;
use std::hint::black_box;
mod common;

use std::time::Duration;
use tensorcast::ffi::{
    tcast_cast, tcast_cast_options_default, tcast_cast_to_strings, tcast_error, tcast_string,
    tcast_string_arena, tcast_string_max_bytes, tcast_tensor,
};
use tensorcast::{DType, Status};

const RUNS: usize = 7;

fn best_of(f: impl FnMut()) -> Duration {
    common::best_of(RUNS, f)
}

fn tensor(data: *mut c_void, bytes: usize, shape: &[i64; 1], dtype: i32) -> tcast_tensor {
    tcast_tensor {
        data,
        data_bytes: bytes as u64,
        shape: shape.as_ptr(),
        strides: std::ptr::null(),
        ndim: 1,
        dtype,
    }
}

fn error() -> tcast_error {
    tcast_error {
        status: 0,
        index: -1,
        message: [0; 256],
    }
}

/// Formats `values` (raw bytes of `dtype`) and returns the texts' arena and views.
fn format(dtype: i32, values: &mut [u8], n: usize) -> (Duration, Vec<u8>, Vec<tcast_string>) {
    let shape = [n as i64];
    let mut arena_bytes = vec![0u8; n * tcast_string_max_bytes(dtype) as usize];
    let mut views = vec![
        tcast_string {
            data: std::ptr::null(),
            len: 0
        };
        n
    ];
    let options = tcast_cast_options_default();
    let input = tensor(values.as_mut_ptr().cast(), values.len(), &shape, dtype);
    let time = best_of(|| {
        let output = tensor(
            views.as_mut_ptr().cast(),
            n * 16,
            &shape,
            DType::String.code(),
        );
        let mut arena = tcast_string_arena {
            data: arena_bytes.as_mut_ptr().cast(),
            capacity: arena_bytes.len() as u64,
            used: 0,
        };
        let mut err = error();
        let status = tcast_cast_to_strings(&input, &output, &mut arena, &options, &mut err);
        assert_eq!(status, Status::Ok.code());
        black_box(&views);
    });
    (time, arena_bytes, views)
}

fn parse(dtype: i32, views: &mut [tcast_string], size: usize) -> Duration {
    let n = views.len();
    let shape = [n as i64];
    let mut out = vec![0u8; n * size];
    let options = tcast_cast_options_default();
    best_of(|| {
        let input = tensor(
            views.as_mut_ptr().cast(),
            n * 16,
            &shape,
            DType::String.code(),
        );
        let output = tensor(out.as_mut_ptr().cast(), out.len(), &shape, dtype);
        let mut err = error();
        assert_eq!(
            tcast_cast(&input, &output, &options, &mut err),
            Status::Ok.code()
        );
        black_box(&out);
    })
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1 << 20);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Values of every magnitude: random mantissas with exponents over +-40 decades.
    let mut f64s = Vec::with_capacity(n);
    for _ in 0..n {
        let m = (next() >> 11) as f64 / (1u64 << 53) as f64;
        let e = (next() % 80) as i32 - 40;
        f64s.push(m * 10f64.powi(e) * if next() & 1 == 0 { 1.0 } else { -1.0 });
    }
    let mut f64_bytes: Vec<u8> = f64s.iter().flat_map(|x| x.to_ne_bytes()).collect();
    let mut f32_bytes: Vec<u8> = f64s
        .iter()
        .flat_map(|&x| (x as f32).to_ne_bytes())
        .collect();
    let mut i64_bytes: Vec<u8> = (0..n)
        .flat_map(|_| ((next() as i64) >> (next() % 63)).to_ne_bytes())
        .collect();

    println!(
        "string casts, {n} elements, 1 thread (M elements/s; targets: format >= 25, parse >= 40)"
    );
    let rate = |t: Duration| n as f64 / t.as_secs_f64() / 1e6;
    let mut rows = Vec::new();
    for (name, dtype, bytes, size) in [
        ("FLOAT", DType::Float.code(), &mut f32_bytes, 4),
        ("DOUBLE", DType::Double.code(), &mut f64_bytes, 8),
        ("INT64", DType::Int64.code(), &mut i64_bytes, 8),
    ] {
        let (format_time, _arena, mut views) = format(dtype, bytes, n);
        let parse_time = parse(dtype, &mut views, size);
        rows.push((format!("{name} -> STRING"), rate(format_time)));
        rows.push((format!("STRING -> {name}"), rate(parse_time)));
    }
    for (pair, r) in rows {
        let target = if pair.starts_with("STRING") {
            40.0
        } else {
            25.0
        };
        let verdict = if r >= target { "met" } else { "MISSED" };
        println!("{pair:<20} {r:>8.1} M/s   target >= {target} M/s: {verdict}");
    }
    println!("(targets from docs/performance.md; benchmarks report, they do not fail)");
}
