// SPDX-License-Identifier: MIT OR Apache-2.0
//! QuantizeLinear / DequantizeLinear against a reference written here from the spec
//! text (the formats' definitions in docs/semantics-cast.md, ONNX's Q/DQ formulas),
//! independent of the kernels: element values computed from sign/exponent/mantissa
//! fields, rounding by searching the format's sorted values, integer rounding by floor
//! and comparison with one half, and products rounded by `as f32` / the `half` crate.

use super::*;
use crate::testutil::quick;
use half::{bf16, f16};

/// (dtype, exponent bits, mantissa bits, bias, NaN/inf rule) of the float element types.
#[derive(Copy, Clone, PartialEq)]
pub(super) enum Rule {
    Ieee,
    Fn,
    Fnuz,
    Sat,
}

const FLOATS: [(DType, u32, u32, i32, Rule); 7] = [
    (DType::Float8E4M3Fn, 4, 3, 7, Rule::Fn),
    (DType::Float8E4M3Fnuz, 4, 3, 8, Rule::Fnuz),
    (DType::Float8E5M2, 5, 2, 15, Rule::Ieee),
    (DType::Float8E5M2Fnuz, 5, 2, 16, Rule::Fnuz),
    (DType::Float4E2M1, 2, 1, 1, Rule::Sat),
    (DType::Float6E2M3, 2, 3, 1, Rule::Sat),
    (DType::Float6E3M2, 3, 2, 3, Rule::Sat),
];

pub(super) fn row(t: DType) -> (DType, u32, u32, i32, Rule) {
    *FLOATS.iter().find(|r| r.0 == t).unwrap()
}

