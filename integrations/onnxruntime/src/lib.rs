// SPDX-License-Identifier: MIT OR Apache-2.0
//! tensorcast in onnxruntime: a library that onnxruntime loads in two ways.
//!
//! - As a plugin execution provider (`ep.rs`; `CreateEpFactories`, `ReleaseEpFactory`),
//!   the way to run a model's ONNX Cast, CastLike and Expand nodes on tensorcast. It
//!   leaves ONNX's schemas, onnxruntime's shape inference and its graph optimizations as
//!   they are and takes the nodes that remain after the basic optimizations.
//! - As a custom-op library (`RegisterCustomOps`), for models that call the same kernels
//!   by name in the domain `ai.tensorcast`. Each op is registered for every opset version
//!   (1 and up) and, one kernel per pair, for every input and output element type
//!   onnxruntime has: a kernel declared for "any type" would be offered only the types
//!   onnxruntime lists as such, which leave out INT2 and UINT2. The session config entry
//!   `tensorcast_ort.override_onnx_domain` = "1" also registers them in the ONNX domain
//!   (""), replacing onnxruntime's own kernels and ONNX's schemas of the three operators:
//!   shape inference, ONNX's checks and the optimizer's matching of those nodes then
//!   follow the library's schemas, not ONNX's, which is why it is off by default.
//!
//! The kernels (`kernel.rs`) call tensorcast through its C ABI (`tensorcast::ffi`), split
//! large work over onnxruntime's intra-op threads (`KernelContext_ParallelFor` as
//! tensorcast's executor), and turn a tensorcast error into an `OrtStatus` carrying its
//! message. Every callback that onnxruntime makes into the library catches panics, so none
//! can abort the host.

mod ep;
mod kernel;
mod ort;
// Generated from the vendored headers (xtask/src/generate/ort.rs); kept as generated.
#[rustfmt::skip]
mod ort_sys;

use std::ffi::{c_char, c_int, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Mutex;

use ort::{ort_fn, Api, OrtApiBase, OrtCustomOp, OrtSessionOptions, OrtStatus};

/// Which operator a registered op or kernel is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Cast,
    CastLike,
    Expand,
    /// Only through the execution provider (`ep.rs`): not a custom op.
    QuantizeLinear,
    /// Only through the execution provider (`ep.rs`): not a custom op.
    DequantizeLinear,
}

impl Op {
    fn name(self) -> &'static CStr {
        match self {
            Op::Cast => c"Cast",
            Op::CastLike => c"CastLike",
            Op::Expand => c"Expand",
            Op::QuantizeLinear => c"QuantizeLinear",
            Op::DequantizeLinear => c"DequantizeLinear",
        }
    }

    fn inputs(self) -> usize {
        match self {
            Op::Cast => 1,
            Op::CastLike | Op::Expand => 2,
            Op::QuantizeLinear | Op::DequantizeLinear => 3,
        }
    }
}

/// An `OrtCustomOp` followed by what the callbacks need to know about it; onnxruntime
/// passes back the pointer to `base`, the first field.
#[repr(C)]
#[derive(Clone, Copy)]
struct Registered {
    base: OrtCustomOp,
    op: Op,
    /// The first input's element type (onnxruntime's number).
    input: c_int,
    /// The output's element type (CastLike's second input has it too).
    output: c_int,
}

/// The tensor element types of onnxruntime's C API that its CPU tensors can hold: all but
/// UNDEFINED and the complex types.
const TYPES: [c_int; 24] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
];

// SAFETY: the struct is immutable after construction and holds only function pointers
// and plain data.
unsafe impl Sync for Registered {}

/// The API table given to the last `RegisterCustomOps`, for the shape-inference callback,
/// which onnxruntime calls without one.
static API: AtomicPtr<ort::OrtApi> = AtomicPtr::new(std::ptr::null_mut());

