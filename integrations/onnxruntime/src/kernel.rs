// SPDX-License-Identifier: MIT OR Apache-2.0
//! The kernels: onnxruntime's tensors described as tensorcast tensors, the work handed to
//! tensorcast's C ABI, onnxruntime's intra-op threads as its executor, and its errors
//! turned into `OrtStatus`es.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::mem::MaybeUninit;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicBool, Ordering};

use tensorcast::ffi::{
    tcast_cast, tcast_cast_options, tcast_cast_options_default, tcast_cast_plan,
    tcast_cast_plan_create, tcast_cast_plan_free, tcast_cast_plan_run, tcast_cast_to_strings,
    tcast_dequantize_linear, tcast_dtype_bits, tcast_error, tcast_executor, tcast_expand_ex,
    tcast_expand_shape, tcast_qdq_options, tcast_qdq_options_init, tcast_quantize_linear,
    tcast_status_name, tcast_string, tcast_string_arena, tcast_string_max_bytes, tcast_task_fn,
    tcast_tensor, tcast_tensor_bytes, TCAST_MAX_NDIM,
};

use crate::ort::{self, ort_fn, Api, OrtKernelContext, OrtKernelInfo, OrtStatus, OrtValue};
use crate::Op;

/// tensorcast's STRING dtype (the same number in ONNX and in onnxruntime).
const STRING: c_int = ort::TYPE_STRING;

// tensorcast's status and round-mode numbers (include/tensorcast.h; fixed by its ABI).
const TCAST_OK: c_int = 0;
const TCAST_ERR_INVALID_DTYPE: c_int = 2;
const TCAST_ERR_UNSUPPORTED: c_int = 3;
const TCAST_ERR_INVALID_SHAPE: c_int = 4;
const TCAST_ERR_PARSE: c_int = 7;
const TCAST_ERR_INVALID_ARGUMENT: c_int = 8;
const TCAST_ROUND_UP: i32 = 0;
const TCAST_ROUND_DOWN: i32 = 1;
const TCAST_ROUND_NEAREST: i32 = 2;

/// The most tasks one call is split into. tensorcast makes fewer when the tensor is small
/// (each task must be worth its hand-over); onnxruntime spreads them over its intra-op
/// threads, however many the session has.
const TASKS: i32 = 16;

/// Why a callback failed: a status onnxruntime returned, or one of ours to create.
pub enum Fail {
    Ort(*mut OrtStatus),
    New(c_int, String),
}

impl Fail {
    pub fn into_status(self, api: Api) -> *mut OrtStatus {
        match self {
            Fail::Ort(status) => status,
            Fail::New(code, message) => api.status(code, &message),
        }
    }
}

/// An onnxruntime call's status as a `Result`.
pub fn check(status: *mut OrtStatus) -> Result<(), Fail> {
    if status.is_null() {
        Ok(())
    } else {
        Err(Fail::Ort(status))
    }
}

/// A tensorcast status and error record as a `Result`, with its status name and message
/// (which names the element at fault, e.g. `input element 5: cannot parse "1x" as FLOAT`).
fn tcast_check(status: c_int, err: &tcast_error) -> Result<(), Fail> {
    if status == TCAST_OK {
        return Ok(());
    }
    // SAFETY: `err` is the record the failed call wrote.
    unsafe { failed(status, err) }
}

/// [`tcast_check`] of an error record tensorcast wrote but nobody zeroed (the hot
/// path's, whose 264 bytes of zeros cost more than the call's checks): only what a failed
/// call writes is read, the message up to its NUL, through raw pointers.
///
/// # Safety
/// `err` is the record tensorcast was passed by the call that returned `status`.
#[inline(always)]
unsafe fn tcast_check_raw(status: c_int, err: *const tcast_error) -> Result<(), Fail> {
    if status == TCAST_OK {
        return Ok(());
    }
    // SAFETY: forwarded from this function's contract.
    unsafe { failed(status, err) }
}

/// The `Fail` of a call that returned `status` (not TCAST_OK) and wrote `err`.
///
/// # Safety
/// `err` is the record that call was passed.
#[cold]
unsafe fn failed(status: c_int, err: *const tcast_error) -> Result<(), Fail> {
    // SAFETY: tcast_status_name returns a static NUL-terminated string for any status, and
    // tensorcast writes `message` NUL-terminated whenever it fails; nothing past the NUL
    // is read, and no reference to the record is made.
    let (name, message) = unsafe {
        (
            CStr::from_ptr(tcast_status_name(status)).to_string_lossy(),
            CStr::from_ptr(std::ptr::addr_of!((*err).message).cast::<c_char>()).to_string_lossy(),
        )
    };
    let text = format!("tensorcast: {name}: {message}");
    let code = match status {
        TCAST_ERR_PARSE | TCAST_ERR_INVALID_ARGUMENT | TCAST_ERR_INVALID_SHAPE => {
            ort::ORT_INVALID_ARGUMENT
        }
        TCAST_ERR_UNSUPPORTED | TCAST_ERR_INVALID_DTYPE => ort::ORT_NOT_IMPLEMENTED,
        _ => ort::ORT_FAIL,
    };
    Err(Fail::New(code, text))
}

/// The byte counts of an input of `in_bits` and an output of `out_bits` per element (0:
/// not known) of `shape`, and its rank, when both sizes are known whole bytes and the
/// extents valid.
#[inline(always)]
fn known_sizes(in_bits: u32, out_bits: u32, shape: &[i64]) -> Option<(u64, u64, i32)> {
    if in_bits == 0 || out_bits == 0 || in_bits % 8 != 0 || out_bits % 8 != 0 {
        return None;
    }
    let count = shape.iter().try_fold(1u64, |n, &d| {
        u64::try_from(d).ok().and_then(|d| n.checked_mul(d))
    })?;
    Some((
        count.checked_mul(u64::from(in_bits / 8))?,
        count.checked_mul(u64::from(out_bits / 8))?,
        i32::try_from(shape.len()).ok()?,
    ))
}

fn new_error() -> tcast_error {
    tcast_error {
        status: TCAST_OK,
        index: -1,
        message: [0; 256],
    }
}

/// onnxruntime's element type number as tensorcast's (ONNX's): they differ after
/// FLOAT4E2M1, where the C API put UINT2 and INT2 before FLOAT8E8M0.
fn dtype_from_ort(ort_type: c_int) -> c_int {
    match ort_type {
        ort::TYPE_UINT2 => 25,
        ort::TYPE_INT2 => 26,
        ort::TYPE_FLOAT8E8M0 => 24,
        other => other,
    }
}

