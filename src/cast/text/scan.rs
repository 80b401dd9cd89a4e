// SPDX-License-Identifier: MIT OR Apache-2.0
//! Byte scanning of number texts: C's whitespace, plain integer texts, and the plain
//! decimal forms (`-12.5`, `1.2345678e-23`, `.5`, `5.`; at most 19 significant digits)
//! read into a [`Plain`] decimal, eight digits at a time without a branch per digit.
//! Signs are read without branches (a random sign is a coin flip for the branch
//! predictor). Anything else is left to the general parser (None).
//!
//! Eight text bytes are read as one `u64` with `u64::from_le_bytes`, which puts text
//! byte 0 in the low byte on every host: the digit arithmetic below counts on that
//! numbering, not on the host's byte order, so it is right on big-endian hosts too
//! (these are text bytes, not elements, which are in host order).

use super::decimal::Plain;
use crate::simd::scan::{byte_classes, ByteClasses};

/// C's `isspace` in the C locale: space, \t, \n, \v, \f, \r (Rust's
/// `is_ascii_whitespace` leaves out \v).
#[inline(always)]
fn is_c_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t'..=b'\r')
}

/// The text without the C whitespace at either end.
#[inline(always)]
pub(super) fn trim(text: &[u8]) -> &[u8] {
    // Most texts have none: their end bytes are above ' ', which no space is.
    if let (Some(&first), Some(&last)) = (text.first(), text.last()) {
        if first > b' ' && last > b' ' {
            return text;
        }
    }
    trim_spaces(text)
}

/// [`trim`] of a text that is empty or has a byte at or below ' ' at an end.
#[cold]
#[inline(never)]
fn trim_spaces(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|&c| !is_c_space(c))
        .unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|&c| !is_c_space(c))
        .map_or(start, |e| e + 1);
    &text[start..end]
}

/// The sign and the digits of a plain integer text ("-123", "+7"), if it is one.
#[inline]
fn integer_digits(text: &[u8]) -> Option<(bool, &[u8])> {
    let (negative, digits) = match text.first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    (!digits.is_empty() && digits.iter().all(u8::is_ascii_digit)).then_some((negative, digits))
}

/// A plain integer text's value modulo 2^64 (two's complement), however many digits it
/// has: exactly the low bits the packed integer formats keep.
pub(super) fn plain_integer_low_bits(text: &[u8]) -> Option<u64> {
    let (negative, digits) = integer_digits(text)?;
    let magnitude = digits.iter().fold(0u64, |v, &c| {
        v.wrapping_mul(10).wrapping_add(u64::from(c - b'0'))
    });
    Some(if negative {
        magnitude.wrapping_neg()
    } else {
        magnitude
    })
}

/// A plain integer text ("-123", "+7") of at most 19 digits: its sign and magnitude,
/// read eight digits at a time. None for anything else, longer texts included (see
/// [`plain_integer`]).
///
/// A text of up to 8 bytes is [`tiny_integer`]'s. From 8 digits on, the digits are read
/// as three words ending 16, 8 and 0 digits before the end (each load clamped into the
/// text, the digits it does not own masked off). The length of a text is what a branch
/// predictor cannot guess, so the branches on it are few.
#[inline(always)]
pub(super) fn short_integer(text: &[u8]) -> Option<(bool, u64)> {
    if text.len() <= 8 {
        return tiny_integer(text);
    }
    let first = text[0];
    let negative = first == b'-';
    let digits = &text[usize::from(negative | (first == b'+'))..];
    // 8 to 19 digits (a text of 9 bytes or more has at least 8 after its sign).
    let n = digits.len();
    if n > 19 {
        return None;
    }
    let load = |at: usize| u64::from_le_bytes(digits[at..at + 8].try_into().expect("8 bytes"));
    // The last eight digits, the (up to) eight before them, the (up to) three first:
    // each the leading `count` bytes of a word loaded at or after the text's start.
    let low = load(n - 8);
    let (mid, mid_count) = (load(n.saturating_sub(16)), (n - 8).min(8));
    let (high, high_count) = (load(0), n.saturating_sub(16));
    let bad = non_digits(low)
        | non_digits(mid) & leading_mask(mid_count)
        | non_digits(high) & leading_mask(high_count);
    if bad != 0 {
        return None;
    }
    let value = leading_value(high, high_count) * 10_000_000_000_000_000
        + leading_value(mid, mid_count) * 100_000_000
        + eight_digit_value(low);
    Some((negative, value))
}

