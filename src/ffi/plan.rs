// SPDX-License-Identifier: MIT OR Apache-2.0
//! Prepared casts: a dtype pair and options checked, and the kernel chosen, once
//! (`tcast_cast_plan_create`), then any number of casts of tensors of that pair
//! (`tcast_cast_plan_run`) that pay only for what depends on the tensors. For runtimes
//! that know a node's types when they load a model and cast small tensors many times.

use super::args::{read_descriptor, read_options, PlainCast};
use super::cast::cast_in_general;
use super::guard::guard;
use super::types::{
    tcast_cast_options, tcast_dtype, tcast_error, tcast_executor, tcast_status, tcast_tensor,
};
use crate::cast::{check_casting, check_pair, run_contiguous, SubByteLayout};
use crate::dtype::DType;
use crate::error::Error;

/// An opaque prepared cast (from `tcast_cast_plan_create`, freed with
/// `tcast_cast_plan_free`): a dtype pair and options checked, and the kernel chosen,
/// once. Immutable: one plan may be used from many threads at once.
pub struct tcast_cast_plan {
    from: DType,
    to: DType,
    /// The caller's options as given, at this library's struct size (the fields an older
    /// caller's struct lacks at their defaults), for the calls the plain path leaves.
    options: tcast_cast_options,
    /// The plain path's checks of the pair and options, done (None: every call takes
    /// the general path, as tcast_cast would).
    plain: Option<PlainCast>,
}

impl tcast_cast_plan {
    /// Whether runs on plain tensors skip the general path (tests).
    #[cfg(test)]
    pub(crate) fn has_plain_path(&self) -> bool {
        self.plain.is_some()
    }
}

/// Prepares the cast of tensors of dtype `from` into tensors of dtype `to` with
/// `options` (NULL: the defaults), as tcast_cast would make it, and writes the plan to
/// `*plan` (NULL on failure). Everything tcast_cast checks of the pair and the options is
/// checked here, with tcast_cast's errors; the options are copied (an executor they name
/// must stay valid until the plan is freed). Free the plan with tcast_cast_plan_free.
/// Errors: NULL_ARGUMENT (`plan`), INVALID_DTYPE, UNSUPPORTED, INVALID_ARGUMENT (a bad
/// option), CASTING.
#[no_mangle]
pub extern "C" fn tcast_cast_plan_create(
    from: tcast_dtype,
    to: tcast_dtype,
    options: *const tcast_cast_options,
    plan: *mut *mut tcast_cast_plan,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        if plan.is_null() {
            return Err(Error::NullArgument("plan is NULL".into()));
        }
        // SAFETY: a non-NULL `plan` is a writable pointer slot (docs/c-api.md section 1).
        unsafe { plan.write(std::ptr::null_mut()) };
        let (source, target) = (
            DType::from_code_arg(from, format_args!("from"))?,
            DType::from_code_arg(to, format_args!("to"))?,
        );
        check_pair(source, target)?;
        // SAFETY: `options` is NULL or valid (docs/c-api.md section 5).
        let read = unsafe { read_options(options) }?;
        check_casting(source, target, &read.options)?;
        // SAFETY: as above.
        let stored = unsafe { copied_options(options) };
        let made = tcast_cast_plan {
            from: source,
            to: target,
            options: stored,
            // SAFETY: as above; the executor outlives the plan (this function's contract).
            plain: unsafe { PlainCast::resolve(source, target, &stored) },
        };
        let made = crate::mem::boxed(made, "a cast plan")?;
        // SAFETY: as above.
        unsafe { plan.write(Box::into_raw(made)) };
        Ok(())
    })
}

/// The caller's options (already read and valid) at this library's struct size: the
/// defaults, overwritten by as many of the caller's bytes as both structs have.
///
/// # Safety
/// `options` is NULL or points to a valid tcast_cast_options of its `struct_size`.
unsafe fn copied_options(options: *const tcast_cast_options) -> tcast_cast_options {
    let mut stored = super::cast::tcast_cast_options_default();
    if !options.is_null() {
        // SAFETY: struct_size is the first field of every layout, readable.
        let size = unsafe { std::ptr::addr_of!((*options).struct_size).read() } as usize;
        let known = size.min(std::mem::size_of::<tcast_cast_options>());
        // SAFETY: the caller's struct has `size` >= `known` readable bytes; `stored` has
        // `known` writable ones; the struct has no padding (see tcast_cast_options_init).
        unsafe {
            std::ptr::copy_nonoverlapping(
                options.cast::<u8>(),
                std::ptr::addr_of_mut!(stored).cast::<u8>(),
                known,
            );
        }
        stored.struct_size = std::mem::size_of::<tcast_cast_options>() as u32;
    }
    stored
}