/// The inverse of `dtype_from_ort`.
fn dtype_to_ort(dtype: c_int) -> c_int {
    match dtype {
        25 => ort::TYPE_UINT2,
        26 => ort::TYPE_INT2,
        24 => ort::TYPE_FLOAT8E8M0,
        other => other,
    }
}

/// The `OrtApi` version from which a table has `GetTensorElementTypeAndShapeDataReference`
/// (onnxruntime 1.24): a tensor's element type and shape in one call, without a copy.
const SHAPE_REFERENCE_VERSION: u32 = 24;

/// One node's kernel: what can be decided when the session is made (the attributes, the
/// options handed to tensorcast, the output's element type), so that a call asks
/// onnxruntime only for the tensors and the input's shape.
pub struct Kernel {
    pub api: Api,
    op: Op,
    saturate: i32,
    round_mode: i32,
    /// QuantizeLinear and DequantizeLinear: `axis`, `block_size` and `precision`
    /// (QuantizeLinear only; 0 when absent), with `saturate` above.
    qdq: tcast_qdq_options,
    /// Cast and CastLike: the input's and the output's element types (tensorcast's
    /// numbers) with their sizes in bits, when the kernel info told them; otherwise they
    /// are read from the tensors at each call (and the sizes asked of tensorcast).
    /// Expand: its element type in `in_dtype`, the same way.
    in_dtype: Option<Element>,
    out_dtype: Option<Element>,
    /// tensorcast's options for Cast, CastLike and Expand, all but the executor (which
    /// lives on the stack of each call).
    options: tcast_cast_options,
    /// Whether `api`'s table has `GetTensorElementTypeAndShapeDataReference`.
    shape_by_reference: bool,
    /// Cast and CastLike of numeric types both known when the session is made: the
    /// cast prepared once (tcast_cast_plan_create), so that a call pays only for its
    /// tensors.
    plan: Option<CastPlan>,
}

/// A tensorcast cast plan, freed with the kernel.
struct CastPlan(*mut tcast_cast_plan);

// SAFETY: a plan is immutable once made and may be used from many threads at once
// (include/tensorcast.h, tcast_cast_plan).
unsafe impl Send for CastPlan {}
// SAFETY: as above.
unsafe impl Sync for CastPlan {}

impl Drop for CastPlan {
    fn drop(&mut self) {
        tcast_cast_plan_free(self.0);
    }
}

impl Kernel {
    /// # Safety
    /// `info` is the kernel info onnxruntime passes to CreateKernelV2; `api` is a table of
    /// version `api_version` or later.
    pub unsafe fn new(
        api: Api,
        api_version: u32,
        op: Op,
        info: *const OrtKernelInfo,
    ) -> Result<Kernel, Fail> {
        let mut kernel = Kernel {
            api,
            op,
            saturate: 1,
            round_mode: TCAST_ROUND_UP,
            qdq: qdq_defaults(),
            in_dtype: None,
            out_dtype: None,
            options: tcast_cast_options_default(),
            shape_by_reference: api_version >= SHAPE_REFERENCE_VERSION,
            plan: None,
        };
        kernel.options.threads = TASKS;
        if op == Op::Expand {
            // SAFETY: `info` is valid for this call.
            kernel.in_dtype = unsafe { element(api, info, Side::Input) };
            return Ok(kernel);
        }
        if matches!(op, Op::QuantizeLinear | Op::DequantizeLinear) {
            // SAFETY: `info` is valid for this call.
            unsafe { kernel.read_qdq_attributes(info) }?;
            return Ok(kernel);
        }
        // SAFETY: `info` is valid for this call.
        kernel.in_dtype = unsafe { element(api, info, Side::Input) };
        // SAFETY: as above.
        kernel.out_dtype = unsafe { element(api, info, Side::Output) };
        // SAFETY: as above.
        if let Some(saturate) = unsafe { attribute_int(api, info, c"saturate") } {
            kernel.saturate = i32::from(saturate != 0);
        }
        // SAFETY: as above.
        if let Some(mode) = unsafe { attribute_string(api, info, c"round_mode") } {
            kernel.round_mode = match mode.as_str() {
                "up" => TCAST_ROUND_UP,
                "down" => TCAST_ROUND_DOWN,
                "nearest" => TCAST_ROUND_NEAREST,
                other => {
                    return Err(Fail::New(
                        ort::ORT_INVALID_ARGUMENT,
                        format!(
                            "tensorcast: round_mode must be up, down or nearest, not {other:?}"
                        ),
                    ))
                }
            };
        }
        kernel.options.saturate = kernel.saturate;
        kernel.options.round_mode = kernel.round_mode;
        if let (Some(from), Some(to)) = (kernel.in_dtype, kernel.out_dtype) {
            if from.dtype != STRING && to.dtype != STRING {
                // A pair tensorcast refuses makes no plan: the call reports the error.
                let mut plan = null_mut();
                let mut err = new_error();
                if tcast_cast_plan_create(
                    from.dtype,
                    to.dtype,
                    &kernel.options,
                    &mut plan,
                    &mut err,
                ) == TCAST_OK
                {
                    kernel.plan = Some(CastPlan(plan));
                }
            }
        }
        Ok(kernel)
    }

    /// QuantizeLinear's and DequantizeLinear's attributes: `axis` (default 1),
    /// `block_size` (0), `saturate` (1) and QuantizeLinear's `precision` (0); ONNX's
    /// `output_dtype` is the output's element type, which onnxruntime inferred. A negative
    /// `block_size` is refused here, when the session is made; what depends on the shapes
    /// (`axis` in range, the scale's shape for the granularity) when the node runs.
    ///
    /// # Safety
    /// `info` is the kernel info onnxruntime passes to CreateKernelV2.
    unsafe fn read_qdq_attributes(&mut self, info: *const OrtKernelInfo) -> Result<(), Fail> {
        let name = self.op.name().to_string_lossy();
        let api = self.api;
        // SAFETY: `info` is valid for this call.
        let int = |attr: &CStr| unsafe { attribute_int(api, info, attr) };
        if let Some(axis) = int(c"axis") {
            self.qdq.axis = axis;
        }
        if let Some(block_size) = int(c"block_size") {
            if block_size < 0 {
                return Err(Fail::New(
                    ort::ORT_INVALID_ARGUMENT,
                    format!(
                        "tensorcast: {name}: block_size is {block_size}; it must be 0 \
                         (per-tensor or per-axis) or positive"
                    ),
                ));
            }
            self.qdq.block_size = block_size;
        }
        if let Some(saturate) = int(c"saturate") {
            self.qdq.saturate = i32::from(saturate != 0);
        }
        if self.op == Op::QuantizeLinear {
            if let Some(precision) = int(c"precision") {
                self.qdq.precision = i32::try_from(precision).unwrap_or(-1);
            }
        }
        Ok(())
    }

