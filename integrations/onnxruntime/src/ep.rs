// SPDX-License-Identifier: MIT OR Apache-2.0
//! The plugin execution provider: how the library runs a model's Cast, CastLike and Expand
//! nodes, and the QuantizeLinear and DequantizeLinear nodes onnxruntime has no kernel for,
//! without replacing anything of onnxruntime's.
//!
//! onnxruntime loads the library with `RegisterExecutionProviderLibrary` (Python:
//! `onnxruntime.register_execution_provider_library`), which calls `CreateEpFactories`; a
//! session that lists the EP's device (`SessionOptionsAppendExecutionProvider_V2`, Python:
//! `SessionOptions.add_provider_for_devices`) gets an `OrtEp` from the factory. onnxruntime
//! asks that EP which nodes it takes (`GetCapability`) after its own checks, type and shape
//! inference and basic optimizations (constant folding among them) ran with ONNX's schemas,
//! and the EP takes each node of those operators that its kernel registry has a
//! kernel for, but those onnxruntime's constant folding computes: ONNX's schemas stay, so
//! shapes, ranks and checks are onnxruntime's own, and so is the optimized graph.
//!
//! It also leaves the nodes onnxruntime's CPU kernels run to the same bytes and faster
//! (`cheaper_on_onnxruntime`): a call through the plugin kernel interface costs more than
//! onnxruntime's own kernel (0.04-0.08 us a node), which tensorcast's kernels make up
//! only on larger tensors. Those are Casts and CastLikes with fewer than 16 Ki output
//! elements known when the session is made, of a pair whose bytes onnxruntime gives too
//! (`same_bytes_as_onnxruntime`: copies, integer or BOOL sources to integers, BOOL,
//! FLOAT, DOUBLE, FLOAT16 and, from the short ones, BFLOAT16, and FLOAT, DOUBLE and
//! FLOAT16 among themselves but DOUBLE -> FLOAT16), Casts of integers to STRING and
//! between FLOAT and FLOAT16 at any size (`faster_on_onnxruntime`), and
//! Expands of types onnxruntime expands with fewer than 1 Mi output elements or a count
//! known only at run time. Every node whose result would differ (float -> integer,
//! BFLOAT16 from floats, DOUBLE -> FLOAT16, float8, float4, int4, e8m0, STRING parsed,
//! floats and BOOL as text, `saturate`,
//! `round_mode`) stays the EP's at any size. The provider option `leave_small_nodes` =
//! "0" turns it off.
//!
//! Made once per factory, that is once per registration of the library, and released with
//! it: the kernel registry (seven kernel definitions). A session adds one `OrtEp` (a small
//! box) and one kernel per node it takes.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr::{null, null_mut};

use crate::kernel::{check, Fail, Kernel};
use crate::ort::{
    self, ort_fn, Api, EpApi, OrtApiBase, OrtEp, OrtEpFactory, OrtKernelContext, OrtKernelImpl,
    OrtKernelInfo, OrtKernelRegistry, OrtStatus,
};
use crate::{guarded, Op, TYPES};

/// The execution provider's name, as sessions and `get_ep_devices()` show it.
pub const EP_NAME: &CStr = c"TensorcastExecutionProvider";
const VENDOR: &CStr = c"tensorcast";
const VERSION: &CStr =
    match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(text) => text,
        Err(_) => panic!("the package version has no NUL"),
    };

/// One kernel definition: the operator, the opsets it covers (the first and the last
/// version of the operator whose semantics tensorcast implements) and its type parameters
/// (named as in ONNX's schema), each with the element types (onnxruntime's numbers) it
/// allows.
struct Definition {
    op: Op,
    since: c_int,
    until: c_int,
    type_params: &'static [(&'static CStr, &'static [c_int])],
}

// Element types by onnxruntime's numbers (ONNXTensorElementDataType).
const FLOAT: c_int = 1;
const FLOAT16: c_int = ort::TYPE_FLOAT16;
const BFLOAT16: c_int = 16;
const STRING: c_int = ort::TYPE_STRING;
const INT32: c_int = 6;
const FLOAT4E2M1: c_int = 23;
const E8M0: c_int = ort::TYPE_FLOAT8E8M0;
/// QuantizeLinear's x, DequantizeLinear's y: the float types (INT32 x too, listed apart).
const FLOATS: &[c_int] = &[FLOAT, FLOAT16, BFLOAT16];
const Q_INPUTS: &[c_int] = &[FLOAT, FLOAT16, BFLOAT16, INT32];
/// The scales of opset 23's QuantizeLinear (24 adds FLOAT8E8M0).
const Q_SCALES: &[c_int] = &[FLOAT, FLOAT16, BFLOAT16, INT32, E8M0];
const DQ_SCALES: &[c_int] = &[FLOAT, FLOAT16, BFLOAT16, E8M0];
/// Every quantized element type onnxruntime has but FLOAT4E2M1: INT8, UINT8, INT16,
/// UINT16, the four FLOAT8 types, UINT4, INT4, UINT2, INT2.
const QUANTIZED_BUT_FP4: &[c_int] = &[
    3,
    2,
    5,
    4,
    17,
    18,
    19,
    20,
    21,
    22,
    ort::TYPE_UINT2,
    ort::TYPE_INT2,
];
/// DequantizeLinear's x: those and INT32.
const DQ_INPUTS_BUT_FP4: &[c_int] = &[
    3,
    2,
    5,
    4,
    INT32,
    17,
    18,
    19,
    20,
    21,
    22,
    ort::TYPE_UINT2,
    ort::TYPE_INT2,
];

