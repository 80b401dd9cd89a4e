//! The dtype registry: one table holds every fact about a dtype (code, name, width,
//! family, in-memory storage, the first ONNX Cast version that lists it, its aliases).
//! The kernels, the FFI and the tests all read it.

use crate::error::Error;

/// A tensor element type. The values are ONNX `TensorProto.DataType` codes, plus
/// TensorFlow's quantized storage types at 100-104.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(i32)]
pub enum DType {
    Float = 1,
    Uint8 = 2,
    Int8 = 3,
    Uint16 = 4,
    Int16 = 5,
    Int32 = 6,
    Int64 = 7,
    String = 8,
    Bool = 9,
    Float16 = 10,
    Double = 11,
    Uint32 = 12,
    Uint64 = 13,
    Complex64 = 14,
    Complex128 = 15,
    Bfloat16 = 16,
    Float8E4M3Fn = 17,
    Float8E4M3Fnuz = 18,
    Float8E5M2 = 19,
    Float8E5M2Fnuz = 20,
    Uint4 = 21,
    Int4 = 22,
    Float4E2M1 = 23,
    Float8E8M0 = 24,
    Uint2 = 25,
    Int2 = 26,
    Float6E2M3 = 27,
    Float6E3M2 = 28,
    Qint8 = 100,
    Quint8 = 101,
    Qint16 = 102,
    Quint16 = 103,
    Qint32 = 104,
}

/// What kind of values a dtype holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Family {
    Bool,
    SignedInt,
    UnsignedInt,
    Float,
    Complex,
    String,
}

/// The in-memory element representation the numeric kernels work on. TF quantized
/// types share their storage integer's; dtypes without one here (STRING, the float8
/// family, the packed types) are not handled by the numeric kernels.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    Bf16,
    F32,
    F64,
    C64,
    C128,
}

impl Scalar {
    /// Every scalar kind, in a fixed order (tests iterate over it).
    pub const ALL: [Scalar; 15] = [
        Scalar::Bool,
        Scalar::I8,
        Scalar::I16,
        Scalar::I32,
        Scalar::I64,
        Scalar::U8,
        Scalar::U16,
        Scalar::U32,
        Scalar::U64,
        Scalar::F16,
        Scalar::Bf16,
        Scalar::F32,
        Scalar::F64,
        Scalar::C64,
        Scalar::C128,
    ];

    /// Bytes per element.
    pub const fn size(self) -> usize {
        match self {
            Scalar::Bool | Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 | Scalar::F16 | Scalar::Bf16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 | Scalar::C64 => 8,
            Scalar::C128 => 16,
        }
    }
}

/// One row of the registry.
#[derive(Debug)]
pub struct DTypeInfo {
    pub dtype: DType,
    /// The ONNX enum name ("FLOAT", "QINT8") followed by a NUL for the C API.
    pub name_nul: &'static str,
    /// Bits per element (packed widths for the sub-byte types; STRING is a view).
    pub bits: u32,
    pub family: Family,
    /// Storage the numeric kernels use, if any.
    pub scalar: Option<Scalar>,
    /// The first ONNX Cast version whose schema lists the type; 0 if none does.
    pub onnx_cast_since: u32,
    /// Lower-case aliases accepted by [`DType::from_name`] besides `name`.
    pub aliases: &'static [&'static str],
}

macro_rules! row {
    ($dt:ident, $name:literal, $bits:expr, $fam:ident, $scalar:expr, $since:expr, [$($alias:literal),*]) => {
        DTypeInfo {
            dtype: DType::$dt,
            name_nul: concat!($name, "\0"),
            bits: $bits,
            family: Family::$fam,
            scalar: $scalar,
            onnx_cast_since: $since,
            aliases: &[$($alias),*],
        }
    };
}

/// Bits of one STRING element: a `tcast_string` view (pointer + u64 length).
const STRING_BITS: u32 = 8 * (core::mem::size_of::<*const u8>() as u32 + 8);

