// SPDX-License-Identifier: MIT OR Apache-2.0
//! MX / NVFP4 quantization against a reference written here from the spec text: element
//! values from their sign/exponent/mantissa fields (OCP OFP8 and MX v1.0 section 5),
//! rounding by searching the sorted values (nearest, ties to the even code, saturating
//! as OCP MX 6.3 says for the scaled values), the scale rules from their definitions
//! with `f64::log2` (docs/semantics-mx.md), and E8M0 as 2^(code - 127), 0xFF NaN.

use super::*;
use crate::quant::layout::{mx_repack, MxLayout};
use half::{bf16, f16};

/// The value of an element code (MXINT8: two's complement times 2^-6; the float types
/// from their fields, as the Q/DQ tests' reference reads them).
fn spec_value(t: DType, code: u32) -> f64 {
    if t == DType::Int8 {
        return f64::from(code as u8 as i8) / 64.0;
    }
    crate::quant::tests::spec_value(t, code)
}

fn code_count(t: DType) -> u32 {
    1 << t.bits()
}

/// The nearest finite code to v (ties: the even code), saturating; v finite.
fn spec_round(t: DType, v: f64) -> u32 {
    let mut best: Option<(f64, u32)> = None;
    for c in 0..code_count(t) {
        let x = spec_value(t, c);
        if !x.is_finite()
            || (t != DType::Int8 && x == 0.0 && x.is_sign_negative() != v.is_sign_negative())
        {
            continue;
        }
        let d = (x - v).abs();
        best = match best {
            None => Some((d, c)),
            Some((bd, bc)) if d < bd || (d == bd && c % 2 == 0 && bc % 2 == 1) => Some((d, c)),
            b => b,
        };
    }
    best.unwrap().1
}

fn spec_max(t: DType) -> f64 {
    (0..code_count(t))
        .map(|c| spec_value(t, c))
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max)
}

/// The shared exponent of each rule, from its definition.
fn spec_exponent(t: DType, amax: f64, rule: ScaleRule) -> i32 {
    let max = spec_max(t);
    let emax = max.log2().floor();
    let man_bits = match t {
        DType::Int8 => 6,
        _ => crate::quant::tests::row(t).2,
    };
    if amax == 0.0 {
        return -127;
    }
    let e = match rule {
        ScaleRule::Floor => amax.log2().floor() - emax,
        ScaleRule::Ceil => amax.log2().ceil() - emax,
        ScaleRule::Even => {
            let fl = amax.log2().floor();
            let q = 2f64.powi(man_bits as i32);
            let r = (amax / 2f64.powf(fl) * q + 0.5).floor() / q;
            (r * 2f64.powf(fl)).log2().floor() - emax
        }
        ScaleRule::Rceil => (amax / max).log2().ceil(),
    };
    e.clamp(-127.0, 127.0) as i32
}

const RULES: [ScaleRule; 4] = [
    ScaleRule::Floor,
    ScaleRule::Ceil,
    ScaleRule::Even,
    ScaleRule::Rceil,
];

fn to_bytes(t: DType, v: &[f32]) -> Vec<u8> {
    v.iter()
        .flat_map(|&x| match t {
            DType::Float => x.to_ne_bytes().to_vec(),
            DType::Float16 => f16::from_f32(x).to_bits().to_ne_bytes().to_vec(),
            _ => bf16::from_f32(x).to_bits().to_ne_bytes().to_vec(),
        })
        .collect()
}

/// The values as `t` holds them.
fn held(t: DType, v: &[f32]) -> Vec<f64> {
    v.iter()
        .map(|&x| match t {
            DType::Float => f64::from(x),
            DType::Float16 => f16::from_f32(x).to_f64(),
            _ => bf16::from_f32(x).to_f64(),
        })
        .collect()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f32(&mut self) -> f32 {
        let r = self.next();
        match r % 16 {
            0 => 0.0,
            1 => f32::from_bits((r >> 8) as u32 & 0x807f_ffff), // subnormal
            2 => 2f32.powi((r >> 8) as i32 % 20),               // a power of two
            _ => f32::from_bits(((r >> 8) as u32 & 0x81ff_ffff) | 0x3c00_0000),
        }
    }
}