/// A plain integer text of 1 to 8 bytes ("-1234567", "+7", "42"): its sign and
/// magnitude; None for anything else (an empty or longer text included).
///
/// The text is read whole into one word, byte 0 the first, reading only its own bytes:
/// the first, middle and last byte (which between them are every byte of a text of 1 to
/// 3), else two overlapping 4-byte loads. A text of up to 3 bytes is worked on in 4
/// bytes, the others in 8 (see [`text_values`]).
#[inline(always)]
pub(super) fn tiny_integer(text: &[u8]) -> Option<(bool, u64)> {
    let len = text.len();
    if len < 4 {
        let t = text_values::<4>(three_byte_word(text)?, len);
        if is_bad::<4>(t.values) | t.no_digit {
            return None;
        }
        Some((t.negative, digit_values::<4>(t.values)))
    } else if len <= 8 {
        let four = |at: usize| {
            u64::from(u32::from_le_bytes(
                text[at..at + 4].try_into().expect("4 bytes"),
            ))
        };
        let t = text_values::<8>(four(0) | (four(len - 4) << (8 * (len - 4))), len);
        if is_bad::<8>(t.values) | t.no_digit {
            return None;
        }
        Some((t.negative, digit_values::<8>(t.values)))
    } else {
        None
    }
}

/// [`tiny_integer`] of two texts of 1 to 3 bytes at once: each one's digit values in its
/// own half of one word, then the test and the arithmetic once for both. None when
/// either is not a plain integer (or not 1 to 3 bytes long).
#[inline(always)]
pub(super) fn tiny_integer_pair(a: &[u8], b: &[u8]) -> Option<[(bool, u64); 2]> {
    if a.len() > 3 || b.len() > 3 {
        return None;
    }
    let ta = text_values::<4>(three_byte_word(a)?, a.len());
    let tb = text_values::<4>(three_byte_word(b)?, b.len());
    // Each word's bytes from N on are not values (the xor made zeros '0's there).
    let values = (ta.values & 0xffff_ffff) | (tb.values << 32);
    if is_bad::<8>(values) | ta.no_digit | tb.no_digit {
        return None;
    }
    let both = four_digit_values(values);
    Some([(ta.negative, both & 0xffff), (tb.negative, both >> 32)])
}

/// The bytes of a text of 1 to 3 bytes as one word, byte 0 the first (the others zero),
/// from its first, middle and last byte; None for an empty text.
#[inline(always)]
fn three_byte_word(text: &[u8]) -> Option<u64> {
    let last = text.len().checked_sub(1)?;
    let mid = text.len() / 2;
    Some(
        u64::from(text[0])
            | (u64::from(text[mid]) << (8 * mid))
            | (u64::from(text[last]) << (8 * last)),
    )
}

/// A text's bytes as digit values, see [`text_values`].
struct TextValues {
    negative: bool,
    /// No digit: the text is a sign alone.
    no_digit: bool,
    values: u64,
}

/// A text of `len` (1..=`N`) bytes held in the low bytes of `word` (byte 0 the first, the
/// others zero), as digit values in the low `N` (4 or 8) bytes of a word (the bytes above
/// them are not zero).
///
/// Each byte is made its digit's value (xor '0'), and a sign byte a 0, which as a leading
/// zero does not change the value; shifted up so that the text ends at byte `N - 1`, the
/// bytes below it are zeros, leading zeros again. No branch on the sign or the length.
/// Whether the bytes are digits is [`is_bad`]'s to say.
#[inline(always)]
fn text_values<const N: usize>(word: u64, len: usize) -> TextValues {
    let lanes = u64::MAX >> (64 - 8 * N);
    let first = word as u8;
    let negative = first == b'-';
    let signed = negative | (first == b'+');
    let sign_byte = u64::from(signed).wrapping_neg() & 0xff;
    let values = ((word ^ (0x3030_3030_3030_3030 & lanes)) & !sign_byte) << (8 * (N - len));
    TextValues {
        negative,
        no_digit: len == usize::from(signed),
        values,
    }
}

