// SPDX-License-Identifier: MIT OR Apache-2.0
//! Shortest round-trip digits of FLOAT and DOUBLE values, laid out as numpy's `str()` of
//! a scalar (docs/semantics-cast.md section 8).
//!
//! The digits come from a Schubfach-family search (R. Giulietti, "The Schubfach way to
//! render doubles", 2020). For a value c * 2^q the decimal scale 10^k is chosen so that
//! the interval of reals that read back as the value is less than ten units of 10^k
//! wide. The value and the interval's two ends are computed at that scale times four
//! (two bits below the unit), each by one multiplication with 10^-k rounded up, the
//! product rounded to odd (its lowest bit set when anything below it is not zero). A
//! multiple of ten inside the interval is then the shortest answer (there is at most
//! one); otherwise the unit just below or just above the value, whichever is inside, the
//! closer one when both are (the even one on a tie). These are the digits ryu and
//! numpy's shortest mode give: the tests compare every FLOAT and a large sample of
//! DOUBLEs with ryu.
//!
//! The digits are scaled to a fixed count of places (nine for FLOAT, seventeen for
//! DOUBLE) without a branch, then become text eight at a time (a word of eight decimal
//! digits, found by three multiplications; DOUBLE's sixteen in the lanes of an SSE2
//! register on x86-64), their trailing zeros counted on that word. The text is laid out
//! in registers and stored with a few overlapping stores, none after its end (the room
//! is the caller's arena); nothing is read back from memory. Zero, NaN, the
//! infinities and numpy's positional range are told apart on the bits, and the layouts
//! choose by masks where a branch would be mispredicted on random values.

use super::decimal::{POW5_128, TABLE_MIN_Q};
use super::scratch::{digit_word, push_prefix, Scratch, ASCII_ZEROS};

/// floor(log10(2^e)), exact for |e| <= 2620.
#[inline(always)]
const fn floor_log10_pow2(e: i32) -> i32 {
    (e * 315_653) >> 20
}

/// floor(log10(3/4 * 2^e)), exact for -2985 <= e <= 2936.
#[inline(always)]
fn floor_log10_three_quarters_pow2(e: i32) -> i32 {
    (e * 631_305 - 261_663) >> 21
}

/// floor(log2(10^e)), exact for |e| <= 1233.
#[inline(always)]
const fn floor_log2_pow10(e: i32) -> i32 {
    (e * 1_741_647) >> 19
}

/// The 128 leading bits of 10^e rounded up, as (high, low) halves of a value in
/// [2^127, 2^128), for -342 <= e <= 324. 10^e = 5^e * 2^e has the leading bits of 5^e,
/// which the table holds exactly for 0 <= e <= 55, rounded up for -27 <= e < 0, and
/// cut short (one is added here) otherwise.
#[inline(always)]
const fn pow10_up(e: i32) -> (u64, u64) {
    let (hi, lo) = POW5_128[(e as i64 - TABLE_MIN_Q) as usize];
    let cut = e < -27 || e > 55;
    let (lo, carry) = lo.overflowing_add(cut as u64);
    (hi + carry as u64, lo)
}

/// What [`digits_f64`] needs of each exponent field of a normal DOUBLE (1..=2046), so
/// that it takes one load: 10^-(k+1) rounded up ([`pow10_up`]), k = floor(log10(2^q))
/// and the shift (1..=4) that puts the product's bit 128 at the value's 2^4. 2048
/// entries: an index masked to eleven bits needs no bounds check.
static DOUBLE_SCALES: [(u64, u64, i32, u32); 2048] = double_scales();

const fn double_scales() -> [(u64, u64, i32, u32); 2048] {
    let mut table = [(0, 0, 0, 0); 2048];
    let mut field = 1;
    while field <= 2046 {
        let q = field - 1075;
        let k = floor_log10_pow2(q);
        let (hi, lo) = pow10_up(-k - 1);
        let shift = (q + floor_log2_pow10(-k - 1) + 5) as u32;
        table[field as usize] = (hi, lo, k, shift);
        field += 1;
    }
    table
}

/// The 64 leading bits of 10^e rounded up (in [2^63, 2^64]), for FLOAT's range of e:
/// exact for 0 <= e <= 27, where 5^e fits 64 bits.
#[inline(always)]
fn pow10_up_64(e: i32) -> u64 {
    let (hi, _) = POW5_128[(i64::from(e) - TABLE_MIN_Q) as usize];
    hi + u64::from(!(0..=27).contains(&e))
}

/// g * cp / 2^128 rounded to odd, for g = (high, low): the integer part, its lowest bit
/// set when the fraction (its upper 64 bits) is not zero.
#[inline(always)]
fn round_odd_128((hi, lo): (u64, u64), cp: u64) -> u64 {
    let upper = u128::from(hi) * u128::from(cp);
    let lower = (u128::from(lo) * u128::from(cp)) >> 64;
    // No overflow: upper + lower < (2^64 - 1) * cp + cp <= 2^128.
    let sum = upper + lower;
    ((sum >> 64) as u64) | u64::from(sum as u64 != 0)
}

/// g * cp / 2^64 rounded to odd, the fraction's upper 32 bits looked at (the lower ones
/// hold no more than the error of g, times cp < 2^31).
#[inline(always)]
fn round_odd_64(g: u64, cp: u64) -> u64 {
    let p = u128::from(g) * u128::from(cp);
    ((p >> 64) as u64) | u64::from((p as u64) >> 32 != 0)
}

