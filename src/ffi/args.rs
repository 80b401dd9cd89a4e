// SPDX-License-Identifier: MIT OR Apache-2.0
//! Layer 2 of the C ABI: argument readers and writers. Each reader turns raw C arguments
//! into checked Rust values and is an `unsafe fn` whose `# Safety` section is the part
//! of the C contract (docs/c-api.md sections 1 and 4) it relies on; a writer is a value
//! made by a reader (which checked its pointer), so writing through it is safe. Errors
//! name the argument; the exports call the readers in the order of docs/c-api.md
//! section 8.

use super::executor::HostExecutor;
use super::types::{
    tcast_cast_options, tcast_executor, tcast_np_dtype, tcast_string_arena, tcast_tensor,
    EXECUTOR_OPTIONS_SIZE, FIRST_OPTIONS_SIZE, TCAST_MAX_NDIM,
};
use crate::bitcast::LastDim;
use crate::cast::{
    check_casting, check_same_shape, plain_kernel, CastOptions, Casting, Kernel, RoundMode,
    StringFormat,
};
use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::np;
use crate::parallel::Workers;
use crate::tensor::{Layout, ShapeBuf, Tensor, TensorMut, MAX_NDIM};
use core::fmt::Write as _;
use core::marker::PhantomData;
use std::ffi::{c_char, CStr};
use std::ops::Range;
use std::sync::OnceLock;

/// NULL_ARGUMENT naming `what` when `ptr` is NULL (the pointer is not read).
#[inline(always)]
pub(crate) fn require<T>(ptr: *const T, what: &str) -> Result<(), Error> {
    if ptr.is_null() {
        return Err(null_argument(what));
    }
    Ok(())
}

/// The NULL_ARGUMENT error, out of line so that the success path carries no trace of it.
#[cold]
#[inline(never)]
fn null_argument(what: &str) -> Error {
    Error::NullArgument(format!("{what} is NULL"))
}

/// A static NUL-terminated string as a C pointer.
pub(crate) fn c_static(text_nul: &'static str) -> *const c_char {
    debug_assert!(text_nul.ends_with('\0'));
    text_nul.as_ptr().cast()
}

/// A required text argument as UTF-8: NULL_ARGUMENT when NULL, PARSE quoting it when
/// it is not UTF-8 (a text the function cannot read, docs/c-api.md section 1).
///
/// # Safety
/// `ptr` is NULL or points to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn read_text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Error> {
    require(ptr, what)?;
    // SAFETY: non-NULL and NUL-terminated per this function's contract.
    let raw = unsafe { CStr::from_ptr(ptr) };
    raw.to_str().map_err(|_| Error::Parse {
        index: None,
        message: format!(
            "{what} is not valid UTF-8: {:?}",
            String::from_utf8_lossy(raw.to_bytes())
        ),
    })
}

/// A C capacity argument as a count, or INVALID_ARGUMENT naming it when negative.
#[inline(always)]
pub(crate) fn capacity_of(value: i32, what: &str) -> Result<usize, Error> {
    usize::try_from(value).map_err(|_| negative_capacity(what, value))
}

#[cold]
#[inline(never)]
fn negative_capacity(what: &str, value: i32) -> Error {
    Error::InvalidArgument(format!("{what} is {value}; it must be >= 0"))
}

/// A dtype name argument, or INVALID_DTYPE quoting it.
pub(crate) fn dtype_named(name: &str) -> Result<DType, Error> {
    DType::from_name(name)
        .ok_or_else(|| Error::InvalidDtype(format!("unknown dtype name {name:?}")))
}

/// NULL_ARGUMENT when a shape argument is NULL with a positive length (NULL pointers are
/// the first check of every call; the length itself is checked with the shape).
#[inline(always)]
pub(crate) fn require_shape(shape: *const i64, ndim: i32, what: &str) -> Result<(), Error> {
    if ndim > 0 && shape.is_null() {
        return Err(null_shape(what, ndim));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn null_shape(what: &str, ndim: i32) -> Error {
    Error::NullArgument(format!("{what} is NULL but its length is {ndim}"))
}

/// Reads `ndim` dims (or strides) from a caller's array into `buf`.
///
/// # Safety
/// `values` is NULL or points to `ndim` readable int64_t.
#[inline(always)]
pub(crate) unsafe fn read_dims<'b>(
    role: &str,
    what: &str,
    values: *const i64,
    ndim: i32,
    buf: &'b mut ShapeBuf,
) -> Result<&'b [usize], Error> {
    let Some(rank) = usize::try_from(ndim).ok().filter(|&n| n <= MAX_NDIM) else {
        return Err(bad_rank(role, ndim));
    };
    if rank == 0 {
        return buf.fill_from_i64(role, what, &[]);
    }
    if values.is_null() {
        return Err(null_values(role, what, ndim));
    }
    // SAFETY: the caller guarantees `rank` readable int64_t at a non-NULL `values`.
    let raw = unsafe { std::slice::from_raw_parts(values, rank) };
    buf.fill_from_i64(role, what, raw)
}

#[cold]
#[inline(never)]
fn bad_rank(role: &str, ndim: i32) -> Error {
    Error::InvalidShape(format!(
        "{role} ndim is {ndim}; it must be 0 ..= {TCAST_MAX_NDIM}"
    ))
}

