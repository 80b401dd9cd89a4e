// SPDX-License-Identifier: MIT OR Apache-2.0
//! Byte classification for the text scanner: SIMD where the CPU has it, else nothing
//! (the scanner then reads the text byte by byte, its portable path).

#[cfg(target_arch = "x86_64")]
use super::cpu::cpu;

/// Where a text's digits, '.' and 'e'/'E' are: bit i for byte i.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ByteClasses {
    pub digit: u32,
    pub dot: u32,
    pub exp: u32,
}

/// The classes of a text of 16 to 32 bytes, where a SIMD kernel is available; `None`
/// for other lengths and on the portable path.
#[inline(always)]
pub fn byte_classes(s: &[u8]) -> Option<ByteClasses> {
    if !(16..=32).contains(&s.len()) {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = cpu().sse2() {
        let (digit, dot, exp) = super::x86_64::scan::byte_classes(s, token);
        return Some(ByteClasses { digit, dot, exp });
    }
    None
}
