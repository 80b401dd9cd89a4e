//! Cast: ONNX Cast-1 ... Cast-28 / CastLike, and tf.cast to complex.
//!
//! A call validates its options and shapes, picks one contiguous kernel for the dtype
//! pair, and runs it over the input: directly on contiguous memory, row by row on
//! strided memory (gathering non-unit-stride rows through a small stack buffer), and
//! split over threads when asked.

pub(crate) mod arch;
mod convert;
mod elem;
mod exec;
pub(crate) mod kernel;
mod kernels;
mod lowp;
pub(crate) mod pack;
#[cfg(test)]
mod reference;
mod repr;
pub(crate) mod strings;
pub(crate) mod text;

use crate::dtype::DType;
use crate::error::{shape_text, Error};
use crate::tensor::{Tensor, TensorMut};
pub use exec::Plan;
use kernel::Tier;
use repr::Repr;
pub use strings::format_strings;
pub(crate) use strings::{check_format_pair, check_pair, format_to_views};
pub(crate) use text::max_text_bytes;

crate::tables::c_enum! {
    /// ONNX `round_mode` for FLOAT8E8M0 targets; [`RoundMode::label`] is ONNX's name.
    #[derive(Default)]
    pub enum RoundMode: i32,
        "tcast_cast_options.round_mode: how FLOAT8E8M0 targets round (ONNX Cast's \
         round_mode)."
    {
        #[default]
        Up = 0 => TCAST_ROUND_UP ("up"):
            "`round_mode` \"up\" (the ONNX default): FLOAT8E8M0 targets only.",
        Down = 1 => TCAST_ROUND_DOWN ("down"): "`round_mode` \"down\".",
        Nearest = 2 => TCAST_ROUND_NEAREST ("nearest"): "`round_mode` \"nearest\" (ties up).",
    }
}

crate::tables::c_enum! {
    /// Text layout for numeric -> STRING.
    #[derive(Default)]
    pub enum StringFormat: i32,
        "tcast_cast_options.string_format: how numbers are written as text \
         (tcast_cast_to_strings)."
    {
        #[default]
        Shortest = 0 => TCAST_FORMAT_SHORTEST:
            "Shortest round-trip text in numpy's str() layout (the default).",
        Printf8g = 1 => TCAST_FORMAT_PRINTF_8G: "C's \"%.8g\" (\"%.17g\" for DOUBLE).",
    }
}

crate::tables::c_enum! {
    /// numpy's casting levels, from strictest to anything-goes, and NEVER, the level of a
    /// cast no level allows (a result only: the C API refuses it as an argument; asked
    /// for through the Rust API it refuses nothing, as UNSAFE). The order is numpy's:
    /// `level <= Casting::Safe` means "allowed at safe". [`Casting::label`] is numpy's
    /// name ("same_kind").
    #[derive(Default, PartialOrd, Ord)]
    pub enum Casting: i32,
        "numpy casting levels, strictest first: tcast_cast_options.casting, the casting \
         arguments of tcast_can_cast and tcast_np_*, and the level tcast_np_casting_level \
         reports."
    {
        No = 0 => TCAST_CASTING_NO ("no"): "numpy's 'no': only identical dtypes.",
        Equiv = 1 => TCAST_CASTING_EQUIV ("equiv"):
            "numpy's 'equiv': identical dtypes up to byte order.",
        Safe = 2 => TCAST_CASTING_SAFE ("safe"):
            "numpy's 'safe': only casts that keep every value.",
        SameKind = 3 => TCAST_CASTING_SAME_KIND ("same_kind"):
            "numpy's 'same_kind': safe casts and casts within a kind, such as DOUBLE to FLOAT.",
        #[default]
        Unsafe = 4 => TCAST_CASTING_UNSAFE ("unsafe"):
            "numpy's 'unsafe': any cast (the default of tcast_cast_options, which then \
             checks nothing).",
        Never = 5 => TCAST_CASTING_NEVER ("never") [result]:
            "The level `tcast_np_casting_level` reports when no casting level allows the \
             cast; never an argument.",
    }
}

/// What a cast may do besides the dtype pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CastOptions {
    /// Float8 targets: overflow saturates to the largest finite value (ONNX default).
    pub saturate: bool,
    /// FLOAT8E8M0 targets: how a value between two powers of two rounds.
    pub round_mode: RoundMode,
    /// STRING targets: the text layout of floats.
    pub string_format: StringFormat,
    /// Refuse casts numpy would not allow at this level.
    pub casting: Casting,
    /// 0 or 1: the calling thread only; n > 1: up to n threads.
    pub threads: usize,
}

impl Default for CastOptions {
    fn default() -> Self {
        CastOptions {
            saturate: true,
            round_mode: RoundMode::Up,
            string_format: StringFormat::Shortest,
            casting: Casting::Unsafe,
            threads: 0,
        }
    }
}

fn packed_bits(dtype: DType) -> Option<u32> {
    dtype.is_packed().then(|| dtype.bits())
}

/// Chooses the kernel for a numeric pair or STRING -> STRING (which copies the views) on
/// the detected CPU tier. The other STRING pairs are not kernels: see [`strings`].
pub fn plan(from: DType, to: DType, options: &CastOptions) -> Result<Plan, Error> {
    strings::check_pair(from, to)?;
    let kernel = match (from, to) {
        (DType::String, DType::String) => {
            kernels::copy(DType::String.bits() as usize / 8, Tier::detect())
        }
        _ => {
            let (Some(source), Some(target)) = (Repr::of(from), Repr::of(to)) else {
                unreachable!("check_pair leaves numeric pairs and STRING -> STRING")
            };
            kernels::select_any(
                source,
                target,
                options.saturate,
                options.round_mode as u8,
                Tier::detect(),
            )
        }
    };
    Ok(Plan {
        kernel,
        src_packed: packed_bits(from),
        dst_packed: packed_bits(to),
    })
}

/// Refuses a cast that numpy (with ml_dtypes) would not make at `options.casting`
/// (TCAST_ERR_CASTING, numpy's message).
pub fn check_casting(from: DType, to: DType, options: &CastOptions) -> Result<(), Error> {
    crate::np::check_tensor_cast(from, to, options.casting)
}

/// Checks that a cast keeps the shape.
pub fn check_same_shape(
    input: &crate::tensor::Layout,
    output: &crate::tensor::Layout,
) -> Result<(), Error> {
    if input.dims() != output.dims() {
        return Err(Error::InvalidShape(format!(
            "output shape {} does not match input shape {}: a cast keeps the shape",
            shape_text(output.dims()),
            shape_text(input.dims())
        )));
    }
    Ok(())
}

/// Casts every element of `input` into `output` (same shape; the output dtype is the
/// target). A STRING input is parsed (docs/semantics-cast.md section 8); a numeric ->
/// STRING cast needs an arena: [`format_strings`].
pub fn cast(input: &Tensor, output: &mut TensorMut, options: &CastOptions) -> Result<(), Error> {
    let (from, to) = (input.layout().dtype(), output.layout().dtype());
    check_casting(from, to, options)?;
    strings::check_pair(from, to)?;
    check_same_shape(input.layout(), output.layout())?;
    if from == DType::String && to != DType::String {
        return strings::parse_strings(input, output, options);
    }
    let plan = plan(from, to, options)?;
    let (_, out) = output.parts();
    exec::run(plan, input, out, options.threads);
    Ok(())
}

#[cfg(test)]
mod lowp_tests;
#[cfg(test)]
mod tests;
