//! DLPack interop: a DLPack `DLDataType` (code, bits, lanes) to a tensorcast dtype and
//! back. The header does not include dlpack.h and defines no `DL*` name; the type codes
//! are repeated as `TCAST_DLPACK_*` so that both headers can be included together.

use super::args::{dtype_arg, out_arg};
use super::guard::guard;
use super::types::{tcast_dtype, tcast_error, tcast_status};
use crate::dlpack::{from_dlpack, to_dlpack, DlpackDtype};

/// DLPack type code kDLInt (signed integers: 2, 4, 8, 16, 32, 64 bits).
pub const TCAST_DLPACK_INT: u8 = 0;
/// DLPack type code kDLUInt (unsigned integers: 2, 4, 8, 16, 32, 64 bits).
pub const TCAST_DLPACK_UINT: u8 = 1;
/// DLPack type code kDLFloat (IEEE floats: 16, 32, 64 bits).
pub const TCAST_DLPACK_FLOAT: u8 = 2;
/// DLPack type code kDLOpaqueHandle (no tensorcast dtype).
pub const TCAST_DLPACK_OPAQUE_HANDLE: u8 = 3;
/// DLPack type code kDLBfloat (16 bits).
pub const TCAST_DLPACK_BFLOAT: u8 = 4;
/// DLPack type code kDLComplex (64 and 128 bits).
pub const TCAST_DLPACK_COMPLEX: u8 = 5;
/// DLPack type code kDLBool (8 bits).
pub const TCAST_DLPACK_BOOL: u8 = 6;
/// DLPack type code kDLFloat8_e3m4 (no tensorcast dtype).
pub const TCAST_DLPACK_FLOAT8_E3M4: u8 = 7;
/// DLPack type code kDLFloat8_e4m3 (no tensorcast dtype).
pub const TCAST_DLPACK_FLOAT8_E4M3: u8 = 8;
/// DLPack type code kDLFloat8_e4m3b11fnuz (no tensorcast dtype).
pub const TCAST_DLPACK_FLOAT8_E4M3B11FNUZ: u8 = 9;
/// DLPack type code kDLFloat8_e4m3fn: FLOAT8E4M3FN.
pub const TCAST_DLPACK_FLOAT8_E4M3FN: u8 = 10;
/// DLPack type code kDLFloat8_e4m3fnuz: FLOAT8E4M3FNUZ.
pub const TCAST_DLPACK_FLOAT8_E4M3FNUZ: u8 = 11;
/// DLPack type code kDLFloat8_e5m2: FLOAT8E5M2.
pub const TCAST_DLPACK_FLOAT8_E5M2: u8 = 12;
/// DLPack type code kDLFloat8_e5m2fnuz: FLOAT8E5M2FNUZ.
pub const TCAST_DLPACK_FLOAT8_E5M2FNUZ: u8 = 13;
/// DLPack type code kDLFloat8_e8m0fnu: FLOAT8E8M0.
pub const TCAST_DLPACK_FLOAT8_E8M0FNU: u8 = 14;
/// DLPack type code kDLFloat6_e2m3fn: FLOAT6E2M3 (6 bits).
pub const TCAST_DLPACK_FLOAT6_E2M3FN: u8 = 15;
/// DLPack type code kDLFloat6_e3m2fn: FLOAT6E3M2 (6 bits).
pub const TCAST_DLPACK_FLOAT6_E3M2FN: u8 = 16;
/// DLPack type code kDLFloat4_e2m1fn: FLOAT4E2M1 (4 bits).
pub const TCAST_DLPACK_FLOAT4_E2M1FN: u8 = 17;