/// The registry, in code order.
#[rustfmt::skip]
pub static DTYPES: [DTypeInfo; 33] = [
    row!(Float, "FLOAT", 32, Float, Some(Scalar::F32), 1, ["float32", "f32"]),
    row!(Uint8, "UINT8", 8, UnsignedInt, Some(Scalar::U8), 1, ["u8"]),
    row!(Int8, "INT8", 8, SignedInt, Some(Scalar::I8), 1, ["i8"]),
    row!(Uint16, "UINT16", 16, UnsignedInt, Some(Scalar::U16), 1, ["u16"]),
    row!(Int16, "INT16", 16, SignedInt, Some(Scalar::I16), 1, ["i16"]),
    row!(Int32, "INT32", 32, SignedInt, Some(Scalar::I32), 1, ["i32"]),
    row!(Int64, "INT64", 64, SignedInt, Some(Scalar::I64), 1, ["i64"]),
    row!(String, "STRING", STRING_BITS, String, None, 9, ["str"]),
    row!(Bool, "BOOL", 8, Bool, Some(Scalar::Bool), 1, []),
    row!(Float16, "FLOAT16", 16, Float, Some(Scalar::F16), 1, ["half", "f16"]),
    row!(Double, "DOUBLE", 64, Float, Some(Scalar::F64), 1, ["float64", "f64"]),
    row!(Uint32, "UINT32", 32, UnsignedInt, Some(Scalar::U32), 1, ["u32"]),
    row!(Uint64, "UINT64", 64, UnsignedInt, Some(Scalar::U64), 1, ["u64"]),
    row!(Complex64, "COMPLEX64", 64, Complex, Some(Scalar::C64), 0, ["c64"]),
    row!(Complex128, "COMPLEX128", 128, Complex, Some(Scalar::C128), 0, ["c128"]),
    row!(Bfloat16, "BFLOAT16", 16, Float, Some(Scalar::Bf16), 13, ["bf16"]),
    row!(Float8E4M3Fn, "FLOAT8E4M3FN", 8, Float, None, 19, ["float8_e4m3fn"]),
    row!(Float8E4M3Fnuz, "FLOAT8E4M3FNUZ", 8, Float, None, 19, ["float8_e4m3fnuz"]),
    row!(Float8E5M2, "FLOAT8E5M2", 8, Float, None, 19, ["float8_e5m2"]),
    row!(Float8E5M2Fnuz, "FLOAT8E5M2FNUZ", 8, Float, None, 19, ["float8_e5m2fnuz"]),
    row!(Uint4, "UINT4", 4, UnsignedInt, None, 21, []),
    row!(Int4, "INT4", 4, SignedInt, None, 21, []),
    row!(Float4E2M1, "FLOAT4E2M1", 4, Float, None, 23, ["float4_e2m1fn", "float4e2m1fn"]),
    row!(Float8E8M0, "FLOAT8E8M0", 8, Float, None, 24, ["float8_e8m0fnu", "float8e8m0fnu"]),
    row!(Uint2, "UINT2", 2, UnsignedInt, None, 25, []),
    row!(Int2, "INT2", 2, SignedInt, None, 25, []),
    row!(Float6E2M3, "FLOAT6E2M3", 6, Float, None, 28, ["float6_e2m3fn", "float6e2m3fn"]),
    row!(Float6E3M2, "FLOAT6E3M2", 6, Float, None, 28, ["float6_e3m2fn", "float6e3m2fn"]),
    row!(Qint8, "QINT8", 8, SignedInt, Some(Scalar::I8), 0, []),
    row!(Quint8, "QUINT8", 8, UnsignedInt, Some(Scalar::U8), 0, []),
    row!(Qint16, "QINT16", 16, SignedInt, Some(Scalar::I16), 0, []),
    row!(Quint16, "QUINT16", 16, UnsignedInt, Some(Scalar::U16), 0, []),
    row!(Qint32, "QINT32", 32, SignedInt, Some(Scalar::I32), 0, []),
];

impl DTypeInfo {
    /// The ONNX enum name, e.g. "FLOAT".
    pub fn name(&self) -> &'static str {
        &self.name_nul[..self.name_nul.len() - 1]
    }
}

/// The versions of the ONNX Cast operator (a schema stays in force until the next one).
pub const ONNX_CAST_VERSIONS: [u32; 10] = [1, 6, 9, 13, 19, 21, 23, 24, 25, 28];

