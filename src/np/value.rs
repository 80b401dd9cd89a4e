// SPDX-License-Identifier: MIT OR Apache-2.0
//! Value-based casting of scalars (docs/semantics-can-cast.md section 5): numpy 1.22's
//! `min_scalar_type` and `can_cast_scalar_to`, and numpy 2's refusal of Python scalars.

use super::dtype::{Kind, NpDtype, Order, Shape};
use super::level::level;
use super::rules::NumpyRules;
use crate::error::Error;
use crate::np::casting::Casting;
use crate::simd::fpenv::DefaultFpEnv;

/// numpy 2's TypeError for Python scalars in `can_cast`.
pub const PYTHON_SCALAR_REFUSED: &str = "can_cast() does not support Python ints, floats, and \
     complex because the result used to depend on the value.\nThis change was part of adopting \
     NEP 50, we may explicitly allow them again in the future.";

/// A scalar's value, as far as `min_scalar_type` looks at it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Value {
    /// A bool.
    Bool(bool),
    /// Any integer that fits a 64-bit signed or unsigned type.
    Int(i128),
    /// A float; long doubles are truncated toward zero, which keeps every comparison with
    /// a double threshold exact.
    Float(f64),
    /// A complex number: real and imaginary parts (truncated as floats are).
    Complex(f64, f64),
    /// A value numpy does not inspect (strings, datetimes, objects, ...).
    Opaque,
}

/// A Python int given as decimal text: its value and numpy 1's array dtype for it
/// (int64, else uint64, else object).
pub fn py_int(text: &str) -> Result<(NpDtype, Value), Error> {
    let t = text.trim();
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    // Python's underscores go between digits only; they are skipped in place (no copy
    // of a text that may be megabytes long).
    let mut digit_bytes = digits.bytes().filter(|&c| c != b'_').peekable();
    if digit_bytes.peek().is_none()
        || !digits.bytes().all(|c| c.is_ascii_digit() || c == b'_')
        || digits.starts_with('_')
        || text.contains("__")
        || text.trim().ends_with('_')
    {
        return Err(Error::Parse {
            index: None,
            message: format!(
                "invalid literal for int() with base 10: {}",
                super::dtype::py_repr(text)
            ),
        });
    }
    // Up to 30 significant digits fit an i128; more are beyond every numpy integer.
    let mut magnitude = 0i128;
    let mut significant = 0;
    for c in digit_bytes.skip_while(|&c| c == b'0') {
        significant += 1;
        if significant > 30 {
            break;
        }
        magnitude = magnitude * 10 + i128::from(c - b'0');
    }
    let value = (significant <= 30).then_some(magnitude);
    let value = value.map(|v| if negative { -v } else { v });
    let code = match value {
        Some(v) if v >= i128::from(i64::MIN) && v <= i128::from(i64::MAX) => b'l',
        Some(v) if v >= 0 && v <= i128::from(u64::MAX) => b'L',
        _ => b'O',
    };
    let dtype = NpDtype::from_code(code, Order::None).expect("l/L/O are codes");
    Ok((dtype, value.map_or(Value::Opaque, Value::Int)))
}

/// Reads a numpy scalar of `dtype` from its bytes.
pub fn read_value(dtype: &NpDtype, bytes: &[u8]) -> Value {
    let _env = DefaultFpEnv::enter();
    if dtype.shape != Shape::Plain {
        return Value::Opaque;
    }
    // A numeric value's bytes (at most 16 per part) in little-endian order, on the stack.
    let ordered = |b: &[u8]| -> ([u8; 16], usize) {
        let n = b.len().min(16);
        let mut v = [0u8; 16];
        v[..n].copy_from_slice(&b[..n]);
        if dtype.order == Order::Big {
            v[..n].reverse();
        }
        (v, n)
    };
    let float = |b: &[u8]| -> f64 {
        match b.len() {
            2 => half::f16::from_le_bytes([b[0], b[1]]).to_f64(),
            4 => f64::from(f32::from_le_bytes(b.try_into().expect("4 bytes"))),
            8 => f64::from_le_bytes(b.try_into().expect("8 bytes")),
            _ => extended_to_f64(b),
        }
    };
    match dtype.kind {
        Kind::Bool => Value::Bool(bytes.iter().any(|&b| b != 0)),
        Kind::Int | Kind::UInt => {
            let (raw, n) = ordered(bytes);
            let le = &raw[..n];
            let unsigned = u128::from_le_bytes(raw);
            let bits = 8 * le.len() as u32;
            let v = if dtype.kind == Kind::Int && bits < 128 && (unsigned >> (bits - 1)) & 1 == 1 {
                unsigned as i128 - (1i128 << bits)
            } else {
                unsigned as i128
            };
            Value::Int(v)
        }
        Kind::Float => {
            let (le, n) = ordered(bytes);
            Value::Float(float(&le[..n]))
        }
        Kind::Complex => {
            // each part is stored in the dtype's byte order
            let half = bytes.len() / 2;
            let (re, n) = ordered(&bytes[..half]);
            let (im, _) = ordered(&bytes[half..]);
            Value::Complex(float(&re[..n]), float(&im[..n]))
        }
        _ => Value::Opaque,
    }
}