/// The value of `code` from the format's fields (NaN and infinities by its rule).
pub(super) fn spec_value(t: DType, code: u32) -> f64 {
    let (_, e, m, bias, rule) = row(t);
    let bits = 1 + e + m;
    let sign = (code >> (bits - 1)) & 1;
    let exp = (code >> m) & ((1 << e) - 1);
    let man = code & ((1 << m) - 1);
    let top = (1 << e) - 1;
    match rule {
        Rule::Fnuz if code == 1 << (bits - 1) => return f64::NAN,
        Rule::Fn if exp == top && man == (1 << m) - 1 => return f64::NAN,
        Rule::Ieee if exp == top => {
            return if man != 0 {
                f64::NAN
            } else if sign == 1 {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        _ => {}
    }
    let mag = if exp == 0 {
        f64::from(man) * 2f64.powi(1 - bias - m as i32)
    } else {
        f64::from((1 << m) | man) * 2f64.powi(exp as i32 - bias - m as i32)
    };
    if sign == 1 {
        -mag
    } else {
        mag
    }
}

/// The code ONNX's table gives for `v` (exact) in float element type `t`: nearest, ties
/// to the even code; from the largest finite value plus half a step on (infinities
/// included), the largest (saturate) or infinity (E5M2) or NaN.
fn spec_round(t: DType, v: f64, saturate: bool) -> u32 {
    let (_, e, m, _, rule) = row(t);
    let bits = 1 + e + m;
    let sign_bit = 1u32 << (bits - 1);
    let nan_code = match rule {
        Rule::Fnuz => sign_bit,
        Rule::Fn => (1 << bits) - 1 - sign_bit,
        Rule::Ieee => ((1 << (e + m)) - 1) - ((1 << m) - 1) + (1 << (m - 1)),
        Rule::Sat => sign_bit,
    };
    // Positive finite codes, by value (made once per type).
    type Sorted = std::rc::Rc<Vec<(f64, u32)>>;
    thread_local! {
        static SORTED: std::cell::RefCell<std::collections::HashMap<i32, Sorted>> =
            Default::default();
    }
    let pos = SORTED.with(|m| {
        m.borrow_mut()
            .entry(t.code())
            .or_insert_with(|| {
                let mut pos: Vec<(f64, u32)> = (0..sign_bit)
                    .map(|c| (spec_value(t, c), c))
                    .filter(|(x, _)| x.is_finite())
                    .collect();
                pos.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
                std::rc::Rc::new(pos)
            })
            .clone()
    });
    let neg = v < 0.0 || (v == 0.0 && v.is_sign_negative());
    let with_sign = |c: u32| {
        if neg && !(rule == Rule::Fnuz && c == 0) {
            c | sign_bit
        } else {
            c
        }
    };
    if v.is_nan() {
        // The library's choice for the float4/6 types (as ml_dtypes): +NaN -> -0.
        return if rule == Rule::Sat {
            if v.is_sign_negative() {
                0
            } else {
                sign_bit
            }
        } else {
            nan_code
        };
    }
    let a = v.abs();
    let (max, max_code) = *pos.last().unwrap();
    let step = max - pos[pos.len() - 2].0;
    let overflow_code = |saturate: bool| -> u32 {
        if saturate || rule == Rule::Sat {
            with_sign(max_code)
        } else if rule == Rule::Ieee {
            with_sign(((1 << e) - 1) << m)
        } else {
            nan_code
        }
    };
    // Past the largest value by half a step, or exactly half a step when the largest
    // code is odd (the tie goes to the even neighbour, one step beyond).
    if a > max + step / 2.0 || (a == max + step / 2.0 && max_code % 2 == 1) {
        return overflow_code(saturate);
    }
    if a >= max {
        return with_sign(max_code);
    }
    let i = pos.partition_point(|p| p.0 <= a) - 1;
    let (lo, hi) = (pos[i], pos[i + 1]);
    let (dl, dh) = (a - lo.0, hi.0 - a);
    let c = if dl < dh || (dl == dh && lo.1 % 2 == 0) {
        lo.1
    } else {
        hi.1
    };
    with_sign(c)
}

/// Round half to even by floor and comparison (v exact).
fn spec_rint(v: f64) -> f64 {
    let f = v.floor();
    let d = v - f;
    if d > 0.5 || (d == 0.5 && f % 2.0 != 0.0) {
        f + 1.0
    } else {
        f
    }
}

fn qint_range(t: DType) -> (i64, i64) {
    let bits = t.bits();
    let signed = matches!(t, DType::Int2 | DType::Int4 | DType::Int8 | DType::Int16);
    if signed {
        (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    } else {
        (0, (1 << bits) - 1)
    }
}

/// The integer quantized types: the first eight of QUANT_TYPES.
const INTS: &[DType] = QUANT_TYPES.split_at(8).0;

/// Packs codes of `t` (packed types LSB first, 16-bit native-endian).
fn pack_codes(t: DType, codes: &[u32]) -> Vec<u8> {
    let bits = t.bits();
    if bits == 16 {
        return codes
            .iter()
            .flat_map(|&c| (c as u16).to_ne_bytes())
            .collect();
    }
    if bits == 8 {
        return codes.iter().map(|&c| c as u8).collect();
    }
    let mut out = vec![0u8; (codes.len() * bits as usize).div_ceil(8)];
    for (i, &c) in codes.iter().enumerate() {
        for b in 0..bits as usize {
            if (c >> b) & 1 == 1 {
                let at = i * bits as usize + b;
                out[at / 8] |= 1 << (at % 8);
            }
        }
    }
    out
}

fn unpack_codes(t: DType, bytes: &[u8], n: usize) -> Vec<u32> {
    let bits = t.bits() as usize;
    if bits == 16 {
        return bytes
            .chunks(2)
            .map(|c| u32::from(u16::from_ne_bytes([c[0], c[1]])))
            .collect();
    }
    (0..n)
        .map(|i| {
            (0..bits).fold(0u32, |acc, b| {
                let at = i * bits + b;
                acc | (u32::from((bytes[at / 8] >> (at % 8)) & 1) << b)
            })
        })
        .collect()
}

/// The integer a code of integer type `t` holds (two's complement for the signed).
fn int_of(t: DType, code: u32) -> i64 {
    let bits = t.bits();
    let (lo, _) = qint_range(t);
    if lo < 0 && (code >> (bits - 1)) & 1 == 1 {
        i64::from(code) - (1i64 << bits)
    } else {
        i64::from(code)
    }
}

/// QuantizeLinear or DequantizeLinear of x (zero point of the quantized side's dtype)
/// into a new y of `yt`.
#[allow(clippy::too_many_arguments)]
fn run(
    op: Op,
    x: &[u8],
    xt: DType,
    dims: &[usize],
    s: &[u8],
    st: DType,
    sdims: &[usize],
    zp: Option<&[u8]>,
    yt: DType,
    o: &QdqOptions,
) -> Result<Vec<u8>, Error> {
    let n: usize = dims.iter().product();
    let mut out = vec![0u8; yt.bytes_for(n as u64).unwrap() as usize];
    let xv = Tensor::new(x, xt, dims)?;
    let sv = Tensor::new(s, st, sdims)?;
    let zt = if op == Op::Quantize { yt } else { xt };
    let zv = zp.map(|z| Tensor::new(z, zt, sdims)).transpose()?;
    let mut yv = TensorMut::new(&mut out, yt, dims)?;
    match op {
        Op::Quantize => quantize_linear(&xv, &sv, zv.as_ref(), &mut yv, o)?,
        Op::Dequantize => dequantize_linear(&xv, &sv, zv.as_ref(), &mut yv, o)?,
    }
    Ok(out)
}

/// The value of every code of quantized type `t`, from the spec.
fn codes_of(t: DType) -> Vec<(u32, f64)> {
    (0..1u32 << t.bits())
        .map(|c| {
            let v = if INTS.contains(&t) {
                int_of(t, c) as f64
            } else {
                spec_value(t, c)
            };
            (c, v)
        })
        .collect()
}

/// The positive finite values of a 16-bit float type with their codes, sorted.
fn positives16(decode: fn(u16) -> f64, inf: u16) -> Vec<(f64, u16)> {
    (0..inf).map(|c| (decode(c), c)).collect()
}

/// Exact `v` rounded to nearest even among `pos` (IEEE: past the largest value plus
/// half a step, or on that tie, infinity).
fn round16(pos: &[(f64, u16)], inf: u16, v: f64) -> u32 {
    let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
    if v.is_nan() {
        return u32::from(inf | ((inf >> 1) & !inf & 0x7fff) | sign);
    }
    let a = v.abs();
    let (max, _) = pos[pos.len() - 1];
    let step = max - pos[pos.len() - 2].0;
    if a >= max + step / 2.0 {
        return u32::from(inf | sign);
    }
    if a >= max {
        return u32::from(pos[pos.len() - 1].1 | sign);
    }
    let i = pos.partition_point(|p| p.0 <= a) - 1;
    let (lo, hi) = (pos[i], pos[i + 1]);
    let (dl, dh) = (a - lo.0, hi.0 - a);
    let c = if dl < dh || (dl == dh && lo.1 % 2 == 0) {
        lo.1
    } else {
        hi.1
    };
    u32::from(c | sign)
}

/// Rounds an exact f64 to y's type, independently of the library: `as f32` (Rust's
/// correctly rounded conversion) and a search of the 16-bit types' sorted values.
fn round_out(yt: DType, v: f64) -> u32 {
    use std::sync::OnceLock;
    static F16: OnceLock<Vec<(f64, u16)>> = OnceLock::new();
    static BF16: OnceLock<Vec<(f64, u16)>> = OnceLock::new();
    match yt {
        DType::Float => (v as f32).to_bits(),
        DType::Float16 => {
            let pos = F16.get_or_init(|| positives16(|c| f16::from_bits(c).to_f64(), 0x7c00));
            round16(pos, 0x7c00, v)
        }
        _ => {
            let pos = BF16.get_or_init(|| positives16(|c| bf16::from_bits(c).to_f64(), 0x7f80));
            round16(pos, 0x7f80, v)
        }
    }
}

fn out_bits(yt: DType, bytes: &[u8]) -> Vec<u32> {
    match yt {
        DType::Float => bytes
            .chunks(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        _ => bytes
            .chunks(2)
            .map(|c| u32::from(u16::from_ne_bytes([c[0], c[1]])))
            .collect(),
    }
}

fn is_nan_bits(yt: DType, b: u32) -> bool {
    match yt {
        DType::Float => f32::from_bits(b).is_nan(),
        DType::Float16 => f16::from_bits(b as u16).is_nan(),
        _ => bf16::from_bits(b as u16).is_nan(),
    }
}

/// DequantizeLinear, every code of every quantized type times every FLOAT8E8M0 scale
/// (blocked, one block per scale), and times FLOAT/FLOAT16/BFLOAT16 scales, into
/// every output type, with zero points for the integer types.
#[test]
fn dequantize_every_code_and_scale_code() {
    let mut checked = 0u64;
    for &xt in &QUANT_TYPES {
        let codes = codes_of(xt);
        let nc = codes.len();
        let x: Vec<u32> = codes.iter().map(|c| c.0).collect();
        // Scale sets: (dtype, bytes of each scale, its exact value).
        let mut scales: Vec<(DType, Vec<u8>, f64)> = Vec::new();
        let e8m0_step = if nc > 256 { 17 } else { 1 };
        for c in (0..=255u8).step_by(e8m0_step) {
            let v = if c == 255 {
                f64::NAN
            } else {
                2f64.powi(i32::from(c) - 127)
            };
            scales.push((DType::Float8E8M0, vec![c], v));
        }
        for v in [0.1f32, -3.0e-5, 1.0, 7.0e30, 1.0e-40, 0.0, f32::INFINITY] {
            scales.push((DType::Float, v.to_ne_bytes().to_vec(), f64::from(v)));
        }
        for v in [0.3f64, -65504.0, 6.0e-8] {
            let h = f16::from_f64(v);
            scales.push((
                DType::Float16,
                h.to_bits().to_ne_bytes().to_vec(),
                h.to_f64(),
            ));
            let b = bf16::from_f64(v);
            scales.push((
                DType::Bfloat16,
                b.to_bits().to_ne_bytes().to_vec(),
                b.to_f64(),
            ));
        }
        let is_int = INTS.contains(&xt);
        let zps: Vec<Option<u32>> = if is_int {
            let (lo, hi) = qint_range(xt);
            vec![
                None,
                Some((lo & ((1 << xt.bits()) - 1)) as u32),
                Some(hi as u32),
            ]
        } else {
            vec![None]
        };
        let xbytes = pack_codes(xt, &x);
        for (st, sbytes, sv) in &scales {
            for zp in &zps {
                for yt in FLOAT_TYPES {
                    let zb = zp.map(|z| pack_codes(xt, &[z]));
                    let got = run(
                        Op::Dequantize,
                        &xbytes,
                        xt,
                        &[nc],
                        sbytes,
                        *st,
                        &[1],
                        zb.as_deref(),
                        yt,
                        &QdqOptions::default(),
                    )
                    .unwrap();
                    let got = out_bits(yt, &got);
                    for (k, &(_, xv)) in codes.iter().enumerate() {
                        let z = zp.map_or(0, |z| int_of(xt, z));
                        // Exact: at most 17 bits times at most 24.
                        let want = round_out(yt, (xv - z as f64) * sv);
                        let ok =
                            got[k] == want || (is_nan_bits(yt, got[k]) && is_nan_bits(yt, want));
                        assert!(
                            ok,
                            "DQ {xt} code {k} value {xv} zp {zp:?} scale {st} {sv} -> {yt}: \
                             got {:#x} want {want:#x}",
                            got[k]
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1_000_000, "{checked}");
}

/// Every FLOAT16 value (x, read as FLOAT16 and as FLOAT) divided by every FLOAT8E8M0
/// scale, into every float element type (saturate on and off) and every integer type
/// (with and without a zero point).
#[test]
fn quantize_every_value_and_e8m0_scale() {
    // Every third FLOAT16 pattern (every 93rd in quick mode) with every scale code.
    let stride = if quick() { 3 * 31 } else { 3 };
    let xs: Vec<u16> = (0..=u16::MAX).step_by(stride).collect();
    let xv: Vec<f64> = xs.iter().map(|&h| f16::from_bits(h).to_f64()).collect();
    let x16: Vec<u8> = xs.iter().flat_map(|h| h.to_ne_bytes()).collect();
    let x32: Vec<u8> = xv.iter().flat_map(|&v| (v as f32).to_ne_bytes()).collect();
    let n = xs.len();
    let mut checked = 0u64;
    for sc in 0..=255u8 {
        let s = if sc == 255 {
            f64::NAN
        } else {
            2f64.powi(i32::from(sc) - 127)
        };
        let xin: (&[u8], DType) = if sc % 2 == 0 {
            (&x16, DType::Float16)
        } else {
            (&x32, DType::Float)
        };
        for &(yt, ..) in &FLOATS {
            for saturate in [true, false] {
                let o = QdqOptions {
                    saturate,
                    ..QdqOptions::default()
                };
                let got = run(
                    Op::Quantize,
                    xin.0,
                    xin.1,
                    &[n],
                    &[sc],
                    DType::Float8E8M0,
                    &[],
                    None,
                    yt,
                    &o,
                )
                .unwrap();
                let got = unpack_codes(yt, &got, n);
                for k in 0..n {
                    let q = xv[k] / s; // exact: a power of two
                    let want = spec_round(yt, q, saturate);
                    let ok = got[k] == want
                        || (spec_value(yt, got[k]).is_nan() && spec_value(yt, want).is_nan());
                    assert!(
                        ok,
                        "Q {} {} / 2^{} -> {yt} sat {saturate}: got {:#x} want {want:#x}",
                        xin.1,
                        xv[k],
                        i32::from(sc) - 127,
                        got[k]
                    );
                    checked += 1;
                }
            }
        }
        if sc % 4 != 0 {
            continue;
        }
        for &yt in INTS {
            let (lo, hi) = qint_range(yt);
            for zp in [None, Some(lo), Some(hi)] {
                let zb = zp.map(|z| pack_codes(yt, &[(z & ((1 << yt.bits()) - 1)) as u32]));
                let got = run(
                    Op::Quantize,
                    xin.0,
                    xin.1,
                    &[n],
                    &[sc],
                    DType::Float8E8M0,
                    &[1],
                    zb.as_deref(),
                    yt,
                    &QdqOptions::default(),
                )
                .unwrap();
                let got = unpack_codes(yt, &got, n);
                for k in 0..n {
                    let q = xv[k] / s;
                    let z = zp.unwrap_or(0);
                    let r = if q.is_nan() { 0.0 } else { spec_rint(q) };
                    let want = (r + z as f64).clamp(lo as f64, hi as f64) as i64;
                    assert_eq!(
                        int_of(yt, got[k]),
                        want,
                        "Q {} / 2^{} + {z} -> {yt}",
                        xv[k],
                        i32::from(sc) - 127
                    );
                    checked += 1;
                }
            }
        }
    }
    // 21,846 values x 256 scales x the types and both saturate modes (quick: 705 values).
    let least = if quick() { 3_000_000 } else { 10_000_000 };
    assert!(checked > least, "{checked} checked, fewer than {least}");
}

/// x / scale with scales that are not powers of two: the integer rounding against an
/// exact rational one (i128), where a quotient rounded to f32 first would differ.
#[test]
fn quantize_rounds_the_exact_quotient_once() {
    // 1.5 * (1 + 2^-23) / (1 + 2^-23) ... constructed: x = 3 * 2^22 + 1 (exact in f32:
    // 23 bits), scale = 2 * (2^22 + 1) / ... use a search instead: find x, s with the
    // exact quotient just above k + 1/2 but the f32 quotient exactly k + 1/2.
    let mut found = 0;
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut tries = 0u64;
    while found < 20 && tries < 20_000_000 {
        tries += 1;
        // k + 1/2 with k < 2^14, times a random scale of 24 bits in [1, 2).
        let k = (next() % 16384) as f64;
        let s = f32::from_bits(0x3f80_0000 | (next() as u32 & 0x7f_ffff));
        let t = (k + 0.5) * f64::from(s);
        let x = t as f32; // nearest f32 to the product
        let q32 = x / s; // the quotient rounded to f32
        if f64::from(q32) != k + 0.5 || f64::from(x) == t {
            continue;
        }
        // The exact quotient is not the tie; which side it is on decides.
        let exact_above = f64::from(x) > t; // x / s > k + 1/2 exactly (s > 0)
        let want = if exact_above { k + 1.0 } else { k };
        let xb = x.to_ne_bytes();
        let sb = s.to_ne_bytes();
        let got = run(
            Op::Quantize,
            &xb,
            DType::Float,
            &[1],
            &sb,
            DType::Float,
            &[],
            None,
            DType::Uint16,
            &QdqOptions::default(),
        )
        .unwrap();
        assert_eq!(
            f64::from(u16::from_ne_bytes([got[0], got[1]])),
            want,
            "{x} / {s}"
        );
        // precision = FLOAT reproduces the rounded quotient (ONNX's precision attribute).
        let o = QdqOptions {
            precision: Some(DType::Float),
            ..QdqOptions::default()
        };
        let got = run(
            Op::Quantize,
            &xb,
            DType::Float,
            &[1],
            &sb,
            DType::Float,
            &[],
            None,
            DType::Uint16,
            &o,
        )
        .unwrap();
        assert_eq!(
            f64::from(u16::from_ne_bytes([got[0], got[1]])),
            spec_rint(k + 0.5)
        );
        found += 1;
    }
    assert_eq!(found, 20, "double-rounding cases found in {tries} tries");
}

/// precision = FLOAT16: x and scale rounded to FLOAT16, the quotient too (ONNX 23+).
#[test]
fn precision_rounds_the_division() {
    let x = 3001.0f32.to_ne_bytes();
    let s = f16::from_f64(1.0).to_bits().to_ne_bytes();
    let exact = run(
        Op::Quantize,
        &x,
        DType::Float,
        &[1],
        &s,
        DType::Float16,
        &[],
        None,
        DType::Int16,
        &QdqOptions::default(),
    )
    .unwrap();
    assert_eq!(i16::from_ne_bytes([exact[0], exact[1]]), 3001);
    let o = QdqOptions {
        precision: Some(DType::Float16),
        ..QdqOptions::default()
    };
    let rounded = run(
        Op::Quantize,
        &x,
        DType::Float,
        &[1],
        &s,
        DType::Float16,
        &[],
        None,
        DType::Int16,
        &o,
    )
    .unwrap();
    assert_eq!(i16::from_ne_bytes([rounded[0], rounded[1]]), 3000);
}

/// INT32 x in DequantizeLinear: (x - zero_point) needs 33 bits, the product up to 57:
/// rounded once (against i128 and an exact rounding by hand).
#[test]
fn dequantize_int32_rounds_the_exact_product_once() {
    let cases: [(i32, i32, f32); 4] = [
        (i32::MAX, i32::MIN, 1.0 + f32::EPSILON),
        (0x7fff_ff01, -1, 0.75),
        (-0x7654_3211, 0x1234_5677, 3.0e-30),
        (16_777_217, 0, 1.0),
    ];
    for (x, z, s) in cases {
        let got = run(
            Op::Dequantize,
            &x.to_ne_bytes(),
            DType::Int32,
            &[1],
            &s.to_ne_bytes(),
            DType::Float,
            &[],
            Some(&z.to_ne_bytes()),
            DType::Float,
            &QdqOptions::default(),
        )
        .unwrap();
        let got = f32::from_ne_bytes([got[0], got[1], got[2], got[3]]);
        // Exact product as an i128 significand and a power of two; round to 24 bits.
        let n = i128::from(x) - i128::from(z);
        let (m, e) = {
            let b = s.to_bits();
            (
                i128::from((b & 0x7f_ffff) | 0x80_0000),
                ((b >> 23) & 0xff) as i32 - 150,
            )
        };
        let p = n * m;
        let a = p.unsigned_abs();
        let width = 128 - a.leading_zeros() as i32;
        let k = (width - 24).max(0);
        let mut top = a >> k;
        let rest = a & ((1u128 << k) - 1);
        let half = if k > 0 { 1u128 << (k - 1) } else { 0 };
        if k > 0 && (rest > half || (rest == half && top & 1 == 1)) {
            top += 1;
        }
        let want = (top as f64) * 2f64.powi(k + e);
        let want = if p < 0 { -want } else { want } as f32;
        assert_eq!(got.to_bits(), want.to_bits(), "({x} - {z}) * {s}");
    }
}

/// Per-axis and blocked scales address the right elements, every axis, uneven blocks.
#[test]
fn blocked_and_per_axis_scales_follow_the_axis() {
    let dims = [3usize, 5, 4];
    let n: usize = dims.iter().product();
    let x: Vec<u8> = (0..n).map(|i| (i * 7 % 251) as u8).collect();
    for axis in 0..3i64 {
        for block in [0i64, 1, 2, 3, 7] {
            let ax = axis as usize;
            let mut sd = if block == 0 {
                vec![dims[ax]]
            } else {
                dims.to_vec()
            };
            if block > 0 {
                sd[ax] = dims[ax].div_ceil(block as usize);
            }
            let ns: usize = sd.iter().product();
            let s: Vec<u8> = (0..ns).map(|i| 120 + (i % 13) as u8).collect();
            let neg = axis - 3;
            for a in [axis, neg] {
                let o = QdqOptions {
                    axis: a,
                    block_size: block,
                    ..QdqOptions::default()
                };
                let got = run(
                    Op::Dequantize,
                    &x,
                    DType::Uint8,
                    &dims,
                    &s,
                    DType::Float8E8M0,
                    &sd,
                    None,
                    DType::Float,
                    &o,
                )
                .unwrap();
                let got = out_bits(DType::Float, &got);
                for (i, &g) in got.iter().enumerate() {
                    let idx = [i / 20, i / 4 % 5, i % 4];
                    let si = if block == 0 {
                        idx[ax]
                    } else {
                        let mut j = idx;
                        j[ax] /= block as usize;
                        (j[0] * sd[1] + j[1]) * sd[2] + j[2]
                    };
                    let want = f64::from(x[i]) * 2f64.powi(i32::from(s[si]) - 127);
                    assert_eq!(
                        g,
                        (want as f32).to_bits(),
                        "axis {a} block {block} element {i}"
                    );
                }
            }
        }
    }
}

/// Shape and type errors name what is wrong.
#[test]
fn errors_name_the_argument() {
    let o = QdqOptions::default();
    let x = [0u8; 24];
    let e = run(
        Op::Dequantize,
        &x,
        DType::Uint8,
        &[2, 3, 4],
        &[127; 3],
        DType::Float8E8M0,
        &[2],
        None,
        DType::Float,
        &o,
    )
    .unwrap_err();
    assert_eq!(e.status(), crate::error::Status::InvalidShape);
    assert!(e.to_string().contains("scale shape [2]"), "{e}");
    let o2 = QdqOptions { block_size: 3, ..o };
    let e = run(
        Op::Dequantize,
        &x,
        DType::Uint8,
        &[2, 3, 4],
        &[127; 8],
        DType::Float8E8M0,
        &[2, 1, 4],
        None,
        DType::Float,
        &o2,
    )
    .unwrap();
    assert_eq!(e.len(), 96);
    let e = run(
        Op::Dequantize,
        &x,
        DType::Uint8,
        &[2, 3, 4],
        &[127; 16],
        DType::Float8E8M0,
        &[2, 2, 4],
        None,
        DType::Float,
        &o2,
    )
    .unwrap_err();
    assert!(e.to_string().contains("must be [2,1,4]"), "{e}");
    let e = run(
        Op::Quantize,
        &[0u8; 4],
        DType::Float,
        &[1],
        &[127],
        DType::Float8E8M0,
        &[],
        Some(&[0x38]),
        DType::Float8E4M3Fn,
        &o,
    )
    .unwrap_err();
    assert!(e.to_string().contains("zero_point element 0 is 1"), "{e}");
    let e = run(
        Op::Quantize,
        &[0u8; 4],
        DType::Float,
        &[1],
        &[127],
        DType::Float8E8M0,
        &[],
        None,
        DType::Float,
        &o,
    )
    .unwrap_err();
    assert!(e.to_string().contains("y dtype FLOAT"), "{e}");
    let o3 = QdqOptions { axis: 3, ..o };
    let e = run(
        Op::Dequantize,
        &x,
        DType::Uint8,
        &[2, 3, 4],
        &[127; 3],
        DType::Float8E8M0,
        &[3],
        None,
        DType::Float,
        &o3,
    )
    .unwrap_err();
    assert!(e.to_string().contains("axis 3 is outside [-3, 2]"), "{e}");
    // A strided scale is named as the scale, of x's dtype or not, in both operations.
    let (xf, sf) = ([0u8; 16], [0u8; 32]);
    let xt = Tensor::new(&xf, DType::Float, &[4]).unwrap();
    let scale = Tensor::strided(&sf, DType::Float, &[4], &[2]).unwrap();
    let mut yq = [0u8; 4];
    let mut y = TensorMut::new(&mut yq, DType::Int8, &[4]).unwrap();
    let e = quantize_linear(&xt, &scale, None, &mut y, &QdqOptions { axis: 0, ..o }).unwrap_err();
    assert!(e.to_string().starts_with("scale strides [2]"), "{e}");
    let xq = [0u8; 4];
    let xt = Tensor::new(&xq, DType::Int8, &[4]).unwrap();
    let mut yf = [0u8; 16];
    let mut y = TensorMut::new(&mut yf, DType::Float, &[4]).unwrap();
    let e = dequantize_linear(&xt, &scale, None, &mut y, &QdqOptions { axis: 0, ..o }).unwrap_err();
    assert!(e.to_string().starts_with("scale strides [2]"), "{e}");
}

#[test]
fn float4_zero_points_are_added_after_rounding_and_per_tensor_shapes_mix() {
    // ONNX: y = round(x / scale) + zero_point; in IEEE arithmetic -0 + +0 is +0, -0 + -0
    // is -0 (onnx's test_quantizelinear_float4e2m1 expects +0).
    let x: Vec<u8> = [-0.0f32, -0.1, 0.0, -1.0]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    let one = 1.0f32.to_ne_bytes();
    let o = QdqOptions::default();
    let q = |zp: Option<&[u8]>| {
        let y = run(
            Op::Quantize,
            &x,
            DType::Float,
            &[4],
            &one,
            DType::Float,
            &[],
            zp,
            DType::Float4E2M1,
            &o,
        )
        .unwrap();
        unpack_codes(DType::Float4E2M1, &y, 4)
    };
    assert_eq!(q(None), [0x8, 0x8, 0x0, 0xa]);
    assert_eq!(q(Some(&[0x0])), [0x0, 0x0, 0x0, 0xa]);
    assert_eq!(q(Some(&[0x8])), [0x8, 0x8, 0x0, 0xa]);
    // A per-tensor zero point of shape [1] with a scale of shape [] (and the reverse).
    let two = 2.0f32.to_ne_bytes();
    for (sdims, zdims) in [(&[][..], &[1usize][..]), (&[1][..], &[][..])] {
        let xv = Tensor::new(&[0x21, 0x03], DType::Float4E2M1, &[3]).unwrap();
        let sv = Tensor::new(&two, DType::Float, sdims).unwrap();
        let zv = Tensor::new(&[0u8], DType::Float4E2M1, zdims).unwrap();
        let mut out = [0u8; 12];
        let mut yv = TensorMut::new(&mut out, DType::Float, &[3]).unwrap();
        dequantize_linear(&xv, &sv, Some(&zv), &mut yv, &o).unwrap();
        let got: Vec<f32> = out
            .chunks(4)
            .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // Codes 1, 2, 3: 0.5, 1, 1.5 (spec_value), times 2.
        let want: Vec<f32> = [1, 2, 3]
            .iter()
            .map(|&c| (spec_value(DType::Float4E2M1, c) * 2.0) as f32)
            .collect();
        assert_eq!(got, want);
    }
    // Other shapes still differ: a [2] zero point with a [] scale is refused.
    let xv = Tensor::new(&[0x21], DType::Float4E2M1, &[2]).unwrap();
    let sv = Tensor::new(&two, DType::Float, &[]).unwrap();
    let zv = Tensor::new(&[0u8], DType::Float4E2M1, &[2]).unwrap();
    let mut out = [0u8; 8];
    let mut yv = TensorMut::new(&mut out, DType::Float, &[2]).unwrap();
    let err = dequantize_linear(&xv, &sv, Some(&zv), &mut yv, &o).unwrap_err();
    assert!(err.to_string().contains("zero_point shape [2]"), "{err}");
}
