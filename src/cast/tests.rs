// SPDX-License-Identifier: MIT OR Apache-2.0
//! The kernels against the exact reference: every 8- and 16-bit source value for every
//! target on every CPU tier, special and random values for the wider sources, and the
//! strided / threaded execution paths against contiguous single-threaded runs. In quick
//! mode (`testutil::quick`) the 16-bit values and the random ones are sampled.

use super::kernels::select;
use super::reference::cast_element;
use super::{cast, CastOptions};
use crate::dtype::{DType, Scalar};
use crate::simd::kernel::Tier;
use crate::tensor::{Tensor, TensorMut};
use crate::testutil::{checks_element, patterns_u16, samples};

/// xorshift64*: a small deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// An element's bytes, most significant first (the host's byte order decides which that
/// is).
fn hex(bytes: &[u8]) -> String {
    let digits = |b: &u8| format!("{b:02x}");
    if cfg!(target_endian = "big") {
        bytes.iter().map(digits).collect()
    } else {
        bytes.iter().rev().map(digits).collect()
    }
}

/// Runs every target's kernel on every tier over `inputs` and compares each element
/// with the reference, byte for byte (NaN payloads included).
fn check_against_reference(from: Scalar, inputs: &[u8]) {
    let fs = from.size();
    let n = inputs.len() / fs;
    for to in Scalar::ALL {
        let ts = to.size();
        let mut expected = vec![0u8; n * ts];
        for (src, dst) in inputs.chunks_exact(fs).zip(expected.chunks_exact_mut(ts)) {
            cast_element(from, to, src, dst);
        }
        for tier in Tier::available() {
            let mut got = vec![0u8; n * ts];
            select(from, to, tier).run(inputs, &mut got);
            if let Some(i) = (0..n).find(|&i| got[i * ts..][..ts] != expected[i * ts..][..ts]) {
                panic!(
                    "{from:?} -> {to:?} on {tier:?}: element {i} (0x{}) gave 0x{}, expected 0x{}",
                    hex(&inputs[i * fs..][..fs]),
                    hex(&got[i * ts..][..ts]),
                    hex(&expected[i * ts..][..ts])
                );
            }
        }
    }
}

#[test]
fn every_8_bit_source_value_to_every_target() {
    let all: Vec<u8> = (0..=255).collect();
    for from in [Scalar::Bool, Scalar::I8, Scalar::U8] {
        check_against_reference(from, &all);
    }
}

#[test]
fn every_16_bit_source_value_to_every_target() {
    let all: Vec<u8> = patterns_u16()
        .into_iter()
        .flat_map(u16::to_ne_bytes)
        .collect();
    for from in [Scalar::I16, Scalar::U16, Scalar::F16, Scalar::Bf16] {
        check_against_reference(from, &all);
    }
}

/// Bit patterns around values where some conversion changes behaviour: limits of every
/// target, rounding boundaries and ties of f16/bf16/f32, subnormals, NaNs with payloads.
fn f32_specials() -> Vec<u32> {
    let anchors: Vec<u32> = [
        0.0f32,
        1.0,
        1.5,
        2.5,
        0.5,
        0.99,
        127.5,
        128.0,
        255.5,
        256.0,
        32767.5,
        32768.0,
        65504.0,
        65519.996,
        65520.0,
        65535.5,
        65536.0,
        2147483520.0,
        2147483648.0,
        4294967296.0,
        9.223372e18,
        1.8446744e19,
        16777216.0,
        16777217.0,
        1e-8,
        1e30,
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::EPSILON,
    ]
    .iter()
    .map(|x| x.to_bits())
    .chain([
        0x0000_0001,
        0x007f_ffff,
        0x3380_0000,
        0x3300_0000,
        0x3340_0000,
        0x3880_0000,
        0x387f_e000,
        0x387f_f000,
        0x3f80_8000,
        0x3f81_8000,
        0x3f80_1000,
        0x3f80_3000,
        0x4780_0000,
        0x477f_f000,
        0x7f7f_8000,
        0x7f80_0000,
        0x7f80_0001,
        0x7fa0_0000,
        0x7fc0_0000,
        0x7fc0_0001,
        0x7fff_ffff,
        0x7fbf_ffff,
        0x0080_0000,
    ])
    .collect();
    let mut out = Vec::new();
    for a in anchors {
        for delta in -2i32..=2 {
            let b = a.wrapping_add_signed(delta);
            out.extend([b, b | 0x8000_0000]);
        }
    }
    out
}

