// SPDX-License-Identifier: MIT OR Apache-2.0
//! The numpy dtype model: kinds, byte orders, the builtin type codes, and [`NpDtype`]
//! with its fields and subarrays (x86-64 Linux, where `l` is int64 and `g` an 80-bit
//! long double stored in 16 bytes).

use super::units::Unit;
use crate::error::Error;

/// The class of a numpy dtype.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `b`: bool.
    Bool,
    /// `u`: unsigned integers.
    UInt,
    /// `i`: signed integers.
    Int,
    /// `f`: floats.
    Float,
    /// `c`: complex numbers.
    Complex,
    /// `S`: fixed-size bytes.
    Bytes,
    /// `U`: fixed-size UCS-4 strings.
    Str,
    /// `V`: raw bytes, structs and subarrays.
    Void,
    /// `O`: Python objects.
    Object,
    /// `M`: datetime64.
    Datetime,
    /// `m`: timedelta64.
    Timedelta,
    /// numpy 2's variable-width `StringDType` (`'T'`).
    VString,
}

impl Kind {
    /// numpy's one-letter `dtype.kind`.
    pub fn letter(self) -> char {
        match self {
            Kind::Bool => 'b',
            Kind::UInt => 'u',
            Kind::Int => 'i',
            Kind::Float => 'f',
            Kind::Complex => 'c',
            Kind::Bytes => 'S',
            Kind::Str => 'U',
            Kind::Void => 'V',
            Kind::Object => 'O',
            Kind::Datetime => 'M',
            Kind::Timedelta => 'm',
            Kind::VString => 'T',
        }
    }

    /// bool, integers, floats and complex.
    pub fn is_numeric(self) -> bool {
        matches!(
            self,
            Kind::Bool | Kind::UInt | Kind::Int | Kind::Float | Kind::Complex
        )
    }

    /// Kinds whose values have a byte order.
    fn has_byte_order(self, itemsize: u64) -> bool {
        match self {
            Kind::Bool | Kind::Bytes | Kind::Void | Kind::Object | Kind::VString => false,
            Kind::Str | Kind::Datetime | Kind::Timedelta => true,
            Kind::UInt | Kind::Int | Kind::Float | Kind::Complex => itemsize > 1,
        }
    }
}

/// The byte order after canonicalisation: `|` (none), `<` or `>`. `=` and `|` on a type
/// that has a byte order become the host's, [`Order::NATIVE`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// `|`: the kind has no byte order (or the item is one byte).
    None,
    /// `<`: little-endian (native on x86-64 and aarch64).
    Little,
    /// `>`: big-endian (native on s390x).
    Big,
}

impl Order {
    /// The host's byte order, numpy's native one: what `=` means.
    pub const NATIVE: Order = if cfg!(target_endian = "big") {
        Order::Big
    } else {
        Order::Little
    };

    /// The order the host does not use (numpy's "byte-swapped").
    pub const SWAPPED: Order = if cfg!(target_endian = "big") {
        Order::Little
    } else {
        Order::Big
    };

    /// True for the host's order and for none (numpy's `dtype.isnative`).
    pub fn is_native(self) -> bool {
        self != Order::SWAPPED
    }

    /// The byte-order character numpy's `dtype.str` starts with.
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            Order::None => "|",
            Order::Little => "<",
            Order::Big => ">",
        }
    }
}

/// One builtin type code of numpy: the single-character spec, its kind, size and name.
pub struct Code {
    pub code: u8,
    pub kind: Kind,
    pub itemsize: u64,
    pub name: &'static str,
}

