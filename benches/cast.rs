// SPDX-License-Identifier: MIT OR Apache-2.0
//! Cast throughput beside memcpy, measured in the same run.
//!
//! For each pair, 16M elements are cast on one thread; GB/s counts bytes read plus bytes
//! written. The memcpy column copies half that many bytes (so it too reads and writes
//! the same total) and the ratio is cast / memcpy. Each figure is the best of several
//! runs, the cast and the copy taking turns. For a narrowing pair two more columns, timed
//! in the same turns, show what the machine allows a cast of that shape: "read", the
//! ratio of a bare read of the input (nothing written), and "plain", the ratio of a plain
//! loop that reads the same input and writes as many output bytes with next to no
//! arithmetic. On a machine that streams reads slower than memcpy's mix of reads and
//! writes both are below 1.0 (a kernel that prefetches can pass "plain", which does not).
//! The column "L2/mem" is the headroom (docs/performance.md): the cast's rate on
//! [`IN_CACHE`] elements, a tensor that stays in L2, cast [`IN_CACHE_REPEATS`] times in a
//! row, over the rate of a memcpy of 16M x 4 bytes from DRAM, both timed in the same
//! turns; at 1.5 or more a kernel is memory-bound on a machine whose memory is up to 1.5x
//! faster per core than this one.
//! The last section casts sub-byte tensors held one element per byte
//! (`SubByteLayout::Unpacked`, ml_dtypes' storage), which the cast reads and writes
//! through kernels of codes one per byte (the decoders of unpacked codes, the
//! encoders that store their codes so).
//! `cargo bench --bench cast [-- N] [-- WORD] [-- --busy]` (N elements, default 16M; WORD
//! keeps only the pairs whose "FROM -> TO" name contains it, ignoring case). `--busy` adds
//! a second column of every figure, measured in the same rounds with a compute-bound
//! neighbour thread on the other core (docs/performance.md, "Busy machines"): the idle
//! ratios are held to >= 1.0 and the busy ones to >= 0.8.

use std::hint::black_box;
mod common;

use std::time::Duration;
use tensorcast::{cast, CastOptions, DType, Layout, SubByteLayout, Tensor, TensorMut};

const RUNS: usize = 9;

/// Elements of the in-cache cast of the "L2/mem" column: 64 Ki, at most 512 KiB of
/// input and output together (FLOAT -> FLOAT: 512 KiB), which stays in a 512 KiB L2 or
/// larger once warm.
const IN_CACHE: usize = 64 << 10;

/// How many times the in-cache cast runs per timing: about a millisecond of work, long
/// against the clock's resolution and the call's fixed cost.
const IN_CACHE_REPEATS: usize = 64;

/// Bytes of each buffer of the DRAM memcpy the "L2/mem" column divides by: 16M x 4
/// bytes, far beyond any last-level cache.
const DRAM_COPY_BYTES: usize = 4 << 24;

fn best_of(f: impl FnMut()) -> Duration {
    common::best_of(RUNS, f)
}

/// The best times of `jobs`, run in turns (so that the load of this shared machine
/// weighs on all alike, and the ratios hold while the absolute figures move), each timed
/// on the CPU: on an idle machine, and (`busy`) in the same rounds with a compute-bound
/// neighbour on the other core ([`common::idle_and_busy`]).
fn best_in_turns<const N: usize>(
    busy: bool,
    mut jobs: [&mut dyn FnMut(); N],
) -> ([Duration; N], Option<[Duration; N]>) {
    let (idle, loaded) = common::idle_and_busy(RUNS, busy, &mut jobs);
    let array = |times: Vec<Duration>| <[Duration; N]>::try_from(times).expect("N times");
    (array(idle), loaded.map(array))
}