fn f64_specials() -> Vec<u64> {
    let anchors: Vec<u64> = [
        0.0f64,
        1.0,
        0.5,
        1.5,
        2.5,
        127.5,
        128.0,
        255.5,
        65504.0,
        65519.99999,
        65520.0,
        1.00048828125 + 1e-12,
        1.0 + 2f64.powi(-8) + 2f64.powi(-40),
        2147483647.5,
        2147483648.0,
        4294967295.5,
        4294967296.0,
        9.223372036854775e18,
        9.223372036854776e18,
        1.8446744073709552e19,
        9007199254740993.0,
        3.4028235677973366e38,
        3.4028235e38,
        3.4e38,
        1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        1e-310,
        5.960464477539063e-8,
        2.9802322387695312e-8,
        1.401298464324817e-45,
        7.006492321624085e-46,
        1.1754942e-38,
    ]
    .iter()
    .map(|x| x.to_bits())
    .chain([
        1,
        0x000f_ffff_ffff_ffff,
        0x7ff0_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0x7ff8_0000_0000_0000,
        0x7ff8_0000_2000_0000,
        0x7fff_ffff_ffff_ffff,
        0x3ff0_0000_1000_0000, // 1 + 2^-24: the f32 tie
        0x3ff0_0200_0000_0000, // 1 + 2^-11: the f16 tie
        0x3ff0_0200_0000_0001,
        0x3ff0_1000_0000_0000, // 1 + 2^-8: the bf16 tie
        0x3ff0_1000_0000_0001,
        0x3ff0_0fff_ffff_ffff,
    ])
    .collect();
    let mut out = Vec::new();
    for a in anchors {
        for delta in -2i64..=2 {
            let b = a.wrapping_add_signed(delta);
            out.extend([b, b | (1 << 63)]);
        }
    }
    out
}

fn int_specials() -> Vec<u64> {
    let mut out = Vec::new();
    for shift in 0..64 {
        let p = 1u64 << shift;
        for v in [
            p,
            p.wrapping_sub(1),
            p + 1,
            p.wrapping_neg(),
            p.wrapping_neg().wrapping_sub(1),
        ] {
            out.push(v);
        }
    }
    // Around the f32/bf16/f16 rounding points of large integers.
    for base in [
        1u64 << 24,
        1 << 53,
        1 << 60,
        (1 << 60) + (1 << 52),
        65520,
        65504,
    ] {
        for d in 0..4 {
            out.extend([base + d, base - d, (base + d).wrapping_neg()]);
        }
    }
    out.extend([(1 << 60) + (1 << 52) + 1, (1 << 60) + (1 << 36) + 1]);
    out
}

/// Random values spread over the magnitudes that matter, plus raw random bit patterns.
fn random_f64(rng: &mut Rng) -> u64 {
    let r = rng.next();
    if r & 1 == 0 {
        return rng.next();
    }
    let exp = 1023 - 160 + (rng.next() % 240);
    (r & 0x8000_0000_0000_0000) | (exp << 52) | (rng.next() & 0x000f_ffff_ffff_ffff)
}

fn random_f32(rng: &mut Rng) -> u32 {
    let r = rng.next();
    if r & 1 == 0 {
        return rng.next() as u32;
    }
    let exp = 127 - 40 + (rng.next() % 110);
    ((r >> 32) as u32 & 0x8000_0000) | ((exp as u32) << 23) | (rng.next() as u32 & 0x007f_ffff)
}

fn random_int(rng: &mut Rng) -> u64 {
    let r = rng.next();
    // Random magnitudes of every bit length, both signs.
    let v = r >> (rng.next() % 64);
    if rng.next() & 1 == 0 {
        v
    } else {
        v.wrapping_neg()
    }
}

const RANDOM_SAMPLES: usize = 1 << 19;

