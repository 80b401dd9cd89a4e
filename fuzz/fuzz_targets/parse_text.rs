// SPDX-License-Identifier: MIT OR Apache-2.0
//! STRING -> numeric parsing against a reference written from docs/semantics-cast.md
//! section 8: the grammar (trimmed ASCII whitespace, sign, inf/infinity/nan in any case,
//! decimal and scientific numbers), FLOAT and DOUBLE correctly rounded (core's parser is
//! the oracle), the narrower floats as the f64 value cast once more, plain integers read
//! exactly and saturated, other numbers through f64 and truncation, BOOL's words. Up to
//! eight elements per input (split at 0xFF): a failure must be PARSE at the first element
//! the reference refuses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tensorcast::{cast, CastOptions, DType, Status, StringView, Tensor, TensorMut};

const TARGETS: [DType; 11] = [
    DType::Double,
    DType::Float,
    DType::Float16,
    DType::Bfloat16,
    DType::Float8E4M3Fn,
    DType::Int8,
    DType::Uint8,
    DType::Int32,
    DType::Int64,
    DType::Uint64,
    DType::Bool,
];

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn trim(mut t: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = t {
        if !is_space(*first) {
            break;
        }
        t = rest;
    }
    while let [rest @ .., last] = t {
        if !is_space(*last) {
            break;
        }
        t = rest;
    }
    t
}

/// What the text is, by the grammar of section 8.
enum Text {
    /// Sign and digits only: the exact value, saturated to i128.
    Integer(i128),
    /// Any other accepted number (fraction, exponent, inf, nan), as core parses it.
    Float(f64),
}

fn all_digits(t: &[u8]) -> bool {
    !t.is_empty() && t.iter().all(u8::is_ascii_digit)
}

