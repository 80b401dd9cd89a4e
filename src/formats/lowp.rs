// SPDX-License-Identifier: MIT OR Apache-2.0
//! The low-precision formats (`docs/semantics-cast.md` sections 4-7): the rows of the
//! dtype registry (`src/dtype.rs`) with a `low` format, each described there by its
//! widths, bias, kind and largest code, and the options its encoders take (`saturate`
//! for the float8 kinds with one, `round_mode` for FLOAT8E8M0). Every rule here reads
//! those fields, so a new row needs no code in this file.
//!
//! Kernels see one code per byte (the packed types are unpacked and packed around them
//! block by block, see `pack.rs`). Decoding is exact, to f32. Encoding starts from the
//! source value rounded to f32 *to odd*: exact for every source but f64 and the 32/64-bit
//! integers, and for those it keeps a sticky bit, so the one rounding to the (at most
//! 4-bit mantissa) format is the correctly rounded result of the original value.
//! Integer formats take integers as they are and floats rounded to the nearest even
//! integer (NaN and infinities give 0), then keep the low bits.

use super::convert::{
    bf16_bits_to_f32, f16_bits_to_f32, f64_to_f32_round_odd, i64_to_f64_round_odd,
    u64_to_f64_round_odd,
};
use super::dispatch::{by_format, by_format_and_options, FormatVisitor, OptionsVisitor};
use super::elem::{Bool, Elem, C128, C64};
use crate::dtype::DType;
use half::{bf16, f16};

pub use crate::dtype::{LowKind as Kind, LOW_FORMATS as FORMATS};

/// The format id of a low-precision dtype.
pub fn format_of(dtype: DType) -> Option<u8> {
    dtype
        .info()
        .low
        .and_then(|low| FORMATS.iter().position(|f| *f == low))
        .map(|i| i as u8)
}

/// Option bits a kernel is compiled for: bit 0 `saturate`, bits 1-2 the `round_mode`.
/// Formats that ignore an option are always compiled with it cleared. The bits a format
/// can get are its row's option sets (`LowFormat::options`), and each (format, option
/// bits) has its arm in the dispatch table (`dispatch.rs`).
pub fn option_bits(format: u8, saturate: bool, round_mode: u8) -> u8 {
    match FORMATS[format as usize].kind {
        Kind::Ieee | Kind::Fn | Kind::Fnuz => u8::from(saturate),
        Kind::E8m0 => u8::from(saturate) | (round_mode << 1),
        _ => 0,
    }
}

/// The exact value of a float format's code, as f32 (every one of them fits). A `const
/// fn`, so the kernels' lookup tables are computed from it at compile time.
#[inline(always)]
pub const fn decode_f32<const F: u8>(code: u8) -> f32 {
    let f = &FORMATS[F as usize];
    let c = code as u32;
    if matches!(f.kind, Kind::E8m0) {
        let bits = match code {
            0xff => 0x7fc0_0000,
            0 => 0x0040_0000, // 2^-127: an f32 subnormal
            _ => c << 23,
        };
        return f32::from_bits(bits);
    }
    let m = f.man_bits;
    let magnitude_bits = f.exp_bits + m;
    let sign = ((c >> magnitude_bits) & 1) << 31;
    let mag = c & ((1 << magnitude_bits) - 1);
    let exp = mag >> m;
    let man = mag & ((1 << m) - 1);
    let max_exp = (1 << f.exp_bits) - 1;
    let normal = ((exp + 127 - f.bias as u32) << 23) | (man << (23 - m));
    // A subnormal is its mantissa times the quantum 2^(1 - bias - m): exact in f32.
    let quantum = f32::from_bits(((128 - f.bias - m as i32) as u32) << 23);
    let subnormal = (man as f32 * quantum).to_bits();
    let nan = match f.kind {
        Kind::Fn => mag == (1 << magnitude_bits) - 1,
        Kind::Fnuz => c == 1 << magnitude_bits,
        Kind::Ieee => exp == max_exp && man != 0,
        _ => false,
    };
    let inf = matches!(f.kind, Kind::Ieee) && exp == max_exp && man == 0;
    let bits = if nan {
        0x7fc0_0000
    } else if inf {
        0x7f80_0000
    } else if exp == 0 {
        subnormal
    } else {
        normal
    };
    f32::from_bits(bits | sign)
}

/// The value of an integer format's code.
#[inline(always)]
pub const fn decode_int<const F: u8>(code: u8) -> i8 {
    let f = &FORMATS[F as usize];
    match f.kind {
        Kind::Int { signed: true } => ((code << (8 - f.bits)) as i8) >> (8 - f.bits),
        _ => code as i8,
    }
}