    /// # Safety
    /// `context` is the kernel context onnxruntime passes to KernelComputeV2.
    pub unsafe fn compute(&self, context: *mut OrtKernelContext) -> Result<(), Fail> {
        let pool = Pool {
            api: self.api,
            context,
        };
        let executor = tcast_executor {
            ctx: (&pool as *const Pool).cast_mut().cast(),
            parallel_for: Some(run_tasks),
        };
        let mut options = self.options;
        options.executor = &executor;
        let io = Io { api: self.api };
        // SAFETY: `context` is valid for this call; `options` and what it points to outlive
        // the tensorcast calls made below.
        unsafe {
            match self.op {
                Op::Cast | Op::CastLike if self.shape_by_reference => io.cast_by_reference(
                    context,
                    self.in_dtype,
                    self.out_dtype,
                    &options,
                    self.plan.as_ref().map(|p| (p.0.cast_const(), &executor)),
                ),
                Op::Cast | Op::CastLike => io.cast(context, &options),
                Op::Expand if self.shape_by_reference => {
                    io.expand_by_reference(context, self.in_dtype, &options)
                }
                Op::Expand => io.expand(context, &options),
                Op::QuantizeLinear | Op::DequantizeLinear => {
                    io.quantize_linear(context, self.op, &self.qdq)
                }
            }
        }
    }
}

/// The onnxruntime calls the kernels make.
struct Io {
    api: Api,
}

/// An onnxruntime tensor: its element type (tensorcast's number) and shape.
struct Info {
    dtype: c_int,
    shape: Vec<i64>,
}

impl Info {
    fn count(&self) -> usize {
        self.shape.iter().map(|&d| d.max(0) as usize).product()
    }
}

/// Bytes after a buffer of texts that no text reaches, so that a text of up to this
/// many bytes is copied in one fixed-size move.
const COPY_SLACK: usize = 16;

/// A buffer kept above this many bytes is freed after the call that grew it: a thread
/// keeps a few MiB at most (a block's views and arena, and the texts and addresses of
/// up to about 128 Ki output strings).
const KEEP_BYTES: usize = 1 << 20;

/// Elements per block of a numeric <-> STRING cast: its views and arena take this many
/// elements' room, whatever the tensor's size (a multiple of 8, so that a block of a
/// sub-byte type starts on a byte).
const STRING_BLOCK: usize = 1 << 16;

/// The buffers the STRING paths use, kept per thread from call to call: a warm call
/// allocates nothing and touches no fresh page.
#[derive(Default)]
struct Strings {
    /// The texts: a STRING input's bytes, or tensorcast's arena of formatted numbers;
    /// `COPY_SLACK` spare bytes after the part in use.
    text: Vec<u8>,
    /// Where each input text starts in `text`.
    offsets: Vec<usize>,
    /// A view per input element (STRING input) or output element (formatted numbers).
    views: Vec<tcast_string>,
    /// A view per output element of a STRING Expand.
    out_views: Vec<tcast_string>,
    /// The output's texts for `FillStringTensor`.
    terminated: Terminated,
}

impl Strings {
    /// Runs `f` with this thread's buffers (fresh ones if they are in use), then frees
    /// those grown past `KEEP_BYTES`.
    fn with<R>(f: impl FnOnce(&mut Strings) -> R) -> R {
        thread_local! {
            static STRINGS: std::cell::RefCell<Strings> = std::cell::RefCell::default();
        }
        STRINGS.with(|cell| match cell.try_borrow_mut() {
            Ok(mut strings) => {
                let result = f(&mut strings);
                strings.trim();
                result
            }
            Err(_) => f(&mut Strings::default()),
        })
    }

    fn trim(&mut self) {
        keep(&mut self.text);
        keep(&mut self.offsets);
        keep(&mut self.views);
        keep(&mut self.out_views);
        keep(&mut self.terminated.text);
        keep(&mut self.terminated.starts);
        keep(&mut self.terminated.pointers);
    }

    /// `views` set to the texts of elements `range` of what `read_strings` read
    /// (`total` bytes).
    fn views_of(&mut self, range: std::ops::Range<usize>, total: usize) {
        let text = &self.text;
        let ends = self.offsets[range.start + 1..]
            .iter()
            .copied()
            .chain([total]);
        self.views.clear();
        self.views.extend(
            self.offsets[range]
                .iter()
                .zip(ends)
                .map(|(&start, end)| tcast_string {
                    data: text[start..].as_ptr().cast(),
                    len: (end - start) as u64,
                }),
        );
    }
}

/// Frees `v` if it holds more than `KEEP_BYTES`.
fn keep<T>(v: &mut Vec<T>) {
    if v.capacity() * size_of::<T>() > KEEP_BYTES {
        *v = Vec::new();
    }
}

/// Texts each followed by a NUL, as `FillStringTensor` takes them.
#[derive(Default)]
struct Terminated {
    /// The texts, `COPY_SLACK` spare bytes after the part in use.
    text: Vec<u8>,
    /// The bytes in use.
    end: usize,
    /// Where each text starts.
    starts: Vec<usize>,
    /// Their addresses, made last (`text` may move while it grows).
    pointers: Vec<*const c_char>,
}

impl Terminated {
    fn clear(&mut self) {
        self.end = 0;
        self.starts.clear();
    }

    /// Appends the text of each view, which lie in `base` as `span` requires.
    fn append(&mut self, views: &[tcast_string], base: &[u8]) -> Result<(), Fail> {
        let need: usize = views.iter().map(|v| v.len as usize + 1).sum();
        grow(&mut self.text, self.end + need + COPY_SLACK);
        let (text, mut end) = (&mut self.text, self.end);
        for view in views {
            let (at, len) = span(view, base)?;
            if len == 0 {
            } else if len <= COPY_SLACK {
                // A fixed-size copy (the slack after both texts holds its tail), then
                // the NUL that ends this text where the next one starts.
                text[end..end + COPY_SLACK].copy_from_slice(&base[at..at + COPY_SLACK]);
            } else {
                text[end..end + len].copy_from_slice(&base[at..at + len]);
            }
            text[end + len] = 0;
            self.starts.push(end);
            end += len + 1;
        }
        self.end = end;
        Ok(())
    }

