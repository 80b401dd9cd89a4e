// SPDX-License-Identifier: MIT OR Apache-2.0
//! The casting level function L(from, to) of docs/semantics-can-cast.md sections 2-4: the
//! lowest of no/equiv/safe/same_kind/unsafe at which numpy allows a cast, or NEVER.

use super::dtype::{
    Field, Kind, NpDtype, Order, Shape, Unit, UNIT_GENERIC, UNIT_M, UNIT_S, UNIT_Y,
};
use super::rules::NumpyRules;
use crate::np::casting::Casting::{self, Equiv, Never, No, Safe, SameKind, Unsafe};
use std::cmp::Ordering;
use std::collections::HashMap;

/// The lowest level at which numpy casts `from` to `to` (NEVER when none does). An
/// unsized S/U/V target stands for "that kind, sized to fit the source".
pub fn level(from: &NpDtype, to: &NpDtype, rules: NumpyRules) -> Casting {
    if from.kind == Kind::VString || to.kind == Kind::VString {
        return vstring_level(from, to);
    }
    match (&from.shape, &to.shape) {
        (Shape::Fields(a), Shape::Fields(b)) => struct_to_struct(from, a, to, b, rules),
        (Shape::Fields(a), _) => match to.kind {
            Kind::Object => Safe,
            Kind::Void if to.is_unsized() => No,
            _ => match a.as_slice() {
                [only] if level(&only.dtype, to, rules) != Never => Unsafe,
                _ => Never,
            },
        },
        (_, Shape::Fields(_)) => Unsafe,
        (Shape::Sub { base: fb, dims: fd }, Shape::Sub { base: tb, dims: td }) => {
            if fd == td {
                level(fb, tb, rules)
            } else {
                Unsafe
            }
        }
        (Shape::Sub { .. }, _) => match to.kind {
            Kind::Object => Safe,
            Kind::Void if to.is_unsized() => Safe,
            _ => Unsafe,
        },
        (_, Shape::Sub { base, .. }) => level(from, base, rules).max(Safe),
        (Shape::Plain, Shape::Plain) => plain(from, to),
    }
}

/// Casts to and from numpy 2's StringDType (`'T'`), as numpy 2.4 answers them.
fn vstring_level(from: &NpDtype, to: &NpDtype) -> Casting {
    use Kind::*;
    let composite = |d: &NpDtype| d.shape != Shape::Plain;
    if from.kind == VString {
        match to.kind {
            VString if !composite(to) => No,
            Object if !composite(to) => Safe,
            _ if composite(to) => SameKind,
            Bool | Bytes | Str | Void => SameKind,
            _ => Unsafe,
        }
    } else if composite(from) {
        SameKind
    } else {
        match from.kind {
            Object => Unsafe,
            Bytes | Str | Void => SameKind,
            _ => Safe,
        }
    }
}

/// NO when the byte orders agree (or a side has none), else EQUIV.
fn by_order(from: &NpDtype, to: &NpDtype) -> Casting {
    if from.order == to.order || from.order == Order::None || to.order == Order::None {
        No
    } else {
        Equiv
    }
}

/// numpy's kind order for same_kind: b < u < i < f < c.
fn kind_rank(kind: Kind) -> u8 {
    match kind {
        Kind::Bool => 0,
        Kind::UInt => 1,
        Kind::Int => 2,
        Kind::Float => 4,
        _ => 5,
    }
}

/// Characters a string needs to hold every value of a numeric type.
pub fn string_length(d: &NpDtype) -> u64 {
    match (d.kind, d.itemsize) {
        (Kind::Bool, _) => 5,
        (Kind::Int, 1) => 4,
        (Kind::UInt, 1) => 3,
        (Kind::Int, 2) => 6,
        (Kind::UInt, 2) => 5,
        (Kind::Int, 4) => 11,
        (Kind::UInt, 4) => 10,
        (Kind::Int, _) => 21,
        (Kind::UInt, _) => 20,
        (Kind::Float, 16) => 48,
        (Kind::Float, _) => 32,
        (Kind::Complex, 32) => 96,
        _ => 64,
    }
}

