// SPDX-License-Identifier: MIT OR Apache-2.0
//! Numbers -> text -> numbers: the layouts of the semantics page, C's %.8g, what
//! parsing accepts and refuses, round trips of every 16-bit and low-precision value and
//! of random f32/f64 values, and the length bounds. In quick mode (`testutil::quick`) the
//! 16-bit values and the random ones are sampled.

use super::super::{CastOptions, StringFormat};
use super::format::{format_element, low_formatter, max_text_bytes};
use super::parse::{parse_each, parse_element, parse_error, parse_low};
use super::scan::trim;
use super::scratch::{Scratch, SCRATCH_BYTES};
use crate::dtype::{DType, Scalar};
use crate::error::Error;
use crate::formats::{convert, lowp, pack};
use crate::string_view::StringView;
use crate::testutil::{host_bits, host_bytes, patterns_u16, samples};

fn fmt(source: Scalar, bits: u64, format: StringFormat) -> String {
    let mut space = [0u8; SCRATCH_BYTES];
    let mut out = Scratch::over(&mut space);
    format_element(source, &host_bytes(bits, source.size()), format, &mut out);
    String::from_utf8(out.bytes().to_vec()).unwrap()
}

fn f32s(x: f32) -> String {
    fmt(Scalar::F32, u64::from(x.to_bits()), StringFormat::Shortest)
}

fn f64s(x: f64) -> String {
    fmt(Scalar::F64, x.to_bits(), StringFormat::Shortest)
}

fn f16s(x: f32) -> String {
    fmt(
        Scalar::F16,
        u64::from(convert::f32_to_f16_bits(x)),
        StringFormat::Shortest,
    )
}

#[test]
fn formatting_writes_nothing_past_its_text() {
    // The texts are built in place in the caller's arena: the bytes after each one
    // must be left as they were, in every layout.
    let check = |source: Scalar, bits: u64| {
        let mut space = [0xa5u8; SCRATCH_BYTES];
        let mut out = Scratch::over(&mut space);
        format_element(
            source,
            &host_bytes(bits, source.size()),
            StringFormat::Shortest,
            &mut out,
        );
        let len = out.len;
        assert!(
            space[len..].iter().all(|&b| b == 0xa5),
            "{source:?} {bits:#x}: bytes past the text written"
        );
    };
    let mut rng = crate::testutil::Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..samples(100_000) {
        check(Scalar::F32, rng.next() & 0xffff_ffff);
        check(Scalar::F64, rng.next());
    }
    for x in [
        1e10f64, 1e7, 12345678.0, 1e-5, 1.5e-5, 9.9e-5, 1e15, 1e16, 1e-300,
    ] {
        check(Scalar::F32, u64::from((x as f32).to_bits()));
        check(Scalar::F64, x.to_bits());
    }
}

#[test]
fn shortest_matches_the_examples_of_the_semantics_page() {
    for (x, text) in [
        (0.1f32, "0.1"),
        (1e-4, "1e-04"),
        (1e-5, "1e-05"),
        (999999.0, "999999.0"),
        (1e6, "1e+06"),
        (1234567.0, "1.234567e+06"),
        (100.0, "100.0"),
        (-0.0, "-0.0"),
        (0.0, "0.0"),
        (f32::NAN, "NaN"),
        (f32::INFINITY, "INF"),
        (f32::NEG_INFINITY, "-INF"),
    ] {
        assert_eq!(f32s(x), text, "f32 {x:e}");
    }
    for (x, text) in [(1000.0, "1e+03"), (65504.0, "6.55e+04"), (999.5, "999.5")] {
        assert_eq!(f16s(x), text, "f16 {x}");
    }
    for (x, text) in [
        (1e15f64, "1000000000000000.0"),
        (1e16, "1e+16"),
        (0.1, "0.1"),
        (1e-4, "0.0001"),
        (-1.5e-300, "-1.5e-300"),
        (5e-324, "5e-324"),
    ] {
        assert_eq!(f64s(x), text, "f64 {x:e}");
    }
    assert_eq!(fmt(Scalar::Bool, 1, StringFormat::Shortest), "True");
    assert_eq!(fmt(Scalar::Bool, 0, StringFormat::Shortest), "False");
    assert_eq!(fmt(Scalar::I8, 0x80, StringFormat::Shortest), "-128");
    assert_eq!(
        fmt(Scalar::U64, u64::MAX, StringFormat::Printf8g),
        "18446744073709551615"
    );
}

