// SPDX-License-Identifier: MIT OR Apache-2.0
//! The room one element's text is built in, and the digit writers the formatters share.

use core::fmt::Write;

/// Room one element's text is built in: at least [`SCRATCH_BYTES`] bytes, either a
/// window of the caller's arena or a local buffer.
pub(super) struct Scratch<'a> {
    pub(super) buf: &'a mut [u8],
    pub(super) len: usize,
}

/// Bytes any single text (and the intermediate forms built for it) fits in.
pub(super) const SCRATCH_BYTES: usize = 48;

impl<'a> Scratch<'a> {
    pub(super) fn over(buf: &'a mut [u8]) -> Scratch<'a> {
        Scratch { buf, len: 0 }
    }

    pub(super) fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Write for Scratch<'_> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(core::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Appends bytes; inlined so that constant-length pushes become plain stores.
#[inline(always)]
pub(super) fn push(out: &mut Scratch, bytes: &[u8]) {
    let end = out.len + bytes.len();
    out.buf[out.len..end].copy_from_slice(bytes);
    out.len = end;
}

/// Eight decimal digits of v < 10^8 as the bytes of a word counted from its low end
/// (byte 0 the most significant digit), each byte 0..=9: v split into two halves of
/// four digits, each into two pairs, each into two digits, all lanes at once. Each
/// split of a lane x into q = x / m (below) and x % m (above) is one multiplication,
/// (x << w) - q * (m << w - 1), the quotients by multiplications exact over these
/// ranges.
#[inline(always)]
pub(super) fn digit_word(v: u64) -> u64 {
    let upper = (v * 109_951_163) >> 40;
    let halves = (v << 32) - upper * ((10_000 << 32) - 1);
    let hundreds = ((halves * 10_486) >> 20) & 0x0000_007f_0000_007f;
    let pairs = (halves << 16) - hundreds * ((100 << 16) - 1);
    let tens = ((pairs * 103) >> 10) & 0x000f_000f_000f_000f;
    (pairs << 8) - tens * ((10 << 8) - 1)
}

/// '0' in every byte: added to a [`digit_word`] it gives the digits' text.
pub(super) const ASCII_ZEROS: u64 = 0x3030_3030_3030_3030;

/// Appends the first `len` (at most 32) bytes of `text` with at most two fixed-size
/// copies, which may overlap, and writes nothing after them (the room may be the
/// caller's arena).
#[inline(always)]
pub(super) fn push_prefix(out: &mut Scratch, text: &[u8], len: usize) {
    let to = &mut out.buf[out.len..out.len + len];
    if len >= 16 {
        to[..16].copy_from_slice(&text[..16]);
        to[len - 16..].copy_from_slice(&text[len - 16..len]);
    } else if len >= 8 {
        to[..8].copy_from_slice(&text[..8]);
        to[len - 8..].copy_from_slice(&text[len - 8..len]);
    } else if len >= 4 {
        to[..4].copy_from_slice(&text[..4]);
        to[len - 4..].copy_from_slice(&text[len - 4..len]);
    } else if len > 0 {
        // One to three bytes: the first, the middle and the last, which may coincide
        // (no variable-length copy, which would be a call).
        to[0] = text[0];
        to[len / 2] = text[len / 2];
        to[len - 1] = text[len - 1];
    }
    out.len += len;
}

/// 10^i for i in 0..=19.
const POWERS_OF_TEN: [u64; 20] = {
    let mut table = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// The number of decimal digits of `v` (1 for 0), from its bit length: a short chain
/// of its own, so that where the next text starts does not wait for the digits.
#[inline(always)]
fn decimal_len(v: u64) -> usize {
    let v = v | 1;
    let bits = 64 - v.leading_zeros() as usize;
    // floor(bits * log10(2)): at most one short of the digit count.
    let guess = (bits * 1233) >> 12;
    guess + usize::from(v >= POWERS_OF_TEN[guess])
}

/// Writes an unsigned integer in decimal, eight digits at a time.
#[inline(always)]
pub(super) fn push_u64(out: &mut Scratch, v: u64) {
    const E8: u64 = 100_000_000;
    const E16: u64 = E8 * E8;
    let len = decimal_len(v);
    let mut text = [0u8; 32];
    if v < E8 {
        // The digit word's leading zeros shifted out: `len` digits in the low bytes.
        let word = (digit_word(v) | ASCII_ZEROS) >> (8 * (8 - len));
        text[..8].copy_from_slice(&word.to_le_bytes());
    } else {
        let (head, body) = if v < E16 {
            (v / E8, [v % E8, 0])
        } else {
            (v / E16, [v / E8 % E8, v % E8])
        };
        let n = len % 8;
        let n = if n == 0 { 8 } else { n };
        let word = (digit_word(head) | ASCII_ZEROS) >> (8 * (8 - n));
        text[..8].copy_from_slice(&word.to_le_bytes());
        text[n..n + 8].copy_from_slice(&(digit_word(body[0]) | ASCII_ZEROS).to_le_bytes());
        if v >= E16 {
            text[n + 8..n + 16].copy_from_slice(&(digit_word(body[1]) | ASCII_ZEROS).to_le_bytes());
        }
    }
    push_prefix(out, &text, len);
}

/// Writes "e+05" / "e-300": a sign and at least two digits, as numpy and C do.
#[inline]
pub(super) fn push_exponent(out: &mut Scratch, exp: i32) {
    push(out, if exp < 0 { b"e-" } else { b"e+" });
    let e = exp.unsigned_abs();
    if e < 10 {
        push(out, b"0");
    }
    push_u64(out, u64::from(e));
}
