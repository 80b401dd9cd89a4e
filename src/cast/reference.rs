// SPDX-License-Identifier: MIT OR Apache-2.0
//! The exact per-element semantics of the numeric casts (`docs/semantics-cast.md` sections
//! 2-3), written with integer arithmetic only: no float conversion instruction is
//! involved, so the kernels can be tested against it. Slow by design, and compiled for the
//! tests only (`src/cast/tests.rs`, `src/cast/lowp_tests.rs`): the library does not ship it.

use crate::dtype::Scalar;

/// An IEEE-754-style binary format with infinities and NaNs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ieee {
    pub exp_bits: u32,
    pub man_bits: u32,
}

pub const BINARY16: Ieee = Ieee::with(5, 10);
pub const BFLOAT16: Ieee = Ieee::with(8, 7);
pub const BINARY32: Ieee = Ieee::with(8, 23);
pub const BINARY64: Ieee = Ieee::with(11, 52);

/// A real value exactly as the source held it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Exact {
    /// An integer or BOOL source.
    Int(i128),
    /// NaN: its sign and its mantissa field (`man_bits` wide).
    Nan {
        neg: bool,
        payload: u64,
        man_bits: u32,
    },
    Inf {
        neg: bool,
    },
    /// (-1)^neg * mant * 2^exp.
    Finite {
        neg: bool,
        mant: u64,
        exp: i32,
    },
}

impl Ieee {
    /// The format of `exp_bits` exponent and `man_bits` mantissa bits.
    const fn with(exp_bits: u32, man_bits: u32) -> Ieee {
        Ieee { exp_bits, man_bits }
    }

    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    fn exp_mask(self) -> u64 {
        (1 << self.exp_bits) - 1
    }

    /// The exact value of an encoding.
    pub fn decode(self, bits: u64) -> Exact {
        let m = self.man_bits;
        let neg = (bits >> (m + self.exp_bits)) & 1 == 1;
        let field = (bits >> m) & self.exp_mask();
        let frac = bits & ((1 << m) - 1);
        if field == self.exp_mask() {
            if frac == 0 {
                Exact::Inf { neg }
            } else {
                Exact::Nan {
                    neg,
                    payload: frac,
                    man_bits: m,
                }
            }
        } else if field == 0 {
            Exact::Finite {
                neg,
                mant: frac,
                exp: 1 - self.bias() - m as i32,
            }
        } else {
            Exact::Finite {
                neg,
                mant: frac | (1 << m),
                exp: field as i32 - self.bias() - m as i32,
            }
        }
    }

    /// Rounds an exact value to this format: nearest, ties to even, gradual underflow,
    /// overflow to infinity; NaN keeps its sign and top payload bits and is made quiet.
    pub fn encode(self, value: Exact) -> u64 {
        let m = self.man_bits;
        let sign_bit = 1u64 << (m + self.exp_bits);
        let inf = self.exp_mask() << m;
        let (neg, mant, exp) = match value {
            Exact::Nan {
                neg,
                payload,
                man_bits,
            } => {
                let moved = if man_bits >= m {
                    payload >> (man_bits - m)
                } else {
                    payload << (m - man_bits)
                };
                return if neg { sign_bit } else { 0 } | inf | (1 << (m - 1)) | moved;
            }
            Exact::Inf { neg } => return if neg { sign_bit | inf } else { inf },
            Exact::Int(v) => (
                v < 0,
                u64::try_from(v.unsigned_abs()).expect("64-bit source"),
                0,
            ),
            Exact::Finite { neg, mant, exp } => (neg, mant, exp),
        };
        let sign = if neg { sign_bit } else { 0 };
        if mant == 0 {
            return sign;
        }
        let emin = 1 - self.bias();
        let top = 63 - mant.leading_zeros() as i32 + exp;
        if top > self.bias() {
            return sign | inf;
        }
        // The weight of the last kept bit, then the significand in units of it.
        let quantum = top.max(emin) - m as i32;
        let sig = round_half_even(u128::from(mant), exp - quantum);
        let bits = (((quantum + m as i32 + self.bias() - 1) as u64) << m) + sig as u64;
        if bits >= inf {
            sign | inf
        } else {
            sign | bits
        }
    }
}