#[test]
fn printf_8g_matches_c() {
    let g = |x: f32| fmt(Scalar::F32, u64::from(x.to_bits()), StringFormat::Printf8g);
    assert_eq!(g(0.1), "0.1");
    assert_eq!(g(1e-5), "9.9999997e-06");
    assert_eq!(g(1.0), "1");
    assert_eq!(g(-0.0), "-0");
    assert_eq!(g(1e8), "1e+08");
    assert_eq!(g(12345678.0), "12345678");
    assert_eq!(g(f32::NAN), "NaN");
    let d = |x: f64| fmt(Scalar::F64, x.to_bits(), StringFormat::Printf8g);
    assert_eq!(d(0.1), "0.10000000000000001");
    assert_eq!(d(1e300), "1.0000000000000001e+300");
    assert_eq!(d(0.0001), "0.0001");
    assert_eq!(d(123.0), "123");
}

fn parse(text: &[u8], to: Scalar) -> Option<Vec<u8>> {
    let mut out = vec![0u8; to.size()];
    parse_element(text, to, &mut out).map(|()| out)
}

#[test]
fn parsing_accepts_and_rejects_as_the_page_says() {
    let f32_of = |t: &str| {
        parse(t.as_bytes(), Scalar::F32).map(|b| f32::from_ne_bytes(b.try_into().unwrap()))
    };
    for (text, value) in [
        ("3.25", 3.25f32),
        (" 2.5 ", 2.5),
        ("\t\n1e-5\r ", 1e-5),
        ("1E8", 1e8),
        ("+INF", f32::INFINITY),
        ("-Infinity", f32::NEG_INFINITY),
        ("inf", f32::INFINITY),
        (".5", 0.5),
        ("5.", 5.0),
        ("1e400", f32::INFINITY),
        ("-0", -0.0),
    ] {
        let got = f32_of(text).unwrap_or_else(|| panic!("{text:?} should parse"));
        assert_eq!(got.to_bits(), value.to_bits(), "{text:?}");
    }
    assert!(f32_of("nan").unwrap().is_nan());
    assert!(f32_of("NaN").unwrap().is_nan());
    assert!(f32_of("-nan").unwrap().is_nan());
    for bad in [
        "", "  ", "abc", "3.14abc", "1,5", "0x10", "--1", "1e", "e5", ".", "1 2", "in", "nana",
        "1\u{0}1",
    ] {
        assert_eq!(f32_of(bad), None, "{bad:?} must be refused");
    }
    assert_eq!(parse(b"\xff1", Scalar::F32), None);
    assert_eq!(
        parse(b"100.5", Scalar::I32),
        Some(100i32.to_ne_bytes().to_vec())
    );
    assert_eq!(parse(b"-1", Scalar::U8), Some(vec![0]));
    assert_eq!(parse(b"300", Scalar::I8), Some(vec![127]));
    assert_eq!(parse(b"-300", Scalar::I8), Some(vec![128]));
    assert_eq!(
        parse(b"1e3", Scalar::I16),
        Some(1000i16.to_ne_bytes().to_vec())
    );
    assert_eq!(parse(b"nan", Scalar::I32), Some(vec![0; 4]));
    assert_eq!(
        parse(b"-inf", Scalar::I64),
        Some(i64::MIN.to_ne_bytes().to_vec())
    );
    assert_eq!(
        parse(b"99999999999999999999999999", Scalar::U64),
        Some(u64::MAX.to_ne_bytes().to_vec())
    );
    assert_eq!(
        parse(b"-9223372036854775808", Scalar::I64),
        Some(i64::MIN.to_ne_bytes().to_vec())
    );
    assert_eq!(parse(b"2.9", Scalar::U8), Some(vec![2]));
    assert_eq!(parse(b"12abc", Scalar::I32), None);
    for (text, truth) in [
        ("true", 1),
        ("FALSE", 0),
        ("True", 1),
        ("0", 0),
        ("0.0", 0),
        ("2", 1),
        ("nan", 1),
        ("-0", 0),
    ] {
        assert_eq!(
            parse(text.as_bytes(), Scalar::Bool),
            Some(vec![truth]),
            "{text:?}"
        );
    }
    assert_eq!(parse(b"yes", Scalar::Bool), None);
    // Narrow floats parse to f64, then round once: 1.00048828125 + 1e-12 -> 0x3c01.
    assert_eq!(
        parse(b"1.000488281251", Scalar::F16),
        Some(0x3c01u16.to_ne_bytes().to_vec())
    );
    assert_eq!(
        parse(b"65519.99999", Scalar::F16),
        Some(0x7bffu16.to_ne_bytes().to_vec())
    );
}