/// A block's content of each edge-case kind.
fn block(kind: usize, len: usize, rng: &mut Rng) -> Vec<f32> {
    let mut v: Vec<f32> = (0..len).map(|_| rng.f32()).collect();
    match kind {
        0 => v.iter_mut().for_each(|x| *x = 0.0),
        1 => v[len / 2] = f32::NAN,
        2 => v[len - 1] = f32::NEG_INFINITY,
        3 => v[0] = 4.0, // amax at an exact power of two (others below 4)
        4 => v
            .iter_mut()
            .for_each(|x| *x = f32::from_bits(x.to_bits() & 0x8000_ffff)), // subnormal amax
        5 => v[1] = -f32::MAX, // top end
        6 => v
            .iter_mut()
            .for_each(|x| *x = f32::from_bits(x.to_bits() & 0x8000_0007)), // 2^-149 range
        7 => v[2] = 5.9999,
        _ => {}
    }
    if kind == 3 {
        v.iter_mut().skip(1).for_each(|x| *x = x.clamp(-3.9, 3.9));
    }
    v
}

/// Quantizes with the library and checks scales and elements against the reference.
fn check_quantize(xt: DType, et: DType, dims: &[usize], axis: usize, rule: ScaleRule, seed: u64) {
    let block_size = 32;
    let mut rng = Rng(seed);
    let count: usize = dims.iter().product();
    let outer: usize = dims[..axis].iter().product();
    let extent = dims[axis];
    let inner: usize = dims[axis + 1..].iter().product();
    let nb = extent.div_ceil(block_size);
    // Fill block by block with the edge-case kinds.
    let mut x = vec![0f32; count];
    let mut kind = 0;
    for o in 0..outer {
        for b in 0..nb {
            for n in 0..inner {
                let len = (extent - b * block_size).min(block_size);
                let vals = block(kind % 10, len, &mut rng);
                kind += 1;
                for (k, v) in vals.into_iter().enumerate() {
                    x[(o * extent + b * block_size + k) * inner + n] = v;
                }
            }
        }
    }
    let xb = to_bytes(xt, &x);
    let xv = held(xt, &x);
    let mut sdims = dims.to_vec();
    sdims[axis] = nb;
    let scount: usize = sdims.iter().product();
    let mut y = vec![0u8; et.bytes_for((count) as u64).unwrap() as usize];
    let mut s = vec![0u8; scount];
    let xtensor = Tensor::new(&xb, xt, dims).unwrap();
    let mut yt = TensorMut::new(&mut y, et, dims).unwrap();
    let mut st = TensorMut::new(&mut s, DType::Float8E8M0, &sdims).unwrap();
    let opts = MxOptions {
        axis: axis as i64,
        block_size: 0,
        rule,
    };
    mx_quantize(&xtensor, &mut yt, &mut st, None, &opts).unwrap();
    for o in 0..outer {
        for b in 0..nb {
            for n in 0..inner {
                let idx: Vec<usize> = (b * block_size..((b + 1) * block_size).min(extent))
                    .map(|a| (o * extent + a) * inner + n)
                    .collect();
                let bad = idx.iter().any(|&i| !xv[i].is_finite());
                let amax = idx.iter().map(|&i| xv[i].abs()).fold(0.0, f64::max);
                let si = (o * nb + b) * inner + n;
                let want = if bad {
                    0xff
                } else {
                    (spec_exponent(et, amax, rule) + 127) as u8
                };
                assert_eq!(
                    s[si], want,
                    "{xt} {et} {rule:?} axis {axis} block {si} amax {amax}"
                );
                for &i in &idx {
                    let got = u32::from(get_code(et.bits(), &y, i));
                    let want = if bad {
                        0
                    } else {
                        let q = xv[i] / 2f64.powi(i32::from(want) - 127);
                        spec_round(et, q)
                    };
                    assert_eq!(got, want, "{xt} {et} {rule:?} element {i} x {}", xv[i]);
                }
            }
        }
    }
}

#[test]
fn quantize_matches_the_reference() {
    let mut seed = 1;
    for xt in FLOAT_TYPES {
        for et in MX_ELEMENT_TYPES {
            for rule in RULES {
                // The last three: whole blocks along the last axis, quantized with the
                // scales computed inside QuantizeLinear's fast path (FLOAT8, FLOAT4),
                // [1, 4160] over three of its chunks.
                let shapes = [
                    (&[4, 70][..], 1),
                    (&[64, 3][..], 0),
                    (&[2, 40, 3][..], 1),
                    (&[3, 96][..], 1),
                    (&[2, 5, 64][..], 2),
                    (&[1, 4160][..], 1),
                ];
                for (dims, axis) in shapes {
                    seed += 1;
                    check_quantize(xt, et, dims, axis, rule, seed * 7919);
                }
            }
        }
    }
}

