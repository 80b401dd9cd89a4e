// SPDX-License-Identifier: MIT OR Apache-2.0
//! The fast paths (`kernels.rs`) on every CPU tier against the scalar path, which
//! `tests.rs` holds to a reference written from the spec: every code of every element
//! type they take times all 256 FLOAT8E8M0 scales and FLOAT/FLOAT16/BFLOAT16 scales,
//! and random tensors with every layout (per-tensor, per-axis, blocked along any axis)
//! and run lengths and tails around the fast paths' steps.

use super::*;
use crate::simd::kernel::Tier;

const DQ_TYPES: [DType; 9] = [
    DType::Float4E2M1,
    DType::Float8E4M3Fn,
    DType::Float8E4M3Fnuz,
    DType::Float8E5M2,
    DType::Float8E5M2Fnuz,
    DType::Int4,
    DType::Uint4,
    DType::Int8,
    DType::Uint8,
];

const Q_TYPES: [DType; 9] = DQ_TYPES;

/// A little generator, so that every run sees the same data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 32) as u8).collect()
    }
}

/// One Q or DQ call: on `tier`'s fast path (Some) or the scalar path (None).
struct Call<'a> {
    x: &'a [u8],
    xt: DType,
    dims: &'a [usize],
    s: &'a [u8],
    st: DType,
    sdims: &'a [usize],
    zp: Option<&'a [u8]>,
    yt: DType,
    options: QdqOptions,
}

impl Call<'_> {
    fn run(&self, quantize: bool, tier: Option<Tier>) -> Vec<u8> {
        let n: usize = self.dims.iter().product();
        // Not zeros: a path that skips an element shows.
        let mut out = vec![0xa5u8; self.yt.bytes_for(n as u64).unwrap() as usize];
        let x = Tensor::new(self.x, self.xt, self.dims).unwrap();
        let s = Tensor::new(self.s, self.st, self.sdims).unwrap();
        let zt = if quantize { self.yt } else { self.xt };
        let z = self.zp.map(|z| Tensor::new(z, zt, self.sdims).unwrap());
        let mut y = TensorMut::new(&mut out, self.yt, self.dims).unwrap();
        let op = if quantize {
            Op::Quantize
        } else {
            Op::Dequantize
        };
        qdq_on(op, (&x, &s, z.as_ref()), &mut y, &self.options, tier).unwrap();
        out
    }

    /// Every tier's result equals the scalar path's, NaN for NaN (any payload).
    fn check(&self, quantize: bool, what: &str) {
        let want = self.run(quantize, None);
        for tier in Tier::available() {
            let got = self.run(quantize, Some(tier));
            if got == want {
                continue;
            }
            let size = if quantize {
                1
            } else {
                self.yt.bits() as usize / 8
            };
            for (i, (g, w)) in got.chunks(size).zip(want.chunks(size)).enumerate() {
                let nan = |b: &[u8]| match b.len() {
                    4 => f32::from_ne_bytes([b[0], b[1], b[2], b[3]]).is_nan(),
                    2 => {
                        let h = u16::from_ne_bytes([b[0], b[1]]);
                        if self.yt == DType::Float16 {
                            half::f16::from_bits(h).is_nan()
                        } else {
                            half::bf16::from_bits(h).is_nan()
                        }
                    }
                    _ => false,
                };
                assert!(
                    g == w || (nan(g) && nan(w)),
                    "{what} on {tier:?}: {} {} x {} -> {} dims {:?} scale dims {:?} \
                     {:?}: element (byte group) {i}: got {g:02x?}, scalar path {w:02x?}",
                    if quantize { "Q" } else { "DQ" },
                    self.xt,
                    self.st,
                    self.yt,
                    self.dims,
                    self.sdims,
                    self.options,
                );
            }
        }
    }
}

