// SPDX-License-Identifier: MIT OR Apache-2.0
//! The parts of onnxruntime's C API (onnxruntime_c_api.h) this library uses, declared by
//! hand. `OrtApi` is a table of function pointers that only ever grows at its end; each
//! function used here is read from its slot (its index in the table), so the table needs
//! no full declaration. The slot numbers were counted in the header of onnxruntime 1.31
//! and checked against the generated bindings of ort-sys 2.0.0-rc.15; all of them exist
//! from API version 17 on, which is the version this library asks for.

use std::ffi::{c_char, c_int, c_void};

/// The API version requested from `OrtApiBase::GetApi` and put in `OrtCustomOp::version`:
/// onnxruntime 1.17, the first with the shape-inference hook and `KernelContext_ParallelFor`.
pub const API_VERSION: u32 = 17;

pub enum OrtStatus {}
pub enum OrtApi {}
pub enum OrtSessionOptions {}
pub enum OrtCustomOpDomain {}
pub enum OrtKernelInfo {}
pub enum OrtKernelContext {}
pub enum OrtValue {}
pub enum OrtTensorTypeAndShapeInfo {}
pub enum OrtShapeInferContext {}
pub enum OrtOpAttr {}

/// `OrtApiBase`: how a library finds the API table.
#[repr(C)]
pub struct OrtApiBase {
    pub get_api: unsafe extern "C" fn(version: u32) -> *const OrtApi,
    pub get_version_string: unsafe extern "C" fn() -> *const c_char,
}

// ONNXTensorElementDataType: as TensorProto's numbers up to FLOAT4E2M1 (23); after it the
// C API has UINT2 = 24, INT2 = 25, FLOAT8E8M0 = 26 where ONNX has 24 = FLOAT8E8M0,
// 25 = UINT2, 26 = INT2.
pub const TYPE_INT64: c_int = 7;
pub const TYPE_STRING: c_int = 8;
pub const TYPE_FLOAT16: c_int = 10;
pub const TYPE_UINT2: c_int = 24;
pub const TYPE_INT2: c_int = 25;
pub const TYPE_FLOAT8E8M0: c_int = 26;

/// OrtErrorCode values used in statuses.
pub const ORT_FAIL: c_int = 1;
pub const ORT_INVALID_ARGUMENT: c_int = 2;
pub const ORT_NOT_IMPLEMENTED: c_int = 9;

/// OrtOpAttrType: ORT_OP_ATTR_INT.
pub const ATTR_INT: c_int = 1;

/// OrtCustomOpInputOutputCharacteristic.
pub const REQUIRED: c_int = 0;

type Status = *mut OrtStatus;

