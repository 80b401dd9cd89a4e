// SPDX-License-Identifier: MIT OR Apache-2.0
//! The operands of a cast: every check of docs/c-api.md section 8 on the descriptors and
//! the options, in the general order or in one straight pass (the plain path).

use super::options::{casting_allows, plain_options, read_options, runs_as_one_task, OptionsArg};
use super::strings::ArenaArg;
use super::tensors::{
    input_output_views, plain_views, read_input_output, read_layout_held, same_contiguous_shape,
    LayoutBuf,
};
use crate::cast::{check_casting, check_same_shape, plain_kernel, Kernel, Plan, SubByteLayout};
use crate::dtype::DType;
use crate::error::Error;
use crate::ffi::types::{tcast_cast_options, tcast_executor, tcast_tensor};
use crate::parallel::Workers;
use crate::tensor::{Tensor, TensorMut, MAX_NDIM};

/// The operands of a cast (`tcast_cast`, `tcast_cast_sub_byte`, `tcast_cast_to_strings`),
/// checked in the order of docs/c-api.md section 8: NULL pointers, dtype codes and the
/// pair (`check_pair`), option values (`sub_byte_layout`, a TCAST_SUB_BYTE_* code, among
/// them) and the casting level they ask for, shapes, buffer (and `arena`) sizes,
/// overlap.
///
/// # Safety
/// `input`, `output` and `options` are NULL or valid as docs/c-api.md sections 4 and 5
/// describe, for `'a`.
#[inline(always)]
pub(crate) unsafe fn cast_operands<'a>(
    input: *const tcast_tensor,
    output: *const tcast_tensor,
    (options, sub_byte_layout): (*const tcast_cast_options, i32),
    check_pair: fn(DType, DType) -> Result<(), Error>,
    arena: Option<&mut ArenaArg>,
    (in_buf, out_buf): (&'a mut LayoutBuf, &'a mut LayoutBuf),
) -> Result<(Tensor<'a>, TensorMut<'a>, OptionsArg), Error> {
    // SAFETY: forwarded from this function's contract.
    let ((input, from), (output, to)) = unsafe { read_input_output(input, output) }?;
    check_pair(from, to)?;
    // SAFETY: as above.
    let mut options = unsafe { read_options(options)? };
    let held = SubByteLayout::from_arg(sub_byte_layout, "sub_byte_layout")?;
    options.options.sub_byte_layout = held;
    check_casting(from, to, &options.options)?;
    // SAFETY: as above.
    let in_layout = unsafe { read_layout_held("input", &input, from, held, in_buf)? };
    let out_layout = if same_contiguous_shape(&input, &output) {
        // The output's shape is the input's, already checked: only its bytes differ.
        in_layout.retyped("output", to, held)?
    } else {
        // SAFETY: as above.
        let out_layout = unsafe { read_layout_held("output", &output, to, held, out_buf)? };
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
    let (from, to) = (DType::from_code(i.dtype)?, DType::from_code(o.dtype)?);
    // SAFETY: forwarded from this function's contract.
    let cast = unsafe { PlainCast::resolve(from, to, options) }?;
    // SAFETY: as above.
    unsafe { cast.operands(&i, &o) }
}

/// A pair of dtypes and options that the plain path takes (see [`plain_cast_operands`]):
/// the options read and valid, the casting level allowing the pair, the kernel chosen.
/// Resolved once per `tcast_cast` call, or once for a `tcast_cast_plan`.
pub(crate) struct PlainCast {
    from: DType,
    to: DType,
    plan: Plan,
    threads: usize,
    executor: *const tcast_executor,
}

impl PlainCast {
    /// The plain path's half of the checks that depend on the pair and the options only;
    /// None when the plain path does not take them.
    ///
    /// # Safety
    /// `options` is NULL or valid as docs/c-api.md section 5 describes (its executor, if
    /// any, for as long as the result is used).
    #[inline(always)]
    pub(crate) unsafe fn resolve(
        from: DType,
        to: DType,
        options: *const tcast_cast_options,
    ) -> Option<PlainCast> {
        // SAFETY: forwarded from this function's contract.
        let (options, executor) = unsafe { plain_options(options) }?;
        if !casting_allows(from, to, options.casting) {
            return None;
        }
        Some(PlainCast {
            from,
            to,
            plan: plain_kernel(from, to, &options)?,
            threads: options.threads,
            executor,
        })
    }

    /// The other half, on the two descriptors (already read): dtypes, rank and extents,
    /// the thread decision, sizes, NULL data and overlap. None when the plain path does
    /// not take them.
    ///
    /// # Safety
    /// The descriptors' pointers are valid as docs/c-api.md section 4 describes, for
    /// `'a`, and the executor `resolve` read is still valid.
    #[inline(always)]
    pub(crate) unsafe fn operands<'a>(
        &self,
        i: &tcast_tensor,
        o: &tcast_tensor,
    ) -> Option<(Kernel, &'a [u8], &'a mut [u8])> {
        // SAFETY: forwarded from this function's contract.
        unsafe { self.operands_on(i, o, self.executor) }
    }

    /// [`PlainCast::operands`] with the call's tasks on `executor` (NULL: the library's
    /// threads) instead of the options' executor.
    ///
    /// # Safety
    /// As [`PlainCast::operands`]; `executor` is NULL or readable.
    #[inline(always)]
    pub(crate) unsafe fn operands_on<'a>(
        &self,
        i: &tcast_tensor,
        o: &tcast_tensor,
        executor: *const tcast_executor,
    ) -> Option<(Kernel, &'a [u8], &'a mut [u8])> {
        if i.dtype != self.from.code()
            || o.dtype != self.to.code()
            || !i.strides.is_null()
            || !o.strides.is_null()
            || i.ndim != o.ndim
        {
            return None;
        }
        let rank = usize::try_from(i.ndim).ok().filter(|&r| r <= MAX_NDIM)?;
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
        let plan = &self.plan;
        let few = Workers::too_few_to_split(usize::try_from(count).unwrap_or(usize::MAX));
        // SAFETY: `executor` is NULL or readable (the contract).
        if !few && !unsafe { runs_as_one_task(self.threads, executor, |w| plan.tasks(count, w)) } {
            return None;
        }
        let kernel = plan.kernel;
        let in_bytes = count.checked_mul(kernel.src_size as u64)?;
        let out_bytes = count.checked_mul(kernel.dst_size as u64)?;
        // SAFETY: forwarded from this function's contract.
        let (src, dst) = unsafe { plain_views(i, in_bytes, o, out_bytes) }?;
        Some((kernel, src, dst))
    }
}