#[test]
fn wide_float_sources_special_and_random() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut f32s = f32_specials();
    f32s.extend((0..samples(RANDOM_SAMPLES)).map(|_| random_f32(&mut rng)));
    let bytes: Vec<u8> = f32s.iter().flat_map(|b| b.to_ne_bytes()).collect();
    check_against_reference(Scalar::F32, &bytes);

    let mut f64s = f64_specials();
    f64s.extend((0..samples(RANDOM_SAMPLES)).map(|_| random_f64(&mut rng)));
    let bytes: Vec<u8> = f64s.iter().flat_map(|b| b.to_ne_bytes()).collect();
    check_against_reference(Scalar::F64, &bytes);

    // Complex: pair specials with random parts.
    let c64: Vec<u8> = f32s
        .iter()
        .flat_map(|&re| {
            let im = random_f32(&mut rng);
            [re.to_ne_bytes(), im.to_ne_bytes()].concat()
        })
        .collect();
    check_against_reference(Scalar::C64, &c64);
    let c128: Vec<u8> = f64s
        .iter()
        .flat_map(|&re| [re.to_ne_bytes(), random_f64(&mut rng).to_ne_bytes()].concat())
        .collect();
    check_against_reference(Scalar::C128, &c128);
}

/// Every kernel at every length from 0 to 300 elements on every tier: the vector
/// kernels split their whole steps into four streams (the last also taking the steps
/// left over) and finish a tail element by element, so each split, leftover step count
/// and tail length is met here with specials and random values in every position.
#[test]
fn every_length_up_to_300_matches_the_reference() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let f32s = f32_specials();
    let f64s = f64_specials();
    let ints = int_specials();
    for len in 0..=300 {
        let pick = |pool: &[u64], rng: &mut Rng| pool[rng.next() as usize % pool.len()];
        let f32_pool: Vec<u64> = f32s.iter().map(|&b| u64::from(b)).collect();
        let f32_bytes: Vec<u8> = (0..len)
            .flat_map(|_| (pick(&f32_pool, &mut rng) as u32).to_ne_bytes())
            .collect();
        check_against_reference(Scalar::F32, &f32_bytes);
        let f64_bytes: Vec<u8> = (0..len)
            .flat_map(|_| pick(&f64s, &mut rng).to_ne_bytes())
            .collect();
        check_against_reference(Scalar::F64, &f64_bytes);
        let int_bytes: Vec<u8> = (0..len)
            .flat_map(|_| pick(&ints, &mut rng).to_ne_bytes())
            .collect();
        check_against_reference(Scalar::I64, &int_bytes);
        let u8_bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        check_against_reference(Scalar::U8, &u8_bytes);
    }
}

#[test]
fn wide_integer_sources_special_and_random() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut values = int_specials();
    values.extend((0..samples(RANDOM_SAMPLES)).map(|_| random_int(&mut rng)));
    let b64: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    let b32: Vec<u8> = values
        .iter()
        .flat_map(|&v| (v as u32).to_ne_bytes())
        .collect();
    for from in [Scalar::I64, Scalar::U64] {
        check_against_reference(from, &b64);
    }
    for from in [Scalar::I32, Scalar::U32] {
        check_against_reference(from, &b32);
    }
}

fn cast_bytes(from: DType, to: DType, src: &[u8], n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n * (to.bits() as usize / 8)];
    let shape = [n];
    let input = Tensor::new(src, from, &shape).unwrap();
    let mut output = TensorMut::new(&mut out, to, &shape).unwrap();
    cast(&input, &mut output, &CastOptions::default()).unwrap();
    out
}

#[test]
fn examples_of_the_semantics_page() {
    let f64_to_f16 = |x: f64| {
        let out = cast_bytes(DType::Double, DType::Float16, &x.to_ne_bytes(), 1);
        u16::from_ne_bytes([out[0], out[1]])
    };
    assert_eq!(f64_to_f16(1.00048828125 + 1e-12), 0x3c01);
    assert_eq!(f64_to_f16(65519.99999), 0x7bff);
    let f32_to = |bits: u32, to: DType| {
        let out = cast_bytes(DType::Float, to, &bits.to_ne_bytes(), 1);
        u16::from_ne_bytes([out[0], out[1]])
    };
    assert_eq!(f32_to(0x3f80_8000, DType::Bfloat16), 0x3f80);
    assert_eq!(f32_to(0x3f81_8000, DType::Bfloat16), 0x3f82);
    assert_eq!(f32_to(0x7f7f_ffff, DType::Bfloat16), 0x7f80);
    assert_eq!(f32_to(0x7fc0_0000, DType::Float16), 0x7e00);
    assert_eq!(f32_to(0xffc0_0000, DType::Float16), 0xfe00);
    assert_eq!(f32_to(0x7fc0_0000, DType::Bfloat16), 0x7fc0);
    assert_eq!(f32_to(0xffc0_0000, DType::Bfloat16), 0xffc0);
    assert_eq!(f32_to(2f32.powi(-24).to_bits(), DType::Float16), 0x0001);
    let out = cast_bytes(
        DType::Int64,
        DType::Float,
        &((1i64 << 24) + 1).to_ne_bytes(),
        1,
    );
    assert_eq!(f32::from_ne_bytes(out.try_into().unwrap()), 16777216.0);
    let out = cast_bytes(DType::Int32, DType::Float16, &70000i32.to_ne_bytes(), 1);
    assert_eq!(out, 0x7c00u16.to_ne_bytes());
    let out = cast_bytes(DType::Int16, DType::Int8, &200i16.to_ne_bytes(), 1);
    assert_eq!(out, [(-56i8) as u8]);
}

