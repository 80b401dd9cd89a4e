// SPDX-License-Identifier: MIT OR Apache-2.0
//! Text layouts of float digits: numpy's `str()` of the shortest round-trip digits of
//! the 16-bit and low-precision floats (found by a search; FLOAT's and DOUBLE's are in
//! `shortest.rs`) and C's `%.Pg`.

use super::super::options::RoundMode;
use super::scratch::{push, push_exponent, Scratch, SCRATCH_BYTES};
use crate::formats::{convert, lowp};
use core::fmt::Write;

/// The value of a short run of ASCII digits (an exponent).
fn small_int(digits: &[u8]) -> i32 {
    digits
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .fold(0, |v, &c| v * 10 + i32::from(c - b'0'))
}

/// Decimal digits `d1 d2 ... dn` (no leading zero unless the value is 0, no trailing
/// zero) and the exponent of the first: the value is d1.d2...dn x 10^exp.
struct Decimal {
    digits: [u8; 40],
    len: usize,
    exp: i32,
}

impl Decimal {
    /// Reads an unsigned decimal text in positional ("0.000123", "123.0") or scientific
    /// ("1.2345e-5", "1e16") form, as Rust's `{:e}` writes them.
    fn parse(text: &[u8]) -> Decimal {
        let mut d = Decimal {
            digits: [0; 40],
            len: 0,
            exp: 0,
        };
        let e_at = text.iter().position(|&c| c == b'e').unwrap_or(text.len());
        let mantissa = &text[..e_at];
        let (int, frac) = match mantissa.iter().position(|&c| c == b'.') {
            Some(p) => (&mantissa[..p], &mantissa[p + 1..]),
            None => (mantissa, &[][..]),
        };
        let exp10 = match text.get(e_at + 1..) {
            Some([b'-', rest @ ..]) => -small_int(rest),
            Some(rest) => small_int(rest),
            None => 0,
        };
        // Digits of int ++ frac without leading zeros (only "0.000ddd" has them).
        let int_zeros = int.iter().take_while(|&&c| c == b'0').count();
        let frac_zeros = if int_zeros == int.len() {
            frac.iter().take_while(|&&c| c == b'0').count()
        } else {
            0
        };
        let int = &int[int_zeros..];
        let frac = &frac[frac_zeros..];
        if int.len() + frac.len() > d.digits.len() || int.len() + frac.len() == 0 {
            d.digits[0] = b'0';
            d.len = 1;
            return d;
        }
        d.digits[..int.len()].copy_from_slice(int);
        d.digits[int.len()..int.len() + frac.len()].copy_from_slice(frac);
        d.len = int.len() + frac.len();
        d.exp = if int.is_empty() {
            -(frac_zeros as i32) - 1 + exp10
        } else {
            int.len() as i32 - 1 + exp10
        };
        while d.len > 1 && d.digits[d.len - 1] == b'0' {
            d.len -= 1;
        }
        d
    }

    fn digits(&self) -> &[u8] {
        &self.digits[..self.len]
    }

    /// Writes d.ddd e±XX (the mantissa's point only when there is more than one digit,
    /// the exponent with a sign and at least two digits), as numpy and C both do.
    fn write_scientific(&self, out: &mut Scratch) {
        let digits = self.digits();
        push(out, &digits[..1]);
        if digits.len() > 1 {
            push(out, b".");
            push(out, &digits[1..]);
        }
        push_exponent(out, self.exp);
    }

    /// numpy's str() layout of the value `x` these digits stand for.
    fn write_numpy(&self, x: f64, upper: f64, out: &mut Scratch) {
        if x == 0.0 || (1e-4..upper).contains(&x) {
            self.write_positional(out, b".0");
        } else {
            self.write_scientific(out);
        }
    }

    /// Writes the digits positionally: "123.45", "0.00012"; `whole_suffix` is appended to
    /// a whole number (numpy writes "100.0", C's %g writes "100").
    fn write_positional(&self, out: &mut Scratch, whole_suffix: &[u8]) {
        let digits = self.digits();
        if self.exp < 0 {
            push(out, b"0.");
            for _ in 0..(-self.exp - 1) {
                push(out, b"0");
            }
            push(out, digits);
            return;
        }
        let int_len = self.exp as usize + 1;
        if digits.len() <= int_len {
            push(out, digits);
            for _ in digits.len()..int_len {
                push(out, b"0");
            }
            push(out, whole_suffix);
        } else {
            push(out, &digits[..int_len]);
            push(out, b".");
            push(out, &digits[int_len..]);
        }
    }
}