#[cold]
#[inline(never)]
fn null_values(role: &str, what: &str, ndim: i32) -> Error {
    Error::NullArgument(format!("{role} {what} is NULL but ndim is {ndim}"))
}

/// Room for one tensor's dims and strides, read from the caller's arrays; the
/// [`Layout`] made from them borrows it.
pub(crate) struct LayoutBuf {
    dims: ShapeBuf,
    strides: ShapeBuf,
}

impl LayoutBuf {
    #[inline(always)]
    pub(crate) fn new() -> LayoutBuf {
        LayoutBuf {
            dims: ShapeBuf::new(),
            strides: ShapeBuf::new(),
        }
    }
}

/// Reads a caller's descriptor: NULL_ARGUMENT when the pointer is NULL, or when its
/// shape is NULL with a positive `ndim`.
///
/// # Safety
/// `ptr` is NULL or points to a readable tcast_tensor.
#[inline(always)]
pub(crate) unsafe fn read_descriptor(
    ptr: *const tcast_tensor,
    role: &str,
) -> Result<tcast_tensor, Error> {
    require(ptr, role)?;
    // SAFETY: non-NULL and readable per this function's contract.
    let desc = unsafe { ptr.read() };
    if desc.ndim > 0 && desc.shape.is_null() {
        return Err(null_values(role, "shape", desc.ndim));
    }
    Ok(desc)
}

/// A descriptor's dtype code, checked.
#[inline(always)]
pub(crate) fn dtype_of(role: &str, desc: &tcast_tensor) -> Result<DType, Error> {
    DType::from_code_arg(desc.dtype, format_args!("{role} dtype"))
}

/// Checks a descriptor's shape and strides for its (already checked) `dtype`.
///
/// # Safety
/// `desc.shape` / `desc.strides` are NULL or point to `desc.ndim` readable int64_t.
#[inline(always)]
pub(crate) unsafe fn read_layout<'s>(
    role: &str,
    desc: &tcast_tensor,
    dtype: DType,
    buf: &'s mut LayoutBuf,
) -> Result<Layout<'s>, Error> {
    // SAFETY: forwarded from this function's contract.
    let dims = unsafe { read_dims(role, "shape", desc.shape, desc.ndim, &mut buf.dims) }?;
    let strides = if desc.strides.is_null() {
        None
    } else {
        // SAFETY: forwarded from this function's contract.
        Some(unsafe { read_dims(role, "strides", desc.strides, desc.ndim, &mut buf.strides) }?)
    };
    Layout::new(role, dtype, dims, strides)
}

/// A caller's options, checked: the core's [`CastOptions`] and the host's executor.
pub(crate) struct OptionsArg {
    pub(crate) options: CastOptions,
    executor: Option<HostExecutor>,
}

impl OptionsArg {
    /// Where the call's tasks run: the host's executor or the library's own threads.
    pub(crate) fn workers(&self) -> Workers<'_> {
        let threads = self.options.threads;
        match &self.executor {
            Some(executor) => Workers::Host { executor, threads },
            None => Workers::own(threads),
        }
    }
}

/// Validates a caller's cast options (NULL means the defaults). Fields past
/// `struct_size` take their defaults and are not read. Every check is one compare and a
/// branch to a cold function that builds the message, so that a call with valid options
/// (the plain path's too) pays only the compares.
///
/// # Safety
/// `ptr` is NULL or points to at least `struct_size` readable bytes of options; a
/// non-NULL `executor` among them points to a readable tcast_executor.
#[inline(always)]
pub(crate) unsafe fn read_options(ptr: *const tcast_cast_options) -> Result<OptionsArg, Error> {
    if ptr.is_null() {
        return Ok(OptionsArg {
            options: CastOptions::default(),
            executor: None,
        });
    }
    // SAFETY: non-NULL; struct_size is the first field of every layout.
    let size = unsafe { std::ptr::addr_of!((*ptr).struct_size).read() };
    if size < FIRST_OPTIONS_SIZE {
        return Err(small_options(size));
    }
    // SAFETY: struct_size >= FIRST_OPTIONS_SIZE, which holds every field read here
    // (the first layout), each read on its own so nothing past it is touched.
    let raw = unsafe {
        FirstOptions {
            saturate: std::ptr::addr_of!((*ptr).saturate).read(),
            round_mode: std::ptr::addr_of!((*ptr).round_mode).read(),
            string_format: std::ptr::addr_of!((*ptr).string_format).read(),
            casting: std::ptr::addr_of!((*ptr).casting).read(),
            threads: std::ptr::addr_of!((*ptr).threads).read(),
        }
    };
    let options = check_options(raw)?;
    let executor = if size >= EXECUTOR_OPTIONS_SIZE {
        // SAFETY: the layout the caller compiled has the field.
        unsafe { std::ptr::addr_of!((*ptr).executor).read() }
    } else {
        std::ptr::null()
    };
    let executor = if executor.is_null() {
        None
    } else {
        // SAFETY: a non-NULL executor is readable (this function's contract).
        let raw = unsafe { executor.read() };
        Some(HostExecutor::new(raw).ok_or_else(null_parallel_for)?)
    };
    Ok(OptionsArg { options, executor })
}

#[cold]
#[inline(never)]
fn small_options(size: u32) -> Error {
    Error::InvalidArgument(format!(
        "options.struct_size is {size}; it must be at least {FIRST_OPTIONS_SIZE} (use tcast_cast_options_default())"
    ))
}