/// The kernels the EP registers. Cast-28 (FLOAT6) and CastLike-28 are the last versions
/// tensorcast implements (docs/semantics-cast.md); Expand has versions 8 and 13. A node of
/// a later opset than these is left to onnxruntime. A static: each definition's `op` is
/// the kernel-creation state onnxruntime hands back to `create_kernel`.
///
/// QuantizeLinear and DequantizeLinear (23-25, where FLOAT4E2M1 and FLOAT8E8M0 exist) are
/// taken exactly where onnxruntime 1.32's CPU provider has no kernel: a FLOAT4E2M1
/// element (x of DequantizeLinear, y of QuantizeLinear) or a FLOAT8E8M0 scale, whatever
/// the granularity. The rest (INT8, INT4, FLOAT8 ... with FLOAT, FLOAT16, BFLOAT16 or
/// INT32 scales, blocked ones included) onnxruntime runs itself and keeps. Two
/// definitions per operator, whose element types do not overlap, say so; ONNX's
/// parameters of those opsets are T1 (x), T2 (scale) and T3 (y).
static DEFINITIONS: [Definition; 7] = [
    Definition {
        op: Op::Cast,
        since: 1,
        until: 28,
        type_params: &[(c"T1", &TYPES), (c"T2", &TYPES)],
    },
    Definition {
        op: Op::CastLike,
        since: 15,
        until: 28,
        type_params: &[(c"T1", &TYPES), (c"T2", &TYPES)],
    },
    Definition {
        op: Op::Expand,
        since: 8,
        until: 13,
        type_params: &[(c"T", &TYPES)],
    },
    Definition {
        op: Op::DequantizeLinear,
        since: 23,
        until: 25,
        type_params: &[(c"T1", &[FLOAT4E2M1]), (c"T2", DQ_SCALES), (c"T3", FLOATS)],
    },
    Definition {
        op: Op::DequantizeLinear,
        since: 23,
        until: 25,
        type_params: &[
            (c"T1", DQ_INPUTS_BUT_FP4),
            (c"T2", &[E8M0]),
            (c"T3", FLOATS),
        ],
    },
    Definition {
        op: Op::QuantizeLinear,
        since: 23,
        until: 25,
        type_params: &[(c"T1", Q_INPUTS), (c"T2", Q_SCALES), (c"T3", &[FLOAT4E2M1])],
    },
    Definition {
        op: Op::QuantizeLinear,
        since: 23,
        until: 25,
        type_params: &[
            (c"T1", Q_INPUTS),
            (c"T2", &[E8M0]),
            (c"T3", QUANTIZED_BUT_FP4),
        ],
    },
];

/// Whether `node` is an operator of `DEFINITIONS` (the first question GetCapability asks).
///
/// # Safety
/// As for `is_onnx_op`.
unsafe fn is_ours(api: Api, node: *const ort::OrtNode) -> Result<bool, Fail> {
    const NAMES: [&CStr; 5] = [
        c"Cast",
        c"CastLike",
        c"Expand",
        c"QuantizeLinear",
        c"DequantizeLinear",
    ];
    // SAFETY: forwarded.
    unsafe { is_onnx_op(api, node, &NAMES) }
}

/// The factory: onnxruntime's `OrtEpFactory` first, then what the callbacks need.
#[repr(C)]
struct Factory {
    base: OrtEpFactory,
    api: Api,
    ep_api: EpApi,
    registry: *mut OrtKernelRegistry,
}

/// One session's EP.
#[repr(C)]
struct Ep {
    base: OrtEp,
    api: Api,
    ep_api: EpApi,
    registry: *const OrtKernelRegistry,
    /// Whether small nodes onnxruntime runs to the same bytes are left to it
    /// (`cheaper_on_onnxruntime`): the provider option `LEAVE_SMALL_NODES`, on by default.
    leave_small_nodes: bool,
}

/// The provider option that turns `cheaper_on_onnxruntime` off ("0") or on ("1", the
/// default), as onnxruntime hands it to the EP: a session config entry prefixed with
/// `ep.` and the EP's name in lower case (Python: `add_provider_for_devices(devices,
/// {"leave_small_nodes": "0"})`).
const LEAVE_SMALL_NODES: &CStr = c"ep.tensorcastexecutionprovider.leave_small_nodes";

/// One node's kernel as the registry creates it.
#[repr(C)]
struct EpKernel {
    base: OrtKernelImpl,
    kernel: Kernel,
}

fn factory<'a>(this: *const OrtEpFactory) -> &'a Factory {
    // SAFETY: onnxruntime passes back the pointer CreateEpFactories gave it, to a boxed
    // `Factory` whose first field is the `OrtEpFactory`, alive until ReleaseEpFactory.
    unsafe { &*this.cast::<Factory>() }
}

fn ep<'a>(this: *const OrtEp) -> &'a Ep {
    // SAFETY: onnxruntime passes back the pointer create_ep gave it, to a boxed `Ep`
    // whose first field is the `OrtEp`, alive until release_ep.
    unsafe { &*this.cast::<Ep>() }
}

unsafe extern "C" fn factory_name(_: *const OrtEpFactory) -> *const c_char {
    EP_NAME.as_ptr()
}

unsafe extern "C" fn factory_vendor(_: *const OrtEpFactory) -> *const c_char {
    VENDOR.as_ptr()
}

unsafe extern "C" fn factory_vendor_id(_: *const OrtEpFactory) -> u32 {
    0
}

unsafe extern "C" fn factory_version(_: *const OrtEpFactory) -> *const c_char {
    VERSION.as_ptr()
}

/// The EP runs on the CPU: it offers one device, the first CPU onnxruntime lists.
unsafe extern "C" fn supported_devices(
    this: *mut OrtEpFactory,
    devices: *const *const ort::OrtHardwareDevice,
    count: usize,
    ep_devices: *mut *mut ort::OrtEpDevice,
    max_ep_devices: usize,
    found: *mut usize,
) -> *mut OrtStatus {
    let made = factory(this);
    guarded(made.api, || {
        // SAFETY: `found` is onnxruntime's out-pointer.
        unsafe { *found = 0 };
        if max_ep_devices == 0 || devices.is_null() {
            return Ok(());
        }
        // SAFETY: onnxruntime passes `count` device pointers.
        let devices = unsafe { std::slice::from_raw_parts(devices, count) };
        let device_type = ort_fn!(made.api, HardwareDevice_Type);
        let cpu = devices.iter().find(|&&d| {
            // SAFETY: each device is valid for this call.
            let kind = unsafe { device_type(d) };
            kind == ort::HARDWARE_DEVICE_CPU
        });
        if let Some(&cpu) = cpu {
            // SAFETY: the member's type is the header's; onnxruntime owns the device made
            // into `ep_devices[0]`, an array of at least one.
            unsafe {
                check(ort_fn!(made.ep_api, CreateEpDevice)(
                    this,
                    cpu,
                    null(),
                    null(),
                    ep_devices,
                ))?;
                *found = 1;
            }
        }
        Ok(())
    })
}