/// `OrtCustomOp` as laid out for version 17 and later (fields read only from version 18 on
/// are present and NULL).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct OrtCustomOp {
    pub version: u32,
    pub create_kernel: Option<
        unsafe extern "C" fn(
            *const OrtCustomOp,
            *const OrtApi,
            *const OrtKernelInfo,
        ) -> *mut c_void,
    >,
    pub get_name: unsafe extern "C" fn(*const OrtCustomOp) -> *const c_char,
    pub get_execution_provider_type: unsafe extern "C" fn(*const OrtCustomOp) -> *const c_char,
    pub get_input_type: unsafe extern "C" fn(*const OrtCustomOp, usize) -> c_int,
    pub get_input_type_count: unsafe extern "C" fn(*const OrtCustomOp) -> usize,
    pub get_output_type: unsafe extern "C" fn(*const OrtCustomOp, usize) -> c_int,
    pub get_output_type_count: unsafe extern "C" fn(*const OrtCustomOp) -> usize,
    pub kernel_compute: Option<unsafe extern "C" fn(*mut c_void, *mut OrtKernelContext)>,
    pub kernel_destroy: unsafe extern "C" fn(*mut c_void),
    pub get_input_characteristic: unsafe extern "C" fn(*const OrtCustomOp, usize) -> c_int,
    pub get_output_characteristic: unsafe extern "C" fn(*const OrtCustomOp, usize) -> c_int,
    pub get_input_memory_type: unsafe extern "C" fn(*const OrtCustomOp, usize) -> c_int,
    pub get_variadic_input_min_arity: unsafe extern "C" fn(*const OrtCustomOp) -> c_int,
    pub get_variadic_input_homogeneity: unsafe extern "C" fn(*const OrtCustomOp) -> c_int,
    pub get_variadic_output_min_arity: unsafe extern "C" fn(*const OrtCustomOp) -> c_int,
    pub get_variadic_output_homogeneity: unsafe extern "C" fn(*const OrtCustomOp) -> c_int,
    pub create_kernel_v2: unsafe extern "C" fn(
        *const OrtCustomOp,
        *const OrtApi,
        *const OrtKernelInfo,
        *mut *mut c_void,
    ) -> Status,
    pub kernel_compute_v2: unsafe extern "C" fn(*mut c_void, *mut OrtKernelContext) -> Status,
    pub infer_output_shape:
        Option<unsafe extern "C" fn(*const OrtCustomOp, *mut OrtShapeInferContext) -> Status>,
    pub get_start_version: unsafe extern "C" fn(*const OrtCustomOp) -> c_int,
    pub get_end_version: unsafe extern "C" fn(*const OrtCustomOp) -> c_int,
    pub get_may_inplace: Option<unsafe extern "C" fn(*mut *mut c_int, *mut *mut c_int) -> usize>,
    pub release_may_inplace: Option<unsafe extern "C" fn(*mut c_int, *mut c_int)>,
    pub get_alias_map: Option<unsafe extern "C" fn(*mut *mut c_int, *mut *mut c_int) -> usize>,
    pub release_alias_map: Option<unsafe extern "C" fn(*mut c_int, *mut c_int)>,
}

/// The function pointer types of the slots used.
pub mod sig {
    use super::*;
    pub type CreateStatus = unsafe extern "C" fn(c_int, *const c_char) -> Status;
    pub type CreateCustomOpDomain =
        unsafe extern "C" fn(*const c_char, *mut *mut OrtCustomOpDomain) -> Status;
    pub type CustomOpDomainAdd =
        unsafe extern "C" fn(*mut OrtCustomOpDomain, *const OrtCustomOp) -> Status;
    pub type AddCustomOpDomain =
        unsafe extern "C" fn(*mut OrtSessionOptions, *mut OrtCustomOpDomain) -> Status;
    pub type HasSessionConfigEntry =
        unsafe extern "C" fn(*const OrtSessionOptions, *const c_char, *mut c_int) -> Status;
    pub type GetSessionConfigEntry = unsafe extern "C" fn(
        *const OrtSessionOptions,
        *const c_char,
        *mut c_char,
        *mut usize,
    ) -> Status;
    pub type GetTensorMutableData = unsafe extern "C" fn(*mut OrtValue, *mut *mut c_void) -> Status;
    pub type GetStringTensorDataLength =
        unsafe extern "C" fn(*const OrtValue, *mut usize) -> Status;
    pub type GetStringTensorContent =
        unsafe extern "C" fn(*const OrtValue, *mut c_void, usize, *mut usize, usize) -> Status;
    pub type SetTensorElementType =
        unsafe extern "C" fn(*mut OrtTensorTypeAndShapeInfo, c_int) -> Status;
    pub type GetTensorElementType =
        unsafe extern "C" fn(*const OrtTensorTypeAndShapeInfo, *mut c_int) -> Status;
    pub type GetDimensionsCount =
        unsafe extern "C" fn(*const OrtTensorTypeAndShapeInfo, *mut usize) -> Status;
    pub type GetDimensions =
        unsafe extern "C" fn(*const OrtTensorTypeAndShapeInfo, *mut i64, usize) -> Status;
    pub type GetTensorTypeAndShape =
        unsafe extern "C" fn(*const OrtValue, *mut *mut OrtTensorTypeAndShapeInfo) -> Status;
    pub type KernelInfoGetAttributeInt64 =
        unsafe extern "C" fn(*const OrtKernelInfo, *const c_char, *mut i64) -> Status;
    pub type KernelInfoGetAttributeString = unsafe extern "C" fn(
        *const OrtKernelInfo,
        *const c_char,
        *mut c_char,
        *mut usize,
    ) -> Status;
    pub type KernelContextGetCount =
        unsafe extern "C" fn(*const OrtKernelContext, *mut usize) -> Status;
    pub type KernelContextGetInput =
        unsafe extern "C" fn(*const OrtKernelContext, usize, *mut *const OrtValue) -> Status;
    pub type KernelContextGetOutput = unsafe extern "C" fn(
        *mut OrtKernelContext,
        usize,
        *const i64,
        usize,
        *mut *mut OrtValue,
    ) -> Status;
    pub type ReleaseStatus = unsafe extern "C" fn(Status);
    pub type ReleaseCustomOpDomain = unsafe extern "C" fn(*mut OrtCustomOpDomain);
    pub type ReleaseTensorTypeAndShapeInfo = unsafe extern "C" fn(*mut OrtTensorTypeAndShapeInfo);
    pub type GetResizedStringTensorElementBuffer =
        unsafe extern "C" fn(*mut OrtValue, usize, usize, *mut *mut c_char) -> Status;
    pub type ShapeInferContextGetInputTypeShape = unsafe extern "C" fn(
        *const OrtShapeInferContext,
        usize,
        *mut *mut OrtTensorTypeAndShapeInfo,
    ) -> Status;
    pub type ShapeInferContextGetAttribute = unsafe extern "C" fn(
        *const OrtShapeInferContext,
        *const c_char,
        *mut *const OrtOpAttr,
    ) -> Status;
    pub type ShapeInferContextSetOutputTypeShape = unsafe extern "C" fn(
        *const OrtShapeInferContext,
        usize,
        *const OrtTensorTypeAndShapeInfo,
    ) -> Status;
    pub type ReadOpAttr =
        unsafe extern "C" fn(*const OrtOpAttr, c_int, *mut c_void, usize, *mut usize) -> Status;
    pub type KernelContextParallelFor = unsafe extern "C" fn(
        *const OrtKernelContext,
        unsafe extern "C" fn(*mut c_void, usize),
        usize,
        usize,
        *mut c_void,
    ) -> Status;
}