/// Runs `cast` on a strided view and compares with the reference applied element by
/// element in row-major order.
fn check_strided(
    from: DType,
    to: DType,
    dims: &[usize],
    strides: &[usize],
    threads: usize,
    rng: &mut Rng,
) {
    let (fs, ts) = (from.bits() as usize / 8, to.bits() as usize / 8);
    let span = 1 + dims
        .iter()
        .zip(strides)
        .map(|(d, s)| (d - 1) * s)
        .sum::<usize>();
    let data: Vec<u8> = (0..span * fs).map(|_| rng.next() as u8).collect();
    let n: usize = dims.iter().product();
    let mut out = vec![0u8; n * ts];
    let input = Tensor::strided(&data, from, dims, strides).unwrap();
    let mut output = TensorMut::new(&mut out, to, dims).unwrap();
    let options = CastOptions {
        threads,
        ..CastOptions::default()
    };
    cast(&input, &mut output, &options).unwrap();
    let (sf, st) = (from.info().scalar.unwrap(), to.info().scalar.unwrap());
    let mut expected = vec![0u8; ts];
    for i in 0..n {
        let (mut rem, mut offset) = (i, 0);
        for (d, s) in dims.iter().zip(strides).rev() {
            offset += (rem % d) * s;
            rem /= d;
        }
        cast_element(sf, st, &data[offset * fs..][..fs], &mut expected);
        assert_eq!(
            out[i * ts..][..ts],
            expected[..],
            "{from} -> {to} dims {dims:?} strides {strides:?} threads {threads}: element {i}"
        );
    }
}

#[test]
fn strided_inputs_match_the_reference() {
    let mut rng = Rng(42);
    let pairs = [
        (DType::Float, DType::Float16),
        (DType::Double, DType::Int32),
        (DType::Uint8, DType::Complex128),
        (DType::Complex128, DType::Bfloat16),
        (DType::Int16, DType::Int16),
    ];
    let cases: [(&[usize], &[usize]); 8] = [
        (&[3, 4], &[1, 3]),        // a transposed 4x3 matrix
        (&[5], &[0]),              // one element broadcast
        (&[2, 3, 4], &[24, 8, 2]), // every other element
        (&[4, 1, 3], &[3, 7, 1]),  // contiguous rows, padded outer stride
        (&[2, 700], &[1400, 2]),   // rows longer than the gather buffer
        (&[3, 3], &[0, 1]),        // repeated rows
        (&[2, 2, 2, 2], &[1, 2, 4, 8]),
        (&[1000], &[3]),
    ];
    for (from, to) in pairs {
        for (dims, strides) in cases {
            check_strided(from, to, dims, strides, 0, &mut rng);
        }
    }
}

#[test]
fn threads_give_bit_identical_results() {
    let mut rng = Rng(7);
    let n = (1 << 18) + 77;
    let src: Vec<u8> = (0..n * 4).map(|_| rng.next() as u8).collect();
    for to in [DType::Float16, DType::Int8, DType::Double] {
        let single = {
            let mut out = vec![0u8; n * (to.bits() as usize / 8)];
            let shape = [n];
            let input = Tensor::new(&src, DType::Float, &shape).unwrap();
            let mut output = TensorMut::new(&mut out, to, &shape).unwrap();
            cast(&input, &mut output, &CastOptions::default()).unwrap();
            out
        };
        for threads in [2, 3, 8, 1000] {
            let mut out = vec![0u8; single.len()];
            let shape = [n];
            let input = Tensor::new(&src, DType::Float, &shape).unwrap();
            let mut output = TensorMut::new(&mut out, to, &shape).unwrap();
            let options = CastOptions {
                threads,
                ..CastOptions::default()
            };
            cast(&input, &mut output, &options).unwrap();
            assert!(
                out == single,
                "FLOAT -> {to} with {threads} threads differs"
            );
        }
    }
    // Strided and threaded at once, split points inside rows.
    check_strided(
        DType::Float,
        DType::Bfloat16,
        &[600, 501],
        &[1, 600],
        3,
        &mut rng,
    );
}