/// numpy's builtin type codes (x86-64 Linux). The kind+size spelling (`i4`, `f8`) resolves
/// to the first code of that kind and size in this order, which is numpy's (`i8` -> `l`).
pub const CODES: &[Code] = &[
    code(b'?', Kind::Bool, 1, "bool"),
    code(b'b', Kind::Int, 1, "int8"),
    code(b'B', Kind::UInt, 1, "uint8"),
    code(b'h', Kind::Int, 2, "int16"),
    code(b'H', Kind::UInt, 2, "uint16"),
    code(b'i', Kind::Int, 4, "int32"),
    code(b'I', Kind::UInt, 4, "uint32"),
    code(b'l', Kind::Int, 8, "int64"),
    code(b'L', Kind::UInt, 8, "uint64"),
    code(b'q', Kind::Int, 8, "int64"),
    code(b'Q', Kind::UInt, 8, "uint64"),
    code(b'e', Kind::Float, 2, "float16"),
    code(b'f', Kind::Float, 4, "float32"),
    code(b'd', Kind::Float, 8, "float64"),
    code(b'g', Kind::Float, 16, "float128"),
    code(b'F', Kind::Complex, 8, "complex64"),
    code(b'D', Kind::Complex, 16, "complex128"),
    code(b'G', Kind::Complex, 32, "complex256"),
    code(b'S', Kind::Bytes, 0, "bytes"),
    code(b'U', Kind::Str, 0, "str"),
    code(b'V', Kind::Void, 0, "void"),
    code(b'O', Kind::Object, 8, "object"),
    code(b'M', Kind::Datetime, 8, "datetime64"),
    code(b'm', Kind::Timedelta, 8, "timedelta64"),
    code(b'T', Kind::VString, 16, "StringDType()"),
];

const fn code(code: u8, kind: Kind, itemsize: u64, name: &'static str) -> Code {
    Code {
        code,
        kind,
        itemsize,
        name,
    }
}

/// The builtin code `c`, if there is one.
pub(super) fn code_entry(c: u8) -> Option<&'static Code> {
    CODES.iter().find(|e| e.code == c)
}

/// A field of a structured dtype.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The field's name.
    pub name: String,
    /// The field's dtype.
    pub dtype: NpDtype,
    /// The field's byte offset in the struct.
    pub offset: u64,
}

/// What a dtype is made of beyond its kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A plain dtype.
    Plain,
    /// A subarray: `base` repeated `dims` times (the dtype's kind is Void).
    Sub {
        /// The element dtype.
        base: Box<NpDtype>,
        /// The subarray's shape.
        dims: Vec<u64>,
    },
    /// A structured dtype (kind Void).
    Fields(Vec<Field>),
}

/// A parsed numpy dtype.
#[derive(Clone, Debug, PartialEq)]
pub struct NpDtype {
    /// The class (`dtype.kind`).
    pub kind: Kind,
    /// The type character (`dtype.char`).
    pub code: u8,
    /// Bytes per element; 0 for the unsized S/U/V.
    pub itemsize: u64,
    /// The byte order (`dtype.byteorder`, canonical).
    pub order: Order,
    /// Datetime/timedelta unit (generic elsewhere).
    pub unit: Unit,
    /// Plain, a subarray or a struct.
    pub shape: Shape,
}

/// numpy's ValueError for a spec or a dtype it cannot build, as a PARSE error.
pub(super) fn parse_error(message: String) -> Error {
    Error::Parse {
        index: None,
        message,
    }
}

impl NpDtype {
    /// A builtin code with the given byte order (ignored where the kind has none).
    pub fn from_code(c: u8, order: Order) -> Option<NpDtype> {
        let entry = code_entry(c)?;
        Some(NpDtype::plain(entry, order))
    }

    /// The dtype of a builtin code with the given byte order.
    pub(super) fn plain(entry: &Code, order: Order) -> NpDtype {
        let mut d = NpDtype {
            kind: entry.kind,
            code: entry.code,
            itemsize: entry.itemsize,
            order: Order::None,
            unit: Unit::GENERIC,
            shape: Shape::Plain,
        };
        d.set_order(order);
        d
    }

    /// A flexible dtype (S, U, V) of `itemsize` bytes.
    pub fn flexible(kind: Kind, itemsize: u64, order: Order) -> NpDtype {
        let c = match kind {
            Kind::Bytes => b'S',
            Kind::Str => b'U',
            _ => b'V',
        };
        let mut d = NpDtype::from_code(c, order).expect("S/U/V are in CODES");
        d.itemsize = itemsize;
        d.set_order(order);
        d
    }

    /// A datetime or timedelta with a unit.
    pub fn time(kind: Kind, unit: Unit, order: Order) -> NpDtype {
        let c = if kind == Kind::Datetime { b'M' } else { b'm' };
        let mut d = NpDtype::from_code(c, order).expect("M/m are in CODES");
        d.unit = unit;
        d
    }

    fn set_order(&mut self, order: Order) {
        self.order = if self.kind.has_byte_order(self.itemsize) {
            match order {
                Order::None => Order::NATIVE,
                o => o,
            }
        } else {
            Order::None
        };
    }