#[test]
fn large_tensors_quantize_in_row_chunks_like_the_reference() {
    // 200 rows of 1024: FLOAT x is quantized 64 rows at a time (256 KiB), FLOAT16 x 128,
    // the last chunk short; each chunk's elements and scales must be the reference's.
    // Quick mode: each element type once, from FLOAT and FLOAT16 in turn.
    for (k, (seed, xt)) in [(11, DType::Float), (13, DType::Float16)]
        .into_iter()
        .enumerate()
    {
        for (j, et) in MX_ELEMENT_TYPES.into_iter().enumerate() {
            if quick() && j % 2 != k {
                continue;
            }
            check_quantize(xt, et, &[200, 1024], 1, ScaleRule::Floor, seed * 104_729);
        }
    }
}

#[test]
fn scale_rules_at_the_edges() {
    let e2m1 = element(DType::Float4E2M1);
    // amax exactly 4 = 2^2: FLOOR and CEIL give 2^0; RCEIL ceil(log2(4/6)) = 0 too.
    for rule in RULES {
        assert_eq!(shared_exponent(4.0, rule, &e2m1), 0, "{rule:?}");
    }
    // amax 6 (E2M1's max): FLOOR 0, CEIL 1, EVEN (1.5 is below 1.75) 0, RCEIL 0.
    assert_eq!(shared_exponent(6.0, ScaleRule::Floor, &e2m1), 0);
    assert_eq!(shared_exponent(6.0, ScaleRule::Ceil, &e2m1), 1);
    assert_eq!(shared_exponent(6.0, ScaleRule::Even, &e2m1), 0);
    assert_eq!(shared_exponent(6.0, ScaleRule::Rceil, &e2m1), 0);
    // amax 7 = 1.75 * 4: EVEN rounds it to 8; RCEIL ceil(log2(7/6)) = 1.
    assert_eq!(shared_exponent(7.0, ScaleRule::Even, &e2m1), 1);
    assert_eq!(shared_exponent(7.0, ScaleRule::Floor, &e2m1), 0);
    assert_eq!(shared_exponent(7.0, ScaleRule::Rceil, &e2m1), 1);
    // The E8M0 ends: the smallest f32 subnormal clamps to 2^-127, f32::MAX with MXINT8
    // and CEIL to 2^127.
    let smallest = f64::from(f32::from_bits(1));
    for rule in RULES {
        assert_eq!(shared_exponent(smallest, rule, &e2m1), -127);
    }
    let int8 = element(DType::Int8);
    assert_eq!(
        shared_exponent(f64::from(f32::MAX), ScaleRule::Ceil, &int8),
        127
    );
    assert_eq!(
        shared_exponent(f64::from(f32::MAX), ScaleRule::Floor, &int8),
        127
    );
    assert_eq!(shared_exponent(0.0, ScaleRule::Rceil, &int8), -127);
}

/// Every element code times every scale code, to each output type.
#[test]
fn dequantize_is_exhaustive() {
    for et in MX_ELEMENT_TYPES {
        let n = code_count(et) as usize;
        let dims = [256, n];
        let codes: Vec<u8> = (0..256 * n).map(|i| (i % n) as u8).collect();
        let mut x = vec![0u8; et.bytes_for((256 * n) as u64).unwrap() as usize];
        for (i, &c) in codes.iter().enumerate() {
            set_code(et.bits(), &mut x, i, c);
        }
        // One block per row (block_size n along axis 1), scale code = row.
        let scales: Vec<u8> = (0..=255u8).collect();
        let sdims = [256, 1];
        for yt in FLOAT_TYPES {
            let mut y = vec![0u8; yt.bytes_for((256 * n) as u64).unwrap() as usize];
            let xt = Tensor::new(&x, et, &dims).unwrap();
            let st = Tensor::new(&scales, DType::Float8E8M0, &sdims).unwrap();
            let mut ym = TensorMut::new(&mut y, yt, &dims).unwrap();
            let opts = MxOptions {
                axis: 1,
                block_size: n as i64,
                rule: ScaleRule::Floor,
            };
            mx_dequantize(&xt, &st, None, &mut ym, &opts).unwrap();
            let got = reader(yt);
            for (i, &c) in codes.iter().enumerate() {
                let s = i / n;
                let scale = if s == 255 {
                    f64::NAN
                } else {
                    2f64.powi(s as i32 - 127)
                };
                let exact = spec_value(et, u32::from(c)) * scale;
                let want = match yt {
                    DType::Float => exact as f32,
                    DType::Float16 => f16::from_f64(exact).to_f32(),
                    _ => bf16::from_f64(exact).to_f32(),
                };
                let g = got(&y, i);
                assert!(
                    g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
                    "{et} code {c:#x} scale {s} -> {yt}: {g} want {want}"
                );
            }
        }
    }
}