/// Slot numbers in `OrtApi` (0-based, the order of onnxruntime_c_api.h).
pub mod slot {
    pub const CREATE_STATUS: usize = 0;
    pub const CREATE_CUSTOM_OP_DOMAIN: usize = 26;
    pub const CUSTOM_OP_DOMAIN_ADD: usize = 27;
    pub const ADD_CUSTOM_OP_DOMAIN: usize = 28;
    pub const GET_TENSOR_MUTABLE_DATA: usize = 51;
    pub const GET_STRING_TENSOR_DATA_LENGTH: usize = 53;
    pub const GET_STRING_TENSOR_CONTENT: usize = 54;
    pub const SET_TENSOR_ELEMENT_TYPE: usize = 58;
    pub const GET_TENSOR_ELEMENT_TYPE: usize = 60;
    pub const GET_DIMENSIONS_COUNT: usize = 61;
    pub const GET_DIMENSIONS: usize = 62;
    pub const GET_TENSOR_TYPE_AND_SHAPE: usize = 65;
    pub const KERNEL_INFO_GET_ATTRIBUTE_INT64: usize = 86;
    pub const KERNEL_INFO_GET_ATTRIBUTE_STRING: usize = 87;
    pub const KERNEL_CONTEXT_GET_INPUT_COUNT: usize = 88;
    pub const KERNEL_CONTEXT_GET_INPUT: usize = 90;
    pub const KERNEL_CONTEXT_GET_OUTPUT: usize = 91;
    pub const RELEASE_STATUS: usize = 93;
    pub const RELEASE_CUSTOM_OP_DOMAIN: usize = 101;
    pub const RELEASE_TENSOR_TYPE_AND_SHAPE_INFO: usize = 99;
    pub const HAS_SESSION_CONFIG_ENTRY: usize = 237;
    pub const GET_SESSION_CONFIG_ENTRY: usize = 238;
    pub const GET_RESIZED_STRING_TENSOR_ELEMENT_BUFFER: usize = 252;
    pub const SHAPE_INFER_CONTEXT_GET_INPUT_TYPE_SHAPE: usize = 268;
    pub const SHAPE_INFER_CONTEXT_GET_ATTRIBUTE: usize = 269;
    pub const SHAPE_INFER_CONTEXT_SET_OUTPUT_TYPE_SHAPE: usize = 270;
    pub const READ_OP_ATTR: usize = 272;
    pub const KERNEL_CONTEXT_PARALLEL_FOR: usize = 274;
}

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
    // SAFETY: `base` is onnxruntime's, valid for the process.
    let base = unsafe { &*base };
    // SAFETY: GetApi may be called with any version; NULL means not supported.
    let table = unsafe { (base.get_api)(version) };
    if table.is_null() {
        // SAFETY: version 1 exists in every onnxruntime; its slot 0 is CreateStatus.
        let oldest = unsafe { Api::new((base.get_api)(1)) };
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

    /// The function in slot `index`, as type `F` (a function pointer type).
    ///
    /// # Safety
    /// `F` is the type of that slot in onnxruntime_c_api.h.
    pub unsafe fn get<F: Copy>(self, index: usize) -> F {
        const { assert!(size_of::<F>() == size_of::<*const c_void>()) };
        // SAFETY: the table holds at least `index + 1` non-NULL function pointers (every
        // slot used exists from API_VERSION on), and the caller names the slot's type.
        unsafe { std::mem::transmute_copy(&*(self.0 as *const *const c_void).add(index)) }
    }

    /// The table itself.
    pub fn table(self) -> *const OrtApi {
        self.0
    }

    /// A new status with `code` and `message` (any NUL inside is cut off).
    pub fn status(self, code: c_int, message: &str) -> *mut OrtStatus {
        let mut text: Vec<u8> = message.bytes().take_while(|&b| b != 0).collect();
        text.push(0);
        // SAFETY: slot 0 is CreateStatus in every version; it copies the NUL-terminated text.
        unsafe { self.get::<sig::CreateStatus>(slot::CREATE_STATUS)(code, text.as_ptr().cast()) }
    }

    /// Releases a status the caller owns (NULL is fine).
    pub fn release_status(self, status: *mut OrtStatus) {
        if !status.is_null() {
            // SAFETY: the status was returned by onnxruntime and is owned by the caller.
            unsafe { self.get::<sig::ReleaseStatus>(slot::RELEASE_STATUS)(status) }
        }
    }
}