    /// The address of each text.
    fn pointers(&mut self) -> &[*const c_char] {
        let text = &self.text;
        self.pointers.clear();
        self.pointers.extend(
            self.starts
                .iter()
                .map(|&at| text[at..].as_ptr().cast::<c_char>()),
        );
        &self.pointers
    }
}

/// Where a view's text lies in `base` (its offset and length), checked to end
/// `COPY_SLACK` bytes or more before `base` does; (0, 0) for an empty view.
fn span(view: &tcast_string, base: &[u8]) -> Result<(usize, usize), Fail> {
    let len = view.len as usize;
    if len == 0 {
        return Ok((0, 0));
    }
    let at = (view.data as usize).wrapping_sub(base.as_ptr() as usize);
    match at.checked_add(len) {
        Some(end) if end.saturating_add(COPY_SLACK) <= base.len() => Ok((at, len)),
        _ => Err(Fail::New(
            TCAST_ERR_INVALID_ARGUMENT,
            "tensorcast-ort: a STRING view outside its buffer".into(),
        )),
    }
}

/// A view of no text.
const EMPTY_VIEW: tcast_string = tcast_string {
    data: null(),
    len: 0,
};

/// The address of element `first` of a tensor of `dtype` at `data` (a byte boundary:
/// `first` is a multiple of 8).
fn element_at(data: *mut c_void, dtype: c_int, first: usize) -> *mut c_void {
    let bits = tcast_dtype_bits(dtype) as usize;
    data.cast::<u8>().wrapping_add(first * bits / 8).cast()
}

/// Makes `buffer` at least `len` bytes long (zeroing only what it adds).
fn grow(buffer: &mut Vec<u8>, len: usize) {
    if buffer.len() < len {
        buffer.resize(len, 0);
    }
}

impl Io {
    unsafe fn input(
        &self,
        context: *mut OrtKernelContext,
        index: usize,
    ) -> Result<*const OrtValue, Fail> {
        let mut value = null();
        // SAFETY: the member's type is the header's; `context` is valid.
        check(unsafe { ort_fn!(self.api, KernelContext_GetInput)(context, index, &mut value) })?;
        Ok(value)
    }

    unsafe fn output(
        &self,
        context: *mut OrtKernelContext,
        shape: &[i64],
    ) -> Result<*mut OrtValue, Fail> {
        let mut value = null_mut();
        // SAFETY: the member's type is the header's; `shape` holds `shape.len()` extents.
        check(unsafe {
            ort_fn!(self.api, KernelContext_GetOutput)(
                context,
                0,
                shape.as_ptr(),
                shape.len(),
                &mut value,
            )
        })?;
        Ok(value)
    }

    unsafe fn info(&self, value: *const OrtValue) -> Result<Info, Fail> {
        let api = self.api;
        let mut handle = null_mut();
        // SAFETY: the members' types are the header's; `value` is a tensor; the info handle is
        // released below whatever happens.
        unsafe {
            check(ort_fn!(api, GetTensorTypeAndShape)(value, &mut handle))?;
            let read = || -> Result<Info, Fail> {
                let mut ort_type = 0;
                check(ort_fn!(api, GetTensorElementType)(handle, &mut ort_type))?;
                let mut ndim = 0;
                check(ort_fn!(api, GetDimensionsCount)(handle, &mut ndim))?;
                let mut shape = vec![0i64; ndim];
                check(ort_fn!(api, GetDimensions)(
                    handle,
                    shape.as_mut_ptr(),
                    ndim,
                ))?;
                Ok(Info {
                    dtype: dtype_from_ort(ort_type),
                    shape,
                })
            };
            let result = read();
            ort_fn!(api, ReleaseTensorTypeAndShapeInfo)(handle);
            result
        }
    }

    unsafe fn data(&self, value: *const OrtValue) -> Result<*mut c_void, Fail> {
        let mut data = null_mut();
        // SAFETY: the member's type is the header's; `value` is a non-string tensor.
        check(unsafe { ort_fn!(self.api, GetTensorMutableData)(value.cast_mut(), &mut data) })?;
        Ok(data)
    }

