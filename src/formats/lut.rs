// SPDX-License-Identifier: MIT OR Apache-2.0
//! The decoders' lookup tables: the value of every code of a low-precision format as
//! f32, f16 and bf16 bits, computed at compile time, and the scalar loop over them that
//! the portable tier runs (and the AVX2 and NEON kernels' tails).

use super::convert::{f32_to_bf16_bits, f32_to_f16_bits};
use super::lowp::{decode_f32, decode_int, Kind, FORMATS};

/// The targets the decoders look up in a table: an index into [`Lut::TABLES`].
pub(crate) const LUT_F32: u8 = 0;
pub(crate) const LUT_F16: u8 = 1;
pub(crate) const LUT_BF16: u8 = 2;

/// The value of every code of low-precision format `F` as f32, f16 and bf16 bits
/// (the 16-bit ones zero-extended to 32 bits, the width a gather loads), computed at
/// compile time from the scalar decoders and conversions: no allocation and no
/// initialisation at run time, and a new format needs nothing but its row in
/// `FORMATS`. The scalar rules round each exact value once, so a table entry is the
/// per-element result.
pub(crate) struct Lut<const F: u8>;

impl<const F: u8> Lut<F> {
    /// A reference, so that a kernel reads the one copy in static memory.
    pub(crate) const TABLES: &'static [[u32; 256]; 3] =
        &[lut::<F>(LUT_F32), lut::<F>(LUT_F16), lut::<F>(LUT_BF16)];

    /// The tables of the 16 codes of a 4-bit format split into byte planes, for a
    /// 16-entry byte lookup: `NIBBLES[T][p][c]` is byte `p` (little-endian) of the
    /// entry of code `c & 15` in `TABLES[T]`, twice over (once per 128-bit lane). Read
    /// by the AVX2 and NEON kernels only.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) const NIBBLES: &'static [[[u8; 32]; 4]; 3] = &[
        nibble_planes(&Self::TABLES[0]),
        nibble_planes(&Self::TABLES[1]),
        nibble_planes(&Self::TABLES[2]),
    ];

    /// The first 64 entries of each table (a 6-bit format's) split into byte planes,
    /// for 64-entry byte lookups: `SIX_PLANES[T][p][c]` is byte `p` (little-endian) of
    /// the entry of code `c` in `TABLES[T]`. Read by the AVX2 and NEON kernels only.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) const SIX_PLANES: &'static [[[u8; 64]; 4]; 3] = &[
        six_planes(&Self::TABLES[0]),
        six_planes(&Self::TABLES[1]),
        six_planes(&Self::TABLES[2]),
    ];

    /// How a signed 8-bit float format's codes become FLOAT16 (`[1]`) or BFLOAT16
    /// (`[2]`) bits without a gather ([`Eights`]); None for the other formats and
    /// targets, and for any format the rule would not decode exactly (checked here, at
    /// compile time, against every code's table entry). Read by the AVX2 and NEON
    /// kernels only.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) const EIGHTS: &'static [Option<Eights>; 3] = &[
        None,
        eights::<F>(&Self::TABLES[1], 10, 15),
        eights::<F>(&Self::TABLES[2], 7, 127),
    ];

    /// How a 6-bit format's codes become FLOAT16 (`[1]`) or BFLOAT16 (`[2]`) bits with
    /// two 16-entry lookups per output byte ([`Sixes`]): where every code's entry is that
    /// of its 5-bit magnitude with the code's sign bit (bit 5) as the result's (bit 15),
    /// checked here against every code; None for the other formats and targets.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) const SIGNED_SIXES: &'static [Option<Sixes>; 3] = &[
        None,
        signed_sixes::<F>(&Self::TABLES[1]),
        signed_sixes::<F>(&Self::TABLES[2]),
    ];

    /// Whether every code's f32 entry is its bf16 entry moved up 16 bits (true of every
    /// format whose values are all bf16 values, NaN included): then a decoder to FLOAT
    /// can run the BFLOAT16 rule of [`Self::EIGHTS`] and widen by placing each 16-bit
    /// result in the top half of a 32-bit lane, with no gather.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) const F32_IS_BF16_WIDENED: bool = {
        let (f32s, bf16s) = (&Self::TABLES[0], &Self::TABLES[2]);
        let mut code = 0;
        while code < 256 && f32s[code] == bf16s[code] << 16 {
            code += 1;
        }
        code == 256
    };
}