/// FLOAT8E8M0 from a value rounded to f32 to odd (see the module docs).
#[inline(always)]
fn encode_e8m0<const OPT: u8>(x: f32) -> u8 {
    let saturate = OPT & 1 == 1;
    let mode = OPT >> 1;
    let bits = x.to_bits();
    let exp = bits >> 23; // sign bit included: negatives land above 255
    let man = bits & 0x007f_ffff;
    // The code of a normal f32 2^(e-127) * 1.m is e, rounded by the mode; an f32
    // subnormal lies below 2^-126 and rounds to code 0 or 1.
    let code = if exp == 0 {
        match mode {
            0 => u32::from(man > 0x0040_0000),
            1 => 0,
            _ => u32::from(man >= 0x0060_0000),
        }
    } else {
        exp + match mode {
            0 => u32::from(man != 0),
            1 => 0,
            _ => u32::from(man >= 0x0040_0000),
        }
    };
    let positive_finite = exp < 255 && bits != 0;
    // Below 2^-127 (the f32 subnormal 0x00400000): rounding to odd keeps a value below it
    // below it, so this compares the original value.
    let below_min = bits < 0x0040_0000;
    let above_max = exp == 254 && man != 0 || exp == 255 && man == 0; // > 2^127 or +inf
    if x.is_nan() {
        0xff
    } else if saturate {
        if bits >> 31 == 1 || bits == 0 {
            0x00
        } else if above_max {
            0xfe
        } else {
            code.min(0xfe) as u8
        }
    } else if !positive_finite || above_max || below_min {
        0xff
    } else {
        code as u8
    }
}

/// Encodes a float format's code from a value rounded to f32 to odd: round to nearest
/// even with gradual underflow, then the format's overflow, NaN and zero rules.
#[inline(always)]
pub fn encode_f32<const F: u8, const OPT: u8>(x: f32) -> u8 {
    let f = &FORMATS[F as usize];
    if f.kind == Kind::E8m0 {
        return encode_e8m0::<OPT>(x);
    }
    let saturate = OPT & 1 == 1;
    let m = f.man_bits;
    let bits = x.to_bits();
    let negative = bits >> 31 == 1;
    let abs = bits & 0x7fff_ffff;
    let shift = 23 - m;
    // Normal range: round the dropped bits to nearest even, then rebias the exponent.
    let rounded = (abs + ((1 << (shift - 1)) - 1) + ((abs >> shift) & 1)) >> shift;
    let normal = rounded.wrapping_sub(((127 - f.bias) as u32) << m);
    // Below 2^(1-bias): adding 2^(24 - bias - m) puts the format's subnormal quantum at
    // the f32 ulp, so the FPU's round-to-nearest-even does the rounding.
    let magic = f32::from_bits(((151 - f.bias - m as i32) as u32) << 23);
    let subnormal = (f32::from_bits(abs) + magic)
        .to_bits()
        .wrapping_sub(magic.to_bits());
    let min_normal = ((128 - f.bias) as u32) << 23;
    let mag = if abs < min_normal { subnormal } else { normal };
    let is_nan = abs > 0x7f80_0000;
    let overflow = abs >= 0x7f80_0000 || mag > f.max_code;
    let sign = u32::from(negative) << (f.exp_bits + m);
    let max = f.max_code;
    // The all-ones magnitude (FN's NaN), and an IEEE format's infinity and quiet NaN.
    let ones = (1 << (f.exp_bits + m)) - 1;
    let inf = ones & !((1 << m) - 1);
    let code = match f.kind {
        Kind::Ieee => {
            if is_nan {
                inf | (1 << (m - 1)) | sign
            } else if overflow {
                (if saturate { max } else { inf }) | sign
            } else {
                mag | sign
            }
        }
        Kind::Fn => {
            if is_nan {
                ones | sign
            } else if overflow {
                (if saturate { max } else { ones }) | sign
            } else {
                mag | sign
            }
        }
        Kind::Fnuz => {
            if is_nan || (overflow && !saturate) {
                ones + 1 // the negative zero's pattern
            } else if overflow {
                max | sign
            } else if mag == 0 {
                0
            } else {
                mag | sign
            }
        }
        Kind::Fp4 | Kind::Fp6 => {
            // NaN: the sign bit of the opposite sign on a zero magnitude (+NaN -> -0).
            let sign_bit = 1 << (f.exp_bits + m);
            if is_nan {
                sign ^ sign_bit
            } else if overflow {
                max | sign
            } else {
                mag | sign
            }
        }
        Kind::E8m0 | Kind::Int { .. } => unreachable!("not a float8/4/6 format"),
    };
    code as u8
}

/// A source value as the low-precision encoders need it.
pub trait LowSource: Elem {
    /// The value rounded to f32 to odd (exact whenever f32 holds it).
    fn odd_f32(self) -> f32;
    /// The value for the integer formats: integers as they are, floats rounded to the
    /// nearest even integer (NaN and infinities 0); only the low bits are kept after.
    fn int_value(self) -> i64;
}

/// Nearest-even integer of an f32, or 0 for NaN, infinities and magnitudes of 2^31 or
/// more (those are multiples of 256, so their low bits are 0 anyway).
#[inline(always)]
fn f32_int_value(x: f32) -> i64 {
    let r = x.round_ties_even();
    let inside = r.abs() < 2_147_483_648.0; // false for NaN and infinities
    let r = if inside { r } else { 0.0 };
    // SAFETY: `r` is finite and below 2^31 in magnitude.
    i64::from(unsafe { r.to_int_unchecked::<i32>() })
}

