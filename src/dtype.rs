// SPDX-License-Identifier: MIT OR Apache-2.0
//! The dtype registry: one row holds every fact about a dtype (code, name, width,
//! family, in-memory storage, the first ONNX Cast version that lists it, its aliases, its
//! DLPack code, its numpy / ml_dtypes name and, for the small floats and packed integers,
//! the format parameters). The kernels, the FFI, the bindings' generated tables and the
//! tests all read it. The one dispatch over the low-precision formats, from a format id
//! and option bits to the code compiled for them, is a table that `bash
//! scripts/generate.sh` writes from the rows (`src/formats/dispatch.rs`, from
//! [`LowFormat::id_name`] and [`LowFormat::options`]), so adding a dtype is adding its
//! row.

use crate::error::Error;
use crate::tables::{CConst, CTable};

crate::tables::c_enum! {
    /// A DLPack type code (`DLDataTypeCode` in dlpack.h 1.1); [`DlpackCode::label`] is the
    /// enumerator's name there, e.g. "kDLFloat8_e4m3fn".
    pub enum DlpackCode: u8,
        "DLPack 1.1's type codes (DLDataType.code), for tcast_dtype_from_dlpack and \
         tcast_dtype_to_dlpack. The header does not include dlpack.h and defines no DL* \
         name, so that both headers can be included together."
    {
        Int = 0 => TCAST_DLPACK_INT ("kDLInt"):
            "DLPack type code kDLInt (signed integers: 2, 4, 8, 16, 32, 64 bits).",
        UInt = 1 => TCAST_DLPACK_UINT ("kDLUInt"):
            "DLPack type code kDLUInt (unsigned integers: 2, 4, 8, 16, 32, 64 bits).",
        Float = 2 => TCAST_DLPACK_FLOAT ("kDLFloat"):
            "DLPack type code kDLFloat (IEEE floats: 16, 32, 64 bits).",
        OpaqueHandle = 3 => TCAST_DLPACK_OPAQUE_HANDLE ("kDLOpaqueHandle"):
            "DLPack type code kDLOpaqueHandle (no tensorcast dtype).",
        Bfloat = 4 => TCAST_DLPACK_BFLOAT ("kDLBfloat"):
            "DLPack type code kDLBfloat (16 bits).",
        Complex = 5 => TCAST_DLPACK_COMPLEX ("kDLComplex"):
            "DLPack type code kDLComplex (64 and 128 bits).",
        Bool = 6 => TCAST_DLPACK_BOOL ("kDLBool"):
            "DLPack type code kDLBool (8 bits).",
        Float8E3M4 = 7 => TCAST_DLPACK_FLOAT8_E3M4 ("kDLFloat8_e3m4"):
            "DLPack type code kDLFloat8_e3m4 (no tensorcast dtype).",
        Float8E4M3 = 8 => TCAST_DLPACK_FLOAT8_E4M3 ("kDLFloat8_e4m3"):
            "DLPack type code kDLFloat8_e4m3 (no tensorcast dtype).",
        Float8E4M3B11Fnuz = 9 => TCAST_DLPACK_FLOAT8_E4M3B11FNUZ ("kDLFloat8_e4m3b11fnuz"):
            "DLPack type code kDLFloat8_e4m3b11fnuz (no tensorcast dtype).",
        Float8E4M3Fn = 10 => TCAST_DLPACK_FLOAT8_E4M3FN ("kDLFloat8_e4m3fn"):
            "DLPack type code kDLFloat8_e4m3fn: FLOAT8E4M3FN.",
        Float8E4M3Fnuz = 11 => TCAST_DLPACK_FLOAT8_E4M3FNUZ ("kDLFloat8_e4m3fnuz"):
            "DLPack type code kDLFloat8_e4m3fnuz: FLOAT8E4M3FNUZ.",
        Float8E5M2 = 12 => TCAST_DLPACK_FLOAT8_E5M2 ("kDLFloat8_e5m2"):
            "DLPack type code kDLFloat8_e5m2: FLOAT8E5M2.",
        Float8E5M2Fnuz = 13 => TCAST_DLPACK_FLOAT8_E5M2FNUZ ("kDLFloat8_e5m2fnuz"):
            "DLPack type code kDLFloat8_e5m2fnuz: FLOAT8E5M2FNUZ.",
        Float8E8M0Fnu = 14 => TCAST_DLPACK_FLOAT8_E8M0FNU ("kDLFloat8_e8m0fnu"):
            "DLPack type code kDLFloat8_e8m0fnu: FLOAT8E8M0.",
        Float6E2M3Fn = 15 => TCAST_DLPACK_FLOAT6_E2M3FN ("kDLFloat6_e2m3fn"):
            "DLPack type code kDLFloat6_e2m3fn: FLOAT6E2M3 (6 bits).",
        Float6E3M2Fn = 16 => TCAST_DLPACK_FLOAT6_E3M2FN ("kDLFloat6_e3m2fn"):
            "DLPack type code kDLFloat6_e3m2fn: FLOAT6E3M2 (6 bits).",
        Float4E2M1Fn = 17 => TCAST_DLPACK_FLOAT4_E2M1FN ("kDLFloat4_e2m1fn"):
            "DLPack type code kDLFloat4_e2m1fn: FLOAT4E2M1 (4 bits).",
    }
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
    /// The DLPack 1.1 type code, if DLPack has one (the width is `bits`).
    pub dlpack: Option<DlpackCode>,
    /// What numpy (with ml_dtypes) calls the dtype.
    pub numpy: NumpyName,
    /// For the small floats and the packed integers: the format's parameters.
    pub low: Option<LowFormat>,
}

