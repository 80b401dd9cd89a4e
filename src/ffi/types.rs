// SPDX-License-Identifier: MIT OR Apache-2.0
//! Layer 1 of the C ABI: the `repr(C)` types and typedefs the header declares, and the
//! constants that are not enumerations. Nothing here reads a pointer.

use crate::np;
use std::ffi::{c_char, c_void};

/// A status code: `TCAST_OK` (0) or one of the `TCAST_ERR_*` values.
pub type tcast_status = i32;

/// A dtype: an ONNX TensorProto.DataType code, or a TensorFlow quantized type (100-104).
pub type tcast_dtype = i32;

/// Bytes of `tcast_error.message`, its terminating NUL included.
pub const TCAST_ERROR_MESSAGE_BYTES: usize = 256;

/// Details of a failure, written into the caller's struct (never a thread-local).
#[repr(C)]
pub struct tcast_error {
    /// The status the call returned.
    pub status: i32,
    /// The element the error is about, or -1.
    pub index: i64,
    /// What was wrong, NUL-terminated UTF-8 (cut at a character boundary if long).
    pub message: [c_char; TCAST_ERROR_MESSAGE_BYTES],
}

/// The largest rank a tensor may have.
pub const TCAST_MAX_NDIM: i32 = 64;

/// One STRING element: `len` bytes at `data`, not NUL-terminated.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct tcast_string {
    /// The first byte; may be NULL only when `len` is 0.
    pub data: *const c_char,
    /// Bytes at `data`.
    pub len: u64,
}

/// A tensor as the caller describes it. Inputs are never written.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct tcast_tensor {
    /// The first element; may be NULL only if the tensor has no elements.
    pub data: *mut c_void,
    /// Bytes the caller guarantees at `data`; checked against the shape.
    pub data_bytes: u64,
    /// `ndim` extents, each >= 0; may be NULL when `ndim` is 0.
    pub shape: *const i64,
    /// Optional strides in elements, each >= 0; NULL means C-contiguous. Inputs only
    /// (an output's strides, if given, must describe the contiguous layout); not allowed
    /// for sub-byte dtypes.
    pub strides: *const i64,
    /// 0 ..= TCAST_MAX_NDIM; 0 is a scalar of one element.
    pub ndim: i32,
    /// The element type.
    pub dtype: tcast_dtype,
}

/// Options of a cast. Start from `tcast_cast_options_init(&opts, sizeof opts)` (the
/// defaults for the caller's size) and change fields.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct tcast_cast_options {
    /// sizeof(tcast_cast_options) as the caller compiled it; fields past it take their
    /// defaults; a size below this first layout's (24) is TCAST_ERR_INVALID_ARGUMENT.
    pub struct_size: u32,
    /// 1 (default) or 0: float8 targets only (FLOAT8E8M0 included), ignored for others.
    /// With 0, FLOAT8E8M0 gives NaN (0xFF) for 0, negatives, infinities and any value
    /// above 2^127 or below 2^-127, in every round mode.
    pub saturate: i32,
    /// TCAST_ROUND_*: FLOAT8E8M0 targets only.
    pub round_mode: i32,
    /// TCAST_FORMAT_*: numeric -> STRING.
    pub string_format: i32,
    /// TCAST_CASTING_*: below UNSAFE, refuse (TCAST_ERR_CASTING) the casts numpy would
    /// not allow at this level, as `tcast_can_cast` answers; UNSAFE (the default) checks
    /// nothing, so even pairs numpy has no cast for (STRING -> INT4) work.
    pub casting: i32,
    /// 0 or 1: the calling thread only (default); n > 1: up to n tasks, results
    /// bit-identical to one thread. Without an executor the library starts threads of
    /// its own, only when each has enough work to repay its start.
    pub threads: i32,
    /// NULL (default): the library's own threads when `threads` > 1. Otherwise the
    /// host's executor: the call splits its work into at most `threads` tasks, calls
    /// `parallel_for` once and starts no thread (docs/c-api.md section 9).
    pub executor: *const tcast_executor,
}