/// The tensorcast dtype of a DLPack `DLDataType` given as its three fields: kDLInt and
/// kDLUInt with 2, 4, 8, 16, 32 or 64 bits, kDLFloat 16/32/64, kDLBfloat 16, kDLComplex
/// 64/128, kDLBool 8, and the DLPack 1.1 float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz,
/// e8m0fnu), float6 and float4 codes. DLPack packs sub-byte types as tensorcast does
/// (element 0 in the lowest bits), unless the producer flags them as padded.
/// Errors: NULL_ARGUMENT (out NULL), UNSUPPORTED (lanes not 1, or a code and bits with
/// no tensorcast dtype; the message names them).
#[no_mangle]
pub extern "C" fn tcast_dtype_from_dlpack(
    code: u8,
    bits: u8,
    lanes: u16,
    out: *mut tcast_dtype,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: `out` is NULL or writable (docs/c-api.md section 1).
        let mut out = unsafe { out_arg(out, "out") }?;
        out.write(from_dlpack(DlpackDtype { code, bits, lanes })?.code());
        Ok(())
    })
}

/// The DLPack `DLDataType` fields of `dtype` (lanes is always 1): the inverse of
/// `tcast_dtype_from_dlpack`.
/// Errors: NULL_ARGUMENT (code, bits or lanes NULL), INVALID_DTYPE (unknown dtype code),
/// UNSUPPORTED (STRING and the TF quantized types, which DLPack has no code for).
#[no_mangle]
pub extern "C" fn tcast_dtype_to_dlpack(
    dtype: tcast_dtype,
    code: *mut u8,
    bits: *mut u8,
    lanes: *mut u16,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: each out-pointer is NULL or writable (docs/c-api.md section 1).
        let (mut code, mut bits, mut lanes) = unsafe {
            (
                out_arg(code, "code")?,
                out_arg(bits, "bits")?,
                out_arg(lanes, "lanes")?,
            )
        };
        let dl = to_dlpack(dtype_arg(dtype, "dtype")?)?;
        code.write(dl.code);
        bits.write(dl.bits);
        lanes.write(dl.lanes);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlpack::DlpackCode;
    use crate::dtype::DType;
    use crate::ffi::guard::test_support::{blank_error, message};
    use crate::ffi::TCAST_OK;
    use crate::ffi::{TCAST_ERR_INVALID_DTYPE, TCAST_ERR_NULL_ARGUMENT, TCAST_ERR_UNSUPPORTED};

    #[test]
    fn code_constants_match_dlpack() {
        let pairs = [
            (TCAST_DLPACK_INT, "kDLInt"),
            (TCAST_DLPACK_UINT, "kDLUInt"),
            (TCAST_DLPACK_FLOAT, "kDLFloat"),
            (TCAST_DLPACK_OPAQUE_HANDLE, "kDLOpaqueHandle"),
            (TCAST_DLPACK_BFLOAT, "kDLBfloat"),
            (TCAST_DLPACK_COMPLEX, "kDLComplex"),
            (TCAST_DLPACK_BOOL, "kDLBool"),
            (TCAST_DLPACK_FLOAT8_E3M4, "kDLFloat8_e3m4"),
            (TCAST_DLPACK_FLOAT8_E4M3, "kDLFloat8_e4m3"),
            (TCAST_DLPACK_FLOAT8_E4M3B11FNUZ, "kDLFloat8_e4m3b11fnuz"),
            (TCAST_DLPACK_FLOAT8_E4M3FN, "kDLFloat8_e4m3fn"),
            (TCAST_DLPACK_FLOAT8_E4M3FNUZ, "kDLFloat8_e4m3fnuz"),
            (TCAST_DLPACK_FLOAT8_E5M2, "kDLFloat8_e5m2"),
            (TCAST_DLPACK_FLOAT8_E5M2FNUZ, "kDLFloat8_e5m2fnuz"),
            (TCAST_DLPACK_FLOAT8_E8M0FNU, "kDLFloat8_e8m0fnu"),
            (TCAST_DLPACK_FLOAT6_E2M3FN, "kDLFloat6_e2m3fn"),
            (TCAST_DLPACK_FLOAT6_E3M2FN, "kDLFloat6_e3m2fn"),
            (TCAST_DLPACK_FLOAT4_E2M1FN, "kDLFloat4_e2m1fn"),
        ];
        assert_eq!(pairs.len(), DlpackCode::ALL.len());
        for (value, name) in pairs {
            assert_eq!(
                DlpackCode::from_value(value).map(DlpackCode::name),
                Some(name)
            );
        }
    }

    #[test]
    fn every_dtype_round_trips_through_the_c_functions() {
        let mut mapped = 0;
        for dtype in DType::all() {
            let (mut code, mut bits, mut lanes) = (0xEEu8, 0xEEu8, 0xEEEEu16);
            let mut err = blank_error();
            let status =
                tcast_dtype_to_dlpack(dtype.code(), &mut code, &mut bits, &mut lanes, &mut err);
            if status == TCAST_ERR_UNSUPPORTED {
                assert!(message(&err).contains(dtype.name()), "{}", message(&err));
                continue;
            }
            assert_eq!(status, TCAST_OK, "{dtype}: {}", message(&err));
            assert_eq!((u32::from(bits), lanes), (dtype.bits(), 1), "{dtype}");
            let mut back = -1;
            let status = tcast_dtype_from_dlpack(code, bits, lanes, &mut back, &mut err);
            assert_eq!((status, back), (TCAST_OK, dtype.code()), "{dtype}");
            mapped += 1;
        }
        assert_eq!(mapped, DType::all().count() - 6);
    }

    #[test]
    fn errors() {
        let mut err = blank_error();
        let mut out = -1;
        let (mut code, mut bits, mut lanes) = (0u8, 0u8, 0u16);
        let status =
            tcast_dtype_from_dlpack(TCAST_DLPACK_FLOAT, 32, 1, std::ptr::null_mut(), &mut err);
        assert_eq!(
            (status, message(&err).as_str()),
            (TCAST_ERR_NULL_ARGUMENT, "out is NULL")
        );
        let status = tcast_dtype_from_dlpack(TCAST_DLPACK_FLOAT, 32, 2, &mut out, &mut err);
        assert_eq!(status, TCAST_ERR_UNSUPPORTED);
        assert!(message(&err).contains("lanes is 2"), "{}", message(&err));
        let status = tcast_dtype_from_dlpack(TCAST_DLPACK_UINT, 1, 1, &mut out, &mut err);
        assert_eq!(status, TCAST_ERR_UNSUPPORTED);
        assert!(
            message(&err).contains("code 1 (kDLUInt) with bits 1"),
            "{}",
            message(&err)
        );

        let null_u8 = std::ptr::null_mut();
        let status = tcast_dtype_to_dlpack(1, null_u8, &mut bits, &mut lanes, &mut err);
        assert_eq!(
            (status, message(&err).as_str()),
            (TCAST_ERR_NULL_ARGUMENT, "code is NULL")
        );
        let status = tcast_dtype_to_dlpack(1, &mut code, null_u8, &mut lanes, &mut err);
        assert_eq!(
            (status, message(&err).as_str()),
            (TCAST_ERR_NULL_ARGUMENT, "bits is NULL")
        );
        let status = tcast_dtype_to_dlpack(1, &mut code, &mut bits, std::ptr::null_mut(), &mut err);
        assert_eq!(
            (status, message(&err).as_str()),
            (TCAST_ERR_NULL_ARGUMENT, "lanes is NULL")
        );
        let status = tcast_dtype_to_dlpack(99, &mut code, &mut bits, &mut lanes, &mut err);
        assert_eq!(status, TCAST_ERR_INVALID_DTYPE);
        let status = tcast_dtype_to_dlpack(100, &mut code, &mut bits, &mut lanes, &mut err);
        assert_eq!(
            (status, message(&err).as_str()),
            (TCAST_ERR_UNSUPPORTED, "QINT8 has no DLPack type code")
        );
    }
}