/// numpy's table of value-preserving numeric casts.
pub fn numeric_safe(from: &NpDtype, to: &NpDtype) -> bool {
    let (f, t) = (from.itemsize, to.itemsize);
    let int_to_float =
        |component: u64| component > f || (f == 8 && component == 8) || component == 16;
    match (from.kind, to.kind) {
        (Kind::Bool, _) => true,
        (_, Kind::Bool) => false,
        (Kind::Int, Kind::Int) | (Kind::UInt, Kind::UInt) => t >= f,
        (Kind::UInt, Kind::Int) => t > f,
        (Kind::Int, Kind::UInt) => false,
        (Kind::Int | Kind::UInt, Kind::Float) => int_to_float(t),
        (Kind::Int | Kind::UInt, Kind::Complex) => int_to_float(t / 2),
        (Kind::Float, Kind::Float) | (Kind::Complex, Kind::Complex) => t >= f,
        (Kind::Float, Kind::Complex) => t / 2 >= f,
        _ => false,
    }
}

fn to_void(size: u64, to: &NpDtype) -> Casting {
    if to.itemsize == 0 || to.itemsize >= size {
        Safe
    } else {
        Unsafe
    }
}

fn plain(from: &NpDtype, to: &NpDtype) -> Casting {
    use Kind::*;
    let (fk, tk) = (from.kind, to.kind);
    match (fk, tk) {
        (Object, Object) => No,
        (_, Object) => Safe,
        (Object, _) => Unsafe,
        _ if fk.is_numeric() && tk.is_numeric() => {
            if fk == tk && from.itemsize == to.itemsize {
                by_order(from, to)
            } else if numeric_safe(from, to) {
                Safe
            } else if kind_rank(fk) <= kind_rank(tk) {
                SameKind
            } else {
                Unsafe
            }
        }
        _ if fk.is_numeric() => match tk {
            Bytes | Str => {
                if to.itemsize == 0 || to.chars() >= string_length(from) {
                    Safe
                } else {
                    SameKind
                }
            }
            Void => to_void(from.itemsize, to),
            Timedelta => match fk {
                Bool | Int => Safe,
                UInt if from.itemsize < 8 => Safe,
                UInt => SameKind,
                _ => Unsafe,
            },
            _ => Unsafe,
        },
        (Str, Str) if to.itemsize == 0 => {
            // an unsized U target is U of the source's length in native order
            if !from.order.is_native() {
                Equiv
            } else {
                No
            }
        }
        (Bytes, Bytes) | (Str, Str) => {
            if to.itemsize == 0 || to.itemsize == from.itemsize {
                by_order(from, to)
            } else if to.itemsize > from.itemsize {
                Safe
            } else {
                SameKind
            }
        }
        (Bytes, Str) => {
            if to.itemsize == 0 || to.chars() >= from.chars() {
                Safe
            } else {
                SameKind
            }
        }
        (Bytes | Str | Datetime | Timedelta, Void) => to_void(from.itemsize, to),
        (Void, Void) => {
            if to.itemsize == 0 || to.itemsize == from.itemsize {
                No
            } else if to.itemsize > from.itemsize {
                Safe
            } else {
                SameKind
            }
        }
        (Datetime, Datetime) | (Timedelta, Timedelta) => time_level(from, to),
        _ => Unsafe,
    }
}

/// Unit-to-unit casts of datetime64 / timedelta64 (section 3, steps 1-6).
fn time_level(from: &NpDtype, to: &NpDtype) -> Casting {
    let (a, b) = (from.unit, to.unit);
    if a == b {
        return by_order(from, to);
    }
    // Metric prefixes: `[1000ns] -> [us]` is the same value.
    if b.base >= UNIT_S && b.base != UNIT_GENERIC && a.base != UNIT_GENERIC && b.num != 0 {
        let steps = a.base.wrapping_sub(b.base);
        if (1..=3).contains(&steps) && a.num / b.num == 1000u32.pow(u32::from(steps)) {
            return by_order(from, to);
        }
    }
    let timedelta = from.kind == Kind::Timedelta;
    if a.base == UNIT_GENERIC {
        Safe
    } else if b.base == UNIT_GENERIC || (timedelta && ((a.base <= UNIT_M) != (b.base <= UNIT_M))) {
        // to generic units, or (timedelta) across the years/months boundary
        Unsafe
    } else if a.base <= b.base && divides(a, b, timedelta) {
        Safe
    } else {
        SameKind
    }
}

