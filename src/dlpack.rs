// SPDX-License-Identifier: MIT OR Apache-2.0
//! DLPack interop: which tensorcast dtype a DLPack `DLDataType` (code, bits, lanes) is,
//! and back. The codes are DLPack 1.1's `DLDataTypeCode`; a dtype's bit width is its
//! own (the registry's), so the one fact kept here is each dtype's DLPack type code.

use crate::dtype::DType;
use crate::error::Error;

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

/// A DLPack `DLDataType`: type code, bits per lane, lanes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DlpackDtype {
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
}

/// The DLPack code of every dtype DLPack can describe, in dtype code order. STRING and
/// the TF quantized types have none.
#[rustfmt::skip]
static DLPACK_CODES: [(DType, DlpackCode); 27] = [
    (DType::Float, DlpackCode::Float),
    (DType::Uint8, DlpackCode::UInt),
    (DType::Int8, DlpackCode::Int),
    (DType::Uint16, DlpackCode::UInt),
    (DType::Int16, DlpackCode::Int),
    (DType::Int32, DlpackCode::Int),
    (DType::Int64, DlpackCode::Int),
    (DType::Bool, DlpackCode::Bool),
    (DType::Float16, DlpackCode::Float),
    (DType::Double, DlpackCode::Float),
    (DType::Uint32, DlpackCode::UInt),
    (DType::Uint64, DlpackCode::UInt),
    (DType::Complex64, DlpackCode::Complex),
    (DType::Complex128, DlpackCode::Complex),
    (DType::Bfloat16, DlpackCode::Bfloat),
    (DType::Float8E4M3Fn, DlpackCode::Float8E4M3Fn),
    (DType::Float8E4M3Fnuz, DlpackCode::Float8E4M3Fnuz),
    (DType::Float8E5M2, DlpackCode::Float8E5M2),
    (DType::Float8E5M2Fnuz, DlpackCode::Float8E5M2Fnuz),
    (DType::Uint4, DlpackCode::UInt),
    (DType::Int4, DlpackCode::Int),
    (DType::Float4E2M1, DlpackCode::Float4E2M1Fn),
    (DType::Float8E8M0, DlpackCode::Float8E8M0Fnu),
    (DType::Uint2, DlpackCode::UInt),
    (DType::Int2, DlpackCode::Int),
    (DType::Float6E2M3, DlpackCode::Float6E2M3Fn),
    (DType::Float6E3M2, DlpackCode::Float6E3M2Fn),
];

/// The bit width DLPack gives `dtype`: the registry's (8 for BOOL, 4 for INT4, ...).
fn dlpack_bits(dtype: DType) -> u8 {
    u8::try_from(dtype.bits()).expect("every dtype with a DLPack code is at most 128 bits wide")
}

/// The DLPack description of `dtype` (lanes 1), or UNSUPPORTED for STRING and the TF
/// quantized types, which DLPack has no code for.
pub fn to_dlpack(dtype: DType) -> Result<DlpackDtype, Error> {
    DLPACK_CODES
        .iter()
        .find(|(d, _)| *d == dtype)
        .map(|&(d, code)| DlpackDtype {
            code: code.code(),
            bits: dlpack_bits(d),
            lanes: 1,
        })
        .ok_or_else(|| Error::Unsupported(format!("{dtype} has no DLPack type code")))
}