unsafe extern "C" fn create_ep(
    this: *mut OrtEpFactory,
    _devices: *const *const ort::OrtHardwareDevice,
    _metadata: *const *const ort::OrtKeyValuePairs,
    _count: usize,
    options: *const ort::OrtSessionOptions,
    _logger: *const ort::OrtLogger,
    out: *mut *mut OrtEp,
) -> *mut OrtStatus {
    let made = factory(this);
    guarded(made.api, || {
        // SAFETY: `options` is the session's, valid for this call.
        let leave_small_nodes =
            unsafe { crate::config_flag(made.api, options, LEAVE_SMALL_NODES, true) }?;
        let ep = Box::new(Ep {
            base: OrtEp {
                ort_version_supported: ort::EP_API_VERSION,
                GetName: Some(ep_name),
                GetCapability: Some(get_capability),
                Compile: None,
                ReleaseNodeComputeInfos: None,
                GetPreferredDataLayout: None,
                ShouldConvertDataLayoutForOp: None,
                SetDynamicOptions: None,
                OnRunStart: None,
                OnRunEnd: None,
                CreateAllocator: None,
                CreateSyncStreamForDevice: None,
                GetCompiledModelCompatibilityInfo: Some(compatibility_info),
                GetKernelRegistry: Some(get_kernel_registry),
                IsConcurrentRunSupported: None,
            },
            api: made.api,
            ep_api: made.ep_api,
            registry: made.registry,
            leave_small_nodes,
        });
        // SAFETY: `out` is onnxruntime's out-pointer; release_ep frees the box.
        unsafe { *out = Box::into_raw(ep).cast() };
        Ok(())
    })
}

unsafe extern "C" fn release_ep(_: *mut OrtEpFactory, ep: *mut OrtEp) {
    if !ep.is_null() {
        // SAFETY: `ep` came from Box::into_raw in create_ep and is released once.
        drop(unsafe { Box::from_raw(ep.cast::<Ep>()) });
    }
}

unsafe extern "C" fn validate_compatibility(
    _: *mut OrtEpFactory,
    _: *const *const ort::OrtHardwareDevice,
    _: usize,
    _: *const c_char,
    result: *mut c_int,
) -> *mut OrtStatus {
    if !result.is_null() {
        // SAFETY: onnxruntime's out-pointer. The EP compiles nothing.
        unsafe { *result = ort::COMPILED_MODEL_NOT_APPLICABLE };
    }
    null_mut()
}

/// Answers "none" through onnxruntime's out-pointer `out` (if any): success, no object.
fn none<T>(out: *mut *mut T) -> *mut OrtStatus {
    if !out.is_null() {
        // SAFETY: `out` is an out-pointer onnxruntime passes, valid for the call.
        unsafe { *out = null_mut() };
    }
    null_mut()
}

/// No allocator of the EP's own: NULL asks for onnxruntime's default CPU allocator.
unsafe extern "C" fn create_allocator(
    _: *mut OrtEpFactory,
    _: *const ort::OrtMemoryInfo,
    _: *const ort::OrtKeyValuePairs,
    allocator: *mut *mut ort::OrtAllocator,
) -> *mut OrtStatus {
    none(allocator)
}

unsafe extern "C" fn release_allocator(_: *mut OrtEpFactory, _: *mut ort::OrtAllocator) {}

/// No data transfer: the EP's memory is the CPU's, nothing to copy.
unsafe extern "C" fn create_data_transfer(
    _: *mut OrtEpFactory,
    transfer: *mut *mut ort::OrtDataTransferImpl,
) -> *mut OrtStatus {
    none(transfer)
}

unsafe extern "C" fn is_stream_aware(_: *const OrtEpFactory) -> bool {
    false
}

/// No streams.
unsafe extern "C" fn create_sync_stream(
    _: *mut OrtEpFactory,
    _: *const ort::OrtMemoryDevice,
    _: *const ort::OrtKeyValuePairs,
    stream: *mut *mut ort::OrtSyncStreamImpl,
) -> *mut OrtStatus {
    none(stream)
}

/// The EP adds no operator domain of its own: it runs ONNX's operators.
unsafe extern "C" fn no_custom_op_domains(
    _: *mut OrtEpFactory,
    count: *mut usize,
) -> *mut OrtStatus {
    if !count.is_null() {
        // SAFETY: onnxruntime's out-pointer.
        unsafe { *count = 0 };
    }
    null_mut()
}

unsafe extern "C" fn custom_op_domains(
    _: *mut OrtEpFactory,
    _: *mut *mut ort::OrtCustomOpDomain,
    _: usize,
) -> *mut OrtStatus {
    null_mut()
}

unsafe extern "C" fn ep_name(_: *const OrtEp) -> *const c_char {
    EP_NAME.as_ptr()
}

unsafe extern "C" fn compatibility_info(_: *mut OrtEp, _: *const ort::OrtGraph) -> *const c_char {
    c"".as_ptr()
}

unsafe extern "C" fn get_kernel_registry(
    this: *mut OrtEp,
    registry: *mut *const OrtKernelRegistry,
) -> *mut OrtStatus {
    // SAFETY: onnxruntime's out-pointer; the registry lives as long as the factory, which
    // outlives every EP it made.
    unsafe { *registry = ep(this).registry };
    null_mut()
}