#[cold]
#[inline(never)]
fn null_parallel_for() -> Error {
    Error::InvalidArgument("options.executor->parallel_for is NULL".into())
}

/// The fields of the first layout of tcast_cast_options.
struct FirstOptions {
    saturate: i32,
    round_mode: i32,
    string_format: i32,
    casting: i32,
    threads: i32,
}

#[inline(always)]
fn check_options(raw: FirstOptions) -> Result<CastOptions, Error> {
    let saturate = match raw.saturate {
        0 => false,
        1 => true,
        v => return Err(bad_saturate(v)),
    };
    let Ok(threads) = usize::try_from(raw.threads) else {
        return Err(negative_threads(raw.threads));
    };
    Ok(CastOptions {
        saturate,
        round_mode: RoundMode::from_arg(raw.round_mode, "options.round_mode")?,
        string_format: StringFormat::from_arg(raw.string_format, "options.string_format")?,
        casting: Casting::from_arg(raw.casting, "options.casting")?,
        threads,
    })
}

#[cold]
#[inline(never)]
fn bad_saturate(value: i32) -> Error {
    Error::InvalidArgument(format!("options.saturate is {value}; it must be 0 or 1"))
}

#[cold]
#[inline(never)]
fn negative_threads(value: i32) -> Error {
    Error::InvalidArgument(format!("options.threads is {value}; it must be >= 0"))
}

/// The options of a plain cast ([`plain_cast_operands`]), read in one pass: the fields
/// [`read_options`] reads, with the same checks, but None instead of an error (the
/// general path then reads them again and reports it); the executor as its pointer
/// (NULL when none), checked.
///
/// # Safety
/// As [`read_options`].
#[inline(always)]
unsafe fn plain_options(
    ptr: *const tcast_cast_options,
) -> Option<(CastOptions, *const tcast_executor)> {
    if ptr.is_null() {
        return Some((CastOptions::default(), std::ptr::null()));
    }
    // SAFETY: non-NULL; struct_size is the first field of every layout.
    let size = unsafe { std::ptr::addr_of!((*ptr).struct_size).read() };
    if size < FIRST_OPTIONS_SIZE {
        return None;
    }
    // SAFETY: struct_size >= FIRST_OPTIONS_SIZE, which holds these fields.
    let (saturate, round_mode, string_format, casting, threads) = unsafe {
        (
            std::ptr::addr_of!((*ptr).saturate).read(),
            std::ptr::addr_of!((*ptr).round_mode).read(),
            std::ptr::addr_of!((*ptr).string_format).read(),
            std::ptr::addr_of!((*ptr).casting).read(),
            std::ptr::addr_of!((*ptr).threads).read(),
        )
    };
    let executor = if size >= EXECUTOR_OPTIONS_SIZE {
        // SAFETY: the layout the caller compiled has the field.
        unsafe { std::ptr::addr_of!((*ptr).executor).read() }
    } else {
        std::ptr::null()
    };
    // SAFETY: a non-NULL executor is readable (this function's contract).
    if !executor.is_null() && unsafe { (*executor).parallel_for }.is_none() {
        return None;
    }
    let options = CastOptions {
        saturate: match saturate {
            0 => false,
            1 => true,
            _ => return None,
        },
        round_mode: RoundMode::from_code(round_mode).filter(|m| m.is_argument())?,
        string_format: StringFormat::from_code(string_format).filter(|f| f.is_argument())?,
        casting: Casting::from_code(casting).filter(|c| c.is_argument())?,
        threads: usize::try_from(threads).ok()?,
    };
    Some((options, executor))
}

/// Whether `casting` allows the cast `from` -> `to` (what [`check_casting`] checks),
/// from a table of every pair's level built on first use, so that a call with a
/// casting level pays one load.
#[inline(always)]
fn casting_allows(from: DType, to: DType, casting: Casting) -> bool {
    if casting == Casting::Unsafe {
        return true;
    }
    static LEVELS: OnceLock<[[Casting; DType::ALL.len()]; DType::ALL.len()]> = OnceLock::new();
    let levels = LEVELS.get_or_init(|| {
        core::array::from_fn(|i| {
            core::array::from_fn(|j| np::ml::tensor_level(DType::ALL[i], DType::ALL[j]))
        })
    });
    levels[slot(from)][slot(to)] <= casting
}

/// A dtype's position in [`DType::ALL`].
#[inline(always)]
fn slot(dtype: DType) -> usize {
    static SLOTS: OnceLock<[u8; 256]> = OnceLock::new();
    let slots = SLOTS.get_or_init(|| {
        let mut slots = [0u8; 256];
        for (i, d) in DType::ALL.iter().enumerate() {
            slots[d.code() as usize] = i as u8;
        }
        slots
    });
    usize::from(slots[dtype.code() as u8 as usize])
}

/// Borrows a numpy dtype handle argument.
///
/// # Safety
/// `ptr` is NULL or a handle from `tcast_np_dtype_parse` not yet freed, alive for `'a`.
pub(crate) unsafe fn read_handle<'a>(
    ptr: *const tcast_np_dtype,
    what: &str,
) -> Result<&'a np::Parsed, Error> {
    require(ptr, what)?;
    // SAFETY: a non-NULL handle is live per this function's contract.
    Ok(unsafe { &(*ptr).parsed })
}

