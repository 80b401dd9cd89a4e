// SPDX-License-Identifier: MIT OR Apache-2.0
//! The low-precision kernels against the exact reference: every code of every format to
//! every target, every f16 and bf16 value (and special and random f32/f64/integer
//! values) to every format under every option, format to format, and the packed
//! layouts through the public API. In quick mode (`testutil::quick`) the 16-bit values and
//! the random ones are sampled.

use super::kernels::{select_any, select_unpacked};
use super::reference::{decode, low_decode, low_encode, store_exact, Exact};
use super::{cast, CastOptions, RoundMode};
use crate::dtype::{DType, Scalar};
use crate::formats::lowp::{format_of, FORMATS};
use crate::formats::repr::Repr;
use crate::simd::kernel::{Kernel, Tier};
use crate::tensor::{Tensor, TensorMut};

const OPTIONS: [(bool, u8); 6] = [
    (true, 0),
    (false, 0),
    (true, 1),
    (false, 1),
    (true, 2),
    (false, 2),
];

fn formats() -> impl Iterator<Item = u8> {
    0..FORMATS.len() as u8
}

#[test]
fn format_ids_name_their_dtypes() {
    // The ids, FORMATS and the rows are generated from one list: each id names its row's
    // format, and every dtype with format parameters has an id.
    for id in formats() {
        let f = FORMATS[id as usize];
        assert_eq!(f.dtype.info().low, Some(f), "{}", f.dtype);
        assert_eq!(format_of(f.dtype), Some(id), "{}", f.dtype);
    }
    let with_params = DType::all().filter(|d| d.info().low.is_some()).count();
    assert_eq!(with_params, FORMATS.len());
    assert_eq!(
        crate::dtype::low_ids::E4M3FN,
        format_of(DType::Float8E4M3Fn).unwrap()
    );
    assert_eq!(crate::dtype::low_ids::U2, format_of(DType::Uint2).unwrap());
}

fn codes(format: u8) -> Vec<u8> {
    (0..1u16 << FORMATS[format as usize].bits)
        .map(|c| c as u8)
        .collect()
}

fn source_value(from: Repr, bytes: &[u8]) -> Exact {
    match from {
        Repr::Std(s) => decode(s, bytes).0,
        Repr::Low(f) => low_decode(f, bytes[0]),
    }
}

/// Encodes `inputs` (elements of `from`) to every format under every option on every
/// tier and compares each code with the reference.
fn check_encoding(from: Repr, size: usize, inputs: &[u8]) {
    for format in formats() {
        for (saturate, mode) in OPTIONS {
            // A same-dtype cast copies the codes.
            let expected: Vec<u8> = inputs
                .chunks_exact(size)
                .map(|b| match from {
                    Repr::Low(f) if f == format => b[0],
                    _ => low_encode(format, saturate, mode, source_value(from, b)),
                })
                .collect();
            for tier in Tier::available() {
                let compare = |got: &[u8], form: &str| {
                    if let Some(i) = (0..got.len()).find(|&i| got[i] != expected[i]) {
                        panic!(
                            "{from:?} -> {}{form} (saturate {saturate}, round_mode {mode}) on {tier:?}: element {i} {:02x?} gave {:#04x}, expected {:#04x}",
                            FORMATS[format as usize].dtype,
                            &inputs[i * size..(i + 1) * size],
                            got[i],
                            expected[i]
                        );
                    }
                };
                let mut got = vec![0u8; expected.len()];
                let kernel = select_any(from, Repr::Low(format), saturate, mode, tier);
                if kernel.packs_bits != 0 {
                    let bits = kernel.packs_bits;
                    let mut packed = vec![0u8; (got.len() * bits as usize).div_ceil(8)];
                    kernel.run(inputs, &mut packed);
                    crate::formats::pack::unpack(bits, &packed, &mut got);
                } else {
                    kernel.run(inputs, &mut got);
                }
                compare(&got, "");
                // The encoder that writes a sub-byte format's codes one per byte.
                if let Some(kernel) = select_unpacked(from, Repr::Low(format), saturate, mode, tier)
                {
                    assert_eq!(kernel.packs_bits, 0);
                    let mut got = vec![0xffu8; expected.len()];
                    kernel.run(inputs, &mut got);
                    compare(&got, " one per byte");
                }
            }
        }
    }
}

/// Runs decoder `kernel` over `codes` (one per byte) from `offset` bytes into a buffer:
/// packed first for a kernel that reads packed input, with the unused high bits of a
/// part-filled last byte set (the kernel must ignore them).
fn run_decoder(kernel: Kernel, codes: &[u8], offset: usize, out: &mut [u8]) {
    let mut input = vec![0u8; offset];
    let bits = kernel.unpacks_bits;
    if bits != 0 {
        let mut packed = vec![0u8; (codes.len() * bits as usize).div_ceil(8)];
        crate::formats::pack::pack(bits, codes, &mut packed);
        let used = codes.len() * bits as usize % 8;
        if used != 0 {
            *packed.last_mut().unwrap() |= 0xff << used;
        }
        input.extend_from_slice(&packed);
    } else {
        input.extend_from_slice(codes);
    }
    kernel.run(&input[offset..], out);
}

#[test]
fn every_code_decodes_exactly_to_every_target() {
    for format in formats() {
        let all = codes(format);
        for to in Scalar::ALL {
            let ts = to.size();
            let mut expected = vec![0u8; all.len() * ts];
            for (&c, slot) in all.iter().zip(expected.chunks_exact_mut(ts)) {
                store_exact(low_decode(format, c), to, slot);
            }
            for tier in Tier::available() {
                let mut got = vec![0u8; expected.len()];
                let kernel = select_any(Repr::Low(format), Repr::Std(to), true, 0, tier);
                run_decoder(kernel, &all, 0, &mut got);
                if let Some(i) =
                    (0..all.len()).find(|&i| got[i * ts..][..ts] != expected[i * ts..][..ts])
                {
                    panic!(
                        "{} code {:#04x} -> {to:?} on {tier:?}: got {:02x?}, expected {:02x?}",
                        FORMATS[format as usize].dtype,
                        all[i],
                        &got[i * ts..][..ts],
                        &expected[i * ts..][..ts]
                    );
                }
            }
        }
    }
}