// The plugin execution-provider API (onnxruntime_ep_c_api.h), as far as this library uses
// it. Its structs only grow at their end, and onnxruntime reads no field past the version
// a struct declares in its first field, so each is declared up to EP_API_VERSION.

/// The API version of the plugin execution provider: onnxruntime 1.24, the first whose
/// EPs register kernels (`OrtEp::GetKernelRegistry`) instead of compiling nodes.
pub const EP_API_VERSION: u32 = 24;

pub enum OrtEpApi {}
pub enum OrtGraph {}
pub enum OrtNode {}
pub enum OrtValueInfo {}
pub enum OrtTypeInfo {}
pub enum OrtHardwareDevice {}
pub enum OrtEpDevice {}
pub enum OrtKeyValuePairs {}
pub enum OrtLogger {}
pub enum OrtEpGraphSupportInfo {}
pub enum OrtKernelRegistry {}
pub enum OrtKernelDefBuilder {}
pub enum OrtKernelDef {}
pub enum OrtDataType {}
pub enum OrtMemoryInfo {}
pub enum OrtMemoryDevice {}
pub enum OrtAllocator {}
pub enum OrtDataTransferImpl {}
pub enum OrtSyncStreamImpl {}

/// OrtHardwareDeviceType_CPU.
pub const HARDWARE_DEVICE_CPU: c_int = 0;
/// OrtCompiledModelCompatibility::OrtCompiledModelCompatibility_EP_NOT_APPLICABLE.
pub const COMPILED_MODEL_NOT_APPLICABLE: c_int = 0;

/// `OrtKernelImpl`: one node's kernel, as an EP's kernel registry creates it.
#[repr(C)]
pub struct OrtKernelImpl {
    pub ort_version_supported: u32,
    /// Used by onnxruntime; 0 when made.
    pub flags: u32,
    pub compute: unsafe extern "C" fn(*mut OrtKernelImpl, *mut OrtKernelContext) -> Status,
    pub release: unsafe extern "C" fn(*mut OrtKernelImpl),
    pub pre_pack_weight: Option<unsafe extern "C" fn()>,
    pub set_shared_pre_packed_weight: Option<unsafe extern "C" fn()>,
}

