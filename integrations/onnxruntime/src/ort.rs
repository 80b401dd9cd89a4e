// SPDX-License-Identifier: MIT OR Apache-2.0
//! The parts of onnxruntime's C API this library uses. The declarations themselves are
//! generated (`ort_sys.rs`, by `bash scripts/generate.sh` from the headers of onnxruntime
//! 1.24 vendored in include/onnxruntime-1.24): every function table and struct is a
//! `#[repr(C)]` struct with a named member for each of the header's, in its order, so a
//! function is read from a table by its name ([`ort_fn!`]), never by a counted index.
//! This module adds the versions asked for, the constants under the names the library
//! uses, and handles on the tables.

use std::ffi::c_int;

pub use crate::ort_sys::*;

/// The API version requested from `OrtApiBase::GetApi` and put in `OrtCustomOp::version`:
/// onnxruntime 1.17, the first with the shape-inference hook and `KernelContext_ParallelFor`.
/// Only members of `OrtApi` that exist from this version on are read from its table.
pub const API_VERSION: u32 = 17;

// ONNXTensorElementDataType: as TensorProto's numbers up to FLOAT4E2M1 (23); after it the
// C API has UINT2 = 24, INT2 = 25, FLOAT8E8M0 = 26 where ONNX has 24 = FLOAT8E8M0,
// 25 = UINT2, 26 = INT2.
pub const TYPE_INT64: c_int = ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64;
pub const TYPE_STRING: c_int = ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING;
pub const TYPE_FLOAT16: c_int = ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16;
pub const TYPE_UINT2: c_int = ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT2;
pub const TYPE_INT2: c_int = ONNX_TENSOR_ELEMENT_DATA_TYPE_INT2;
/// ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT8E8M0: after 1.24's header (which ends at INT2),
/// the next value of the enum in later onnxruntime releases.
pub const TYPE_FLOAT8E8M0: c_int = ONNX_TENSOR_ELEMENT_DATA_TYPE_INT2 + 1;

/// OrtOpAttrType: ORT_OP_ATTR_INT.
pub const ATTR_INT: c_int = ORT_OP_ATTR_INT;

/// OrtCustomOpInputOutputCharacteristic.
pub const REQUIRED: c_int = INPUT_OUTPUT_REQUIRED;

/// OrtHardwareDeviceType_CPU.
pub const HARDWARE_DEVICE_CPU: c_int = OrtHardwareDeviceType_CPU;
/// OrtCompiledModelCompatibility::OrtCompiledModelCompatibility_EP_NOT_APPLICABLE.
pub const COMPILED_MODEL_NOT_APPLICABLE: c_int = OrtCompiledModelCompatibility_EP_NOT_APPLICABLE;

/// The API version of the plugin execution provider: onnxruntime 1.24, the first whose
/// EPs register kernels (`OrtEp::GetKernelRegistry`) instead of compiling nodes, and the
/// version of the vendored headers (`ORT_API_VERSION`).
pub const EP_API_VERSION: u32 = ORT_API_VERSION;

/// The function member `$member` of the table behind `$handle` (an [`Api`] or [`EpApi`]):
/// `ort_fn!(api, CreateStatus)(code, text)`. Only the member is read (through a raw
/// pointer), so a table of an older version than the struct's is fine as long as it has
/// the member; a NULL member, which onnxruntime never leaves in a table of a version
/// that has it, ends the process without a word.
macro_rules! ort_fn {
    ($handle:expr, $member:ident) => {{
        let table = $handle.table();
        // (The call is often inside an unsafe block of its own.)
        #[allow(unused_unsafe)]
        // SAFETY: the handle's table is onnxruntime's, valid for the process, of a version
        // that has this member (Api::new and EpApi::new's contract).
        let member = unsafe { std::ptr::addr_of!((*table).$member).read() };
        match member {
            Some(function) => function,
            None => std::process::abort(),
        }
    }};
}
pub(crate) use ort_fn;

/// The `OrtApi` table of `version` of the onnxruntime whose `OrtApiBase` is `base`, or the
/// status to return when there is none: NULL for a NULL `base` (no status can be made),
/// else one saying that `who` needs onnxruntime `release` or later.
///
/// # Safety
/// `base` is NULL or the `OrtApiBase` onnxruntime passes, valid for the process.
pub unsafe fn api_of(
    base: *const OrtApiBase,
    version: u32,
    who: &str,
    release: &str,
) -> Result<Api, *mut OrtStatus> {
    if base.is_null() {
        return Err(std::ptr::null_mut());
    }
    // SAFETY: `base` is onnxruntime's, valid for the process; OrtApiBase has had its two
    // members since version 1.
    let base = unsafe { &*base };
    let Some(get_api) = base.GetApi else {
        return Err(std::ptr::null_mut());
    };
    // SAFETY: GetApi may be called with any version; NULL means not supported.
    let table = unsafe { get_api(version) };
    if table.is_null() {
        // SAFETY: version 1 exists in every onnxruntime; it has CreateStatus.
        let oldest = unsafe { Api::new(get_api(1)) };
        return Err(oldest.status(
            ORT_NOT_IMPLEMENTED,
            &format!("{who} needs onnxruntime {release} or later (C API version {version})"),
        ));
    }
    // SAFETY: a table of `version`, valid for the process.
    Ok(unsafe { Api::new(table) })
}

/// A handle on an `OrtApi` table of version `API_VERSION` or later.
#[derive(Clone, Copy)]
pub struct Api(*const OrtApi);

// SAFETY: the table is immutable and its functions are thread-safe per onnxruntime's API
// documentation; the handle is a plain pointer to it.
unsafe impl Send for Api {}
// SAFETY: as for Send.
unsafe impl Sync for Api {}

impl Api {
    /// # Safety
    /// `table` is an `OrtApi` of version `API_VERSION` or later, valid for the process.
    pub unsafe fn new(table: *const OrtApi) -> Self {
        Api(table)
    }

    /// The table itself.
    pub fn table(self) -> *const OrtApi {
        self.0
    }

    /// A new status with `code` and `message` (any NUL inside is cut off).
    pub fn status(self, code: c_int, message: &str) -> *mut OrtStatus {
        let mut text: Vec<u8> = message.bytes().take_while(|&b| b != 0).collect();
        text.push(0);
        let create = ort_fn!(self, CreateStatus);
        // SAFETY: CreateStatus (in every version) copies the NUL-terminated text.
        unsafe { create(code, text.as_ptr().cast()) }
    }

    /// Releases a status the caller owns (NULL is fine).
    pub fn release_status(self, status: *mut OrtStatus) {
        if !status.is_null() {
            let release = ort_fn!(self, ReleaseStatus);
            // SAFETY: the status was returned by onnxruntime and is owned by the caller.
            unsafe { release(status) }
        }
    }
}

/// A handle on an `OrtEpApi` table of version `EP_API_VERSION` or later.
#[derive(Clone, Copy)]
pub struct EpApi(*const OrtEpApi);

// SAFETY: as for Api: an immutable table of thread-safe functions.
unsafe impl Send for EpApi {}
// SAFETY: as for Send.
unsafe impl Sync for EpApi {}

impl EpApi {
    /// # Safety
    /// `table` is the `OrtEpApi` of an onnxruntime of version `EP_API_VERSION` or later.
    pub unsafe fn new(table: *const OrtEpApi) -> Self {
        EpApi(table)
    }

    /// The table itself.
    pub fn table(self) -> *const OrtEpApi {
        self.0
    }
}