/// The signed 8-bit float formats decode to FLOAT16 and BFLOAT16 by the rule of
/// `Lut::EIGHTS` (the AVX2 and NEON kernels) rather than by table lookups per code: the
/// compile-time check of the rule holds for each of them (a format it does not hold for
/// would silently fall back to the slower lookups; the tests above check the values
/// either way).
#[test]
fn signed_float8_formats_have_a_gather_free_16_bit_rule() {
    use crate::dtype::low_ids::{E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ};
    use crate::formats::lut::{Lut, LUT_BF16, LUT_F16};
    for (name, rules) in [
        ("E4M3FN", Lut::<E4M3FN>::EIGHTS),
        ("E4M3FNUZ", Lut::<E4M3FNUZ>::EIGHTS),
        ("E5M2", Lut::<E5M2>::EIGHTS),
        ("E5M2FNUZ", Lut::<E5M2FNUZ>::EIGHTS),
    ] {
        for target in [LUT_F16, LUT_BF16] {
            assert!(
                rules[usize::from(target)].is_some(),
                "{name} to target {target}"
            );
        }
    }
}

/// The AVX2 table-gather decoder to FLOAT16 and BFLOAT16, which every current 8-bit
/// format leaves for a rule of its own (a format without one would take it): every code,
/// in vector steps and a tail, against the table.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_gather_decoder_to_16_bit_targets_matches_the_table() {
    use crate::dtype::low_ids::{E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, E8M0};
    use crate::formats::lut::{Lut, LUT_BF16, LUT_F16};
    use crate::simd::x86_64::cast::decode_lut_by_gather;
    // Every code twice, scrambled, then a tail of seven.
    let codes: Vec<u8> = (0..512 + 7).map(|i| (i * 37 + i / 256) as u8).collect();
    let check = |name: &str, kernel: Kernel, table: &[u32; 256]| {
        let mut got = vec![0u8; codes.len() * 2];
        kernel.run(&codes, &mut got);
        for (i, (&c, g)) in codes.iter().zip(got.chunks_exact(2)).enumerate() {
            let want = (table[usize::from(c)] as u16).to_ne_bytes();
            assert_eq!(g, want, "{name} code {c:#04x} at {i}");
        }
    };
    macro_rules! formats {
        ($token:ident: $($f:ident),*) => {$(
            check(
                concat!(stringify!($f), " -> FLOAT16"),
                decode_lut_by_gather::<$f, LUT_F16>($token),
                &Lut::<$f>::TABLES[usize::from(LUT_F16)],
            );
            check(
                concat!(stringify!($f), " -> BFLOAT16"),
                decode_lut_by_gather::<$f, LUT_BF16>($token),
                &Lut::<$f>::TABLES[usize::from(LUT_BF16)],
            );
        )*};
    }
    for tier in Tier::available() {
        if let Tier::Avx2(token) = tier {
            formats!(token: E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, E8M0);
        }
    }
}

/// The decoders' vector loops (32 codes per step) and their scalar tails, on every
/// tier: every code of every format, in a scrambled order, at lengths that end inside
/// and at the end of a step, to f32, f16 and bf16 (the table decoders' targets) and f64.
#[test]
fn codes_decode_in_vector_steps_and_tails() {
    for format in formats() {
        let count = 1usize << FORMATS[format as usize].bits;
        for len in [
            31usize,
            32,
            33,
            34,
            35,
            37,
            64,
            64 + 7,
            256,
            256 + 45,
            1024 + 31,
        ] {
            let input: Vec<u8> = (0..len)
                .map(|i| ((i * 37 + i / count) % count) as u8)
                .collect();
            for to in [Scalar::F32, Scalar::F16, Scalar::Bf16, Scalar::F64] {
                let ts = to.size();
                let mut expected = vec![0u8; len * ts];
                for (&c, slot) in input.iter().zip(expected.chunks_exact_mut(ts)) {
                    store_exact(low_decode(format, c), to, slot);
                }
                for (tier, offset) in Tier::available().into_iter().flat_map(|t| [(t, 0), (t, 1)]) {
                    let mut storage = vec![0u8; len * ts + offset];
                    let got = &mut storage[offset..];
                    let kernel = select_any(Repr::Low(format), Repr::Std(to), true, 0, tier);
                    run_decoder(kernel, &input, offset, got);
                    if let Some(i) =
                        (0..len).find(|&i| got[i * ts..][..ts] != expected[i * ts..][..ts])
                    {
                        panic!(
                            "{} code {:#04x} at {i} of {len} -> {to:?} on {tier:?}, offset {offset}: got {:02x?}, expected {:02x?}",
                            FORMATS[format as usize].dtype,
                            input[i],
                            &got[i * ts..][..ts],
                            &expected[i * ts..][..ts]
                        );
                    }
                }
            }
        }
    }
}