pub(super) fn shortest_f16(x: f64, upper: f64, out: &mut Scratch) {
    let digits = shortest_by_search(x, |v| {
        f64::from(convert::f16_bits_to_f32(convert::f64_to_f16_bits(v)))
    });
    digits.write_numpy(x, upper, out);
}

pub(super) fn shortest_bf16(x: f64, upper: f64, out: &mut Scratch) {
    let digits = shortest_by_search(x, |v| {
        f64::from(convert::bf16_bits_to_f32(convert::f64_to_bf16_bits(v)))
    });
    digits.write_numpy(x, upper, out);
}

/// The shortest digits that read back (through `round`, the format's rounding of an f64)
/// to `x`; among equally short ones the closest to `x` (an even last digit on a tie).
/// At each length the correctly rounded digits and their two neighbours are tried: just
/// above a power of two the gap below is half the gap above, so the nearest digits can
/// fail where the next ones up read back.
fn shortest_by_search(x: f64, round: impl Fn(f64) -> f64) -> Decimal {
    let mut space = [0u8; SCRATCH_BYTES];
    if x == 0.0 {
        return Decimal::parse(b"0");
    }
    for precision in 1..=17usize {
        let mut text = Scratch::over(&mut space);
        let _ = write!(text, "{:.*e}", precision - 1, x);
        let nearest = Decimal::parse(text.bytes());
        // The candidates as integers M times 10^(exp - precision + 1).
        let mut m: u64 = 0;
        for k in 0..precision {
            m = m * 10
                + u64::from(
                    nearest
                        .digits
                        .get(k)
                        .filter(|_| k < nearest.len)
                        .map_or(0, |d| d - b'0'),
                );
        }
        let scale = nearest.exp - precision as i32 + 1;
        let mut best: Option<(f64, u64)> = None;
        for candidate in [m.saturating_sub(1), m, m + 1] {
            let mut t = Scratch::over(&mut space);
            let _ = write!(t, "{candidate}e{scale}");
            let value: f64 = core::str::from_utf8(t.bytes())
                .ok()
                .and_then(|t| t.parse().ok())
                .unwrap_or(f64::NAN);
            if candidate == 0 || round(value) != x {
                continue;
            }
            let distance = (value - x).abs();
            let better = match best {
                None => true,
                Some((d, c)) => distance < d || (distance == d && candidate % 2 == 0 && c % 2 == 1),
            };
            if better {
                best = Some((distance, candidate));
            }
        }
        if let Some((_, candidate)) = best {
            let mut t = Scratch::over(&mut space);
            let _ = write!(t, "{candidate}e{scale}");
            return Decimal::parse(t.bytes());
        }
    }
    let mut text = Scratch::over(&mut space);
    let _ = write!(text, "{x:e}");
    Decimal::parse(text.bytes())
}

/// C's `%.Pg` of a finite, non-negative value: P significant digits; scientific when
/// the exponent X of the rounded value is < -4 or >= P; trailing zeros and a bare point
/// dropped.
#[inline(always)]
pub(super) fn printf_g(magnitude: f64, precision: usize, out: &mut Scratch) {
    let mut space = [0u8; SCRATCH_BYTES];
    let mut text = Scratch::over(&mut space);
    let _ = write!(text, "{:.*e}", precision - 1, magnitude);
    let digits = Decimal::parse(text.bytes());
    if digits.exp < -4 || digits.exp >= precision as i32 {
        digits.write_scientific(out);
    } else {
        digits.write_positional(out, b"");
    }
}

/// A low-precision float's shortest digits. The search reads candidates back without
/// saturating (so the text of the largest value stays in range and reads back under
/// either `saturate`); FLOAT8E8M0's must read back under both `round_mode` up (the
/// default) and nearest. FLOAT8E8M0's smallest value, 2^-127, is the exception: no short
/// decimal is exactly 2^-127, `up` takes anything above it to 2^-126, and without
/// saturating anything below it is NaN; its text ("5e-39") reads back saturating (the
/// default), and the exact digits would not fit `max_text_bytes`.
pub(super) fn shortest_low<const F: u8>(x: f64, upper: f64, out: &mut Scratch) {
    let is_e8m0 = lowp::FORMATS[F as usize].kind == lowp::Kind::E8m0;
    let saturate = is_e8m0 && x == lowp::decode_f64(F, 0);
    let read = |v: f64, mode: RoundMode| {
        let opt = lowp::option_bits(F, saturate, mode as u8);
        lowp::decode_f64(F, lowp::encode_f64(F, opt, v))
    };
    let digits = shortest_by_search(x, |v| {
        let up = read(v, RoundMode::Up);
        if is_e8m0 && read(v, RoundMode::Nearest) != up {
            f64::NAN
        } else {
            up
        }
    });
    digits.write_numpy(x, upper, out);
}