/// A caller's input bytes of a given length (a numpy scalar's value).
///
/// # Safety
/// `ptr` is NULL or points to `len` readable bytes that stay unchanged for `'a`.
pub(crate) unsafe fn read_bytes<'a>(
    ptr: *const std::ffi::c_void,
    len: u64,
    what: &str,
) -> Result<&'a [u8], Error> {
    if len == 0 {
        return Ok(&[]);
    }
    require(ptr, what)?;
    let len = usize::try_from(len)
        .ok()
        .filter(|&n| n <= isize::MAX as usize)
        .ok_or_else(|| {
            Error::InvalidArgument(format!("{what}_bytes is {len}: larger than memory"))
        })?;
    // SAFETY: non-NULL with `len` readable bytes per this function's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// INVALID_ARGUMENT when two byte ranges share a byte (empty ranges share none). The one
/// overlap check of the library: inputs, outputs and arenas are judged on the byte
/// ranges their shapes (or capacities) describe.
#[inline]
pub(crate) fn require_disjoint(
    first: &str,
    a: &Range<usize>,
    second: &str,
    b: &Range<usize>,
) -> Result<(), Error> {
    if a.is_empty() || b.is_empty() || a.end <= b.start || b.end <= a.start {
        return Ok(());
    }
    Err(overlap(first, a, second, b))
}

#[cold]
#[inline(never)]
fn overlap(first: &str, a: &Range<usize>, second: &str, b: &Range<usize>) -> Error {
    Error::InvalidArgument(format!(
        "{second} overlaps {first} ({first} bytes {:#x}..{:#x}, {second} bytes {:#x}..{:#x}); \
         the operation does not work in place",
        a.start, a.end, b.start, b.end
    ))
}

/// The byte range a checked tensor occupies.
fn byte_range(desc: &tcast_tensor, layout: &Layout) -> Range<usize> {
    let start = desc.data as usize;
    start..start + layout.bytes()
}

/// NULL data with elements, then `data_bytes` below what the shape needs.
#[inline]
pub(crate) fn check_data(role: &str, desc: &tcast_tensor, layout: &Layout) -> Result<(), Error> {
    if layout.count() > 0 && desc.data.is_null() {
        return Err(null_data(role, layout));
    }
    layout.check_buffer(role, desc.data_bytes)
}

#[cold]
#[inline(never)]
fn null_data(role: &str, layout: &Layout) -> Error {
    Error::NullArgument(format!(
        "{role} data is NULL but shape {} has {} elements",
        shape_text(layout.dims()),
        layout.count()
    ))
}

/// The input view of a checked descriptor (its size checked here).
///
/// # Safety
/// `desc.data` points to `desc.data_bytes` readable bytes that stay unchanged for `'a`;
/// for a STRING input, each element is a tcast_string whose non-NULL `data` points to
/// `len` such bytes.
#[inline(always)]
pub(crate) unsafe fn input_view<'a>(
    desc: &tcast_tensor,
    layout: Layout<'a>,
) -> Result<Tensor<'a>, Error> {
    check_data("input", desc, &layout)?;
    let data: &'a [u8] = if layout.bytes() == 0 {
        &[]
    } else {
        // SAFETY: non-NULL (checked) and at least `layout.bytes()` readable bytes
        // (`data_bytes` checked above, the caller vouches for it).
        unsafe { std::slice::from_raw_parts(desc.data.cast::<u8>(), layout.bytes()) }
    };
    // SAFETY: the STRING views are the caller's promise, per this function's contract.
    unsafe { Tensor::from_raw_layout(layout, data) }
}

/// The output view of a checked descriptor (already checked for size).
///
/// # Safety
/// `desc.data` points to `desc.data_bytes` writable bytes that nothing else reads or
/// writes for `'a`.
#[inline(always)]
unsafe fn output_view<'a>(desc: &tcast_tensor, layout: Layout<'a>) -> Result<TensorMut<'a>, Error> {
    let data: &'a mut [u8] = if layout.bytes() == 0 {
        &mut []
    } else {
        // SAFETY: non-NULL (checked), at least `layout.bytes()` writable bytes, and not
        // aliased, per this function's contract.
        unsafe { std::slice::from_raw_parts_mut(desc.data.cast::<u8>(), layout.bytes()) }
    };
    // SAFETY: STRING views written here are read by the C caller, who owns their bytes.
    unsafe { TensorMut::from_raw_layout(layout, data) }
}

/// The input and output views of an operation that reads one tensor and writes another,
/// after the last two checks of docs/c-api.md section 8, in that order: both buffers'
/// sizes (and NULL data with elements; input first), then overlap of the byte ranges the
/// shapes describe. `arena` is a third range the other two must not overlap.
///
/// # Safety
/// As [`input_view`] for `input`; `output.data` points to `output.data_bytes` writable
/// bytes that nothing but this call uses for `'a` (overlap with the input is checked
/// here).
#[inline(always)]
pub(crate) unsafe fn input_output_views<'a>(
    input: &tcast_tensor,
    in_layout: Layout<'a>,
    output: &tcast_tensor,
    out_layout: Layout<'a>,
    mut arena: Option<&mut ArenaArg>,
) -> Result<(Tensor<'a>, TensorMut<'a>), Error> {
    out_layout.require_contiguous("output")?;
    check_data("input", input, &in_layout)?;
    check_data("output", output, &out_layout)?;
    let arena = match &mut arena {
        Some(arena) => Some(arena.check()?),
        None => None,
    };
    let (a, b) = (
        byte_range(input, &in_layout),
        byte_range(output, &out_layout),
    );
    require_disjoint("the input buffer", &a, "the output buffer", &b)?;
    if let Some(arena) = &arena {
        require_disjoint("the input buffer", &a, "the arena", arena)?;
        require_disjoint("the output buffer", &b, "the arena", arena)?;
    }
    // SAFETY: forwarded from this function's contract; the buffers are disjoint.
    unsafe {
        Ok((
            input_view(input, in_layout)?,
            output_view(output, out_layout)?,
        ))
    }
}