/// Takes every node of `graph` that the registry has a kernel for: a Cast, CastLike or
/// Expand of an opset and element types in `DEFINITIONS`, but those onnxruntime's
/// constant folding would compute (`folded_by_onnxruntime`) and those
/// `leave_to_onnxruntime` names. onnxruntime calls this once for
/// the main graph and once for each subgraph (`If`, `Loop`, `Scan` bodies).
unsafe extern "C" fn get_capability(
    this: *mut OrtEp,
    graph: *const ort::OrtGraph,
    support: *mut ort::OrtEpGraphSupportInfo,
) -> *mut OrtStatus {
    let ep = ep(this);
    guarded(ep.api, || {
        // SAFETY: the members' types are the header's; `graph` and `support` are valid for
        // this call, and `nodes` holds the `count` node pointers asked for.
        unsafe {
            let mut count = 0;
            check(ort_fn!(ep.api, Graph_GetNumNodes)(graph, &mut count))?;
            let mut nodes = vec![null(); count];
            if count > 0 {
                check(ort_fn!(ep.api, Graph_GetNodes)(
                    graph,
                    nodes.as_mut_ptr(),
                    count,
                ))?;
            }
            let folded = folded_by_onnxruntime(ep.api, &nodes)?;
            let look_up = ort_fn!(ep.ep_api, EpGraphSupportInfo_LookUpKernel);
            let add = ort_fn!(ep.ep_api, EpGraphSupportInfo_AddSingleNode);
            for (node, folded) in nodes.into_iter().zip(folded) {
                // The operator first: the registry's look-up is the costlier question.
                if folded || !is_ours(ep.api, node)? {
                    continue;
                }
                let mut definition = null();
                check(look_up(support, node, &mut definition))?;
                let leave = definition.is_null()
                    || leave_to_onnxruntime(ep.api, node)?
                    || (ep.leave_small_nodes && cheaper_on_onnxruntime(ep.api, node)?);
                if !leave {
                    check(add(support, node))?;
                }
            }
        }
        Ok(())
    })
}

/// Element types onnxruntime's CPU provider casts and expands (its Cast and Expand
/// kernels of 1.24 and later): FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, STRING,
/// BOOL, FLOAT16, DOUBLE, UINT32, UINT64, BFLOAT16 and the four FLOAT8 types. A node of
/// another type (FLOAT4E2M1, INT4, FLOAT8E8M0 ...) onnxruntime cannot fold: the EP keeps it.
const CPU_FOLDABLE: &[c_int] = &[
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 18, 19, 20,
];

/// The output element counts below which a Cast or CastLike, and an Expand, that
/// onnxruntime's CPU provider runs to the same bytes are left to it
/// (`cheaper_on_onnxruntime`): the crossovers measured with `scripts/bench-ort.py`
/// (`--chain`, and single nodes), below which tensorcast's kernel gains less than what
/// a call through the plugin kernel interface costs more than onnxruntime's own kernel
/// (0.04-0.08 us). Casts from integers to FLOAT, DOUBLE and FLOAT16 draw level at 1 Ki
/// elements and gain 6-46% from 16 Ki on; onnxruntime's Expand, a copy per run of the
/// output, is faster than tensorcast's up to 256 Ki elements (0.42-0.88x), and level or
/// behind it from 1 Mi (1.07-1.19x).
const SMALL_CAST_ELEMENTS: u64 = 1 << 14;
const SMALL_EXPAND_ELEMENTS: u64 = 1 << 20;

/// Integer element types (onnxruntime's numbers): INT8, UINT8, INT16, UINT16, INT32,
/// INT64, UINT32, UINT64.
const INTEGERS: &[c_int] = &[3, 2, 5, 4, 6, 7, 12, 13];
/// Those of at most 16 bits, and BOOL: every value exact in FLOAT.
const SHORT_INTEGERS: &[c_int] = &[3, 2, 5, 4, 9];
const BOOL: c_int = 9;
const DOUBLE: c_int = 11;

/// Whether onnxruntime's CPU Cast gives tensorcast's bytes for every input of element type
/// `from` cast to `to` (onnxruntime's numbers): a copy (the same type, STRING to STRING
/// included); an integer or BOOL source (no NaN, nothing out of range) to an integer or
/// BOOL (the low bits; zero or not), to FLOAT or DOUBLE (one rounding, to nearest even),
/// to FLOAT16 (exact in FLOAT first, and the integers that are not overflow FLOAT16
/// either way) or, from a BOOL or an integer of at most 16 bits, to BFLOAT16; an
/// integer to STRING (its decimal digits); and
/// between FLOAT, DOUBLE and FLOAT16 but DOUBLE -> FLOAT16 (one rounding to nearest even
/// on both sides, NaN signs and payloads alike: measured on every pair of bit patterns
/// `test_ort_graphs.py` draws, onnxruntime rounding DOUBLE -> FLOAT16 twice). Not the
/// rest: float -> integer differs (NaN, out of range, `docs/semantics-cast.md`), so do
/// onnxruntime's BFLOAT16 NaNs, and STRING, float8 and the types onnxruntime has no Cast
/// for are tensorcast's.
fn same_bytes_as_onnxruntime(from: c_int, to: c_int) -> bool {
    if from == to {
        return CPU_FOLDABLE.contains(&from);
    }
    let integer = |t| INTEGERS.contains(&t) || t == BOOL;
    let wide = |t| matches!(t, FLOAT | DOUBLE | FLOAT16);
    (integer(from)
        && (integer(to) || wide(to) || (to == BFLOAT16 && SHORT_INTEGERS.contains(&from))))
        || (wide(from) && wide(to) && !(from == DOUBLE && to == FLOAT16))
        || faster_on_onnxruntime(from, to)
}

/// Whether onnxruntime's own kernel runs the same-bytes pair `from` -> `to` at least as
/// fast as tensorcast's through the plugin kernel interface at every size, so that such
/// a Cast is left to it whatever its size, a count known only at run time included:
/// - an integer to STRING (not BOOL, which onnxruntime writes "0"/"1" and tensorcast
///   "False"/"True"): onnxruntime writes the same decimal digits straight into its
///   strings, where tensorcast formats into an arena that onnxruntime then copies out;
/// - FLOAT <-> FLOAT16: onnxruntime's MLAS conversion is the same one instruction per
///   vector as tensorcast's kernel and splits large tensors over the intra-op threads.
///
/// `scripts/bench-ort.py` and single dynamic-size Casts, 1 and 2 intra-op threads, 64
/// to 16 Mi elements: onnxruntime ahead or level everywhere (FLOAT -> FLOAT16 1.02-1.07
/// with 1 thread, 1.70 at 1 Mi with 2).
fn faster_on_onnxruntime(from: c_int, to: c_int) -> bool {
    (INTEGERS.contains(&from) && to == STRING)
        || matches!((from, to), (FLOAT, FLOAT16) | (FLOAT16, FLOAT))
}