    /// A tensor's element type (onnxruntime's number) and shape, the shape being
    /// onnxruntime's own array: one call, nothing allocated or copied.
    ///
    /// # Safety
    /// `value` is a tensor; the API table has `GetTensorElementTypeAndShapeDataReference`.
    /// The shape is valid while `value` is and its shape is not changed, which holds for
    /// the inputs and outputs of a kernel call during it.
    unsafe fn type_and_shape<'a>(
        &self,
        value: *const OrtValue,
    ) -> Result<(c_int, &'a [i64]), Fail> {
        let mut ort_type = 0;
        let mut shape = null();
        let mut ndim = 0;
        // SAFETY: the member's type is the header's; `value` is a tensor (the contract).
        check(unsafe {
            ort_fn!(self.api, GetTensorElementTypeAndShapeDataReference)(
                value,
                &mut ort_type,
                &mut shape,
                &mut ndim,
            )
        })?;
        let shape = if shape.is_null() || ndim == 0 {
            &[][..]
        } else {
            // SAFETY: onnxruntime's array of `ndim` extents, alive as the contract says.
            unsafe { std::slice::from_raw_parts(shape, ndim) }
        };
        Ok((ort_type, shape))
    }

    /// A tensorcast tensor over `data` (views for STRING).
    fn tensor(data: *mut c_void, info: &Info) -> Result<tcast_tensor, Fail> {
        Self::tensor_of(data, info.dtype, &info.shape)
    }

    /// A tensorcast tensor of `dtype` and `shape` over `data`, its byte count worked out
    /// here when `bits` (the element's size; 0 when not known) is a whole number of bytes
    /// and the shape's extents are valid, and asked of tensorcast otherwise (which then
    /// reports what is wrong).
    fn tensor_sized(
        data: *mut c_void,
        dtype: c_int,
        bits: u32,
        shape: &[i64],
    ) -> Result<tcast_tensor, Fail> {
        if bits != 0 && bits % 8 == 0 {
            let bytes = shape.iter().try_fold(u64::from(bits / 8), |n, &d| {
                u64::try_from(d).ok().and_then(|d| n.checked_mul(d))
            });
            if let (Some(bytes), Ok(ndim)) = (bytes, i32::try_from(shape.len())) {
                return Ok(tcast_tensor {
                    data,
                    data_bytes: bytes,
                    shape: shape.as_ptr(),
                    strides: null(),
                    ndim,
                    dtype,
                });
            }
        }
        Self::tensor_of(data, dtype, shape)
    }

    /// A tensorcast tensor of `dtype` and `shape` over `data`.
    fn tensor_of(data: *mut c_void, dtype: c_int, shape: &[i64]) -> Result<tcast_tensor, Fail> {
        let ndim = i32::try_from(shape.len()).unwrap_or(i32::MAX);
        let mut bytes = 0;
        let mut err = new_error();
        tcast_check(
            tcast_tensor_bytes(dtype, shape.as_ptr(), ndim, &mut bytes, &mut err),
            &err,
        )?;
        Ok(tcast_tensor {
            data,
            data_bytes: bytes,
            shape: shape.as_ptr(),
            strides: null(),
            ndim,
            dtype,
        })
    }

    /// A STRING tensor's text, copied out of onnxruntime into `strings.text` (followed by
    /// `COPY_SLACK` spare bytes), where each element's text starts into `strings.offsets`
    /// and, when `with_views`, a view per element into `strings.views`. Returns the
    /// text's length.
    unsafe fn read_strings(
        &self,
        value: *const OrtValue,
        count: usize,
        strings: &mut Strings,
        with_views: bool,
    ) -> Result<usize, Fail> {
        strings.views.clear();
        strings.offsets.clear();
        if count == 0 {
            return Ok(0);
        }
        let mut total = 0;
        strings.offsets.resize(count, 0);
        // SAFETY: the members' types are the header's; `value` is a STRING tensor of `count`
        // elements; the buffers have at least the sizes passed.
        unsafe {
            check(ort_fn!(self.api, GetStringTensorDataLength)(
                value, &mut total,
            ))?;
            grow(&mut strings.text, total + COPY_SLACK);
            check(ort_fn!(self.api, GetStringTensorContent)(
                value,
                strings.text.as_mut_ptr().cast(),
                total,
                strings.offsets.as_mut_ptr(),
                count,
            ))?;
        }
        if with_views {
            strings.views_of(0..count, total);
        }
        Ok(total)
    }

    /// Writes each view's bytes into the STRING tensor `value`, embedded NULs included.
    /// Every view lies in `base`, whose last `COPY_SLACK` bytes no view reaches. In one
    /// call (`FillStringTensor`, which takes NUL-terminated strings) when no view holds a
    /// NUL (`may_hold_nul` false: tensorcast's formatted numbers, which never do), else
    /// one call per element.
    unsafe fn write_strings(
        &self,
        value: *mut OrtValue,
        views: &[tcast_string],
        (base, may_hold_nul): (&[u8], bool),
        out: &mut Terminated,
    ) -> Result<(), Fail> {
        let holds_nul = may_hold_nul
            && views
                .iter()
                .any(|v| span(v, base).is_ok_and(|(at, len)| base[at..at + len].contains(&0)));
        if !holds_nul {
            out.clear();
            out.append(views, base)?;
            // SAFETY: forwarded.
            return unsafe { self.fill_strings(value, out) };
        }
        let resize = ort_fn!(self.api, GetResizedStringTensorElementBuffer);
        for (i, view) in views.iter().enumerate() {
            let (at, len) = span(view, base)?;
            let mut buffer: *mut c_char = null_mut();
            // SAFETY: `value` is a STRING tensor of `views.len()` elements; the buffer
            // onnxruntime returns holds `len` bytes; `base` holds the view's `len` bytes.
            unsafe {
                check(resize(value, i, len, &mut buffer))?;
                if len > 0 {
                    std::ptr::copy_nonoverlapping(base[at..].as_ptr().cast(), buffer, len);
                }
            }
        }
        Ok(())
    }

    /// Fills the STRING tensor `value`, of as many elements as `texts` holds, with them in
    /// one `FillStringTensor` call.
    unsafe fn fill_strings(
        &self,
        value: *mut OrtValue,
        texts: &mut Terminated,
    ) -> Result<(), Fail> {
        if texts.starts.is_empty() {
            return Ok(());
        }
        let pointers = texts.pointers();
        // SAFETY: the member's type is the header's; `value` is a STRING tensor of
        // `pointers.len()` elements and `pointers` holds as many NUL-terminated strings,
        // which onnxruntime copies.
        check(unsafe {
            ort_fn!(self.api, FillStringTensor)(value, pointers.as_ptr(), pointers.len())
        })
    }

    /// Cast and CastLike on a table of `SHAPE_REFERENCE_VERSION` or later: the input's type
    /// and shape read in one call without a copy, the output's type known from the kernel
    /// info (`out_dtype`) or read the same way. STRING on either side goes to `cast`.
    unsafe fn cast_by_reference(
        &self,
        context: *mut OrtKernelContext,
        in_known: Option<Element>,
        out_dtype: Option<Element>,
        options: &tcast_cast_options,
        plan: Option<(*const tcast_cast_plan, &tcast_executor)>,
    ) -> Result<(), Fail> {
        // SAFETY: `context` is valid; the table has the call `type_and_shape` makes (the
        // caller checked its version); the input and output and their shapes stay alive
        // and unchanged during this call; every buffer handed to tensorcast is described
        // by its tensor and outlives the call.
        unsafe {
            let input = self.input(context, 0)?;
            let (in_type, shape) = self.type_and_shape(input)?;
            let in_dtype = dtype_from_ort(in_type);
            if in_dtype == STRING || out_dtype.is_some_and(|e| e.dtype == STRING) {
                return self.cast(context, options);
            }
            // The sizes known when the session was made, for the types the tensors have.
            let in_bits = in_known
                .filter(|e| e.dtype == in_dtype)
                .map_or(0, |e| e.bits);
            let output = self.output(context, shape)?;
            let out = match out_dtype {
                Some(element) => element,
                None => {
                    let dtype = dtype_from_ort(self.type_and_shape(output)?.0);
                    if dtype == STRING {
                        return self.cast(context, options);
                    }
                    Element { dtype, bits: 0 }
                }
            };
            let (in_data, out_data) = (self.data(input)?, self.data(output)?);
            if let (Some((plan, executor)), Some((in_bytes, out_bytes, ndim))) =
                (plan, known_sizes(in_bits, out.bits, shape))
            {
                // The plan is of the types the session was made with: the tensors'. Both
                // descriptors are built where tensorcast reads them, field by field: a
                // descriptor made elsewhere and moved here was copied with loads wider
                // than its fields' stores, which stalled twice a call (store forwarding).
                let src = tcast_tensor {
                    data: in_data,
                    data_bytes: in_bytes,
                    shape: shape.as_ptr(),
                    strides: null(),
                    ndim,
                    dtype: in_dtype,
                };
                let dst = tcast_tensor {
                    data: out_data,
                    data_bytes: out_bytes,
                    shape: shape.as_ptr(),
                    strides: null(),
                    ndim,
                    dtype: out.dtype,
                };
                let mut err = MaybeUninit::<tcast_error>::uninit();
                let status = tcast_cast_plan_run(plan, &src, &dst, executor, err.as_mut_ptr());
                return tcast_check_raw(status, err.as_ptr());
            }
            let src = Self::tensor_sized(in_data, in_dtype, in_bits, shape)?;
            let dst = Self::tensor_sized(out_data, out.dtype, out.bits, shape)?;
            let mut err = new_error();
            tcast_check(tcast_cast(&src, &dst, options, &mut err), &err)
        }
    }

    /// Cast and CastLike: the input to the output's element type.
    unsafe fn cast(
        &self,
        context: *mut OrtKernelContext,
        options: &tcast_cast_options,
    ) -> Result<(), Fail> {
        let mut err = new_error();
        // SAFETY: `context` is valid; the values onnxruntime returns are tensors of the
        // shapes and types read from them; every buffer handed to tensorcast is described
        // by its tensor and outlives the call.
        unsafe {
            let input = self.input(context, 0)?;
            let in_info = self.info(input)?;
            let output = self.output(context, &in_info.shape)?;
            let out_info = self.info(output)?;
            let count = in_info.count();
            match (in_info.dtype == STRING, out_info.dtype == STRING) {
                (false, false) => {
                    let src = Self::tensor(self.data(input)?, &in_info)?;
                    let dst = Self::tensor(self.data(output)?, &out_info)?;
                    tcast_check(tcast_cast(&src, &dst, options, &mut err), &err)
                }
                (true, true) => Strings::with(|s| {
                    self.read_strings(input, count, s, true)?;
                    self.write_strings(output, &s.views, (&s.text, true), &mut s.terminated)
                }),
                (true, false) => Strings::with(|s| {
                    let total = self.read_strings(input, count, s, false)?;
                    let data = self.data(output)?;
                    // A block at a time, so that the views take a block's room; should a
                    // block after the first fail, the whole tensor is cast again, so that
                    // the error names the element by its index in the tensor.
                    for first in (0..count).step_by(STRING_BLOCK) {
                        let m = STRING_BLOCK.min(count - first);
                        s.views_of(first..first + m, total);
                        let shape = [m as i64];
                        let src = Self::tensor_of(s.views.as_mut_ptr().cast(), STRING, &shape)?;
                        let dst = Self::tensor_of(
                            element_at(data, out_info.dtype, first),
                            out_info.dtype,
                            &shape,
                        )?;
                        let status = tcast_cast(&src, &dst, options, &mut err);
                        if status != TCAST_OK && first > 0 {
                            s.views_of(0..count, total);
                            let src = Self::tensor(s.views.as_mut_ptr().cast(), &in_info)?;
                            let dst = Self::tensor(data, &out_info)?;
                            return tcast_check(tcast_cast(&src, &dst, options, &mut err), &err);
                        }
                        tcast_check(status, &err)?;
                    }
                    Ok(())
                }),
                (false, true) => Strings::with(|s| {
                    let data = self.data(input)?;
                    let per_element = tcast_string_max_bytes(in_info.dtype) as usize;
                    let block = STRING_BLOCK.min(count);
                    grow(&mut s.text, block * per_element + COPY_SLACK);
                    s.views.clear();
                    s.views.resize(block, EMPTY_VIEW);
                    s.terminated.clear();
                    // A block at a time: the arena and the views take a block's room
                    // (formatting a number fails on no value, so no error names an index).
                    for first in (0..count).step_by(STRING_BLOCK) {
                        let m = block.min(count - first);
                        let shape = [m as i64];
                        let src = Self::tensor_of(
                            element_at(data, in_info.dtype, first),
                            in_info.dtype,
                            &shape,
                        )?;
                        let dst = Self::tensor_of(s.views.as_mut_ptr().cast(), STRING, &shape)?;
                        let mut arena = tcast_string_arena {
                            data: s.text.as_mut_ptr().cast(),
                            capacity: (m * per_element) as u64,
                            used: 0,
                        };
                        tcast_check(
                            tcast_cast_to_strings(&src, &dst, &mut arena, options, &mut err),
                            &err,
                        )?;
                        s.terminated.append(&s.views[..m], &s.text)?;
                    }
                    self.fill_strings(output, &mut s.terminated)
                }),
            }
        }
    }

    /// Expand: the input broadcast to the shape given as the second input.
    unsafe fn expand(
        &self,
        context: *mut OrtKernelContext,
        options: &tcast_cast_options,
    ) -> Result<(), Fail> {
        let mut err = new_error();
        // SAFETY: as in `cast`.
        unsafe {
            let input = self.input(context, 0)?;
            let in_info = self.info(input)?;
            let shape_value = self.input(context, 1)?;
            let shape_info = self.info(shape_value)?;
            let (out_shape, out_ndim) =
                self.expand_shape(&in_info.shape, shape_value, shape_info.count())?;
            let out_info = Info {
                dtype: in_info.dtype,
                shape: out_shape[..out_ndim].to_vec(),
            };
            let output = self.output(context, &out_info.shape)?;
            if in_info.dtype == STRING {
                Strings::with(|s| {
                    self.read_strings(input, in_info.count(), s, true)?;
                    s.out_views.clear();
                    s.out_views.resize(out_info.count(), EMPTY_VIEW);
                    let src = Self::tensor(s.views.as_mut_ptr().cast(), &in_info)?;
                    let dst = Self::tensor(s.out_views.as_mut_ptr().cast(), &out_info)?;
                    tcast_check(tcast_expand_ex(&src, &dst, options, &mut err), &err)?;
                    self.write_strings(output, &s.out_views, (&s.text, true), &mut s.terminated)
                })
            } else {
                let src = Self::tensor(self.data(input)?, &in_info)?;
                let dst = Self::tensor(self.data(output)?, &out_info)?;
                tcast_check(tcast_expand_ex(&src, &dst, options, &mut err), &err)
            }
        }
    }

    /// Expand's output shape (`tcast_expand_shape`): `in_shape` broadcast to the `wanted`
    /// INT64 values of the shape input `shape_value`, on the stack, with its rank.
    ///
    /// # Safety
    /// As for `data`; `shape_value` is an INT64 tensor of `wanted` elements.
    unsafe fn expand_shape(
        &self,
        in_shape: &[i64],
        shape_value: *const OrtValue,
        wanted: usize,
    ) -> Result<([i64; TCAST_MAX_NDIM as usize], usize), Fail> {
        let wanted_ptr: *const i64 = if wanted == 0 {
            null()
        } else {
            // SAFETY: forwarded.
            unsafe { self.data(shape_value)?.cast() }
        };
        let mut out_shape = [0i64; TCAST_MAX_NDIM as usize];
        let mut out_ndim = 0;
        let mut err = new_error();
        tcast_check(
            tcast_expand_shape(
                in_shape.as_ptr(),
                i32::try_from(in_shape.len()).unwrap_or(i32::MAX),
                wanted_ptr,
                i32::try_from(wanted).unwrap_or(i32::MAX),
                out_shape.as_mut_ptr(),
                TCAST_MAX_NDIM,
                &mut out_ndim,
                &mut err,
            ),
            &err,
        )?;
        Ok((out_shape, usize::try_from(out_ndim).unwrap_or(0)))
    }

    /// Expand on a table of `SHAPE_REFERENCE_VERSION` or later: the input's and the shape
    /// input's types and shapes read in one call each without a copy, the output's shape
    /// worked out on the stack, the element size known from the kernel info (`known`).
    /// STRING goes to `expand`.
    unsafe fn expand_by_reference(
        &self,
        context: *mut OrtKernelContext,
        known: Option<Element>,
        options: &tcast_cast_options,
    ) -> Result<(), Fail> {
        // SAFETY: as in `cast_by_reference`; the shape input is an INT64 tensor (ONNX's
        // schema, checked by onnxruntime) of `wanted` elements.
        unsafe {
            let input = self.input(context, 0)?;
            let (in_type, in_shape) = self.type_and_shape(input)?;
            let dtype = dtype_from_ort(in_type);
            if dtype == STRING {
                return self.expand(context, options);
            }
            let bits = known.filter(|e| e.dtype == dtype).map_or(0, |e| e.bits);
            let shape_value = self.input(context, 1)?;
            let (_, shape_shape) = self.type_and_shape(shape_value)?;
            let wanted: usize = shape_shape.iter().map(|&d| d.max(0) as usize).product();
            let (out_shape, out_ndim) = self.expand_shape(in_shape, shape_value, wanted)?;
            let out_shape = &out_shape[..out_ndim];
            let mut err = new_error();
            let output = self.output(context, out_shape)?;
            let src = Self::tensor_sized(self.data(input)?, dtype, bits, in_shape)?;
            let dst = Self::tensor_sized(self.data(output)?, dtype, bits, out_shape)?;
            tcast_check(tcast_expand_ex(&src, &dst, options, &mut err), &err)
        }
    }

    /// QuantizeLinear and DequantizeLinear: x, scale and the optional zero point to an
    /// output of x's shape and the element type onnxruntime inferred for it.
    unsafe fn quantize_linear(
        &self,
        context: *mut OrtKernelContext,
        op: Op,
        options: &tcast_qdq_options,
    ) -> Result<(), Fail> {
        let mut err = new_error();
        // SAFETY: as in `cast`; a zero point onnxruntime does not have is a NULL value
        // (the input left out, or named "").
        unsafe {
            let x = self.input(context, 0)?;
            let x_info = self.info(x)?;
            let scale = self.input(context, 1)?;
            let scale_info = self.info(scale)?;
            let zero_point = if self.input_count(context)? > 2 {
                self.input(context, 2)?
            } else {
                null()
            };
            let zero_point_info = if zero_point.is_null() {
                None
            } else {
                Some(self.info(zero_point)?)
            };
            let output = self.output(context, &x_info.shape)?;
            let y_info = self.info(output)?;
            let src = Self::tensor(self.data(x)?, &x_info)?;
            let scale_tensor = Self::tensor(self.data(scale)?, &scale_info)?;
            let zero_point_tensor = match &zero_point_info {
                Some(info) => Some(Self::tensor(self.data(zero_point)?, info)?),
                None => None,
            };
            let zero_point_ptr = zero_point_tensor
                .as_ref()
                .map_or(null(), |t| t as *const tcast_tensor);
            let dst = Self::tensor(self.data(output)?, &y_info)?;
            let run = if op == Op::QuantizeLinear {
                tcast_quantize_linear
            } else {
                tcast_dequantize_linear
            };
            tcast_check(
                run(&src, &scale_tensor, zero_point_ptr, &dst, options, &mut err),
                &err,
            )
        }
    }

    unsafe fn input_count(&self, context: *mut OrtKernelContext) -> Result<usize, Fail> {
        let mut count = 0;
        // SAFETY: the member's type is the header's; `context` is valid.
        check(unsafe { ort_fn!(self.api, KernelContext_GetInputCount)(context, &mut count) })?;
        Ok(count)
    }
}