/// `OrtKernelCreateFunc`.
pub type KernelCreateFunc = unsafe extern "C" fn(
    state: *mut c_void,
    info: *const OrtKernelInfo,
    kernel: *mut *mut OrtKernelImpl,
) -> Status;

/// `OrtEp` up to version 1.24.
#[repr(C)]
pub struct OrtEp {
    pub ort_version_supported: u32,
    pub get_name: unsafe extern "C" fn(*const OrtEp) -> *const c_char,
    pub get_capability:
        unsafe extern "C" fn(*mut OrtEp, *const OrtGraph, *mut OrtEpGraphSupportInfo) -> Status,
    pub compile: Option<unsafe extern "C" fn()>,
    pub release_node_compute_infos: Option<unsafe extern "C" fn()>,
    pub get_preferred_data_layout: Option<unsafe extern "C" fn()>,
    pub should_convert_data_layout_for_op: Option<unsafe extern "C" fn()>,
    pub set_dynamic_options: Option<unsafe extern "C" fn()>,
    pub on_run_start: Option<unsafe extern "C" fn()>,
    pub on_run_end: Option<unsafe extern "C" fn()>,
    pub create_allocator: Option<unsafe extern "C" fn()>,
    pub create_sync_stream_for_device: Option<unsafe extern "C" fn()>,
    pub get_compiled_model_compatibility_info:
        unsafe extern "C" fn(*mut OrtEp, *const OrtGraph) -> *const c_char,
    pub get_kernel_registry:
        unsafe extern "C" fn(*mut OrtEp, *mut *const OrtKernelRegistry) -> Status,
    pub is_concurrent_run_supported: Option<unsafe extern "C" fn()>,
}

/// `OrtEpFactory` up to version 1.24.
#[repr(C)]
pub struct OrtEpFactory {
    pub ort_version_supported: u32,
    pub get_name: unsafe extern "C" fn(*const OrtEpFactory) -> *const c_char,
    pub get_vendor: unsafe extern "C" fn(*const OrtEpFactory) -> *const c_char,
    pub get_supported_devices: unsafe extern "C" fn(
        *mut OrtEpFactory,
        *const *const OrtHardwareDevice,
        usize,
        *mut *mut OrtEpDevice,
        usize,
        *mut usize,
    ) -> Status,
    pub create_ep: unsafe extern "C" fn(
        *mut OrtEpFactory,
        *const *const OrtHardwareDevice,
        *const *const OrtKeyValuePairs,
        usize,
        *const OrtSessionOptions,
        *const OrtLogger,
        *mut *mut OrtEp,
    ) -> Status,
    pub release_ep: unsafe extern "C" fn(*mut OrtEpFactory, *mut OrtEp),
    pub get_vendor_id: unsafe extern "C" fn(*const OrtEpFactory) -> u32,
    pub get_version: unsafe extern "C" fn(*const OrtEpFactory) -> *const c_char,
    pub validate_compiled_model_compatibility_info: unsafe extern "C" fn(
        *mut OrtEpFactory,
        *const *const OrtHardwareDevice,
        usize,
        *const c_char,
        *mut c_int,
    ) -> Status,
    pub create_allocator: unsafe extern "C" fn(
        *mut OrtEpFactory,
        *const OrtMemoryInfo,
        *const OrtKeyValuePairs,
        *mut *mut OrtAllocator,
    ) -> Status,
    pub release_allocator: unsafe extern "C" fn(*mut OrtEpFactory, *mut OrtAllocator),
    pub create_data_transfer:
        unsafe extern "C" fn(*mut OrtEpFactory, *mut *mut OrtDataTransferImpl) -> Status,
    pub is_stream_aware: unsafe extern "C" fn(*const OrtEpFactory) -> bool,
    pub create_sync_stream_for_device: unsafe extern "C" fn(
        *mut OrtEpFactory,
        *const OrtMemoryDevice,
        *const OrtKeyValuePairs,
        *mut *mut OrtSyncStreamImpl,
    ) -> Status,
    pub get_hardware_device_incompatibility_details: Option<unsafe extern "C" fn()>,
    pub create_external_resource_importer_for_device: Option<unsafe extern "C" fn()>,
    pub get_num_custom_op_domains: unsafe extern "C" fn(*mut OrtEpFactory, *mut usize) -> Status,
    pub get_custom_op_domains:
        unsafe extern "C" fn(*mut OrtEpFactory, *mut *mut OrtCustomOpDomain, usize) -> Status,
}

