// SPDX-License-Identifier: MIT OR Apache-2.0
//! Cast: ONNX Cast-1 ... Cast-28 / CastLike, and tf.cast to complex.
//!
//! A call validates its options and shapes, picks one contiguous kernel for the dtype
//! pair, and runs it over the input: directly on contiguous memory, row by row on
//! strided memory (gathering non-unit-stride rows through a small stack buffer), and
//! split over threads when asked.

mod checks;
mod exec;
pub(crate) mod kernels;
pub(crate) mod options;
#[cfg(test)]
mod reference;
pub(crate) mod strings;
pub(crate) mod text;

use crate::dtype::DType;
use crate::error::Error;
use crate::parallel::Workers;
use crate::simd::fpenv::DefaultFpEnv;
pub(crate) use crate::simd::kernel::Kernel;
use crate::tensor::{Tensor, TensorMut};
pub use checks::check_casting;
pub(crate) use checks::{check_same_shape, check_sub_byte_layouts};
pub(crate) use exec::{plain_kernel, run_contiguous, Plan};
pub use options::{CastOptions, Casting, RoundMode, StringFormat, SubByteLayout};
pub use strings::format_strings;
pub(crate) use strings::{check_format_pair, check_pair, format_to_views};
pub use text::max_text_bytes;

/// Casts every element of `input` into `output` (same shape; the output dtype is the
/// target). A STRING input is parsed (docs/semantics-cast.md section 8); a numeric ->
/// STRING cast needs an arena: [`format_strings`]. Sub-byte operands are held as
/// `options.sub_byte_layout` says, which their layouts must say too.
///
/// ```
/// use tensorcast::{cast, CastOptions, DType, Layout, SubByteLayout, Tensor, TensorMut};
/// let src: Vec<u8> = [1.0f32, -1.0, 7.0].iter().flat_map(|x| x.to_ne_bytes()).collect();
/// let mut dst = [0u8; 3];
/// let unpacked = SubByteLayout::Unpacked;
/// let options = CastOptions { sub_byte_layout: unpacked, ..CastOptions::default() };
/// let input = Tensor::new(&src, DType::Float, &[3]).unwrap();
/// let layout = Layout::with_sub_byte_layout("output", DType::Int4, &[3], None, unpacked);
/// let mut output = TensorMut::from_layout(layout.unwrap(), &mut dst).unwrap();
/// cast(&input, &mut output, &options).unwrap();
/// assert_eq!(dst, [0x01, 0x0f, 0x07]); // ml_dtypes' int4 bytes
/// ```
pub fn cast(input: &Tensor, output: &mut TensorMut, options: &CastOptions) -> Result<(), Error> {
    let _env = DefaultFpEnv::enter();
    let (from, to) = (input.layout().dtype(), output.layout().dtype());
    check_casting(from, to, options)?;
    strings::check_pair(from, to)?;
    check_same_shape(input.layout(), output.layout())?;
    check_sub_byte_layouts(input.layout(), output.layout(), options)?;
    cast_checked(input, output, options, Workers::own(options.threads))
}

/// [`cast`] of operands whose dtype pair, casting level, shapes and sub-byte layouts were
/// checked already (by [`cast`], or by the C shell in the order of docs/c-api.md section
/// 8): the checks are made once per call.
pub(crate) fn cast_checked(
    input: &Tensor,
    output: &mut TensorMut,
    options: &CastOptions,
    workers: Workers,
) -> Result<(), Error> {
    let (from, to) = (input.layout().dtype(), output.layout().dtype());
    if from == DType::String && to != DType::String {
        return strings::parse_strings(input, output, options, workers);
    }
    let plan = exec::plan(from, to, options);
    let (_, out) = output.parts();
    exec::run(plan, input, out, workers)
}

#[cfg(test)]
mod lowp_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod unpacked_tests;