#[test]
#[allow(clippy::needless_range_loop)]
fn nvfp4_matches_the_reference() {
    let mut rng = Rng(99);
    for xt in FLOAT_TYPES {
        for case in 0..4 {
            let dims = [3, 48];
            let mut x: Vec<f32> = (0..144).map(|_| rng.f32() * 37.0).collect();
            if case == 1 {
                x[20] = f32::NAN;
                x[100] = f32::INFINITY;
            }
            if case == 2 {
                x.iter_mut().for_each(|v| *v = 0.0);
            }
            if case == 3 {
                x[0..16].iter_mut().for_each(|v| *v *= 1e-9); // a block whose scale underflows
            }
            let xb = to_bytes(xt, &x);
            let xv = held(xt, &x);
            let mut y = vec![0u8; 72];
            let mut s = vec![0u8; 9];
            let mut g = vec![0u8; 4];
            let gdims: [usize; 0] = [];
            let xtensor = Tensor::new(&xb, xt, &dims).unwrap();
            let mut ym = TensorMut::new(&mut y, DType::Float4E2M1, &dims).unwrap();
            let mut sm = TensorMut::new(&mut s, DType::Float8E4M3Fn, &[3, 3]).unwrap();
            let mut gm = TensorMut::new(&mut g, DType::Float, &gdims).unwrap();
            mx_quantize(
                &xtensor,
                &mut ym,
                &mut sm,
                Some(&mut gm),
                &MxOptions::default(),
            )
            .unwrap();
            let amax_t = xv
                .iter()
                .filter(|v| v.is_finite())
                .fold(0.0f64, |a, v| a.max(v.abs()));
            let global = f64::from((amax_t / (6.0 * 448.0)) as f32);
            assert_eq!(f32::from_ne_bytes([g[0], g[1], g[2], g[3]]) as f64, global);
            for b in 0..9 {
                let idx = b * 16..b * 16 + 16;
                let bad = xv[idx.clone()].iter().any(|v| !v.is_finite());
                let amax = xv[idx.clone()].iter().fold(0.0f64, |a, v| a.max(v.abs()));
                let want_s = if bad {
                    0x7f
                } else if global == 0.0 {
                    0
                } else {
                    spec_round(DType::Float8E4M3Fn, amax / 6.0 / global) as u8
                };
                assert_eq!(s[b], want_s, "{xt} case {case} block {b}");
                let sv = spec_value(DType::Float8E4M3Fn, u32::from(want_s)) * global;
                for i in idx {
                    let want = if bad || sv == 0.0 || !sv.is_finite() {
                        0
                    } else {
                        spec_round(DType::Float4E2M1, xv[i] / sv)
                    };
                    assert_eq!(
                        u32::from(get_code(4, &y, i)),
                        want,
                        "{xt} case {case} elem {i}"
                    );
                }
            }
            // Dequantize: E2M1 value * E4M3 value * global, rounded once.
            let mut back = vec![0u8; 144 * 4];
            let st = Tensor::new(&s, DType::Float8E4M3Fn, &[3, 3]).unwrap();
            let gt = Tensor::new(&g, DType::Float, &gdims).unwrap();
            let yt = Tensor::new(&y, DType::Float4E2M1, &dims).unwrap();
            let mut bm = TensorMut::new(&mut back, DType::Float, &dims).unwrap();
            mx_dequantize(&yt, &st, Some(&gt), &mut bm, &MxOptions::default()).unwrap();
            for i in 0..144 {
                let e = spec_value(DType::Float4E2M1, u32::from(get_code(4, &y, i)));
                let want =
                    (e * spec_value(DType::Float8E4M3Fn, u32::from(s[i / 16])) * global) as f32;
                let got = reader(DType::Float)(&back, i);
                assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()));
            }
        }
    }
}