/// The function pointer types of the `OrtEpApi` slots and `OrtApi` graph slots used.
pub mod ep_sig {
    use super::*;
    pub type GetEpApi = unsafe extern "C" fn() -> *const OrtEpApi;
    pub type HardwareDeviceType = unsafe extern "C" fn(*const OrtHardwareDevice) -> c_int;
    pub type GraphGetNumNodes = unsafe extern "C" fn(*const OrtGraph, *mut usize) -> Status;
    pub type GraphGetNodes =
        unsafe extern "C" fn(*const OrtGraph, *mut *const OrtNode, usize) -> Status;
    pub type NodeGetText = unsafe extern "C" fn(*const OrtNode, *mut *const c_char) -> Status;
    pub type NodeGetNumInputs = unsafe extern "C" fn(*const OrtNode, *mut usize) -> Status;
    pub type NodeGetInputs =
        unsafe extern "C" fn(*const OrtNode, *mut *const OrtValueInfo, usize) -> Status;
    pub type ValueInfoGetValueNumConsumers =
        unsafe extern "C" fn(*const OrtValueInfo, *mut usize) -> Status;
    pub type ValueInfoGetValueConsumers =
        unsafe extern "C" fn(*const OrtValueInfo, *mut *const OrtNode, *mut i64, usize) -> Status;
    pub type ValueInfoGetValueProducer =
        unsafe extern "C" fn(*const OrtValueInfo, *mut *const OrtNode, *mut usize) -> Status;
    pub type GetValueInfoTypeInfo =
        unsafe extern "C" fn(*const OrtValueInfo, *mut *const OrtTypeInfo) -> Status;
    pub type CastTypeInfoToTensorInfo =
        unsafe extern "C" fn(*const OrtTypeInfo, *mut *const OrtTensorTypeAndShapeInfo) -> Status;
    pub type CreateEpDevice = unsafe extern "C" fn(
        *mut OrtEpFactory,
        *const OrtHardwareDevice,
        *const OrtKeyValuePairs,
        *const OrtKeyValuePairs,
        *mut *mut OrtEpDevice,
    ) -> Status;
    pub type AddSingleNode =
        unsafe extern "C" fn(*mut OrtEpGraphSupportInfo, *const OrtNode) -> Status;
    pub type CreateKernelRegistry = unsafe extern "C" fn(*mut *mut OrtKernelRegistry) -> Status;
    pub type ReleaseKernelRegistry = unsafe extern "C" fn(*mut OrtKernelRegistry);
    pub type KernelRegistryAddKernel = unsafe extern "C" fn(
        *mut OrtKernelRegistry,
        *const OrtKernelDef,
        KernelCreateFunc,
        *mut c_void,
    ) -> Status;
    pub type CreateKernelDefBuilder = unsafe extern "C" fn(*mut *mut OrtKernelDefBuilder) -> Status;
    pub type ReleaseKernelDefBuilder = unsafe extern "C" fn(*mut OrtKernelDefBuilder);
    pub type KernelDefBuilderSetText =
        unsafe extern "C" fn(*mut OrtKernelDefBuilder, *const c_char) -> Status;
    pub type KernelDefBuilderSetSinceVersion =
        unsafe extern "C" fn(*mut OrtKernelDefBuilder, c_int, c_int) -> Status;
    pub type KernelDefBuilderAddTypeConstraint = unsafe extern "C" fn(
        *mut OrtKernelDefBuilder,
        *const c_char,
        *const *const OrtDataType,
        usize,
    ) -> Status;
    pub type KernelDefBuilderBuild =
        unsafe extern "C" fn(*mut OrtKernelDefBuilder, *mut *mut OrtKernelDef) -> Status;
    pub type ReleaseKernelDef = unsafe extern "C" fn(*mut OrtKernelDef);
    pub type GetTensorDataType = unsafe extern "C" fn(c_int, *mut *const OrtDataType) -> Status;
    pub type LookUpKernel = unsafe extern "C" fn(
        *mut OrtEpGraphSupportInfo,
        *const OrtNode,
        *mut *const OrtKernelDef,
    ) -> Status;
}