/// A signed 8-bit float format's decoding to a 16-bit float by a shift, an add and two
/// 16-entry lookups: a magnitude `mag` (the code's low 7 bits) from 16 up to
/// `max_code` (the largest finite one) is `(mag << shift) + offset` (its mantissa and
/// exponent fields moved into place, the exponent rebiased); the magnitudes below 16
/// (the subnormals and the smallest normals, which may be the target's subnormals) are
/// the entries `small[mag]`, those above `max_code` (infinity, NaN) the entries
/// `top[mag - 0x70]`; the code's sign bit is the value's, but for the code 0x80 of a
/// format without -0, whose entry is `neg_zero` (NaN). The lookups are byte planes
/// (`small[p][i]` is byte `p` of the entry of magnitude `i & 15`, twice over, once per
/// 128-bit lane).
#[derive(Copy, Clone)]
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) struct Eights {
    pub(crate) shift: u32,
    pub(crate) offset: u16,
    pub(crate) max_code: u8,
    pub(crate) small: [[u8; 32]; 2],
    pub(crate) top: [[u8; 32]; 2],
    pub(crate) neg_zero: u16,
}

/// The [`Eights`] of format `F` for a 16-bit target with `man` mantissa bits and
/// exponent bias `bias`, if it decodes every code to `table`'s entry.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
const fn eights<const F: u8>(table: &[u32; 256], man: u32, bias: i32) -> Option<Eights> {
    let f = &FORMATS[F as usize];
    let float = matches!(f.kind, Kind::Ieee | Kind::Fn | Kind::Fnuz);
    if !float || f.bits != 8 || f.exp_bits + f.man_bits != 7 || f.max_code < 0x6f {
        return None;
    }
    let shift = man - f.man_bits;
    let offset = ((bias - f.bias) << man) as u16;
    let mut e = Eights {
        shift,
        offset,
        max_code: f.max_code as u8,
        small: [[0; 32]; 2],
        top: [[0; 32]; 2],
        neg_zero: table[0x80] as u16,
    };
    let mut i = 0;
    while i < 32 {
        let (small, top) = (table[i & 15], table[0x70 + (i & 15)]);
        e.small[0][i] = small as u8;
        e.small[1][i] = (small >> 8) as u8;
        e.top[0][i] = top as u8;
        e.top[1][i] = (top >> 8) as u8;
        i += 1;
    }
    // Every code against its table entry.
    let mut code = 0;
    while code < 256 {
        // As the kernel looks them up: entry `mag & 15` of the byte planes.
        let mag = code & 0x7f;
        let planes = if mag < 16 { &e.small } else { &e.top };
        let value = if mag < 16 || mag > f.max_code as usize {
            planes[0][mag & 15] as u32 | ((planes[1][mag & 15] as u32) << 8)
        } else {
            ((mag as u32) << shift).wrapping_add(offset as u32) & 0xffff
        };
        // As the kernel adds them: the sign bit, and for a format without -0 the
        // code 0x80's entry but its sign bit.
        let mut value = value | ((code as u32 & 0x80) << 8);
        if code == 0x80 && matches!(f.kind, Kind::Fnuz) {
            value |= e.neg_zero as u32 & 0x7fff;
        }
        if value != table[code] {
            return None;
        }
        code += 1;
    }
    Some(e)
}

/// The byte planes of a 6-bit format's 32 magnitudes' 16-bit entries: `planes[2 h + b]`
/// holds byte `b` (0 low, 1 high) of the entries of magnitudes `16 h` to `16 h + 15`,
/// twice over (once per 128-bit lane).
#[derive(Copy, Clone)]
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) struct Sixes {
    pub(crate) planes: [[u8; 32]; 4],
}