fn registered(op: *const OrtCustomOp) -> &'static Registered {
    // SAFETY: onnxruntime passes back the pointer it was given, to a `Registered` (whose
    // first field is the `OrtCustomOp`), which lives in a static.
    unsafe { &*op.cast::<Registered>() }
}

unsafe extern "C" fn get_name(op: *const OrtCustomOp) -> *const c_char {
    registered(op).op.name().as_ptr()
}

unsafe extern "C" fn get_execution_provider_type(_: *const OrtCustomOp) -> *const c_char {
    // NULL: the CPU execution provider.
    std::ptr::null()
}

unsafe extern "C" fn get_input_type(op: *const OrtCustomOp, index: usize) -> c_int {
    let op = registered(op);
    match (op.op, index) {
        (_, 0) => op.input,
        (Op::Expand, _) => ort::TYPE_INT64,
        _ => op.output,
    }
}

unsafe extern "C" fn get_input_type_count(op: *const OrtCustomOp) -> usize {
    registered(op).op.inputs()
}

unsafe extern "C" fn get_output_type(op: *const OrtCustomOp, _: usize) -> c_int {
    registered(op).output
}

unsafe extern "C" fn get_output_type_count(_: *const OrtCustomOp) -> usize {
    1
}

unsafe extern "C" fn get_input_characteristic(_: *const OrtCustomOp, _: usize) -> c_int {
    ort::REQUIRED
}

unsafe extern "C" fn get_output_characteristic(_: *const OrtCustomOp, _: usize) -> c_int {
    ort::REQUIRED
}

unsafe extern "C" fn get_input_memory_type(_: *const OrtCustomOp, _: usize) -> c_int {
    // OrtMemTypeDefault.
    0
}

unsafe extern "C" fn variadic_min_arity(_: *const OrtCustomOp) -> c_int {
    1
}

unsafe extern "C" fn variadic_homogeneity(_: *const OrtCustomOp) -> c_int {
    1
}

unsafe extern "C" fn get_start_version(_: *const OrtCustomOp) -> c_int {
    1
}

unsafe extern "C" fn get_end_version(_: *const OrtCustomOp) -> c_int {
    c_int::MAX
}

unsafe extern "C" fn create_kernel_v2(
    op: *const OrtCustomOp,
    api: *const ort::OrtApi,
    info: *const ort::OrtKernelInfo,
    kernel: *mut *mut c_void,
) -> *mut OrtStatus {
    // SAFETY: onnxruntime passes the table of the version in `OrtCustomOp::version`.
    let api = unsafe { Api::new(api) };
    let op = registered(op).op;
    guarded(api, || {
        // SAFETY: `info` is the kernel info onnxruntime passes for this node.
        let made = unsafe { kernel::Kernel::new(api, ort::API_VERSION, op, info) }?;
        // SAFETY: `kernel` is onnxruntime's out-pointer.
        unsafe { *kernel = Box::into_raw(Box::new(made)).cast() };
        Ok(())
    })
}

unsafe extern "C" fn kernel_compute_v2(
    kernel: *mut c_void,
    context: *mut ort::OrtKernelContext,
) -> *mut OrtStatus {
    // SAFETY: `kernel` is what create_kernel_v2 made, alive until kernel_destroy.
    let kernel = unsafe { &*kernel.cast::<kernel::Kernel>() };
    guarded(kernel.api, || {
        // SAFETY: `context` is the context onnxruntime passes for this call.
        unsafe { kernel.compute(context) }
    })
}

unsafe extern "C" fn kernel_destroy(kernel: *mut c_void) {
    if !kernel.is_null() {
        // Dropping a plain struct cannot panic.
        // SAFETY: `kernel` came from Box::into_raw in create_kernel_v2 and is freed once.
        drop(unsafe { Box::from_raw(kernel.cast::<kernel::Kernel>()) });
    }
}