/// Whether the EP leaves a node to onnxruntime because onnxruntime runs it as fast or
/// faster to the same bytes: a Cast or CastLike of a pair `same_bytes_as_onnxruntime`
/// names whose output has fewer than `SMALL_CAST_ELEMENTS` elements by the shape
/// onnxruntime inferred (at any size where `faster_on_onnxruntime`), or an Expand of a type onnxruntime's CPU provider expands (a
/// copy) whose output has fewer than `SMALL_EXPAND_ELEMENTS` or a count not known when
/// the session is made. A Cast whose output count is not known then stays the EP's, as
/// does every node whose result would differ or that onnxruntime has no kernel for. The
/// provider option `leave_small_nodes` = "0" turns this off.
///
/// # Safety
/// As for `leave_to_onnxruntime`.
unsafe fn cheaper_on_onnxruntime(api: Api, node: *const ort::OrtNode) -> Result<bool, Fail> {
    // SAFETY: forwarded; the values belong to the graph, valid for this call.
    unsafe {
        let expand = is_onnx_op(api, node, &[c"Expand"])?;
        if !expand && !is_onnx_op(api, node, &[c"Cast", c"CastLike"])? {
            return Ok(false);
        }
        let input = first_value(
            node,
            ort_fn!(api, Node_GetNumInputs),
            ort_fn!(api, Node_GetInputs),
        )?;
        let output = first_value(
            node,
            ort_fn!(api, Node_GetNumOutputs),
            ort_fn!(api, Node_GetOutputs),
        )?;
        if input.is_null() || output.is_null() {
            return Ok(false);
        }
        let (Some(from), Some((to, count))) =
            (element_type(api, input)?, tensor_info(api, output)?)
        else {
            return Ok(false);
        };
        let same = if expand {
            CPU_FOLDABLE.contains(&from)
        } else {
            same_bytes_as_onnxruntime(from, to)
        };
        // An Expand whose output count is known only when it runs is left too: those of
        // the models measured are masks and position ids, small, and onnxruntime's Expand
        // is ahead of tensorcast's below 1 Mi elements.
        Ok(same
            && if expand {
                count.is_none_or(|n| n < SMALL_EXPAND_ELEMENTS)
            } else {
                count.is_some_and(|n| n < SMALL_CAST_ELEMENTS) || faster_on_onnxruntime(from, to)
            })
    }
}

/// Operators onnxruntime's constant folding never folds, whatever their inputs: the
/// random ones, those with subgraphs, and QuantizeLinear/DequantizeLinear (kept for the
/// QDQ fusions).
const NEVER_FOLDED: [&CStr; 12] = [
    c"RandomNormal",
    c"RandomUniform",
    c"RandomNormalLike",
    c"RandomUniformLike",
    c"Multinomial",
    c"Bernoulli",
    c"If",
    c"Loop",
    c"Scan",
    c"QuantizeLinear",
    c"DequantizeLinear",
    c"DynamicQuantizeLinear",
];

/// For each of `nodes`, whether onnxruntime's constant folding computes it when the model
/// is optimized, so that the EP must leave it: a node whose inputs are all constant
/// initializers, or outputs of such nodes, transitively (a CastLike counts its first input
/// only: the second gives just the type).
///
/// onnxruntime folds nodes its CPU provider has kernels for whose inputs are all constant
/// initializers (`ConstantFolding`); a node an execution provider took is never folded.
/// Before it optimizes, it inlines the model's local functions, and the function-defined
/// operators in them that no provider takes, CastLike among them (the CPU provider has no
/// CastLike kernel): it asks the providers first, so this runs then too. torch's dynamo
/// exporter writes its CastLikes of initializers (rotary Range/Sin/Cos, shape arithmetic)
/// inside such functions: taken by the EP, a CastLike and everything computed from it stay
/// unfolded. So the EP leaves every Cast, CastLike and Expand of constants whose element
/// types the CPU provider handles (`CPU_FOLDABLE`), and everything computed from constants
/// that they feed. A node of another element type (a Cast to FLOAT4E2M1) stays the EP's:
/// onnxruntime could neither fold nor run it. Without optimizations (ORT_DISABLE_ALL)
/// nothing is folded and the CPU provider runs what the EP left, as it does without the
/// library.
///
/// # Safety
/// As for `leave_to_onnxruntime`, for every node of `nodes`.
unsafe fn folded_by_onnxruntime(
    api: Api,
    nodes: &[*const ort::OrtNode],
) -> Result<Vec<bool>, Fail> {
    const OURS: [&CStr; 3] = [c"Cast", c"CastLike", c"Expand"];
    let mut inputs = Vec::with_capacity(nodes.len());
    let mut outputs = Vec::with_capacity(nodes.len());
    let mut candidate = Vec::with_capacity(nodes.len());
    let mut constant = std::collections::HashSet::new();
    let is_initializer = ort_fn!(api, ValueInfo_IsConstantInitializer);
    for &node in nodes {
        // SAFETY: forwarded; the values belong to the graph, valid for this call.
        unsafe {
            let mut ins = values(
                node,
                ort_fn!(api, Node_GetNumInputs),
                ort_fn!(api, Node_GetInputs),
            )?;
            let outs = values(
                node,
                ort_fn!(api, Node_GetNumOutputs),
                ort_fn!(api, Node_GetOutputs),
            )?;
            let mut foldable = !ins.is_empty() && !is_onnx_op(api, node, &NEVER_FOLDED)?;
            if foldable && is_onnx_op(api, node, &OURS)? {
                for &value in ins.iter().take(1).chain(outs.iter()) {
                    if !value.is_null() {
                        let element = element_type(api, value)?;
                        foldable &= element.is_some_and(|e| CPU_FOLDABLE.contains(&e));
                    }
                }
            }
            for &value in &ins {
                let mut yes = false;
                if !value.is_null() {
                    check(is_initializer(value, &mut yes))?;
                }
                if yes {
                    constant.insert(value);
                }
            }
            // A CastLike becomes a Cast of its first input when onnxruntime inlines it: the
            // second gives only the type.
            if is_onnx_op(api, node, &OURS[1..2])? {
                ins.truncate(1);
            }
            inputs.push(ins);
            outputs.push(outs);
            candidate.push(foldable);
        }
    }
    // onnxruntime lists the nodes in topological order: one pass finds them all, a second
    // finds nothing new. The loop does not rely on it.
    let mut folded = vec![false; nodes.len()];
    loop {
        let mut changed = false;
        for (i, ins) in inputs.iter().enumerate() {
            if folded[i] || !candidate[i] {
                continue;
            }
            if ins.iter().all(|v| v.is_null() || constant.contains(v)) {
                folded[i] = true;
                changed = true;
                constant.extend(outputs[i].iter().copied().filter(|v| !v.is_null()));
            }
        }
        if !changed {
            return Ok(folded);
        }
    }
}

