// SPDX-License-Identifier: MIT OR Apache-2.0
//! Per-element conversions the kernels are built from: branch-free formulations of the
//! rules in `docs/semantics-cast.md` sections 2-3 that the compiler can vectorise. The exact,
//! slow statement of the same rules is `src/cast/reference.rs`; tests hold the two
//! together.
//!
//! Rounding happens once, from the exact source value. Narrowing from f64 to f16/bf16
//! first rounds to f32 *to odd* (truncate, then set the last bit if anything was lost);
//! f32 keeps at least two more bits than either target, so the final round-to-nearest-even
//! gives the correctly rounded result.

use super::elem::{Bool, C128, C64};
use half::{bf16, f16};

/// Converts one element to `D` by the cast rules.
pub trait CastTo<D> {
    fn cast_to(self) -> D;
}

// ---- float helpers -------------------------------------------------------------------

/// f32 -> binary16 bits, round to nearest even; NaN keeps its sign and top payload bits
/// and becomes quiet; overflow gives infinity; subnormals are kept.
#[inline(always)]
pub const fn f32_to_f16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = (bits >> 16) & 0x8000;
    let abs = bits & 0x7fff_ffff;
    // Normal range: rebias the exponent (127 -> 15) and round the 13 dropped bits.
    let normal = (abs.wrapping_add(0x0fff + ((abs >> 13) & 1)) >> 13).wrapping_sub(112 << 10);
    // Below 2^-14: adding 0.5 puts the f16 subnormal unit (2^-24) at the f32 ulp, so the
    // FPU's own round-to-nearest-even does the rounding; the low bits are the result.
    let subnormal = (f32::from_bits(abs) + 0.5)
        .to_bits()
        .wrapping_sub(0x3f00_0000);
    let magnitude = if abs > 0x7f80_0000 {
        0x7e00 | ((abs >> 13) & 0x03ff)
    } else if abs >= 0x477f_f000 {
        // 65520 and above round to infinity.
        0x7c00
    } else if abs < 0x3880_0000 {
        subnormal
    } else {
        normal
    };
    (magnitude | sign) as u16
}

/// binary16 bits -> f32, exact; NaN becomes quiet with its payload kept.
#[inline(always)]
pub fn f16_bits_to_f32(h: u16) -> f32 {
    let h = u32::from(h);
    let sign = (h & 0x8000) << 16;
    let abs = h & 0x7fff;
    let normal = (abs << 13) + (112 << 23);
    // A subnormal (or zero) is its 10-bit integer times 2^-24: exact in f32.
    let subnormal = (abs as f32 * f32::from_bits(0x3380_0000)).to_bits();
    let special = (abs << 13) | 0x7f80_0000 | if abs > 0x7c00 { 0x0040_0000 } else { 0 };
    let magnitude = if abs >= 0x7c00 {
        special
    } else if abs < 0x0400 {
        subnormal
    } else {
        normal
    };
    f32::from_bits(magnitude | sign)
}

/// f32 -> bfloat16 bits, round to nearest even (never truncation); NaN quiet, sign kept.
#[inline(always)]
pub const fn f32_to_bf16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    if bits & 0x7fff_ffff > 0x7f80_0000 {
        ((bits >> 16) | 0x0040) as u16
    } else {
        (bits.wrapping_add(0x7fff + ((bits >> 16) & 1)) >> 16) as u16
    }
}

/// bfloat16 bits -> f32, exact; NaN becomes quiet.
#[inline(always)]
pub fn bf16_bits_to_f32(b: u16) -> f32 {
    let bits = u32::from(b) << 16;
    let quiet = if bits & 0x7fff_ffff > 0x7f80_0000 {
        0x0040_0000
    } else {
        0
    };
    f32::from_bits(bits | quiet)
}