/// Options of tcast_quantize_linear and tcast_dequantize_linear: ONNX's attributes.
/// Start from `tcast_qdq_options_init(&opts, sizeof opts)` (the defaults for the caller's
/// size) and change fields; NULL options are the defaults.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct tcast_qdq_options {
    /// sizeof(tcast_qdq_options) as the caller compiled it; fields past it take their
    /// defaults; a size below this first layout's (32) is TCAST_ERR_INVALID_ARGUMENT.
    pub struct_size: u32,
    /// 1 (default) or 0: float8 element types only (QuantizeLinear): out-of-range
    /// values give the largest finite value, or infinity (E5M2) / NaN (the others).
    pub saturate: i32,
    /// The quantization axis of per-axis and blocked scales, in `[-rank, rank-1]`;
    /// ONNX's default 1; ignored for a per-tensor scale.
    pub axis: i64,
    /// 0 (default): the scale's shape says per-tensor (`[]` or `[1]`) or per-axis (`[D]`);
    /// > 0: blocked along `axis`, the scale of x's shape with ceil(D / block_size) there.
    pub block_size: i64,
    /// QuantizeLinear only. 0 (default): x / scale is not rounded before the one
    /// rounding to the element type. TCAST_DTYPE_FLOAT, _FLOAT16, _BFLOAT16 or _DOUBLE:
    /// ONNX's `precision`: x, scale and their quotient rounded to that type first (pass
    /// the scale's dtype for ONNX 23+'s default). DequantizeLinear needs 0.
    pub precision: i32,
    /// Reserved, 0.
    pub reserved: i32,
}

/// The size of the first layout of `tcast_qdq_options`.
pub(crate) const FIRST_QDQ_OPTIONS_SIZE: u32 = 32;

/// Options of tcast_mx_quantize, tcast_mx_dequantize and tcast_mx_repack. Start from
/// `tcast_mx_options_init(&opts, sizeof opts)` and change fields; NULL options are the
/// defaults.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct tcast_mx_options {
    /// sizeof(tcast_mx_options) as the caller compiled it; fields past it take their
    /// defaults; a size below this first layout's (32) is TCAST_ERR_INVALID_ARGUMENT.
    pub struct_size: u32,
    /// MX scale rule, a TCAST_MX_SCALE_* constant (docs/semantics-mx.md):
    /// TCAST_MX_SCALE_FLOOR (0, the default; OCP MX v1.0), _CEIL (1), _EVEN (2) or
    /// _RCEIL (3, cuBLAS). NVFP4 ignores it.
    pub scale_rule: i32,
    /// The axis the blocks run along, in `[-rank, rank-1]`; default -1 (the last).
    pub axis: i64,
    /// Values per block; 0 (default): 32 for MX, 16 for NVFP4.
    pub block_size: i64,
    /// Reserved, 0.
    pub reserved0: i32,
    /// Reserved, 0.
    pub reserved1: i32,
}

/// The size of the first layout of `tcast_mx_options`.
pub(crate) const FIRST_MX_OPTIONS_SIZE: u32 = 32;

/// The size of the first layout of `tcast_cast_options`: every later one starts with it.
pub(crate) const FIRST_OPTIONS_SIZE: u32 = 24;
/// The size of the layout that added `executor` (32 on 64-bit targets).
pub(crate) const EXECUTOR_OPTIONS_SIZE: u32 = (core::mem::offset_of!(tcast_cast_options, executor)
    + core::mem::size_of::<*const tcast_executor>())
    as u32;

/// One task of a call: the executor calls it with the `task_ctx` it was given and each
/// task index in `[0, n_tasks)`.
pub type tcast_task_fn = unsafe extern "C" fn(task_ctx: *mut c_void, task_index: u64);

/// A host's thread pool (docs/c-api.md section 9).
#[repr(C)]
#[derive(Copy, Clone)]
pub struct tcast_executor {
    /// Passed back to `parallel_for` as is.
    pub ctx: *mut c_void,
    /// Must run `task(task_ctx, i)` exactly once for every i in [0, n_tasks), on any
    /// threads in any order, and return only when all have finished. Tasks do not
    /// block on each other: running them one after another on the calling thread is a
    /// valid executor.
    pub parallel_for: Option<
        unsafe extern "C" fn(
            ctx: *mut c_void,
            n_tasks: u64,
            task: tcast_task_fn,
            task_ctx: *mut c_void,
        ),
    >,
}

/// Caller-owned memory that formatted text is appended to.
#[repr(C)]
pub struct tcast_string_arena {
    /// The arena's first byte; may be NULL only when `capacity` is 0.
    pub data: *mut c_char,
    /// Bytes at `data`.
    pub capacity: u64,
    /// Bytes already in use; text is appended here and `used` advances on success.
    pub used: u64,
}

/// An opaque parsed numpy dtype (from `tcast_np_dtype_parse`, freed with
/// `tcast_np_dtype_free`). Immutable: one handle may be used from many threads.
pub struct tcast_np_dtype {
    pub(crate) parsed: np::Parsed,
}

// The core's string view is what a tcast_string is: same size, same field places.
const _: () = {
    use crate::string_view::StringView;
    use core::mem::{align_of, size_of};
    assert!(size_of::<StringView<'static>>() == size_of::<tcast_string>());
    assert!(align_of::<StringView<'static>>() == align_of::<tcast_string>());
};