/// Whether the EP leaves a node it has a kernel for to onnxruntime, so that the model runs
/// as it does without the library: a Cast or CastLike whose input is a FLOAT16 value that
/// another operator computes, or whose FLOAT16 output another operator takes.
///
/// onnxruntime's CPU provider runs the FLOAT16 operators it has no FLOAT16 kernel for in
/// FLOAT, with Casts of its own inserted around them after the execution providers took
/// their nodes (`InsertCastTransformer`); then it drops each pair of an inserted Cast and a
/// Cast of the model that undo each other (`RemoveDuplicateCastTransformer`), so that the
/// value is never rounded to FLOAT16. It does so only while the model's Cast is its own: one
/// the EP took would keep the rounding, and the model's outputs would move. Which operators
/// get those Casts is not known when the EP chooses, so it leaves every Cast next to a
/// FLOAT16 value of another operator; Casts between graph inputs, initializers, graph
/// outputs and the three operators stay the EP's.
///
/// # Safety
/// `api` is a table of `EP_API_VERSION` or later; `node` is a node of the graph onnxruntime
/// passed to GetCapability, valid for that call.
unsafe fn leave_to_onnxruntime(api: Api, node: *const ort::OrtNode) -> Result<bool, Fail> {
    const OURS: [&CStr; 3] = [c"Cast", c"CastLike", c"Expand"];
    // SAFETY: the members' types are the header's; every object read belongs to the graph,
    // valid for this call, and every out-pointer is a local or holds what was asked for.
    unsafe {
        if !is_onnx_op(api, node, &OURS[..2])? {
            return Ok(false);
        }
        let input = first_value(
            node,
            ort_fn!(api, Node_GetNumInputs),
            ort_fn!(api, Node_GetInputs),
        )?;
        if !input.is_null() && is_float16(api, input)? {
            let mut producer = null();
            let mut output = 0;
            check(ort_fn!(api, ValueInfo_GetValueProducer)(
                input,
                &mut producer,
                &mut output,
            ))?;
            if !producer.is_null() && !is_onnx_op(api, producer, &OURS)? {
                return Ok(true);
            }
        }
        let output = first_value(
            node,
            ort_fn!(api, Node_GetNumOutputs),
            ort_fn!(api, Node_GetOutputs),
        )?;
        if !output.is_null() && is_float16(api, output)? {
            let mut count = 0;
            check(ort_fn!(api, ValueInfo_GetValueNumConsumers)(
                output, &mut count,
            ))?;
            let mut consumers = vec![null(); count];
            let mut indices = vec![0i64; count];
            if count > 0 {
                check(ort_fn!(api, ValueInfo_GetValueConsumers)(
                    output,
                    consumers.as_mut_ptr(),
                    indices.as_mut_ptr(),
                    count,
                ))?;
            }
            for consumer in consumers {
                if !consumer.is_null() && !is_onnx_op(api, consumer, &OURS)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// `OrtApi::Node_GetNumInputs` or `Node_GetNumOutputs`.
type NodeCount = unsafe extern "C" fn(*const ort::OrtNode, *mut usize) -> *mut OrtStatus;
/// `OrtApi::Node_GetInputs` or `Node_GetOutputs`.
type NodeValues = unsafe extern "C" fn(
    *const ort::OrtNode,
    *mut *const ort::OrtValueInfo,
    usize,
) -> *mut OrtStatus;

/// The node's first input or output (by the count and list functions given), NULL if
/// none.
///
/// # Safety
/// As for `leave_to_onnxruntime`; the functions are Node_GetNumInputs/Node_GetInputs or
/// Node_GetNumOutputs/Node_GetOutputs.
unsafe fn first_value(
    node: *const ort::OrtNode,
    count_of: NodeCount,
    values_of: NodeValues,
) -> Result<*const ort::OrtValueInfo, Fail> {
    // SAFETY: forwarded (`values` has the same contract).
    let all = unsafe { values(node, count_of, values_of)? };
    Ok(all.first().copied().unwrap_or(null()))
}

/// All of a node's inputs or outputs (by the count and list functions given); a missing
/// optional one is NULL.
///
/// # Safety
/// As for `first_value`.
unsafe fn values(
    node: *const ort::OrtNode,
    count_of: NodeCount,
    values_of: NodeValues,
) -> Result<Vec<*const ort::OrtValueInfo>, Fail> {
    let mut count = 0;
    // SAFETY: the functions are onnxruntime's for this node; `values` holds the `count`
    // entries asked for.
    unsafe {
        check(count_of(node, &mut count))?;
        let mut values = vec![null(); count];
        if count > 0 {
            check(values_of(node, values.as_mut_ptr(), count))?;
        }
        Ok(values)
    }
}

/// Whether a value is a FLOAT16 tensor.
///
/// # Safety
/// As for `leave_to_onnxruntime`; `value` belongs to the graph.
unsafe fn is_float16(api: Api, value: *const ort::OrtValueInfo) -> Result<bool, Fail> {
    // SAFETY: forwarded.
    Ok(unsafe { element_type(api, value) }? == Some(ort::TYPE_FLOAT16))
}

/// A tensor value's element type (onnxruntime's number), None if it is not a tensor.
///
/// # Safety
/// As for `leave_to_onnxruntime`; `value` belongs to the graph.
unsafe fn element_type(api: Api, value: *const ort::OrtValueInfo) -> Result<Option<c_int>, Fail> {
    // SAFETY: forwarded.
    Ok(unsafe { tensor_info(api, value) }?.map(|(element, _)| element))
}

/// A tensor value's element type (onnxruntime's number) and, when its rank and every
/// extent are known when the session is made, its element count; None if it is not a
/// tensor.
///
/// # Safety
/// As for `leave_to_onnxruntime`; `value` belongs to the graph.
unsafe fn tensor_info(
    api: Api,
    value: *const ort::OrtValueInfo,
) -> Result<Option<(c_int, Option<u64>)>, Fail> {
    let mut type_info = null();
    let mut tensor = null();
    let mut element = 0;
    // SAFETY: the members' types are the header's (TensorTypeAndShape_HasShape is in every
    // table of EP_API_VERSION); the type information belongs to the value; `dims` holds
    // the `ndim` extents asked for.
    unsafe {
        check(ort_fn!(api, GetValueInfoTypeInfo)(value, &mut type_info))?;
        if type_info.is_null() {
            return Ok(None);
        }
        check(ort_fn!(api, CastTypeInfoToTensorInfo)(
            type_info,
            &mut tensor,
        ))?;
        if tensor.is_null() {
            return Ok(None);
        }
        check(ort_fn!(api, GetTensorElementType)(tensor, &mut element))?;
        if !ort_fn!(api, TensorTypeAndShape_HasShape)(tensor) {
            return Ok(Some((element, None)));
        }
        let mut ndim = 0;
        check(ort_fn!(api, GetDimensionsCount)(tensor, &mut ndim))?;
        let mut dims = [0i64; 8];
        if ndim > dims.len() {
            return Ok(Some((element, None)));
        }
        check(ort_fn!(api, GetDimensions)(tensor, dims.as_mut_ptr(), ndim))?;
        // A symbolic or unknown extent is -1.
        let count = dims[..ndim].iter().try_fold(1u64, |n, &d| {
            u64::try_from(d).ok().and_then(|d| n.checked_mul(d))
        });
        Ok(Some((element, count)))
    }
}

/// Whether `node` is one of the ONNX-domain operators `names`.
///
/// # Safety
/// As for `leave_to_onnxruntime`.
unsafe fn is_onnx_op(api: Api, node: *const ort::OrtNode, names: &[&CStr]) -> Result<bool, Fail> {
    let mut domain = null();
    let mut op_type = null();
    // SAFETY: the members' types are the header's; the strings belong to the node.
    unsafe {
        check(ort_fn!(api, Node_GetDomain)(node, &mut domain))?;
        check(ort_fn!(api, Node_GetOperatorType)(node, &mut op_type))?;
        if domain.is_null() || op_type.is_null() {
            return Ok(false);
        }
        let domain = CStr::from_ptr(domain).to_bytes();
        let op_type = CStr::from_ptr(op_type);
        Ok((domain.is_empty() || domain == b"ai.onnx") && names.contains(&op_type))
    }
}

unsafe extern "C" fn kernel_compute(
    this: *mut OrtKernelImpl,
    context: *mut OrtKernelContext,
) -> *mut OrtStatus {
    // SAFETY: `this` is the `EpKernel` create_kernel made (its first field), alive until
    // kernel_release.
    let made = unsafe { &*this.cast::<EpKernel>() };
    guarded(made.kernel.api, || {
        // SAFETY: `context` is the context onnxruntime passes for this call.
        unsafe { made.kernel.compute(context) }
    })
}

unsafe extern "C" fn kernel_release(this: *mut OrtKernelImpl) {
    if !this.is_null() {
        // SAFETY: `this` came from Box::into_raw in create_kernel and is released once.
        drop(unsafe { Box::from_raw(this.cast::<EpKernel>()) });
    }
}

/// Creates one node's kernel; `state` points at a definition's `op` in `DEFINITIONS`.
unsafe extern "C" fn create_kernel(
    state: *mut c_void,
    info: *const OrtKernelInfo,
    out: *mut *mut OrtKernelImpl,
) -> *mut OrtStatus {
    // SAFETY: `state` is the pointer to a `DEFINITIONS` entry's `op` that
    // register_kernels passed with this function.
    let op = unsafe { *state.cast::<Op>() };
    let api = ep_ort_api();
    guarded(api, || {
        // SAFETY: `info` is the kernel info onnxruntime passes for this node.
        let kernel = unsafe { Kernel::new(api, ort::EP_API_VERSION, op, info) }?;
        let made = Box::new(EpKernel {
            base: OrtKernelImpl {
                ort_version_supported: ort::EP_API_VERSION,
                flags: 0,
                Compute: Some(kernel_compute),
                Release: Some(kernel_release),
                PrePackWeight: None,
                SetSharedPrePackedWeight: None,
            },
            kernel,
        });
        // SAFETY: `out` is onnxruntime's out-pointer; kernel_release frees the box.
        unsafe { *out = Box::into_raw(made).cast() };
        Ok(())
    })
}

/// The `OrtApi` the EP was created with, for the kernel-creation callback, which
/// onnxruntime calls without one.
fn ep_ort_api() -> Api {
    let table = EP_API_TABLE.load(std::sync::atomic::Ordering::Acquire);
    // SAFETY: set by CreateEpFactories before onnxruntime could create any kernel.
    unsafe { Api::new(table) }
}

static EP_API_TABLE: std::sync::atomic::AtomicPtr<ort::OrtApi> =
    std::sync::atomic::AtomicPtr::new(null_mut());

/// A kernel registry holding `DEFINITIONS`.
///
/// # Safety
/// `ep_api` is a table of version `EP_API_VERSION` or later.
unsafe fn register_kernels(ep_api: EpApi) -> Result<*mut OrtKernelRegistry, Fail> {
    // SAFETY: the members' types are the header's; every out-pointer is a local.
    unsafe {
        let mut registry = null_mut();
        check(ort_fn!(ep_api, CreateKernelRegistry)(&mut registry))?;
        for definition in &DEFINITIONS {
            if let Err(fail) = add_kernel(ep_api, registry, definition) {
                release_registry(ep_api, registry);
                return Err(fail);
            }
        }
        Ok(registry)
    }
}

/// onnxruntime's data types of the element types `elements`, without those the running
/// onnxruntime does not know (1.24 refuses UINT2 and INT2, which its header already
/// names): their kernels are left out, and onnxruntime, which has no tensors of them
/// either, never asks for them.
///
/// # Safety
/// `ep_api` is a table of version `EP_API_VERSION` or later.
unsafe fn data_types(
    ep_api: EpApi,
    elements: &[c_int],
) -> Result<Vec<*const ort::OrtDataType>, Fail> {
    let data_type = ort_fn!(ep_api, GetTensorDataType);
    let mut known = Vec::with_capacity(elements.len());
    for &element in elements {
        let mut made = null();
        // SAFETY: the member's type is the header's; the out-pointer is a local. The data
        // types are onnxruntime's statics.
        let status = unsafe { data_type(element, &mut made) };
        if status.is_null() {
            known.push(made);
        } else {
            ep_ort_api().release_status(status);
        }
    }
    Ok(known)
}

/// Adds one definition to `registry`.
///
/// # Safety
/// `ep_api` is a table of version `EP_API_VERSION` or later; `registry` is a live registry.
unsafe fn add_kernel(
    ep_api: EpApi,
    registry: *mut OrtKernelRegistry,
    definition: &'static Definition,
) -> Result<(), Fail> {
    // SAFETY: the members' types are the header's; the builder and the definition are
    // released on every path.
    unsafe {
        let mut builder = null_mut();
        check(ort_fn!(ep_api, CreateKernelDefBuilder)(&mut builder))?;
        let built = (|| {
            check(ort_fn!(ep_api, KernelDefBuilder_SetOperatorType)(
                builder,
                definition.op.name().as_ptr(),
            ))?;
            check(ort_fn!(ep_api, KernelDefBuilder_SetDomain)(
                builder,
                c"".as_ptr(),
            ))?;
            check(ort_fn!(ep_api, KernelDefBuilder_SetExecutionProvider)(
                builder,
                EP_NAME.as_ptr(),
            ))?;
            check(ort_fn!(ep_api, KernelDefBuilder_SetSinceVersion)(
                builder,
                definition.since,
                definition.until,
            ))?;
            for (name, elements) in definition.type_params {
                let types = data_types(ep_api, elements)?;
                check(ort_fn!(ep_api, KernelDefBuilder_AddTypeConstraint)(
                    builder,
                    name.as_ptr(),
                    types.as_ptr(),
                    types.len(),
                ))?;
            }
            let mut def = null_mut();
            check(ort_fn!(ep_api, KernelDefBuilder_Build)(builder, &mut def))?;
            Ok(def)
        })();
        ort_fn!(ep_api, ReleaseKernelDefBuilder)(builder);
        let def = built?;
        let added = check(ort_fn!(ep_api, KernelRegistry_AddKernel)(
            registry,
            def,
            Some(create_kernel),
            (&definition.op as *const Op).cast_mut().cast(),
        ));
        ort_fn!(ep_api, ReleaseKernelDef)(def);
        added
    }
}

/// # Safety
/// `registry` came from CreateKernelRegistry and is released once.
unsafe fn release_registry(ep_api: EpApi, registry: *mut OrtKernelRegistry) {
    // SAFETY: the member's type is the header's.
    unsafe { ort_fn!(ep_api, ReleaseKernelRegistry)(registry) }
}

/// onnxruntime's entry point for an execution-provider library
/// (`RegisterExecutionProviderLibrary`): makes the one factory of the
/// TensorcastExecutionProvider, with its kernel registry.
///
/// # Safety
/// The arguments are the ones onnxruntime passes: `factories` holds `max_factories`.
#[no_mangle]
pub unsafe extern "C" fn CreateEpFactories(
    _registered_name: *const c_char,
    api_base: *const OrtApiBase,
    _logger: *const ort::OrtLogger,
    factories: *mut *mut OrtEpFactory,
    max_factories: usize,
    num_factories: *mut usize,
) -> *mut OrtStatus {
    if !num_factories.is_null() {
        // SAFETY: onnxruntime's out-pointer; no factory until one is made.
        unsafe { *num_factories = 0 };
    }
    // SAFETY: `api_base` is onnxruntime's.
    let api = match unsafe {
        ort::api_of(
            api_base,
            ort::EP_API_VERSION,
            "TensorcastExecutionProvider",
            "1.24",
        )
    } {
        Ok(api) => api,
        Err(status) => return status,
    };
    guarded(api, || {
        if factories.is_null() || num_factories.is_null() || max_factories == 0 {
            return Err(Fail::New(
                ort::ORT_INVALID_ARGUMENT,
                "TensorcastExecutionProvider: onnxruntime gave no room for a factory".into(),
            ));
        }
        EP_API_TABLE.store(api.table().cast_mut(), std::sync::atomic::Ordering::Release);
        // SAFETY: the member's type is the header's; it returns the table of this onnxruntime.
        let ep_api = unsafe { EpApi::new(ort_fn!(api, GetEpApi)()) };
        // SAFETY: the table is of EP_API_VERSION or later.
        let registry = unsafe { register_kernels(ep_api) }?;
        let made = Box::new(Factory {
            base: OrtEpFactory {
                ort_version_supported: ort::EP_API_VERSION,
                GetName: Some(factory_name),
                GetVendor: Some(factory_vendor),
                GetSupportedDevices: Some(supported_devices),
                CreateEp: Some(create_ep),
                ReleaseEp: Some(release_ep),
                GetVendorId: Some(factory_vendor_id),
                GetVersion: Some(factory_version),
                ValidateCompiledModelCompatibilityInfo: Some(validate_compatibility),
                CreateAllocator: Some(create_allocator),
                ReleaseAllocator: Some(release_allocator),
                CreateDataTransfer: Some(create_data_transfer),
                IsStreamAware: Some(is_stream_aware),
                CreateSyncStreamForDevice: Some(create_sync_stream),
                GetHardwareDeviceIncompatibilityDetails: None,
                CreateExternalResourceImporterForDevice: None,
                GetNumCustomOpDomains: Some(no_custom_op_domains),
                GetCustomOpDomains: Some(custom_op_domains),
            },
            api,
            ep_api,
            registry,
        });
        // SAFETY: onnxruntime's out-pointers; ReleaseEpFactory frees the box.
        unsafe {
            *factories = Box::into_raw(made).cast();
            *num_factories = 1;
        }
        Ok(())
    })
}

/// onnxruntime's call to release a factory CreateEpFactories made, with its registry.
///
/// # Safety
/// `factory` is a factory this library made, released once.
#[no_mangle]
pub unsafe extern "C" fn ReleaseEpFactory(factory: *mut OrtEpFactory) -> *mut OrtStatus {
    if !factory.is_null() {
        // SAFETY: `factory` came from Box::into_raw in CreateEpFactories.
        let made = unsafe { Box::from_raw(factory.cast::<Factory>()) };
        // SAFETY: the registry was made with the factory and no EP outlives it.
        unsafe { release_registry(made.ep_api, made.registry) };
    }
    null_mut()
}