/// Slot numbers in `OrtApi` (after those in `slot`) for the plugin EP, counted like them
/// (checked against ort-sys 2.0.0-rc.15, onnxruntime 1.31).
pub mod ep_slot {
    pub const HARDWARE_DEVICE_TYPE: usize = 307;
    pub const GET_EP_API: usize = 317;
    pub const GRAPH_GET_NUM_NODES: usize = 344;
    pub const GRAPH_GET_NODES: usize = 345;
    pub const NODE_GET_OPERATOR_TYPE: usize = 350;
    pub const NODE_GET_DOMAIN: usize = 351;
    pub const NODE_GET_NUM_INPUTS: usize = 353;
    pub const NODE_GET_INPUTS: usize = 354;
    pub const NODE_GET_NUM_OUTPUTS: usize = 355;
    pub const NODE_GET_OUTPUTS: usize = 356;
    pub const VALUE_INFO_GET_VALUE_NUM_CONSUMERS: usize = 324;
    pub const VALUE_INFO_GET_VALUE_CONSUMERS: usize = 325;
    pub const VALUE_INFO_GET_VALUE_PRODUCER: usize = 323;
    pub const GET_VALUE_INFO_TYPE_INFO: usize = 290;
    pub const CAST_TYPE_INFO_TO_TENSOR_INFO: usize = 55;
}

/// Slot numbers in `OrtEpApi` (0-based, the order of onnxruntime_ep_c_api.h).
pub mod ep_api_slot {
    pub const CREATE_EP_DEVICE: usize = 0;
    pub const EP_GRAPH_SUPPORT_INFO_ADD_SINGLE_NODE: usize = 3;
    pub const CREATE_KERNEL_REGISTRY: usize = 18;
    pub const RELEASE_KERNEL_REGISTRY: usize = 19;
    pub const KERNEL_REGISTRY_ADD_KERNEL: usize = 20;
    pub const CREATE_KERNEL_DEF_BUILDER: usize = 21;
    pub const RELEASE_KERNEL_DEF_BUILDER: usize = 22;
    pub const KERNEL_DEF_BUILDER_SET_OPERATOR_TYPE: usize = 23;
    pub const KERNEL_DEF_BUILDER_SET_DOMAIN: usize = 24;
    pub const KERNEL_DEF_BUILDER_SET_SINCE_VERSION: usize = 25;
    pub const KERNEL_DEF_BUILDER_SET_EXECUTION_PROVIDER: usize = 26;
    pub const KERNEL_DEF_BUILDER_ADD_TYPE_CONSTRAINT: usize = 29;
    pub const KERNEL_DEF_BUILDER_BUILD: usize = 32;
    pub const RELEASE_KERNEL_DEF: usize = 33;
    pub const GET_TENSOR_DATA_TYPE: usize = 40;
    pub const EP_GRAPH_SUPPORT_INFO_LOOK_UP_KERNEL: usize = 41;
}

/// A handle on an `OrtEpApi` table of version `EP_API_VERSION` or later: a table of
/// function pointers read by slot as `Api` reads its own.
#[derive(Clone, Copy)]
pub struct EpApi(Api);

impl EpApi {
    /// # Safety
    /// `table` is the `OrtEpApi` of an onnxruntime of version `EP_API_VERSION` or later.
    pub unsafe fn new(table: *const OrtEpApi) -> Self {
        // SAFETY: both tables are arrays of function pointers valid for the process.
        EpApi(unsafe { Api::new(table.cast()) })
    }

    /// The function in slot `index`, as type `F` (a function pointer type).
    ///
    /// # Safety
    /// `F` is the type of that slot in onnxruntime_ep_c_api.h.
    pub unsafe fn get<F: Copy>(self, index: usize) -> F {
        // SAFETY: the caller names the slot's type.
        unsafe { self.0.get(index) }
    }
}