#[test]
fn texts_parse_into_and_format_from_host_byte_order() {
    // On a big-endian host "3.25" once parsed to the little-endian bytes of 3.25 (read
    // back there: 1.29643e-320) with status OK. Every multi-byte element is in the
    // host's byte order (docs/c-api.md section 4); Rust's `to_ne_bytes` gives it.
    let options = CastOptions::default();
    let f16 = |x: f32| half::f16::from_f32(x).to_bits().to_ne_bytes().to_vec();
    let bf16 = |x: f32| half::bf16::from_f32(x).to_bits().to_ne_bytes().to_vec();
    let cases: [(&str, DType, Vec<u8>); 12] = [
        ("3.25", DType::Float, 3.25f32.to_ne_bytes().to_vec()),
        ("3.25", DType::Double, 3.25f64.to_ne_bytes().to_vec()),
        ("3.25", DType::Float16, f16(3.25)),
        ("3.25", DType::Bfloat16, bf16(3.25)),
        (
            "-1.5e300",
            DType::Double,
            (-1.5e300f64).to_ne_bytes().to_vec(),
        ),
        ("-300", DType::Int16, (-300i16).to_ne_bytes().to_vec()),
        ("-300", DType::Int32, (-300i32).to_ne_bytes().to_vec()),
        ("-300", DType::Int64, (-300i64).to_ne_bytes().to_vec()),
        ("4660", DType::Uint16, 4660u16.to_ne_bytes().to_vec()),
        (
            "305419896",
            DType::Uint32,
            305_419_896u32.to_ne_bytes().to_vec(),
        ),
        ("1e3", DType::Uint64, 1000u64.to_ne_bytes().to_vec()),
        ("2.75", DType::Int32, 2i32.to_ne_bytes().to_vec()),
    ];
    for (text, to, want) in &cases {
        let got = parse_tensor(&[text.as_bytes()], *to, &options).unwrap();
        assert_eq!(&got, want, "{text:?} -> {to}");
    }
    // The formatters read the same order back.
    let text_of = |source: Scalar, bytes: &[u8]| {
        let mut space = [0u8; SCRATCH_BYTES];
        let mut out = Scratch::over(&mut space);
        format_element(source, bytes, StringFormat::Shortest, &mut out);
        String::from_utf8(out.bytes().to_vec()).unwrap()
    };
    assert_eq!(text_of(Scalar::F32, &3.25f32.to_ne_bytes()), "3.25");
    assert_eq!(text_of(Scalar::F64, &3.25f64.to_ne_bytes()), "3.25");
    assert_eq!(text_of(Scalar::F16, &f16(3.25)), "3.25");
    assert_eq!(text_of(Scalar::Bf16, &bf16(3.25)), "3.25");
    assert_eq!(text_of(Scalar::I16, &(-300i16).to_ne_bytes()), "-300");
    assert_eq!(text_of(Scalar::I32, &(-300i32).to_ne_bytes()), "-300");
    assert_eq!(text_of(Scalar::I64, &(-300i64).to_ne_bytes()), "-300");
    assert_eq!(text_of(Scalar::U16, &4660u16.to_ne_bytes()), "4660");
    assert_eq!(
        text_of(Scalar::U32, &305_419_896u32.to_ne_bytes()),
        "305419896"
    );
    assert_eq!(
        text_of(Scalar::U64, &u64::MAX.to_ne_bytes()),
        "18446744073709551615"
    );
}