/// Sub-byte codes held one per byte (an unpacked tensor's bytes, whatever their high
/// bits) through the decoder `cast::exec` picks for them, on every tier: every byte value,
/// scrambled, at lengths that end inside and at the end of a vector step, from an
/// aligned and an unaligned start, to f32, f16, bf16 (the table decoders' targets, which
/// mask the codes themselves where the tier has one) and f64, against the reference of
/// each byte's low bits.
#[test]
fn held_codes_decode_in_vector_steps_and_tails() {
    use super::kernels::decode_codes_on;
    for format in formats().filter(|&f| FORMATS[f as usize].bits < 8) {
        let mask = (1u16 << FORMATS[format as usize].bits) as u8 - 1;
        for len in [31usize, 32, 33, 64 + 7, 256, 256 + 45, 1024 + 31] {
            let input: Vec<u8> = (0..len).map(|i| (i * 37 + i / 256) as u8).collect();
            for to in [Scalar::F32, Scalar::F16, Scalar::Bf16, Scalar::F64] {
                let ts = to.size();
                let mut expected = vec![0u8; len * ts];
                for (&c, slot) in input.iter().zip(expected.chunks_exact_mut(ts)) {
                    store_exact(low_decode(format, c & mask), to, slot);
                }
                for (tier, offset) in Tier::available().into_iter().flat_map(|t| [(t, 0), (t, 1)]) {
                    let kernel = decode_codes_on(format, to, tier);
                    // The SIMD tiers' table decoders take held codes as they are.
                    let table_target = to != Scalar::F64 && tier != Tier::Portable;
                    assert_eq!(kernel.masks_bits != 0, table_target, "{to:?} on {tier:?}");
                    // A kernel that does not mask reads codes masked by its caller.
                    let codes: Vec<u8> = if kernel.masks_bits != 0 {
                        input.clone()
                    } else {
                        input.iter().map(|&c| c & mask).collect()
                    };
                    let mut source = vec![0u8; offset];
                    source.extend_from_slice(&codes);
                    let mut storage = vec![0u8; len * ts + offset];
                    let got = &mut storage[offset..];
                    kernel.run(&source[offset..], got);
                    if let Some(i) =
                        (0..len).find(|&i| got[i * ts..][..ts] != expected[i * ts..][..ts])
                    {
                        panic!(
                            "{} byte {:#04x} at {i} of {len} -> {to:?} on {tier:?}, offset {offset}: got {:02x?}, expected {:02x?}",
                            FORMATS[format as usize].dtype,
                            input[i],
                            &got[i * ts..][..ts],
                            &expected[i * ts..][..ts]
                        );
                    }
                }
            }
        }
    }
}

/// Every value in order, then shuffled: in order, neighbouring lanes of a vector hold
/// neighbouring values, which mostly share a code, so a kernel that put lanes out of
/// order could still pass; shuffled, the lanes of a vector differ.
#[test]
fn every_f16_and_bf16_value_encodes_to_every_format() {
    let mut patterns = patterns_u16();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for shuffled in [false, true] {
        if shuffled {
            for i in (1..patterns.len()).rev() {
                patterns.swap(i, rng.below(i as u64 + 1) as usize);
            }
        }
        let all: Vec<u8> = patterns.iter().flat_map(|p| p.to_ne_bytes()).collect();
        check_encoding(Repr::Std(Scalar::F16), 2, &all);
        check_encoding(Repr::Std(Scalar::Bf16), 2, &all);
    }
}

/// Every bfloat16 pattern as the top half of an f32, with a low half of zero, one, a half
/// and all ones: every tie, every rounding to odd of FLOAT's encoders (`encode.rs`) and
/// every NaN and infinity from FLOAT.
#[test]
fn every_bf16_pattern_as_f32_encodes_to_every_format() {
    let all: Vec<u8> = patterns_u16()
        .iter()
        .flat_map(|&p| [0u32, 1, 0x8000, 0xffff].map(|low| (u32::from(p) << 16) | low))
        .flat_map(|x| x.to_ne_bytes())
        .collect();
    check_encoding(Repr::Std(Scalar::F32), 4, &all);
}

#[test]
fn every_code_converts_to_every_format() {
    for format in formats() {
        check_encoding(Repr::Low(format), 1, &codes(format));
    }
}

use crate::testutil::{checks_element, host_bytes, patterns_u16, quick, samples, Rng};

#[test]
fn f32_and_f64_boundaries_and_random_values_encode_exactly() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    // Every format's overflow threshold, ties at every exponent, subnormal edges:
    // multiples of 2^-12 up to 2^17 and their neighbours cover them all for 8-bit
    // formats; add the E8M0 range, NaN with both signs, ±0 and infinities.
    let mut f32s: Vec<f32> = Vec::new();
    for k in -40..=40 {
        for frac in [
            1.0f32, 1.0625, 1.125, 1.1875, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 1.9375,
        ] {
            let x = frac * 2f32.powi(k);
            for b in [x.to_bits() - 1, x.to_bits(), x.to_bits() + 1] {
                f32s.push(f32::from_bits(b));
                f32s.push(-f32::from_bits(b));
            }
        }
    }
    f32s.extend([
        448.0, 464.0, 464.00003, 480.0, 240.0, 248.0, 247.99998, 57344.0, 61440.0, 61439.996, 6.0,
        7.5, 28.0, 30.0, 32.0,
    ]);
    f32s.extend([
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::MAX,
        f32::MIN_POSITIVE,
        1e-45,
    ]);
    f32s.extend([
        2f32.powi(-127),
        1.5 * 2f32.powi(-127),
        2f32.powi(127),
        1.5 * 2f32.powi(127),
        2f32.powi(-126),
    ]);
    let random = samples(200_000);
    for _ in 0..random {
        let r = rng.next();
        let bits = if r & 1 == 0 {
            r as u32
        } else {
            ((r >> 32) as u32 & 0x8000_0000)
                | (((100 + (r >> 8) % 60) as u32) << 23)
                | (r as u32 >> 9)
        };
        f32s.push(f32::from_bits(bits));
    }
    let bytes: Vec<u8> = f32s.iter().flat_map(|x| x.to_ne_bytes()).collect();
    check_encoding(Repr::Std(Scalar::F32), 4, &bytes);

    // f64: the same points, values just off them by less than an f32 ulp (where rounding
    // through f32 would go wrong), and random values.
    let mut f64s: Vec<f64> = Vec::new();
    for &x in &f32s[..f32s.len() - random] {
        let x = f64::from(x);
        for d in [-1i64, 0, 1] {
            f64s.push(f64::from_bits(x.to_bits().wrapping_add_signed(d)));
        }
    }
    for _ in 0..random {
        let r = rng.next();
        f64s.push(if r & 1 == 0 {
            f64::from_bits(rng.next())
        } else {
            f64::from_bits(
                (r & (1 << 63)) | ((1023 - 140 + (r >> 8) % 280) << 52) | (rng.next() >> 12),
            )
        });
    }
    let bytes: Vec<u8> = f64s.iter().flat_map(|x| x.to_ne_bytes()).collect();
    check_encoding(Repr::Std(Scalar::F64), 8, &bytes);
}