/// A kernel call's context, the executor's `ctx`.
struct Pool {
    api: Api,
    context: *mut OrtKernelContext,
}

/// One `parallel_for` call's tasks, handed to onnxruntime's pool.
struct Tasks {
    task: tcast_task_fn,
    task_ctx: *mut c_void,
    ran: Vec<AtomicBool>,
}

/// tensorcast's executor: runs the tasks on onnxruntime's intra-op threads through
/// `KernelContext_ParallelFor`. Should onnxruntime refuse, the tasks it did not run are run
/// here, so that each runs exactly once as the executor contract requires.
unsafe extern "C" fn run_tasks(
    ctx: *mut c_void,
    n_tasks: u64,
    task: tcast_task_fn,
    task_ctx: *mut c_void,
) {
    // A panic must not unwind into tensorcast; should one happen, the tasks left unrun make
    // tensorcast fail the call (it checks that each task ran once).
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `ctx` is the `Pool` of the kernel call that made this executor, alive
        // during it.
        let pool = unsafe { &*ctx.cast::<Pool>() };
        let count = n_tasks as usize;
        let tasks = Tasks {
            task,
            task_ctx,
            ran: (0..count).map(|_| AtomicBool::new(false)).collect(),
        };
        // SAFETY: the member's type is the header's; `tasks` outlives the call, which returns
        // only when every task it started has finished.
        let status = unsafe {
            ort_fn!(pool.api, KernelContext_ParallelFor)(
                pool.context,
                Some(run_one),
                count,
                0,
                (&tasks as *const Tasks).cast_mut().cast(),
            )
        };
        if !status.is_null() {
            pool.api.release_status(status);
            for (index, ran) in tasks.ran.iter().enumerate() {
                if !ran.load(Ordering::Acquire) {
                    // SAFETY: tensorcast's task with its own context and an index in range.
                    unsafe { (tasks.task)(tasks.task_ctx, index as u64) };
                }
            }
        }
    }));
}