/// Parses `texts` into a tensor of `to` through `parse_each` (the path of
/// tcast_cast) and returns the output's bytes, packed as the dtype is.
fn parse_tensor(texts: &[&[u8]], to: DType, options: &CastOptions) -> Result<Vec<u8>, Error> {
    let n = texts.len();
    let mut out = vec![0u8; to.bytes_for(n as u64).unwrap() as usize];
    let shape = [n];
    let mut output = crate::tensor::TensorMut::new(&mut out, to, &shape).unwrap();
    parse_each(
        texts.iter().map(|&t| StringView::new(t)).enumerate(),
        &mut output,
        options,
    )?;
    Ok(out)
}

/// The codes (one per byte) of a tensor of a low-precision dtype.
fn codes_of(data: &[u8], dtype: DType, n: usize) -> Vec<u8> {
    let mut codes = vec![0u8; n];
    if dtype.is_packed() {
        pack::unpack(dtype.bits(), data, &mut codes);
    } else {
        codes.copy_from_slice(&data[..n]);
    }
    codes
}

/// Casts `src` (elements of `from`) to `to` with the numeric kernels.
fn numeric_cast(from: DType, src: &[u8], n: usize, to: DType) -> Vec<u8> {
    let mut out = vec![0u8; to.bytes_for(n as u64).unwrap() as usize];
    let shape = [n];
    let input = crate::tensor::Tensor::new(src, from, &shape).unwrap();
    let mut output = crate::tensor::TensorMut::new(&mut out, to, &shape).unwrap();
    crate::cast::cast(&input, &mut output, &CastOptions::default()).unwrap();
    out
}

#[test]
fn integer_texts_wrap_into_the_packed_integer_formats() {
    // docs/semantics-cast.md 8: a plain integer text converts as a float of that value
    // does (section 2): INT4/UINT4/INT2/UINT2 round (nothing to do for an integer)
    // and keep the low bits; 8- to 64-bit integers saturate.
    let packed = [DType::Int4, DType::Uint4, DType::Int2, DType::Uint2];
    let options = CastOptions::default();
    let parse_codes = |texts: &[&str], to: DType| {
        let bytes: Vec<&[u8]> = texts.iter().map(|t| t.as_bytes()).collect();
        let out = parse_tensor(&bytes, to, &options).unwrap();
        codes_of(&out, to, texts.len())
    };
    // The page's examples and the INT4 range edges.
    assert_eq!(
        parse_codes(&["20", "-5", "-1", "16"], DType::Uint4),
        [4, 11, 15, 0]
    );
    assert_eq!(
        parse_codes(&["-9", "8", "7", "-8"], DType::Int4),
        [7, 8, 7, 8]
    );
    assert_eq!(parse_codes(&["2", "-3", "5"], DType::Int2), [2, 1, 1]);
    assert_eq!(parse_codes(&["4", "-1", "7"], DType::Uint2), [0, 3, 3]);

    // Texts an i64 holds: the same codes as INT64 -> the format.
    let small = [
        "0",
        "-0",
        "+13",
        "007",
        "-17",
        "255",
        "-256",
        "1000001",
        "-9007199254740993",
        "9007199254740993",
        "9223372036854775807",
        "-9223372036854775808",
    ];
    let as_i64: Vec<u8> = small
        .iter()
        .flat_map(|t| t.parse::<i64>().unwrap().to_ne_bytes())
        .collect();
    // Texts whose value an f64 holds exactly, some far beyond 64 bits, and texts with
    // a fraction or an exponent (read as f64): the same codes as DOUBLE -> the format,
    // which rounds to the nearest even integer and keeps the low bits (NaN and
    // infinities 0).
    let exact_f64 = [
        "18446744073709551616",  // 2^64
        "-18446744073709551616", // -2^64
        "18446744073709555712",  // 2^64 + 2^12
        "100000000000000000000", // 1e20 = 2^20 * 5^20
        "-100000000000000000000",
        "340282366920938463463374607431768211456", // 2^128: past i128
        "-1e30",
        "1e20",
        "1e3",
        "2.5",
        "3.5",
        "-2.5",
        "-7.5",
        "1e400",
        "-1e400",
        "nan",
        "-inf",
    ];
    let as_f64: Vec<u8> = exact_f64
        .iter()
        .flat_map(|t| t.parse::<f64>().unwrap().to_ne_bytes())
        .collect();
    for to in packed {
        let want = codes_of(
            &numeric_cast(DType::Int64, &as_i64, small.len(), to),
            to,
            small.len(),
        );
        assert_eq!(parse_codes(&small, to), want, "INT64-sized texts -> {to}");
        let want = codes_of(
            &numeric_cast(DType::Double, &as_f64, exact_f64.len(), to),
            to,
            exact_f64.len(),
        );
        assert_eq!(parse_codes(&exact_f64, to), want, "f64-exact texts -> {to}");
    }
    // Beyond 64 bits and not an f64 (nor, for the last two, an i128): the exact
    // integer's low bits. 2^64 + 1 ends in ...0001; -(2^64 + 1) in ...1111; the
    // 60-digit text ends in 7891 = 16 * 493 + 3 (10^4 is a multiple of 16, so the
    // last four digits decide the low four bits).
    let huge = [
        "18446744073709551617",
        "-18446744073709551617",
        "123456789012345678901234567890123456789012345678901234567891",
        "-123456789012345678901234567890123456789012345678901234567891",
    ];
    for to in packed {
        let mask = (1u8 << to.bits()) - 1;
        let want = [1, 0xff, 3, 0xfd].map(|c: u8| c & mask);
        assert_eq!(parse_codes(&huge, to), want, "{huge:?} -> {to}");
    }
    // The 8- to 64-bit integers keep saturating.
    assert_eq!(parse(b"20", Scalar::I8), Some(vec![20]));
    assert_eq!(parse(b"300", Scalar::I8), Some(vec![127]));
    assert_eq!(parse(b"-5", Scalar::U8), Some(vec![0]));
    assert_eq!(
        parse(b"18446744073709551617", Scalar::U64),
        Some(u64::MAX.to_ne_bytes().to_vec())
    );
}