/// `value * 2^shift` rounded to an integer, ties to even.
fn round_half_even(value: u128, shift: i32) -> u128 {
    if shift >= 0 {
        return value << shift;
    }
    let down = shift.unsigned_abs();
    if down >= 128 {
        return 0;
    }
    let kept = value >> down;
    let rest = value & ((1u128 << down) - 1);
    let half = 1u128 << (down - 1);
    if rest > half || (rest == half && kept & 1 == 1) {
        kept + 1
    } else {
        kept
    }
}

/// The value truncated toward zero as an integer (saturated far outside i128).
fn truncate(value: Exact) -> Option<i128> {
    match value {
        Exact::Int(v) => Some(v),
        Exact::Nan { .. } => None,
        Exact::Inf { neg } => Some(if neg { i128::MIN } else { i128::MAX }),
        Exact::Finite { neg, mant, exp } => {
            let magnitude = if exp >= 64 {
                i128::MAX
            } else if exp >= 0 {
                (i128::from(mant)) << exp
            } else if exp <= -64 {
                0
            } else {
                i128::from(mant >> exp.unsigned_abs())
            };
            Some(if neg { -magnitude } else { magnitude })
        }
    }
}

fn is_nonzero(value: Exact) -> bool {
    match value {
        Exact::Int(v) => v != 0,
        Exact::Finite { mant, .. } => mant != 0,
        Exact::Nan { .. } | Exact::Inf { .. } => true,
    }
}

/// Integer target of `bits` width: integers wrap, floats truncate and saturate, NaN is 0.
fn to_int(value: Exact, bits: u32, signed: bool) -> u64 {
    let mask: u128 = if bits == 64 {
        u128::from(u64::MAX)
    } else {
        (1u128 << bits) - 1
    };
    match value {
        Exact::Int(v) => (v as u128 & mask) as u64,
        other => {
            let Some(t) = truncate(other) else { return 0 };
            let (lo, hi) = if signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            (t.clamp(lo, hi) as u128 & mask) as u64
        }
    }
}

/// An element's bits as one number. Each part (the whole element, or a complex
/// number's real and imaginary parts, real first) is `part` bytes in the host's byte
/// order (docs/c-api.md section 4); part k lands in bits `[k * 8 * part, (k + 1) * 8 * part)`.
fn read(bytes: &[u8], part: usize) -> u128 {
    bytes
        .chunks_exact(part)
        .enumerate()
        .fold(0, |bits, (k, chunk)| {
            bits | (read_part(chunk) << (8 * part * k))
        })
}

/// [`read`]'s inverse: writes `value` as `bytes.len() / part` parts of `part` bytes.
fn write(value: u128, bytes: &mut [u8], part: usize) {
    for (k, chunk) in bytes.chunks_exact_mut(part).enumerate() {
        write_part(value >> (8 * part * k), chunk);
    }
}

/// One number of 1 to 16 bytes in the host's byte order.
fn read_part(bytes: &[u8]) -> u128 {
    let n = bytes.len();
    let mut raw = [0u8; 16];
    if cfg!(target_endian = "big") {
        raw[16 - n..].copy_from_slice(bytes);
    } else {
        raw[..n].copy_from_slice(bytes);
    }
    u128::from_ne_bytes(raw)
}

/// The low `bytes.len()` bytes of `value` in the host's byte order.
fn write_part(value: u128, bytes: &mut [u8]) {
    let n = bytes.len();
    let raw = value.to_ne_bytes();
    if cfg!(target_endian = "big") {
        bytes.copy_from_slice(&raw[16 - n..]);
    } else {
        bytes.copy_from_slice(&raw[..n]);
    }
}

