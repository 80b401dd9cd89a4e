// SPDX-License-Identifier: MIT OR Apache-2.0
//! Cast options: `tcast_cast_options` read and checked, for the general path (with its
//! messages) and for the plain path (one pass, no messages).

use crate::cast::{CastOptions, Casting, RoundMode, StringFormat, SubByteLayout};
use crate::dtype::DType;
use crate::error::Error;
use crate::ffi::executor::HostExecutor;
use crate::ffi::types::{
    tcast_cast_options, tcast_executor, EXECUTOR_OPTIONS_SIZE, FIRST_OPTIONS_SIZE,
};
use crate::np;
use crate::parallel::Workers;
use std::sync::OnceLock;

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
        sub_byte_layout: SubByteLayout::Packed,
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
pub(crate) unsafe fn plain_options(
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
        sub_byte_layout: SubByteLayout::Packed,
    };
    Some((options, executor))
}

/// Whether `casting` allows the cast `from` -> `to` (what [`check_casting`] checks),
/// from a table of every pair's level built on first use, so that a call with a
/// casting level pays one load.
#[inline(always)]
pub(super) fn casting_allows(from: DType, to: DType, casting: Casting) -> bool {
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

/// Whether a plain path's call runs as one task on the calling thread: `threads` <= 1,
/// or `tasks`, the operation's split for the workers the options name, gives one.
/// Threads, on an executor or the library's own, pay only for large calls; the plain
/// paths take the calls they would not split.
///
/// # Safety
/// `executor` is NULL or as [`plain_options`] returned it: readable, with a non-NULL
/// `parallel_for`.
#[inline(always)]
pub(crate) unsafe fn runs_as_one_task(
    threads: usize,
    executor: *const tcast_executor,
    tasks: impl FnOnce(Workers<'_>) -> usize,
) -> bool {
    if threads <= 1 {
        return true;
    }
    if executor.is_null() {
        return tasks(Workers::own(threads)) <= 1;
    }
    // SAFETY: readable (this function's contract).
    let Some(host) = HostExecutor::new(unsafe { executor.read() }) else {
        return false;
    };
    tasks(Workers::Host {
        executor: &host,
        threads,
    }) <= 1
}