/// Scale tensors of `count` elements of each scale type, from a sample of values.
fn scale_sets(count: usize, rng: &mut Rng) -> Vec<(DType, Vec<u8>)> {
    let floats: Vec<f32> = (0..count)
        .map(|i| match i % 7 {
            0 => 1.0e-3,
            1 => 0.75,
            2 => 3.0e-39, // an f32 subnormal
            3 => 6.5e4,
            _ => f32::from_bits(0x3000_0000 + (rng.next() as u32 >> 6)),
        })
        .collect();
    vec![
        (DType::Float8E8M0, rng.bytes(count)),
        (
            DType::Float,
            floats.iter().flat_map(|v| v.to_ne_bytes()).collect(),
        ),
        (
            DType::Float16,
            floats
                .iter()
                .flat_map(|&v| half::f16::from_f32(v).to_bits().to_ne_bytes())
                .collect(),
        ),
        (
            DType::Bfloat16,
            floats
                .iter()
                .flat_map(|&v| half::bf16::from_f32(v).to_bits().to_ne_bytes())
                .collect(),
        ),
    ]
}

/// Every code of every element type times every FLOAT8E8M0 scale (a row of codes
/// per scale, blocked along the row), and times sampled FLOAT/FLOAT16/BFLOAT16 scales,
/// with zero points for the integer types, into every output type.
#[test]
fn dequantize_fast_paths_equal_the_scalar_path_on_every_code_and_scale() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for xt in DQ_TYPES {
        let nc = 1usize << xt.bits();
        let codes: Vec<u32> = (0..256 * nc).map(|i| (i % nc) as u32).collect();
        let x = pack(xt, &codes);
        let dims = [256, nc];
        let sdims = [256, 1];
        let options = QdqOptions {
            axis: 1,
            block_size: nc as i64,
            ..QdqOptions::default()
        };
        let mut sets = scale_sets(256, &mut rng);
        sets[0].1 = (0..=255u8).collect();
        let is_int = matches!(xt, DType::Int4 | DType::Uint4 | DType::Int8 | DType::Uint8);
        let zps: Vec<Option<Vec<u8>>> = if is_int {
            let z: Vec<u32> = (0..256).map(|i| (i * 7 % nc) as u32).collect();
            vec![None, Some(pack(xt, &z))]
        } else {
            vec![None]
        };
        for (st, s) in &sets {
            for zp in &zps {
                for yt in [DType::Float, DType::Float16, DType::Bfloat16] {
                    let call = Call {
                        x: &x,
                        xt,
                        dims: &dims,
                        s,
                        st: *st,
                        sdims: &sdims,
                        zp: zp.as_deref(),
                        yt,
                        options,
                    };
                    call.check(false, "every code and scale");
                }
            }
        }
    }
}

/// Codes of type `t` packed as the tensor stores them.
fn pack(t: DType, codes: &[u32]) -> Vec<u8> {
    let mut out = vec![0u8; t.bytes_for(codes.len() as u64).unwrap() as usize];
    for (i, &c) in codes.iter().enumerate() {
        if t.bits() == 4 {
            out[i / 2] |= ((c & 15) as u8) << (4 * (i % 2));
        } else {
            out[i] = c as u8;
        }
    }
    out
}

/// x values for QuantizeLinear: every 5th FLOAT16 value read as FLOAT (zeros,
/// subnormals, infinities and NaNs included), and random FLOATs of every exponent.
fn q_values(rng: &mut Rng) -> Vec<f32> {
    let mut xs: Vec<f32> = (0..=u16::MAX)
        .step_by(5)
        .map(|h| half::f16::from_bits(h).to_f32())
        .collect();
    xs.extend((0..4096).map(|_| f32::from_bits(rng.next() as u32)));
    xs
}

