// SPDX-License-Identifier: MIT OR Apache-2.0
//! Expand throughput beside a fill (memset) of the same output bytes, measured in the
//! same run, one thread. GB/s counts output bytes written. `cargo bench --bench expand
//! [-- NAME]` (only the cases whose name contains NAME).

use std::hint::black_box;
mod common;

use std::time::Duration;
use tensorcast::{expand, DType, Tensor, TensorMut};

const RUNS: usize = 7;

/// Name, dtype, input shape, output shape, number of separate outputs.
type Case = (&'static str, DType, Vec<usize>, Vec<usize>, usize);

/// One run of `f`, timed on the thread's CPU clock.
fn time(mut f: impl FnMut()) -> Duration {
    common::time(&mut f)
}

fn main() {
    let cases: [Case; 10] = [
        (
            "f32 (1,4096)->(4096,4096)",
            DType::Float,
            vec![1, 4096],
            vec![4096, 4096],
            1,
        ),
        (
            "f32 (4096,1)->(4096,4096)",
            DType::Float,
            vec![4096, 1],
            vec![4096, 4096],
            1,
        ),
        ("f32 (1,)->(16M,)", DType::Float, vec![1], vec![16 << 20], 1),
        (
            "f32 (64,1,64)->(64,64,64) x64",
            DType::Float,
            vec![64, 1, 64],
            vec![64, 64, 64],
            64,
        ),
        // Small batches: many separate outputs of a few KiB each.
        (
            "f32 (1,64)->(64,64) x1024",
            DType::Float,
            vec![1, 64],
            vec![64, 64],
            1024,
        ),
        (
            "f32 (32,1)->(32,32) x2048",
            DType::Float,
            vec![32, 1],
            vec![32, 32],
            2048,
        ),
        (
            "f32 (8,1,8,1)->(8,8,8,8) x1024",
            DType::Float,
            vec![8, 1, 8, 1],
            vec![8, 8, 8, 8],
            1024,
        ),
        (
            "u8 (1,4096)->(16384,4096)",
            DType::Uint8,
            vec![1, 4096],
            vec![16384, 4096],
            1,
        ),
        (
            "u8 (4096,1)->(4096,16384)",
            DType::Uint8,
            vec![4096, 1],
            vec![4096, 16384],
            1,
        ),
        (
            "c128 (1,1024)->(4096,1024)",
            DType::Complex128,
            vec![1, 1024],
            vec![4096, 1024],
            1,
        ),
    ];
    println!("expand throughput, 1 thread (GB/s of output written)");
    println!(
        "{:<32} {:>11} {:>10} {:>7}",
        "case", "expand GB/s", "fill GB/s", "ratio"
    );
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let mut worst = f64::INFINITY;
    for (name, dtype, in_dims, out_dims, repeats) in cases {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let es = dtype.bits() as usize / 8;
        let in_count: usize = in_dims.iter().product();
        let out_count: usize = out_dims.iter().product();
        let src: Vec<u8> = (0..in_count * es).map(|i| (i * 31 % 251) as u8).collect();
        // `repeats` separate outputs, so a small one is not simply rewritten in cache.
        let mut out = vec![1u8; out_count * es * repeats];
        let expand_once = |out: &mut Vec<u8>| {
            for piece in out.chunks_exact_mut(out_count * es) {
                let input = Tensor::new(black_box(&src), dtype, &in_dims).unwrap();
                let mut output = TensorMut::new(piece, dtype, &out_dims).unwrap();
                expand(&input, &mut output).unwrap();
            }
        };
        // The fill writes the same pieces the same way (one call per output).
        let fill_once = |out: &mut Vec<u8>| {
            for piece in black_box(out).chunks_exact_mut(out_count * es) {
                piece.fill(7);
            }
        };
        // The two alternate, run by run, so that both see the same load on a shared
        // machine; each keeps its best run.
        expand_once(&mut out);
        fill_once(&mut out);
        let (mut expand_time, mut fill_time) = (Duration::MAX, Duration::MAX);
        for _ in 0..RUNS {
            expand_time = expand_time.min(time(|| expand_once(&mut out)));
            fill_time = fill_time.min(time(|| fill_once(&mut out)));
        }
        let bytes = out.len() as f64;
        let (e, f) = (
            bytes / expand_time.as_secs_f64() / 1e9,
            bytes / fill_time.as_secs_f64() / 1e9,
        );
        worst = worst.min(e / f);
        println!("{name:<32} {e:>11.1} {f:>10.1} {:>7.2}", e / f);
    }
    println!("{}", common::target_line("lowest ratio", worst, 0.8));
}