#[test]
fn the_six_c_space_characters_are_trimmed() {
    // docs/semantics-cast.md 8: space, \t, \n, \v, \f and \r at either end, as C's isspace.
    assert_eq!(
        parse(b"\x0b1.5", Scalar::F64),
        Some(1.5f64.to_ne_bytes().to_vec())
    );
    let padded: [&[u8]; 5] = [
        b"\x0b2",
        b"2\x0b",
        b"\x0c2\x0c",
        b" \t\n\x0b\x0c\r2 \t\n\x0b\x0c\r",
        b"\x0b\x0b+2\r\x0b",
    ];
    let options = CastOptions::default();
    for to in DType::all() {
        if matches!(to, DType::String | DType::Complex64 | DType::Complex128) {
            continue;
        }
        let plain = parse_tensor(&[b"2"], to, &options).unwrap();
        for text in padded {
            assert_eq!(
                parse_tensor(&[text], to, &options).as_ref().ok(),
                Some(&plain),
                "{:?} -> {to}",
                text.escape_ascii().to_string()
            );
        }
    }
    // Nothing else is trimmed: other control characters, NUL, Unicode spaces.
    for text in [
        &b"\x0b"[..],
        b"\x1c2",
        b"2\x1f",
        b"\x002",
        b"2\x00",
        b"\xc2\xa02",
        b"2\xc2\x85",
        b"\x0b2\x0b2",
    ] {
        assert_eq!(parse(text, Scalar::F64), None, "{}", text.escape_ascii());
        assert_eq!(parse(text, Scalar::I32), None, "{}", text.escape_ascii());
    }
}

#[test]
fn error_messages_quote_the_text_readably() {
    let e = parse_error(7, b"3.14abc", DType::Float);
    assert_eq!(e.index(), Some(7));
    assert_eq!(
        e.to_string(),
        "input element 7: cannot parse \"3.14abc\" as FLOAT"
    );
    let e = parse_error(0, b"a\0b\xff", DType::Int32);
    assert_eq!(
        e.to_string(),
        "input element 0: cannot parse \"a\\x00b\\xff\" as INT32 (not valid UTF-8)"
    );
    let long = vec![b'x'; 500];
    assert!(parse_error(1, &long, DType::Double).to_string().len() < 100);
}