/// f64 -> f32 rounded to nearest even; NaN keeps its sign and top payload bits, quiet.
#[inline(always)]
pub fn f64_to_f32(x: f64) -> f32 {
    let bits = x.to_bits();
    let nan = f32::from_bits(
        ((bits >> 32) as u32 & 0x8000_0000) | 0x7fc0_0000 | ((bits >> 29) as u32 & 0x007f_ffff),
    );
    if x.is_nan() {
        nan
    } else {
        x as f32
    }
}

/// f64 -> f32 rounded to odd: the truncated value, with the last bit set when the
/// conversion was inexact. Rounding that again to a format at least two bits narrower
/// gives the correctly rounded result of the original.
#[inline(always)]
pub fn f64_to_f32_round_odd(x: f64) -> f32 {
    let nearest = f64_to_f32(x);
    let back = nearest as f64;
    let overshoot = u32::from(back.abs() > x.abs());
    let inexact = u32::from(back != x);
    f32::from_bits((nearest.to_bits() - overshoot) | inexact)
}

/// i64 -> f64 rounded to odd (see [`f64_to_f32_round_odd`]).
#[inline(always)]
pub fn i64_to_f64_round_odd(v: i64) -> f64 {
    let nearest = v as f64;
    // An f64 made from an i64 is an integer of at most 2^63: exact in i128.
    let back = nearest as i128;
    let overshoot = u64::from(back.unsigned_abs() > i128::from(v).unsigned_abs());
    let inexact = u64::from(back != i128::from(v));
    f64::from_bits((nearest.to_bits() - overshoot) | inexact)
}

/// u64 -> f64 rounded to odd (see [`f64_to_f32_round_odd`]).
#[inline(always)]
pub fn u64_to_f64_round_odd(v: u64) -> f64 {
    let nearest = v as f64;
    let back = nearest as u128;
    let overshoot = u64::from(back > u128::from(v));
    let inexact = u64::from(back != u128::from(v));
    f64::from_bits((nearest.to_bits() - overshoot) | inexact)
}

#[inline(always)]
pub fn f64_to_f16_bits(x: f64) -> u16 {
    f32_to_f16_bits(f64_to_f32_round_odd(x))
}

#[inline(always)]
pub fn f64_to_bf16_bits(x: f64) -> u16 {
    f32_to_bf16_bits(f64_to_f32_round_odd(x))
}

// ---- float -> integer: truncate, saturate, NaN -> 0 -----------------------------------

/// Float -> integer in a form that vectorises: clamp in the float domain, convert
/// unchecked, then patch the top end (the integer maximum is not always a float) and NaN.
macro_rules! float_to_int {
    ($f:ty => $($i:ty),*) => {$(
        impl CastTo<$i> for $f {
            #[inline(always)]
            fn cast_to(self) -> $i {
                const LOW: $f = <$i>::MIN as $f;
                // MAX + 1: 2^bits (unsigned) or 2^(bits-1) (signed), exact in every float.
                const LIMIT: $f = <$i>::MAX as $f + 1.0;
                const BELOW_LIMIT: $f = <$f>::from_bits(LIMIT.to_bits() - 1);
                let clamped = self.max(LOW).min(BELOW_LIMIT);
                // SAFETY: `clamped` lies in [MIN, 2^bits) and is not NaN (max() returns
                // LOW for NaN), so truncation toward zero is in range.
                let value: $i = unsafe { clamped.to_int_unchecked() };
                let value = if self >= LIMIT { <$i>::MAX } else { value };
                if self.is_nan() { 0 } else { value }
            }
        }
    )*};
}
float_to_int!(f32 => i8, i16, i32, i64, u8, u16, u32, u64);
float_to_int!(f64 => i8, i16, i32, i64, u8, u16, u32, u64);

// ---- f32 and f64 sources --------------------------------------------------------------