/// One task on one of onnxruntime's threads.
unsafe extern "C" fn run_one(data: *mut c_void, index: usize) {
    // Nothing here unwinds (tensorcast's tasks catch their own panics); the guard keeps it so.
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `data` is the `Tasks` of the `run_tasks` call that is waiting for this.
        let tasks = unsafe { &*data.cast::<Tasks>() };
        if let Some(ran) = tasks.ran.get(index) {
            // SAFETY: tensorcast's task with its own context and an index in range.
            unsafe { (tasks.task)(tasks.task_ctx, index as u64) };
            ran.store(true, Ordering::Release);
        }
    }));
}

/// A Cast node's output type: the `to` attribute, the input's shape.
///
/// # Safety
/// `context` is the inference context onnxruntime passes for a Cast node.
pub unsafe fn infer_cast(api: Api, context: *mut ort::OrtShapeInferContext) -> Result<(), Fail> {
    let mut handle = null_mut();
    let mut attr = null();
    let mut to = 0i64;
    let mut written = 0;
    // SAFETY: the members' types are the header's. The type-and-shape handle belongs to the
    // context (a copy of the input's, made for this call): it is given the output's element
    // type and handed back as the output's. The attribute belongs to the node.
    unsafe {
        check(ort_fn!(api, ShapeInferContext_GetInputTypeShape)(
            context,
            0,
            &mut handle,
        ))?;
        check(ort_fn!(api, ShapeInferContext_GetAttribute)(
            context,
            c"to".as_ptr(),
            &mut attr,
        ))?;
        if attr.is_null() {
            return Err(Fail::New(
                ort::ORT_INVALID_ARGUMENT,
                "Cast needs the attribute 'to'".into(),
            ));
        }
        check(ort_fn!(api, ReadOpAttr)(
            attr,
            ort::ATTR_INT,
            (&mut to as *mut i64).cast(),
            size_of::<i64>(),
            &mut written,
        ))?;
        let to = c_int::try_from(to).unwrap_or(0);
        check(ort_fn!(api, SetTensorElementType)(handle, dtype_to_ort(to)))?;
        check(ort_fn!(api, ShapeInferContext_SetOutputTypeShape)(
            context, 0, handle,
        ))
    }
}