unsafe extern "C" fn infer_cast_type(
    op: *const OrtCustomOp,
    context: *mut ort::OrtShapeInferContext,
) -> *mut OrtStatus {
    let table = API.load(Ordering::Acquire);
    // SAFETY: set by RegisterCustomOps before any session could run this callback.
    let api = unsafe { Api::new(table) };
    guarded(api, || {
        debug_assert_eq!(registered(op).op, Op::Cast);
        // SAFETY: `context` is the inference context onnxruntime passes for a Cast node.
        unsafe { kernel::infer_cast(api, context) }
    })
}

/// Runs `body` with panics caught; an error or a panic becomes an `OrtStatus`.
fn guarded(api: Api, body: impl FnOnce() -> Result<(), kernel::Fail>) -> *mut OrtStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => std::ptr::null_mut(),
        Ok(Err(fail)) => fail.into_status(api),
        Err(_) => api.status(
            ort::ORT_FAIL,
            "tensorcast-ort: internal error (a panic was caught)",
        ),
    }
}

const fn custom_op(op: Op, input: c_int, output: c_int) -> Registered {
    Registered {
        base: OrtCustomOp {
            version: ort::API_VERSION,
            CreateKernel: None,
            GetName: Some(get_name),
            GetExecutionProviderType: Some(get_execution_provider_type),
            GetInputType: Some(get_input_type),
            GetInputTypeCount: Some(get_input_type_count),
            GetOutputType: Some(get_output_type),
            GetOutputTypeCount: Some(get_output_type_count),
            KernelCompute: None,
            KernelDestroy: Some(kernel_destroy),
            GetInputCharacteristic: Some(get_input_characteristic),
            GetOutputCharacteristic: Some(get_output_characteristic),
            GetInputMemoryType: Some(get_input_memory_type),
            GetVariadicInputMinArity: Some(variadic_min_arity),
            GetVariadicInputHomogeneity: Some(variadic_homogeneity),
            GetVariadicOutputMinArity: Some(variadic_min_arity),
            GetVariadicOutputHomogeneity: Some(variadic_homogeneity),
            CreateKernelV2: Some(create_kernel_v2),
            KernelComputeV2: Some(kernel_compute_v2),
            InferOutputShapeFn: match op {
                Op::Cast => Some(infer_cast_type as InferFn),
                _ => None,
            },
            GetStartVersion: Some(get_start_version),
            GetEndVersion: Some(get_end_version),
            GetMayInplace: None,
            ReleaseMayInplace: None,
            GetAliasMap: None,
            ReleaseAliasMap: None,
        },
        op,
        input,
        output,
    }
}

type InferFn =
    unsafe extern "C" fn(*const OrtCustomOp, *mut ort::OrtShapeInferContext) -> *mut OrtStatus;

/// How many ops there are: Cast and CastLike for each pair of types, Expand for each type.
const OP_COUNT: usize = 2 * TYPES.len() * TYPES.len() + TYPES.len();

/// Every registered op, built at compile time: registering the library allocates none.
static OPS: [Registered; OP_COUNT] = all_ops();

const fn all_ops() -> [Registered; OP_COUNT] {
    let mut ops = [custom_op(Op::Expand, 0, 0); OP_COUNT];
    let mut at = 0;
    let mut i = 0;
    while i < TYPES.len() {
        let mut j = 0;
        while j < TYPES.len() {
            ops[at] = custom_op(Op::Cast, TYPES[i], TYPES[j]);
            ops[at + 1] = custom_op(Op::CastLike, TYPES[i], TYPES[j]);
            at += 2;
            j += 1;
        }
        ops[at] = custom_op(Op::Expand, TYPES[i], TYPES[i]);
        at += 1;
        i += 1;
    }
    assert!(at == OP_COUNT);
    ops
}

/// The domains the ops are added to: ONNX's own (overriding the built-in kernels) and ours.
const ONNX_DOMAIN: &CStr = c"";
const OWN_DOMAIN: &CStr = c"ai.tensorcast";