/// Sources of `FOUR_STREAMS_MIN_BYTES` and more, where the x86-64 light kernels (FLOAT
/// -> FLOAT16, BFLOAT16 and BOOL, DOUBLE -> FLOAT16) run as four interleaved streams
/// (one plain loop below, which the other tests take): on every tier, against the
/// reference (in quick mode the elements `checks_element` names). Specials and random
/// bit patterns.
#[test]
fn large_sources_of_the_light_kernels_match_the_reference() {
    use crate::simd::kernel::FOUR_STREAMS_MIN_BYTES;
    let mut rng = Rng(0x119_4757);
    let f32s = f32_specials();
    let f64s = f64_specials();
    for (from, targets) in [
        (Scalar::F32, &[Scalar::F16, Scalar::Bf16, Scalar::Bool][..]),
        (Scalar::F64, &[Scalar::F16][..]),
    ] {
        let fs = from.size();
        let n = FOUR_STREAMS_MIN_BYTES / fs + 37;
        let inputs: Vec<u8> = (0..n)
            .flat_map(|i| {
                let r = rng.next();
                match (from, i % 4) {
                    (Scalar::F32, 0) => f32s[r as usize % f32s.len()].to_ne_bytes().to_vec(),
                    (Scalar::F32, _) => (r as u32).to_ne_bytes().to_vec(),
                    (_, 0) => f64s[r as usize % f64s.len()].to_ne_bytes().to_vec(),
                    _ => r.to_ne_bytes().to_vec(),
                }
            })
            .collect();
        for &to in targets {
            let ts = to.size();
            for tier in Tier::available() {
                let mut got = vec![0u8; n * ts];
                select(from, to, tier).run(&inputs, &mut got);
                let mut want = vec![0u8; ts];
                for i in (0..n).filter(|&i| checks_element(i, n)) {
                    cast_element(from, to, &inputs[i * fs..][..fs], &mut want);
                    assert_eq!(
                        got[i * ts..][..ts],
                        want[..],
                        "{from:?} -> {to:?} on {tier:?}: element {i} of {n} (0x{})",
                        hex(&inputs[i * fs..][..fs])
                    );
                }
            }
        }
    }
}

#[test]
fn large_widening_casts_through_streaming_stores_match_the_reference() {
    // Outputs of 16 MiB and more take the streaming path; an odd count and a
    // misaligned output exercise its unaligned head and tail.
    let n = (4 << 20) + 37;
    let mut rng = Rng(99);
    let src: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
    for (from, to) in [(DType::Uint8, DType::Float), (DType::Int8, DType::Double)] {
        let ts = to.bits() as usize / 8;
        let mut storage = vec![0u8; n * ts + 1];
        let out = &mut storage[1..];
        let shape = [n];
        let input = Tensor::new(&src, from, &shape).unwrap();
        let mut output = TensorMut::new(out, to, &shape).unwrap();
        cast(&input, &mut output, &CastOptions::default()).unwrap();
        let (sf, st) = (from.info().scalar.unwrap(), to.info().scalar.unwrap());
        let mut expected = vec![0u8; ts];
        for (i, s) in src.iter().enumerate() {
            cast_element(sf, st, std::slice::from_ref(s), &mut expected);
            assert_eq!(
                storage[1 + i * ts..][..ts],
                expected[..],
                "{from} -> {to}: element {i}"
            );
        }
    }
}

/// A call whose output streams decides so once: its pieces on several threads, below
/// the streaming size (staged through a buffer) or above it (streamed by the kernel
/// itself), give what one thread gives, for kernels that stream themselves (u8 -> f32,
/// f64 -> f32) and a widening cast staged by `exec` (f16 -> f64).
#[test]
fn streamed_outputs_split_over_threads_match_one_thread() {
    let mut rng = Rng(0x7472);
    for (from, to) in [
        (DType::Uint8, DType::Float),
        (DType::Double, DType::Float),
        (DType::Float16, DType::Double),
    ] {
        let (fs, ts) = (from.bits() as usize / 8, to.bits() as usize / 8);
        for n in [streamed_count(ts), 2 * streamed_count(ts) + 64] {
            let src: Vec<u8> = (0..n * fs).map(|_| rng.next() as u8).collect();
            let shape = [n];
            let run = |threads: usize| {
                let mut out = vec![0u8; n * ts];
                let input = Tensor::new(&src, from, &shape).unwrap();
                let mut output = TensorMut::new(&mut out, to, &shape).unwrap();
                let options = CastOptions {
                    threads,
                    ..CastOptions::default()
                };
                cast(&input, &mut output, &options).unwrap();
                out
            };
            let single = run(1);
            for threads in [2, 3] {
                assert!(
                    run(threads) == single,
                    "{from} -> {to}, {n} elements on {threads} threads differs"
                );
            }
        }
    }
}