/// As [`f32_int_value`] for f64 (below 2^63; larger ones are multiples of 2048).
#[inline(always)]
fn f64_int_value(x: f64) -> i64 {
    let r = x.round_ties_even();
    let inside = r.abs() < 9_223_372_036_854_775_808.0;
    let r = if inside { r } else { 0.0 };
    // SAFETY: `r` is finite and below 2^63 in magnitude.
    unsafe { r.to_int_unchecked::<i64>() }
}

macro_rules! small_int_source {
    ($($t:ty),*) => {$(
        impl LowSource for $t {
            #[inline(always)]
            fn odd_f32(self) -> f32 {
                self as f32 // exact for 8- and 16-bit integers
            }
            #[inline(always)]
            fn int_value(self) -> i64 {
                self as i64
            }
        }
    )*};
}
small_int_source!(i8, i16, u8, u16);

macro_rules! int32_source {
    ($($t:ty),*) => {$(
        impl LowSource for $t {
            #[inline(always)]
            fn odd_f32(self) -> f32 {
                f64_to_f32_round_odd(f64::from(self)) // exact in f64
            }
            #[inline(always)]
            fn int_value(self) -> i64 {
                i64::from(self)
            }
        }
    )*};
}
int32_source!(i32, u32);

impl LowSource for i64 {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        // Rounding to odd twice is rounding to odd once at the narrower width.
        f64_to_f32_round_odd(i64_to_f64_round_odd(self))
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        self
    }
}

impl LowSource for u64 {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        f64_to_f32_round_odd(u64_to_f64_round_odd(self))
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        self as i64 // the low bits are what counts
    }
}

impl LowSource for Bool {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        f32::from(u8::from(self.0 != 0))
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        i64::from(self.0 != 0)
    }
}

impl LowSource for f32 {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        self
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        f32_int_value(self)
    }
}

impl LowSource for f64 {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        f64_to_f32_round_odd(self)
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        f64_int_value(self)
    }
}

impl LowSource for f16 {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        f16_bits_to_f32(self.to_bits())
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        f32_int_value(self.odd_f32())
    }
}

impl LowSource for bf16 {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        bf16_bits_to_f32(self.to_bits())
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        f32_int_value(self.odd_f32())
    }
}

impl LowSource for C64 {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        self.re
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        f32_int_value(self.re)
    }
}

impl LowSource for C128 {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        f64_to_f32_round_odd(self.re)
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        f64_int_value(self.re)
    }
}

/// One code of low-precision format `F`, one per byte.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Code<const F: u8>(pub u8);

impl<const F: u8> Elem for Code<F> {
    const SIZE: usize = 1;
    #[inline(always)]
    fn load(bytes: &[u8]) -> Self {
        Code(bytes[0])
    }
    #[inline(always)]
    fn store(self, bytes: &mut [u8]) {
        bytes[0] = self.0;
    }
}

impl<const F: u8> LowSource for Code<F> {
    #[inline(always)]
    fn odd_f32(self) -> f32 {
        match FORMATS[F as usize].kind {
            Kind::Int { .. } => f32::from(decode_int::<F>(self.0)),
            _ => decode_f32::<F>(self.0),
        }
    }
    #[inline(always)]
    fn int_value(self) -> i64 {
        match FORMATS[F as usize].kind {
            Kind::Int { .. } => i64::from(decode_int::<F>(self.0)),
            _ => f32_int_value(decode_f32::<F>(self.0)),
        }
    }
}

/// Converts a source element to a code of format `F` compiled for options `OPT`.
#[inline(always)]
pub fn to_code<S: LowSource, const F: u8, const OPT: u8>(s: S) -> u8 {
    let f = &FORMATS[F as usize];
    match f.kind {
        Kind::Int { .. } => (s.int_value() as u8) & ((1u8 << f.bits) - 1),
        _ => encode_f32::<F, OPT>(s.odd_f32()),
    }
}

/// Encodes an f64 into format `format` with option bits `opt` (runtime dispatch, for
/// the per-element string paths).
pub fn encode_f64(format: u8, opt: u8, x: f64) -> u8 {
    struct Encode(f64);
    impl OptionsVisitor for Encode {
        type Out = u8;
        fn visit<const F: u8, const OPT: u8>(self) -> u8 {
            to_code::<f64, F, OPT>(self.0)
        }
    }
    by_format_and_options(format, opt, Encode(x))
}

/// The exact value of a code of format `format` (runtime dispatch).
pub fn decode_f64(format: u8, code: u8) -> f64 {
    struct Decode(u8);
    impl FormatVisitor for Decode {
        type Out = f64;
        fn visit<const F: u8>(self) -> f64 {
            match FORMATS[F as usize].kind {
                Kind::Int { .. } => f64::from(decode_int::<F>(self.0)),
                _ => f64::from(decode_f32::<F>(self.0)),
            }
        }
    }
    by_format(format, Decode(code))
}