fn classify(raw: &[u8]) -> Option<Text> {
    let t = trim(raw);
    let (negative, body) = match t {
        [b'+', rest @ ..] => (false, rest),
        [b'-', rest @ ..] => (true, rest),
        _ => (false, t),
    };
    let special = ["inf", "infinity", "nan"]
        .iter()
        .any(|w| body.eq_ignore_ascii_case(w.as_bytes()));
    if !special {
        // digits* [. digits*] [(e|E) [sign] digits+], at least one mantissa digit
        let (mantissa, exponent) = match body.iter().position(|&b| b == b'e' || b == b'E') {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        let (whole, fraction) = match mantissa.iter().position(|&b| b == b'.') {
            Some(i) => (&mantissa[..i], Some(&mantissa[i + 1..])),
            None => (mantissa, None),
        };
        let digits_ok = (whole.is_empty() || all_digits(whole))
            && fraction.is_none_or(|f| f.is_empty() || all_digits(f))
            && (whole.len() + fraction.map_or(0, <[u8]>::len)) > 0;
        let exponent_ok = exponent.is_none_or(|e| {
            let e = e
                .strip_prefix(b"+")
                .or_else(|| e.strip_prefix(b"-"))
                .unwrap_or(e);
            all_digits(e)
        });
        if !digits_ok || !exponent_ok {
            return None;
        }
        if fraction.is_none() && exponent.is_none() {
            let significant: &[u8] = {
                let first = whole.iter().position(|&b| b != b'0').unwrap_or(whole.len());
                &whole[first..]
            };
            let magnitude = if significant.len() > 38 {
                i128::MAX
            } else {
                std::str::from_utf8(significant)
                    .ok()?
                    .parse::<i128>()
                    .unwrap_or(0)
            };
            return Some(Text::Integer(if negative { -magnitude } else { magnitude }));
        }
    }
    let text = std::str::from_utf8(t).ok()?;
    let value: f64 = text.parse().expect("core parses what the grammar accepts");
    Some(Text::Float(value))
}

/// The reference bytes of one element, or None when it must be refused.
fn reference(raw: &[u8], to: DType) -> Option<Vec<u8>> {
    if to == DType::Bool {
        let t = trim(raw);
        if t.eq_ignore_ascii_case(b"true") {
            return Some(vec![1]);
        }
        if t.eq_ignore_ascii_case(b"false") {
            return Some(vec![0]);
        }
    }
    let text = classify(raw)?;
    let as_f64 = |t: &Text| match *t {
        Text::Integer(i) => i as f64,
        Text::Float(x) => x,
    };
    let clamp = |lo: i128, hi: i128| -> i128 {
        match text {
            Text::Integer(i) => i.clamp(lo, hi),
            Text::Float(x) if x.is_nan() => 0,
            Text::Float(x) => (x.trunc() as i128).clamp(lo, hi),
        }
    };
    Some(match to {
        DType::Double => {
            let text = std::str::from_utf8(trim(raw)).ok()?;
            text.parse::<f64>().ok()?.to_ne_bytes().to_vec()
        }
        DType::Float => {
            let text = std::str::from_utf8(trim(raw)).ok()?;
            text.parse::<f32>().ok()?.to_ne_bytes().to_vec()
        }
        DType::Float16 | DType::Bfloat16 | DType::Float8E4M3Fn => {
            // Section 8: parsed to f64, then cast once more.
            let text = std::str::from_utf8(trim(raw)).ok()?;
            let x: f64 = text.parse().ok()?;
            let src = x.to_ne_bytes();
            let mut out = vec![0u8; (to.bits() / 8) as usize];
            let input = Tensor::new(&src, DType::Double, &[1]).unwrap();
            let mut output = TensorMut::new(&mut out, to, &[1]).unwrap();
            cast(&input, &mut output, &CastOptions::default()).unwrap();
            out
        }
        DType::Int8 => (clamp(i8::MIN.into(), i8::MAX.into()) as i8)
            .to_ne_bytes()
            .to_vec(),
        DType::Uint8 => (clamp(0, u8::MAX.into()) as u8).to_ne_bytes().to_vec(),
        DType::Int32 => (clamp(i32::MIN.into(), i32::MAX.into()) as i32)
            .to_ne_bytes()
            .to_vec(),
        DType::Int64 => (clamp(i64::MIN.into(), i64::MAX.into()) as i64)
            .to_ne_bytes()
            .to_vec(),
        DType::Uint64 => (clamp(0, u64::MAX.into()) as u64).to_ne_bytes().to_vec(),
        DType::Bool => {
            let x = as_f64(&text);
            vec![u8::from(x != 0.0)]
        }
        _ => unreachable!(),
    })
}

fn is_nan(bytes: &[u8], to: DType) -> bool {
    match to {
        DType::Double => f64::from_ne_bytes(bytes.try_into().unwrap()).is_nan(),
        DType::Float => f32::from_ne_bytes(bytes.try_into().unwrap()).is_nan(),
        DType::Float16 => half::f16::from_ne_bytes(bytes.try_into().unwrap()).is_nan(),
        DType::Bfloat16 => half::bf16::from_ne_bytes(bytes.try_into().unwrap()).is_nan(),
        DType::Float8E4M3Fn => bytes[0] & 0x7f == 0x7f,
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let to = TARGETS[selector as usize % TARGETS.len()];
    let texts: Vec<&[u8]> = rest.split(|&b| b == 0xFF).take(8).collect();
    let views: Vec<StringView> = texts.iter().map(|t| StringView::new(t)).collect();
    let dims = [views.len()];
    let size = (to.bits() / 8) as usize;
    let mut out = vec![0xA5u8; views.len() * size];
    let input = Tensor::strings(&views, &dims).unwrap();
    let mut output = TensorMut::new(&mut out, to, &dims).unwrap();
    let result = cast(&input, &mut output, &CastOptions::default());
    let expected: Vec<Option<Vec<u8>>> = texts.iter().map(|t| reference(t, to)).collect();
    let first_refused = expected.iter().position(Option::is_none);
    match (result, first_refused) {
        (Ok(()), None) => {
            for (i, want) in expected.iter().enumerate() {
                let want = want.as_ref().unwrap();
                let got = &out[i * size..(i + 1) * size];
                let both_nan = is_nan(got, to) && is_nan(want, to);
                assert!(
                    got == want.as_slice() || both_nan,
                    "{:?} -> {}: got {got:02x?}, reference {want:02x?}",
                    String::from_utf8_lossy(texts[i]),
                    to.name()
                );
            }
        }
        (Err(e), Some(i)) => {
            assert_eq!(e.status(), Status::Parse, "{e}");
            assert_eq!(
                e.index(),
                Some(i as u64),
                "{e}: the first bad element is {i}"
            );
        }
        (Ok(()), Some(i)) => panic!(
            "{:?} -> {} parsed; the reference refuses it",
            String::from_utf8_lossy(texts[i]),
            to.name()
        ),
        (Err(e), None) => panic!("refused ({e}); the reference accepts every element"),
    }
});