/// An x87 80-bit extended value (in 16 little-endian bytes) as f64, truncated toward zero.
fn extended_to_f64(b: &[u8]) -> f64 {
    let mantissa = u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
    let se = u16::from_le_bytes([b[8], b[9]]);
    let negative = se & 0x8000 != 0;
    let exp = i32::from(se & 0x7fff);
    let magnitude = if exp == 0x7fff {
        if mantissa << 1 == 0 {
            f64::INFINITY
        } else {
            f64::NAN
        }
    } else if mantissa == 0 {
        0.0
    } else {
        // value = mantissa * 2^(exp - 16383 - 63); keep the top 53 bits (truncating).
        let lead = mantissa.leading_zeros() as i32;
        let m = mantissa << lead;
        let e = exp - 16383 - lead;
        let top = m >> 11;
        if e > 1023 {
            f64::MAX
        } else if e < -1074 {
            0.0
        } else if e >= -1022 {
            f64::from_bits((((e + 1023) as u64) << 52) | (top & ((1 << 52) - 1)))
        } else {
            let shift = (-1022 - e) as u32;
            f64::from_bits(top >> shift)
        }
    };
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// numpy's `min_scalar_type` for a value of `dtype`: the smallest dtype holding it, and
/// whether the value also fits the signed type of that size (OUT_OF_MEMORY only when a
/// dtype that is not numeric, a struct say, cannot be copied).
pub fn min_scalar_type(dtype: &NpDtype, value: Value) -> Result<(NpDtype, bool), Error> {
    let _env = DefaultFpEnv::enter();
    let code = |c: u8| NpDtype::from_code(c, Order::None).expect("valid code");
    let within = |v: f64, limit: f64| -limit < v && v < limit;
    Ok(match (dtype.kind, value) {
        (Kind::Bool, _) => (code(b'?'), false),
        (Kind::Int | Kind::UInt | Kind::Object, Value::Int(v)) => {
            if v >= 0 {
                let table: [(i128, u8, i128); 4] = [
                    (0xff, b'B', 0x7f),
                    (0xffff, b'H', 0x7fff),
                    (0xffff_ffff, b'I', 0x7fff_ffff),
                    (i128::from(u64::MAX), b'L', i128::from(i64::MAX)),
                ];
                for (max, c, small) in table {
                    if v <= max {
                        return Ok((code(c), v <= small));
                    }
                }
                (code(b'O'), false)
            } else {
                let table: [(i128, u8); 4] = [
                    (-0x80, b'b'),
                    (-0x8000, b'h'),
                    (-0x8000_0000, b'i'),
                    (i128::from(i64::MIN), b'l'),
                ];
                for (min, c) in table {
                    if v >= min {
                        return Ok((code(c), false));
                    }
                }
                (code(b'O'), false)
            }
        }
        (Kind::Float, Value::Float(v)) => {
            let size = dtype.itemsize;
            if size == 2 || !v.is_finite() || within(v, 65000.0) {
                (code(b'e'), false)
            } else if size >= 8 && within(v, 3.4e38) {
                (code(b'f'), false)
            } else if size == 16 && within(v, 1.7e308) {
                (code(b'd'), false)
            } else {
                (dtype.native()?, false)
            }
        }
        (Kind::Complex, Value::Complex(re, im)) => {
            let size = dtype.itemsize;
            if size == 8 || (within(re, 3.4e38) && within(im, 3.4e38)) {
                (code(b'F'), false)
            } else if size == 32 && within(re, 1.7e308) && within(im, 1.7e308) {
                (code(b'D'), false)
            } else {
                (dtype.native()?, false)
            }
        }
        _ => (dtype.native()?, false),
    })
}

/// The signed integer of the same size as an unsigned one.
fn signed_twin(d: NpDtype) -> NpDtype {
    if d.kind != Kind::UInt {
        return d;
    }
    let c = match d.itemsize {
        1 => b'b',
        2 => b'h',
        4 => b'i',
        _ => b'l',
    };
    NpDtype::from_code(c, Order::None).expect("signed codes")
}

/// `numpy.can_cast(scalar, to, casting)` for a scalar of `dtype` with `value`.
pub fn can_cast_value(
    dtype: &NpDtype,
    value: Value,
    to: &NpDtype,
    casting: Casting,
    rules: NumpyRules,
) -> bool {
    let _env = DefaultFpEnv::enter();
    let plain = level(dtype, to, rules) <= casting;
    if rules == NumpyRules::Numpy2 || to.is_unsized() || dtype.is_structured() {
        return plain;
    }
    if casting == Casting::Unsafe || plain {
        return true;
    }
    if !dtype.kind.is_numeric() || value == Value::Opaque {
        return false;
    }
    let Ok((mut smallest, small)) = min_scalar_type(dtype, value) else {
        return false; // a numeric dtype is copied without allocating: not reached
    };
    if small && to.kind != Kind::UInt {
        smallest = signed_twin(smallest);
    }
    level(&smallest, to, rules) <= casting
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python's int() rules for underscores and signs, and the value read without a copy
    /// of the text.
    #[test]
    fn py_int_reads_python_literals() {
        let value = |t: &str| py_int(t).map(|(_, v)| v);
        assert_eq!(value("1_000").unwrap(), Value::Int(1000));
        assert_eq!(value("  -0_7 ").unwrap(), Value::Int(-7));
        assert_eq!(value("+000").unwrap(), Value::Int(0));
        assert_eq!(
            value(&"9".repeat(30)).unwrap(),
            Value::Int(10i128.pow(30) - 1)
        );
        assert_eq!(value(&"9".repeat(31)).unwrap(), Value::Opaque);
        assert_eq!(
            value(&format!("{}1", "0".repeat(1 << 20))).unwrap(),
            Value::Int(1)
        );
        for bad in [
            "", "-", "_1", "-_1", "1_", "1__0", "1a", "0x10", "1 0", "+-1",
        ] {
            let e = py_int(bad).unwrap_err();
            assert_eq!(e.status(), crate::error::Status::Parse, "{bad:?}");
            assert!(
                e.to_string().starts_with("invalid literal for int()"),
                "{e}"
            );
        }
    }
}
