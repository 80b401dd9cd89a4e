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
    } else {
        to.copy_from_slice(&text[..len]);
    }
    out.len += len;
}

/// The text of a [`digit_word`] without its leading zeros (one '0' left for 0), and
/// its length, in the low bytes of a word.
#[inline(always)]
fn trimmed_word(word: u64) -> (u64, usize) {
    let lead = if word == 0 {
        7
    } else {
        word.trailing_zeros() as usize / 8
    };
    ((word | ASCII_ZEROS) >> (8 * lead), 8 - lead)
}

/// Writes an unsigned integer in decimal, eight digits at a time.
#[inline]
pub(super) fn push_u64(out: &mut Scratch, v: u64) {
    const E8: u64 = 100_000_000;
    const E16: u64 = E8 * E8;
    let mut text = [0u8; 32];
    let len = if v < E8 {
        let (word, n) = trimmed_word(digit_word(v));
        text[..8].copy_from_slice(&word.to_le_bytes());
        n
    } else {
        let (head, body) = if v < E16 {
            (v / E8, [v % E8, 0])
        } else {
            (v / E16, [v / E8 % E8, v % E8])
        };
        let (word, n) = trimmed_word(digit_word(head));
        text[..8].copy_from_slice(&word.to_le_bytes());
        text[n..n + 8].copy_from_slice(&(digit_word(body[0]) | ASCII_ZEROS).to_le_bytes());
        if v < E16 {
            n + 8
        } else {
            text[n + 8..n + 16].copy_from_slice(&(digit_word(body[1]) | ASCII_ZEROS).to_le_bytes());
            n + 16
        }
    };
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