/// What numpy (with ml_dtypes) calls a dtype.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NumpyName {
    /// A numpy builtin, by its type character (`'f'` for float32).
    Char(u8),
    /// An ml_dtypes type, by its name (`"float8_e4m3fn"`).
    MlDtypes(&'static str),
    /// Stored as another dtype, which numpy names (TF's quantized types).
    StoredAs(DType),
}

/// How a small float treats the top of its range and NaN, or that it is an integer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LowKind {
    /// FLOAT8E5M2: IEEE-style infinities and NaNs.
    Ieee,
    /// FLOAT8E4M3FN: no infinity; S.1111.111 is NaN; -0 exists.
    Fn,
    /// FNUZ: no infinity, no -0; 0x80 is the only NaN.
    Fnuz,
    /// FLOAT4E2M1: no infinity or NaN; saturates; -0 exists; NaN gives 0x8 (+NaN) / 0x0
    /// (-NaN) as onnx's test data (ml_dtypes) expect.
    Fp4,
    /// FLOAT6: the rules of FLOAT4E2M1 (saturates, -0 is 0x20, +NaN gives 0x20 and -NaN
    /// 0x00, as the onnx 1.23 reference does); a kind of its own because FLOAT4E2M1 has
    /// kernels of its own.
    Fp6,
    /// FLOAT8E8M0: an unsigned power of two; 0xFF is NaN.
    E8m0,
    /// Two's complement or unsigned integers.
    Int { signed: bool },
}

/// A small float's or packed integer's format parameters (`formats::lowp` does the
/// arithmetic).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LowFormat {
    pub dtype: DType,
    pub bits: u32,
    pub exp_bits: u32,
    pub man_bits: u32,
    pub bias: i32,
    pub kind: LowKind,
    /// The largest finite code's magnitude bits (sign excluded).
    pub max_code: u32,
}

impl LowFormat {
    /// The format's id: its position in [`LOW_FORMATS`] (the kernels' const generic `F`).
    /// Panics for a `LowFormat` that is not one of [`LOW_FORMATS`].
    pub fn id(&self) -> u8 {
        low_id(self.dtype)
    }