/// The pick among the candidates: `vb` is the value and `vbl`, `vbr` the interval's ends
/// at four times the scale; `open` is 1 when the ends are outside the interval (an odd
/// significand: a tie reads back to the even neighbour). Returns the digits (possibly
/// with trailing zeros) at the scale.
#[inline(always)]
fn pick(vb: u64, vbl: u64, vbr: u64, open: u64) -> u64 {
    // Which candidate wins depends on the digits, so it is selected by masks rather than
    // branches (a branch here would be mispredicted about every other value).
    let select =
        |take_a: bool, a: u64, b: u64| b ^ ((a ^ b) & 0u64.wrapping_sub(u64::from(take_a)));
    let s = vb >> 2;
    // A multiple of ten inside: one digit shorter than any other candidate.
    let sp10 = s / 10 * 10;
    let tp10 = sp10 + 10;
    let lower_in = vbl + open <= sp10 << 2;
    let upper_in = (tp10 << 2) + open <= vbr;
    let shorter = (lower_in != upper_in) & (s >= 10);
    // Else the unit below or above, the one inside; if both are, the closer to the
    // value, the even one on a tie.
    let t = s + 1;
    let s_in = vbl + open <= s << 2;
    let t_in = (t << 2) + open <= vbr;
    let middle = (s << 2) + 2;
    let s_closer = (vb < middle) | ((vb == middle) & (s & 1 == 0));
    let take_s = s_in & (!t_in | s_closer);
    select(shorter, select(lower_in, sp10, tp10), select(take_s, s, t))
}

/// The shortest digits of a positive, finite, non-zero DOUBLE (its bits) as seventeen
/// places: `(head, tail, exp)`, `head` the first sixteen (10^15 <= head < 10^16) and
/// `tail` the seventeenth (0..=9), the value d.ddd * 10^exp; trailing places may be zero.
///
/// A normal value whose significand is not a power of two takes one product, as in
/// [`digits_f32`]: the value at the scale 10^(k+1) with 64 fraction bits, from 10^-(k+1)
/// rounded up to 128 bits. Its integral part has fifteen or sixteen digits and is the
/// head (with the last digit appended when fifteen); the last digit comes from the
/// fraction, with no division. The others go by the interval's ends
/// ([`digits_f64_interval`]).
#[inline(always)]
pub(super) fn digits_f64(bits: u64) -> (u64, u64, i32) {
    let field = (bits >> 52) as i32 & 0x7ff;
    let fraction = bits & ((1u64 << 52) - 1);
    if field == 0 || fraction == 0 {
        return places_f64_interval(bits);
    }
    let c = fraction | (1u64 << 52);
    // 10^-(k+1) rounded up, (high, low) * 2^(log2 - 127); `shift` (1..=4) puts the
    // product's bit 128 at the value's 2^4.
    let (hi, lo, k, shift) = DOUBLE_SCALES[field as usize & 2047];
    let m = c << shift;
    // The product's upper 128 bits (the bits below them dropped: floor).
    let p = u128::from(hi) * u128::from(m) + ((u128::from(lo) * u128::from(m)) >> 64);
    let (integral, frac) = ((p >> 68) as u64, (p >> 4) as u64);
    // Half the gap between neighbours (2^(q-1)) at the same scale; an even significand's
    // interval includes its ends.
    let half = (hi >> (5 - shift)) + (1 - (c & 1));
    let up = frac.checked_add(half).is_none();
    let down = half > frac;
    let digit = if frac == 1 << 62 {
        2
    } else {
        ((u128::from(frac) * 10 + (1 << 63)) >> 64) as u64
    };
    let last = if up | down { 0 } else { digit };
    let whole = integral + u64::from(up);
    // Fifteen digits (whole >= 10^14 here): the last digit joins the head.
    let short = whole < 1_000_000_000_000_000;
    let head = if short { whole * 10 + last } else { whole };
    let tail = if short { 0 } else { last };
    (head, tail, k + 16 - i32::from(short))
}

/// [`digits_f64`] by the interval's ends, kept out of the common path.
#[cold]
#[inline(never)]
fn places_f64_interval(bits: u64) -> (u64, u64, i32) {
    let (d, k) = digits_f64_interval(bits);
    // d has 1..=17 digits: scaled to seventeen.
    let count = d.ilog10() as i32 + 1;
    let d = d * 10u64.pow((17 - count) as u32);
    (d / 10, d % 10, k + count - 1)
}

/// [`digits_f64`] by the interval's ends, for every DOUBLE: the value and the two ends at
/// four times the scale 10^k, each by its own product.
#[inline(always)]
fn digits_f64_interval(bits: u64) -> (u64, i32) {
    let field = (bits >> 52) as i32 & 0x7ff;
    let fraction = bits & ((1u64 << 52) - 1);
    let (c, q) = if field == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), field - 1075)
    };
    // Only at a power of two above the smallest normal is the gap below the value half
    // the gap above it.
    let regular = fraction != 0 || field <= 1;
    let k = if regular {
        floor_log10_pow2(q)
    } else {
        floor_log10_three_quarters_pow2(q)
    };
    let g = pow10_up(-k);
    // 1..=4: the shift that puts c * 2^q * 10^-k (times four) at the product's bit 128.
    let h = q + floor_log2_pow10(-k) + 1;
    let cb = c << 2;
    let vb = round_odd_128(g, cb << h);
    let vbl = round_odd_128(g, (cb - 2 + u64::from(!regular)) << h);
    let vbr = round_odd_128(g, (cb + 2) << h);
    (pick(vb, vbl, vbr, c & 1), k)
}

/// Fraction bits of the fixed-point products in [`digits_f32`].
const F32_FRACTION: u32 = 34;

