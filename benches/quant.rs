// SPDX-License-Identifier: MIT OR Apache-2.0
//! QuantizeLinear and DequantizeLinear throughput beside memcpy, measured in the same
//! run (issue 40 item 7).
//!
//! Each case runs over N elements (default 16M) on one thread, x of shape [N / 4096,
//! 4096] with the scales blocked along the last axis (block_size 32: MXFP4, MXFP8 and
//! ONNX's blocked INT4) or per axis. GB/s counts the bytes read (x, the scales and the
//! zero points) plus the bytes written (y), as benches/cast.rs counts a cast's; the
//! memcpy column copies half that many bytes (so it too reads and writes the same
//! total) and the ratio is Q/DQ over memcpy. Each figure is the best of several runs,
//! the operation and the copy taking turns. `cargo bench --bench quant [-- N] [-- WORD]`
//! (WORD keeps the cases whose name contains it, ignoring case).

mod common;

use std::hint::black_box;
use std::time::Duration;
use tensorcast::{
    dequantize_linear, mx_dequantize, mx_quantize, quantize_linear, DType, MxOptions, QdqOptions,
    Tensor, TensorMut,
};

const RUNS: usize = 9;
const ROW: usize = 4096;

/// Random bytes (every code of a one-byte or packed type).
fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// FLOAT values as weights are: half negative, magnitudes spread over 2^-10 .. 2^10.
fn floats(n: usize) -> Vec<f32> {
    let bytes = random_bytes(8 * n, 0x2545_f491_4f6c_dd1d);
    bytes
        .chunks_exact(8)
        .map(|c| {
            let r = u64::from_ne_bytes(c.try_into().unwrap());
            let unit = (r >> 11) as f64 / (1u64 << 53) as f64;
            ((unit * 20.0 - 10.0).exp2() * if r & 1 == 1 { -1.0 } else { 1.0 }) as f32
        })
        .collect()
}

/// One case: what Q or DQ reads and writes.
struct Case {
    name: String,
    quantize: bool,
    /// Through `mx_quantize` (the scales computed, written) / `mx_dequantize`.
    mx: bool,
    x: Vec<u8>,
    xt: DType,
    scale: Vec<u8>,
    st: DType,
    sdims: Vec<usize>,
    zero: Option<Vec<u8>>,
    yt: DType,
    options: QdqOptions,
}

/// The E8M0 scale of each block of 32 FLOAT values: the OCP MX rule,
/// 2^(floor(log2(amax)) - emax), emax the element type's largest exponent.
fn mx_scales(x: &[f32], emax: i32) -> Vec<u8> {
    x.chunks(32)
        .map(|b| {
            let amax = b.iter().fold(0f32, |m, v| m.max(v.abs()));
            let e = ((amax.to_bits() >> 23) & 0xff) as i32 - 127;
            (e - emax + 127).clamp(0, 254) as u8
        })
        .collect()
}