    /// The name of the format id's constant in the library's `low_ids` module, from the
    /// row ("E4M3FN" for FLOAT8E4M3FN): the generated dispatch table
    /// (`src/formats/dispatch.rs`) names each format by it.
    pub fn id_name(&self) -> &'static str {
        LOW_ROWS[usize::from(self.id())].0
    }

    /// The option bits the format's encoders are compiled for, from the row: bit 0
    /// `saturate`, bits 1-2 the `round_mode` (0 up, 1 down, 2 nearest). A format that
    /// ignores an option has it clear in every set (a format that ignores both: `[0]`).
    pub fn options(&self) -> &'static [u8] {
        LOW_ROWS[usize::from(self.id())].1
    }
}

/// The format id of a low-precision dtype: its position in [`LOW_FORMATS`] (const
/// evaluation fails for a dtype without format parameters).
const fn low_id(dtype: DType) -> u8 {
    let mut i = 0;
    while i < LOW_FORMATS.len() {
        if LOW_FORMATS[i].dtype as i32 == dtype as i32 {
            return i as u8;
        }
        i += 1;
    }
    panic!("not a low-precision dtype")
}

/// One [`LowFormat`] from a row's parameters.
macro_rules! low_format {
    ($dt:ident, $bits:expr, $e:literal, $m:literal, $bias:literal, $kind:expr, $max:literal) => {
        LowFormat {
            dtype: DType::$dt,
            bits: $bits,
            exp_bits: $e,
            man_bits: $m,
            bias: $bias,
            kind: $kind,
            max_code: $max,
        }
    };
}

/// A row's `low` field: `None`, or its [`LowFormat`].
macro_rules! low_row {
    () => {
        None
    };
    ($($params:tt)*) => {
        Some(low_format!($($params)*))
    };
}