/// The shortest digits of a positive, finite, non-zero FLOAT (its bits): `(d, k)` for
/// the value d * 10^k, d of nine digits (10^8 <= d < 10^9), possibly with trailing
/// zeros.
///
/// A normal value whose significand is not a power of two takes one product: the value
/// at the scale 10^(k+1) (k as in [`digits_f32_interval`]), as a fixed-point number with
/// 34 fraction bits. At that scale the interval of reals that read back as the value is
/// less than one unit wide, so it holds at most one integer: the value's floor when the
/// fraction is within half the interval, its ceiling when one minus the fraction is,
/// and that integer (one digit shorter than any other answer) is the result. Otherwise
/// the interval is at least one unit of 10^k wide and the value rounded to a unit of 10^k
/// is inside it and closest: its last digit is the fraction times ten, rounded (a tie,
/// only at 2.5 or 7.5, to even). Every FLOAT is checked against ryu
/// (scripts/test-shortest-exhaustive.sh).
#[inline(always)]
pub(super) fn digits_f32(bits: u32) -> (u64, i32) {
    let field = (bits >> 23) as i32 & 0xff;
    let fraction = u64::from(bits & ((1u32 << 23) - 1));
    if field == 0 || fraction == 0 {
        return places_f32_interval(bits);
    }
    let (c, q) = (fraction | (1u64 << 23), field - 150);
    let k = floor_log10_pow2(q);
    // 10^-(k+1) rounded up, g * 2^(log2 - 63); `shift` (31..=34) puts the product's bit
    // 64 at the value's 2^-34.
    let g = pow10_up_64(-k - 1);
    let shift = (q + floor_log2_pow10(-k - 1) + 35) as u32;
    let p = ((u128::from(g) * u128::from(c << shift)) >> 64) as u64;
    let one = 1u64 << F32_FRACTION;
    let (integral, frac) = (p >> F32_FRACTION, p & (one - 1));
    // Half the gap between neighbours (2^(q-1)) at the same scale; an even significand's
    // interval includes its ends.
    let half = (g >> (65 - shift)) + (1 - (c & 1));
    let up = (frac + half) >> F32_FRACTION != 0;
    let down = half > frac;
    let digit = if frac == one >> 2 {
        2
    } else {
        (frac * 10 + (one >> 1)) >> F32_FRACTION
    };
    let last = if up | down { 0 } else { digit };
    let d = (integral + u64::from(up)) * 10 + last;
    // Seven to nine digits here (the value is 2^23..2^28 units): scaled to nine.
    let (scale, less) = if d < 10_000_000 {
        (100, 2)
    } else if d < 100_000_000 {
        (10, 1)
    } else {
        (1, 0)
    };
    (d * scale, k - less)
}

/// [`digits_f32`] by the interval's ends, kept out of the common path.
#[cold]
#[inline(never)]
fn places_f32_interval(bits: u32) -> (u64, i32) {
    let (d, k) = digits_f32_interval(bits);
    // d has 1..=9 digits: scaled to nine.
    let count = d.ilog10();
    (d * 10u64.pow(8 - count), k + count as i32 - 8)
}

/// [`digits_f32`] by the interval's ends, for every FLOAT: the value and the two ends at
/// four times the scale 10^k, each by its own product.
#[inline(always)]
fn digits_f32_interval(bits: u32) -> (u64, i32) {
    let field = (bits >> 23) as i32 & 0xff;
    let fraction = u64::from(bits & ((1u32 << 23) - 1));
    let (c, q) = if field == 0 {
        (fraction, -149)
    } else {
        (fraction | (1u64 << 23), field - 150)
    };
    let regular = fraction != 0 || field <= 1;
    let k = if regular {
        floor_log10_pow2(q)
    } else {
        floor_log10_three_quarters_pow2(q)
    };
    let g = pow10_up_64(-k);
    let h = q + floor_log2_pow10(-k) + 1;
    let cb = c << 2;
    let vb = round_odd_64(g, cb << h);
    let vbl = round_odd_64(g, (cb - 2 + u64::from(!regular)) << h);
    let vbr = round_odd_64(g, (cb + 2) << h);
    (pick(vb, vbl, vbr, c & 1), k)
}

/// The sixteen decimal digits of v < 10^16 as text (byte 0 of the u128 the most
/// significant digit), and the count of places up to the last non-zero digit (0 for
/// v = 0): two [`digit_word`]s.
#[cfg(any(not(target_arch = "x86_64"), test))]
#[inline(always)]
fn sixteen_digits_portable(v: u64) -> (u128, usize) {
    let top = v / 100_000_000;
    let digits =
        u128::from(digit_word(top)) | (u128::from(digit_word(v - top * 100_000_000)) << 64);
    (
        digits | ASCII_ZEROS_128,
        16 - digits.leading_zeros() as usize / 8,
    )
}

#[cfg(not(target_arch = "x86_64"))]
use sixteen_digits_portable as sixteen_digits;

/// [`sixteen_digits_portable`] in the lanes of an SSE2 register (part of every x86-64
/// CPU): the two halves of eight digits split into four digits, the fours into pairs,
/// the pairs into digits, each step one multiplication for all lanes (the divisions
/// by 10^4, 100 and 10 are multiplications exact over these ranges, as in
/// [`digit_word`]); the zero digits found by one comparison.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sixteen_digits(v: u64) -> (u128, usize) {
    use core::arch::x86_64::*;
    let top = v / 100_000_000;
    let bottom = v - top * 100_000_000;
    // SAFETY: SSE2 is in every x86-64 CPU's baseline, and these intrinsics only
    // compute on registers (no memory is touched).
    #[allow(unused_unsafe)]
    let (lo, hi, zero) = unsafe {
        // Two 64-bit lanes, the first eight digits in the low one.
        let x = _mm_set_epi64x(bottom as i64, top as i64);
        let fours = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi64x(109_951_163)), 40);
        // x + q * (2^32 - 10^4): the remainder in the low half of each lane, the quotient
        // above it; swapped so that the quotient (the first four digits) comes first.
        let y = _mm_add_epi64(x, _mm_mul_epu32(fours, _mm_set1_epi64x((1 << 32) - 10_000)));
        let y = _mm_shuffle_epi32::<0b1011_0001>(y);
        // Each 32-bit lane (< 10^4) into x / 100 (low 16 bits) and x % 100 (high 16).
        let pairs = _mm_srli_epi16::<3>(_mm_mulhi_epu16(y, _mm_set1_epi16(5243)));
        let rest = _mm_sub_epi16(y, _mm_mullo_epi16(pairs, _mm_set1_epi16(100)));
        let z = _mm_or_si128(pairs, _mm_slli_epi32::<16>(rest));
        // Each 16-bit lane (< 100) into its tens (low byte) and units (high byte).
        let tens = _mm_mulhi_epu16(z, _mm_set1_epi16(6554));
        let units = _mm_sub_epi16(z, _mm_mullo_epi16(tens, _mm_set1_epi16(10)));
        let d = _mm_or_si128(tens, _mm_slli_epi16::<8>(units));
        let zero = _mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128())) as u32;
        let text = _mm_or_si128(d, _mm_set1_epi8(b'0' as i8));
        (
            _mm_cvtsi128_si64(text) as u64,
            _mm_cvtsi128_si64(_mm_unpackhi_epi64(text, text)) as u64,
            zero,
        )
    };
    // Bit i of `zero` is set when digit i is 0.
    let significant = 32 - (!zero & 0xffff).leading_zeros() as usize;
    (u128::from(lo) | (u128::from(hi) << 64), significant)
}

