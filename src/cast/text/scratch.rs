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

/// Two-digit groups for integer formatting.
const DIGIT_PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes an unsigned integer in decimal.
#[inline]
pub(super) fn push_u64(out: &mut Scratch, mut v: u64) {
    let mut tmp = [0u8; 20];
    let mut at = tmp.len();
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        at -= 2;
        tmp[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        at -= 2;
        tmp[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        tmp[at] = b'0' + v as u8;
    }
    push(out, &tmp[at..]);
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