/// Writes the registry from one table: the [`DType`] enum (each row's doc is the
/// variant's doc and the header's), `DType::ALL`, `DType::from_code`, [`DTYPES`] and
/// `DType::TABLE`, the `TCAST_DTYPE_*` constants (UNDEFINED, 0, first), the code
/// lookups and `MAX_CODE`, and for the low-precision rows [`LOW_FORMATS`], the format ids
/// ([`low_ids`]) and each format's id name and option bits.
macro_rules! dtypes {
    ($(
        $dt:ident = $code:literal, $name:literal, $bits:expr, $fam:ident, $scalar:expr,
        $since:expr, [$($alias:literal),*], dlpack $dl:expr, numpy $np:expr,
        $(low $lid:ident($e:literal, $m:literal, $bias:literal, $kind:expr, $max:literal)
            options [$($opt:literal),*],)?
        $doc:literal;
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

        /// Each code's row in [`DTYPES`] (0 for codes without a dtype).
        const INDEX_BY_CODE: [u8; MAX_CODE + 1] = {
            let mut table = [0u8; MAX_CODE + 1];
            let codes = [$($code),*];
            let mut i = 0;
            while i < codes.len() {
                table[codes[i]] = i as u8;
                i += 1;
            }
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
                dlpack: $dl,
                numpy: $np,
                low: low_row!($($dt, $bits, $e, $m, $bias, $kind, $max)?),
            }
        ),*];

        /// The small floats and packed integers, in code order; a format's id (the
        /// const generic `F` of the kernels, `Repr::Low`'s number) is its position here.
        pub const LOW_FORMATS: [LowFormat; [$($(stringify!($lid),)?)*].len()] = [$($(
            low_format!($dt, $bits, $e, $m, $bias, $kind, $max),
        )?)*];

        /// The format ids by name: code names a format by these, never by its number.
        pub mod low_ids {
            use super::{low_id, DType};
            $($(
                #[doc = concat!("The format id of ", $name, ".")]
                pub const $lid: u8 = low_id(DType::$dt);
            )?)*
        }

        /// Each format's id constant name in [`low_ids`] and the option bits its
        /// encoders are compiled for, by format id ([`LowFormat::id_name`],
        /// [`LowFormat::options`]).
        const LOW_ROWS: [(&str, &[u8]); LOW_FORMATS.len()] = [$($(
            (stringify!($lid), &[$($opt),*]),
        )?)*];

        /// The largest dtype code.
        const MAX_CODE: usize = {
            let codes = [$($code),*];
            let mut max = 0;
            let mut i = 0;
            while i < codes.len() {
                if codes[i] > max {
                    max = codes[i];
                }
                i += 1;
            }
            max
        };

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

            /// The `TCAST_DTYPE_*` constants (written into the header by the generate command).
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

/// Bits of one STRING element: a `tcast_string` view (pointer + u64 length).
const STRING_BITS: u32 = 8 * (core::mem::size_of::<*const u8>() as u32 + 8);

// code, name, bits, family, storage, first ONNX Cast version (0: none), aliases, doc
#[rustfmt::skip]
dtypes! {
    Float = 1, "FLOAT", 32, Float, Some(Scalar::F32), 1, ["float32", "f32"],
        dlpack Some(DlpackCode::Float), numpy NumpyName::Char(b'f'),
        "IEEE 754 binary32.";
    Uint8 = 2, "UINT8", 8, UnsignedInt, Some(Scalar::U8), 1, ["u8"],
        dlpack Some(DlpackCode::UInt), numpy NumpyName::Char(b'B'),
        "8-bit unsigned integer.";
    Int8 = 3, "INT8", 8, SignedInt, Some(Scalar::I8), 1, ["i8"],
        dlpack Some(DlpackCode::Int), numpy NumpyName::Char(b'b'),
        "8-bit two's complement integer.";
    Uint16 = 4, "UINT16", 16, UnsignedInt, Some(Scalar::U16), 1, ["u16"],
        dlpack Some(DlpackCode::UInt), numpy NumpyName::Char(b'H'),
        "16-bit unsigned integer.";
    Int16 = 5, "INT16", 16, SignedInt, Some(Scalar::I16), 1, ["i16"],
        dlpack Some(DlpackCode::Int), numpy NumpyName::Char(b'h'),
        "16-bit two's complement integer.";
    Int32 = 6, "INT32", 32, SignedInt, Some(Scalar::I32), 1, ["i32"],
        dlpack Some(DlpackCode::Int), numpy NumpyName::Char(b'i'),
        "32-bit two's complement integer.";
    Int64 = 7, "INT64", 64, SignedInt, Some(Scalar::I64), 1, ["i64"],
        dlpack Some(DlpackCode::Int), numpy NumpyName::Char(b'l'),
        "64-bit two's complement integer.";
    String = 8, "STRING", STRING_BITS, String, None, 9, ["str"],
        dlpack None, numpy NumpyName::Char(b'U'),
        "Text: each element is a tcast_string view (bytes and length).";
    Bool = 9, "BOOL", 8, Bool, Some(Scalar::Bool), 1, [],
        dlpack Some(DlpackCode::Bool), numpy NumpyName::Char(b'?'),
        "One byte, 0 or 1.";
    Float16 = 10, "FLOAT16", 16, Float, Some(Scalar::F16), 1, ["half", "f16"],
        dlpack Some(DlpackCode::Float), numpy NumpyName::Char(b'e'),
        "IEEE 754 binary16.";
    Double = 11, "DOUBLE", 64, Float, Some(Scalar::F64), 1, ["float64", "f64"],
        dlpack Some(DlpackCode::Float), numpy NumpyName::Char(b'd'),
        "IEEE 754 binary64.";
    Uint32 = 12, "UINT32", 32, UnsignedInt, Some(Scalar::U32), 1, ["u32"],
        dlpack Some(DlpackCode::UInt), numpy NumpyName::Char(b'I'),
        "32-bit unsigned integer.";
    Uint64 = 13, "UINT64", 64, UnsignedInt, Some(Scalar::U64), 1, ["u64"],
        dlpack Some(DlpackCode::UInt), numpy NumpyName::Char(b'L'),
        "64-bit unsigned integer.";
    Complex64 = 14, "COMPLEX64", 64, Complex, Some(Scalar::C64), 0, ["c64"],
        dlpack Some(DlpackCode::Complex), numpy NumpyName::Char(b'F'),
        "Two FLOATs, real part first.";
    Complex128 = 15, "COMPLEX128", 128, Complex, Some(Scalar::C128), 0, ["c128"],
        dlpack Some(DlpackCode::Complex), numpy NumpyName::Char(b'D'),
        "Two DOUBLEs, real part first.";
    Bfloat16 = 16, "BFLOAT16", 16, Float, Some(Scalar::Bf16), 13, ["bf16"],
        dlpack Some(DlpackCode::Bfloat), numpy NumpyName::MlDtypes("bfloat16"),
        "bfloat16: the sign, exponent and top 7 mantissa bits of a FLOAT.";
    Float8E4M3Fn = 17, "FLOAT8E4M3FN", 8, Float, None, 19, ["float8_e4m3fn"],
        dlpack Some(DlpackCode::Float8E4M3Fn), numpy NumpyName::MlDtypes("float8_e4m3fn"),
        low E4M3FN(4, 3, 7, LowKind::Fn, 0x7e) options [0, 1],
        "float8 E4M3: no infinities, one NaN pattern per sign.";
    Float8E4M3Fnuz = 18, "FLOAT8E4M3FNUZ", 8, Float, None, 19, ["float8_e4m3fnuz"],
        dlpack Some(DlpackCode::Float8E4M3Fnuz), numpy NumpyName::MlDtypes("float8_e4m3fnuz"),
        low E4M3FNUZ(4, 3, 8, LowKind::Fnuz, 0x7f) options [0, 1],
        "float8 E4M3: no infinities, no -0, one NaN (0x80).";
    Float8E5M2 = 19, "FLOAT8E5M2", 8, Float, None, 19, ["float8_e5m2"],
        dlpack Some(DlpackCode::Float8E5M2), numpy NumpyName::MlDtypes("float8_e5m2"),
        low E5M2(5, 2, 15, LowKind::Ieee, 0x7b) options [0, 1],
        "float8 E5M2, with infinities and NaNs (the top byte of a FLOAT16).";
    Float8E5M2Fnuz = 20, "FLOAT8E5M2FNUZ", 8, Float, None, 19, ["float8_e5m2fnuz"],
        dlpack Some(DlpackCode::Float8E5M2Fnuz), numpy NumpyName::MlDtypes("float8_e5m2fnuz"),
        low E5M2FNUZ(5, 2, 16, LowKind::Fnuz, 0x7f) options [0, 1],
        "float8 E5M2: no infinities, no -0, one NaN (0x80).";
    Uint4 = 21, "UINT4", 4, UnsignedInt, None, 21, [],
        dlpack Some(DlpackCode::UInt), numpy NumpyName::MlDtypes("uint4"),
        low U4(0, 0, 0, LowKind::Int { signed: false }, 0xf) options [0],
        "4-bit unsigned integer, packed two per byte (element 0 in the low bits).";
    Int4 = 22, "INT4", 4, SignedInt, None, 21, [],
        dlpack Some(DlpackCode::Int), numpy NumpyName::MlDtypes("int4"),
        low I4(0, 0, 0, LowKind::Int { signed: true }, 0x7) options [0],
        "4-bit two's complement integer, packed two per byte (element 0 in the low bits).";
    Float4E2M1 = 23, "FLOAT4E2M1", 4, Float, None, 23, ["float4_e2m1fn", "float4e2m1fn"],
        dlpack Some(DlpackCode::Float4E2M1Fn), numpy NumpyName::MlDtypes("float4_e2m1fn"),
        low E2M1(2, 1, 1, LowKind::Fp4, 0x7) options [0],
        "float4 E2M1 (no infinities or NaNs), packed two per byte.";
    Float8E8M0 = 24, "FLOAT8E8M0", 8, Float, None, 24, ["float8_e8m0fnu", "float8e8m0fnu"],
        dlpack Some(DlpackCode::Float8E8M0Fnu), numpy NumpyName::MlDtypes("float8_e8m0fnu"),
        low E8M0(8, 0, 127, LowKind::E8m0, 0xfe) options [0, 1, 2, 3, 4, 5],
        "float8 E8M0: a power of two 2^-127 .. 2^127, or NaN (0xFF); no sign, no zero.";
    Uint2 = 25, "UINT2", 2, UnsignedInt, None, 25, [],
        dlpack Some(DlpackCode::UInt), numpy NumpyName::MlDtypes("uint2"),
        low U2(0, 0, 0, LowKind::Int { signed: false }, 0x3) options [0],
        "2-bit unsigned integer, packed four per byte (element 0 in the low bits).";
    Int2 = 26, "INT2", 2, SignedInt, None, 25, [],
        dlpack Some(DlpackCode::Int), numpy NumpyName::MlDtypes("int2"),
        low I2(0, 0, 0, LowKind::Int { signed: true }, 0x1) options [0],
        "2-bit two's complement integer, packed four per byte (element 0 in the low bits).";
    Float6E2M3 = 27, "FLOAT6E2M3", 6, Float, None, 28, ["float6_e2m3fn", "float6e2m3fn"],
        dlpack Some(DlpackCode::Float6E2M3Fn), numpy NumpyName::MlDtypes("float6_e2m3fn"),
        low E2M3(2, 3, 1, LowKind::Fp6, 0x1f) options [0],
        "float6 E2M3 (no infinities or NaNs), packed four per three bytes.";
    Float6E3M2 = 28, "FLOAT6E3M2", 6, Float, None, 28, ["float6_e3m2fn", "float6e3m2fn"],
        dlpack Some(DlpackCode::Float6E3M2Fn), numpy NumpyName::MlDtypes("float6_e3m2fn"),
        low E3M2(3, 2, 3, LowKind::Fp6, 0x1f) options [0],
        "float6 E3M2 (no infinities or NaNs), packed four per three bytes.";
    Qint8 = 100, "QINT8", 8, SignedInt, Some(Scalar::I8), 0, [],
        dlpack None, numpy NumpyName::StoredAs(DType::Int8),
        "TensorFlow's quantized qint8: stored and cast as INT8.";
    Quint8 = 101, "QUINT8", 8, UnsignedInt, Some(Scalar::U8), 0, [],
        dlpack None, numpy NumpyName::StoredAs(DType::Uint8),
        "TensorFlow's quantized quint8: stored and cast as UINT8.";
    Qint16 = 102, "QINT16", 16, SignedInt, Some(Scalar::I16), 0, [],
        dlpack None, numpy NumpyName::StoredAs(DType::Int16),
        "TensorFlow's quantized qint16: stored and cast as INT16.";
    Quint16 = 103, "QUINT16", 16, UnsignedInt, Some(Scalar::U16), 0, [],
        dlpack None, numpy NumpyName::StoredAs(DType::Uint16),
        "TensorFlow's quantized quint16: stored and cast as UINT16.";
    Qint32 = 104, "QINT32", 32, SignedInt, Some(Scalar::I32), 0, [],
        dlpack None, numpy NumpyName::StoredAs(DType::Int32),
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
        &DTYPES[usize::from(INDEX_BY_CODE[(self as usize).min(MAX_CODE)])]
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
        let max = DTYPES.iter().map(|row| row.dtype.code()).max();
        assert_eq!(max, Some(MAX_CODE as i32));
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
