// SPDX-License-Identifier: MIT OR Apache-2.0
//! `numpy.promote_types` (docs/semantics-can-cast.md section 7).

use super::dtype::{Kind, NpDtype, Order, Shape, Unit, UNIT_GENERIC, UNIT_M, UNIT_Y};
use super::level::{string_length, units_factor};
use crate::error::Error;

/// The order of rows and columns of [`PROMOTION`].
const PROMOTION_CODES: &[u8; 16] = b"?bhiqBHIQefdgFDG";

/// numpy's promotion table for the numeric types (row, column in PROMOTION_CODES order).
const PROMOTION: [&[u8; 16]; 16] = [
    b"?bhiqBHIQefdgFDG",
    b"bbhiqhildefdgFDG",
    b"hhhiqhildffdgFDG",
    b"iiiiqiilddddgDDG",
    b"qqqqqqqqddddgDDG",
    b"BhhiqBHIQefdgFDG",
    b"HiiiqHHIQffdgFDG",
    b"IlllqIIIQdddgDDG",
    b"QddddQQQQdddgDDG",
    b"eefddefddefdgFDG",
    b"fffddffddffdgFDG",
    b"ddddddddddddgDDG",
    b"gggggggggggggGGG",
    b"FFFDDFFDDFFDGFDG",
    b"DDDDDDDDDDDDGDDG",
    b"GGGGGGGGGGGGGGGG",
];

fn numeric_index(d: &NpDtype) -> Option<usize> {
    let c = match (d.kind, d.itemsize) {
        (Kind::Bool, _) => b'?',
        (Kind::Int, 1) => b'b',
        (Kind::Int, 2) => b'h',
        (Kind::Int, 4) => b'i',
        (Kind::Int, 8) => b'q',
        (Kind::UInt, 1) => b'B',
        (Kind::UInt, 2) => b'H',
        (Kind::UInt, 4) => b'I',
        (Kind::UInt, 8) => b'Q',
        (Kind::Float, 2) => b'e',
        (Kind::Float, 4) => b'f',
        (Kind::Float, 8) => b'd',
        (Kind::Float, 16) => b'g',
        (Kind::Complex, 8) => b'F',
        (Kind::Complex, 16) => b'D',
        (Kind::Complex, 32) => b'G',
        _ => return None,
    };
    PROMOTION_CODES.iter().position(|&p| p == c)
}

fn refuse(a: &NpDtype, b: &NpDtype, why: &str) -> Error {
    Error::Unsupported(format!(
        "numpy cannot promote {} and {}: {why}",
        a.to_str_capped(),
        b.to_str_capped()
    ))
}

/// `numpy.promote_types(a, b)`: the smallest dtype both cast to safely.
pub fn promote(a: &NpDtype, b: &NpDtype) -> Result<NpDtype, Error> {
    use Kind::*;
    if a.kind == Object || b.kind == Object {
        return Ok(NpDtype::from_code(b'O', Order::None).expect("O"));
    }
    if a.shape != Shape::Plain || b.shape != Shape::Plain {
        return promote_composite(a, b);
    }
    if a.kind == VString || b.kind == VString {
        return match (a.kind, b.kind) {
            (VString | Str, VString | Str) => Ok(NpDtype::from_code(b'T', Order::None).expect("T")),
            _ => Err(refuse(a, b, "no common dtype")),
        };
    }
    if let (Some(i), Some(j)) = (numeric_index(a), numeric_index(b)) {
        return Ok(NpDtype::from_code(PROMOTION[i][j], Order::None).expect("table codes"));
    }
    let string = |kind: Kind, chars: u64| {
        let size = if kind == Str { chars * 4 } else { chars };
        NpDtype::flexible(kind, size, Order::None)
    };
    match (a.kind, b.kind) {
        (Bytes | Str, Bytes | Str) => {
            let kind = if a.kind == Str || b.kind == Str {
                Str
            } else {
                Bytes
            };
            Ok(string(kind, a.chars().max(b.chars())))
        }
        (k, Bytes | Str) if k.is_numeric() => Ok(string(b.kind, b.chars().max(string_length(a)))),
        (Bytes | Str, k) if k.is_numeric() => Ok(string(a.kind, a.chars().max(string_length(b)))),
        (Void, Void) if a.itemsize == b.itemsize => a.try_clone(),
        (Datetime, Datetime) | (Timedelta, Timedelta) => {
            let strict = a.kind == Timedelta;
            let unit = common_unit(a.unit, b.unit, strict, strict)
                .ok_or_else(|| refuse(a, b, "the units have no common divisor"))?;
            Ok(NpDtype::time(a.kind, unit, Order::None))
        }
        (Datetime, Timedelta) | (Timedelta, Datetime) => {
            let unit = common_unit(a.unit, b.unit, false, false)
                .ok_or_else(|| refuse(a, b, "the units have no common divisor"))?;
            Ok(NpDtype::time(Datetime, unit, Order::None))
        }
        (Timedelta, Bool | Int) | (Timedelta, UInt) if b.kind != UInt || b.itemsize < 8 => {
            Ok(NpDtype::time(Timedelta, a.unit, Order::None))
        }
        (Bool | Int | UInt, Timedelta) if a.kind != UInt || a.itemsize < 8 => {
            Ok(NpDtype::time(Timedelta, b.unit, Order::None))
        }
        _ => Err(refuse(a, b, "no common dtype")),
    }
}