/// The operands of a cast (`tcast_cast`, `tcast_cast_to_strings`), checked in the order
/// of docs/c-api.md section 8: NULL pointers, dtype codes and the pair (`check_pair`),
/// option values and the casting level they ask for, shapes, buffer (and `arena`)
/// sizes, overlap.
///
/// # Safety
/// `input`, `output` and `options` are NULL or valid as docs/c-api.md sections 4 and 5
/// describe, for `'a`.
#[inline(always)]
pub(crate) unsafe fn cast_operands<'a>(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
    check_pair: fn(DType, DType) -> Result<(), Error>,
    arena: Option<&mut ArenaArg>,
    (in_buf, out_buf): (&'a mut LayoutBuf, &'a mut LayoutBuf),
) -> Result<(Tensor<'a>, TensorMut<'a>, OptionsArg), Error> {
    // SAFETY: forwarded from this function's contract.
    let (input, output) = unsafe {
        (
            read_descriptor(input, "input")?,
            read_descriptor(output, "output")?,
        )
    };
    let (from, to) = (dtype_of("input", &input)?, dtype_of("output", &output)?);
    check_pair(from, to)?;
    // SAFETY: as above.
    let options = unsafe { read_options(options)? };
    check_casting(from, to, &options.options)?;
    // SAFETY: as above.
    let in_layout = unsafe { read_layout("input", &input, from, in_buf)? };
    let out_layout = if same_contiguous_shape(&input, &output) {
        // The output's shape is the input's, already checked: only its bytes differ.
        in_layout.retyped("output", to)?
    } else {
        // SAFETY: as above.
        let out_layout = unsafe { read_layout("output", &output, to, out_buf)? };
        check_same_shape(&in_layout, &out_layout)?;
        out_layout
    };
    // SAFETY: as above.
    let (src, dst) = unsafe { input_output_views(&input, in_layout, &output, out_layout, arena)? };
    Ok((src, dst, options))
}

/// The operands of the plainest cast, which is also the most common one: two tensors
/// without strides whose shape arrays hold the same extents, a pair of numeric dtypes
/// that are not packed (standard scalars, float8 and the other one-byte formats), any
/// valid options that leave the call on the calling thread. Every check of
/// [`cast_operands`] is made on them, in one straight pass: NULL pointers, dtype codes,
/// option values and the casting level, rank, extents (>= 0), element and byte counts
/// (overflow, addressable), buffer sizes, NULL data with elements, overlap. None when
/// the call is not of this kind or a check fails: the general path then reads the
/// arguments again and reports the first failure in the order of docs/c-api.md section
/// 8, so this path changes no outcome, only the cost of the common one (tests:
/// `plain_and_general_paths_agree`).
///
/// # Safety
/// As [`cast_operands`], for `'a`.
#[inline(always)]
pub(crate) unsafe fn plain_cast_operands<'a>(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    options: *const tcast_cast_options,
) -> Option<(Kernel, &'a [u8], &'a mut [u8])> {
    if input.is_null() || output.is_null() {
        return None;
    }
    // SAFETY: non-NULL descriptors are readable (this function's contract).
    let (i, o) = unsafe { (input.read(), output.read()) };
    if !i.strides.is_null() || !o.strides.is_null() || i.ndim != o.ndim {
        return None;
    }
    let rank = usize::try_from(i.ndim).ok().filter(|&r| r <= MAX_NDIM)?;
    let (from, to) = (DType::from_code(i.dtype)?, DType::from_code(o.dtype)?);
    // SAFETY: forwarded from this function's contract.
    let (options, executor) = unsafe { plain_options(options) }?;
    if !casting_allows(from, to, options.casting) {
        return None;
    }
    let plan = plain_kernel(from, to, &options)?;
    let mut count: u64 = 1;
    if rank > 0 {
        if i.shape.is_null() || o.shape.is_null() {
            return None;
        }
        // SAFETY: non-NULL shapes hold `ndim` readable int64_t (docs/c-api.md section 4).
        let (a, b) = unsafe {
            (
                std::slice::from_raw_parts(i.shape, rank),
                std::slice::from_raw_parts(o.shape, rank),
            )
        };
        for (&x, &y) in a.iter().zip(b) {
            if x != y || x < 0 {
                return None;
            }
            count = count.checked_mul(x as u64)?;
        }
    }
    // Threads, on an executor or the library's own, pay only for large calls; the
    // plain path takes the calls they would not split.
    if options.threads > 1 {
        let threads = options.threads;
        let tasks = if executor.is_null() {
            plan.tasks(count, Workers::own(threads))
        } else {
            // SAFETY: checked readable by plain_options, with a non-NULL parallel_for.
            let host = HostExecutor::new(unsafe { executor.read() })?;
            plan.tasks(
                count,
                Workers::Host {
                    executor: &host,
                    threads,
                },
            )
        };
        if tasks > 1 {
            return None;
        }
    }
    let kernel = plan.kernel;
    let in_bytes = count.checked_mul(kernel.src_size as u64)?;
    let out_bytes = count.checked_mul(kernel.dst_size as u64)?;
    // SAFETY: forwarded from this function's contract.
    let (src, dst) = unsafe { plain_views(&i, in_bytes, &o, out_bytes) }?;
    Some((kernel, src, dst))
}

