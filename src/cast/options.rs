// SPDX-License-Identifier: MIT OR Apache-2.0
//! What a cast may do besides the dtype pair: the C-visible option enumerations (one
//! table each) and [`CastOptions`].

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

/// numpy's casting levels live with numpy's rules, below the operations that check them.
pub use crate::np::casting::Casting;
/// How sub-byte tensors hold their elements lives with the tensors, whose sizes it sets.
pub use crate::tensor::SubByteLayout;

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
    /// How the sub-byte operands (input and output alike) hold their elements: packed
    /// (the default) or one per byte; their layouts must say the same
    /// ([`Layout::with_sub_byte_layout`](crate::Layout::with_sub_byte_layout)).
    pub sub_byte_layout: SubByteLayout,
}

impl Default for CastOptions {
    fn default() -> Self {
        CastOptions {
            saturate: true,
            round_mode: RoundMode::Up,
            string_format: StringFormat::Shortest,
            casting: Casting::Unsafe,
            threads: 0,
            sub_byte_layout: SubByteLayout::Packed,
        }
    }
}