#[test]
fn errors_name_the_arguments() {
    let x = vec![0u8; 4 * 64];
    let xt = Tensor::new(&x, DType::Float, &[2, 32]).unwrap();
    let mut y = vec![0u8; 32];
    let mut s = vec![0u8; 4];
    let mut ym = TensorMut::new(&mut y, DType::Float4E2M1, &[2, 32]).unwrap();
    let mut sm = TensorMut::new(&mut s, DType::Float8E8M0, &[2, 2]).unwrap();
    let e = mx_quantize(&xt, &mut ym, &mut sm, None, &MxOptions::default()).unwrap_err();
    assert!(
        format!("{e}").contains("scale shape [2,2] must be [2,1]"),
        "{e}"
    );
    let mut sm = TensorMut::new(&mut s[..2], DType::Float8E8M0, &[2, 1]).unwrap();
    let bad_axis = MxOptions {
        axis: 2,
        ..MxOptions::default()
    };
    let e = mx_quantize(&xt, &mut ym, &mut sm, None, &bad_axis).unwrap_err();
    assert!(
        format!("{e}").contains("axis 2 is out of range for x shape [2,32]"),
        "{e}"
    );
    let mut s4 = vec![0u8; 4];
    let mut sm = TensorMut::new(&mut s4, DType::Float8E4M3Fn, &[2, 2]).unwrap();
    let e = mx_quantize(&xt, &mut ym, &mut sm, None, &MxOptions::default()).unwrap_err();
    assert!(format!("{e}").contains("needs global_scale"), "{e}");
}