/// Formats `bits` of `source` (shortest), parses the text back into `source` and
/// checks the bits (any NaN for NaN); also checks the length bound in both formats.
fn round_trip(source: Scalar, dtype: DType, bits: u64) {
    let text = fmt(source, bits, StringFormat::Shortest);
    let bound = max_text_bytes(dtype) as usize;
    assert!(
        text.len() <= bound,
        "{dtype} 0x{bits:x}: {text:?} is longer than {bound}"
    );
    let printf = fmt(source, bits, StringFormat::Printf8g);
    assert!(
        printf.len() <= bound,
        "{dtype} 0x{bits:x}: {printf:?} is longer than {bound}"
    );
    let back = parse(text.as_bytes(), source).unwrap_or_else(|| panic!("{text:?} does not parse"));
    let back = host_bits(&back);
    let nan = |b: u64| match source {
        Scalar::F16 => f32::is_nan(convert::f16_bits_to_f32(b as u16)),
        Scalar::Bf16 => f32::is_nan(convert::bf16_bits_to_f32(b as u16)),
        Scalar::F32 => f32::from_bits(b as u32).is_nan(),
        _ => f64::from_bits(b).is_nan(),
    };
    if nan(bits) {
        assert!(nan(back), "{dtype} NaN 0x{bits:x} came back as 0x{back:x}");
    } else {
        assert_eq!(back, bits, "{dtype} 0x{bits:x} -> {text:?} -> 0x{back:x}");
    }
}

#[test]
fn every_f16_and_bf16_value_round_trips() {
    for bits in patterns_u16() {
        round_trip(Scalar::F16, DType::Float16, u64::from(bits));
        round_trip(Scalar::Bf16, DType::Bfloat16, u64::from(bits));
    }
}

#[test]
fn random_f32_and_f64_values_round_trip() {
    let mut rng = crate::testutil::Rng(0x1234_5678_9abc_def1);
    let mut next = move || rng.next();
    let powers = (-45..=38).map(|e| 10f64.powi(e));
    for p in powers {
        let x = p as f32;
        for b in [x.to_bits().wrapping_sub(1), x.to_bits(), x.to_bits() + 1] {
            round_trip(Scalar::F32, DType::Float, u64::from(b));
        }
    }
    for e in -323..=308 {
        let x: f64 = format!("1e{e}").parse().unwrap();
        for b in [x.to_bits() - 1, x.to_bits(), x.to_bits() + 1] {
            round_trip(Scalar::F64, DType::Double, b);
        }
    }
    for b in [
        1u64,
        0x000f_ffff_ffff_ffff,
        0x7fef_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
    ] {
        round_trip(Scalar::F64, DType::Double, b);
        round_trip(Scalar::F64, DType::Double, b | (1 << 63));
    }
    for b in [1u32, 0x007f_ffff, 0x7f7f_ffff, 0x0080_0000] {
        round_trip(Scalar::F32, DType::Float, u64::from(b));
    }
    for _ in 0..samples(1_000_000) {
        let r = next();
        round_trip(Scalar::F32, DType::Float, r >> 32);
        round_trip(Scalar::F64, DType::Double, r);
    }
}

#[test]
fn every_low_precision_code_round_trips_through_text() {
    for format in 0..lowp::FORMATS.len() as u8 {
        let f = &lowp::FORMATS[format as usize];
        for code in 0..(1u16 << f.bits) {
            let code = code as u8;
            let value = lowp::decode_f64(format, code);
            if value.is_nan() {
                continue;
            }
            let mut space = [0u8; SCRATCH_BYTES];
            let mut text = Scratch::over(&mut space);
            low_formatter(format)(&[code], StringFormat::Shortest, &mut text);
            let shown = String::from_utf8(text.bytes().to_vec()).unwrap();
            assert!(
                shown.len() as u64 <= max_text_bytes(f.dtype),
                "{} {code:#x}: {shown}",
                f.dtype
            );
            let mut modes = vec![(true, 0u8), (false, 0u8)];
            if f.kind == lowp::Kind::E8m0 {
                modes.push((true, 2));
            }
            for (saturate, mode) in modes {
                if saturate && value.is_infinite() {
                    continue; // "INF" saturates to the largest finite value by design
                }
                if !saturate && f.kind == lowp::Kind::E8m0 && code == 0 {
                    // 2^-127's short text lies below it: NaN unless saturating (see
                    // shortest_low); checked to be short and saturating above.
                    assert_eq!(shown, "5e-39");
                    continue;
                }
                let opt = lowp::option_bits(format, saturate, mode);
                let back = parse_low(trim(shown.as_bytes()), format, opt).unwrap();
                let same = lowp::decode_f64(format, back) == value
                    && (value != 0.0
                        || lowp::decode_f64(format, back).is_sign_negative()
                            == value.is_sign_negative()
                        || f.kind == lowp::Kind::Fnuz);
                assert!(
                    same,
                    "{} {code:#x} -> {shown:?} -> {back:#x} (saturate {saturate}, mode {mode})",
                    f.dtype
                );
            }
        }
    }
}