/// Source bytes holding ordinary values of `dtype`: half of them negative, magnitudes
/// spread evenly over the exponents from 2^-10 to 2^10 (as weights and activations are:
/// every low-precision format meets values below its smallest normal, and the narrow
/// ones values above their largest, in every vector), no NaN storms; random bytes for
/// the 8-bit and packed codes, which covers every code. (Uniform values of magnitude up
/// to 1000 hid the encoders' slow path below the smallest normal: FLOAT -> FLOAT6 ran
/// at 0.48x memcpy on values in [-1, 1] and 0.8x on those.) A sub-byte dtype is held as
/// `held` says.
fn source(dtype: DType, held: SubByteLayout, n: usize) -> Vec<u8> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::with_capacity(n * 8);
    for _ in 0..n {
        let r = next();
        let unit = (r >> 11) as f64 / (1u64 << 53) as f64;
        let x = (unit * 20.0 - 10.0).exp2() * if r & 1 == 1 { -1.0 } else { 1.0 };
        match dtype {
            DType::Float => out.extend((x as f32).to_ne_bytes()),
            DType::Double => out.extend(x.to_ne_bytes()),
            DType::Float16 => out.extend(half::f16::from_f64(x).to_bits().to_ne_bytes()),
            DType::Bfloat16 => out.extend(half::bf16::from_f64(x).to_bits().to_ne_bytes()),
            DType::Int32 => out.extend((r as i32).to_ne_bytes()),
            DType::Int64 => out.extend((r as i64).to_ne_bytes()),
            // One byte per element, or more than enough for a packed dtype (the tail is
            // trimmed below).
            d if d.bits() <= 8 => out.push(r as u8),
            other => unreachable!("no source data for {other}"),
        }
    }
    out.truncate(layout(dtype, held, &[n]).bytes());
    out
}

/// The layout of a contiguous tensor of `dtype` and `dims`, a sub-byte dtype held as
/// `held` says.
fn layout(dtype: DType, held: SubByteLayout, dims: &[usize]) -> Layout<'_> {
    Layout::with_sub_byte_layout("bench", dtype, dims, None, held).unwrap()
}

/// Reads every byte of `bytes` (eight at a time, folded into one word) and writes
/// nothing: how fast this thread can stream a cast's input.
fn read_all(bytes: &[u8]) -> u64 {
    let words = bytes.chunks_exact(8);
    let tail = words
        .remainder()
        .iter()
        .fold(0u64, |a, &b| a ^ u64::from(b));
    words.fold(tail, |a, w| {
        a ^ u64::from_ne_bytes(w.try_into().expect("eight bytes"))
    })
}