/// Sign-extends the low `bits` of `raw`.
fn signed(raw: u128, bits: u32) -> i128 {
    ((raw << (128 - bits)) as i128) >> (128 - bits)
}

/// The exact value(s) of one source element: the real part, and the imaginary part of
/// complex sources.
pub fn decode(from: Scalar, bytes: &[u8]) -> (Exact, Option<Exact>) {
    let raw = read(bytes, part_of(from).size());
    let real = match from {
        Scalar::Bool => Exact::Int(i128::from(raw != 0)),
        Scalar::I8 => Exact::Int(signed(raw, 8)),
        Scalar::I16 => Exact::Int(signed(raw, 16)),
        Scalar::I32 => Exact::Int(signed(raw, 32)),
        Scalar::I64 => Exact::Int(signed(raw, 64)),
        Scalar::U8 | Scalar::U16 | Scalar::U32 | Scalar::U64 => Exact::Int(raw as i128),
        Scalar::F16 => BINARY16.decode(raw as u64),
        Scalar::Bf16 => BFLOAT16.decode(raw as u64),
        Scalar::F32 => BINARY32.decode(raw as u64),
        Scalar::F64 => BINARY64.decode(raw as u64),
        Scalar::C64 => {
            let re = BINARY32.decode(raw as u64 & 0xffff_ffff);
            return (re, Some(BINARY32.decode((raw >> 32) as u64 & 0xffff_ffff)));
        }
        Scalar::C128 => {
            let re = BINARY64.decode(raw as u64);
            return (re, Some(BINARY64.decode((raw >> 64) as u64)));
        }
    };
    (real, None)
}

/// Encodes a real value into a non-complex target's bits.
fn encode_real(to: Scalar, value: Exact) -> u128 {
    u128::from(match to {
        Scalar::Bool => u64::from(is_nonzero(value)),
        Scalar::I8 => to_int(value, 8, true),
        Scalar::I16 => to_int(value, 16, true),
        Scalar::I32 => to_int(value, 32, true),
        Scalar::I64 => to_int(value, 64, true),
        Scalar::U8 => to_int(value, 8, false),
        Scalar::U16 => to_int(value, 16, false),
        Scalar::U32 => to_int(value, 32, false),
        Scalar::U64 => to_int(value, 64, false),
        Scalar::F16 => BINARY16.encode(value),
        Scalar::Bf16 => BFLOAT16.encode(value),
        Scalar::F32 => BINARY32.encode(value),
        Scalar::F64 => BINARY64.encode(value),
        Scalar::C64 | Scalar::C128 => unreachable!("complex targets are encoded by parts"),
    })
}

/// Writes an exact real value as a `to` element (complex targets get a zero imaginary
/// part).
pub fn store_exact(value: Exact, to: Scalar, dst: &mut [u8]) {
    let zero = Exact::Int(0);
    let out = match to {
        Scalar::C64 => encode_real(Scalar::F32, value) | (encode_real(Scalar::F32, zero) << 32),
        Scalar::C128 => encode_real(Scalar::F64, value) | (encode_real(Scalar::F64, zero) << 64),
        _ => encode_real(to, value),
    };
    write(out, dst, part_of(to).size());
}

/// The real format inside a complex type.
fn part_of(s: Scalar) -> Scalar {
    match s {
        Scalar::C64 => Scalar::F32,
        Scalar::C128 => Scalar::F64,
        other => other,
    }
}