fn cases(n: usize, keep: &dyn Fn(&str) -> bool) -> Vec<Case> {
    let rows = n / ROW;
    let blocked = vec![rows, ROW / 32];
    let opts = QdqOptions {
        axis: 1,
        block_size: 32,
        ..QdqOptions::default()
    };
    let e8m0 = |seed| {
        random_bytes(rows * ROW / 32, seed)
            .iter()
            .map(|b| 112 + b % 32)
            .collect()
    };
    let float_scales = |count: usize| -> Vec<u8> {
        floats(count)
            .iter()
            .flat_map(|v| (v.abs() * 0.01 + 1e-3).to_ne_bytes())
            .collect()
    };
    let any_q = [
        "Q FLOAT -> MXFP4",
        "Q FLOAT -> MXFP8 E4M3",
        "Q FLOAT -> MXFP8 E5M2",
    ]
    .iter()
    .chain(&[
        "Q FLOAT -> INT4 blocked",
        "MX quantize FLOAT -> MXFP4 (+scales)",
        "MX quantize FLOAT -> MXFP8 E4M3 (+scales)",
        // Its scales come from the floats too.
        "MX dequantize MXFP4 -> FLOAT",
        "MX dequantize MXFP8 E4M3 -> FLOAT",
    ])
    .any(|name| keep(name));
    let xs = if any_q { floats(n) } else { Vec::new() };
    let x_bytes: Vec<u8> = xs.iter().flat_map(|v| v.to_ne_bytes()).collect();
    let mut out = Vec::new();
    let packed = |t: DType| t.bytes_for(n as u64).unwrap() as usize;
    for (name, xt) in [
        ("MXFP4", DType::Float4E2M1),
        ("MXFP8 E4M3", DType::Float8E4M3Fn),
        ("MXFP8 E5M2", DType::Float8E5M2),
    ] {
        for yt in [DType::Float, DType::Float16, DType::Bfloat16] {
            if xt != DType::Float4E2M1 && yt != DType::Float {
                continue;
            }
            let name = format!("DQ {name} -> {yt}");
            if keep(&name) {
                out.push(Case {
                    name,
                    quantize: false,
                    mx: false,
                    x: random_bytes(packed(xt), 7),
                    xt,
                    scale: e8m0(11),
                    st: DType::Float8E8M0,
                    sdims: blocked.clone(),
                    zero: None,
                    yt,
                    options: opts,
                });
            }
        }
    }
    for (name, yt, emax) in [
        ("MXFP4", DType::Float4E2M1, 2),
        ("MXFP8 E4M3", DType::Float8E4M3Fn, 8),
        ("MXFP8 E5M2", DType::Float8E5M2, 15),
    ] {
        let name = format!("Q FLOAT -> {name}");
        if keep(&name) {
            out.push(Case {
                name,
                quantize: true,
                mx: false,
                x: x_bytes.clone(),
                xt: DType::Float,
                scale: mx_scales(&xs, emax),
                st: DType::Float8E8M0,
                sdims: blocked.clone(),
                zero: None,
                yt,
                options: opts,
            });
        }
    }
    for (name, yt, emax) in [
        ("MXFP4", DType::Float4E2M1, 2),
        ("MXFP8 E4M3", DType::Float8E4M3Fn, 8),
    ] {
        for quantize in [true, false] {
            let name = if quantize {
                format!("MX quantize FLOAT -> {name} (+scales)")
            } else {
                format!("MX dequantize {name} -> FLOAT")
            };
            if keep(&name) {
                out.push(Case {
                    name,
                    quantize,
                    mx: true,
                    x: if quantize {
                        x_bytes.clone()
                    } else {
                        random_bytes(packed(yt), 7)
                    },
                    xt: if quantize { DType::Float } else { yt },
                    scale: mx_scales(&xs, emax),
                    st: DType::Float8E8M0,
                    sdims: blocked.clone(),
                    zero: None,
                    yt: if quantize { yt } else { DType::Float },
                    options: opts,
                });
            }
        }
    }
    let blocks = rows * ROW / 32;
    for zero in [None, Some(random_bytes(blocks.div_ceil(2), 5))] {
        let with = if zero.is_some() { " + zero point" } else { "" };
        let name = format!("DQ INT4 blocked{with} -> FLOAT");
        if keep(&name) {
            out.push(Case {
                name,
                quantize: false,
                mx: false,
                x: random_bytes(packed(DType::Int4), 3),
                xt: DType::Int4,
                scale: float_scales(blocks),
                st: DType::Float,
                sdims: blocked.clone(),
                zero,
                yt: DType::Float,
                options: opts,
            });
        }
    }
    let name: String = "Q FLOAT -> INT4 blocked".into();
    if keep(&name) {
        out.push(Case {
            name,
            quantize: true,
            mx: false,
            x: x_bytes.clone(),
            xt: DType::Float,
            scale: float_scales(blocks),
            st: DType::Float,
            sdims: blocked.clone(),
            zero: None,
            yt: DType::Int4,
            options: opts,
        });
    }
    let name: String = "DQ INT8 per-axis -> FLOAT".into();
    if keep(&name) {
        out.push(Case {
            name,
            quantize: false,
            mx: false,
            x: random_bytes(n, 9),
            xt: DType::Int8,
            scale: float_scales(ROW),
            st: DType::Float,
            sdims: vec![ROW],
            zero: Some(random_bytes(ROW, 13)),
            yt: DType::Float,
            options: QdqOptions::default(),
        });
    }
    out
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(16 << 20)
        / ROW
        * ROW;
    let filter: Option<String> = std::env::args()
        .skip(1)
        .find(|a| a.parse::<usize>().is_err() && !a.starts_with('-'))
        .map(|a| a.to_ascii_lowercase());
    println!(
        "QuantizeLinear / DequantizeLinear throughput, {n} elements of shape [{}, {ROW}], \
         1 thread (GB/s = bytes read + written)",
        n / ROW
    );
    println!();
    println!(
        "{:<34} {:>10} {:>9} {:>12} {:>7}",
        "case", "M elem/s", "GB/s", "memcpy GB/s", "ratio"
    );
    let (mut worst_dq, mut worst_q) = (f64::INFINITY, f64::INFINITY);
    let keep = |name: &str| {
        filter
            .as_ref()
            .is_none_or(|word| name.to_ascii_lowercase().contains(word))
    };
    for case in cases(n, &keep) {
        let dims = [n / ROW, ROW];
        let out_t = case.yt;
        let mut y = vec![0u8; out_t.bytes_for(n as u64).unwrap() as usize];
        let read = case.x.len() + case.scale.len() + case.zero.as_ref().map_or(0, Vec::len);
        let traffic = (read + y.len()) as f64;
        let copy_src = vec![2u8; traffic as usize / 2];
        let mut copy_dst = vec![3u8; traffic as usize / 2];
        let zt = if case.quantize { case.yt } else { case.xt };
        let mut scales = case.scale.clone();
        let (times, _) = common::idle_and_busy(
            RUNS,
            false,
            &mut [
                &mut || {
                    let x = Tensor::new(black_box(&case.x), case.xt, &dims).unwrap();
                    let s = Tensor::new(&case.scale, case.st, &case.sdims).unwrap();
                    let z = case
                        .zero
                        .as_ref()
                        .map(|z| Tensor::new(z, zt, &case.sdims).unwrap());
                    let mut out = TensorMut::new(black_box(&mut y), out_t, &dims).unwrap();
                    if case.mx && case.quantize {
                        let mut s = TensorMut::new(&mut scales, case.st, &case.sdims).unwrap();
                        mx_quantize(&x, &mut out, &mut s, None, &MxOptions::default()).unwrap();
                    } else if case.mx {
                        mx_dequantize(&x, &s, None, &mut out, &MxOptions::default()).unwrap();
                    } else if case.quantize {
                        quantize_linear(&x, &s, z.as_ref(), &mut out, &case.options).unwrap();
                    } else {
                        dequantize_linear(&x, &s, z.as_ref(), &mut out, &case.options).unwrap();
                    }
                },
                &mut || black_box(&mut copy_dst).copy_from_slice(black_box(&copy_src)),
            ],
        );
        let (op, copy): (Duration, Duration) = (times[0], times[1]);
        let gbps = |t: Duration| traffic / t.as_secs_f64() / 1e9;
        let ratio = gbps(op) / gbps(copy);
        if case.quantize && case.name.contains("MX") {
            worst_q = worst_q.min(ratio);
        } else if case.name.starts_with("DQ MX") && out_t == DType::Float {
            worst_dq = worst_dq.min(ratio);
        }
        println!(
            "{:<34} {:>10.0} {:>9.1} {:>12.1} {:>7.2}",
            case.name,
            n as f64 / op.as_secs_f64() / 1e6,
            gbps(op),
            gbps(copy),
            ratio
        );
    }
    println!();
    if worst_dq.is_finite() {
        println!(
            "{}",
            common::target_line("lowest MX DQ -> FLOAT ratio", worst_dq, 0.8)
        );
    }
    if worst_q.is_finite() {
        println!("{}", common::target_line("lowest MX Q ratio", worst_q, 0.5));
    }
}