/// The tensorcast dtype of a DLPack type. UNSUPPORTED when lanes is not 1 (vector types)
/// or no dtype has that code and bit width.
pub fn from_dlpack(dl: DlpackDtype) -> Result<DType, Error> {
    if dl.lanes != 1 {
        return Err(Error::Unsupported(format!(
            "DLPack lanes is {}: only lanes 1 (no vector types) has a tensorcast dtype",
            dl.lanes
        )));
    }
    DLPACK_CODES
        .iter()
        .find(|&&(d, code)| code.code() == dl.code && dlpack_bits(d) == dl.bits)
        .map(|&(d, _)| d)
        .ok_or_else(|| {
            let name =
                DlpackCode::from_code(dl.code).map_or("not a DLPack 1.1 code", DlpackCode::label);
            Error::Unsupported(format!(
                "DLPack type code {} ({name}) with bits {} has no tensorcast dtype",
                dl.code, dl.bits
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Status;

    #[test]
    fn codes_are_in_order_and_round_trip() {
        for (i, code) in DlpackCode::ALL.iter().enumerate() {
            assert_eq!(usize::from(code.code()), i);
            assert_eq!(DlpackCode::from_code(code.code()), Some(*code));
        }
        assert_eq!(DlpackCode::from_code(18), None);
        assert_eq!(DlpackCode::from_code(255), None);
    }

    #[test]
    fn every_dtype_round_trips_or_is_unsupported() {
        let mut mapped = 0;
        for dtype in DType::all() {
            match to_dlpack(dtype) {
                Ok(dl) => {
                    mapped += 1;
                    assert_eq!(dl.lanes, 1);
                    assert_eq!(u32::from(dl.bits), dtype.bits(), "{dtype}");
                    assert_eq!(from_dlpack(dl), Ok(dtype), "{dtype} as {dl:?}");
                }
                Err(e) => {
                    assert_eq!(e.status(), Status::Unsupported);
                    assert_eq!(e.to_string(), format!("{dtype} has no DLPack type code"));
                    assert!(
                        matches!(
                            dtype,
                            DType::String
                                | DType::Qint8
                                | DType::Quint8
                                | DType::Qint16
                                | DType::Quint16
                                | DType::Qint32
                        ),
                        "{dtype}"
                    );
                }
            }
        }
        assert_eq!(mapped, DLPACK_CODES.len());
    }

    #[test]
    fn the_table_is_in_dtype_order_without_repeats() {
        assert!(DLPACK_CODES.windows(2).all(|w| w[0].0 < w[1].0));
        let mut seen = std::collections::HashSet::new();
        for &(d, code) in &DLPACK_CODES {
            assert!(seen.insert((code, dlpack_bits(d))), "{d}");
        }
    }

    #[test]
    fn known_pairs() {
        let dl = |code: DlpackCode, bits| DlpackDtype {
            code: code.code(),
            bits,
            lanes: 1,
        };
        let pairs = [
            (dl(DlpackCode::Int, 2), DType::Int2),
            (dl(DlpackCode::Int, 4), DType::Int4),
            (dl(DlpackCode::Int, 64), DType::Int64),
            (dl(DlpackCode::UInt, 8), DType::Uint8),
            (dl(DlpackCode::UInt, 2), DType::Uint2),
            (dl(DlpackCode::Float, 16), DType::Float16),
            (dl(DlpackCode::Float, 32), DType::Float),
            (dl(DlpackCode::Float, 64), DType::Double),
            (dl(DlpackCode::Bfloat, 16), DType::Bfloat16),
            (dl(DlpackCode::Complex, 64), DType::Complex64),
            (dl(DlpackCode::Complex, 128), DType::Complex128),
            (dl(DlpackCode::Bool, 8), DType::Bool),
            (dl(DlpackCode::Float8E4M3Fn, 8), DType::Float8E4M3Fn),
            (dl(DlpackCode::Float8E8M0Fnu, 8), DType::Float8E8M0),
            (dl(DlpackCode::Float6E3M2Fn, 6), DType::Float6E3M2),
            (dl(DlpackCode::Float4E2M1Fn, 4), DType::Float4E2M1),
        ];
        for (dl, dtype) in pairs {
            assert_eq!(from_dlpack(dl), Ok(dtype), "{dl:?}");
            assert_eq!(to_dlpack(dtype), Ok(dl), "{dtype}");
        }
    }

    #[test]
    fn unknown_types_name_code_bits_and_lanes() {
        let unsupported = |code, bits, lanes| {
            let e = from_dlpack(DlpackDtype { code, bits, lanes }).unwrap_err();
            assert_eq!(e.status(), Status::Unsupported, "{e}");
            e.to_string()
        };
        assert_eq!(
            unsupported(2, 8, 1),
            "DLPack type code 2 (kDLFloat) with bits 8 has no tensorcast dtype"
        );
        assert_eq!(
            unsupported(7, 8, 1),
            "DLPack type code 7 (kDLFloat8_e3m4) with bits 8 has no tensorcast dtype"
        );
        assert_eq!(
            unsupported(6, 1, 1),
            "DLPack type code 6 (kDLBool) with bits 1 has no tensorcast dtype"
        );
        assert_eq!(
            unsupported(200, 32, 1),
            "DLPack type code 200 (not a DLPack 1.1 code) with bits 32 has no tensorcast dtype"
        );
        assert_eq!(
            unsupported(2, 32, 4),
            "DLPack lanes is 4: only lanes 1 (no vector types) has a tensorcast dtype"
        );
        assert!(unsupported(2, 32, 0).contains("lanes is 0"));
    }
}