    /// Unsized S0/U0/V0 without fields or subarray.
    pub fn is_unsized(&self) -> bool {
        matches!(self.kind, Kind::Bytes | Kind::Str | Kind::Void)
            && self.itemsize == 0
            && self.shape == Shape::Plain
    }

    /// Characters (S, U) a flexible string holds.
    pub fn chars(&self) -> u64 {
        if self.kind == Kind::Str {
            self.itemsize / 4
        } else {
            self.itemsize
        }
    }

    /// A structured dtype (fields).
    pub fn is_structured(&self) -> bool {
        matches!(self.shape, Shape::Fields(_))
    }

    /// The same dtype in native byte order (numpy's `newbyteorder('=')` on every part),
    /// allocated fallibly.
    pub fn native(&self) -> Result<NpDtype, Error> {
        self.copy_with(true)
    }

    /// A copy, allocated fallibly (a struct may have millions of fields).
    pub fn try_clone(&self) -> Result<NpDtype, Error> {
        self.copy_with(false)
    }

    fn copy_with(&self, native: bool) -> Result<NpDtype, Error> {
        const WHAT: &str = "a copy of a numpy dtype";
        let shape = match &self.shape {
            Shape::Plain => Shape::Plain,
            Shape::Sub { base, dims } => Shape::Sub {
                base: crate::mem::boxed(base.copy_with(native)?, WHAT)?,
                dims: crate::mem::copy_of(dims, WHAT)?,
            },
            Shape::Fields(fields) => {
                let mut copy = crate::mem::vec_with_capacity(fields.len(), WHAT)?;
                for f in fields {
                    copy.push(Field {
                        name: crate::mem::string(&f.name, WHAT)?,
                        dtype: f.dtype.copy_with(native)?,
                        offset: f.offset,
                    });
                }
                Shape::Fields(copy)
            }
        };
        let order = if native && !self.order.is_native() {
            Order::NATIVE
        } else {
            self.order
        };
        Ok(NpDtype {
            kind: self.kind,
            code: self.code,
            itemsize: self.itemsize,
            order,
            unit: self.unit,
            shape,
        })
    }
}

/// The largest C `int`, numpy's limit on dimensions and dtype sizes.
pub(super) const C_INT_MAX: u64 = i32::MAX as u64;

/// A subarray dtype of `base` with `dims`, within numpy's C int limits: every dimension
/// and the size in bytes fit a C int (the element count is a 64-bit product that a zero
/// ends and an overflow before the zero fails, as numpy computes it).
pub fn subarray(base: NpDtype, dims: Vec<u64>) -> Result<NpDtype, Error> {
    if dims.iter().any(|&d| d > C_INT_MAX) {
        return Err(parse_error(
            "invalid shape in fixed-type tuple: dimension does not fit into a C int.".to_string(),
        ));
    }
    let mut count: Option<u64> = Some(1);
    for &d in &dims {
        if d == 0 {
            count = Some(0);
            break;
        }
        count = count
            .and_then(|n| n.checked_mul(d))
            .filter(|&n| n <= i64::MAX as u64);
        if count.is_none() {
            break;
        }
    }
    let bytes = count
        .filter(|&n| n <= C_INT_MAX)
        .and_then(|n| n.checked_mul(base.itemsize))
        .filter(|&n| n <= C_INT_MAX)
        .ok_or_else(|| {
            parse_error(
                "invalid shape in fixed-type tuple: dtype size in bytes must fit into a C int."
                    .to_string(),
            )
        })?;
    Ok(NpDtype {
        kind: Kind::Void,
        code: b'V',
        itemsize: bytes,
        order: Order::None,
        unit: Unit::GENERIC,
        shape: Shape::Sub {
            base: crate::mem::boxed(base, "a numpy subarray dtype")?,
            dims,
        },
    })
}

/// A structured dtype of named members laid out without padding.
pub fn packed_struct(members: Vec<(String, NpDtype)>) -> Result<NpDtype, Error> {
    let mut offset = 0;
    let mut fields = crate::mem::vec_with_capacity(members.len(), "the fields of a numpy struct")?;
    for (name, dtype) in members {
        let f = Field {
            name,
            offset,
            dtype,
        };
        offset += f.dtype.itemsize;
        fields.push(f);
    }
    Ok(NpDtype {
        kind: Kind::Void,
        code: b'V',
        itemsize: offset,
        order: Order::None,
        unit: Unit::GENERIC,
        shape: Shape::Fields(fields),
    })
}