/// Casts `input` into `output` as tcast_cast does with the plan's options: the same
/// results, errors and rules (shapes equal, no overlap, packed sub-byte dtypes), for
/// tensors of the plan's dtypes; a tensor of another dtype is INVALID_DTYPE. `executor`,
/// when not NULL, runs this call's tasks in place of the options' executor (a host whose
/// thread pool is known per call: docs/c-api.md section 9); the options' `threads` still
/// bounds them. A call on contiguous tensors of numeric dtypes that are not packed,
/// which runs on the calling thread, costs only the checks of the two tensors and the
/// kernel.
/// Errors: those of tcast_cast; NULL_ARGUMENT also for `plan`.
#[no_mangle]
pub extern "C" fn tcast_cast_plan_run(
    plan: *const tcast_cast_plan,
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    executor: *const tcast_executor,
    err: *mut tcast_error,
) -> tcast_status {
    guard(err, || {
        // SAFETY: a non-NULL plan is one tcast_cast_plan_create made and not yet freed.
        let Some(plan) = (unsafe { plan.as_ref() }) else {
            return Err(Error::NullArgument("plan is NULL".into()));
        };
        // SAFETY: a non-NULL executor is readable (docs/c-api.md section 9).
        let usable = executor.is_null() || unsafe { (*executor).parallel_for.is_some() };
        if let (Some(plain), false, false, true) =
            (&plan.plain, input.is_null(), output.is_null(), usable)
        {
            let executor = if executor.is_null() {
                plan.options.executor
            } else {
                executor
            };
            // SAFETY: non-NULL descriptors are readable, their pointers valid
            // (docs/c-api.md section 4); both executors are NULL or valid (the contract).
            let operands = unsafe { plain.operands_on(&*input, &*output, executor) };
            if let Some((kernel, src, dst)) = operands {
                run_contiguous(kernel, src, dst);
                return Ok(());
            }
        }
        // SAFETY: as above.
        let (i, o) = unsafe {
            (
                read_descriptor(input, "input")?,
                read_descriptor(output, "output")?,
            )
        };
        for (role, desc, dtype) in [("input", &i, plan.from), ("output", &o, plan.to)] {
            let given = DType::from_code_arg(desc.dtype, format_args!("{role} dtype"))?;
            if given != dtype {
                return Err(Error::InvalidDtype(format!(
                    "{role} dtype {} is not the plan's {} (a plan of {} -> {})",
                    given.name(),
                    dtype.name(),
                    plan.from.name(),
                    plan.to.name()
                )));
            }
        }
        let mut options = plan.options;
        if !executor.is_null() {
            options.executor = executor;
        }
        // SAFETY: as above.
        unsafe { cast_in_general(input, output, &options, SubByteLayout::Packed.code()) }
    })
}

/// Frees a plan from tcast_cast_plan_create. NULL is a no-op.
#[no_mangle]
pub extern "C" fn tcast_cast_plan_free(plan: *mut tcast_cast_plan) {
    if !plan.is_null() {
        // SAFETY: a non-NULL plan was made by Box::into_raw in tcast_cast_plan_create and
        // the caller frees it once.
        drop(unsafe { Box::from_raw(plan) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::guard::test_support::{blank_error, message};

    #[test]
    fn plans_cast_as_tcast_cast_does() {
        crate::ffi::plain_paths::check_plans_agree();
    }

    /// Create's own errors: a NULL `plan`, bad dtype codes (named `from` and `to`), a
    /// pair tcast_cast refuses, a bad option, a casting level; each leaves NULL at
    /// `*plan`. tcast_cast_plan_run refuses a NULL plan; freeing NULL does nothing.
    #[test]
    fn create_and_run_refuse_what_tcast_cast_refuses() {
        let f32 = DType::Float.code();
        let mut err = blank_error();
        let status = |s: crate::error::Status| s as i32;
        use crate::error::Status::*;
        assert_eq!(
            tcast_cast_plan_create(f32, f32, std::ptr::null(), std::ptr::null_mut(), &mut err),
            status(NullArgument)
        );
        assert_eq!(message(&err), "plan is NULL");
        let mut plan = std::ptr::NonNull::<tcast_cast_plan>::dangling().as_ptr();
        assert_eq!(
            tcast_cast_plan_create(250, f32, std::ptr::null(), &mut plan, &mut err),
            status(InvalidDtype)
        );
        assert!(message(&err).starts_with("from"), "{}", message(&err));
        assert!(plan.is_null());
        assert_eq!(
            tcast_cast_plan_create(f32, -3, std::ptr::null(), &mut plan, &mut err),
            status(InvalidDtype)
        );
        assert!(message(&err).starts_with("to"), "{}", message(&err));
        assert_eq!(
            tcast_cast_plan_create(
                f32,
                DType::String.code(),
                std::ptr::null(),
                &mut plan,
                &mut err
            ),
            status(Unsupported)
        );
        let mut options = super::super::cast::tcast_cast_options_default();
        options.saturate = 7;
        assert_eq!(
            tcast_cast_plan_create(f32, f32, &options, &mut plan, &mut err),
            status(InvalidArgument)
        );
        options = super::super::cast::tcast_cast_options_default();
        options.casting = crate::cast::Casting::Safe as i32;
        assert_eq!(
            tcast_cast_plan_create(f32, DType::Float16.code(), &options, &mut plan, &mut err),
            status(Casting)
        );
        assert!(plan.is_null());
        let shape = [1i64];
        let mut x = [0u8; 4];
        let t = tcast_tensor {
            data: x.as_mut_ptr().cast(),
            data_bytes: 4,
            shape: shape.as_ptr(),
            strides: std::ptr::null(),
            ndim: 1,
            dtype: f32,
        };
        assert_eq!(
            tcast_cast_plan_run(std::ptr::null(), &t, &t, std::ptr::null(), &mut err),
            status(NullArgument)
        );
        assert_eq!(message(&err), "plan is NULL");
        tcast_cast_plan_free(std::ptr::null_mut());
    }
}