/// The smallest exponent in [`EXPONENTS`] (DOUBLE's smallest value is 4.9e-324).
const EXPONENT_MIN: i32 = -324;

/// numpy's exponent texts "e-324" ..= "e+308" (a sign and at least two digits): the
/// bytes (byte 0 the 'e') and, in the top byte, their count. 1024 entries, so that an
/// index masked to ten bits needs no bounds check (the 633 used ones come first).
static EXPONENTS: [u64; 1024] = exponent_texts();

const fn exponent_texts() -> [u64; 1024] {
    let mut table = [0u64; 1024];
    let mut i = 0;
    while i < 633 {
        let exp = i as i32 + EXPONENT_MIN;
        let e = exp.unsigned_abs() as u64;
        let sign = if exp < 0 { b'-' } else { b'+' } as u64;
        let mut text = b'e' as u64 | (sign << 8);
        let mut len = 2;
        if e >= 100 {
            text |= (b'0' as u64 + e / 100) << 16;
            len = 3;
        }
        text |= (b'0' as u64 + e / 10 % 10) << (8 * len);
        text |= (b'0' as u64 + e % 10) << (8 * len + 8);
        table[i] = text | ((len as u64 + 2) << 56);
        i += 1;
    }
    table
}

/// Stores the first `len` (2..=24) bytes of a text held in registers: bytes 0..16 in
/// `lo`, 16..24 in `hi` (byte 0 lowest), with at most two stores that may overlap, and
/// nothing after them (the room may be the caller's arena). Nothing is read back, so
/// no store has to be forwarded to a load.
#[inline(always)]
fn store_text(out: &mut Scratch, lo: u128, hi: u64, len: usize) {
    let to = &mut out.buf[out.len..out.len + len];
    if len >= 16 {
        // Bytes 8..24, then the eight that end the text.
        let upper = (u128::from(hi) << 64) | (lo >> 64);
        to[..16].copy_from_slice(&lo.to_le_bytes());
        to[len - 8..].copy_from_slice(&((upper >> (8 * (len - 16))) as u64).to_le_bytes());
    } else if len >= 8 {
        to[..8].copy_from_slice(&(lo as u64).to_le_bytes());
        to[len - 8..].copy_from_slice(&((lo >> (8 * (len - 8))) as u64).to_le_bytes());
    } else if len >= 4 {
        to[..4].copy_from_slice(&(lo as u32).to_le_bytes());
        to[len - 4..].copy_from_slice(&((lo >> (8 * (len - 4))) as u32).to_le_bytes());
    } else {
        to[..2].copy_from_slice(&(lo as u16).to_le_bytes());
        to[len - 2..].copy_from_slice(&((lo >> (8 * (len - 2))) as u16).to_le_bytes());
    }
    out.len += len;
}

/// For a point after `w` places (1..=16): the mask of the bytes before it, and the
/// point's byte in place (none at 16, past the register). From a table: a 128-bit
/// shift by a variable count is several instructions.
#[inline(always)]
fn point_after(w: usize) -> (u128, u128) {
    POINTS[w & 31]
}

static POINTS: [(u128, u128); 32] = point_masks();

const fn point_masks() -> [(u128, u128); 32] {
    let mut table = [(0u128, 0u128); 32];
    let mut w = 1;
    while w <= 16 {
        let below = if w == 16 {
            u128::MAX
        } else {
            (1u128 << (8 * w)) - 1
        };
        let point = if w == 16 {
            0
        } else {
            (b'.' as u128) << (8 * w)
        };
        table[w] = (below, point);
        w += 1;
    }
    table
}

/// '0' in every byte of a u128.
#[cfg(any(not(target_arch = "x86_64"), test))]
const ASCII_ZEROS_128: u128 = u128::from_le_bytes([b'0'; 16]);

/// numpy's layout of a positive, finite, non-zero DOUBLE (its bits), positional or
/// scientific as told: the seventeen places (sixteen digits in a register, byte 0 the
/// first, and the seventeenth) laid out in registers and stored once.
#[inline(always)]
fn double_text(bits: u64, positional: bool, out: &mut Scratch) {
    let (head, tail, exp) = digits_f64(bits);
    let (text, significant) = sixteen_digits(head);
    let last = u64::from(b'0') + tail;
    // Significant places: the seventeenth, or the head's without its trailing zeros.
    // (A branch here would be mispredicted about every other value: selected by a mask.)
    let zeros = (17 - significant) & usize::from(tail == 0).wrapping_neg();
    let n = 17 - zeros;
    if !positional {
        // d, then ".ddd" when there is more than one digit, then "e+05" / "e-300".
        let lo = (text & 0xff) | (u128::from(b'.') << 8) | ((text >> 8) << 16);
        let hi = (text >> 120) as u64 | (last << 8);
        let mantissa = if n > 1 { n + 1 } else { 1 };
        let exponent = EXPONENTS[(exp - EXPONENT_MIN) as usize & 1023];
        let wide = (exponent >> 56) as usize;
        let len = mantissa + wide;
        let at = out.len;
        // The mantissa's places run on past it; the exponent's stores overwrite them.
        store_text(out, lo, hi, len);
        let to = &mut out.buf[at..at + len];
        to[mantissa..mantissa + 2].copy_from_slice(&(exponent as u16).to_le_bytes());
        to[len - 4..].copy_from_slice(&((exponent >> (8 * (wide - 4))) as u32).to_le_bytes());
    } else {
        // The places after -exp - 1 '0's when the exponent is negative ("0.00012"), with
        // the point after the whole part's digits ("123.45", "100.0") or after the first
        // '0'; then the fraction's digits or a single '0'. One layout for both sides (a
        // branch on the exponent's sign would be mispredicted often).
        let zeros = (-exp).max(0) as u32 & 7;
        let whole = exp.max(0) as usize + 1;
        let lo = (text << (8 * zeros)) | u128::from(ASCII_ZEROS & ((1u64 << (8 * zeros)) - 1));
        let hi = ((text >> 64) as u64 >> (56 - 8 * zeros) >> 8) | (last << (8 * zeros));
        let (below, point) = point_after(whole);
        let with_point = (lo & below) | point | ((lo & !below) << 8);
        let sixteenth = if whole == 16 {
            u64::from(b'.')
        } else {
            (lo >> 120) as u64
        };
        let len = whole + 1 + (zeros as usize + n).saturating_sub(whole).max(1);
        store_text(out, with_point, sixteenth | (hi << 8), len);
    }
}

