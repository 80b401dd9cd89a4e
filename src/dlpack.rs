// SPDX-License-Identifier: MIT OR Apache-2.0
//! DLPack interop: which tensorcast dtype a DLPack `DLDataType` (code, bits, lanes) is,
//! and back. The codes are DLPack 1.1's `DLDataTypeCode`; a dtype's bit width is its
//! own (the registry's), so the one fact kept here is each dtype's DLPack type code.

use crate::dtype::{DType, DTYPES};
use crate::error::Error;

pub use crate::dtype::DlpackCode;

/// A DLPack `DLDataType`: type code, bits per lane, lanes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DlpackDtype {
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
}

/// The DLPack code of every dtype DLPack can describe, in dtype code order. STRING and
/// the TF quantized types have none.
/// Every dtype with a DLPack code, with it (the registry's `dlpack` column).
fn dlpack_codes() -> impl Iterator<Item = (DType, DlpackCode)> {
    DTYPES
        .iter()
        .filter_map(|row| Some((row.dtype, row.dlpack?)))
}

/// The bit width DLPack gives `dtype`: the registry's (8 for BOOL, 4 for INT4, ...).
fn dlpack_bits(dtype: DType) -> u8 {
    u8::try_from(dtype.bits()).expect("every dtype with a DLPack code is at most 128 bits wide")
}

/// The DLPack description of `dtype` (lanes 1), or UNSUPPORTED for STRING and the TF
/// quantized types, which DLPack has no code for.
pub fn to_dlpack(dtype: DType) -> Result<DlpackDtype, Error> {
    dtype
        .info()
        .dlpack
        .map(|code| DlpackDtype {
            code: code.code(),
            bits: dlpack_bits(dtype),
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
    dlpack_codes()
        .find(|&(d, code)| code.code() == dl.code && dlpack_bits(d) == dl.bits)
        .map(|(d, _)| d)
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
        assert_eq!(mapped, dlpack_codes().count());
    }

    #[test]
    fn no_two_dtypes_share_a_dlpack_code_and_width() {
        let mut seen = std::collections::HashSet::new();
        for (d, code) in dlpack_codes() {
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
        for ((code, bits, lanes), text) in [
            (
                (2, 8, 1),
                "DLPack type code 2 (kDLFloat) with bits 8 has no tensorcast dtype",
            ),
            (
                (3, 64, 1),
                "DLPack type code 3 (kDLOpaqueHandle) with bits 64 has no tensorcast dtype",
            ),
            (
                (6, 1, 1),
                "DLPack type code 6 (kDLBool) with bits 1 has no tensorcast dtype",
            ),
            (
                (200, 32, 1),
                "DLPack type code 200 (not a DLPack 1.1 code) with bits 32 has no tensorcast dtype",
            ),
            (
                (2, 32, 4),
                "DLPack lanes is 4: only lanes 1 (no vector types) has a tensorcast dtype",
            ),
        ] {
            assert_eq!(unsupported(code, bits, lanes), text);
        }
        // Every code no dtype has (from the registry, so a new row cannot leave this
        // stale) is refused at every width, naming itself.
        let taken: Vec<u8> = DType::ALL
            .iter()
            .filter_map(|&d| to_dlpack(d).ok())
            .map(|dl| dl.code)
            .collect();
        let free: Vec<DlpackCode> = DlpackCode::ALL
            .into_iter()
            .filter(|c| !taken.contains(&c.code()))
            .collect();
        assert!(free.contains(&DlpackCode::OpaqueHandle), "{free:?}");
        for code in free {
            for bits in [1, 4, 6, 8, 16, 32, 64] {
                let text = unsupported(code.code(), bits, 1);
                let name = format!("code {} ({}) with bits {bits}", code.code(), code.label());
                assert!(text.contains(&name), "{text}");
            }
        }
        assert!(unsupported(2, 32, 0).contains("lanes is 0"));
    }
}