/// The input and output bytes of a plain call (no strides, sizes computed by the
/// caller from the shapes, without overflow): None when a buffer is smaller than its
/// `data_bytes` says, too large to address, NULL with bytes to hold, or when the two
/// overlap. Empty views need no data pointer.
///
/// # Safety
/// As [`cast_operands`]: each `data` points to its `data_bytes` bytes, the input's
/// unchanged and the output's used by nothing else, for `'a`.
#[inline(always)]
pub(crate) unsafe fn plain_views<'a>(
    i: &tcast_tensor,
    in_bytes: u64,
    o: &tcast_tensor,
    out_bytes: u64,
) -> Option<(&'a [u8], &'a mut [u8])> {
    let limit = isize::MAX as u64;
    if in_bytes > i.data_bytes || out_bytes > o.data_bytes || in_bytes > limit || out_bytes > limit
    {
        return None;
    }
    let (in_bytes, out_bytes) = (in_bytes as usize, out_bytes as usize);
    if (in_bytes > 0 && i.data.is_null()) || (out_bytes > 0 && o.data.is_null()) {
        return None;
    }
    let (a, b) = (i.data as usize, o.data as usize);
    if in_bytes > 0
        && out_bytes > 0
        && a < b.saturating_add(out_bytes)
        && b < a.saturating_add(in_bytes)
    {
        return None; // overlapping buffers
    }
    // SAFETY: each view is empty or its pointer is non-NULL with at least that many
    // bytes (data_bytes, checked above, is the caller's promise); the two are disjoint;
    // the input is not written and the output is used by nothing else during the call
    // (docs/c-api.md sections 1 and 4).
    unsafe {
        Some((
            bytes_at(i.data.cast(), in_bytes),
            bytes_at_mut(o.data.cast(), out_bytes),
        ))
    }
}

/// `len` bytes at `ptr` (which may be NULL or dangling when `len` is 0).
///
/// # Safety
/// When `len > 0`, `ptr` points to `len` readable bytes unchanged for `'a`.
#[inline(always)]
unsafe fn bytes_at<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: this function's contract.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// `len` writable bytes at `ptr` (which may be NULL or dangling when `len` is 0).
///
/// # Safety
/// When `len > 0`, `ptr` points to `len` writable bytes used by nothing else for `'a`.
#[inline(always)]
unsafe fn bytes_at_mut<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: this function's contract.
    unsafe { std::slice::from_raw_parts_mut(ptr, len) }
}

/// Whether an output descriptor (without strides) has the same shape array contents as
/// an input whose shape was read and checked: a cast's output then needs no second
/// reading. Both shapes hold `ndim` readable int64_t (read_descriptor checked NULLs).
#[inline]
fn same_contiguous_shape(input: &tcast_tensor, output: &tcast_tensor) -> bool {
    if !output.strides.is_null() || output.ndim != input.ndim {
        return false;
    }
    let Ok(rank) = usize::try_from(input.ndim) else {
        return false;
    };
    if rank == 0 || input.shape == output.shape {
        return rank <= MAX_NDIM;
    }
    if rank > MAX_NDIM {
        return false;
    }
    // SAFETY: both shapes are non-NULL (rank > 0; read_descriptor refused NULL) and
    // hold `rank` readable int64_t (docs/c-api.md section 4).
    let (a, b) = unsafe {
        (
            std::slice::from_raw_parts(input.shape, rank),
            std::slice::from_raw_parts(output.shape, rank),
        )
    };
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// A required out-pointer, checked for NULL when read; writing is then safe.
pub(crate) struct Out<'a, T> {
    ptr: *mut T,
    target: PhantomData<&'a mut T>,
}

/// Checks a required out-pointer.
///
/// # Safety
/// `ptr` is NULL or points to a writable, aligned `T` that nothing else uses for `'a`.
#[inline(always)]
pub(crate) unsafe fn out_arg<'a, T>(ptr: *mut T, what: &str) -> Result<Out<'a, T>, Error> {
    require(ptr, what)?;
    Ok(Out {
        ptr,
        target: PhantomData,
    })
}

impl<T> Out<'_, T> {
    /// Stores `value`.
    pub(crate) fn write(&mut self, value: T) {
        // SAFETY: non-NULL and writable, checked when the Out was made (out_arg).
        unsafe { self.ptr.write(value) }
    }
}

/// A shape output: an array of `capacity` int64_t and, for the shape functions, the
/// rank's out-pointer.
pub(crate) struct ShapeOut<'a> {
    dims: *mut i64,
    capacity: i32,
    capacity_name: &'static str,
    ndim: Option<Out<'a, i32>>,
    target: PhantomData<&'a mut [i64]>,
}