/// Casts one element: `src` holds `from.size()` bytes, `dst` receives `to.size()` bytes.
/// A value whose format does not change is copied (a same-dtype cast, or the real part
/// moving between FLOAT and COMPLEX64 / DOUBLE and COMPLEX128), NaN payloads included.
pub fn cast_element(from: Scalar, to: Scalar, src: &[u8], dst: &mut [u8]) {
    if from == to {
        dst.copy_from_slice(src);
        return;
    }
    let (re, im) = decode(from, src);
    let zero = Exact::Int(0);
    let same_part = part_of(from) == part_of(to);
    let real_part = |target: Scalar| {
        if same_part {
            read(&src[..target.size()], target.size())
        } else {
            encode_real(target, re)
        }
    };
    let out = match to {
        Scalar::C64 => {
            real_part(Scalar::F32) | (encode_real(Scalar::F32, im.unwrap_or(zero)) << 32)
        }
        Scalar::C128 => {
            real_part(Scalar::F64) | (encode_real(Scalar::F64, im.unwrap_or(zero)) << 64)
        }
        Scalar::Bool => u128::from(is_nonzero(re) || im.is_some_and(is_nonzero)),
        _ => real_part(to),
    };
    write(out, dst, part_of(to).size());
}

// ---- low-precision formats (docs/semantics-cast.md sections 4-7) ---------------------------

use crate::formats::lowp::{Kind, FORMATS};

/// The exact value of a low-precision code. NaN codes give a quiet NaN with the code's
/// sign (payload: the quiet bit only).
pub fn low_decode(format: u8, code: u8) -> Exact {
    let f = &FORMATS[format as usize];
    let quiet_nan = |neg| Exact::Nan {
        neg,
        payload: 1 << 22,
        man_bits: 23,
    };
    match f.kind {
        Kind::Int { signed } => {
            let v = i128::from(code);
            Exact::Int(if signed && v >= 1 << (f.bits - 1) {
                v - (1 << f.bits)
            } else {
                v
            })
        }
        Kind::E8m0 => match code {
            0xff => quiet_nan(false),
            _ => Exact::Finite {
                neg: false,
                mant: 1,
                exp: i32::from(code) - 127,
            },
        },
        kind => {
            let m = f.man_bits;
            let neg = (code >> (f.exp_bits + m)) & 1 == 1;
            let mag = u32::from(code) & ((1 << (f.exp_bits + m)) - 1);
            let field = mag >> m;
            let frac = u64::from(mag & ((1 << m) - 1));
            let top_field = (1 << f.exp_bits) - 1;
            let nan = match kind {
                Kind::Fn => mag == (1 << (f.exp_bits + m)) - 1,
                Kind::Fnuz => u32::from(code) == 1 << (f.exp_bits + m),
                Kind::Ieee => field == top_field && frac != 0,
                _ => false,
            };
            if nan {
                quiet_nan(neg)
            } else if kind == Kind::Ieee && field == top_field {
                Exact::Inf { neg }
            } else if field == 0 {
                Exact::Finite {
                    neg,
                    mant: frac,
                    exp: 1 - f.bias - m as i32,
                }
            } else {
                Exact::Finite {
                    neg,
                    mant: frac | (1 << m),
                    exp: field as i32 - f.bias - m as i32,
                }
            }
        }
    }
}

/// (negative, magnitude, exponent) of a finite value, integers included.
fn finite_parts(value: Exact) -> Option<(bool, u64, i32)> {
    match value {
        Exact::Int(v) => Some((
            v < 0,
            u64::try_from(v.unsigned_abs()).expect("64-bit source"),
            0,
        )),
        Exact::Finite { neg, mant, exp } => Some((neg, mant, exp)),
        _ => None,
    }
}