impl DType {
    /// Every dtype, in code order.
    pub fn all() -> impl Iterator<Item = DType> {
        DTYPES.iter().map(|row| row.dtype)
    }

    /// The dtype with this code, if there is one (0, UNDEFINED, is not a dtype).
    pub fn from_code(code: i32) -> Option<DType> {
        let index = match code {
            1..=28 => code - 1,
            100..=104 => code - 100 + 28,
            _ => return None,
        };
        Some(DTYPES[index as usize].dtype)
    }

    /// Like [`DType::from_code`], with an error naming the argument. `what` is formatted
    /// only on failure (pass `format_args!` for a composed name: nothing is allocated on
    /// success).
    pub fn from_code_arg(code: i32, what: impl core::fmt::Display) -> Result<DType, Error> {
        DType::from_code(code)
            .ok_or_else(|| Error::InvalidDtype(format!("{what}: unknown dtype code {code}")))
    }

    /// The ONNX code.
    pub const fn code(self) -> i32 {
        self as i32
    }

    /// This dtype's row of the registry.
    pub fn info(self) -> &'static DTypeInfo {
        let code = self.code();
        let index = if code >= 100 {
            code - 100 + 28
        } else {
            code - 1
        };
        &DTYPES[index as usize]
    }

    /// The ONNX enum name, e.g. "FLOAT".
    pub fn name(self) -> &'static str {
        self.info().name()
    }

    /// Bits per element.
    pub fn bits(self) -> u32 {
        self.info().bits
    }

    /// True for the dtypes stored more than one element per byte.
    pub fn is_packed(self) -> bool {
        self.bits() < 8
    }

    /// Looks a dtype up by its ONNX name or an alias, ignoring ASCII case.
    pub fn from_name(name: &str) -> Option<DType> {
        DTYPES
            .iter()
            .find(|row| {
                row.name().eq_ignore_ascii_case(name)
                    || row.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
            })
            .map(|row| row.dtype)
    }

    /// Bytes a contiguous tensor of `count` elements occupies (sub-byte types packed),
    /// or None when that does not fit in a u64.
    pub fn bytes_for(self, count: u64) -> Option<u64> {
        let bits = u128::from(count) * u128::from(self.bits());
        u64::try_from(bits.div_ceil(8)).ok()
    }

    /// Whether the Cast schema in force at `opset` lists this dtype. Opsets above the
    /// newest Cast version are answered with the newest schema.
    pub fn in_onnx_cast(self, opset: i32) -> bool {
        let since = self.info().onnx_cast_since;
        since != 0 && opset >= 1 && i64::from(opset) >= i64::from(since)
    }
}

impl core::fmt::Display for DType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_code_order_and_codes_round_trip() {
        for (i, row) in DTYPES.iter().enumerate() {
            assert_eq!(
                DType::from_code(row.dtype.code()),
                Some(row.dtype),
                "row {i}"
            );
            assert!(std::ptr::eq(row.dtype.info(), row));
        }
        assert_eq!(DType::from_code(0), None);
        assert_eq!(DType::from_code(29), None);
        assert_eq!(DType::from_code(99), None);
        assert_eq!(DType::from_code(105), None);
        assert_eq!(DType::from_code(-1), None);
    }

    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for row in &DTYPES {
            assert!(
                seen.insert(row.name().to_ascii_lowercase()),
                "{}",
                row.name()
            );
            for alias in row.aliases {
                assert_eq!(*alias, alias.to_ascii_lowercase());
                assert!(seen.insert(alias.to_string()), "{alias}");
            }
        }
    }

    #[test]
    fn storage_sizes_match_bit_widths() {
        for row in &DTYPES {
            if let Some(s) = row.scalar {
                assert_eq!(s.size() as u32 * 8, row.bits, "{}", row.name());
            }
        }
    }

    #[test]
    fn packed_byte_counts() {
        assert_eq!(DType::Int4.bytes_for(3), Some(2));
        assert_eq!(DType::Int2.bytes_for(5), Some(2));
        assert_eq!(DType::Float6E2M3.bytes_for(4), Some(3));
        assert_eq!(DType::Float6E2M3.bytes_for(5), Some(4));
        assert_eq!(DType::Double.bytes_for(u64::MAX / 8 + 1), None);
    }
}