/// The bits of the smallest FLOAT whose value is at least `v`.
const fn float_at_least(v: f64) -> u32 {
    let bits = (v as f32).to_bits();
    if (f32::from_bits(bits) as f64) < v {
        bits + 1
    } else {
        bits
    }
}

/// FLOAT's positional range by magnitude bits: `1e-4 <= |x| < 1e6` on the exact value
/// (FLOAT's threshold U is 1e6; no FLOAT lies between 1e-4 and its nearest f64).
const FLOAT_POSITIONAL: (u32, u32) = (float_at_least(1e-4), float_at_least(1e6));

/// DOUBLE's positional range by magnitude bits: `1e-4 <= |x| < 1e16`.
const DOUBLE_POSITIONAL: (u64, u64) = (0.0001f64.to_bits(), 1e16f64.to_bits());

/// A whole FLOAT element (its bits) in the shortest format: NaN, "INF", "-INF", or the
/// sign then numpy's layout of the shortest digits ("0.0" for zero), decided on the
/// bits.
#[inline(always)]
pub(super) fn float_element(bits: u32, out: &mut Scratch) {
    let (low, high) = FLOAT_POSITIONAL;
    let positional = (u64::from(low), u64::from(high));
    element(
        u64::from(bits),
        32,
        u64::from(f32::INFINITY.to_bits()),
        positional,
        out,
        |magnitude, positional, out| float_text(magnitude as u32, positional, out),
    );
}

/// [`float_element`] for a DOUBLE.
#[inline(always)]
pub(super) fn double_element(bits: u64, out: &mut Scratch) {
    element(
        bits,
        64,
        f64::INFINITY.to_bits(),
        DOUBLE_POSITIONAL,
        out,
        double_text,
    );
}

/// [`float_element`] for the `width`-bit binary float whose bits are `bits` (`infinity`
/// its infinity's bits): the specials out of line, then the sign and `text(magnitude, positional, out)`, where
/// `positional` says whether the magnitude lies in `[low, high)`.
#[inline(always)]
fn element(
    bits: u64,
    width: u32,
    infinity: u64,
    (low, high): (u64, u64),
    out: &mut Scratch,
    text: impl FnOnce(u64, bool, &mut Scratch),
) {
    let negative = bits >> (width - 1);
    let magnitude = bits & ((1 << (width - 1)) - 1);
    // Zero, infinities and NaN in one comparison.
    if magnitude.wrapping_sub(1) >= infinity - 1 {
        return special(magnitude == 0, magnitude > infinity, negative != 0, out);
    }
    // The sign without a branch: '-' is always written and kept only for a negative
    // value; otherwise the text overwrites it.
    out.buf[out.len] = b'-';
    out.len += negative as usize;
    text(magnitude, magnitude.wrapping_sub(low) < high - low, out);
}

/// Zero ("0.0", "-0.0"), NaN ("NaN", whatever its sign) and the infinities.
#[cold]
#[inline(never)]
fn special(zero: bool, nan: bool, negative: bool, out: &mut Scratch) {
    let text: &[u8] = match (zero, nan, negative) {
        (true, _, false) => b"0.0",
        (true, _, true) => b"-0.0",
        (false, true, _) => b"NaN",
        (false, false, false) => b"INF",
        (false, false, true) => b"-INF",
    };
    push_prefix(out, text, text.len());
}

/// Stores the first `len` (2..=16) bytes of a text held in two words (bytes 0..8 in
/// `lo`, byte 0 lowest), as [`store_text`] does.
#[inline(always)]
fn store_short(out: &mut Scratch, lo: u64, hi: u64, len: usize) {
    store_text(out, u128::from(lo) | (u128::from(hi) << 64), 0, len);
}