/// Checks a shape output: NULL `ndim` (when given as required), then a NULL array with a
/// positive capacity. The capacity's sign is checked later, with the argument values
/// ([`ShapeOut::capacity`]).
///
/// # Safety
/// `dims` is NULL or points to `capacity` writable int64_t, and `ndim` (when `Some`) is
/// NULL or points to a writable int32_t, both used by nothing else for `'a`.
#[inline(always)]
pub(crate) unsafe fn shape_out<'a>(
    dims: *mut i64,
    dims_name: &str,
    capacity: i32,
    capacity_name: &'static str,
    ndim: Option<(*mut i32, &str)>,
) -> Result<ShapeOut<'a>, Error> {
    let ndim = match ndim {
        // SAFETY: forwarded from this function's contract.
        Some((ptr, what)) => Some(unsafe { out_arg(ptr, what) }?),
        None => None,
    };
    if capacity > 0 {
        require(dims, dims_name)?;
    }
    Ok(ShapeOut {
        dims,
        capacity,
        capacity_name,
        ndim,
        target: PhantomData,
    })
}

/// The result arguments of the shape functions: `out_shape` of `out_capacity` int64_t
/// and the rank's `out_ndim`.
///
/// # Safety
/// As [`shape_out`].
#[inline(always)]
pub(crate) unsafe fn shape_result<'a>(
    out_shape: *mut i64,
    out_capacity: i32,
    out_ndim: *mut i32,
) -> Result<ShapeOut<'a>, Error> {
    let ndim = Some((out_ndim, "out_ndim"));
    // SAFETY: forwarded from this function's contract.
    unsafe { shape_out(out_shape, "out_shape", out_capacity, "out_capacity", ndim) }
}

impl ShapeOut<'_> {
    /// INVALID_ARGUMENT for a negative capacity.
    pub(crate) fn check_capacity(&self) -> Result<(), Error> {
        capacity_of(self.capacity, self.capacity_name).map(|_| ())
    }

    /// Writes the rank (when asked for), then the extents, or BUFFER_TOO_SMALL naming
    /// the `shape` (what it is, e.g. "broadcast shape") when the capacity is below the
    /// rank; the rank is written even then.
    /// A negative capacity (which [`ShapeOut::check_capacity`] refused earlier) holds
    /// nothing.
    #[inline]
    pub(crate) fn store(&mut self, what: &str, dims: &[usize]) -> Result<(), Error> {
        if let Some(ndim) = &mut self.ndim {
            ndim.write(dims.len() as i32);
        }
        let capacity = usize::try_from(self.capacity).unwrap_or(0);
        if dims.len() > capacity {
            return Err(self.too_small(what, dims));
        }
        for (i, &d) in dims.iter().enumerate() {
            // SAFETY: `dims` holds `capacity` >= rank writable int64_t (shape_out's
            // contract; non-NULL since capacity > 0 here).
            unsafe { self.dims.add(i).write(d as i64) };
        }
        Ok(())
    }

    /// [`ShapeOut::store`] of a bitcast view's shape: `dims` changed by `change`,
    /// written straight into the caller's array.
    #[inline]
    pub(crate) fn store_view(
        &mut self,
        what: &str,
        dims: &[usize],
        change: LastDim,
    ) -> Result<(), Error> {
        let rank = change.rank(dims.len());
        if let Some(ndim) = &mut self.ndim {
            ndim.write(rank as i32);
        }
        let capacity = usize::try_from(self.capacity).unwrap_or(0);
        if rank > capacity {
            let view: Vec<usize> = (0..rank).map(|i| change.dim(dims, i)).collect();
            return Err(self.too_small(what, &view));
        }
        for i in 0..rank {
            // SAFETY: `dims` holds `capacity` >= rank writable int64_t (shape_out's
            // contract; non-NULL since capacity > 0 here).
            unsafe { self.dims.add(i).write(change.dim(dims, i) as i64) };
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_small(&self, what: &str, dims: &[usize]) -> Error {
        Error::BufferTooSmall(format!(
            "{} is {} but the {what} {} has rank {}",
            self.capacity_name,
            self.capacity,
            shape_text(dims),
            dims.len()
        ))
    }

    /// The array's pointer, for a view that refers to it.
    pub(crate) fn as_ptr(&self) -> *const i64 {
        self.dims
    }
}

/// A text output: `capacity` bytes at `buf`, and where to report the bytes the text needs.
/// `buf` may be NULL with `capacity` 0 when `needed` is not: a sizing query.
pub(crate) struct TextOut<'a> {
    bytes: &'a mut [u8],
    capacity: u64,
    needed: Option<&'a mut u64>,
}

/// Checks a text output: NULL_ARGUMENT naming `what` for a NULL `buf`, unless the call is
/// a sizing query (`buf` NULL, `capacity` 0, `needed` not NULL).
///
/// # Safety
/// `buf` is NULL or points to `capacity` writable bytes used by nothing else for `'a`;
/// `needed` is NULL or writable for `'a`.
pub(crate) unsafe fn text_out<'a>(
    buf: *mut c_char,
    capacity: u64,
    needed: *mut u64,
    what: &str,
) -> Result<TextOut<'a>, Error> {
    // SAFETY: NULL or writable, per this function's contract.
    let needed = unsafe { needed.as_mut() };
    if buf.is_null() && capacity == 0 && needed.is_some() {
        return Ok(TextOut {
            bytes: &mut [],
            capacity,
            needed,
        });
    }
    require(buf, what)?;
    let room =
        usize::try_from(capacity).map_or(isize::MAX as usize, |c| c.min(isize::MAX as usize));
    // SAFETY: `buf` holds `capacity` (>= room) writable bytes per this function's contract.
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf.cast::<u8>(), room) };
    Ok(TextOut {
        bytes,
        capacity,
        needed,
    })
}