/// The [`Sixes`] of format `F` for the 16-bit target `table`, if its entries split into
/// magnitude and sign.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
const fn signed_sixes<const F: u8>(table: &[u32; 256]) -> Option<Sixes> {
    if FORMATS[F as usize].bits != 6 || matches!(FORMATS[F as usize].kind, Kind::Int { .. }) {
        return None;
    }
    let mut code = 0;
    while code < 64 {
        let magnitude = table[code & 0x1f];
        if magnitude >= 0x8000 || table[code] != magnitude | ((code as u32 & 0x20) << 10) {
            return None;
        }
        code += 1;
    }
    let mut planes = [[0u8; 32]; 4];
    let mut i = 0;
    while i < 32 {
        let mut h = 0;
        while h < 2 {
            let entry = table[16 * h + (i & 15)];
            planes[2 * h][i] = entry as u8;
            planes[2 * h + 1][i] = (entry >> 8) as u8;
            h += 1;
        }
        i += 1;
    }
    Some(Sixes { planes })
}

/// The byte planes of the first 64 entries of `table` (see [`Lut::SIX_PLANES`]).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
const fn six_planes(table: &[u32; 256]) -> [[u8; 64]; 4] {
    let mut planes = [[0u8; 64]; 4];
    let mut c = 0;
    while c < 64 {
        let bytes = table[c].to_le_bytes();
        let mut p = 0;
        while p < 4 {
            planes[p][c] = bytes[p];
            p += 1;
        }
        c += 1;
    }
    planes
}

/// The byte planes of the first 16 entries of `table` (see [`Lut::NIBBLES`]).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
const fn nibble_planes(table: &[u32; 256]) -> [[u8; 32]; 4] {
    let mut planes = [[0u8; 32]; 4];
    let mut i = 0;
    while i < 32 {
        let bytes = table[i & 15].to_le_bytes();
        let mut p = 0;
        while p < 4 {
            planes[p][i] = bytes[p];
            p += 1;
        }
        i += 1;
    }
    planes
}

/// The exact value of a code of format `F`, as f32.
const fn code_value<const F: u8>(code: u8) -> f32 {
    match FORMATS[F as usize].kind {
        Kind::Int { .. } => decode_int::<F>(code) as f32,
        _ => decode_f32::<F>(code),
    }
}

/// The table of format `F` for target `target` (`LUT_F32`, `LUT_F16` or `LUT_BF16`).
const fn lut<const F: u8>(target: u8) -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut code = 0;
    while code < 256 {
        let value = code_value::<F>(code as u8);
        table[code] = match target {
            LUT_F32 => value.to_bits(),
            LUT_F16 => f32_to_f16_bits(value) as u32,
            _ => f32_to_bf16_bits(value) as u32,
        };
        code += 1;
    }
    table
}

/// Bytes of one output element of table target `T`.
pub(crate) const fn lut_size<const T: u8>() -> usize {
    if T == LUT_F32 {
        4
    } else {
        2
    }
}

/// Looks each code of format `F` up in its table for target `T`.
#[inline(always)]
pub(crate) fn lut_all<const F: u8, const T: u8>(src: &[u8], dst: &mut [u8]) {
    let table = &Lut::<F>::TABLES[T as usize];
    if T != LUT_F32 {
        // Four entries to one 8-byte store (0.46 -> 0.58x memcpy on the portable tier
        // against one 2-byte store each), the first in the word's first two bytes.
        let entry = |c: &u8| u64::from(table[usize::from(*c)]);
        let mut s = src.chunks_exact(4);
        let mut d = dst.chunks_exact_mut(8);
        for (si, di) in (&mut s).zip(&mut d) {
            let word = if cfg!(target_endian = "little") {
                si.iter().rev().fold(0, |w, c| (w << 16) | entry(c))
            } else {
                si.iter().fold(0, |w, c| (w << 16) | entry(c))
            };
            di.copy_from_slice(&word.to_ne_bytes());
        }
        for (&s, d) in s
            .remainder()
            .iter()
            .zip(d.into_remainder().chunks_exact_mut(2))
        {
            d.copy_from_slice(&(table[usize::from(s)] as u16).to_ne_bytes());
        }
    } else {
        for (&s, d) in src.iter().zip(dst.chunks_exact_mut(4)) {
            d.copy_from_slice(&table[usize::from(s)].to_ne_bytes());
        }
    }
}