/// The encoders that pack their own output (the 4-bit and 2-bit formats from f32), on
/// every tier: lengths ending inside and at the end of a vector step of 32 (odd ones
/// leave the last byte part-filled; its unused bits must be 0), into a misaligned
/// output, against the reference code of each element.
#[test]
fn packed_encodings_in_vector_steps_and_tails() {
    for format in formats().filter(|&f| matches!(FORMATS[f as usize].bits, 2 | 4 | 6)) {
        let bits = FORMATS[format as usize].bits;
        for len in [1usize, 3, 31, 32, 33, 63, 64 + 5, 128 + 31, 257] {
            // Steps of 0.375 from -9 cover ties, both signs and the out-of-range values.
            let values: Vec<f32> = (0..len).map(|i| (i % 48) as f32 * 0.375 - 9.0).collect();
            let bytes: Vec<u8> = values.iter().flat_map(|x| x.to_ne_bytes()).collect();
            for (saturate, mode) in OPTIONS {
                let expected: Vec<u8> = values
                    .iter()
                    .map(|x| {
                        let exact = source_value(Repr::Std(Scalar::F32), &x.to_ne_bytes());
                        low_encode(format, saturate, mode, exact)
                    })
                    .collect();
                for tier in Tier::available() {
                    let from = Repr::Std(Scalar::F32);
                    let kernel = select_any(from, Repr::Low(format), saturate, mode, tier);
                    let mut got = vec![0u8; len];
                    if kernel.packs_bits != 0 {
                        assert_eq!(kernel.packs_bits, bits);
                        let size = (len * bits as usize).div_ceil(8);
                        let mut storage = vec![0xffu8; size + 1];
                        kernel.run(&bytes, &mut storage[1..]);
                        crate::formats::pack::unpack(bits, &storage[1..], &mut got);
                        let used = (len * bits as usize) % 8;
                        if used != 0 {
                            assert_eq!(
                                storage[size] >> used,
                                0,
                                "{} of {len}: unused bits of the last byte",
                                FORMATS[format as usize].dtype
                            );
                        }
                    } else {
                        kernel.run(&bytes, &mut got);
                    }
                    if let Some(i) = (0..len).find(|&i| got[i] != expected[i]) {
                        panic!(
                            "f32 {} at {i} of {len} -> {} (saturate {saturate}, round_mode {mode}) on {tier:?}: gave {:#04x}, expected {:#04x}",
                            values[i],
                            FORMATS[format as usize].dtype,
                            got[i],
                            expected[i]
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn integer_bool_and_complex_sources_encode_exactly() {
    let mut rng = Rng(77);
    let mut values: Vec<u64> = (0..64)
        .flat_map(|s| {
            [
                1u64 << s,
                (1u64 << s).wrapping_neg(),
                (1u64 << s) + 1,
                (1u64 << s) - 1,
            ]
        })
        .collect();
    let random = samples(50_000);
    values.extend((0..random).map(|_| rng.next() >> (rng.next() % 64)));
    values.extend((0..random).map(|_| (rng.next() >> (rng.next() % 64)).wrapping_neg()));
    for (scalar, size) in [
        (Scalar::I64, 8),
        (Scalar::U64, 8),
        (Scalar::I32, 4),
        (Scalar::U32, 4),
        (Scalar::I16, 2),
        (Scalar::U8, 1),
        (Scalar::I8, 1),
    ] {
        let bytes: Vec<u8> = values.iter().flat_map(|&v| host_bytes(v, size)).collect();
        check_encoding(Repr::Std(scalar), size, &bytes);
    }
    check_encoding(Repr::Std(Scalar::Bool), 1, &(0..=255).collect::<Vec<u8>>());
    let c128: Vec<u8> = (0..samples(20_000))
        .flat_map(|_| {
            let re = f64::from_bits(((1023 - 20 + rng.next() % 40) << 52) | (rng.next() >> 12));
            [re.to_ne_bytes(), rng.next().to_ne_bytes()].concat()
        })
        .collect();
    check_encoding(Repr::Std(Scalar::C128), 16, &c128);
}

fn run_cast(from: DType, to: DType, src: &[u8], n: usize, options: &CastOptions) -> Vec<u8> {
    let mut out = vec![0xa5u8; to.bytes_for(n as u64).unwrap() as usize];
    let shape = [n];
    let input = Tensor::new(src, from, &shape).unwrap();
    let mut output = TensorMut::new(&mut out, to, &shape).unwrap();
    cast(&input, &mut output, options).unwrap();
    out
}

fn pack_codes(dtype: DType, codes: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; dtype.bytes_for(codes.len() as u64).unwrap() as usize];
    if dtype.is_packed() {
        crate::formats::pack::pack(dtype.bits(), codes, &mut out);
    } else {
        out.copy_from_slice(codes);
    }
    out
}

#[test]
fn packed_tensors_through_the_public_api_match_the_reference() {
    let mut rng = Rng(2024);
    let low: Vec<DType> = formats().map(|f| FORMATS[f as usize].dtype).collect();
    for n in [0usize, 1, 2, 3, 5, 7, 8, 31, 1023, 1024, 1025, 3001] {
        let floats: Vec<f32> = (0..n)
            .map(|_| ((rng.next() % 4001) as f32 - 2000.0) / 64.0)
            .collect();
        let src: Vec<u8> = floats.iter().flat_map(|x| x.to_ne_bytes()).collect();
        for &to in &low {
            let format = format_of(to).unwrap();
            for (saturate, mode) in [(true, 0), (false, 2)] {
                let options = CastOptions {
                    saturate,
                    round_mode: [RoundMode::Up, RoundMode::Down, RoundMode::Nearest][mode as usize],
                    ..CastOptions::default()
                };
                let expected_codes: Vec<u8> = src
                    .chunks_exact(4)
                    .map(|b| low_encode(format, saturate, mode, decode(Scalar::F32, b).0))
                    .collect();
                let packed = run_cast(DType::Float, to, &src, n, &options);
                assert_eq!(
                    packed,
                    pack_codes(to, &expected_codes),
                    "FLOAT -> {to}, n {n}"
                );
                // Back to FLOAT, and to every other low-precision type.
                let back = run_cast(to, DType::Float, &packed, n, &options);
                let mut expected = vec![0u8; n * 4];
                for (&c, slot) in expected_codes.iter().zip(expected.chunks_exact_mut(4)) {
                    store_exact(low_decode(format, c), Scalar::F32, slot);
                }
                assert_eq!(back, expected, "{to} -> FLOAT, n {n}");
                for &other in &low {
                    let g = format_of(other).unwrap();
                    let codes: Vec<u8> = expected_codes
                        .iter()
                        .map(|&c| low_encode(g, saturate, mode, low_decode(format, c)))
                        .collect();
                    assert_eq!(
                        run_cast(to, other, &packed, n, &options),
                        pack_codes(other, &codes),
                        "{to} -> {other}, n {n}"
                    );
                }
            }
        }
    }
}

#[test]
fn packed_casts_split_over_threads_match_one_thread() {
    let mut rng = Rng(9);
    let n = (1 << 18) + 3;
    let src: Vec<u8> = (0..n)
        .flat_map(|_| (((rng.next() % 200) as f32 - 100.0) / 8.0).to_ne_bytes())
        .collect();
    for to in [
        DType::Int4,
        DType::Float6E3M2,
        DType::Uint2,
        DType::Float8E5M2,
    ] {
        let one = run_cast(DType::Float, to, &src, n, &CastOptions::default());
        let many = run_cast(
            DType::Float,
            to,
            &src,
            n,
            &CastOptions {
                threads: 3,
                ..CastOptions::default()
            },
        );
        assert!(one == many, "FLOAT -> {to} with 3 threads differs");
        let back_one = run_cast(to, DType::Double, &one, n, &CastOptions::default());
        let back_many = run_cast(
            to,
            DType::Double,
            &one,
            n,
            &CastOptions {
                threads: 4,
                ..CastOptions::default()
            },
        );
        assert!(
            back_one == back_many,
            "{to} -> DOUBLE with 4 threads differs"
        );
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut out, b| {
        // Writing to a String cannot fail.
        let _ = write!(out, "{b:02x}");
        out
    })
}

#[test]
fn test_vectors_of_the_semantics_page() {
    let inputs = [
        0.47892547f32,
        0.48033667,
        0.49968487,
        0.81910545,
        0.47031248,
        0.7229038,
        1e6,
        1e-7,
        f32::NAN,
        f32::INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -1e-7,
        1e-7,
        -1e6,
    ];
    let src: Vec<u8> = inputs.iter().flat_map(|x| x.to_ne_bytes()).collect();
    let n = inputs.len();
    let nosat = CastOptions {
        saturate: false,
        ..CastOptions::default()
    };
    for (to, sat, no_sat_tail) in [
        (
            DType::Float8E4M3Fn,
            "2f2f30352f347e007f7e7efe8000fe",
            "2f347f007f7f7fff8000ff",
        ),
        (
            DType::Float8E4M3Fnuz,
            "3737383d373c7f00807f7fff0000ff",
            "373c800080808080000080",
        ),
        (
            DType::Float8E5M2,
            "3838383b383a7b007e7b7bfb8000fb",
            "383a7c007e7c7cfc8000fc",
        ),
        (
            DType::Float8E5M2Fnuz,
            "3c3c3c3f3c3e7f00807f7fff0000ff",
            "3c3e800080808080000080",
        ),
    ] {
        assert_eq!(
            hex(&run_cast(
                DType::Float,
                to,
                &src,
                n,
                &CastOptions::default()
            )),
            sat,
            "{to}"
        );
        assert!(
            hex(&run_cast(DType::Float, to, &src, n, &nosat)).ends_with(no_sat_tail),
            "{to} no saturate"
        );
    }
    let e8m0: Vec<u8> = [0.0f32, 0.124, 0.25, 0.5, 1.1, 2.0, 4.0, 8.0]
        .iter()
        .flat_map(|x| x.to_ne_bytes())
        .collect();
    assert_eq!(
        hex(&run_cast(
            DType::Float,
            DType::Float8E8M0,
            &e8m0,
            8,
            &CastOptions::default()
        )),
        "007c7d7e80808182"
    );
    let fp4: Vec<u8> = [
        0.48f32,
        0.25,
        1.05,
        -3.5,
        -8.0,
        9.0,
        1e6,
        1e-7,
        f32::NAN,
        f32::INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -4.0,
        0.01,
        -0.0,
    ]
    .iter()
    .flat_map(|x| x.to_ne_bytes())
    .collect();
    assert_eq!(
        hex(&run_cast(
            DType::Float,
            DType::Float4E2M1,
            &fp4,
            15,
            &CastOptions::default()
        )),
        "01e27f0778f70e08"
    );
    let ints: Vec<u8> = (-9i32..=15)
        .flat_map(|v| (v as f32).to_ne_bytes())
        .collect();
    for to in [DType::Int4, DType::Uint4] {
        assert_eq!(
            hex(&run_cast(
                DType::Float,
                to,
                &ints,
                25,
                &CastOptions::default()
            )),
            "87a9cbed0f21436587a9cbed0f",
            "{to}"
        );
    }
    let small: Vec<u8> = (-3i32..=3).flat_map(|v| (v as f32).to_ne_bytes()).collect();
    for to in [DType::Int2, DType::Uint2] {
        assert_eq!(
            hex(&run_cast(
                DType::Float,
                to,
                &small,
                7,
                &CastOptions::default()
            )),
            "3939",
            "{to}"
        );
    }
    // INT4 <-> UINT4 converts values by the wrap rule; decoding sign-extends.
    let int4 = run_cast(
        DType::Float,
        DType::Int4,
        &ints,
        25,
        &CastOptions::default(),
    );
    let widened = run_cast(DType::Int4, DType::Int8, &int4, 25, &CastOptions::default());
    assert_eq!(widened[0] as i8, 7);
    assert_eq!(widened[1] as i8, -8);
    let unsigned = run_cast(
        DType::Int4,
        DType::Uint4,
        &int4,
        25,
        &CastOptions::default(),
    );
    assert_eq!(unsigned, int4);
}

/// The kernel representation of a numeric dtype (as `cast::plan` chooses it).
fn repr_of(dtype: DType) -> Repr {
    Repr::of(dtype).expect("a numeric dtype")
}

/// Checks codes the semantics page prescribes for hand-picked source elements: `elems`
/// holds one element of `from` per `from.bits() / 8` bytes (one code per byte for a
/// packed source) and each must give `expected` in `to` under (`saturate`, `mode`).
/// Every path is checked and every mismatch reported: the reference, each CPU tier's
/// kernel on the elements replicated past every vector width (so the wide loops see
/// them, not only the scalar tails), and the public API on the contiguous (packed where
/// the dtype is) tensor and on a strided view of it.
fn expect_page_codes(
    from: DType,
    elems: &[u8],
    to: DType,
    (saturate, mode): (bool, u8),
    expected: &[u8],
) {
    let size = if from.is_packed() {
        1
    } else {
        from.bits() as usize / 8
    };
    let n = expected.len();
    assert_eq!(elems.len(), n * size, "{from} -> {to}: element bytes");
    let source = repr_of(from);
    let format = format_of(to).expect("a low-precision target");
    let mut wrong: Vec<String> = Vec::new();
    let mut compare = |path: &str, got: &[u8]| {
        for (i, (&g, &want)) in got.iter().zip(expected.iter().cycle()).enumerate() {
            if g != want {
                let e = i % n;
                wrong.push(format!(
                    "{path}: element {i} {:02x?} gave {g:#04x}, expected {want:#04x}",
                    &elems[e * size..(e + 1) * size]
                ));
                return;
            }
        }
    };
    let reference: Vec<u8> = elems
        .chunks_exact(size)
        .map(|b| low_encode(format, saturate, mode, source_value(source, b)))
        .collect();
    compare("reference", &reference);

    const REPLICAS: usize = 67;
    let replicated = elems.repeat(REPLICAS);
    for tier in Tier::available() {
        let kernel = select_any(source, Repr::Low(format), saturate, mode, tier);
        let mut got = vec![0u8; n * REPLICAS];
        if kernel.packs_bits != 0 {
            let bits = kernel.packs_bits;
            let mut packed = vec![0u8; (got.len() * bits as usize).div_ceil(8)];
            kernel.run(&replicated, &mut packed);
            crate::formats::pack::unpack(bits, &packed, &mut got);
        } else {
            kernel.run(&replicated, &mut got);
        }
        compare(&format!("{tier:?} kernel"), &got);
    }

    let options = CastOptions {
        saturate,
        round_mode: [RoundMode::Up, RoundMode::Down, RoundMode::Nearest][mode as usize],
        ..CastOptions::default()
    };
    let unpack_output = |out: &[u8], count: usize| {
        let mut codes = vec![0u8; count];
        if to.is_packed() {
            crate::formats::pack::unpack(to.bits(), out, &mut codes);
        } else {
            codes.copy_from_slice(&out[..count]);
        }
        codes
    };
    let whole = if from.is_packed() {
        pack_codes(from, &replicated)
    } else {
        replicated.clone()
    };
    let out = run_cast(from, to, &whole, n * REPLICAS, &options);
    compare("public API", &unpack_output(&out, n * REPLICAS));
    if !from.is_packed() {
        // Every element followed by a filler element: a stride of 2.
        let spread: Vec<u8> = replicated
            .chunks_exact(size)
            .flat_map(|b| [b, &vec![0x5a; size][..]].concat())
            .collect();
        let count = n * REPLICAS;
        let mut out = vec![0u8; to.bytes_for(count as u64).unwrap() as usize];
        let shape = [count];
        let input = Tensor::strided(&spread, from, &shape, &[2]).unwrap();
        let mut output = TensorMut::new(&mut out, to, &shape).unwrap();
        cast(&input, &mut output, &options).unwrap();
        compare("public API, strided", &unpack_output(&out, count));
    }
    assert!(
        wrong.is_empty(),
        "{from} -> {to} (saturate {saturate}, round_mode {mode}):\n{}",
        wrong.join("\n")
    );
}

fn f32_bytes(xs: &[f32]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

fn f64_bytes(xs: &[f64]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

fn u16_bytes(xs: &[u16]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

#[test]
fn e8m0_without_saturate_gives_nan_below_its_smallest_value() {
    // docs/semantics-cast.md 5: with saturate = 0 every positive x < 2^-127 is 0xFF in every
    // round mode (the Cast-24 table); saturating, it is 0x00. 2^-127 itself is 0x00.
    let below_f32 = [
        f32::from_bits(0x003f_ffff), // the largest f32 below 2^-127
        f32::from_bits(0x0030_0000), // 1.5 * 2^-128: nearest's tie of the binade below
        f32::from_bits(0x0020_0000), // 2^-128
        f32::from_bits(0x0000_0001), // 2^-149
        1e-40,
    ];
    let below_f64 = [
        f64::from_bits(2f64.powi(-127).to_bits() - 1), // just below 2^-127
        f64::from(f32::from_bits(0x003f_ffff)) + 2f64.powi(-160), // between two f32s
        2f64.powi(-128),
        1e-300,
        f64::from_bits(1), // 2^-1074
    ];
    // bfloat16 reaches below 2^-127 (f16 does not: its smallest value is 2^-24).
    let below_bf16 = [0x003fu16, 0x0030, 0x0020, 0x0001];
    for mode in 0..3u8 {
        for (saturate, code) in [(false, 0xff), (true, 0x00)] {
            let opts = (saturate, mode);
            let e8 = DType::Float8E8M0;
            expect_page_codes(DType::Float, &f32_bytes(&below_f32), e8, opts, &[code; 5]);
            expect_page_codes(DType::Double, &f64_bytes(&below_f64), e8, opts, &[code; 5]);
            expect_page_codes(
                DType::Bfloat16,
                &u16_bytes(&below_bf16),
                e8,
                opts,
                &[code; 4],
            );
            let c64: Vec<u8> = below_f32
                .iter()
                .flat_map(|x| [x.to_ne_bytes(), 1f32.to_ne_bytes()].concat())
                .collect();
            expect_page_codes(DType::Complex64, &c64, e8, opts, &[code; 5]);
            // 2^-127 exactly is the smallest code under both settings.
            let at = [f32::from_bits(0x0040_0000)];
            expect_page_codes(DType::Float, &f32_bytes(&at), e8, opts, &[0x00]);
            expect_page_codes(DType::Bfloat16, &u16_bytes(&[0x0040]), e8, opts, &[0x00]);
            let at = [2f64.powi(-127)];
            expect_page_codes(DType::Double, &f64_bytes(&at), e8, opts, &[0x00]);
        }
    }
}

#[test]
fn float6_keeps_the_sign_of_zero_and_writes_nan_as_float4_does() {
    // docs/semantics-cast.md 6: -0, and a negative value that rounds to zero, give 0x20; +NaN
    // gives 0x20 and -NaN 0x00 (the onnx 1.23 reference, ml_dtypes).
    let (e2m3, e3m2) = (DType::Float6E2M3, DType::Float6E3M2);
    let opts = (true, 0);
    let f32s = [
        0.0f32,
        -0.0,
        -0.01,
        -1e-30,
        -f32::from_bits(1),
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7f80_0001), // signalling NaNs with a payload
        f32::from_bits(0xff80_0001),
        -0.0625, // E2M3: the tie between -0 and -0.125 (even: -0); E3M2: -0.0625
    ];
    let want_e2m3 = [0x00, 0x20, 0x20, 0x20, 0x20, 0x20, 0x00, 0x20, 0x00, 0x20];
    let want_e3m2 = [0x00, 0x20, 0x20, 0x20, 0x20, 0x20, 0x00, 0x20, 0x00, 0x21];
    expect_page_codes(DType::Float, &f32_bytes(&f32s), e2m3, opts, &want_e2m3);
    expect_page_codes(DType::Float, &f32_bytes(&f32s), e3m2, opts, &want_e3m2);
    let mut f64s: Vec<f64> = f32s.iter().map(|&x| f64::from(x)).collect();
    f64s[4] = -f64::from_bits(1);
    f64s[7] = f64::from_bits(0x7ff0_0000_0000_0001);
    f64s[8] = f64::from_bits(0xfff0_0000_0000_0001);
    expect_page_codes(DType::Double, &f64_bytes(&f64s), e2m3, opts, &want_e2m3);
    expect_page_codes(DType::Double, &f64_bytes(&f64s), e3m2, opts, &want_e3m2);
    // FLOAT16 and BFLOAT16: -0, the smallest negative subnormal, ±NaN quiet and not.
    let f16s = [0x0000u16, 0x8000, 0x8001, 0x7e00, 0xfe00, 0x7c01, 0xfc01];
    let bf16s = [0x0000u16, 0x8000, 0x8001, 0x7fc0, 0xffc0, 0x7f81, 0xff81];
    let want = [0x00, 0x20, 0x20, 0x20, 0x00, 0x20, 0x00];
    for to in [e2m3, e3m2] {
        expect_page_codes(DType::Float16, &u16_bytes(&f16s), to, opts, &want);
        expect_page_codes(DType::Bfloat16, &u16_bytes(&bf16s), to, opts, &want);
        let c128: Vec<u8> = [-0.0f64, f64::NAN, -f64::NAN]
            .iter()
            .flat_map(|x| [x.to_ne_bytes(), 2f64.to_ne_bytes()].concat())
            .collect();
        expect_page_codes(DType::Complex128, &c128, to, opts, &[0x20, 0x20, 0x00]);
        // Low-precision sources: -0 (and a negative that rounds to 0) and NaN codes.
        // E4M3FN: -0, -2^-9, +NaN, -NaN; E5M2: -0, +NaN, -NaN; FNUZ's NaN is negative;
        // E8M0's NaN is positive; FLOAT4E2M1's -0.
        let cases: [(DType, &[u8], &[u8]); 6] = [
            (
                DType::Float8E4M3Fn,
                &[0x80, 0x81, 0x7f, 0xff],
                &[0x20, 0x20, 0x20, 0x00],
            ),
            (DType::Float8E5M2, &[0x80, 0x7e, 0xfe], &[0x20, 0x20, 0x00]),
            (DType::Float8E4M3Fnuz, &[0x80], &[0x00]),
            (DType::Float8E5M2Fnuz, &[0x80], &[0x00]),
            (DType::Float8E8M0, &[0xff], &[0x20]),
            (DType::Float4E2M1, &[0x8, 0x0], &[0x20, 0x00]),
        ];
        for (from, codes, want) in cases {
            expect_page_codes(from, codes, to, opts, want);
        }
        // FLOAT6 -> the other FLOAT6: -0 stays -0.
        let other = if to == e2m3 { e3m2 } else { e2m3 };
        expect_page_codes(other, &[0x20, 0x00], to, opts, &[0x20, 0x00]);
    }
}

#[test]
fn large_decoded_outputs_match_the_reference() {
    // Outputs of 16 MiB and more: the f32 table decoder and the 8-bit float formats'
    // 16-bit decoders stream them themselves from the output's first 32-byte boundary
    // on; the 4-bit, 2-bit and 6-bit decoders stream both from a boundary on an element that
    // starts a byte (a 3-byte group). Outputs at a boundary, one, two and four elements past it; random codes (packed
    // for the 4-bit and 2-bit formats, a count ending inside a byte), checked
    // against the reference's value of each code.
    let mut rng = Rng(0xdec0de);
    for format in formats() {
        let dtype = FORMATS[format as usize].dtype;
        let bits = FORMATS[format as usize].bits;
        for to in [Scalar::F32, Scalar::F16, Scalar::Bf16] {
            let ts = to.size();
            let n = crate::simd::kernel::STREAM_MIN_BYTES / ts + 37;
            let codes: Vec<u8> = (0..n)
                .map(|_| (rng.next() as u8) & ((1u16 << bits) - 1) as u8)
                .collect();
            let src = if bits < 8 {
                let mut packed = vec![0u8; (n * bits as usize).div_ceil(8)];
                crate::formats::pack::pack(bits, &codes, &mut packed);
                packed
            } else {
                codes.clone()
            };
            let expected: Vec<Vec<u8>> = (0..=255u8)
                .map(|c| {
                    let mut slot = vec![0u8; ts];
                    store_exact(low_decode(format, c), to, &mut slot);
                    slot
                })
                .collect();
            let to_dtype = match to {
                Scalar::F32 => DType::Float,
                Scalar::F16 => DType::Float16,
                _ => DType::Bfloat16,
            };
            // Quick mode: at the boundary and one of the three heads, in turn.
            let heads = [ts, 2 * ts, 4 * ts];
            let turn = (usize::from(format) + to as usize) % heads.len();
            for (h, offset) in [0].into_iter().chain(heads).enumerate() {
                if quick() && h != 0 && h != turn + 1 {
                    continue;
                }
                let mut storage = vec![0u8; n * ts + 64];
                let start = storage.as_ptr().align_offset(32) + offset;
                let shape = [n];
                let input = Tensor::new(&src, dtype, &shape).unwrap();
                let out = &mut storage[start..start + n * ts];
                let mut output = TensorMut::new(out, to_dtype, &shape).unwrap();
                cast(&input, &mut output, &CastOptions::default()).unwrap();
                for (i, (&c, g)) in codes
                    .iter()
                    .zip(out_chunks(&storage[start..], ts, n))
                    .enumerate()
                {
                    if !checks_element(i, n) {
                        continue;
                    }
                    assert_eq!(
                        g,
                        &expected[usize::from(c)][..],
                        "{dtype} -> {to:?} at offset {offset}: element {i} (code {c:#04x})"
                    );
                }
            }
        }
    }
}

/// The first `n` elements of `ts` bytes of `bytes`.
fn out_chunks(bytes: &[u8], ts: usize, n: usize) -> impl Iterator<Item = &[u8]> {
    bytes[..n * ts].chunks_exact(ts)
}

/// Sources of `FOUR_STREAMS_MIN_BYTES` and more, where the x86-64 float encoders run
/// as four interleaved streams (one plain loop below, which every other test here
/// takes): FLOAT, FLOAT16 and BFLOAT16 to every float format on every tier, the whole
/// steps split over the streams and a tail, against the reference (in quick mode the
/// elements `checks_element` names). FLOAT values around the formats' ranges and random
/// bit patterns; FLOAT16 and BFLOAT16 random patterns. One option set per format, in
/// turn.
#[test]
fn large_sources_encode_in_four_streams() {
    use crate::simd::kernel::FOUR_STREAMS_MIN_BYTES;
    let mut rng = Rng(0x4_57e4);
    let sources = [
        (Repr::Std(Scalar::F32), 4),
        (Repr::Std(Scalar::F16), 2),
        (Repr::Std(Scalar::Bf16), 2),
    ];
    for (s, (from, size)) in sources.into_iter().enumerate() {
        let n = FOUR_STREAMS_MIN_BYTES / size + 37;
        let inputs: Vec<u8> = (0..n)
            .flat_map(|_| {
                let r = rng.next();
                let bits = if size == 2 || r & 3 == 0 {
                    r as u32
                } else {
                    // Exponents 2^-12 .. 2^9, either sign.
                    (r >> 63 << 31) as u32
                        | ((115 + (r >> 40) % 22) << 23) as u32
                        | r as u32 & 0x7f_ffff
                };
                bits.to_ne_bytes().into_iter().take(size)
            })
            .collect();
        for (k, format) in formats().enumerate() {
            let (saturate, mode) = OPTIONS[(k + s) % OPTIONS.len()];
            let checked: Vec<usize> = (0..n).filter(|&i| checks_element(i, n)).collect();
            let expected: Vec<u8> = checked
                .iter()
                .map(|&i| {
                    let b = &inputs[i * size..(i + 1) * size];
                    low_encode(format, saturate, mode, source_value(from, b))
                })
                .collect();
            for tier in Tier::available() {
                let kernel = select_any(from, Repr::Low(format), saturate, mode, tier);
                let mut got = vec![0u8; n];
                if kernel.packs_bits != 0 {
                    let bits = kernel.packs_bits;
                    let mut packed = vec![0u8; (n * bits as usize).div_ceil(8)];
                    kernel.run(&inputs, &mut packed);
                    crate::formats::pack::unpack(bits, &packed, &mut got);
                } else {
                    kernel.run(&inputs, &mut got);
                }
                for (&i, &want) in checked.iter().zip(&expected) {
                    assert_eq!(
                        got[i],
                        want,
                        "{from:?} -> {} (saturate {saturate}, round_mode {mode}) on {tier:?}: element {i} of {n} ({:02x?})",
                        FORMATS[format as usize].dtype,
                        &inputs[i * size..(i + 1) * size]
                    );
                }
            }
        }
    }
}