/// Output bytes from which the kernels stream (kernel::STREAM_MIN_BYTES), and a little
/// more.
fn streamed_count(dst_size: usize) -> usize {
    (crate::simd::kernel::STREAM_MIN_BYTES / dst_size) + 37
}

/// Runs a public cast of `src` (`n` elements) into an output starting `offset` bytes
/// past a 32-byte boundary, and returns the output bytes.
fn cast_at_offset(from: DType, to: DType, src: &[u8], n: usize, offset: usize) -> Vec<u8> {
    let ts = to.bits() as usize / 8;
    let mut storage = vec![0u8; n * ts + 64];
    let start = storage.as_ptr().align_offset(32) + offset;
    let shape = [n];
    let input = Tensor::new(src, from, &shape).unwrap();
    let mut output = TensorMut::new(&mut storage[start..start + n * ts], to, &shape).unwrap();
    cast(&input, &mut output, &CastOptions::default()).unwrap();
    storage[start..start + n * ts].to_vec()
}

#[test]
fn large_outputs_streamed_by_the_kernels_match_the_reference() {
    // The kernels that stream their own stores do so from the first 32-byte boundary of
    // an output of at least 16 MiB on; outputs at a boundary and one element past it
    // give them no head and a head. Every 8- and 16-bit source value appears; the wide
    // sources start with their specials, then random bit patterns.
    let mut rng = Rng(0x5eed);
    let pairs = [
        (DType::Uint8, DType::Float),
        (DType::Int8, DType::Float),
        (DType::Bfloat16, DType::Float),
        (DType::Float16, DType::Float),
        (DType::Double, DType::Float),
        (DType::Float, DType::Int32),
        (DType::Int32, DType::Float),
        (DType::Int64, DType::Int32),
    ];
    for (from, to) in pairs {
        let (fs, ts) = (from.bits() as usize / 8, to.bits() as usize / 8);
        let n = streamed_count(ts);
        let mut src: Vec<u8> = match from {
            DType::Double => f64_specials()
                .iter()
                .flat_map(|x| x.to_ne_bytes())
                .collect(),
            DType::Float => f32_specials()
                .iter()
                .flat_map(|x| x.to_ne_bytes())
                .collect(),
            // The ends, and ties and near-ties of f32's rounding above 2^24.
            DType::Int32 => [
                i32::MIN,
                i32::MAX,
                0,
                -1,
                16_777_217,
                -16_777_219,
                16_777_219,
            ]
            .iter()
            .flat_map(|x| x.to_ne_bytes())
            .collect(),
            DType::Int64 => [
                i64::MIN,
                i64::MAX,
                -1,
                1 << 32,
                (1 << 32) - 1,
                -(1 << 31) - 1,
            ]
            .iter()
            .flat_map(|x| x.to_ne_bytes())
            .collect(),
            _ => (0..1u32 << (8 * fs))
                .flat_map(|v| v.to_le_bytes()[..fs].to_vec())
                .collect(),
        };
        while src.len() < n * fs {
            src.extend(rng.next().to_ne_bytes());
        }
        src.truncate(n * fs);
        let (sf, st) = (from.info().scalar.unwrap(), to.info().scalar.unwrap());
        for offset in [0, ts] {
            let got = cast_at_offset(from, to, &src, n, offset);
            let mut expected = vec![0u8; ts];
            for (i, (s, g)) in src.chunks_exact(fs).zip(got.chunks_exact(ts)).enumerate() {
                if !checks_element(i, n) {
                    continue;
                }
                cast_element(sf, st, s, &mut expected);
                assert_eq!(
                    g,
                    &expected[..],
                    "{from} -> {to} at offset {offset}: element {i} (0x{})",
                    hex(s)
                );
            }
        }
    }
}