/// The session config entry that adds the ONNX domain: "1" registers the ops in both
/// domains; "0" (the default) in `ai.tensorcast` only.
const OVERRIDE_KEY: &CStr = c"tensorcast_ort.override_onnx_domain";

/// The custom-op domains, made once per load of the library (the first time a session
/// options asks for each) and shared by every session options it is registered with:
/// onnxruntime reads a domain when it makes a session, and unloads the library only after
/// the last session options and session that use it are gone. `release_domains` frees
/// them then, so registering the library again and again holds memory flat.
struct Domains {
    api: *const ort::OrtApi,
    /// The ONNX domain's and ai.tensorcast's, NULL until made.
    made: [*mut ort::OrtCustomOpDomain; 2],
}

// SAFETY: the pointers are onnxruntime's objects, used only under the mutex.
unsafe impl Send for Domains {}

static DOMAINS: Mutex<Domains> = Mutex::new(Domains {
    api: std::ptr::null(),
    made: [std::ptr::null_mut(); 2],
});

/// The domain `name` (ONNX_DOMAIN or OWN_DOMAIN) holding every op of OPS, made on first use.
fn shared_domain(
    api: Api,
    base: *const OrtApiBase,
    name: &CStr,
) -> Result<*mut ort::OrtCustomOpDomain, kernel::Fail> {
    let index = usize::from(name == OWN_DOMAIN);
    let mut domains = DOMAINS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if domains.made[index].is_null() {
        let mut domain = std::ptr::null_mut();
        // SAFETY: the members' types are the header's; `name` is NUL-terminated; the ops are
        // statics, alive as long as the library.
        unsafe {
            kernel::check(ort_fn!(api, CreateCustomOpDomain)(
                name.as_ptr(),
                &mut domain,
            ))?;
            let known = known_types(api, base);
            for op in OPS
                .iter()
                .filter(|op| known.contains(&op.input) && known.contains(&op.output))
            {
                let added = kernel::check(ort_fn!(api, CustomOpDomain_Add)(domain, &op.base));
                if let Err(fail) = added {
                    ort_fn!(api, ReleaseCustomOpDomain)(domain);
                    return Err(fail);
                }
            }
        }
        domains.made[index] = domain;
        domains.api = api.table();
    }
    Ok(domains.made[index])
}

/// The element types of TYPES the running onnxruntime knows: those before UINT2 (24) in
/// every version; UINT2, INT2 and FLOAT8E8M0 where the plugin EP API's
/// `GetTensorDataType` accepts them (onnxruntime 1.24 names UINT2 and INT2 in its header
/// but refuses sessions with custom ops of them; before 1.24 there is no such API and no
/// such type). Ops of other types are not registered.
fn known_types(api: Api, base: *const OrtApiBase) -> Vec<c_int> {
    let mut known: Vec<c_int> = TYPES
        .iter()
        .copied()
        .filter(|&t| t < ort::TYPE_UINT2)
        .collect();
    // SAFETY: `base` is onnxruntime's, valid for the process (checked by api_of).
    let api = match unsafe { ort::api_of(base, ort::EP_API_VERSION, "", "") } {
        Ok(newer) => newer,
        Err(status) => {
            api.release_status(status);
            return known;
        }
    };
    // SAFETY: a table of EP_API_VERSION has GetEpApi, which returns this onnxruntime's.
    let ep_api = unsafe { ort::EpApi::new(ort_fn!(api, GetEpApi)()) };
    let data_type = ort_fn!(ep_api, GetTensorDataType);
    for &element in TYPES.iter().filter(|&&t| t >= ort::TYPE_UINT2) {
        let mut made = std::ptr::null();
        // SAFETY: the member's type is the header's; the out-pointer is a local.
        let status = unsafe { data_type(element, &mut made) };
        if status.is_null() {
            known.push(element);
        } else {
            api.release_status(status);
        }
    }
    known
}