/// ggml's decoding (kvalues_mxfp4 times 2^(e - 128), element j + 16 in the high nibble)
/// and gpt-oss's (FP4_VALUES[b & 15] at 2j, [b >> 4] at 2j + 1, times 2^(s - 127)),
/// written from their documented facts, against the library's ONNX-order dequantize.
#[test]
fn layouts_decode_like_their_owners() {
    const NB: usize = 6;
    let nb = NB;
    const KVALUES: [f64; 16] = [
        0., 1., 2., 3., 4., 6., 8., 12., 0., -1., -2., -3., -4., -6., -8., -12.,
    ];
    const FP4_VALUES: [f64; 16] = [
        0., 0.5, 1., 1.5, 2., 3., 4., 6., -0., -0.5, -1., -1.5, -2., -3., -4., -6.,
    ];
    let mut rng = Rng(5);
    let mut ggml = vec![0u8; nb * 17];
    ggml.iter_mut().for_each(|b| *b = rng.next() as u8);
    for b in 0..nb {
        ggml[17 * b] = 100 + (rng.next() % 50) as u8; // finite scales
    }
    let ggml_values: Vec<f64> = (0..nb * 32)
        .map(|i| {
            let (b, j) = (i / 32, i % 32);
            let q = ggml[17 * b + 1 + j % 16];
            let nib = if j < 16 { q & 15 } else { q >> 4 };
            KVALUES[usize::from(nib)] * 2f64.powi(i32::from(ggml[17 * b]) - 128)
        })
        .collect();
    // ggml -> ONNX, then the library's dequantize.
    let mut onnx = vec![0u8; nb * 16];
    let mut scales = vec![0u8; nb];
    {
        let src = Tensor::new(&ggml, DType::Uint8, &[NB, 17]).unwrap();
        let mut o = TensorMut::new(&mut onnx, DType::Float4E2M1, &[NB * 32]).unwrap();
        let mut sc = TensorMut::new(&mut scales, DType::Float8E8M0, &[NB]).unwrap();
        mx_repack(
            MxLayout::Ggml,
            &src,
            None,
            MxLayout::Onnx,
            &mut o,
            Some(&mut sc),
        )
        .unwrap();
    }
    let mut y = vec![0u8; nb * 32 * 4];
    {
        let xt = Tensor::new(&onnx, DType::Float4E2M1, &[NB * 32]).unwrap();
        let st = Tensor::new(&scales, DType::Float8E8M0, &[NB]).unwrap();
        let mut ym = TensorMut::new(&mut y, DType::Float, &[NB * 32]).unwrap();
        mx_dequantize(&xt, &st, None, &mut ym, &MxOptions::default()).unwrap();
    }
    for (i, &v) in ggml_values.iter().enumerate() {
        assert_eq!(
            f64::from(reader(DType::Float)(&y, i)),
            v,
            "ggml element {i}"
        );
    }
    // ONNX -> gpt-oss: decode with gpt-oss's table.
    let mut blocks = vec![0u8; nb * 16];
    let mut gscales = vec![0u8; nb];
    {
        let src = Tensor::new(&onnx, DType::Float4E2M1, &[NB * 32]).unwrap();
        let ss = Tensor::new(&scales, DType::Float8E8M0, &[NB]).unwrap();
        let mut o = TensorMut::new(&mut blocks, DType::Uint8, &[NB, 16]).unwrap();
        let mut sc = TensorMut::new(&mut gscales, DType::Uint8, &[NB]).unwrap();
        mx_repack(
            MxLayout::Onnx,
            &src,
            Some(&ss),
            MxLayout::GptOss,
            &mut o,
            Some(&mut sc),
        )
        .unwrap();
    }
    for (i, &v) in ggml_values.iter().enumerate() {
        let (b, j) = (i / 32, i % 32);
        let byte = blocks[16 * b + j / 2];
        let nib = if j % 2 == 0 { byte & 15 } else { byte >> 4 };
        let g = FP4_VALUES[usize::from(nib)] * 2f64.powi(i32::from(gscales[b]) - 127);
        assert_eq!(g, v, "gpt-oss element {i}");
    }
    // gpt-oss -> ggml: the original bytes back.
    let mut again = vec![0u8; nb * 17];
    {
        let src = Tensor::new(&blocks, DType::Uint8, &[NB, 16]).unwrap();
        let ss = Tensor::new(&gscales, DType::Uint8, &[NB]).unwrap();
        let mut o = TensorMut::new(&mut again, DType::Uint8, &[NB, 17]).unwrap();
        mx_repack(
            MxLayout::GptOss,
            &src,
            Some(&ss),
            MxLayout::Ggml,
            &mut o,
            None,
        )
        .unwrap();
    }
    assert_eq!(again, ggml);
    // A hand-decoded block: e = 128 (ggml: 2^0 half scale), qs[0] = 0x21: element 0 is
    // kvalue 1 = 1.0, element 16 kvalue 2 = 2.0; in ONNX order byte 0 = 0x01 low nibble
    // (element 0 = E2M1 0.5 times 2^1) and byte 8 low nibble = 2 (element 16 = 1.0 * 2).
    let mut one = [0u8; 17];
    one[0] = 128;
    one[1] = 0x21;
    let mut o16 = [0u8; 16];
    let mut s1 = [0u8; 1];
    {
        let src = Tensor::new(&one, DType::Uint8, &[1, 17]).unwrap();
        let mut o = TensorMut::new(&mut o16, DType::Float4E2M1, &[32]).unwrap();
        let mut sc = TensorMut::new(&mut s1, DType::Float8E8M0, &[1]).unwrap();
        mx_repack(
            MxLayout::Ggml,
            &src,
            None,
            MxLayout::Onnx,
            &mut o,
            Some(&mut sc),
        )
        .unwrap();
    }
    assert_eq!(s1[0], 128);
    assert_eq!(o16, [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn repack_errors_name_shapes() {
    let data = vec![0u8; 17 * 2];
    let src = Tensor::new(&data, DType::Uint8, &[2, 17]).unwrap();
    let mut out = vec![0u8; 16 * 3];
    let mut sc = vec![0u8; 3];
    let mut o = TensorMut::new(&mut out, DType::Float4E2M1, &[96]).unwrap();
    let mut s = TensorMut::new(&mut sc, DType::Float8E8M0, &[3]).unwrap();
    let e = mx_repack(
        MxLayout::Ggml,
        &src,
        None,
        MxLayout::Onnx,
        &mut o,
        Some(&mut s),
    )
    .unwrap_err();
    assert!(format!("{e}").contains("block counts must agree"), "{e}");
}