/// The integer targets' loop reads short plain integers its own way (without the trim,
/// see parse.rs): on every text of up to 4 bytes over the bytes of number texts, and on
/// random ones of 5 to 10, it makes what the general way (trim, then the target's
/// parser) makes, value or error.
#[test]
fn short_integer_texts_parse_as_the_general_way_does() {
    let alphabet = b"0123456789+- .ex";
    let mut texts = crate::testutil::texts_over(alphabet, 4);
    let mut rng = crate::testutil::Rng(0x5407_7e47);
    for _ in 0..samples(20_000) {
        let len = 5 + rng.below(6) as usize;
        texts.push(crate::testutil::mostly_digits(&mut rng, alphabet, len));
    }
    for to in [
        DType::Int64,
        DType::Int32,
        DType::Int16,
        DType::Int8,
        DType::Uint64,
        DType::Uint32,
        DType::Uint16,
        DType::Uint8,
    ] {
        let scalar = to.info().scalar.unwrap();
        for text in &texts {
            let general = parse(text, scalar);
            let shown = text.escape_ascii().to_string();
            let looped = parse_tensor(&[text], to, &CastOptions::default()).ok();
            assert_eq!(looped, general, "{to} {shown:?}");
        }
        // The contiguous views' loop (parse_views, two texts a step, an odd one last),
        // through the cast: each text alone, and after and before another one.
        for (k, text) in texts.iter().enumerate() {
            let other = &texts[(k * 7919 + 13) % texts.len()];
            for run in [&[text][..], &[text, other], &[other, text]] {
                let general: Option<Vec<u8>> = run
                    .iter()
                    .map(|t| parse(t, scalar))
                    .collect::<Option<Vec<_>>>()
                    .map(|v| v.concat());
                let views: Vec<StringView> = run.iter().map(|t| StringView::new(t)).collect();
                let dims = [run.len()];
                let input = crate::tensor::Tensor::strings(&views, &dims).unwrap();
                let mut out = vec![0u8; run.len() * scalar.size()];
                let mut output = crate::tensor::TensorMut::new(&mut out, to, &dims).unwrap();
                let cast = crate::cast::cast(&input, &mut output, &CastOptions::default());
                assert_eq!(cast.ok().map(|()| out), general, "{to} {run:?}");
            }
        }
    }
}

#[test]
fn integer_texts_fit_their_bounds() {
    for (dtype, extremes) in [
        (DType::Int8, [i8::MIN as u64, i8::MAX as u64]),
        (DType::Int16, [i16::MIN as u64, i16::MAX as u64]),
        (DType::Int32, [i32::MIN as u64, i32::MAX as u64]),
        (DType::Int64, [i64::MIN as u64, i64::MAX as u64]),
        (DType::Uint8, [0, u64::from(u8::MAX)]),
        (DType::Uint16, [0, u64::from(u16::MAX)]),
        (DType::Uint32, [0, u64::from(u32::MAX)]),
        (DType::Uint64, [0, u64::MAX]),
        (DType::Bool, [0, 1]),
    ] {
        let s = dtype.info().scalar.unwrap();
        for v in extremes {
            let text = fmt(s, v, StringFormat::Shortest);
            assert!(
                text.len() <= max_text_bytes(dtype) as usize,
                "{dtype} {text}"
            );
            assert_eq!(parse(text.as_bytes(), s).unwrap(), host_bytes(v, s.size()));
        }
    }
}