/// tensorcast's default Q/DQ options (saturate 1, axis 1, block_size 0, precision 0).
fn qdq_defaults() -> tcast_qdq_options {
    let mut options = tcast_qdq_options {
        struct_size: 0,
        saturate: 0,
        axis: 0,
        block_size: 0,
        precision: 0,
        reserved: 0,
    };
    // Cannot fail: the pointer is a local and the size the library's own.
    tcast_qdq_options_init(&mut options, size_of::<tcast_qdq_options>());
    options
}

/// A tensor element type known when the session is made: tensorcast's number and its
/// size in bits (`tcast_dtype_bits`: 0 for STRING and types tensorcast does not know).
#[derive(Clone, Copy)]
struct Element {
    dtype: c_int,
    bits: u32,
}

/// A node's input or output.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Input,
    Output,
}

/// The element type of the node's input or output 0, if the kernel info tells it.
///
/// # Safety
/// `info` is valid for this call.
unsafe fn element(api: Api, info: *const OrtKernelInfo, side: Side) -> Option<Element> {
    let mut type_info = null_mut();
    // SAFETY: the members' types are the header's (KernelInfo_GetInputTypeInfo and
    // KernelInfo_GetOutputTypeInfo are in every table of API_VERSION); the tensor info
    // belongs to the type info, released last.
    unsafe {
        let status = if side == Side::Input {
            ort_fn!(api, KernelInfo_GetInputTypeInfo)(info, 0, &mut type_info)
        } else {
            ort_fn!(api, KernelInfo_GetOutputTypeInfo)(info, 0, &mut type_info)
        };
        if !status.is_null() {
            api.release_status(status);
            return None;
        }
        let read = || -> Option<Element> {
            let mut tensor_info = null();
            let status = ort_fn!(api, CastTypeInfoToTensorInfo)(type_info, &mut tensor_info);
            if !status.is_null() {
                api.release_status(status);
                return None;
            }
            if tensor_info.is_null() {
                return None;
            }
            let mut ort_type = 0;
            let status = ort_fn!(api, GetTensorElementType)(tensor_info, &mut ort_type);
            if !status.is_null() {
                api.release_status(status);
                return None;
            }
            // UNDEFINED (0): not known when the session is made.
            (ort_type != 0).then(|| {
                let dtype = dtype_from_ort(ort_type);
                Element {
                    dtype,
                    bits: tcast_dtype_bits(dtype),
                }
            })
        };
        let dtype = read();
        ort_fn!(api, ReleaseTypeInfo)(type_info);
        dtype
    }
}

/// An int attribute of the node, if it has one.
unsafe fn attribute_int(api: Api, info: *const OrtKernelInfo, name: &CStr) -> Option<i64> {
    let mut value = 0;
    // SAFETY: the member's type is the header's; `info` is valid; `name` NUL-terminated.
    let status =
        unsafe { ort_fn!(api, KernelInfoGetAttribute_int64)(info, name.as_ptr(), &mut value) };
    if status.is_null() {
        Some(value)
    } else {
        api.release_status(status);
        None
    }
}

/// A string attribute of the node, if it has one.
unsafe fn attribute_string(api: Api, info: *const OrtKernelInfo, name: &CStr) -> Option<String> {
    let get = ort_fn!(api, KernelInfoGetAttribute_string);
    let mut size = 0;
    // SAFETY: a NULL buffer asks for the size (NUL included).
    let status = unsafe { get(info, name.as_ptr(), null_mut(), &mut size) };
    if !status.is_null() {
        api.release_status(status);
        return None;
    }
    let mut text = vec![0u8; size.max(1)];
    // SAFETY: the buffer holds `size` bytes.
    let status = unsafe { get(info, name.as_ptr(), text.as_mut_ptr().cast(), &mut size) };
    if !status.is_null() {
        api.release_status(status);
        return None;
    }
    let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
    Some(String::from_utf8_lossy(&text[..end]).into_owned())
}
