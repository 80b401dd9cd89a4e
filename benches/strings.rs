// SPDX-License-Identifier: MIT OR Apache-2.0
//! String casts through the C API beside the fastest standalone crate for the same job,
//! on the same values in the same run: elements per second, one thread, 1M elements,
//! best of 9 rounds (tensorcast and the crates timed in turns, on the thread's CPU
//! clock), and tensorcast's ratio to the crate (the target is >= 1.0x,
//! docs/performance.md). `cargo bench --bench strings [-- N] [-- --busy]`
//! (`--busy` adds a second column measured in the same rounds with a compute-bound
//! neighbour thread on the other core, docs/performance.md "Busy machines").
//!
//! Each crate does the whole job tensorcast does: formatting writes every text into
//! one arena and a view of it per element; parsing reads each view into an output
//! array. Formatting: zmij and ryu (FLOAT, DOUBLE), itoa (INT64). Parsing: fast-float2
//! (FLOAT, DOUBLE) and core's `str::parse` (INT64, also on the texts of small integers,
//! "0".."16" as sk_mlp_digits.string's pixels, in 2,560 and 64 Ki elements, with the ns
//! an element of both). An argument that is not a number
//! keeps the jobs whose name contains it ("FLOAT ->", "-> INT64"); the texts to parse
//! are formatted either way.

use std::ffi::c_void;
use std::hint::black_box;
mod common;

use std::time::Duration;
use tensorcast::ffi::{
    tcast_cast, tcast_cast_options_default, tcast_cast_to_strings, tcast_error, tcast_string,
    tcast_string_arena, tcast_string_max_bytes, tcast_tensor,
};
use tensorcast::{DType, Status};

const ROUNDS: usize = 9;

/// Times `jobs` in turns, round after round (a change of the machine's load hits them
/// alike), after one warm-up round; the best round of each, idle and (`--busy`) with a
/// compute-bound neighbour on the other core, in the same rounds.
fn rounds(busy: bool, jobs: &mut [&mut dyn FnMut()]) -> Times {
    let (idle, loaded) = common::idle_and_busy(ROUNDS, busy, jobs);
    Times { idle, loaded }
}

/// The best time of each job, idle and busy.
struct Times {
    idle: Vec<Duration>,
    loaded: Option<Vec<Duration>>,
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

fn empty_views(n: usize) -> Vec<tcast_string> {
    vec![
        tcast_string {
            data: std::ptr::null(),
            len: 0
        };
        n
    ]
}

/// Formatting through the C API: the texts of `values` (raw bytes of `dtype`) into
/// `arena`, their views into `views`.
fn format<'a>(
    dtype: i32,
    values: &'a mut [u8],
    arena: &'a mut [u8],
    views: &'a mut [tcast_string],
) -> impl FnMut() + 'a {
    let n = views.len();
    let options = tcast_cast_options_default();
    move || {
        let shape = [n as i64];
        let input = tensor(values.as_mut_ptr().cast(), values.len(), &shape, dtype);
        let output = tensor(
            views.as_mut_ptr().cast(),
            n * 16,
            &shape,
            DType::String.code(),
        );
        let mut arena = tcast_string_arena {
            data: arena.as_mut_ptr().cast(),
            capacity: arena.len() as u64,
            used: 0,
        };
        let mut err = error();
        let status = tcast_cast_to_strings(&input, &output, &mut arena, &options, &mut err);
        assert_eq!(status, Status::Ok.code());
        black_box(&views);
    }
}

/// The texts of `values` and their views, formatted once.
fn texts(dtype: i32, values: &mut [u8], n: usize) -> (Vec<u8>, Vec<tcast_string>) {
    let mut arena = vec![0u8; n * tcast_string_max_bytes(dtype) as usize];
    let mut views = empty_views(n);
    format(dtype, values, &mut arena, &mut views)();
    (arena, views)
}

/// The same job with a crate: `write(i, room)` writes element i's text at the start of
/// `room` (at least 64 bytes) and returns its length; the texts go one after another
/// into one arena, with a view of each.
fn crate_format(n: usize, mut write: impl FnMut(usize, &mut [u8]) -> usize) -> impl FnMut() {
    let mut arena = vec![0u8; n * 24 + 64];
    let mut views = empty_views(n);
    move || {
        let mut end = 0;
        for (i, view) in views.iter_mut().enumerate() {
            let len = write(i, &mut arena[end..end + 64]);
            *view = tcast_string {
                data: arena[end..].as_ptr().cast(),
                len: len as u64,
            };
            end += len;
        }
        black_box(&views);
    }
}

/// Copies a crate's text into the room.
#[inline(always)]
fn put(room: &mut [u8], text: &str) -> usize {
    room[..text.len()].copy_from_slice(text.as_bytes());
    text.len()
}