/// Reads every byte of `src` and writes every byte of `dst` (in whole 32-byte blocks,
/// `k = src.len() / dst.len()` input blocks to each): each 32-byte block of `dst` is the XOR of
/// the `k` blocks of `src` it stands for, a loop the compiler vectorises. It moves the
/// bytes a narrowing cast moves, in the same order, with next to no arithmetic: how fast
/// this thread can run a cast of that shape at all.
fn narrowing_shape(src: &[u8], dst: &mut [u8]) {
    let k = src.len() / dst.len();
    for (out, block) in dst.chunks_exact_mut(32).zip(src.chunks_exact(32 * k)) {
        let mut acc = [0u8; 32];
        for part in block.chunks_exact(32) {
            for (a, &b) in acc.iter_mut().zip(part) {
                *a ^= b;
            }
        }
        out.copy_from_slice(&acc);
    }
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(16 << 20);
    let filter: Option<String> = std::env::args()
        .skip(1)
        .find(|a| a.parse::<usize>().is_err() && !a.starts_with('-'))
        .map(|a| a.to_ascii_lowercase());
    use SubByteLayout::{Packed, Unpacked};
    let numeric = [
        (DType::Float, DType::Float16),
        (DType::Float16, DType::Float),
        (DType::Float, DType::Bfloat16),
        (DType::Bfloat16, DType::Float),
        (DType::Double, DType::Float),
        (DType::Double, DType::Float16),
        (DType::Float, DType::Int32),
        (DType::Int64, DType::Int32),
        (DType::Int32, DType::Float),
        (DType::Float, DType::Bool),
        (DType::Uint8, DType::Float),
        (DType::Int8, DType::Float),
    ]
    .map(|(from, to)| (from, to, Packed));
    use DType::{
        Bfloat16, Float, Float16, Float4E2M1, Float6E2M3, Float6E3M2, Float8E4M3Fn, Float8E4M3Fnuz,
        Float8E5M2, Float8E5M2Fnuz, Float8E8M0, Int2, Int4, Uint2, Uint4,
    };
    let small_floats = [
        Float8E4M3Fn,
        Float8E4M3Fnuz,
        Float8E5M2,
        Float8E5M2Fnuz,
        Float8E8M0,
        Float4E2M1,
        Float6E2M3,
        Float6E3M2,
    ];
    let mut low_precision = Vec::new();
    for format in small_floats {
        for to in [Float, Float16, Bfloat16] {
            low_precision.push((format, to, Packed));
        }
        low_precision.push((Float, format, Packed));
    }
    low_precision.extend([
        (Float16, Float8E5M2, Packed),
        (Bfloat16, Float8E4M3Fn, Packed),
    ]);
    for format in [Int4, Uint4, Int2, Uint2] {
        low_precision.extend([(format, Float, Packed), (Float, format, Packed)]);
    }
    // ml_dtypes' arrays: FLOAT to every sub-byte dtype, and one of each width back.
    let mut unpacked: Vec<_> = [Int4, Uint4, Float4E2M1, Int2, Uint2, Float6E2M3, Float6E3M2]
        .map(|to| (Float, to, Unpacked))
        .into();
    for from in [Int4, Float4E2M1, Int2, Float6E2M3] {
        unpacked.push((from, Float, Unpacked));
    }
    let name = |from: DType, to: DType, held: SubByteLayout| match held {
        Packed => format!("{from} -> {to}"),
        Unpacked => format!("{from} -> {to} unpacked"),
    };
    let keep = |&(from, to, held): &(DType, DType, SubByteLayout)| match &filter {
        Some(word) => name(from, to, held).to_ascii_lowercase().contains(word),
        None => true,
    };
    let numeric: Vec<_> = numeric.into_iter().filter(keep).collect();
    let low_precision: Vec<_> = low_precision.into_iter().filter(keep).collect();
    let unpacked: Vec<_> = unpacked.into_iter().filter(keep).collect();
    let busy = common::busy_flag();
    println!("cast throughput, {n} elements, 1 thread (GB/s = bytes read + written)");
    // The headroom every pair must have (docs/performance.md): 1.5x the DRAM memcpy in
    // cache, idle and busy.
    let cache_target = 1.5;
    let dram_src = vec![2u8; DRAM_COPY_BYTES];
    let mut dram_dst = vec![3u8; DRAM_COPY_BYTES];
    // The lowest ratio each column must reach (issue 38: every cast pair at least 1.0x
    // memcpy on an idle machine and 0.8x with the other core busy; the unpacked sub-byte
    // tensors 0.4x and 0.3x, docs/performance.md: five times ml_dtypes' astype and more).
    for (title, pairs, (idle_target, busy_target)) in [
        ("numeric", &numeric[..], (1.0, 0.8)),
        ("low precision", &low_precision[..], (1.0, 0.8)),
        ("sub-byte, one per byte", &unpacked[..], (0.4, 0.3)),
    ] {
        if pairs.is_empty() {
            continue;
        }
        println!();
        let columns = format!(
            "{:>10} {:>12} {:>7} {:>7} {:>7} {:>7}",
            "cast GB/s", "memcpy GB/s", "ratio", "read", "plain", "L2/mem"
        );
        if busy {
            println!("{:<30} {:<55} | busy", "", "idle");
            println!("{title:<30} {columns} | {columns}");
        } else {
            println!("{title:<30} {columns}");
        }
        let (mut worst_idle, mut worst_busy) = (f64::INFINITY, f64::INFINITY);
        let (mut worst_cache_idle, mut worst_cache_busy) = (f64::INFINITY, f64::INFINITY);
        for &(from, to, held) in pairs {
            let src = source(from, held, n);
            let small = IN_CACHE.min(n);
            let small_src = source(from, held, small);
            let mut small_dst = vec![1u8; layout(to, held, &[small]).bytes()];
            let small_traffic = (small_src.len() + small_dst.len()) as f64;
            let mut dst = vec![1u8; layout(to, held, &[n]).bytes()];
            // The narrowing loop's output: the input's size over the whole ratio of the
            // two (FLOAT -> FLOAT6, a ratio of 5.33, writes a fifth: a little more).
            let mut shape_dst = vec![0u8; src.len() / (src.len() / dst.len()).max(1)];
            let traffic = (src.len() + dst.len()) as f64;
            let options = CastOptions {
                sub_byte_layout: held,
                ..CastOptions::default()
            };
            let copy_src = vec![2u8; traffic as usize / 2];
            let mut copy_dst = vec![3u8; traffic as usize / 2];
            let (idle, loaded) = best_in_turns(
                busy,
                [
                    &mut || {
                        let shape = [n];
                        let (i, o) = (layout(from, held, &shape), layout(to, held, &shape));
                        let input = Tensor::from_layout(i, black_box(&src)).unwrap();
                        let mut output = TensorMut::from_layout(o, black_box(&mut dst)).unwrap();
                        cast(&input, &mut output, &options).unwrap();
                    },
                    &mut || black_box(&mut copy_dst).copy_from_slice(black_box(&copy_src)),
                    &mut || {
                        black_box(read_all(black_box(&src)));
                    },
                    &mut || narrowing_shape(black_box(&src), black_box(&mut shape_dst)),
                    &mut || {
                        let shape = [small];
                        for _ in 0..IN_CACHE_REPEATS {
                            let (i, o) = (layout(from, held, &shape), layout(to, held, &shape));
                            let input = Tensor::from_layout(i, black_box(&small_src)).unwrap();
                            let mut output =
                                TensorMut::from_layout(o, black_box(&mut small_dst)).unwrap();
                            cast(&input, &mut output, &options).unwrap();
                        }
                    },
                    &mut || black_box(&mut dram_dst).copy_from_slice(black_box(&dram_src)),
                ],
            );
            // One column: cast and memcpy GB/s, their ratio, for a narrowing cast the
            // ratios of a bare read of its input and of a plain loop moving its bytes in
            // its shape, and the headroom.
            let column = |times: [Duration; 6]| {
                let [cast_time, copy_time, read_time, shape_time, small_time, dram_time] = times;
                let gbps = |t: Duration| traffic / t.as_secs_f64() / 1e9;
                let ratio_of = |t: Duration| gbps(t) / gbps(copy_time);
                let bound = if src.len() > dst.len() {
                    format!("{:>7.2} {:>7.2}", ratio_of(read_time), ratio_of(shape_time))
                } else {
                    format!("{:>7} {:>7}", "-", "-")
                };
                let ratio = ratio_of(cast_time);
                // Headroom: GB/s in cache (all repeats) over GB/s of the DRAM memcpy.
                let in_cache = small_traffic * IN_CACHE_REPEATS as f64 / small_time.as_secs_f64();
                let dram = 2.0 * DRAM_COPY_BYTES as f64 / dram_time.as_secs_f64();
                let headroom = in_cache / dram;
                let text = format!(
                    "{:>10.1} {:>12.1} {ratio:>7.2} {bound} {headroom:>7.2}",
                    gbps(cast_time),
                    gbps(copy_time)
                );
                (ratio, headroom, text)
            };
            let name = name(from, to, held);
            let (ratio, headroom, text) = column(idle);
            worst_idle = worst_idle.min(ratio);
            worst_cache_idle = worst_cache_idle.min(headroom);
            match loaded.map(column) {
                Some((busy_ratio, busy_headroom, busy_text)) => {
                    worst_busy = worst_busy.min(busy_ratio);
                    worst_cache_busy = worst_cache_busy.min(busy_headroom);
                    println!("{name:<30} {text} | {busy_text}");
                }
                None => println!("{name:<30} {text}"),
            }
        }
        println!(
            "{}",
            common::target_line("lowest ratio, idle", worst_idle, idle_target)
        );
        if busy {
            println!(
                "{}",
                common::target_line("lowest ratio, busy", worst_busy, busy_target)
            );
        }
        println!(
            "{}",
            common::target_line("lowest L2/mem, idle", worst_cache_idle, cache_target)
        );
        if busy {
            println!(
                "{}",
                common::target_line("lowest L2/mem, busy", worst_cache_busy, cache_target)
            );
        }
        if let Some(share) = common::neighbour_share() {
            println!("{share}");
        }
    }

    // Per-call overhead: validation, dispatch and a 16-element kernel.
    let src = source(DType::Float, Packed, 16);
    let mut dst = vec![0u8; 32];
    let calls = 1_000_000;
    let t = best_of(|| {
        for _ in 0..calls {
            let input = Tensor::new(black_box(&src), DType::Float, &[16]).unwrap();
            let mut output = TensorMut::new(black_box(&mut dst), DType::Float16, &[16]).unwrap();
            cast(&input, &mut output, &CastOptions::default()).unwrap();
        }
    });
    println!(
        "16-element FLOAT -> FLOAT16 call: {:.0} ns",
        t.as_secs_f64() * 1e9 / calls as f64
    );
}