/// Every FLOAT16 value (a sample) and random FLOATs over every FLOAT8E8M0 scale and
/// sampled FLOAT/FLOAT16/BFLOAT16 scales, into every element type the fast path writes,
/// saturating or not, with zero points, and with `precision` FLOAT.
#[test]
fn quantize_fast_paths_equal_the_scalar_path_on_every_scale() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let xs = q_values(&mut rng);
    let row = 256;
    let rows = xs.len().div_ceil(row);
    let mut padded = xs.clone();
    padded.resize(rows * row, 1.5);
    let x: Vec<u8> = padded.iter().flat_map(|v| v.to_ne_bytes()).collect();
    let dims = [rows, row];
    let sdims = [rows, 8];
    for yt in Q_TYPES {
        let is_int = matches!(yt, DType::Int4 | DType::Uint4 | DType::Int8 | DType::Uint8);
        let mut sets = scale_sets(rows * 8, &mut rng);
        sets[0].1 = (0..rows * 8).map(|i| (i % 256) as u8).collect();
        for (st, s) in &sets {
            let zps: Vec<Option<Vec<u8>>> = if is_int {
                vec![
                    None,
                    Some(rng.bytes(yt.bytes_for(rows as u64 * 8).unwrap() as usize)),
                ]
            } else {
                vec![None]
            };
            for zp in &zps {
                for (saturate, precision) in
                    [(true, None), (false, None), (true, Some(DType::Float))]
                {
                    let call = Call {
                        x: &x,
                        xt: DType::Float,
                        dims: &dims,
                        s,
                        st: *st,
                        sdims: &sdims,
                        zp: zp.as_deref(),
                        yt,
                        options: QdqOptions {
                            axis: 1,
                            block_size: 32,
                            saturate,
                            precision,
                        },
                    };
                    call.check(true, "every scale");
                }
            }
        }
    }
}

/// Random tensors of every layout: per-tensor, per-axis and blocked along each axis of
/// a rank-3 shape, with block sizes and extents that leave tails (odd lengths, blocks
/// that do not divide the axis, runs across the fast paths' steps of 2048 elements).
#[test]
fn fast_paths_equal_the_scalar_path_on_every_layout() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let shapes: [[usize; 3]; 5] = [
        [1, 1, 1],
        [3, 5, 7],
        [2, 33, 64],
        [1, 4099, 1],
        [5, 2, 1031],
    ];
    for dims in shapes {
        let n: usize = dims.iter().product();
        let mut layouts: Vec<(Vec<usize>, i64, i64)> = vec![(vec![], 0, 0), (vec![1], 0, 0)];
        for axis in 0..3 {
            layouts.push((vec![dims[axis]], axis as i64, 0));
            for block in [1usize, 2, 3, 32, 4099] {
                let mut s = dims.to_vec();
                s[axis] = dims[axis].div_ceil(block);
                layouts.push((s, axis as i64, block as i64));
            }
        }
        let xs: Vec<u8> = (0..n)
            .flat_map(|_| {
                let e = (rng.next() % 40) as i32 - 20;
                let v = (rng.next() as u32 as f32 / u32::MAX as f32 - 0.5) * 2f32.powi(e);
                v.to_ne_bytes()
            })
            .collect();
        for (sdims, axis, block) in &layouts {
            let scount: usize = sdims.iter().product();
            let options = QdqOptions {
                axis: *axis,
                block_size: *block,
                ..QdqOptions::default()
            };
            for (st, s) in scale_sets(scount, &mut rng) {
                for t in [
                    DType::Float4E2M1,
                    DType::Float8E4M3Fn,
                    DType::Int4,
                    DType::Uint8,
                ] {
                    let is_int = matches!(t, DType::Int4 | DType::Uint8);
                    let codes = rng.bytes(t.bytes_for(n as u64).unwrap() as usize);
                    let zp =
                        is_int.then(|| rng.bytes(t.bytes_for(scount as u64).unwrap() as usize));
                    for yt in [DType::Float, DType::Bfloat16] {
                        let call = Call {
                            x: &codes,
                            xt: t,
                            dims: &dims,
                            s: &s,
                            st,
                            sdims,
                            zp: zp.as_deref(),
                            yt,
                            options,
                        };
                        call.check(false, "layout");
                    }
                    let call = Call {
                        x: &xs,
                        xt: DType::Float,
                        dims: &dims,
                        s: &s,
                        st,
                        sdims,
                        zp: zp.as_deref(),
                        yt: t,
                        options,
                    };
                    call.check(true, "layout");
                }
            }
        }
    }
}