/// numpy's layout of a positive, finite, non-zero FLOAT (its bits), positional or
/// scientific as told. FLOAT's text is at most 14 bytes ("1.2345678e-38",
/// "0.00012345678"): it is laid out in two words and stored with overlapping stores.
#[inline(always)]
fn float_text(bits: u32, positional: bool, out: &mut Scratch) {
    let (d, k) = digits_f32(bits);
    // Nine digit places: `top` (not zero), then the eight of `low` (byte 0 the first).
    let top = d / 100_000_000;
    let low = digit_word(d - top * 100_000_000);
    let n = 9 - low.leading_zeros() as usize / 8;
    let exp = k + 8;
    let first = u64::from(b'0') + top;
    let rest = low | ASCII_ZEROS;
    // The nine places: bytes 0..8, then the ninth.
    let places = first | (rest << 8);
    let ninth = rest >> 56;
    if !positional {
        // d, then ".ddd" when there is more than one digit, then "e+05" / "e-38": the
        // mantissa's places run on past it and the exponent's store overwrites them.
        let mantissa = if n > 1 { n + 1 } else { 1 };
        let len = mantissa + 4;
        let lo = first | (u64::from(b'.') << 8) | (rest << 16);
        let exponent = EXPONENTS[(exp - EXPONENT_MIN) as usize & 1023] as u32;
        let to = &mut out.buf[out.len..out.len + len];
        if len >= 8 {
            let text = u128::from(lo) | (u128::from(rest >> 48) << 64);
            to[..8].copy_from_slice(&lo.to_le_bytes());
            to[len - 8..].copy_from_slice(&((text >> (8 * (len - 8))) as u64).to_le_bytes());
        } else {
            to[..4].copy_from_slice(&(lo as u32).to_le_bytes());
        }
        to[len - 4..].copy_from_slice(&exponent.to_le_bytes());
        out.len += len;
    } else if exp >= 0 {
        // The whole part (at most six places), the point, then the fraction's digits or
        // a single '0'.
        let whole = exp as usize + 1;
        let mask = (1u64 << (8 * whole)) - 1;
        let lo = (places & mask) | (u64::from(b'.') << (8 * whole)) | ((places & !mask) << 8);
        let len = whole + 1 + n.saturating_sub(whole).max(1);
        store_short(out, lo, rest >> 48, len);
    } else {
        // "0." and -exp - 1 zeros (at most three) before the places.
        let at = (1 - exp) as u32;
        let head = u64::from_le_bytes(*b"0.000000") & ((1u64 << (8 * at)) - 1);
        let lo = head | (places << (8 * at));
        let hi = (places >> (64 - 8 * at)) | (ninth << (8 * at));
        store_short(out, lo, hi, at as usize + n);
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::StringFormat;
    use super::super::format::format_element;
    use super::super::scratch::{push_u64, Scratch, SCRATCH_BYTES};
    use super::*;
    use crate::dtype::Scalar;
    use crate::testutil::{samples, Rng};

    /// A text being built in a fixed buffer (no allocation in the exhaustive loops).
    struct Text {
        bytes: [u8; 48],
        len: usize,
    }

    impl Text {
        fn new() -> Text {
            Text {
                bytes: [0; 48],
                len: 0,
            }
        }
        fn push(&mut self, b: &[u8]) {
            self.bytes[self.len..self.len + b.len()].copy_from_slice(b);
            self.len += b.len();
        }
        fn zeros(&mut self, n: usize) {
            for _ in 0..n {
                self.push(b"0");
            }
        }
        fn get(&self) -> &[u8] {
            &self.bytes[..self.len]
        }
    }

    /// ryu's shortest digits of a positive, finite, non-zero value from its text
    /// ("1.5e-7", "0.001", "12345.0"): the significant digits (no leading or trailing
    /// zero) and the exponent of the first.
    fn ryu_digits(text: &[u8]) -> (Text, i32) {
        let e_at = text.iter().position(|&c| c == b'e').unwrap_or(text.len());
        let mut exp: i32 = 0;
        if e_at < text.len() {
            let rest = &text[e_at + 1..];
            let (negative, rest) = match rest {
                [b'-', r @ ..] => (true, r),
                r => (false, r),
            };
            exp = rest.iter().fold(0, |v, &c| v * 10 + i32::from(c - b'0'));
            if negative {
                exp = -exp;
            }
        }
        let mantissa = &text[..e_at];
        let point = mantissa
            .iter()
            .position(|&c| c == b'.')
            .unwrap_or(mantissa.len());
        let mut digits = Text::new();
        let mut first: Option<i32> = None;
        for (i, &c) in mantissa.iter().enumerate().filter(|&(_, &c)| c != b'.') {
            if c != b'0' || first.is_some() {
                if first.is_none() {
                    // Position i (of the digits only) relative to the point.
                    let place = if i < point { i } else { i - 1 };
                    first = Some(point as i32 - 1 - place as i32);
                }
                digits.push(&[c]);
            }
        }
        while digits.len > 1 && digits.bytes[digits.len - 1] == b'0' {
            digits.len -= 1;
        }
        (digits, first.expect("a non-zero digit") + exp)
    }

    /// numpy's layout of the digits, written plainly (the reference for the fast one).
    fn numpy_layout(negative: bool, digits: &[u8], exp: i32, positional: bool) -> Text {
        let mut t = Text::new();
        if negative {
            t.push(b"-");
        }
        if positional && exp >= 0 {
            let whole = exp as usize + 1;
            if digits.len() <= whole {
                t.push(digits);
                t.zeros(whole - digits.len());
                t.push(b".0");
            } else {
                t.push(&digits[..whole]);
                t.push(b".");
                t.push(&digits[whole..]);
            }
        } else if positional {
            t.push(b"0.");
            t.zeros((-exp - 1) as usize);
            t.push(digits);
        } else {
            t.push(&digits[..1]);
            if digits.len() > 1 {
                t.push(b".");
                t.push(&digits[1..]);
            }
            t.push(if exp < 0 { b"e-" } else { b"e+" });
            let e = exp.unsigned_abs();
            if e >= 100 {
                t.push(&[b'0' + (e / 100) as u8]);
            }
            t.push(&[b'0' + (e / 10 % 10) as u8, b'0' + (e % 10) as u8]);
        }
        t
    }

    /// The text tensorcast writes for a value of `source` (its bits).
    /// The room is the caller's arena: no byte after the text may change.
    fn ours(source: Scalar, bits: u64) -> Text {
        let mut space = [0xa5u8; SCRATCH_BYTES];
        let mut out = Scratch::over(&mut space);
        // The element's bytes in the host's order, without an allocation (this runs
        // 2^32 times in the exhaustive check).
        let (narrow, wide) = ((bits as u32).to_ne_bytes(), bits.to_ne_bytes());
        let bytes: &[u8] = if source.size() == 4 { &narrow } else { &wide };
        format_element(source, bytes, StringFormat::Shortest, &mut out);
        let mut t = Text::new();
        t.push(out.bytes());
        let len = out.len;
        assert!(
            space[len..].iter().all(|&b| b == 0xa5),
            "{bits:#x}: a byte written past the text"
        );
        t
    }

    /// Compares tensorcast's text of a finite FLOAT with ryu's digits in numpy's layout.
    fn check_f32(bits: u32) {
        let x = f32::from_bits(bits);
        if !x.is_finite() || x == 0.0 {
            return;
        }
        let mut buffer = ryu::Buffer::new();
        let (digits, exp) = ryu_digits(buffer.format_finite(x.abs()).as_bytes());
        let positional = (1e-4..1e6).contains(&f64::from(x.abs()));
        let want = numpy_layout(x < 0.0, digits.get(), exp, positional);
        let got = ours(Scalar::F32, u64::from(bits));
        assert!(
            got.get() == want.get(),
            "FLOAT {bits:#010x} ({x:e}): {:?}, ryu's digits give {:?}",
            got.get().escape_ascii().to_string(),
            want.get().escape_ascii().to_string()
        );
    }

    fn check_f64(bits: u64) {
        let x = f64::from_bits(bits);
        if !x.is_finite() || x == 0.0 {
            return;
        }
        let mut buffer = ryu::Buffer::new();
        let (digits, exp) = ryu_digits(buffer.format_finite(x.abs()).as_bytes());
        let positional = (1e-4..1e16).contains(&x.abs());
        let want = numpy_layout(x < 0.0, digits.get(), exp, positional);
        let got = ours(Scalar::F64, bits);
        assert!(
            got.get() == want.get(),
            "DOUBLE {bits:#018x} ({x:e}): {:?}, ryu's digits give {:?}",
            got.get().escape_ascii().to_string(),
            want.get().escape_ascii().to_string()
        );
    }

    /// Compares the digits of a positive finite FLOAT with ryu's: the same significant
    /// digits and exponent (the layout is checked by [`check_f32`]).
    fn check_f32_digits(bits: u32) {
        let x = f32::from_bits(bits);
        if !x.is_finite() || x <= 0.0 {
            return;
        }
        let (mut d, mut k) = digits_f32(bits);
        while d % 10 == 0 {
            d /= 10;
            k += 1;
        }
        let count = d.ilog10() as i32 + 1;
        let mut buffer = ryu::Buffer::new();
        let (digits, exp) = ryu_digits(buffer.format_finite(x).as_bytes());
        let value = digits
            .get()
            .iter()
            .fold(0u64, |v, &c| v * 10 + u64::from(c - b'0'));
        assert!(
            (d, k + count - 1) == (value, exp),
            "FLOAT {bits:#010x} ({x:e}): digits {d} exponent {}, ryu's {value} {exp}",
            k + count - 1
        );
    }

    /// The digits of every positive FLOAT when TCAST_SHORTEST_EXHAUSTIVE=1 (scripts/
    /// test-shortest-exhaustive.sh; minutes of CPU time), of every Nth pattern when
    /// TCAST_SHORTEST_EVERY=N (CI's step shortest: 5), of every 4093rd otherwise; then
    /// the whole text (sign, digits, layout) of every 4093rd pattern, random ones and the
    /// boundaries. On all the cores there are.
    #[test]
    fn float_texts_are_ryus_digits_in_numpys_layout() {
        let exhaustive = std::env::var_os("TCAST_SHORTEST_EXHAUSTIVE").is_some_and(|v| v == "1");
        let every = std::env::var("TCAST_SHORTEST_EVERY").ok().map(|v| {
            v.parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .unwrap_or_else(|| panic!("TCAST_SHORTEST_EVERY={v:?}: not a whole number >= 1"))
        });
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
        let digit_step: u32 = if exhaustive { 1 } else { every.unwrap_or(4093) };
        std::thread::scope(|scope| {
            for t in 0..threads {
                scope.spawn(move || {
                    let mut bits = t * digit_step;
                    while bits < 0x7f80_0000 {
                        check_f32_digits(bits);
                        bits = bits.saturating_add(threads * digit_step);
                    }
                });
            }
        });
        let step: u64 = 4093;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        std::thread::scope(|scope| {
            for t in 0..threads {
                scope.spawn(move || {
                    let mut bits = t * step;
                    while bits <= u64::from(u32::MAX) {
                        check_f32(bits as u32);
                        bits += threads * step;
                    }
                });
            }
        });
        let mut rng = Rng(0x05ee_df32);
        for _ in 0..samples(1_000_000) {
            check_f32(rng.next() as u32);
        }
        for field in 0..=255u32 {
            for fraction in [0, 1, 2, 3, 9, 10, 11, 0x7f_ffff, 0x7f_fffe, 0x40_0000] {
                check_f32((field << 23) | fraction);
                check_f32((1 << 31) | (field << 23) | fraction);
            }
        }
    }

    /// Random DOUBLEs (uniform bits, and uniform over the decades), every power of two,
    /// the subnormals with few significant bits, and the neighbours of the layout's
    /// thresholds.
    #[test]
    fn double_texts_are_ryus_digits_in_numpys_layout() {
        let mut rng = Rng(0x05ee_df64);
        for _ in 0..samples(3_000_000) {
            check_f64(rng.next());
            let m = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let e = (rng.next() % 640) as i32 - 320;
            check_f64((m * 10f64.powi(e)).to_bits());
        }
        for field in 0..=2047u64 {
            for fraction in [0, 1, 2, 3, 9, 10, 99, (1 << 52) - 1, (1 << 52) - 2, 1 << 51] {
                check_f64((field << 52) | fraction);
            }
        }
        for fraction in 0..100_000u64 {
            check_f64(fraction);
        }
        for x in [
            1e-4,
            1e16,
            1e15,
            1e-5,
            1e23,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
        ] {
            for delta in -3i64..=3 {
                check_f64((x.to_bits() as i64 + delta) as u64);
            }
        }
    }

    /// More DOUBLEs: random bits, every exponent with random significands and those next
    /// to the ends of its range, significands that are multiples of high powers of five
    /// (whose value can sit exactly on a half or a tie at the scale), and the values next
    /// to each power of ten.
    #[test]
    fn double_digits_hold_on_ties_and_range_ends() {
        let mut rng = Rng(0x0d16_175f);
        for _ in 0..samples(4_000_000) {
            check_f64(rng.next() >> 1);
        }
        for field in 1..=2046u64 {
            for _ in 0..samples(200) {
                check_f64((field << 52) | (rng.next() >> 12));
            }
            for fraction in 1..64u64 {
                check_f64((field << 52) | fraction);
                check_f64((field << 52) | ((1 << 52) - fraction));
            }
        }
        for j in 1..=22u32 {
            // c = 5^j * m, a 53-bit significand, at any exponent.
            let five = 5u64.pow(j);
            let (low, top) = ((1u64 << 52).div_ceil(five), (1u64 << 53) / five);
            for _ in 0..samples(20_000) {
                let c = five * (low + rng.next() % (top - low + 1));
                assert_eq!(c >> 52, 1, "{c}");
                let field = 1 + rng.next() % 2046;
                check_f64((field << 52) | (c & ((1 << 52) - 1)));
            }
        }
        for e in -323i32..=308 {
            let x = 10f64.powi(e);
            for delta in -2i64..=2 {
                check_f64((x.to_bits() as i64 + delta) as u64);
            }
        }
    }

    /// Zeros, NaNs (any sign and payload) and the infinities, decided on the bits.
    #[test]
    fn specials_are_numpys_and_onnxs_spellings() {
        let f32s = [
            (0x0000_0000, "0.0"),
            (0x8000_0000, "-0.0"),
            (0x7f80_0000, "INF"),
            (0xff80_0000, "-INF"),
            (0x7fc0_0000, "NaN"),
            (0xffc0_0000, "NaN"),
            (0x7f80_0001, "NaN"),
            (0xffff_ffff, "NaN"),
            (0x0000_0001, "1e-45"),
            (0x7f7f_ffff, "3.4028235e+38"),
        ];
        for (bits, text) in f32s {
            assert_eq!(ours(Scalar::F32, bits).get(), text.as_bytes(), "{bits:#x}");
        }
        let f64s = [
            (0x0000_0000_0000_0000, "0.0"),
            (0x8000_0000_0000_0000, "-0.0"),
            (0x7ff0_0000_0000_0000, "INF"),
            (0xfff0_0000_0000_0000, "-INF"),
            (0x7ff8_0000_0000_0000, "NaN"),
            (0xfff8_0000_0000_0000, "NaN"),
            (0x7ff0_0000_0000_0001, "NaN"),
            (0xffff_ffff_ffff_ffff, "NaN"),
            (0x0000_0000_0000_0001, "5e-324"),
            (0x7fef_ffff_ffff_ffff, "1.7976931348623157e+308"),
        ];
        for (bits, text) in f64s {
            assert_eq!(ours(Scalar::F64, bits).get(), text.as_bytes(), "{bits:#x}");
        }
    }

    #[test]
    fn the_scales_are_exact_where_used() {
        // f64's log10(2) and log2(10) are accurate to ~1e-16 relative: enough where the
        // exact value is not within 1e-9 of an integer, which the test also checks.
        for e in -1100i32..=1100 {
            let x = f64::from(e) * 2f64.log10();
            assert!((x - x.round()).abs() > 1e-9 || e == 0, "{e}");
            assert_eq!(floor_log10_pow2(e), x.floor() as i32, "log10 2^{e}");
            let y = x + 0.75f64.log10();
            assert!((y - y.round()).abs() > 1e-9, "{e}");
            assert_eq!(floor_log10_three_quarters_pow2(e), y.floor() as i32, "{e}");
        }
        for e in -342i32..=342 {
            let x = f64::from(e) * 10f64.log2();
            assert!((x - x.round()).abs() > 1e-9 || e == 0, "{e}");
            assert_eq!(floor_log2_pow10(e), x.floor() as i32, "log2 10^{e}");
        }
    }

    #[test]
    fn digit_words_are_the_digits() {
        let mut rng = Rng(0xd191);
        let values = (0..samples(2_000_000)).map(|_| rng.next() % 100_000_000);
        for v in values.chain(0..100_000).chain(99_900_000..100_000_000) {
            let word = digit_word(v);
            let bytes = word.to_le_bytes();
            assert!(bytes.iter().all(|&d| d <= 9), "{v}");
            let back = bytes.iter().fold(0u64, |a, &d| a * 10 + u64::from(d));
            assert_eq!(back, v);
        }
    }

    #[test]
    fn sixteen_digits_are_the_digits() {
        let mut rng = Rng(0x16d1);
        let values = (0..samples(2_000_000)).map(|_| rng.next() % 10_000_000_000_000_000);
        let edges = (0..16).flat_map(|p| {
            let t = 10u64.pow(p);
            [t - 1, t, t + 1, 9_999_999_999_999_999 / t * t]
        });
        for v in values.chain(edges).chain(0..100_000) {
            let (text, significant) = sixteen_digits(v);
            assert_eq!((text, significant), sixteen_digits_portable(v), "{v}");
            let bytes = text.to_le_bytes();
            let back = bytes
                .iter()
                .fold(0u64, |a, &c| a * 10 + u64::from(c - b'0'));
            assert_eq!(back, v);
            let zeros = bytes.iter().rev().take_while(|&&c| c == b'0').count();
            assert_eq!(significant, 16 - zeros, "{v}");
        }
    }

    #[test]
    fn integers_are_written_in_full() {
        let mut rng = Rng(0x17);
        let check = |v: u64| {
            let mut space = [0xa5u8; SCRATCH_BYTES];
            let mut out = Scratch::over(&mut space);
            push_u64(&mut out, v);
            let len = out.len;
            assert_eq!(&space[..len], v.to_string().as_bytes());
            assert!(
                space[len..].iter().all(|&b| b == 0xa5),
                "{v}: past the text"
            );
        };
        for shift in 0..64 {
            let v = rng.next() >> shift;
            check(v);
            check(1 << shift);
            check((1 << shift) - 1);
        }
        for p in 0..20 {
            let t = 10u64.pow(p);
            for v in [t - 1, t, t + 1] {
                check(v);
            }
        }
        check(u64::MAX);
    }
}