/// Frees the domains when the library is unloaded (dlclose after the last session options
/// that registered it, or the end of the process). Runs from the ELF `.fini_array`.
extern "C" fn release_domains() {
    let _ = catch_unwind(|| {
        let mut domains = DOMAINS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if domains.api.is_null() {
            return;
        }
        // SAFETY: `api` is the table the domains were made with; onnxruntime, which is
        // unloading this library, is still loaded.
        let api = unsafe { Api::new(domains.api) };
        for domain in &mut domains.made {
            if !domain.is_null() {
                // SAFETY: the member's type is the header's; each domain is released once,
                // when no session options holds it any more.
                unsafe { ort_fn!(api, ReleaseCustomOpDomain)(*domain) };
                *domain = std::ptr::null_mut();
            }
        }
    });
}

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".fini_array"]
static RELEASE_AT_UNLOAD: extern "C" fn() = release_domains;

/// A "0"/"1" session config entry `key`: `default` when the options do not have it, an
/// INVALID_ARGUMENT error naming the entry for any other value.
///
/// # Safety
/// `options` is session options onnxruntime passes, valid for this call.
pub(crate) unsafe fn config_flag(
    api: Api,
    options: *const OrtSessionOptions,
    key: &CStr,
    default: bool,
) -> Result<bool, kernel::Fail> {
    let mut has = 0;
    let mut value = [0u8; 16];
    let mut size = value.len();
    // SAFETY: the members' types are the header's; `value` holds `size` bytes.
    unsafe {
        kernel::check(ort_fn!(api, HasSessionConfigEntry)(
            options,
            key.as_ptr(),
            &mut has,
        ))?;
        if has == 0 {
            return Ok(default);
        }
        kernel::check(ort_fn!(api, GetSessionConfigEntry)(
            options,
            key.as_ptr(),
            value.as_mut_ptr().cast(),
            &mut size,
        ))?;
    }
    match CStr::from_bytes_until_nul(&value).map(CStr::to_bytes) {
        Ok(b"1") => Ok(true),
        Ok(b"0") => Ok(false),
        _ => Err(kernel::Fail::New(
            ort::ORT_INVALID_ARGUMENT,
            format!(
                "tensorcast-ort: the session config entry {} must be 0 or 1",
                key.to_string_lossy()
            ),
        )),
    }
}

/// onnxruntime's entry point for a custom-op library (`register_custom_ops_library` in
/// Python, `RegisterCustomOpsLibrary_V2` in C): adds Cast, CastLike and Expand to the
/// session options in the domain "ai.tensorcast", and also in "" (the ONNX domain) when
/// the session config entry `tensorcast_ort.override_onnx_domain` is "1" (set before the
/// library is registered). The domains are made once per load of the library and shared
/// (see `Domains`).
///
/// # Safety
/// `options` and `api_base` are the pointers onnxruntime passes.
#[no_mangle]
pub unsafe extern "C" fn RegisterCustomOps(
    options: *mut OrtSessionOptions,
    api_base: *const OrtApiBase,
) -> *mut OrtStatus {
    // SAFETY: `api_base` is onnxruntime's.
    let api = match unsafe { ort::api_of(api_base, ort::API_VERSION, "tensorcast-ort", "1.17") } {
        Ok(api) => api,
        Err(status) => return status,
    };
    API.store(api.table().cast_mut(), Ordering::Release);
    guarded(api, || {
        // SAFETY: `options` is the session options onnxruntime passes.
        let domains: &[&CStr] = if unsafe { config_flag(api, options, OVERRIDE_KEY, false) }? {
            &[ONNX_DOMAIN, OWN_DOMAIN]
        } else {
            &[OWN_DOMAIN]
        };
        for &name in domains {
            let domain = shared_domain(api, api_base, name)?;
            // SAFETY: the member's type is the header's; the domain lives until the library
            // is unloaded, after the last session options that hold it.
            unsafe {
                kernel::check(ort_fn!(api, AddCustomOpDomain)(options, domain))?;
            }
        }
        Ok(())
    })
}