impl TextOut<'_> {
    /// Writes `str(dtype)` and a NUL, or BUFFER_TOO_SMALL with the bytes needed; reports
    /// the bytes needed (NUL included) through `needed` either way. The text goes
    /// straight into the buffer (nothing is allocated) and is measured if it does not
    /// fit. A sizing query only reports.
    pub(crate) fn put(self, dtype: &np::NpDtype) -> Result<(), Error> {
        // CText never fails.
        self.put_with(
            |out| {
                let _ = dtype.write_str_to(out);
            },
            || format!("{:?}", dtype.to_str_capped()),
        )
    }

    /// [`TextOut::put`] for a text already built.
    pub(crate) fn put_str(self, text: &str) -> Result<(), Error> {
        self.put_with(
            |out| {
                let _ = out.write_str(text);
            },
            || format!("{text:?}"),
        )
    }

    /// Writes what `write` writes, and a NUL; `describe` names the text in the
    /// BUFFER_TOO_SMALL message.
    fn put_with(
        self,
        write: impl FnOnce(&mut CText),
        describe: impl FnOnce() -> String,
    ) -> Result<(), Error> {
        let capacity = self.capacity;
        let query = self.bytes.is_empty() && capacity == 0 && self.needed.is_some();
        let mut out = CText {
            bytes: self.bytes,
            len: 0,
        };
        write(&mut out);
        let needed = out.len as u64 + 1;
        if let Some(slot) = self.needed {
            *slot = needed;
        }
        if query {
            return Ok(());
        }
        if capacity < needed {
            return Err(Error::BufferTooSmall(format!(
                "buf holds {capacity} bytes; {} needs {needed} (with its NUL)",
                describe()
            )));
        }
        out.bytes[out.len] = 0;
        Ok(())
    }
}

/// Writes text into a caller's buffer while it fits (leaving a byte for the NUL) and
/// counts every byte, so that a text that does not fit is measured without being built.
struct CText<'a> {
    bytes: &'a mut [u8],
    len: usize,
}

impl core::fmt::Write for CText<'_> {
    fn write_str(&mut self, piece: &str) -> core::fmt::Result {
        let end = self.len.saturating_add(piece.len());
        if end < self.bytes.len() {
            self.bytes[self.len..end].copy_from_slice(piece.as_bytes());
        }
        self.len = end;
        Ok(())
    }
}

/// A string arena argument, checked for NULL when read.
pub(crate) struct ArenaArg<'a> {
    ptr: *mut tcast_string_arena,
    desc: tcast_string_arena,
    /// The byte range, once checked.
    range: Option<Range<usize>>,
    target: PhantomData<&'a mut tcast_string_arena>,
}

/// Reads a string arena argument.
///
/// # Safety
/// `ptr` is NULL or points to a readable and writable tcast_string_arena whose `data`
/// holds `capacity` writable bytes, used by nothing else for `'a`.
pub(crate) unsafe fn read_arena<'a>(ptr: *mut tcast_string_arena) -> Result<ArenaArg<'a>, Error> {
    require(ptr, "arena")?;
    // SAFETY: non-NULL and readable per this function's contract.
    let desc = unsafe { ptr.read() };
    Ok(ArenaArg {
        ptr,
        desc,
        range: None,
        target: PhantomData,
    })
}

impl<'a> ArenaArg<'a> {
    /// The arena's checks, made with the buffer sizes: a capacity beyond memory, NULL
    /// data with a capacity, `used` beyond the capacity. Returns the byte range it spans.
    fn check(&mut self) -> Result<Range<usize>, Error> {
        let capacity = usize::try_from(self.desc.capacity)
            .ok()
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "arena capacity {} is larger than memory",
                    self.desc.capacity
                ))
            })?;
        if self.desc.data.is_null() && capacity > 0 {
            return Err(Error::NullArgument(format!(
                "arena data is NULL but capacity is {capacity}"
            )));
        }
        if self.desc.used > self.desc.capacity {
            return Err(Error::InvalidArgument(format!(
                "arena used ({}) is larger than its capacity ({})",
                self.desc.used, self.desc.capacity
            )));
        }
        let start = self.desc.data as usize;
        self.range = Some(start..start + capacity);
        Ok(start..start + capacity)
    }

    /// The arena's bytes, its `used` and the out-pointer for the new `used`. The bytes
    /// are empty unless [`input_output_views`] checked the arena and found it disjoint
    /// from the tensors.
    pub(crate) fn into_parts(self) -> (&'a mut [u8], usize, Out<'a, u64>) {
        let len = self.range.as_ref().map_or(0, Range::len);
        let bytes: &'a mut [u8] = if len == 0 {
            &mut []
        } else {
            // SAFETY: non-NULL with `len` = capacity writable bytes (read_arena's
            // contract and check()), not shared with the input or output (checked).
            unsafe { std::slice::from_raw_parts_mut(self.desc.data.cast::<u8>(), len) }
        };
        let used = Out {
            // SAFETY: `ptr` is non-NULL and points to a tcast_string_arena (read_arena).
            ptr: unsafe { std::ptr::addr_of_mut!((*self.ptr).used) },
            target: PhantomData,
        };
        (bytes, self.desc.used as usize, used)
    }
}