/// Subarrays and structured dtypes: equal shapes promote element-wise; structured dtypes
/// with the same field names promote field by field into a packed struct.
fn promote_composite(a: &NpDtype, b: &NpDtype) -> Result<NpDtype, Error> {
    match (&a.shape, &b.shape) {
        (Shape::Fields(fa), Shape::Fields(fb))
            if fa.len() == fb.len() && fa.iter().zip(fb).all(|(x, y)| x.name == y.name) =>
        {
            const WHAT: &str = "a promoted numpy struct";
            let mut members = crate::mem::vec_with_capacity(fa.len(), WHAT)?;
            for (x, y) in fa.iter().zip(fb) {
                let name = crate::mem::string(&x.name, WHAT)?;
                members.push((name, promote(&x.dtype, &y.dtype)?));
            }
            super::dtype::packed_struct(members)
        }
        (Shape::Sub { base: ba, dims: da }, Shape::Sub { base: bb, dims: db }) if da == db => {
            let dims = crate::mem::copy_of(da, "a promoted numpy subarray")?;
            super::dtype::subarray(promote(ba, bb)?, dims)
        }
        _ => Err(refuse(
            a,
            b,
            "invalid type promotion with structured datatype(s).",
        )),
    }
}

/// numpy's greatest common divisor of two datetime units (None when incompatible).
pub fn common_unit(a: Unit, b: Unit, strict_a: bool, strict_b: bool) -> Option<Unit> {
    if a.base == UNIT_GENERIC {
        return Some(b);
    }
    if b.base == UNIT_GENERIC {
        return Some(a);
    }
    let (mut n1, mut n2) = (u64::from(a.num), u64::from(b.num));
    let base;
    if a.base == b.base {
        base = a.base;
    } else if a.base == UNIT_Y {
        if b.base == UNIT_M {
            base = UNIT_M;
            n1 *= 12;
        } else if strict_a {
            return None;
        } else {
            return Some(b);
        }
    } else if b.base == UNIT_Y {
        if a.base == UNIT_M {
            base = UNIT_M;
            n2 *= 12;
        } else if strict_b {
            return None;
        } else {
            return Some(a);
        }
    } else if a.base == UNIT_M {
        if strict_a {
            return None;
        }
        return Some(b);
    } else if b.base == UNIT_M {
        if strict_b {
            return None;
        }
        return Some(a);
    } else if a.base > b.base {
        base = a.base;
        n2 = n2.wrapping_mul(units_factor(b.base, a.base));
        if n2 == 0 {
            return None;
        }
    } else {
        base = b.base;
        n1 = n1.wrapping_mul(units_factor(a.base, b.base));
        if n1 == 0 {
            return None;
        }
    }
    let num = gcd(n1, n2);
    if num == 0 || num > i32::MAX as u64 {
        return None;
    }
    Some(Unit {
        base,
        num: num as u32,
    })
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
