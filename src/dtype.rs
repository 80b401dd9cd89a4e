// SPDX-License-Identifier: MIT OR Apache-2.0
//! The dtype registry: one table holds every fact about a dtype (code, name, width,
//! family, in-memory storage, the first ONNX Cast version that lists it, its aliases).
//! The kernels, the FFI and the tests all read it.

use crate::error::Error;
use crate::tables::{CConst, CTable};

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

    /// The position in [`Scalar::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

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

/// Writes the registry from one table: the [`DType`] enum (each row's doc is the
/// variant's doc and the header's), `DType::ALL`, `DType::from_code`, [`DTYPES`] and
/// `DType::TABLE`, the `TCAST_DTYPE_*` constants (UNDEFINED, 0, first).
macro_rules! dtypes {
    ($(
        $dt:ident = $code:literal, $name:literal, $bits:expr, $fam:ident, $scalar:expr,
        $since:expr, [$($alias:literal),*], $doc:literal;
    )*) => {
        /// A tensor element type. The values are ONNX `TensorProto.DataType` codes, plus
        /// TensorFlow's quantized storage types at 100-104.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(i32)]
        pub enum DType {
            $(#[doc = $doc] $dt = $code,)*
        }

        /// Each code's dtype, indexed by code (built from the table at compile time).
        const BY_CODE: [Option<DType>; MAX_CODE + 1] = {
            let mut table = [None; MAX_CODE + 1];
            $(table[$code] = Some(DType::$dt);)*
            table
        };

        /// Each code's bits per element (0 for codes without a dtype): one load, where
        /// every call asks for them several times.
        const BITS_BY_CODE: [u32; MAX_CODE + 1] = {
            let mut table = [0u32; MAX_CODE + 1];
            $(table[$code] = $bits;)*
            table
        };

        /// The registry, in code order.
        pub static DTYPES: [DTypeInfo; [$($name),*].len()] = [$(
            DTypeInfo {
                dtype: DType::$dt,
                name_nul: concat!($name, "\0"),
                bits: $bits,
                family: Family::$fam,
                scalar: $scalar,
                onnx_cast_since: $since,
                aliases: &[$($alias),*],
            }
        ),*];

        impl DType {
            /// Every dtype, in code order.
            pub const ALL: [DType; [$($name),*].len()] = [$(DType::$dt),*];

            /// The dtype with this code, if there is one (0, UNDEFINED, is not a dtype).
            #[inline]
            pub const fn from_code(code: i32) -> Option<DType> {
                // One bounds check and one load: every call checks a C argument with it.
                if code >= 0 && (code as usize) < BY_CODE.len() {
                    BY_CODE[code as usize]
                } else {
                    None
                }
            }

            /// The `TCAST_DTYPE_*` constants (written into the header by tests/header.rs).
            pub const TABLE: CTable = CTable {
                rust_name: "DType",
                title: "The tcast_dtype values: ONNX TensorProto.DataType codes, and TensorFlow's \
                        quantized types at 100-104. tcast_dtype_name, tcast_dtype_bits and \
                        tcast_dtype_from_name give their names and widths.",
                consts: &[
                    CConst {
                        name: "TCAST_DTYPE_UNDEFINED",
                        value: 0,
                        doc: "ONNX's UNDEFINED: not a dtype; functions treat it as an unknown \
                              code.",
                        argument: false,
                    },
                    $(CConst {
                        name: concat!("TCAST_DTYPE_", $name),
                        value: $code,
                        doc: $doc,
                        argument: true,
                    },)*
                ],
            };
        }
    };
}

/// The largest dtype code (QINT32).
const MAX_CODE: usize = 104;

/// Bits of one STRING element: a `tcast_string` view (pointer + u64 length).
const STRING_BITS: u32 = 8 * (core::mem::size_of::<*const u8>() as u32 + 8);

// code, name, bits, family, storage, first ONNX Cast version (0: none), aliases, doc
#[rustfmt::skip]
dtypes! {
    Float = 1, "FLOAT", 32, Float, Some(Scalar::F32), 1, ["float32", "f32"],
        "IEEE 754 binary32.";
    Uint8 = 2, "UINT8", 8, UnsignedInt, Some(Scalar::U8), 1, ["u8"],
        "8-bit unsigned integer.";
    Int8 = 3, "INT8", 8, SignedInt, Some(Scalar::I8), 1, ["i8"],
        "8-bit two's complement integer.";
    Uint16 = 4, "UINT16", 16, UnsignedInt, Some(Scalar::U16), 1, ["u16"],
        "16-bit unsigned integer.";
    Int16 = 5, "INT16", 16, SignedInt, Some(Scalar::I16), 1, ["i16"],
        "16-bit two's complement integer.";
    Int32 = 6, "INT32", 32, SignedInt, Some(Scalar::I32), 1, ["i32"],
        "32-bit two's complement integer.";
    Int64 = 7, "INT64", 64, SignedInt, Some(Scalar::I64), 1, ["i64"],
        "64-bit two's complement integer.";
    String = 8, "STRING", STRING_BITS, String, None, 9, ["str"],
        "Text: each element is a tcast_string view (bytes and length).";
    Bool = 9, "BOOL", 8, Bool, Some(Scalar::Bool), 1, [],
        "One byte, 0 or 1.";
    Float16 = 10, "FLOAT16", 16, Float, Some(Scalar::F16), 1, ["half", "f16"],
        "IEEE 754 binary16.";
    Double = 11, "DOUBLE", 64, Float, Some(Scalar::F64), 1, ["float64", "f64"],
        "IEEE 754 binary64.";
    Uint32 = 12, "UINT32", 32, UnsignedInt, Some(Scalar::U32), 1, ["u32"],
        "32-bit unsigned integer.";
    Uint64 = 13, "UINT64", 64, UnsignedInt, Some(Scalar::U64), 1, ["u64"],
        "64-bit unsigned integer.";
    Complex64 = 14, "COMPLEX64", 64, Complex, Some(Scalar::C64), 0, ["c64"],
        "Two FLOATs, real part first.";
    Complex128 = 15, "COMPLEX128", 128, Complex, Some(Scalar::C128), 0, ["c128"],
        "Two DOUBLEs, real part first.";
    Bfloat16 = 16, "BFLOAT16", 16, Float, Some(Scalar::Bf16), 13, ["bf16"],
        "bfloat16: the sign, exponent and top 7 mantissa bits of a FLOAT.";
    Float8E4M3Fn = 17, "FLOAT8E4M3FN", 8, Float, None, 19, ["float8_e4m3fn"],
        "float8 E4M3: no infinities, one NaN pattern per sign.";
    Float8E4M3Fnuz = 18, "FLOAT8E4M3FNUZ", 8, Float, None, 19, ["float8_e4m3fnuz"],
        "float8 E4M3: no infinities, no -0, one NaN (0x80).";
    Float8E5M2 = 19, "FLOAT8E5M2", 8, Float, None, 19, ["float8_e5m2"],
        "float8 E5M2, with infinities and NaNs (the top byte of a FLOAT16).";
    Float8E5M2Fnuz = 20, "FLOAT8E5M2FNUZ", 8, Float, None, 19, ["float8_e5m2fnuz"],
        "float8 E5M2: no infinities, no -0, one NaN (0x80).";
    Uint4 = 21, "UINT4", 4, UnsignedInt, None, 21, [],
        "4-bit unsigned integer, packed two per byte (element 0 in the low bits).";
    Int4 = 22, "INT4", 4, SignedInt, None, 21, [],
        "4-bit two's complement integer, packed two per byte (element 0 in the low bits).";
    Float4E2M1 = 23, "FLOAT4E2M1", 4, Float, None, 23, ["float4_e2m1fn", "float4e2m1fn"],
        "float4 E2M1 (no infinities or NaNs), packed two per byte.";
    Float8E8M0 = 24, "FLOAT8E8M0", 8, Float, None, 24, ["float8_e8m0fnu", "float8e8m0fnu"],
        "float8 E8M0: a power of two 2^-127 .. 2^127, or NaN (0xFF); no sign, no zero.";
    Uint2 = 25, "UINT2", 2, UnsignedInt, None, 25, [],
        "2-bit unsigned integer, packed four per byte (element 0 in the low bits).";
    Int2 = 26, "INT2", 2, SignedInt, None, 25, [],
        "2-bit two's complement integer, packed four per byte (element 0 in the low bits).";
    Float6E2M3 = 27, "FLOAT6E2M3", 6, Float, None, 28, ["float6_e2m3fn", "float6e2m3fn"],
        "float6 E2M3 (no infinities or NaNs), packed four per three bytes.";
    Float6E3M2 = 28, "FLOAT6E3M2", 6, Float, None, 28, ["float6_e3m2fn", "float6e3m2fn"],
        "float6 E3M2 (no infinities or NaNs), packed four per three bytes.";
    Qint8 = 100, "QINT8", 8, SignedInt, Some(Scalar::I8), 0, [],
        "TensorFlow's quantized qint8: stored and cast as INT8.";
    Quint8 = 101, "QUINT8", 8, UnsignedInt, Some(Scalar::U8), 0, [],
        "TensorFlow's quantized quint8: stored and cast as UINT8.";
    Qint16 = 102, "QINT16", 16, SignedInt, Some(Scalar::I16), 0, [],
        "TensorFlow's quantized qint16: stored and cast as INT16.";
    Quint16 = 103, "QUINT16", 16, UnsignedInt, Some(Scalar::U16), 0, [],
        "TensorFlow's quantized quint16: stored and cast as UINT16.";
    Qint32 = 104, "QINT32", 32, SignedInt, Some(Scalar::I32), 0, [],
        "TensorFlow's quantized qint32: stored and cast as INT32.";
}

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
        DType::ALL.into_iter()
    }

    /// Like [`DType::from_code`], with an error naming the argument. `what` is formatted
    /// only on failure (pass `format_args!` for a composed name: nothing is allocated on
    /// success).
    #[inline]
    pub fn from_code_arg(code: i32, what: impl core::fmt::Display) -> Result<DType, Error> {
        match DType::from_code(code) {
            Some(dtype) => Ok(dtype),
            None => Err(unknown_code(code, &what)),
        }
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
    #[inline]
    pub fn bits(self) -> u32 {
        // Codes are at most MAX_CODE by construction; `min` lets the compiler drop the
        // bounds check.
        BITS_BY_CODE[(self as usize).min(MAX_CODE)]
    }

    /// True for the dtypes stored more than one element per byte.
    #[inline]
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
    #[inline]
    pub fn bytes_for(self, count: u64) -> Option<u64> {
        let bits = self.bits();
        if bits % 8 == 0 {
            return count.checked_mul(u64::from(bits / 8));
        }
        let bits = u128::from(count) * u128::from(bits);
        u64::try_from(bits.div_ceil(8)).ok()
    }

    /// Whether the Cast schema in force at `opset` lists this dtype. Opsets above the
    /// newest Cast version are answered with the newest schema.
    pub fn in_onnx_cast(self, opset: i32) -> bool {
        let since = self.info().onnx_cast_since;
        since != 0 && opset >= 1 && i64::from(opset) >= i64::from(since)
    }
}

#[cold]
#[inline(never)]
fn unknown_code(code: i32, what: &dyn core::fmt::Display) -> Error {
    Error::InvalidDtype(format!("{what}: unknown dtype code {code}"))
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