/// Whether the low `N` (4 or 8) bytes of a word of digit values have a byte that is not
/// one: a byte is a digit's value when it is at most 9, its high nibble 0 and no carry
/// into it when 6 is added (a carry out of a byte of 0xfa or more only marks the byte
/// after it, and the word is refused either way).
#[inline(always)]
fn is_bad<const N: usize>(values: u64) -> bool {
    let lanes = u64::MAX >> (64 - 8 * N);
    (values | values.wrapping_add(0x0606_0606_0606_0606 & lanes)) & (0xf0f0_f0f0_f0f0_f0f0 & lanes)
        != 0
}

/// The low `n` (0..=8) bytes of a word set.
#[inline(always)]
fn leading_mask(n: usize) -> u64 {
    u64::MAX.checked_shr(8 * (8 - n) as u32).unwrap_or(0)
}

/// A plain integer text ("-123", "+7"): its value, saturated to i128's range.
#[inline]
pub(super) fn plain_integer(text: &[u8]) -> Option<i128> {
    let (negative, digits) = integer_digits(text)?;
    let magnitude = if digits.len() <= 19 {
        // Up to 19 digits fit a u64 without overflow checks.
        let mut v: u64 = 0;
        for &c in digits {
            v = v * 10 + u64::from(c - b'0');
        }
        i128::from(v)
    } else {
        let mut v: i128 = 0;
        for &c in digits {
            v = v.saturating_mul(10).saturating_add(i128::from(c - b'0'));
        }
        v
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// A word whose bytes are non-zero exactly where the bytes of `v` are not ASCII digits
/// (counting from byte 0; a carry out of a byte of 0xfa or more only disturbs the bytes
/// after it): the high nibble must be 3, and adding 6 must not carry out of it.
#[inline(always)]
fn non_digits(v: u64) -> u64 {
    let high = (v & 0xf0f0_f0f0_f0f0_f0f0) ^ 0x3030_3030_3030_3030;
    let over =
        (v.wrapping_add(0x0606_0606_0606_0606) & 0xf0f0_f0f0_f0f0_f0f0) ^ 0x3030_3030_3030_3030;
    high | over
}

/// Eight ASCII digits at once: their value, or None if any byte is not a digit.
#[inline(always)]
fn eight_digits(chunk: [u8; 8]) -> Option<u64> {
    let v = u64::from_le_bytes(chunk);
    (non_digits(v) == 0).then(|| eight_digit_value(v))
}

/// The value of eight ASCII digits (byte 0 the most significant), without checking them.
#[inline(always)]
fn eight_digit_value(v: u64) -> u64 {
    digit_values::<8>(v - 0x3030_3030_3030_3030)
}

/// The value of `N` (4 or 8) digits' values in the low bytes of `v` (bytes of 0 to 9,
/// byte 0 the most significant; the others zero): pairwise, 8 digits -> 4 two-digit ->
/// 2 four-digit -> 1 number.
#[inline(always)]
fn digit_values<const N: usize>(v: u64) -> u64 {
    let v = four_digit_values(v);
    if N == 4 {
        return v & 0xffff;
    }
    (v * 10000 + (v >> 32)) & 0xffff_ffff
}

/// The values of the two groups of four digits' values in `v` (bytes 0..4 and 4..8, each
/// group's first byte its most significant), in bits 0..16 and 32..48.
#[inline(always)]
fn four_digit_values(v: u64) -> u64 {
    let v = (v * 10 + (v >> 8)) & 0x00ff_00ff_00ff_00ff;
    (v * 100 + (v >> 16)) & 0x0000_ffff_0000_ffff
}

/// The value of the first `n` (0..=8) digit bytes of `v`: '0's shifted in front of them,
/// then the eight-digit arithmetic.
#[inline(always)]
fn leading_value(v: u64, n: usize) -> u64 {
    let shifted = v.checked_shl(8 * (8 - n) as u32).unwrap_or(0)
        | 0x3030_3030_3030_3030u64
            .checked_shr(8 * n as u32)
            .unwrap_or(0);
    eight_digit_value(shifted)
}

/// Eight bytes of `s` from `at` (`s` at least 8 bytes long), zero bytes past its end.
#[inline(always)]
fn load8(s: &[u8], at: usize) -> u64 {
    if at + 8 <= s.len() {
        u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"))
    } else {
        let tail = u64::from_le_bytes(s[s.len() - 8..].try_into().expect("8 bytes"));
        tail.checked_shr(8 * (at + 8 - s.len()) as u32).unwrap_or(0)
    }
}

/// 10^n for n = 0..=19.
const POW10: [u64; 20] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
    10_000_000_000,
    100_000_000_000,
    1_000_000_000_000,
    10_000_000_000_000,
    100_000_000_000_000,
    1_000_000_000_000_000,
    10_000_000_000_000_000,
    100_000_000_000_000_000,
    1_000_000_000_000_000_000,
    10_000_000_000_000_000_000,
];

/// Decimal digits of a non-zero value below 10^19.
#[inline(always)]
fn count_digits(v: u64) -> u32 {
    let mut n = 1;
    let mut p = 10u64;
    while n < 19 && v >= p {
        n += 1;
        p *= 10;
    }
    n
}

/// Up to eight digits at `s[*i..]` in one step, without a branch per digit: their count
/// from the bytes that are not digits, their value from the eight-digit arithmetic with
/// '0's shifted in front. Returns the count (0..=8), or None when `w` would need more
/// than 19 significant digits.
#[inline(always)]
fn digit_step(s: &[u8], i: &mut usize, w: &mut u64, taken: &mut u32) -> Option<usize> {
    let v = if s.len() >= 8 {
        load8(s, *i)
    } else {
        let mut bytes = [0u8; 8];
        bytes[..s.len() - *i].copy_from_slice(&s[*i..]);
        u64::from_le_bytes(bytes)
    };
    let n = (non_digits(v).trailing_zeros() / 8) as usize;
    let was_zero = *w == 0;
    if !was_zero && *taken + n as u32 > 19 {
        return None;
    }
    *w = *w * POW10[n] + leading_value(v, n);
    if *w != 0 {
        *taken = if was_zero {
            count_digits(*w)
        } else {
            *taken + n as u32
        };
    }
    *i += n;
    Some(n)
}

/// Reads the run of digits at `s[*i..]` into `w` (leading zeros are not significant):
/// whole chunks of eight while they fit, then the rest of the run in one step. Returns
/// how many digits it read, or None when more than 19 significant digits would be
/// needed.
#[inline(always)]
fn digits(s: &[u8], i: &mut usize, w: &mut u64, taken: &mut u32) -> Option<usize> {
    let start = *i;
    while *taken + 8 <= 19 && *i + 8 <= s.len() {
        let chunk: [u8; 8] = s[*i..*i + 8].try_into().expect("8 bytes");
        let Some(v) = eight_digits(chunk) else { break };
        let was_zero = *w == 0;
        *w = *w * 100_000_000 + v;
        if *w != 0 {
            *taken = if was_zero {
                count_digits(*w)
            } else {
                *taken + 8
            };
        }
        *i += 8;
    }
    while digit_step(s, i, w, taken)? == 8 {}
    Some(*i - start)
}

/// Scans `[+-]digits[.digits][(e|E)[+-]digits]` (a digit on at least one side of the
/// point) with at most 19 significant digits. None for anything else.
#[inline(always)]
pub fn scan(s: &[u8]) -> Option<Plain> {
    let first = *s.first()?;
    let negative = first == b'-';
    let mut i = usize::from(negative | (first == b'+'));
    let mut w: u64 = 0;
    let mut taken = 0u32;
    let int_digits = digits(s, &mut i, &mut w, &mut taken)?;
    let mut frac_digits = 0;
    if i < s.len() && s[i] == b'.' {
        i += 1;
        frac_digits = digits(s, &mut i, &mut w, &mut taken)?;
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    let mut q = -(frac_digits as i64);
    if i < s.len() && (s[i] | 0x20) == b'e' {
        i += 1;
        let sign = s.get(i).copied().unwrap_or(0);
        let exp_negative = sign == b'-';
        i += usize::from(exp_negative | (sign == b'+'));
        let start = i;
        let mut e: i64 = 0;
        while i < s.len() && s[i].is_ascii_digit() {
            // Saturate: anything this large is zero or infinity anyway.
            e = (e * 10 + i64::from(s[i] - b'0')).min(1 << 40);
            i += 1;
        }
        if i == start {
            return None;
        }
        q += if exp_negative { -e } else { e };
    }
    if i != s.len() {
        return None;
    }
    Some(Plain { negative, w, q })
}

/// The value of the `len` (0..=8) ASCII digits at `s[at..]`: '0's shifted in front of
/// them, then the eight-digit arithmetic.
#[inline(always)]
fn short_run(s: &[u8], at: usize, len: usize) -> u64 {
    leading_value(if len == 0 { 0 } else { load8(s, at) }, len)
}

/// The value of the `len` (0..=19) ASCII digits at `s[at..]`.
#[inline(always)]
fn run_value(s: &[u8], at: usize, len: usize) -> u64 {
    if len <= 8 {
        short_run(s, at, len)
    } else if len <= 16 {
        short_run(s, at, 8) * POW10[len - 8] + short_run(s, at + 8, len - 8)
    } else {
        short_run(s, at, 8) * POW10[len - 8]
            + short_run(s, at + 8, 8) * POW10[len - 16]
            + short_run(s, at + 16, len - 16)
    }
}

/// Bits `from..to` set.
#[inline(always)]
fn bit_range(from: usize, to: usize) -> u32 {
    let upto = |n: usize| if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    upto(to) & !upto(from)
}

/// [`scan`] for texts of 16 to 32 bytes, with the structure found by SIMD compares
/// (`simd::scan`) instead of byte loops: where the digits, the point and the exponent
/// are, then each run's value from its known length. Other lengths, texts it does not
/// recognise, and CPUs without the SIMD kernel go to [`scan`].
#[inline(always)]
pub fn scan_wide(s: &[u8]) -> Option<Plain> {
    let Some(ByteClasses { digit, dot, exp }) = byte_classes(s) else {
        return scan(s);
    };
    let len = s.len();
    let first = s[0];
    let negative = first == b'-';
    let start = usize::from(negative | (first == b'+'));
    let exp = exp & bit_range(start, len);
    let e_at = if exp != 0 {
        exp.trailing_zeros() as usize
    } else {
        len
    };
    // The mantissa: digits and at most one point.
    let mantissa = bit_range(start, e_at);
    let dots = dot & mantissa;
    if (digit | dots) & mantissa != mantissa || dots & dots.wrapping_sub(1) != 0 {
        return scan(s);
    }
    let dot_at = if dots != 0 {
        dots.trailing_zeros() as usize
    } else {
        e_at
    };
    let int_len = dot_at - start;
    let frac_at = dot_at + usize::from(dots != 0);
    let frac_len = e_at - frac_at;
    if int_len + frac_len == 0 || int_len + frac_len > 19 {
        return scan(s);
    }
    let mut q = -(frac_len as i64);
    if e_at < len {
        let sign = s.get(e_at + 1).copied().unwrap_or(0);
        let exp_negative = sign == b'-';
        let at = e_at + 1 + usize::from(exp_negative | (sign == b'+'));
        let digits_len = len.saturating_sub(at);
        if !(1..=4).contains(&digits_len) || digit & bit_range(at, len) != bit_range(at, len) {
            return scan(s);
        }
        let e = short_run(s, at, digits_len) as i64;
        q += if exp_negative { -e } else { e };
    }
    let w = run_value(s, start, int_len) * POW10[frac_len] + run_value(s, frac_at, frac_len);
    Some(Plain { negative, w, q })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_integers_agree_with_the_plain_reader() {
        let mut rng = crate::testutil::Rng(0x1f7e_6e25);
        let alphabet = b"0123456789+-. e/:";
        for _ in 0..crate::testutil::samples(400_000) {
            let len = rng.next() % 24;
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    let r = rng.next() % 40;
                    if r < 34 {
                        b'0' + (r % 10) as u8
                    } else {
                        alphabet[(r - 24) as usize]
                    }
                })
                .collect();
            let want = plain_integer(&text).filter(|_| {
                let digits = text.iter().filter(|c| c.is_ascii_digit()).count();
                digits <= 19
            });
            let got = short_integer(&text).map(|(negative, m)| {
                if negative {
                    -i128::from(m)
                } else {
                    i128::from(m)
                }
            });
            assert_eq!(got, want, "{:?}", text.escape_ascii().to_string());
        }
        for text in [
            &b"9999999999999999999"[..],
            b"-9223372036854775808",
            b"+0",
            b"-",
            b"+",
            b"",
        ] {
            let want = plain_integer(text);
            let got =
                short_integer(text).map(|(n, m)| if n { -i128::from(m) } else { i128::from(m) });
            assert_eq!(got, want, "{:?}", text.escape_ascii().to_string());
        }
    }

    /// Every text of up to 4 bytes over the bytes number texts are made of, and random
    /// ones of 5 to 9: the word reader says what the byte-by-byte one says.
    #[test]
    fn tiny_integers_agree_with_the_plain_reader() {
        let alphabet = b"0123456789+- .ex";
        let signed = |t: Option<(bool, u64)>| {
            t.map(|(negative, m)| {
                if negative {
                    -i128::from(m)
                } else {
                    i128::from(m)
                }
            })
        };
        let check = |text: &[u8]| {
            let want = plain_integer(text).filter(|_| text.len() <= 8);
            assert_eq!(
                signed(tiny_integer(text)),
                want,
                "{:?}",
                text.escape_ascii().to_string()
            );
        };
        for text in crate::testutil::texts_over(alphabet, 4) {
            check(&text);
        }
        let mut rng = crate::testutil::Rng(0x7141_1e55);
        for _ in 0..crate::testutil::samples(200_000) {
            let len = 5 + rng.below(5) as usize;
            let text = crate::testutil::mostly_digits(&mut rng, alphabet, len);
            check(&text);
        }
    }

    /// Pairs of texts of up to 3 bytes over the bytes number texts are made of (every
    /// first text with a sample of second ones, and the other way round): read together,
    /// each is what it is read alone.
    #[test]
    fn tiny_integer_pairs_read_as_each_text_alone() {
        let alphabet = b"0123456789+- .ex";
        let texts = crate::testutil::texts_over(alphabet, 3);
        let mut rng = crate::testutil::Rng(0x9a1_2ed);
        for a in &texts {
            for _ in 0..crate::testutil::samples(64) {
                let b = &texts[rng.below(texts.len() as u64) as usize];
                for (a, b) in [(a, b), (b, a)] {
                    let want = tiny_integer(a).zip(tiny_integer(b)).map(|(a, b)| [a, b]);
                    assert_eq!(tiny_integer_pair(a, b), want, "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn eight_digits_reads_exactly_digits() {
        assert_eq!(eight_digits(*b"12345678"), Some(12_345_678));
        assert_eq!(eight_digits(*b"00000000"), Some(0));
        assert_eq!(eight_digits(*b"99999999"), Some(99_999_999));
        assert_eq!(eight_digits(*b"1234567e"), None);
        assert_eq!(eight_digits(*b"/2345678"), None);
        assert_eq!(eight_digits(*b"1234:678"), None);
    }
}