/// Factors from each unit to the next finer one, in numpy's unit enum order.
const UNIT_FACTORS: [u64; 15] = [
    1, 1, 7, 1, 24, 60, 60, 1000, 1000, 1000, 1000, 1000, 1000, 1, 0,
];

/// The factor from unit `big` down to the finer unit `little` (0 on overflow).
pub fn units_factor(big: u8, little: u8) -> u64 {
    let mut factor: u64 = 1;
    for u in big..little {
        factor = factor.wrapping_mul(UNIT_FACTORS[u as usize]);
        if factor & 0xff00_0000_0000_0000 != 0 {
            return 0;
        }
    }
    factor
}

/// Whether every value in unit `a` is a whole number of unit `b` (numpy's
/// `datetime_metadata_divides`, with its crude overflow test).
fn divides(a: Unit, b: Unit, strict_nonlinear: bool) -> bool {
    let mut n1 = u64::from(a.num);
    let mut n2 = u64::from(b.num);
    if a.base != b.base {
        if a.base == UNIT_Y {
            if b.base == UNIT_M {
                n1 *= 12;
            } else {
                return !strict_nonlinear;
            }
        } else if b.base == UNIT_Y {
            if a.base == UNIT_M {
                n2 *= 12;
            } else {
                return !strict_nonlinear;
            }
        } else if a.base == UNIT_M || b.base == UNIT_M {
            return !strict_nonlinear;
        }
        match a.base.cmp(&b.base) {
            Ordering::Greater => {
                n2 = n2.wrapping_mul(units_factor(b.base, a.base));
                if n2 == 0 {
                    return false;
                }
            }
            Ordering::Less => {
                n1 = n1.wrapping_mul(units_factor(a.base, b.base));
                if n1 == 0 {
                    return false;
                }
            }
            Ordering::Equal => {}
        }
    }
    if (n1 | n2) & 0xff00_0000_0000_0000 != 0 || n2 == 0 {
        return false;
    }
    n1 % n2 == 0
}

/// Fields by name, the first of each name (numpy's names are unique; a Rust caller's
/// need not be).
fn fields_by_name(fields: &[Field]) -> HashMap<&str, &Field> {
    let mut map = HashMap::with_capacity(fields.len());
    for f in fields {
        map.entry(f.name.as_str()).or_insert(f);
    }
    map
}

/// Structured to structured: numpy 2 matches fields by position, numpy 1.22 by name.
/// Linear in the field count (numpy 1's names are looked up in a map when a field is not
/// at its own position).
fn struct_to_struct(
    from: &NpDtype,
    a: &[Field],
    to: &NpDtype,
    b: &[Field],
    rules: NumpyRules,
) -> Casting {
    match rules {
        NumpyRules::Numpy2 => {
            if a.len() != b.len() {
                return Never;
            }
            let mut worst = No;
            for (f, t) in a.iter().zip(b) {
                worst = worst.max(level(&f.dtype, &t.dtype, rules));
                if f.name != t.name {
                    worst = worst.max(Safe);
                }
                if f.offset != t.offset {
                    worst = worst.max(Equiv);
                }
            }
            if from.itemsize != to.itemsize {
                worst = worst.max(Equiv);
            }
            worst
        }
        NumpyRules::Numpy1 => {
            if a.len() != b.len() {
                return Unsafe;
            }
            let mut worst = No;
            let mut identical = from.itemsize == to.itemsize;
            // `to`'s fields by name, made when a name is not where `from` has it
            let mut by_name: Option<HashMap<&str, &Field>> = None;
            for (f, same_place) in a.iter().zip(b) {
                let t = if same_place.name == f.name {
                    same_place
                } else {
                    identical = false;
                    let index = by_name.get_or_insert_with(|| fields_by_name(b));
                    match index.get(f.name.as_str()) {
                        Some(t) => t,
                        None => return Unsafe,
                    }
                };
                let l = level(&f.dtype, &t.dtype, rules);
                worst = worst.max(l);
                identical &= l == No && f.offset == t.offset;
            }
            if identical {
                worst
            } else {
                worst.max(Equiv)
            }
        }
    }
}