/// FLOAT8E8M0 per section 5.
fn e8m0_encode(saturate: bool, round_mode: u8, value: Exact) -> u8 {
    let nan_or = |sat_code: u8| if saturate { sat_code } else { 0xff };
    let (neg, mant, exp) = match value {
        Exact::Nan { .. } => return 0xff,
        Exact::Inf { neg } => return nan_or(if neg { 0x00 } else { 0xfe }),
        other => finite_parts(other).expect("finite"),
    };
    if neg || mant == 0 {
        return nan_or(0x00);
    }
    let t = 63 - mant.leading_zeros() as i32; // mant = 1.xxx * 2^t
    let top = t + exp; // floor(log2 x)
    let power_of_two = mant.is_power_of_two();
    if top > 127 || (top == 127 && !power_of_two) {
        return nan_or(0xfe);
    }
    if top < -127 {
        return nan_or(0x00);
    }
    let at_least_tie = t >= 1 && u128::from(mant) >= 3u128 << (t - 1);
    let step = match round_mode {
        0 => i32::from(!power_of_two),
        1 => 0,
        _ => i32::from(at_least_tie),
    };
    (top + 127 + step) as u8
}

/// A low-precision code for an exact value under `saturate` and `round_mode`.
pub fn low_encode(format: u8, saturate: bool, round_mode: u8, value: Exact) -> u8 {
    let f = &FORMATS[format as usize];
    let m = f.man_bits;
    // (Unused by FLOAT8E8M0 and the integer formats, which have no sign bit here.)
    let sign_bit = (1u32 << (f.exp_bits + m)) as u8;
    let max = f.max_code as u8;
    // The all-ones magnitude (FN's NaN), and an IEEE format's infinity and quiet NaN.
    let ones = sign_bit.wrapping_sub(1);
    let inf = ones & !((1u8 << m) - 1);
    let quiet_nan = if m > 0 { inf | (1 << (m - 1)) } else { inf };
    match f.kind {
        Kind::Int { .. } => {
            let mask = (1u128 << f.bits) - 1;
            let integer = match value {
                Exact::Int(v) => v,
                Exact::Nan { .. } | Exact::Inf { .. } => 0,
                // From 2^64 up a float is a multiple of 2^64: its low bits are 0.
                Exact::Finite { exp, .. } if exp >= 64 => 0,
                Exact::Finite { neg, mant, exp } => {
                    let r = round_half_even(u128::from(mant), exp) as i128;
                    if neg {
                        -r
                    } else {
                        r
                    }
                }
            };
            (integer as u128 & mask) as u8
        }
        Kind::E8m0 => e8m0_encode(saturate, round_mode, value),
        kind => {
            let overflow = |neg: bool| -> u8 {
                let sign = if neg { sign_bit } else { 0 };
                match kind {
                    Kind::Fnuz if !saturate => sign_bit,
                    Kind::Fn if !saturate => ones | sign,
                    Kind::Ieee if !saturate => inf | sign,
                    _ => max | sign,
                }
            };
            let (neg, mant, exp) = match value {
                Exact::Nan { neg, .. } => {
                    return match kind {
                        Kind::Fn => ones | if neg { sign_bit } else { 0 },
                        Kind::Ieee => quiet_nan | if neg { sign_bit } else { 0 },
                        Kind::Fnuz => sign_bit,
                        // FLOAT4E2M1 and FLOAT6: +NaN -> -0, -NaN -> +0.
                        _ => {
                            if neg {
                                0
                            } else {
                                sign_bit
                            }
                        }
                    };
                }
                Exact::Inf { neg } => return overflow(neg),
                other => finite_parts(other).expect("finite"),
            };
            let sign = if neg { sign_bit } else { 0 };
            let zero = match kind {
                Kind::Fnuz => 0,
                _ => sign,
            };
            if mant == 0 {
                return zero;
            }
            let emin = 1 - f.bias;
            let top = 63 - mant.leading_zeros() as i32 + exp;
            if top > f.bias + 2 {
                return overflow(neg);
            }
            let quantum = top.max(emin) - m as i32;
            let sig = round_half_even(u128::from(mant), exp - quantum) as u32;
            let mag = (((quantum + m as i32 + f.bias - 1) as u32) << m) + sig;
            if mag > f.max_code {
                overflow(neg)
            } else if mag == 0 {
                zero
            } else {
                mag as u8 | sign
            }
        }
    }
}