macro_rules! float_common {
    ($($f:ty),*) => {$(
        impl CastTo<Bool> for $f {
            #[inline(always)]
            fn cast_to(self) -> Bool {
                Bool(u8::from(self != 0.0))
            }
        }
        impl CastTo<C64> for $f {
            #[inline(always)]
            fn cast_to(self) -> C64 {
                C64 { re: self.cast_to(), im: 0.0 }
            }
        }
        impl CastTo<C128> for $f {
            #[inline(always)]
            fn cast_to(self) -> C128 {
                C128 { re: self.cast_to(), im: 0.0 }
            }
        }
    )*};
}
float_common!(f32, f64);

impl CastTo<f32> for f32 {
    #[inline(always)]
    fn cast_to(self) -> f32 {
        self
    }
}
impl CastTo<f64> for f32 {
    #[inline(always)]
    fn cast_to(self) -> f64 {
        f64::from(self)
    }
}
impl CastTo<f16> for f32 {
    #[inline(always)]
    fn cast_to(self) -> f16 {
        f16::from_bits(f32_to_f16_bits(self))
    }
}
impl CastTo<bf16> for f32 {
    #[inline(always)]
    fn cast_to(self) -> bf16 {
        bf16::from_bits(f32_to_bf16_bits(self))
    }
}
impl CastTo<f32> for f64 {
    #[inline(always)]
    fn cast_to(self) -> f32 {
        f64_to_f32(self)
    }
}
impl CastTo<f64> for f64 {
    #[inline(always)]
    fn cast_to(self) -> f64 {
        self
    }
}
impl CastTo<f16> for f64 {
    #[inline(always)]
    fn cast_to(self) -> f16 {
        f16::from_bits(f64_to_f16_bits(self))
    }
}
impl CastTo<bf16> for f64 {
    #[inline(always)]
    fn cast_to(self) -> bf16 {
        bf16::from_bits(f64_to_bf16_bits(self))
    }
}

// ---- f16 and bf16 sources: widen exactly to f32, then apply the f32 rule ---------------

macro_rules! via_f32 {
    ($src:ty, $widen:expr => $($d:ty),*) => {$(
        impl CastTo<$d> for $src {
            #[inline(always)]
            fn cast_to(self) -> $d {
                let widened: f32 = $widen(self.to_bits());
                widened.cast_to()
            }
        }
    )*};
}
via_f32!(f16, f16_bits_to_f32 => i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, bf16, Bool, C64, C128);
via_f32!(bf16, bf16_bits_to_f32 => i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, f16, Bool, C64, C128);

impl CastTo<f16> for f16 {
    #[inline(always)]
    fn cast_to(self) -> f16 {
        self
    }
}
impl CastTo<bf16> for bf16 {
    #[inline(always)]
    fn cast_to(self) -> bf16 {
        self
    }
}

// ---- integer sources -----------------------------------------------------------------

/// Integer -> integer keeps the low bits (two's complement wrap); integer -> f32/f64
/// rounds to nearest even (Rust's `as` does both exactly).
macro_rules! int_as {
    ($s:ty => $($d:ty),*) => {$(
        impl CastTo<$d> for $s {
            #[inline(always)]
            fn cast_to(self) -> $d {
                self as $d
            }
        }
    )*};
}