/// Parsing through the C API: each view into an element of `dtype` (`size` bytes).
fn parse(dtype: i32, views: &mut [tcast_string], size: usize) -> impl FnMut() + '_ {
    let n = views.len();
    let mut out = vec![0u8; n * size];
    let options = tcast_cast_options_default();
    move || {
        let shape = [n as i64];
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
    }
}

/// The same job with a crate: each view's bytes parsed into an output array.
fn crate_parse<'a, T: Default + Copy + 'a>(
    views: &'a [tcast_string],
    read: impl Fn(&[u8]) -> Option<T> + 'a,
) -> impl FnMut() + 'a {
    let mut out = vec![T::default(); views.len()];
    move || {
        for (slot, view) in out.iter_mut().zip(views) {
            // SAFETY: every view points at `len` bytes of the arena the formatter filled,
            // which outlives this loop.
            let text =
                unsafe { std::slice::from_raw_parts(view.data.cast::<u8>(), view.len as usize) };
            *slot = read(text).expect("the crate parses the text");
        }
        black_box(&out);
    }
}

/// One row: tensorcast's rate beside a crate's (job `theirs` of `t`, tensorcast's being
/// job 0), and their ratio, idle and (`--busy`) busy.
/// STRING -> `dtype` of `views` by tensorcast and by core's `str::parse::<T>`, in turns.
fn small_integers<T: std::str::FromStr + Default + Copy>(
    busy: bool,
    dtype: DType,
    views: &mut [tcast_string],
) -> Times {
    let peer_views = views.to_vec();
    let times = rounds(
        busy,
        &mut [
            &mut parse(dtype.code(), views, std::mem::size_of::<T>()),
            &mut crate_parse(&peer_views, |s| {
                // SAFETY: the formatter wrote ASCII digits, which is UTF-8.
                unsafe { std::str::from_utf8_unchecked(s) }
                    .parse::<T>()
                    .ok()
            }),
        ],
    );
    times
}

