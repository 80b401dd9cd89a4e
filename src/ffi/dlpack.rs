// SPDX-License-Identifier: MIT OR Apache-2.0
//! DLPack interop: a DLPack `DLDataType` (code, bits, lanes) to a tensorcast dtype and
//! back. The header does not include dlpack.h and defines no `DL*` name; the type codes
//! are repeated as `TCAST_DLPACK_*` so that both headers can be included together.

use super::args::out_arg;
use super::guard::guard_integer;
use super::types::{tcast_dtype, tcast_error, tcast_status};
use crate::dlpack::{from_dlpack, to_dlpack, DlpackDtype};
use crate::dtype::DType;

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
    guard_integer(err, || {
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
    guard_integer(err, || {
        // SAFETY: each out-pointer is NULL or writable (docs/c-api.md section 1).
        let (mut code, mut bits, mut lanes) = unsafe {
            (
                out_arg(code, "code")?,
                out_arg(bits, "bits")?,
                out_arg(lanes, "lanes")?,
            )
        };
        let dl = to_dlpack(DType::from_code_arg(dtype, "dtype")?)?;
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
    use crate::error::Status;
    use crate::ffi::guard::test_support::{blank_error, message};

    #[test]
    fn every_dtype_round_trips_through_the_c_functions() {
        let mut mapped = 0;
        for dtype in DType::all() {
            let (mut code, mut bits, mut lanes) = (0xEEu8, 0xEEu8, 0xEEEEu16);
            let mut err = blank_error();
            let status =
                tcast_dtype_to_dlpack(dtype.code(), &mut code, &mut bits, &mut lanes, &mut err);
            if status == Status::Unsupported.code() {
                assert!(message(&err).contains(dtype.name()), "{}", message(&err));
                continue;
            }
            assert_eq!(status, Status::Ok.code(), "{dtype}: {}", message(&err));
            assert_eq!((u32::from(bits), lanes), (dtype.bits(), 1), "{dtype}");
            let mut back = -1;
            let status = tcast_dtype_from_dlpack(code, bits, lanes, &mut back, &mut err);
            assert_eq!((status, back), (Status::Ok.code(), dtype.code()), "{dtype}");
            mapped += 1;
        }
        assert_eq!(mapped, DType::all().count() - 6);
    }

    #[test]
    fn errors() {
        let mut err = blank_error();
        let mut out = -1;
        let (mut code, mut bits, mut lanes) = (0u8, 0u8, 0u16);
        let status = tcast_dtype_from_dlpack(
            DlpackCode::Float.code(),
            32,
            1,
            std::ptr::null_mut(),
            &mut err,
        );
        assert_eq!(
            (status, message(&err).as_str()),
            (Status::NullArgument.code(), "out is NULL")
        );
        let status = tcast_dtype_from_dlpack(DlpackCode::Float.code(), 32, 2, &mut out, &mut err);
        assert_eq!(status, Status::Unsupported.code());
        assert!(message(&err).contains("lanes is 2"), "{}", message(&err));
        let status = tcast_dtype_from_dlpack(DlpackCode::UInt.code(), 1, 1, &mut out, &mut err);
        assert_eq!(status, Status::Unsupported.code());
        assert!(
            message(&err).contains("code 1 (kDLUInt) with bits 1"),
            "{}",
            message(&err)
        );

        let null_u8 = std::ptr::null_mut();
        let status = tcast_dtype_to_dlpack(1, null_u8, &mut bits, &mut lanes, &mut err);
        assert_eq!(
            (status, message(&err).as_str()),
            (Status::NullArgument.code(), "code is NULL")
        );
        let status = tcast_dtype_to_dlpack(1, &mut code, null_u8, &mut lanes, &mut err);
        assert_eq!(
            (status, message(&err).as_str()),
            (Status::NullArgument.code(), "bits is NULL")
        );
        let status = tcast_dtype_to_dlpack(1, &mut code, &mut bits, std::ptr::null_mut(), &mut err);
        assert_eq!(
            (status, message(&err).as_str()),
            (Status::NullArgument.code(), "lanes is NULL")
        );
        let status = tcast_dtype_to_dlpack(99, &mut code, &mut bits, &mut lanes, &mut err);
        assert_eq!(status, Status::InvalidDtype.code());
        let status = tcast_dtype_to_dlpack(100, &mut code, &mut bits, &mut lanes, &mut err);
        assert_eq!(
            (status, message(&err).as_str()),
            (Status::Unsupported.code(), "QINT8 has no DLPack type code")
        );
    }
}