/// Integer -> f16/bf16/BOOL/complex. `$exact` widens to a float that holds the value
/// exactly, or rounds to odd when none does; `$narrow` rounds that once to the target.
macro_rules! int_to_rest {
    ($s:ty, f16 via $f16:expr, bf16 via $bf16:expr) => {
        int_as!($s => i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
        impl CastTo<f16> for $s {
            #[inline(always)]
            fn cast_to(self) -> f16 {
                f16::from_bits($f16(self))
            }
        }
        impl CastTo<bf16> for $s {
            #[inline(always)]
            fn cast_to(self) -> bf16 {
                bf16::from_bits($bf16(self))
            }
        }
        impl CastTo<Bool> for $s {
            #[inline(always)]
            fn cast_to(self) -> Bool {
                Bool(u8::from(self != 0))
            }
        }
        impl CastTo<C64> for $s {
            #[inline(always)]
            fn cast_to(self) -> C64 {
                C64 { re: self.cast_to(), im: 0.0 }
            }
        }
        impl CastTo<C128> for $s {
            #[inline(always)]
            fn cast_to(self) -> C128 {
                C128 { re: self.cast_to(), im: 0.0 }
            }
        }
    };
}
// Up to 16 bits an integer is exact in f32; up to 32 bits in f64. For f16 every integer
// of magnitude 65520 or more rounds to infinity (65520 is the tie between f16's largest,
// 65504, and the next step, 65536, and goes to the even one, infinity): clamped to
// +-65536, which is exact in f32 and rounds to infinity too, any integer is exact in f32
// and rounded once, and the loop stays vectorisable.
int_to_rest!(i8, f16 via |v: i8| f32_to_f16_bits(v as f32), bf16 via |v: i8| f32_to_bf16_bits(v as f32));
int_to_rest!(u8, f16 via |v: u8| f32_to_f16_bits(v as f32), bf16 via |v: u8| f32_to_bf16_bits(v as f32));
int_to_rest!(i16, f16 via |v: i16| f32_to_f16_bits(v as f32), bf16 via |v: i16| f32_to_bf16_bits(v as f32));
int_to_rest!(u16, f16 via |v: u16| f32_to_f16_bits(v as f32), bf16 via |v: u16| f32_to_bf16_bits(v as f32));
int_to_rest!(i32, f16 via |v: i32| f32_to_f16_bits(v.clamp(-65536, 65536) as f32), bf16 via |v: i32| f64_to_bf16_bits(v as f64));
int_to_rest!(u32, f16 via |v: u32| f32_to_f16_bits(v.min(65536) as f32), bf16 via |v: u32| f64_to_bf16_bits(v as f64));
int_to_rest!(i64, f16 via |v: i64| f32_to_f16_bits(v.clamp(-65536, 65536) as f32), bf16 via |v: i64| f64_to_bf16_bits(i64_to_f64_round_odd(v)));
int_to_rest!(u64, f16 via |v: u64| f32_to_f16_bits(v.min(65536) as f32), bf16 via |v: u64| f64_to_bf16_bits(u64_to_f64_round_odd(v)));

// ---- BOOL source: 0 or 1 ---------------------------------------------------------------

macro_rules! bool_to {
    ($($d:ty),*) => {$(
        impl CastTo<$d> for Bool {
            #[inline(always)]
            fn cast_to(self) -> $d {
                u8::from(self.0 != 0).cast_to()
            }
        }
    )*};
}
bool_to!(i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, Bool, C64, C128);

// ---- complex sources: the real part (numpy's astype); BOOL tests both parts ------------

macro_rules! complex_to_real {
    ($c:ty => $($d:ty),*) => {$(
        impl CastTo<$d> for $c {
            #[inline(always)]
            fn cast_to(self) -> $d {
                self.re.cast_to()
            }
        }
    )*};
}
complex_to_real!(C64 => i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64);
complex_to_real!(C128 => i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64);

macro_rules! complex_to_complex {
    ($($c:ty),*) => {$(
        impl CastTo<Bool> for $c {
            #[inline(always)]
            fn cast_to(self) -> Bool {
                Bool(u8::from(self.re != 0.0 || self.im != 0.0))
            }
        }
        impl CastTo<C64> for $c {
            #[inline(always)]
            fn cast_to(self) -> C64 {
                C64 { re: self.re.cast_to(), im: self.im.cast_to() }
            }
        }
        impl CastTo<C128> for $c {
            #[inline(always)]
            fn cast_to(self) -> C128 {
                C128 { re: self.re.cast_to(), im: self.im.cast_to() }
            }
        }
    )*};
}
complex_to_complex!(C64, C128);