fn row(job: &str, n: usize, t: &Times, peer: &str, theirs: usize) {
    let column = |times: &[Duration]| {
        let rate = |t: Duration| n as f64 / t.as_secs_f64() / 1e6;
        let ratio = times[theirs].as_secs_f64() / times[0].as_secs_f64();
        let verdict = if ratio >= 1.0 { "met" } else { "MISSED" };
        format!(
            "{:>10.1} {:>9.1} {ratio:>7.2}x  {verdict:<6}",
            rate(times[0]),
            rate(times[theirs])
        )
    };
    let busy = t
        .loaded
        .as_deref()
        .map(|times| format!(" | {}", column(times)))
        .unwrap_or_default();
    let line = format!("{job:<18} {peer:<12} {}{busy}", column(&t.idle));
    println!("{}", line.trim_end());
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1 << 20);
    let filter = std::env::args()
        .skip(1)
        .find(|a| a.parse::<usize>().is_err() && !a.starts_with("--"));
    let wanted = |job: &str| filter.as_deref().is_none_or(|f| job.contains(f));
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
    let f32s: Vec<f32> = f64s.iter().map(|&x| x as f32).collect();
    let i64s: Vec<i64> = (0..n).map(|_| (next() as i64) >> (next() % 63)).collect();
    let mut f64_bytes: Vec<u8> = f64s.iter().flat_map(|x| x.to_ne_bytes()).collect();
    let mut f32_bytes: Vec<u8> = f32s.iter().flat_map(|x| x.to_ne_bytes()).collect();
    let mut i64_bytes: Vec<u8> = i64s.iter().flat_map(|x| x.to_ne_bytes()).collect();

    let busy = common::busy_flag();
    println!("string casts, {n} elements, 1 thread, M elements/s; ratio = tensorcast / crate (target >= 1.00x)");
    let columns = format!(
        "{:>10} {:>9} {:>8}  {:<6}",
        "tensorcast", "crate M/s", "ratio", ""
    );
    if busy {
        println!("{:<31} {:<37} | busy", "", "idle");
        println!(
            "{:<18} {:<12} {columns} | {}",
            "job",
            "crate",
            columns.trim_end()
        );
    } else {
        println!("{:<18} {:<12} {}", "job", "crate", columns.trim_end());
    }

    let (_f32_arena, f32_views) = texts(DType::Float.code(), &mut f32_bytes, n);
    let (_f64_arena, f64_views) = texts(DType::Double.code(), &mut f64_bytes, n);
    let (_i64_arena, i64_views) = texts(DType::Int64.code(), &mut i64_bytes, n);

    if wanted("FLOAT -> STRING") {
        let (mut arena, mut views) = (vec![0u8; n * 16], empty_views(n));
        let t = rounds(
            busy,
            &mut [
                &mut format(DType::Float.code(), &mut f32_bytes, &mut arena, &mut views),
                &mut crate_format(n, |i, room| {
                    put(room, zmij::Buffer::new().format_finite(f32s[i]))
                }),
                &mut crate_format(n, |i, room| {
                    put(room, ryu::Buffer::new().format_finite(f32s[i]))
                }),
            ],
        );
        row("FLOAT -> STRING", n, &t, "zmij", 1);
        row("FLOAT -> STRING", n, &t, "ryu", 2);
    }
    if wanted("DOUBLE -> STRING") {
        let (mut arena, mut views) = (vec![0u8; n * 24], empty_views(n));
        let t = rounds(
            busy,
            &mut [
                &mut format(DType::Double.code(), &mut f64_bytes, &mut arena, &mut views),
                &mut crate_format(n, |i, room| {
                    put(room, zmij::Buffer::new().format_finite(f64s[i]))
                }),
                &mut crate_format(n, |i, room| {
                    put(room, ryu::Buffer::new().format_finite(f64s[i]))
                }),
            ],
        );
        row("DOUBLE -> STRING", n, &t, "zmij", 1);
        row("DOUBLE -> STRING", n, &t, "ryu", 2);
    }
    if wanted("INT64 -> STRING") {
        let (mut arena, mut views) = (vec![0u8; n * 20], empty_views(n));
        let t = rounds(
            busy,
            &mut [
                &mut format(DType::Int64.code(), &mut i64_bytes, &mut arena, &mut views),
                &mut crate_format(n, |i, room| put(room, itoa::Buffer::new().format(i64s[i]))),
            ],
        );
        row("INT64 -> STRING", n, &t, "itoa", 1);
    }
    let (mut f32_views, mut f64_views, mut i64_views) = (f32_views, f64_views, i64_views);
    if wanted("STRING -> FLOAT") {
        let peer_views = f32_views.clone();
        let t = rounds(
            busy,
            &mut [
                &mut parse(DType::Float.code(), &mut f32_views, 4),
                &mut crate_parse(&peer_views, |s| fast_float2::parse::<f32, _>(s).ok()),
            ],
        );
        row("STRING -> FLOAT", n, &t, "fast-float2", 1);
    }
    if wanted("STRING -> DOUBLE") {
        let peer_views = f64_views.clone();
        let t = rounds(
            busy,
            &mut [
                &mut parse(DType::Double.code(), &mut f64_views, 8),
                &mut crate_parse(&peer_views, |s| fast_float2::parse::<f64, _>(s).ok()),
            ],
        );
        row("STRING -> DOUBLE", n, &t, "fast-float2", 1);
    }
    if wanted("STRING -> INT64") {
        let peer_views = i64_views.clone();
        let t = rounds(
            busy,
            &mut [
                &mut parse(DType::Int64.code(), &mut i64_views, 8),
                &mut crate_parse(&peer_views, |s| {
                    // SAFETY: the formatter wrote ASCII digits and a sign, which is UTF-8.
                    unsafe { std::str::from_utf8_unchecked(s) }
                        .parse::<i64>()
                        .ok()
                }),
            ],
        );
        row("STRING -> INT64", n, &t, "core parse", 1);
    }
    // Small integers as text: scikit-learn's digits (sk_mlp_digits.string), pixel values
    // "0".."16" to INT64, in a call of one model input (2,560 texts) and in a larger one;
    // and 8-bit pixels "0".."255" to UINT8.
    for (job, modulus, count) in [
        ("STRING -> INT64 0..16", 17, 2_560),
        ("STRING -> INT64 0..16", 17, 1 << 16),
        ("STRING -> UINT8 0..255", 256, 1 << 16),
    ] {
        if !wanted(job) {
            continue;
        }
        let mut values: Vec<u8> = (0..count)
            .flat_map(|_| ((next() % modulus) as i64).to_ne_bytes())
            .collect();
        let (_arena, mut views) = texts(DType::Int64.code(), &mut values, count);
        let t = if job.contains("UINT8") {
            small_integers::<u8>(busy, DType::Uint8, &mut views)
        } else {
            small_integers::<i64>(busy, DType::Int64, &mut views)
        };
        let ns = |k: usize| t.idle[k].as_secs_f64() * 1e9 / count as f64;
        let label = job.trim_start_matches("STRING -> ");
        row(&format!("{label} x{count}"), count, &t, "core parse", 1);
        println!(
            "{:<31} {:.2} ns an element, core parse {:.2}",
            "",
            ns(0),
            ns(1)
        );
    }
    if let Some(share) = common::neighbour_share() {
        println!("{share}");
    }
    println!("(benchmarks report, they do not fail)");
}
